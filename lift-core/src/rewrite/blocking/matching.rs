//! Matching the left-hand side: a nested map-reduce over the rows of `A` and `C`, in any
//! spelling normalisation brings to it (views of the operands, an operand given transposed,
//! an epilogue around the fold, a bias zipped with the columns, an element of another matrix
//! per result, a batch of products).

use super::super::build::{self, ident, is_ident, lambda1};
use super::super::{epilogue, names};
use crate::ir::{Expr, ExprKind, PrimArg};
use crate::prim::Prim;
use crate::types::{ScalarType, Type};

/// The parts of a matched nested map-reduce.
pub(super) struct Matched {
    pub(super) a: Expr,
    pub(super) c: Expr,
    pub(super) z: Expr,
    /// The fold: `op` after the element function `g`, or one sequential fold function
    /// `|acc, pair| ...` (`reduce_seq(f, z) $ zip(..)`, `g` then `None`).
    pub(super) op: Expr,
    pub(super) g: Option<Expr>,
    /// `zip(c, r)` instead of `zip(r, c)`: `g` sees `(c, a)`.
    pub(super) swapped: bool,
    /// The epilogue applied to each result (`alpha * dot`), if any.
    pub(super) post: Option<Expr>,
    /// The column elements the epilogue reads besides the result (see
    /// [`with_column_extras`]): the name it binds them to and the array of them.
    pub(super) extras: Option<(String, Expr)>,
    /// The matrix of elements the epilogue reads besides the result, element `[i][j]` where
    /// it writes result `[i][j]` (see [`with_element_extras`]): `beta * c[i][j]`; with the
    /// name the epilogue reads that element through.
    pub(super) elements: Option<(String, Expr)>,
    /// For a batch of products, `map(|p| product) $ data`: `p` and `data` (`a` and `c` are
    /// then views of projections of `p`).
    pub(super) batch: Option<(String, Expr)>,
    /// In a batch, the cut `take(N) o map(take(M))` of each padded product
    /// (`super::edges::pad_rows`), kept around it.
    pub(super) cut: Option<Expr>,
}

/// A batch of products, `map(|p| map(|r| map(|c| ..) $ C) $ A) $ data`, where `A` and `C` are
/// views of projections of `p` (the partial products of [`super::partial`]); each product
/// possibly cut, `take(N) o map(take(M)) $ ..` (padded by `super::edges::pad_rows`).
pub(super) fn batched(e: &Expr) -> Option<Matched> {
    let (outer, data) = map_app(e)?;
    let (p, body) = lambda1(outer)?;
    if !build::is_data(&data) {
        return None;
    }
    let (cut, body) = match &body.kind {
        ExprKind::Apply(f, xs) if xs.len() == 1 && is_cut(f) => (Some(build::untyped(f)), &xs[0]),
        _ => (None, body),
    };
    let m = matched(body, Some((p.to_string(), data)))?;
    Some(Matched { cut, ..m })
}

/// Is `f` `take(N) o map(take(M))`?
fn is_cut(f: &Expr) -> bool {
    let ExprKind::Compose(fs) = &f.kind else {
        return false;
    };
    let take = |g: &Expr| matches!(g.as_prim(), Some((Prim::Take, _)));
    matches!(fs.as_slice(), [t, m] if take(t) && m.prim_fun(Prim::Map).is_some_and(take))
}

/// `(pad, x)` for data `pad(0, p, clamp) $ x` (rows padded by `super::edges::pad_rows`), else
/// `(None, e)`.
fn peel_pad(e: &Expr) -> (Option<Expr>, &Expr) {
    match &e.kind {
        ExprKind::Apply(f, xs) if xs.len() == 1 && matches!(f.as_prim(), Some((Prim::Pad, _))) => {
            (Some(build::untyped(f)), &xs[0])
        }
        _ => (None, e),
    }
}

/// `pad $ x`, typed as `padded` (an array of the padded length) with `x`'s elements, if `pad`.
fn repad(pad: &Option<Expr>, x: Expr, padded: &Expr) -> Option<Expr> {
    let Some(pad) = pad else { return Some(x) };
    let ty = Type::array(
        x.ty.as_ref()?.as_array()?.0.clone(),
        padded.ty.as_ref()?.as_array()?.1.clone(),
    );
    let mut e = build::apply1(pad.clone(), x, pad.span);
    e.ty = Some(ty);
    Some(e)
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
pub(super) fn matched(e: &Expr, batch: Option<(String, Expr)>) -> Option<Matched> {
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
        cut: None,
    })
}

/// The name the matched fold reads each column through, in [`with_column_extras`].
const COLUMN: &str = "lift_column";

