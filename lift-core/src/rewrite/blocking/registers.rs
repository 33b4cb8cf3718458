//! Register blocking with vectorised reads as a rule after the tiling (the thesis' register
//! blocking of the tiled product, Lift's `apply2DRegisterBlocking`, and the vectorisation of
//! its reads): the fold over the `tk`-slices [`super::tile_fold`] leaves, one work-item per
//! result, becomes one where each work-item computes a block of results in as many
//! accumulators, reading the slices with vectors.
//!
//! The vector reads are not a rule of their own: the width `v` fixes which columns a
//! work-item holds (vectors of `v` adjacent columns, strided by `l0`), so the accumulators'
//! layout, the walk over the slice (`v` steps at a time) and the write-out all change with it.

use super::derive::{self, Parts, Reads};
use super::Blocking;
use crate::ir::{Expr, ExprKind, Pat, PrimArg};
use crate::prim::Prim;
use crate::rewrite::build::{self, ident, lambda1};
use crate::rewrite::dsl::Builder;
use crate::rewrite::{names, Rule};

/// `register_block(cfg)`: a block of `tm / l1 x tn / l0` results per work-item `(l0, l1)` of an
/// `l0 x l1` work-group, in as many accumulators, updated from the slices' vectors of `v`
/// ([`derive::register_blocks`]; [`super::memory::privatise_accumulators`] then keeps them in
/// private memory):
///
/// ```text
/// WRITE1 o reduce_seq(|acc, t| (|(al, bl)| UPDATE1(acc, al, bl)) $ (transpose $ t.0, t.1),
///                     map_lcl(0, |c| map_lcl(1, |r| z) $ ra) $ cb) $ SLICES
///   ⇒ WRITE o reduce_seq(|acc, t| (|(al, bl)| UPDATE(acc, al, bl)) $ (transpose $ t.0, t.1),
///                        INIT(ra, cb)) $ SLICES
/// UPDATE1(acc, al, bl) = map_lcl(0, |(accc, c)| map_lcl(1, |(e, r)|
///     reduce_seq(|x, q| step(x, q.0, q.1), e) $ zip(r, c)) $ zip(accc, al))
///   $ zip(acc, transpose $ bl)
/// ```
///
/// with `SLICES = zip(split(tk) o transpose $ ra, split(tk) o transpose $ cb)` and `WRITE1`
/// the write of one result per work-item (as [`super::tile_fold`] builds them); `INIT`,
/// `UPDATE` and `WRITE` as `derive.rs` gives them (`init`, `update` with `steps`,
/// `write_out`). Inside a `map_wrg(0, ..)`, for a consistent `cfg` whose `tm`, `tn` are the
/// block's sizes (`l1 | tm`, `l0 v | tn`, `v | tk`). The rule reads the parts (`z`, `step`,
/// the epilogue, `ra`, `cb`) off the left-hand side and matches only where building
/// [`super::tile_fold`]'s form from them again gives it back (up to the names of binders).
pub fn register_block(cfg: Blocking) -> Rule {
    Rule::new(
        "register_block",
        "WRITE1 o reduce_seq(|acc, t| (|(al, bl)| map_lcl(0, |(accc, c)| map_lcl(1, |(e, r)| \
         reduce_seq(|x, q| step(x, q.0, q.1), e) $ zip(r, c)) $ zip(accc, al)) $ zip(acc, \
         transpose $ bl)) $ (transpose $ t.0, t.1), map_lcl(0, |c| map_lcl(1, |r| z) $ ra) $ \
         cb) $ SLICES ⇒ WRITE o reduce_seq(|acc, t| (|(al, bl)| UPDATE(acc, al, bl)) $ \
         (transpose $ t.0, t.1), INIT(ra, cb)) $ SLICES   in map_wrg(0), cfg consistent (see \
         rewrite::blocking::derive)",
        move |e, ctx| {
            if !cfg.is_consistent() || !ctx.inside(Prim::MapWrg, Some(0)) {
                return None;
            }
            let found = per_result(e)?;
            let mut avoid = vec![&found.z, &found.step, &found.post, &found.ra, &found.cb];
            if let Reads::Columns(_, x) | Reads::Elements(_, x) = &found.reads {
                avoid.push(x);
            }
            let b = Builder::new(ctx, avoid, e.span);
            let parts = found.parts()?;
            // Exactly the fold `tile_fold` builds from these parts (up to its binders' names).
            if derive::fold_slices(&b, cfg.tk, &parts, &found.ra, &found.cb) != *e {
                return None;
            }
            Some(derive::register_blocks(
                &b, &cfg, &parts, &found.ra, &found.cb,
            ))
        },
    )
}

/// The parts of a fold with one work-item per result, as [`per_result`] finds them.
struct PerResult {
    /// The fold's initial value.
    z: Expr,
    /// The per-result fold's function, `|x, q| step(x, q.0, q.1)`.
    step: Expr,
    /// The epilogue, with the name of the element it reads (if any) free.
    post: Expr,
    /// That name and the block of a bias or of an element matrix it reads it from.
    reads: Reads,
    /// The blocks of rows of `A` and `C`.
    ra: Expr,
    cb: Expr,
}

