//! The rules of vectorised element-wise maps ([`crate::rewrite::vectorize`]), each against
//! the interpreter on random kernels (see [`super::gen::check_rule`]): maps of one array, of
//! zips of two and three, and 2-D maps, at lengths that are and are not multiples of the
//! widths. The rules bind no variable (the element function is moved whole), so no user name
//! can meet a binder of theirs; the lambdas' own names (`p`, `q`, `r`, `x`) stay as written.

use super::gen::{check_rule, Gen, Tol};
use crate::parse::parse_program_str;
use crate::rewrite::rewrite_kernel;
use crate::rewrite::strategy::{rule, top_down};
use crate::rewrite::vectorize::{coarsen, flatten_map, pad_map, vectorize_data};
use crate::typeck::check_program;
use crate::types::VECTOR_WIDTHS;
use rand::Rng;

/// Pushes an element-wise map applied to its data (`map(f) $ a`, `map(f) $ zip(a, ..)`) over
/// the current value, made 1-D first.
fn elementwise(g: &mut Gen) -> Option<usize> {
    if g.shape.len() == 2 {
        let n = g.shape[0] * g.shape[1];
        g.push("join", vec![n]).then_some(())?;
    }
    if g.shape.len() != 1 {
        return None;
    }
    let n = g.shape[0];
    let l = g.lambda();
    let stage = match g.rng.gen_range(0..3) {
        0 => format!("(|a| map({l}) $ a)"),
        1 => "(|a| map(|(p, q)| p * 2.0 + q) $ zip(a, gather(reverse) $ a))".to_string(),
        _ => "(|a| map(|(p, q, r)| p * q - r) $ zip(a, gather(reverse) $ a, a))".to_string(),
    };
    g.push(stage, vec![n]).then_some(n)
}

#[test]
fn pad_map_keeps_the_map() {
    check_rule(
        &|g| {
            let n = elementwise(g)?;
            let q = g.rng.gen_range(2..=8i64);
            (n % q as usize != 0).then(|| pad_map(q))
        },
        Tol::Exact,
        12,
    );
}

#[test]
fn vectorize_data_keeps_the_map() {
    check_rule(
        &|g| {
            let n = elementwise(g)?;
            let ws: Vec<u32> = (VECTOR_WIDTHS.iter().copied())
                .filter(|&w| n.is_multiple_of(w as usize))
                .collect();
            let w = *ws.get(g.rng.gen_range(0..ws.len().max(1)))?;
            Some(vectorize_data(w))
        },
        Tol::Exact,
        10,
    );
}

#[test]
fn coarsen_keeps_the_map() {
    check_rule(
        &|g| {
            let n = elementwise(g)?;
            let k = g.divisor(n);
            (k > 1).then(|| coarsen(k as i64))
        },
        Tol::Exact,
        10,
    );
}

#[test]
fn flatten_map_keeps_the_map() {
    check_rule(
        &|g| {
            if !g.two_d() {
                return None;
            }
            let l = g.lambda();
            let shape = g.shape.clone();
            g.push(format!("(|a| map(map({l})) $ a)"), shape)
                .then(flatten_map)
        },
        Tol::Exact,
        12,
    );
}

/// `vectorize_data` applies only where the element function is computed lane by lane: its
/// parameters through arithmetic, math builtins, float casts and `let`, other values the same
/// in every lane; never into an index, a comparison, a condition, an integer cast or a user
/// function.
#[test]
fn vectorize_data_needs_a_lanewise_function() {
    let applies = |body: &str| {
        let src = format!(
            "fn sq(t: f32) -> f32 {{ t * t }}\n\
             kernel K<N>(x: [f32; N], a: f32) -> [f32; N] {{ {body} }}"
        );
        let mut p = parse_program_str(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
        rewrite_kernel(&p, "K", &top_down(rule(vectorize_data(4)))).is_ok()
    };
    assert!(applies("map(|v| sqrt(v) * a - x[N - 1] + max(v, 1.0)) $ x"));
    assert!(applies("map(|v| { let s = v * v; s / (1.0 + s) }) $ x"));
    assert!(applies("map(|(u, w)| -u + (w as f32) / 2.0) $ zip(x, x)"));
    assert!(!applies("map(|v| x[(v * 4.0) as i32 + 1] - v) $ x"));
    assert!(!applies("map(|v| if v > 0.0 { v } else { 0.0 }) $ x"));
    assert!(!applies("map(|v| ((v * 2.0) as i32) as f32) $ x"));
    assert!(!applies("map(|v| sq(v) + 1.0) $ x"));
}
