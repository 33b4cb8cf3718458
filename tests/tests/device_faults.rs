//! Faults on one device of a set (issue 37 item 5, SPEC section 6): the runtime's fault
//! points (`lift_runtime::__faults`, feature `fault-injection`, enabled by this crate's
//! dev-dependency only) armed for device 1 of three make its uploads, launches or result
//! reads fail as a device out of memory, out of resources or lost would. Every entry (the
//! value path `SplitKernel::run`, the typed `NameOn::run`, a full reduction, `iterate` and
//! `iterate_typed` on resident data, `repeat_timed`) gives `Error::OnDevice { index: 1, .. }`
//! naming the device and no result; once the fault is cleared the same kernel objects give
//! the right results.
//! A kernel that is not split fails on device 0. (A size too small to split runs on fewer
//! devices: `devices.rs`, `generated_kernels_run_on_a_set` and
//! `stencils_split_bit_for_bit`, and `devices_typed.rs`.)

use lift_runtime::__faults::{inject, Point};
use lift_runtime::core::interp::Value;
use lift_runtime::{lift, Context, Devices, Error, HostArg, SplitKernel};
use lift_tests::{ctx, matrix, random_f32, random_i32};

lift! {
    /// A clamped 1-D blur.
    kernel Blur<N>(x: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x }
    /// An integer sum (a full reduction: partial results folded).
    kernel Total<N>(x: [i32; N]) -> i32 { reduce(+, 0) $ x }
}

const JACOBI: &str = "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|w| 0.2 * (w[0][1] + w[1][0] + w[1][1] + w[1][2] + w[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x }";

const POINTS: [Point; 3] = [Point::Upload, Point::Launch, Point::Read];

/// `n` contexts on the default device.
fn devices(n: usize) -> Devices {
    let contexts = (0..n)
        .map(|_| Context::new().expect("the default device"))
        .collect();
    Devices::from_contexts(contexts).expect("a set")
}

/// Asserts that `r` failed on device `index` of `set` with the injected OpenCL error.
#[track_caller]
fn failed_on<T: std::fmt::Debug>(r: Result<T, Error>, set: &Devices, index: usize, what: &str) {
    match r {
        Err(Error::OnDevice {
            index: i,
            device,
            source,
        }) => {
            assert_eq!(i, index, "{what}: the device");
            assert_eq!(device, set.contexts()[index].device_info().name, "{what}");
            assert!(matches!(*source, Error::Cl { .. }), "{what}: {source}");
        }
        other => panic!("{what}: expected a failure on device {index}, got {other:?}"),
    }
}

#[test]
fn a_failing_device_is_an_error_naming_it() {
    let set = devices(3);
    let rows = 10;
    let x = random_f32(rows, 1);
    let want = Blur::new(ctx())
        .and_then(|k| k.run(rows, &x))
        .expect("one device");
    let typed = Blur::new_on(&set).expect("typed");
    let values = SplitKernel::new(&set, Blur::LIFT, "Blur").expect("a split kernel");
    let xv = [Value::from_f32s(&x)];
    let z = random_i32(1000, 2);
    let total = Total::new_on(&set).expect("total");
    // Built (and run) before the faults: the failures are the runs', not the builds'.
    assert_eq!(typed.run(rows, &x).expect("typed"), want);
    let want_v = values.run(&[rows], &xv).expect("values");
    for point in POINTS {
        let fault = inject(point, &set.contexts()[1]);
        failed_on(
            typed.run(rows, &x),
            &set,
            1,
            &format!("typed run, {point:?}"),
        );
        failed_on(
            values.run(&[rows], &xv),
            &set,
            1,
            &format!("value run, {point:?}"),
        );
        failed_on(total.run(1000, &z), &set, 1, &format!("sum, {point:?}"));
        let timed = values.repeat_timed(&[rows], &xv, 2);
        failed_on(timed, &set, 1, &format!("repeated launches, {point:?}"));
        drop(fault);
        assert_eq!(
            typed.run(rows, &x).expect("typed, cleared"),
            want,
            "{point:?}"
        );
        assert_eq!(
            values.run(&[rows], &xv).expect("cleared"),
            want_v,
            "{point:?}"
        );
        assert_eq!(total.run(1000, &z).expect("cleared"), z.iter().sum::<i32>());
    }
}

#[test]
fn a_failing_device_stops_an_iteration() {
    let set = devices(3);
    let (rows, m, steps) = (9, 5, 6);
    let x = [matrix(&random_f32(rows * m, 3), rows)];
    let k = SplitKernel::new(&set, JACOBI, "K").expect("a split kernel");
    let want = k.iterate(&[rows, m], &x, 0, steps).expect("before");
    let data = random_f32(rows * m, 3);
    let typed = [HostArg::array(&data)];
    let want_typed: Vec<f32> = k
        .iterate_typed(&[rows, m], &typed, 0, steps)
        .expect("typed");
    for point in POINTS {
        let fault = inject(point, &set.contexts()[1]);
        let r = k.iterate(&[rows, m], &x, 0, steps);
        failed_on(r, &set, 1, &format!("iterate, {point:?}"));
        let r = k.iterate_typed::<f32>(&[rows, m], &typed, 0, steps);
        failed_on(r, &set, 1, &format!("typed iterate, {point:?}"));
        drop(fault);
        let again = k.iterate(&[rows, m], &x, 0, steps).expect("cleared");
        assert_eq!(again, want, "{point:?}");
        let again: Vec<f32> = k
            .iterate_typed(&[rows, m], &typed, 0, steps)
            .expect("cleared");
        assert_eq!(again, want_typed, "{point:?}");
    }
}

/// A kernel that is not split runs on device 0, and fails there; a fault on another device
/// does not touch it.
#[test]
fn a_kernel_on_one_device_fails_on_device_zero() {
    let set = devices(3);
    let t = "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] { map(map(|v| v * 2.0)) o transpose $ x }";
    let k = SplitKernel::new(&set, t, "K").expect("a split kernel");
    let x = [matrix(&random_f32(12, 4), 4)];
    let want = k.run(&[4, 3], &x).expect("before");
    for point in POINTS {
        let fault = inject(point, &set.contexts()[0]);
        failed_on(
            k.run(&[4, 3], &x),
            &set,
            0,
            &format!("one device, {point:?}"),
        );
        drop(fault);
        let _other = inject(point, &set.contexts()[2]);
        assert_eq!(k.run(&[4, 3], &x).expect("device 2 unused"), want);
    }
}
