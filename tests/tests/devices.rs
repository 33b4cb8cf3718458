//! One kernel over several devices ([`SplitKernel`]): three contexts on the default device
//! stand in for three GPUs. Every split program returns what one device returns: bit for
//! bit for maps and stencils (slabs of one row, more devices than rows, sizes that do not
//! divide), within the reduction tolerance where slabs fold in another order; programs of the
//! random-program generator likewise; a program that cannot be split runs on one device and
//! says why.

use lift_runtime::core::interp::Value;
use lift_runtime::core::partition::Input;
use lift_runtime::{lift, Context, Devices, DynKernel, Error, HostArg, Placement, SplitKernel};
use lift_tests::diff::{agree, case, inputs};
use lift_tests::{ctx, matrix, random_f32};

lift! {
    /// The README's blur.
    kernel Blur<N>(x: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x }
    /// saxpy, its scalar named as the partition's rules name nothing.
    kernel Saxpy<N>(a: f32, x: [f32; N], y: [f32; N]) -> [f32; N] { map(|(p, q)| a * p + q) $ zip(x, y) }
    /// A full reduction of integers (exact in any order).
    kernel Total<N, M>(x: [[i32; M]; N]) -> i32 { reduce(+, 0) o map(reduce(+, 0)) $ x }
}

/// The generated `new_on`: the same arguments and results as `new`, on three devices.
#[test]
fn generated_kernels_run_on_a_set() {
    let set = devices(3);
    for n in [1, 2, 5, 1000, 4097] {
        let x = random_f32(n, 11);
        let y = random_f32(n, 12);
        let one = Blur::new(ctx())
            .and_then(|k| k.run(n, &x))
            .expect("one device");
        let on = Blur::new_on(&set).expect("a set");
        assert_eq!(on.run(n, &x).expect("three devices"), one, "blur of {n}");
        assert!(matches!(on.placement(n), Ok(Placement::Split(s)) if s.len() == n.min(3)));
        let one = Saxpy::new(ctx())
            .and_then(|k| k.run(n, 2.5, &x, &y))
            .expect("one device");
        let three = Saxpy::new_on(&set).and_then(|k| k.run(n, 2.5, &x, &y));
        assert_eq!(three.expect("three devices"), one, "saxpy of {n}");
        let z: Vec<i32> = (0..n * 3).map(|i| (i as i32 % 17) - 8).collect();
        let total = Total::new_on(&set).and_then(|k| k.run(n, 3, &z));
        assert_eq!(
            total.expect("three devices"),
            z.iter().sum::<i32>(),
            "total of {n} x 3"
        );
    }
    let wrong = Blur::new_on(&set).and_then(|k| k.run(4, &[1.0; 3]));
    assert!(wrong.is_err(), "a slice of the wrong length is an error");
}

/// `n` contexts on the default device.
fn devices(n: usize) -> Devices {
    let contexts = (0..n)
        .map(|_| Context::new().expect("the default device"))
        .collect();
    Devices::from_contexts(contexts).expect("a set")
}

/// Kernel `K` of `src` at `sizes` on `args`: on one device, and split over `n`.
fn both(src: &str, sizes: &[usize], args: &[Value], n: usize) -> (Value, Value, Placement) {
    let one = DynKernel::compile_for(ctx(), src, "K", sizes)
        .and_then(|k| k.run(sizes, args))
        .unwrap_or_else(|e| panic!("one device: {e}\n{src}"));
    let split = SplitKernel::new(&devices(n), src, "K").expect("a split kernel");
    let v = split
        .run(sizes, args)
        .unwrap_or_else(|e| panic!("{n} devices: {e}\n{src}"));
    (one, v, split.placement(sizes).expect("a placement"))
}

const BLUR: &str = "kernel K<N>(x: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x }";
const JACOBI: &str = "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|w| 0.2 * (w[0][1] + w[1][0] + w[1][1] + w[1][2] + w[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x }";

