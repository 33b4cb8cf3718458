//! The walk of a view from an access to the memory (or value) it reads: every view pops the
//! indices and fields it consumes and pushes the ones of its input.

use super::{Loc, PadKind, View};
use crate::arith::{CmpOp, Facts, Nat};
use crate::codegen::cl::{BinOp, CExpr, Index, LocalAt};
use crate::codegen::ctypes;
use crate::codegen::memory::{Buffer, Space};
use crate::codegen::{CodegenError, GResult};
use std::rc::Rc;

/// The state of a walk: pending array indices (top = outermost), pending tuple fields (top =
/// applied first), and vector accesses met on the way.
#[derive(Clone, Default)]
struct Path {
    idx: Vec<Nat>,
    fields: Vec<usize>,
    vec: Option<u32>,
    lane: Option<(Nat, u32)>,
}

impl Path {
    fn pop(&mut self, what: &str) -> GResult<Nat> {
        self.idx.pop().ok_or_else(|| {
            CodegenError::Unsupported(format!(
                "{what}: a whole array used where an element is expected"
            ))
        })
    }
}

/// The first element of block `b` of `split_cover(t)` over `n` elements: `min(b t, n - t)`
/// (`b t` where `t` divides `n`).
fn cover_start(b: &Nat, t: &Nat, n: &Nat, facts: &Facts) -> Nat {
    if facts.divisible(n, t) == Some(true) {
        b * t
    } else {
        Nat::min(&(b * t), &(n - t))
    }
}

/// Resolves an access to a non-array element of `v`.
pub(crate) fn resolve(v: &View, facts: &Facts) -> GResult<Loc> {
    walk(v, Path::default(), facts)
}

/// Refuses a view that reorders the `popped` outer indices of a vector access when one of
/// them is the vector's own (innermost) index: reorders of outer dimensions keep it contiguous.
fn contiguous(p: &Path, popped: usize, what: &str) -> GResult<()> {
    match p.vec {
        Some(_) if p.idx.len() <= popped => Err(CodegenError::Unsupported(format!(
            "as_vector over a non-contiguous view ({what})"
        ))),
        _ => Ok(()),
    }
}

