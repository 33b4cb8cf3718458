//! GEMV (n x n) and GEMM (n x n x n), row-major.

use super::{lift_gate, Blas};
use crate::common::{bench_one, par_map, random_vec, Config, Imp, Record, Reference, Work};
use crate::lift_kernels::{Gemm, GemmGlb, Gemv};
use crate::opencl::{kernel, GEMM_CL, REDUCE_CL, WG};
use crate::timing::{Done, Ev, Gate, Res};
use lift_runtime::Context;

fn lift_done(gate: Gate, e: lift_runtime::Event) -> Done {
    if gate == Gate::None {
        Done::One(Ev::Lift(e))
    } else {
        Done::Last(Ev::Lift(e))
    }
}

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

    match Gemv::new(ctx) {
        Ok(k) => {
            let (gate, timing) = lift_gate(Gemv::SOURCE);
            let imp = Imp {
                name: "lift-rs default",
                class: "lift",
                gate,
                timing,
            };
            recs.push(bench_one(
                ctx,
                cfg,
                &work,
                imp,
                &mut out,
                &reference,
                &mut |o| Ok(lift_done(gate, k.launch(n, n, &a, &x, o)?)),
            ));
        }
        Err(e) => recs.push(work.unmeasured("lift-rs default", "lift", format!("error: {e}"))),
    }
    match kernel(ctx, REDUCE_CL, "", "gemv_row") {
        Ok(k) => {
            let imp = Imp {
                name: "OpenCL GEMV (group per row)",
                class: "opencl",
                gate: Gate::None,
                timing: "kernel event",
            };
            recs.push(bench_one(
                ctx,
                cfg,
                &work,
                imp,
                &mut out,
                &reference,
                &mut |o| {
                    k.set_buffer(0, &a)?;
                    k.set_buffer(1, &x)?;
                    k.set_buffer(2, o)?;
                    k.set_scalar(3, u32::try_from(n)?)?;
                    Ok(Done::One(Ev::Lift(k.enqueue(
                        ctx,
                        &[n * WG],
                        Some(&[WG]),
                    )?)))
                },
            ));
        }
        Err(e) => recs.push(work.unmeasured(
            "OpenCL GEMV (group per row)",
            "opencl",
            format!("error: {e}"),
        )),
    }
    match blas {
        Ok(b) => {
            let imp = Imp {
                name: "CLBlast Sgemv",
                class: "clblast",
                gate: Gate::Marker,
                timing: "marker span",
            };
            recs.push(bench_one(
                ctx,
                cfg,
                &work,
                imp,
                &mut out,
                &reference,
                &mut |o| Ok(Done::Last(b.gemv(ctx, n, n, &a, &x, o)?)),
            ));
        }
        Err(why) => {
            recs.push(work.unmeasured("CLBlast Sgemv", "clblast", format!("not available ({why})")))
        }
    }
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

    match Gemm::new(ctx) {
        Ok(k) => {
            let (gate, timing) = lift_gate(Gemm::SOURCE);
            let imp = Imp {
                name: "lift-rs default",
                class: "lift",
                gate,
                timing,
            };
            recs.push(bench_one(
                ctx,
                cfg,
                &work,
                imp,
                &mut out,
                &reference,
                &mut |o| Ok(lift_done(gate, k.launch(n, n, n, &a, &b, o)?)),
            ));
        }
        Err(e) => recs.push(work.unmeasured("lift-rs default", "lift", format!("error: {e}"))),
    }
    let low = "lift-rs low-level (map_glb(1)/map_glb(0))";
    match GemmGlb::new(ctx) {
        Ok(k) => {
            let (gate, timing) = lift_gate(GemmGlb::SOURCE);
            let imp = Imp {
                name: low,
                class: "lift-low",
                gate,
                timing,
            };
            recs.push(bench_one(
                ctx,
                cfg,
                &work,
                imp,
                &mut out,
                &reference,
                &mut |o| Ok(lift_done(gate, k.launch(n, n, n, &a, &b, o)?)),
            ));
        }
        Err(e) => recs.push(work.unmeasured(low, "lift-low", format!("error: {e}"))),
    }
    let tiled = "OpenCL tiled 64x64, 4x4 reg";
    if n.is_multiple_of(64) {
        match kernel(ctx, GEMM_CL, "", "gemm_tiled") {
            Ok(k) => {
                let imp = Imp {
                    name: tiled,
                    class: "opencl",
                    gate: Gate::None,
                    timing: "kernel event",
                };
                recs.push(bench_one(
                    ctx,
                    cfg,
                    &work,
                    imp,
                    &mut out,
                    &reference,
                    &mut |o| {
                        let ni = i32::try_from(n)?;
                        k.set_scalar(0, ni)?;
                        k.set_scalar(1, ni)?;
                        k.set_scalar(2, ni)?;
                        k.set_buffer(3, &a)?;
                        k.set_buffer(4, &b)?;
                        k.set_buffer(5, o)?;
                        let g = n / 64 * 16;
                        Ok(Done::One(Ev::Lift(k.enqueue(
                            ctx,
                            &[g, g],
                            Some(&[16, 16]),
                        )?)))
                    },
                ));
            }
            Err(e) => recs.push(work.unmeasured(tiled, "opencl", format!("error: {e}"))),
        }
    } else {
        recs.push(work.unmeasured(tiled, "opencl", "not available (n % 64 != 0)".into()));
    }
    match blas {
        Ok(bl) => {
            let imp = Imp {
                name: "CLBlast Sgemm",
                class: "clblast",
                gate: Gate::Marker,
                timing: "marker span",
            };
            recs.push(bench_one(
                ctx,
                cfg,
                &work,
                imp,
                &mut out,
                &reference,
                &mut |o| Ok(Done::Last(bl.gemm(ctx, n, &a, &b, o)?)),
            ));
        }
        Err(why) => {
            recs.push(work.unmeasured("CLBlast Sgemm", "clblast", format!("not available ({why})")))
        }
    }
    Ok(recs)
}
