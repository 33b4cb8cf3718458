//! 7-point Jacobi in 3-D with clamped borders, iterated by relaunching the kernel on swapped
//! device buffers; device time from profiling events; checked against a CPU loop.
//!
//! `cargo run --release -p examples --bin jacobi3d [-- N M K ITERATIONS]` (default
//! 128 128 128 5).

use lift_runtime::{lift, Context};

lift! {
    /// One Jacobi sweep: the mean of a point and its six face neighbours.
    pub kernel Jacobi3d<N, M, K>(x: [[[f32; K]; M]; N]) -> [[[f32; K]; M]; N] {
        map3(|nbh| (nbh[0][1][1] + nbh[2][1][1] + nbh[1][0][1] + nbh[1][2][1] + nbh[1][1][0] + nbh[1][1][2] + nbh[1][1][1]) / 7.0)
            o slide3(3, 1) o pad3(1, clamp) $ x
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
fn cpu_sweep(x: &[f32], [n, m, l]: [usize; 3]) -> Vec<f32> {
    let at = |p: [usize; 3], d: [isize; 3]| {
        let i = p[0].saturating_add_signed(d[0]).min(n - 1);
        let j = p[1].saturating_add_signed(d[1]).min(m - 1);
        let k = p[2].saturating_add_signed(d[2]).min(l - 1);
        x[(i * m + j) * l + k]
    };
    (0..n * m * l)
        .map(|q| {
            let p = [q / (m * l), q / l % m, q % l];
            (at(p, [-1, 0, 0])
                + at(p, [1, 0, 0])
                + at(p, [0, -1, 0])
                + at(p, [0, 1, 0])
                + at(p, [0, 0, -1])
                + at(p, [0, 0, 1])
                + at(p, [0, 0, 0]))
                / 7.0
        })
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dims = [arg(1, 128)?, arg(2, 128)?, arg(3, 128)?];
    let iters = arg(4, 5)?;
    let [n, m, l] = dims;
    let len = n * m * l;
    let ctx = Context::new()?;
    println!("device: {}", ctx.device_info());
    println!(
        "Jacobi3d {n}x{m}x{l}, {iters} iterations\n{}",
        Jacobi3d::SOURCE
    );
    let k = Jacobi3d::new(&ctx)?;
    let init: Vec<f32> = (0..len)
        .map(|i| ((i * 7919) % 1000) as f32 / 1000.0)
        .collect();
    let mut a = ctx.upload(&init)?;
    let mut b = ctx.alloc::<f32>(len)?;
    let mut device_ns = 0u64;
    for _ in 0..iters {
        device_ns += k.launch(n, m, l, &a, &b)?.profile_ns()?;
        std::mem::swap(&mut a, &mut b);
    }
    let got = a.download()?;
    let mut want = init;
    for _ in 0..iters {
        want = cpu_sweep(&want, dims);
    }
    let worst = got
        .iter()
        .zip(&want)
        .map(|(g, w)| (g - w).abs())
        .fold(0.0f32, f32::max);
    let per = device_ns as f64 / iters as f64 / 1e6;
    let gbs = (2 * len * 4) as f64 / (per * 1e6);
    println!("device time: {per:.3} ms per sweep ({gbs:.1} GB/s counting one read and one write)");
    println!("max |device - CPU| after {iters} sweeps = {worst:e}");
    if worst > 1e-5 {
        return Err(format!("Jacobi3d differs from the CPU by {worst}").into());
    }
    println!("ok");
    Ok(())
}
