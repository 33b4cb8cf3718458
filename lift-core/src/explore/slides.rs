//! Sliding-window strips for 1-D, 2-D and 3-D stencils (LIFT's `MapSeqSlide` rules): each
//! work-item walks `s` consecutive outputs along the outer dimension with `map_seq_slide`,
//! which keeps the window in private memory and reads each input row (plane) of it once, so
//! a `k x l` window costs `l` loads per output instead of `k l`, in a loop (not unrolled).
//!
//! Derived for `map(map(f)) o slide2(ny, 1, nx, tx) $ y` (the normal form of a 2-D stencil):
//!
//! ```text
//! map(map(f)) o map(transpose) o slide(ny, 1) o map(slide(nx, tx))      slide2's definition
//!   = map(map(f)) o transpose o map(slide(ny, 1)) o transpose o map(..)  slide of the outer
//!                                                                       dimension, transposed
//!   = transpose o map(map(f) o slide(ny, 1)) o transpose o map(..)       map over transpose
//!   ⇒ transpose o map(map_seq_slide(f, ny, 1)) o transpose o map(..)     map_seq_slide rule
//!   ⇒ transpose o map(join o map(map_seq_slide(f, ny, 1)) o slide(s + ny - 1, s))
//!       o transpose o map(slide(nx, tx))                                 overlapped tiling
//! ```
//!
//! with the column map on `map_glb(0)` (adjacent work-items read adjacent columns) and the
//! strips on `map_glb(1)`; in three dimensions the planes' 2-D windows `map(slide2(..))` are
//! walked along the outer dimension the same way, columns on `map_glb(0)`, rows on
//! `map_glb(1)`, strips on `map_glb(2)`. In one dimension, `map(f) o slide(n, 1) $ y` is
//! `join o map_glb(0, map_seq_slide(f, n, 1)) o slide(s + n - 1, s) $ y` (the last two steps
//! above alone): `1 + (n - 1) / s` loads per output, each work-item's strip `s` elements
//! after its neighbour's (the device's caches join a warp's strided reads). With `pad`, `y` is padded with `clamp` so the output
//! length along the walk is a multiple of `s`, and the result cut with `take`.

use super::strips::{innermost, nest_and_data, nest_depth};
use crate::arith::Nat;
use crate::ir::{Expr, ExprKind, PrimArg};
use crate::prim::Prim;
use crate::rewrite::build::{self, compose, prim, with_fun};
use crate::rewrite::RewriteCtx;

/// Strip lengths tried (tuning parameter `s`): a loop, so longer strips cost no code size.
pub const SLIDE_STRIPS: &[i64] = &[4, 16, 64];

/// The longest window along the walk kept in private memory: registers hold a few dozen
/// values, and code generation copies the window element by element (a window of
/// 32147483647 elements, found by the fuzzer, kept it busy for minutes without an answer).
pub const MAX_WINDOW: i64 = 64;

/// The sliding-window body for strip length `s`, if `body` is a 1-D, 2-D or 3-D map nest over
/// a `slide`/`slide2`/`slide3` of step 1 along its outer dimension.
pub fn slide_strips(body: &Expr, s: i64, pad: bool, ctx: &RewriteCtx) -> Option<Expr> {
    let (m, x) = nest_and_data(body)?;
    let depth = nest_depth(&m);
    if !(1..=3).contains(&depth) || !build::is_view(&x) {
        return None;
    }
    let f = innermost(&m, depth)?;
    let (ns, y) = outer_slide(&x, depth)?;
    let (n, step) = (ns.first()?.clone(), ns.get(1)?.clone());
    if step.as_cst() != Some(1) || n.as_cst().is_none_or(|n| !(2..=MAX_WINDOW).contains(&n)) {
        return None;
    }
    let span = body.span;
    let out_len = x.ty.as_ref()?.as_array()?.1.clone();
    if !pad && ctx.facts.divisible(&out_len, &Nat::cst(s)) == Some(false) {
        return None;
    }
    let nat = |v: &Nat| PrimArg::Nat(v.clone(), span);
    let t = || prim(Prim::Transpose, Vec::new(), span);
    let glb = |d: i64, g: Expr| {
        prim(
            Prim::MapGlb,
            vec![PrimArg::Nat(Nat::cst(d), span), PrimArg::Fun(g)],
            span,
        )
    };
    // One walk: a strip of `s` outputs from `s + n - 1` consecutive elements.
    let walk = prim(
        Prim::MapSeqSlide,
        vec![PrimArg::Fun(f.clone()), nat(&n), nat(&step)],
        span,
    );
    let tiles = prim(
        Prim::Slide,
        vec![nat(&(Nat::cst(s) + &n - Nat::cst(1))), nat(&Nat::cst(s))],
        span,
    );
    let strip = compose(
        vec![
            prim(Prim::Join, Vec::new(), span),
            glb(depth as i64 - 1, walk),
            tiles,
        ],
        span,
    );
    // The windows of the inner dimensions, per row (plane).
    let inner = || match depth {
        2 => prim(Prim::Slide, ns[2..4].iter().map(nat).collect(), span),
        _ => prim(Prim::Slide2, ns[2..6].iter().map(nat).collect(), span),
    };
    let chain = match depth {
        1 => vec![strip],
        2 => vec![t(), glb(0, strip), t(), with_fun(Prim::Map, &inner(), span)],
        _ => vec![
            t(),
            with_fun(Prim::Map, &t(), span),
            glb(1, glb(0, strip)),
            with_fun(Prim::Map, &t(), span),
            t(),
            with_fun(Prim::Map, &inner(), span),
        ],
    };
    let data = if pad {
        build::pad_to_multiple(y, &out_len, s, span)
    } else {
        y
    };
    let mut out = Expr::new(
        ExprKind::Apply(Box::new(compose(chain, span)), vec![data]),
        span,
    );
    if pad {
        let take = prim(Prim::Take, vec![PrimArg::Nat(out_len, span)], span);
        out = Expr::new(ExprKind::Apply(Box::new(take), vec![out]), span);
    }
    Some(out)
}

/// The depth of the map nest of `body` when it walks a sliding window along its outer
/// dimension (the bodies [`slide_strips`] may apply to), else `None`.
pub fn walk_depth(body: &Expr) -> Option<usize> {
    let (m, x) = nest_and_data(body)?;
    let depth = nest_depth(&m);
    ((1..=3).contains(&depth) && outer_slide(&x, depth).is_some()).then_some(depth)
}

/// `x` as `slide2(..) $ y` or `slide3(..) $ y` for a nest of `depth` maps: the slide's sizes
/// and steps (outer dimension first, all given) and `y`.
fn outer_slide(x: &Expr, depth: usize) -> Option<(Vec<Nat>, Expr)> {
    let want = match depth {
        1 => Prim::Slide,
        2 => Prim::Slide2,
        _ => Prim::Slide3,
    };
    let ExprKind::Apply(f, xs) = &x.kind else {
        return None;
    };
    let [arg] = xs.as_slice() else { return None };
    let (head, y) = match &f.kind {
        ExprKind::Compose(fs) => {
            let (head, rest) = fs.split_first()?;
            let g = if rest.len() == 1 {
                rest[0].clone()
            } else {
                compose(rest.to_vec(), f.span)
            };
            let mut y = Expr::new(ExprKind::Apply(Box::new(g), vec![arg.clone()]), x.span);
            y.ty = rest.first()?.ty.clone();
            (head, y)
        }
        _ => (&**f, arg.clone()),
    };
    let ns = head.prim_nats(want)?;
    (ns.len() == 2 * depth).then(|| (ns.to_vec(), y))
}
