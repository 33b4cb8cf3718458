//! OpenCL C spellings of lift-rs types: the compute type (registers: `f16` computes as
//! `float`) and the storage type (global buffers: `half`, `bool` as `uchar`), plus one
//! `typedef struct` per tuple type used.

use super::{CodegenError, GResult};
use crate::types::{ScalarType, Type};
use std::collections::BTreeMap;

/// The tuple structs and extensions a program needs.
#[derive(Default)]
pub(crate) struct CTypes {
    /// Struct name to its field types (compute types), in first-use order by name.
    structs: BTreeMap<String, Vec<String>>,
    /// Order in which the structs were first seen (fields before the structs using them).
    order: Vec<String>,
    /// Whether `double` occurs.
    pub fp64: bool,
}

/// The compute spelling of a scalar type.
pub(crate) fn scalar(s: ScalarType) -> &'static str {
    match s {
        ScalarType::F16 | ScalarType::F32 => "float",
        ScalarType::F64 => "double",
        ScalarType::I32 => "int",
        ScalarType::U32 => "uint",
        ScalarType::I64 => "long",
        ScalarType::U64 => "ulong",
        ScalarType::Bool => "bool",
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
    pub(crate) fn compute(&mut self, t: &Type) -> GResult<String> {
        match t {
            Type::Scalar(s) => {
                self.fp64 |= *s == ScalarType::F64;
                Ok(scalar(*s).to_string())
            }
            Type::Vector(s, w) => {
                if *s == ScalarType::Bool {
                    return Err(CodegenError::Unsupported("vectors of bool".into()));
                }
                self.fp64 |= *s == ScalarType::F64;
                Ok(format!("{}{w}", scalar(*s)))
            }
            Type::Tuple(ts) => {
                let fields = ts
                    .iter()
                    .map(|t| self.compute(t))
                    .collect::<GResult<Vec<_>>>()?;
                let name = format!("Tuple_{}", fields.join("_"));
                if !self.structs.contains_key(&name) {
                    self.order.push(name.clone());
                    self.structs.insert(name.clone(), fields);
                }
                Ok(name)
            }
            Type::Array(..) | Type::Capped(..) => Err(CodegenError::Unsupported(format!(
                "an array value where a scalar, vector or tuple is expected: {t}"
            ))),
        }
    }

    /// The storage type of the elements of a global buffer.
    pub(crate) fn storage(&mut self, t: &Type) -> GResult<String> {
        match t {
            Type::Scalar(ScalarType::F16) => Ok("half".into()),
            Type::Scalar(ScalarType::Bool) => Ok("uchar".into()),
            Type::Vector(ScalarType::F16, _) => Ok("half".into()),
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
    pub(crate) fn structs(&self) -> Vec<super::cl::ast::Struct> {
        self.order
            .iter()
            .map(|name| super::cl::ast::Struct {
                name: name.clone(),
                fields: self.structs[name].clone(),
            })
            .collect()
    }
}
