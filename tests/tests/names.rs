//! Results never depend on the names a user chose (issue 33): parameters, size variables,
//! lambda variables and user functions named like the compiler's own binders, like the
//! identifiers of the OpenCL C it generates, like OpenCL C keywords and built-ins, or like
//! the launcher's own arguments. Every candidate is launched untuned and compared with plain
//! Rust or with the interpreter on the same program under ordinary names.

use lift_runtime::core::interp::run_kernel;
use lift_runtime::core::rewrite::rename;
use lift_runtime::core::{parse, typeck};
use lift_runtime::{lift, DynKernel, Error};
use lift_tests::diff::{self, CheckOptions, Outcome};
use lift_tests::names::{hostile, COMPILER_BINDERS};
use lift_tests::{assert_close, ctx, random_f32};

lift! {
    /// The kernel of the issue: a scalar named `a`, a binder of the blocked product's pattern.
    pub kernel Scaled<N, K, M>(x: [[f32; K]; N], y: [[f32; M]; K], a: f32) -> [[f32; M]; N] {
        map(|row| map(|col| reduce(+, 0.0) o map(|p| a * p.0 * p.1) $ zip(row, col)) o transpose $ y) $ x
    }
    /// Sizes named like the work-item indices of generated C, parameters named like its
    /// locals and like the launcher's own arguments (`out`, `candidate`), a lambda variable
    /// named `int`.
    pub kernel CNames<l0, wg0, gid0>(k: [[f32; wg0]; l0], tmp: [[f32; gid0]; wg0], out: f32, candidate: f32) -> [[f32; gid0]; l0] {
        map(|i_2| map(|acc_1| candidate + out * (reduce(+, 0.0) o map(|int| int.0 * int.1) $ zip(i_2, acc_1))) o transpose $ tmp) $ k
    }
    /// Parameters named like the launcher's own arguments and locals: the launcher's are
    /// hygienic.
    pub kernel Launcher<N>(out: [f32; N], candidate: f32, special: f32, __lift_len: f32, __lift_out: f32, ctx: f32, sizes: f32, scratch: f32) -> [f32; N] {
        map(|v| v * candidate + special - __lift_len + __lift_out * ctx - sizes * scratch) $ out
    }
    /// A stencil whose parameter and size carry OpenCL C names.
    pub kernel Blur<float4>(get_global_id: [f32; float4], min: f32) -> [f32; float4] {
        map(|barrier| min * (reduce(+, 0.0) $ barrier)) o slide(3, 1) o pad(1, 1, clamp) $ get_global_id
    }
}

/// `x · y` (row-major `n x kk` and `kk x m`), each product scaled by `s`, plus `add`.
fn product(x: &[f32], y: &[f32], (n, kk, m): (usize, usize, usize), s: f32, add: f32) -> Vec<f32> {
    (0..n * m)
        .map(|p| {
            add + s
                * (0..kk)
                    .map(|q| x[p / m * kk + q] * y[q * m + p % m])
                    .sum::<f32>()
        })
        .collect()
}

#[test]
fn a_scalar_named_like_a_pattern_binder() {
    let k = Scaled::new(ctx()).unwrap();
    for (n, kk, m) in [(64, 64, 64), (37, 19, 23)] {
        let (x, y, a) = (random_f32(n * kk, 1), random_f32(kk * m, 2), 1.75f32);
        let gold: Vec<f32> = (0..n * m)
            .map(|p| {
                (0..kk)
                    .map(|q| a * x[p / m * kk + q] * y[q * m + p % m])
                    .sum()
            })
            .collect();
        assert_close(
            &k.run(n, kk, m, &x, &y, a).unwrap(),
            &gold,
            1e-4,
            "Scaled run",
        );
        let (xb, yb) = (ctx().upload(&x).unwrap(), ctx().upload(&y).unwrap());
        let mut ran = 0;
        let cands = k.candidates().unwrap();
        for (c, cand) in cands.iter().enumerate() {
            let out = ctx().alloc::<f32>(n * m).unwrap();
            match k.launch_candidate(c, n, kk, m, &xb, &yb, a, &out) {
                Ok(ev) => {
                    ev.wait().unwrap();
                    let what = format!("Scaled {n}x{kk}x{m} {}", cand.name);
                    assert_close(&out.download().unwrap(), &gold, 1e-4, &what);
                    ran += 1;
                }
                Err(Error::Launch { reason }) if reason.contains("does not apply") => {}
                Err(e) => panic!("{}: {e}", cand.name),
            }
        }
        assert!(ran >= 8, "only {ran} candidates ran at {n}x{kk}x{m}");
    }
}

