//! 64-bit index arithmetic (issue 13, item 1): a kernel whose flat index exceeds `i32::MAX`
//! through a view of a small buffer gives the right result (the launcher builds it with
//! 64-bit indices); sizes whose arrays fit keep 32-bit indices. The 64-bit build of every
//! kind of kernel is tested at small sizes by `index64_forced.rs`.

use lift_runtime::core::interp::Value;
use lift_runtime::{lift, Context, DynKernel};
use lift_tests::{ctx, random_f32};

lift! {
    /// The last window of `slide(K, 1) $ x`, reversed: `join o slide(K, 1)` has
    /// `(N - K + 1) * K` elements, and its last ones are at flat indices beyond `i32::MAX`
    /// when `N = 100000`, `K = 50000` (2,500,050,000 elements from a 400 KB buffer).
    kernel Tail4<N, K>(x: [f32; N]) -> [f32; 4] {
        take(4) o gather(reverse) o join o slide(K, 1) $ x
    }
}

const TAIL4: &str = "kernel Tail4<N, K>(x: [f32; N]) -> [f32; 4] { \
                     take(4) o gather(reverse) o join o slide(K, 1) $ x }";

#[test]
fn a_flat_index_beyond_i32_max_through_a_view() {
    let ctx = ctx();
    let (n, k) = (100_000usize, 50_000usize);
    assert!((n - k + 1) * k > i32::MAX as usize);
    let x = random_f32(n, 7);
    let want = vec![x[n - 1], x[n - 2], x[n - 3], x[n - 4]];
    let got = Tail4::new(ctx)
        .expect("builds")
        .run(n, k, &x)
        .expect("runs");
    assert_eq!(got, want);
    // The same through DynKernel.
    let d = DynKernel::compile(ctx, TAIL4, "Tail4").expect("compiles");
    let got = d.run(&[n, k], &[Value::from_f32s(&x)]).expect("runs");
    assert_eq!(got, Value::from_f32s(&want));
}

#[test]
fn arrays_that_fit_keep_32_bit_indices() {
    // A context of its own, to count its builds.
    let ctx = Context::new().expect("a context");
    let t = Tail4::new(&ctx).expect("builds");
    let before = ctx.builds();
    let limit = lift_runtime::core::typeck::INDEX32_LIMIT as usize;
    // N = 2K - 1: K windows of K elements, K * K of them in all.
    let fits = (limit as f64).sqrt() as usize;
    assert!(fits * fits <= limit && (fits + 1) * (fits + 1) > limit);
    for (k, builds) in [(fits, 0), (fits + 1, 1)] {
        let n = 2 * k - 1;
        let x = random_f32(n, 9);
        let got = t.run(n, k, &x).expect("runs");
        assert_eq!(got, vec![x[n - 1], x[n - 2], x[n - 3], x[n - 4]], "K = {k}");
        assert_eq!(
            ctx.builds(),
            before + builds,
            "K = {k}: a 64-bit build only beyond the limit"
        );
    }
}
