//! Multi-channel 2-D convolution written once in high-level primitives (issue 12): input
//! `[[[f32; C]; W]; H]`, weights `[[[[f32; C]; 3]; 3]; K]`, bias and ReLU fused, zero padding
//! (`pad2(1, constant([0.0; C]))`: a constant array per padded pixel) or none, strides 1 and
//! 2. Every candidate of the explorer agrees with the interpreter on POCL at odd sizes and
//! channel counts, and the default one with a plain Rust convolution.

use lift_runtime::core::interp::Value;
use lift_runtime::DynKernel;
use lift_tests::diff::{self, Case, CheckOptions, Outcome};
use lift_tests::{assert_close, ctx, f32s, nested, random_f32};

/// The program (kernel `K`, `F` filters) with padding `pad` (0 or 1) and stride `stride`.
fn program(pad: usize, stride: usize) -> String {
    let out = |n: &str| match pad {
        0 => format!("({n} - 3) / {stride} + 1"),
        _ => format!("({n} - 1) / {stride} + 1"),
    };
    let padded = if pad == 1 {
        " o pad2(1, constant([0.0; C]))"
    } else {
        ""
    };
    format!(
        "kernel K<H, W, C, F>(x: [[[f32; C]; W]; H], w: [[[[f32; C]; 3]; 3]; F], b: [f32; F]) \
         -> [[[f32; F]; {}]; {}] {{
            map2(|win| map(|wb| max(0.0, wb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1) \
              $ zip(join o join $ win, join o join $ wb.0)))) $ zip(w, b)) \
            o slide2(3, {stride}){padded} $ x
        }}",
        out("W"),
        out("H")
    )
}

/// The program annotated with `kernel_fission`: at the windows, flattened to rows
/// (`im2col`: the rows are materialised, then a product reads them), or before the windows
/// (the padded input materialised, a direct convolution over it).
fn fissioned(pad: usize, stride: usize, im2col: bool) -> String {
    let plain = program(pad, stride);
    if im2col {
        plain
            .replacen("map2(|win|", "#[kernel_fission] map2(|win|", 1)
            .replacen("zip(join o join $ win,", "zip(win,", 1)
            .replacen(
                &format!("o slide2(3, {stride})"),
                &format!("o map2(join o join) o slide2(3, {stride})"),
                1,
            )
    } else {
        plain.replacen("o slide2(", "o #[kernel_fission] slide2(", 1)
    }
}

/// The convolution in plain Rust (row-major `H x W x C` input, `K x 3 x 3 x C` weights).
#[allow(clippy::too_many_arguments)]
fn reference(
    x: &[f32],
    w: &[f32],
    b: &[f32],
    (h, wd, c, k): (usize, usize, usize, usize),
    pad: usize,
    stride: usize,
) -> Vec<f32> {
    let (oh, ow) = (
        (h + 2 * pad - 3) / stride + 1,
        (wd + 2 * pad - 3) / stride + 1,
    );
    let mut out = Vec::with_capacity(oh * ow * k);
    for oy in 0..oh {
        for ox in 0..ow {
            for f in 0..k {
                let mut acc = 0f32;
                for dy in 0..3 {
                    for dx in 0..3 {
                        let (y, xx) = (
                            (oy * stride + dy) as isize - pad as isize,
                            (ox * stride + dx) as isize - pad as isize,
                        );
                        if y < 0 || xx < 0 || y >= h as isize || xx >= wd as isize {
                            continue;
                        }
                        for ch in 0..c {
                            acc += x[(y as usize * wd + xx as usize) * c + ch]
                                * w[((f * 3 + dy) * 3 + dx) * c + ch];
                        }
                    }
                }
                out.push((acc + b[f]).max(0.0));
            }
        }
    }
    out
}

