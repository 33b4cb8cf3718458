//! Type checker tests; full programs are parsed from strings.

use super::*;
use crate::parse::parse_program_str;

fn check(src: &str) -> CResult<Vec<KernelInfo>> {
    let mut p = parse_program_str(src)?;
    check_program(&mut p)
}

fn err_of(src: &str) -> CompileError {
    match check(src) {
        Ok(_) => panic!("expected an error for {src}"),
        Err(e) => e,
    }
}

#[test]
fn stencil_types() {
    let k = check(
        "kernel Blur3<N>(input: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input }",
    )
    .unwrap();
    assert_eq!(k[0].result.to_string(), "[f32; N]");
    assert!(k[0].preconditions.is_empty(), "{:?}", k[0].preconditions);
}

#[test]
fn split_join_is_identity_with_precondition() {
    let k = check("kernel K<N>(x: [f32; N]) -> [f32; N] { join o split(4) $ x }").unwrap();
    assert_eq!(k[0].preconditions.len(), 1);
    assert_eq!(
        k[0].preconditions[0].to_string(),
        "split: input length not divisible by the chunk size: (N) % (4) == 0"
    );
}

#[test]
fn gemv_with_capture() {
    let k = check(
        "kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
            map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a }",
    )
    .unwrap();
    assert_eq!(k[0].result.to_string(), "[f32; N]");
}

#[test]
fn literal_types_follow_context() {
    let mut p = parse_program_str(
        "kernel K<N>(x: [f64; N]) -> f64 { reduce(+, 0.0) o map(|v| v * 2.0) $ x }",
    )
    .unwrap();
    check_program(&mut p).unwrap();
    assert_eq!(
        p.kernels[0].body.ty,
        Some(Type::Scalar(crate::types::ScalarType::F64))
    );
}

#[test]
fn partial_dot_product_low_level() {
    check(
        "kernel Dot<N>(x: [f32; N], y: [f32; N]) -> [f32; N / 256 * 128] {
            join o map_wrg(0, map_lcl(0, reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32)) o split(2)) o split(256) $ zip(x, y) }",
    )
    .unwrap();
}

#[test]
fn errors_name_the_primitive() {
    let cases = [
        (
            "kernel K<N, M>(x: [f32; N], y: [f32; M]) -> [(f32, f32); N] { zip(x, y) }",
            ErrorKind::LengthMismatch,
            "zip: lengths differ: N vs M",
        ),
        (
            "kernel K(x: [f32; 10]) -> [[f32; 4]; 2] { split(4) $ x }",
            ErrorKind::Divisibility,
            "split: input length not divisible by the chunk size: 10 % 4 != 0",
        ),
        (
            "kernel K<N>(x: [f32; N]) -> [[f32; 1]; N] { split(0) $ x }",
            ErrorKind::ZeroSize,
            "split: chunk size must be positive: 0",
        ),
        (
            "kernel K<N>(x: f32) -> f32 { map(|v| v) $ x }",
            ErrorKind::NotAnArray,
            "map: expects an array, found f32",
        ),
        (
            "kernel K<N>(x: [(f32, f32); N]) -> [f32; N] { map(|p| p.2) $ x }",
            ErrorKind::TupleIndex,
            "get: tuple index 2 out of range for (f32, f32) (2 elements)",
        ),
        (
            "kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| w) $ x }",
            ErrorKind::UnknownName,
            "unknown name `w`",
        ),
        (
            "kernel K<N>(x: [f32; N]) -> [f32; N] { scan_par(+, 0.0) $ x }",
            ErrorKind::UnknownName,
            "unknown name `scan_par`",
        ),
        (
            "kernel K<N>(x: [f32; N], y: [f64; N / 4]) -> [f32x4; N / 4] { map(|p| max(p.0, p.1)) $ zip(as_vector(4) $ x, y) }",
            ErrorKind::TypeMismatch,
            "max: argument types differ: f32x4 vs f64",
        ),
        (
            "kernel K<N>(x: [f32; N]) -> [f32; N] { filter_while $ x }",
            ErrorKind::UnknownName,
            "unknown name `filter_while`",
        ),
        (
            "kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| x[v]) $ x }",
            ErrorKind::TypeMismatch,
            "x[i]: the index must be an integer, found f32",
        ),
        (
            "kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| v[0 + v as i32]) $ x }",
            ErrorKind::TypeMismatch,
            "x[i]: indexes an array, found f32",
        ),
        (
            "kernel K<N>(x: [f32; N]) -> f32 { reduce_while_seq(+, |v| v, 0.0) $ x }",
            ErrorKind::TypeMismatch,
            "reduce_while_seq: the predicate must give bool, found f32",
        ),
        (
            "kernel K<N>(x: [f32; N]) -> [f32; N] { map(vectorize(4, |v| v)) $ x }",
            ErrorKind::TypeMismatch,
            "vectorize: expects vectors of width 4 (or tuples of them), found f32",
        ),
        (
            "kernel K<N>(x: [f32; N]) -> [f64; N] { map(|v| v) $ x }",
            ErrorKind::ResultMismatch,
            "kernel `K`: declared result type differs from the inferred one: [f64; N] vs [f32; N]",
        ),
        (
            "kernel K<N>(x: [f32; N]) -> [f32; N] { map_lcl(0, |v| v) $ x }",
            ErrorKind::Nesting,
            "map_lcl: must be nested inside map_wrg of dimension 0",
        ),
        (
            "kernel K<N>(x: [[f32; N]; N]) -> [[f32; N]; N] { map_glb(0, map_glb(0, |v| v)) $ x }",
            ErrorKind::Nesting,
            "map_glb: nested in map_glb of the same dimension 0",
        ),
        (
            "kernel K<N>(x: [f32; 5]) -> [[f32; 6]; 1] { slide(6, 1) $ x }",
            ErrorKind::OutOfBounds,
            "slide: window larger than the input: 6 > 5",
        ),
        (
            "kernel K<N>(x: [f32; 10]) -> [[f32; 3]; 4] { slide(3, 2) $ x }",
            ErrorKind::Divisibility,
            "slide: (n - size) must be divisible by the step: 7 % 2 != 0",
        ),
        (
            "kernel K(x: [f32; 3]) -> f32 { at(3) $ x }",
            ErrorKind::OutOfBounds,
            "at: index out of bounds: 3 for length 3",
        ),
        (
            "kernel K(x: [f32; 6]) -> [f32x4; 1] { as_vector(4) $ x }",
            ErrorKind::Divisibility,
            "as_vector: input length not divisible by the vector width: 6 % 4 != 0",
        ),
        (
            "kernel K<N>(x: [f32; N]) -> [f32x4; N / 4] { map(|v| if v > 0.0 { v } else { 0.0 }) o as_vector(4) $ x }",
            ErrorKind::TypeMismatch,
            "`>` compares scalars, found f32x4 and f32: write the function on one lane and lift it with `vectorize(4, |x| ...)`",
        ),
        (
            "kernel K<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) o map(|v| v + true) $ x }",
            ErrorKind::TypeMismatch,
            "`+`: operand types differ: f32 vs bool",
        ),
    ];
    for (src, kind, msg) in cases {
        let e = err_of(src);
        assert_eq!(e.message, msg, "{src}");
        assert_eq!(e.kind, kind, "{src}");
    }
}

