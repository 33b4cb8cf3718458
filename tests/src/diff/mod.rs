//! Differential testing at scale: random programs of every family of [`gen`] compiled at run
//! time with [`DynKernel`], run on the default device with random inputs, and compared with
//! the reference interpreter, the default candidate and then every candidate of the explorer.
//! Failures are shrunk ([`shrink`]) before they are reported. Driven by the `differential`
//! binary (`cargo run --release -p lift-tests --bin differential -- --programs 10000`).

#[allow(dead_code)]
#[path = "../../tests/random_programs/gen.rs"]
pub mod base;
pub mod gen;

use lift_runtime::core::arith::Nat;
use lift_runtime::core::codegen::trace::Options;
use lift_runtime::core::interp::{run_kernel, Scalar, Value};
use lift_runtime::core::ir::{Expr, ExprKind, PrimArg, Program};
use lift_runtime::core::types::{ScalarType, Type};
use lift_runtime::core::{parse, print, typeck};
use lift_runtime::{Context, DynKernel, Error};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// One program to test: `lift!` text with kernel `K`, and the values of its size variables.
#[derive(Clone, Debug)]
pub struct Case {
    /// The family that made it.
    pub family: &'static str,
    /// The program text.
    pub text: String,
    /// Size values in declaration order.
    pub sizes: Vec<usize>,
    /// The seed of the inputs.
    pub seed: u64,
}

/// What became of one program.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The default candidate and every applicable candidate agreed with the interpreter;
    /// the number of candidate runs.
    Agree(usize),
    /// A clean compile error (not a failure).
    Rejected(String),
    /// A panic, a run-time error or a wrong result: the kind and the details.
    Failed(&'static str, String),
}

/// The case of `seed`: a family drawn by weight, then a program of it.
pub fn case(seed: u64, only: Option<&str>) -> Case {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5eed_d1ff);
    let total: u32 = gen::FAMILIES.iter().map(|f| f.1).sum();
    let mut r = rng.gen_range(0..total);
    let mut family = gen::FAMILIES[0].0;
    for (name, w) in gen::FAMILIES {
        if r < w {
            family = name;
            break;
        }
        r -= w;
    }
    if let Some(f) = only {
        family = gen::FAMILIES
            .iter()
            .map(|f| f.0)
            .find(|n| *n == f)
            .unwrap_or("base");
    }
    let mut c = if family == "base" {
        let p = base::program(seed);
        Case {
            family,
            text: p.text,
            sizes: p.sizes,
            seed,
        }
    } else {
        finish(family, gen::draft(family, &mut rng), seed)
    };
    // Rewrite points placed at random on a quarter of the programs.
    if family != "points" && rng.gen_bool(0.25) {
        if let Some(t) = inject_points(&c.text, &mut rng) {
            c.text = t;
        }
    }
    c
}

/// A draft with its result type inferred (`f32` where inference fails: the checker then
/// rejects the program with its reason).
pub fn finish(family: &'static str, d: gen::Draft, seed: u64) -> Case {
    let names: Vec<&str> = d.sizes.iter().map(|s| s.0).collect();
    let head = if names.is_empty() {
        String::new()
    } else {
        format!("<{}>", names.join(", "))
    };
    let text = |ret: &str| {
        format!(
            "{}kernel K{head}({}) -> {ret} {{ {} }}",
            d.funs,
            d.params.join(", "),
            d.body
        )
    };
    let ret = parse::parse_program_str(&text("f32"))
        .ok()
        .and_then(|p| {
            let k = p.kernel("K")?;
            typeck::infer_result(&p.funs, k).ok()
        })
        .map_or_else(|| "f32".to_string(), |t| t.to_string());
    Case {
        family,
        text: text(&ret),
        sizes: d.sizes.iter().map(|s| s.1).collect(),
        seed,
    }
}

