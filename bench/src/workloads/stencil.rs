//! Stencils with clamped borders: 2-D Jacobi (5 points), 5x5 Gaussian, 3-D Jacobi (7 points)
//! and the separable 17x17 convolution (row pass then column pass).

use super::{Bench, LIFT_DEFAULT};
use crate::common::{par_map, random_vec, Config, Imp, Record, Reference, Work};
use crate::lift_kernels::{ConvCol, ConvRow, Gauss5, Jacobi2d, Jacobi3d};
use crate::opencl::{enqueue, kernel, STENCIL_CL};
use crate::timing::{Done, Ev, Gate, Res};
use lift_runtime::{Buffer, Context, KernelHandle};

/// The 17 weights of the separable convolution (triangle / 81), as written in the kernels.
pub const W17: [f32; 17] = [
    0.01234568, 0.02469136, 0.03703704, 0.04938272, 0.0617284, 0.07407407, 0.08641975, 0.09876543,
    0.11111111, 0.09876543, 0.08641975, 0.07407407, 0.0617284, 0.04938272, 0.03703704, 0.02469136,
    0.01234568,
];

/// Binomial 5-tap weights (the Gaussian is their outer product / 256).
const G5: [f32; 5] = [1.0, 4.0, 6.0, 4.0, 1.0];

/// CPU reference of a clamped 2-D stencil with `(2 ry + 1) x (2 rx + 1)` weights `w`.
fn ref2d(x: &[f64], rows: usize, cols: usize, ry: usize, rx: usize, w: &[f32]) -> Vec<f64> {
    let wx = 2 * rx + 1;
    par_map(rows * cols, |p| {
        let (i, j) = (p / cols, p % cols);
        let mut acc = 0.0;
        for dy in 0..=2 * ry {
            let y = (i + dy).saturating_sub(ry).min(rows - 1);
            for dx in 0..wx {
                let wv = f64::from(w[dy * wx + dx]);
                if wv != 0.0 {
                    let xx = (j + dx).saturating_sub(rx).min(cols - 1);
                    acc += wv * x[y * cols + xx];
                }
            }
        }
        acc
    })
}

/// A tiled hand-written 2-D stencil: kernel, weights, radii.
struct Tiled {
    k: KernelHandle,
    w: Buffer<f32>,
}

impl Tiled {
    fn new(ctx: &Context, ry: usize, rx: usize, w: &[f32]) -> Res<Tiled> {
        let k = kernel(
            ctx,
            STENCIL_CL,
            &format!("-DRY={ry} -DRX={rx}"),
            "stencil2d",
        )?;
        Ok(Tiled {
            k,
            w: ctx.upload(w)?,
        })
    }

    fn enqueue(&self, ctx: &Context, n: usize, input: &Buffer<f32>, out: &Buffer<f32>) -> Res<Ev> {
        self.k.set_buffer(0, input)?;
        self.k.set_buffer(1, out)?;
        self.k.set_buffer(2, &self.w)?;
        self.k.set_scalar(3, i32::try_from(n)?)?;
        self.k.set_scalar(4, i32::try_from(n)?)?;
        let g = [n.div_ceil(32) * 32, n.div_ceil(8) * 8];
        // SAFETY: `set` bound `input` and `out`, both of the `n` elements this launch covers.
        unsafe { enqueue(ctx, &self.k, &g, Some(&[32, 8])) }
    }
}

fn work2d(name: &'static str, n: usize, taps: usize) -> Work {
    Work {
        name,
        size: format!("{n}^2"),
        flops: 2.0 * taps as f64 * (n * n) as f64,
        bytes: 8.0 * (n * n) as f64,
        tol: 1e-5,
    }
}

