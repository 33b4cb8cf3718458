//! Stencil rules (Hagedorn's thesis): 1-D and 2-D overlapped tiling, and the definition of
//! `slide2` through transposes.
//!
//! Overlapped tiling `slide(n, s) ⇒ join o map(slide(n, s)) o slide(u, v)` is only sound when
//! tiles overlap by exactly the halo, `u - v = n - s` (erratum 3 of the thesis), so `v` is
//! computed from the tile size `u`; `(u - n) % s == 0` makes every tile hold `v / s` whole
//! windows, and `(len - u) % v == 0` (a slide precondition) makes the tiles cover the input.

use super::build::{self, compose, prim, with_fun};
use super::{RewriteCtx, Rule};
use crate::arith::Nat;
use crate::ir::{Expr, PrimArg};
use crate::prim::Prim;
use proc_macro2::Span;

/// The tile step `v = u - n + s` for windows `(n, s)` and tile size `u`, if the tiling is
/// valid: `n <= u`, `s | u - n` (provable), and for a known length `len`, `u <= len` and
/// `v | len - u` not refuted.
fn tile_step(n: &Nat, s: &Nat, u: &Nat, len: Option<&Nat>, ctx: &RewriteCtx) -> Option<Nat> {
    let f = &ctx.facts;
    if f.le(n, u) != Some(true) || f.divisible(&(u - n), s) != Some(true) {
        return None;
    }
    let v = u - n + s;
    if f.le(&Nat::cst(1), &v) != Some(true) {
        return None;
    }
    if let Some(len) = len {
        if f.le(u, len) == Some(false) || f.divisible(&(len - u), &v) == Some(false) {
            return None;
        }
    }
    Some(v)
}

fn slide(p: Prim, ns: &[&Nat], span: Span) -> Expr {
    prim(p, ns.iter().map(|n| build::nat(n, span)).collect(), span)
}

/// `map(f) o slide(n, s) ⇒ map_seq_slide(f, n, s)`, and the same for `map_seq` (LIFT's
/// `mapSeqSlide` and `mapSeqSlideSeq`): one work-item walks the windows in order and keeps
/// the window in private memory, reading each element once.
pub fn map_seq_slide() -> Rule {
    Rule::chain(
        "map_seq_slide",
        "map(f) o slide(n, s) ⇒ map_seq_slide(f, n, s)   (also map_seq(f))",
        |m, sl, _| {
            let p = [Prim::Map, Prim::MapSeq]
                .into_iter()
                .find(|&p| m.prim_fun(p).is_some())?;
            let f = m.prim_fun(p)?;
            let ns = sl.prim_nats(Prim::Slide)?;
            let [n, s] = ns.as_slice() else {
                return None;
            };
            let sp = m.span;
            Some(vec![prim(
                Prim::MapSeqSlide,
                vec![
                    PrimArg::Fun(f.clone()),
                    build::nat(n, sp),
                    build::nat(s, sp),
                ],
                sp,
            )])
        },
    )
}

/// `slide(n, s) ⇒ join o map(slide(n, s)) o slide(u, u - n + s)` (RR3, overlapped tiling with
/// tiles of `u` elements), if `n <= u`, `s | u - n`, and for a known length `len`: `u <= len`
/// and `(u - n + s) | len - u`.
pub fn overlapped_tiling(u: Nat) -> Rule {
    Rule::new(
        "overlapped_tiling",
        "slide(n, s) ⇒ join o map(slide(n, s)) o slide(u, v)   if u - v = n - s, s | u - n, v | len - u",
        move |e, ctx| {
            let ns = e.prim_nats(Prim::Slide)?;
            let [n, s] = ns.as_slice() else {
                return None;
            };
            let len = build::array(ctx.input.as_ref()).map(|(_, l)| l);
            let v = tile_step(n, s, &u, len, ctx)?;
            let sp = e.span;
            Some(compose(
                vec![
                    prim(Prim::Join, Vec::new(), sp),
                    with_fun(Prim::Map, &slide(Prim::Slide, &[n, s], sp), sp),
                    slide(Prim::Slide, &[&u, &v], sp),
                ],
                sp,
            ))
        },
    )
}

/// `slide2(ny, sy, nx, sx) ⇒ map(join) o join o map(transpose) o map(map(slide2(ny, sy, nx,
/// sx))) o slide2(uy, vy, ux, vx)` (2-D overlapped tiling, tiles of `uy × ux`), with the 1-D
/// conditions of [`overlapped_tiling`] in each dimension.
pub fn overlapped_tiling_2d(uy: Nat, ux: Nat) -> Rule {
    Rule::new(
        "overlapped_tiling_2d",
        "slide2(ny, sy, nx, sx) ⇒ map(join) o join o map(transpose) o map(map(slide2(ny, sy, nx, sx))) o slide2(uy, vy, ux, vx)   if the 1-D conditions hold per dimension",
        move |e, ctx| {
            let ns = e.prim_nats(Prim::Slide2)?;
            let (ny, sy, nx, sx) = match ns.as_slice() {
                [n, s] => (n, s, n, s),
                [ny, sy, nx, sx] => (ny, sy, nx, sx),
                _ => return None,
            };
            let rows = build::array(ctx.input.as_ref());
            let cols = rows.and_then(|(r, _)| r.as_array());
            let vy = tile_step(ny, sy, &uy, rows.map(|(_, l)| l), ctx)?;
            let vx = tile_step(nx, sx, &ux, cols.map(|(_, l)| l), ctx)?;
            let sp = e.span;
            let bare = |p| prim(p, Vec::new(), sp);
            let inner = slide(Prim::Slide2, &[ny, sy, nx, sx], sp);
            Some(compose(
                vec![
                    with_fun(Prim::Map, &bare(Prim::Join), sp),
                    bare(Prim::Join),
                    with_fun(Prim::Map, &bare(Prim::Transpose), sp),
                    with_fun(Prim::Map, &with_fun(Prim::Map, &inner, sp), sp),
                    slide(Prim::Slide2, &[&uy, &vy, &ux, &vx], sp),
                ],
                sp,
            ))
        },
    )
}

/// `slide2(sy, ty, sx, tx) ⇒ map(map(transpose) o slide(sx, tx) o transpose) o slide(sy, ty)`
/// (Def. 2.16 of the stencil thesis: 2-D windows through the transposition identity).
pub fn slide2_expand() -> Rule {
    Rule::new(
        "slide2_expand",
        "slide2(sy, ty, sx, tx) ⇒ map(map(transpose) o slide(sx, tx) o transpose) o slide(sy, ty)",
        |e, _| {
            let ns = e.prim_nats(Prim::Slide2)?;
            let (sy, ty, sx, tx) = match ns.as_slice() {
                [s, t] => (s, t, s, t),
                [sy, ty, sx, tx] => (sy, ty, sx, tx),
                _ => return None,
            };
            let sp = e.span;
            let tr = || prim(Prim::Transpose, Vec::new(), sp);
            let inner = compose(
                vec![
                    with_fun(Prim::Map, &tr(), sp),
                    slide(Prim::Slide, &[sx, tx], sp),
                    tr(),
                ],
                sp,
            );
            Some(compose(
                vec![
                    with_fun(Prim::Map, &inner, sp),
                    slide(Prim::Slide, &[sy, ty], sp),
                ],
                sp,
            ))
        },
    )
}
