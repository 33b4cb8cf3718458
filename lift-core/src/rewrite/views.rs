//! Rules over views with windows: a convolution spelled as the matrix product it is, and its
//! views materialised by a kernel of their own (im2col, or the padded input). Each preserves
//! the meaning on its own (`tests/views.rs`); which of them pays is the explorer's choice
//! ([`crate::explore::products`], [`crate::explore::materialise`]).
//!
//! - [`product_of_views`]: a nest of maps over rows that a layout computes, whose innermost
//!   function maps over the rows of another view and folds each pair, is the product of two
//!   matrices that are views (the windows flattened are the rows of `A`, the filters
//!   flattened the rows of `C`: im2col without materialising anything).
//! - [`materialise_windows`]: the windows copied to memory first, each flattened to a row
//!   (im2col), the rest reading rows of the copy.
//! - [`materialise_input`]: the data below the windows (a padding) copied first, the windows
//!   read from the copy without the padding's bounds.
//!
//! The copies are `let`s; the explorer computes a `let`'s value by a kernel of its own
//! ([`crate::explore::lets`]).

use super::build::{self, compose, ident, prim, with_fun};
use super::walk::{children, children_mut};
use super::{blocking::map_app, Rule};
use crate::analysis::{is_layout, is_pure};
use crate::ir::{Expr, ExprKind, Pat};
use crate::prim::Prim;
use proc_macro2::Span;

/// The prefix of the name of the materialised windows.
pub const WINDOWS: &str = "lift_m";

/// The prefix of the name of the materialised input below the windows.
pub const INPUT: &str = "lift_i";

/// `product_of_views`: a convolution as one matrix product,
///
/// ```text
/// map^d((|r| map((|c| D) o Lc) $ Y) o La) $ X
///   ⇒ split(n1) o .. o split(n_{d-1}) $ (map(|r| map(|c| D) $ (map(Lc) $ Y)) $ (map(La) o join^{d-1} $ X))
/// ```
///
/// for `X` of type `[[..[T; n_{d-1}]..; n1]; n0]` and layout chains `La`, `Lc` (either may be
/// empty, not both when `d = 1`: that is a product already). A lambda that reads its parameter
/// only through one layout chain, `|x| B[L $ x]`, is `(|x| B[x]) o L`. Both sides are map
/// fission over a layout (`map(f o L) = map(f) o map(L)`) and the flattening of a map nest
/// (`map(map(f)) = split(n1) o map(f) o join`). The rule binds no name of its own.
pub fn product_of_views() -> Rule {
    Rule::new(
        "product_of_views",
        "map^d((|r| map((|c| D) o Lc) $ Y) o La) $ X ⇒ split(n1) o .. o split(n_{d-1}) $ \
         (map(|r| map(|c| D) $ (map(Lc) $ Y)) $ (map(La) o join^{d-1} $ X))   La, Lc layouts",
        |e, _| flattened_product(e),
    )
}

fn flattened_product(body: &Expr) -> Option<Expr> {
    let (outer, data) = map_app(body)?;
    let mut depth = 1;
    let mut f = outer;
    while let Some(g) = f.prim_fun(Prim::Map) {
        depth += 1;
        f = g;
    }
    let (row, row_layout) = lambda_then_layout(f)?;
    let (r, b) = build::lambda1(&row)?;
    let (inner, y) = map_app(b)?;
    let (col, col_layout) = lambda_then_layout(inner)?;
    if (depth == 1 && row_layout.is_empty() && col_layout.is_empty())
        || !build::is_data(&y)
        || super::names::mentions(&y, r)
    {
        return None;
    }
    let dims = data.ty.as_ref()?.dims();
    if dims.len() < depth {
        return None;
    }
    let s = body.span;
    let mut a = build::untyped(&data);
    for _ in 1..depth {
        a = build::apply1(prim(Prim::Join, Vec::new(), s), a, s);
    }
    if !row_layout.is_empty() {
        a = build::apply1(with_fun(Prim::Map, &compose(row_layout, s), s), a, s);
    }
    let mut c = build::untyped(&y);
    if !col_layout.is_empty() {
        c = build::apply1(with_fun(Prim::Map, &compose(col_layout, s), s), c, s);
    }
    let inner = build::apply1(with_fun(Prim::Map, &build::untyped(&col), s), c, s);
    let row = Expr::new(
        ExprKind::Lambda(vec![Pat::Name(r.to_string(), s)], Box::new(inner)),
        s,
    );
    let product = build::apply1(with_fun(Prim::Map, &row, s), a, s);
    if depth == 1 {
        return Some(product);
    }
    let splits: Vec<Expr> = dims[1..depth]
        .iter()
        .map(|n| prim(Prim::Split, vec![build::nat(n, s)], s))
        .collect();
    Some(build::apply1(compose(splits, s), product, s))
}

