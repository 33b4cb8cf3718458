//! Every low-level construct of the code generator, generated OpenCL (POCL in CI) against
//! the reference interpreter on random inputs of odd sizes: parallel maps in every dimension,
//! sequential and unrolled loops, address spaces, `iterate`, vectors, tuples in memory and
//! the data-layout views.

use lift_runtime::core::interp::Value;
use lift_runtime::half::f16;
use lift_runtime::{lift, Error};
use lift_tests::{assert_matches, ctx, interpret, nested, random};

lift! {
    fn sq(a: f32) -> f32 { a * a }
    fn swap(p: (f32, i32)) -> (i32, f32) { (p.1, p.0) }

    kernel Glb1<N>(x: [f32; N]) -> [f32; N] { map_glb(0, |v| v * 3.0 + 1.0) $ x }
    kernel Glb2<N, M>(a: [[f32; M]; N]) -> [[f32; M]; N] {
        map_glb(1, map_glb(0, |v| v * v - 1.0)) $ a
    }
    kernel Glb3<N, M, P>(a: [[[f32; P]; M]; N]) -> [[[f32; P]; M]; N] {
        map_glb(2, map_glb(1, map_glb(0, |v| v * 2.0 + 0.5))) $ a
    }
    kernel Wrg1<N>(x: [f32; N]) -> [f32; N] {
        join o map_wrg(0, map_lcl(0, |v| v - 1.0)) o split(16) $ x
    }
    /// 2-D work-groups: a row per group in dimension 1, 8-element chunks per group in
    /// dimension 0, one work-item per element; the result is written in its final layout.
    kernel Wrg2<N, M>(a: [[f32; M]; N]) -> [[f32; M]; N] {
        map_wrg(1, join o map_wrg(0, map_lcl(0, |v| v * v)) o split(8)) $ a
    }
    kernel Seq<N, M>(a: [[f32; M]; N]) -> [[f32; M]; N] { map_glb(0, map_seq(|v| v + 2.0)) $ a }
    kernel SeqUnroll<N>(a: [[f32; 4]; N]) -> [[f32; 4]; N] {
        map_glb(0, map_seq_unroll(|v| v * 0.5)) $ a
    }
    /// A non-associative fold: the order of `reduce_seq` matters.
    kernel RedSeq<N, M>(a: [[f32; M]; N]) -> [f32; N] {
        map_glb(0, reduce_seq(|acc, v| acc * 0.5 + v, 1.0f32)) $ a
    }
    kernel RedUnroll<N>(a: [[f32; 5]; N]) -> [f32; N] {
        map_glb(0, reduce_seq_unroll(|acc, v| acc * 0.5 + v, 0.0f32)) $ a
    }
    kernel Local<N>(x: [f32; N]) -> [f32; N] {
        join o map_wrg(0, map_lcl(0, |v| v * 2.0) o to_local(map_lcl(0, id))) o split(32) $ x
    }
    /// Each work-item reads what another one staged: needs the barrier.
    kernel LocalRev<N>(x: [f32; N]) -> [f32; N] {
        join o map_wrg(0, map_lcl(0, id) o gather(reverse) o to_local(map_lcl(0, id))) o split(32) $ x
    }
    kernel Private<N>(a: [[f32; 4]; N]) -> [[f32; 4]; N] {
        map_glb(0, map_seq(|v| v + 1.0) o to_private(map_seq(id))) $ a
    }
    kernel Global<N>(a: [[f32; 3]; N]) -> [[f32; 3]; N] {
        map_glb(0, map_seq(|v| v - 1.0) o to_global(map_seq(|v| v * v))) $ a
    }
    kernel Iter1<N>(x: [f32; N]) -> [f32; N] { iterate(1, map_glb(0, |v| v * 0.5 + 1.0)) $ x }
    kernel Iter2<N>(x: [f32; N]) -> [f32; N] { iterate(2, map_glb(0, |v| v * 0.5 + 1.0)) $ x }
    kernel Iter5<N>(x: [f32; N]) -> [f32; N] { iterate(5, map_glb(0, |v| v * 0.5 + 1.0)) $ x }
    kernel IterSeq<N>(a: [[f32; 6]; N]) -> [[f32; 6]; N] {
        map_glb(0, iterate(3, map_seq(|v| v * v - 0.5))) $ a
    }
    /// Double buffering in local memory, each step reversing the tile (odd count).
    kernel IterLocal3<N>(x: [f32; N]) -> [f32; N] {
        join o map_wrg(0, map_lcl(0, id) o iterate(3, to_local(map_lcl(0, |v| v * 0.5 + 1.0)) o gather(reverse))
            o to_local(map_lcl(0, id))) o split(16) $ x
    }
    /// The same with an even count.
    kernel IterLocal4<N>(x: [f32; N]) -> [f32; N] {
        join o map_wrg(0, map_lcl(0, id) o iterate(4, to_local(map_lcl(0, |v| v * 0.5 + 1.0)) o gather(reverse))
            o to_local(map_lcl(0, id))) o split(16) $ x
    }
    kernel Vec4<N>(x: [f32; 4 * N]) -> [f32; 4 * N] {
        as_scalar o map_glb(0, |v| v * 2.0) o as_vector(4) $ x
    }
    kernel Vectorize<N>(x: [f32; 4 * N]) -> [f32; 4 * N] {
        as_scalar o map_glb(0, vectorize(4, |v| v * v + 1.0)) o as_vector(4) $ x
    }
    /// Tuples in a global temporary, written by a lambda and by a user function.
    kernel Swap<N>(x: [f32; N], y: [i32; N]) -> [f32; N] {
        map_glb(0, |p| (p.0 as f32) * 2.0 + p.1) o map_glb(0, swap) o map_glb(0, |p| (p.1 as f32, p.0 as i32)) $ zip(y, x)
    }
    kernel At<N>(a: [[f32; 3]; N]) -> [f32; N] {
        map_glb(0, |r| r[0] * 2.0 + r[2] - (at(1) $ r)) $ a
    }
    kernel GatherStride<N>(x: [f32; 4 * N]) -> [f32; 4 * N] { map_glb(0, id) o gather(stride(4)) $ x }
    kernel GatherRev<N>(x: [f32; N]) -> [f32; N] { map_glb(0, sq) o gather(reverse) $ x }
    kernel ScatterRev<N>(x: [f32; N]) -> [f32; N] { scatter(reverse) o map_glb(0, |v| v + 1.0) $ x }
    kernel ScatterStride<N>(x: [f32; 4 * N]) -> [f32; 4 * N] {
        scatter(stride(4)) o map_glb(0, |v| v + 1.0) $ x
    }
    kernel Zip3<N>(x: [f32; N], y: [f32; N], z: [f32; N]) -> [f32; N] {
        map_glb(0, |t| t.0 * t.1 + t.2) $ zip(x, y, z)
    }
    /// The 7-point 3-D Jacobi stencil.
    kernel Jacobi3<N, M, P>(a: [[[f32; P]; M]; N]) -> [[[f32; P]; M]; N] {
        map_glb(2, map_glb(1, map_glb(0, |nb| (nb[0][1][1] + nb[2][1][1] + nb[1][0][1] + nb[1][2][1]
            + nb[1][1][0] + nb[1][1][2] + nb[1][1][1]) / 7.0))) o slide3(3, 1) o pad3(1, clamp) $ a
    }
    /// A tuple accumulator in private memory.
    kernel TupleAcc<N, M>(a: [[f32; M]; N]) -> [f32; N] {
        map_glb(0, |r| (|t| t.1 - t.0) $ (reduce_seq(|acc, v| (min(acc.0, v), max(acc.1, v)), (10.0f32, -10.0f32)) $ r)) $ a
    }
    /// Tuples staged in local memory.
    kernel LocalTuple<N>(x: [f32; N], y: [i32; N]) -> [f32; N] {
        join o map_wrg(0, map_lcl(0, |p| p.0 + (p.1 as f32)) o gather(reverse)
            o to_local(map_lcl(0, |p| (p.0 * 2.0, p.1 + 1)))) o split(8) $ zip(x, y)
    }
    kernel VecF64<N>(x: [f64; 2 * N]) -> [f64; 2 * N] { as_scalar o map_glb(0, |v| v * v) o as_vector(2) $ x }
    kernel VecI32<N>(x: [i32; 8 * N]) -> [i32; 8 * N] { as_scalar o map_glb(0, |v| v * 3 - 1) o as_vector(8) $ x }
    kernel VecHalf<N>(x: [f16; 4 * N]) -> [f16; 4 * N] { as_scalar o map_glb(0, |v| v * 2.0) o as_vector(4) $ x }
    /// Several size variables, a captured array, and a launch-time precondition `N * M % K`.
    kernel Blocks<N, M, K>(a: [[f32; M]; N], w: [f32; K]) -> [[f32; K]; N * M / K] {
        map_glb(0, |blk| map_seq(|p| p.0 * p.1) $ zip(blk, w)) o split(K) o join $ a
    }
}

