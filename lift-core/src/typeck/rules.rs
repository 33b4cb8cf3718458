//! The typing rule of every primitive, referenced from the table in [`crate::prim`].

use super::expr::project;
use super::scalar::is_unsuffixed_literal;
use super::{Checker, Cond};
use crate::arith::Nat;
use crate::error::{CResult, CompileError, ErrorKind};
use crate::ir::{Boundary, Expr, PrimArg, Reorder};
use crate::prim::Prim;
use crate::types::{ScalarType, Type, VECTOR_WIDTHS};
use proc_macro2::Span;

/// A typing rule: the checker, the primitive, its static arguments, the types of its data
/// inputs and its span; gives the result type.
pub type Rule = fn(&mut Checker<'_>, Prim, &mut [PrimArg], &[Type], Span) -> CResult<Type>;

fn err(kind: ErrorKind, span: Span, msg: String) -> CompileError {
    CompileError::new(kind, span, msg)
}

/// The array `t`, or a `NotAnArray` error naming the primitive.
fn array(p: Prim, t: &Type, span: Span) -> CResult<(Type, Nat)> {
    match t {
        Type::Array(e, n) => Ok(((**e).clone(), n.clone())),
        Type::Capped(..) => Err(err(
            ErrorKind::NotAnArray,
            span,
            format!(
                "{}: expects an array of known length, found {t}: the length of `filter_seq`'s \
                 result is known at run time only (map it, reduce it or return it)",
                p.name()
            ),
        )),
        t => Err(err(
            ErrorKind::NotAnArray,
            span,
            format!("{}: expects an array, found {t}", p.name()),
        )),
    }
}

/// The array or capped array `t` (its element type and length or capacity) and whether it
/// is capped; a `NotAnArray` error naming the primitive otherwise.
fn array_or_capped(p: Prim, t: &Type, span: Span) -> CResult<(Type, Nat, bool)> {
    match t {
        Type::Capped(e, n) => Ok(((**e).clone(), n.clone(), true)),
        t => array(p, t, span).map(|(e, n)| (e, n, false)),
    }
}

/// The element type under `depth` levels of arrays of `t`, and their lengths (outermost first).
fn peel(p: Prim, t: &Type, depth: usize, span: Span) -> CResult<(Type, Vec<Nat>)> {
    let mut t = t.clone();
    let mut dims = Vec::new();
    for _ in 0..depth {
        let (e, n) = array(p, &t, span)?;
        dims.push(n);
        t = e;
    }
    Ok((t, dims))
}

/// `t` nested in arrays of lengths `dims` (outermost first).
fn nest(t: Type, dims: Vec<Nat>) -> Type {
    dims.into_iter().rev().fold(t, Type::array)
}

/// The function argument.
fn fun(args: &mut [PrimArg], p: Prim, span: Span) -> CResult<&mut Expr> {
    args.iter_mut()
        .rev()
        .find_map(PrimArg::as_fun_mut)
        .ok_or_else(|| {
            err(
                ErrorKind::WrongArity,
                span,
                format!("{}: missing function argument", p.name()),
            )
        })
}

/// The size arguments, in order.
fn nats(args: &[PrimArg]) -> Vec<(Nat, Span)> {
    args.iter()
        .filter_map(|a| match a {
            PrimArg::Nat(n, s) => Some((n.clone(), *s)),
            _ => None,
        })
        .collect()
}

/// The single scalar value argument.
fn value(args: &mut [PrimArg]) -> Option<&mut Expr> {
    args.iter_mut().find_map(|a| match a {
        PrimArg::Value(e) => Some(e),
        _ => None,
    })
}

impl Checker<'_> {
    /// Rejects a size that is provably zero or negative.
    fn positive(&mut self, p: Prim, what: &str, n: &Nat, span: Span) -> CResult<()> {
        if n.max_value().is_some_and(|m| m <= 0) {
            return Err(err(
                ErrorKind::ZeroSize,
                span,
                format!("{}: {what} must be positive: {n}", p.name()),
            ));
        }
        if n.min_value().is_some_and(|m| m >= 1) {
            return Ok(());
        }
        self.require(
            Cond::Le(Nat::cst(1), n.clone()),
            (p.name(), what),
            span,
            ErrorKind::ZeroSize,
        )
    }

    /// Rejects a negative padding.
    fn non_negative(&mut self, p: Prim, n: &Nat, span: Span) -> CResult<()> {
        if n.min_value().is_some_and(|m| m >= 0) {
            return Ok(());
        }
        if n.max_value().is_some_and(|m| m < 0) {
            return Err(err(
                ErrorKind::OutOfBounds,
                span,
                format!("{}: padding must not be negative: {n}", p.name()),
            ));
        }
        self.require(
            Cond::Le(Nat::cst(0), n.clone()),
            (p.name(), "padding must not be negative"),
            span,
            ErrorKind::OutOfBounds,
        )
    }

    /// Rejects `got` unless it is equivalent to `want`, with the message `msg`.
    fn expect(
        &self,
        got: &Type,
        want: &Type,
        span: Span,
        msg: impl FnOnce() -> String,
    ) -> CResult<()> {
        if got.equiv(want, &self.facts) {
            Ok(())
        } else {
            Err(err(ErrorKind::TypeMismatch, span, msg()))
        }
    }

    /// Arrays `ts` of provably equal lengths: their element types and the length.
    fn same_lengths(&self, p: Prim, ts: &[Type], span: Span) -> CResult<(Vec<Type>, Nat)> {
        let arrays = ts
            .iter()
            .map(|t| array(p, t, span))
            .collect::<CResult<Vec<_>>>()?;
        let n = arrays[0].1.clone();
        for (_, m) in &arrays[1..] {
            self.same_length(p, &n, m, span)?;
        }
        Ok((arrays.into_iter().map(|(e, _)| e).collect(), n))
    }

    /// Checks that two lengths are provably equal.
    fn same_length(&self, p: Prim, a: &Nat, b: &Nat, span: Span) -> CResult<()> {
        if self.facts.equal(a, b) {
            Ok(())
        } else {
            Err(err(
                ErrorKind::LengthMismatch,
                span,
                format!("{}: lengths differ: {a} vs {b}", p.name()),
            ))
        }
    }

    /// `slide(size, step)` on a length: checks and gives the number of windows.
    fn windows(
        &mut self,
        p: Prim,
        n: &Nat,
        size: &(Nat, Span),
        step: &(Nat, Span),
    ) -> CResult<Nat> {
        self.positive(p, "window size", &size.0, size.1)?;
        self.positive(p, "step", &step.0, step.1)?;
        self.require(
            Cond::Le(size.0.clone(), n.clone()),
            (p.name(), "window larger than the input"),
            size.1,
            ErrorKind::OutOfBounds,
        )?;
        let rest = n - &size.0;
        self.require(
            Cond::Divisible(rest.clone(), step.0.clone()),
            (p.name(), "(n - size) must be divisible by the step"),
            step.1,
            ErrorKind::Divisibility,
        )?;
        Ok(rest / &step.0 + 1)
    }

    /// `pad(l, r, b)` on one dimension: checks and gives the padded length.
    fn padded(&mut self, p: Prim, n: &Nat, l: &(Nat, Span), r: &(Nat, Span)) -> CResult<Nat> {
        self.non_negative(p, &l.0, l.1)?;
        self.non_negative(p, &r.0, r.1)?;
        Ok(&l.0 + n + &r.0)
    }

    /// Checks a `constant(v)` boundary value against the element type.
    fn boundary(&mut self, p: Prim, args: &mut [PrimArg], elem: &Type) -> CResult<Boundary> {
        let Some((b, span)) = args.iter_mut().find_map(|a| match a {
            PrimArg::Boundary(b, s) => Some((b, *s)),
            _ => None,
        }) else {
            return Err(err(
                ErrorKind::WrongArity,
                Span::call_site(),
                format!("{}: missing boundary", p.name()),
            ));
        };
        if let Boundary::Constant(v) = b {
            let t = self.data(v, Some(elem))?;
            self.expect(&t, elem, span, || {
                format!(
                    "{}: constant boundary has type {t}, expected {elem}",
                    p.name()
                )
            })?;
        }
        Ok(b.clone())
    }
}

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
    if matches!(a, Type::Vector(..)) && is_unsuffixed_literal(z) {
        // An unsuffixed literal where the fold needs a vector is splatted (SPEC); a scalar
        // accumulator is tried first, so `|s, v| s + v.s0` keeps one.
        if let Ok(t) = fold(c, p, args, (acc.clone(), a.clone()), "accumulator", span) {
            return Ok(t);
        }
        let acc = splat(acc, initial(args, p, span)?, &a);
        return fold(c, p, args, (acc, a), "accumulator", span);
    }
    fold(c, p, args, (acc, a), "accumulator", span)
}

