//! The program families of the differential run: the chains of `random_programs`' generator
//! (`diff::base`) and families for the rest of SPEC section 2 (1-D, 2-D and 3-D stencils with
//! every boundary and both spellings, tuples, vectors, `f16` and the other scalar types,
//! `iterate`, low-level mappings, LIFT's extra primitives, rewrite points).
//!
//! A family writes a kernel body over size variables it names and values it picks; the
//! declared result type is the one the checker infers (`diff::finish`), so a family only
//! has to keep its programs well typed, not to spell their types. The fuzzer (`fuzz/src/families.rs`)
//! includes this file too and draws the families' choices from its input bytes.

use rand::{Rng, RngCore};

/// A kernel before its result type is known.
pub struct Draft {
    /// User functions (source text).
    pub funs: String,
    /// Size variables and their values.
    pub sizes: Vec<(&'static str, usize)>,
    /// Parameters as `name: type`.
    pub params: Vec<String>,
    /// The body expression.
    pub body: String,
}

/// User functions every draft may call.
pub const FUNS: &str = "fn addf(a: f32, b: f32) -> f32 { a + b }\n\
fn scalef(a: f32) -> f32 { let t = a * 0.5; t - 0.25 }\n\
fn clampf(a: f32) -> f32 { if a > 1.0 { 1.0 } else { if a < -1.0 { -1.0 } else { a } } }\n\
fn pairf(a: f32, b: f32) -> (f32, f32) { (a + b, a * b) }\n\
fn addi(a: i32, b: i32) -> i32 { a + b }\n";

/// Picks one element.
fn pick<T: Clone>(rng: &mut dyn RngCore, xs: &[T]) -> T {
    xs[rng.gen_range(0..xs.len())].clone()
}

/// A pad boundary of element type `lit` (a float or integer literal maker).
fn boundary(rng: &mut dyn RngCore, float: bool) -> String {
    match rng.gen_range(0..5) {
        0 => "clamp".into(),
        1 => "wrap".into(),
        2 => "mirror".into(),
        3 => "mirror_unsafe".into(),
        _ => {
            let v = rng.gen_range(-3..4);
            if float {
                format!("constant({v}.0)")
            } else {
                format!("constant({v})")
            }
        }
    }
}

/// An f32 scalar lambda.
fn f32_lambda(rng: &mut dyn RngCore) -> &'static str {
    pick(
        rng,
        &[
            "|v| v * 2.0 + 1.0",
            "|v| v - 0.5",
            "|v| v * v",
            "|v| max(v, 0.25)",
            "|v| if v > 0.0 { v } else { 0.0 - v }",
            "|v| clampf(v * 3.0)",
            "scalef",
            "|v| fma(v, 0.5, 1.0)",
            "|v| sqrt(abs(v)) + min(v, 0.0)",
            "|v| (v as i32) as f32 + v",
        ],
    )
}

