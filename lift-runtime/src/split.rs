//! [`SplitKernel`]: one kernel run over a set of devices ([`Devices`]), split as
//! [`lift_core::partition`] derives from the program: a slab of the result's rows per
//! device, each given the rows of its inputs it reads (halos included) and the inputs it
//! reads whole; the slabs' rows concatenated, or a full reduction's partial results folded
//! with its own operator. A kernel that cannot be split runs on the first device, and
//! [`SplitKernel::placement`] says why.
//!
//! Two entries share one machinery: [`SplitKernel::run_typed`] (the generated `NameOn::run`)
//! takes the caller's typed slices ([`HostArg`]) and uploads each device's rows straight from
//! sub-slices of them, reading the result rows straight into one typed vector, with no
//! interpreter value per scalar; [`SplitKernel::run`] takes interpreter values, checks and
//! flattens each argument once, and runs the same path.

use crate::dynamic::DynKernel;
use crate::iterate::Steps;
use crate::{Devices, Error, HostArg, HostData, HostScalar, Result};
use lift_core::interp::{run_kernel, Value};
use lift_core::ir::Program;
use lift_core::partition::{self, Combine, Input, NotSplit};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;

/// Where a kernel runs at some sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Split: per device used (by position in the set), the rows of the result (of the reduced
    /// array for a full reduction) it computes and what it receives of each parameter.
    Split(Vec<(usize, Range<i64>, Vec<Input>)>),
    /// On the first device, and why.
    One(NotSplit),
}

impl std::fmt::Display for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Placement::Split(slabs) => {
                write!(f, "split over {} devices:", slabs.len())?;
                for (d, rows, inputs) in slabs {
                    write!(f, " [{d}] rows {}..{} reading", rows.start, rows.end)?;
                    for i in inputs {
                        match i {
                            Input::Rows(r) => write!(f, " {}..{}", r.start, r.end)?,
                            Input::Whole => write!(f, " all")?,
                        }
                    }
                    write!(f, ";")?;
                }
                Ok(())
            }
            Placement::One(why) => write!(f, "one device: {why}"),
        }
    }
}

/// The kernels of one set of sizes.
pub(crate) enum Prepared {
    Split {
        slabs: Vec<(usize, Vec<Input>, DynKernel)>,
        /// The fold of a full reduction's partial results.
        combiner: Option<Program>,
        placement: Placement,
    },
    One(Box<DynKernel>, Placement),
}

/// A kernel of a `lift!` program built on a set of devices. `run` takes the arguments of
/// [`DynKernel::run`] and returns the same result as one device, computed by all of them.
pub struct SplitKernel {
    devices: Devices,
    text: String,
    kernel: String,
    program: Program,
    prepared: RefCell<HashMap<Vec<usize>, std::rc::Rc<Prepared>>>,
    /// The share of the rows each device gets (equal by default).
    weights: Vec<f64>,
}

impl std::fmt::Debug for SplitKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SplitKernel")
            .field("kernel", &self.kernel)
            .field("devices", &self.devices.len())
            .finish_non_exhaustive()
    }
}

impl SplitKernel {
    /// Kernel `kernel` of the `lift!` program `program_text` on `devices`. Parse and type
    /// errors are [`Error::Compile`]; slabs are derived and built per set of sizes, on the
    /// first run at those sizes.
    pub fn new(devices: &Devices, program_text: &str, kernel: &str) -> Result<SplitKernel> {
        let compile = |e: lift_core::CompileError| Error::Compile {
            message: format!("kernel `{kernel}`: {}", e.message),
        };
        let mut program = lift_core::parse::parse_program_str(program_text).map_err(compile)?;
        lift_core::typeck::check_program(&mut program).map_err(compile)?;
        if program.kernel(kernel).is_none() {
            return Err(Error::Compile {
                message: format!("unknown kernel `{kernel}`"),
            });
        }
        Ok(SplitKernel {
            devices: devices.clone(),
            text: program_text.to_string(),
            kernel: kernel.to_string(),
            program,
            prepared: RefCell::default(),
            weights: vec![1.0; devices.len()],
        })
    }

