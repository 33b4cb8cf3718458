//! The [`Context`]: one device, its OpenCL context, an in-order profiling queue and the
//! program cache.

use crate::device::{self, DeviceInfo};
use crate::error::{Error, Result};
use crate::program::ProgramCache;
use lift_core::device::DeviceModel;
use opencl3::command_queue::{CommandQueue, CL_QUEUE_PROFILING_ENABLE};
use opencl3::context::Context as ClContext;
use opencl3::device::Device;
use std::sync::Arc;

/// The environment variable that [`Context::new`] reads to choose a device.
pub const DEVICE_ENV: &str = "LIFT_DEVICE";

/// The environment variable that [`Context::new`] and [`Context::with_selector`] read for
/// the bound on a launch's global temporaries, in MiB ([`Context::with_temporary_limit`]).
pub const MAX_TEMPORARY_ENV: &str = "LIFT_MAX_TEMPORARY_MIB";

/// The environment variable that [`Context::new`] and [`Context::with_selector`] read for
/// the device model the compiler explores for ([`Context::device_model`]): unset, empty or
/// `device`, the device's own ([`crate::device_model`]); `default`, the build-time
/// assumption [`DeviceModel::DEFAULT`].
pub const DEVICE_MODEL_ENV: &str = "LIFT_DEVICE_MODEL";

/// A device with its OpenCL context, command queue and program cache.
///
/// Cloning is cheap and shares everything (including the cache) but the bound on global
/// temporaries and the device model, which [`Context::with_temporary_limit`] and
/// [`Context::with_device_model`] set per handle. `Context` is `Send + Sync`.
#[derive(Clone)]
pub struct Context {
    inner: Arc<Inner>,
    temporary_limit: Option<u64>,
    model: DeviceModel,
}

/// The shared state behind a [`Context`]. Field order is drop order: queue before context.
struct Inner {
    queue: CommandQueue,
    context: ClContext,
    device: Device,
    info: DeviceInfo,
    cache: ProgramCache,
    /// Counted in [`crate::live_objects`].
    _live: crate::live::Live,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("device", &self.inner.info)
            .field("temporary_limit", &self.temporary_limit)
            .field("model", &self.model)
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
    /// (an empty selector means the default choice). `LIFT_MAX_TEMPORARY_MIB`, if set,
    /// bounds the global temporaries of every launch ([`Context::with_temporary_limit`]);
    /// `LIFT_DEVICE_MODEL` chooses the device model ([`DEVICE_MODEL_ENV`]). A value of
    /// either that means nothing is an [`Error::Setting`].
    pub fn with_selector(selector: &str) -> Result<Context> {
        let temporary_limit = temporary_limit_from_env()?;
        let own_model = own_model_from_env()?;
        let (info, device) = device::select(selector)?;
        let model = match own_model {
            true => crate::device_model(&device),
            false => DeviceModel::DEFAULT,
        };
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
                _live: crate::live::Live::new(crate::live::Kind::Context),
            }),
            temporary_limit,
            model,
        })
    }

    /// This context with a bound on the global temporaries (intermediate arrays between the
    /// kernels of a candidate, in bytes) that one launch may use: `run`, `launch` and `tune`
    /// of kernels made from it consider only the candidates within it (`None`: no bound but
    /// the device's memory). The tuning cache keeps one choice per bound.
    pub fn with_temporary_limit(&self, bytes: Option<u64>) -> Context {
        Context {
            inner: Arc::clone(&self.inner),
            temporary_limit: bytes,
            model: self.model,
        }
    }

    /// This context with the compiler's device model `model`: kernels made from it explore
    /// (and tune) the candidates derived for `model` instead of the device's own, e.g.
    /// [`DeviceModel::DEFAULT`] to get the candidates the build assumed. The explorations and
    /// the tuning cache keep one entry per model. A candidate that does not fit the device
    /// is still skipped at launch.
    pub fn with_device_model(&self, model: DeviceModel) -> Context {
        Context {
            inner: Arc::clone(&self.inner),
            temporary_limit: self.temporary_limit,
            model,
        }
    }

    /// The bound on one launch's global temporaries, in bytes, if one is set.
    pub fn temporary_limit(&self) -> Option<u64> {
        self.temporary_limit
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

    /// The device model the compiler explores for on this context: the device's own
    /// ([`crate::device_model`]) unless `LIFT_DEVICE_MODEL=default` or
    /// [`Context::with_device_model`] chose another.
    pub fn device_model(&self) -> DeviceModel {
        self.model
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

/// Whether the device's own model is explored for (`LIFT_DEVICE_MODEL` unset, empty or
/// `device`) or the build-time default (`default`).
fn own_model_from_env() -> Result<bool> {
    let Some(v) = std::env::var_os(DEVICE_MODEL_ENV) else {
        return Ok(true);
    };
    match v.to_string_lossy().trim() {
        "" | "device" => Ok(true),
        "default" => Ok(false),
        other => Err(Error::Setting {
            name: DEVICE_MODEL_ENV.to_string(),
            expected: "`device` (the device's own model) or `default` (the build-time model)"
                .to_string(),
            actual: other.to_string(),
        }),
    }
}

/// The bound `LIFT_MAX_TEMPORARY_MIB` sets, in bytes (unset or empty: none).
fn temporary_limit_from_env() -> Result<Option<u64>> {
    let Some(v) = std::env::var_os(MAX_TEMPORARY_ENV) else {
        return Ok(None);
    };
    let v = v.to_string_lossy();
    if v.trim().is_empty() {
        return Ok(None);
    }
    match v.trim().parse::<f64>() {
        Ok(mib) if mib.is_finite() && mib >= 0.0 => Ok(Some((mib * 1048576.0) as u64)),
        _ => Err(Error::Setting {
            name: MAX_TEMPORARY_ENV.to_string(),
            expected: "a non-negative number of MiB".to_string(),
            actual: v.into_owned(),
        }),
    }
}
