//! The compiler driver: one function sequences the stages of a kernel, each stage doing one
//! job:
//!
//! ```text
//! parse → typeck → explore::normalise → rewrite::points → explore::candidates → codegen
//! ```
//!
//! The input is a parsed, type-checked program; the output is every candidate of the kernel
//! compiled to OpenCL C with the launch-time conditions under which it applies, in the
//! explorer's order of preference. The macro and [`DynKernel`] hand this to the runtime, which
//! picks a candidate per launch (cached tuning result, else the first that fits the device).
//!
//! [`DynKernel`]: https://docs.rs/lift-runtime

use crate::codegen::{self, CodegenError, Generated};
use crate::device::DeviceModel;
use crate::explore::{self, Candidate, Lowering, Scope};
use crate::ir::Program;
use crate::rewrite::points::{apply_points, PointWarning};
use crate::rewrite::RewriteError;
use crate::typeck::{check_program, KernelInfo, Precondition};

/// A kernel compiled to all its candidates.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The kernel's name.
    pub kernel: String,
    /// Rewrite points that did not apply (dropped), for the macro to report as warnings.
    pub warnings: Vec<PointWarning>,
    /// Launch-time conditions of the kernel itself (as written, plus those of the applied
    /// rewrite points): checked before any candidate runs.
    pub preconditions: Vec<Precondition>,
    /// The candidates, in order of preference; never empty.
    pub candidates: Vec<CompiledCandidate>,
    /// Derivations that did not become candidates, in the order they were tried: the
    /// explorer's dropped ones (a rule's result that did not type-check or lower), then those
    /// code generation refused; name and reason.
    pub rejected: Vec<(String, String)>,
}

/// One candidate compiled to OpenCL C (serialisable: the runtime caches explored candidates
/// on disk).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CompiledCandidate {
    /// `strategy(param=value, ...)`.
    pub name: String,
    /// The derivation strategy ([`explore::Strategy::kind`]).
    pub strategy: String,
    /// The tuning parameters by name ([`explore::Strategy::params`]): for display and the
    /// caches, made from the typed strategy and never read back by the compiler.
    pub params: Vec<(String, i64)>,
    /// Conditions beyond [`Compiled::preconditions`] under which this candidate applies
    /// (the divisibility its tiles need); the runtime skips it when they fail.
    pub conditions: Vec<Precondition>,
    /// The OpenCL C program and how to launch it.
    pub generated: Generated,
}

