//! Reorder rules: permuting a map's input and output, and commuting maps with permutations.
//!
//! With `gather(r)`: `out[i] = x[r(i)]` and `scatter(r)`: `out[r(i)] = x[i]`, for a bijection
//! `r` (`reverse`, or `stride(s)` with `s | n`) `scatter(r) o gather(r)` and
//! `gather(r) o scatter(r)` are the identity, and a map commutes with either.

use super::build::{self, compose, prim};
use super::Rule;
use crate::ir::{PrimArg, Reorder};
use crate::prim::Prim;

/// `map(f) ⇒ scatter(r) o map(f) o gather(r)`; `stride(s)` needs `s | length` (checked when
/// known, else a launch-time precondition).
pub fn reorder_map(r: Reorder) -> Rule {
    Rule::new(
        "reorder_map",
        "map(f) ⇒ scatter(r) o map(f) o gather(r)   (stride(s): s | length)",
        move |e, ctx| {
            e.prim_fun(Prim::Map)?;
            if let (Reorder::Stride(st, _), Some((_, len))) = (&r, build::array(ctx.input.as_ref()))
            {
                if ctx.facts.divisible(len, st) == Some(false) {
                    return None;
                }
            }
            let s = e.span;
            let re = |p| prim(p, vec![PrimArg::Reorder(r.clone(), s)], s);
            Some(compose(
                vec![re(Prim::Scatter), build::untyped(e), re(Prim::Gather)],
                s,
            ))
        },
    )
}

/// `map(f) o gather(r) ⇒ gather(r) o map(f)` and `map(f) o scatter(r) ⇒ scatter(r) o map(f)`.
pub fn map_reorder_commute() -> Rule {
    Rule::chain(
        "map_reorder_commute",
        "map(f) o gather(r) ⇒ gather(r) o map(f);  map(f) o scatter(r) ⇒ scatter(r) o map(f)",
        |m, g, _| {
            m.prim_fun(Prim::Map)?;
            let (p, _) = g.as_prim()?;
            if !matches!(p, Prim::Gather | Prim::Scatter) {
                return None;
            }
            Some(vec![g.clone(), m.clone()])
        },
    )
}
