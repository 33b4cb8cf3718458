//! Rules for `filter_seq`: a reduction of the elements that pass a predicate needs neither
//! the filtered array nor its run-time length.
//!
//! `filter_seq(p)` gives an array whose length is known at run time only (`[a; <= n]`).
//! Reduced, it is rewritten away: for an associative operator with a neutral initial value
//! (see [`super::reduction`]) the dropped elements become that value, and the reduction stays
//! parallel; any other fold skips them in its operator.

use super::build::{self, call, compose, ident, prim, with_fun};
use super::{reduction, Rule};
use crate::ir::{BinOp, Expr, ExprKind, Pat, PrimArg};
use crate::prim::Prim;
use proc_macro2::Span;

/// `reduce(op, z) o map(g) o filter_seq(p)` (the map optional) ⇒
/// `reduce(op, z) o map(|x| if p(x) { g(x) } else { z })` for an associative operator with
/// neutral `z`, and ⇒ `reduce_seq(|a, x| if p(x) { op(a, g(x)) } else { a }, z)` for any other
/// fold (`reduce_seq`, `reduce_seq_unroll` included).
pub fn reduce_filter() -> Rule {
    Rule::new(
        "reduce_filter",
        "reduce(op, z) o map(g) o filter_seq(p) ⇒ reduce(op, z) o map(|x| p(x) ? g(x) : z)   (neutral z; else a reduce_seq skipping x)",
        |e, ctx| {
            let ExprKind::Compose(fs) = &e.kind else {
                return None;
            };
            let fs = build::flatten(fs);
            (0..fs.len()).find_map(|i| {
                let (r, rest) = (&fs[i], &fs[i + 1..]);
                let (g, k) = match rest.first().and_then(mapped) {
                    Some(g) => (Some(g), 2),
                    None => (None, 1),
                };
                let pred = rest.get(k - 1)?.prim_fun(Prim::FilterSeq)?;
                let names = [ctx.fresh("x", &[e]), ctx.fresh("acc", &[e])];
                let rep = fold_kept(r, g, pred, &names, e.span)?;
                let mut out = fs[..i].to_vec();
                out.extend(rep);
                out.extend(rest[k..].iter().cloned());
                Some(compose(out.iter().map(build::untyped).collect(), e.span))
            })
        },
    )
}

/// `filter_seq(p) o filter_seq(q) ⇒ filter_seq(|x| q(x) && p(x))`: one pass keeps the
/// elements that pass both.
pub fn filter_fusion() -> Rule {
    Rule::chain(
        "filter_fusion",
        "filter_seq(p) o filter_seq(q) ⇒ filter_seq(|x| q(x) && p(x))",
        |f, g, ctx| {
            let (p, q) = (f.prim_fun(Prim::FilterSeq)?, g.prim_fun(Prim::FilterSeq)?);
            let s = f.span;
            let x = ctx.fresh("x", &[f, g]);
            let both = Expr::new(
                ExprKind::Binary(
                    BinOp::And,
                    Box::new(call(q, vec![ident(&x, s)], s)),
                    Box::new(call(p, vec![ident(&x, s)], s)),
                ),
                s,
            );
            let pred = Expr::new(ExprKind::Lambda(vec![Pat::Name(x, s)], Box::new(both)), s);
            Some(vec![with_fun(Prim::FilterSeq, &pred, s)])
        },
    )
}

/// `F $ (filter_seq(p) o G $ x) ⇒ (F o filter_seq(p) o G) $ x`: the consumer of a filter
/// joins its chain, where [`reduce_filter`] sees both.
pub fn apply_filter() -> Rule {
    Rule::new(
        "apply_filter",
        "F $ (filter_seq(p) o G $ x) ⇒ (F o filter_seq(p) o G) $ x",
        |e, _| {
            let (f, g, ys) = build::apply_of_apply(e)?;
            build::chain(g).first()?.prim_fun(Prim::FilterSeq)?;
            Some(build::apply_composed(f, g, ys, e))
        },
    )
}

/// The function of a `map` or `map_seq`.
fn mapped(f: &Expr) -> Option<&Expr> {
    f.prim_fun(Prim::Map).or_else(|| f.prim_fun(Prim::MapSeq))
}

/// The reduction `r` of the elements `g(x)` for which `p(x)` holds, as the functions that
/// replace `r o map(g) o filter_seq(p)`; `None` if `r` is no reduction.
/// `names` are two fresh names (the element and the accumulator).
fn fold_kept(
    r: &Expr,
    g: Option<&Expr>,
    p: &Expr,
    [x, acc]: &[String; 2],
    s: Span,
) -> Option<Vec<Expr>> {
    let (rp, rargs) = r.as_prim()?;
    if !matches!(rp, Prim::Reduce | Prim::ReduceSeq | Prim::ReduceSeqUnroll) {
        return None;
    }
    let op = rargs.iter().rev().find_map(PrimArg::as_fun)?;
    let z = rargs.iter().find_map(PrimArg::as_value)?;
    let xv = ident(x, s);
    let gx = match g {
        Some(g) => call(g, vec![xv.clone()], s),
        None => xv.clone(),
    };
    let kept = call(p, vec![xv], s);
    let lambda = |ps: Vec<&str>, body: Expr| {
        let ps = ps
            .into_iter()
            .map(|n| Pat::Name(n.to_string(), s))
            .collect();
        Expr::new(ExprKind::Lambda(ps, Box::new(body)), s)
    };
    let choose = |a: Expr, b: Expr| {
        Expr::new(
            ExprKind::If(Box::new(kept.clone()), Box::new(a), Box::new(b)),
            s,
        )
    };
    if rp == Prim::Reduce && reduction::monoid(r) {
        let elem = lambda(vec![x], choose(gx, build::pin_literal(z)));
        return Some(vec![build::untyped(r), with_fun(Prim::Map, &elem, s)]);
    }
    let step = call(op, vec![ident(acc, s), gx], s);
    let op = lambda(vec![acc, x], choose(step, ident(acc, s)));
    let p = if rp == Prim::ReduceSeqUnroll {
        rp
    } else {
        Prim::ReduceSeq
    };
    Some(vec![prim(
        p,
        vec![build::fun(&op), PrimArg::Value(build::untyped(z))],
        s,
    )])
}
