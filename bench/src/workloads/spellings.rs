//! Spellings and sizes (`lift-bench --spellings`, or `--only spellings`): every workload in
//! several spellings a user would write (`crate::spelling_kernels`), at round and non-round
//! sizes, each
//!
//! - **untuned**: plain `launch` with an empty tuning cache, i.e. the default choice for the
//!   device (`select::default_choice`);
//! - **tuned**: `Name::tune(...)` first (into a fresh cache under the output directory), then
//!   plain `launch`, which now runs the cached choice; in quick mode the tuner tries only the
//!   first [`QUICK_TUNE_CANDIDATES`] candidates that apply (`LIFT_TUNE_CANDIDATES`): the
//!   quick mode checks that every spelling tunes and runs its choice, not which is fastest;
//!
//! against the references at the same sizes and layouts: CLBlast (`Sgemm`, `Sgemm` with B
//! transposed, `Sgemv`, `Sgemv` transposed) and PyTorch (`scripts/torch_ref.py --spellings`,
//! merged by `--torch` / `--report`). Every spelling of one workload and size computes the
//! same output from the same data (an operand "given transposed" is uploaded transposed), so
//! all are checked against one CPU reference; a wrong result is reported and not timed.
//!
//! Workload names carry the size (`gemm-4000`), so each size is its own group in the main
//! table; each record also carries a [`SpellingInfo`] (spelling, size, mode, candidate and
//! its parameters). [`table`] and [`write()`] derive, per record, the ratio against the best
//! spelling of the same workload, size and mode, and the time per element relative to the
//! same spelling and mode at the round size (`spellings.md`, `.csv`, `.json`;
//! `plot::draw_spellings` draws `spellings.png`).

use super::{Bench, Blas};
use crate::clblast::ClBlast;
use crate::common::{par_map, random_vec, Config, Record, Reference, SpellingInfo, Work};
use crate::report::Suite;
use crate::spelling_kernels::*;
use crate::timing::{Ev, Res};
use lift_runtime::{Buffer, CandidateInfo, Context, Error, Event, Tuned};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::Path;

/// The workloads of the spellings part (`--workloads` picks some).
pub const WORKLOADS: &[&str] = &[
    "gemm",
    "jacobi",
    "jacobi3d",
    "gemv",
    "blur",
    "zip",
    "transpose",
];

/// The candidates a tuning tries in quick mode (`LIFT_TUNE_CANDIDATES`): enough to compare
/// candidates and time the fastest built for the sizes, without the minutes POCL takes to
/// build and time every one of a matrix product.
pub const QUICK_TUNE_CANDIDATES: usize = 2;

/// The sizes measured, the round size first.
struct Sizes {
    gemm: [usize; 4],
    stencil: [usize; 3],
    stencil3: [usize; 3],
    gemv: [usize; 2],
    blur: [usize; 2],
    zip: [usize; 2],
    transpose: [usize; 2],
}

impl Sizes {
    fn new(quick: bool) -> Sizes {
        if quick {
            Sizes {
                // Same divisibility as the full sizes: 4096 = 2^12, 4000 = 2^5 * 125 (256 - 32),
                // 4032 = 2^6 * 63 (256 - 64), 4001 odd, so the same candidates apply.
                gemm: [256, 224, 192, 201],
                stencil: [512, 510, 511],
                stencil3: [64, 62, 63],
                gemv: [512, 511],
                blur: [1 << 16, (1 << 16) - 1],
                zip: [1 << 16, (1 << 16) - 1],
                transpose: [512, 511],
            }
        } else {
            Sizes {
                gemm: [4096, 4000, 4032, 4001],
                stencil: [8192, 8190, 8191],
                stencil3: [512, 510, 511],
                gemv: [8192, 8191],
                blur: [1 << 26, (1 << 26) + 3],
                zip: [1 << 24, (1 << 24) - 1],
                transpose: [8192, 8191],
            }
        }
    }
}

/// The size text of a spellings workload name (`gemm-4000` → `4000^3`).
pub fn size_text(workload: &str) -> Option<String> {
    let (w, n) = workload.rsplit_once('-')?;
    let n: usize = n.parse().ok()?;
    Some(match w {
        "gemm" => format!("{n}^3"),
        "gemv" => format!("{n}x{n}"),
        "jacobi" => format!("{n}^2"),
        "jacobi3d" => format!("{n}^3"),
        "zip" | "blur" => format!("n = {n}"),
        "transpose" => format!("{n}^2"),
        _ => return None,
    })
}

