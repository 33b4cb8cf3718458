//! Rewrite points (Mogers' thesis, chapter 6): `#[name(args)] e` asks for a macro rewrite of
//! `e`, built from the rules of this module's siblings.
//!
//! [`apply_points`] applies the points of one kernel **top-down, outer first** (Algorithm 4 of
//! the thesis: bottom-up order would put a `join` on top and make the outer point fail). A
//! point directly wrapping other points (`#[a] #[b] e`) matches its pattern on `e` and
//! re-places the nested points around the part of its result that still resembles `e` (so
//! `#[split_join(4)] #[split_join(2)] map(f)` tiles twice); they are applied next. After each
//! point the program is re-checked and the annotated expression must keep its type; a point
//! that does not match, does not re-check or would change the type is dropped with a
//! [`PointWarning`], leaving the program as if it had not been written.
//!
//! `kernel_fission` is the one point that acts beyond its expression: on a function it first
//! moves onto the data the function applies to, and its result, a `let` of the value computed
//! before the boundary, is hoisted to the top of the body ([`fission`]).
//!
//! Omitted arguments (`_`) are tuning parameters; until the tuner exists each gets a default
//! that satisfies the inferred constraints where the sizes are known (documented per point,
//! see `tiling` and `memory`). For symbolic sizes the default is a fixed value whose
//! divisibility becomes a launch-time precondition of the primitive it feeds.

mod fission;
mod memory;
mod tiling;

use super::strategy::{at, Path, Strategy};
use super::walk::{child_ctx, children};
use super::{build, RewriteCtx, RewriteError};
use crate::arith::Nat;
use crate::ir::{Expr, ExprKind, Pat, Program};
use crate::typeck::check_program;
use crate::types::Type;
use proc_macro2::Span;

/// A point that did not match: its name, span and why. The macro turns these into warnings.
#[derive(Clone, Debug)]
pub struct PointWarning {
    /// The point's name.
    pub name: String,
    /// The span of the annotated expression, point included.
    pub span: Span,
    /// Why the point was dropped.
    pub message: String,
}

/// A point nested directly inside the one being applied: name, arguments, span.
#[derive(Clone, Debug)]
pub(crate) struct Nested {
    name: String,
    args: Vec<Option<Nat>>,
    span: Span,
}

/// What a point implementation sees.
pub(crate) struct Site<'a> {
    /// The point's arguments (`None` = left to tuning).
    pub args: &'a [Option<Nat>],
    /// The context at the annotated expression (its input type if it is a function).
    pub ctx: &'a RewriteCtx,
    /// The annotated expression's type (the result type of a function).
    pub ty: Option<&'a Type>,
    /// The points nested directly inside this one, outermost first.
    pub nested: &'a [Nested],
    /// The names bound at the annotated expression by the body's lambdas and `let`s, not
    /// counting the `let`s that lead the body (a value computed before the body may read
    /// those).
    pub bound: &'a [String],
    /// The whole kernel body (fresh names avoid it).
    pub body: &'a Expr,
}

impl Site<'_> {
    /// Argument `i`, or `default` when omitted; a constant below 1 is refused.
    pub fn arg(&self, i: usize, default: Nat) -> Result<Nat, String> {
        let n = self.args.get(i).cloned().flatten().unwrap_or(default);
        match n.as_cst() {
            Some(c) if c < 1 => Err(format!("argument {} must be positive: {c}", i + 1)),
            _ => Ok(n),
        }
    }

    /// `e` wrapped in the nested points again.
    pub fn rewrap(&self, e: Expr) -> Expr {
        rewrap(self.nested, e)
    }
}

/// `e` wrapped in the points `nested` (outermost first).
pub(crate) fn rewrap(nested: &[Nested], e: Expr) -> Expr {
    nested.iter().rev().fold(e, |e, p| {
        let kind = ExprKind::Point(p.name.clone(), p.args.clone(), Box::new(e));
        Expr::new(kind, p.span)
    })
}

/// The result of one point implementation: the replacement, or why it does not match.
pub(crate) type PointResult = Result<Expr, String>;

