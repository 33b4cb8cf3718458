//! A generator of random well-typed `lift!` programs: a chain of stages over one or two input
//! arrays (1-D or 2-D, `f32` or `i32`, sizes constant or symbolic), with user functions,
//! optionally finished by a low-level (mixed) stage.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Input lengths: 1, primes, powers of two and composites.
const SIZES: [usize; 14] = [1, 2, 3, 5, 6, 7, 8, 12, 13, 16, 17, 24, 31, 32];

/// The largest intermediate array (keeps the interpreter and the device fast).
const MAX_ELEMS: usize = 512;

/// One array dimension: its value and how the program writes it.
#[derive(Clone, Debug)]
struct Dim {
    n: usize,
    sym: String,
}

impl Dim {
    fn new(n: usize, sym: impl Into<String>) -> Dim {
        Dim { n, sym: sym.into() }
    }
}

/// The element type of a program.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Elem {
    /// `f32`.
    F32,
    /// `i32`.
    I32,
}

impl Elem {
    fn name(self) -> &'static str {
        match self {
            Elem::F32 => "f32",
            Elem::I32 => "i32",
        }
    }

    /// A literal of this type.
    fn lit(self, v: i32) -> String {
        match self {
            Elem::F32 => format!("{v}.0"),
            Elem::I32 => v.to_string(),
        }
    }
}

/// A generated program and how to run it.
#[derive(Clone, Debug)]
pub struct Program {
    /// The `lift!` program text (kernel `K`).
    pub text: String,
    /// The values of the size variables, in declaration order.
    pub sizes: Vec<usize>,
    /// Shapes of the array inputs (outermost first); one input per entry.
    pub inputs: Vec<Vec<usize>>,
    /// Whether a scalar parameter `alpha` follows the arrays.
    pub alpha: bool,
    /// The element type.
    pub elem: Elem,
    /// Whether floating-point arithmetic happened (results compared with a tolerance).
    pub inexact: bool,
}

/// Scalar lambdas per element type (bounded, so integers cannot overflow).
const F32_LAMBDAS: [&str; 7] = [
    "|v| v * 2.0 + 1.0",
    "|v| v - 0.5",
    "|v| v * v",
    "|v| max(v, 0.25)",
    "|v| if v > 0.0 { v } else { 0.0 - v }",
    "|v| clampf(v * 3.0)",
    "|v| v * alpha",
];
const I32_LAMBDAS: [&str; 7] = [
    "|v| v * 2 + 1",
    "|v| v - 3",
    "|v| v % 7",
    "|v| max(v, 0)",
    "|v| absi(v) / 3",
    "|v| mixi(v, 5)",
    "|v| v + alpha",
];

/// User functions; every program carries those of its element type.
const F32_FUNS: &str =
    "fn clampf(a: f32) -> f32 { if a > 1.0 { 1.0 } else { if a < -1.0 { -1.0 } else { a } } }\n\
                        fn addf(a: f32, b: f32) -> f32 { let t = a; t + b }\n";
const I32_FUNS: &str = "fn absi(a: i32) -> i32 { if a < 0 { 0 - a } else { a } }\n\
                        fn mixi(a: i32, b: i32) -> i32 { (a * 3 - b) % 1000 }\n\
                        fn addi(a: i32, b: i32) -> i32 { a + b }\n";

struct Gen {
    rng: StdRng,
    elem: Elem,
    stages: Vec<String>,
    shape: Vec<Dim>,
    /// The shape of the inputs, while the current value still has it (zip with `y`).
    input: Option<Vec<Dim>>,
    two_inputs: bool,
    alpha: bool,
    inexact: bool,
    /// The value became a scalar (a full reduction): no stage may follow.
    scalar: bool,
}

