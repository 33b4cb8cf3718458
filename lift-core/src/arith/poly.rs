//! The sum-of-products normal form: a polynomial over *atoms* (variables,
//! divisions, modulos, powers, min/max, conditionals) with `i64` coefficients.
//!
//! Sums and products of [`Nat`]s are computed here: terms are flattened,
//! like terms collected, constant factors distributed, and the modulo
//! identity `(a / b) * b + a % b = a` is applied inside sums.

use std::collections::BTreeMap;

use super::Nat;

/// A monomial: a sorted multiset of atoms (empty = the constant monomial).
pub(crate) type Mono = Vec<Nat>;

/// Upper bound on the number of terms produced by distributing a product.
const MAX_TERMS: usize = 512;

/// A polynomial: monomial -> non-zero coefficient.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Poly {
    pub(crate) terms: BTreeMap<Mono, i64>,
}

impl Poly {
    /// The zero polynomial.
    pub(crate) fn zero() -> Poly {
        Poly::default()
    }

    /// A constant polynomial.
    pub(crate) fn cst(c: i64) -> Poly {
        Poly::term(Vec::new(), c)
    }

    /// A single term `k * mono` (`mono` must be sorted).
    pub(crate) fn term(mono: Mono, k: i64) -> Poly {
        let mut terms = BTreeMap::new();
        if k != 0 {
            terms.insert(mono, k);
        }
        Poly { terms }
    }

    /// Is this the zero polynomial?
    pub(crate) fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The constant value if the polynomial is constant.
    pub(crate) fn as_cst(&self) -> Option<i64> {
        match self.terms.len() {
            0 => Some(0),
            1 => self
                .terms
                .iter()
                .next()
                .and_then(|(m, k)| m.is_empty().then_some(*k)),
            _ => None,
        }
    }

    /// The constant term.
    pub(crate) fn constant(&self) -> i64 {
        self.terms.get(&Vec::new()).copied().unwrap_or(0)
    }

    /// Convert a canonical (or fallback) [`Nat`] into a polynomial.
    pub(crate) fn from_nat(n: &Nat) -> Poly {
        match n {
            Nat::Cst(c) => Poly::cst(*c),
            Nat::Sum(ts) => {
                let mut acc = Poly::zero();
                for t in ts {
                    match acc.add(&Poly::from_nat(t)) {
                        Some(p) => acc = p,
                        None => return Poly::term(vec![n.clone()], 1),
                    }
                }
                acc
            }
            Nat::Prod(fs) => {
                let mut k: i64 = 1;
                let mut mono = Vec::new();
                for f in fs {
                    match f {
                        Nat::Cst(c) => match k.checked_mul(*c) {
                            Some(v) => k = v,
                            None => return Poly::term(vec![n.clone()], 1),
                        },
                        other => mono.push(other.clone()),
                    }
                }
                mono.sort();
                Poly::term(mono, k)
            }
            _ => Poly::term(vec![n.clone()], 1),
        }
    }

    /// Convert back into the canonical [`Nat`].
    pub(crate) fn to_nat(&self) -> Nat {
        let mut terms: Vec<Nat> = self.terms.iter().map(|(m, k)| term_to_nat(m, *k)).collect();
        match terms.len() {
            0 => Nat::Cst(0),
            1 => terms.pop().unwrap_or(Nat::Cst(0)),
            _ => Nat::Sum(terms),
        }
    }

    /// `self + o`, `None` on coefficient overflow.
    pub(crate) fn add(&self, o: &Poly) -> Option<Poly> {
        let mut terms = self.terms.clone();
        for (m, k) in &o.terms {
            let e = terms.entry(m.clone()).or_insert(0);
            *e = e.checked_add(*k)?;
            if *e == 0 {
                terms.remove(m);
            }
        }
        Some(Poly { terms })
    }

    /// `self - o`, `None` on coefficient overflow.
    pub(crate) fn sub(&self, o: &Poly) -> Option<Poly> {
        self.add(&o.scale(-1)?)
    }

