//! Generated OpenCL (on the default device, POCL in CI) against the reference interpreter,
//! on random inputs of odd sizes: 1, primes, non-multiples of any work-group size.

use lift_runtime::core::interp::Value;
use lift_runtime::lift;
use lift_tests::{assert_close, ctx, f32s, interpret, matrix, random_f32};

lift! {
    fn mult(a: f32, b: f32) -> f32 { a * b }

    /// The README stencil.
    kernel Blur3<N>(input: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input
    }

    kernel Scale<N>(x: [f32; N], alpha: f32) -> [f32; N] { map(|v| mult(v, alpha) + 1.0) $ x }

    kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
        map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a
    }

    kernel Gemm<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|row| map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, col)) o transpose $ b) $ a
    }

    kernel IterateKeep<N>(x: [f32; N]) -> [f32; N] { iterate(5, map(|v| v * 0.5 + 1.0)) $ x }
    kernel IterateShrink(x: [f32; 64]) -> [f32; 8] { iterate(3, map(reduce(+, 0.0)) o split(2)) $ x }
    kernel ScatterStride<N>(x: [f32; N]) -> [f32; N] { map(|v| v + 1.0) o scatter(stride(4)) $ x }
    kernel Zip2Unzip<N, M>(a: [[f32; M]; N], b: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|p| p.0 - p.1) $ zip2(a, b)
    }

    kernel Dot<N>(x: [f32; N], y: [f32; N]) -> f32 {
        reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(x, y)
    }

    kernel Transpose<N, M>(a: [[f32; M]; N]) -> [[f32; N]; M] {
        map(map(id)) o transpose $ a
    }

    kernel PadMirror<N>(x: [f32; N]) -> [f32; N + 3] { map(id) o pad(1, 2, mirror) $ x }
    kernel PadWrap<N>(x: [f32; N]) -> [f32; N + 4] { map(id) o pad(2, 2, wrap) $ x }
    kernel PadConst<N>(x: [f32; N]) -> [f32; N + 3] { map(id) o pad(2, 1, constant(0.5)) $ x }

    kernel SlideStep<N>(x: [f32; 2 * N + 1]) -> [f32; N] { map(reduce(max, -10.0)) o slide(3, 2) $ x }

    kernel Jacobi2d<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
    }

    kernel Reverse<N>(x: [f32; N]) -> [f32; N] { map(id) o gather(reverse) $ x }

    kernel SplitJoin<N>(x: [f32; N]) -> [f32; N] { join o map(map(|v| v * 2.0)) o split(4) $ x }

    /// The CGO'17 partial dot product, low level: each work-group of 64 work-items reduces 128
    /// pairs, staging per-item results in local memory.
    kernel PartialDot<N>(x: [f32; N], y: [f32; N]) -> [f32; N / 128 * 64] {
        join o map_wrg(0, map_lcl(0, reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32)) o split(2)) o split(128) $ zip(x, y)
    }

    /// CGO'17 Listing 1, in SPEC syntax: the first pass multiplies and adds pairs into local
    /// memory, `iterate` halves the 64 partial sums six times in local memory, the last one is
    /// copied to global memory.
    kernel Listing1<N>(x: [f32; N], y: [f32; N]) -> [f32; N / 128] {
        join o map_wrg(0,
            to_global(map_lcl(0, id)) o
            iterate(6, to_local(map_lcl(0, reduce_seq(+, 0.0f32))) o split(2)) o
            to_local(map_lcl(0, reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32))) o split(2)
        ) o split(128) $ zip(x, y)
    }

    kernel GlbSeq<N, M>(a: [[f32; M]; N]) -> [f32; N] {
        map_glb(0, reduce_seq(|acc, v| acc + v * v, 0.0f32)) $ a
    }
}

const SIZES: [usize; 7] = [1, 2, 3, 7, 31, 257, 1000];

