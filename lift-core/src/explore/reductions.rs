//! Reductions derived as low-level LIFT programs (CGO'17 section 3, ICFP'15's partial
//! reductions; the NVIDIA_B and `amdDerived1` expressions of LIFT's `TestReduce` and
//! `SumAbsoluteValues`), which the ordinary code generator compiles like every other
//! candidate. Two strategies:
//!
//! * `tree(v=..)`: a full reduction `E[reduce(op, z) o map(g1) o ... o map(gk) $ x]` as two
//!   stage kernels ([`super::stages`]): the first folds a grid-stride slice per work-item
//!   and combines each group's values by a tree in local memory (one partial result per
//!   group, in a global temporary), the second does the same over the partial results in one
//!   group and applies the epilogue `E` where it writes the result;
//! * `tree(rows=1,wg=..)`: a map of such reductions (GEMV-like), one work-group per row.
//!
//! The derivation, rule by rule (`op` associative and commutative with the neutral `z`, by the
//! contract of `reduce`, SPEC section 2; `f = |acc, v| op(acc, g1(...gk(v)))`):
//!
//! 1. `reduce(op, z) o map(g1) o ... o map(gk) => reduce(op, z) o partRed(f, z)` (map fusion
//!    into the partial reduction);
//! 2. `partRed(f, z) => join o map_wrg(0, map_lcl(0, reduce_seq(f, z))) o split(w) o
//!    split(m) o gather(stride(p)) o take(p m)` with `p` work-items in groups of `w` and
//!    `m = n / p` whole slices (split-join twice, reorder with stride: work-item `i` folds
//!    elements `i, i + p, ...`, coalesced, with no guard; `split(m) o gather(stride(p))` built
//!    as the equal view `transpose o split(p)`; it applies where `n >= p`); the `r = n - p m <
//!    p` elements past the whole slices are one per work-item, read through `take(p) o
//!    gather(reverse) o pad(p, 0, clamp)` (no index leaves the input) and flagged by a zipped
//!    `take(p) o pad(0, p, false) $ map(|_| true) $ iota(r)`: each work-item's fold starts
//!    from `if e.1 { f(z, e.0) } else { z }`;
//! 3. with `v = 4`, `x => as_vector(4) o take(4 (n / 4)) $ x` for parameters (and `zip`s of
//!    them) of 32- and 64-bit numbers, the fold unrolled over the lanes, `f4 = |acc, e|
//!    f(f(f(f(acc, e[0]), e[1]), e[2]), e[3])`; the `n % 4` scalars past the last vector are
//!    one more flagged element per work-item;
//! 4. the `w` values of a group, in local memory: `reduce(op, z) $ [T; 2h] =>
//!    reduce(op, z) o to_local(map_lcl(0, reduce_seq(op, z))) o split(2) o gather(stride(h))`
//!    for `h = w / 2, ..., 1` (the halving steps, unrolled: work-item `i` adds `i + h`, no
//!    bank conflicts); the last step writes to global memory through the epilogue:
//!    `to_global(map_lcl(0, post o reduce_seq(op, z))) o split(2)`.

use super::strategy::{Strategy, Tree};
use super::{Candidate, Dropped, Lowering, Scope};
use crate::arith::Nat;
use crate::device::DeviceModel;
use crate::ir::{
    Boundary, Expr, ExprKind, Kernel, LitValue, Param, Pat, PrimArg, Program, Reorder,
};
use crate::prim::Prim;
use crate::rewrite::dsl::Builder;
use crate::rewrite::{build, epilogue, RewriteCtx};
use crate::typeck::{check_program, KernelInfo};
use crate::types::{ScalarType, Type};

/// Upper bound on the work-groups of the first kernel of a full reduction: a choice of the
/// algorithm (enough partial results to occupy a large GPU, few enough for one group to fold
/// them), not read from the device model.
const MAX_GROUPS: i64 = 1024;

/// Rows per work-group of row reductions, in order of preference: one, then 16 to 64 (rows
/// of 64 to 256 bytes side by side, for a transposed view), then 8.
const ROWS: [i64; 5] = [1, 16, 32, 64, 8];

/// The vector widths of full reductions, widest first.
const WIDTHS: [i64; 2] = [4, 1];

