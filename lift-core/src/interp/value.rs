//! Runtime values: scalars, OpenCL vectors, tuples and arrays, with their conversion to and
//! from row-major flat data.
//!
//! Flattening order: arrays row-major (outermost index slowest), vectors lane by lane, and
//! tuples field by field in order (array-of-structs: `[(a, b); 2]` gives `a0 b0 a1 b1`).

use super::{eval_nat, InterpError};
use crate::types::{ScalarType, Type};
use half::f16;
use std::fmt;

/// A scalar value of one of the SPEC scalar types (`f16` as [`half::f16`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Scalar {
    F16(f16),
    F32(f32),
    F64(f64),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    Bool(bool),
}

impl Scalar {
    /// The type of this scalar.
    pub fn ty(self) -> ScalarType {
        match self {
            Scalar::F16(_) => ScalarType::F16,
            Scalar::F32(_) => ScalarType::F32,
            Scalar::F64(_) => ScalarType::F64,
            Scalar::I32(_) => ScalarType::I32,
            Scalar::U32(_) => ScalarType::U32,
            Scalar::I64(_) => ScalarType::I64,
            Scalar::U64(_) => ScalarType::U64,
            Scalar::Bool(_) => ScalarType::Bool,
        }
    }

    /// The value as an `f64` (`bool` as 0 or 1; large 64-bit integers may round).
    pub fn to_f64(self) -> f64 {
        match self {
            Scalar::F16(x) => x.to_f64(),
            Scalar::F32(x) => f64::from(x),
            Scalar::F64(x) => x,
            Scalar::I32(x) => f64::from(x),
            Scalar::U32(x) => f64::from(x),
            Scalar::I64(x) => x as f64,
            Scalar::U64(x) => x as f64,
            Scalar::Bool(x) => f64::from(u8::from(x)),
        }
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::F16(x) => write!(f, "{x}"),
            Scalar::F32(x) => write!(f, "{x}"),
            Scalar::F64(x) => write!(f, "{x}"),
            Scalar::I32(x) => write!(f, "{x}"),
            Scalar::U32(x) => write!(f, "{x}"),
            Scalar::I64(x) => write!(f, "{x}"),
            Scalar::U64(x) => write!(f, "{x}"),
            Scalar::Bool(x) => write!(f, "{x}"),
        }
    }
}

macro_rules! scalar_from {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for Scalar {
            fn from(x: $t) -> Scalar {
                Scalar::$v(x)
            }
        }
    )*};
}

scalar_from!(f16 => F16, f32 => F32, f64 => F64, i32 => I32, u32 => U32, i64 => I64, u64 => U64, bool => Bool);

/// A value: a scalar, an OpenCL vector (its lanes), a tuple, or an array (nested `Vec`).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A scalar.
    Scalar(Scalar),
    /// An OpenCL vector: its lanes, all of one scalar type.
    Vector(Vec<Scalar>),
    /// A tuple.
    Tuple(Vec<Value>),
    /// An array.
    Array(Vec<Value>),
}

impl From<Scalar> for Value {
    fn from(s: Scalar) -> Value {
        Value::Scalar(s)
    }
}

impl Value {
    /// A 1-D array of scalars.
    pub fn from_scalars<T: Into<Scalar> + Copy>(v: &[T]) -> Value {
        Value::Array(v.iter().map(|&x| Value::Scalar(x.into())).collect())
    }

    /// A 1-D array of `f32`.
    pub fn from_f32s(v: &[f32]) -> Value {
        Value::from_scalars(v)
    }

    /// A 2-D array (rows of equal length expected) of scalars.
    pub fn from_rows<T: Into<Scalar> + Copy>(rows: &[Vec<T>]) -> Value {
        Value::Array(rows.iter().map(|r| Value::from_scalars(r)).collect())
    }

