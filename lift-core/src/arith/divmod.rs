//! Simplification of integer division and modulo (C truncation semantics).
//!
//! Implements LIFT's rules 1-6 (paper section 5.3) and the ArithExpr extras:
//! `x / y = 0` and `x % y = x` when `0 <= x < y`; `(q*y + r) / y = q + r / y`
//! and `(q*y + r) % y = r % y` when `x, r >= 0`; cancellation of common
//! factors; nested divisions `(x / a) / b = x / (a * b)`; `(a % d) % e`
//! with `e | d`; exact division `(q*y) / y = q`, `(q*y) % y = 0`.

use std::cell::Cell;

use super::poly::{self, Poly};
use super::range;
use super::Nat;

fn atom_div(x: &Nat, y: &Nat) -> Nat {
    Nat::Div(Box::new(x.clone()), Box::new(y.clone()))
}

fn atom_mod(x: &Nat, y: &Nat) -> Nat {
    Nat::Mod(Box::new(x.clone()), Box::new(y.clone()))
}

fn neg(x: &Nat) -> Nat {
    poly::mul(x, &Nat::Cst(-1))
}

/// Cancel a common factor (constant content and atoms provably `>= 1`) of
/// `x` and `y`. Returns `(x', y', factor)` with `x = factor * x'`,
/// `y = factor * y'`, `factor >= 1`.
fn cancel_common(px: &Poly, py: &Poly) -> Option<(Poly, Poly, Nat)> {
    let g = poly::gcd(px.content(), py.content());
    let cx = px.common_atoms();
    let cy = py.common_atoms();
    let mut atoms: Vec<Nat> = Vec::new();
    let mut j = 0;
    for a in &cx {
        while j < cy.len() && cy[j] < *a {
            j += 1;
        }
        if j < cy.len() && cy[j] == *a {
            j += 1;
            if range::pos(a) {
                atoms.push(a.clone());
            }
        }
    }
    if g <= 1 && atoms.is_empty() {
        return None;
    }
    let g = g.max(1);
    let x2 = px.div_exact_cst(g)?.div_mono(&atoms)?;
    let y2 = py.div_exact_cst(g)?.div_mono(&atoms)?;
    let factor = poly::term_to_nat(&atoms, g);
    Some((x2, y2, factor))
}

/// Write `x = q * y + r`. For a positive constant `y = c` this moves the
/// terms with coefficients divisible by `c` (and multiples of `c` in a
/// positive constant term) into `q`; otherwise it is polynomial division.
fn split(px: &Poly, py: &Poly) -> Option<(Poly, Poly)> {
    let Some(c) = py.as_cst() else {
        return poly::polydiv(px, py);
    };
    if c <= 0 {
        return None;
    }
    let mut q = Poly::zero();
    let mut r = Poly::zero();
    for (m, k) in &px.terms {
        if m.is_empty() {
            continue;
        }
        if k % c == 0 {
            q = q.add(&Poly::term(m.clone(), k / c))?;
        } else {
            r = r.add(&Poly::term(m.clone(), *k))?;
        }
    }
    let k0 = px.constant();
    let (qc, rc) = if k0 >= c || (r.is_zero() && k0 < 0) {
        (k0.div_euclid(c), k0.rem_euclid(c))
    } else {
        (0, k0)
    };
    Some((q.add(&Poly::cst(qc))?, r.add(&Poly::cst(rc))?))
}

/// Outcome of the quotient/remainder analysis for `x >= 0`, `y >= 1`.
enum Split {
    /// `x / y = q + r / y`, `x % y = r % y` with `0 <= r`, `q != 0`.
    Partial(Poly, Poly),
    /// `x / y = q`, `x % y = r` with `0 <= r < y`.
    Exact(Poly, Poly),
}

fn analyse(px: &Poly, py: &Poly, y: &Nat) -> Option<Split> {
    let (q, r) = split(px, py)?;
    let rn = r.to_nat();
    if range::ge0(&rn) {
        if range::lt(&rn, y) {
            return Some(Split::Exact(q, r));
        }
        if !q.is_zero() {
            return Some(Split::Partial(q, r));
        }
        return None;
    }
    // Try borrowing one `y`: x = (q - 1) * y + (r + y).
    let r2 = r.add(py)?;
    let r2n = r2.to_nat();
    if range::ge0(&r2n) && range::lt(&r2n, y) {
        return Some(Split::Exact(q.sub(&Poly::cst(1))?, r2));
    }
    None
}

/// Maximum nesting of recursive `div` / `rem` simplification calls.
const MAX_DEPTH: u32 = 48;

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Run `f` one recursion level deeper, or return `fallback` when too deep.
fn guarded(fallback: impl FnOnce() -> Nat, f: impl FnOnce() -> Nat) -> Nat {
    let d = DEPTH.with(Cell::get);
    if d >= MAX_DEPTH {
        return fallback();
    }
    DEPTH.with(|c| c.set(d + 1));
    let r = f();
    DEPTH.with(|c| c.set(d));
    r
}

