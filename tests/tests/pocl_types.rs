//! Every scalar type and the scalar subset of user functions, generated OpenCL (POCL in CI)
//! against the reference interpreter: f16 storage, f64, signed and unsigned integers with C
//! division, bool and scalar parameters, math builtins, `#[opencl]` bodies, scalar results.

use lift_runtime::core::interp::{Scalar, Value};
use lift_runtime::half::f16;
use lift_runtime::lift;
use lift_tests::{assert_matches, ctx, interpret, random};

lift! {
    #[opencl] fn twice(a: f32) -> f32 { "return a * 2.0f;" }
    fn poly(a: f32, b: f32) -> f32 {
        let t = a * b;
        if t > 0.0 { sqrt(t) + abs(a) } else { -t + ((b * 10.0) as i32) as f32 }
    }
    fn pair(a: i32, b: i32) -> (i32, i32) { (a / b, a % b) }
    fn math(a: f32) -> f32 {
        let x = abs(a) + 0.5;
        sqrt(x) + exp(a) + log(x) + sin(a) + cos(a) + tan(a * 0.5) + min(a, 0.25) + max(a, -0.25)
            + pow(x, 1.5) + floor(a * 3.0) + ceil(a * 3.0) + fma(a, x, 1.0)
    }
    fn math64(a: f64) -> f64 {
        let x = abs(a) + 0.5;
        sqrt(x) + exp(a) + log(x) + sin(a) + cos(a) + tan(a * 0.5) + min(a, 0.25) + max(a, -0.25)
            + pow(x, 1.5) + floor(a * 3.0) + ceil(a * 3.0) + fma(a, x, 1.0)
    }

    kernel Half<N>(x: [f16; N], s: f16) -> [f16; N] { map_glb(0, |v| v * s + 1.0) $ x }
    kernel F64k<N>(x: [f64; N], a: f64) -> [f64; N] { map_glb(0, |v| v * a + 1.0) $ x }
    kernel I32k<N>(x: [i32; N], y: [i32; N]) -> [i32; N] {
        map_glb(0, |p| p.0 / p.1 + p.0 % p.1 * 1000 - p.0) $ zip(x, y)
    }
    kernel U32k<N>(x: [u32; N], y: [u32; N]) -> [u32; N] {
        map_glb(0, |p| p.0 / p.1 + p.0 % p.1 * 1000u32 - 7u32) $ zip(x, y)
    }
    kernel I64k<N>(x: [i64; N], y: [i64; N]) -> [i64; N] {
        map_glb(0, |p| p.0 / p.1 * 100000 + p.0 % p.1) $ zip(x, y)
    }
    kernel U64k<N>(x: [u64; N], y: [u64; N]) -> [u64; N] {
        map_glb(0, |p| p.0 / p.1 + p.0 % p.1 * 1000000u64) $ zip(x, y)
    }
    kernel Pair<N>(x: [i32; N], y: [i32; N]) -> [i32; N] {
        map_glb(0, |p| p.0 * 1000 + p.1) o map_glb(0, |p| pair(p.0, p.1)) $ zip(x, y)
    }
    kernel BoolP<N>(x: [f32; N], neg: bool) -> [f32; N] {
        map_glb(0, |v| if neg && v > -2.0 { -v } else { v }) $ x
    }
    kernel Poly<N>(x: [f32; N], y: [f32; N]) -> [f32; N] { map_glb(0, |p| poly(p.0, p.1)) $ zip(x, y) }
    kernel Math<N>(x: [f32; N]) -> [f32; N] { map_glb(0, math) $ x }
    kernel Math64<N>(x: [f64; N]) -> [f64; N] { map_glb(0, math64) $ x }
    kernel Ocl<N>(x: [f32; N]) -> [f32; N] { map_glb(0, |v| twice(v) + 1.0) $ x }
    kernel Scalars<N>(x: [f32; N], a: f32, b: f64, c: i32, d: u32, e: i64, f: u64, g: f16) -> [f32; N] {
        map_glb(0, |v| v * a + (b as f32) + (c as f32) + (d as f32) + (e as f32) + (f as f32) + (g as f32)) $ x
    }
    kernel FMod<N>(x: [f32; N], y: [f32; N]) -> [f32; N] { map_glb(0, |p| p.0 % p.1) $ zip(x, y) }
    kernel F64Lit<N>(x: [f64; N]) -> [f64; N] {
        map_glb(0, |v| v * 0.123456789012345678 + 1e-300 * 1e300 - 3.0e-7) $ x
    }
    kernel F32Lit<N>(x: [f32; N]) -> [f32; N] { map_glb(0, |v| v * 1e-8 + 3.4e38 / 1e38 - 0.1) $ x }
    kernel U64Lit<N>(x: [u64; N]) -> [u64; N] { map_glb(0, |v| v / 3 + 18446744073709551615) $ x }
    kernel I64Lit<N>(x: [i64; N]) -> [i64; N] {
        map_glb(0, |v| max(v, -9223372036854775807) + 10000000000 * (v % 7)) $ x
    }
    kernel Casts<N>(x: [f32; N]) -> [i32; N] {
        map_glb(0, |v| ((v * 100.0) as i32) + ((v > 0.0) as i32) * 1000 + (((v * 50.0) as i64) as i32) * 7) $ x
    }
    kernel CastU<N>(x: [i32; N]) -> [u32; N] { map_glb(0, |v| (v as u32) + ((v as f32) * 0.5) as u32) $ x }
    kernel IntMinMax<N>(x: [i32; N], y: [i32; N]) -> [i32; N] {
        map_glb(0, |p| min(p.0, p.1) * 3 + max(p.0, p.1) + abs(p.0) - -p.1) $ zip(x, y)
    }
    kernel Wrap32<N>(x: [i32; N]) -> [i32; N] { map_glb(0, |v| v * 1000003 * 1000003) $ x }
    kernel HalfMath<N>(x: [f16; N]) -> [f16; N] {
        map_glb(0, |v| sqrt(abs(v)) + (v as f32) as f16 + min(v, 0.5)) $ x
    }
    kernel Logic<N>(x: [i32; N]) -> [i32; N] {
        map_glb(0, |v| if !(v > 3) || (v < -50 && v != -60) { 1 } else { 0 }) $ x
    }
    kernel SumF16<N>(x: [f16; N]) -> f16 { reduce(+, 0.0) $ x }
    kernel SumF32<N>(x: [f32; N]) -> f32 { reduce(min, 100.0) $ x }
    kernel SumF64<N>(x: [f64; N]) -> f64 { reduce(+, 0.0) $ x }
    kernel SumI32<N>(x: [i32; N]) -> i32 { reduce(+, 0) $ x }
    kernel SumU32<N>(x: [u32; N]) -> u32 { reduce(+, 0u32) $ x }
    kernel SumI64<N>(x: [i64; N]) -> i64 { reduce(min, 0) $ x }
    kernel SumU64<N>(x: [u64; N]) -> u64 { reduce(max, 0u64) $ x }
}