    /// Rebuilds a value of type `ty` from row-major flat scalars (see the module doc for the
    /// order); `sizes` binds the size variables of `ty`. The scalars must have the types `ty`
    /// asks for and their number must match exactly (for a capped array `[a; <= n]`: whole
    /// elements, at most `n`).
    pub fn from_flat(
        ty: &Type,
        sizes: &dyn Fn(&str) -> Option<i64>,
        flat: &[Scalar],
    ) -> Result<Value, InterpError> {
        let expected = scalar_count(ty, sizes)?;
        // A capped array (a whole result of run-time length) takes at most its capacity.
        let fits = match ty {
            Type::Capped(e, _) => {
                flat.len() <= expected && flat.len() % scalar_count(e, sizes)?.max(1) == 0
            }
            _ => expected == flat.len(),
        };
        if !fits {
            return Err(InterpError::FlatLength {
                expected,
                actual: flat.len(),
            });
        }
        build(ty, sizes, &mut flat.iter())
    }

    /// All scalars in row-major order (see the module doc for tuples and vectors).
    pub fn flatten(&self) -> Vec<Scalar> {
        let mut out = Vec::new();
        self.flatten_into(&mut out);
        out
    }

    fn flatten_into(&self, out: &mut Vec<Scalar>) {
        match self {
            Value::Scalar(s) => out.push(*s),
            Value::Vector(lanes) => out.extend_from_slice(lanes),
            Value::Tuple(vs) | Value::Array(vs) => vs.iter().for_each(|v| v.flatten_into(out)),
        }
    }

    /// The flattened scalars if they are all `f32`.
    pub fn as_f32s(&self) -> Option<Vec<f32>> {
        self.flatten()
            .into_iter()
            .map(|s| match s {
                Scalar::F32(x) => Some(x),
                _ => None,
            })
            .collect()
    }

