//! `fuzz`: runs fuzz targets for a number of executions (or seconds) on several threads.
//!
//! ```sh
//! cargo run --release -p fuzz -- [--target NAME|all] [--execs N] [--seconds S] [--seed S]
//!     [--jobs J] [--replay SEED]
//! ```
//!
//! Targets: parse_str, tokens, typeck, points, codegen. Prints per target the executions,
//! how far they got, the time, the slowest execution and every panic (with the seed that
//! reproduces it: `--replay SEED`). Exit status 1 on a panic.

use fuzz::{corpus_dir, exec, exec_seed, load_corpus, run_seed, Stats, Target};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: fuzz [--target NAME|all] [--execs N] [--seconds S] [--seed S] \
[--jobs J] [--replay SEED]";

fn main() {
    let mut targets = Target::ALL.to_vec();
    let (mut execs, mut seconds, mut seed, mut replay) = (1_000_000u64, None, 0u64, None);
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
        let corpus = load_corpus(&corpus_dir(), t);
        let start = Instant::now();
        let deadline = seconds.map(|s| start + Duration::from_secs(s));
        let next = AtomicU64::new(0);
        let total = Mutex::new(Stats::default());
        std::thread::scope(|s| {
            for _ in 0..jobs {
                s.spawn(|| {
                    let mut st = Stats::default();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= execs || deadline.is_some_and(|d| Instant::now() >= d) {
                            break;
                        }
                        run_seed(t, exec_seed(t, seed, i), &corpus, &mut st);
                    }
                    let mut tot = total.lock().unwrap_or_else(|p| p.into_inner());
                    tot.execs += st.execs;
                    for (a, b) in tot.reached.iter_mut().zip(st.reached) {
                        *a += b;
                    }
                    tot.crashes.extend(st.crashes);
                    if st.slowest.0 > tot.slowest.0 {
                        tot.slowest = st.slowest;
                    }
                });
            }
        });
        let st = total.into_inner().unwrap_or_else(|p| p.into_inner());
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{:<10} {} executions in {:.1} s ({:.0}/s, {} jobs, corpus {}): rejected by the parser {}, the checker {}, a later stage {}; accepted {}; slowest {:.3} s (seed {}); {} panics",
            t.name(),
            st.execs,
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
            st.crashes.len()
        );
        for c in st.crashes.iter().take(20) {
            any = true;
            println!(
                "  PANIC seed {}: {}\n  input:\n{}\n",
                c.seed, c.message, c.input
            );
        }
        any |= !st.crashes.is_empty();
    }
    if any {
        std::process::exit(1);
    }
}