    /// `k * self`, `None` on overflow.
    pub(crate) fn scale(&self, k: i64) -> Option<Poly> {
        if k == 0 {
            return Some(Poly::zero());
        }
        let mut terms = BTreeMap::new();
        for (m, c) in &self.terms {
            terms.insert(m.clone(), c.checked_mul(k)?);
        }
        Some(Poly { terms })
    }

    /// `self * o` (distributing), `None` on overflow or term explosion.
    pub(crate) fn mul(&self, o: &Poly) -> Option<Poly> {
        if self.terms.len().saturating_mul(o.terms.len()) > MAX_TERMS {
            return None;
        }
        let mut acc = Poly::zero();
        for (m1, k1) in &self.terms {
            for (m2, k2) in &o.terms {
                let t = Poly::term(mono_mul(m1, m2), k1.checked_mul(*k2)?);
                acc = acc.add(&t)?;
            }
        }
        Some(acc)
    }

    /// GCD of all coefficients (0 for the zero polynomial), always >= 0.
    pub(crate) fn content(&self) -> i64 {
        self.terms.values().fold(0i64, |g, k| gcd(g, *k))
    }

    /// Divide every coefficient by `g` (must divide all of them).
    pub(crate) fn div_exact_cst(&self, g: i64) -> Option<Poly> {
        let mut terms = BTreeMap::new();
        for (m, k) in &self.terms {
            if k.checked_rem(g)? != 0 {
                return None;
            }
            terms.insert(m.clone(), k.checked_div(g)?);
        }
        Some(Poly { terms })
    }

    /// Atoms (with multiplicity) common to every term.
    pub(crate) fn common_atoms(&self) -> Mono {
        let mut it = self.terms.keys();
        let mut common = match it.next() {
            Some(m) => m.clone(),
            None => return Vec::new(),
        };
        for m in it {
            common = mono_gcd(&common, m);
            if common.is_empty() {
                break;
            }
        }
        common
    }

    /// Divide every monomial by `d` (must be contained in all of them).
    pub(crate) fn div_mono(&self, d: &[Nat]) -> Option<Poly> {
        let mut terms = BTreeMap::new();
        for (m, k) in &self.terms {
            terms.insert(mono_div(m, d)?, *k);
        }
        Some(Poly { terms })
    }
}

/// Build the [`Nat`] of a single term `k * atoms`.
pub(crate) fn term_to_nat(m: &[Nat], k: i64) -> Nat {
    if m.is_empty() {
        return Nat::Cst(k);
    }
    if k == 1 && m.len() == 1 {
        return m[0].clone();
    }
    let mut fs = Vec::with_capacity(m.len() + 1);
    if k != 1 {
        fs.push(Nat::Cst(k));
    }
    fs.extend(m.iter().cloned());
    Nat::Prod(fs)
}

/// Merge two sorted monomials.
pub(crate) fn mono_mul(a: &[Nat], b: &[Nat]) -> Mono {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            out.push(a[i].clone());
            i += 1;
        } else {
            out.push(b[j].clone());
            j += 1;
        }
    }
    out.extend(a[i..].iter().cloned());
    out.extend(b[j..].iter().cloned());
    out
}

/// `m / d` as multisets, `None` if `d` is not contained in `m`.
pub(crate) fn mono_div(m: &[Nat], d: &[Nat]) -> Option<Mono> {
    let mut out = Vec::with_capacity(m.len());
    let mut j = 0;
    for a in m {
        if j < d.len() && *a == d[j] {
            j += 1;
        } else {
            if j < d.len() && d[j] < *a {
                return None;
            }
            out.push(a.clone());
        }
    }
    (j == d.len()).then_some(out)
}

/// Multiset intersection of two sorted monomials.
fn mono_gcd(a: &[Nat], b: &[Nat]) -> Mono {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Equal => {
                out.push(a[i].clone());
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
        }
    }
    out
}

/// Non-negative GCD (`gcd(0, 0) = 0`); saturates at `i64::MAX` for `i64::MIN`.
pub(crate) fn gcd(a: i64, b: i64) -> i64 {
    let (mut x, mut y) = (a.unsigned_abs(), b.unsigned_abs());
    while y != 0 {
        let t = x % y;
        x = y;
        y = t;
    }
    i64::try_from(x).unwrap_or(i64::MAX)
}

