//! Which work-item touches each element (issue 39): the barrier placement and the race check
//! on grid maps ask whether two accesses to one buffer may touch one element from two
//! different work-items. They may not when the element determines the work-item alike
//! through both: each index is `B + c v + r` in a work-item variable `v` (`gid0`, `wg0`,
//! `l0`: the same name is the same id of the same work-item) with the same `B` and `c >= 1`
//! and the remainders `r` of both within `c - 1` of each other, so that no element of one
//! value of `v` is an element of another. A strided loop steps its variable by the number of
//! work-items, so the same value is still the same work-item.
//!
//! A loop of one iteration runs on one work-item (its variable is `0` and does not occur in
//! the index): a variable `single` on a side is `0` there.
//!
//! Variables `fixed` are equal on both sides (the group of a pair inside one work-group, or
//! a variable already determined); every other index variable is renamed apart on one side,
//! so the bounds hold for any iterations of the loops around each access.

use crate::arith::{Facts, Nat, Var, VarKind};

/// One access: the flat index of its element and the work-item variables of the loops of
/// one iteration around it.
#[derive(Clone, Copy)]
pub(crate) struct Side<'a> {
    pub idx: &'a Nat,
    pub single: &'a [String],
}

/// Whether every element touched through `a` and through `b` determines each variable of
/// `wanted` alike (fixing each once determined, so that `wg0` then `l0` pin a work-item of
/// the grid): no two different work-items touch one element through them.
pub(crate) fn apart(facts: &Facts, a: Side, b: Side, wanted: &[String], fixed: &[String]) -> bool {
    let mut fixed = fixed.to_vec();
    let mut left: Vec<&String> = wanted.iter().filter(|v| !fixed.contains(v)).collect();
    while !left.is_empty() {
        let before = left.len();
        left.retain(|v| {
            if determines(facts, v, a, b, &fixed) {
                fixed.push((*v).clone());
                false
            } else {
                true
            }
        });
        if left.len() == before {
            return false;
        }
    }
    true
}

/// Whether the element determines `v` alike through `a` and `b` (see the module docs).
fn determines(facts: &Facts, v: &str, a: Side, b: Side, fixed: &[String]) -> bool {
    // The block width through one side: `None` where `v` is `0` there; `Err` where the
    // index does not depend on `v` (every work-item along `v` touches the element).
    let step = |x: Side| -> Result<Option<Nat>, ()> {
        if x.single.iter().any(|s| s == v) {
            return Ok(None);
        }
        let var = x
            .idx
            .free_vars()
            .into_iter()
            .find(|w| w.kind == VarKind::Index && &*w.name == v)
            .ok_or(())?;
        let next = x.idx.substitute_index(v, &(var.to_nat() + 1));
        Ok(Some((&next - x.idx).simplify_with(facts)))
    };
    let c = match (step(a), step(b)) {
        (Ok(None), Ok(None)) => return true,
        (Ok(Some(c)), Ok(None)) | (Ok(None), Ok(Some(c))) => c,
        (Ok(Some(c)), Ok(Some(cb))) if facts.equal(&c, &cb) => c,
        _ => return false,
    };
    let free = |x: &Nat| {
        x.free_vars()
            .iter()
            .any(|w| w.kind == VarKind::Index && !fixed.iter().any(|f| **f == *w.name))
    };
    if free(&c) || facts.le(&Nat::cst(1), &c) != Some(true) {
        return false;
    }
    let (a, b) = (a.idx, b.idx);
    let base = |x: &Nat| x.substitute_index(v, &Nat::cst(0));
    let (ba, bb) = (base(a), base(b));
    let width = &c - 1;
    let within = |x: &Nat, y: &Nat| facts.le(&(x - &renamed(y, fixed)), &width) == Some(true);
    within(&ba, &ba) && within(&ba, &bb) && within(&bb, &ba) && within(&bb, &bb)
}

