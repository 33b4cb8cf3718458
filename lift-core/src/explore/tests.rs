//! Tests of the explorer through the driver: which strategies apply to which programs, with
//! which parameters and conditions. (Every candidate is run against the interpreter on POCL in
//! `tests/tests/explore.rs`.)

use crate::driver::{compile_kernel, Compiled, CompiledCandidate};
use crate::parse::parse_program_str;
use crate::typeck::check_program;

fn compile(src: &str) -> Compiled {
    let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let k = p.kernels.last().map(|k| k.name.clone()).unwrap_or_default();
    compile_kernel(&p, &k).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// The candidates of the blocked strategy.
fn blocked_of(c: &Compiled) -> Vec<&CompiledCandidate> {
    c.candidates
        .iter()
        .filter(|c| c.strategy == "blocked")
        .collect()
}

fn names(c: &Compiled) -> Vec<&str> {
    c.candidates.iter().map(|c| c.name.as_str()).collect()
}

/// Asserts that no candidate's name satisfies `unwanted`.
fn assert_no_candidate(c: &Compiled, unwanted: impl Fn(&str) -> bool) {
    assert!(!names(c).into_iter().any(unwanted), "{:?}", names(c));
}

const JACOBI: &str = "kernel J<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x }";

/// 2-D stencils with a window of several rows get strips of `s` rows per work-item: unpadded
/// (a launch-time condition `N % s == 0`) and padded (any `N`, result cut with `take`).
#[test]
fn stencil_strips() {
    let c = compile(JACOBI);
    let strip8 = c
        .candidates
        .iter()
        .find(|c| c.name == "strips(s=8,pad=0)")
        .unwrap_or_else(|| panic!("{:?}", names(&c)));
    assert!(
        strip8
            .generated
            .lowered
            .starts_with("join o map_glb(1, transpose o map_glb(0, map_seq_unroll("),
        "{}",
        strip8.generated.lowered
    );
    assert_eq!(strip8.conditions.len(), 1, "{:?}", strip8.conditions);
    let padded = c
        .candidates
        .iter()
        .find(|c| c.name == "strips(s=8,pad=1)")
        .expect("padded strips");
    assert!(padded.conditions.is_empty(), "{:?}", padded.conditions);
    assert!(
        padded.generated.lowered.starts_with("take(N) "),
        "{}",
        padded.generated.lowered
    );
    // The default mapping comes after the strips and the sliding strips, then the solver's
    // other mappings.
    let strategies: Vec<&str> = c.candidates.iter().map(|c| c.strategy.as_str()).collect();
    let map = strategies.iter().position(|s| *s == "map").expect("map");
    assert!(
        strategies[..map]
            .iter()
            .all(|s| *s == "strips" || *s == "slides"),
        "{strategies:?}"
    );
    let slides = c
        .candidates
        .iter()
        .find(|c| c.name == "slides(s=16,pad=1)")
        .unwrap_or_else(|| panic!("{:?}", names(&c)));
    assert!(
        slides.generated.lowered.contains("map_seq_slide("),
        "{}",
        slides.generated.lowered
    );
    assert!(
        strategies[map + 1..].iter().all(|s| *s == "mapping"),
        "{strategies:?}"
    );
    assert!(map + 1 < strategies.len(), "{strategies:?}");
    // One row of window: no strips.
    let row = compile("kernel R<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|nbh| nbh[0][0] + nbh[0][2]) o slide2(1, 1, 3, 1) o pad2(0, 0, 1, 1, clamp) $ x }");
    assert!(
        row.candidates.iter().all(|c| c.strategy != "strips"),
        "{:?}",
        names(&row)
    );
}

/// 1-D stencils get sliding strips (`map_seq_slide` over `slide(s + n - 1, s)`), shortest
/// first, before the default mapping: exact (`N % s == 0`) and padded (any `N`, the default).
#[test]
fn stencil_1d_slides() {
    let c = compile("kernel B<N>(x: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x }");
    let strategies: Vec<&str> = c.candidates.iter().map(|c| c.strategy.as_str()).collect();
    let map = strategies.iter().position(|s| *s == "map").expect("map");
    assert!(
        strategies[..map].iter().all(|s| *s == "slides"),
        "{strategies:?}"
    );
    assert_eq!(names(&c)[..2], ["slides(s=4,pad=0)", "slides(s=4,pad=1)"]);
    let exact = c
        .candidates
        .iter()
        .find(|c| c.name == "slides(s=4,pad=0)")
        .unwrap_or_else(|| panic!("{:?}", names(&c)));
    assert!(
        exact
            .generated
            .lowered
            .starts_with("join o map_glb(0, map_seq_slide("),
        "{}",
        exact.generated.lowered
    );
    // A window of 6 on the padded input, which must be a multiple of 4 longer.
    assert_eq!(exact.conditions.len(), 2, "{:?}", exact.conditions);
    let padded = c
        .candidates
        .iter()
        .find(|c| c.name == "slides(s=4,pad=1)")
        .expect("padded slides");
    assert!(padded.conditions.is_empty(), "{:?}", padded.conditions);
    assert!(
        padded.generated.lowered.starts_with("take(N) "),
        "{}",
        padded.generated.lowered
    );
    // A window of step 2 shares elements but is not walked one output at a time: none.
    let step2 = compile(
        "kernel S<N>(x: [f32; 2 * N + 1]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 2) $ x }",
    );
    assert_no_candidate(&step2, |n| n.starts_with("slides"));
}

/// 3-D stencils: strips of planes, rows and columns on `map_glb(1)` and `map_glb(0)`.
#[test]
fn stencil_strips_3d() {
    let c = compile("kernel J<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] { map3(|nbh| 0.142857 * (nbh[0][1][1] + nbh[1][0][1] + nbh[1][1][0] + nbh[1][1][1] + nbh[1][1][2] + nbh[1][2][1] + nbh[2][1][1])) o slide3(3, 1) o pad3(1, clamp) $ x }");
    let s = c
        .candidates
        .iter()
        .find(|c| c.name == "strips(s=4,pad=0)")
        .unwrap_or_else(|| panic!("{:?}", names(&c)));
    assert!(
        s.generated.lowered.starts_with(
            "join o map_glb(2, transpose o map_glb(1, transpose o map_glb(0, map_seq_unroll("
        ),
        "{}",
        s.generated.lowered
    );
    assert!(
        !s.generated.source.contains("for ("),
        "{}",
        s.generated.source
    );
}

const GEMM: &str = "kernel G<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) o transpose $ b) $ a }";

/// Nested map-reduce over views gets 2-D blocked candidates: exact (conditions on `N`, `M`
/// and `K`), covered (`pad=3`: minimum `N` and `M`, `K` a multiple of `tk`), covered with `K`
/// zero-padded (`pad=4`: minimum `N` and `M`, `K` not a multiple of `tk`) and padded in every
/// dimension (`pad=2`: no condition).
#[test]
fn blocked_matrix_products() {
    let c = compile(GEMM);
    let blocked: Vec<_> = c
        .candidates
        .iter()
        .filter(|c| c.strategy == "blocked")
        .collect();
    assert!(blocked.len() >= 4, "{:?}", names(&c));
    // Each tiling with its slice steps looped (u=0) and unrolled (u=1), each edge handling.
    for u in [0, 1] {
        for pad in [0, 2, 3, 4] {
            let name = format!("blocked(tm=128,tn=128,tk=16,l0=16,l1=16,v=4,u={u},pad={pad})");
            assert!(blocked.iter().any(|c| c.name == name), "{name}");
        }
    }
    // Covered blocks index rows as block start plus offset: no clamp per row; the last
    // block writes only the rows the block before it does not.
    let covered = blocked
        .iter()
        .find(|c| c.name.ends_with("u=1,pad=3)"))
        .unwrap();
    let src = &covered.generated.source;
    assert!(src.contains("lift_min(N - 128, 128 * wg1)"), "{src}");
    assert!(!src.contains("lift_min(N - 1,"), "{src}");
    assert!(
        src.contains("if (128 * wg1 <= l1 + lift_min(N - 128, 128 * wg1)) {"),
        "{src}"
    );
    for b in &blocked {
        let pad = b.params.iter().find(|(n, _)| n == "pad").map_or(0, |p| p.1);
        let want = [3, 1, 0, 3, 3][pad as usize];
        assert_eq!(b.conditions.len(), want, "{}: {:?}", b.name, b.conditions);
        assert_eq!(b.generated.kernels.len(), 1);
        assert!(b.generated.temporaries.is_empty());
    }
}

/// The same product with the second operand given transposed (`A·Bᵀ`), and spelled with a
/// composition instead of an application, still gets blocked candidates.
#[test]
fn blocked_other_spellings() {
    for src in [
        "kernel G<N, K, M>(a: [[f32; K]; N], bt: [[f32; K]; M]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) $ bt) $ a }",
        "kernel G<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) $ map(|p| p.1 * p.0) $ zip(c, r)) $ transpose $ b) $ a }",
    ] {
        let c = compile(src);
        assert!(
            c.candidates.iter().any(|c| c.strategy == "blocked"),
            "{src}\n{:?}\n{:?}",
            names(&c),
            c.rejected
        );
    }
}

/// The shared dimension is zero-padded (`pad=2`, no condition on `K`) only where a pair of
/// zeros adds nothing to the fold: `+` of products or sums, not `max`, not a fused fold.
#[test]
fn shared_dimension_padded_only_for_neutral_zeros() {
    let any_k = |src: &str| {
        compile(src)
            .candidates
            .iter()
            .any(|c| c.strategy == "blocked" && c.conditions.is_empty())
    };
    assert!(any_k(GEMM));
    assert!(any_k(&GEMM.replace("p.0 * p.1", "p.0 + p.1")));
    assert!(!any_k(&GEMM.replace("reduce(+, 0.0)", "reduce(max, 0.0)")));
    assert!(!any_k(&GEMM.replace("p.0 * p.1", "p.0 * p.1 + 1.0")));
}

/// An epilogue around the fold (`alpha * dot + 1`, `sqrt`) keeps the blocked candidates; one
/// that reads the data again (`dot + r[0]`) is not split off, and only the default remains.
#[test]
fn epilogues_around_the_fold() {
    let blocked = |src: &str| {
        compile(src)
            .candidates
            .iter()
            .any(|c| c.strategy == "blocked")
    };
    let with = |e: &str| GEMM.replace("reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)", e);
    let dot = "(reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c))";
    assert!(blocked(&with(&format!("2.0 * {dot} + 1.0"))));
    assert!(blocked(&with(&format!("sqrt({dot})"))));
    assert!(blocked(&with(&format!("(|s| s * s) $ {dot}"))));
    assert!(!blocked(&with(&format!("{dot} + r[0]"))));
    // A bias per column, zipped with the columns (and read through a projection).
    let biased = GEMM
        .replace("b: [[f32; M]; K]", "b: [[f32; M]; K], bias: [f32; M]")
        .replace(
            "map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) o transpose $ b",
            "map(|cb| cb.1 + (reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, cb.0))) $ zip(transpose $ b, bias)",
        );
    assert_ne!(biased, GEMM);
    assert!(blocked(&biased));
    // An element of another matrix per result, zipped with the rows and then with the
    // columns (BLAS's `beta * c[i][j]`, a residual): one blocked kernel, no temporary.
    let blas = "kernel K<N, K, M>(alpha: f32, beta: f32, a: [[f32; K]; N], b: [[f32; M]; K], c: [[f32; M]; N]) -> [[f32; M]; N] { map(|(ra, rc)| map(|(cb, x)| alpha * (reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(ra, cb)) + beta * x) $ zip(transpose $ b, rc)) $ zip(a, c) }";
    let residual = "kernel K<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K], c: [[f32; M]; N]) -> [[f32; M]; N] { map(|r| map(|q| max(0.0, q.1 + (reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r.0, q.0)))) $ zip(transpose $ b, r.1)) $ zip(a, c) }";
    for src in [blas, residual] {
        let c = compile(src);
        let blocked = blocked_of(&c);
        assert!(blocked.len() >= 4, "{:?}", names(&c));
        assert!(blocked
            .iter()
            .all(|b| b.generated.temporaries.is_empty() && b.generated.kernels.len() == 1));
        // The blocked product first; the product and the epilogue as two kernels after it.
        assert_eq!(c.candidates[0].strategy, "blocked", "{:?}", names(&c));
        assert!(c
            .candidates
            .iter()
            .any(|c| c.name.starts_with("stages(kernels=2")));
    }
    // The epilogue reading the row itself (not an element paired with the column) is not
    // blocked this way.
    let row = residual.replace("q.1 + (", "r.1[0] + (");
    assert!(!compile(&row)
        .candidates
        .iter()
        .any(|c| c.strategy == "blocked"));
}

/// A product in disguise (`products`): a 3x3 convolution over `slide2` windows, its windows
/// and filters flattened by `join o join` inside the lambdas, gets blocked candidates (the
/// windows are the rows of `A`, never materialised); with bias and ReLU reading the filter's
/// other component, the blocked product applies them where it writes each result (one
/// kernel, no temporary), and its partial products (split-K) sum with them.
#[test]
fn convolutions_are_blocked_products() {
    let plain = "kernel K<H, W, C, F>(x: [[[f32; C]; W]; H], w: [[[[f32; C]; 3]; 3]; F]) -> [[[f32; F]; W]; H] { map2(|win| map(|c| reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(join o join $ win, join o join $ c)) $ w) o slide2(3, 1) o pad2(1, constant([0.0; C])) $ x }";
    let c = compile(plain);
    let blocked = blocked_of(&c);
    assert!(blocked.len() >= 4, "{:?}", names(&c));
    assert!(blocked.iter().all(|b| b.generated.temporaries.is_empty()));
    let biased = "kernel K<H, W, C, F>(x: [[[f32; C]; W]; H], w: [[[[f32; C]; 3]; 3]; F], b: [f32; F]) -> [[[f32; F]; W]; H] { map2(|win| map(|wb| max(0.0, wb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(join o join $ win, join o join $ wb.0)))) $ zip(w, b)) o slide2(3, 1) o pad2(1, constant([0.0; C])) $ x }";
    let c = compile(biased);
    let fused = blocked_of(&c);
    assert!(fused.len() >= 4, "{:?}", names(&c));
    for b in &fused {
        assert_eq!(b.generated.kernels.len(), 1, "{}", b.name);
        assert!(b.generated.temporaries.is_empty(), "{}", b.name);
    }
    assert_eq!(c.candidates[0].strategy, "blocked", "{:?}", names(&c));
    let split: Vec<_> = c
        .candidates
        .iter()
        .filter(|c| c.name.contains(",split=") && !c.name.contains("materialise="))
        .collect();
    assert!(!split.is_empty(), "{:?}", names(&c));
    for s in &split {
        assert_eq!(s.generated.kernels.len(), 2, "{}", s.name);
    }
}

/// Products get partial-product candidates (split-K): two kernels, the batch of slice products
/// blocked over `map_wrg(2, ..)` and the sums, each with the condition that its partial results
/// take at most four times the operands' memory; a convolution with bias and ReLU too (the epilogue in the
/// sums' kernel); a fold that is not a sum from zero does not.
#[test]
fn products_get_partial_product_candidates() {
    let gemm = "kernel K<N, M, K>(a: [[f32; K]; N], b: [[f32; K]; M]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(r, c)) $ b) $ a }";
    let conv = "kernel K<H, W, C, F>(x: [[[f32; C]; W]; H], w: [[[[f32; C]; 3]; 3]; F], b: [f32; F]) -> [[[f32; F]; W]; H] { map2(|win| map(|wb| max(0.0, wb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(join o join $ win, join o join $ wb.0)))) $ zip(w, b)) o slide2(3, 1) o pad2(1, constant([0.0; C])) $ x }";
    for src in [gemm, conv] {
        let c = compile(src);
        // (A convolution's products over its windows; those over the materialised windows
        // are tested below.)
        let split: Vec<_> = c
            .candidates
            .iter()
            .filter(|c| c.name.contains(",split=") && !c.name.contains("materialise="))
            .collect();
        for s in [2, 4, 8, 16, 32] {
            let of_s: Vec<_> = split
                .iter()
                .filter(|c| c.name.contains(&format!(",split={s},")))
                .collect();
            // The covered blockings of the three largest tilings, looped and unrolled, then
            // one padded.
            assert_eq!(of_s.len(), 7, "split={s}: {:?}", names(&c));
            for tiles in ["tm=128,s0.tn=128", "tm=64,s0.tn=128", "tm=128,s0.tn=64"] {
                let covered = of_s
                    .iter()
                    .filter(|c| c.name.contains(tiles) && c.name.ends_with("pad=3)"))
                    .count();
                assert_eq!(covered, 2, "split={s}, {tiles}: {:?}", names(&c));
            }
            assert_eq!(
                of_s.iter().filter(|c| c.name.ends_with("pad=1)")).count(),
                1
            );
        }
        // Larger blocks first (over every slice count), fewer slices first among equal ones.
        let tiles: Vec<bool> = split
            .iter()
            .map(|c| c.name.contains("tm=128,s0.tn=128"))
            .collect();
        assert!(tiles.windows(2).all(|w| w[0] || !w[1]), "{:?}", names(&c));
        for cand in &split {
            assert_eq!(cand.generated.kernels.len(), 2, "{}", cand.name);
            assert_eq!(cand.generated.temporaries.len(), 1, "{}", cand.name);
            assert!(
                cand.generated.lowered.starts_with("2 kernels: map_wrg(2, "),
                "{}",
                cand.generated.lowered
            );
            assert!(
                cand.conditions.iter().any(|p| p.origin == "split_shared"),
                "{}: {:?}",
                cand.name,
                cand.conditions
            );
        }
        // After every unsplit blocked candidate (over the view).
        let first_split = c.candidates.iter().position(|c| c.name.contains(",split="));
        let last_blocked = c.candidates.iter().rposition(|c| {
            c.name.contains("tm=")
                && !c.name.contains(",split=")
                && !c.name.contains("materialise=")
        });
        assert!(first_split > last_blocked, "{:?}", names(&c));
    }
    let max_plus = "kernel K<N, M, K>(a: [[f32; K]; N], b: [[f32; K]; M]) -> [[f32; M]; N] { map(|r| map(|c| reduce(max, -1000.0) o map(|q| q.0 + q.1) $ zip(r, c)) $ b) $ a }";
    assert_no_candidate(&compile(max_plus), |n| n.contains("split="));
}

/// Windows that share no rows (a 2x2 pooling, `slide2(2, 2)`) get no strips (consecutive
/// outputs would share no loads): the default mapping, parallel over the channels too, comes
/// first.
#[test]
fn non_overlapping_windows_get_no_strips() {
    let pool = "kernel P<H, W, C>(x: [[[f32; C]; W]; H]) -> [[[f32; C]; (W - 2) / 2 + 1]; (H - 2) / 2 + 1] { map2(|win| map(|ch| reduce(max, -1.0e30) $ ch) o transpose o join $ win) o slide2(2, 2) $ x }";
    let c = compile(pool);
    assert_no_candidate(&c, |n| n.starts_with("strips"));
    assert!(
        c.candidates[0].generated.lowered.contains("map_glb(2"),
        "{}",
        c.candidates[0].generated.lowered
    );
    // Overlapping windows keep them.
    assert!(names(&compile(JACOBI))
        .iter()
        .any(|n| n.starts_with("strips")));
}

/// A convolution (a product over `slide2` windows) gets candidates that materialise the
/// windows first (im2col, `materialise=1`): a copy kernel, then a blocked product reading the
/// materialised rows (no window left in its view), unsplit and split; a plain product, whose
/// rows are data already, and a stencil, which is no product, get none.
#[test]
fn products_over_windows_get_materialised_candidates() {
    let conv = "kernel K<H, W, C, F>(x: [[[f32; C]; W]; H], w: [[[[f32; C]; 3]; 3]; F], b: [f32; F]) -> [[[f32; F]; W]; H] { map2(|win| map(|wb| max(0.0, wb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(join o join $ win, join o join $ wb.0)))) $ zip(w, b)) o slide2(3, 1) o pad2(1, constant([0.0; C])) $ x }";
    let c = compile(conv);
    let mat: Vec<_> = c
        .candidates
        .iter()
        .filter(|c| c.name.contains("materialise=1"))
        .collect();
    assert!(mat.len() >= 16, "{:?}", names(&c));
    assert!(mat.iter().any(|c| c.name.contains(",split=")));
    for m in &mat {
        assert!(m.name.starts_with("stages(kernels="), "{}", m.name);
        let product = m.generated.lowered.split(" ; ").nth(1).unwrap_or("");
        assert!(product.contains("lift_m0"), "{}: {product}", m.name);
        assert!(!product.contains("slide2"), "{}: {product}", m.name);
        // The copy, then the product applying bias and ReLU (a split product: and the sums).
        assert!(m.generated.kernels.len() >= 2, "{}", m.name);
    }
    // The padded input materialised (a copy of `pad2 $ x`), the product over its windows.
    let input: Vec<_> = c
        .candidates
        .iter()
        .filter(|c| c.name.contains("materialise=2"))
        .collect();
    assert!(input.len() >= 16, "{:?}", names(&c));
    for m in &input {
        let mut stages = m.generated.lowered.split(" ; ");
        let (copy, product) = (stages.next().unwrap_or(""), stages.next().unwrap_or(""));
        assert!(
            copy.contains("pad2") && !copy.contains("slide2"),
            "{}: {copy}",
            m.name
        );
        assert!(
            product.contains("lift_i0") && !product.contains("pad2"),
            "{}: {product}",
            m.name
        );
    }
    // Without a padding there is nothing below the windows to materialise.
    let unpadded = conv
        .replace(" o pad2(1, constant([0.0; C]))", "")
        .replace("-> [[[f32; F]; W]; H]", "-> [[[f32; F]; W - 2]; H - 2]");
    assert_no_candidate(&compile(&unpadded), |n| n.contains("materialise=2"));
    let gemm = "kernel K<N, M, K>(a: [[f32; K]; N], b: [[f32; K]; M]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(r, c)) $ b) $ a }";
    assert_no_candidate(&compile(gemm), |n| n.contains("materialise="));
    assert_no_candidate(&compile(JACOBI), |n| n.contains("materialise="));
}

/// The default configuration the macro derives alone (`compile_default`, the default scope,
/// stopping at the first candidate that applies to every size) is the one the whole space
/// puts first among those that apply to every size: products in several spellings and with
/// epilogues, convolutions, fission, stencils, reductions, GEMV, maps, scans; and it is cheaper.
#[test]
fn the_default_scope_finds_the_default_of_the_whole_space() {
    let programs = [
        JACOBI,
        "kernel G<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] { map(|row| map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, col)) o transpose $ b) $ a }",
        "kernel G<N, K, M>(a: [[f32; K]; N], bt: [[f32; K]; M], c: [[f32; M]; N]) -> [[f32; M]; N] { map(|(ra, rc)| map(|(cb, e)| 2.0 * e + (reduce(+, 0.0) o map(|(x, y)| x * y) $ zip(ra, cb))) $ zip(bt, rc)) $ zip(a, c) }",
        "kernel B<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|w| 0.25 * (w[0][1] + w[1][0] + w[1][2] + w[2][1])) o slide2(3, 1) o pad2(1, constant(0.0)) $ x }",
        "kernel R<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) o map(|v| abs(v)) $ x }",
        "kernel V<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] { map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a }",
        "kernel T<N, M>(a: [[f32; M]; N], x: [f32; N]) -> [f32; M] { map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(col, x)) o transpose $ a }",
        "kernel S<N>(x: [f32; N]) -> [f32; N] { map(|v| 2.0 * v + 1.0) $ x }",
        "kernel C<N>(x: [f32; N], y: [f32; N]) -> [f32; N] { map(|v| v * v) o map(|p| p.0 + p.1) $ zip(x, y) }",
        "kernel F<N, M>(x: [[f32; M]; N]) -> [f32; N] { { let t = map(map(|v| v * v)) $ x; map(reduce(+, 0.0)) $ t } }",
        "kernel W<H, W, C, F>(x: [[[f32; C]; W]; H], w: [[[[f32; C]; 3]; 3]; F], b: [f32; F]) -> [[[f32; F]; W]; H] { map2(|win| map(|wb| max(0.0, wb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(join o join $ win, join o join $ wb.0)))) $ zip(w, b)) o slide2(3, 1) o pad2(1, constant([0.0; C])) $ x }",
        "kernel P<N>(x: [[f32; 64]; N], y: [[f32; 64]; 64]) -> [[f32; 64]; N] { map(|row| map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, col)) o transpose $ y) $ x }",
    ];
    for src in programs {
        let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let k = p.kernels[0].name.clone();
        let all = compile_kernel(&p, &k).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let want = all
            .candidates
            .iter()
            .find(|c| c.conditions.is_empty())
            .or(all.candidates.last())
            .map(|c| c.name.clone());
        let one = crate::driver::compile_default(&p, &k).unwrap_or_else(|e| panic!("{e}\n{src}"));
        assert_eq!(one.candidates.len(), 1, "{src}");
        assert_eq!(Some(one.candidates[0].name.clone()), want, "{src}");
        let same = all
            .candidates
            .iter()
            .find(|c| c.name == one.candidates[0].name);
        assert_eq!(
            same.map(|c| &c.generated.source),
            Some(&one.candidates[0].generated.source),
            "{src}"
        );
    }
}

/// The matrix product of the device-model tests.
const MODEL_GEMM: &str = "kernel G<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|(x, y)| x * y) $ zip(r, c)) $ transpose $ b) $ a }";

fn compile_for(src: &str, device: &crate::device::DeviceModel) -> Compiled {
    let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let k = p.kernels.last().map(|k| k.name.clone()).unwrap_or_default();
    crate::driver::compile_kernel_for(&p, &k, device).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// The default device model gives the candidates the explorer derived before there was a
/// model (the lists in `testdata`, recorded then), and the same default choice.
#[test]
fn the_default_device_model_changes_nothing() {
    let model = crate::device::DeviceModel::DEFAULT;
    for (src, recorded, default) in [
        (
            MODEL_GEMM,
            include_str!("testdata/gemm_default_model.txt"),
            "blocked(tm=128,tn=128,tk=16,l0=16,l1=16,v=4,u=0,pad=2)",
        ),
        (
            JACOBI,
            include_str!("testdata/jacobi_default_model.txt"),
            "strips(s=8,pad=1)",
        ),
    ] {
        let c = compile_for(src, &model);
        assert_eq!(names(&c), recorded.lines().collect::<Vec<_>>());
        let mut p = parse_program_str(src).expect("parses");
        check_program(&mut p).expect("checks");
        let k = p.kernels[0].name.clone();
        let d = crate::driver::compile_default(&p, &k).expect("compiles");
        assert_eq!(d.candidates[0].name, default);
    }
}

/// The bytes of local memory blocked candidate `c` stages (`tk (tm + tn)` floats).
fn staged_bytes(c: &CompiledCandidate) -> i64 {
    let p = |n: &str| c.params.iter().find(|(k, _)| k == n).map_or(0, |(_, v)| *v);
    p("tk") * (p("tm") + p("tn")) * 4
}

/// A device with less local memory gets only the blockings whose tiles fit it.
#[test]
fn a_smaller_local_memory_drops_the_blockings_that_do_not_fit() {
    let small = crate::device::DeviceModel {
        local_mem_bytes: 8 * 1024,
        ..crate::device::DeviceModel::DEFAULT
    };
    let (all, fit) = (compile(MODEL_GEMM), compile_for(MODEL_GEMM, &small));
    assert!(blocked_of(&all).iter().any(|c| staged_bytes(c) > 8 * 1024));
    let kept = blocked_of(&fit);
    assert!(!kept.is_empty());
    for c in kept {
        assert!(staged_bytes(c) <= 8 * 1024, "{}", c.name);
    }
    // The space is the default's less the blockings that do not fit (the explorer's cap on
    // configurations then reaches smaller ones the default list did not).
    let everywhere = crate::explore::space::blockings();
    let fitting = crate::explore::space::blockings_for(&small);
    assert!(fitting.len() < everywhere.len());
    for b in &fitting {
        assert!(b.local_elems() * 4 <= 8 * 1024, "{b:?}");
        assert!(everywhere.contains(b), "{b:?}");
    }
    assert!(everywhere
        .iter()
        .all(|b| fitting.contains(b) || b.local_elems() * 4 > 8 * 1024));
}

/// A device whose work-groups hold at most 128 work-items gets no candidate with a larger
/// group: no 16 x 16 blockings, no mapping of 256 lanes, reductions of 128 work-items.
#[test]
fn a_smaller_work_group_drops_the_larger_groups() {
    let small = crate::device::DeviceModel {
        max_work_group: 128,
        ..crate::device::DeviceModel::DEFAULT
    };
    let group = |c: &CompiledCandidate| {
        c.generated
            .kernels
            .iter()
            .filter_map(|k| k.local.as_ref())
            .map(|l| l.iter().map(|n| n.as_cst().unwrap_or(1)).product::<i64>())
            .max()
            .unwrap_or(0)
    };
    let all = compile(MODEL_GEMM);
    assert!(all.candidates.iter().any(|c| group(c) == 256));
    let c = compile_for(MODEL_GEMM, &small);
    assert!(!blocked_of(&c).is_empty());
    for cand in &c.candidates {
        assert!(group(cand) <= 128, "{}: {}", cand.name, group(cand));
        assert!(!cand.name.contains("lanes=256"), "{}", cand.name);
    }
    assert!(names(&c).contains(&"mapping(m0=20,m1=10,lanes=128)"));
    let rows = "kernel R<N, M>(x: [[f32; M]; N]) -> [f32; N] { map(|r| reduce(+, 0.0) $ r) $ x }";
    let r = compile_for(rows, &small);
    let trees: Vec<&str> = names(&r)
        .into_iter()
        .filter(|n| n.starts_with("tree("))
        .collect();
    assert_eq!(trees.first(), Some(&"tree(rows=1,wg=128)"));
    assert!(trees.iter().all(|n| n.ends_with("wg=128)")), "{trees:?}");
    for cand in &r.candidates {
        assert!(group(cand) <= 128, "{}: {}", cand.name, group(cand));
    }
    let sum = compile_for(
        "kernel S<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ x }",
        &small,
    );
    assert_eq!(sum.candidates[0].name, "tree(v=4)");
    assert_eq!(group(&sum.candidates[0]), 128);
}

/// A derivation whose result is not of the kernel's type is dropped with the reason, under
/// the candidate's name.
#[test]
fn dropped_derivations_say_why() {
    let mut p = parse_program_str(GEMM).expect("parses");
    let infos = check_program(&mut p).expect("checks");
    let wrong = crate::parse::parse_expr_str("transpose $ a", &[]).expect("parses");
    let mut dropped = Vec::new();
    let strips = super::Strategy::Strips(super::strategy::Strip { s: 8, pad: false });
    let got = super::lowered(&p, "G", &infos[0], wrong, strips, &mut dropped);
    assert!(got.is_none());
    assert_eq!(dropped.len(), 1);
    assert_eq!(dropped[0].name, "strips(s=8,pad=0)");
    assert!(
        dropped[0].reason.starts_with("type error"),
        "{:?}",
        dropped[0]
    );
}

/// Element-wise maps (the benchmark's four spellings of `x + 2 y`, a unary map, a 2-D map)
/// get the vectorised candidates first (`explore::vectors`): the padded one (every length,
/// so the default is vectorised), the exact one where the width divides the length, the
/// coarsened padded ones, then the default mapping.
#[test]
fn element_wise_maps_are_vectorised_first() {
    let zips = [
        "map(|p| p.0 + p.1) $ zip(x, map(|v| v * 2.0) $ y)",
        "map(|p| p.0 + 2.0 * p.1) $ zip(x, y)",
        "map(|(u, v)| u + v) $ zip(x, map(|v| v * 2.0) $ y)",
        "map(|(u, v)| u + v) o map(|(u, v)| (u, v * 2.0)) $ zip(x, y)",
    ];
    let mut programs: Vec<String> = zips
        .iter()
        .map(|b| format!("kernel Z<N>(x: [f32; N], y: [f32; N]) -> [f32; N] {{ {b} }}"))
        .collect();
    programs.push("kernel U<N>(x: [f32; N]) -> [f32; N] { map(|v| v * v - 0.5) $ x }".into());
    programs.push(
        "kernel R<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map(map(|v| v + 1.0)) $ x }".into(),
    );
    for src in &programs {
        let c = compile(src);
        let shown = names(&c);
        assert_eq!(
            shown[..5],
            [
                "vector(w=4,k=1,tail=1)",
                "vector(w=4,k=1,tail=0)",
                "vector(w=4,k=2,tail=1)",
                "vector(w=4,k=4,tail=1)",
                "map"
            ],
            "{src}"
        );
        assert_eq!(c.candidates[1].conditions.len(), 1, "{src}");
        assert!([0, 2, 3]
            .iter()
            .all(|&i| c.candidates[i].conditions.is_empty()));
        assert!(c.candidates[0].generated.source.contains("global float4*"));
        let mut p = parse_program_str(src).expect("parses");
        check_program(&mut p).expect("checks");
        let k = p.kernels[0].name.clone();
        let d = crate::driver::compile_default(&p, &k).expect("compiles");
        assert_eq!(d.candidates[0].name, "vector(w=4,k=1,tail=1)", "{src}");
    }
    // Not element-wise: a reduction, a map whose result is a tuple, integers.
    for src in [
        "kernel S<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ x }",
        "kernel T<N>(x: [f32; N]) -> [(f32, f32); N] { map(|v| (v, v)) $ x }",
        "kernel I<N>(x: [i32; N]) -> [i32; N] { map(|v| v + 1) $ x }",
    ] {
        assert_no_candidate(&compile(src), |n| n.starts_with("vector"));
    }
}
