//! The memory hierarchy of a tiled product, as rules applied after the tiling (`derive.rs`): the
//! slices of the shared dimension staged in local memory by the work-group, and the
//! work-items' accumulators and the vectors they read each step kept in private memory. Each preserves the program's meaning
//! (a copy, then a view of it) and is checked on its own against the interpreter.

use crate::ir::{Expr, ExprKind, PrimArg};
use crate::prim::Prim;
use crate::rewrite::build;
use crate::rewrite::dsl::Builder;
use crate::rewrite::Rule;

/// How a slice is copied to local memory: the lanes (`l0`) run along the slice's rows, or
/// along the shared dimension `tk`; each operand's is chosen where its rows run in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lanes {
    /// `A`'s slice copied with its lanes along `tk`.
    pub a_along_k: bool,
    /// `C`'s slice copied with its lanes along `tk`.
    pub c_along_k: bool,
}

/// `materialise` of the slices a tiled product folds over, with an `l0 x l1` work-group:
///
/// ```text
/// reduce_seq(|acc, t| f $ (transpose $ t.0, t.1), i)
///   ⇒ reduce_seq(|acc, t| f $ (to_local(copyA) $ t.0, to_local(copyC) $ t.1), i)
/// ```
///
/// with `copyA` computing `transpose` and `copyC` the identity through a copy whose lanes run
/// as `lanes` says:
///
/// ```text
/// lanes along rows: map_lcl(1, join o map_seq(map_lcl(0, id)) o split(l0))
/// lanes along tk:   join o transpose o map_lcl(1, map_seq(map_lcl(0, id))) o transpose
///                   o split(l1) o transpose   (a copy of the transposed slice)
/// ```
pub fn stage_slices(l0: i64, l1: i64, lanes: Lanes) -> Rule {
    Rule::new(
        "stage_slices",
        "reduce_seq(|acc, t| f $ (transpose $ t.0, t.1), i) ⇒ reduce_seq(|acc, t| f $ \
         (to_local(copyA) $ t.0, to_local(copyC) $ t.1), i)   copies by an l0 x l1 work-group",
        move |e, ctx| {
            let (fun, init) = fold_parts(e)?;
            let (ps, t, f, [a, c]) = step_on_pair(fun)? else {
                return None;
            };
            let ExprKind::Apply(tr, ys) = &a.kind else {
                return None;
            };
            let [ya] = ys.as_slice() else { return None };
            let slice = |x: &Expr, i: usize| matches!(&x.kind, ExprKind::Proj(v, j) if *j == i && build::is_ident(v, t));
            if !build::is_bare(tr, Prim::Transpose) || !slice(ya, 0) || !slice(c, 1) {
                return None;
            }
            let b = Builder::new(ctx, Vec::new(), e.span);
            let a = b.app(copy(&b, l0, l1, lanes.a_along_k, false), ya.clone());
            let c = b.app(copy(&b, l0, l1, lanes.c_along_k, true), c.clone());
            let body = b.app(build::untyped(f), b.pair(a, c));
            let fun = Expr::new(ExprKind::Lambda(ps.clone(), Box::new(body)), fun.span);
            Some(b.fold(Prim::ReduceSeq, fun, init.clone()))
        },
    )
}

/// `to_local(copy)` of a `tk x t` slice: for `A` (`is_c` false) giving it transposed, for `C`
/// as it is (see [`stage_slices`]).
fn copy(b: &Builder, l0: i64, l1: i64, along_k: bool, is_c: bool) -> Expr {
    let each = || b.with(Prim::MapSeq, b.dim(Prim::MapLcl, 0, b.bare(Prim::Id)));
    let t = || b.bare(Prim::Transpose);
    let chain = if along_k {
        let mut fs = vec![
            b.bare(Prim::Join),
            t(),
            b.dim(Prim::MapLcl, 1, each()),
            t(),
            b.split(l1),
            t(),
        ];
        if is_c {
            fs.insert(0, t());
        }
        fs
    } else {
        let rows = b.dim(
            Prim::MapLcl,
            1,
            b.o(vec![b.bare(Prim::Join), each(), b.split(l0)]),
        );
        if is_c {
            vec![rows]
        } else {
            vec![t(), rows]
        }
    };
    b.with(Prim::ToLocal, b.o(chain))
}

