//! The type checker: infers the type of every data expression, checks every primitive's
//! typing rule and the low-level nesting rules, and collects the size conditions that can only
//! be decided at launch time.

mod expr;
mod extents;
mod nesting;
pub mod rules;
mod scalar;
pub(crate) use scalar::is_builtin;

use crate::arith::{Facts, Nat};
use crate::error::{CResult, CompileError, ErrorKind};
use crate::ir::{Kernel, Pat, Program, UserFun};
use crate::types::Type;
use proc_macro2::Span;
use std::fmt;

/// A size condition that must hold at launch (e.g. `N % 128 == 0` for symbolic `N`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Precondition {
    /// The condition.
    pub cond: Cond,
    /// The primitive that requires it (`split`).
    pub origin: String,
    /// Why it requires it.
    pub reason: String,
    /// Where that primitive is (not serialised: read back as the call site).
    #[serde(skip, default = "Span::call_site")]
    pub span: Span,
}

/// A launch-time size condition.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Cond {
    /// `n % d == 0`.
    Divisible(Nat, Nat),
    /// `a <= b`.
    Le(Nat, Nat),
}

impl Cond {
    /// Does the condition hold with the sizes of `env`? (An arithmetic error, such as a size
    /// `env` does not give, counts as no.)
    pub fn holds(&self, env: &dyn Fn(&str) -> Option<i64>) -> bool {
        match self {
            Cond::Divisible(a, b) => {
                matches!((a.eval(env), b.eval(env)), (Ok(a), Ok(b)) if b != 0 && a % b == 0)
            }
            Cond::Le(a, b) => matches!((a.eval(env), b.eval(env)), (Ok(a), Ok(b)) if a <= b),
        }
    }
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cond::Divisible(n, d) => write!(f, "({n}) % ({d}) == 0"),
            Cond::Le(a, b) => write!(f, "{a} <= {b}"),
        }
    }
}

impl fmt::Display for Precondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.origin, self.reason, self.cond)
    }
}

/// What the checker learnt about one kernel.
#[derive(Clone, Debug)]
pub struct KernelInfo {
    /// Kernel name.
    pub name: String,
    /// The inferred result type (equivalent to the declared one).
    pub result: Type,
    /// Conditions checked at launch time, before anything runs.
    pub preconditions: Vec<Precondition>,
    /// Parameters used as `filter` indices: `run` checks each value (the device clamps).
    pub index_checks: Vec<IndexCheck>,
    /// The flat scalar counts of every array the kernel computes with: the launcher
    /// chooses 64-bit index arithmetic when one exceeds [`INDEX32_LIMIT`] at launch.
    pub extents: Vec<Nat>,
}

/// The largest flat extent a kernel indexes with 32-bit arithmetic: a quarter of `i32::MAX`,
/// so that sums of an index and an offset, grid-stride steps past the end and the padding of
/// tiled candidates stay within `int`.
pub const INDEX32_LIMIT: i64 = i32::MAX as i64 / 4;

/// An integer array parameter whose values index an array of `len` elements (`filter`).
#[derive(Clone, Debug)]
pub struct IndexCheck {
    /// The parameter.
    pub param: String,
    /// The length of the array it indexes.
    pub len: Nat,
}

/// The parameters used directly as the indices of a `filter` in `body`.
fn index_checks(body: &crate::ir::Expr, params: &[crate::ir::Param]) -> Vec<IndexCheck> {
    let mut out: Vec<IndexCheck> = crate::ir::children(body)
        .into_iter()
        .flat_map(|c| index_checks(c, params))
        .collect();
    if let crate::ir::ExprKind::Apply(f, xs) = &body.kind {
        if let (Some((crate::prim::Prim::Filter, _)), [x, ids]) = (f.as_prim(), xs.as_slice()) {
            if let (crate::ir::ExprKind::Ident(name), Some(Type::Array(_, len))) =
                (&ids.kind, &x.ty)
            {
                if params.iter().any(|p| &p.name == name) {
                    out.push(IndexCheck {
                        param: name.clone(),
                        len: len.clone(),
                    });
                }
            }
        }
    }
    out
}

