//! One program of several stage kernels (kernel fission, [`crate::explore::stages`]): the
//! stages' generated programs merged into one OpenCL program whose kernels run in order,
//! stage `i` writing a global temporary `lift_t{i}` that later stages read as parameter
//! `params + i` (after the kernel's own parameters). The programs are merged as syntax trees
//! ([`super::cl::merge`]): struct types and user functions declared once, kernels in order.

use super::ctypes::storage_bytes;
use super::{GResult, Generated, KernelArg, Temporary};
use crate::arith::Nat;
use crate::types::Type;

/// One compiled stage: its program and the type of its result.
pub struct StageGen {
    /// The stage kernel compiled on its own.
    pub generated: Generated,
    /// Its result type (a temporary's, or the kernel's for the last stage).
    pub result: Type,
}

/// Merges the stages of a kernel with `params` parameters (the stage kernels have those, and
/// stage `i` then the results of stages `0..i`).
pub fn merge(stages: Vec<StageGen>, params: usize) -> GResult<Generated> {
    let n = stages.len();
    let mut temporaries: Vec<Temporary> = Vec::new();
    let mut kernels = Vec::new();
    let mut lowered = Vec::new();
    let mut units = Vec::new();
    // The temporary holding the result of each stage so far.
    let mut results: Vec<usize> = Vec::new();
    for (i, s) in stages.into_iter().enumerate() {
        let own = temporaries.len();
        temporaries.extend(s.generated.temporaries);
        let result = if i + 1 < n {
            let count = s.result.dims().iter().fold(Nat::cst(1), |acc, d| &acc * d);
            temporaries.push(Temporary {
                name: format!("lift_t{i}"),
                bytes: &count * &Nat::cst(storage_bytes(s.result.base())?),
                scalars: &count * &Nat::cst(super::scalars_per(s.result.base())),
            });
            Some(temporaries.len() - 1)
        } else {
            None
        };
        for mut k in s.generated.kernels {
            for a in &mut k.args {
                *a = match a.clone() {
                    KernelArg::Input { param } if param >= params => {
                        KernelArg::Temporary(*results.get(param - params).ok_or_else(|| {
                            super::CodegenError::Internal("stage input without a producer".into())
                        })?)
                    }
                    KernelArg::Output => match result {
                        Some(t) => KernelArg::Temporary(t),
                        None => KernelArg::Output,
                    },
                    KernelArg::Temporary(j) => KernelArg::Temporary(own + j),
                    other => other,
                };
            }
            kernels.push(k);
        }
        units.push(s.generated.unit.ok_or_else(|| {
            super::CodegenError::Internal("a stage without its syntax tree".into())
        })?);
        lowered.push(s.generated.lowered);
        results.extend(result);
    }
    Ok(Generated::of_unit(
        super::cl::merge(units),
        kernels,
        temporaries,
        format!("{n} kernels: {}", lowered.join(" ; ")),
    ))
}
