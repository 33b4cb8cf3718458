//! Tests of the scalar language (user functions, literals, operators, casts, builtins, scalar
//! types), of values, and of the errors.

use super::tests::{program, run, run_f32, seq};
use super::*;
use crate::ir::{BinOp, Expr, ExprKind, FunBody, Kernel, LitValue, UserFun};
use crate::types::{ScalarType, Type};
use half::f16;
use proc_macro2::Span;

fn ints(v: &[i32]) -> Value {
    Value::from_scalars(v)
}

#[test]
fn user_functions_with_let_if_cast_and_tuples() {
    let src = "
        fn clampf(x: f32, lo: f32, hi: f32) -> f32 { if x < lo { lo } else if x > hi { hi } else { x } }
        fn stats(a: f32, b: f32) -> (f32, f32) { let s = a + b; let (p, q) = (s, a - b); (p, q * 2.0) }
        fn tenths(x: f32) -> i32 { (x * 10.0) as i32 }
        kernel K(x: [f32; 4], y: [f32; 4]) -> [i32; 4] {
            map(|p| tenths(clampf(stats(p.0, p.1).0, 0.0, 5.0)) + stats(p.0, p.1).1 as i32) $ zip(x, y)
        }";
    let x = Value::from_f32s(&[-3.0, 1.0, 2.5, 4.0]);
    let y = Value::from_f32s(&[1.0, 0.25, 1.5, 4.0]);
    // sums -2 1.25 4 8, clamped 0 1.25 4 5; differences * 2: -8 1.5 2 0.
    assert_eq!(run(src, &[], &[x, y]).unwrap(), ints(&[-8, 13, 42, 50]));
}

#[test]
fn lambdas_capture_enclosing_variables() {
    let src = "kernel K(m: [[f32; 2]; 2], s: f32) -> [[f32; 2]; 2] { map(|row| map(|v| v * row[0] + s) $ row) $ m }";
    let m = Value::from_rows(&[vec![2.0f32, 3.0], vec![4.0, 5.0]]);
    assert_eq!(
        run_f32(src, &[], &[m, Value::Scalar(Scalar::F32(1.0))]),
        [5.0, 7.0, 17.0, 21.0]
    );
}

#[test]
fn math_builtins_follow_rust_f32() {
    let xs = [0.3f32, 1.7, 2.5];
    let x = Value::from_f32s(&xs);
    type F = fn(f32) -> f32;
    let cases: [(&str, F); 13] = [
        ("sqrt(v)", f32::sqrt),
        ("exp(v)", f32::exp),
        ("log(v)", f32::ln),
        ("sin(v)", f32::sin),
        ("cos(v)", f32::cos),
        ("tan(v)", f32::tan),
        ("abs(0.0 - v)", |v| (0.0 - v).abs()),
        ("min(v, 1.0)", |v| v.min(1.0)),
        ("max(v, 1.0)", |v| v.max(1.0)),
        ("pow(v, 1.5)", |v| v.powf(1.5)),
        ("floor(v)", f32::floor),
        ("ceil(v)", f32::ceil),
        ("fma(v, 2.0, 0.5)", |v| v.mul_add(2.0, 0.5)),
    ];
    for (call, f) in cases {
        let src = format!("kernel K(x: [f32; 3]) -> [f32; 3] {{ map(|v| {call}) $ x }}");
        let expected: Vec<f32> = xs.iter().map(|&v| f(v)).collect();
        assert_eq!(
            run_f32(&src, &[], std::slice::from_ref(&x)),
            expected,
            "{call}"
        );
    }
}

