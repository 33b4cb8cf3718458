//! Epilogues around a core computation: `E[core]`, where `core` is the one sub-expression
//! that touches the data (a reduction over it) and `E` is scalar work around its result
//! (`alpha * dot`, `sqrt(sum)`, `let s = sum; s / n`, `(|s| s * 0.5) $ sum`,
//! `f o reduce(..) o map(g) $ x`). Strategies that match the core (blocking, the reduction
//! lowerings) split the epilogue off as a function `|lift_epi| E[lift_epi]` and apply it where
//! the core's result is written, instead of refusing the program.

use super::build::{self, compose, ident};
use super::walk::children;
use crate::ir::{Expr, ExprKind, Pat};

/// The name the epilogue function binds to the core's result (numbered where `E` uses it).
const HOLE: &str = "lift_epi";

/// `E[core]` split into the epilogue `|lift_epi| E[lift_epi]` (`None` when `e` is the core
/// itself) and the core.
pub(crate) struct Split {
    /// The function applied to the core's result (untyped), if any.
    pub post: Option<Expr>,
    /// The core, as found in `e` (typed as it was).
    pub core: Expr,
}

/// Splits `e` into an epilogue and the core: the core is the only sub-expression for which
/// `touches` holds on the path from `e` to it, and `is_core` accepts it. The epilogue may be
/// scalar operators, casts, conditionals, applications of functions that do not touch the
/// data, `let` over the core, and the functions left of the core in a composition.
pub(crate) fn split(
    e: &Expr,
    touches: &dyn Fn(&Expr) -> bool,
    is_core: &dyn Fn(&Expr) -> bool,
) -> Option<Split> {
    if is_core(e) {
        return Some(Split {
            post: None,
            core: e.clone(),
        });
    }
    let name = super::names::unused(HOLE, &[e]);
    let (hole, core) = with_hole(e, &name, touches, is_core)?;
    let post = Expr::new(
        ExprKind::Lambda(vec![Pat::Name(name, e.span)], Box::new(hole)),
        e.span,
    );
    Some(Split {
        post: Some(post),
        core,
    })
}

/// `(E[lift_epi], core)` for `e = E[core]` (see [`split`]).
fn with_hole(
    e: &Expr,
    name: &str,
    touches: &dyn Fn(&Expr) -> bool,
    is_core: &dyn Fn(&Expr) -> bool,
) -> Option<(Expr, Expr)> {
    if is_core(e) {
        return Some((ident(name, e.span), e.clone()));
    }
    match &e.kind {
        // `(p1 o ... o pk o core...) $ x`: the functions left of the core are the epilogue.
        ExprKind::Apply(f, xs) if matches!(f.kind, ExprKind::Compose(_)) => {
            let ExprKind::Compose(fs) = &f.kind else {
                return None;
            };
            (1..fs.len()).find_map(|k| {
                let mut core = Expr::new(
                    ExprKind::Apply(Box::new(compose(fs[k..].to_vec(), f.span)), xs.clone()),
                    e.span,
                );
                core.ty = fs[k].ty.clone();
                if !is_core(&core) || fs[..k].iter().any(touches) {
                    return None;
                }
                let post = compose(fs[..k].iter().map(build::untyped).collect(), f.span);
                let hole = Expr::new(
                    ExprKind::Apply(Box::new(post), vec![ident(name, e.span)]),
                    e.span,
                );
                Some((hole, core))
            })
        }
        // `let p = E[core]; body`: the body may use `p`, not the data.
        ExprKind::Let(p, v, b) if !touches(b) => {
            let (hole, core) = with_hole(v, name, touches, is_core)?;
            let kind = ExprKind::Let(p.clone(), Box::new(hole), Box::new(build::untyped(b)));
            Some((Expr::new(kind, e.span), core))
        }
        ExprKind::Lambda(..) | ExprKind::Let(..) | ExprKind::Prim(..) | ExprKind::Compose(_) => {
            None
        }
        _ => {
            let kids = children(e);
            let mut touching = kids.iter().enumerate().filter(|(_, c)| touches(c));
            let (i, child) = touching.next()?;
            if touching.next().is_some() {
                return None;
            }
            if i == 0 && matches!(e.kind, ExprKind::Apply(..)) {
                return None;
            }
            let (hole, core) = with_hole(child, name, touches, is_core)?;
            let mut out = build::untyped(e);
            let slot = super::walk::children_mut(&mut out).into_iter().nth(i)?;
            *slot = hole;
            Some((out, core))
        }
    }
}

/// Does `e` mention any of `names`?
pub(crate) fn mentions_any(e: &Expr, names: &[&str]) -> bool {
    names.iter().any(|n| build::mentions(e, n))
}

/// Does `e` contain a reduction?
pub(crate) fn has_reduce(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Prim(crate::prim::Prim::Reduce | crate::prim::Prim::ReduceSeq, _)
    ) || children(e).into_iter().any(has_reduce)
}
