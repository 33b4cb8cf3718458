//! Tests of the primitives, high- and low-level, against the SPEC examples and hand loops.

use super::*;
use crate::parse::parse_program_str;
use crate::typeck::check_program;
use rand::{Rng, SeedableRng};

/// Parses and type-checks `src`.
pub(super) fn program(src: &str) -> Program {
    let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("parse: {e}\n{src}"));
    check_program(&mut p).unwrap_or_else(|e| panic!("typeck: {e}\n{src}"));
    p
}

/// Runs the first kernel of `src`.
pub(super) fn run(src: &str, sizes: &[i64], args: &[Value]) -> Result<Value, InterpError> {
    let p = program(src);
    let name = p.kernels.first().expect("a kernel").name.clone();
    run_kernel(&p, &name, sizes, args)
}

/// Runs the first kernel of `src` and flattens its `f32` result.
pub(super) fn run_f32(src: &str, sizes: &[i64], args: &[Value]) -> Vec<f32> {
    let v = run(src, sizes, args).unwrap_or_else(|e| panic!("run: {e}\n{src}"));
    v.as_f32s().expect("an f32 result")
}

/// `1.0, 2.0, ..., n`.
pub(super) fn seq(n: usize) -> Vec<f32> {
    (1..=n).map(|i| i as f32).collect()
}

fn random(n: usize, seed: u64) -> Vec<f32> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..n).map(|_| rng.gen_range(-1.0f32..1.0)).collect()
}

fn rows(flat: &[f32], m: usize) -> Value {
    Value::from_rows(&flat.chunks(m).map(<[f32]>::to_vec).collect::<Vec<_>>())
}

#[test]
fn every_map_doubles() {
    let x = Value::from_f32s(&seq(4));
    for body in [
        "map(|v| v * 2.0) $ x",
        "map_glb(|v| v * 2.0) $ x",
        "map_glb(0, |v| v * 2.0) $ x",
        "map_seq(|v| v * 2.0) $ x",
        "map_seq_unroll(|v| v * 2.0) $ x",
        "join o map_wrg(0, map_lcl(0, |v| v * 2.0)) o split(2) $ x",
        "join o map_wrg(1, map_lcl(1, |v| v * 2.0)) o split(2) $ x",
    ] {
        let src = format!("kernel K(x: [f32; 4]) -> [f32; 4] {{ {body} }}");
        assert_eq!(
            run_f32(&src, &[], std::slice::from_ref(&x)),
            [2.0, 4.0, 6.0, 8.0],
            "{body}"
        );
    }
}