#[test]
fn integer_arithmetic_truncates_and_wraps() {
    let src = "kernel K(x: [i32; 3]) -> [(i32, i32, i32, i32); 3] { map(|v| (v / 2, v % 2, v * 1073741824, abs(v))) $ x }";
    let v = run(src, &[], &[ints(&[-7, 7, i32::MIN])]).unwrap();
    let expected: Vec<Scalar> = [
        [-3, -1, -7i32.wrapping_mul(1 << 30), 7],
        [3, 1, 7i32.wrapping_mul(1 << 30), 7],
        [i32::MIN / 2, 0, 0, i32::MIN],
    ]
    .concat()
    .into_iter()
    .map(Scalar::I32)
    .collect();
    assert_eq!(v.flatten(), expected);
    let src = "kernel K(x: [u32; 2]) -> [u32; 2] { map(|v| min(v - 1, 10) + max(v, 3)) $ x }";
    assert_eq!(
        run(src, &[], &[Value::from_scalars(&[0u32, 5])]).unwrap(),
        Value::from_scalars(&[13u32, 9])
    );
    let src =
        "kernel K(x: [i64; 2], y: [u64; 2]) -> [u64; 2] { map(|p| p.0 as u64 * p.1) $ zip(x, y) }";
    let v = run(
        src,
        &[],
        &[
            Value::from_scalars(&[-1i64, 3]),
            Value::from_scalars(&[2u64, 1 << 40]),
        ],
    )
    .unwrap();
    assert_eq!(v, Value::from_scalars(&[u64::MAX - 1, 3 << 40]));
    let src = "kernel K(x: [i32; 2]) -> i32 { reduce(max, 0) o map(|v| 10 / v) $ x }";
    let err = run(src, &[], &[ints(&[5, 0])]);
    assert!(
        matches!(err, Err(InterpError::DivisionByZero(_))),
        "{err:?}"
    );
}

#[test]
fn casts_follow_rust_as() {
    let src = "kernel K(x: [f32; 3]) -> [(i32, u32, i64, f64); 3] { map(|v| (v as i32, v as u32, (v as i32) as i64, v as f64)) $ x }";
    let v = run(src, &[], &[Value::from_f32s(&[-1.5, 3.0e9, 7.9])]).unwrap();
    let expected: Vec<Scalar> = vec![
        Scalar::I32(-1),
        Scalar::U32(0),
        Scalar::I64(-1),
        Scalar::F64(-1.5),
        Scalar::I32(i32::MAX),
        Scalar::U32(3_000_000_000),
        Scalar::I64(i64::from(i32::MAX)),
        Scalar::F64(3.0e9),
        Scalar::I32(7),
        Scalar::U32(7),
        Scalar::I64(7),
        Scalar::F64(f64::from(7.9f32)),
    ];
    assert_eq!(v.flatten(), expected);
    let src =
        "kernel K(x: [i32; 2]) -> [(u32, i32); 2] { map(|v| (v as u32, (v > 0) as i32)) $ x }";
    let v = run(src, &[], &[ints(&[-1, 2])]).unwrap();
    assert_eq!(
        v.flatten(),
        [
            Scalar::U32(u32::MAX),
            Scalar::I32(0),
            Scalar::U32(2),
            Scalar::I32(1)
        ]
    );
}

#[test]
fn comparisons_and_short_circuit_logic() {
    let src = "kernel K(x: [i32; 4]) -> [i32; 4] { map(|v| if v != 0 && 10 / v > 2 || !(v < 4) { 1 } else { 0 }) $ x }";
    assert_eq!(
        run(src, &[], &[ints(&[0, 3, 4, -1])]).unwrap(),
        ints(&[0, 1, 1, 0])
    );
}

#[test]
fn f64_arithmetic() {
    let xs = [0.1f64, 0.2, 0.3];
    let src = "kernel K(x: [f64; 3]) -> f64 { reduce(+, 0.0) o map(|v| v * 3.0 + 0.1) $ x }";
    let v = run(src, &[], &[Value::from_scalars(&xs)]).unwrap();
    let expected = xs.iter().fold(0.0, |s, v| s + (v * 3.0 + 0.1));
    assert_eq!(v, Value::Scalar(Scalar::F64(expected)));
}

