//! Counts of the OpenCL objects the runtime holds, for leak checks (issue 38: the soak test in
//! `tests/src/soak.rs` checks that builds, launches and drops leave none behind).
//!
//! Every handle the runtime makes carries a [`Live`] marker: one [`Context`](crate::Context)'s
//! shared state (its OpenCL context and queue, counted once however often it is cloned), a
//! built program ([`BuiltProgram`](crate::BuiltProgram)), a kernel object
//! ([`KernelHandle`](crate::KernelHandle)), a device buffer ([`Buffer`](crate::Buffer)) and a
//! launch's event ([`Event`](crate::Event)). The marker increments a process-wide counter when
//! the handle is made and decrements it when the handle is dropped, so
//! [`live_objects`] tells how many of each are alive now. Programs stay alive in their
//! context's cache until the context is dropped. Objects made through the `raw` accessors
//! with `opencl3` directly are not counted. The cost is one relaxed atomic add per handle.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many runtime handles of each kind are alive in this process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveObjects {
    /// Contexts (one OpenCL context and command queue each, shared by the clones).
    pub contexts: usize,
    /// Built OpenCL programs (kept in their context's cache).
    pub programs: usize,
    /// OpenCL kernel objects ([`KernelHandle`](crate::KernelHandle)s).
    pub kernels: usize,
    /// Device buffers ([`Buffer`](crate::Buffer)s).
    pub buffers: usize,
    /// Launch events ([`Event`](crate::Event)s).
    pub events: usize,
}

impl LiveObjects {
    /// All of them together.
    pub fn total(&self) -> usize {
        self.contexts + self.programs + self.kernels + self.buffers + self.events
    }
}

impl fmt::Display for LiveObjects {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} contexts, {} programs, {} kernels, {} buffers, {} events",
            self.contexts, self.programs, self.kernels, self.buffers, self.events
        )
    }
}

/// The kinds of handle counted.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    Context = 0,
    Program = 1,
    Kernel = 2,
    Buffer = 3,
    Event = 4,
}

/// The live count of each [`Kind`].
static LIVE: [AtomicUsize; 5] = [const { AtomicUsize::new(0) }; 5];

/// A marker held by a handle of one kind: counted from its creation to its drop.
#[derive(Debug)]
pub(crate) struct Live(Kind);

impl Live {
    /// Counts a new handle of `kind`.
    pub(crate) fn new(kind: Kind) -> Live {
        LIVE[kind as usize].fetch_add(1, Ordering::Relaxed);
        Live(kind)
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        LIVE[self.0 as usize].fetch_sub(1, Ordering::Relaxed);
    }
}

/// How many runtime handles of each kind are alive now (see the [module docs](self)).
pub fn live_objects() -> LiveObjects {
    let n = |k: Kind| LIVE[k as usize].load(Ordering::Relaxed);
    LiveObjects {
        contexts: n(Kind::Context),
        programs: n(Kind::Program),
        kernels: n(Kind::Kernel),
        buffers: n(Kind::Buffer),
        events: n(Kind::Event),
    }
}