/// Apply the identity `k*m*(a/b)*b + k*m*(a%b) = k*m*a` until no more match.
fn mod_identity(mut p: Poly) -> Poly {
    for _ in 0..8 {
        match mod_identity_step(&p) {
            Some(q) => p = q,
            None => break,
        }
    }
    p
}

fn mod_identity_step(p: &Poly) -> Option<Poly> {
    for (mono, k) in &p.terms {
        for (idx, atom) in mono.iter().enumerate() {
            let Nat::Mod(a, b) = atom else { continue };
            let mut rest = mono.clone();
            rest.remove(idx);
            let div_atom = Nat::Div(a.clone(), b.clone());
            let with_div = mono_mul(&rest, std::slice::from_ref(&div_atom));
            let cand = Poly::term(with_div, *k).mul(&Poly::from_nat(b))?;
            let contained = cand.terms.iter().all(|(m, c)| p.terms.get(m) == Some(c));
            if !contained {
                continue;
            }
            let replacement = Poly::term(rest.clone(), *k).mul(&Poly::from_nat(a))?;
            let q = p
                .sub(&cand)?
                .sub(&Poly::term(mono.clone(), *k))?
                .add(&replacement)?;
            return Some(q);
        }
    }
    None
}

fn has_mod(p: &Poly) -> bool {
    p.terms
        .keys()
        .any(|m| m.iter().any(|a| matches!(a, Nat::Mod(..))))
}

/// Canonicalise a polynomial result (applies sum-level identities).
pub(crate) fn normalize(p: Poly) -> Poly {
    if has_mod(&p) {
        mod_identity(p)
    } else {
        p
    }
}

/// `a + b` in canonical form.
pub(crate) fn add(a: &Nat, b: &Nat) -> Nat {
    if let (Nat::Cst(x), Nat::Cst(y)) = (a, b) {
        if let Some(s) = x.checked_add(*y) {
            return Nat::Cst(s);
        }
    }
    match Poly::from_nat(a).add(&Poly::from_nat(b)) {
        Some(p) => normalize(p).to_nat(),
        None => Nat::Sum(vec![a.clone(), b.clone()]),
    }
}

/// `a * b` in canonical form (distributing over sums).
pub(crate) fn mul(a: &Nat, b: &Nat) -> Nat {
    if let (Nat::Cst(x), Nat::Cst(y)) = (a, b) {
        if let Some(s) = x.checked_mul(*y) {
            return Nat::Cst(s);
        }
    }
    let (pa, pb) = (Poly::from_nat(a), Poly::from_nat(b));
    if let Some(p) = pa.mul(&pb) {
        return normalize(p).to_nat();
    }
    // Too large to distribute: keep the product of the two as one monomial.
    let mut fs = vec![a.clone(), b.clone()];
    fs.sort();
    Nat::Prod(fs)
}

/// Multivariate division `x = q * y + r` by the leading term of `y`.
/// Returns `None` when `y` is zero or the division does not terminate quickly.
pub(crate) fn polydiv(x: &Poly, y: &Poly) -> Option<(Poly, Poly)> {
    let (lead_m, lead_k) = y
        .terms
        .iter()
        .max_by(|(m1, _), (m2, _)| (m1.len(), *m1).cmp(&(m2.len(), *m2)))
        .map(|(m, k)| (m.clone(), *k))?;
    let mut q = Poly::zero();
    let mut r = x.clone();
    for _ in 0..64 {
        let found = r.terms.iter().rev().find_map(|(m, k)| {
            if k.checked_rem(lead_k)? != 0 {
                return None;
            }
            let qk = k.checked_div(lead_k)?;
            mono_div(m, &lead_m).map(|qm| (qm, qk))
        });
        let Some((qm, qk)) = found else {
            return Some((q, r));
        };
        let qt = Poly::term(qm, qk);
        r = r.sub(&qt.mul(y)?)?;
        q = q.add(&qt)?;
    }
    None
}
