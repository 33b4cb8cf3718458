//! The device buffers of a run-time compiled kernel: one type for buffers of any scalar
//! type, uploads, downloads and by-value scalar arguments.

use super::eval;
use crate::private::to_usize;
use crate::{Buffer, Context, Error, HostData, KernelHandle, Result};
use half::f16;
use lift_core::arith::Nat;
use lift_core::interp::Scalar;
use lift_core::types::{ScalarType, Type};

/// A device buffer of any scalar type (`bool` as `u8`).
pub(super) enum AnyBuffer {
    F16(Buffer<f16>),
    F32(Buffer<f32>),
    F64(Buffer<f64>),
    I32(Buffer<i32>),
    U32(Buffer<u32>),
    I64(Buffer<i64>),
    U64(Buffer<u64>),
    U8(Buffer<u8>),
}

/// Applies `$body` to the typed buffer inside an [`AnyBuffer`].
macro_rules! with_buffer {
    ($b:expr, $buf:ident => $body:expr) => {
        match $b {
            AnyBuffer::F16($buf) => $body,
            AnyBuffer::F32($buf) => $body,
            AnyBuffer::F64($buf) => $body,
            AnyBuffer::I32($buf) => $body,
            AnyBuffer::U32($buf) => $body,
            AnyBuffer::I64($buf) => $body,
            AnyBuffer::U64($buf) => $body,
            AnyBuffer::U8($buf) => $body,
        }
    };
}
pub(super) use with_buffer;

/// The scalar type of the device buffer holding values of type `ty` (arrays of scalars,
/// vectors, or tuples of one number type); `what` names the value in errors.
pub(crate) fn buffer_scalar(ty: &Type, what: &str) -> Result<ScalarType> {
    match ty.base() {
        Type::Scalar(s) | Type::Vector(s, _) => Ok(*s),
        Type::Tuple(ts) if !ty.dims().is_empty() => match ts.first() {
            Some(Type::Scalar(s))
                if !matches!(s, ScalarType::Bool | ScalarType::F16)
                    && ts.iter().all(|t| t == &Type::Scalar(*s)) =>
            {
                Ok(*s)
            }
            _ => Err(unsupported(what, ty)),
        },
        _ => Err(unsupported(what, ty)),
    }
}

fn unsupported(what: &str, ty: &Type) -> Error {
    Error::Compile {
        message: format!("{what} of type {ty} is not supported by the launcher; arrays of tuples need fields of one number type (not bool or f16)"),
    }
}

/// The number of device scalars in a value of type `ty`.
pub(crate) fn scalar_count(ty: &Type, env: &dyn Fn(&str) -> Option<i64>) -> Result<usize> {
    let fields = match ty.base() {
        Type::Vector(_, w) => i64::from(*w),
        Type::Tuple(ts) => ts.len() as i64,
        _ => 1,
    };
    let n = ty
        .dims()
        .into_iter()
        .fold(Nat::cst(fields), |acc, d| acc * d);
    to_usize(eval(&n, env)?)
}

/// Uploads the flat scalars `flat`, all of type `s`, as a buffer of `s`'s device type.
pub(super) fn upload(ctx: &Context, s: ScalarType, flat: &[Scalar]) -> Result<AnyBuffer> {
    upload_data(ctx, &HostData::from_scalars(s, flat, "array element")?)
}

/// Uploads typed host data as a buffer of its type, straight from its slice.
pub(super) fn upload_data(ctx: &Context, d: &HostData<'_>) -> Result<AnyBuffer> {
    Ok(match d {
        HostData::F16(v) => AnyBuffer::F16(ctx.upload(v)?),
        HostData::F32(v) => AnyBuffer::F32(ctx.upload(v)?),
        HostData::F64(v) => AnyBuffer::F64(ctx.upload(v)?),
        HostData::I32(v) => AnyBuffer::I32(ctx.upload(v)?),
        HostData::U32(v) => AnyBuffer::U32(ctx.upload(v)?),
        HostData::I64(v) => AnyBuffer::I64(ctx.upload(v)?),
        HostData::U64(v) => AnyBuffer::U64(ctx.upload(v)?),
        HostData::U8(v) => AnyBuffer::U8(ctx.upload(v)?),
    })
}