type PointFn = fn(&Expr, &Site<'_>) -> PointResult;

/// Every point: name, most arguments, implementation.
const POINTS: &[(&str, usize, PointFn)] = &[
    ("split_join", 1, tiling::split_join),
    ("join_split", 0, tiling::join_split),
    ("ab_tile", 2, tiling::ab_tile),
    ("tile_stencil", 2, tiling::tile_stencil),
    ("pad_extra", 1, tiling::pad_extra),
    ("tile_nested_map_reduce", 1, memory::tile_nested_map_reduce),
    ("materialise", 0, memory::materialise),
    ("optimise_data_layout", 0, memory::optimise_data_layout),
    ("interchange_maps", 0, memory::interchange_maps),
    ("privatise_accumulator", 0, memory::privatise_accumulator),
    ("interchange_reduce", 0, memory::interchange_reduce),
    ("kernel_fission", 0, fission::kernel_fission),
];

/// The most points applied to one kernel (each application removes one point node, so this
/// only guards against a bug looping).
const MAX_POINTS: usize = 10_000;

/// Applies every rewrite point of kernel `kernel` (outer first, see the module docs), removing
/// the `Point` nodes, and type-checks the result. Gives the checked program and a warning per
/// dropped point.
pub fn apply_points(
    prog: &Program,
    kernel: &str,
) -> Result<(Program, Vec<PointWarning>), RewriteError> {
    let mut p = prog.clone();
    let idx = p
        .kernels
        .iter()
        .position(|k| k.name == kernel)
        .ok_or_else(|| RewriteError::UnknownKernel(kernel.to_string()))?;
    check_program(&mut p).map_err(RewriteError::Before)?;
    let mut warnings = Vec::new();
    for _ in 0..MAX_POINTS {
        let infos = check_program(&mut p).map_err(RewriteError::After)?;
        let ctx = RewriteCtx::for_kernel(&p, &p.kernels[idx], &infos[idx]);
        let Some((path, pctx)) = find_point(&p.kernels[idx].body, &ctx, &mut Vec::new()) else {
            return Ok((p, warnings));
        };
        let body = p.kernels[idx].body.clone();
        let (new, warning) = apply_one(&p, idx, &body, &path, &pctx);
        p.kernels[idx].body = new;
        warnings.extend(warning);
    }
    check_program(&mut p).map_err(RewriteError::After)?;
    Ok((p, warnings))
}

/// The first point in pre-order (the outermost) with the context it sees.
fn find_point(e: &Expr, ctx: &RewriteCtx, path: &mut Path) -> Option<(Path, RewriteCtx)> {
    if let ExprKind::Point(..) = e.kind {
        return Some((path.clone(), ctx.clone()));
    }
    for (i, c) in children(e).into_iter().enumerate() {
        path.push(i);
        if let Some(found) = find_point(c, &child_ctx(e, i, ctx), path) {
            return Some(found);
        }
        path.pop();
    }
    None
}

/// The node at `path`.
fn node_at<'a>(e: &'a Expr, path: &[usize]) -> Option<&'a Expr> {
    path.iter().try_fold(e, |e, &i| children(e).get(i).copied())
}

/// `body` with the node at `path` replaced by `new`.
fn replace_at(body: &Expr, path: &Path, new: Expr, ctx: &RewriteCtx) -> Option<Expr> {
    at(path.clone(), Strategy::new(move |_, _| Some(new.clone()))).apply(body, ctx)
}

/// Applies the point at `path` of kernel `idx`'s `body`: the new body, and a warning when
/// the point was dropped instead.
fn apply_one(
    prog: &Program,
    idx: usize,
    body: &Expr,
    path: &Path,
    ctx: &RewriteCtx,
) -> (Expr, Option<PointWarning>) {
    let Some(point) = node_at(body, path) else {
        return (body.clone(), None);
    };
    let ExprKind::Point(name, _, inner) = &point.kind else {
        return (body.clone(), None);
    };
    if name == "kernel_fission" {
        if let Some(moved) = fission::onto_data(body, path, ctx) {
            return (moved, None);
        }
    }
    match try_point(prog, idx, body, path, ctx, point) {
        Ok(new) => (new, None),
        Err(message) => {
            let dropped = replace_at(body, path, build::untyped(inner), ctx);
            let w = PointWarning {
                name: name.clone(),
                span: point.span,
                message: format!("rewrite point `{name}` dropped: {message}"),
            };
            (dropped.unwrap_or_else(|| body.clone()), Some(w))
        }
    }
}

/// Rewrites `point`, the node at `path` of `body`: the new body, or why not.
fn try_point(
    prog: &Program,
    idx: usize,
    body: &Expr,
    path: &Path,
    ctx: &RewriteCtx,
    point: &Expr,
) -> Result<Expr, String> {
    let ExprKind::Point(name, args, inner) = &point.kind else {
        return Err("not a rewrite point".into());
    };
    let mut nested = Vec::new();
    let mut core: &Expr = inner;
    while let ExprKind::Point(n, a, x) = &core.kind {
        nested.push(Nested {
            name: n.clone(),
            args: a.clone(),
            span: core.span,
        });
        core = x;
    }
    let top = fission::top_depth(body, path);
    let bound = fission::bound_on_path(body, path, top);
    let site = Site {
        args,
        ctx,
        ty: point.ty.as_ref(),
        nested: &nested,
        bound: &bound,
        body,
    };
    let new = rewrite(name, core, &site)?;
    // The replacement stays wrapped in an anonymous point while it is checked, so that its
    // type can be read at the same path.
    let marked = Expr::new(
        ExprKind::Point(String::new(), Vec::new(), Box::new(new.clone())),
        point.span,
    );
    let mut q = prog.clone();
    q.kernels[idx].body = replace_at(body, path, marked, ctx).ok_or(NO_LOCATION)?;
    let infos = check_program(&mut q)
        .map_err(|e| format!("the rewritten expression does not type-check: {e}"))?;
    let facts = RewriteCtx::facts_of(&infos[idx]);
    let after = node_at(&q.kernels[idx].body, path).and_then(|e| e.ty.as_ref());
    if let (Some(before), Some(after)) = (point.ty.as_ref(), after) {
        if !before.equiv(after, &facts) {
            return Err(format!("it would change the type from {before} to {after}"));
        }
    }
    let out = replace_at(body, path, new, ctx).ok_or(NO_LOCATION)?;
    if name != "kernel_fission" {
        return Ok(out);
    }
    // Its `let` moves to the top of the body: the value is computed before the rest.
    let hoisted = fission::hoist(&out, path, top, ctx).ok_or(NO_LOCATION)?;
    let mut q = prog.clone();
    q.kernels[idx].body = hoisted.clone();
    check_program(&mut q)
        .map_err(|e| format!("the body with the value computed first does not type-check: {e}"))?;
    Ok(hoisted)
}

