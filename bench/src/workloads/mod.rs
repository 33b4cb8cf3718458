//! The workloads: each module checks and times every implementation of its workloads.

pub mod blas;
pub mod reduce;
pub mod stencil;

use crate::clblast::ClBlast;
use crate::timing::Gate;

/// CLBlast if it loaded, else why not.
pub type Blas<'a> = Result<&'a ClBlast, &'a str>;

/// The gate and timing note for a generated launcher: its own event when the program has
/// one kernel, else the user-event gate (see [`Gate`]).
pub fn lift_gate(source: &str) -> (Gate, &'static str) {
    let kernels = source
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            l.starts_with("kernel ") || l.starts_with("__kernel ")
        })
        .count();
    if kernels <= 1 {
        (Gate::None, "kernel event")
    } else {
        (Gate::UserEvent, "gated span (multi-kernel)")
    }
}
