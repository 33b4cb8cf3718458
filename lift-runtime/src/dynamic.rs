//! Programs compiled at run time: [`DynKernel`] parses, type-checks and generates a kernel
//! from `lift!` source text, builds it (through the program cache) and runs it on
//! interpreter [`Value`]s, with the checks of the generated `run`.

use crate::private::{check_divisible, check_le, round_up_in_place, size, to_usize};
use crate::{Buffer, Context, Error, KernelHandle, Result};
use half::f16;
use lift_core::arith::Nat;
use lift_core::codegen::{trace, Generated, KernelArg};
use lift_core::interp::{check_arg, Scalar, Value};
use lift_core::ir::{Kernel, Program};
use lift_core::typeck::{self, Cond, KernelInfo, Precondition};
use lift_core::types::{ScalarType, Type};
use lift_core::CompileError;
use std::collections::HashMap;

/// Records the race checker's trace holds per kernel launch.
const TRACE_CAP: usize = 1 << 18;

/// A race the checker found, in the OpenCL kernel named `kernel`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    /// The OpenCL kernel.
    pub kernel: String,
    /// What happened.
    pub race: trace::Race,
}

impl std::fmt::Display for Race {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "kernel `{}`: {}", self.kernel, self.race)
    }
}

/// One kernel of a program compiled at run time, built on one context.
#[derive(Debug)]
pub struct DynKernel {
    ctx: Context,
    kernel: Kernel,
    info: KernelInfo,
    preconditions: Vec<Precondition>,
    candidates: Vec<String>,
    gen: Generated,
    handles: Vec<KernelHandle>,
}

/// A device buffer of any scalar type (`bool` as `u8`).
enum AnyBuffer {
    F16(Buffer<f16>),
    F32(Buffer<f32>),
    F64(Buffer<f64>),
    I32(Buffer<i32>),
    U32(Buffer<u32>),
    I64(Buffer<i64>),
    U64(Buffer<u64>),
    U8(Buffer<u8>),
}

/// Applies `$body` to the typed buffer inside an [`AnyBuffer`].
macro_rules! with_buffer {
    ($b:expr, $buf:ident => $body:expr) => {
        match $b {
            AnyBuffer::F16($buf) => $body,
            AnyBuffer::F32($buf) => $body,
            AnyBuffer::F64($buf) => $body,
            AnyBuffer::I32($buf) => $body,
            AnyBuffer::U32($buf) => $body,
            AnyBuffer::I64($buf) => $body,
            AnyBuffer::U64($buf) => $body,
            AnyBuffer::U8($buf) => $body,
        }
    };
}

fn compile_error(e: &CompileError) -> Error {
    let at = e.span.start();
    Error::Compile {
        message: format!("{}:{}: {}", at.line, at.column + 1, e.message),
    }
}

/// The scalar type of the device buffer holding values of type `ty` (arrays of scalars,
/// vectors, or tuples of one number type); `what` names the value in errors.
fn buffer_scalar(ty: &Type, what: &str) -> Result<ScalarType> {
    match ty.base() {
        Type::Scalar(s) | Type::Vector(s, _) => Ok(*s),
        Type::Tuple(ts) if !ty.dims().is_empty() => match ts.first() {
            Some(Type::Scalar(s))
                if !matches!(s, ScalarType::Bool | ScalarType::F16)
                    && ts.iter().all(|t| t == &Type::Scalar(*s)) =>
            {
                Ok(*s)
            }
            _ => Err(unsupported(what, ty)),
        },
        _ => Err(unsupported(what, ty)),
    }
}

fn unsupported(what: &str, ty: &Type) -> Error {
    Error::Compile {
        message: format!("{what} of type {ty} is not supported by the launcher; arrays of tuples need fields of one number type (not bool or f16)"),
    }
}

/// The number of device scalars in a value of type `ty`.
fn scalar_count(ty: &Type, env: &dyn Fn(&str) -> Option<i64>) -> Result<usize> {
    let fields = match ty.base() {
        Type::Vector(_, w) => i64::from(*w),
        Type::Tuple(ts) => ts.len() as i64,
        _ => 1,
    };
    let n = ty
        .dims()
        .into_iter()
        .fold(Nat::cst(fields), |acc, d| acc * d);
    to_usize(eval(&n, env)?)
}

/// Evaluates a size expression; an unbound variable, overflow or division by zero is an `Err`.
fn eval(n: &Nat, env: &dyn Fn(&str) -> Option<i64>) -> Result<i64> {
    n.eval(env).map_err(|e| Error::Precondition {
        what: n.to_string(),
        expected: "a size expression that evaluates".into(),
        actual: e.to_string(),
    })
}

