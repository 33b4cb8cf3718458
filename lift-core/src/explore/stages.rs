//! Kernel fission (the thesis' `kernel_fission`, applied by the explorer): a body that is a
//! chain of several computing stages, `L2 o f2 o L1 o f1 o L0 $ data` (`f` computing, `L`
//! layout primitives), where no rule fuses the stages (a `map` under a `constant` pad, a
//! reduction feeding a map), would otherwise run on one work-item. Instead each stage
//! becomes a kernel of its own, writing its result to a global temporary that the next stage
//! reads through its layouts:
//!
//! ```text
//! s0: f1 o L0 $ data        -> lift_t0
//! s1: f2 o L1 $ lift_t0     -> lift_t1
//! s2: L2 ... $ lift_t1      -> out
//! ```
//!
//! A constant `iterate(k, g)` in the chain counts as `k` copies of `g`: every step is then
//! separated from the next by a kernel boundary (a step's global map must see the whole
//! result of the step before).
//!
//! A `let` around the body whose value is computed (`{ let s = reduce(+, 0.0) $ v; map(|x| x
//! / s) $ v }`) is a stage of its own too: its value is written to a temporary (of one
//! element for a scalar) and the later stages read it from there.
//!
//! So is a `let` at the top of a map's function, `map(|row| { let s = reduce(+, 0.0) $ row;
//! map(|v| v / s) $ row }) $ a`: the values per element first (a map of reductions), then the
//! rest over `zip(a, values)`, parallel over the whole nest.
//!
//! Each stage kernel is explored like any kernel (it has one computing stage, so its default
//! mapping is parallel); its preferred candidate that applies at every size is used. The
//! stages run in order on one queue: a kernel boundary is the grid-wide barrier between them.

use super::strategy::{self, Strategy};
use super::{Candidate, Lowering};
use crate::analysis::{is_layout, is_pure};
use crate::arith::Nat;
use crate::device::DeviceModel;
use crate::ir::{Expr, ExprKind, Kernel, Param, Pat, PrimArg, Program};
use crate::prim::Prim;
use crate::rewrite::blocking::Edge;
use crate::rewrite::build::{compose, ident};
use crate::rewrite::epilogue;
use crate::typeck::{check_program, Cond, KernelInfo};
use crate::types::Type;

/// One stage of a fissioned kernel.
#[derive(Clone, Debug)]
pub struct Stage {
    /// The stage kernel's name in [`Stage::candidate`]'s program.
    pub kernel: String,
    /// Its chosen candidate.
    pub candidate: Candidate,
    /// The type of its result (a temporary, or the kernel's result for the last stage).
    pub result: Type,
}

/// The first candidates of the richest stage offered to the tuner as variants.
const MAX_VARIANTS: usize = 3;

/// The most variants offered in all: after the first [`MAX_VARIANTS`], further candidates
/// of the stage that [`offered`] admits: for a blocked product, with 48, the covered
/// blockings (with and without the shared dimension zero-padded, of which one applies at a
/// size) and the padded one of the first seven tilings, looped and unrolled, so that a
/// product with 64 columns, the first layers of VGG, meets the 128 x 64 blocks that fit it.
const MAX_ALL_VARIANTS: usize = 48;

/// The most stages a kernel is split into.
const MAX_STAGES: usize = 32;

