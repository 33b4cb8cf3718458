//! Programs compiled at run time: [`DynKernel`] parses, type-checks and generates a kernel
//! from `lift!` source text, builds it (through the program cache) and runs it on
//! interpreter [`Value`]s, with the checks of the generated `run`.

use crate::private::{check_divisible, check_le, kernel_id, round_up_in_place, size, to_usize};
use crate::select::CandidateFacts;
use crate::tune::{self, TuneJob, TuneOptions};
use crate::{Buffer, Context, Error, KernelHandle, Result, Tuned};
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
    /// The kernel's own launch-time conditions (without any candidate's).
    kernel_preconditions: Vec<Precondition>,
    preconditions: Vec<Precondition>,
    candidates: Vec<String>,
    summaries: Vec<Summary>,
    chosen: usize,
    lift_text: String,
    kernel_id: String,
    gen: Generated,
    /// The kernels built with 32-bit indices.
    handles: Vec<KernelHandle>,
    /// The kernels built with 64-bit indices, on the first launch that needs them.
    wide: std::sync::OnceLock<Vec<KernelHandle>>,
    /// The kernels built for one set of sizes ([`DynKernel::specialise`]): the sizes, and
    /// the handles (built with the index width those sizes need).
    special: Option<(Vec<usize>, Vec<KernelHandle>)>,
}

/// The explored and generated candidates of kernel `kernel` of `prog` (parsed from `text`)
/// for `device`. The last few are kept: compiling one candidate after another of the same
/// program (the differential tests, the tuner of `lift run`) explores it once.
fn compiled(
    prog: &lift_core::ir::Program,
    text: &str,
    kernel: &str,
    device: &lift_core::device::DeviceModel,
) -> Result<lift_core::driver::Compiled> {
    type Entry = (
        (String, String, String, String),
        lift_core::driver::Compiled,
    );
    thread_local! {
        // Per thread: compiled programs hold spans, which stay on their thread.
        static RECENT: std::cell::RefCell<Vec<Entry>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    const KEEP: usize = 4;
    // Tracing (`compile_traced`) changes the generated code: it is part of the key.
    let opts = format!("{:?}", lift_core::codegen::trace::options());
    let key = (
        text.to_string(),
        kernel.to_string(),
        opts,
        format!("{device:?}"),
    );
    let hit = RECENT.with(|r| {
        r.borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, c)| c.clone())
    });
    if let Some(c) = hit {
        return Ok(c);
    }
    // Untraced: the process-wide (and on-disk) exploration the launchers share.
    let c = if key.2 == format!("{:?}", trace::Options::default()) {
        let ex = crate::explored::explored_for(text, kernel, &kernel_id(kernel, text), device)?;
        lift_core::driver::Compiled {
            kernel: kernel.to_string(),
            warnings: Vec::new(),
            preconditions: ex.preconditions,
            candidates: ex.candidates,
            rejected: Vec::new(),
        }
    } else {
        lift_core::driver::compile_kernel_for(prog, kernel, device).map_err(|e| Error::Compile {
            message: format!("kernel `{kernel}`: code generation: {e}"),
        })?
    };
    RECENT.with(|r| {
        let mut r = r.borrow_mut();
        if r.len() == KEEP {
            r.remove(0);
        }
        r.push((key, c.clone()));
    });
    Ok(c)
}