    /// The scalar, if this is one.
    pub fn as_scalar(&self) -> Option<Scalar> {
        match self {
            Value::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    /// A short type-like description of the value's shape (`[[f32; 4]; 3]`), taken from the
    /// first element of each array.
    pub fn describe(&self) -> String {
        match self {
            Value::Scalar(s) => s.ty().to_string(),
            Value::Vector(lanes) => match lanes.first() {
                Some(s) => format!("{}x{}", s.ty(), lanes.len()),
                None => "vector of 0 lanes".to_string(),
            },
            Value::Tuple(vs) => {
                let fields: Vec<String> = vs.iter().map(Value::describe).collect();
                format!("({})", fields.join(", "))
            }
            Value::Array(vs) => match vs.first() {
                Some(v) => format!("[{}; {}]", v.describe(), vs.len()),
                None => "[_; 0]".to_string(),
            },
        }
    }
}

/// The number of scalars in a value of type `ty` (`sizes` binds its size variables).
pub fn scalar_count(ty: &Type, sizes: &dyn Fn(&str) -> Option<i64>) -> Result<usize, InterpError> {
    Ok(match ty {
        Type::Scalar(_) => 1,
        Type::Vector(_, w) => *w as usize,
        Type::Tuple(ts) => ts.iter().try_fold(0usize, |acc, t| {
            Ok::<_, InterpError>(acc.saturating_add(scalar_count(t, sizes)?))
        })?,
        Type::Array(e, n) | Type::Capped(e, n) => {
            let n = eval_nat(n, sizes)?;
            scalar_count(e, sizes)?.saturating_mul(n)
        }
    })
}

fn build(
    ty: &Type,
    sizes: &dyn Fn(&str) -> Option<i64>,
    it: &mut std::slice::Iter<'_, Scalar>,
) -> Result<Value, InterpError> {
    let mut next = |t: ScalarType| -> Result<Scalar, InterpError> {
        let s = *it.next().ok_or(InterpError::FlatLength {
            expected: 1,
            actual: 0,
        })?;
        if s.ty() == t {
            Ok(s)
        } else {
            Err(InterpError::TypeMismatch(format!(
                "flat data: expected {t}, found {}",
                s.ty()
            )))
        }
    };
    Ok(match ty {
        Type::Scalar(t) => Value::Scalar(next(*t)?),
        Type::Vector(t, w) => Value::Vector((0..*w).map(|_| next(*t)).collect::<Result<_, _>>()?),
        Type::Tuple(ts) => Value::Tuple(
            ts.iter()
                .map(|t| build(t, sizes, it))
                .collect::<Result<_, _>>()?,
        ),
        Type::Array(e, n) => {
            let n = eval_nat(n, sizes)?;
            Value::Array(
                (0..n)
                    .map(|_| build(e, sizes, it))
                    .collect::<Result<_, _>>()?,
            )
        }
        // A capped array is the rest of the data (at most its capacity): only a whole
        // result has a run-time length.
        Type::Capped(e, n) => {
            let n = eval_nat(n, sizes)?;
            let mut vs = Vec::new();
            while vs.len() < n && it.len() > 0 {
                vs.push(build(e, sizes, it)?);
            }
            Value::Array(vs)
        }
    })
}

/// Where a value departs from a type: a path (`[2].1`), the expected and the actual shape.
pub(super) type Mismatch = (String, String, String);

/// Checks that `v` has type `ty` (sizes evaluated under `sizes`); `Ok(Some(..))` describes the
/// first place where it does not.
pub(super) fn conform(
    v: &Value,
    ty: &Type,
    sizes: &dyn Fn(&str) -> Option<i64>,
) -> Result<Option<Mismatch>, InterpError> {
    let here = |v: &Value| -> Result<Option<Mismatch>, InterpError> {
        Ok(Some((String::new(), show_type(ty, sizes)?, v.describe())))
    };
    let nested = |path: String, m: Option<Mismatch>| m.map(|(p, e, a)| (path + &p, e, a));
    match (v, ty) {
        (Value::Scalar(s), Type::Scalar(t)) if s.ty() == *t => Ok(None),
        (Value::Vector(lanes), Type::Vector(t, w))
            if lanes.len() == *w as usize && lanes.iter().all(|s| s.ty() == *t) =>
        {
            Ok(None)
        }
        (Value::Tuple(vs), Type::Tuple(ts)) if vs.len() == ts.len() => {
            for (i, (v, t)) in vs.iter().zip(ts).enumerate() {
                if let Some(m) = conform(v, t, sizes)? {
                    return Ok(nested(format!(".{i}"), Some(m)));
                }
            }
            Ok(None)
        }
        (Value::Array(vs), Type::Array(e, n)) if eval_nat(n, sizes)? == vs.len() => {
            conform_elems(vs, e, sizes)
        }
        (Value::Array(vs), Type::Capped(e, n)) if vs.len() <= eval_nat(n, sizes)? => {
            conform_elems(vs, e, sizes)
        }
        _ => here(v),
    }
}

/// [`conform`] for every element of an array.
fn conform_elems(
    vs: &[Value],
    e: &Type,
    sizes: &dyn Fn(&str) -> Option<i64>,
) -> Result<Option<Mismatch>, InterpError> {
    for (i, v) in vs.iter().enumerate() {
        if let Some((p, want, got)) = conform(v, e, sizes)? {
            return Ok(Some((format!("[{i}]{p}"), want, got)));
        }
    }
    Ok(None)
}

/// `ty` written with its sizes evaluated (`[f32; 8]`).
fn show_type(ty: &Type, sizes: &dyn Fn(&str) -> Option<i64>) -> Result<String, InterpError> {
    Ok(match ty {
        Type::Array(e, n) => format!("[{}; {}]", show_type(e, sizes)?, eval_nat(n, sizes)?),
        Type::Capped(e, n) => format!("[{}; <= {}]", show_type(e, sizes)?, eval_nat(n, sizes)?),
        Type::Tuple(ts) => {
            let fields: Vec<String> = ts
                .iter()
                .map(|t| show_type(t, sizes))
                .collect::<Result<_, _>>()?;
            format!("({})", fields.join(", "))
        }
        t => t.to_string(),
    })
}