const NO_LOCATION: &str = "the location of the point was lost";

/// Dispatches on the point's name (arity checked).
fn rewrite(name: &str, core: &Expr, site: &Site<'_>) -> PointResult {
    let Some(&(_, arity, f)) = POINTS.iter().find(|(n, _, _)| *n == name) else {
        let known: Vec<&str> = POINTS.iter().map(|p| p.0).collect();
        return Err(format!(
            "unknown rewrite point (known: {})",
            known.join(", ")
        ));
    };
    if site.args.len() > arity {
        return Err(format!(
            "takes at most {arity} argument(s), found {}",
            site.args.len()
        ));
    }
    f(core, site)
}

/// Is `e` a function node (as opposed to data)?
pub(crate) fn is_function(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Prim(..) | ExprKind::Compose(_) | ExprKind::Lambda(..) | ExprKind::Section(_)
    )
}

/// Applies `rw` to the function of `core`: `core` itself (input type from the site), or `f`
/// of an application `f $ x` (input type of `x`), rebuilding the application.
pub(crate) fn on_function(
    core: &Expr,
    ctx: &RewriteCtx,
    rw: &dyn Fn(&Expr, &RewriteCtx) -> PointResult,
) -> PointResult {
    match &core.kind {
        ExprKind::Apply(f, xs) if xs.len() == 1 && is_function(f) => {
            let new = rw(f, &ctx.with_input(xs[0].ty.clone()))?;
            Ok(Expr::new(
                ExprKind::Apply(Box::new(new), xs.clone()),
                core.span,
            ))
        }
        _ if is_function(core) => rw(core, ctx),
        _ => Err("expects a function or a function applied to one argument".into()),
    }
}

/// Applies `rw` to `core` as data `f $ x` with the type of `x`: an application as it is, or a
/// function `f` as `|v| f $ v` (the result becomes the body of that lambda).
pub(crate) fn on_application(
    core: &Expr,
    ctx: &RewriteCtx,
    rw: &dyn Fn(&Expr, &Expr, Option<&Type>) -> PointResult,
) -> PointResult {
    match &core.kind {
        ExprKind::Apply(f, xs) if xs.len() == 1 => rw(f, &xs[0], xs[0].ty.as_ref()),
        _ if is_function(core) => {
            let s = core.span;
            let v = ctx.fresh("v", &[core]);
            let x = Expr::new(ExprKind::Ident(v.clone()), s);
            let body = rw(core, &x, ctx.input.as_ref())?;
            Ok(Expr::new(
                ExprKind::Lambda(vec![Pat::Name(v, s)], Box::new(body)),
                s,
            ))
        }
        _ => Err("expects a function applied to one argument".into()),
    }
}

/// The length of the input array, if the input is an array.
pub(crate) fn input_len(ctx: &RewriteCtx) -> Option<&Nat> {
    build::array(ctx.input.as_ref()).map(|(_, n)| n)
}

/// The default split size: the largest divisor of a constant length that is at most `max`,
/// else `symbolic` (a launch-time divisibility precondition of the `split` it feeds).
pub(crate) fn default_divisor(len: Option<&Nat>, max: i64, symbolic: i64) -> Nat {
    match len.and_then(Nat::as_cst) {
        Some(l) if l >= 1 => {
            let d = (1..=max.min(l)).rev().find(|d| l % d == 0).unwrap_or(1);
            Nat::cst(d)
        }
        _ => Nat::cst(symbolic),
    }
}

/// Is `n` refuted as a divisor of `len` (a known length that `n` does not divide)?
pub(crate) fn refuted(len: Option<&Nat>, n: &Nat, ctx: &RewriteCtx) -> bool {
    len.is_some_and(|l| ctx.facts.divisible(l, n) == Some(false))
}
