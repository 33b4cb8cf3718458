//! Soak and load (issue 38, item 5): behaviour over time in one process.
//!
//! - [`soak`]: many kernel builds and drops (generated `lift!` structs and [`DynKernel`]s, and
//!   now and then a whole fresh [`Context`] with its OpenCL build) and many launches with
//!   their buffers (allocate, upload, launch, download, drop), every result checked exactly
//!   against a host computation; host memory (resident set) after a warm-up and at the end,
//!   and the runtime's live OpenCL handles ([`lift_runtime::live_objects`]) before and after.
//! - [`load`]: threads compiling and running random programs ([`crate::diff::case`], every
//!   candidate of each, [`crate::diff::check`]) on one shared [`Context`] for a while, every
//!   result against the reference interpreter.
//!
//! Driven by the `soak` binary (`cargo run --release -p lift-tests --bin soak`) and, with
//! small counts, by `tests/tests/soak.rs`. docs/RELIABILITY.md records the runs.

use crate::diff::{self, CheckOptions, Outcome};
use lift_runtime::core::interp::{Scalar, Value};
use lift_runtime::{lift, live_objects, Context, DynKernel, LiveObjects};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

lift! {
    /// A map of floats (exact: times two, plus one).
    kernel SoakAxpb<N>(x: [f32; N]) -> [f32; N] { map(|v| v * 2.0 + 1.0) $ x }

    /// A full reduction of integers (two kernels and a temporary per launch).
    kernel SoakSum<N>(x: [i32; N]) -> i32 { reduce(+, 0) $ x }

    /// A map over a zip of two integer arrays.
    kernel SoakZip<N>(x: [i32; N], y: [i32; N]) -> [i32; N] { map(|p| p.0 * 3 + p.1) $ zip(x, y) }
}

/// The programs built by [`DynKernel`] in the build loop: text, kernel name.
const DYN_PROGRAMS: [(&str, &str); 3] = [
    (
        "kernel D<N>(x: [f32; N]) -> [f32; N] { map(|v| v * 2.0 + 1.0) $ x }",
        "D",
    ),
    ("kernel S<N>(x: [i32; N]) -> i32 { reduce(+, 0) $ x }", "S"),
    (
        "kernel Z<N>(x: [i32; N], y: [i32; N]) -> [i32; N] { map(|p| p.0 * 3 + p.1) $ zip(x, y) }",
        "Z",
    ),
];

/// The host's resident set in KiB (`VmRSS` of `/proc/self/status`; 0 where there is none).
pub fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// What [`soak`] does.
#[derive(Clone, Debug)]
pub struct SoakConfig {
    /// Kernel builds and drops.
    pub builds: usize,
    /// Launches, each with its own buffers.
    pub launches: usize,
    /// The first of every this many builds is in a fresh context (its own OpenCL context,
    /// queue and program build), dropped after; 0: never.
    pub fresh_context_every: usize,
    /// The largest array length of a launch.
    pub max_len: usize,
    /// The seed of the sizes and data.
    pub seed: u64,
    /// The number of rounds: the first is the warm-up, RSS is sampled after each.
    pub rounds: usize,
}

impl Default for SoakConfig {
    fn default() -> SoakConfig {
        SoakConfig {
            builds: 10_000,
            launches: 1_000_000,
            fresh_context_every: 100,
            max_len: 4096,
            seed: 1,
            rounds: 10,
        }
    }
}

/// What [`soak`] found.
#[derive(Clone, Debug, Default)]
pub struct SoakReport {
    /// Kernel builds and drops done.
    pub builds: usize,
    /// Of them, in a fresh context.
    pub fresh_contexts: usize,
    /// Launches done.
    pub launches: usize,
    /// Elements checked.
    pub elements: u64,
    /// OpenCL compiler invocations on the shared context.
    pub opencl_builds: usize,
    /// Resident set after the warm-up round, KiB.
    pub rss_warm_kib: u64,
    /// Resident set at the end, KiB.
    pub rss_end_kib: u64,
    /// The largest resident set sampled after a round, KiB.
    pub rss_max_kib: u64,
    /// Live handles before anything ran.
    pub live_start: LiveObjects,
    /// Live handles after the warm-up round.
    pub live_warm: LiveObjects,
    /// Live handles at the end, everything dropped.
    pub live_end: LiveObjects,
    /// Wrong results and errors (the first few described in `failures`).
    pub failed: usize,
    /// The first failures.
    pub failures: Vec<String>,
    /// Wall time in seconds.
    pub secs: f64,
}