/// The lane type of a vector of width `w` (a tuple of such vectors: the tuple of lanes).
fn lanes_of(t: &Type, w: u32) -> Option<Type> {
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

/// `zip(x, y, ...)`.
pub fn zip(
    c: &mut Checker<'_>,
    p: Prim,
    _: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (elems, n) = c.same_lengths(p, inputs, span)?;
    Ok(Type::array(Type::Tuple(elems), n))
}

/// `zip2`, `zip3`: zips at every one of the outer 2 or 3 levels.
pub fn zip_nd(
    c: &mut Checker<'_>,
    p: Prim,
    _: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let depth = if p == Prim::Zip2 { 2 } else { 3 };
    let mut elems: Vec<Type> = inputs.to_vec();
    let mut dims = Vec::new();
    for _ in 0..depth {
        let (es, n) = c.same_lengths(p, &elems, span)?;
        dims.push(n);
        elems = es;
    }
    Ok(nest(Type::Tuple(elems), dims))
}

/// `unzip`.
pub fn unzip(
    _: &mut Checker<'_>,
    p: Prim,
    _: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (e, n) = array(p, &inputs[0], span)?;
    match e {
        Type::Tuple(ts) => Ok(Type::Tuple(
            ts.into_iter().map(|t| Type::array(t, n.clone())).collect(),
        )),
        t => Err(err(
            ErrorKind::TypeMismatch,
            span,
            format!("unzip: expects an array of tuples, found [{t}; {n}]"),
        )),
    }
}

/// `split(m)`.
pub fn split(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, n) = array(p, &inputs[0], span)?;
    let (m, mspan) = nats(args).swap_remove(0);
    c.positive(p, "chunk size", &m, mspan)?;
    c.require(
        Cond::Divisible(n.clone(), m.clone()),
        ("split", "input length not divisible by the chunk size"),
        mspan,
        ErrorKind::Divisibility,
    )?;
    Ok(Type::array(Type::array(a, m.clone()), n / m))
}

