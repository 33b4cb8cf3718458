//! sum, asum and dot of `n` f32.

use super::{Bench, Blas};
use crate::common::{par_sum, random_vec, Config, Record, Reference, Work};
use crate::lift_kernels::{Asum, AsumPartial, Dot, DotPartial, Sum, SumPartial};
use crate::opencl::{kernel, reduce7, reduce7_groups, REDUCE_CL};
use crate::timing::{Done, Ev, Res};
use lift_runtime::{Buffer, Context};

/// Elements one work-group of the low-level lift passes reduces.
const CHUNK: usize = 65536;

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Sum,
    Asum,
    Dot,
}

/// A first pass: input x (and y), output partial sums.
type FirstPass = Box<dyn Fn(&Buffer<f32>, &Buffer<f32>, &Buffer<f32>) -> Res<Ev>>;

/// The low-level lift reduction: first pass `op`, then `SumPartial` while the length is a
/// multiple of 65536, then the default `Sum` on what is left.
struct LowLevel {
    first: FirstPass,
    sum_partial: SumPartial,
    sum: Sum,
    stages: Vec<Buffer<f32>>,
}

impl LowLevel {
    fn new(ctx: &Context, op: Op, n: usize) -> Res<Option<LowLevel>> {
        if !n.is_multiple_of(CHUNK) {
            return Ok(None);
        }
        let first: FirstPass = match op {
            Op::Sum => {
                let k = SumPartial::new(ctx)?;
                Box::new(move |x, _, o| Ok(Ev::Lift(k.launch(x.len(), x, o)?)))
            }
            Op::Asum => {
                let k = AsumPartial::new(ctx)?;
                Box::new(move |x, _, o| Ok(Ev::Lift(k.launch(x.len(), x, o)?)))
            }
            Op::Dot => {
                let k = DotPartial::new(ctx)?;
                Box::new(move |x, y, o| Ok(Ev::Lift(k.launch(x.len(), x, y, o)?)))
            }
        };
        let mut stages = Vec::new();
        let mut len = n;
        while len.is_multiple_of(CHUNK) {
            len = len / CHUNK * 256;
            stages.push(ctx.alloc::<f32>(len)?);
        }
        Ok(Some(LowLevel {
            first,
            sum_partial: SumPartial::new(ctx)?,
            sum: Sum::new(ctx)?,
            stages,
        }))
    }

    fn run(&self, x: &Buffer<f32>, y: &Buffer<f32>, out: &Buffer<f32>) -> Res<Done> {
        let mut evs = vec![(self.first)(x, y, &self.stages[0])?];
        for w in self.stages.windows(2) {
            evs.push(Ev::Lift(self.sum_partial.launch(
                w[0].len(),
                &w[0],
                &w[1],
            )?));
        }
        let last = self.stages.last().ok_or("no stages")?;
        evs.push(Ev::Lift(self.sum.launch(last.len(), last, out)?));
        Ok(Done::Many(evs))
    }
}

/// Runs sum, asum and dot (those selected).
pub fn run(ctx: &Context, cfg: &Config, n: usize, blas: Blas<'_>) -> Res<Vec<Record>> {
    let mut recs = Vec::new();
    let ops = [("sum", Op::Sum), ("asum", Op::Asum), ("dot", Op::Dot)];
    if !ops.iter().any(|(w, _)| cfg.selected(w)) {
        return Ok(recs);
    }
    let xs = random_vec(n, 1);
    let ys = random_vec(n, 2);
    let x = ctx.upload(&xs)?;
    let y = ctx.upload(&ys)?;
    let mut out = ctx.alloc::<f32>(1)?;
    let groups = reduce7_groups(ctx, n);
    let partial = ctx.alloc::<f32>(groups)?;
    let sum7 = kernel(ctx, REDUCE_CL, "", "sum7")?;
    for (name, op) in ops {
        if !cfg.selected(name) {
            continue;
        }
        eprintln!("{name} (n = {n})");
        let reads = if op == Op::Dot { 2.0 } else { 1.0 };
        let work = Work {
            name,
            size: format!("n = 2^{}", n.trailing_zeros()),
            flops: n as f64 * if op == Op::Dot { 2.0 } else { 1.0 },
            bytes: reads * 4.0 * n as f64 + 4.0,
            tol: 1e-3,
        };
        let r = match op {
            Op::Sum => par_sum(n, |i| f64::from(xs[i])),
            Op::Asum => par_sum(n, |i| f64::from(xs[i]).abs()),
            Op::Dot => par_sum(n, |i| f64::from(xs[i]) * f64::from(ys[i])),
        };
        let reference = Reference::full(vec![r]);

        let mut b = Bench::new(ctx, cfg, &work, &reference, &mut out, &mut recs);
        let (x, y) = (&x, &y);

        // (a) lift-rs, default lowering.
        match op {
            Op::Sum => b.default_lift(Sum::new(ctx), |k, o| Ok(k.launch(n, x, o)?)),
            Op::Asum => b.default_lift(Asum::new(ctx), |k, o| Ok(k.launch(n, x, o)?)),
            Op::Dot => b.default_lift(Dot::new(ctx), |k, o| Ok(k.launch(n, x, y, o)?)),
        }

        // (b) lift-rs, low level: map_wrg/map_lcl partial sums, then further passes.
        let low_name = "lift-rs low-level (map_wrg/map_lcl passes)";
        match LowLevel::new(ctx, op, n).transpose() {
            Some(low) => {
                let low = low.map(|low| move |o: &Buffer<f32>| low.run(x, y, o));
                b.events(low_name, "lift-low", "first start .. last end", low);
            }
            None => b.unavailable(low_name, "lift-low", format!("n % {CHUNK} != 0")),
        }

        // (c) hand-written OpenCL: reduction version 7, two passes.
        let kname = match op {
            Op::Sum => "sum7",
            Op::Asum => "asum7",
            Op::Dot => "dot7",
        };
        let yy = (op == Op::Dot).then_some(y);
        let v7 = kernel(ctx, REDUCE_CL, "", kname).map(|k1| {
            let (sum7, partial) = (&sum7, &partial);
            move |o: &Buffer<f32>| Ok(Done::Many(reduce7(ctx, &k1, sum7, x, yy, partial, o, n)?))
        });
        let v7_name = "OpenCL reduce v7 (2 passes)";
        b.events(v7_name, "opencl", "first start .. last end", v7);

        // (d) CLBlast.
        let bname = match op {
            Op::Sum => "CLBlast Ssum",
            Op::Asum => "CLBlast Sasum",
            Op::Dot => "CLBlast Sdot",
        };
        b.clblast(bname, blas, |bl, o| match op {
            Op::Sum => bl.sum(ctx, false, x, o),
            Op::Asum => bl.sum(ctx, true, x, o),
            Op::Dot => bl.dot(ctx, x, y, o),
        });
    }
    Ok(recs)
}
