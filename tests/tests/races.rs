//! The race checker (`lift_core::codegen::trace`) on POCL: every candidate of kernels that
//! share local memory across a work-group (blocked products with padded tiles, stencil strips,
//! transposes through local tiles, explicit `map_wrg`/`map_lcl` programs) and of multi-kernel programs runs instrumented,
//! agrees with the interpreter, and has no two work-items touching one element between two
//! barriers with a write among them; a kernel with a barrier removed is caught.

use lift_runtime::core::codegen::trace::{self, Options};
use lift_runtime::core::interp::Value;
use lift_runtime::DynKernel;
use lift_tests::{assert_close, ctx, f32s, interpret, matrix, random_f32, traced_candidates};

const PROGRAM: &str = "
kernel Gemm<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
    map(|r| map(|c| reduce(+, 0.0) o map(|(x, y)| x * y) $ zip(r, c)) $ transpose $ b) $ a
}
kernel GemmNt<N, K, M>(a: [[f32; K]; N], bt: [[f32; K]; M]) -> [[f32; M]; N] {
    map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) $ bt) $ a
}
kernel GemmTn<N, K, M>(a_t: [[f32; N]; K], b: [[f32; M]; K]) -> [[f32; M]; N] {
    map(|r| map(|c| reduce(+, 0.0) o map(|(x, y)| x * y) $ zip(r, c)) $ transpose $ b) $ transpose $ a_t
}
kernel Jacobi<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
    map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
}
kernel RowNormalise<N, M>(a: [[f32; M]; N]) -> [[f32; M]; N] {
    map(|r| { let s = reduce(+, 0.0) $ r; map(|x| x / (s + 1.0)) $ r }) $ a
}
kernel Scaled<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] {
    map(map(|v| 2.0 * v - 1.0)) o transpose $ x
}
kernel LocalSums<N>(x: [f32; N]) -> [f32; N / 4] {
    join o map_wrg(0, |g| map_lcl(0, reduce_seq(+, 0.0f32)) o split(4)
        o to_local(map_lcl(0, id)) $ g) o split(64) $ x
}
kernel Neighbours<N>(x: [f32; N]) -> [f32; N] {
    join o map_wrg(0, |g| map_lcl(0, |w| reduce_seq(+, 0.0f32) $ w) o slide(3, 1) o pad(1, 1, clamp)
        o to_local(map_lcl(0, id)) $ g) o split(32) $ x
}
";

/// Runs every candidate of `kernel` instrumented at `sizes`, against the interpreter; gives
/// the candidates that ran.
fn race_free(kernel: &str, sizes: &[usize], args: &[Value]) -> Vec<String> {
    let want = f32s(&interpret(PROGRAM, kernel, sizes, args));
    let ran = traced_candidates(PROGRAM, kernel, sizes, args);
    for (name, got, _) in &ran {
        assert_close(&f32s(got), &want, 1e-4, &format!("{kernel} {name}"));
    }
    ran.into_iter().map(|(name, ..)| name).collect()
}

#[test]
fn every_candidate_is_race_free() {
    // 32 x 64 blocks cover 40 x 72 results with overlapping last blocks (`pad=3`; with the
    // shared dimension of 19 zero-padded, `pad=4`): each element is written by one block.
    let (n, kk, m) = (40, 16, 72);
    let (a, b) = (random_f32(n * kk, 1), random_f32(kk * m, 2));
    let ran = race_free("Gemm", &[n, kk, m], &[matrix(&a, n), matrix(&b, kk)]);
    assert!(
        ran.iter().filter(|c| c.starts_with("blocked")).count() >= 6,
        "{ran:?}"
    );
    assert!(ran.iter().any(|c| c.ends_with("pad=3)")), "{ran:?}");
    let k19 = 19;
    let (a19, bt) = (random_f32(n * k19, 8), random_f32(m * k19, 3));
    let ran = race_free("GemmNt", &[n, k19, m], &[matrix(&a19, n), matrix(&bt, m)]);
    assert!(ran.iter().any(|c| c.ends_with("pad=4)")), "{ran:?}");
    let (n, m) = (33, 40);
    let (at, b) = (random_f32(kk * n, 4), random_f32(kk * m, 2));
    race_free("GemmTn", &[n, kk, m], &[matrix(&at, kk), matrix(&b, kk)]);
    let x = random_f32(19 * 23, 5);
    let ran = race_free("Jacobi", &[19, 23], &[matrix(&x, 19)]);
    assert!(ran.iter().any(|c| c.starts_with("strips")), "{ran:?}");
    race_free(
        "RowNormalise",
        &[9, 300],
        &[matrix(&random_f32(2700, 6), 9)],
    );
    // Tiles through local memory: the copy in and the copy out of a tile by different
    // work-items, a barrier between them; exact (64 x 96) and padded (40 x 7) edges.
    for (n, m) in [(64, 96), (40, 7)] {
        let x = random_f32(n * m, 10);
        let ran = race_free("Scaled", &[n, m], &[matrix(&x, n)]);
        let tiles = ran.iter().filter(|c| c.starts_with("tiles")).count();
        assert!(tiles >= 2, "{n}x{m}: {ran:?}");
    }
    let v = Value::from_f32s(&random_f32(256, 7));
    race_free("LocalSums", &[256], std::slice::from_ref(&v));
    race_free("Neighbours", &[256], &[v]);
}