/// `split_cover(t)`: blocks of `t` that cover the input, the last one shifted back to end
/// at `n` (it overlaps the one before when `t` does not divide `n`); `t <= n` (a launch-time
/// condition when symbolic).
pub fn split_cover(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, n) = array(p, &inputs[0], span)?;
    let (t, tspan) = nats(args).swap_remove(0);
    c.positive(p, "block size", &t, tspan)?;
    c.require(
        Cond::Le(t.clone(), n.clone()),
        ("split_cover", "block larger than the input"),
        tspan,
        ErrorKind::OutOfBounds,
    )?;
    let blocks = cover_blocks(&n, &t);
    Ok(Type::array(Type::array(a, t), blocks))
}

/// `join_cover(n)`: the inverse of `split_cover(t)` for an input of length `n`.
pub fn join_cover(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (row, m) = array(p, &inputs[0], span)?;
    let (a, t) = array(p, &row, span)?;
    let (n, nspan) = nats(args).swap_remove(0);
    c.positive(p, "length", &n, nspan)?;
    c.same_length(p, &cover_blocks(&n, &t), &m, span)?;
    c.require(
        Cond::Le(t, n.clone()),
        ("join_cover", "blocks longer than the result"),
        nspan,
        ErrorKind::OutOfBounds,
    )?;
    Ok(Type::array(a, n))
}

