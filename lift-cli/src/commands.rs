//! The subcommands of `lift`.

use crate::diag::{render, Severity};
use crate::source::SourceFile;
use crate::{npy, CliError, Command, DataArgs};
use lift_runtime::core::driver::{self, Compiled, CompiledCandidate};
use lift_runtime::core::interp::{self, Scalar, Value};
use lift_runtime::core::ir::{Kernel, Program};
use lift_runtime::core::typeck::{self, KernelInfo};
use lift_runtime::core::types::{ScalarType, Type};
use lift_runtime::tune::TuneOptions;
use lift_runtime::{Context, DynKernel};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

/// Runs one subcommand.
pub fn run(cmd: Command) -> Result<ExitCode, CliError> {
    match cmd {
        Command::Devices => devices(),
        Command::Check { file } => check(&file),
        Command::Emit {
            file,
            kernel,
            lowered,
            opencl: _,
            candidates,
            candidate,
        } => {
            let what = if candidates {
                Emit::Candidates
            } else if lowered {
                Emit::Lowered
            } else {
                Emit::OpenCl
            };
            emit(&file, kernel.as_deref(), what, candidate.as_deref())
        }
        Command::Run {
            file,
            kernel,
            data,
            output,
            candidate,
            check,
        } => run_kernel(
            &file,
            &kernel,
            &data,
            output.as_deref(),
            candidate.as_deref(),
            check,
        ),
        Command::Tune {
            file,
            kernel,
            data,
            retune,
        } => tune(&file, &kernel, &data, retune),
    }
}

/// Colour in diagnostics: only on a terminal, and not with `NO_COLOR`.
fn color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

fn devices() -> Result<ExitCode, CliError> {
    let devices = lift_runtime::devices()?;
    for d in &devices {
        outln!(
            "{d}\n    {} | max work-group {} | work-item sizes {:?} | local {} KiB | global {} MiB | fp64 {} | fp16 {}",
            d.version,
            d.max_work_group_size,
            d.max_work_item_sizes,
            d.local_mem_bytes / 1024,
            d.global_mem_bytes / (1024 * 1024),
            d.fp64,
            d.fp16
        );
    }
    let ctx = Context::new()?;
    outln!(
        "used: device {} ({}; set {} to choose another)",
        ctx.device_info().index,
        ctx.device_info().name,
        lift_runtime::DEVICE_ENV
    );
    Ok(ExitCode::SUCCESS)
}

/// The checked programs of a file, and how many blocks failed (their errors printed).
struct Parsed {
    file: SourceFile,
    /// Per block that parsed and checked: its index, program and kernel infos.
    progs: Vec<(usize, Program, Vec<KernelInfo>)>,
    errors: usize,
}

/// Parses and type-checks every program of `path`, printing each error with its snippet.
fn parse_all(path: &Path) -> Result<Parsed, CliError> {
    let file = SourceFile::read(path)?;
    let mut progs = Vec::new();
    let mut errors = 0;
    for (bi, block) in file.blocks.iter().enumerate() {
        let result = lift_runtime::core::parse::parse_program_str(&block.text).and_then(|mut p| {
            let infos = typeck::check_program(&mut p)?;
            Ok((p, infos))
        });
        match result {
            Ok((p, infos)) => progs.push((bi, p, infos)),
            Err(e) => {
                eprint!(
                    "{}",
                    render(&file, Severity::Error, e.span, &e.message, color())
                );
                errors += 1;
            }
        }
    }
    Ok(Parsed {
        file,
        progs,
        errors,
    })
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// `kernel Name<N, M>(x: [f32; N], ...) -> RESULT`.
fn signature(k: &Kernel, info: &KernelInfo) -> String {
    let sizes: Vec<&str> = k.sizes.iter().map(|(s, _)| s.as_str()).collect();
    let params: Vec<String> = k
        .params
        .iter()
        .map(|p| format!("{}: {}", p.name, p.ty))
        .collect();
    format!(
        "kernel {}<{}>({}) -> {}",
        k.name,
        sizes.join(", "),
        params.join(", "),
        info.result
    )
}

fn check(path: &Path) -> Result<ExitCode, CliError> {
    let parsed = parse_all(path)?;
    let mut errors = parsed.errors;
    let name = path.display();
    for (_, prog, infos) in &parsed.progs {
        for (k, info) in prog.kernels.iter().zip(infos) {
            match driver::compile_kernel(prog, &k.name) {
                Ok(c) => {
                    for w in &c.warnings {
                        eprint!(
                            "{}",
                            render(
                                &parsed.file,
                                Severity::Warning,
                                w.span,
                                &format!("rewrite point `{}` dropped: {}", w.name, w.message),
                                color(),
                            )
                        );
                    }
                    outln!(
                        "{name}: {}: ok, {}",
                        signature(k, info),
                        plural(c.candidates.len(), "candidate")
                    );
                    for p in &c.preconditions {
                        outln!("    launch-time condition: {p}");
                    }
                }
                Err(e) => {
                    eprint!(
                        "{}",
                        render(
                            &parsed.file,
                            Severity::Error,
                            k.span,
                            &format!("kernel `{}`: code generation: {e}", k.name),
                            color(),
                        )
                    );
                    errors += 1;
                }
            }
        }
    }
    if errors > 0 {
        return Err(CliError::shown(format!(
            "{name}: {}",
            plural(errors, "error")
        )));
    }
    Ok(ExitCode::SUCCESS)
}

/// What `emit` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Emit {
    OpenCl,
    Lowered,
    Candidates,
}

