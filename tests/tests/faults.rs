//! Faults (issue 13, item 4): each is an `Err` with a message a user can act on, never a
//! panic or an abort, and the context stays usable afterwards: after every fault a good kernel
//! runs on the same context and gives the right result. The messages are pinned in
//! docs/RELIABILITY.md ("Faults").

use lift_runtime::core::interp::{Scalar, Value};
use lift_runtime::{lift, Context, DynKernel, Error};
use lift_tests::ctx;

// Every kernel of a block carries the block's user functions: a broken one gets a block of
// its own.
lift! {
    /// An OpenCL C body that does not compile.
    #[opencl] fn broken(a: f32) -> f32 { "return a +* lift_undefined_name;" }

    kernel BadBody<N>(x: [f32; N]) -> [f32; N] { map(|v| broken(v)) $ x }
}

lift! {
    /// The good kernel run after every fault.
    kernel Scale<N>(x: [f32; N]) -> [f32; N] { map(|v| v * 2.0 + 1.0) $ x }

    /// An output of `N + L` elements from an input of `N`.
    kernel Grow<N, L>(x: [f32; N]) -> [f32; N + L] { map(|v| v + 1.0) o pad(0, L, clamp) $ x }

    /// The sum of a 3-D array.
    kernel Cube<N, M, K>(x: [[[f32; K]; M]; N]) -> f32 { reduce(+, 0.0) o join o join $ x }

    /// Work-groups of 2^20 work-items, each staging its tile in local memory (4 MiB).
    kernel HugeGroup<N>(x: [f32; N]) -> [f32; N] {
        join o map_wrg(0, map_lcl(0, id) o to_local(map_lcl(0, |v| v * 2.0))) o split(1048576) $ x
    }

    /// A local-memory tile of `S` floats (a `__local` argument sized at launch).
    kernel LocalTile<N, S>(x: [f32; N]) -> [f32; N] {
        join o map_wrg(0, map_lcl(0, id) o to_local(map_lcl(0, |v| v * 2.0))) o split(S) $ x
    }
}

/// The good kernel runs on `ctx` and gives the right result: the context is still usable.
fn still_usable(ctx: &Context, after: &str) {
    let k = Scale::new(ctx).unwrap_or_else(|e| panic!("after {after}: Scale::new: {e}"));
    let x: Vec<f32> = (0..37).map(|i| i as f32 * 0.5).collect();
    let got = k
        .run(x.len(), &x)
        .unwrap_or_else(|e| panic!("after {after}: Scale::run: {e}"));
    let want: Vec<f32> = x.iter().map(|v| v * 2.0 + 1.0).collect();
    assert_eq!(got, want, "after {after}");
    // Device buffers too.
    let b = ctx.upload(&x).expect("upload");
    let out = ctx.alloc::<f32>(x.len()).expect("alloc");
    k.launch(x.len(), &b, &out)
        .expect("launch")
        .wait()
        .expect("wait");
    assert_eq!(out.download().expect("download"), want, "after {after}");
}

/// Prints what a fault gave (the table of docs/RELIABILITY.md is made from these lines).
fn show(fault: &str, e: &Error) {
    eprintln!("FAULT {fault}: {e}");
}

/// The error of a build that must fail.
fn build_error(r: Result<(), Error>) -> Error {
    r.expect_err("the body does not compile")
}

#[test]
fn opencl_build_failure_of_a_user_function_body() {
    let ctx = ctx();
    let e = build_error(BadBody::new(ctx).map(|_| ()));
    show("OpenCL build failure", &e);
    let Error::Build { log, src } = &e else {
        panic!("expected a build error, got {e:?}")
    };
    // The driver's build log, and the source with the user's body in it.
    assert!(
        log.contains("lift_undefined_name") || log.contains("error"),
        "{log}"
    );
    assert!(src.contains("lift_undefined_name"), "{src}");
    let msg = e.to_string();
    assert!(msg.starts_with("OpenCL program build failed:"), "{msg}");
    assert!(msg.contains(log.trim()), "{msg}");
    // The same through DynKernel (a program compiled at run time).
    let text = "#[opencl] fn broken(a: f32) -> f32 { \"return a +* lift_undefined_name;\" }\n\
                kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| broken(v)) $ x }";
    let e = DynKernel::compile(ctx, text, "K").expect_err("does not build");
    assert!(matches!(e, Error::Build { .. }), "{e:?}");
    // A failed build is not cached: asking again fails again, with the log.
    let again = build_error(BadBody::new(ctx).map(|_| ()));
    assert!(matches!(again, Error::Build { .. }), "{again:?}");
    still_usable(ctx, "a build failure");
}