/// The number of blocks of `t` that cover `n` elements: `(n + t - 1) / t`.
pub fn cover_blocks(n: &Nat, t: &Nat) -> Nat {
    (n + &(t - &Nat::cst(1))) / t
}

/// `take(n)`: the first `n` elements; `n <= m` (a launch-time condition when symbolic).
pub fn take(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, m) = array(p, &inputs[0], span)?;
    let (n, nspan) = nats(args).swap_remove(0);
    c.positive(p, "length", &n, nspan)?;
    c.require(
        Cond::Le(n.clone(), m),
        ("take", "longer than the input"),
        nspan,
        ErrorKind::OutOfBounds,
    )?;
    Ok(Type::array(a, n))
}

/// `head`: the first element, as an array of one (`n >= 1`).
pub fn head(
    c: &mut Checker<'_>,
    p: Prim,
    _: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, n) = array(p, &inputs[0], span)?;
    c.require(
        Cond::Le(Nat::cst(1), n),
        ("head", "of an empty array"),
        span,
        ErrorKind::OutOfBounds,
    )?;
    Ok(Type::array(a, Nat::cst(1)))
}

/// `tail`: all but the first element (`n >= 2`, SPEC).
pub fn tail(
    c: &mut Checker<'_>,
    p: Prim,
    _: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, n) = array(p, &inputs[0], span)?;
    c.require(
        Cond::Le(Nat::cst(2), n.clone()),
        ("tail", "needs at least two elements"),
        span,
        ErrorKind::OutOfBounds,
    )?;
    Ok(Type::array(a, n - 1))
}

/// `untile2`: the inverse of `slide2(ty, ty, tx, tx)`.
pub fn untile2(
    _: &mut Checker<'_>,
    p: Prim,
    _: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (row, ny) = array(p, &inputs[0], span)?;
    let (tile, nx) = array(p, &row, span)?;
    let (trow, ty) = array(p, &tile, span)?;
    let (a, tx) = array(p, &trow, span)?;
    Ok(Type::array(Type::array(a, nx * tx), ny * ty))
}

/// `join`.
pub fn join(
    _: &mut Checker<'_>,
    p: Prim,
    _: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (inner, n) = array(p, &inputs[0], span)?;
    let (a, m) = array(p, &inner, span)?;
    Ok(Type::array(a, n * m))
}

/// `slide(size, step)`.
pub fn slide(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, n) = array(p, &inputs[0], span)?;
    let ns = nats(args);
    let count = c.windows(p, &n, &ns[0], &ns[1])?;
    Ok(Type::array(Type::array(a, ns[0].0.clone()), count))
}

/// `pad(l, r, b)`.
pub fn pad(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, n) = array(p, &inputs[0], span)?;
    let ns = nats(args);
    c.boundary(p, args, &a)?;
    let len = c.padded(p, &n, &ns[0], &ns[1])?;
    Ok(Type::array(a, len))
}

/// `transpose`.
pub fn transpose(
    _: &mut Checker<'_>,
    p: Prim,
    _: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (inner, n) = array(p, &inputs[0], span)?;
    let (a, m) = array(p, &inner, span)?;
    Ok(Type::array(Type::array(a, n), m))
}

/// `gather(r)`, `scatter(r)`.
pub fn reorder(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (_, n) = array(p, &inputs[0], span)?;
    if let Some((Reorder::Stride(s, sspan), _)) = args.iter().find_map(|a| match a {
        PrimArg::Reorder(r, s) => Some((r.clone(), *s)),
        _ => None,
    }) {
        c.positive(p, "stride", &s, sspan)?;
        c.require(
            Cond::Divisible(n, s),
            (p.name(), "input length not divisible by the stride"),
            sspan,
            ErrorKind::Divisibility,
        )?;
    }
    Ok(inputs[0].clone())
}

