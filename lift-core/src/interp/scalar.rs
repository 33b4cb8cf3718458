//! Scalar semantics: literals, operators, casts, math builtins and operator sections, lifted
//! lane-wise to OpenCL vectors (a scalar operand next to a vector is broadcast).
//!
//! Floats follow Rust's `f32`/`f64` operations (`%` is C's `fmod`); `f16` is computed in `f32`
//! and rounded back. Integers wrap on overflow, `/` and `%` truncate as in C, and division by
//! zero is an error. Casts follow Rust's `as`.

use super::value::{Scalar, Value};
use super::InterpError;
use crate::ir::{BinOp, LitValue, Section, UnOp};
use crate::types::{ScalarType, Type};
use half::f16;

type Result<T> = std::result::Result<T, InterpError>;

fn mismatch(msg: String) -> InterpError {
    InterpError::TypeMismatch(msg)
}

/// Applies `f` to scalars, or lane by lane when some argument is a vector.
fn lanewise(what: &str, args: &[Value], f: impl Fn(&[Scalar]) -> Result<Scalar>) -> Result<Value> {
    let mut width = None;
    for a in args {
        match a {
            Value::Scalar(_) => {}
            Value::Vector(lanes) if width.unwrap_or(lanes.len()) == lanes.len() => {
                width = Some(lanes.len())
            }
            v => {
                return Err(mismatch(format!(
                    "{what}: unexpected operand {}",
                    v.describe()
                )))
            }
        }
    }
    let lane = |i: usize| -> Result<Scalar> {
        let xs: Vec<Scalar> = args
            .iter()
            .filter_map(|a| match a {
                Value::Scalar(s) => Some(*s),
                Value::Vector(lanes) => lanes.get(i).copied(),
                _ => None,
            })
            .collect();
        f(&xs)
    };
    match width {
        None => lane(0).map(Value::Scalar),
        Some(w) => (0..w).map(lane).collect::<Result<_>>().map(Value::Vector),
    }
}

/// The value of a literal: the type set by the checker, else the suffix, else `f32` for
/// floats and `i32` for integers.
pub(super) fn literal(
    v: &LitValue,
    suffix: Option<ScalarType>,
    ty: Option<&Type>,
) -> Result<Value> {
    let t = match ty {
        Some(Type::Scalar(t)) => *t,
        // A splatted literal: every lane the literal.
        Some(Type::Vector(t, w)) => {
            let lane = literal(v, suffix, Some(&Type::Scalar(*t)))?;
            let Value::Scalar(s) = lane else {
                return Err(mismatch(format!("literal {v:?} of type {t}")));
            };
            return Ok(Value::Vector(vec![s; *w as usize]));
        }
        Some(t) => return Err(mismatch(format!("literal of non-scalar type {t}"))),
        None => suffix.unwrap_or(match v {
            LitValue::Int(_) => ScalarType::I32,
            LitValue::Float(_) => ScalarType::F32,
            LitValue::Bool(_) => ScalarType::Bool,
        }),
    };
    let s = match *v {
        LitValue::Int(i) if t.is_int() => cast(Scalar::U64(i as u64), t)?,
        LitValue::Int(i) if t.is_float() => cast(Scalar::F64(i as f64), t)?,
        LitValue::Float(x) if t.is_float() => cast(Scalar::F64(x), t)?,
        LitValue::Bool(b) if t == ScalarType::Bool => Scalar::Bool(b),
        _ => return Err(mismatch(format!("literal {v:?} of type {t}"))),
    };
    Ok(Value::Scalar(s))
}

/// Integer operations with C semantics on overflow and division.
trait Int: Copy + PartialOrd + Default {
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    fn rem(self, o: Self) -> Self;
}

macro_rules! int_impl {
    ($($t:ty),*) => {$(
        impl Int for $t {
            fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            fn sub(self, o: Self) -> Self { self.wrapping_sub(o) }
            fn mul(self, o: Self) -> Self { self.wrapping_mul(o) }
            fn div(self, o: Self) -> Self { self.wrapping_div(o) }
            fn rem(self, o: Self) -> Self { self.wrapping_rem(o) }
        }
    )*};
}

