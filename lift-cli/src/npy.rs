//! NumPy `.npy` files in and out (`npyz`), and the conversion between their flat data and
//! the interpreter's scalars of a kernel parameter's element type.

use crate::CliError;
use half::f16;
use lift_runtime::core::interp::Scalar;
use lift_runtime::core::types::ScalarType;
use npyz::{DType, Order, TypeChar, WriterBuilder};
use std::path::Path;

/// The contents of a `.npy` file: shape (C order) and flat values.
#[derive(Clone, Debug, PartialEq)]
pub struct NpyArray {
    /// The array's shape, outermost first (empty for a 0-d array).
    pub shape: Vec<u64>,
    /// The values, row-major.
    pub data: Raw,
    /// The file's dtype, as NumPy writes it (`<f4`).
    pub dtype: String,
}

/// Flat values as read, by kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Raw {
    /// `float16`.
    F16(Vec<f16>),
    /// `float32` / `float64`, widened.
    F(Vec<f64>),
    /// Signed integers, widened.
    I(Vec<i64>),
    /// Unsigned integers, widened.
    U(Vec<u64>),
    /// `bool`.
    B(Vec<bool>),
}

impl Raw {
    fn len(&self) -> usize {
        match self {
            Raw::F16(v) => v.len(),
            Raw::F(v) => v.len(),
            Raw::I(v) => v.len(),
            Raw::U(v) => v.len(),
            Raw::B(v) => v.len(),
        }
    }
}

/// Reads `path`; `arg` names the argument in errors.
pub fn read(path: &Path, arg: &str) -> Result<NpyArray, CliError> {
    let err = |what: String| CliError::new(format!("--input {arg}={}: {what}", path.display()));
    let bytes = std::fs::read(path).map_err(|e| err(format!("cannot read: {e}")))?;
    let file =
        npyz::NpyFile::new(&bytes[..]).map_err(|e| err(format!("not a NumPy .npy file: {e}")))?;
    let shape = file.shape().to_vec();
    if file.order() == Order::Fortran && shape.iter().filter(|&&d| d > 1).count() > 1 {
        return Err(err(
            "Fortran-order arrays are not supported; save with np.ascontiguousarray(a)".into(),
        ));
    }
    let DType::Plain(ts) = file.dtype() else {
        return Err(err(
            "structured or nested dtypes are not supported; expected a plain numeric dtype".into(),
        ));
    };
    let dtype = ts.to_string();
    let bad = |e: std::io::Error| err(format!("cannot read the {dtype} data: {e}"));
    let data = match (ts.type_char(), ts.size_field()) {
        (TypeChar::Float, 2) => Raw::F16(file.into_vec::<f16>().map_err(bad)?),
        (TypeChar::Float, 4) => Raw::F(
            file.into_vec::<f32>()
                .map_err(bad)?
                .into_iter()
                .map(f64::from)
                .collect(),
        ),
        (TypeChar::Float, 8) => Raw::F(file.into_vec::<f64>().map_err(bad)?),
        (TypeChar::Int, 1) => Raw::I(widen(file.into_vec::<i8>().map_err(bad)?)),
        (TypeChar::Int, 2) => Raw::I(widen(file.into_vec::<i16>().map_err(bad)?)),
        (TypeChar::Int, 4) => Raw::I(widen(file.into_vec::<i32>().map_err(bad)?)),
        (TypeChar::Int, 8) => Raw::I(file.into_vec::<i64>().map_err(bad)?),
        (TypeChar::Uint, 1) => Raw::U(widen(file.into_vec::<u8>().map_err(bad)?)),
        (TypeChar::Uint, 2) => Raw::U(widen(file.into_vec::<u16>().map_err(bad)?)),
        (TypeChar::Uint, 4) => Raw::U(widen(file.into_vec::<u32>().map_err(bad)?)),
        (TypeChar::Uint, 8) => Raw::U(file.into_vec::<u64>().map_err(bad)?),
        (TypeChar::Bool, 1) => Raw::B(file.into_vec::<bool>().map_err(bad)?),
        _ => {
            return Err(err(format!(
                "dtype {dtype} is not supported; expected bool, int8-64, uint8-64 or float16/32/64"
            )))
        }
    };
    let expected: u64 = shape.iter().product();
    if data.len() as u64 != expected {
        return Err(err(format!(
            "the header's shape {shape:?} holds {expected} values but the file has {}",
            data.len()
        )));
    }
    Ok(NpyArray { shape, data, dtype })
}

fn widen<T, U: From<T>>(v: Vec<T>) -> Vec<U> {
    v.into_iter().map(U::from).collect()
}