/// `get(i)`.
pub fn get(
    _: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (i, ispan) = nats(args).swap_remove(0);
    match i.as_cst().and_then(|c| usize::try_from(c).ok()) {
        Some(i) => project(&inputs[0], i, ispan),
        None => Err(err(
            ErrorKind::TupleIndex,
            span,
            format!("{}: the index must be a constant: {i}", p.name()),
        )),
    }
}

/// `at(i)`.
pub fn at(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, n) = array(p, &inputs[0], span)?;
    let (i, ispan) = nats(args).swap_remove(0);
    c.check_index(&i, &n, "at", ispan)?;
    Ok(a)
}

/// `id`.
pub fn id(
    _: &mut Checker<'_>,
    _: Prim,
    _: &mut [PrimArg],
    inputs: &[Type],
    _: Span,
) -> CResult<Type> {
    Ok(inputs[0].clone())
}

/// The most steps `iterate` may take with a function that changes its input's type.
pub const MAX_TYPED_ITERATIONS: i64 = 64;

/// The most array dimensions a type may reach inside `iterate`.
pub const MAX_ITERATED_DIMS: usize = 16;

/// `iterate(k, f)`: `f` applied `k` times; its input may shrink on each application.
pub fn iterate(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (k, kspan) = nats(args).swap_remove(0);
    let f = fun(args, p, span)?;
    let mut t = inputs[0].clone();
    match k.as_cst() {
        Some(k) if k >= 0 => {
            for i in 0..k {
                let next = c.apply(f, &[t.clone()], span)?;
                if next.equiv(&t, &c.facts) {
                    break;
                }
                // A function that changes the type is typed once per step: a count beyond
                // any real use, or a type that gains a dimension per step, would take the
                // checker forever (found by fuzzing).
                if i >= MAX_TYPED_ITERATIONS || next.dims().len() > MAX_ITERATED_DIMS {
                    return Err(err(
                        ErrorKind::TypeMismatch,
                        kspan,
                        format!(
                            "iterate: count {k} too large for a function that changes the type \
                             (at most {MAX_TYPED_ITERATIONS} steps and {MAX_ITERATED_DIMS} \
                             dimensions): {t} vs {next}"
                        ),
                    ));
                }
                t = next;
            }
            Ok(t)
        }
        Some(k) => Err(err(
            ErrorKind::ZeroSize,
            kspan,
            format!("iterate: count must not be negative: {k}"),
        )),
        None => {
            let next = c.apply(f, &[t.clone()], span)?;
            if next.equiv(&t, &c.facts) {
                Ok(t)
            } else {
                Err(err(
                    ErrorKind::TypeMismatch,
                    kspan,
                    format!("iterate: a symbolic count needs a function that keeps the type: {t} vs {next}"),
                ))
            }
        }
    }
}

/// `slide2`, `slide3`: one `(size, step)` pair for all dimensions, or one per dimension.
pub fn slide_nd(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let depth = if p == Prim::Slide2 { 2 } else { 3 };
    let ns = nats(args);
    let pairs: Vec<((Nat, Span), (Nat, Span))> = if ns.len() == 2 {
        vec![(ns[0].clone(), ns[1].clone()); depth]
    } else {
        ns.chunks(2).map(|c| (c[0].clone(), c[1].clone())).collect()
    };
    let mut t = inputs[0].clone();
    let mut counts = Vec::new();
    for (size, step) in &pairs {
        let (e, n) = array(p, &t, span)?;
        counts.push(c.windows(p, &n, size, step)?);
        t = e;
    }
    let sizes = pairs.iter().map(|(size, _)| size.0.clone()).collect();
    Ok(nest(nest(t, sizes), counts))
}

