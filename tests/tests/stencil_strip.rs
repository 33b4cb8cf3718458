//! The strip-mined variant of 2-D stencils (`lift_core::codegen::stencil_strip`): each
//! work-item computes 4 vertically consecutive outputs, unrolled with `map_seq_unroll`, when
//! the number of rows is a multiple of 8; the general program runs otherwise. Both paths are
//! checked against the reference interpreter. 3-D stencils get strips of 4 consecutive planes
//! when the number of planes is a multiple of 4.

use lift_runtime::core::interp::Value;
use lift_runtime::lift;
use lift_tests::{assert_close, ctx, f32s, interpret, matrix, random_f32};

lift! {
    /// 5-point stencil, clamped borders.
    kernel StripJacobi<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
    }
    /// 25-point box sum, clamped borders.
    kernel StripBox25<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| reduce(+, 0.0) o map(|r| reduce(+, 0.0) $ r) $ nbh) o slide2(5, 1) o pad2(2, clamp) $ x
    }
    /// 17 rows by one column (the column pass of a separable convolution).
    kernel StripCol<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| nbh[0][0] - 2.0 * nbh[8][0] + 0.5 * nbh[16][0]) o slide2(17, 1, 1, 1) o pad2(8, 8, 0, 0, clamp) $ x
    }
    /// One row of window: consecutive rows share no loads, so no variant.
    kernel StripRow<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| nbh[0][0] + nbh[0][2]) o slide2(1, 1, 3, 1) o pad2(0, 0, 1, 1, clamp) $ x
    }
    /// 7-point 3-D Jacobi, clamped borders.
    kernel StripJacobi3d<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] {
        map3(|nbh| 0.142857 * (nbh[0][1][1] + nbh[1][0][1] + nbh[1][1][0] + nbh[1][1][1] + nbh[1][1][2] + nbh[1][2][1] + nbh[2][1][1])) o slide3(3, 1) o pad3(1, clamp) $ x
    }
    /// One plane of window: consecutive planes share no loads, so no variant.
    kernel StripFlat3d<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] {
        map3(|nbh| nbh[0][0][0] + nbh[0][2][2]) o slide3(1, 1, 3, 1, 3, 1) o pad3(0, 0, 1, 1, 1, 1, clamp) $ x
    }
}

const SIZES3: [(usize, usize, usize); 8] = [
    (4, 5, 7),
    (8, 3, 9),
    (12, 1, 3),
    (4, 1, 1),
    (5, 7, 3),
    (9, 5, 5),
    (3, 8, 8),
    (1, 1, 1),
];

/// A 3-D array value of `n` planes of `m` rows from row-major data.
fn cube(data: &[f32], n: usize, m: usize) -> Value {
    let plane = data.len() / n;
    Value::Array(data.chunks(plane).map(|p| matrix(p, m)).collect())
}

const SIZES: [(usize, usize); 10] = [
    (8, 13),
    (24, 5),
    (40, 3),
    (12, 7),
    (16, 31),
    (4, 1),
    (9, 13),
    (7, 12),
    (31, 17),
    (1, 1),
];

#[test]
fn variants_exist_with_unrolled_rows() {
    for (src, taps_unrolled) in [
        (StripJacobi::SPECIALISED_SOURCE, true),
        (StripBox25::SPECIALISED_SOURCE, false),
        (StripCol::SPECIALISED_SOURCE, true),
    ] {
        let src = src.expect("strip variant");
        // Eight unrolled rows, each writing its own output row, and no loop over them.
        assert!(src.contains("out[8 * M * gid1 + gid0] = "), "{src}");
        assert!(src.contains("out[M + 8 * M * gid1 + gid0] = "), "{src}");
        for row in 2..8 {
            let needle = format!("out[{row} * M + 8 * M * gid1 + gid0] = ");
            assert!(src.contains(&needle), "{needle} in {src}");
        }
        // The rows are unrolled; explicit taps leave no loop at all.
        assert!(!taps_unrolled || !src.contains("for ("), "{src}");
        assert!(src.contains("get_global_id(1) < N / 8"), "{src}");
    }
    assert!(StripRow::SPECIALISED_SOURCE.is_none());
    assert!(StripJacobi::SPECIALISED_CONDITIONS.len() == 1);
    for (n, m) in SIZES {
        let want = n % 8 == 0;
        assert_eq!(StripJacobi::specialised_for(n, m), want, "{n}x{m}");
        assert_eq!(StripBox25::specialised_for(n, m), want, "{n}x{m}");
        assert_eq!(StripCol::specialised_for(n, m), want, "{n}x{m}");
        assert!(!StripRow::specialised_for(n, m));
    }
}

