//! Rules that remove work: a reduction invariant in a map hoisted out of it, `zip` components
//! nobody reads dropped, an elementwise `iterate` unrolled into one map.

use super::fusion::projections;
use super::inline::uses;
use crate::ir::{Expr, ExprKind, Pat, PrimArg};
use crate::prim::Prim;
use crate::rewrite::build::{self, compose, ident, with_fun};
use crate::rewrite::walk::{children, children_mut};
use crate::rewrite::Rule;

/// `F o map(|x| E[R]) o G $ data ⇒ { let h = R; F o map(|x| E[h]) o G $ data }` where `R` is
/// a reduction that mentions no name bound in the lambda: computed once instead of once per
/// element (`map(|x| x / (reduce(+, 0.0) $ v)) $ v` is quadratic as written).
pub fn hoist_invariant_reduction() -> Rule {
    Rule::new(
        "hoist_invariant_reduction",
        "F o map(|x| E[R]) o G $ d ⇒ { let h = R; F o map(|x| E[h]) o G $ d }   if R is a reduction free of x",
        |e, ctx| {
            let ExprKind::Apply(f, _) = &e.kind else {
                return None;
            };
            let fs: Vec<&Expr> = match &f.kind {
                ExprKind::Compose(fs) => fs.iter().collect(),
                _ => vec![&**f],
            };
            let (i, r) = fs.iter().enumerate().find_map(|(i, m)| {
                let lam = m.prim_fun(Prim::Map)?;
                let ExprKind::Lambda(_, body) = &lam.kind else {
                    return None;
                };
                Some((i, invariant_reduction(body, &binders(lam))?))
            })?;
            let h = ctx.fresh("h", &[e]);
            let s = e.span;
            // Only inside that map's lambda, which binds none of `r`'s names.
            let mut fs: Vec<Expr> = fs.into_iter().cloned().collect();
            build::replace_same(&mut fs[i], &r, &ident(&h, s));
            let ExprKind::Apply(_, xs) = &e.kind else {
                return None;
            };
            let app = Expr::new(
                ExprKind::Apply(Box::new(compose(fs, f.span)), xs.clone()),
                s,
            );
            let kind = ExprKind::Let(Pat::Name(h, s), Box::new(build::untyped(&r)), Box::new(app));
            Some(Expr::new(kind, s))
        },
    )
}

/// The names bound by lambdas and `let`s in `e`.
fn binders(e: &Expr) -> Vec<String> {
    let mut out = match &e.kind {
        ExprKind::Lambda(ps, _) => ps.iter().flat_map(build::pat_names).collect(),
        ExprKind::Let(p, _, _) => build::pat_names(p),
        _ => Vec::new(),
    };
    for c in children(e) {
        out.extend(binders(c));
    }
    out
}

/// The first reduction applied to data in `e` (pre-order) none of whose free names is in
/// `bound`.
fn invariant_reduction(e: &Expr, bound: &[String]) -> Option<Expr> {
    if let ExprKind::Apply(f, _) = &e.kind {
        let head = match &f.kind {
            ExprKind::Compose(fs) => fs.first(),
            _ => Some(&**f),
        };
        if head.is_some_and(|h| h.prim_fun(Prim::Reduce).is_some())
            && !build::free_names(e).iter().any(|n| bound.contains(n))
        {
            return Some(e.clone());
        }
    }
    children(e)
        .into_iter()
        .find_map(|c| invariant_reduction(c, bound))
}

/// `map(|t| E) $ zip(x0, .., xn) ⇒ map(|t| E') $ zip(xi, ..)` keeping only the components
/// `E` projects (`E'` renumbered; a single one is not zipped at all): a component nobody reads
/// hides the shape of the map from the strategies (`map(|t| f(t.0)) $ zip(a, c)` is
/// `map(f) $ a`).
pub fn zip_unused() -> Rule {
    Rule::new(
        "zip_unused",
        "map(|t| E) $ zip(x0, .., xn) ⇒ map(|t| E') $ zip(xi, ..)   keeping the projected xi",
        |e, _ctx| {
            let ExprKind::Apply(m, ys) = &e.kind else {
                return None;
            };
            let [zipped] = ys.as_slice() else { return None };
            let (t, body) = build::lambda1(m.prim_fun(Prim::Map)?)?;
            let ExprKind::Apply(z, xs) = &zipped.kind else {
                return None;
            };
            if !matches!(&z.kind, ExprKind::Prim(Prim::Zip, a) if a.is_empty()) {
                return None;
            }
            let counts: Vec<usize> = (0..xs.len()).map(|i| projections(body, t, i)).collect();
            let used: Vec<usize> = (0..xs.len()).filter(|&i| counts[i] > 0).collect();
            if used.is_empty()
                || used.len() == xs.len()
                || counts.iter().sum::<usize>() != uses(body, t)
            {
                return None;
            }
            let s = e.span;
            let mut body = build::untyped(body);
            let one = used.len() == 1;
            for (k, &i) in used.iter().enumerate() {
                let by = if one {
                    ident(t, s)
                } else {
                    Expr::new(ExprKind::Proj(Box::new(ident(t, s)), k), s)
                };
                replace_projection(&mut body, t, i, &by);
            }
            let data = if one {
                build::untyped(&xs[used[0]])
            } else {
                let kept = used.iter().map(|&i| build::untyped(&xs[i])).collect();
                Expr::new(ExprKind::Apply(Box::new(build::untyped(z)), kept), s)
            };
            let lam = Expr::new(
                ExprKind::Lambda(vec![Pat::Name(t.to_string(), s)], Box::new(body)),
                s,
            );
            let m = with_fun(Prim::Map, &lam, s);
            Some(Expr::new(ExprKind::Apply(Box::new(m), vec![data]), s))
        },
    )
}

/// Replaces every `p.i` in `e` by `by` (the new projections are not revisited).
fn replace_projection(e: &mut Expr, p: &str, i: usize, by: &Expr) {
    if let ExprKind::Proj(x, j) = &e.kind {
        if *j == i && build::is_ident(x, p) {
            *e = Expr {
                ty: None,
                ..by.clone()
            };
            // Mark as done: a renumbered projection must not be replaced again.
            return;
        }
    }
    e.ty = None;
    for c in children_mut(e) {
        replace_projection(c, p, i, by);
    }
}

/// The most steps [`iterate_map`] writes out.
const MAX_ITERATE_MAP: i64 = 16;

/// `iterate(k, map(f)) ⇒ map(f o ... o f)` (`k` copies, `k` a constant of at most 16): the
/// steps of an elementwise iteration fuse into one map instead of `k` passes over memory.
pub fn iterate_map() -> Rule {
    Rule::new(
        "iterate_map",
        "iterate(k, map(f)) ⇒ map(f o ... o f)   (k constant, at most 16)",
        |e, _ctx| {
            let (Prim::Iterate, args) = e.as_prim()? else {
                return None;
            };
            let k = args.iter().find_map(|a| a.as_nat()?.as_cst())?;
            let f = args
                .iter()
                .rev()
                .find_map(PrimArg::as_fun)?
                .prim_fun(Prim::Map)?;
            if !(1..=MAX_ITERATE_MAP).contains(&k) {
                return None;
            }
            let s = e.span;
            let steps = vec![build::untyped(f); k as usize];
            Some(with_fun(Prim::Map, &compose(steps, s), s))
        },
    )
}