/// Odd lengths: 1, primes, non-multiples of any work-group size.
const SIZES: [usize; 6] = [1, 2, 7, 31, 257, 1000];

fn f32s(n: usize, seed: u64) -> Vec<f32> {
    random(n, -1.0f32, 1.0, seed)
}

/// Nonzero divisors of both signs.
fn divisors(n: usize, seed: u64) -> Vec<i32> {
    random(n, -20i32, 20, seed)
        .into_iter()
        .map(|v| if v == 0 { 3 } else { v })
        .collect()
}

fn interp<T: Into<Scalar> + Copy>(lift: &str, name: &str, n: usize, arrays: &[&[T]]) -> Value {
    let args: Vec<Value> = arrays.iter().map(|a| Value::from_scalars(a)).collect();
    interpret(lift, name, &[n], &args)
}

#[test]
fn f16_storage_with_f32_arithmetic() {
    let k = Half::new(ctx()).unwrap();
    let s = f16::from_f32(1.5);
    for n in SIZES {
        let x: Vec<f16> = f32s(n, 1).into_iter().map(f16::from_f32).collect();
        let want = interpret(
            Half::LIFT,
            "Half",
            &[n],
            &[Value::from_scalars(&x), Scalar::F16(s).into()],
        );
        assert_matches(
            &k.run(n, &x, s).unwrap(),
            &want,
            1e-3,
            &format!("Half N={n}"),
        );
    }
    assert_eq!(
        k.run(2, &[f16::from_f32(1.0), f16::from_f32(-2.0)], s)
            .unwrap(),
        vec![f16::from_f32(2.5), f16::from_f32(-2.0)]
    );
}

