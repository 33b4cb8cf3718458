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

/// A view of one array `[a; n]` with at most one size argument `m`, typed by [`view`]: `m`
/// positive, a condition on `n` and `m` (a launch-time condition when the sizes do not decide
/// it), the result type from `a`, `n` and `m`.
struct View {
    prim: Prim,
    /// What the size argument is (for the error when it is not positive); `None` where the
    /// primitive takes none (`m` is then 0 and the condition is checked at its span).
    arg: Option<&'static str>,
    /// The condition on `n` and `m`.
    cond: fn(Nat, Nat) -> Cond,
    /// Why the view fails where the condition does not hold, and the error's kind.
    fails: (&'static str, ErrorKind),
    /// The result type.
    result: fn(Type, Nat, Nat) -> Type,
}

/// The views typed by [`view`]: `split(m)` (`m` divides `n`), `split_cover(t)` (blocks of `t`
/// that cover the input, the last one shifted back to end at `n`, overlapping the one before
/// when `t` does not divide `n`; `t <= n`), `take(n)` (the first `n` elements of `m`; `n <=
/// m`), `head` (the first element as an array of one; `n >= 1`), `tail` (all but the first;
/// `n >= 2`, SPEC).
const VIEWS: [View; 5] = [
    View {
        prim: Prim::Split,
        arg: Some("chunk size"),
        cond: Cond::Divisible,
        fails: (
            "input length not divisible by the chunk size",
            ErrorKind::Divisibility,
        ),
        result: |a, n, m| Type::array(Type::array(a, m.clone()), n / m),
    },
    View {
        prim: Prim::SplitCover,
        arg: Some("block size"),
        cond: |n, t| Cond::Le(t, n),
        fails: ("block larger than the input", ErrorKind::OutOfBounds),
        result: |a, n, t| {
            let blocks = cover_blocks(&n, &t);
            Type::array(Type::array(a, t), blocks)
        },
    },
    View {
        prim: Prim::Take,
        arg: Some("length"),
        cond: |m, n| Cond::Le(n, m),
        fails: ("longer than the input", ErrorKind::OutOfBounds),
        result: |a, _, n| Type::array(a, n),
    },
    View {
        prim: Prim::Head,
        arg: None,
        cond: |n, _| Cond::Le(Nat::cst(1), n),
        fails: ("of an empty array", ErrorKind::OutOfBounds),
        result: |a, _, _| Type::array(a, Nat::cst(1)),
    },
    View {
        prim: Prim::Tail,
        arg: None,
        cond: |n, _| Cond::Le(Nat::cst(2), n),
        fails: ("needs at least two elements", ErrorKind::OutOfBounds),
        result: |a, n, _| Type::array(a, n - 1),
    },
];

/// `split(m)`, `split_cover(t)`, `take(n)`, `head`, `tail`: the views of [`VIEWS`].
pub fn view(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let Some(v) = VIEWS.iter().find(|v| v.prim == p) else {
        let why = format!("{}: not a view of one array", p.name());
        return Err(err(ErrorKind::Unsupported, span, why));
    };
    let (a, n) = array(p, &inputs[0], span)?;
    let (m, at) = match v.arg {
        Some(what) => {
            let (m, mspan) = nats(args).swap_remove(0);
            c.positive(p, what, &m, mspan)?;
            (m, mspan)
        }
        None => (Nat::cst(0), span),
    };
    let (why, kind) = v.fails;
    c.require((v.cond)(n.clone(), m.clone()), (p.name(), why), at, kind)?;
    Ok((v.result)(a, n, m))
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

/// A regrouping of the levels of a nested array: how many levels it reads (their lengths,
/// outermost first) and the result type from the element type and those lengths.
struct Regroup {
    prims: &'static [Prim],
    depth: usize,
    result: fn(Type, &[Nat]) -> Type,
}

/// The regroupings typed by [`regroup`]: `join` (`[[a; m]; n]` to `[a; n * m]`), `transpose`
/// and `transpose_w` (`[[a; m]; n]` to `[[a; n]; m]`), `untile2` (the inverse of
/// `slide2(ty, ty, tx, tx)`: `[[[[a; tx]; ty]; nx]; ny]` to `[[a; nx * tx]; ny * ty]`).
const REGROUPS: [Regroup; 3] = [
    Regroup {
        prims: &[Prim::Join],
        depth: 2,
        result: |a, d| Type::array(a, &d[0] * &d[1]),
    },
    Regroup {
        prims: &[Prim::Transpose, Prim::TransposeW],
        depth: 2,
        result: |a, d| Type::array(Type::array(a, d[0].clone()), d[1].clone()),
    },
    Regroup {
        prims: &[Prim::Untile2],
        depth: 4,
        result: |a, d| Type::array(Type::array(a, &d[1] * &d[3]), &d[0] * &d[2]),
    },
];

/// `join`, `transpose`, `transpose_w`, `untile2`: the regroupings of [`REGROUPS`].
pub fn regroup(
    _: &mut Checker<'_>,
    p: Prim,
    _: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let Some(r) = REGROUPS.iter().find(|r| r.prims.contains(&p)) else {
        let why = format!("{}: not a regrouping of levels", p.name());
        return Err(err(ErrorKind::Unsupported, span, why));
    };
    let (a, dims) = peel(p, &inputs[0], r.depth, span)?;
    Ok((r.result)(a, &dims))
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

/// The size arguments of `slide`, `pad` and their 2-D and 3-D forms as one pair per
/// dimension: given per dimension, or once for all (`slide2(size, step)`; `pad2(p)`, `p` on
/// both sides).
fn per_dimension(p: Prim, args: &[PrimArg]) -> Vec<((Nat, Span), (Nat, Span))> {
    let depth = match p {
        Prim::Slide | Prim::Pad => 1,
        Prim::Slide2 | Prim::Pad2 => 2,
        _ => 3,
    };
    match nats(args).as_slice() {
        [x] => vec![(x.clone(), x.clone()); depth],
        [x, y] => vec![(x.clone(), y.clone()); depth],
        ns => ns.chunks(2).map(|c| (c[0].clone(), c[1].clone())).collect(),
    }
}

/// `slide(size, step)`; `slide2`, `slide3`: one `(size, step)` pair for all dimensions, or
/// one per dimension.
pub fn slide(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let pairs = per_dimension(p, args);
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

/// `pad(l, r, b)`; `pad2`, `pad3`: one padding for all sides, or `(before, after)` per
/// dimension.
pub fn pad(
    c: &mut Checker<'_>,
    p: Prim,
    args: &mut [PrimArg],
    inputs: &[Type],
    span: Span,
) -> CResult<Type> {
    let pairs = per_dimension(p, args);
    let (t, dims) = peel(p, &inputs[0], pairs.len(), span)?;
    c.boundary(p, args, &t)?;
    let mut out = t;
    for (n, (l, r)) in dims.iter().zip(&pairs).rev() {
        let len = c.padded(p, n, l, r)?;
        out = Type::array(out, len);
    }
    Ok(out)
}