/// Odd lengths: 1, primes, non-multiples of any work-group size.
const SIZES: [usize; 6] = [1, 2, 7, 31, 257, 1000];

fn f32s(n: usize, seed: u64) -> Vec<f32> {
    random(n, -1.0f32, 1.0, seed)
}

/// Runs a one-array kernel on every size `n` (input of shape `shape(n)`) against the
/// interpreter.
fn check1(
    lift: &str,
    name: &str,
    sizes: &[usize],
    shape: impl Fn(usize) -> Vec<usize>,
    run: impl Fn(usize, &[f32]) -> Result<Vec<f32>, Error>,
) {
    for (i, &n) in sizes.iter().enumerate() {
        let dims = shape(n);
        let x = f32s(dims.iter().product(), i as u64 + 100);
        let got = run(n, &x).unwrap_or_else(|e| panic!("{name} N={n}: {e}"));
        let want = interpret(lift, name, &[n], &[nested(&x, &dims)]);
        assert_matches(&got, &want, 1e-5, &format!("{name} N={n}"));
    }
}

#[test]
fn map_glb_in_each_dimension() {
    let k = Glb1::new(ctx()).unwrap();
    check1(Glb1::LIFT, "Glb1", &SIZES, |n| vec![n], |n, x| k.run(n, x));
    let k = Glb2::new(ctx()).unwrap();
    for (n, m) in [(1, 1), (1, 7), (13, 1), (31, 17), (100, 3)] {
        let a = f32s(n * m, 1);
        let want = interpret(Glb2::LIFT, "Glb2", &[n, m], &[nested(&a, &[n, m])]);
        assert_matches(
            &k.run(n, m, &a).unwrap(),
            &want,
            1e-6,
            &format!("Glb2 {n}x{m}"),
        );
    }
    let k = Glb3::new(ctx()).unwrap();
    for (n, m, p) in [(1, 1, 1), (2, 3, 5), (7, 1, 13), (11, 13, 3)] {
        let a = f32s(n * m * p, 2);
        let want = interpret(Glb3::LIFT, "Glb3", &[n, m, p], &[nested(&a, &[n, m, p])]);
        assert_matches(
            &k.run(n, m, p, &a).unwrap(),
            &want,
            1e-6,
            &format!("Glb3 {n}x{m}x{p}"),
        );
    }
}