#[test]
fn f16_is_computed_in_f32_and_rounded() {
    let xs: Vec<f16> = [0.1f32, 1.5, 3.3]
        .iter()
        .map(|&v| f16::from_f32(v))
        .collect();
    let src = "kernel K(x: [f16; 3]) -> [f16; 3] { map(|v| v * v + 1.0) $ x }";
    let v = run(src, &[], &[Value::from_scalars(&xs)]).unwrap();
    let round = |v: f32| f16::from_f32(v).to_f32();
    let expected: Vec<Scalar> = xs
        .iter()
        .map(|v| Scalar::F16(f16::from_f32(round(v.to_f32() * v.to_f32()) + 1.0)))
        .collect();
    assert_eq!(v.flatten(), expected);
    let src = "kernel K(x: [f16; 3]) -> f32 { reduce(+, 0.0) o map(|v| v as f32) $ x }";
    let v = run(src, &[], &[Value::from_scalars(&xs)]).unwrap();
    let expected = xs.iter().fold(0.0f32, |s, v| s + v.to_f32());
    assert_eq!(v, Value::Scalar(Scalar::F32(expected)));
}

#[test]
fn rewrite_points_are_transparent() {
    let src = "kernel K(x: [f32; 8]) -> [f32; 8] { #[split_join(4)] map(|v| v + 1.0) $ x }";
    let expected: Vec<f32> = seq(8).iter().map(|v| v + 1.0).collect();
    assert_eq!(run_f32(src, &[], &[Value::from_f32s(&seq(8))]), expected);
}

#[test]
fn flat_round_trip_with_tuples() {
    let ty = Type::array(
        Type::Tuple(vec![
            Type::Scalar(ScalarType::F32),
            Type::Vector(ScalarType::I32, 2),
        ]),
        crate::arith::Nat::size_var("N"),
    );
    let sizes = |s: &str| (s == "N").then_some(2);
    let flat: Vec<Scalar> = vec![
        1.0f32.into(),
        1i32.into(),
        2i32.into(),
        2.0f32.into(),
        3i32.into(),
        4i32.into(),
    ];
    let v = Value::from_flat(&ty, &sizes, &flat).unwrap();
    let row = |f: f32, a: i32, b: i32| {
        Value::Tuple(vec![
            Value::Scalar(f.into()),
            Value::Vector(vec![a.into(), b.into()]),
        ])
    };
    assert_eq!(v, Value::Array(vec![row(1.0, 1, 2), row(2.0, 3, 4)]));
    assert_eq!(v.flatten(), flat);
    assert_eq!(v.describe(), "[(f32, i32x2); 2]");
    let err = Value::from_flat(&ty, &sizes, &flat[1..]);
    assert_eq!(
        err,
        Err(InterpError::FlatLength {
            expected: 6,
            actual: 5
        })
    );
    assert!(matches!(
        Value::from_flat(&ty, &|_| None, &flat),
        Err(InterpError::Size { .. })
    ));
    let swapped: Vec<Scalar> = flat.iter().rev().copied().collect();
    assert!(matches!(
        Value::from_flat(&ty, &sizes, &swapped),
        Err(InterpError::TypeMismatch(_))
    ));
}

const GEMV: &str = "kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
    map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a
}";

