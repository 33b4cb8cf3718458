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
    let mut out = super::build::untyped(e);
    let slot = children_mut(&mut out).into_iter().nth(i)?;
    *slot = new;
    if let ExprKind::Compose(fs) = &out.kind {
        return Some(super::build::compose(fs.clone(), out.span));
    }
    Some(out)
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