#[test]
fn device_allocation_larger_than_the_device_allows() {
    let ctx = ctx();
    let info = ctx.device_info();
    eprintln!(
        "device `{}`: max alloc {} B, global {} B, local {} B, work-group {}",
        info.name,
        info.max_alloc_bytes,
        info.global_mem_bytes,
        info.local_mem_bytes,
        info.max_work_group_size
    );
    let too_many = (info.max_alloc_bytes / 4 + 1) as usize;
    let e = ctx
        .alloc::<f32>(too_many)
        .expect_err("larger than one buffer may be");
    show("allocation larger than the device allows", &e);
    let msg = e.to_string();
    assert!(
        msg.contains(&too_many.to_string())
            && msg.contains(&info.max_alloc_bytes.to_string())
            && msg.contains(&info.name),
        "{msg}"
    );
    let e = ctx
        .alloc_zeroed::<f64>(usize::MAX / 4)
        .expect_err("byte size overflows");
    show("allocation whose byte size overflows", &e);
    assert!(e.to_string().contains("overflows"), "{e}");
    // Through a kernel: `Grow` at N + L elements beyond the largest buffer (L at most the
    // largest size, `i32::MAX`: 2 + L elements are beyond a largest buffer of up to 2^31
    // floats, which is POCL's on a machine with enough memory).
    let l = (info.max_alloc_bytes / 4).min(i32::MAX as u64) as usize;
    let x = [1.0f32, 2.0];
    match Grow::new(ctx).expect("builds").run(2, l, &x) {
        Err(e) => {
            show("kernel output larger than the device allows", &e);
            let msg = e.to_string();
            assert!(
                msg.contains("at most") || msg.contains("precondition"),
                "{msg}"
            );
        }
        // A device whose largest buffer holds more than 2^31 floats: nothing to refuse.
        Ok(v) => assert_eq!(v.len(), 2 + l),
    }
    still_usable(ctx, "an allocation larger than the device allows");
}

#[test]
fn size_product_that_overflows() {
    let ctx = ctx();
    let n = i32::MAX as usize;
    let k = Cube::new(ctx).expect("builds");
    let e = k.run(n, n, n, &[1.0]).expect_err("N * M * K overflows");
    show("size product that overflows", &e);
    let msg = e.to_string();
    assert!(msg.contains("overflow"), "{msg}");
    assert!(msg.contains("2147483647"), "{msg}");
    // Through DynKernel.
    let text =
        "kernel K<N, M, K>(x: [[[f32; K]; M]; N]) -> f32 { reduce(+, 0.0) o join o join $ x }";
    let d = DynKernel::compile(ctx, text, "K").expect("compiles");
    let x = Value::Array(vec![Value::Array(vec![Value::from_f32s(&[1.0])])]);
    let e = d.run(&[n, n, n], &[x]).expect_err("overflows");
    show("size product that overflows (DynKernel)", &e);
    let msg = e.to_string();
    assert!(
        msg.contains("overflow") || msg.contains("argument `x`"),
        "{msg}"
    );
    still_usable(ctx, "a size overflow");
}

