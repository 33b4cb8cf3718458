//! Symbolic natural-number / integer arithmetic for array sizes and indices.
//!
//! This is the lift-rs counterpart of LIFT's `ArithExpr` library. Expressions
//! ([`Nat`]) are kept in a canonical *sum-of-products* normal form and are
//! simplified eagerly on construction, using range information attached to
//! variables ([`Var`]) to decide rules such as `x / y = 0` when `0 <= x < y`.
//!
//! Integer division and modulo follow C semantics (truncation toward zero,
//! the remainder has the sign of the dividend), because the printed form is
//! emitted verbatim into OpenCL C. Every simplification is sound under these
//! semantics; rules that only hold for non-negative operands are applied only
//! when the signs are proven from the variable ranges.
//!
//! One caveat: a simplification may remove a division by zero that the
//! unsimplified expression would have performed (e.g. `(x / y) * y + x % y`
//! becomes `x`). It never introduces one.

mod display;
mod divmod;
mod facts;
mod ops;
pub(crate) mod poly;
pub(crate) mod range;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_prop;

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

pub use display::CNat;
pub use facts::Facts;

/// What a variable stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum VarKind {
    /// A symbolic array length (e.g. `N`), range `[1, inf)` by default.
    Size,
    /// A tuning parameter chosen by the explorer, range `[1, inf)` by default.
    Tuning,
    /// A loop / thread index with an explicit range `[lo, hi)`.
    Index,
}

/// A named variable with a kind and a value range `[lo, hi)` (`hi` exclusive,
/// `None` = unbounded). The bounds may themselves be symbolic.
///
/// Equality, ordering and hashing only consider `(kind, name)`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Var {
    /// The name, printed verbatim in generated code.
    pub name: Arc<str>,
    /// What the variable stands for.
    pub kind: VarKind,
    /// Inclusive lower bound.
    pub lo: Arc<Nat>,
    /// Exclusive upper bound (`None` = unbounded).
    pub hi: Option<Arc<Nat>>,
}

impl Var {
    /// A variable of the given kind with range `[lo, hi)`.
    pub fn new(name: &str, kind: VarKind, lo: Nat, hi: Option<Nat>) -> Var {
        Var {
            name: Arc::from(name),
            kind,
            lo: Arc::new(lo),
            hi: hi.map(Arc::new),
        }
    }

    /// The variable as an expression.
    pub fn to_nat(&self) -> Nat {
        Nat::Var(self.clone())
    }
}

impl PartialEq for Var {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.name == other.name
    }
}

impl Eq for Var {}

impl Hash for Var {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.kind.hash(state);
        self.name.hash(state);
    }
}

impl PartialOrd for Var {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Var {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.kind, &*self.name).cmp(&(other.kind, &*other.name))
    }
}

/// A comparison operator used in conditionals ([`Nat::ite`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl CmpOp {
    /// The C spelling of the operator.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        }
    }

    /// Apply the comparison to two integers.
    pub fn apply(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        }
    }
}

/// The condition `lhs <op> rhs` of an [`Nat::Ite`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cond {
    /// Left operand.
    pub lhs: Nat,
    /// Comparison.
    pub op: CmpOp,
    /// Right operand.
    pub rhs: Nat,
}

