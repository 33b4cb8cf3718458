//! What the compiler assumes of the device it compiles for (issue 35, item 4).
//!
//! The explorer and the code generator take their device facts from one [`DeviceModel`]:
//! the work-group sizes they generate and the largest they may, the local memory a blocking
//! may stage, the registers' budget of accumulators, the vector width of blocked loads, and
//! the SIMD width and bank count of the local-memory bank-conflict model. At build time (the
//! `lift!` macro, [`crate::driver::compile_kernel`]) no device is known and the compiler
//! assumes [`DeviceModel::DEFAULT`]; `lift_runtime::device_model` reads one from an OpenCL
//! device, and [`crate::driver::compile_kernel_for`] compiles for it.
//!
//! Every launch is still checked against the device's own limits at run time (the runtime
//! skips a candidate that does not fit): the model decides what is explored, not what is
//! allowed to run.

/// The device facts the explorer and the code generator read. All sizes are in work-items,
/// bytes or 32-bit words; [`DeviceModel::DEFAULT`] is the build-time assumption.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct DeviceModel {
    /// Work-items that execute in lock-step (an NVIDIA warp, an AMD wavefront, a sub-group):
    /// the lanes over which [`crate::codegen`]'s bank-conflict model counts the words one
    /// local-memory request touches.
    pub simd_width: i64,
    /// Banks of local memory, each serving one 32-bit word per cycle (bank-conflict model).
    pub local_mem_banks: i64,
    /// Local memory per work-group, in bytes: a blocking whose staged tiles exceed it is not
    /// explored.
    pub local_mem_bytes: i64,
    /// The work-group size the explorer prefers where it chooses one (row and full
    /// reductions, the larger `lanes` of the parallel mappings) and the largest group of a
    /// blocking; a power of two, at most [`Self::max_work_group`].
    pub preferred_work_group: i64,
    /// The largest work-group the device runs: row reductions also try groups of this many
    /// work-items; no candidate with a larger group is explored.
    pub max_work_group: i64,
    /// Compute units (streaming multiprocessors, compute units): how many work-groups run at
    /// once. Not read by the explorer (the runtime's untuned choice reads the device's own);
    /// carried so that one model describes a device.
    pub compute_units: i64,
    /// The float vector width of the blocked strategy's loads and stores (4: `float4`,
    /// 16-byte accesses, which GPUs serve in one transaction).
    pub preferred_vector_width_f32: i64,
    /// Private accumulators per work-item beyond which registers spill (the blocked
    /// strategy's register block `tm tn / (l0 l1)` is at most this).
    pub max_accumulators: i64,
}

impl DeviceModel {
    /// The build-time assumption: a GPU with 32-wide SIMD and 32 banks of local memory (every
    /// NVIDIA GPU since Fermi, AMD's RDNA in wave32), 16 KiB of local memory per group (the
    /// least a device offers: a blocking that fits it fits everywhere), groups of 256
    /// work-items preferred and up to 1024 (row reductions try both; a device whose groups
    /// are smaller skips the larger at launch), 132 compute units (the H100 of the
    /// benchmarks; not read by the explorer), `float4` loads, 64 accumulators per work-item.
    /// Compiling with it gives exactly the candidates the compiler derived before there was
    /// a model.
    pub const DEFAULT: DeviceModel = DeviceModel {
        simd_width: 32,
        local_mem_banks: 32,
        local_mem_bytes: 16 * 1024,
        preferred_work_group: 256,
        max_work_group: 1024,
        compute_units: 132,
        preferred_vector_width_f32: 4,
        max_accumulators: 64,
    };

    /// The work-group size of reductions and of the larger parallel mapping: the preferred
    /// one, within the device's maximum (a power of two).
    pub fn group(&self) -> i64 {
        floor_pow2(self.preferred_work_group.min(self.max_work_group))
    }

    /// The largest work-group the device runs that is a power of two.
    pub fn largest_group(&self) -> i64 {
        floor_pow2(self.max_work_group)
    }

    /// The work-groups sizes row reductions try: [`Self::group`], then the largest the device
    /// runs (a power of two) if larger.
    pub fn row_groups(&self) -> Vec<i64> {
        let (first, max) = (self.group(), self.largest_group());
        if max > first {
            vec![first, max]
        } else {
            vec![first]
        }
    }
}

impl Default for DeviceModel {
    fn default() -> DeviceModel {
        DeviceModel::DEFAULT
    }
}

/// [`DeviceModel::DEFAULT`], the build-time assumption.
pub fn default_model() -> DeviceModel {
    DeviceModel::DEFAULT
}

/// The largest power of two at most `n` (1 for `n < 2`).
fn floor_pow2(n: i64) -> i64 {
    let mut p = 1;
    while p * 2 <= n {
        p *= 2;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_groups_are_256_then_1024() {
        let d = DeviceModel::DEFAULT;
        assert_eq!(d.group(), 256);
        assert_eq!(d.row_groups(), [256, 1024]);
        let small = DeviceModel {
            max_work_group: 128,
            ..d
        };
        assert_eq!(small.group(), 128);
        assert_eq!(small.row_groups(), [128]);
        let odd = DeviceModel {
            max_work_group: 768,
            ..d
        };
        assert_eq!(odd.row_groups(), [256, 512]);
    }
}