/// Runs every spelling at every size, untuned then tuned, and the CLBlast references.
pub fn run(ctx: &Context, cfg: &Config, blas: Blas<'_>) -> Res<Vec<Record>> {
    let cfg = &Config {
        time_wrong: false,
        ..cfg.clone()
    };
    // Untuned means an empty cache: tune into a fresh one under the output directory.
    let cache = cfg.out.join("tune-cache");
    let _ = std::fs::remove_dir_all(&cache);
    std::fs::create_dir_all(&cache)?;
    std::env::set_var(lift_runtime::cache::CACHE_DIR_ENV, &cache);
    lift_runtime::cache::reload();
    eprintln!("spellings: tuning cache {}", cache.display());
    if cfg.quick {
        std::env::set_var(
            lift_runtime::tune::TUNE_CANDIDATES_ENV,
            QUICK_TUNE_CANDIDATES.to_string(),
        );
    }
    let s = Sizes::new(cfg.quick);
    let mut recs = Vec::new();
    // A size that fails as a whole (allocation, upload) is reported and the others still run.
    let mut step = |what: &str, r: Res<Vec<Record>>| match r {
        Ok(v) => recs.extend(v),
        Err(e) => eprintln!("spellings: {what} skipped: {e}"),
    };
    let wanted = |w: &str| {
        cfg.spelling_workloads
            .as_ref()
            .is_none_or(|ws| ws.iter().any(|x| x == w))
    };
    let sized = |n: &usize| cfg.spelling_sizes.as_ref().is_none_or(|ns| ns.contains(n));
    if wanted("gemm") {
        for n in s.gemm.into_iter().filter(sized) {
            step(&format!("gemm-{n}"), gemm(ctx, cfg, n, s.gemm[0], blas));
        }
    }
    if wanted("jacobi") {
        for n in s.stencil.into_iter().filter(sized) {
            step(&format!("jacobi-{n}"), jacobi(ctx, cfg, n, s.stencil[0]));
        }
    }
    if wanted("jacobi3d") {
        for n in s.stencil3.into_iter().filter(sized) {
            step(
                &format!("jacobi3d-{n}"),
                jacobi3d(ctx, cfg, n, s.stencil3[0]),
            );
        }
    }
    if wanted("gemv") {
        for n in s.gemv.into_iter().filter(sized) {
            step(&format!("gemv-{n}"), gemv(ctx, cfg, n, s.gemv[0], blas));
        }
    }
    if wanted("blur") {
        for n in s.blur.into_iter().filter(sized) {
            step(&format!("blur-{n}"), blur(ctx, cfg, n, s.blur[0]));
        }
    }
    if wanted("zip") {
        // An element-wise map applies at every length: `--sizes` filters its default lengths
        // like every workload's, and where it names none of them, the listed sizes are the
        // lengths measured (2^26 and 2^26 + 3, say), the first of them the round one.
        let listed: Vec<usize> = s.zip.into_iter().filter(sized).collect();
        let ns = match &cfg.spelling_sizes {
            Some(ns) if listed.is_empty() && !ns.is_empty() => ns.clone(),
            _ => listed,
        };
        for &n in &ns {
            step(&format!("zip-{n}"), zip(ctx, cfg, n, ns[0]));
        }
    }
    if wanted("transpose") {
        for n in s.transpose.into_iter().filter(sized) {
            step(
                &format!("transpose-{n}"),
                transpose(ctx, cfg, n, s.transpose[0]),
            );
        }
    }
    Ok(recs)
}

/// A workload name that lives as long as the records (a few per run).
fn name(w: &str, n: usize) -> &'static str {
    Box::leak(format!("{w}-{n}").into_boxed_str())
}

/// One workload at one size: what every record of it shares.
struct Group {
    workload: &'static str,
    n: usize,
    round: usize,
    elements: f64,
}

impl Group {
    /// Tags the records `recs[from..]` as `spelling` in `mode`, run as `candidate`.
    fn tag(
        &self,
        recs: &mut [Record],
        from: usize,
        spelling: &str,
        mode: &str,
        candidate: (&str, Vec<(String, i64)>),
        tuner: Option<&Tuned>,
    ) {
        for r in recs.iter_mut().skip(from) {
            r.spelling = Some(SpellingInfo {
                workload: self.workload.into(),
                spelling: spelling.into(),
                n: self.n,
                round: self.round,
                elements: self.elements,
                mode: mode.into(),
                candidate: candidate.0.into(),
                params: candidate.1.clone(),
                tuner: tuner.map(|t| (t.time_ms, t.tried, t.valid)),
            });
        }
    }

    /// A CLBlast reference, tagged with mode `reference`.
    fn clblast(
        &self,
        b: &mut Bench<'_>,
        name: &str,
        blas: Blas<'_>,
        call: impl Fn(&ClBlast, &Buffer<f32>) -> Res<Ev>,
    ) {
        let from = b.recs.len();
        b.clblast(name, blas, call);
        self.tag(b.recs, from, name, "reference", ("", Vec::new()), None);
    }
}