/// A symbolic integer expression in canonical form.
///
/// Build values only through the constructors and operators of this module
/// (`Nat::cst`, `Nat::size_var`, `+`, `*`, `/`, ...): they keep the canonical
/// form, which makes the derived structural equality meaningful. The variants
/// are public for pattern matching by consumers (code generators). Serialised values (the
/// runtime's exploration cache) are read back in the canonical form they were written in.
///
/// Canonical form: a `Sum` has at least two terms, sorted, with the constant
/// term (if any) first; a `Prod` has at least two factors, an optional
/// constant coefficient (never 0 or 1) first, then the sorted atoms.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Nat {
    /// An integer constant.
    Cst(i64),
    /// A variable.
    Var(Var),
    /// A sum of terms.
    Sum(Vec<Nat>),
    /// A product of factors.
    Prod(Vec<Nat>),
    /// C integer division (truncating toward zero).
    Div(Box<Nat>, Box<Nat>),
    /// C remainder (sign of the dividend).
    Mod(Box<Nat>, Box<Nat>),
    /// Integer power `base ^ exponent` (exponent must be non-negative).
    Pow(Box<Nat>, Box<Nat>),
    /// Minimum of two expressions.
    Min(Box<Nat>, Box<Nat>),
    /// Maximum of two expressions.
    Max(Box<Nat>, Box<Nat>),
    /// `cond ? then : else`.
    Ite(Box<Cond>, Box<Nat>, Box<Nat>),
}

/// Errors raised when evaluating a [`Nat`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArithError {
    /// A variable has no value in the environment.
    #[error("unbound variable `{0}`")]
    Unbound(String),
    /// Division or modulo by zero.
    #[error("division by zero in `{0}`")]
    DivByZero(String),
    /// The result does not fit in an `i64`.
    #[error("arithmetic overflow in `{0}`")]
    Overflow(String),
    /// A power with a negative exponent.
    #[error("negative exponent in `{0}`")]
    NegativeExponent(String),
}

impl Nat {
    /// An integer constant.
    pub fn cst(c: i64) -> Nat {
        Nat::Cst(c)
    }

    /// A size variable (`VarKind::Size`) with range `[1, inf)`.
    pub fn size_var(name: &str) -> Nat {
        Nat::Var(Var::new(name, VarKind::Size, Nat::Cst(1), None))
    }

    /// A tuning variable (`VarKind::Tuning`) with range `[1, inf)`.
    pub fn tuning_var(name: &str) -> Nat {
        Nat::Var(Var::new(name, VarKind::Tuning, Nat::Cst(1), None))
    }

    /// An index variable (`VarKind::Index`) with range `[lo, hi)`.
    ///
    /// If the range provably holds a single value, that value is returned.
    pub fn index_var(name: &str, lo: Nat, hi: Nat) -> Nat {
        if (&hi - &lo).as_cst() == Some(1) {
            return lo;
        }
        Nat::Var(Var::new(name, VarKind::Index, lo, Some(hi)))
    }

    /// A variable as an expression (no single-value collapsing).
    pub fn var(v: Var) -> Nat {
        Nat::Var(v)
    }

    /// The constant value, if this is a constant.
    pub fn as_cst(&self) -> Option<i64> {
        match self {
            Nat::Cst(c) => Some(*c),
            _ => None,
        }
    }

    /// The variable, if this is a single variable.
    pub fn as_var(&self) -> Option<&Var> {
        match self {
            Nat::Var(v) => Some(v),
            _ => None,
        }
    }

    /// `self ^ e` (integer power; constant exponents are expanded).
    pub fn pow(&self, e: &Nat) -> Nat {
        ops::pow(self, e)
    }

    /// `min(self, o)`.
    ///
    /// Call it as `Nat::min(&a, &b)` or `(&a).min(&b)`: on an owned receiver
    /// `a.min(..)` resolves to [`Ord::min`] (structural order) instead.
    pub fn min(&self, o: &Nat) -> Nat {
        ops::min(self, o)
    }

    /// `max(self, o)`.
    ///
    /// Call it as `Nat::max(&a, &b)` or `(&a).max(&b)`: on an owned receiver
    /// `a.max(..)` resolves to [`Ord::max`] (structural order) instead.
    pub fn max(&self, o: &Nat) -> Nat {
        ops::max(self, o)
    }

    /// `ceil(self / d)` for non-negative `self` and positive `d`, built as
    /// `(self + d - 1) / d`.
    pub fn ceil_div(&self, d: &Nat) -> Nat {
        (self + d - 1) / d
    }

