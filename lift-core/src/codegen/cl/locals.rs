//! Indices of local arrays in the tree: kept per dimension while the kernel is built, so that
//! bank padding ([`crate::codegen::banks`]) can widen a row by rewriting the tree, then
//! lowered to flat index arithmetic ([`lower`]) before printing.

use super::ast::{rebuild, CExpr, Index, LocalAt, Mark, Stmt};
use crate::arith::{Facts, Nat};

impl LocalAt {
    /// The flat index: the element's row-major offset, simplified under `facts`, then the
    /// lane's place among the scalars if a lane is accessed.
    pub(crate) fn flat(&self, facts: &Facts) -> Nat {
        let mut flat = Nat::cst(0);
        for (i, d) in &self.at {
            flat = flat * d + i.clone();
        }
        let flat = flat.simplify_with(facts);
        match &self.lane {
            Some((l, w)) => &flat * i64::from(*w) + l,
            None => flat,
        }
    }
}

impl Index {
    /// The flat index arithmetic (a local element flattened under `facts`).
    pub(crate) fn flat(&self, facts: &Facts) -> Nat {
        match self {
            Index::Flat(n) => n.clone(),
            Index::Local(at) => at.flat(facts),
        }
    }

    /// The index as an expression.
    pub(crate) fn expr(self) -> CExpr {
        match self {
            Index::Flat(n) => CExpr::Nat(n),
            Index::Local(at) => CExpr::Local(at),
        }
    }

    /// Lane `l` of the vector element of width `w` at this index, in the buffer seen as
    /// scalars.
    pub(crate) fn lane(self, l: &Nat, w: u32) -> Index {
        match self {
            Index::Flat(n) => Index::Flat(n * i64::from(w) + l),
            Index::Local(at) => Index::Local(LocalAt {
                lane: Some((l.clone(), w)),
                ..at
            }),
        }
    }
}

/// `body` with every local element index in it (in expressions and access marks, nested
/// statements included) replaced by what `f` gives for it. (Access marks are never under a
/// `When`, which [`rebuild`] does not enter.)
pub(crate) fn map(body: Vec<Stmt>, f: &mut impl FnMut(LocalAt) -> Index) -> Vec<Stmt> {
    let body = rebuild(body, &mut |s| {
        vec![match s {
            Stmt::Mark(Mark::Access(mut t)) => {
                t.at = index(t.at, f);
                Stmt::Mark(Mark::Access(t))
            }
            s => s,
        }]
    });
    body.into_iter()
        .map(|s| s.map_exprs(&mut |e| expr(e, f)))
        .collect()
}

/// Local element indices lowered to flat index arithmetic under `facts`.
pub(crate) fn lower(body: Vec<Stmt>, facts: &Facts) -> Vec<Stmt> {
    map(body, &mut |at| Index::Flat(at.flat(facts)))
}

fn index(i: Index, f: &mut impl FnMut(LocalAt) -> Index) -> Index {
    match i {
        Index::Local(at) => f(at),
        i => i,
    }
}

/// An expression with its local element indices mapped.
fn expr(e: CExpr, f: &mut impl FnMut(LocalAt) -> Index) -> CExpr {
    match e {
        CExpr::Local(at) => f(at).expr(),
        CExpr::Offset(p, i) => CExpr::Offset(Box::new(expr(*p, f)), index(i, f)),
        e => e.map_children(&mut |x| expr(x, f)),
    }
}
