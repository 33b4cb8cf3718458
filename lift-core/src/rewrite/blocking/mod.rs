//! 2-D blocking of a nested map-reduce (the macro rule behind LIFT's tiled matrix products,
//! Steuwer et al. CASES'16, and the thesis' `ab_tile` + `tile_nested_map_reduce` + register
//! blocking + `materialise` + `privatise_accumulator` sequence, a strategy of rules: the
//! edges, the tiling, the register blocks, the private reads, the staged slices, the private
//! accumulators):
//!
//! ```text
//! map(|r| map(|c| reduce(op, z) o map(g) $ zip(r, c)) $ C) $ A
//!   ⇒ join o map_wrg(1, |ra| transpose o join o map_wrg(0, |cb| W o reduce_seq(K, Z)
//!          $ zip(split(tk) o transpose $ ra, split(tk) o transpose $ cb)) o split(tn) $ C')
//!      o split(tm) $ A'
//! ```
//!
//! Work-group `(i, j)` computes the `tm x tn` block of rows `i` of `A` and rows `j` of `C`
//! (columns of the result); `reduce_seq(K, Z)` walks the shared dimension in steps of `tk`:
//! each step stages the two `tk`-slices in local memory (one barrier for both), then every
//! work-item `(l0, l1)` of the `l0 x l1` group updates its private `tm / l1 x tn / l0` block of
//! accumulators, reading `A` with `vload(v)` along the shared dimension and `C` with `vload(v)`
//! along its rows; `W` writes the private blocks out. The fold over the shared dimension keeps
//! its order, so `op` need not be associative: every output is `op(...op(op(z, g(a0, c0)),
//! g(a1, c1))..., g(ak, ck))` exactly as in the source.
//!
//! How the rows are cut into blocks is the configuration's [`Edge`]: `split`/`join` where `tm`
//! and `tn` divide the lengths; `split_cover`/`join_cover`, whose last block is shifted back to
//! end at the length (it computes rows of the block before it again, without writing them);
//! or `A'`, `C'` = `A`, `C` padded with `clamp` up to multiples of `tm`, `tn` by the rule
//! [`pad_rows`] before the tiling (the result then cut with `take`: the padded rows compute
//! values nobody keeps). The shared dimension is padded with zeros (`pad_k`, the rule
//! [`pad_shared`], first) only where a pair of zeros adds nothing to the fold; otherwise its
//! length must be a multiple of `tk` (a launch-time condition from `split`). [`edges`] gives
//! the edge rules of a configuration; [`blocked_product`] composes them with the tiling, the
//! register blocking and the memory rules. The tiling is two rules ([`tiled`]): [`tile_maps`]
//! cuts both maps into work-group blocks, each work-group computing the product of its blocks,
//! then [`tile_fold`] turns that product into the fold over the `tk`-slices, one work-item per
//! result; [`register_block`] gives each work-item a block of results in as many
//! accumulators, updated from vectors of the slices; the memory rules (`memory.rs`) then copy
//! the vectors each work-item reads to private memory, stage the slices in local memory and
//! keep the accumulators in private memory.
//!
//! An epilogue around the fold (`alpha * reduce(..) $ ..`, see `epilogue`) is applied
//! where the private blocks are written out.
//!
//! The rules match the left-hand side (`matching.rs`) on any spelling that normalisation
//! brings to it (any views for `A` and `C`, an operand given transposed included) and build
//! their right-hand sides as data (`derive.rs`, one function per derivation step: `tile`,
//! `fold_slices`, `register_blocks` with `init`, `update`, `steps`, `write_out`; `memory.rs`),
//! every binder fresh by construction (`rewrite::dsl::Builder`); the matched parts are put in
//! as they are.

mod derive;
mod edges;
mod layout;
mod matching;
pub mod memory;
mod registers;
mod tiling;

pub use edges::{pad_rows, pad_shared};
use layout::rows_contiguous;
use matching::{batched, matched, Matched};
pub(crate) use matching::{fold_parts, map_app, Fold};
pub use registers::register_block;
pub use tiling::{tile_fold, tile_maps};
#[cfg(test)]
mod tests;

use super::build::{self, call};
use super::strategy::{fail, id, rule, seq, top_down, Strategy};
use super::Rule;
use crate::arith::Nat;
use crate::ir::{Expr, ExprKind};
use crate::typeck::{Cond, Precondition};
use proc_macro2::Span;

