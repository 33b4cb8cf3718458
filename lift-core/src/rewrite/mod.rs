//! Rewrite rules as first-class values and ELEVATE-style strategies over them.
//!
//! A [`Rule`] is a named, documented, semantics-preserving transformation applied at the root of
//! an expression: it gives `None` when its pattern or its side condition does not match.
//! Rules work on untyped trees; side conditions that need a type read [`Expr::ty`] (set by the
//! checker) or [`RewriteCtx::input`] (the type of the data the expression is applied to, found
//! by the traversals of [`strategy`]). A rule that cannot decide its side condition for lack of a
//! type does not match. Results are re-type-checked by callers ([`rewrite_kernel`] does it).
//!
//! Rule families, one module each: [`algorithmic`] (split-join, fusion, fission),
//! [`reduction`], [`iterate`], [`reorder`], [`interchange`], [`simplify`], [`vectorize`],
//! [`lowering`] (low-level maps, unrolling, address spaces), [`stencil`] (overlapped tiling),
//! [`transpose`] (layout changes staged through local memory in tiles), [`blocking`] (the
//! blocked matrix product) and [`views`] (convolutions as products, im2col).
//! Strategies ([`strategy`]) combine and traverse rules.

pub mod algorithmic;
pub mod blocking;
pub(crate) mod build;
pub mod catalogue;
pub(crate) mod dsl;
pub(crate) mod epilogue;
pub mod filter;
pub mod interchange;
pub mod iterate;
pub mod lowering;
pub mod names;
pub mod partial;
pub mod points;
pub mod reduction;
pub mod rename;
pub mod reorder;
pub mod simplify;
pub mod slices;
pub mod stencil;
pub mod strategy;
pub mod transpose;
pub mod vectorize;
pub mod views;
pub(crate) mod walk;

#[cfg(test)]
pub(crate) mod tests;

use crate::arith::Facts;
use crate::error::CompileError;
use crate::ir::{Expr, ExprKind, Kernel, Program};
use crate::prim::Prim;
use crate::typeck::{check_program, Cond, KernelInfo};
use crate::types::Type;
use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::fmt;
use std::rc::Rc;

/// What side conditions see at the location a rule is tried.
#[derive(Clone, Debug, Default)]
pub struct RewriteCtx {
    /// Divisibility facts about the sizes (from the kernel's launch-time preconditions).
    pub facts: Facts,
    /// The type of the data the expression at this location is applied to, where known.
    pub input: Option<Type>,
    /// The primitives whose function argument encloses this location, outermost first, with
    /// their dimension (0 for primitives without one).
    pub enclosing: Vec<(Prim, usize)>,
    /// The fresh-name counter, shared by every context derived from one root.
    fresh: Rc<Cell<u32>>,
    /// The names of the whole kernel and every fresh name given out so far, shared by every
    /// context derived from one root: a fresh name is none of them.
    taken: Rc<RefCell<HashSet<String>>>,
}

impl RewriteCtx {
    /// A context with the given facts, at the root of a kernel body.
    pub fn new(facts: Facts) -> RewriteCtx {
        RewriteCtx {
            facts,
            ..RewriteCtx::default()
        }
    }

    /// A context for kernel `k` of `prog` (`info` its checker output): its divisibility
    /// preconditions become facts, and fresh names avoid every name of the kernel.
    pub fn for_kernel(prog: &Program, k: &Kernel, info: &KernelInfo) -> RewriteCtx {
        let ctx = RewriteCtx::new(RewriteCtx::facts_of(info));
        ctx.taken.borrow_mut().extend(names::of_kernel(prog, k));
        ctx
    }

    /// The divisibility facts of a checked kernel's preconditions.
    pub fn facts_of(info: &KernelInfo) -> Facts {
        let mut facts = Facts::new();
        for p in &info.preconditions {
            if let Cond::Divisible(n, d) = &p.cond {
                facts.assume_divisible(n, d);
            }
        }
        facts
    }

    /// The same context at a location whose input type is `input`.
    pub fn with_input(&self, input: Option<Type>) -> RewriteCtx {
        RewriteCtx {
            input,
            ..self.clone()
        }
    }

    /// A variable name `{base}{k}` that occurs in none of `avoid`, nowhere in the kernel of
    /// the root context ([`RewriteCtx::for_kernel`]) and was given out by no context of
    /// that root before: a binder that cannot capture anything.
    pub fn fresh(&self, base: &str, avoid: &[&Expr]) -> String {
        loop {
            let k = self.fresh.get();
            self.fresh.set(k.wrapping_add(1));
            let name = format!("{base}{k}");
            if !self.taken.borrow().contains(&name)
                && !avoid.iter().any(|e| names::mentions(e, &name))
            {
                self.taken.borrow_mut().insert(name.clone());
                return name;
            }
        }
    }

