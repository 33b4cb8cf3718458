//! `filter_seq(p)` (SPEC section 2, "More of LIFT's language"): a result whose length is known
//! at run time only, `[a; <= n]`. Returned (alone, mapped, over tuples and rows), its length
//! comes back through a count buffer and `run` gives exactly the kept elements; reduced, the
//! filter is rewritten away. Every candidate on the default device against the interpreter, at
//! odd sizes, and against plain Rust.

use lift_runtime::core::interp::{Scalar, Value};
use lift_runtime::{lift, DynKernel, Error};
use lift_tests::{assert_close, ctx, f32s, interpret, matrix, random_f32, random_i32};

const SRC: &str = "
kernel Pos<N>(x: [f32; N]) -> [f32; <= N] { filter_seq(|v| v > 0.0) $ x }
kernel PosSq<N>(x: [f32; N]) -> [f32; <= N] { map(|v| v * v) o filter_seq(|v| v > 0.0) $ x }
kernel MapThen<N>(x: [f32; N]) -> [f32; <= N] { filter_seq(|v| v > 0.25) o map(|v| v * 2.0 - 0.5) $ x }
kernel Twice<N>(x: [f32; N]) -> [f32; <= N] { filter_seq(|v| v < 0.5) $ filter_seq(|v| v > -0.5) $ x }
kernel Pairs<N>(x: [f32; N], y: [f32; N]) -> [(f32, f32); <= N] { filter_seq(|p| p.0 < p.1) $ zip(x, y) }
kernel SumPos<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) o filter_seq(|v| v > 0.0) $ x }
kernel SumSq<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ map(|v| v * v) $ filter_seq(|v| v < 0.0) $ x }
kernel MaxNeg<N>(x: [f32; N]) -> f32 { reduce(max, -1000.0) $ filter_seq(|v| v < 0.0) $ x }
kernel Decay<N>(x: [f32; N]) -> f32 { reduce_seq(|a, v| a * 0.5 + v, 1.0) o filter_seq(|v| v < 0.0) $ x }
kernel RowCount<N, M>(x: [[f32; M]; N]) -> [i32; N] { map(|r| reduce_seq(|a, v| a + 1, 0i32) $ filter_seq(|v| v > 0.0) $ r) $ x }
kernel Rows<N, M>(x: [[f32; M]; N]) -> [[f32; M]; <= N] { filter_seq(|r| (reduce(+, 0.0) $ r) > 0.0) $ x }
kernel Even<N>(x: [i32; N]) -> [i32; <= N] { filter_seq(|v| v % 2 == 0) $ x }
";

/// Runs kernel `k` with every candidate the explorer derives that applies at `sizes` (a
/// derived reduction reading vectors needs a multiple of their width) and compares with the
/// interpreter (floats to a relative 1e-5, the rest exactly); gives the interpreter's result.
fn every_candidate(k: &str, sizes: &[usize], args: &[Value]) -> Value {
    let want = interpret(SRC, k, sizes, args);
    let dk = DynKernel::compile(ctx(), SRC, k).unwrap_or_else(|e| panic!("{k}: {e}"));
    assert!(!dk.candidates().is_empty(), "{k}: no candidate");
    for c in dk.candidates() {
        let ck = DynKernel::compile_candidate(ctx(), SRC, k, Some(c))
            .unwrap_or_else(|e| panic!("{k} ({c}): {e}"));
        if !ck.applies(sizes) {
            continue;
        }
        let got = ck
            .run(sizes, args)
            .unwrap_or_else(|e| panic!("{k} ({c}): {e}"));
        let what = format!("{k} ({c}) at {sizes:?}");
        if let (Value::Array(g), Value::Array(w)) = (&got, &want) {
            assert_eq!(g.len(), w.len(), "{what}: length");
        }
        if matches!(want.flatten().first(), Some(Scalar::F32(_))) {
            assert_close(&f32s(&got), &f32s(&want), 1e-5, &what);
        } else {
            assert_eq!(got.flatten(), want.flatten(), "{what}");
        }
    }
    want
}