/// Candidate `info`'s name and parameters.
fn candidate(info: &CandidateInfo) -> (&str, Vec<(String, i64)>) {
    (&info.name, info.params.clone())
}

/// One spelling, untuned then tuned. `candidates` gives the kernel's candidates
/// (`candidates`), `choose` is the candidate `launch` runs (`candidate_for`), `tune` tunes,
/// `launch` is the plain `launch`.
#[allow(clippy::too_many_arguments)]
fn spelling<K>(
    b: &mut Bench<'_>,
    g: &Group,
    label: &str,
    kernel: Result<K, Error>,
    candidates: impl Fn(&K) -> Result<&[CandidateInfo], Error>,
    choose: impl Fn(&K) -> Result<usize, Error>,
    tune: impl Fn(&K) -> Result<Tuned, Error>,
    launch: impl Fn(&K, &Buffer<f32>) -> Result<Event, Error>,
) {
    let none = || ("", Vec::new());
    let fail = |b: &mut Bench<'_>, e: Error| {
        for mode in ["untuned", "tuned"] {
            let from = b.recs.len();
            b.error(&format!("lift-rs {label}, {mode}"), "lift", &e);
            g.tag(b.recs, from, label, mode, none(), None);
        }
    };
    let k = match kernel {
        Ok(k) => k,
        Err(e) => return fail(b, e),
    };
    let cands = match candidates(&k) {
        Ok(cands) => cands,
        Err(e) => return fail(b, e),
    };
    // Untuned: the choice `launch` makes with nothing cached.
    let from = b.recs.len();
    match choose(&k) {
        Ok(c) => {
            let info = &cands[c];
            let imp = format!("lift-rs {label}, untuned: {}", info.name);
            b.lift(&imp, "lift", Ok::<_, Error>(&k), |k, o| Ok(launch(k, o)?));
            g.tag(b.recs, from, label, "untuned", candidate(info), None);
        }
        Err(e) => {
            b.error(&format!("lift-rs {label}, untuned"), "lift", e);
            g.tag(b.recs, from, label, "untuned", none(), None);
        }
    }
    // Tuned: `tune`, then the choice `launch` makes from the cache.
    let from = b.recs.len();
    match tune(&k).and_then(|t| Ok((choose(&k)?, t))) {
        Ok((c, t)) => {
            eprintln!("  {label}: tuned {t}");
            let info = &cands[c];
            if info.name != t.candidate {
                eprintln!(
                    "  {label}: launch runs {} although the tuner chose {}",
                    info.name, t.candidate
                );
            }
            let imp = format!("lift-rs {label}, tuned: {}", info.name);
            b.lift(&imp, "lift", Ok::<_, Error>(&k), |k, o| Ok(launch(k, o)?));
            g.tag(b.recs, from, label, "tuned", candidate(info), Some(&t));
        }
        Err(e) => {
            b.error(&format!("lift-rs {label}, tuned"), "lift", e);
            g.tag(b.recs, from, label, "tuned", none(), None);
        }
    }
}

/// `spelling` for kernel struct `$k` at sizes `[$s...]`, launched on device buffers
/// `($dev...)`, tuned on the host slices `($host...)`.
macro_rules! spell {
    ($b:expr, $g:expr, $label:expr, $k:ident, $ctx:expr, [$($s:expr),*], ($($dev:expr),*), ($($host:expr),*)) => {
        spelling(
            $b,
            $g,
            $label,
            $k::new($ctx),
            |k| k.candidates(),
            |k| k.candidate_for($($s),*),
            |k| k.tune($($s,)* $($host),*),
            |k, o| k.launch($($s,)* $($dev,)* o),
        )
    };
}

/// The `n x n` row-major matrix `m` transposed.
fn transposed(m: &[f32], n: usize) -> Vec<f32> {
    par_map(n * n, |k| m[(k % n) * n + k / n])
}

/// Sampled entries of `C = A · B` (4096 of them; the full f64 product would take minutes at
/// 4096^3 on the host).
fn gemm_reference(av: &[f32], bv: &[f32], n: usize) -> Reference {
    let samples = 4096.min(n * n);
    let idx: Vec<usize> = (0..samples)
        .map(|s| {
            let r = crate::common::rand_at(77, s as u64);
            (((f64::from(r) + 1.0) / 2.0 * (n * n) as f64) as usize).min(n * n - 1)
        })
        .collect();
    let values = par_map(samples, |s| {
        let (i, j) = (idx[s] / n, idx[s] % n);
        (0..n)
            .map(|k| f64::from(av[i * n + k]) * f64::from(bv[k * n + j]))
            .sum::<f64>()
    });
    Reference {
        values,
        idx: Some(idx),
    }
}