impl SoakReport {
    /// Growth of the resident set from the warm-up to the end, in percent.
    pub fn growth_percent(&self) -> f64 {
        if self.rss_warm_kib == 0 {
            return 0.0;
        }
        (self.rss_end_kib as f64 - self.rss_warm_kib as f64) * 100.0 / self.rss_warm_kib as f64
    }

    /// Why the run fails: wrong results or errors, RSS growth above `max_growth` percent
    /// after the warm-up, or handles left alive (every kind back to its count before the
    /// run, but programs, which stay in the shared context's cache: at most one per OpenCL
    /// build on it). Empty: it passes.
    pub fn problems(&self, max_growth: f64) -> Vec<String> {
        let mut p = Vec::new();
        if self.failed > 0 {
            p.push(format!("{} wrong results or errors", self.failed));
        }
        if self.growth_percent() > max_growth {
            p.push(format!(
                "RSS grew {:.2} % after the warm-up ({} KiB to {} KiB), more than {max_growth} %",
                self.growth_percent(),
                self.rss_warm_kib,
                self.rss_end_kib
            ));
        }
        p.extend(leaks(&self.live_start, &self.live_end, self.opencl_builds));
        p
    }
}

impl std::fmt::Display for SoakReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "soak: {} builds ({} in a fresh context, {} OpenCL builds on the shared one), {} launches, {} elements checked, {} failed, {:.1} s",
            self.builds, self.fresh_contexts, self.opencl_builds, self.launches, self.elements, self.failed, self.secs
        )?;
        writeln!(
            f,
            "soak: RSS after warm-up {} KiB, at the end {} KiB (growth {:+.2} %), largest sampled {} KiB",
            self.rss_warm_kib,
            self.rss_end_kib,
            self.growth_percent(),
            self.rss_max_kib
        )?;
        writeln!(f, "soak: live at start: {}", self.live_start)?;
        writeln!(f, "soak: live after warm-up: {}", self.live_warm)?;
        write!(f, "soak: live at end: {}", self.live_end)?;
        for x in &self.failures {
            write!(f, "\nsoak: failure: {x}")?;
        }
        Ok(())
    }
}

/// The handles alive at `end` that were not at `start`: every kind must be back to its count,
/// but programs, which may have grown by at most `builds` (the shared context's cache).
fn leaks(start: &LiveObjects, end: &LiveObjects, builds: usize) -> Vec<String> {
    let mut p = Vec::new();
    for (what, a, b) in [
        ("contexts", start.contexts, end.contexts),
        ("kernels", start.kernels, end.kernels),
        ("buffers", start.buffers, end.buffers),
        ("events", start.events, end.events),
    ] {
        if a != b {
            p.push(format!("{what} live: {a} at the start, {b} at the end"));
        }
    }
    if end.programs > start.programs + builds {
        p.push(format!(
            "programs live: {} at the start, {} at the end, after {builds} OpenCL builds on the shared context",
            start.programs, end.programs
        ));
    }
    p
}

/// Records a failure.
fn fail(r: &mut SoakReport, what: String) {
    r.failed += 1;
    if r.failures.len() < 10 {
        r.failures.push(what);
    }
}

/// A value of f32s.
fn f32_value(x: &[f32]) -> Value {
    Value::Array(x.iter().map(|&v| Value::Scalar(Scalar::F32(v))).collect())
}

/// A value of i32s.
fn i32_value(x: &[i32]) -> Value {
    Value::Array(x.iter().map(|&v| Value::Scalar(Scalar::I32(v))).collect())
}

/// The host computations.
fn axpb(x: &[f32]) -> Vec<f32> {
    x.iter().map(|v| v * 2.0 + 1.0).collect()
}
fn zip3(x: &[i32], y: &[i32]) -> Vec<i32> {
    x.iter().zip(y).map(|(a, b)| a * 3 + b).collect()
}

