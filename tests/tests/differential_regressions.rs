//! Failures found by the differential run at scale (`cargo run --release -p lift-tests --bin
//! differential`, issue 13), shrunk, pinned. Each pinned program states its expected outcome
//! ([`Expect`]): it *agrees* (compiles, and the default candidate and every candidate agree
//! with the interpreter), or it is *rejected* with a compile error whose reason contains a
//! given text (the pinned behaviour is a clean refusal). A wrong result, a broken OpenCL
//! build or a panic fails, and so does a refusal of a program pinned as agreeing (issue 38:
//! a regression that makes the compiler refuse a program it used to run is caught) and a
//! program pinned as refused that now compiles or is refused for another reason.
//! docs/RELIABILITY.md lists the runs that found them.

use lift_tests::ctx;
use lift_tests::diff::{check, Case, CheckOptions, Outcome};

/// The user functions of the generated programs the failures came from.
const FUNS: &str =
    "fn clampf(a: f32) -> f32 { if a > 1.0 { 1.0 } else { if a < -1.0 { -1.0 } else { a } } }\n";

/// The expected outcome of a pinned program.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// Compiles, and every candidate agrees with the interpreter.
    Agrees,
    /// Refused with a compile error whose reason contains this text.
    Rejected(&'static str),
}

/// Checks `text` (kernel `K`) at each of `sizes` with every candidate (under the race checker
/// if `races`), and panics unless the outcome is `expect` at every size.
fn pinned_with(text: &str, sizes: &[&[usize]], expect: Expect, races: bool, seed: Option<u64>) {
    for (i, s) in sizes.iter().enumerate() {
        let c = Case {
            family: "regression",
            text: text.to_string(),
            sizes: s.to_vec(),
            seed: seed.unwrap_or(i as u64),
        };
        let opts = CheckOptions {
            races,
            rename: false,
        };
        match (check(ctx(), &c, opts), expect) {
            (Outcome::Failed(kind, detail), _) => {
                panic!("{kind} at sizes {s:?}: {detail}\nprogram:\n{text}")
            }
            (Outcome::Agree(runs), Expect::Agrees) => assert!(runs >= 1),
            (Outcome::Rejected(why), Expect::Agrees) => panic!(
                "pinned as agreeing, but rejected at sizes {s:?}: {why}\nprogram:\n{text}"
            ),
            (Outcome::Agree(_), Expect::Rejected(want)) => panic!(
                "pinned as rejected (\"{want}\"), but compiles and agrees at sizes {s:?}\nprogram:\n{text}"
            ),
            (Outcome::Rejected(why), Expect::Rejected(want)) => assert!(
                why.contains(want),
                "pinned as rejected (\"{want}\"), but rejected for another reason at sizes {s:?}: {why}\nprogram:\n{text}"
            ),
        }
    }
}

/// [`pinned_with`] without the race checker, the inputs of size `i` from seed `i`.
fn pinned(text: &str, sizes: &[&[usize]], expect: Expect) {
    pinned_with(text, sizes, expect, false, None)
}

/// `text` must compile and agree with the interpreter at every size.
fn agrees(text: &str, sizes: &[&[usize]]) {
    pinned(text, sizes, Expect::Agrees)
}

/// The check itself: a program pinned as agreeing that the compiler refuses fails its test
/// (here an ill-typed one, refused at once).
#[test]
#[should_panic(expected = "pinned as agreeing, but rejected")]
fn a_refused_program_pinned_as_agreeing_fails() {
    agrees(
        "kernel K<N>(x: [f32; N]) -> [i32; N] { map(|v| v * 2.0) $ x }",
        &[&[4]],
    );
}

/// The check itself: a refusal for another reason than the pinned one fails.
#[test]
#[should_panic(expected = "rejected for another reason")]
fn a_refusal_for_another_reason_fails() {
    pinned(
        "kernel K<N>(x: [f32; N]) -> [i32; N] { map(|v| v * 2.0) $ x }",
        &[&[4]],
        Expect::Rejected("rewrites the temporary"),
    );
}

