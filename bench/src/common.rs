//! Configuration, records, inputs, CPU-reference helpers and the per-implementation driver.

use crate::timing::{measure, Done, Gate, Res, Stats};
use lift_runtime::{Buffer, Context};
use std::path::PathBuf;

/// What to run and how.
#[derive(Clone, Debug)]
pub struct Config {
    /// Tiny sizes (POCL-friendly, seconds).
    pub quick: bool,
    /// Run only this workload (by name).
    pub only: Option<String>,
    /// The spellings part: only these workloads (`gemm`, `jacobi`, `jacobi3d`, `gemv`, `zip`).
    pub spelling_workloads: Option<Vec<String>>,
    /// The spellings part: only these sizes (the first of each workload's list, the round
    /// one, still sets the per-element reference).
    pub spelling_sizes: Option<Vec<usize>>,
    /// The VGG part: only these layers (indices into `vgg::LAYERS`).
    pub vgg_layers: Option<Vec<usize>>,
    /// The VGG part: also time every candidate that applies, with its temporaries' memory.
    pub vgg_pareto: bool,
    /// The VGG part: also the convolution annotated with `kernel_fission` (at the windows,
    /// and before them), tuned.
    pub vgg_spellings: bool,
    /// The VGG part: also the convolution tuned within a bound on temporaries of the layer's
    /// im2col matrix.
    pub vgg_below_im2col: bool,
    /// Output directory.
    pub out: PathBuf,
    /// Path of `libclblast.so.1` (else the loader's search path).
    pub clblast: Option<PathBuf>,
    /// PyTorch results (JSON from `bench/scripts/torch_ref.py`) to merge.
    pub torch: Option<PathBuf>,
    /// Timed runs per implementation (at least; see [`measure`]).
    pub runs: usize,
    /// Warm-up runs per implementation.
    pub warmup: usize,
    /// Wall-clock budget for the timed runs of one implementation, in seconds.
    pub budget_s: f64,
    /// Time implementations whose check failed as well (the main suite); `false` reports
    /// them as wrong without a time (the spellings part).
    pub time_wrong: bool,
}

impl Config {
    /// Defaults for full or quick mode.
    pub fn new(quick: bool) -> Config {
        Config {
            quick,
            only: None,
            spelling_workloads: None,
            spelling_sizes: None,
            vgg_layers: None,
            vgg_pareto: false,
            vgg_spellings: false,
            vgg_below_im2col: false,
            out: PathBuf::from("bench-out"),
            clblast: None,
            torch: None,
            runs: if quick { 5 } else { 20 },
            warmup: if quick { 1 } else { 3 },
            budget_s: if quick { 2.0 } else { 6.0 },
            time_wrong: true,
        }
    }

    /// Whether workload `name` is selected.
    pub fn selected(&self, name: &str) -> bool {
        self.only.as_deref().is_none_or(|o| o == name)
    }
}

/// Problem sizes.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    /// Length of the sum/asum/dot vectors.
    pub vec: usize,
    /// GEMV rows = columns.
    pub gemv: usize,
    /// GEMM M = N = K.
    pub gemm: usize,
    /// 2-D stencil side.
    pub s2d: usize,
    /// 3-D stencil side.
    pub s3d: usize,
    /// Quick (POCL) sizes.
    pub quick: bool,
}

impl Sizes {
    /// Full (the sizes) or quick (POCL) sizes.
    pub fn new(quick: bool) -> Sizes {
        if quick {
            Sizes {
                vec: 1 << 18,
                gemv: 256,
                gemm: 128,
                s2d: 256,
                s3d: 32,
                quick,
            }
        } else {
            Sizes {
                vec: 1 << 28,
                gemv: 8192,
                gemm: 4096,
                s2d: 8192,
                s3d: 512,
                quick,
            }
        }
    }
}

