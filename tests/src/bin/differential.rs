//! The differential run at scale (issue 13): random programs of every family compiled at run
//! time, run on the default device (`LIFT_DEVICE`) with random inputs, every candidate of the
//! explorer against the reference interpreter; failures shrunk, then reported.
//!
//! ```sh
//! cargo run --release -p lift-tests --bin differential -- --programs 10000 [--seed S] [--jobs J]
//!     [--races] [--rename] [--family NAME] [--shrink-budget N] [--failures FILE] [--seconds S]
//!     [--log]
//! ```
//!
//! `--rename` compiles every program with the names it binds renamed to the compiler's own
//! (`lift_tests::names::hostile`) and compares against the interpreter on the original.
//!
//! `--log` prints each program's seed when it starts and its time when it ends. A program
//! still running after `--hang S` seconds (default 300) is a failure ("hang"): once every
//! other program is done, the report is printed with it and the process exits, leaving
//! the stuck work-item's thread behind.
//!
//! `--seconds S` stops taking new programs after S seconds (the programs under way finish):
//! the report then counts the programs actually run.
//!
//! Exit status 1 when a program failed.

use lift_tests::diff::{self, CheckOptions, Outcome};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

struct Args {
    programs: u64,
    seed: u64,
    jobs: usize,
    races: bool,
    rename: bool,
    family: Option<String>,
    shrink_budget: usize,
    failures: Option<String>,
    show: Option<u64>,
    write_corpus: Option<String>,
    seconds: Option<u64>,
    log: bool,
    hang: u64,
}

const USAGE: &str = "usage: differential [--programs N] [--seed S] [--jobs J] [--races] \
[--rename] [--family NAME] [--shrink-budget N] [--failures FILE] [--show SEED] [--write-corpus DIR] \
[--seconds S] [--log] [--hang S]";