fn gemm(ctx: &Context, cfg: &Config, n: usize, round: usize, blas: Blas<'_>) -> Res<Vec<Record>> {
    eprintln!("spellings: gemm (n = {n})");
    let mut recs = Vec::new();
    let av = random_vec(n * n, 5);
    let bv = random_vec(n * n, 6);
    let btv = transposed(&bv, n);
    let atv = transposed(&av, n);
    let reference = gemm_reference(&av, &bv, n);
    let (a, bm, bt) = (ctx.upload(&av)?, ctx.upload(&bv)?, ctx.upload(&btv)?);
    let at = &ctx.upload(&atv)?;
    let mut out = ctx.alloc::<f32>(n * n)?;
    let work = Work {
        name: name("gemm", n),
        size: format!("{n}^3"),
        flops: 2.0 * (n as f64).powi(3),
        bytes: 12.0 * (n * n) as f64,
        tol: 1e-5,
    };
    let g = &Group {
        workload: "gemm",
        n,
        round,
        elements: (n as f64).powi(3),
    };
    let (a, bm, bt) = (&a, &bm, &bt);
    let (av, bv, btv) = (&av[..], &bv[..], &btv[..]);
    let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
    let b = &mut b;
    spell!(
        b,
        g,
        "a: $ transpose $ b, p.0 * p.1",
        GemmProj,
        ctx,
        [n, n, n],
        (a, bm),
        (av, bv)
    );
    spell!(
        b,
        g,
        "b: o transpose, |(x, y)| x * y",
        GemmTuple,
        ctx,
        [n, n, n],
        (a, bm),
        (av, bv)
    );
    spell!(
        b,
        g,
        "c: user fns mult, add",
        GemmUserFn,
        ctx,
        [n, n, n],
        (a, bm),
        (av, bv)
    );
    spell!(
        b,
        g,
        "d: B given transposed, $ bt",
        GemmBt,
        ctx,
        [n, n, n],
        (a, bt),
        (av, btv)
    );
    spell!(
        b,
        g,
        "f: A given transposed, $ transpose $ a_t",
        GemmAt,
        ctx,
        [n, n, n],
        (at, bm),
        (&atv[..], bv)
    );
    let cv = random_vec(n * n, 7);
    let c = &ctx.upload(&cv)?;
    spelling(
        b,
        g,
        "e: BLAS alpha * A·B + beta * C (1, 0)",
        GemmBlas::new(ctx),
        |k| k.candidates(),
        |k| k.candidate_for(n, n, n),
        |k| k.tune(n, n, n, 1.0, 0.0, av, bv, &cv),
        |k, o| k.launch(n, n, n, 1.0, 0.0, a, bm, c, o),
    );
    g.clblast(b, "CLBlast Sgemm", blas, |bl, o| bl.gemm(ctx, n, a, bm, o));
    g.clblast(b, "CLBlast Sgemm, B given transposed", blas, |bl, o| {
        bl.gemm_nt(ctx, n, a, bt, o)
    });
    Ok(recs)
}

fn jacobi(ctx: &Context, cfg: &Config, n: usize, round: usize) -> Res<Vec<Record>> {
    eprintln!("spellings: jacobi (n = {n})");
    let mut recs = Vec::new();
    let xv = random_vec(n * n, 9);
    let at = |i: isize, j: isize| {
        let c = |v: isize| v.clamp(0, n as isize - 1) as usize;
        f64::from(xv[c(i) * n + c(j)])
    };
    let reference = Reference::full(par_map(n * n, |k| {
        let (i, j) = ((k / n) as isize, (k % n) as isize);
        0.2 * (at(i - 1, j) + at(i, j - 1) + at(i, j) + at(i, j + 1) + at(i + 1, j))
    }));
    let x = ctx.upload(&xv)?;
    let mut out = ctx.alloc::<f32>(n * n)?;
    let work = Work {
        name: name("jacobi", n),
        size: format!("{n}^2"),
        flops: 10.0 * (n * n) as f64,
        bytes: 8.0 * (n * n) as f64,
        tol: 1e-5,
    };
    let g = &Group {
        workload: "jacobi",
        n,
        round,
        elements: (n * n) as f64,
    };
    let (x, xv) = (&x, &xv[..]);
    let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
    let b = &mut b;
    spell!(
        b,
        g,
        "a: map2 o slide2(3, 1) o pad2(1, clamp)",
        JacobiMap2,
        ctx,
        [n, n],
        (x),
        (xv)
    );
    spell!(
        b,
        g,
        "b: 4-argument slide2/pad2, terms reordered",
        JacobiFull,
        ctx,
        [n, n],
        (x),
        (xv)
    );
    spell!(
        b,
        g,
        "c: nested 1-D map/slide/pad",
        JacobiNested,
        ctx,
        [n, n],
        (x),
        (xv)
    );
    Ok(recs)
}