/// The names and arities of the rewrite points.
const POINTS: [(&str, usize); 12] = [
    ("split_join", 1),
    ("join_split", 0),
    ("ab_tile", 2),
    ("tile_stencil", 2),
    ("pad_extra", 1),
    ("tile_nested_map_reduce", 1),
    ("materialise", 0),
    ("optimise_data_layout", 0),
    ("interchange_maps", 0),
    ("privatise_accumulator", 0),
    ("interchange_reduce", 0),
    ("kernel_fission", 0),
];

/// Visits every expression of `e` (pre-order) with `f`, which may rewrite it; stops and
/// returns true once `f` does.
fn visit(e: &mut Expr, f: &mut dyn FnMut(&mut Expr) -> bool) -> bool {
    if f(e) {
        return true;
    }
    match &mut e.kind {
        ExprKind::Prim(_, args) => args.iter_mut().any(|a| match a {
            PrimArg::Fun(x) | PrimArg::Value(x) => visit(x, f),
            _ => false,
        }),
        ExprKind::Lambda(_, b) => visit(b, f),
        ExprKind::Compose(xs) | ExprKind::Tuple(xs) => xs.iter_mut().any(|x| visit(x, f)),
        ExprKind::Apply(g, xs) => visit(g, f) || xs.iter_mut().any(|x| visit(x, f)),
        ExprKind::Proj(x, _)
        | ExprKind::Index(x, _)
        | ExprKind::Unary(_, x)
        | ExprKind::Cast(x, _)
        | ExprKind::Point(_, _, x) => visit(x, f),
        ExprKind::Binary(_, a, b) | ExprKind::Let(_, a, b) => visit(a, f) || visit(b, f),
        ExprKind::If(c, a, b) => visit(c, f) || visit(a, f) || visit(b, f),
        ExprKind::Ident(_) | ExprKind::Lit(..) | ExprKind::Section(_) => false,
    }
}

/// Wraps one to three primitives of kernel `K`'s body in random rewrite points.
fn inject_points(text: &str, rng: &mut StdRng) -> Option<String> {
    let mut prog = parse::parse_program_str(text).ok()?;
    let k = prog.kernels.iter_mut().find(|k| k.name == "K")?;
    let mut prims = 0usize;
    visit(&mut k.body, &mut |e| {
        prims += usize::from(matches!(e.kind, ExprKind::Prim(..)));
        false
    });
    if prims == 0 {
        return None;
    }
    for _ in 0..rng.gen_range(1..=3) {
        let target = rng.gen_range(0..prims);
        let (name, arity) = POINTS[rng.gen_range(0..POINTS.len())];
        let args: Vec<Option<Nat>> = (0..arity)
            .map(|_| {
                rng.gen_bool(0.6)
                    .then(|| Nat::cst(*[1i64, 2, 4, 8].get(rng.gen_range(0..4)).unwrap_or(&2)))
            })
            .collect();
        let mut i = 0usize;
        visit(&mut k.body, &mut |e| {
            if !matches!(e.kind, ExprKind::Prim(..)) {
                return false;
            }
            i += 1;
            if i - 1 != target {
                return false;
            }
            let inner = e.clone();
            e.kind = ExprKind::Point(name.to_string(), args.clone(), Box::new(inner));
            true
        });
    }
    Some(print::program(&prog))
}

/// A random scalar of type `s` (bounded so that integer arithmetic of the families cannot
/// overflow).
fn scalar(s: ScalarType, rng: &mut StdRng) -> Scalar {
    match s {
        ScalarType::F16 => Scalar::F16(lift_runtime::half::f16::from_f32(rng.gen_range(-1.0..1.0))),
        ScalarType::F32 => Scalar::F32(rng.gen_range(-1.0..1.0)),
        ScalarType::F64 => Scalar::F64(rng.gen_range(-1.0..1.0)),
        ScalarType::I32 => Scalar::I32(rng.gen_range(-100..100)),
        ScalarType::U32 => Scalar::U32(rng.gen_range(0..200)),
        ScalarType::I64 => Scalar::I64(rng.gen_range(-100..100)),
        ScalarType::U64 => Scalar::U64(rng.gen_range(0..200)),
        ScalarType::Bool => Scalar::Bool(rng.gen_bool(0.5)),
    }
}