/// What [`DynKernel`] keeps of every candidate to choose among them at given sizes.
#[derive(Clone, Debug)]
struct Summary {
    params: Vec<(String, i64)>,
    conditions: Vec<Precondition>,
    /// The first fixed work-group size of its kernels.
    local: Option<Vec<Nat>>,
    /// The global size of that kernel.
    global: Vec<Nat>,
    /// The static local memory of each of its kernels.
    local_mem: Vec<Nat>,
    /// The bytes of each of its global temporaries.
    temporaries: Vec<Nat>,
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
pub(crate) fn eval(n: &Nat, env: &dyn Fn(&str) -> Option<i64>) -> Result<i64> {
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
        let model = crate::explored::model_for(ctx);
        let compiled = compiled(&prog, program_text, kernel, &model)?;
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
        let summaries: Vec<Summary> = candidates
            .iter()
            .map(|c| Summary {
                params: c.params.clone(),
                conditions: c.conditions.clone(),
                local: c.generated.kernels.iter().find_map(|k| k.local.clone()),
                global: c
                    .generated
                    .kernels
                    .iter()
                    .find(|k| k.local.is_some())
                    .map(|k| k.global.clone())
                    .unwrap_or_default(),
                local_mem: c
                    .generated
                    .kernels
                    .iter()
                    .map(|k| k.local_mem_bytes.clone())
                    .collect(),
                temporaries: c
                    .generated
                    .temporaries
                    .iter()
                    .map(|t| t.bytes.clone())
                    .collect(),
            })
            .collect();
        let kernel_preconditions = preconditions.clone();
        let c = candidates.swap_remove(chosen);
        let conditions: Vec<String> = c.conditions.iter().map(|p| p.to_string()).collect();
        preconditions.extend(c.conditions);
        let gen = c.generated;
        let k = prog.kernel(kernel).cloned().ok_or_else(|| Error::Compile {
            message: format!("unknown kernel `{kernel}`"),
        })?;
        // The text and id the launcher of the same kernel in `lift!` has (`Name::LIFT`), so
        // that both share tuning cache entries.
        let lift_text = lift_core::print::program(&Program {
            funs: prog.funs.clone(),
            kernels: vec![k.clone()],
            includes: Vec::new(),
        });
        let id = kernel_id(kernel, &lift_text);
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
        let params: Vec<(&str, i64)> = summaries[chosen]
            .params
            .iter()
            .map(|(n, v)| (n.as_str(), *v))
            .collect();
        crate::dump::kernel(&crate::dump::KernelDump {
            kernel,
            kernel_id: &id,
            lift: &lift_text,
            index: chosen,
            candidate: &names[chosen],
            params: &params,
            conditions: &conditions.join("; "),
            lowered: &gen.lowered,
            source: &gen.source,
            builder: "DynKernel",
        });
        Ok(DynKernel {
            ctx: ctx.clone(),
            kernel: k,
            info,
            kernel_preconditions,
            preconditions,
            candidates: names,
            summaries,
            chosen,
            lift_text,
            kernel_id: id,
            gen,
            handles,
            wide: std::sync::OnceLock::new(),
            special: None,
        })
    }

    /// [`DynKernel::compile`] with the candidate a `lift!` launcher would run at `sizes` (one
    /// per size variable): the tuner's cached choice for this kernel, device and sizes, else
    /// the first candidate whose conditions hold and that fits the device
    /// ([`crate::select::default_choice`]).
    pub fn compile_for(
        ctx: &Context,
        program_text: &str,
        kernel: &str,
        sizes: &[usize],
    ) -> Result<DynKernel> {
        let base = DynKernel::compile(ctx, program_text, kernel)?;
        let facts = base.facts(sizes)?;
        let names: Vec<&str> = base.candidates.iter().map(String::as_str).collect();
        let (chosen, special) = tune::cached_choice(ctx, &base.kernel_id, sizes, &names)
            .filter(|&(c, _)| facts.get(c).is_some_and(|f| f.applies && f.fits(ctx)))
            .or_else(|| crate::select::default_choice(ctx, &facts).map(|c| (c, false)))
            .ok_or_else(|| crate::select::no_choice(ctx, &names, &facts))?;
        let mut dk = match chosen == base.chosen {
            true => base,
            false => DynKernel::compile_candidate(ctx, program_text, kernel, Some(names[chosen]))?,
        };
        if special {
            dk.specialise(sizes)?;
        }
        Ok(dk)
    }

