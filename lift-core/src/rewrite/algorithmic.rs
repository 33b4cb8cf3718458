//! Algorithmic rules: split-join, map fusion and fission, reduce-map fusion, map-join
//! reorder, and the structural rules around composition and `id`.

use super::build::{self, compose, pin_literal, prim, with_fun};
use super::{RewriteCtx, Rule};
use crate::arith::Nat;
use crate::ir::{BinOp, Expr, ExprKind, Pat, PrimArg, Section};
use crate::prim::Prim;

/// Are `f` and `g` the same kind of map (same primitive, same dimension)?
fn same_map(f: &Expr, g: &Expr) -> Option<(Prim, Vec<PrimArg>)> {
    let (p, fa) = f.as_prim()?;
    let (q, ga) = g.as_prim()?;
    (p.is_map() && p == q && PrimArg::nats(fa) == PrimArg::nats(ga)).then(|| (p, fa.to_vec()))
}

/// `map(f) ⇒ join o map(map(f)) o split(n)`, if `n` divides the input length when it is known
/// (otherwise the checker makes it a launch-time precondition).
pub fn split_join(n: Nat) -> Rule {
    Rule::new(
        "split_join",
        "map(f) ⇒ join o map(map(f)) o split(n)   if n | length (else a launch-time precondition)",
        move |e, ctx| {
            let f = e.prim_fun(Prim::Map)?;
            if n.max_value().is_some_and(|m| m < 1) {
                return None;
            }
            if let Some((_, len)) = build::array(ctx.input.as_ref()) {
                if ctx.facts.divisible(len, &n) == Some(false) {
                    return None;
                }
            }
            let s = e.span;
            Some(compose(
                vec![
                    prim(Prim::Join, Vec::new(), s),
                    with_fun(Prim::Map, &with_fun(Prim::Map, f, s), s),
                    prim(Prim::Split, vec![build::nat(&n, s)], s),
                ],
                s,
            ))
        },
    )
}

/// `map(f) o map(g) ⇒ map(f o g)` (any map kind, both the same with the same dimension).
pub fn map_fusion() -> Rule {
    Rule::chain(
        "map_fusion",
        "m(f) o m(g) ⇒ m(f o g)   for one map kind m (same dimension)",
        |f, g, _| {
            let (p, args) = same_map(f, g)?;
            let (ff, gf) = (f.prim_fun(p)?, g.prim_fun(p)?);
            let fused = compose(vec![ff.clone(), gf.clone()], f.span);
            Some(vec![build::replace_fun(p, &args, fused, f.span)])
        },
    )
}

/// `map(f o g) ⇒ map(f) o map(g)` (any map kind; splits off the outermost function).
pub fn map_fission() -> Rule {
    Rule::new(
        "map_fission",
        "m(f o g) ⇒ m(f) o m(g)   for any map kind m",
        |e, _| {
            let (p, args) = e.as_prim()?;
            if !p.is_map() {
                return None;
            }
            let ExprKind::Compose(fs) = &e.prim_fun(p)?.kind else {
                return None;
            };
            let fs = build::flatten(fs);
            let (first, rest) = fs.split_first()?;
            let rest = compose(rest.to_vec(), e.span);
            Some(compose(
                vec![
                    build::replace_fun(p, args, first.clone(), e.span),
                    build::replace_fun(p, args, rest, e.span),
                ],
                e.span,
            ))
        },
    )
}

/// `f(acc, y)` for a binary function `f` (operator sections become operators).
fn call2(f: &Expr, acc: Expr, y: Expr) -> Expr {
    let s = f.span;
    let op = |o: BinOp| {
        Expr::new(
            ExprKind::Binary(o, Box::new(acc.clone()), Box::new(y.clone())),
            s,
        )
    };
    let named = |n: &str| {
        let callee = Expr::new(ExprKind::Ident(n.to_string()), s);
        Expr::new(
            ExprKind::Apply(Box::new(callee), vec![acc.clone(), y.clone()]),
            s,
        )
    };
    match &f.kind {
        ExprKind::Section(Section::Add) => op(BinOp::Add),
        ExprKind::Section(Section::Mul) => op(BinOp::Mul),
        ExprKind::Section(Section::Min) => named("min"),
        ExprKind::Section(Section::Max) => named("max"),
        _ => Expr::new(ExprKind::Apply(Box::new(f.clone()), vec![acc, y]), s),
    }
}