#[test]
fn map2_map3_are_nested_maps() {
    let m = rows(&seq(6), 3);
    let src = "kernel K(m: [[f32; 3]; 2]) -> [[f32; 3]; 2] { map2(|v| v + 1.0) $ m }";
    assert_eq!(run_f32(src, &[], &[m]), [2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let c = Value::Array(vec![rows(&seq(4), 2), rows(&[5.0, 6.0, 7.0, 8.0], 2)]);
    let src = "kernel K(c: [[[f32; 2]; 2]; 2]) -> [[[f32; 2]; 2]; 2] { map3(|v| v * 10.0) $ c }";
    let expected: Vec<f32> = seq(8).iter().map(|v| v * 10.0).collect();
    assert_eq!(run_f32(src, &[], &[c]), expected);
}

#[test]
fn reductions_fold_left_and_return_a_scalar() {
    let x = Value::from_f32s(&[1.0, 2.0, 3.0, 4.0]);
    for (body, expected) in [
        ("reduce(+, 0.0) $ x", 10.0),
        ("reduce(*, 1.0) $ x", 24.0),
        ("reduce(max, -100.0) $ x", 4.0),
        ("reduce(min, 100.0) $ x", 1.0),
        ("reduce(|a, b| a + b, 0.5) $ x", 10.5),
        // Not associative: a left fold gives ((((0*2+1)*2+2)*2+3)*2+4) = 26.
        ("reduce_seq(|acc, v| acc * 2.0 + v, 0.0) $ x", 26.0),
        ("reduce_seq_unroll(|acc, v| acc * 2.0 + v, 0.0) $ x", 26.0),
    ] {
        let src = format!("kernel K(x: [f32; 4]) -> f32 {{ {body} }}");
        let v = run(&src, &[], std::slice::from_ref(&x)).unwrap();
        assert_eq!(v, Value::Scalar(Scalar::F32(expected)), "{body}");
    }
}

#[test]
fn zip_unzip_get() {
    let x = Value::from_f32s(&[1.0, 2.0, 3.0]);
    let y = Value::from_f32s(&[10.0, 20.0, 30.0]);
    let z = Value::from_scalars(&[1i32, 2, 3]);
    let src = "kernel K(x: [f32; 3], y: [f32; 3]) -> [f32; 3] { map(|p| p.1 - p.0) $ zip(x, y) }";
    assert_eq!(
        run_f32(src, &[], &[x.clone(), y.clone()]),
        [9.0, 18.0, 27.0]
    );
    let src = "kernel K(x: [f32; 3], y: [f32; 3], z: [i32; 3]) -> [i32; 3] { map(get(2)) $ zip(x, y, z) }";
    assert_eq!(
        run(src, &[], &[x.clone(), y.clone(), z.clone()]).unwrap(),
        z
    );
    let src = "kernel K(x: [f32; 3], y: [f32; 3], z: [i32; 3]) -> [(f32, i32); 3] { map(|(a, b, c)| (a + b, c)) $ zip(x, y, z) }";
    let v = run(src, &[], &[x.clone(), y.clone(), z.clone()]).unwrap();
    assert_eq!(
        v.flatten(),
        [
            11.0f32.into(),
            1i32.into(),
            22.0f32.into(),
            2i32.into(),
            33.0f32.into(),
            3i32.into()
        ]
    );
    let src = "kernel K(x: [f32; 3], z: [i32; 3]) -> ([f32; 3], [i32; 3]) { unzip $ zip(x, z) }";
    assert_eq!(
        run(src, &[], &[x.clone(), z.clone()]).unwrap(),
        Value::Tuple(vec![x, z])
    );
}

#[test]
fn zip_of_different_lengths_is_an_error() {
    let src = "kernel K<N, M>(x: [f32; N], y: [f32; M]) -> [(f32, f32); N] { zip(x, y) }";
    let p = parse_program_str(src).unwrap();
    assert!(check_program(&mut p.clone()).is_err(), "refused statically");
    // Unchecked, the interpreter reports it at run time.
    let err = run_kernel(
        &p,
        "K",
        &[2, 3],
        &[Value::from_f32s(&[1.0, 2.0]), Value::from_f32s(&seq(3))],
    );
    assert!(
        matches!(err, Err(InterpError::LengthMismatch { a: 2, b: 3, .. })),
        "{err:?}"
    );
}

#[test]
fn zip2_zip3_zip_inner_levels() {
    let a = rows(&seq(4), 2);
    let b = rows(&[10.0, 20.0, 30.0, 40.0], 2);
    let src = "kernel K(a: [[f32; 2]; 2], b: [[f32; 2]; 2]) -> [[f32; 2]; 2] { map2(|p| p.0 + p.1) $ zip2(a, b) }";
    assert_eq!(
        run_f32(src, &[], &[a.clone(), b.clone()]),
        [11.0, 22.0, 33.0, 44.0]
    );
    let c = Value::Array(vec![a.clone(), b.clone()]);
    let d = Value::Array(vec![b, a]);
    let src = "kernel K(c: [[[f32; 2]; 2]; 2], d: [[[f32; 2]; 2]; 2]) -> [[[f32; 2]; 2]; 2] { map3(|p| p.0 - p.1) $ zip3(c, d) }";
    assert_eq!(
        run_f32(src, &[], &[c, d]),
        [-9.0, -18.0, -27.0, -36.0, 9.0, 18.0, 27.0, 36.0]
    );
}

#[test]
fn split_and_join() {
    let x = Value::from_f32s(&seq(6));
    let src = "kernel K(x: [f32; 6]) -> [[f32; 2]; 3] { split(2) $ x }";
    assert_eq!(
        run(src, &[], std::slice::from_ref(&x)).unwrap(),
        rows(&seq(6), 2)
    );
    let src = "kernel K<N>(x: [f32; N]) -> [f32; N] { join o split(3) $ x }";
    assert_eq!(run_f32(src, &[6], std::slice::from_ref(&x)), seq(6));
    let err = run(src, &[4], &[Value::from_f32s(&seq(4))]);
    assert!(
        matches!(err, Err(InterpError::Precondition { ref prim, .. }) if prim == "split"),
        "{err:?}"
    );
}

/// `split_cover(t)`: blocks of `t`, the last shifted back to end at `n`; `join_cover(n)`
/// undoes it at every length from `t` on (a multiple of `t` or not).
#[test]
fn split_cover_and_join_cover() {
    let x = Value::from_f32s(&seq(7));
    let src = "kernel K(x: [f32; 7]) -> [[f32; 3]; 3] { split_cover(3) $ x }";
    let blocks = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 5.0, 6.0, 7.0];
    assert_eq!(run(src, &[], &[x]).unwrap(), rows(&blocks, 3));
    let src = "kernel K<N>(x: [f32; N]) -> [f32; N] { join_cover(N) o map(map(|v| v * 2.0)) o split_cover(4) $ x }";
    for n in [4, 5, 8, 11] {
        let want: Vec<f32> = seq(n).iter().map(|v| v * 2.0).collect();
        assert_eq!(
            run_f32(src, &[n as i64], &[Value::from_f32s(&seq(n))]),
            want
        );
    }
    let err = run(src, &[3], &[Value::from_f32s(&seq(3))]);
    assert!(
        matches!(err, Err(InterpError::Precondition { ref prim, .. }) if prim == "split_cover"),
        "{err:?}"
    );
}

#[test]
fn slide_with_every_step() {
    let slide = |n: usize, size: usize, step: usize| {
        let count = (n - size) / step + 1;
        let src = format!(
            "kernel K(x: [f32; {n}]) -> [[f32; {size}]; {count}] {{ slide({size}, {step}) $ x }}"
        );
        run_f32(&src, &[], &[Value::from_f32s(&seq(n))])
    };
    assert_eq!(
        slide(5, 3, 1),
        [1.0, 2.0, 3.0, 2.0, 3.0, 4.0, 3.0, 4.0, 5.0]
    );
    assert_eq!(slide(6, 2, 2), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(slide(7, 2, 5), [1.0, 2.0, 6.0, 7.0]);
    let src = "kernel K<N>(x: [f32; N]) -> [[f32; 3]; (N - 3) / 2 + 1] { slide(3, 2) $ x }";
    let err = run(src, &[6], &[Value::from_f32s(&seq(6))]);
    assert!(
        matches!(err, Err(InterpError::Precondition { .. })),
        "{err:?}"
    );
}

#[test]
fn pad_boundaries_match_the_spec_table() {
    for (b, expected) in [
        ("clamp", [1, 1, 2, 3, 4, 5, 6, 7, 7, 7]),
        ("mirror", [1, 1, 2, 3, 4, 5, 6, 7, 7, 6]),
        ("wrap", [7, 1, 2, 3, 4, 5, 6, 7, 1, 2]),
        ("constant(0.0)", [0, 1, 2, 3, 4, 5, 6, 7, 0, 0]),
    ] {
        let src = format!("kernel K(x: [f32; 7]) -> [f32; 10] {{ pad(1, 2, {b}) $ x }}");
        let expected: Vec<f32> = expected.iter().map(|&v| v as f32).collect();
        assert_eq!(
            run_f32(&src, &[], &[Value::from_f32s(&seq(7))]),
            expected,
            "{b}"
        );
    }
}

#[test]
fn the_worked_example() {
    let src = "kernel Blur3<N>(input: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input }";
    assert_eq!(
        run_f32(src, &[5], &[Value::from_f32s(&seq(5))]),
        [4.0, 6.0, 9.0, 12.0, 14.0]
    );
}

#[test]
fn transpose_swaps_dimensions() {
    let src = "kernel K(m: [[f32; 3]; 2]) -> [[f32; 2]; 3] { transpose $ m }";
    assert_eq!(
        run_f32(src, &[], &[rows(&seq(6), 3)]),
        [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]
    );
}

#[test]
fn gather_and_scatter() {
    let x = Value::from_f32s(&seq(6));
    for (body, expected) in [
        ("gather(reverse)", [6, 5, 4, 3, 2, 1]),
        ("scatter(reverse)", [6, 5, 4, 3, 2, 1]),
        // r(i) = i / 3 + 2 * (i % 3): 0 2 4 1 3 5.
        ("gather(stride(2))", [1, 3, 5, 2, 4, 6]),
        ("scatter(stride(2))", [1, 4, 2, 5, 3, 6]),
    ] {
        let src = format!("kernel K(x: [f32; 6]) -> [f32; 6] {{ {body} $ x }}");
        let expected: Vec<f32> = expected.iter().map(|&v| v as f32).collect();
        assert_eq!(
            run_f32(&src, &[], std::slice::from_ref(&x)),
            expected,
            "{body}"
        );
    }
    let src = "kernel K(x: [f32; 6]) -> [f32; 6] { scatter(stride(2)) o gather(stride(2)) $ x }";
    assert_eq!(run_f32(src, &[], &[x]), seq(6));
}

#[test]
fn at_index_and_id() {
    let x = Value::from_f32s(&seq(4));
    let src = "kernel K(x: [f32; 4]) -> f32 { at(2) $ x }";
    assert_eq!(
        run(src, &[], std::slice::from_ref(&x)).unwrap(),
        Value::Scalar(Scalar::F32(3.0))
    );
    let src = "kernel K(m: [[f32; 3]; 2]) -> [f32; 2] { map(|r| r[2] - r[0]) $ m }";
    assert_eq!(run_f32(src, &[], &[rows(&seq(6), 3)]), [2.0, 2.0]);
    let src = "kernel K(x: [f32; 4]) -> [f32; 4] { map(id) o id $ x }";
    assert_eq!(run_f32(src, &[], &[x]), seq(4));
}

#[test]
fn iterate_applies_k_times() {
    let src = "kernel K(x: [f32; 3]) -> [f32; 3] { iterate(3, map(|v| v * 2.0)) $ x }";
    assert_eq!(
        run_f32(src, &[], &[Value::from_f32s(&seq(3))]),
        [8.0, 16.0, 24.0]
    );
    // Shrinking by 2 each time: 8 -> 4 -> 2 -> 1 elements.
    let src =
        "kernel K(x: [f32; 8]) -> [f32; 1] { iterate(3, map(reduce(+, 0.0)) o split(2)) $ x }";
    assert_eq!(run_f32(src, &[], &[Value::from_f32s(&seq(8))]), [36.0]);
    let src = "kernel K(x: [f32; 8]) -> [f32; 8] { iterate(0, map(|v| v * 2.0)) $ x }";
    assert_eq!(run_f32(src, &[], &[Value::from_f32s(&seq(8))]), seq(8));
}

#[test]
fn gemv_matches_a_hand_loop() {
    let (n, m) = (5, 7);
    let a = random(n * m, 1);
    let x = random(m, 2);
    let src = "kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
        map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a
    }";
    let got = run_f32(
        src,
        &[n as i64, m as i64],
        &[rows(&a, m), Value::from_f32s(&x)],
    );
    let expected: Vec<f32> = a
        .chunks(m)
        .map(|r| r.iter().zip(&x).fold(0.0, |s, (p, q)| s + p * q))
        .collect();
    assert_eq!(got, expected);
}

/// The clamped value of `m` (`n` rows of `w`) at signed position `(i, j)`.
fn clamped(m: &[f32], n: usize, w: usize, i: i64, j: i64) -> f32 {
    let i = i.clamp(0, n as i64 - 1) as usize;
    let j = j.clamp(0, w as i64 - 1) as usize;
    m[i * w + j]
}

#[test]
fn jacobi_5_point_matches_a_hand_loop() {
    let (n, w) = (4, 6);
    let m = random(n * w, 3);
    let src = "kernel Jacobi<N, M>(m: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1]) o slide2(3, 1) o pad2(1, clamp) $ m
    }";
    let got = run_f32(src, &[n as i64, w as i64], &[rows(&m, w)]);
    let mut expected = Vec::new();
    for i in 0..n as i64 {
        for j in 0..w as i64 {
            let c = |di: i64, dj: i64| clamped(&m, n, w, i + di, j + dj);
            expected.push(c(-1, 0) + c(0, -1) + c(0, 0) + c(0, 1) + c(1, 0));
        }
    }
    assert_eq!(got, expected);
}

