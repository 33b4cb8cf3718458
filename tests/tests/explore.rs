//! Every candidate the explorer derives, launched on the default device against the
//! reference interpreter, at sizes that are and are not multiples of the tiles and strips
//! (sizes 1, primes, composites). A candidate whose conditions fail for the sizes must be
//! refused by `launch_candidate`, never run.

use lift_runtime::core::interp::{Scalar, Value};
use lift_runtime::{lift, Error};
use lift_tests::{assert_close, ctx, f32s, interpret, matrix, random_f32};

lift! {
    /// 5-point stencil, clamped borders.
    kernel Jacobi<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
    }
    /// The README's 3-point blur, clamped borders (1-D sliding strips when tuned).
    kernel Blur3<N>(x: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x
    }
    /// A 5-point window without padding: the output is shorter than the input.
    kernel Window5<N>(x: [f32; N + 4]) -> [f32; N] {
        map(|w| w[0] - 0.5 * w[2] + w[4] * w[3]) o slide(5, 1) $ x
    }
    /// 17 rows by one column (the column pass of a separable convolution), mirrored.
    kernel Column<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| nbh[0][0] - 2.0 * nbh[8][0] + 0.5 * nbh[16][0]) o slide2(17, 1, 1, 1) o pad2(8, 8, 0, 0, mirror) $ x
    }
    /// 7-point 3-D Jacobi, clamped borders.
    kernel Jacobi3d<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] {
        map3(|nbh| 0.142857 * (nbh[0][1][1] + nbh[1][0][1] + nbh[1][1][0] + nbh[1][1][1] + nbh[1][1][2] + nbh[1][2][1] + nbh[2][1][1])) o slide3(3, 1) o pad3(1, clamp) $ x
    }
    /// Matrix product.
    kernel Gemm<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) o transpose $ b) $ a
    }
    /// The 5-point stencil spelled with nested 1-D primitives (normalised to `slide2`/`pad2`).
    kernel JacobiNested<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map(|rows| map(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o transpose o map(slide(3, 1)) $ rows) o slide(3, 1) o pad(1, 1, clamp) o map(pad(1, 1, clamp)) $ x
    }
    /// A producer map inside a zip, behind a reversal (normalised to one fused map).
    kernel ZipComputed<N>(x: [f32; N], y: [f32; N]) -> [f32; N] {
        map(|(a, b)| a - b * b) $ zip(x, gather(reverse) o map(|v| v + 1.0) $ y)
    }
    /// Matrix product as one sequential fold over the pairs (a fold that is not `op o g`).
    kernel GemmFold<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce_seq(|acc, (x, y)| acc + x * y - 0.25 * acc, 0.5) $ zip(r, c)) $ transpose $ b) $ a
    }
    /// Matrix-vector product.
    kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
        map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a
    }
    /// Matrix-vector product of a matrix given transposed, `max` of products.
    kernel GemvT<N, M>(mt: [[f32; N]; M], x: [f32; M]) -> [f32; N] {
        map(|col| reduce(max, -1000.0) o map(|p| p.0 * p.1) $ zip(col, x)) $ transpose $ mt
    }
    /// Matrix product with an epilogue around the fold (`alpha * dot + 1`).
    kernel GemmEpi<N, K, M>(alpha: f32, a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|r| map(|c| alpha * (reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) + 1.0) $ transpose $ b) $ a
    }
    /// Row norms: an epilogue around each row's reduction.
    kernel RowNorm<N, M>(a: [[f32; M]; N]) -> [f32; N] {
        map(|row| sqrt(reduce(+, 0.0) o map(|v| v * v) $ row)) $ a
    }
    /// A scaled dot product, the epilogue composed in front of the reduction.
    kernel ScaledDot<N>(alpha: f32, x: [f32; N], y: [f32; N]) -> f32 {
        (|s| alpha * s) o reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(x, y)
    }
    /// A mean, the epilogue a `let` around the reduction.
    kernel Mean<N>(x: [f32; N]) -> f32 {
        { let s = reduce(+, 0.0) $ x; s / 3.0 }
    }
    /// Three computing stages no rule fuses (maps under `constant` pads): three kernels.
    kernel Chain3<N>(x: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, constant(0.5)) o map(reduce(max, -100.0)) o slide(3, 1) o pad(1, 1, constant(0.0)) o map(|v| v * v - 0.5) $ x
    }
    /// Row sums, then a stencil over them with a constant border: two kernels, the first a
    /// row reduction.
    kernel RowsThenStencil<N, M>(a: [[f32; M]; N]) -> [f32; N] {
        map(|w| w[0] - w[2]) o slide(3, 1) o pad(1, 1, constant(1.0)) o map(reduce(+, 0.0)) $ a
    }
    /// A sum used by every element: hoisted out of the map, then two stages.
    kernel Normalise<N>(v: [f32; N]) -> [f32; N] {
        map(|x| x / (1.0 + (reduce(+, 0.0) o map(|y| y * y) $ v))) $ v
    }
    /// The same per row: row sums, then the whole matrix in parallel.
    kernel RowNormalise<N, M>(a: [[f32; M]; N]) -> [[f32; M]; N] {
        map(|row| map(|v| v - (reduce(max, -1000.0) $ row)) $ row) $ a
    }
    /// A shape-preserving `iterate`: one kernel per step.
    kernel Smooth<N>(x: [f32; N]) -> [f32; N] {
        iterate(3, map(|w| 0.25 * w[0] + 0.5 * w[1] + 0.25 * w[2]) o slide(3, 1) o pad(1, 1, clamp)) $ x
    }
    /// A low-level `iterate` over `map_glb` (LIFT's test of a shrinking body): one kernel per
    /// step, never both steps in one kernel (a race).
    kernel IterGrid<N>(x: [f32; N + 4]) -> [f32; N] {
        iterate(2, map_glb(0, to_global(id) o reduce_seq(+, 0.0)) o slide(3, 1)) $ x
    }
    /// Only a view: a copy through local tiles, or a parallel copy.
    kernel Transpose<N, M>(a: [[f32; M]; N]) -> [[f32; N]; M] {
        transpose $ a
    }
    /// A 3-D stencil spelled with nested 1-D `pad`/`slide`/`map`: normalised to
    /// `slide3`/`pad3`, so it gets the strips of the canonical spelling.
    kernel Jacobi3dNested<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] {
        map(|planes| map(|rows| map(|c| c[0][1][1] + c[1][1][1] - c[2][1][1] + c[1][0][1] * c[1][2][1] + c[1][1][0] - c[1][1][2]) o transpose o map(transpose) o map(map(slide(3, 1))) $ rows) o transpose o map(slide(3, 1)) $ planes) o slide(3, 1) o pad(1, 1, clamp) o map(pad(1, 1, clamp)) o map(map(pad(1, 1, clamp))) $ x
    }
    /// BLAS `sgemm`: `alpha * A·B + beta * C`, C zipped with the rows.
    kernel Sgemm<N, K, M>(alpha: f32, beta: f32, a: [[f32; K]; N], b: [[f32; M]; K], c: [[f32; M]; N]) -> [[f32; M]; N] {
        map(|(ra, rc)| map(|(cb, x)| alpha * (reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(ra, cb)) + beta * x) $ zip(transpose $ b, rc)) $ zip(a, c)
    }
    /// Softmax written with `let`s: four stages.
    kernel Softmax<N>(x: [f32; N]) -> [f32; N] {
        { let m = reduce(max, -1000000.0) $ x; let e = map(|v| exp(v - m)) $ x; let s = reduce(+, 0.0) $ e; map(|v| v / s) $ e }
    }
    /// Column sums, the transpose composed after the map.
    kernel ColSum<N, M>(a: [[f32; M]; N]) -> [f32; M] {
        map(reduce(+, 0.0)) o transpose $ a
    }
    /// Matrix product with the second operand transposed, `max` of sums (not a `+` fold).
    kernel GemmNt<N, K, M>(a: [[f32; K]; N], bt: [[f32; K]; M]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(max, -1000.0) o map(|p| p.0 + p.1) $ zip(r, c)) $ bt) $ a
    }
    /// Matrix product with a bias per column zipped with the columns and ReLU (the
    /// epilogue reads the column's other component).
    kernel GemmBias<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K], bias: [f32; M]) -> [[f32; M]; N] {
        map(|r| map(|cb| max(0.0, cb.1 + (reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, cb.0))))
            $ zip(transpose $ b, bias)) $ a
    }
    /// Matrix product with the first operand given transposed (`Aᵀ·B`).
    kernel GemmTn<N, K, M>(a_t: [[f32; N]; K], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(+, 0.0) o map(|(x, y)| x * y) $ zip(r, c)) $ transpose $ b) $ transpose $ a_t
    }
}

