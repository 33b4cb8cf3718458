//! Static arguments of primitives: choosing the signature and converting each argument
//! (parsed as an expression) to the kind the primitive's table entry asks for.

use super::types::{nat_op, size_var};
use super::Scope;
use crate::arith::Nat;
use crate::error::ErrorKind;
use crate::ir::{BinOp, Boundary, Expr, ExprKind, LitValue, PrimArg, Reorder};
use crate::prim::{ArgKind, Inputs, Prim};
use proc_macro2::Span;

/// `p(args)`: the primitive with its static arguments, or applied to its data (`zip(a, b)`).
pub(crate) fn prim_call(
    p: Prim,
    args: Vec<Expr>,
    name_span: Span,
    span: Span,
    sc: Scope,
) -> syn::Result<Expr> {
    let def = p.def();
    let data_only = def.signatures.iter().all(|s| s.is_empty());
    match def.inputs {
        Inputs::AtLeast(n) if args.len() < n => {
            return Err(arity(p, &format!("at least {n}"), args.len(), span, sc));
        }
        Inputs::Exactly(n) if n >= 2 && data_only && args.len() != n => {
            return Err(arity(p, &n.to_string(), args.len(), span, sc));
        }
        Inputs::AtLeast(_) | Inputs::Exactly(2..)
            if data_only || matches!(def.inputs, Inputs::AtLeast(_)) =>
        {
            let f = Expr::new(ExprKind::Prim(p, vec![]), name_span);
            return Ok(Expr::new(ExprKind::Apply(Box::new(f), args), span));
        }
        _ => {}
    }
    let Some(sig) = def.signatures.iter().find(|s| s.len() == args.len()) else {
        return Err(arity(p, &expected(p), args.len(), span, sc));
    };
    let converted = sig
        .iter()
        .zip(args)
        .map(|(k, e)| convert(p, *k, e, sc))
        .collect::<syn::Result<Vec<_>>>()?;
    let f = Expr::new(ExprKind::Prim(p, converted), span);
    Ok(match def.inputs {
        // A primitive with no data inputs (`generate(n, f)`) is data: applied to nothing.
        Inputs::Exactly(0) => Expr::new(ExprKind::Apply(Box::new(f), Vec::new()), span),
        _ => f,
    })
}

/// A primitive written without parentheses (`join`, `transpose`, `zip`).
pub(crate) fn prim_bare(p: Prim, span: Span, sc: Scope) -> syn::Result<Expr> {
    if p.def().signatures.iter().any(|s| s.is_empty()) {
        Ok(Expr::new(ExprKind::Prim(p, vec![]), span))
    } else {
        Err(arity(p, &expected(p), 0, span, sc))
    }
}

/// The accepted argument lists of `p`, as `1 (f) or 2 (d, f)`.
fn expected(p: Prim) -> String {
    let alts: Vec<String> = p
        .def()
        .signatures
        .iter()
        .map(|s| {
            if s.is_empty() {
                "0".to_string()
            } else {
                let names: Vec<&str> = s.iter().map(|k| kind_name(*k)).collect();
                format!("{} ({})", s.len(), names.join(", "))
            }
        })
        .collect();
    alts.join(" or ")
}

/// A short name for an argument kind, as used in arity messages.
fn kind_name(k: ArgKind) -> &'static str {
    match k {
        ArgKind::Fun => "f",
        ArgKind::Nat => "n",
        ArgKind::Dim => "d",
        ArgKind::Value => "z",
        ArgKind::Boundary => "b",
        ArgKind::Reorder => "r",
    }
}

fn arity(p: Prim, expected: &str, found: usize, span: Span, sc: Scope) -> syn::Error {
    sc.st.fail(
        ErrorKind::WrongArity,
        span,
        format!(
            "{}: wrong number of arguments: expected {expected}, found {found}",
            p.name()
        ),
    )
}