#[test]
fn argument_errors_name_the_argument() {
    let p = program(GEMV);
    let a = Value::from_rows(&[vec![1.0f32, 2.0], vec![3.0, 4.0]]);
    let x = Value::from_f32s(&[1.0, 1.0]);
    assert_eq!(
        run_kernel(&p, "Gemv", &[2, 2], &[a.clone(), x.clone()]).unwrap(),
        Value::from_f32s(&[3.0, 7.0])
    );
    let err = run_kernel(&p, "Gemv", &[2, 3], &[a.clone(), x.clone()]).unwrap_err();
    assert_eq!(
        err,
        InterpError::ArgShape {
            arg: "a".into(),
            path: "[0]".into(),
            expected: "[f32; 3]".into(),
            actual: "[f32; 2]".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "argument `a[0]`: expected [f32; 3], got [f32; 2]"
    );
    let short = Value::from_f32s(&[1.0]);
    let err = run_kernel(&p, "Gemv", &[2, 2], &[a.clone(), short]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "argument `x`: expected [f32; 2], got [f32; 1]"
    );
    let wrong_type = Value::from_scalars(&[1i32, 1]);
    let err = run_kernel(&p, "Gemv", &[2, 2], &[a.clone(), wrong_type]).unwrap_err();
    assert_eq!(err.to_string(), "argument `x[0]`: expected f32, got i32");
    assert!(matches!(
        run_kernel(&p, "Gemv", &[2, 2], std::slice::from_ref(&a)),
        Err(InterpError::ArgCount {
            expected: 2,
            actual: 1,
            ..
        })
    ));
    assert!(matches!(
        run_kernel(&p, "Gemv", &[2], &[a.clone(), x.clone()]),
        Err(InterpError::SizeCount { .. })
    ));
    assert!(matches!(
        run_kernel(&p, "Gemv", &[2, 0], &[a.clone(), x.clone()]),
        Err(InterpError::NonPositiveSize { value: 0, .. })
    ));
    assert!(matches!(
        run_kernel(&p, "Nope", &[], &[]),
        Err(InterpError::UnknownKernel(_))
    ));
}

#[test]
fn at_out_of_range_is_an_error() {
    let src = "kernel K<N>(x: [f32; N]) -> f32 { at(3) $ x }";
    let err = run(src, &[2], &[Value::from_f32s(&[1.0, 2.0])]);
    assert!(
        matches!(
            err,
            Err(InterpError::IndexOutOfRange {
                index: 3,
                len: 2,
                ..
            })
        ),
        "{err:?}"
    );
}

#[test]
fn opencl_user_functions_are_unsupported() {
    let src = r#"
        #[opencl] fn twice(x: f32) -> f32 { "return 2.0f * x;" }
        kernel K(x: [f32; 2]) -> [f32; 2] { map(twice) $ x }"#;
    let err = run(src, &[], &[Value::from_f32s(&[1.0, 2.0])]).unwrap_err();
    assert!(
        matches!(&err, InterpError::Unsupported(m) if m.contains("twice")),
        "{err:?}"
    );
}

fn expr(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::call_site())
}

fn kernel(body: Expr) -> Program {
    let k = Kernel {
        docs: vec![],
        public: false,
        name: "K".into(),
        sizes: vec![],
        params: vec![],
        ret: Type::Scalar(ScalarType::F32),
        ret_span: Span::call_site(),
        body,
        span: Span::call_site(),
    };
    Program {
        funs: vec![],
        kernels: vec![k],
        includes: vec![],
    }
}

#[test]
fn malformed_trees_give_errors() {
    let lit = |v: LitValue, t: Option<ScalarType>| Box::new(expr(ExprKind::Lit(v, t)));
    let p = kernel(expr(ExprKind::Ident("nowhere".into())));
    assert_eq!(
        run_kernel(&p, "K", &[], &[]),
        Err(InterpError::UnknownName("nowhere".into()))
    );
    let add = ExprKind::Binary(
        BinOp::Add,
        lit(LitValue::Float(1.0), None),
        lit(LitValue::Int(1), None),
    );
    assert!(matches!(
        run_kernel(&kernel(expr(add)), "K", &[], &[]),
        Err(InterpError::TypeMismatch(_))
    ));
    let apply = ExprKind::Apply(lit(LitValue::Int(1), None), vec![]);
    assert!(matches!(
        run_kernel(&kernel(expr(apply)), "K", &[], &[]),
        Err(InterpError::TypeMismatch(_))
    ));
    let call = ExprKind::Apply(Box::new(expr(ExprKind::Ident("sqrt".into()))), vec![]);
    assert!(matches!(
        run_kernel(&kernel(expr(call)), "K", &[], &[]),
        Err(InterpError::Arity { .. })
    ));
    // A well-typed literal of the wrong result type is caught by the final check.
    let int = ExprKind::Lit(LitValue::Int(3), Some(ScalarType::I32));
    assert!(matches!(
        run_kernel(&kernel(expr(int)), "K", &[], &[]),
        Err(InterpError::ResultShape { .. })
    ));
    // A user function called with the wrong number of arguments.
    let mut p = kernel(expr(ExprKind::Apply(
        Box::new(expr(ExprKind::Ident("f".into()))),
        vec![],
    )));
    p.funs.push(UserFun {
        docs: vec![],
        name: "f".into(),
        params: vec![],
        ret: Type::Scalar(ScalarType::F32),
        body: FunBody::Expr(*lit(LitValue::Float(2.0), None)),
        span: Span::call_site(),
    });
    assert_eq!(
        run_kernel(&p, "K", &[], &[]),
        Ok(Value::Scalar(Scalar::F32(2.0)))
    );
    p.kernels[0].body = expr(ExprKind::Apply(
        Box::new(expr(ExprKind::Ident("f".into()))),
        vec![*lit(LitValue::Int(1), None)],
    ));
    assert!(matches!(
        run_kernel(&p, "K", &[], &[]),
        Err(InterpError::Arity {
            expected: 0,
            actual: 1,
            ..
        })
    ));
}

