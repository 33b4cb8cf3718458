//! LIFT compatibility: programs of LIFT's own test suite (`src/test/opencl/generator`, named
//! after their test classes), ported by spelling alone, each checked as LIFT checks it, against
//! a gold result computed in plain Rust, and against the interpreter, with every candidate the
//! explorer derives, at odd sizes.

use lift_runtime::core::interp::{Scalar, Value};
use lift_runtime::DynKernel;
use lift_tests::{assert_close, ctx, f32s, interpret, random_f32};

/// Runs every candidate of kernel `k` of `src` at `sizes`; each must match `gold` (and the
/// interpreter) to `tol`.
fn check(src: &str, k: &str, sizes: &[usize], args: &[Value], gold: &[f32], tol: f32) {
    let want = f32s(&interpret(src, k, sizes, args));
    assert_close(&want, gold, tol, &format!("{k}: interpreter vs gold"));
    let cands = DynKernel::compile(ctx(), src, k)
        .unwrap_or_else(|e| panic!("{k}: {e}"))
        .candidates()
        .to_vec();
    for c in cands {
        let dk = DynKernel::compile_candidate(ctx(), src, k, Some(&c))
            .unwrap_or_else(|e| panic!("{k} {c}: {e}"));
        match dk.run(sizes, args) {
            Ok(got) => assert_close(&f32s(&got), gold, tol, &format!("{k} {c} at {sizes:?}")),
            // A candidate whose launch-time conditions fail at these sizes is skipped.
            Err(lift_runtime::Error::Precondition { .. }) => {}
            Err(e) => panic!("{k} {c}: {e}"),
        }
    }
}

fn v(xs: &[f32]) -> Value {
    Value::from_f32s(xs)
}

fn rows(xs: &[f32], m: usize) -> Value {
    Value::Array(xs.chunks(m).map(v).collect())
}

const PROGRAM: &str = "
fn add(a: f32, b: f32) -> f32 { a + b }
fn mult(a: f32, b: f32) -> f32 { a * b }
fn plus_one(x: f32) -> f32 { x + 1.0 }

