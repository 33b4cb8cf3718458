//! Types of lift-rs values: scalars, OpenCL vectors, tuples and arrays with symbolic sizes.

use crate::arith::{Facts, Nat};
use std::fmt;

/// A scalar element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarType {
    /// Half precision: a storage type, computed in f32.
    F16,
    /// 32-bit float.
    F32,
    /// 64-bit float.
    F64,
    /// 32-bit signed integer.
    I32,
    /// 32-bit unsigned integer.
    U32,
    /// 64-bit signed integer.
    I64,
    /// 64-bit unsigned integer.
    U64,
    /// Boolean.
    Bool,
}

impl ScalarType {
    /// All scalar types, in declaration order.
    pub const ALL: [ScalarType; 8] = [
        ScalarType::F16,
        ScalarType::F32,
        ScalarType::F64,
        ScalarType::I32,
        ScalarType::U32,
        ScalarType::I64,
        ScalarType::U64,
        ScalarType::Bool,
    ];

    /// The Rust spelling (`f32`, `u64`, ...), also used in `lift!` source.
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::F16 => "f16",
            ScalarType::F32 => "f32",
            ScalarType::F64 => "f64",
            ScalarType::I32 => "i32",
            ScalarType::U32 => "u32",
            ScalarType::I64 => "i64",
            ScalarType::U64 => "u64",
            ScalarType::Bool => "bool",
        }
    }

    /// Parses a Rust scalar type name.
    pub fn from_name(s: &str) -> Option<ScalarType> {
        ScalarType::ALL.into_iter().find(|t| t.name() == s)
    }

    /// Is this a floating-point type (`f16`, `f32`, `f64`)?
    pub fn is_float(self) -> bool {
        matches!(self, ScalarType::F16 | ScalarType::F32 | ScalarType::F64)
    }

    /// Is this an integer type?
    pub fn is_int(self) -> bool {
        matches!(
            self,
            ScalarType::I32 | ScalarType::U32 | ScalarType::I64 | ScalarType::U64
        )
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Widths allowed for OpenCL vector types.
pub const VECTOR_WIDTHS: [u32; 5] = [2, 3, 4, 8, 16];

/// The type of a data value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// A scalar.
    Scalar(ScalarType),
    /// An OpenCL vector `f32x4`: element type and width.
    Vector(ScalarType, u32),
    /// A tuple `(A, B, ...)`.
    Tuple(Vec<Type>),
    /// An array `[T; SIZE]`.
    Array(Box<Type>, Nat),
    /// An array of at most `SIZE` elements whose length is known at run time only,
    /// `[T; <= SIZE]` (the result of `filter_seq`).
    Capped(Box<Type>, Nat),
}

impl Type {
    /// Shorthand for `[elem; len]`.
    pub fn array(elem: Type, len: Nat) -> Type {
        Type::Array(Box::new(elem), len)
    }

    /// Parses a scalar or vector name such as `f32` or `f32x4`.
    pub fn from_name(s: &str) -> Option<Type> {
        if let Some(t) = ScalarType::from_name(s) {
            return Some(Type::Scalar(t));
        }
        let (base, width) = s.split_at(s.find('x')?);
        let w: u32 = width[1..].parse().ok()?;
        let t = ScalarType::from_name(base)?;
        (VECTOR_WIDTHS.contains(&w) && t != ScalarType::Bool).then_some(Type::Vector(t, w))
    }

    /// Does a capped array (`[T; <= N]`) occur in this type?
    pub fn has_capped(&self) -> bool {
        match self {
            Type::Capped(..) => true,
            Type::Array(e, _) => e.has_capped(),
            Type::Tuple(ts) => ts.iter().any(Type::has_capped),
            _ => false,
        }
    }

    /// The scalar type, if this is a scalar.
    pub fn as_scalar(&self) -> Option<ScalarType> {
        match self {
            Type::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    /// Element type and length, if this is an array.
    pub fn as_array(&self) -> Option<(&Type, &Nat)> {
        match self {
            Type::Array(e, n) => Some((e, n)),
            _ => None,
        }
    }

    /// The innermost non-array element type.
    pub fn base(&self) -> &Type {
        match self {
            Type::Array(e, _) | Type::Capped(e, _) => e.base(),
            t => t,
        }
    }

    /// Array lengths from the outermost inwards (`[[f32; M]; N]` gives `[N, M]`); a
    /// capped array counts with its capacity.
    pub fn dims(&self) -> Vec<Nat> {
        let mut out = Vec::new();
        let mut t = self;
        while let Type::Array(e, n) | Type::Capped(e, n) = t {
            out.push(n.clone());
            t = e;
        }
        out
    }

    /// Structural equality where sizes are compared with the simplifier under `facts`.
    pub fn equiv(&self, other: &Type, facts: &Facts) -> bool {
        match (self, other) {
            (Type::Array(a, n), Type::Array(b, m)) | (Type::Capped(a, n), Type::Capped(b, m)) => {
                facts.equal(n, m) && a.equiv(b, facts)
            }
            (Type::Tuple(a), Type::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.equiv(y, facts))
            }
            (a, b) => a == b,
        }
    }

    /// Simplifies every size in the type under `facts`.
    pub fn simplify_with(&self, facts: &Facts) -> Type {
        match self {
            Type::Array(e, n) => Type::array(e.simplify_with(facts), n.simplify_with(facts)),
            Type::Capped(e, n) => {
                Type::Capped(Box::new(e.simplify_with(facts)), n.simplify_with(facts))
            }
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| t.simplify_with(facts)).collect()),
            t => t.clone(),
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Scalar(s) => write!(f, "{s}"),
            Type::Vector(s, w) => write!(f, "{s}x{w}"),
            Type::Tuple(ts) => {
                f.write_str("(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                if ts.len() == 1 {
                    f.write_str(",")?;
                }
                f.write_str(")")
            }
            Type::Array(e, n) => write!(f, "[{e}; {n}]"),
            Type::Capped(e, n) => write!(f, "[{e}; <= {n}]"),
        }
    }
}