/// Random inputs of length `n`.
fn floats(rng: &mut StdRng, n: usize) -> Vec<f32> {
    (0..n).map(|_| rng.gen_range(-1000.0f32..1000.0)).collect()
}
fn ints(rng: &mut StdRng, n: usize) -> Vec<i32> {
    (0..n).map(|_| rng.gen_range(-1000..1000)).collect()
}

/// Build `i`: one of the programs (by `i`), built on `ctx`, run once at a small size and
/// checked, then dropped.
fn build_once(ctx: &Context, i: usize, rng: &mut StdRng, r: &mut SoakReport) {
    let n = rng.gen_range(1..=257);
    let which = i % (3 + DYN_PROGRAMS.len());
    let result: Result<bool, String> = (|| {
        let e = |e: lift_runtime::Error| e.to_string();
        Ok(match which {
            0 => {
                let k = SoakAxpb::new(ctx).map_err(e)?;
                let x = floats(rng, n);
                k.run(n, &x).map_err(e)? == axpb(&x)
            }
            1 => {
                let k = SoakSum::new(ctx).map_err(e)?;
                let x = ints(rng, n);
                k.run(n, &x).map_err(e)? == x.iter().sum::<i32>()
            }
            2 => {
                let k = SoakZip::new(ctx).map_err(e)?;
                let (x, y) = (ints(rng, n), ints(rng, n));
                k.run(n, &x, &y).map_err(e)? == zip3(&x, &y)
            }
            d => {
                let (text, name) = DYN_PROGRAMS[d - 3];
                let k = DynKernel::compile(ctx, text, name).map_err(e)?;
                match d - 3 {
                    0 => {
                        let x = floats(rng, n);
                        k.run(&[n], &[f32_value(&x)]).map_err(e)? == f32_value(&axpb(&x))
                    }
                    1 => {
                        let x = ints(rng, n);
                        k.run(&[n], &[i32_value(&x)]).map_err(e)?
                            == Value::Scalar(Scalar::I32(x.iter().sum()))
                    }
                    _ => {
                        let (x, y) = (ints(rng, n), ints(rng, n));
                        k.run(&[n], &[i32_value(&x), i32_value(&y)]).map_err(e)?
                            == i32_value(&zip3(&x, &y))
                    }
                }
            }
        })
    })();
    r.elements += n as u64;
    match result {
        Ok(true) => {}
        Ok(false) => fail(
            r,
            format!("build {i} (program {which}, n = {n}): wrong result"),
        ),
        Err(m) => fail(r, format!("build {i} (program {which}, n = {n}): {m}")),
    }
}

/// The kernels the launch loop uses, built once.
struct Launchers {
    axpb: SoakAxpb,
    sum: SoakSum,
    zip: SoakZip,
}

/// Launch `i`: one of the kernels (by `i`) on fresh buffers of a random length: allocate,
/// upload, launch, download, compare, drop.
fn launch_once(
    ctx: &Context,
    k: &Launchers,
    i: usize,
    rng: &mut StdRng,
    max_len: usize,
    r: &mut SoakReport,
) {
    let n = rng.gen_range(1..=max_len);
    let e = |e: lift_runtime::Error| e.to_string();
    let result: Result<bool, String> = (|| {
        Ok(match i % 3 {
            0 => {
                let x = floats(rng, n);
                let input = ctx.upload(&x).map_err(e)?;
                let out = ctx.alloc::<f32>(n).map_err(e)?;
                k.axpb
                    .launch(n, &input, &out)
                    .map_err(e)?
                    .wait()
                    .map_err(e)?;
                out.download().map_err(e)? == axpb(&x)
            }
            1 => {
                let x = ints(rng, n);
                let input = ctx.upload(&x).map_err(e)?;
                let out = ctx.alloc::<i32>(1).map_err(e)?;
                k.sum
                    .launch(n, &input, &out)
                    .map_err(e)?
                    .wait()
                    .map_err(e)?;
                out.download().map_err(e)? == [x.iter().sum::<i32>()]
            }
            _ => {
                let (x, y) = (ints(rng, n), ints(rng, n));
                let (bx, by) = (ctx.upload(&x).map_err(e)?, ctx.upload(&y).map_err(e)?);
                let out = ctx.alloc::<i32>(n).map_err(e)?;
                k.zip
                    .launch(n, &bx, &by, &out)
                    .map_err(e)?
                    .wait()
                    .map_err(e)?;
                out.download().map_err(e)? == zip3(&x, &y)
            }
        })
    })();
    r.elements += n as u64;
    match result {
        Ok(true) => {}
        Ok(false) => fail(
            r,
            format!("launch {i} (kernel {}, n = {n}): wrong result", i % 3),
        ),
        Err(m) => fail(r, format!("launch {i} (kernel {}, n = {n}): {m}", i % 3)),
    }
}

