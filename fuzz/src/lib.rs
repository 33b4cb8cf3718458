//! Fuzzing of the lift-rs compiler on stable Rust.
//!
//! Each execution turns a buffer of bytes (seeded random bytes here, the engine's inputs
//! under AFL: `fuzz/afl/`) into an input through [`arbitrary::Unstructured`], in one of four
//! ways: raw text (or raw token trees), a program from a small grammar of the language
//! ([`grammar`]), a well-typed program of the differential run's families written from the
//! bytes ([`structured`]), or a valid program of the corpus mutated token by token
//! ([`mutate_text`], [`mutate_tokens`]). The input then goes through the stages of one
//! [`Target`]; any stage may reject it with an `Err`, none may panic, and the targets `rules`
//! and `explore` also compare what they derive with the interpreter.
//! Panics are caught with [`std::panic::catch_unwind`] and reported with the execution's seed,
//! which reproduces it (`fuzz --target T --replay SEED`).

#![warn(missing_docs)]

use arbitrary::{Result as AResult, Unstructured};
use lift_core::ir::Program;
use lift_core::{driver, explore, parse, rewrite, typeck};
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use rand::{RngCore, SeedableRng};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::str::FromStr;

pub mod structured;

/// The stack an execution needs (reserved, not touched): the explorer's rewrites recurse over
/// the program, as they do on rustc's large stack in the macro and on the runtime's explorer
/// thread (`lift_runtime::explored`); the drivers run executions on threads of this size.
pub const STACK: usize = 256 << 20;

/// Runs `f` on a thread with [`STACK`] bytes of stack, passing its panic on.
pub fn on_large_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        let h = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(s, f)
            .expect("a thread for the execution");
        h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

/// What a fuzz target exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// `parse::parse_program_str` and `parse::parse_expr_str` on text.
    ParseStr,
    /// `parse::parse_program` on token streams (the macro's input), built token by token.
    Tokens,
    /// Parsing, then `typeck::check_program`.
    Typeck,
    /// Parsing, checking, normalisation and `rewrite::points::apply_points`.
    Points,
    /// The whole `driver::compile_kernel` pipeline to OpenCL C.
    Codegen,
    /// Rewrite rules of the catalogue applied at random places of well-typed programs, each
    /// result against the interpreter ([`structured::exec_rules`]).
    Rules,
    /// The explorer's candidates of well-typed programs against the interpreter
    /// ([`structured::exec_explore`]).
    Explore,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 7] = [
        Target::ParseStr,
        Target::Tokens,
        Target::Typeck,
        Target::Points,
        Target::Codegen,
        Target::Rules,
        Target::Explore,
    ];

    /// The target's name (its corpus directory).
    pub fn name(self) -> &'static str {
        match self {
            Target::ParseStr => "parse_str",
            Target::Tokens => "tokens",
            Target::Typeck => "typeck",
            Target::Points => "points",
            Target::Codegen => "codegen",
            Target::Rules => "rules",
            Target::Explore => "explore",
        }
    }

    /// The target of a name.
    pub fn from_name(s: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// How far an input got through its target's stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reached {
    /// Rejected by the parser.
    Parse,
    /// Parsed, rejected by the checker.
    Typeck,
    /// Checked, rejected by a later stage (points, normalisation, code generation).
    Later,
    /// Accepted by every stage of the target.
    Accepted,
}

