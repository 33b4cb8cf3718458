//! ELEVATE-style strategies: values that transform an expression and may fail.
//!
//! Combinators: [`id`], [`fail`], [`seq`], [`left_choice`], [`try_`], [`repeat`]; traversals
//! over immediate sub-expressions ([`all`], [`one`]) and whole trees ([`top_down`],
//! [`bottom_up`], [`normalize`]); locations ([`at`], [`locations`]). [`rule`] lifts a
//! [`Rule`]. A traversal gives every sub-expression the context it sees (its input type and the
//! primitives enclosing it), so rules below the root can check their side conditions.

use super::walk::{child_ctx, children, replace_child};
use super::{RewriteCtx, RewriteFn, Rule};
use crate::ir::Expr;
use std::rc::Rc;

/// The most steps [`repeat`] takes (so that `repeat` of a non-terminating rule terminates).
pub const MAX_REPEAT: usize = 1000;

/// A location: child indices from the root (see `children` in the `walk` module for their order).
pub type Path = Vec<usize>;

/// A strategy: transforms an expression or fails (`None`).
#[derive(Clone)]
pub struct Strategy(Rc<RewriteFn>);

impl Strategy {
    /// A strategy from a function.
    pub fn new(f: impl Fn(&Expr, &RewriteCtx) -> Option<Expr> + 'static) -> Self {
        Strategy(Rc::new(f))
    }

    /// Applies the strategy to `e` in context `ctx`.
    pub fn apply(&self, e: &Expr, ctx: &RewriteCtx) -> Option<Expr> {
        (self.0)(e, ctx)
    }
}

/// A rule as a strategy: applies it at the root.
pub fn rule(r: Rule) -> Strategy {
    Strategy::new(move |e, ctx| r.apply(e, ctx))
}

/// Always succeeds, unchanged.
pub fn id() -> Strategy {
    Strategy::new(|e, _| Some(e.clone()))
}

/// Always fails.
pub fn fail() -> Strategy {
    Strategy::new(|_, _| None)
}

/// `a` then `b`; fails if either fails.
pub fn seq(a: Strategy, b: Strategy) -> Strategy {
    Strategy::new(move |e, ctx| b.apply(&a.apply(e, ctx)?, ctx))
}

/// `a`, or `b` where `a` fails.
pub fn left_choice(a: Strategy, b: Strategy) -> Strategy {
    Strategy::new(move |e, ctx| a.apply(e, ctx).or_else(|| b.apply(e, ctx)))
}

/// `s`, or the expression unchanged where `s` fails.
pub fn try_(s: Strategy) -> Strategy {
    left_choice(s, id())
}

/// `s` as long as it succeeds (at most [`MAX_REPEAT`] times); always succeeds.
pub fn repeat(s: Strategy) -> Strategy {
    Strategy::new(move |e, ctx| {
        let mut cur = e.clone();
        for _ in 0..MAX_REPEAT {
            match s.apply(&cur, ctx) {
                Some(next) => cur = next,
                None => break,
            }
        }
        Some(cur)
    })
}

/// `s` on every immediate sub-expression; fails if it fails on one.
pub fn all(s: Strategy) -> Strategy {
    Strategy::new(move |e, ctx| {
        let mut cur = e.clone();
        for i in 0..children(e).len() {
            let c = s.apply(children(&cur)[i], &child_ctx(&cur, i, ctx))?;
            cur = replace_child(&cur, i, c)?;
        }
        Some(cur)
    })
}

/// `s` on the first immediate sub-expression where it succeeds; fails if none.
pub fn one(s: Strategy) -> Strategy {
    Strategy::new(move |e, ctx| one_with(e, ctx, &|c, cctx| s.apply(c, cctx)))
}

type Visit<'a> = dyn Fn(&Expr, &RewriteCtx) -> Option<Expr> + 'a;

fn one_with(e: &Expr, ctx: &RewriteCtx, f: &Visit<'_>) -> Option<Expr> {
    let cs = children(e);
    cs.iter()
        .enumerate()
        .find_map(|(i, c)| Some((i, f(c, &child_ctx(e, i, ctx))?)))
        .and_then(|(i, new)| replace_child(e, i, new))
}

/// `s` at the first location, in pre-order, where it succeeds.
pub fn top_down(s: Strategy) -> Strategy {
    Strategy::new(move |e, ctx| top_down_at(&s, e, ctx))
}

fn top_down_at(s: &Strategy, e: &Expr, ctx: &RewriteCtx) -> Option<Expr> {
    s.apply(e, ctx)
        .or_else(|| one_with(e, ctx, &|c, cctx| top_down_at(s, c, cctx)))
}

/// `s` at the first location, in post-order, where it succeeds.
pub fn bottom_up(s: Strategy) -> Strategy {
    Strategy::new(move |e, ctx| bottom_up_at(&s, e, ctx))
}

fn bottom_up_at(s: &Strategy, e: &Expr, ctx: &RewriteCtx) -> Option<Expr> {
    one_with(e, ctx, &|c, cctx| bottom_up_at(s, c, cctx)).or_else(|| s.apply(e, ctx))
}

/// `repeat(top_down(s))`: `s` wherever it applies until it applies nowhere.
pub fn normalize(s: Strategy) -> Strategy {
    repeat(top_down(s))
}

/// `s` at location `path`; fails if there is no such location or `s` fails there.
pub fn at(path: Path, s: Strategy) -> Strategy {
    Strategy::new(move |e, ctx| at_path(&path, &s, e, ctx))
}

fn at_path(path: &[usize], s: &Strategy, e: &Expr, ctx: &RewriteCtx) -> Option<Expr> {
    match path.split_first() {
        None => s.apply(e, ctx),
        Some((&i, rest)) => {
            let c = *children(e).get(i)?;
            let new = at_path(rest, s, c, &child_ctx(e, i, ctx))?;
            replace_child(e, i, new)
        }
    }
}

/// Every location where `s` succeeds, in pre-order. Rewriting at one location changes only
/// the paths inside it, which come after it in this list: to rewrite at several, go from the
/// last to the first.
pub fn locations(s: &Strategy, e: &Expr, ctx: &RewriteCtx) -> Vec<Path> {
    let mut out = Vec::new();
    collect(s, e, ctx, &mut Vec::new(), &mut out);
    out
}

fn collect(s: &Strategy, e: &Expr, ctx: &RewriteCtx, path: &mut Path, out: &mut Vec<Path>) {
    if s.apply(e, ctx).is_some() {
        out.push(path.clone());
    }
    for (i, c) in children(e).into_iter().enumerate() {
        path.push(i);
        collect(s, c, &child_ctx(e, i, ctx), path, out);
        path.pop();
    }
}
