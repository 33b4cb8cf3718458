//! Which way an operand's rows run in memory, to stage its slices with coalesced lanes.

use super::super::build::{self, is_ident};
use crate::ir::{Expr, ExprKind};
use crate::prim::Prim;

/// Whether the rows of the matrix view `e` (its inner dimension) are contiguous in memory:
/// a parameter's rows are, `transpose` swaps, row-wise and outer pads and takes keep
/// it; `None` for views this does not follow. In a batch (`p`, `data`), `p.i` is an element of
/// the `i`-th array zipped in `data`.
pub(super) fn rows_contiguous(e: &Expr, batch: Option<&(String, Expr)>) -> Option<bool> {
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
