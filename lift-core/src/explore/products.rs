//! Matrix products in disguise. A nest of maps over rows that a layout computes, whose
//! innermost function maps over the rows of another view (each again through a layout) and
//! folds each pair, is the product of two matrices that are views: a convolution over
//! `slide2` windows is one (the windows flattened are the rows of `A`, the filters flattened
//! the rows of `C`: im2col without materialising anything). [`as_product`] spells it as one
//! product, so that the blocked strategy ([`crate::rewrite::blocking`]) matches it:
//!
//! ```text
//! map^d((|r| map((|c| D) o Lc) $ Y) o La) $ X
//!   ⇒ split(n1) o .. o split(n_{d-1}) $ (map(|r| map(|c| D) $ (map(Lc) $ Y)) $ (map(La) o join^{d-1} $ X))
//! ```
//!
//! for `X` of type `[[..[T; n_{d-1}]..; n1]; n0]` and layout chains `La`, `Lc` (either may be
//! empty, not both when `d = 1`). Both sides are map fission over a layout (`map(f o L) =
//! map(f) o map(L)`) and the flattening of a map nest (`map(map(f)) = split(n1) o map(f) o
//! join`), so the result is the same.

use crate::ir::{Expr, ExprKind, Program};
use crate::prim::Prim;
use crate::rewrite::blocking::map_app;
use crate::rewrite::build::{self, compose, lambda1, prim, with_fun};
use crate::typeck::check_program;

/// A body spelled as a matrix product: the product (typed) and the splits that give the
/// body's shape back (outermost first).
pub struct Product {
    /// `map(|r| map(|c| D) $ C) $ A`, typed.
    pub product: Expr,
    splits: Vec<Expr>,
}

impl Product {
    /// `e` (a rewrite of [`Product::product`]) in the shape of the original body.
    pub fn wrap(&self, e: Expr) -> Expr {
        if self.splits.is_empty() {
            return e;
        }
        let s = e.span;
        let f = compose(self.splits.clone(), s);
        Expr::new(ExprKind::Apply(Box::new(f), vec![e]), s)
    }
}

/// Kernel `kernel`'s body as a matrix product (see the module docs), type-checked in `prog`;
/// `None` when it is no such nest or is a plain product already.
pub fn as_product(prog: &Program, kernel: &str) -> Option<Product> {
    let body = &prog.kernel(kernel)?.body;
    let (outer, data) = map_app(body)?;
    let mut depth = 1;
    let mut f = outer;
    while let Some(g) = f.prim_fun(Prim::Map) {
        depth += 1;
        f = g;
    }
    let (row, row_layout) = lambda_then_layout(f)?;
    let (r, b) = lambda1(&row)?;
    let (inner, y) = map_app(b)?;
    let (col, col_layout) = lambda_then_layout(inner)?;
    if (depth == 1 && row_layout.is_empty() && col_layout.is_empty())
        || !build::is_data(&y)
        || build::mentions(&y, r)
    {
        return None;
    }
    let dims = data.ty.as_ref()?.dims();
    if dims.len() < depth {
        return None;
    }
    let s = body.span;
    let apply = |f: Expr, x: Expr| Expr::new(ExprKind::Apply(Box::new(f), vec![x]), s);
    let mut a = build::untyped(&data);
    for _ in 1..depth {
        a = apply(prim(Prim::Join, Vec::new(), s), a);
    }
    if !row_layout.is_empty() {
        a = apply(with_fun(Prim::Map, &compose(row_layout, s), s), a);
    }
    let mut c = build::untyped(&y);
    if !col_layout.is_empty() {
        c = apply(with_fun(Prim::Map, &compose(col_layout, s), s), c);
    }
    let inner = apply(with_fun(Prim::Map, &build::untyped(&col), s), c);
    let row = Expr::new(
        ExprKind::Lambda(
            vec![crate::ir::Pat::Name(r.to_string(), s)],
            Box::new(inner),
        ),
        s,
    );
    let product = apply(with_fun(Prim::Map, &row, s), a);
    let splits: Vec<Expr> = dims[1..depth]
        .iter()
        .map(|n| prim(Prim::Split, vec![build::nat(n, s)], s))
        .collect();
    let shaped = Product { product, splits };
    let mut p = prog.clone();
    p.kernels.iter_mut().find(|k| k.name == kernel)?.body = shaped.wrap(shaped.product.clone());
    check_program(&mut p).ok()?;
    let body = &p.kernel(kernel)?.body;
    let product = match &body.kind {
        ExprKind::Apply(_, xs) if !shaped.splits.is_empty() => xs.first()?.clone(),
        _ => body.clone(),
    };
    Some(Product {
        product,
        splits: shaped.splits,
    })
}