int_impl!(i32, u32, i64, u64);

fn int_op<T: Int>(op: BinOp, x: T, y: T, wrap: fn(T) -> Scalar) -> Result<Scalar> {
    if matches!(op, BinOp::Div | BinOp::Rem) && y == T::default() {
        return Err(InterpError::DivisionByZero(op.symbol().to_string()));
    }
    Ok(match op {
        BinOp::Add => wrap(x.add(y)),
        BinOp::Sub => wrap(x.sub(y)),
        BinOp::Mul => wrap(x.mul(y)),
        BinOp::Div => wrap(x.div(y)),
        BinOp::Rem => wrap(x.rem(y)),
        _ => return compare(op, x, y),
    })
}

fn float_op<T>(op: BinOp, x: T, y: T, wrap: impl Fn(T) -> Scalar) -> Result<Scalar>
where
    T: Copy + PartialOrd + std::ops::Add<Output = T> + std::ops::Sub<Output = T>,
    T: std::ops::Mul<Output = T> + std::ops::Div<Output = T> + std::ops::Rem<Output = T>,
{
    Ok(match op {
        BinOp::Add => wrap(x + y),
        BinOp::Sub => wrap(x - y),
        BinOp::Mul => wrap(x * y),
        BinOp::Div => wrap(x / y),
        BinOp::Rem => wrap(x % y),
        _ => return compare(op, x, y),
    })
}

fn compare<T: PartialOrd>(op: BinOp, x: T, y: T) -> Result<Scalar> {
    Ok(Scalar::Bool(match op {
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        _ => return Err(mismatch(format!("`{}` on numbers", op.symbol()))),
    }))
}

fn binary_scalar(op: BinOp, a: Scalar, b: Scalar) -> Result<Scalar> {
    use Scalar::*;
    match (a, b) {
        (F16(x), F16(y)) => float_op(op, x.to_f32(), y.to_f32(), |r| F16(f16::from_f32(r))),
        (F32(x), F32(y)) => float_op(op, x, y, F32),
        (F64(x), F64(y)) => float_op(op, x, y, F64),
        (I32(x), I32(y)) => int_op(op, x, y, I32),
        (U32(x), U32(y)) => int_op(op, x, y, U32),
        (I64(x), I64(y)) => int_op(op, x, y, I64),
        (U64(x), U64(y)) => int_op(op, x, y, U64),
        (Bool(x), Bool(y)) => match op {
            BinOp::And => Ok(Bool(x && y)),
            BinOp::Or => Ok(Bool(x || y)),
            _ if op.is_comparison() => compare(op, x, y),
            _ => Err(mismatch(format!("`{}` on bool", op.symbol()))),
        },
        _ => Err(mismatch(format!(
            "`{}`: operand types differ: {} vs {}",
            op.symbol(),
            a.ty(),
            b.ty()
        ))),
    }
}

/// `a op b`, lane-wise on vectors.
pub(super) fn binary(op: BinOp, a: &Value, b: &Value) -> Result<Value> {
    let args = [a.clone(), b.clone()];
    lanewise(op.symbol(), &args, |xs| match xs {
        [x, y] => binary_scalar(op, *x, *y),
        _ => Err(mismatch(format!("`{}`: malformed operands", op.symbol()))),
    })
}

/// `op x`, lane-wise on vectors: negation (wrapping on integers) or logical / bitwise not.
pub(super) fn unary(op: UnOp, x: &Value) -> Result<Value> {
    use Scalar::*;
    lanewise("unary operator", std::slice::from_ref(x), |xs| {
        Ok(match (op, xs) {
            (UnOp::Neg, [F16(x)]) => F16(-*x),
            (UnOp::Neg, [F32(x)]) => F32(-*x),
            (UnOp::Neg, [F64(x)]) => F64(-*x),
            (UnOp::Neg, [I32(x)]) => I32(x.wrapping_neg()),
            (UnOp::Neg, [U32(x)]) => U32(x.wrapping_neg()),
            (UnOp::Neg, [I64(x)]) => I64(x.wrapping_neg()),
            (UnOp::Neg, [U64(x)]) => U64(x.wrapping_neg()),
            (UnOp::Not, [Bool(x)]) => Bool(!*x),
            (_, [s]) => return Err(mismatch(format!("{op:?} on {}", s.ty()))),
            _ => return Err(mismatch(format!("{op:?}: malformed operand"))),
        })
    })
}

