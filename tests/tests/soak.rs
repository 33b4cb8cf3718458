//! The short soak and load run of CI (issue 38, item 5; the long one is the `soak` binary,
//! docs/RELIABILITY.md): 200 kernel builds and drops (builds 0 and 100 in a fresh context) and 20,000
//! launches with their buffers, every result exact, RSS growth after the warm-up under 5 %
//! and no OpenCL handle left alive; then 4 threads running random programs on one context for
//! about 10 s, every result against the interpreter. One test, so that nothing else in this
//! binary makes or drops handles while they are counted.

use lift_tests::ctx;
use lift_tests::soak::{load, soak, LoadConfig, SoakConfig};

#[test]
fn soak_and_load() {
    let ctx = ctx();
    let cfg = SoakConfig {
        builds: 200,
        launches: 20_000,
        ..SoakConfig::default()
    };
    let r = soak(ctx, &cfg, &mut |line| eprintln!("{line}"));
    eprintln!("{r}");
    let problems = r.problems(5.0);
    assert!(problems.is_empty(), "{problems:?}\n{r}");
    assert_eq!((r.builds, r.launches), (200, 20_000));

    let cfg = LoadConfig {
        threads: 4,
        secs: 10.0,
        seed: 0,
    };
    let r = load(ctx, &cfg, &|line| eprintln!("{line}"));
    eprintln!("{r}");
    let problems = r.problems();
    assert!(problems.is_empty(), "{problems:?}\n{r}");
}