/// Reads all of `b` into `dst` from scalar `at` on (host data of its type, long enough).
pub(super) fn read_into_data(b: &AnyBuffer, dst: &mut HostData<'_>, at: usize) -> Result<()> {
    fn one<T: crate::DeviceScalar>(b: &Buffer<T>, dst: &mut [T], at: usize) -> Result<()> {
        let room = dst.len();
        match dst.get_mut(at..at.saturating_add(b.len())) {
            Some(dst) => b.read_into(dst),
            None => Err(Error::launch(format!(
                "a result of {} scalars at {at} of {room}",
                b.len()
            ))),
        }
    }
    match (b, dst) {
        (AnyBuffer::F16(b), HostData::F16(v)) => one(b, v.to_mut(), at),
        (AnyBuffer::F32(b), HostData::F32(v)) => one(b, v.to_mut(), at),
        (AnyBuffer::F64(b), HostData::F64(v)) => one(b, v.to_mut(), at),
        (AnyBuffer::I32(b), HostData::I32(v)) => one(b, v.to_mut(), at),
        (AnyBuffer::U32(b), HostData::U32(v)) => one(b, v.to_mut(), at),
        (AnyBuffer::I64(b), HostData::I64(v)) => one(b, v.to_mut(), at),
        (AnyBuffer::U64(b), HostData::U64(v)) => one(b, v.to_mut(), at),
        (AnyBuffer::U8(b), HostData::U8(v)) => one(b, v.to_mut(), at),
        _ => Err(mismatch()),
    }
}

/// Allocates `len` elements of `s`'s device type.
pub(super) fn alloc(ctx: &Context, s: ScalarType, len: usize) -> Result<AnyBuffer> {
    Ok(match s {
        ScalarType::F16 => AnyBuffer::F16(ctx.alloc(len)?),
        ScalarType::F32 => AnyBuffer::F32(ctx.alloc(len)?),
        ScalarType::F64 => AnyBuffer::F64(ctx.alloc(len)?),
        ScalarType::I32 => AnyBuffer::I32(ctx.alloc(len)?),
        ScalarType::U32 => AnyBuffer::U32(ctx.alloc(len)?),
        ScalarType::I64 => AnyBuffer::I64(ctx.alloc(len)?),
        ScalarType::U64 => AnyBuffer::U64(ctx.alloc(len)?),
        ScalarType::Bool => AnyBuffer::U8(ctx.alloc(len)?),
    })
}

/// Downloads a buffer as interpreter scalars (`u8` as `bool`).
pub(super) fn download(b: &AnyBuffer) -> Result<Vec<Scalar>> {
    fn all<T: crate::DeviceScalar>(b: &Buffer<T>, f: impl Fn(T) -> Scalar) -> Result<Vec<Scalar>> {
        Ok(b.download()?.into_iter().map(f).collect())
    }
    match b {
        AnyBuffer::F16(b) => all(b, Scalar::F16),
        AnyBuffer::F32(b) => all(b, Scalar::F32),
        AnyBuffer::F64(b) => all(b, Scalar::F64),
        AnyBuffer::I32(b) => all(b, Scalar::I32),
        AnyBuffer::U32(b) => all(b, Scalar::U32),
        AnyBuffer::I64(b) => all(b, Scalar::I64),
        AnyBuffer::U64(b) => all(b, Scalar::U64),
        AnyBuffer::U8(b) => all(b, |x| Scalar::Bool(x != 0)),
    }
}

/// Sets a by-value scalar argument (`f16` as `float`, `bool` as `uchar`).
pub(super) fn set_scalar(k: &KernelHandle, index: u32, v: Scalar) -> Result<()> {
    match v {
        Scalar::F16(x) => k.set_scalar(index, x.to_f32()),
        Scalar::F32(x) => k.set_scalar(index, x),
        Scalar::F64(x) => k.set_scalar(index, x),
        Scalar::I32(x) => k.set_scalar(index, x),
        Scalar::U32(x) => k.set_scalar(index, x),
        Scalar::I64(x) => k.set_scalar(index, x),
        Scalar::U64(x) => k.set_scalar(index, x),
        Scalar::Bool(x) => k.set_scalar(index, u8::from(x)),
    }
}

/// A kernel argument on the device: a buffer or a by-value scalar.
pub(super) enum DeviceArg {
    Buffer(AnyBuffer),
    Scalar(Scalar),
}

/// Elements `offset .. offset + len` of `b` as a buffer sharing its memory ([`Buffer::sub`]).
pub(super) fn sub(b: &AnyBuffer, offset: usize, len: usize) -> Result<AnyBuffer> {
    Ok(match b {
        AnyBuffer::F16(b) => AnyBuffer::F16(b.sub(offset, len)?),
        AnyBuffer::F32(b) => AnyBuffer::F32(b.sub(offset, len)?),
        AnyBuffer::F64(b) => AnyBuffer::F64(b.sub(offset, len)?),
        AnyBuffer::I32(b) => AnyBuffer::I32(b.sub(offset, len)?),
        AnyBuffer::U32(b) => AnyBuffer::U32(b.sub(offset, len)?),
        AnyBuffer::I64(b) => AnyBuffer::I64(b.sub(offset, len)?),
        AnyBuffer::U64(b) => AnyBuffer::U64(b.sub(offset, len)?),
        AnyBuffer::U8(b) => AnyBuffer::U8(b.sub(offset, len)?),
    })
}

