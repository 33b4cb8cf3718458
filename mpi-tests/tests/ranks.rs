//! Kernels split over the ranks of an MPI job, on POCL in CI: `mpi-check` under
//! `mpirun -n 2` and `-n 3` (uneven slabs; the value and the typed host paths), and the `jacobi2d_mpi` example under `-n 2`.

use std::process::Command;

/// `mpirun -n ranks --oversubscribe program args..`; its standard output, or a panic with
/// everything it printed.
fn mpirun(ranks: usize, program: &str, args: &[&str]) -> String {
    let out = Command::new("mpirun")
        // A rank left waiting for another (a collective call one rank never makes) ends the
        // job with an error instead of hanging CI.
        .args([
            "-n",
            &ranks.to_string(),
            "--oversubscribe",
            "--timeout",
            "300",
        ])
        .arg(program)
        .args(args)
        // CI runs as root; OpenMPI refuses that unless told.
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .expect("mpirun starts (install openmpi-bin)");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "mpirun -n {ranks} {program}: {}\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn kernels_split_over_two_and_three_ranks_agree_with_one_device() {
    for ranks in [2, 3] {
        let out = mpirun(ranks, env!("CARGO_BIN_EXE_mpi-check"), &[]);
        for r in 0..ranks {
            assert!(
                out.contains(&format!("rank {r} of {ranks}:"))
                    && out.contains("iterated Jacobi agrees, typed too, a failed rank fails all")
                    && !out.contains(", 0 typed"),
                "{out}"
            );
        }
    }
}

#[test]
fn the_jacobi_example_runs_on_two_ranks() {
    let example = std::env::current_exe()
        .ok()
        .and_then(|t| Some(t.parent()?.parent()?.join("examples").join("jacobi2d_mpi")))
        .expect("the examples directory");
    let out = mpirun(
        2,
        example.to_str().expect("a path"),
        &["--size", "64", "--steps", "10"],
    );
    assert!(out.contains("agrees with one device"), "{out}");
}
