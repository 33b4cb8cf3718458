//! `lift-bench [--quick] [--only WORKLOAD] [--out DIR] [--clblast PATH] [--torch FILE]`
//! runs the suite; `--spellings` (= `--only spellings`) runs the spellings-and-sizes part;
//! `lift-bench --report DIR[,MORE..] [--torch FILE]` rewrites the table, CSV and plot
//! of an earlier run (merging PyTorch results and the records of the runs in MORE).

use clap::Parser;
use lift_bench::common::Config;
use lift_bench::report::Suite;
use std::path::PathBuf;
use std::process::ExitCode;

/// GPU benchmark suite: lift-rs against hand-written OpenCL, CLBlast and PyTorch, with a
/// measured roofline (see docs/BENCHMARKS.md).
#[derive(Debug, Parser)]
#[command(name = "lift-bench", version, about, long_about = None)]
struct Args {
    /// Tiny sizes (seconds, POCL-friendly).
    #[arg(long)]
    quick: bool,
    /// Run only this workload: sum, asum, dot, gemv, gemm, jacobi2d, gauss5, jacobi3d,
    /// conv17, `spellings` (the spellings-and-sizes part) or `vgg` (VGG-16's convolution
    /// layers); the last two are not in the default suite.
    #[arg(long, value_name = "WORKLOAD", conflicts_with = "spellings")]
    only: Option<String>,
    /// The spellings-and-sizes part (= `--only spellings`).
    #[arg(long)]
    spellings: bool,
    /// With `--spellings`: only these workloads (gemm, jacobi, jacobi3d, gemv, blur, zip, transpose).
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        requires = "spellings"
    )]
    workloads: Option<Vec<String>>,
    /// With `--spellings`: only these sizes (e.g. 4096,4001); for `zip`, where none of them
    /// is one of its default lengths, the lengths measured (e.g. 67108864,67108867).
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        requires = "spellings"
    )]
    sizes: Option<Vec<usize>>,
    /// With `--only vgg`: only these layers (0..=8).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    layers: Option<Vec<usize>>,
    /// With `--only vgg`: also time every candidate that applies (time against memory).
    #[arg(long)]
    pareto: bool,
    /// With `--only vgg`: also the convolution annotated with `kernel_fission` (tuned).
    #[arg(long)]
    fission: bool,
    /// With `--only vgg`: also tuned within a bound on temporaries of the layer's im2col
    /// matrix (`Context::with_temporary_limit`).
    #[arg(long)]
    below_im2col: bool,
    /// Output directory (table, CSV, JSON, plots).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Path of libclblast.so.1 (default: the loader's search path).
    #[arg(long, value_name = "PATH")]
    clblast: Option<PathBuf>,
    /// PyTorch results (JSON from bench/scripts/torch_ref.py) to merge.
    #[arg(long, value_name = "FILE")]
    torch: Option<PathBuf>,
    /// Timed runs per implementation (at least).
    #[arg(long, value_name = "N")]
    runs: Option<usize>,
    /// Rewrite the table, CSV and plots of an earlier run in DIR (merging --torch results);
    /// `DIR,MORE,..` adds the records of the runs in MORE (one VGG layer per run, say).
    #[arg(long, value_name = "DIR", value_delimiter = ',')]
    report: Option<Vec<PathBuf>>,
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lift-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    let mut cfg = Config::new(args.quick);
    cfg.only = match args.spellings {
        true => Some(lift_bench::SPELLINGS.into()),
        false => args.only,
    };
    cfg.spelling_workloads = args.workloads;
    cfg.vgg_layers = args.layers;
    cfg.vgg_pareto = args.pareto;
    cfg.vgg_spellings = args.fission;
    cfg.vgg_below_im2col = args.below_im2col;
    cfg.spelling_sizes = args.sizes;
    if let Some(out) = args.out {
        cfg.out = out;
    }
    cfg.clblast = args.clblast;
    cfg.torch = args.torch;
    if let Some(runs) = args.runs {
        cfg.runs = runs;
    }
    let mut suite = match args.report.as_deref() {
        Some([dir, more @ ..]) => {
            cfg.out = dir.clone();
            if cfg.torch.is_none() && dir.join("torch.json").exists() {
                cfg.torch = Some(dir.join("torch.json"));
            }
            let mut suite = Suite::read(&dir.join("results.json"))?;
            for d in more {
                suite.absorb(Suite::read(&d.join("results.json"))?);
            }
            suite
        }
        Some([]) => return Err("--report needs a directory".into()),
        None => lift_bench::run_suite(&cfg)?,
    };
    lift_bench::finish(&mut suite, &cfg)?;
    println!("{}", suite.table());
    let spellings = lift_bench::workloads::spellings::table(&suite);
    if !spellings.is_empty() {
        println!("{spellings}");
    }
    println!("outputs in {}", cfg.out.display());
    Ok(())
}
