//! Typed constructors for the right-hand sides of rules, with binders fresh by construction.
//!
//! A right-hand side is built as data, never written as program text and parsed back: a
//! [`Builder`] makes primitives, compositions and applications, and makes every binder with
//! [`Builder::lam`] (and its pair and two-parameter forms), which asks the rewrite context for
//! a name fresh for the whole kernel and for every part the rule puts in (as shine's
//! `fun(x => ...)`): the closure receives the bound variable and builds the body with it, so
//! no binder of a rule can capture a name of the program, whatever the user called things.

use super::build;
use super::RewriteCtx;
use crate::arith::Nat;
use crate::ir::{Expr, ExprKind, Pat, PrimArg};
use crate::prim::Prim;
use proc_macro2::Span;

/// Builds expressions at one span, with binders fresh for a kernel and for the parts `avoid`.
pub(crate) struct Builder<'a> {
    ctx: &'a RewriteCtx,
    avoid: Vec<&'a Expr>,
    /// The span of every node built.
    pub s: Span,
}

impl<'a> Builder<'a> {
    /// A builder whose binders are fresh for `ctx`'s kernel and for the parts `avoid` (the
    /// matched sub-expressions the right-hand side will contain).
    pub fn new(ctx: &'a RewriteCtx, avoid: Vec<&'a Expr>, s: Span) -> Builder<'a> {
        Builder { ctx, avoid, s }
    }

    /// A fresh variable named after `base`: its name and a reference to it.
    fn var(&self, base: &str) -> (Pat, Expr) {
        let n = self.ctx.fresh(base, &self.avoid);
        (Pat::Name(n.clone(), self.s), build::ident(&n, self.s))
    }

    fn lambda(&self, ps: Vec<Pat>, body: Expr) -> Expr {
        Expr::new(ExprKind::Lambda(ps, Box::new(body)), self.s)
    }

    /// `|x| body(x)`.
    pub fn lam(&self, x: &str, body: impl FnOnce(Expr) -> Expr) -> Expr {
        let (p, v) = self.var(x);
        self.lambda(vec![p], body(v))
    }

    /// `|x, y| body(x, y)`.
    pub fn lam2(&self, x: &str, y: &str, body: impl FnOnce(Expr, Expr) -> Expr) -> Expr {
        let ((px, vx), (py, vy)) = (self.var(x), self.var(y));
        self.lambda(vec![px, py], body(vx, vy))
    }

    /// `|(x, y)| body(x, y)`.
    pub fn lam_pair(&self, x: &str, y: &str, body: impl FnOnce(Expr, Expr) -> Expr) -> Expr {
        let ((px, vx), (py, vy)) = (self.var(x), self.var(y));
        let p = Pat::Tuple(vec![px, py], self.s);
        self.lambda(vec![p], body(vx, vy))
    }

    /// A primitive with its static arguments.
    pub fn prim(&self, p: Prim, args: Vec<PrimArg>) -> Expr {
        build::prim(p, args, self.s)
    }

    fn n(&self, k: i64) -> PrimArg {
        PrimArg::Nat(Nat::cst(k), self.s)
    }

    /// A primitive without static arguments (`join`, `transpose`, `as_scalar`, `id`).
    pub fn bare(&self, p: Prim) -> Expr {
        self.prim(p, Vec::new())
    }

    /// `p(f)` for a primitive with one function argument (`map`, `map_seq`, `to_local`).
    pub fn with(&self, p: Prim, f: Expr) -> Expr {
        self.prim(p, vec![PrimArg::Fun(f)])
    }

    /// `p(d, f)` for a map of dimension `d` (`map_wrg`, `map_lcl`).
    pub fn dim(&self, p: Prim, d: i64, f: Expr) -> Expr {
        self.prim(p, vec![self.n(d), PrimArg::Fun(f)])
    }

    /// `p(k)` for a primitive with one size argument (`split`, `as_vector`).
    pub fn sized(&self, p: Prim, k: i64) -> Expr {
        self.prim(p, vec![self.n(k)])
    }

    /// `split(k)`.
    pub fn split(&self, k: i64) -> Expr {
        self.sized(Prim::Split, k)
    }

    /// `p(f, z)` for a sequential fold (`reduce_seq`, `reduce_seq_unroll`).
    pub fn fold(&self, p: Prim, f: Expr, z: Expr) -> Expr {
        self.prim(p, vec![PrimArg::Fun(f), PrimArg::Value(z)])
    }

    /// `f1 o f2 o ...` (flattened; a single function as itself).
    pub fn o(&self, fs: Vec<Expr>) -> Expr {
        build::compose(fs, self.s)
    }

    /// `f $ x`.
    pub fn app(&self, f: Expr, x: Expr) -> Expr {
        build::apply1(f, x, self.s)
    }

    /// `zip(x, y)`.
    pub fn zip(&self, x: Expr, y: Expr) -> Expr {
        build::zip2(x, y, self.s)
    }

    /// `(x, y)`.
    pub fn pair(&self, x: Expr, y: Expr) -> Expr {
        Expr::new(ExprKind::Tuple(vec![x, y]), self.s)
    }

    /// `x.i`.
    pub fn proj(&self, x: &Expr, i: usize) -> Expr {
        Expr::new(ExprKind::Proj(Box::new(x.clone()), i), self.s)
    }
}