#[test]
fn f64_with_a_scalar_parameter() {
    let k = F64k::new(ctx()).unwrap();
    for n in SIZES {
        let x = random(n, -1e3f64, 1e3, 2);
        let want = interpret(
            F64k::LIFT,
            "F64k",
            &[n],
            &[Value::from_scalars(&x), Scalar::F64(0.1).into()],
        );
        assert_matches(
            &k.run(n, &x, 0.1).unwrap(),
            &want,
            1e-12,
            &format!("F64k N={n}"),
        );
    }
}

#[test]
fn signed_division_and_remainder_truncate_like_c() {
    let k = I32k::new(ctx()).unwrap();
    for n in SIZES {
        let (x, y) = (random(n, -1000i32, 1000, 3), divisors(n, 4));
        let want = interp(I32k::LIFT, "I32k", n, &[&x, &y]);
        assert_matches(
            &k.run(n, &x, &y).unwrap(),
            &want,
            0.0,
            &format!("I32k N={n}"),
        );
    }
    // -7 / 2 = -3 and -7 % 2 = -1 in C (not floor semantics).
    assert_eq!(
        k.run(2, &[-7, 7], &[2, -2]).unwrap(),
        vec![-3 - 1000 + 7, -3 + 1000 - 7]
    );
    let k = I64k::new(ctx()).unwrap();
    for n in SIZES {
        let x = random(n, -(1i64 << 40), 1 << 40, 5);
        let y: Vec<i64> = divisors(n, 6).into_iter().map(i64::from).collect();
        let want = interp(I64k::LIFT, "I64k", n, &[&x, &y]);
        assert_matches(
            &k.run(n, &x, &y).unwrap(),
            &want,
            0.0,
            &format!("I64k N={n}"),
        );
    }
    let k = Pair::new(ctx()).unwrap();
    for n in SIZES {
        let (x, y) = (random(n, -1000i32, 1000, 7), divisors(n, 8));
        let want = interp(Pair::LIFT, "Pair", n, &[&x, &y]);
        assert_matches(
            &k.run(n, &x, &y).unwrap(),
            &want,
            0.0,
            &format!("Pair N={n}"),
        );
    }
}

#[test]
fn unsigned_arithmetic_wraps_like_c() {
    let k = U32k::new(ctx()).unwrap();
    for n in SIZES {
        let (x, y) = (random(n, 0u32, u32::MAX, 9), random(n, 1u32, 50, 10));
        let want = interp(U32k::LIFT, "U32k", n, &[&x, &y]);
        assert_matches(
            &k.run(n, &x, &y).unwrap(),
            &want,
            0.0,
            &format!("U32k N={n}"),
        );
    }
    assert_eq!(k.run(1, &[3], &[5]).unwrap(), vec![3000u32 - 7]);
    assert_eq!(k.run(1, &[0], &[5]).unwrap(), vec![0u32.wrapping_sub(7)]);
    let k = U64k::new(ctx()).unwrap();
    for n in SIZES {
        let (x, y) = (random(n, 0u64, u64::MAX, 11), random(n, 1u64, 1 << 40, 12));
        let want = interp(U64k::LIFT, "U64k", n, &[&x, &y]);
        assert_matches(
            &k.run(n, &x, &y).unwrap(),
            &want,
            0.0,
            &format!("U64k N={n}"),
        );
    }
}

#[test]
fn bool_parameter() {
    let k = BoolP::new(ctx()).unwrap();
    for neg in [false, true] {
        for n in SIZES {
            let x = f32s(n, 13);
            let want = interpret(
                BoolP::LIFT,
                "BoolP",
                &[n],
                &[Value::from_f32s(&x), Scalar::Bool(neg).into()],
            );
            assert_matches(
                &k.run(n, &x, neg).unwrap(),
                &want,
                0.0,
                &format!("BoolP {neg} N={n}"),
            );
        }
    }
}

