//! Correct LIFT programs that the barrier and race checks once refused (issue 39), on the
//! default device with the race checker on: LIFT's tiled 1-D stencil (TestStencil.scala) and
//! other tile shapes, `iterate` over grid maps (TestIterate.scala) with 1, 2 and 7 steps, and
//! `vectorize` over user functions of two and three arguments as a reduction or map operator
//! and applied to arguments (SumAbsoluteValues.scala, the vectorised matrix product). Every
//! candidate runs instrumented against plain Rust and the interpreter, with no race; every
//! barrier of the kernels that need one, left out in turn, is caught.

use lift_runtime::core::codegen::trace::Options;
use lift_runtime::core::interp::Value;
use lift_runtime::DynKernel;
use lift_tests::{assert_close, ctx, f32s, interpret, matrix, random_f32, traced_candidates};

const PROGRAM: &str = "
fn add(a: f32, b: f32) -> f32 { a + b }
fn mult(a: f32, b: f32) -> f32 { a * b }
fn abs_and_sum_up(acc: f32, x: f32) -> f32 { acc + abs(x) }
fn mult_and_sum_up(acc: f32, l: f32, r: f32) -> f32 { acc + l * r }
kernel Tiled42<N>(input: [f32; N], weights: [f32; 3]) -> [f32; N] {
    join o map_wrg(0, |tile| map_lcl(0, |nbh| to_global(id) o reduce_seq_unroll(add, 0.0)
        o map_seq_unroll(|p| mult(p.0, p.1)) $ zip(weights, nbh))
        o slide(3, 1) o map_lcl(0, to_local(id)) $ tile) o slide(4, 2) o pad(1, 1, clamp) $ input
}
kernel Tiled64<N>(input: [f32; N], weights: [f32; 3]) -> [f32; N] {
    join o map_wrg(0, |tile| map_lcl(0, |nbh| to_global(id) o reduce_seq_unroll(add, 0.0)
        o map_seq_unroll(|p| mult(p.0, p.1)) $ zip(weights, nbh))
        o slide(3, 1) o map_lcl(0, to_local(id)) $ tile) o slide(6, 4) o pad(1, 1, clamp) $ input
}
kernel Tiled31<N>(input: [f32; N], weights: [f32; 3]) -> [f32; N] {
    join o map_wrg(0, |tile| map_lcl(0, |nbh| to_global(id) o reduce_seq_unroll(add, 0.0)
        o map_seq_unroll(|p| mult(p.0, p.1)) $ zip(weights, nbh))
        o slide(3, 1) o map_lcl(0, to_local(id)) $ tile) o slide(3, 1) o pad(1, 1, clamp) $ input
}
kernel Tiled53<N>(input: [f32; N], weights: [f32; 3]) -> [f32; N] {
    join o map_wrg(0, |tile| map_lcl(0, |nbh| to_global(id) o reduce_seq_unroll(add, 0.0)
        o map_seq_unroll(|p| mult(p.0, p.1)) $ zip(weights, nbh))
        o slide(3, 1) o to_local(map_lcl(0, id)) $ tile) o slide(5, 3) o pad(1, 1, clamp) $ input
}
kernel Iterate1<N>(input: [f32; N]) -> [f32; N] { iterate(1, map_glb(0, |x| add(1.0, x))) $ input }
kernel Iterate2<N>(input: [f32; N]) -> [f32; N] { iterate(2, map_glb(0, |x| add(1.0, x))) $ input }
kernel Iterate7<N>(input: [f32; N]) -> [f32; N] { iterate(7, map_glb(0, |x| add(1.0, x))) $ input }
kernel IterateRows7<G>(x: [[f32; 32]; G]) -> [[f32; 32]; G] {
    iterate(7, map_wrg(0, map_lcl(0, |v| add(1.0, v)))) $ x
}
kernel IterateReverse1<G>(x: [[f32; 32]; G]) -> [[f32; 32]; G] {
    iterate(1, map_wrg(0, map_lcl(0, |v| add(1.0, v)) o gather(reverse))) $ x
}
kernel IterateReverse2<G>(x: [[f32; 32]; G]) -> [[f32; 32]; G] {
    iterate(2, map_wrg(0, map_lcl(0, |v| add(1.0, v)) o gather(reverse))) $ x
}
kernel IterateReverse7<G>(x: [[f32; 32]; G]) -> [[f32; 32]; G] {
    iterate(7, map_wrg(0, map_lcl(0, |v| add(1.0, v)) o gather(reverse))) $ x
}
kernel IterateSum1<N>(input: [f32; N]) -> [f32; N] {
    iterate(1, map_glb(0, reduce_seq(add, 0.0)) o slide(3, 1) o pad(1, 1, clamp)) $ input
}
kernel IterateSum2<N>(input: [f32; N]) -> [f32; N] {
    iterate(2, map_glb(0, reduce_seq(add, 0.0)) o slide(3, 1) o pad(1, 1, clamp)) $ input
}
kernel IterateSum7<N>(input: [f32; N]) -> [f32; N] {
    iterate(7, map_glb(0, reduce_seq(add, 0.0)) o slide(3, 1) o pad(1, 1, clamp)) $ input
}
kernel AsumOperator<N, M>(x: [[f32; 4 * M]; N]) -> [f32; 4 * N] {
    as_scalar o map(|row| reduce_seq(vectorize(4, abs_and_sum_up), 0.0) o as_vector(4) $ row) $ x
}
kernel AsumApplied<N, M>(x: [[f32; 4 * M]; N]) -> [f32; 4 * N] {
    as_scalar o map(|row| reduce_seq(|acc, v| vectorize(4, abs_and_sum_up)(acc, v), 0.0)
        o as_vector(4) $ row) $ x
}
kernel DotApplied<N, M>(x: [[f32; 4 * M]; N], y: [[f32; 4 * M]; N]) -> [f32; 4 * N] {
    as_scalar o map(|p| reduce_seq(|acc, next| vectorize(4, mult_and_sum_up)(acc, next.0, next.1), 0.0)
        $ zip(as_vector(4) $ p.0, as_vector(4) $ p.1)) $ zip(x, y)
}
kernel MatMul<N, K, M>(a: [[f32; 4 * K]; N], bt: [[f32; 4 * K]; M]) -> [[f32; M]; N] {
    map(|r| map(|c| (|v| v[0] + v[1] + v[2] + v[3])
        $ reduce_seq(|acc, next| vectorize(4, mult_and_sum_up)(acc, next.0, next.1), 0.0)
        $ zip(as_vector(4) $ r, as_vector(4) $ c)) $ bt) $ a
}
kernel FmaOperator<N>(x: [f32; 4 * N], y: [f32; 4 * N], z: [f32; 4 * N]) -> [f32; 4 * N] {
    as_scalar o map(vectorize(4, mult_and_sum_up)) $ zip(as_vector(4) $ z, as_vector(4) $ x, as_vector(4) $ y)
}
kernel AsumLocal<G>(x: [[f32; 64]; G]) -> [[f32; 16]; G] {
    map_wrg(0, |g| as_scalar o map_lcl(0, reduce_seq(vectorize(4, abs_and_sum_up), 0.0)) o split(4)
        o to_local(map_lcl(0, id)) o as_vector(4) $ g) $ x
}
";

