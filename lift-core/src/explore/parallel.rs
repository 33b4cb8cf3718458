//! The mapping strategy: candidates drawn from the solutions of the mapping constraint
//! problem ([`super::mapping`]).
//!
//! The body is prepared by the default lowering (maps expanded and fused,
//! [`crate::explore::lower::prepare`]); every solution is applied and the rest lowered
//! sequentially. The default heuristic ([`crate::explore::lower`], step 3) is one solution
//! among them and stays the `map` candidate; the others are `mapping(m0=.., m1=..)`
//! candidates (each map's code in the thesis's encoding, maps in pre-order), in order of
//! preference, at most [`MAX_MAPPINGS`] of them that code generation accepts (and as many
//! that it refuses, for the driver to report why), duplicates (by low-level program) and
//! mappings without any parallel map dropped.
//! A mapping with a `map_lcl` over a size variable also comes with a larger local size
//! (`lanes`, [`crate::codegen::Options`]) for the tuner.

use super::lower;
use super::mapping::{self, Code, Nest};
use super::strategy::{self, Strategy};
use super::{Candidate, Lowering};
use crate::codegen::Options;
use crate::device::DeviceModel;
use crate::ir::{Expr, ExprKind, Program};
use crate::prim::Prim;
use crate::typeck::KernelInfo;
use std::collections::HashSet;
use std::time::Instant;

/// The most mappings besides the default one offered as candidates.
pub const MAX_MAPPINGS: usize = 6;

/// The most solutions the explorer lowers and generates code for, looking for
/// [`MAX_MAPPINGS`] that code generation accepts.
pub const MAX_TRIED: usize = 64;

/// The local sizes offered for `map_lcl` over a size variable: the default, then a larger one.
/// (The first, [`Options::DEFAULT_LANES`], is the portable default; the second the device
/// model's [`group`](DeviceModel::group), 256 by default; those above the model's largest
/// group are not offered.)
fn lanes_of(device: &DeviceModel) -> Vec<i64> {
    let mut lanes = vec![Options::DEFAULT_LANES, device.group()];
    lanes.dedup();
    lanes.retain(|&n| n <= device.max_work_group);
    lanes
}

/// What the mapping problem of one kernel looked like.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Decision variables (computing maps).
    pub maps: usize,
    /// Clauses generated.
    pub clauses: usize,
    /// Solutions (valid mappings).
    pub solutions: usize,
    /// Time to generate and solve, in milliseconds.
    pub solve_ms: f64,
}

/// The mapping problem of kernel `kernel` of `prog` (for reports): `None` when the body
/// already fixes its parallel maps or cannot be prepared.
pub fn report(prog: &Program, kernel: &str, info: &KernelInfo) -> Option<Report> {
    let prepared = lower::prepare(prog, kernel, info).ok()?;
    let body = &prepared.kernel(kernel)?.body;
    if lower::uses_parallel(body) {
        return None;
    }
    let t = Instant::now();
    let nest = Nest::of(body);
    if nest.maps.is_empty() {
        return None;
    }
    let cs = mapping::constraints(&nest);
    let sols = mapping::solve(&nest, &cs).ok()?;
    Some(Report {
        maps: nest.maps.len(),
        clauses: cs.iter().map(|c| c.clauses.len()).sum(),
        solutions: sols.len(),
        solve_ms: t.elapsed().as_secs_f64() * 1e3,
    })
}

/// One solution of the mapping problem applied.
pub struct Mapping {
    /// The code of each map (pre-order).
    pub codes: Vec<Code>,
    /// The low-level program, type-checked, or why applying the solution failed.
    pub lowered: Result<lower::Lowered, String>,
}

/// The solutions of the mapping problem of one kernel, best first, applied on demand (a
/// body of many maps has thousands of solutions; the explorer lowers a few).
pub struct Mappings<'a> {
    prepared: Program,
    body: crate::ir::Expr,
    kernel: &'a str,
    info: &'a KernelInfo,
    /// The solutions (a code per map, pre-order), best first (`preference`).
    pub solutions: Vec<Vec<Code>>,
}

impl Mappings<'_> {
    /// Solution `codes` applied: the low-level program, type-checked, or why it failed.
    pub fn apply(&self, codes: &[Code]) -> Result<lower::Lowered, String> {
        let new = mapping::apply(&self.body, codes)
            .ok_or_else(|| "a fused map without a known trip count".to_string())?;
        let mut p = self.prepared.clone();
        if let Some(k) = p.kernels.iter_mut().find(|k| k.name == self.kernel) {
            k.body = new;
        }
        lower::finish(p, self.kernel, self.info).map_err(|e| e.to_string())
    }
}