/// `x / y` in canonical form.
pub(crate) fn div(x: &Nat, y: &Nat) -> Nat {
    guarded(|| atom_div(x, y), || div_inner(x, y))
}

fn div_inner(x: &Nat, y: &Nat) -> Nat {
    if let (Some(a), Some(b)) = (x.as_cst(), y.as_cst()) {
        if b != 0 {
            if let Some(v) = a.checked_div(b) {
                return Nat::Cst(v);
            }
        }
        return atom_div(x, y);
    }
    match y.as_cst() {
        Some(0) => return atom_div(x, y),
        Some(1) => return x.clone(),
        Some(-1) => return neg(x),
        _ => {}
    }
    if x.as_cst() == Some(0) {
        return Nat::Cst(0);
    }
    if x == y {
        return Nat::Cst(1);
    }
    let (px, py) = (Poly::from_nat(x), Poly::from_nat(y));
    if let Some((x2, y2, _)) = cancel_common(&px, &py) {
        return div(&x2.to_nat(), &y2.to_nat());
    }
    if range::neg(y) {
        return neg(&div(x, &neg(y)));
    }
    let exact = || match poly::polydiv(&px, &py) {
        Some((q, r)) if r.is_zero() => Some(q.to_nat()),
        _ => None,
    };
    if !range::pos(y) {
        return exact().unwrap_or_else(|| atom_div(x, y));
    }
    if !range::ge0(x) {
        if range::le0(x) {
            return neg(&div(&neg(x), y));
        }
        return exact().unwrap_or_else(|| atom_div(x, y));
    }
    // From here on: x >= 0, y >= 1.
    if range::lt(x, y) {
        return Nat::Cst(0);
    }
    if let Nat::Div(a, b) = x {
        if range::pos(b) {
            return div(a, &poly::mul(b, y));
        }
    }
    match analyse(&px, &py, y) {
        Some(Split::Exact(q, _)) => q.to_nat(),
        Some(Split::Partial(q, r)) => poly::add(&q.to_nat(), &div(&r.to_nat(), y)),
        None => atom_div(x, y),
    }
}

/// `x % y` in canonical form.
pub(crate) fn rem(x: &Nat, y: &Nat) -> Nat {
    guarded(|| atom_mod(x, y), || rem_inner(x, y))
}

fn rem_inner(x: &Nat, y: &Nat) -> Nat {
    if let (Some(a), Some(b)) = (x.as_cst(), y.as_cst()) {
        if b != 0 {
            if let Some(v) = a.checked_rem(b) {
                return Nat::Cst(v);
            }
        }
        return atom_mod(x, y);
    }
    match y.as_cst() {
        Some(0) => return atom_mod(x, y),
        Some(1) | Some(-1) => return Nat::Cst(0),
        _ => {}
    }
    if x.as_cst() == Some(0) || x == y {
        return Nat::Cst(0);
    }
    let (px, py) = (Poly::from_nat(x), Poly::from_nat(y));
    if px.scale(-1).as_ref() == Some(&py) {
        return Nat::Cst(0);
    }
    if let Some((x2, y2, f)) = cancel_common(&px, &py) {
        return poly::mul(&f, &rem(&x2.to_nat(), &y2.to_nat()));
    }
    if range::neg(y) {
        return rem(x, &neg(y));
    }
    let exact = || match poly::polydiv(&px, &py) {
        Some((_, r)) if r.is_zero() => Some(Nat::Cst(0)),
        _ => None,
    };
    if !range::pos(y) {
        return exact().unwrap_or_else(|| atom_mod(x, y));
    }
    if !range::ge0(x) {
        if range::le0(x) {
            return neg(&rem(&neg(x), y));
        }
        return exact().unwrap_or_else(|| atom_mod(x, y));
    }
    // From here on: x >= 0, y >= 1.
    if range::lt(x, y) {
        return x.clone();
    }
    if let Nat::Mod(a, d) = x {
        // (a % d) % y = a % y when y divides d (a >= 0 since x >= 0 is
        // only provable here through a >= 0).
        let dy = poly::polydiv(&Poly::from_nat(d), &py);
        if matches!(dy, Some((_, ref r)) if r.is_zero()) && range::ge0(a) && range::pos(d) {
            return rem(a, y);
        }
    }
    match analyse(&px, &py, y) {
        Some(Split::Exact(_, r)) => r.to_nat(),
        Some(Split::Partial(_, r)) => rem(&r.to_nat(), y),
        None => atom_mod(x, y),
    }
}
