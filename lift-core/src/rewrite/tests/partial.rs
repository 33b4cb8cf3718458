//! The partial-products rule ([`crate::rewrite::partial`]) on spellings of a product (plain,
//! operand transposed, zip swapped, an epilogue reading a zipped bias, rows through layouts)
//! at random sizes, odd ones and shared lengths that no slice count divides included:
//! interpreter before and after.

use crate::interp::{run_kernel, Scalar, Value};
use crate::parse::parse_program_str;
use crate::rewrite::partial::split_shared;
use crate::rewrite::RewriteCtx;
use crate::typeck::check_program;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Products in several spellings; each kernel's sizes are `N, M, K` (`K` the shared length,
/// split into `K / 2` by `2` where a layout joins it).
const PROGRAMS: [&str; 6] = [
    "kernel K<N, M, K>(a: [[f32; K]; N], b: [[f32; K]; M]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(r, c)) $ b) $ a }",
    "kernel K<N, M, K>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) $ map(|q| q.0 * q.1) $ zip(c, r)) $ transpose $ b) $ a }",
    "kernel K<N, M, K>(a: [[f32; K]; N], b: [[f32; K]; M], bias: [f32; M]) -> [[f32; M]; N] { map(|r| map(|cb| max(0.0, cb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(r, cb.0)))) $ zip(b, bias)) $ a }",
    "kernel K<N, M, K>(a: [[f32; K]; N], b: [[f32; K]; M]) -> [[f32; M]; N] { map(|r| map(|c| 2.0 * (reduce(+, 0.0) o map(|q| q.0 * q.1 + q.0) $ zip(r, c)) - 1.0) $ b) $ a }",
    "kernel K<N, M, K>(a: [[[f32; 2]; K / 2]; N], b: [[[f32; 2]; K / 2]; M]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(join $ r, join $ c)) $ b) $ a }",
    "kernel K<N, M, K>(a: [[f32; K]; N], b: [[f32; K]; M]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(r, c)) $ b) $ map(pad(0, 1, clamp) o take(K - 1)) $ a }",
];

/// Random inputs for the parameters of `kernel K` at `sizes`.
fn inputs(src: &str, sizes: &[i64], rng: &mut StdRng) -> Vec<Value> {
    let p = parse_program_str(src).expect("parses");
    let k = &p.kernels[0];
    let names: Vec<&str> = k.sizes.iter().map(|(n, _)| n.as_str()).collect();
    let bind = |n: &str| names.iter().position(|m| *m == n).map(|i| sizes[i]);
    k.params
        .iter()
        .map(|prm| {
            let count = crate::interp::scalar_count(&prm.ty, &bind).expect("sized");
            let flat: Vec<Scalar> = (0..count)
                .map(|_| Scalar::F32(rng.gen_range(-1.0..1.0)))
                .collect();
            Value::from_flat(&prm.ty, &bind, &flat).expect("value")
        })
        .collect()
}

#[test]
fn partial_products_agree_with_the_product() {
    let mut rng = StdRng::seed_from_u64(12);
    let mut checked = 0;
    for src in PROGRAMS {
        let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let infos = check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let ctx = RewriteCtx::for_kernel(&p, &p.kernels[0], &infos[0]);
        for (s, q) in [(2, 1), (3, 2), (4, 4), (16, 16)] {
            let new = split_shared(s, q)
                .apply(&p.kernels[0].body, &ctx)
                .unwrap_or_else(|| panic!("split_shared({s}, {q}) does not match\n{src}"));
            let mut r = p.clone();
            r.kernels[0].body = new;
            let shown = crate::print::program(&r);
            check_program(&mut r).unwrap_or_else(|e| panic!("{e}\n{src}\n=>\n{shown}"));
            let reparsed = {
                let mut q = parse_program_str(&shown).unwrap_or_else(|e| panic!("{e}\n{shown}"));
                check_program(&mut q).unwrap_or_else(|e| panic!("{e}\n{shown}"));
                q
            };
            for _ in 0..3 {
                let sizes = [
                    rng.gen_range(1..6),
                    rng.gen_range(1..6),
                    2 * rng.gen_range(1..12),
                ];
                let args = inputs(src, &sizes, &mut rng);
                let want = run_kernel(&p, "K", &sizes, &args).expect("runs").as_f32s();
                for prog in [&r, &reparsed] {
                    let got = run_kernel(prog, "K", &sizes, &args)
                        .unwrap_or_else(|e| panic!("{e}\n{shown}"))
                        .as_f32s();
                    let (w, g) = (want.clone().expect("f32"), got.expect("f32"));
                    assert_eq!(w.len(), g.len(), "{shown}");
                    for (x, y) in w.iter().zip(&g) {
                        assert!(
                            (x - y).abs() <= 1e-4 * (1.0 + x.abs()),
                            "{sizes:?} s={s}: {w:?} vs {g:?}\n{shown}"
                        );
                    }
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, PROGRAMS.len() * 4 * 3);
}

#[test]
fn partial_products_need_a_sum_from_zero() {
    for src in [
        "kernel K<N, M, K>(a: [[f32; K]; N], b: [[f32; K]; M]) -> [[f32; M]; N] { map(|r| map(|c| reduce(max, 0.0) o map(|q| q.0 * q.1) $ zip(r, c)) $ b) $ a }",
        "kernel K<N, M, K>(a: [[f32; K]; N], b: [[f32; K]; M]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 1.0) o map(|q| q.0 * q.1) $ zip(r, c)) $ b) $ a }",
        // A pair of zeros adds `1`: the shared length may not be padded.
        "kernel K<N, M, K>(a: [[f32; K]; N], b: [[f32; K]; M]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|q| q.0 * q.1 + 1.0) $ zip(r, c)) $ b) $ a }",
    ] {
        let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let infos = check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let ctx = RewriteCtx::for_kernel(&p, &p.kernels[0], &infos[0]);
        assert!(
            split_shared(4, 4).apply(&p.kernels[0].body, &ctx).is_none(),
            "{src}"
        );
    }
}
