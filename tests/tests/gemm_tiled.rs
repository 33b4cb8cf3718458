//! Tiled matrix multiplication in the low-level primitives (CGO'17 style): work-groups over
//! output tiles, a `reduce_seq` over K-tiles whose array accumulator is spread over the
//! work-items in private memory, A and B tiles staged in local memory, register blocking.
//! Each kernel against the interpreter and a CPU loop on odd multiples of its tile sizes.

use lift_bench::lift_kernels::{Gemm, GemmBlocked, GemmTiled};
use lift_runtime::Error;
use lift_tests::{assert_close, f32s, interpret, matrix, random_f32};

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

/// The 128x128-block, 16x16-group candidates of the high-level matrix product
/// (`lift_core::rewrite::blocking`) read their tiles from local memory with `vload4`, the two
/// tiles of a K-step sharing one barrier; with `u=1` the loop over a slice's vector steps is
/// left to the device compiler to unroll, over local arrays declared aligned for the
/// unrolled `vload4`s, with `u=0` it is a plain loop over naturally aligned arrays.
#[test]
fn blocked_8x8_gemm_matches_interpreter_and_cpu() {
    let g = Gemm::new(lift_tests::ctx()).unwrap();
    let source = |u: u32| {
        let name = format!("blocked(tm=128,tn=128,tk=16,l0=16,l1=16,v=4,u={u},pad=0)");
        let cands = g.candidates().unwrap();
        let c = cands
            .iter()
            .position(|c| c.name == name)
            .expect("the 128x128 blocking");
        (c, cands[c].source.as_str())
    };
    let (looped, src) = source(0);
    assert!(
        !src.contains("#pragma unroll") && !src.contains("aligned("),
        "{src}"
    );
    let (c, src) = source(1);
    assert!(src.contains("#pragma unroll"), "{src}");
    assert!(
        src.contains("[2048] __attribute__((aligned(16)));"),
        "{src}"
    );
    for src in [src, g.candidates().unwrap()[looped].source.as_str()] {
        assert!(src.contains("float4 "), "{src}");
        assert!(src.contains("= vload4(0, tmp_l_"), "{src}");
        assert_eq!(src.matches("barrier(").count(), 2, "{src}");
    }
    for (c, (n, m, k)) in [looped, c]
        .into_iter()
        .flat_map(|c| [(128, 128, 32), (384, 128, 48), (128, 640, 16)].map(|s| (c, s)))
    {
        let (a, b) = (random_f32(n * k, 15), random_f32(k * m, 16));
        let (da, db) = (g_upload(&a), g_upload(&b));
        let out = lift_tests::ctx().alloc::<f32>(n * m).unwrap();
        g.launch_candidate(c, n, k, m, &da, &db, &out)
            .unwrap()
            .wait()
            .unwrap();
        assert_close(
            &out.download().unwrap(),
            &cpu_gemm(&a, &b, n, m, k),
            1e-4,
            &format!(
                "blocked Gemm {} {n}x{m}x{k}",
                g.candidates().unwrap()[c].name
            ),
        );
    }
}

/// Covered blockings (`split_cover`/`join_cover`, `pad=3`; with the shared dimension
/// zero-padded, `pad=4`) at sizes the 128 x 128 blocks do not divide: the last block of rows
/// and of columns is shifted back to end at the edge and computes rows of the block before
/// it again; every launch that applies matches the CPU, and each applies only where it is
/// meant to (from 128 rows and columns on, `K % 16 == 0` or not).
#[test]
fn covered_blocks_match_cpu_at_uneven_sizes() {
    let g = Gemm::new(lift_tests::ctx()).unwrap();
    let find = |u: u32, pad: u32| {
        let name = format!("blocked(tm=128,tn=128,tk=16,l0=16,l1=16,v=4,u={u},pad={pad})");
        g.candidates()
            .unwrap()
            .iter()
            .position(|c| c.name == name)
            .unwrap_or_else(|| panic!("{name}"))
    };
    for (n, m, k) in [
        (130, 200, 32),
        (300, 129, 48),
        (130, 200, 33),
        (257, 140, 19),
        (100, 200, 32),
    ] {
        let (a, b) = (random_f32(n * k, 17), random_f32(k * m, 18));
        let want = cpu_gemm(&a, &b, n, m, k);
        let (da, db) = (g_upload(&a), g_upload(&b));
        for (u, pad) in [(0, 3), (1, 3), (0, 4), (1, 4)] {
            let c = find(u, pad);
            let applies = n >= 128 && m >= 128 && (k % 16 == 0) == (pad == 3);
            let out = lift_tests::ctx().alloc::<f32>(n * m).unwrap();
            let what = format!("{} {n}x{m}x{k}", g.candidates().unwrap()[c].name);
            match g.launch_candidate(c, n, k, m, &da, &db, &out) {
                Ok(ev) => {
                    assert!(applies, "{what} ran");
                    ev.wait().unwrap();
                    assert_close(&out.download().unwrap(), &want, 1e-4, &what);
                }
                Err(Error::Launch { reason }) => {
                    assert!(
                        !applies && reason.contains("does not apply"),
                        "{what}: {reason}"
                    )
                }
                Err(e) => panic!("{what}: {e}"),
            }
        }
    }
}

fn g_upload(x: &[f32]) -> lift_runtime::Buffer<f32> {
    lift_tests::ctx().upload(x).unwrap()
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
