//! Rules that turn nested 1-D `pad`s and `slide`s into the n-D `pad2`/`pad3`/`slide2`/`slide3`
//! (the definitions of the stencil thesis).

use crate::ir::{Boundary, Expr, ExprKind, PrimArg};
use crate::prim::Prim;
use crate::rewrite::build::{self, chain, compose, is_bare, prim, with_fun};
use crate::rewrite::Rule;

/// `pad`'s sizes and boundary, for a boundary that is an index function (not a constant).
fn pad_args(e: &Expr) -> Option<(PrimArg, PrimArg, &Boundary)> {
    let (Prim::Pad, [l, r, PrimArg::Boundary(b, _)]) = e.as_prim()? else {
        return None;
    };
    (!matches!(b, Boundary::Constant(_))).then(|| (l.clone(), r.clone(), b))
}

fn same_boundary(a: &Boundary, b: &Boundary) -> bool {
    matches!(
        (a, b),
        (Boundary::Clamp, Boundary::Clamp)
            | (Boundary::Mirror, Boundary::Mirror)
            | (Boundary::Wrap, Boundary::Wrap)
    )
}

/// `pad(t, b, β) o map(pad(l, r, β)) ⇒ pad2(t, b, l, r, β)` and `map(pad(l, r, β)) o pad(t,
/// b, β) ⇒ pad2(t, b, l, r, β)` for an index boundary `β` (the two dimensions' index functions
/// are independent, so either order reads `x[β(i)][β(j)]`).
pub fn pad2_nested() -> Rule {
    Rule::chain(
        "pad2_nested",
        "pad(t, b, β) o map(pad(l, r, β)) ⇒ pad2(t, b, l, r, β);  map(pad(l, r, β)) o pad(t, b, β) ⇒ pad2(..)",
        |f, g, _| pad_nested(f, g, 1),
    )
}

/// `pad2(t, b, l, r, β) o map(map(pad(f, k, β))) ⇒ pad3(t, b, l, r, f, k, β)` and the
/// mirrored order, for an index boundary `β` (independent index functions per dimension).
pub fn pad3_nested() -> Rule {
    Rule::chain(
        "pad3_nested",
        "pad2(t, b, l, r, β) o map(map(pad(f, k, β))) ⇒ pad3(t, b, l, r, f, k, β)  (either order)",
        |f, g, _| pad_nested(f, g, 2),
    )
}

/// The `d`-dimensional pad (`pad`, `pad2`) and a 1-D pad under `d` maps, in either order, as
/// one `(d + 1)`-dimensional pad, when both use the same index boundary.
fn pad_nested(f: &Expr, g: &Expr, d: usize) -> Option<Vec<Expr>> {
    fn under(m: &Expr, d: usize) -> Option<(PrimArg, PrimArg, &Boundary)> {
        let mut m = m;
        for _ in 0..d {
            m = m.prim_fun(Prim::Map)?;
        }
        pad_args(m)
    }
    let (outer, (l, r, bi)) = match (under(f, d), under(g, d)) {
        (None, Some(p)) => (f, p),
        (Some(p), None) => (g, p),
        _ => return None,
    };
    let (want, out) = if d == 1 {
        (Prim::Pad, Prim::Pad2)
    } else {
        (Prim::Pad2, Prim::Pad3)
    };
    let (p, args) = outer.as_prim()?;
    let (Some(PrimArg::Boundary(bo, _)), true) =
        (args.last(), p == want && args.len() == 2 * d + 1)
    else {
        return None;
    };
    if !same_boundary(bo, bi) {
        return None;
    }
    let s = f.span;
    let mut all = args[..2 * d].to_vec();
    all.extend([l, r, PrimArg::Boundary(bo.clone(), s)]);
    Some(vec![prim(out, all, s)])
}

