//! Vectorisation: a scalar map over floats as a map over OpenCL vectors.

use super::build::{self, compose, prim};
use super::Rule;
use crate::arith::Nat;
use crate::ir::PrimArg;
use crate::prim::Prim;
use crate::types::{Type, VECTOR_WIDTHS};

/// `map(f) ⇒ as_scalar o map(vectorize(w, f)) o as_vector(w)`, for `f` from a float scalar to
/// a scalar (types known), `w` one of 2, 3, 4, 8, 16, and `w | length` when it is known.
pub fn vectorize_map(w: u32) -> Rule {
    Rule::new(
        "vectorize_map",
        "map(f) ⇒ as_scalar o map(vectorize(w, f)) o as_vector(w)   if f: float -> scalar, w ∈ {2,3,4,8,16}, w | length",
        move |e, ctx| {
            let f = e.prim_fun(Prim::Map)?;
            if !VECTOR_WIDTHS.contains(&w) {
                return None;
            }
            let (elem, len) = build::array(ctx.input.as_ref())?;
            let wn = Nat::cst(i64::from(w));
            let float_in = elem.as_scalar().is_some_and(|s| s.is_float());
            let scalar_out = matches!(&f.ty, Some(Type::Scalar(s)) if *s != crate::types::ScalarType::Bool);
            if !float_in || !scalar_out || ctx.facts.divisible(len, &wn) == Some(false) {
                return None;
            }
            let s = e.span;
            let vf = prim(
                Prim::Vectorize,
                vec![build::nat(&wn, s), PrimArg::Fun(f.clone())],
                s,
            );
            Some(compose(
                vec![
                    prim(Prim::AsScalar, Vec::new(), s),
                    build::with_fun(Prim::Map, &vf, s),
                    prim(Prim::AsVector, vec![build::nat(&wn, s)], s),
                ],
                s,
            ))
        },
    )
}