/// Primitive names, types, keywords and numbers the mutators and the grammar draw from.
const PRIMS: [&str; 54] = [
    "map",
    "reduce",
    "zip",
    "unzip",
    "split",
    "join",
    "split_cover",
    "join_cover",
    "slide",
    "pad",
    "transpose",
    "gather",
    "scatter",
    "get",
    "at",
    "id",
    "iterate",
    "map2",
    "map3",
    "zip2",
    "slide2",
    "pad2",
    "slide3",
    "pad3",
    "head",
    "tail",
    "filter",
    "scan_seq",
    "filter_seq",
    "reduce_while_seq",
    "generate",
    "generate2",
    "map_seq_slide",
    "transpose_w",
    "untile2",
    "map_glb",
    "map_wrg",
    "map_lcl",
    "map_seq",
    "map_seq_unroll",
    "reduce_seq",
    "reduce_seq_unroll",
    "to_global",
    "to_local",
    "to_private",
    "as_vector",
    "as_scalar",
    "vectorize",
    "reverse",
    "stride",
    "clamp",
    "mirror",
    "wrap",
    "constant",
];
const TYPES: [&str; 12] = [
    "f32", "f64", "f16", "i32", "u32", "i64", "u64", "bool", "f32x4", "i32x2", "f32x16", "u8",
];
const NUMBERS: [&str; 16] = [
    "0",
    "1",
    "2",
    "3",
    "4",
    "7",
    "16",
    "128",
    "65536",
    "2147483647",
    "2147483648",
    "4294967296",
    "18446744073709551615",
    "0.0",
    "1e38",
    "-1",
];
const POINTS: [&str; 12] = [
    "split_join",
    "join_split",
    "ab_tile",
    "tile_stencil",
    "pad_extra",
    "tile_nested_map_reduce",
    "materialise",
    "optimise_data_layout",
    "interchange_maps",
    "privatise_accumulator",
    "interchange_reduce",
    "kernel_fission",
];
const KEYWORDS: [&str; 14] = [
    "kernel", "fn", "pub", "o", "let", "if", "else", "as", "N", "M", "x", "v", "sqrt", "max",
];
const PUNCTS: [char; 21] = [
    '=', '<', '>', '!', '~', '+', '-', '*', '/', '%', '^', '&', '|', '@', '.', ',', ';', ':', '#',
    '$', '?',
];

fn choose<'a>(u: &mut Unstructured, xs: &[&'a str]) -> AResult<&'a str> {
    Ok(*u.choose(xs)?)
}

/// A program from a small grammar of the language: mostly well formed, often ill typed.
pub mod grammar {
    use super::*;

    /// A size expression.
    fn size(u: &mut Unstructured, depth: u32) -> AResult<String> {
        Ok(match u.int_in_range(0..=6)? {
            0 | 1 => choose(u, &["N", "M", "K"])?.to_string(),
            2 if depth < 2 => format!(
                "{} {} {}",
                size(u, depth + 1)?,
                choose(u, &["+", "-", "*", "/", "%"])?,
                size(u, depth + 1)?
            ),
            _ => choose(u, &NUMBERS[..12])?.to_string(),
        })
    }

    /// A type.
    pub fn ty(u: &mut Unstructured, depth: u32) -> AResult<String> {
        Ok(match u.int_in_range(0..=5)? {
            0 | 1 if depth < 3 => format!("[{}; {}]", ty(u, depth + 1)?, size(u, 0)?),
            2 if depth < 3 => format!("({}, {})", ty(u, depth + 1)?, ty(u, depth + 1)?),
            _ => choose(u, &TYPES)?.to_string(),
        })
    }

    /// A scalar expression over the variables `vars`.
    fn scalar(u: &mut Unstructured, vars: &[&str], depth: u32) -> AResult<String> {
        let var = |u: &mut Unstructured| -> AResult<String> {
            Ok(if vars.is_empty() {
                "1.0".into()
            } else {
                u.choose(vars)?.to_string()
            })
        };
        Ok(match u.int_in_range(0..=11)? {
            0 | 1 => var(u)?,
            2 => choose(u, &["0.0", "1.0", "2", "0", "true", "-1.5", "3u32", "1e30"])?.into(),
            3..=5 if depth < 4 => format!(
                "{} {} {}",
                scalar(u, vars, depth + 1)?,
                choose(u, &["+", "-", "*", "/", "%", "<", "==", "&&", "||", ">="])?,
                scalar(u, vars, depth + 1)?
            ),
            6 if depth < 4 => format!(
                "{}({})",
                choose(u, &["sqrt", "exp", "abs", "floor", "-", "!"])?,
                scalar(u, vars, depth + 1)?
            ),
            7 if depth < 4 => format!(
                "{}({}, {})",
                choose(u, &["max", "min", "pow", "addf", "f0"])?,
                scalar(u, vars, depth + 1)?,
                scalar(u, vars, depth + 1)?
            ),
            8 if depth < 4 => format!(
                "if {} {{ {} }} else {{ {} }}",
                scalar(u, vars, depth + 1)?,
                scalar(u, vars, depth + 1)?,
                scalar(u, vars, depth + 1)?
            ),
            9 => format!("{} as {}", var(u)?, choose(u, &TYPES[..8])?),
            10 => format!("{}.{}", var(u)?, u.int_in_range(0..=2)?),
            _ => format!(
                "{}[{}]",
                var(u)?,
                choose(u, &["0", "1", "2", "N - 1", "v"])?
            ),
        })
    }

