//! The [`Context`]: one device, its OpenCL context, an in-order profiling queue and the
//! program cache.

use crate::device::{self, DeviceInfo};
use crate::error::{Error, Result};
use crate::program::ProgramCache;
use opencl3::command_queue::{CommandQueue, CL_QUEUE_PROFILING_ENABLE};
use opencl3::context::Context as ClContext;
use opencl3::device::Device;
use std::sync::Arc;

/// The environment variable that [`Context::new`] reads to choose a device.
pub const DEVICE_ENV: &str = "LIFT_DEVICE";

/// A device with its OpenCL context, command queue and program cache.
///
/// Cloning is cheap and shares everything (including the cache). `Context` is `Send + Sync`.
#[derive(Clone)]
pub struct Context {
    inner: Arc<Inner>,
}

/// The shared state behind a [`Context`]. Field order is drop order: queue before context.
struct Inner {
    queue: CommandQueue,
    context: ClContext,
    device: Device,
    info: DeviceInfo,
    cache: ProgramCache,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("device", &self.inner.info)
            .finish_non_exhaustive()
    }
}

impl Context {
    /// Opens the device named by `LIFT_DEVICE` (`cpu`, `gpu`, an index into [`devices`](crate::devices),
    /// or a case-insensitive substring of the device name), else the first GPU, else the first device.
    ///
    /// Fails with [`Error::NoPlatform`] (saying how to install one) when OpenCL is missing and
    /// with [`Error::DeviceNotFound`] when `LIFT_DEVICE` matches nothing.
    pub fn new() -> Result<Context> {
        let selector = std::env::var_os(DEVICE_ENV)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Context::with_selector(&selector)
    }

    /// Opens the device chosen by `selector`, with the same syntax as `LIFT_DEVICE`
    /// (an empty selector means the default choice).
    pub fn with_selector(selector: &str) -> Result<Context> {
        let (info, device) = device::select(selector)?;
        let context = ClContext::from_device(&device).map_err(Error::cl("clCreateContext"))?;
        // OpenCL 2.0+ entry point first, the 1.2 one for older drivers.
        // SAFETY: `device` is the context's only device.
        let queue = unsafe {
            CommandQueue::create_with_properties(
                &context,
                device.id(),
                CL_QUEUE_PROFILING_ENABLE,
                0,
            )
            .or_else(|_| CommandQueue::create(&context, device.id(), CL_QUEUE_PROFILING_ENABLE))
        }
        .map_err(Error::cl("clCreateCommandQueue"))?;
        Ok(Context {
            inner: Arc::new(Inner {
                queue,
                context,
                device,
                info,
                cache: ProgramCache::default(),
            }),
        })
    }

    /// What the chosen device is and its limits.
    pub fn device_info(&self) -> &DeviceInfo {
        &self.inner.info
    }

    /// The underlying `opencl3` context, for interoperation.
    pub fn cl_context(&self) -> &ClContext {
        &self.inner.context
    }

    /// The underlying `opencl3` device, for interoperation.
    pub fn cl_device(&self) -> &Device {
        &self.inner.device
    }

    /// The in-order, profiling-enabled `opencl3` command queue all operations go through.
    pub fn cl_queue(&self) -> &CommandQueue {
        &self.inner.queue
    }

    /// Blocks until every command enqueued so far has finished.
    pub fn finish(&self) -> Result<()> {
        self.inner.queue.finish().map_err(Error::cl("clFinish"))
    }

    /// The program cache of this context (shared by its clones).
    pub(crate) fn cache(&self) -> &ProgramCache {
        &self.inner.cache
    }
}
