//! The rules over views with windows ([`crate::rewrite::views`]) against the interpreter:
//! convolutions of one, two and three dimensions of data, with and without padding, bias and
//! activation, filters read through layouts or lambdas, at sizes of one element and odd
//! ones; each rewrite gives the same results bit for bit (none changes a fold's order). The
//! programs name their data as the names the rules bind (`lift_m0`, `lift_i0`, ...), so a
//! captured name would show as a wrong result or a type error.

use super::support::{arguments, normalised};
use crate::interp::run_kernel;
use crate::ir::ExprKind;
use crate::rewrite::views::{materialise_input, materialise_windows, product_of_views};
use crate::rewrite::{RewriteCtx, Rule};
use crate::typeck::check_program;
use rand::rngs::StdRng;
use rand::SeedableRng;

/// A program and the sizes it runs at (in the order of its size variables).
struct Case {
    src: &'static str,
    sizes: &'static [&'static [i64]],
}

/// Is the case's product in disguise (not a product over a view of rows already, which the
/// blocking matches as it is)?
fn disguised(case: &Case) -> bool {
    !case.src.contains("slide(3, 1) o pad(1, 1, clamp)")
}

/// Convolutions, each a product in disguise over windows.
const CONVOLUTIONS: &[Case] = &[
    // The 3x3 convolution with bias and ReLU of the golden file, its data named as the
    // rules' binders.
    Case {
        src: "kernel K<H, W, C, F>(lift_m0: [[[f32; C]; W]; H], lift_i0: [[[[f32; C]; 3]; 3]; F], lift_m1: [f32; F]) -> [[[f32; F]; W]; H] { map2(|win| map(|fb| max(0.0, fb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(join o join $ win, join o join $ fb.0)))) $ zip(lift_i0, lift_m1)) o slide2(3, 1) o pad2(1, constant([0.0; C])) $ lift_m0 }",
        sizes: &[&[3, 4, 2, 3], &[1, 1, 1, 1], &[5, 2, 3, 2]],
    },
    // One dimension, clamped, the window's binder named as the copy: a product over a view
    // of rows already.
    Case {
        src: "kernel K<N, F>(lift_i0: [f32; N], w: [[f32; 3]; F]) -> [[f32; F]; N] { map(|lift_m0| map(|f| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(lift_m0, f)) $ w) o slide(3, 1) o pad(1, 1, clamp) $ lift_i0 }",
        sizes: &[&[7, 3], &[1, 1], &[2, 5]],
    },
    // The filters' layout composed after the lambda, windows without padding.
    Case {
        src: "kernel K<N, F>(x: [f32; N + 4], lift_m0: [[[f32; 5]; 1]; F]) -> [[f32; F]; N] { map(|win| map((|f| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(win, f)) o join) $ lift_m0) o slide(5, 1) $ x }",
        sizes: &[&[4, 2], &[1, 3]],
    },
    // Two dimensions of a single channel, the filter a sequential fold.
    Case {
        src: "kernel K<H, W, F>(x: [[f32; W]; H], k: [[f32; 9]; F]) -> [[[f32; F]; W]; H] { map2(|nbh| map(|f| reduce_seq(|acc, p| acc + p.0 * p.1, 0.0) $ zip(join $ nbh, f)) $ k) o slide2(3, 1) o pad2(1, clamp) $ x }",
        sizes: &[&[3, 5, 2], &[2, 1, 3]],
    },
];

/// Windows that are no product: the copies apply all the same.
const STENCILS: &[Case] = &[
    Case {
        src: "kernel K<N, M>(lift_m0: [[f32; M]; N]) -> [[f32; M]; N] { map2(|lift_i0| 0.2 * (lift_i0[0][1] + lift_i0[1][0] + lift_i0[1][1] + lift_i0[1][2] + lift_i0[2][1])) o slide2(3, 1) o pad2(1, clamp) $ lift_m0 }",
        sizes: &[&[4, 5], &[1, 1]],
    },
    Case {
        src: "kernel K<N>(x: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, constant(0.5)) $ x }",
        sizes: &[&[9], &[1]],
    },
];