fn jacobi3d(ctx: &Context, cfg: &Config, n: usize, round: usize) -> Res<Vec<Record>> {
    eprintln!("spellings: jacobi3d (n = {n})");
    let mut recs = Vec::new();
    let xv = random_vec(n * n * n, 10);
    let at = |i: isize, j: isize, k: isize| {
        let c = |v: isize| v.clamp(0, n as isize - 1) as usize;
        f64::from(xv[(c(i) * n + c(j)) * n + c(k)])
    };
    let reference = Reference::full(par_map(n * n * n, |p| {
        let (i, j, k) = (
            (p / (n * n)) as isize,
            (p / n % n) as isize,
            (p % n) as isize,
        );
        let s = at(i - 1, j, k)
            + at(i, j - 1, k)
            + at(i, j, k - 1)
            + at(i, j, k)
            + at(i, j, k + 1)
            + at(i, j + 1, k)
            + at(i + 1, j, k);
        f64::from(0.142857f32) * s
    }));
    let x = ctx.upload(&xv)?;
    let mut out = ctx.alloc::<f32>(n * n * n)?;
    let work = Work {
        name: name("jacobi3d", n),
        size: format!("{n}^3"),
        flops: 14.0 * (n * n * n) as f64,
        bytes: 8.0 * (n * n * n) as f64,
        tol: 1e-5,
    };
    let g = &Group {
        workload: "jacobi3d",
        n,
        round,
        elements: (n * n * n) as f64,
    };
    let (x, xv) = (&x, &xv[..]);
    let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
    let b = &mut b;
    spell!(
        b,
        g,
        "a: map3 o slide3(3, 1) o pad3(1, clamp)",
        Jacobi3Map3,
        ctx,
        [n, n, n],
        (x),
        (xv)
    );
    spell!(
        b,
        g,
        "b: nested 1-D map/slide/pad",
        Jacobi3Nested,
        ctx,
        [n, n, n],
        (x),
        (xv)
    );
    Ok(recs)
}

fn gemv(ctx: &Context, cfg: &Config, n: usize, round: usize, blas: Blas<'_>) -> Res<Vec<Record>> {
    eprintln!("spellings: gemv (n = {n})");
    let mut recs = Vec::new();
    let av = random_vec(n * n, 3);
    let xv = random_vec(n, 4);
    let atv = transposed(&av, n);
    let reference = Reference::full(par_map(n, |i| {
        (0..n)
            .map(|j| f64::from(av[i * n + j]) * f64::from(xv[j]))
            .sum::<f64>()
    }));
    let (a, at, x) = (ctx.upload(&av)?, ctx.upload(&atv)?, ctx.upload(&xv)?);
    let mut out = ctx.alloc::<f32>(n)?;
    let work = Work {
        name: name("gemv", n),
        size: format!("{n}x{n}"),
        flops: 2.0 * (n * n) as f64,
        bytes: 4.0 * (n * n + 2 * n) as f64,
        tol: 1e-5,
    };
    let g = &Group {
        workload: "gemv",
        n,
        round,
        elements: (n * n) as f64,
    };
    let (a, at, x) = (&a, &at, &x);
    let (av, atv, xv) = (&av[..], &atv[..], &xv[..]);
    let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
    let b = &mut b;
    spell!(
        b,
        g,
        "a: p.0 * p.1",
        GemvProj,
        ctx,
        [n, n],
        (a, x),
        (av, xv)
    );
    spell!(
        b,
        g,
        "b: |(u, v)| u * v, |s, t| s + t",
        GemvTuple,
        ctx,
        [n, n],
        (a, x),
        (av, xv)
    );
    spell!(
        b,
        g,
        "c: A given transposed, $ transpose $ at",
        GemvT,
        ctx,
        [n, n],
        (at, x),
        (atv, xv)
    );
    g.clblast(b, "CLBlast Sgemv", blas, |bl, o| {
        bl.gemv(ctx, n, n, a, x, o)
    });
    g.clblast(b, "CLBlast Sgemv, A given transposed", blas, |bl, o| {
        bl.gemv_t(ctx, n, n, at, x, o)
    });
    Ok(recs)
}

