//! 2-D blocking of a nested map-reduce (the macro rule behind LIFT's tiled matrix products,
//! Steuwer et al. CASES'16, and the thesis' `ab_tile` + `tile_nested_map_reduce` +
//! `privatise_accumulator` + `materialise` sequence, fused into one step):
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
//! or `A'`, `C'` = `A`, `C` padded with `clamp` up to multiples of `tm`, `tn`
//! (the result then cut with `take`: the padded rows compute values nobody keeps). The shared
//! dimension is padded with zeros (`pad_k`) only where a pair of zeros adds nothing to the
//! fold; otherwise its length must be a multiple of `tk` (a launch-time condition from
//! `split`).
//!
//! An epilogue around the fold (`alpha * reduce(..) $ ..`, see `epilogue`) is applied
//! where the private blocks are written out.
//!
//! The right-hand side is written once below as a pattern over the metavariables of the rule
//! (`__A`, `__C`, `__z`, the element computation `__step` over the accumulator `e`, the
//! `A`-element `a` and the `C`-element `bv`) and the configuration's sizes; [`block_map_reduce`]
//! matches the left-hand side on any spelling that normalisation brings to it (any views for
//! `A` and `C`, an operand given transposed included) and instantiates the pattern.

mod derive;
#[cfg(test)]
mod tests;

use super::build::{self, call, ident, is_ident, lambda1, prim};
use super::dsl::Builder;
use super::names;
use super::{epilogue, RewriteCtx, Rule};
use crate::arith::Nat;
use crate::ir::{Expr, ExprKind, PrimArg};
use crate::prim::Prim;
use crate::typeck::{Cond, Precondition};
use crate::types::{ScalarType, Type};
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

    /// The configuration as named tuning parameters.
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

impl Edge {
    /// The edge handling of a blocked candidate with these tuning parameters (see
    /// [`Blocking::params`]), if they are a blocking's.
    pub fn of_params(params: &[(String, i64)]) -> Option<Edge> {
        match params.iter().find(|(n, _)| n == "pad")?.1 {
            0 => Some(Edge::Exact),
            1 | 2 => Some(Edge::Pad),
            3 | 4 => Some(Edge::Cover),
            _ => None,
        }
    }
}

/// The parts of a matched nested map-reduce.
struct Matched {
    a: Expr,
    c: Expr,
    z: Expr,
    /// The fold: `op` after the element function `g`, or one sequential fold function
    /// `|acc, pair| ...` (`reduce_seq(f, z) $ zip(..)`, `g` then `None`).
    op: Expr,
    g: Option<Expr>,
    /// `zip(c, r)` instead of `zip(r, c)`: `g` sees `(c, a)`.
    swapped: bool,
    /// The epilogue applied to each result (`alpha * dot`), if any.
    post: Option<Expr>,
    /// The column elements the epilogue reads besides the result (see
    /// [`with_column_extras`]): the name it binds them to and the array of them.
    extras: Option<(String, Expr)>,
    /// The matrix of elements the epilogue reads besides the result, element `[i][j]` where
    /// it writes result `[i][j]` (see [`with_element_extras`]): `beta * c[i][j]`; with the
    /// name the epilogue reads that element through.
    elements: Option<(String, Expr)>,
    /// For a batch of products, `map(|p| product) $ data`: `p` and `data` (`a` and `c` are
    /// then views of projections of `p`).
    batch: Option<(String, Expr)>,
}

