//! `roofline.png`: achieved performance against the measured roofline (left, log-log) and the
//! fraction of the roofline per workload and implementation class (right).

use crate::report::Suite;
use crate::timing::Res;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};
use std::path::Path;

/// Fonts tried for labels (plotters' bitmap backend needs one registered).
const FONTS: [&str; 3] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
];

/// Implementation classes: key, legend text, colour.
const CLASSES: [(&str, &str, RGBColor); 5] = [
    ("lift", "lift-rs default", RGBColor(214, 39, 40)),
    ("lift-low", "lift-rs low-level", RGBColor(255, 127, 14)),
    ("opencl", "hand-written OpenCL", RGBColor(31, 119, 180)),
    ("clblast", "CLBlast", RGBColor(44, 160, 44)),
    ("pytorch", "PyTorch (cuBLAS/cuDNN)", RGBColor(148, 103, 189)),
];

fn load_font() -> Res<()> {
    for f in FONTS {
        if let Ok(bytes) = std::fs::read(f) {
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            register_font("sans-serif", FontStyle::Normal, bytes).map_err(|_| "bad font")?;
            return Ok(());
        }
    }
    Err("no DejaVuSans.ttf found for plot labels".into())
}

/// Draws `path` from `suite`.
pub fn draw(suite: &Suite, path: &Path) -> Res<()> {
    load_font()?;
    let r = &suite.roofline;
    let root = BitMapBackend::new(path, (1600, 700)).into_drawing_area();
    root.fill(&WHITE)?;
    let (left, right) = root.split_horizontally(800);
    let pts: Vec<_> = suite
        .records
        .iter()
        .filter(|x| x.status == "ok" && x.bytes > 0.0)
        .filter_map(|x| Some((x, x.gflops()?)))
        .collect();
    let bw = r.bw_gbs();
    let (ai_lo, ai_hi) = (0.1f64, 1000f64);
    let y_hi = (r.fma_gflops * 2.0).max(1.0);
    let y_lo = pts.iter().map(|p| p.1).fold(y_hi, f64::min).max(1e-3) / 2.0;
    let mut ch = ChartBuilder::on(&left)
        .caption(format!("Roofline: {}", suite.device), ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d((ai_lo..ai_hi).log_scale(), (y_lo..y_hi).log_scale())?;
    ch.configure_mesh()
        .x_desc("arithmetic intensity (flop / minimal byte)")
        .y_desc("GFLOP/s")
        .label_style(("sans-serif", 14))
        .draw()?;
    let roof = (0..=200).map(|i| {
        let ai = ai_lo * (ai_hi / ai_lo).powf(f64::from(i) / 200.0);
        (ai, (ai * bw).min(r.fma_gflops))
    });
    ch.draw_series(LineSeries::new(roof, BLACK.stroke_width(2)))?
        .label(format!(
            "measured roofline ({bw:.0} GB/s, {:.0} GFLOP/s)",
            r.fma_gflops
        ))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
    for (class, label, color) in CLASSES {
        let series: Vec<_> = pts
            .iter()
            .filter(|p| p.0.class == class)
            .map(|p| (p.0.flops / p.0.bytes, p.1))
            .collect();
        if series.is_empty() {
            continue;
        }
        ch.draw_series(
            series
                .iter()
                .map(|&(x, y)| Circle::new((x, y), 5, color.filled())),
        )?
        .label(label)
        .legend(move |(x, y)| Circle::new((x + 10, y), 5, color.filled()));
    }
    ch.configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .label_font(("sans-serif", 14))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;

    // Right: fraction of the roofline, one column per workload.
    let workloads: Vec<&str> = suite.sizes.iter().map(|(w, _)| w.as_str()).collect();
    let nw = workloads.len().max(1);
    let ymax = pts
        .iter()
        .filter_map(|p| p.0.fraction(r))
        .fold(1.0f64, f64::max)
        * 110.0;
    let mut ch = ChartBuilder::on(&right)
        .caption(
            "Achieved / measured roofline per workload",
            ("sans-serif", 20),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..(nw as f64 - 0.5), 0f64..ymax)?;
    let names = workloads.clone();
    ch.configure_mesh()
        .x_labels(nw)
        .x_label_formatter(&move |x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                names
                    .get(i as usize)
                    .map_or(String::new(), |s| s.to_string())
            } else {
                String::new()
            }
        })
        .y_desc("% of roofline (time floor / time)")
        .label_style(("sans-serif", 14))
        .draw()?;
    for (ci, (class, label, color)) in CLASSES.iter().enumerate() {
        let off = (ci as f64 - 2.0) * 0.15;
        let bars: Vec<_> = pts
            .iter()
            .filter(|p| p.0.class == *class)
            .filter_map(|p| {
                let w = workloads.iter().position(|w| *w == p.0.workload)?;
                Some((w as f64 + off, 100.0 * p.0.fraction(r)?))
            })
            .collect();
        if bars.is_empty() {
            continue;
        }
        let color = *color;
        ch.draw_series(
            bars.iter()
                .map(|&(x, y)| Rectangle::new([(x - 0.06, 0.0), (x + 0.06, y)], color.filled())),
        )?
        .label(*label)
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
    }
    ch.configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .label_font(("sans-serif", 14))
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    root.present()?;
    Ok(())
}
