//! Strip mining with interchange for 2-D and 3-D map nests over views (stencils above all):
//! each work-item computes `s` consecutive outputs along the outer dimension, unrolled, so the
//! OpenCL compiler sees the same loads in consecutive outputs of a stencil and keeps them in
//! registers (a `k x l` window costs `l (s + k - 1)` loads for `s` outputs instead of `k l s`).
//!
//! Derived by rules, for `map(map(f)) $ X` (normalised: `map2` is nested maps):
//!
//! ```text
//! map(map(f))
//!   ⇒ join o map(map(map(f))) o split(s)                         split_join(s)
//!   ⇒ join o map(transpose o map(map(f)) o transpose) o split(s)   map_interchange
//!   ⇒ join o map_glb(1, transpose o map_glb(0, map_seq_unroll(f)) o transpose) o split(s)
//! ```
//!
//! and for three dimensions the strip's middle dimension is interchanged outside in turn
//! (`map_glb(2)` over strips of planes, `map_glb(1)` over rows, `map_glb(0)` over columns).
//! With `pad`, `X` is padded with `clamp` up to a multiple of `s` along its outer dimension and
//! the result cut with `take`, so any size works; without, the outer length must be a multiple
//! of `s` (a launch-time condition from `split`).

use crate::arith::Nat;
use crate::ir::{Expr, ExprKind, PrimArg};
use crate::prim::Prim;
use crate::rewrite::build::{self, compose, prim, with_fun};
use crate::rewrite::lowering::{lower_map, MapLevel};
use crate::rewrite::{algorithmic, interchange, RewriteCtx};
use proc_macro2::Span;

/// Strip lengths tried (tuning parameter `s`).
pub const STRIP_LENGTHS: &[i64] = &[2, 4, 8];

/// The strip-mined body for strip length `s`, if `body` is a 2-D or 3-D map nest applied to a
/// view whose window spans more than one row (plane): otherwise consecutive outputs share no
/// loads and strips cannot help.
pub fn strip_mine(body: &Expr, s: i64, pad: bool, ctx: &RewriteCtx) -> Option<Expr> {
    let (m, x) = nest_and_data(body)?;
    if !build::is_view(&x) || !shares_rows(&x) {
        return None;
    }
    let depth = nest_depth(&m);
    if !(2..=3).contains(&depth) {
        return None;
    }
    let span = body.span;
    let len = x.ty.as_ref()?.as_array()?.1.clone();
    if !pad && ctx.facts.divisible(&len, &Nat::cst(s)) == Some(false) {
        return None;
    }
    let input = ctx.with_input(x.ty.clone());
    // join o map(map^depth(f)) o split(s)
    let tiled = algorithmic::split_join(Nat::cst(s)).apply(&m, &input)?;
    let ExprKind::Compose(fs) = &tiled.kind else {
        return None;
    };
    let strip = fs.get(1)?.prim_fun(Prim::Map)?;
    let f = innermost(&m, depth)?;
    let lowered = lower_strip(strip, f, depth, span)?;
    let outer = Nat::cst(depth as i64 - 1);
    let chain = vec![
        fs[0].clone(),
        prim(
            Prim::MapGlb,
            vec![PrimArg::Nat(outer, span), PrimArg::Fun(lowered)],
            span,
        ),
        fs[2].clone(),
    ];
    let data = if pad {
        build::pad_to_multiple(x, &len, s, span)
    } else {
        x
    };
    let mut out = Expr::new(
        ExprKind::Apply(Box::new(compose(chain, span)), vec![data]),
        span,
    );
    if pad {
        let take = prim(Prim::Take, vec![PrimArg::Nat(len, span)], span);
        out = Expr::new(ExprKind::Apply(Box::new(take), vec![out]), span);
    }
    Some(out)
}