impl Gen {
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.rng.gen_range(0..xs.len())]
    }

    fn push(&mut self, stage: impl Into<String>, shape: Vec<Dim>) -> bool {
        let elems: usize = shape.iter().map(|d| d.n).product();
        if elems > MAX_ELEMS || elems == 0 || shape.len() > 3 {
            return false;
        }
        if self.input.as_ref().map(|s| s.len()) != Some(shape.len())
            || self
                .input
                .as_ref()
                .is_some_and(|s| s.iter().zip(&shape).any(|(a, b)| a.sym != b.sym))
        {
            self.input = None;
        }
        self.stages.push(stage.into());
        self.shape = shape;
        true
    }

    /// A random scalar lambda of the element type.
    fn lambda(&mut self) -> String {
        let l = match self.elem {
            Elem::F32 => *self.pick(&F32_LAMBDAS),
            Elem::I32 => *self.pick(&I32_LAMBDAS),
        };
        self.alpha |= l.contains("alpha");
        self.inexact |= self.elem == Elem::F32;
        l.to_string()
    }

    /// A reduction operator and its neutral element.
    fn reducer(&mut self) -> String {
        self.inexact |= self.elem == Elem::F32;
        let e = self.elem;
        let user = match e {
            Elem::F32 => "addf",
            Elem::I32 => "addi",
        };
        match self.rng.gen_range(0..5) {
            0 | 1 => format!("reduce(+, {})", e.lit(0)),
            2 => format!("reduce(max, {})", e.lit(-1000)),
            3 => format!("reduce(min, {})", e.lit(1000)),
            _ => format!("reduce({user}, {})", e.lit(0)),
        }
    }

    fn nest(&self, f: &str, depth: usize) -> String {
        (0..depth).fold(f.to_string(), |s, _| format!("map({s})"))
    }

    fn divisor(&mut self, n: usize) -> usize {
        let ds: Vec<usize> = (1..=n).filter(|d| n.is_multiple_of(*d)).collect();
        *self.pick(&ds)
    }

    /// One random well-typed stage, where one applies.
    fn stage(&mut self) {
        let d = self.shape.clone();
        let e = self.elem;
        for _ in 0..10 {
            let ok = match self.rng.gen_range(0..23) {
                0 | 1 => {
                    let l = self.lambda();
                    let s = if d.len() == 2 && self.rng.gen_bool(0.5) {
                        format!("map2({l})")
                    } else {
                        self.nest(&l, d.len())
                    };
                    self.push(s, d.clone())
                }
                2 if d.len() == 1 => {
                    let r = *self.pick(&["gather(reverse)", "scatter(reverse)"]);
                    self.push(r, d.clone())
                }
                3 if d.len() == 1 => {
                    let s = self.divisor(d[0].n);
                    let g = *self.pick(&["gather", "scatter"]);
                    self.push(format!("{g}(stride({s}))"), d.clone())
                }
                4 if d.len() < 3 => {
                    let m = self.divisor(d[0].n);
                    let mut s = vec![
                        Dim::new(d[0].n / m, format!("({}) / {m}", d[0].sym)),
                        Dim::new(m, m.to_string()),
                    ];
                    s.extend_from_slice(&d[1..]);
                    self.push(format!("split({m})"), s)
                }
                22 if d.len() < 3 && d[0].n >= 2 => {
                    // Blocks of any size up to the length, the last one shifted back.
                    let t = self.rng.gen_range(1..=d[0].n);
                    let mut s = vec![
                        Dim::new(
                            d[0].n.div_ceil(t),
                            format!("(({}) + {}) / {t}", d[0].sym, t - 1),
                        ),
                        Dim::new(t, t.to_string()),
                    ];
                    s.extend_from_slice(&d[1..]);
                    self.push(format!("split_cover({t})"), s)
                }
                5 if d.len() >= 2 => {
                    let mut s = vec![Dim::new(
                        d[0].n * d[1].n,
                        format!("({}) * ({})", d[0].sym, d[1].sym),
                    )];
                    s.extend_from_slice(&d[2..]);
                    self.push("join", s)
                }
                6 if d.len() >= 2 => {
                    let mut s = d.clone();
                    s.swap(0, 1);
                    self.push("transpose", s)
                }
                7 if d.len() == 1 => {
                    let size = self.rng.gen_range(1..=d[0].n.min(4));
                    let rest = d[0].n - size;
                    let steps: Vec<usize> = (1..=3).filter(|s| rest.is_multiple_of(*s)).collect();
                    let step = *self.pick(&steps);
                    let n = rest / step + 1;
                    let sym = format!("(({}) - {size}) / {step} + 1", d[0].sym);
                    self.push(
                        format!("slide({size}, {step})"),
                        vec![Dim::new(n, sym), Dim::new(size, size.to_string())],
                    )
                }
                8 if d.len() == 1 => {
                    let (l, r) = (self.rng.gen_range(0..3), self.rng.gen_range(0..3));
                    let b = self.boundary(l.max(r) <= d[0].n);
                    let sym = format!("{l} + ({}) + {r}", d[0].sym);
                    self.push(
                        format!("pad({l}, {r}, {b})"),
                        vec![Dim::new(l + d[0].n + r, sym)],
                    )
                }
                9 if d.len() == 2 => {
                    let r = self.reducer();
                    let s = if self.rng.gen_bool(0.5) {
                        let l = self.lambda();
                        format!("map({r} o map({l}))")
                    } else {
                        format!("map({r})")
                    };
                    self.push(s, vec![d[0].clone()])
                }
                10 if d.len() == 3 => {
                    let r = self.reducer();
                    self.push(format!("map(map({r}))"), d[..2].to_vec())
                }
                11 if self.input.as_ref().is_some_and(|s| s.len() == d.len()) && d.len() <= 2 => {
                    self.two_inputs = true;
                    self.inexact |= e == Elem::F32;
                    let f = match e {
                        Elem::F32 => "|(p, q)| p * q + 1.0",
                        Elem::I32 => "|(p, q)| p - 2 * q",
                    };
                    let s = if d.len() == 1 {
                        format!("(|a| map({f}) $ zip(a, y))")
                    } else {
                        format!("(|a| map(|(r, s)| map({f}) $ zip(r, s)) $ zip(a, y))")
                    };
                    self.push(s, d.clone())
                }
                12 if d.len() == 1 => {
                    let l = self.lambda();
                    let f = match e {
                        Elem::F32 => "|(p, q)| p * q + 1.0",
                        Elem::I32 => "|(p, q)| p - q",
                    };
                    self.push(format!("(|a| map({f}) $ zip(a, map({l}) $ a))"), d.clone())
                }
                13 if d.len() == 2 => {
                    let (p, b) = (self.rng.gen_range(0..3), self.rng.gen_range(0..4));
                    let bd = self.boundary(p <= d[0].n.min(d[1].n));
                    let grow = |x: &Dim, a: usize, c: usize| {
                        Dim::new(x.n + a + c, format!("{a} + ({}) + {c}", x.sym))
                    };
                    if b == 0 {
                        self.push(
                            format!("pad2({p}, {bd})"),
                            vec![grow(&d[0], p, p), grow(&d[1], p, p)],
                        )
                    } else {
                        let (t, bo, l, r) = (
                            self.rng.gen_range(0..3),
                            self.rng.gen_range(0..3),
                            self.rng.gen_range(0..3),
                            self.rng.gen_range(0..3),
                        );
                        let bd = self.boundary(t.max(bo) <= d[0].n && l.max(r) <= d[1].n);
                        self.push(
                            format!("pad2({t}, {bo}, {l}, {r}, {bd})"),
                            vec![grow(&d[0], t, bo), grow(&d[1], l, r)],
                        )
                    }
                }
                14 if d.len() == 2 => {
                    let win = |g: &mut Gen, x: &Dim| {
                        let size = g.rng.gen_range(1..=x.n.min(3));
                        let rest = x.n - size;
                        let steps: Vec<usize> =
                            (1..=2).filter(|s| rest.is_multiple_of(*s)).collect();
                        let step = *g.pick(&steps);
                        (
                            size,
                            step,
                            Dim::new(
                                rest / step + 1,
                                format!("(({}) - {size}) / {step} + 1", x.sym),
                            ),
                        )
                    };
                    let (sy, ty, ny) = win(self, &d[0]);
                    let (sx, tx, nx) = win(self, &d[1]);
                    let r = self.reducer();
                    let s = if sy == sx && ty == tx && self.rng.gen_bool(0.5) {
                        format!("map2({r} o join) o slide2({sy}, {ty})")
                    } else {
                        format!("map2({r} o join) o slide2({sy}, {ty}, {sx}, {tx})")
                    };
                    self.push(s, vec![ny, nx])
                }
                15 => {
                    let k = self.rng.gen_range(1..=3);
                    let l = self.lambda();
                    let f = self.nest(&l, d.len());
                    if d.len() == 1 && d[0].n.is_multiple_of(1 << k) && self.rng.gen_bool(0.5) {
                        let (n, sym) = (d[0].n >> k, format!("({}) / {}", d[0].sym, 1 << k));
                        let r = format!("map(reduce(+, {})) o split(2)", e.lit(0));
                        self.push(format!("iterate({k}, {r})"), vec![Dim::new(n, sym)])
                    } else {
                        self.push(format!("iterate({k}, {f})"), d.clone())
                    }
                }
                16 if d.len() == 2 => {
                    let (l, r) = (self.rng.gen_range(0..3), self.rng.gen_range(0..3));
                    let b = self.boundary(l.max(r) <= d[1].n);
                    let m = Dim::new(l + d[1].n + r, format!("{l} + ({}) + {r}", d[1].sym));
                    self.push(format!("map(pad({l}, {r}, {b}))"), vec![d[0].clone(), m])
                }
                17 if d.len() == 2 => {
                    let size = self.rng.gen_range(1..=d[1].n.min(3));
                    let rest = d[1].n - size;
                    let step = if rest.is_multiple_of(2) && self.rng.gen_bool(0.5) {
                        2
                    } else {
                        1
                    };
                    let r = self.reducer();
                    let m = Dim::new(
                        rest / step + 1,
                        format!("(({}) - {size}) / {step} + 1", d[1].sym),
                    );
                    self.push(
                        format!("map(map({r}) o slide({size}, {step}))"),
                        vec![d[0].clone(), m],
                    )
                }
                18 if d.len() == 3 => self.push(
                    "map(transpose)",
                    vec![d[0].clone(), d[2].clone(), d[1].clone()],
                ),
                19 if d.len() == 2 => {
                    let k = self.divisor(d[1].n);
                    let s = vec![
                        d[0].clone(),
                        Dim::new(d[1].n / k, format!("({}) / {k}", d[1].sym)),
                        Dim::new(k, k.to_string()),
                    ];
                    self.push(format!("map(split({k}))"), s)
                }
                20 if d.len() == 3 => {
                    let s = vec![
                        d[0].clone(),
                        Dim::new(d[1].n * d[2].n, format!("({}) * ({})", d[1].sym, d[2].sym)),
                    ];
                    self.push("map(join)", s)
                }
                21 if d.len() == 2 => {
                    let last = d[1].n - 1;
                    self.push(format!("map(|r| r[0] - r[{last}])"), vec![d[0].clone()])
                }
                _ => false,
            };
            if ok {
                return;
            }
        }
    }

    fn boundary(&mut self, mirror_ok: bool) -> String {
        match self.rng.gen_range(0..4) {
            0 => "clamp".into(),
            1 => "wrap".into(),
            2 if mirror_ok => "mirror".into(),
            _ => format!("constant({})", self.elem.lit(self.rng.gen_range(-3..4))),
        }
    }

    /// An optional last stage: a full reduction, or a low-level (mixed) map.
    fn finish(&mut self) {
        let d = self.shape.clone();
        let e = self.elem;
        match (self.rng.gen_range(0..8), d.len()) {
            (0, 1) => {
                let r = self.reducer();
                let s = if self.rng.gen_bool(0.5) {
                    let l = self.lambda();
                    format!("{r} o map({l})")
                } else {
                    r
                };
                if self.push(s, vec![Dim::new(1, "1")]) {
                    self.scalar = true;
                }
            }
            (1, 1) => {
                let l = self.lambda();
                self.push(format!("map_glb({l})"), d);
            }
            (1, 2) => {
                let l = self.lambda();
                self.push(format!("map_glb(1, map_glb(0, {l}))"), d);
            }
            (2, 2) => {
                let l = self.lambda();
                self.push(format!("map_glb(map_seq({l}))"), d);
            }
            (4, 1) if d[0].n.is_multiple_of(4) => {
                let l = self.lambda();
                let s = if self.rng.gen_bool(0.5) {
                    format!("join o map_wrg(map_lcl({l})) o split(4)")
                } else {
                    format!("join o map_wrg(map_lcl(id) o to_local(map_lcl({l}))) o split(4)")
                };
                self.push(s, d);
            }
            (5, 2) => {
                let r = self.reducer();
                if self.push(format!("{r} o join"), vec![Dim::new(1, "1")]) {
                    self.scalar = true;
                }
            }
            (3, 2) => {
                self.inexact |= e == Elem::F32;
                let s = format!("map_glb(reduce_seq(|acc, v| acc + v, {}))", e.lit(0));
                self.push(s, vec![d[0].clone()]);
            }
            _ => {}
        }
    }

    /// The program text: stages grouped at random into compositions joined by `$`.
    fn text(&mut self, sizes: &[&str], inputs: &[String]) -> String {
        let mut ty = self.elem.name().to_string();
        if !self.scalar {
            for d in self.shape.iter().rev() {
                ty = format!("[{ty}; {}]", d.sym);
            }
        }
        let mut body = "x".to_string();
        let mut group: Vec<String> = Vec::new();
        let stages = std::mem::take(&mut self.stages);
        for (i, s) in stages.iter().enumerate() {
            group.push(s.clone());
            if i + 1 == stages.len() || self.rng.gen_bool(0.3) {
                group.reverse();
                body = format!("{} $ {body}", group.join(" o "));
                group.clear();
            }
        }
        if stages.is_empty() {
            body = "id $ x".into();
        }
        let mut params: Vec<String> = inputs
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{}: {t}", ["x", "y"][i]))
            .collect();
        if self.alpha {
            params.push(format!("alpha: {}", self.elem.name()));
        }
        let funs = match self.elem {
            Elem::F32 => F32_FUNS,
            Elem::I32 => I32_FUNS,
        };
        let sizes = if sizes.is_empty() {
            String::new()
        } else {
            format!("<{}>", sizes.join(", "))
        };
        format!(
            "{funs}kernel K{sizes}({}) -> {ty} {{ {body} }}",
            params.join(", ")
        )
    }
}