/// Each barrier of a kernel that stages data in local memory, left out in turn, is caught.
#[test]
fn a_removed_barrier_is_caught() {
    let (n, kk, m) = (64, 16, 64);
    let (a, b) = (random_f32(n * kk, 1), random_f32(kk * m, 2));
    let args = [matrix(&a, n), matrix(&b, kk)];
    let name = "blocked(tm=64,tn=64,tk=8,l0=8,l1=8,v=4,u=1,pad=0)";
    let x = [matrix(&random_f32(40 * 7, 12), 40)];
    for (kernel, cand, sizes, args) in [
        ("Gemm", Some(name), vec![n, kk, m], &args[..]),
        ("Scaled", Some("tiles(t=32,r=8,pad=1)"), vec![40, 7], &x[..]),
        (
            "Neighbours",
            None,
            vec![128],
            &[Value::from_f32s(&random_f32(128, 3))][..],
        ),
    ] {
        let plain = DynKernel::compile_candidate(ctx(), PROGRAM, kernel, cand).expect("compiles");
        let barriers = plain.source().matches("barrier(").count();
        assert!(barriers >= 1, "{kernel}: no barrier");
        for drop in 0..barriers {
            let opts = Options {
                trace: true,
                drop_barrier: Some(drop),
            };
            let k = DynKernel::compile_traced(ctx(), PROGRAM, kernel, cand, opts)
                .unwrap_or_else(|e| panic!("{kernel}: {e}"));
            assert_eq!(k.source().matches("barrier(").count(), barriers - 1);
            let (_, races) = k.check_races(&sizes, args).expect("runs");
            assert!(
                races
                    .iter()
                    .any(|r| matches!(&r.race, trace::Race::Access { buffer, .. } if buffer.starts_with("tmp_l"))),
                "{kernel} without barrier {drop}: no race found in\n{}",
                k.source()
            );
        }
    }
}

/// A grid map's result read outside the map in the same kernel (here by the copy that pads
/// it) would read other work-items' results unsynchronised: it is refused with the reason.
#[test]
fn a_grid_result_read_outside_its_map_is_refused() {
    let text = "kernel K<N>(x: [f32; N]) -> [f32; N + 2] {
        pad(1, 1, constant(0.0)) o map_glb(0, |v| v * 2.0) $ x }";
    let e = DynKernel::compile(ctx(), text, "K").expect_err("refused");
    assert!(
        e.to_string().contains("read outside it in the same kernel"),
        "{e}"
    );
}

