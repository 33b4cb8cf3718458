//! An iterated Jacobi 2-D stencil split over the ranks of an MPI job, each rank on the
//! devices of its host (`LIFT_DEVICES`), halo rows exchanged by MPI after every step:
//!
//! ```sh
//! cargo build --release -p lift-mpi-tests --example jacobi2d_mpi
//! mpirun -n 2 target/release/examples/jacobi2d_mpi --size 4096 --steps 100
//! ```
//!
//! Rank 0 prints where its rows run, the time per step and whether the result agrees with one
//! device of its own.

use lift_runtime::core::interp::Value;
use lift_runtime::ranks::{mpi, RankKernel};
use lift_runtime::{Devices, DynKernel};
use mpi::traits::Communicator;

const JACOBI: &str = "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|w| 0.2 * (w[0][1] + w[1][0] + w[1][1] + w[1][2] + w[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x }";

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(default)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let universe = mpi::initialize().ok_or("MPI is initialised already")?;
    let world = universe.world();
    let (n, steps) = (arg("--size", 1024), arg("--steps", 100));
    let rows: Vec<Vec<f32>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| ((i * 31 + j * 17) % 101) as f32 / 101.0)
                .collect()
        })
        .collect();
    let x = Value::from_rows(&rows);
    let devices = Devices::new()?;
    let k = RankKernel::new(&world, &devices, JACOBI, "K")?;
    let start = std::time::Instant::now();
    let got = k.iterate(&[n, n], std::slice::from_ref(&x), 0, steps)?;
    let ms = start.elapsed().as_secs_f64() * 1e3 / steps.max(1) as f64;
    if world.rank() == 0 {
        println!("rank 0 of {}: {}", world.size(), k.placement(&[n, n])?);
        println!("{steps} steps of {n} x {n}: {ms:.3} ms per step (host round trips included)");
        let one = DynKernel::compile_for(&devices.contexts()[0], JACOBI, "K", &[n, n])?;
        let mut want = x;
        for _ in 0..steps {
            want = one.run(&[n, n], &[want])?;
        }
        match got == want {
            true => println!("agrees with one device"),
            false => return Err("the result differs from one device's".into()),
        }
    }
    Ok(())
}
