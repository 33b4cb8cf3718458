//! Soak and load (issue 38, item 5; `lift_tests::soak`): in one process, many kernel builds
//! and drops and many launches with their buffers, every result checked exactly, host memory
//! and the runtime's live OpenCL handles measured; then threads running random programs on
//! one shared context for a while, every result against the interpreter.
//!
//! ```sh
//! cargo run --release -p lift-tests --bin soak -- [--builds N] [--launches M]
//!     [--fresh-context-every K] [--max-len L] [--threads T] [--secs S] [--seed X]
//!     [--max-growth P] [--only soak|load]
//! ```
//!
//! Defaults: 10,000 builds, 1,000,000 launches, a fresh context every 100 builds, arrays of
//! up to 4096 elements; 16 threads for 600 s; RSS growth after the warm-up (the first tenth)
//! at most 5 %. Runs on the default device (`LIFT_DEVICE`).
//!
//! Exit status 1 when a result is wrong, a run fails, RSS grows more than `--max-growth`
//! percent after the warm-up, or an OpenCL handle is left alive.

use lift_runtime::Context;
use lift_tests::soak::{load, soak, LoadConfig, SoakConfig};

const USAGE: &str = "usage: soak [--builds N] [--launches M] [--fresh-context-every K] \
[--max-len L] [--threads T] [--secs S] [--seed X] [--max-growth P] [--only soak|load]";

fn main() {
    let mut s = SoakConfig::default();
    let mut l = LoadConfig::default();
    let mut max_growth = 5.0;
    let mut only: Option<String> = None;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut val = || {
            it.next().unwrap_or_else(|| {
                eprintln!("{a} needs a value\n{USAGE}");
                std::process::exit(2)
            })
        };
        let num = |v: String| -> f64 {
            v.replace('_', "").parse().unwrap_or_else(|_| {
                eprintln!("not a number: {v}\n{USAGE}");
                std::process::exit(2)
            })
        };
        match a.as_str() {
            "--builds" => s.builds = num(val()) as usize,
            "--launches" => s.launches = num(val()) as usize,
            "--fresh-context-every" => s.fresh_context_every = num(val()) as usize,
            "--max-len" => s.max_len = (num(val()) as usize).max(1),
            "--threads" => l.threads = num(val()) as usize,
            "--secs" => l.secs = num(val()),
            "--seed" => {
                let x = num(val()) as u64;
                s.seed = x;
                l.seed = x;
            }
            "--max-growth" => max_growth = num(val()),
            "--only" => only = Some(val()),
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            _ => {
                eprintln!("unknown argument {a}\n{USAGE}");
                std::process::exit(2)
            }
        }
    }
    let ctx = Context::new().unwrap_or_else(|e| {
        eprintln!("no OpenCL device: {e}");
        std::process::exit(2)
    });
    println!("device: {}", ctx.device_info().name);
    let mut problems = Vec::new();
    if only.as_deref() != Some("load") {
        println!(
            "soak: {} builds, {} launches, a fresh context every {} builds, arrays up to {} elements",
            s.builds, s.launches, s.fresh_context_every, s.max_len
        );
        let r = soak(&ctx, &s, &mut |line| println!("{line}"));
        println!("{r}");
        problems.extend(
            r.problems(max_growth)
                .into_iter()
                .map(|p| format!("soak: {p}")),
        );
    }
    if only.as_deref() != Some("soak") {
        println!(
            "load: {} threads for {} s on one context",
            l.threads, l.secs
        );
        let r = load(&ctx, &l, &|line| println!("{line}"));
        println!("{r}");
        problems.extend(r.problems().into_iter().map(|p| format!("load: {p}")));
    }
    if problems.is_empty() {
        println!("PASS");
    } else {
        for p in &problems {
            println!("FAIL: {p}");
        }
        std::process::exit(1);
    }
}