/// A kernel found in a file: its block's text, the checked program and the kernel.
struct Found {
    text: String,
    prog: Program,
    kernel: Kernel,
    info: KernelInfo,
}

/// Parses and checks `path` (every error is fatal) and gives its kernels, or only `only`.
fn kernels(path: &Path, only: Option<&str>) -> Result<Vec<Found>, CliError> {
    let parsed = parse_all(path)?;
    if parsed.errors > 0 {
        return Err(CliError::shown(format!(
            "{}: {}",
            path.display(),
            plural(parsed.errors, "error")
        )));
    }
    let mut out = Vec::new();
    let mut all = Vec::new();
    for (bi, prog, infos) in parsed.progs {
        for (k, info) in prog.kernels.iter().zip(infos) {
            all.push(k.name.clone());
            if only.is_none_or(|n| n == k.name) {
                if !prog.includes.is_empty() {
                    eprintln!(
                        "note: kernel `{}`: the OpenCL C helpers of `include!` are not read by the lift tool",
                        k.name
                    );
                }
                out.push(Found {
                    text: parsed.file.blocks[bi].text.clone(),
                    prog: prog.clone(),
                    kernel: k.clone(),
                    info,
                });
            }
        }
    }
    if out.is_empty() {
        return Err(CliError::new(match only {
            Some(k) => format!(
                "KERNEL `{k}` not found in {} (its kernels: {})",
                path.display(),
                if all.is_empty() {
                    "none".to_string()
                } else {
                    all.join(", ")
                }
            ),
            None => format!("{} has no kernel", path.display()),
        }));
    }
    Ok(out)
}

/// The candidate named `want` (a name or an index), else the default one (the first without
/// conditions, else the last).
fn pick<'a>(
    c: &'a Compiled,
    want: Option<&str>,
    kernel: &str,
) -> Result<(usize, &'a CompiledCandidate), CliError> {
    let cands = &c.candidates;
    let i = match want {
        None => cands
            .iter()
            .position(|c| c.conditions.is_empty())
            .unwrap_or(cands.len().saturating_sub(1)),
        Some(w) => match w.parse::<usize>() {
            Ok(i) if i < cands.len() => i,
            Ok(i) => {
                return Err(CliError::new(format!(
                    "--candidate {i}: kernel `{kernel}` has {} (indices 0 to {})",
                    plural(cands.len(), "candidate"),
                    cands.len().saturating_sub(1)
                )))
            }
            Err(_) => cands.iter().position(|c| c.name == w).ok_or_else(|| {
                CliError::new(format!(
                    "--candidate `{w}`: kernel `{kernel}` has no such candidate (see `lift emit --candidates`)"
                ))
            })?,
        },
    };
    cands
        .get(i)
        .map(|c| (i, c))
        .ok_or_else(|| CliError::new(format!("kernel `{kernel}` has no candidate")))
}

fn compile(f: &Found) -> Result<Compiled, CliError> {
    driver::compile_kernel(&f.prog, &f.kernel.name)
        .map_err(|e| CliError::new(format!("kernel `{}`: code generation: {e}", f.kernel.name)))
}

