//! The launches of an iterated kernel split over several devices, its data resident on them
//! ([`crate::SplitKernel::iterate`]): two sets of buffers per device used in turn, each
//! launch writing its rows into the buffer the next launch reads, then the halo rows
//! exchanged between neighbours. The exchange waits once per launch: each device's halo reads
//! are enqueued behind its kernel, the host waits for the kernels and the reads, and the
//! writes into the next inputs are enqueued ahead of the next kernels without waiting (the
//! queues are in order).

use crate::dynamic::{DynKernel, Resident, Staging};
use crate::{Context, Error, HostArg, HostData};
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

/// One device's part of a repeated launch ([`repeat`]).
pub(crate) struct Entry<'k> {
    pub(crate) device: usize,
    pub(crate) kernel: &'k DynKernel,
    /// The sizes of its kernel (none for a slab's).
    pub(crate) sizes: Vec<usize>,
    pub(crate) args: Vec<Value>,
}

/// `times` launches of every entry's kernel on its arguments, uploaded once; gives each
/// entry's last result.
pub(crate) fn repeat(
    entries: &[Entry<'_>],
    times: usize,
    timed: &mut Steps,
) -> std::result::Result<Vec<Value>, Failed> {
    let residents = entries
        .iter()
        .map(|e| {
            e.kernel
                .resident(&e.sizes, &e.args)
                .map_err(|err| (e.device, err))
        })
        .collect::<std::result::Result<Vec<_>, _>>()?;
    for _ in 0..times {
        let began = std::time::Instant::now();
        let events = entries
            .iter()
            .zip(&residents)
            .map(|(e, r)| e.kernel.launch_resident(r).map_err(|err| (e.device, err)))
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let mut longest = 0.0f64;
        for (e, ev) in entries.iter().zip(events) {
            if let Some(ev) = ev {
                let ns = ev.span_ns().map_err(|err| (e.device, err))?;
                longest = longest.max(ns as f64 / 1e6);
            }
        }
        timed.step_ms.push(began.elapsed().as_secs_f64() * 1e3);
        timed.kernel_ms.push(longest);
    }
    entries
        .iter()
        .zip(&residents)
        .map(|(e, r)| e.kernel.read_resident(r).map_err(|err| (e.device, err)))
        .collect()
}

/// A failure, with the device (position in the set) where it happened.
type Failed = (usize, Error);

/// Two sets of buffers per slab, holding the slabs' arguments (each launch writing its rows
/// into the other set's iterated parameter where the device allows), and the slabs' rows.
type Setup<'k> = (Vec<Slab<'k>>, [Vec<Resident>; 2]);

