//! The typing rules of the algorithmic primitives: maps, reductions, scans, generators and
//! filters.

use super::{array, array_or_capped, err, fun, nats, nest, peel, value};
use crate::arith::Nat;
use crate::error::{CResult, ErrorKind};
use crate::ir::{Expr, PrimArg};
use crate::prim::Prim;
use crate::typeck::scalar::is_unsuffixed_literal;
use crate::typeck::Checker;
use crate::types::{ScalarType, Type};
use proc_macro2::Span;

/// `map(f)` and every low-level map; `map` and `map_seq` also map a capped array (the
/// others run a known number of iterations).
pub fn map(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, n, capped) = match p {
        Prim::Map | Prim::MapSeq => array_or_capped(p, &inputs[0], span)?,
        _ => array(p, &inputs[0], span).map(|(a, n)| (a, n, false))?,
    };
    let b = c.apply(fun(args, p, span)?, &[a], span)?;
    Ok(if capped {
        Type::Capped(Box::new(b), n)
    } else {
        Type::array(b, n)
    })
}

/// `filter_seq(p)`: `p: a -> bool`; the elements for which `p` holds, in order, `[a; <= n]`.
pub fn filter_seq(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, n, _) = array_or_capped(p, &inputs[0], span)?;
    predicate(c, p, fun(args, p, span)?, &a, span)?;
    Ok(Type::Capped(Box::new(a), n))
}

/// Checks that `pred: a -> bool`.
fn predicate(c: &mut Checker<'_>, p: Prim, pred: &mut Expr, a: &Type, span: Span) -> CResult<()> {
    let t = c.apply(pred, std::slice::from_ref(a), span)?;
    if t != Type::Scalar(ScalarType::Bool) {
        return Err(err(
            ErrorKind::TypeMismatch,
            span,
            format!("{}: the predicate must give bool, found {t}", p.name()),
        ));
    }
    Ok(())
}

/// `map2(f)`, `map3(f)`.
pub fn map_nd(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let depth = if p == Prim::Map2 { 2 } else { 3 };
    let (t, dims) = peel(p, &inputs[0], depth, span)?;
    let out = c.apply(fun(args, p, span)?, &[t], span)?;
    Ok(nest(out, dims))
}

/// `reduce(f, z)`: `f: (a, a) -> a`, `z: a`.
pub fn reduce(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, _, _) = array_or_capped(p, &inputs[0], span)?;
    let z = initial(args, p, span)?;
    let zspan = z.span;
    let tz = splat(c.data(z, Some(&a))?, z, &a);
    c.expect(&tz, &a, zspan, || {
        format!(
            "{}: initial value has type {tz}, expected the element type {a}",
            p.name()
        )
    })?;
    fold(c, p, args, (a.clone(), a), "element", span)
}

/// `reduce_seq(f, z)`: `f: (b, a) -> b`, `z: b`.
pub fn reduce_seq(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, _, _) = array_or_capped(p, &inputs[0], span)?;
    let hint = a.as_scalar().map(Type::Scalar);
    let z = initial(args, p, span)?;
    let acc = c.data(z, hint.as_ref())?;
    if let (Some(w), true) = (vector_width(&a), is_unsuffixed_literal(z)) {
        // An unsuffixed literal where the fold needs a vector is splatted (SPEC); a scalar
        // accumulator is tried first, so `|s, v| s + v.s0` keeps one. Over tuples of
        // vectors (a `zip` of `as_vector`s) the vector is of the tuple's width.
        if let Ok(t) = fold(c, p, args, (acc.clone(), a.clone()), "accumulator", span) {
            return Ok(t);
        }
        let want = match acc {
            Type::Scalar(s) => Type::Vector(s, w),
            _ => a.clone(),
        };
        let acc = splat(acc, initial(args, p, span)?, &want);
        return fold(c, p, args, (acc, a), "accumulator", span);
    }
    fold(c, p, args, (acc, a), "accumulator", span)
}