fn zip(ctx: &Context, cfg: &Config, n: usize, round: usize) -> Res<Vec<Record>> {
    eprintln!("spellings: zip (n = {n})");
    let mut recs = Vec::new();
    let (xv, yv) = (random_vec(n, 11), random_vec(n, 12));
    let reference = Reference::full(par_map(n, |i| f64::from(xv[i]) + 2.0 * f64::from(yv[i])));
    let (x, y) = (ctx.upload(&xv)?, ctx.upload(&yv)?);
    let mut out = ctx.alloc::<f32>(n)?;
    let work = Work {
        name: name("zip", n),
        size: format!("n = {n}"),
        flops: 2.0 * n as f64,
        bytes: 12.0 * n as f64,
        tol: 1e-5,
    };
    let g = &Group {
        workload: "zip",
        n,
        round,
        elements: n as f64,
    };
    let (x, y, xv, yv) = (&x, &y, &xv[..], &yv[..]);
    let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
    let b = &mut b;
    spell!(
        b,
        g,
        "a: zip(x, map(|v| v * 2.0) $ y)",
        ZipComputed,
        ctx,
        [n],
        (x, y),
        (xv, yv)
    );
    spell!(
        b,
        g,
        "b: fused, map(|p| p.0 + 2.0 * p.1)",
        ZipFused,
        ctx,
        [n],
        (x, y),
        (xv, yv)
    );
    spell!(
        b,
        g,
        "c: (a) with |(u, v)| u + v",
        ZipTuple,
        ctx,
        [n],
        (x, y),
        (xv, yv)
    );
    spell!(
        b,
        g,
        "d: two maps, tuple patterns",
        ZipTwoMaps,
        ctx,
        [n],
        (x, y),
        (xv, yv)
    );
    Ok(recs)
}

fn blur(ctx: &Context, cfg: &Config, n: usize, round: usize) -> Res<Vec<Record>> {
    eprintln!("spellings: blur (n = {n})");
    let mut recs = Vec::new();
    let xv = random_vec(n, 14);
    let at = |i: usize| f64::from(xv[i.min(n - 1)]);
    let reference = Reference::full(par_map(n, |i| at(i.max(1) - 1) + at(i) + at(i + 1)));
    let x = ctx.upload(&xv)?;
    let mut out = ctx.alloc::<f32>(n)?;
    let work = Work {
        name: name("blur", n),
        size: format!("n = {n}"),
        flops: 2.0 * n as f64,
        bytes: 8.0 * n as f64,
        tol: 1e-5,
    };
    let g = &Group {
        workload: "blur",
        n,
        round,
        elements: n as f64,
    };
    let (x, xv) = (&x, &xv[..]);
    let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
    let b = &mut b;
    let spellings = [
        "a: map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp)",
        "b: map(|w| w[0] + w[1] + w[2])",
        "c: lambdas, $ slide(3, 1) $ pad(1, 1, clamp) $ x",
    ];
    spell!(b, g, spellings[0], BlurReduce, ctx, [n], (x), (xv));
    spell!(b, g, spellings[1], BlurIndexed, ctx, [n], (x), (xv));
    spell!(b, g, spellings[2], BlurLambda, ctx, [n], (x), (xv));
    Ok(recs)
}

fn transpose(ctx: &Context, cfg: &Config, n: usize, round: usize) -> Res<Vec<Record>> {
    eprintln!("spellings: transpose (n = {n})");
    let mut recs = Vec::new();
    let xv = random_vec(n * n, 13);
    // Sampled entries of the transposed matrix (the whole one in f64 would take 512 MiB).
    let samples = 65536.min(n * n);
    let idx: Vec<usize> = (0..samples)
        .map(|s| (crate::common::rand_at(78, s as u64).abs() * (n * n) as f32) as usize)
        .map(|k| k.min(n * n - 1))
        .collect();
    let values = idx
        .iter()
        .map(|&k| f64::from(xv[(k % n) * n + k / n]))
        .collect();
    let reference = Reference {
        values,
        idx: Some(idx),
    };
    let x = ctx.upload(&xv)?;
    let mut out = ctx.alloc::<f32>(n * n)?;
    let work = Work {
        name: name("transpose", n),
        size: format!("{n}^2"),
        flops: 0.0,
        bytes: 8.0 * (n * n) as f64,
        tol: 0.0,
    };
    let g = &Group {
        workload: "transpose",
        n,
        round,
        elements: (n * n) as f64,
    };
    let (x, xv) = (&x, &xv[..]);
    let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
    let b = &mut b;
    spell!(
        b,
        g,
        "a: map(map(id)) o transpose",
        TransposeMaps,
        ctx,
        [n, n],
        (x),
        (xv)
    );
    spell!(
        b,
        g,
        "b: lambdas, $ transpose $ x",
        TransposeLambdas,
        ctx,
        [n, n],
        (x),
        (xv)
    );
    spell!(
        b,
        g,
        "c: transpose_w o map(map(id))",
        TransposeOnWrite,
        ctx,
        [n, n],
        (x),
        (xv)
    );
    spell!(
        b,
        g,
        "d: transpose $ x",
        TransposeBare,
        ctx,
        [n, n],
        (x),
        (xv)
    );
    Ok(recs)
}

