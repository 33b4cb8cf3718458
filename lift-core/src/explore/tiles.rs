//! Layout changes through local memory (issue 36, item 2): a map nest over a transposed view
//! (`map(map(f)) o transpose $ x`, `transpose_w o map(map(f)) $ x`, a bare `transpose $ x`)
//! reads along one dimension of memory and writes along the other. The candidates `tiles(t,
//! r, pad)` cut both dimensions into `t x t` tiles, a work-group of `t x r` work-items per
//! tile copying it to local memory with its lanes along rows of the input and writing it
//! back transposed with its lanes along rows of the result: both coalesced
//! ([`crate::rewrite::transpose`]). The code generator pads the local tile against bank
//! conflicts and places the barrier between the two copies.
//!
//! The sizes come from the device model: `t` its SIMD width (a warp reads or writes one row
//! segment of a tile; halved while the tile does not fit local memory), `r` such that the
//! group is the model's preferred one (8 for 32 x 256), then half of that (each work-item
//! copying twice as many rows). The exact tilings (`pad=0`, both sizes multiples of `t`)
//! come first, then the padded ones (`pad=1`, `clamp`-padded input, result cut with `take`:
//! every size), all before the default mapping.

use super::strategy::Strategy;
use super::{lowered, push_found, Candidate, Dropped, Scope};
use crate::device::DeviceModel;
use crate::ir::Program;
use crate::rewrite::build;
use crate::rewrite::transpose::{transpose_through_local, transposed, TileCopy};
use crate::rewrite::RewriteCtx;
use crate::typeck::KernelInfo;
use crate::types::{ScalarType, Type};

/// The tilings tried for elements of `elem_bytes` bytes on `device`, in order of preference:
/// exact ones, then padded ones.
pub fn configs(device: &DeviceModel, elem_bytes: i64) -> Vec<TileCopy> {
    let mut t = device.simd_width.max(2);
    while t > 2 && t * (t + 1) * elem_bytes > device.local_mem_bytes {
        t /= 2;
    }
    let group = device.group();
    let mut rows: Vec<i64> = [group / t, group / (2 * t)]
        .into_iter()
        .filter(|&r| r >= 1 && t % r == 0 && r * t <= device.max_work_group)
        .collect();
    rows.dedup();
    [false, true]
        .into_iter()
        .flat_map(|pad| rows.iter().map(move |&r| TileCopy { t, rows: r, pad }))
        .collect()
}

/// Bytes of a scalar of type `t` in local memory (8 where unknown).
fn bytes(t: &Type) -> i64 {
    match t.as_scalar() {
        Some(ScalarType::F16) => 2,
        Some(ScalarType::F32 | ScalarType::I32 | ScalarType::U32 | ScalarType::Bool) => 4,
        _ => 8,
    }
}

/// Appends the `tiles` candidates of kernel `kernel` to `out` (none unless its body is a map
/// nest over a transposed view of data); whether exploring in `scope` stops here.
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
    let Some(tr) = transposed(&k.body) else {
        return false;
    };
    if !build::is_view(&tr.d) {
        return false;
    }
    for cfg in configs(device, bytes(&tr.elem)) {
        let Some(new) = transpose_through_local(cfg).apply(&k.body, ctx) else {
            continue;
        };
        if let Some(c) = lowered(prog, kernel, info, new, Strategy::Tiles(cfg), dropped) {
            if push_found(out, c, scope, info) {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tilings_follow_the_device_model() {
        let d = DeviceModel::DEFAULT;
        let cs = configs(&d, 4);
        let shown: Vec<(i64, i64, bool)> = cs.iter().map(|c| (c.t, c.rows, c.pad)).collect();
        assert_eq!(
            shown,
            [(32, 8, false), (32, 4, false), (32, 8, true), (32, 4, true)]
        );
        // A 64-wide wavefront with little local memory: the tile halves until it fits.
        let amd = DeviceModel {
            simd_width: 64,
            local_mem_bytes: 8 * 1024,
            ..d
        };
        assert!(configs(&amd, 4).iter().all(|c| c.t == 32));
        assert!(configs(&amd, 8)
            .iter()
            .all(|c| c.t == 16 && c.rows * c.t <= 256));
    }
}