#[test]
fn sizes_and_parameters_named_like_generated_c() {
    let k = CNames::new(ctx()).unwrap();
    assert!(
        CNames::SOURCE.contains("lift_size_l0_"),
        "{}",
        CNames::SOURCE
    );
    for (n, kk, m) in [(64, 32, 64), (37, 19, 23)] {
        let (x, y) = (random_f32(n * kk, 3), random_f32(kk * m, 4));
        let (scale, add) = (0.5f32, -2.0f32);
        let gold = product(&x, &y, (n, kk, m), scale, add);
        assert_close(
            &k.run(n, kk, m, &x, &y, scale, add).unwrap(),
            &gold,
            1e-4,
            "CNames run",
        );
        let (xb, yb) = (ctx().upload(&x).unwrap(), ctx().upload(&y).unwrap());
        let cands = k.candidates().unwrap();
        for (c, cand) in cands.iter().enumerate() {
            let out = ctx().alloc::<f32>(n * m).unwrap();
            match k.launch_candidate(c, n, kk, m, &xb, &yb, scale, add, &out) {
                Ok(ev) => {
                    ev.wait().unwrap();
                    let what = format!("CNames {n}x{kk}x{m} {}", cand.name);
                    assert_close(&out.download().unwrap(), &gold, 1e-4, &what);
                }
                Err(Error::Launch { reason }) if reason.contains("does not apply") => {}
                Err(e) => panic!("{}: {e}", cand.name),
            }
        }
    }
}

#[test]
fn opencl_names_for_a_stencil() {
    let k = Blur::new(ctx()).unwrap();
    for n in [1usize, 7, 1000] {
        let x = random_f32(n, 5);
        let gold: Vec<f32> = (0..n)
            .map(|i| 2.0 * (x[i.saturating_sub(1)] + x[i] + x[(i + 1).min(n - 1)]))
            .collect();
        assert_close(&k.run(n, &x, 2.0).unwrap(), &gold, 1e-5, "Blur");
    }
}

#[test]
fn parameters_named_like_the_launchers_own() {
    let k = Launcher::new(ctx()).unwrap();
    let x = random_f32(100, 6);
    let got = k.run(100, &x, 2.0, 3.0, 0.5, 0.25, 4.0, 1.5, 2.0).unwrap();
    let gold: Vec<f32> = x
        .iter()
        .map(|v| v * 2.0 + 3.0 - 0.5 + 0.25 * 4.0 - 1.5 * 2.0)
        .collect();
    assert_close(&got, &gold, 1e-5, "Launcher");
    let out = ctx().alloc::<f32>(100).unwrap();
    let xb = ctx().upload(&x).unwrap();
    k.launch(100, &xb, 2.0, 3.0, 0.5, 0.25, 4.0, 1.5, 2.0, &out)
        .unwrap()
        .wait()
        .unwrap();
    assert_close(&out.download().unwrap(), &gold, 1e-5, "Launcher launch");
}

/// Runs every candidate of program `text` (kernel `K`) at `sizes` on the default device
/// against the interpreter on `reference` (the same program under other names); gives the
/// number of candidates that ran.
fn every_candidate(text: &str, reference: &str, sizes: &[usize], seed: u64) -> usize {
    let mut prog = parse::parse_program_str(reference).unwrap();
    typeck::check_program(&mut prog).unwrap();
    let args = diff::inputs(&prog, sizes, seed).unwrap();
    let sz: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
    let want = run_kernel(&prog, "K", &sz, &args).unwrap();
    let kernel = DynKernel::compile(ctx(), text, "K").unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut ran = 0;
    for name in kernel.candidates() {
        let c = DynKernel::compile_candidate(ctx(), text, "K", Some(name)).unwrap();
        if !c.applies(sizes) {
            continue;
        }
        let got = c
            .run(sizes, &args)
            .unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        if let Err(e) = diff::agree(&got, &want) {
            panic!("{name} at {sizes:?}: {e}\nlowered: {}\n{text}", c.lowered());
        }
        ran += 1;
    }
    ran
}

/// A matrix product whose element function reads a scalar named after every binder of the
/// compiler's rules (each a different value: a captured one changes the sum).
#[test]
fn scalars_named_after_every_compiler_binder() {
    let names: Vec<&str> = COMPILER_BINDERS
        .iter()
        .copied()
        .filter(|n| !["x", "y"].contains(n))
        .collect();
    let params: Vec<String> = names.iter().map(|n| format!("{n}: f32")).collect();
    let sum = names.join(" + ");
    let text = format!(
        "kernel K<N, K, M>(x: [[f32; K]; N], y: [[f32; M]; K], {}) -> [[f32; M]; N] {{ \
         map(|row| map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1 * ({sum})) $ zip(row, col)) o transpose $ y) $ x }}",
        params.join(", ")
    );
    // The same program with every scalar called `s{i}`.
    let plain: Vec<String> = (0..names.len()).map(|i| format!("s{i}: f32")).collect();
    let plain_sum: Vec<String> = (0..names.len()).map(|i| format!("s{i}")).collect();
    let reference = format!(
        "kernel K<N, K, M>(x: [[f32; K]; N], y: [[f32; M]; K], {}) -> [[f32; M]; N] {{ \
         map(|row| map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1 * ({})) $ zip(row, col)) o transpose $ y) $ x }}",
        plain.join(", "),
        plain_sum.join(" + ")
    );
    let ran = every_candidate(&text, &reference, &[33, 17, 40], 7);
    assert!(ran >= 8, "only {ran} candidates ran");
}