/// The kernel-fission candidates of kernel `kernel` (see the module docs), if its body
/// splits into at least two stages (the stages' defaults first, then variants of the stage
/// with the most candidates, named `s{i}=j` after its candidate `j`): `let`s of computed values around the body, and a chain of
/// several computing stages over data whose intermediate results are arrays.
pub fn fission(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    (scope, device): (super::Scope, &DeviceModel),
) -> Option<Vec<Candidate>> {
    let k = prog.kernel(kernel)?;
    let span = k.body.span;
    let temps = Temps::new(&crate::rewrite::names::of_kernel(prog, k));
    // (body, result type if known) per stage, bodies reading earlier results as `lift_t{j}`.
    let mut parts: Vec<(Expr, Option<Type>)> = Vec::new();
    // How each `let` name is read in later stages.
    let mut reads: Vec<(String, Expr)> = Vec::new();
    let mut body = k.body.clone();
    while let ExprKind::Let(Pat::Name(name, _), v, b) = &body.kind {
        let t = v.ty.clone()?;
        let mut v = (**v).clone();
        substitute(&mut v, &reads);
        if is_pure(&v) {
            // A view of the data: read through it where it is used.
            reads.push((name.clone(), v));
            body = (**b).clone();
            continue;
        }
        let temp = ident(&temps.name(parts.len()), span);
        let read = match t {
            Type::Array(..) => temp,
            _ => Expr::new(ExprKind::Index(Box::new(temp), Nat::cst(0)), span),
        };
        reads.push((name.clone(), read));
        parts.push((v, Some(t)));
        body = (**b).clone();
    }
    substitute(&mut body, &reads);
    if let Some((values, rest)) = let_in_map(&body, &temps.name(parts.len()))
        .or_else(|| nest_epilogue(&body, &temps.name(parts.len())))
    {
        parts.push((values.0, Some(values.1)));
        body = rest;
    }
    let first = parts.len();
    parts.extend(chain_stages(&body, &info.result, &temps, first));
    if parts.len() < 2 || parts.len() > MAX_STAGES {
        return None;
    }
    let mut kernels: Vec<Kernel> = Vec::new();
    for (i, (body, result)) in parts.into_iter().enumerate() {
        let mut params = k.params.clone();
        for (j, prev) in kernels.iter().enumerate() {
            params.push(Param {
                name: temps.name(j),
                ty: match &prev.ret {
                    t @ Type::Array(..) => t.clone(),
                    t => Type::array(t.clone(), Nat::cst(1)),
                },
                span: k.span,
            });
        }
        let mut stage = Kernel {
            name: format!("{kernel}_s{i}"),
            params,
            ret: result.clone().unwrap_or_else(|| info.result.clone()),
            body,
            ..k.clone()
        };
        if result.is_none() {
            stage.ret = crate::typeck::infer_result(&prog.funs, &stage).ok()?;
        }
        kernels.push(stage);
    }
    let mut sprog = Program {
        funs: prog.funs.clone(),
        kernels,
        includes: prog.includes.clone(),
    };
    check_program(&mut sprog).ok()?;
    // Each stage in normal form (a stage cut out of a larger body may now match a strategy).
    for i in 0..sprog.kernels.len() {
        let name = sprog.kernels[i].name.clone();
        sprog = super::normalise::normalise_kernel(&sprog, &name).ok()?;
    }
    let infos = check_program(&mut sprog).ok()?;
    // Every stage's candidates; the default of each is its first that applies at any size.
    let mut choices: Vec<Vec<Candidate>> = Vec::new();
    let mut defaults = Vec::new();
    for (sk, sinfo) in sprog.kernels.iter().zip(&infos) {
        let cands: Vec<Candidate> = super::candidates_for(&sprog, &sk.name, sinfo, scope, device)
            .into_iter()
            .filter(|c| !matches!(c.strategy, Strategy::Stages(_)))
            .collect();
        defaults.push(cands.iter().position(|c| unconditional(c, sinfo))?);
        choices.push(cands);
    }
    let stage = |i: usize, c: &Candidate| Stage {
        kernel: sprog.kernels[i].name.clone(),
        candidate: c.clone(),
        result: infos[i].result.clone(),
    };
    // The defaults, and other candidates of the stage with the most (its first MAX_VARIANTS,
    // its default, then those `offered`, up to MAX_ALL_VARIANTS): the tuner chooses among
    // them.
    let (rich, _) = choices.iter().enumerate().max_by_key(|(_, c)| c.len())?;
    let mut out = Vec::new();
    let variants = choices[rich]
        .iter()
        .enumerate()
        .filter(|(j, c)| *j < MAX_VARIANTS || *j == defaults[rich] || offered(c, &infos[rich]))
        .take(MAX_ALL_VARIANTS);
    for (j, c) in variants {
        let stages: Vec<Stage> = (0..choices.len())
            .map(|i| {
                if i == rich {
                    stage(i, c)
                } else {
                    stage(i, &choices[i][defaults[i]])
                }
            })
            .collect();
        let cinfo = with_conditions(info, c);
        // The variant's own configuration (a blocked product's tiles), shown after its stage.
        let config = strategy::Stages {
            kernels: choices.len(),
            nested: Vec::new(),
            split: None,
            variants: (j != defaults[rich])
                .then_some((rich, j))
                .into_iter()
                .collect(),
            tuned: vec![(rich, c.strategy.clone())],
        };
        out.push(Candidate {
            strategy: Strategy::Stages(config),
            lowering: Lowering::Stages(stages),
            info: cinfo,
        });
    }
    Some(out)
}

