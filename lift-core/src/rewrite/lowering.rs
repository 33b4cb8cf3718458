//! Lowering rules: high-level maps and reductions to OpenCL ones, unrolling, and address
//! spaces, with the nesting side conditions of SPEC section 2.
//!
//! Local side conditions only: the rule "no `map_glb` together with `map_wrg`/`map_lcl` in one
//! kernel" spans the whole kernel and is left to the re-check.

use super::build::{self, with_fun};
use super::walk::children;
use super::{RewriteCtx, Rule};
use crate::arith::Nat;
use crate::ir::{Expr, ExprKind, PrimArg};
use crate::prim::Prim;

/// Where a `map` goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapLevel {
    /// `map_glb(d, f)`.
    Glb(usize),
    /// `map_wrg(d, f)`.
    Wrg(usize),
    /// `map_lcl(d, f)`.
    Lcl(usize),
    /// `map_seq(f)`.
    Seq,
}

/// An address space for [`to_address_space`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressSpace {
    /// `to_global`.
    Global,
    /// `to_local`.
    Local,
    /// `to_private`.
    Private,
}

/// Does `e` contain a primitive satisfying `pred` (with its dimension)?
fn contains(e: &Expr, pred: &dyn Fn(Prim, usize) -> bool) -> bool {
    if let ExprKind::Prim(p, args) = &e.kind {
        if pred(*p, PrimArg::dim(args)) {
            return true;
        }
    }
    children(e).into_iter().any(|c| contains(c, pred))
}

/// The side condition of lowering a map with body `f` to `level` at `ctx`.
fn may_lower(level: MapLevel, f: &Expr, ctx: &RewriteCtx) -> bool {
    use Prim::{MapGlb, MapLcl, MapWrg};
    let in_group = ctx.inside(MapWrg, None) || ctx.inside(MapLcl, None);
    match level {
        MapLevel::Seq => true,
        MapLevel::Glb(d) => {
            d < 3
                && !in_group
                && !ctx.inside(MapGlb, Some(d))
                && !contains(f, &|p, e| {
                    matches!(p, MapWrg | MapLcl) || (p == MapGlb && e == d)
                })
        }
        MapLevel::Wrg(d) => {
            d < 3
                && !ctx.inside(MapGlb, None)
                && !ctx.inside(MapLcl, None)
                && !ctx.inside(MapWrg, Some(d))
                && contains(f, &|p, _| p.is_map())
                && !contains(f, &|p, e| p == MapGlb || (p == MapWrg && e == d))
        }
        MapLevel::Lcl(d) => {
            d < 3
                && ctx.inside(MapWrg, Some(d))
                && !ctx.inside(MapLcl, Some(d))
                && !contains(f, &|p, e| {
                    matches!(p, MapGlb | MapWrg) || (p == MapLcl && e == d)
                })
        }
    }
}

/// `map(f) ⇒ map_glb(d, f) | map_wrg(d, f) | map_lcl(d, f) | map_seq(f)`, respecting the
/// nesting rules: `map_glb(d)` not inside a work-group or `map_glb(d)` and without
/// work-group maps in `f`; `map_wrg(d)` not inside `map_glb`/`map_lcl`/`map_wrg(d)`, with a
/// nested map in `f`; `map_lcl(d)` only inside `map_wrg(d)` and not inside `map_lcl(d)`.
pub fn lower_map(level: MapLevel) -> Rule {
    Rule::new(
        "lower_map",
        "map(f) ⇒ map_glb(d, f) | map_wrg(d, f) | map_lcl(d, f) | map_seq(f)   respecting the nesting rules",
        move |e, ctx| {
            let f = e.prim_fun(Prim::Map)?;
            if !may_lower(level, f, ctx) {
                return None;
            }
            let s = e.span;
            let d = |d: usize| build::nat(&Nat::cst(d as i64), s);
            Some(match level {
                MapLevel::Seq => with_fun(Prim::MapSeq, f, s),
                MapLevel::Glb(k) => build::prim(Prim::MapGlb, vec![d(k), build::fun(f)], s),
                MapLevel::Wrg(k) => build::prim(Prim::MapWrg, vec![d(k), build::fun(f)], s),
                MapLevel::Lcl(k) => build::prim(Prim::MapLcl, vec![d(k), build::fun(f)], s),
            })
        },
    )
}

/// `reduce(f, z) ⇒ reduce_seq(f, z)` (RR2; `reduce` means the same left fold).
pub fn lower_reduce() -> Rule {
    Rule::new(
        "lower_reduce",
        "reduce(f, z) ⇒ reduce_seq(f, z)",
        |e, _| {
            let (p, args) = e.as_prim()?;
            (p == Prim::Reduce).then(|| build::prim(Prim::ReduceSeq, args.to_vec(), e.span))
        },
    )
}

/// Is the input length known to be a constant?
fn constant_trip(ctx: &RewriteCtx) -> bool {
    build::array(ctx.input.as_ref()).is_some_and(|(_, n)| n.as_cst().is_some())
}

/// `map_seq(f) ⇒ map_seq_unroll(f)` and `reduce_seq(f, z) ⇒ reduce_seq_unroll(f, z)`, when the
/// trip count (the input length) is a known constant.
pub fn unroll() -> Rule {
    Rule::new(
        "unroll",
        "map_seq(f) ⇒ map_seq_unroll(f);  reduce_seq(f, z) ⇒ reduce_seq_unroll(f, z)   if the length is constant",
        |e, ctx| {
            let (p, args) = e.as_prim()?;
            let q = match p {
                Prim::MapSeq => Prim::MapSeqUnroll,
                Prim::ReduceSeq => Prim::ReduceSeqUnroll,
                _ => return None,
            };
            constant_trip(ctx).then(|| build::prim(q, args.to_vec(), e.span))
        },
    )
}

/// `f ⇒ to_global(f) | to_local(f) | to_private(f)` for a low-level map or sequential
/// reduction `f` that writes its result (RR7), not already wrapped: `to_local` only inside a
/// work-group, on `map_lcl`/`map_seq`; `to_private` only inside `map_glb`/`map_lcl`, on a
/// sequential map or reduction.
pub fn to_address_space(space: AddressSpace) -> Rule {
    Rule::new(
        "to_address_space",
        "f ⇒ to_global(f) | to_local(f) (inside map_wrg) | to_private(f) (inside map_glb/map_lcl)   for a low-level map or reduce_seq f",
        move |e, ctx| {
            use Prim::*;
            let (p, _) = e.as_prim()?;
            let wrapped = matches!(ctx.enclosing.last(), Some((ToGlobal | ToLocal | ToPrivate, _)));
            let seq = matches!(p, MapSeq | MapSeqUnroll | ReduceSeq | ReduceSeqUnroll);
            let writes = seq || matches!(p, MapGlb | MapWrg | MapLcl);
            let (ok, wrap) = match space {
                AddressSpace::Global => (true, ToGlobal),
                AddressSpace::Local => (
                    ctx.inside(MapWrg, None) && (seq || p == MapLcl),
                    ToLocal,
                ),
                AddressSpace::Private => (
                    (ctx.inside(MapGlb, None) || ctx.inside(MapLcl, None)) && seq,
                    ToPrivate,
                ),
            };
            (writes && ok && !wrapped).then(|| with_fun(wrap, &build::untyped(e), e.span))
        },
    )
}
