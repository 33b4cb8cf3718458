//! [`RankKernel`]: one kernel split over the ranks of an MPI job (SPEC section 6, the `mpi`
//! feature), each rank driving the devices of its host. The partition is
//! [`lift_core::partition`]'s: the rows of the result are cut into one slab per rank; each
//! rank computes its slab's program (itself split over its own devices by a
//! [`SplitKernel`]); rows are gathered on every rank, a full reduction's partial results
//! folded with its operator. [`RankKernel::iterate`] exchanges only halo rows between ranks
//! (MPI point-to-point) after each launch.
//!
//! As for [`SplitKernel`], the entries on typed host data ([`RankKernel::run_typed`],
//! [`RankKernel::iterate_typed`]) are the machinery: each rank's rows go to its devices as
//! sub-slices of the caller's data, rows cross ranks as the bytes of their scalars, with no
//! interpreter value per scalar; the entries on interpreter values check and flatten the
//! arguments once (the whole kernel's [`SplitKernel`] does) and run the same path.

pub use mpi;

use crate::host::{into_owned, scalar_bytes, slab_args};
use crate::{Devices, Error, HostArg, HostData, HostScalar, Placement, Result, SplitKernel};
use lift_core::interp::Value;
use lift_core::partition::{self, Combine, Input};
use mpi::datatype::PartitionMut;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::ops::Range;

/// A kernel of a `lift!` program split over the ranks of `comm`. Every rank calls each
/// method with the same arguments (the whole of them) and receives the whole result.
pub struct RankKernel<'c> {
    comm: &'c SimpleCommunicator,
    devices: Devices,
    /// The whole kernel on this rank's devices: where it cannot be split, and the checks and
    /// conversions of the arguments and the result.
    whole: SplitKernel,
}

/// What one rank computes at some sizes.
struct Mine {
    /// Every rank's rows (ranks past the end have none).
    slabs: Vec<Range<i64>>,
    /// What every rank's slab receives of each parameter.
    inputs: Vec<Vec<Input>>,
    /// This rank's kernel and inputs, if it has rows.
    local: Option<(SplitKernel, Vec<Input>)>,
    combine: Combine,
}

impl<'c> RankKernel<'c> {
    /// Kernel `kernel` of `program_text` on the ranks of `comm`, each rank on `devices`.
    pub fn new(
        comm: &'c SimpleCommunicator,
        devices: &Devices,
        program_text: &str,
        kernel: &str,
    ) -> Result<Self> {
        Ok(RankKernel {
            comm,
            devices: devices.clone(),
            whole: SplitKernel::new(devices, program_text, kernel)?,
        })
    }

    /// Where this rank's part runs: its rows over its devices, or the whole kernel on every
    /// rank and why.
    pub fn placement(&self, sizes: &[usize]) -> Result<Placement> {
        match self.mine(sizes)? {
            Some(Mine {
                local: Some((k, _)),
                ..
            }) => k.placement(&[]),
            Some(Mine { local: None, .. }) => Ok(Placement::Split(Vec::new())),
            None => self.whole.placement(sizes),
        }
    }

    fn rank(&self) -> usize {
        self.comm.rank() as usize
    }

    /// This rank's part at `sizes`; none where the kernel cannot be split (the whole kernel
    /// then runs on every rank's devices).
    fn mine(&self, sizes: &[usize]) -> Result<Option<Mine>> {
        let at: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
        let (program, kernel) = (self.whole.program(), self.whole.name());
        let Ok(plan) = partition::plan(program, kernel, &at) else {
            return Ok(None);
        };
        let ranks = self.comm.size() as usize;
        let slabs = partition::slabs(plan.rows, &vec![1.0; ranks]);
        // Every rank derives every rank's slab, so that all take the same path.
        let mut derived = Vec::new();
        for rows in &slabs {
            match partition::slab(program, kernel, &at, rows.clone()) {
                Ok(slab) => derived.push(slab),
                Err(_) => return Ok(None),
            }
        }
        let reads = derived.iter().map(|s| s.inputs.clone()).collect();
        let local = match derived.get(self.rank()) {
            None => None,
            Some(slab) => {
                let text = lift_core::print::program(&slab.program);
                Some((
                    SplitKernel::new(&self.devices, &text, kernel)?,
                    slab.inputs.clone(),
                ))
            }
        };
        Ok(Some(Mine {
            slabs,
            inputs: reads,
            local,
            combine: plan.combine,
        }))
    }