    /// A function (a primitive, a lambda, a composition, a point).
    pub fn fun(u: &mut Unstructured, depth: u32) -> AResult<String> {
        if depth > 5 {
            return Ok(choose(u, &["id", "join", "transpose", "as_scalar", "head"])?.into());
        }
        let f = |u: &mut Unstructured| fun(u, depth + 1);
        let n = |u: &mut Unstructured| -> AResult<String> {
            Ok(if u.ratio(1, 8)? {
                size(u, 0)?
            } else {
                choose(u, &["1", "2", "3", "4", "0", "8"])?.into()
            })
        };
        let bound = |u: &mut Unstructured| -> AResult<String> {
            Ok(choose(
                u,
                &[
                    "clamp",
                    "mirror",
                    "wrap",
                    "mirror_unsafe",
                    "constant(0.0)",
                    "constant(x)",
                ],
            )?
            .into())
        };
        let lam = |u: &mut Unstructured| -> AResult<String> {
            Ok(match u.int_in_range(0..=3)? {
                0 => format!("|v| {}", scalar(u, &["v"], 0)?),
                1 => format!("|(a, b)| {}", scalar(u, &["a", "b"], 0)?),
                2 => format!("|a, b| {}", scalar(u, &["a", "b"], 0)?),
                _ => format!("|r| {} $ r", fun(u, depth + 1)?),
            })
        };
        let op = |u: &mut Unstructured| -> AResult<String> {
            Ok(choose(u, &["+", "*", "max", "min", "addf", "|a, b| a + b"])?.into())
        };
        Ok(match u.int_in_range(0..=30)? {
            0 | 1 => format!("map({})", lam(u)?),
            2 => format!("map({})", f(u)?),
            3 => format!("reduce({}, {})", op(u)?, scalar(u, &[], 3)?),
            4 => format!("{}({})", choose(u, &["split", "split_cover"])?, n(u)?),
            5 => {
                if u.ratio(1, 2)? {
                    "join".into()
                } else {
                    format!("join_cover({})", n(u)?)
                }
            }
            6 => format!("slide({}, {})", n(u)?, n(u)?),
            7 => format!("pad({}, {}, {})", n(u)?, n(u)?, bound(u)?),
            8 => "transpose".into(),
            9 => format!(
                "{}({})",
                choose(u, &["gather", "scatter"])?,
                if u.ratio(1, 2)? {
                    "reverse".to_string()
                } else {
                    format!("stride({})", n(u)?)
                }
            ),
            10 => format!("{} o {}", f(u)?, f(u)?),
            11 => format!("iterate({}, {})", n(u)?, f(u)?),
            12 => format!("map2({})", lam(u)?),
            13 => format!("slide2({}, {})", n(u)?, n(u)?),
            14 => format!("pad2({}, {})", n(u)?, bound(u)?),
            15 => format!("pad3({}, {})", n(u)?, bound(u)?),
            16 => format!("slide3({}, {})", n(u)?, n(u)?),
            17 => format!("map3({})", f(u)?),
            18 => format!("map_glb({}, {})", u.int_in_range(0..=3)?, f(u)?),
            19 => format!("map_wrg({}, {})", u.int_in_range(0..=2)?, f(u)?),
            20 => format!("map_lcl({}, {})", u.int_in_range(0..=2)?, f(u)?),
            21 => format!(
                "{}({})",
                choose(
                    u,
                    &[
                        "map_seq",
                        "map_seq_unroll",
                        "to_local",
                        "to_global",
                        "to_private"
                    ]
                )?,
                f(u)?
            ),
            22 => format!(
                "{}({}, 0.0)",
                choose(u, &["reduce_seq", "reduce_seq_unroll", "scan_seq"])?,
                op(u)?
            ),
            23 => format!("as_vector({})", n(u)?),
            24 => format!("vectorize({}, {})", n(u)?, lam(u)?),
            25 => choose(
                u,
                &[
                    "as_scalar",
                    "head",
                    "tail",
                    "unzip",
                    "transpose_w",
                    "untile2",
                    "id",
                ],
            )?
            .into(),
            26 => format!("get({})", n(u)?),
            27 => format!("at({})", n(u)?),
            28 => {
                let p = choose(u, &POINTS)?;
                let args = match u.int_in_range(0..=3)? {
                    0 => String::new(),
                    1 => format!("({})", n(u)?),
                    2 => "(_)".into(),
                    _ => format!("({}, {})", n(u)?, n(u)?),
                };
                format!("#[{p}{args}] {}", f(u)?)
            }
            29 => format!("map_seq_slide({}, {}, {})", op(u)?, n(u)?, n(u)?),
            _ => format!("reduce_while_seq({}, |v| v > 0.0, 0.0)", op(u)?),
        })
    }

