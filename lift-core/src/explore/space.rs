//! Tuning parameters and their constraints (thesis chapter 4): each strategy names its free
//! choices, the ranges they are drawn from, and the constraints that make a configuration
//! valid. Constraints come from the program (the divisibility that `split` and `as_vector`
//! require of the tile sizes, consistency between tiles and work-groups) and from the device
//! model ([`crate::device::DeviceModel`]; by default bounds that hold on every OpenCL device:
//! at most 256 work-items per group, 16 KiB of local memory, a private-memory budget of 64
//! accumulators per work-item, `float4` loads; row reductions also try groups of 1024); the
//! device's own limits are checked again at launch, where the runtime skips a candidate that
//! does not fit. The functions without a model take [`DeviceModel::DEFAULT`].
//!
//! Only valid configurations are enumerated; [`valid_fraction`] reports how rare they are
//! among configurations drawn uniformly from the ranges (the thesis found 1 in 49,000 for its
//! matrix multiplication).

use crate::device::DeviceModel;
use crate::rewrite::blocking::{Blocking, Edge};

/// Ranges of the blocking parameters (`tm`, `tn`, `tk`, `l0`, `l1`, `v`).
pub const BLOCKING_RANGES: [&[i64]; 6] = [
    &[8, 16, 32, 64, 128, 256],
    &[8, 16, 32, 64, 128, 256],
    &[1, 2, 4, 8, 16, 32, 64],
    &[1, 2, 4, 8, 16, 32],
    &[1, 2, 4, 8, 16, 32],
    &[1, 2, 4, 8],
];

/// Most work-items per group every device supports ([`DeviceModel::DEFAULT`]'s group).
pub const MAX_GROUP: i64 = DeviceModel::DEFAULT.preferred_work_group;
/// Local memory every OpenCL device has (bytes; [`DeviceModel::DEFAULT`]'s).
pub const MIN_LOCAL_BYTES: i64 = DeviceModel::DEFAULT.local_mem_bytes;
/// Private accumulators per work-item beyond which registers spill on every device we know
/// ([`DeviceModel::DEFAULT`]'s).
pub const MAX_ACCUMULATORS: i64 = DeviceModel::DEFAULT.max_accumulators;
/// The fewest SIMD units' worth of work-items in a blocking's group: two, so that a group's
/// staging loads and its arithmetic can overlap between units ([`DeviceModel::simd_width`];
/// 64 work-items on the default model).
const MIN_BLOCKING_UNITS: i64 = 2;

/// [`blocking_valid_for`] the default model.
pub fn blocking_valid(b: &Blocking) -> bool {
    blocking_valid_for(b, &DeviceModel::DEFAULT)
}

/// Is the blocking valid on `device`: consistent sizes (`l1 | tm`, `l0 v | tn`, `v | tk`), a
/// work-group of at most the model's [`group`](DeviceModel::group) with at least
/// [`MIN_BLOCKING_UNITS`] SIMD widths of work-items, local memory within the
/// model's for f32, at most its accumulators per work-item, its vector width (default 4,
/// float4 loads), and every work-item staging at least one element per step (`tk >= l0`,
/// `tk >= l1`: `tk` rows go to dimension 1 of the group when `C` is staged and columns to
/// dimension 0 when `A` is; the space takes `tk = l0 = l1`, a property of the staging
/// code, not of the device).
pub fn blocking_valid_for(b: &Blocking, device: &DeviceModel) -> bool {
    let group = b.l0 * b.l1;
    b.is_consistent()
        && (MIN_BLOCKING_UNITS * device.simd_width..=device.group()).contains(&group)
        // 4: the bytes of an f32 (the blocked strategy stages f32 tiles).
        && b.local_elems() * 4 <= device.local_mem_bytes
        && b.accumulators() <= device.max_accumulators
        && b.v == device.preferred_vector_width_f32
        && b.tk == b.l0
        && b.tk == b.l1
}

