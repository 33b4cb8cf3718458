//! Iterate rules: splitting, fusing and unfolding `iterate(k, f)`.

use super::build::{self, compose, prim};
use super::Rule;
use crate::arith::Nat;
use crate::ir::PrimArg;
use crate::prim::Prim;

/// `iterate(k, f)` from a count and a function.
fn iterate(k: &Nat, f: &crate::ir::Expr, span: proc_macro2::Span) -> crate::ir::Expr {
    prim(
        Prim::Iterate,
        vec![build::nat(k, span), PrimArg::Fun(f.clone())],
        span,
    )
}

/// `iterate(m + k, f) ⇒ iterate(m, f) o iterate(k, f)`, for `1 <= k < m + k` (provable).
pub fn iterate_split(k: Nat) -> Rule {
    Rule::new(
        "iterate_split",
        "iterate(m + k, f) ⇒ iterate(m, f) o iterate(k, f)   if 1 <= k < m + k",
        move |e, ctx| {
            let f = e.prim_fun(Prim::Iterate)?;
            let total = e.prim_nats(Prim::Iterate)?.first()?.clone();
            let ok = ctx.facts.le(&Nat::cst(1), &k) == Some(true)
                && ctx.facts.le(&(&k + 1), &total) == Some(true);
            ok.then(|| {
                let m = &total - &k;
                compose(vec![iterate(&m, f, e.span), iterate(&k, f, e.span)], e.span)
            })
        },
    )
}

/// `iterate(m, f) o iterate(k, f) ⇒ iterate(m + k, f)` (the same `f`).
pub fn iterate_fusion() -> Rule {
    Rule::chain(
        "iterate_fusion",
        "iterate(m, f) o iterate(k, f) ⇒ iterate(m + k, f)",
        |a, b, _| {
            let (fa, fb) = (a.prim_fun(Prim::Iterate)?, b.prim_fun(Prim::Iterate)?);
            if fa != fb {
                return None;
            }
            let m = a.prim_nats(Prim::Iterate)?.first()?.clone();
            let k = b.prim_nats(Prim::Iterate)?.first()?.clone();
            Some(vec![iterate(&(m + k), fa, a.span)])
        },
    )
}

/// `iterate(1, f) ⇒ f` and `iterate(0, f) ⇒ id`.
pub fn iterate_unfold() -> Rule {
    Rule::new(
        "iterate_unfold",
        "iterate(1, f) ⇒ f;  iterate(0, f) ⇒ id",
        |e, _| {
            let f = e.prim_fun(Prim::Iterate)?;
            match e.prim_nats(Prim::Iterate)?.first()?.as_cst()? {
                1 => Some(build::untyped(f)),
                0 => Some(prim(Prim::Id, Vec::new(), e.span)),
                _ => None,
            }
        },
    )
}
