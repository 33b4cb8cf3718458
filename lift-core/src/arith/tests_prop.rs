//! Soundness property test: random raw expression trees are evaluated
//! naively (C semantics) and compared with `eval` of the simplified `Nat` on
//! random in-range assignments.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;

/// An unsimplified expression tree.
#[derive(Clone, Debug)]
enum Raw {
    Cst(i64),
    Var(usize),
    Add(Box<Raw>, Box<Raw>),
    Sub(Box<Raw>, Box<Raw>),
    Mul(Box<Raw>, Box<Raw>),
    Div(Box<Raw>, Box<Raw>),
    Mod(Box<Raw>, Box<Raw>),
    Neg(Box<Raw>),
    Min(Box<Raw>, Box<Raw>),
    Max(Box<Raw>, Box<Raw>),
    Ite(Box<Raw>, CmpOp, Box<Raw>, Box<Raw>, Box<Raw>),
}

/// The variables: N, M (size), T (tuning), i in [0, N), j in [0, M),
/// k in [0, N + M), t in [2, 5), w in [0, 2 + M).
const NAMES: [&str; 7] = ["N", "M", "T", "i", "j", "k", "t"];

fn vars() -> Vec<Nat> {
    let n = Nat::size_var("N");
    let m = Nat::size_var("M");
    vec![
        n.clone(),
        m.clone(),
        Nat::tuning_var("T"),
        Nat::index_var("i", Nat::cst(0), n.clone()),
        Nat::index_var("j", Nat::cst(0), m.clone()),
        Nat::index_var("k", Nat::cst(0), &n + &m),
        Nat::index_var("t", Nat::cst(2), Nat::cst(5)),
    ]
}

fn bx(r: Raw) -> Box<Raw> {
    Box::new(r)
}

fn gen(rng: &mut StdRng, depth: u32) -> Raw {
    if depth == 0 || rng.gen_bool(0.25) {
        return if rng.gen_bool(0.35) {
            Raw::Cst(rng.gen_range(-4..=9))
        } else {
            Raw::Var(rng.gen_range(0..NAMES.len()))
        };
    }
    let d = depth - 1;
    match rng.gen_range(0..14) {
        0 | 1 => Raw::Add(bx(gen(rng, d)), bx(gen(rng, d))),
        2 => Raw::Sub(bx(gen(rng, d)), bx(gen(rng, d))),
        3 | 4 => Raw::Mul(bx(gen(rng, d)), bx(gen(rng, d))),
        5 | 6 => Raw::Div(bx(gen(rng, d)), bx(divisor(rng, d))),
        7 | 8 => Raw::Mod(bx(gen(rng, d)), bx(divisor(rng, d))),
        9 => Raw::Neg(bx(gen(rng, d))),
        10 => Raw::Min(bx(gen(rng, d)), bx(gen(rng, d))),
        11 => Raw::Max(bx(gen(rng, d)), bx(gen(rng, d))),
        12 => {
            let ops = [
                CmpOp::Lt,
                CmpOp::Le,
                CmpOp::Gt,
                CmpOp::Ge,
                CmpOp::Eq,
                CmpOp::Ne,
            ];
            let op = ops[rng.gen_range(0..ops.len())];
            Raw::Ite(
                bx(gen(rng, d)),
                op,
                bx(gen(rng, d)),
                bx(gen(rng, d)),
                bx(gen(rng, d)),
            )
        }
        _ => {
            // Structured index patterns: (a * y + b) with y a divisor.
            let y = divisor(rng, d);
            let e = Raw::Add(
                bx(Raw::Mul(bx(gen(rng, d)), bx(y.clone()))),
                bx(gen(rng, d)),
            );
            if rng.gen_bool(0.5) {
                Raw::Div(bx(e), bx(y))
            } else {
                Raw::Mod(bx(e), bx(y))
            }
        }
    }
}

/// Divisors are biased toward positive expressions.
fn divisor(rng: &mut StdRng, depth: u32) -> Raw {
    match rng.gen_range(0..6) {
        0 => Raw::Cst(rng.gen_range(1..=5)),
        1 => Raw::Var(rng.gen_range(0..3)),
        2 => Raw::Add(
            bx(Raw::Var(rng.gen_range(0..3))),
            bx(Raw::Cst(rng.gen_range(0..3))),
        ),
        3 => Raw::Mul(
            bx(Raw::Var(rng.gen_range(0..3))),
            bx(Raw::Cst(rng.gen_range(1..4))),
        ),
        4 => Raw::Cst(rng.gen_range(-3..=-1)),
        _ => gen(rng, depth),
    }
}

fn build(r: &Raw, vs: &[Nat]) -> Nat {
    match r {
        Raw::Cst(c) => Nat::cst(*c),
        Raw::Var(i) => vs[*i].clone(),
        Raw::Add(a, b) => build(a, vs) + build(b, vs),
        Raw::Sub(a, b) => build(a, vs) - build(b, vs),
        Raw::Mul(a, b) => build(a, vs) * build(b, vs),
        Raw::Div(a, b) => build(a, vs) / build(b, vs),
        Raw::Mod(a, b) => build(a, vs) % build(b, vs),
        Raw::Neg(a) => -build(a, vs),
        Raw::Min(a, b) => Nat::min(&build(a, vs), &build(b, vs)),
        Raw::Max(a, b) => Nat::max(&build(a, vs), &build(b, vs)),
        Raw::Ite(l, op, rr, a, b) => Nat::ite(
            &build(l, vs),
            *op,
            &build(rr, vs),
            &build(a, vs),
            &build(b, vs),
        ),
    }
}

