//! Tiled matrix multiplication in the low-level primitives (CGO'17 style): work-groups over
//! output tiles, a `reduce_seq` over K-tiles whose array accumulator is spread over the
//! work-items in private memory, A and B tiles staged in local memory, register blocking.
//! Each kernel against the interpreter and a CPU loop on odd multiples of its tile sizes.

use lift_runtime::{lift, Error};
use lift_tests::{assert_close, f32s, interpret, matrix, random_f32};

lift! {
    /// 16x16 output tiles, one output per work-item; 16x16 tiles of A and B staged in local
    /// memory per K-step. Requires N, M and K divisible by 16.
    kernel GemmTiled<N, M, K>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        join o map_wrg(1, |arows|
            transpose o join o map_wrg(0, |bcols|
                map_lcl(0, map_lcl(1, id)) o
                reduce_seq(|acc, t| (|(al, bl)|
                    map_lcl(0, |(accc, bc)| map_lcl(1, |(e, ar)|
                        reduce_seq(|s, p| s + p.0 * p.1, e) $ zip(ar, bc)
                    ) $ zip(accc, al)) $ zip(acc, transpose $ bl)
                ) $ (to_local(map_lcl(1, map_lcl(0, id))) o transpose $ t.0,
                     to_local(map_lcl(1, map_lcl(0, id))) $ t.1),
                    to_private(map_lcl(0, |c| map_lcl(1, |r| 0.0f32) $ arows)) $ bcols)
                $ zip(split(16) o transpose $ arows, split(16) o transpose $ bcols)
            ) o split(16) o transpose $ b
        ) o split(16) $ a
    }

    /// 64x64 output tiles computed by 16x16 work-items, each a 4x4 register block (rows
    /// and columns strided by 16); 64x16 and 16x64 tiles of A and B staged in local memory
    /// per K-step, a column of A and a row of B copied to registers per k. Requires N and M
    /// divisible by 64, K by 16.
    kernel GemmBlocked<N, M, K>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        join o map_wrg(1, |arows|
            transpose o join o map_wrg(0, |bcols|
                map_seq(join o transpose) o join o transpose o map_seq(transpose)
                o map_lcl(0, map_lcl(1, map_seq_unroll(map_seq_unroll(id)))) o
                reduce_seq(|acc, t| (|(al, bl)|
                    map_lcl(0, |(accc, bb)| map_lcl(1, |(blk, ab)|
                        reduce_seq(|bk, ks| (|(bp, ap)|
                            map_seq_unroll(|(brow, bv)| map_seq_unroll(|(e, av)| e + av * bv) $ zip(brow, ap)) $ zip(bk, bp)
                        ) $ (to_private(map_seq_unroll(id)) $ ks.0, to_private(map_seq_unroll(id)) $ ks.1), blk)
                        $ zip(transpose $ bb, transpose $ ab)
                    ) $ zip(accc, transpose o split(16) $ al)) $ zip(acc, transpose o split(16) o transpose $ bl)
                ) $ (to_local(join o transpose o map_lcl(1, map_seq(map_lcl(0, id))) o transpose o split(16)) o transpose $ t.0,
                     to_local(map_lcl(1, join o map_seq(map_lcl(0, id)) o split(16))) $ t.1),
                    to_private(map_lcl(0, |c| map_lcl(1, |r| map_seq_unroll(|x| map_seq_unroll(|y| 0.0f32) $ r) $ c)
                        $ (transpose o split(16) $ arows))) $ (transpose o split(16) $ bcols))
                $ zip(split(16) o transpose $ arows, split(16) o transpose $ bcols)
            ) o split(64) o transpose $ b
        ) o split(64) $ a
    }

    /// The same with 128x128 output tiles and an 8x8 register block per work-item. Requires
    /// N and M divisible by 128, K by 16.
    kernel GemmBlocked8<N, M, K>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        join o map_wrg(1, |arows|
            transpose o join o map_wrg(0, |bcols|
                map_seq(join o transpose) o join o transpose o map_seq(transpose)
                o map_lcl(0, map_lcl(1, map_seq_unroll(map_seq_unroll(id)))) o
                reduce_seq(|acc, t| (|(al, bl)|
                    map_lcl(0, |(accc, bb)| map_lcl(1, |(blk, ab)|
                        reduce_seq(|bk, ks| (|(bp, ap)|
                            map_seq_unroll(|(brow, bv)| map_seq_unroll(|(e, av)| e + av * bv) $ zip(brow, ap)) $ zip(bk, bp)
                        ) $ (to_private(map_seq_unroll(id)) $ ks.0, to_private(map_seq_unroll(id)) $ ks.1), blk)
                        $ zip(transpose $ bb, transpose $ ab)
                    ) $ zip(accc, transpose o split(16) $ al)) $ zip(acc, transpose o split(16) o transpose $ bl)
                ) $ (to_local(join o transpose o map_lcl(1, map_seq(map_lcl(0, id))) o transpose o split(16)) o transpose $ t.0,
                     to_local(map_lcl(1, join o map_seq(map_lcl(0, id)) o split(16))) $ t.1),
                    to_private(map_lcl(0, |c| map_lcl(1, |r| map_seq_unroll(|x| map_seq_unroll(|y| 0.0f32) $ r) $ c)
                        $ (transpose o split(16) $ arows))) $ (transpose o split(16) $ bcols))
                $ zip(split(16) o transpose $ arows, split(16) o transpose $ bcols)
            ) o split(128) o transpose $ b
        ) o split(128) $ a
    }

    /// The 8x8 version with the loop over k inside a K-tile unrolled.
    kernel GemmBlocked8U<N, M, K>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        join o map_wrg(1, |arows|
            transpose o join o map_wrg(0, |bcols|
                map_seq(join o transpose) o join o transpose o map_seq(transpose)
                o map_lcl(0, map_lcl(1, map_seq_unroll(map_seq_unroll(id)))) o
                reduce_seq(|acc, t| (|(al, bl)|
                    map_lcl(0, |(accc, bb)| map_lcl(1, |(blk, ab)|
                        reduce_seq_unroll(|bk, ks| (|(bp, ap)|
                            map_seq_unroll(|(brow, bv)| map_seq_unroll(|(e, av)| e + av * bv) $ zip(brow, ap)) $ zip(bk, bp)
                        ) $ (to_private(map_seq_unroll(id)) $ ks.0, to_private(map_seq_unroll(id)) $ ks.1), blk)
                        $ zip(transpose $ bb, transpose $ ab)
                    ) $ zip(accc, transpose o split(16) $ al)) $ zip(acc, transpose o split(16) o transpose $ bl)
                ) $ (to_local(join o transpose o map_lcl(1, map_seq(map_lcl(0, id))) o transpose o split(16)) o transpose $ t.0,
                     to_local(map_lcl(1, join o map_seq(map_lcl(0, id)) o split(16))) $ t.1),
                    to_private(map_lcl(0, |c| map_lcl(1, |r| map_seq_unroll(|x| map_seq_unroll(|y| 0.0f32) $ r) $ c)
                        $ (transpose o split(16) $ arows))) $ (transpose o split(16) $ bcols))
                $ zip(split(16) o transpose $ arows, split(16) o transpose $ bcols)
            ) o split(128) o transpose $ b
        ) o split(128) $ a
    }
}