/// Programs of every strategy that binds names (blocked products with epilogues reading
/// scalars, a bias or another matrix, split-K, kernel fission, two-kernel and row
/// reductions, stencils), each renamed to hostile names.
#[test]
fn strategies_under_hostile_names() {
    let programs: &[(&str, &[usize])] = &[
        (
            "kernel K<N, K, M>(alpha: f32, beta: f32, a: [[f32; K]; N], b: [[f32; M]; K], c: [[f32; M]; N]) -> [[f32; M]; N] { \
             map(|(ra, rc)| map(|(cb, x)| alpha * (reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(ra, cb)) + beta * x) $ zip(transpose $ b, rc)) $ zip(a, c) }",
            &[20, 9, 33],
        ),
        (
            "kernel K<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K], bias: [f32; M]) -> [[f32; M]; N] { \
             map(|r| map(|cb| max(0.0, cb.1 + (reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, cb.0)))) $ zip(transpose $ b, bias)) $ a }",
            &[17, 12, 30],
        ),
        (
            "kernel K<N, M>(a: [[f32; M]; N], s: f32) -> [f32; N] { \
             map(|row| s * sqrt(reduce(+, 0.0) o map(|v| v * v) $ row)) $ a }",
            &[19, 70],
        ),
        (
            "kernel K<N>(x: [f32; N], y: [f32; N], s: f32) -> f32 { \
             (|d| s * d) o reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(x, y) }",
            &[1001],
        ),
        (
            "kernel K<N>(x: [f32; N]) -> [f32; N] { \
             { let m = reduce(max, -1000.0) $ x; let e = map(|v| exp(v - m)) $ x; let s = reduce(+, 0.0) $ e; map(|v| v / s) $ e } }",
            &[77],
        ),
        (
            "kernel K<N, M>(x: [[f32; M]; N], w: f32) -> [[f32; M]; N] { \
             map2(|nbh| w * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x }",
            &[13, 21],
        ),
    ];
    for (i, (text, sizes)) in programs.iter().enumerate() {
        let renamed = hostile(text, 11 + i as u64).unwrap();
        let ran = every_candidate(&renamed, text, sizes, 1);
        assert!(ran >= 1, "no candidate ran: {renamed}");
    }
}

/// The property: random programs of every family, with every name they bind renamed to a
/// hostile one, give the original's result with every candidate (a renamed program the
/// compiler rejects while it compiles the original fails too).
#[test]
fn random_programs_under_hostile_names() {
    const PROGRAMS: u64 = 200;
    let opts = CheckOptions {
        races: false,
        rename: true,
    };
    let outcomes: Vec<(u64, Outcome)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2u64)
            .map(|w| {
                s.spawn(move || {
                    (w..PROGRAMS)
                        .step_by(2)
                        .map(|seed| (seed, diff::check(ctx(), &diff::case(seed, None), opts)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let mut failed = Vec::new();
    let mut agreed = 0;
    for (seed, o) in outcomes {
        match o {
            Outcome::Agree(_) => agreed += 1,
            Outcome::Rejected(_) => {}
            Outcome::Failed(kind, why) => failed.push(format!("seed {seed} ({kind}): {why}")),
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
    assert!(
        agreed as u64 >= PROGRAMS * 8 / 10,
        "only {agreed} of {PROGRAMS} agreed"
    );
}

#[test]
fn the_renamer_renames_everything_it_binds() {
    let text = "fn f(a: f32) -> f32 { a * 2.0 }\n\
                kernel K<N>(x: [f32; N], s: f32) -> [f32; N] { map(|v| f(v) + s) $ x }";
    let bound = |t: &str| rename::bound_names(&parse::parse_program_str(t).unwrap());
    let (vars, sizes) = bound(text);
    for seed in 0..4 {
        let renamed = hostile(text, seed).unwrap();
        let (new_vars, new_sizes) = bound(&renamed);
        assert_eq!((new_vars.len(), new_sizes.len()), (vars.len(), sizes.len()));
        assert!(
            new_vars.is_disjoint(&vars) && new_sizes.is_disjoint(&sizes),
            "{renamed}"
        );
        assert!(every_candidate(&renamed, text, &[5], seed) >= 1);
    }
}