#[test]
fn blur3_matches_interpreter_and_worked_example() {
    let k = Blur3::new(ctx()).unwrap();
    assert_eq!(
        k.run(5, &[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap(),
        vec![4.0, 6.0, 9.0, 12.0, 14.0]
    );
    for (i, n) in SIZES.into_iter().enumerate() {
        let x = random_f32(n, i as u64);
        let got = k.run(n, &x).unwrap();
        let want = interpret(Blur3::LIFT, "Blur3", &[n], &[Value::from_f32s(&x)]);
        assert_close(&got, &f32s(&want), 1e-5, &format!("Blur3 N={n}"));
    }
}

#[test]
fn scale_with_scalar_and_user_function() {
    let k = Scale::new(ctx()).unwrap();
    for n in SIZES {
        let x = random_f32(n, 7);
        let got = k.run(n, &x, 2.5).unwrap();
        let want = interpret(
            Scale::LIFT,
            "Scale",
            &[n],
            &[
                Value::from_f32s(&x),
                Value::from(lift_runtime::core::interp::Scalar::F32(2.5)),
            ],
        );
        assert_close(&got, &f32s(&want), 1e-6, &format!("Scale N={n}"));
    }
}

#[test]
fn gemv_odd_sizes() {
    let k = Gemv::new(ctx()).unwrap();
    for (n, m) in [(1, 1), (3, 7), (31, 5), (64, 129)] {
        let a = random_f32(n * m, 1);
        let x = random_f32(m, 2);
        let got = k.run(n, m, &a, &x).unwrap();
        let want = interpret(
            Gemv::LIFT,
            "Gemv",
            &[n, m],
            &[matrix(&a, n), Value::from_f32s(&x)],
        );
        assert_close(&got, &f32s(&want), 1e-4, &format!("Gemv {n}x{m}"));
    }
}

#[test]
fn high_level_iterate_scatter_and_zip2() {
    let keep = IterateKeep::new(ctx()).unwrap();
    for n in [1, 7, 1000] {
        let x = random_f32(n, 61);
        let want = interpret(
            IterateKeep::LIFT,
            "IterateKeep",
            &[n],
            &[Value::from_f32s(&x)],
        );
        assert_close(
            &keep.run(n, &x).unwrap(),
            &f32s(&want),
            1e-6,
            &format!("IterateKeep N={n}"),
        );
    }
    let shrink = IterateShrink::new(ctx()).unwrap();
    let x = random_f32(64, 62);
    let want = interpret(
        IterateShrink::LIFT,
        "IterateShrink",
        &[],
        &[Value::from_f32s(&x)],
    );
    assert_close(
        &shrink.run(&x).unwrap(),
        &f32s(&want),
        1e-5,
        "IterateShrink",
    );
    let sc = ScatterStride::new(ctx()).unwrap();
    for n in [4, 12, 400] {
        let x = random_f32(n, 63);
        let want = interpret(
            ScatterStride::LIFT,
            "ScatterStride",
            &[n],
            &[Value::from_f32s(&x)],
        );
        assert_eq!(sc.run(n, &x).unwrap(), f32s(&want), "ScatterStride N={n}");
    }
    let z = Zip2Unzip::new(ctx()).unwrap();
    for (n, m) in [(1, 1), (5, 9)] {
        let (a, b) = (random_f32(n * m, 64), random_f32(n * m, 65));
        let want = interpret(
            Zip2Unzip::LIFT,
            "Zip2Unzip",
            &[n, m],
            &[matrix(&a, n), matrix(&b, n)],
        );
        assert_eq!(z.run(n, m, &a, &b).unwrap(), f32s(&want), "Zip2 {n}x{m}");
    }
}

#[test]
fn gemm_is_a_two_dimensional_map() {
    let k = Gemm::new(ctx()).unwrap();
    let cands = k.candidates().unwrap();
    let default = cands
        .iter()
        .position(|c| c.name == "map")
        .expect("the default mapping");
    assert!(
        cands[default]
            .lowered
            .starts_with("map_glb(1, |row| map_glb(0, "),
        "{}",
        cands[default].lowered
    );
    // Blocked candidates come first: unpadded ones with conditions on N, K and M, padded ones
    // on K only; the default source is the first candidate without conditions.
    assert!(cands[0].name.starts_with("blocked("));
    assert!(cands[0].source.contains("local float"));
    assert!(!cands[0].conditions.is_empty());
    assert_eq!(cands[default].conditions, "");
    let dot = Dot::new(ctx()).unwrap();
    let dot_names: Vec<&str> = dot
        .candidates()
        .unwrap()
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    // The reductions derived as programs (vectors of 4, then single elements), each where
    // its work-items have whole slices to fold, then the sequential map for the rest.
    assert_eq!(dot_names, ["tree(v=4)", "tree(v=1)", "map"]);
    for (n, kk, m) in [
        (1, 1, 1),
        (3, 5, 7),
        (17, 31, 13),
        (64, 65, 66),
        (128, 16, 128),
        (256, 48, 384),
    ] {
        let a = random_f32(n * kk, 51);
        let b = random_f32(kk * m, 52);
        let got = k.run(n, kk, m, &a, &b).unwrap();
        let want = interpret(
            Gemm::LIFT,
            "Gemm",
            &[n, kk, m],
            &[matrix(&a, n), matrix(&b, kk)],
        );
        assert_close(&got, &f32s(&want), 1e-4, &format!("Gemm {n}x{kk}x{m}"));
    }
}

#[test]
fn full_reduction_returns_a_scalar() {
    let k = Dot::new(ctx()).unwrap();
    for n in [1, 2, 13, 1000, 4099] {
        let (x, y) = (random_f32(n, 3), random_f32(n, 4));
        let got = k.run(n, &x, &y).unwrap();
        let want = interpret(
            Dot::LIFT,
            "Dot",
            &[n],
            &[Value::from_f32s(&x), Value::from_f32s(&y)],
        );
        assert_close(&[got], &f32s(&want), 1e-3, &format!("Dot N={n}"));
    }
}

#[test]
fn transpose_odd_sizes() {
    let k = Transpose::new(ctx()).unwrap();
    for (n, m) in [(1, 1), (2, 3), (7, 5), (33, 17)] {
        let a = random_f32(n * m, 5);
        let got = k.run(n, m, &a).unwrap();
        let want = interpret(Transpose::LIFT, "Transpose", &[n, m], &[matrix(&a, n)]);
        assert_eq!(got, f32s(&want), "Transpose {n}x{m}");
    }
}

#[test]
fn every_pad_boundary() {
    let mirror = PadMirror::new(ctx()).unwrap();
    let wrap = PadWrap::new(ctx()).unwrap();
    let constant = PadConst::new(ctx()).unwrap();
    for n in [2, 3, 7, 31] {
        let x = random_f32(n, n as u64);
        let v = [Value::from_f32s(&x)];
        assert_eq!(
            mirror.run(n, &x).unwrap(),
            f32s(&interpret(PadMirror::LIFT, "PadMirror", &[n], &v)),
            "mirror N={n}"
        );
        assert_eq!(
            wrap.run(n, &x).unwrap(),
            f32s(&interpret(PadWrap::LIFT, "PadWrap", &[n], &v)),
            "wrap N={n}"
        );
        assert_eq!(
            constant.run(n, &x).unwrap(),
            f32s(&interpret(PadConst::LIFT, "PadConst", &[n], &v)),
            "constant N={n}"
        );
    }
    let x: Vec<f32> = (1..=7).map(|v| v as f32).collect();
    assert_eq!(
        mirror.run(7, &x).unwrap(),
        vec![1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 7.0, 6.0]
    );
}

#[test]
fn slide_with_step_larger_than_one() {
    let k = SlideStep::new(ctx()).unwrap();
    for n in [1, 2, 5, 100] {
        let x = random_f32(2 * n + 1, 9);
        let got = k.run(n, &x).unwrap();
        let want = interpret(SlideStep::LIFT, "SlideStep", &[n], &[Value::from_f32s(&x)]);
        assert_eq!(got, f32s(&want), "SlideStep N={n}");
    }
}

#[test]
fn jacobi_2d() {
    let k = Jacobi2d::new(ctx()).unwrap();
    for (n, m) in [(1, 1), (3, 5), (17, 31)] {
        let a = random_f32(n * m, 11);
        let got = k.run(n, m, &a).unwrap();
        let want = interpret(Jacobi2d::LIFT, "Jacobi2d", &[n, m], &[matrix(&a, n)]);
        assert_close(&got, &f32s(&want), 1e-5, &format!("Jacobi2d {n}x{m}"));
    }
}

#[test]
fn gather_reverse_and_split_join() {
    let r = Reverse::new(ctx()).unwrap();
    let s = SplitJoin::new(ctx()).unwrap();
    for n in [1, 4, 7, 64] {
        let x = random_f32(n, 13);
        let want: Vec<f32> = x.iter().rev().copied().collect();
        assert_eq!(r.run(n, &x).unwrap(), want);
    }
    for n in [4, 8, 100] {
        let x = random_f32(n, 17);
        let want: Vec<f32> = x.iter().map(|v| v * 2.0).collect();
        assert_eq!(s.run(n, &x).unwrap(), want);
    }
}

#[test]
fn partial_dot_product_low_level() {
    let k = PartialDot::new(ctx()).unwrap();
    for n in [128, 384, 128 * 33] {
        let (x, y) = (random_f32(n, 19), random_f32(n, 23));
        let got = k.run(n, &x, &y).unwrap();
        let want = interpret(
            PartialDot::LIFT,
            "PartialDot",
            &[n],
            &[Value::from_f32s(&x), Value::from_f32s(&y)],
        );
        assert_close(&got, &f32s(&want), 1e-5, &format!("PartialDot N={n}"));
    }
}

#[test]
fn cgo17_listing1_partial_dot_product() {
    let k = Listing1::new(ctx()).unwrap();
    assert!(
        Listing1::SOURCE.contains("barrier(CLK_LOCAL_MEM_FENCE)"),
        "{}",
        Listing1::SOURCE
    );
    for n in [128, 384, 128 * 33] {
        let (x, y) = (random_f32(n, 37), random_f32(n, 41));
        let got = k.run(n, &x, &y).unwrap();
        let want = interpret(
            Listing1::LIFT,
            "Listing1",
            &[n],
            &[Value::from_f32s(&x), Value::from_f32s(&y)],
        );
        assert_close(&got, &f32s(&want), 1e-5, &format!("Listing1 N={n}"));
    }
}

#[test]
fn map_glb_with_reduce_seq() {
    let k = GlbSeq::new(ctx()).unwrap();
    for (n, m) in [(1, 1), (5, 3), (1000, 7)] {
        let a = random_f32(n * m, 29);
        let got = k.run(n, m, &a).unwrap();
        let want = interpret(GlbSeq::LIFT, "GlbSeq", &[n, m], &[matrix(&a, n)]);
        assert_close(&got, &f32s(&want), 1e-5, &format!("GlbSeq {n}x{m}"));
    }
}

#[test]
fn bad_sizes_and_lengths_are_errors() {
    use lift_runtime::Error;
    let k = PartialDot::new(ctx()).unwrap();
    let x = random_f32(100, 1);
    match k.run(100, &x, &x) {
        Err(Error::Precondition { what, actual, .. }) => {
            assert_eq!(what, "N");
            assert_eq!(actual, "100");
        }
        other => panic!("expected a precondition error, got {other:?}"),
    }
    let b = Blur3::new(ctx()).unwrap();
    match b.run(5, &x[..4]) {
        Err(Error::ArgLength {
            arg,
            expected,
            actual,
        }) => {
            assert_eq!((arg.as_str(), expected, actual), ("input", 5, 4));
        }
        other => panic!("expected a length error, got {other:?}"),
    }
    assert!(matches!(b.run(0, &[]), Err(Error::Precondition { .. })));
    let g = Gemv::new(ctx()).unwrap();
    let e = g.run(3, 4, &x[..12], &x[..5]).unwrap_err();
    assert_eq!(e.to_string(), "argument `x`: expected length 4, got 5");
}

#[test]
fn launch_reuses_device_buffers() {
    let k = Blur3::new(ctx()).unwrap();
    let x = random_f32(1000, 31);
    let input = ctx().upload(&x).unwrap();
    let out = ctx().alloc::<f32>(1000).unwrap();
    for _ in 0..3 {
        k.launch(1000, &input, &out).unwrap().wait().unwrap();
    }
    assert_eq!(out.download().unwrap(), k.run(1000, &x).unwrap());
    let short = ctx().alloc::<f32>(999).unwrap();
    assert!(k.launch(1000, &input, &short).is_err());
}
