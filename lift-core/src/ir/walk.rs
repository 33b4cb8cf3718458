//! The generic walk over the syntax tree and the scope of names: the immediate
//! sub-expressions of a node in one fixed order, the names a pattern binds, and the names an
//! expression leaves free. Every stage walks trees through these (the rewriter adds the
//! context each child sees in `rewrite::walk`).

use super::{Boundary, Expr, ExprKind, Pat, PrimArg};

/// The sub-expressions of one primitive argument.
pub(crate) fn arg_child(a: &PrimArg) -> Option<&Expr> {
    match a {
        PrimArg::Fun(e) | PrimArg::Value(e) => Some(e),
        PrimArg::Boundary(Boundary::Constant(e), _) => Some(e),
        _ => None,
    }
}

fn arg_child_mut(a: &mut PrimArg) -> Option<&mut Expr> {
    match a {
        PrimArg::Fun(e) | PrimArg::Value(e) => Some(e),
        PrimArg::Boundary(Boundary::Constant(e), _) => Some(e),
        _ => None,
    }
}

/// The immediate sub-expressions of `e`, in one fixed order shared by every traversal:
/// a primitive's function, value and constant-boundary arguments in argument order; a
/// lambda's body; a composition's functions outermost first; an application's function,
/// then its arguments; every other node's operands left to right.
pub(crate) fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Ident(_) | ExprKind::Lit(..) | ExprKind::Section(_) => Vec::new(),
        ExprKind::Prim(_, args) => args.iter().filter_map(arg_child).collect(),
        ExprKind::Lambda(_, b)
        | ExprKind::Proj(b, _)
        | ExprKind::Index(b, _)
        | ExprKind::Unary(_, b)
        | ExprKind::Cast(b, _)
        | ExprKind::Point(_, _, b) => vec![&**b],
        ExprKind::Compose(es) | ExprKind::Tuple(es) => es.iter().collect(),
        ExprKind::Apply(f, xs) => std::iter::once(&**f).chain(xs.iter()).collect(),
        ExprKind::Binary(_, a, b) | ExprKind::Let(_, a, b) => vec![&**a, &**b],
        ExprKind::If(c, a, b) => vec![&**c, &**a, &**b],
    }
}

/// The immediate sub-expressions of `e`, mutably, in the order of [`children`].
pub(crate) fn children_mut(e: &mut Expr) -> Vec<&mut Expr> {
    match &mut e.kind {
        ExprKind::Ident(_) | ExprKind::Lit(..) | ExprKind::Section(_) => Vec::new(),
        ExprKind::Prim(_, args) => args.iter_mut().filter_map(arg_child_mut).collect(),
        ExprKind::Lambda(_, b)
        | ExprKind::Proj(b, _)
        | ExprKind::Index(b, _)
        | ExprKind::Unary(_, b)
        | ExprKind::Cast(b, _)
        | ExprKind::Point(_, _, b) => vec![&mut **b],
        ExprKind::Compose(es) | ExprKind::Tuple(es) => es.iter_mut().collect(),
        ExprKind::Apply(f, xs) => std::iter::once(&mut **f).chain(xs.iter_mut()).collect(),
        ExprKind::Binary(_, a, b) | ExprKind::Let(_, a, b) => vec![&mut **a, &mut **b],
        ExprKind::If(c, a, b) => vec![&mut **c, &mut **a, &mut **b],
    }
}

/// The names a pattern binds, left to right.
pub fn pat_names(p: &Pat) -> Vec<String> {
    match p {
        Pat::Name(n, _) => vec![n.clone()],
        Pat::Tuple(ps, _) => ps.iter().flat_map(pat_names).collect(),
    }
}

/// Does pattern `p` bind `name`?
pub(crate) fn binds(p: &Pat, name: &str) -> bool {
    match p {
        Pat::Name(n, _) => n == name,
        Pat::Tuple(ps, _) => ps.iter().any(|q| binds(q, name)),
    }
}

/// The names that occur free in `e` (not bound by a lambda or `let` inside it).
pub(crate) fn free(e: &Expr) -> Vec<String> {
    match &e.kind {
        ExprKind::Ident(n) => vec![n.clone()],
        ExprKind::Lambda(ps, b) => {
            let bound: Vec<String> = ps.iter().flat_map(pat_names).collect();
            free(b).into_iter().filter(|n| !bound.contains(n)).collect()
        }
        ExprKind::Let(p, v, b) => {
            let bound = pat_names(p);
            let mut out = free(v);
            out.extend(free(b).into_iter().filter(|n| !bound.contains(n)));
            out
        }
        _ => children(e).into_iter().flat_map(free).collect(),
    }
}

/// Is `name` free in `e`?
pub(crate) fn is_free(e: &Expr, name: &str) -> bool {
    match &e.kind {
        ExprKind::Ident(n) => n == name,
        ExprKind::Lambda(ps, b) => !ps.iter().any(|p| binds(p, name)) && is_free(b, name),
        ExprKind::Let(p, v, b) => is_free(v, name) || (!binds(p, name) && is_free(b, name)),
        _ => children(e).into_iter().any(|c| is_free(c, name)),
    }
}