/// The width of a vector, or of the vectors of a tuple of vectors all of one width.
fn vector_width(t: &Type) -> Option<u32> {
    match t {
        Type::Vector(_, w) => Some(*w),
        Type::Tuple(ts) => {
            let ws: Vec<Option<u32>> = ts.iter().map(vector_width).collect();
            match ws.first() {
                Some(Some(w)) if ws.iter().all(|x| *x == Some(*w)) => Some(*w),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The lane type of a vector of width `w` (a tuple of such vectors: the tuple of lanes).
pub(super) fn lanes_of(t: &Type, w: u32) -> Option<Type> {
    match t {
        Type::Vector(s, v) if *v == w => Some(Type::Scalar(*s)),
        Type::Tuple(ts) => ts
            .iter()
            .map(|t| lanes_of(t, w))
            .collect::<Option<Vec<_>>>()
            .map(Type::Tuple),
        _ => None,
    }
}

/// An unsuffixed literal `z` of type `t` used where the vector type `want` of the same
/// lanes is expected becomes that vector (every lane the literal); any other `t` stays.
fn splat(t: Type, z: &mut Expr, want: &Type) -> Type {
    match (&t, want) {
        (Type::Scalar(s), Type::Vector(l, _)) if s == l && is_unsuffixed_literal(z) => {
            z.ty = Some(want.clone());
            want.clone()
        }
        _ => t,
    }
}

/// `scan_seq(f, z)`: `f: (b, a) -> b`, `z: b`; every step's accumulator, `[b; n]`.
pub fn scan_seq(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (_, n) = array(p, &inputs[0], span)?;
    let acc = reduce_seq(c, p, args, inputs, span)?;
    Ok(Type::array(acc, n))
}

/// `generate(n, f)`, `generate2(n, m, f)`: `f` of one (two) `i32` indices.
pub fn generate(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    _: &[Type],
    span: Span,
) -> CResult<Type> {
    let ns: Vec<Nat> = nats(args).into_iter().map(|(n, _)| n).collect();
    let f = fun(args, p, span)?;
    if let Some(k) = crate::ir::fun_arity(f, c.funs).filter(|k| *k != ns.len()) {
        return Err(err(
            ErrorKind::WrongArity,
            f.span,
            format!(
                "{}: the function takes {} (`|{}| ..`), found a function of {k}",
                p.name(),
                if ns.len() == 1 {
                    "one index"
                } else {
                    "two indices"
                },
                if ns.len() == 1 { "i" } else { "i, j" }
            ),
        ));
    }
    let index = Type::Scalar(crate::types::ScalarType::I32);
    let t = c.apply(f, &vec![index; ns.len()], span)?;
    Ok(ns.into_iter().rev().fold(t, Type::array))
}

/// `filter(x, ids)`: `x: [a; n]`, `ids: [i32; m]`; gives `[a; m]`, `x[ids[i]]`.
pub fn filter(
    _: &mut Checker<'_>,
    p: Prim,
    _: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, _) = array(p, &inputs[0], span)?;
    match &inputs[1] {
        Type::Array(e, m) if **e == Type::Scalar(crate::types::ScalarType::I32) => {
            Ok(Type::array(a, m.clone()))
        }
        t => Err(err(
            ErrorKind::TypeMismatch,
            span,
            format!("filter: the indices must be an array of i32, found {t}"),
        )),
    }
}

/// `iota(n)`: the indices `0 .. n` as `i32`.
pub fn iota(
    _: &mut Checker<'_>,
    _: Prim,
    args: &mut [PrimArg],
    _: &[Type],
    _: Span,
) -> CResult<Type> {
    let n = nats(args)
        .into_iter()
        .next()
        .map(|(n, _)| n)
        .unwrap_or(Nat::cst(0));
    Ok(Type::array(Type::Scalar(crate::types::ScalarType::I32), n))
}

/// `map_seq_slide(f, size, step)`: `map_seq(f) o slide(size, step)`, `f: [a; size] -> b`.
pub fn map_seq_slide(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, n) = array(p, &inputs[0], span)?;
    let ns = nats(args);
    let count = c.windows(p, &n, &ns[0], &ns[1])?;
    let b = c.apply(
        fun(args, p, span)?,
        &[Type::array(a, ns[0].0.clone())],
        span,
    )?;
    Ok(Type::array(b, count))
}

/// `reduce_while_seq(f, p, z)`: `f: (b, a) -> b`, `p: a -> bool`, `z: b`; folds the prefix
/// of elements for which `p` holds.
pub fn reduce_while_seq(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, _) = array(p, &inputs[0], span)?;
    let hint = a.as_scalar().map(Type::Scalar);
    let acc = c.data(initial(args, p, span)?, hint.as_ref())?;
    let mut funs = args.iter_mut().filter_map(PrimArg::as_fun_mut);
    let missing = || {
        err(
            ErrorKind::WrongArity,
            span,
            format!("{}: expects an operator and a predicate", p.name()),
        )
    };
    let (f, pred) = (
        funs.next().ok_or_else(missing)?,
        funs.next().ok_or_else(missing)?,
    );
    predicate(c, p, pred, &a, span)?;
    fold_op(c, p, f, (acc, a), "accumulator", span)
}

/// The initial value of a reduction.
fn initial(args: &mut [PrimArg], p: Prim, span: Span) -> CResult<&mut Expr> {
    value(args).ok_or_else(|| {
        err(
            ErrorKind::WrongArity,
            span,
            format!("{}: missing initial value", p.name()),
        )
    })
}

/// Checks the operator of a reduction: `f: (acc, elem) -> acc`; gives `acc`.
fn fold(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    types: (Type, Type),
    what: &str,
    span: Span,
) -> CResult<Type> {
    fold_op(c, p, fun(args, p, span)?, types, what, span)
}

/// Checks the operator `f` of a reduction: `f: (acc, elem) -> acc`; gives `acc`.
fn fold_op(
    c: &mut Checker<'_>,
    p: Prim,
    f: &mut Expr,
    (acc, elem): (Type, Type),
    what: &str,
    span: Span,
) -> CResult<Type> {
    let r = c.apply(f, &[acc.clone(), elem], span)?;
    c.expect(&r, &acc, span, || {
        format!(
            "{}: the operator must give the {what} type {acc}, found {r}",
            p.name()
        )
    })?;
    Ok(acc)
}
