//! LIFT's language beyond the core (SPEC section 2, "More of LIFT's language"), on the
//! default device against the interpreter: vector constants (an unsuffixed literal splatted
//! where a fold needs a vector), `head`, `tail`, `untile2`, `vectorize` of any arity,
//! `scan_seq`, `reduce_while_seq`, `transpose_w`, `map_lcl` and local memory over size
//! variables, `x[e]` with a run-time index, `map_seq_slide`, `generate`/`generate2`, `filter`.
//! Wide `mirror` padding is tested with the stencils.

use lift_runtime::core::codegen::trace;
use lift_runtime::core::interp::{Scalar, Value};
use lift_runtime::{lift, DynKernel};
use lift_tests::{assert_close, ctx, f32s, interpret, matrix, random_f32};

/// Local memory and `map_lcl` over size variables (through the macro's launcher).
const GROUPS: &str = "kernel K<N, M>(x: [f32; N]) -> [f32; N] {
    join o map_wrg(0, |g| map_lcl(0, |v| v * 2.0) o gather(reverse) o to_local(map_lcl(0, id)) $ g) o split(M) $ x
}";

lift! {
    kernel ReverseGroups<N, M>(x: [f32; N]) -> [f32; N] {
        join o map_wrg(0, |g| map_lcl(0, |v| v * 2.0) o gather(reverse) o to_local(map_lcl(0, id)) $ g) o split(M) $ x
    }
}

/// Compiles `src` at run time, runs kernel `K` at `sizes` and compares with the interpreter.
fn agrees(src: &str, sizes: &[usize], args: &[Value]) -> Vec<f32> {
    let want = f32s(&interpret(src, "K", sizes, args));
    let k = DynKernel::compile(ctx(), src, "K").unwrap_or_else(|e| panic!("{src}: {e}"));
    let got = f32s(&k.run(sizes, args).unwrap_or_else(|e| panic!("{src}: {e}")));
    assert_close(&got, &want, 1e-5, src);
    got
}

/// `[f32x4; n]` of `4 n` floats.
fn vectors(xs: &[f32]) -> Value {
    Value::Array(
        xs.chunks(4)
            .map(|c| Value::Vector(c.iter().map(|v| Scalar::F32(*v)).collect()))
            .collect(),
    )
}

/// Math builtins on vectors with scalar arguments (`max(v, 0.0)`): lane-wise, the scalar
/// broadcast, as in OpenCL; against the interpreter, at sizes of one and several vectors.
#[test]
fn builtins_broadcast_scalars_to_vectors() {
    let src = "
kernel K<N>(x: [f32; N]) -> [f32x4; N / 4] { map(|v| max(v, 0.0) + min(0.5, abs(v)) + fma(v, 2.0, 1.0)) o as_vector(4) $ x }
";
    for n in [4, 36] {
        let x = random_f32(n, n as u64);
        agrees(src, &[n], &[Value::from_f32s(&x)]);
    }
    let ints = "kernel K<N>(x: [i32; N]) -> [i32x2; N / 2] { map(|v| max(v, 3) - min(2, v)) o as_vector(2) $ x }";
    let xs = [Value::Array(
        [-5, 0, 2, 3, 4, 9]
            .iter()
            .map(|v| Value::Scalar(Scalar::I32(*v)))
            .collect(),
    )];
    let want = interpret(ints, "K", &[6], &xs);
    let got = DynKernel::compile(ctx(), ints, "K")
        .expect("compiles")
        .run(&[6], &xs)
        .expect("runs");
    assert_eq!(got.flatten(), want.flatten());
    // max(-5, 3) - min(2, -5) = 8, ..., max(9, 3) - min(2, 9) = 7.
    let first = want.flatten().first().copied();
    assert_eq!(first, Some(Scalar::I32(8)));
}