#[test]
fn stencils_split_bit_for_bit() {
    for n in [2, 3] {
        for rows in [1, 2, 3, 7, 33] {
            let x = random_f32(rows, rows as u64);
            let (one, split, placement) = both(BLUR, &[rows], &[Value::from_f32s(&x)], n);
            assert_eq!(one, split, "blur of {rows} on {n}");
            let Placement::Split(slabs) = placement else {
                panic!("the blur is split: {placement}");
            };
            assert_eq!(slabs.len(), n.min(rows));
            let m = 5;
            let y = random_f32(rows * m, 7);
            let (one, split, _) = both(JACOBI, &[rows, m], &[matrix(&y, rows)], n);
            assert_eq!(one, split, "Jacobi of {rows} x {m} on {n}");
        }
    }
}

/// Rows in proportion to the devices' weights; weights that are not one positive number per
/// device are an error.
#[test]
fn weights_size_the_slabs() {
    let x = Value::from_f32s(&random_f32(12, 2));
    let k = SplitKernel::new(&devices(2), BLUR, "K").expect("a split kernel");
    let k = k.with_weights(&[3.0, 1.0]).expect("weights");
    let Placement::Split(slabs) = k.placement(&[12]).expect("a placement") else {
        panic!("split");
    };
    assert_eq!(
        slabs.iter().map(|s| s.1.clone()).collect::<Vec<_>>(),
        vec![0..9, 9..12]
    );
    let (one, _, _) = both(BLUR, &[12], std::slice::from_ref(&x), 1);
    assert_eq!(k.run(&[12], &[x]).expect("a run"), one);
    for bad in [&[1.0][..], &[1.0, 0.0], &[1.0, f64::NAN]] {
        let k = SplitKernel::new(&devices(2), BLUR, "K").expect("a split kernel");
        assert!(k.with_weights(bad).is_err(), "{bad:?}");
    }
}

/// Weights measured from the devices: one per device, positive, summing to 1, near-equal for
/// contexts on one device (within a factor of two of an equal share: the timing shares the
/// CPU); a Jacobi split with them equals one device bit for bit. A kernel that is not split
/// is timed whole; arguments of the wrong length are an error naming the argument.
#[test]
fn measured_weights_follow_the_devices_speed() {
    let (rows, m) = (192, 128);
    let y = random_f32(rows * m, 9);
    let (one, _, _) = both(JACOBI, &[rows, m], &[matrix(&y, rows)], 1);
    for n in [2, 3] {
        let k = SplitKernel::new(&devices(n), JACOBI, "K").expect("a split kernel");
        let w = k
            .measure_weights(&[rows, m], &[HostArg::array(&y)])
            .expect("measured weights");
        assert_eq!(w.len(), n, "{w:?}");
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{w:?}");
        let share = 1.0 / n as f64;
        assert!(
            w.iter().all(|&x| x > share / 2.0 && x < share * 2.0),
            "equal devices, weights {w:?}"
        );
        let k = k
            .with_measured_weights(&[rows, m], &[HostArg::array(&y)])
            .expect("measured weights");
        let Placement::Split(slabs) = k.placement(&[rows, m]).expect("a placement") else {
            panic!("the Jacobi is split");
        };
        assert_eq!(slabs.len(), n);
        let got = k.run_typed::<f32>(&[rows, m], &[HostArg::array(&y)]);
        assert_eq!(matrix(&got.expect("a run"), rows), one, "Jacobi on {n}");
    }
    // The generated `NameOn` measures its weights too.
    let x = random_f32(4097, 3);
    let one = Blur::new(ctx())
        .and_then(|k| k.run(4097, &x))
        .expect("one device");
    let blur = Blur::new_on(&devices(3)).and_then(|k| k.with_measured_weights(4097, &x));
    let blur = blur.expect("measured weights");
    assert_eq!(blur.run(4097, &x).expect("three devices"), one);
    assert!(matches!(blur.placement(4097), Ok(Placement::Split(s)) if s.len() == 3));
    assert!(Blur::new_on(&devices(3))
        .and_then(|k| k.with_weights(&[1.0, 2.0]))
        .is_err());
    let flip = "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] { map(map(|v| v * 2.0)) o transpose $ x }";
    let k = SplitKernel::new(&devices(2), flip, "K").expect("a split kernel");
    let w = k.measure_weights(&[4, 3], &[HostArg::array(&y[..12])]);
    assert!(
        matches!(&w, Ok(w) if w.len() == 2 && w.iter().all(|&x| x > 0.0)),
        "{w:?}"
    );
    let short = k.measure_weights(&[4, 3], &[HostArg::array(&y[..11])]);
    assert!(
        matches!(&short, Err(Error::ArgLength { arg, expected: 12, actual: 11 }) if arg == "x"),
        "{short:?}"
    );
}

