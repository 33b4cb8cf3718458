//! The tiling of a nested map-reduce as two rules (the thesis' `ab_tile`, then
//! `tile_nested_map_reduce`): [`tile_maps`] cuts both maps into work-group blocks and leaves
//! each work-group the product of its blocks, [`tile_fold`] turns that product into a
//! sequential fold over the `tk`-slices of the shared dimension, one work-item per result
//! (`registers.rs` then gives each work-item a block of results). The programs between the
//! rules are ones the interpreter runs; each rule preserves the meaning on its own
//! (`tests.rs`).
//!
//! An epilogue that reads a bias per column or an element per result reads it, between the
//! rules, through the block of it the work-group binds: the block product runs over the
//! columns zipped with their bias (`zip(cb, cbx)`), or over the rows zipped with their
//! elements (`zip(ra, cbx)`, each column then zipped with its element of the row), which
//! [`tile_fold`] matches as the product with that epilogue (`matching.rs`).

use super::derive::{self, Parts, Reads};
use super::matching::{batched, map_app, matched, Matched};
use super::{Blocking, Edge};
use crate::arith::Nat;
use crate::ir::{Expr, ExprKind, Pat, PrimArg};
use crate::prim::Prim;
use crate::rewrite::build::{self, call, ident, lambda1};
use crate::rewrite::dsl::Builder;
use crate::rewrite::{names, RewriteCtx, Rule};
use crate::types::{ScalarType, Type};
use proc_macro2::Span;

/// `ab_tile` for configuration `cfg`: both maps cut into work-group blocks (`split`/`join`, or
/// `split_cover`/`join_cover` with [`Edge::Cover`]), each work-group computing the product of
/// its blocks, transposed (the layout the fold of [`tile_fold`] gives):
///
/// ```text
/// map(|r| map(|c| F) $ C) $ A
///   ⇒ join o map_wrg(1, |ra| transpose o join o map_wrg(0, |cb|
///          transpose $ map(|r| map(|c| F) $ cb) $ ra) o split(tn) $ C) o split(tm) $ A
/// ```
///
/// Matches what [`super::block_map_reduce`] matches (in a batch of products, in a
/// `map_wrg(2, ..)` over the batch); the rows of `A` and `C` must be multiples of `tm` and
/// `tn` with [`Edge::Exact`] and [`Edge::Pad`] (whose rows [`super::pad_rows`] pads first),
/// at least `tm` and `tn` with [`Edge::Cover`]. `F` is the matched fold and epilogue, rebuilt
/// over the blocks (see the module docs for an epilogue reading a bias or an element).
pub fn tile_maps(cfg: Blocking) -> Rule {
    Rule::new(
        "tile_maps",
        "map(|r| map(|c| F) $ C) $ A ⇒ joinA o map_wrg(1, |ra| transpose o joinC o map_wrg(0, \
         |cb| transpose $ map(|r| map(|c| F) $ cb) $ ra) o splitC $ C) o splitA $ A   if f32, \
         tm | N, tn | M (tm <= N, tn <= M covered)",
        move |e, ctx| {
            let m = matched(e, None).or_else(|| batched(e))?;
            let (n, mm) = fits(&m, &cfg, ctx)?;
            let product = BlockProduct::of(&m, e, &cfg)?;
            let b = Builder::new(ctx, parts_of(&m, None), e.span);
            let reads = reads(&m);
            let block = |ra: &Expr, cb: Expr, x: Option<Expr>| product.of_blocks(&b, ra, cb, x);
            let rhs = derive::tile(&b, &cfg, (&n, &mm), (&m.a, &m.c), &reads, &block);
            Some(in_batch(&m, rhs, e.span))
        },
    )
}