    /// A data expression over the parameters `params`.
    fn data(u: &mut Unstructured, params: &[String], depth: u32) -> AResult<String> {
        let p = u.choose(params)?.clone();
        Ok(match u.int_in_range(0..=5)? {
            0 if depth < 3 => format!("{} $ {}", fun(u, 0)?, data(u, params, depth + 1)?),
            1 if depth < 3 => format!(
                "zip({}, {})",
                data(u, params, depth + 1)?,
                data(u, params, depth + 1)?
            ),
            2 if depth < 3 => format!("({})", data(u, params, depth + 1)?),
            3 => format!("{p}[{}]", choose(u, &["0", "1", "N"])?),
            _ => p,
        })
    }

    /// A whole program: user functions and one or two kernels.
    pub fn program(u: &mut Unstructured) -> AResult<String> {
        let mut out = String::new();
        if u.ratio(1, 2)? {
            out.push_str("fn addf(a: f32, b: f32) -> f32 { a + b }\n");
        }
        if u.ratio(1, 4)? {
            let t = choose(u, &TYPES[..8])?;
            out.push_str(&format!(
                "fn f0(a: {t}, b: {t}) -> {t} {{ {} }}\n",
                scalar(u, &["a", "b"], 0)?
            ));
        }
        if u.ratio(1, 8)? {
            out.push_str("#[opencl] fn ocl(a: f32) -> f32 { \"return a * 2.0f;\" }\n");
        }
        for k in 0..u.int_in_range(1..=2)? {
            let sizes: Vec<&str> = ["N", "M", "K"]
                .into_iter()
                .take(u.int_in_range(0..=3)?)
                .collect();
            let nparams = u.int_in_range(1..=3)?;
            let names: Vec<String> = ["x", "y", "z"][..nparams]
                .iter()
                .map(|s| s.to_string())
                .collect();
            let params: Vec<String> = names
                .iter()
                .map(|n| Ok(format!("{n}: {}", ty(u, 0)?)))
                .collect::<AResult<_>>()?;
            let body = if u.ratio(1, 2)? {
                format!("{} $ {}", fun(u, 0)?, data(u, &names, 0)?)
            } else {
                data(u, &names, 0)?
            };
            let gen = if sizes.is_empty() {
                String::new()
            } else {
                format!("<{}>", sizes.join(", "))
            };
            out.push_str(&format!(
                "kernel K{k}{gen}({}) -> {} {{ {body} }}\n",
                params.join(", "),
                ty(u, 0)?
            ));
        }
        Ok(out)
    }
}

/// Splits program text into tokens whose concatenation is the text (identifier runs, with
/// `.` inside numbers; whitespace runs; single other characters).
pub fn split_tokens(text: &str) -> Vec<String> {
    let class = |c: char| {
        if c.is_alphanumeric() || c == '_' || c == '.' {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        }
    };
    let mut out: Vec<String> = Vec::new();
    for c in text.chars() {
        match out.last_mut() {
            Some(t) if class(c) != 2 && t.chars().last().map(class) == Some(class(c)) => t.push(c),
            _ => out.push(c.to_string()),
        }
    }
    out
}

