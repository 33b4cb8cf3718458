//! The measured roofline: stream copy and read-only bandwidth, fp32 FMA throughput.

use crate::common::Config;
use crate::opencl::{enqueue, kernel, ROOFLINE_CL};
use crate::timing::{measure, Done, Gate, Res};
use lift_runtime::{Context, KernelHandle};

/// Measured ceilings of the device.
#[derive(Clone, Debug, Default)]
pub struct Roofline {
    /// Stream copy, bytes read + written per second / 1e9.
    pub copy_gbs: f64,
    /// Read-only bandwidth, GB/s.
    pub read_gbs: f64,
    /// fp32 FMA throughput (2 flops per FMA), GFLOP/s.
    pub fma_gflops: f64,
}

impl Roofline {
    /// The bandwidth ceiling used for fractions: the better of copy and read.
    pub fn bw_gbs(&self) -> f64 {
        self.copy_gbs.max(self.read_gbs)
    }

    /// The shortest time, in ms, a run moving `bytes` and doing `flops` can take.
    pub fn floor_ms(&self, flops: f64, bytes: f64) -> f64 {
        let t_mem = bytes / (self.bw_gbs() * 1e9);
        let t_flop = flops / (self.fma_gflops * 1e9);
        t_mem.max(t_flop) * 1e3
    }
}

/// Median time in ms of `k` over `global` work-items in groups of 256.
fn median_ms(ctx: &Context, cfg: &Config, k: &KernelHandle, global: usize) -> Res<f64> {
    // SAFETY: the arguments were set above, buffers of the `global` elements launched over.
    let run = &mut || {
        Ok(Done::One(unsafe {
            enqueue(ctx, k, &[global], Some(&[256]))
        }?))
    };
    let t = measure(ctx, Gate::None, cfg.warmup, cfg.runs, cfg.budget_s, run)?;
    Ok(t.median_ms)
}

/// Measures the three ceilings with `bench/kernels/roofline.cl`.
pub fn measure_roofline(ctx: &Context, cfg: &Config) -> Res<Roofline> {
    let n: usize = if cfg.quick { 1 << 22 } else { 1 << 28 };
    let n4 = n / 4;
    let cus = ctx.device_info().compute_units.max(1) as usize;
    let global = cus * 2048;
    let src = ctx.upload(&crate::common::random_vec(n, 99))?;
    let dst = ctx.alloc::<f32>(n)?;
    let part = ctx.alloc::<f32>(global)?;

    let copy = kernel(ctx, ROOFLINE_CL, "", "copy4")?;
    copy.set_buffer(0, &src)?;
    copy.set_buffer(1, &dst)?;
    copy.set_scalar(2, u32::try_from(n4)?)?;
    let ms = median_ms(ctx, cfg, &copy, global)?;
    let copy_gbs = 2.0 * (n * 4) as f64 / (ms * 1e6);

    let read = kernel(ctx, ROOFLINE_CL, "", "read4")?;
    read.set_buffer(0, &src)?;
    read.set_buffer(1, &part)?;
    read.set_scalar(2, u32::try_from(n4)?)?;
    let ms = median_ms(ctx, cfg, &read, global)?;
    let read_gbs = (n * 4) as f64 / (ms * 1e6);

    let iters: i32 = if cfg.quick { 256 } else { 4096 };
    let items = global * 4;
    let fout = ctx.alloc::<f32>(items)?;
    let fma = kernel(ctx, ROOFLINE_CL, "", "fma_chain")?;
    fma.set_buffer(0, &fout)?;
    fma.set_scalar(1, 0.999_f32)?;
    fma.set_scalar(2, 1e-4_f32)?;
    fma.set_scalar(3, iters)?;
    let ms = median_ms(ctx, cfg, &fma, items)?;
    let fma_gflops = 32.0 * f64::from(iters) * items as f64 / (ms * 1e6);
    Ok(Roofline {
        copy_gbs,
        read_gbs,
        fma_gflops,
    })
}
