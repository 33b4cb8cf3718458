//! Views (CGO'17 section 5.3): data-layout primitives emit no code; they build a view, and an
//! access walks the view from the consumer to the memory with a stack of array indices and a
//! stack of tuple fields, giving one flat [`Nat`] index that the simplifier shortens (into a
//! local array, an index per dimension, [`Index::Local`], flattened once bank padding has
//! chosen the rows, [`crate::codegen::cl::locals`]).
//!
//! The same views serve reads and writes: writing `join $ x` into `out` writes `x` into
//! `split(m)` of `out`.
//!
//! The walk from an access to its location is in `walk`; this module holds the views, the
//! locations and the code that reads and writes a location.

use crate::arith::Nat;
use crate::codegen::cl::{CExpr, CType, Index, Stmt};
use crate::codegen::ctypes::CTypes;
use crate::codegen::memory::{Buffer, Space};
use crate::codegen::{CodegenError, GResult};
use crate::types::{ScalarType, Type};
use std::rc::Rc;

mod walk;

pub(crate) use walk::resolve;

/// Boundary handling of a pad view.
#[derive(Clone, Debug)]
pub(crate) enum PadKind {
    Clamp,
    Mirror,
    Wrap,
    /// The constant's view (a scalar, or an array or tuple read element by element).
    Constant(Box<View>),
}

/// Index functions of gather/scatter views: `view[i] = inner[f(i)]`.
#[derive(Clone, Debug)]
pub(crate) enum ReorderFn {
    /// `n - 1 - i`.
    Reverse(Nat),
    /// `i / (n / s) + s * (i % (n / s))`.
    Stride { s: Nat, n: Nat },
    /// The inverse of `Stride`: `(i % s) * (n / s) + i / s`.
    StrideInv { s: Nat, n: Nat },
}

impl ReorderFn {
    fn apply(&self, i: &Nat) -> Nat {
        match self {
            ReorderFn::Reverse(n) => n - i - 1,
            ReorderFn::Stride { s, n } => {
                let chunk = n / s;
                i / &chunk + s * (i % &chunk)
            }
            ReorderFn::StrideInv { s, n } => (i % s) * (n / s) + i / s,
        }
    }
}

/// A lazily indexed value.
#[derive(Clone, Debug)]
pub(crate) enum View {
    /// A buffer with its dimensions, outermost first.
    Mem(Rc<Buffer>, Vec<Nat>),
    /// A private C expression (scalar, vector or struct).
    Value(CExpr),
    /// A tuple of views; also `zip` (which leaves array indices to its components).
    Tuple(Vec<View>),
    /// Element `i` of an array view.
    Access(Box<View>, Nat),
    /// Field `i` of a tuple view (also on arrays of tuples: `unzip`).
    Get(Box<View>, usize),
    /// `split(m)` of the inner view.
    Split(Box<View>, Nat),
    /// `join` of the inner view, whose rows have length `m`.
    Join(Box<View>, Nat),
    /// `transpose` of the inner view.
    Transpose(Box<View>),
    /// `slide` over the outer `steps.len()` dimensions (windows outer, elements inner).
    Slide(Box<View>, Vec<Nat>),
    /// `pad` of the outer dimensions: `(left, original length)` per dimension.
    Pad(Box<View>, Vec<(Nat, Nat)>, PadKind),
    /// `gather`: `view[i] = inner[f(i)]`.
    Reorder(Box<View>, ReorderFn),
    /// `as_vector(w)` of scalar memory (loads and stores `vloadN`/`vstoreN`).
    AsVector(Box<View>, u32),
    /// `as_scalar` of vector values.
    AsScalar(Box<View>, u32),
    /// `split_cover(t)` of the inner view of `n` elements (`(t, n)`): element `i` of block `b`
    /// is element `min(b t, n - t) + i`. With `true`, the write side of `join_cover(n)`: each
    /// element is written only by the block `join_cover` reads it from (the last block skips
    /// the elements it shares with the block before it).
    Cover(Box<View>, Nat, Nat, bool),
    /// `join_cover(n)` of the inner view's blocks of `t` (`(t, n)`): element `j` is element
    /// `j - min(b t, n - t)` of block `b = min(j / t, (n + t - 1) / t - 1)`. Read only:
    /// `split_cover` duplicates elements, so it has no write view (its result is copied).
    Uncover(Box<View>, Nat, Nat),
    /// The write side of `take(n)`: element `i` is element `i` of the inner view, written
    /// only if `i < n` (the elements past `n` are dropped).
    Guard(Box<View>, Nat),
    /// `iota(n)`: element `i` is the index `i` itself.
    Iota,
    /// A map of layout functions: element `j` is the inner view with the index variable of
    /// this name replaced by `j` (`map(transpose)`, `map(join)`, ... as views).
    MapIdx(String, Box<View>),
}

