//! Inlining of single-expression user functions (step 1 of normalisation), and the
//! occurrence counts it and the rules share.

use crate::ir::{Expr, ExprKind, FunBody, Pat, PrimArg, UserFun};
use crate::rewrite::build;
use crate::rewrite::walk::{children, children_mut};

/// Inlines the single-expression user functions of `funs` into `e` (see the module docs).
pub fn inline_user_functions(e: &mut Expr, funs: &[UserFun]) {
    for c in children_mut(e) {
        inline_user_functions(c, funs);
    }
    let fun_of = |x: &Expr| match &x.kind {
        ExprKind::Ident(n) => funs.iter().find(|f| &f.name == n).and_then(inlinable),
        _ => None,
    };
    match &mut e.kind {
        ExprKind::Apply(f, args) => {
            if let Some((params, body)) = fun_of(f) {
                if args.len() == params.len()
                    && params
                        .iter()
                        .zip(args.iter())
                        .all(|(p, a)| cheap(a) || uses(body, p) <= 1)
                {
                    let mut out = build::untyped(body);
                    for (p, a) in params.iter().zip(args.iter()) {
                        build::subst(&mut out, p, a);
                    }
                    out.span = e.span;
                    *e = out;
                }
            }
        }
        ExprKind::Prim(_, args) => {
            for a in args.iter_mut() {
                if let PrimArg::Fun(f) = a {
                    if let Some((params, body)) = fun_of(f) {
                        let s = f.span;
                        let pats = params.iter().map(|p| Pat::Name(p.clone(), s)).collect();
                        let lam = ExprKind::Lambda(pats, Box::new(build::untyped(body)));
                        *f = Expr::new(lam, s);
                    }
                }
            }
        }
        _ => {}
    }
}

/// The parameter names and body of a user function that can be inlined.
fn inlinable(f: &UserFun) -> Option<(Vec<String>, &Expr)> {
    let FunBody::Expr(body) = &f.body else {
        return None;
    };
    if contains(body, &|x| {
        matches!(x.kind, ExprKind::Let(..) | ExprKind::Lambda(..))
    }) {
        return None;
    }
    Some((f.params.iter().map(|p| p.name.clone()).collect(), body))
}

/// Does some sub-expression of `e` satisfy `p`?
fn contains(e: &Expr, p: &dyn Fn(&Expr) -> bool) -> bool {
    p(e) || children(e).into_iter().any(|c| contains(c, p))
}

/// How often the variable `name` occurs in `e`.
pub(super) fn uses(e: &Expr, name: &str) -> usize {
    if build::is_ident(e, name) {
        return 1;
    }
    children(e).into_iter().map(|c| uses(c, name)).sum()
}

/// How often the variable `name` occurs in `e` inside the body of a lambda of `e`.
pub(super) fn uses_under_lambda(e: &Expr, name: &str) -> usize {
    match &e.kind {
        ExprKind::Lambda(_, body) => uses(body, name),
        _ => children(e)
            .into_iter()
            .map(|c| uses_under_lambda(c, name))
            .sum(),
    }
}

/// An expression that costs nothing to evaluate twice.
pub(super) fn cheap(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(_) | ExprKind::Lit(..) => true,
        ExprKind::Proj(x, _) => cheap(x),
        _ => false,
    }
}
