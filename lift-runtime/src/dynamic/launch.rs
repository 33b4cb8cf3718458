//! Running a [`DynKernel`]: argument checks, uploads, launches, the race checker's traces
//! and the download of the result.

use super::buffers::{
    alloc, buffer_scalar, download, scalar_count, set_scalar, upload, with_buffer, AnyBuffer,
    DeviceArg,
};
use super::{eval, DynKernel, Race};
use crate::private::{round_up_in_place, to_usize};
use crate::{Buffer, Context, Error, Event, KernelHandle, Result};
use lift_core::codegen::{trace, GeneratedKernel, KernelArg};
use lift_core::interp::{check_arg, Value};
use lift_core::types::Type;
use std::collections::HashMap;

/// Records the race checker's trace holds per kernel launch.
const TRACE_CAP: usize = 1 << 18;

/// A traced kernel's trace buffer, and its traced buffers (name, whether local memory).
type Traced<'g> = (Buffer<i32>, &'g Vec<(String, bool)>);

impl DynKernel {
    /// Runs the kernel with `sizes` (one per size variable) on `args` (one per parameter):
    /// checks sizes, preconditions and argument shapes, uploads, launches every generated
    /// kernel, waits and downloads the result.
    pub fn run(&self, sizes: &[usize], args: &[Value]) -> Result<Value> {
        self.run_traced(sizes, args, &mut Vec::new(), None)
    }

    /// [`DynKernel::run`], also giving the kernels' time on the device in milliseconds (the
    /// sum of the profiled times of every generated kernel; uploads and downloads excluded).
    pub fn run_timed(&self, sizes: &[usize], args: &[Value]) -> Result<(Value, f64)> {
        let mut ms = 0.0;
        let v = self.run_traced(sizes, args, &mut Vec::new(), Some(&mut ms))?;
        Ok((v, ms))
    }

    /// [`DynKernel::compile_candidate`] with the code generator instrumented by `opts` (the
    /// race checker: [`lift_core::codegen::trace`]).
    pub fn compile_traced(
        ctx: &Context,
        program_text: &str,
        kernel: &str,
        candidate: Option<&str>,
        opts: trace::Options,
    ) -> Result<DynKernel> {
        trace::traced(opts, || {
            DynKernel::compile_candidate(ctx, program_text, kernel, candidate)
        })
    }

    /// [`DynKernel::run`], also giving the races found in the traces of a kernel compiled by
    /// [`DynKernel::compile_traced`] (none for other kernels).
    pub fn check_races(&self, sizes: &[usize], args: &[Value]) -> Result<(Value, Vec<Race>)> {
        let mut races = Vec::new();
        let v = self.run_traced(sizes, args, &mut races, None)?;
        Ok((v, races))
    }

