//! One program of several stage kernels (kernel fission, [`crate::explore::stages`]): the
//! stages' generated programs merged into one OpenCL program whose kernels run in order,
//! stage `i` writing a global temporary `lift_t{i}` that later stages read as parameter
//! `params + i` (after the kernel's own parameters).

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
    let mut pragmas: Vec<String> = Vec::new();
    let mut typedefs: Vec<String> = Vec::new();
    let mut functions: Option<String> = None;
    let mut bodies = String::new();
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
        let (pre, body) = split_source(&s.generated.source);
        let pre = pre.replacen(super::INDEX_PRELUDE, "", 1);
        for line in pre.lines() {
            if line.starts_with("#pragma") {
                push_new(&mut pragmas, line);
            } else if line.starts_with("typedef ") {
                push_new(&mut typedefs, line);
            }
        }
        let funs: String = pre
            .lines()
            .filter(|l| !l.starts_with("#pragma") && !l.starts_with("typedef "))
            .map(|l| format!("{l}\n"))
            .collect();
        if functions.is_none() && !funs.trim().is_empty() {
            functions = Some(funs);
        }
        bodies.push_str(body);
        lowered.push(s.generated.lowered);
        results.extend(result);
    }
    let mut source = String::new();
    for l in &pragmas {
        source.push_str(l);
        source.push('\n');
    }
    source.push_str(super::INDEX_PRELUDE);
    for l in &typedefs {
        source.push_str(l);
        source.push('\n');
    }
    if let Some(f) = functions {
        source.push_str(&f);
    }
    source.push_str(&bodies);
    Ok(Generated {
        source,
        kernels,
        temporaries,
        lowered: format!("{n} kernels: {}", lowered.join(" ; ")),
    })
}

/// `(preamble, kernels)` of a generated source: the kernels start at the first line that
/// begins a kernel (its attribute or `kernel void`).
fn split_source(src: &str) -> (&str, &str) {
    let mut at = 0;
    for line in src.split_inclusive('\n') {
        if line.starts_with("__attribute__") || line.starts_with("kernel void") {
            break;
        }
        at += line.len();
    }
    src.split_at(at)
}

fn push_new(v: &mut Vec<String>, line: &str) {
    if !v.iter().any(|l| l == line) {
        v.push(line.to_string());
    }
}