    /// Runs the kernel at `sizes` on `args` (the whole arguments, on every rank): this rank
    /// computes its rows on its devices; every rank returns the whole result. A layer over
    /// [`RankKernel::run_host`]'s machinery (arguments checked and flattened once).
    pub fn run(&self, sizes: &[usize], args: &[Value]) -> Result<Value> {
        let Some(mine) = self.mine(sizes)? else {
            return self.whole.run(sizes, args);
        };
        let host = self.whole.host_args(sizes, args)?;
        let flat = self.run_mine(sizes, &mine, &host)?;
        self.whole.value_of(sizes, &flat)
    }

    /// [`RankKernel::run`] on typed host data (as [`SplitKernel::run_typed`]: per
    /// parameter an array's scalars in row-major order, or a scalar; the result's scalars in
    /// row-major order): this rank's rows uploaded to its devices from sub-slices of `args`,
    /// every rank's rows gathered as the bytes of their scalars.
    pub fn run_typed<T: HostScalar>(
        &self,
        sizes: &[usize],
        args: &[HostArg<'_>],
    ) -> Result<Vec<T>> {
        T::from_data(self.run_host(sizes, args)?)
    }

    /// [`RankKernel::run_typed`], giving the result as host data of its scalar type.
    pub fn run_host(&self, sizes: &[usize], args: &[HostArg<'_>]) -> Result<HostData<'static>> {
        match self.mine(sizes)? {
            Some(mine) => self.run_mine(sizes, &mine, args),
            None => self.whole.run_host(sizes, args),
        }
    }

    /// This rank's part computed on its rows of `args`, every rank's gathered.
    fn run_mine(
        &self,
        sizes: &[usize],
        mine: &Mine,
        args: &[HostArg<'_>],
    ) -> Result<HostData<'static>> {
        let per_row = self.whole.rows_of(sizes, args)?;
        let part = mine
            .local
            .as_ref()
            .map(|(k, inputs)| k.run_host(&[], &slab_args(args, inputs, &per_row)));
        let part = self.agreed(part.transpose())?;
        self.gather(sizes, mine, part)
    }

    /// This rank's `outcome` once every rank has told whether its own failed: an error on
    /// every rank when one failed (its own error on that rank), so that no rank waits in a
    /// collective call another never makes.
    fn agreed<T>(&self, outcome: Result<T>) -> Result<T> {
        let failed = i32::from(outcome.is_err());
        let mut any = 0i32;
        self.comm
            .all_reduce_into(&failed, &mut any, mpi::collective::SystemOperation::max());
        match (outcome, any) {
            (Ok(v), 0) => Ok(v),
            (Ok(_), _) => Err(Error::launch("the launch failed on another MPI rank")),
            (Err(e), _) => Err(e),
        }
    }

    /// `steps` launches of a kernel whose result has the type of its parameter `param`
    /// (SplitKernel::iterate across ranks): after each launch, each rank sends the rows of
    /// its result that other ranks read and receives the rows it reads of theirs. A layer
    /// over [`RankKernel::iterate_host`]'s machinery.
    pub fn iterate(
        &self,
        sizes: &[usize],
        args: &[Value],
        param: usize,
        steps: usize,
    ) -> Result<Value> {
        let Some(mine) = self.rows_mine(sizes)? else {
            return self.whole.iterate(sizes, args, param, steps);
        };
        let host = self.whole.host_args(sizes, args)?;
        let flat = self.iterate_mine(sizes, &mine, &host, (param, steps))?;
        self.whole.value_of(sizes, &flat)
    }

    /// [`RankKernel::iterate`] on typed host data (as [`RankKernel::run_typed`]): halo rows
    /// cross ranks as the bytes of their scalars.
    pub fn iterate_typed<T: HostScalar>(
        &self,
        sizes: &[usize],
        args: &[HostArg<'_>],
        param: usize,
        steps: usize,
    ) -> Result<Vec<T>> {
        T::from_data(self.iterate_host(sizes, args, param, steps)?)
    }

    /// [`RankKernel::iterate_typed`], giving the result as host data of its scalar type.
    pub fn iterate_host(
        &self,
        sizes: &[usize],
        args: &[HostArg<'_>],
        param: usize,
        steps: usize,
    ) -> Result<HostData<'static>> {
        match self.rows_mine(sizes)? {
            Some(mine) => self.iterate_mine(sizes, &mine, args, (param, steps)),
            None => self.whole.iterate_host(sizes, args, param, steps),
        }
    }

    /// This rank's part where the kernel is split and its rows concatenated.
    fn rows_mine(&self, sizes: &[usize]) -> Result<Option<Mine>> {
        Ok(self
            .mine(sizes)?
            .filter(|m| matches!(m.combine, Combine::Rows)))
    }

    /// The launches of [`RankKernel::iterate_host`] on this rank's part.
    fn iterate_mine(
        &self,
        sizes: &[usize],
        mine: &Mine,
        args: &[HostArg<'_>],
        (param, steps): (usize, usize),
    ) -> Result<HostData<'static>> {
        let p = self.whole.iterated(param)?;
        let per_row = self.whole.rows_of(sizes, args)?;
        let HostArg::Array(first) = &args[param] else {
            return Err(Error::ArgShape {
                arg: p.name.clone(),
                expected: p.ty.to_string(),
                actual: "a scalar".into(),
            });
        };
        if steps == 0 {
            return Ok(into_owned(first.clone()));
        }
        let reads = Self::reads(mine, param);
        let row = (per_row[param], first.scalar_type());
        let mut local = mine
            .local
            .as_ref()
            .map(|(k, inputs)| (k, slab_args(args, inputs, &per_row)));
        let mut rows = HostData::zeros(row.1, 0);
        for step in 0..steps {
            let launched = local.as_ref().map(|(k, a)| k.run_host(&[], a)).transpose();
            if let Some(r) = self.agreed(launched)? {
                rows = r;
            }
            if step + 1 == steps {
                break;
            }
            let next = self.exchange(&mine.slabs, &reads, &rows, row)?;
            if let (Some((_, a)), Some(next)) = (&mut local, next) {
                a[param] = HostArg::Array(next);
            }
        }
        self.gather(sizes, mine, mine.local.as_ref().map(|_| rows))
    }

    /// The rows of parameter `param` each rank's slab reads.
    fn reads(mine: &Mine, param: usize) -> Vec<Range<i64>> {
        let all = 0..mine.slabs.last().map_or(0, |r| r.end);
        mine.inputs
            .iter()
            .map(|inputs| match &inputs[param] {
                Input::Rows(r) => r.clone(),
                Input::Whole => all.clone(),
            })
            .collect()
    }

    /// Sends the rows of `rows` (this rank's result, rows of `per_row` scalars of type
    /// `scalar`) that other ranks read, receives the rows this rank reads of theirs; gives
    /// this rank's next input (the rows it reads, in order), if it has rows.
    fn exchange(
        &self,
        slabs: &[Range<i64>],
        reads: &[Range<i64>],
        rows: &HostData<'_>,
        (per_row, scalar): (usize, lift_core::types::ScalarType),
    ) -> Result<Option<HostData<'static>>> {
        let me = self.rank();
        let (Some(own), Some(my_reads)) = (slabs.get(me), reads.get(me)) else {
            return Ok(None);
        };
        let row_bytes = per_row * scalar_bytes(scalar);
        let overlap = |a: &Range<i64>, b: &Range<i64>| a.start.max(b.start)..a.end.min(b.end);
        let bytes = |r: &Range<i64>, from: i64| {
            (r.start - from) as usize * row_bytes..(r.end - from) as usize * row_bytes
        };
        let mine = rows.bytes();
        let n = (my_reads.end - my_reads.start) as usize;
        let mut next = HostData::zeros(scalar, n * per_row);
        let out = next.bytes_mut();
        mpi::request::scope(|scope| {
            let pending: Vec<_> = (0..slabs.len())
                .filter(|&q| q != me)
                .map(|q| (q, overlap(own, &reads[q])))
                .filter(|(_, r)| !r.is_empty())
                .map(|(q, r)| {
                    self.comm
                        .process_at_rank(q as i32)
                        .immediate_send(scope, &mine[bytes(&r, own.start)])
                })
                .collect();
            for (q, theirs) in slabs.iter().enumerate() {
                let r = overlap(theirs, my_reads);
                if r.is_empty() {
                    continue;
                }
                let to = &mut out[bytes(&r, my_reads.start)];
                match q == me {
                    true => to.copy_from_slice(&mine[bytes(&r, own.start)]),
                    false => {
                        self.comm.process_at_rank(q as i32).receive_into(to);
                    }
                }
            }
            for p in pending {
                p.wait();
            }
        });
        Ok(Some(next))
    }

    /// Every rank's part (rows, or a partial result) gathered on every rank, as the bytes
    /// of its scalars, and put together.
    fn gather(
        &self,
        sizes: &[usize],
        mine: &Mine,
        part: Option<HostData<'static>>,
    ) -> Result<HostData<'static>> {
        let scalar = self.whole.result_scalar()?;
        let part = part.unwrap_or_else(|| HostData::zeros(scalar, 0));
        let ranks = self.comm.size() as usize;
        let mut counts = vec![0i32; ranks];
        // A part too long for one message is sent as none, and every rank then fails alike.
        let count = i32::try_from(part.bytes().len()).unwrap_or(-1);
        self.comm.all_gather_into(&count, &mut counts[..]);
        let displs: Vec<i64> = counts
            .iter()
            .scan(0i64, |acc, &c| {
                let d = *acc;
                *acc += i64::from(c);
                Some(d)
            })
            .collect();
        let total = displs
            .last()
            .map_or(0, |d| d + i64::from(counts[ranks - 1]));
        let (Ok(total), Ok(displs), false) = (
            i32::try_from(total),
            displs
                .iter()
                .map(|&d| i32::try_from(d))
                .collect::<std::result::Result<Vec<_>, _>>(),
            counts.contains(&-1),
        ) else {
            return Err(Error::Precondition {
                what: "the result gathered across ranks".into(),
                expected: "at most i32::MAX bytes (one MPI message)".into(),
                actual: format!("{counts:?} bytes per rank (-1: more than i32::MAX)"),
            });
        };
        let mut all = HostData::zeros(scalar, total as usize / scalar_bytes(scalar));
        {
            let mut partition = PartitionMut::new(all.bytes_mut(), &counts[..], &displs[..]);
            self.comm
                .all_gather_varcount_into(part.bytes(), &mut partition);
        }
        match &mine.combine {
            Combine::Rows => Ok(all),
            Combine::Reduce(_) => {
                let at: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
                let kernel = self.whole.name();
                let c = partition::combiner(self.whole.program(), kernel, &at, all.len() as i64)
                    .map_err(|e| Error::Compile {
                        message: e.to_string(),
                    })?;
                let parts = all.to_scalars().into_iter().map(Value::Scalar).collect();
                let v = self.whole.combine(Some(&c), parts)?;
                HostData::from_scalars(scalar, &v.flatten(), "the result")
            }
        }
    }
}
