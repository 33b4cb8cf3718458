//! Typing of the scalar subset: literals, operators, math builtins.

use crate::error::{CResult, CompileError, ErrorKind};
use crate::ir::{BinOp, Expr, ExprKind, LitValue, UnOp};
use crate::types::{ScalarType, Type};
use proc_macro2::Span;

/// The math functions of SPEC section 2 with their arities.
const BUILTINS: &[(&str, usize)] = &[
    ("sqrt", 1),
    ("exp", 1),
    ("log", 1),
    ("sin", 1),
    ("cos", 1),
    ("tan", 1),
    ("abs", 1),
    ("floor", 1),
    ("ceil", 1),
    ("min", 2),
    ("max", 2),
    ("pow", 2),
    ("fma", 3),
];

/// Is `name` a math builtin?
pub(crate) fn is_builtin(name: &str) -> bool {
    BUILTINS.iter().any(|(n, _)| *n == name)
}

/// Is `e` a literal whose type comes from context?
pub(crate) fn is_unsuffixed_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Lit(LitValue::Int(_) | LitValue::Float(_), None) => true,
        ExprKind::Unary(UnOp::Neg, x) => is_unsuffixed_literal(x),
        ExprKind::Binary(op, a, b) if !op.is_comparison() && !op.is_logical() => {
            is_unsuffixed_literal(a) && is_unsuffixed_literal(b)
        }
        _ => false,
    }
}

/// Is `t` a number or a vector of numbers?
pub(crate) fn is_numeric(t: &Type) -> bool {
    match t {
        Type::Scalar(s) => *s != ScalarType::Bool,
        Type::Vector(..) => true,
        _ => false,
    }
}

/// The type of a literal, from its suffix, else from the expected type, else the default.
pub(crate) fn literal(
    v: &LitValue,
    suffix: Option<ScalarType>,
    hint: Option<&Type>,
    span: Span,
) -> CResult<Type> {
    let hinted = match hint {
        Some(Type::Scalar(s)) => Some(*s),
        Some(Type::Vector(s, _)) => Some(*s),
        _ => None,
    };
    let ty = match v {
        LitValue::Bool(_) => ScalarType::Bool,
        LitValue::Int(_) => suffix
            .or(hinted.filter(|s| *s != ScalarType::Bool))
            .unwrap_or(ScalarType::I32),
        LitValue::Float(_) => suffix
            .or(hinted.filter(|s| s.is_float()))
            .unwrap_or(ScalarType::F32),
    };
    let fits = match (v, ty) {
        (LitValue::Float(_), t) => t.is_float(),
        (LitValue::Int(i), ScalarType::I32) => *i <= i32::MAX as u128,
        (LitValue::Int(i), ScalarType::U32) => *i <= u32::MAX as u128,
        (LitValue::Int(i), ScalarType::I64) => *i <= i64::MAX as u128,
        (LitValue::Int(i), ScalarType::U64) => *i <= u64::MAX as u128,
        (LitValue::Int(_), t) => t.is_float(),
        (LitValue::Bool(_), t) => t == ScalarType::Bool,
    };
    if !fits {
        return Err(CompileError::new(
            ErrorKind::TypeMismatch,
            span,
            format!("literal: does not fit its type {ty}"),
        ));
    }
    Ok(Type::Scalar(ty))
}

fn mismatch(span: Span, msg: String) -> CompileError {
    CompileError::new(ErrorKind::TypeMismatch, span, msg)
}

/// Checks that a condition is `bool`.
pub(crate) fn expect_bool(what: &str, t: &Type, span: Span) -> CResult<()> {
    if *t == Type::Scalar(ScalarType::Bool) {
        Ok(())
    } else {
        Err(mismatch(span, format!("{what}: expects bool, found {t}")))
    }
}