/// Converts read values to scalars of type `want`: floats to any float type (rounded), integers
/// to any number type when the value fits, booleans to `bool` only. `arg` names the argument
/// in errors.
pub fn to_scalars(a: &NpyArray, want: ScalarType, arg: &str) -> Result<Vec<Scalar>, CliError> {
    let mismatch = || {
        CliError::new(format!(
            "argument `{arg}`: expected elements of type {want}, got dtype {} (floats convert to float types, integers to number types, booleans to bool)",
            a.dtype
        ))
    };
    let out_of_range = |i: usize, v: String| {
        CliError::new(format!(
            "argument `{arg}`: element {i} ({v}) does not fit in {want}"
        ))
    };
    let float = |x: f64| match want {
        ScalarType::F16 => Some(Scalar::F16(f16::from_f64(x))),
        ScalarType::F32 => Some(Scalar::F32(x as f32)),
        ScalarType::F64 => Some(Scalar::F64(x)),
        _ => None,
    };
    let int = |x: i128| -> Option<Option<Scalar>> {
        Some(match want {
            ScalarType::F16 => Some(Scalar::F16(f16::from_f64(x as f64))),
            ScalarType::F32 => Some(Scalar::F32(x as f32)),
            ScalarType::F64 => Some(Scalar::F64(x as f64)),
            ScalarType::I32 => i32::try_from(x).ok().map(Scalar::I32),
            ScalarType::U32 => u32::try_from(x).ok().map(Scalar::U32),
            ScalarType::I64 => i64::try_from(x).ok().map(Scalar::I64),
            ScalarType::U64 => u64::try_from(x).ok().map(Scalar::U64),
            ScalarType::Bool => return None,
        })
    };
    let ints = |vals: Vec<i128>| -> Result<Vec<Scalar>, CliError> {
        vals.into_iter()
            .enumerate()
            .map(|(i, x)| match int(x) {
                None => Err(mismatch()),
                Some(None) => Err(out_of_range(i, x.to_string())),
                Some(Some(s)) => Ok(s),
            })
            .collect()
    };
    match &a.data {
        Raw::F16(v) => v
            .iter()
            .map(|x| float(x.to_f64()).ok_or_else(mismatch))
            .collect(),
        Raw::F(v) => v.iter().map(|&x| float(x).ok_or_else(mismatch)).collect(),
        Raw::I(v) => ints(v.iter().map(|&x| i128::from(x)).collect()),
        Raw::U(v) => ints(v.iter().map(|&x| i128::from(x)).collect()),
        Raw::B(v) if want == ScalarType::Bool => Ok(v.iter().map(|&b| Scalar::Bool(b)).collect()),
        Raw::B(_) => Err(mismatch()),
    }
}

/// Writes `data` (all of one scalar type) with `shape` to `path` in that type's NumPy dtype.
pub fn write(path: &Path, shape: &[u64], data: &[Scalar]) -> Result<(), CliError> {
    let err = |e: std::io::Error| {
        CliError::new(format!("--output {}: cannot write: {e}", path.display()))
    };
    let file = std::fs::File::create(path).map_err(err)?;
    let w = std::io::BufWriter::new(file);
    macro_rules! put {
        ($t:ty, $pat:pat => $v:expr) => {{
            let vals: Vec<$t> = data
                .iter()
                .filter_map(|s| match *s {
                    $pat => Some($v),
                    _ => None,
                })
                .collect();
            if vals.len() != data.len() {
                return Err(CliError::new(
                    "--output: the result mixes scalar types; .npy holds one".to_string(),
                ));
            }
            let mut wr = npyz::WriteOptions::new()
                .default_dtype()
                .shape(shape)
                .writer(w)
                .begin_nd()
                .map_err(err)?;
            wr.extend(vals).map_err(err)?;
            wr.finish().map_err(err)?;
        }};
    }
    match data.first() {
        None | Some(Scalar::F32(_)) => put!(f32, Scalar::F32(x) => x),
        Some(Scalar::F16(_)) => put!(f16, Scalar::F16(x) => x),
        Some(Scalar::F64(_)) => put!(f64, Scalar::F64(x) => x),
        Some(Scalar::I32(_)) => put!(i32, Scalar::I32(x) => x),
        Some(Scalar::U32(_)) => put!(u32, Scalar::U32(x) => x),
        Some(Scalar::I64(_)) => put!(i64, Scalar::I64(x) => x),
        Some(Scalar::U64(_)) => put!(u64, Scalar::U64(x) => x),
        Some(Scalar::Bool(_)) => put!(bool, Scalar::Bool(x) => x),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_conversions() {
        let dir = std::env::temp_dir().join(format!("lift-cli-npy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("a.npy");
        let data: Vec<Scalar> = (0..6).map(|i| Scalar::I32(i - 2)).collect();
        write(&p, &[2, 3], &data).unwrap();
        let a = read(&p, "a").unwrap();
        assert_eq!(a.shape, vec![2, 3]);
        assert_eq!(a.dtype, "<i4");
        assert_eq!(to_scalars(&a, ScalarType::I32, "a").unwrap(), data);
        assert_eq!(
            to_scalars(&a, ScalarType::F32, "a").unwrap()[0],
            Scalar::F32(-2.0)
        );
        let e = to_scalars(&a, ScalarType::U32, "a").unwrap_err();
        assert_eq!(
            e.to_string(),
            "argument `a`: element 0 (-2) does not fit in u32"
        );
        write(&p, &[2], &[Scalar::F64(0.5), Scalar::F64(1.5)]).unwrap();
        let a = read(&p, "a").unwrap();
        let e = to_scalars(&a, ScalarType::I32, "a").unwrap_err();
        assert!(e
            .to_string()
            .contains("expected elements of type i32, got dtype <f8"));
        std::fs::write(&p, b"not npy").unwrap();
        let e = read(&p, "a").unwrap_err();
        assert!(e.to_string().contains("not a NumPy .npy file"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