/// The parts of a reduction: `post(reduce(op, z) o map(g1) o ... o map(gk) $ input)`.
#[derive(Clone)]
struct Shape {
    op: Expr,
    z: Expr,
    /// `g1, ..., gk`, outermost first.
    maps: Vec<Expr>,
    /// The data reduced: a view of parameters (layouts after the maps applied).
    input: Expr,
    /// The epilogue applied to the reduction's result, if any (untyped).
    post: Option<Expr>,
    /// The number of elements reduced.
    n: Nat,
    /// The type of the reduction's result.
    elem: ScalarType,
}

/// The [`Shape`] of `body`, an epilogue split off.
fn shape(body: &Expr) -> Option<Shape> {
    let split = epilogue::split(body, &epilogue::has_reduce, &|e| core(e).is_some())?;
    let mut s = core(&split.core)?;
    s.post = split.post;
    Some(s)
}

/// The [`Shape`] of `reduce(op, z) o map(g1) o ... o layout $ x` (no epilogue).
fn core(body: &Expr) -> Option<Shape> {
    let ExprKind::Apply(f, args) = &body.kind else {
        return None;
    };
    let [x] = &args[..] else { return None };
    let chain = build::chain(f);
    let (head, rest) = chain.split_first()?;
    let (op, z) = (head.prim_fun(Prim::Reduce)?, head.prim_value(Prim::Reduce)?);
    let maps: Vec<Expr> = rest
        .iter()
        .map_while(|m| m.prim_fun(Prim::Map).cloned())
        .collect();
    let layout = &rest[maps.len()..];
    let input = if layout.is_empty() {
        x.clone()
    } else {
        build::apply1(build::compose(layout.to_vec(), x.span), x.clone(), x.span)
    };
    let elem = match &body.ty {
        Some(Type::Scalar(s)) if *s != ScalarType::F16 && *s != ScalarType::Bool => *s,
        _ => return None,
    };
    // Functions carry their result's type: the maps and layouts keep the length.
    let (_, n) = build::array(rest.first().unwrap_or(x).ty.as_ref())?;
    crate::analysis::is_pure(&input).then(|| Shape {
        op: build::untyped(op),
        z: build::pin_literal(z),
        maps: maps.iter().map(build::untyped).collect(),
        input: build::untyped(&input),
        post: None,
        n: n.clone(),
        elem,
    })
}

/// The data of the work-items of one reduction: `n` elements of `x` over `p` work-items.
struct Items<'x> {
    /// The elements (vectors when `v > 1`): a parameter or a view of parameters.
    x: Expr,
    /// Their number.
    n: &'x Nat,
    /// The vector width of `x`'s elements (1: scalars).
    v: i64,
    /// The components of a zipped input (0: one array).
    tuple: usize,
    /// The scalar elements past the last whole vector, when `v > 1`: the input as scalars
    /// and its length.
    rest: Option<(Expr, &'x Nat)>,
    /// Whether each work-item folds whole slices (`n >= p`, a condition) before the flagged
    /// elements; without, each folds at most one element (`n <= p`).
    whole: bool,
}