/// Every configuration of the ranges, in a fixed order.
fn all_blockings() -> Vec<Blocking> {
    let [tms, tns, tks, l0s, l1s, vs] = BLOCKING_RANGES;
    let mut out = Vec::new();
    for &tm in tms {
        for &tn in tns {
            for &tk in tks {
                for &l0 in l0s {
                    for &l1 in l1s {
                        for &v in vs {
                            out.push(Blocking {
                                tm,
                                tn,
                                tk,
                                l0,
                                l1,
                                v,
                                edge: Edge::Exact,
                                pad_k: false,
                                unroll: false,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// [`blockings_for`] the default model.
pub fn blockings() -> Vec<Blocking> {
    blockings_for(&DeviceModel::DEFAULT)
}

/// The valid blockings on `device`, most work per work-item first (larger register blocks amortise the
/// local-memory reads; the tuner decides among them), then larger work-groups (more
/// work-items to hide latency with), then squarer blocks; each with its slice steps looped
/// and then unrolled (`unroll`), each of those exact, covered (the last blocks shifted back,
/// for lengths the blocks do not divide), covered with the shared dimension zero-padded
/// (where the fold allows it), and padded in every dimension (any size: lengths shorter
/// than a block too).
pub fn blockings_for(device: &DeviceModel) -> Vec<Blocking> {
    let mut valid: Vec<Blocking> = all_blockings()
        .into_iter()
        .filter(|b| blocking_valid_for(b, device))
        .collect();
    valid.sort_by_key(|b| {
        (
            -b.accumulators(),
            -(b.l0 * b.l1),
            (b.tm - b.tn).abs(),
            -(b.tm * b.tn),
        )
    });
    valid
        .into_iter()
        .flat_map(|b| [b, Blocking { unroll: true, ..b }])
        .flat_map(|b| {
            let covered = Blocking {
                edge: Edge::Cover,
                ..b
            };
            [
                b,
                covered,
                Blocking {
                    pad_k: true,
                    ..covered
                },
                Blocking {
                    edge: Edge::Pad,
                    pad_k: true,
                    ..b
                },
            ]
        })
        .collect()
}

/// `(valid, total)` configurations of the blocking ranges.
pub fn valid_fraction() -> (usize, usize) {
    let all = all_blockings();
    let valid = all.iter().filter(|b| blocking_valid(b)).count();
    (valid, all.len())
}

/// Strip configurations `(s, pad)`, in order of preference.
pub fn strips() -> Vec<(i64, bool)> {
    super::strips::STRIP_LENGTHS
        .iter()
        .rev()
        .flat_map(|&s| [(s, false), (s, true)])
        .collect()
}

/// The sliding strips (length, padded) of a 1-D stencil, shortest first, each exact then
/// padded.
pub fn slides_shortest_first() -> Vec<(i64, bool)> {
    super::slides::SLIDE_STRIPS
        .iter()
        .flat_map(|&s| [(s, false), (s, true)])
        .collect()
}

/// The sliding strips (length, padded) of a 2-D or 3-D stencil, longest first, each exact
/// then padded.
pub fn slides() -> Vec<(i64, bool)> {
    super::slides::SLIDE_STRIPS
        .iter()
        .rev()
        .flat_map(|&s| [(s, false), (s, true)])
        .collect()
}

/// Slice counts of partial products (split-K, [`crate::rewrite::partial`]): each multiplies
/// a product's work-groups by itself and adds a pass over `s` times its result.
pub fn splits() -> Vec<i64> {
    vec![2, 4, 8, 16, 32]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_blockings_are_few_and_consistent() {
        let (valid, total) = valid_fraction();
        assert!(valid >= 4 && valid * 100 < total, "{valid} of {total}");
        for b in blockings() {
            assert!(blocking_valid(&b), "{b:?}");
        }
        // The 128 x 128 blocks of 16 x 16 groups (8 x 8 accumulators) are among them.
        assert!(blockings()
            .iter()
            .any(|b| b.tm == 128 && b.tn == 128 && b.l0 == 16));
    }
}