#[test]
fn user_functions_with_let_if_cast_and_math() {
    let k = Poly::new(ctx()).unwrap();
    for n in SIZES {
        let (x, y) = (f32s(n, 14), f32s(n, 15));
        let want = interp(Poly::LIFT, "Poly", n, &[&x, &y]);
        assert_matches(
            &k.run(n, &x, &y).unwrap(),
            &want,
            1e-5,
            &format!("Poly N={n}"),
        );
    }
    let k = Math::new(ctx()).unwrap();
    let k64 = Math64::new(ctx()).unwrap();
    for n in SIZES {
        let x = f32s(n, 16);
        let want = interp(Math::LIFT, "Math", n, &[&x]);
        assert_matches(&k.run(n, &x).unwrap(), &want, 1e-4, &format!("Math N={n}"));
        let x: Vec<f64> = x.into_iter().map(f64::from).collect();
        let want = interp(Math64::LIFT, "Math64", n, &[&x]);
        assert_matches(
            &k64.run(n, &x).unwrap(),
            &want,
            1e-10,
            &format!("Math64 N={n}"),
        );
    }
}

#[test]
fn opencl_body_against_a_cpu_loop() {
    let k = Ocl::new(ctx()).unwrap();
    assert!(Ocl::SOURCE.contains("return a * 2.0f;"), "{}", Ocl::SOURCE);
    for n in SIZES {
        let x = f32s(n, 17);
        let want: Vec<f32> = x.iter().map(|v| v * 2.0 + 1.0).collect();
        assert_eq!(k.run(n, &x).unwrap(), want, "Ocl N={n}");
    }
}

#[test]
fn scalar_parameters_of_every_type() {
    let k = Scalars::new(ctx()).unwrap();
    let g = f16::from_f32(0.5);
    for n in SIZES {
        let x = f32s(n, 18);
        let scalars = [
            Scalar::F32(1.5),
            Scalar::F64(0.25),
            Scalar::I32(-3),
            Scalar::U32(4),
            Scalar::I64(-5),
            Scalar::U64(6),
            Scalar::F16(g),
        ];
        let mut args = vec![Value::from_f32s(&x)];
        args.extend(scalars.map(Value::from));
        let want = interpret(Scalars::LIFT, "Scalars", &[n], &args);
        let got = k.run(n, &x, 1.5, 0.25, -3, 4, -5, 6, g).unwrap();
        assert_matches(&got, &want, 1e-6, &format!("Scalars N={n}"));
    }
}

#[test]
fn scalar_results_of_every_type() {
    let (h, f, d) = (
        SumF16::new(ctx()).unwrap(),
        SumF32::new(ctx()).unwrap(),
        SumF64::new(ctx()).unwrap(),
    );
    let (i, u, l, ul) = (
        SumI32::new(ctx()).unwrap(),
        SumU32::new(ctx()).unwrap(),
        SumI64::new(ctx()).unwrap(),
        SumU64::new(ctx()).unwrap(),
    );
    for n in SIZES {
        let x16: Vec<f16> = f32s(n, 19).into_iter().map(f16::from_f32).collect();
        let want = interp(SumF16::LIFT, "SumF16", n, &[&x16]);
        assert_matches(
            &[h.run(n, &x16).unwrap()],
            &want,
            1e-2,
            &format!("SumF16 N={n}"),
        );
        let x = f32s(n, 20);
        let want = interp(SumF32::LIFT, "SumF32", n, &[&x]);
        assert_matches(
            &[f.run(n, &x).unwrap()],
            &want,
            0.0,
            &format!("SumF32 N={n}"),
        );
        let x = random(n, -1.0f64, 1.0, 21);
        let want = interp(SumF64::LIFT, "SumF64", n, &[&x]);
        assert_matches(
            &[d.run(n, &x).unwrap()],
            &want,
            1e-12,
            &format!("SumF64 N={n}"),
        );
        let x = random(n, -1000i32, 1000, 22);
        let want = interp(SumI32::LIFT, "SumI32", n, &[&x]);
        assert_matches(
            &[i.run(n, &x).unwrap()],
            &want,
            0.0,
            &format!("SumI32 N={n}"),
        );
        let x = random(n, 0u32, u32::MAX, 23);
        let want = interp(SumU32::LIFT, "SumU32", n, &[&x]);
        assert_matches(
            &[u.run(n, &x).unwrap()],
            &want,
            0.0,
            &format!("SumU32 N={n}"),
        );
        let x = random(n, i64::MIN, i64::MAX, 24);
        let want = interp(SumI64::LIFT, "SumI64", n, &[&x]);
        assert_matches(
            &[l.run(n, &x).unwrap()],
            &want,
            0.0,
            &format!("SumI64 N={n}"),
        );
        let x = random(n, 0u64, u64::MAX, 25);
        let want = interp(SumU64::LIFT, "SumU64", n, &[&x]);
        assert_matches(
            &[ul.run(n, &x).unwrap()],
            &want,
            0.0,
            &format!("SumU64 N={n}"),
        );
    }
}