impl Builder<'_> {
    fn nat(&self, n: &Nat) -> PrimArg {
        PrimArg::Nat(n.clone(), self.s)
    }

    fn lit_bool(&self, b: bool) -> Expr {
        Expr::new(ExprKind::Lit(LitValue::Bool(b), None), self.s)
    }

    /// `f(args)`, a lambda beta-reduced.
    fn call(&self, f: &Expr, args: Vec<Expr>) -> Expr {
        build::call(f, args, self.s)
    }

    /// `op(acc, g1(...gk(v)))`.
    fn fold_one(&self, s: &Shape, acc: Expr, v: Expr) -> Expr {
        let mapped = s.maps.iter().rev().fold(v, |v, g| self.call(g, vec![v]));
        self.call(&s.op, vec![acc, mapped])
    }

    /// The fold of one element `x` (a vector of `v` lanes, of a zip of `tuple` arrays or of
    /// one): `|acc, x| f(.. f(acc, lane 0 of x) .., lane v-1)` (rules 1 and 3 of the module
    /// docs).
    fn lanes_fold(&self, s: &Shape, v: i64, tuple: usize) -> Expr {
        self.lam2("acc", "x", |acc, x| {
            let lane = |k: i64| {
                let at = |x: Expr| Expr::new(ExprKind::Index(Box::new(x), Nat::cst(k)), self.s);
                match (v, tuple) {
                    (1, _) => x.clone(),
                    (_, 0) => at(x.clone()),
                    _ => Expr::new(
                        ExprKind::Tuple((0..tuple).map(|c| at(self.proj(&x, c))).collect()),
                        self.s,
                    ),
                }
            };
            (0..v).fold(acc, |a, k| self.fold_one(s, a, lane(k)))
        })
    }

    /// `if e.1 { fold(acc, e.0) } else { acc }`: a flagged element folded where its flag
    /// holds.
    fn guarded(&self, fold: &Expr, acc: Expr, e: &Expr) -> Expr {
        let folded = self.call(fold, vec![acc.clone(), self.proj(e, 0)]);
        let kind = ExprKind::If(Box::new(self.proj(e, 1)), Box::new(folded), Box::new(acc));
        Expr::new(kind, self.s)
    }

    /// `zip(take(p) o gather(reverse) o pad(p, 0, clamp) $ x, take(p) o pad(0, p, false) o
    /// map(|_| true) $ iota(r))`: work-item `i` gets element `n - 1 - i` of `x` (of `n`
    /// elements, at least one), flagged when `i < r` (the last `r` elements, `r <= p`, are the
    /// ones past the whole slices); no index leaves `x`, so no size condition is needed.
    fn tail(&self, x: Expr, r: &Nat, p: &Nat) -> Expr {
        let take = self.prim(Prim::Take, vec![self.nat(p)]);
        let reverse = PrimArg::Reorder(Reorder::Reverse, self.s);
        let left = vec![
            self.nat(p),
            self.nat(&Nat::cst(0)),
            PrimArg::Boundary(Boundary::Clamp, self.s),
        ];
        let elems = self.app(
            self.o(vec![
                take.clone(),
                self.prim(Prim::Gather, vec![reverse]),
                self.prim(Prim::Pad, left),
            ]),
            x,
        );
        let ones = self.app(
            self.with(Prim::Map, self.lam("i", |_| self.lit_bool(true))),
            Expr::new(
                ExprKind::Apply(
                    Box::new(self.prim(Prim::Iota, vec![self.nat(r)])),
                    Vec::new(),
                ),
                self.s,
            ),
        );
        let right = vec![
            self.nat(&Nat::cst(0)),
            self.nat(p),
            PrimArg::Boundary(Boundary::Constant(Box::new(self.lit_bool(false))), self.s),
        ];
        let flags = self.app(self.o(vec![take, self.prim(Prim::Pad, right)]), ones);
        self.zip(elems, flags)
    }

    /// `zip(transpose o split(p) o take(p m) $ x, tail(x), [tail(rest)])` with `m = n / p`:
    /// work-item `i` folds the whole slice of elements `i, i + p, ..., i + (m - 1) p` (rule 2,
    /// coalesced; `transpose o split(p)` is `split(m) o gather(stride(p))` as a view whose
    /// indices need no division) and at most one flagged element past them, and one of the
    /// scalars past the last vector.
    fn items(&self, it: &Items, p: &Nat) -> Expr {
        if !it.whole {
            return self.tail(it.x.clone(), it.n, p);
        }
        let whole = p * &(it.n / p);
        let slices = self.app(
            self.o(vec![
                self.bare(Prim::Transpose),
                self.prim(Prim::Split, vec![self.nat(p)]),
                self.prim(Prim::Take, vec![self.nat(&whole)]),
            ]),
            it.x.clone(),
        );
        let mut parts = vec![slices, self.tail(it.x.clone(), &(it.n - &whole), p)];
        if let Some((x, n)) = &it.rest {
            let r = *n - &(&(*n / it.v) * it.v);
            parts.push(self.tail(x.clone(), &r, p));
        }
        let zip = self.prim(Prim::Zip, Vec::new());
        Expr::new(ExprKind::Apply(Box::new(zip), parts), self.s)
    }

    /// The fold of one work-item over its [`items`](Self::items) `wi`:
    /// `reduce_seq(lanes_fold, init) $ wi.0` with the flagged elements folded into `z` first;
    /// the flagged element folded into `z` when there are no whole slices.
    fn item_fold(&self, s: &Shape, it: &Items) -> Expr {
        self.lam("wi", |wi| {
            let fold = self.lanes_fold(s, it.v, it.tuple);
            if !it.whole {
                return self.guarded(&fold, s.z.clone(), &wi);
            }
            let mut init = self.guarded(&fold, s.z.clone(), &self.proj(&wi, 1));
            if it.rest.is_some() {
                // `(|acc| if wi.2.1 { f(acc, wi.2.0) } else { acc }) $ init`: `init` computed
                // once.
                let scalar = self.lanes_fold(s, 1, it.tuple);
                let rest = self.lam("acc", |acc| self.guarded(&scalar, acc, &self.proj(&wi, 2)));
                init = self.app(rest, init);
            }
            self.app(self.fold(Prim::ReduceSeq, fold, init), self.proj(&wi, 0))
        })
    }

    /// The function of one group over its `w` work-items' data (rules 2 and 4): each
    /// work-item folds its data with `item` into local memory, then halving steps combine
    /// the `w` values, the last writing `post(result)` to global memory: a `[T; 1]`.
    fn group_tree(&self, s: &Shape, item: Expr, w: i64) -> Expr {
        let post = |f: Expr| match &s.post {
            Some(p) => self.o(vec![p.clone(), f]),
            None => f,
        };
        let reduce = |f: Expr| self.fold(Prim::ReduceSeq, f, s.z.clone());
        let lcl = |space: Prim, f: Expr| self.with(space, self.dim(Prim::MapLcl, 0, f));
        let mut steps = Vec::new();
        let mut h = 1;
        while h < w {
            let space = if h == 1 {
                Prim::ToGlobal
            } else {
                Prim::ToLocal
            };
            let combine = reduce(s.op.clone());
            let combine = if h == 1 { post(combine) } else { combine };
            steps.push(lcl(space, combine));
            steps.push(self.split(2));
            if h > 1 {
                let stride = Reorder::Stride(Nat::cst(h), self.s);
                steps.push(self.prim(Prim::Gather, vec![PrimArg::Reorder(stride, self.s)]));
            }
            h *= 2;
        }
        if w == 1 {
            steps.push(lcl(Prim::ToGlobal, post(item)));
        } else {
            steps.push(lcl(Prim::ToLocal, item));
        }
        self.o(steps)
    }

    /// The function of one group over `c` rows (rules 2 and 4 with the rows side by side):
    /// `fold`, a function of a row, makes each row's `per_row` values in local memory
    /// (work-item `(l0, l1)` folds slice `l1` of row `l0`), then halving steps over each row's
    /// values combine them, the last writing `post(result)` of every row to global memory:
    /// a `[[T; 1]; c]`.
    fn rows_tree(&self, s: &Shape, fold: Expr, per_row: i64) -> Expr {
        let post = |f: Expr| match &s.post {
            Some(p) => self.o(vec![p.clone(), f]),
            None => f,
        };
        let per_row_fn = |space: Prim, f: Expr| self.with(space, self.dim(Prim::MapLcl, 0, f));
        let reduce = || self.fold(Prim::ReduceSeq, s.op.clone(), s.z.clone());
        let mut steps = Vec::new();
        let mut h = 1;
        while h < per_row {
            let (space, combine) = if h == 1 {
                (Prim::ToGlobal, post(reduce()))
            } else {
                (Prim::ToLocal, reduce())
            };
            let mut f = vec![self.dim(Prim::MapLcl, 1, combine), self.split(2)];
            if h > 1 {
                let stride = Reorder::Stride(Nat::cst(h), self.s);
                f.push(self.prim(Prim::Gather, vec![PrimArg::Reorder(stride, self.s)]));
            }
            steps.push(per_row_fn(space, self.o(f)));
            h *= 2;
        }
        let space = if per_row == 1 {
            Prim::ToGlobal
        } else {
            Prim::ToLocal
        };
        steps.push(per_row_fn(space, fold));
        self.o(steps)
    }

    /// `join o map_wrg(0, group_tree) o split(w) $ items(it)` over `p` work-items in groups
    /// of `w`: one `T` per group.
    fn groups(&self, s: &Shape, it: &Items, w: i64, p: &Nat) -> Expr {
        let tree = self.group_tree(s, self.item_fold(s, it), w);
        let wrg = self.dim(Prim::MapWrg, 0, tree);
        self.app(
            self.o(vec![self.bare(Prim::Join), wrg, self.split(w)]),
            self.items(it, p),
        )
    }
}

