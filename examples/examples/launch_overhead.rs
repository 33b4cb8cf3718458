//! Launch-overhead benchmark: the generated `launch` of a trivial kernel against the same
//! argument setting and enqueue done by hand with `opencl3`, on the same kernel object and
//! queue. Host time per launch (enqueue only; the queue is drained between batches), median
//! of many batches. Prints a table and writes `bench-out/launch_overhead.{csv,json}`.
//!
//! `cargo run --release --example launch_overhead [-- --quick]`

use lift_runtime::opencl3::kernel::Kernel;
use lift_runtime::opencl3::memory::{Buffer as ClBuffer, ClMem, CL_MEM_READ_WRITE};
use lift_runtime::{lift, Context};
use std::time::Instant;

lift! {
    /// The trivial kernel: add one.
    kernel Inc<N>(x: [f32; N]) -> [f32; N] { map(|v| v + 1.0) $ x }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times `batches` batches of `per_batch` calls of `launch`, draining the queue after each
/// batch; gives the per-launch host time of every batch in nanoseconds.
fn time_batches(
    ctx: &Context,
    batches: usize,
    per_batch: usize,
    mut launch: impl FnMut() -> Result<(), Box<dyn std::error::Error>>,
) -> Result<Vec<f64>, Box<dyn std::error::Error>> {
    let mut out = Vec::with_capacity(batches);
    for _ in 0..batches {
        let t = Instant::now();
        for _ in 0..per_batch {
            launch()?;
        }
        out.push(t.elapsed().as_nanos() as f64 / per_batch as f64);
        ctx.finish()?;
    }
    Ok(out)
}

/// Host time per launch: the generated `launch` against the same enqueue by hand.
#[derive(clap::Parser)]
#[command(name = "launch_overhead")]
struct Args {
    /// 5 batches of 200 launches instead of 31 of 2000.
    #[arg(long)]
    quick: bool,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args { quick } = clap::Parser::parse();
    let (batches, per_batch) = if quick { (5, 200) } else { (31, 2000) };
    let n: usize = 1024;
    let ctx = Context::new()?;
    let device = ctx.device_info().name.clone();
    let k = Inc::new(&ctx)?;
    let x = ctx.upload(&vec![1.0f32; n])?;
    let out = ctx.alloc::<f32>(n)?;

    // The same program, its own kernel object, set and enqueued by hand.
    let program = ctx.build(Inc::SOURCE, "")?;
    let raw = Kernel::create(program.raw(), "Inc")?;
    // SAFETY: a plain device buffer of n floats on this context.
    let (in_raw, out_raw): (ClBuffer<f32>, ClBuffer<f32>) = unsafe {
        (
            ClBuffer::create(ctx.cl_context(), CL_MEM_READ_WRITE, n, std::ptr::null_mut())?,
            ClBuffer::create(ctx.cl_context(), CL_MEM_READ_WRITE, n, std::ptr::null_mut())?,
        )
    };
    let global = [n];
    let size = n as i32;
    let by_hand = || -> Result<(), Box<dyn std::error::Error>> {
        // SAFETY: the arguments match the kernel's parameters (two float buffers, one int).
        unsafe {
            raw.set_arg(0, &in_raw.get())?;
            raw.set_arg(1, &out_raw.get())?;
            raw.set_arg(2, &size)?;
            ctx.cl_queue().enqueue_nd_range_kernel(
                raw.get(),
                1,
                std::ptr::null(),
                global.as_ptr(),
                std::ptr::null(),
                &[],
            )?;
        }
        Ok(())
    };
    let generated = || -> Result<(), Box<dyn std::error::Error>> {
        k.launch(n, &x, &out)?;
        Ok(())
    };

    // Warm up both, then interleave the measurements so drift affects both alike.
    time_batches(&ctx, 2, per_batch, by_hand)?;
    time_batches(&ctx, 2, per_batch, generated)?;
    let (mut hand, mut gen) = (Vec::new(), Vec::new());
    for _ in 0..batches {
        hand.extend(time_batches(&ctx, 1, per_batch, by_hand)?);
        gen.extend(time_batches(&ctx, 1, per_batch, generated)?);
    }
    let (h, g) = (median(hand.clone()), median(gen.clone()));
    let spread = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        (v[v.len() / 10], v[v.len() * 9 / 10])
    };
    let ((h10, h90), (g10, g90)) = (spread(&hand), spread(&gen));
    println!("device: {device}; {batches} batches of {per_batch} launches, N = {n}");
    println!(
        "{:<26} {:>14} {:>22}",
        "implementation", "median ns", "p10..p90 ns"
    );
    println!(
        "{:<26} {:>14.0} {:>10.0}..{:<10.0}",
        "opencl3 by hand", h, h10, h90
    );
    println!(
        "{:<26} {:>14.0} {:>10.0}..{:<10.0}",
        "generated launch", g, g10, g90
    );
    println!("ratio generated / by hand: {:.3}x", g / h);

    std::fs::create_dir_all("bench-out")?;
    std::fs::write(
        "bench-out/launch_overhead.csv",
        format!("device,implementation,median_ns,p10_ns,p90_ns\n\"{device}\",hand,{h:.1},{h10:.1},{h90:.1}\n\"{device}\",generated,{g:.1},{g10:.1},{g90:.1}\n"),
    )?;
    std::fs::write(
        "bench-out/launch_overhead.json",
        format!("{{\"device\":\"{device}\",\"hand_ns\":{h:.1},\"generated_ns\":{g:.1},\"ratio\":{:.4}}}\n", g / h),
    )?;
    Ok(())
}