// TestMisc: vectorAdd, saxpy, vectorScal.
kernel VectorAdd<N>(x: [f32; N], y: [f32; N]) -> [f32; N] { map(add) $ zip(x, y) }
kernel Saxpy<N>(a: f32, x: [f32; N], y: [f32; N]) -> [f32; N] { map(|p| a * p.0 + p.1) $ zip(x, y) }
// TestDotProduct: dot and the partial reduction of asum.
kernel Dot<N>(x: [f32; N], y: [f32; N]) -> f32 { reduce(add, 0.0) o map(mult) $ zip(x, y) }
kernel Asum<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) o map(|v| abs(v)) $ x }
// TestMatrixVector: gemv, with alpha and beta.
kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M], y: [f32; N], alpha: f32, beta: f32) -> [f32; N] {
    map(|p| alpha * p.0 + beta * p.1) $ zip(map(|row| reduce(add, 0.0) o map(mult) $ zip(row, x)) $ a, y)
}
// TestTranspose: transpose twice is the identity; a transposed copy.
kernel TransposeCopy<N, M>(a: [[f32; M]; N]) -> [[f32; N]; M] { map(map(id)) o transpose $ a }
kernel TransposeTwice<N, M>(a: [[f32; M]; N]) -> [[f32; M]; N] { map(map(plus_one)) o transpose o transpose $ a }
// TestScatterGather: reverse on read and on write.
kernel GatherReverse<N>(x: [f32; N]) -> [f32; N] { map(plus_one) o gather(reverse) $ x }
kernel ScatterReverse<N>(x: [f32; N]) -> [f32; N] { scatter(reverse) o map(plus_one) $ x }
// TestHeadTail, TestTail.
kernel TailSum<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) o tail $ x }
kernel HeadOfRows<N, M>(a: [[f32; M]; N]) -> [[f32; 1]; N] { map(head) $ a }
// TestScanSeq, TestReduceWhile.
kernel Scan<N>(x: [f32; N]) -> [f32; N] { scan_seq(add, 0.0) $ x }
kernel SumWhilePositive<N>(x: [f32; N]) -> f32 { reduce_while_seq(+, |v| v >= 0.0, 0.0) $ x }
// TestSlide, TestPad (GettingStarted: a 3-point stencil with clamp).
kernel Stencil1D<N>(x: [f32; N]) -> [f32; N] { map(reduce(add, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x }
kernel Stencil2D<N, M>(a: [[f32; M]; N]) -> [[f32; M]; N] {
    map2(|w| w[0][1] + w[1][0] + w[1][1] + w[1][2] + w[2][1]) o slide2(3, 1) o pad2(1, mirror) $ a
}
// TestTuple: tuples in and out of maps.
kernel TupleSwap<N>(x: [f32; N], y: [f32; N]) -> [f32; N] { map(|p| p.1 - p.0) o map(|p| (p.1, p.0)) $ zip(x, y) }
// TestIterate: iterate a shrinking stencil.
kernel IterateSlide<N>(x: [f32; N]) -> [f32; N - 4] { iterate(2, map(reduce(+, 0.0)) o slide(3, 1)) $ x }
// TestVector: vectorize a user function over float4.
kernel VectorizeAdd<N>(x: [f32; N], y: [f32; N]) -> [f32; N] {
    as_scalar o map(vectorize(4, add)) $ zip(as_vector(4) $ x, as_vector(4) $ y)
}
";

#[test]
fn vector_programs() {
    for n in [1, 17, 1000] {
        let (x, y) = (random_f32(n, 1), random_f32(n, 2));
        let add: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
        check(PROGRAM, "VectorAdd", &[n], &[v(&x), v(&y)], &add, 0.0);
        let saxpy: Vec<f32> = x.iter().zip(&y).map(|(a, b)| 1.5 * a + b).collect();
        let a = Value::Scalar(Scalar::F32(1.5));
        check(PROGRAM, "Saxpy", &[n], &[a, v(&x), v(&y)], &saxpy, 1e-6);
        let dot: f32 = x.iter().zip(&y).map(|(a, b)| a * b).sum();
        check(PROGRAM, "Dot", &[n], &[v(&x), v(&y)], &[dot], 1e-4);
        let asum: f32 = x.iter().map(|v| v.abs()).sum();
        check(PROGRAM, "Asum", &[n], &[v(&x)], &[asum], 1e-4);
        let rev: Vec<f32> = x.iter().rev().map(|v| v + 1.0).collect();
        check(PROGRAM, "GatherReverse", &[n], &[v(&x)], &rev, 0.0);
        check(PROGRAM, "ScatterReverse", &[n], &[v(&x)], &rev, 0.0);
        let mut run = 0.0;
        let scan: Vec<f32> = x
            .iter()
            .map(|v| {
                run += v;
                run
            })
            .collect();
        check(PROGRAM, "Scan", &[n], &[v(&x)], &scan, 1e-4);
        let pos: f32 = x.iter().take_while(|v| **v >= 0.0).sum();
        check(PROGRAM, "SumWhilePositive", &[n], &[v(&x)], &[pos], 1e-5);
        let swap: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a - b).collect();
        check(PROGRAM, "TupleSwap", &[n], &[v(&x), v(&y)], &swap, 0.0);
        let clamp = |i: i64| x[i.clamp(0, n as i64 - 1) as usize];
        let st: Vec<f32> = (0..n as i64)
            .map(|i| clamp(i - 1) + clamp(i) + clamp(i + 1))
            .collect();
        check(PROGRAM, "Stencil1D", &[n], &[v(&x)], &st, 1e-5);
        if n >= 2 {
            let tail: f32 = x[1..].iter().sum();
            check(PROGRAM, "TailSum", &[n], &[v(&x)], &[tail], 1e-4);
        }
        if n >= 5 {
            let step = |xs: &[f32]| -> Vec<f32> { xs.windows(3).map(|w| w.iter().sum()).collect() };
            check(
                PROGRAM,
                "IterateSlide",
                &[n],
                &[v(&x)],
                &step(&step(&x)),
                1e-4,
            );
        }
        if n % 4 == 0 {
            check(PROGRAM, "VectorizeAdd", &[n], &[v(&x), v(&y)], &add, 0.0);
        }
    }
}

#[test]
fn matrix_programs() {
    for (n, m) in [(1, 1), (7, 13), (64, 33)] {
        let a = random_f32(n * m, 3);
        let (x, y) = (random_f32(m, 4), random_f32(n, 5));
        let gemv: Vec<f32> = (0..n)
            .map(|i| {
                let dot: f32 = (0..m).map(|j| a[i * m + j] * x[j]).sum();
                2.0 * dot + 0.5 * y[i]
            })
            .collect();
        let (alpha, beta) = (
            Value::Scalar(Scalar::F32(2.0)),
            Value::Scalar(Scalar::F32(0.5)),
        );
        check(
            PROGRAM,
            "Gemv",
            &[n, m],
            &[rows(&a, m), v(&x), v(&y), alpha, beta],
            &gemv,
            1e-4,
        );
        let t: Vec<f32> = (0..m)
            .flat_map(|j| (0..n).map(move |i| (i, j)))
            .map(|(i, j)| a[i * m + j])
            .collect();
        check(PROGRAM, "TransposeCopy", &[n, m], &[rows(&a, m)], &t, 0.0);
        let plus: Vec<f32> = a.iter().map(|v| v + 1.0).collect();
        check(
            PROGRAM,
            "TransposeTwice",
            &[n, m],
            &[rows(&a, m)],
            &plus,
            0.0,
        );
        let heads: Vec<f32> = a.chunks(m).map(|r| r[0]).collect();
        check(PROGRAM, "HeadOfRows", &[n, m], &[rows(&a, m)], &heads, 0.0);
        // 5-point stencil with mirror padding (one reflection, `-1 - i`, `2n - 1 - i`).
        let mir = |i: i64, len: usize| -> usize {
            let len = len as i64;
            (if i < 0 {
                -1 - i
            } else if i >= len {
                2 * len - 1 - i
            } else {
                i
            }) as usize
        };
        let at = |i: i64, j: i64| a[mir(i, n) * m + mir(j, m)];
        let st: Vec<f32> = (0..n as i64)
            .flat_map(|i| (0..m as i64).map(move |j| (i, j)))
            .map(|(i, j)| at(i - 1, j) + at(i, j - 1) + at(i, j) + at(i, j + 1) + at(i + 1, j))
            .collect();
        check(PROGRAM, "Stencil2D", &[n, m], &[rows(&a, m)], &st, 1e-5);
    }
}