/// A 3-D array value of `n` planes of `m` rows from row-major data.
fn cube(data: &[f32], n: usize, m: usize) -> Value {
    let plane = data.len() / n.max(1);
    Value::Array(data.chunks(plane.max(1)).map(|p| matrix(p, m)).collect())
}

/// The names of kernel struct `$k`'s candidates, in the explorer's order.
macro_rules! names {
    ($k:ident) => {
        $k::new(ctx())
            .unwrap()
            .candidates()
            .unwrap()
            .iter()
            .map(|c| c.name.clone())
            .collect::<Vec<String>>()
    };
}

/// Runs every candidate of kernel struct `$k` at sizes `$s` with `$launch(k, c, out)`
/// against `$want`; gives the names of the candidates that ran.
macro_rules! each_candidate {
    ($k:ident, [$($s:expr),*], $want:expr, $launch:expr) => {{
        let k = $k::new(ctx()).unwrap();
        let cands = k.candidates().unwrap();
        let mut ran = Vec::new();
        for c in 0..cands.len() {
            let out = ctx().alloc::<f32>($want.len()).unwrap();
            match ($launch)(&k, c, &out) {
                Ok(ev) => {
                    let ev: lift_runtime::Event = ev;
                    ev.wait().unwrap();
                    let what = format!("{} {}: {:?}", stringify!($k), cands[c].name, [$($s),*]);
                    assert_close(&out.download().unwrap(), $want, 1e-4, &what);
                    ran.push(cands[c].name.clone());
                }
                Err(Error::Launch { reason }) if reason.contains("does not apply") => {
                    assert!(!cands[c].conditions.is_empty());
                }
                Err(e) => panic!("{} {}: {e}", stringify!($k), cands[c].name),
            }
        }
        ran
    }};
}