    /// Starts [`DynKernel::run`]: checks, uploads and enqueues every kernel, without waiting
    /// for them ([`Started::finish`] waits and downloads). Runs started on the contexts of
    /// several devices compute at once.
    pub fn start(&self, sizes: &[usize], args: &[Value]) -> Result<Started<'_>> {
        self.start_traced(sizes, args, &mut Vec::new(), None)
    }

    fn run_traced(
        &self,
        sizes: &[usize],
        args: &[Value],
        races: &mut Vec<Race>,
        time_ms: Option<&mut f64>,
    ) -> Result<Value> {
        self.start_traced(sizes, args, races, time_ms)?.finish()
    }

    fn start_traced(
        &self,
        sizes: &[usize],
        args: &[Value],
        races: &mut Vec<Race>,
        time_ms: Option<&mut f64>,
    ) -> Result<Started<'_>> {
        let env = self.check_sizes(sizes)?;
        let bufs = self.buffers(args, &env)?;
        let last = self.enqueue_all(sizes, &env, &bufs, races, time_ms)?;
        Ok(Started {
            kernel: self,
            env,
            bufs,
            last,
        })
    }

    /// The arguments `args` uploaded (checked first), the result and the temporaries
    /// allocated, at the sizes `env`.
    pub(super) fn buffers(&self, args: &[Value], env: &HashMap<String, i64>) -> Result<Buffers> {
        let lookup = |n: &str| env.get(n).copied();
        let device = self.upload_args(args, &lookup)?;
        self.check_index_args(args, &lookup)?;
        self.allocate(device, &lookup)
    }

    /// The buffers of a run on the uploaded arguments `device`: the result and the
    /// temporaries allocated (the one place every run's buffers are made: a fault point).
    pub(super) fn allocate(
        &self,
        device: Vec<DeviceArg>,
        lookup: &dyn Fn(&str) -> Option<i64>,
    ) -> Result<Buffers> {
        crate::faults::check(crate::faults::Point::Upload, &self.ctx)?;
        let out_scalar = buffer_scalar(&self.info.result, "the result")?;
        let out = alloc(
            &self.ctx,
            out_scalar,
            scalar_count(&self.info.result, &lookup)?,
        )?;
        // A capped result (`filter_seq`): its length is written to a one-element buffer.
        let count = match &self.info.result {
            Type::Capped(..) => Some(self.ctx.alloc_zeroed::<i32>(1)?),
            _ => None,
        };
        let temps = self
            .gen
            .temporaries
            .iter()
            .map(|t| self.ctx.alloc::<u8>(to_usize(eval(&t.bytes, &lookup)?)?))
            .collect::<Result<Vec<_>>>()?;
        Ok(Buffers {
            device,
            out,
            count,
            temps,
        })
    }

    /// Sets the arguments of every generated kernel from `bufs` and enqueues it; gives the
    /// event of the last one, spanning the first (SPEC section 3).
    pub(super) fn enqueue_all(
        &self,
        sizes: &[usize],
        env: &HashMap<String, i64>,
        bufs: &Buffers,
        races: &mut Vec<Race>,
        mut time_ms: Option<&mut f64>,
    ) -> Result<Option<Event>> {
        crate::faults::check(crate::faults::Point::Launch, &self.ctx)?;
        let lookup = |n: &str| env.get(n).copied();
        let wide = self.wide_at(&lookup)?;
        let handles = match &self.special {
            Some((at, h)) if at == sizes => h,
            _ if wide => self.wide_handles()?,
            _ => &self.handles,
        };
        let mut first: Option<Event> = None;
        let mut last: Option<Event> = None;
        for (gk, k) in self.gen.kernels.iter().zip(handles) {
            let traced = self.set_args(k, gk, bufs, &lookup, wide)?;
            let ev = self.enqueue(k, gk, &lookup)?;
            if let Some(t) = time_ms.as_deref_mut() {
                ev.wait()?;
                *t += ev.profile_ns()? as f64 / 1e6;
            }
            match first {
                None => first = Some(ev),
                Some(_) => last = Some(ev),
            }
            if let Some((t, buffers)) = traced {
                races.extend(races_in(&gk.name, &t, buffers)?);
            }
        }
        Ok(match (first, last) {
            (Some(f), Some(l)) => Some(l.after(f)),
            (f, _) => f,
        })
    }

    /// Checks the number and shapes of the arguments `args` and uploads the arrays among them.
    fn upload_args(
        &self,
        args: &[Value],
        lookup: &dyn Fn(&str) -> Option<i64>,
    ) -> Result<Vec<DeviceArg>> {
        let params = &self.kernel.params;
        if args.len() != params.len() {
            return Err(Error::ArgLength {
                arg: "args".into(),
                expected: params.len(),
                actual: args.len(),
            });
        }
        let mut device = Vec::with_capacity(args.len());
        for (p, a) in params.iter().zip(args) {
            check_value(p, a, lookup)?;
            device.push(match a {
                Value::Scalar(s) => DeviceArg::Scalar(*s),
                a => {
                    let s = buffer_scalar(&p.ty, &p.name)?;
                    DeviceArg::Buffer(upload(&self.ctx, s, &a.flatten())?)
                }
            });
        }
        Ok(device)
    }

    /// Checks the run-time indices of the arguments `args` that a `filter` reads.
    fn check_index_args(&self, args: &[Value], lookup: &dyn Fn(&str) -> Option<i64>) -> Result<()> {
        let params = &self.kernel.params;
        for c in &self.info.index_checks {
            let at = params.iter().position(|p| p.name == c.param);
            if let Some(Value::Array(vs)) = at.map(|i| &args[i]) {
                let ids: Vec<i32> = vs
                    .iter()
                    .map(|v| match v {
                        Value::Scalar(lift_core::interp::Scalar::I32(k)) => *k,
                        _ => -1,
                    })
                    .collect();
                let len = c.len.eval(&lookup).map_err(|e| Error::Launch {
                    reason: format!("the length {} of a filtered array: {e}", c.len),
                })?;
                crate::private::check_indices(&c.param, len, &ids)?;
            }
        }
        Ok(())
    }

    /// Sets the arguments of `k`, the build of the generated kernel `gk`, from `bufs` and the
    /// sizes (64-bit if `wide`); gives its trace buffer and traced buffers if it is traced.
    fn set_args<'g>(
        &self,
        k: &KernelHandle,
        gk: &'g GeneratedKernel,
        bufs: &Buffers,
        lookup: &dyn Fn(&str) -> Option<i64>,
        wide: bool,
    ) -> Result<Option<Traced<'g>>> {
        let mut traced = None;
        for (i, a) in gk.args.iter().enumerate() {
            let i = i as u32;
            match a {
                KernelArg::Input { param } | KernelArg::Scalar { param } => {
                    match bufs.device.get(*param) {
                        Some(DeviceArg::Buffer(b)) => with_buffer!(b, b => k.set_buffer(i, b))?,
                        Some(DeviceArg::Scalar(s)) => set_scalar(k, i, *s)?,
                        None => return Err(Error::launch("kernel argument out of range")),
                    }
                }
                KernelArg::Output => with_buffer!(&bufs.out, b => k.set_buffer(i, b))?,
                KernelArg::Count => match &bufs.count {
                    Some(c) => k.set_buffer(i, c)?,
                    None => return Err(Error::launch("a length buffer for a full result")),
                },
                KernelArg::Temporary(t) => match bufs.temps.get(*t) {
                    Some(b) => k.set_buffer(i, b)?,
                    None => return Err(Error::launch("temporary out of range")),
                },
                KernelArg::Size(s) => {
                    let v = lookup(s)
                        .ok_or_else(|| Error::launch(format!("unbound size variable `{s}`")))?;
                    if wide {
                        k.set_scalar(i, v)?;
                    } else {
                        k.set_scalar(i, v as i32)?;
                    }
                }
                KernelArg::Local { bytes } => {
                    k.set_local(i, to_usize(eval(bytes, &lookup)?)?)?;
                }
                KernelArg::Trace { buffers } => {
                    let t = self
                        .ctx
                        .alloc_zeroed::<i32>(1 + TRACE_CAP * trace::RECORD)?;
                    k.set_buffer(i, &t)?;
                    k.set_scalar(i + 1, TRACE_CAP as i32)?;
                    traced = Some((t, buffers));
                }
            }
        }
        Ok(traced)
    }

    /// Enqueues `k`, the build of the generated kernel `gk` with its arguments set, over its
    /// global and local sizes.
    fn enqueue(
        &self,
        k: &KernelHandle,
        gk: &GeneratedKernel,
        lookup: &dyn Fn(&str) -> Option<i64>,
    ) -> Result<Event> {
        let mut global = gk
            .global
            .iter()
            .map(|g| to_usize(eval(g, &lookup)?))
            .collect::<Result<Vec<_>>>()?;
        let local = match &gk.local {
            Some(l) => Some(
                l.iter()
                    .map(|x| to_usize(eval(x, &lookup)?))
                    .collect::<Result<Vec<_>>>()?,
            ),
            None => k
                .default_local(&self.ctx, &global)
                .map(|l| l[..global.len()].to_vec()),
        };
        round_up_in_place(&mut global, local.as_deref());
        let lmem = to_usize(eval(&gk.local_mem_bytes, &lookup)?)?;
        self.ctx.check_launch(&global, local.as_deref(), lmem)?;
        // SAFETY: every argument was set (`set_args`) from the kernel's `args`, with buffers
        // whose lengths `check_arg` and the allocations of `run_traced` derived from the sizes.
        unsafe { k.enqueue(&self.ctx, &global, local.as_deref()) }
    }

    /// Downloads the result from `bufs`, cut to its length if it is capped.
    pub(super) fn read_result(
        &self,
        bufs: &Buffers,
        lookup: &dyn Fn(&str) -> Option<i64>,
    ) -> Result<Value> {
        crate::faults::check(crate::faults::Point::Read, &self.ctx)?;
        let mut flat = download(&bufs.out)?;
        if let (Some(c), Type::Capped(elem, _)) = (&bufs.count, &self.info.result) {
            let kept = c.download()?.first().copied().unwrap_or(0);
            let kept = usize::try_from(kept).map_err(|_| Error::launch("a negative length"))?;
            flat.truncate(kept.saturating_mul(scalar_count(elem, &lookup)?));
        }
        Value::from_flat(&self.info.result, &lookup, &flat).map_err(|e| Error::Launch {
            reason: format!("result: {e}"),
        })
    }
}