#[test]
fn pad2_and_slide2_with_all_arguments() {
    // 2 rows of 3; pad top 1, bottom 0, left 0, right 2 with 0.
    let src = "kernel K(m: [[f32; 3]; 2]) -> [[f32; 5]; 3] { pad2(1, 0, 0, 2, constant(0.0)) $ m }";
    let got = run_f32(src, &[], &[rows(&seq(6), 3)]);
    assert_eq!(
        got,
        [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 0.0, 0.0, 4.0, 5.0, 6.0, 0.0, 0.0]
    );
    // Mirror: rows -1..3 read 0 0 1 1, columns -2..3 read 1 0 0 1 2.
    let src = "kernel K(m: [[f32; 3]; 2]) -> [[f32; 5]; 4] { pad2(1, 1, 2, 0, mirror) $ m }";
    let got = run_f32(src, &[], &[rows(&seq(6), 3)]);
    let r0 = [2.0, 1.0, 1.0, 2.0, 3.0];
    let r1 = [5.0, 4.0, 4.0, 5.0, 6.0];
    assert_eq!(got, [r0, r0, r1, r1].concat());
}

#[test]
fn slide2_rectangular_neighbourhoods() {
    // 3 rows of 5, windows of 2 rows (step 1) by 3 columns (step 2): a 2 x 2 grid.
    let src = "kernel K(m: [[f32; 5]; 3]) -> [[[[f32; 3]; 2]; 2]; 2] { slide2(2, 1, 3, 2) $ m }";
    let got = run_f32(src, &[], &[rows(&seq(15), 5)]);
    let mut expected = Vec::new();
    for i in 0..2 {
        for j in 0..2 {
            for y in 0..2 {
                for x in 0..3 {
                    expected.push(((i + y) * 5 + j * 2 + x + 1) as f32);
                }
            }
        }
    }
    assert_eq!(got, expected);
}

