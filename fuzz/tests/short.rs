//! The short fuzz run of the normal test suite: a few seconds per target (fixed seeds, so a
//! failure reproduces with `cargo run --release -p fuzz -- --target T --replay SEED`), and
//! the inputs fuzzing found, pinned.

use fuzz::{corpus_dir, exec_seed, load_corpus, run_seed, Stats, Target};
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
        let st = short(t, 20_000, Duration::from_secs(2));
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
        assert!(
            st.execs >= 100,
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

/// Fuzzing found: `iterate` with a huge constant count over a function that changes the type
/// (`pad3` grows its input) made the checker type one step per count, 2^32 times. It is now
/// a type error after at most 1024 steps.
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