/// Runs the soak on `ctx` (see the [module docs](self)), in `cfg.rounds` rounds of builds
/// and launches; `progress` gets a line after each round.
pub fn soak(ctx: &Context, cfg: &SoakConfig, progress: &mut dyn FnMut(&str)) -> SoakReport {
    let t0 = Instant::now();
    let mut r = SoakReport {
        live_start: live_objects(),
        ..SoakReport::default()
    };
    let builds0 = ctx.builds();
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let rounds = cfg.rounds.max(1);
    {
        let launchers = match (|| {
            Ok::<_, lift_runtime::Error>(Launchers {
                axpb: SoakAxpb::new(ctx)?,
                sum: SoakSum::new(ctx)?,
                zip: SoakZip::new(ctx)?,
            })
        })() {
            Ok(l) => l,
            Err(e) => {
                fail(&mut r, format!("building the launch kernels: {e}"));
                return r;
            }
        };
        let (mut b, mut l) = (0, 0);
        for round in 0..rounds {
            let (b_end, l_end) = (
                cfg.builds * (round + 1) / rounds,
                cfg.launches * (round + 1) / rounds,
            );
            // Builds and launches interleaved, in proportion.
            while b < b_end || l < l_end {
                if b < b_end && (l >= l_end || b * cfg.launches.max(1) <= l * cfg.builds.max(1)) {
                    // The first of every `fresh_context_every` builds (build 0 too, so that the
                    // warm-up includes one).
                    if cfg.fresh_context_every > 0 && b % cfg.fresh_context_every == 0 {
                        match Context::new() {
                            Ok(fresh) => build_once(&fresh, b, &mut rng, &mut r),
                            Err(e) => fail(&mut r, format!("fresh context: {e}")),
                        }
                        r.fresh_contexts += 1;
                    } else {
                        build_once(ctx, b, &mut rng, &mut r);
                    }
                    b += 1;
                } else {
                    launch_once(ctx, &launchers, l, &mut rng, cfg.max_len, &mut r);
                    l += 1;
                }
            }
            let rss = rss_kib();
            r.rss_max_kib = r.rss_max_kib.max(rss);
            if round == 0 {
                r.rss_warm_kib = rss;
                r.live_warm = live_objects();
            }
            progress(&format!(
                "soak: round {}/{rounds}: {b} builds, {l} launches, RSS {rss} KiB, live {}, {} failed, {:.1} s",
                round + 1,
                live_objects(),
                r.failed,
                t0.elapsed().as_secs_f64()
            ));
        }
        r.builds = b;
        r.launches = l;
    }
    r.rss_end_kib = rss_kib();
    r.live_end = live_objects();
    r.opencl_builds = ctx.builds() - builds0;
    r.secs = t0.elapsed().as_secs_f64();
    r
}

/// What [`load`] does.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// Threads.
    pub threads: usize,
    /// For how long new programs are started, in seconds.
    pub secs: f64,
    /// The seed of the first program; each program takes the next.
    pub seed: u64,
}

impl Default for LoadConfig {
    fn default() -> LoadConfig {
        LoadConfig {
            threads: 16,
            secs: 600.0,
            seed: 0,
        }
    }
}

/// What [`load`] found.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    /// Threads run.
    pub threads: usize,
    /// Programs checked.
    pub programs: usize,
    /// Of them, agreeing with the interpreter on every candidate.
    pub agreed: usize,
    /// Of them, refused cleanly by the compiler (not errors).
    pub rejected: usize,
    /// Candidate runs, every one compared with the interpreter.
    pub runs: usize,
    /// Wrong results, errors and panics.
    pub failed: usize,
    /// The first failures: seed, kind, details.
    pub failures: Vec<String>,
    /// OpenCL compiler invocations on the shared context.
    pub opencl_builds: usize,
    /// Resident set before and after, KiB.
    pub rss_start_kib: u64,
    /// Resident set after, KiB.
    pub rss_end_kib: u64,
    /// Live handles before the threads started.
    pub live_start: LiveObjects,
    /// Live handles after they all finished.
    pub live_end: LiveObjects,
    /// Wall time in seconds.
    pub secs: f64,
}

