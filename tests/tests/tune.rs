//! The tuner and its cache (SPEC section 5) on the default device: a miss tunes and writes
//! `tune.json`, a hit (in this process or after a reload, as another process would see it)
//! returns the same choice without timing; a damaged cache, or an entry naming a candidate
//! that does not exist or does not apply, is ignored and rewritten, never an error or a wrong
//! result; `LIFT_TUNE=1` makes `run` tune on a miss, and `run` without it writes nothing;
//! tuned results equal the interpreter's at odd sizes.
//!
//! The cache location and `LIFT_TUNE` are process-wide environment variables, so every test
//! here holds one lock (see [`Scope`]) while it sets them and runs.

use lift_runtime::cache::{self, CACHE_DIR_ENV};
use lift_runtime::core::interp::Value;
use lift_runtime::tune::TUNE_ENV;
use lift_runtime::{lift, CandidateInfo, Error, Tuned};
use lift_tests::{assert_close, ctx, f32s, interpret, matrix, random_f32};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

lift! {
    /// Matrix product (many candidates: blocked, strips of rows, plain maps).
    kernel Gemm<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) o transpose $ b) $ a
    }
    /// Sums of chunks of 1000: no size up to 256 satisfies its precondition.
    kernel Chunks<N>(x: [f32; N]) -> [f32; N / 1000] { map(reduce(+, 0.0)) o split(1000) $ x }
    /// Sums of chunks of 5000: no small size at all satisfies its precondition.
    kernel BigChunks<N>(x: [f32; N]) -> [f32; N / 5000] { map(reduce(+, 0.0)) o split(5000) $ x }
    /// 5-point stencil, clamped borders.
    kernel Jacobi<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
    }
}

/// One test's cache: holds the lock that serialises the tests of this binary, points
/// `LIFT_CACHE_DIR` at a fresh (not yet created) directory, clears `LIFT_TUNE` and makes the
/// cache forget what it loaded. Dropping it removes the directory and `LIFT_TUNE`.
struct Scope {
    dir: PathBuf,
    _serial: MutexGuard<'static, ()>,
}

