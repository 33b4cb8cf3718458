//! The blocked product built as data, one derivation step per function (the thesis'
//! `ab_tile`, `tile_nested_map_reduce`, then register blocking with vectorised reads, in the
//! order they nest): [`tile`] is the right-hand side of `tile_maps`, [`fold_slices`] (one
//! work-item per result) that of `tile_fold` (`tiling.rs`), [`register_blocks`] with the steps
//! below it (`init`, `update`, `steps`, `write_out`: a block of accumulators per work-item,
//! read with vectors) that of `register_block` (`registers.rs`). The slices are read where
//! they are and the accumulators are left where the fold puts them: [`super::memory`]'s rules
//! stage the slices in local memory and the accumulators in private memory afterwards. Every
//! binder comes from [`Builder`]'s fresh names; the matched parts (operands, fold, epilogue)
//! are put in as they are.

use super::{Blocking, Edge};
use crate::arith::Nat;
use crate::ir::{Expr, PrimArg};
use crate::prim::Prim;
use crate::rewrite::dsl::Builder;
use crate::rewrite::names;

/// What the epilogue reads besides each result: for [`tile`] the whole array, which it cuts
/// into blocks; for [`fold_slices`] and [`register_blocks`] a work-group's block of it.
#[derive(Clone)]
pub(super) enum Reads {
    /// Nothing.
    Nothing,
    /// Column element `[j]` of `X` where result column `j` is written (a bias): the name the
    /// epilogue reads it through, and `X` (cut as the columns are).
    Columns(String, Expr),
    /// Element `[i][j]` of `E` where result `[i][j]` is written (`beta * c[i][j]`): the name
    /// the epilogue reads it through, and `E` (cut as the rows and columns are).
    Elements(String, Expr),
}

/// The parts of the fold the derivation puts in.
pub(super) struct Parts {
    /// The fold's initial value.
    pub z: Expr,
    /// The fold's step over an accumulator and the pair `(a, c)` of elements.
    pub step: Box<dyn Fn(Expr, Expr, Expr) -> Expr>,
    /// The epilogue (a function of each result), `id` if none.
    pub post: Expr,
    /// What the epilogue reads besides the result: the blocks of `X` or `E` a work-group
    /// binds.
    pub reads: Reads,
}

/// What a work-group computes from its blocks: the block of rows of `A`, the block of rows
/// of `C` and, where the epilogue reads one, the block of `X` or of `E` (see [`tile`]).
pub(super) type Block<'a> = dyn Fn(&Expr, Expr, Option<Expr>) -> Expr + 'a;

/// `ab_tile`, both maps cut into work-group blocks (`split`/`join` or their covering forms,
/// [`Edge`]):
///
/// ```text
/// map(|r| map(|c| F) $ C) $ A
///   ⇒ joinA o map_wrg(1, |ra| transpose o joinC o map_wrg(0, |cb| BLOCK(ra, cb)) o splitC $ C)
///      o splitA $ A
/// ```
///
/// `A` and `C` are the operands (`a`, `c`) as the edge leaves them. With [`Reads::Columns`]
/// each column block is zipped with its block of `X`; with [`Reads::Elements`] each row block
/// with its block of `E`, whose rows are then cut as the columns are: `BLOCK` also receives
/// that block.
pub(super) fn tile(
    b: &Builder,
    cfg: &Blocking,
    lens: (&Nat, &Nat),
    (a, c): (&Expr, &Expr),
    reads: &Reads,
    block: &Block,
) -> Expr {
    let (split_a, join_a) = cuts(b, cfg.edge, lens.0, cfg.tm);
    let (split_c, join_c) = cuts(b, cfg.edge, lens.1, cfg.tn);
    let rows = |ra: Expr, rx: Option<Expr>| {
        let inner = match (reads, rx) {
            (Reads::Columns(_, x), _) => b.zip(
                b.app(split_c.clone(), c.clone()),
                b.app(split_c.clone(), x.clone()),
            ),
            (Reads::Elements(..), Some(rx)) => b.zip(
                b.app(split_c.clone(), c.clone()),
                b.app(
                    b.o(vec![
                        b.bare(Prim::Transpose),
                        b.with(Prim::Map, split_c.clone()),
                    ]),
                    rx,
                ),
            ),
            _ => {
                let wg = b.dim(Prim::MapWrg, 0, b.lam("cb", |cb| block(&ra, cb, None)));
                let chain = vec![b.bare(Prim::Transpose), join_c.clone(), wg, split_c.clone()];
                return b.app(b.o(chain), c.clone());
            }
        };
        let wg = b.dim(
            Prim::MapWrg,
            0,
            b.lam_pair("cb", "cbx", |cb, cbx| block(&ra, cb, Some(cbx))),
        );
        b.app(
            b.o(vec![b.bare(Prim::Transpose), join_c.clone(), wg]),
            inner,
        )
    };
    match reads {
        Reads::Elements(_, e) => {
            let wg = b.dim(
                Prim::MapWrg,
                1,
                b.lam_pair("ra", "rx", |ra, rx| rows(ra, Some(rx))),
            );
            let data = b.zip(b.app(split_a.clone(), a.clone()), b.app(split_a, e.clone()));
            b.app(b.o(vec![join_a, wg]), data)
        }
        _ => {
            let wg = b.dim(Prim::MapWrg, 1, b.lam("ra", |ra| rows(ra, None)));
            b.app(b.o(vec![join_a, wg, split_a]), a.clone())
        }
    }
}

