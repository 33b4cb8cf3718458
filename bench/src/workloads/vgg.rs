//! VGG-16's convolution layers (issue 12): the nine distinct 3x3 layers (stride 1, zero
//! padding 1), batch 1, f32. lift-rs runs its one `Conv` kernel (bias and ReLU fused, HWC
//! input, `[F][3][3][C]` weights) untuned and tuned, and with `--fission` the same program
//! annotated with `kernel_fission` in two places (tuned), and with `--below-im2col` tuned on a
//! context that bounds its temporaries by the layer's im2col matrix; CLBlast runs `convgemm` (the same
//! convolution without bias and ReLU, NCHW, in its single-kernel form). Each is checked
//! against a CPU reference on a sample of the outputs. PyTorch's `conv2d` (cuDNN) comes from
//! `torch_ref.py --vgg` and is merged by `--report`; with all nine layers measured (in one
//! run, or merged from several with `--report DIR,DIR,..`), `vgg-stack` rows give the whole
//! stack of 13 layers.

use super::{Bench, Blas};
use crate::common::{par_map, random_vec, Config, Imp, Record, Reference, Work};
use crate::lift_kernels::{Conv, ConvDirect, ConvIm2col};
use crate::report::Suite;
use crate::timing::{Done, Ev, Gate, Res, Stats};
use lift_runtime::{Buffer, Context};

/// `(side, input channels, filters)` of the nine distinct layers (conv1_1 .. conv5_x).
pub const LAYERS: [(usize, usize, usize); 9] = [
    (224, 3, 64),
    (224, 64, 64),
    (112, 64, 128),
    (112, 128, 128),
    (56, 128, 256),
    (56, 256, 256),
    (28, 256, 512),
    (28, 512, 512),
    (14, 512, 512),
];

/// The layers of `--quick` (POCL-sized: side / 14, channels / 8).
fn layers(quick: bool) -> Vec<(usize, usize, usize)> {
    LAYERS
        .iter()
        .map(|&(n, c, f)| {
            if quick {
                ((n / 14).max(2), c.div_ceil(8), f / 8)
            } else {
                (n, c, f)
            }
        })
        .collect()
}

/// The workload name of layer `i`.
fn name(i: usize) -> &'static str {
    Box::leak(format!("vgg-{i}").into_boxed_str())
}

/// The outputs checked: about 4096 spread over the result (every one when it is smaller).
fn sample(len: usize) -> Vec<usize> {
    let step = (len / 4096).max(1) | 1;
    (0..len).step_by(step).collect()
}

/// The convolution before bias and ReLU at output `(y, x, f)`: HWC input `x`, `[F][3][3][C]`
/// weights, zero padding 1.
fn pre(x: &[f32], w: &[f32], (n, c): (usize, usize), (y, xx, f): (usize, usize, usize)) -> f64 {
    let mut acc = 0.0;
    for dy in 0..3 {
        for dx in 0..3 {
            let (iy, ix) = ((y + dy).wrapping_sub(1), (xx + dx).wrapping_sub(1));
            if iy >= n || ix >= n {
                continue;
            }
            for ch in 0..c {
                let a = f64::from(x[(iy * n + ix) * c + ch]);
                acc += a * f64::from(w[((f * 3 + dy) * 3 + dx) * c + ch]);
            }
        }
    }
    acc
}