#[test]
fn returned_filters_agree_at_odd_sizes() {
    for n in [1, 2, 17, 1001] {
        let x = random_f32(n, n as u64);
        let arg = [Value::from_f32s(&x)];
        let kept = f32s(&every_candidate("Pos", &[n], &arg));
        let plain: Vec<f32> = x.iter().copied().filter(|v| *v > 0.0).collect();
        assert_eq!(kept, plain, "Pos against plain Rust at {n}");
        for k in ["PosSq", "MapThen", "Twice"] {
            every_candidate(k, &[n], &arg);
        }
        let y = random_f32(n, 7 + n as u64);
        every_candidate("Pairs", &[n], &[Value::from_f32s(&x), Value::from_f32s(&y)]);
        let ints = random_i32(n, n as u64);
        let ints_v = Value::Array(
            ints.iter()
                .map(|v| Value::Scalar(Scalar::I32(*v)))
                .collect(),
        );
        every_candidate("Even", &[n], &[ints_v]);
    }
    let (rows, cols) = (33, 7);
    every_candidate(
        "Rows",
        &[rows, cols],
        &[matrix(&random_f32(rows * cols, 3), rows)],
    );
}

#[test]
fn nothing_and_everything_kept() {
    let n = 9;
    let none = every_candidate("Pos", &[n], &[Value::from_f32s(&[-1.0; 9])]);
    assert_eq!(f32s(&none), Vec::<f32>::new());
    let all = every_candidate("Pos", &[n], &[Value::from_f32s(&[2.0; 9])]);
    assert_eq!(f32s(&all), vec![2.0; 9]);
}

#[test]
fn reduced_filters_agree_at_odd_sizes() {
    for n in [1, 3, 1001, 4099] {
        let x = random_f32(n, 11 + n as u64);
        let arg = [Value::from_f32s(&x)];
        let sum = f32s(&every_candidate("SumPos", &[n], &arg))[0];
        let plain: f32 = x.iter().filter(|v| **v > 0.0).sum();
        assert!(
            (sum - plain).abs() <= 1e-3 * plain.abs().max(1.0),
            "SumPos at {n}"
        );
        for k in ["SumSq", "MaxNeg", "Decay"] {
            every_candidate(k, &[n], &arg);
        }
    }
    let (rows, cols) = (37, 19);
    every_candidate(
        "RowCount",
        &[rows, cols],
        &[matrix(&random_f32(rows * cols, 5), rows)],
    );
}

/// A reduction of a filter needs no filtered array: the rewrite leaves no `filter_seq` and
/// the full reduction stays parallel (the explorer's two-kernel reduction).
#[test]
fn reduced_filter_is_rewritten_away() {
    let dk = DynKernel::compile(ctx(), SRC, "SumPos").expect("compiles");
    assert!(!dk.lowered().contains("filter_seq"), "{}", dk.lowered());
    assert!(
        dk.candidates().iter().any(|c| c.starts_with("tree(")),
        "{:?}",
        dk.candidates()
    );
}

lift! {
    kernel Positive<N>(x: [f32; N]) -> [f32; <= N] {
        map(|v| v + 1.0) o filter_seq(|v| v > 0.0) $ x
    }
    kernel PositivePairs<N>(x: [f32; N]) -> [(f32, f32); <= N] {
        filter_seq(|p| p.0 > 0.0) $ zip(x, map(|v| v * 3.0) $ x)
    }
}

#[test]
fn generated_launchers_return_the_kept_elements() {
    let n = 1003;
    let x = random_f32(n, 1);
    let k = Positive::new(ctx()).expect("builds");
    let got = k.run(n, &x).expect("runs");
    let want: Vec<f32> = x.iter().filter(|v| **v > 0.0).map(|v| v + 1.0).collect();
    assert_eq!(got, want);
    assert_eq!(Positive::RESULT_TYPE, "[f32; <= N]");

    // `launch`: the capacity in `out`, the length in `count`.
    let xb = ctx().upload(&x).expect("upload");
    let out = ctx().alloc::<f32>(n).expect("alloc");
    let count = ctx().alloc::<i32>(1).expect("alloc");
    k.launch(n, &xb, &out, &count)
        .expect("launch")
        .wait()
        .expect("wait");
    let kept = count.download().expect("download")[0] as usize;
    assert_eq!(kept, want.len());
    assert_eq!(&out.download().expect("download")[..kept], &want[..]);
    let wrong = ctx().alloc::<i32>(2).expect("alloc");
    match k.launch(n, &xb, &out, &wrong) {
        Err(Error::ArgLength {
            arg,
            expected,
            actual,
        }) => assert_eq!((arg.as_str(), expected, actual), ("count", 1, 2)),
        other => panic!("a count buffer of 2: {other:?}"),
    }

    let pairs = PositivePairs::new(ctx())
        .expect("builds")
        .run(n, &x)
        .expect("runs");
    let want: Vec<(f32, f32)> = x
        .iter()
        .filter(|v| **v > 0.0)
        .map(|v| (*v, v * 3.0))
        .collect();
    assert_eq!(pairs, want);
}