/// jacobi2d, gauss5 and conv17 on `n x n`.
pub fn run2d(ctx: &Context, cfg: &Config, n: usize) -> Res<Vec<Record>> {
    let mut recs = Vec::new();
    if !["jacobi2d", "gauss5", "conv17"]
        .iter()
        .any(|w| cfg.selected(w))
    {
        return Ok(recs);
    }
    let xv = random_vec(n * n, 8);
    let xd: Vec<f64> = xv.iter().map(|&v| f64::from(v)).collect();
    let x = ctx.upload(&xv)?;
    let x = &x;
    drop(xv);
    let mut out = ctx.alloc::<f32>(n * n)?;
    let tmp = ctx.alloc::<f32>(n * n)?;

    let tiled = "OpenCL tiled (local 32x8)";
    let hand = |r: usize, w: &[f32]| {
        Tiled::new(ctx, r, r, w)
            .map(|t| move |o: &Buffer<f32>| Ok(Done::One(t.enqueue(ctx, n, x, o)?)))
    };

    if cfg.selected("jacobi2d") {
        eprintln!("jacobi2d (n = {n})");
        let w: Vec<f32> = vec![0.0, 0.2, 0.0, 0.2, 0.2, 0.2, 0.0, 0.2, 0.0];
        let work = work2d("jacobi2d", n, 5);
        let reference = Reference::full(ref2d(&xd, n, n, 1, 1, &w));
        let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
        b.default_lift(Jacobi2d::new(ctx), |k, o| Ok(k.launch(n, n, x, o)?));
        b.events(tiled, "opencl", "kernel events", hand(1, &w));
    }
    if cfg.selected("gauss5") {
        eprintln!("gauss5 (n = {n})");
        let w: Vec<f32> = (0..25).map(|p| G5[p / 5] * G5[p % 5] / 256.0).collect();
        let work = work2d("gauss5", n, 25);
        let reference = Reference::full(ref2d(&xd, n, n, 2, 2, &w));
        let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
        b.default_lift(Gauss5::new(ctx), |k, o| Ok(k.launch(n, n, x, o)?));
        b.events(tiled, "opencl", "kernel events", hand(2, &w));
    }
    if cfg.selected("conv17") {
        eprintln!("conv17 (n = {n})");
        let mut work = work2d("conv17", n, 34);
        work.size = format!("{n}^2, 17x17 separable");
        let reference = Reference::full(ref2d(&ref2d(&xd, n, n, 0, 8, &W17), n, n, 8, 0, &W17));
        let tmp = &tmp;
        let lift = ConvRow::new(ctx)
            .and_then(|r| Ok((r, ConvCol::new(ctx)?)))
            .map(|(r, c)| {
                move |o: &Buffer<f32>| {
                    r.launch(n, n, x, tmp)?;
                    Ok(Done::Last(Ev::Lift(c.launch(n, n, tmp, o)?)))
                }
            });
        let hand = Tiled::new(ctx, 0, 8, &W17)
            .and_then(|r| Ok((r, Tiled::new(ctx, 8, 0, &W17)?)))
            .map(|(r, c)| {
                move |o: &Buffer<f32>| {
                    Ok(Done::Many(vec![
                        r.enqueue(ctx, n, x, tmp)?,
                        c.enqueue(ctx, n, tmp, o)?,
                    ]))
                }
            });
        let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
        let imp = Imp::new(
            LIFT_DEFAULT,
            "lift",
            Gate::UserEvent,
            "gated span (2 passes)",
        );
        b.run(imp, lift);
        b.events("OpenCL tiled row + column", "opencl", "kernel events", hand);
    }
    Ok(recs)
}

/// jacobi3d on `n^3`.
pub fn run3d(ctx: &Context, cfg: &Config, n: usize) -> Res<Vec<Record>> {
    let mut recs = Vec::new();
    eprintln!("jacobi3d (n = {n})");
    let mut work = work2d("jacobi3d", n, 7);
    work.size = format!("{n}^3");
    work.flops = 7.0 * (n * n * n) as f64;
    work.bytes = 8.0 * (n * n * n) as f64;
    let xv = random_vec(n * n * n, 9);
    let reference = Reference::full(par_map(n * n * n, |p| {
        let (z, y, xx) = (p / (n * n), p / n % n, p % n);
        let at = |z: usize, y: usize, xx: usize| f64::from(xv[(z * n + y) * n + xx]);
        let (zm, zp) = (z.saturating_sub(1), (z + 1).min(n - 1));
        let (ym, yp) = (y.saturating_sub(1), (y + 1).min(n - 1));
        let (xm, xp) = (xx.saturating_sub(1), (xx + 1).min(n - 1));
        f64::from(0.142857f32)
            * (at(zm, y, xx)
                + at(z, ym, xx)
                + at(z, y, xm)
                + at(z, y, xx)
                + at(z, y, xp)
                + at(z, yp, xx)
                + at(zp, y, xx))
    }));
    let x = ctx.upload(&xv)?;
    let x = &x;
    drop(xv);
    let mut out = ctx.alloc::<f32>(n * n * n)?;
    let hand = kernel(ctx, STENCIL_CL, "-DRY=1 -DRX=1", "jacobi3d").map(|k| {
        move |o: &Buffer<f32>| {
            k.set_buffer(0, x)?;
            k.set_buffer(1, o)?;
            let ni = i32::try_from(n)?;
            for i in 2..5 {
                k.set_scalar(i, ni)?;
            }
            let local = n.is_multiple_of(32).then_some([32usize, 8, 1]);
            let local = local.as_ref().map(|l| &l[..]);
            // SAFETY: the arguments were set above, buffers of the `n^3` elements launched over.
            Ok(Done::One(unsafe { enqueue(ctx, &k, &[n, n, n], local) }?))
        }
    });
    let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
    b.default_lift(Jacobi3d::new(ctx), |k, o| Ok(k.launch(n, n, n, x, o)?));
    b.events("OpenCL direct (cached)", "opencl", "kernel events", hand);
    Ok(recs)
}
