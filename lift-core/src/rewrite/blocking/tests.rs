//! The blocking rule against the interpreter: every product spelling the rule matches, for
//! every edge, shared-dimension padding and unrolling, at sizes that divide the blocks and
//! sizes that do not, gives the same results before and after the rewrite; the programs' own
//! names are the ones the derivation binds (`a`, `e`, `t`, `acc0`, `ra0`, `x1`, ...), so a
//! captured name would show as a wrong result.

use super::memory::{privatise_accumulators, privatise_reads, stage_slices, Lanes};
use super::{block_map_reduce, edges, pad_rows, pad_shared, register_block};
use super::{tile_fold, tile_maps, tiled};
use super::{Blocking, Edge};
use crate::interp::run_kernel;
use crate::ir::Expr;
use crate::ir::Program;
use crate::rewrite::strategy::{rule, seq, top_down};
use crate::rewrite::tests::support::{arguments, normalised};
use crate::rewrite::RewriteCtx;
use crate::typeck::check_program;
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Products whose names are the derivation's binders (each name given a numbered suffix too,
/// as fresh names are): plain, transposed operands, a sequential non-associative fold over
/// swapped pairs, epilogues reading scalars, a bias per column, an element per result.
const PROGRAMS: &[&str] = &[
    "kernel K<N, K, M>(a: [[f32; K]; N], bv: [[f32; M]; K]) -> [[f32; M]; N] { map(|ra0| map(|cb1| reduce(+, 0.0) o map(|t| t.0 * t.1) $ zip(ra0, cb1)) o transpose $ bv) $ a }",
    "kernel K<N, K, M>(e: f32, acc: f32, a: [[f32; K]; N], bv: [[f32; M]; K]) -> [[f32; M]; N] { map(|x| map(|y| e * (reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(x, y)) + acc) o transpose $ bv) $ a }",
    "kernel K<N, K, M>(xt: [[f32; N]; K], b: [[f32; K]; M]) -> [[f32; M]; N] { map(|acc0| map(|e1| reduce_seq(|al, p| al * 0.5 + p.0 * (p.1 - 0.25), 0.0) $ zip(e1, acc0)) $ b) o transpose $ xt }",
    "kernel K<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K], lift_col: [f32; M]) -> [[f32; M]; N] { map(|r| map(|lift_acc| max(0.0, lift_acc.1 + (reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, lift_acc.0)))) $ zip(transpose $ b, lift_col)) $ a }",
    "kernel K<N, K, M>(a: f32, e: f32, x: [[f32; K]; N], y: [[f32; M]; K], t: [[f32; M]; N]) -> [[f32; M]; N] { map(|(ra, rc)| map(|(cb, x1)| a * (reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(ra, cb)) + e * x1) $ zip(transpose $ y, rc)) $ zip(x, t) }",
];

/// A batch of products (as `rewrite::partial` makes them), with the derivation's names: tried
/// by every rule, not in the golden file.
const BATCHED: &str = "kernel K<N, K, M>(a: [[[f32; K]; N]; 2], b: [[[f32; M]; K]; 2]) -> [[[f32; M]; N]; 2] { map(|ra0| map(|cb1| map(|t| reduce(+, 0.0) o map(|x| x.0 * x.1) $ zip(cb1, t)) o transpose $ ra0.1) $ ra0.0) $ zip(a, b) }";

/// The configurations tried: small blocks, every edge, with and without a zero-padded shared
/// dimension and unrolled slices.
fn configurations() -> Vec<Blocking> {
    let shapes = [(4, 4, 2, 1, 2, 2), (8, 4, 4, 1, 2, 2), (4, 8, 4, 2, 4, 2)];
    let mut out = Vec::new();
    for (tm, tn, tk, l0, l1, v) in shapes {
        for edge in [Edge::Exact, Edge::Pad, Edge::Cover] {
            for (pad_k, unroll) in [(false, false), (true, true), (false, true)] {
                out.push(Blocking {
                    tm,
                    tn,
                    tk,
                    l0,
                    l1,
                    v,
                    edge,
                    pad_k,
                    unroll,
                });
            }
        }
    }
    out
}

/// Sizes `N, K, M` for `cfg`: multiples of the blocks for exact ones, others not.
fn sizes_for(cfg: &Blocking) -> Vec<[i64; 3]> {
    match (cfg.edge, cfg.pad_k) {
        (Edge::Exact, _) => vec![[8, 8, 8], [16, 4, 8]],
        (Edge::Pad, false) => vec![[7, 8, 9], [1, 4, 3]],
        (Edge::Pad, true) => vec![[7, 5, 9], [3, 1, 2]],
        (Edge::Cover, false) => vec![[9, 8, 10], [8, 4, 8]],
        (Edge::Cover, true) => vec![[9, 6, 10], [11, 3, 13]],
    }
}

