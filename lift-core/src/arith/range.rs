//! Range analysis: constant intervals of expressions and a small prover for
//! `p >= 0` that substitutes symbolic bounds of atoms (LIFT's `atMin` /
//! `atMax` strategy), e.g. proving `j < 2 + N` from `j` in `[0, 2 + N)`.

use super::poly::Poly;
use super::Nat;
use std::cell::RefCell;
use std::collections::HashMap;

/// Stand-in for infinity in interval bounds.
pub(crate) const INF: i128 = 1 << 100;

/// Depth limit when following symbolic variable bounds for intervals.
const VAR_DEPTH: u32 = 8;

/// Substitution depth of the prover.
const PROVE_DEPTH: u32 = 3;

/// Maximum number of prover steps for one top-level query.
const PROVE_BUDGET: usize = 400;

/// A closed interval `[lo, hi]`; `-INF` / `INF` stand for unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Itv {
    pub(crate) lo: i128,
    pub(crate) hi: i128,
}

impl Itv {
    fn full() -> Itv {
        Itv { lo: -INF, hi: INF }
    }

    fn point(c: i64) -> Itv {
        Itv {
            lo: c.into(),
            hi: c.into(),
        }
    }

    /// Finite lower bound as `i64`.
    pub(crate) fn lo_i64(&self) -> Option<i64> {
        (self.lo > -INF)
            .then(|| i64::try_from(self.lo).ok())
            .flatten()
    }

    /// Finite upper bound as `i64`.
    pub(crate) fn hi_i64(&self) -> Option<i64> {
        (self.hi < INF)
            .then(|| i64::try_from(self.hi).ok())
            .flatten()
    }

    fn add(self, o: Itv) -> Itv {
        let lo = if self.lo <= -INF || o.lo <= -INF {
            -INF
        } else {
            clamp(self.lo + o.lo)
        };
        let hi = if self.hi >= INF || o.hi >= INF {
            INF
        } else {
            clamp(self.hi + o.hi)
        };
        Itv { lo, hi }
    }

    fn mul(self, o: Itv) -> Itv {
        let c = [
            mul_ext(self.lo, o.lo),
            mul_ext(self.lo, o.hi),
            mul_ext(self.hi, o.lo),
            mul_ext(self.hi, o.hi),
        ];
        Itv {
            lo: c.iter().copied().min().unwrap_or(-INF),
            hi: c.iter().copied().max().unwrap_or(INF),
        }
    }

    fn neg(self) -> Itv {
        Itv {
            lo: -self.hi,
            hi: -self.lo,
        }
    }

