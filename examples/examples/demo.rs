//! The README demo: the 3-point stencil of SPEC section 2 and the CGO'17 partial dot product,
//! compiled by `lift!` at build time, run on the default OpenCL device (`LIFT_DEVICE`),
//! checked against the worked example, the reference interpreter and a CPU loop.

use lift_runtime::core::interp::{run_kernel, Value};
use lift_runtime::core::{parse, typeck};
use lift_runtime::{lift, Context};

lift! {
    /// 3-point sum with clamped borders (the stencil of the seeds).
    pub kernel Blur3<N>(input: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input
    }

    /// The CGO'17 partial dot product (Listing 1, low level): each work-group of 64
    /// work-items reduces 128 pairs.
    pub kernel PartialDot<N>(x: [f32; N], y: [f32; N]) -> [f32; N / 128 * 64] {
        join o map_wrg(0, map_lcl(0, reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32)) o split(2)) o split(128) $ zip(x, y)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ctx = Context::new()?;
    println!("device: {}\n", ctx.device_info());

    println!(
        "Blur3 as written:\n{}\nlowered: {}\n",
        Blur3::LIFT,
        Blur3::LOWERED
    );
    println!("generated OpenCL:\n{}", Blur3::SOURCE);
    let blur = Blur3::new(&ctx)?;
    let input = [1.0f32, 2.0, 3.0, 4.0, 5.0];
    let out = blur.run(input.len(), &input)?;
    println!("Blur3 {input:?} = {out:?}");
    if out != [4.0, 6.0, 9.0, 12.0, 14.0] {
        return Err(
            format!("Blur3: expected the worked example [4 6 9 12 14], got {out:?}").into(),
        );
    }
    let n = 100_003;
    let big: Vec<f32> = (0..n).map(|i| ((i * 37) % 101) as f32 / 101.0).collect();
    let got = blur.run(n, &big)?;
    let mut prog = parse::parse_program_str(Blur3::LIFT)?;
    typeck::check_program(&mut prog)?;
    let want = run_kernel(&prog, "Blur3", &[n as i64], &[Value::from_f32s(&big)])?;
    let want = want.as_f32s().ok_or("interpreter result is not f32")?;
    let worst = got
        .iter()
        .zip(&want)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    println!("Blur3 N = {n}: max |device - interpreter| = {worst:e}");
    if worst > 1e-5 {
        return Err("Blur3 differs from the interpreter".into());
    }

    println!("\nPartialDot generated OpenCL:\n{}", PartialDot::SOURCE);
    let dot = PartialDot::new(&ctx)?;
    let n = 128 * 1000;
    let x: Vec<f32> = (0..n).map(|i| (i % 7) as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| (i % 5) as f32 - 2.0).collect();
    let partial = dot.run(n, &x, &y)?;
    let total: f64 = partial.iter().map(|&v| f64::from(v)).sum();
    let cpu: f64 = x.iter().zip(&y).map(|(a, b)| f64::from(a * b)).sum();
    println!(
        "PartialDot N = {n}: {} partial sums, total {total}, CPU {cpu}",
        partial.len()
    );
    if (total - cpu).abs() > 1e-6 * cpu.abs().max(1.0) {
        return Err("PartialDot differs from the CPU".into());
    }
    match dot.run(1000, &x[..1000], &y[..1000]) {
        Err(e) => println!("PartialDot N = 1000 is refused before launch: {e}"),
        Ok(_) => return Err("PartialDot accepted N = 1000".into()),
    }
    println!("\nok");
    Ok(())
}
