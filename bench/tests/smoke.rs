//! The quick suite on the default device (POCL in CI): every lift-rs and hand-written OpenCL
//! implementation must pass its check; outputs (table, CSV, JSON, plot) must be written.

use lift_bench::common::Config;
use std::time::Instant;

#[test]
fn quick_suite_runs_and_checks() {
    // CI installs POCL: a missing device is a failure, not a skip.
    if let Err(e) = lift_runtime::Context::new() {
        panic!("no OpenCL device: {e}");
    }
    let t = Instant::now();
    let mut cfg = Config::new(true);
    cfg.runs = 3;
    cfg.out = std::env::temp_dir().join(format!("lift-bench-smoke-{}", std::process::id()));
    let mut suite = lift_bench::run_suite(&cfg).expect("suite runs");
    lift_bench::finish(&mut suite, &cfg).expect("outputs written");
    for w in lift_bench::WORKLOADS {
        assert!(suite.records.iter().any(|r| r.workload == w), "{w} missing");
    }
    for r in suite.records.iter().filter(|r| r.class != "clblast") {
        assert_eq!(
            r.status, "ok",
            "{} / {}: {}",
            r.workload, r.implementation, r.status
        );
        assert!(
            r.stats.as_ref().is_some_and(|s| s.median_ms > 0.0),
            "{} / {} not timed",
            r.workload,
            r.implementation
        );
    }
    for f in ["results.json", "results.csv", "table.md"] {
        assert!(cfg.out.join(f).exists(), "{f} not written");
    }
    let _ = std::fs::remove_dir_all(&cfg.out);
    assert!(
        t.elapsed().as_secs() < 60,
        "quick suite took {:?}",
        t.elapsed()
    );
}
