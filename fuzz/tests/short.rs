//! The short fuzz run of the normal test suite: a few seconds per target (fixed seeds, so a
//! failure reproduces with `cargo run --release -p fuzz -- --target T --replay SEED`), and
//! the inputs fuzzing found, pinned.

use fuzz::{corpus_dir, exec_seed, load_corpus, run_bytes, run_seed, Stats, Target};
use std::time::{Duration, Instant};

/// Runs `target` from seed `base` for at most `max` executions or `budget`.
fn short(target: Target, max: u64, budget: Duration) -> Stats {
    let corpus = load_corpus(&corpus_dir(), target);
    assert!(!corpus.is_empty(), "{}: empty corpus", target.name());
    let mut st = Stats::default();
    let start = Instant::now();
    for i in 0..max {
        if start.elapsed() > budget {
            break;
        }
        run_seed(target, exec_seed(target, 13, i), &corpus, &mut st);
    }
    st
}

#[test]
fn every_target_runs_without_panics() {
    fuzz::quiet_panics();
    for t in Target::ALL {
        let st = fuzz::on_large_stack(|| short(t, 20_000, Duration::from_secs(2)));
        eprintln!(
            "{}: {} executions, reached {:?}, {} panics",
            t.name(),
            st.execs,
            st.reached,
            st.crashes.len()
        );
        if let Some(c) = st.crashes.first() {
            panic!(
                "{}: {} panics; first (seed {}): {}\n{}",
                t.name(),
                st.crashes.len(),
                c.seed,
                c.message,
                c.input
            );
        }
        // The explorer's target checks every candidate of a program (tens a second).
        let least = if t == Target::Explore { 10 } else { 100 };
        assert!(
            st.execs >= least,
            "{}: only {} executions",
            t.name(),
            st.execs
        );
        // The inputs must get past the parser, and for the later targets past the checker.
        assert!(
            st.reached[3] > 0,
            "{}: nothing accepted: {:?}",
            t.name(),
            st.reached
        );
        if matches!(t, Target::Typeck | Target::Points | Target::Codegen) {
            assert!(st.reached[1] > 0, "{}: {:?}", t.name(), st.reached);
        }
    }
}

/// The inputs AFL++ kept for each target (`fuzz/afl/corpus/<target>/`, minimised with
/// `afl-cmin` after the runs of docs/RELIABILITY.md), replayed: none may panic.
#[test]
fn the_afl_corpus_replays_without_panics() {
    fuzz::quiet_panics();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("afl/corpus");
    let mut replayed = 0;
    for t in Target::ALL {
        let Ok(rd) = std::fs::read_dir(dir.join(t.name())) else {
            continue;
        };
        let corpus = load_corpus(&corpus_dir(), t);
        let mut paths: Vec<_> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        let st = fuzz::on_large_stack(|| {
            let mut st = Stats::default();
            for (i, p) in paths.iter().enumerate() {
                let data = std::fs::read(p).expect("a corpus file");
                run_bytes(t, &data, i as u64, &corpus, &mut st);
            }
            st
        });
        if let Some(c) = st.crashes.first() {
            panic!(
                "{}: input {}: {}\n{}",
                t.name(),
                paths[c.seed as usize].display(),
                c.message,
                c.input
            );
        }
        replayed += st.execs;
    }
    assert!(replayed > 0, "no AFL corpus under {}", dir.display());
}

/// Fuzzing found: `iterate` with a huge constant count over a function that changes the type
/// (`pad3` grows its input) made the checker type one step per count, 2^32 times. It is now
/// a type error after at most 64 steps (fuzzing then found that 1024 symbolic steps still took 20 s).
#[test]
fn iterate_with_a_huge_count_is_a_type_error() {
    let text = "kernel K(z: [[[u32; 2]; 4]; 1]) -> [[[u32; 2]; 4]; 1] { iterate(4294967296, pad3(3, mirror)) $ z }";
    let start = Instant::now();
    let mut prog = lift_core::parse::parse_program_str(text).expect("parses");
    let err = lift_core::typeck::check_program(&mut prog).expect_err("type error");
    assert!(
        err.message
            .contains("iterate: count 4294967296 too large for a function that changes the type"),
        "{}",
        err.message
    );
    assert!(start.elapsed() < Duration::from_secs(10));
    // A shrinking function with a count in range still types.
    let ok =
        "kernel K(x: [f32; 16]) -> [f32; 2] { iterate(3, map(reduce(+, 0.0)) o split(2)) $ x }";
    let mut prog = lift_core::parse::parse_program_str(ok).expect("parses");
    lift_core::typeck::check_program(&mut prog).expect("types");
}

