//! Layout changes through local memory (issue 36, item 2): a 2-D map nest over a transposed
//! view reads along one dimension of memory and writes along the other, so either its reads
//! or its writes are uncoalesced. Tiling both dimensions and staging each tile in local
//! memory makes both coalesced: a work-group copies a `t x t` tile in with its lanes along
//! the tile's rows (rows of memory), then writes it back transposed from local memory, its
//! lanes again along rows (of the result).
//!
//! Two rules, and their composition as one ([`transpose_through_local`]):
//!
//! ```text
//! map(map(f)) $ transpose $ D                                   D: [[a; M]; N]
//!   ⇒ join o map(map(join) o transpose o map(map(map(f)) o transpose)) o transpose
//!       o map(transpose o map(split(t))) o split(t) $ D            tile_transpose(t)
//!   ⇒ join o map_wrg(1, map(join) o transpose o map_wrg(0, copy_out o transpose
//!       o to_local(copy_in))) o transpose o map(transpose o map(split(t))) o split(t) $ D
//!                                                                  stage_tiles(t, rows)
//! copy_in  = join o map_lcl(1, map_seq(map_lcl(0, id))) o split(t / rows)
//! copy_out = join o map_lcl(1, map_seq(map_lcl(0, f))) o split(t / rows)
//! ```
//!
//! Tiles of `D` are `t x t` blocks (`tiles[i][j][r][c] = D[i t + r][j t + c]`); tile `(i, j)`
//! transposed is tile `(j, i)` of the result, so the outer two maps run over the tiles
//! transposed and `join o map(map(join) o transpose)` puts the tiles back together. Each
//! work-group of `t x rows` work-items copies one tile, each work-item `t / rows` rows of it;
//! the code generator pads the local tile's rows against bank conflicts (`codegen/banks.rs`:
//! the copy out reads a column of the tile across a warp's lanes) and places the barrier
//! between the copy in and the copy out.
//!
//! With `pad`, `D` is padded with `clamp` up to multiples of `t` in both dimensions
//! (`pad(0, pN, clamp) o map(pad(0, pM, clamp))`) and the result cut back with
//! `take(M) o map(take(N))` (as the blocked product's `pad_rows`; a dimension `t` is known
//! to divide is neither padded nor cut): any size. Without, `t`
//! must divide both (a launch-time condition of `split`). `f` is any function of an element
//! (the nest is element-wise by its shape); a bare `transpose $ D` is the nest with `f = id`.
//! The element type must be a scalar (the tile lives in local memory).

use crate::arith::Nat;
use crate::ir::{Boundary, Expr, ExprKind, PrimArg};
use crate::prim::Prim;
use crate::rewrite::build;
use crate::rewrite::dsl::Builder;
use crate::rewrite::{RewriteCtx, Rule};
use crate::types::Type;

/// The configuration of a tiled layout change: `t x t` tiles, work-groups of `t x rows`
/// work-items (each copying `t / rows` rows of a tile), and whether the edges are padded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileCopy {
    /// The tile's side, in elements (the lanes of a work-group's dimension 0).
    pub t: i64,
    /// The work-items of a work-group's dimension 1 (a divisor of `t`).
    pub rows: i64,
    /// Whether the input is padded (and the result cut with `take`) up to multiples of `t`.
    pub pad: bool,
}

/// A map nest over a transposed 2-D view, as [`transposed`] finds it.
#[derive(Clone, Debug)]
pub struct Transposed {
    /// The element function, `None` for a bare `transpose $ D`.
    pub f: Option<Expr>,
    /// The view below the transpose, typed `[[a; m]; n]`.
    pub d: Expr,
    /// Rows of `d`.
    pub n: Nat,
    /// Columns of `d`.
    pub m: Nat,
    /// The element type `a`, a scalar.
    pub elem: Type,
}

/// `map(map(f)) $ transpose $ D`, `(map(map(f)) o transpose o L) $ y` (`D = L $ y`), and the
/// bare `transpose $ D`, `(transpose o L) $ y`, with `D` of a known 2-D type of scalars.
pub fn transposed(e: &Expr) -> Option<Transposed> {
    let ExprKind::Apply(g, xs) = &e.kind else {
        return None;
    };
    let [x] = xs.as_slice() else { return None };
    let fs = build::chain(g);
    let (f, rest) = match map2_fun(&fs[0]) {
        Some(f) => (Some(f.clone()), &fs[1..]),
        None => (None, &fs[..]),
    };
    let d = if rest.is_empty() {
        let ExprKind::Apply(h, ys) = &x.kind else {
            return None;
        };
        let [y] = ys.as_slice() else { return None };
        below_transpose(&build::chain(h), y)?
    } else {
        below_transpose(rest, x)?
    };
    let (row, n) = d.ty.as_ref()?.as_array()?;
    let (elem, m) = row.as_array()?;
    elem.as_scalar()?;
    Some(Transposed {
        f,
        n: n.clone(),
        m: m.clone(),
        elem: elem.clone(),
        d,
    })
}

