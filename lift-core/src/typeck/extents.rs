//! The flat extents of a kernel: for every array its body, parameters and result compute
//! with, the number of scalars it holds flattened. Generated kernels index arrays and views
//! with `lift_idx` arithmetic; the launcher evaluates these extents at launch and chooses
//! 64-bit indices when one could exceed what 32-bit arithmetic holds with room to spare
//! (SPEC section 5, "Index width").

use crate::arith::Nat;
use crate::ir::{Expr, Kernel};
use crate::types::Type;

/// The distinct flat extents (scalar counts) of the arrays of kernel `k` (checked), in order
/// of appearance: parameters, result, then the body's sub-expressions. Constant extents
/// within [`INDEX32_LIMIT`](super::INDEX32_LIMIT) are left out: they never call for 64-bit
/// indices, and the launcher evaluates the rest on every launch.
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
        push_type(t, out);
    }
    for c in crate::rewrite::walk::children(e) {
        push_expr(c, out);
    }
}

/// Pushes the extents of `t` (each tuple component on its own) not yet in `out`.
fn push_type(t: &Type, out: &mut Vec<Nat>) {
    match t {
        Type::Tuple(ts) => ts.iter().for_each(|t| push_type(t, out)),
        Type::Array(..) => {
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
            let small = n.as_cst().is_some_and(|c| c <= super::INDEX32_LIMIT);
            if !small && !out.contains(&n) {
                out.push(n);
            }
        }
        _ => {}
    }
}