/// The input read as vectors of `v` (rule 3): `as_vector(v) o take(v (n / v)) $ x` for a
/// 1-D parameter `x` of 32- or 64-bit numbers, a `zip` of such for a `zip`; with the number
/// of components of the tuple (0 for a single array). `v = 1`: the input itself.
fn vectored(b: &Builder, x: &Expr, n: &Nat, k: &Kernel, v: i64) -> Option<(Expr, usize)> {
    let whole = &(n / v) * v;
    let param = |e: &Expr| {
        let ExprKind::Ident(name) = &e.kind else {
            return None;
        };
        let p = k.params.iter().find(|p| &p.name == name)?;
        let ok = matches!(
            (p.ty.base(), p.ty.dims().len()),
            (
                Type::Scalar(
                    ScalarType::F32
                        | ScalarType::F64
                        | ScalarType::I32
                        | ScalarType::U32
                        | ScalarType::I64
                        | ScalarType::U64
                ),
                1
            )
        );
        let take = b.prim(Prim::Take, vec![b.nat(&whole)]);
        ok.then(|| b.app(b.o(vec![b.sized(Prim::AsVector, v), take]), e.clone()))
    };
    let zip_args = match &x.kind {
        ExprKind::Apply(f, xs) if matches!(&f.kind, ExprKind::Prim(Prim::Zip, a) if a.is_empty()) => {
            Some(xs)
        }
        _ => None,
    };
    match (v, zip_args) {
        (1, Some(xs)) => Some((x.clone(), xs.len())),
        (1, None) => Some((x.clone(), 0)),
        (_, Some(xs)) => {
            let vs = xs.iter().map(param).collect::<Option<Vec<_>>>()?;
            let zip = b.prim(Prim::Zip, Vec::new());
            Some((Expr::new(ExprKind::Apply(Box::new(zip), vs), b.s), xs.len()))
        }
        (_, None) => Some((param(x)?, 0)),
    }
}