/// Runs every candidate of a one-input kernel struct `$k` at sizes `$sizes` (an array
/// expression) with input `$x` against `$want`; gives how many candidates ran.
macro_rules! each_candidate_1 {
    ($k:ident, [$($s:expr),*], $x:expr, $want:expr) => {{
        let x = ctx().upload($x).unwrap();
        each_candidate!($k, [$($s),*], $want, |k: &$k, c, out| k
            .launch_candidate(c, $($s,)* &x, out))
        .len()
    }};
}

#[test]
fn every_stencil_candidate_matches_the_interpreter() {
    assert!(names!(Jacobi).iter().any(|c| c.starts_with("strips")));
    for (n, m) in [(1, 1), (7, 5), (9, 13), (16, 16), (31, 17), (33, 8)] {
        let x = random_f32(n * m, (n * 100 + m) as u64);
        for (lift, name) in [(Jacobi::LIFT, "Jacobi"), (Column::LIFT, "Column")] {
            if name == "Column" && n < 9 {
                continue; // mirror padding of 8 needs at least 8 rows
            }
            let want = f32s(&interpret(lift, name, &[n, m], &[matrix(&x, n)]));
            let ran = if name == "Jacobi" {
                each_candidate_1!(Jacobi, [n, m], &x, &want)
            } else {
                each_candidate_1!(Column, [n, m], &x, &want)
            };
            assert!(ran >= 2, "{name} {n}x{m}: only {ran} candidates ran");
        }
    }
}