/// The blocking rule for configuration `cfg` (see the module docs). Matches an f32 nested
/// map-reduce whose operands are data the body can read without computing (parameters and
/// views of them); `N`/`M` of the result must be multiples of `tm`/`tn` unless `cfg.pad`.
pub fn block_map_reduce(cfg: Blocking) -> Rule {
    Rule::new(
        "block_map_reduce",
        "map(|r| map(|c| reduce(op, z) o map(g) $ zip(r, c)) $ C) $ A ⇒ (work-group blocks, \
         local staging, private accumulators; see rewrite::blocking)   if f32, tm, tn, tk consistent",
        move |e, ctx| {
            let m = matched(e, None).or_else(|| batched(e))?;
            let rhs = instantiate(&m, &cfg, e.span, ctx)?;
            let Some((p, data)) = m.batch else {
                return Some(rhs);
            };
            // map_wrg(2, |p| rhs) $ data: one product per group index in dimension 2.
            let s = e.span;
            let lam = Expr::new(
                ExprKind::Lambda(vec![crate::ir::Pat::Name(p, s)], Box::new(rhs)),
                s,
            );
            let args = vec![PrimArg::Nat(Nat::cst(2), s), PrimArg::Fun(lam)];
            let f = prim(Prim::MapWrg, args, s);
            Some(Expr::new(ExprKind::Apply(Box::new(f), vec![build::untyped(&data)]), s))
        },
    )
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
/// result's place (see [`with_element_extras`]).
pub fn reads_elements(e: &Expr) -> bool {
    matched(e, None).is_some_and(|m| m.elements.is_some())
}

/// A batch of products, `map(|p| map(|r| map(|c| ..) $ C) $ A) $ data`, where `A` and `C` are
/// views of projections of `p` (the partial products of [`super::partial`]).
fn batched(e: &Expr) -> Option<Matched> {
    let (outer, data) = map_app(e)?;
    let (p, body) = lambda1(outer)?;
    if !build::is_data(&data) {
        return None;
    }
    matched(body, Some((p.to_string(), data)))
}

/// Is `e` a view of projections of the batch element `p` (`layout $ p.0`)?
fn is_batch_view(e: &Expr, p: &str) -> bool {
    match &e.kind {
        ExprKind::Proj(x, _) => is_ident(x, p),
        ExprKind::Apply(f, xs) if !xs.is_empty() => {
            build::is_layout(f) && xs.iter().all(|x| is_batch_view(x, p))
        }
        _ => false,
    }
}

/// `(λ, x)` for `map(λ) $ x`, or for `(map(λ) o layout...) $ y` with `x = layout... $ y`
/// (typed: the checker leaves each function of a chain its result type).
pub(crate) fn map_app(e: &Expr) -> Option<(&Expr, Expr)> {
    let ExprKind::Apply(f, xs) = &e.kind else {
        return None;
    };
    let [x] = xs.as_slice() else { return None };
    if let Some(l) = f.prim_fun(Prim::Map) {
        return Some((l, x.clone()));
    }
    let ExprKind::Compose(fs) = &f.kind else {
        return None;
    };
    let (first, rest) = fs.split_first()?;
    let l = first.prim_fun(Prim::Map)?;
    if !rest.iter().all(build::is_layout) {
        return None;
    }
    let g = build::compose(rest.to_vec(), f.span);
    let mut data = Expr::new(ExprKind::Apply(Box::new(g), vec![x.clone()]), e.span);
    data.ty = rest.first()?.ty.clone();
    Some((l, data))
}

/// Matches the left-hand side (in a batch of products if `batch` is given).
fn matched(e: &Expr, batch: Option<(String, Expr)>) -> Option<Matched> {
    let f32_matrix = |t: &Option<Type>| {
        t.as_ref()
            .is_some_and(|t| t.dims().len() == 2 && t.base() == &Type::Scalar(ScalarType::F32))
    };
    if !f32_matrix(&e.ty) {
        return None;
    }
    let (outer, a) = map_app(e)?;
    let (r, row) = lambda1(outer)?;
    let (inner, c) = map_app(row)?;
    let (col, body) = lambda1(inner)?;
    let view =
        |x: &Expr| build::is_view(x) || batch.as_ref().is_some_and(|(p, _)| is_batch_view(x, p));
    if build::mentions(&c, r) {
        return match batch {
            None => with_element_extras(&a, &c, r, col, body),
            Some(_) => None,
        };
    }
    if !view(&a) {
        return None;
    }
    if !view(&c) {
        return if batch.is_none() {
            with_column_extras(a, &c, r, col, body)
        } else {
            None
        };
    }
    let touches = |e: &Expr| epilogue::mentions_any(e, &[r, col]);
    let split = epilogue::split(body, &touches, &|d| fold_of(d, r, col).is_some())?;
    let (op, z, g, swapped) = fold_of(&split.core, r, col)?;
    Some(Matched {
        a,
        c,
        z,
        op,
        g,
        swapped,
        post: split.post,
        extras: None,
        elements: None,
        batch,
    })
}

/// The name the matched fold reads each column through, in [`with_column_extras`].
const COLUMN: &str = "lift_column";

/// `map(|r| map(|col| E[fold(zip(r, L $ col.i))]) $ zip(Y0, .., Yn)) $ A` (a layout chain `L`,
/// possibly empty): the product of `A` with `C = map(L) $ Yi`, whose epilogue `E` reads the
/// rest of each column element (`col.j`, a convolution's bias zipped with its filters): the
/// blocked product binds `col` to `zip(..) [j]` where it writes column `j`.
fn with_column_extras(a: Expr, data: &Expr, r: &str, col: &str, body: &Expr) -> Option<Matched> {
    if !build::is_data(data) {
        return None;
    }
    let split = epilogue::split(body, &epilogue::has_reduce, &|d| fold_parts(d).is_some())?;
    let Fold { pair, .. } = fold_parts(&split.core)?;
    let (access, i) = pair.iter().find_map(|x| column_access(x, col))?;
    let component = match (i, &data.kind) {
        (None, _) => data.clone(),
        (Some(i), ExprKind::Apply(_, ys)) if is_zip(data) => ys.get(i)?.clone(),
        _ => return None,
    };
    let c = through(&access, component, data)?;
    let mut core = build::untyped(&split.core);
    let column = names::unused(COLUMN, &[&core]);
    build::replace_same(&mut core, &access, &ident(&column, access.span));
    let (op, z, g, swapped) = fold_of(&core, r, &column)?;
    let post = split.post;
    if post.as_ref().is_some_and(|p| build::mentions(p, r)) || build::mentions(&core, col) {
        return None;
    }
    let extras = post
        .as_ref()
        .is_some_and(|p| build::mentions(p, col))
        .then(|| (col.to_string(), build::untyped(data)));
    Some(Matched {
        a,
        c,
        z,
        op,
        g,
        swapped,
        post,
        extras,
        elements: None,
        batch: None,
    })
}

/// `map(L) $ x` for an access `L $ v` of each element `v` of `x` (`x` for `v` or `v.i`),
/// typed as an array of `data`'s length, if it is a view.
fn through(access: &Expr, x: Expr, data: &Expr) -> Option<Expr> {
    let (_, len) = data.ty.as_ref()?.as_array()?;
    let mut v = match &access.kind {
        ExprKind::Apply(l, _) => build::apply1(
            build::with_fun(Prim::Map, &build::untyped(l), access.span),
            x,
            access.span,
        ),
        _ => x,
    };
    v.ty = Some(Type::array(access.ty.clone()?, len.clone()));
    build::is_view(&v).then_some(v)
}

/// The name the matched fold reads each row through, in [`with_element_extras`].
const ROW: &str = "lift_row";

/// The name the epilogue reads its element through, in [`with_element_extras`].
const ELEMENT: &str = "lift_ex";

/// `map(|r| map(|col| E[fold(zip(L $ r.i, L' $ col.k))]) $ zip(.., r.j, ..)) $ zip(A0, .., An)`:
/// the product of `map(L) $ Ai` with `map(L') $ Yk` (`Yk` the `k`-th zipped columns), whose
/// epilogue `E` reads, as `col.m`, the element of row `r.j` paired with the column: element
/// `[i][col]` of the matrix `Aj` (BLAS's `beta * c[i][j]`, a residual added to a product).
/// The blocked product reads `Aj[i][j]` where it writes result `[i][j]`.
fn with_element_extras(d: &Expr, z: &Expr, r: &str, col: &str, body: &Expr) -> Option<Matched> {
    if !is_zip(d) || !is_zip(z) {
        return None;
    }
    let (ExprKind::Apply(_, ds), ExprKind::Apply(_, zs)) = (&d.kind, &z.kind) else {
        return None;
    };
    if !ds.iter().all(build::is_view) {
        return None;
    }
    // The one zipped component that reads the row: `r.j`, the row of a matrix.
    let mut reads_row = zs.iter().enumerate().filter(|(_, y)| build::mentions(y, r));
    let (m, j) = match (reads_row.next(), reads_row.next()) {
        (Some((m, y)), None) => match &y.kind {
            ExprKind::Proj(x, j) if is_ident(x, r) => (m, *j),
            _ => return None,
        },
        _ => return None,
    };
    let elements = ds.get(j)?.clone();
    let (n, mm) = (d.ty.as_ref()?.as_array()?.1, z.ty.as_ref()?.as_array()?.1);
    if elements.ty.as_ref()?.dims() != [n.clone(), mm.clone()] {
        return None;
    }
    let split = epilogue::split(body, &epilogue::has_reduce, &|d| fold_parts(d).is_some())?;
    let Fold { pair, .. } = fold_parts(&split.core)?;
    let (c_access, ci) = pair.iter().find_map(|x| column_access(x, col))?;
    let (a_access, ai) = pair.iter().find_map(|x| column_access(x, r))?;
    let (ci, ai) = (ci?, ai?);
    if ci == m {
        return None;
    }
    let a = through(&a_access, ds.get(ai)?.clone(), d)?;
    let c = through(&c_access, zs.get(ci)?.clone(), z)?;
    let mut core = build::untyped(&split.core);
    // Placeholders named after nothing in the body.
    let column = names::unused(COLUMN, &[body]);
    let row = names::unused(ROW, &[body, &ident(&column, body.span)]);
    build::replace_same(&mut core, &c_access, &ident(&column, c_access.span));
    build::replace_same(&mut core, &a_access, &ident(&row, a_access.span));
    let (op, zero, g, swapped) = fold_of(&core, &row, &column)?;
    let mut post = split.post?;
    let element = Expr::new(
        ExprKind::Proj(Box::new(ident(col, body.span)), m),
        body.span,
    );
    let element_name = names::unused(ELEMENT, &[body]);
    build::replace_same(&mut post, &element, &ident(&element_name, body.span));
    if [r, col, &element_name]
        .iter()
        .any(|v| build::mentions(&core, v))
        || [r, col].iter().any(|v| build::mentions(&post, v))
    {
        return None;
    }
    Some(Matched {
        a,
        c,
        z: zero,
        op,
        g,
        swapped,
        post: Some(post),
        extras: None,
        elements: Some((element_name, elements)),
        batch: None,
    })
}

/// `L $ col.i`, `col.i`, `L $ col` or `col` (a layout chain `L`): the expression and `i`.
fn column_access(x: &Expr, col: &str) -> Option<(Expr, Option<usize>)> {
    let inner = match &x.kind {
        ExprKind::Apply(l, xs) if build::is_layout(l) && xs.len() == 1 => &xs[0],
        _ => x,
    };
    match &inner.kind {
        ExprKind::Ident(_) if is_ident(inner, col) => Some((x.clone(), None)),
        ExprKind::Proj(y, i) if is_ident(y, col) => Some((x.clone(), Some(*i))),
        _ => None,
    }
}

/// A fold over the pairs of two arrays: `reduce(op, z) o map(g) $ zip(x, y)`,
/// `reduce(op, z) $ map(g) $ zip(x, y)`, or one sequential fold over the pairs,
/// `reduce_seq(|acc, p| .., z) $ zip(x, y)` (`g` then `None`).
pub(crate) struct Fold {
    /// The operator (after `g`), or the sequential fold function.
    pub op: Expr,
    /// The initial value.
    pub z: Expr,
    /// The function of each pair, if any.
    pub g: Option<Expr>,
    /// The two zipped arrays `x`, `y`.
    pub pair: [Expr; 2],
}

/// The parts of `dot` if it is a fold over the pairs of two arrays (see [`Fold`]).
pub(crate) fn fold_parts(dot: &Expr) -> Option<Fold> {
    let ExprKind::Apply(f, xs) = &dot.kind else {
        return None;
    };
    let [x] = xs.as_slice() else { return None };
    let (red, g, zipped) = match &f.kind {
        ExprKind::Compose(fs) if fs.len() == 2 => (&fs[0], Some(fs[1].prim_fun(Prim::Map)?), x),
        ExprKind::Prim(Prim::ReduceSeq, _) if is_zip(x) => (&**f, None, x),
        _ => {
            let ExprKind::Apply(m, ys) = &x.kind else {
                return None;
            };
            let [y] = ys.as_slice() else { return None };
            (&**f, Some(m.prim_fun(Prim::Map)?), y)
        }
    };
    let (p, args) = red.as_prim()?;
    if !matches!(p, Prim::Reduce | Prim::ReduceSeq) || (g.is_none() && p != Prim::ReduceSeq) {
        return None;
    }
    let op = args.iter().find_map(PrimArg::as_fun)?.clone();
    let z = args.iter().find_map(PrimArg::as_value)?.clone();
    let ExprKind::Apply(zf, zs) = &zipped.kind else {
        return None;
    };
    if !matches!(&zf.kind, ExprKind::Prim(Prim::Zip, a) if a.is_empty()) {
        return None;
    }
    let [x, y] = zs.as_slice() else { return None };
    Some(Fold {
        op,
        z,
        g: g.cloned(),
        pair: [x.clone(), y.clone()],
    })
}

/// `(op, z, g, swapped)` of the fold over the pairs of row `r` and column `col`
/// (see [`fold_parts`]).
fn fold_of(dot: &Expr, r: &str, col: &str) -> Option<(Expr, Expr, Option<Expr>, bool)> {
    let Fold { op, z, g, pair } = fold_parts(dot)?;
    let swapped = match &pair {
        [x, y] if is_ident(x, r) && is_ident(y, col) => false,
        [x, y] if is_ident(x, col) && is_ident(y, r) => true,
        _ => return None,
    };
    let free = |e: &Expr| !build::mentions(e, r) && !build::mentions(e, col);
    (free(&op) && free(&z) && g.as_ref().is_none_or(free)).then_some((op, z, g, swapped))
}

/// Whether the rows of the matrix view `e` (its inner dimension) are contiguous in memory:
/// a parameter's rows are, `transpose` swaps, row-wise and outer pads and takes keep
/// it; `None` for views this does not follow. In a batch (`p`, `data`), `p.i` is an element of
/// the `i`-th array zipped in `data`.
fn rows_contiguous(e: &Expr, batch: Option<&(String, Expr)>) -> Option<bool> {
    match &e.kind {
        ExprKind::Ident(_) => Some(true),
        ExprKind::Point(_, _, inner) => rows_contiguous(inner, batch),
        ExprKind::Proj(x, i) => {
            let (p, data) = batch?;
            if !is_ident(x, p) {
                return None;
            }
            let ExprKind::Apply(_, xs) = &data.kind else {
                return None;
            };
            slices_rows_contiguous(xs.get(*i)?)
        }
        ExprKind::Apply(f, xs) => {
            let [x] = xs.as_slice() else { return None };
            let fs = match &f.kind {
                ExprKind::Compose(fs) => fs.as_slice(),
                _ => std::slice::from_ref(&**f),
            };
            fs.iter()
                .rev()
                .try_fold(rows_contiguous(x, batch)?, |c, g| {
                    match g.as_prim().map(|(p, _)| p) {
                        Some(Prim::Transpose) => Some(!c),
                        Some(Prim::Pad | Prim::Take | Prim::Id) => Some(c),
                        _ if maps_rows_with(g, &[Prim::Pad, Prim::Take, Prim::Join]) => Some(c),
                        _ => None,
                    }
                })
        }
        _ => None,
    }
}

/// Is `g` `map(f)` with `f` one of `prims` or a composition of them (a function of each row
/// that keeps a row contiguous in memory contiguous)?
fn maps_rows_with(g: &Expr, prims: &[Prim]) -> bool {
    g.prim_fun(Prim::Map).is_some_and(|f| {
        let fs = match &f.kind {
            ExprKind::Compose(fs) => build::flatten(fs),
            _ => vec![f.clone()],
        };
        fs.iter()
            .all(|f| f.as_prim().is_some_and(|(p, _)| prims.contains(&p)))
    })
}

/// For the slices of the shared dimension, `transpose o map(split(k) o pad(..)) o L $ x`
/// (each element the `k`-slice of every row of `L $ x`, see [`super::partial`]): whether
/// their rows are contiguous, as those of `L $ x` are.
fn slices_rows_contiguous(e: &Expr) -> Option<bool> {
    let ExprKind::Apply(f, xs) = &e.kind else {
        return None;
    };
    let ([x], ExprKind::Compose(fs)) = (xs.as_slice(), &f.kind) else {
        return None;
    };
    let fs = build::flatten(fs);
    let (t, rest) = fs.split_first()?;
    if !matches!(t.as_prim(), Some((Prim::Transpose, _))) {
        return None;
    }
    let skip = rest
        .iter()
        .take_while(|g| maps_rows_with(g, &[Prim::Split, Prim::Pad]))
        .count();
    if skip == 0 {
        return None;
    }
    let rest = &rest[skip..];
    if rest.is_empty() {
        return rows_contiguous(x, None);
    }
    let inner = Expr::new(
        ExprKind::Apply(
            Box::new(build::compose(rest.to_vec(), e.span)),
            vec![x.clone()],
        ),
        e.span,
    );
    rows_contiguous(&inner, None)
}

/// Is `e` `zip(..)` applied to data?
fn is_zip(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Apply(z, _) if matches!(&z.kind, ExprKind::Prim(Prim::Zip, a) if a.is_empty()))
}