/// Fuzzing found: symbolic sizes grow with every typed step of `iterate` (`N / 2 / 2 / ...`,
/// `((N - 3) / 8 + 1 - 3) / 8 + 1 ...`), so even the cap of 1024 steps took the checker 20 s
/// and more; 64 steps (more than any size below 2^31 can shrink) answer at once.
#[test]
fn iterate_over_symbolic_sizes_answers_quickly() {
    for text in [
        "kernel K<N>(x: [i32; N]) -> [i32; N] { iterate(65536, map(reduce(+, 0)) o split(2)) $ x }",
        "kernel K<N>(x: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o iterate(2147483647, slide(3, 8)) $ x }",
    ] {
        let start = Instant::now();
        let mut prog = lift_core::parse::parse_program_str(text).expect("parses");
        let err = lift_core::typeck::check_program(&mut prog).expect_err("type error");
        assert!(err.message.contains("too large"), "{}", err.message);
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{text}: {:?}",
            start.elapsed()
        );
    }
}

/// Compiles `text` through the whole driver on another thread; `Err` when it takes longer
/// than `limit` (the thread is left behind).
fn compiles_within(text: &str, limit: Duration) -> Result<bool, String> {
    let text = text.to_string();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = lift_core::parse::parse_program_str(&text)
            .ok()
            .and_then(|mut p| {
                lift_core::typeck::check_program(&mut p).ok()?;
                Some(lift_core::driver::compile_kernel(&p, "K").is_ok())
            })
            .unwrap_or(false);
        let _ = tx.send(r);
    });
    rx.recv_timeout(limit)
        .map_err(|_| format!("no answer within {limit:?}"))
}

/// Fuzzing found (the codegen target, seed 288230376151836627 of a run from seed 0): a window larger than any size (`slide3(32147483647, ...)`, which the checker
/// accepts with a launch-time precondition `N >= 32147483647`) made `driver::compile_kernel`
/// run for minutes without an answer (a hang of the fuzz run): the sliding-window strategy kept the window in private memory and code
/// generation copies it element by element. Windows along the walk are now at most
/// `explore::slides::MAX_WINDOW` (64) elements; longer ones get the other candidates.
#[test]
fn huge_window_compiles_or_fails_quickly() {
    // Shrunk by hand: the 1-D `slide(32147483647, 1)` compiled in 2 ms, the 2-D and 3-D ones
    // did not answer before the cap (a window of 100 took 0.5 s in 3-D).
    for text in [
        "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N - 32147483646] { map2(reduce(+, 0.0) o join) o slide2(32147483647, 1, 1, 1) $ x }",
        "kernel K<N, M>(x: [[[f32; 7]; M]; N]) -> [[[f32; 5]; M + 1]; N - 32147483646] { map3(reduce(+, 0.0) o map(reduce(+, 0.0) o map(reduce(max, -10.0)))) o slide3(32147483647, 1, 3, 1, 1, 2) o pad3(0, 0, 1, 2, 1, 1, clamp) $ x }",
    ] {
        compiles_within(text, Duration::from_secs(20)).expect("compile_kernel answers");
    }
}

/// Fuzzing found (the `explore` target, before it normalised its programs as the driver does):
/// the explorer on a program with a user function left un-inlined sent code generation round
/// `materialize` and `call_acc` without end (a stack overflow, at any stack size). The
/// primitive is now refused where it would be materialised within itself.
#[test]
fn the_explorer_ends_on_a_program_the_driver_did_not_normalise() {
    let n = fuzz::on_large_stack(|| {
        let text = "fn scalef(a: f32) -> f32 { let t = a * 0.5; t - 0.25 }\n\
            kernel K<N>(x: [f32; N]) -> [f32; N - 1] { map(scalef) o tail $ x }";
        let mut p = lift_core::parse::parse_program_str(text).expect("parses");
        let infos = lift_core::typeck::check_program(&mut p).expect("types");
        lift_core::explore::candidates_in(&p, "K", &infos[0], lift_core::explore::Scope::All).len()
    });
    assert!(n > 0);
}