/// Times lift-rs kernel `$k` (a `Result` of a generated type, one spelling of the
/// convolution) untuned and/or tuned (`$tuned`), and with `$pareto` every candidate that
/// applies with its temporaries' memory.
macro_rules! lift_runs {
    ($bench:ident, $k:expr, $who:expr, $tuned:expr, $pareto:expr, $dims:expr, $dev:expr, $host:expr) => {{
        let (n, c, f) = $dims;
        let (x, w, b) = $dev;
        match $k {
            Ok(k) => {
                let cands = k.candidates()?;
                for tuned in $tuned {
                    if tuned {
                        match k.tune(n, n, c, f, $host.0, $host.1, $host.2) {
                            Ok(t) => eprintln!("  tuned {}: {t}", $who),
                            Err(e) => eprintln!("  tuning {} failed: {e}", $who),
                        }
                    }
                    let chosen = k.candidate_for(n, n, c, f)?;
                    let temps = k.temporary_bytes(chosen, n, n, c, f)?;
                    let label = format!(
                        "{} {}: {} ({:.2} MiB of temporaries)",
                        $who,
                        if tuned { "tuned" } else { "untuned" },
                        cands[chosen].name,
                        temps as f64 / f64::from(1 << 20)
                    );
                    let imp = Imp::new(&label, "lift", Gate::UserEvent, "gated span");
                    let run = Ok::<_, String>(|o: &Buffer<f32>| {
                        let e = k.launch(n, n, c, f, x, w, b, o)?;
                        Ok(Done::Last(Ev::Lift(e)))
                    });
                    $bench.run(imp, run);
                }
                // Time against memory: every candidate that applies, built for these sizes (as a tuned
                // choice runs), with its temporaries.
                for ci in (0..cands.len()).filter(|_| $pareto) {
                    let Ok(temps) = k.temporary_bytes(ci, n, n, c, f) else {
                        continue;
                    };
                    let label = format!(
                        "{} candidate: {} ({:.2} MiB of temporaries)",
                        $who,
                        cands[ci].name,
                        temps as f64 / f64::from(1 << 20)
                    );
                    let imp = Imp::new(&label, "lift", Gate::UserEvent, "gated span");
                    let run = Ok::<_, String>(|o: &Buffer<f32>| {
                        let e = k.launch_specialised(ci, n, n, c, f, x, w, b, o)?;
                        Ok(Done::Last(Ev::Lift(e)))
                    });
                    $bench.run(imp, run);
                }
            }
            Err(e) => $bench.error($who, "lift", e),
        }
    }};
}

/// The convolution's spellings: the plain one, and with `--fission` those annotated with
/// `kernel_fission`.
type Kernels = (
    Result<Conv, lift_runtime::Error>,
    Option<(
        Result<ConvIm2col, lift_runtime::Error>,
        Result<ConvDirect, lift_runtime::Error>,
    )>,
);

/// Every layer: lift-rs untuned and tuned, CLBlast `convgemm`.
pub fn run(ctx: &Context, cfg: &Config, blas: Blas<'_>) -> Res<Vec<Record>> {
    let cache = cfg.out.join("tune-cache");
    let _ = std::fs::remove_dir_all(&cache);
    std::fs::create_dir_all(&cache)?;
    std::env::set_var(lift_runtime::cache::CACHE_DIR_ENV, &cache);
    lift_runtime::cache::reload();
    let kernels = (
        Conv::new(ctx),
        cfg.vgg_spellings
            .then(|| (ConvIm2col::new(ctx), ConvDirect::new(ctx))),
    );
    let mut recs = Vec::new();
    for (i, (n, c, f)) in layers(cfg.quick).into_iter().enumerate() {
        if cfg.vgg_layers.as_ref().is_some_and(|l| !l.contains(&i)) {
            continue;
        }
        eprintln!("vgg: layer {i}: {n}x{n}x{c} -> {f}");
        if let Err(e) = layer(ctx, cfg, blas, &kernels, i, (n, c, f), &mut recs) {
            eprintln!("vgg: layer {i}: skipped: {e}");
        }
    }
    Ok(recs)
}

