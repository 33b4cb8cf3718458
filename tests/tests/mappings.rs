//! Every mapping the mapping solver returns (`lift_core::explore::mapping`, thesis chapter
//! 5) for random map nests of depth 1 to 4, at sizes 1, primes and composites: the solver
//! finds exactly the assignments brute force finds, and each mapping's low-level program
//! either is refused by code generation with a reason or runs instrumented on the default
//! device, agrees with the interpreter and has no race.

use lift_runtime::core::codegen::trace;
use lift_runtime::core::explore::lower;
use lift_runtime::core::explore::{mapping, parallel};
use lift_runtime::core::interp::Value;
use lift_runtime::core::{parse, print, typeck};
use lift_runtime::DynKernel;
use lift_tests::{assert_close, ctx, f32s, interpret, random_f32};
use rand::{Rng, SeedableRng};

const NAMES: [&str; 4] = ["A", "B", "C", "D"];
const SIZES: [usize; 6] = [1, 2, 3, 5, 6, 7];

/// `[[f32; D]; C]...` over the size names of `dims`.
fn ty(dims: &[&str]) -> String {
    dims.iter()
        .rev()
        .fold("f32".to_string(), |t, d| format!("[{t}; {d}]"))
}

/// `map(...map(f)...)`, `depth` maps deep.
fn maps(depth: usize, f: &str) -> String {
    (0..depth).fold(f.to_string(), |t, _| format!("map({t})"))
}

/// A random nest of `depth` maps: perfect, with a reduction innermost, or with a transpose
/// between the two innermost levels; gives the program and its result dimensions.
fn program(depth: usize, shape: usize, rng: &mut rand::rngs::StdRng) -> String {
    let dims = &NAMES[..depth];
    let c = rng.gen_range(1..9);
    let f = match rng.gen_range(0..3) {
        0 => format!("|v| v * {c}.0 + 1.0"),
        1 => format!("|v| max(v, 0.{c})"),
        _ => format!("|v| v * v - 0.{c}"),
    };
    let (body, out) = match shape {
        0 => (format!("{} $ x", maps(depth, &f)), dims.to_vec()),
        1 => (
            format!(
                "{} $ x",
                maps(depth - 1, &format!("reduce(+, 0.0) o map({f})"))
            ),
            dims[..depth - 1].to_vec(),
        ),
        _ => {
            let mut out = dims.to_vec();
            out.swap(depth - 2, depth - 1);
            (
                format!(
                    "{} $ x",
                    maps(depth - 2, &format!("(|m| map(map({f})) $ transpose $ m)"))
                ),
                out,
            )
        }
    };
    format!(
        "kernel K<{}>(x: {}) -> {} {{ {body} }}",
        dims.join(", "),
        ty(dims),
        ty(&out)
    )
}

/// The array value of shape `dims` holding `data` row-major.
fn nested(data: &[f32], dims: &[usize]) -> Value {
    match dims {
        [_] => Value::from_f32s(data),
        [_, rest @ ..] => {
            let inner: usize = rest.iter().product();
            Value::Array(data.chunks(inner).map(|c| nested(c, rest)).collect())
        }
        [] => Value::from_f32s(data),
    }
}

#[test]
fn every_mapping_agrees_and_is_race_free() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let opts = trace::Options {
        trace: true,
        drop_barrier: None,
    };
    let (mut ran, mut refused) = (0, Vec::new());
    for depth in 1..=4 {
        for shape in 0..3 {
            if shape == 1 && depth == 1 || shape == 2 && depth < 2 {
                continue;
            }
            let src = program(depth, shape, &mut rng);
            let mut prog = parse::parse_program_str(&src).expect("parses");
            let infos = typeck::check_program(&mut prog).unwrap_or_else(|e| panic!("{e}\n{src}"));
            let info = &infos[0];
            // The solver against brute force.
            let prepared = lower::prepare(&prog, "K", info).expect("prepares");
            let nest = mapping::Nest::of(&prepared.kernels[0].body);
            let cs = mapping::constraints(&nest);
            let solved = mapping::solve(&nest, &cs).expect("solves");
            assert_eq!(solved, mapping::brute_force(&nest, &cs), "{src}");
            let all = parallel::mappings(&prog, "K", info).expect("mappings");
            assert_eq!(all.len(), solved.len(), "{src}");
            // Every mapping on the device.
            let sizes: Vec<usize> = (0..depth)
                .map(|_| SIZES[rng.gen_range(0..SIZES.len())])
                .collect();
            let n: usize = sizes.iter().product();
            let data = random_f32(n, depth as u64 * 10 + shape as u64);
            let x = nested(&data, &sizes);
            let want = f32s(&interpret(&src, "K", &sizes, std::slice::from_ref(&x)));
            for m in &all {
                let codes: Vec<String> = m.codes.iter().map(ToString::to_string).collect();
                let what = format!("{src} at {sizes:?} mapped {}", codes.join(","));
                let lowered = match &m.lowered {
                    Ok(l) => l,
                    Err(e) => {
                        refused.push(format!("{what}: {e}"));
                        continue;
                    }
                };
                let text = print::program(&lowered.prog);
                let k = match DynKernel::compile_traced(ctx(), &text, "K", None, opts) {
                    Ok(k) => k,
                    Err(e) => {
                        refused.push(format!("{what}: {e}"));
                        continue;
                    }
                };
                let (got, races) = k
                    .check_races(&sizes, std::slice::from_ref(&x))
                    .unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
                assert!(
                    races.is_empty(),
                    "{what}: {}\n{text}",
                    races
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; ")
                );
                assert_close(&f32s(&got), &want, 1e-4, &what);
                ran += 1;
            }
        }
    }
    eprintln!("{ran} mappings ran, {} refused:", refused.len());
    for r in &refused {
        eprintln!("  {r}");
    }
    assert!(ran >= 100, "{ran} mappings ran");
}