/// Runs the kernel of `p` and its rewrite `q` at the sizes for `cfg`, on the same random
/// arguments; panics where they differ (bit for bit: every rewrite keeps the fold's order).
/// Gives the number of runs compared.
fn agree(p: &Program, q: &Program, cfg: &Blocking, what: &str, rng: &mut StdRng) -> usize {
    let mut q = q.clone();
    let shown = crate::print::program(&q);
    check_program(&mut q).unwrap_or_else(|e| panic!("{what} {cfg:?}: {e}\n{shown}"));
    let mut runs = 0;
    for sizes in sizes_for(cfg) {
        let args = arguments(p, &sizes, rng);
        let want = run_kernel(p, "K", &sizes, &args).expect("the program runs");
        let got = run_kernel(&q, "K", &sizes, &args)
            .unwrap_or_else(|e| panic!("{what} {cfg:?} at {sizes:?}: {e}\n{shown}"));
        let (want, got) = (want.as_f32s().unwrap(), got.as_f32s().unwrap());
        let same = want.len() == got.len()
            && want
                .iter()
                .zip(&got)
                .all(|(x, y)| x == y || x.to_bits() == y.to_bits());
        assert!(
            same,
            "{what} {cfg:?} at {sizes:?}:\n{want:?}\n{got:?}\n{shown}"
        );
        runs += 1;
    }
    runs
}

/// A body before and after a rewrite, for a configuration.
type Rewrite<'a> = dyn Fn(&Expr, &Blocking, &RewriteCtx) -> Option<(Expr, Expr)> + 'a;

/// For every program (and the batch) and configuration: the program, its context, and `rewrite` of its body
/// where `rewrite` applies (`None` elsewhere); [`agree`] compares them. Gives the number of
/// runs compared and asserts that at least `min` configurations of each program were
/// rewritten.
fn for_each_rewrite(rewrite: &Rewrite, what: &str, min: usize) -> usize {
    let mut rng = StdRng::seed_from_u64(35);
    let mut runs = 0;
    for src in PROGRAMS.iter().chain([&BATCHED]) {
        let p = normalised(src);
        let info = check_program(&mut p.clone()).expect("checked");
        let ctx = RewriteCtx::for_kernel(&p, &p.kernels[0], &info[0]);
        let mut matched = 0;
        for cfg in configurations() {
            let Some((before, after)) = rewrite(&p.kernels[0].body, &cfg, &ctx) else {
                continue;
            };
            matched += 1;
            let (mut p0, mut p1) = (p.clone(), p.clone());
            p0.kernels[0].body = before;
            p1.kernels[0].body = after;
            check_program(&mut p0).unwrap_or_else(|e| panic!("{what} {cfg:?}: {e}"));
            runs += agree(&p0, &p1, &cfg, what, &mut rng);
        }
        assert!(
            matched >= min,
            "{what}: {matched} configurations matched\n{src}"
        );
    }
    runs
}

/// Every configuration but the zero-padded shared dimension of a fold whose zeros would
/// change it (the sequential fold `al * 0.5 + ..`) blocks each program.
const BLOCKED: usize = 18;

#[test]
fn blocked_products_compute_what_the_products_compute() {
    let runs = for_each_rewrite(
        &|e, cfg, ctx| Some((e.clone(), block_map_reduce(*cfg).apply(e, ctx)?)),
        "block_map_reduce",
        BLOCKED,
    );
    assert!(runs >= 150, "{runs}");
}

/// The product with the edges of `cfg`, then tiled.
fn edged_and_tiled(e: &Expr, cfg: &Blocking, ctx: &RewriteCtx) -> Option<Expr> {
    seq(edges(cfg), tiled(*cfg)).apply(e, ctx)
}

/// The product with the edges of `cfg`, tiled, then with a block of results per work-item.
fn register_blocked(e: &Expr, cfg: &Blocking, ctx: &RewriteCtx) -> Option<Expr> {
    let tiled = edged_and_tiled(e, cfg, ctx)?;
    top_down(rule(register_block(*cfg))).apply(&tiled, ctx)
}

#[test]
fn padded_rows_compute_what_the_products_compute() {
    let runs = for_each_rewrite(
        &|e, cfg, ctx| {
            let rule = pad_rows(cfg.tm, cfg.tn);
            (cfg.edge == Edge::Pad).then(|| Some((e.clone(), rule.apply(e, ctx)?)))?
        },
        "pad_rows",
        9,
    );
    assert!(runs >= 90, "{runs}");
}

#[test]
fn zero_padded_shared_dimensions_compute_what_the_products_compute() {
    // Not the sequential fold `al * 0.5 + ..`, whose zeros would change it.
    let runs = for_each_rewrite(
        &|e, cfg, ctx| {
            let rule = pad_shared(cfg.tk);
            cfg.pad_k.then(|| Some((e.clone(), rule.apply(e, ctx)?)))?
        },
        "pad_shared",
        0,
    );
    assert!(runs >= 40, "{runs}");
}

#[test]
fn tiled_maps_compute_what_the_products_compute() {
    let runs = for_each_rewrite(
        &|e, cfg, ctx| {
            let edged = edges(cfg).apply(e, ctx)?;
            let tiled = top_down(rule(tile_maps(*cfg))).apply(&edged, ctx)?;
            Some((edged, tiled))
        },
        "tile_maps",
        BLOCKED,
    );
    assert!(runs >= 150, "{runs}");
}

