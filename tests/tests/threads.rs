//! Threads (issue 13, item 5): what may cross threads, and kernels launched from several
//! threads at once with correct results.
//!
//! - [`Context`], [`Buffer`] and [`Event`] are `Send + Sync`: one context is shared by every
//!   thread (its queue is an in-order OpenCL queue, which OpenCL allows several host threads
//!   to enqueue on).
//! - A generated kernel struct is `Send` but not `Sync`: it holds
//!   [`lift_runtime::KernelHandle`]s, whose arguments are set and then enqueued in two steps
//!   that must not interleave with another thread's (OpenCL's `clSetKernelArg` is not
//!   thread-safe on one `cl_kernel`). Each thread makes its own with `Name::new(&ctx)` (the
//!   program is built once per context and shared) or gets one moved to it.
//! - A [`DynKernel`] is neither: besides its handles it keeps the kernel's IR, whose spans
//!   (`proc_macro2::Span`) are neither `Send` nor `Sync`. Each thread compiles its own (the
//!   OpenCL program is built once per context and shared).
//!
//! docs/RELIABILITY.md summarises this.

use lift_runtime::core::interp::{Scalar, Value};
use lift_runtime::{lift, Buffer, Context, DynKernel, Event};
use lift_tests::{ctx, random_f32};
use std::sync::Barrier;

lift! {
    /// A map: every element checked exactly.
    kernel Axpb<N>(x: [f32; N]) -> [f32; N] { map(|v| v * 2.0 + 1.0) $ x }

    /// A full reduction (two kernels and a temporary per launch).
    kernel Sum<N>(x: [i32; N]) -> i32 { reduce(+, 0) $ x }
}

fn is_send<T: Send>() {}
fn is_sync<T: Sync>() {}

/// The bounds the module docs state, checked at compile time.
#[test]
fn what_crosses_threads() {
    is_send::<Context>();
    is_sync::<Context>();
    is_send::<Buffer<f32>>();
    is_sync::<Buffer<f32>>();
    is_send::<Event>();
    is_sync::<Event>();
    is_send::<Axpb>();
    is_send::<lift_runtime::KernelHandle>();
}

const THREADS: usize = 8;
const ROUNDS: usize = 25;

/// `Axpb` of `x`, computed on the host.
fn axpb(x: &[f32]) -> Vec<f32> {
    x.iter().map(|v| v * 2.0 + 1.0).collect()
}

/// Several threads launch the same kernel on one context at once, each through its own
/// struct, with `run` (host slices) and `launch` (device buffers), at different sizes; every
/// result is exact.
#[test]
fn one_context_many_threads() {
    let ctx = ctx();
    let builds = ctx.builds();
    let start = Barrier::new(THREADS);
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let start = &start;
            s.spawn(move || {
                let k = Axpb::new(ctx).expect("Axpb::new");
                let sum = Sum::new(ctx).expect("Sum::new");
                start.wait();
                for r in 0..ROUNDS {
                    let n = 1 + (t * 977 + r * 131) % 5000;
                    let x = random_f32(n, (t * 1000 + r) as u64);
                    let got = k.run(n, &x).expect("run");
                    assert_eq!(got, axpb(&x), "thread {t} round {r} (run, n = {n})");
                    let input = ctx.upload(&x).expect("upload");
                    let out = ctx.alloc::<f32>(n).expect("alloc");
                    k.launch(n, &input, &out)
                        .expect("launch")
                        .wait()
                        .expect("wait");
                    assert_eq!(
                        out.download().expect("download"),
                        axpb(&x),
                        "thread {t} round {r} (launch, n = {n})"
                    );
                    let ints: Vec<i32> = (0..n as i32).map(|i| (i * 7 + t as i32) % 13).collect();
                    let total = sum.run(n, &ints).expect("Sum::run");
                    assert_eq!(
                        total,
                        ints.iter().sum::<i32>(),
                        "thread {t} round {r} (sum)"
                    );
                }
            });
        }
    });
    // The programs were built by the first thread to ask; the others shared them (a few more
    // builds at most: candidates chosen at other sizes).
    assert!(
        ctx.builds() - builds <= 2 * 4,
        "{} builds for {THREADS} threads",
        ctx.builds() - builds
    );
}

/// A kernel struct made on one thread and moved to another (it is `Send`).
#[test]
fn kernel_moved_to_another_thread() {
    let ctx = ctx();
    let k = Axpb::new(ctx).expect("Axpb::new");
    let x = random_f32(1000, 7);
    let got = std::thread::spawn(move || k.run(1000, &x).map(|v| (v, x)))
        .join()
        .expect("thread")
        .expect("run");
    assert_eq!(got.0, axpb(&got.1));
}

/// Two contexts (the same device opened twice) used from two threads at once, each running
/// its own kernels on its own buffers; then each context's buffers are used by the other
/// thread's kernels of the same context (a context is `Sync`).
#[test]
fn two_contexts_at_once() {
    let a = Context::new().expect("first context");
    let b = Context::new().expect("second context");
    let start = Barrier::new(4);
    std::thread::scope(|s| {
        for (i, c) in [&a, &b, &a, &b].into_iter().enumerate() {
            let start = &start;
            s.spawn(move || {
                let k = Axpb::new(c).expect("Axpb::new");
                start.wait();
                for r in 0..ROUNDS {
                    let n = 64 + (i * 313 + r * 71) % 3000;
                    let x = random_f32(n, (100 * i + r) as u64);
                    let input = c.upload(&x).expect("upload");
                    let out = c.alloc::<f32>(n).expect("alloc");
                    k.launch(n, &input, &out)
                        .expect("launch")
                        .wait()
                        .expect("wait");
                    assert_eq!(
                        out.download().expect("download"),
                        axpb(&x),
                        "context {} thread {i} round {r}",
                        i % 2
                    );
                }
            });
        }
    });
}

/// `DynKernel`s compiled at run time on several threads of one context at once give the
/// right results.
#[test]
fn dyn_kernels_from_threads() {
    let ctx = ctx();
    let text = "kernel D<N>(x: [f32; N]) -> [f32; N] { map(|v| v * 2.0 + 1.0) $ x }";
    let start = Barrier::new(THREADS);
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let start = &start;
            s.spawn(move || {
                let k = DynKernel::compile(ctx, text, "D").expect("compile on a thread");
                start.wait();
                for r in 0..20 {
                    let n = 1 + (t * 211 + r * 97) % 2000;
                    let x = random_f32(n, (t * 77 + r) as u64);
                    let arg =
                        Value::Array(x.iter().map(|&v| Value::Scalar(Scalar::F32(v))).collect());
                    let got = k.run(&[n], &[arg]).expect("run");
                    let want = Value::Array(
                        axpb(&x)
                            .into_iter()
                            .map(|v| Value::Scalar(Scalar::F32(v)))
                            .collect(),
                    );
                    assert_eq!(got, want, "thread {t} round {r}");
                }
            });
        }
    });
}
