//! Operator overloads and the simplifying constructors for `pow`, `min`,
//! `max` and conditionals.

use std::ops::{Add, Div, Mul, Neg, Rem, Sub};

use super::poly::{self, Poly};
use super::{checked_pow, divmod, range, CmpOp, Cond, Nat};

/// Constant exponents up to this value are expanded into products.
const MAX_EXPAND_EXP: i64 = 8;

/// `b ^ e` in canonical form.
pub(crate) fn pow(b: &Nat, e: &Nat) -> Nat {
    if let Some(k) = e.as_cst() {
        if k == 0 {
            return Nat::Cst(1);
        }
        if k == 1 {
            return b.clone();
        }
        if let Some(x) = b.as_cst() {
            if k > 0 {
                if let Some(v) = checked_pow(x, k) {
                    return Nat::Cst(v);
                }
            }
        } else if (2..=MAX_EXPAND_EXP).contains(&k) {
            let mut acc = b.clone();
            for _ in 1..k {
                acc = poly::mul(&acc, b);
            }
            return acc;
        }
    }
    match b.as_cst() {
        Some(1) if range::ge0(e) => return Nat::Cst(1),
        Some(0) if range::pos(e) => return Nat::Cst(0),
        _ => {}
    }
    // (x ^ a) ^ c = x ^ (a * c) for non-negative exponents.
    if let Nat::Pow(x, a) = b {
        if range::ge0(a) && range::ge0(e) {
            return pow(x, &poly::mul(a, e));
        }
    }
    Nat::Pow(Box::new(b.clone()), Box::new(e.clone()))
}

/// `min(a, b)` in canonical form.
pub(crate) fn min(a: &Nat, b: &Nat) -> Nat {
    if a == b || range::le(a, b) {
        return a.clone();
    }
    if range::le(b, a) {
        return b.clone();
    }
    let (x, y) = if a <= b { (a, b) } else { (b, a) };
    Nat::Min(Box::new(x.clone()), Box::new(y.clone()))
}

/// `max(a, b)` in canonical form.
pub(crate) fn max(a: &Nat, b: &Nat) -> Nat {
    if a == b || range::le(b, a) {
        return a.clone();
    }
    if range::le(a, b) {
        return b.clone();
    }
    let (x, y) = if a <= b { (a, b) } else { (b, a) };
    Nat::Max(Box::new(x.clone()), Box::new(y.clone()))
}

/// Decide `lhs <op> rhs` from constants and ranges.
pub(crate) fn decide(lhs: &Nat, op: CmpOp, rhs: &Nat) -> Option<bool> {
    let prove = |holds: bool, refuted: bool| {
        if holds {
            Some(true)
        } else if refuted {
            Some(false)
        } else {
            None
        }
    };
    match op {
        CmpOp::Lt => prove(range::lt(lhs, rhs), range::le(rhs, lhs)),
        CmpOp::Le => prove(range::le(lhs, rhs), range::lt(rhs, lhs)),
        CmpOp::Gt => decide(rhs, CmpOp::Lt, lhs),
        CmpOp::Ge => decide(rhs, CmpOp::Le, lhs),
        CmpOp::Eq => {
            let d = Poly::from_nat(lhs).sub(&Poly::from_nat(rhs));
            if d.as_ref().is_some_and(Poly::is_zero) {
                Some(true)
            } else if range::lt(lhs, rhs) || range::lt(rhs, lhs) {
                Some(false)
            } else {
                None
            }
        }
        CmpOp::Ne => decide(lhs, CmpOp::Eq, rhs).map(|b| !b),
    }
}

/// `lhs <op> rhs ? a : b` in canonical form.
pub(crate) fn ite(lhs: &Nat, op: CmpOp, rhs: &Nat, a: &Nat, b: &Nat) -> Nat {
    if a == b {
        return a.clone();
    }
    match decide(lhs, op, rhs) {
        Some(true) => a.clone(),
        Some(false) => b.clone(),
        None => Nat::Ite(
            Box::new(Cond {
                lhs: lhs.clone(),
                op,
                rhs: rhs.clone(),
            }),
            Box::new(a.clone()),
            Box::new(b.clone()),
        ),
    }
}

macro_rules! bin_op {
    ($tr:ident, $m:ident, $f:path) => {
        impl $tr<Nat> for Nat {
            type Output = Nat;
            /// Simplifying operator (see the module docs for `/` and `%` semantics).
            fn $m(self, o: Nat) -> Nat {
                $f(&self, &o)
            }
        }
        impl $tr<&Nat> for &Nat {
            type Output = Nat;
            /// Simplifying operator (see the module docs for `/` and `%` semantics).
            fn $m(self, o: &Nat) -> Nat {
                $f(self, o)
            }
        }
        impl $tr<&Nat> for Nat {
            type Output = Nat;
            /// Simplifying operator (see the module docs for `/` and `%` semantics).
            fn $m(self, o: &Nat) -> Nat {
                $f(&self, o)
            }
        }
        impl $tr<Nat> for &Nat {
            type Output = Nat;
            /// Simplifying operator (see the module docs for `/` and `%` semantics).
            fn $m(self, o: Nat) -> Nat {
                $f(self, &o)
            }
        }
        impl $tr<i64> for Nat {
            type Output = Nat;
            /// Simplifying operator with a constant right operand.
            fn $m(self, o: i64) -> Nat {
                $f(&self, &Nat::Cst(o))
            }
        }
        impl $tr<i64> for &Nat {
            type Output = Nat;
            /// Simplifying operator with a constant right operand.
            fn $m(self, o: i64) -> Nat {
                $f(self, &Nat::Cst(o))
            }
        }
    };
}

fn sub(a: &Nat, b: &Nat) -> Nat {
    poly::add(a, &poly::mul(b, &Nat::Cst(-1)))
}

bin_op!(Add, add, poly::add);
bin_op!(Sub, sub, sub);
bin_op!(Mul, mul, poly::mul);
bin_op!(Div, div, divmod::div);
bin_op!(Rem, rem, divmod::rem);

impl Neg for Nat {
    type Output = Nat;
    /// `-self`.
    fn neg(self) -> Nat {
        poly::mul(&self, &Nat::Cst(-1))
    }
}

impl Neg for &Nat {
    type Output = Nat;
    /// `-self`.
    fn neg(self) -> Nat {
        poly::mul(self, &Nat::Cst(-1))
    }
}
