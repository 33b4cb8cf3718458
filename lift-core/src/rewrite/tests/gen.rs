//! A generator of random well-typed kernels over one `f32` array, and the property check
//! of a rule on them: every location where the rule matches is rewritten, and the result must
//! type-check to an equivalent type, print and reparse, and give the same output.

use crate::interp::{run_kernel, Value};
use crate::ir::Program;
use crate::parse::parse_program_str;
use crate::rewrite::strategy::{at, locations, rule};
use crate::rewrite::{RewriteCtx, Rule};
use crate::typeck::check_program;
use crate::types::Type;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Input lengths: 1, primes, powers of two and composites.
pub(super) const SIZES: [usize; 10] = [1, 2, 3, 5, 6, 7, 8, 12, 13, 16];

/// Cases per size.
const SEEDS: u64 = 3;

/// The largest intermediate array (keeps the interpreter fast).
const MAX_ELEMS: usize = 256;

/// Scalar lambdas of the generated maps.
const LAMBDAS: [&str; 5] = [
    "|x| x * 2.0 + 1.0",
    "|x| x - 0.5",
    "|x| x * x",
    "|x| max(x, 0.25)",
    "|x| if x > 0.0 { x } else { 0.0 - x }",
];

/// A kernel under construction: stages applied in order to `x`, and the current shape.
pub(super) struct Gen {
    pub rng: StdRng,
    stages: Vec<String>,
    /// Array lengths of the current value, outermost first (`f32` elements).
    pub shape: Vec<usize>,
}

impl Gen {
    /// Appends a stage giving `shape`; false (and nothing appended) if it is too large.
    pub fn push(&mut self, stage: impl Into<String>, shape: Vec<usize>) -> bool {
        if shape.iter().product::<usize>() > MAX_ELEMS || shape.is_empty() {
            return false;
        }
        self.stages.push(stage.into());
        self.shape = shape;
        true
    }

    /// A random scalar lambda.
    pub fn lambda(&mut self) -> &'static str {
        LAMBDAS[self.rng.gen_range(0..LAMBDAS.len())]
    }

    /// `m(...(m(f)))` for the map primitive `m` over every dimension.
    pub fn nest(&self, m: &str, f: &str) -> String {
        let mut s = f.to_string();
        for _ in 0..self.shape.len() {
            s = format!("{m}({s})");
        }
        s
    }

    /// `map(...(map(f)))` over every dimension, `f` a random lambda.
    pub fn map_all(&mut self) -> bool {
        let l = self.lambda();
        let s = self.nest("map", l);
        let shape = self.shape.clone();
        self.push(s, shape)
    }

    /// A random divisor of `n`.
    pub fn divisor(&mut self, n: usize) -> usize {
        let ds: Vec<usize> = (1..=n).filter(|d| n.is_multiple_of(*d)).collect();
        ds[self.rng.gen_range(0..ds.len())]
    }

    /// Makes the value 2-D (by a split of the outer dimension) if it is 1-D.
    pub fn two_d(&mut self) -> bool {
        match self.shape.len() {
            1 => {
                let n = self.shape[0];
                let m = self.divisor(n);
                self.push(format!("split({m})"), vec![n / m, m])
            }
            2 => true,
            _ => false,
        }
    }

    /// Makes the shape 3-D (splitting a 1-D or 2-D one); false if it has more dimensions.
    pub fn three_d(&mut self) -> bool {
        if self.shape.len() < 3 && !self.two_d() {
            return false;
        }
        if self.shape.len() == 2 {
            let (n, m) = (self.shape[0], self.shape[1]);
            let k = self.divisor(m);
            return self.push(format!("map(split({k}))"), vec![n, m / k, k]);
        }
        self.shape.len() == 3
    }

    /// One random well-typed stage, where one applies.
    pub fn random_stage(&mut self) {
        let d = self.shape.clone();
        for _ in 0..8 {
            let ok = match self.rng.gen_range(0..9) {
                0 => self.map_all(),
                1 if d.len() == 1 => {
                    let r = ["gather(reverse)", "scatter(reverse)"][self.rng.gen_range(0..2)];
                    self.push(r, d.clone())
                }
                2 if d.len() < 3 => {
                    let m = self.divisor(d[0]);
                    let mut s = vec![d[0] / m, m];
                    s.extend_from_slice(&d[1..]);
                    self.push(format!("split({m})"), s)
                }
                3 if d.len() >= 2 => {
                    let mut s = vec![d[0] * d[1]];
                    s.extend_from_slice(&d[2..]);
                    self.push("join", s)
                }
                4 if d.len() >= 2 => {
                    let mut s = d.clone();
                    s.swap(0, 1);
                    self.push("transpose", s)
                }
                5 if d.len() == 1 => {
                    let size = self.rng.gen_range(1..=d[0].min(3));
                    let rest = d[0] - size;
                    let step = if rest > 0 && rest.is_multiple_of(2) {
                        self.rng.gen_range(1..=2)
                    } else {
                        1
                    };
                    let n = (d[0] - size) / step + 1;
                    self.push(format!("slide({size}, {step})"), vec![n, size])
                }
                6 if d.len() == 1 => {
                    let (l, r) = (self.rng.gen_range(0..3), self.rng.gen_range(0..3));
                    let b = match self.rng.gen_range(0..4) {
                        0 => "clamp",
                        1 => "wrap",
                        2 if l <= d[0] && r <= d[0] => "mirror",
                        _ => "constant(0.5)",
                    };
                    self.push(format!("pad({l}, {r}, {b})"), vec![l + d[0] + r])
                }
                7 if d.len() == 2 => self.push("map(reduce(+, 0.0))", vec![d[0]]),
                8 if d.len() == 1 => self.push(
                    "(|a| map(|(p, q)| p * q + 1.0) $ zip(a, map(|v| v - 0.5) $ a))",
                    d.clone(),
                ),
                _ => false,
            };
            if ok {
                return;
            }
        }
    }

    /// The kernel: stages grouped at random into compositions joined by `$`.
    fn source(&mut self, n0: usize) -> String {
        let mut ty = "f32".to_string();
        for n in self.shape.iter().rev() {
            ty = format!("[{ty}; {n}]");
        }
        let mut groups: Vec<Vec<String>> = vec![Vec::new()];
        for s in &self.stages {
            if !groups.last().is_some_and(Vec::is_empty) && self.rng.gen_bool(0.3) {
                groups.push(Vec::new());
            }
            if let Some(g) = groups.last_mut() {
                g.push(s.clone());
            }
        }
        let mut body = "x".to_string();
        for g in groups.iter().filter(|g| !g.is_empty()) {
            let chain: Vec<&str> = g.iter().rev().map(String::as_str).collect();
            body = format!("{} $ {body}", chain.join(" o "));
        }
        if self.stages.is_empty() {
            body = "id $ x".into();
        }
        format!("kernel K(x: [f32; {n0}]) -> {ty} {{ {body} }}")
    }
}