fn layer(
    ctx: &Context,
    cfg: &Config,
    blas: Blas<'_>,
    kernels: &Kernels,
    i: usize,
    (n, c, f): (usize, usize, usize),
    recs: &mut Vec<Record>,
) -> Res<()> {
    let xv = random_vec(n * n * c, 30 + i as u64);
    let wv: Vec<f32> = random_vec(f * 9 * c, 60 + i as u64)
        .into_iter()
        .map(|v| v / (9 * c) as f32)
        .collect();
    let bv = random_vec(f, 90 + i as u64);
    let work = Work {
        name: name(i),
        size: size_text(name(i), cfg.quick).unwrap_or_default(),
        flops: 2.0 * (n * n * f * 9 * c) as f64,
        bytes: 4.0 * (n * n * (c + f) + f * 9 * c) as f64,
        tol: 1e-4,
    };
    // lift-rs: HWF output, bias and ReLU.
    let idx = sample(n * n * f);
    let values = par_map(idx.len(), |k| {
        let p = idx[k];
        let (y, x, ff) = (p / (n * f), p / f % n, p % f);
        (pre(&xv, &wv, (n, c), (y, x, ff)) + f64::from(bv[ff])).max(0.0)
    });
    let reference = Reference {
        values,
        idx: Some(idx),
    };
    let (x, w, b) = (ctx.upload(&xv)?, ctx.upload(&wv)?, ctx.upload(&bv)?);
    let mut out = ctx.alloc::<f32>(n * n * f)?;
    {
        let mut bench = Bench::new(ctx, cfg, &work, &reference, &mut out, recs);
        let host = (&xv, &wv, &bv);
        let dims = (n, c, f);
        let pareto = cfg.vgg_pareto;
        lift_runs!(
            bench,
            &kernels.0,
            "lift-rs",
            [false, true],
            pareto,
            dims,
            (&x, &w, &b),
            host
        );
        if cfg.vgg_below_im2col {
            // The same kernel on a context that bounds its temporaries by the im2col matrix
            // (`9 C` floats per output pixel).
            let bound = (9 * c * n * n * std::mem::size_of::<f32>()) as u64;
            let bounded = ctx.with_temporary_limit(Some(bound));
            lift_runs!(
                bench,
                &Conv::new(&bounded),
                "lift-rs below im2col",
                [true],
                false,
                dims,
                (&x, &w, &b),
                host
            );
        }
        if let Some((im2col, direct)) = &kernels.1 {
            let who = "lift-rs im2col (kernel_fission)";
            lift_runs!(bench, im2col, who, [true], false, dims, (&x, &w, &b), host);
            let who = "lift-rs direct (kernel_fission)";
            lift_runs!(bench, direct, who, [true], false, dims, (&x, &w, &b), host);
        }
    }
    // CLBlast: NCHW input, `[F][C][3][3]` weights flipped for its convolution mode, NCHW
    // output, no bias or ReLU.
    let idx = sample(n * n * f);
    let values = par_map(idx.len(), |k| {
        let p = idx[k];
        let (ff, y, x) = (p / (n * n), p / n % n, p % n);
        pre(&xv, &wv, (n, c), (y, x, ff))
    });
    let reference = Reference {
        values,
        idx: Some(idx),
    };
    let chw: Vec<f32> = (0..c * n * n)
        .map(|p| {
            let (ch, y, x) = (p / (n * n), p / n % n, p % n);
            xv[(y * n + x) * c + ch]
        })
        .collect();
    let flipped: Vec<f32> = (0..f * c * 9)
        .map(|p| {
            let (ff, ch, dy, dx) = (p / (9 * c), p / 9 % c, p / 3 % 3, p % 3);
            wv[((ff * 3 + (2 - dy)) * 3 + (2 - dx)) * c + ch]
        })
        .collect();
    let (xc, wc) = (ctx.upload(&chw)?, ctx.upload(&flipped)?);
    let mut bench = Bench::new(ctx, cfg, &work, &reference, &mut out, recs);
    bench.clblast("CLBlast Sconvgemm (no bias, ReLU)", blas, |bl, o| {
        bl.convgemm(ctx, (c, n, n), f, &xc, &wc, o)
    });
    Ok(())
}

/// The size text of a `vgg-i` workload (`--quick` sizes when `quick`).
pub fn size_text(workload: &str, quick: bool) -> Option<String> {
    let i: usize = workload.strip_prefix("vgg-")?.parse().ok()?;
    let (n, c, f) = *layers(quick).get(i)?;
    Some(format!("{n}x{n}x{c}->{f}"))
}

/// How many of VGG-16's 13 convolution layers each of [`LAYERS`] stands for.
const REPEATS: [usize; 9] = [1, 1, 1, 1, 1, 2, 1, 2, 3];

/// The workload name of the whole stack's rows ([`add_stack`]).
pub const STACK: &str = "vgg-stack";

