//! Compiling a [`DynKernel`]: parsing, type-checking, exploring and building, one candidate
//! or the one the tuner chooses.

use super::buffers::buffer_scalar;
use super::{eval, holds, DynKernel, Summary};
use crate::private::kernel_id;
use crate::select::CandidateFacts;
use crate::tune::{self, TuneJob, TuneOptions};
use crate::{Context, Error, Result, Tuned};
use lift_core::arith::Nat;
use lift_core::codegen::trace;
use lift_core::interp::Value;
use lift_core::ir::Program;
use lift_core::typeck::{self, KernelInfo};
use lift_core::CompileError;
use std::collections::HashMap;
use std::rc::Rc;

/// The explored and generated candidates of kernel `kernel` of `prog` (parsed from `text`)
/// for `device`. The last few are kept: compiling one candidate after another of the same
/// program (the differential tests, the tuner of `lift run`) explores it once, and shares
/// the candidates rather than copying every one of them (with its syntax tree) per compile.
fn compiled(
    prog: &lift_core::ir::Program,
    text: &str,
    kernel: &str,
    device: &lift_core::device::DeviceModel,
) -> Result<Rc<lift_core::driver::Compiled>> {
    type Entry = (
        (String, String, String, String),
        Rc<lift_core::driver::Compiled>,
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
            .map(|(_, c)| Rc::clone(c))
    });
    if let Some(c) = hit {
        return Ok(c);
    }
    // Untraced: the process-wide (and on-disk) exploration the launchers share.
    let c = Rc::new(if key.2 == format!("{:?}", trace::Options::default()) {
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
    });
    RECENT.with(|r| {
        let mut r = r.borrow_mut();
        if r.len() == KEEP {
            r.remove(0);
        }
        r.push((key, Rc::clone(&c)));
    });
    Ok(c)
}

fn compile_error(e: &CompileError) -> Error {
    let at = e.span.start();
    Error::Compile {
        message: format!("{}:{}: {}", at.line, at.column + 1, e.message),
    }
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
        let model = ctx.device_model();
        let compiled = compiled(&prog, program_text, kernel, &model)?;
        // The default configuration: the first candidate that applies to every size.
        let mut preconditions = compiled.preconditions.clone();
        let names: Vec<String> = compiled.candidates.iter().map(|c| c.name.clone()).collect();
        let candidates = &compiled.candidates;
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
        let c = &candidates[chosen];
        let conditions: Vec<String> = c.conditions.iter().map(|p| p.to_string()).collect();
        preconditions.extend(c.conditions.iter().cloned());
        let gen = c.generated.clone();
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