/// Naive C-semantics evaluation; `None` on division by zero or overflow.
fn naive(r: &Raw, env: &[i64]) -> Option<i64> {
    Some(match r {
        Raw::Cst(c) => *c,
        Raw::Var(i) => env[*i],
        Raw::Add(a, b) => naive(a, env)?.checked_add(naive(b, env)?)?,
        Raw::Sub(a, b) => naive(a, env)?.checked_sub(naive(b, env)?)?,
        Raw::Mul(a, b) => naive(a, env)?.checked_mul(naive(b, env)?)?,
        Raw::Div(a, b) => naive(a, env)?.checked_div(naive(b, env)?)?,
        Raw::Mod(a, b) => naive(a, env)?.checked_rem(naive(b, env)?)?,
        Raw::Neg(a) => naive(a, env)?.checked_neg()?,
        Raw::Min(a, b) => naive(a, env)?.min(naive(b, env)?),
        Raw::Max(a, b) => naive(a, env)?.max(naive(b, env)?),
        Raw::Ite(l, op, rr, a, b) => {
            if op.apply(naive(l, env)?, naive(rr, env)?) {
                naive(a, env)?
            } else {
                naive(b, env)?
            }
        }
    })
}

/// A random assignment respecting the variable ranges.
fn assignment(rng: &mut StdRng) -> Vec<i64> {
    let n = rng.gen_range(1..=13);
    let m = rng.gen_range(1..=13);
    let t = rng.gen_range(1..=6);
    vec![
        n,
        m,
        t,
        rng.gen_range(0..n),
        rng.gen_range(0..m),
        rng.gen_range(0..n + m),
        rng.gen_range(2..5),
    ]
}

fn lookup(env: &[i64]) -> impl Fn(&str) -> Option<i64> + '_ {
    move |name| NAMES.iter().position(|n| *n == name).map(|i| env[i])
}

#[test]
fn simplification_preserves_semantics() {
    let mut rng = StdRng::seed_from_u64(0x11f7);
    let vs = vars();
    let mut checked = 0usize;
    for case in 0..4000 {
        let raw = gen(&mut rng, 1 + case % 5);
        let nat = build(&raw, &vs);
        let resimplified = nat.simplify_with(&Facts::new());
        for _ in 0..8 {
            let env = assignment(&mut rng);
            let Some(expected) = naive(&raw, &env) else {
                continue;
            };
            match nat.eval(&lookup(&env)) {
                Ok(v) => assert_eq!(v, expected, "raw {raw:?}\nsimplified {nat}\nenv {env:?}"),
                Err(ArithError::Overflow(_)) => continue,
                Err(e) => panic!("raw {raw:?}\nsimplified {nat}\nenv {env:?}\nerror {e}"),
            }
            let again = resimplified.eval(&lookup(&env));
            if let Ok(v) = again {
                assert_eq!(v, expected, "re-simplified {resimplified}\nenv {env:?}");
            }
            checked += 1;
        }
    }
    assert!(checked > 10_000, "only {checked} evaluations checked");
}

#[test]
fn facts_simplification_preserves_semantics() {
    // With N = 4 * K (fact N % 4 == 0) and T | M.
    let mut rng = StdRng::seed_from_u64(0xfac7);
    let vs = vars();
    let mut facts = Facts::new();
    facts.assume_divisible(&vs[0], &Nat::cst(4));
    facts.assume_divisible(&vs[1], &vs[2]);
    for case in 0..2000 {
        let raw = gen(&mut rng, 1 + case % 4);
        let nat = build(&raw, &vs).simplify_with(&facts);
        for _ in 0..6 {
            let mut env = assignment(&mut rng);
            env[0] = 4 * rng.gen_range(1..=4);
            env[1] = env[2] * rng.gen_range(1..=3);
            env[3] = rng.gen_range(0..env[0]);
            env[4] = rng.gen_range(0..env[1]);
            env[5] = rng.gen_range(0..env[0] + env[1]);
            let Some(expected) = naive(&raw, &env) else {
                continue;
            };
            let got = nat.eval(&lookup(&env));
            if let Ok(v) = got {
                assert_eq!(v, expected, "raw {raw:?}\nsimplified {nat}\nenv {env:?}");
            }
        }
    }
}

#[test]
fn display_is_idempotent_under_resimplification() {
    let mut rng = StdRng::seed_from_u64(7);
    let vs = vars();
    for case in 0..1000 {
        let raw = gen(&mut rng, 1 + case % 4);
        let nat = build(&raw, &vs);
        let again = nat.simplify_with(&Facts::new());
        let again2 = again.simplify_with(&Facts::new());
        assert_eq!(
            again, again2,
            "not a fixpoint: {nat} -> {again} -> {again2}"
        );
    }
}
