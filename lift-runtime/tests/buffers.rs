//! Typed buffer round trips. Needs an OpenCL platform (CI installs POCL).

use lift_runtime::half::f16;
use lift_runtime::{Context, DeviceScalar, Error};

fn ctx() -> Context {
    Context::new().unwrap_or_else(|e| panic!("no OpenCL device to test on: {e}"))
}

/// Uploads, downloads, overwrites and reads back `len` values made by `make`.
fn round_trip<T: DeviceScalar + PartialEq + std::fmt::Debug>(ctx: &Context, make: fn(usize) -> T) {
    for len in [0, 1, 3, 1000] {
        let data: Vec<T> = (0..len).map(make).collect();
        let mut buf = ctx.upload(&data).unwrap();
        assert_eq!(buf.len(), len);
        assert_eq!(buf.is_empty(), len == 0);
        assert_eq!(buf.download().unwrap(), data, "{} len {len}", T::CL_NAME);

        let other: Vec<T> = (0..len).map(|i| make(i + 7)).collect();
        buf.write_from(&other).unwrap();
        let mut back = vec![T::default(); len];
        buf.read_into(&mut back).unwrap();
        assert_eq!(back, other, "{} len {len}", T::CL_NAME);
    }
}

#[test]
fn every_scalar_type_round_trips() {
    let ctx = ctx();
    round_trip::<f32>(&ctx, |i| i as f32 * 0.5 - 3.0);
    round_trip::<f64>(&ctx, |i| i as f64 * 0.25 - 1e10);
    round_trip::<i32>(&ctx, |i| i as i32 * -3);
    round_trip::<u32>(&ctx, |i| u32::MAX - i as u32);
    round_trip::<i64>(&ctx, |i| i as i64 * -(1 << 40));
    round_trip::<u64>(&ctx, |i| u64::MAX - i as u64);
    round_trip::<f16>(&ctx, |i| f16::from_f32(i as f32 * 0.5));
    round_trip::<u8>(&ctx, |i| (i % 256) as u8);
}

#[test]
fn cl_names() {
    assert_eq!(
        [
            f32::CL_NAME,
            f64::CL_NAME,
            i32::CL_NAME,
            u32::CL_NAME,
            i64::CL_NAME,
            u64::CL_NAME,
            f16::CL_NAME,
            u8::CL_NAME
        ],
        ["float", "double", "int", "uint", "long", "ulong", "half", "uchar"]
    );
}

#[test]
fn zero_length_buffers_work() {
    let ctx = ctx();
    let a = ctx.alloc::<f32>(0).unwrap();
    assert!(a.is_empty());
    assert_eq!(a.download().unwrap(), Vec::<f32>::new());
    let z = ctx.alloc_zeroed::<u64>(0).unwrap();
    assert!(z.download().unwrap().is_empty());
    let u = ctx.upload::<f16>(&[]).unwrap();
    assert_eq!(u.len(), 0);
}

#[test]
fn alloc_zeroed_is_zero_and_alloc_has_the_length() {
    let ctx = ctx();
    let z = ctx.alloc_zeroed::<f64>(1001).unwrap();
    assert_eq!(z.download().unwrap(), vec![0.0; 1001]);
    let mut a = ctx.alloc::<i32>(17).unwrap();
    assert_eq!(a.len(), 17);
    let data: Vec<i32> = (0..17).collect();
    a.write_from(&data).unwrap();
    assert_eq!(a.download().unwrap(), data);
}

#[test]
fn length_mismatch_is_an_error() {
    let ctx = ctx();
    let mut buf = ctx.upload(&[1.0f32, 2.0, 3.0]).unwrap();
    let mut short = [0.0f32; 2];
    let err = buf.read_into(&mut short).unwrap_err();
    assert_eq!(
        err,
        Error::BufferLength {
            op: "read_into",
            expected: 3,
            actual: 2
        }
    );
    assert!(err.to_string().contains('3') && err.to_string().contains('2'));
    let err = buf.write_from(&[1.0; 4]).unwrap_err();
    assert!(matches!(
        err,
        Error::BufferLength {
            op: "write_from",
            expected: 3,
            actual: 4
        }
    ));
    // The buffer is untouched by the failed calls.
    assert_eq!(buf.download().unwrap(), [1.0, 2.0, 3.0]);
}

#[test]
fn huge_allocations_fail_cleanly() {
    let ctx = ctx();
    let err = ctx.alloc::<f64>(usize::MAX / 2).unwrap_err();
    assert!(matches!(err, Error::Alloc { .. }), "{err}");
    assert!(err.to_string().contains("overflows"), "{err}");
}