impl View {
    /// Whether reading the view can touch private memory (a private buffer or value), where
    /// an index must be a constant to stay in registers.
    pub(crate) fn in_private(&self) -> bool {
        /// `fields`: the tuple fields selected above, innermost last.
        fn go(v: &View, fields: &mut Vec<usize>) -> bool {
            match v {
                View::Mem(buf, _) => buf.space == Space::Private,
                View::Value(_) => true,
                View::Iota => false,
                View::Get(v, k) => {
                    fields.push(*k);
                    go(v, fields)
                }
                View::Tuple(vs) => match fields.pop() {
                    Some(k) => vs.get(k).is_some_and(|v| go(v, fields)),
                    None => vs.iter().any(|v| go(v, &mut Vec::new())),
                },
                View::Access(v, _)
                | View::Split(v, _)
                | View::Join(v, _)
                | View::Transpose(v)
                | View::Slide(v, _)
                | View::Pad(v, _, _)
                | View::Reorder(v, _)
                | View::AsVector(v, _)
                | View::AsScalar(v, _)
                | View::Guard(v, _)
                | View::Cover(v, _, _, _)
                | View::Uncover(v, _, _)
                | View::MapIdx(_, v) => go(v, fields),
            }
        }
        go(self, &mut Vec::new())
    }

    /// Element `i`.
    pub(crate) fn at(&self, i: Nat) -> View {
        View::Access(Box::new(self.clone()), i)
    }

    /// Field `i`.
    pub(crate) fn get(&self, i: usize) -> View {
        match self {
            View::Tuple(vs) if i < vs.len() => vs[i].clone(),
            v => View::Get(Box::new(v.clone()), i),
        }
    }

    /// The view with the index variable `name` replaced by `by`.
    fn substitute(&self, name: &str, by: &Nat) -> View {
        let s = |n: &Nat| n.substitute_index(name, by);
        let b = |v: &View| Box::new(v.substitute(name, by));
        match self {
            View::Mem(..) | View::Value(_) | View::Iota => self.clone(),
            View::Tuple(vs) => View::Tuple(vs.iter().map(|v| v.substitute(name, by)).collect()),
            View::Access(v, i) => View::Access(b(v), s(i)),
            View::Get(v, k) => View::Get(b(v), *k),
            View::Split(v, m) => View::Split(b(v), s(m)),
            View::Join(v, m) => View::Join(b(v), s(m)),
            View::Transpose(v) => View::Transpose(b(v)),
            View::Guard(v, n) => View::Guard(b(v), s(n)),
            View::Cover(v, t, n, w) => View::Cover(b(v), s(t), s(n), *w),
            View::Uncover(v, t, n) => View::Uncover(b(v), s(t), s(n)),
            View::Slide(v, steps) => View::Slide(b(v), steps.iter().map(s).collect()),
            View::Pad(v, dims, k) => View::Pad(
                b(v),
                dims.iter().map(|(l, n)| (s(l), s(n))).collect(),
                match k {
                    PadKind::Constant(c) => PadKind::Constant(b(c)),
                    k => k.clone(),
                },
            ),
            View::Reorder(v, f) => View::Reorder(
                b(v),
                match f {
                    ReorderFn::Reverse(n) => ReorderFn::Reverse(s(n)),
                    ReorderFn::Stride { s: st, n } => ReorderFn::Stride { s: s(st), n: s(n) },
                    ReorderFn::StrideInv { s: st, n } => ReorderFn::StrideInv { s: s(st), n: s(n) },
                },
            ),
            View::AsVector(v, w) => View::AsVector(b(v), *w),
            View::AsScalar(v, w) => View::AsScalar(b(v), *w),
            View::MapIdx(n, _) if n == name => self.clone(),
            View::MapIdx(n, v) => View::MapIdx(n.clone(), b(v)),
        }
    }
}