/// `tile_nested_map_reduce(tk)` ([`derive::fold_slices`]): a work-group's product of blocks
/// as a sequential fold over the `tk`-slices of the shared dimension, one work-item per
/// result, each continuing its fold over the slice's row of `A` and column of `C`, written
/// out with the epilogue:
///
/// ```text
/// transpose $ map(|r| map(|c| reduce(op, z) o map(g) $ zip(r, c)) $ cb) $ ra
///   ⇒ WRITE1 o reduce_seq(|acc, t| (|(al, bl)| map_lcl(0, |(accc, c)| map_lcl(1, |(e, r)|
///         reduce_seq(|x, q| op(x, g((q.0, q.1))), e) $ zip(r, c)) $ zip(accc, al))
///       $ zip(acc, transpose $ bl)) $ (transpose $ t.0, t.1),
///       map_lcl(0, |c| map_lcl(1, |r| z) $ ra) $ cb)
///     $ zip(split(tk) o transpose $ ra, split(tk) o transpose $ cb)
/// WRITE1 = map_lcl(0, map_lcl(1, post))
/// ```
///
/// inside a `map_wrg(0, ..)` (`g((q.1, q.0))` where the source zips `(c, r)`, `op(x, (q.0,
/// q.1))` for a sequential fold without `g`; `WRITE1` zips the results with the block of a
/// bias or of an element matrix the epilogue reads, see [`derive::fold_slices`]). The fold
/// over the shared dimension keeps its order. [`super::register_block`] then gives each
/// work-item a block of results; the slices are read where they are (see
/// [`super::memory::stage_slices`] for the rule that stages them).
pub fn tile_fold(tk: i64) -> Rule {
    Rule::new(
        "tile_fold",
        "transpose $ map(|r| map(|c| reduce(op, z) o map(g) $ zip(r, c)) $ cb) $ ra ⇒ WRITE1 o \
         reduce_seq(|acc, t| (|(al, bl)| map_lcl(0, |(accc, c)| map_lcl(1, |(e, r)| \
         reduce_seq(|x, q| op(x, g((q.0, q.1))), e) $ zip(r, c)) $ zip(accc, al)) $ zip(acc, \
         transpose $ bl)) $ (transpose $ t.0, t.1), map_lcl(0, |c| map_lcl(1, |r| z) $ ra) $ \
         cb) $ zip(split(tk) o transpose $ ra, split(tk) o transpose $ cb)   in map_wrg(0), f32 \
         (see rewrite::blocking::derive)",
        move |e, ctx| {
            if tk < 1 || !ctx.inside(Prim::MapWrg, Some(0)) {
                return None;
            }
            let ExprKind::Apply(t, xs) = &e.kind else {
                return None;
            };
            let [product] = xs.as_slice() else {
                return None;
            };
            if !build::is_bare(t, Prim::Transpose) {
                return None;
            }
            let m = matched(product, None)?;
            let (post, reads) = block_reads(&m)?;
            let b = Builder::new(ctx, parts_of(&m, Some(&post)), e.span);
            let parts = Parts {
                z: build::untyped(&m.z),
                step: step(&m),
                post: post.clone(),
                reads,
            };
            Some(derive::fold_slices(&b, tk, &parts, &m.a, &m.c))
        },
    )
}

/// The lengths `N`, `M` of `A` and `C` if `cfg` is consistent and its blocks fit them (as far
/// as the facts tell: what they do not decide is a launch-time condition).
fn fits(m: &Matched, cfg: &Blocking, ctx: &RewriteCtx) -> Option<(Nat, Nat)> {
    if !cfg.is_consistent() {
        return None;
    }
    let (n, mm) = (len(&m.a)?, len(&m.c)?);
    let fits = match cfg.edge {
        Edge::Exact | Edge::Pad => {
            ctx.facts.divisible(&n, &Nat::cst(cfg.tm)) != Some(false)
                && ctx.facts.divisible(&mm, &Nat::cst(cfg.tn)) != Some(false)
        }
        Edge::Cover => {
            ctx.facts.le(&Nat::cst(cfg.tm), &n) != Some(false)
                && ctx.facts.le(&Nat::cst(cfg.tn), &mm) != Some(false)
        }
    };
    fits.then_some((n, mm))
}

/// The length of the array `x`.
fn len(x: &Expr) -> Option<Nat> {
    Some(x.ty.as_ref()?.as_array()?.1.clone())
}

/// The element type of the array `x`.
fn elem(x: &Expr) -> Option<Type> {
    Some(x.ty.as_ref()?.as_array()?.0.clone())
}

/// The matched parts the right-hand side puts in (its binders are fresh for them), with the
/// epilogue `post` in place of the matched one if given.
fn parts_of<'a>(m: &'a Matched, post: Option<&'a Expr>) -> Vec<&'a Expr> {
    [&m.a, &m.c, &m.z, &m.op]
        .into_iter()
        .chain(m.g.as_ref())
        .chain(post.or(m.post.as_ref()))
        .chain(m.extras.as_ref().map(|(_, x)| x))
        .chain(m.elements.as_ref().map(|(_, x)| x))
        .collect()
}

