//! 5x5 Gaussian blur (σ = 1, clamped borders) of a grayscale photograph, read and written as
//! PNG; the kernel is applied PASSES times by relaunching on swapped device buffers; device
//! time from profiling events; checked against a CPU convolution.
//!
//! `cargo run --release --example gaussian_blur [-- INPUT.png OUTPUT.png PASSES]`
//! (default `examples/assets/astronaut_gray.png bench-out/astronaut_blur.png 4`).

use examples::common::{check, context, host_iterate, iterate, max_abs_diff, Res};
use lift_runtime::lift;

lift! {
    /// One 5x5 convolution with the flattened weights `w`, clamped at the image borders.
    pub kernel Gauss5<H, W>(img: [[f32; W]; H], w: [f32; 25]) -> [[f32; W]; H] {
        map2(|nbh| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(join $ nbh, w)) o slide2(5, 1) o pad2(2, clamp) $ img
    }
}

/// The normalised 5x5 Gaussian of σ = 1, row-major.
fn weights() -> [f32; 25] {
    let mut w = [0.0f32; 25];
    for (k, v) in w.iter_mut().enumerate() {
        let (i, j) = ((k / 5) as f32 - 2.0, (k % 5) as f32 - 2.0);
        *v = (-(i * i + j * j) / 2.0).exp();
    }
    let sum: f32 = w.iter().sum();
    w.map(|v| v / sum)
}

/// One pass on the host.
fn cpu_pass(x: &[f32], h: usize, wd: usize, w: &[f32; 25]) -> Vec<f32> {
    (0..h * wd)
        .map(|q| {
            let (i, j) = (q / wd, q % wd);
            (0..25)
                .map(|k| {
                    let r = (i + k / 5).saturating_sub(2).min(h - 1);
                    let c = (j + k % 5).saturating_sub(2).min(wd - 1);
                    w[k] * x[r * wd + c]
                })
                .sum()
        })
        .collect()
}

/// Blurs a grey-scale PNG with PASSES passes of a 5x5 Gaussian on the default device.
#[derive(clap::Parser)]
#[command(name = "gaussian_blur")]
struct Args {
    /// The input image (PNG).
    #[arg(default_value = "examples/assets/astronaut_gray.png")]
    input: String,
    /// The output image (PNG).
    #[arg(default_value = "bench-out/astronaut_blur.png")]
    output: String,
    /// Passes of the blur.
    #[arg(default_value_t = 4)]
    passes: usize,
}

fn main() -> Res<()> {
    let Args {
        input,
        output,
        passes,
    } = clap::Parser::parse();
    let img = image::open(&input)
        .map_err(|e| format!("{input}: {e}"))?
        .to_luma8();
    let (wd, h) = (img.width() as usize, img.height() as usize);
    let pixels: Vec<f32> = img.as_raw().iter().map(|&p| f32::from(p) / 255.0).collect();
    let ctx = context()?;
    println!("{input}: {wd}x{h}, {passes} passes of a 5x5 Gaussian (σ = 1)");
    let k = Gauss5::new(&ctx)?;
    let w = weights();
    let wbuf = ctx.upload(&w)?;
    let mut a = ctx.upload(&pixels)?;
    let mut b = ctx.alloc::<f32>(wd * h)?;
    let device_ns = iterate(passes, &mut a, &mut b, |a, b| k.launch(h, wd, a, &wbuf, b))?;
    let got = a.download()?;
    let want = host_iterate(pixels, passes, |x| cpu_pass(x, h, wd, &w));
    let worst = max_abs_diff(&got, &want);
    println!(
        "device time: {:.3} ms per pass; max |device - CPU| = {worst:e}",
        device_ns as f64 / passes.max(1) as f64 / 1e6
    );
    check("Gauss5", worst, 1e-5)?;
    let bytes: Vec<u8> = got
        .iter()
        .map(|v| (v * 255.0).round().clamp(0.0, 255.0) as u8)
        .collect();
    let out = image::GrayImage::from_raw(wd as u32, h as u32, bytes).ok_or("image buffer size")?;
    if let Some(dir) = std::path::Path::new(&output).parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    out.save(&output).map_err(|e| format!("{output}: {e}"))?;
    println!("wrote {output}\nok");
    Ok(())
}
