//! The immediate sub-expressions of an expression, in one fixed order shared by the
//! traversals and the paths of [`super::strategy::at`], with the context each one sees.
//!
//! Order: a primitive's function, value and constant-boundary arguments in argument order; a
//! lambda's body; a composition's functions outermost first; an application's function, then
//! its arguments; every other node's operands left to right.

use super::RewriteCtx;
use crate::ir::{Expr, ExprKind, PrimArg};
use crate::prim::Prim;
use crate::types::Type;

pub(crate) use crate::ir::{children, children_mut};

/// `e` with child `i` replaced by `new`; `None` if there is no child `i`. A composition put
/// into a composition is spliced in (only the indices from `i` on change). A replaced child
/// may change the type of `e`, so the copy loses its root type.
pub(crate) fn replace_child(e: &Expr, i: usize, new: Expr) -> Option<Expr> {
    let out = with_child(e, i, new)?;
    if let ExprKind::Compose(fs) = out.kind {
        return Some(super::build::compose(fs, out.span));
    }
    Some(out)
}

/// A copy of `e` without its root type, child `i` (in the order of [`children`]) being
/// `new`: the other children cloned, child `i` not (the rewriters replace the children on a
/// path from the root, so cloning the replaced one would copy the whole tree at every level).
/// `None` if there is no child `i`.
fn with_child(e: &Expr, i: usize, new: Expr) -> Option<Expr> {
    use crate::ir::Boundary;
    let mut new = Some(new);
    let mut k = 0;
    let mut child = |c: &Expr| {
        k += 1;
        match k - 1 == i {
            true => new.take().unwrap_or_else(|| c.clone()),
            false => c.clone(),
        }
    };
    let kind = match &e.kind {
        ExprKind::Ident(_) | ExprKind::Lit(..) | ExprKind::Section(_) => return None,
        ExprKind::Prim(p, args) => ExprKind::Prim(
            *p,
            args.iter()
                .map(|a| match a {
                    PrimArg::Fun(f) => PrimArg::Fun(child(f)),
                    PrimArg::Value(v) => PrimArg::Value(child(v)),
                    PrimArg::Boundary(Boundary::Constant(c), s) => {
                        PrimArg::Boundary(Boundary::Constant(Box::new(child(c))), *s)
                    }
                    other => other.clone(),
                })
                .collect(),
        ),
        ExprKind::Lambda(ps, b) => ExprKind::Lambda(ps.clone(), Box::new(child(b))),
        ExprKind::Proj(b, n) => ExprKind::Proj(Box::new(child(b)), *n),
        ExprKind::Index(b, n) => ExprKind::Index(Box::new(child(b)), n.clone()),
        ExprKind::Unary(op, b) => ExprKind::Unary(*op, Box::new(child(b))),
        ExprKind::Cast(b, t) => ExprKind::Cast(Box::new(child(b)), *t),
        ExprKind::Point(name, args, b) => {
            ExprKind::Point(name.clone(), args.clone(), Box::new(child(b)))
        }
        ExprKind::Compose(es) => ExprKind::Compose(es.iter().map(&mut child).collect()),
        ExprKind::Tuple(es) => ExprKind::Tuple(es.iter().map(&mut child).collect()),
        ExprKind::Apply(f, xs) => {
            let f = Box::new(child(f));
            ExprKind::Apply(f, xs.iter().map(&mut child).collect())
        }
        ExprKind::Binary(op, a, b) => {
            let a = Box::new(child(a));
            ExprKind::Binary(*op, a, Box::new(child(b)))
        }
        ExprKind::Let(p, a, b) => {
            let a = Box::new(child(a));
            ExprKind::Let(p.clone(), a, Box::new(child(b)))
        }
        ExprKind::If(c, a, b) => {
            let (c, a) = (Box::new(child(c)), Box::new(child(a)));
            ExprKind::If(c, a, Box::new(child(b)))
        }
    };
    // `new` still here: there is no child `i`.
    match new {
        Some(_) => None,
        None => Some(Expr {
            kind,
            span: e.span,
            ty: None,
        }),
    }
}

/// The element type `depth` array levels down.
fn element(t: Option<&Type>, depth: usize) -> Option<Type> {
    let mut t = t?;
    for _ in 0..depth {
        t = t.as_array()?.0;
    }
    Some(t.clone())
}

/// The input type of the function argument of `p` applied to `input`.
fn fun_input(p: Prim, args: &[PrimArg], input: Option<&Type>) -> Option<Type> {
    use Prim::*;
    match p {
        Map | MapGlb | MapWrg | MapLcl | MapSeq | MapSeqUnroll => element(input, 1),
        Map2 => element(input, 2),
        Map3 => element(input, 3),
        Iterate | ToGlobal | ToLocal | ToPrivate => input.cloned(),
        MapSeqSlide => {
            let size = args.iter().find_map(|a| match a {
                PrimArg::Nat(n, _) => Some(n.clone()),
                _ => None,
            })?;
            Some(Type::array(element(input, 1)?, size))
        }
        _ => None,
    }
}

/// The context child `i` of `e` sees, when `e` sees `ctx`.
pub(crate) fn child_ctx(e: &Expr, i: usize, ctx: &RewriteCtx) -> RewriteCtx {
    match &e.kind {
        ExprKind::Prim(p, args) => {
            let arg = args
                .iter()
                .filter(|a| crate::ir::arg_child(a).is_some())
                .nth(i);
            if let Some(PrimArg::Fun(_)) = arg {
                let mut c = ctx.with_input(fun_input(*p, args, ctx.input.as_ref()));
                c.enclosing.push((*p, PrimArg::dim(args)));
                c
            } else {
                ctx.with_input(None)
            }
        }
        ExprKind::Compose(fs) => ctx.with_input(match fs.get(i + 1) {
            Some(next) => next.ty.clone(),
            None => ctx.input.clone(),
        }),
        ExprKind::Apply(_, xs) if i == 0 && xs.len() == 1 => ctx.with_input(xs[0].ty.clone()),
        ExprKind::Point(..) => ctx.clone(),
        _ => ctx.with_input(None),
    }
}
