//! Slabs against the interpreter: for every program, size and number of slabs (equal and
//! unequal weights, slabs of one row, more slabs than rows), the slabs' results put
//! together equal the whole kernel's, bit for bit (rows) or within the rounding of a
//! reordered sum (reductions). The programs name their data as the binders of the rules
//! and as the partition's own names (`parts`), so a capture shows as a wrong result.

use super::{combiner, concat, plan, slab, slabs, slice, Combine, Input, NotSplit};
use crate::interp::{run_kernel, Value};
use crate::ir::Program;
use crate::parse::parse_program_str;
use crate::rewrite::tests::support::arguments;
use crate::typeck::check_program;
use rand::rngs::StdRng;
use rand::SeedableRng;

fn checked(src: &str) -> Program {
    let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
    p
}

/// The kernel `K` of `src` at `sizes`, split by `weights`, put together.
fn split_run(p: &Program, sizes: &[i64], args: &[Value], weights: &[f64]) -> Value {
    let plan = plan(p, "K", sizes).unwrap_or_else(|e| panic!("{e}"));
    let mut parts = Vec::new();
    for rows in slabs(plan.rows, weights) {
        let s = slab(p, "K", sizes, rows.clone()).unwrap_or_else(|e| panic!("slab {rows:?}: {e}"));
        let sliced: Vec<Value> = args
            .iter()
            .zip(&s.inputs)
            .map(|(a, i)| slice(a, i))
            .collect();
        let v = run_kernel(&s.program, "K", &[], &sliced).unwrap_or_else(|e| {
            panic!("slab {rows:?}: {e}\n{}", crate::print::program(&s.program))
        });
        parts.push(v);
    }
    match plan.combine {
        Combine::Rows => concat(parts),
        Combine::Reduce(_) => {
            let c = combiner(p, "K", sizes, parts.len() as i64).expect("a combiner");
            run_kernel(&c, "K", &[], &[Value::Array(parts)]).expect("the combined value")
        }
    }
}

fn close(a: &Value, b: &Value) -> bool {
    let (a, b) = (a.flatten(), b.flatten());
    a.len() == b.len()
        && a.iter().zip(&b).all(|(x, y)| {
            let (x, y) = (x.to_f64(), y.to_f64());
            (x - y).abs() <= 1e-4 * (1.0 + x.abs().max(y.abs()))
        })
}

const WEIGHTS: &[&[f64]] = &[
    &[1.0],
    &[1.0, 1.0],
    &[1.0, 1.0, 1.0],
    &[3.0, 1.0],
    &[1.0, 2.0, 1.0, 5.0],
    &[1.0; 9],
];

/// Splittable programs, each with sizes (in the order of its size variables).
const SPLIT: &[(&str, &[&[i64]])] = &[
    // The README's blur, clamped.
    ("kernel K<N>(x: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x }", &[&[1], &[2], &[7], &[10]]),
    // Wider windows, a constant and a mirror boundary, a step.
    ("kernel K<N>(x: [f32; N]) -> [f32; N] { map(|w| w[0] - 2.0 * w[2] + w[4]) o slide(5, 1) o pad(2, 2, constant(0.5)) $ x }", &[&[1], &[3], &[11]]),
    ("kernel K<N>(x: [f32; N]) -> [f32; N] { map(|w| w[0] * w[1] + w[2]) o slide(3, 1) o pad(1, 1, mirror) $ x }", &[&[2], &[5], &[9]]),
    ("kernel K<N>(x: [f32; 2 * N + 1]) -> [f32; N] { map(|w| w[0] + w[2]) o slide(3, 2) $ x }", &[&[1], &[6]]),
    // Jacobi 2-D in both spellings, a 3-D stencil.
    ("kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|w| 0.2 * (w[0][1] + w[1][0] + w[1][1] + w[1][2] + w[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x }", &[&[1, 1], &[4, 3], &[9, 5]]),
    ("kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map(map(|w| w[0][0] + w[2][2])) o map(transpose) o slide(3, 1) o map(slide(3, 1)) o pad(1, 1, clamp) o map(pad(1, 1, clamp)) $ x }", &[&[3, 2], &[7, 4]]),
    ("kernel K<L, N, M>(x: [[[f32; M]; N]; L]) -> [[[f32; M]; N]; L] { map3(|w| w[0][1][1] + w[2][1][1] - w[1][1][1]) o slide3(3, 1) o pad3(1, clamp) $ x }", &[&[2, 2, 2], &[5, 3, 2]]),
    // GEMV, a matrix product (the right operand whole), saxpy with a scalar named `a`.
    ("kernel K<N, M>(a: [[f32; M]; N], lift_m0: [f32; M]) -> [f32; N] { map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, lift_m0)) $ a }", &[&[1, 3], &[7, 5]]),
    ("kernel K<N, M, P>(a: [[f32; P]; N], b: [[f32; M]; P]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) $ (transpose $ b)) $ a }", &[&[5, 3, 2], &[1, 2, 3]]),
    ("kernel K<N>(a: f32, x: [f32; N], parts: [f32; N]) -> [f32; N] { map(|p| a * p.0 + p.1) $ zip(x, parts) }", &[&[1], &[13]]),
    // Rows of a split, a padded input read by two windows of different sizes.
    ("kernel K<N>(x: [f32; 4 * N]) -> [f32; N] { map(reduce(+, 0.0)) o split(4) $ x }", &[&[1], &[5]]),
    ("kernel K<N>(x: [f32; N]) -> [f32; N] { map(|p| p.0[0] + p.1[4]) $ zip(slide(3, 1) o pad(1, 1, clamp) $ x, slide(5, 1) o pad(2, 2, clamp) $ x) }", &[&[1], &[4], &[8]]),
    // Full reductions.
    ("kernel K<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ x }", &[&[1], &[17]]),
    ("kernel K<N>(x: [f32; N], y: [f32; N]) -> f32 { reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(x, y) }", &[&[2], &[9]]),
    ("kernel K<N, M>(x: [[f32; M]; N]) -> f32 { reduce(max, -1000.0) o map(reduce(max, -1000.0)) $ x }", &[&[3, 2], &[6, 1]]),
];

