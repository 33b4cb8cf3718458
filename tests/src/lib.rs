//! Shared helpers of the cross-crate tests: one OpenCL context per test binary, random
//! inputs, and the reference interpreter run on a kernel's `LIFT` text.

#![warn(missing_docs)]

use lift_runtime::core::device::DeviceModel;
use lift_runtime::core::interp::{run_kernel, Scalar, Value};
use lift_runtime::core::{parse, typeck};
use lift_runtime::Context;
use rand::{Rng, SeedableRng};
use std::sync::OnceLock;

/// The context of the default device (`LIFT_DEVICE`), opened once, exploring for the
/// build-time device model ([`DeviceModel::DEFAULT`]): the suites pin the candidates that
/// model derives (names, counts, which apply where) and their running time on POCL, whose own
/// model (MiBs of local memory, groups of 4096) derives other and slower ones; `models.rs`
/// checks every candidate of the devices' own and of other models. Panics with the runtime's
/// message (how to install OpenCL) when there is no device, so a missing driver fails loudly.
pub fn ctx() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    CTX.get_or_init(|| {
        Context::new()
            .unwrap_or_else(|e| panic!("no OpenCL device: {e}"))
            .with_device_model(DeviceModel::DEFAULT)
    })
}

/// `n` random floats in [-1, 1) from `seed`.
pub fn random_f32(n: usize, seed: u64) -> Vec<f32> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect()
}

/// `n` random integers in [-100, 100) from `seed`.
pub fn random_i32(n: usize, seed: u64) -> Vec<i32> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..n).map(|_| rng.gen_range(-100..100)).collect()
}

/// Runs kernel `kernel` of the `LIFT` text of a generated struct in the reference interpreter.
pub fn interpret(lift: &str, kernel: &str, sizes: &[usize], args: &[Value]) -> Value {
    let mut prog = parse::parse_program_str(lift).expect("LIFT text reparses");
    typeck::check_program(&mut prog).expect("LIFT text type-checks");
    let sizes: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
    run_kernel(&prog, kernel, &sizes, args).expect("interpreter runs")
}

/// A 2-D array value of `rows` rows from row-major data.
pub fn matrix(data: &[f32], rows: usize) -> Value {
    let cols = data.len() / rows.max(1);
    Value::Array(data.chunks(cols.max(1)).map(Value::from_f32s).collect())
}

/// The flattened f32s of an interpreter result.
pub fn f32s(v: &Value) -> Vec<f32> {
    v.flatten()
        .into_iter()
        .map(|s| match s {
            Scalar::F32(x) => x,
            other => panic!("expected f32, found {other:?}"),
        })
        .collect()
}

/// Asserts that two float slices agree to a relative tolerance (reassociation on the device).
pub fn assert_close(device: &[f32], reference: &[f32], tol: f32, what: &str) {
    assert_eq!(device.len(), reference.len(), "{what}: lengths differ");
    for (i, (a, b)) in device.iter().zip(reference).enumerate() {
        let scale = 1.0f32.max(b.abs());
        assert!(
            (a - b).abs() <= tol * scale,
            "{what}: element {i}: device {a} vs interpreter {b}"
        );
    }
}

/// `n` random values drawn uniformly from `lo..hi` with `seed`.
pub fn random<T: rand::distributions::uniform::SampleUniform + PartialOrd + Copy>(
    n: usize,
    lo: T,
    hi: T,
    seed: u64,
) -> Vec<T> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..n).map(|_| rng.gen_range(lo..hi)).collect()
}

/// Asserts that device results equal the flattened interpreter result: integers and bools
/// exactly, floats (f16, f32, f64) to relative tolerance `tol`.
pub fn assert_matches<T: Into<Scalar> + Copy>(
    device: &[T],
    reference: &Value,
    tol: f64,
    what: &str,
) {
    let want = reference.flatten();
    assert_eq!(device.len(), want.len(), "{what}: lengths differ");
    for (i, (&a, b)) in device.iter().zip(&want).enumerate() {
        let a: Scalar = a.into();
        assert_eq!(a.ty(), b.ty(), "{what}: element {i}: types differ");
        let ok = match a {
            Scalar::F16(_) | Scalar::F32(_) | Scalar::F64(_) => {
                let (x, y) = (a.to_f64(), b.to_f64());
                (x - y).abs() <= tol * 1f64.max(y.abs()) || (x.is_nan() && y.is_nan())
            }
            _ => a == *b,
        };
        assert!(ok, "{what}: element {i}: device {a:?} vs interpreter {b:?}");
    }
}

/// A row-major array value of shape `dims` from flat `data`.
pub fn nested<T: Into<Scalar> + Copy>(data: &[T], dims: &[usize]) -> Value {
    match dims {
        [] | [_] => Value::from_scalars(data),
        [_, rest @ ..] => {
            let inner: usize = rest.iter().product();
            Value::Array(data.chunks(inner.max(1)).map(|c| nested(c, rest)).collect())
        }
    }
}

/// Runs every candidate of kernel `kernel` of `program` instrumented by the race checker at
/// `sizes` on `args`, asserting that none races; gives each candidate that ran (a candidate
/// whose preconditions fail at these sizes is skipped) with its result and its OpenCL C.
pub fn traced_candidates(
    program: &str,
    kernel: &str,
    sizes: &[usize],
    args: &[Value],
) -> Vec<(String, Value, String)> {
    use lift_runtime::core::codegen::trace::Options;
    use lift_runtime::DynKernel;
    let opts = Options {
        trace: true,
        drop_barrier: None,
    };
    let names = DynKernel::compile(ctx(), program, kernel)
        .unwrap_or_else(|e| panic!("{kernel}: {e}"))
        .candidates()
        .to_vec();
    let mut ran = Vec::new();
    for name in names {
        let k = DynKernel::compile_traced(ctx(), program, kernel, Some(&name), opts)
            .unwrap_or_else(|e| panic!("{kernel} {name}: {e}"));
        let (got, races) = match k.check_races(sizes, args) {
            Ok(r) => r,
            Err(lift_runtime::Error::Precondition { .. }) => continue,
            Err(e) => panic!("{kernel} {name} at {sizes:?}: {e}"),
        };
        let races: Vec<String> = races.iter().map(ToString::to_string).collect();
        assert!(
            races.is_empty(),
            "{kernel} {name} at {sizes:?}: {}\n{}",
            races.join("; "),
            k.source()
        );
        let source = k.source().to_string();
        ran.push((name, got, source));
    }
    ran
}

pub mod diff;
pub mod names;
pub mod soak;
