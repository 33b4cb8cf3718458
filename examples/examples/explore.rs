//! Prints the candidates the explorer derives for a kernel: strategy, tuning parameters,
//! launch-time conditions, the size of its mapping problem, and the time the driver took (what `lift!` spends per kernel at
//! build time). With no argument it explores a few built-in kernels; with a file argument,
//! every kernel of that `lift!` program text. With `--source NAME` it also prints the
//! low-level program and the OpenCL C of the candidates named `NAME`. With `--build OPTIONS`
//! it builds every candidate on the default device (`LIFT_DEVICE`) with those compiler options
//! and prints the build log (`-cl-nv-verbose` makes NVIDIA's log give each kernel's registers
//! and spills; `-DLIFT_SIZE_N=4096` fixes a size as the tuner does).
//!
//! `cargo run --release --example explore [FILE] [--source NAME] [--build OPTIONS]`

use lift_runtime::core::{driver, explore, parse, print, typeck};
use lift_runtime::Context;
use std::time::Instant;

const BUILT_IN: &str = "
kernel Gemm<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
    map(|r| map(|c| reduce(+, 0.0) o map(|(x, y)| x * y) $ zip(r, c)) $ transpose $ b) $ a
}
kernel GemmNt<N, K, M>(a: [[f32; K]; N], bt: [[f32; K]; M]) -> [[f32; M]; N] {
    map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) $ bt) $ a
}
kernel Jacobi<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
    map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
}
kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
    map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a
}
";

/// Lists the candidates the explorer derives for every kernel of a `lift!` program.
#[derive(clap::Parser)]
#[command(name = "explore")]
struct Args {
    /// A file holding `lift!` program text (default: a few built-in kernels).
    file: Option<String>,
    /// Also print the low-level program and the OpenCL C of the candidates named NAME.
    #[arg(long, value_name = "NAME")]
    source: Option<String>,
    /// Build every candidate on the default device with these compiler options and print
    /// the build log.
    #[arg(long, value_name = "OPTIONS", allow_hyphen_values = true)]
    build: Option<String>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Args = clap::Parser::parse();
    let show = args.source;
    let device = match &args.build {
        Some(_) => Some(Context::new()?),
        None => None,
    };
    let text = match &args.file {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?,
        None => BUILT_IN.to_string(),
    };
    let mut prog = parse::parse_program_str(&text)?;
    typeck::check_program(&mut prog)?;
    let (valid, total) = explore::space::valid_fraction();
    println!(
        "blocking space: {valid} valid of {total} configurations (1 in {:.0})\n",
        total as f64 / valid as f64
    );
    for k in &prog.kernels {
        let t = Instant::now();
        let compiled = driver::compile_kernel(&prog, &k.name)?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "## {} ({} candidates, {} rejected, {ms:.1} ms)",
            k.name,
            compiled.candidates.len(),
            compiled.rejected.len()
        );
        if let Ok(normal) = explore::normalise::normalise_kernel(&prog, &k.name) {
            if let Some(nk) = normal.kernel(&k.name) {
                println!("  normal form: {}", print::expr(&nk.body));
            }
            let mut checked = normal.clone();
            let info = typeck::check_program(&mut checked)?
                .into_iter()
                .find(|i| i.name == k.name);
            if let Some(r) = info.and_then(|i| explore::parallel::report(&checked, &k.name, &i)) {
                println!(
                    "  mapping problem: {} maps, {} clauses, {} mappings ({:.2} ms)",
                    r.maps, r.clauses, r.solutions, r.solve_ms
                );
            }
        }
        for w in &compiled.warnings {
            println!("  warning: {}", w.message);
        }
        for c in &compiled.candidates {
            let conds: Vec<String> = c.conditions.iter().map(|p| p.cond.to_string()).collect();
            let when = if conds.is_empty() {
                "any size".to_string()
            } else {
                conds.join(", ")
            };
            println!("  {:<58} {when}", c.name);
            if show.as_deref() == Some(c.name.as_str()) {
                println!("\n{}\n\n{}\n", c.generated.lowered, c.generated.source);
            }
            if let (Some(ctx), Some(options)) = (&device, &args.build) {
                let log = match ctx.build(&c.generated.source, options) {
                    Ok(built) => built
                        .raw()
                        .get_build_log(ctx.cl_device().id())
                        .unwrap_or_else(|e| format!("(no build log: {e})")),
                    Err(e) => format!("build failed: {e}"),
                };
                for line in log.lines().filter(|l| !l.trim().is_empty()) {
                    println!("      {line}");
                }
            }
        }
        for (name, why) in &compiled.rejected {
            println!("  rejected {name}: {why}");
        }
        println!();
    }
    Ok(())
}
