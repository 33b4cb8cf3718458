//! LIFT's language beyond the core (SPEC section 2, "More of LIFT's language"), on the
//! default device against the interpreter: vector constants (an unsuffixed literal splatted
//! where a fold needs a vector). Wide `mirror` padding is tested with the stencils.

use lift_runtime::core::interp::{Scalar, Value};
use lift_runtime::DynKernel;
use lift_tests::{assert_close, ctx, f32s, interpret, random_f32};

/// Compiles `src` at run time, runs kernel `K` at `sizes` and compares with the interpreter.
fn agrees(src: &str, sizes: &[usize], args: &[Value]) -> Vec<f32> {
    let want = f32s(&interpret(src, "K", sizes, args));
    let k = DynKernel::compile(ctx(), src, "K").unwrap_or_else(|e| panic!("{src}: {e}"));
    let got = f32s(&k.run(sizes, args).unwrap_or_else(|e| panic!("{src}: {e}")));
    assert_close(&got, &want, 1e-5, src);
    got
}

/// `[f32x4; n]` of `4 n` floats.
fn vectors(xs: &[f32]) -> Value {
    Value::Array(
        xs.chunks(4)
            .map(|c| Value::Vector(c.iter().map(|v| Scalar::F32(*v)).collect()))
            .collect(),
    )
}

#[test]
fn vector_zero_accumulators() {
    for n in [1, 7, 64] {
        let x = random_f32(4 * n, n as u64);
        // A vector sum: the accumulator `0.0` is a float4 of zeros.
        let got = agrees(
            "kernel K<N>(x: [f32x4; N]) -> f32x4 { reduce_seq(|a, v| a + v, 0.0) $ x }",
            &[n],
            &[vectors(&x)],
        );
        let lane0: f32 = x.iter().step_by(4).sum();
        assert!((got[0] - lane0).abs() < 1e-4, "{got:?} vs {lane0}");
        // The high-level reduction too, and a per-row vector sum.
        agrees(
            "kernel K<N>(x: [f32x4; N]) -> f32x4 { reduce(+, 0.0) $ x }",
            &[n],
            &[vectors(&x)],
        );
        let rows = random_f32(8 * n, 7);
        agrees(
            "kernel K<N>(x: [[f32x4; 2]; N]) -> [f32x4; N] { map(reduce_seq(|a, v| a + v * 2.0, 1.0)) $ x }",
            &[n],
            &[Value::Array(rows.chunks(8).map(vectors).collect())],
        );
        // A scalar accumulator over vectors stays scalar.
        agrees(
            "kernel K<N>(x: [f32x4; N]) -> f32 { reduce_seq(|s, v| s + 1.0, 0.0) $ x }",
            &[n],
            &[vectors(&x)],
        );
    }
}