/// A blocking configuration (the tuning parameters of the rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Blocking {
    /// Rows of `A` per work-group.
    pub tm: i64,
    /// Rows of `C` (result columns) per work-group.
    pub tn: i64,
    /// Step along the shared dimension (staged in local memory per step).
    pub tk: i64,
    /// Work-group size in dimension 0 (over result columns).
    pub l0: i64,
    /// Work-group size in dimension 1 (over result rows).
    pub l1: i64,
    /// Vector width of the local-memory reads.
    pub v: i64,
    /// How the rows of `A` and `C` are cut into blocks of `tm` and `tn`.
    pub edge: Edge,
    /// Also pad the shared dimension up to a multiple of `tk` with zeros (only where a zero
    /// pair adds nothing to the fold: `op` is `+` and `g(0, 0)` is `0`; not with
    /// [`Edge::Exact`]).
    pub pad_k: bool,
    /// Fold the `tk / v` vector steps of a staged slice with `reduce_seq_unroll` (a loop the
    /// device compiler unrolls, its local arrays declared aligned so the unrolled `vload`s
    /// become single wide loads) instead of `reduce_seq` (a loop). Which is faster depends on
    /// the registers the device compiler then needs: a tuning parameter.
    pub unroll: bool,
}

/// How a blocking cuts the result's rows and columns into blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edge {
    /// `split`: the block sizes must divide the lengths (launch-time conditions).
    Exact,
    /// `A` and `C` padded with `clamp` up to multiples of the block sizes, the result cut
    /// with `take`: any length; the padded rows are computed and dropped, and every staged
    /// row index is clamped.
    Pad,
    /// `split_cover` and `join_cover`: the last block is shifted back to end at the length,
    /// overlapping the one before, whose rows it computes again without writing them. Every
    /// row index stays `block start + offset` (no clamp per row); the lengths must be at least
    /// the block sizes.
    Cover,
}

impl Blocking {
    /// Whether the sizes fit together: `l1 | tm`, `l0 v | tn`, `v | tk`, all positive, and `v`
    /// a width OpenCL has vectors of (2, 3, 4, 8 or 16).
    pub fn is_consistent(&self) -> bool {
        let pos = [self.tm, self.tn, self.tk, self.l0, self.l1, self.v]
            .iter()
            .all(|&x| x >= 1);
        pos && matches!(self.v, 2 | 3 | 4 | 8 | 16)
            && self.tm % self.l1 == 0
            && self.tn % (self.l0 * self.v) == 0
            && self.tk % self.v == 0
    }

    /// Local memory used, in elements of the element type.
    pub fn local_elems(&self) -> i64 {
        (self.tm + self.tn) * self.tk
    }

    /// Private accumulators per work-item.
    pub fn accumulators(&self) -> i64 {
        (self.tm / self.l1) * (self.tn / self.l0)
    }

    /// The configuration as named tuning parameters, for display (a blocked candidate's name,
    /// `blocked(tm=..,pad=..)`) and the runtime's caches; nothing reads them back.
    pub fn params(&self) -> Vec<(String, i64)> {
        [
            ("tm", self.tm),
            ("tn", self.tn),
            ("tk", self.tk),
            ("l0", self.l0),
            ("l1", self.l1),
            ("v", self.v),
            ("u", i64::from(self.unroll)),
            ("pad", self.pad_param()),
        ]
        .iter()
        .map(|(n, v)| (n.to_string(), *v))
        .collect()
    }

    /// The `pad` parameter of the candidate's name: 0 exact, 1 padded, 2 padded with the
    /// shared dimension zero-padded too, 3 covered, 4 covered with the shared dimension
    /// zero-padded.
    fn pad_param(&self) -> i64 {
        let k = i64::from(self.pad_k);
        match self.edge {
            Edge::Exact => 0,
            Edge::Pad => 1 + k,
            Edge::Cover => 3 + k,
        }
    }
}

/// The blocking of configuration `cfg` (see the module docs): the product matched once, for
/// the choice of lanes of the staged slices (where each operand's rows run in memory), then
/// [`blocked_product`].
pub fn block_map_reduce(cfg: Blocking) -> Rule {
    Rule::new(
        "block_map_reduce",
        "map(|r| map(|c| reduce(op, z) o map(g) $ zip(r, c)) $ C) $ A ⇒ edges; tile_maps; \
         tile_fold; register_block; privatise_reads; stage_slices; privatise_accumulators   if \
         f32, tm, tn, tk consistent",
        move |e, ctx| {
            let m = matched(e, None).or_else(|| batched(e))?;
            blocked_product(cfg, lanes(&m, &cfg)).apply(e, ctx)
        },
    )
}

/// The blocked product as a strategy of rules, the thesis' derivation in order (as shine's
/// `tvmGemm`): the [`edges`] of `cfg`; [`tiled`] (`ab_tile`, `tile_nested_map_reduce`: each
/// work-group folds its block over the `tk`-slices, one work-item per result);
/// [`register_block`] (a block of results per work-item, read with vectors);
/// [`memory::privatise_reads`] (at the two folds of a work-item's vector reads);
/// [`memory::stage_slices`] with `lanes`; [`memory::privatise_accumulators`]. Each where it
/// first applies.
pub fn blocked_product(cfg: Blocking, lanes: memory::Lanes) -> Strategy {
    let reads = top_down(rule(memory::privatise_reads()));
    [
        edges(&cfg),
        tiled(cfg),
        top_down(rule(register_block(cfg))),
        reads.clone(),
        reads,
        top_down(rule(memory::stage_slices(cfg.l0, cfg.l1, lanes))),
        top_down(rule(memory::privatise_accumulators())),
    ]
    .into_iter()
    .reduce(seq)
    .unwrap_or_else(id)
}