/// Applies `rule` at the root of the case's normalised body and compares the two programs at
/// every size; gives whether it matched.
fn check(case: &Case, rule: &Rule, rng: &mut StdRng) -> bool {
    let p = normalised(case.src);
    let info = check_program(&mut p.clone()).expect("checked");
    let ctx = RewriteCtx::for_kernel(&p, &p.kernels[0], &info[0]);
    let Some(new) = rule.apply(&p.kernels[0].body, &ctx) else {
        return false;
    };
    let mut q = p.clone();
    q.kernels[0].body = new;
    let shown = crate::print::program(&q);
    check_program(&mut q).unwrap_or_else(|e| panic!("{}: {e}\n{shown}", rule.name));
    for sizes in case.sizes {
        let args = arguments(&p, sizes, rng);
        let want = run_kernel(&p, "K", sizes, &args).expect("the program runs");
        let got = run_kernel(&q, "K", sizes, &args)
            .unwrap_or_else(|e| panic!("{} at {sizes:?}: {e}\n{shown}", rule.name));
        let (want, got) = (want.as_f32s().unwrap(), got.as_f32s().unwrap());
        assert!(
            want.len() == got.len()
                && want
                    .iter()
                    .zip(&got)
                    .all(|(x, y)| x.to_bits() == y.to_bits()),
            "{} at {sizes:?}:\n{want:?}\n{got:?}\n{shown}",
            rule.name
        );
    }
    true
}

#[test]
fn convolutions_as_products_compute_the_convolutions() {
    let mut rng = StdRng::seed_from_u64(35);
    for case in CONVOLUTIONS {
        assert_eq!(
            check(case, &product_of_views(), &mut rng),
            disguised(case),
            "{}",
            case.src
        );
    }
    // Windows that no inner map folds are no product.
    for case in STENCILS {
        assert!(!check(case, &product_of_views(), &mut rng), "{}", case.src);
    }
}

#[test]
fn plain_products_are_left_alone() {
    let gemm = "kernel K<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) o transpose $ b) $ a }";
    let p = normalised(gemm);
    assert!(product_of_views()
        .apply(&p.kernels[0].body, &RewriteCtx::default())
        .is_none());
}

#[test]
fn materialised_windows_hold_the_windows() {
    let mut rng = StdRng::seed_from_u64(36);
    for case in CONVOLUTIONS.iter().chain(STENCILS) {
        assert!(
            check(case, &materialise_windows(), &mut rng),
            "no windows materialised\n{}",
            case.src
        );
    }
}

#[test]
fn materialised_inputs_hold_the_inputs() {
    let mut rng = StdRng::seed_from_u64(37);
    let mut matched = 0;
    for case in CONVOLUTIONS.iter().chain(STENCILS) {
        let padded = case.src.contains("pad");
        assert_eq!(
            check(case, &materialise_input(), &mut rng),
            padded,
            "{}",
            case.src
        );
        matched += usize::from(padded);
    }
    assert!(matched >= 4);
}

/// The copies are named as nothing of the kernel: the programs above name their data
/// `lift_m0`, `lift_i0`, `lift_m1`.
#[test]
fn copies_are_named_as_nothing_of_the_kernel() {
    let p = normalised(CONVOLUTIONS[0].src);
    let info = check_program(&mut p.clone()).expect("checked");
    for rule in [materialise_windows(), materialise_input()] {
        let ctx = RewriteCtx::for_kernel(&p, &p.kernels[0], &info[0]);
        let new = rule.apply(&p.kernels[0].body, &ctx).expect("it applies");
        let ExprKind::Let(crate::ir::Pat::Name(n, _), ..) = &new.kind else {
            panic!("{}: no let", rule.name)
        };
        assert!(
            !["lift_m0", "lift_i0", "lift_m1"].contains(&n.as_str()),
            "{n}"
        );
    }
}
