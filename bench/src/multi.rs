//! `lift-multi [--size N] [--gemm N] [--sum N] [--steps S] [--devices 1,2,4] [--out DIR]`:
//! strong scaling of kernels split over several devices ([`lift_runtime::SplitKernel`], SPEC
//! section 6), their data resident between launches: an iterated Jacobi 2-D stencil (halos
//! exchanged every step, `iterate_timed`), a matrix product (rows of `A` split, `B` on every
//! device) and a sum (partial sums folded on the host), launched again and again on the same
//! data (`repeat_timed`). Per workload and number of devices: the median time of a launch on the host clock
//! (halo exchange included), the median of the longest device's kernel time (profiling
//! events), throughput, speedup over one device and efficiency, measured in one process.
//! Devices: the first K of `LIFT_DEVICES` (every GPU by default); `LIFT_DEVICES=0,0` puts two
//! contexts on one device (a check of the machinery, not a scaling figure). Writes
//! `multi.csv`, `multi.json` and `multi.png` into `--out`.

use clap::Parser;
use lift_runtime::core::interp::{Scalar, Value};
use lift_runtime::{Devices, SplitKernel, Steps};
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};
use std::fmt::Write as _;
use std::path::PathBuf;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

#[derive(Parser)]
struct Args {
    /// Rows and columns of the Jacobi grid.
    #[arg(long, default_value_t = 16384)]
    size: usize,
    /// Order of the square matrix product.
    #[arg(long, default_value_t = 8192)]
    gemm: usize,
    /// Length of the summed array.
    #[arg(long, default_value_t = 1 << 28)]
    sum: usize,
    /// Launches per measurement (the first two are not counted).
    #[arg(long, default_value_t = 22)]
    steps: usize,
    /// Numbers of devices to measure (each at most the set's size).
    #[arg(long, default_value = "1,2,4")]
    devices: String,
    /// Output directory.
    #[arg(long, default_value = "bench-multi")]
    out: PathBuf,
}

const JACOBI: &str = "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|w| 0.2 * (w[0][1] + w[1][0] + w[1][1] + w[1][2] + w[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x }";
const GEMM: &str = "kernel K<N, P>(a: [[f32; P]; N], b: [[f32; P]; P]) -> [[f32; P]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) $ (transpose $ b)) $ a }";
const SUM: &str = "kernel K<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ x }";

/// One measurement.
struct Row {
    workload: &'static str,
    size: usize,
    devices: usize,
    step_ms: f64,
    kernel_ms: f64,
    /// Work per launch: bytes (stencil) or flops (product).
    work: f64,
    unit: &'static str,
}