/// Runs every candidate of `kernel` instrumented against `gold` and the interpreter; gives
/// how many ran (a candidate whose preconditions fail at these sizes is skipped).
fn race_free(kernel: &str, sizes: &[usize], args: &[Value], gold: &[f32], tol: f32) -> usize {
    let want = f32s(&interpret(PROGRAM, kernel, sizes, args));
    assert_close(
        &want,
        gold,
        tol,
        &format!("{kernel} interpreter at {sizes:?}"),
    );
    let ran = traced_candidates(PROGRAM, kernel, sizes, args);
    for (name, got, _) in &ran {
        assert_close(
            &f32s(got),
            gold,
            tol,
            &format!("{kernel} {name} at {sizes:?}"),
        );
    }
    assert!(!ran.is_empty(), "{kernel} at {sizes:?}: no candidate ran");
    ran.len()
}

/// Each barrier of the default candidate of `kernel` left out in turn is caught by the race
/// checker; gives the number of barriers.
fn every_barrier_needed(kernel: &str, sizes: &[usize], args: &[Value]) -> usize {
    let plain = DynKernel::compile(ctx(), PROGRAM, kernel).expect("compiles");
    let barriers = plain.source().matches("barrier(").count();
    for drop in 0..barriers {
        let opts = Options {
            trace: true,
            drop_barrier: Some(drop),
        };
        let k = DynKernel::compile_traced(ctx(), PROGRAM, kernel, None, opts)
            .unwrap_or_else(|e| panic!("{kernel}: {e}"));
        assert_eq!(k.source().matches("barrier(").count(), barriers - 1);
        let (_, races) = k.check_races(sizes, args).expect("runs");
        assert!(
            !races.is_empty(),
            "{kernel} without barrier {drop}: no race found in\n{}",
            k.source()
        );
    }
    barriers
}