/// A few token-level mutations of program text.
pub fn mutate_text(text: &str, u: &mut Unstructured) -> AResult<String> {
    let mut toks = split_tokens(text);
    for _ in 0..u.int_in_range(1..=4)? {
        if toks.is_empty() {
            toks.push(String::new());
        }
        let i = u.choose_index(toks.len())?;
        let dict: &[&str] = match u.int_in_range(0..=4)? {
            0 => &PRIMS,
            1 => &TYPES,
            2 => &NUMBERS,
            3 => &KEYWORDS,
            _ => &[
                "(", ")", "[", "]", "{", "}", " $ ", " o ", "|", ",", ";", "#[", "∘", "_", ".0",
            ],
        };
        match u.int_in_range(0..=6)? {
            0 | 1 => toks[i] = choose(u, dict)?.to_string(),
            2 => {
                toks.remove(i);
            }
            3 => {
                let t = toks[i].clone();
                toks.insert(i, t);
            }
            4 => {
                let j = u.choose_index(toks.len())?;
                toks.swap(i, j);
            }
            5 => toks.insert(i, choose(u, dict)?.to_string()),
            _ => {
                // A point around the token.
                let p = choose(u, &POINTS)?;
                toks.insert(i, format!("#[{p}({})] ", choose(u, &["1", "4", "_", "0"])?));
            }
        }
    }
    Ok(toks.concat())
}

/// A random token tree (valid identifiers and punctuation only: `proc_macro2` panics on
/// others, as `proc_macro` does, so the macro can never be handed them).
fn arb_tree(u: &mut Unstructured, depth: u32) -> AResult<TokenTree> {
    let span = Span::call_site();
    Ok(match u.int_in_range(0..=9)? {
        0..=2 => {
            let name = match u.int_in_range(0..=3)? {
                0 => choose(u, &PRIMS)?,
                1 => choose(u, &TYPES)?,
                2 => choose(u, &KEYWORDS)?,
                _ => choose(u, &POINTS)?,
            };
            TokenTree::Ident(Ident::new(name, span))
        }
        3 | 4 => {
            let spacing = if u.ratio(1, 3)? {
                Spacing::Joint
            } else {
                Spacing::Alone
            };
            TokenTree::Punct(Punct::new(*u.choose(&PUNCTS)?, spacing))
        }
        5 | 6 => TokenTree::Literal(match u.int_in_range(0..=6)? {
            0 => Literal::u64_unsuffixed(u.arbitrary()?),
            1 => Literal::i64_suffixed(u.arbitrary()?),
            2 => {
                let f: f64 = u.arbitrary()?;
                Literal::f64_unsuffixed(if f.is_finite() { f } else { 0.5 })
            }
            3 => {
                let f: f32 = u.arbitrary()?;
                Literal::f32_suffixed(if f.is_finite() { f } else { 0.5 })
            }
            4 => Literal::string(u.arbitrary()?),
            5 => Literal::u32_suffixed(u.arbitrary()?),
            _ => Literal::character(u.arbitrary()?),
        }),
        _ if depth < 6 => {
            let d = *u.choose(&[
                Delimiter::Parenthesis,
                Delimiter::Bracket,
                Delimiter::Brace,
                Delimiter::None,
            ])?;
            let inner = arb_stream(u, depth + 1)?;
            TokenTree::Group(Group::new(d, inner))
        }
        _ => TokenTree::Ident(Ident::new("x", span)),
    })
}

/// A random token stream.
pub fn arb_stream(u: &mut Unstructured, depth: u32) -> AResult<TokenStream> {
    let n = u.int_in_range(0..=10)?;
    (0..n).map(|_| arb_tree(u, depth)).collect()
}

/// Token-tree mutations of a stream (recursively into groups).
pub fn mutate_tokens(ts: TokenStream, u: &mut Unstructured, depth: u32) -> AResult<TokenStream> {
    let mut toks: Vec<TokenTree> = ts.into_iter().collect();
    for _ in 0..u.int_in_range(0..=2)? {
        if toks.is_empty() {
            break;
        }
        let i = u.choose_index(toks.len())?;
        match u.int_in_range(0..=7)? {
            0 => {
                toks.remove(i);
            }
            1 => {
                let t = toks[i].clone();
                toks.insert(i, t);
            }
            2 | 3 => toks[i] = arb_tree(u, depth)?,
            4 => toks.insert(i, arb_tree(u, depth)?),
            5 => {
                let j = u.choose_index(toks.len())?;
                toks.swap(i, j);
            }
            _ => {
                if let TokenTree::Group(g) = &toks[i] {
                    if depth < 8 {
                        let inner = mutate_tokens(g.stream(), u, depth + 1)?;
                        let d = if u.ratio(1, 6)? {
                            *u.choose(&[
                                Delimiter::Parenthesis,
                                Delimiter::Bracket,
                                Delimiter::Brace,
                            ])?
                        } else {
                            g.delimiter()
                        };
                        toks[i] = TokenTree::Group(Group::new(d, inner));
                    }
                }
            }
        }
    }
    Ok(toks.into_iter().collect())
}