#[test]
fn recursive_user_functions_are_refused() {
    let src = "fn f(x: f32) -> f32 { f(x) }
        kernel K(x: [f32; 2]) -> [f32; 2] { map(f) $ x }";
    let p = crate::parse::parse_program_str(src).unwrap();
    let err = run_kernel(&p, "K", &[], &[Value::from_f32s(&[1.0, 2.0])]).unwrap_err();
    assert!(
        matches!(&err, InterpError::Unsupported(m) if m.contains("`f` is recursive")),
        "{err:?}"
    );
}

#[test]
fn layout_preconditions_are_errors() {
    use super::layout::{self, Bound, Order};
    let x = Value::from_f32s(&seq(4));
    let pre = |r: Result<Value, InterpError>| matches!(r, Err(InterpError::Precondition { .. }));
    assert!(pre(layout::pad(
        &x,
        &[(usize::MAX, 1)],
        &Bound::Clamp,
        "pad"
    )));
    // Mirror padding wider than the input keeps reflecting (period 2n): [1 2 3 4] padded by
    // 5 on the left reads 4 3 2 1 1 before it.
    let wide = layout::pad(&x, &[(5, 0)], &Bound::Mirror, "pad").expect("pads");
    assert_eq!(
        wide.flatten()[..6],
        Value::from_f32s(&[4.0, 4.0, 3.0, 2.0, 1.0, 1.0]).flatten()[..]
    );
    assert!(pre(layout::slide(&x, &[(0, 1)], "slide")));
    assert!(pre(layout::slide(&x, &[(5, 1)], "slide")));
    assert!(pre(layout::split(0, x.clone())));
    assert!(pre(layout::split_cover(5, x.clone())));
    // Two blocks of 2 do not cover 5 elements (three would).
    let blocks = layout::split(2, x.clone()).expect("splits");
    assert!(pre(layout::join_cover(5, blocks)));
    assert!(pre(layout::as_vector(3, x.clone())));
    assert!(pre(layout::reorder(x.clone(), &Order::Stride(3), false)));
    assert!(pre(layout::unzip(Value::Array(vec![]))));
    let ragged = Value::Array(vec![
        Value::from_f32s(&[1.0, 2.0]),
        Value::from_f32s(&[3.0]),
    ]);
    assert!(matches!(
        layout::transpose(&ragged),
        Err(InterpError::IndexOutOfRange {
            index: 1,
            len: 1,
            ..
        })
    ));
    let empty = Value::Array(vec![]);
    assert!(matches!(
        layout::pad(&empty, &[(1, 0)], &Bound::Clamp, "pad"),
        Err(InterpError::IndexOutOfRange { .. })
    ));
    assert_eq!(
        layout::pad(&empty, &[(1, 0)], &Bound::Wrap, "pad").map_err(|_| ()),
        Err(())
    );
    assert!(matches!(
        layout::as_scalar(x),
        Err(InterpError::TypeMismatch(_))
    ));
}