#[test]
fn tiled_folds_compute_what_the_block_products_compute() {
    let runs = for_each_rewrite(
        &|e, cfg, ctx| {
            let edged = edges(cfg).apply(e, ctx)?;
            let blocks = top_down(rule(tile_maps(*cfg))).apply(&edged, ctx)?;
            let folded = top_down(rule(tile_fold(cfg.tk))).apply(&blocks, ctx);
            Some((
                blocks,
                folded.expect("a tiled product has a product of blocks to fold"),
            ))
        },
        "tile_fold",
        BLOCKED,
    );
    assert!(runs >= 150, "{runs}");
}

#[test]
fn register_blocks_compute_what_the_tiled_folds_compute() {
    let runs = for_each_rewrite(
        &|e, cfg, ctx| {
            let tiled = edged_and_tiled(e, cfg, ctx)?;
            // Only the fold over slices of its own `tk`.
            let other = Blocking {
                tk: 2 * cfg.tk,
                ..*cfg
            };
            let mismatched = top_down(rule(register_block(other))).apply(&tiled, ctx);
            assert!(
                mismatched.is_none(),
                "register_block of {other:?} after {cfg:?}"
            );
            let blocked = top_down(rule(register_block(*cfg))).apply(&tiled, ctx);
            Some((tiled, blocked.expect("a tiled fold has results to block")))
        },
        "register_block",
        BLOCKED,
    );
    assert!(runs >= 150, "{runs}");
}

#[test]
fn staged_slices_hold_what_the_slices_hold() {
    for (a_along_k, c_along_k) in [(false, false), (false, true), (true, false), (true, true)] {
        let lanes = Lanes {
            a_along_k,
            c_along_k,
        };
        let runs = for_each_rewrite(
            &|e, cfg, ctx| {
                let blocked = register_blocked(e, cfg, ctx)?;
                let staged =
                    top_down(rule(stage_slices(cfg.l0, cfg.l1, lanes))).apply(&blocked, ctx);
                Some((
                    blocked,
                    staged.expect("a tiled product has slices to stage"),
                ))
            },
            "stage_slices",
            BLOCKED,
        );
        assert!(runs >= 150, "{runs}");
    }
}

#[test]
fn private_accumulators_hold_what_the_accumulators_hold() {
    let runs = for_each_rewrite(
        &|e, cfg, ctx| {
            let blocked = register_blocked(e, cfg, ctx)?;
            let private = top_down(rule(privatise_accumulators())).apply(&blocked, ctx);
            Some((blocked, private.expect("a tiled product has accumulators")))
        },
        "privatise_accumulators",
        BLOCKED,
    );
    assert!(runs >= 150, "{runs}");
}

#[test]
fn private_reads_hold_what_the_reads_hold() {
    let runs = for_each_rewrite(
        &|e, cfg, ctx| {
            let blocked = register_blocked(e, cfg, ctx)?;
            let reads = top_down(rule(privatise_reads()));
            let private = seq(reads.clone(), reads).apply(&blocked, ctx);
            Some((
                blocked,
                private.expect("a register-blocked product reads vectors in two folds"),
            ))
        },
        "privatise_reads",
        BLOCKED,
    );
    assert!(runs >= 150, "{runs}");
}

/// `e` printed with its binders renamed `b1, b2, ..` in the order they are met (a canonical
/// form: equal for trees equal up to the names of binders).
fn canonical(e: &crate::ir::Expr) -> String {
    let mut e = e.clone();
    let mut k = 0;
    crate::rewrite::names::rename_binders(&mut e, &mut |_| {
        k += 1;
        format!("b{k}")
    });
    crate::print::expr(&e)
}

/// The blocked products of [`PROGRAMS`] for every configuration, printed canonically, against
/// `golden/blocking.txt` (a filetest: with `LIFT_BLESS=1` the file is written; review its diff
/// when a change to the derivation is meant to change the blocked products).
#[test]
fn blocked_products_match_the_golden_file() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/blocking.txt");
    let mut out = String::new();
    for (i, src) in PROGRAMS.iter().enumerate() {
        let p = normalised(src);
        let info = check_program(&mut p.clone()).expect("checked");
        let ctx = RewriteCtx::for_kernel(&p, &p.kernels[0], &info[0]);
        for cfg in configurations() {
            let Some(new) = block_map_reduce(cfg).apply(&p.kernels[0].body, &ctx) else {
                continue;
            };
            out.push_str(&format!(
                "# program {i}, {:?}\n{}\n\n",
                cfg.params(),
                canonical(&new)
            ));
        }
    }
    if std::env::var_os("LIFT_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().expect("a directory")).expect("golden directory");
        std::fs::write(&path, &out).expect("golden file written");
        return;
    }
    let want =
        std::fs::read_to_string(&path).expect("golden/blocking.txt (LIFT_BLESS=1 writes it)");
    if want != out {
        let first = want.lines().zip(out.lines()).position(|(a, b)| a != b);
        panic!(
            "blocked products differ from golden/blocking.txt (first differing line {first:?}); \
             LIFT_BLESS=1 rewrites it"
        );
    }
}
