//! Layout changes through local memory (`tiles(t, r, pad)`, `lift_core::explore::tiles`):
//! every candidate of map nests over transposed views, in several spellings (`o transpose`,
//! `$ transpose $`, `transpose_w`, a bare `transpose`, an element function reading a
//! scalar), launched on the default device against the interpreter at sizes that are and are
//! not multiples of the tile (1, primes, 1000 x 3 and 3 x 1000, multiples of 32).

use lift_runtime::core::interp::{Scalar, Value};
use lift_runtime::{lift, Error};
use lift_tests::{assert_close, ctx, f32s, interpret, matrix, random_f32};

lift! {
    /// The transposed copy of issue 36.
    kernel Copy<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] {
        map(map(id)) o transpose $ x
    }
    /// A lambda spelling of the copy, the transpose applied.
    kernel Lambdas<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] {
        map(|c| map(|v| v) $ c) $ transpose $ x
    }
    /// A transpose on write after an element-wise map.
    kernel Written<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] {
        transpose_w o map(map(|v| 2.0 * v)) $ x
    }
    /// Only the view.
    kernel Bare<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] {
        transpose $ x
    }
    /// An element function reading a scalar parameter.
    kernel Affine<N, M>(x: [[f32; M]; N], a: f32) -> [[f32; N]; M] {
        map(map(|v| a * v + 1.0)) o transpose $ x
    }
}

/// Runs every candidate of kernel struct `$k` (one matrix input `$dx`, then `$extra`
/// arguments) at `n x m` against `$want`; gives the names of those that ran.
macro_rules! every_candidate {
    ($k:ident, $n:expr, $m:expr, $dx:expr, $want:expr $(, $extra:expr)*) => {{
        let k = $k::new(ctx()).unwrap();
        let cands = k.candidates().unwrap();
        let mut ran = Vec::new();
        for (c, cand) in cands.iter().enumerate() {
            let out = ctx().alloc::<f32>($want.len()).unwrap();
            match k.launch_candidate(c, $n, $m, $dx $(, $extra)*, &out) {
                Ok(ev) => {
                    ev.wait().unwrap();
                    let what = format!("{} {}: {}x{}", stringify!($k), cand.name, $n, $m);
                    assert_close(&out.download().unwrap(), $want, 1e-6, &what);
                    ran.push(cand.name.clone());
                }
                Err(Error::Launch { reason }) if reason.contains("does not apply") => {
                    assert!(!cand.conditions.is_empty(), "{}", cand.name);
                }
                Err(e) => panic!("{} {}: {e}", stringify!($k), cand.name),
            }
        }
        ran
    }};
}

/// Sizes: 1, primes, a thin matrix both ways, multiples of the tile and not.
const SIZES: [(usize, usize); 7] = [
    (1, 1),
    (7, 5),
    (1000, 3),
    (3, 1000),
    (64, 96),
    (65, 33),
    (97, 131),
];

#[test]
fn every_transpose_candidate_matches_the_interpreter() {
    for (n, m) in SIZES {
        let x = random_f32(n * m, (n * 31 + m) as u64);
        let dx = ctx().upload(&x).unwrap();
        let arg = [matrix(&x, n)];
        let multiple = n % 32 == 0 && m % 32 == 0;
        let tiles = |ran: &[String]| {
            let t = ran.iter().filter(|c| c.starts_with("tiles")).count();
            assert_eq!(t, if multiple { 4 } else { 2 }, "{n}x{m}: {ran:?}");
        };
        for (lift, name) in [
            (Copy::LIFT, "Copy"),
            (Lambdas::LIFT, "Lambdas"),
            (Written::LIFT, "Written"),
            (Bare::LIFT, "Bare"),
        ] {
            let want = f32s(&interpret(lift, name, &[n, m], &arg));
            let ran = match name {
                "Copy" => every_candidate!(Copy, n, m, &dx, &want),
                "Lambdas" => every_candidate!(Lambdas, n, m, &dx, &want),
                "Written" => every_candidate!(Written, n, m, &dx, &want),
                _ => every_candidate!(Bare, n, m, &dx, &want),
            };
            tiles(&ran);
            assert!(ran.iter().any(|c| c == "map"), "{name} {n}x{m}: {ran:?}");
        }
        let args = [matrix(&x, n), Value::Scalar(Scalar::F32(0.5))];
        let want = f32s(&interpret(Affine::LIFT, "Affine", &[n, m], &args));
        tiles(&every_candidate!(Affine, n, m, &dx, &want, 0.5));
    }
}

/// The default candidate of every spelling is the padded tiling (it applies to every size),
/// its work-group `32 x 8` from the device model, its local tile padded against bank
/// conflicts (33 words a row), one barrier between the copies.
#[test]
fn the_default_stages_tiles_through_local_memory() {
    for (source, lowered) in [
        (Copy::SOURCE, Copy::LOWERED),
        (Lambdas::SOURCE, Lambdas::LOWERED),
        (Written::SOURCE, Written::LOWERED),
        (Bare::SOURCE, Bare::LOWERED),
        (Affine::SOURCE, Affine::LOWERED),
    ] {
        assert!(lowered.contains("to_local("), "{lowered}");
        assert!(
            source.contains("reqd_work_group_size(32, 8, 1)"),
            "{source}"
        );
        assert!(source.contains("local float tmp_l_6[1056]"), "{source}");
        assert_eq!(source.matches("barrier(").count(), 1, "{source}");
    }
    // The untuned launch at any size runs it and is right.
    let (n, m) = (1000, 3);
    let x = random_f32(n * m, 3);
    let got = Affine::new(ctx()).unwrap().run(n, m, &x, 0.5).unwrap();
    let want = f32s(&interpret(
        Affine::LIFT,
        "Affine",
        &[n, m],
        &[matrix(&x, n), Value::Scalar(Scalar::F32(0.5))],
    ));
    assert_close(&got, &want, 1e-6, "Affine 1000x3");
}