/// `x` padded up to a multiple of `t` along its outer dimension, if `pad`.
fn pad_if(pad: bool, x: Expr, len: &Nat, t: i64, s: Span) -> Expr {
    if pad {
        build::pad_to_multiple(x, len, t, s)
    } else {
        x
    }
}

/// `map(pad(0, extra, constant(0.0))) $ x`, the rows of `x` (length `k`) zero-padded up to a
/// multiple of `tk`, if `cfg.pad_k`.
fn pad_k_if(cfg: &Blocking, x: Expr, k: &Nat, s: Span) -> Expr {
    if !cfg.pad_k {
        return x;
    }
    let t = Nat::cst(cfg.tk);
    let extra = (k + &(&t - &Nat::cst(1))) / &t * &t - k;
    let rows = build::with_fun(Prim::Map, &build::zero_pad(&extra, s), s);
    build::apply1(rows, x, s)
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

/// Instantiates the right-hand side for `m` and `cfg`: the side conditions, the operands
/// padded as the edge asks, then [`derive::tile`] builds the blocked product as data.
fn instantiate(m: &Matched, cfg: &Blocking, s: Span, ctx: &RewriteCtx) -> Option<Expr> {
    if !cfg.is_consistent() {
        return None;
    }
    let (n, mm, kk) = match (m.a.ty.as_ref()?.as_array(), m.c.ty.as_ref()?.as_array()) {
        (Some((row, n)), Some((_, mm))) => (n.clone(), mm.clone(), row.as_array()?.1.clone()),
        _ => return None,
    };
    if cfg.pad_k
        && (cfg.edge == Edge::Exact
            || !zero_pairs_add_nothing(&m.op, m.g.as_ref(), s)
            || ctx.facts.divisible(&kk, &Nat::cst(cfg.tk)) == Some(true))
    {
        return None;
    }
    let fits = match cfg.edge {
        Edge::Exact => {
            ctx.facts.divisible(&n, &Nat::cst(cfg.tm)) != Some(false)
                && ctx.facts.divisible(&mm, &Nat::cst(cfg.tn)) != Some(false)
        }
        Edge::Pad => true,
        Edge::Cover => {
            ctx.facts.le(&Nat::cst(cfg.tm), &n) != Some(false)
                && ctx.facts.le(&Nat::cst(cfg.tn), &mm) != Some(false)
        }
    };
    if !fits {
        return None;
    }
    // Every binder the derivation makes is fresh for the kernel and for the matched parts.
    let avoid: Vec<&Expr> = [&m.a, &m.c, &m.z, &m.op]
        .into_iter()
        .chain(m.g.as_ref())
        .chain(m.post.as_ref())
        .chain(m.extras.as_ref().map(|(_, x)| x))
        .chain(m.elements.as_ref().map(|(_, x)| x))
        .collect();
    let b = Builder::new(ctx, avoid, s);
    let padded = cfg.edge == Edge::Pad;
    let (op, g, swapped) = (m.op.clone(), m.g.clone(), m.swapped);
    let step = move |e: Expr, a: Expr, c: Expr| {
        let pair = Expr::new(
            ExprKind::Tuple(if swapped { vec![c, a] } else { vec![a, c] }),
            s,
        );
        match &g {
            Some(g) => call(&op, vec![e, call(g, vec![pair], s)], s),
            None => call(&op, vec![e, pair], s),
        }
    };
    let reads = match (&m.extras, &m.elements) {
        (Some((col, x)), _) => {
            derive::Reads::Columns(col.clone(), pad_if(padded, x.clone(), &mm, cfg.tn, s))
        }
        (None, Some((element, x))) => {
            // Padded along both dimensions, as `A`'s rows and `C`'s.
            let t = |x| build::apply1(prim(Prim::Transpose, Vec::new(), s), x, s);
            let x = match padded {
                true => build::pad_to_multiple(
                    t(build::pad_to_multiple(t(x.clone()), &mm, cfg.tn, s)),
                    &n,
                    cfg.tm,
                    s,
                ),
                false => x.clone(),
            };
            derive::Reads::Elements(element.clone(), x)
        }
        (None, None) => derive::Reads::Nothing,
    };
    // Local layouts are fixed by the compute (`A`'s slice `tm x tk`, `C`'s `tk x tn`); the
    // lanes of each copy run along the dimension that is contiguous in memory.
    let parts = derive::Parts {
        a: pad_if(padded, pad_k_if(cfg, m.a.clone(), &kk, s), &n, cfg.tm, s),
        c: pad_if(padded, pad_k_if(cfg, m.c.clone(), &kk, s), &mm, cfg.tn, s),
        z: build::untyped(&m.z),
        step: Box::new(step),
        post: m.post.clone().unwrap_or_else(|| b.bare(Prim::Id)),
        reads,
        a_along_k: rows_contiguous(&m.a, m.batch.as_ref()).unwrap_or(true) || cfg.tm % cfg.l0 != 0,
        c_along_k: rows_contiguous(&m.c, m.batch.as_ref()).unwrap_or(false) && cfg.tn % cfg.l1 == 0,
    };
    let rhs = derive::tile(&b, cfg, (&n, &mm), &parts);
    if !padded {
        return Some(rhs);
    }
    // take(N) o map(take(M)) $ rhs
    let take = |len: &Nat| prim(Prim::Take, vec![PrimArg::Nat(len.clone(), s)], s);
    let cut = build::compose(vec![take(&n), build::with_fun(Prim::Map, &take(&mm), s)], s);
    Some(Expr::new(ExprKind::Apply(Box::new(cut), vec![rhs]), s))
}