#[test]
fn slide3_pad3_7_point_stencil_matches_a_hand_loop() {
    let (d, h, w) = (3, 4, 5);
    let c = random(d * h * w, 4);
    let cube = Value::Array(c.chunks(h * w).map(|p| rows(p, w)).collect());
    let src = "kernel K<D, H, W>(c: [[[f32; W]; H]; D]) -> [[[f32; W]; H]; D] {
        map3(|n| n[1][1][1] + n[0][1][1] + n[2][1][1] + n[1][0][1] + n[1][2][1] + n[1][1][0] + n[1][1][2])
            o slide3(3, 1) o pad3(1, clamp) $ c
    }";
    let got = run_f32(
        src,
        &[d as i64, h as i64, w as i64],
        std::slice::from_ref(&cube),
    );
    let at = |z: i64, y: i64, x: i64| {
        let z = z.clamp(0, d as i64 - 1) as usize;
        let y = y.clamp(0, h as i64 - 1) as usize;
        let x = x.clamp(0, w as i64 - 1) as usize;
        c[(z * h + y) * w + x]
    };
    let mut expected = Vec::new();
    for z in 0..d as i64 {
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                expected.push(
                    at(z, y, x)
                        + at(z - 1, y, x)
                        + at(z + 1, y, x)
                        + at(z, y - 1, x)
                        + at(z, y + 1, x)
                        + at(z, y, x - 1)
                        + at(z, y, x + 1),
                );
            }
        }
    }
    assert_eq!(got, expected);
    // All seven pad3 arguments, and slide3 with six.
    let src = "kernel K(c: [[[f32; 1]; 1]; 1]) -> [[[f32; 2]; 3]; 4] { pad3(1, 2, 0, 2, 1, 0, constant(9.0)) $ c }";
    let unit = Value::Array(vec![Value::Array(vec![Value::from_f32s(&[5.0])])]);
    let got = run_f32(src, &[], &[unit]);
    let mut expected = vec![9.0; 24];
    expected[6 + 1] = 5.0; // plane 1, row 0, column 1
    assert_eq!(got, expected);
    let src = "kernel K(c: [[[f32; 2]; 2]; 2]) -> [[[[[[f32; 2]; 1]; 1]; 1]; 2]; 2] { slide3(1, 1, 1, 1, 2, 1) $ c }";
    let small = Value::Array(vec![rows(&seq(4), 2), rows(&[5.0, 6.0, 7.0, 8.0], 2)]);
    assert_eq!(run_f32(src, &[], &[small]), seq(8));
}