/// `a x b` on the CPU (`n x k` times `k x m`), accumulated in f64.
fn cpu_gemm(a: &[f32], b: &[f32], n: usize, m: usize, k: usize) -> Vec<f32> {
    let mut c = vec![0.0f32; n * m];
    for i in 0..n {
        for j in 0..m {
            let s: f64 = (0..k)
                .map(|p| f64::from(a[i * k + p]) * f64::from(b[p * m + j]))
                .sum();
            c[i * m + j] = s as f32;
        }
    }
    c
}

#[test]
fn tiled_gemm_matches_interpreter_and_cpu() {
    let g = GemmTiled::new(lift_tests::ctx()).unwrap();
    let (n, m, k) = (48, 16, 32);
    let (a, b) = (random_f32(n * k, 1), random_f32(k * m, 2));
    let want = interpret(
        GemmTiled::LIFT,
        "GemmTiled",
        &[n, m, k],
        &[matrix(&a, n), matrix(&b, k)],
    );
    assert_close(
        &g.run(n, m, k, &a, &b).unwrap(),
        &f32s(&want),
        1e-5,
        "GemmTiled vs interpreter",
    );
    for (n, m, k) in [(16, 16, 16), (80, 112, 48), (208, 48, 144)] {
        let (a, b) = (random_f32(n * k, 3), random_f32(k * m, 4));
        let got = g.run(n, m, k, &a, &b).unwrap();
        assert_close(
            &got,
            &cpu_gemm(&a, &b, n, m, k),
            1e-4,
            &format!("GemmTiled {n}x{m}x{k}"),
        );
    }
}

