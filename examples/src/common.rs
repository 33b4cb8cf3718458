//! Helpers of the stencil examples: arguments, inputs, iterated launches and host checks.

use lift_runtime::{Buffer, Context, Event};

/// The examples' result type.
pub type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// A `clap` value parser for a positive integer.
pub fn positive(s: &str) -> Result<usize, String> {
    match s.parse() {
        Ok(v) if v > 0 => Ok(v),
        _ => Err(format!("expected a positive integer, got `{s}`")),
    }
}

/// A context on the default device, whose name is printed.
pub fn context() -> Res<Context> {
    let ctx = Context::new()?;
    println!("device: {}", ctx.device_info());
    Ok(ctx)
}

/// `len` deterministic inputs in [0, 1): `(i * 7919) % modulus / modulus`.
pub fn pattern(len: usize, modulus: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ((i * 7919) % modulus) as f32 / modulus as f32)
        .collect()
}

/// Runs `launch(input, output)` `iters` times, swapping `a` and `b` after each so that `a`
/// holds the result; returns the summed device time in ns.
pub fn iterate(
    iters: usize,
    a: &mut Buffer<f32>,
    b: &mut Buffer<f32>,
    mut launch: impl FnMut(&Buffer<f32>, &Buffer<f32>) -> lift_runtime::Result<Event>,
) -> Res<u64> {
    let mut device_ns = 0u64;
    for _ in 0..iters {
        device_ns += launch(a, b)?.profile_ns()?;
        std::mem::swap(a, b);
    }
    Ok(device_ns)
}

/// `step` applied `iters` times to `x` on the host.
pub fn host_iterate(mut x: Vec<f32>, iters: usize, step: impl Fn(&[f32]) -> Vec<f32>) -> Vec<f32> {
    for _ in 0..iters {
        x = step(&x);
    }
    x
}

/// The largest `|got - want|`.
pub fn max_abs_diff(got: &[f32], want: &[f32]) -> f32 {
    got.iter()
        .zip(want)
        .map(|(g, w)| (g - w).abs())
        .fold(0.0f32, f32::max)
}

/// Fails when `worst` exceeds `tol`.
pub fn check(what: &str, worst: f32, tol: f32) -> Res<()> {
    if worst > tol {
        return Err(format!("{what} differs from the CPU by {worst}").into());
    }
    Ok(())
}

/// A Jacobi-style run: `iters` sweeps of `launch` on the device and of `sweep` on the host
/// from the `len` pattern inputs; prints the device time per sweep (bandwidth counting one
/// read and one write) and the difference, which must stay within 1e-5.
pub fn sweeps(
    ctx: &Context,
    name: &str,
    len: usize,
    iters: usize,
    launch: impl FnMut(&Buffer<f32>, &Buffer<f32>) -> lift_runtime::Result<Event>,
    sweep: impl Fn(&[f32]) -> Vec<f32>,
) -> Res<()> {
    let init = pattern(len, 1000);
    let mut a = ctx.upload(&init)?;
    let mut b = ctx.alloc::<f32>(len)?;
    let device_ns = iterate(iters, &mut a, &mut b, launch)?;
    let got = a.download()?;
    let want = host_iterate(init, iters, sweep);
    let worst = max_abs_diff(&got, &want);
    let per = device_ns as f64 / iters as f64 / 1e6;
    let gbs = (2 * len * 4) as f64 / (per * 1e6);
    println!("device time: {per:.3} ms per sweep ({gbs:.1} GB/s counting one read and one write)");
    println!("max |device - CPU| after {iters} sweeps = {worst:e}");
    check(name, worst, 1e-5)?;
    println!("ok");
    Ok(())
}
