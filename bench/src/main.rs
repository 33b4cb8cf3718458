//! `lift-bench [--quick] [--only WORKLOAD] [--out DIR] [--clblast PATH] [--torch FILE]`
//! runs the suite; `--spellings` (= `--only spellings`) runs the spellings-and-sizes part;
//! `lift-bench --report DIR [--torch FILE]` rewrites the table, CSV and plot
//! of an earlier run (merging PyTorch results).

use lift_bench::common::Config;
use lift_bench::report::Suite;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lift-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut cfg = Config::new(args.iter().any(|a| a == "--quick"));
    let mut report: Option<PathBuf> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs a value"))
        };
        match a.as_str() {
            "--quick" => {}
            "--only" => cfg.only = Some(val()?),
            "--spellings" => cfg.only = Some(lift_bench::SPELLINGS.into()),
            "--out" => cfg.out = val()?.into(),
            "--clblast" => cfg.clblast = Some(val()?.into()),
            "--torch" => cfg.torch = Some(val()?.into()),
            "--runs" => cfg.runs = val()?.parse()?,
            "--report" => report = Some(val()?.into()),
            "-h" | "--help" => {
                println!("lift-bench [--quick] [--only WORKLOAD | --spellings] [--out DIR] [--clblast PATH] [--torch FILE] [--runs N]\nlift-bench --report DIR [--torch FILE]\nworkloads: {}; `--only {1}` (or `--spellings`): the spellings-and-sizes part, not in the default suite", lift_bench::WORKLOADS.join(", "), lift_bench::SPELLINGS);
                return Ok(());
            }
            other => return Err(format!("unknown argument `{other}` (try --help)").into()),
        }
    }
    let mut suite = match report {
        Some(dir) => {
            cfg.out = dir.clone();
            if cfg.torch.is_none() && dir.join("torch.json").exists() {
                cfg.torch = Some(dir.join("torch.json"));
            }
            Suite::read(&dir.join("results.json"))?
        }
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