/// Copies `len` elements of `src` from `from` into `dst` at `to`: on the device where both
/// belong to one context, else through the host. The buffers hold one scalar type.
pub(super) fn copy(
    src: &AnyBuffer,
    from: usize,
    dst: &mut AnyBuffer,
    to: usize,
    len: usize,
) -> Result<()> {
    fn one<T: crate::DeviceScalar>(
        s: &Buffer<T>,
        from: usize,
        d: &mut Buffer<T>,
        to: usize,
        len: usize,
    ) -> Result<()> {
        if s.context().cl_context().get() == d.context().cl_context().get() {
            return d.copy_range_from(to, s, from, len);
        }
        let mut host = vec![T::default(); len];
        s.read_range(from, &mut host)?;
        d.write_range(to, &host)
    }
    match (src, dst) {
        (AnyBuffer::F16(s), AnyBuffer::F16(d)) => one(s, from, d, to, len),
        (AnyBuffer::F32(s), AnyBuffer::F32(d)) => one(s, from, d, to, len),
        (AnyBuffer::F64(s), AnyBuffer::F64(d)) => one(s, from, d, to, len),
        (AnyBuffer::I32(s), AnyBuffer::I32(d)) => one(s, from, d, to, len),
        (AnyBuffer::U32(s), AnyBuffer::U32(d)) => one(s, from, d, to, len),
        (AnyBuffer::I64(s), AnyBuffer::I64(d)) => one(s, from, d, to, len),
        (AnyBuffer::U64(s), AnyBuffer::U64(d)) => one(s, from, d, to, len),
        (AnyBuffer::U8(s), AnyBuffer::U8(d)) => one(s, from, d, to, len),
        _ => Err(Error::launch(
            "a copy between buffers of different scalar types",
        )),
    }
}

/// Host memory for elements of one of [`AnyBuffer`]'s types: where halo rows wait between
/// the devices of an iteration.
pub(crate) enum Staging {
    F16(Vec<f16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    I32(Vec<i32>),
    U32(Vec<u32>),
    I64(Vec<i64>),
    U64(Vec<u64>),
    U8(Vec<u8>),
}

/// `len` elements of `like`'s type.
pub(super) fn staging(like: &AnyBuffer, len: usize) -> Staging {
    match like {
        AnyBuffer::F16(_) => Staging::F16(vec![f16::default(); len]),
        AnyBuffer::F32(_) => Staging::F32(vec![0.0; len]),
        AnyBuffer::F64(_) => Staging::F64(vec![0.0; len]),
        AnyBuffer::I32(_) => Staging::I32(vec![0; len]),
        AnyBuffer::U32(_) => Staging::U32(vec![0; len]),
        AnyBuffer::I64(_) => Staging::I64(vec![0; len]),
        AnyBuffer::U64(_) => Staging::U64(vec![0; len]),
        AnyBuffer::U8(_) => Staging::U8(vec![0; len]),
    }
}

/// Applies `$body` to a buffer and a staging area of one element type, else `$other`.
macro_rules! with_pair {
    ($b:expr, $s:expr, ($buf:ident, $st:ident) => $body:expr, $other:expr) => {
        match ($b, $s) {
            (AnyBuffer::F16($buf), Staging::F16($st)) => $body,
            (AnyBuffer::F32($buf), Staging::F32($st)) => $body,
            (AnyBuffer::F64($buf), Staging::F64($st)) => $body,
            (AnyBuffer::I32($buf), Staging::I32($st)) => $body,
            (AnyBuffer::U32($buf), Staging::U32($st)) => $body,
            (AnyBuffer::I64($buf), Staging::I64($st)) => $body,
            (AnyBuffer::U64($buf), Staging::U64($st)) => $body,
            (AnyBuffer::U8($buf), Staging::U8($st)) => $body,
            _ => $other,
        }
    };
}

fn mismatch() -> Error {
    Error::launch("host memory of another element type than the buffer's")
}

/// Enqueues a read of `src` from `from` filling `st`, not waited for.
///
/// # Safety
///
/// `st` must stay alive and untouched until the event has completed.
pub(super) unsafe fn read_staged(
    src: &AnyBuffer,
    from: usize,
    st: &mut Staging,
) -> Result<Option<opencl3::event::Event>> {
    // SAFETY: forwarded to the caller.
    with_pair!(src, st, (b, v) => unsafe { b.read_range_enqueued(from, v) }, Err(mismatch()))
}

/// Enqueues a write of `st` into `dst` at `to`, not waited for.
///
/// # Safety
///
/// `st` must stay alive and unchanged until the event has completed.
pub(super) unsafe fn write_staged(
    st: &Staging,
    dst: &mut AnyBuffer,
    to: usize,
) -> Result<Option<opencl3::event::Event>> {
    // SAFETY: forwarded to the caller.
    with_pair!(dst, st, (b, v) => unsafe { b.write_range_enqueued(to, v) }, Err(mismatch()))
}
