//! OpenCL C types of lift-rs types: the compute type (registers: `f16` computes as
//! `float`) and the storage type (global buffers: `half`, `bool` as `uchar`), plus one
//! `typedef struct` per tuple type used.

use super::cl::ast::{CScalar, CType, Struct};
use super::{CodegenError, GResult};
use crate::types::{ScalarType, Type};
use std::sync::Arc;

/// The tuple structs and extensions a program needs.
#[derive(Default)]
pub(crate) struct CTypes {
    /// The field types (compute types) of each struct, in the order the structs were first
    /// seen (fields before the structs using them).
    structs: Vec<Arc<[CType]>>,
    /// Whether `double` occurs.
    pub fp64: bool,
}

/// The compute type of a scalar type.
pub(crate) fn scalar(s: ScalarType) -> CScalar {
    match s {
        ScalarType::F16 | ScalarType::F32 => CScalar::Float,
        ScalarType::F64 => CScalar::Double,
        ScalarType::I32 => CScalar::Int,
        ScalarType::U32 => CScalar::Uint,
        ScalarType::I64 => CScalar::Long,
        ScalarType::U64 => CScalar::Ulong,
        ScalarType::Bool => CScalar::Bool,
    }
}

/// Bytes of one element of the storage type (structs as the sum of their fields, which is
/// exact for tuples whose fields have equal sizes).
pub(crate) fn storage_bytes(t: &Type) -> GResult<i64> {
    Ok(match t {
        Type::Scalar(s) => scalar_bytes(*s),
        Type::Vector(s, w) => scalar_bytes(*s) * i64::from(if *w == 3 { 4 } else { *w }),
        Type::Tuple(ts) => ts.iter().map(storage_bytes).sum::<GResult<i64>>()?,
        Type::Array(..) | Type::Capped(..) => {
            return Err(CodegenError::Internal("array element in a buffer".into()))
        }
    })
}

fn scalar_bytes(s: ScalarType) -> i64 {
    match s {
        ScalarType::Bool => 1,
        ScalarType::F16 => 2,
        ScalarType::F32 | ScalarType::I32 | ScalarType::U32 => 4,
        ScalarType::F64 | ScalarType::I64 | ScalarType::U64 => 8,
    }
}

impl CTypes {
    /// The compute type of a non-array type (registers, user functions, local memory).
    pub(crate) fn compute(&mut self, t: &Type) -> GResult<CType> {
        match t {
            Type::Scalar(s) => {
                self.fp64 |= *s == ScalarType::F64;
                Ok(CType::Scalar(scalar(*s)))
            }
            Type::Vector(s, w) => {
                if *s == ScalarType::Bool {
                    return Err(CodegenError::Unsupported("vectors of bool".into()));
                }
                self.fp64 |= *s == ScalarType::F64;
                Ok(CType::Vector(scalar(*s), *w))
            }
            Type::Tuple(ts) => {
                let fields = ts
                    .iter()
                    .map(|t| self.compute(t))
                    .collect::<GResult<Arc<[CType]>>>()?;
                if !self.structs.contains(&fields) {
                    self.structs.push(fields.clone());
                }
                Ok(CType::Struct(fields))
            }
            Type::Array(..) | Type::Capped(..) => Err(CodegenError::Unsupported(format!(
                "an array value where a scalar, vector or tuple is expected: {t}"
            ))),
        }
    }

    /// The storage type of the elements of a global buffer.
    pub(crate) fn storage(&mut self, t: &Type) -> GResult<CType> {
        match t {
            Type::Scalar(ScalarType::F16) | Type::Vector(ScalarType::F16, _) => {
                Ok(CScalar::Half.into())
            }
            Type::Scalar(ScalarType::Bool) => Ok(CScalar::Uchar.into()),
            Type::Tuple(ts)
                if ts
                    .iter()
                    .any(|t| matches!(t, Type::Scalar(ScalarType::F16 | ScalarType::Bool))) =>
            {
                Err(CodegenError::Unsupported(format!(
                    "tuples of f16 or bool in memory: {t}"
                )))
            }
            t => self.compute(t),
        }
    }

    /// The struct types, in dependency order.
    pub(crate) fn structs(&self) -> Vec<Struct> {
        self.structs
            .iter()
            .map(|fields| Struct {
                fields: fields.clone(),
            })
            .collect()
    }
}