#[test]
fn address_space_wrappers_are_transparent() {
    let x = Value::from_f32s(&seq(4));
    for body in [
        "to_global(map_glb(|v| v + 1.0)) $ x",
        "map_glb(to_private(|v| v + 1.0)) $ x",
        "join o map_wrg(0, map_lcl(0, |v| v + 1.0) o to_local(map_lcl(0, id))) o split(2) $ x",
    ] {
        let src = format!("kernel K(x: [f32; 4]) -> [f32; 4] {{ {body} }}");
        assert_eq!(
            run_f32(&src, &[], std::slice::from_ref(&x)),
            [2.0, 3.0, 4.0, 5.0],
            "{body}"
        );
    }
}

#[test]
fn vectors() {
    let x = Value::from_f32s(&seq(8));
    let y = Value::from_f32s(&[2.0; 8]);
    let src = "kernel K(x: [f32; 8]) -> [f32x4; 2] { as_vector(4) $ x }";
    let v = run(src, &[], std::slice::from_ref(&x)).unwrap();
    let lanes = |r: std::ops::Range<usize>| {
        Value::Vector(seq(8)[r].iter().map(|&f| Scalar::F32(f)).collect())
    };
    assert_eq!(v, Value::Array(vec![lanes(0..4), lanes(4..8)]));
    for body in [
        "as_scalar o as_vector(4) $ x",
        "as_scalar o map(vectorize(4, |v| v * 2.0 - v)) o as_vector(4) $ x",
        "as_scalar o map(|v| v + v - v * 1.0) o as_vector(2) $ x",
    ] {
        let src = format!("kernel K(x: [f32; 8]) -> [f32; 8] {{ {body} }}");
        assert_eq!(
            run_f32(&src, &[], std::slice::from_ref(&x)),
            seq(8),
            "{body}"
        );
    }
    let src = "kernel K(x: [f32; 8], y: [f32; 8]) -> [f32; 8] {
        as_scalar o map(|p| p.0 * p.1) $ zip(as_vector(4) $ x, as_vector(4) $ y)
    }";
    let expected: Vec<f32> = seq(8).iter().map(|v| v * 2.0).collect();
    assert_eq!(run_f32(src, &[], &[x.clone(), y]), expected);
    let src = "kernel K(x: [f32; 8]) -> [f32; 2] { map(|v| v[3]) o as_vector(4) $ x }";
    assert_eq!(run_f32(src, &[], &[x]), [4.0, 8.0]);
}

#[test]
fn sections_work_lane_wise_on_vectors() {
    let v = |a: [f32; 2]| Value::Vector(a.iter().map(|&f| Scalar::F32(f)).collect());
    let (a, b) = (v([1.0, 5.0]), v([3.0, 2.0]));
    use crate::ir::Section::*;
    assert_eq!(scalar::section(Add, &a, &b).unwrap(), v([4.0, 7.0]));
    assert_eq!(scalar::section(Mul, &a, &b).unwrap(), v([3.0, 10.0]));
    assert_eq!(scalar::section(Min, &a, &b).unwrap(), v([1.0, 2.0]));
    assert_eq!(scalar::section(Max, &a, &b).unwrap(), v([3.0, 5.0]));
    let one = Value::Scalar(Scalar::F32(1.0));
    assert_eq!(scalar::section(Add, &a, &one).unwrap(), v([2.0, 6.0]));
}
