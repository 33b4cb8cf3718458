//! Listing OpenCL devices, choosing one from a selector string, and the compiler's model of
//! one ([`device_model`]).

use crate::error::{Error, Result};
use lift_core::device::DeviceModel;
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

/// The [`DeviceModel`] of an OpenCL device: what the explorer assumes of it when it compiles
/// for it ([`lift_core::driver::compile_kernel_for`]). Read from the device: local memory
/// (`CL_DEVICE_LOCAL_MEM_SIZE`), the largest work-group (`CL_DEVICE_MAX_WORK_GROUP_SIZE`),
/// compute units (`CL_DEVICE_MAX_COMPUTE_UNITS`), the float vector width
/// (`CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT`, within 4 to 8: GPUs that report 1, NVIDIA's,
/// still serve `float4` loads in one transaction, and the blocked strategy tries widths up
/// to 8), the SIMD width (NVIDIA's warp, `CL_DEVICE_WARP_SIZE_NV`; AMD's wavefront,
/// `CL_DEVICE_WAVEFRONT_WIDTH_AMD`; a CPU's native float vector width; else 32) and the banks
/// of local memory (`CL_DEVICE_LOCAL_MEM_BANKS_AMD`, else 32). What a device does not report
/// is [`DeviceModel::DEFAULT`]'s. (`CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE`, the SIMD
/// width other drivers report, needs a built kernel: not read here.)
pub fn device_model(device: &Device) -> DeviceModel {
    let d = DeviceModel::DEFAULT;
    let int = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    let extensions = device.extensions().unwrap_or_default();
    let has = |ext: &str| extensions.split_whitespace().any(|e| e == ext);
    let cpu = device.dev_type().is_ok_and(|t| t & CL_DEVICE_TYPE_CPU != 0);
    let simd = if has("cl_nv_device_attribute_query") {
        device.wrap_size_nv().ok()
    } else if has("cl_amd_device_attribute_query") {
        device.wavefront_width_amd().ok()
    } else if cpu {
        device.native_vector_width_float().ok()
    } else {
        None
    };
    let banks = has("cl_amd_device_attribute_query")
        .then(|| device.local_mem_banks_amd().ok())
        .flatten();
    let positive = |v: Option<u64>, default: i64| v.map(int).filter(|&v| v > 0).unwrap_or(default);
    let max_work_group = positive(
        device.max_work_group_size().ok().map(|v| v as u64),
        d.max_work_group,
    );
    DeviceModel {
        simd_width: positive(simd.map(u64::from), d.simd_width),
        local_mem_banks: positive(banks.map(u64::from), d.local_mem_banks),
        local_mem_bytes: positive(device.local_mem_size().ok(), d.local_mem_bytes),
        preferred_work_group: d.preferred_work_group.min(max_work_group),
        max_work_group,
        compute_units: positive(
            device.max_compute_units().ok().map(u64::from),
            d.compute_units,
        ),
        preferred_vector_width_f32: positive(
            device
                .max_preferred_vector_width_float()
                .ok()
                .map(u64::from),
            d.preferred_vector_width_f32,
        )
        .clamp(4, 8),
        max_accumulators: d.max_accumulators,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On the test machine's device (POCL): the model holds what the device reports.
    #[test]
    fn the_model_of_a_device_is_what_it_reports() {
        let Ok(devs) = all_devices() else {
            eprintln!("no OpenCL device: skipped");
            return;
        };
        for (info, device) in &devs {
            let m = device_model(device);
            eprintln!("{info}: {m:?}");
            assert_eq!(m.local_mem_bytes as u64, info.local_mem_bytes, "{info}");
            assert_eq!(
                m.max_work_group as usize, info.max_work_group_size,
                "{info}"
            );
            assert_eq!(m.compute_units, i64::from(info.compute_units), "{info}");
            assert!(m.group() <= m.max_work_group && m.group() <= 256, "{m:?}");
            assert!((4..=8).contains(&m.preferred_vector_width_f32), "{m:?}");
            assert!(m.simd_width >= 1 && m.local_mem_banks == 32, "{m:?}");
            // It travels as JSON (a cache key).
            let json = serde_json::to_string(&m).expect("serialises");
            assert_eq!(serde_json::from_str::<DeviceModel>(&json).ok(), Some(m));
            // And the explorer takes it: a product compiles for it.
            let src = "kernel Mm<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|(x, y)| x * y) $ zip(r, c)) $ transpose $ b) $ a }";
            let mut prog = lift_core::parse::parse_program_str(src).expect("parses");
            lift_core::typeck::check_program(&mut prog).expect("checks");
            let c = lift_core::driver::compile_default_for(&prog, "Mm", &m).expect("compiles");
            assert!(!c.candidates.is_empty());
        }
    }
}