    fn union(self, o: Itv) -> Itv {
        Itv {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }
}

fn clamp(v: i128) -> i128 {
    v.clamp(-INF, INF)
}

fn mul_ext(a: i128, b: i128) -> i128 {
    if a == 0 || b == 0 {
        return 0;
    }
    let sign = if (a < 0) == (b < 0) { 1 } else { -1 };
    if a.abs() >= INF || b.abs() >= INF {
        return sign * INF;
    }
    a.checked_mul(b).map(clamp).unwrap_or(sign * INF)
}

/// Truncating `a / b` for `b >= 1` (possibly `INF`).
fn div_ext(a: i128, b: i128) -> i128 {
    if a.abs() >= INF {
        return a.signum() * INF;
    }
    if b >= INF {
        return 0;
    }
    a / b
}

/// Trunc-division interval for a strictly positive divisor `y`.
fn div_pos(x: Itv, y: Itv) -> Itv {
    let lo = if x.lo >= 0 {
        div_ext(x.lo, y.hi)
    } else {
        div_ext(x.lo, y.lo)
    };
    let hi = if x.hi >= 0 {
        div_ext(x.hi, y.lo)
    } else {
        div_ext(x.hi, y.hi)
    };
    Itv { lo, hi }
}

fn pow_ext(b: i128, e: i128) -> i128 {
    if b <= 1 {
        // 0 ^ 0 = 1, 0 ^ e = 0, 1 ^ e = 1 (b >= 0 here).
        return if e == 0 { 1 } else { b };
    }
    if b >= INF {
        return if e == 0 { 1 } else { INF };
    }
    if e >= INF {
        return if b <= 1 { b } else { INF };
    }
    let mut acc: i128 = 1;
    let mut i = 0;
    while i < e {
        acc = mul_ext(acc, b);
        if acc >= INF {
            return INF;
        }
        i += 1;
    }
    acc
}

/// The constant interval of `n`.
pub(crate) fn interval(n: &Nat) -> Itv {
    itv(n, VAR_DEPTH)
}

fn itv(n: &Nat, depth: u32) -> Itv {
    match n {
        Nat::Cst(c) => Itv::point(*c),
        Nat::Var(v) => {
            if depth == 0 {
                return Itv::full();
            }
            let lo = itv(&v.lo, depth - 1).lo;
            let hi = match &v.hi {
                Some(h) => {
                    let h = itv(h, depth - 1).hi;
                    if h >= INF {
                        INF
                    } else {
                        h - 1
                    }
                }
                None => INF,
            };
            Itv { lo, hi }
        }
        Nat::Sum(ts) => ts
            .iter()
            .fold(Itv::point(0), |acc, t| acc.add(itv(t, depth))),
        Nat::Prod(fs) => fs
            .iter()
            .fold(Itv::point(1), |acc, f| acc.mul(itv(f, depth))),
        Nat::Div(a, b) => {
            let (x, y) = (itv(a, depth), itv(b, depth));
            if y.lo >= 1 {
                div_pos(x, y)
            } else if y.hi <= -1 {
                div_pos(x, y.neg()).neg()
            } else {
                Itv::full()
            }
        }
        Nat::Mod(a, b) => {
            let (x, y) = (itv(a, depth), itv(b, depth));
            let m = y.lo.abs().max(y.hi.abs());
            let lim = if m >= INF { INF } else { (m - 1).max(0) };
            if x.lo >= 0 {
                Itv {
                    lo: 0,
                    hi: x.hi.min(lim),
                }
            } else if x.hi <= 0 {
                Itv {
                    lo: x.lo.max(-lim),
                    hi: 0,
                }
            } else {
                Itv {
                    lo: x.lo.max(-lim),
                    hi: x.hi.min(lim),
                }
            }
        }
        Nat::Pow(b, e) => {
            let (x, k) = (itv(b, depth), itv(e, depth));
            if x.lo >= 0 && k.lo >= 0 {
                let lo = if x.lo >= 1 { pow_ext(x.lo, k.lo) } else { 0 };
                let lo = if k.hi == 0 { 1 } else { lo };
                let hi = pow_ext(x.hi.max(1), k.hi);
                Itv { lo, hi }
            } else {
                Itv::full()
            }
        }
        Nat::Min(a, b) => {
            let (x, y) = (itv(a, depth), itv(b, depth));
            Itv {
                lo: x.lo.min(y.lo),
                hi: x.hi.min(y.hi),
            }
        }
        Nat::Max(a, b) => {
            let (x, y) = (itv(a, depth), itv(b, depth));
            Itv {
                lo: x.lo.max(y.lo),
                hi: x.hi.max(y.hi),
            }
        }
        Nat::Ite(_, a, b) => itv(a, depth).union(itv(b, depth)),
    }
}

/// The constant interval of a polynomial.
pub(crate) fn interval_poly(p: &Poly) -> Itv {
    let mut acc = Itv::point(0);
    for (m, k) in &p.terms {
        let t = m
            .iter()
            .fold(Itv::point(*k), |a, atom| a.mul(interval(atom)));
        acc = acc.add(t);
    }
    acc
}

/// Symbolic lower bounds (inclusive) of an atom.
fn lower_bounds(a: &Nat) -> Vec<Nat> {
    match a {
        Nat::Var(v) => vec![(*v.lo).clone()],
        Nat::Mod(x, y) | Nat::Div(x, y) => {
            if interval(x).lo >= 0 && interval(y).lo >= 1 {
                vec![Nat::Cst(0)]
            } else {
                Vec::new()
            }
        }
        Nat::Max(x, y) => vec![(**x).clone(), (**y).clone()],
        _ => Vec::new(),
    }
}

/// Symbolic upper bounds (inclusive) of an atom.
fn upper_bounds(a: &Nat) -> Vec<Nat> {
    match a {
        Nat::Var(v) => match &v.hi {
            Some(h) => vec![super::poly::add(h, &Nat::Cst(-1))],
            None => Vec::new(),
        },
        Nat::Mod(x, y) => {
            if interval(x).lo >= 0 && interval(y).lo >= 1 {
                vec![super::poly::add(y, &Nat::Cst(-1)), (**x).clone()]
            } else {
                Vec::new()
            }
        }
        Nat::Div(x, y) => {
            if interval(x).lo >= 0 && interval(y).lo >= 1 {
                vec![(**x).clone()]
            } else {
                Vec::new()
            }
        }
        Nat::Min(x, y) => vec![(**x).clone(), (**y).clone()],
        _ => Vec::new(),
    }
}

/// Is `p >= 0` provable from the ranges?
pub(crate) fn nonneg(p: &Poly) -> bool {
    // The proof depends on `p` alone (its terms and the ranges of its variables): answers are
    // kept per thread, keyed by `p`'s full structure (its `Debug` form shows every range;
    // `Var` equality alone ignores them). Code generation asks the same questions many times
    // over (every access of a view, every guard): a product in disguise generates in a third
    // of the time.
    thread_local! {
        static PROVED: RefCell<HashMap<String, bool>> = RefCell::new(HashMap::new());
    }
    let key = format!("{p:?}");
    if let Some(known) = PROVED.with(|m| m.borrow().get(&key).copied()) {
        return known;
    }
    let mut budget = PROVE_BUDGET;
    let proved = prove(p, PROVE_DEPTH, &mut budget);
    PROVED.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MAX_PROVED {
            m.clear();
        }
        m.insert(key, proved);
    });
    proved
}

/// Answers [`nonneg`] keeps per thread before it starts again.
const MAX_PROVED: usize = 1 << 16;

