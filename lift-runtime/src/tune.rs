//! The tuner (SPEC section 5): times the candidates of a kernel on the context's device, each
//! first checked against the reference interpreter on a small input, and stores the fastest
//! in the persistent [`crate::cache`].
//!
//! Generated code drives it through [`tune`] with two callbacks: one launch of candidate `i`
//! on the user's buffers (its profiled time), and the interpreter check ([`check_candidate`],
//! which compiles the kernel's program text at run time with [`DynKernel`]).

use crate::cache::{self, Entry};
pub use crate::check::check_candidate;
use crate::dump;
use crate::select::CandidateFacts;
use crate::{Context, Error, Result};
use std::fmt;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The environment variable that makes `run` tune on a cache miss (`LIFT_TUNE=1`).
pub const TUNE_ENV: &str = "LIFT_TUNE";

/// The environment variable that bounds how many candidates a tuning checks and times
/// (`LIFT_TUNE_CANDIDATES=n`: the first `n` in the explorer's order that apply and fit the
/// device; unset, every one): a quick tuning, as in the benchmarks' quick mode.
pub const TUNE_CANDIDATES_ENV: &str = "LIFT_TUNE_CANDIDATES";

/// Timed launches per candidate (after one warm-up), at most.
const RUNS: usize = 51;
/// Timed launches per candidate, at least (within [`BUDGET`]).
const MIN_RUNS: usize = 5;
/// Device time (ms) a candidate's timed launches add up to before the tuner stops timing it:
/// a short kernel gets many launches (its median is stable where a few launches of a tenth of
/// a millisecond are not), a long one [`MIN_RUNS`].
const TARGET_MS: f64 = 20.0;
/// Time budget per candidate's timed launches.
const BUDGET: Duration = Duration::from_millis(500);

/// The outcome of tuning one kernel at one set of sizes.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// The chosen candidate.
    pub candidate: String,
    /// Its tuning parameters.
    pub params: Vec<(String, i64)>,
    /// Its median time over the timed launches, in milliseconds.
    pub time_ms: f64,
    /// Candidates tried (those that apply to the sizes and fit the device).
    pub tried: usize,
    /// Candidates that built, agreed with the interpreter and launched.
    pub valid: usize,
    /// The result came from the cache; nothing was timed.
    pub from_cache: bool,
    /// The candidate was timed, and runs, built for these sizes (size variables as
    /// constants).
    pub specialised: bool,
}

impl fmt::Display for Tuned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({:.4} ms; {} of {} candidates valid{}{})",
            self.candidate,
            self.time_ms,
            self.valid,
            self.tried,
            if self.specialised {
                "; built for these sizes"
            } else {
                ""
            },
            if self.from_cache { "; cached" } else { "" }
        )
    }
}

/// What the tuner is told about a kernel at one set of sizes.
pub struct TuneJob<'a> {
    /// The kernel's id (name and a hash of its program text; see `kernel_id`).
    pub kernel_id: &'a str,
    /// The size values.
    pub sizes: &'a [usize],
    /// Every candidate's name.
    pub names: &'a [&'a str],
    /// Every candidate's tuning parameters.
    pub params: &'a [&'a [(&'a str, i64)]],
    /// Every candidate's applicability and needs at these sizes.
    pub facts: &'a [CandidateFacts],
    /// The launcher can also run a candidate built for these sizes (size variables as
    /// constants: `LIFT_SIZE_<name>`, see [`size_options`]): the fastest few are timed so too.
    pub specialise: bool,
}

/// The build options that specialise a generated program to sizes `sizes` (name and
/// value of each size variable): `-DLIFT_SIZE_N=value ...`, to append to the index options.
pub fn size_options<'a>(sizes: impl IntoIterator<Item = (&'a str, i64)>) -> String {
    sizes
        .into_iter()
        .map(|(n, v)| {
            let n = lift_core::cnames::c_name(n);
            format!(" -D{}{n}={v}", lift_core::codegen::SIZE_MACRO)
        })
        .collect()
}

/// The bound `LIFT_TUNE_CANDIDATES` sets on the candidates a tuning tries, if it is set to a
/// positive number.
fn candidate_bound() -> Option<usize> {
    std::env::var(TUNE_CANDIDATES_ENV)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|&n| n > 0)
}