/// What the text of an execution is drawn from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Inputs {
    /// Raw text a tenth of the time (the parser's targets).
    Raw,
    /// Grammar programs, family programs and mutated corpus entries, no raw text.
    Text,
    /// Mostly well-typed family programs (the targets past the checker: most inputs should
    /// reach the stage they fuzz, not stop at the parser).
    Typed,
}

/// Program text for an execution: raw, from the grammar, a well-typed family program, or a
/// (mutated) corpus entry.
fn text_input(u: &mut Unstructured, corpus: &[String], inputs: Inputs) -> AResult<String> {
    let mode = u.int_in_range(0..=9)?;
    Ok(match (inputs, mode) {
        (Inputs::Raw, 0) => {
            let s: String = u.arbitrary()?;
            s
        }
        (Inputs::Typed, 0..=6) | (_, 4..=5) => structured::family_program(u).text,
        (Inputs::Typed, 7) | (_, 1..=3) => grammar::program(u)?,
        _ if !corpus.is_empty() => {
            let base = u.choose(corpus)?.clone();
            if u.ratio(1, 10)? {
                base
            } else {
                mutate_text(&base, u)?
            }
        }
        _ => grammar::program(u)?,
    })
}

/// Parses and checks `text`; for the later targets, declared result types that differ from
/// the inferred ones are replaced by the inferred ones (to get past the checker more often).
pub(crate) fn checked(text: &str, fix_results: bool) -> Result<Program, Reached> {
    if std::env::var_os("FUZZ_TRACE").is_some() {
        eprintln!("input:\n{text}");
    }
    let mut prog = parse::parse_program_str(text).map_err(|_| Reached::Parse)?;
    if fix_results {
        let funs = prog.funs.clone();
        for k in &mut prog.kernels {
            if let Ok(t) = typeck::infer_result(&funs, k) {
                k.ret = t;
            }
        }
    }
    typeck::check_program(&mut prog).map_err(|_| Reached::Typeck)?;
    Ok(prog)
}

/// One execution of `target` on the input made from `data`. Panics propagate (the caller
/// catches them); the input text is written to `input` first, so a panic can be reported.
pub fn exec(target: Target, data: &[u8], corpus: &[String], input: &mut String) -> Reached {
    let mut u = Unstructured::new(data);
    match target {
        Target::Tokens => {
            let ts = match u.int_in_range(0..=3u8).unwrap_or(0) {
                0 => arb_stream(&mut u, 0).unwrap_or_default(),
                _ => {
                    let text = text_input(&mut u, corpus, Inputs::Text).unwrap_or_default();
                    let ts = TokenStream::from_str(&text).unwrap_or_default();
                    mutate_tokens(ts.clone(), &mut u, 0).unwrap_or(ts)
                }
            };
            *input = ts.to_string();
            match parse::parse_program(ts) {
                Ok(_) => Reached::Accepted,
                Err(_) => Reached::Parse,
            }
        }
        Target::ParseStr => {
            let text = text_input(&mut u, corpus, Inputs::Raw).unwrap_or_default();
            input.clone_from(&text);
            let body = text
                .rfind('{')
                .map(|i| text[i + 1..].trim_end().trim_end_matches('}'))
                .unwrap_or(&text);
            let _ = parse::parse_expr_str(body, &["N", "M"]);
            match parse::parse_program_str(&text) {
                Ok(_) => Reached::Accepted,
                Err(_) => Reached::Parse,
            }
        }
        Target::Typeck => {
            let text = text_input(&mut u, corpus, Inputs::Text).unwrap_or_default();
            input.clone_from(&text);
            match checked(&text, u.ratio(1, 2).unwrap_or(false)) {
                Ok(_) => Reached::Accepted,
                Err(r) => r,
            }
        }
        Target::Points => {
            let text = text_input(&mut u, corpus, Inputs::Typed).unwrap_or_default();
            input.clone_from(&text);
            let prog = match checked(&text, true) {
                Ok(p) => p,
                Err(r) => return r,
            };
            let mut all = true;
            for k in &prog.kernels {
                all &= rewrite::points::apply_points(&prog, &k.name).is_ok();
                match explore::normalise::normalise_kernel(&prog, &k.name) {
                    Ok(n) => all &= rewrite::points::apply_points(&n, &k.name).is_ok(),
                    Err(_) => all = false,
                }
            }
            if all {
                Reached::Accepted
            } else {
                Reached::Later
            }
        }
        Target::Codegen => {
            let text = text_input(&mut u, corpus, Inputs::Typed).unwrap_or_default();
            input.clone_from(&text);
            let prog = match checked(&text, true) {
                Ok(p) => p,
                Err(r) => return r,
            };
            if std::env::var_os("FUZZ_TRACE").is_some() {
                eprintln!("{}", lift_core::print::program(&prog));
            }
            let mut all = true;
            for k in &prog.kernels {
                all &= driver::compile_kernel(&prog, &k.name).is_ok();
            }
            if all {
                Reached::Accepted
            } else {
                Reached::Later
            }
        }
        Target::Rules => structured::exec_rules(&mut u, input),
        Target::Explore => structured::exec_explore(&mut u, input),
    }
}

