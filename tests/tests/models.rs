//! The device model (issue 35, item 4): a context explores for its device's own model unless
//! told otherwise, and every candidate derived for the device's own model and for models of
//! other devices (narrower SIMD and smaller local memory and groups; wider SIMD, more banks
//! and more local memory) computes what the interpreter computes, at sizes that are and are
//! not multiples of the tiles. The other suites explore for the build-time model
//! (`lift_tests::ctx`).

use lift_runtime::core::device::DeviceModel;
use lift_runtime::core::interp::Value;
use lift_runtime::{device_model, lift, Context, Error};
use lift_tests::{assert_close, f32s, interpret, matrix, random_f32};
use std::sync::OnceLock;

lift! {
    /// Matrix product.
    kernel Gemm<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) o transpose $ b) $ a
    }
    /// 5-point stencil, clamped borders.
    kernel Jacobi<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
    }
    /// Matrix-vector product of a matrix given transposed (row reductions over columns).
    kernel GemvT<N, M>(mt: [[f32; N]; M], x: [f32; M]) -> [f32; N] {
        map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(col, x)) $ transpose $ mt
    }
    /// A full reduction.
    kernel Sum<N>(x: [f32; N]) -> f32 {
        reduce(+, 0.0) $ x
    }
}

/// The default device's context, exploring for its own model.
fn own() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    CTX.get_or_init(|| Context::new().expect("an OpenCL device"))
}

/// The models the candidates are checked under: the device's own, one of a narrow device
/// and one of a wide device (both within the test device's limits, so that every candidate
/// can launch).
fn models() -> Vec<(&'static str, Context)> {
    let ctx = own();
    let limit = ctx.device_info().max_work_group_size.max(1) as i64;
    let narrow = DeviceModel {
        simd_width: 16,
        local_mem_banks: 16,
        local_mem_bytes: 8 * 1024,
        preferred_work_group: 64.min(limit),
        max_work_group: 128.min(limit),
        compute_units: 8,
        preferred_vector_width_f32: 8,
        max_accumulators: 16,
    };
    let wide = DeviceModel {
        simd_width: 64,
        local_mem_banks: 64,
        local_mem_bytes: 32 * 1024,
        preferred_work_group: 256.min(limit),
        max_work_group: 1024.min(limit),
        compute_units: 120,
        preferred_vector_width_f32: 4,
        max_accumulators: 128,
    };
    vec![
        ("own", ctx.clone()),
        ("narrow", ctx.with_device_model(narrow)),
        ("wide", ctx.with_device_model(wide)),
    ]
}

/// Runs every candidate of kernel struct `$k` on `$ctx` with `$launch(k, c, out)` against
/// `$want`; gives the names of those that ran (the others must not apply to the sizes).
macro_rules! each_candidate {
    ($ctx:expr, $what:expr, $k:ident, $want:expr, $launch:expr) => {{
        let ctx: &Context = $ctx;
        let k = $k::new(ctx).unwrap();
        let cands = k.candidates().unwrap();
        let mut ran = Vec::new();
        for (c, cand) in cands.iter().enumerate() {
            let out = ctx.alloc::<f32>($want.len()).unwrap();
            match ($launch)(&k, c, &out) {
                Ok(ev) => {
                    let ev: lift_runtime::Event = ev;
                    ev.wait().unwrap();
                    let what = format!("{} {}: {}", stringify!($k), cand.name, $what);
                    assert_close(&out.download().unwrap(), $want, 1e-4, &what);
                    ran.push(cand.name.clone());
                }
                Err(Error::Launch { reason }) if reason.contains("does not apply") => {
                    assert!(!cand.conditions.is_empty(), "{}: {reason}", cand.name);
                }
                Err(e) => panic!("{} {} ({}): {e}", stringify!($k), cand.name, $what),
            }
        }
        ran
    }};
}

