//! Typed host data for kernels split over several devices ([`crate::SplitKernel::run_typed`],
//! the generated `NameOn::run`): an array argument is the user's slice of scalars in
//! row-major order ([`HostData`], borrowed, never copied into interpreter values), a scalar
//! argument the scalar itself; each device's rows are uploaded straight from a sub-slice of
//! the user's data, and each device's result rows are read straight into the output vector.

use crate::{Error, Result};
use half::f16;
use lift_core::interp::Scalar;
use lift_core::partition::{self, Input};
use lift_core::types::ScalarType;
use std::borrow::Cow;

/// The scalars of an array on the host, of one device scalar type (`bool` as `u8`, as on the
/// device), borrowed from the caller or owned.
#[derive(Clone, Debug, PartialEq)]
pub enum HostData<'a> {
    /// `half`.
    F16(Cow<'a, [f16]>),
    /// `float`.
    F32(Cow<'a, [f32]>),
    /// `double`.
    F64(Cow<'a, [f64]>),
    /// `int`.
    I32(Cow<'a, [i32]>),
    /// `uint`.
    U32(Cow<'a, [u32]>),
    /// `long`.
    I64(Cow<'a, [i64]>),
    /// `ulong`.
    U64(Cow<'a, [u64]>),
    /// `bool`, one byte each, 0 or 1.
    U8(Cow<'a, [u8]>),
}

/// Applies `$body` to the slice inside a [`HostData`], rewrapped in the same variant.
macro_rules! map_data {
    ($d:expr, $v:ident => $body:expr) => {
        match $d {
            HostData::F16($v) => HostData::F16($body),
            HostData::F32($v) => HostData::F32($body),
            HostData::F64($v) => HostData::F64($body),
            HostData::I32($v) => HostData::I32($body),
            HostData::U32($v) => HostData::U32($body),
            HostData::I64($v) => HostData::I64($body),
            HostData::U64($v) => HostData::U64($body),
            HostData::U8($v) => HostData::U8($body),
        }
    };
}

/// Applies `$body` to the slice inside a [`HostData`], whatever its type.
#[cfg(feature = "mpi")]
macro_rules! with_slice {
    ($d:expr, $v:ident => $body:expr) => {
        match $d {
            HostData::F16($v) => $body,
            HostData::F32($v) => $body,
            HostData::F64($v) => $body,
            HostData::I32($v) => $body,
            HostData::U32($v) => $body,
            HostData::I64($v) => $body,
            HostData::U64($v) => $body,
            HostData::U8($v) => $body,
        }
    };
}

impl HostData<'_> {
    /// `len` zeros of the device type of `s`.
    pub fn zeros(s: ScalarType, len: usize) -> HostData<'static> {
        match s {
            ScalarType::F16 => HostData::F16(vec![f16::default(); len].into()),
            ScalarType::F32 => HostData::F32(vec![0.0; len].into()),
            ScalarType::F64 => HostData::F64(vec![0.0; len].into()),
            ScalarType::I32 => HostData::I32(vec![0; len].into()),
            ScalarType::U32 => HostData::U32(vec![0; len].into()),
            ScalarType::I64 => HostData::I64(vec![0; len].into()),
            ScalarType::U64 => HostData::U64(vec![0; len].into()),
            ScalarType::Bool => HostData::U8(vec![0; len].into()),
        }
    }

    /// The interpreter's scalars `flat`, all of type `s`, as owned host data; a scalar of
    /// another type is [`Error::ArgShape`] naming `what`.
    pub fn from_scalars(s: ScalarType, flat: &[Scalar], what: &str) -> Result<HostData<'static>> {
        macro_rules! conv {
            ($v:ident, $conv:expr) => {
                flat.iter()
                    .map(|x| match *x {
                        Scalar::$v(y) => Ok($conv(y)),
                        other => Err(Error::ArgShape {
                            arg: what.to_string(),
                            expected: s.to_string(),
                            actual: other.ty().to_string(),
                        }),
                    })
                    .collect::<Result<Vec<_>>>()?
                    .into()
            };
        }
        Ok(match s {
            ScalarType::F16 => HostData::F16(conv!(F16, |y| y)),
            ScalarType::F32 => HostData::F32(conv!(F32, |y| y)),
            ScalarType::F64 => HostData::F64(conv!(F64, |y| y)),
            ScalarType::I32 => HostData::I32(conv!(I32, |y| y)),
            ScalarType::U32 => HostData::U32(conv!(U32, |y| y)),
            ScalarType::I64 => HostData::I64(conv!(I64, |y| y)),
            ScalarType::U64 => HostData::U64(conv!(U64, |y| y)),
            ScalarType::Bool => HostData::U8(conv!(Bool, u8::from)),
        })
    }

    /// The scalars as the interpreter's (`u8` as `bool`).
    pub fn to_scalars(&self) -> Vec<Scalar> {
        fn all<T: Copy>(v: &[T], f: impl Fn(T) -> Scalar) -> Vec<Scalar> {
            v.iter().map(|&x| f(x)).collect()
        }
        match self {
            HostData::F16(v) => all(v, Scalar::F16),
            HostData::F32(v) => all(v, Scalar::F32),
            HostData::F64(v) => all(v, Scalar::F64),
            HostData::I32(v) => all(v, Scalar::I32),
            HostData::U32(v) => all(v, Scalar::U32),
            HostData::I64(v) => all(v, Scalar::I64),
            HostData::U64(v) => all(v, Scalar::U64),
            HostData::U8(v) => all(v, |x| Scalar::Bool(x != 0)),
        }
    }

    /// The number of scalars.
    pub fn len(&self) -> usize {
        match self {
            HostData::F16(v) => v.len(),
            HostData::F32(v) => v.len(),
            HostData::F64(v) => v.len(),
            HostData::I32(v) => v.len(),
            HostData::U32(v) => v.len(),
            HostData::I64(v) => v.len(),
            HostData::U64(v) => v.len(),
            HostData::U8(v) => v.len(),
        }
    }

    /// No scalars?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `lift!` scalar type of the scalars (`u8` as `bool`).
    pub fn scalar_type(&self) -> ScalarType {
        match self {
            HostData::F16(_) => ScalarType::F16,
            HostData::F32(_) => ScalarType::F32,
            HostData::F64(_) => ScalarType::F64,
            HostData::I32(_) => ScalarType::I32,
            HostData::U32(_) => ScalarType::U32,
            HostData::I64(_) => ScalarType::I64,
            HostData::U64(_) => ScalarType::U64,
            HostData::U8(_) => ScalarType::Bool,
        }
    }

    /// The scalars' bytes, as on the device (what crosses MPI ranks).
    #[cfg(feature = "mpi")]
    pub(crate) fn bytes(&self) -> &[u8] {
        fn view<T: Copy>(v: &[T]) -> &[u8] {
            // SAFETY: the host scalar types are plain numbers (and `u8`s for `bool`) without
            // padding: every byte of the slice is initialised; the view borrows `v`.
            unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
        }
        with_slice!(self, v => view(v))
    }

    /// The scalars' bytes, writable (owned from here on).
    #[cfg(feature = "mpi")]
    pub(crate) fn bytes_mut(&mut self) -> &mut [u8] {
        fn view<T: Copy>(v: &mut [T]) -> &mut [u8] {
            let len = std::mem::size_of_val(v);
            // SAFETY: as in `bytes`; moreover every bit pattern is a valid value of these
            // types (the `bool`s are held as `u8`), so any bytes written stay valid.
            unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), len) }
        }
        with_slice!(self, v => view(v.to_mut()))
    }

    /// Scalars `range`, borrowed (`range` within [`HostData::len`]).
    fn sub(&self, range: std::ops::Range<usize>) -> HostData<'_> {
        map_data!(self, v => Cow::Borrowed(&v[range]))
    }
}