#[test]
fn blocked_gemm_matches_interpreter_and_cpu() {
    let g = GemmBlocked::new(lift_tests::ctx()).unwrap();
    let (n, m, k) = (64, 64, 48);
    let (a, b) = (random_f32(n * k, 5), random_f32(k * m, 6));
    let want = interpret(
        GemmBlocked::LIFT,
        "GemmBlocked",
        &[n, m, k],
        &[matrix(&a, n), matrix(&b, k)],
    );
    assert_close(
        &g.run(n, m, k, &a, &b).unwrap(),
        &f32s(&want),
        1e-5,
        "GemmBlocked vs interpreter",
    );
    for (n, m, k) in [(64, 64, 16), (192, 320, 112), (320, 64, 80)] {
        let (a, b) = (random_f32(n * k, 7), random_f32(k * m, 8));
        let got = g.run(n, m, k, &a, &b).unwrap();
        assert_close(
            &got,
            &cpu_gemm(&a, &b, n, m, k),
            1e-4,
            &format!("GemmBlocked {n}x{m}x{k}"),
        );
    }
}

#[test]
fn blocked_8x8_gemm_matches_interpreter_and_cpu() {
    let u = GemmBlocked8U::new(lift_tests::ctx()).unwrap();
    let (a, b) = (random_f32(256 * 48, 17), random_f32(48 * 384, 18));
    let got = u.run(256, 384, 48, &a, &b).unwrap();
    assert_close(&got, &cpu_gemm(&a, &b, 256, 384, 48), 1e-4, "GemmBlocked8U");
    let g = GemmBlocked8::new(lift_tests::ctx()).unwrap();
    let (n, m, k) = (128, 128, 32);
    let (a, b) = (random_f32(n * k, 13), random_f32(k * m, 14));
    let want = interpret(
        GemmBlocked8::LIFT,
        "GemmBlocked8",
        &[n, m, k],
        &[matrix(&a, n), matrix(&b, k)],
    );
    assert_close(
        &g.run(n, m, k, &a, &b).unwrap(),
        &f32s(&want),
        1e-5,
        "GemmBlocked8 vs interpreter",
    );
    for (n, m, k) in [(384, 128, 48), (128, 640, 16)] {
        let (a, b) = (random_f32(n * k, 15), random_f32(k * m, 16));
        let got = g.run(n, m, k, &a, &b).unwrap();
        assert_close(
            &got,
            &cpu_gemm(&a, &b, n, m, k),
            1e-4,
            &format!("GemmBlocked8 {n}x{m}x{k}"),
        );
    }
}

/// The blocked kernel keeps one 4x4 block per work-item in registers: the accumulator over
/// the work-group's 64x64 tile takes 16 floats of private memory, not 4096.
#[test]
fn accumulator_is_per_work_item() {
    assert!(
        GemmBlocked::SOURCE.contains("float tmp_p_"),
        "{}",
        GemmBlocked::SOURCE
    );
    assert!(
        !GemmBlocked::SOURCE.contains("[4096]"),
        "{}",
        GemmBlocked::SOURCE
    );
    assert!(
        GemmBlocked::SOURCE.contains("[16];"),
        "{}",
        GemmBlocked::SOURCE
    );
    assert!(GemmTiled::SOURCE.contains("[1];"), "{}", GemmTiled::SOURCE);
}

#[test]
fn sizes_not_divisible_by_the_tiles_are_refused() {
    let g = GemmBlocked::new(lift_tests::ctx()).unwrap();
    let (n, m, k) = (64, 96, 16);
    let (a, b) = (random_f32(n * k, 9), random_f32(k * m, 10));
    assert!(matches!(
        g.run(n, m, k, &a, &b),
        Err(Error::Precondition { .. })
    ));
    let g = GemmTiled::new(lift_tests::ctx()).unwrap();
    let (n, m, k) = (16, 16, 24);
    let (a, b) = (random_f32(n * k, 11), random_f32(k * m, 12));
    assert!(matches!(
        g.run(n, m, k, &a, &b),
        Err(Error::Precondition { .. })
    ));
}