impl LoadReport {
    /// Why the run fails: failures, or handles left alive (see [`SoakReport::problems`]).
    pub fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        if self.failed > 0 {
            p.push(format!("{} programs failed", self.failed));
        }
        if self.programs == 0 {
            p.push("no program ran".into());
        }
        p.extend(leaks(&self.live_start, &self.live_end, self.opencl_builds));
        p
    }
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "load: {} threads, {:.1} s: {} programs ({} agreed, {} rejected, {} failed), {} candidate runs checked, {} OpenCL builds",
            self.threads, self.secs, self.programs, self.agreed, self.rejected, self.failed, self.runs, self.opencl_builds
        )?;
        writeln!(
            f,
            "load: RSS {} KiB before, {} KiB after",
            self.rss_start_kib, self.rss_end_kib
        )?;
        writeln!(f, "load: live before: {}", self.live_start)?;
        write!(f, "load: live after: {}", self.live_end)?;
        for x in &self.failures {
            write!(f, "\nload: failure: {x}")?;
        }
        Ok(())
    }
}

/// Runs `cfg.threads` threads on the shared `ctx`, each checking random programs
/// ([`diff::case`] of the next seed, [`diff::check`]) until `cfg.secs` have passed;
/// `progress` gets a line about every 10 % of the time.
pub fn load(ctx: &Context, cfg: &LoadConfig, progress: &(dyn Fn(&str) + Sync)) -> LoadReport {
    let t0 = Instant::now();
    let live_start = live_objects();
    let rss_start_kib = rss_kib();
    let builds0 = ctx.builds();
    let next = AtomicU64::new(cfg.seed);
    let counts: [AtomicUsize; 5] = Default::default(); // programs, agreed, rejected, runs, failed
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            s.spawn(|| {
                while t0.elapsed().as_secs_f64() < cfg.secs {
                    let seed = next.fetch_add(1, Ordering::Relaxed);
                    let c = diff::case(seed, None);
                    let outcome = diff::check(ctx, &c, CheckOptions::default());
                    counts[0].fetch_add(1, Ordering::Relaxed);
                    match outcome {
                        Outcome::Agree(runs) => {
                            counts[1].fetch_add(1, Ordering::Relaxed);
                            counts[3].fetch_add(runs, Ordering::Relaxed);
                        }
                        Outcome::Rejected(_) => {
                            counts[2].fetch_add(1, Ordering::Relaxed);
                        }
                        Outcome::Failed(kind, detail) => {
                            counts[4].fetch_add(1, Ordering::Relaxed);
                            let mut f = failures.lock().unwrap_or_else(|p| p.into_inner());
                            if f.len() < 10 {
                                f.push(format!("seed {seed} ({}): {kind}: {detail}", c.family));
                            }
                        }
                    }
                }
            });
        }
        s.spawn(|| {
            let step = (cfg.secs / 10.0).max(1.0);
            let mut next_report = step;
            while t0.elapsed().as_secs_f64() < cfg.secs {
                std::thread::sleep(std::time::Duration::from_millis(200));
                if t0.elapsed().as_secs_f64() >= next_report {
                    next_report += step;
                    progress(&format!(
                        "load: {:.0} s: {} programs, {} failed, RSS {} KiB, live {}",
                        t0.elapsed().as_secs_f64(),
                        counts[0].load(Ordering::Relaxed),
                        counts[4].load(Ordering::Relaxed),
                        rss_kib(),
                        live_objects()
                    ));
                }
            }
        });
    });
    let n = |i: usize| counts[i].load(Ordering::Relaxed);
    LoadReport {
        threads: cfg.threads.max(1),
        programs: n(0),
        agreed: n(1),
        rejected: n(2),
        runs: n(3),
        failed: n(4),
        failures: failures.into_inner().unwrap_or_else(|p| p.into_inner()),
        opencl_builds: ctx.builds() - builds0,
        rss_start_kib,
        rss_end_kib: rss_kib(),
        live_start,
        live_end: live_objects(),
        secs: t0.elapsed().as_secs_f64(),
    }
}