/// The slabs' kernels (`(device, inputs, kernel)`, rows in order) set up on `args` (the
/// arrays' rows of `rows_of` scalars each), parameter `param` of `n` rows iterated.
fn setup<'k>(
    slabs: &'k [(usize, Vec<Input>, DynKernel)],
    args: &[HostArg<'_>],
    rows_of: &[usize],
    (param, n): (usize, usize),
) -> std::result::Result<Setup<'k>, Failed> {
    let per_row = rows_of[param];
    let mut plan = Vec::new();
    let mut states: [Vec<Resident>; 2] = [Vec::new(), Vec::new()];
    let mut start = 0;
    for (device, inputs, kernel) in slabs {
        let fail = |e| (*device, e);
        let reads = partition::rows(&inputs[param], n);
        let mine = crate::host::slab_args(args, inputs, rows_of);
        for set in &mut states {
            set.push(kernel.resident_host(&[], &mine).map_err(fail)?);
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
    Ok((plan, states))
}

/// `steps` launches of the slabs' kernels (`(device, inputs, kernel)`, rows in order) on
/// typed host data `args` (the arrays' rows of `rows_of` scalars each), parameter `param`
/// iterated; the last result's rows read straight into one vector.
pub(crate) fn on_slabs(
    slabs: &[(usize, Vec<Input>, DynKernel)],
    args: &[HostArg<'_>],
    rows_of: &[usize],
    (param, steps): (usize, usize),
    timed: &mut Steps,
) -> std::result::Result<HostData<'static>, Failed> {
    let (Some(HostArg::Array(all)), Some(&per_row)) = (args.get(param), rows_of.get(param)) else {
        return Err((0, Error::launch("the iterated parameter is no array")));
    };
    if per_row == 0 {
        return Err((0, Error::launch("the iterated parameter has empty rows")));
    }
    let (n, scalar) = (all.len() / per_row, all.scalar_type());
    let (plan, mut states) = setup(slabs, args, rows_of, (param, n))?;
    let (host, own) = transfers(&plan, per_row);
    let mut staged = Staged {
        sets: [0, 1].map(|_| {
            host.iter()
                .map(|t| states[0][t.from].staging(t.len))
                .collect()
        }),
        contexts: plan.iter().map(|s| s.kernel.context()).collect(),
    };
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
        let last = step + 1 == steps;
        let set = &mut staged.sets[step % 2];
        let mut reads = Vec::new();
        for (t, st) in host.iter().zip(set.iter_mut()).filter(|_| !last) {
            // SAFETY: `st` lives in `staged`, which waits for every queue before it is
            // dropped; this set is next touched two launches on, after every device's
            // kernel of the next launch (enqueued behind these copies) has been waited for.
            let ev = unsafe { cur[t.from].read_out(t.src, st) };
            reads.push((
                plan[t.from].device,
                ev.map_err(|e| (plan[t.from].device, e))?,
            ));
        }
        let mut longest = 0.0f64;
        for (s, ev) in plan.iter().zip(events) {
            if let Some(ev) = ev {
                let ns = ev.span_ns().map_err(|e| (s.device, e))?;
                longest = longest.max(ns as f64 / 1e6);
            }
        }
        for (device, ev) in reads {
            if let Some(ev) = ev {
                ev.wait()
                    .map_err(|e| (device, Error::cl("clWaitForEvents")(e)))?;
            }
        }
        if !last {
            for (t, st) in host.iter().zip(set.iter()) {
                // SAFETY: as above; the next launch on `t.to`'s in-order queue follows the
                // write, and is waited for before this set is filled again.
                unsafe { next[t.to].write_input(param, t.dst, st) }
                    .map_err(|e| (plan[t.to].device, e))?;
            }
            for t in &own {
                cur[t.from]
                    .copy_out(t.src, &mut next[t.to], param, t.dst, t.len)
                    .map_err(|e| (plan[t.to].device, e))?;
            }
        }
        timed.step_ms.push(began.elapsed().as_secs_f64() * 1e3);
        timed.kernel_ms.push(longest);
    }
    let last = &states[(steps + 1) % 2];
    let mut out = HostData::zeros(scalar, n * per_row);
    for (s, r) in plan.iter().zip(last) {
        s.kernel
            .read_resident_into(r, &mut out, s.rows.start * per_row)
            .map_err(|e| (s.device, e))?;
    }
    Ok(out)
}

/// Elements of device `from`'s result (at `src`) that device `to`'s next launch reads (at
/// `dst` of its iterated parameter).
struct Transfer {
    from: usize,
    to: usize,
    src: usize,
    dst: usize,
    len: usize,
}

/// What every device's next input receives of the results after each launch: its halo from
/// its neighbours (through the host), and its own rows where they were not written in place
/// (on the device).
fn transfers(plan: &[Slab<'_>], per_row: usize) -> (Vec<Transfer>, Vec<Transfer>) {
    let (mut host, mut own) = (Vec::new(), Vec::new());
    for (to, reader) in plan.iter().enumerate() {
        for (from, writer) in plan.iter().enumerate() {
            let rows =
                reader.reads.start.max(writer.rows.start)..reader.reads.end.min(writer.rows.end);
            if rows.is_empty() || (from == to && reader.in_place) {
                continue;
            }
            let t = Transfer {
                from,
                to,
                src: (rows.start - writer.rows.start) * per_row,
                dst: (rows.start - reader.reads.start) * per_row,
                len: rows.len() * per_row,
            };
            match from == to {
                true => own.push(t),
                false => host.push(t),
            }
        }
    }
    (host, own)
}

/// The host memory of the transfers, two sets used by turns; dropped only after every
/// device's queue has finished, so no enqueued copy outlives the memory it reads or writes.
struct Staged<'k> {
    sets: [Vec<Staging>; 2],
    contexts: Vec<&'k Context>,
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        for c in &self.contexts {
            // Nothing to do about an error here: the queue is gone or the device lost.
            let _ = c.finish();
        }
    }
}