    /// Is this location inside the function argument of `p` (of dimension `d` if given)?
    pub fn inside(&self, p: Prim, d: Option<usize>) -> bool {
        self.enclosing
            .iter()
            .any(|&(q, e)| q == p && d.is_none_or(|d| d == e))
    }
}

/// The function behind a [`Rule`] or a [`strategy::Strategy`].
pub type RewriteFn = dyn Fn(&Expr, &RewriteCtx) -> Option<Expr>;

/// A rewrite rule: `LHS ⇒ RHS` with a side condition, applied at the root of an expression.
#[derive(Clone)]
pub struct Rule {
    /// Short name (`split_join`).
    pub name: &'static str,
    /// The rule as `LHS ⇒ RHS`, with its side condition.
    pub doc: &'static str,
    apply: Rc<RewriteFn>,
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rule({})", self.name)
    }
}

/// What a chain rule gives for a pair of adjacent functions: the replacement sequence
/// (outermost first; empty for the identity).
pub type PairFn = dyn Fn(&Expr, &Expr, &RewriteCtx) -> Option<Vec<Expr>>;

impl Rule {
    /// A rule matching at the root of an expression.
    pub fn new(
        name: &'static str,
        doc: &'static str,
        apply: impl Fn(&Expr, &RewriteCtx) -> Option<Expr> + 'static,
    ) -> Rule {
        Rule {
            name,
            doc,
            apply: Rc::new(apply),
        }
    }

    /// A rule on two adjacent functions `f o g` of a composition chain: it matches the first
    /// adjacent pair of a chain `... o f o g o ...` for which `pair(f, g, ctx)` succeeds (with
    /// `ctx.input` the input type of `g`) and splices the replacement in place of the pair.
    pub fn chain(
        name: &'static str,
        doc: &'static str,
        pair: impl Fn(&Expr, &Expr, &RewriteCtx) -> Option<Vec<Expr>> + 'static,
    ) -> Rule {
        Rule::new(name, doc, move |e, ctx| chain_apply(&pair, e, ctx))
    }

    /// Applies the rule at the root of `e`; `None` when it does not match.
    pub fn apply(&self, e: &Expr, ctx: &RewriteCtx) -> Option<Expr> {
        (self.apply)(e, ctx)
    }
}

/// Scans a composition chain for the first adjacent pair the pair function rewrites.
fn chain_apply(pair: &PairFn, e: &Expr, ctx: &RewriteCtx) -> Option<Expr> {
    let ExprKind::Compose(fs) = &e.kind else {
        return None;
    };
    let fs = build::flatten(fs);
    for i in 0..fs.len().saturating_sub(1) {
        let input = match fs.get(i + 2) {
            Some(next) => next.ty.clone(),
            None => ctx.input.clone(),
        };
        let pctx = ctx.with_input(input);
        if let Some(rep) = pair(&fs[i], &fs[i + 1], &pctx) {
            let mut out: Vec<Expr> = fs[..i].to_vec();
            out.extend(rep.iter().map(build::untyped));
            out.extend_from_slice(&fs[i + 2..]);
            return Some(build::compose(out, e.span));
        }
    }
    None
}

/// Why [`rewrite_kernel`] failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum RewriteError {
    /// No kernel of that name.
    #[error("unknown kernel `{0}`")]
    UnknownKernel(String),
    /// The program does not type-check before rewriting.
    #[error("before rewriting: {0}")]
    Before(CompileError),
    /// The strategy failed on the kernel body.
    #[error("the strategy does not apply to kernel `{0}`")]
    NoMatch(String),
    /// The rewritten kernel does not type-check (a side condition left to the checker failed).
    #[error("after rewriting: {0}")]
    After(CompileError),
}

/// Type-checks `prog`, applies `s` to the body of kernel `kernel` and type-checks the result
/// (which keeps the declared result type). Gives the rewritten, checked program.
pub fn rewrite_kernel(
    prog: &Program,
    kernel: &str,
    s: &strategy::Strategy,
) -> Result<Program, RewriteError> {
    let mut p = prog.clone();
    let infos = check_program(&mut p).map_err(RewriteError::Before)?;
    let idx = p
        .kernels
        .iter()
        .position(|k| k.name == kernel)
        .ok_or_else(|| RewriteError::UnknownKernel(kernel.to_string()))?;
    let ctx = RewriteCtx::for_kernel(&p, &p.kernels[idx], &infos[idx]);
    let body = s
        .apply(&p.kernels[idx].body, &ctx)
        .ok_or_else(|| RewriteError::NoMatch(kernel.to_string()))?;
    p.kernels[idx].body = body;
    check_program(&mut p).map_err(RewriteError::After)?;
    Ok(p)
}
