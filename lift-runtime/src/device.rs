//! Listing OpenCL devices and choosing one from a selector string.

use crate::error::{Error, Result};
use opencl3::device::{
    Device, CL_DEVICE_NOT_FOUND, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_ALL,
    CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU,
};
use opencl3::error_codes::{DLOPEN_FUNCTION_NOT_AVAILABLE, DLOPEN_RUNTIME_LOAD_FAILED};
use opencl3::platform::get_platforms;
use std::fmt;
use std::sync::Mutex;

/// `CL_PLATFORM_NOT_FOUND_KHR`: the ICD loader found no vendor driver.
const CL_PLATFORM_NOT_FOUND_KHR: i32 = -1001;

/// The kind of an OpenCL device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeviceKind {
    /// A CPU device (e.g. POCL).
    Cpu,
    /// A GPU.
    Gpu,
    /// A dedicated accelerator.
    Accelerator,
    /// Any other (custom) device type.
    Other,
}

impl fmt::Display for DeviceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeviceKind::Cpu => "CPU",
            DeviceKind::Gpu => "GPU",
            DeviceKind::Accelerator => "accelerator",
            DeviceKind::Other => "other",
        })
    }
}

/// What the runtime knows about one device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Position in the listing of all devices of all platforms (what `LIFT_DEVICE=3` means).
    pub index: usize,
    /// The platform's name, e.g. `Portable Computing Language`.
    pub platform: String,
    /// The device's name.
    pub name: String,
    /// The device's vendor.
    pub vendor: String,
    /// The OpenCL version the device reports, e.g. `OpenCL 3.0 PoCL ...`.
    pub version: String,
    /// CPU, GPU, ...
    pub kind: DeviceKind,
    /// Number of compute units.
    pub compute_units: u32,
    /// Largest work-group (product of local sizes) the device accepts.
    pub max_work_group_size: usize,
    /// Largest local size per dimension.
    pub max_work_item_sizes: Vec<usize>,
    /// Local (work-group shared) memory in bytes.
    pub local_mem_bytes: u64,
    /// Global memory in bytes.
    pub global_mem_bytes: u64,
    /// Largest single buffer in bytes.
    pub max_alloc_bytes: u64,
    /// Whether `double` is supported (`cl_khr_fp64`).
    pub fp64: bool,
    /// Whether `half` arithmetic is supported (`cl_khr_fp16`).
    pub fp16: bool,
}

impl fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} / {} ({}, {} compute units)",
            self.index, self.platform, self.name, self.kind, self.compute_units
        )
    }
}

impl DeviceInfo {
    /// Queries the device's properties.
    fn query(index: usize, platform: String, device: &Device) -> Result<DeviceInfo> {
        let q = |call| Error::cl(call);
        let ty = device.dev_type().map_err(q("clGetDeviceInfo"))?;
        let kind = if ty & CL_DEVICE_TYPE_GPU != 0 {
            DeviceKind::Gpu
        } else if ty & CL_DEVICE_TYPE_CPU != 0 {
            DeviceKind::Cpu
        } else if ty & CL_DEVICE_TYPE_ACCELERATOR != 0 {
            DeviceKind::Accelerator
        } else {
            DeviceKind::Other
        };
        let extensions = device.extensions().map_err(q("clGetDeviceInfo"))?;
        let has = |ext: &str| extensions.split_whitespace().any(|e| e == ext);
        Ok(DeviceInfo {
            index,
            platform,
            name: device.name().map_err(q("clGetDeviceInfo"))?,
            vendor: device.vendor().map_err(q("clGetDeviceInfo"))?,
            version: device.version().map_err(q("clGetDeviceInfo"))?,
            kind,
            compute_units: device.max_compute_units().map_err(q("clGetDeviceInfo"))?,
            max_work_group_size: device.max_work_group_size().map_err(q("clGetDeviceInfo"))?,
            max_work_item_sizes: device.max_work_item_sizes().map_err(q("clGetDeviceInfo"))?,
            local_mem_bytes: device.local_mem_size().map_err(q("clGetDeviceInfo"))?,
            global_mem_bytes: device.global_mem_size().map_err(q("clGetDeviceInfo"))?,
            max_alloc_bytes: device.max_mem_alloc_size().map_err(q("clGetDeviceInfo"))?,
            fp64: has("cl_khr_fp64"),
            fp16: has("cl_khr_fp16"),
        })
    }
}

