//! Structural equality: spans and types ignored, bound names up to renaming, and a hash that
//! agrees.

use crate::ir::{Expr, ExprKind, LitValue};
use crate::parse::{parse_expr_str, parse_program_str};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

fn p(s: &str) -> Expr {
    parse_expr_str(s, &["N"]).unwrap()
}

fn hash_of(e: &Expr) -> u64 {
    let mut h = DefaultHasher::new();
    e.hash(&mut h);
    h.finish()
}

/// `a == b`, and then the same hash and one entry in a set.
fn same(a: &Expr, b: &Expr) -> bool {
    if a != b {
        return false;
    }
    assert_eq!(b, a, "symmetric");
    assert_eq!(hash_of(a), hash_of(b), "{a:?}\n{b:?}");
    let set: HashSet<Expr> = [a.clone(), b.clone()].into_iter().collect();
    assert_eq!(set.len(), 1);
    true
}

fn eq(a: &str, b: &str) -> bool {
    same(&p(a), &p(b))
}

#[test]
fn spans_are_ignored() {
    assert!(eq(
        "map(|a| a + y) $ x",
        "\n\n   map( |a|   a +\n y )  $   x"
    ));
}

#[test]
fn types_are_ignored() {
    let src = "kernel K<N>(x: [f32; N]) -> [f32; N] { map(|a| a * 2.0) $ x }";
    let mut typed = parse_program_str(src).unwrap();
    crate::typeck::check_program(&mut typed).unwrap();
    let untyped = parse_program_str(src).unwrap();
    let (t, u) = (&typed.kernels[0].body, &untyped.kernels[0].body);
    assert!(t.ty.is_some() && u.ty.is_none());
    assert!(same(t, u));
}

#[test]
fn alpha_equivalent_lambdas_are_equal() {
    assert!(eq("|x| x + y", "|z| z + y"));
    assert!(!eq("|x| x + y", "|x| x + z"));
    assert!(eq("|a, b| a * b", "|b, a| b * a"));
    assert!(!eq("|a, b| a * b", "|a, b| b * a"));
    assert!(eq("map(|x| x) $ v", "map(|y| y) $ v"));
    assert!(!eq("|x| x", "|x, y| x"));
}

#[test]
fn shadowing_follows_the_innermost_binder() {
    assert!(!eq("|x| |x| x", "|x| |y| x"));
    assert!(eq("|x| |x| x", "|x| |y| y"));
    assert!(eq("|x| |y| x", "|a| |b| a"));
    assert!(!eq("|x| |y| x", "|a| |b| b"));
}

#[test]
fn free_and_bound_names_differ() {
    assert!(!eq("|x| y", "|y| y"));
    assert!(!eq("|x| x", "|y| x"));
    assert!(eq("f $ x", "f $ x"));
    assert!(!eq("f $ x", "f $ y"));
    assert!(!eq("f $ x", "g $ x"));
}

#[test]
fn let_binds_its_pattern_in_the_body_only() {
    assert!(eq("{ let t = x; t * 2.0 }", "{ let u = x; u * 2.0 }"));
    assert!(!eq("{ let t = x; t * 2.0 }", "{ let u = x; x * 2.0 }"));
    // The value is outside the binder's scope.
    assert!(eq("|t| { let t = t; t }", "|a| { let b = a; b }"));
    assert!(!eq("|t| { let t = t; t }", "|a| { let b = a; a }"));
    assert!(eq("{ let (a, b) = p; a - b }", "{ let (c, d) = p; c - d }"));
    assert!(!eq(
        "{ let (a, b) = p; a - b }",
        "{ let (a, b) = p; b - a }"
    ));
}

#[test]
fn tuple_patterns_must_have_the_same_shape() {
    assert!(eq("map(|(a, b)| a * b) $ z", "map(|(u, v)| u * v) $ z"));
    assert!(!eq("map(|(a, b)| a * b) $ z", "map(|p| p.0 * p.1) $ z"));
    assert!(!eq("|(a, b), c| a", "|a, (b, c)| a"));
    assert!(eq("|((a, b), c)| b + c", "|((x, y), z)| y + z"));
    // Repeated names in one binder group stay repeated.
    assert!(!eq("|x, x| x", "|x, y| y"));
    assert!(eq("|x, x| x", "|y, y| y"));
}