/// The stages of `body`, a chain `L2 o f2 o L1 o f1 o L0 $ data` cut before every computing
/// function but the leftmost one (`body` itself as one stage if it is no such chain), with
/// their result types (`result` for the last, `None` where it is to be inferred); stage `i`
/// reads stage `i - 1`'s result as temporary `first + i - 1`.
fn chain_stages(
    body: &Expr,
    result: &Type,
    temps: &Temps,
    first: usize,
) -> Vec<(Expr, Option<Type>)> {
    let whole = vec![(body.clone(), Some(result.clone()))];
    let ExprKind::Apply(f, args) = &body.kind else {
        return whole;
    };
    let fs = expand_iterates(match &f.kind {
        ExprKind::Compose(fs) => fs.clone(),
        _ => vec![(**f).clone()],
    });
    let computing: Vec<usize> = (0..fs.len()).filter(|&i| !is_layout(&fs[i])).collect();
    if computing.len() < 2 || !args.iter().all(is_pure) {
        return whole;
    }
    let mut bounds: Vec<usize> = computing[1..].to_vec();
    bounds.reverse();
    bounds.push(0);
    let mut out = Vec::new();
    let mut end = fs.len();
    for (i, &start) in bounds.iter().enumerate() {
        let t = (start == 0).then(|| result.clone());
        let input = if i == 0 {
            args.clone()
        } else {
            vec![ident(&temps.name(first + i - 1), body.span)]
        };
        let chain = compose(fs[start..end].to_vec(), f.span);
        out.push((
            Expr::new(ExprKind::Apply(Box::new(chain), input), body.span),
            t,
        ));
        end = start;
    }
    out
}

/// `map(|x| { let h = R; B }) $ xs` (`R` computed from `x`) as two stages: the values of
/// `R`, `map(|x| R) $ xs` (a map of reductions: one work-group per row), and the rest,
/// `map(|(x, h)| B) $ zip(xs, temp)` (parallel over the whole nest).
fn let_in_map(body: &Expr, temp: &str) -> Option<((Expr, Type), Expr)> {
    let ExprKind::Apply(m, xs) = &body.kind else {
        return None;
    };
    let [data] = xs.as_slice() else { return None };
    let lam = m.prim_fun(Prim::Map)?;
    let ExprKind::Lambda(ps, lb) = &lam.kind else {
        return None;
    };
    let ([Pat::Name(x, xspan)], ExprKind::Let(Pat::Name(h, hspan), r, b)) =
        (ps.as_slice(), &lb.kind)
    else {
        return None;
    };
    let (Some(rt @ Type::Scalar(_)), Some(Type::Array(_, n))) = (r.ty.clone(), data.ty.as_ref())
    else {
        return None;
    };
    if !is_pure(data) || is_pure(r) {
        return None;
    }
    let s = body.span;
    let map_of = |pats: Vec<Pat>, e: Expr| {
        let lam = Expr::new(ExprKind::Lambda(pats, Box::new(e)), s);
        crate::rewrite::build::with_fun(Prim::Map, &lam, s)
    };
    let values = Expr::new(
        ExprKind::Apply(
            Box::new(map_of(vec![Pat::Name(x.clone(), *xspan)], (**r).clone())),
            vec![data.clone()],
        ),
        s,
    );
    let pair = Pat::Tuple(
        vec![Pat::Name(x.clone(), *xspan), Pat::Name(h.clone(), *hspan)],
        s,
    );
    let zipped = Expr::new(
        ExprKind::Apply(
            Box::new(crate::rewrite::build::prim(Prim::Zip, Vec::new(), s)),
            vec![data.clone(), ident(temp, s)],
        ),
        s,
    );
    let rest = Expr::new(
        ExprKind::Apply(Box::new(map_of(vec![pair], (**b).clone())), vec![zipped]),
        s,
    );
    Some(((values, Type::array(rt, n.clone())), rest))
}