/// The primitives that cut `len` rows into blocks of `t` and join the blocks' results back:
/// `split(t)` and `join`, or `split_cover(t)` and `join_cover(len)`.
fn cuts(b: &Builder, edge: Edge, len: &Nat, t: i64) -> (Expr, Expr) {
    match edge {
        Edge::Cover => (
            b.sized(Prim::SplitCover, t),
            b.prim(Prim::JoinCover, vec![PrimArg::Nat(len.clone(), b.s)]),
        ),
        Edge::Exact | Edge::Pad => (b.split(t), b.bare(Prim::Join)),
    }
}

/// The fold of a work-group's block over the `tk`-slices of the shared dimension (`A`'s slice
/// seen `tm x tk`, `C`'s `tk x tn`), the skeleton [`fold_slices`] and [`register_blocks`]
/// share:
///
/// ```text
/// WRITE o reduce_seq(|acc, t| (|(al, bl)| UPDATE(acc, al, bl)) $ (transpose $ t.0, t.1), INIT)
///   $ zip(split(tk) o transpose $ ra, split(tk) o transpose $ cb)
/// ```
///
/// `write` is the chain `WRITE`, outermost first.
fn over_slices(
    b: &Builder,
    tk: i64,
    (ra, cb): (&Expr, &Expr),
    init: Expr,
    update: impl FnOnce(Expr, Expr, Expr) -> Expr,
    mut write: Vec<Expr>,
) -> Expr {
    let slices = |x: &Expr| b.app(b.o(vec![b.split(tk), b.bare(Prim::Transpose)]), x.clone());
    let step = b.lam2("acc", "t", |acc, t| {
        let load_a = b.app(b.bare(Prim::Transpose), b.proj(&t, 0));
        let load_c = b.proj(&t, 1);
        let body = b.lam_pair("al", "bl", |al, bl| update(acc, al, bl));
        b.app(body, b.pair(load_a, load_c))
    });
    write.push(b.fold(Prim::ReduceSeq, step, init));
    b.app(b.o(write), b.zip(slices(ra), slices(cb)))
}

/// `tile_nested_map_reduce`: a block's results (transposed, `tn x tm`) as a sequential fold
/// over the `tk`-slices of the shared dimension ([`over_slices`]), one work-item per result,
/// each continuing its own fold with the slice's row of `A` and column of `C`, then writing
/// it out with the epilogue ([`write_results`]):
///
/// ```text
/// INIT   = map_lcl(0, |c| map_lcl(1, |r| z) $ ra) $ cb
/// UPDATE = map_lcl(0, |(accc, c)| map_lcl(1, |(e, r)| reduce_seq(|x, q| step(x, q.0, q.1), e)
///              $ zip(r, c)) $ zip(accc, al)) $ zip(acc, transpose $ bl)
/// ```
pub(super) fn fold_slices(b: &Builder, tk: i64, p: &Parts, ra: &Expr, cb: &Expr) -> Expr {
    let lcl = |d: i64, f: Expr, x: Expr| b.app(b.dim(Prim::MapLcl, d, f), x);
    let init = lcl(
        0,
        b.lam("c", |_| lcl(1, b.lam("r", |_| p.z.clone()), ra.clone())),
        cb.clone(),
    );
    let update = |acc: Expr, al: Expr, bl: Expr| {
        let per_column = b.lam_pair("accc", "c", |accc, c| {
            let per_result = b.lam_pair("e", "r", |e, r| {
                let step = b.lam2("x", "q", |x, q| (p.step)(x, b.proj(&q, 0), b.proj(&q, 1)));
                b.app(b.fold(Prim::ReduceSeq, step, e), b.zip(r, c))
            });
            lcl(1, per_result, b.zip(accc, al))
        });
        let columns = b.app(b.bare(Prim::Transpose), bl);
        lcl(0, per_column, b.zip(acc, columns))
    };
    over_slices(b, tk, (ra, cb), init, update, vec![write_results(b, p)])
}

