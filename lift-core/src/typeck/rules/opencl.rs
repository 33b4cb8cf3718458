//! The typing rules of the OpenCL-specific primitives: address spaces and vectors.

use super::algorithmic::lanes_of;
use super::{array, err, fun, nats};
use crate::arith::Nat;
use crate::error::{CResult, ErrorKind};
use crate::ir::PrimArg;
use crate::prim::Prim;
use crate::typeck::{Checker, Cond};
use crate::types::{ScalarType, Type, VECTOR_WIDTHS};
use proc_macro2::Span;

/// `to_global(f)`, `to_local(f)`, `to_private(f)`: the type of `f`.
pub fn address_space(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    c.apply(fun(args, p, span)?, inputs, span)
}

/// The vector width argument `w`, checked.
fn width(p: Prim, args: &[PrimArg]) -> CResult<(u32, Span)> {
    let (w, span) = nats(args).swap_remove(0);
    match w.as_cst().and_then(|c| u32::try_from(c).ok()) {
        Some(c) if VECTOR_WIDTHS.contains(&c) => Ok((c, span)),
        Some(0) => Err(err(
            ErrorKind::ZeroSize,
            span,
            format!("{}: vector width must be positive: 0", p.name()),
        )),
        _ => Err(err(
            ErrorKind::TypeMismatch,
            span,
            format!(
                "{}: vector width must be one of 2, 3, 4, 8, 16: {w}",
                p.name()
            ),
        )),
    }
}

/// `as_vector(w)`.
pub fn as_vector(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, n) = array(p, &inputs[0], span)?;
    let (w, wspan) = width(p, args)?;
    let s = match a {
        Type::Scalar(s) if s != ScalarType::Bool => s,
        t => {
            return Err(err(
                ErrorKind::TypeMismatch,
                span,
                format!("as_vector: expects an array of numbers, found [{t}; {n}]"),
            ))
        }
    };
    let wn = Nat::cst(i64::from(w));
    c.require(
        Cond::Divisible(n.clone(), wn.clone()),
        (
            "as_vector",
            "input length not divisible by the vector width",
        ),
        wspan,
        ErrorKind::Divisibility,
    )?;
    Ok(Type::array(Type::Vector(s, w), n / wn))
}

/// `as_scalar`.
pub fn as_scalar(
    _: &mut Checker<'_>,
    p: Prim,
    _: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    match array(p, &inputs[0], span)? {
        (Type::Vector(s, w), n) => Ok(Type::array(Type::Scalar(s), n * i64::from(w))),
        (t, n) => Err(err(
            ErrorKind::TypeMismatch,
            span,
            format!("as_scalar: expects an array of vectors, found [{t}; {n}]"),
        )),
    }
}

/// `vectorize(w, f)`: `f: (a, ..) -> b` lifted to `(aw, ..) -> bw`, a function of as many
/// inputs as `f` (a reduction operator `(acc, x)`, or applied to three vectors).
pub fn vectorize(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (w, _) = width(p, args)?;
    let mut lanes = Vec::new();
    for t in inputs {
        match lanes_of(t, w) {
            Some(l) => lanes.push(l),
            None => {
                return Err(err(
                    ErrorKind::TypeMismatch,
                    span,
                    format!(
                        "vectorize: expects vectors of width {w} (or tuples of them), found {t}"
                    ),
                ))
            }
        }
    }
    // A function of k arguments over a tuple of k vectors (`zip` of vector arrays) gets
    // the tuple's lanes as its arguments (`Checker::apply` spreads them).
    match c.apply(fun(args, p, span)?, &lanes, span)? {
        Type::Scalar(s) => Ok(Type::Vector(s, w)),
        t => Err(err(
            ErrorKind::TypeMismatch,
            span,
            format!("vectorize: the function must give a scalar, found {t}"),
        )),
    }
}
