//! Partial products (split-K): the shared dimension of a matrix product cut into `s` slices,
//! each slice's product computed on its own, the `s` partial results summed afterwards.
//!
//! ```text
//! map(|r| map(|c| E[reduce(+, 0) o map(g) $ zip(Vr, Vc)]) $ Y) $ X
//!   ⇒ let parts = map(|p| map(|r'| map(|c'| reduce(+, 0) o map(g) $ zip(r', c')) $ p.1) $ p.0)
//!                   $ zip(transpose o map(split(k') o pad0) $ A, transpose o map(split(k') o pad0) $ C);
//!     map(|(r, pr)| map(|(c, ps)| E[reduce(+, 0) $ ps]) $ zip(Y, pr)) $ zip(X, map(transpose) o transpose $ parts)
//! ```
//!
//! `Vr` and `Vc` are views of `r` and `c` (a layout, a projection of a zipped element):
//! `A = map(|r| Vr) $ X` and `C = map(|c| Vc) $ Y` are the two matrices, their rows of length
//! `k` cut into `s` slices of `k' = ceil(k / (s q)) q` (a multiple of `q`, the largest step
//! of the blocked strategy, so that each slice's product needs no padding of its own), with
//! zeros after the last element (`pad0`, only where a pair of zeros adds nothing to the fold).
//! The partial products are a batch of `s` products that [`super::blocking`] blocks with one
//! work-group index per slice; the sum and the epilogue `E` (which may read other data of `r`
//! and `c`: a bias) are a second pass. It is the thesis' partial reduction
//! (`reduce(+) = reduce(+) o part_red(+)`, `+` associative and commutative, `0` its unit)
//! applied to every dot product of the nest at once, with the slices interchanged outermost;
//! exact in real arithmetic, it reassociates floating-point sums as any parallel reduction
//! does.
//!
//! It pays where a product has few result blocks and a long shared dimension (the deep layers
//! of a convolutional network): `s` times more work-groups share the work.

use super::blocking::{fold_parts, map_app, zero_pairs_add_nothing, Fold};
use super::build::{self, call, compose, ident, lambda1, prim, with_fun};
use super::{epilogue, RewriteCtx, Rule};
use crate::arith::Nat;
use crate::ir::{Expr, ExprKind, Pat, PrimArg, Section};
use crate::prim::Prim;
use crate::types::ScalarType;
use proc_macro2::Span;

/// The partial-products rule for `s` slices whose length is a multiple of `q` (see the
/// module docs). Matches an `f32` product whose fold is `+` from `0` over `map(g)`.
pub fn split_shared(s: i64, q: i64) -> Rule {
    Rule::new(
        "split_shared",
        "map(|r| map(|c| E[reduce(+, 0) o map(g) $ zip(Vr, Vc)]) $ Y) $ X ⇒ let parts = (s \
         partial products over slices of the shared dimension); map(|(r, pr)| map(|(c, ps)| \
         E[reduce(+, 0) $ ps]) $ zip(Y, pr)) $ zip(X, map(transpose) o transpose $ parts)   \
         if s > 1, Vr/Vc views of r/c",
        move |e, ctx| split(e, s, q, ctx).map(|(e, _)| e),
    )
}