/// The tiling of `cfg`: [`tile_maps`], then [`tile_fold`] on the work-group's product of
/// blocks, each where it first applies.
pub fn tiled(cfg: Blocking) -> Strategy {
    seq(
        top_down(rule(tile_maps(cfg))),
        top_down(rule(tile_fold(cfg.tk))),
    )
}

/// The edges of `cfg` as rules at the root: [`pad_shared`] where `cfg.pad_k` (never with
/// [`Edge::Exact`]), then [`pad_rows`] for [`Edge::Pad`].
pub fn edges(cfg: &Blocking) -> Strategy {
    let shared = match (cfg.pad_k, cfg.edge) {
        (false, _) => id(),
        (true, Edge::Exact) => fail(),
        (true, _) => rule(pad_shared(cfg.tk)),
    };
    let rows = match cfg.edge {
        Edge::Pad => rule(pad_rows(cfg.tm, cfg.tn)),
        Edge::Exact | Edge::Cover => id(),
    };
    seq(shared, rows)
}

/// Where each operand's slices are copied from with coalesced lanes: local layouts are fixed
/// by the compute (`A`'s slice `tm x tk`, `C`'s `tk x tn`); the lanes of each copy run along
/// the dimension that is contiguous in memory.
fn lanes(m: &Matched, cfg: &Blocking) -> memory::Lanes {
    memory::Lanes {
        a_along_k: rows_contiguous(&m.a, m.batch.as_ref()).unwrap_or(true) || cfg.tm % cfg.l0 != 0,
        c_along_k: rows_contiguous(&m.c, m.batch.as_ref()).unwrap_or(false) && cfg.tn % cfg.l1 == 0,
    }
}

/// When the candidate of `cfg` for the product `e` (a product the rule matches) is worth
/// running beyond its type's conditions: a covered blocking that zero-pads the shared
/// dimension `K` only where `tk` does not divide it (elsewhere the one without the padding
/// computes the same with less work).
pub fn worth_running(cfg: &Blocking, e: &Expr) -> Option<Precondition> {
    if !(cfg.pad_k && cfg.edge == Edge::Cover) {
        return None;
    }
    let m = matched(e, None).or_else(|| batched(e))?;
    let kk = m.a.ty.as_ref()?.as_array()?.0.as_array()?.1.clone();
    Some(Precondition {
        cond: Cond::Le(Nat::cst(1), kk % Nat::cst(cfg.tk)),
        origin: "block_map_reduce".to_string(),
        reason: "the shared dimension is zero-padded only where the K-tile does not divide it"
            .to_string(),
        span: e.span,
    })
}

/// Whether `e` is a product whose epilogue reads an element of another matrix at each
/// result's place (BLAS's `beta * c[i][j]`, see `matching.rs`).
pub fn reads_elements(e: &Expr) -> bool {
    matched(e, None).is_some_and(|m| m.elements.is_some())
}

/// Whether a pair of zeros adds nothing to the fold: `op` is `+` and `g((0, 0))` folds to
/// the literal `0` (a product, a sum of products, ...), so zero-padding the shared dimension
/// leaves every result as it was.
pub(crate) fn zero_pairs_add_nothing(op: &Expr, g: Option<&Expr>, s: Span) -> bool {
    let Some(g) = g else { return false };
    if build::section_of(op) != Some(crate::ir::Section::Add) {
        return false;
    }
    let zero = || Expr::new(ExprKind::Lit(crate::ir::LitValue::Float(0.0), None), s);
    let e = call(
        g,
        vec![Expr::new(ExprKind::Tuple(vec![zero(), zero()]), s)],
        s,
    );
    folds_to_zero(&e)
}

/// Does `e` evaluate to zero whatever its free variables: a zero literal, a product with a
/// zero factor, a sum or difference of zeros, a negated zero.
fn folds_to_zero(e: &Expr) -> bool {
    use crate::ir::{BinOp, UnOp};
    match &e.kind {
        ExprKind::Lit(v, _) => build::is_lit(e, 0.0) && !matches!(v, crate::ir::LitValue::Bool(_)),
        ExprKind::Binary(BinOp::Mul, a, b) => folds_to_zero(a) || folds_to_zero(b),
        ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => folds_to_zero(a) && folds_to_zero(b),
        ExprKind::Unary(UnOp::Neg, a) => folds_to_zero(a),
        _ => false,
    }
}