#[test]
fn vector_zero_accumulators() {
    for n in [1, 7, 64] {
        let x = random_f32(4 * n, n as u64);
        // A vector sum: the accumulator `0.0` is a float4 of zeros.
        let got = agrees(
            "kernel K<N>(x: [f32x4; N]) -> f32x4 { reduce_seq(|a, v| a + v, 0.0) $ x }",
            &[n],
            &[vectors(&x)],
        );
        let lane0: f32 = x.iter().step_by(4).sum();
        assert!((got[0] - lane0).abs() < 1e-4, "{got:?} vs {lane0}");
        // The high-level reduction too, and a per-row vector sum.
        agrees(
            "kernel K<N>(x: [f32x4; N]) -> f32x4 { reduce(+, 0.0) $ x }",
            &[n],
            &[vectors(&x)],
        );
        let rows = random_f32(8 * n, 7);
        agrees(
            "kernel K<N>(x: [[f32x4; 2]; N]) -> [f32x4; N] { map(reduce_seq(|a, v| a + v * 2.0, 1.0)) $ x }",
            &[n],
            &[Value::Array(rows.chunks(8).map(vectors).collect())],
        );
        // A scalar accumulator over vectors stays scalar.
        agrees(
            "kernel K<N>(x: [f32x4; N]) -> f32 { reduce_seq(|s, v| s + 1.0, 0.0) $ x }",
            &[n],
            &[vectors(&x)],
        );
    }
}

/// `head`, `tail` and `untile2`: views, at sizes known and symbolic, alone and under maps.
#[test]
fn head_tail_untile2() {
    for n in [2, 3, 17] {
        let x = random_f32(n, 11);
        let xs = [Value::from_f32s(&x)];
        let got = agrees(
            "kernel K<N>(x: [f32; N]) -> [f32; N - 1] { map(|v| v * 2.0) o tail $ x }",
            &[n],
            &xs,
        );
        assert_eq!(got[0], 2.0 * x[1]);
        let got = agrees(
            "kernel K<N>(x: [f32; N]) -> [f32; 1] { head $ x }",
            &[n],
            &xs,
        );
        assert_eq!(got, [x[0]]);
        // Rows: the tail of every row, and the first row.
        let m = random_f32(n * 5, 12);
        let rows = Value::Array(m.chunks(5).map(Value::from_f32s).collect());
        agrees(
            "kernel K<N>(x: [[f32; 5]; N]) -> [[f32; 4]; N] { map(map(|v| v + 1.0) o tail) $ x }",
            &[n],
            std::slice::from_ref(&rows),
        );
        agrees(
            "kernel K<N>(x: [[f32; 5]; N]) -> [[f32; 5]; 1] { map(map(|v| v + 1.0)) o head $ x }",
            &[n],
            &[rows],
        );
    }
    // `tail` needs two elements: a launch-time precondition for a size variable.
    let k = DynKernel::compile(
        ctx(),
        "kernel K<N>(x: [f32; N]) -> [f32; N - 1] { tail $ x }",
        "K",
    )
    .expect("compiles");
    match k.run(&[1], &[Value::from_f32s(&[1.0])]) {
        Err(lift_runtime::Error::Precondition { .. }) => {}
        other => panic!("tail of one element: {other:?}"),
    }
    // untile2 undoes slide2(ty, ty, tx, tx): tiles of 2 x 3 over a 4 x 9 array.
    let x = random_f32(36, 13);
    let m = Value::Array(x.chunks(9).map(Value::from_f32s).collect());
    let got = agrees(
        "kernel K(x: [[f32; 9]; 4]) -> [[f32; 9]; 4] { untile2 o map2(map2(|v| v * 3.0)) o slide2(2, 2, 3, 3) $ x }",
        &[],
        &[m],
    );
    let want: Vec<f32> = x.iter().map(|v| v * 3.0).collect();
    assert_close(&got, &want, 1e-6, "untile2");
}