#[test]
fn halos_are_one_row_each_side() {
    let x = Value::from_f32s(&random_f32(10, 1));
    let (_, _, placement) = both(BLUR, &[10], &[x], 2);
    assert_eq!(
        placement,
        Placement::Split(vec![
            (0, 0..5, vec![Input::Rows(0..6)]),
            (1, 5..10, vec![Input::Rows(4..10)])
        ])
    );
}

#[test]
fn products_and_reductions_split() {
    let gemv = "kernel K<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] { map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a }";
    let (n, m) = (13, 7);
    let args = [
        matrix(&random_f32(n * m, 2), n),
        Value::from_f32s(&random_f32(m, 3)),
    ];
    let (one, split, placement) = both(gemv, &[n, m], &args, 3);
    agree(&split, &one).unwrap_or_else(|e| panic!("GEMV: {e}"));
    assert!(
        matches!(&placement, Placement::Split(s) if s.iter().all(|(_, _, i)| i[1] == Input::Whole)),
        "{placement}"
    );
    let gemm = "kernel K<N, M, P>(a: [[f32; P]; N], b: [[f32; M]; P]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) $ (transpose $ b)) $ a }";
    let (n, m, p) = (9, 5, 4);
    let args = [
        matrix(&random_f32(n * p, 4), n),
        matrix(&random_f32(p * m, 5), p),
    ];
    let (one, split, _) = both(gemm, &[n, m, p], &args, 2);
    agree(&split, &one).unwrap_or_else(|e| panic!("GEMM: {e}"));
    let dot = "kernel K<N>(x: [f32; N], y: [f32; N]) -> f32 { reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(x, y) }";
    for len in [1, 2, 1000, 4099] {
        let args = [
            Value::from_f32s(&random_f32(len, 6)),
            Value::from_f32s(&random_f32(len, 8)),
        ];
        let (one, split, placement) = both(dot, &[len], &args, 3);
        agree(&split, &one).unwrap_or_else(|e| panic!("dot of {len}: {e}"));
        assert!(matches!(placement, Placement::Split(_)), "{placement}");
    }
}

#[test]
fn what_cannot_be_split_runs_on_one_device_and_says_why() {
    let t = "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] { map(map(|v| v * 2.0)) o transpose $ x }";
    let x = matrix(&random_f32(12, 9), 4);
    let (one, split, placement) = both(t, &[4, 3], &[x], 2);
    assert_eq!(one, split);
    assert!(matches!(&placement, Placement::One(_)), "{placement}");
    assert!(placement.to_string().contains("transpose"), "{placement}");
}