    /// `if lhs <op> rhs { a } else { b }`
    pub fn ite(lhs: &Nat, op: CmpOp, rhs: &Nat, a: &Nat, b: &Nat) -> Nat {
        ops::ite(lhs, op, rhs, a, b)
    }

    /// Evaluate with C semantics (truncating `/`, `%` with the sign of the
    /// dividend); `env` gives variable values by name.
    pub fn eval(&self, env: &dyn Fn(&str) -> Option<i64>) -> Result<i64, ArithError> {
        let ovf = || ArithError::Overflow(self.to_string());
        match self {
            Nat::Cst(c) => Ok(*c),
            Nat::Var(v) => env(&v.name).ok_or_else(|| ArithError::Unbound(v.name.to_string())),
            Nat::Sum(ts) => {
                let mut acc: i64 = 0;
                for t in ts {
                    acc = acc.checked_add(t.eval(env)?).ok_or_else(ovf)?;
                }
                Ok(acc)
            }
            Nat::Prod(fs) => {
                let mut acc: i64 = 1;
                for f in fs {
                    acc = acc.checked_mul(f.eval(env)?).ok_or_else(ovf)?;
                }
                Ok(acc)
            }
            Nat::Div(a, b) => {
                let x = a.eval(env)?;
                let y = b.eval(env)?;
                if y == 0 {
                    return Err(ArithError::DivByZero(self.to_string()));
                }
                x.checked_div(y).ok_or_else(ovf)
            }
            Nat::Mod(a, b) => {
                let x = a.eval(env)?;
                let y = b.eval(env)?;
                if y == 0 {
                    return Err(ArithError::DivByZero(self.to_string()));
                }
                x.checked_rem(y).ok_or_else(ovf)
            }
            Nat::Pow(b, e) => {
                let x = b.eval(env)?;
                let k = e.eval(env)?;
                if k < 0 {
                    return Err(ArithError::NegativeExponent(self.to_string()));
                }
                checked_pow(x, k).ok_or_else(ovf)
            }
            Nat::Min(a, b) => Ok(a.eval(env)?.min(b.eval(env)?)),
            Nat::Max(a, b) => Ok(a.eval(env)?.max(b.eval(env)?)),
            Nat::Ite(c, a, b) => {
                let l = c.lhs.eval(env)?;
                let r = c.rhs.eval(env)?;
                if c.op.apply(l, r) {
                    a.eval(env)
                } else {
                    b.eval(env)
                }
            }
        }
    }

    /// The variables occurring in the expression (not in variable ranges),
    /// sorted and deduplicated.
    pub fn free_vars(&self) -> Vec<Var> {
        let mut out = Vec::new();
        self.collect_vars(&mut out);
        out.sort();
        out.dedup();
        out
    }

    fn collect_vars(&self, out: &mut Vec<Var>) {
        match self {
            Nat::Cst(_) => {}
            Nat::Var(v) => out.push(v.clone()),
            Nat::Sum(xs) | Nat::Prod(xs) => xs.iter().for_each(|x| x.collect_vars(out)),
            Nat::Div(a, b) | Nat::Mod(a, b) | Nat::Pow(a, b) | Nat::Min(a, b) | Nat::Max(a, b) => {
                a.collect_vars(out);
                b.collect_vars(out);
            }
            Nat::Ite(c, a, b) => {
                c.lhs.collect_vars(out);
                c.rhs.collect_vars(out);
                a.collect_vars(out);
                b.collect_vars(out);
            }
        }
    }

    /// Does the variable `name` occur in the expression (or in the ranges of
    /// the variables occurring in it)?
    pub fn mentions(&self, name: &str) -> bool {
        match self {
            Nat::Cst(_) => false,
            Nat::Var(v) => {
                &*v.name == name
                    || v.lo.mentions(name)
                    || v.hi.as_ref().is_some_and(|h| h.mentions(name))
            }
            Nat::Sum(xs) | Nat::Prod(xs) => xs.iter().any(|x| x.mentions(name)),
            Nat::Div(a, b) | Nat::Mod(a, b) | Nat::Pow(a, b) | Nat::Min(a, b) | Nat::Max(a, b) => {
                a.mentions(name) || b.mentions(name)
            }
            Nat::Ite(c, a, b) => {
                c.lhs.mentions(name) || c.rhs.mentions(name) || a.mentions(name) || b.mentions(name)
            }
        }
    }