    /// Tunes kernel `kernel` of `program_text` for `sizes` on `ctx`'s device with the
    /// runtime's tuner ([`crate::tune`]) and its cache: unless the cache holds a choice for
    /// this kernel, device and sizes (or `opts.retune`), every candidate that applies and
    /// fits the device is checked against the interpreter on a small input, then timed on
    /// `args` (the sum of its kernels' profiled times). Gives the chosen candidate, compiled,
    /// and the tuner's report. The cache key is the one the `lift!` launcher of the same
    /// kernel uses, so a tuning done here serves compiled programs too.
    pub fn tune(
        ctx: &Context,
        program_text: &str,
        kernel: &str,
        sizes: &[usize],
        args: &[Value],
        opts: &TuneOptions,
    ) -> Result<(DynKernel, Tuned)> {
        let base = DynKernel::compile(ctx, program_text, kernel)?;
        base.check_sizes_with(sizes, &base.kernel_preconditions)?;
        let facts = base.facts(sizes)?;
        let names: Vec<&str> = base.candidates.iter().map(String::as_str).collect();
        let params: Vec<Vec<(&str, i64)>> = base
            .summaries
            .iter()
            .map(|s| s.params.iter().map(|(n, v)| (n.as_str(), *v)).collect())
            .collect();
        let param_refs: Vec<&[(&str, i64)]> = params.iter().map(Vec::as_slice).collect();
        let job = TuneJob {
            kernel_id: &base.kernel_id,
            sizes,
            names: &names,
            params: &param_refs,
            facts: &facts,
            specialise: true,
        };
        if !opts.retune {
            if let Some((i, t)) = tune::cached(ctx, &job) {
                let mut dk = match i == base.chosen {
                    true => base,
                    false => {
                        DynKernel::compile_candidate(ctx, program_text, kernel, Some(names[i]))?
                    }
                };
                if t.specialised {
                    dk.specialise(sizes)?;
                }
                return Ok((dk, t));
            }
        }
        let mut built: HashMap<usize, DynKernel> = HashMap::new();
        let (i, t) = tune::tune_with(
            ctx,
            &job,
            &|i| tune::check_candidate(ctx, program_text, kernel, names[i]),
            &mut |i, special| {
                if let std::collections::hash_map::Entry::Vacant(e) = built.entry(i) {
                    e.insert(DynKernel::compile_candidate(
                        ctx,
                        program_text,
                        kernel,
                        Some(names[i]),
                    )?);
                }
                let dk = built
                    .get_mut(&i)
                    .ok_or_else(|| Error::launch("candidate not built"))?;
                dk.use_build(sizes, special)?;
                dk.run_timed(sizes, args).map(|(_, ms)| ms)
            },
            opts,
        )?;
        let mut dk = match built.remove(&i) {
            Some(dk) => dk,
            None => DynKernel::compile_candidate(ctx, program_text, kernel, Some(names[i]))?,
        };
        dk.use_build(sizes, t.specialised)?;
        Ok((dk, t))
    }

    /// For every candidate at `sizes` (checked against the kernel's preconditions): whether
    /// its conditions hold and what it needs of the device.
    fn facts(&self, sizes: &[usize]) -> Result<Vec<CandidateFacts>> {
        let env = self.check_sizes_with(sizes, &self.kernel_preconditions)?;
        let lookup = |n: &str| env.get(n).copied();
        Ok(self
            .summaries
            .iter()
            .map(|s| {
                let value = |x: &Nat| {
                    eval(x, &lookup)
                        .ok()
                        .and_then(|v| usize::try_from(v).ok())
                        .unwrap_or(usize::MAX)
                };
                CandidateFacts {
                    applies: s.conditions.iter().all(|p| holds(&p.cond, &lookup)),
                    groups: s.local.as_ref().and_then(|l| {
                        let n =
                            |x: &Nat| eval(x, &lookup).ok().and_then(|v| usize::try_from(v).ok());
                        s.global.iter().zip(l).try_fold(1usize, |acc, (g, l)| {
                            acc.checked_mul(n(g)?.div_ceil(n(l)?.max(1)))
                        })
                    }),
                    group: s.local.as_ref().map(|l| l.iter().map(value).collect()),
                    local_bytes: s.local_mem.iter().map(value).max().unwrap_or(0),
                    temporaries: s.temporaries.iter().map(value).collect(),
                }
            })
            .collect())
    }

    /// The name of the compiled candidate.
    pub fn candidate(&self) -> &str {
        &self.candidates[self.chosen]
    }

    /// The index of the compiled candidate in [`DynKernel::candidates`].
    pub fn candidate_index(&self) -> usize {
        self.chosen
    }

    /// The tuning parameters of the compiled candidate.
    pub fn candidate_params(&self) -> &[(String, i64)] {
        &self.summaries[self.chosen].params
    }

    /// The kernel with the user functions it calls, printed as `lift!` source: what the
    /// launcher of the same kernel calls `Name::LIFT`.
    pub fn lift_text(&self) -> &str {
        &self.lift_text
    }

    /// The kernel's id in the tuning cache (its name and a hash of [`Self::lift_text`]), the
    /// same as the `lift!` launcher's for the same kernel.
    pub fn kernel_id(&self) -> &str {
        &self.kernel_id
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
        self.check_sizes_with(sizes, &self.preconditions)
    }