/// `vectorize(w, f)` for functions of one to three arguments, user functions included (over
/// a `zip` of vector arrays), with `if` in the body.
#[test]
fn vectorize_any_arity() {
    let src = "
fn neg(x: f32) -> f32 { 0.0 - x }
fn relu(x: f32) -> f32 { if x > 0.0 { x } else { 0.0 } }
fn mul(a: f32, b: f32) -> f32 { a * b }
fn fma3(a: f32, b: f32, c: f32) -> f32 { a * b + c }
kernel K1<N>(x: [f32; N]) -> [f32; N] { as_scalar o map(vectorize(4, |v| neg(v))) o as_vector(4) $ x }
kernel K2<N>(x: [f32; N]) -> [f32; N] { as_scalar o map(vectorize(4, relu)) o as_vector(4) $ x }
kernel K3<N>(x: [f32; N], y: [f32; N]) -> [f32; N] { as_scalar o map(vectorize(4, mul)) $ zip(as_vector(4) $ x, as_vector(4) $ y) }
kernel K4<N>(x: [f32; N], y: [f32; N], z: [f32; N]) -> [f32; N] { as_scalar o map(vectorize(4, fma3)) $ zip(as_vector(4) $ x, as_vector(4) $ y, as_vector(4) $ z) }
kernel K5<N>(x: [f32; N], y: [f32; N]) -> [f32; N] { as_scalar o map(vectorize(2, |a, b| max(a, b) - 1.0)) $ zip(as_vector(2) $ x, as_vector(2) $ y) }
kernel K6<N>(x: [f32; N]) -> [f32; N] { as_scalar o map(vectorize(4, neg)) o as_vector(4) $ x }
";
    for n in [4, 36] {
        let (x, y, z) = (random_f32(n, 21), random_f32(n, 22), random_f32(n, 23));
        let v = |d: &[f32]| Value::from_f32s(d);
        for (k, args) in [
            ("K1", vec![v(&x)]),
            ("K2", vec![v(&x)]),
            ("K3", vec![v(&x), v(&y)]),
            ("K4", vec![v(&x), v(&y), v(&z)]),
            ("K5", vec![v(&x), v(&y)]),
            ("K6", vec![v(&x)]),
        ] {
            let want = f32s(&interpret(src, k, &[n], &args));
            let kern = DynKernel::compile(ctx(), src, k).unwrap_or_else(|e| panic!("{k}: {e}"));
            let got = f32s(&kern.run(&[n], &args).unwrap_or_else(|e| panic!("{k}: {e}")));
            assert_close(&got, &want, 1e-6, k);
        }
        let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a * b).collect();
        let got = f32s(&interpret(src, "K3", &[n], &[v(&x), v(&y)]));
        assert_close(&got, &want, 1e-6, "K3 against Rust");
    }
}

/// `scan_seq(f, z)`: inclusive sequential scans, alone, per row under a parallel map, and
/// followed by a map; sizes 1, primes, composites; every candidate of the explorer.
#[test]
fn scan_seq_matches_the_interpreter() {
    let src = "
kernel R<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map(|row| map(|v| v * 2.0) o scan_seq(|a, v| max(a, v), -100.0) $ row) $ x }
kernel T<N>(x: [i32; N]) -> [(i32, i32); N] { scan_seq(|acc, v| (acc.0 + v, acc.1 + 1), (0, 0)) $ x }
";
    for n in [1, 7, 36] {
        let x = random_f32(n, 31);
        let got = agrees(
            "kernel K<N>(x: [f32; N]) -> [f32; N] { scan_seq(+, 0.0) $ x }",
            &[n],
            &[Value::from_f32s(&x)],
        );
        let mut run = 0.0;
        for (g, v) in got.iter().zip(&x) {
            run += v;
            assert!((g - run).abs() < 1e-4, "prefix sum {g} vs {run}");
        }
        let m = random_f32(n * 5, 32);
        let rows = Value::Array(m.chunks(5).map(Value::from_f32s).collect());
        let want = f32s(&interpret(src, "R", &[n, 5], std::slice::from_ref(&rows)));
        for name in DynKernel::compile(ctx(), src, "R")
            .expect("compiles")
            .candidates()
            .to_vec()
        {
            let k = DynKernel::compile_candidate(ctx(), src, "R", Some(&name)).expect("candidate");
            let got = f32s(&k.run(&[n, 5], std::slice::from_ref(&rows)).expect("runs"));
            assert_close(&got, &want, 1e-6, &name);
        }
        let xi: Vec<i32> = (0..n as i32).map(|i| i * 3 - 7).collect();
        let xs = [Value::Array(
            xi.iter().map(|v| Value::Scalar(Scalar::I32(*v))).collect(),
        )];
        let want = interpret(src, "T", &[n], &xs);
        let got = DynKernel::compile(ctx(), src, "T")
            .expect("compiles")
            .run(&[n], &xs)
            .expect("runs");
        assert_eq!(got.flatten(), want.flatten(), "T N={n}");
    }
}