/// Where a resolved access lives.
#[derive(Clone, Debug)]
pub(crate) enum Loc {
    /// An element of a buffer.
    Mem {
        buf: Rc<Buffer>,
        /// The element: flat, or per dimension in a local array.
        idx: Index,
        fields: Vec<usize>,
        /// A vector of this width loaded from scalar memory at `idx`.
        vec: Option<u32>,
        /// The vector is at a multiple of its width in a buffer aligned for it: accessed
        /// through a vector pointer.
        aligned: bool,
        /// One lane of a vector element: `(lane, width)`.
        lane: Option<(Nat, u32)>,
    },
    /// A private value with field and lane selections.
    Value {
        code: CExpr,
        fields: Vec<usize>,
        lanes: Vec<Nat>,
    },
    /// A tuple built from its components (an element of a `zip`).
    Tuple(Vec<Loc>),
    /// An element that exists only where `cond` holds (written through `take`).
    Guarded { cond: CExpr, inner: Box<Loc> },
    /// A pad constant: `cond ? value : other`.
    Select {
        cond: CExpr,
        value: Box<Loc>,
        other: Box<Loc>,
    },
    /// A vector access that may cross the end of a clamped pad or of a `take`: the whole
    /// vector where `cond` holds, else each lane on its own (`lanes[l]`, a scalar location,
    /// guarded where it is written through `take`).
    Lanes {
        cond: CExpr,
        whole: Box<Loc>,
        lanes: Vec<Loc>,
    },
}

impl Loc {
    /// `loc` touched only where `cond` holds (a C condition), if there is one.
    fn guarded(cond: Option<CExpr>, loc: Loc) -> Loc {
        match cond {
            Some(cond) => Loc::Guarded {
                cond,
                inner: Box::new(loc),
            },
            None => loc,
        }
    }

    /// The buffer elements this location touches (`Loc::Mem` leaves), each with the C
    /// condition it is touched under, if any (a write through `take`, the data side of a pad
    /// constant).
    pub(crate) fn mem_leaves(&self) -> Vec<(&Loc, Option<CExpr>)> {
        fn go<'l>(loc: &'l Loc, guard: Option<CExpr>, out: &mut Vec<(&'l Loc, Option<CExpr>)>) {
            let and = |c: CExpr| Some(guard.clone().map_or(c.clone(), |g| g.and(c)));
            match loc {
                Loc::Mem { .. } => out.push((loc, guard)),
                Loc::Tuple(ls) => ls.iter().for_each(|l| go(l, guard.clone(), out)),
                Loc::Guarded { cond, inner } => go(inner, and(cond.clone()), out),
                Loc::Select { cond, value, other } => {
                    go(value, and(cond.clone()), out);
                    go(other, and(cond.clone().not()), out);
                }
                Loc::Lanes { cond, whole, lanes } => {
                    go(whole, and(cond.clone()), out);
                    lanes
                        .iter()
                        .for_each(|l| go(l, and(cond.clone().not()), out));
                }
                Loc::Value { .. } => {}
            }
        }
        let mut out = Vec::new();
        go(self, None, &mut out);
        out
    }
}

/// For an element `leaf` of local memory (a [`Loc::mem_leaves`] leaf) of 4-byte words: the
/// words per element of the buffer and the words the access touches, for the bank model
/// ([`super::banks`]); `None` for other memory and element types.
pub(crate) fn bank_words(leaf: &Loc) -> Option<(i64, i64)> {
    let Loc::Mem { buf, vec, lane, .. } = leaf else {
        return None;
    };
    if buf.space != Space::Local {
        return None;
    }
    let word = |s: &ScalarType| matches!(s, ScalarType::F32 | ScalarType::I32 | ScalarType::U32);
    let elem_words = match &buf.elem {
        Type::Scalar(s) if word(s) => 1,
        Type::Vector(s, w) if word(s) => i64::from(*w),
        _ => return None,
    };
    let words = if lane.is_some() {
        1
    } else {
        elem_words * vec.map_or(1, i64::from)
    };
    Some((elem_words, words))
}

/// `e._f0._f1...`: fields of nested tuples.
fn fields(e: CExpr, fs: &[usize]) -> CExpr {
    fs.iter().fold(e, |e, f| e.member(format!("_{f}")))
}

/// The member naming vector lane `l` (of `w`, when known), `s0` to `sf`.
fn lane_name(l: &Nat, w: Option<u32>) -> GResult<String> {
    match l.as_cst() {
        Some(c) if (0..16).contains(&c) && w.is_none_or(|w| c < i64::from(w)) => {
            Ok(format!("s{c:x}"))
        }
        _ => Err(CodegenError::Unsupported(format!(
            "vector lane {l} is not a constant in range"
        ))),
    }
}

/// The lane type and the vector type of a [`Loc::Lanes`] access of `n` lanes, typed `ty`
/// (the vector, or its lanes' scalar where the caller names the memory's element type).
fn lanes_type(ty: &Type, n: usize) -> GResult<(ScalarType, Type)> {
    let s = match ty {
        Type::Vector(s, _) | Type::Scalar(s) => *s,
        _ => return Err(CodegenError::Internal(format!("lanes of a {ty}"))),
    };
    let w = u32::try_from(n).map_err(|_| CodegenError::Internal("lanes".into()))?;
    Ok((s, Type::Vector(s, w)))
}

