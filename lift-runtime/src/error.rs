//! The one error type of the runtime.

use opencl3::error_codes::{error_text, ClError};
use std::fmt::Write as _;

/// Shorthand for results whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong between choosing a device and reading a result back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No OpenCL platform (or no OpenCL loader library) is installed.
    #[error(
        "no OpenCL platform found ({reason}). Install one: on Debian/Ubuntu \
         `apt-get install pocl-opencl-icd ocl-icd-opencl-dev` (portable CPU driver); for \
         NVIDIA GPUs install the driver and check that the ICD file \
         /etc/OpenCL/vendors/nvidia.icd exists; then `clinfo -l` should list a device"
    )]
    NoPlatform {
        /// What the loader reported.
        reason: String,
    },
    /// The device selector (`LIFT_DEVICE` or [`Context::with_selector`](crate::Context::with_selector)) matched no device.
    #[error("no OpenCL device matches `{selector}`; available devices:\n  {}", available.join("\n  "))]
    DeviceNotFound {
        /// The selector as given.
        selector: String,
        /// One line per device: index, platform, name and type.
        available: Vec<String>,
    },
    /// The OpenCL compiler rejected a program.
    #[error(
        "OpenCL program build failed:\n{log}\n--- program source ---\n{}",
        numbered(src)
    )]
    Build {
        /// The device compiler's build log.
        log: String,
        /// The program source that failed to build.
        src: String,
    },
    /// A program has no kernel of the requested name.
    #[error("the program has no kernel `{name}` (kernels: {available})")]
    KernelNotFound {
        /// The requested kernel name.
        name: String,
        /// The program's kernel names, separated by `;`.
        available: String,
    },
    /// An OpenCL API call failed.
    #[error("OpenCL call {call} failed: {} ({code})", error_text(*code))]
    Cl {
        /// The OpenCL function, e.g. `clEnqueueNDRangeKernel`.
        call: &'static str,
        /// The OpenCL error code.
        code: i32,
    },
    /// A kernel argument slice has the wrong length.
    #[error("argument `{arg}`: expected length {expected}, got {actual}")]
    ArgLength {
        /// The argument's name.
        arg: String,
        /// The length its declared type requires.
        expected: usize,
        /// The length passed.
        actual: usize,
    },
    /// An argument of a run-time compiled kernel ([`crate::dynamic::DynKernel`]) whose shape
    /// or element type differs from its parameter's type.
    #[error("argument `{arg}`: expected {expected}, got {actual}")]
    ArgShape {
        /// The argument's name, with the place inside it (`x[2]`) where they differ.
        arg: String,
        /// The declared type, sizes evaluated.
        expected: String,
        /// The shape of the value passed.
        actual: String,
    },
    /// A program compiled at run time ([`crate::dynamic::DynKernel::compile`]) was rejected
    /// by the lift-rs compiler (parse, type or code generation error).
    #[error("lift compile error: {message}")]
    Compile {
        /// The compiler's message.
        message: String,
    },
    /// A size precondition (e.g. `N % 128 == 0`) does not hold.
    #[error("size precondition on `{what}` failed: expected {expected}, got {actual}")]
    Precondition {
        /// The size variable or expression, e.g. `N`.
        what: String,
        /// What is required, e.g. `a multiple of 128`.
        expected: String,
        /// The actual value.
        actual: String,
    },
    /// A host slice and a device buffer differ in length.
    #[error("{op}: the buffer holds {expected} elements but the host slice has {actual}")]
    BufferLength {
        /// The operation, e.g. `read_into`.
        op: &'static str,
        /// The buffer's length.
        expected: usize,
        /// The slice's length.
        actual: usize,
    },
    /// An environment setting has a value the runtime cannot use.
    #[error("setting `{name}`: expected {expected}, got `{actual}`")]
    Setting {
        /// The variable.
        name: String,
        /// What it takes.
        expected: String,
        /// What it holds.
        actual: String,
    },
    /// A device of a set ([`crate::Devices`]) failed: which one, and how. No partial result
    /// is returned.
    #[error("device {index} ({device}): {source}")]
    OnDevice {
        /// Its position in the set.
        index: usize,
        /// Its name.
        device: String,
        /// What failed there.
        source: Box<Error>,
    },
    /// A launch configuration exceeds the device limits or is malformed.
    #[error("invalid launch: {reason}")]
    Launch {
        /// What is wrong, with the offending numbers and the limit.
        reason: String,
    },
    /// A device buffer that cannot be allocated: its size in bytes overflows, exceeds the
    /// device's largest single allocation, or the driver refused it.
    #[error("cannot allocate a buffer of {len} `{elem}` elements: {reason}")]
    Alloc {
        /// The number of elements asked for.
        len: usize,
        /// The OpenCL C element type.
        elem: &'static str,
        /// Why, with the device's limit where one applies.
        reason: String,
    },
    /// A buffer made by one [`Context`](crate::Context) bound to a kernel built by another.
    #[error(
        "kernel argument {index}: the buffer belongs to another context (device `{device}`) \
         than the kernel; a buffer can only be used with kernels built by the context that \
         made it: upload the data with the kernel's context"
    )]
    ForeignBuffer {
        /// The kernel argument index.
        index: u32,
        /// The device of the buffer's context.
        device: String,
    },
    /// A string handed to OpenCL contains a NUL byte.
    #[error("{what} contains a NUL byte")]
    NulByte {
        /// Which string, e.g. `kernel name`.
        what: &'static str,
    },
}

impl Error {
    /// Wraps an OpenCL error code returned by `call`.
    pub(crate) fn cl(call: &'static str) -> impl Fn(ClError) -> Error {
        move |e| Error::Cl { call, code: e.0 }
    }

    /// The launch error with the given reason.
    pub(crate) fn launch(reason: impl Into<String>) -> Error {
        Error::Launch {
            reason: reason.into(),
        }
    }
}

/// The source with right-aligned 1-based line numbers.
fn numbered(src: &str) -> String {
    let width = src.lines().count().max(1).to_string().len();
    let mut out = String::with_capacity(src.len() + src.lines().count() * (width + 3));
    for (i, line) in src.lines().enumerate() {
        // Writing to a String cannot fail.
        let _ = writeln!(out, "{:>width$} | {line}", i + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages() {
        let e = Error::ArgLength {
            arg: "x".into(),
            expected: 128,
            actual: 100,
        };
        assert_eq!(e.to_string(), "argument `x`: expected length 128, got 100");
        let e = Error::Build {
            log: "error: oops".into(),
            src: "a\nb".into(),
        };
        assert!(e.to_string().contains("error: oops"));
        assert!(e.to_string().contains("1 | a\n2 | b"));
        let e = Error::Cl {
            call: "clFinish",
            code: -5,
        };
        assert_eq!(
            e.to_string(),
            "OpenCL call clFinish failed: CL_OUT_OF_RESOURCES (-5)"
        );
    }
}
