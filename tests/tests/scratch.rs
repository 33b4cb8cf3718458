//! Global temporaries and the time of launches of several kernels: `scratch` holds what the
//! candidate `launch` runs needs, `scratch_for` one candidate's, and the kernel's own
//! temporaries serve every candidate; a candidate launched (`launch_in`) with a scratch made
//! for another that needs less is an `Err` naming the scratch, never an overrun.
//! `Event::span_ns` covers every kernel of a launch. The tuner's correctness check finds small
//! sizes for candidates whose conditions tie several sizes together (partial products of a
//! convolution).

use lift_runtime::{lift, tune, Buffer, Error};
use lift_tests::{assert_close, ctx, f32s, interpret, matrix, random_f32};

lift! {
    /// A short product with a long shared dimension: its partial products (split-K) apply.
    kernel Short<N, K, M>(a: [[f32; K]; N], b: [[f32; K]; M]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(r, c)) $ b) $ a
    }
}

/// The sizes of the short product.
const SIZES: (usize, usize, usize) = (9, 200, 7);

/// The candidates of `Short` with temporaries that apply at [`SIZES`] (a launch on `a` and
/// `b` into `out` is not refused), with their temporaries' bytes.
fn applying(k: &Short, a: &Buffer<f32>, b: &Buffer<f32>, out: &Buffer<f32>) -> Vec<(usize, usize)> {
    let (n, kk, m) = SIZES;
    let cands = k.candidates().unwrap();
    (0..cands.len())
        .filter_map(|c| {
            let bytes = k.temporary_bytes(c, n, kk, m).ok()?;
            if bytes == 0 {
                return None;
            }
            match k.launch_candidate(c, n, kk, m, a, b, out) {
                Ok(ev) => {
                    ev.wait().unwrap();
                    Some((c, bytes))
                }
                Err(Error::Launch { reason }) if reason.contains("does not apply") => None,
                Err(e) => panic!("{}: {e}", cands[c].name),
            }
        })
        .collect()
}

#[test]
fn scratch_serves_the_launched_candidate_and_scratch_for_any_one() {
    let k = Short::new(ctx()).unwrap();
    let cands = k.candidates().unwrap();
    let (n, kk, m) = SIZES;
    let (a, b) = (random_f32(n * kk, 5), random_f32(kk * m, 6));
    let want = f32s(&interpret(
        Short::LIFT,
        "Short",
        &[n, kk, m],
        &[matrix(&a, n), matrix(&b, m)],
    ));
    let (da, db) = (ctx().upload(&a).unwrap(), ctx().upload(&b).unwrap());
    let out = ctx().alloc::<f32>(n * m).unwrap();
    let with_temps = applying(&k, &da, &db, &out);
    assert!(
        with_temps
            .iter()
            .any(|&(c, _)| cands[c].name.contains("split=")),
        "{with_temps:?}"
    );
    // Each candidate with a scratch of its own: as large as it needs (within a byte per
    // temporary), and its result right.
    for &(c, bytes) in &with_temps {
        let sc = k.scratch_for(c, n, kk, m).unwrap();
        assert!(sc.bytes() < bytes + 8, "{}", cands[c].name);
        k.launch_in(&sc, c, n, kk, m, &da, &db, &out)
            .unwrap()
            .wait()
            .unwrap();
        let what = format!("Short {}", cands[c].name);
        assert_close(&out.download().unwrap(), &want, 1e-4, &what);
    }
    // `scratch` holds what the chosen candidate needs, not the most of any candidate.
    let chosen = k.candidate_for(n, kk, m).unwrap();
    let need = k.temporary_bytes(chosen, n, kk, m).unwrap();
    let sc = k.scratch(n, kk, m).unwrap();
    assert!(
        sc.bytes() >= need && sc.bytes() < need + 8,
        "{}",
        sc.bytes()
    );
    k.launch_in(&sc, chosen, n, kk, m, &da, &db, &out)
        .unwrap()
        .wait()
        .unwrap();
    assert_close(&out.download().unwrap(), &want, 1e-4, "Short, launch_in");
    k.launch(n, kk, m, &da, &db, &out).unwrap().wait().unwrap();
    assert_close(&out.download().unwrap(), &want, 1e-4, "Short, launch");
    // The kernel's own temporaries serve every applying candidate, one after another, from
    // the one needing the least to the one needing the most.
    let mut by_need = with_temps.clone();
    by_need.sort_by_key(|&(_, b)| b);
    for &(c, _) in &by_need {
        k.launch_candidate(c, n, kk, m, &da, &db, &out)
            .unwrap()
            .wait()
            .unwrap();
        let what = format!("Short {}, own temporaries", cands[c].name);
        assert_close(&out.download().unwrap(), &want, 1e-4, &what);
    }
    // The candidate needing the most, with the scratch of the one needing the least.
    let (small, _) = *with_temps.iter().min_by_key(|&&(_, b)| b).unwrap();
    let (large, _) = *with_temps.iter().max_by_key(|&&(_, b)| b).unwrap();
    assert_ne!(small, large, "{with_temps:?}");
    let sc = k.scratch_for(small, n, kk, m).unwrap();
    match k.launch_in(&sc, large, n, kk, m, &da, &db, &out) {
        Err(e @ Error::ArgLength { .. }) => assert!(e.to_string().contains("scratch"), "{e}"),
        Err(e) => panic!("unexpected error: {e}"),
        Ok(_) => panic!("a scratch too small was accepted"),
    }
    match k.scratch_for(cands.len(), n, kk, m) {
        Err(Error::ArgLength { arg, .. }) => assert_eq!(arg, "candidate"),
        other => panic!("unexpected: {:?}", other.map(|s| s.bytes())),
    }
}

