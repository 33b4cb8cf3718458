//! Memory (CGO'17 section 5.2): address spaces and buffers for the values user functions
//! write (the barriers that make them visible to the work-group: [`super::barriers`]).
//!
//! The address space of a temporary follows Algorithm 1: the enclosing `to_global`,
//! `to_local` or `to_private` decides (`writeTo`), else global memory (arguments live there).
//! A temporary is replicated over the enclosing parallel loops that can see its address space:
//! global over all of them, local over the `map_lcl`s, private over none. A temporary written
//! inside a sequential loop is reused by every iteration, since its consumer runs in the same
//! iteration.

use super::cl::ast::LocalArray;
use super::cl::{CScalar, CType, Param, Stmt};
use super::ctypes::{self, CTypes};
use super::emit::{Gen, Par};
use super::view::View;
use super::{CodegenError, GResult, Temporary};
use crate::arith::Nat;
use crate::types::{ScalarType, Type};
use std::rc::Rc;

/// An OpenCL address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Space {
    Global,
    Local,
    Private,
}

impl Space {
    /// The OpenCL qualifier.
    pub(crate) fn qualifier(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Local => "local",
            Space::Private => "private",
        }
    }
}

/// A named region of memory holding elements of one type.
#[derive(Debug)]
pub(crate) struct Buffer {
    /// The C name.
    pub name: String,
    /// Where it lives.
    pub space: Space,
    /// The element (non-array) type.
    pub elem: Type,
    /// Elements are `f16` stored as `half` (read and written with `vload_half`/`vstore_half`).
    pub half: bool,
    /// Private memory only: the dimensions (outermost first) written by parallel maps, which
    /// each work-item holds one element of, so they take no space and their index is dropped.
    pub per_item: Vec<bool>,
    /// Bytes the start of the buffer is known to be aligned to: a vector of at most this
    /// size at a multiple of its width is read and written through a vector pointer (one
    /// wide access) instead of `vloadN`, which compilers must split where they cannot prove
    /// the alignment. Global buffers only: local arrays are read with `vload4`, which the
    /// device compiler widens where it proves the alignment (a kernel with a loop left to it
    /// to unroll declares them aligned, `Gen::pragma_unrolled`); vector pointers into local
    /// memory cost NVIDIA's compiler registers in every loop form (docs/LOWERING.md).
    pub align: i64,
}

impl Buffer {
    /// A buffer; `f16` elements are stored as `half` in global memory only.
    pub(crate) fn new(name: String, space: Space, elem: Type) -> Buffer {
        let half = space == Space::Global
            && matches!(
                elem,
                Type::Scalar(ScalarType::F16) | Type::Vector(ScalarType::F16, _)
            );
        Buffer {
            name,
            space,
            elem,
            half,
            per_item: Vec::new(),
            // OpenCL aligns every buffer object (and sub-buffer) to the device's
            // `CL_DEVICE_MEM_BASE_ADDR_ALIGN`, at least the size of `long16`.
            align: if space == Space::Global && !half {
                GLOBAL_ALIGN
            } else {
                0
            },
        }
    }
}

/// The alignment of every global buffer: the size of the largest built-in type (`long16`),
/// the least `CL_DEVICE_MEM_BASE_ADDR_ALIGN` of a full-profile device.
const GLOBAL_ALIGN: i64 = 128;

/// Bytes of one element as it is stored in `space` (`f16` computes as `float` outside
/// global memory).
fn elem_bytes(t: &Type, space: Space) -> GResult<i64> {
    let widen = |t: &Type| match t {
        Type::Scalar(ScalarType::F16) => Type::Scalar(ScalarType::F32),
        Type::Vector(ScalarType::F16, w) => Type::Vector(ScalarType::F32, *w),
        t => t.clone(),
    };
    match space {
        Space::Global => ctypes::storage_bytes(t),
        _ => ctypes::storage_bytes(&widen(t)),
    }
}

fn constant(n: &Nat, what: &str) -> GResult<i64> {
    n.as_cst().ok_or_else(|| CodegenError::NotConstant {
        what: what.into(),
        size: n.to_string(),
    })
}

/// The C declaration type of a buffer's elements.
pub(crate) fn elem_decl(buf: &Buffer, ct: &mut CTypes) -> GResult<CType> {
    if buf.half {
        Ok(CScalar::Half.into())
    } else if buf.space == Space::Global {
        ct.storage(&buf.elem)
    } else {
        ct.compute(&buf.elem)
    }
}

