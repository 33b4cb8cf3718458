//! Building, caching and launching hand-written kernels. Needs an OpenCL platform (CI
//! installs POCL).

use lift_runtime::{Context, Error};
use std::sync::Arc;

const AXPY: &str = r#"
__kernel void axpy(__global const float* a, __global const float* b, __global float* out,
                   const float alpha, __local float* tmp, const int n) {
    int g = get_global_id(0);
    int l = get_local_id(0);
    int ls = get_local_size(0);
    tmp[l] = g < n ? a[g] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (g < n) {
        out[g] = alpha * a[g] + b[g] + tmp[ls - 1 - l];
    }
}
"#;

fn ctx() -> Context {
    Context::new().unwrap_or_else(|e| panic!("no OpenCL device to test on: {e}"))
}

/// The host version of `axpy` for work-groups of `local`.
fn expected(a: &[f32], b: &[f32], alpha: f32, local: usize, global: usize) -> Vec<f32> {
    let n = a.len();
    (0..n)
        .map(|g| {
            let group = g / local * local;
            let mirror = group + (local - 1 - g % local);
            let t = if mirror < n { a[mirror] } else { 0.0 };
            assert!(mirror < global);
            alpha * a[g] + b[g] + t
        })
        .collect()
}

#[test]
fn vector_add_with_scalar_and_local_memory() {
    let ctx = ctx();
    let n = 1000usize;
    let (local, global) = (16usize, 1008usize);
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| (i * i % 17) as f32).collect();

    let program = ctx.build(AXPY, "-cl-std=CL1.2").unwrap();
    assert!(program.kernel_names().contains("axpy"));
    let k = program.kernel("axpy").unwrap();
    assert_eq!(k.num_args(), 6);
    assert!(k.max_work_group_size(&ctx).unwrap() >= 1);
    let da = ctx.upload(&a).unwrap();
    let db = ctx.upload(&b).unwrap();
    let out = ctx.alloc::<f32>(n).unwrap();
    k.set_buffer(0, &da).unwrap();
    k.set_buffer(1, &db).unwrap();
    k.set_buffer(2, &out).unwrap();
    k.set_scalar(3, 2.0f32).unwrap();
    k.set_local(4, local * 4).unwrap();
    k.set_scalar(5, n as i32).unwrap();
    ctx.check_launch(&[global], Some(&[local]), local * 4)
        .unwrap();
    // SAFETY: every argument is set; the buffers hold the `global` elements launched over.
    let event = unsafe { k.enqueue(&ctx, &[global], Some(&[local])) }.unwrap();
    event.wait().unwrap();
    let _ns: u64 = event.profile_ns().unwrap();
    assert_eq!(
        out.download().unwrap(),
        expected(&a, &b, 2.0, local, global)
    );

    // Arguments stay set: change only the scalar and launch again.
    k.set_scalar(3, -1.0f32).unwrap();
    // SAFETY: as above.
    unsafe { k.enqueue(&ctx, &[global], Some(&[local])) }.unwrap();
    assert_eq!(
        out.download().unwrap(),
        expected(&a, &b, -1.0, local, global)
    );
}

#[test]
fn bound_buffers_outlive_their_handles() {
    let ctx = ctx();
    let k = ctx.build(AXPY, "").unwrap().kernel("axpy").unwrap();
    let out = ctx.alloc::<f32>(4).unwrap();
    {
        let da = ctx.upload(&[1.0f32, 2.0, 3.0, 4.0]).unwrap();
        let db = ctx.upload(&[0.0f32; 4]).unwrap();
        k.set_buffer(0, &da).unwrap();
        k.set_buffer(1, &db).unwrap();
    } // The buffers are dropped here; the kernel keeps them alive.
    k.set_buffer(2, &out).unwrap();
    k.set_scalar(3, 1.0f32).unwrap();
    k.set_local(4, 4 * 4).unwrap();
    k.set_scalar(5, 4i32).unwrap();
    // SAFETY: every argument is set; the buffers hold the 4 elements launched over.
    unsafe { k.enqueue(&ctx, &[4], Some(&[4])) }.unwrap();
    assert_eq!(out.download().unwrap(), [5.0, 5.0, 5.0, 5.0]);
}

#[test]
fn identical_builds_hit_the_cache() {
    let ctx = ctx();
    let before = ctx.builds();
    let p1 = ctx.build(AXPY, "").unwrap();
    let p2 = ctx.clone().build(AXPY, "").unwrap();
    assert_eq!(ctx.builds(), before + 1);
    assert!(Arc::ptr_eq(&p1, &p2));
    let p3 = ctx.build(AXPY, "-cl-fast-relaxed-math").unwrap();
    assert_eq!(ctx.builds(), before + 2);
    assert!(!Arc::ptr_eq(&p1, &p3));
    // A separate context has its own cache.
    let other = Context::new().unwrap();
    other.build(AXPY, "").unwrap();
    assert_eq!(other.builds(), 1);
}