/// Random flat scalars for a value of type `ty`.
fn flat(
    ty: &Type,
    env: &dyn Fn(&str) -> Option<i64>,
    rng: &mut StdRng,
    out: &mut Vec<Scalar>,
) -> Result<(), String> {
    match ty {
        Type::Scalar(s) => out.push(scalar(*s, rng)),
        Type::Vector(s, w) => {
            for _ in 0..*w {
                out.push(scalar(*s, rng));
            }
        }
        Type::Tuple(ts) => {
            for t in ts {
                flat(t, env, rng, out)?;
            }
        }
        Type::Array(e, n) => {
            let n = n.eval(env).map_err(|e| e.to_string())?;
            if !(0..=1 << 16).contains(&n) {
                return Err(format!("input of {n} elements"));
            }
            for _ in 0..n {
                flat(e, env, rng, out)?;
            }
        }
        #[allow(unreachable_patterns)]
        _ => return Err(format!("no random values of type {ty}")),
    }
    Ok(())
}

/// The random arguments of `prog`'s kernel `K` at `sizes` from `seed`.
pub fn inputs(prog: &Program, sizes: &[usize], seed: u64) -> Result<Vec<Value>, String> {
    let k = prog.kernel("K").ok_or("no kernel K")?;
    let env = |v: &str| {
        k.sizes
            .iter()
            .position(|(n, _)| n == v)
            .and_then(|i| sizes.get(i))
            .map(|&s| s as i64)
    };
    let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    k.params
        .iter()
        .map(|p| {
            let mut out = Vec::new();
            flat(&p.ty, &env, &mut rng, &mut out)?;
            Value::from_flat(&p.ty, &env, &out).map_err(|e| e.to_string())
        })
        .collect()
}

/// Device and reference agree: integers and booleans exactly, floats to a relative
/// tolerance of their type (reassociated sums, `f16` rounding).
pub fn agree(device: &Value, reference: &Value) -> Result<(), String> {
    let (a, b) = (device.flatten(), reference.flatten());
    if a.len() != b.len() {
        return Err(format!(
            "lengths differ: device {} vs interpreter {}",
            a.len(),
            b.len()
        ));
    }
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        let tol = match y {
            Scalar::F16(_) => 2e-2,
            Scalar::F32(_) => 1e-4,
            Scalar::F64(_) => 1e-9,
            _ => 0.0,
        };
        let ok = if tol > 0.0 && x.ty() == y.ty() {
            let (p, q) = (x.to_f64(), y.to_f64());
            (p - q).abs() <= tol * 1f64.max(q.abs()) || (p.is_nan() && q.is_nan())
        } else {
            x == y
        };
        if !ok {
            return Err(format!("element {i}: device {x:?} vs interpreter {y:?}"));
        }
    }
    Ok(())
}

/// The message of a panic payload.
pub fn panic_message(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// How [`check`] runs the candidates.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckOptions {
    /// Run every candidate under the race checker (slower).
    pub races: bool,
    /// Compile and run the program with every name it binds renamed to a hostile one
    /// ([`crate::names::hostile`]), against the interpreter on the original; a renamed
    /// program rejected where the original compiles is a failure.
    pub rename: bool,
}

/// Compiles, runs and compares `c` on `ctx`: the default candidate, then every candidate
/// whose conditions hold at the sizes.
pub fn check(ctx: &Context, c: &Case, opts: CheckOptions) -> Outcome {
    catch_unwind(AssertUnwindSafe(|| check_inner(ctx, c, opts)))
        .unwrap_or_else(|e| Outcome::Failed("panic", panic_message(&*e)))
}