/// Programs of the random-program generator: every one that compiles for one device agrees
/// with it split over three (a program the partition cannot split runs on one; the rest
/// must be split often enough for the test to mean something).
#[test]
fn random_programs_agree_with_one_device() {
    let (mut split, mut total) = (0, 0);
    for seed in 0..120 {
        let c = case(seed, None);
        let Ok(one_k) = DynKernel::compile_for(ctx(), &c.text, "K", &c.sizes) else {
            continue;
        };
        let args = inputs(
            &{
                let mut p = lift_runtime::core::parse::parse_program_str(&c.text).expect("parses");
                lift_runtime::core::typeck::check_program(&mut p).expect("checks");
                p
            },
            &c.sizes,
            c.seed,
        )
        .expect("inputs");
        let Ok(one) = one_k.run(&c.sizes, &args) else {
            continue;
        };
        let k = SplitKernel::new(&devices(3), &c.text, "K").expect("a split kernel");
        let v = k
            .run(&c.sizes, &args)
            .unwrap_or_else(|e| panic!("seed {seed} ({}): {e}\n{}", c.family, c.text));
        agree(&v, &one).unwrap_or_else(|e| panic!("seed {seed} ({}): {e}\n{}", c.family, c.text));
        total += 1;
        let placement = k.placement(&c.sizes).expect("a placement");
        if matches!(placement, Placement::Split(_)) {
            split += 1;
        }
    }
    eprintln!("{split} of {total} random programs split");
    assert!(split * 3 >= total, "only {split} of {total} programs split");
}

/// Iterated stencils with their data on the devices: 100 steps on 2 and 3 devices equal 100
/// steps on one, bit for bit; rows of 32 floats (written in place where the device allows
/// the offset) and of 5 (copied).
#[test]
fn iterated_stencils_keep_their_data_on_the_devices() {
    for (rows, m) in [(17, 32), (9, 5), (2, 5)] {
        let x = matrix(&random_f32(rows * m, 21), rows);
        let one = DynKernel::compile_for(ctx(), JACOBI, "K", &[rows, m]).expect("one device");
        let mut want = x.clone();
        for _ in 0..100 {
            want = one.run(&[rows, m], &[want]).expect("a step");
        }
        for n in [2, 3] {
            let split = SplitKernel::new(&devices(n), JACOBI, "K").expect("a split kernel");
            let got = split
                .iterate(&[rows, m], std::slice::from_ref(&x), 0, 100)
                .expect("100 steps");
            assert_eq!(got, want, "Jacobi {rows} x {m} on {n} devices");
            assert_eq!(
                split
                    .iterate(&[rows, m], std::slice::from_ref(&x), 0, 1)
                    .expect("a step"),
                one.run(&[rows, m], std::slice::from_ref(&x))
                    .expect("a step")
            );
        }
    }
    let x = Value::from_f32s(&random_f32(7, 22));
    let one = DynKernel::compile_for(ctx(), BLUR, "K", &[7]).expect("one device");
    let mut want = x.clone();
    for _ in 0..25 {
        want = one.run(&[7], &[want]).expect("a step");
    }
    let split = SplitKernel::new(&devices(3), BLUR, "K").expect("a split kernel");
    assert_eq!(
        split
            .iterate(&[7], std::slice::from_ref(&x), 0, 25)
            .expect("25 steps"),
        want
    );
    // A halo of two rows over slabs of one row: each device reads the rows of two others.
    let wide = "kernel K<N>(x: [f32; N]) -> [f32; N] { map(|w| w[0] - w[1] + w[2] * 0.5 - w[3] + w[4]) o slide(5, 1) o pad(2, 2, mirror) $ x }";
    let y = Value::from_f32s(&random_f32(5, 23));
    let one = DynKernel::compile_for(ctx(), wide, "K", &[5]).expect("one device");
    let mut want = y.clone();
    for _ in 0..9 {
        want = one.run(&[5], &[want]).expect("a step");
    }
    let four = SplitKernel::new(&devices(4), wide, "K").expect("a split kernel");
    let got = four.iterate(&[5], std::slice::from_ref(&y), 0, 9);
    assert_eq!(got.expect("9 steps"), want);
    let placement = four.placement(&[5]).expect("a placement");
    assert!(
        matches!(&placement, Placement::Split(s) if s.len() == 4),
        "{placement}"
    );
    assert_eq!(
        split
            .iterate(&[7], std::slice::from_ref(&x), 0, 0)
            .expect("no step"),
        x
    );
}