/// Type-checks a whole program in place (setting [`crate::ir::Expr::ty`]).
pub fn check_program(prog: &mut Program) -> CResult<Vec<KernelInfo>> {
    check_unique_names(prog)?;
    let funs = prog.funs.clone();
    for f in &mut prog.funs {
        Checker::new(&funs).user_fun(f)?;
    }
    let funs = prog.funs.clone();
    prog.kernels
        .iter_mut()
        .map(|k| Checker::new(&funs).kernel(k))
        .collect()
}

/// The type kernel `k`'s body has (its declared result is not consulted), with the user
/// functions `funs` in scope: for kernels built by the compiler whose result type is not
/// known in advance (the stages of kernel fission).
pub fn infer_result(funs: &[UserFun], k: &Kernel) -> CResult<Type> {
    let mut c = Checker::new(funs);
    c.in_kernel = true;
    for p in &k.params {
        c.scopes.push((p.name.clone(), p.ty.clone()));
    }
    let mut body = k.body.clone();
    let t = c.data(&mut body, None)?;
    Ok(t.simplify_with(&c.facts))
}

fn check_unique_names(prog: &Program) -> CResult<()> {
    let mut seen = std::collections::HashSet::new();
    let items = prog.funs.iter().map(|f| (&f.name, f.span));
    for (name, span) in items.chain(prog.kernels.iter().map(|k| (&k.name, k.span))) {
        if !seen.insert(name) {
            return Err(CompileError::new(
                ErrorKind::Syntax,
                span,
                format!("item `{name}` is defined twice"),
            ));
        }
    }
    Ok(())
}

/// The state of checking one kernel or user function.
pub struct Checker<'a> {
    funs: &'a [UserFun],
    scopes: Vec<(String, Type)>,
    /// Whether primitives may be used (false inside user functions).
    in_kernel: bool,
    /// Size facts established so far (divisibility from `split`, ...).
    pub facts: Facts,
    /// Conditions left to launch time.
    pub preconditions: Vec<Precondition>,
}