macro_rules! cast_num {
    ($x:expr, $t:expr) => {
        match $t {
            ScalarType::F16 => Scalar::F16(f16::from_f64($x as f64)),
            ScalarType::F32 => Scalar::F32($x as f32),
            ScalarType::F64 => Scalar::F64($x as f64),
            ScalarType::I32 => Scalar::I32($x as i32),
            ScalarType::U32 => Scalar::U32($x as u32),
            ScalarType::I64 => Scalar::I64($x as i64),
            ScalarType::U64 => Scalar::U64($x as u64),
            ScalarType::Bool => return Err(mismatch("cast of a number to bool".to_string())),
        }
    };
}

/// `s as t` with Rust's semantics (float to int saturates, int to int wraps, bool to 0 or 1).
pub(super) fn cast(s: Scalar, t: ScalarType) -> Result<Scalar> {
    Ok(match s {
        Scalar::Bool(b) if t == ScalarType::Bool => Scalar::Bool(b),
        Scalar::Bool(b) => cast_num!(u8::from(b), t),
        Scalar::F16(x) if t == ScalarType::F32 => Scalar::F32(x.to_f32()),
        Scalar::F16(x) => cast_num!(x.to_f64(), t),
        Scalar::F32(x) if t == ScalarType::F16 => Scalar::F16(f16::from_f32(x)),
        Scalar::F32(x) => cast_num!(x, t),
        Scalar::F64(x) => cast_num!(x, t),
        Scalar::I32(x) => cast_num!(x, t),
        Scalar::U32(x) => cast_num!(x, t),
        Scalar::I64(x) => cast_num!(x, t),
        Scalar::U64(x) => cast_num!(x, t),
    })
}

/// `x as t`, lane-wise on vectors.
pub(super) fn cast_value(x: &Value, t: ScalarType) -> Result<Value> {
    lanewise("as", std::slice::from_ref(x), |xs| match xs {
        [s] => cast(*s, t),
        _ => Err(mismatch("as: malformed operand".to_string())),
    })
}

/// A math builtin of the user-function subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Builtin {
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    Tan,
    Abs,
    Min,
    Max,
    Pow,
    Floor,
    Ceil,
    Fma,
}

const BUILTINS: [(&str, Builtin, usize); 13] = [
    ("sqrt", Builtin::Sqrt, 1),
    ("exp", Builtin::Exp, 1),
    ("log", Builtin::Log, 1),
    ("sin", Builtin::Sin, 1),
    ("cos", Builtin::Cos, 1),
    ("tan", Builtin::Tan, 1),
    ("abs", Builtin::Abs, 1),
    ("min", Builtin::Min, 2),
    ("max", Builtin::Max, 2),
    ("pow", Builtin::Pow, 2),
    ("floor", Builtin::Floor, 1),
    ("ceil", Builtin::Ceil, 1),
    ("fma", Builtin::Fma, 3),
];

impl Builtin {
    /// Looks a builtin up by name.
    pub(super) fn from_name(name: &str) -> Option<Builtin> {
        BUILTINS
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, b, _)| *b)
    }

    /// The name and the number of arguments.
    pub(super) fn signature(self) -> (&'static str, usize) {
        BUILTINS
            .iter()
            .find(|(_, b, _)| *b == self)
            .map_or(("?", 0), |(n, _, a)| (n, *a))
    }
}

