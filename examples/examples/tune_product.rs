//! What tuning costs, exploration included (SPEC section 5, build cost): a matrix product is
//! built (the macro derived only its default configuration), tuned at `N x K x M` (the whole
//! space explored at run time, every candidate checked and timed), then run once with the
//! choice. Run it twice with the same `LIFT_CACHE_DIR`: the second process is answered by
//! the caches (explored candidates and tuning choice) without exploring or timing.
//!
//! ```text
//! cargo run --release --example tune_product -- [N [K M]]
//! ```

use examples::common::{context, pattern, positive, Res};
use lift_runtime::lift;
use std::time::Instant;

lift! {
    /// The matrix product of the README.
    pub kernel MatMul<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|row| map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, col)) o transpose $ b) $ a
    }
}

fn main() -> Res<()> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| positive(&a))
        .collect::<Result<_, _>>()?;
    let (n, k, m) = match args[..] {
        [] => (1024, 1024, 1024),
        [n] => (n, n, n),
        [n, k, m] => (n, k, m),
        _ => return Err("expected N or N K M".into()),
    };
    let started = Instant::now();
    let ctx = context()?;
    let t = Instant::now();
    let mm = MatMul::new(&ctx)?;
    let new_s = t.elapsed().as_secs_f64();
    let (a, b) = (pattern(n * k, 97), pattern(k * m, 89));
    let t = Instant::now();
    let tuned = mm.tune(n, k, m, &a, &b)?;
    let tune_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let out = mm.run(n, k, m, &a, &b)?;
    let run_s = t.elapsed().as_secs_f64();
    // A few elements against the host.
    let mut worst = 0f32;
    for s in 0..64 {
        let (i, j) = ((s * 7919) % n, (s * 104_729) % m);
        let want: f32 = (0..k).map(|p| a[i * k + p] * b[p * m + j]).sum();
        worst = worst.max((out[i * m + j] - want).abs() / want.abs().max(1.0));
    }
    println!("MatMul at {n} x {k} x {m}: {tuned}");
    println!(
        "new {new_s:.3} s, tune {tune_s:.3} s ({} candidates explored, from cache: {}), first run {run_s:.3} s, process {:.3} s",
        mm.candidates()?.len(),
        tuned.from_cache,
        started.elapsed().as_secs_f64()
    );
    println!("largest relative error of 64 elements: {worst:e}");
    if worst > 1e-3 {
        return Err("the result differs from the host's".into());
    }
    Ok(())
}