/// The rule applied at the root of `e` (see [`split_shared`]), with the length of the shared
/// dimension.
pub fn split(e: &Expr, s: i64, q: i64, ctx: &RewriteCtx) -> Option<(Expr, Nat)> {
    if s < 2 || q < 1 {
        return None;
    }
    let f32_matrix =
        e.ty.as_ref()
            .is_some_and(|t| t.dims().len() == 2 && t.base().as_scalar() == Some(ScalarType::F32));
    if !f32_matrix {
        return None;
    }
    let (outer, x) = map_app(e)?;
    let (r, row) = lambda1(outer)?;
    let (inner, y) = map_app(row)?;
    let (c, body) = lambda1(inner)?;
    if !build::is_data(&x) || !build::is_data(&y) || build::mentions(&y, r) {
        return None;
    }
    // The fold over views of `r` and `c`; the epilogue around it.
    let is_fold = |d: &Expr| {
        fold_parts(d).is_some_and(|f| {
            f.g.is_some()
                && f.pair
                    .iter()
                    .all(|v| view_of(v, r).or(view_of(v, c)).is_some())
        })
    };
    let parts = epilogue::split(body, &epilogue::has_reduce, &is_fold)?;
    let Fold { op, z, g, pair } = fold_parts(&parts.core)?;
    let g = g?;
    if build::section_of(&op) != Some(Section::Add) || !build::is_lit(&z, 0.0) {
        return None;
    }
    let free = |e: &Expr| !build::mentions(e, r) && !build::mentions(e, c);
    if !free(&g) || !free(&op) {
        return None;
    }
    // Which zipped operand is the row's view, which the column's.
    let (vr, vc, swapped) = match (&pair[0], &pair[1]) {
        (a, b) if view_of(a, r) == Some(()) && view_of(b, c) == Some(()) => (a, b, false),
        (a, b) if view_of(a, c) == Some(()) && view_of(b, r) == Some(()) => (b, a, true),
        _ => return None,
    };
    let sp = e.span;
    let k = build::array(vr.ty.as_ref())?.1.clone();
    let a = operand(vr, r, &x, sp)?;
    let cm = operand(vc, c, &y, sp)?;
    // Slices of `k'`, a multiple of `q`; the rows zero-padded up to `s k'` unless that is `k`.
    let sq = Nat::cst(s * q);
    let exact = ctx.facts.divisible(&k, &sq) == Some(true);
    let (ks, pad) = if exact {
        (&k / &Nat::cst(s), None)
    } else {
        if !zero_pairs_add_nothing(&op, Some(&g), sp) {
            return None;
        }
        let ks = (&k + &(&sq - &Nat::cst(1))) / &sq * &Nat::cst(q);
        let extra = &(&ks * &Nat::cst(s)) - &k;
        (ks, Some(extra))
    };
    let slices = |m: Expr| {
        let mut row = vec![prim(Prim::Split, vec![build::nat(&ks, sp)], sp)];
        if let Some(extra) = &pad {
            row.push(build::zero_pad(extra, sp));
        }
        let f = compose(
            vec![
                prim(Prim::Transpose, Vec::new(), sp),
                with_fun(Prim::Map, &compose(row, sp), sp),
            ],
            sp,
        );
        build::apply1(f, m, sp)
    };
    let [p, r2, c2, pr, ps, parts_name] =
        ["p", "r", "c", "pr", "ps", "parts"].map(|n| ctx.fresh(&format!("lift_{n}"), &[e]));
    let map_over = |pat: Pat, body: Expr, data: Expr| build::map_over(pat, body, data, sp);
    // The batch of partial products.
    let zipped = if swapped {
        build::zip2(ident(&c2, sp), ident(&r2, sp), sp)
    } else {
        build::zip2(ident(&r2, sp), ident(&c2, sp), sp)
    };
    let fold = compose(
        vec![
            build::untyped(&with_args(Prim::Reduce, &op, &z, sp)),
            with_fun(Prim::Map, &build::untyped(&g), sp),
        ],
        sp,
    );
    let dot = build::apply1(fold, zipped, sp);
    let proj = |i: usize| Expr::new(ExprKind::Proj(Box::new(ident(&p, sp)), i), sp);
    let product = map_over(
        Pat::Name(r2.clone(), sp),
        map_over(Pat::Name(c2.clone(), sp), dot, proj(1)),
        proj(0),
    );
    let batch = map_over(
        Pat::Name(p.clone(), sp),
        product,
        build::zip2(slices(a), slices(cm), sp),
    );
    // The sums with the epilogue.
    let sum = build::apply1(
        build::untyped(&with_args(Prim::Reduce, &op, &z, sp)),
        ident(&ps, sp),
        sp,
    );
    let value = match &parts.post {
        Some(post) => call(post, vec![sum], sp),
        None => sum,
    };
    let pair =
        |a: &str, b: &str| Pat::Tuple(vec![Pat::Name(a.into(), sp), Pat::Name(b.into(), sp)], sp);
    let per_row = |b: Expr| {
        let t = prim(Prim::Transpose, Vec::new(), sp);
        let f = compose(vec![with_fun(Prim::Map, &t, sp), t.clone()], sp);
        build::apply1(f, b, sp)
    };
    let rest = map_over(
        pair(r, &pr),
        map_over(
            pair(c, &ps),
            value,
            build::zip2(build::untyped(&y), ident(&pr, sp), sp),
        ),
        build::zip2(build::untyped(&x), per_row(ident(&parts_name, sp)), sp),
    );
    let new = Expr::new(
        ExprKind::Let(Pat::Name(parts_name, sp), Box::new(batch), Box::new(rest)),
        sp,
    );
    Some((new, k))
}

/// `Some(())` if `v` is a view of the variable `x`: `x`, a projection of a view of `x`, a
/// layout applied to a view of `x`.
fn view_of(v: &Expr, x: &str) -> Option<()> {
    match &v.kind {
        ExprKind::Ident(n) if n == x => Some(()),
        ExprKind::Proj(inner, _) => view_of(inner, x),
        ExprKind::Apply(f, xs) if build::is_layout(f) => match xs.as_slice() {
            [inner] => view_of(inner, x),
            _ => None,
        },
        _ => None,
    }
}

/// The matrix whose rows are `v` for every `x` of `data` (`v` a view of `x`, see
/// [`view_of`]): `data` itself, a projection taken from a `zip`, `map(L)` for a layout `L`.
fn operand(v: &Expr, x: &str, data: &Expr, s: Span) -> Option<Expr> {
    match &v.kind {
        ExprKind::Ident(n) if n == x => Some(build::untyped(data)),
        ExprKind::Proj(inner, i) => {
            let d = operand(inner, x, data, s)?;
            match &d.kind {
                ExprKind::Apply(f, xs) if matches!(f.as_prim(), Some((Prim::Zip, _))) => {
                    xs.get(*i).cloned()
                }
                _ => None,
            }
        }
        ExprKind::Apply(f, xs) => {
            let [inner] = xs.as_slice() else { return None };
            let d = operand(inner, x, data, s)?;
            Some(build::apply1(
                with_fun(Prim::Map, &build::untyped(f), s),
                d,
                s,
            ))
        }
        _ => None,
    }
}

/// `reduce(op, z)`.
fn with_args(p: Prim, op: &Expr, z: &Expr, s: Span) -> Expr {
    prim(
        p,
        vec![
            PrimArg::Fun(build::untyped(op)),
            PrimArg::Value(build::untyped(z)),
        ],
        s,
    )
}