/// The type of `l op r`.
pub(crate) fn binary(op: BinOp, l: &Type, r: &Type, span: Span) -> CResult<Type> {
    let sym = op.symbol();
    if op.is_logical() {
        expect_bool(&format!("`{sym}`"), l, span)?;
        expect_bool(&format!("`{sym}`"), r, span)?;
        return Ok(Type::Scalar(ScalarType::Bool));
    }
    if op.is_comparison() {
        return match (l, r) {
            (Type::Scalar(a), Type::Scalar(b)) if a == b => Ok(Type::Scalar(ScalarType::Bool)),
            // No vectors of bool: a comparison (and the `if` it selects with) is written on
            // one lane, and `vectorize` lifts the function to vectors.
            (Type::Vector(_, w), _) | (_, Type::Vector(_, w)) => Err(mismatch(
                span,
                format!(
                    "`{sym}` compares scalars, found {l} and {r}: write the function on one lane \
                     and lift it with `vectorize({w}, |x| ...)`"
                ),
            )),
            _ => Err(mismatch(
                span,
                format!("`{sym}`: operand types differ: {l} vs {r}"),
            )),
        };
    }
    match (l, r) {
        (Type::Scalar(a), Type::Scalar(b)) if a == b && *a != ScalarType::Bool => Ok(l.clone()),
        (Type::Vector(a, w), Type::Vector(b, v)) if a == b && w == v => Ok(l.clone()),
        (Type::Vector(a, _), Type::Scalar(b)) if a == b => Ok(l.clone()),
        (Type::Scalar(a), Type::Vector(b, _)) if a == b => Ok(r.clone()),
        _ => Err(mismatch(
            span,
            format!("`{sym}`: operand types differ: {l} vs {r}"),
        )),
    }
}

/// The type of `op x`.
pub(crate) fn unary(op: UnOp, t: &Type, span: Span) -> CResult<Type> {
    match op {
        UnOp::Neg if is_numeric(t) => Ok(t.clone()),
        UnOp::Neg => Err(mismatch(span, format!("`-`: expects a number, found {t}"))),
        UnOp::Not => {
            expect_bool("`!`", t, span)?;
            Ok(t.clone())
        }
    }
}

/// The type of a math builtin call, or `None` if `name` is not a builtin.
pub(crate) fn builtin(name: &str, args: &[Type], span: Span) -> Option<CResult<Type>> {
    let (_, arity) = BUILTINS.iter().find(|(n, _)| *n == name)?;
    Some(builtin_type(name, *arity, args, span))
}

fn builtin_type(name: &str, arity: usize, args: &[Type], span: Span) -> CResult<Type> {
    if args.len() != arity {
        return Err(CompileError::new(
            ErrorKind::WrongArity,
            span,
            format!(
                "{name}: wrong number of arguments: expected {arity}, found {}",
                args.len()
            ),
        ));
    }
    // A vector argument makes the call lane-wise; scalar arguments of its lane type are
    // broadcast (`max(v, 0.0)` on an `f32x4`).
    let t = args
        .iter()
        .find(|a| matches!(a, Type::Vector(..)))
        .unwrap_or(&args[0]);
    let broadcast = |a: &Type| matches!((a, t), (Type::Scalar(x), Type::Vector(y, _)) if x == y);
    if let Some(other) = args.iter().find(|a| *a != t && !broadcast(a)) {
        return Err(mismatch(
            span,
            format!("{name}: argument types differ: {t} vs {other}"),
        ));
    }
    let float_only = !matches!(name, "abs" | "min" | "max");
    let lane = match t {
        Type::Scalar(s) | Type::Vector(s, _) => Some(*s),
        _ => None,
    };
    match lane {
        Some(s) if s.is_float() || (!float_only && s.is_int()) => Ok(t.clone()),
        _ => Err(mismatch(
            span,
            format!(
                "{name}: expects {}, found {t}",
                if float_only {
                    "a floating-point number"
                } else {
                    "a number"
                }
            ),
        )),
    }
}
