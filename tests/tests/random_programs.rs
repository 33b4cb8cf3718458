//! Randomised differential testing of the whole compiler: random well-typed programs are
//! compiled at run time with [`DynKernel`] and run on the default device, against the
//! reference interpreter, every candidate of the explorer also under the race checker.
//! Seeds are fixed, so every failure reproduces; a failure prints the
//! seed and the program text.

#[path = "random_programs/gen.rs"]
mod gen;

use gen::{program, Elem, Program};
use lift_runtime::core::codegen::trace::Options;
use lift_runtime::core::interp::{run_kernel, Scalar, Value};
use lift_runtime::core::{parse, typeck};
use lift_runtime::DynKernel;
use lift_tests::{ctx, nested, random};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Number of programs (seeds `0..PROGRAMS`).
const PROGRAMS: u64 = 256;

/// The least fraction of programs that must compile.
const MIN_COMPILED: f64 = 0.9;

/// What became of one program.
enum Outcome {
    Agree,
    /// A clean compile error (counted, not a failure).
    Rejected(String),
    /// A panic, a run-time error or a wrong result.
    Failed(String),
}

/// The random inputs of `p` for `seed`.
fn inputs(p: &Program, seed: u64) -> Vec<Value> {
    let mut args: Vec<Value> = p
        .inputs
        .iter()
        .enumerate()
        .map(|(i, shape)| {
            let n = shape.iter().product();
            let s = seed * 7 + i as u64;
            match p.elem {
                Elem::F32 => nested(&random(n, -1.0f32, 1.0, s), shape),
                Elem::I32 => nested(&random(n, -100i32, 100, s), shape),
            }
        })
        .collect();
    if p.alpha {
        args.push(Value::Scalar(match p.elem {
            Elem::F32 => Scalar::F32(0.75),
            Elem::I32 => Scalar::I32(-4),
        }));
    }
    args
}

/// Device and reference agree: exactly, or to a relative tolerance after float arithmetic.
fn agree(device: &Value, reference: &Value, inexact: bool) -> Result<(), String> {
    let (a, b) = (device.flatten(), reference.flatten());
    if a.len() != b.len() {
        return Err(format!(
            "lengths differ: device {} vs interpreter {}",
            a.len(),
            b.len()
        ));
    }
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        let ok = match (x, y) {
            (Scalar::F32(x), Scalar::F32(y)) if inexact => {
                (x - y).abs() <= 1e-4 * 1f32.max(y.abs())
            }
            _ => x == y,
        };
        if !ok {
            return Err(format!("element {i}: device {x:?} vs interpreter {y:?}"));
        }
    }
    Ok(())
}

