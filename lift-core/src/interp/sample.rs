//! Random arguments for a kernel and the comparison of results, as the tuner's check of a
//! candidate and the fuzzer's checks of rewrites use them: values of any parameter type drawn
//! from a seed (floats in [-1, 1), integers in [-8, 8), booleans), and agreement of two
//! flattened results (integers exactly, floats to a relative tolerance).

use super::{Scalar, Value};
use crate::arith::ArithError;
use crate::types::{ScalarType, Type};

/// The relative tolerance of [`agree`] for `f32` and `f64` (reassociated sums).
pub const TOLERANCE: f64 = 1e-3;
/// The relative tolerance of [`agree`] for `f16` (rounded after every operation).
pub const TOLERANCE_F16: f64 = 2e-2;

/// A random value of type `ty` with the sizes of `env`, advancing `seed` (a xorshift state;
/// never zero).
pub fn random_value(
    ty: &Type,
    env: &dyn Fn(&str) -> Option<i64>,
    seed: &mut u64,
) -> Result<Value, ArithError> {
    Ok(match ty {
        Type::Scalar(s) => Value::Scalar(random_scalar(*s, seed)),
        Type::Vector(s, w) => Value::Vector((0..*w).map(|_| random_scalar(*s, seed)).collect()),
        Type::Tuple(ts) => Value::Tuple(
            ts.iter()
                .map(|t| random_value(t, env, seed))
                .collect::<Result<_, _>>()?,
        ),
        // Parameters are never capped (the checker refuses it); a capped array is filled.
        Type::Array(elem, n) | Type::Capped(elem, n) => Value::Array(
            (0..n.eval(env)?.max(0))
                .map(|_| random_value(elem, env, seed))
                .collect::<Result<_, _>>()?,
        ),
    })
}

/// A random scalar of type `s` (floats in [-1, 1), signed integers in [-8, 8), unsigned ones
/// in [0, 8], booleans), advancing `seed` (a xorshift state; a zero state is replaced).
pub fn random_scalar(s: ScalarType, seed: &mut u64) -> Scalar {
    if *seed == 0 {
        *seed = 0x9e37_79b9_7f4a_7c15;
    }
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    let r = *seed;
    let x = (r >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
    let i = (r % 16) as i64 - 8;
    match s {
        ScalarType::F16 => Scalar::F16(half::f16::from_f64(x)),
        ScalarType::F32 => Scalar::F32(x as f32),
        ScalarType::F64 => Scalar::F64(x),
        ScalarType::I32 => Scalar::I32(i as i32),
        ScalarType::U32 => Scalar::U32(i.unsigned_abs() as u32),
        ScalarType::I64 => Scalar::I64(i),
        ScalarType::U64 => Scalar::U64(i.unsigned_abs()),
        ScalarType::Bool => Scalar::Bool(r & 1 == 1),
    }
}

/// Do two flattened results agree: the same length, integers and booleans equal, floats
/// within [`TOLERANCE`] ([`TOLERANCE_F16`] for `f16`) relative to the larger of 1 and the
/// wanted value (or both NaN)?
pub fn agree(got: &[Scalar], want: &[Scalar]) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|(a, b)| match (a, b) {
            (Scalar::F16(x), Scalar::F16(y)) => close(x.to_f64(), y.to_f64(), TOLERANCE_F16),
            (Scalar::F32(x), Scalar::F32(y)) => close(f64::from(*x), f64::from(*y), TOLERANCE),
            (Scalar::F64(x), Scalar::F64(y)) => close(*x, *y, TOLERANCE),
            (a, b) => a == b,
        })
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0) || (a.is_nan() && b.is_nan())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Nat;

    #[test]
    fn values_have_their_types_and_agreement_is_tolerant_for_floats_only() {
        let ty = Type::Array(
            Box::new(Type::Tuple(vec![
                Type::Scalar(ScalarType::F32),
                Type::Scalar(ScalarType::I32),
            ])),
            Nat::size_var("N"),
        );
        let env = |n: &str| (n == "N").then_some(5);
        let mut seed = 0;
        let v = random_value(&ty, &env, &mut seed).unwrap();
        let flat = v.flatten();
        assert_eq!(flat.len(), 10);
        assert!(flat
            .iter()
            .step_by(2)
            .all(|s| matches!(s, Scalar::F32(x) if (-1.0..1.0).contains(x))));
        assert!(flat
            .iter()
            .skip(1)
            .step_by(2)
            .all(|s| matches!(s, Scalar::I32(i) if (-8..8).contains(i))));
        assert!(agree(&flat, &flat));
        let mut near = flat.clone();
        near[0] = match near[0] {
            Scalar::F32(x) => Scalar::F32(x + 1e-5),
            s => s,
        };
        assert!(agree(&near, &flat));
        let mut off = flat.clone();
        off[1] = Scalar::I32(100);
        assert!(!agree(&off, &flat));
        assert!(!agree(&flat[1..], &flat));
        assert!(random_value(&ty, &|_| None, &mut seed).is_err());
    }
}
