//! Full reductions compile to two kernels (per-work-group partial results, then a final
//! work-group); checked against the interpreter on sizes 1, primes and 2^20 + 3.

use lift_runtime::core::interp::Value;
use lift_runtime::{lift, Error};
use lift_tests::{assert_close, ctx, f32s, interpret, random_f32, random_i32};

lift! {
    kernel Sum<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ x }
    kernel Asum<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) o map(|v| abs(v)) $ x }
    kernel Dot<N>(x: [f32; N], y: [f32; N]) -> f32 { reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(x, y) }
    kernel MaxI<N>(x: [i32; N]) -> i32 { reduce(max, -2147483647) $ x }
    kernel SumSq<N>(x: [f64; N]) -> f64 { reduce(|a, b| a + b, 0.0) o map(|v| v * v) $ x }
    kernel SumPadded<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) o pad(1, 1, clamp) $ x }
    kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
        map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a
    }
    kernel RowMax<N>(a: [[f32; 300]; N]) -> [f32; N] { map(reduce(max, -1000.0)) $ a }
    kernel RowSumShort<N>(a: [[f32; 3]; N]) -> [f32; N] { map(reduce(+, 0.0)) $ a }
}

const SIZES: [usize; 6] = [1, 2, 13, 257, 65_537, (1 << 20) + 3];

/// The name and source of kernel `$k`'s first candidate: what a launch runs where it applies.
macro_rules! first {
    ($k:ident) => {{
        let k = $k::new(ctx()).unwrap();
        let c = &k.candidates().unwrap()[0];
        (c.name.clone(), c.source.clone())
    }};
}

#[test]
fn sources_have_two_kernels() {
    // The derived full reduction: two stage kernels with halving steps in local memory,
    // reading vectors of 4 from parameters (a padded view element by element).
    for (name, src) in [
        first!(Sum),
        first!(Asum),
        first!(Dot),
        first!(MaxI),
        first!(SumSq),
        first!(SumPadded),
    ] {
        assert!(name.starts_with("tree(v="), "{name}");
        assert!(src.matches("kernel void").count() == 2, "{src}");
        assert!(src.contains("barrier(CLK_LOCAL_MEM_FENCE)"), "{src}");
        assert_eq!(name == "tree(v=4)", src.contains("4*)"), "{name}: {src}");
    }
    assert_eq!(
        first!(SumPadded).0,
        "tree(v=1)",
        "a padded view is read element-wise"
    );
    // Below one work-group of elements the sequential map runs (the default source).
    assert!(Sum::LOWERED.starts_with("reduce_seq("), "{}", Sum::LOWERED);
}

#[test]
fn sum_asum_dot_match_interpreter() {
    let (sum, asum, dot) = (
        Sum::new(ctx()).unwrap(),
        Asum::new(ctx()).unwrap(),
        Dot::new(ctx()).unwrap(),
    );
    for (i, n) in SIZES.into_iter().enumerate() {
        let x = random_f32(n, i as u64);
        let y = random_f32(n, 100 + i as u64);
        let vx = Value::from_f32s(&x);
        let vy = Value::from_f32s(&y);
        let tol = 1e-5 * (n as f32).sqrt().max(1.0);
        let want = f32s(&interpret(
            Sum::LIFT,
            "Sum",
            &[n],
            std::slice::from_ref(&vx),
        ));
        assert_close(
            &[sum.run(n, &x).unwrap()],
            &want,
            tol,
            &format!("Sum N={n}"),
        );
        let want = f32s(&interpret(
            Asum::LIFT,
            "Asum",
            &[n],
            std::slice::from_ref(&vx),
        ));
        assert_close(
            &[asum.run(n, &x).unwrap()],
            &want,
            tol,
            &format!("Asum N={n}"),
        );
        let want = f32s(&interpret(Dot::LIFT, "Dot", &[n], &[vx, vy]));
        assert_close(
            &[dot.run(n, &x, &y).unwrap()],
            &want,
            tol,
            &format!("Dot N={n}"),
        );
    }
}

