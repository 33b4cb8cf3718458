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
//! 2. `partRed(f, z) => join o map_wrg(0, map_lcl(0, reduce_seq(f', z))) o split(w) o
//!    split(m) o gather(stride(p)) o take(p m) o pad(0, p m, clamp)` with `p` work-items in
//!    groups of `w` and `m = ceil(n / p)` (split-join twice, reorder with stride: work-item
//!    `i` folds elements `i, i + p, ...`, coalesced; `split(m) o gather(stride(p))` built as
//!    the equal view `transpose o split(p)`); the padded elements are marked by a zipped
//!    flag, `zip(.., take(p m) o pad(0, p m, false) $ map(|_| true) $ iota(n))`, and `f'`
//!    skips them: `f' = |acc, e| if e.1 { f(acc, e.0) } else { acc }`;
//! 3. with `v = 4`, `x => as_vector(4) $ x` for parameters (and `zip`s of them) of 32- and
//!    64-bit numbers, the fold unrolled over the lanes, `f4 = |acc, e| f(f(f(f(acc, e[0]),
//!    e[1]), e[2]), e[3])` (the candidate applies where `n % 4 == 0`);
//! 4. the `w` values of a group, in local memory: `reduce(op, z) $ [T; 2h] =>
//!    reduce(op, z) o to_local(map_lcl(0, reduce_seq(op, z))) o split(2) o gather(stride(h))`
//!    for `h = w / 2, ..., 1` (the halving steps, unrolled: work-item `i` adds `i + h`, no
//!    bank conflicts); the last step writes to global memory through the epilogue:
//!    `to_global(map_lcl(0, post o reduce_seq(op, z))) o split(2)`.

use super::strategy::{Strategy, Tree};
use super::{Candidate, Dropped, Lowering};
use crate::arith::Nat;
use crate::device::DeviceModel;
use crate::ir::{Boundary, Expr, ExprKind, Kernel, LitValue, Param, PrimArg, Program, Reorder};
use crate::prim::Prim;
use crate::rewrite::dsl::Builder;
use crate::rewrite::{build, epilogue, RewriteCtx};
use crate::typeck::{check_program, KernelInfo};
use crate::types::{ScalarType, Type};

/// Upper bound on the work-groups of the first kernel of a full reduction: a choice of the
/// algorithm (enough partial results to occupy a large GPU, few enough for one group to fold
/// them), not read from the device model.
const MAX_GROUPS: i64 = 1024;

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

/// How a group reads its data: `w` work-items, `p` work-items over all groups, and the
/// vector width `v` of the input.
#[derive(Clone, Copy)]
struct Grid<'n> {
    w: i64,
    p: &'n Nat,
    v: i64,
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

    /// The fold of one work-item over the flagged elements `(e, valid)` (rules 1 to 3 of the
    /// module docs): `|acc, e| if e.1 { f(.. f(acc, lane 0 of e.0) .., lane v-1) } else { acc }`.
    fn guarded_fold(&self, s: &Shape, v: i64, tuple: usize) -> Expr {
        self.lam2("acc", "e", |acc, e| {
            let x = self.proj(&e, 0);
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
            let folded = (0..v).fold(acc.clone(), |a, k| self.fold_one(s, a, lane(k)));
            let kind = ExprKind::If(Box::new(self.proj(&e, 1)), Box::new(folded), Box::new(acc));
            Expr::new(kind, self.s)
        })
    }

    /// `zip(take(len) o pad(0, len, clamp) $ x, take(len) o pad(0, len, false) $
    /// map(|_| true) $ iota(n))`: `x` padded to `len >= n` elements, each with a flag telling
    /// whether it is one of `x`'s (padded by `len`, then cut, so that no size condition is
    /// needed).
    fn flagged(&self, x: Expr, n: &Nat, len: &Nat) -> Expr {
        let pad = |b: Boundary| {
            let args = vec![
                self.nat(&Nat::cst(0)),
                self.nat(len),
                PrimArg::Boundary(b, self.s),
            ];
            self.o(vec![
                self.prim(Prim::Take, vec![self.nat(len)]),
                self.prim(Prim::Pad, args),
            ])
        };
        let ones = self.app(
            self.with(Prim::Map, self.lam("i", |_| self.lit_bool(true))),
            Expr::new(
                ExprKind::Apply(
                    Box::new(self.prim(Prim::Iota, vec![self.nat(n)])),
                    Vec::new(),
                ),
                self.s,
            ),
        );
        let flags = self.app(
            pad(Boundary::Constant(Box::new(self.lit_bool(false)))),
            ones,
        );
        self.zip(self.app(pad(Boundary::Clamp), x), flags)
    }

    /// `split(w) o transpose o split(p) $ flagged(x)`: the `n` elements of `x` (`n` vectors
    /// when `grid.v > 1`) as groups of `w` slices of `m = ceil(n / p)` elements, slice `i`
    /// holding elements `i, i + p, ...` (rule 2: `transpose o split(p)` is `split(m) o
    /// gather(stride(p))` as a view whose indices need no division); without the groups'
    /// `split(w)` when `one` (a single group, `p = w`).
    fn grid_view(&self, x: Expr, n: &Nat, grid: Grid, one: bool) -> Expr {
        let m = (n + &(grid.p - 1)) / grid.p;
        let len = grid.p * &m;
        let mut fs = vec![
            self.bare(Prim::Transpose),
            self.prim(Prim::Split, vec![self.nat(grid.p)]),
        ];
        if !one {
            fs.insert(0, self.split(grid.w));
        }
        self.app(self.o(fs), self.flagged(x, n, &len))
    }

    /// The function of one group over `[[E; m]; w]` (rules 2 and 4): each work-item folds
    /// its slice with `fold` into local memory, then halving steps combine the `w` values,
    /// the last writing `post(result)` to global memory: a `[T; 1]`.
    fn group_tree(&self, s: &Shape, fold: Expr, w: i64) -> Expr {
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
            steps.push(lcl(Prim::ToGlobal, post(reduce(fold))));
        } else {
            steps.push(lcl(Prim::ToLocal, reduce(fold)));
        }
        self.o(steps)
    }

    /// `join o map_wrg(0, group_tree) $ grid_view(x)`: one `T` per group.
    fn groups(&self, s: &Shape, x: Expr, n: &Nat, grid: Grid, tuple: usize) -> Expr {
        let tree = self.group_tree(s, self.guarded_fold(s, grid.v, tuple), grid.w);
        let wrg = self.dim(Prim::MapWrg, 0, tree);
        self.app(
            self.o(vec![self.bare(Prim::Join), wrg]),
            self.grid_view(x, n, grid, false),
        )
    }
}

