//! Reduction rules: partial reduction and reordering, valid for associative (and
//! commutative) operators with a neutral initial value.
//!
//! An operator qualifies when it is an operator section `+ * min max` or a lambda computing
//! exactly one (`|a, b| a + b`); its initial value must be `0` for `+`, `1` for `*`, and may be
//! any value for `min`/`max` (they are idempotent). Other lambdas never qualify.

use super::build::{self, compose, prim, with_fun};
use super::Rule;
use crate::arith::Nat;
use crate::ir::{Expr, PrimArg, Reorder, Section};
use crate::prim::Prim;

/// Is `reduce(f, z)` an associative, commutative reduction with a neutral `z`?
pub(crate) fn monoid(e: &Expr) -> bool {
    let (Some(f), Some(z)) = (e.prim_fun(Prim::Reduce), e.prim_value(Prim::Reduce)) else {
        return false;
    };
    match build::section_of(f) {
        Some(Section::Add) => build::is_lit(z, 0.0),
        Some(Section::Mul) => build::is_lit(z, 1.0),
        Some(Section::Min | Section::Max) => true,
        None => false,
    }
}

/// `reduce(f, z) ⇒ reduce(f, z) o map(reduce(f, z)) o split(n)` (partial reduction), for an
/// associative operator with neutral `z` (see the module doc), if `n` divides the length when
/// it is known.
pub fn partial_reduce(n: Nat) -> Rule {
    Rule::new(
        "partial_reduce",
        "reduce(f, z) ⇒ reduce(f, z) o map(reduce(f, z)) o split(n)   if f ∈ {+ (z = 0), * (z = 1), min, max} and n | length",
        move |e, ctx| {
            if !monoid(e) || n.max_value().is_some_and(|m| m < 1) {
                return None;
            }
            if let Some((_, len)) = build::array(ctx.input.as_ref()) {
                if ctx.facts.divisible(len, &n) == Some(false) {
                    return None;
                }
            }
            let s = e.span;
            let r = build::untyped(e);
            Some(compose(
                vec![
                    r.clone(),
                    with_fun(Prim::Map, &r, s),
                    prim(Prim::Split, vec![build::nat(&n, s)], s),
                ],
                s,
            ))
        },
    )
}

/// `reduce(f, z) ⇒ reduce(f, z) o gather(r)`, for a commutative and associative operator with
/// neutral `z` (see the module doc); `stride(s)` needs `s | length` (checked when known).
pub fn reduce_reorder(r: Reorder) -> Rule {
    Rule::new(
        "reduce_reorder",
        "reduce(f, z) ⇒ reduce(f, z) o gather(r)   if f ∈ {+ (z = 0), * (z = 1), min, max}",
        move |e, ctx| {
            if !monoid(e) {
                return None;
            }
            if let (Reorder::Stride(st, _), Some((_, len))) = (&r, build::array(ctx.input.as_ref()))
            {
                if ctx.facts.divisible(len, st) == Some(false) {
                    return None;
                }
            }
            let s = e.span;
            let g = prim(Prim::Gather, vec![PrimArg::Reorder(r.clone(), s)], s);
            Some(compose(vec![build::untyped(e), g], s))
        },
    )
}