    /// [`Self::check_sizes`] against the conditions `preconditions`.
    fn check_sizes_with(
        &self,
        sizes: &[usize],
        preconditions: &[Precondition],
    ) -> Result<HashMap<String, i64>> {
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
        for p in preconditions {
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

    /// Makes runs at `sizes` use the build for them (`special`) or the general one.
    fn use_build(&mut self, sizes: &[usize], special: bool) -> Result<()> {
        match (special, &self.special) {
            (true, Some((at, _))) if at == sizes => Ok(()),
            (true, _) => self.specialise(sizes),
            (false, _) => {
                self.special = None;
                Ok(())
            }
        }
    }

    /// Whether a launch with the sizes of `lookup` indexes with 64-bit arithmetic (an array,
    /// a temporary or a view's extent is too large for 32-bit indices).
    fn wide_at(&self, lookup: &dyn Fn(&str) -> Option<i64>) -> Result<bool> {
        let temp_extents = self.gen.temporaries.iter().map(|t| &t.scalars);
        let extents = self
            .info
            .extents
            .iter()
            .chain(temp_extents)
            .map(|n| eval(n, lookup));
        crate::private::index64(extents)
    }

    /// Builds the kernels for `sizes` (one per size variable): the program with every size
    /// variable a constant (`-DLIFT_SIZE_<name>=<value>`: index arithmetic folds, divisions
    /// by sizes become multiplications), used by runs at exactly these sizes; other sizes
    /// run the general build. What a tuned choice runs ([`crate::Tuned::specialised`]).
    pub fn specialise(&mut self, sizes: &[usize]) -> Result<()> {
        let env = self.check_sizes(sizes)?;
        let lookup = |n: &str| env.get(n).copied();
        let wide = self.wide_at(&lookup)?;
        let names = self.kernel.sizes.iter().map(|(n, _)| n.as_str());
        let values = sizes.iter().map(|&v| v as i64);
        let options = format!(
            "{}{}",
            crate::private::index_options(wide),
            tune::size_options(names.zip(values))
        );
        let program = self.ctx.build(&self.gen.source, &options)?;
        let handles = self
            .gen
            .kernels
            .iter()
            .map(|g| program.kernel(&g.name))
            .collect::<Result<Vec<_>>>()?;
        self.special = Some((sizes.to_vec(), handles));
        Ok(())
    }

    /// The kernels built with 64-bit indices (built on first use).
    fn wide_handles(&self) -> Result<&[KernelHandle]> {
        if let Some(h) = self.wide.get() {
            return Ok(h);
        }
        let program = self
            .ctx
            .build(&self.gen.source, crate::private::index_options(true))?;
        let handles = self
            .gen
            .kernels
            .iter()
            .map(|g| program.kernel(&g.name))
            .collect::<Result<Vec<_>>>()?;
        Ok(self.wide.get_or_init(|| handles))
    }

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

    fn run_traced(
        &self,
        sizes: &[usize],
        args: &[Value],
        races: &mut Vec<Race>,
        mut time_ms: Option<&mut f64>,
    ) -> Result<Value> {
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
        let wide = self.wide_at(&lookup)?;
        let handles = match &self.special {
            Some((at, h)) if at == sizes => h,
            _ if wide => self.wide_handles()?,
            _ => &self.handles,
        };
        let mut last = None;
        for (gk, k) in self.gen.kernels.iter().zip(handles) {
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
                    KernelArg::Count => match &count {
                        Some(c) => k.set_buffer(i, c)?,
                        None => return Err(Error::launch("a length buffer for a full result")),
                    },
                    KernelArg::Temporary(t) => match temps.get(*t) {
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
            // SAFETY: every argument was set above from the kernel's `args`, with buffers whose
            // lengths `check_arg` and the allocations above derived from the sizes.
            let ev = unsafe { k.enqueue(&self.ctx, &global, local.as_deref()) }?;
            if let Some(t) = time_ms.as_deref_mut() {
                ev.wait()?;
                *t += ev.profile_ns()? as f64 / 1e6;
            }
            last = Some(ev);
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
        let mut flat = download(&out)?;
        if let (Some(c), Type::Capped(elem, _)) = (&count, &self.info.result) {
            let kept = c.download()?.first().copied().unwrap_or(0);
            let kept = usize::try_from(kept).map_err(|_| Error::launch("a negative length"))?;
            flat.truncate(kept.saturating_mul(scalar_count(elem, &lookup)?));
        }
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

/// Does `cond` hold with the sizes of `env`? (An arithmetic error counts as no.)
pub(crate) fn holds(cond: &Cond, env: &dyn Fn(&str) -> Option<i64>) -> bool {
    match cond {
        Cond::Divisible(a, b) => {
            matches!((a.eval(env), b.eval(env)), (Ok(a), Ok(b)) if b != 0 && a % b == 0)
        }
        Cond::Le(a, b) => matches!((a.eval(env), b.eval(env)), (Ok(a), Ok(b)) if a <= b),
    }
}
