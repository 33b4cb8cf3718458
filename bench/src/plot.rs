//! `roofline.png`: achieved performance against the measured roofline (left, log-log) and the
//! fraction of the roofline per workload and implementation class (right).

use crate::report::Suite;
use crate::timing::Res;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};
use std::path::Path;

/// Implementation classes: key, legend text, colour.
const CLASSES: [(&str, &str, RGBColor); 5] = [
    ("lift", "lift-rs default", RGBColor(214, 39, 40)),
    ("lift-low", "lift-rs low-level", RGBColor(255, 127, 14)),
    ("opencl", "hand-written OpenCL", RGBColor(31, 119, 180)),
    ("clblast", "CLBlast", RGBColor(44, 160, 44)),
    ("pytorch", "PyTorch (cuBLAS/cuDNN)", RGBColor(148, 103, 189)),
];

/// Registers DejaVu Sans, compiled into the binary (the `dejavu` crate), for the labels:
/// the plot draws on machines without system fonts.
fn load_font() -> Res<()> {
    register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
        .map_err(|_| "bad font")?;
    Ok(())
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

/// Panel titles of `spellings.png`.
fn spelling_title(workload: &str) -> String {
    match workload {
        "gemm" => "GEMM C = A B".into(),
        "jacobi" => "Jacobi 2-D, 5 points, clamped".into(),
        "jacobi3d" => "Jacobi 3-D, 7 points, clamped".into(),
        "gemv" => "GEMV y = A x".into(),
        "zip" => "x + 2 y (zip of a computed array)".into(),
        w => w.into(),
    }
}

/// Colours of the lift-rs spellings a, b, c, ... (tuned; untuned is the same, lighter).
const SPELLING_COLOURS: [RGBColor; 6] = [
    RGBColor(214, 39, 40),
    RGBColor(255, 127, 14),
    RGBColor(31, 119, 180),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

/// `c` mixed with white (`amount` of white, 0..1).
fn lighter(c: RGBColor, amount: f64) -> RGBColor {
    let m = |v: u8| (f64::from(v) + (255.0 - f64::from(v)) * amount).round() as u8;
    RGBColor(m(c.0), m(c.1), m(c.2))
}

/// Draws `spellings.png`: one panel per workload, one group of bars per size, one bar per
/// spelling and mode (tuned solid, untuned light) and per reference (CLBlast green, PyTorch
/// purple); bar height = % of the measured roofline; a red cross marks a spelling that failed
/// or was wrong. Nothing is drawn without spellings records.
pub fn draw_spellings(suite: &Suite, path: &Path) -> Res<()> {
    let rows = crate::workloads::spellings::rows(suite);
    if rows.is_empty() {
        return Ok(());
    }
    load_font()?;
    let mut workloads: Vec<&str> = Vec::new();
    for r in &rows {
        if !workloads.contains(&r.sp.workload.as_str()) {
            workloads.push(&r.sp.workload);
        }
    }
    let panel_rows = workloads.len().div_ceil(2);
    let root = BitMapBackend::new(path, (1800, 560 * panel_rows as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(
        &format!(
            "Spellings and sizes: {} ({} mode), % of the measured roofline",
            suite.device, suite.mode
        ),
        ("sans-serif", 22),
    )?;
    let panels = root.split_evenly((panel_rows, 2));
    for (w, area) in workloads.iter().zip(panels.iter()) {
        spelling_panel(suite, &rows, w, area)?;
    }
    root.present()?;
    Ok(())
}

fn spelling_panel(
    suite: &Suite,
    rows: &[crate::workloads::spellings::Row<'_>],
    workload: &str,
    area: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>,
) -> Res<()> {
    let rows: Vec<_> = rows.iter().filter(|r| r.sp.workload == workload).collect();
    let mut sizes: Vec<usize> = Vec::new();
    // Bar keys: (spelling, mode, class), in record order.
    let mut keys: Vec<(&str, &str, &str)> = Vec::new();
    for r in &rows {
        if !sizes.contains(&r.sp.n) {
            sizes.push(r.sp.n);
        }
        let k = (
            r.sp.spelling.as_str(),
            r.sp.mode.as_str(),
            r.rec.class.as_str(),
        );
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    // Colours: lift-rs spellings by letter, references by class.
    let mut lift_spellings: Vec<&str> = Vec::new();
    let (mut n_clblast, mut n_torch) = (0, 0);
    let colours: Vec<RGBColor> = keys
        .iter()
        .map(|&(sp, mode, class)| match class {
            "clblast" => {
                n_clblast += 1;
                lighter(RGBColor(44, 160, 44), 0.4 * f64::from(n_clblast - 1))
            }
            "pytorch" => {
                n_torch += 1;
                lighter(RGBColor(148, 103, 189), 0.4 * f64::from(n_torch - 1))
            }
            _ => {
                let i = lift_spellings
                    .iter()
                    .position(|s| *s == sp)
                    .unwrap_or_else(|| {
                        lift_spellings.push(sp);
                        lift_spellings.len() - 1
                    });
                let c = SPELLING_COLOURS[i % SPELLING_COLOURS.len()];
                if mode == "untuned" {
                    lighter(c, 0.55)
                } else {
                    c
                }
            }
        })
        .collect();
    let r = &suite.roofline;
    let pct = |row: &crate::workloads::spellings::Row<'_>| {
        row.ms()
            .and_then(|_| row.rec.fraction(r))
            .map(|f| 100.0 * f)
    };
    let ymax = rows.iter().filter_map(|r| pct(r)).fold(10.0f64, f64::max) * 1.1;
    let (w, _) = area.dim_in_pixel();
    let (chart_area, legend) = area.split_horizontally(w.saturating_sub(380));
    let ns = sizes.len().max(1);
    let mut ch = ChartBuilder::on(&chart_area)
        .caption(spelling_title(workload), ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(55)
        .build_cartesian_2d(-0.5f64..(ns as f64 - 0.5), 0f64..ymax)?;
    let size_names: Vec<String> = sizes
        .iter()
        .map(|n| {
            crate::workloads::spellings::size_text(&format!("{workload}-{n}"))
                .unwrap_or_else(|| n.to_string())
        })
        .collect();
    ch.configure_mesh()
        .disable_x_mesh()
        .x_labels(ns)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                size_names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_desc("% of measured roofline")
        .label_style(("sans-serif", 14))
        .draw()?;
    let width = 0.84 / keys.len().max(1) as f64;
    for row in &rows {
        let k = (
            row.sp.spelling.as_str(),
            row.sp.mode.as_str(),
            row.rec.class.as_str(),
        );
        let (Some(ki), Some(si)) = (
            keys.iter().position(|x| *x == k),
            sizes.iter().position(|n| *n == row.sp.n),
        ) else {
            continue;
        };
        let x0 = si as f64 - 0.42 + ki as f64 * width;
        match pct(row) {
            Some(y) => {
                ch.draw_series(std::iter::once(Rectangle::new(
                    [(x0, 0.0), (x0 + 0.9 * width, y)],
                    colours[ki].filled(),
                )))?;
            }
            // Failed or wrong (not "not available"): a red cross at the bottom.
            None if !row.rec.status.starts_with("not available") => {
                ch.draw_series(std::iter::once(Cross::new(
                    (x0 + 0.45 * width, ymax * 0.03),
                    5,
                    RED.stroke_width(2),
                )))?;
            }
            None => {}
        }
    }
    // The legend, beside the chart.
    let font = ("sans-serif", 13).into_font();
    for (i, ((sp, mode, class), c)) in keys.iter().zip(&colours).enumerate() {
        let y = 40 + 20 * i as i32;
        legend.draw(&Rectangle::new([(6, y), (20, y + 14)], c.filled()))?;
        let mut label = if *class == "lift" {
            format!("{sp} ({mode})")
        } else {
            sp.to_string()
        };
        let unavailable = rows.iter().all(|r| {
            (
                r.sp.spelling.as_str(),
                r.sp.mode.as_str(),
                r.rec.class.as_str(),
            ) != (*sp, *mode, *class)
                || r.rec.status.starts_with("not available")
        });
        if unavailable {
            label += " (not available)";
        }
        if label.chars().count() > 52 {
            label = label.chars().take(51).collect::<String>() + "…";
        }
        legend.draw(&Text::new(label, (26, y), font.clone()))?;
    }
    let y = 40 + 20 * keys.len() as i32 + 6;
    legend.draw(&Cross::new((13, y + 7), 5, RED.stroke_width(2)))?;
    legend.draw(&Text::new("failed or wrong", (26, y), font))?;
    Ok(())
}