/// A size: a variable of value `n` (pushed onto `sizes`) or the constant.
fn size(
    rng: &mut dyn RngCore,
    sizes: &mut Vec<(&'static str, usize)>,
    name: &'static str,
    n: usize,
) -> String {
    if rng.gen_bool(0.6) {
        sizes.push((name, n));
        name.to_string()
    } else {
        n.to_string()
    }
}

/// A window `(size, step)` over `n` elements that tiles it exactly.
fn window(rng: &mut dyn RngCore, n: usize, max: usize) -> (usize, usize) {
    let s = rng.gen_range(1..=n.min(max));
    let steps: Vec<usize> = (1..=3).filter(|t| (n - s).is_multiple_of(*t)).collect();
    (s, pick(rng, &steps))
}

/// 1-D stencils: `pad` with every boundary (wide mirror pads included), `slide`, a window
/// function; sometimes `map_seq_slide`, sometimes a second input read through a zip.
pub fn stencil1d(rng: &mut dyn RngCore) -> Draft {
    let mut sizes = Vec::new();
    let n = pick(rng, &[1, 2, 3, 5, 7, 8, 13, 16, 31, 64]);
    let ns = size(rng, &mut sizes, "N", n);
    let (l, r) = (rng.gen_range(0..4), rng.gen_range(0..4));
    let b = boundary(rng, true);
    let (s, t) = window(rng, n + l + r, 5);
    let f = match rng.gen_range(0..5) {
        0 => "reduce(+, 0.0)".to_string(),
        1 => "reduce(max, -10.0)".to_string(),
        2 => format!("|w| w[0] - w[{}] * 0.5", s - 1),
        3 => format!("reduce(addf, 0.0) o map({})", f32_lambda(rng)),
        _ => "reduce(min, 10.0) o map(|v| v * 3.0)".to_string(),
    };
    let body = match rng.gen_range(0..4) {
        0 if !f.starts_with('|') => {
            format!("map_seq_slide({f}, {s}, {t}) o pad({l}, {r}, {b}) $ x")
        }
        1 => format!("map(|v| v * 0.5) o map({f}) o slide({s}, {t}) o pad({l}, {r}, {b}) $ x"),
        _ => format!("map({f}) o slide({s}, {t}) o pad({l}, {r}, {b}) $ x"),
    };
    Draft {
        funs: FUNS.into(),
        sizes,
        params: vec![format!("x: [f32; {ns}]")],
        body,
    }
}

/// 2-D stencils: `pad2`/`slide2` in their short and long forms, or the nested 1-D spelling;
/// every boundary; sometimes iterated (a Jacobi sweep).
pub fn stencil2d(rng: &mut dyn RngCore) -> Draft {
    let mut sizes = Vec::new();
    let n = pick(rng, &[1, 2, 3, 4, 5, 7, 8, 12, 16]);
    let m = pick(rng, &[1, 2, 3, 5, 6, 8, 13, 17]);
    let ns = size(rng, &mut sizes, "N", n);
    let ms = size(rng, &mut sizes, "M", m);
    let b = boundary(rng, true);
    let r = match rng.gen_range(0..4) {
        0 => "reduce(+, 0.0) o join".to_string(),
        1 => "reduce(max, -10.0) o join o map(map(|v| v * v))".to_string(),
        2 => "|nbh| nbh[0][0] * 2.0 + (reduce(+, 0.0) o join $ nbh)".to_string(),
        _ => "reduce(addf, 0.0) o map(reduce(+, 0.0))".to_string(),
    };
    if rng.gen_bool(0.2) {
        // A shape-preserving sweep, iterated.
        let k = rng.gen_range(1..=3);
        let body = format!("iterate({k}, map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, {b})) $ x");
        return Draft {
            funs: FUNS.into(),
            sizes,
            params: vec![format!("x: [[f32; {ms}]; {ns}]")],
            body,
        };
    }
    let (t, bo, l, rr) = (
        rng.gen_range(0..3),
        rng.gen_range(0..3),
        rng.gen_range(0..3),
        rng.gen_range(0..3),
    );
    let (sy, ty) = window(rng, n + t + bo, 4);
    let (sx, tx) = window(rng, m + l + rr, 4);
    let body = match rng.gen_range(0..4) {
        0 if t == bo && l == rr && t == l && sy == sx && ty == tx => {
            format!("map2({r}) o slide2({sy}, {ty}) o pad2({t}, {b}) $ x")
        }
        1 => format!(
            "map(map({r})) o map(transpose) o slide({sy}, {ty}) o map(slide({sx}, {tx})) o pad({t}, {bo}, {b}) o map(pad({l}, {rr}, {b})) $ x"
        ),
        _ => format!("map2({r}) o slide2({sy}, {ty}, {sx}, {tx}) o pad2({t}, {bo}, {l}, {rr}, {b}) $ x"),
    };
    Draft {
        funs: FUNS.into(),
        sizes,
        params: vec![format!("x: [[f32; {ms}]; {ns}]")],
        body,
    }
}

/// 3-D stencils: `pad3`/`slide3` in short and long forms, every boundary.
pub fn stencil3d(rng: &mut dyn RngCore) -> Draft {
    let mut sizes = Vec::new();
    let n = pick(rng, &[1, 2, 3, 4, 5]);
    let m = pick(rng, &[1, 2, 3, 4, 6]);
    let k = pick(rng, &[1, 2, 3, 5, 7]);
    let ns = size(rng, &mut sizes, "N", n);
    let ms = size(rng, &mut sizes, "M", m);
    let ks = size(rng, &mut sizes, "K", k);
    let b = boundary(rng, true);
    let r = match rng.gen_range(0..3) {
        0 => "reduce(+, 0.0) o join o join".to_string(),
        1 => "|nbh| nbh[0][0][0] - 0.5 * (reduce(max, -10.0) o join o join $ nbh)".to_string(),
        _ => "reduce(+, 0.0) o map(reduce(+, 0.0) o map(reduce(max, -10.0)))".to_string(),
    };
    let body = if rng.gen_bool(0.3) {
        let p = rng.gen_range(0..3);
        let (s, t) = window(rng, n.min(m).min(k) + 2 * p, 3);
        if (m + 2 * p - s).is_multiple_of(t)
            && (k + 2 * p - s).is_multiple_of(t)
            && s <= m.min(k) + 2 * p
        {
            format!("map3({r}) o slide3({s}, {t}) o pad3({p}, {b}) $ x")
        } else {
            format!("map3({r}) o slide3(1, 1) o pad3({p}, {b}) $ x")
        }
    } else {
        let pads: Vec<usize> = (0..6).map(|_| rng.gen_range(0..3)).collect();
        let (sz, tz) = window(rng, n + pads[0] + pads[1], 3);
        let (sy, ty) = window(rng, m + pads[2] + pads[3], 3);
        let (sx, tx) = window(rng, k + pads[4] + pads[5], 3);
        format!(
            "map3({r}) o slide3({sz}, {tz}, {sy}, {ty}, {sx}, {tx}) o pad3({}, {}, {}, {}, {}, {}, {b}) $ x",
            pads[0], pads[1], pads[2], pads[3], pads[4], pads[5]
        )
    };
    Draft {
        funs: FUNS.into(),
        sizes,
        params: vec![format!("x: [[[f32; {ks}]; {ms}]; {ns}]")],
        body,
    }
}

/// Tuples: zips of two and three inputs, tuple patterns and projections, tuple results,
/// full `reduce_seq` over tuples, arrays of tuples as inputs, `unzip`, GEMV-like row products.
pub fn tuples(rng: &mut dyn RngCore) -> Draft {
    let mut sizes = Vec::new();
    let n = pick(rng, &[1, 2, 3, 5, 8, 13, 32]);
    let ns = size(rng, &mut sizes, "N", n);
    let one = |name: &str| format!("{name}: [f32; {ns}]");
    let (params, body) = match rng.gen_range(0..10) {
        0 => (
            vec![one("x"), one("y")],
            "map(|(a, b)| a * b + 1.0) $ zip(x, y)".to_string(),
        ),
        1 => (
            vec![one("x"), one("y")],
            "map(|p| (p.0 + p.1, p.0 - p.1)) $ zip(x, y)".to_string(),
        ),
        2 => (
            vec![one("x"), one("y")],
            "reduce_seq(|acc, p| (acc.0 + p.0, max(acc.1, p.1)), (0.0, -10.0)) $ zip(x, y)"
                .to_string(),
        ),
        3 => (
            vec![one("x"), one("y"), one("z")],
            "map(|t| t.0 * t.1 + t.2) $ zip(x, y, map(|v| v - 1.0) $ z)".to_string(),
        ),
        4 => (
            vec![one("x"), one("y")],
            "map(|p| p.0) o map(|p| (p.1, p.0)) $ zip(x, y)".to_string(),
        ),
        5 => (
            vec![format!("x: [(f32, f32); {ns}]")],
            "map(|p| p.0 * p.1) $ x".to_string(),
        ),
        6 => (
            vec![one("x"), one("y")],
            "map(pairf) $ zip(x, y)".to_string(),
        ),
        7 => {
            let m = pick(rng, &[1, 2, 3, 4, 7, 16]);
            let ms = size(rng, &mut sizes, "M", m);
            (
                vec![format!("a: [[f32; {ms}]; {ns}]"), format!("v: [f32; {ms}]")],
                "map(|row| reduce(+, 0.0) o map(|(p, q)| p * q) $ zip(row, v)) $ a".to_string(),
            )
        }
        8 => (
            vec![one("x"), one("y")],
            "map(|v| v * 2.0) o get(0) o unzip $ zip(x, y)".to_string(),
        ),
        _ => {
            let m = pick(rng, &[1, 2, 3, 5]);
            let ms = size(rng, &mut sizes, "M", m);
            let t = format!("[[f32; {ms}]; {ns}]");
            (
                vec![format!("x: {t}"), format!("y: {t}")],
                "map(|(r, s)| map(|(a, b)| a - 2.0 * b) $ zip(r, s)) $ zip(x, y)".to_string(),
            )
        }
    };
    Draft {
        funs: FUNS.into(),
        sizes,
        params,
        body,
    }
}

/// Vectors: `as_vector`/`as_scalar`, `vectorize` of functions of one and two arguments,
/// arrays of vectors as inputs and results, reductions of vectors.
pub fn vectors(rng: &mut dyn RngCore) -> Draft {
    let mut sizes = Vec::new();
    let w = pick(rng, &[2, 4, 8, 16]);
    let k = pick(rng, &[1, 2, 3, 5, 8]);
    let (elem, lam, user) = if rng.gen_bool(0.7) {
        ("f32", f32_lambda(rng).to_string(), "addf")
    } else {
        ("i32", "|v| v * 3 - 1".to_string(), "addi")
    };
    let z = if elem == "f32" { "0.0" } else { "0" };
    let (params, body) = match rng.gen_range(0..6) {
        0 => {
            let ns = size(rng, &mut sizes, "N", k * w);
            (
                vec![format!("x: [{elem}; {ns}]")],
                format!("as_scalar o map(vectorize({w}, {lam})) o as_vector({w}) $ x"),
            )
        }
        1 => {
            let ns = size(rng, &mut sizes, "N", k * w);
            (
                vec![format!("x: [{elem}; {ns}]"), format!("y: [{elem}; {ns}]")],
                format!("as_scalar o map(vectorize({w}, {user})) $ zip(as_vector({w}) $ x, as_vector({w}) $ y)"),
            )
        }
        2 => {
            let ns = size(rng, &mut sizes, "N", k);
            (
                vec![format!("x: [{elem}x{w}; {ns}]")],
                format!("reduce(+, {z}) $ x"),
            )
        }
        3 => {
            let ns = size(rng, &mut sizes, "N", k);
            let f = if elem == "f32" {
                "|v| v * 2.0 + 1.0"
            } else {
                "|v| v * 2 + 1"
            };
            (
                vec![format!("x: [{elem}x{w}; {ns}]")],
                format!("map({f}) $ x"),
            )
        }
        4 => {
            let ns = size(rng, &mut sizes, "N", k);
            (
                vec![format!("x: [{elem}x{w}; {ns}]")],
                format!("reduce_seq(|a, v| a + v, {z}) $ x"),
            )
        }
        _ => {
            let ns = size(rng, &mut sizes, "N", k * w);
            (
                vec![format!("x: [{elem}; {ns}]")],
                format!("as_scalar o map(vectorize({w}, {lam})) o as_vector({w}) o map({lam}) $ x"),
            )
        }
    };
    Draft {
        funs: FUNS.into(),
        sizes,
        params,
        body,
    }
}

/// Scalar types other than `f32`: `f16` (storage, f32 arithmetic), `f64`, `u32`, `i64`,
/// `u64`, `bool`, with maps, reductions, stencils, casts.
pub fn types(rng: &mut dyn RngCore) -> Draft {
    let mut sizes = Vec::new();
    let n = pick(rng, &[1, 2, 3, 5, 8, 13, 32, 100]);
    let ns = size(rng, &mut sizes, "N", n);
    let ty = pick(
        rng,
        &["f16", "f64", "u32", "i64", "u64", "bool", "f16", "i32"],
    );
    let (lams, z, red): (&[&str], &str, &str) = match ty {
        "f16" => (
            &[
                "|v| v * 2.0 + 1.0",
                "|v| v - 0.5",
                "|v| max(v, 0.25)",
                "|v| v * v",
            ],
            "0.0",
            "reduce(+, 0.0)",
        ),
        "f64" => (
            &[
                "|v| v * 2.0 + 1.0",
                "|v| sqrt(abs(v)) - 0.5",
                "|v| v * v",
                "|v| exp(v) - 1.0",
            ],
            "0.0",
            "reduce(+, 0.0)",
        ),
        "u32" => (
            &[
                "|v| v * 3u32 + 1u32",
                "|v| v % 7u32",
                "|v| v / 3u32",
                "|v| max(v, 5u32)",
            ],
            "0u32",
            "reduce(max, 0u32)",
        ),
        "i64" => (
            &["|v| v * 3 - 1", "|v| v % 7", "|v| min(v, 5)"],
            "0",
            "reduce(+, 0)",
        ),
        "u64" => (
            &["|v| v * 3 + 1", "|v| v % 7", "|v| v / 2"],
            "0",
            "reduce(+, 0)",
        ),
        "i32" => (
            &["|v| v * 3 - 1", "|v| v % 7", "|v| v / 3"],
            "0",
            "reduce(min, 1000)",
        ),
        _ => (
            &["|v| !v", "|v| v && true"],
            "false",
            "reduce_seq(|a, v| a || v, false)",
        ),
    };
    let lam = pick(rng, lams);
    let float = matches!(ty, "f16" | "f64");
    let body = match rng.gen_range(0..7) {
        0 => format!("map({lam}) $ x"),
        1 => format!("{red} o map({lam}) $ x"),
        2 if ty != "bool" => {
            let b = boundary(rng, float);
            let b = if ty.starts_with('u') && b.contains('-') {
                "clamp".to_string()
            } else {
                b
            };
            format!("map({red}) o slide(3, 1) o pad(1, 1, {b}) $ x")
        }
        3 if ty == "f16" => "map(|v| v as f32 * 2.0) $ x".to_string(),
        3 if ty == "bool" => "map(|b| if b { 1.0 } else { -1.0 }) $ x".to_string(),
        4 => format!("map({lam}) o gather(reverse) o map({lam}) $ x"),
        5 if n.is_multiple_of(4) => format!("join o map(map({lam})) o split(4) $ x"),
        5 if n >= 4 => format!("join_cover({ns}) o map(map({lam})) o split_cover(4) $ x"),
        6 if float => "map(|v| v > 0.0) $ x".to_string(),
        _ => format!("map({lam}) o map({lam}) $ x"),
    };
    let _ = z;
    Draft {
        funs: FUNS.into(),
        sizes,
        params: vec![format!("x: [{ty}; {ns}]")],
        body,
    }
}

/// Low-level mappings written by the user: `map_glb` in 1-3 dimensions, `map_wrg`/`map_lcl`
/// with `to_local`/`to_global`/`to_private`, sequential maps and reductions, unrolled.
pub fn lowlevel(rng: &mut dyn RngCore) -> Draft {
    let mut sizes = Vec::new();
    let lam = f32_lambda(rng);
    let (params, body) = match rng.gen_range(0..10) {
        0 => {
            let v = pick(rng, &[1, 3, 17, 64, 100]);
            let ns = size(rng, &mut sizes, "N", v);
            (
                vec![format!("x: [f32; {ns}]")],
                format!("map_glb(0, {lam}) $ x"),
            )
        }
        1 | 2 => {
            let v = pick(rng, &[1, 3, 5, 8]);
            let ns = size(rng, &mut sizes, "N", v);
            let v = pick(rng, &[1, 4, 7, 16]);
            let ms = size(rng, &mut sizes, "M", v);
            let b = match rng.gen_range(0..5) {
                0 => format!("map_glb(1, map_glb(0, {lam})) $ x"),
                1 => format!("map_glb(0, map_seq({lam})) $ x"),
                2 => "map_glb(0, reduce_seq(|acc, v| acc + v * 0.5, 0.0)) $ x".to_string(),
                3 => format!("map_glb(0, |row| reduce_seq(+, 0.0) o map_seq({lam}) $ row) $ x"),
                _ => format!("map_glb(0, map_glb(1, {lam})) $ x"),
            };
            (vec![format!("x: [[f32; {ms}]; {ns}]")], b)
        }
        3 => {
            let m = pick(rng, &[1, 2, 4, 5]);
            let v = pick(rng, &[1, 3, 8]);
            let ns = size(rng, &mut sizes, "N", v);
            let b = if rng.gen_bool(0.5) {
                format!("map_glb(0, map_seq_unroll({lam})) $ x")
            } else {
                "map_glb(0, reduce_seq_unroll(+, 0.0)) $ x".to_string()
            };
            (vec![format!("x: [[f32; {m}]; {ns}]")], b)
        }
        4..=6 => {
            let k = pick(rng, &[1, 2, 4, 8, 16]);
            let v = k * pick(rng, &[1, 2, 3, 7]);
            let ns = size(rng, &mut sizes, "N", v);
            let inner = match rng.gen_range(0..5) {
                0 => format!("map_lcl(0, {lam})"),
                1 => format!("map_lcl(0, id) o to_local(map_lcl(0, {lam}))"),
                2 => format!("to_global(map_lcl(0, {lam})) o to_local(map_lcl(0, id))"),
                3 => format!("map_lcl(0, {lam}) o map_lcl(0, |v| v + 1.0)"),
                _ => format!("map_lcl(0, |v| reduce_seq(+, 0.0) o map_seq({lam}) $ v) o split(1)"),
            };
            (
                vec![format!("x: [f32; {ns}]")],
                format!("join o map_wrg(0, {inner}) o split({k}) $ x"),
            )
        }
        7 => {
            let v = pick(rng, &[1, 2, 4]);
            let ns = size(rng, &mut sizes, "N", v);
            let v = pick(rng, &[1, 3, 4]);
            let ms = size(rng, &mut sizes, "M", v);
            (
                vec![format!("x: [[[f32; 2]; {ms}]; {ns}]")],
                format!("map_glb(2, map_glb(1, map_glb(0, {lam}))) $ x"),
            )
        }
        8 => {
            let k = pick(rng, &[2, 4]);
            let v = k * pick(rng, &[1, 3]);
            let ns = size(rng, &mut sizes, "N", v);
            let v = k * pick(rng, &[1, 2]);
            let ms = size(rng, &mut sizes, "M", v);
            (
                vec![format!("x: [[f32; {ms}]; {ns}]")],
                format!("map_wrg(1, map_wrg(0, map_lcl(1, map_lcl(0, {lam})))) o map(map(split({k})) o transpose) o split({k}) $ x"),
            )
        }
        _ => {
            let v = pick(rng, &[1, 5, 16]);
            let ns = size(rng, &mut sizes, "N", v);
            (
                vec![format!("x: [[f32; 3]; {ns}]")],
                format!("map_glb(0, map_seq(id) o to_private(map_seq({lam}))) $ x"),
            )
        }
    };
    Draft {
        funs: FUNS.into(),
        sizes,
        params,
        body,
    }
}

/// LIFT's primitives beyond the core: `head`, `tail`, `scan_seq`, `reduce_while_seq`,
/// `transpose_w`, `untile2`, run-time indices `x[e]`, `iterate`.
pub fn lift_extra(rng: &mut dyn RngCore) -> Draft {
    let mut sizes = Vec::new();
    let lam = f32_lambda(rng);
    let n = pick(rng, &[2, 3, 4, 6, 8, 12, 16]);
    let m = pick(rng, &[2, 3, 4, 6, 9]);
    let (params, body) = match rng.gen_range(0..10) {
        0 => {
            let ns = size(rng, &mut sizes, "N", n);
            (
                vec![format!("x: [f32; {ns}]")],
                format!("map({lam}) o tail $ x"),
            )
        }
        1 => {
            let ns = size(rng, &mut sizes, "N", n);
            (
                vec![format!("x: [[f32; 3]; {ns}]")],
                format!("map(map({lam})) o head $ x"),
            )
        }
        2 => {
            let ns = size(rng, &mut sizes, "N", n);
            (
                vec![format!("x: [f32; {ns}]")],
                "scan_seq(+, 0.0) o map(|v| v * 0.5) $ x".to_string(),
            )
        }
        3 => {
            let ns = size(rng, &mut sizes, "N", n);
            let ms = size(rng, &mut sizes, "M", m);
            (
                vec![format!("x: [[f32; {ms}]; {ns}]")],
                "map(scan_seq(max, -10.0)) $ x".to_string(),
            )
        }
        4 => {
            let ns = size(rng, &mut sizes, "N", n);
            (
                vec![format!("x: [f32; {ns}]")],
                "reduce_while_seq(|a, v| a + v, |v| v > -0.8, 0.0) $ x".to_string(),
            )
        }
        5 => {
            let ns = size(rng, &mut sizes, "N", n);
            let ms = size(rng, &mut sizes, "M", m);
            (
                vec![format!("x: [[f32; {ms}]; {ns}]")],
                format!("transpose_w o map(map({lam})) $ x"),
            )
        }
        6 => {
            let (a, b) = (pick(rng, &[1, 2]), pick(rng, &[1, 3]));
            let v = a * pick(rng, &[1, 2, 3]);
            let ns = size(rng, &mut sizes, "N", v);
            let v = b * pick(rng, &[1, 2]);
            let ms = size(rng, &mut sizes, "M", v);
            (
                vec![format!("x: [[f32; {ms}]; {ns}]")],
                format!("untile2 o map2(map2({lam})) o slide2({a}, {a}, {b}, {b}) $ x"),
            )
        }
        7 => {
            let ns = size(rng, &mut sizes, "N", n);
            let ms = size(rng, &mut sizes, "M", m);
            (
                vec![format!("x: [f32; {ns}]"), format!("ids: [i32; {ms}]")],
                "map(|j| x[j] * 2.0) $ ids".to_string(),
            )
        }
        8 => {
            let k = rng.gen_range(1..=3);
            let ns = size(rng, &mut sizes, "N", n);
            let ms = size(rng, &mut sizes, "M", m);
            (
                vec![format!("x: [[f32; {ms}]; {ns}]")],
                format!("iterate({k}, map(map({lam}))) $ x"),
            )
        }
        _ => {
            let k = rng.gen_range(1..=3);
            let v = 8 * pick(rng, &[1, 2, 4]);
            let ns = size(rng, &mut sizes, "N", v);
            (
                vec![format!("x: [f32; {ns}]")],
                format!("iterate({k}, map(reduce(+, 0.0)) o split(2)) o map({lam}) $ x"),
            )
        }
    };
    Draft {
        funs: FUNS.into(),
        sizes,
        params,
        body,
    }
}

/// Rewrite points where they match (and some where they do not, which must be dropped).
pub fn points(rng: &mut dyn RngCore) -> Draft {
    let mut sizes = Vec::new();
    let lam = f32_lambda(rng);
    let arg = |rng: &mut dyn RngCore, xs: &[usize]| -> String {
        if rng.gen_bool(0.3) {
            "_".into()
        } else {
            pick(rng, xs).to_string()
        }
    };
    let n = pick(rng, &[1, 4, 8, 12, 16, 32, 64]);
    let (params, body) = match rng.gen_range(0..10) {
        0 => {
            let ns = size(rng, &mut sizes, "N", n);
            let a = arg(rng, &[1, 2, 4, 8]);
            (
                vec![format!("x: [f32; {ns}]")],
                format!("#[split_join({a})] map({lam}) $ x"),
            )
        }
        1 => {
            let ns = size(rng, &mut sizes, "N", n);
            let a = arg(rng, &[2, 4, 8]);
            (
                vec![format!("x: [f32; {ns}]")],
                format!("#[split_join({a})] reduce(+, 0.0) $ x"),
            )
        }
        2 => {
            let ns = size(rng, &mut sizes, "N", n);
            let b = boundary(rng, true);
            let a = arg(rng, &[4, 8, 10]);
            (
                vec![format!("x: [f32; {ns}]")],
                format!(
                    "map(reduce(+, 0.0)) o #[tile_stencil({a})] slide(3, 1) o pad(1, 1, {b}) $ x"
                ),
            )
        }
        3 => {
            let v = pick(rng, &[1, 3, 4]);
            let ns = size(rng, &mut sizes, "N", v);
            let v = pick(rng, &[1, 2, 5]);
            let ms = size(rng, &mut sizes, "M", v);
            (
                vec![format!("x: [[f32; {ms}]; {ns}]")],
                format!("#[interchange_maps] map(map({lam})) $ x"),
            )
        }
        4 => {
            let v = pick(rng, &[1, 3, 4]);
            let ns = size(rng, &mut sizes, "N", v);
            let v = pick(rng, &[1, 2, 5]);
            let ms = size(rng, &mut sizes, "M", v);
            (
                vec![format!("x: [[f32; {ms}]; {ns}]")],
                "map(|row| #[privatise_accumulator] reduce(+, 0.0) $ row) $ x".to_string(),
            )
        }
        5 => {
            let ns = size(rng, &mut sizes, "N", n);
            let p = pick(
                rng,
                &[
                    "materialise",
                    "join_split",
                    "optimise_data_layout",
                    "kernel_fission",
                ],
            );
            (
                vec![format!("x: [f32; {ns}]")],
                format!("#[{p}] map({lam}) o map(|v| v + 1.0) $ x"),
            )
        }
        6 => {
            let ns = size(rng, &mut sizes, "N", n);
            let a = arg(rng, &[1, 2, 3]);
            (
                vec![format!("x: [f32; {ns}]")],
                format!("#[pad_extra({a})] map({lam}) $ x"),
            )
        }
        7 => {
            let ns = size(rng, &mut sizes, "N", n);
            let a = arg(rng, &[2, 4]);
            (
                vec![format!("x: [f32; {ns}]")],
                format!("#[tile_nested_map_reduce({a})] reduce(+, 0.0) o map({lam}) $ x"),
            )
        }
        8 => {
            let v = pick(rng, &[1, 2, 4, 8]);
            let ns = size(rng, &mut sizes, "N", v);
            let v = pick(rng, &[1, 4, 8]);
            let ms = size(rng, &mut sizes, "M", v);
            let (a, b) = (arg(rng, &[1, 2, 4]), arg(rng, &[1, 2, 4]));
            let p = pick(
                rng,
                &[
                    format!("ab_tile({a}, {b})"),
                    "interchange_reduce".to_string(),
                ],
            );
            (
                vec![format!("x: [[f32; {ms}]; {ns}]")],
                format!("#[{p}] map(reduce(+, 0.0)) $ x"),
            )
        }
        _ => {
            let ns = size(rng, &mut sizes, "N", n);
            let (a, b) = (arg(rng, &[2, 4]), arg(rng, &[1, 2]));
            (
                vec![format!("x: [f32; {ns}]")],
                format!("#[split_join({a})] #[split_join({b})] map({lam}) $ x"),
            )
        }
    };
    Draft {
        funs: FUNS.into(),
        sizes,
        params,
        body,
    }
}

/// The families by name, with their weights in the mix.
pub const FAMILIES: [(&str, u32); 10] = [
    ("base", 30),
    ("stencil1d", 8),
    ("stencil2d", 10),
    ("stencil3d", 8),
    ("tuples", 8),
    ("vectors", 8),
    ("types", 10),
    ("lowlevel", 8),
    ("lift", 6),
    ("points", 8),
];

/// A draft of family `name`.
pub fn draft(name: &str, rng: &mut dyn RngCore) -> Draft {
    match name {
        "stencil1d" => stencil1d(rng),
        "stencil2d" => stencil2d(rng),
        "stencil3d" => stencil3d(rng),
        "tuples" => tuples(rng),
        "vectors" => vectors(rng),
        "types" => types(rng),
        "lowlevel" => lowlevel(rng),
        "lift" => lift_extra(rng),
        _ => points(rng),
    }
}
