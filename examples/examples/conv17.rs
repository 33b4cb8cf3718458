//! Hagedorn's 17x17 separable convolution (MSc thesis 2016, final expression L18) with clamped
//! borders: the row kernel (144-wide tiles of 128 outputs in local memory) and the column
//! kernel (80x16 tiles of 64x16 outputs, loaded and computed in unrolled chunks of 8 rows by
//! a 16x8 work-group), against the naive 17x17 kernel and a CPU 2-D convolution.
//!
//! `cargo run --release --example conv17 [-- ROWS COLS]` (default 1024 1024; ROWS a
//! multiple of 64, COLS a multiple of 128).

use examples::common::{check, context, max_abs_diff, pattern, positive, Res};
use lift_runtime::lift;

lift! {
    /// convRow of L18: `pad2(0, 0, 8, 8)`, tiles `slide2(1, 1, 144, 128)` copied to local
    /// memory, then 17-point windows `slide2(1, 1, 17, 1)` of the tile.
    pub kernel ConvRow<N, M>(x: [[f32; M]; N], w: [f32; 17]) -> [[f32; M]; N] {
        map_wrg(1, join o map_wrg(0, |tile|
            join o map_lcl(1, map_lcl(0, |nbh| reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32) $ zip(join $ nbh, w)))
            o slide2(1, 1, 17, 1) o to_local(map_lcl(1, map_lcl(0, id))) $ tile
        )) o slide2(1, 1, 144, 128) o pad2(0, 0, 8, 8, clamp) $ x
    }

    /// convColumn of L18: `pad2(8, 8, 0, 0)`, tiles `slide2(80, 64, 16, 16)` copied to local
    /// memory in 10 unrolled chunks of 8 rows, then `slide2(17, 1, 1, 1)` windows computed in
    /// 8 unrolled chunks of 8 rows; `join o transpose` writes a row of tiles as 64 rows.
    pub kernel ConvCol<N, M>(x: [[f32; M]; N], w: [f32; 17]) -> [[f32; M]; N] {
        split(M) o join o join o map_wrg(1, join o transpose o map_wrg(0, |tile|
            join o map_seq_unroll(map_lcl(1, map_lcl(0, |nbh| reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32) $ zip(join $ nbh, w))))
            o split(8) o slide2(17, 1, 1, 1)
            o join o to_local(map_seq_unroll(map_lcl(1, map_lcl(0, id)))) o split(8) $ tile
        )) o slide2(80, 64, 16, 16) o pad2(8, 8, 0, 0, clamp) $ x
    }

    /// The naive 17x17 convolution (thesis Eq. 4) with the 289 weights flattened.
    pub kernel Conv2d<N, M>(x: [[f32; M]; N], k: [f32; 289]) -> [[f32; M]; N] {
        map2(|nbh| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(join $ nbh, k)) o slide2(17, 1) o pad2(8, clamp) $ x
    }
}

/// 17 normalised Gaussian taps of standard deviation `sigma`.
fn gaussian17(sigma: f32) -> [f32; 17] {
    let w: [f32; 17] = std::array::from_fn(|i| {
        let d = i as f32 - 8.0;
        (-d * d / (2.0 * sigma * sigma)).exp()
    });
    let sum: f32 = w.iter().sum();
    w.map(|v| v / sum)
}

/// The 2-D convolution with the 17x17 weights `k` (row-major) on the host, clamped.
fn cpu_conv(x: &[f32], n: usize, m: usize, k: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0f32; n * m];
    for (i, row) in out.chunks_mut(m).enumerate() {
        for a in 0..17 {
            let r = (i + a).saturating_sub(8).min(n - 1);
            let src = &x[r * m..(r + 1) * m];
            for b in 0..17 {
                let wk = k[a * 17 + b];
                for (j, o) in row.iter_mut().enumerate() {
                    *o += wk * src[(j + b).saturating_sub(8).min(m - 1)];
                }
            }
        }
    }
    out
}

/// Command-line arguments.
#[derive(clap::Parser)]
#[command(about = "Hagedorn's 17x17 separable convolution")]
struct Args {
    /// Rows (a multiple of 64).
    #[arg(default_value_t = 1024, value_parser = positive)]
    rows: usize,
    /// Columns (a multiple of 128).
    #[arg(default_value_t = 1024, value_parser = positive)]
    cols: usize,
}

fn main() -> Res<()> {
    let Args { rows: n, cols: m } = clap::Parser::parse();
    if n % 64 != 0 || m % 128 != 0 {
        return Err(format!("{n}x{m}: ROWS must be a multiple of 64 and COLS of 128").into());
    }
    let ctx = context()?;
    println!("17x17 convolution of {n}x{m} floats, clamped borders");
    println!("ConvCol (L18 column kernel):\n{}", ConvCol::SOURCE);
    let (row, col, full) = (ConvRow::new(&ctx)?, ConvCol::new(&ctx)?, Conv2d::new(&ctx)?);
    let (wx, wy) = (gaussian17(3.0), gaussian17(2.0));
    let k2: Vec<f32> = wy
        .iter()
        .flat_map(|a| wx.iter().map(move |b| a * b))
        .collect();
    let x = pattern(n * m, 1013);
    let input = ctx.upload(&x)?;
    let (wxb, wyb, kb) = (ctx.upload(&wx)?, ctx.upload(&wy)?, ctx.upload(&k2)?);
    let (tmp, sep, naive) = (ctx.alloc(n * m)?, ctx.alloc(n * m)?, ctx.alloc(n * m)?);
    let mut times = [u64::MAX; 3];
    for _ in 0..5 {
        times[0] = times[0].min(row.launch(n, m, &input, &wxb, &tmp)?.profile_ns()?);
        times[1] = times[1].min(col.launch(n, m, &tmp, &wyb, &sep)?.profile_ns()?);
        times[2] = times[2].min(full.launch(n, m, &input, &kb, &naive)?.profile_ns()?);
    }
    let ms = |t: u64| t as f64 / 1e6;
    println!(
        "device time (best of 5): row {:.3} ms + column {:.3} ms = {:.3} ms separable; naive 17x17 {:.3} ms ({:.1}x)",
        ms(times[0]),
        ms(times[1]),
        ms(times[0] + times[1]),
        ms(times[2]),
        times[2] as f64 / (times[0] + times[1]) as f64
    );
    let want = cpu_conv(&x, n, m, &k2);
    for (name, buf) in [("separable", &sep), ("naive", &naive)] {
        let got: Vec<f32> = buf.download()?;
        let worst = max_abs_diff(&got, &want);
        println!("{name}: max |device - CPU| = {worst:e}");
        check(&format!("{name} convolution"), worst, 1e-4)?;
    }
    println!("ok");
    Ok(())
}
