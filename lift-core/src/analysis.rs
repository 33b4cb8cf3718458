//! Analyses of programs that several stages ask (the explorer, the default lowering, code
//! generation): which functions only reshape data, which data is read without computing.
//! They depend on the syntax tree alone.

use crate::ir::{Expr, ExprKind};
use crate::prim::Prim;

fn is_prim(e: &Expr, ps: &[Prim]) -> bool {
    matches!(&e.kind, ExprKind::Prim(p, _) if ps.contains(p))
}

/// The primitives that only reshape data (views), in one list: first the [`RESHAPES`], then
/// the views of tuples and vectors (`get`, `at`, the zips, `unzip`, `as_vector`,
/// `as_scalar`).
pub const LAYOUT: &[Prim] = &[
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

/// The subset of [`LAYOUT`] that reshapes one array into another (cuts, joins, windows,
/// pads, transposes, reorders, prefixes): the views the rewrite rules look through
/// (`rewrite::build::is_layout`), which neither pair arrays, project tuples, read single
/// elements nor change the element type.
pub const RESHAPES: &[Prim] = LAYOUT.split_at(14).0;

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

#[cfg(test)]
mod tests {
    use super::{LAYOUT, RESHAPES};
    use crate::prim::Prim;

    /// The subset is the prefix of the list up to `scatter`, and none of the views of tuples
    /// and vectors.
    #[test]
    fn reshapes_are_the_array_views() {
        assert_eq!(RESHAPES.last(), Some(&Prim::Scatter));
        let rest = &LAYOUT[RESHAPES.len()..];
        assert_eq!(rest.first(), Some(&Prim::Get));
        for p in [
            Prim::Zip,
            Prim::Unzip,
            Prim::At,
            Prim::AsVector,
            Prim::AsScalar,
        ] {
            assert!(rest.contains(&p) && !RESHAPES.contains(&p), "{p:?}");
        }
    }
}