/// The 3-point weighted stencil with clamped borders, in plain Rust.
fn stencil_gold(x: &[f32], w: &[f32]) -> Vec<f32> {
    let n = x.len() as i64;
    let at = |i: i64| x[i.clamp(0, n - 1) as usize];
    (0..n)
        .map(|i| (0..3).map(|j| w[j as usize] * at(i + j - 1)).sum())
        .collect()
}

#[test]
fn tiled_stencils() {
    let w = random_f32(3, 40);
    // Sizes the tiles allow: slide(4, 2) even, slide(6, 4) multiples of 4, slide(3, 1) any,
    // slide(5, 3) multiples of 3 (odd ones among them).
    for (kernel, sizes) in [
        ("Tiled42", &[2, 10, 34, 130][..]),
        ("Tiled64", &[4, 36]),
        ("Tiled31", &[1, 2, 37]),
        ("Tiled53", &[3, 15, 33]),
    ] {
        for &n in sizes {
            let x = random_f32(n, n as u64);
            let args = [Value::from_f32s(&x), Value::from_f32s(&w)];
            race_free(kernel, &[n], &args, &stencil_gold(&x, &w), 1e-5);
        }
        let n = sizes[sizes.len() - 1];
        let args = [Value::from_f32s(&random_f32(n, 3)), Value::from_f32s(&w)];
        assert!(every_barrier_needed(kernel, &[n], &args) >= 1, "{kernel}");
    }
}

#[test]
fn iterate_over_grid_maps() {
    for n in [1, 17, 100] {
        let x = random_f32(n, 7);
        let v = Value::from_f32s(&x);
        for (kernel, k) in [("Iterate1", 1.0), ("Iterate2", 2.0), ("Iterate7", 7.0)] {
            let gold: Vec<f32> = x.iter().map(|a| a + k).collect();
            race_free(kernel, &[n], std::slice::from_ref(&v), &gold, 1e-6);
            // Each work-item reads back only what it wrote: one kernel, no barrier.
            let plain = DynKernel::compile(ctx(), PROGRAM, kernel).expect("compiles");
            assert!(!plain.source().contains("barrier("), "{kernel}");
        }
        // Steps that read neighbours' results: a kernel per step.
        for (kernel, k) in [("IterateSum1", 1), ("IterateSum2", 2), ("IterateSum7", 7)] {
            let mut gold = x.clone();
            for _ in 0..k {
                let m = gold.len() as i64;
                let at = |i: i64| gold[i.clamp(0, m - 1) as usize];
                gold = (0..m).map(|i| at(i - 1) + at(i) + at(i + 1)).collect();
            }
            race_free(kernel, &[n], std::slice::from_ref(&v), &gold, 1e-4);
            let plain = DynKernel::compile(ctx(), PROGRAM, kernel).expect("compiles");
            assert_eq!(plain.source().matches("kernel void").count(), k, "{kernel}");
        }
    }
    // Within work-groups: elementwise steps, and steps reading the reversed row (a barrier
    // between steps, each one needed).
    for g in [1, 3] {
        let x = random_f32(g * 32, 9);
        let arg = matrix(&x, g);
        let gold: Vec<f32> = x.iter().map(|a| a + 7.0).collect();
        race_free(
            "IterateRows7",
            &[g],
            std::slice::from_ref(&arg),
            &gold,
            1e-6,
        );
        for (kernel, k) in [
            ("IterateReverse1", 1),
            ("IterateReverse2", 2),
            ("IterateReverse7", 7),
        ] {
            let gold: Vec<f32> = x
                .chunks(32)
                .flat_map(|row| {
                    let mut row = row.to_vec();
                    for _ in 0..k {
                        row = row.iter().rev().map(|a| a + 1.0).collect();
                    }
                    row
                })
                .collect();
            race_free(kernel, &[g], std::slice::from_ref(&arg), &gold, 1e-6);
            let barriers = every_barrier_needed(kernel, &[g], std::slice::from_ref(&arg));
            assert!(barriers >= usize::from(k > 1), "{kernel}: {barriers}");
        }
    }
}