    /// This kernel with the rows split in proportion to `weights`, one positive number per
    /// device (a device twice as fast gets twice the rows): for devices of unequal speed.
    pub fn with_weights(mut self, weights: &[f64]) -> Result<SplitKernel> {
        if weights.len() != self.devices.len()
            || weights.iter().any(|w| !w.is_finite() || *w <= 0.0)
        {
            return Err(Error::Precondition {
                what: "weights".into(),
                expected: format!("{} positive numbers, one per device", self.devices.len()),
                actual: format!("{weights:?}"),
            });
        }
        self.weights = weights.to_vec();
        self.prepared = RefCell::default();
        Ok(self)
    }

    /// Measures the devices' speed at `sizes` on typed host data `args` (as
    /// [`SplitKernel::run_typed`]) and gives one weight per device for
    /// [`SplitKernel::with_weights`]: in proportion to its speed, every weight positive, the
    /// weights summing to 1 (devices of equal speed get equal weights, within the noise of
    /// the timing). Every device runs the same probe: the middle slab of an equal split of
    /// the rows (its part of `args` uploaded once), or the whole kernel where it is not
    /// split; its time is the median of several launches' profiled device time (as the
    /// tuner times a candidate), over a few rounds that time the devices by turns. A device that fails is an [`Error::OnDevice`] naming it.
    pub fn measure_weights(&self, sizes: &[usize], args: &[HostArg<'_>]) -> Result<Vec<f64>> {
        let per_row = self.rows_of(sizes, args)?;
        let at: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
        let slab = partition::plan(&self.program, &self.kernel, &at)
            .ok()
            .and_then(|plan| {
                let equal = partition::slabs(plan.rows, &vec![1.0; self.devices.len()]);
                let rows = equal.get(equal.len() / 2)?.clone();
                partition::slab(&self.program, &self.kernel, &at, rows).ok()
            });
        let times = match slab {
            Some(slab) => {
                let text = lift_core::print::program(&slab.program);
                let mine = crate::host::slab_args(args, &slab.inputs, &per_row);
                crate::weights::median_times(&self.devices, &text, &self.kernel, &[], &mine)
            }
            None => {
                crate::weights::median_times(&self.devices, &self.text, &self.kernel, sizes, args)
            }
        };
        Ok(crate::weights::from_times(
            &times.map_err(|(d, e)| self.on(d, e))?,
        ))
    }

    /// This kernel with the weights [`SplitKernel::measure_weights`] measures at `sizes` on
    /// `args`.
    pub fn with_measured_weights(
        self,
        sizes: &[usize],
        args: &[HostArg<'_>],
    ) -> Result<SplitKernel> {
        let weights = self.measure_weights(sizes, args)?;
        self.with_weights(&weights)
    }

    /// Where the kernel runs at `sizes`.
    pub fn placement(&self, sizes: &[usize]) -> Result<Placement> {
        Ok(match &*self.prepare(sizes)? {
            Prepared::Split { placement, .. } | Prepared::One(_, placement) => placement.clone(),
        })
    }

    /// Runs the kernel at `sizes` on `args` (as [`DynKernel::run`]) over the devices: every
    /// slab is started before any is waited for. A device that fails is an
    /// [`Error::OnDevice`] naming it, and no result is returned. A layer over
    /// [`SplitKernel::run_typed`]'s machinery: the arguments checked against the kernel's
    /// parameters and flattened once into host data, the result rebuilt from its scalars.
    pub fn run(&self, sizes: &[usize], args: &[Value]) -> Result<Value> {
        let prepared = self.prepare(sizes)?;
        let (slabs, combiner) = match &*prepared {
            Prepared::One(k, _) => return k.run(sizes, args).map_err(|e| self.on(0, e)),
            Prepared::Split {
                slabs, combiner, ..
            } => (slabs, combiner),
        };
        let host = self.host_args(sizes, args)?;
        let flat = self.run_slabs(sizes, slabs, combiner.as_ref(), &host)?;
        self.value_of(sizes, &flat)
    }

    /// Interpreter values as host data: each checked against its parameter's type at
    /// `sizes` and flattened once.
    pub(crate) fn host_args(
        &self,
        sizes: &[usize],
        args: &[Value],
    ) -> Result<Vec<HostArg<'static>>> {
        let env = self.env(sizes)?;
        let lookup = |n: &str| env.get(n).copied();
        let k = self.decl()?;
        if args.len() != k.params.len() {
            return Err(Error::ArgLength {
                arg: "args".into(),
                expected: k.params.len(),
                actual: args.len(),
            });
        }
        k.params
            .iter()
            .zip(args)
            .map(|(p, a)| {
                crate::dynamic::check_value(p, a, &lookup)?;
                Ok(match a {
                    Value::Scalar(s) => HostArg::Scalar(*s),
                    a => HostArg::Array(HostData::from_scalars(
                        crate::dynamic::buffer_scalar(&p.ty, &p.name)?,
                        &a.flatten(),
                        &p.name,
                    )?),
                })
            })
            .collect()
    }

    /// The result's scalars as an interpreter value of the result's type at `sizes`.
    pub(crate) fn value_of(&self, sizes: &[usize], flat: &HostData<'_>) -> Result<Value> {
        let env = self.env(sizes)?;
        let lookup = |n: &str| env.get(n).copied();
        Value::from_flat(&self.decl()?.ret, &lookup, &flat.to_scalars()).map_err(|e| {
            Error::Launch {
                reason: format!("result: {e}"),
            }
        })
    }

    /// Runs the kernel at `sizes` on typed host data, over the devices: per parameter, an
    /// array's scalars in row-major order ([`HostArg::array`] of the caller's slice) or a
    /// scalar; gives the result's scalars in row-major order (of a scalar result, one). No
    /// interpreter value is built for an array: each device's rows (halo included) are
    /// uploaded straight from a sub-slice of the caller's data, and each device's result
    /// rows read straight into the output vector; only a full reduction's partial results
    /// (one per device) are folded as values. A device that fails is an
    /// [`Error::OnDevice`] naming it, and no result is returned. The generated
    /// `NameOn::run` calls it.
    pub fn run_typed<T: HostScalar>(
        &self,
        sizes: &[usize],
        args: &[HostArg<'_>],
    ) -> Result<Vec<T>> {
        T::from_data(self.run_host(sizes, args)?)
    }

    /// [`SplitKernel::run_typed`], giving the result as host data of its scalar type.
    pub fn run_host(&self, sizes: &[usize], args: &[HostArg<'_>]) -> Result<HostData<'static>> {
        let prepared = self.prepare(sizes)?;
        match &*prepared {
            Prepared::One(k, _) => {
                let on = |e| self.on(0, e);
                let mut out =
                    HostData::zeros(self.result_scalar()?, k.result_len(sizes).map_err(on)?);
                k.start_host(sizes, args)
                    .and_then(|s| s.finish_into(&mut out, 0))
                    .map_err(on)?;
                Ok(out)
            }
            Prepared::Split {
                slabs, combiner, ..
            } => self.run_slabs(sizes, slabs, combiner.as_ref(), args),
        }
    }

    /// The slabs started on their rows of `args` (every one before any is waited for), their
    /// results read into one vector, or folded.
    fn run_slabs(
        &self,
        sizes: &[usize],
        slabs: &[(usize, Vec<Input>, DynKernel)],
        combiner: Option<&Program>,
        args: &[HostArg<'_>],
    ) -> Result<HostData<'static>> {
        let per_row = self.rows_of(sizes, args)?;
        let started = slabs
            .iter()
            .map(|(d, inputs, k)| {
                let mine = crate::host::slab_args(args, inputs, &per_row);
                k.start_host(&[], &mine).map_err(|e| self.on(*d, e))
            })
            .collect::<Result<Vec<_>>>()?;
        let scalar = self.result_scalar()?;
        if combiner.is_some() {
            let parts = started
                .into_iter()
                .zip(slabs)
                .map(|(s, (d, _, _))| s.finish().map_err(|e| self.on(*d, e)))
                .collect::<Result<Vec<_>>>()?;
            let v = self.combine(combiner, parts)?;
            return HostData::from_scalars(scalar, &v.flatten(), "the result");
        }
        let lens = slabs
            .iter()
            .map(|(d, _, k)| k.result_len(&[]).map_err(|e| self.on(*d, e)))
            .collect::<Result<Vec<_>>>()?;
        let mut out = HostData::zeros(scalar, lens.iter().sum());
        let mut at = 0;
        for (s, (d, _, _)) in started.into_iter().zip(slabs) {
            at += s.finish_into(&mut out, at).map_err(|e| self.on(*d, e))?;
        }
        Ok(out)
    }

    /// Per parameter, the scalars of one row of its array (0 for a scalar), after checking
    /// that there is one argument per parameter and every array has the length of its type.
    pub(crate) fn rows_of(&self, sizes: &[usize], args: &[HostArg<'_>]) -> Result<Vec<usize>> {
        let k = self.decl()?;
        if args.len() != k.params.len() {
            return Err(Error::ArgLength {
                arg: "args".into(),
                expected: k.params.len(),
                actual: args.len(),
            });
        }
        let env = self.env(sizes)?;
        let lookup = |n: &str| env.get(n).copied();
        let count = |ty| crate::dynamic::scalar_count(ty, &lookup);
        k.params
            .iter()
            .zip(args)
            .map(|(p, a)| match (a, p.ty.as_array()) {
                (HostArg::Array(d), Some((elem, _))) => {
                    let want = count(&p.ty)?;
                    match d.len() == want {
                        true => count(elem),
                        false => Err(Error::ArgLength {
                            arg: p.name.clone(),
                            expected: want,
                            actual: d.len(),
                        }),
                    }
                }
                _ => Ok(0),
            })
            .collect()
    }

    /// The scalar type of the result's scalars on the device.
    pub(crate) fn result_scalar(&self) -> Result<lift_core::types::ScalarType> {
        crate::dynamic::buffer_scalar(&self.decl()?.ret, "the result")
    }

    /// The kernel's size variables bound to `sizes` (one each).
    fn env(&self, sizes: &[usize]) -> Result<HashMap<String, i64>> {
        let k = self.decl()?;
        if sizes.len() != k.sizes.len() {
            return Err(Error::ArgLength {
                arg: "sizes".into(),
                expected: k.sizes.len(),
                actual: sizes.len(),
            });
        }
        k.sizes
            .iter()
            .zip(sizes)
            .map(|((n, _), &s)| {
                let v = i64::try_from(s).map_err(|_| Error::Precondition {
                    what: format!("size `{n}`"),
                    expected: "at most i64::MAX".into(),
                    actual: s.to_string(),
                })?;
                Ok((n.clone(), v))
            })
            .collect()
    }

    /// Tunes each slab's kernel on its device (the runtime's tuner and its cache, keyed by
    /// the slab's program: [`DynKernel::tune`]) on its part of `args`, or the whole kernel on
    /// the first device where it is not split; later runs at these sizes use the choices.
    /// Gives each device's report.
    pub fn tune(&self, sizes: &[usize], args: &[Value]) -> Result<Vec<(usize, crate::Tuned)>> {
        let opts = crate::tune::TuneOptions::default();
        let prepared = self.prepare(sizes)?;
        let tuned = match &*prepared {
            Prepared::Split { slabs, .. } => slabs
                .iter()
                .map(|(d, inputs, k)| {
                    let mine: Vec<Value> = partition::slice_all(args, inputs);
                    let ctx = &self.devices.contexts()[*d];
                    DynKernel::tune(ctx, k.lift_text(), &self.kernel, &[], &mine, &opts)
                        .map(|(_, t)| (*d, t))
                        .map_err(|e| self.on(*d, e))
                })
                .collect::<Result<Vec<_>>>()?,
            Prepared::One(..) => {
                let ctx = &self.devices.contexts()[0];
                let (_, t) = DynKernel::tune(ctx, &self.text, &self.kernel, sizes, args, &opts)
                    .map_err(|e| self.on(0, e))?;
                vec![(0, t)]
            }
        };
        // Built again on the next run, with the tuner's choices.
        self.prepared.borrow_mut().remove(sizes);
        Ok(tuned)
    }

    /// The slabs' results as the kernel's: rows concatenated, or partial results folded.
    pub(crate) fn combine(&self, combiner: Option<&Program>, parts: Vec<Value>) -> Result<Value> {
        match combiner {
            None => Ok(partition::concat(parts)),
            Some(c) => run_kernel(c, &self.kernel, &[], &[Value::Array(parts)]).map_err(|e| {
                Error::Launch {
                    reason: format!("combining the partial results: {e}"),
                }
            }),
        }
    }

    /// `times` launches on the same arguments, uploaded once and kept on the devices (a
    /// benchmark's loop): the result of the last, and the time of each launch (host clock
    /// from enqueue to every device done, and the longest device's kernels).
    pub fn repeat_timed(
        &self,
        sizes: &[usize],
        args: &[Value],
        times: usize,
    ) -> Result<(Value, Steps)> {
        if times == 0 {
            return Err(Error::Precondition {
                what: "launches".into(),
                expected: "at least one".into(),
                actual: "0".into(),
            });
        }
        let mut timed = Steps::default();
        let prepared = self.prepare(sizes)?;
        let (entries, combiner) = match &*prepared {
            Prepared::Split {
                slabs, combiner, ..
            } => {
                let entries = slabs
                    .iter()
                    .map(|(d, inputs, k)| crate::iterate::Entry {
                        device: *d,
                        kernel: k,
                        sizes: Vec::new(),
                        args: partition::slice_all(args, inputs),
                    })
                    .collect();
                (entries, combiner.as_ref())
            }
            Prepared::One(k, _) => {
                let one = crate::iterate::Entry {
                    device: 0,
                    kernel: k,
                    sizes: sizes.to_vec(),
                    args: args.to_vec(),
                };
                (vec![one], None)
            }
        };
        let parts =
            crate::iterate::repeat(&entries, times, &mut timed).map_err(|(d, e)| self.on(d, e))?;
        Ok((self.combine(combiner, parts)?, timed))
    }

    /// `steps` launches of a kernel whose result has the type of its parameter `param`, each
    /// result the next launch's `param` (an iterated stencil), the data kept on the devices
    /// between launches: after each launch every device receives only the rows of its
    /// neighbours' results that its next slab reads (its halo), through the host; its own
    /// rows are written by the kernel in place (an OpenCL sub-buffer, where the device allows
    /// the offset; a copy on the device otherwise). Gives the last result. A kernel that is
    /// not split runs its launches on the first device.
    pub fn iterate(
        &self,
        sizes: &[usize],
        args: &[Value],
        param: usize,
        steps: usize,
    ) -> Result<Value> {
        Ok(self.iterate_timed(sizes, args, param, steps)?.0)
    }

    /// [`SplitKernel::iterate`], with the time of every launch (none where the kernel runs
    /// on one device without its data resident).
    pub fn iterate_timed(
        &self,
        sizes: &[usize],
        args: &[Value],
        param: usize,
        steps: usize,
    ) -> Result<(Value, Steps)> {
        let mut timed = Steps::default();
        let k = self.decl()?;
        self.iterated(param)?;
        if steps == 0 {
            let v = args.get(param).cloned().ok_or_else(|| Error::ArgLength {
                arg: "args".into(),
                expected: k.params.len(),
                actual: args.len(),
            })?;
            return Ok((v, timed));
        }
        let prepared = self.prepare(sizes)?;
        match &*prepared {
            Prepared::Split {
                slabs,
                combiner: None,
                ..
            } => {
                let host = self.host_args(sizes, args)?;
                let rows_of = self.rows_of(sizes, &host)?;
                let on = (param, steps);
                let flat = crate::iterate::on_slabs(slabs, &host, &rows_of, on, &mut timed)
                    .map_err(|(d, e)| self.on(d, e))?;
                Ok((self.value_of(sizes, &flat)?, timed))
            }
            _ => {
                let mut args = args.to_vec();
                for _ in 0..steps {
                    args[param] = self.run(sizes, &args)?;
                }
                Ok((args.swap_remove(param), timed))
            }
        }
    }

    /// [`SplitKernel::iterate`] on typed host data (as [`SplitKernel::run_typed`]): the
    /// devices' rows of every array uploaded from sub-slices of `args`, the last result's
    /// rows read straight into the typed vector; no interpreter value per scalar.
    pub fn iterate_typed<T: HostScalar>(
        &self,
        sizes: &[usize],
        args: &[HostArg<'_>],
        param: usize,
        steps: usize,
    ) -> Result<Vec<T>> {
        T::from_data(self.iterate_host(sizes, args, param, steps)?)
    }

    /// [`SplitKernel::iterate_typed`], giving the result as host data of its scalar type.
    pub fn iterate_host(
        &self,
        sizes: &[usize],
        args: &[HostArg<'_>],
        param: usize,
        steps: usize,
    ) -> Result<HostData<'static>> {
        let p = self.iterated(param)?;
        let rows_of = self.rows_of(sizes, args)?;
        let HostArg::Array(first) = &args[param] else {
            return Err(Error::ArgShape {
                arg: p.name.clone(),
                expected: p.ty.to_string(),
                actual: "a scalar".into(),
            });
        };
        if steps == 0 {
            return Ok(crate::host::into_owned(first.clone()));
        }
        let prepared = self.prepare(sizes)?;
        if let Prepared::Split {
            slabs,
            combiner: None,
            ..
        } = &*prepared
        {
            let on = (param, steps);
            let flat = crate::iterate::on_slabs(slabs, args, &rows_of, on, &mut Steps::default())
                .map_err(|(d, e)| self.on(d, e))?;
            return Ok(flat);
        }
        let mut args = args.to_vec();
        for _ in 0..steps {
            args[param] = HostArg::Array(self.run_host(sizes, &args)?);
        }
        match args.swap_remove(param) {
            HostArg::Array(d) => Ok(crate::host::into_owned(d)),
            HostArg::Scalar(_) => Err(Error::launch("an iterated scalar")),
        }
    }

    /// Checks that the kernel can be iterated over parameter `param`: there is one, and the
    /// result has its type.
    pub(crate) fn iterated(&self, param: usize) -> Result<&lift_core::ir::Param> {
        let k = self.decl()?;
        let p = k.params.get(param).ok_or_else(|| Error::ArgLength {
            arg: "param".into(),
            expected: k.params.len(),
            actual: param,
        })?;
        if p.ty != k.ret {
            return Err(Error::Precondition {
                what: format!(
                    "iterating kernel `{}` over parameter `{}`",
                    self.kernel, p.name
                ),
                expected: format!("a result of the parameter's type {}", p.ty),
                actual: k.ret.to_string(),
            });
        }
        Ok(p)
    }

    /// The checked program.
    #[cfg(feature = "mpi")]
    pub(crate) fn program(&self) -> &Program {
        &self.program
    }

    /// The kernel's name.
    #[cfg(feature = "mpi")]
    pub(crate) fn name(&self) -> &str {
        &self.kernel
    }

    /// The kernel's declaration.
    pub(crate) fn decl(&self) -> Result<&lift_core::ir::Kernel> {
        self.program
            .kernel(&self.kernel)
            .ok_or_else(|| Error::Compile {
                message: format!("unknown kernel `{}`", self.kernel),
            })
    }

    fn on(&self, index: usize, e: Error) -> Error {
        Error::OnDevice {
            index,
            device: self.devices.contexts()[index].device_info().name.clone(),
            source: Box::new(e),
        }
    }

    /// The kernels for `sizes`, derived and built on first use.
    fn prepare(&self, sizes: &[usize]) -> Result<std::rc::Rc<Prepared>> {
        if let Some(p) = self.prepared.borrow().get(sizes) {
            return Ok(std::rc::Rc::clone(p));
        }
        let p = std::rc::Rc::new(self.derive(sizes)?);
        self.prepared
            .borrow_mut()
            .insert(sizes.to_vec(), std::rc::Rc::clone(&p));
        Ok(p)
    }

    fn derive(&self, sizes: &[usize]) -> Result<Prepared> {
        let at: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
        let one = |why: NotSplit| -> Result<Prepared> {
            let ctx = &self.devices.contexts()[0];
            let k = DynKernel::compile_for(ctx, &self.text, &self.kernel, sizes)
                .map_err(|e| self.on(0, e))?;
            Ok(Prepared::One(Box::new(k), Placement::One(why)))
        };
        let plan = match partition::plan(&self.program, &self.kernel, &at) {
            Ok(plan) => plan,
            Err(why) => return one(why),
        };
        let weights = &self.weights;
        let mut slabs = Vec::new();
        let mut placed = Vec::new();
        for (d, rows) in partition::slabs(plan.rows, weights).into_iter().enumerate() {
            let slab = match partition::slab(&self.program, &self.kernel, &at, rows.clone()) {
                Ok(slab) => slab,
                Err(why) => return one(why),
            };
            // A slab reaches the runtime as every kernel does: as its printed source.
            let text = lift_core::print::program(&slab.program);
            let ctx = &self.devices.contexts()[d];
            let k =
                DynKernel::compile_for(ctx, &text, &self.kernel, &[]).map_err(|e| self.on(d, e))?;
            placed.push((d, rows, slab.inputs.clone()));
            slabs.push((d, slab.inputs, k));
        }
        let combiner = match plan.combine {
            Combine::Rows => None,
            Combine::Reduce(_) => Some(
                partition::combiner(&self.program, &self.kernel, &at, slabs.len() as i64).map_err(
                    |e| Error::Compile {
                        message: e.to_string(),
                    },
                )?,
            ),
        };
        Ok(Prepared::Split {
            slabs,
            combiner,
            placement: Placement::Split(placed),
        })
    }
}