#[test]
fn work_groups_in_one_and_two_dimensions() {
    let k = Wrg1::new(ctx()).unwrap();
    check1(
        Wrg1::LIFT,
        "Wrg1",
        &[16, 48, 16 * 37],
        |n| vec![n],
        |n, x| k.run(n, x),
    );
    assert!(matches!(
        k.run(17, &f32s(17, 0)),
        Err(Error::Precondition { .. })
    ));
    let k = Wrg2::new(ctx()).unwrap();
    for (n, m) in [(4, 8), (12, 24), (28, 40)] {
        let a = f32s(n * m, 3);
        let want = interpret(Wrg2::LIFT, "Wrg2", &[n, m], &[nested(&a, &[n, m])]);
        assert_matches(
            &k.run(n, m, &a).unwrap(),
            &want,
            1e-6,
            &format!("Wrg2 {n}x{m}"),
        );
    }
}

#[test]
fn sequential_loops_and_folds() {
    let k = Seq::new(ctx()).unwrap();
    let red = RedSeq::new(ctx()).unwrap();
    for (n, m) in [(1, 1), (3, 7), (257, 5)] {
        let a = f32s(n * m, 4);
        let v = [nested(&a, &[n, m])];
        let want = interpret(Seq::LIFT, "Seq", &[n, m], &v);
        assert_matches(
            &k.run(n, m, &a).unwrap(),
            &want,
            1e-6,
            &format!("Seq {n}x{m}"),
        );
        let want = interpret(RedSeq::LIFT, "RedSeq", &[n, m], &v);
        assert_matches(
            &red.run(n, m, &a).unwrap(),
            &want,
            1e-6,
            &format!("RedSeq {n}x{m}"),
        );
    }
    let k = SeqUnroll::new(ctx()).unwrap();
    check1(
        SeqUnroll::LIFT,
        "SeqUnroll",
        &SIZES,
        |n| vec![n, 4],
        |n, x| k.run(n, x),
    );
    let k = RedUnroll::new(ctx()).unwrap();
    check1(
        RedUnroll::LIFT,
        "RedUnroll",
        &SIZES,
        |n| vec![n, 5],
        |n, x| k.run(n, x),
    );
}