impl Gen<'_> {
    /// Allocates memory for a value of type `ty` produced at this point, in `space`, and
    /// gives the view to write it to (and read it back from). In private memory, the outer
    /// dimensions of `ty` marked in `per_item` are written by parallel maps: each work-item
    /// holds only its own element of them, so they are left out of the allocation and index.
    pub(super) fn allocate_per_item(
        &mut self,
        ty: &Type,
        space: Space,
        per_item: &[bool],
    ) -> GResult<View> {
        // A tuple holding arrays is stored as one buffer per component (struct of arrays),
        // its view the tuple of theirs (`zip`).
        if let Type::Tuple(ts) = ty.base() {
            if ts.iter().any(|t| matches!(t, Type::Array(..))) {
                let dims = ty.dims();
                return ts
                    .iter()
                    .map(|t| {
                        let comp = dims
                            .iter()
                            .rev()
                            .fold(t.clone(), |e, n| Type::array(e, n.clone()));
                        self.allocate_per_item(&comp, space, per_item)
                    })
                    .collect::<GResult<Vec<_>>>()
                    .map(View::Tuple);
            }
        }
        let (buf, dims, reps) = self.allocate_in(ty, space, per_item)?;
        Ok(reps.into_iter().fold(View::Mem(buf, dims), |v, i| v.at(i)))
    }

    /// Allocates like [`Gen::allocate_per_item`] (nothing per item); gives the buffer, its dimensions and the indices of
    /// the enclosing parallel loops it is replicated over.
    pub(super) fn allocate_raw(
        &mut self,
        ty: &Type,
        space: Space,
    ) -> GResult<(Rc<Buffer>, Vec<Nat>, Vec<Nat>)> {
        self.allocate_in(ty, space, &[])
    }

    fn allocate_in(
        &mut self,
        ty: &Type,
        space: Space,
        per_item: &[bool],
    ) -> GResult<(Rc<Buffer>, Vec<Nat>, Vec<Nat>)> {
        let elem = ty.base().clone();
        if matches!(elem, Type::Tuple(ref ts) if ts.iter().any(|t| matches!(t, Type::Array(..)))) {
            return Err(CodegenError::Unsupported(format!(
                "memory for tuples of arrays: {ty}"
            )));
        }
        let reps: Vec<(Nat, Nat)> = self
            .par
            .iter()
            .filter(|p| match space {
                Space::Global => true,
                Space::Local => p.par == Par::Lcl,
                Space::Private => false,
            })
            .map(|p| (p.idx.clone(), p.trip.clone()))
            .collect();
        let mut dims: Vec<Nat> = reps.iter().map(|(_, t)| t.clone()).collect();
        dims.extend(ty.dims());
        let prefix = match space {
            Space::Global => "tmp_g",
            Space::Local => "tmp_l",
            Space::Private => "tmp_p",
        };
        let name = self.fresh(prefix);
        let per_item: Vec<bool> = match space {
            Space::Private => per_item.iter().copied().take(dims.len()).collect(),
            _ => Vec::new(),
        };
        let count = dims
            .iter()
            .enumerate()
            .filter(|(k, _)| !per_item.get(*k).copied().unwrap_or(false))
            .fold(Nat::cst(1), |a, (_, d)| a * d)
            .simplify_with(&self.facts);
        let mut buf = Buffer::new(name.clone(), space, elem.clone());
        buf.per_item = per_item;
        let buf = Rc::new(buf);
        let decl = elem_decl(&buf, &mut self.ct)?;
        let bytes = elem_bytes(&elem, space)?;
        match space {
            Space::Global => {
                self.temporaries.push(Temporary {
                    name: name.clone(),
                    scalars: &count * &Nat::cst(super::scalars_per(&elem)),
                    bytes: count * bytes,
                });
                self.temp_params
                    .push(Param::pointer(Space::Global, decl, name.clone()));
            }
            // A size known only at launch: a `__local` pointer parameter (LIFT's way).
            Space::Local => match count.as_cst() {
                Some(c) => self.local_decls.push(LocalArray {
                    ty: decl,
                    name: name.clone(),
                    len: c,
                    elem_bytes: bytes,
                    row: match ty.dims()[..] {
                        [_, .., ref last] => last.as_cst(),
                        _ => None,
                    },
                }),
                None => self.local_params.push((
                    Param::pointer(Space::Local, decl, name.clone()),
                    count * bytes,
                )),
            },
            Space::Private => {
                let c = constant(&count, "private memory")?;
                self.emit(Stmt::Array {
                    space: Space::Private,
                    ty: decl,
                    name: name.clone(),
                    len: c,
                });
            }
        }
        Ok((buf, dims, reps.into_iter().map(|(i, _)| i).collect()))
    }
}
