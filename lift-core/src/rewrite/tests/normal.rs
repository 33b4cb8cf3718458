//! One property test per normalisation rule of [`crate::explore::normalise`] (see
//! [`super::gen::check_rule`]), and the normal forms of spellings of one function.

use super::gen::{check_rule, Gen, Tol};
use crate::explore::normalise::{self as nf, normalise_kernel};
use crate::parse::parse_program_str;
use crate::typeck::check_program;
use rand::Rng;

/// A random index boundary (mirror only where the pad fits).
fn boundary(g: &mut Gen, pad: usize, n: usize) -> &'static str {
    match g.rng.gen_range(0..3) {
        0 => "clamp",
        1 => "wrap",
        _ if pad <= n => "mirror",
        _ => "clamp",
    }
}

#[test]
fn tuple_params() {
    check_rule(
        &|g| {
            (g.shape.len() == 1).then_some(())?;
            let l = g.lambda();
            let d = g.shape.clone();
            g.push(
                format!("(|a| map(|(p, q)| p * 2.0 - q) $ zip(a, map({l}) $ a))"),
                d,
            )
            .then(nf::tuple_params)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn zip_producer() {
    check_rule(
        &|g| {
            (g.shape.len() == 1).then_some(())?;
            let (l, m) = (g.lambda(), g.lambda());
            let d = g.shape.clone();
            let stage = match g.rng.gen_range(0..3) {
                0 => format!("(|a| map(|p| p.0 - p.1) $ zip(a, map({l}) $ a))"),
                1 => format!("(|a| map(|p| p.0 * p.1) $ zip(map({l}) $ a, (map({m}) o gather(reverse)) $ a))"),
                _ => format!("(|a| map(|p| p.0 + p.1 * p.2) $ zip(a, map({l}) $ a, map({m}) $ a))"),
            };
            g.push(stage, d).then(nf::zip_producer)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn eta_reduce() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let l = g.lambda();
            let d = g.shape.clone();
            g.push(format!("map(|r| (map({l}) o gather(reverse)) $ r)"), d)
                .then(nf::eta_reduce)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn lambda_section() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let d0 = g.shape[0];
            let op = [
                "|a, b| a + b",
                "|a, b| b * a",
                "|a, b| max(a, b)",
                "|a, b| min(b, a)",
            ][g.rng.gen_range(0..4)];
            g.push(format!("map(reduce({op}, 0.5))"), vec![d0])
                .then(nf::lambda_section)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn pad2_nested() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let (n, m) = (g.shape[0], g.shape[1]);
            let (t, b, l, r) = (
                g.rng.gen_range(0..3),
                g.rng.gen_range(0..3),
                g.rng.gen_range(0..3),
                g.rng.gen_range(0..3),
            );
            let bd = boundary(g, t.max(b).max(l).max(r), n.min(m));
            let stage = if g.rng.gen_bool(0.5) {
                format!("pad({t}, {b}, {bd}) o map(pad({l}, {r}, {bd}))")
            } else {
                format!("map(pad({l}, {r}, {bd})) o pad({t}, {b}, {bd})")
            };
            g.push(stage, vec![t + n + b, l + m + r])
                .then(nf::pad2_nested)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn pad3_nested() {
    check_rule(
        &|g| {
            g.three_d().then_some(())?;
            let (n, m, l) = (g.shape[0], g.shape[1], g.shape[2]);
            let p: Vec<usize> = (0..6).map(|_| g.rng.gen_range(0..3)).collect();
            let bd = boundary(g, *p.iter().max()?, n.min(m).min(l));
            let (a, b) = (
                format!("pad2({}, {}, {}, {}, {bd})", p[0], p[1], p[2], p[3]),
                format!("map(map(pad({}, {}, {bd})))", p[4], p[5]),
            );
            let stage = if g.rng.gen_bool(0.5) {
                format!("{a} o {b}")
            } else {
                format!("{b} o {a}")
            };
            let shape = vec![p[0] + n + p[1], p[2] + m + p[3], p[4] + l + p[5]];
            g.push(stage, shape).then(nf::pad3_nested)
        },
        Tol::Exact,
        10,
    );
}

#[test]
fn slide3_nested() {
    check_rule(
        &|g| {
            g.three_d().then_some(())?;
            let (n, m, l) = (g.shape[0], g.shape[1], g.shape[2]);
            let ((sz, tz), (sy, ty), (sx, tx)) = (window(g, n)?, window(g, m)?, window(g, l)?);
            let sum = "map(reduce(+, 0.0) o join o join)";
            let tail = if g.rng.gen_bool(0.5) {
                format!("transpose o map(transpose o map(slide({sx}, {tx})))")
            } else {
                format!("transpose o map(transpose) o map(map(slide({sx}, {tx})))")
            };
            let shape = vec![(n - sz) / tz + 1, (m - sy) / ty + 1, (l - sx) / tx + 1];
            g.push(
                format!("map(map({sum} o {tail})) o slide2({sz}, {tz}, {sy}, {ty})"),
                shape,
            )
            .then(nf::slide3_nested)
        },
        Tol::Exact,
        10,
    );
}

/// Window sizes and steps that tile a length `n`: `(size, step)` with `(n - size) % step == 0`.
fn window(g: &mut Gen, n: usize) -> Option<(usize, usize)> {
    let size = g.rng.gen_range(1..=n.min(3));
    let step = if (n - size).is_multiple_of(2) && g.rng.gen_bool(0.5) {
        2
    } else {
        1
    };
    Some((size, step))
}

#[test]
fn slide2_nested() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let (n, m) = (g.shape[0], g.shape[1]);
            let ((sy, ty), (sx, tx)) = (window(g, n)?, window(g, m)?);
            let sum = "map(reduce(+, 0.0) o join)";
            let rows = if g.rng.gen_bool(0.5) {
                format!("{sum} o transpose o map(slide({sx}, {tx}))")
            } else {
                format!("{sum} o map(transpose) o slide({sx}, {tx}) o transpose")
            };
            let shape = vec![(n - sy) / ty + 1, (m - sx) / tx + 1];
            g.push(format!("map({rows}) o slide({sy}, {ty})"), shape)
                .then(nf::slide2_nested)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn slide2_of_slides() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let (n, m) = (g.shape[0], g.shape[1]);
            let ((sy, ty), (sx, tx)) = (window(g, n)?, window(g, m)?);
            let shape = vec![(n - sy) / ty + 1, (m - sx) / tx + 1];
            g.push(
                format!("map(map(reduce(+, 0.0) o join) o transpose) o slide({sy}, {ty}) o map(slide({sx}, {tx}))"),
                shape,
            )
            .then(nf::slide2_of_slides)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn map_nd_expand() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let l = g.lambda();
            let d = g.shape.clone();
            g.push(format!("map2({l})"), d).then(nf::map_nd_expand)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn nd_full_args() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let (n, m) = (g.shape[0], g.shape[1]);
            if g.rng.gen_bool(0.5) {
                let p = g.rng.gen_range(0..3);
                let bd = boundary(g, p, n.min(m));
                g.push(format!("pad2({p}, {bd})"), vec![n + 2 * p, m + 2 * p])
            } else {
                let size = g.rng.gen_range(1..=n.min(m).min(3));
                let shape = [n - size + 1, m - size + 1];
                g.push(
                    format!("map(map(join)) o slide2({size}, 1)"),
                    vec![shape[0], shape[1], size * size],
                )
            }
            .then(nf::nd_full_args)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn map_past_layout() {
    check_rule(
        &|g| {
            let l = g.lambda();
            let d = g.shape.clone();
            let pick = g.rng.gen_range(0..5);
            let k = g.divisor(d[0]);
            match (d.len(), pick) {
                (1, 0) => g.push(format!("gather(reverse) o map({l})"), d),
                (1, 1) => g.push(format!("scatter(reverse) o map({l})"), d),
                (1, 2) => g.push(format!("pad(1, 2, wrap) o map({l})"), vec![d[0] + 3]),
                (1, 3) if d[0] >= 2 => g.push(format!("slide(2, 1) o map({l})"), vec![d[0] - 1, 2]),
                (1, _) => g.push(format!("split({k}) o map({l})"), vec![d[0] / k, k]),
                (2, 0) => g.push(format!("join o map(map({l}))"), vec![d[0] * d[1]]),
                (2, 1) => g.push(format!("transpose o map(map({l}))"), vec![d[1], d[0]]),
                (2, 2) => g.push(
                    format!("pad2(1, clamp) o map(map({l}))"),
                    vec![d[0] + 2, d[1] + 2],
                ),
                (2, _) if d[0] >= 2 && d[1] >= 2 => g.push(
                    format!("map(map(join)) o slide2(2, 1) o map(map({l}))"),
                    vec![d[0] - 1, d[1] - 1, 4],
                ),
                _ => false,
            }
            .then(nf::map_past_layout)
        },
        Tol::Exact,
        30,
    );
}

#[test]
fn map_id_elim() {
    check_rule(
        &|g| {
            let l = g.lambda();
            let (a, b) = (g.nest("map", "id"), g.nest("map", l));
            let d = g.shape.clone();
            g.push(format!("{a} o {b}"), d).then(nf::map_id_elim)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn apply_map_fusion() {
    check_rule(
        &|g| {
            let (a, b) = (g.lambda(), g.lambda());
            let (fa, fb) = (g.nest("map", a), g.nest("map", b));
            let d = g.shape.clone();
            g.push(format!("(|v| {fa} $ {fb} $ v)"), d)
                .then(nf::apply_map_fusion)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn apply_reduce_map() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let l = g.lambda();
            let d0 = g.shape[0];
            g.push(format!("map(|r| reduce(+, 0.0) $ map({l}) $ r)"), vec![d0])
                .then(nf::apply_reduce_map)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn lambda_fusion() {
    check_rule(
        &|g| {
            let (a, b) = (g.lambda(), g.lambda());
            let f = g.nest("map", &format!("({a}) o ({b})"));
            let d = g.shape.clone();
            g.push(f, d).then(nf::lambda_fusion)
        },
        Tol::Exact,
        10,
    );
}

#[test]
fn hoist_invariant_reduction() {
    check_rule(
        &|g| {
            let d = g.shape.clone();
            let stage = match (d.len(), g.rng.gen_range(0..2)) {
                (1, 0) => "(|a| map(|x| x / (1.0 + (reduce(+, 0.0) $ map(|v| v * v) $ a))) $ a)",
                (1, _) => "(|a| map(|x| { let m = reduce(max, -1000.0) $ a; x - m }) $ a)",
                (2, _) => "map(|r| map(|x| x - 0.5 * (reduce(max, -1000.0) $ r)) $ r)",
                _ => return None,
            };
            g.push(stage.to_string(), d)
                .then(nf::hoist_invariant_reduction)
        },
        Tol::Exact,
        10,
    );
}

#[test]
fn reduce_interchange() {
    check_rule(
        &|g| {
            if let [n] = g.shape[..] {
                // Rows to reduce: an outer difference.
                g.push("(|a| map(|v| map(|w| v - w) $ a) $ a)", vec![n, n]);
            }
            let [n, m] = g.shape[..] else { return None };
            let stage = match g.rng.gen_range(0..3) {
                0 => format!(
                    "reduce(|acc, r| map(|(u, v)| u + v) $ zip(acc, r), generate({m}, |i| 0.0))"
                ),
                1 => format!(
                    "reduce(|acc, r| map(|t| max(t.0, t.1)) $ zip(r, acc), generate({m}, |i| -1000.0))"
                ),
                _ => format!(
                    "reduce(|acc, r| map(|(u, v)| u * v) $ zip(acc, r), generate({m}, |i| 1.0 + (i as f32) * 0.01))"
                ),
            };
            (n > 0).then_some(())?;
            g.push(stage, vec![m])
                .then(crate::rewrite::interchange::reduce_interchange)
        },
        Tol::Exact,
        10,
    );
}

#[test]
fn zip_unused() {
    check_rule(
        &|g| {
            (g.shape.len() == 1).then_some(())?;
            let l = g.lambda();
            let d = g.shape.clone();
            let stage = match g.rng.gen_range(0..3) {
                0 => format!("(|a| map(|t| t.1 * 2.0) $ zip(a, map({l}) $ a))"),
                1 => {
                    format!("(|a| map(|t| t.0 - t.2) $ zip(a, gather(reverse) $ a, map({l}) $ a))")
                }
                _ => "(|a| map(|t| t.2 + t.2 * t.1) $ zip(a, a, gather(reverse) $ a))".to_string(),
            };
            g.push(stage, d).then(nf::zip_unused)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn iterate_map() {
    check_rule(
        &|g| {
            let l = g.lambda();
            let k = g.rng.gen_range(1..5);
            let stage = format!("iterate({k}, {})", g.nest("map", l));
            let d = g.shape.clone();
            g.push(stage, d).then(nf::iterate_map)
        },
        Tol::Exact,
        20,
    );
}

/// The normal form of kernel `K` of `src`, printed.
fn normal(src: &str) -> String {
    let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let n = normalise_kernel(&p, "K").unwrap_or_else(|e| panic!("{e}\n{src}"));
    crate::print::expr(&n.kernel("K").expect("kernel K").body)
}

/// Spellings of one function reach one normal form.
#[test]
fn spellings_reach_one_normal_form() {
    let groups: [&[&str]; 6] = [
        &[
            "kernel K<N, M>(a: [[f32; M]; N]) -> [f32; M] { reduce(|acc, r| map(|(u, v)| u + v) $ zip(acc, r), generate(M, |i| 0.0)) $ a }",
            "kernel K<N, M>(a: [[f32; M]; N]) -> [f32; M] { map(reduce(+, 0.0)) $ transpose $ a }",
            "kernel K<N, M>(a: [[f32; M]; N]) -> [f32; M] { map(|col| reduce(|s, t| s + t, 0.0) $ col) $ transpose $ a }",
        ],
        &[
            "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|(a, b)| a * b) $ zip2(x, generate2(N, M, |i, j| (i + j) as f32)) }",
            "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map(|(r, g)| map(|(a, b)| a * b) $ zip(r, g)) $ zip(x, generate2(N, M, |i, j| (i + j) as f32)) }",
        ],
        &[
            "kernel K<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] { map3(|c| c[0][1][1] + c[1][0][1] * c[1][1][2]) o slide3(3, 1) o pad3(1, clamp) $ x }",
            "kernel K<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] { map(|planes| map(|rows| map(|c| c[0][1][1] + c[1][0][1] * c[1][1][2]) o transpose o map(transpose) o map(map(slide(3, 1))) $ rows) o transpose o map(slide(3, 1)) $ planes) o slide(3, 1) o pad(1, 1, clamp) o map(pad(1, 1, clamp)) o map(map(pad(1, 1, clamp))) $ x }",
        ],
        &[
            "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|w| w[0][1] + w[1][1] * w[2][2]) o slide2(3, 1) o pad2(1, clamp) $ x }",
            "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map(|rows| map(|w| w[0][1] + w[1][1] * w[2][2]) o transpose o map(slide(3, 1)) $ rows) o slide(3, 1) o pad(1, 1, clamp) o map(pad(1, 1, clamp)) $ x }",
            "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map(map(|w| w[0][1] + w[1][1] * w[2][2]) o map(transpose) o slide(3, 1) o transpose) o slide(3, 1) o map(pad(1, 1, clamp)) o pad(1, 1, clamp) $ x }",
        ],
        &[
            "fn twice(v: f32) -> f32 { v * 2.0 }\nkernel K<N>(x: [f32; N], y: [f32; N]) -> [f32; N] { map(|p| p.0 + p.1) $ zip(x, map(twice) $ y) }",
            "kernel K<N>(x: [f32; N], y: [f32; N]) -> [f32; N] { map(|(a, b)| a + b) $ zip(x, map(|v| v * 2.0) $ y) }",
            "kernel K<N>(x: [f32; N], y: [f32; N]) -> [f32; N] { map(|p| p.0 + p.1 * 2.0) $ zip(x, y) }",
        ],
        &[
            "fn mult(a: f32, b: f32) -> f32 { a * b }\nfn add(a: f32, b: f32) -> f32 { a + b }\nkernel K<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] { map(|row| reduce(add, 0.0) $ map(|p| mult(p.0, p.1)) $ zip(row, x)) $ a }",
            "kernel K<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] { map(|row| reduce(|s, t| s + t, 0.0) $ map(|(u, v)| u * v) $ zip(row, x)) $ a }",
            "kernel K<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] { map(|row| reduce(+, 0.0) $ map(|p| p.0 * p.1) $ zip(row, x)) $ a }",
        ],
    ];
    for group in groups {
        let forms: Vec<String> = group.iter().map(|s| normal(s)).collect();
        let canon = |f: &str| {
            // Fresh names differ between spellings; compare up to renaming of the lambda
            // parameters by replacing each by its first-use order.
            rename(f)
        };
        let first = canon(&forms[0]);
        for (src, f) in group.iter().zip(&forms) {
            assert_eq!(canon(f), first, "{src}\n=> {f}\nvs {}", forms[0]);
        }
    }
}

/// `f` with lambda parameter names replaced by `v0`, `v1`, ... in order of binding.
fn rename(f: &str) -> String {
    let mut names: Vec<String> = Vec::new();
    let mut out = String::new();
    let mut rest = f;
    while let Some(i) = rest.find('|') {
        out.push_str(&rest[..=i]);
        rest = &rest[i + 1..];
        let j = rest.find('|').unwrap_or(rest.len());
        let params = &rest[..j];
        if !params.trim().is_empty() && !params.contains(')') {
            let mut renamed = Vec::new();
            for p in params.split(',') {
                names.push(p.trim().to_string());
                renamed.push(format!("v{}", names.len() - 1));
            }
            out.push_str(&renamed.join(", "));
            rest = &rest[j..];
        }
    }
    out.push_str(rest);
    let mut s = out;
    for (k, n) in names.iter().enumerate() {
        s = replace_word(&s, n, &format!("v{k}"));
    }
    s
}

fn replace_word(s: &str, from: &str, to: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for c in s.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            out.push_str(if word == from { to } else { &word });
            word.clear();
            out.push(c);
        }
    }
    out.pop();
    out
}

#[test]
fn zip_nd_producer() {
    check_rule(
        &|g| {
            let ok = if g.rng.gen_bool(0.3) {
                g.three_d()
            } else {
                g.two_d()
            };
            ok.then_some(())?;
            let l = g.lambda();
            let d = g.shape.clone();
            let stage = match (d.len(), g.rng.gen_range(0..2)) {
                (2, 0) => format!("(|a| map2(|p| p.0 - p.1) $ zip2(a, map(map({l})) $ a))"),
                (2, _) => {
                    format!("(|a| map(map(|p| p.0 * p.1 + p.2)) $ zip2(map(map({l})) $ a, a, a))")
                }
                (3, _) => format!("(|a| map3(|p| p.0 - p.1) $ zip3(a, map(map(map({l}))) $ a))"),
                _ => return None,
            };
            g.push(stage, d).then(nf::zip_nd_producer)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn map_into_lambda() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let (l, m) = (g.lambda(), g.lambda());
            let d = g.shape.clone();
            g.push(format!("map(map({l}) o (|r| map({m}) $ r))"), d)
                .then(nf::map_into_lambda)
        },
        Tol::Exact,
        20,
    );
}

/// `lambda_fusion` where the consumer has a lambda of its own: the producer's parts are used
/// outside it (a zip's operands), so nothing is computed twice.
#[test]
fn lambda_fusion_around_an_inner_lambda() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let l = g.lambda();
            let d = g.shape.clone();
            g.push(
                format!("map((|t| map(|q| q.0 * q.1) $ zip(t.0, t.1)) o (|r| (r, map({l}) $ r)))"),
                d,
            )
            .then(nf::lambda_fusion)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn index_of_map() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let l = g.lambda();
            let d = g.shape.clone();
            let last = d[1] - 1;
            g.push(
                format!("map((|r| r[0] - r[{last}] * 0.5) o map({l}))"),
                vec![d[0]],
            )
            .then(nf::index_of_map)
        },
        Tol::Exact,
        20,
    );
}

/// A random predicate for `filter_seq`.
fn predicate(g: &mut Gen) -> &'static str {
    [
        "|v| v > 0.0",
        "|v| v * v < 0.25",
        "|v| v < 0.5 && v > -0.75",
    ][g.rng.gen_range(0..3)]
}

#[test]
fn reduce_filter() {
    check_rule(
        &|g| {
            let p = predicate(g);
            let l = g.lambda();
            let fold = match g.rng.gen_range(0..5) {
                0 => "reduce(+, 0.0)",
                1 => "reduce(max, -2.0)",
                2 => "reduce(min, 0.5)",
                3 => "reduce_seq(|a, v| a * 0.5 + v, 1.0)",
                _ => "reduce(|a, b| a + b * b, 0.0)",
            };
            let mapped = if g.rng.gen_bool(0.5) {
                format!("map({l}) o ")
            } else {
                String::new()
            };
            g.two_d().then_some(())?;
            let d0 = g.shape[0];
            g.push(format!("map({fold} o {mapped}filter_seq({p}))"), vec![d0])
                .then(crate::rewrite::filter::reduce_filter)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn apply_filter() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let p = predicate(g);
            let d0 = g.shape[0];
            g.push(
                format!("map(|r| reduce(+, 0.0) $ filter_seq({p}) $ r)"),
                vec![d0],
            )
            .then(crate::rewrite::filter::apply_filter)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn filter_fusion() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let (p, q) = (predicate(g), predicate(g));
            let d0 = g.shape[0];
            g.push(
                format!("map(reduce(+, 0.0) o filter_seq({p}) o filter_seq({q}))"),
                vec![d0],
            )
            .then(crate::rewrite::filter::filter_fusion)
        },
        Tol::Exact,
        20,
    );
}
