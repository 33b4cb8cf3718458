//! The typed host path of kernels split over several devices (`Name::new_on(..).run`,
//! [`SplitKernel::run_typed`]): the user's slices go to the devices as sub-slices of rows and
//! the result rows come back into one typed vector, no interpreter value per scalar. Three
//! (two, four) contexts on the default device stand in for GPUs. Against the one-device
//! launcher, bit for bit: stencils (1-D and 2-D, clamped and constant pads), an integer
//! matrix-vector product, saxpy with its scalar, an integer sum; a float product and a float
//! sum equal the value path on the same devices bit for bit (the same slabs) and one device
//! within the reduction tolerance. Sizes that do not divide, slabs of one row, more devices
//! than rows.

use lift_runtime::core::interp::Value;
use lift_runtime::{lift, Context, Devices, Error, HostArg, Placement, SplitKernel};
use lift_tests::{assert_close, ctx, f32s, matrix, random_f32, random_i32};

lift! {
    /// A clamped 1-D blur.
    kernel Blur<N>(x: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x }
    /// A second difference with zeros past the edges.
    kernel Diff<N>(x: [f32; N]) -> [f32; N] { map(|w| w[0] - 2.0 * w[1] + w[2]) o slide(3, 1) o pad(1, 1, constant(0.0)) $ x }
    /// A clamped 2-D Jacobi step.
    kernel Jacobi<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|w| 0.2 * (w[0][1] + w[1][0] + w[1][1] + w[1][2] + w[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x }
    /// A 2-D stencil reading its corners, 1.5 past the edges.
    kernel Corners<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|w| w[0][0] - w[2][2] + 0.5 * w[1][1] + w[0][2]) o slide2(3, 1) o pad2(1, constant(1.5)) $ x }
    /// saxpy: a scalar parameter and two arrays.
    kernel Saxpy<N>(a: f32, x: [f32; N], y: [f32; N]) -> [f32; N] { map(|(p, q)| a * p + q) $ zip(x, y) }
    /// An integer matrix-vector product (exact in any order).
    kernel Gemv<N, M>(a: [[i32; M]; N], x: [i32; M]) -> [i32; N] { map(|row| reduce(+, 0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a }
    /// A float matrix product.
    kernel Gemm<N, M, P>(a: [[f32; P]; N], b: [[f32; M]; P]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) $ (transpose $ b)) $ a }
    /// An integer sum (exact in any order).
    kernel Total<N>(x: [i32; N]) -> i32 { reduce(+, 0) $ x }
    /// A float sum.
    kernel Sum<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ x }
}

/// `n` contexts on the default device.
fn devices(n: usize) -> Devices {
    let contexts = (0..n)
        .map(|_| Context::new().expect("the default device"))
        .collect();
    Devices::from_contexts(contexts).expect("a set")
}

/// The number of slabs of a placement (1 where it is not split).
fn slabs(p: Placement) -> usize {
    match p {
        Placement::Split(s) => s.len(),
        Placement::One(_) => 1,
    }
}

#[test]
fn typed_stencils_equal_one_device_bit_for_bit() {
    for n in [2, 3, 4] {
        let set = devices(n);
        let (blur, diff) = (
            Blur::new_on(&set).expect("blur"),
            Diff::new_on(&set).expect("diff"),
        );
        let (jacobi, corners) = (
            Jacobi::new_on(&set).expect("Jacobi"),
            Corners::new_on(&set).expect("corners"),
        );
        for rows in [1, 2, 3, 7, 1001] {
            let x = random_f32(rows, rows as u64);
            let one = Blur::new(ctx()).and_then(|k| k.run(rows, &x));
            assert_eq!(
                blur.run(rows, &x).expect("blur"),
                one.expect("one"),
                "blur {rows} on {n}"
            );
            let one = Diff::new(ctx()).and_then(|k| k.run(rows, &x));
            assert_eq!(
                diff.run(rows, &x).expect("diff"),
                one.expect("one"),
                "diff {rows} on {n}"
            );
            // Fewer rows than devices: one slab per row, on fewer devices.
            assert_eq!(slabs(blur.placement(rows).expect("placement")), n.min(rows));
            for m in [1, 5] {
                let y = random_f32(rows * m, 7 + m as u64);
                let one = Jacobi::new(ctx()).and_then(|k| k.run(rows, m, &y));
                let got = jacobi.run(rows, m, &y).expect("Jacobi");
                assert_eq!(got, one.expect("one"), "Jacobi {rows} x {m} on {n}");
                let one = Corners::new(ctx()).and_then(|k| k.run(rows, m, &y));
                let got = corners.run(rows, m, &y).expect("corners");
                assert_eq!(got, one.expect("one"), "corners {rows} x {m} on {n}");
            }
        }
    }
}

#[test]
fn typed_maps_products_and_sums_equal_one_device() {
    let set = devices(3);
    let (saxpy, gemv, total) = (
        Saxpy::new_on(&set).expect("saxpy"),
        Gemv::new_on(&set).expect("GEMV"),
        Total::new_on(&set).expect("total"),
    );
    for rows in [1, 2, 3, 4, 1000, 4097] {
        let (x, y) = (random_f32(rows, 1), random_f32(rows, 2));
        let one = Saxpy::new(ctx()).and_then(|k| k.run(rows, -1.25, &x, &y));
        let got = saxpy.run(rows, -1.25, &x, &y).expect("saxpy");
        assert_eq!(got, one.expect("one"), "saxpy of {rows}");
        let m = 6;
        let (a, v) = (random_i32(rows * m, 3), random_i32(m, 4));
        let one = Gemv::new(ctx()).and_then(|k| k.run(rows, m, &a, &v));
        assert_eq!(
            gemv.run(rows, m, &a, &v).expect("GEMV"),
            one.expect("one"),
            "GEMV {rows}"
        );
        let z = random_i32(rows, 5);
        let one = Total::new(ctx()).and_then(|k| k.run(rows, &z));
        assert_eq!(
            total.run(rows, &z).expect("total"),
            one.expect("one"),
            "total {rows}"
        );
        assert_eq!(
            slabs(total.placement(rows).expect("placement")),
            rows.min(3)
        );
    }
}