#[test]
fn literals_compare_by_value_suffix_and_float_bits() {
    assert!(eq("1.0", "1.0"));
    assert!(eq("1.0f32", "1.0f32"));
    assert!(!eq("1.0", "1.0f32"));
    assert!(!eq("1", "1.0"));
    assert!(!eq("2", "3"));
    assert!(!eq("true", "false"));
    let lit = |x: f64| Expr::new(ExprKind::Lit(LitValue::Float(x), None), p("x").span);
    assert!(!same(&lit(0.0), &lit(-0.0)));
    assert!(same(&lit(f64::NAN), &lit(f64::NAN)));
}

#[test]
fn primitive_arguments_compare_modulo_spans() {
    assert!(eq("split(4) $ x", "split( 4 ) $ x"));
    assert!(!eq("split(4) $ x", "split(8) $ x"));
    assert!(eq("pad(1, 1, clamp) $ x", "pad(1, 1, clamp) $ x"));
    assert!(!eq("pad(1, 1, clamp) $ x", "pad(1, 1, wrap) $ x"));
    assert!(eq(
        "pad(1, 1, constant(0.0)) $ x",
        "pad(1,1,constant(0.0)) $ x"
    ));
    assert!(eq("gather(stride(4)) $ x", "gather(stride(4)) $ x"));
    assert!(!eq("gather(stride(4)) $ x", "gather(reverse) $ x"));
    assert!(eq("reduce(+, 0.0) $ x", "reduce(+, 0.0) $ x"));
    assert!(!eq("reduce(+, 0.0) $ x", "reduce(*, 0.0) $ x"));
}

#[test]
fn equal_pairs_hash_alike_in_one_set() {
    let groups: &[&[&str]] = &[
        &["|x| x", "|y| y", "|lift_t0| lift_t0"],
        &[
            "map(|(a, b)| a + b) $ zip(x, y)",
            "map(|(c, d)| c + d) $ zip(x, y)",
        ],
        &["{ let s = x; s }", "{ let t = x; t }"],
        &["|x| |y| x", "|u| |v| u"],
        &["|x| |y| y", "|u| |v| v", "|x| |x| x"],
        &["x", "\nx"],
    ];
    let mut set = HashSet::new();
    for g in groups {
        let es: Vec<Expr> = g.iter().map(|s| p(s)).collect();
        for a in &es {
            for b in &es {
                assert!(same(a, b), "{a:?} vs {b:?}");
            }
        }
        set.extend(es);
    }
    assert_eq!(set.len(), groups.len());
}

const PROGRAMS: &[&str] = &[
    "kernel K<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] { map(|row| reduce(|s, t| s + t, 0.0) $ map(|(u, v)| u * v) $ zip(row, x)) $ a }",
    "kernel K<N>(x: [f32; N], y: [f32; N]) -> [f32; N] { map(|(a, b)| { let c = a * 2.0; let (d, e) = (c, b); d + e }) $ zip(x, map(|v| v * 2.0) $ y) }",
    "kernel K<N, M>(a: [[f32; M]; N]) -> [f32; M] { reduce(|acc, r| map(|(u, v)| u + v) $ zip(acc, r), generate(M, |i| 0.0)) $ a }",
    "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map(|r| map(|x| |y| x) $ r) $ map(|x| map(|x| x + 1.0) $ x) $ x }",
];

/// Renaming every binder keeps an expression equal, with the same hash; renaming a free name
/// does not.
#[test]
fn renaming_binders_keeps_equality_and_hash() {
    for src in PROGRAMS {
        let prog = parse_program_str(src).unwrap();
        let body = &prog.kernels[0].body;
        for salt in ["_r", "q", "__"] {
            let mut renamed = body.clone();
            let mut k = 0;
            let pairs = crate::rewrite::names::rename_binders(&mut renamed, &mut |b| {
                k += 1;
                format!("{b}{salt}{k}")
            });
            assert!(!pairs.is_empty());
            assert_ne!(crate::print::expr(&renamed), crate::print::expr(body));
            assert!(
                same(body, &renamed),
                "{src}\n{}",
                crate::print::expr(&renamed)
            );
        }
        let free = crate::ir::free(body);
        assert!(!free.is_empty(), "{src}");
        for name in free {
            let mut changed = body.clone();
            let other = Expr::new(ExprKind::Ident(format!("{name}_other")), body.span);
            crate::rewrite::names::subst(&mut changed, &name, &other);
            assert!(changed != *body, "{src}: {name}");
        }
    }
}
