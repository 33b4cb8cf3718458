//! Stencils (issue 4): `pad`, `slide` and their 2-D/3-D forms compiled by `lift!` and run on
//! the default OpenCL device against the reference interpreter (and, where cheap, against the
//! SPEC formulas computed on the host); the boundary code in the generated index; local-memory
//! tiled stencils with barriers.

use lift_runtime::core::interp::{Scalar, Value};
use lift_runtime::core::{parse, typeck};
use lift_runtime::lift;
use lift_tests::{assert_close, ctx, f32s, interpret, matrix, random_f32};

lift! {
    // Pads with launch-time sizes: `pad(L - 1, R - 1, b)` so that l and r start at 0.
    kernel PadClampV<N, L, R>(x: [f32; N]) -> [f32; L + N + R - 2] { map(id) o pad(L - 1, R - 1, clamp) $ x }
    kernel PadMirrorV<N, L, R>(x: [f32; N]) -> [f32; L + N + R - 2] { map(id) o pad(L - 1, R - 1, mirror) $ x }
    kernel PadWrapV<N, L, R>(x: [f32; N]) -> [f32; L + N + R - 2] { map(id) o pad(L - 1, R - 1, wrap) $ x }
    kernel PadConstV<N, L, R>(x: [f32; N], c: f32) -> [f32; L + N + R - 2] { map(id) o pad(L - 1, R - 1, constant(c)) $ x }

    // Pads with constant, asymmetric sizes.
    kernel PadClamp03<N>(x: [f32; N]) -> [f32; N + 3] { map(id) o pad(0, 3, clamp) $ x }
    kernel PadMirror20<N>(x: [f32; N]) -> [f32; N + 2] { map(id) o pad(2, 0, mirror) $ x }
    kernel PadWrap51<N>(x: [f32; N]) -> [f32; N + 6] { map(id) o pad(5, 1, wrap) $ x }
    kernel PadConst14<N>(x: [f32; N]) -> [f32; N + 5] { map(id) o pad(1, 4, constant(-2.5)) $ x }

    /// Interior-only 3-point stencil: no boundary code at all.
    kernel Interior<N>(x: [f32; N + 2]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) $ x }
    /// The README stencil: clamped on both sides inside the window loop.
    kernel Blur3<N>(input: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input }
    /// Left and right neighbours only: each read clamps on its own side only.
    kernel LeftRight<N>(x: [f32; N]) -> [f32; N] { map(|w| w[0] - w[2]) o slide(3, 1) o pad(1, 1, clamp) $ x }

    // Slides of every regime: step 1, 2, 3, step = size, step > size.
    kernel Slide31<N>(x: [f32; N + 2]) -> [[f32; 3]; N] { map(map(id)) o slide(3, 1) $ x }
    kernel Slide52<N>(x: [f32; 2 * N + 3]) -> [[f32; 5]; N] { map(map(id)) o slide(5, 2) $ x }
    kernel Slide43<N>(x: [f32; 3 * N + 1]) -> [[f32; 4]; N] { map(map(id)) o slide(4, 3) $ x }
    kernel Slide44<N>(x: [f32; 4 * N]) -> [[f32; 4]; N] { map(map(id)) o slide(4, 4) $ x }
    kernel Slide25<N>(x: [f32; 5 * N - 3]) -> [[f32; 2]; N] { map(map(id)) o slide(2, 5) $ x }
    kernel Slide12<N>(x: [f32; 2 * N - 1]) -> [f32; N] { map(reduce(+, 0.0)) o slide(1, 2) $ x }

    // 2-D: both arities of pad2 and slide2, neighbourhoods `nbh[i][j]`.
    kernel Jacobi5<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, mirror) $ x
    }
    kernel Box9<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(reduce(+, 0.0) o join) o slide2(3, 1) o pad2(1, clamp) $ x
    }
    kernel Asym2<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| nbh[0][0] + 2.0 * nbh[2][1]) o slide2(3, 1, 2, 1) o pad2(1, 1, 1, 0, wrap) $ x
    }
    kernel Pad2Const<N, M>(x: [[f32; M]; N]) -> [[f32; M + 3]; N + 2] { map2(id) o pad2(2, 0, 1, 2, constant(9.0)) $ x }
    kernel Strided2<N, M>(x: [[f32; 2 * M + 1]; 3 * N + 1]) -> [[f32; M]; N] {
        map2(reduce(max, -10.0) o join) o slide2(4, 3, 3, 2) $ x
    }

    // 3-D: both arities of pad3 and slide3, `nbh[i][j][k]`.
    kernel Jacobi7<N, M, K>(x: [[[f32; K]; M]; N]) -> [[[f32; K]; M]; N] {
        map3(|nbh| nbh[0][1][1] + nbh[2][1][1] + nbh[1][0][1] + nbh[1][2][1] + nbh[1][1][0] + nbh[1][1][2] - 6.0 * nbh[1][1][1]) o slide3(3, 1) o pad3(1, clamp) $ x
    }
    kernel Asym3<N, M, K>(x: [[[f32; K]; M]; N]) -> [[[f32; K]; M]; N] {
        map3(|nbh| nbh[0][0][0] + nbh[1][1][2] * nbh[0][1][1]) o slide3(2, 1, 2, 1, 3, 1) o pad3(1, 0, 0, 1, 2, 0, mirror) $ x
    }

    // Compositions with other views.
    kernel ZipPads<N>(x: [f32; N], y: [f32; N]) -> [f32; N] {
        map(|w| w[0].0 * w[2].1 + w[1].0) o slide(3, 1) $ zip(pad(1, 1, clamp) $ x, pad(1, 1, mirror) $ y)
    }
    kernel TransposeSlide<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] {
        map(map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp)) o transpose $ x
    }
    kernel SplitAfter<N>(x: [f32; N]) -> [f32; N] {
        join o map(map(reduce(+, 0.0))) o split(4) o slide(3, 1) o pad(1, 1, wrap) $ x
    }
    kernel GatherPad<N>(x: [f32; N]) -> [f32; N] {
        map(reduce(max, -100.0)) o slide(2, 1) o pad(0, 1, constant(1.5)) o gather(reverse) $ x
    }
    kernel PadOfJoin<N>(x: [[f32; 4]; N]) -> [f32; 4 * N] {
        map(|w| w[0] * w[1]) o slide(2, 1) o pad(0, 1, mirror) o join $ x
    }

    /// 1-D overlapped tiling: each work-group copies a 34-element tile (32 outputs plus the
    /// halo) into local memory, then computes 32 outputs from it.
    kernel Tiled32<N>(x: [f32; N]) -> [f32; N] {
        join o map_wrg(0, map_lcl(0, reduce_seq(+, 0.0f32)) o slide(3, 1) o to_local(map_lcl(0, id))) o slide(34, 32) o pad(1, 1, clamp) $ x
    }
    /// The same with 64-element tiles and a 5-point window.
    kernel Tiled64<N>(x: [f32; N]) -> [f32; N] {
        join o map_wrg(0, map_lcl(0, reduce_seq(|acc, v| acc + 0.5 * v, 0.0f32)) o slide(5, 1) o to_local(map_lcl(0, id))) o slide(68, 64) o pad(2, 2, mirror) $ x
    }
    /// 2-D overlapped tiling: 18x18 tiles in local memory, 16x16 outputs per work-group;
    /// `join o transpose` inside `map_wrg(1, ...)` writes a tile row as 16 full matrix rows.
    kernel Tiled2d<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        split(M) o join o join o map_wrg(1, join o transpose o map_wrg(0, |tile|
            map_lcl(1, map_lcl(0, |nbh| reduce_seq(+, 0.0f32) o join $ nbh)) o slide2(3, 1) o to_local(map_lcl(1, map_lcl(0, id))) $ tile
        )) o slide2(18, 16) o pad2(1, clamp) $ x
    }
    /// The same tiles with the output left tile-major (`[[tile; M / 16]; N / 16]`).
    kernel Tiled2dTiles<N, M>(x: [[f32; M]; N]) -> [[[[f32; 16]; 16]; (M - 16) / 16 + 1]; (N - 16) / 16 + 1] {
        map_wrg(1, map_wrg(0, |tile|
            map_lcl(1, map_lcl(0, |nbh| reduce_seq(+, 0.0f32) o join $ nbh)) o slide2(3, 1) o to_local(map_lcl(1, map_lcl(0, id))) $ tile
        )) o slide2(18, 16) o pad2(1, clamp) $ x
    }
}