fn emit(
    path: &Path,
    kernel: Option<&str>,
    what: Emit,
    candidate: Option<&str>,
) -> Result<ExitCode, CliError> {
    for f in kernels(path, kernel)? {
        let c = compile(&f)?;
        let name = &f.kernel.name;
        match what {
            Emit::Candidates => {
                outln!("kernel {name}: {}", plural(c.candidates.len(), "candidate"));
                let default = pick(&c, None, name)?.0;
                for (i, cand) in c.candidates.iter().enumerate() {
                    let params: Vec<String> = cand
                        .params
                        .iter()
                        .map(|(n, v)| format!("{n}={v}"))
                        .collect();
                    let conds: Vec<String> =
                        cand.conditions.iter().map(|p| p.to_string()).collect();
                    outln!(
                        "{i:>4}{} {}  [{}]{}",
                        if i == default { "*" } else { " " },
                        cand.name,
                        params.join(", "),
                        if conds.is_empty() {
                            String::new()
                        } else {
                            format!("  when {}", conds.join("; "))
                        }
                    );
                }
                outln!("(* the default: the first that applies to every size)");
                for (cand, why) in &c.rejected {
                    outln!("   - {cand}: {why}");
                }
                if !c.rejected.is_empty() {
                    outln!("(- derived but not a candidate, and why)");
                }
            }
            Emit::OpenCl | Emit::Lowered => {
                let (i, cand) = pick(&c, candidate, name)?;
                outln!("// kernel {name}, candidate {i}: {}", cand.name);
                let text = match what {
                    Emit::Lowered => &cand.generated.lowered,
                    _ => &cand.generated.source,
                };
                outln!("{}", text.trim_end());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A kernel with its sizes and arguments, ready to run.
struct Prepared {
    found: Found,
    sizes: Vec<usize>,
    args: Vec<Value>,
}

/// The scalar type of the elements of a parameter or result of type `ty` (one number type
/// for tuples).
fn elem_scalar(ty: &Type, what: &str) -> Result<ScalarType, CliError> {
    match ty.base() {
        Type::Scalar(s) | Type::Vector(s, _) => Ok(*s),
        Type::Tuple(ts) => match ts.first() {
            Some(Type::Scalar(s)) if ts.iter().all(|t| t == &Type::Scalar(*s)) => Ok(*s),
            _ => Err(CliError::new(format!(
                "{what} of type {ty}: only tuples of one scalar type are supported"
            ))),
        },
        Type::Array(..) | Type::Capped(..) => {
            Err(CliError::new(format!("{what}: unexpected type {ty}")))
        }
    }
}

/// The number of trailing fields of each element (vector width, tuple arity), if any.
fn fields(ty: &Type) -> Option<u64> {
    match ty.base() {
        Type::Vector(_, w) => Some(u64::from(*w)),
        Type::Tuple(ts) => Some(ts.len() as u64),
        _ => None,
    }
}

/// The array shape of a value of type `ty` with the sizes of `env`: its dimensions, then the
/// fields of its elements.
fn shape(ty: &Type, env: &dyn Fn(&str) -> Option<i64>) -> Result<Vec<u64>, CliError> {
    let mut out = ty
        .dims()
        .iter()
        .map(|d| {
            d.eval(env)
                .ok()
                .and_then(|v| u64::try_from(v).ok())
                .ok_or_else(|| CliError::new(format!("size {d} cannot be evaluated")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    out.extend(fields(ty));
    Ok(out)
}

/// Parses a scalar argument given on the command line.
fn parse_scalar(s: ScalarType, text: &str, arg: &str) -> Result<Scalar, CliError> {
    let bad = || {
        CliError::new(format!(
            "--input {arg}={text}: expected a value of type {s}"
        ))
    };
    Ok(match s {
        ScalarType::F16 => Scalar::F16(half::f16::from_f64(text.parse().map_err(|_| bad())?)),
        ScalarType::F32 => Scalar::F32(text.parse().map_err(|_| bad())?),
        ScalarType::F64 => Scalar::F64(text.parse().map_err(|_| bad())?),
        ScalarType::I32 => Scalar::I32(text.parse().map_err(|_| bad())?),
        ScalarType::U32 => Scalar::U32(text.parse().map_err(|_| bad())?),
        ScalarType::I64 => Scalar::I64(text.parse().map_err(|_| bad())?),
        ScalarType::U64 => Scalar::U64(text.parse().map_err(|_| bad())?),
        ScalarType::Bool => Scalar::Bool(text.parse().map_err(|_| bad())?),
    })
}

/// Finds the kernel, binds its sizes and builds its arguments from `data`.
fn prepare(path: &Path, kernel: &str, data: &DataArgs) -> Result<Prepared, CliError> {
    let found = kernels(path, Some(kernel))?
        .into_iter()
        .next()
        .ok_or_else(|| CliError::new(format!("KERNEL `{kernel}` not found")))?;
    let k = &found.kernel;
    let size_names: Vec<&str> = k.sizes.iter().map(|(s, _)| s.as_str()).collect();
    let mut env: HashMap<String, i64> = HashMap::new();
    for s in &data.sizes {
        let (n, v) = s
            .split_once('=')
            .ok_or_else(|| CliError::new(format!("--sizes `{s}`: expected NAME=VALUE")))?;
        let n = n.trim();
        if !size_names.contains(&n) {
            return Err(CliError::new(format!(
                "--sizes {s}: kernel `{kernel}` has no size variable `{n}` (its sizes: {})",
                if size_names.is_empty() {
                    "none".to_string()
                } else {
                    size_names.join(", ")
                }
            )));
        }
        let v: i64 = v
            .trim()
            .parse()
            .ok()
            .filter(|&v: &i64| v > 0 && v <= i64::from(i32::MAX))
            .ok_or_else(|| {
                CliError::new(format!(
                    "--sizes {s}: expected a positive integer up to {} for `{n}`, got `{}`",
                    i32::MAX,
                    v.trim()
                ))
            })?;
        if env.insert(n.to_string(), v).is_some() {
            return Err(CliError::new(format!("--sizes: `{n}` given twice")));
        }
    }
    // The inputs given, by parameter.
    let mut given: HashMap<String, String> = HashMap::new();
    for a in &data.inputs {
        let (n, v) = a.split_once('=').ok_or_else(|| {
            CliError::new(format!(
                "--input `{a}`: expected NAME=FILE.npy or NAME=VALUE"
            ))
        })?;
        let n = n.trim();
        if !k.params.iter().any(|p| p.name == n) {
            let names: Vec<&str> = k.params.iter().map(|p| p.name.as_str()).collect();
            return Err(CliError::new(format!(
                "--input {a}: kernel `{kernel}` has no parameter `{n}` (its parameters: {})",
                names.join(", ")
            )));
        }
        if given.insert(n.to_string(), v.to_string()).is_some() {
            return Err(CliError::new(format!("--input: `{n}` given twice")));
        }
    }
    // Read the arrays, taking unknown sizes from their shapes.
    let mut arrays: HashMap<String, npy::NpyArray> = HashMap::new();
    for p in &k.params {
        let Some(v) = given.get(&p.name) else {
            continue;
        };
        let is_array = matches!(p.ty, Type::Array(..));
        if !is_array && !v.ends_with(".npy") {
            continue;
        }
        let a = npy::read(Path::new(v), &p.name)?;
        let dims = p.ty.dims();
        let rank = dims.len() + usize::from(fields(&p.ty).is_some());
        if a.shape.len() != rank && !(rank == 0 && a.shape.iter().product::<u64>() == 1) {
            return Err(CliError::new(format!(
                "argument `{}`: expected a {rank}-dimensional array (type {}), got shape {:?} from {v}",
                p.name, p.ty, a.shape
            )));
        }
        for (d, &got) in dims.iter().zip(&a.shape) {
            if let Some(var) = d.as_var() {
                let name = var.name.to_string();
                if size_names.contains(&name.as_str()) && !env.contains_key(&name) {
                    let got = i64::try_from(got)
                        .ok()
                        .filter(|&g| g > 0 && g <= i64::from(i32::MAX))
                        .ok_or_else(|| {
                            CliError::new(format!(
                                "argument `{}`: size `{name}` from the shape of {v} is {got}; sizes are positive",
                                p.name
                            ))
                        })?;
                    env.insert(name, got);
                }
            }
        }
        arrays.insert(p.name.clone(), a);
    }
    let mut sizes = Vec::with_capacity(size_names.len());
    for n in &size_names {
        let v = env.get(*n).ok_or_else(|| {
            CliError::new(format!(
                "size `{n}` of kernel `{kernel}` is not known: give --sizes {n}=VALUE (or an --input whose shape has it)"
            ))
        })?;
        sizes.push(*v as usize);
    }
    let lookup = |n: &str| env.get(n).copied();
    let at = size_names
        .iter()
        .map(|n| format!("{n}={}", env[*n]))
        .collect::<Vec<_>>()
        .join(", ");
    let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ data.seed.wrapping_mul(0x2545_f491_4f6c_dd1d);
    let mut args = Vec::with_capacity(k.params.len());
    for p in &k.params {
        let what = format!("parameter `{}`", p.name);
        let s = elem_scalar(&p.ty, &what)?;
        let want = shape(&p.ty, &lookup)?;
        let count: u64 = want.iter().product();
        let flat = if let Some(a) = arrays.get(&p.name) {
            let from = given.get(&p.name).map_or("", String::as_str);
            let ok = a.shape == want || (want.is_empty() && a.shape.iter().product::<u64>() == 1);
            if !ok {
                return Err(CliError::new(format!(
                    "argument `{}`: expected shape {want:?} (type {} at {at}), got {:?} from {from}",
                    p.name, p.ty, a.shape
                )));
            }
            let native = matches!(
                (s, a.dtype.as_str()),
                (ScalarType::F16, "<f2")
                    | (ScalarType::F32, "<f4")
                    | (ScalarType::F64, "<f8")
                    | (ScalarType::I32, "<i4")
                    | (ScalarType::U32, "<u4")
                    | (ScalarType::I64, "<i8")
                    | (ScalarType::U64, "<u8")
                    | (ScalarType::Bool, "|b1")
            );
            if !native {
                eprintln!(
                    "note: argument `{}`: {from} has dtype {}, converted to {s}",
                    p.name, a.dtype
                );
            }
            npy::to_scalars(a, s, &p.name)?
        } else if let (Type::Scalar(_), Some(v)) = (&p.ty, given.get(&p.name)) {
            vec![parse_scalar(s, v, &p.name)?]
        } else {
            if count > (1 << 31) {
                return Err(CliError::new(format!(
                    "argument `{}`: {count} random values at {at} is too many",
                    p.name
                )));
            }
            (0..count)
                .map(|_| interp::sample::random_scalar(s, &mut seed))
                .collect()
        };
        let v = Value::from_flat(&p.ty, &lookup, &flat)
            .map_err(|e| CliError::new(format!("argument `{}` (type {}): {e}", p.name, p.ty)))?;
        args.push(v);
    }
    Ok(Prepared { found, sizes, args })
}

/// `N=4, M=3`.
fn sizes_text(k: &Kernel, sizes: &[usize]) -> String {
    k.sizes
        .iter()
        .zip(sizes)
        .map(|((n, _), v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn as_f64(s: &Scalar) -> f64 {
    match *s {
        Scalar::F16(x) => x.to_f64(),
        Scalar::F32(x) => f64::from(x),
        Scalar::F64(x) => x,
        Scalar::I32(x) => f64::from(x),
        Scalar::U32(x) => f64::from(x),
        Scalar::I64(x) => x as f64,
        Scalar::U64(x) => x as f64,
        Scalar::Bool(x) => f64::from(u8::from(x)),
    }
}

/// Min, max, mean, sum and the first values of a result.
fn summary(flat: &[Scalar]) -> String {
    if flat.is_empty() {
        return "no values".into();
    }
    let vals: Vec<f64> = flat.iter().map(as_f64).collect();
    let sum: f64 = vals.iter().sum();
    let min = vals.iter().copied().fold(f64::INFINITY, f64::min);
    let max = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let first: Vec<String> = flat.iter().take(8).map(|s| s.to_string()).collect();
    format!(
        "{} values: min {min}, max {max}, mean {}, sum {sum}\n  first: [{}{}]",
        vals.len(),
        sum / vals.len() as f64,
        first.join(", "),
        if flat.len() > 8 { ", ..." } else { "" }
    )
}

/// Compiles candidate `want` (name or index) of the kernel.
fn compile_named(ctx: &Context, f: &Found, want: &str) -> Result<DynKernel, CliError> {
    let c = compile(f)?;
    let (_, cand) = pick(&c, Some(want), &f.kernel.name)?;
    Ok(DynKernel::compile_candidate(
        ctx,
        &f.text,
        &f.kernel.name,
        Some(&cand.name),
    )?)
}

/// Do two results agree (floats to a relative 1e-3, else exactly)? The first difference.
fn first_difference(got: &[Scalar], want: &[Scalar]) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!(
            "{} values, the interpreter {}",
            got.len(),
            want.len()
        ));
    }
    got.iter().zip(want).enumerate().find_map(|(i, (a, b))| {
        let same = match (a, b) {
            (Scalar::F16(_) | Scalar::F32(_) | Scalar::F64(_), _) => {
                let (x, y) = (as_f64(a), as_f64(b));
                (x - y).abs() <= 1e-3 * y.abs().max(1.0) || (x.is_nan() && y.is_nan())
            }
            _ => a == b,
        };
        (!same).then(|| format!("element {i}: got {a}, the interpreter {b}"))
    })
}

fn run_kernel(
    path: &Path,
    kernel: &str,
    data: &DataArgs,
    output: Option<&Path>,
    candidate: Option<&str>,
    check: bool,
) -> Result<ExitCode, CliError> {
    let p = prepare(path, kernel, data)?;
    let f = &p.found;
    let ctx = Context::new()?;
    let dk = match candidate {
        Some(c) => compile_named(&ctx, f, c)?,
        None => DynKernel::compile_for(&ctx, &f.text, kernel, &p.sizes)?,
    };
    let (value, ms) = dk.run_timed(&p.sizes, &p.args)?;
    let env: HashMap<&str, i64> = f
        .kernel
        .sizes
        .iter()
        .zip(&p.sizes)
        .map(|((n, _), &v)| (n.as_str(), v as i64))
        .collect();
    let lookup = |n: &str| env.get(n).copied();
    let flat = value.flatten();
    let result_shape = shape(&f.info.result, &lookup)?;
    outln!("kernel {kernel} at {}", sizes_text(&f.kernel, &p.sizes));
    outln!("device: {}", ctx.device_info().name);
    outln!("candidate {}: {}", dk.candidate_index(), dk.candidate());
    outln!("time: {ms:.4} ms (kernels, profiled)");
    outln!(
        "result: {} shape {:?}, {}",
        f.info.result,
        result_shape,
        summary(&flat)
    );
    if let Some(out) = output {
        npy::write(out, &result_shape, &flat)?;
        outln!("wrote {}", out.display());
    }
    if check {
        let sizes64: Vec<i64> = p.sizes.iter().map(|&s| s as i64).collect();
        let want = interp::run_kernel(&f.prog, kernel, &sizes64, &p.args)
            .map_err(|e| CliError::new(format!("--check: the interpreter failed: {e}")))?;
        match first_difference(&flat, &want.flatten()) {
            None => outln!("check: agrees with the interpreter"),
            Some(d) => {
                return Err(CliError::new(format!(
                    "--check: the result differs from the interpreter's: {d}"
                )))
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn tune(path: &Path, kernel: &str, data: &DataArgs, retune: bool) -> Result<ExitCode, CliError> {
    let p = prepare(path, kernel, data)?;
    let f = &p.found;
    let ctx = Context::new()?;
    outln!(
        "tuning {kernel} at {} on {}",
        sizes_text(&f.kernel, &p.sizes),
        ctx.device_info().name
    );
    let opts = TuneOptions {
        verbose: true,
        retune,
    };
    let (dk, t) = DynKernel::tune(&ctx, &f.text, kernel, &p.sizes, &p.args, &opts)?;
    let params: Vec<String> = t.params.iter().map(|(n, v)| format!("{n}={v}")).collect();
    outln!("chosen: candidate {}: {t}", dk.candidate_index());
    outln!("parameters: [{}]", params.join(", "));
    match lift_runtime::cache::cache_file() {
        Some(file) => outln!("cache: {}", file.display()),
        None => outln!("cache: none (no cache directory; set LIFT_CACHE_DIR)"),
    }
    Ok(ExitCode::SUCCESS)
}
