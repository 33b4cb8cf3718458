//! 7-point Jacobi in 3-D with clamped borders, iterated by relaunching the kernel on swapped
//! device buffers; device time from profiling events; checked against a CPU loop.
//!
//! `cargo run --release --example jacobi3d [-- N M K ITERATIONS]` (default
//! 128 128 128 5).

use examples::common::{context, positive, sweeps, Res};
use lift_runtime::lift;

lift! {
    /// One Jacobi sweep: the mean of a point and its six face neighbours.
    pub kernel Jacobi3d<N, M, K>(x: [[[f32; K]; M]; N]) -> [[[f32; K]; M]; N] {
        map3(|nbh| (nbh[0][1][1] + nbh[2][1][1] + nbh[1][0][1] + nbh[1][2][1] + nbh[1][1][0] + nbh[1][1][2] + nbh[1][1][1]) / 7.0)
            o slide3(3, 1) o pad3(1, clamp) $ x
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

/// Command-line arguments.
#[derive(clap::Parser)]
#[command(about = "7-point Jacobi in 3-D")]
struct Args {
    /// Size of the outer dimension.
    #[arg(default_value_t = 128, value_parser = positive)]
    n: usize,
    /// Size of the middle dimension.
    #[arg(default_value_t = 128, value_parser = positive)]
    m: usize,
    /// Size of the inner dimension.
    #[arg(default_value_t = 128, value_parser = positive)]
    k: usize,
    /// Sweeps.
    #[arg(default_value_t = 5, value_parser = positive)]
    iterations: usize,
}

fn main() -> Res<()> {
    let Args {
        n,
        m,
        k,
        iterations: iters,
    } = clap::Parser::parse();
    let dims = [n, m, k];
    let [n, m, l] = dims;
    let ctx = context()?;
    println!(
        "Jacobi3d {n}x{m}x{l}, {iters} iterations\n{}",
        Jacobi3d::SOURCE
    );
    let k = Jacobi3d::new(&ctx)?;
    sweeps(
        &ctx,
        "Jacobi3d",
        n * m * l,
        iters,
        |a, b| k.launch(n, m, l, a, b),
        |x| cpu_sweep(x, dims),
    )
}
