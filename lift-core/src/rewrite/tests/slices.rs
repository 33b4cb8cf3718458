//! The rules that move a range of rows towards its data ([`crate::rewrite::slices`]) against
//! the interpreter: each rule at the root of `range(d, k) $ P $ x` for every first row and
//! length that fit (ranges touching either edge, of one row and of all rows), the same
//! result bit for bit; where a side condition does not hold the rule must not apply.

use super::support::arguments;
use crate::interp::run_kernel;
use crate::ir::Program;
use crate::parse::parse_program_str;
use crate::rewrite::slices::{
    range_map, range_pad, range_range, range_reverse, range_slide, range_split, range_take,
    range_unchain, range_whole, range_zip,
};
use crate::rewrite::strategy::{rule, top_down};
use crate::rewrite::{rewrite_kernel, Rule};
use crate::typeck::check_program;
use rand::rngs::StdRng;
use rand::SeedableRng;

fn checked(src: &str) -> Program {
    let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
    p
}

/// `r` at the first location (top down) of kernel `K` of `src`: `Some(true)` where it applied and kept the
/// result, `None` where it did not apply.
fn rewrites(src: &str, r: Rule, rng: &mut StdRng) -> Option<bool> {
    let p = checked(src);
    let after = rewrite_kernel(&p, "K", &top_down(rule(r))).ok()?;
    let args = arguments(&p, &[], rng);
    let a = run_kernel(&p, "K", &[], &args).expect("before");
    let b = run_kernel(&after, "K", &[], &args).expect("after");
    Some(a == b)
}

/// Every `(d, k)` with `d + k <= n`.
fn ranges(n: i64) -> impl Iterator<Item = (i64, i64)> {
    (0..n).flat_map(move |d| (1..=n - d).map(move |k| (d, k)))
}

/// `rule()` at the root of `at(d) $ slide(k, 1) $ <body>` for every range of `n` rows of the
/// body's result: it must apply and keep the result wherever `applies(d, k)`, and not apply
/// elsewhere.
fn check(
    rule: fn() -> Rule,
    kernel: &dyn Fn(i64) -> String,
    n: i64,
    applies: &dyn Fn(i64, i64) -> bool,
) {
    let mut rng = StdRng::seed_from_u64(n as u64);
    let mut checked = 0;
    for (d, k) in ranges(n) {
        let src = kernel(k).replace("RANGE", &format!("at({d}) $ slide({k}, 1) $"));
        match (rewrites(&src, rule(), &mut rng), applies(d, k)) {
            (Some(same), true) => {
                assert!(same, "{}: a different result for\n{src}", rule().name);
                checked += 1;
            }
            (None, false) => {}
            (got, want) => panic!(
                "{}: applied {} (expected {want}) to\n{src}",
                rule().name,
                got.is_some()
            ),
        }
    }
    assert!(checked > 0, "{}: nothing checked", rule().name);
}

#[test]
fn ranges_move_through_maps_and_zips() {
    let map = |k: i64| {
        format!("kernel K(x: [[f32; 3]; 6]) -> [f32; {k}] {{ RANGE map(|r| r[0] * r[2]) $ x }}")
    };
    check(range_map, &map, 6, &|_, _| true);
    let glb = |k: i64| {
        format!("kernel K(x: [f32; 6]) -> [f32; {k}] {{ RANGE map_glb(|v| v * 3.0) $ x }}")
    };
    check(range_map, &glb, 6, &|_, _| true);
    let map2 = |k: i64| {
        format!("kernel K(x: [[f32; 3]; 5]) -> [[f32; 3]; {k}] {{ RANGE map2(|v| v + 1.0) $ x }}")
    };
    check(range_map, &map2, 5, &|_, _| true);
    let zip = |k: i64| {
        format!("kernel K(x: [f32; 5], y: [[f32; 2]; 5]) -> [f32; {k}] {{ map(|p| p.0 + p.1[1]) $ RANGE zip(x, y) }}")
    };
    check(range_zip, &zip, 5, &|_, _| true);
}