/// What a slab receives of every argument ([`HostArg::slice`]): per parameter, its input
/// `inputs` and the scalars of one row of its array `per_row`.
pub(crate) fn slab_args<'a>(
    args: &'a [HostArg<'_>],
    inputs: &[Input],
    per_row: &[usize],
) -> Vec<HostArg<'a>> {
    args.iter()
        .zip(inputs)
        .zip(per_row)
        .map(|((a, i), w)| a.slice(i, *w))
        .collect()
}

/// The bytes of one scalar of type `s` on the device (and in [`HostData`]).
#[cfg(feature = "mpi")]
pub(crate) fn scalar_bytes(s: ScalarType) -> usize {
    match s {
        ScalarType::Bool => 1,
        ScalarType::F16 => 2,
        ScalarType::F32 | ScalarType::I32 | ScalarType::U32 => 4,
        ScalarType::F64 | ScalarType::I64 | ScalarType::U64 => 8,
    }
}

/// `d` as owned data: owned scalars moved, borrowed ones copied.
pub(crate) fn into_owned(d: HostData<'_>) -> HostData<'static> {
    map_data!(d, v => Cow::Owned(v.into_owned()))
}

/// An argument of a kernel run from typed host data: an array's scalars in row-major order,
/// or a scalar.
#[derive(Clone, Debug, PartialEq)]
pub enum HostArg<'a> {
    /// An array (or vector) parameter's scalars, row-major.
    Array(HostData<'a>),
    /// A scalar parameter's value.
    Scalar(Scalar),
}

impl<'a> HostArg<'a> {
    /// The slice `x` as an array argument, borrowed (`bool`s viewed as bytes).
    pub fn array<T: HostScalar>(x: &'a [T]) -> HostArg<'a> {
        HostArg::Array(T::data(x))
    }

    /// `x` as a scalar argument.
    pub fn scalar(x: impl Into<Scalar>) -> HostArg<'a> {
        HostArg::Scalar(x.into())
    }

    /// What a slab receives of this argument (`input`), the array's rows holding `per_row`
    /// scalars each: a borrowed sub-slice of its rows ([`partition::rows`]), or all of it.
    pub fn slice(&self, input: &Input, per_row: usize) -> HostArg<'_> {
        match self {
            HostArg::Array(d) if per_row > 0 => {
                let r = partition::rows(input, d.len() / per_row);
                HostArg::Array(d.sub(r.start * per_row..r.end * per_row))
            }
            HostArg::Array(d) => HostArg::Array(d.sub(0..d.len())),
            HostArg::Scalar(s) => HostArg::Scalar(*s),
        }
    }
}

