//! The convolution stack of VGG-16 (13 layers of 3x3 convolutions with zero padding, bias and
//! ReLU, and the 5 max-pooling layers between them), batch 1, f32, each written once in
//! lift-rs: one `Conv` kernel for every layer (sizes are size variables) and one `Pool`.
//! Weights are seeded random, scaled so that activations stay of order one. The first two
//! layers are checked against a plain Rust convolution; per layer it prints the candidate the
//! launcher runs (or the tuner chose, with `--tune`), the median time of the launches
//! (profiling events, from the start of a candidate's first kernel to the end of its last), GFLOP/s
//! and the device memory of its buffers (parameters and result; not the temporaries).
//!
//! `cargo run --release --example vgg16 [-- --size 224 --runs 5 --tune]` (`--size` a
//! multiple of 32; on POCL try `--size 32`).

use clap::Parser;
use examples::common::{context, Res};
use lift_runtime::{lift, Buffer};

lift! {
    /// 3x3 convolution, zero padding 1, stride 1, bias and ReLU: `F` filters over `C`
    /// channels of an `H x W` image.
    pub kernel Conv<H, W, C, F>(x: [[[f32; C]; W]; H], w: [[[[f32; C]; 3]; 3]; F], b: [f32; F])
        -> [[[f32; F]; W]; H] {
        map2(|win| map(|wb| max(0.0, wb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1)
            $ zip(join o join $ win, join o join $ wb.0)))) $ zip(w, b))
            o slide2(3, 1) o pad2(1, constant([0.0; C])) $ x
    }

    /// 2x2 max pooling, stride 2, per channel.
    pub kernel Pool<H, W, C>(x: [[[f32; C]; W]; H]) -> [[[f32; C]; (W - 2) / 2 + 1]; (H - 2) / 2 + 1] {
        map2(|win| map(|ch| reduce(max, -1.0e30) $ ch) o transpose o join $ win) o slide2(2, 2) $ x
    }
}

/// VGG-16's convolution stack: a number of filters, or 0 for a max-pooling layer.
const LAYERS: [usize; 18] = [
    64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0,
];

/// Command-line options.
#[derive(Parser)]
#[command(about = "VGG-16's convolution stack in lift-rs")]
struct Args {
    /// Height and width of the input image (a multiple of 32).
    #[arg(long, default_value_t = 224)]
    size: usize,
    /// Timed launches per layer (the median is printed).
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Tune every convolution layer first (the tuner's cache keeps the choices).
    #[arg(long)]
    tune: bool,
}

/// Deterministic pseudo-random values in `[-scale, scale)`.
fn seeded(len: usize, seed: u64, scale: f32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
        })
        .collect()
}

/// The convolution of `Conv` in plain Rust.
fn conv_reference(
    x: &[f32],
    w: &[f32],
    b: &[f32],
    (h, wd, c, f): (usize, usize, usize, usize),
) -> Vec<f32> {
    let mut out = vec![0f32; h * wd * f];
    for y in 0..h {
        for xx in 0..wd {
            for k in 0..f {
                let mut acc = 0f32;
                for dy in 0..3 {
                    for dx in 0..3 {
                        let (iy, ix) =
                            (y as isize + dy as isize - 1, xx as isize + dx as isize - 1);
                        if iy < 0 || ix < 0 || iy >= h as isize || ix >= wd as isize {
                            continue;
                        }
                        let px = (iy as usize * wd + ix as usize) * c;
                        let wk = ((k * 3 + dy) * 3 + dx) * c;
                        acc += (0..c).map(|ch| x[px + ch] * w[wk + ch]).sum::<f32>();
                    }
                }
                out[(y * wd + xx) * f + k] = (acc + b[k]).max(0.0);
            }
        }
    }
    out
}

/// Median device time of `runs` launches, in ms (from the first kernel's start to the last
/// kernel's end).
fn median_ms(
    runs: usize,
    mut launch: impl FnMut() -> lift_runtime::Result<lift_runtime::Event>,
) -> Res<f64> {
    let mut t = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        t.push(launch()?.span_ns()? as f64 * 1e-6);
    }
    t.sort_by(f64::total_cmp);
    Ok(t[t.len() / 2])
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1 << 20) as f64
}

fn main() -> Res<()> {
    let args = Args::parse();
    if args.size == 0 || args.size % 32 != 0 {
        return Err(format!("--size {}: expected a positive multiple of 32", args.size).into());
    }
    let ctx = context()?;
    let (conv, pool) = (Conv::new(&ctx)?, Pool::new(&ctx)?);
    let (mut h, mut w, mut c) = (args.size, args.size, 3usize);
    let mut x: Buffer<f32> = ctx.upload(&seeded(h * w * c, 1, 1.0))?;
    println!(
        "{:>5} {:>16} {:>28} {:>10} {:>9} {:>9}",
        "layer", "shape", "candidate", "ms", "GFLOP/s", "MiB"
    );
    let (mut total_ms, mut peak) = (0f64, 0usize);
    for (i, &f) in LAYERS.iter().enumerate() {
        let shape = format!("{h}x{w}x{c}");
        let (out, name, ms, flops, bytes) = if f == 0 {
            let (oh, ow) = (h / 2, w / 2);
            let out = ctx.alloc::<f32>(oh * ow * c)?;
            let chosen = pool.candidate_for(h, w, c)?;
            let ms = median_ms(args.runs, || pool.launch(h, w, c, &x, &out))?;
            let name = pool.candidates()?[chosen].name.clone();
            let (hw, flops) = ((oh, ow), (oh * ow * c * 3) as f64);
            (h, w) = hw;
            (out, name, ms, flops, 4 * (x.len() + oh * ow * c))
        } else {
            let wt = seeded(f * 9 * c, 10 + i as u64, (2.0 / (9 * c) as f32).sqrt());
            let b = seeded(f, 100 + i as u64, 0.1);
            let (dw, db) = (ctx.upload(&wt)?, ctx.upload(&b)?);
            let out = ctx.alloc::<f32>(h * w * f)?;
            if args.tune {
                let host = x.download()?;
                conv.tune(h, w, c, f, &host, &wt, &b)?;
            }
            let chosen = conv.candidate_for(h, w, c, f)?;
            let ms = median_ms(args.runs, || conv.launch(h, w, c, f, &x, &dw, &db, &out))?;
            if i < 2 {
                let want = conv_reference(&x.download()?, &wt, &b, (h, w, c, f));
                let got = out.download()?;
                let err = got
                    .iter()
                    .zip(&want)
                    .map(|(g, r)| (g - r).abs() / r.abs().max(1.0))
                    .fold(0f32, f32::max);
                if err > 1e-3 {
                    return Err(
                        format!("layer {i}: relative error {err} against plain Rust").into(),
                    );
                }
            }
            let name = conv.candidates()?[chosen].name.clone();
            let flops = (2 * h * w * f * 9 * c) as f64;
            let bytes = 4 * (x.len() + wt.len() + b.len() + out.len());
            c = f;
            (out, name, ms, flops, bytes)
        };
        total_ms += ms;
        peak = peak.max(bytes);
        println!(
            "{:>5} {:>16} {:>28} {:>10.3} {:>9.1} {:>9.1}",
            if f == 0 {
                format!("pool{i}")
            } else {
                format!("conv{i}")
            },
            shape,
            name,
            ms,
            flops / (ms * 1e-3) * 1e-9,
            mib(bytes)
        );
        x = out;
    }
    println!(
        "total: {total_ms:.3} ms; largest layer's buffers {:.1} MiB; output {h}x{w}x{c}",
        mib(peak)
    );
    Ok(())
}