/// Checks that the value `a` has the type of parameter `p` at the sizes `lookup`.
pub(crate) fn check_value(
    p: &lift_core::ir::Param,
    a: &Value,
    lookup: &dyn Fn(&str) -> Option<i64>,
) -> Result<()> {
    check_arg(p, a, &lookup).map_err(|e| match e {
        lift_core::interp::InterpError::ArgShape {
            arg,
            path,
            expected,
            actual,
        } => Error::ArgShape {
            arg: arg + &path,
            expected,
            actual,
        },
        e => Error::Precondition {
            what: format!("argument `{}`", p.name),
            expected: p.ty.to_string(),
            actual: e.to_string(),
        },
    })
}

/// A run of a [`DynKernel`] enqueued on its device ([`DynKernel::start`]).
pub struct Started<'k> {
    pub(super) kernel: &'k DynKernel,
    pub(super) env: HashMap<String, i64>,
    pub(super) bufs: Buffers,
    pub(super) last: Option<Event>,
}

impl Started<'_> {
    /// Waits for the run's kernels and downloads the result.
    pub fn finish(self) -> Result<Value> {
        if let Some(e) = &self.last {
            e.wait()?;
        }
        let lookup = |n: &str| self.env.get(n).copied();
        self.kernel.read_result(&self.bufs, &lookup)
    }
}

/// The buffers of one run on the device: the arguments, the result, the length of a capped
/// result and the global temporaries.
pub(super) struct Buffers {
    pub(super) device: Vec<DeviceArg>,
    pub(super) out: AnyBuffer,
    pub(super) count: Option<Buffer<i32>>,
    temps: Vec<Buffer<u8>>,
}

/// The races in the trace `t` of the OpenCL kernel `kernel`, whose traced buffers are `buffers`.
fn races_in(kernel: &str, t: &Buffer<i32>, buffers: &[(String, bool)]) -> Result<Vec<Race>> {
    let log = t.download()?;
    let count = log.first().copied().unwrap_or(0);
    if count as usize > TRACE_CAP {
        return Err(Error::launch(format!(
            "race checker: {count} accesses, more than the trace holds ({TRACE_CAP}); use smaller sizes"
        )));
    }
    let (names, local): (Vec<String>, Vec<bool>) = buffers.iter().cloned().unzip();
    Ok(trace::races(&log, &names, &local)
        .into_iter()
        .map(|r| Race {
            kernel: kernel.to_string(),
            race: r,
        })
        .collect())
}