impl<'a> Checker<'a> {
    fn new(funs: &'a [UserFun]) -> Checker<'a> {
        Checker {
            funs,
            scopes: Vec::new(),
            in_kernel: false,
            facts: Facts::new(),
            preconditions: Vec::new(),
        }
    }

    fn kernel(mut self, k: &mut Kernel) -> CResult<KernelInfo> {
        self.in_kernel = true;
        for (i, (s, span)) in k.sizes.iter().enumerate() {
            if k.sizes[..i].iter().any(|(t, _)| t == s) {
                return Err(CompileError::new(
                    ErrorKind::Syntax,
                    *span,
                    format!("kernel `{}`: size variable `{s}` declared twice", k.name),
                ));
            }
        }
        for p in &k.params {
            self.check_declared_type(&p.ty, p.span)?;
            self.scopes.push((p.name.clone(), p.ty.clone()));
        }
        match &k.ret {
            // The whole result may have a run-time length (`filter_seq`).
            Type::Capped(e, n) => {
                self.check_declared_type(&Type::array((**e).clone(), n.clone()), k.ret_span)?
            }
            t => self.check_declared_type(t, k.ret_span)?,
        }
        let inferred = self.data(&mut k.body, Some(&k.ret))?;
        let inferred = inferred.simplify_with(&self.facts);
        if !inferred.equiv(&k.ret, &self.facts) {
            return Err(CompileError::new(
                ErrorKind::ResultMismatch,
                k.ret_span,
                format!(
                    "kernel `{}`: declared result type differs from the inferred one: {} vs {}",
                    k.name, k.ret, inferred
                ),
            ));
        }
        nesting::check(&k.body)?;
        let extents = extents::extents(k, &inferred);
        Ok(KernelInfo {
            name: k.name.clone(),
            result: inferred,
            preconditions: self.preconditions,
            index_checks: index_checks(&k.body, &k.params),
            extents,
        })
    }

    fn user_fun(mut self, f: &mut UserFun) -> CResult<()> {
        for p in &f.params {
            self.check_declared_type(&p.ty, p.span)?;
            self.scopes.push((p.name.clone(), p.ty.clone()));
        }
        let crate::ir::FunBody::Expr(body) = &mut f.body else {
            return Ok(());
        };
        let got = self.data(body, Some(&f.ret))?;
        if !got.equiv(&f.ret, &self.facts) {
            return Err(CompileError::new(
                ErrorKind::ResultMismatch,
                body.span,
                format!(
                    "fn `{}`: declared result type differs from the inferred one: {} vs {}",
                    f.name, f.ret, got
                ),
            ));
        }
        Ok(())
    }

    /// Rejects zero-length array types in declarations, and capped arrays (only a kernel's
    /// whole result may be one).
    fn check_declared_type(&self, ty: &Type, span: Span) -> CResult<()> {
        match ty {
            Type::Capped(..) => Err(CompileError::new(
                ErrorKind::Unsupported,
                span,
                format!(
                    "array type {ty}: only the whole result of a kernel may have a run-time \
                     length (`filter_seq`)"
                ),
            )),
            Type::Array(e, n) => {
                if n.as_cst().is_some_and(|c| c <= 0) {
                    return Err(CompileError::new(
                        ErrorKind::ZeroSize,
                        span,
                        format!("array type: size must be positive: {ty}"),
                    ));
                }
                self.check_declared_type(e, span)
            }
            Type::Tuple(ts) => ts
                .iter()
                .try_for_each(|t| self.check_declared_type(t, span)),
            _ => Ok(()),
        }
    }

    /// Binds a lambda or `let` pattern to a type.
    fn bind(&mut self, pat: &Pat, ty: &Type) -> CResult<()> {
        match pat {
            Pat::Name(n, _) => {
                self.scopes.push((n.clone(), ty.clone()));
                Ok(())
            }
            Pat::Tuple(ps, span) => match ty {
                Type::Tuple(ts) if ts.len() == ps.len() => {
                    ps.iter().zip(ts).try_for_each(|(p, t)| self.bind(p, t))
                }
                _ => Err(CompileError::new(
                    ErrorKind::TypeMismatch,
                    *span,
                    format!(
                        "pattern: a tuple pattern of {} elements cannot bind {ty}",
                        ps.len()
                    ),
                )),
            },
        }
    }

    fn lookup(&self, name: &str) -> Option<&Type> {
        self.scopes
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    }

    /// Records a launch-time condition, or fails if it is provably false.
    fn require(
        &mut self,
        cond: Cond,
        (origin, reason): (&str, &str),
        span: Span,
        kind: ErrorKind,
    ) -> CResult<()> {
        let decided = match &cond {
            Cond::Divisible(n, d) => self.facts.divisible(n, d),
            Cond::Le(a, b) => self.facts.le(a, b),
        };
        match decided {
            Some(true) => Ok(()),
            Some(false) => {
                let what = match &cond {
                    Cond::Divisible(n, d) => format!("{n} % {d} != 0"),
                    Cond::Le(a, b) => format!("{a} > {b}"),
                };
                Err(CompileError::new(
                    kind,
                    span,
                    format!("{origin}: {reason}: {what}"),
                ))
            }
            None => {
                if let Cond::Divisible(n, d) = &cond {
                    self.facts.assume_divisible(n, d);
                }
                if !self.preconditions.iter().any(|p| p.cond == cond) {
                    self.preconditions.push(Precondition {
                        cond,
                        origin: origin.to_string(),
                        reason: reason.to_string(),
                        span,
                    });
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests;