/// Sizes of the 1-D tests: 1, 2, primes and a large prime.
const SIZES: [usize; 8] = [1, 2, 3, 5, 7, 31, 1009, 100_003];

/// The SPEC boundary table, on the host.
fn boundary(kind: &str, i: i64, n: i64) -> Option<usize> {
    let j = match kind {
        "clamp" => i.clamp(0, n - 1),
        "mirror" if i < 0 => -1 - i,
        "mirror" if i >= n => 2 * n - 1 - i,
        "wrap" => i.rem_euclid(n),
        "constant" if i < 0 || i >= n => return None,
        _ => i,
    };
    Some(j as usize)
}

fn cpu_pad(x: &[f32], l: usize, r: usize, kind: &str, c: f32) -> Vec<f32> {
    let n = x.len() as i64;
    (0..l + x.len() + r)
        .map(|k| boundary(kind, k as i64 - l as i64, n).map_or(c, |j| x[j]))
        .collect()
}

/// The `(l, r)` pairs tried for an input of length `n`: all up to `n` for small inputs, the
/// corners and a few interior points for large ones.
fn pad_pairs(n: usize) -> Vec<(usize, usize)> {
    let sides: Vec<usize> = if n <= 7 {
        (0..=n).collect()
    } else {
        vec![0, 1, 2, n / 2, n - 1, n]
    };
    sides
        .iter()
        .flat_map(|&l| sides.iter().map(move |&r| (l, r)))
        .collect()
}