    /// Replace the variable `name` (of any kind) by `by` (also inside the ranges of other
    /// variables) and re-simplify.
    pub fn substitute(&self, name: &str, by: &Nat) -> Nat {
        self.substitute_where(&|v| &*v.name == name, name, by)
    }

    /// Replace the index variable `name` by `by`: a size variable of the same name (a user
    /// may call a size `j_3`, as the code generator calls an index) is kept.
    pub fn substitute_index(&self, name: &str, by: &Nat) -> Nat {
        self.substitute_where(&|v| v.kind == VarKind::Index && &*v.name == name, name, by)
    }

    fn substitute_where(&self, hit: &dyn Fn(&Var) -> bool, name: &str, by: &Nat) -> Nat {
        if !self.mentions(name) {
            return self.clone();
        }
        match self {
            Nat::Var(v) if hit(v) => by.clone(),
            Nat::Var(v) => Nat::Var(Var {
                name: v.name.clone(),
                kind: v.kind,
                lo: Arc::new(v.lo.substitute_where(hit, name, by)),
                hi: v
                    .hi
                    .as_ref()
                    .map(|h| Arc::new(h.substitute_where(hit, name, by))),
            }),
            _ => self.rebuild(&|n| n.substitute_where(hit, name, by)),
        }
    }

    /// Rebuild a composite node through the simplifying constructors, after
    /// mapping its children with `f`.
    pub(crate) fn rebuild(&self, f: &dyn Fn(&Nat) -> Nat) -> Nat {
        match self {
            Nat::Cst(_) | Nat::Var(_) => self.clone(),
            Nat::Sum(ts) => ts.iter().fold(Nat::Cst(0), |acc, t| acc + f(t)),
            Nat::Prod(fs) => fs.iter().fold(Nat::Cst(1), |acc, x| acc * f(x)),
            Nat::Div(a, b) => divmod::div(&f(a), &f(b)),
            Nat::Mod(a, b) => divmod::rem(&f(a), &f(b)),
            Nat::Pow(a, b) => ops::pow(&f(a), &f(b)),
            Nat::Min(a, b) => ops::min(&f(a), &f(b)),
            Nat::Max(a, b) => ops::max(&f(a), &f(b)),
            Nat::Ite(c, a, b) => ops::ite(&f(&c.lhs), c.op, &f(&c.rhs), &f(a), &f(b)),
        }
    }

    /// Proven lower bound (inclusive) as a constant when derivable from ranges.
    pub fn min_value(&self) -> Option<i64> {
        range::interval(self).lo_i64()
    }

    /// Proven upper bound (inclusive) as a constant when derivable from ranges.
    pub fn max_value(&self) -> Option<i64> {
        range::interval(self).hi_i64()
    }

    /// Simplify again under known facts (divisibility assumptions).
    pub fn simplify_with(&self, facts: &Facts) -> Nat {
        facts.simplify(self)
    }

    /// Count of arithmetic operations (`+ - * / % min max pow ?:`) in the
    /// printed form.
    pub fn op_count(&self) -> usize {
        display::op_count(self)
    }
}

/// `x ^ k` with overflow checking (`k >= 0`).
pub(crate) fn checked_pow(x: i64, k: i64) -> Option<i64> {
    match x {
        0 => Some(if k == 0 { 1 } else { 0 }),
        1 => Some(1),
        -1 => Some(if k % 2 == 0 { 1 } else { -1 }),
        _ => u32::try_from(k).ok().and_then(|k| x.checked_pow(k)),
    }
}

impl From<i64> for Nat {
    fn from(c: i64) -> Nat {
        Nat::Cst(c)
    }
}