/// One measured (or failed, or unavailable) implementation of a workload.
#[derive(Clone, Debug)]
pub struct Record {
    /// The workload's name.
    pub workload: String,
    /// The implementation's name.
    pub implementation: String,
    /// `lift`, `lift-low`, `opencl`, `clblast` or `pytorch`.
    pub class: String,
    /// The timings (`None` when it did not run).
    pub stats: Option<Stats>,
    /// Relative L2 error against the CPU reference (`None` when not checked).
    pub rel_err: Option<f64>,
    /// `ok`, `WRONG (...)`, `not available (...)` or `error: ...`.
    pub status: String,
    /// Floating-point operations of one run.
    pub flops: f64,
    /// Fewest bytes one run must move (inputs read once, output written once).
    pub bytes: f64,
    /// How the time was taken.
    pub timing: String,
    /// What a record of the "spellings and sizes" part stands for (`None` elsewhere).
    pub spelling: Option<SpellingInfo>,
}

/// What a record of the "spellings and sizes" part (`workloads::spellings`) measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpellingInfo {
    /// The workload without its size (`gemm`).
    pub workload: String,
    /// The spelling (lift-rs rows) or the reference implementation's name.
    pub spelling: String,
    /// The size (`n` of `n^3`, `n^2`, `n x n`, or the vector length).
    pub n: usize,
    /// The round size of the workload, whose time per element the others are compared with.
    pub round: usize,
    /// Elements of one run: GEMM n^3 multiply-adds, GEMV and Jacobi n^2, zip n.
    pub elements: f64,
    /// `untuned` (the default choice, empty tuning cache), `tuned` (after `tune`) or
    /// `reference`.
    pub mode: String,
    /// The candidate that ran (lift-rs rows; empty for references).
    pub candidate: String,
    /// Its tuning parameters.
    pub params: Vec<(String, i64)>,
    /// The tuner's report on tuned rows: its own time of the choice (ms), candidates tried,
    /// candidates valid.
    pub tuner: Option<(f64, usize, usize)>,
}

/// A workload's name, size text, operation count, minimal traffic and check tolerance.
#[derive(Clone, Debug)]
pub struct Work {
    /// The workload's name.
    pub name: &'static str,
    /// Its size, as text.
    pub size: String,
    /// Floating-point operations of one run.
    pub flops: f64,
    /// Fewest bytes one run must move.
    pub bytes: f64,
    /// The largest relative error accepted as correct.
    pub tol: f64,
}

impl Work {
    /// A record that carries no measurement.
    pub fn unmeasured(&self, imp: &str, class: &str, status: String) -> Record {
        Record {
            workload: self.name.into(),
            implementation: imp.into(),
            class: class.into(),
            stats: None,
            rel_err: None,
            status,
            flops: self.flops,
            bytes: self.bytes,
            timing: String::new(),
            spelling: None,
        }
    }
}

/// A deterministic pseudo-random value in [-1, 1) for index `i` of stream `seed` (splitmix64).
pub fn rand_at(seed: u64, i: u64) -> f32 {
    let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i.wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    ((z >> 40) as f32) / ((1u64 << 23) as f32) - 1.0
}

/// `len` values `f(i)` computed on all host cores.
pub fn par_map<T: Send + Copy + Default>(len: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let mut out = vec![T::default(); len];
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get());
    let chunk = len.div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (c, part) in out.chunks_mut(chunk).enumerate() {
            let f = &f;
            s.spawn(move || {
                for (j, v) in part.iter_mut().enumerate() {
                    *v = f(c * chunk + j);
                }
            });
        }
    });
    out
}

/// A random input vector of `len` values from stream `seed`.
pub fn random_vec(len: usize, seed: u64) -> Vec<f32> {
    par_map(len, |i| rand_at(seed, i as u64))
}

/// Sum of `f(i)` over `0..len` in f64, on all host cores.
pub fn par_sum(len: usize, f: impl Fn(usize) -> f64 + Sync) -> f64 {
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get());
    let chunk = len.div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                let f = &f;
                s.spawn(move || (t * chunk..((t + 1) * chunk).min(len)).map(f).sum::<f64>())
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap_or(f64::NAN)).sum()
    })
}

/// The CPU reference of a workload: values at `idx` (all outputs when `idx` is `None`).
pub struct Reference {
    /// The reference values.
    pub values: Vec<f64>,
    /// The output indices they belong to (`None`: every output, in order).
    pub idx: Option<Vec<usize>>,
}

impl Reference {
    /// Every output element.
    pub fn full(values: Vec<f64>) -> Reference {
        Reference { values, idx: None }
    }