fn walk(v: &View, mut p: Path, facts: &Facts) -> GResult<Loc> {
    match v {
        View::Access(inner, i) => {
            p.idx.push(i.clone());
            walk(inner, p, facts)
        }
        View::Get(inner, k) => {
            p.fields.push(*k);
            walk(inner, p, facts)
        }
        View::Tuple(vs) => match p.fields.pop() {
            Some(k) => {
                let inner = vs.get(k).ok_or_else(|| {
                    CodegenError::Internal(format!("tuple field {k} out of range"))
                })?;
                walk(inner, p, facts)
            }
            None => Ok(Loc::Tuple(
                vs.iter()
                    .map(|v| walk(v, p.clone(), facts))
                    .collect::<GResult<_>>()?,
            )),
        },
        View::Split(inner, m) => {
            let c = p.pop("split")?;
            let e = p.pop("split")?;
            p.idx.push(c * m + e);
            walk(inner, p, facts)
        }
        View::Join(inner, m) => {
            let i = p.pop("join")?;
            p.idx.push(&i % m);
            p.idx.push(&i / m);
            walk(inner, p, facts)
        }
        View::Cover(inner, t, n, write) => walk_cover(inner, t, n, *write, p, facts),
        View::Uncover(inner, t, n) => walk_uncover(inner, t, n, p, facts),
        View::Guard(inner, n) if p.vec.is_some() => walk_vector_guard(inner, n, p, facts),
        View::Guard(inner, n) => {
            let i = p.pop("take")?;
            let cond = match facts.le(&(&i + 1), n) {
                Some(true) => None,
                _ => Some(CExpr::cmp(&i.simplify_with(facts), BinOp::Lt, n)),
            };
            p.idx.push(i);
            Ok(Loc::guarded(cond, walk(inner, p, facts)?))
        }
        View::Transpose(inner) => {
            contiguous(&p, 2, "transpose")?;
            let a = p.pop("transpose")?;
            let b = p.pop("transpose")?;
            p.idx.push(a);
            p.idx.push(b);
            walk(inner, p, facts)
        }
        View::Slide(inner, steps) => {
            let windows = (0..steps.len())
                .map(|_| p.pop("slide"))
                .collect::<GResult<Vec<_>>>()?;
            let elems = (0..steps.len())
                .map(|_| p.pop("slide"))
                .collect::<GResult<Vec<_>>>()?;
            for k in (0..steps.len()).rev() {
                p.idx.push(&windows[k] * &steps[k] + &elems[k]);
            }
            walk(inner, p, facts)
        }
        View::Pad(inner, dims, PadKind::Clamp)
            if p.vec.is_some()
                && p.idx.len() == 1
                && dims.len() == 1
                && dims[0].0.as_cst() == Some(0) =>
        {
            walk_vector_clamp(inner, &dims[0].1, p, facts)
        }
        View::Pad(inner, dims, kind) => walk_pad(inner, dims, kind, p, facts),
        View::Reorder(inner, f) => {
            contiguous(&p, 1, "gather/scatter")?;
            let i = p.pop("gather")?;
            p.idx.push(f.apply(&i));
            walk(inner, p, facts)
        }
        View::AsVector(inner, w) => {
            if p.vec.is_some() || p.lane.is_some() {
                return Err(CodegenError::Unsupported(
                    "nested as_vector/as_scalar".into(),
                ));
            }
            let i = p.pop("as_vector")?;
            p.idx.push(i * i64::from(*w));
            p.vec = Some(*w);
            walk(inner, p, facts)
        }
        View::AsScalar(inner, w) => {
            if p.vec.is_some() || p.lane.is_some() {
                return Err(CodegenError::Unsupported(
                    "nested as_vector/as_scalar".into(),
                ));
            }
            let i = p.pop("as_scalar")?;
            let wn = Nat::cst(i64::from(*w));
            p.idx.push(&i / &wn);
            p.lane = Some((&i % &wn, *w));
            walk(inner, p, facts)
        }
        View::MapIdx(name, inner) => {
            let j = p.pop("map of a layout function")?;
            walk(&inner.substitute(name, &j), p, facts)
        }
        View::Mem(buf, dims) => walk_mem(buf, dims, p, facts),
        View::Iota => {
            let i = p.pop("iota")?;
            if p.vec.is_some() || p.lane.is_some() || !p.idx.is_empty() || !p.fields.is_empty() {
                return Err(CodegenError::Unsupported(
                    "a vector, field or element of an index of iota".into(),
                ));
            }
            Ok(Loc::Value {
                code: CExpr::Nat(i.simplify_with(facts)),
                fields: Vec::new(),
                lanes: Vec::new(),
            })
        }
        View::Value(code) => {
            if p.vec.is_some() || p.lane.is_some() {
                return Err(CodegenError::Unsupported(
                    "as_vector/as_scalar of a private value".into(),
                ));
            }
            p.fields.reverse();
            p.idx.reverse();
            Ok(Loc::Value {
                code: code.clone(),
                fields: p.fields,
                lanes: p.idx,
            })
        }
    }
}

/// [`walk`] into `split_cover(t)` over `n` elements (`write`: the view a kernel writes).
fn walk_cover(
    inner: &View,
    t: &Nat,
    n: &Nat,
    write: bool,
    mut p: Path,
    facts: &Facts,
) -> GResult<Loc> {
    contiguous(&p, 2, "split_cover")?;
    let b = p.pop("split_cover")?;
    let i = p.pop("split_cover")?;
    let at = (cover_start(&b, t, n, facts) + i).simplify_with(facts);
    // Written by the block `join_cover` reads it from: the last block skips what it
    // shares with the one before it (`b t <= start + i` fails only there).
    let cond = (write && facts.divisible(n, t) != Some(true))
        .then(|| CExpr::cmp(&(&b * t).simplify_with(facts), BinOp::Le, &at));
    p.idx.push(at);
    Ok(Loc::guarded(cond, walk(inner, p, facts)?))
}

