//! `fuzz`: runs fuzz targets for a number of executions (or seconds) on several threads.
//!
//! ```sh
//! cargo run --release -p fuzz -- [--target NAME|all] [--execs N] [--seconds S] [--seed S]
//!     [--jobs J] [--hang-seconds S] [--replay SEED]
//! ```
//!
//! Targets: parse_str, tokens, typeck, points, codegen. Prints per target the executions,
//! how far they got, the time, the slowest execution and every panic (with the seed that
//! reproduces it: `--replay SEED`). Exit status 1 on a panic; 3 when one execution runs
//! longer than `--hang-seconds` (default 60), which is reported with its seed. Progress goes
//! to stderr every 10 s; with `--seconds`, executions still running 10 s after the deadline
//! are reported as unfinished (with their seeds) and not counted.

use fuzz::{corpus_dir, exec, exec_seed, load_corpus, run_seed, Stats, Target};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const USAGE: &str = "usage: fuzz [--target NAME|all] [--execs N] [--seconds S] [--seed S] \
[--jobs J] [--hang-seconds S] [--replay SEED]";

fn main() {
    let mut targets = Target::ALL.to_vec();
    let (mut execs, mut seconds, mut seed, mut replay) = (1_000_000u64, None, 0u64, None);
    let mut hang = 60u64;
    let mut jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut it = std::env::args().skip(1);
    let fail = |m: String| -> ! {
        eprintln!("{m}\n{USAGE}");
        std::process::exit(2)
    };
    while let Some(flag) = it.next() {
        let v = it
            .next()
            .unwrap_or_else(|| fail(format!("{flag} needs a value")));
        let num = |s: &str| {
            s.parse::<u64>()
                .unwrap_or_else(|e| fail(format!("{flag}: `{s}`: {e}")))
        };
        match flag.as_str() {
            "--target" if v == "all" => targets = Target::ALL.to_vec(),
            "--target" => {
                targets =
                    vec![Target::from_name(&v)
                        .unwrap_or_else(|| fail(format!("unknown target `{v}`")))]
            }
            "--execs" => execs = num(&v),
            "--seconds" => seconds = Some(num(&v)),
            "--seed" => seed = num(&v),
            "--jobs" => jobs = num(&v).max(1) as usize,
            "--replay" => replay = Some(num(&v)),
            "--hang-seconds" => hang = num(&v).max(1),
            _ => fail(format!("unknown argument `{flag}`")),
        }
    }
    if let Some(s) = replay {
        for t in targets {
            let corpus = load_corpus(&corpus_dir(), t);
            let mut input = String::new();
            let data = fuzz::bytes(s);
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                exec(t, &data, &corpus, &mut input)
            }));
            println!("{}: seed {s}: {r:?}\ninput:\n{input}", t.name());
        }
        return;
    }
    fuzz::quiet_panics();
    let mut any = false;
    for t in targets {
        let corpus = Arc::new(load_corpus(&corpus_dir(), t));
        let start = Instant::now();
        let deadline = seconds.map(|s| start + Duration::from_secs(s));
        let sh = Arc::new(Shared::default());
        let spawn = |slot: usize| {
            let (sh, corpus) = (Arc::clone(&sh), Arc::clone(&corpus));
            sh.current
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .resize(slot + 1, None);
            sh.active.fetch_add(1, Ordering::SeqCst);
            std::thread::Builder::new()
                .stack_size(fuzz::STACK)
                .spawn(move || worker(t, &sh, &corpus, slot, execs, seed, deadline))
                .expect("a worker thread");
        };
        for w in 0..jobs {
            spawn(w);
        }
        // The watchdog: an execution running longer than `hang` seconds is recorded as a hang,
        // its worker abandoned (a thread cannot be stopped) and replaced.
        let mut slots = jobs;
        let mut hangs: Vec<u64> = Vec::new();
        let mut last_report = Instant::now();
        // Executions still running this long after the deadline are left unfinished.
        let grace = Duration::from_secs(hang.min(10));
        let mut unfinished: Vec<(u64, f64)> = Vec::new();
        while sh.active.load(Ordering::SeqCst) > 0 {
            std::thread::sleep(Duration::from_millis(200));
            if last_report.elapsed() >= Duration::from_secs(10) {
                last_report = Instant::now();
                let st = sh.stats.lock().unwrap_or_else(|p| p.into_inner());
                eprintln!(
                    "{}: {} executions in {:.0} s, {} panics, {} hangs, slowest {:.3} s (seed {})",
                    t.name(),
                    st.execs,
                    start.elapsed().as_secs_f64(),
                    st.crashes.len(),
                    hangs.len(),
                    st.slowest.0,
                    st.slowest.1
                );
            }
            if deadline.is_some_and(|d| Instant::now() >= d + grace) {
                let cur = sh.current.lock().unwrap_or_else(|p| p.into_inner());
                unfinished = cur
                    .iter()
                    .flatten()
                    .filter(|(_, since)| *since <= Instant::now())
                    .map(|(sd, since)| (*sd, since.elapsed().as_secs_f64()))
                    .collect();
                break;
            }
            let stuck: Vec<(usize, u64)> = {
                let mut cur = sh.current.lock().unwrap_or_else(|p| p.into_inner());
                cur.iter_mut()
                    .enumerate()
                    .filter_map(|(w, c)| match *c {
                        Some((sd, since)) if since.elapsed() > Duration::from_secs(hang) => {
                            *c = Some((sd, far_future()));
                            Some((w, sd))
                        }
                        _ => None,
                    })
                    .collect()
            };
            for (_, sd) in stuck {
                eprintln!(
                    "{}: HANG seed {sd} (running > {hang} s; replay: --target {} --replay {sd})",
                    t.name(),
                    t.name()
                );
                hangs.push(sd);
                sh.active.fetch_sub(1, Ordering::SeqCst);
                if hangs.len() > 16 {
                    println!("{}: more than 16 hangs, giving up", t.name());
                    break;
                }
                spawn(slots);
                slots += 1;
            }
            if hangs.len() > 16 {
                break;
            }
        }
        let st = sh.stats.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{:<10} {} executions in {:.1} s ({:.0}/s, {} jobs, corpus {}): rejected by the parser {}, the checker {}, a later stage {}; accepted {}; slowest finished {:.3} s (seed {}); {} panics, {} hangs (> {hang} s)",
            t.name(),
            st.execs + hangs.len() as u64,
            secs,
            st.execs as f64 / secs.max(1e-9),
            jobs,
            corpus.len(),
            st.reached[0],
            st.reached[1],
            st.reached[2],
            st.reached[3],
            st.slowest.0,
            st.slowest.1,
            st.crashes.len(),
            hangs.len()
        );
        for c in st.crashes.iter().take(20) {
            println!(
                "  PANIC seed {}: {}\n  input:\n{}\n",
                c.seed, c.message, c.input
            );
        }
        for (sd, secs) in &unfinished {
            println!(
                "  UNFINISHED at the deadline: seed {sd}, running for {secs:.1} s (replay: --target {} --replay {sd})",
                t.name()
            );
        }
        for sd in &hangs {
            println!(
                "  HANG seed {sd} (replay: --target {} --replay {sd})",
                t.name()
            );
        }
        any |= !st.crashes.is_empty() || !hangs.is_empty();
    }
    if any {
        std::process::exit(1);
    }
}