/// `|x| B` alone, or `(|x| B) o L1 o .. o Lk` with layouts `Li`: the lambda and the layouts.
/// A lambda that reads its parameter only through one layout chain, `|x| B[L $ x]`, is
/// `(|x| B[x]) o L`.
fn lambda_then_layout(f: &Expr) -> Option<(Expr, Vec<Expr>)> {
    match &f.kind {
        ExprKind::Lambda(..) => Some(through_layout(f).unwrap_or_else(|| (f.clone(), Vec::new()))),
        ExprKind::Compose(fs) => {
            let (first, rest) = fs.split_first()?;
            let rest = build::flatten(rest);
            (matches!(first.kind, ExprKind::Lambda(..)) && rest.iter().all(build::is_layout))
                .then(|| (first.clone(), rest.iter().map(build::untyped).collect()))
        }
        _ => None,
    }
}

/// `|x| B[L $ x]` (every use of `x` in `B` is `L $ x`, one layout chain `L`) as `|x| B[x]` and
/// the functions of `L`.
fn through_layout(f: &Expr) -> Option<(Expr, Vec<Expr>)> {
    let (x, b) = lambda1(f)?;
    let mut layout = None;
    if !uses_through(b, x, &mut layout) {
        return None;
    }
    let l = layout?;
    let mut body = build::untyped(b);
    replace_through(&mut body, x);
    let lam = Expr::new(
        ExprKind::Lambda(
            vec![crate::ir::Pat::Name(x.to_string(), f.span)],
            Box::new(body),
        ),
        f.span,
    );
    let fs = match &l.kind {
        ExprKind::Compose(fs) => build::flatten(fs),
        _ => vec![l.clone()],
    };
    Some((lam, fs.iter().map(build::untyped).collect()))
}

/// Whether every occurrence of `x` in `e` is `L $ x` for one layout chain `L` (kept in
/// `layout`; the chains compared structurally).
fn uses_through(e: &Expr, x: &str, layout: &mut Option<Expr>) -> bool {
    if build::is_ident(e, x) {
        return false;
    }
    if let ExprKind::Lambda(ps, _) = &e.kind {
        if ps.iter().any(|p| build::binds(p, x)) {
            return true;
        }
    }
    if let ExprKind::Apply(f, xs) = &e.kind {
        if let [a] = xs.as_slice() {
            if build::is_ident(a, x) && build::is_layout(f) {
                return *layout.get_or_insert_with(|| (**f).clone()) == **f;
            }
        }
    }
    crate::rewrite::walk::children(e)
        .into_iter()
        .all(|c| uses_through(c, x, layout))
}

/// Replaces every `L $ x` of `e` by `x` (after [`uses_through`] held).
fn replace_through(e: &mut Expr, x: &str) {
    if let ExprKind::Apply(_, xs) = &e.kind {
        if let [a] = xs.as_slice() {
            if build::is_ident(a, x) {
                *e = a.clone();
                return;
            }
        }
    }
    if let ExprKind::Lambda(ps, _) = &e.kind {
        if ps.iter().any(|p| build::binds(p, x)) {
            return;
        }
    }
    for c in crate::rewrite::walk::children_mut(e) {
        replace_through(c, x);
    }
}