fn args() -> Result<Args, String> {
    let mut a = Args {
        programs: 10_000,
        seed: 0,
        jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
        races: false,
        rename: false,
        family: None,
        shrink_budget: 150,
        failures: None,
        show: None,
        write_corpus: None,
        seconds: None,
        log: false,
        hang: 300,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value\n{USAGE}"));
        let num = |s: String, name: &str| {
            s.parse::<u64>()
                .map_err(|e| format!("{name}: `{s}`: {e}\n{USAGE}"))
        };
        match flag.as_str() {
            "--programs" => a.programs = num(value("--programs")?, "--programs")?,
            "--seed" => a.seed = num(value("--seed")?, "--seed")?,
            "--seconds" => a.seconds = Some(num(value("--seconds")?, "--seconds")?),
            "--hang" => a.hang = num(value("--hang")?, "--hang")?.max(1),
            "--jobs" => a.jobs = num(value("--jobs")?, "--jobs")?.max(1) as usize,
            "--shrink-budget" => {
                a.shrink_budget = num(value("--shrink-budget")?, "--shrink-budget")? as usize
            }
            "--races" => a.races = true,
            "--rename" => a.rename = true,
            "--log" => a.log = true,
            "--family" => {
                let f = value("--family")?;
                if !diff::gen::FAMILIES.iter().any(|(n, _)| *n == f) {
                    let names: Vec<&str> = diff::gen::FAMILIES.iter().map(|f| f.0).collect();
                    return Err(format!(
                        "unknown family `{f}` (families: {})",
                        names.join(", ")
                    ));
                }
                a.family = Some(f);
            }
            "--failures" => a.failures = Some(value("--failures")?),
            "--write-corpus" => a.write_corpus = Some(value("--write-corpus")?),
            "--show" => a.show = Some(num(value("--show")?, "--show")?),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    Ok(a)
}

/// Counts per family: programs, agreed, rejected, failed.
#[derive(Default, Clone, Copy)]
struct Tally {
    programs: usize,
    agreed: usize,
    rejected: usize,
    failed: usize,
    candidate_runs: usize,
}

#[derive(Default)]
struct Report {
    families: BTreeMap<&'static str, Tally>,
    reasons: BTreeMap<String, (usize, u64)>,
    failures: Vec<String>,
}

fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if let Some(dir) = &a.write_corpus {
        // The program texts only (a fuzzing corpus): no device needed.
        for i in 0..a.programs {
            let c = diff::case(a.seed + i, a.family.as_deref());
            let path = format!("{dir}/{}-{}.lift", c.family, a.seed + i);
            if let Err(e) = std::fs::write(&path, &c.text) {
                eprintln!("cannot write {path}: {e}");
                std::process::exit(2);
            }
        }
        return;
    }
    let ctx = match lift_runtime::Context::new() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("no OpenCL device: {e}");
            std::process::exit(2);
        }
    };
    let opts = CheckOptions {
        races: a.races,
        rename: a.rename,
    };
    if let Some(seed) = a.show {
        let c = diff::case(seed, a.family.as_deref());
        println!("seed {seed} [{}] sizes {:?}\n{}", c.family, c.sizes, c.text);
        if a.rename {
            match lift_tests::names::hostile(&c.text, c.seed) {
                Ok(t) => println!("renamed:\n{t}"),
                Err(e) => println!("renamed: {e}"),
            }
        }
        println!("{:?}", diff::check(&ctx, &c, opts));
        return;
    }
    println!(
        "differential: {} programs from seed {} on `{}`, {} jobs{}{}",
        a.programs,
        a.seed,
        ctx.device_info().name,
        a.jobs,
        if a.races { ", race checker on" } else { "" },
        if a.rename { ", names renamed" } else { "" }
    );
    let start = Instant::now();
    let deadline = a.seconds.map(|s| start + std::time::Duration::from_secs(s));
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let report = Mutex::new(Report::default());
    // Seeds under way, with their start; workers still in their loop.
    let running: Mutex<BTreeMap<u64, (&'static str, Instant)>> = Mutex::new(BTreeMap::new());
    let live = AtomicU64::new(a.jobs as u64);
    // One context per job: a context's program cache builds one program at a time, so jobs
    // sharing one would wait for each other's OpenCL compiles.
    let mut contexts = vec![ctx.clone()];
    for _ in 1..a.jobs {
        match lift_runtime::Context::new() {
            Ok(c) => contexts.push(c),
            Err(e) => {
                eprintln!("no OpenCL device: {e}");
                std::process::exit(2);
            }
        }
    }
    std::thread::scope(|s| {
        for ctx in &contexts {
            let (next, done, report, a, running, live) =
                (&next, &done, &report, &a, &running, &live);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= a.programs || deadline.is_some_and(|d| Instant::now() >= d) {
                    live.fetch_sub(1, Ordering::Relaxed);
                    break;
                }
                let seed = a.seed + i;
                let c = diff::case(seed, a.family.as_deref());
                let t0 = Instant::now();
                if a.log {
                    eprintln!("seed {seed} [{}] start", c.family);
                }
                lock(running).insert(seed, (c.family, t0));
                let outcome = diff::check(ctx, &c, opts);
                lock(running).remove(&seed);
                if a.log {
                    eprintln!("seed {seed} done in {:.2} s", t0.elapsed().as_secs_f64());
                }
                let failure = match &outcome {
                    Outcome::Failed(kind, detail) => {
                        let (small, small_detail, checks) =
                            diff::shrink(ctx, &c, kind, opts, a.shrink_budget);
                        Some(format!(
                            "seed {seed} [{}] {kind}: {detail}\n  program (sizes {:?}):\n{}\n  shrunk in {checks} checks (sizes {:?}):\n{}\n  {}\n",
                            c.family,
                            c.sizes,
                            c.text,
                            small.sizes,
                            small.text,
                            if small_detail.is_empty() { detail } else { &small_detail }
                        ))
                    }
                    _ => None,
                };
                let mut r = lock(report);
                let t = r.families.entry(c.family).or_default();
                t.programs += 1;
                match &outcome {
                    Outcome::Agree(runs) => {
                        t.agreed += 1;
                        t.candidate_runs += runs;
                    }
                    Outcome::Rejected(m) => {
                        t.rejected += 1;
                        let e = r.reasons.entry(diff::reason(m)).or_insert((0, seed));
                        e.0 += 1;
                    }
                    Outcome::Failed(..) => t.failed += 1,
                }
                if let Some(f) = failure {
                    eprintln!("FAILED {f}");
                    r.failures.push(f);
                }
                drop(r);
                let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                if d.is_multiple_of(250) {
                    eprintln!(
                        "... {d}/{} programs, {:.0} s",
                        a.programs,
                        start.elapsed().as_secs_f64()
                    );
                }
            });
        }
        // The watchdog: once every worker is done or stuck on a program past `--hang`,
        // report (the stuck programs as failures) and exit without waiting for them.
        let hang = std::time::Duration::from_secs(a.hang);
        loop {
            std::thread::sleep(std::time::Duration::from_millis(200));
            let stuck: Vec<(u64, &'static str)> = lock(&running)
                .iter()
                .filter(|(_, (_, t0))| t0.elapsed() >= hang)
                .map(|(&seed, &(family, _))| (seed, family))
                .collect();
            let live = live.load(Ordering::Relaxed) as usize;
            if live == 0 || live > stuck.len() {
                if live == 0 {
                    break;
                }
                continue;
            }
            let mut r = lock(&report);
            for (seed, family) in stuck {
                let c = diff::case(seed, a.family.as_deref());
                let t = r.families.entry(family).or_default();
                t.programs += 1;
                t.failed += 1;
                r.failures.push(format!(
                    "seed {seed} [{family}] hang: still running after {} s\n  program (sizes {:?}):\n{}\n",
                    a.hang, c.sizes, c.text
                ));
            }
            let code = print_report(&r, &a, start);
            std::process::exit(code);
        }
    });
    let r = report.into_inner().unwrap_or_else(|p| p.into_inner());
    let code = print_report(&r, &a, start);
    std::process::exit(code);
}