/// `x` with every index variable but the `fixed` ones renamed apart (same ranges).
fn renamed(x: &Nat, fixed: &[String]) -> Nat {
    x.free_vars()
        .into_iter()
        .filter(|w| w.kind == VarKind::Index && !fixed.iter().any(|f| **f == *w.name))
        .fold(x.clone(), |x, w| {
            let other = Var::new(
                &format!("{}'", w.name),
                VarKind::Index,
                (*w.lo).clone(),
                w.hi.as_deref().cloned(),
            );
            x.substitute_index(&w.name, &other.to_nat())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ix(name: &str, n: i64) -> Nat {
        Nat::index_var(name, Nat::cst(0), Nat::cst(n))
    }

    fn apart(f: &Facts, a: &Nat, b: &Nat, wanted: &[String], fixed: &[String]) -> bool {
        let side = |idx| Side { idx, single: &[] };
        super::apart(f, side(a), side(b), wanted, fixed)
    }

    /// Elements `3 l0 + k` of a work-item's row (`k < 3`) belong to it alone; `l0 + k` (a
    /// neighbour's element) and `3 l0 + k` with `k` up to 3 do not.
    #[test]
    fn blocks_of_one_work_item() {
        let f = Facts::new();
        let (wg, l) = (ix("wg0", 8), ix("l0", 4));
        let own = |k: Nat| &(&(&wg * 12) + &(&l * 3)) + &k;
        let want = ["l0".to_string()];
        let fixed = ["wg0".to_string()];
        assert!(apart(
            &f,
            &own(Nat::cst(0)),
            &own(Nat::cst(2)),
            &want,
            &fixed
        ));
        assert!(apart(
            &f,
            &own(Nat::cst(1)),
            &own(ix("i_1", 3)),
            &want,
            &fixed
        ));
        assert!(!apart(
            &f,
            &own(Nat::cst(0)),
            &own(ix("i_1", 4)),
            &want,
            &fixed
        ));
        let near = &(&wg * 4) + &l;
        assert!(!apart(&f, &near, &(&near + 1), &want, &fixed));
        // Without the group fixed, `wg0` must be determined too (here it is: blocks of 12).
        assert!(apart(
            &f,
            &own(Nat::cst(0)),
            &own(Nat::cst(1)),
            &["wg0".to_string(), "l0".to_string()],
            &[]
        ));
        // A variable an index does not mention is not determined, unless its loop has one
        // iteration (work-item 0 alone): then its elements must not be another work-item's
        // (`+ 4` is work-item 1's element `3 * 1 + 1`).
        assert!(!apart(&f, &own(Nat::cst(0)), &Nat::cst(0), &want, &fixed));
        let zero = own(Nat::cst(0)).substitute_index("l0", &Nat::cst(0));
        let (two, four, one) = (&zero + 2, &zero + 4, own(Nat::cst(1)));
        let single = |idx| Side { idx, single: &want };
        let plain = |idx| Side { idx, single: &[] };
        assert!(super::apart(&f, single(&zero), single(&two), &want, &fixed));
        assert!(super::apart(&f, plain(&one), single(&zero), &want, &fixed));
        assert!(!super::apart(&f, plain(&one), single(&four), &want, &fixed));
    }

    /// The same index of the same global id, with the loops around each access renamed
    /// apart (a step of `iterate` inside a sequential loop).
    #[test]
    fn same_global_id() {
        let f = Facts::new();
        let n = Nat::size_var("N");
        let g = Nat::index_var("gid0", Nat::cst(0), n.clone());
        let want = ["gid0".to_string()];
        assert!(apart(&f, &g, &g, &want, &[]));
        assert!(!apart(&f, &g, &(&g + 1), &want, &[]));
        let row = &(&g * &n) + &Nat::index_var("i_2", Nat::cst(0), n.clone());
        assert!(apart(&f, &row, &row, &want, &[]));
    }
}