/// The `tree` candidates of a full reduction (see the module docs): for each vector width,
/// two stage kernels.
pub(super) fn full(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    (scope, device): (Scope, &DeviceModel),
    dropped: &mut Vec<Dropped>,
) -> Vec<Candidate> {
    let Some(k) = prog.kernel(kernel) else {
        return Vec::new();
    };
    let scalar = matches!(k.body.ty, Some(Type::Scalar(_)));
    let Some(s) = shape(&k.body).filter(|s| scalar && derives(scope, s)) else {
        return Vec::new();
    };
    let ctx = RewriteCtx::for_kernel(prog, k, info);
    let (w, w2) = (device.group(), device.largest_group().min(MAX_GROUPS));
    let mut out = Vec::new();
    for v in WIDTHS {
        let strategy = Strategy::Tree(Tree::Full { v });
        match full_stages(prog, k, &s, (&ctx, w, v), w2) {
            Ok(stages) => out.push(Candidate {
                strategy,
                info: super::stages::with_conditions(info, &stages[0].candidate),
                lowering: Lowering::Stages(stages),
            }),
            Err(reason) => dropped.push(Dropped {
                name: strategy.name(),
                reason,
            }),
        }
    }
    out
}

/// The two stage kernels of a full reduction of `n` elements with groups of `w` and vectors of
/// `v`: the partial results of `G = min(w2, max(1, n / (v w)))` groups (`w2`, the device's
/// largest group within [`MAX_GROUPS`]), then their reduction in one group of `w2` with the
/// epilogue, one partial result per work-item.
fn full_stages(
    prog: &Program,
    k: &Kernel,
    s: &Shape,
    (ctx, w, v): (&RewriteCtx, i64, i64),
    w2: i64,
) -> Result<Vec<super::stages::Stage>, String> {
    let b = Builder::new(ctx, vec![&k.body], k.body.span);
    let (x, tuple) = vectored(&b, &s.input, &s.n, k, v).ok_or("input not vectorisable")?;
    let (elem, nv) = (s.elem, &s.n / v);
    let g = Nat::min(&Nat::cst(w2), &Nat::max(&Nat::cst(1), &(&nv / w)));
    let p = &g * w;
    let part = Shape {
        post: None,
        ..s.clone()
    };
    let items = Items {
        x,
        n: &nv,
        v,
        tuple,
        rest: (v > 1).then(|| (s.input.clone(), &s.n)),
        whole: true,
    };
    let first = b.groups(&part, &items, w, &p);
    let t = ctx.fresh("lift_t", &[&k.body]);
    let partial = Type::array(Type::Scalar(elem), g.clone());
    let last_shape = Shape {
        maps: Vec::new(),
        input: build::ident(&t, b.s),
        ..s.clone()
    };
    let partials = Items {
        x: build::ident(&t, b.s),
        n: &g,
        v: 1,
        tuple: 0,
        rest: None,
        whole: false,
    };
    let second = b.groups(&last_shape, &partials, w2, &Nat::cst(w2));
    let one = Type::array(Type::Scalar(elem), Nat::cst(1));
    let kernels = vec![
        Kernel {
            name: format!("{}_part", k.name),
            ret: partial.clone(),
            body: first,
            ..k.clone()
        },
        Kernel {
            name: format!("{}_final", k.name),
            params: k
                .params
                .iter()
                .cloned()
                .chain([Param {
                    name: t,
                    ty: partial.clone(),
                    span: k.span,
                }])
                .collect(),
            ret: one.clone(),
            body: second,
            ..k.clone()
        },
    ];
    stage_candidates(prog, kernels, [partial, one])
}