/// The program of `seed`.
pub fn program(seed: u64) -> Program {
    let mut rng = StdRng::seed_from_u64(seed);
    let elem = if rng.gen_bool(0.6) {
        Elem::F32
    } else {
        Elem::I32
    };
    let two_d = rng.gen_bool(0.35);
    let symbolic = rng.gen_bool(0.5);
    let n0 = SIZES[rng.gen_range(0..SIZES.len())];
    let m0 = SIZES[rng.gen_range(0..9)];
    let (mut shape, mut size_names, mut size_vals) = (Vec::new(), Vec::new(), Vec::new());
    let dims: &[(usize, &str)] = if two_d {
        &[(n0, "N"), (m0, "M")]
    } else {
        &[(n0, "N")]
    };
    for &(n, name) in dims {
        if symbolic {
            shape.push(Dim::new(n, name));
            size_names.push(name);
            size_vals.push(n);
        } else {
            shape.push(Dim::new(n, n.to_string()));
        }
    }
    let in_shape: Vec<usize> = shape.iter().map(|d| d.n).collect();
    let g_shape = shape.clone();
    let mut in_ty = elem.name().to_string();
    for d in shape.iter().rev() {
        in_ty = format!("[{in_ty}; {}]", d.sym);
    }
    let mut g = Gen {
        rng,
        elem,
        stages: Vec::new(),
        shape,
        input: Some(g_shape.clone()),
        two_inputs: false,
        alpha: false,
        inexact: false,
        scalar: false,
    };
    for _ in 0..g.rng.gen_range(1..8) {
        g.stage();
    }
    g.finish();
    let inputs = if g.two_inputs {
        vec![in_ty.clone(), in_ty]
    } else {
        vec![in_ty]
    };
    let text = g.text(&size_names, &inputs);
    Program {
        text,
        sizes: size_vals,
        inputs: vec![in_shape; inputs.len()],
        alpha: g.alpha,
        elem,
        inexact: g.inexact,
    }
}
