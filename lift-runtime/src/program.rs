//! Building OpenCL programs, with a per-context cache.

use crate::context::Context;
use crate::error::{Error, Result};
use crate::launch::KernelHandle;
use opencl3::error_codes::CL_BUILD_PROGRAM_FAILURE;
use opencl3::kernel::Kernel;
use opencl3::program::Program;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// `CL_INVALID_KERNEL_NAME`: no kernel of that name in the program.
const CL_INVALID_KERNEL_NAME: i32 = -46;

/// Cache key: device id, source, options.
type Key = (usize, String, String);

/// A program's place in the cache: empty until a build succeeds.
type Slot = Arc<Mutex<Option<Arc<BuiltProgram>>>>;

/// Built programs of one context, keyed by (device, source, options).
#[derive(Default)]
pub(crate) struct ProgramCache {
    programs: Mutex<HashMap<Key, Slot>>,
    builds: AtomicUsize,
}

/// An OpenCL program built for a context's device.
#[derive(Debug)]
pub struct BuiltProgram {
    program: Program,
    /// Counted in [`crate::live_objects`].
    _live: crate::live::Live,
}

impl BuiltProgram {
    /// A new handle on the kernel `name`, with its own argument slots.
    ///
    /// Each call creates a separate OpenCL kernel object, so handles can be given to
    /// different threads.
    pub fn kernel(&self, name: &str) -> Result<KernelHandle> {
        if name.contains('\0') {
            return Err(Error::NulByte {
                what: "kernel name",
            });
        }
        match Kernel::create(&self.program, name) {
            Ok(kernel) => KernelHandle::new(kernel),
            Err(e) if e.0 == CL_INVALID_KERNEL_NAME => Err(Error::KernelNotFound {
                name: name.to_string(),
                available: self.kernel_names().to_string(),
            }),
            Err(e) => Err(Error::cl("clCreateKernel")(e)),
        }
    }

    /// The program's kernel names, separated by `;`.
    pub fn kernel_names(&self) -> &str {
        self.program.kernel_names()
    }

    /// The underlying `opencl3` program, for interoperation.
    pub fn raw(&self) -> &Program {
        &self.program
    }
}

impl Context {
    /// Builds `source` with compiler `options` for this context's device, or returns the
    /// program built earlier from the same source and options (builds that failed are not cached).
    ///
    /// A compile error is [`Error::Build`], carrying the build log and the source.
    pub fn build(&self, source: &str, options: &str) -> Result<Arc<BuiltProgram>> {
        if options.contains('\0') {
            return Err(Error::NulByte {
                what: "build options",
            });
        }
        let device = self.cl_device().id();
        let key: Key = (device as usize, source.to_string(), options.to_string());
        // Each program has its own slot: threads building different programs (the tuner's
        // checks) build at once; a thread asking for a program being built waits for it.
        // A poisoned lock only means another thread panicked mid-build; the data is intact.
        let cache = self.cache();
        let slot = Arc::clone(
            cache
                .programs
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .entry(key)
                .or_default(),
        );
        let mut slot = slot.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(built) = &*slot {
            return Ok(Arc::clone(built));
        }
        let mut program = Program::create_from_source(self.cl_context(), source)
            .map_err(Error::cl("clCreateProgramWithSource"))?;
        cache.builds.fetch_add(1, Ordering::Relaxed);
        if let Err(e) = program.build(&[device], options) {
            return Err(if e.0 == CL_BUILD_PROGRAM_FAILURE {
                Error::Build {
                    log: program
                        .get_build_log(device)
                        .map_err(Error::cl("clGetProgramBuildInfo"))?,
                    src: source.to_string(),
                }
            } else {
                Error::cl("clBuildProgram")(e)
            });
        }
        let built = Arc::new(BuiltProgram {
            program,
            _live: crate::live::Live::new(crate::live::Kind::Program),
        });
        *slot = Some(Arc::clone(&built));
        Ok(built)
    }

    /// How many times this context (and its clones) invoked the OpenCL compiler.
    pub fn builds(&self) -> usize {
        self.cache().builds.load(Ordering::Relaxed)
    }
}