#[test]
fn span_covers_every_kernel_of_a_launch() {
    let k = Short::new(ctx()).unwrap();
    let (n, kk, m) = SIZES;
    let (da, db) = (
        ctx().upload(&random_f32(n * kk, 7)).unwrap(),
        ctx().upload(&random_f32(kk * m, 8)).unwrap(),
    );
    let out = ctx().alloc::<f32>(n * m).unwrap();
    let (c, _) = applying(&k, &da, &db, &out)
        .into_iter()
        .find(|&(c, _)| k.candidates().unwrap()[c].kernels.len() > 1)
        .expect("a candidate of several kernels");
    let ev = k.launch_candidate(c, n, kk, m, &da, &db, &out).unwrap();
    // `profile_ns` spans every kernel of the launch, too.
    let (span, profile) = (ev.span_ns().unwrap(), ev.profile_ns().unwrap());
    assert!(span >= profile, "span {span} ns < profile {profile} ns");
}

#[test]
fn the_check_finds_sizes_for_conditions_that_tie_sizes_together() {
    let text = "kernel Conv<H, W, C, F>(x: [[[f32; C]; W]; H], w: [[[[f32; C]; 3]; 3]; F], b: [f32; F]) -> [[[f32; F]; W]; H] { map2(|win| map(|wb| max(0.0, wb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(join o join $ win, join o join $ wb.0)))) $ zip(w, b)) o slide2(3, 1) o pad2(1, constant([0.0; C])) $ x }";
    let dk = lift_runtime::DynKernel::compile(ctx(), text, "Conv").unwrap();
    let names = dk.candidates();
    // `64 <= H W`, `128 <= F` and `s F H W <= 36 C (F + H W)`: the first small `H`, `W` and
    // `C` leave no `F`, a larger `C` does.
    let split = names
        .iter()
        .find(|n| n.contains("split=32,") && n.contains("tm=64,s0.tn=128"))
        .expect("a split candidate with 64 x 128 blocks");
    assert_eq!(
        tune::check_candidate(ctx(), text, "Conv", split).map_err(|e| e.to_string()),
        Ok(true),
        "{split}"
    );
}

/// Builds for the sizes at hand (`-DLIFT_SIZE_*`): every candidate of `Short` launched so,
/// and a convolution compiled at run time and built for odd sizes, agree with the
/// interpreter; runs at other sizes still use the general build.
#[test]
fn builds_for_the_sizes_agree_with_the_interpreter() {
    let k = Short::new(ctx()).unwrap();
    let cands = k.candidates().unwrap();
    let (n, kk, m) = SIZES;
    let (a, b) = (random_f32(n * kk, 11), random_f32(kk * m, 12));
    let want = f32s(&interpret(
        Short::LIFT,
        "Short",
        &[n, kk, m],
        &[matrix(&a, n), matrix(&b, m)],
    ));
    let (da, db) = (ctx().upload(&a).unwrap(), ctx().upload(&b).unwrap());
    let out = ctx().alloc::<f32>(n * m).unwrap();
    let all = applying(&k, &da, &db, &out);
    let plain = (0..cands.len()).filter(|&c| k.temporary_bytes(c, n, kk, m).is_ok_and(|b| b == 0));
    for c in all.iter().map(|&(c, _)| c).chain(plain.take(3)) {
        let Ok(ev) = k.launch_specialised(c, n, kk, m, &da, &db, &out) else {
            continue;
        };
        ev.wait().unwrap();
        let what = format!("Short {} built for the sizes", cands[c].name);
        assert_close(&out.download().unwrap(), &want, 1e-4, &what);
    }

    let text = "kernel Conv<H, W, C, F>(x: [[[f32; C]; W]; H], w: [[[[f32; C]; 3]; 3]; F], b: [f32; F]) -> [[[f32; F]; W]; H] { map2(|win| map(|wb| max(0.0, wb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1) $ zip(join o join $ win, join o join $ wb.0)))) $ zip(w, b)) o slide2(3, 1) o pad2(1, constant([0.0; C])) $ x }";
    let mut dk = lift_runtime::DynKernel::compile(ctx(), text, "Conv").unwrap();
    let args = |(h, w, c, f): (usize, usize, usize, usize), seed: u64| {
        let x = random_f32(h * w * c, seed);
        let wt = random_f32(f * 9 * c, seed + 1);
        let bias = random_f32(f, seed + 2);
        let x = lift_runtime::core::interp::Value::Array(
            x.chunks(w * c).map(|r| matrix(r, w)).collect(),
        );
        let wt = lift_runtime::core::interp::Value::Array(
            wt.chunks(9 * c)
                .map(|k| {
                    lift_runtime::core::interp::Value::Array(
                        k.chunks(3 * c).map(|r| matrix(r, 3)).collect(),
                    )
                })
                .collect(),
        );
        vec![x, wt, lift_runtime::core::interp::Value::from_f32s(&bias)]
    };
    let at = (5, 7, 3, 2);
    dk.specialise(&[5, 7, 3, 2]).unwrap();
    for (sizes, seed) in [(at, 20), ((4, 3, 5, 3), 30), (at, 40)] {
        let a = args(sizes, seed);
        let s = [sizes.0, sizes.1, sizes.2, sizes.3];
        let want = f32s(&interpret(text, "Conv", &s, &a));
        let got = f32s(&dk.run(&s, &a).unwrap());
        assert_close(&got, &want, 1e-4, &format!("Conv {sizes:?}"));
    }
}