/// What the workers of one target share.
#[derive(Default)]
struct Shared {
    next: AtomicU64,
    active: AtomicUsize,
    stats: Mutex<Stats>,
    /// Per worker slot: the execution running and since when.
    current: Mutex<Vec<Option<(u64, Instant)>>>,
}

/// A time that never counts as a hang again (an abandoned worker's slot).
fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(1 << 30)
}

/// Adds a worker's counts to the totals.
fn merge(total: &Mutex<Stats>, st: &mut Stats) {
    let mut tot = total.lock().unwrap_or_else(|p| p.into_inner());
    tot.execs += st.execs;
    for (a, b) in tot.reached.iter_mut().zip(st.reached) {
        *a += b;
    }
    tot.crashes.append(&mut st.crashes);
    if st.slowest.0 > tot.slowest.0 {
        tot.slowest = st.slowest;
    }
    *st = Stats::default();
}

/// Runs executions of `t` until `execs` are taken or the deadline passes.
fn worker(
    t: Target,
    sh: &Shared,
    corpus: &[String],
    slot: usize,
    execs: u64,
    seed: u64,
    deadline: Option<Instant>,
) {
    let mut st = Stats::default();
    loop {
        let i = sh.next.fetch_add(1, Ordering::Relaxed);
        if i >= execs || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let sd = exec_seed(t, seed, i);
        if let Some(c) = sh
            .current
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_mut(slot)
        {
            *c = Some((sd, Instant::now()));
        }
        run_seed(t, sd, corpus, &mut st);
        let abandoned = {
            let mut cur = sh.current.lock().unwrap_or_else(|p| p.into_inner());
            let c = cur.get_mut(slot);
            match c {
                Some(Some((_, since))) if *since > Instant::now() => true,
                Some(c) => {
                    *c = None;
                    false
                }
                None => false,
            }
        };
        if abandoned {
            // Reported as a hang and replaced: this execution is not counted again.
            return;
        }
        // Counted at once, so that the executions of a worker that hangs later are kept.
        merge(&sh.stats, &mut st);
    }
    merge(&sh.stats, &mut st);
    sh.active.fetch_sub(1, Ordering::SeqCst);
}