#[test]
fn ranges_move_through_windows_and_splits() {
    let slide = |k: i64| {
        format!("kernel K(x: [f32; 11]) -> [f32; {k}] {{ map(|w| w[0] - w[2]) $ RANGE slide(3, 2) $ x }}")
    };
    check(range_slide, &slide, 5, &|_, _| true);
    let slide2 = |k: i64| {
        format!("kernel K(x: [[f32; 4]; 6]) -> [[f32; 2]; {k}] {{ map2(|w| w[0][0] + w[2][1]) $ RANGE slide2(3, 1, 3, 1) $ x }}")
    };
    check(range_slide, &slide2, 4, &|_, _| true);
    let reverse = |k: i64| {
        format!("kernel K(x: [[f32; 2]; 7]) -> [[f32; 2]; {k}] {{ RANGE gather(reverse) $ x }}")
    };
    check(range_reverse, &reverse, 7, &|_, _| true);
    let split = |k: i64| {
        format!(
            "kernel K(x: [f32; 12]) -> [f32; {k}] {{ map(|c| c[0] + c[2]) $ RANGE split(3) $ x }}"
        )
    };
    check(range_split, &split, 4, &|_, _| true);
}

#[test]
fn ranges_move_through_paddings_where_the_boundary_allows() {
    // 2 + 5 + 3 rows: a range wholly in a constant padding has no rows of x to stand on; a
    // clamped one reads copies of the edge row.
    let n = 10;
    let inside = |d: i64, k: i64| d + k > 2 && d < 7;
    let constant = |k: i64| {
        format!("kernel K(x: [f32; 5]) -> [f32; {k}] {{ RANGE pad(2, 3, constant(0.5)) $ x }}")
    };
    check(range_pad, &constant, n, &inside);
    let clamp =
        |k: i64| format!("kernel K(x: [f32; 5]) -> [f32; {k}] {{ RANGE pad(2, 3, clamp) $ x }}");
    check(range_pad, &clamp, n, &|_, _| true);
    // A mirror reads as many rows as it pads.
    let mirror =
        |k: i64| format!("kernel K(x: [f32; 5]) -> [f32; {k}] {{ RANGE pad(2, 3, mirror) $ x }}");
    let rows = |d: i64, k: i64| (d + k - 2).min(5) - (d - 2).max(0);
    let pads = |d: i64, k: i64| (2 - d).max(0).max((d + k - 7).max(0));
    check(range_pad, &mirror, n, &|d, k| {
        inside(d, k) && rows(d, k) >= pads(d, k)
    });
    // A wrap only where the range holds all of x.
    let wrap =
        |k: i64| format!("kernel K(x: [f32; 5]) -> [f32; {k}] {{ RANGE pad(2, 3, wrap) $ x }}");
    check(range_pad, &wrap, n, &|d, k| d <= 2 && d + k >= 7);
    let pad2 = |k: i64| {
        format!(
            "kernel K(x: [[f32; 3]; 4]) -> [[f32; 5]; {k}] {{ RANGE pad2(1, 2, 1, 1, clamp) $ x }}"
        )
    };
    check(range_pad, &pad2, 7, &|_, _| true);
}

#[test]
fn ranges_of_ranges_takes_and_chains() {
    let rr =
        |k: i64| format!("kernel K(x: [f32; 9]) -> [f32; {k}] {{ RANGE at(2) $ slide(6, 1) $ x }}");
    check(range_range, &rr, 6, &|_, _| true);
    let take = |k: i64| format!("kernel K(x: [f32; 9]) -> [f32; {k}] {{ RANGE take(6) $ x }}");
    check(range_take, &take, 6, &|_, _| true);
    let whole = |k: i64| format!("kernel K(x: [f32; 6]) -> [f32; {k}] {{ RANGE x }}");
    check(range_whole, &whole, 6, &|d, k| d == 0 && k == 6);
    let chain = |k: i64| {
        format!("kernel K(x: [f32; 6]) -> [f32; {k}] {{ RANGE (map(|w| w[0] + w[2]) o slide(3, 1) o pad(1, 1, clamp)) $ x }}")
    };
    check(range_unchain, &chain, 6, &|_, _| true);
}