/// One row of the spellings table: a record and what is derived from the others.
pub struct Row<'a> {
    /// The record.
    pub rec: &'a Record,
    /// Its spelling information.
    pub sp: &'a SpellingInfo,
    /// The best lift-rs time of the same workload, size and mode over this time (1 = this
    /// is the best spelling; lift-rs rows only).
    pub vs_best: Option<f64>,
    /// Time per element over the time per element of the same spelling and mode at the
    /// round size (1 = scales perfectly; above 1 = slower per element).
    pub per_element_vs_round: Option<f64>,
    /// The best CLBlast time at the same workload and size over this time.
    pub vs_clblast: Option<f64>,
    /// The best PyTorch time at the same workload and size over this time.
    pub vs_pytorch: Option<f64>,
}

impl Row<'_> {
    /// The median time if the record is correct and timed.
    pub fn ms(&self) -> Option<f64> {
        ms(self.rec)
    }
}

fn ms(r: &Record) -> Option<f64> {
    r.stats
        .as_ref()
        .filter(|_| r.status == "ok")
        .map(|s| s.median_ms)
}

/// The rows of the spellings part of `suite`, in record order.
pub fn rows(suite: &Suite) -> Vec<Row<'_>> {
    let tagged: Vec<(&Record, &SpellingInfo)> = suite
        .records
        .iter()
        .filter_map(|r| Some((r, r.spelling.as_ref()?)))
        .collect();
    let best = |pick: &dyn Fn(&Record, &SpellingInfo) -> bool| {
        tagged
            .iter()
            .filter(|(r, s)| pick(r, s))
            .filter_map(|(r, _)| ms(r))
            .min_by(f64::total_cmp)
    };
    tagged
        .iter()
        .map(|&(rec, sp)| {
            let t = ms(rec);
            let same = |s: &SpellingInfo| s.workload == sp.workload && s.n == sp.n;
            let ratio = |b: Option<f64>| Some(b? / t?);
            let vs_best = (sp.mode != "reference")
                .then(|| {
                    ratio(best(&|r, s| {
                        same(s) && s.mode == sp.mode && r.class == "lift"
                    }))
                })
                .flatten();
            let at_round = best(&|_, s| {
                s.workload == sp.workload
                    && s.n == sp.round
                    && s.spelling == sp.spelling
                    && s.mode == sp.mode
            });
            let round_elements = tagged
                .iter()
                .find(|(_, s)| s.workload == sp.workload && s.n == sp.round)
                .map_or(0.0, |(_, s)| s.elements);
            let per_element_vs_round = match (t, at_round) {
                (Some(t), Some(r)) if sp.elements > 0.0 && round_elements > 0.0 => {
                    Some((t / sp.elements) / (r / round_elements))
                }
                _ => None,
            };
            let class_best = |c: &str| ratio(best(&|r, s| same(s) && r.class == c));
            Row {
                rec,
                sp,
                vs_best,
                per_element_vs_round,
                vs_clblast: class_best("clblast"),
                vs_pytorch: class_best("pytorch"),
            }
        })
        .collect()
}

/// `s` for a Markdown table cell (`|` escaped).
fn md(s: &str) -> String {
    s.replace('|', "\\|")
}

fn x(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.2}x"))
}

