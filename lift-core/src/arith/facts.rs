//! Facts established during type checking (divisibility assumptions such as
//! `N % 4 == 0` after `split(4)`), and simplification under them.

use super::poly::{self, mono_div, Poly};
use super::{divmod, ops, range, Nat};

/// Facts established during type checking, e.g. `N % 4 == 0` after `split(4)`.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// Pairs `(n, d)` meaning `n % d == 0`.
    divisible: Vec<(Nat, Nat)>,
}

impl Facts {
    /// No facts.
    pub fn new() -> Facts {
        Facts::default()
    }

    /// Record the assumption `n % d == 0`.
    pub fn assume_divisible(&mut self, n: &Nat, d: &Nat) {
        let f = (n.clone(), d.clone());
        if !self.divisible.contains(&f) {
            self.divisible.push(f);
        }
    }

    /// The recorded divisibility assumptions `(n, d)`.
    pub fn divisibility_facts(&self) -> &[(Nat, Nat)] {
        &self.divisible
    }

    /// Are `a` and `b` provably equal (under the facts)?
    pub fn equal(&self, a: &Nat, b: &Nat) -> bool {
        if a == b {
            return true;
        }
        let (sa, sb) = (self.simplify(a), self.simplify(b));
        sa == sb || self.simplify(&(sa - sb)).as_cst() == Some(0)
    }

    /// `Some(true)`: provably `n % d == 0`; `Some(false)`: provably not;
    /// `None`: unknown at compile time.
    pub fn divisible(&self, n: &Nat, d: &Nat) -> Option<bool> {
        let pd = Poly::from_nat(d);
        if pd.is_zero() {
            return None;
        }
        if let (Some(a), Some(b)) = (n.as_cst(), d.as_cst()) {
            return a.checked_rem(b).map(|r| r == 0).or(Some(true));
        }
        if n == d || matches!(d.as_cst(), Some(1) | Some(-1)) {
            return Some(true);
        }
        let pn = Poly::from_nat(n);
        if pn.is_zero() || self.whole_fact(n, &pd) {
            return Some(true);
        }
        if let Some((_, r)) = poly::polydiv(&pn, &pd) {
            if r.is_zero() {
                return Some(true);
            }
        }
        // Term-wise: every term divisible (structurally or by a fact).
        let mut rest_const: i64 = 0;
        let mut all = true;
        for (m, k) in &pn.terms {
            if self.term_divisible(m, *k, &pd) {
                continue;
            }
            all = false;
            if m.is_empty() {
                rest_const = *k;
            } else {
                return None;
            }
        }
        if all {
            return Some(true);
        }
        // Only a constant remainder is left: decide for constant divisors.
        match d.as_cst() {
            Some(c) if c != 0 => rest_const.checked_rem(c).map(|r| r == 0),
            _ => None,
        }
    }

    /// Some(true)/Some(false) when `a <= b` is provable / refutable from ranges.
    pub fn le(&self, a: &Nat, b: &Nat) -> Option<bool> {
        let (sa, sb) = (self.simplify(a), self.simplify(b));
        ops::decide(&sa, super::CmpOp::Le, &sb)
    }

    /// Is there a fact `(f, fd)` with `d | fd` and `f - n` a polynomial multiple of `d`
    /// (`N + 4` a multiple of 4 makes `N` one)?
    fn whole_fact(&self, n: &Nat, pd: &Poly) -> bool {
        self.divisible.iter().any(|(fnat, fd)| {
            divides(pd, &Poly::from_nat(fd))
                && (fnat == n
                    || Poly::from_nat(fnat)
                        .sub(&Poly::from_nat(n))
                        .is_some_and(|diff| divides(pd, &diff)))
        })
    }

    /// Is the term `k * m` divisible by `d`?
    fn term_divisible(&self, m: &[Nat], k: i64, pd: &Poly) -> bool {
        let t = Poly::term(m.to_vec(), k);
        if divides(pd, &t) {
            return true;
        }
        // Some factor of the term is known to be a multiple of d.
        m.iter().any(|a| self.whole_fact(a, pd))
    }