/// How results are compared.
#[derive(Clone, Copy)]
pub(super) enum Tol {
    /// Bit-for-bit (layout rules, fusion).
    Exact,
    /// Within `1e-4` relative (reassociating rules).
    Relative,
}

fn close(a: &[f32], b: &[f32], tol: Tol) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match tol {
            Tol::Exact => x.to_bits() == y.to_bits() || x == y,
            Tol::Relative => (x - y).abs() <= 1e-4 * (1.0 + x.abs().max(y.abs())),
        })
}

fn checked(src: &str) -> Program {
    let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("parse: {e}\n{src}"));
    check_program(&mut p).unwrap_or_else(|e| panic!("typeck: {e}\n{src}"));
    p
}

fn run(p: &Program, input: &Value, what: &str) -> Vec<f32> {
    let v = run_kernel(p, "K", &[], std::slice::from_ref(input))
        .unwrap_or_else(|e| panic!("run ({what}): {e}\n{}", crate::print::program(p)));
    v.as_f32s().expect("an f32 result")
}

/// Property test of a rule: for every size and seed, `pattern` embeds the rule's pattern
/// between random stages and gives the rule to try; every match is rewritten and checked.
/// Gives the number of rewrites checked, which must reach `min_matches`.
pub(super) fn check_rule(pattern: &dyn Fn(&mut Gen) -> Option<Rule>, tol: Tol, min_matches: usize) {
    let mut matches = 0;
    let mut name = "";
    for (i, &n0) in SIZES.iter().enumerate() {
        for seed in 0..SEEDS {
            let mut g = Gen {
                rng: StdRng::seed_from_u64(seed * 1000 + i as u64),
                stages: Vec::new(),
                shape: vec![n0],
            };
            for _ in 0..g.rng.gen_range(0..3) {
                g.random_stage();
            }
            let Some(r) = pattern(&mut g) else { continue };
            for _ in 0..g.rng.gen_range(0..3) {
                g.random_stage();
            }
            name = r.name;
            let src = g.source(n0);
            matches += check_case(&src, &r, n0, &mut g.rng, tol);
        }
    }
    eprintln!("{name}: {matches} rewrites checked");
    assert!(
        matches >= min_matches,
        "{name}: only {matches} rewrites checked, expected at least {min_matches}"
    );
}

/// Rewrites `src` at every location where `r` matches; gives the number of locations.
fn check_case(src: &str, r: &Rule, n0: usize, rng: &mut StdRng, tol: Tol) -> usize {
    let p = checked(src);
    let infos = check_program(&mut p.clone()).expect("checked");
    let ctx = RewriteCtx::for_kernel(&p, &p.kernels[0], &infos[0]);
    let body = &p.kernels[0].body;
    let s = rule(r.clone());
    let locs = locations(&s, body, &ctx);
    let inputs: Vec<Value> = (0..2)
        .map(|_| {
            Value::from_f32s(
                &(0..n0)
                    .map(|_| rng.gen_range(-1.0..1.0))
                    .collect::<Vec<f32>>(),
            )
        })
        .collect();
    let before: Vec<Vec<f32>> = inputs.iter().map(|x| run(&p, x, "before")).collect();
    for loc in &locs {
        let new = at(loc.clone(), s.clone())
            .apply(body, &ctx)
            .unwrap_or_else(|| panic!("{}: listed location {loc:?} does not match\n{src}", r.name));
        let mut q = p.clone();
        q.kernels[0].body = new;
        let shown = crate::print::program(&q);
        check_program(&mut q)
            .unwrap_or_else(|e| panic!("{} at {loc:?}: typeck: {e}\n{src}\n=>\n{shown}", r.name));
        let (t0, t1): (&Type, &Type) = (
            p.kernels[0].body.ty.as_ref().expect("typed"),
            q.kernels[0].body.ty.as_ref().expect("typed"),
        );
        assert!(
            t0.equiv(t1, &ctx.facts),
            "{}: type changed: {t0} vs {t1}\n{shown}",
            r.name
        );
        let reparsed = checked(&shown);
        for (x, want) in inputs.iter().zip(&before) {
            for (prog, what) in [(&q, "rewritten"), (&reparsed, "reparsed")] {
                let got = run(prog, x, what);
                assert!(
                    close(want, &got, tol),
                    "{} at {loc:?} ({what}): results differ\n{src}\n=>\n{shown}\n{want:?}\n{got:?}",
                    r.name
                );
            }
        }
    }
    locs.len()
}