/// Threads asking at once for one program share one build; asking for different programs,
/// each gets its own (built side by side), and a failed build is not cached.
#[test]
fn threads_share_builds() {
    let ctx = Context::new().unwrap();
    let start = std::sync::Barrier::new(8);
    let programs: Vec<Arc<lift_runtime::BuiltProgram>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|t| {
                let (ctx, start) = (&ctx, &start);
                s.spawn(move || {
                    start.wait();
                    // Half the threads ask for the same program, the others for one each.
                    let options = match t % 2 {
                        0 => String::new(),
                        _ => format!("-DVARIANT={t}"),
                    };
                    ctx.build(AXPY, &options).unwrap()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(ctx.builds(), 1 + 4);
    for p in programs.iter().step_by(2) {
        assert!(Arc::ptr_eq(p, &programs[0]));
    }
    assert!(!Arc::ptr_eq(&programs[1], &programs[3]));
    assert!(ctx.build("kernel void broken( {", "").is_err());
    assert!(ctx.build("kernel void broken( {", "").is_err());
    assert_eq!(ctx.builds(), 1 + 4 + 2);
}

#[test]
fn build_errors_carry_the_log_and_source() {
    let ctx = ctx();
    let bad = "__kernel void k(__global float* x) {\n    x[0] = undeclared_name;\n}\n";
    let err = ctx.build(bad, "").unwrap_err();
    match &err {
        Error::Build { log, src } => {
            assert!(log.contains("undeclared_name"), "log: {log}");
            assert_eq!(src, bad);
        }
        other => panic!("expected Error::Build, got {other}"),
    }
    let msg = err.to_string();
    assert!(msg.contains("2 |     x[0] = undeclared_name;"), "{msg}");
    // Failures are not cached: building again compiles again.
    let before = ctx.builds();
    assert!(ctx.build(bad, "").is_err());
    assert_eq!(ctx.builds(), before + 1);
    // Options with a NUL byte are refused before reaching OpenCL.
    assert!(matches!(
        ctx.build(AXPY, "-D X\0"),
        Err(Error::NulByte { .. })
    ));
}

#[test]
fn unknown_kernel_names_the_available_ones() {
    let ctx = ctx();
    let program = ctx.build(AXPY, "").unwrap();
    match program.kernel("nope") {
        Err(Error::KernelNotFound { name, available }) => {
            assert_eq!(name, "nope");
            assert!(available.contains("axpy"));
        }
        other => panic!("expected KernelNotFound, got {other:?}"),
    }
    assert!(matches!(program.kernel("a\0b"), Err(Error::NulByte { .. })));
}

#[test]
fn launch_limits_are_checked() {
    let ctx = ctx();
    let info = ctx.device_info().clone();
    let launch_err = |r: Result<(), Error>| match r {
        Err(Error::Launch { reason }) => reason,
        other => panic!("expected Error::Launch, got {other:?}"),
    };
    ctx.check_launch(&[64], Some(&[1]), 0).unwrap();
    ctx.check_launch(&[64, 2], None, 16).unwrap();

    let too_big = info.max_work_group_size * 2;
    let r = launch_err(ctx.check_launch(&[too_big], Some(&[too_big]), 0));
    assert!(r.contains(&too_big.to_string()), "{r}");

    let side = info.max_work_item_sizes[0].min(info.max_work_group_size);
    let r = launch_err(ctx.check_launch(&[side, side], Some(&[side, side]), 0));
    assert!(r.contains("work-group") || r.contains("maximum"), "{r}");

    let r = launch_err(ctx.check_launch(&[100], Some(&[8]), 0));
    assert!(r.contains("not a multiple"), "{r}");

    let too_much = info.local_mem_bytes as usize + 1;
    let r = launch_err(ctx.check_launch(&[8], Some(&[8]), too_much));
    assert!(r.contains("local memory"), "{r}");

    launch_err(ctx.check_launch(&[], None, 0));
    launch_err(ctx.check_launch(&[1, 1, 1, 1], None, 0));
    launch_err(ctx.check_launch(&[0], None, 0));
    launch_err(ctx.check_launch(&[8, 8], Some(&[8]), 0));
    launch_err(ctx.check_launch(&[8], Some(&[0]), 0));
}

#[test]
fn bad_launches_are_errors_not_crashes() {
    let ctx = ctx();
    let k = ctx.build(AXPY, "").unwrap().kernel("axpy").unwrap();
    // SAFETY (the three enqueues): each is refused before the kernel runs, by the handle's
    // own checks or by OpenCL (arguments not set: CL_INVALID_KERNEL_ARGS).
    assert!(matches!(
        unsafe { k.enqueue(&ctx, &[], None) },
        Err(Error::Launch { .. })
    ));
    assert!(matches!(
        unsafe { k.enqueue(&ctx, &[8], Some(&[8, 1])) },
        Err(Error::Launch { .. })
    ));
    // Arguments not set yet.
    assert!(matches!(
        unsafe { k.enqueue(&ctx, &[8], Some(&[8])) },
        Err(Error::Cl { .. })
    ));
    // Out-of-range argument index.
    assert!(matches!(
        k.set_scalar(6, 1i32),
        Err(Error::Cl { code: -49, .. })
    ));
    let buf = ctx.alloc::<f32>(1).unwrap();
    assert!(matches!(k.set_buffer(99, &buf), Err(Error::Cl { .. })));
}
