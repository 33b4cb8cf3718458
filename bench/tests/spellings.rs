//! The spellings-and-sizes part in quick mode on the default device (POCL in CI): every
//! spelling, untuned and tuned, must build, pass its check and be timed, with the chosen
//! candidate recorded; the outputs (table, CSV, JSON, plot) must be written.

use lift_bench::common::Config;

#[test]
fn quick_spellings_run_and_check() {
    if let Err(e) = lift_runtime::Context::new() {
        panic!("no OpenCL device: {e}");
    }
    let mut cfg = Config::new(true);
    cfg.runs = 3;
    cfg.only = Some(lift_bench::SPELLINGS.into());
    // A round and an odd size of each workload (the quick sizes' first and last).
    cfg.spelling_sizes = Some(vec![256, 201, 512, 511, 64, 63, 1 << 16, (1 << 16) - 1]);
    cfg.out = std::env::temp_dir().join(format!("lift-bench-spellings-{}", std::process::id()));
    let mut suite = lift_bench::run_suite(&cfg).expect("suite runs");
    lift_bench::finish(&mut suite, &cfg).expect("outputs written");
    let lift: Vec<_> = suite.records.iter().filter(|r| r.class == "lift").collect();
    // GEMM 6 spellings, Jacobi 3, Jacobi 3-D 2, GEMV 3, blur 3, zip 4, transpose 4, at two
    // sizes; untuned and tuned.
    assert_eq!(lift.len(), 2 * 2 * (6 + 3 + 2 + 3 + 3 + 4 + 4));
    for r in lift {
        let sp = r.spelling.as_ref().expect("tagged");
        assert_eq!(
            r.status, "ok",
            "{} / {}: {}",
            r.workload, r.implementation, r.status
        );
        assert!(r.stats.as_ref().is_some_and(|s| s.median_ms > 0.0));
        assert!(
            !sp.candidate.is_empty(),
            "{}: no candidate",
            r.implementation
        );
        assert_eq!(
            sp.tuner.is_some(),
            sp.mode == "tuned",
            "{}",
            r.implementation
        );
    }
    for f in [
        "spellings.md",
        "spellings.csv",
        "spellings.json",
        "spellings.png",
    ] {
        assert!(cfg.out.join(f).exists(), "{f} not written");
    }
    let _ = std::fs::remove_dir_all(&cfg.out);
}
