//! The tuner's check: does a candidate agree with the reference interpreter on a small
//! input? Checks run on a pool of worker threads that live as long as the process, each
//! keeping the programs it compiled ([`DynKernel`]'s per-thread cache), so that the tuner
//! checks many candidates at once and compiles a program once per worker, not once per
//! tuning.

use crate::{Context, DynKernel, Error, Result};
use lift_core::interp::sample::{self, random_value};
use lift_core::interp::{Scalar, Value};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};

/// The most worker threads checks run on.
pub const CHECK_THREADS: usize = 16;

/// A check to run on a worker.
type Job = Box<dyn FnOnce() + Send>;

/// The workers' queue: jobs go in here; each worker takes the next.
fn pool() -> &'static Mutex<mpsc::Sender<Job>> {
    static POOL: OnceLock<Mutex<mpsc::Sender<Job>>> = OnceLock::new();
    POOL.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for k in 0..threads() {
            let rx = Arc::clone(&rx);
            // A worker that cannot be spawned leaves the others; with none, `on_worker`
            // runs the check on the caller's thread.
            let _ = std::thread::Builder::new()
                .name(format!("lift-check-{k}"))
                .spawn(move || loop {
                    let job = rx.lock().unwrap_or_else(|p| p.into_inner()).recv();
                    match job {
                        Ok(job) => job(),
                        Err(_) => break,
                    }
                });
        }
        Mutex::new(tx)
    })
}

/// How many checks run at once: the machine's parallelism, at most [`CHECK_THREADS`].
pub fn threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, CHECK_THREADS)
}

/// Runs `f` on a worker of the pool and waits for its result (on this thread if no worker
/// answers).
fn on_worker<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let f = Arc::new(Mutex::new(Some(f)));
    let job = {
        let f = Arc::clone(&f);
        move || {
            if let Some(f) = f.lock().unwrap_or_else(|p| p.into_inner()).take() {
                let _ = tx.send(f());
            }
        }
    };
    let sent = pool()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .send(Box::new(job))
        .is_ok();
    if sent {
        if let Ok(v) = rx.recv() {
            return v;
        }
    }
    // No worker ran it (none could be spawned, or one panicked on it): run it here.
    let f = f.lock().unwrap_or_else(|p| p.into_inner()).take();
    match f {
        Some(f) => f(),
        None => panic!("a check panicked on its worker"),
    }
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
    // A CPU device checks on the caller's thread, which keeps the programs it compiled:
    // with workers, each would compile every program the caller checks one at a time.
    if ctx.device_info().kind == crate::DeviceKind::Cpu {
        return check_here(ctx, lift_text, kernel, candidate);
    }
    let (ctx, lift_text, kernel, candidate) = (
        ctx.clone(),
        lift_text.to_string(),
        kernel.to_string(),
        candidate.to_string(),
    );
    on_worker(move || check_here(&ctx, &lift_text, &kernel, &candidate))
}

/// [`check_candidate`] on this thread.
fn check_here(ctx: &Context, lift_text: &str, kernel: &str, candidate: &str) -> Result<bool> {
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
        .map(|p| random_value(&p.ty, &env, &mut seed).map_err(|e| Error::launch(e.to_string())))
        .collect::<Result<Vec<_>>>()?;
    let got = dk.run(&sizes, &args)?;
    let want = interpreted(lift_text, kernel, &sizes, &args)?;
    Ok(sample::agree(&got.flatten(), &want))
}

/// The interpreter's result for `kernel` of `lift_text` at `sizes` on `args`, flattened.
/// The check's arguments follow from the sizes (a fixed seed), so candidates checked at the
/// same sizes share one interpretation: results are kept per program, kernel and sizes, and
/// a thread asking for one being computed waits for it.
fn interpreted(
    lift_text: &str,
    kernel: &str,
    sizes: &[usize],
    args: &[Value],
) -> Result<Vec<Scalar>> {
    type Slot = Arc<OnceLock<std::result::Result<Vec<Scalar>, String>>>;
    /// Program text, kernel and sizes.
    type Key = (String, String, Vec<usize>);
    static KEPT: Mutex<Vec<(Key, Slot)>> = Mutex::new(Vec::new());
    /// Interpretations kept (the oldest is dropped first).
    const KEEP: usize = 16;
    let key = (lift_text.to_string(), kernel.to_string(), sizes.to_vec());
    let slot = {
        let mut kept = KEPT.lock().unwrap_or_else(|p| p.into_inner());
        match kept.iter().find(|(k, _)| *k == key) {
            Some((_, slot)) => Arc::clone(slot),
            None => {
                if kept.len() == KEEP {
                    kept.remove(0);
                }
                let slot = Slot::default();
                kept.push((key, Arc::clone(&slot)));
                slot
            }
        }
    };
    let want = slot.get_or_init(|| {
        let mut prog = lift_core::parse::parse_program_str(lift_text).map_err(|e| e.to_string())?;
        lift_core::typeck::check_program(&mut prog).map_err(|e| e.to_string())?;
        let sizes64: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
        lift_core::interp::run_kernel(&prog, kernel, &sizes64, args)
            .map(|v| v.flatten())
            .map_err(|e| format!("interpreter: {e}"))
    });
    want.clone().map_err(|message| Error::Compile { message })
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
        due[i].iter().all(|c| c.holds(&env))
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
