//! Device listing and selection. Needs an OpenCL platform (CI installs POCL); without one
//! these tests fail rather than pass vacuously.

use lift_runtime::{devices, Context, DeviceKind, Error};

fn listing() -> Vec<lift_runtime::DeviceInfo> {
    devices().unwrap_or_else(|e| panic!("no OpenCL device to test on: {e}"))
}

#[test]
fn devices_are_listed_with_limits() {
    let all = listing();
    assert!(!all.is_empty());
    for (i, d) in all.iter().enumerate() {
        assert_eq!(d.index, i);
        assert!(!d.name.is_empty());
        assert!(d.compute_units > 0);
        assert!(d.max_work_group_size > 0);
        assert!(!d.max_work_item_sizes.is_empty());
        assert!(d.local_mem_bytes > 0);
        assert!(d.global_mem_bytes > 0);
        assert!(d.to_string().contains(&d.name));
    }
}

#[test]
fn default_selection_prefers_a_gpu() {
    let all = listing();
    let expected = all
        .iter()
        .find(|d| d.kind == DeviceKind::Gpu)
        .unwrap_or(&all[0]);
    let ctx = Context::with_selector("").unwrap();
    assert_eq!(ctx.device_info(), expected);
}

#[test]
fn select_by_index_name_and_kind() {
    let all = listing();
    let last = all.last().unwrap();
    let by_index = Context::with_selector(&last.index.to_string()).unwrap();
    assert_eq!(by_index.device_info(), last);

    let name = all[0].name.to_uppercase();
    let by_name = Context::with_selector(&name).unwrap();
    assert!(by_name
        .device_info()
        .name
        .eq_ignore_ascii_case(&all[0].name));

    for (sel, kind) in [("cpu", DeviceKind::Cpu), ("GPU", DeviceKind::Gpu)] {
        match Context::with_selector(sel) {
            Ok(ctx) => assert_eq!(ctx.device_info().kind, kind),
            Err(Error::DeviceNotFound { .. }) => assert!(all.iter().all(|d| d.kind != kind)),
            Err(e) => panic!("selector {sel}: {e}"),
        }
    }
}

#[test]
fn unknown_device_lists_the_available_ones() {
    let all = listing();
    for sel in ["nonexistent-device", "999999"] {
        let err = Context::with_selector(sel).unwrap_err();
        match &err {
            Error::DeviceNotFound {
                selector,
                available,
            } => {
                assert_eq!(selector, sel);
                assert_eq!(available.len(), all.len());
            }
            other => panic!("expected DeviceNotFound, got {other}"),
        }
        let msg = err.to_string();
        assert!(msg.contains(sel), "{msg}");
        assert!(msg.contains(&all[0].name), "{msg}");
    }
}

#[test]
fn context_new_opens_a_device() {
    // Honours LIFT_DEVICE when the caller set it; otherwise the default choice.
    let ctx = Context::new().unwrap_or_else(|e| panic!("Context::new: {e}"));
    ctx.finish().unwrap();
    let clone = ctx.clone();
    assert_eq!(clone.device_info(), ctx.device_info());
}

#[test]
fn public_types_are_thread_safe_where_they_should_be() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    fn error<T: std::error::Error + Send + Sync + 'static>() {}
    send_sync::<Context>();
    send_sync::<lift_runtime::Buffer<f32>>();
    send_sync::<lift_runtime::Event>();
    send_sync::<lift_runtime::BuiltProgram>();
    send::<lift_runtime::KernelHandle>();
    error::<Error>();
}

/// Without timing, the first candidate that applies and fits; where it launches fewer
/// work-groups than the device has compute units, the first of those with its work-group
/// shape that occupies the most of them, if at least twice as many.
#[test]
fn the_default_choice_fills_the_compute_units() {
    use lift_runtime::select::{default_choice, CandidateFacts};
    let ctx = Context::with_selector("").unwrap();
    let units = ctx.device_info().compute_units as usize;
    let facts = |applies: bool, group: Vec<usize>, groups: Option<usize>| CandidateFacts {
        applies,
        group: Some(group),
        local_bytes: 64,
        groups,
        temporaries: Vec::new(),
    };
    // The first fills the device: it is the choice.
    let full = [
        facts(true, vec![2, 2], Some(units)),
        facts(true, vec![2, 2], Some(4 * units)),
    ];
    assert_eq!(default_choice(&ctx, &full), Some(0));
    // It does not: the first of those with its tiles that occupy the most units.
    let few = [
        facts(true, vec![2, 2], Some(1)),
        facts(false, vec![2, 2], Some(8 * units)),
        facts(true, vec![1, 2], Some(8 * units)),
        facts(true, vec![2, 2, 1], None),
        facts(true, vec![2, 2, 1], Some(units + 1)),
        facts(true, vec![2, 2], Some(2 * units)),
    ];
    let want = if units > 1 { 4 } else { 0 };
    assert_eq!(default_choice(&ctx, &few), Some(want));
    // Less than twice the occupied units keeps the first.
    let half = [
        facts(true, vec![2, 2], Some(units - units / 3)),
        facts(true, vec![2, 2], Some(4 * units)),
    ];
    assert_eq!(default_choice(&ctx, &half), Some(0));
    // Unknown work-group counts keep the first.
    let unknown = [
        facts(true, vec![2, 2], None),
        facts(true, vec![2, 2], Some(4 * units)),
    ];
    assert_eq!(default_choice(&ctx, &unknown), Some(0));
    assert_eq!(
        default_choice(&ctx, &[facts(false, vec![2, 2], Some(1))]),
        None
    );
}

/// Temporaries count against the device's largest allocation and memory and the context's
/// bound: a candidate beyond them does not fit, and the refusal says which.
#[test]
fn temporaries_beyond_the_bound_do_not_fit() {
    use lift_runtime::select::{default_choice, CandidateFacts};
    let ctx = Context::with_selector("").unwrap();
    let facts = |temporaries: Vec<usize>| CandidateFacts {
        applies: true,
        group: None,
        local_bytes: 0,
        groups: None,
        temporaries,
    };
    let cands = [facts(vec![600, 600]), facts(vec![1000]), facts(Vec::new())];
    assert_eq!(cands[0].temporary_bytes(), 1200);
    assert_eq!(default_choice(&ctx, &cands), Some(0));
    let bounded = ctx.with_temporary_limit(Some(1000));
    assert_eq!(default_choice(&bounded, &cands), Some(1));
    let why = cands[0].refusal(&bounded).unwrap();
    assert!(why.contains("1200 bytes") && why.contains("1000"), "{why}");
    assert_eq!(
        default_choice(&ctx.with_temporary_limit(Some(0)), &cands),
        Some(2)
    );
    let huge = facts(vec![usize::MAX]);
    assert!(!huge.fits(&ctx));
    assert!(huge.refusal(&ctx).unwrap().contains("allocates at most"));
}
