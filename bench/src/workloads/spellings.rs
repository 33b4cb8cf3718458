//! Spellings and sizes (issue 9): every workload in several spellings a user would write, at
//! round and non-round sizes, untuned (the default choice for the device, with an empty
//! tuning cache) and tuned (`Name::tune`, then the cached choice), against CLBlast where it
//! has the routine (PyTorch rows come from `scripts/torch_ref.py --spellings`).
//!
//! Workload names carry the size (`gemm-4000`), so each size is its own group in the table;
//! [`summary`] compares spellings with the best spelling of the same workload and size, and
//! each size's time per element with the round size's.

use super::{Bench, Blas};
use crate::common::{par_map, random_vec, Config, Record, Reference, Work};
use crate::spelling_kernels::*;
use crate::timing::Res;
use lift_runtime::{Buffer, Context, Error, Event, Tuned};
use std::fmt::Write;

/// The sizes measured: GEMM sides, stencil sides, GEMV sides, zip lengths (round first).
struct Sizes {
    gemm: [usize; 3],
    stencil: [usize; 3],
    gemv: [usize; 2],
    zip: [usize; 2],
}

impl Sizes {
    fn new(quick: bool) -> Sizes {
        if quick {
            Sizes {
                gemm: [128, 100, 132],
                stencil: [256, 254, 255],
                gemv: [256, 255],
                zip: [1 << 16, (1 << 16) - 1],
            }
        } else {
            Sizes {
                gemm: [4096, 4000, 4032],
                stencil: [8192, 8190, 8191],
                gemv: [8192, 8191],
                zip: [1 << 24, (1 << 24) - 1],
            }
        }
    }
}

/// The size text of a spelling workload (`gemm-4000` → `4000^3`).
pub fn size_text(workload: &str) -> Option<String> {
    let (w, n) = workload.rsplit_once('-')?;
    let n: usize = n.parse().ok()?;
    Some(match w {
        "gemm" | "gemm_nt" => format!("{n}^3"),
        "gemv" | "gemv_t" => format!("{n}x{n}"),
        "jacobi" => format!("{n}^2"),
        _ => format!("n = {n}"),
    })
}

/// Runs every spelling at every size.
pub fn run(ctx: &Context, cfg: &Config, blas: Blas<'_>) -> Res<Vec<Record>> {
    // Untuned means an empty cache: tune into a fresh one under the output directory.
    let cache = cfg.out.join("tune-cache");
    let _ = std::fs::remove_dir_all(&cache);
    std::fs::create_dir_all(&cache)?;
    std::env::set_var("LIFT_CACHE_DIR", &cache);
    lift_runtime::cache::reload();
    let s = Sizes::new(cfg.quick);
    let mut recs = Vec::new();
    for n in s.gemm {
        recs.extend(gemm(ctx, cfg, n, blas)?);
    }
    for n in s.stencil {
        recs.extend(jacobi(ctx, cfg, n)?);
    }
    for n in s.gemv {
        recs.extend(gemv(ctx, cfg, n)?);
    }
    for n in s.zip {
        recs.extend(zip(ctx, cfg, n)?);
    }
    Ok(recs)
}

/// A workload name that lives as long as the records (a few per run).
fn name(w: &str, n: usize) -> &'static str {
    Box::leak(format!("{w}-{n}").into_boxed_str())
}

/// One spelling, untuned then tuned: `choose` is the candidate `launch` would run, `tune`
/// tunes, `launch` runs a given candidate.
#[allow(clippy::too_many_arguments)]
fn spelling<K>(
    b: &mut Bench<'_>,
    label: &str,
    names: &[&str],
    sources: &[&str],
    kernel: Result<K, Error>,
    choose: impl Fn(&K) -> Result<usize, Error>,
    tune: impl Fn(&K) -> Result<Tuned, Error>,
    launch: impl Fn(&K, usize, &Buffer<f32>) -> Result<Event, Error>,
) {
    let k = match kernel {
        Ok(k) => k,
        Err(e) => return b.error(label, "lift", e),
    };
    let untuned = match choose(&k) {
        Ok(c) => c,
        Err(e) => return b.error(label, "lift", e),
    };
    let imp = format!("lift-rs {label}, untuned: {}", names[untuned]);
    b.lift(
        &imp,
        "lift",
        sources[untuned],
        Ok::<_, Error>(&k),
        |k, o| Ok(launch(k, untuned, o)?),
    );
    match tune(&k).and_then(|t| Ok((t, choose(&k)?))) {
        Ok((t, c)) => {
            eprintln!("  {label}: tuned {t}");
            let imp = format!("lift-rs {label}, tuned: {}", names[c]);
            b.lift(&imp, "lift", sources[c], Ok::<_, Error>(&k), |k, o| {
                Ok(launch(k, c, o)?)
            });
        }
        Err(e) => b.error(&format!("lift-rs {label}, tuned"), "lift", e),
    }
}