#[test]
fn local_memory_with_barriers() {
    let k = Local::new(ctx()).unwrap();
    assert!(Local::SOURCE.contains("local float"), "{}", Local::SOURCE);
    check1(
        Local::LIFT,
        "Local",
        &[32, 96, 32 * 41],
        |n| vec![n],
        |n, x| k.run(n, x),
    );
    let k = LocalRev::new(ctx()).unwrap();
    assert!(
        LocalRev::SOURCE.contains("barrier(CLK_LOCAL_MEM_FENCE)"),
        "{}",
        LocalRev::SOURCE
    );
    check1(
        LocalRev::LIFT,
        "LocalRev",
        &[32, 32 * 41],
        |n| vec![n],
        |n, x| k.run(n, x),
    );
}

#[test]
fn private_and_global_staging() {
    let k = Private::new(ctx()).unwrap();
    check1(
        Private::LIFT,
        "Private",
        &SIZES,
        |n| vec![n, 4],
        |n, x| k.run(n, x),
    );
    let k = Global::new(ctx()).unwrap();
    check1(
        Global::LIFT,
        "Global",
        &SIZES,
        |n| vec![n, 3],
        |n, x| k.run(n, x),
    );
}

#[test]
fn iterate_with_odd_and_even_counts() {
    let k1 = Iter1::new(ctx()).unwrap();
    check1(
        Iter1::LIFT,
        "Iter1",
        &SIZES,
        |n| vec![n],
        |n, x| k1.run(n, x),
    );
    let k2 = Iter2::new(ctx()).unwrap();
    check1(
        Iter2::LIFT,
        "Iter2",
        &SIZES,
        |n| vec![n],
        |n, x| k2.run(n, x),
    );
    let k5 = Iter5::new(ctx()).unwrap();
    check1(
        Iter5::LIFT,
        "Iter5",
        &SIZES,
        |n| vec![n],
        |n, x| k5.run(n, x),
    );
    let x = [0.0f32, 4.0];
    assert_eq!(k5.run(2, &x).unwrap(), vec![1.9375, 2.0625]);
    let k = IterSeq::new(ctx()).unwrap();
    check1(
        IterSeq::LIFT,
        "IterSeq",
        &SIZES,
        |n| vec![n, 6],
        |n, x| k.run(n, x),
    );
    let k = IterLocal3::new(ctx()).unwrap();
    check1(
        IterLocal3::LIFT,
        "IterLocal3",
        &[16, 16 * 37],
        |n| vec![n],
        |n, x| k.run(n, x),
    );
    let k = IterLocal4::new(ctx()).unwrap();
    check1(
        IterLocal4::LIFT,
        "IterLocal4",
        &[16, 16 * 37],
        |n| vec![n],
        |n, x| k.run(n, x),
    );
}