fn matrix(rows: usize, cols: usize, seed: u64, scale: f32) -> Value {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        ((x >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
    };
    Value::Array(
        (0..rows)
            .map(|_| {
                Value::Array(
                    (0..cols)
                        .map(|_| Value::Scalar(Scalar::F32(next())))
                        .collect(),
                )
            })
            .collect(),
    )
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The launches of kernel `K` of `src` on `set`: iterated over its first parameter, or
/// repeated on the same data.
fn measure(
    set: &Devices,
    src: &str,
    sizes: &[usize],
    args: &[Value],
    steps: usize,
    iterated: bool,
) -> Res<Steps> {
    let k = SplitKernel::new(set, src, "K")?;
    eprintln!("  {}", k.placement(sizes)?);
    let (_, timed) = match iterated {
        true => k.iterate_timed(sizes, args, 0, steps)?,
        false => k.repeat_timed(sizes, args, steps)?,
    };
    Ok(timed)
}

fn main() -> Res<()> {
    let a = Args::parse();
    let all = Devices::new()?;
    let name = all.contexts()[0].device_info().name.clone();
    let counts: Vec<usize> = a
        .devices
        .split(',')
        .filter_map(|c| c.trim().parse().ok())
        .filter(|&c| c >= 1 && c <= all.len())
        .collect();
    let mut rows = Vec::new();
    let (n, g) = (a.size, a.gemm);
    let grid = [matrix(n, n, 1, 1.0)];
    let product = [matrix(g, g, 2, 1.0), matrix(g, g, 3, 1.0)];
    let summed = match matrix(1, a.sum, 4, 1.0) {
        Value::Array(mut rows) => [rows.swap_remove(0)],
        other => [other],
    };
    for &k in &counts {
        let set = Devices::from_contexts(all.contexts()[..k].to_vec())?;
        eprintln!("{k} device(s): Jacobi {n}^2");
        let t = measure(&set, JACOBI, &[n, n], &grid, a.steps, true)?;
        let bytes = 2.0 * 4.0 * (n * n) as f64;
        rows.push(row("jacobi2d", n, k, &t, bytes, "GB/s"));
        eprintln!("{k} device(s): product {g}^3");
        let t = measure(&set, GEMM, &[g, g], &product, a.steps.min(12), false)?;
        rows.push(row("gemm", g, k, &t, 2.0 * (g as f64).powi(3), "GFLOP/s"));
        eprintln!("{k} device(s): sum of {}", a.sum);
        let t = measure(&set, SUM, &[a.sum], &summed, a.steps, false)?;
        rows.push(row("sum", a.sum, k, &t, 4.0 * a.sum as f64, "GB/s"));
    }
    report(&name, &rows, &a.out)
}

fn row(
    workload: &'static str,
    size: usize,
    devices: usize,
    t: &Steps,
    work: f64,
    unit: &'static str,
) -> Row {
    let skip = 2.min(t.step_ms.len().saturating_sub(1));
    Row {
        workload,
        size,
        devices,
        step_ms: median(&t.step_ms[skip..]),
        kernel_ms: median(&t.kernel_ms[skip..]),
        work,
        unit,
    }
}

fn report(device: &str, rows: &[Row], out: &PathBuf) -> Res<()> {
    std::fs::create_dir_all(out)?;
    let base = |r: &Row| {
        rows.iter()
            .find(|b| b.workload == r.workload && b.devices == 1)
            .map(|b| b.step_ms)
    };
    let mut table = format!(
        "device: {device} (x{} in the set)\n",
        rows.iter().map(|r| r.devices).max().unwrap_or(1)
    );
    let _ = writeln!(
        table,
        "{:<10} {:>6} {:>4} {:>10} {:>10} {:>12} {:>8} {:>6}",
        "workload", "size", "devs", "step ms", "kernel ms", "throughput", "speedup", "eff"
    );
    let mut csv = String::from(
        "device,workload,size,devices,step_ms,kernel_ms,throughput,unit,speedup,efficiency\n",
    );
    let mut json = Vec::new();
    for r in rows {
        let speedup = base(r).map_or(f64::NAN, |b| b / r.step_ms);
        let through = r.work / r.step_ms / 1e6;
        let eff = speedup / r.devices as f64;
        let _ = writeln!(
            table,
            "{:<10} {:>6} {:>4} {:>10.3} {:>10.3} {:>7.0} {:<4} {:>7.2}x {:>5.0}%",
            r.workload,
            r.size,
            r.devices,
            r.step_ms,
            r.kernel_ms,
            through,
            r.unit,
            speedup,
            eff * 100.0
        );
        let _ = writeln!(
            csv,
            "\"{device}\",{},{},{},{:.6},{:.6},{through:.3},{},{speedup:.4},{eff:.4}",
            r.workload, r.size, r.devices, r.step_ms, r.kernel_ms, r.unit
        );
        json.push(serde_json::json!({"device": device, "workload": r.workload, "size": r.size, "devices": r.devices, "step_ms": r.step_ms, "kernel_ms": r.kernel_ms, "throughput": through, "unit": r.unit, "speedup": speedup, "efficiency": eff}));
    }
    print!("{table}");
    std::fs::write(out.join("multi.csv"), csv)?;
    std::fs::write(
        out.join("multi.json"),
        serde_json::to_string_pretty(&json)? + "\n",
    )?;
    plot(device, rows, &out.join("multi.png"), &base)
}

fn plot(
    device: &str,
    rows: &[Row],
    path: &std::path::Path,
    base: &dyn Fn(&Row) -> Option<f64>,
) -> Res<()> {
    register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
        .map_err(|_| "bad font")?;
    let most = rows.iter().map(|r| r.devices).max().unwrap_or(1) as f64;
    let root = BitMapBackend::new(path, (800, 600)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut ch = ChartBuilder::on(&root)
        .caption(format!("Strong scaling: {device}"), ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0.5f64..most + 0.5, 0f64..most + 0.5)?;
    ch.configure_mesh()
        .x_desc("devices")
        .y_desc("speedup over one device")
        .label_style(("sans-serif", 14))
        .draw()?;
    ch.draw_series(LineSeries::new(
        [(1.0, 1.0), (most, most)],
        BLACK.stroke_width(1),
    ))?
    .label("linear")
    .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
    for (w, color) in [
        ("jacobi2d", RGBColor(214, 39, 40)),
        ("gemm", RGBColor(31, 119, 180)),
        ("sum", RGBColor(44, 160, 44)),
    ] {
        let pts: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r.workload == w)
            .filter_map(|r| Some((r.devices as f64, base(r)? / r.step_ms)))
            .collect();
        ch.draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))?
            .label(w)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        ch.draw_series(pts.iter().map(|&p| Circle::new(p, 5, color.filled())))?;
    }
    ch.configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .label_font(("sans-serif", 14))
        .draw()?;
    root.present()?;
    Ok(())
}