/// `map_lcl` over a size variable (a loop strided by the local size) and local memory sized by
/// one (a `__local` pointer parameter sized at launch), race-free, through `DynKernel` and the
/// macro's launcher.
#[test]
fn symbolic_sizes_inside_work_groups() {
    let k = DynKernel::compile(ctx(), GROUPS, "K").expect("compiles");
    assert!(k.source().contains("local float* tmp_l"), "{}", k.source());
    let traced = DynKernel::compile_traced(
        ctx(),
        GROUPS,
        "K",
        None,
        trace::Options {
            trace: true,
            drop_barrier: None,
        },
    )
    .expect("traced");
    let macro_k = ReverseGroups::new(ctx()).expect("builds");
    for (n, m) in [(7, 7), (30, 5), (300, 100), (1, 1)] {
        let x = random_f32(n, 41);
        let args = [Value::from_f32s(&x)];
        agrees(GROUPS, &[n, m], &args);
        let (got, races) = traced.check_races(&[n, m], &args).expect("runs traced");
        assert!(races.is_empty(), "{races:?}");
        let want: Vec<f32> = x
            .chunks(m)
            .flat_map(|g| g.iter().rev().map(|v| v * 2.0))
            .collect();
        assert_close(&f32s(&got), &want, 1e-6, "traced");
        assert_close(&macro_k.run(n, m, &x).expect("runs"), &want, 1e-6, "macro");
    }
}

/// Runs the default and then every candidate of `kernel` of `src` at `sizes` on `arg` against
/// `gold`. A candidate with launch-time conditions of its own (a vector width dividing the
/// length) may refuse the sizes with `Err(Precondition)`; the default applies to every size.
fn every_candidate(src: &str, kernel: &str, sizes: &[usize], arg: &Value, gold: &[f32], tol: f32) {
    let whole = DynKernel::compile(ctx(), src, kernel).expect("compiles");
    let args = std::slice::from_ref(arg);
    let got = f32s(&whole.run(sizes, args).expect("the default runs"));
    assert_close(&got, gold, tol, &format!("{kernel} default {sizes:?}"));
    for name in whole.candidates() {
        let k = DynKernel::compile_candidate(ctx(), src, kernel, Some(name)).expect("candidate");
        let got = match k.run(sizes, args) {
            Ok(v) => f32s(&v),
            Err(lift_runtime::Error::Precondition { .. })
                if k.preconditions().len() > whole.preconditions().len() =>
            {
                continue
            }
            Err(e) => panic!("{kernel} {name} {sizes:?}: {e}"),
        };
        assert_close(&got, gold, tol, &format!("{kernel} {name} {sizes:?}"));
    }
}

