//! [`RankKernel`]: one kernel split over the ranks of an MPI job (SPEC section 6, the `mpi`
//! feature), each rank driving the devices of its host. The partition is
//! [`lift_core::partition`]'s: the rows of the result are cut into one slab per rank; each
//! rank computes its slab's program (itself split over its own devices by a
//! [`SplitKernel`]); rows are gathered on every rank, a full reduction's partial results
//! folded with its operator. [`RankKernel::iterate`] exchanges only halo rows between ranks
//! (MPI point-to-point) after each launch.

pub use mpi;

use crate::{Devices, Error, Placement, Result, SplitKernel};
use lift_core::interp::{Scalar, Value};
use lift_core::ir::Program;
use lift_core::partition::{self, Combine, Input};
use lift_core::types::{ScalarType, Type};
use mpi::datatype::PartitionMut;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::ops::Range;

/// A kernel of a `lift!` program split over the ranks of `comm`. Every rank calls each
/// method with the same arguments (the whole of them) and receives the whole result.
pub struct RankKernel<'c> {
    comm: &'c SimpleCommunicator,
    devices: Devices,
    text: String,
    kernel: String,
    program: Program,
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
        let compile = |e: lift_core::CompileError| Error::Compile {
            message: format!("kernel `{kernel}`: {}", e.message),
        };
        let mut program = lift_core::parse::parse_program_str(program_text).map_err(compile)?;
        lift_core::typeck::check_program(&mut program).map_err(compile)?;
        Ok(RankKernel {
            comm,
            devices: devices.clone(),
            text: program_text.to_string(),
            kernel: kernel.to_string(),
            program,
        })
    }

    /// Where this rank's part runs: its rows over its devices, or the whole kernel on every
    /// rank and why.
    pub fn placement(&self, sizes: &[usize]) -> Result<Placement> {
        match self.mine(sizes)? {
            Ok(Mine {
                local: Some((k, _)),
                ..
            }) => k.placement(&[]),
            Ok(Mine { local: None, .. }) => Ok(Placement::Split(Vec::new())),
            Err(k) => k.placement(sizes),
        }
    }

    fn rank(&self) -> usize {
        self.comm.rank() as usize
    }

    /// This rank's part at `sizes`, or the whole kernel on this rank's devices where the
    /// kernel cannot be split.
    fn mine(&self, sizes: &[usize]) -> Result<std::result::Result<Mine, SplitKernel>> {
        let at: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
        let whole = || SplitKernel::new(&self.devices, &self.text, &self.kernel);
        let plan = match partition::plan(&self.program, &self.kernel, &at) {
            Ok(plan) => plan,
            Err(_) => return Ok(Err(whole()?)),
        };
        let ranks = self.comm.size() as usize;
        let slabs = partition::slabs(plan.rows, &vec![1.0; ranks]);
        // Every rank derives every rank's slab, so that all take the same path.
        let mut derived = Vec::new();
        for rows in &slabs {
            match partition::slab(&self.program, &self.kernel, &at, rows.clone()) {
                Ok(slab) => derived.push(slab),
                Err(_) => return Ok(Err(whole()?)),
            }
        }
        let reads = derived.iter().map(|s| s.inputs.clone()).collect();
        let local = match derived.get(self.rank()) {
            None => None,
            Some(slab) => {
                let text = lift_core::print::program(&slab.program);
                Some((
                    SplitKernel::new(&self.devices, &text, &self.kernel)?,
                    slab.inputs.clone(),
                ))
            }
        };
        Ok(Ok(Mine {
            slabs,
            inputs: reads,
            local,
            combine: plan.combine,
        }))
    }

    /// Runs the kernel at `sizes` on `args` (the whole arguments, on every rank): this rank
    /// computes its rows on its devices; every rank returns the whole result.
    pub fn run(&self, sizes: &[usize], args: &[Value]) -> Result<Value> {
        let mine = match self.mine(sizes)? {
            Ok(mine) => mine,
            Err(whole) => return whole.run(sizes, args),
        };
        let part = match &mine.local {
            Some((k, inputs)) => {
                let sliced: Vec<Value> = partition::slice_all(args, inputs);
                Some(k.run(&[], &sliced)?)
            }
            None => None,
        };
        self.gather(sizes, &mine, part)
    }

    /// `steps` launches of a kernel whose result has the type of its parameter `param`
    /// (SplitKernel::iterate across ranks): after each launch, each rank sends the rows of
    /// its result that other ranks read and receives the rows it reads of theirs.
    pub fn iterate(
        &self,
        sizes: &[usize],
        args: &[Value],
        param: usize,
        steps: usize,
    ) -> Result<Value> {
        let mine = match self.mine(sizes)? {
            Ok(
                mine @ Mine {
                    combine: Combine::Rows,
                    ..
                },
            ) => mine,
            Ok(_) | Err(_) => {
                let whole = SplitKernel::new(&self.devices, &self.text, &self.kernel)?;
                return whole.iterate(sizes, args, param, steps);
            }
        };
        let reads = Self::reads(&mine, param);
        let Value::Array(all) = &args[param] else {
            return Err(Error::launch("the iterated parameter is no array"));
        };
        let me = self.rank();
        let mut local_args: Option<Vec<Value>> = mine
            .local
            .as_ref()
            .map(|(_, inputs)| partition::slice_all(args, inputs));
        let mut rows: Vec<Value> = Vec::new();
        for step in 0..steps {
            rows = match (&mine.local, &local_args) {
                (Some((k, _)), Some(a)) => match k.run(&[], a)? {
                    Value::Array(rs) => rs,
                    _ => return Err(Error::launch("a slab's result is no array")),
                },
                _ => Vec::new(),
            };
            if step + 1 == steps {
                break;
            }
            let got = self.exchange(&mine.slabs, &reads, &rows, all.first())?;
            if let (Some(a), Some(my_reads)) = (&mut local_args, reads.get(me)) {
                let mut next = Vec::with_capacity((my_reads.end - my_reads.start) as usize);
                for r in my_reads.clone() {
                    let own = &mine.slabs[me];
                    next.push(match own.contains(&r) {
                        true => rows[(r - own.start) as usize].clone(),
                        false => got.get(&r).cloned().ok_or_else(|| {
                            Error::launch(format!("row {r} of the halo did not arrive"))
                        })?,
                    });
                }
                a[param] = Value::Array(next);
            }
        }
        if steps == 0 {
            return Ok(args[param].clone());
        }
        self.gather(
            sizes,
            &mine,
            mine.local.as_ref().map(|_| Value::Array(rows)),
        )
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

    /// Sends the rows of `rows` (this rank's result) that other ranks read, receives the
    /// rows this rank reads of theirs; gives them by row number.
    fn exchange(
        &self,
        slabs: &[Range<i64>],
        reads: &[Range<i64>],
        rows: &[Value],
        like: Option<&Value>,
    ) -> Result<std::collections::HashMap<i64, Value>> {
        let me = self.rank();
        let Some(like) = like else {
            return Ok(Default::default());
        };
        let ty = row_type(like)?;
        let per_row = like.flatten().len();
        let overlap = |a: &Range<i64>, b: &Range<i64>| a.start.max(b.start)..a.end.min(b.end);
        let mut out = std::collections::HashMap::new();
        let sends: Vec<(usize, Vec<u64>)> = (0..slabs.len())
            .filter(|&q| q != me && me < slabs.len())
            .map(|q| {
                let r = overlap(&slabs[me], &reads[q]);
                let bits = r
                    .clone()
                    .flat_map(|i| rows[(i - slabs[me].start) as usize].flatten())
                    .map(to_bits)
                    .collect();
                (q, bits)
            })
            .filter(|(_, b): &(usize, Vec<u64>)| !b.is_empty())
            .collect();
        mpi::request::scope(|scope| -> Result<()> {
            let pending: Vec<_> = sends
                .iter()
                .map(|(q, bits)| {
                    self.comm
                        .process_at_rank(*q as i32)
                        .immediate_send(scope, &bits[..])
                })
                .collect();
            if let Some(my_reads) = reads.get(me) {
                for (q, theirs) in slabs.iter().enumerate().filter(|&(q, _)| q != me) {
                    let r = overlap(theirs, my_reads);
                    if r.is_empty() {
                        continue;
                    }
                    let mut bits = vec![0u64; (r.end - r.start) as usize * per_row];
                    self.comm
                        .process_at_rank(q as i32)
                        .receive_into(&mut bits[..]);
                    for (k, i) in r.enumerate() {
                        let flat: Vec<Scalar> = bits[k * per_row..(k + 1) * per_row]
                            .iter()
                            .map(|&b| from_bits(ty, b))
                            .collect();
                        out.insert(i, rebuild(like, &flat)?);
                    }
                }
            }
            for p in pending {
                p.wait();
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// Every rank's part (rows, or a partial result) gathered on every rank and put together.
    fn gather(&self, sizes: &[usize], mine: &Mine, part: Option<Value>) -> Result<Value> {
        let k = self
            .program
            .kernel(&self.kernel)
            .ok_or_else(|| Error::Compile {
                message: format!("unknown kernel `{}`", self.kernel),
            })?;
        let env = |n: &str| {
            let i = k.sizes.iter().position(|(s, _)| s == n)?;
            i64::try_from(sizes[i]).ok()
        };
        let elem = scalar_of(&k.ret)?;
        let flat: Vec<u64> = part
            .map(|p| p.flatten().into_iter().map(to_bits).collect())
            .unwrap_or_default();
        let ranks = self.comm.size() as usize;
        let mut counts = vec![0i32; ranks];
        self.comm
            .all_gather_into(&(flat.len() as i32), &mut counts[..]);
        let displs: Vec<i32> = counts
            .iter()
            .scan(0, |acc, &c| {
                let d = *acc;
                *acc += c;
                Some(d)
            })
            .collect();
        let mut all = vec![0u64; counts.iter().map(|&c| c as usize).sum()];
        {
            let mut partition = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
            self.comm
                .all_gather_varcount_into(&flat[..], &mut partition);
        }
        let scalars: Vec<Scalar> = all.into_iter().map(|b| from_bits(elem, b)).collect();
        match &mine.combine {
            Combine::Rows => {
                Value::from_flat(&k.ret, &env, &scalars).map_err(|e| Error::launch(e.to_string()))
            }
            Combine::Reduce(_) => {
                let at: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
                let c = partition::combiner(&self.program, &self.kernel, &at, scalars.len() as i64)
                    .map_err(|e| Error::Compile {
                        message: e.to_string(),
                    })?;
                let parts = Value::Array(scalars.into_iter().map(Value::Scalar).collect());
                lift_core::interp::run_kernel(&c, &self.kernel, &[], &[parts])
                    .map_err(|e| Error::launch(e.to_string()))
            }
        }
    }
}

/// The one scalar type of the elements of `ty` (arrays of scalars only cross ranks).
fn scalar_of(ty: &Type) -> Result<ScalarType> {
    match ty.base() {
        Type::Scalar(s) => Ok(*s),
        other => Err(Error::Compile {
            message: format!(
                "across ranks: elements of type {other} are not supported (scalars only)"
            ),
        }),
    }
}

/// The scalar type of a row's elements.
fn row_type(row: &Value) -> Result<ScalarType> {
    row.flatten()
        .first()
        .map(|s| s.ty())
        .ok_or_else(|| Error::launch("an empty row"))
}

/// `like` (a row) rebuilt with the scalars `flat`, in order.
fn rebuild(like: &Value, flat: &[Scalar]) -> Result<Value> {
    fn go(like: &Value, flat: &mut std::slice::Iter<'_, Scalar>) -> Option<Value> {
        Some(match like {
            Value::Scalar(_) => Value::Scalar(*flat.next()?),
            Value::Array(xs) => {
                Value::Array(xs.iter().map(|x| go(x, flat)).collect::<Option<_>>()?)
            }
            _ => return None,
        })
    }
    go(like, &mut flat.iter()).ok_or_else(|| Error::launch("a row of another shape"))
}

/// A scalar's bits, exactly.
fn to_bits(s: Scalar) -> u64 {
    match s {
        Scalar::F16(x) => u64::from(x.to_bits()),
        Scalar::F32(x) => u64::from(x.to_bits()),
        Scalar::F64(x) => x.to_bits(),
        Scalar::I32(x) => u64::from(x as u32),
        Scalar::U32(x) => u64::from(x),
        Scalar::I64(x) => x as u64,
        Scalar::U64(x) => x,
        Scalar::Bool(x) => u64::from(x),
    }
}

/// The scalar of type `t` whose bits [`to_bits`] gave.
fn from_bits(t: ScalarType, b: u64) -> Scalar {
    match t {
        ScalarType::F16 => Scalar::F16(half::f16::from_bits(b as u16)),
        ScalarType::F32 => Scalar::F32(f32::from_bits(b as u32)),
        ScalarType::F64 => Scalar::F64(f64::from_bits(b)),
        ScalarType::I32 => Scalar::I32(b as u32 as i32),
        ScalarType::U32 => Scalar::U32(b as u32),
        ScalarType::I64 => Scalar::I64(b as i64),
        ScalarType::U64 => Scalar::U64(b),
        ScalarType::Bool => Scalar::Bool(b != 0),
    }
}
