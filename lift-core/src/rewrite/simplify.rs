//! Simplification rules: adjacent layout primitives that cancel, and `id` removal.

use super::build::{self, is_bare};
use super::Rule;
use crate::ir::{Expr, Reorder};
use crate::prim::Prim;

/// `join o split(n) ⇒ ε`.
pub fn join_split() -> Rule {
    Rule::chain("join_split", "join o split(n) ⇒ ε", |j, sp, _| {
        (is_bare(j, Prim::Join) && sp.prim_nats(Prim::Split).is_some()).then(Vec::new)
    })
}

/// `split(n) o join ⇒ ε`, if the inner length of join's input is `n` (needs its type).
pub fn split_join_elim() -> Rule {
    Rule::chain(
        "split_join_elim",
        "split(n) o join ⇒ ε   if join's input is [[a; n]; m]",
        |sp, j, ctx| {
            let n = sp.prim_nats(Prim::Split)?.first()?.clone();
            if !is_bare(j, Prim::Join) {
                return None;
            }
            let (inner, _) = build::array(ctx.input.as_ref())?;
            let (_, m) = inner.as_array()?;
            ctx.facts.equal(m, &n).then(Vec::new)
        },
    )
}

/// `transpose o transpose ⇒ ε`.
pub fn transpose_transpose() -> Rule {
    Rule::chain(
        "transpose_transpose",
        "transpose o transpose ⇒ ε",
        |a, b, _| (is_bare(a, Prim::Transpose) && is_bare(b, Prim::Transpose)).then(Vec::new),
    )
}

/// `as_scalar o as_vector(w) ⇒ ε`.
pub fn as_scalar_as_vector() -> Rule {
    Rule::chain(
        "as_scalar_as_vector",
        "as_scalar o as_vector(w) ⇒ ε",
        |a, b, _| {
            (is_bare(a, Prim::AsScalar) && b.prim_nats(Prim::AsVector).is_some()).then(Vec::new)
        },
    )
}

/// The index function of a `gather` or `scatter`.
fn reorder(e: &Expr) -> Option<(Prim, &Reorder)> {
    let (p, _) = e.as_prim()?;
    Some((p, e.prim_reorder(p)?))
}

/// `scatter(r) o gather(r) ⇒ ε`, `gather(r) o scatter(r) ⇒ ε`, and for `reverse` (its own
/// inverse) `gather(reverse) o gather(reverse) ⇒ ε`, `scatter(reverse) o scatter(reverse) ⇒ ε`.
pub fn reorder_cancel() -> Rule {
    Rule::chain(
        "reorder_cancel",
        "scatter(r) o gather(r) ⇒ ε;  gather(r) o scatter(r) ⇒ ε;  g(reverse) o g(reverse) ⇒ ε",
        |a, b, _| {
            let ((p, r), (q, s)) = (reorder(a)?, reorder(b)?);
            let inverse = p != q || matches!(r, Reorder::Reverse);
            (inverse && r == s).then(Vec::new)
        },
    )
}

/// `f o id ⇒ f`, `id o f ⇒ f` inside a chain. `id` materialises a copy; dropping it keeps the
/// meaning but not that memory placement.
pub fn id_removal() -> Rule {
    Rule::chain("id_removal", "f o id ⇒ f;  id o f ⇒ f", |a, b, _| {
        if is_bare(b, Prim::Id) {
            Some(vec![a.clone()])
        } else if is_bare(a, Prim::Id) {
            Some(vec![b.clone()])
        } else {
            None
        }
    })
}

/// Every simplification rule, for `normalize(any_of(...))`.
pub fn simplification_rules() -> Vec<Rule> {
    vec![
        join_split(),
        split_join_elim(),
        transpose_transpose(),
        as_scalar_as_vector(),
        reorder_cancel(),
        id_removal(),
    ]
}