/// `x[e]` with an index computed at run time (clamped into the array), as a gather through an
/// index array, from values, on rows of a matrix; static indices stay static.
#[test]
fn dynamic_indices() {
    let src = "
kernel G<N, M>(x: [f32; N], ids: [i32; M]) -> [f32; M] { map(|i| x[i] * 2.0) $ ids }
kernel H<N>(x: [f32; N]) -> [f32; N] { map(|v| x[(v * 4.0) as i32 + 1] - v + x[N - 1]) $ x }
kernel R<N>(a: [[f32; 4]; N], ids: [i32; N]) -> [f32; N] { map(|p| p.0[p.1 % 4]) $ zip(a, ids) }
";
    for (n, m) in [(1, 3), (7, 11), (64, 5)] {
        let x = random_f32(n, 51);
        let ids: Vec<i32> = (0..m as i32).map(|i| i * 5 - 3).collect();
        let ids_v = Value::Array(ids.iter().map(|v| Value::Scalar(Scalar::I32(*v))).collect());
        let run = |k: &str, sizes: &[usize], args: &[Value]| {
            let want = f32s(&interpret(src, k, sizes, args));
            let dk = DynKernel::compile(ctx(), src, k).unwrap_or_else(|e| panic!("{k}: {e}"));
            let got = f32s(&dk.run(sizes, args).unwrap_or_else(|e| panic!("{k}: {e}")));
            assert_close(&got, &want, 1e-6, k);
            got
        };
        let got = run("G", &[n, m], &[Value::from_f32s(&x), ids_v.clone()]);
        for (g, i) in got.iter().zip(&ids) {
            assert_eq!(
                *g,
                2.0 * x[(*i).clamp(0, n as i32 - 1) as usize],
                "clamped gather"
            );
        }
        run("H", &[n], &[Value::from_f32s(&x)]);
        let a = random_f32(n * 4, 52);
        let rows = Value::Array(a.chunks(4).map(Value::from_f32s).collect());
        let row_ids = Value::Array(
            (0..n as i32)
                .map(|i| Value::Scalar(Scalar::I32(i * 3)))
                .collect(),
        );
        run("R", &[n], &[rows, row_ids]);
    }
}

/// `reduce_while_seq(f, p, z)` (the fold stops at the first element failing `p`), alone and per
/// row, and `transpose_w` (a transpose).
#[test]
fn reduce_while_and_transpose_w() {
    let src = "
kernel W<N>(x: [f32; N]) -> f32 { reduce_while_seq(+, |v| v > -0.5, 0.0) $ x }
kernel R<N, M>(x: [[f32; M]; N]) -> [f32; N] { map(reduce_while_seq(|a, v| a + v * v, |v| v < 0.9, 1.0)) $ x }
kernel T<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] { transpose_w o map(map(|v| v * 2.0)) $ x }
";
    for n in [1, 5, 64] {
        let x = random_f32(n, 61);
        let args = [Value::from_f32s(&x)];
        let want: f32 = x.iter().take_while(|v| **v > -0.5).sum();
        let k = DynKernel::compile(ctx(), src, "W").expect("compiles");
        let got = f32s(&k.run(&[n], &args).expect("runs"));
        assert_close(&got, &[want], 1e-5, "W");
        assert_close(&got, &f32s(&interpret(src, "W", &[n], &args)), 1e-5, "W");
        let m = random_f32(n * 7, 62);
        let rows = [Value::Array(m.chunks(7).map(Value::from_f32s).collect())];
        for kern in ["R", "T"] {
            let want = f32s(&interpret(src, kern, &[n, 7], &rows));
            let k = DynKernel::compile(ctx(), src, kern).expect("compiles");
            let got = f32s(&k.run(&[n, 7], &rows).expect("runs"));
            assert_close(&got, &want, 1e-5, kern);
        }
    }
}