/// `privatise_accumulator`: the accumulators a work-group's fold starts from, one block per
/// work-item, kept in private memory:
///
/// ```text
/// reduce_seq(f, map_lcl(d, g) $ x) ⇒ reduce_seq(f, to_private(map_lcl(d, g)) $ x)
/// ```
pub fn privatise_accumulators() -> Rule {
    Rule::new(
        "privatise_accumulators",
        "reduce_seq(f, map_lcl(d, g) $ x) ⇒ reduce_seq(f, to_private(map_lcl(d, g)) $ x)",
        |e, _| {
            let (fun, init) = fold_parts(e)?;
            let ExprKind::Apply(g, xs) = &init.kind else {
                return None;
            };
            if !matches!(g.as_prim(), Some((Prim::MapLcl, _))) {
                return None;
            }
            let private = build::with_fun(Prim::ToPrivate, &build::untyped(g), g.span);
            let init = Expr::new(ExprKind::Apply(Box::new(private), xs.clone()), init.span);
            let args = vec![PrimArg::Fun(fun.clone()), PrimArg::Value(init)];
            Some(build::prim(Prim::ReduceSeq, args, e.span))
        },
    )
}

/// `materialise` of the vectors a work-item's sequential fold reads in each step (the
/// register blocking's reads of `A` and `C`, see `derive::steps`), copied to private memory:
///
/// ```text
/// reduce_seq(|acc, t| f $ (t.i, y), z)
///   ⇒ reduce_seq(|acc, t| f $ (to_private(map_seq_unroll(id)) $ t.i, y), z)
/// reduce_seq(|acc, t| f $ (as_scalar $ t.i, y), z)
///   ⇒ reduce_seq(|acc, t| f $ (as_scalar o to_private(map_seq_unroll(id)) $ t.i, y), z)
/// ```
///
/// (`reduce_seq_unroll` as well), `f` a function of the pair.
pub fn privatise_reads() -> Rule {
    Rule::new(
        "privatise_reads",
        "reduce_seq(|acc, t| f $ (t.i, y), z) ⇒ reduce_seq(|acc, t| f $ \
         (to_private(map_seq_unroll(id)) $ t.i, y), z)   (t.i under as_scalar too)",
        |e, ctx| {
            let (p, [PrimArg::Fun(fun), PrimArg::Value(init)]) = e.as_prim()? else {
                return None;
            };
            if !matches!(p, Prim::ReduceSeq | Prim::ReduceSeqUnroll) {
                return None;
            }
            let (ps, t, f, [x, y]) = step_on_pair(fun)? else {
                return None;
            };
            if !matches!(f.kind, ExprKind::Lambda(..)) {
                return None;
            }
            let read = |v: &Expr| matches!(&v.kind, ExprKind::Proj(u, _) if build::is_ident(u, t));
            let b = Builder::new(ctx, Vec::new(), e.span);
            let private = b.with(
                Prim::ToPrivate,
                b.with(Prim::MapSeqUnroll, b.bare(Prim::Id)),
            );
            let x = match &x.kind {
                _ if read(x) => b.app(private, x.clone()),
                ExprKind::Apply(s, vs) if build::is_bare(s, Prim::AsScalar) => {
                    match vs.as_slice() {
                        [v] if read(v) => {
                            b.app(b.o(vec![b.bare(Prim::AsScalar), private]), v.clone())
                        }
                        _ => return None,
                    }
                }
                _ => return None,
            };
            let body = b.app(build::untyped(f), b.pair(x, y.clone()));
            let fun = Expr::new(ExprKind::Lambda(ps.clone(), Box::new(body)), fun.span);
            Some(b.fold(p, fun, init.clone()))
        },
    )
}

/// `(f, init)` of `reduce_seq(f, init)`.
fn fold_parts(e: &Expr) -> Option<(&Expr, &Expr)> {
    let (Prim::ReduceSeq, [PrimArg::Fun(f), PrimArg::Value(init)]) = e.as_prim()? else {
        return None;
    };
    Some((f, init))
}

/// The parts of a fold's step `|acc, t| f $ (x, y)`: its patterns, `t`, `f` and `[x, y]`.
fn step_on_pair(fun: &Expr) -> Option<(&Vec<crate::ir::Pat>, &str, &Expr, &[Expr])> {
    let ExprKind::Lambda(ps, body) = &fun.kind else {
        return None;
    };
    let [_, crate::ir::Pat::Name(t, _)] = ps.as_slice() else {
        return None;
    };
    let ExprKind::Apply(f, xs) = &body.kind else {
        return None;
    };
    let [pair] = xs.as_slice() else { return None };
    let ExprKind::Tuple(parts) = &pair.kind else {
        return None;
    };
    Some((ps, t, f, parts.as_slice()))
}
