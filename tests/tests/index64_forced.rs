//! Every kernel built with 64-bit indices (`LIFT_INDEX64=1`, set before anything runs in
//! this test binary) agrees with the interpreter: random programs of every family through
//! every candidate, and `lift!` launchers of stencils, reductions and matrix products.

use lift_runtime::lift;
use lift_tests::diff::{self, CheckOptions, Outcome};
use lift_tests::{assert_close, ctx, random_f32};
use std::sync::Once;

/// Sets `LIFT_INDEX64=1` once, before any kernel of this binary is launched.
fn force_index64() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| std::env::set_var("LIFT_INDEX64", "1"));
}

lift! {
    /// 3-point stencil with clamped borders (`lift_min`/`lift_max` on `long` indices).
    kernel Blur3<N>(x: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x
    }

    /// A full reduction (two kernels).
    kernel Sum<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ x }

    /// A matrix product (blocked candidates with local memory).
    kernel MatMul<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|row| map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, col)) o transpose $ b) $ a
    }
}

#[test]
fn random_programs_agree_with_64_bit_indices() {
    force_index64();
    let ctx = ctx();
    let mut failed = Vec::new();
    let mut agreed = 0;
    for seed in 0..48u64 {
        let c = diff::case(seed, None);
        match diff::check(ctx, &c, CheckOptions::default()) {
            Outcome::Agree(_) => agreed += 1,
            Outcome::Rejected(_) => {}
            Outcome::Failed(kind, why) => {
                failed.push(format!("seed {seed} ({kind}): {}\n{why}", c.text))
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
    assert!(agreed >= 24, "only {agreed} of 48 programs ran");
}

#[test]
fn launchers_with_64_bit_indices() {
    force_index64();
    let ctx = ctx();
    for n in [1usize, 7, 1000] {
        let x = random_f32(n, 3);
        let gold: Vec<f32> = (0..n)
            .map(|i| x[i.saturating_sub(1)] + x[i] + x[(i + 1).min(n - 1)])
            .collect();
        let got = Blur3::new(ctx).unwrap().run(n, &x).unwrap();
        assert_close(&got, &gold, 1e-5, "Blur3");
        let sum = Sum::new(ctx).unwrap().run(n, &x).unwrap();
        assert_close(&[sum], &[x.iter().sum()], 1e-4, "Sum");
    }
    let k = MatMul::new(ctx).unwrap();
    for (n, kk, m) in [(5, 3, 7), (64, 64, 64), (67, 33, 130)] {
        let a = random_f32(n * kk, 1);
        let b = random_f32(kk * m, 2);
        let gold: Vec<f32> = (0..n * m)
            .map(|p| (0..kk).map(|q| a[p / m * kk + q] * b[q * m + p % m]).sum())
            .collect();
        let cands = k.candidates().unwrap();
        for (c, cand) in cands.iter().enumerate() {
            let (ab, bb) = (ctx.upload(&a).unwrap(), ctx.upload(&b).unwrap());
            let out = ctx.alloc::<f32>(n * m).unwrap();
            match k.launch_candidate(c, n, kk, m, &ab, &bb, &out) {
                Ok(ev) => {
                    ev.wait().unwrap();
                    let what = format!("MatMul {n}x{kk}x{m} candidate {}", cand.name);
                    assert_close(&out.download().unwrap(), &gold, 1e-4, &what);
                }
                // A candidate whose conditions fail at these sizes.
                Err(lift_runtime::Error::Launch { .. }) => {}
                Err(e) => panic!("MatMul candidate {c}: {e}"),
            }
        }
    }
}