/// `f` of `map(map(f))`.
fn map2_fun(m: &Expr) -> Option<&Expr> {
    m.prim_fun(Prim::Map)?.prim_fun(Prim::Map)
}

/// `D` of `(transpose o fs[1..]) $ x`: `x` itself or `fs[1..] $ x`, typed.
fn below_transpose(fs: &[Expr], x: &Expr) -> Option<Expr> {
    let (first, rest) = fs.split_first()?;
    if !build::is_bare(first, Prim::Transpose) {
        return None;
    }
    let Some(outer) = rest.first() else {
        return Some(x.clone());
    };
    let mut d = build::apply1(build::compose(rest.to_vec(), x.span), x.clone(), x.span);
    d.ty = outer.ty.clone();
    Some(d)
}

/// `tile_transpose(t, pad)`: both dimensions of a map nest over a transposed view cut into
/// `t x t` tiles, each tile transposed on its own (see the module docs); with `pad` the view
/// is padded to multiples of `t` and the result cut back with `take`, without it `t` must
/// not be known not to divide both sizes.
pub fn tile_transpose(t: i64, pad: bool) -> Rule {
    Rule::new(
        "tile_transpose",
        "map(map(f)) $ transpose $ D ⇒ join o map(map(join) o transpose o map(map(map(f)) o \
         transpose)) o transpose o map(transpose o map(split(t))) o split(t) $ D   \
         (D padded to multiples of t with clamp, the result cut with take, if pad)",
        move |e, ctx| {
            let tr = transposed(e)?;
            tiled(e, &tr, ctx, t, pad, None)
        },
    )
}

/// `stage_tiles(t, rows)`: the maps over the tiles of [`tile_transpose`] as a work-group per
/// tile of `t x rows` work-items, the tile copied to local memory with coalesced reads and
/// written back transposed, coalesced too:
///
/// ```text
/// map(map(join) o transpose o map(map(map(f)) o transpose))
///   ⇒ map_wrg(1, map(join) o transpose o map_wrg(0, copy_out o transpose o to_local(copy_in)))
/// ```
///
/// where the tiles it runs over are `t x t` (its input's type, which must be known).
pub fn stage_tiles(t: i64, rows: i64) -> Rule {
    Rule::new(
        "stage_tiles",
        "map(map(join) o transpose o map(map(map(f)) o transpose)) ⇒ map_wrg(1, map(join) o \
         transpose o map_wrg(0, copy_out(f) o transpose o to_local(copy_in)))   t x t tiles, \
         t x rows work-items",
        move |e, ctx| {
            let tile = ctx.input.as_ref()?.as_array()?.0.as_array()?.0;
            let (row, a) = tile.as_array()?;
            let (_, b) = row.as_array()?;
            if a.as_cst() != Some(t) || b.as_cst() != Some(t) || rows <= 0 || t % rows != 0 {
                return None;
            }
            let fs = build::chain(e.prim_fun(Prim::Map)?);
            let [join, tr, per_tile] = fs.as_slice() else {
                return None;
            };
            let join_ok = join
                .prim_fun(Prim::Map)
                .is_some_and(|j| build::is_bare(j, Prim::Join));
            if !join_ok || !build::is_bare(tr, Prim::Transpose) {
                return None;
            }
            let inner = build::chain(per_tile.prim_fun(Prim::Map)?);
            let [m, tr2] = inner.as_slice() else {
                return None;
            };
            let f = map2_fun(m)?;
            if !build::is_bare(tr2, Prim::Transpose) {
                return None;
            }
            let b = Builder::new(ctx, vec![f], e.span);
            Some(staged(&b, f, t, rows))
        },
    )
}

/// [`tile_transpose`] and [`stage_tiles`] in one step: the candidate the explorer derives
/// (`explore::tiles`).
pub fn transpose_through_local(cfg: TileCopy) -> Rule {
    Rule::new(
        "transpose_through_local",
        "map(map(f)) $ transpose $ D ⇒ join o map_wrg(1, map(join) o transpose o map_wrg(0, \
         copy_out(f) o transpose o to_local(copy_in))) o transpose o map(transpose o \
         map(split(t))) o split(t) $ D   (padded with take if pad)",
        move |e, ctx| {
            if cfg.rows <= 0 || cfg.t % cfg.rows != 0 {
                return None;
            }
            let tr = transposed(e)?;
            tiled(e, &tr, ctx, cfg.t, cfg.pad, Some(cfg.rows))
        },
    )
}

