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

    fn sym<T>(&self, name: &[u8]) -> Res<Symbol<'_, T>> {
        // SAFETY: each caller names the C signature of CLBlast 1.5 for that symbol.
        Ok(unsafe { self.lib.get(name) }?)
    }

    fn q(ctx: &Context) -> cl_command_queue {
        ctx.cl_queue().get()
    }

    fn ev(e: cl_event) -> Res<Ev> {
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
        let f: Symbol<Reduce1> = self.sym(name)?;
        let (mut q, mut e) = (Self::q(ctx), ptr::null_mut());
        // SAFETY: live buffers of the stated lengths on `ctx`'s context and queue.
        check("CLBlastS(a)sum", unsafe {
            f(
                x.len(),
                out.raw().get(),
                0,
                x.raw().get(),
                0,
                1,
                &mut q,
                &mut e,
            )
        })?;
        Self::ev(e)
    }

    /// `out[0] = x . y` (`CLBlastSdot`).
    pub fn dot(
        &self,
        ctx: &Context,
        x: &Buffer<f32>,
        y: &Buffer<f32>,
        out: &Buffer<f32>,
    ) -> Res<Ev> {
        let f: Symbol<Reduce2> = self.sym(b"CLBlastSdot\0")?;
        let (mut q, mut e) = (Self::q(ctx), ptr::null_mut());
        // SAFETY: as in `sum`.
        check("CLBlastSdot", unsafe {
            f(
                x.len(),
                out.raw().get(),
                0,
                x.raw().get(),
                0,
                1,
                y.raw().get(),
                0,
                1,
                &mut q,
                &mut e,
            )
        })?;
        Self::ev(e)
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
        let f: Symbol<Gemv> = self.sym(b"CLBlastSgemv\0")?;
        let (mut q, mut e) = (Self::q(ctx), ptr::null_mut());
        // SAFETY: as in `sum`; a is n*m, x is m, y is n.
        check("CLBlastSgemv", unsafe {
            f(
                ROW_MAJOR,
                NO_TRANS,
                n,
                m,
                1.0,
                a.raw().get(),
                0,
                m,
                x.raw().get(),
                0,
                1,
                0.0,
                y.raw().get(),
                0,
                1,
                &mut q,
                &mut e,
            )
        })?;
        Self::ev(e)
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
        let f: Symbol<Gemm> = self.sym(b"CLBlastSgemm\0")?;
        let (mut q, mut e) = (Self::q(ctx), ptr::null_mut());
        // SAFETY: as in `sum`; all three are n*n.
        check("CLBlastSgemm", unsafe {
            f(
                ROW_MAJOR,
                NO_TRANS,
                NO_TRANS,
                n,
                n,
                n,
                1.0,
                a.raw().get(),
                0,
                n,
                b.raw().get(),
                0,
                n,
                0.0,
                c.raw().get(),
                0,
                n,
                &mut q,
                &mut e,
            )
        })?;
        Self::ev(e)
    }
}