impl Scope {
    fn new(name: &str) -> Scope {
        static SERIAL: Mutex<()> = Mutex::new(());
        let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        ctx(); // the device is opened before the environment changes
        let dir =
            std::env::temp_dir().join(format!("lift-tune-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::env::set_var(CACHE_DIR_ENV, &dir);
        std::env::remove_var(TUNE_ENV);
        cache::reload();
        assert_eq!(cache::cache_file(), Some(dir.join("tune.json")));
        Scope {
            dir,
            _serial: serial,
        }
    }

    fn file(&self) -> PathBuf {
        self.dir.join("tune.json")
    }

    /// Writes `text` as the cache file behind the cache's back and makes it reread it.
    fn damage(&self, text: &[u8]) {
        std::fs::create_dir_all(&self.dir).unwrap();
        std::fs::write(self.file(), text).unwrap();
        cache::reload();
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        std::env::remove_var(TUNE_ENV);
        cache::reload();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The cache file's entries (it must be a JSON object of objects).
fn entries(path: &Path) -> serde_json::Map<String, serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match serde_json::from_str(&text) {
        Ok(serde_json::Value::Object(m)) => {
            assert!(m.values().all(|e| e.is_object()), "{text}");
            m
        }
        other => panic!("{}: not a JSON object: {other:?}\n{text}", path.display()),
    }
}

/// The only entry of the cache file whose key names `kernel` at `sizes` (`7x16x9`).
fn entry(path: &Path, kernel: &str, sizes: &str) -> serde_json::Value {
    let m = entries(path);
    let mut hits = m
        .iter()
        .filter(|(k, _)| k.contains(&format!("| {kernel}#")) && k.ends_with(&format!("| {sizes}")));
    let (_, e) = hits
        .next()
        .unwrap_or_else(|| panic!("no entry for {kernel} at {sizes}: {m:?}"));
    assert!(hits.next().is_none(), "two entries for {kernel} at {sizes}");
    e.clone()
}

/// Checks what a fresh (not cached) tuning reports against the kernel's `candidates`; gives
/// the chosen candidate's index.
fn check_fresh(t: &Tuned, candidates: &[CandidateInfo]) -> usize {
    assert!(!t.from_cache, "{t}");
    assert!(t.tried >= 1 && t.valid >= 1 && t.valid <= t.tried, "{t}");
    assert!(t.tried <= candidates.len(), "{t}");
    assert!(t.time_ms.is_finite() && t.time_ms >= 0.0, "{t}");
    let c = candidates
        .iter()
        .position(|k| k.name == t.candidate)
        .unwrap_or_else(|| {
            let names: Vec<&str> = candidates.iter().map(|k| k.name.as_str()).collect();
            panic!("{} is not a candidate: {names:?}", t.candidate)
        });
    assert_eq!(t.params, candidates[c].params, "{t}");
    c
}

fn gemm_inputs(n: usize, k: usize, m: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let a = random_f32(n * k, (n * 10_000 + k * 100 + m) as u64);
    let b = random_f32(k * m, (m * 10_000 + k * 100 + n) as u64);
    let want = f32s(&interpret(
        Gemm::LIFT,
        "Gemm",
        &[n, k, m],
        &[matrix(&a, n), matrix(&b, k)],
    ));
    (a, b, want)
}

fn jacobi_input(n: usize, m: usize) -> (Vec<f32>, Vec<f32>) {
    let x = random_f32(n * m, (n * 1000 + m) as u64);
    let want = f32s(&interpret(
        Jacobi::LIFT,
        "Jacobi",
        &[n, m],
        &[matrix(&x, n)],
    ));
    (x, want)
}

#[test]
fn tune_misses_then_hits_the_cache() {
    let s = Scope::new("hit");
    // K a multiple of the blocked candidates' `tk`: several candidates apply at odd N, M.
    let (n, k, m) = (7, 16, 9);
    let (a, b, want) = gemm_inputs(n, k, m);
    let g = Gemm::new(ctx()).unwrap();

    let t = g.tune(n, k, m, &a, &b).unwrap();
    let c = check_fresh(&t, g.candidates().unwrap());
    assert!(t.tried >= 2, "{t}");
    assert_eq!(g.candidate_for(n, k, m).unwrap(), c);
    let e = entry(&s.file(), "Gemm", "7x16x9");
    assert_eq!(e["candidate"], t.candidate.as_str(), "{e}");
    assert_eq!(e["tried"], t.tried, "{e}");
    assert_eq!(e["valid"], t.valid, "{e}");
    assert_eq!(entries(&s.file()).len(), 1);

    // A hit: the same choice, nothing timed.
    let t2 = g.tune(n, k, m, &a, &b).unwrap();
    assert!(t2.from_cache, "{t2}");
    assert_eq!(
        (&t2.candidate, &t2.params, t2.tried, t2.valid, t2.time_ms),
        (&t.candidate, &t.params, t.tried, t.valid, t.time_ms)
    );

    // As another process sees it: read back from the file.
    cache::reload();
    let g2 = Gemm::new(ctx()).unwrap();
    assert_eq!(g2.candidate_for(n, k, m).unwrap(), c);
    let t3 = g2.tune(n, k, m, &a, &b).unwrap();
    assert!(t3.from_cache, "{t3}");
    assert_eq!((&t3.candidate, &t3.params), (&t.candidate, &t.params));
    assert_close(
        &g2.run(n, k, m, &a, &b).unwrap(),
        &want,
        1e-4,
        "Gemm 7x16x9",
    );

    // Other sizes miss, and their entry is added beside the first.
    let (a, b, want) = gemm_inputs(5, 3, 11);
    let t4 = g2.tune(5, 3, 11, &a, &b).unwrap();
    check_fresh(&t4, g2.candidates().unwrap());
    assert_eq!(entries(&s.file()).len(), 2);
    entry(&s.file(), "Gemm", "7x16x9");
    assert_eq!(
        entry(&s.file(), "Gemm", "5x3x11")["candidate"],
        t4.candidate.as_str()
    );
    assert_close(
        &g2.run(5, 3, 11, &a, &b).unwrap(),
        &want,
        1e-4,
        "Gemm 5x3x11",
    );

    // Bad arguments are an `Err` before anything is tuned or stored.
    match g2.tune(3, 3, 3, &a[..8], &b[..9]) {
        Err(Error::ArgLength { .. }) => {}
        other => panic!("expected an argument-length error, got {other:?}"),
    }
    assert_eq!(entries(&s.file()).len(), 2);
}

#[test]
fn damaged_cache_is_ignored_and_rewritten() {
    let s = Scope::new("damaged");
    let (n, m) = (9, 13);
    let (x, want) = jacobi_input(n, m);
    let garbage: [&[u8]; 6] = [
        b"{ not json",
        b"",
        b"[1, 2, 3]",
        b"{\"key\": 5}",
        b"{\"a | b | c | Jacobi#0 | 9x13\": {\"candidate\": 3}}",
        b"\x00\xff\xfe binary \x80",
    ];
    for text in garbage {
        let what = format!("Jacobi {n}x{m} after {:?}", String::from_utf8_lossy(text));
        s.damage(text);
        // `run` without `LIFT_TUNE` neither fails nor touches the file.
        let j = Jacobi::new(ctx()).unwrap();
        assert_close(&j.run(n, m, &x).unwrap(), &want, 1e-5, &what);
        assert_eq!(std::fs::read(s.file()).unwrap(), text, "{what}");
        // `tune` misses, then rewrites the file as valid JSON holding its choice.
        let t = j.tune(n, m, &x).unwrap();
        let c = check_fresh(&t, j.candidates().unwrap());
        assert_eq!(entries(&s.file()).len(), 1, "{what}");
        let e = entry(&s.file(), "Jacobi", "9x13");
        assert_eq!(e["candidate"], t.candidate.as_str(), "{what}: {e}");
        assert_eq!(j.candidate_for(n, m).unwrap(), c);
        assert_close(&j.run(n, m, &x).unwrap(), &want, 1e-5, &what);
    }

    // A damaged GEMM cache, too (more candidates).
    let (a, b, want) = gemm_inputs(3, 16, 5);
    s.damage(b"{\"truncated\": {\"candidate\": \"blo");
    let g = Gemm::new(ctx()).unwrap();
    assert_close(
        &g.run(3, 16, 5, &a, &b).unwrap(),
        &want,
        1e-4,
        "Gemm 3x16x5",
    );
    let t = g.tune(3, 16, 5, &a, &b).unwrap();
    check_fresh(&t, g.candidates().unwrap());
    assert_eq!(entries(&s.file()).len(), 1);
    assert_close(
        &g.run(3, 16, 5, &a, &b).unwrap(),
        &want,
        1e-4,
        "Gemm 3x16x5",
    );
}

/// Rewrites the candidate of the only entry of the cache file.
fn set_cached_candidate(s: &Scope, candidate: &str) {
    let mut m = entries(&s.file());
    assert_eq!(m.len(), 1);
    for e in m.values_mut() {
        e["candidate"] = candidate.into();
    }
    s.damage(serde_json::to_string_pretty(&m).unwrap().as_bytes());
}

#[test]
fn stale_entries_are_ignored() {
    let s = Scope::new("stale");
    let (n, k, m) = (7, 16, 9);
    let (a, b, want) = gemm_inputs(n, k, m);
    let default = Gemm::new(ctx()).unwrap().candidate_for(n, k, m).unwrap();
    let tuner = Gemm::new(ctx()).unwrap();
    let t = tuner.tune(n, k, m, &a, &b).unwrap();
    check_fresh(&t, tuner.candidates().unwrap());

    // A candidate that no longer exists (the kernel's candidates changed).
    set_cached_candidate(&s, "no_such_candidate(t=3)");
    let g = Gemm::new(ctx()).unwrap();
    assert_eq!(g.candidate_for(n, k, m).unwrap(), default);
    assert_close(
        &g.run(n, k, m, &a, &b).unwrap(),
        &want,
        1e-4,
        "unknown candidate",
    );
    let t2 = g.tune(n, k, m, &a, &b).unwrap();
    check_fresh(&t2, g.candidates().unwrap());
    assert_eq!(
        entry(&s.file(), "Gemm", "7x16x9")["candidate"],
        t2.candidate.as_str()
    );

    // A candidate that exists but does not apply to these sizes (edited by hand).
    let (ab, bb) = (ctx().upload(&a).unwrap(), ctx().upload(&b).unwrap());
    let out = ctx().alloc::<f32>(n * m).unwrap();
    let refused = (0..g.candidates().unwrap().len()).find(|&c| {
        matches!(g.launch_candidate(c, n, k, m, &ab, &bb, &out),
            Err(Error::Launch { reason }) if reason.contains("does not apply"))
    });
    let c = refused.expect("a GEMM candidate that does not apply at 7x16x9");
    set_cached_candidate(&s, &g.candidates().unwrap()[c].name);
    let g = Gemm::new(ctx()).unwrap();
    assert_ne!(g.candidate_for(n, k, m).unwrap(), c);
    assert_close(
        &g.run(n, k, m, &a, &b).unwrap(),
        &want,
        1e-4,
        "refused candidate",
    );
    let t3 = g.tune(n, k, m, &a, &b).unwrap();
    assert_ne!(check_fresh(&t3, g.candidates().unwrap()), c);
}

#[test]
fn unwritable_cache_still_serves_this_process() {
    let s = Scope::new("unwritable");
    // The cache directory lies under a regular file: it can be neither created nor written.
    std::fs::write(&s.dir, b"not a directory").unwrap();
    std::env::set_var(CACHE_DIR_ENV, s.dir.join("cache"));
    cache::reload();
    let (n, m) = (9, 13);
    let (x, want) = jacobi_input(n, m);
    let t = Jacobi::new(ctx()).unwrap().tune(n, m, &x).unwrap();
    let j = Jacobi::new(ctx()).unwrap();
    let c = check_fresh(&t, j.candidates().unwrap());
    assert_eq!(j.candidate_for(n, m).unwrap(), c);
    let t2 = j.tune(n, m, &x).unwrap();
    assert!(t2.from_cache, "{t2}");
    assert_eq!(t2.candidate, t.candidate);
    assert_close(&j.run(n, m, &x).unwrap(), &want, 1e-5, "unwritable cache");
    std::fs::remove_file(&s.dir).unwrap();
}

/// The interpreter check runs at small sizes that satisfy the candidate's conditions; a
/// divisor above the usual small sizes is still found. When none is, `tune` fails but `run`
/// with `LIFT_TUNE=1` still runs the untuned choice.
#[test]
fn tuning_kernels_with_large_divisors() {
    let s = Scope::new("divisors");
    let n = 3000;
    let x = random_f32(n, 3);
    let want = f32s(&interpret(
        Chunks::LIFT,
        "Chunks",
        &[n],
        &[Value::from_f32s(&x)],
    ));
    let k = Chunks::new(ctx()).unwrap();
    let t = k.tune(n, &x).unwrap();
    check_fresh(&t, k.candidates().unwrap());
    assert_close(&k.run(n, &x).unwrap(), &want, 1e-4, "Chunks");

    let n = 10_000;
    let x = random_f32(n, 4);
    let want = f32s(&interpret(
        BigChunks::LIFT,
        "BigChunks",
        &[n],
        &[Value::from_f32s(&x)],
    ));
    let k = BigChunks::new(ctx()).unwrap();
    match k.tune(n, &x) {
        Err(Error::Launch { reason }) => assert!(reason.contains("no valid candidate"), "{reason}"),
        other => panic!("expected a tuning error, got {other:?}"),
    }
    std::env::set_var(TUNE_ENV, "1");
    assert_close(
        &k.run(n, &x).unwrap(),
        &want,
        1e-4,
        "BigChunks, LIFT_TUNE=1",
    );
    assert!(entries(&s.file())
        .keys()
        .all(|key| !key.contains("| BigChunks#")));
}

#[test]
fn lift_tune_makes_run_tune_on_a_miss() {
    let s = Scope::new("env");
    let (n, m) = (9, 13);
    let (x, want) = jacobi_input(n, m);
    let j = Jacobi::new(ctx()).unwrap();

    // Without `LIFT_TUNE` (or with another value), `run` writes no cache.
    for value in [None, Some("0"), Some("yes")] {
        match value {
            Some(v) => std::env::set_var(TUNE_ENV, v),
            None => std::env::remove_var(TUNE_ENV),
        }
        assert_close(&j.run(n, m, &x).unwrap(), &want, 1e-5, "untuned");
        assert!(!s.file().exists(), "LIFT_TUNE={value:?} wrote the cache");
    }

    // With `LIFT_TUNE=1`, a miss tunes and stores the choice, which `run` then uses.
    std::env::set_var(TUNE_ENV, "1");
    assert_close(&j.run(n, m, &x).unwrap(), &want, 1e-5, "LIFT_TUNE=1");
    let e = entry(&s.file(), "Jacobi", "9x13");
    let chosen = e["candidate"].as_str().unwrap().to_string();
    let c = j
        .candidates()
        .unwrap()
        .iter()
        .position(|k| k.name == chosen)
        .unwrap_or_else(|| panic!("{chosen} is not a candidate"));
    assert_eq!(j.candidate_for(n, m).unwrap(), c);

    // A hit does not tune again: the file is unchanged.
    let before = std::fs::read(s.file()).unwrap();
    assert_close(&j.run(n, m, &x).unwrap(), &want, 1e-5, "LIFT_TUNE=1, hit");
    assert_eq!(std::fs::read(s.file()).unwrap(), before);

    // Another size misses and is added.
    let (x2, want2) = jacobi_input(5, 7);
    assert_close(&j.run(5, 7, &x2).unwrap(), &want2, 1e-5, "LIFT_TUNE=1, 5x7");
    assert_eq!(entries(&s.file()).len(), 2);
    entry(&s.file(), "Jacobi", "5x7");

    // Later, without `LIFT_TUNE`, `run` and `launch` use the cached choice.
    std::env::remove_var(TUNE_ENV);
    cache::reload();
    let j2 = Jacobi::new(ctx()).unwrap();
    assert_eq!(j2.candidate_for(n, m).unwrap(), c);
    assert_close(&j2.run(n, m, &x).unwrap(), &want, 1e-5, "cached choice");
    let xb = ctx().upload(&x).unwrap();
    let out = ctx().alloc::<f32>(n * m).unwrap();
    j2.launch(n, m, &xb, &out).unwrap().wait().unwrap();
    assert_close(
        &out.download().unwrap(),
        &want,
        1e-5,
        "launch, cached choice",
    );
}

#[test]
fn tuned_results_match_the_interpreter_at_odd_sizes() {
    let _s = Scope::new("odd");
    let g = Gemm::new(ctx()).unwrap();
    for (n, k, m) in [(1, 1, 1), (3, 7, 5), (13, 16, 17), (33, 32, 65), (9, 48, 7)] {
        let (a, b, want) = gemm_inputs(n, k, m);
        let what = format!("Gemm {n}x{k}x{m}");
        let t = g.tune(n, k, m, &a, &b).unwrap();
        let c = check_fresh(&t, g.candidates().unwrap());
        assert_eq!(g.candidate_for(n, k, m).unwrap(), c, "{what}");
        assert_close(&g.run(n, k, m, &a, &b).unwrap(), &want, 1e-4, &what);
        let (ab, bb) = (ctx().upload(&a).unwrap(), ctx().upload(&b).unwrap());
        let out = ctx().alloc::<f32>(n * m).unwrap();
        g.launch(n, k, m, &ab, &bb, &out).unwrap().wait().unwrap();
        assert_close(
            &out.download().unwrap(),
            &want,
            1e-4,
            &format!("{what}, launch"),
        );
        // A scratch made with `scratch` after tuning serves the tuned choice.
        let scratch = g.scratch(n, k, m).unwrap();
        let out = ctx().alloc::<f32>(n * m).unwrap();
        g.launch_in(&scratch, c, n, k, m, &ab, &bb, &out)
            .unwrap()
            .wait()
            .unwrap();
        assert_close(
            &out.download().unwrap(),
            &want,
            1e-4,
            &format!("{what}, launch_in"),
        );
    }
    let j = Jacobi::new(ctx()).unwrap();
    for (n, m) in [(1, 1), (7, 5), (9, 13), (31, 17), (65, 3)] {
        let (x, want) = jacobi_input(n, m);
        let what = format!("Jacobi {n}x{m}");
        let t = j.tune(n, m, &x).unwrap();
        let c = check_fresh(&t, j.candidates().unwrap());
        assert_eq!(j.candidate_for(n, m).unwrap(), c, "{what}");
        assert_close(&j.run(n, m, &x).unwrap(), &want, 1e-5, &what);
        let xb = ctx().upload(&x).unwrap();
        let out = ctx().alloc::<f32>(n * m).unwrap();
        j.launch(n, m, &xb, &out).unwrap().wait().unwrap();
        assert_close(
            &out.download().unwrap(),
            &want,
            1e-5,
            &format!("{what}, launch"),
        );
    }
}

/// A context's bound on temporaries (`Context::with_temporary_limit`,
/// `LIFT_MAX_TEMPORARY_MIB`): the default choice and the tuner consider only the candidates
/// within it, and the cache keeps the bounded choice apart from the unbounded one.
#[test]
fn a_bound_on_temporaries_is_a_choice_of_its_own() {
    let s = Scope::new("bound");
    // A short product with a long shared dimension: partial products (temporaries) apply.
    let (n, k, m) = (9, 192, 7);
    let (a, b, want) = gemm_inputs(n, k, m);
    let g = Gemm::new(ctx()).unwrap();
    let needs = |c: usize| g.temporary_bytes(c, n, k, m).unwrap();
    let with_temps = (0..g.candidates().unwrap().len())
        .filter(|&c| needs(c) > 0)
        .count();
    assert!(with_temps > 0, "no candidate with temporaries");
    let free = g.tune(n, k, m, &a, &b).unwrap();
    check_fresh(&free, g.candidates().unwrap());

    let bounded = ctx().with_temporary_limit(Some(0));
    assert_eq!(bounded.temporary_limit(), Some(0));
    let gb = Gemm::new(&bounded).unwrap();
    assert_eq!(needs(gb.candidate_for(n, k, m).unwrap()), 0);
    let t = gb.tune(n, k, m, &a, &b).unwrap();
    let c = check_fresh(&t, gb.candidates().unwrap());
    assert_eq!(needs(c), 0, "{t}");
    assert!(t.tried < free.tried, "bounded {t}, free {free}");
    assert_eq!(gb.candidate_for(n, k, m).unwrap(), c);
    assert_close(&gb.run(n, k, m, &a, &b).unwrap(), &want, 1e-4, "bounded");
    // Two entries: the unbounded one is untouched, the bounded one is a hit now.
    assert_eq!(entries(&s.file()).len(), 2);
    assert_eq!(
        entry(&s.file(), "Gemm", "9x192x7")["candidate"],
        free.candidate.as_str()
    );
    assert!(gb.tune(n, k, m, &a, &b).unwrap().from_cache);
    let again = Gemm::new(ctx()).unwrap().tune(n, k, m, &a, &b).unwrap();
    assert!(
        again.from_cache && again.candidate == free.candidate,
        "{again}"
    );

    // The environment variable sets the bound of a new context; a bad value is an `Err`
    // naming it.
    let var = lift_runtime::MAX_TEMPORARY_ENV;
    std::env::set_var(var, "1.5");
    let opened = lift_runtime::Context::with_selector("");
    std::env::set_var(var, "lots");
    let bad = lift_runtime::Context::with_selector("");
    std::env::remove_var(var);
    assert_eq!(opened.unwrap().temporary_limit(), Some(3 << 19));
    match bad {
        Err(e @ Error::Setting { .. }) => {
            assert!(
                e.to_string().contains(var) && e.to_string().contains("lots"),
                "{e}"
            )
        }
        other => panic!("expected a setting error, got {other:?}"),
    }
}
