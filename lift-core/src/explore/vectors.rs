//! Vectorised and coarsened element-wise maps (issue 36, item 3): a map of a scalar function
//! over arrays of floats (`map(f) $ x`, `map(f) $ zip(x, y, ..)`, a 2-D map over its rows
//! joined) as `vector(w, k, tail)` candidates, derived by the rules of
//! [`crate::rewrite::vectorize`]:
//!
//! ```text
//! map(map(f)) $ X  ⇒ split(m) $ map(f) $ join $ X                        flatten_map (2-D)
//! map(f) $ zip(Xi) ⇒ take(n) $ map(f) $ zip(pad(0, p, clamp) $ Xi)         pad_map(w k)  (tail)
//!                  ⇒ .. as_scalar $ map(vectorize(w, f)) $ zip(as_vector(w) $ ..)
//!                                                                         vectorize_data(w)
//!                  ⇒ .. join $ transpose $ map(map_seq(vectorize(w, f))) $ transpose
//!                       $ split(n / k) $ ..                               coarsen(k)  (k > 1)
//! ```
//!
//! then the default lowering (`map_glb` over the vectors of a work-item, a sequential loop
//! over its `k`). Each work-item reads and writes whole vectors through vector pointers,
//! except the last ones of a padded (`tail=1`) candidate, which the code generator reads
//! clamped and writes lane by lane up to the length: the scalar tail.
//!
//! The width is the device model's [`DeviceModel::preferred_vector_width_f32`] in bytes
//! (four `f32` lanes of the default model, two `f64`, eight `f16`). Order: the padded
//! candidate of one vector per work-item (`k=1,tail=1`: every length, so it is the default
//! wherever it is taken untuned, a fissioned kernel's stages included), the exact one
//! (`k=1,tail=0`, a launch-time condition `w | n`: no padding, no tail), then the padded
//! coarsened ones for each `k > 1` of [`PER_ITEM`]; all of them before the reductions and the
//! default mapping. (An exact coarsened candidate would split by `n / (w k)`, a size the checker
//! cannot relate back to `n` without the fact `w k | n`; the padded ones serve those.)

use super::strategy::{Strategy, VectorMap};
use super::{lowered, push_found, Candidate, Dropped, Scope};
use crate::device::DeviceModel;
use crate::ir::{Expr, ExprKind, Program};
use crate::prim::Prim;
use crate::rewrite::build;
use crate::rewrite::vectorize::{coarsen, flatten_map, map_over, pad_map, vectorize_data};
use crate::rewrite::{RewriteCtx, Rule};
use crate::typeck::{check_program, KernelInfo};
use crate::types::{ScalarType, VECTOR_WIDTHS};

/// Vectors per work-item tried (coarsening), in order.
pub const PER_ITEM: &[i64] = &[1, 2, 4];

/// The configurations for elements of `elem` on `device`, in order of preference (none where
/// the model's vector holds fewer than two elements or a width OpenCL has no vector of).
pub fn configs(device: &DeviceModel, elem: ScalarType) -> Vec<VectorMap> {
    let bytes = match elem {
        ScalarType::F16 => 2,
        ScalarType::F64 => 8,
        _ => 4,
    };
    let w = device.preferred_vector_width_f32 * 4 / bytes;
    if !u32::try_from(w).is_ok_and(|w| VECTOR_WIDTHS.contains(&w) && w >= 2) {
        return Vec::new();
    }
    let exact = VectorMap {
        w,
        per_item: 1,
        tail: false,
    };
    let mut cs: Vec<VectorMap> = PER_ITEM
        .iter()
        .map(|&per_item| VectorMap {
            w,
            per_item,
            tail: true,
        })
        .collect();
    cs.insert(1, exact);
    cs
}

/// The body derived for `cfg` from the typed body `body` of kernel `kernel` of `prog`, typed:
/// `Ok(None)` where a rule does not match, an error where a rule's result does not
/// type-check.
pub fn derive(
    prog: &Program,
    kernel: &str,
    body: &Expr,
    cfg: VectorMap,
    ctx: &RewriteCtx,
) -> Result<Option<Expr>, String> {
    let Ok(w) = u32::try_from(cfg.w) else {
        return Ok(None);
    };
    let mut rules: Vec<Rule> = Vec::new();
    if cfg.tail {
        rules.push(pad_map(cfg.w * cfg.per_item));
    }
    rules.push(vectorize_data(w));
    if cfg.per_item > 1 {
        rules.push(coarsen(cfg.per_item));
    }
    let mut cur = body.clone();
    for r in rules {
        let Some(site) = map_site(&mut cur) else {
            return Ok(None);
        };
        let Some(new) = r.apply(site, ctx) else {
            return Ok(None);
        };
        *site = new;
        cur = typed(prog, kernel, cur).map_err(|e| format!("{}: {e}", r.name))?;
    }
    Ok(Some(cur))
}