/// The results of [`fold_slices`] written out, one work-item each, the epilogue applied to
/// each (reading its column's element `x` of the block of `X`, or its place's element `ex` of
/// the block of `E`, as [`Reads`] says):
///
/// ```text
/// map_lcl(0, map_lcl(1, post))
/// |acc| map_lcl(0, |(accc, x)| map_lcl(1, post[x]) $ accc) $ zip(acc, X)
/// |acc| map_lcl(0, |(accc, ec)| map_lcl(1, |(v, ex)| post[ex] $ v) $ zip(accc, ec))
///     $ zip(acc, transpose $ E)
/// ```
fn write_results(b: &Builder, p: &Parts) -> Expr {
    let lcl = |d: i64, f: Expr| b.dim(Prim::MapLcl, d, f);
    let read = |name: &str, x: Expr| {
        let mut post = p.post.clone();
        names::subst(&mut post, name, &x);
        post
    };
    match &p.reads {
        Reads::Nothing => lcl(0, lcl(1, p.post.clone())),
        Reads::Columns(name, xs) => b.lam("lift_acc", |acc| {
            let per_column = b.lam_pair("lift_accc", "lift_x", |accc, x| {
                b.app(lcl(1, read(name, x)), accc)
            });
            b.app(lcl(0, per_column), b.zip(acc, xs.clone()))
        }),
        Reads::Elements(name, es) => b.lam("lift_acc", |acc| {
            let per_column = b.lam_pair("lift_accc", "lift_ec", |accc, ec| {
                let one = b.lam_pair("lift_v", "lift_ex", |v, ex| b.app(read(name, ex), v));
                b.app(lcl(1, one), b.zip(accc, ec))
            });
            let columns = b.app(b.bare(Prim::Transpose), es.clone());
            b.app(lcl(0, per_column), b.zip(acc, columns))
        }),
    }
}

/// Register blocking with vectorised reads: the fold of [`fold_slices`] with every work-item
/// `(l0, l1)` computing a `tm / l1 x tn / l0` block of results in as many accumulators
/// ([`init`]), updated from the slices' vectors of `v` ([`update`], [`steps`]) and written out
/// ([`write_out`]), in [`over_slices`]' skeleton.
pub(super) fn register_blocks(
    b: &Builder,
    cfg: &Blocking,
    p: &Parts,
    ra: &Expr,
    cb: &Expr,
) -> Expr {
    let accumulators = init(b, cfg, &p.z, ra, cb);
    let each = |acc, al, bl| update(b, cfg, p, acc, al, bl);
    over_slices(
        b,
        cfg.tk,
        (ra, cb),
        accumulators,
        each,
        write_out(b, cfg, p),
    )
}

/// Each work-item's `tm / l1 x tn / l0` block of accumulators, every one `z`:
///
/// ```text
/// map_lcl(0, |cc| map_lcl(1, |rr| map_seq_unroll(|x| map_seq_unroll(|y| z) $ rr) $ cc)
///     $ (transpose o split(l1) $ ra)) $ (transpose o split(l0) $ cb)
/// ```
fn init(b: &Builder, cfg: &Blocking, z: &Expr, ra: &Expr, cb: &Expr) -> Expr {
    let strided =
        |l: i64, x: &Expr| b.app(b.o(vec![b.bare(Prim::Transpose), b.split(l)]), x.clone());
    let each = b.lam("cc", |cc| {
        let row = b.lam("rr", |rr| {
            let x = b.lam("x", |_| {
                b.app(b.with(Prim::MapSeqUnroll, b.lam("y", |_| z.clone())), rr)
            });
            b.app(b.with(Prim::MapSeqUnroll, x), cc)
        });
        b.app(b.dim(Prim::MapLcl, 1, row), strided(cfg.l1, ra))
    });
    b.app(b.dim(Prim::MapLcl, 0, each), strided(cfg.l0, cb))
}

