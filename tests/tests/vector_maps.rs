//! Vectorised and coarsened element-wise maps (`vector(w, k, tail)`,
//! `lift_core::explore::vectors`, issue 36 item 3): every candidate of saxpy, a unary map, a
//! map over a zip of three arrays, a 2-D map and a map calling a user function, in `f32` and
//! `f64`, launched on the default device at lengths 1, 3, 4, 5, 1023, 1024 and 4099 (the
//! padded candidates' scalar tail of 0 to 3 lanes), each bit for bit equal to the scalar
//! default mapping on the device, which is bit for bit the interpreter's for saxpy and within
//! the rounding of a contracted multiply-add (OpenCL's default `FP_CONTRACT`) for the others.
//! The default candidate, the one the launcher takes untuned, is a vectorised one at every
//! length.

use lift_runtime::core::interp::{Scalar, Value};
use lift_runtime::DynKernel;
use lift_tests::{ctx, interpret, random_f32};

/// Lengths: 1, below one vector, one vector, one vector and a lane, and around 1024 and 4096.
const LENGTHS: [usize; 7] = [1, 3, 4, 5, 1023, 1024, 4099];

/// The programs, with `T` for the element type; the lambdas' names include `t0` (the
/// normaliser's) and `v_0` (the code generator's lane temporary).
const PROGRAMS: [(&str, &str); 5] = [
    (
        "saxpy",
        "kernel K<N>(x: [T; N], y: [T; N]) -> [T; N] { map(|(a, b)| 2.0 * a + b) $ zip(x, y) }",
    ),
    (
        "unary",
        "kernel K<N>(x: [T; N]) -> [T; N] { map(|v_0| v_0 * v_0 - 0.5) $ x }",
    ),
    (
        "zip3",
        "kernel K<N>(x: [T; N], y: [T; N], z: [T; N]) -> [T; N] { map(|(t0, b, c)| t0 * b - c) $ zip(x, y, z) }",
    ),
    (
        "rows",
        "kernel K<N, M>(x: [[T; M]; N]) -> [[T; M]; N] { map(map(|v| v * 3.0 + 1.0)) $ x }",
    ),
    (
        "user",
        "fn scaled(a: T, b: T) -> T { max(a, b) * 0.25 - min(a, b) }\n\
         kernel K<N>(x: [T; N], y: [T; N]) -> [T; N] { map(|p| scaled(p.0, p.1)) $ zip(x, y) }",
    ),
];

/// `n` random values of type `ty` (`f32` or `f64`), as a 1-D array or `rows` rows.
fn data(ty: &str, n: usize, rows: Option<usize>, seed: u64) -> Value {
    let xs: Vec<Scalar> = random_f32(n, seed)
        .into_iter()
        .map(|x| match ty {
            "f64" => Scalar::F64(f64::from(x) * 1.000_000_1),
            _ => Scalar::F32(x),
        })
        .collect();
    match rows {
        Some(r) => Value::Array(xs.chunks(n / r).map(Value::from_scalars).collect()),
        None => Value::from_scalars(&xs),
    }
}

/// The bits of every scalar of `v`.
fn bits(v: &Value) -> Vec<u64> {
    v.flatten()
        .into_iter()
        .map(|s| match s {
            Scalar::F32(x) => u64::from(x.to_bits()),
            Scalar::F64(x) => x.to_bits(),
            other => panic!("unexpected {other:?}"),
        })
        .collect()
}

/// Whether `got` is within a rounding of the fused multiply-adds OpenCL C may contract
/// (`FP_CONTRACT` is on by default: POCL computes `v * v - 0.5` as one `fma`, the
/// interpreter rounds twice) of `want`.
fn near(got: &Value, want: &Value) -> bool {
    let (g, w) = (got.flatten(), want.flatten());
    g.len() == w.len()
        && g.iter().zip(&w).all(|(a, b)| {
            let (a, b, tol) = match (a, b) {
                (Scalar::F32(a), Scalar::F32(b)) => (f64::from(*a), f64::from(*b), 1e-6),
                (a, b) => (a.to_f64(), b.to_f64(), 1e-14),
            };
            (a - b).abs() <= tol * b.abs().max(1.0)
        })
}

/// Runs every candidate of `text` at length `n` (a 2-D program: `rows x n / rows`): each
/// bit for bit equal to the default mapping (`map`, scalar code) on the device, which is
/// within a contracted rounding of the interpreter, and bit for bit equal to it where
/// `exact` (no rounding a contraction could remove); gives the names of those that ran.
fn every_candidate(text: &str, ty: &str, n: usize, two_d: bool, exact: bool) -> Vec<String> {
    let ctx = ctx();
    let inputs = text.matches(&format!(": [{ty}; N]")).count().max(1);
    let (sizes, rows) = if two_d {
        let rows = [32, 3, 2, 1]
            .into_iter()
            .find(|r| n.is_multiple_of(*r))
            .unwrap_or(1);
        (vec![rows, n / rows], Some(rows))
    } else {
        (vec![n], None)
    };
    let args: Vec<Value> = (0..inputs)
        .map(|i| data(ty, n, rows, (n * 7 + i) as u64))
        .collect();
    let want = interpret(text, "K", &sizes, &args);
    let default = DynKernel::compile_for(ctx, text, "K", &sizes).expect("compiles");
    assert!(
        default.candidate().starts_with("vector("),
        "{text} at {n}: the default is {}",
        default.candidate()
    );
    let run = |name: &str| {
        let k = DynKernel::compile_candidate(ctx, text, "K", Some(name)).expect("builds");
        let got = (k.applies(&sizes)).then(|| {
            k.run(&sizes, &args)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
        });
        (got, k.lowered().to_string())
    };
    let (Some(scalar), _) = run("map") else {
        panic!("{text}: the default mapping does not apply at {sizes:?}")
    };
    assert!(
        near(&scalar, &want),
        "{text} at {sizes:?}: map is not near the interpreter"
    );
    if exact {
        assert_eq!(bits(&scalar), bits(&want), "{text} at {sizes:?}: map");
    }
    let mut ran = Vec::new();
    for name in default.candidates() {
        let (Some(got), lowered) = run(name) else {
            continue;
        };
        assert!(
            bits(&got) == bits(&scalar),
            "{text}\n{name} at {sizes:?}: differs from the default mapping\nlowered: {lowered}"
        );
        ran.push(name.clone());
    }
    ran
}

#[test]
fn every_vector_map_candidate_is_bit_identical() {
    for (what, program) in PROGRAMS {
        for ty in ["f32", "f64"] {
            let text = program.replace('T', ty);
            for n in LENGTHS {
                let ran = every_candidate(&text, ty, n, what == "rows", what == "saxpy");
                let vector = ran.iter().filter(|c| c.starts_with("vector(")).count();
                // The padded ones everywhere, the exact one where the width divides.
                let w = if ty == "f64" { 2 } else { 4 };
                let want = 3 + usize::from(n % w == 0);
                assert_eq!(vector, want, "{what} {ty} at {n}: {ran:?}");
            }
        }
    }
}