/// The tiled form of the nest `tr` (at `e`): high-level, or with its tiles staged by
/// work-groups of `t x rows` where `rows` is given.
fn tiled(
    e: &Expr,
    tr: &Transposed,
    ctx: &RewriteCtx,
    t: i64,
    pad: bool,
    rows: Option<i64>,
) -> Option<Expr> {
    if t < 1 {
        return None;
    }
    let tt = Nat::cst(t);
    let divides = |n: &Nat| ctx.facts.divisible(n, &tt);
    let (dn, dm) = (divides(&tr.n), divides(&tr.m));
    if pad && dn == Some(true) && dm == Some(true) {
        return None;
    }
    if !pad && (dn == Some(false) || dm == Some(false)) {
        return None;
    }
    let avoid: Vec<&Expr> = tr.f.iter().chain([&tr.d]).collect();
    let b = Builder::new(ctx, avoid, e.span);
    let id = b.bare(Prim::Id);
    let f = tr.f.as_ref().unwrap_or(&id);
    let map = |g: Expr| b.with(Prim::Map, g);
    let tiles = b.o(vec![
        map(b.o(vec![b.bare(Prim::Transpose), map(b.split(t))])),
        b.split(t),
    ]);
    let back = |g: Expr| b.o(vec![map(b.bare(Prim::Join)), b.bare(Prim::Transpose), g]);
    let over_tiles = match rows {
        None => map(back(map(
            b.o(vec![map(map(f.clone())), b.bare(Prim::Transpose)])
        ))),
        Some(r) => b.dim(
            Prim::MapWrg,
            1,
            back(b.dim(Prim::MapWrg, 0, staged_tile(&b, f, t, r))),
        ),
    };
    let chain = b.o(vec![
        b.bare(Prim::Join),
        over_tiles,
        b.bare(Prim::Transpose),
        tiles,
    ]);
    if !pad {
        return Some(b.app(chain, tr.d.clone()));
    }
    let nats = |n: &Nat| PrimArg::Nat(n.clone(), e.span);
    let extra = |n: &Nat| &(n + &Nat::cst(t - 1)) / &tt * &tt - n;
    let clamp = |n: &Nat| {
        b.prim(
            Prim::Pad,
            vec![
                nats(&Nat::cst(0)),
                nats(&extra(n)),
                PrimArg::Boundary(Boundary::Clamp, e.span),
            ],
        )
    };
    // A dimension `t` is known to divide is neither padded nor cut.
    let (pn, pm) = (dn != Some(true), dm != Some(true));
    let mut pads = Vec::new();
    pads.extend(pn.then(|| clamp(&tr.n)));
    pads.extend(pm.then(|| map(clamp(&tr.m))));
    let padded = b.app(b.o(pads), tr.d.clone());
    let take = |n: &Nat| b.prim(Prim::Take, vec![nats(n)]);
    let mut cuts = Vec::new();
    cuts.extend(pm.then(|| take(&tr.m)));
    cuts.extend(pn.then(|| map(take(&tr.n))));
    let cut = b.o(cuts);
    Some(b.app(cut, b.app(chain, padded)))
}

/// `map_wrg(1, map(join) o transpose o map_wrg(0, staged_tile))`, what [`stage_tiles`] gives.
fn staged(b: &Builder, f: &Expr, t: i64, rows: i64) -> Expr {
    let back = b.o(vec![
        b.with(Prim::Map, b.bare(Prim::Join)),
        b.bare(Prim::Transpose),
        b.dim(Prim::MapWrg, 0, staged_tile(b, f, t, rows)),
    ]);
    b.dim(Prim::MapWrg, 1, back)
}

/// One tile through local memory: `copy_out(f) o transpose o to_local(copy_in)`, each of the
/// `rows` work-items of dimension 1 copying `t / rows` consecutive rows, the lanes of
/// dimension 0 along a row.
fn staged_tile(b: &Builder, f: &Expr, t: i64, rows: i64) -> Expr {
    let copy = |g: Expr| {
        b.o(vec![
            b.bare(Prim::Join),
            b.dim(
                Prim::MapLcl,
                1,
                b.with(Prim::MapSeq, b.dim(Prim::MapLcl, 0, g)),
            ),
            b.split(t / rows),
        ])
    };
    let copy_in = b.with(Prim::ToLocal, copy(b.bare(Prim::Id)));
    b.o(vec![copy(f.clone()), b.bare(Prim::Transpose), copy_in])
}