/// The stage kernels `kernels` (results of types `results`) checked and lowered, each a
/// candidate of its own program.
fn stage_candidates(
    prog: &Program,
    kernels: Vec<Kernel>,
    results: [Type; 2],
) -> Result<Vec<super::stages::Stage>, String> {
    let mut sprog = Program {
        funs: prog.funs.clone(),
        kernels,
        includes: prog.includes.clone(),
    };
    let infos = check_program(&mut sprog).map_err(|e| format!("type error: {e}"))?;
    let mut out = Vec::new();
    for ((sk, sinfo), result) in sprog.kernels.iter().zip(&infos).zip(results) {
        let l = super::lower::lower_program(&sprog, &sk.name, sinfo)
            .map_err(|e| format!("lowering: {e}"))?;
        out.push(super::stages::Stage {
            kernel: sk.name.clone(),
            candidate: Candidate {
                strategy: Strategy::Tree(Tree::Stage),
                lowering: Lowering::Program(l.prog),
                info: l.info,
            },
            result,
        });
    }
    Ok(out)
}

/// The `tree(rows=c,wg=..)` candidates of `map(|row| E[reduce(..) $ row..]) $ x`: one
/// work-group of `wg` work-items per `c` rows, for each of the device's row groups; `c = 1`
/// first (consecutive work-items read one row), then 16 to 64 and 8 (`c` rows side by side,
/// coalesced where the rows are columns of memory, a transposed view).
pub(super) fn rows(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    (scope, device): (Scope, &DeviceModel),
    dropped: &mut Vec<Dropped>,
) -> Vec<Candidate> {
    let Some(k) = prog.kernel(kernel) else {
        return Vec::new();
    };
    let ctx = RewriteCtx::for_kernel(prog, k, info);
    let Some((pat, s, x)) = row_shape(k, &ctx).filter(|(_, s, _)| derives(scope, s)) else {
        return Vec::new();
    };
    let pat = &pat;
    // An epilogue that reads the row stays inside the row's lambda: one row per group.
    let names = crate::ir::pat_names(pat);
    let post_reads_row = s
        .post
        .as_ref()
        .is_some_and(|p| names.iter().any(|n| crate::rewrite::names::mentions(p, n)));
    let rows =
        x.ty.as_ref()
            .and_then(|t| t.as_array())
            .map(|(_, r)| r.clone());
    let mut out = Vec::new();
    for w in device.row_groups() {
        for c in ROWS.into_iter().filter(|&c| c <= w) {
            let per_row = w / c;
            if s.n.as_cst().is_some_and(|n| n < per_row) || (c > 1 && post_reads_row) {
                continue;
            }
            let b = Builder::new(&ctx, vec![&k.body], k.body.span);
            let items = Items {
                x: s.input.clone(),
                n: &s.n,
                v: 1,
                tuple: 0,
                rest: None,
                whole: true,
            };
            let item = b.item_fold(&s, &items);
            let view = b.items(&items, &Nat::cst(per_row));
            let row =
                |body: Expr| Expr::new(ExprKind::Lambda(vec![pat.clone()], Box::new(body)), b.s);
            let body = if c == 1 {
                let group = row(b.app(b.group_tree(&s, item, w), view));
                b.app(
                    b.o(vec![b.bare(Prim::Join), b.dim(Prim::MapWrg, 0, group)]),
                    build::untyped(&x),
                )
            } else {
                // A row's values: `map_lcl(1, item) $ items(row)`, then the epilogue on one
                // value per row when `per_row` is 1.
                let item = match &s.post {
                    Some(post) if per_row == 1 => b.o(vec![post.clone(), item]),
                    _ => item,
                };
                let fold = row(b.app(b.dim(Prim::MapLcl, 1, item), view));
                let Some(rows) = &rows else { continue };
                // The group in both dimensions of the grid (`map_lcl(d)` runs inside
                // `map_wrg(d)`): one group in dimension 1.
                let group = b.o(vec![
                    b.bare(Prim::Join),
                    b.dim(
                        Prim::MapWrg,
                        1,
                        b.o(vec![b.bare(Prim::Join), b.rows_tree(&s, fold, per_row)]),
                    ),
                    b.split(c),
                ]);
                b.app(
                    b.o(vec![
                        b.prim(Prim::JoinCover, vec![b.nat(rows)]),
                        b.dim(Prim::MapWrg, 0, group),
                        b.sized(Prim::SplitCover, c),
                    ]),
                    build::untyped(&x),
                )
            };
            let strategy = Strategy::Tree(Tree::Rows { rows: c, wg: w });
            out.extend(super::lowered(prog, kernel, info, body, strategy, dropped));
        }
    }
    out
}