#[test]
fn pad_every_boundary_every_size_and_width() {
    let clamp = PadClampV::new(ctx()).unwrap();
    let mirror = PadMirrorV::new(ctx()).unwrap();
    let wrap = PadWrapV::new(ctx()).unwrap();
    let constant = PadConstV::new(ctx()).unwrap();
    for n in SIZES {
        let x = random_f32(n, n as u64);
        let xv = Value::from_f32s(&x);
        for (l, r) in pad_pairs(n) {
            let sizes = [n, l + 1, r + 1];
            let cases = [
                (
                    "clamp",
                    clamp.run(n, l + 1, r + 1, &x).unwrap(),
                    PadClampV::LIFT,
                    "PadClampV",
                ),
                (
                    "mirror",
                    mirror.run(n, l + 1, r + 1, &x).unwrap(),
                    PadMirrorV::LIFT,
                    "PadMirrorV",
                ),
                (
                    "wrap",
                    wrap.run(n, l + 1, r + 1, &x).unwrap(),
                    PadWrapV::LIFT,
                    "PadWrapV",
                ),
            ];
            for (kind, got, lift, name) in cases {
                let what = format!("pad({l}, {r}, {kind}) N={n}");
                assert_eq!(got, cpu_pad(&x, l, r, kind, 0.0), "{what} vs SPEC");
                if n <= 1009 || l + r <= 4 {
                    let want = interpret(lift, name, &sizes, std::slice::from_ref(&xv));
                    assert_eq!(got, f32s(&want), "{what} vs interpreter");
                }
            }
            let got = constant.run(n, l + 1, r + 1, &x, 0.25).unwrap();
            assert_eq!(got, cpu_pad(&x, l, r, "constant", 0.25), "constant N={n}");
            let want = interpret(
                PadConstV::LIFT,
                "PadConstV",
                &sizes,
                &[xv.clone(), Value::from(Scalar::F32(0.25))],
            );
            assert_eq!(
                got,
                f32s(&want),
                "pad({l}, {r}, constant) N={n} vs interpreter"
            );
        }
    }
}

/// Pads with symbolic widths at run time: mirror wider than the input reflects periodically
/// (as the interpreter does), clamp and wrap accept any width.
#[test]
fn any_pad_width_at_run_time() {
    let mirror = PadMirrorV::new(ctx()).unwrap();
    let x = random_f32(3, 1);
    for (l, r) in [(4, 4), (5, 1), (1, 5), (10, 10)] {
        let got = mirror
            .run(3, l, r, &x)
            .unwrap_or_else(|e| panic!("pad({l}, {r}): {e}"));
        let want = interpret(
            PadMirrorV::LIFT,
            "PadMirrorV",
            &[3, l, r],
            &[Value::from_f32s(&x)],
        );
        assert_eq!(got, f32s(&want), "pad({l}, {r}, mirror) of 3 elements");
    }
    let wrap = PadWrapV::new(ctx()).unwrap();
    assert_eq!(
        wrap.run(3, 8, 1, &[1.0, 2.0, 3.0]).unwrap(),
        vec![3.0, 1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 1.0, 2.0, 3.0]
    );
}

/// Type-checks one kernel given as text.
fn check(src: &str) -> Result<(), String> {
    let mut prog = parse::parse_program_str(src).map_err(|e| e.to_string())?;
    typeck::check_program(&mut prog).map_err(|e| e.to_string())?;
    Ok(())
}

