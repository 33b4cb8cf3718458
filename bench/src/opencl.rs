//! Hand-written OpenCL references (`bench/kernels/*.cl`, compiled into the binary and built
//! with [`Context::build`]): argument setting and enqueueing.

use crate::timing::{Ev, Res};
use lift_runtime::{Buffer, Context, KernelHandle};

/// Roofline probes.
pub const ROOFLINE_CL: &str = include_str!("../kernels/roofline.cl");
/// Reduction version 7 (sum, asum, dot) and GEMV.
pub const REDUCE_CL: &str = include_str!("../kernels/reduce.cl");
/// Tiled GEMM.
pub const GEMM_CL: &str = include_str!("../kernels/gemm.cl");
/// Tiled 2-D stencils and the 3-D Jacobi.
pub const STENCIL_CL: &str = include_str!("../kernels/stencil.cl");

/// Work-group size of the reduction and GEMV kernels.
pub const WG: usize = 256;

/// A kernel from `source` built with `options`.
pub fn kernel(ctx: &Context, source: &str, options: &str, name: &str) -> Res<KernelHandle> {
    Ok(ctx.build(source, options)?.kernel(name)?)
}

/// Enqueues `k` over `global` in groups of `local`.
///
/// # Safety
///
/// As [`KernelHandle::enqueue`]: every argument of `k` is set and holds what the kernel
/// accesses over `global`.
pub unsafe fn enqueue(
    ctx: &Context,
    k: &KernelHandle,
    global: &[usize],
    local: Option<&[usize]>,
) -> Res<Ev> {
    // SAFETY: the caller's contract.
    let e = unsafe { k.enqueue(ctx, global, local) }?;
    Ok(Ev::Lift(e))
}

/// Version-7 reduction: `groups` partial sums into `partial`, then one group reduces them into
/// `out[0]`. `k1` is `sum7`/`asum7`/`dot7` (with `y` for `dot7`), `k2` is `sum7`.
#[allow(clippy::too_many_arguments)]
pub fn reduce7(
    ctx: &Context,
    k1: &KernelHandle,
    k2: &KernelHandle,
    x: &Buffer<f32>,
    y: Option<&Buffer<f32>>,
    partial: &Buffer<f32>,
    out: &Buffer<f32>,
    n: usize,
) -> Res<Vec<Ev>> {
    let groups = partial.len();
    let mut i = 0;
    k1.set_buffer(i, x)?;
    i += 1;
    if let Some(y) = y {
        k1.set_buffer(i, y)?;
        i += 1;
    }
    k1.set_buffer(i, partial)?;
    k1.set_scalar(i + 1, u32::try_from(n)?)?;
    // SAFETY: the arguments of `k1` and `k2` were set above, for these sizes.
    let e1 = unsafe { enqueue(ctx, k1, &[groups * WG], Some(&[WG])) }?;
    k2.set_buffer(0, partial)?;
    k2.set_buffer(1, out)?;
    k2.set_scalar(2, u32::try_from(groups)?)?;
    // SAFETY: as above.
    let e2 = unsafe { enqueue(ctx, k2, &[WG], Some(&[WG])) }?;
    Ok(vec![e1, e2])
}

/// Number of first-pass groups for the version-7 reduction: 8 resident groups of 256 per
/// compute unit, but no more than the input needs.
pub fn reduce7_groups(ctx: &Context, n: usize) -> usize {
    let cus = ctx.device_info().compute_units.max(1) as usize;
    (8 * cus).min(n.div_ceil(2 * WG)).max(1)
}