/// What the matched epilogue reads besides the result, as [`derive::tile`] cuts it.
fn reads(m: &Matched) -> Reads {
    match (&m.extras, &m.elements) {
        (Some((col, x)), _) => Reads::Columns(col.clone(), x.clone()),
        (None, Some((element, x))) => Reads::Elements(element.clone(), x.clone()),
        (None, None) => Reads::Nothing,
    }
}

/// `rhs` in a `map_wrg(2, |p| cut $ rhs) $ data` over the batch, for a batch of products.
fn in_batch(m: &Matched, rhs: Expr, s: Span) -> Expr {
    let Some((p, data)) = &m.batch else {
        return rhs;
    };
    let rhs = match &m.cut {
        Some(cut) => Expr::new(ExprKind::Apply(Box::new(cut.clone()), vec![rhs]), s),
        None => rhs,
    };
    let lam = Expr::new(
        ExprKind::Lambda(vec![Pat::Name(p.clone(), s)], Box::new(rhs)),
        s,
    );
    let args = vec![PrimArg::Nat(Nat::cst(2), s), PrimArg::Fun(lam)];
    build::apply1(build::prim(Prim::MapWrg, args, s), build::untyped(data), s)
}

/// The fold's step over an accumulator and a pair of elements, `op(acc, g((a, c)))` (or
/// `op(acc, (a, c))` for a sequential fold without `g`), the pair as the source zips it.
fn step(m: &Matched) -> Box<dyn Fn(Expr, Expr, Expr) -> Expr> {
    let (op, g, swapped) = (m.op.clone(), m.g.clone(), m.swapped);
    Box::new(move |e: Expr, a: Expr, c: Expr| {
        let s = e.span;
        let pair = Expr::new(
            ExprKind::Tuple(if swapped { vec![c, a] } else { vec![a, c] }),
            s,
        );
        match &g {
            Some(g) => call(&op, vec![e, call(g, vec![pair], s)], s),
            None => call(&op, vec![e, pair], s),
        }
    })
}

/// The epilogue and what it reads, for the product of blocks [`tile_fold`] matched: the
/// column block of a bias is the second of the columns zipped with it (`zip(cb, cbx)`, read
/// as `c.1` and read through the epilogue's own name again); an element block is read as it
/// is matched.
fn block_reads(m: &Matched) -> Option<(Expr, Reads)> {
    let post = m
        .post
        .clone()
        .unwrap_or_else(|| build::prim(Prim::Id, Vec::new(), m.z.span));
    match (&m.extras, &m.elements) {
        (Some((col, zipped)), _) => {
            let ExprKind::Apply(z, ys) = &zipped.kind else {
                return None;
            };
            let [c, x] = ys.as_slice() else { return None };
            if !build::is_bare(z, Prim::Zip) || *c != m.c {
                return None;
            }
            let mut post = post;
            let s = zipped.span;
            let bias = Expr::new(ExprKind::Proj(Box::new(ident(col, s)), 1), s);
            build::replace_same(&mut post, &bias, &ident(col, s));
            Some((post, Reads::Columns(col.clone(), x.clone())))
        }
        (None, Some((element, x))) => Some((post, Reads::Elements(element.clone(), x.clone()))),
        (None, None) => Some((post, Reads::Nothing)),
    }
}

/// The product a work-group computes in [`tile_maps`]' right-hand side, from the matched
/// parts: the fold over each row and column and the epilogue around it, and the types of
/// the blocks (the rule after it matches typed data).
struct BlockProduct {
    op: Expr,
    z: Expr,
    g: Option<Expr>,
    swapped: bool,
    /// The epilogue, `|h| E[h]`, if any.
    post: Option<Expr>,
    /// What the epilogue reads besides the result: its name for it, and the element type of
    /// the bias (an element of `C`'s zipped data) or of the element matrix.
    reads: Option<(String, Type, bool)>,
    /// The element types of `A`'s and `C`'s rows, and the block sizes `tm`, `tn`.
    rows: (Type, Type),
    sizes: (Nat, Nat),
}