/// 1-D stencils: every candidate, the sliding strips among them (a window walked in private
/// memory, padded or exact), at sizes that are and are not multiples of the strips.
#[test]
fn every_1d_stencil_candidate_matches_the_interpreter() {
    assert!(names!(Blur3).iter().any(|c| c.starts_with("slides")));
    assert!(names!(Window5).iter().any(|c| c.starts_with("slides")));
    for n in [1, 2, 3, 17, 64, 1000, 4099] {
        let x = random_f32(n, n as u64 + 7);
        let want = f32s(&interpret(
            Blur3::LIFT,
            "Blur3",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        let ran = each_candidate_1!(Blur3, [n], &x, &want);
        assert!(ran >= 2, "Blur3 {n}: only {ran} candidates ran");
        let x = random_f32(n + 4, n as u64 + 9);
        let want = f32s(&interpret(
            Window5::LIFT,
            "Window5",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        let ran = each_candidate_1!(Window5, [n], &x, &want);
        assert!(ran >= 2, "Window5 {n}: only {ran} candidates ran");
    }
}

/// Spellings that normalisation rewrites: every candidate still computes the source's function.
#[test]
fn normalised_spellings_match_the_interpreter() {
    assert!(names!(JacobiNested).iter().any(|c| c.starts_with("strips")));
    for (n, m) in [(1, 1), (7, 5), (16, 16), (33, 8)] {
        let x = random_f32(n * m, (n * 10 + m) as u64);
        let want = f32s(&interpret(
            JacobiNested::LIFT,
            "JacobiNested",
            &[n, m],
            &[matrix(&x, n)],
        ));
        let ran = each_candidate_1!(JacobiNested, [n, m], &x, &want);
        assert!(ran >= 2, "{n}x{m}: only {ran} candidates ran");
    }
    let k = ZipComputed::new(ctx()).unwrap();
    for n in [1, 2, 17, 1000] {
        let (x, y) = (random_f32(n, 7), random_f32(n, 8));
        let want = f32s(&interpret(
            ZipComputed::LIFT,
            "ZipComputed",
            &[n],
            &[Value::from_f32s(&x), Value::from_f32s(&y)],
        ));
        assert_close(
            &k.run(n, &x, &y).unwrap(),
            &want,
            1e-6,
            &format!("ZipComputed {n}"),
        );
    }
    // One fused, parallel map: no temporary, no single work-item.
    assert!(
        !ZipComputed::SOURCE.contains("tmp_"),
        "{}",
        ZipComputed::SOURCE
    );
    assert!(
        ZipComputed::LOWERED.starts_with("map_glb(0, "),
        "{}",
        ZipComputed::LOWERED
    );
}

#[test]
fn every_3d_stencil_candidate_matches_the_interpreter() {
    for (n, m, l) in [(1, 1, 1), (4, 5, 7), (5, 3, 9), (8, 8, 3)] {
        let x = random_f32(n * m * l, (n * 100 + m * 10 + l) as u64);
        let want = f32s(&interpret(
            Jacobi3d::LIFT,
            "Jacobi3d",
            &[n, m, l],
            &[cube(&x, n, m)],
        ));
        let ran = each_candidate_1!(Jacobi3d, [n, m, l], &x, &want);
        assert!(ran >= 2, "{n}x{m}x{l}: only {ran} candidates ran");
    }
}

/// Epilogues around a reduction (`alpha * dot`, `sqrt(sum)`, `let s = sum; s / 3`) keep the
/// parallel strategies: blocked products, row reductions, two-kernel reductions.
#[test]
fn epilogues_keep_the_parallel_candidates() {
    let alpha = 0.75f32;
    let s = || Value::Scalar(Scalar::F32(alpha));
    for (n, kk, m) in [(17, 16, 33), (9, 17, 5)] {
        let (a, b) = (random_f32(n * kk, 31), random_f32(kk * m, 32));
        let want = f32s(&interpret(
            GemmEpi::LIFT,
            "GemmEpi",
            &[n, kk, m],
            &[s(), matrix(&a, n), matrix(&b, kk)],
        ));
        let (da, db) = (ctx().upload(&a).unwrap(), ctx().upload(&b).unwrap());
        let ran = each_candidate!(GemmEpi, [n, kk, m], &want, |k: &GemmEpi, c, out| k
            .launch_candidate(c, n, kk, m, alpha, &da, &db, out));
        assert!(
            ran.iter().any(|c| c.starts_with("blocked"))
                && ran.iter().any(|c| c.starts_with("stages(kernels=2")),
            "{n}x{kk}x{m}: {ran:?}"
        );
    }
    for (n, m) in [(1, 1), (70, 129), (5, 1000)] {
        let a = random_f32(n * m, 33);
        let want = f32s(&interpret(
            RowNorm::LIFT,
            "RowNorm",
            &[n, m],
            &[matrix(&a, n)],
        ));
        let da = ctx().upload(&a).unwrap();
        let ran = each_candidate!(RowNorm, [n, m], &want, |k: &RowNorm, c, out| k
            .launch_candidate(c, n, m, &da, out));
        // The derived row reductions (a work-group per row where rows have 256 elements).
        let tree = ran.iter().any(|c| c == "tree(rows=1,wg=256)");
        assert_eq!(tree, m >= 256, "{n}x{m}: {ran:?}");
    }
    for n in [1, 1000, 100_003] {
        let (x, y) = (random_f32(n, 34), random_f32(n, 35));
        let args = [s(), Value::from_f32s(&x), Value::from_f32s(&y)];
        let want = f32s(&interpret(ScaledDot::LIFT, "ScaledDot", &[n], &args));
        let (dx, dy) = (ctx().upload(&x).unwrap(), ctx().upload(&y).unwrap());
        let ran = each_candidate!(ScaledDot, [n], &want, |k: &ScaledDot, c, out| k
            .launch_candidate(c, n, alpha, &dx, &dy, out));
        assert_eq!(
            ran.iter().any(|c| c == "tree(v=1)"),
            n >= 256,
            "{n}: {ran:?}"
        );
        let want = f32s(&interpret(
            Mean::LIFT,
            "Mean",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        let ran = each_candidate!(Mean, [n], &want, |k: &Mean, c, out| k
            .launch_candidate(c, n, &dx, out));
        assert_eq!(
            ran.iter().any(|c| c == "tree(v=1)"),
            n >= 256,
            "{n}: {ran:?}"
        );
    }
}

/// Chains of computing stages that no rule fuses run as one kernel per stage (kernel
/// fission), never on one work-item.
#[test]
fn fissioned_stages_match_the_interpreter() {
    let names = names!(Chain3);
    assert!(names[0].starts_with("stages(kernels=3"), "{names:?}");
    let names = names!(RowsThenStencil);
    assert!(names[0].starts_with("stages(kernels=2"), "{names:?}");
    for n in [1, 2, 3, 17, 1000, 4099] {
        let x = random_f32(n, 41);
        let want = f32s(&interpret(
            Chain3::LIFT,
            "Chain3",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        let dx = ctx().upload(&x).unwrap();
        let ran = each_candidate!(Chain3, [n], &want, |k: &Chain3, c, out| k
            .launch_candidate(c, n, &dx, out));
        assert!(ran.len() >= 2, "{n}: {ran:?}");
        assert_close(
            &Chain3::new(ctx()).unwrap().run(n, &x).unwrap(),
            &want,
            1e-4,
            "run",
        );
    }
    for (n, m) in [(1, 1), (5, 300), (130, 7)] {
        let a = random_f32(n * m, 42);
        let want = f32s(&interpret(
            RowsThenStencil::LIFT,
            "RowsThenStencil",
            &[n, m],
            &[matrix(&a, n)],
        ));
        let da = ctx().upload(&a).unwrap();
        let ran = each_candidate!(
            RowsThenStencil,
            [n, m],
            &want,
            |k: &RowsThenStencil, c, out| k.launch_candidate(c, n, m, &da, out)
        );
        assert!(ran.len() >= 2, "{n}x{m}: {ran:?}");
    }
}

/// Reductions used by every element of a map, `iterate` steps and plain views: no candidate
/// runs on one work-item where a parallel one exists.
#[test]
fn hoisted_and_iterated_stages_match_the_interpreter() {
    let names = names!(Normalise);
    assert!(names[0].starts_with("stages(kernels=2"), "{names:?}");
    let names = names!(RowNormalise);
    assert!(names[0].starts_with("stages(kernels=2"), "{names:?}");
    let names = names!(Smooth);
    assert!(names[0].starts_with("stages(kernels=3"), "{names:?}");
    // A transposed copy stages tiles through local memory (`tiles`), padded by default.
    assert!(
        Transpose::LOWERED.contains("to_local("),
        "{}",
        Transpose::LOWERED
    );
    assert!(names!(IterGrid)
        .iter()
        .all(|c| c.starts_with("stages(kernels=2")));
    let k = IterGrid::new(ctx()).unwrap();
    for _ in 0..20 {
        let got = k.run(2, &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!(got, [18.0, 27.0]);
    }
    for n in [1, 100, 5000] {
        let x = random_f32(n + 4, 53);
        let want = f32s(&interpret(
            IterGrid::LIFT,
            "IterGrid",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        assert_close(&k.run(n, &x).unwrap(), &want, 1e-5, "IterGrid");
    }
    for n in [1, 2, 17, 1000, 4099] {
        let x = random_f32(n, 51);
        let dx = ctx().upload(&x).unwrap();
        let want = f32s(&interpret(
            Normalise::LIFT,
            "Normalise",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        let ran = each_candidate!(Normalise, [n], &want, |k: &Normalise, c, out| k
            .launch_candidate(c, n, &dx, out));
        assert!(ran.len() >= 2, "{n}: {ran:?}");
        let want = f32s(&interpret(
            Smooth::LIFT,
            "Smooth",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        let ran = each_candidate!(Smooth, [n], &want, |k: &Smooth, c, out| k
            .launch_candidate(c, n, &dx, out));
        assert!(ran.len() >= 2, "{n}: {ran:?}");
    }
    for (n, m) in [(1, 1), (5, 300), (130, 7)] {
        let a = random_f32(n * m, 52);
        let da = ctx().upload(&a).unwrap();
        let want = f32s(&interpret(
            RowNormalise::LIFT,
            "RowNormalise",
            &[n, m],
            &[matrix(&a, n)],
        ));
        let ran = each_candidate!(RowNormalise, [n, m], &want, |k: &RowNormalise, c, out| k
            .launch_candidate(c, n, m, &da, out));
        assert!(ran.len() >= 2, "{n}x{m}: {ran:?}");
        let want = f32s(&interpret(
            Transpose::LIFT,
            "Transpose",
            &[n, m],
            &[matrix(&a, n)],
        ));
        let ran = each_candidate!(Transpose, [n, m], &want, |k: &Transpose, c, out| k
            .launch_candidate(c, n, m, &da, out));
        // The padded tilings and the plain copy (the exact tilings need multiples of 32).
        assert_eq!(ran.len(), 3, "{n}x{m}: {ran:?}");
    }
}

/// The nested 1-D spelling of a 3-D stencil gets the strips of `slide3`/`pad3`.
#[test]
fn nested_3d_stencil_is_parallel_and_matches_the_interpreter() {
    let names = names!(Jacobi3dNested);
    assert!(names[0].starts_with("strips"), "{names:?}");
    for (n, m, l) in [(1, 1, 1), (3, 5, 7), (9, 4, 17)] {
        let x = random_f32(n * m * l, 71);
        let want = f32s(&interpret(
            Jacobi3dNested::LIFT,
            "Jacobi3dNested",
            &[n, m, l],
            &[cube(&x, n, m)],
        ));
        let dx = ctx().upload(&x).unwrap();
        let ran = each_candidate!(
            Jacobi3dNested,
            [n, m, l],
            &want,
            |k: &Jacobi3dNested, c, out| k.launch_candidate(c, n, m, l, &dx, out)
        );
        assert!(!ran.is_empty(), "{n}x{m}x{l}");
    }
}

/// BLAS-style GEMM (an epilogue reading the element of C where it writes) runs as one
/// blocked product applying the epilogue (exact, covered and padded blocks, `K` a multiple of
/// the step or not), or as a blocked product then the epilogue (two kernels); softmax written
/// with `let`s runs its four stages.
#[test]
fn sgemm_and_softmax_stages_match_the_interpreter() {
    let names = names!(Sgemm);
    assert!(names[0].starts_with("blocked("), "{names:?}");
    assert!(Sgemm::LOWERED.contains("map_wrg"), "{}", Sgemm::LOWERED);
    let (alpha, beta) = (0.5f32, -2.0f32);
    let f = |v| Value::Scalar(Scalar::F32(v));
    for (n, kk, m) in [
        (1, 1, 1),
        (17, 16, 33),
        (9, 17, 5),
        (128, 16, 128),
        (65, 32, 130),
    ] {
        let (a, b, c) = (
            random_f32(n * kk, 61),
            random_f32(kk * m, 62),
            random_f32(n * m, 63),
        );
        let want = f32s(&interpret(
            Sgemm::LIFT,
            "Sgemm",
            &[n, kk, m],
            &[
                f(alpha),
                f(beta),
                matrix(&a, n),
                matrix(&b, kk),
                matrix(&c, n),
            ],
        ));
        let (da, db, dc) = (
            ctx().upload(&a).unwrap(),
            ctx().upload(&b).unwrap(),
            ctx().upload(&c).unwrap(),
        );
        let ran = each_candidate!(Sgemm, [n, kk, m], &want, |k: &Sgemm, i, out| k
            .launch_candidate(i, n, kk, m, alpha, beta, &da, &db, &dc, out));
        assert!(
            ran.iter().any(|c| c.starts_with("blocked")),
            "{n}x{kk}x{m}: {ran:?}"
        );
    }
    let names = names!(Softmax);
    assert!(names[0].starts_with("stages(kernels=4"), "{names:?}");
    for n in [1, 1000, 4099] {
        let x = random_f32(n, 64);
        let want = f32s(&interpret(
            Softmax::LIFT,
            "Softmax",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        let dx = ctx().upload(&x).unwrap();
        let ran = each_candidate!(Softmax, [n], &want, |k: &Softmax, c, out| k
            .launch_candidate(c, n, &dx, out));
        assert!(ran.len() >= 2, "{n}: {ran:?}");
    }
}

/// Runs every candidate of a two-input kernel struct.
macro_rules! each_candidate_2 {
    ($k:ident, [$($s:expr),*], $a:expr, $b:expr, $want:expr) => {{
        let (a, b) = (ctx().upload($a).unwrap(), ctx().upload($b).unwrap());
        each_candidate!($k, [$($s),*], $want, |k: &$k, c, out| k
            .launch_candidate(c, $($s,)* &a, &b, out))
    }};
}

/// Row reductions with 1, 8, 16, 32 or 64 rows per work-group of 256 or 1024 work-items,
/// over rows and over columns of memory, at row counts that are not multiples of the group.
#[test]
fn every_row_reduction_candidate_matches_the_interpreter() {
    let names = names!(GemvT);
    assert!(names[0].starts_with("tree(rows="), "{names:?}");
    assert!(names.iter().any(|c| c == "tree(rows=64,wg=1024)"));
    assert_eq!(names!(Gemv)[0], "tree(rows=1,wg=256)");
    // Each tree applies where its work-items have whole slices (`m` at least the work-items
    // per row) and its groups whole rows (`n` at least the rows per group).
    let trees = |ran: &[String], wg: i64| {
        ran.iter()
            .filter(|c| c.ends_with(&format!(",wg={wg})")))
            .count()
    };
    for (n, m) in [(1, 1), (33, 200), (70, 129), (130, 7), (70, 1030)] {
        let (a, x) = (random_f32(n * m, 21), random_f32(m, 22));
        let want = f32s(&interpret(
            Gemv::LIFT,
            "Gemv",
            &[n, m],
            &[matrix(&a, n), Value::from_f32s(&x)],
        ));
        let ran = each_candidate_2!(Gemv, [n, m], &a, &x, &want);
        assert_eq!(
            ran.iter().any(|c| c == "tree(rows=1,wg=256)"),
            m >= 256,
            "{n}x{m}: {ran:?}"
        );
        let want = f32s(&interpret(
            GemvT::LIFT,
            "GemvT",
            &[n, m],
            &[matrix(&a, m), Value::from_f32s(&x)],
        ));
        let ran = each_candidate_2!(GemvT, [n, m], &a, &x, &want);
        assert_eq!(
            trees(&ran, 256) == 5,
            n >= 64 && m >= 256,
            "T {n}x{m}: {ran:?}"
        );
        assert_eq!(
            trees(&ran, 1024) == 5,
            n >= 64 && m >= 1024,
            "T {n}x{m}: {ran:?}"
        );
        let want = f32s(&interpret(
            ColSum::LIFT,
            "ColSum",
            &[n, m],
            &[matrix(&a, n)],
        ));
        let da = ctx().upload(&a).unwrap();
        let ran = each_candidate!(ColSum, [n, m], &want, |k: &ColSum, c, out| k
            .launch_candidate(c, n, m, &da, out));
        // `m` rows of `n`: `c` rows per group of 256 when `m >= c` and `n >= 256 / c`.
        let fits = [1, 8, 16, 32, 64].iter().any(|&c| m >= c && n * c >= 256);
        assert_eq!(trees(&ran, 256) > 0, fits, "cols {n}x{m}: {ran:?}");
    }
}

#[test]
fn every_gemm_candidate_matches_the_interpreter() {
    // The shared dimension is a multiple of the tiles, or not (then only the `+` of products
    // is zero-padded along it: `pad=2`).
    // Exact blocks, covered ones (two per dimension, the last shifted back) and padded ones,
    // `K` a multiple of the step or not, a result of one element, few outputs with a long `K`
    // (split-K).
    for (n, kk, m) in [
        (1, 16, 1),
        (17, 16, 33),
        (128, 16, 128),
        (65, 32, 130),
        (9, 17, 33),
        (5, 300, 7),
    ] {
        let (a, b) = (random_f32(n * kk, 1), random_f32(kk * m, 2));
        let want = f32s(&interpret(
            Gemm::LIFT,
            "Gemm",
            &[n, kk, m],
            &[matrix(&a, n), matrix(&b, kk)],
        ));
        let ran = each_candidate_2!(Gemm, [n, kk, m], &a, &b, &want);
        assert!(
            ran.iter().any(|c| c.starts_with("blocked")),
            "{n}x{kk}x{m}: no blocked candidate ran: {ran:?}"
        );
        // Partial products (split-K) apply where they take at most four times the operands'
        // memory.
        let splits = ran.iter().filter(|c| c.contains(",split=")).count();
        assert_eq!(
            splits > 0,
            2 * n * m <= 4 * kk * (n + m),
            "{n}x{kk}x{m}: {ran:?}"
        );
        let want = f32s(&interpret(
            GemmFold::LIFT,
            "GemmFold",
            &[n, kk, m],
            &[matrix(&a, n), matrix(&b, kk)],
        ));
        let ran = each_candidate_2!(GemmFold, [n, kk, m], &a, &b, &want);
        assert!(
            kk % 8 != 0 || ran.iter().any(|c| c.starts_with("blocked")),
            "fold {n}x{kk}x{m}: no blocked candidate ran: {ran:?}"
        );
        let bt = random_f32(m * kk, 3);
        let want = f32s(&interpret(
            GemmNt::LIFT,
            "GemmNt",
            &[n, kk, m],
            &[matrix(&a, n), matrix(&bt, m)],
        ));
        let ran = each_candidate_2!(GemmNt, [n, kk, m], &a, &bt, &want);
        assert!(
            kk % 8 != 0 || ran.iter().any(|c| c.starts_with("blocked")),
            "NT {n}x{kk}x{m}: no blocked candidate ran: {ran:?}"
        );
        let bias = random_f32(m, 5);
        let want = f32s(&interpret(
            GemmBias::LIFT,
            "GemmBias",
            &[n, kk, m],
            &[matrix(&a, n), matrix(&b, kk), Value::from_f32s(&bias)],
        ));
        let (da, db, dbias) = (
            ctx().upload(&a).unwrap(),
            ctx().upload(&b).unwrap(),
            ctx().upload(&bias).unwrap(),
        );
        let ran = each_candidate!(GemmBias, [n, kk, m], &want, |k: &GemmBias, c, out| k
            .launch_candidate(c, n, kk, m, &da, &db, &dbias, out));
        assert!(
            ran.iter().any(|c| c.starts_with("blocked")),
            "bias {n}x{kk}x{m}: no blocked candidate ran: {ran:?}"
        );
        let at = random_f32(kk * n, 4);
        let want = f32s(&interpret(
            GemmTn::LIFT,
            "GemmTn",
            &[n, kk, m],
            &[matrix(&at, kk), matrix(&b, kk)],
        ));
        let ran = each_candidate_2!(GemmTn, [n, kk, m], &at, &b, &want);
        assert!(
            ran.iter().any(|c| c.starts_with("blocked")),
            "TN {n}x{kk}x{m}: no blocked candidate ran: {ran:?}"
        );
    }
}

/// `launch` picks a candidate that applies: at sizes that are not multiples of any tile it
/// still runs a blocked (padded) program, and the result is right.
#[test]
fn launch_chooses_an_applicable_candidate() {
    let k = Gemm::new(ctx()).unwrap();
    let (n, kk, m) = (65, 16, 67);
    let c = k.candidate_for(n, kk, m).unwrap();
    let name = &k.candidates().unwrap()[c].name;
    assert!(name.starts_with("blocked"), "{name}");
    let (a, b) = (random_f32(n * kk, 5), random_f32(kk * m, 6));
    let want = f32s(&interpret(
        Gemm::LIFT,
        "Gemm",
        &[n, kk, m],
        &[matrix(&a, n), matrix(&b, kk)],
    ));
    assert_close(&k.run(n, kk, m, &a, &b).unwrap(), &want, 1e-4, "Gemm run");
}
