//! Findings of the `unsafe` audit (issue 13, item 6; docs/RELIABILITY.md): safe launches must
//! refuse what would make a kernel access memory out of bounds.

use lift_runtime::{lift, Error};
use lift_tests::ctx;

lift! {
    /// A full reduction: two kernels and a global temporary (a scratch buffer).
    kernel Total<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ x }
}

/// A scratch allocated for the sizes of the launch works, and so do the kernel's own
/// temporaries.
#[test]
fn launch_with_a_matching_scratch() {
    let ctx = ctx();
    let k = Total::new(ctx).expect("Total::new");
    let n = 100_000;
    let scratch = k.scratch(n).expect("scratch");
    let c = k.candidate_for(n).expect("candidate_for");
    let x = ctx.upload(&vec![1.0f32; n]).expect("upload");
    let out = ctx.alloc::<f32>(1).expect("alloc");
    k.launch_in(&scratch, c, n, &x, &out)
        .expect("launch_in")
        .wait()
        .expect("wait");
    assert_eq!(out.download().expect("download"), vec![n as f32]);
    let out = ctx.alloc::<f32>(1).expect("alloc");
    k.launch(n, &x, &out).expect("launch").wait().expect("wait");
    assert_eq!(out.download().expect("download"), vec![n as f32]);
}

/// `launch_in` checks the scratch against the sizes: a scratch made for `N = 1` used for
/// `N = 2^22` would be overrun by the first kernel (before the check: SIGSEGV on POCL, whose
/// device memory is host memory); it is an `Err` before anything is enqueued.
#[test]
fn launch_with_a_scratch_for_smaller_sizes_is_an_error() {
    let ctx = ctx();
    let k = Total::new(ctx).expect("Total::new");
    let small = k.scratch(1).expect("scratch");
    let n = 1 << 22;
    let c = k.candidate_for(n).expect("candidate_for");
    let x = ctx.upload(&vec![1.0f32; n]).expect("upload");
    let out = ctx.alloc::<f32>(1).expect("alloc");
    match k.launch_in(&small, c, n, &x, &out) {
        Err(e @ Error::ArgLength { .. }) => {
            assert!(e.to_string().contains("scratch"), "{e}");
        }
        Err(e) => panic!("unexpected error: {e}"),
        Ok(ev) => {
            ev.wait().expect("wait");
            panic!("a scratch for N = 1 was accepted for N = {n}");
        }
    }
}