impl BlockProduct {
    /// The block product of the product `e` matched as `m`, for blocks of `cfg`.
    fn of(m: &Matched, e: &Expr, cfg: &Blocking) -> Option<BlockProduct> {
        let reads = match (&m.extras, &m.elements) {
            (Some((col, _)), _) => {
                // The bias: the data the inner map runs over holds it, zipped with `C`'s rows.
                let (outer, _) = map_app(e)?;
                let (_, row) = lambda1(outer)?;
                let (_, data) = map_app(row)?;
                Some((col.clone(), elem(&data)?, false))
            }
            (None, Some((element, x))) => {
                Some((element.clone(), x.ty.as_ref()?.base().clone(), true))
            }
            (None, None) => None,
        };
        Some(BlockProduct {
            op: m.op.clone(),
            z: m.z.clone(),
            g: m.g.clone(),
            swapped: m.swapped,
            post: m.post.clone(),
            reads,
            rows: (elem(&m.a)?, elem(&m.c)?),
            sizes: (Nat::cst(cfg.tm), Nat::cst(cfg.tn)),
        })
    }

    /// `transpose $ map(|r| map(|c| F) $ cb) $ ra` for the blocks `ra`, `cb` (and `x` of the
    /// bias or the elements, see the module docs), typed where [`tile_fold`] reads types.
    fn of_blocks(&self, b: &Builder, ra: &Expr, cb: Expr, x: Option<Expr>) -> Expr {
        let s = b.s;
        let (tm, tn) = (self.sizes.0.clone(), self.sizes.1.clone());
        let typed = |mut e: Expr, t: Type| {
            e.ty = Some(t);
            e
        };
        let proj = |v: &Expr, i: usize, t: Type| typed(b.proj(v, i), t);
        // The binders of the rows and the columns: free in no part put under them.
        let mut avoid: Vec<&Expr> = vec![&self.op, &self.z, ra, &cb];
        avoid.extend(self.g.iter().chain(&self.post).chain(&x));
        let r_name = names::unused("lift_r", &avoid);
        let r = ident(&r_name, s);
        avoid.push(&r);
        let c_name = names::unused("lift_c", &avoid);
        let c = ident(&c_name, s);
        let (elem_a, elem_c) = self.rows.clone();
        let ra = typed(ra.clone(), Type::array(elem_a.clone(), tm.clone()));
        let cb = typed(cb, Type::array(elem_c.clone(), tn.clone()));
        let (rows, row, cols, col) = match (&self.reads, x) {
            (Some((_, t, false)), Some(x)) => {
                let x = typed(x, Type::array(t.clone(), tn.clone()));
                let pair = Type::Tuple(vec![elem_c.clone(), t.clone()]);
                let cols = typed(b.zip(cb, x), Type::array(pair, tn.clone()));
                (ra, r.clone(), cols, proj(&c, 0, elem_c))
            }
            (Some((_, t, true)), Some(x)) => {
                let row_x = Type::array(t.clone(), tn.clone());
                let x = typed(x, Type::array(row_x.clone(), tm.clone()));
                let pair = Type::Tuple(vec![elem_a.clone(), row_x.clone()]);
                let rows = typed(b.zip(ra, x), Type::array(pair, tm.clone()));
                let pair = Type::Tuple(vec![elem_c.clone(), t.clone()]);
                let zipped = b.zip(cb, proj(&r, 1, row_x));
                let cols = typed(zipped, Type::array(pair, tn.clone()));
                (rows, proj(&r, 0, elem_a), cols, proj(&c, 0, elem_c))
            }
            _ => (ra, r.clone(), cb, c.clone()),
        };
        let pair = if self.swapped {
            b.zip(col, row)
        } else {
            b.zip(row, col)
        };
        let fold = b.fold(Prim::ReduceSeq, self.op.clone(), build::untyped(&self.z));
        let core = match &self.g {
            Some(g) => b.app(b.o(vec![fold, b.with(Prim::Map, g.clone())]), pair),
            None => b.app(fold, pair),
        };
        // The epilogue reads the bias or element as the second of the column's pair (put in
        // before the fold, whose types the substitution would drop).
        let body = match (&self.post, &self.reads) {
            (Some(post), Some((name, _, _))) => {
                let mut post = post.clone();
                names::subst(&mut post, name, &b.proj(&c, 1));
                call(&post, vec![core], s)
            }
            (Some(post), None) => call(post, vec![core], s),
            (None, _) => core,
        };
        let f32_ = Type::Scalar(ScalarType::F32);
        let over = |name: &str, body: Expr, data: Expr| {
            build::map_over(Pat::Name(name.to_string(), s), body, data, s)
        };
        let inner = over(&c_name, body, cols);
        let product = over(&r_name, inner, rows);
        let product = typed(product, Type::array(Type::array(f32_, tn), tm));
        b.app(b.bare(Prim::Transpose), product)
    }
}