#[test]
fn vectors_loaded_and_stored() {
    let k = Vec4::new(ctx()).unwrap();
    assert!(
        Vec4::SOURCE.contains("((const global float4*)x)["),
        "vector loads: {}",
        Vec4::SOURCE
    );
    check1(
        Vec4::LIFT,
        "Vec4",
        &SIZES,
        |n| vec![4 * n],
        |n, x| k.run(n, x),
    );
    let k = Vectorize::new(ctx()).unwrap();
    check1(
        Vectorize::LIFT,
        "Vectorize",
        &SIZES,
        |n| vec![4 * n],
        |n, x| k.run(n, x),
    );
}

#[test]
fn tuples_in_memory() {
    let k = Swap::new(ctx()).unwrap();
    for n in SIZES {
        let x = f32s(n, 5);
        let y = random(n, -50i32, 50, 6);
        let want = interpret(
            Swap::LIFT,
            "Swap",
            &[n],
            &[Value::from_f32s(&x), Value::from_scalars(&y)],
        );
        assert_matches(
            &k.run(n, &x, &y).unwrap(),
            &want,
            1e-6,
            &format!("Swap N={n}"),
        );
    }
}

#[test]
fn element_access_and_index_permutations() {
    let k = At::new(ctx()).unwrap();
    check1(At::LIFT, "At", &SIZES, |n| vec![n, 3], |n, x| k.run(n, x));
    let k = GatherRev::new(ctx()).unwrap();
    check1(
        GatherRev::LIFT,
        "GatherRev",
        &SIZES,
        |n| vec![n],
        |n, x| k.run(n, x),
    );
    let k = GatherStride::new(ctx()).unwrap();
    check1(
        GatherStride::LIFT,
        "GatherStride",
        &SIZES,
        |n| vec![4 * n],
        |n, x| k.run(n, x),
    );
    let k = ScatterRev::new(ctx()).unwrap();
    check1(
        ScatterRev::LIFT,
        "ScatterRev",
        &SIZES,
        |n| vec![n],
        |n, x| k.run(n, x),
    );
    let k = ScatterStride::new(ctx()).unwrap();
    check1(
        ScatterStride::LIFT,
        "ScatterStride",
        &SIZES,
        |n| vec![4 * n],
        |n, x| k.run(n, x),
    );
    let x: Vec<f32> = (0..8).map(|v| v as f32).collect();
    assert_eq!(
        GatherStride::new(ctx()).unwrap().run(2, &x).unwrap(),
        vec![0.0, 4.0, 1.0, 5.0, 2.0, 6.0, 3.0, 7.0]
    );
    assert_eq!(
        k.run(2, &x).unwrap(),
        vec![1.0, 3.0, 5.0, 7.0, 2.0, 4.0, 6.0, 8.0]
    );
}

#[test]
fn zip_of_three() {
    let k = Zip3::new(ctx()).unwrap();
    for n in SIZES {
        let (x, y, z) = (f32s(n, 7), f32s(n, 8), f32s(n, 9));
        let v = [x.as_slice(), &y, &z].map(Value::from_f32s);
        let want = interpret(Zip3::LIFT, "Zip3", &[n], &v);
        assert_matches(
            &k.run(n, &x, &y, &z).unwrap(),
            &want,
            1e-6,
            &format!("Zip3 N={n}"),
        );
    }
}

