//! The typing rule of every primitive, referenced from the table in [`crate::prim`]: the
//! shared helpers here, the rules per primitive family in the submodules.

use crate::arith::Nat;
use crate::error::{CResult, CompileError, ErrorKind};
use crate::ir::{Boundary, Expr, PrimArg};
use crate::prim::Prim;
use crate::typeck::{Checker, Cond};
use crate::types::Type;
use proc_macro2::Span;

mod algorithmic;
mod iterate;
mod layout;
mod opencl;

pub use algorithmic::{
    filter, filter_seq, generate, iota, map, map_nd, map_seq_slide, reduce, reduce_seq,
    reduce_while_seq, scan_seq,
};
pub use iterate::{iterate, MAX_ITERATED_DIMS, MAX_TYPED_ITERATIONS};
pub use layout::{
    at, cover_blocks, get, id, join_cover, pad, regroup, reorder, slide, unzip, view, zip, zip_nd,
};
pub use opencl::{address_space, as_scalar, as_vector, vectorize};

/// A typing rule: the checker, the primitive, its static arguments, the types of its data
/// inputs and its span; gives the result type.
pub type Rule = fn(&mut Checker<'_>, Prim, &mut [PrimArg], &[Type], Span) -> CResult<Type>;

fn err(kind: ErrorKind, span: Span, msg: String) -> CompileError {
    CompileError::new(kind, span, msg)
}

/// The array `t`, or a `NotAnArray` error naming the primitive.
fn array(p: Prim, t: &Type, span: Span) -> CResult<(Type, Nat)> {
    match t {
        Type::Array(e, n) => Ok(((**e).clone(), n.clone())),
        Type::Capped(..) => Err(err(
            ErrorKind::NotAnArray,
            span,
            format!(
                "{}: expects an array of known length, found {t}: the length of `filter_seq`'s \
                 result is known at run time only (map it, reduce it or return it)",
                p.name()
            ),
        )),
        t => Err(err(
            ErrorKind::NotAnArray,
            span,
            format!("{}: expects an array, found {t}", p.name()),
        )),
    }
}

/// The array or capped array `t` (its element type and length or capacity) and whether it
/// is capped; a `NotAnArray` error naming the primitive otherwise.
fn array_or_capped(p: Prim, t: &Type, span: Span) -> CResult<(Type, Nat, bool)> {
    match t {
        Type::Capped(e, n) => Ok(((**e).clone(), n.clone(), true)),
        t => array(p, t, span).map(|(e, n)| (e, n, false)),
    }
}

/// The element type under `depth` levels of arrays of `t`, and their lengths (outermost first).
fn peel(p: Prim, t: &Type, depth: usize, span: Span) -> CResult<(Type, Vec<Nat>)> {
    let mut t = t.clone();
    let mut dims = Vec::new();
    for _ in 0..depth {
        let (e, n) = array(p, &t, span)?;
        dims.push(n);
        t = e;
    }
    Ok((t, dims))
}

/// `t` nested in arrays of lengths `dims` (outermost first).
fn nest(t: Type, dims: Vec<Nat>) -> Type {
    dims.into_iter().rev().fold(t, Type::array)
}

/// The function argument.
fn fun(args: &mut [PrimArg], p: Prim, span: Span) -> CResult<&mut Expr> {
    args.iter_mut()
        .rev()
        .find_map(PrimArg::as_fun_mut)
        .ok_or_else(|| {
            err(
                ErrorKind::WrongArity,
                span,
                format!("{}: missing function argument", p.name()),
            )
        })
}

/// The size arguments, in order.
fn nats(args: &[PrimArg]) -> Vec<(Nat, Span)> {
    args.iter()
        .filter_map(|a| match a {
            PrimArg::Nat(n, s) => Some((n.clone(), *s)),
            _ => None,
        })
        .collect()
}

/// The single scalar value argument.
fn value(args: &mut [PrimArg]) -> Option<&mut Expr> {
    args.iter_mut().find_map(|a| match a {
        PrimArg::Value(e) => Some(e),
        _ => None,
    })
}

impl Checker<'_> {
    /// Rejects a size that is provably zero or negative.
    fn positive(&mut self, p: Prim, what: &str, n: &Nat, span: Span) -> CResult<()> {
        if n.max_value().is_some_and(|m| m <= 0) {
            return Err(err(
                ErrorKind::ZeroSize,
                span,
                format!("{}: {what} must be positive: {n}", p.name()),
            ));
        }
        if n.min_value().is_some_and(|m| m >= 1) {
            return Ok(());
        }
        self.require(
            Cond::Le(Nat::cst(1), n.clone()),
            (p.name(), what),
            span,
            ErrorKind::ZeroSize,
        )
    }

    /// Rejects a negative padding.
    fn non_negative(&mut self, p: Prim, n: &Nat, span: Span) -> CResult<()> {
        if n.min_value().is_some_and(|m| m >= 0) {
            return Ok(());
        }
        if n.max_value().is_some_and(|m| m < 0) {
            return Err(err(
                ErrorKind::OutOfBounds,
                span,
                format!("{}: padding must not be negative: {n}", p.name()),
            ));
        }
        self.require(
            Cond::Le(Nat::cst(0), n.clone()),
            (p.name(), "padding must not be negative"),
            span,
            ErrorKind::OutOfBounds,
        )
    }

    /// Rejects `got` unless it is equivalent to `want`, with the message `msg`.
    fn expect(
        &self,
        got: &Type,
        want: &Type,
        span: Span,
        msg: impl FnOnce() -> String,
    ) -> CResult<()> {
        if got.equiv(want, &self.facts) {
            Ok(())
        } else {
            Err(err(ErrorKind::TypeMismatch, span, msg()))
        }
    }

    /// Arrays `ts` of provably equal lengths: their element types and the length.
    fn same_lengths(&self, p: Prim, ts: &[Type], span: Span) -> CResult<(Vec<Type>, Nat)> {
        let arrays = ts
            .iter()
            .map(|t| array(p, t, span))
            .collect::<CResult<Vec<_>>>()?;
        let n = arrays[0].1.clone();
        for (_, m) in &arrays[1..] {
            self.same_length(p, &n, m, span)?;
        }
        Ok((arrays.into_iter().map(|(e, _)| e).collect(), n))
    }

    /// Checks that two lengths are provably equal.
    fn same_length(&self, p: Prim, a: &Nat, b: &Nat, span: Span) -> CResult<()> {
        if self.facts.equal(a, b) {
            Ok(())
        } else {
            Err(err(
                ErrorKind::LengthMismatch,
                span,
                format!("{}: lengths differ: {a} vs {b}", p.name()),
            ))
        }
    }

    /// `slide(size, step)` on a length: checks and gives the number of windows.
    fn windows(
        &mut self,
        p: Prim,
        n: &Nat,
        size: &(Nat, Span),
        step: &(Nat, Span),
    ) -> CResult<Nat> {
        self.positive(p, "window size", &size.0, size.1)?;
        self.positive(p, "step", &step.0, step.1)?;
        self.require(
            Cond::Le(size.0.clone(), n.clone()),
            (p.name(), "window larger than the input"),
            size.1,
            ErrorKind::OutOfBounds,
        )?;
        let rest = n - &size.0;
        self.require(
            Cond::Divisible(rest.clone(), step.0.clone()),
            (p.name(), "(n - size) must be divisible by the step"),
            step.1,
            ErrorKind::Divisibility,
        )?;
        Ok(rest / &step.0 + 1)
    }

    /// `pad(l, r, b)` on one dimension: checks and gives the padded length.
    fn padded(&mut self, p: Prim, n: &Nat, l: &(Nat, Span), r: &(Nat, Span)) -> CResult<Nat> {
        self.non_negative(p, &l.0, l.1)?;
        self.non_negative(p, &r.0, r.1)?;
        Ok(&l.0 + n + &r.0)
    }

    /// Checks a `constant(v)` boundary value against the element type.
    fn boundary(&mut self, p: Prim, args: &mut [PrimArg], elem: &Type) -> CResult<Boundary> {
        let Some((b, span)) = args.iter_mut().find_map(|a| match a {
            PrimArg::Boundary(b, s) => Some((b, *s)),
            _ => None,
        }) else {
            return Err(err(
                ErrorKind::WrongArity,
                Span::call_site(),
                format!("{}: missing boundary", p.name()),
            ));
        };
        if let Boundary::Constant(v) = b {
            let t = self.data(v, Some(elem))?;
            self.expect(&t, elem, span, || {
                format!(
                    "{}: constant boundary has type {t}, expected {elem}",
                    p.name()
                )
            })?;
        }
        Ok(b.clone())
    }
}