/// The input read as vectors of `v` (rule 3): `as_vector(v) $ x` for a 1-D parameter `x` of
/// 32- or 64-bit numbers, `zip(as_vector(v) $ x, ...)` for a `zip` of such; with the number
/// of components of the tuple (0 for a single array). `v = 1`: the input itself.
fn vectored(b: &Builder, x: &Expr, k: &Kernel, v: i64) -> Option<(Expr, usize)> {
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
        ok.then(|| b.app(b.sized(Prim::AsVector, v), e.clone()))
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
    device: &DeviceModel,
    dropped: &mut Vec<Dropped>,
) -> Vec<Candidate> {
    let Some(k) = prog.kernel(kernel) else {
        return Vec::new();
    };
    let Some(s) = shape(&k.body) else {
        return Vec::new();
    };
    let ctx = RewriteCtx::for_kernel(prog, k, info);
    let w = device.group();
    let mut out = Vec::new();
    for v in WIDTHS {
        let strategy = Strategy::Tree(Tree::Full { v });
        match full_stages(prog, k, &s, (&ctx, w, v)) {
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
/// `v`: the partial results of `G = min(MAX_GROUPS, ceil(n / (v w)))` groups, then their
/// reduction in one group with the epilogue.
fn full_stages(
    prog: &Program,
    k: &Kernel,
    s: &Shape,
    (ctx, w, v): (&RewriteCtx, i64, i64),
) -> Result<Vec<super::stages::Stage>, String> {
    let b = Builder::new(ctx, vec![&k.body], k.body.span);
    let (x, tuple) = vectored(&b, &s.input, k, v).ok_or("input not vectorisable")?;
    let (elem, nv) = (s.elem, &s.n / v);
    let g = Nat::min(&Nat::cst(MAX_GROUPS), &((&nv + (w - 1)) / w));
    let p = &g * w;
    let part = Shape {
        post: None,
        ..s.clone()
    };
    let first = b.groups(&part, x, &nv, Grid { w, p: &p, v }, tuple);
    let t = ctx.fresh("lift_t", &[&k.body]);
    let partial = Type::array(Type::Scalar(elem), g.clone());
    let last_shape = Shape {
        maps: Vec::new(),
        input: build::ident(&t, b.s),
        ..s.clone()
    };
    let wn = Nat::cst(w);
    let second = b.groups(
        &last_shape,
        build::ident(&t, b.s),
        &g,
        Grid { w, p: &wn, v: 1 },
        0,
    );
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

/// The `tree(rows=1,wg=..)` candidates of `map(|row| E[reduce(..) $ row..]) $ x`: one
/// work-group of `wg` work-items per row, for each of the device's row groups.
pub(super) fn rows(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    device: &DeviceModel,
    dropped: &mut Vec<Dropped>,
) -> Vec<Candidate> {
    let Some(k) = prog.kernel(kernel) else {
        return Vec::new();
    };
    let Some((lambda, x)) = crate::rewrite::blocking::map_app(&k.body) else {
        return Vec::new();
    };
    let ExprKind::Lambda(pats, row_body) = &lambda.kind else {
        return Vec::new();
    };
    let ([pat], Some(s)) = (pats.as_slice(), shape(row_body)) else {
        return Vec::new();
    };
    let len = s.n.clone();
    if !crate::analysis::is_pure(&x) {
        return Vec::new();
    }
    let ctx = RewriteCtx::for_kernel(prog, k, info);
    let mut out = Vec::new();
    for w in device.row_groups() {
        if len.as_cst().is_some_and(|c| c < w / 2) {
            continue;
        }
        let b = Builder::new(&ctx, vec![&k.body], k.body.span);
        let wn = Nat::cst(w);
        let grid = Grid { w, p: &wn, v: 1 };
        let tree = b.group_tree(&s, b.guarded_fold(&s, 1, 0), w);
        let view = b.grid_view(s.input.clone(), &len, grid, true);
        let row = Expr::new(
            ExprKind::Lambda(vec![pat.clone()], Box::new(b.app(tree, view))),
            b.s,
        );
        let body = b.app(
            b.o(vec![b.bare(Prim::Join), b.dim(Prim::MapWrg, 0, row)]),
            build::untyped(&x),
        );
        let strategy = Strategy::Tree(Tree::Rows { wg: w });
        let found = super::lowered(prog, kernel, info, body, strategy, dropped);
        out.extend(found);
    }
    out
}