/// The mapping problem of kernel `kernel` of `prog`, solved; `None` when the body already
/// fixes its parallel maps, has no computing map, or cannot be prepared.
pub fn solutions<'a>(
    prog: &Program,
    kernel: &'a str,
    info: &'a KernelInfo,
) -> Option<Mappings<'a>> {
    let prepared = lower::prepare(prog, kernel, info).ok()?;
    let body = prepared.kernel(kernel)?.body.clone();
    if lower::uses_parallel(&body) {
        return None;
    }
    let nest = Nest::of(&body);
    if nest.maps.is_empty() {
        return None;
    }
    let mut sols = mapping::solve(&nest, &mapping::constraints(&nest)).ok()?;
    sols.sort_by_key(|s| preference(&nest, s));
    Some(Mappings {
        prepared,
        body,
        kernel,
        info,
        solutions: sols,
    })
}

/// Every solution of the mapping problem of kernel `kernel` of `prog`, applied, best first
/// (see [`solutions`]).
pub fn mappings(prog: &Program, kernel: &str, info: &KernelInfo) -> Option<Vec<Mapping>> {
    let m = solutions(prog, kernel, info)?;
    Some(
        m.solutions
            .iter()
            .map(|codes| Mapping {
                codes: codes.clone(),
                lowered: m.apply(codes),
            })
            .collect(),
    )
}

/// The default mapping (`map`) followed by the other mappings of the solver.
pub fn candidates(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    device: &DeviceModel,
) -> Vec<Candidate> {
    let symbolic_lanes = lanes_of(device);
    let opts = Options {
        device: *device,
        ..Options::default()
    };
    let mut out = Vec::new();
    // Lowered bodies already offered, compared structurally (modulo types and bound names).
    let mut seen = HashSet::new();
    if let Ok(l) = lower::lower_program(prog, kernel, info) {
        if let Some(k) = l.prog.kernel(kernel) {
            seen.insert(k.body.clone());
        }
        out.push(Candidate {
            strategy: Strategy::Map,
            lowering: Lowering::Program(l.prog),
            info: l.info,
        });
    }
    // Mappings that code generation refuses (a race between grid loops, an unreachable
    // barrier) stay in the list, so that the driver reports why, but do not count.
    let (mut offered, mut refused, mut tried) = (0, 0, 0);
    // A mapping without a parallel map runs on one work-item: never a candidate to time.
    let Some(all) = solutions(prog, kernel, info) else {
        return out;
    };
    for codes in all
        .solutions
        .iter()
        .filter(|c| c.iter().any(|c| c.level() > 0))
    {
        if offered == MAX_MAPPINGS || tried == MAX_TRIED {
            break;
        }
        tried += 1;
        let Ok(l) = all.apply(codes) else {
            continue;
        };
        let Some(k) = l.prog.kernel(kernel) else {
            continue;
        };
        if !seen.insert(k.body.clone()) {
            continue;
        }
        let lanes: &[i64] = if symbolic_lcl(&k.body) {
            &symbolic_lanes
        } else {
            &[0]
        };
        let ok = crate::codegen::generate_with(&l.prog, kernel, &l.info, &opts).is_ok();
        if !ok {
            if refused == MAX_MAPPINGS {
                continue;
            }
            refused += 1;
        } else {
            offered += 1;
        }
        for &n in lanes {
            let mapping = strategy::Mapping {
                codes: codes.clone(),
                lanes: (n > 0).then_some(n),
            };
            out.push(Candidate {
                strategy: Strategy::Mapping(mapping),
                lowering: Lowering::Program(l.prog.clone()),
                info: l.info.clone(),
            });
            if !ok {
                break;
            }
        }
    }
    out
}

/// The sort key of a solution, best first: the most maps run in parallel (a fused map
/// counts with its parent), then the innermost parallel map of each chain in dimension 0
/// (neighbouring work-items on neighbouring elements), then global maps before work-groups
/// (no local size to choose), then the fewest fused maps.
fn preference(nest: &Nest, s: &[Code]) -> (usize, usize, usize, usize, Vec<Code>) {
    let parallel = |m: usize| {
        s[m].level() > 0
            || (s[m] == Code::Fused && nest.maps[m].parent.is_some_and(|p| s[p].level() > 0))
    };
    let serial = (0..s.len()).filter(|&m| !parallel(m)).count();
    let uncoalesced = nest
        .chains()
        .iter()
        .filter(|c| {
            c.iter()
                .rev()
                .find(|&&m| s[m].level() > 0)
                .is_some_and(|&m| !matches!(s[m], Code::Glb(0) | Code::Lcl(0)))
        })
        .count();
    let groups = s.iter().filter(|c| matches!(c.level(), 1 | 2)).count();
    let fused = s.iter().filter(|c| **c == Code::Fused).count();
    (serial, uncoalesced, groups, fused, s.to_vec())
}

/// Does `e` contain a `map_lcl` whose trip count is not a constant?
fn symbolic_lcl(e: &Expr) -> bool {
    if let ExprKind::Prim(Prim::MapLcl, _) = &e.kind {
        if crate::rewrite::build::array(e.ty.as_ref()).is_some_and(|(_, n)| n.as_cst().is_none()) {
            return true;
        }
    }
    crate::rewrite::walk::children(e)
        .into_iter()
        .any(symbolic_lcl)
}
