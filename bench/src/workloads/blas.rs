//! GEMV (n x n) and GEMM (n x n x n), row-major.

use super::{Bench, Blas};
use crate::common::{par_map, random_vec, Config, Record, Reference, Work};
use crate::lift_kernels::{Gemm, GemmGlb, Gemv};
use crate::opencl::{enqueue, kernel, GEMM_CL, REDUCE_CL, WG};
use crate::timing::{Done, Res};
use lift_runtime::{Buffer, Context};

/// GEMV `y = A x` with A `n x n`.
pub fn gemv(ctx: &Context, cfg: &Config, n: usize, blas: Blas<'_>) -> Res<Vec<Record>> {
    let mut recs = Vec::new();
    eprintln!("gemv (n = {n})");
    let work = Work {
        name: "gemv",
        size: format!("{n}x{n}"),
        flops: 2.0 * (n * n) as f64,
        bytes: 4.0 * (n * n + 2 * n) as f64,
        tol: 1e-5,
    };
    let av = random_vec(n * n, 3);
    let xv = random_vec(n, 4);
    let reference = Reference::full(par_map(n, |i| {
        (0..n)
            .map(|j| f64::from(av[i * n + j]) * f64::from(xv[j]))
            .sum::<f64>()
    }));
    let a = ctx.upload(&av)?;
    drop(av);
    let x = ctx.upload(&xv)?;
    let mut out = ctx.alloc::<f32>(n)?;

    let (a, x) = (&a, &x);
    let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
    b.default_lift(Gemv::new(ctx), |k, o| Ok(k.launch(n, n, a, x, o)?));
    let row = kernel(ctx, REDUCE_CL, "", "gemv_row").map(|k| {
        move |o: &Buffer<f32>| {
            k.set_buffer(0, a)?;
            k.set_buffer(1, x)?;
            k.set_buffer(2, o)?;
            k.set_scalar(3, u32::try_from(n)?)?;
            // SAFETY: the arguments were set above, buffers of the sizes this launch covers.
            Ok(Done::One(unsafe {
                enqueue(ctx, &k, &[n * WG], Some(&[WG]))
            }?))
        }
    });
    b.events("OpenCL GEMV (group per row)", "opencl", "kernel event", row);
    b.clblast("CLBlast Sgemv", blas, |bl, o| bl.gemv(ctx, n, n, a, x, o));
    Ok(recs)
}

/// GEMM `C = A B`, all `n x n`; checked on 4096 sampled entries of C.
pub fn gemm(ctx: &Context, cfg: &Config, n: usize, blas: Blas<'_>) -> Res<Vec<Record>> {
    let mut recs = Vec::new();
    eprintln!("gemm (n = {n})");
    let work = Work {
        name: "gemm",
        size: format!("{n}^3"),
        flops: 2.0 * (n as f64).powi(3),
        bytes: 12.0 * (n * n) as f64,
        tol: 1e-5,
    };
    let av = random_vec(n * n, 5);
    let bv = random_vec(n * n, 6);
    let samples = 4096.min(n * n);
    let idx: Vec<usize> = (0..samples)
        .map(|s| {
            let r = crate::common::rand_at(77, s as u64);
            (((f64::from(r) + 1.0) / 2.0 * (n * n) as f64) as usize).min(n * n - 1)
        })
        .collect();
    let values = par_map(samples, |s| {
        let (i, j) = (idx[s] / n, idx[s] % n);
        (0..n)
            .map(|k| f64::from(av[i * n + k]) * f64::from(bv[k * n + j]))
            .sum::<f64>()
    });
    let reference = Reference {
        values,
        idx: Some(idx),
    };
    let a = ctx.upload(&av)?;
    let b = ctx.upload(&bv)?;
    drop((av, bv));
    let mut out = ctx.alloc::<f32>(n * n)?;

    let (a, bm) = (&a, &b);
    let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
    b.default_lift(Gemm::new(ctx), |k, o| Ok(k.launch(n, n, n, a, bm, o)?));
    let low = "lift-rs low-level (map_glb(1)/map_glb(0))";
    b.lift(low, "lift-low", GemmGlb::new(ctx), |k, o| {
        Ok(k.launch(n, n, n, a, bm, o)?)
    });
    let tiled = "OpenCL tiled 64x64, 4x4 reg";
    if n.is_multiple_of(64) {
        let run = kernel(ctx, GEMM_CL, "", "gemm_tiled").map(|k| {
            move |o: &Buffer<f32>| {
                let ni = i32::try_from(n)?;
                k.set_scalar(0, ni)?;
                k.set_scalar(1, ni)?;
                k.set_scalar(2, ni)?;
                k.set_buffer(3, a)?;
                k.set_buffer(4, bm)?;
                k.set_buffer(5, o)?;
                let g = n / 64 * 16;
                // SAFETY: the arguments were set above, buffers of the sizes this launch covers.
                Ok(Done::One(unsafe {
                    enqueue(ctx, &k, &[g, g], Some(&[16, 16]))
                }?))
            }
        });
        b.events(tiled, "opencl", "kernel event", run);
    } else {
        b.unavailable(tiled, "opencl", "n % 64 != 0");
    }
    b.clblast("CLBlast Sgemm", blas, |bl, o| bl.gemm(ctx, n, a, bm, o));
    Ok(recs)
}