/// The element type and width of a vector element type.
fn vector_of(t: &Type) -> Option<(ScalarType, u32)> {
    match t {
        Type::Vector(s, w) => Some((*s, *w)),
        _ => None,
    }
}

/// How a buffer element or private value is accessed in C.
enum Access {
    /// `vload{suffix}(offset, ptr)`, `vstore{suffix}(value, offset, ptr)`.
    Call {
        suffix: String,
        offset: CExpr,
        ptr: CExpr,
    },
    /// An element through a pointer cast, `((space T*)buf)[idx]`: the buffer's address
    /// space, the element type `T`, the buffer and the index.
    Cast(Space, CType, String, Index),
    /// An lvalue, read as itself and assigned to.
    Lvalue(CExpr),
}

/// The access to `loc`, a buffer element or a private value.
fn access(loc: &Loc, ct: &mut CTypes) -> GResult<Access> {
    let call = |suffix: String, offset: CExpr, ptr: CExpr| Access::Call {
        suffix,
        offset,
        ptr,
    };
    let at = |name: &str, idx: &Index| CExpr::Offset(Box::new(CExpr::var(name)), idx.clone());
    Ok(match loc {
        Loc::Mem {
            buf,
            idx,
            fields: fs,
            vec,
            aligned,
            lane,
            ..
        } => {
            let name = &buf.name;
            let elem = || CExpr::var(name.clone()).index(idx.clone().expr());
            match (vec, lane) {
                (Some(w), _) if *aligned => {
                    let Type::Scalar(s) = buf.elem else {
                        return Err(CodegenError::Internal("as_vector of vector memory".into()));
                    };
                    let Index::Flat(idx) = idx else {
                        return Err(CodegenError::Internal(
                            "a local element through a vector pointer".into(),
                        ));
                    };
                    let vt = ct.compute(&Type::Vector(s, *w))?;
                    let i = idx / &Nat::cst(i64::from(*w));
                    Access::Cast(buf.space, vt, name.clone(), Index::Flat(i))
                }
                (Some(w), _) if buf.half => call(format!("_half{w}"), CExpr::Int(0), at(name, idx)),
                (Some(w), _) => call(format!("{w}"), CExpr::Int(0), at(name, idx)),
                (None, Some((l, w))) if buf.space == Space::Private && l.as_cst().is_some() => {
                    Access::Lvalue(elem().member(lane_name(l, Some(*w))?))
                }
                (None, Some((l, w))) => {
                    let s = idx.clone().lane(l, *w);
                    if buf.half {
                        call("_half".into(), s.expr(), CExpr::var(name.clone()))
                    } else {
                        let (st, _) = vector_of(&buf.elem).ok_or_else(|| {
                            CodegenError::Unsupported("as_scalar of scalar memory".into())
                        })?;
                        let st = ct.compute(&Type::Scalar(st))?;
                        Access::Cast(buf.space, st, name.clone(), s)
                    }
                }
                (None, None) if buf.half => {
                    let w = vector_of(&buf.elem).map_or(String::new(), |(_, w)| w.to_string());
                    call(
                        format!("_half{w}"),
                        idx.clone().expr(),
                        CExpr::var(name.clone()),
                    )
                }
                (None, None) => Access::Lvalue(fields(elem(), fs)),
            }
        }
        Loc::Value {
            code,
            fields: fs,
            lanes,
        } => {
            let mut e = fields(code.clone(), fs);
            for l in lanes {
                e = e.member(lane_name(l, None)?);
            }
            Access::Lvalue(e)
        }
        Loc::Tuple(_) | Loc::Select { .. } | Loc::Guarded { .. } | Loc::Lanes { .. } => {
            return Err(CodegenError::Internal(
                "a tuple, padded or guarded view accessed whole".into(),
            ))
        }
    })
}

