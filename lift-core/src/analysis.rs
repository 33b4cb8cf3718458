//! Analyses of programs that several stages ask (the explorer, the default lowering, code
//! generation): which functions only reshape data, which data is read without computing.
//! They depend on the syntax tree alone.

use crate::ir::{Expr, ExprKind};
use crate::prim::Prim;

fn is_prim(e: &Expr, ps: &[Prim]) -> bool {
    matches!(&e.kind, ExprKind::Prim(p, _) if ps.contains(p))
}

const LAYOUT: &[Prim] = &[
    Prim::Split,
    Prim::Join,
    Prim::SplitCover,
    Prim::JoinCover,
    Prim::Take,
    Prim::Slide,
    Prim::Slide2,
    Prim::Slide3,
    Prim::Pad,
    Prim::Pad2,
    Prim::Pad3,
    Prim::Transpose,
    Prim::Gather,
    Prim::Scatter,
    Prim::Get,
    Prim::At,
    Prim::Zip,
    Prim::Zip2,
    Prim::Zip3,
    Prim::Unzip,
    Prim::AsVector,
    Prim::AsScalar,
];

/// Layout primitives, compositions of them and maps of them (`map(transpose)`,
/// `map(slide(3, 1))`: views too).
pub fn is_layout(f: &Expr) -> bool {
    match &f.kind {
        ExprKind::Point(_, _, x) => is_layout(x),
        ExprKind::Compose(fs) => fs.iter().all(is_layout),
        ExprKind::Prim(Prim::Map, _) => f.prim_fun(Prim::Map).is_some_and(is_layout),
        _ => is_prim(f, LAYOUT),
    }
}

/// Data that is read without computing: parameters, `iota(n)`, and layout primitives applied
/// to them.
pub fn is_pure(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(_) | ExprKind::Lit(..) => true,
        ExprKind::Tuple(es) => es.iter().all(is_pure),
        ExprKind::Point(_, _, x) | ExprKind::Proj(x, _) => is_pure(x),
        ExprKind::Apply(f, es) if es.is_empty() => is_prim(f, &[Prim::Iota]),
        ExprKind::Apply(f, es) => is_layout(f) && es.iter().all(is_pure),
        _ => false,
    }
}
