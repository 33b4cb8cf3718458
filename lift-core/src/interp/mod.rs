//! The reference interpreter: evaluates a type-checked kernel on host values, following the
//! meaning of every primitive in SPEC section 2. It is the oracle of every test.
//!
//! Low-level primitives mean their high-level counterparts (`map_glb` is `map`, `reduce_seq` a
//! left fold, `to_local(f)` is `f`); rewrite points are transparent. `f16` arithmetic is done
//! in `f32` and rounded back to `f16` after every operation. Nothing panics: malformed input
//! gives an [`InterpError`].

mod eval;
mod layout;
mod prims;
pub mod sample;
mod scalar;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_lang;
mod value;

pub use value::{scalar_count, Scalar, Value};

use crate::arith::Nat;
use crate::ir::{Param, Program};
use eval::{Env, Interp, Val};

/// Why an evaluation failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InterpError {
    /// No kernel of that name in the program.
    #[error("unknown kernel `{0}`")]
    UnknownKernel(String),
    /// Wrong number of size values.
    #[error("kernel `{kernel}`: expected {expected} size value(s), got {actual}")]
    SizeCount {
        /// The kernel.
        kernel: String,
        /// Number of size variables.
        expected: usize,
        /// Number of values given.
        actual: usize,
    },
    /// Wrong number of kernel arguments.
    #[error("kernel `{kernel}`: expected {expected} argument(s), got {actual}")]
    ArgCount {
        /// The kernel.
        kernel: String,
        /// Number of parameters.
        expected: usize,
        /// Number of arguments given.
        actual: usize,
    },
    /// A size variable bound to zero or a negative value.
    #[error("size variable `{name}` must be positive, got {value}")]
    NonPositiveSize {
        /// The size variable.
        name: String,
        /// Its value.
        value: i64,
    },
    /// A kernel argument whose shape or element type differs from its parameter's type.
    #[error("argument `{arg}{path}`: expected {expected}, got {actual}")]
    ArgShape {
        /// The parameter name.
        arg: String,
        /// Where inside the argument (`[2]`, `.1`), empty for the whole argument.
        path: String,
        /// The expected type, sizes evaluated.
        expected: String,
        /// The shape of the value given.
        actual: String,
    },
    /// The kernel's result differs from its declared type (an interpreter or checker bug).
    #[error("result{path}: expected {expected}, got {actual}")]
    ResultShape {
        /// Where inside the result.
        path: String,
        /// The declared type, sizes evaluated.
        expected: String,
        /// The shape of the value computed.
        actual: String,
    },
    /// [`Value::from_flat`] given the wrong number of scalars.
    #[error("flat data: expected {expected} scalar(s), got {actual}")]
    FlatLength {
        /// Scalars the type needs.
        expected: usize,
        /// Scalars given.
        actual: usize,
    },
    /// A size expression that cannot be evaluated (unbound variable, division by zero) or is
    /// negative.
    #[error("size `{nat}`: {reason}")]
    Size {
        /// The size expression.
        nat: String,
        /// What went wrong.
        reason: String,
    },
    /// A name that is neither a variable, a user function nor a math builtin.
    #[error("unknown name `{0}`")]
    UnknownName(String),
    /// A function applied to the wrong number of arguments.
    #[error("{what}: expected {expected} argument(s), got {actual}")]
    Arity {
        /// The function.
        what: String,
        /// Arguments it takes.
        expected: usize,
        /// Arguments given.
        actual: usize,
    },
    /// Integer division or remainder by zero.
    #[error("`{0}`: integer division by zero")]
    DivisionByZero(String),
    /// An index outside an array, vector or tuple.
    #[error("{what}: index {index} out of range for length {len}")]
    IndexOutOfRange {
        /// The operation (`at`, `x[i]`, `get`, ...).
        what: String,
        /// The index.
        index: i64,
        /// The length indexed.
        len: usize,
    },
    /// Arrays whose lengths must agree and do not (`zip`).
    #[error("{what}: lengths differ: {a} vs {b}")]
    LengthMismatch {
        /// The primitive.
        what: String,
        /// One length.
        a: usize,
        /// The other.
        b: usize,
    },
    /// A primitive's size precondition violated (`split(3)` of 8 elements).
    #[error("{prim}: {reason}")]
    Precondition {
        /// The primitive.
        prim: String,
        /// The violated condition, with the sizes.
        reason: String,
    },
    /// A value of the wrong kind or type at run time.
    #[error("type mismatch: {0}")]
    TypeMismatch(String),
    /// Something the interpreter cannot evaluate (a user function with an OpenCL C body).
    #[error("unsupported: {0}")]
    Unsupported(String),
}

/// Evaluates a size expression to a natural number.
pub(crate) fn eval_nat(n: &Nat, sizes: &dyn Fn(&str) -> Option<i64>) -> Result<usize, InterpError> {
    let err = |reason: String| InterpError::Size {
        nat: n.to_string(),
        reason,
    };
    let v = n.eval(sizes).map_err(|e| err(e.to_string()))?;
    usize::try_from(v).map_err(|_| err(format!("negative value {v}")))
}

/// Checks that argument `arg` has the type of parameter `param` (sizes bound by `sizes`); the
/// error names the argument, the expected and the actual shape.
pub fn check_arg(
    param: &Param,
    arg: &Value,
    sizes: &dyn Fn(&str) -> Option<i64>,
) -> Result<(), InterpError> {
    match value::conform(arg, &param.ty, sizes)? {
        Some((path, expected, actual)) => Err(InterpError::ArgShape {
            arg: param.name.clone(),
            path,
            expected,
            actual,
        }),
        None => Ok(()),
    }
}

/// Evaluates kernel `kernel` of a type-checked program, with its size variables bound to
/// `sizes` in declaration order and its parameters to `args`. Arguments are checked against
/// the parameter types first (an error names the argument, the expected and the actual shape).
pub fn run_kernel(
    prog: &Program,
    kernel: &str,
    sizes: &[i64],
    args: &[Value],
) -> Result<Value, InterpError> {
    let k = prog
        .kernel(kernel)
        .ok_or_else(|| InterpError::UnknownKernel(kernel.to_string()))?;
    if sizes.len() != k.sizes.len() {
        return Err(InterpError::SizeCount {
            kernel: k.name.clone(),
            expected: k.sizes.len(),
            actual: sizes.len(),
        });
    }
    if let Some(((name, _), &value)) = k.sizes.iter().zip(sizes).find(|(_, v)| **v <= 0) {
        return Err(InterpError::NonPositiveSize {
            name: name.clone(),
            value,
        });
    }
    if args.len() != k.params.len() {
        return Err(InterpError::ArgCount {
            kernel: k.name.clone(),
            expected: k.params.len(),
            actual: args.len(),
        });
    }
    let it = Interp {
        prog,
        sizes: k
            .sizes
            .iter()
            .map(|(n, _)| n.as_str())
            .zip(sizes.iter().copied())
            .collect(),
        calls: Default::default(),
    };
    let lookup = |name: &str| it.size(name);
    let mut env = Env::default();
    for (p, a) in k.params.iter().zip(args) {
        check_arg(p, a, &lookup)?;
        env = env.bind(&p.name, Val::Data(a.clone()));
    }
    let out = it.data(&k.body, &env)?;
    if let Some((path, expected, actual)) = value::conform(&out, &k.ret, &lookup)? {
        return Err(InterpError::ResultShape {
            path,
            expected,
            actual,
        });
    }
    Ok(out)
}