/// The check itself: a program pinned as refused that compiles and agrees fails.
#[test]
#[should_panic(expected = "but compiles and agrees")]
fn an_agreeing_program_pinned_as_refused_fails() {
    pinned(
        "kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| v * 2.0) $ x }",
        &[&[4]],
        Expect::Rejected("anything"),
    );
}

/// Seed 34 (family `base`, found on POCL and on an H100): a sequential reduction in private
/// memory over a map's result, `to_private(reduce_seq(max, z)) $ map(g) $ x`. The mapping
/// solver ran the map as `map_glb` in the same kernel, so every work-item reduced an array
/// the others were still writing (wrong results on both devices). Fixed by the mapping rule
/// `FeedsSequential` (lift-core/src/explore/mapping.rs): such a map is sequential.
#[test]
fn private_reduction_over_a_parallel_map() {
    agrees(
        "kernel K<N>(x: [f32; N]) -> f32 { #[privatise_accumulator] reduce(max, -1000.0) $ map(|v| max(v, 0.25)) $ x }",
        &[&[1], &[6], &[1000]],
    );
    agrees(
        "kernel K<N>(x: [f32; N]) -> f32 { to_private(reduce_seq(max, -1000.0)) $ map(|v| max(v, 0.25)) $ x }",
        &[&[1], &[1000]],
    );
    // The original program of seed 34.
    agrees(
        "kernel K<N>(x: [f32; N]) -> f32 { #[privatise_accumulator] #[materialise] #[tile_nested_map_reduce(4)] reduce(max, -1000.0) o iterate(3, map(|v| max(v, 0.25))) o gather(stride(2)) $ map(|v| max(v, 0.25)) $ x }",
        &[&[6]],
    );
}

/// Seeds 195 and 1018 (family `vectors`, H100): `vectorize(w, |v| clampf(v * 3.0))` with a
/// scalar user function called on a vector: the OpenCL C passed a `float2`/`float4` to
/// `float uf_clampf(float)` and the driver refused to build it. Fixed: inside `vectorize`,
/// a scalar user function is called lane by lane.
#[test]
fn vectorize_of_a_lambda_calling_a_user_function() {
    for w in [2, 4] {
        agrees(
            &format!("{FUNS}kernel K<N>(x: [f32; N]) -> [f32x{w}; N / {w}] {{ map(vectorize({w}, |v| clampf(v * 3.0))) o as_vector({w}) $ x }}"),
            &[&[16]],
        );
    }
}

/// Seed 594 (family `vectors`, H100): `vectorize(4, |v| if v > 0.0 { v } else { 0.0 - v })`:
/// an `if` on a vector condition was emitted as a C `if` statement, which OpenCL refuses.
/// Fixed: inside `vectorize`, `if` computes both sides and `select`s lane by lane.
#[test]
fn vectorize_of_a_lambda_with_if() {
    agrees(
        "kernel K<N>(x: [f32; N]) -> [f32x4; N / 4] { map(vectorize(4, |v| if v > 0.0 { v } else { 0.0 - v })) o as_vector(4) o map(|v| if v > 0.0 { v } else { 0.0 - v }) $ x }",
        &[&[4], &[16]],
    );
}