/// Compiles, runs and compares program `p` on the inputs of `seed`.
/// Candidate runs that agreed with the interpreter (every candidate of every program).
static CANDIDATE_RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn check(p: &Program, seed: u64) -> Outcome {
    let args = inputs(p, seed);
    catch_unwind(AssertUnwindSafe(|| {
        let kernel = match DynKernel::compile(ctx(), &p.text, "K") {
            Ok(k) => k,
            Err(e) => return Outcome::Rejected(e.to_string()),
        };
        let mut prog = match parse::parse_program_str(&p.text) {
            Ok(prog) => prog,
            Err(e) => return Outcome::Failed(format!("compiles but does not reparse: {e}")),
        };
        if let Err(e) = typeck::check_program(&mut prog) {
            return Outcome::Failed(format!("compiles but does not type-check: {e}"));
        }
        let sizes: Vec<i64> = p.sizes.iter().map(|&s| s as i64).collect();
        let want = match run_kernel(&prog, "K", &sizes, &args) {
            Ok(v) => v,
            Err(e) => return Outcome::Failed(format!("interpreter: {e}")),
        };
        match kernel.run(&p.sizes, &args) {
            Ok(got) => {
                if let Err(e) = agree(&got, &want, p.inexact) {
                    return Outcome::Failed(format!("{e}\nlowered: {}", kernel.lowered()));
                }
            }
            Err(e) => return Outcome::Failed(format!("device run: {e}")),
        }
        // Every candidate the explorer derives, where its conditions hold, instrumented by
        // the race checker.
        let traced = Options {
            trace: true,
            drop_barrier: None,
        };
        for name in kernel.candidates() {
            let other = match DynKernel::compile_traced(ctx(), &p.text, "K", Some(name), traced) {
                Ok(k) => k,
                Err(e) => return Outcome::Failed(format!("candidate {name}: {e}")),
            };
            match other.check_races(&p.sizes, &args) {
                Ok((_, races)) if !races.is_empty() => {
                    return Outcome::Failed(format!(
                        "candidate {name}: races: {}\nlowered: {}",
                        races
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join("; "),
                        other.lowered()
                    ));
                }
                Ok((got, _)) => {
                    if let Err(e) = agree(&got, &want, p.inexact) {
                        return Outcome::Failed(format!(
                            "candidate {name}: {e}\nlowered: {}",
                            other.lowered()
                        ));
                    }
                    CANDIDATE_RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                Err(lift_runtime::Error::Precondition { .. }) => {}
                // Too many accesses to trace: the candidate is checked uninstrumented.
                Err(lift_runtime::Error::Launch { reason })
                    if reason.contains("more than the trace holds") =>
                {
                    let plain = DynKernel::compile_candidate(ctx(), &p.text, "K", Some(name))
                        .and_then(|k| k.run(&p.sizes, &args));
                    match plain.map(|got| agree(&got, &want, p.inexact)) {
                        Ok(Ok(())) => {
                            CANDIDATE_RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                        Ok(Err(e)) => return Outcome::Failed(format!("candidate {name}: {e}")),
                        Err(e) => {
                            return Outcome::Failed(format!("candidate {name}: device run: {e}"))
                        }
                    }
                }
                Err(e) => return Outcome::Failed(format!("candidate {name}: device run: {e}")),
            }
        }
        Outcome::Agree
    }))
    .unwrap_or_else(|e| {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Outcome::Failed(format!("panic: {msg}"))
    })
}

#[test]
fn random_programs_agree_with_the_interpreter() {
    let seeds: Vec<u64> = (0..PROGRAMS).collect();
    // Two workers, each with its own kernels (kernel handles stay on one thread).
    let results: Vec<(u64, Program, Outcome)> = std::thread::scope(|s| {
        let workers: Vec<_> = seeds
            .chunks(seeds.len().div_ceil(2))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|&seed| {
                            let p = program(seed);
                            let o = check(&p, seed);
                            (seed, p, o)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    let mut failures = Vec::new();
    let mut rejected = 0usize;
    for (seed, p, o) in &results {
        match o {
            Outcome::Agree => {}
            Outcome::Rejected(e) => {
                rejected += 1;
                eprintln!("seed {seed}: rejected: {e}\n{}\n", p.text);
            }
            Outcome::Failed(e) => failures.push(format!(
                "seed {seed} (sizes {:?}): {e}\n{}\n",
                p.sizes, p.text
            )),
        }
    }
    let total = results.len();
    eprintln!(
        "{total} programs: {} agree, {rejected} rejected with a compile error, {} failed",
        total - rejected - failures.len(),
        failures.len()
    );
    let runs = CANDIDATE_RUNS.load(std::sync::atomic::Ordering::Relaxed);
    eprintln!("{runs} candidate runs agreed");
    assert!(runs >= total - rejected, "only {runs} candidate runs");
    assert_eq!(total, seeds.len(), "a worker panicked");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let compiled = (total - rejected) as f64 / total as f64;
    assert!(
        compiled >= MIN_COMPILED,
        "only {:.0}% of the programs compile",
        compiled * 100.0
    );
}

/// A 2-D `f32` program over `[[f32; M]; N]` with `N = 5, M = 3`.
fn f32_2d(text: &str) -> Program {
    Program {
        text: text.into(),
        sizes: vec![5, 3],
        inputs: vec![vec![5, 3]],
        alpha: false,
        elem: Elem::F32,
        inexact: true,
    }
}

/// Minimised programs of past failures; each must compile and agree.
#[test]
fn regressions() {
    let cases = [
        // A full reduction of row reductions of a map: the fused two-kernel reduction
        // used a global temporary it never declared (random seed 200).
        f32_2d("kernel K<N, M>(x: [[f32; M]; N]) -> f32 { reduce(+, 0.0) o map(reduce(+, 0.0) o map(|v| v * 3.0)) $ x }"),
        // The same inside a row reduction (one work-group per row).
        f32_2d("kernel K<N, M>(x: [[f32; M]; N]) -> [f32; N] { map(reduce(+, 0.0) o map(reduce(+, 0.0) o map(|v| v * 3.0)) o split(1)) $ x }"),
        // `join o split(4)` of `pad(2, 2)`: the checker did not know that `(N + 4) % 4 == 0`
        // makes `N / 4 * 4 + 4` equal to `N + 4` (random seed 281).
        Program {
            text: "kernel K<N>(x: [f32; N]) -> [f32; N + 4] { join o split(4) o pad(2, 2, clamp) $ x }".into(),
            sizes: vec![8],
            inputs: vec![vec![8]],
            alpha: false,
            elem: Elem::F32,
            inexact: false,
        },
        // `8 * (N / 16)` was not known to be `N / 2` under `N % 16 == 0` (random seed 1579).
        Program {
            text: "kernel K<N>(x: [i32; N]) -> [i32; N / 16 * 16 / 2] { map(reduce(+, 0)) o split(2) o join o split(16) $ x }".into(),
            sizes: vec![32],
            inputs: vec![vec![32]],
            alpha: false,
            elem: Elem::I32,
            inexact: false,
        },
    ];
    for (i, p) in cases.iter().enumerate() {
        match check(p, i as u64) {
            Outcome::Agree => {}
            Outcome::Rejected(e) | Outcome::Failed(e) => panic!("case {i}: {e}\n{}", p.text),
        }
    }
}

/// `DynKernel` reports compile errors, bad sizes and bad arguments as `Err`s that say what is
/// wrong, before anything runs.
#[test]
fn dyn_kernel_errors() {
    use lift_runtime::Error;
    let zip =
        "kernel K<N, M>(x: [f32; N], y: [f32; M]) -> [f32; N] { map(|(a, b)| a + b) $ zip(x, y) }";
    let bad = DynKernel::compile(ctx(), zip, "K");
    assert!(
        matches!(bad, Err(Error::Compile { ref message }) if message.contains("zip: lengths differ")),
        "{bad:?}"
    );
    let missing = DynKernel::compile(
        ctx(),
        "kernel K<N>(x: [f32; N]) -> [f32; N] { id $ x }",
        "L",
    );
    assert!(matches!(missing, Err(Error::Compile { .. })), "{missing:?}");

    let text =
        "kernel K<N>(x: [f32; N], s: f32) -> [[f32; 4]; N / 4] { split(4) o map(|v| v * s) $ x }";
    let k = DynKernel::compile(ctx(), text, "K").expect("compiles");
    assert!(k.source().contains("kernel void"));
    assert!(k.lowered().contains("map_glb"), "{}", k.lowered());
    let x = Value::from_f32s(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
    let s = Value::Scalar(Scalar::F32(2.0));
    let out = k.run(&[8], &[x.clone(), s.clone()]).expect("runs");
    assert_eq!(
        out.as_f32s(),
        Some(vec![2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0])
    );
    let err = |r: Result<Value, Error>| r.expect_err("must fail").to_string();
    assert!(err(k.run(&[6], &[x.clone(), s.clone()])).contains("multiple of 4"));
    assert!(err(k.run(&[0], &[x.clone(), s.clone()])).contains("`N`"));
    let e = err(k.run(&[4], &[x.clone(), s.clone()]));
    assert!(
        e.contains("`x`") && e.contains("[f32; 4]") && e.contains("[f32; 8]"),
        "{e}"
    );
    let e = err(k.run(&[8], &[x.clone(), Value::Scalar(Scalar::I32(2))]));
    assert!(
        e.contains("`s`") && e.contains("f32") && e.contains("i32"),
        "{e}"
    );
    assert!(err(k.run(&[8], &[x])).contains("args"));
}