/// Is `LIFT_TUNE` set to `1` (tune on a cache miss in `run`)?
pub fn tune_on_miss() -> bool {
    std::env::var(TUNE_ENV).is_ok_and(|v| v == "1")
}

/// The cached choice for `kernel_id` at `sizes` on `ctx`'s device, if it names one of
/// `names`: its index, and whether it runs built for these sizes.
pub fn cached_choice(
    ctx: &Context,
    kernel_id: &str,
    sizes: &[usize],
    names: &[&str],
) -> Option<(usize, bool)> {
    let e = cache::lookup(&cache::key(ctx, kernel_id, sizes))?;
    let i = names.iter().position(|n| *n == e.candidate)?;
    Some((i, e.specialised))
}

/// The cached result for `job`, as a [`Tuned`], if any.
pub fn cached(ctx: &Context, job: &TuneJob<'_>) -> Option<(usize, Tuned)> {
    let e = cache::lookup(&cache::key(ctx, job.kernel_id, job.sizes))?;
    let i = job.names.iter().position(|n| *n == e.candidate)?;
    job.facts.get(i).filter(|f| f.applies && f.fits(ctx))?;
    Some((
        i,
        Tuned {
            candidate: e.candidate,
            params: e.params,
            time_ms: e.time_ms,
            tried: e.tried,
            valid: e.valid,
            from_cache: true,
            specialised: e.specialised,
        },
    ))
}

/// Checks then times every candidate that applies and fits the device (the first
/// `LIFT_TUNE_CANDIDATES` of them where that is set), stores the fastest in
/// the cache and gives its index. `check(i)` says whether candidate `i` agrees with the
/// interpreter (on a GPU the checks run on several threads at once: they compile, build and
/// interpret, and nothing they do is timed); `launch(i, special)` runs it once (built for the sizes if `special`) and
/// gives its profiled time in milliseconds. With `job.specialise`, the [`SPECIALISED`]
/// fastest are then timed built for the sizes (a build each: the general ones are shared
/// with the check), and the choice records which build won. A candidate whose check or
/// launch fails is skipped; an `Err` only if none is valid.
pub fn tune(
    ctx: &Context,
    job: &TuneJob<'_>,
    check: &(dyn Fn(usize) -> Result<bool> + Sync),
    launch: &mut dyn FnMut(usize, bool) -> Result<f64>,
) -> Result<(usize, Tuned)> {
    tune_with(ctx, job, check, launch, &TuneOptions::default())
}

/// How [`tune_with`] reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TuneOptions {
    /// Print one line per candidate on stderr (its median time or why it was skipped),
    /// above the progress bar when there is one.
    pub verbose: bool,
    /// Tune even when the cache holds a choice ([`crate::DynKernel::tune`]; the generated
    /// `tune` always consults the cache first).
    pub retune: bool,
}