    /// ‖got − ref‖₂ / ‖ref‖₂ over the checked elements; NaN (e.g. an unwritten poisoned
    /// element) propagates.
    pub fn rel_err(&self, got: &[f32]) -> f64 {
        let pick = |k: usize| -> f64 {
            let i = self.idx.as_ref().map_or(k, |ix| ix[k]);
            got.get(i).map_or(f64::NAN, |&v| f64::from(v))
        };
        if self.idx.is_none() && got.len() != self.values.len() {
            return f64::NAN;
        }
        let (mut num, mut den) = (0.0f64, 0.0f64);
        for (k, r) in self.values.iter().enumerate() {
            let d = pick(k) - r;
            num += d * d;
            den += r * r;
        }
        if den == 0.0 {
            num.sqrt()
        } else {
            (num / den).sqrt()
        }
    }
}

/// Overwrites `buf` with `value`.
pub fn poison(buf: &mut Buffer<f32>, value: f32) -> Res<()> {
    let n = buf.len();
    buf.write_from(&vec![value; n])?;
    Ok(())
}

/// One implementation to check and time.
pub struct Imp<'a> {
    /// The implementation's name.
    pub name: &'a str,
    /// Its class (`lift`, `lift-low`, `opencl`, `clblast` or `pytorch`).
    pub class: &'a str,
    /// How its runs are gated for timing.
    pub gate: Gate,
    /// How the time is taken, as recorded in [`Record::timing`].
    pub timing: &'a str,
}

impl<'a> Imp<'a> {
    /// An implementation `name` of `class`, gated by `gate`, its timing described by `timing`.
    pub fn new(name: &'a str, class: &'a str, gate: Gate, timing: &'a str) -> Imp<'a> {
        Imp {
            name,
            class,
            gate,
            timing,
        }
    }
}

/// The usual poison: NaN.
pub const NAN_POISON: f32 = f32::NAN;
/// The poison for BLAS calls with `beta = 0`, which CLBlast still multiplies into the output
/// (`0 * NaN = NaN`): huge but finite, so that an unwritten element still fails the check.
pub const BETA_POISON: f32 = 3.0e38;

/// Poisons `out`, runs once, checks against `reference`, then times (if the check ran).
pub fn bench_one(
    ctx: &Context,
    cfg: &Config,
    work: &Work,
    imp: Imp<'_>,
    out: &mut Buffer<f32>,
    reference: &Reference,
    run: &mut dyn FnMut(&Buffer<f32>) -> Res<Done>,
) -> Record {
    let mut rec = work.unmeasured(imp.name, imp.class, String::new());
    rec.timing = imp.timing.into();
    let checked = (|| -> Res<f64> {
        poison(
            out,
            if imp.class == "clblast" {
                BETA_POISON
            } else {
                NAN_POISON
            },
        )?;
        let _ = crate::timing::time_once(ctx, imp.gate, &mut || run(out))?;
        ctx.finish()?;
        Ok(reference.rel_err(&out.download()?))
    })();
    let err = match checked {
        Ok(e) => e,
        Err(e) => {
            rec.status = format!("error: {e}");
            return rec;
        }
    };
    rec.rel_err = Some(err);
    rec.status = if err <= work.tol {
        "ok".into()
    } else {
        format!("WRONG (rel err {err:.2e} > {:.0e})", work.tol)
    };
    if rec.status != "ok" && !cfg.time_wrong {
        eprintln!("  {:<10} {:<34} {}", work.name, imp.name, rec.status);
        return rec;
    }
    let out = &*out;
    match measure(
        ctx,
        imp.gate,
        cfg.warmup,
        cfg.runs,
        cfg.budget_s,
        &mut || run(out),
    ) {
        Ok(s) => rec.stats = Some(s),
        Err(e) => rec.status = format!("error while timing: {e}"),
    }
    eprintln!(
        "  {:<10} {:<34} {}",
        work.name,
        imp.name,
        rec.stats.as_ref().map_or(rec.status.clone(), |s| format!(
            "{:.4} ms (rel err {err:.1e}) {}",
            s.median_ms, rec.status
        ))
    );
    rec
}
