//! CLBlast 1.5 through its C API, loaded at run time (`libclblast.so.1`), so that the suite
//! builds and runs without it. Routines take raw `cl_mem`/`cl_command_queue` handles and
//! return the event of their last kernel.

use crate::timing::{Ev, Res};
use libloading::{Library, Symbol};
use lift_runtime::opencl3::event::Event as ClEvent;
use lift_runtime::opencl3::memory::ClMem;
use lift_runtime::opencl3::types::{cl_command_queue, cl_event, cl_mem};
use lift_runtime::{Buffer, Context};
use std::path::Path;
use std::ptr;

/// `CLBlastLayoutRowMajor`.
const ROW_MAJOR: i32 = 101;
/// `CLBlastTransposeNo`.
const NO_TRANS: i32 = 111;
/// `CLBlastTransposeYes`.
const TRANS: i32 = 112;

type Status = i32;
type Reduce1 = unsafe extern "C" fn(
    usize,
    cl_mem,
    usize,
    cl_mem,
    usize,
    usize,
    *mut cl_command_queue,
    *mut cl_event,
) -> Status;
type Reduce2 = unsafe extern "C" fn(
    usize,
    cl_mem,
    usize,
    cl_mem,
    usize,
    usize,
    cl_mem,
    usize,
    usize,
    *mut cl_command_queue,
    *mut cl_event,
) -> Status;
type Gemv = unsafe extern "C" fn(
    i32,
    i32,
    usize,
    usize,
    f32,
    cl_mem,
    usize,
    usize,
    cl_mem,
    usize,
    usize,
    f32,
    cl_mem,
    usize,
    usize,
    *mut cl_command_queue,
    *mut cl_event,
) -> Status;
type Gemm = unsafe extern "C" fn(
    i32,
    i32,
    i32,
    usize,
    usize,
    usize,
    f32,
    cl_mem,
    usize,
    usize,
    cl_mem,
    usize,
    usize,
    f32,
    cl_mem,
    usize,
    usize,
    *mut cl_command_queue,
    *mut cl_event,
) -> Status;

/// `CLBlastKernelModeConvolution` (the same value in every CLBlast 1.5 release; the
/// cross-correlation mode's value changed between them, so weights are given flipped).
const CONVOLUTION: i32 = 152;

type Convgemm = unsafe extern "C" fn(
    i32,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    cl_mem,
    usize,
    cl_mem,
    usize,
    cl_mem,
    usize,
    *mut cl_command_queue,
    *mut cl_event,
) -> Status;

/// A loaded CLBlast.
pub struct ClBlast {
    lib: Library,
    /// Where it was loaded from.
    pub path: String,
}

fn check(call: &str, status: Status) -> Res<()> {
    if status == 0 {
        Ok(())
    } else {
        Err(format!("{call} returned CLBlast status {status}").into())
    }
}

/// `Err` unless every buffer of `bufs` (name, buffer, elements the call reads or writes)
/// belongs to `ctx` and holds that many elements: CLBlast trusts the sizes it is given, and a
/// short buffer or one of another context would be accessed out of bounds.
fn fits(ctx: &Context, bufs: &[(&str, &Buffer<f32>, usize)]) -> Res<()> {
    for (name, b, len) in bufs {
        if b.context().cl_context().get() != ctx.cl_context().get() {
            return Err(format!("CLBlast: buffer `{name}` belongs to another context").into());
        }
        if b.len() < *len {
            return Err(format!(
                "CLBlast: buffer `{name}` has {} elements, the call needs {len}",
                b.len()
            )
            .into());
        }
    }
    Ok(())
}

/// `a * b`, or an error when it overflows.
fn elems(a: usize, b: usize) -> Res<usize> {
    a.checked_mul(b)
        .ok_or_else(|| format!("CLBlast: {a} x {b} elements overflow").into())
}

impl ClBlast {
    /// Loads `libclblast.so.1` from `path` (a file or a folder), else from the loader's path.
    pub fn load(path: Option<&Path>) -> Res<ClBlast> {
        let name = match path {
            Some(p) if p.is_dir() => p.join("libclblast.so.1"),
            Some(p) => p.to_path_buf(),
            None => "libclblast.so.1".into(),
        };
        // SAFETY: loading CLBlast runs its (trivial) initialisers only.
        let lib = unsafe { Library::new(&name) }?;
        Ok(ClBlast {
            lib,
            path: name.display().to_string(),
        })
    }