/// Sampled entries of `C = A · B` (or `A · Btᵀ`), `idx` in row-major `C`.
fn gemm_reference(av: &[f32], bv: &[f32], n: usize, transposed: bool) -> Reference {
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
            .map(|k| {
                let bkj = if transposed {
                    bv[j * n + k]
                } else {
                    bv[k * n + j]
                };
                f64::from(av[i * n + k]) * f64::from(bkj)
            })
            .sum::<f64>()
    });
    Reference {
        values,
        idx: Some(idx),
    }
}

macro_rules! spell {
    ($b:expr, $label:expr, $k:ident, $ctx:expr, [$($s:expr),*], ($($dev:expr),*), ($($host:expr),*)) => {
        spelling(
            $b,
            $label,
            $k::CANDIDATES,
            $k::CANDIDATE_SOURCES,
            $k::new($ctx),
            |k| k.candidate_for($($s),*),
            |k| k.tune($($s,)* $($host),*),
            |k, c, o| k.launch_candidate(c, $($s,)* $($dev,)* o),
        )
    };
}

fn gemm(ctx: &Context, cfg: &Config, n: usize, blas: Blas<'_>) -> Res<Vec<Record>> {
    eprintln!("spellings: gemm (n = {n})");
    let mut recs = Vec::new();
    let av = random_vec(n * n, 5);
    let bv = random_vec(n * n, 6);
    let (a, bm) = (ctx.upload(&av)?, ctx.upload(&bv)?);
    let mut out = ctx.alloc::<f32>(n * n)?;
    let flops = 2.0 * (n as f64).powi(3);
    let bytes = 12.0 * (n * n) as f64;
    let work = Work {
        name: name("gemm", n),
        size: format!("{n}^3"),
        flops,
        bytes,
        tol: 1e-5,
    };
    let reference = gemm_reference(&av, &bv, n, false);
    {
        let (a, bm) = (&a, &bm);
        let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
        spell!(
            &mut b,
            "a: p.0 * p.1",
            GemmProj,
            ctx,
            [n, n, n],
            (a, bm),
            (&av, &bv)
        );
        spell!(
            &mut b,
            "b: |(x, y)|",
            GemmTuple,
            ctx,
            [n, n, n],
            (a, bm),
            (&av, &bv)
        );
        spell!(
            &mut b,
            "c: user fns",
            GemmUserFn,
            ctx,
            [n, n, n],
            (a, bm),
            (&av, &bv)
        );
        b.clblast("CLBlast Sgemm", blas, |bl, o| bl.gemm(ctx, n, a, bm, o));
    }
    // B given transposed: the same data read as Bᵀ.
    let work = Work {
        name: name("gemm_nt", n),
        size: format!("{n}^3"),
        flops,
        bytes,
        tol: 1e-5,
    };
    let reference = gemm_reference(&av, &bv, n, true);
    let (a, bm) = (&a, &bm);
    let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
    spell!(&mut b, "A·Bᵀ", GemmNt, ctx, [n, n, n], (a, bm), (&av, &bv));
    Ok(recs)
}

fn jacobi(ctx: &Context, cfg: &Config, n: usize) -> Res<Vec<Record>> {
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
        flops: 5.0 * (n * n) as f64,
        bytes: 8.0 * (n * n) as f64,
        tol: 1e-5,
    };
    let x = &x;
    let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
    spell!(
        &mut b,
        "a: map2 o slide2 o pad2",
        JacobiMap2,
        ctx,
        [n, n],
        (x),
        (&xv)
    );
    spell!(
        &mut b,
        "b: full forms, reordered",
        JacobiFull,
        ctx,
        [n, n],
        (x),
        (&xv)
    );
    spell!(
        &mut b,
        "c: nested 1-D",
        JacobiNested,
        ctx,
        [n, n],
        (x),
        (&xv)
    );
    Ok(recs)
}