/// `materialise_windows`: a view with windows copied to memory first, each element flattened
/// to one row (im2col), the rest reading the rows of the copy:
///
/// ```text
/// map^d(|w| B) o L $ x
///   ⇒ { let m = map^d(map(id) o join^(r-1)) o L $ x; map^d(|w| B[w := split(n1) o .. o split(n_{r-1}) $ w]) $ m }
/// ```
///
/// for `L` layouts with windows (`slide`, `slide2`, `slide3`) and elements (at depth `d`) of
/// type `[..[T; n_{r-1}]..; n0]`; `join` then `split` cancel where `B` flattens the element
/// again (`join o join $ w`), so `B` reads rows of `m`. A function `g` that is no lambda
/// becomes `g o split(n1) o .. o split(n_{r-1})`. `m` is fresh.
pub fn materialise_windows() -> Rule {
    Rule::new(
        "materialise_windows",
        "map^d(|w| B) o L $ x ⇒ { let m = map^d(map(id) o join^(r-1)) o L $ x; map^d(|w| \
         B[w := split(n1) o .. o split(n_{r-1}) $ w]) $ m }   L layouts with windows",
        |e, ctx| {
            let (f, view, ty) = split_view(e)?;
            let mut depth = 0;
            let mut inner = &f;
            while let Some(g) = inner.prim_fun(Prim::Map) {
                depth += 1;
                inner = g;
            }
            let mut elem = &ty;
            for _ in 0..depth {
                elem = elem.as_array()?.0;
            }
            let dims = elem.dims();
            let s = e.span;
            let flat = vec![prim(Prim::Join, Vec::new(), s); dims.len().saturating_sub(1)];
            let copy_row = match dims.len() {
                0 => prim(Prim::Id, Vec::new(), s),
                _ => compose(
                    std::iter::once(with_fun(Prim::Map, &prim(Prim::Id, Vec::new(), s), s))
                        .chain(flat)
                        .collect(),
                    s,
                ),
            };
            let copy = build::apply1(maps(depth, copy_row), build::untyped(&view), s);
            let unflat: Vec<Expr> = (dims.iter().skip(1))
                .map(|n| prim(Prim::Split, vec![build::nat(n, s)], s))
                .collect();
            let row = unflattened(inner, unflat);
            let m = ctx.fresh(WINDOWS, &[e]);
            let rest = build::apply1(maps(depth, row), ident(&m, s), s);
            Some(let_(m, copy, rest, s))
        },
    )
}

/// `materialise_input`: the data below a view's windows copied to memory first, the windows
/// read from the copy:
///
/// ```text
/// f o W o Lo $ x  ⇒  { let i = map^r(id) o Lo $ x; f o W $ i }
/// ```
///
/// for `W` layouts ending with windows and `Lo` layouts without windows (a padding: the copy
/// is the padded input, and the windows over it read no bounds), `r` the rank of `Lo $ x`.
/// `i` is fresh.
pub fn materialise_input() -> Rule {
    Rule::new(
        "materialise_input",
        "f o W o Lo $ x ⇒ { let i = map^r(id) o Lo $ x; f o W $ i }   W ending with windows, \
         Lo layouts without",
        |e, ctx| {
            let (f, view, _) = split_view(e)?;
            let ExprKind::Apply(g, xs) = &view.kind else {
                return None;
            };
            let [x] = xs.as_slice() else { return None };
            let chain = build::chain(g);
            let last = chain.iter().rposition(has_windows)?;
            let (windows, lower) = chain.split_at(last + 1);
            if lower.is_empty() || lower.iter().any(has_windows) {
                return None;
            }
            let rank = lower.first()?.ty.as_ref()?.dims().len();
            let s = e.span;
            let lower: Vec<Expr> = lower.iter().map(build::untyped).collect();
            let input = build::apply1(compose(lower, s), build::untyped(x), s);
            let copy = build::apply1(maps(rank, prim(Prim::Id, Vec::new(), s)), input, s);
            let i = ctx.fresh(INPUT, &[e]);
            let rest_chain: Vec<Expr> = std::iter::once(build::untyped(&f))
                .chain(windows.iter().map(build::untyped))
                .collect();
            let rest = build::apply1(compose(rest_chain, s), ident(&i, s), s);
            Some(let_(i, copy, rest, s))
        },
    )
}

