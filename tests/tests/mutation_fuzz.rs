//! The compiler never panics on bad input: random well-typed programs (the generator of
//! `random_programs`) are mutated token by token (numbers to 0, huge or negative, primitives and
//! types swapped, tokens dropped or duplicated) and pushed through the parser, the type checker,
//! the rewrite points and the code generator. Each stage may reject a program with an error; none
//! may panic. No device is needed.

// Shared with `random_programs`, which uses the run-time fields this test does not.
#[allow(dead_code)]
#[path = "random_programs/gen.rs"]
mod gen;

use lift_runtime::core::{driver, parse, typeck};
use rand::{Rng, SeedableRng};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Splits program text into tokens whose concatenation is the text: runs of identifier
/// characters (with `.` inside numbers), runs of whitespace, and single other characters.
fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let class = |c: char| {
        if c.is_alphanumeric() || c == '_' || c == '.' {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        }
    };
    for c in text.chars() {
        match out.last_mut() {
            Some(t) if class(c) != 2 && t.chars().last().map(class) == Some(class(c)) => t.push(c),
            _ => out.push(c.to_string()),
        }
    }
    out
}

const PRIMS: [&str; 16] = [
    "map",
    "reduce",
    "split",
    "join",
    "transpose",
    "slide",
    "pad",
    "zip",
    "map_glb",
    "map_wrg",
    "map_lcl",
    "to_local",
    "iterate",
    "gather",
    "map2",
    "slide2",
];
const TYPES: [&str; 5] = ["f32", "i32", "bool", "f16", "f32x4"];
const NUMBERS: [&str; 6] = ["0", "1", "3", "4294967296", "999999999999", "0.0"];

/// One random mutation of the token list.
fn mutate(toks: &mut Vec<String>, rng: &mut rand::rngs::StdRng) {
    if toks.is_empty() {
        return;
    }
    let i = rng.gen_range(0..toks.len());
    let t = toks[i].clone();
    let is_num = t.chars().next().is_some_and(|c| c.is_ascii_digit());
    match rng.gen_range(0..5) {
        0 if is_num => toks[i] = NUMBERS[rng.gen_range(0..NUMBERS.len())].into(),
        1 if PRIMS.contains(&t.as_str()) => toks[i] = PRIMS[rng.gen_range(0..PRIMS.len())].into(),
        2 if TYPES.contains(&t.as_str()) => toks[i] = TYPES[rng.gen_range(0..TYPES.len())].into(),
        3 => {
            toks.remove(i);
        }
        _ => toks.insert(i, t),
    }
}

/// How far a program got.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Parse,
    Typeck,
    Codegen,
    Generated,
}

/// Parse, check and generate every kernel; `Err`s are fine, panics are not.
fn compile(text: &str) -> Stage {
    let Ok(mut prog) = parse::parse_program_str(text) else {
        return Stage::Parse;
    };
    if typeck::check_program(&mut prog).is_err() {
        return Stage::Typeck;
    }
    let mut all = true;
    for k in &prog.kernels {
        all &= driver::compile_kernel(&prog, &k.name).is_ok();
    }
    if all {
        Stage::Generated
    } else {
        Stage::Codegen
    }
}

#[test]
fn mutated_programs_never_panic() {
    let mut panics = Vec::new();
    let mut stages = Vec::new();
    for seed in 0..1000u64 {
        let p = gen::program(seed);
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        for round in 0..4 {
            let mut toks = tokens(&p.text);
            assert_eq!(toks.concat(), p.text, "tokens cover the text");
            for _ in 0..=round {
                mutate(&mut toks, &mut rng);
            }
            let text = toks.concat();
            match catch_unwind(AssertUnwindSafe(|| compile(&text))) {
                Ok(stage) => stages.push(stage),
                Err(_) => panics.push(format!("seed {seed}, round {round}:\n{text}")),
            }
        }
    }
    assert!(
        panics.is_empty(),
        "{} panics, first:\n{}",
        panics.len(),
        panics[0]
    );
    let count = |s: Stage| stages.iter().filter(|x| **x == s).count();
    let (parse, check, gen, ok) = (
        count(Stage::Parse),
        count(Stage::Typeck),
        count(Stage::Codegen),
        count(Stage::Generated),
    );
    eprintln!("rejected by the parser {parse}, the checker {check}, codegen {gen}; generated {ok}");
    // The mutations must exercise every stage, not only the parser.
    assert!(
        check >= 250 && ok >= 250,
        "parse {parse}, check {check}, codegen {gen}, ok {ok}"
    );
}