/// One staged slice folded into every work-item's accumulators: the work-items' strided
/// share of the slices (`l1` rows of `A`, `l0` vectors of `C`), then [`steps`]:
///
/// ```text
/// UPDATE(acc, al, bl) = map_lcl(0, |(accc, bb)| map_lcl(1, |(blk, ab)| STEPS)
///       $ zip(accc, transpose o split(l1) $ al))
///   $ zip(acc, transpose o map(transpose o split(l0) o as_vector(v)) $ bl)
/// ```
fn update(b: &Builder, cfg: &Blocking, p: &Parts, acc: Expr, al: Expr, bl: Expr) -> Expr {
    let t = || b.bare(Prim::Transpose);
    let per_item = b.lam_pair("accc", "bb", |accc, bb| {
        let inner = b.lam_pair("blk", "ab", |blk, ab| steps(b, cfg, p, blk, ab, bb));
        let rows = b.app(b.o(vec![t(), b.split(cfg.l1)]), al);
        b.app(b.dim(Prim::MapLcl, 1, inner), b.zip(accc, rows))
    });
    let cols = b.with(
        Prim::Map,
        b.o(vec![t(), b.split(cfg.l0), b.sized(Prim::AsVector, cfg.v)]),
    );
    b.app(
        b.dim(Prim::MapLcl, 0, per_item),
        b.zip(acc, b.app(b.o(vec![t(), cols]), bl)),
    )
}

/// Register blocking with vectorised reads: the slice walked `v` steps at a time, each step's
/// vectors of `C` and of `A` read where they are (see [`super::memory::privatise_reads`] for
/// the rule that copies them to private memory), and every accumulator updated with the
/// fold's step (`reduce_seq_unroll` over the slice if `cfg.unroll`):
///
/// ```text
/// STEPS = reduce_seq(|bq, q| (|(ap, bs)| reduce_seq_unroll(|bk, ks| (|(bp, av)|
///             map_seq_unroll(|(brow, bv)| map_seq_unroll(|(e, a)| step(e, a, bv))
///               $ zip(brow, av)) $ zip(bk, bp))
///           $ (as_scalar $ ks.0, ks.1), bq)
///         $ zip(bs, transpose o split(v) o as_scalar $ ap))
///       $ (q.1, q.0), blk)
///     $ zip(split(v) $ bb, transpose o map(as_vector(v)) $ ab)
/// ```
fn steps(b: &Builder, cfg: &Blocking, p: &Parts, blk: Expr, ab: Expr, bb: Expr) -> Expr {
    let t = || b.bare(Prim::Transpose);
    let per_vector = b.lam2("bq", "q", |bq, q| {
        let body = b.lam_pair("ap", "bs", |ap, bs| {
            let per_element = b.lam2("bk", "ks", |bk, ks| {
                let inner = b.lam_pair("bp", "av", |bp, av| {
                    let row = b.lam_pair("brow", "bv", |brow, bv| {
                        let each = b.lam_pair("e", "a", |e, a| (p.step)(e, a, bv));
                        b.app(b.with(Prim::MapSeqUnroll, each), b.zip(brow, av))
                    });
                    b.app(b.with(Prim::MapSeqUnroll, row), b.zip(bk, bp))
                });
                let a_vec = b.app(b.bare(Prim::AsScalar), b.proj(&ks, 0));
                b.app(inner, b.pair(a_vec, b.proj(&ks, 1)))
            });
            let fold = b.fold(Prim::ReduceSeqUnroll, per_element, bq);
            let a_steps = b.o(vec![t(), b.split(cfg.v), b.bare(Prim::AsScalar)]);
            b.app(fold, b.zip(bs, b.app(a_steps, ap)))
        });
        b.app(body, b.pair(b.proj(&q, 1), b.proj(&q, 0)))
    });
    let walk = if cfg.unroll {
        Prim::ReduceSeqUnroll
    } else {
        Prim::ReduceSeq
    };
    let vectors = b.app(
        b.o(vec![t(), b.with(Prim::Map, b.sized(Prim::AsVector, cfg.v))]),
        ab,
    );
    b.app(
        b.fold(walk, per_vector, blk),
        b.zip(b.app(b.split(cfg.v), bb), vectors),
    )
}