#[test]
fn vectorize_of_user_functions() {
    let abs_sums = |x: &[f32], m: usize| -> Vec<f32> {
        x.chunks(4 * m)
            .flat_map(|row| (0..4).map(move |l| (0..m).map(|k| row[4 * k + l].abs()).sum()))
            .collect()
    };
    for (n, m) in [(1, 1), (3, 5), (17, 8)] {
        let x = random_f32(n * 4 * m, 1);
        let y = random_f32(n * 4 * m, 2);
        let xs = matrix(&x, n);
        for kernel in ["AsumOperator", "AsumApplied"] {
            race_free(
                kernel,
                &[n, m],
                std::slice::from_ref(&xs),
                &abs_sums(&x, m),
                1e-5,
            );
        }
        let dots: Vec<f32> = x
            .chunks(4 * m)
            .zip(y.chunks(4 * m))
            .flat_map(|(a, b)| {
                (0..4).map(move |l| (0..m).map(|k| a[4 * k + l] * b[4 * k + l]).sum())
            })
            .collect();
        race_free(
            "DotApplied",
            &[n, m],
            &[xs.clone(), matrix(&y, n)],
            &dots,
            1e-5,
        );
        // The product of `a` (n x 4m) and `bt` (3 x 4m) transposed.
        let bt = random_f32(3 * 4 * m, 3);
        let product: Vec<f32> = x
            .chunks(4 * m)
            .flat_map(|r| {
                bt.chunks(4 * m)
                    .map(|c| r.iter().zip(c).map(|(p, q)| p * q).sum::<f32>())
                    .collect::<Vec<_>>()
            })
            .collect();
        let args = [xs.clone(), matrix(&bt, 3)];
        race_free("MatMul", &[n, m, 3], &args, &product, 1e-4);
        let len = 4 * n * m;
        let (a, b, c) = (random_f32(len, 4), random_f32(len, 5), random_f32(len, 6));
        let fma: Vec<f32> = (0..len).map(|i| c[i] + a[i] * b[i]).collect();
        let v = |d: &[f32]| Value::from_f32s(d);
        race_free("FmaOperator", &[n * m], &[v(&a), v(&b), v(&c)], &fma, 1e-5);
    }
    for g in [1, 3] {
        let x = random_f32(g * 64, 8);
        let arg = matrix(&x, g);
        let gold: Vec<f32> = x
            .chunks(64)
            .flat_map(|blk| {
                (0..16).map(move |j| {
                    let (r, l) = (j / 4, j % 4);
                    (0..4).map(|k| blk[16 * r + 4 * k + l].abs()).sum()
                })
            })
            .collect();
        race_free("AsumLocal", &[g], std::slice::from_ref(&arg), &gold, 1e-5);
        assert!(every_barrier_needed("AsumLocal", &[g], std::slice::from_ref(&arg)) >= 1);
    }
}