    /// Calls routine `symbol` of C type `F` as `call(f, queue, event)`, checks the status
    /// (named `label` in the error) and returns the event of its last kernel.
    fn call<F: Copy>(
        &self,
        ctx: &Context,
        label: &str,
        symbol: &[u8],
        call: impl FnOnce(F, *mut cl_command_queue, *mut cl_event) -> Status,
    ) -> Res<Ev> {
        // SAFETY: each caller names the C signature of CLBlast 1.5 for that symbol.
        let f: Symbol<F> = unsafe { self.lib.get(symbol) }?;
        let (mut q, mut e) = (ctx.cl_queue().get(), ptr::null_mut());
        check(label, call(*f, &mut q, &mut e))?;
        if e.is_null() {
            return Err("CLBlast returned no event".into());
        }
        Ok(Ev::Cl(ClEvent::new(e)))
    }

    /// `out[0] = sum(x)` (`CLBlastSsum`) or `sum |x|` (`CLBlastSasum`, `abs = true`).
    pub fn sum(&self, ctx: &Context, abs: bool, x: &Buffer<f32>, out: &Buffer<f32>) -> Res<Ev> {
        let name: &[u8] = if abs {
            b"CLBlastSasum\0"
        } else {
            b"CLBlastSsum\0"
        };
        fits(ctx, &[("x", x, x.len()), ("out", out, 1)])?;
        let (x, n, out) = (x.raw().get(), x.len(), out.raw().get());
        // SAFETY: live buffers of `ctx`'s context holding what the call accesses (`fits`),
        // enqueued on `ctx`'s queue.
        self.call(ctx, "CLBlastS(a)sum", name, |f: Reduce1, q, e| unsafe {
            f(n, out, 0, x, 0, 1, q, e)
        })
    }

    /// `out[0] = x . y` (`CLBlastSdot`).
    pub fn dot(
        &self,
        ctx: &Context,
        x: &Buffer<f32>,
        y: &Buffer<f32>,
        out: &Buffer<f32>,
    ) -> Res<Ev> {
        fits(
            ctx,
            &[("x", x, x.len()), ("y", y, x.len()), ("out", out, 1)],
        )?;
        let (n, out) = (x.len(), out.raw().get());
        let (x, y) = (x.raw().get(), y.raw().get());
        // SAFETY: as in `sum` (`fits` checked the three buffers).
        self.call(
            ctx,
            "CLBlastSdot",
            b"CLBlastSdot\0",
            |f: Reduce2, q, e| unsafe { f(n, out, 0, x, 0, 1, y, 0, 1, q, e) },
        )
    }

    /// `y = A x`, A row-major `n x m` (`CLBlastSgemv`).
    pub fn gemv(
        &self,
        ctx: &Context,
        n: usize,
        m: usize,
        a: &Buffer<f32>,
        x: &Buffer<f32>,
        y: &Buffer<f32>,
    ) -> Res<Ev> {
        self.gemv_as(ctx, false, n, m, a, x, y)
    }

    /// `y = Atᵀ x` with `at` row-major `m x n` (`CLBlastSgemv` with `CLBlastTransposeYes`):
    /// the matrix given transposed.
    pub fn gemv_t(
        &self,
        ctx: &Context,
        n: usize,
        m: usize,
        at: &Buffer<f32>,
        x: &Buffer<f32>,
        y: &Buffer<f32>,
    ) -> Res<Ev> {
        self.gemv_as(ctx, true, n, m, at, x, y)
    }