/// Where slabs fold in another order than one device: the typed path equals the value path
/// on the same devices bit for bit, and one device within the tolerance.
#[test]
fn typed_float_products_and_sums_equal_the_value_path() {
    let set = devices(3);
    let (n, m, p) = (11, 5, 7);
    let (a, b) = (random_f32(n * p, 6), random_f32(p * m, 7));
    let got = Gemm::new_on(&set)
        .and_then(|k| k.run(n, m, p, &a, &b))
        .expect("GEMM");
    let split = SplitKernel::new(&set, Gemm::LIFT, "Gemm").expect("a split kernel");
    let values = split
        .run(&[n, m, p], &[matrix(&a, n), matrix(&b, p)])
        .expect("the value path");
    assert_eq!(got, f32s(&values));
    let one = Gemm::new(ctx()).and_then(|k| k.run(n, m, p, &a, &b));
    assert_close(&got, &one.expect("one"), 1e-5, "GEMM");
    for len in [1, 2, 1000, 4099] {
        let x = random_f32(len, 8);
        let got = Sum::new_on(&set).and_then(|k| k.run(len, &x)).expect("sum");
        let split = SplitKernel::new(&set, Sum::LIFT, "Sum").expect("a split kernel");
        let value = split
            .run(&[len], &[Value::from_f32s(&x)])
            .expect("value path");
        assert_eq!(Value::Scalar(got.into()), value, "sum of {len}");
        let typed: Vec<f32> = split
            .run_typed(&[len], &[HostArg::array(&x)])
            .expect("run_typed");
        assert_eq!(typed, vec![got]);
        let one = Sum::new(ctx()).and_then(|k| k.run(len, &x));
        assert_close(&[got], &[one.expect("one")], 1e-4, "sum");
    }
}

/// Arguments of the wrong length or type are errors naming them, before any launch.
#[test]
fn typed_arguments_are_checked() {
    let set = devices(3);
    let wrong = Blur::new_on(&set).and_then(|k| k.run(4, &[1.0; 3]));
    assert!(
        matches!(&wrong, Err(Error::ArgLength { arg, expected: 4, actual: 3 }) if arg == "x"),
        "{wrong:?}"
    );
    let split = SplitKernel::new(&set, Saxpy::LIFT, "Saxpy").expect("a split kernel");
    let x = [1.0f32; 5];
    let ints = [1i32; 5];
    let bad: [&[HostArg<'_>]; 3] = [
        &[HostArg::array(&x), HostArg::array(&x)],
        &[
            HostArg::scalar(1.0f32),
            HostArg::array(&ints),
            HostArg::array(&x),
        ],
        &[
            HostArg::scalar(1i32),
            HostArg::array(&x),
            HostArg::array(&x),
        ],
    ];
    for args in bad {
        let r = split.run_typed::<f32>(&[5], args);
        assert!(r.is_err(), "{args:?}");
    }
    let r = split.run_typed::<i32>(
        &[5],
        &[
            HostArg::scalar(1.0f32),
            HostArg::array(&x),
            HostArg::array(&x),
        ],
    );
    assert!(r.is_err(), "a float result read as integers");
}

/// Iterated stencils on typed host data (`SplitKernel::iterate_typed`, the data resident on
/// the devices) equal as many one-device launches bit for bit, and the value path.
#[test]
fn typed_iterations_equal_one_device() {
    for (rows, m, n) in [(9, 5, 3), (17, 32, 2), (2, 5, 3)] {
        let x = random_f32(rows * m, 31);
        let one = Jacobi::new(ctx()).expect("one device");
        let mut want = x.clone();
        for _ in 0..20 {
            want = one.run(rows, m, &want).expect("a step");
        }
        let split = SplitKernel::new(&devices(n), Jacobi::LIFT, "Jacobi").expect("split");
        let got: Vec<f32> = split
            .iterate_typed(&[rows, m], &[HostArg::array(&x)], 0, 20)
            .expect("20 steps");
        assert_eq!(got, want, "Jacobi {rows} x {m} on {n}");
        let value = split
            .iterate(&[rows, m], &[matrix(&x, rows)], 0, 20)
            .expect("the value path");
        assert_eq!(f32s(&value), want);
        let none: Vec<f32> = split
            .iterate_typed(&[rows, m], &[HostArg::array(&x)], 0, 0)
            .expect("no step");
        assert_eq!(none, x);
    }
    // Not split (a transpose): the launches run on one device.
    let t =
        "kernel K<N>(x: [[f32; N]; N]) -> [[f32; N]; N] { map(map(|v| v * 0.5)) o transpose $ x }";
    let split = SplitKernel::new(&devices(2), t, "K").expect("split");
    let x = random_f32(16, 32);
    let got: Vec<f32> = split
        .iterate_typed(&[4], &[HostArg::array(&x)], 0, 3)
        .expect("3 steps");
    let want = split
        .iterate(&[4], &[matrix(&x, 4)], 0, 3)
        .expect("the value path");
    assert_eq!(got, f32s(&want));
}