/// `map_seq_slide(f, size, step)` computes `map_seq(f) o slide(size, step)`: windows wider
/// than the step (kept and rotated), equal to it, narrower (elements skipped), windows of
/// rows, inside a parallel map, and the explorer's sliding strips of 2-D and 3-D stencils
/// (every candidate of each against the interpreter, sizes not multiples of the strips).
#[test]
fn map_seq_slide_matches_map_of_slide() {
    for (size, step) in [(3, 1), (4, 2), (2, 2), (2, 3), (1, 1)] {
        let src = format!(
            "kernel K<N>(x: [f32; N]) -> [f32; (N - {size}) / {step} + 1] {{ map_seq_slide(|w| w[0] * 2.0 - w[{}] + (reduce_seq(+, 0.0) $ w), {size}, {step}) $ x }}",
            size - 1
        );
        for n in [size, size + 5 * step, size + 17 * step] {
            let x = random_f32(n, 41);
            let got = agrees(&src, &[n], &[Value::from_f32s(&x)]);
            let want: Vec<f32> = x
                .windows(size)
                .step_by(step)
                .map(|w| w[0] * 2.0 - w[size - 1] + w.iter().sum::<f32>())
                .collect();
            assert_close(&got, &want, 1e-4, &src);
        }
    }
    let rows = "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N - 2] { transpose o map_glb(0, map_seq_slide(|w| reduce_seq(+, 0.0) $ w, 3, 1)) o transpose $ x }";
    let m = random_f32(9 * 7, 42);
    agrees(rows, &[9, 7], &[matrix(&m, 9)]);
    let stencils = "
kernel J2<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
    map(map(|w| (w[0][1] + w[1][0] + w[1][1] + w[1][2] + w[2][1]) * 0.2)) o slide2(3, 1) o pad2(1, clamp) $ x
}
kernel J3<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] {
    map3(|w| w[0][1][1] + w[1][0][1] + w[1][1][0] + w[1][1][1] * 2.0 + w[1][1][2] + w[1][2][1] + w[2][1][1]) o slide3(3, 1) o pad3(1, mirror) $ x
}
";
    for (kernel, sizes) in [
        ("J2", vec![19, 5]),
        ("J2", vec![64, 3]),
        ("J3", vec![17, 4, 6]),
    ] {
        let len: usize = sizes.iter().product();
        let x = random_f32(len, 43);
        let arg = match sizes.as_slice() {
            [n, _] => matrix(&x, *n),
            _ => Value::Array(
                x.chunks(sizes[1] * sizes[2])
                    .map(|p| matrix(p, sizes[1]))
                    .collect(),
            ),
        };
        let want = f32s(&interpret(
            stencils,
            kernel,
            &sizes,
            std::slice::from_ref(&arg),
        ));
        let names = DynKernel::compile(ctx(), stencils, kernel)
            .expect("compiles")
            .candidates()
            .to_vec();
        let slides: Vec<&String> = names.iter().filter(|c| c.starts_with("slides")).collect();
        assert_eq!(slides.len(), 6, "{kernel}: {names:?}");
        for name in slides {
            let k = DynKernel::compile_candidate(ctx(), stencils, kernel, Some(name))
                .expect("candidate");
            if !k.applies(&sizes) {
                continue;
            }
            assert!(
                k.source().contains("for (lift_idx i_"),
                "{name}: {}",
                k.source()
            );
            let got = f32s(&k.run(&sizes, std::slice::from_ref(&arg)).expect("runs"));
            assert_close(&got, &want, 1e-4, &format!("{kernel} {name} {sizes:?}"));
        }
    }
}

/// `generate(n, f)` and `generate2(n, m, f)` (arrays computed from their indices, sizes from
/// size variables or constants), alone and zipped with an input, every candidate against a
/// plain-Rust gold.
#[test]
fn generate_from_indices() {
    let src = "
kernel G1<N>(x: [f32; N]) -> [f32; N] { map(|p| p.0 * p.1) $ zip(x, generate(N, |i| (i as f32) * 0.5)) }
kernel G2<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|p| p.0 + p.1) $ zip2(x, generate2(N, M, |i, j| (i * 100 + j) as f32)) }
kernel G3<N>(x: [f32; N]) -> [f32; 4] { generate(4, |i| x[i * 2] + 1.0) }
kernel G4<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map(|(r, g)| map(|(a, b)| a + b) $ zip(r, g)) $ zip(x, generate2(N, M, |i, j| (i * 100 + j) as f32)) }
";
    // Zipped with an input, `generate2` is computed where it is read, on a 2-D grid (both
    // spellings): no stored array, no single work-item.
    let prog = lift_runtime::core::parse::parse_program_str(src).expect("parses");
    for k in ["G2", "G4"] {
        let c = lift_runtime::core::driver::compile_kernel(&prog, k).expect("compiles");
        let g = &c.candidates[0].generated;
        assert!(g.temporaries.is_empty(), "{k}: {}", g.lowered);
        assert!(g.lowered.starts_with("map_glb(1, "), "{k}: {}", g.lowered);
    }
    for (n, m) in [(1, 1), (7, 3), (33, 5)] {
        let x = random_f32(n * m, 51);
        let cases: Vec<(&str, Vec<usize>, Value, Vec<f32>)> = vec![
            (
                "G1",
                vec![n],
                Value::from_f32s(&x[..n]),
                (0..n).map(|i| x[i] * (i as f32 * 0.5)).collect(),
            ),
            (
                "G2",
                vec![n, m],
                matrix(&x, n),
                (0..n * m)
                    .map(|k| x[k] + ((k / m) * 100 + k % m) as f32)
                    .collect(),
            ),
            (
                "G4",
                vec![n, m],
                matrix(&x, n),
                (0..n * m)
                    .map(|k| x[k] + ((k / m) * 100 + k % m) as f32)
                    .collect(),
            ),
            (
                "G3",
                vec![n],
                Value::from_f32s(&x[..n]),
                (0..4).map(|i| x[(2 * i).min(n - 1)] + 1.0).collect(),
            ),
        ];
        for (kernel, sizes, arg, gold) in cases {
            let want = f32s(&interpret(src, kernel, &sizes, std::slice::from_ref(&arg)));
            assert_close(&want, &gold, 1e-6, kernel);
            every_candidate(src, kernel, &sizes, &arg, &gold, 1e-6);
        }
    }
}

