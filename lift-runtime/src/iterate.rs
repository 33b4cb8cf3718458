//! The launches of an iterated kernel split over several devices, its data resident on them
//! ([`crate::SplitKernel::iterate`]): two sets of buffers per device used in turn, each
//! launch writing its rows into the buffer the next launch reads, then the halo rows
//! exchanged between neighbours.

use crate::dynamic::{DynKernel, Resident};
use crate::Error;
use lift_core::interp::Value;
use lift_core::partition::{self, Input};
use std::ops::Range;

/// One device of the iteration: its kernel, the rows of the result it writes, the rows of
/// the iterated parameter it reads, and whether its launches write those rows in place.
struct Slab<'k> {
    device: usize,
    kernel: &'k DynKernel,
    rows: Range<usize>,
    reads: Range<usize>,
    in_place: bool,
}

/// The time of each launch of an iteration ([`crate::SplitKernel::iterate_timed`]).
#[derive(Clone, Debug, Default)]
pub struct Steps {
    /// Per launch, milliseconds on the host clock from its enqueue to its results being
    /// where the next launch reads them (halo exchange included).
    pub step_ms: Vec<f64>,
    /// Per launch, the longest time of a device's kernels (profiling events), milliseconds.
    pub kernel_ms: Vec<f64>,
}

/// A failure, with the device (position in the set) where it happened.
type Failed = (usize, Error);

/// `steps` launches of the slabs' kernels (`(device, inputs, kernel)`, rows in order) on
/// `args`, parameter `param` iterated.
pub(crate) fn on_slabs(
    slabs: &[(usize, Vec<Input>, DynKernel)],
    args: &[Value],
    param: usize,
    steps: usize,
    timed: &mut Steps,
) -> std::result::Result<Value, Failed> {
    let Value::Array(all) = &args[param] else {
        return Err((0, Error::launch("the iterated parameter is no array")));
    };
    let n = all.len();
    let per_row = all.first().map_or(1, |r| r.flatten().len());
    let mut plan = Vec::new();
    let mut states: [Vec<Resident>; 2] = [Vec::new(), Vec::new()];
    let mut start = 0;
    for (device, inputs, kernel) in slabs {
        let fail = |e| (*device, e);
        let reads = match &inputs[param] {
            Input::Rows(r) => r.start as usize..r.end as usize,
            Input::Whole => 0..n,
        };
        let mine: Vec<Value> = args
            .iter()
            .zip(inputs)
            .map(|(a, i)| partition::slice(a, i))
            .collect();
        for set in &mut states {
            set.push(kernel.resident(&[], &mine).map_err(fail)?);
        }
        let count = match kernel.result_type().as_array() {
            Some((_, len)) => len.as_cst().unwrap_or(0) as usize,
            None => 0,
        };
        plan.push(Slab {
            device: *device,
            kernel,
            rows: start..start + count,
            reads,
            in_place: false,
        });
        start += count;
    }
    // Each launch writes its rows where the next one reads them, where the device allows.
    for (d, slab) in plan.iter_mut().enumerate() {
        let (offset, len) = (
            (slab.rows.start - slab.reads.start) * per_row,
            slab.rows.len() * per_row,
        );
        let [a, b] = &mut states;
        slab.in_place = a[d].write_into(&mut b[d], param, offset, len).is_ok();
        if slab.in_place {
            // The same offset on the same device: allowed the second time as the first.
            b[d].write_into(&mut a[d], param, offset, len)
                .map_err(|e| (slab.device, e))?;
        }
    }
    for step in 0..steps {
        let (cur, next) = match step % 2 {
            0 => {
                let [a, b] = &mut states;
                (a, b)
            }
            _ => {
                let [a, b] = &mut states;
                (b, a)
            }
        };
        let began = std::time::Instant::now();
        let events = plan
            .iter()
            .zip(cur.iter())
            .map(|(s, r)| s.kernel.launch_resident(r).map_err(|e| (s.device, e)))
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let mut longest = 0.0f64;
        for (s, ev) in plan.iter().zip(events) {
            if let Some(ev) = ev {
                let ns = ev.span_ns().map_err(|e| (s.device, e))?;
                longest = longest.max(ns as f64 / 1e6);
            }
        }
        if step + 1 < steps {
            exchange(&plan, cur, next, param, per_row)?;
        }
        timed.step_ms.push(began.elapsed().as_secs_f64() * 1e3);
        timed.kernel_ms.push(longest);
    }
    let last = &states[(steps + 1) % 2];
    let parts = plan
        .iter()
        .zip(last)
        .map(|(s, r)| s.kernel.read_resident(r).map_err(|e| (s.device, e)))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok(partition::concat(parts))
}

/// Every device's next input receives the rows it reads from the results just computed:
/// its halo from its neighbours, its own rows where they were not written in place.
fn exchange(
    plan: &[Slab<'_>],
    cur: &[Resident],
    next: &mut [Resident],
    param: usize,
    per_row: usize,
) -> std::result::Result<(), Failed> {
    for (d, to) in plan.iter().enumerate() {
        for (e, from) in plan.iter().enumerate() {
            let rows = to.reads.start.max(from.rows.start)..to.reads.end.min(from.rows.end);
            if rows.is_empty() || (d == e && to.in_place) {
                continue;
            }
            let (src, dst) = (
                (rows.start - from.rows.start) * per_row,
                (rows.start - to.reads.start) * per_row,
            );
            cur[e]
                .copy_out(src, &mut next[d], param, dst, rows.len() * per_row)
                .map_err(|err| (to.device, err))?;
        }
    }
    Ok(())
}