/// `map(|r| map(|col| E[fold(zip(r, L $ col.i))]) $ zip(Y0, .., Yn)) $ A` (a layout chain `L`,
/// possibly empty): the product of `A` with `C = map(L) $ Yi`, whose epilogue `E` reads the
/// rest of each column element (`col.j`, a convolution's bias zipped with its filters): the
/// blocked product binds `col` to `zip(..) [j]` where it writes column `j`.
fn with_column_extras(a: Expr, padded: &Expr, r: &str, col: &str, body: &Expr) -> Option<Matched> {
    let (pad, data) = peel_pad(padded);
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
    let c = repad(&pad, through(&access, component, data)?, padded)?;
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
        .then(|| (col.to_string(), build::untyped(padded)));
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
        cut: None,
    })
}

/// `map(L1) $ .. $ map(Ln) $ x` for an access `L1 $ .. $ Ln $ v` of each element `v` of `x`
/// (`x` for `v` or `v.i`), typed as an array of `data`'s length, if it is a view.
fn through(access: &Expr, x: Expr, data: &Expr) -> Option<Expr> {
    fn go(access: &Expr, x: Expr) -> Expr {
        match &access.kind {
            ExprKind::Apply(l, ys) if build::is_layout(l) && ys.len() == 1 => build::apply1(
                build::with_fun(Prim::Map, &build::untyped(l), access.span),
                go(&ys[0], x),
                access.span,
            ),
            _ => x,
        }
    }
    let (_, len) = data.ty.as_ref()?.as_array()?;
    let mut v = go(access, x);
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
fn with_element_extras(pd: &Expr, pz: &Expr, r: &str, col: &str, body: &Expr) -> Option<Matched> {
    let ((pad_d, d), (pad_z, z)) = (peel_pad(pd), peel_pad(pz));
    if !is_zip(d) || !is_zip(z) || pad_d.is_some() != pad_z.is_some() {
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
    // Padded rows of `A` and `C`: the element matrix padded along both, as they are (typed,
    // as the tiling's block of it is).
    let padded_ty = Type::array(
        Type::array(
            elements.ty.as_ref()?.base().clone(),
            pz.ty.as_ref()?.as_array()?.1.clone(),
        ),
        pd.ty.as_ref()?.as_array()?.1.clone(),
    );
    let elements = match (&pad_d, &pad_z) {
        (Some(pd), Some(pz)) => {
            let t = |x| {
                build::apply1(
                    build::prim(Prim::Transpose, Vec::new(), pd.span),
                    x,
                    pd.span,
                )
            };
            let mut padded = build::apply1(
                pd.clone(),
                t(build::apply1(pz.clone(), t(elements), pz.span)),
                pd.span,
            );
            padded.ty = Some(padded_ty);
            padded
        }
        _ => elements,
    };
    let split = epilogue::split(body, &epilogue::has_reduce, &|d| fold_parts(d).is_some())?;
    let Fold { pair, .. } = fold_parts(&split.core)?;
    let (c_access, ci) = pair.iter().find_map(|x| column_access(x, col))?;
    let (a_access, ai) = pair.iter().find_map(|x| column_access(x, r))?;
    let (ci, ai) = (ci?, ai?);
    if ci == m {
        return None;
    }
    let a = repad(&pad_d, through(&a_access, ds.get(ai)?.clone(), d)?, pd)?;
    let c = repad(&pad_z, through(&c_access, zs.get(ci)?.clone(), z)?, pz)?;
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
        cut: None,
    })
}

/// `L $ col.i`, `col.i`, `L $ col` or `col` (a layout chain `L`), each possibly zero-padded
/// (`pad $ L $ col.i`, by `super::edges::pad_shared`): the expression and `i`.
fn column_access(x: &Expr, col: &str) -> Option<(Expr, Option<usize>)> {
    fn peel(e: &Expr) -> Option<&Expr> {
        match &e.kind {
            ExprKind::Apply(l, xs) if build::is_layout(l) && xs.len() == 1 => Some(&xs[0]),
            _ => None,
        }
    }
    let padded = matches!(&x.kind, ExprKind::Apply(l, xs) if xs.len() == 1 && matches!(l.as_prim(), Some((Prim::Pad, _))));
    let inner = match peel(x) {
        Some(y) if padded => peel(y).unwrap_or(y),
        Some(y) => y,
        None => x,
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

/// Is `e` `zip(..)` applied to data?
fn is_zip(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Apply(z, _) if matches!(&z.kind, ExprKind::Prim(Prim::Zip, a) if a.is_empty()))
}
