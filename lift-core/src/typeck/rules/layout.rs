//! The typing rules of the data-layout primitives: zips, splits and joins, takes, slides,
//! pads, transposes, reorders and element access, in one and several dimensions.

use super::{array, err, nats, nest, peel};
use crate::arith::Nat;
use crate::error::{CResult, ErrorKind};
use crate::ir::{PrimArg, Reorder};
use crate::prim::Prim;
use crate::typeck::expr::project;
use crate::typeck::{Checker, Cond};
use crate::types::Type;
use proc_macro2::Span;

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