/// [`tune`] with options. With `LIFT_DUMP` set, the outcome of every candidate and the
/// choice are written to the dump directory ([`crate::dump`]), also when none is valid.
pub fn tune_with(
    ctx: &Context,
    job: &TuneJob<'_>,
    check: &(dyn Fn(usize) -> Result<bool> + Sync),
    launch: &mut dyn FnMut(usize, bool) -> Result<f64>,
    opts: &TuneOptions,
) -> Result<(usize, Tuned)> {
    let todo: Vec<usize> = (0..job.names.len())
        .filter(|&i| job.facts.get(i).is_some_and(|f| f.applies && f.fits(ctx)))
        .take(candidate_bound().unwrap_or(usize::MAX))
        .collect();
    let started = Instant::now();
    // A CPU device runs its kernels on the cores the checks would share: one at a time there.
    let threads = match ctx.device_info().kind {
        crate::DeviceKind::Cpu => 1,
        _ => crate::check::threads(),
    };
    let (checked, threads) = check_all(&todo, job, check, threads);
    let mut took = dump::Took {
        checks: started.elapsed().as_secs_f64(),
        threads,
        ..dump::Took::default()
    };
    let started = Instant::now();
    let bar = progress(todo.len(), "timing", job.kernel_id);
    let mut best: Option<(usize, f64)> = None;
    let mut valid = 0;
    let mut failures = Vec::new();
    let mut outcomes = Vec::with_capacity(todo.len());
    let mut timed = Vec::with_capacity(todo.len());
    for (&i, (agrees, check_s)) in todo.iter().zip(checked) {
        if let Some(b) = &bar {
            b.set_message(job.names[i].to_string());
        }
        let t0 = Instant::now();
        let result = agrees.and_then(|ok| match ok {
            true => time(&mut || launch(i, false), best.map(|b| b.1)),
            false => Err(Error::launch("disagrees with the interpreter")),
        });
        let line = match &result {
            Ok(ms) => format!("{ms:>12.4} ms  {}", job.names[i]),
            Err(e) => format!("{:>15}  {}: {e}", "invalid", job.names[i]),
        };
        if let Ok(ms) = result {
            valid += 1;
            timed.push((i, ms));
            if best.is_none_or(|(_, b)| ms < b) {
                best = Some((i, ms));
            }
        }
        if let Err(e) = &result {
            failures.push(format!("{}: {e}", job.names[i]));
        }
        outcomes.push(dump::CandidateOutcome {
            name: job.names[i].to_string(),
            result: result.map_err(|e| e.to_string()),
            seconds: check_s + t0.elapsed().as_secs_f64(),
        });
        if opts.verbose {
            match &bar {
                Some(b) => b.println(line),
                None => eprintln!("{line}"),
            }
        }
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    took.timing = started.elapsed().as_secs_f64();
    // The fastest few again, built for these sizes (a build each).
    let started = Instant::now();
    let special = job.specialise
        && specialise(
            job,
            launch,
            &mut timed,
            (&mut best, &mut outcomes),
            opts.verbose,
        );
    took.specialised = started.elapsed().as_secs_f64();
    if opts.verbose {
        eprintln!(
            "tuning took: checks {:.2} s on {} threads, timing {:.2} s, built for the sizes {:.2} s",
            took.checks, took.threads, took.timing, took.specialised
        );
    }
    let device = &ctx.device_info().name;
    let Some((i, ms)) = best else {
        dump::tuning(job.kernel_id, device, job.sizes, (&outcomes, &took), None);
        return Err(Error::launch(format!(
            "tuning: no valid candidate among {}: {}",
            todo.len(),
            failures.join("; ")
        )));
    };
    let params: Vec<(String, i64)> = job.params[i]
        .iter()
        .map(|(n, v)| (n.to_string(), *v))
        .collect();
    let entry = Entry {
        candidate: job.names[i].to_string(),
        params: params.clone(),
        time_ms: ms,
        tried: todo.len(),
        valid,
        unix_time: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        specialised: special,
    };
    // A cache that cannot be written loses the result for later processes only.
    let _ = cache::store(&cache::key(ctx, job.kernel_id, job.sizes), entry);
    let tuned = Tuned {
        candidate: job.names[i].to_string(),
        params,
        time_ms: ms,
        tried: todo.len(),
        valid,
        from_cache: false,
        specialised: special,
    };
    dump::tuning(
        job.kernel_id,
        device,
        job.sizes,
        (&outcomes, &took),
        Some(&tuned),
    );
    Ok((i, tuned))
}

/// A candidate whose warm-up launch is this many times slower than the best so far is not
/// timed further (the warm-up's time stands for it).
const HOPELESS: f64 = 8.0;

/// How many of the fastest candidates (general builds) [`tune_with`] times again built for
/// the sizes: a build each, where the general builds are shared with the check (builds for
/// constant sizes can take much longer, on POCL most of all).
pub const SPECIALISED: usize = 8;

/// The fastest [`SPECIALISED`] of `timed` again, each built for the sizes: `best` and the
/// outcomes updated; whether a specialised build became the best.
fn specialise(
    job: &TuneJob<'_>,
    launch: &mut dyn FnMut(usize, bool) -> Result<f64>,
    timed: &mut [(usize, f64)],
    (best, outcomes): (&mut Option<(usize, f64)>, &mut Vec<dump::CandidateOutcome>),
    verbose: bool,
) -> bool {
    let mut special = false;
    timed.sort_by(|a, b| a.1.total_cmp(&b.1));
    for &(i, _) in timed.iter().take(SPECIALISED) {
        let name = format!("{} (built for these sizes)", job.names[i]);
        let t0 = Instant::now();
        let result = time(&mut || launch(i, true), best.map(|b| b.1));
        if verbose {
            match &result {
                Ok(ms) => eprintln!("{ms:>12.4} ms  {name}"),
                Err(e) => eprintln!("{:>15}  {name}: {e}", "invalid"),
            }
        }
        if let Ok(ms) = result {
            if best.is_none_or(|(_, b)| ms < b) {
                *best = Some((i, ms));
                special = true;
            }
        }
        outcomes.push(dump::CandidateOutcome {
            name,
            result: result.map_err(|e| e.to_string()),
            seconds: t0.elapsed().as_secs_f64(),
        });
    }
    special
}

/// The median of one warm-up then timed launches: at least 3, then until they add up to
/// [`TARGET_MS`] of device time with at least [`MIN_RUNS`], at most [`RUNS`] and within
/// [`BUDGET`]; only the warm-up if that is [`HOPELESS`]ly slower than `best`. Also times the
/// devices of a split kernel for their weights ([`crate::SplitKernel::measure_weights`]).
pub(crate) fn time(launch: &mut dyn FnMut() -> Result<f64>, best: Option<f64>) -> Result<f64> {
    let warm = launch()?;
    if best.is_some_and(|b| warm > HOPELESS * b) {
        return Ok(warm);
    }
    let start = Instant::now();
    let mut times: Vec<f64> = Vec::with_capacity(RUNS);
    let enough = |times: &[f64]| {
        times.len() >= RUNS || times.len() >= MIN_RUNS && times.iter().sum::<f64>() >= TARGET_MS
    };
    while times.len() < 3 || !enough(&times) && start.elapsed() < BUDGET {
        times.push(launch()?);
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// Runs `check` on every candidate of `todo`, on up to `threads` threads at once
/// (a progress bar on stderr when it is a terminal): each result, in the order of `todo`,
/// with the seconds it took, and the number of threads.
fn check_all(
    todo: &[usize],
    job: &TuneJob<'_>,
    check: &(dyn Fn(usize) -> Result<bool> + Sync),
    threads: usize,
) -> (Vec<(Result<bool>, f64)>, usize) {
    let bar = progress(todo.len(), "checking", job.kernel_id);
    let threads = threads.min(todo.len()).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<Option<(Result<bool>, f64)>> = Vec::new();
    results.resize_with(todo.len(), || None);
    let results = Mutex::new(results);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&i) = todo.get(k) else { break };
                let t0 = Instant::now();
                let r = check(i);
                let seconds = t0.elapsed().as_secs_f64();
                if let Some(b) = &bar {
                    b.inc(1);
                }
                results.lock().unwrap_or_else(|p| p.into_inner())[k] = Some((r, seconds));
            });
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let results = results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .map(|r| r.unwrap_or_else(|| (Err(Error::launch("the check did not finish")), 0.0)))
        .collect();
    (results, threads)
}