lift! {
    /// `filter` in a compiled program: `run` checks the indices.
    kernel Gather<N, M>(x: [f32; N], ids: [i32; M]) -> [f32; M] { map(|v| v * 2.0) $ filter(x, ids) }
}

/// `filter(x, ids)` is `x[ids[i]]`: on a parameter, through a map (moved out), on a view, and
/// on computed data (bound first); every candidate against a plain-Rust gold; an index out
/// of range is an `Err` of `run` naming it (compiled and run-time programs alike).
#[test]
fn filter_gathers_by_index() {
    let src = "
kernel F<N, M>(x: [f32; N], ids: [i32; M]) -> [f32; M] { filter(x, ids) }
kernel F2<N, M>(x: [f32; N], ids: [i32; M]) -> [f32; M] { map(|v| v * 2.0) $ filter(map(|v| v + 1.0) $ x, ids) }
kernel F3<N, M>(x: [[f32; N]; N], ids: [i32; M]) -> [[f32; N]; M] { filter(transpose $ x, ids) }
kernel F4<N, M>(x: [f32; N], ids: [i32; M]) -> [f32; M] { filter(scan_seq(+, 0.0) $ x, ids) }
";
    for (n, m) in [(1, 1), (5, 9), (17, 4)] {
        let x = random_f32(n * n, 61);
        let ids: Vec<i32> = (0..m).map(|i| ((i * 7 + 3) % n) as i32).collect();
        let idv = Value::Array(ids.iter().map(|&i| Value::Scalar(Scalar::I32(i))).collect());
        let v = Value::from_f32s(&x[..n]);
        let prefix: Vec<f32> = x[..n]
            .iter()
            .scan(0.0, |s, v| {
                *s += v;
                Some(*s)
            })
            .collect();
        let cases: Vec<(&str, Value, Vec<f32>)> = vec![
            ("F", v.clone(), ids.iter().map(|&i| x[i as usize]).collect()),
            (
                "F2",
                v.clone(),
                ids.iter().map(|&i| (x[i as usize] + 1.0) * 2.0).collect(),
            ),
            (
                "F3",
                matrix(&x, n),
                ids.iter()
                    .flat_map(|&i| (0..n).map(move |r| (i as usize, r)))
                    .map(|(c, r)| x[r * n + c])
                    .collect(),
            ),
            (
                "F4",
                v.clone(),
                ids.iter().map(|&i| prefix[i as usize]).collect(),
            ),
        ];
        for (kernel, arg, gold) in cases {
            let args = [arg, idv.clone()];
            let want = f32s(&interpret(src, kernel, &[n, m], &args));
            assert_close(&want, &gold, 1e-5, kernel);
            let names = DynKernel::compile(ctx(), src, kernel)
                .expect("compiles")
                .candidates()
                .to_vec();
            for name in names {
                let k = DynKernel::compile_candidate(ctx(), src, kernel, Some(&name))
                    .expect("candidate");
                let got = f32s(&k.run(&[n, m], &args).expect("runs"));
                assert_close(&got, &gold, 1e-5, &format!("{kernel} {name} {n}x{m}"));
            }
        }
    }
    // An index out of range: an error naming it, from run-time and compiled programs.
    let bad = [0i32, 2, 7, 1];
    let k = DynKernel::compile(ctx(), src, "F").expect("compiles");
    let args = [
        Value::from_f32s(&[1.0, 2.0, 3.0]),
        Value::Array(bad.iter().map(|&i| Value::Scalar(Scalar::I32(i))).collect()),
    ];
    let e = k.run(&[3, 4], &args).expect_err("index 7 of 3");
    assert!(
        e.to_string().contains("ids[2]") && e.to_string().contains('7'),
        "{e}"
    );
    let g = Gather::new(ctx()).expect("builds");
    let e = g
        .run(3, 4, &[1.0, 2.0, 3.0], &bad)
        .expect_err("index 7 of 3");
    assert!(
        e.to_string().contains("ids[2]") && e.to_string().contains('7'),
        "{e}"
    );
    assert_eq!(
        g.run(3, 2, &[1.0, 2.0, 3.0], &[2, 0]).expect("runs"),
        vec![6.0, 2.0]
    );
}

