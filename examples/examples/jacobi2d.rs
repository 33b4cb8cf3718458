//! 5-point Jacobi in 2-D with clamped borders, iterated by relaunching the kernel on swapped
//! device buffers; device time from profiling events; checked against a CPU loop.
//!
//! `cargo run --release --example jacobi2d [-- ROWS COLS ITERATIONS]` (default
//! 1024 1024 10).

use examples::common::{context, positive, sweeps, Res};
use lift_runtime::lift;

lift! {
    /// One Jacobi sweep: the mean of a point and its four neighbours.
    pub kernel Jacobi2d<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
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

/// Command-line arguments.
#[derive(clap::Parser)]
#[command(about = "5-point Jacobi in 2-D")]
struct Args {
    /// Rows.
    #[arg(default_value_t = 1024, value_parser = positive)]
    rows: usize,
    /// Columns.
    #[arg(default_value_t = 1024, value_parser = positive)]
    cols: usize,
    /// Sweeps.
    #[arg(default_value_t = 10, value_parser = positive)]
    iterations: usize,
}

fn main() -> Res<()> {
    let Args {
        rows: n,
        cols: m,
        iterations: iters,
    } = clap::Parser::parse();
    let ctx = context()?;
    println!("Jacobi2d {n}x{m}, {iters} iterations\n{}", Jacobi2d::SOURCE);
    let k = Jacobi2d::new(&ctx)?;
    sweeps(
        &ctx,
        "Jacobi2d",
        n * m,
        iters,
        |a, b| k.launch(n, m, a, b),
        |x| cpu_sweep(x, n, m),
    )
}