/// The strip's computation: the interchanged map nest with its maps mapped to `map_glb` of
/// the inner dimensions and the strip loop unrolled.
fn lower_strip(strip: &Expr, f: &Expr, depth: usize, span: Span) -> Option<Expr> {
    let ctx = RewriteCtx::default();
    // `strip` is map^depth(f) over `[s][...]`: interchange puts the strip inside.
    let swapped = interchange::map_interchange().apply(strip, &ctx)?;
    let ExprKind::Compose(ts) = &swapped.kind else {
        return None;
    };
    let unrolled = with_fun(Prim::MapSeqUnroll, f, span);
    let inner = if depth == 2 {
        // transpose o map(map(f)) o transpose: the outer map runs over columns.
        let cols = with_fun(Prim::Map, &unrolled, span);
        lower_map(MapLevel::Glb(0)).apply(&cols, &ctx)?
    } else {
        // transpose o map(map(map(f))) o transpose over `[n][s][m]`: each `[s][m]` row of
        // strips is interchanged again, its columns on dimension 0.
        let cols = with_fun(Prim::Map, &unrolled, span);
        let cols = lower_map(MapLevel::Glb(0)).apply(&cols, &ctx)?;
        let t = || prim(Prim::Transpose, Vec::new(), span);
        let row = compose(vec![t(), cols, t()], span);
        lower_map(MapLevel::Glb(1)).apply(&with_fun(Prim::Map, &row, span), &ctx)?
    };
    Some(compose(vec![ts[0].clone(), inner, ts[2].clone()], span))
}

/// The map nest and its (typed) data of `body`: `m $ x` or `(m o layout...) $ y`, with
/// `map2(f)`/`map3(f)` spelled as nested maps.
pub(super) fn nest_and_data(body: &Expr) -> Option<(Expr, Expr)> {
    let ExprKind::Apply(f, xs) = &body.kind else {
        return None;
    };
    let [x] = xs.as_slice() else { return None };
    let (m, data) = match &f.kind {
        ExprKind::Compose(fs) => {
            let (first, rest) = fs.split_first()?;
            if !rest.iter().all(build::is_layout) {
                return None;
            }
            let g = compose(rest.to_vec(), f.span);
            let mut data = Expr::new(ExprKind::Apply(Box::new(g), vec![x.clone()]), body.span);
            data.ty = rest.first()?.ty.clone();
            (first.clone(), data)
        }
        _ => ((**f).clone(), x.clone()),
    };
    Some((expand_nd(&m)?, data))
}

/// `map2(f)` as `map(map(f))`, `map3(f)` as `map(map(map(f)))`, maps as they are.
fn expand_nd(m: &Expr) -> Option<Expr> {
    let s = m.span;
    let (p, depth) = match m.as_prim()?.0 {
        Prim::Map => return Some(m.clone()),
        Prim::Map2 => (Prim::Map2, 2),
        Prim::Map3 => (Prim::Map3, 3),
        _ => return None,
    };
    let f = m.prim_fun(p)?;
    Some((0..depth).fold(f.clone(), |g, _| with_fun(Prim::Map, &g, s)))
}

/// How many maps are nested directly (`map(map(f))` is 2).
pub(super) fn nest_depth(m: &Expr) -> usize {
    match m.prim_fun(Prim::Map) {
        Some(f) => 1 + nest_depth(f),
        None => 0,
    }
}

/// The function under `depth` nested maps.
pub(super) fn innermost(m: &Expr, depth: usize) -> Option<&Expr> {
    (0..depth).try_fold(m, |e, _| e.prim_fun(Prim::Map))
}

/// Does the view contain a `slide` whose consecutive windows share rows (planes) of the outer
/// dimension: `slide2`/`slide3`, or a `slide` of the outer dimension, with a window of more
/// rows than its step (`slide2(2, 2)`, a pooling, shares none)?
fn shares_rows(x: &Expr) -> bool {
    match &x.kind {
        ExprKind::Apply(f, xs) => shares_rows(f) || xs.iter().any(shares_rows),
        ExprKind::Compose(fs) => fs.iter().any(shares_rows),
        ExprKind::Prim(p @ (Prim::Slide | Prim::Slide2 | Prim::Slide3), _) => {
            let ns = x.prim_nats(*p).unwrap_or_default();
            match (
                ns.first().and_then(Nat::as_cst),
                ns.get(1).and_then(Nat::as_cst),
            ) {
                (Some(rows), Some(step)) => rows > step,
                (Some(rows), None) => rows > 1,
                _ => false,
            }
        }
        _ => false,
    }
}