/// [`walk`] into `join_cover` of blocks of `t` over `n` elements.
fn walk_uncover(inner: &View, t: &Nat, n: &Nat, mut p: Path, facts: &Facts) -> GResult<Loc> {
    contiguous(&p, 1, "join_cover")?;
    let j = p.pop("join_cover")?;
    let last = crate::typeck::rules::cover_blocks(n, t) - 1;
    let b = if facts.divisible(n, t) == Some(true) {
        &j / t
    } else {
        Nat::min(&(&j / t), &last)
    };
    let start = cover_start(&b, t, n, facts);
    p.idx.push((&j - &start).simplify_with(facts));
    p.idx.push(b.simplify_with(facts));
    walk(inner, p, facts)
}

/// A vector of `w` lanes from index `j` that may reach past `n` elements: the whole vector
/// (`whole`, walked with `j`) where `j + w <= n` (without a condition where that is known),
/// else lane by lane (`lane(l, path)`: lane `l`'s scalar location, its path without the
/// vector).
fn by_lanes(
    j: Nat,
    n: &Nat,
    mut p: Path,
    facts: &Facts,
    whole: impl FnOnce(Path) -> GResult<Loc>,
    lane: impl Fn(i64, Path) -> GResult<Loc>,
) -> GResult<Loc> {
    let w = i64::from(p.vec.unwrap_or(1));
    let end = &j + w;
    if facts.le(&end, n) == Some(true) {
        p.idx.push(j);
        return whole(p);
    }
    let mut scalar = p.clone();
    scalar.vec = None;
    let lanes = (0..w)
        .map(|l| lane(l, scalar.clone()))
        .collect::<GResult<Vec<_>>>()?;
    let cond = CExpr::cmp(&end.simplify_with(facts), BinOp::Le, n);
    p.idx.push(j);
    Ok(Loc::Lanes {
        cond,
        whole: Box::new(whole(p)?),
        lanes,
    })
}

/// [`walk`] of a vector into `pad(0, r, clamp)` of `n` elements (the tail of a vectorised
/// map, `explore::vectors`): where the vector may reach the padding, each lane clamped.
fn walk_vector_clamp(inner: &View, n: &Nat, mut p: Path, facts: &Facts) -> GResult<Loc> {
    let j = p.pop("pad")?;
    let last = n - 1;
    by_lanes(
        j.clone(),
        n,
        p,
        facts,
        |q| walk(inner, q, facts),
        |l, mut q| {
            q.idx.push(Nat::min(&(&j + l), &last).simplify_with(facts));
            walk(inner, q, facts)
        },
    )
}

/// [`walk`] of a vector into the write side of `take(n)`: where the vector may reach past
/// `n`, each lane written only if it is before `n`.
fn walk_vector_guard(inner: &View, n: &Nat, mut p: Path, facts: &Facts) -> GResult<Loc> {
    let j = p.pop("take")?;
    by_lanes(
        j.clone(),
        n,
        p,
        facts,
        |q| walk(inner, q, facts),
        |l, mut q| {
            let i = (&j + l).simplify_with(facts);
            let cond = CExpr::cmp(&i, BinOp::Lt, n);
            q.idx.push(i);
            Ok(Loc::guarded(Some(cond), walk(inner, q, facts)?))
        },
    )
}