/// `map(map(F o transpose o map(transpose o map(slide(sx, tx))))) o slide2(sz, tz, sy, ty) ⇒
/// map(map(F)) o slide3(sz, tz, sy, ty, sx, tx)` (also with `map(transpose) o
/// map(map(slide))` unfused): each 2-D window of rows is cut into 3-D windows along the rows,
/// which is `slide3`.
pub fn slide3_nested() -> Rule {
    Rule::chain(
        "slide3_nested",
        "map(map(F o transpose o map(transpose o map(slide(sx, tx))))) o slide2(sz, tz, sy, ty) ⇒ map(map(F)) o slide3(..)",
        |m, sl, _| {
            let (Prim::Slide2, [sz, tz, sy, ty]) = sl.as_prim()? else {
                return None;
            };
            let body = m.prim_fun(Prim::Map)?.prim_fun(Prim::Map)?;
            let fs = chain(body);
            let n = fs.len();
            // The tail `transpose o map(transpose o map(slide))`, fused or not.
            let (x, rest) = if n >= 2 && is_bare(&fs[n - 2], Prim::Transpose) {
                let inner = chain(fs[n - 1].prim_fun(Prim::Map)?);
                match inner.as_slice() {
                    [t, ms] if is_bare(t, Prim::Transpose) => {
                        (slide_args(ms.prim_fun(Prim::Map)?)?, &fs[..n - 2])
                    }
                    _ => return None,
                }
            } else if n >= 3
                && is_bare(&fs[n - 3], Prim::Transpose)
                && fs[n - 2]
                    .prim_fun(Prim::Map)
                    .is_some_and(|t| is_bare(t, Prim::Transpose))
            {
                let ms = fs[n - 1].prim_fun(Prim::Map)?.prim_fun(Prim::Map)?;
                (slide_args(ms)?, &fs[..n - 3])
            } else {
                return None;
            };
            let s = m.span;
            let [sx, tx] = x;
            let slide3 = prim(
                Prim::Slide3,
                vec![sz.clone(), tz.clone(), sy.clone(), ty.clone(), sx, tx],
                s,
            );
            let mut out = Vec::new();
            if !rest.is_empty() {
                let f = compose(rest.to_vec(), s);
                out.push(with_fun(Prim::Map, &with_fun(Prim::Map, &f, s), s));
            }
            out.push(slide3);
            Some(out)
        },
    )
}

/// `slide(n, s)`'s window size and step.
fn slide_args(e: &Expr) -> Option<[PrimArg; 2]> {
    let (Prim::Slide, [n, s]) = e.as_prim()? else {
        return None;
    };
    Some([n.clone(), s.clone()])
}

/// `slide2(sy, ty, sx, tx)` from the row and column windows.
fn slide2(y: [PrimArg; 2], x: [PrimArg; 2], s: proc_macro2::Span) -> Expr {
    let [sy, ty] = y;
    let [sx, tx] = x;
    prim(Prim::Slide2, vec![sy, ty, sx, tx], s)
}

/// `map(f o transpose o map(slide(sx, tx))) o slide(sy, ty) ⇒ map(f) o slide2(sy, ty, sx, tx)`
/// and `map(f o map(transpose) o slide(sx, tx) o transpose) o slide(sy, ty) ⇒ map(f) o
/// slide2(..)` (the two definitions of 2-D windows of the stencil thesis; `f` may be empty).
pub fn slide2_nested() -> Rule {
    Rule::chain(
        "slide2_nested",
        "map(f o transpose o map(slide(sx, tx))) o slide(sy, ty) ⇒ map(f) o slide2(sy, ty, sx, tx)   (also map(f o map(transpose) o slide(sx, tx) o transpose))",
        |m, sl, _| {
            let y = slide_args(sl)?;
            let body = m.prim_fun(Prim::Map)?;
            let fs = match &body.kind {
                ExprKind::Compose(fs) => build::flatten(fs),
                _ => vec![body.clone()],
            };
            let n = fs.len();
            let (x, rest) = if n >= 2
                && is_bare(&fs[n - 2], Prim::Transpose)
                && fs[n - 1].prim_fun(Prim::Map).is_some()
            {
                (slide_args(fs[n - 1].prim_fun(Prim::Map)?)?, &fs[..n - 2])
            } else if n >= 3
                && fs[n - 3]
                    .prim_fun(Prim::Map)
                    .is_some_and(|t| is_bare(t, Prim::Transpose))
                && is_bare(&fs[n - 1], Prim::Transpose)
            {
                (slide_args(&fs[n - 2])?, &fs[..n - 3])
            } else {
                return None;
            };
            let s = m.span;
            let mut out = Vec::new();
            if !rest.is_empty() {
                out.push(with_fun(Prim::Map, &compose(rest.to_vec(), s), s));
            }
            out.push(slide2(y, x, s));
            Some(out)
        },
    )
}

/// `slide(sy, ty) o map(slide(sx, tx)) ⇒ map(transpose) o slide2(sy, ty, sx, tx)` (windows of
/// windows, rows first: each neighbourhood is the transpose of `slide2`'s).
pub fn slide2_of_slides() -> Rule {
    Rule::chain(
        "slide2_of_slides",
        "slide(sy, ty) o map(slide(sx, tx)) ⇒ map(transpose) o slide2(sy, ty, sx, tx)",
        |sl, m, _| {
            let y = slide_args(sl)?;
            let x = slide_args(m.prim_fun(Prim::Map)?)?;
            let s = sl.span;
            let tr = prim(Prim::Transpose, Vec::new(), s);
            Some(vec![with_fun(Prim::Map, &tr, s), slide2(y, x, s)])
        },
    )
}