/// A progress bar on stderr when it is a terminal.
fn progress(n: usize, doing: &str, what: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(n as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(&format!(
        "{doing} {{prefix}} [{{bar:30}}] {{pos}}/{{len}} {{msg}}"
    )) {
        bar.set_style(style);
    }
    bar.set_prefix(what.split('#').next().unwrap_or(what).to_string());
    Some(bar)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many launches `time` makes (the warm-up included) of a kernel taking `ms` each,
    /// and the median it gives.
    fn launches(ms: f64, best: Option<f64>) -> (usize, f64) {
        let mut n = 0;
        let median = time(
            &mut || {
                n += 1;
                Ok(ms + n as f64 * 1e-6)
            },
            best,
        )
        .unwrap();
        (n, median)
    }

    #[test]
    fn short_kernels_get_many_launches_and_long_ones_few() {
        // A tenth of a millisecond: the cap of launches comes before 20 ms of device time.
        assert_eq!(launches(0.1, None).0, 1 + RUNS);
        // One millisecond: 20 launches reach 20 ms.
        assert_eq!(launches(1.0, None).0, 1 + 20);
        // Ten milliseconds: the minimum of launches.
        assert_eq!(launches(10.0, None).0, 1 + MIN_RUNS);
        // Hopeless against the best so far: the warm-up alone.
        assert_eq!(launches(10.0, Some(1.0)), (1, 10.0 + 1e-6));
        // The median of the timed launches (the warm-up is not one of them).
        let (n, median) = launches(10.0, None);
        assert!(
            (median - (10.0 + (2 + (n - 1) / 2) as f64 * 1e-6)).abs() < 1e-9,
            "{median}"
        );
    }
}