/// Runs a one-array kernel on `SIZES` against the interpreter.
fn check1<T: Into<Scalar> + Copy, R: Into<Scalar> + Copy>(
    lift: &str,
    name: &str,
    input: impl Fn(usize) -> Vec<T>,
    run: impl Fn(usize, &[T]) -> Result<Vec<R>, lift_runtime::Error>,
    tol: f64,
) {
    for n in SIZES {
        let x = input(n);
        let got = run(n, &x).unwrap_or_else(|e| panic!("{name} N={n}: {e}"));
        assert_matches(
            &got,
            &interp(lift, name, n, &[&x]),
            tol,
            &format!("{name} N={n}"),
        );
    }
}

#[test]
fn scalar_edge_cases() {
    let k = FMod::new(ctx()).unwrap();
    for n in SIZES {
        let (x, y) = (random(n, -10.0f32, 10.0, 26), f32s(n, 27));
        let want = interp(FMod::LIFT, "FMod", n, &[&x, &y]);
        assert_matches(
            &k.run(n, &x, &y).unwrap(),
            &want,
            1e-6,
            &format!("FMod N={n}"),
        );
    }
    let k = F64Lit::new(ctx()).unwrap();
    check1(
        F64Lit::LIFT,
        "F64Lit",
        |n| random(n, -1e6f64, 1e6, 28),
        |n, x| k.run(n, x),
        1e-15,
    );
    let k = F32Lit::new(ctx()).unwrap();
    check1(
        F32Lit::LIFT,
        "F32Lit",
        |n| random(n, -1e6f32, 1e6, 29),
        |n, x| k.run(n, x),
        1e-6,
    );
    let k = U64Lit::new(ctx()).unwrap();
    check1(
        U64Lit::LIFT,
        "U64Lit",
        |n| random(n, 0u64, u64::MAX, 30),
        |n, x| k.run(n, x),
        0.0,
    );
    let k = I64Lit::new(ctx()).unwrap();
    check1(
        I64Lit::LIFT,
        "I64Lit",
        |n| random(n, -(1i64 << 50), 1 << 50, 31),
        |n, x| k.run(n, x),
        0.0,
    );
    let k = Casts::new(ctx()).unwrap();
    check1(
        Casts::LIFT,
        "Casts",
        |n| f32s(n, 32),
        |n, x| k.run(n, x),
        0.0,
    );
    let k = CastU::new(ctx()).unwrap();
    check1(
        CastU::LIFT,
        "CastU",
        |n| random(n, 0i32, i32::MAX, 33),
        |n, x| k.run(n, x),
        0.0,
    );
    let k = IntMinMax::new(ctx()).unwrap();
    for n in SIZES {
        let (x, y) = (random(n, -1000i32, 1000, 34), random(n, -1000i32, 1000, 35));
        let want = interp(IntMinMax::LIFT, "IntMinMax", n, &[&x, &y]);
        assert_matches(
            &k.run(n, &x, &y).unwrap(),
            &want,
            0.0,
            &format!("IntMinMax N={n}"),
        );
    }
    let k = Wrap32::new(ctx()).unwrap();
    check1(
        Wrap32::LIFT,
        "Wrap32",
        |n| random(n, i32::MIN, i32::MAX, 36),
        |n, x| k.run(n, x),
        0.0,
    );
    let k = HalfMath::new(ctx()).unwrap();
    let halves = |n| f32s(n, 37).into_iter().map(f16::from_f32).collect();
    check1(HalfMath::LIFT, "HalfMath", halves, |n, x| k.run(n, x), 2e-3);
    let k = Logic::new(ctx()).unwrap();
    check1(
        Logic::LIFT,
        "Logic",
        |n| random(n, -100i32, 100, 38),
        |n, x| k.run(n, x),
        0.0,
    );
}
