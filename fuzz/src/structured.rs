//! Structured inputs: well-typed programs of the differential run's families
//! (`tests/src/diff/gen.rs`, included here), every choice of a family drawn from the fuzzer's
//! bytes through [`ByteRng`], so that a coverage-guided engine's mutations of the bytes are
//! mutations of the program; and the two targets over them that check meaning, not only the
//! absence of panics: random rule applications ([`exec_rules`]) and the explorer's candidates
//! ([`exec_explore`]), each against the reference interpreter on random arguments.

use crate::{checked, Reached};
use arbitrary::Unstructured;
use lift_core::explore::{self, Lowering, Scope};
use lift_core::interp::sample::{agree, random_value};
use lift_core::interp::{run_kernel, Value};
use lift_core::ir::Program;
use lift_core::rewrite::catalogue::catalogue;
use lift_core::rewrite::{strategy, RewriteCtx};
use lift_core::typeck::{check_program, KernelInfo};
use rand::RngCore;

#[allow(dead_code)]
#[path = "../../tests/src/diff/gen.rs"]
mod gen;

/// A random-number source reading the fuzzer's bytes (zeros once they run out): each choice
/// of a generator consumes a few bytes of the input.
pub struct ByteRng<'a, 'b>(pub &'b mut Unstructured<'a>);

impl RngCore for ByteRng<'_, '_> {
    fn next_u32(&mut self) -> u32 {
        self.0.arbitrary().unwrap_or(0)
    }