/// [`walk`] into a pad of the dimensions `dims` (left padding and length of each).
fn walk_pad(
    inner: &View,
    dims: &[(Nat, Nat)],
    kind: &PadKind,
    mut p: Path,
    facts: &Facts,
) -> GResult<Loc> {
    contiguous(&p, dims.len(), "pad")?;
    let is = (0..dims.len())
        .map(|_| p.pop("pad"))
        .collect::<GResult<Vec<_>>>()?;
    // The path into an element, for an array or tuple constant.
    let elem = p.clone();
    let mut outside = Vec::new();
    for k in (0..dims.len()).rev() {
        let (l, n) = &dims[k];
        let j = &is[k] - l;
        let idx = match kind {
            // Each side only where the index may leave the array (the simplifier
            // does not see the range of a `max` inside a `min`).
            PadKind::Clamp => {
                let low = match facts.le(&Nat::cst(0), &j) {
                    Some(true) => j.clone(),
                    _ => Nat::max(&j, &Nat::cst(0)),
                };
                match facts.le(&(&j + 1), n) {
                    Some(true) => low,
                    _ => Nat::min(&low, &(n - 1)),
                }
            }
            // One reflection per side where the padding is provably at most the
            // input's length; else LIFT's periodic reflection (period 2n).
            PadKind::Mirror
                if facts.le(&-n.clone(), &j) == Some(true)
                    && facts.le(&j, &(n * 2 - 1)) == Some(true) =>
            {
                let high = Nat::ite(&j, CmpOp::Ge, n, &(n * 2 - &j - 1), &j);
                Nat::ite(&j, CmpOp::Lt, &Nat::cst(0), &(-&j - 1), &high)
            }
            PadKind::Mirror => {
                let m = ((&j % &(n * 2)) + n * 2) % (n * 2);
                Nat::ite(&m, CmpOp::Ge, n, &(n * 2 - &m - 1), &m)
            }
            PadKind::Wrap => ((&j % n) + n) % n,
            PadKind::Constant(_) => {
                if facts.le(&Nat::cst(0), &j) != Some(true) {
                    outside.push(CExpr::cmp(&j, BinOp::Lt, &Nat::cst(0)));
                }
                if facts.le(&(&j + 1), n) != Some(true) {
                    outside.push(CExpr::cmp(&j, BinOp::Ge, n));
                }
                j
            }
        };
        p.idx.push(idx.simplify_with(facts));
    }
    let loc = walk(inner, p, facts)?;
    match kind {
        PadKind::Constant(c) if !outside.is_empty() => {
            let value = match &**c {
                // A scalar: also the value of every lane of a vector read.
                View::Value(code) if elem.idx.is_empty() && elem.fields.is_empty() => Loc::Value {
                    code: code.clone(),
                    fields: Vec::new(),
                    lanes: Vec::new(),
                },
                c => walk(c, elem, facts)?,
            };
            Ok(Loc::Select {
                cond: outside
                    .into_iter()
                    .reduce(|a, b| a.bin(BinOp::Or, b))
                    .ok_or_else(|| CodegenError::Internal("a pad without a guard".into()))?,
                value: Box::new(value),
                other: Box::new(loc),
            })
        }
        _ => Ok(loc),
    }
}

/// [`walk`]'s end at buffer `buf` of dimensions `dims`: the memory location.
fn walk_mem(buf: &Rc<Buffer>, dims: &[Nat], mut p: Path, facts: &Facts) -> GResult<Loc> {
    let mut flat = Nat::cst(0);
    let mut at = Vec::new();
    for (k, d) in dims.iter().enumerate() {
        let i = p.pop("memory access")?;
        if buf.space == Space::Local {
            at.push((i, d.clone()));
        } else if !buf.per_item.get(k).copied().unwrap_or(false) {
            flat = flat * d + i;
        }
    }
    // A lane of a vector read from scalar memory (`(as_vector(w) $ x)[i][k]`): the vector
    // read, then the lane.
    let lane = match (p.vec, p.idx.as_slice(), &p.lane) {
        (_, [], _) => p.lane.clone(),
        (Some(w), [k], None) => Some((k.clone(), w)),
        _ => {
            return Err(CodegenError::Unsupported(
                "indexing into a vector element of memory".into(),
            ))
        }
    };
    p.fields.reverse();
    // Local arrays keep the index per dimension (bank padding may widen their rows).
    let idx = match buf.space {
        Space::Local => Index::Local(LocalAt {
            buf: buf.name.clone(),
            at,
            lane: None,
        }),
        _ => Index::Flat(flat.simplify_with(facts)),
    };
    let aligned = match (&idx, p.vec) {
        (Index::Flat(idx), Some(w)) => {
            let bytes = ctypes::storage_bytes(&buf.elem).unwrap_or(i64::MAX);
            bytes.saturating_mul(i64::from(w)) <= buf.align
                && facts.divisible(idx, &Nat::cst(i64::from(w))) == Some(true)
        }
        _ => false,
    };
    Ok(Loc::Mem {
        buf: buf.clone(),
        idx,
        fields: p.fields,
        vec: p.vec,
        aligned,
        lane,
    })
}
