//! Interchange rules: swapping the two outer dimensions of a nested map through transposes,
//! and a reduction of rows into reductions of columns.

use super::build::{self, compose, prim};
use super::Rule;
use crate::ir::{Expr, ExprKind, Pat, PrimArg};
use crate::prim::Prim;

/// `map(map(f)) ⇒ transpose o map(map(f)) o transpose` (also `map2(f)`): the map nest runs
/// over the transposed matrix.
pub fn map_interchange() -> Rule {
    Rule::new(
        "map_interchange",
        "map(map(f)) ⇒ transpose o map(map(f)) o transpose   (also map2(f))",
        |e, _| {
            let nested = match e.prim_fun(Prim::Map) {
                Some(inner) => inner.prim_fun(Prim::Map).is_some(),
                None => e.prim_fun(Prim::Map2).is_some(),
            };
            if !nested {
                return None;
            }
            let s = e.span;
            let t = || prim(Prim::Transpose, Vec::new(), s);
            Some(compose(vec![t(), build::untyped(e), t()], s))
        },
    )
}

/// `f ⇒ transpose o transpose o f` for a function giving a matrix (RR8, the transposition
/// identity: a transposed layout for the next rule to use).
pub fn transpose_intro() -> Rule {
    Rule::new(
        "transpose_intro",
        "f ⇒ transpose o transpose o f   if f gives an array of arrays",
        |e, _| {
            if !matches!(
                e.kind,
                ExprKind::Prim(..) | ExprKind::Compose(_) | ExprKind::Lambda(..)
            ) {
                return None;
            }
            e.ty.as_ref()?.as_array()?.0.as_array()?;
            let s = e.span;
            let t = || prim(Prim::Transpose, Vec::new(), s);
            Some(compose(vec![t(), t(), build::untyped(e)], s))
        },
    )
}

/// `reduce(|acc, x| map(h) $ zip(acc, x), z) $ xs ⇒ map(|p| reduce(g, p.0) $ p.1) $ zip(z,
/// transpose $ xs)` with `g = |a, b| h((a, b))` (`zip(x, acc)`: `h((b, a))`): a reduction of
/// rows with an array accumulator combined element by element is a reduction per column
/// (the thesis' `interchangeReduce`, DMLL's row-to-column reduce), each accumulator a scalar.
/// With `z = generate(n, |i| c)` (`c` free of `i`), `map(reduce(g, c)) o transpose $ xs`.
pub fn reduce_interchange() -> Rule {
    Rule::new(
        "reduce_interchange",
        "reduce(|acc, x| map(h) $ zip(acc, x), z) $ xs ⇒ map(|p| reduce(|a, b| h((a, b)), p.0) $ p.1) $ zip(z, transpose $ xs)",
        |e, ctx| {
            let ExprKind::Apply(f, xs) = &e.kind else {
                return None;
            };
            let [x] = xs.as_slice() else { return None };
            let fs = build::chain(f);
            let (r, rest) = fs.split_first()?;
            let ExprKind::Prim(Prim::Reduce, args) = &r.kind else {
                return None;
            };
            let [PrimArg::Fun(op), PrimArg::Value(z)] = args.as_slice() else {
                return None;
            };
            let s = e.span;
            let g = elementwise(op, ctx.fresh("a", &[e]), ctx.fresh("b", &[e]), s)?;
            // `|a, b| a + b` as the operator `+` (what the reduction lowerings recognise).
            let g = match build::section_of(&g) {
                Some(sec) => Expr::new(ExprKind::Section(sec), s),
                None => g,
            };
            let data = match rest {
                [] => build::untyped(x),
                _ => Expr::new(
                    ExprKind::Apply(Box::new(compose(rest.to_vec(), f.span)), vec![x.clone()]),
                    s,
                ),
            };
            let t = build::apply1(prim(Prim::Transpose, Vec::new(), s), data, s);
            let reduce = |init: Expr| {
                prim(Prim::Reduce, vec![PrimArg::Fun(g.clone()), PrimArg::Value(init)], s)
            };
            if let Some(c) = constant_init(z) {
                let m = build::with_fun(Prim::Map, &reduce(c), s);
                return Some(build::apply1(m, t, s));
            }
            let p = ctx.fresh("p", &[e]);
            let proj = |i| Expr::new(ExprKind::Proj(Box::new(build::ident(&p, s)), i), s);
            let body = build::apply1(reduce(proj(0)), proj(1), s);
            let zipped = build::zip2(build::untyped(z), t, s);
            Some(build::map_over(Pat::Name(p, s), body, zipped, s))
        },
    )
}

/// The scalar operator `|a, b| h((a, b))` of a reduction operator `|acc, x| map(h) $ zip(acc,
/// x)` (or `zip(x, acc)`) whose `h` reads neither `acc` nor `x` otherwise.
fn elementwise(op: &Expr, a: String, b: String, s: proc_macro2::Span) -> Option<Expr> {
    let ExprKind::Lambda(ps, body) = &op.kind else {
        return None;
    };
    let [Pat::Name(acc, _), Pat::Name(x, _)] = ps.as_slice() else {
        return None;
    };
    let ExprKind::Apply(m, zs) = &body.kind else {
        return None;
    };
    let h = m.prim_fun(Prim::Map)?;
    let [z] = zs.as_slice() else { return None };
    let ExprKind::Apply(zip, pair) = &z.kind else {
        return None;
    };
    if !build::is_bare(zip, Prim::Zip) {
        return None;
    }
    let swapped = match pair.as_slice() {
        [u, v] if build::is_ident(u, acc) && build::is_ident(v, x) => false,
        [u, v] if build::is_ident(u, x) && build::is_ident(v, acc) => true,
        _ => return None,
    };
    let free = build::free_names(h);
    if free.iter().any(|n| n == acc || n == x) {
        return None;
    }
    let (ia, ib) = (build::ident(&a, s), build::ident(&b, s));
    let pair = match swapped {
        false => vec![ia, ib],
        true => vec![ib, ia],
    };
    let arg = Expr::new(ExprKind::Tuple(pair), s);
    let applied = build::call(h, vec![arg], s);
    Some(Expr::new(
        ExprKind::Lambda(vec![Pat::Name(a, s), Pat::Name(b, s)], Box::new(applied)),
        s,
    ))
}

/// `c` of an initial array `generate(n, |i| c)` (or `map(|i| c) $ iota(n)`) with `c` free of
/// `i`.
fn constant_init(z: &Expr) -> Option<Expr> {
    // A primitive without data is written `p $ ()`: `iota(n)`, `generate(n, f)`.
    let bare = |e: &'_ Expr| -> Option<Prim> {
        match &e.kind {
            ExprKind::Apply(p, xs) if xs.is_empty() => p.as_prim().map(|(p, _)| p),
            _ => e.as_prim().map(|(p, _)| p),
        }
    };
    let f = match (&z.kind, bare(z)) {
        (_, Some(Prim::Generate)) => {
            let g = match &z.kind {
                ExprKind::Apply(p, _) => p,
                _ => z,
            };
            g.prim_fun(Prim::Generate)?
        }
        (ExprKind::Apply(m, xs), _) => match xs.as_slice() {
            [i] if bare(i) == Some(Prim::Iota) => m.prim_fun(Prim::Map)?,
            _ => return None,
        },
        _ => return None,
    };
    let ExprKind::Lambda(ps, c) = &f.kind else {
        return None;
    };
    let [Pat::Name(i, _)] = ps.as_slice() else {
        return None;
    };
    (!build::free_names(c).contains(i)).then(|| build::untyped(c))
}