/// Mirror padding wider than the input keeps reflecting with period `2n` (LIFT's
/// `mirror_unsafe`, its alias here), on the device as in the interpreter, for sizes known and
/// symbolic, 1-D and 2-D.
#[test]
fn wide_mirror_reflects_periodically() {
    for (src, sizes) in [
        ("kernel K(x: [f32; 3]) -> [f32; 14] { map(id) o pad(7, 4, mirror) $ x }", vec![]),
        ("kernel K<N>(x: [f32; N]) -> [f32; N + 11] { map(|v| v * 2.0) o pad(7, 4, mirror_unsafe) $ x }", vec![2]),
        ("kernel K<N>(x: [f32; N]) -> [f32; N + 11] { map(|v| v * 2.0) o pad(7, 4, mirror) $ x }", vec![1]),
        ("kernel K<N>(x: [f32; N]) -> [f32; N + 2] { map(|v| v * 2.0) o pad(1, 1, mirror) $ x }", vec![5]),
    ] {
        let n = sizes.first().copied().unwrap_or(3);
        let x = random_f32(n, 4);
        let args = [Value::from_f32s(&x)];
        let want = f32s(&interpret(src, "K", &sizes, &args));
        let k = lift_runtime::DynKernel::compile(ctx(), src, "K").unwrap_or_else(|e| panic!("{src}: {e}"));
        let got = f32s(&k.run(&sizes, &args).unwrap_or_else(|e| panic!("{src}: {e}")));
        assert_close(&got, &want, 0.0, src);
    }
    // [1 2 3] padded by 7 on the left: 1 1 2 3 3 2 1 | 1 2 3.
    let src = "kernel K(x: [f32; 3]) -> [f32; 10] { pad(7, 0, mirror) $ x }";
    let got = interpret(src, "K", &[], &[Value::from_f32s(&[1.0, 2.0, 3.0])]);
    assert_eq!(
        f32s(&got),
        [1.0, 1.0, 2.0, 3.0, 3.0, 2.0, 1.0, 1.0, 2.0, 3.0]
    );
    let e =
        "kernel K(x: [[f32; 2]; 5]) -> [[f32; 8]; 5] { map2(id) o pad2(0, 0, 3, 3, mirror) $ x }";
    check(e).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn constant_asymmetric_pads() {
    let p03 = PadClamp03::new(ctx()).unwrap();
    let p20 = PadMirror20::new(ctx()).unwrap();
    let p51 = PadWrap51::new(ctx()).unwrap();
    let p14 = PadConst14::new(ctx()).unwrap();
    let x: Vec<f32> = (1..=7).map(|v| v as f32).collect();
    assert_eq!(p03.run(7, &x).unwrap()[6..], [7.0, 7.0, 7.0, 7.0]);
    assert_eq!(p20.run(7, &x).unwrap()[..4], [2.0, 1.0, 1.0, 2.0]);
    assert_eq!(p51.run(7, &x).unwrap()[..6], [3.0, 4.0, 5.0, 6.0, 7.0, 1.0]);
    assert_eq!(p14.run(7, &x).unwrap()[..2], [-2.5, 1.0]);
    for n in SIZES {
        let x = random_f32(n, 3 * n as u64);
        let v = [Value::from_f32s(&x)];
        if n >= 2 {
            let want = interpret(PadMirror20::LIFT, "PadMirror20", &[n], &v);
            assert_eq!(
                p20.run(n, &x).unwrap(),
                f32s(&want),
                "pad(2, 0, mirror) N={n}"
            );
        }
        let want = interpret(PadClamp03::LIFT, "PadClamp03", &[n], &v);
        assert_eq!(
            p03.run(n, &x).unwrap(),
            f32s(&want),
            "pad(0, 3, clamp) N={n}"
        );
        let want = interpret(PadWrap51::LIFT, "PadWrap51", &[n], &v);
        assert_eq!(
            p51.run(n, &x).unwrap(),
            f32s(&want),
            "pad(5, 1, wrap) N={n}"
        );
        let want = interpret(PadConst14::LIFT, "PadConst14", &[n], &v);
        assert_eq!(
            p14.run(n, &x).unwrap(),
            f32s(&want),
            "pad(1, 4, constant) N={n}"
        );
    }
}

/// The OpenCL of a kernel's plain `map` candidate (strip candidates repeat each read per row),
/// without the index prelude every source starts with.
macro_rules! map_source {
    ($k:ident) => {
        $k::new(ctx())
            .unwrap()
            .candidates()
            .unwrap()
            .iter()
            .find(|c| c.name == "map")
            .unwrap()
            .source
            .replacen(lift_runtime::core::codegen::INDEX_PRELUDE, "", 1)
    };
}

#[test]
fn boundary_code_only_where_an_index_may_leave_the_array() {
    // No pad: no boundary function.
    assert!(
        !map_source!(Interior).contains("min("),
        "{}",
        map_source!(Interior)
    );
    assert!(
        !map_source!(Interior).contains("max("),
        "{}",
        map_source!(Interior)
    );
    assert!(
        map_source!(Interior).contains("x[gid0 + i_"),
        "{}",
        map_source!(Interior)
    );
    // Inside the window loop both sides may leave the array.
    assert!(
        map_source!(Blur3).contains("input[lift_min(N - 1, lift_max(0, gid0 + i_2 - 1))]"),
        "{}",
        map_source!(Blur3)
    );
    // With constant window offsets, the left read clamps at 0 only, the right at N - 1 only.
    let s = map_source!(LeftRight);
    assert!(s.contains("x[lift_max(0, gid0 - 1)]"), "{s}");
    assert!(s.contains("x[lift_min(N - 1, gid0 + 1)]"), "{s}");
    assert_eq!(s.matches("min(").count(), 1, "{s}");
    assert_eq!(s.matches("max(").count(), 1, "{s}");
    // 3-D: each of the six neighbours clamps one side of one dimension.
    let s = map_source!(Jacobi7);
    assert_eq!(s.matches("min(").count(), 3, "{s}");
    assert_eq!(s.matches("max(").count(), 3, "{s}");
    for bound in ["N - 1", "M - 1", "K - 1"] {
        assert_eq!(s.matches(&format!("min({bound}, gid")).count(), 1, "{s}");
    }
    assert_eq!(s.matches("max(0, gid").count(), 3, "{s}");
    // Wrap: the modulo only where the offset is non-zero; the +1 side needs no `N +`.
    let s = map_source!(Asym2);
    assert_eq!(s.matches(" - 1) % N) % N").count(), 1, "{s}");
    assert_eq!(s.matches(" + 1) % N").count(), 1, "{s}");
    assert_eq!(s.matches("% M").count(), 2, "{s}");
    // Constant: a select only on the side that can be outside.
    assert!(
        map_source!(GatherPad).contains("? 1.5f :"),
        "{}",
        map_source!(GatherPad)
    );
    assert!(
        !map_source!(GatherPad).contains("< 0"),
        "{}",
        map_source!(GatherPad)
    );
}

#[test]
fn blur3_and_left_right() {
    let b = Blur3::new(ctx()).unwrap();
    let lr = LeftRight::new(ctx()).unwrap();
    let i = Interior::new(ctx()).unwrap();
    assert_eq!(
        b.run(5, &[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap(),
        [4.0, 6.0, 9.0, 12.0, 14.0]
    );
    for n in SIZES {
        let x = random_f32(n, 5 * n as u64);
        let v = [Value::from_f32s(&x)];
        let want = interpret(Blur3::LIFT, "Blur3", &[n], &v);
        assert_close(
            &b.run(n, &x).unwrap(),
            &f32s(&want),
            1e-5,
            &format!("Blur3 N={n}"),
        );
        let want = interpret(LeftRight::LIFT, "LeftRight", &[n], &v);
        assert_eq!(lr.run(n, &x).unwrap(), f32s(&want), "LeftRight N={n}");
        let x = random_f32(n + 2, n as u64);
        let want = interpret(Interior::LIFT, "Interior", &[n], &[Value::from_f32s(&x)]);
        assert_close(
            &i.run(n, &x).unwrap(),
            &f32s(&want),
            1e-5,
            &format!("Interior N={n}"),
        );
    }
}

#[test]
fn slide_every_step_regime() {
    let s31 = Slide31::new(ctx()).unwrap();
    let s52 = Slide52::new(ctx()).unwrap();
    let s43 = Slide43::new(ctx()).unwrap();
    let s44 = Slide44::new(ctx()).unwrap();
    let s25 = Slide25::new(ctx()).unwrap();
    let s12 = Slide12::new(ctx()).unwrap();
    // Host reference: window i is x[i * step .. i * step + size].
    let windows = |x: &[f32], size: usize, step: usize, n: usize| -> Vec<f32> {
        (0..n)
            .flat_map(|i| x[i * step..i * step + size].to_vec())
            .collect()
    };
    for n in SIZES {
        let seed = 7 * n as u64;
        let x = random_f32(n + 2, seed);
        let got = s31.run(n, &x).unwrap();
        assert_eq!(got, windows(&x, 3, 1, n), "slide(3, 1) N={n}");
        let want = interpret(Slide31::LIFT, "Slide31", &[n], &[Value::from_f32s(&x)]);
        assert_eq!(got, f32s(&want), "slide(3, 1) N={n} vs interpreter");

        let x = random_f32(2 * n + 3, seed);
        let got = s52.run(n, &x).unwrap();
        assert_eq!(got, windows(&x, 5, 2, n), "slide(5, 2) N={n}");
        let want = interpret(Slide52::LIFT, "Slide52", &[n], &[Value::from_f32s(&x)]);
        assert_eq!(got, f32s(&want), "slide(5, 2) N={n} vs interpreter");

        let x = random_f32(3 * n + 1, seed);
        let got = s43.run(n, &x).unwrap();
        assert_eq!(got, windows(&x, 4, 3, n), "slide(4, 3) N={n}");
        let want = interpret(Slide43::LIFT, "Slide43", &[n], &[Value::from_f32s(&x)]);
        assert_eq!(got, f32s(&want), "slide(4, 3) N={n} vs interpreter");

        let x = random_f32(4 * n, seed);
        let got = s44.run(n, &x).unwrap();
        assert_eq!(got, x, "slide(4, 4) is split(4) N={n}");
        let want = interpret(Slide44::LIFT, "Slide44", &[n], &[Value::from_f32s(&x)]);
        assert_eq!(got, f32s(&want), "slide(4, 4) N={n} vs interpreter");

        let x = random_f32(5 * n - 3, seed);
        let got = s25.run(n, &x).unwrap();
        assert_eq!(got, windows(&x, 2, 5, n), "slide(2, 5) N={n}");
        let want = interpret(Slide25::LIFT, "Slide25", &[n], &[Value::from_f32s(&x)]);
        assert_eq!(got, f32s(&want), "slide(2, 5) N={n} vs interpreter");

        let x = random_f32(2 * n - 1, seed);
        let got = s12.run(n, &x).unwrap();
        assert_eq!(got, windows(&x, 1, 2, n), "slide(1, 2) N={n}");
        let want = interpret(Slide12::LIFT, "Slide12", &[n], &[Value::from_f32s(&x)]);
        assert_eq!(got, f32s(&want), "slide(1, 2) N={n} vs interpreter");
    }
    // The thesis's examples: slide(2, 2) of abcdef, slide(1, 2) of abcdefg.
    let x: Vec<f32> = (0..7).map(|v| v as f32).collect();
    assert_eq!(s12.run(4, &x).unwrap(), [0.0, 2.0, 4.0, 6.0]);
}

const SHAPES_2D: [(usize, usize); 6] = [(1, 1), (1, 7), (2, 3), (5, 2), (13, 31), (101, 67)];

#[test]
fn two_dimensional_stencils() {
    let j5 = Jacobi5::new(ctx()).unwrap();
    let b9 = Box9::new(ctx()).unwrap();
    let a2 = Asym2::new(ctx()).unwrap();
    let pc = Pad2Const::new(ctx()).unwrap();
    for (i, (n, m)) in SHAPES_2D.into_iter().enumerate() {
        let a = random_f32(n * m, i as u64);
        let v = [matrix(&a, n)];
        let what = format!("{n}x{m}");
        let want = interpret(Jacobi5::LIFT, "Jacobi5", &[n, m], &v);
        assert_close(
            &j5.run(n, m, &a).unwrap(),
            &f32s(&want),
            1e-5,
            &format!("Jacobi5 {what}"),
        );
        let want = interpret(Box9::LIFT, "Box9", &[n, m], &v);
        assert_close(
            &b9.run(n, m, &a).unwrap(),
            &f32s(&want),
            1e-5,
            &format!("Box9 {what}"),
        );
        let want = interpret(Asym2::LIFT, "Asym2", &[n, m], &v);
        assert_close(
            &a2.run(n, m, &a).unwrap(),
            &f32s(&want),
            1e-5,
            &format!("Asym2 {what}"),
        );
        let want = interpret(Pad2Const::LIFT, "Pad2Const", &[n, m], &v);
        assert_eq!(pc.run(n, m, &a).unwrap(), f32s(&want), "Pad2Const {what}");
    }
    // A hand check of the 5-point stencil with mirror (= clamp for width 1) on a 2x2 matrix.
    let got = j5.run(2, 2, &[1.0, 2.0, 3.0, 4.0]).unwrap();
    assert_close(&got, &[1.6, 2.2, 2.8, 3.4], 1e-6, "Jacobi5 2x2");
    let s = Strided2::new(ctx()).unwrap();
    for (n, m) in [(1, 1), (2, 5), (7, 3)] {
        let a = random_f32((3 * n + 1) * (2 * m + 1), 77);
        let want = interpret(
            Strided2::LIFT,
            "Strided2",
            &[n, m],
            &[matrix(&a, 3 * n + 1)],
        );
        assert_eq!(
            s.run(n, m, &a).unwrap(),
            f32s(&want),
            "slide2(4, 3, 3, 2) {n}x{m}"
        );
    }
}

/// A 3-D array value of `n` planes of `m` rows from row-major data.
fn cube(data: &[f32], n: usize, m: usize) -> Value {
    let plane = data.len() / n;
    Value::Array(data.chunks(plane).map(|p| matrix(p, m)).collect())
}

#[test]
fn three_dimensional_stencils() {
    let j7 = Jacobi7::new(ctx()).unwrap();
    let a3 = Asym3::new(ctx()).unwrap();
    for (i, (n, m, k)) in [(1, 1, 1), (1, 2, 3), (3, 1, 2), (5, 7, 11), (17, 9, 33)]
        .into_iter()
        .enumerate()
    {
        let a = random_f32(n * m * k, 40 + i as u64);
        let v = [cube(&a, n, m)];
        let want = interpret(Jacobi7::LIFT, "Jacobi7", &[n, m, k], &v);
        let what = format!("{n}x{m}x{k}");
        assert_close(
            &j7.run(n, m, k, &a).unwrap(),
            &f32s(&want),
            1e-5,
            &format!("Jacobi7 {what}"),
        );
        if k >= 2 {
            let want = interpret(Asym3::LIFT, "Asym3", &[n, m, k], &v);
            assert_close(
                &a3.run(n, m, k, &a).unwrap(),
                &f32s(&want),
                1e-5,
                &format!("Asym3 {what}"),
            );
        }
    }
}

#[test]
fn stencils_composed_with_other_views() {
    let zp = ZipPads::new(ctx()).unwrap();
    let sa = SplitAfter::new(ctx()).unwrap();
    let gp = GatherPad::new(ctx()).unwrap();
    let pj = PadOfJoin::new(ctx()).unwrap();
    for n in SIZES {
        let (x, y) = (random_f32(n, 90 + n as u64), random_f32(n, 91));
        let vx = Value::from_f32s(&x);
        let want = interpret(
            ZipPads::LIFT,
            "ZipPads",
            &[n],
            &[vx.clone(), Value::from_f32s(&y)],
        );
        assert_close(
            &zp.run(n, &x, &y).unwrap(),
            &f32s(&want),
            1e-5,
            &format!("ZipPads N={n}"),
        );
        let want = interpret(
            GatherPad::LIFT,
            "GatherPad",
            &[n],
            std::slice::from_ref(&vx),
        );
        assert_eq!(gp.run(n, &x).unwrap(), f32s(&want), "GatherPad N={n}");
        let x4 = random_f32(4 * n, 92);
        let want = interpret(PadOfJoin::LIFT, "PadOfJoin", &[n], &[matrix(&x4, n)]);
        assert_eq!(pj.run(n, &x4).unwrap(), f32s(&want), "PadOfJoin N={n}");
        let x = random_f32(4 * n, 93);
        let want = interpret(
            SplitAfter::LIFT,
            "SplitAfter",
            &[4 * n],
            &[Value::from_f32s(&x)],
        );
        assert_close(
            &sa.run(4 * n, &x).unwrap(),
            &f32s(&want),
            1e-5,
            &format!("SplitAfter N={}", 4 * n),
        );
    }
    let ts = TransposeSlide::new(ctx()).unwrap();
    for (n, m) in SHAPES_2D {
        let a = random_f32(n * m, 94);
        let want = interpret(
            TransposeSlide::LIFT,
            "TransposeSlide",
            &[n, m],
            &[matrix(&a, n)],
        );
        assert_close(
            &ts.run(n, m, &a).unwrap(),
            &f32s(&want),
            1e-5,
            &format!("TransposeSlide {n}x{m}"),
        );
    }
}

/// Host reference of a clamped 1-D stencil `sum(w * x[i + k - r])`.
fn cpu_stencil_1d(x: &[f32], r: usize, kind: &str, w: f32) -> Vec<f32> {
    let n = x.len() as i64;
    (0..n)
        .map(|i| {
            (0..2 * r as i64 + 1)
                .map(|k| w * x[boundary(kind, i + k - r as i64, n).unwrap_or(0)])
                .sum()
        })
        .collect()
}

#[test]
fn tiled_1d_in_local_memory() {
    for (name, src) in [("Tiled32", Tiled32::SOURCE), ("Tiled64", Tiled64::SOURCE)] {
        assert_eq!(
            src.matches("barrier(CLK_LOCAL_MEM_FENCE)").count(),
            1,
            "{name}:\n{src}"
        );
        assert_eq!(src.matches("barrier(").count(), 1, "{name}:\n{src}");
        assert!(src.contains("local float"), "{name}:\n{src}");
    }
    assert!(Tiled32::SOURCE.contains("reqd_work_group_size(34, 1, 1)"));
    assert!(Tiled32::SOURCE.contains("[34];"));
    assert!(Tiled64::SOURCE.contains("[68];"));
    let t32 = Tiled32::new(ctx()).unwrap();
    let t64 = Tiled64::new(ctx()).unwrap();
    for tiles in [1, 2, 3, 31, 1009] {
        let n = 32 * tiles;
        let x = random_f32(n, tiles as u64);
        let got = t32.run(n, &x).unwrap();
        let want = interpret(Tiled32::LIFT, "Tiled32", &[n], &[Value::from_f32s(&x)]);
        assert_close(&got, &f32s(&want), 1e-5, &format!("Tiled32 N={n}"));
        assert_close(
            &got,
            &cpu_stencil_1d(&x, 1, "clamp", 1.0),
            1e-5,
            &format!("Tiled32 N={n} vs CPU"),
        );
        let n = 64 * tiles;
        let x = random_f32(n, tiles as u64);
        let got = t64.run(n, &x).unwrap();
        let want = interpret(Tiled64::LIFT, "Tiled64", &[n], &[Value::from_f32s(&x)]);
        assert_close(&got, &f32s(&want), 1e-5, &format!("Tiled64 N={n}"));
        assert_close(
            &got,
            &cpu_stencil_1d(&x, 2, "mirror", 0.5),
            1e-5,
            &format!("Tiled64 N={n} vs CPU"),
        );
    }
    assert!(matches!(
        t32.run(33, &random_f32(33, 0)),
        Err(lift_runtime::Error::Precondition { .. })
    ));
}

/// Host reference of the clamped 3x3 box sum.
fn cpu_box9(a: &[f32], n: usize, m: usize) -> Vec<f32> {
    let at = |i: i64, j: i64| {
        a[i.clamp(0, n as i64 - 1) as usize * m + j.clamp(0, m as i64 - 1) as usize]
    };
    (0..n as i64)
        .flat_map(|i| (0..m as i64).map(move |j| (i, j)))
        .map(|(i, j)| {
            (-1..=1)
                .flat_map(|di| (-1..=1).map(move |dj| (di, dj)))
                .map(|(di, dj)| at(i + di, j + dj))
                .sum()
        })
        .collect()
}

#[test]
fn tiled_2d_in_local_memory() {
    for src in [Tiled2d::SOURCE, Tiled2dTiles::SOURCE] {
        assert!(src.contains("reqd_work_group_size(18, 18, 1)"), "{src}");
        assert!(
            src.contains("local float") && src.contains("[324];"),
            "{src}"
        );
        assert_eq!(
            src.matches("barrier(CLK_LOCAL_MEM_FENCE)").count(),
            1,
            "{src}"
        );
        assert_eq!(src.matches("barrier(").count(), 1, "{src}");
    }
    let t = Tiled2d::new(ctx()).unwrap();
    let tt = Tiled2dTiles::new(ctx()).unwrap();
    for (n, m) in [(16, 16), (16, 48), (48, 32), (112, 80)] {
        let a = random_f32(n * m, (n + m) as u64);
        let want = interpret(Tiled2d::LIFT, "Tiled2d", &[n, m], &[matrix(&a, n)]);
        let got = t.run(n, m, &a).unwrap();
        assert_close(&got, &f32s(&want), 1e-5, &format!("Tiled2d {n}x{m}"));
        assert_close(
            &got,
            &cpu_box9(&a, n, m),
            1e-5,
            &format!("Tiled2d {n}x{m} vs CPU"),
        );
        let tiles = tt.run(n, m, &a).unwrap();
        let want = interpret(
            Tiled2dTiles::LIFT,
            "Tiled2dTiles",
            &[n, m],
            &[matrix(&a, n)],
        );
        assert_close(&tiles, &f32s(&want), 1e-5, &format!("Tiled2dTiles {n}x{m}"));
    }
}

/// A high-level `map` of layout primitives after the work-groups is a view on the write
/// side (each work-item writes its results in their final place), not a second pass over
/// results that no barrier could order.
#[test]
fn layout_map_after_work_groups_is_a_view() {
    lift! {
        kernel Untile<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
            join o map(map(join) o transpose) o map_wrg(1, map_wrg(0, |tile|
                map_lcl(1, map_lcl(0, |nbh| reduce_seq(+, 0.0f32) o join $ nbh)) o slide2(3, 1) o to_local(map_lcl(1, map_lcl(0, id))) $ tile
            )) o slide2(18, 16) o pad2(1, clamp) $ x
        }
    }
    let k = Untile::new(ctx()).unwrap();
    for (n, m) in [(16, 16), (48, 32)] {
        let a = random_f32(n * m, (n * m) as u64);
        let want = interpret(Untile::LIFT, "Untile", &[n, m], &[matrix(&a, n)]);
        let got = k.run(n, m, &a).unwrap();
        assert_close(&got, &f32s(&want), 1e-5, &format!("Untile {n}x{m}"));
        assert_close(
            &got,
            &cpu_box9(&a, n, m),
            1e-5,
            &format!("Untile {n}x{m} vs CPU"),
        );
    }
}