#[test]
fn slabs_put_together_compute_the_kernel() {
    let mut rng = StdRng::seed_from_u64(37);
    for (src, sizes) in SPLIT {
        let p = checked(src);
        for s in *sizes {
            let args = arguments(&p, s, &mut rng);
            let whole = run_kernel(&p, "K", s, &args).expect("the whole kernel");
            for w in WEIGHTS {
                let split = split_run(&p, s, &args, w);
                let same = match plan(&p, "K", s).expect("a plan").combine {
                    Combine::Rows => split == whole,
                    Combine::Reduce(_) => close(&split, &whole),
                };
                assert!(
                    same,
                    "{src}\nsizes {s:?}, weights {w:?}:\n{split:?}\nvs\n{whole:?}"
                );
            }
        }
    }
}

#[test]
fn halos_are_the_rows_a_slab_reads() {
    let p = checked("kernel K<N>(x: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x }");
    let rows = |r: std::ops::Range<i64>| slab(&p, "K", &[10], r).expect("a slab").inputs;
    assert_eq!(rows(0..5), vec![Input::Rows(0..6)]);
    assert_eq!(rows(5..10), vec![Input::Rows(4..10)]);
    assert_eq!(rows(3..6), vec![Input::Rows(2..7)]);
    let gemv = checked("kernel K<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] { map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a }");
    let inputs = slab(&gemv, "K", &[8, 4], 2..5).expect("a slab").inputs;
    assert_eq!(inputs, vec![Input::Rows(2..5), Input::Whole]);
}

#[test]
fn what_cannot_be_split_says_why() {
    let t = checked("kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] { map(map(|v| v * 2.0)) o transpose $ x }");
    let e = slab(&t, "K", &[4, 3], 0..2).expect_err("a transpose of the rows");
    assert!(
        matches!(&e, NotSplit::Stuck(what) if what.contains("transpose")),
        "{e}"
    );
    let wrap = checked("kernel K<N>(x: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, wrap) $ x }");
    let e = slab(&wrap, "K", &[6], 0..3).expect_err("a wrapped boundary");
    assert!(
        matches!(&e, NotSplit::Stuck(what) if what.contains("pad")),
        "{e}"
    );
    let s = checked("kernel K<N>(x: [f32; N]) -> [f32; N] { scan_seq(|a, v| a + v, 0.0) $ x }");
    assert!(slab(&s, "K", &[5], 0..2).is_err());
}

#[test]
fn slabs_cover_the_rows() {
    for total in [1, 2, 3, 7, 100] {
        for w in WEIGHTS {
            let s = slabs(total, w);
            assert_eq!(s.len(), w.len().min(total as usize));
            assert_eq!(s.first().map(|r| r.start), Some(0));
            assert_eq!(s.last().map(|r| r.end), Some(total));
            assert!(s.windows(2).all(|p| p[0].end == p[1].start));
            assert!(s.iter().all(|r| r.end > r.start));
        }
    }
    assert_eq!(slabs(10, &[1.0, 1.0]), vec![0..5, 5..10]);
    assert_eq!(slabs(10, &[3.0, 1.0, 1.0]), vec![0..6, 6..8, 8..10]);
}