/// `map(|t0| map(|t1| E[R]) $ Y) $ X`, where the epilogue `E` around the reduction `R` reads
/// other data of the element (`alpha * dot + beta * c`, C given zipped with the rows) as two
/// stages: the nest of reductions alone, `map(|t0| map(|t1| R) $ Y) $ X` (which the other
/// strategies then match, a blocked matrix product for GEMM), and the epilogue over
/// `zip(X, temp)`. Under layouts (`split(W) $ nest`, a product reshaped by
/// [`super::products`]) the epilogue stage keeps them.
fn nest_epilogue(body: &Expr, temp: &str) -> Option<((Expr, Type), Expr)> {
    let ExprKind::Apply(m0, xs) = &body.kind else {
        return None;
    };
    let [x] = xs.as_slice() else { return None };
    if crate::rewrite::build::is_layout(m0) {
        let (values, rest) = nest_epilogue(x, temp)?;
        let apply = ExprKind::Apply(Box::new(crate::rewrite::build::untyped(m0)), vec![rest]);
        return Some((values, Expr::new(apply, body.span)));
    }
    let (t0, inner) = crate::rewrite::build::lambda1(m0.prim_fun(Prim::Map)?)?;
    let ExprKind::Apply(m1, ys) = &inner.kind else {
        return None;
    };
    let [y] = ys.as_slice() else { return None };
    let (t1, e) = crate::rewrite::build::lambda1(m1.prim_fun(Prim::Map)?)?;
    let split = epilogue::split(e, &epilogue::has_reduce, &is_reduction)?;
    let post = split.post?;
    let mentions = |n: &str| crate::rewrite::build::mentions(&post, n);
    let (Some(rt @ Type::Scalar(_)), Some(Type::Array(row, n))) =
        (split.core.ty.clone(), body.ty.as_ref())
    else {
        return None;
    };
    let (_, m) = row.as_array()?;
    if !(mentions(t0) || mentions(t1)) || !is_pure(x) {
        return None;
    }
    let sp = body.span;
    let map_of = |pat: Pat, e: Expr, data: Expr| crate::rewrite::build::map_over(pat, e, data, sp);
    let name = |n: &str| Pat::Name(n.to_string(), sp);
    let zip = |a: Expr, b: Expr| crate::rewrite::build::zip2(a, b, sp);
    let values = map_of(
        name(t0),
        map_of(name(t1), split.core.clone(), y.clone()),
        x.clone(),
    );
    // Binders fresh for everything they are put around.
    let g = crate::rewrite::names::unused("lift_g", &[&post, x, y, e]);
    let v = crate::rewrite::names::unused("lift_s", &[&post, x, y, e, &ident(&g, sp)]);
    let (g, v) = (g.as_str(), v.as_str());
    let applied = crate::rewrite::build::call(&post, vec![ident(v, sp)], sp);
    let rest = map_of(
        Pat::Tuple(vec![name(t0), name(g)], sp),
        map_of(
            Pat::Tuple(vec![name(t1), name(v)], sp),
            applied,
            zip(y.clone(), ident(g, sp)),
        ),
        zip(x.clone(), ident(temp, sp)),
    );
    let t = Type::array(Type::array(rt, m.clone()), n.clone());
    Some(((values, t), rest))
}

/// Is `e` a reduction applied to data (`reduce(..) o .. $ x`)?
fn is_reduction(e: &Expr) -> bool {
    let ExprKind::Apply(f, _) = &e.kind else {
        return false;
    };
    let head = match &f.kind {
        ExprKind::Compose(fs) => fs.first(),
        _ => Some(&**f),
    };
    head.is_some_and(|h| matches!(h.kind, ExprKind::Prim(Prim::Reduce | Prim::ReduceSeq, _)))
}

/// Replaces the free occurrences of each name of `reads` in `e` by its expression.
/// Replaces every name of `reads` by its read, all at once; where a name is bound twice the
/// later binding is the one in scope.
fn substitute(e: &mut Expr, reads: &[(String, Expr)]) {
    let mut by: Vec<(&str, &Expr)> = Vec::new();
    for (name, read) in reads.iter().rev() {
        if !by.iter().any(|(n, _)| n == name) {
            by.push((name, read));
        }
    }
    crate::rewrite::names::subst_all(e, &by);
}

/// The names of the temporaries between stages: `lift_t{j}`, or with a longer prefix where
/// the kernel already uses a name of that form.
struct Temps {
    prefix: String,
}

impl Temps {
    fn new(taken: &std::collections::HashSet<String>) -> Temps {
        let clashes = |prefix: &str| {
            taken.iter().any(|n| {
                n.strip_prefix(prefix).is_some_and(|rest| {
                    !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())
                })
            })
        };
        let prefix = std::iter::once("lift_t".to_string())
            .chain((1u32..).map(|k| format!("lift_t{k}_")))
            .find(|p| !clashes(p))
            .unwrap_or_default();
        Temps { prefix }
    }

    /// The name of temporary `j`.
    fn name(&self, j: usize) -> String {
        format!("{}{j}", self.prefix)
    }
}

