//! The edges of a blocked product, as rules applied before the tiling: rows padded up to
//! multiples of the blocks (the result cut back with `take`), and the shared dimension
//! zero-padded up to a multiple of the `tk`-slices where a pair of zeros adds nothing to the
//! fold. Each rewrites a product the tiling matches (`matching.rs`) into one it matches again,
//! with the nodes it builds typed (the tiling reads the operands' lengths), and each preserves
//! the product's meaning on its own (`tests.rs`).

use super::matching::{batched, fold_parts, map_app, matched, Fold};
use super::zero_pairs_add_nothing;
use crate::arith::Nat;
use crate::ir::{Expr, ExprKind, Pat, PrimArg};
use crate::prim::Prim;
use crate::rewrite::build::{self, lambda1};
use crate::rewrite::{epilogue, Rule};
use crate::types::Type;
use proc_macro2::Span;

/// `pad_rows(tm, tn)`: both maps of a product run over rows padded with `clamp` up to
/// multiples of `tm` and `tn`, the result cut back with `take` (the padded rows compute
/// values nobody keeps):
///
/// ```text
/// map(|r| map(|c| F) $ C) $ A
///   ⇒ take(N) o map(take(M)) $ map(|r| map(|c| F) $ pad(0, pM, clamp) $ C) $ pad(0, pN, clamp) $ A
/// ```
///
/// `pN = ⌈N / tm⌉ tm - N` and `pM = ⌈M / tn⌉ tn - M`; `A` and `C` are the data the maps run
/// over (a zip of columns and their bias, of rows and the elements the epilogue reads). In a
/// batch of products, `map(|p| P) $ data`, it pads `P`.
pub fn pad_rows(tm: i64, tn: i64) -> Rule {
    Rule::new(
        "pad_rows",
        "map(|r| map(|c| F) $ C) $ A ⇒ take(N) o map(take(M)) $ map(|r| map(|c| F) $ \
         pad(0, pM, clamp) $ C) $ pad(0, pN, clamp) $ A   pN, pM up to multiples of tm, tn",
        move |e, _| {
            if matched(e, None).is_some() {
                return padded_rows(e, tm, tn);
            }
            batched(e)?;
            in_batch(e, |p| padded_rows(p, tm, tn))
        },
    )
}

/// `pad_shared(tk)`: the shared dimension zero-padded up to a multiple of `tk`, where a pair
/// of zeros adds nothing to the fold (`op` is `+` and `g(0, 0)` is `0`, see
/// [`zero_pairs_add_nothing`]) and `tk` is not known to divide its length `K`:
///
/// ```text
/// map(|r| map(|c| E[reduce(op, z) o map(g) $ zip(r, c)]) $ C) $ A
///   ⇒ map(|r| map(|c| E[reduce(op, z) o map(g) $ zip(r, c)]) $ map(pad(0, pK, 0.0)) $ C)
///     $ map(pad(0, pK, 0.0)) $ A
/// ```
///
/// (`pK = ⌈K / tk⌉ tk - K`). Where the fold reads a view of a row (`L $ col.i`, a column
/// zipped with its bias) the view is padded in the fold, `pad(0, pK, 0.0) $ L $ col.i`. In a
/// batch of products it pads each.
pub fn pad_shared(tk: i64) -> Rule {
    Rule::new(
        "pad_shared",
        "map(|r| map(|c| E[reduce(+, z) o map(g) $ zip(r, c)]) $ C) $ A ⇒ map(|r| map(|c| \
         E[..]) $ map(pad(0, pK, 0.0)) $ C) $ map(pad(0, pK, 0.0)) $ A   if g(0, 0) = 0 and \
         tk may not divide K",
        move |e, ctx| {
            let m = matched(e, None).or_else(|| batched(e))?;
            let kk = m.a.ty.as_ref()?.as_array()?.0.as_array()?.1.clone();
            if !zero_pairs_add_nothing(&m.op, m.g.as_ref(), e.span)
                || ctx.facts.divisible(&kk, &Nat::cst(tk)) == Some(true)
            {
                return None;
            }
            let t = Nat::cst(tk);
            let extra = (&kk + &(&t - &Nat::cst(1))) / &t * &t - &kk;
            if m.batch.is_some() {
                return in_batch(e, |p| padded_shared(p, &kk, &extra));
            }
            padded_shared(e, &kk, &extra)
        },
    )
}

/// `map(|p| f(P)) $ data` for a batch `map(|p| P) $ data`.
fn in_batch(e: &Expr, f: impl FnOnce(&Expr) -> Option<Expr>) -> Option<Expr> {
    let (outer, data) = map_app(e)?;
    let (p, body) = lambda1(outer)?;
    let lam = Expr::new(
        ExprKind::Lambda(vec![Pat::Name(p.to_string(), e.span)], Box::new(f(body)?)),
        outer.span,
    );
    let mut out = build::apply1(build::with_fun(Prim::Map, &lam, e.span), data, e.span);
    out.ty = e.ty.clone();
    Some(out)
}