/// Converts one argument expression to the kind `k`.
fn convert(p: Prim, k: ArgKind, e: Expr, sc: Scope) -> syn::Result<PrimArg> {
    let span = e.span;
    Ok(match k {
        ArgKind::Fun => PrimArg::Fun(e),
        ArgKind::Value => PrimArg::Value(e),
        ArgKind::Nat => PrimArg::Nat(expr_to_nat(&e, sc)?, span),
        ArgKind::Dim => match e.kind {
            ExprKind::Lit(LitValue::Int(d @ 0..=2), None) => PrimArg::Nat(Nat::cst(d as i64), span),
            _ => {
                return Err(syn::Error::new(
                    span,
                    format!("{}: the dimension must be 0, 1 or 2", p.name()),
                ))
            }
        },
        ArgKind::Boundary => PrimArg::Boundary(boundary(p, e, sc)?, span),
        ArgKind::Reorder => PrimArg::Reorder(reorder(p, e, sc)?, span),
    })
}

/// `clamp`, `mirror`, `wrap` or `constant(v)`.
fn boundary(p: Prim, e: Expr, sc: Scope) -> syn::Result<Boundary> {
    let span = e.span;
    match e.kind {
        ExprKind::Ident(name) => match name.as_str() {
            "clamp" => return Ok(Boundary::Clamp),
            // `mirror_unsafe`: LIFT's name for the same reflection.
            "mirror" | "mirror_unsafe" => return Ok(Boundary::Mirror),
            "wrap" => return Ok(Boundary::Wrap),
            _ => {}
        },
        ExprKind::Apply(f, mut xs) if is_ident(&f, "constant") => {
            return match (xs.pop(), xs.is_empty()) {
                (Some(v), true) => Ok(Boundary::Constant(Box::new(v))),
                _ => Err(sc.st.fail(
                    ErrorKind::WrongArity,
                    span,
                    "constant: wrong number of arguments: expected 1 (v)",
                )),
            };
        }
        _ => {}
    }
    Err(syn::Error::new(
        span,
        format!(
            "{}: expected a boundary: clamp, mirror, wrap or constant(v)",
            p.name()
        ),
    ))
}

/// `reverse` or `stride(s)`.
fn reorder(p: Prim, e: Expr, sc: Scope) -> syn::Result<Reorder> {
    let span = e.span;
    match e.kind {
        ExprKind::Ident(name) if name == "reverse" => Ok(Reorder::Reverse),
        ExprKind::Apply(f, xs) if is_ident(&f, "stride") => match xs.as_slice() {
            [s] => Ok(Reorder::Stride(expr_to_nat(s, sc)?, s.span)),
            _ => Err(sc.st.fail(
                ErrorKind::WrongArity,
                span,
                "stride: wrong number of arguments: expected 1 (s)",
            )),
        },
        _ => Err(syn::Error::new(
            span,
            format!("{}: expected `reverse` or `stride(s)`", p.name()),
        )),
    }
}

fn is_ident(e: &Expr, name: &str) -> bool {
    matches!(&e.kind, ExprKind::Ident(n) if n == name)
}

/// Reads a size expression back from an argument parsed as an expression.
fn expr_to_nat(e: &Expr, sc: Scope) -> syn::Result<Nat> {
    match &e.kind {
        ExprKind::Lit(LitValue::Int(v), None) => match i64::try_from(*v) {
            Ok(v) => Ok(Nat::cst(v)),
            Err(_) => Err(sc
                .st
                .fail(ErrorKind::Syntax, e.span, "size literal out of range")),
        },
        ExprKind::Ident(name) => size_var(name, e.span, sc),
        ExprKind::Binary(op, a, b) => {
            let c = match op {
                BinOp::Add => '+',
                BinOp::Sub => '-',
                BinOp::Mul => '*',
                BinOp::Div => '/',
                BinOp::Rem => '%',
                _ => return Err(syn::Error::new(e.span, "expected a size expression")),
            };
            let (a, b) = (expr_to_nat(a, sc)?, expr_to_nat(b, sc)?);
            nat_op(c, a, b, e.span, sc)
        }
        _ => Err(syn::Error::new(e.span, "expected a size expression")),
    }
}