/// Uploads the flat scalars `flat`, all of type `s`, as a buffer of `s`'s device type.
fn upload(ctx: &Context, s: ScalarType, flat: &[Scalar]) -> Result<AnyBuffer> {
    macro_rules! up {
        ($v:ident, $t:ty, $conv:expr) => {{
            let data: Vec<$t> = flat
                .iter()
                .map(|x| match *x {
                    Scalar::$v(y) => Ok($conv(y)),
                    other => Err(Error::ArgShape {
                        arg: "array element".into(),
                        expected: s.to_string(),
                        actual: other.ty().to_string(),
                    }),
                })
                .collect::<Result<_>>()?;
            ctx.upload(&data)?
        }};
    }
    Ok(match s {
        ScalarType::F16 => AnyBuffer::F16(up!(F16, f16, |y| y)),
        ScalarType::F32 => AnyBuffer::F32(up!(F32, f32, |y| y)),
        ScalarType::F64 => AnyBuffer::F64(up!(F64, f64, |y| y)),
        ScalarType::I32 => AnyBuffer::I32(up!(I32, i32, |y| y)),
        ScalarType::U32 => AnyBuffer::U32(up!(U32, u32, |y| y)),
        ScalarType::I64 => AnyBuffer::I64(up!(I64, i64, |y| y)),
        ScalarType::U64 => AnyBuffer::U64(up!(U64, u64, |y| y)),
        ScalarType::Bool => AnyBuffer::U8(up!(Bool, u8, u8::from)),
    })
}

/// Allocates `len` elements of `s`'s device type.
fn alloc(ctx: &Context, s: ScalarType, len: usize) -> Result<AnyBuffer> {
    Ok(match s {
        ScalarType::F16 => AnyBuffer::F16(ctx.alloc(len)?),
        ScalarType::F32 => AnyBuffer::F32(ctx.alloc(len)?),
        ScalarType::F64 => AnyBuffer::F64(ctx.alloc(len)?),
        ScalarType::I32 => AnyBuffer::I32(ctx.alloc(len)?),
        ScalarType::U32 => AnyBuffer::U32(ctx.alloc(len)?),
        ScalarType::I64 => AnyBuffer::I64(ctx.alloc(len)?),
        ScalarType::U64 => AnyBuffer::U64(ctx.alloc(len)?),
        ScalarType::Bool => AnyBuffer::U8(ctx.alloc(len)?),
    })
}

/// Downloads a buffer as interpreter scalars (`u8` as `bool`).
fn download(b: &AnyBuffer) -> Result<Vec<Scalar>> {
    fn all<T: crate::DeviceScalar>(b: &Buffer<T>, f: impl Fn(T) -> Scalar) -> Result<Vec<Scalar>> {
        Ok(b.download()?.into_iter().map(f).collect())
    }
    match b {
        AnyBuffer::F16(b) => all(b, Scalar::F16),
        AnyBuffer::F32(b) => all(b, Scalar::F32),
        AnyBuffer::F64(b) => all(b, Scalar::F64),
        AnyBuffer::I32(b) => all(b, Scalar::I32),
        AnyBuffer::U32(b) => all(b, Scalar::U32),
        AnyBuffer::I64(b) => all(b, Scalar::I64),
        AnyBuffer::U64(b) => all(b, Scalar::U64),
        AnyBuffer::U8(b) => all(b, |x| Scalar::Bool(x != 0)),
    }
}

/// Sets a by-value scalar argument (`f16` as `float`, `bool` as `uchar`).
fn set_scalar(k: &KernelHandle, index: u32, v: Scalar) -> Result<()> {
    match v {
        Scalar::F16(x) => k.set_scalar(index, x.to_f32()),
        Scalar::F32(x) => k.set_scalar(index, x),
        Scalar::F64(x) => k.set_scalar(index, x),
        Scalar::I32(x) => k.set_scalar(index, x),
        Scalar::U32(x) => k.set_scalar(index, x),
        Scalar::I64(x) => k.set_scalar(index, x),
        Scalar::U64(x) => k.set_scalar(index, x),
        Scalar::Bool(x) => k.set_scalar(index, u8::from(x)),
    }
}

/// A kernel argument on the device: a buffer or a by-value scalar.
enum DeviceArg {
    Buffer(AnyBuffer),
    Scalar(Scalar),
}