/// The four failure modes of LIFT's pattern-matching barrier placement (Mogers' thesis,
/// Listings 5.3–5.6), as work-group programs: the barriers placed here are sufficient (the
/// race checker finds no race, and each one left out is caught), not placed where work-items
/// read only what they wrote, and after a sequential loop rather than in every iteration.
/// (Listing 5.4, an unreachable barrier, is refused: `unsynchronisable_mapping_is_refused`
/// in `lift-core`.)
#[test]
fn thesis_barrier_listings() {
    let text = "
kernel L53<G>(x: [[[f32; 32]; 4]; G]) -> [[[f32; 32]; 4]; G] {
    map_wrg(0, map_seq(map_lcl(0, |v| v * 2.0) o gather(reverse) o map_lcl(0, |v| v + 1.0))) $ x
}
kernel L55<G>(x: [[[f32; 32]; 4]; G]) -> [[[f32; 32]; 4]; G] {
    map_wrg(0, map_seq(map_lcl(0, |v| v * 2.0)) o map_seq(to_local(map_lcl(0, |v| v + 1.0)))) $ x
}
kernel L56<G>(x: [[[f32; 32]; 32]; G]) -> [[[f32; 32]; 32]; G] {
    map_wrg(0, map_lcl(0, map_seq(|v| v * 2.0)) o map_seq(to_local(map_lcl(0, |v| v + 1.0)))) $ x
}
";
    // Listing 5.3 (its `map_seq(g)` made a `map_lcl` reading other work-items' results, so
    // that it does not write one element from every work-item): read-after-write after the
    // first map_lcl, and write-after-read at the end of each iteration of the sequential
    // loop (the buffer is rewritten by the next one).
    // Listing 5.5: each work-item reads back only what it wrote: no barrier.
    // Listing 5.6: one barrier, after the sequential loop.
    for (kernel, rows, barriers) in [("L53", 4, 2), ("L55", 4, 0), ("L56", 32, 1)] {
        let g = 3;
        let x = random_f32(g * rows * 32, 9);
        let arg = Value::Array(x.chunks(rows * 32).map(|blk| matrix(blk, rows)).collect());
        let want = f32s(&interpret(text, kernel, &[g], std::slice::from_ref(&arg)));
        let plain = DynKernel::compile(ctx(), text, kernel).expect("compiles");
        let source = plain.source();
        assert_eq!(
            source.matches("barrier(").count(),
            barriers,
            "{kernel}:\n{source}"
        );
        if kernel == "L56" {
            let after_loop = source.find("barrier(").expect("barrier");
            let loop_end = source[..after_loop].rfind('}').expect("loop");
            assert!(source[..loop_end].contains("for (lift_idx i_"), "{source}");
        }
        for drop in std::iter::once(None).chain((0..barriers).map(Some)) {
            let opts = Options {
                trace: true,
                drop_barrier: drop,
            };
            let k = DynKernel::compile_traced(ctx(), text, kernel, None, opts).expect("traced");
            let (got, races) = k
                .check_races(&[g], std::slice::from_ref(&arg))
                .expect("runs");
            match drop {
                None => {
                    assert!(races.is_empty(), "{kernel}: {races:?}");
                    assert_close(&f32s(&got), &want, 1e-6, kernel);
                }
                Some(d) => assert!(!races.is_empty(), "{kernel} without barrier {d}: no race"),
            }
        }
    }
}

/// `iterate` inside a work-group, each step reading its neighbours' results of the step
/// before: the memory-access graph places a barrier between every two steps (in the loop of
/// step pairs: one at the start of the body, one between its two steps, one after the loop),
/// every one of them needed (left out, the checker finds a race), and none after the last
/// step, whose result each work-item reads back itself.
#[test]
fn iterate_in_a_work_group_gets_a_barrier_between_steps() {
    let text = "
kernel IT5<G>(x: [[f32; 32]; G]) -> [[f32; 32]; G] {
    map_wrg(0, iterate(5, to_local(map_lcl(0, reduce_seq(+, 0.0))) o slide(3, 1) o pad(1, 1, clamp))) $ x
}
kernel IT6<G>(x: [[f32; 32]; G]) -> [[f32; 32]; G] {
    map_wrg(0, map_lcl(0, |v| v * 0.5) o iterate(6, to_local(map_lcl(0, reduce_seq(+, 0.0))) o slide(3, 1) o pad(1, 1, clamp))) $ x
}
";
    for (kernel, barriers) in [("IT5", 4), ("IT6", 3)] {
        let g = 3;
        let x = random_f32(g * 32, 11);
        let arg = matrix(&x, g);
        let want = f32s(&interpret(text, kernel, &[g], std::slice::from_ref(&arg)));
        let plain = DynKernel::compile(ctx(), text, kernel).expect("compiles");
        let source = plain.source();
        assert_eq!(
            source.matches("barrier(").count(),
            barriers,
            "{kernel}:\n{source}"
        );
        for drop in std::iter::once(None).chain((0..barriers).map(Some)) {
            let opts = Options {
                trace: true,
                drop_barrier: drop,
            };
            let k = DynKernel::compile_traced(ctx(), text, kernel, None, opts).expect("traced");
            let (got, races) = k
                .check_races(&[g], std::slice::from_ref(&arg))
                .expect("runs");
            match drop {
                None => {
                    assert!(races.is_empty(), "{kernel}: {races:?}");
                    assert_close(&f32s(&got), &want, 1e-4, kernel);
                }
                Some(d) => assert!(!races.is_empty(), "{kernel} without barrier {d}: no race"),
            }
        }
    }
}