    fn next_u64(&mut self) -> u64 {
        self.0.arbitrary().unwrap_or(0)
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for b in dest {
            *b = self.0.arbitrary().unwrap_or(0);
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

/// A program of one of the families, and the values of its size variables.
pub struct Drafted {
    /// The program text (kernel `K`; its declared result type is a placeholder that
    /// [`checked`] replaces by the inferred one).
    pub text: String,
    /// The size values, in declaration order.
    pub sizes: Vec<i64>,
}

/// A program of a family chosen by the bytes, written by the family from the bytes.
pub fn family_program(u: &mut Unstructured) -> Drafted {
    let names: Vec<&str> = gen::FAMILIES
        .iter()
        .map(|f| f.0)
        .filter(|&n| n != "base")
        .collect();
    let name = u.choose(&names).copied().unwrap_or("stencil1d");
    let d = gen::draft(name, &mut ByteRng(u));
    let names: Vec<&str> = d.sizes.iter().map(|s| s.0).collect();
    let head = match names.is_empty() {
        true => String::new(),
        false => format!("<{}>", names.join(", ")),
    };
    Drafted {
        text: format!(
            "{}kernel K{head}({}) -> f32 {{ {} }}",
            d.funs,
            d.params.join(", "),
            d.body
        ),
        sizes: d.sizes.iter().map(|s| s.1 as i64).collect(),
    }
}

/// A family program, checked, with random arguments and the interpreter's result.
struct Checked {
    prog: Program,
    sizes: Vec<i64>,
    args: Vec<Value>,
    want: Value,
}

/// A family program from the bytes, written to `input`, checked and interpreted; the stage
/// it stopped at if not.
fn checked_family(u: &mut Unstructured, input: &mut String) -> Result<Checked, Reached> {
    let d = family_program(u);
    input.clone_from(&d.text);
    let prog = checked(&d.text, true)?;
    let k = prog.kernel("K").ok_or(Reached::Typeck)?;
    let env = |n: &str| {
        let i = k.sizes.iter().position(|(s, _)| s == n)?;
        d.sizes.get(i).copied()
    };
    let mut seed = u.arbitrary::<u64>().unwrap_or(1) | 1;
    let args = k
        .params
        .iter()
        .map(|p| random_value(&p.ty, &env, &mut seed))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| Reached::Later)?;
    let want = run_kernel(&prog, "K", &d.sizes, &args).map_err(|_| Reached::Later)?;
    Ok(Checked {
        prog,
        sizes: d.sizes,
        args,
        want,
    })
}

/// Does every launch-time condition of `info` hold at `sizes` of kernel `K` of `prog`?
fn applies(prog: &Program, info: &KernelInfo, sizes: &[i64]) -> bool {
    let Some(k) = prog.kernel("K") else {
        return false;
    };
    let env = |n: &str| {
        let i = k.sizes.iter().position(|(s, _)| s == n)?;
        sizes.get(i).copied()
    };
    info.preconditions.iter().all(|p| p.cond.holds(&env))
}

/// The target `rules`: one to four rules of [`catalogue`] applied at places of a family
/// program the bytes choose; every rewrite that type-checks must compute what the program
/// computed, and run wherever its launch-time conditions hold. Panics on a difference.
pub fn exec_rules(u: &mut Unstructured, input: &mut String) -> Reached {
    let c = match checked_family(u, input) {
        Ok(c) => c,
        Err(r) => return r,
    };
    let rules = catalogue();
    let (mut cur, mut applied) = (c.prog.clone(), Vec::new());
    for _ in 0..u.int_in_range(1..=4u8).unwrap_or(1) {
        let mut typed = cur.clone();
        let Ok(infos) = check_program(&mut typed) else {
            break;
        };
        let Some(i) = typed.kernels.iter().position(|k| k.name == "K") else {
            break;
        };
        let ctx = RewriteCtx::for_kernel(&typed, &typed.kernels[i], &infos[i]);
        let Ok(r) = u.choose(&rules) else { break };
        let s = strategy::rule(r.clone());
        let body = &typed.kernels[i].body;
        let locs = strategy::locations(&s, body, &ctx);
        let Ok(loc) = u.choose(&locs) else { continue };
        let Some(new) = strategy::at(loc.clone(), s).apply(body, &ctx) else {
            panic!("{}: listed location {loc:?} does not match", r.name);
        };
        let mut next = typed.clone();
        next.kernels[i].body = new;
        if check_program(&mut next).is_ok() {
            applied.push(r.name);
            cur = next;
        }
    }
    if applied.is_empty() {
        return Reached::Later;
    }
    let shown = lift_core::print::program(&cur);
    input.push_str(&format!("\n// after {}:\n{shown}", applied.join(", ")));
    let mut typed = cur.clone();
    let infos = check_program(&mut typed).expect("the rewritten program checked");
    match run_kernel(&typed, "K", &c.sizes, &c.args) {
        Ok(got) => assert!(
            agree(&got.flatten(), &c.want.flatten()),
            "{} change the result\n{input}",
            applied.join(", ")
        ),
        Err(e) => assert!(
            !applies(&typed, &infos[0], &c.sizes),
            "{}: the rewritten program fails where its conditions hold: {e}\n{input}",
            applied.join(", ")
        ),
    }
    Reached::Accepted
}

/// The target `explore`: every candidate the explorer derives from a family program (all
/// strategies, after normalisation and rewrite points, as the driver runs it) that is one
/// low-level program and applies at the program's sizes must compute what the program
/// computes. Panics on a difference.
pub fn exec_explore(u: &mut Unstructured, input: &mut String) -> Reached {
    let c = match checked_family(u, input) {
        Ok(c) => c,
        Err(r) => return r,
    };
    let Ok((prepared, _, info)) = lift_core::driver::prepare(&c.prog, "K") else {
        return Reached::Later;
    };
    let cands = explore::candidates_in(&prepared, "K", &info, Scope::All);
    if cands.is_empty() {
        return Reached::Later;
    }
    for cand in &cands {
        let Lowering::Program(p) = &cand.lowering else {
            continue;
        };
        if !applies(p, &cand.info, &c.sizes) {
            continue;
        }
        match run_kernel(p, "K", &c.sizes, &c.args) {
            Ok(got) => assert!(
                agree(&got.flatten(), &c.want.flatten()),
                "candidate {} computes another result\n{input}\n=>\n{}",
                cand.name(),
                lift_core::print::program(p)
            ),
            Err(e) => panic!(
                "candidate {} fails where its conditions hold: {e}\n{input}\n=>\n{}",
                cand.name(),
                lift_core::print::program(p)
            ),
        }
    }
    Reached::Accepted
}