#[test]
fn integer_max_is_exact() {
    let k = MaxI::new(ctx()).unwrap();
    for n in SIZES {
        let x = random_i32(n, n as u64);
        assert_eq!(
            k.run(n, &x).unwrap(),
            *x.iter().max().unwrap(),
            "MaxI N={n}"
        );
    }
}

#[test]
fn f64_lambda_operator_and_padded_input() {
    let k = SumSq::new(ctx()).unwrap();
    let p = SumPadded::new(ctx()).unwrap();
    for n in [1, 3, 1000, 100_003] {
        let x: Vec<f64> = random_f32(n, 5).into_iter().map(f64::from).collect();
        let want: f64 = x.iter().map(|v| v * v).sum();
        let got = k.run(n, &x).unwrap();
        assert!(
            (got - want).abs() <= 1e-9 * want.max(1.0),
            "SumSq N={n}: {got} vs {want}"
        );
        let y = random_f32(n, 6);
        let want = f32s(&interpret(
            SumPadded::LIFT,
            "SumPadded",
            &[n],
            &[Value::from_f32s(&y)],
        ));
        assert_close(
            &[p.run(n, &y).unwrap()],
            &want,
            1e-4,
            &format!("SumPadded N={n}"),
        );
    }
}

#[test]
fn row_reductions_use_a_work_group_per_row() {
    assert_eq!(first!(Gemv).0, "tree(rows=1,wg=256)");
    // Rows of 300: the tree applies to every size, so it is the default; rows of 3 are
    // shorter than any group's share.
    assert_eq!(RowMax::DEFAULT_CANDIDATE, "tree(rows=1,wg=256)");
    assert_eq!(RowSumShort::DEFAULT_CANDIDATE, "map");
    let gemv = Gemv::new(ctx()).unwrap();
    for (n, m) in [(1, 1), (3, 1000), (1000, 300), (7, 4099)] {
        let a = random_f32(n * m, 40);
        let x = random_f32(m, 41);
        let want: Vec<f32> = a
            .chunks(m)
            .map(|r| r.iter().zip(&x).map(|(p, q)| p * q).sum())
            .collect();
        assert_close(
            &gemv.run(n, m, &a, &x).unwrap(),
            &want,
            1e-4,
            &format!("Gemv {n}x{m}"),
        );
    }
    let (rmax, rsum) = (
        RowMax::new(ctx()).unwrap(),
        RowSumShort::new(ctx()).unwrap(),
    );
    for n in [1, 5, 77] {
        let a = random_f32(n * 300, 42);
        let want: Vec<f32> = a
            .chunks(300)
            .map(|r| r.iter().copied().fold(-1000.0, f32::max))
            .collect();
        assert_eq!(rmax.run(n, &a).unwrap(), want, "RowMax N={n}");
        let b = random_f32(n * 3, 43);
        let want: Vec<f32> = b.chunks(3).map(|r| r.iter().sum()).collect();
        assert_close(
            &rsum.run(n, &b).unwrap(),
            &want,
            1e-6,
            &format!("RowSumShort N={n}"),
        );
    }
}