#[test]
fn a_context_explores_for_its_devices_own_model_unless_told() {
    let ctx = own();
    // The environment of this test run may choose the build-time model.
    let want = match std::env::var(lift_runtime::DEVICE_MODEL_ENV).as_deref() {
        Ok("default") => DeviceModel::DEFAULT,
        _ => device_model(ctx.cl_device()),
    };
    assert_eq!(ctx.device_model(), want);
    let default = ctx.with_device_model(DeviceModel::DEFAULT);
    assert_eq!(default.device_model(), DeviceModel::DEFAULT);
    // Other handles keep their own model, and the bound on temporaries keeps the model.
    assert_eq!(ctx.device_model(), want);
    assert_eq!(
        default.with_temporary_limit(Some(1 << 20)).device_model(),
        DeviceModel::DEFAULT
    );
}

#[test]
fn the_candidates_follow_the_model() {
    let ctx = own();
    let names = |c: &Context| -> Vec<String> {
        Gemm::new(c)
            .unwrap()
            .candidates()
            .unwrap()
            .iter()
            .map(|c| c.name.clone())
            .collect()
    };
    let default = names(&ctx.with_device_model(DeviceModel::DEFAULT));
    let tiny = names(&ctx.with_device_model(DeviceModel {
        local_mem_bytes: 2 * 1024,
        max_accumulators: 4,
        ..DeviceModel::DEFAULT
    }));
    assert!(
        default.iter().any(|c| c.starts_with("blocked")),
        "{default:?}"
    );
    assert_ne!(
        default, tiny,
        "a model with 2 KiB and 4 accumulators explores the same"
    );
    // The same model gives the same exploration.
    assert_eq!(default, names(&ctx.with_device_model(DeviceModel::DEFAULT)));
}

#[test]
fn every_product_candidate_of_every_model_matches_the_interpreter() {
    for (model, ctx) in models() {
        for (n, kk, m) in [(65, 32, 130), (9, 17, 5)] {
            let (a, b) = (random_f32(n * kk, 1), random_f32(kk * m, 2));
            let want = f32s(&interpret(
                Gemm::LIFT,
                "Gemm",
                &[n, kk, m],
                &[matrix(&a, n), matrix(&b, kk)],
            ));
            let (da, db) = (ctx.upload(&a).unwrap(), ctx.upload(&b).unwrap());
            let what = format!("{model} {n}x{kk}x{m}");
            let ran = each_candidate!(&ctx, what, Gemm, &want, |k: &Gemm, c, out| k
                .launch_candidate(c, n, kk, m, &da, &db, out));
            assert!(
                kk % 8 != 0 || ran.iter().any(|c| c.starts_with("blocked")),
                "{what}: no blocked candidate ran: {ran:?}"
            );
        }
    }
}

#[test]
fn every_stencil_and_reduction_candidate_of_every_model_matches_the_interpreter() {
    for (model, ctx) in models() {
        for (n, m) in [(7, 5), (33, 130), (70, 1030)] {
            let x = random_f32(n * m, (n + m) as u64);
            let want = f32s(&interpret(
                Jacobi::LIFT,
                "Jacobi",
                &[n, m],
                &[matrix(&x, n)],
            ));
            let dx = ctx.upload(&x).unwrap();
            let what = format!("{model} {n}x{m}");
            let ran = each_candidate!(&ctx, what, Jacobi, &want, |k: &Jacobi, c, out| k
                .launch_candidate(c, n, m, &dx, out));
            assert!(ran.len() >= 2, "{what}: {ran:?}");
            let v = random_f32(m, 7);
            let want = f32s(&interpret(
                GemvT::LIFT,
                "GemvT",
                &[n, m],
                &[matrix(&x, m), Value::from_f32s(&v)],
            ));
            let dv = ctx.upload(&v).unwrap();
            let ran = each_candidate!(&ctx, what, GemvT, &want, |k: &GemvT, c, out| k
                .launch_candidate(c, n, m, &dx, &dv, out));
            assert!(!ran.is_empty(), "{what}");
            let want = f32s(&interpret(
                Sum::LIFT,
                "Sum",
                &[n * m],
                &[Value::from_f32s(&x)],
            ));
            let ran = each_candidate!(&ctx, what, Sum, &want, |k: &Sum, c, out| k
                .launch_candidate(c, n * m, &dx, out));
            assert!(!ran.is_empty(), "{what}");
        }
    }
}