    /// Simplify `n` bottom-up under the facts.
    pub(crate) fn simplify(&self, n: &Nat) -> Nat {
        if self.divisible.is_empty() {
            return n.rebuild(&|c| self.simplify(c));
        }
        let r = match n {
            Nat::Cst(_) | Nat::Var(_) => return n.clone(),
            Nat::Div(a, b) => {
                let (a, b) = (self.simplify(a), self.simplify(b));
                if self.divisible(&a, &b) == Some(true) {
                    self.exact_div(&a, &b)
                } else {
                    divmod::div(&a, &b)
                }
            }
            Nat::Mod(a, b) => {
                let (a, b) = (self.simplify(a), self.simplify(b));
                if self.divisible(&a, &b) == Some(true) && !Poly::from_nat(&b).is_zero() {
                    Nat::Cst(0)
                } else {
                    divmod::rem(&a, &b)
                }
            }
            _ => n.rebuild(&|c| self.simplify(c)),
        };
        self.post_exact(r)
    }

    /// `a / b` knowing that `b` divides `a`.
    fn exact_div(&self, a: &Nat, b: &Nat) -> Nat {
        let (pa, pb) = (Poly::from_nat(a), Poly::from_nat(b));
        if pa.terms.len() > 1
            && pa
                .terms
                .iter()
                .all(|(m, k)| self.term_divisible(m, *k, &pb))
        {
            // Exact quotients of exact multiples add up.
            return pa.terms.iter().fold(Nat::Cst(0), |acc, (m, k)| {
                let t = poly::term_to_nat(m, *k);
                acc + divmod::div(&t, b)
            });
        }
        divmod::div(a, b)
    }

    /// Rewrite terms `k * (x / d) * rest` with `d | x` and `d | k * rest`
    /// into `(k * rest / d) * x`.
    fn post_exact(&self, n: Nat) -> Nat {
        let p = Poly::from_nat(&n);
        let mut changed = false;
        let mut acc = Poly::zero();
        for (m, k) in &p.terms {
            match self.rewrite_term(m, *k) {
                Some(t) => {
                    changed = true;
                    match acc.add(&t) {
                        Some(a) => acc = a,
                        None => return n,
                    }
                }
                None => match acc.add(&Poly::term(m.clone(), *k)) {
                    Some(a) => acc = a,
                    None => return n,
                },
            }
        }
        if changed {
            poly::normalize(acc).to_nat()
        } else {
            n
        }
    }

    fn rewrite_term(&self, m: &[Nat], k: i64) -> Option<Poly> {
        for (i, atom) in m.iter().enumerate() {
            let Nat::Div(x, d) = atom else { continue };
            if self.divisible(x, d) != Some(true) || !range::pos(d) {
                continue;
            }
            let mut rest = m.to_vec();
            rest.remove(i);
            let pd = Poly::from_nat(d);
            let (dm, dk) = single_term(&pd)?;
            if k.checked_rem(dk)? != 0 {
                // `k * (x / d)` with constant `d`: cancel `g = gcd(k, d)`, giving
                // `(k / g) * (x / (d / g))` (still exact), so `8 * (N / 16)` is `N / 2`.
                let g = poly::gcd(k, dk);
                if !dm.is_empty() || dk <= 0 || g <= 1 {
                    continue;
                }
                let q = divmod::div(x, &Nat::Cst(dk / g));
                let t = Poly::term(rest, k / g);
                return t.mul(&Poly::from_nat(&q));
            }
            let Some(rest2) = mono_div(&rest, &dm) else {
                continue;
            };
            let t = Poly::term(rest2, k.checked_div(dk)?);
            return t.mul(&Poly::from_nat(x));
        }
        None
    }
}

/// The only term of a single-term polynomial.
fn single_term(p: &Poly) -> Option<(Vec<Nat>, i64)> {
    if p.terms.len() != 1 {
        return None;
    }
    p.terms.iter().next().map(|(m, k)| (m.clone(), *k))
}

/// Does `d` structurally divide `t` (exact polynomial division)?
fn divides(d: &Poly, t: &Poly) -> bool {
    if t.is_zero() {
        return true;
    }
    matches!(poly::polydiv(t, d), Some((_, r)) if r.is_zero())
}