/// `reduce_seq(f, z) o map(g) ⇒ reduce_seq(|acc, x| f(acc, g(x)), z)` (also from `reduce`,
/// whose meaning is the same left fold; `map` or `map_seq`).
pub fn map_reduce_fusion() -> Rule {
    Rule::chain(
        "map_reduce_fusion",
        "reduce_seq(f, z) o map(g) ⇒ reduce_seq(|acc, x| f(acc, g(x)), z)   (also reduce; map or map_seq)",
        |r, m, ctx: &RewriteCtx| {
            let (rp, _) = r.as_prim()?;
            if !matches!(rp, Prim::Reduce | Prim::ReduceSeq) {
                return None;
            }
            let (mp, _) = m.as_prim()?;
            if !matches!(mp, Prim::Map | Prim::MapSeq) {
                return None;
            }
            let (f, z, g) = (r.prim_fun(rp)?, r.prim_value(rp)?, m.prim_fun(mp)?);
            let s = r.span;
            let acc = ctx.fresh("acc", &[f, g, z]);
            let x = ctx.fresh("x", &[f, g, z]);
            let var = |n: &str| Expr::new(ExprKind::Ident(n.to_string()), s);
            let gx = Expr::new(ExprKind::Apply(Box::new(g.clone()), vec![var(&x)]), s);
            let body = call2(f, var(&acc), gx);
            let lam = Expr::new(
                ExprKind::Lambda(vec![Pat::Name(acc, s), Pat::Name(x, s)], Box::new(body)),
                s,
            );
            let args = vec![PrimArg::Fun(lam), PrimArg::Value(pin_literal(z))];
            Some(vec![prim(Prim::ReduceSeq, args, s)])
        },
    )
}

/// `map(f) o join ⇒ join o map(map(f))` (RR4 of the stencil thesis).
pub fn map_join_reorder() -> Rule {
    Rule::chain(
        "map_join_reorder",
        "map(f) o join ⇒ join o map(map(f))",
        |m, j, _| {
            let f = m.prim_fun(Prim::Map)?;
            if !build::is_bare(j, Prim::Join) {
                return None;
            }
            let s = m.span;
            Some(vec![
                prim(Prim::Join, Vec::new(), s),
                with_fun(Prim::Map, &with_fun(Prim::Map, f, s), s),
            ])
        },
    )
}

/// `f $ (g $ x) ⇒ (f o g) $ x`, so that chain rules see the pair.
pub fn apply_to_compose() -> Rule {
    Rule::new("apply_to_compose", "f $ (g $ x) ⇒ (f o g) $ x", |e, _| {
        let (f, g, ys) = build::apply_of_apply(e)?;
        if ys.len() != 1
            || matches!(g.kind, ExprKind::Ident(_))
            || matches!(f.kind, ExprKind::Ident(_))
        {
            return None;
        }
        Some(build::apply_composed(f, g, ys, e))
    })
}

/// `f ⇒ map(id) o f` for a function whose result is an array (RR6: a copy to place in memory).
pub fn map_id_intro() -> Rule {
    Rule::new(
        "map_id_intro",
        "f ⇒ map(id) o f   if f gives an array",
        |e, _| {
            if !matches!(
                e.kind,
                ExprKind::Prim(..) | ExprKind::Compose(_) | ExprKind::Lambda(..)
            ) {
                return None;
            }
            e.ty.as_ref()?.as_array()?;
            let s = e.span;
            let id = prim(Prim::Id, Vec::new(), s);
            Some(compose(
                vec![with_fun(Prim::Map, &id, s), build::untyped(e)],
                s,
            ))
        },
    )
}
