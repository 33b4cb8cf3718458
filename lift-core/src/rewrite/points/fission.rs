//! `kernel_fission` (Listing 6.9: `f o g ⇒ f o oclKernel(materialise(g))`): on data
//! `f o g $ x`, the value `g $ x` is copied to global memory by a kernel of its own, and `f`
//! reads it from there. Written as a `let` at the top of the kernel body (after the body's
//! own leading `let`s):
//!
//! ```text
//! B[#[kernel_fission] (f o g $ x)]  ⇒  { let lift_k0 = map(..map(id)) o g $ x; B[f $ lift_k0] }
//! ```
//!
//! The explorer ([`crate::explore::lets`]) then computes the value by one kernel and explores
//! the rest as a kernel of its own with `lift_k0` a parameter, so the algorithm follows from
//! where the point sits: after `slide2` it materialises the windows (im2col), before it the
//! padded input (direct convolution over a copy). The value must be computable before the
//! kernel runs: it may read the kernel's parameters and the body's leading `let`s, not a
//! variable of an enclosing lambda.

use super::memory::copy_of;
use super::{node_at, replace_at, PointResult, Site};
use crate::ir::{Expr, ExprKind, Pat};
use crate::rewrite::build::{self, compose, ident};
use crate::rewrite::RewriteCtx;

/// The prefix of the names of materialised values.
pub(crate) const PREFIX: &str = "lift_k";

/// `kernel_fission` on data `f o g $ x` (or `f $ x`): `{ let lift_k = copy $ (g $ x); f $
/// lift_k }` in place (see the module docs; [`hoist`] then moves the `let` to the top of the
/// body). Nested points go around `f $ lift_k`.
pub(crate) fn kernel_fission(core: &Expr, site: &Site<'_>) -> PointResult {
    const DATA: &str = "expects data `f o g $ x`: `g $ x` is computed by a kernel of its own \
                        (a function alone gives no data to compute)";
    let ExprKind::Apply(f, xs) = &core.kind else {
        return Err(DATA.into());
    };
    let [x] = xs.as_slice() else {
        return Err(DATA.into());
    };
    let fs = build::chain(f);
    let (head, rest) = fs.split_first().ok_or(DATA)?;
    let (value, ty) = match rest {
        [] => (build::untyped(x), x.ty.clone()),
        [g, ..] => (
            Expr::new(
                ExprKind::Apply(Box::new(compose(rest.to_vec(), f.span)), vec![x.clone()]),
                core.span,
            ),
            g.ty.clone(),
        ),
    };
    let ty = ty.ok_or("the type of the materialised value is unknown")?;
    if ty.as_array().is_none() {
        return Err(format!("expects an array to materialise, found {ty}"));
    }
    if let Some(n) = build::free_names(&value)
        .into_iter()
        .find(|n| site.bound.contains(n))
    {
        return Err(format!(
            "the materialised value reads `{n}`, bound inside the kernel body: a kernel of its \
             own computes it before the rest, from the kernel's parameters"
        ));
    }
    let s = core.span;
    let name = site.ctx.fresh(PREFIX, &[site.body]);
    let copy = Expr::new(ExprKind::Apply(Box::new(copy_of(&ty, s)), vec![value]), s);
    let rest = Expr::new(
        ExprKind::Apply(Box::new(build::untyped(head)), vec![ident(&name, s)]),
        s,
    );
    Ok(Expr::new(
        ExprKind::Let(
            Pat::Name(name, s),
            Box::new(copy),
            Box::new(site.rewrap(rest)),
        ),
        s,
    ))
}

/// How many steps of `path` (from `body`) go down the body's leading `let`s (into their
/// bodies): where a hoisted `let` is placed.
pub(super) fn top_depth(body: &Expr, path: &[usize]) -> usize {
    let mut e = body;
    let mut d = 0;
    while let (ExprKind::Let(_, _, b), Some(1)) = (&e.kind, path.get(d)) {
        e = b;
        d += 1;
    }
    d
}

/// The names bound by lambdas and `let`s on `path` below depth `from` (in scope at the node).
pub(super) fn bound_on_path(body: &Expr, path: &[usize], from: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut e = body;
    for (d, &i) in path.iter().enumerate() {
        if d >= from {
            match &e.kind {
                ExprKind::Lambda(ps, _) => out.extend(ps.iter().flat_map(build::pat_names)),
                ExprKind::Let(p, _, _) if i == 1 => out.extend(build::pat_names(p)),
                _ => {}
            }
        }
        match crate::rewrite::walk::children(e).get(i) {
            Some(c) => e = c,
            None => break,
        }
    }
    out
}

/// `body` with the `let` at `path` (written by [`kernel_fission`]) moved up to depth `top`
/// of the path (below the body's leading `let`s, above everything else).
pub(super) fn hoist(body: &Expr, path: &[usize], top: usize, ctx: &RewriteCtx) -> Option<Expr> {
    let node = node_at(body, path)?;
    let ExprKind::Let(p, v, b) = &node.kind else {
        return None;
    };
    let without = replace_at(body, &path.to_vec(), (**b).clone(), ctx)?;
    let above = path[..top].to_vec();
    let scope = node_at(&without, &above)?.clone();
    let new = Expr::new(
        ExprKind::Let(p.clone(), v.clone(), Box::new(build::untyped(&scope))),
        node.span,
    );
    replace_at(&without, &above, new, ctx)
}

/// A `kernel_fission` point on a function moved onto the data it applies to: `A o #[p] F o H
/// $ x ⇒ A $ #[p] (F o H $ x)` (and `#[p] F $ x ⇒ #[p] (F $ x)`), so that the kernel boundary
/// falls at the input of the annotated function's first function (thesis: `f o g ⇒ f o
/// oclKernel(materialise(g))`). `None` if the point is not on a function applied to data.
pub(super) fn onto_data(body: &Expr, path: &[usize], ctx: &RewriteCtx) -> Option<Expr> {
    let point = node_at(body, path)?;
    let ExprKind::Point(name, args, inner) = &point.kind else {
        return None;
    };
    let mut core: &Expr = inner;
    while let ExprKind::Point(_, _, c) = &core.kind {
        core = c;
    }
    if !super::is_function(core) {
        return None;
    }
    let (&i, parent_path) = path.split_last()?;
    let parent = node_at(body, parent_path)?;
    let pointed = |data: Expr| {
        let kind = ExprKind::Point(name.clone(), args.clone(), Box::new(data));
        Expr::new(kind, point.span)
    };
    let apply = |f: Expr, x: Expr| Expr::new(ExprKind::Apply(Box::new(f), vec![x]), point.span);
    match &parent.kind {
        ExprKind::Apply(_, xs) if i == 0 && xs.len() == 1 => {
            let new = pointed(apply(build::untyped(inner), xs[0].clone()));
            replace_at(body, &parent_path.to_vec(), new, ctx)
        }
        ExprKind::Compose(fs) => {
            let (&j, app_path) = parent_path.split_last()?;
            let ExprKind::Apply(_, xs) = &node_at(body, app_path)?.kind else {
                return None;
            };
            let [x] = xs.as_slice() else { return None };
            if j != 0 {
                return None;
            }
            let mut chain = vec![build::untyped(inner)];
            chain.extend(fs[i + 1..].iter().cloned());
            let data = pointed(apply(compose(chain, point.span), x.clone()));
            let new = match &fs[..i] {
                [] => data,
                outer => apply(compose(outer.to_vec(), point.span), data),
            };
            replace_at(body, &app_path.to_vec(), new, ctx)
        }
        _ => None,
    }
}
