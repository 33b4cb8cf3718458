//! The extents of a kernel's index arithmetic. Generated kernels index with `lift_idx`
//! arithmetic; the launcher evaluates these extents at launch and chooses 64-bit indices when
//! one could exceed what 32-bit arithmetic holds with room to spare (SPEC section 5, "Index
//! width").
//!
//! Only memory is indexed flat: a parameter's or the result's buffer by the number of scalars
//! it holds (as is a temporary, whose extent code generation gives with it). The arrays in
//! between are views (`slide2`'s windows, `split`, `join`, ...): an access to one is an index
//! per dimension, turned into an index of the memory under it, so each of its dimensions is an
//! extent but their product is not (the 3 x 3 windows of an `N x M` matrix are never `9 N M`
//! scalars of anything).

use crate::arith::Nat;
use crate::ir::{Expr, Kernel};
use crate::types::Type;

/// The distinct extents of kernel `k` (checked), in order of appearance: the scalar counts of
/// the parameters and the result, then every dimension of the body's sub-expressions.
/// Constant extents within [`INDEX32_LIMIT`](super::INDEX32_LIMIT) are left out: they never
/// call for 64-bit indices, and the launcher evaluates the rest on every launch.
pub fn extents(k: &Kernel, result: &Type) -> Vec<Nat> {
    let mut out = Vec::new();
    for p in &k.params {
        push_type(&p.ty, &mut out);
    }
    push_type(result, &mut out);
    push_expr(&k.body, &mut out);
    out
}

fn push_expr(e: &Expr, out: &mut Vec<Nat>) {
    if let Some(t) = &e.ty {
        push_dims(t, out);
    }
    for c in crate::ir::children(e) {
        push_expr(c, out);
    }
}

/// Pushes each dimension of the arrays of `t` (a view's indices), scaled by the lanes of a
/// vector element (`as_scalar` indexes lanes).
fn push_dims(t: &Type, out: &mut Vec<Nat>) {
    match t {
        Type::Tuple(ts) => ts.iter().for_each(|t| push_dims(t, out)),
        Type::Array(e, n) | Type::Capped(e, n) => {
            let lanes = match **e {
                Type::Vector(_, w) => i64::from(w),
                _ => 1,
            };
            push(n * &Nat::cst(lanes), out);
            push_dims(e, out);
        }
        _ => {}
    }
}

/// Pushes `n` unless it is a small constant or already in `out`.
fn push(n: Nat, out: &mut Vec<Nat>) {
    let small = n.as_cst().is_some_and(|c| c <= super::INDEX32_LIMIT);
    if !small && !out.contains(&n) {
        out.push(n);
    }
}

/// Pushes the scalar count of a buffer of type `t` (each tuple component on its own).
fn push_type(t: &Type, out: &mut Vec<Nat>) {
    match t {
        Type::Tuple(ts) => ts.iter().for_each(|t| push_type(t, out)),
        Type::Array(..) | Type::Capped(..) => {
            let mut n = t.dims().iter().fold(Nat::cst(1), |acc, d| &acc * d);
            match t.base() {
                Type::Vector(_, w) => n = &n * &Nat::cst(i64::from(*w)),
                Type::Tuple(ts) => {
                    for c in ts {
                        push_type(&Type::array(c.clone(), n.clone()), out);
                    }
                }
                _ => {}
            }
            push(n, out);
        }
        _ => {}
    }
}