fn prove(p: &Poly, depth: u32, budget: &mut usize) -> bool {
    if interval_poly(p).lo >= 0 {
        return true;
    }
    if depth == 0 || *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut atoms: Vec<&Nat> = p.terms.keys().flat_map(|m| m.iter()).collect();
    atoms.sort();
    atoms.dedup();
    for a in atoms.into_iter().rev() {
        let Some((c, rest)) = split_linear(p, a) else {
            continue;
        };
        if let Some(q) = floor_multiple(&c, &rest, a) {
            if prove(&q, depth - 1, budget) {
                return true;
            }
        }
        if prove(&c, depth - 1, budget) {
            for lb in lower_bounds(a) {
                if substituted(&c, &rest, &lb).is_some_and(|q| prove(&q, depth - 1, budget)) {
                    return true;
                }
            }
        }
        let Some(nc) = c.scale(-1) else { continue };
        if prove(&nc, depth - 1, budget) {
            for ub in upper_bounds(a) {
                if substituted(&c, &rest, &ub).is_some_and(|q| prove(&q, depth - 1, budget)) {
                    return true;
                }
            }
        }
        if *budget == 0 {
            return false;
        }
    }
    false
}

/// For `a = x / d` (floor, `x >= 0`, `d >= 1`, constant or not) with a coefficient
/// `c = k d` (`k` a non-zero constant): a multiple of `d` rounded down loses at most `d - 1`
/// and never gains, `x - d + 1 <= d (x / d) <= x`, so `rest + k (x - d + 1) >= 0` (`k > 0`:
/// `8 ((N + 7) / 8) >= N`) or `rest + k x >= 0` (`k < 0`: `N - P (N / P) >= 0`) implies
/// `p >= 0`.
fn floor_multiple(c: &Poly, rest: &Poly, a: &Nat) -> Option<Poly> {
    let Nat::Div(x, d) = a else { return None };
    if interval(x).lo < 0 || interval(d).lo < 1 {
        return None;
    }
    let dp = Poly::from_nat(d);
    let k = ratio(c, &dp)?;
    let x = Poly::from_nat(x);
    let bound = if k > 0 {
        x.sub(&dp)?.add(&Poly::cst(1))?
    } else {
        x
    };
    rest.add(&bound.scale(k)?)
}

/// The constant `k != 0` with `c = k d`, if there is one.
fn ratio(c: &Poly, d: &Poly) -> Option<i64> {
    let (mono, dk) = d.terms.iter().next()?;
    let ck = *c.terms.get(mono)?;
    (ck % dk == 0)
        .then_some(ck / dk)
        .filter(|&k| k != 0 && d.scale(k).as_ref() == Some(c))
}

/// `rest + c * bound`.
fn substituted(c: &Poly, rest: &Poly, bound: &Nat) -> Option<Poly> {
    rest.add(&c.mul(&Poly::from_nat(bound))?)
}

/// Write `p = c * a + rest` where neither `c` nor `rest` has `a` as a
/// top-level factor; `None` if `a` occurs with multiplicity > 1.
fn split_linear(p: &Poly, a: &Nat) -> Option<(Poly, Poly)> {
    let mut c = Poly::zero();
    let mut rest = Poly::zero();
    for (m, k) in &p.terms {
        let n = m.iter().filter(|x| *x == a).count();
        match n {
            0 => rest = rest.add(&Poly::term(m.clone(), *k))?,
            1 => {
                let mut m2 = m.clone();
                let pos = m2.iter().position(|x| x == a)?;
                m2.remove(pos);
                c = c.add(&Poly::term(m2, *k))?;
            }
            _ => return None,
        }
    }
    Some((c, rest))
}

/// Is `n >= 0` provable?
pub(crate) fn ge0(n: &Nat) -> bool {
    nonneg(&Poly::from_nat(n))
}

/// Is `n <= 0` provable?
pub(crate) fn le0(n: &Nat) -> bool {
    Poly::from_nat(n).scale(-1).is_some_and(|p| nonneg(&p))
}

/// Is `a - b + off >= 0` provable, i.e. `b <= a + off`?
pub(crate) fn diff_ge(a: &Nat, b: &Nat, off: i64) -> bool {
    Poly::from_nat(a)
        .sub(&Poly::from_nat(b))
        .and_then(|p| p.add(&Poly::cst(off)))
        .is_some_and(|p| nonneg(&p))
}

/// Is `a <= b` provable?
pub(crate) fn le(a: &Nat, b: &Nat) -> bool {
    diff_ge(b, a, 0)
}

/// Is `a < b` provable?
pub(crate) fn lt(a: &Nat, b: &Nat) -> bool {
    diff_ge(b, a, -1)
}

/// Is `n >= 1` provable?
pub(crate) fn pos(n: &Nat) -> bool {
    diff_ge(n, &Nat::Cst(1), 0)
}

/// Is `n <= -1` provable?
pub(crate) fn neg(n: &Nat) -> bool {
    diff_ge(&Nat::Cst(-1), n, 0)
}
