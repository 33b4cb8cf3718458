//! 5-point Jacobi in 2-D with clamped borders, iterated by relaunching the kernel on swapped
//! device buffers; device time from profiling events; checked against a CPU loop.
//!
//! `cargo run --release -p examples --bin jacobi2d [-- ROWS COLS ITERATIONS]` (default
//! 1024 1024 10).

use lift_runtime::{lift, Context};

lift! {
    /// One Jacobi sweep: the mean of a point and its four neighbours.
    pub kernel Jacobi2d<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
    }
}

/// Positional argument `i`, or `default` when absent.
fn arg(i: usize, default: usize) -> Result<usize, String> {
    match std::env::args().nth(i) {
        None => Ok(default),
        Some(s) => match s.parse() {
            Ok(v) if v > 0 => Ok(v),
            _ => Err(format!(
                "argument {i}: expected a positive integer, got `{s}`"
            )),
        },
    }
}

/// One sweep on the host, with the same operation order as the kernel.
fn cpu_sweep(x: &[f32], n: usize, m: usize) -> Vec<f32> {
    let at = |i: usize, j: usize, di: isize, dj: isize| {
        let r = i.saturating_add_signed(di).min(n - 1);
        let c = j.saturating_add_signed(dj).min(m - 1);
        x[r * m + c]
    };
    (0..n * m)
        .map(|k| {
            let (i, j) = (k / m, k % m);
            0.2 * (at(i, j, -1, 0)
                + at(i, j, 0, -1)
                + at(i, j, 0, 0)
                + at(i, j, 0, 1)
                + at(i, j, 1, 0))
        })
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (n, m, iters) = (arg(1, 1024)?, arg(2, 1024)?, arg(3, 10)?);
    let ctx = Context::new()?;
    println!("device: {}", ctx.device_info());
    println!("Jacobi2d {n}x{m}, {iters} iterations\n{}", Jacobi2d::SOURCE);
    let k = Jacobi2d::new(&ctx)?;
    let init: Vec<f32> = (0..n * m)
        .map(|i| ((i * 7919) % 1000) as f32 / 1000.0)
        .collect();
    let mut a = ctx.upload(&init)?;
    let mut b = ctx.alloc::<f32>(n * m)?;
    let mut device_ns = 0u64;
    for _ in 0..iters {
        device_ns += k.launch(n, m, &a, &b)?.profile_ns()?;
        std::mem::swap(&mut a, &mut b);
    }
    let got = a.download()?;
    let mut want = init;
    for _ in 0..iters {
        want = cpu_sweep(&want, n, m);
    }
    let worst = got
        .iter()
        .zip(&want)
        .map(|(g, w)| (g - w).abs())
        .fold(0.0f32, f32::max);
    let per = device_ns as f64 / iters as f64 / 1e6;
    let gbs = (2 * n * m * 4) as f64 / (per * 1e6);
    println!("device time: {per:.3} ms per sweep ({gbs:.1} GB/s counting one read and one write)");
    println!("max |device - CPU| after {iters} sweeps = {worst:e}");
    if worst > 1e-5 {
        return Err(format!("Jacobi2d differs from the CPU by {worst}").into());
    }
    println!("ok");
    Ok(())
}