impl PerResult {
    /// The parts [`derive`] builds from: the step over an accumulator and a pair of elements
    /// as the per-result fold's body with them in place of `x`, `q.0` and `q.1`.
    fn parts(&self) -> Option<Parts> {
        let ExprKind::Lambda(ps, body) = &self.step.kind else {
            return None;
        };
        let [Pat::Name(x, _), Pat::Name(q, _)] = ps.as_slice() else {
            return None;
        };
        let (x, q, body) = (x.clone(), q.clone(), (**body).clone());
        let step = move |acc: Expr, a: Expr, c: Expr| {
            let mut out = body.clone();
            let s = out.span;
            for (i, by) in [a, c].iter().enumerate() {
                let read = Expr::new(ExprKind::Proj(Box::new(ident(&q, s)), i), s);
                build::replace_same(&mut out, &read, by);
            }
            names::subst(&mut out, &x, &acc);
            out
        };
        Some(Parts {
            z: self.z.clone(),
            step: Box::new(step),
            post: self.post.clone(),
            reads: self.reads.clone(),
        })
    }
}

/// The parts of `e` if it has the form of a fold with one work-item per result (see
/// [`register_block`]; whether it is one, [`register_block`] checks by building it again).
fn per_result(e: &Expr) -> Option<PerResult> {
    let ExprKind::Apply(f, xs) = &e.kind else {
        return None;
    };
    let chain = build::chain(f);
    let ([_], [write, fold]) = (xs.as_slice(), chain.as_slice()) else {
        return None;
    };
    let (Prim::ReduceSeq, [PrimArg::Fun(update), PrimArg::Value(init)]) = fold.as_prim()? else {
        return None;
    };
    // map_lcl(0, |c| map_lcl(1, |r| z) $ ra) $ cb
    let (per_column, cb) = applied(init)?;
    let (per_row, ra) = applied(lambda1(per_column.prim_fun(Prim::MapLcl)?)?.1)?;
    let z = lambda1(per_row.prim_fun(Prim::MapLcl)?)?.1;
    // |acc, t| (|(al, bl)| map_lcl(0, |(accc, c)| map_lcl(1, |(e, r)| reduce_seq(STEP, e)
    //   $ ..) $ ..) $ ..) $ ..
    let slice = applied(body(update)?)?.0;
    let per_column = applied(body(slice)?)?.0.prim_fun(Prim::MapLcl)?;
    let per_result = applied(body(per_column)?)?.0.prim_fun(Prim::MapLcl)?;
    let step = applied(body(per_result)?)?.0.prim_fun(Prim::ReduceSeq)?;
    let (post, reads) = written(write)?;
    Some(PerResult {
        z: z.clone(),
        step: step.clone(),
        post,
        reads,
        ra: ra.clone(),
        cb: cb.clone(),
    })
}

/// The epilogue of the write of one result per work-item, and what it reads (see
/// [`PerResult`]): `map_lcl(0, map_lcl(1, post))`, or `|acc| map_lcl(0, |(accc, x)|
/// map_lcl(1, post) $ accc) $ zip(acc, X)` (a bias), or `|acc| map_lcl(0, |(accc, ec)|
/// map_lcl(1, |(v, ex)| post $ v) $ ..) $ zip(acc, transpose $ E)` (an element).
fn written(w: &Expr) -> Option<(Expr, Reads)> {
    if let Some(per_column) = w.prim_fun(Prim::MapLcl) {
        return Some((per_column.prim_fun(Prim::MapLcl)?.clone(), Reads::Nothing));
    }
    let (per_column, zipped) = applied(lambda1(w)?.1)?;
    let ExprKind::Apply(_, xs) = &zipped.kind else {
        return None;
    };
    let [_, data] = xs.as_slice() else {
        return None;
    };
    let per_column = per_column.prim_fun(Prim::MapLcl)?;
    let ExprKind::Lambda(ps, inner) = &per_column.kind else {
        return None;
    };
    let [Pat::Tuple(pair, _)] = ps.as_slice() else {
        return None;
    };
    let [_, Pat::Name(x, _)] = pair.as_slice() else {
        return None;
    };
    let each = applied(inner)?.0.prim_fun(Prim::MapLcl)?;
    let element = match &each.kind {
        ExprKind::Lambda(ps, one) => match (ps.as_slice(), &one.kind) {
            ([Pat::Tuple(vs, _)], ExprKind::Apply(post, _)) => match vs.as_slice() {
                [_, Pat::Name(ex, _)] => Some((ex, post)),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    match element {
        Some((ex, post)) => {
            let (_, es) = applied(data)?;
            Some(((**post).clone(), Reads::Elements(ex.clone(), es.clone())))
        }
        None => Some((each.clone(), Reads::Columns(x.clone(), data.clone()))),
    }
}

/// `(f, x)` of `f $ x`.
fn applied(e: &Expr) -> Option<(&Expr, &Expr)> {
    match &e.kind {
        ExprKind::Apply(f, xs) => match xs.as_slice() {
            [x] => Some((f, x)),
            _ => None,
        },
        _ => None,
    }
}

/// The body of a lambda.
fn body(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Lambda(_, body) => Some(body),
        _ => None,
    }
}