/// `pad2`, `pad3`: one padding for all sides, or `(before, after)` per dimension.
pub fn pad_nd(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let depth = if p == Prim::Pad2 { 2 } else { 3 };
    let ns = nats(args);
    let pairs: Vec<((Nat, Span), (Nat, Span))> = if ns.len() == 1 {
        vec![(ns[0].clone(), ns[0].clone()); depth]
    } else {
        ns.chunks(2).map(|c| (c[0].clone(), c[1].clone())).collect()
    };
    let (t, dims) = peel(p, &inputs[0], depth, span)?;
    c.boundary(p, args, &t)?;
    let mut out = t;
    for (n, (l, r)) in dims.iter().zip(&pairs).rev() {
        let len = c.padded(p, n, l, r)?;
        out = Type::array(out, len);
    }
    Ok(out)
}

/// `to_global(f)`, `to_local(f)`, `to_private(f)`: the type of `f`.
pub fn address_space(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    c.apply(fun(args, p, span)?, inputs, span)
}

/// The vector width argument `w`, checked.
fn width(p: Prim, args: &[PrimArg]) -> CResult<(u32, Span)> {
    let (w, span) = nats(args).swap_remove(0);
    match w.as_cst().and_then(|c| u32::try_from(c).ok()) {
        Some(c) if VECTOR_WIDTHS.contains(&c) => Ok((c, span)),
        Some(0) => Err(err(
            ErrorKind::ZeroSize,
            span,
            format!("{}: vector width must be positive: 0", p.name()),
        )),
        _ => Err(err(
            ErrorKind::TypeMismatch,
            span,
            format!(
                "{}: vector width must be one of 2, 3, 4, 8, 16: {w}",
                p.name()
            ),
        )),
    }
}

/// `as_vector(w)`.
pub fn as_vector(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (a, n) = array(p, &inputs[0], span)?;
    let (w, wspan) = width(p, args)?;
    let s = match a {
        Type::Scalar(s) if s != ScalarType::Bool => s,
        t => {
            return Err(err(
                ErrorKind::TypeMismatch,
                span,
                format!("as_vector: expects an array of numbers, found [{t}; {n}]"),
            ))
        }
    };
    let wn = Nat::cst(i64::from(w));
    c.require(
        Cond::Divisible(n.clone(), wn.clone()),
        (
            "as_vector",
            "input length not divisible by the vector width",
        ),
        wspan,
        ErrorKind::Divisibility,
    )?;
    Ok(Type::array(Type::Vector(s, w), n / wn))
}

/// `as_scalar`.
pub fn as_scalar(
    _: &mut Checker<'_>,
    p: Prim,
    _: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    match array(p, &inputs[0], span)? {
        (Type::Vector(s, w), n) => Ok(Type::array(Type::Scalar(s), n * i64::from(w))),
        (t, n) => Err(err(
            ErrorKind::TypeMismatch,
            span,
            format!("as_scalar: expects an array of vectors, found [{t}; {n}]"),
        )),
    }
}

/// `vectorize(w, f)`: `f: a -> b` lifted to `aw -> bw`.
pub fn vectorize(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let (w, _) = width(p, args)?;
    let mut lanes = Vec::new();
    for t in inputs {
        match lanes_of(t, w) {
            Some(l) => lanes.push(l),
            None => {
                return Err(err(
                    ErrorKind::TypeMismatch,
                    span,
                    format!(
                        "vectorize: expects vectors of width {w} (or tuples of them), found {t}"
                    ),
                ))
            }
        }
    }
    // A function of k arguments over a tuple of k vectors (`zip` of vector arrays) gets
    // the tuple's lanes as its arguments (`Checker::apply` spreads them).
    match c.apply(fun(args, p, span)?, &lanes, span)? {
        Type::Scalar(s) => Ok(Type::Vector(s, w)),
        t => Err(err(
            ErrorKind::TypeMismatch,
            span,
            format!("vectorize: the function must give a scalar, found {t}"),
        )),
    }
}
