//! `split_cover(t)` (blocks of `t` covering an array, the last one shifted back to end at its
//! length) and `join_cover(n)` (its inverse) on the default device against the reference
//! interpreter, at lengths that are multiples of the block and lengths that are not: reads
//! through both views, maps written through `join_cover` (where overlapping blocks disagree,
//! each element comes from the block `join_cover` reads it from), and a result that is
//! `split_cover` of a computed array (every block written, the shared elements twice).

use lift_runtime::core::interp::Value;
use lift_runtime::{lift, Error};
use lift_tests::{assert_close, ctx, f32s, interpret, random_f32};

lift! {
    /// Each element doubled plus one, block by block, written back through `join_cover`.
    kernel CoverMap<N>(x: [f32; N]) -> [f32; N] {
        join_cover(N) o map(map(|v| v * 2.0 + 1.0)) o split_cover(4) $ x
    }
    /// The sum of each block of five (the last block overlapping the one before).
    kernel CoverSums<N>(x: [f32; N]) -> [f32; (N + 4) / 5] {
        map(reduce(+, 0.0)) o split_cover(5) $ x
    }
    /// Blocks that disagree where they overlap (each element plus its block's first).
    kernel CoverShift<N>(x: [f32; N]) -> [f32; N] {
        join_cover(N) o map(|blk| map(|v| v + blk[0]) $ blk) o split_cover(4) $ x
    }
    /// A computed array returned as covering blocks.
    kernel CoverOut<N>(x: [f32; N]) -> [[f32; 3]; (N + 2) / 3] {
        split_cover(3) o map(|v| v * 2.0) $ x
    }
    /// Reading through `join_cover` of the blocks gives the input back.
    kernel CoverRoundTrip<N>(x: [f32; N]) -> [f32; N] {
        map(|v| v - 1.0) o join_cover(N) o split_cover(3) $ x
    }
}

/// Lengths from one block up: multiples of 3, 4 and 5 and not.
const SIZES: &[usize] = &[5, 6, 7, 12, 13, 31, 64, 257];

/// Runs every candidate of `$k` at length `$n` on `$x` against `$want`, then `run`.
macro_rules! check {
    ($k:ident, $n:expr, $x:expr, $want:expr) => {{
        let k = $k::new(ctx()).unwrap();
        let what = format!("{} N={}", stringify!($k), $n);
        assert_close(&k.run($n, $x).unwrap(), $want, 1e-5, &what);
        let x = ctx().upload($x).unwrap();
        let cands = k.candidates().unwrap();
        for c in 0..cands.len() {
            let out = ctx().alloc::<f32>($want.len()).unwrap();
            match k.launch_candidate(c, $n, &x, &out) {
                Ok(ev) => {
                    ev.wait().unwrap();
                    let what = format!("{what} {}", cands[c].name);
                    assert_close(&out.download().unwrap(), $want, 1e-5, &what);
                }
                Err(Error::Launch { reason }) if reason.contains("does not apply") => {}
                Err(e) => panic!("{what} {}: {e}", cands[c].name),
            }
        }
    }};
}

#[test]
fn covered_blocks_match_the_interpreter() {
    for &n in SIZES {
        let x = random_f32(n, n as u64);
        let args = [Value::from_f32s(&x)];
        let want = f32s(&interpret(CoverMap::LIFT, "CoverMap", &[n], &args));
        check!(CoverMap, n, &x, &want);
        let want = f32s(&interpret(CoverSums::LIFT, "CoverSums", &[n], &args));
        check!(CoverSums, n, &x, &want);
        let want = f32s(&interpret(
            CoverRoundTrip::LIFT,
            "CoverRoundTrip",
            &[n],
            &args,
        ));
        check!(CoverRoundTrip, n, &x, &want);
        let want = f32s(&interpret(CoverShift::LIFT, "CoverShift", &[n], &args));
        check!(CoverShift, n, &x, &want);
        let want = f32s(&interpret(CoverOut::LIFT, "CoverOut", &[n], &args));
        check!(CoverOut, n, &x, &want);
    }
}

/// A length shorter than one block is refused before anything runs.
#[test]
fn a_block_longer_than_the_input_is_an_error() {
    let k = CoverSums::new(ctx()).unwrap();
    let err = k.run(4, &random_f32(4, 1)).unwrap_err();
    assert!(matches!(err, Error::Precondition { .. }), "{err}");
    assert!(err.to_string().contains("split_cover"), "{err}");
}