/// Adds a `vgg-stack` row for every implementation measured correct on all nine layers: the
/// sum of its medians (and of its 10th and 90th percentiles) over the 13 layers, each
/// distinct layer counted as often as VGG-16 has it. An implementation is its label: the
/// name before `: ` (lift-rs rows name the candidate chosen per layer after it). Earlier
/// stack rows are replaced.
pub fn add_stack(suite: &mut Suite) {
    suite.records.retain(|r| r.workload != STACK);
    let label = |r: &Record| -> String {
        let name = &r.implementation;
        name.split_once(": ")
            .map_or(name.clone(), |(l, _)| l.to_string())
    };
    let mut labels: Vec<(String, String)> = Vec::new();
    for r in suite.records.iter().filter(|r| r.workload == name(0)) {
        let key = (label(r), r.class.clone());
        if !labels.contains(&key) {
            labels.push(key);
        }
    }
    let mut stack = Vec::new();
    for (imp, class) in labels {
        let rows: Option<Vec<&Record>> = (0..LAYERS.len())
            .map(|i| {
                suite.records.iter().find(|r| {
                    r.workload == name(i)
                        && label(r) == imp
                        && r.class == class
                        && r.status == "ok"
                        && r.stats.is_some()
                })
            })
            .collect();
        let Some(rows) = rows else { continue };
        let sum = |f: &dyn Fn(&Record) -> f64| -> f64 {
            rows.iter().zip(REPEATS).map(|(r, n)| n as f64 * f(r)).sum()
        };
        let stat = |f: fn(&Stats) -> f64| sum(&|r| r.stats.as_ref().map_or(0.0, f));
        let per_layer = rows.iter().any(|r| r.implementation != imp);
        stack.push(Record {
            workload: STACK.into(),
            implementation: match per_layer {
                true => format!("{imp} (each layer's choice)"),
                false => imp,
            },
            class,
            stats: Some(Stats {
                median_ms: stat(|s| s.median_ms),
                p10_ms: stat(|s| s.p10_ms),
                p90_ms: stat(|s| s.p90_ms),
                runs: rows
                    .iter()
                    .filter_map(|r| r.stats.as_ref().map(|s| s.runs))
                    .min()
                    .unwrap_or(0),
            }),
            rel_err: rows.iter().filter_map(|r| r.rel_err).reduce(f64::max),
            status: "ok".into(),
            flops: sum(&|r| r.flops),
            bytes: sum(&|r| r.bytes),
            timing: "sum of the 13 layers' medians".into(),
            spelling: None,
        });
    }
    if !stack.is_empty() && !suite.sizes.iter().any(|(w, _)| w == STACK) {
        suite
            .sizes
            .push((STACK.into(), "13 layers (sum of medians)".into()));
    }
    suite.records.extend(stack);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(layer: usize, implementation: &str, class: &str, ms: f64) -> Record {
        Record {
            workload: name(layer).to_string(),
            implementation: implementation.into(),
            class: class.into(),
            stats: Some(Stats {
                median_ms: ms,
                p10_ms: ms * 0.9,
                p90_ms: ms * 1.1,
                runs: 10 + layer,
            }),
            rel_err: Some(1e-7 * layer as f64),
            status: "ok".into(),
            flops: 1.0,
            bytes: 2.0,
            timing: String::new(),
            spelling: None,
        }
    }

    /// The stack sums each label's layers, repeated as in VGG-16; a label missing a layer
    /// (or wrong on one) gets no row.
    #[test]
    fn the_stack_sums_thirteen_layers_per_label() {
        let mut suite = Suite::default();
        for i in 0..LAYERS.len() {
            let ms = (i + 1) as f64;
            suite
                .records
                .push(rec(i, &format!("lift-rs tuned: cand{i}"), "lift", ms));
            suite.records.push(rec(i, "CLBlast", "clblast", 2.0 * ms));
            if i != 4 {
                suite.records.push(rec(i, "partial", "lift", ms));
            }
            let mut r = rec(i, "wrong once", "lift", ms);
            if i == 2 {
                r.status = "WRONG (rel err 1e-2)".into();
            }
            suite.records.push(r);
        }
        add_stack(&mut suite);
        add_stack(&mut suite);
        let stack: Vec<&Record> = suite
            .records
            .iter()
            .filter(|r| r.workload == STACK)
            .collect();
        let names: Vec<&str> = stack.iter().map(|r| r.implementation.as_str()).collect();
        assert_eq!(names, ["lift-rs tuned (each layer's choice)", "CLBlast"]);
        // 1 + 2 + 3 + 4 + 5 + 2*6 + 7 + 2*8 + 3*9 = 77.
        let s = stack[0].stats.as_ref().unwrap();
        assert!((s.median_ms - 77.0).abs() < 1e-9, "{s:?}");
        assert!((s.p90_ms - 77.0 * 1.1).abs() < 1e-9, "{s:?}");
        assert_eq!(s.runs, 10);
        assert_eq!(stack[0].flops, 13.0);
        let c = stack[1].stats.as_ref().unwrap();
        assert!((c.median_ms - 154.0).abs() < 1e-9, "{c:?}");
        assert_eq!(suite.sizes.iter().filter(|(w, _)| w == STACK).count(), 1);
    }
}