/// The reductions derived as low-level programs (`tree(..)` candidates of
/// `lift_core::explore::reductions`): every candidate of full and row reductions (fused maps,
/// `zip` inputs, epilogues, f64 and i32) against the interpreter at odd sizes, sizes below one
/// work-group and multiples of the vector width, run under the race checker.
#[test]
fn derived_trees_agree_with_the_interpreter() {
    use lift_tests::diff::{self, Case, CheckOptions, Outcome};
    let full = [
        "kernel K<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ x }",
        "kernel K<N>(x: [f32; N], y: [f32; N], alpha: f32) -> f32 { alpha * (reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(x, y)) }",
        "kernel K<N>(x: [f32; N]) -> f32 { sqrt(reduce(+, 0.0) o map(|v| abs(v) + 1.0) $ x) }",
        "kernel K<N>(x: [f64; N]) -> f64 { reduce(|a, b| a + b, 0.0) o map(|v| v * v) $ x }",
        "kernel K<N>(x: [i32; N]) -> i32 { reduce(max, -2147483647) o map(|v| v * 3 - 7) $ x }",
    ];
    let rows = [
        "kernel K<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] { map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a }",
        "kernel K<N, M>(a: [[f32; M]; N], alpha: f32) -> [f32; N] { map(|row| alpha * (reduce(max, -1000.0) $ row)) $ a }",
        "kernel K<N, M>(a: [[f32; N]; M], x: [f32; M]) -> [f32; N] { map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) o transpose $ a }",
    ];
    let mut cases = Vec::new();
    for text in full {
        // (The harness draws at most 2^16 elements and the race checker traces a few hundred
        // thousand accesses; larger sizes, where each work-item folds several elements, are
        // checked by `every_sum_candidate_folds_past_one_grid`.)
        for n in [1, 3, 4, 255, 256, 1028, 30_011, 32_768] {
            cases.push((text, vec![n]));
        }
    }
    for text in rows {
        for (n, m) in [
            (1, 1),
            (3, 130),
            (4, 256),
            (5, 1027),
            (2, 4096),
            (70, 300),
            (65, 257),
        ] {
            cases.push((text, vec![n, m]));
        }
    }
    let mut failed = Vec::new();
    for (seed, (text, sizes)) in cases.into_iter().enumerate() {
        let dk = lift_runtime::DynKernel::compile(ctx(), text, "K").unwrap();
        // The trees fold whole slices: they apply where the length reduced is at least the
        // number of work-items sharing it (256 for a full reduction, 256 or fewer for rows
        // side by side); below, the sequential candidate serves.
        let applying: Vec<&String> = dk
            .candidates()
            .iter()
            .filter(|c| c.starts_with("tree("))
            .filter(|c| {
                lift_runtime::DynKernel::compile_candidate(ctx(), text, "K", Some(c))
                    .unwrap()
                    .applies(&sizes)
            })
            .collect();
        let what = format!("{text} at {sizes:?}: {applying:?} of {:?}", dk.candidates());
        match sizes[..] {
            [n] => assert_eq!(!applying.is_empty(), n >= 256, "{what}"),
            [n, m] => {
                assert!(m < 256 || !applying.is_empty(), "{what}");
                let side_by_side = applying.iter().any(|c| !c.starts_with("tree(rows=1,"));
                assert!(n < 64 || m < 64 || side_by_side, "{what}");
            }
            _ => unreachable!(),
        }
        let c = Case {
            family: "tree",
            text: text.to_string(),
            sizes: sizes.clone(),
            seed: seed as u64,
        };
        let opts = CheckOptions {
            races: true,
            ..CheckOptions::default()
        };
        match diff::check(ctx(), &c, opts) {
            Outcome::Agree(_) => {}
            other => failed.push(format!("{text} at {sizes:?}: {other:?}")),
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Every candidate of a full reduction (the template, the derived trees and the sequential
/// map) at sizes past one grid of 1024 groups, where each work-item folds several elements
/// (vectors of 4 and single elements), against the sum in f64.
#[test]
fn every_sum_candidate_folds_past_one_grid() {
    let k = Sum::new(ctx()).unwrap();
    let cands = k.candidates().unwrap();
    assert!(
        cands.iter().any(|c| c.name.starts_with("tree(")),
        "{cands:?}"
    );
    for n in [(1 << 20) + 3, (1 << 22) + 4] {
        let x = random_f32(n, 7);
        let want = x.iter().map(|&v| f64::from(v)).sum::<f64>() as f32;
        let dx = ctx().upload(&x).unwrap();
        let mut ran = 0;
        for (c, cand) in cands.iter().enumerate() {
            let out = ctx().alloc::<f32>(1).unwrap();
            match k.launch_candidate(c, n, &dx, &out) {
                Ok(ev) => {
                    ev.wait().unwrap();
                    let what = format!("Sum N={n} {}", cand.name);
                    assert_close(
                        &out.download().unwrap(),
                        &[want],
                        1e-5 * (n as f32).sqrt(),
                        &what,
                    );
                    ran += 1;
                }
                Err(Error::Launch { reason }) if reason.contains("does not apply") => {}
                Err(e) => panic!("Sum N={n} {}: {e}", cand.name),
            }
        }
        assert!(ran >= 3, "N={n}: {ran} candidates ran");
    }
}