/// The C expression reading `loc`, a value of type `ty`.
pub(crate) fn read(loc: &Loc, ty: &Type, ct: &mut CTypes) -> GResult<CExpr> {
    match loc {
        Loc::Mem {
            vec: Some(_),
            lane: Some((l, w)),
            ..
        } => {
            let Loc::Mem {
                buf,
                idx,
                fields,
                vec,
                aligned,
                ..
            } = loc.clone()
            else {
                return Err(CodegenError::Internal("a vector lane of memory".into()));
            };
            let whole = Loc::Mem {
                buf,
                idx,
                fields,
                vec,
                aligned,
                lane: None,
            };
            Ok(read(&whole, ty, ct)?.member(lane_name(l, Some(*w))?))
        }
        Loc::Mem { .. } | Loc::Value { .. } => Ok(match access(loc, ct)? {
            Access::Call {
                suffix,
                offset,
                ptr,
            } => CExpr::call(&format!("vload{suffix}"), vec![offset, ptr]),
            Access::Cast(space, elem, buf, i) => CExpr::var(buf)
                .cast(CType::pointer(space, elem, true))
                .index(i.expr()),
            Access::Lvalue(l) => l,
        }),
        Loc::Tuple(locs) => {
            let Type::Tuple(ts) = ty else {
                return Err(CodegenError::Internal(format!("a tuple view read as {ty}")));
            };
            let parts = locs
                .iter()
                .zip(ts)
                .map(|(l, t)| read(l, t, ct))
                .collect::<GResult<Vec<_>>>()?;
            Ok(CExpr::Struct(ct.compute(ty)?, parts))
        }
        Loc::Select { cond, value, other } => Ok(cond
            .clone()
            .cond(read(value, ty, ct)?, read(other, ty, ct)?)),
        Loc::Guarded { inner, .. } => read(inner, ty, ct),
        Loc::Lanes { cond, whole, lanes } => {
            let (s, vt) = lanes_type(ty, lanes.len())?;
            let parts = lanes
                .iter()
                .map(|l| read(l, &Type::Scalar(s), ct))
                .collect::<GResult<Vec<_>>>()?;
            let by_lanes = CExpr::Vector(ct.compute(&vt)?, parts);
            Ok(cond.clone().cond(read(whole, &vt, ct)?, by_lanes))
        }
    }
}

/// The statements writing the C expression `value` (of type `ty`) to `loc`; `depth` keeps
/// the names of nested tuple temporaries apart.
pub(crate) fn write(
    loc: &Loc,
    value: CExpr,
    ty: &Type,
    ct: &mut CTypes,
    depth: usize,
) -> GResult<Vec<Stmt>> {
    Ok(match loc {
        Loc::Mem { .. } | Loc::Value { .. } => vec![match access(loc, ct)? {
            Access::Call {
                suffix,
                offset,
                ptr,
            } => Stmt::Expr(CExpr::call(
                &format!("vstore{suffix}"),
                vec![value, offset, ptr],
            )),
            Access::Cast(space, elem, buf, i) => Stmt::Assign {
                place: CExpr::var(buf)
                    .cast(CType::pointer(space, elem, false))
                    .index(i.expr()),
                value,
            },
            Access::Lvalue(place) => Stmt::Assign { place, value },
        }],
        Loc::Tuple(locs) => {
            let Type::Tuple(ts) = ty else {
                return Err(CodegenError::Internal(format!(
                    "a tuple view written with {ty}"
                )));
            };
            let t = format!("t_{depth}");
            let mut out = vec![Stmt::Decl {
                ty: ct.compute(ty)?,
                name: t.clone(),
                init: Some(value),
                konst: false,
            }];
            for (i, (l, ft)) in locs.iter().zip(ts).enumerate() {
                let field = CExpr::var(t.clone()).member(format!("_{i}"));
                out.extend(write(l, field, ft, ct, depth + 1)?);
            }
            vec![Stmt::Block(out)]
        }
        Loc::Guarded { cond, inner } => vec![Stmt::If {
            cond: cond.clone(),
            then: write(inner, value, ty, ct, depth)?,
            otherwise: None,
        }],
        Loc::Lanes { cond, whole, lanes } => {
            let (s, vt) = lanes_type(ty, lanes.len())?;
            let v = format!("v_{depth}");
            let mut by_lanes = Vec::new();
            for (l, loc) in lanes.iter().enumerate() {
                let lane = CExpr::var(v.clone()).member(format!("s{l:x}"));
                by_lanes.extend(write(loc, lane, &Type::Scalar(s), ct, depth + 1)?);
            }
            let decl = Stmt::Decl {
                ty: ct.compute(&vt)?,
                name: v.clone(),
                init: Some(value),
                konst: true,
            };
            let whole = write(whole, CExpr::var(v), &vt, ct, depth + 1)?;
            vec![Stmt::Block(vec![
                decl,
                Stmt::If {
                    cond: cond.clone(),
                    then: whole,
                    otherwise: Some(by_lanes),
                },
            ])]
        }
        Loc::Select { .. } => {
            return Err(CodegenError::Unsupported(
                "writing into a padded view".into(),
            ))
        }
    })
}