/// Every device of every platform, in the order `LIFT_DEVICE=<index>` counts them.
///
/// Fails with [`Error::NoPlatform`] when no OpenCL loader or platform is installed.
pub fn devices() -> Result<Vec<DeviceInfo>> {
    Ok(all_devices()?.into_iter().map(|(info, _)| info).collect())
}

/// Every device with its handle.
pub(crate) fn all_devices() -> Result<Vec<(DeviceInfo, Device)>> {
    // Some drivers (POCL) initialise lazily and report no device to a second thread that
    // enumerates while the first is still initialising; enumerate one thread at a time.
    static ENUMERATING: Mutex<()> = Mutex::new(());
    let _guard = ENUMERATING.lock().unwrap_or_else(|p| p.into_inner());
    let platforms = get_platforms().map_err(|e| match e.0 {
        DLOPEN_RUNTIME_LOAD_FAILED | DLOPEN_FUNCTION_NOT_AVAILABLE => Error::NoPlatform {
            reason: "the OpenCL loader libOpenCL.so.1 could not be loaded".into(),
        },
        CL_PLATFORM_NOT_FOUND_KHR => Error::NoPlatform {
            reason: "the OpenCL loader found no platform (no ICD file in /etc/OpenCL/vendors)"
                .into(),
        },
        code => Error::Cl {
            call: "clGetPlatformIDs",
            code,
        },
    })?;
    let mut out = Vec::new();
    for platform in &platforms {
        let platform_name = platform.name().map_err(Error::cl("clGetPlatformInfo"))?;
        let ids = match platform.get_devices(CL_DEVICE_TYPE_ALL) {
            Ok(ids) => ids,
            Err(e) if e.0 == CL_DEVICE_NOT_FOUND => continue,
            Err(e) => return Err(Error::cl("clGetDeviceIDs")(e)),
        };
        for id in ids {
            let device = Device::new(id);
            let info = DeviceInfo::query(out.len(), platform_name.clone(), &device)?;
            out.push((info, device));
        }
    }
    if out.is_empty() {
        return Err(Error::NoPlatform {
            reason: format!("{} platform(s) but no device", platforms.len()),
        });
    }
    Ok(out)
}

/// Picks a device by selector: `cpu`, `gpu`, a decimal index, or a case-insensitive
/// substring of the device name; an empty selector means the first GPU, else the first device.
pub(crate) fn select(selector: &str) -> Result<(DeviceInfo, Device)> {
    let mut devices = all_devices()?;
    let sel = selector.trim();
    let lower = sel.to_lowercase();
    let pos = if sel.is_empty() {
        devices
            .iter()
            .position(|(d, _)| d.kind == DeviceKind::Gpu)
            .or(Some(0))
    } else if lower == "cpu" {
        devices.iter().position(|(d, _)| d.kind == DeviceKind::Cpu)
    } else if lower == "gpu" {
        devices.iter().position(|(d, _)| d.kind == DeviceKind::Gpu)
    } else if let Ok(index) = sel.parse::<usize>() {
        (index < devices.len()).then_some(index)
    } else {
        devices
            .iter()
            .position(|(d, _)| d.name.to_lowercase().contains(&lower))
    };
    match pos {
        // `pos` came from a search of `devices`, so it is in bounds.
        Some(i) => Ok(devices.swap_remove(i)),
        None => Err(Error::DeviceNotFound {
            selector: selector.to_string(),
            available: devices.iter().map(|(d, _)| d.to_string()).collect(),
        }),
    }
}