/// The element-wise map of `body` (below the layouts earlier rules put around it: `take`,
/// `split`, `as_scalar`), `map(..) $ x`.
fn map_site(e: &mut Expr) -> Option<&mut Expr> {
    let ExprKind::Apply(f, xs) = &e.kind else {
        return None;
    };
    if f.prim_fun(Prim::Map).is_some() {
        return Some(e);
    }
    let layout = matches!(
        f.as_prim(),
        Some((Prim::Take | Prim::Split | Prim::AsScalar, _))
    );
    if !layout || xs.len() != 1 {
        return None;
    }
    let ExprKind::Apply(_, xs) = &mut e.kind else {
        return None;
    };
    map_site(xs.first_mut()?)
}

/// `body` as the body of `kernel`, type-checked.
fn typed(prog: &Program, kernel: &str, body: Expr) -> Result<Expr, String> {
    let mut p = prog.clone();
    let k = p.kernels.iter_mut().find(|k| k.name == kernel);
    k.ok_or("no such kernel")?.body = body;
    check_program(&mut p).map_err(|e| format!("type error: {e}"))?;
    Ok(p.kernel(kernel).ok_or("no such kernel")?.body.clone())
}

/// Appends the `vector` candidates of kernel `kernel` to `out` (none unless its body is an
/// element-wise map of a scalar function over views of float arrays, 1-D or 2-D); whether
/// exploring in `scope` stops here.
pub(super) fn candidates(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    (ctx, scope, device): (&RewriteCtx, Scope, &DeviceModel),
    (out, dropped): (&mut Vec<Candidate>, &mut Vec<Dropped>),
) -> bool {
    let Some(k) = prog.kernel(kernel) else {
        return false;
    };
    let body = match flatten_map().apply(&k.body, ctx) {
        Some(flat) => match typed(prog, kernel, flat) {
            Ok(b) => b,
            Err(_) => return false,
        },
        None => k.body.clone(),
    };
    let Some(elem) = element_type(&body) else {
        return false;
    };
    for cfg in configs(device, elem) {
        let new = match derive(prog, kernel, &body, cfg, ctx) {
            Ok(Some(new)) => new,
            Ok(None) => continue,
            Err(reason) => {
                let name = Strategy::Vector(cfg).name();
                dropped.push(Dropped { name, reason });
                continue;
            }
        };
        if let Some(c) = lowered(prog, kernel, info, new, Strategy::Vector(cfg), dropped) {
            if push_found(out, c, scope, info) {
                return true;
            }
        }
    }
    false
}

/// Data whose consecutive elements are consecutive in memory: a parameter, or `join` and
/// `split` of such (a vector of a reversed, transposed or padded view is not one load).
fn contiguous(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Apply(f, xs) => {
            let reshapes = build::chain(f).iter().all(|g| {
                build::is_bare(g, Prim::Join) || g.as_prim().is_some_and(|(p, _)| p == Prim::Split)
            });
            matches!(xs.as_slice(), [x] if reshapes && contiguous(x))
        }
        _ => false,
    }
}

/// The scalar type of the element-wise map of `body` (`split(m) $ ..` of a flattened one):
/// a map of a function giving a scalar over views of float arrays of one scalar type.
fn element_type(body: &Expr) -> Option<ScalarType> {
    let mut b = body.clone();
    let site = map_site(&mut b)?;
    let m = map_over(site)?;
    if !m.data.iter().all(|d| contiguous(d)) {
        return None;
    }
    let scalar = |d: &Expr| build::array(d.ty.as_ref())?.0.as_scalar();
    let s = scalar(m.data.first()?)?;
    if m.data.iter().any(|d| scalar(d) != Some(s)) {
        return None;
    }
    let out = m.f.ty.as_ref()?.as_scalar()?;
    (out != ScalarType::Bool).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_the_device_model() {
        let d = DeviceModel::DEFAULT;
        let cs = configs(&d, ScalarType::F32);
        let shown: Vec<(i64, i64, bool)> = cs.iter().map(|c| (c.w, c.per_item, c.tail)).collect();
        assert_eq!(
            shown,
            [(4, 1, true), (4, 1, false), (4, 2, true), (4, 4, true)]
        );
        assert!(configs(&d, ScalarType::F64).iter().all(|c| c.w == 2));
        assert!(configs(&d, ScalarType::F16).iter().all(|c| c.w == 8));
        let wide = DeviceModel {
            preferred_vector_width_f32: 8,
            ..d
        };
        assert!(configs(&wide, ScalarType::F32).iter().all(|c| c.w == 8));
        let scalar = DeviceModel {
            preferred_vector_width_f32: 1,
            ..d
        };
        assert!(configs(&scalar, ScalarType::F32).is_empty());
    }
}