fn check_inner(ctx: &Context, c: &Case, opts: CheckOptions) -> Outcome {
    let renamed;
    let text = if opts.rename {
        renamed = match crate::names::hostile(&c.text, c.seed) {
            Ok(t) => t,
            Err(e) => return Outcome::Rejected(format!("rename: {e}")),
        };
        &renamed
    } else {
        &c.text
    };
    let kernel = match DynKernel::compile(ctx, text, "K") {
        Ok(k) => k,
        Err(Error::Compile { message }) if opts.rename => {
            return match DynKernel::compile(ctx, &c.text, "K") {
                Ok(_) => Outcome::Failed(
                    "renamed program rejected",
                    format!("{message}\nrenamed: {text}"),
                ),
                Err(_) => Outcome::Rejected(message),
            };
        }
        Err(Error::Compile { message }) => return Outcome::Rejected(message),
        Err(e) => return Outcome::Failed("build", e.to_string()),
    };
    let mut prog = match parse::parse_program_str(&c.text) {
        Ok(p) => p,
        Err(e) => return Outcome::Failed("reparse", e.to_string()),
    };
    if let Err(e) = typeck::check_program(&mut prog) {
        return Outcome::Failed("recheck", e.to_string());
    }
    let args = match inputs(&prog, &c.sizes, c.seed) {
        Ok(a) => a,
        Err(e) => return Outcome::Rejected(format!("inputs: {e}")),
    };
    let sizes: Vec<i64> = c.sizes.iter().map(|&s| s as i64).collect();
    let want = match run_kernel(&prog, "K", &sizes, &args) {
        Ok(v) => v,
        Err(e) => return Outcome::Rejected(format!("interpreter: {e}")),
    };
    match kernel.run(&c.sizes, &args) {
        Ok(got) => {
            if let Err(e) = agree(&got, &want) {
                return Outcome::Failed(
                    "wrong result",
                    format!(
                        "default candidate {}: {e}\nlowered: {}",
                        kernel.candidate(),
                        kernel.lowered()
                    ),
                );
            }
        }
        // The kernel's own launch-time conditions: the interpreter does not check them all.
        Err(Error::Precondition { .. }) => {
            return Outcome::Rejected("launch-time precondition fails at these sizes".into())
        }
        Err(e) => return Outcome::Failed("device run", e.to_string()),
    }
    let mut runs = 1usize;
    for name in kernel.candidates() {
        let other = if opts.races {
            let traced = Options {
                trace: true,
                drop_barrier: None,
            };
            DynKernel::compile_traced(ctx, text, "K", Some(name), traced)
        } else {
            DynKernel::compile_candidate(ctx, text, "K", Some(name))
        };
        let other = match other {
            Ok(k) => k,
            Err(e) => return Outcome::Failed("candidate build", format!("candidate {name}: {e}")),
        };
        if !other.applies(&c.sizes) {
            continue;
        }
        let got = if opts.races {
            match other.check_races(&c.sizes, &args) {
                Ok((_, races)) if !races.is_empty() => {
                    let r: Vec<String> = races.iter().map(ToString::to_string).collect();
                    return Outcome::Failed(
                        "race",
                        format!(
                            "candidate {name}: {}\nlowered: {}",
                            r.join("; "),
                            other.lowered()
                        ),
                    );
                }
                Ok((v, _)) => Ok(v),
                Err(e) => Err(e),
            }
        } else {
            other.run(&c.sizes, &args)
        };
        match got {
            Ok(v) => {
                if let Err(e) = agree(&v, &want) {
                    return Outcome::Failed(
                        "wrong result",
                        format!("candidate {name}: {e}\nlowered: {}", other.lowered()),
                    );
                }
                runs += 1;
            }
            Err(Error::Precondition { .. }) => {}
            Err(e) => return Outcome::Failed("device run", format!("candidate {name}: {e}")),
        }
    }
    Outcome::Agree(runs)
}