/// Locks `m`, through a poisoned lock too (a panicking check is caught and counted).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Prints the report; the exit status: 1 when a program failed.
fn print_report(r: &Report, a: &Args, start: Instant) -> i32 {
    let total = r.families.values().fold(Tally::default(), |mut acc, t| {
        acc.programs += t.programs;
        acc.agreed += t.agreed;
        acc.rejected += t.rejected;
        acc.failed += t.failed;
        acc.candidate_runs += t.candidate_runs;
        acc
    });
    if total.programs < a.programs as usize {
        println!(
            "\nstopped after {:.0} s (--seconds or a hang): {} of {} programs run",
            start.elapsed().as_secs_f64(),
            total.programs,
            a.programs,
        );
    }
    println!(
        "\n{} programs in {:.0} s: {} agreed ({} candidate runs), {} rejected, {} failed",
        total.programs,
        start.elapsed().as_secs_f64(),
        total.agreed,
        total.candidate_runs,
        total.rejected,
        total.failed
    );
    println!(
        "\n{:<10} {:>8} {:>8} {:>8} {:>8} {:>10}",
        "family", "programs", "agreed", "rejected", "failed", "cand.runs"
    );
    for (f, t) in &r.families {
        println!(
            "{f:<10} {:>8} {:>8} {:>8} {:>8} {:>10}",
            t.programs, t.agreed, t.rejected, t.failed, t.candidate_runs
        );
    }
    let mut reasons: Vec<_> = r.reasons.iter().collect();
    reasons.sort_by_key(|r| std::cmp::Reverse(r.1 .0));
    println!("\nrejections by reason (count, first seed):");
    for (why, (n, seed)) in reasons {
        println!("{n:>6}  {why}  (seed {seed})");
    }
    if !r.failures.is_empty() {
        println!("\n{} failures:\n", r.failures.len());
        for f in &r.failures {
            println!("{f}");
        }
        if let Some(path) = &a.failures {
            if let Err(e) = std::fs::write(path, r.failures.join("\n")) {
                eprintln!("cannot write {path}: {e}");
            }
        }
        return 1;
    }
    0
}