#[test]
fn jacobi_3d_seven_points() {
    let k = Jacobi3::new(ctx()).unwrap();
    for (n, m, p) in [(1, 1, 1), (2, 3, 5), (7, 11, 13), (17, 1, 4)] {
        let a = f32s(n * m * p, 10);
        let want = interpret(
            Jacobi3::LIFT,
            "Jacobi3",
            &[n, m, p],
            &[nested(&a, &[n, m, p])],
        );
        assert_matches(
            &k.run(n, m, p, &a).unwrap(),
            &want,
            1e-5,
            &format!("Jacobi3 {n}x{m}x{p}"),
        );
    }
}

#[test]
fn several_sizes_and_a_failing_precondition() {
    let k = Blocks::new(ctx()).unwrap();
    for (n, m, kk) in [(1, 1, 1), (3, 5, 5), (7, 6, 14), (13, 4, 4)] {
        let (a, w) = (f32s(n * m, 11), f32s(kk, 12));
        let want = interpret(
            Blocks::LIFT,
            "Blocks",
            &[n, m, kk],
            &[nested(&a, &[n, m]), Value::from_f32s(&w)],
        );
        let got = k.run(n, m, kk, &a, &w).unwrap();
        assert_matches(&got, &want, 1e-6, &format!("Blocks {n}x{m}/{kk}"));
    }
    let (a, w) = (f32s(15, 0), f32s(4, 0));
    match k.run(3, 5, 4, &a, &w) {
        Err(Error::Precondition { what, actual, .. }) => {
            assert_eq!((what.as_str(), actual.as_str()), ("M * N", "15"));
        }
        other => panic!("expected a precondition error, got {other:?}"),
    }
}

#[test]
fn tuples_in_private_and_local_memory() {
    let k = TupleAcc::new(ctx()).unwrap();
    for (n, m) in [(1, 1), (7, 3), (257, 13)] {
        let a = f32s(n * m, 39);
        let want = interpret(TupleAcc::LIFT, "TupleAcc", &[n, m], &[nested(&a, &[n, m])]);
        assert_matches(
            &k.run(n, m, &a).unwrap(),
            &want,
            0.0,
            &format!("TupleAcc {n}x{m}"),
        );
    }
    let k = LocalTuple::new(ctx()).unwrap();
    for n in [8, 8 * 13] {
        let (x, y) = (f32s(n, 40), random(n, -9i32, 9, 41));
        let v = [Value::from_f32s(&x), Value::from_scalars(&y)];
        let want = interpret(LocalTuple::LIFT, "LocalTuple", &[n], &v);
        assert_matches(
            &k.run(n, &x, &y).unwrap(),
            &want,
            1e-6,
            &format!("LocalTuple N={n}"),
        );
    }
}

#[test]
fn vectors_of_other_scalars() {
    let k = VecF64::new(ctx()).unwrap();
    for n in SIZES {
        let x = random(2 * n, -1.0f64, 1.0, 42);
        let want = interpret(VecF64::LIFT, "VecF64", &[n], &[Value::from_scalars(&x)]);
        assert_matches(&k.run(n, &x).unwrap(), &want, 0.0, &format!("VecF64 N={n}"));
    }
    let k = VecI32::new(ctx()).unwrap();
    for n in SIZES {
        let x = random(8 * n, -1000i32, 1000, 43);
        let want = interpret(VecI32::LIFT, "VecI32", &[n], &[Value::from_scalars(&x)]);
        assert_matches(&k.run(n, &x).unwrap(), &want, 0.0, &format!("VecI32 N={n}"));
    }
    let k = VecHalf::new(ctx()).unwrap();
    for n in SIZES {
        let x: Vec<f16> = f32s(4 * n, 44).into_iter().map(f16::from_f32).collect();
        let want = interpret(VecHalf::LIFT, "VecHalf", &[n], &[Value::from_scalars(&x)]);
        assert_matches(
            &k.run(n, &x).unwrap(),
            &want,
            0.0,
            &format!("VecHalf N={n}"),
        );
    }
}