/// Seeds 2507, 2580 and 2942 (family `vectors`, H100): `vectorize(w, |v| v as i32 as f32 +
/// v)`: the casts were emitted as C casts of a vector (`(int)vload2(..)`), which OpenCL
/// refuses. Fixed: inside `vectorize`, a cast is `convert_T<w>` of the lanes; the random
/// inputs include negative and fractional values, so rounding toward zero is checked too.
#[test]
fn vectorize_of_a_lambda_with_casts() {
    for w in [2, 4, 8] {
        agrees(
            &format!("kernel K<N>(x: [f32; N]) -> [f32x{w}; N / {w}] {{ map(vectorize({w}, |v| v as i32 as f32 + v)) o as_vector({w}) $ x }}"),
            &[&[w], &[8 * w]],
        );
    }
    agrees(
        "kernel K<N>(x: [f32; N]) -> [f32; N] { as_scalar o #[interchange_maps] map(vectorize(4, |v| v as i32 as f32 + v)) o as_vector(4) o map(|v| v as i32 as f32 + v) $ x }",
        &[&[4], &[12]],
    );
    agrees(
        "kernel K<N>(x: [i32; N]) -> [f32x4; N / 4] { map(vectorize(4, |v| (v as f32) * 0.5 + (2 as f32))) o as_vector(4) $ x }",
        &[&[4], &[12]],
    );
}

/// Seed 6811 (family `base`, a wrong result on the H100; POCL agreed, the race checker
/// catches it): `map_wrg(..) $ map(|r| r[0] - r[2]) $ map(map(f)) $ x` lowered the producers
/// to sequential code before the `map_wrg`, run by every work-item, which rewrote one global
/// temporary (`map_seq(f)` of each row) on every row: work-items overwrote the row another
/// was reading. Fixed: code generation refuses such a rewrite by all work-items (a clean
/// rejection instead of a race); since normalisation computes only the elements `r[0]` and
/// `r[2]` of the row (`index_of_map`), that program compiles and agrees, and a variant that
/// reads the whole row is the one refused.
#[test]
fn sequential_code_run_by_every_work_item_rewriting_a_temporary() {
    let agreeing = "kernel K<N, M>(x: [[f32; M]; N], alpha: f32) -> [[f32; 4]; N / 4] { map_wrg(to_local(map_lcl(|v| v * alpha))) o split(4) $ map(|r| r[0] - r[2]) $ map(map(|v| v - 0.5)) $ x }";
    let refused = "kernel K<N, M>(x: [[f32; M]; N], alpha: f32) -> [[f32; 4]; N / 4] { map_wrg(to_local(map_lcl(|v| v * alpha))) o split(4) $ map(|r| (reduce(+, 0.0) $ r) - r[0]) $ map(map(|v| v - 0.5)) $ x }";
    let sizes: &[&[usize]] = &[&[24, 3], &[64, 5]];
    pinned_with(agreeing, sizes, Expect::Agrees, true, Some(6811));
    pinned_with(
        refused,
        sizes,
        Expect::Rejected("rewrites the temporary"),
        true,
        Some(6811),
    );
}

/// Seeds 3819 (family `base`) and 1359 (`stencil3d`): no wrong result, but each ran past the
/// differential run's 100 s limit on the H100 (3819 for minutes on POCL too): the explorer
/// enumerated every solution of the mapping problem (exponentially many for many map nests)
/// and lowered each. Fixed: at most `MAX_SOLUTIONS` solutions, lowered on demand, at most
/// `MAX_TRIED` of them code-generated. Now a few seconds each.
#[test]
fn many_map_nests_compile_quickly() {
    agrees(
        "kernel K(x: [[f32; 8]; 7], alpha: f32) -> [[[f32; 1]; 8]; 7] { map(transpose) o split(1) o iterate(3, map(map(|v| v - 0.5))) o join $ iterate(3, map(#[split_join(_)] map(map(|v| v - 0.5)))) o #[optimise_data_layout] map(#[optimise_data_layout] map(map(|v| v * alpha))) o split(1) $ x }",
        &[&[]],
    );
    agrees(
        "kernel K<N, K>(x: [[[f32; K]; 3]; N]) -> [[[f32; K + 1]; 3]; (N + 1) / 2 + 1] { map3(reduce(+, 0.0) o join o join) o #[optimise_data_layout] #[privatise_accumulator] slide3(1, 2, 1, 1, 2, 1) o pad3(0, 2, 0, 0, 0, 2, mirror) $ x }",
        &[&[5, 5]],
    );
}
