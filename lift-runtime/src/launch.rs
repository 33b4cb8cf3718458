//! Kernel arguments, launches, events and launch-limit checks.

use crate::buffer::{Buffer, DeviceScalar};
use crate::context::Context;
use crate::error::{Error, Result};
use opencl3::event::Event as ClEvent;
use opencl3::kernel::Kernel;
use opencl3::memory::{release_mem_object, retain_mem_object, ClMem};
use opencl3::types::cl_mem;
use std::cell::{Cell, OnceCell};
use std::ptr;

/// `CL_INVALID_ARG_INDEX`: the argument index is out of range.
const CL_INVALID_ARG_INDEX: i32 = -49;

/// A reference on a memory object, held while it is bound as a kernel argument, so that
/// dropping the [`Buffer`] before the launch cannot leave the kernel with a dangling handle.
struct Retained(cl_mem);

impl Retained {
    /// Takes a new reference on `mem`.
    fn new(mem: cl_mem) -> Result<Retained> {
        // SAFETY: `mem` is a live memory object owned by a `Buffer`.
        unsafe { retain_mem_object(mem) }.map_err(|code| Error::Cl {
            call: "clRetainMemObject",
            code,
        })?;
        Ok(Retained(mem))
    }
}

impl Drop for Retained {
    fn drop(&mut self) {
        // SAFETY: releases the reference taken in `new`. Nothing useful can be done if the
        // driver reports an error here, so it is ignored.
        let _ = unsafe { release_mem_object(self.0) };
    }
}

// SAFETY: OpenCL memory-object reference counting is thread-safe.
unsafe impl Send for Retained {}

/// One kernel of a built program, with its argument slots.
///
/// Arguments stay set between launches. A handle is `Send` but not `Sync`: setting
/// arguments and enqueueing is a sequence that must not interleave with another thread's;
/// give each thread its own handle from [`BuiltProgram::kernel`](crate::BuiltProgram::kernel).
pub struct KernelHandle {
    kernel: Kernel,
    /// The buffer bound to each argument index, kept alive until replaced.
    bound: Box<[Cell<Option<Retained>>]>,
    /// The kernel's largest work-group and preferred work-group multiple on the device it was
    /// first launched on (queried once).
    group: OnceCell<(usize, usize)>,
    /// The OpenCL context the kernel was built in (as an address: only compared), so that a
    /// buffer or queue of another context is refused before OpenCL sees it.
    context: usize,
    /// Counted in [`crate::live_objects`].
    _live: crate::live::Live,
}

impl std::fmt::Debug for KernelHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KernelHandle")
            .field("kernel", &self.kernel)
            .field("args", &self.bound.len())
            .finish()
    }
}

impl KernelHandle {
    /// Wraps a freshly created kernel.
    pub(crate) fn new(kernel: Kernel) -> Result<KernelHandle> {
        let args = kernel.num_args().map_err(Error::cl("clGetKernelInfo"))?;
        let bound = (0..args).map(|_| Cell::new(None)).collect();
        let context = kernel.context().map_err(Error::cl("clGetKernelInfo"))? as usize;
        Ok(KernelHandle {
            kernel,
            bound,
            group: OnceCell::new(),
            context,
            _live: crate::live::Live::new(crate::live::Kind::Kernel),
        })
    }

    /// Number of parameters the kernel declares.
    pub fn num_args(&self) -> usize {
        self.bound.len()
    }

    /// The argument slot `index`, or `CL_INVALID_ARG_INDEX`.
    fn slot(&self, index: u32) -> Result<&Cell<Option<Retained>>> {
        self.bound.get(index as usize).ok_or(Error::Cl {
            call: "clSetKernelArg",
            code: CL_INVALID_ARG_INDEX,
        })
    }

    /// Binds `buf` to the `__global` pointer parameter `index`.
    pub fn set_buffer<T: DeviceScalar>(&self, index: u32, buf: &Buffer<T>) -> Result<()> {
        let slot = self.slot(index)?;
        // Some drivers (POCL) accept a memory object of another context and then read
        // whatever it points to; it is an error here.
        if buf.context().cl_context().get() as usize != self.context {
            return Err(Error::ForeignBuffer {
                index,
                device: buf.context().device_info().name.clone(),
            });
        }
        let mem = buf.raw().get();
        // SAFETY: a memory-object handle is what a `__global T*` parameter takes; OpenCL
        // checks the index and the object.
        unsafe { self.kernel.set_arg(index, &mem) }.map_err(Error::cl("clSetKernelArg"))?;
        slot.set(Some(Retained::new(mem)?));
        Ok(())
    }

