//! The typing rule of `iterate`.

use super::{err, fun, nats};
use crate::error::{CResult, ErrorKind};
use crate::ir::PrimArg;
use crate::prim::Prim;
use crate::typeck::Checker;
use crate::types::Type;
use proc_macro2::Span;

/// The most steps `iterate` may take with a function that changes its input's type.
pub const MAX_TYPED_ITERATIONS: i64 = 64;

/// The most array dimensions a type may reach inside `iterate`.
pub const MAX_ITERATED_DIMS: usize = 16;

/// `iterate(k, f)`: `f` applied `k` times; its input may shrink on each application.
pub fn iterate(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (k, kspan) = nats(args).swap_remove(0);
    let f = fun(args, p, span)?;
    let mut t = inputs[0].clone();
    match k.as_cst() {
        Some(k) if k >= 0 => {
            for i in 0..k {
                let next = c.apply(f, &[t.clone()], span)?;
                if next.equiv(&t, &c.facts) {
                    break;
                }
                // A function that changes the type is typed once per step: a count beyond
                // any real use, or a type that gains a dimension per step, would take the
                // checker forever (found by fuzzing).
                if i >= MAX_TYPED_ITERATIONS || next.dims().len() > MAX_ITERATED_DIMS {
                    return Err(err(
                        ErrorKind::TypeMismatch,
                        kspan,
                        format!(
                            "iterate: count {k} too large for a function that changes the type \
                             (at most {MAX_TYPED_ITERATIONS} steps and {MAX_ITERATED_DIMS} \
                             dimensions): {t} vs {next}"
                        ),
                    ));
                }
                t = next;
            }
            Ok(t)
        }
        Some(k) => Err(err(
            ErrorKind::ZeroSize,
            kspan,
            format!("iterate: count must not be negative: {k}"),
        )),
        None => {
            let next = c.apply(f, &[t.clone()], span)?;
            if next.equiv(&t, &c.facts) {
                Ok(t)
            } else {
                Err(err(
                    ErrorKind::TypeMismatch,
                    kspan,
                    format!("iterate: a symbolic count needs a function that keeps the type: {t} vs {next}"),
                ))
            }
        }
    }
}