/// Ranged reads and writes, copies on the device and sub-buffers that share memory.
#[test]
fn buffer_ranges_and_sub_buffers() {
    let data: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let mut b = ctx().upload(&data).expect("a buffer");
    let mut part = [0.0f32; 4];
    b.read_range(10, &mut part).expect("a read");
    assert_eq!(part, [10.0, 11.0, 12.0, 13.0]);
    b.write_range(60, &[-1.0; 4]).expect("a write");
    assert!(b.write_range(62, &[0.0; 4]).is_err(), "past the end");
    let c = ctx().upload(&[7.0f32; 8]).expect("another buffer");
    b.copy_range_from(0, &c, 2, 3).expect("a copy");
    let got = b.download().expect("a download");
    assert_eq!(&got[..4], &[7.0, 7.0, 7.0, 3.0]);
    assert_eq!(&got[60..], &[-1.0; 4]);
    // 1024 floats: 4 KiB, an offset every device allows.
    let big = ctx().upload(&vec![0.0f32; 2048]).expect("a buffer");
    let mut s = big.sub(1024, 16).expect("a sub-buffer");
    s.write_range(0, &[5.0; 16])
        .expect("a write through the sub-buffer");
    assert_eq!(&big.download().expect("a download")[1024..1040], &[5.0; 16]);
    let other = Context::new().expect("another context");
    let d = other
        .upload(&[1.0f32; 8])
        .expect("a buffer of another context");
    assert!(
        b.copy_range_from(0, &d, 0, 2).is_err(),
        "a copy between contexts"
    );
}

/// Launches repeated on data kept on the devices give what one launch gives.
#[test]
fn repeated_launches_keep_their_data_on_the_devices() {
    let sum = "kernel K<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ x }";
    let x = Value::from_f32s(&random_f32(3001, 31));
    for n in [1, 2, 3] {
        let k = SplitKernel::new(&devices(n), sum, "K").expect("a split kernel");
        let once = k.run(&[3001], std::slice::from_ref(&x)).expect("a launch");
        let (again, steps) = k
            .repeat_timed(&[3001], std::slice::from_ref(&x), 4)
            .expect("four launches");
        assert_eq!(again, once, "sum on {n}");
        assert_eq!(steps.step_ms.len(), 4);
        assert!(steps.kernel_ms.iter().all(|&t| t > 0.0));
    }
    let t = "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] { map(map(|v| v * 2.0)) o transpose $ x }";
    let y = matrix(&random_f32(12, 32), 4);
    let k = SplitKernel::new(&devices(2), t, "K").expect("a split kernel");
    let (again, _) = k
        .repeat_timed(&[4, 3], std::slice::from_ref(&y), 2)
        .expect("two launches");
    assert_eq!(
        again,
        k.run(&[4, 3], std::slice::from_ref(&y)).expect("a launch")
    );
    assert!(k
        .repeat_timed(&[4, 3], std::slice::from_ref(&y), 0)
        .is_err());
}

/// Tuning a split kernel tunes each slab on its device; the runs after use the choices and
/// still agree with one device.
#[test]
fn split_kernels_tune_per_slab() {
    let x = Value::from_f32s(&random_f32(2000, 41));
    let k = SplitKernel::new(&devices(2), BLUR, "K").expect("a split kernel");
    let tuned = k.tune(&[2000], std::slice::from_ref(&x)).expect("tuned");
    assert_eq!(tuned.iter().map(|t| t.0).collect::<Vec<_>>(), vec![0, 1]);
    assert!(tuned.iter().all(|(_, t)| t.valid >= 1), "{tuned:?}");
    let one = DynKernel::compile_for(ctx(), BLUR, "K", &[2000]).expect("one device");
    let want = one
        .run(&[2000], std::slice::from_ref(&x))
        .expect("one device");
    assert_eq!(
        k.run(&[2000], std::slice::from_ref(&x))
            .expect("two devices"),
        want
    );
}
