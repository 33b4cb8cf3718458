//! lift-bench: a GPU benchmark suite of lift-rs against hand-written OpenCL, CLBlast and
//! PyTorch (cuBLAS/cuDNN), with a measured roofline. See `docs/BENCHMARKS.md`.

#![warn(missing_docs)]

pub mod clblast;
pub mod common;
pub mod lift_kernels;
pub mod opencl;
pub mod plot;
pub mod report;
pub mod roofline;
pub mod spelling_kernels;
pub mod timing;
pub mod workloads;

use common::{Config, Record, Sizes};
use report::Suite;
use timing::Res;

/// Names of all workloads, in run order.
pub const WORKLOADS: [&str; 9] = [
    "sum", "asum", "dot", "gemv", "gemm", "jacobi2d", "gauss5", "jacobi3d", "conv17",
];

/// The "spellings and sizes" part (`--spellings` or `--only spellings`; not in the default
/// suite; see `workloads::spellings`).
pub const SPELLINGS: &str = "spellings";

/// VGG-16's convolution layers (`--only vgg`; not in the default suite; see
/// `workloads::vgg`).
pub const VGG: &str = "vgg";

/// Runs the suite on the device of `Context::new()` (`LIFT_DEVICE`).
pub fn run_suite(cfg: &Config) -> Res<Suite> {
    if let Some(o) = &cfg.only {
        if !WORKLOADS.contains(&o.as_str()) && o != SPELLINGS && o != VGG {
            return Err(format!(
                "unknown workload `{o}`; one of {}, {SPELLINGS}, {VGG}",
                WORKLOADS.join(", ")
            )
            .into());
        }
    }
    for w in cfg.spelling_workloads.iter().flatten() {
        if !workloads::spellings::WORKLOADS.contains(&w.as_str()) {
            return Err(format!(
                "unknown spellings workload `{w}`; one of {}",
                workloads::spellings::WORKLOADS.join(", ")
            )
            .into());
        }
    }
    let ctx = lift_runtime::Context::new()?;
    let sizes = Sizes::new(cfg.quick);
    eprintln!("device: {}", ctx.device_info());
    let roofline = roofline::measure_roofline(&ctx, cfg)?;
    eprintln!(
        "roofline: copy {:.1} GB/s, read {:.1} GB/s, fma {:.1} GFLOP/s",
        roofline.copy_gbs, roofline.read_gbs, roofline.fma_gflops
    );
    let blas_loaded = clblast::ClBlast::load(cfg.clblast.as_deref());
    let blas_err = blas_loaded
        .as_ref()
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    let blas = blas_loaded.as_ref().map_err(|_| blas_err.as_str());
    if let Ok(b) = &blas {
        eprintln!("CLBlast: {}", b.path);
    } else {
        eprintln!("CLBlast: not available ({blas_err})");
    }
    let mut suite = Suite {
        device: ctx.device_info().name.clone(),
        date: report::today(),
        mode: if cfg.quick { "quick" } else { "full" }.into(),
        roofline,
        records: Vec::new(),
        sizes: Vec::new(),
    };
    type Step<'a> = Box<dyn Fn() -> Res<Vec<Record>> + 'a>;
    let steps: Vec<(&str, bool, Step)> = vec![
        (
            "sum/asum/dot",
            true,
            Box::new(|| workloads::reduce::run(&ctx, cfg, sizes.vec, blas)),
        ),
        (
            "gemv",
            cfg.selected("gemv"),
            Box::new(|| workloads::blas::gemv(&ctx, cfg, sizes.gemv, blas)),
        ),
        (
            "gemm",
            cfg.selected("gemm"),
            Box::new(|| workloads::blas::gemm(&ctx, cfg, sizes.gemm, blas)),
        ),
        (
            "2-D stencils",
            true,
            Box::new(|| workloads::stencil::run2d(&ctx, cfg, sizes.s2d)),
        ),
        (
            "jacobi3d",
            cfg.selected("jacobi3d"),
            Box::new(|| workloads::stencil::run3d(&ctx, cfg, sizes.s3d)),
        ),
        (
            SPELLINGS,
            cfg.only.as_deref() == Some(SPELLINGS),
            Box::new(|| workloads::spellings::run(&ctx, cfg, blas)),
        ),
        (
            VGG,
            cfg.only.as_deref() == Some(VGG),
            Box::new(|| workloads::vgg::run(&ctx, cfg, blas)),
        ),
    ];
    for (name, on, step) in steps {
        if !on {
            continue;
        }
        match step() {
            Ok(v) => suite.records.extend(v),
            Err(e) => eprintln!("{name}: skipped: {e}"),
        }
        // Partial results survive a later hang or crash.
        suite.sizes = sizes_of(&suite.records, &sizes);
        if let Err(e) = suite.write(&cfg.out) {
            eprintln!("could not write partial results: {e}");
        }
    }
    Ok(suite)
}

/// The size text of each workload present in `records`, in run order.
fn sizes_of(records: &[Record], sizes: &Sizes) -> Vec<(String, String)> {
    let size_text = |w: &str| match w {
        "sum" | "asum" | "dot" => format!("n = 2^{}", sizes.vec.trailing_zeros()),
        "gemv" => format!("{0}x{0}", sizes.gemv),
        "gemm" => format!("{}^3", sizes.gemm),
        "jacobi3d" => format!("{}^3", sizes.s3d),
        "conv17" => format!("{}^2 (17x17 separable)", sizes.s2d),
        _ => format!("{}^2", sizes.s2d),
    };
    let mut out: Vec<(String, String)> = WORKLOADS
        .iter()
        .filter(|w| records.iter().any(|r| r.workload == **w))
        .map(|w| (w.to_string(), size_text(w)))
        .collect();
    for r in records {
        let text = workloads::spellings::size_text(&r.workload)
            .or_else(|| workloads::vgg::size_text(&r.workload, sizes.quick));
        if let Some(t) = text {
            if !out.iter().any(|(w, _)| *w == r.workload) {
                out.push((r.workload.clone(), t));
            }
        }
    }
    out
}

/// Merges PyTorch results (if any), writes the outputs and the plots into `cfg.out`
/// (`spellings.{md,csv,json,png}` too when the suite has spellings records).
pub fn finish(suite: &mut Suite, cfg: &Config) -> Res<()> {
    if let Some(t) = &cfg.torch {
        match suite.merge_torch(t) {
            Ok(()) => eprintln!("merged PyTorch results from {}", t.display()),
            Err(e) => eprintln!("PyTorch results not merged ({}): {e}", t.display()),
        }
    }
    workloads::vgg::add_stack(suite);
    suite.write(&cfg.out)?;
    if let Err(e) = plot::draw(suite, &cfg.out.join("roofline.png")) {
        eprintln!("plot not drawn: {e}");
    }
    if workloads::spellings::write(suite, &cfg.out)? {
        if let Err(e) = plot::draw_spellings(suite, &cfg.out.join("spellings.png")) {
            eprintln!("spellings plot not drawn: {e}");
        }
    }
    Ok(())
}
