//! The nesting rules of the low-level primitives (SPEC section 2): `map_lcl(d)` only inside
//! `map_wrg(d)`, `to_local` only inside a work-group, no parallel map of the same level and
//! dimension inside itself, and `map_glb` not mixed with `map_wrg`/`map_lcl` in one kernel.

use crate::error::{CResult, CompileError, ErrorKind};
use crate::ir::{Boundary, Expr, ExprKind, PrimArg};
use crate::prim::Prim;
use proc_macro2::Span;

/// The parallel maps enclosing the current expression.
#[derive(Clone, Copy, Default)]
struct Scope {
    glb: [bool; 3],
    wrg: [bool; 3],
    lcl: [bool; 3],
}

/// What one kernel uses: the first `map_glb` and the first `map_wrg`/`map_lcl` seen.
#[derive(Default)]
struct Usage {
    glb: Option<Span>,
    wrg: Option<Span>,
}

/// Checks the nesting rules on a kernel body.
pub(super) fn check(body: &Expr) -> CResult<()> {
    let mut usage = Usage::default();
    walk(body, Scope::default(), &mut usage)?;
    match (usage.glb, usage.wrg) {
        (Some(_), Some(span)) => Err(nesting(
            span,
            "map_wrg/map_lcl: cannot be mixed with map_glb in one kernel".into(),
        )),
        _ => Ok(()),
    }
}

fn nesting(span: Span, msg: String) -> CompileError {
    CompileError::new(ErrorKind::Nesting, span, msg)
}

fn walk(e: &Expr, scope: Scope, usage: &mut Usage) -> CResult<()> {
    match &e.kind {
        ExprKind::Prim(p, args) => {
            let inner = enter(*p, args, scope, e.span, usage)?;
            for a in args {
                match a {
                    PrimArg::Fun(f) => walk(f, inner, usage)?,
                    PrimArg::Value(v) => walk(v, scope, usage)?,
                    PrimArg::Boundary(Boundary::Constant(v), _) => walk(v, scope, usage)?,
                    _ => {}
                }
            }
            Ok(())
        }
        ExprKind::Lambda(_, b) | ExprKind::Proj(b, _) | ExprKind::Index(b, _) => {
            walk(b, scope, usage)
        }
        ExprKind::Unary(_, b) | ExprKind::Cast(b, _) | ExprKind::Point(_, _, b) => {
            walk(b, scope, usage)
        }
        ExprKind::Compose(es) | ExprKind::Tuple(es) => {
            es.iter().try_for_each(|x| walk(x, scope, usage))
        }
        ExprKind::Apply(f, es) => {
            walk(f, scope, usage)?;
            es.iter().try_for_each(|x| walk(x, scope, usage))
        }
        ExprKind::Binary(_, a, b) | ExprKind::Let(_, a, b) => {
            walk(a, scope, usage)?;
            walk(b, scope, usage)
        }
        ExprKind::If(c, a, b) => [c, a, b]
            .into_iter()
            .try_for_each(|x| walk(x, scope, usage)),
        ExprKind::Ident(_) | ExprKind::Lit(..) | ExprKind::Section(_) => Ok(()),
    }
}

/// Checks entering primitive `p` in `scope`; gives the scope of its function argument.
fn enter(p: Prim, args: &[PrimArg], scope: Scope, span: Span, usage: &mut Usage) -> CResult<Scope> {
    let d = Some(PrimArg::dim(args)).filter(|d| *d < 3).unwrap_or(0);
    let mut inner = scope;
    match p {
        Prim::MapGlb => {
            if scope.glb[d] {
                return Err(nesting(
                    span,
                    format!("map_glb: nested in map_glb of the same dimension {d}"),
                ));
            }
            usage.glb.get_or_insert(span);
            inner.glb[d] = true;
        }
        Prim::MapWrg => {
            if scope.wrg[d] {
                return Err(nesting(
                    span,
                    format!("map_wrg: nested in map_wrg of the same dimension {d}"),
                ));
            }
            if scope.lcl.iter().any(|x| *x) {
                return Err(nesting(
                    span,
                    "map_wrg: cannot be nested inside map_lcl".into(),
                ));
            }
            usage.wrg.get_or_insert(span);
            inner.wrg[d] = true;
        }
        Prim::MapLcl => {
            if !scope.wrg[d] {
                return Err(nesting(
                    span,
                    format!("map_lcl: must be nested inside map_wrg of dimension {d}"),
                ));
            }
            if scope.lcl[d] {
                return Err(nesting(
                    span,
                    format!("map_lcl: nested in map_lcl of the same dimension {d}"),
                ));
            }
            usage.wrg.get_or_insert(span);
            inner.lcl[d] = true;
        }
        Prim::ToLocal if !scope.wrg.iter().any(|x| *x) => {
            return Err(nesting(
                span,
                "to_local: only allowed inside a work-group (map_wrg)".into(),
            ));
        }
        _ => {}
    }
    Ok(inner)
}