    /// `CLBlastSgemv` on a row-major matrix, transposed or not (`y` has `n` elements).
    #[allow(clippy::too_many_arguments)]
    fn gemv_as(
        &self,
        ctx: &Context,
        transposed: bool,
        n: usize,
        m: usize,
        a: &Buffer<f32>,
        x: &Buffer<f32>,
        y: &Buffer<f32>,
    ) -> Res<Ev> {
        fits(ctx, &[("a", a, elems(n, m)?), ("x", x, m), ("y", y, n)])?;
        let (a, x, y) = (a.raw().get(), x.raw().get(), y.raw().get());
        // Rows and columns of the stored matrix: n x m, or m x n when given transposed.
        let (t, rows, cols) = if transposed {
            (TRANS, m, n)
        } else {
            (NO_TRANS, n, m)
        };
        // SAFETY: as in `sum`; `fits` checked that a has n*m elements, x m and y n.
        self.call(
            ctx,
            "CLBlastSgemv",
            b"CLBlastSgemv\0",
            |f: Gemv, q, e| unsafe {
                f(
                    ROW_MAJOR, t, rows, cols, 1.0, a, 0, cols, x, 0, 1, 0.0, y, 0, 1, q, e,
                )
            },
        )
    }

    /// `C = A B`, row-major, square `n` (`CLBlastSgemm`).
    pub fn gemm(
        &self,
        ctx: &Context,
        n: usize,
        a: &Buffer<f32>,
        b: &Buffer<f32>,
        c: &Buffer<f32>,
    ) -> Res<Ev> {
        self.gemm_as(ctx, false, n, a, b, c)
    }

    /// `C = A Btᵀ`, row-major, square `n` (`CLBlastSgemm` with `CLBlastTransposeYes` for
    /// B): B given transposed.
    pub fn gemm_nt(
        &self,
        ctx: &Context,
        n: usize,
        a: &Buffer<f32>,
        bt: &Buffer<f32>,
        c: &Buffer<f32>,
    ) -> Res<Ev> {
        self.gemm_as(ctx, true, n, a, bt, c)
    }

    /// A 3x3 convolution, stride 1, zero padding 1, batch 1 (`CLBlastSconvgemm`, convolution
    /// mode): `im` is `c x h x w` (CHW), `kernel` `f x c x 3 x 3` flipped in both spatial
    /// dimensions, `result` `f x h x w`.
    pub fn convgemm(
        &self,
        ctx: &Context,
        (c, h, w): (usize, usize, usize),
        f: usize,
        im: &Buffer<f32>,
        kernel: &Buffer<f32>,
        result: &Buffer<f32>,
    ) -> Res<Ev> {
        let hw = elems(h, w)?;
        fits(
            ctx,
            &[
                ("im", im, elems(c, hw)?),
                ("kernel", kernel, elems(elems(f, c)?, 9)?),
                ("result", result, elems(f, hw)?),
            ],
        )?;
        let (im, k, r) = (im.raw().get(), kernel.raw().get(), result.raw().get());
        // SAFETY: as in `sum`; `fits` checked the three tensors' sizes for these dimensions.
        self.call(
            ctx,
            "CLBlastSconvgemm",
            b"CLBlastSconvgemm\0",
            |g: Convgemm, q, e| unsafe {
                g(
                    CONVOLUTION,
                    c,
                    h,
                    w,
                    3,
                    3,
                    1,
                    1,
                    1,
                    1,
                    1,
                    1,
                    f,
                    1,
                    im,
                    0,
                    k,
                    0,
                    r,
                    0,
                    q,
                    e,
                )
            },
        )
    }

    fn gemm_as(
        &self,
        ctx: &Context,
        b_transposed: bool,
        n: usize,
        a: &Buffer<f32>,
        b: &Buffer<f32>,
        c: &Buffer<f32>,
    ) -> Res<Ev> {
        let nn = elems(n, n)?;
        fits(ctx, &[("a", a, nn), ("b", b, nn), ("c", c, nn)])?;
        let (a, b, c) = (a.raw().get(), b.raw().get(), c.raw().get());
        let tb = if b_transposed { TRANS } else { NO_TRANS };
        // SAFETY: as in `sum`; `fits` checked that all three have n*n elements (so every
        // leading dimension is n).
        self.call(
            ctx,
            "CLBlastSgemm",
            b"CLBlastSgemm\0",
            |f: Gemm, q, e| unsafe {
                f(
                    ROW_MAJOR, NO_TRANS, tb, n, n, n, 1.0, a, 0, n, b, 0, n, 0.0, c, 0, n, q, e,
                )
            },
        )
    }
}
