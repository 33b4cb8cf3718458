//! The launch configuration, from the trip counts of the parallel maps: `map_glb(d)` sets the
//! global size of dimension `d`; `map_wrg(d)` the number of work-groups and the largest
//! `map_lcl(d)` the local size (a constant), so that global = groups * local.

use super::{CodegenError, GResult};
use crate::arith::{Facts, Nat};
use crate::ir::{Boundary, Expr, ExprKind, PrimArg};
use crate::prim::Prim;

/// The NDRange of a kernel and the per-dimension sizes the loops are compared with.
#[derive(Clone, Debug, Default)]
pub(crate) struct Launch {
    /// Global size per dimension (`map_glb`).
    pub global: Vec<Nat>,
    /// Work-groups per dimension (`map_wrg`), empty without work-groups.
    pub groups: Vec<Nat>,
    /// Local size per dimension, constant (`map_lcl`), empty without work-groups.
    pub local: Vec<i64>,
}

impl Launch {
    /// Global sizes to launch.
    pub(crate) fn global_size(&self) -> Vec<Nat> {
        if self.groups.is_empty() {
            if self.global.is_empty() {
                vec![Nat::cst(1)]
            } else {
                self.global.clone()
            }
        } else {
            self.groups
                .iter()
                .zip(&self.local)
                .map(|(g, l)| g * *l)
                .collect()
        }
    }

    /// Local sizes to require, if work-groups are used.
    pub(crate) fn local_size(&self) -> Option<Vec<Nat>> {
        if self.groups.is_empty() && self.global.is_empty() {
            // A sequential kernel runs on one work-item: a driver's default group size
            // would run it redundantly on several (each writing the same output).
            return Some(vec![Nat::cst(1)]);
        }
        (!self.groups.is_empty()).then(|| self.local.iter().map(|l| Nat::cst(*l)).collect())
    }
}

/// The trip count of a map: the outer length of its (result) type.
pub(crate) fn trip(f: &Expr) -> GResult<Nat> {
    match &f.ty {
        Some(crate::types::Type::Array(_, n)) => Ok(n.clone()),
        t => Err(CodegenError::Internal(format!(
            "map without an array type: {t:?}"
        ))),
    }
}

#[derive(Default)]
struct Found {
    glb: Vec<Option<Nat>>,
    wrg: Vec<Option<Nat>>,
    lcl: Vec<Option<i64>>,
    /// Dimensions with a `map_lcl` whose trip count is not a constant.
    symbolic: Vec<bool>,
}

fn set<T: Clone>(v: &mut Vec<Option<T>>, d: usize, x: T, merge: impl Fn(&T, &T) -> T) {
    if v.len() <= d {
        v.resize(d + 1, None);
    }
    v[d] = Some(match &v[d] {
        Some(old) => merge(old, &x),
        None => x,
    });
}

fn walk(e: &Expr, found: &mut Found, facts: &Facts) -> GResult<()> {
    match &e.kind {
        ExprKind::Prim(p, args) => {
            let d = PrimArg::dim(args);
            let merge = |a: &Nat, b: &Nat| {
                if facts.equal(a, b) {
                    a.clone()
                } else {
                    Nat::max(a, b)
                }
            };
            match p {
                Prim::MapGlb => set(&mut found.glb, d, trip(e)?, merge),
                Prim::MapWrg => set(&mut found.wrg, d, trip(e)?, merge),
                Prim::MapLcl => match trip(e)?.as_cst() {
                    Some(c) => set(&mut found.lcl, d, c, |a, b| *a.max(b)),
                    None => {
                        if found.symbolic.len() <= d {
                            found.symbolic.resize(d + 1, false);
                        }
                        found.symbolic[d] = true;
                    }
                },
                _ => {}
            }
            for a in args {
                match a {
                    PrimArg::Fun(f) | PrimArg::Value(f) => walk(f, found, facts)?,
                    PrimArg::Boundary(Boundary::Constant(f), _) => walk(f, found, facts)?,
                    _ => {}
                }
            }
            Ok(())
        }
        ExprKind::Lambda(_, b)
        | ExprKind::Proj(b, _)
        | ExprKind::Index(b, _)
        | ExprKind::Unary(_, b) => walk(b, found, facts),
        ExprKind::Cast(b, _) | ExprKind::Point(_, _, b) => walk(b, found, facts),
        ExprKind::Compose(es) | ExprKind::Tuple(es) => {
            es.iter().try_for_each(|x| walk(x, found, facts))
        }
        ExprKind::Apply(f, es) => {
            walk(f, found, facts)?;
            es.iter().try_for_each(|x| walk(x, found, facts))
        }
        ExprKind::Binary(_, a, b) | ExprKind::Let(_, a, b) => {
            walk(a, found, facts)?;
            walk(b, found, facts)
        }
        ExprKind::If(c, a, b) => {
            walk(c, found, facts)?;
            walk(a, found, facts)?;
            walk(b, found, facts)
        }
        ExprKind::Ident(_) | ExprKind::Lit(..) | ExprKind::Section(_) => Ok(()),
    }
}

/// Computes the launch configuration of a lowered, type-checked kernel body.
pub(crate) fn configure(body: &Expr, facts: &Facts, lanes: i64) -> GResult<Launch> {
    let mut found = Found::default();
    walk(body, &mut found, facts)?;
    let one = || Nat::cst(1);
    let global = found
        .glb
        .into_iter()
        .map(|g| g.unwrap_or_else(one))
        .collect();
    let dims = found
        .wrg
        .len()
        .max(found.lcl.len())
        .max(found.symbolic.len());
    let mut groups: Vec<Nat> = found
        .wrg
        .into_iter()
        .map(|g| g.unwrap_or_else(one))
        .collect();
    groups.resize(dims, one());
    let mut local: Vec<i64> = found.lcl.into_iter().map(|l| l.unwrap_or(1)).collect();
    local.resize(dims, 1);
    // The dimensions whose trip counts are size variables share `lanes` work-items: each
    // takes the largest power of two whose k-th power fits (k such dimensions), so that a
    // group of two of them is 16 x 16 for 256 lanes, not 256 x 256.
    let k = found.symbolic.iter().filter(|&&s| s).count();
    if k > 0 {
        let mut per = 1i64;
        while (per * 2).checked_pow(k as u32).is_some_and(|p| p <= lanes) {
            per *= 2;
        }
        for (d, _) in found.symbolic.iter().enumerate().filter(|(_, &s)| s) {
            local[d] = local[d].max(per);
        }
    }
    Ok(Launch {
        global,
        groups,
        local,
    })
}
