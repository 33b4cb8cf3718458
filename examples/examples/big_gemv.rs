//! A matrix-vector product past 2^31 elements (64-bit indices): `y = A x` with `A` of
//! `N x N` f32. At the default `N = 46341` the matrix holds 2,147,488,281 elements (8.6 GB),
//! so flat indices exceed `i32::MAX` and the launcher builds the kernel with 64-bit index
//! arithmetic; within `i32::MAX / 4` elements it keeps 32-bit indices (`LIFT_INDEX64=1`
//! forces 64-bit, to compare the two at one size). Rows are checked against an f64 CPU dot
//! product (the first, middle and last rows, whose elements lie past 2^31); prints the median
//! device time of the launches (profiling events) and the bandwidth.
//!
//! `cargo run --release --example big_gemv [-- N RUNS]` (needs `4 N^2` bytes of host and
//! device memory; POCL's largest buffer is 2 GB, so use `N <= 23170` there).

use examples::common::{context, positive, Res};
use lift_runtime::lift;

lift! {
    /// `y = A x`.
    pub kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
        map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a
    }
}

/// Element `(i, j)` of the matrix: small integers over 8, exact in f32.
fn a_at(i: usize, j: usize) -> f32 {
    ((i * 7 + j * 13) % 17) as f32 / 8.0 - 1.0
}

/// Command-line arguments.
#[derive(clap::Parser)]
#[command(about = "GEMV past 2^31 elements (64-bit indices)")]
struct Args {
    /// Rows and columns of the matrix.
    #[arg(default_value_t = 46341, value_parser = positive)]
    n: usize,
    /// Timed launches.
    #[arg(default_value_t = 20, value_parser = positive)]
    runs: usize,
}

fn main() -> Res<()> {
    let Args { n, runs } = clap::Parser::parse();
    let ctx = context()?;
    let elems = n * n;
    let wide = elems as i64 > lift_runtime::core::typeck::INDEX32_LIMIT
        || std::env::var("LIFT_INDEX64").is_ok_and(|v| v == "1");
    println!(
        "GEMV {n} x {n}: {elems} elements ({:.2} GB), {} indices",
        elems as f64 * 4e-9,
        if wide { "64-bit" } else { "32-bit" }
    );
    let mut a = vec![0f32; elems];
    for (i, row) in a.chunks_mut(n).enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = a_at(i, j);
        }
    }
    let x: Vec<f32> = (0..n).map(|j| (j % 5) as f32 * 0.25).collect();
    let (da, dx) = (ctx.upload(&a)?, ctx.upload(&x)?);
    drop(a);
    let out = ctx.alloc::<f32>(n)?;
    let k = Gemv::new(&ctx)?;
    let chosen = k.candidate_for(n, n)?;
    println!("candidate: {}", k.candidates()?[chosen].name);
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        times.push(k.launch(n, n, &da, &dx, &out)?.profile_ns()? as f64 * 1e-6);
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let y = out.download()?;
    let mut worst = 0f64;
    for i in [0, n / 2, n - 1] {
        let want: f64 = (0..n)
            .map(|j| f64::from(a_at(i, j)) * f64::from(x[j]))
            .sum();
        let err = (f64::from(y[i]) - want).abs() / want.abs().max(1.0);
        worst = worst.max(err);
        println!(
            "row {i}: device {} vs CPU {want} (relative error {err:.1e})",
            y[i]
        );
    }
    let gbs = (elems + 2 * n) as f64 * 4.0 / (median * 1e-3) * 1e-9;
    println!("median of {runs}: {median:.4} ms, {gbs:.1} GB/s");
    if worst > 1e-4 {
        return Err(format!("wrong result: relative error {worst:.1e}").into());
    }
    Ok(())
}