#[test]
fn every_candidate_agrees_with_the_interpreter() {
    let ctx = ctx();
    let mut failed = Vec::new();
    // Stride 2 needs an odd height and width (the windows must cover the input). The last
    // size: few outputs, many channels (partial products, split-K, apply). Every placement
    // at two sizes, one of them with an odd channel count, the padded stride-1 one at all four.
    let all = [[5, 7, 3, 2], [9, 5, 1, 4], [7, 9, 5, 3], [3, 3, 40, 6]];
    let cases = [
        ((1, 1), all.to_vec()),
        ((0, 1), vec![all[1], all[3]]),
        ((1, 2), vec![all[0], all[2]]),
        ((0, 2), vec![all[2], all[3]]),
    ];
    for ((pad, stride), sizes) in cases {
        for sizes in sizes {
            let c = Case {
                family: "conv",
                text: program(pad, stride),
                sizes: sizes.to_vec(),
                seed: (pad * 10 + stride) as u64,
            };
            match diff::check(ctx, &c, CheckOptions::default()) {
                Outcome::Agree(runs) => {
                    assert!(runs >= 2, "pad {pad} stride {stride}: {runs} runs")
                }
                other => failed.push(format!(
                    "pad {pad}, stride {stride}, sizes {sizes:?}: {other:?}"
                )),
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// `kernel_fission` places a kernel boundary (issue 12's algorithm choice by where it
/// materialises): every candidate of both placements agrees with the interpreter, each is a
/// fissioned one (`fission=1`) or runs the program as one kernel, and the default is fissioned.
#[test]
fn kernel_fission_places_the_boundary() {
    let ctx = ctx();
    let mut failed = Vec::new();
    for (pad, stride) in [(1, 1), (0, 2)] {
        for im2col in [true, false] {
            let text = fissioned(pad, stride, im2col);
            let k = DynKernel::compile(ctx, &text, "K").expect("compiles");
            let first = &k.candidates()[0];
            assert!(first.contains("fission=1"), "{text}\n{:?}", k.candidates());
            for sizes in [[5, 7, 3, 2], [7, 9, 5, 3]] {
                let c = Case {
                    family: "conv",
                    text: text.clone(),
                    sizes: sizes.to_vec(),
                    seed: 7 + pad as u64,
                };
                match diff::check(ctx, &c, CheckOptions::default()) {
                    Outcome::Agree(runs) => assert!(runs >= 2, "{text}: {runs} runs"),
                    other => failed.push(format!("{text}, sizes {sizes:?}: {other:?}")),
                }
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The thesis's Listing 6.4: the convolution (3 filters, zero padding, bias, ReLU) annotated
/// with every point of its Table 6.1, as in `lift-core`'s `rewrite::tests::points::listing_6_4`
/// (which checks that every point applies): its candidates (the three `kernel_fission`
/// boundaries taken or not) agree with the interpreter on POCL at an odd and a square size.
#[test]
fn the_annotated_convolution_of_listing_6_4_agrees() {
    let ctx = ctx();
    for (h, w, c) in [(7, 5, 3), (8, 8, 4)] {
        let text = format!(
            "kernel K(x: [[[f32; {c}]; {w}]; {h}], w: [[[[f32; {c}]; 3]; 3]; 3], b: [f32; 3]) \
             -> [[[f32; 3]; {w}]; {h}] {{ #[pad_extra] (#[join_split] #[ab_tile] \
             #[tile_nested_map_reduce] map2(|win| map(|wb| max(0.0, wb.1 + \
             (#[privatise_accumulator] (reduce(+, 0.0) o map(|q| q.0 * q.1)) $ zip(win, wb.0)))) \
             $ zip(#[kernel_fission] (map(join o join) $ w), b)) o #[kernel_fission] \
             map2(join o join) o #[kernel_fission] slide2(3, 1)) o pad2(1, constant([0.0; {c}])) $ x }}"
        );
        let case = Case {
            family: "conv",
            text: text.clone(),
            sizes: Vec::new(),
            seed: (h * w) as u64,
        };
        match diff::check(ctx, &case, CheckOptions::default()) {
            Outcome::Agree(runs) => assert!(runs >= 3, "{text}: {runs} runs"),
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn default_candidate_matches_plain_rust() {
    let ctx = ctx();
    for (pad, stride) in [(1, 1), (0, 2)] {
        let dims @ (h, w, c, k) = (9, 7, 3, 4);
        let text = program(pad, stride);
        let kernel = DynKernel::compile(ctx, &text, "K").expect("compiles");
        let (x, wt, b) = (
            random_f32(h * w * c, 1),
            random_f32(k * 9 * c, 2),
            random_f32(k, 3),
        );
        let got = kernel
            .run(
                &[h, w, c, k],
                &[
                    nested(&x, &[h, w, c]),
                    nested(&wt, &[k, 3, 3, c]),
                    Value::from_f32s(&b),
                ],
            )
            .expect("runs");
        let want = reference(&x, &wt, &b, dims, pad, stride);
        assert_close(
            &f32s(&got),
            &want,
            1e-4,
            &format!("pad {pad} stride {stride}"),
        );
    }
}

/// The tuner recompiles the printed program to check each candidate against the interpreter:
/// the array constant of the padding (`[0.0; C]`) prints as `generate(C, |_| 0.0)`, which
/// parses back (it printed a name the parser refused, and no candidate was valid).
#[test]
fn the_tuner_checks_and_times_every_candidate() {
    let ctx = ctx();
    let dims @ (h, w, c, k) = (5, 5, 2, 3);
    let (x, wt, b) = (
        random_f32(h * w * c, 4),
        random_f32(k * 9 * c, 5),
        random_f32(k, 6),
    );
    let args = [
        nested(&x, &[h, w, c]),
        nested(&wt, &[k, 3, 3, c]),
        Value::from_f32s(&b),
    ];
    let opts = lift_runtime::tune::TuneOptions {
        verbose: false,
        retune: true,
    };
    let (kernel, tuned) =
        DynKernel::tune(ctx, &program(1, 1), "K", &[h, w, c, k], &args, &opts).expect("tunes");
    assert!(tuned.valid >= 2, "{tuned:?}");
    let got = kernel.run(&[h, w, c, k], &args).expect("runs");
    assert_close(
        &f32s(&got),
        &reference(&x, &wt, &b, dims, 1, 1),
        1e-4,
        "tuned",
    );
}

/// A product under a nest of three maps (a batch of row blocks against one matrix of
/// filters): `products` flattens the nest into one blocked product and splits the result
/// back; blocked candidates agree with the interpreter at sizes that are and are not
/// multiples of the tiles.
#[test]
fn nested_products_are_blocked_and_agree() {
    let text = "kernel K<D, H, W, L, F>(x: [[[[f32; L]; W]; H]; D], w: [[f32; L]; F]) -> [[[[f32; F]; W]; H]; D] {
        map3(|r| map(|c| reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(r, c)) $ w) $ x
    }";
    let k = DynKernel::compile(ctx(), text, "K").expect("compiles");
    let blocked = k
        .candidates()
        .iter()
        .filter(|c| c.starts_with("blocked"))
        .count();
    assert!(blocked >= 3, "{:?}", k.candidates());
    // Two tilings that apply at every size (padded); each `compile_candidate` explores anew.
    let blocked: Vec<&String> = k
        .candidates()
        .iter()
        .filter(|c| c.starts_with("blocked") && c.ends_with("pad=2)"))
        .take(2)
        .collect();
    for (d, h, w, l, f) in [(3, 5, 7, 9, 11), (2, 4, 16, 16, 32)] {
        let x = nested(&random_f32(d * h * w * l, 1), &[d, h, w, l]);
        let ws = nested(&random_f32(l * f, 2), &[f, l]);
        let args = [x, ws];
        let sizes = [d, h, w, l, f];
        let want = f32s(&lift_tests::interpret(text, "K", &sizes, &args));
        let mut ran = 0;
        for c in &blocked {
            let ck = DynKernel::compile_candidate(ctx(), text, "K", Some(c)).expect("compiles");
            match ck.run(&sizes, &args) {
                Ok(v) => {
                    assert_close(&f32s(&v), &want, 1e-5, c);
                    ran += 1;
                }
                Err(lift_runtime::Error::Precondition { .. }) => {}
                Err(e) => panic!("{c} at {sizes:?}: {e}"),
            }
        }
        assert!(ran >= 1, "no blocked candidate ran at {sizes:?}");
    }
}