fn params_text(p: &[(String, i64)]) -> String {
    p.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The spellings table (Markdown); empty when `suite` has no spellings records.
pub fn table(suite: &Suite) -> String {
    let rows = rows(suite);
    if rows.is_empty() {
        return String::new();
    }
    let r = &suite.roofline;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "Spellings and sizes on **{}** ({}, {} mode). Measured roofline: copy {:.0} GB/s, read {:.0} GB/s, fp32 FMA {:.0} GFLOP/s.\n",
        suite.device, suite.date, suite.mode, r.copy_gbs, r.read_gbs, r.fma_gflops
    );
    t.push_str("| workload | size | spelling | mode | candidate | median ms | GFLOP/s | GB/s | of roofline | vs best spelling | time/elem vs round | vs CLBlast | vs PyTorch | status |\n");
    t.push_str("|---|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
    for row in &rows {
        let (rec, sp) = (row.rec, row.sp);
        let timed = row.ms().is_some();
        let _ = writeln!(
            t,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            sp.workload,
            size_text(&rec.workload).unwrap_or_default(),
            md(&sp.spelling),
            sp.mode,
            if sp.candidate.is_empty() {
                "-".into()
            } else {
                md(&sp.candidate)
            },
            row.ms().map_or("-".into(), |v| format!("{v:.4}")),
            rec.gflops()
                .filter(|_| timed)
                .map_or("-".into(), |v| format!("{v:.0}")),
            rec.gbs()
                .filter(|_| timed)
                .map_or("-".into(), |v| format!("{v:.0}")),
            rec.fraction(r)
                .filter(|_| timed)
                .map_or("-".into(), |v| format!("{:.1}%", 100.0 * v)),
            x(row.vs_best),
            x(row.per_element_vs_round),
            x(row.vs_clblast),
            x(row.vs_pytorch),
            md(&rec.status),
        );
    }
    t.push_str(
        "\n*vs best spelling*: the fastest lift-rs spelling of the same workload, size and mode over this time (1.00x = the best). \
*time/elem vs round*: time per element over that of the same spelling and mode at the round size (elements: GEMM n^3 multiply-adds, GEMV and Jacobi n^2, blur and zip n; 1.00x = scales perfectly, above = slower per element). \
*vs CLBlast / PyTorch*: the reference's best time at the same size over this time (above 1 = faster than the reference). \
*untuned*: plain `launch` with an empty tuning cache (the default choice); *tuned*: `tune`, then `launch` (the cached choice).\n",
    );
    t
}

/// Writes `spellings.md`, `spellings.csv` and `spellings.json` into `dir`; `false` (and
/// nothing written) when `suite` has no spellings records.
pub fn write(suite: &Suite, dir: &Path) -> Res<bool> {
    let rows = rows(suite);
    if rows.is_empty() {
        return Ok(false);
    }
    std::fs::write(dir.join("spellings.md"), table(suite))?;
    let r = &suite.roofline;
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.6}"));
    let q = |s: &str| format!("\"{}\"", s.replace('"', "'"));
    let mut csv = String::from("device,workload,n,size,spelling,mode,implementation,class,candidate,params,median_ms,p10_ms,p90_ms,runs,gflops,gbs,roofline_fraction,vs_best_spelling,time_per_element_vs_round,vs_clblast,vs_pytorch,tuner_ms,tuner_tried,tuner_valid,rel_err,status\n");
    let mut json_rows = Vec::new();
    for row in &rows {
        let (rec, sp) = (row.rec, row.sp);
        let s = rec.stats.as_ref().filter(|_| row.ms().is_some());
        let ok = |v: Option<f64>| v.filter(|_| s.is_some());
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            q(&suite.device),
            sp.workload,
            sp.n,
            q(&size_text(&rec.workload).unwrap_or_default()),
            q(&sp.spelling),
            sp.mode,
            q(&rec.implementation),
            rec.class,
            q(&sp.candidate),
            q(&params_text(&sp.params)),
            opt(s.map(|s| s.median_ms)),
            opt(s.map(|s| s.p10_ms)),
            opt(s.map(|s| s.p90_ms)),
            s.map_or(0, |s| s.runs),
            opt(ok(rec.gflops())),
            opt(ok(rec.gbs())),
            opt(ok(rec.fraction(r))),
            opt(row.vs_best),
            opt(row.per_element_vs_round),
            opt(row.vs_clblast),
            opt(row.vs_pytorch),
            opt(sp.tuner.map(|t| t.0)),
            sp.tuner.map_or(String::new(), |t| t.1.to_string()),
            sp.tuner.map_or(String::new(), |t| t.2.to_string()),
            rec.rel_err.map_or(String::new(), |v| format!("{v:.3e}")),
            q(&rec.status),
        );
        json_rows.push(json!({
            "workload": sp.workload, "n": sp.n, "size": size_text(&rec.workload),
            "spelling": sp.spelling, "mode": sp.mode, "implementation": rec.implementation,
            "class": rec.class, "candidate": sp.candidate,
            "params": sp.params.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
            "median_ms": s.map(|s| s.median_ms), "p10_ms": s.map(|s| s.p10_ms),
            "p90_ms": s.map(|s| s.p90_ms), "runs": s.map(|s| s.runs),
            "gflops": ok(rec.gflops()), "gbs": ok(rec.gbs()),
            "roofline_fraction": ok(rec.fraction(r)),
            "vs_best_spelling": row.vs_best,
            "time_per_element_vs_round": row.per_element_vs_round,
            "vs_clblast": row.vs_clblast, "vs_pytorch": row.vs_pytorch,
            "tuner_ms": sp.tuner.map(|t| t.0), "tuner_tried": sp.tuner.map(|t| t.1),
            "tuner_valid": sp.tuner.map(|t| t.2),
            "rel_err": rec.rel_err, "status": rec.status, "timing": rec.timing,
        }));
    }
    std::fs::write(dir.join("spellings.csv"), csv)?;
    let doc: Value = json!({
        "device": suite.device, "date": suite.date, "mode": suite.mode,
        "roofline": {"copy_gbs": r.copy_gbs, "read_gbs": r.read_gbs, "fma_gflops": r.fma_gflops},
        "rows": json_rows,
    });
    std::fs::write(
        dir.join("spellings.json"),
        serde_json::to_string_pretty(&doc)? + "\n",
    )?;
    Ok(true)
}