    /// Sets the by-value scalar parameter `index` to `value`.
    pub fn set_scalar<T: DeviceScalar>(&self, index: u32, value: T) -> Result<()> {
        let slot = self.slot(index)?;
        // SAFETY: `T` has the layout of its OpenCL type; OpenCL checks the size.
        unsafe { self.kernel.set_arg(index, &value) }.map_err(Error::cl("clSetKernelArg"))?;
        slot.set(None);
        Ok(())
    }

    /// Gives the `__local` pointer parameter `index` a fresh region of `bytes` bytes per work-group.
    pub fn set_local(&self, index: u32, bytes: usize) -> Result<()> {
        let slot = self.slot(index)?;
        // SAFETY: a null value with a size is how a `__local` parameter is set.
        unsafe { self.kernel.set_arg_local_buffer(index, bytes) }
            .map_err(Error::cl("clSetKernelArg"))?;
        slot.set(None);
        Ok(())
    }

    /// Enqueues one launch of `global` work-items (1 to 3 dimensions) in work-groups of
    /// `local` (or a size the driver picks) on `ctx`'s queue, with the arguments set so far.
    ///
    /// Does no allocation or formatting unless it fails; see [`Context::check_launch`] for
    /// readable limit errors.
    ///
    /// # Safety
    ///
    /// Every argument of the kernel is set, with values of its parameters' types, and every
    /// buffer bound holds at least what the kernel reads or writes over `global`: a handle
    /// cannot know what its OpenCL C accesses, so a short buffer would be read or written out
    /// of bounds (host memory, on CPU drivers). The generated launchers and `DynKernel` check
    /// this before they call it.
    pub unsafe fn enqueue(
        &self,
        ctx: &Context,
        global: &[usize],
        local: Option<&[usize]>,
    ) -> Result<Event> {
        let dims = global.len();
        if !(1..=3).contains(&dims) {
            return Err(Error::launch(format!(
                "global size has {dims} dimensions; 1 to 3 are supported"
            )));
        }
        if ctx.cl_context().get() as usize != self.context {
            return Err(Error::launch(
                "the kernel was built by another context than the one it is enqueued on",
            ));
        }
        let local_ptr = match local {
            Some(l) if l.len() != dims => {
                return Err(Error::launch(format!(
                    "local size has {} dimensions but global size has {dims}",
                    l.len()
                )))
            }
            Some(l) => l.as_ptr(),
            None => ptr::null(),
        };
        // SAFETY: `global` and `local` hold `dims` sizes each; OpenCL validates the kernel,
        // its arguments (buffers bound are kept alive by `bound`) and the sizes.
        let event = unsafe {
            ctx.cl_queue().enqueue_nd_range_kernel(
                self.kernel.get(),
                dims as u32,
                ptr::null(),
                global.as_ptr(),
                local_ptr,
                &[],
            )
        }
        .map_err(Error::cl("clEnqueueNDRangeKernel"))?;
        Ok(Event {
            last: event,
            first: None,
            _live: crate::live::Live::new(crate::live::Kind::Event),
        })
    }

    /// The largest work-group this kernel can be launched with on `ctx`'s device (can be
    /// below the device maximum, e.g. for register-heavy kernels).
    pub fn max_work_group_size(&self, ctx: &Context) -> Result<usize> {
        self.kernel
            .get_work_group_size(ctx.cl_device().id())
            .map_err(Error::cl("clGetKernelWorkGroupInfo"))
    }

    /// The work-group for a launch of `global` work-items that leaves the choice to the
    /// implementation, when that choice could be poor. Drivers need a group that divides the
    /// global size, so for a length with few small factors (a prime, or `2^5 · 524287`) they
    /// fall back to groups of 32 or even 1 work-item. The group used instead is `l = m·2^k`
    /// work-items along dimension 0 (`m` the kernel's preferred work-group multiple, `l` the
    /// largest such not above the kernel's maximum work-group size nor `global[0]` rounded up
    /// to `m`), and the caller rounds `global` up to it (generated kernels guard every global
    /// index). When `l` divides `global[0]`, the driver can pick it itself: `None`.
    pub fn default_local(&self, ctx: &Context, global: &[usize]) -> Option<[usize; 3]> {
        let &first = global.first()?;
        let (max, m) = *self.group.get_or_init(|| {
            let dev = ctx.cl_device().id();
            let max = self.kernel.get_work_group_size(dev).unwrap_or(1);
            let m = self.kernel.get_work_group_size_multiple(dev).unwrap_or(1);
            (max, m.max(1))
        });
        if m > max {
            return None;
        }
        let cap = max.min(first.div_ceil(m) * m);
        let mut l = m;
        while l * 2 <= cap {
            l *= 2;
        }
        (first % l != 0).then_some([l, 1, 1])
    }

    /// The underlying `opencl3` kernel, for interoperation.
    pub fn raw(&self) -> &Kernel {
        &self.kernel
    }
}