/// `f o split(n1) o .. o split(n_{r-1})`, written into `f` where it is a lambda `|w| B`:
/// `|w| B[w := split(n1) o .. $ w]`, with `join` then `split` cancelled where `B` flattens
/// `w` again.
fn unflattened(f: &Expr, unflat: Vec<Expr>) -> Expr {
    let s = f.span;
    if unflat.is_empty() {
        return build::untyped(f);
    }
    let Some((w, body)) = build::lambda1(f) else {
        let mut fs = vec![build::untyped(f)];
        fs.extend(unflat);
        return compose(fs, s);
    };
    let mut b = build::untyped(body);
    let read = build::apply1(compose(unflat, s), ident(w, s), s);
    super::names::subst(&mut b, w, &read);
    cancel_join_split(&mut b);
    Expr::new(
        ExprKind::Lambda(vec![Pat::Name(w.to_string(), s)], Box::new(b)),
        s,
    )
}

fn let_(name: String, value: Expr, body: Expr, s: Span) -> Expr {
    Expr::new(
        ExprKind::Let(Pat::Name(name, s), Box::new(value), Box::new(body)),
        s,
    )
}

/// `f o L1 o .. o Lk $ x` (or `f $ (L $ x)`) with `f` computing and the `Li` layouts that
/// include windows: `f`, the view `L1 o .. o Lk $ x` and its type.
pub(crate) fn split_view(body: &Expr) -> Option<(Expr, Expr, crate::types::Type)> {
    let ExprKind::Apply(g, xs) = &body.kind else {
        return None;
    };
    let [x] = xs.as_slice() else { return None };
    let fs = build::chain(g);
    let (f, layouts) = fs.split_first()?;
    let (view, ty) = if layouts.is_empty() {
        (x.clone(), x.ty.clone()?)
    } else if layouts.iter().all(is_layout) && is_pure(x) {
        let view = build::apply1(compose(layouts.to_vec(), g.span), x.clone(), body.span);
        (view, layouts[0].ty.clone()?)
    } else {
        return None;
    };
    (is_pure(&view) && has_windows(&view) && !is_layout(f)).then(|| (f.clone(), view, ty))
}

/// Does the view use a window primitive (which repeats elements)?
pub(crate) fn has_windows(e: &Expr) -> bool {
    let windows = [Prim::Slide, Prim::Slide2, Prim::Slide3];
    matches!(&e.kind, ExprKind::Prim(p, _) if windows.contains(p))
        || children(e).into_iter().any(has_windows)
}

/// `map^d(f)`.
fn maps(d: usize, f: Expr) -> Expr {
    let s = f.span;
    (0..d).fold(f, |g, _| with_fun(Prim::Map, &g, s))
}

/// Replaces every `L1 $ (L2 $ x)` of layouts by `L1 o L2 $ x` and drops each `join` followed
/// by a `split` in a layout chain (`join o split(n) = id`).
fn cancel_join_split(e: &mut Expr) {
    for c in children_mut(e) {
        cancel_join_split(c);
    }
    if let Some((f, g, ys)) = build::apply_of_apply(e) {
        if is_layout(f) && is_layout(g) {
            *e = build::apply_composed(f, g, ys, e);
        }
    }
    let ExprKind::Apply(f, xs) = &e.kind else {
        return;
    };
    if !is_layout(f) {
        return;
    }
    let mut fs = build::chain(f);
    let mut i = 0;
    while i + 1 < fs.len() {
        if build::is_bare(&fs[i], Prim::Join) && fs[i + 1].prim_nats(Prim::Split).is_some() {
            fs.drain(i..i + 2);
            i = i.saturating_sub(1);
        } else {
            i += 1;
        }
    }
    let xs = xs.clone();
    *e = match (fs.is_empty(), xs.as_slice()) {
        (true, [x]) => x.clone(),
        _ => Expr::new(ExprKind::Apply(Box::new(compose(fs, e.span)), xs), e.span),
    };
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
    let (x, b) = build::lambda1(f)?;
    let mut layout = None;
    if !uses_through(b, x, &mut layout) {
        return None;
    }
    let l = layout?;
    let mut body = build::untyped(b);
    replace_through(&mut body, x);
    let lam = Expr::new(
        ExprKind::Lambda(vec![Pat::Name(x.to_string(), f.span)], Box::new(body)),
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
    children(e).into_iter().all(|c| uses_through(c, x, layout))
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
    for c in children_mut(e) {
        replace_through(c, x);
    }
}