/// A host scalar type of an array argument or result of a kernel run from typed host data:
/// the numbers of `lift!` types and `bool`.
pub trait HostScalar: Copy + Into<Scalar> + 'static {
    /// The slice as host data, borrowed.
    fn data(x: &[Self]) -> HostData<'_>;

    /// Owned host data of this type as a vector (moved, not copied, except `bool`s checked
    /// from bytes); data of another type is [`Error::Launch`].
    fn from_data(d: HostData<'static>) -> Result<Vec<Self>>;
}

fn other_type(d: &HostData<'_>, want: &str) -> Error {
    Error::Launch {
        reason: format!("a result of {} scalars read as {want}", d.scalar_type()),
    }
}

macro_rules! host_scalar {
    ($($t:ty => $v:ident),*) => {$(
        impl HostScalar for $t {
            fn data(x: &[Self]) -> HostData<'_> {
                HostData::$v(Cow::Borrowed(x))
            }

            fn from_data(d: HostData<'static>) -> Result<Vec<Self>> {
                match d {
                    HostData::$v(v) => Ok(v.into_owned()),
                    d => Err(other_type(&d, stringify!($t))),
                }
            }
        }
    )*};
}

host_scalar!(f16 => F16, f32 => F32, f64 => F64, i32 => I32, u32 => U32, i64 => I64, u64 => U64);

impl HostScalar for bool {
    fn data(x: &[bool]) -> HostData<'_> {
        // SAFETY: `bool` is one byte holding 0 or 1, a valid `u8`; the view borrows `x`.
        let bytes = unsafe { std::slice::from_raw_parts(x.as_ptr().cast::<u8>(), x.len()) };
        HostData::U8(Cow::Borrowed(bytes))
    }

    fn from_data(d: HostData<'static>) -> Result<Vec<bool>> {
        match d {
            HostData::U8(v) => Ok(v.iter().map(|&b| b != 0).collect()),
            d => Err(other_type(&d, "bool")),
        }
    }
}