/// A command in flight; from a profiling-enabled queue, so it can be timed. The event of a
/// launch of several kernels is its last kernel's, holding its first kernel's too (for
/// [`Event::span_ns`]).
#[derive(Debug)]
pub struct Event {
    last: ClEvent,
    first: Option<ClEvent>,
    /// Counted in [`crate::live_objects`].
    _live: crate::live::Live,
}

impl Event {
    /// Blocks until the command has finished.
    pub fn wait(&self) -> Result<()> {
        self.last.wait().map_err(Error::cl("clWaitForEvents"))
    }

    /// Waits for the launch, then returns its device execution time in nanoseconds: from the
    /// start of its first kernel to the end of its last (SPEC section 3: the event of a launch
    /// of several kernels spans them all; the same as [`Event::span_ns`]).
    pub fn profile_ns(&self) -> Result<u64> {
        self.span_ns()
    }

    /// Waits, then returns the nanoseconds from the start of the launch's first kernel to the
    /// end of its last (its whole device time, gaps between kernels included; the same as
    /// [`Event::profile_ns`] for one kernel).
    pub fn span_ns(&self) -> Result<u64> {
        self.wait()?;
        let q = Error::cl("clGetEventProfilingInfo");
        let start = self.first_raw().profiling_command_start().map_err(&q)?;
        let end = self.last.profiling_command_end().map_err(&q)?;
        Ok(end.saturating_sub(start))
    }

    /// This event, the last of a launch whose first kernel's event is `first`.
    pub(crate) fn after(mut self, first: Event) -> Event {
        self.first = Some(first.first.unwrap_or(first.last));
        self
    }

    /// The underlying `opencl3` event, for interoperation: the launch's last kernel's.
    pub fn raw(&self) -> &ClEvent {
        &self.last
    }

    /// The event of the launch's first kernel (the same as [`Event::raw`] for a launch of
    /// one kernel): with [`Event::raw`], the span of a launch of several.
    pub fn first_raw(&self) -> &ClEvent {
        self.first.as_ref().unwrap_or(&self.last)
    }
}

impl Context {
    /// Checks a launch configuration against the device limits: 1 to 3 non-zero global
    /// sizes; local sizes (if given) non-zero, within the per-dimension and work-group
    /// maxima and dividing the global sizes; `local_mem_bytes` within the device's local memory.
    pub fn check_launch(
        &self,
        global: &[usize],
        local: Option<&[usize]>,
        local_mem_bytes: usize,
    ) -> Result<()> {
        let info = self.device_info();
        let dims = global.len();
        let max_dims = info.max_work_item_sizes.len().clamp(1, 3);
        if !(1..=max_dims).contains(&dims) {
            return Err(Error::launch(format!(
                "global size has {dims} dimensions; the device supports 1 to {max_dims}"
            )));
        }
        if let Some(d) = global.iter().position(|&g| g == 0) {
            return Err(Error::launch(format!(
                "global size is 0 in dimension {d}: nothing to launch"
            )));
        }
        if let Some(local) = local {
            check_local(info, global, local)?;
        }
        if local_mem_bytes as u64 > info.local_mem_bytes {
            return Err(Error::launch(format!(
                "{local_mem_bytes} bytes of local memory requested, the device `{}` has {}",
                info.name, info.local_mem_bytes
            )));
        }
        Ok(())
    }
}

/// The local-size part of [`Context::check_launch`].
fn check_local(info: &crate::DeviceInfo, global: &[usize], local: &[usize]) -> Result<()> {
    if local.len() != global.len() {
        return Err(Error::launch(format!(
            "local size has {} dimensions but global size has {}",
            local.len(),
            global.len()
        )));
    }
    for (d, (&g, &l)) in global.iter().zip(local).enumerate() {
        let max = info.max_work_item_sizes.get(d).copied().unwrap_or(1);
        if l == 0 {
            return Err(Error::launch(format!("local size is 0 in dimension {d}")));
        }
        if l > max {
            return Err(Error::launch(format!(
                "local size {l} in dimension {d} exceeds the device maximum {max} (`{}`)",
                info.name
            )));
        }
        if g % l != 0 {
            return Err(Error::launch(format!(
                "global size {g} in dimension {d} is not a multiple of local size {l}"
            )));
        }
    }
    let group = local.iter().try_fold(1usize, |acc, &l| acc.checked_mul(l));
    match group {
        Some(n) if n <= info.max_work_group_size => Ok(()),
        _ => Err(Error::launch(format!(
            "work-group of {} = {} work-items exceeds the device maximum {} (`{}`)",
            local
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join("x"),
            group.map_or_else(|| "too many".to_string(), |n| n.to_string()),
            info.max_work_group_size,
            info.name
        ))),
    }
}