/// The private blocks written out, the epilogue applied to each result (reading its column's
/// or its place's element of another array where [`Reads`] says), back in the layout of the
/// block:
///
/// ```text
/// WRITE = map_seq(join o transpose) o join o map_seq(join) o transpose
///         o map_seq(split(v) o transpose) o map_lcl(0, map_lcl(1, map_seq_unroll(
///             map_seq_unroll(post))))
/// ```
///
/// Work-item `l0` holds the vectors of `v` columns `l0, l0 + l0s, ..` of the block (its
/// `jj`-th column is `(jj / v * l0s + l0) * v + jj % v`) and rows `l1, l1 + l1s, ..`: the
/// elements read are cut the same way (the work-group's block of them, in [`Parts::reads`]).
/// Gives the chain, outermost first.
fn write_out(b: &Builder, cfg: &Blocking, p: &Parts) -> Vec<Expr> {
    let t = || b.bare(Prim::Transpose);
    let msu = |f: Expr| b.with(Prim::MapSeqUnroll, f);
    let each = match &p.reads {
        Reads::Columns(name, cbx) => b.lam("lift_acc", |acc| {
            let per_item = b.lam_pair("lift_accc", "lift_xs", |accc, xs| {
                let per_row = b.lam("lift_blk", |blk| {
                    let row = b.lam_pair("lift_brow", "lift_col", |brow, col| {
                        let mut post = p.post.clone();
                        names::subst(&mut post, name, &col);
                        b.app(msu(post), brow)
                    });
                    b.app(msu(row), b.zip(blk, xs))
                });
                b.app(b.dim(Prim::MapLcl, 1, per_row), accc)
            });
            let cols = b.o(vec![
                b.with(Prim::Map, b.bare(Prim::Join)),
                t(),
                b.split(cfg.l0),
                b.split(cfg.v),
            ]);
            b.app(
                b.dim(Prim::MapLcl, 0, per_item),
                b.zip(acc, b.app(cols, cbx.clone())),
            )
        }),
        Reads::Elements(name, cbx) => b.lam("lift_acc", |acc| {
            let per_item = b.lam_pair("lift_accc", "lift_el", |accc, el| {
                let per_row = b.lam_pair("lift_blk", "lift_eb", |blk, eb| {
                    let row = b.lam_pair("lift_brow", "lift_ec", |brow, ec| {
                        let one = b.lam_pair("lift_v", "lift_ex", |v, ex| {
                            let mut post = p.post.clone();
                            names::subst(&mut post, name, &ex);
                            b.app(post, v)
                        });
                        b.app(msu(one), b.zip(brow, ec))
                    });
                    b.app(msu(row), b.zip(blk, eb))
                });
                b.app(b.dim(Prim::MapLcl, 1, per_row), b.zip(accc, el))
            });
            let rows = b.o(vec![
                t(),
                b.with(Prim::Map, b.o(vec![t(), b.split(cfg.l1)])),
            ]);
            let els = b.o(vec![
                b.with(Prim::Map, rows),
                b.with(Prim::Map, b.bare(Prim::Join)),
                t(),
                b.split(cfg.l0),
                b.split(cfg.v),
                t(),
            ]);
            b.app(
                b.dim(Prim::MapLcl, 0, per_item),
                b.zip(acc, b.app(els, cbx.clone())),
            )
        }),
        // Nothing read besides the results (the work-group binds no elements then).
        Reads::Nothing => b.dim(
            Prim::MapLcl,
            0,
            b.dim(Prim::MapLcl, 1, msu(msu(p.post.clone()))),
        ),
    };
    vec![
        b.with(Prim::MapSeq, b.o(vec![b.bare(Prim::Join), t()])),
        b.bare(Prim::Join),
        b.with(Prim::MapSeq, b.bare(Prim::Join)),
        t(),
        b.with(Prim::MapSeq, b.o(vec![b.split(cfg.v), t()])),
        each,
    ]
}