#[test]
fn both_paths_match_the_interpreter() {
    let j = StripJacobi::new(ctx()).unwrap();
    let b = StripBox25::new(ctx()).unwrap();
    let c = StripCol::new(ctx()).unwrap();
    let r = StripRow::new(ctx()).unwrap();
    for (i, (n, m)) in SIZES.into_iter().enumerate() {
        let x = random_f32(n * m, 40 + i as u64);
        let arg = [matrix(&x, n)];
        let cases: [(&str, &str, Vec<f32>); 4] = [
            ("StripJacobi", StripJacobi::LIFT, j.run(n, m, &x).unwrap()),
            ("StripBox25", StripBox25::LIFT, b.run(n, m, &x).unwrap()),
            ("StripCol", StripCol::LIFT, c.run(n, m, &x).unwrap()),
            ("StripRow", StripRow::LIFT, r.run(n, m, &x).unwrap()),
        ];
        for (name, lift, got) in cases {
            let want = interpret(lift, name, &[n, m], &arg);
            assert_close(&got, &f32s(&want), 1e-5, &format!("{name} {n}x{m}"));
        }
    }
}

#[test]
fn variant_3d_exists_with_unrolled_planes() {
    let src = StripJacobi3d::SPECIALISED_SOURCE.expect("strip variant");
    // Four unrolled planes, each writing its own output plane, and no loop over them.
    assert!(
        src.contains("out[4 * L * M * gid2 + L * gid1 + gid0] = "),
        "{src}"
    );
    assert!(
        src.contains("out[L * M + 4 * L * M * gid2 + L * gid1 + gid0] = "),
        "{src}"
    );
    for plane in 2..4 {
        let needle = format!("out[{plane} * L * M + 4 * L * M * gid2 + L * gid1 + gid0] = ");
        assert!(src.contains(&needle), "{needle} in {src}");
    }
    assert!(!src.contains("out[4 * L * M + "), "{src}");
    assert!(!src.contains("for ("), "{src}");
    assert!(src.contains("get_global_id(2) < N / 4"), "{src}");
    assert!(StripFlat3d::SPECIALISED_SOURCE.is_none());
    assert!(StripJacobi3d::SPECIALISED_CONDITIONS.len() == 1);
    for (n, m, l) in SIZES3 {
        assert_eq!(
            StripJacobi3d::specialised_for(n, m, l),
            n % 4 == 0,
            "{n}x{m}x{l}"
        );
        assert!(!StripFlat3d::specialised_for(n, m, l));
    }
}

#[test]
fn both_3d_paths_match_the_interpreter() {
    let j = StripJacobi3d::new(ctx()).unwrap();
    let f = StripFlat3d::new(ctx()).unwrap();
    for (i, (n, m, l)) in SIZES3.into_iter().enumerate() {
        let x = random_f32(n * m * l, 70 + i as u64);
        let arg = [cube(&x, n, m)];
        let cases: [(&str, &str, Vec<f32>); 2] = [
            (
                "StripJacobi3d",
                StripJacobi3d::LIFT,
                j.run(n, m, l, &x).unwrap(),
            ),
            (
                "StripFlat3d",
                StripFlat3d::LIFT,
                f.run(n, m, l, &x).unwrap(),
            ),
        ];
        for (name, lift, got) in cases {
            let want = interpret(lift, name, &[n, m, l], &arg);
            assert_close(&got, &f32s(&want), 1e-5, &format!("{name} {n}x{m}x{l}"));
        }
    }
}