/// The chain `fs` with every `iterate(k, g)` of a constant `k` (at most [`MAX_STAGES`])
/// written out as `k` copies of `g` (untyped: the steps of a shrinking `iterate` have types of
/// their own): each step becomes its own stages, so the steps are separated by kernel
/// boundaries.
fn expand_iterates(fs: Vec<Expr>) -> Vec<Expr> {
    let mut out = Vec::new();
    for e in fs {
        if let ExprKind::Prim(Prim::Iterate, args) = &e.kind {
            let k = args.iter().find_map(|a| a.as_nat()?.as_cst());
            if let (Some(k @ 1..), Some(g)) = (k, args.iter().rev().find_map(PrimArg::as_fun)) {
                if k as usize <= MAX_STAGES {
                    for _ in 0..k {
                        let step = crate::rewrite::build::flatten(std::slice::from_ref(g));
                        out.extend(step.iter().map(untyped_deep));
                    }
                    continue;
                }
            }
        }
        out.push(e);
    }
    out
}

/// `e` with the types of all its nodes removed.
fn untyped_deep(e: &Expr) -> Expr {
    let mut e = e.clone();
    fn clear(e: &mut Expr) {
        e.ty = None;
        for c in crate::rewrite::walk::children_mut(e) {
            clear(c);
        }
    }
    clear(&mut e);
    e
}

/// Does the top-level chain of `body` hold an `iterate` of more than one step whose steps run
/// a parallel map of the whole grid (`map_glb`, `map_wrg`) that is not elementwise? One kernel cannot run its steps: every step must see
/// all of the previous one, so each needs a kernel of its own.
pub fn iterates_over_the_grid(body: &Expr) -> bool {
    let ExprKind::Apply(f, _) = &body.kind else {
        return false;
    };
    let fs = match &f.kind {
        ExprKind::Compose(fs) => fs.clone(),
        _ => vec![(**f).clone()],
    };
    let grid_step = |g: &Expr| {
        // A bare parallel map is elementwise: each work-item reads back what it wrote.
        crate::explore::lower::uses_grid_map(g)
            && !matches!(g.kind, ExprKind::Prim(Prim::MapGlb | Prim::MapWrg, _))
    };
    fs.iter().any(|e| {
        matches!(&e.kind, ExprKind::Prim(Prim::Iterate, args)
            if args.iter().find_map(|a| a.as_nat()?.as_cst()) != Some(1)
                && args.iter().filter_map(PrimArg::as_fun).any(grid_step))
    })
}

/// Whether a candidate of a stage beyond its first [`MAX_VARIANTS`] is offered to the tuner: a
/// blocked product whose blocks cover or pad the rows (it applies from a minimum size on, or
/// at every size; the exact blocking of the same tiling applies at fewer sizes and is no
/// faster than the covered one); any other that applies wherever its kernel does.
fn offered(c: &Candidate, info: &KernelInfo) -> bool {
    match &c.strategy {
        Strategy::Blocked(b) => b.edge != Edge::Exact,
        _ => unconditional(c, info),
    }
}

/// Does candidate `c` apply wherever its kernel (checked as `info`) does, but for lower
/// bounds on its sizes (`128 <= N`: blocks that cover the rows, see
/// [`crate::rewrite::blocking::Edge::Cover`]) and conditions that only say where it is worth
/// running?
pub(crate) fn applies_widely(c: &Candidate, info: &KernelInfo) -> bool {
    c.info.preconditions.iter().all(|p| {
        matches!(&p.cond, Cond::Le(a, _) if a.as_cst().is_some())
            || info.preconditions.iter().any(|q| q.cond == p.cond)
    })
}

/// The kernel's checker output `info` with the preconditions of candidate `c` that it does
/// not state already (a candidate of several stages applies where its stages do).
pub(crate) fn with_conditions(info: &KernelInfo, c: &Candidate) -> KernelInfo {
    let mut out = info.clone();
    for p in &c.info.preconditions {
        if !out.preconditions.iter().any(|q| q.cond == p.cond) {
            out.preconditions.push(p.clone());
        }
    }
    out
}

/// Does candidate `c` apply wherever its kernel (checked as `info`) does?
pub(crate) fn unconditional(c: &Candidate, info: &KernelInfo) -> bool {
    c.info
        .preconditions
        .iter()
        .all(|p| info.preconditions.iter().any(|q| q.cond == p.cond))
}