/// A rejection message reduced to its reason: positions, numbers and names after the
/// reason's first clause dropped, so that equal reasons group.
pub fn reason(message: &str) -> String {
    let mut m = message.trim();
    // `line:col: ` prefix of compile errors.
    if let Some((pos, rest)) = m.split_once(": ") {
        if pos.chars().all(|c| c.is_ascii_digit() || c == ':') {
            m = rest;
        }
    }
    let m = m.strip_prefix("kernel `K`: ").unwrap_or(m);
    let m = m.strip_prefix("code generation: ").unwrap_or(m);
    let mut parts = m.splitn(3, ": ");
    let first = parts.next().unwrap_or("");
    let key = match parts.next() {
        Some(second) if first.len() < 40 => format!("{first}: {second}"),
        _ => first.to_string(),
    };
    let key: String = key
        .chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect();
    let key = key.split('\n').next().unwrap_or("").to_string();
    if key.chars().count() > 90 {
        key.chars().take(90).collect::<String>() + "..."
    } else {
        key
    }
}

/// The smaller programs one step from `c`: a stage of a composition removed, a function
/// application replaced by its argument, a rewrite point dropped, a size made smaller; each
/// with its result type inferred again.
fn shrink_steps(c: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    let Ok(prog) = parse::parse_program_str(&c.text) else {
        return out;
    };
    let Some(ki) = prog.kernels.iter().position(|k| k.name == "K") else {
        return out;
    };
    let mut count = 0usize;
    visit(&mut prog.kernels[ki].body.clone(), &mut |_| {
        count += 1;
        false
    });
    for target in 0..count {
        for variant in 0..8usize {
            let mut p = prog.clone();
            let mut i = 0usize;
            let mut changed = false;
            visit(&mut p.kernels[ki].body, &mut |e| {
                i += 1;
                if i - 1 != target {
                    return false;
                }
                changed = match &mut e.kind {
                    ExprKind::Compose(xs) if variant < xs.len() && xs.len() >= 2 => {
                        xs.remove(variant);
                        if xs.len() == 1 {
                            *e = xs.remove(0);
                        }
                        true
                    }
                    ExprKind::Apply(_, xs) if variant == 0 && xs.len() == 1 => {
                        *e = xs.remove(0);
                        true
                    }
                    ExprKind::Point(_, _, x) if variant == 0 => {
                        *e = (**x).clone();
                        true
                    }
                    _ => false,
                };
                true
            });
            if !changed {
                continue;
            }
            let k = &p.kernels[ki];
            let Ok(ty) = typeck::infer_result(&p.funs, k) else {
                continue;
            };
            p.kernels[ki].ret = ty;
            out.push(Case {
                text: print::program(&p),
                ..c.clone()
            });
        }
    }
    for i in 0..c.sizes.len() {
        let n = c.sizes[i];
        let mut smaller: Vec<usize> = vec![1, 2, n / 2, n - 1];
        smaller.retain(|&m| m >= 1 && m < n);
        smaller.dedup();
        for m in smaller {
            let mut sizes = c.sizes.clone();
            sizes[i] = m;
            out.push(Case { sizes, ..c.clone() });
        }
    }
    out
}

/// Shrinks a failing case: greedily takes the first smaller program that still fails with
/// the same kind, until none does or `budget` checks are spent. Returns the smallest and the
/// number of checks made.
pub fn shrink(
    ctx: &Context,
    c: &Case,
    kind: &str,
    opts: CheckOptions,
    budget: usize,
) -> (Case, String, usize) {
    let mut best = c.clone();
    let mut detail = String::new();
    let mut checks = 0usize;
    'outer: loop {
        for s in shrink_steps(&best) {
            if checks >= budget {
                break 'outer;
            }
            if s.text == best.text && s.sizes == best.sizes {
                continue;
            }
            checks += 1;
            if let Outcome::Failed(k, d) = check(ctx, &s, opts) {
                if k == kind {
                    best = s;
                    detail = d;
                    continue 'outer;
                }
            }
        }
        break;
    }
    (best, detail, checks)
}