#[test]
fn output_buffer_of_the_wrong_length() {
    let ctx = ctx();
    let k = Scale::new(ctx).expect("builds");
    let x = ctx.upload(&[1.0f32, 2.0, 3.0, 4.0]).expect("upload");
    let out = ctx.alloc::<f32>(5).expect("alloc");
    let e = k
        .launch(4, &x, &out)
        .expect_err("out has 5 elements, not 4");
    show("output buffer of the wrong length", &e);
    assert_eq!(e.to_string(), "argument `out`: expected length 4, got 5");
    // An input buffer of the wrong length, too.
    let out4 = ctx.alloc::<f32>(4).expect("alloc");
    let e = k.launch(5, &x, &out4).expect_err("x has 4 elements, not 5");
    assert!(e.to_string().contains("argument `x`"), "{e}");
    // And host slices.
    let e = Scale::new(ctx)
        .expect("builds")
        .run(3, &[1.0, 2.0])
        .expect_err("short");
    assert_eq!(e.to_string(), "argument `x`: expected length 3, got 2");
    still_usable(ctx, "a wrong buffer length");
}

#[test]
fn buffer_from_another_context() {
    let ctx = ctx();
    let other = Context::new().expect("a second context");
    let k = Scale::new(ctx).expect("builds");
    let foreign_in = other.upload(&[1.0f32, 2.0, 3.0]).expect("upload");
    let out = ctx.alloc::<f32>(3).expect("alloc");
    let e = k
        .launch(3, &foreign_in, &out)
        .expect_err("x belongs to another context");
    show("input buffer from another context", &e);
    let msg = e.to_string();
    assert!(msg.contains("another context"), "{msg}");
    let x = ctx.upload(&[1.0f32, 2.0, 3.0]).expect("upload");
    let foreign_out = other.alloc::<f32>(3).expect("alloc");
    let e = k
        .launch(3, &x, &foreign_out)
        .expect_err("out belongs to another context");
    show("output buffer from another context", &e);
    assert!(e.to_string().contains("another context"), "{e}");
    still_usable(ctx, "a buffer from another context");
    // The other context works on its own.
    still_usable(&other, "a buffer from another context (the other context)");
}

#[test]
fn work_group_needs_beyond_the_device() {
    let ctx = ctx();
    let info = ctx.device_info().clone();
    let n = 1usize << 20;
    let x = vec![1.0f32; n];
    // A work-group of 2^20 work-items with a 4 MiB local tile: beyond POCL's (and every
    // GPU's) work-group size and local memory.
    match HugeGroup::new(ctx) {
        Ok(k) => {
            let e = k.run(n, &x).expect_err("a work-group of 2^20 work-items");
            show("work-group larger than the device allows", &e);
            let msg = e.to_string();
            assert!(msg.starts_with("invalid launch:"), "{msg}");
            assert!(msg.contains(&info.name), "{msg}");
        }
        Err(e) => {
            show("work-group larger than the device allows (build)", &e);
            assert!(
                matches!(e, Error::Build { .. } | Error::Launch { .. }),
                "{e:?}"
            );
        }
    }
    still_usable(ctx, "a work-group beyond the device");
    // Local memory sized at launch beyond the device's: S floats per work-group.
    let s = (info.local_mem_bytes / 4 * 2) as usize;
    let k = LocalTile::new(ctx).expect("builds");
    let x = vec![1.0f32; s];
    let e = k
        .run(s, s, &x)
        .expect_err("local tile larger than local memory");
    show("local memory larger than the device's", &e);
    let msg = e.to_string();
    assert!(msg.contains("local memory"), "{msg}");
    assert!(msg.contains(&info.local_mem_bytes.to_string()), "{msg}");
    still_usable(ctx, "local memory beyond the device");
    // A tile that fits still runs.
    let out = k.run(64, 16, &vec![1.5f32; 64]).expect("fits");
    assert_eq!(out, vec![3.0f32; 64]);
}

/// The DynKernel checks of scalar arguments, for the table: a wrong scalar type.
#[test]
fn dyn_kernel_scalar_of_the_wrong_type() {
    let ctx = ctx();
    let text = "kernel K<N>(x: [f32; N], s: f32) -> [f32; N] { map(|v| v * s) $ x }";
    let k = DynKernel::compile(ctx, text, "K").expect("compiles");
    let e = k
        .run(
            &[2],
            &[Value::from_f32s(&[1.0, 2.0]), Value::Scalar(Scalar::I32(1))],
        )
        .expect_err("s is f32");
    show("scalar argument of the wrong type", &e);
    assert!(e.to_string().contains("`s`"), "{e}");
    still_usable(ctx, "a scalar of the wrong type");
}