impl DynKernel {
    /// Compiles kernel `kernel` of the `lift!` program `program_text` (user functions and
    /// kernels, as inside `lift! { ... }`) and builds it on `ctx`'s device. Parse, type and
    /// code generation errors are [`Error::Compile`]; an OpenCL build failure is
    /// [`Error::Build`].
    pub fn compile(ctx: &Context, program_text: &str, kernel: &str) -> Result<DynKernel> {
        DynKernel::compile_candidate(ctx, program_text, kernel, None)
    }

    /// [`DynKernel::compile`] with the candidate named `candidate` (one of
    /// [`DynKernel::candidates`]) instead of the default configuration; its own conditions
    /// become preconditions of [`DynKernel::run`].
    pub fn compile_candidate(
        ctx: &Context,
        program_text: &str,
        kernel: &str,
        candidate: Option<&str>,
    ) -> Result<DynKernel> {
        let (prog, info) = check(program_text, kernel)?;
        if !prog.includes.is_empty() {
            return Err(Error::Compile {
                message: "`include!` is only supported inside `lift!`".into(),
            });
        }
        let compiled =
            lift_core::driver::compile_kernel(&prog, kernel).map_err(|e| Error::Compile {
                message: format!("kernel `{kernel}`: code generation: {e}"),
            })?;
        // The default configuration: the first candidate that applies to every size.
        let mut preconditions = compiled.preconditions;
        let names: Vec<String> = compiled.candidates.iter().map(|c| c.name.clone()).collect();
        let mut candidates = compiled.candidates;
        let chosen = match candidate {
            Some(name) => names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| Error::Compile {
                    message: format!(
                        "kernel `{kernel}` has no candidate `{name}` (it has {})",
                        names.join(", ")
                    ),
                })?,
            None => candidates
                .iter()
                .position(|c| c.conditions.is_empty())
                .unwrap_or(candidates.len() - 1),
        };
        let c = candidates.swap_remove(chosen);
        preconditions.extend(c.conditions);
        let gen = c.generated;
        let k = prog.kernel(kernel).cloned().ok_or_else(|| Error::Compile {
            message: format!("unknown kernel `{kernel}`"),
        })?;
        for p in &k.params {
            buffer_scalar(&p.ty, &format!("parameter `{}`", p.name))?;
        }
        buffer_scalar(&info.result, "the result")?;
        let program = ctx.build(&gen.source, "")?;
        let handles = gen
            .kernels
            .iter()
            .map(|g| program.kernel(&g.name))
            .collect::<Result<_>>()?;
        Ok(DynKernel {
            ctx: ctx.clone(),
            kernel: k,
            info,
            preconditions,
            candidates: names,
            gen,
            handles,
        })
    }

    /// The names of every candidate of the kernel, in the explorer's order.
    pub fn candidates(&self) -> &[String] {
        &self.candidates
    }

    /// The kernel's parameters and size variables, as declared.
    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    /// The launch-time conditions of the compiled candidate (the kernel's and its own).
    pub fn preconditions(&self) -> &[Precondition] {
        &self.preconditions
    }

    /// Do the sizes (one per size variable) satisfy every precondition of the compiled
    /// candidate?
    pub fn applies(&self, sizes: &[usize]) -> bool {
        self.check_sizes(sizes).is_ok()
    }

    /// The OpenCL C program.
    pub fn source(&self) -> &str {
        &self.gen.source
    }

    /// The low-level expression compiled into [`Self::source`].
    pub fn lowered(&self) -> &str {
        &self.gen.lowered
    }

    /// The inferred result type.
    pub fn result_type(&self) -> &Type {
        &self.info.result
    }

    /// Checks the sizes (one per size variable, in declaration order) and every size
    /// precondition; gives the size bindings.
    fn check_sizes(&self, sizes: &[usize]) -> Result<HashMap<String, i64>> {
        let names = &self.kernel.sizes;
        if sizes.len() != names.len() {
            return Err(Error::ArgLength {
                arg: "sizes".into(),
                expected: names.len(),
                actual: sizes.len(),
            });
        }
        let env: HashMap<String, i64> = names
            .iter()
            .zip(sizes)
            .map(|((n, _), &v)| Ok((n.clone(), size(n, v)?)))
            .collect::<Result<_>>()?;
        let lookup = |n: &str| env.get(n).copied();
        for p in &self.preconditions {
            let origin = format!("{} ({})", p.origin, p.reason);
            match &p.cond {
                Cond::Divisible(n, d) => check_divisible(
                    &n.to_string(),
                    &d.to_string(),
                    &origin,
                    eval(n, &lookup)?,
                    eval(d, &lookup)?,
                )?,
                Cond::Le(a, b) => check_le(
                    &a.to_string(),
                    &b.to_string(),
                    &origin,
                    eval(a, &lookup)?,
                    eval(b, &lookup)?,
                )?,
            }
        }
        Ok(env)
    }

    /// Runs the kernel with `sizes` (one per size variable) on `args` (one per parameter):
    /// checks sizes, preconditions and argument shapes, uploads, launches every generated
    /// kernel, waits and downloads the result.
    pub fn run(&self, sizes: &[usize], args: &[Value]) -> Result<Value> {
        self.run_traced(sizes, args, &mut Vec::new())
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
        let v = self.run_traced(sizes, args, &mut races)?;
        Ok((v, races))
    }

    fn run_traced(&self, sizes: &[usize], args: &[Value], races: &mut Vec<Race>) -> Result<Value> {
        let env = self.check_sizes(sizes)?;
        let lookup = |n: &str| env.get(n).copied();
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
            })?;
            device.push(match a {
                Value::Scalar(s) => DeviceArg::Scalar(*s),
                a => {
                    let s = buffer_scalar(&p.ty, &p.name)?;
                    DeviceArg::Buffer(upload(&self.ctx, s, &a.flatten())?)
                }
            });
        }
        let out_scalar = buffer_scalar(&self.info.result, "the result")?;
        let out = alloc(
            &self.ctx,
            out_scalar,
            scalar_count(&self.info.result, &lookup)?,
        )?;
        let temps = self
            .gen
            .temporaries
            .iter()
            .map(|t| self.ctx.alloc::<u8>(to_usize(eval(&t.bytes, &lookup)?)?))
            .collect::<Result<Vec<_>>>()?;
        let mut last = None;
        for (gk, k) in self.gen.kernels.iter().zip(&self.handles) {
            let mut traced = None;
            for (i, a) in gk.args.iter().enumerate() {
                let i = i as u32;
                match a {
                    KernelArg::Input { param } | KernelArg::Scalar { param } => {
                        match device.get(*param) {
                            Some(DeviceArg::Buffer(b)) => with_buffer!(b, b => k.set_buffer(i, b))?,
                            Some(DeviceArg::Scalar(s)) => set_scalar(k, i, *s)?,
                            None => return Err(Error::launch("kernel argument out of range")),
                        }
                    }
                    KernelArg::Output => with_buffer!(&out, b => k.set_buffer(i, b))?,
                    KernelArg::Temporary(t) => match temps.get(*t) {
                        Some(b) => k.set_buffer(i, b)?,
                        None => return Err(Error::launch("temporary out of range")),
                    },
                    KernelArg::Size(s) => {
                        let v = lookup(s)
                            .ok_or_else(|| Error::launch(format!("unbound size variable `{s}`")))?;
                        k.set_scalar(i, v as i32)?;
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
            last = Some(k.enqueue(&self.ctx, &global, local.as_deref())?);
            if let Some((t, buffers)) = traced {
                let log = t.download()?;
                let count = log.first().copied().unwrap_or(0);
                if count as usize > TRACE_CAP {
                    return Err(Error::launch(format!(
                        "race checker: {count} accesses, more than the trace holds ({TRACE_CAP}); use smaller sizes"
                    )));
                }
                let (names, local): (Vec<String>, Vec<bool>) = buffers.iter().cloned().unzip();
                races.extend(
                    trace::races(&log, &names, &local)
                        .into_iter()
                        .map(|r| Race {
                            kernel: gk.name.clone(),
                            race: r,
                        }),
                );
            }
        }
        if let Some(e) = last {
            e.wait()?;
        }
        let flat = download(&out)?;
        Value::from_flat(&self.info.result, &lookup, &flat).map_err(|e| Error::Launch {
            reason: format!("result: {e}"),
        })
    }
}

/// Parses and type-checks `text`; gives the program and the checker's output for `kernel`.
fn check(text: &str, kernel: &str) -> Result<(Program, KernelInfo)> {
    let mut prog = lift_core::parse::parse_program_str(text).map_err(|e| compile_error(&e))?;
    let infos = typeck::check_program(&mut prog).map_err(|e| compile_error(&e))?;
    let info = infos
        .into_iter()
        .find(|i| i.name == kernel)
        .ok_or_else(|| Error::Compile {
            message: format!("unknown kernel `{kernel}`"),
        })?;
    Ok((prog, info))
}