#[test]
fn mixing_glb_and_wrg_is_rejected() {
    let e = err_of(
        "kernel K<N>(x: [f32; N]) -> [f32; N] { map_glb(0, |v| v) o join o map_wrg(0, map_lcl(0, |v| v)) o split(4) $ x }",
    );
    assert_eq!(e.kind, ErrorKind::Nesting);
}

#[test]
fn to_local_outside_workgroup_is_rejected() {
    let e = err_of("kernel K<N>(x: [f32; N]) -> [f32; N] { to_local(map_seq(id)) $ x }");
    assert_eq!(
        e.message,
        "to_local: only allowed inside a work-group (map_wrg)"
    );
}

#[test]
fn slide2_pad2_types() {
    let k = check(
        "kernel J<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
            map2(|nbh| nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1]) o slide2(3, 1) o pad2(1, clamp) $ x }",
    )
    .unwrap();
    assert_eq!(k[0].result.to_string(), "[[f32; M]; N]");
}

#[test]
fn iterate_shrinks() {
    let k = check(
        "kernel K(x: [f32; 8]) -> [f32; 1] { iterate(3, map(reduce(+, 0.0)) o split(2)) $ x }",
    )
    .unwrap();
    assert_eq!(k[0].result.to_string(), "[f32; 1]");
}

#[test]
fn user_functions_are_checked() {
    check("fn mult(a: f32, b: f32) -> f32 { a * b } kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| mult(v, 2.0)) $ x }").unwrap();
    let e = err_of("fn f(a: f32) -> i32 { a } kernel K(x: f32) -> f32 { x }");
    assert_eq!(e.kind, ErrorKind::ResultMismatch);
    let e = err_of(
        "fn f(a: f32) -> f32 { a } kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| f(v, v)) $ x }",
    );
    assert_eq!(
        e.message,
        "f: wrong number of arguments: expected 1, found 2"
    );
}

#[test]
fn literal_arithmetic_takes_the_type_of_the_other_argument() {
    let mut p = parse_program_str(
        "kernel K<N>(x: [i64; N]) -> [i64; N] { map(|v| max(v, -9223372036854775807 - 1)) $ x }",
    )
    .unwrap();
    check_program(&mut p).unwrap();
}

/// The extents that decide the index width: buffers by their scalar count, views by each
/// dimension. A 3 x 3 stencil's windows are never flattened (`9 N M` is no extent), while a
/// joined view's flat length is one.
#[test]
fn extents_count_buffers_whole_and_views_per_dimension() {
    let eval = |k: &KernelInfo, env: &[(&str, i64)]| -> Vec<i64> {
        let lookup = |n: &str| env.iter().find(|(v, _)| *v == n).map(|(_, x)| *x);
        k.extents
            .iter()
            .map(|e| e.eval(&lookup).expect("evaluates"))
            .collect()
    };
    let k = check(
        "kernel J<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { \
         map2(|w| w[0][1] + w[1][0] + w[1][1]) o slide2(3, 1) o pad2(1, clamp) $ x }",
    )
    .unwrap();
    let largest = eval(&k[0], &[("N", 8191), ("M", 8191)]).into_iter().max();
    assert_eq!(largest, Some(8191 * 8191), "{:?}", k[0].extents);
    let k = check(
        "kernel T<N, K>(x: [f32; N]) -> [f32; 4] { take(4) o gather(reverse) o join o slide(K, 1) $ x }",
    )
    .unwrap();
    let e = eval(&k[0], &[("N", 100_000), ("K", 50_000)]);
    assert!(e.contains(&(50_001 * 50_000)), "{e:?}");
}
