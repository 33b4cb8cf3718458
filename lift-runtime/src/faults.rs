//! Fault injection for tests (SPEC section 6: a device that fails is an error naming it).
//! The runtime checks three points of every run on a device: where a run's buffers are
//! allocated (its arguments uploaded), where its kernels are launched and where its result
//! is read back. Built without the feature `fault-injection` (the tests crate enables it
//! from its dev-dependency only), [`check`] is an empty inline function: normal builds pay
//! nothing. With it, a test arms a point for one context on its own thread
//! ([`inject`]), and every run there fails as the device would until the guard is dropped.

/// A point where a run on a device can fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    /// Allocating a run's buffers (its arguments uploaded): the device out of memory.
    Upload,
    /// Launching its kernels: the device out of resources.
    Launch,
    /// Reading its result back: the device lost.
    Read,
}

impl Point {
    /// The error a device reports at this point.
    #[cfg_attr(not(feature = "fault-injection"), allow(dead_code))]
    fn error(self) -> crate::Error {
        let (call, code) = match self {
            // CL_MEM_OBJECT_ALLOCATION_FAILURE
            Point::Upload => ("clCreateBuffer", -4),
            // CL_OUT_OF_RESOURCES
            Point::Launch => ("clEnqueueNDRangeKernel", -5),
            // CL_DEVICE_NOT_AVAILABLE
            Point::Read => ("clEnqueueReadBuffer", -2),
        };
        crate::Error::Cl { call, code }
    }
}

/// Fails where `point` is armed for `ctx` on this thread; always `Ok` without the feature.
#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub(crate) fn check(_point: Point, _ctx: &crate::Context) -> crate::Result<()> {
    Ok(())
}

#[cfg(feature = "fault-injection")]
pub(crate) use armed::check;
#[cfg(feature = "fault-injection")]
pub use armed::{inject, Fault};

#[cfg(feature = "fault-injection")]
mod armed {
    use super::Point;
    use crate::{Context, Result};
    use std::cell::RefCell;

    thread_local! {
        /// The armed points of this thread, with the context each is armed for.
        static ARMED: RefCell<Vec<(Point, usize)>> = const { RefCell::new(Vec::new()) };
    }

    /// The identity of a context's OpenCL context (shared by its clones).
    fn key(ctx: &Context) -> usize {
        ctx.cl_context().get() as usize
    }

    /// An armed point; dropping it disarms the point.
    #[derive(Debug)]
    #[must_use = "the point is disarmed when the guard is dropped"]
    pub struct Fault {
        point: Point,
        key: usize,
    }

    impl Drop for Fault {
        fn drop(&mut self) {
            ARMED.with(|a| {
                let mut a = a.borrow_mut();
                if let Some(i) = a.iter().position(|&x| x == (self.point, self.key)) {
                    a.remove(i);
                }
            });
        }
    }

    /// Arms `point` for the context `ctx` (and its clones) on this thread: every run there
    /// fails at that point, as the device would, until the guard is dropped.
    pub fn inject(point: Point, ctx: &Context) -> Fault {
        let key = key(ctx);
        ARMED.with(|a| a.borrow_mut().push((point, key)));
        Fault { point, key }
    }

    /// Fails where `point` is armed for `ctx` on this thread.
    pub(crate) fn check(point: Point, ctx: &Context) -> Result<()> {
        let key = key(ctx);
        match ARMED.with(|a| a.borrow().contains(&(point, key))) {
            true => Err(point.error()),
            false => Ok(()),
        }
    }
}