macro_rules! float_builtin {
    ($name:ident, $t:ty) => {
        fn $name(b: Builtin, xs: &[$t]) -> Option<$t> {
            use Builtin::*;
            Some(match (b, xs) {
                (Sqrt, [x]) => x.sqrt(),
                (Exp, [x]) => x.exp(),
                (Log, [x]) => x.ln(),
                (Sin, [x]) => x.sin(),
                (Cos, [x]) => x.cos(),
                (Tan, [x]) => x.tan(),
                (Abs, [x]) => x.abs(),
                (Floor, [x]) => x.floor(),
                (Ceil, [x]) => x.ceil(),
                (Min, [x, y]) => x.min(*y),
                (Max, [x, y]) => x.max(*y),
                (Pow, [x, y]) => x.powf(*y),
                (Fma, [x, y, z]) => x.mul_add(*y, *z),
                _ => return None,
            })
        }
    };
}

float_builtin!(builtin_f32, f32);
float_builtin!(builtin_f64, f64);

fn builtin_int<T: Ord + Copy>(b: Builtin, xs: &[T], abs: fn(T) -> T) -> Option<T> {
    match (b, xs) {
        (Builtin::Abs, [x]) => Some(abs(*x)),
        (Builtin::Min, [x, y]) => Some(*x.min(y)),
        (Builtin::Max, [x, y]) => Some(*x.max(y)),
        _ => None,
    }
}

/// All arguments as one scalar type, converted by `get`.
fn all<T>(xs: &[Scalar], get: fn(Scalar) -> Option<T>) -> Option<Vec<T>> {
    xs.iter().map(|s| get(*s)).collect()
}

fn builtin_scalar(b: Builtin, xs: &[Scalar]) -> Result<Scalar> {
    use Scalar::*;
    let r = match xs.first() {
        Some(F16(_)) => all(xs, |s| {
            if let F16(x) = s {
                Some(x.to_f32())
            } else {
                None
            }
        })
        .and_then(|v| builtin_f32(b, &v))
        .map(|r| F16(f16::from_f32(r))),
        Some(F32(_)) => all(xs, |s| if let F32(x) = s { Some(x) } else { None })
            .and_then(|v| builtin_f32(b, &v))
            .map(F32),
        Some(F64(_)) => all(xs, |s| if let F64(x) = s { Some(x) } else { None })
            .and_then(|v| builtin_f64(b, &v))
            .map(F64),
        Some(I32(_)) => all(xs, |s| if let I32(x) = s { Some(x) } else { None })
            .and_then(|v| builtin_int(b, &v, i32::wrapping_abs))
            .map(I32),
        Some(I64(_)) => all(xs, |s| if let I64(x) = s { Some(x) } else { None })
            .and_then(|v| builtin_int(b, &v, i64::wrapping_abs))
            .map(I64),
        Some(U32(_)) => all(xs, |s| if let U32(x) = s { Some(x) } else { None })
            .and_then(|v| builtin_int(b, &v, |x| x))
            .map(U32),
        Some(U64(_)) => all(xs, |s| if let U64(x) = s { Some(x) } else { None })
            .and_then(|v| builtin_int(b, &v, |x| x))
            .map(U64),
        _ => None,
    };
    r.ok_or_else(|| {
        let types: Vec<String> = xs.iter().map(|s| s.ty().to_string()).collect();
        mismatch(format!(
            "{}: not defined on ({})",
            b.signature().0,
            types.join(", ")
        ))
    })
}

/// A math builtin applied to its arguments, lane-wise on vectors.
pub(super) fn builtin(b: Builtin, args: &[Value]) -> Result<Value> {
    let (name, arity) = b.signature();
    if args.len() != arity {
        return Err(InterpError::Arity {
            what: name.to_string(),
            expected: arity,
            actual: args.len(),
        });
    }
    lanewise(name, args, |xs| builtin_scalar(b, xs))
}

/// An operator section applied to two values, lane-wise on vectors.
pub(super) fn section(s: Section, a: &Value, b: &Value) -> Result<Value> {
    match s {
        Section::Add => binary(BinOp::Add, a, b),
        Section::Mul => binary(BinOp::Mul, a, b),
        Section::Min => builtin(Builtin::Min, &[a.clone(), b.clone()]),
        Section::Max => builtin(Builtin::Max, &[a.clone(), b.clone()]),
    }
}
