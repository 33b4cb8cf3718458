//! The plots come out on any machine: `finish` on a made-up suite (every workload, every
//! implementation class, spellings at two sizes with a failed row) draws `roofline.png` and
//! `spellings.png` with the font compiled into the binary, no system font needed.

use lift_bench::common::{Config, Record, SpellingInfo};
use lift_bench::report::Suite;
use lift_bench::roofline::Roofline;
use lift_bench::timing::Stats;
use std::path::Path;

fn record(workload: &str, imp: &str, class: &str, ms: Option<f64>, flops: f64) -> Record {
    Record {
        workload: workload.into(),
        implementation: imp.into(),
        class: class.into(),
        stats: ms.map(|m| Stats {
            median_ms: m,
            p10_ms: m * 0.9,
            p90_ms: m * 1.1,
            runs: 5,
        }),
        rel_err: Some(1e-7),
        status: if ms.is_some() {
            "ok".into()
        } else {
            "error: made up".into()
        },
        flops,
        bytes: 4e6,
        timing: "events".into(),
        spelling: None,
    }
}

fn suite() -> Suite {
    let mut records = Vec::new();
    let mut sizes = Vec::new();
    for (i, w) in lift_bench::WORKLOADS.iter().enumerate() {
        let flops = 1e6 * (1 + i * i * 40) as f64;
        for (j, (imp, class)) in [
            ("lift-rs", "lift"),
            ("lift-rs low-level", "lift-low"),
            ("hand-written", "opencl"),
            ("CLBlast", "clblast"),
            ("PyTorch", "pytorch"),
        ]
        .iter()
        .enumerate()
        {
            let ms = 0.05 + 0.01 * (i + j) as f64;
            records.push(record(w, imp, class, Some(ms), flops));
        }
        sizes.push((w.to_string(), format!("size {i}")));
    }
    for (n, round) in [(512, 512), (511, 512)] {
        for (k, (sp, mode, class)) in [
            ("a: map(map(...))", "untuned", "lift"),
            ("a: map(map(...))", "tuned", "lift"),
            ("b: map2", "tuned", "lift"),
            ("CLBlast sgemm", "reference", "clblast"),
        ]
        .iter()
        .enumerate()
        {
            // One failed row: drawn as a cross.
            let ms = (!(n == 511 && k == 2)).then_some(1.0 + k as f64 * 0.2);
            let mut r = record(
                &format!("gemm-{n}"),
                sp,
                class,
                ms,
                2.0 * (n as f64).powi(3),
            );
            r.spelling = Some(SpellingInfo {
                workload: "gemm".into(),
                spelling: sp.to_string(),
                n,
                round,
                elements: (n as f64).powi(3),
                mode: mode.to_string(),
                candidate: "blocked(tm=4)".into(),
                params: vec![("tm".into(), 4)],
                tuner: None,
            });
            records.push(r);
        }
    }
    Suite {
        device: "Made-up device".into(),
        date: "2026-01-01".into(),
        mode: "quick".into(),
        roofline: Roofline {
            copy_gbs: 100.0,
            read_gbs: 120.0,
            fma_gflops: 2000.0,
        },
        records,
        sizes,
    }
}

/// A PNG of exactly this size with more than `min_bytes` bytes (a blank image compresses to
/// far less).
fn check_png(path: &Path, width: u32, min_bytes: usize) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        &bytes[..8],
        b"\x89PNG\r\n\x1a\n",
        "{} is not a PNG",
        path.display()
    );
    let w = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
    assert_eq!(w, width, "{}", path.display());
    assert!(
        bytes.len() > min_bytes,
        "{}: only {} bytes",
        path.display(),
        bytes.len()
    );
}

#[test]
fn plots_are_drawn_without_system_fonts() {
    let mut cfg = Config::new(true);
    // `LIFT_BENCH_PLOT_DIR=dir` keeps the plots there, to look at them.
    let keep = std::env::var_os("LIFT_BENCH_PLOT_DIR");
    cfg.out = match &keep {
        Some(d) => d.into(),
        None => std::env::temp_dir().join(format!("lift-bench-plot-{}", std::process::id())),
    };
    std::fs::create_dir_all(&cfg.out).expect("out dir");
    let mut s = suite();
    lift_bench::finish(&mut s, &cfg).expect("outputs written");
    check_png(&cfg.out.join("roofline.png"), 1600, 20_000);
    check_png(&cfg.out.join("spellings.png"), 1800, 20_000);
    // An empty suite still gives a (sparse) roofline plot and no spellings plot.
    let empty = cfg.out.join("empty");
    std::fs::create_dir_all(&empty).expect("dir");
    let e = Suite {
        records: Vec::new(),
        sizes: Vec::new(),
        ..suite()
    };
    lift_bench::plot::draw(&e, &empty.join("roofline.png")).expect("empty plot");
    check_png(&empty.join("roofline.png"), 1600, 5_000);
    lift_bench::plot::draw_spellings(&e, &empty.join("spellings.png")).expect("no spellings");
    assert!(!empty.join("spellings.png").exists());
    if keep.is_none() {
        let _ = std::fs::remove_dir_all(&cfg.out);
    }
}