fn gemv(ctx: &Context, cfg: &Config, n: usize) -> Res<Vec<Record>> {
    eprintln!("spellings: gemv (n = {n})");
    let mut recs = Vec::new();
    let av = random_vec(n * n, 3);
    let xv = random_vec(n, 4);
    let flops = 2.0 * (n * n) as f64;
    let bytes = 4.0 * (n * n + 2 * n) as f64;
    let (a, x) = (ctx.upload(&av)?, ctx.upload(&xv)?);
    let mut out = ctx.alloc::<f32>(n)?;
    for transposed in [false, true] {
        let reference = Reference::full(par_map(n, |i| {
            (0..n)
                .map(|j| {
                    let aij = if transposed {
                        av[j * n + i]
                    } else {
                        av[i * n + j]
                    };
                    f64::from(aij) * f64::from(xv[j])
                })
                .sum::<f64>()
        }));
        let work = Work {
            name: name(if transposed { "gemv_t" } else { "gemv" }, n),
            size: format!("{n}x{n}"),
            flops,
            bytes,
            tol: 1e-5,
        };
        let (a, x) = (&a, &x);
        let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
        if transposed {
            spell!(&mut b, "Aᵀ given", GemvT, ctx, [n, n], (a, x), (&av, &xv));
        } else {
            spell!(
                &mut b,
                "a: p.0 * p.1",
                GemvProj,
                ctx,
                [n, n],
                (a, x),
                (&av, &xv)
            );
            spell!(
                &mut b,
                "b: |(u, v)|, |s, t| s + t",
                GemvTuple,
                ctx,
                [n, n],
                (a, x),
                (&av, &xv)
            );
        }
    }
    Ok(recs)
}

fn zip(ctx: &Context, cfg: &Config, n: usize) -> Res<Vec<Record>> {
    eprintln!("spellings: zip (n = {n})");
    let mut recs = Vec::new();
    let (xv, yv) = (random_vec(n, 11), random_vec(n, 12));
    let reference = Reference::full(
        (0..n)
            .map(|i| f64::from(xv[i]) + 2.0 * f64::from(yv[i]))
            .collect(),
    );
    let (x, y) = (ctx.upload(&xv)?, ctx.upload(&yv)?);
    let mut out = ctx.alloc::<f32>(n)?;
    let work = Work {
        name: name("zip", n),
        size: format!("n = {n}"),
        flops: 2.0 * n as f64,
        bytes: 12.0 * n as f64,
        tol: 1e-6,
    };
    let (x, y) = (&x, &y);
    let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
    spell!(
        &mut b,
        "a: zip(x, map(g) $ y)",
        ZipComputed,
        ctx,
        [n],
        (x, y),
        (&xv, &yv)
    );
    spell!(&mut b, "b: one map", ZipFused, ctx, [n], (x, y), (&xv, &yv));
    spell!(
        &mut b,
        "c: two maps, tuple patterns",
        ZipTwoMaps,
        ctx,
        [n],
        (x, y),
        (&xv, &yv)
    );
    Ok(recs)
}

/// The comparison the issue asks for, as Markdown: per workload and size, each tuned and
/// untuned spelling against the best tuned spelling, and the best time per element against
/// the round size's.
pub fn summary(records: &[Record]) -> String {
    let time = |r: &Record| {
        r.stats
            .as_ref()
            .filter(|_| r.status == "ok")
            .map(|s| s.median_ms)
    };
    let mut groups: Vec<&str> = Vec::new();
    for r in records {
        if size_text(&r.workload).is_some() && !groups.contains(&r.workload.as_str()) {
            groups.push(&r.workload);
        }
    }
    let best_of = |w: &str| {
        records
            .iter()
            .filter(|r| r.workload == w && r.class == "lift" && r.implementation.contains("tuned:"))
            .filter_map(time)
            .min_by(f64::total_cmp)
    };
    let elems = |w: &str| {
        let (kind, n) = w.rsplit_once('-').unwrap_or((w, "1"));
        let n: f64 = n.parse().unwrap_or(1.0);
        match kind {
            "gemm" | "gemm_nt" => n * n * n,
            "gemv" | "gemv_t" | "jacobi" => n * n,
            _ => n,
        }
    };
    let mut t = String::from(
        "| workload | spelling | median ms | vs best spelling | best: ns per element vs round size |\n|---|---|--:|--:|--:|\n",
    );
    for w in &groups {
        let Some(best) = best_of(w) else { continue };
        let kind = w.rsplit_once('-').map_or(*w, |(k, _)| k);
        let round = groups
            .iter()
            .find(|g| g.rsplit_once('-').is_some_and(|(k, _)| k == kind))
            .and_then(|g| best_of(g).map(|b| b / elems(g)));
        let per_el = round.map_or("-".into(), |r| format!("{:.3}x", (best / elems(w)) / r));
        for r in records.iter().filter(|r| r.workload == *w) {
            let Some(ms) = time(r) else { continue };
            let _ = writeln!(
                t,
                "| {w} | {} | {ms:.4} | {:.2}x | {per_el} |",
                r.implementation,
                best / ms
            );
        }
    }
    t
}