/// Array constants `[e; n]` (nested for more dimensions): the initial value of private array
/// accumulators, and arrays zipped with data.
#[test]
fn array_constants() {
    let src = "
kernel C<N>(x: [[f32; 4]; N]) -> [f32; 4] { reduce_seq(|acc, row| map(|p| p.0 + p.1) $ zip(acc, row), [0.0; 4]) $ x }
kernel D<N>(x: [f32; N]) -> [[f32; 2]; 3] { reduce_seq(|acc, v| map(|r| map(|e| e + v) $ r) $ acc, [[1.0; 2]; 3]) $ x }
kernel R<N>(x: [[f32; 3]; N]) -> [[f32; 3]; N] { map(|row| map(|p| p.0 * p.1) $ zip(row, [2.0; 3])) $ x }
";
    for n in [1, 6, 19] {
        let x = random_f32(n * 4, 71);
        let cols: Vec<f32> = (0..4).map(|c| (0..n).map(|r| x[r * 4 + c]).sum()).collect();
        let total = 1.0 + x[..n].iter().sum::<f32>();
        let cases: Vec<(&str, Value, Vec<f32>)> = vec![
            ("C", matrix(&x, n), cols),
            ("D", Value::from_f32s(&x[..n]), vec![total; 6]),
            (
                "R",
                matrix(&x[..n * 3], n),
                x[..n * 3].iter().map(|v| v * 2.0).collect(),
            ),
        ];
        for (kernel, arg, gold) in cases {
            let want = f32s(&interpret(src, kernel, &[n], std::slice::from_ref(&arg)));
            assert_close(&want, &gold, 1e-4, kernel);
            every_candidate(src, kernel, &[n], &arg, &gold, 1e-4);
        }
    }
}

/// Inside `vectorize`, a cast from or to `bool` has no vector form (there are no vectors of
/// bool): an `Err` naming it, never an OpenCL build failure.
#[test]
fn bool_cast_inside_vectorize_is_an_error() {
    let src = "kernel K<N>(x: [f32; N]) -> [f32; N] { as_scalar o map(vectorize(4, |v| (v > 0.0) as f32)) o as_vector(4) $ x }";
    let e = DynKernel::compile(ctx(), src, "K").expect_err("no vector of bool");
    assert!(
        e.to_string()
            .contains("cast of bool to f32 inside `vectorize`"),
        "{e}"
    );
    // The same function on scalars runs.
    let scalar = "kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| (v > 0.0) as f32) $ x }";
    let got = agrees(
        scalar,
        &[5],
        &[Value::from_f32s(&[-1.0, 2.0, 0.0, 3.0, -0.5])],
    );
    assert_eq!(got, [0.0, 1.0, 0.0, 1.0, 0.0]);
}
