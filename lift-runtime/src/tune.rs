//! The tuner (SPEC section 5): times the candidates of a kernel on the context's device, each
//! first checked against the reference interpreter on a small input, and stores the fastest
//! in the persistent [`crate::cache`].
//!
//! Generated code drives it through [`tune`] with two callbacks: one launch of candidate `i`
//! on the user's buffers (its profiled time), and the interpreter check ([`check_candidate`],
//! which compiles the kernel's program text at run time with [`DynKernel`]).

use crate::cache::{self, Entry};
use crate::dump;
use crate::select::CandidateFacts;
use crate::{Context, DynKernel, Error, Result};
use lift_core::interp::{Scalar, Value};
use lift_core::types::{ScalarType, Type};
use std::fmt;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// The environment variable that makes `run` tune on a cache miss (`LIFT_TUNE=1`).
pub const TUNE_ENV: &str = "LIFT_TUNE";

/// Timed launches per candidate (after one warm-up), at most.
const RUNS: usize = 7;
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
        .map(|(n, v)| format!(" -D{}{n}={v}", lift_core::codegen::SIZE_MACRO))
        .collect()
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

/// Checks then times every candidate that applies and fits the device, stores the fastest in
/// the cache and gives its index. `check(i)` says whether candidate `i` agrees with the
/// interpreter; `launch(i, special)` runs it once (built for the sizes if `special`) and
/// gives its profiled time in milliseconds. With `job.specialise`, the [`SPECIALISED`]
/// fastest are then timed built for the sizes (a build each: the general ones are shared
/// with the check), and the choice records which build won. A candidate whose check or
/// launch fails is skipped; an `Err` only if none is valid.
pub fn tune(
    ctx: &Context,
    job: &TuneJob<'_>,
    check: &mut dyn FnMut(usize) -> Result<bool>,
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
    check: &mut dyn FnMut(usize) -> Result<bool>,
    launch: &mut dyn FnMut(usize, bool) -> Result<f64>,
    opts: &TuneOptions,
) -> Result<(usize, Tuned)> {
    let todo: Vec<usize> = (0..job.names.len())
        .filter(|&i| job.facts.get(i).is_some_and(|f| f.applies && f.fits(ctx)))
        .collect();
    let bar = progress(todo.len(), job.kernel_id);
    let mut best: Option<(usize, f64)> = None;
    let mut valid = 0;
    let mut failures = Vec::new();
    let mut outcomes = Vec::with_capacity(todo.len());
    let mut timed = Vec::with_capacity(todo.len());
    for &i in &todo {
        if let Some(b) = &bar {
            b.set_message(job.names[i].to_string());
        }
        let result = check(i).and_then(|ok| match ok {
            true => time(&mut || launch(i, false), best.map(|b| b.1)),
            false => Err(Error::launch("disagrees with the interpreter")),
        });
        let line = match &result {
            Ok(ms) => format!("{ms:>12.4} ms  {}", job.names[i]),
            Err(e) => format!("{:>15}  {}: {e}", "invalid", job.names[i]),
        };
        match result {
            Ok(ms) => {
                valid += 1;
                timed.push((i, ms));
                if best.is_none_or(|(_, b)| ms < b) {
                    best = Some((i, ms));
                }
                outcomes.push(dump::CandidateOutcome {
                    name: job.names[i].to_string(),
                    result: Ok(ms),
                });
            }
            Err(e) => {
                failures.push(format!("{}: {e}", job.names[i]));
                outcomes.push(dump::CandidateOutcome {
                    name: job.names[i].to_string(),
                    result: Err(e.to_string()),
                });
            }
        }
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
    // The fastest few again, built for these sizes (a build each).
    let mut special = false;
    if job.specialise {
        timed.sort_by(|a, b| a.1.total_cmp(&b.1));
        for &(i, _) in timed.iter().take(SPECIALISED) {
            let name = format!("{} (built for these sizes)", job.names[i]);
            let result = time(&mut || launch(i, true), best.map(|b| b.1));
            if opts.verbose {
                match &result {
                    Ok(ms) => eprintln!("{ms:>12.4} ms  {name}"),
                    Err(e) => eprintln!("{:>15}  {name}: {e}", "invalid"),
                }
            }
            if let Ok(ms) = result {
                if best.is_none_or(|(_, b)| ms < b) {
                    best = Some((i, ms));
                    special = true;
                }
            }
            outcomes.push(dump::CandidateOutcome {
                name,
                result: result.map_err(|e| e.to_string()),
            });
        }
    }
    let device = &ctx.device_info().name;
    let Some((i, ms)) = best else {
        dump::tuning(job.kernel_id, device, job.sizes, &outcomes, None);
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
    dump::tuning(job.kernel_id, device, job.sizes, &outcomes, Some(&tuned));
    Ok((i, tuned))
}

/// A candidate whose warm-up launch is this many times slower than the best so far is not
/// timed further (the warm-up's time stands for it).
const HOPELESS: f64 = 8.0;

/// How many of the fastest candidates (general builds) [`tune_with`] times again built for
/// the sizes: a build each, where the general builds are shared with the check (builds for
/// constant sizes can take much longer, on POCL most of all).
pub const SPECIALISED: usize = 8;

/// The median of one warm-up then up to [`RUNS`] launches within [`BUDGET`]; only the
/// warm-up if that is [`HOPELESS`]ly slower than `best`.
fn time(launch: &mut dyn FnMut() -> Result<f64>, best: Option<f64>) -> Result<f64> {
    let warm = launch()?;
    if best.is_some_and(|b| warm > HOPELESS * b) {
        return Ok(warm);
    }
    let start = Instant::now();
    let mut times = Vec::with_capacity(RUNS);
    while times.len() < RUNS && (times.len() < 3 || start.elapsed() < BUDGET) {
        times.push(launch()?);
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// A progress bar on stderr when it is a terminal.
fn progress(n: usize, what: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(n as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("tuning {prefix} [{bar:30}] {pos}/{len} {msg}")
    {
        bar.set_style(style);
    }
    bar.set_prefix(what.split('#').next().unwrap_or(what).to_string());
    Some(bar)
}

/// Does candidate `candidate` of kernel `kernel` (program text `lift_text`) agree with the
/// reference interpreter on random inputs at the smallest sizes its conditions allow (a
/// relative tolerance of 1e-3 for floats, exact otherwise)? `Ok(false)` if it disagrees;
/// `Err` if it cannot be compiled or run, or no small sizes satisfy its conditions.
pub fn check_candidate(
    ctx: &Context,
    lift_text: &str,
    kernel: &str,
    candidate: &str,
) -> Result<bool> {
    let dk = DynKernel::compile_candidate(ctx, lift_text, kernel, Some(candidate))?;
    let sizes = small_sizes(&dk)?;
    let env = |n: &str| {
        dk.kernel()
            .sizes
            .iter()
            .position(|(s, _)| s == n)
            .map(|i| sizes[i] as i64)
    };
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let args = dk
        .kernel()
        .params
        .iter()
        .map(|p| random_value(&p.ty, &env, &mut seed))
        .collect::<Result<Vec<_>>>()?;
    let got = dk.run(&sizes, &args)?;
    let mut prog = lift_core::parse::parse_program_str(lift_text).map_err(|e| Error::Compile {
        message: e.to_string(),
    })?;
    lift_core::typeck::check_program(&mut prog).map_err(|e| Error::Compile {
        message: e.to_string(),
    })?;
    let sizes64: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
    let want = lift_core::interp::run_kernel(&prog, kernel, &sizes64, &args).map_err(|e| {
        Error::Compile {
            message: format!("interpreter: {e}"),
        }
    })?;
    Ok(agree(&got.flatten(), &want.flatten()))
}

/// Candidate size values for the check, smallest first.
const SMALL: &[usize] = &[
    1, 2, 3, 4, 5, 7, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256,
];

/// The largest size value the check tries when none of [`SMALL`] will do (a `split(1000)`
/// needs a multiple of 1000).
const LARGEST: usize = 4096;

/// The most partial assignments [`small_sizes`] visits before giving up.
const SEARCH_BUDGET: usize = 100_000;

/// Small sizes for which the candidate's preconditions hold: a depth-first search over the
/// size variables in declaration order, each taking the values of [`SMALL`] (smallest first;
/// if none of them satisfies the preconditions that mention only it and the variables before
/// it, the smallest value up to [`LARGEST`] that does), a precondition checked as soon as
/// every variable it mentions has a value; it backtracks where a later variable has no value
/// (`128 <= F` and `s F H W <= 36 C (F + H W)` need `C` larger than its first choice).
fn small_sizes(dk: &DynKernel) -> Result<Vec<usize>> {
    let names: Vec<&str> = dk.kernel().sizes.iter().map(|(n, _)| n.as_str()).collect();
    // The preconditions first decidable at variable `i` (all they mention is among 0..=i).
    let mut due: Vec<Vec<&lift_core::typeck::Cond>> = vec![Vec::new(); names.len()];
    for p in dk.preconditions() {
        let (a, b) = match &p.cond {
            lift_core::typeck::Cond::Divisible(a, b) | lift_core::typeck::Cond::Le(a, b) => (a, b),
        };
        let last = (0..names.len())
            .rev()
            .find(|&i| a.mentions(names[i]) || b.mentions(names[i]));
        if let Some(i) = last {
            due[i].push(&p.cond);
        }
    }
    let mut vals: Vec<usize> = Vec::with_capacity(names.len());
    let mut state = Search {
        budget: SEARCH_BUDGET,
        stuck: 0,
    };
    if search(&names, &due, &mut vals, &mut state) && dk.applies(&vals) {
        return Ok(vals);
    }
    let stuck = names.get(state.stuck).copied().unwrap_or("sizes");
    Err(Error::launch(format!(
        "no small value of `{stuck}` satisfies the candidate's conditions"
    )))
}

/// The state of [`search`]: steps left, and the deepest variable that found no value.
struct Search {
    budget: usize,
    stuck: usize,
}

/// Extends `vals` (values of the first `vals.len()` of `names`) to all of them, each
/// satisfying the preconditions `due` at it; `false` if none is found within the budget.
fn search(
    names: &[&str],
    due: &[Vec<&lift_core::typeck::Cond>],
    vals: &mut Vec<usize>,
    state: &mut Search,
) -> bool {
    let i = vals.len();
    if i == names.len() {
        return true;
    }
    state.stuck = state.stuck.max(i);
    let fits = |vals: &[usize], v: usize| {
        let env = |n: &str| {
            let k = names.iter().position(|m| *m == n)?;
            Some(if k == i { v } else { *vals.get(k)? } as i64)
        };
        due[i].iter().all(|c| holds(c, &env))
    };
    let mut values: Vec<usize> = SMALL.iter().copied().filter(|&v| fits(vals, v)).collect();
    if values.is_empty() {
        values.extend((1..=LARGEST).find(|&v| fits(vals, v)));
    }
    for v in values {
        if state.budget == 0 {
            return false;
        }
        state.budget -= 1;
        vals.push(v);
        if search(names, due, vals, state) {
            return true;
        }
        vals.pop();
    }
    false
}

/// Does `cond` hold with the sizes of `env`? (An arithmetic error counts as no.)
fn holds(cond: &lift_core::typeck::Cond, env: &dyn Fn(&str) -> Option<i64>) -> bool {
    use lift_core::typeck::Cond;
    match cond {
        Cond::Divisible(a, b) => {
            matches!((a.eval(env), b.eval(env)), (Ok(a), Ok(b)) if b != 0 && a % b == 0)
        }
        Cond::Le(a, b) => matches!((a.eval(env), b.eval(env)), (Ok(a), Ok(b)) if a <= b),
    }
}

/// A random value of type `ty` (floats in [-1, 1), integers in [-8, 8), booleans).
fn random_value(ty: &Type, env: &dyn Fn(&str) -> Option<i64>, seed: &mut u64) -> Result<Value> {
    let mut next = || {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    };
    let scalar = |s: ScalarType, r: u64| {
        let x = (r >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
        let i = (r % 16) as i64 - 8;
        match s {
            ScalarType::F16 => Scalar::F16(half::f16::from_f64(x)),
            ScalarType::F32 => Scalar::F32(x as f32),
            ScalarType::F64 => Scalar::F64(x),
            ScalarType::I32 => Scalar::I32(i as i32),
            ScalarType::U32 => Scalar::U32(i.unsigned_abs() as u32),
            ScalarType::I64 => Scalar::I64(i),
            ScalarType::U64 => Scalar::U64(i.unsigned_abs()),
            ScalarType::Bool => Scalar::Bool(r & 1 == 1),
        }
    };
    Ok(match ty {
        Type::Scalar(s) => Value::Scalar(scalar(*s, next())),
        Type::Vector(s, w) => Value::Vector((0..*w).map(|_| scalar(*s, next())).collect()),
        Type::Tuple(ts) => Value::Tuple(
            ts.iter()
                .map(|t| random_value(t, env, seed))
                .collect::<Result<_>>()?,
        ),
        // Parameters are never capped (the checker refuses it); a capped array is filled.
        Type::Array(elem, n) | Type::Capped(elem, n) => {
            let len = n.eval(env).map_err(|e| Error::launch(e.to_string()))?;
            Value::Array(
                (0..len.max(0))
                    .map(|_| random_value(elem, env, seed))
                    .collect::<Result<_>>()?,
            )
        }
    })
}

/// Do two flattened results agree (floats to a relative 1e-3)?
fn agree(got: &[Scalar], want: &[Scalar]) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|(a, b)| match (a, b) {
            (Scalar::F16(x), Scalar::F16(y)) => close(x.to_f64(), y.to_f64()),
            (Scalar::F32(x), Scalar::F32(y)) => close(f64::from(*x), f64::from(*y)),
            (Scalar::F64(x), Scalar::F64(y)) => close(*x, *y),
            (a, b) => a == b,
        })
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-3 * b.abs().max(1.0) || (a.is_nan() && b.is_nan())
}
