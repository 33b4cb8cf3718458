//! Interchange rules: swapping the two outer dimensions of a nested map through transposes.

use super::build::{self, compose, prim};
use super::Rule;
use crate::ir::ExprKind;
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
