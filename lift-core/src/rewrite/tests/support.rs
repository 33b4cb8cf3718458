//! Shared by the property tests of rules over whole kernels (`views.rs`,
//! `blocking/tests.rs`): a program brought to the explorer's normal form, where the rules are
//! tried, and random arguments for its parameters.

use crate::explore::normalise::normalise_kernel;
use crate::interp::{scalar_count, Scalar, Value};
use crate::ir::Program;
use crate::parse::parse_program_str;
use crate::typeck::check_program;
use rand::rngs::StdRng;
use rand::Rng;

/// Kernel `K` of `src` checked and brought to the explorer's normal form (tuple patterns as
/// projections, ...).
pub(crate) fn normalised(src: &str) -> Program {
    let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let mut p = normalise_kernel(&p, "K").unwrap_or_else(|e| panic!("{e}\n{src}"));
    check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
    p
}

/// Random arguments in [-1, 1) for the parameters of `p`'s first kernel at `sizes` (in the
/// order of its size variables).
pub(crate) fn arguments(p: &Program, sizes: &[i64], rng: &mut StdRng) -> Vec<Value> {
    let k = &p.kernels[0];
    let env = |n: &str| k.sizes.iter().position(|(s, _)| s == n).map(|i| sizes[i]);
    (k.params.iter())
        .map(|param| {
            let count = scalar_count(&param.ty, &env).expect("a size of the kernel");
            let flat: Vec<Scalar> = (0..count)
                .map(|_| Scalar::F32(rng.gen_range(-1.0..1.0)))
                .collect();
            Value::from_flat(&param.ty, &env, &flat).expect("arguments of the parameter types")
        })
        .collect()
}