/// The parts of a product `map(|r| map(|c| F) $ C) $ A`: `r`, `|c| F`, `C` and `A`.
fn parts(e: &Expr) -> Option<(&str, &Expr, Expr, Expr)> {
    let (outer, a) = map_app(e)?;
    let (r, row) = lambda1(outer)?;
    let (inner, c) = map_app(row)?;
    Some((r, inner, c, a))
}

/// `map(|r| map(inner) $ c) $ a`, typed `[[f32; M]; N]` for `c`, `a` of lengths `M`, `N`.
fn product(r: &str, inner: &Expr, c: Expr, a: Expr, s: Span) -> Option<Expr> {
    let ty = |x: &Expr| Some(x.ty.as_ref()?.as_array()?.1.clone());
    let (n, mm) = (ty(&a)?, ty(&c)?);
    let row = build::apply1(build::with_fun(Prim::Map, inner, s), c, s);
    let outer = Expr::new(
        ExprKind::Lambda(vec![Pat::Name(r.to_string(), s)], Box::new(row)),
        s,
    );
    let mut e = build::apply1(build::with_fun(Prim::Map, &outer, s), a, s);
    let f32 = Type::Scalar(crate::types::ScalarType::F32);
    e.ty = Some(Type::array(Type::array(f32, mm), n));
    Some(e)
}

/// `x` (an array of length `len`) padded up to a multiple of `t` with `clamp`, typed.
fn pad_typed(x: Expr, len: &Nat, t: i64, s: Span) -> Option<Expr> {
    let elem = x.ty.as_ref()?.as_array()?.0.clone();
    let tt = Nat::cst(t);
    let padded = (len + &(&tt - &Nat::cst(1))) / &tt * &tt;
    let mut e = build::pad_to_multiple(x, len, t, s);
    e.ty = Some(Type::array(elem, padded));
    Some(e)
}

/// [`pad_rows`] on the product `e`.
fn padded_rows(e: &Expr, tm: i64, tn: i64) -> Option<Expr> {
    let s = e.span;
    let (r, inner, c, a) = parts(e)?;
    let len = |x: &Expr| Some(x.ty.as_ref()?.as_array()?.1.clone());
    let (n, mm) = (len(&a)?, len(&c)?);
    let a = pad_typed(a, &n, tm, s)?;
    let c = pad_typed(c, &mm, tn, s)?;
    let p = product(r, inner, c, a, s)?;
    // take(N) o map(take(M)) $ p
    let take = |len: &Nat| build::prim(Prim::Take, vec![PrimArg::Nat(len.clone(), s)], s);
    let cut = build::compose(vec![take(&n), build::with_fun(Prim::Map, &take(&mm), s)], s);
    let mut out = Expr::new(ExprKind::Apply(Box::new(cut), vec![p]), s);
    out.ty = e.ty.clone();
    Some(out)
}

/// [`pad_shared`] on the product `e` whose shared dimension `kk` gets `extra` zeros: each
/// array the fold zips is padded, a row of `A` or `C` where the maps run over (`map(pad) $
/// A`), a view of one in the fold itself.
fn padded_shared(e: &Expr, kk: &Nat, extra: &Nat) -> Option<Expr> {
    let s = e.span;
    let (r, inner, mut c, mut a) = parts(e)?;
    let (col, body) = lambda1(inner)?;
    let split = epilogue::split(body, &epilogue::has_reduce, &|d| fold_parts(d).is_some())?;
    let Fold { pair, .. } = fold_parts(&split.core)?;
    let zp = build::zero_pad(extra, s);
    let rows = |x: Expr| {
        let (elem, len) = x.ty.as_ref()?.as_array()?;
        let ty = Type::array(
            Type::array(elem.as_array()?.0.clone(), kk + extra),
            len.clone(),
        );
        let mut y = build::apply1(build::with_fun(Prim::Map, &zp, s), x, s);
        y.ty = Some(ty);
        Some(y)
    };
    let mut zipped = Vec::new();
    for x in &pair {
        if build::is_ident(x, r) {
            a = rows(a)?;
            zipped.push(x.clone());
        } else if build::is_ident(x, col) {
            c = rows(c)?;
            zipped.push(x.clone());
        } else {
            let elem = x.ty.as_ref()?.as_array()?.0.clone();
            let mut y = build::apply1(zp.clone(), x.clone(), s);
            y.ty = Some(Type::array(elem, kk + extra));
            zipped.push(y);
        }
    }
    let mut body = body.clone();
    if zipped.iter().zip(&pair).any(|(y, x)| y != x) {
        let [x, y] = pair;
        let [x2, y2]: [Expr; 2] = zipped.try_into().ok()?;
        let mut core = split.core.clone();
        build::replace_same(&mut core, &build::zip2(x, y, s), &build::zip2(x2, y2, s));
        build::replace_same(&mut body, &split.core, &core);
    }
    let inner = Expr::new(
        ExprKind::Lambda(vec![Pat::Name(col.to_string(), s)], Box::new(body)),
        inner.span,
    );
    product(r, &inner, c, a, s)
}