/// The random bytes of execution `seed`.
pub fn bytes(seed: u64) -> Vec<u8> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut data = vec![0u8; 2048];
    rng.fill_bytes(&mut data);
    data
}

/// The seed of execution `i` of `target` in a run from `base`.
pub fn exec_seed(target: Target, base: u64, i: u64) -> u64 {
    let t = Target::ALL.iter().position(|x| *x == target).unwrap_or(0) as u64;
    base.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(t << 56)
        .wrapping_add(i)
}

/// A panic found: the seed that reproduces it, the input and the message.
#[derive(Clone, Debug)]
pub struct Crash {
    /// Execution seed ([`bytes`]).
    pub seed: u64,
    /// The input as text.
    pub input: String,
    /// The panic message.
    pub message: String,
}

/// Counts of one run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Executions made.
    pub execs: u64,
    /// Executions per stage reached: parse, typeck, later, accepted.
    pub reached: [u64; 4],
    /// Panics.
    pub crashes: Vec<Crash>,
    /// The slowest execution: seconds and seed.
    pub slowest: (f64, u64),
}

/// Runs execution `seed` of `target` (on [`bytes`]`(seed)`), catching a panic.
pub fn run_seed(target: Target, seed: u64, corpus: &[String], stats: &mut Stats) {
    if std::env::var_os("FUZZ_TRACE").is_some() {
        eprintln!("seed {seed}");
    }
    run_bytes(target, &bytes(seed), seed, corpus, stats);
}

/// Runs `target` on the input bytes `data` (reported as execution `seed`), catching a panic.
pub fn run_bytes(target: Target, data: &[u8], seed: u64, corpus: &[String], stats: &mut Stats) {
    let mut input = String::new();
    let t = std::time::Instant::now();
    let r = catch_unwind(AssertUnwindSafe(|| exec(target, data, corpus, &mut input)));
    let secs = t.elapsed().as_secs_f64();
    if secs > stats.slowest.0 {
        stats.slowest = (secs, seed);
    }
    stats.execs += 1;
    match r {
        Ok(reached) => stats.reached[reached as usize] += 1,
        Err(e) => {
            let message = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            stats.crashes.push(Crash {
                seed,
                input,
                message,
            });
        }
    }
}

/// The corpus of `target`: every file of `dir/<target>/` (sorted), plus `dir/seeds/`.
pub fn load_corpus(dir: &Path, target: Target) -> Vec<String> {
    let mut out = Vec::new();
    for sub in [target.name(), "seeds"] {
        let Ok(rd) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        let mut paths: Vec<_> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            if let Ok(s) = std::fs::read_to_string(&p) {
                out.push(s);
            }
        }
    }
    out
}

/// The corpus directory: `LIFT_FUZZ_CORPUS`, else this crate's `corpus/`.
pub fn corpus_dir() -> std::path::PathBuf {
    match std::env::var_os("LIFT_FUZZ_CORPUS") {
        Some(d) => d.into(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"),
    }
}

/// Silences the default panic hook (panics are caught and counted).
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|_| {}));
}