/// Why a kernel could not be compiled.
#[derive(Debug, Clone, thiserror::Error)]
pub enum DriverError {
    /// The rewrite points (or the program before them) failed to type-check.
    #[error("{0}")]
    Rewrite(#[from] RewriteError),
    /// No candidate could be compiled; the reason of the last (the default mapping).
    #[error("{0}")]
    Codegen(#[from] CodegenError),
}

/// Compiles kernel `kernel` of the parsed program `prog` through every stage after parsing:
/// every candidate of the whole space ([`Scope::All`]), in order of preference. What the
/// tuner times; it costs seconds for a product (it runs at tune time, never in the macro).
/// For [`DeviceModel::DEFAULT`], the build-time assumption (see [`compile_kernel_for`]).
pub fn compile_kernel(prog: &Program, kernel: &str) -> Result<Compiled, DriverError> {
    compile_kernel_for(prog, kernel, &DeviceModel::DEFAULT)
}

/// [`compile_kernel`] for the device `device` describes: explored and generated for its
/// work-group sizes, local memory, vector width and banks ([`explore::candidates_for`]).
pub fn compile_kernel_for(
    prog: &Program,
    kernel: &str,
    device: &DeviceModel,
) -> Result<Compiled, DriverError> {
    let (pointed, warnings, info) = prepare(prog, kernel)?;
    let mut candidates = Vec::new();
    let explored = explore::explore(&pointed, kernel, &info, Scope::All, device);
    let mut rejected: Vec<(String, String)> = (explored.dropped.into_iter())
        .map(|d| (d.name, format!("dropped by the explorer: {}", d.reason)))
        .collect();
    let mut last_error = None;
    for c in explored.candidates {
        match compile_candidate(&c, kernel, (&pointed, &info), device) {
            Ok(cc) => candidates.push(cc),
            Err(e) => {
                rejected.push((c.name(), e.to_string()));
                last_error = Some(e);
            }
        }
    }
    finish(
        kernel, &pointed, info, warnings, candidates, rejected, last_error,
    )
}

/// Compiles the default configuration of kernel `kernel` of `prog` alone: the first candidate
/// of [`Scope::Default`] that applies to every size and compiles (else the last that
/// compiles), generating no other. What the macro emits as `SOURCE`; milliseconds where
/// [`compile_kernel`] takes seconds. [`Compiled::candidates`] holds that one candidate.
/// For [`DeviceModel::DEFAULT`] (see [`compile_default_for`]).
pub fn compile_default(prog: &Program, kernel: &str) -> Result<Compiled, DriverError> {
    compile_default_for(prog, kernel, &DeviceModel::DEFAULT)
}

/// [`compile_default`] for the device `device` describes.
pub fn compile_default_for(
    prog: &Program,
    kernel: &str,
    device: &DeviceModel,
) -> Result<Compiled, DriverError> {
    let (pointed, warnings, info) = prepare(prog, kernel)?;
    let cands = explore::candidates_for(&pointed, kernel, &info, Scope::Default, device);
    let mut rejected = Vec::new();
    let mut last_error = None;
    let unconditional = cands
        .iter()
        .filter(|c| extra_conditions(&c.info, &info).is_empty());
    for c in unconditional.chain(cands.iter().rev()) {
        match compile_candidate(c, kernel, (&pointed, &info), device) {
            Ok(cc) => {
                let candidates = vec![cc];
                return finish(kernel, &pointed, info, warnings, candidates, rejected, None);
            }
            Err(e) => {
                rejected.push((c.name(), e.to_string()));
                last_error = Some(e);
            }
        }
    }
    finish(
        kernel,
        &pointed,
        info,
        warnings,
        Vec::new(),
        rejected,
        last_error,
    )
}

/// The program after normalisation and rewrite points, the dropped points, and its checker
/// output for `kernel`: what the explorer ([`explore::candidates_for`]) takes.
pub fn prepare(
    prog: &Program,
    kernel: &str,
) -> Result<(Program, Vec<PointWarning>, KernelInfo), DriverError> {
    let normal = explore::normalise::normalise_kernel(prog, kernel)?;
    let (pointed, warnings) = apply_points(&normal, kernel)?;
    let info = kernel_info(&pointed, kernel)?;
    Ok((pointed, warnings, info))
}

/// Candidate `c` compiled to OpenCL C, with its conditions beyond the kernel's (`info`).
fn compile_candidate(
    c: &Candidate,
    kernel: &str,
    (prog, info): (&Program, &KernelInfo),
    device: &DeviceModel,
) -> Result<CompiledCandidate, CodegenError> {
    Ok(CompiledCandidate {
        name: c.name(),
        strategy: c.strategy.kind().to_string(),
        params: c.strategy.params(),
        conditions: extra_conditions(&c.info, info),
        generated: generate(c, kernel, prog, device)?,
    })
}

/// The compiled kernel, or why no candidate compiled.
fn finish(
    kernel: &str,
    pointed: &Program,
    info: KernelInfo,
    warnings: Vec<PointWarning>,
    candidates: Vec<CompiledCandidate>,
    rejected: Vec<(String, String)>,
    last_error: Option<CodegenError>,
) -> Result<Compiled, DriverError> {
    if candidates.is_empty() {
        // Why the default mapping refused the body, if it did.
        let why = || match explore::lower::lower_program(pointed, kernel, &info) {
            Err(e) => e,
            Ok(_) => CodegenError::Unsupported("no candidate".into()),
        };
        return Err(last_error.unwrap_or_else(why).into());
    }
    Ok(Compiled {
        kernel: kernel.to_string(),
        warnings,
        preconditions: info.preconditions,
        candidates,
        rejected,
    })
}

/// Compiles candidate `c` of kernel `kernel` (of `prog`) to OpenCL C for `device`.
fn generate(
    c: &Candidate,
    kernel: &str,
    prog: &Program,
    device: &DeviceModel,
) -> Result<Generated, CodegenError> {
    match &c.lowering {
        Lowering::Program(p) => {
            codegen::generate_with(p, kernel, &c.info, &c.strategy.options(device))
        }
        Lowering::Stages(stages) => {
            let params = prog
                .kernel(kernel)
                .ok_or_else(|| CodegenError::UnknownKernel(kernel.to_string()))?
                .params
                .len();
            let gens = stages
                .iter()
                .map(|s| {
                    Ok(codegen::stages::StageGen {
                        generated: generate(&s.candidate, &s.kernel, prog, device)?,
                        result: s.result.clone(),
                    })
                })
                .collect::<Result<Vec<_>, CodegenError>>()?;
            codegen::stages::merge(gens, params)
        }
    }
}

/// The checker's output for kernel `kernel` of `prog`.
fn kernel_info(prog: &Program, kernel: &str) -> Result<KernelInfo, DriverError> {
    let mut p = prog.clone();
    let infos = check_program(&mut p).map_err(RewriteError::After)?;
    infos
        .into_iter()
        .find(|i| i.name == kernel)
        .ok_or_else(|| RewriteError::UnknownKernel(kernel.to_string()).into())
}

/// The candidate's preconditions that the kernel's own do not already state.
fn extra_conditions(cand: &KernelInfo, kernel: &KernelInfo) -> Vec<Precondition> {
    cand.preconditions
        .iter()
        .filter(|p| !kernel.preconditions.iter().any(|q| q.cond == p.cond))
        .cloned()
        .collect()
}