/// The row binder, the [`Shape`] of the reduction of a row and the rows `x` of a kernel
/// `map(|row| E[reduce(..) $ row..]) $ x` whose rows give one scalar each (an epilogue that
/// makes an array of the row, such as `map(|v| v - max) $ row`, would run on one work-item).
fn row_shape(k: &Kernel, ctx: &RewriteCtx) -> Option<(Pat, Shape, Expr)> {
    let (f, x) = crate::rewrite::blocking::map_app(&k.body)?;
    let (pat, row_body) = row_function(f, &x, ctx)?;
    if !matches!(row_body.ty, Some(Type::Scalar(_))) || !crate::analysis::is_pure(&x) {
        return None;
    }
    Some((pat, shape(&row_body)?, x))
}

/// Whether kernel `kernel` is a reduction that [`full`] or [`rows`] derive trees for in the
/// whole space (whether they apply or not).
pub(super) fn is_reduction(prog: &Program, kernel: &str, info: &KernelInfo) -> bool {
    let Some(k) = prog.kernel(kernel) else {
        return false;
    };
    let ctx = RewriteCtx::for_kernel(prog, k, info);
    matches!(k.body.ty, Some(Type::Scalar(_))) && shape(&k.body).is_some()
        || row_shape(k, &ctx).is_some()
}

/// The function `f` of `map(f) $ x` as a binder and a body over one row: a lambda's own, or
/// `|row| f $ row` with a fresh `row` (a function such as `reduce(+, 0.0)`), typed.
fn row_function(f: &Expr, x: &Expr, ctx: &RewriteCtx) -> Option<(Pat, Expr)> {
    if let ExprKind::Lambda(pats, body) = &f.kind {
        let [pat] = pats.as_slice() else { return None };
        return Some((pat.clone(), (**body).clone()));
    }
    let (row_ty, _) = build::array(x.ty.as_ref())?;
    let name = ctx.fresh("row", &[f, x]);
    let mut row = build::ident(&name, f.span);
    row.ty = Some(row_ty.clone());
    let mut body = build::apply1(f.clone(), row, f.span);
    body.ty = f.ty.clone();
    Some((Pat::Name(name, f.span), body))
}

/// Whether to derive the trees of reduction `s` in `scope`: always for the whole space; at
/// build time ([`Scope::Default`], which looks for the first candidate that applies to every
/// size) only where the length reduced is a constant, since a tree over a symbolic length
/// applies to some sizes only.
fn derives(scope: Scope, s: &Shape) -> bool {
    scope == Scope::All || s.n.as_cst().is_some()
}
