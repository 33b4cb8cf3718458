//! Compile errors with spans: what the parser and the type checker report.

use proc_macro2::Span;
use std::fmt;

/// The category of a compile error (SPEC section 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Malformed syntax.
    Syntax,
    /// A name that is not a parameter, variable, user function or primitive.
    UnknownName,
    /// A primitive or function applied to the wrong number of arguments.
    WrongArity,
    /// `map`, `reduce`, ... applied to something that is not an array.
    NotAnArray,
    /// Arrays whose lengths provably differ (`zip`).
    LengthMismatch,
    /// `x.i` with `i` out of range.
    TupleIndex,
    /// The declared result type differs from the inferred one.
    ResultMismatch,
    /// Any other pair of types that should agree and do not.
    TypeMismatch,
    /// `split`/`slide`/`as_vector`/`stride` divisibility provably violated.
    Divisibility,
    /// A zero size, step or factor.
    ZeroSize,
    /// A constant index out of bounds, or another size bound violated.
    OutOfBounds,
    /// A low-level nesting rule broken.
    Nesting,
    /// A construct outside the supported user-function subset.
    Unsupported,
}

/// A compile error: its kind, the span of the offending sub-expression, and the message.
///
/// Messages follow `primitive: what went wrong: the types or sizes involved`.
#[derive(Clone, Debug)]
pub struct CompileError {
    /// The error category.
    pub kind: ErrorKind,
    /// Where the offending sub-expression is.
    pub span: Span,
    /// The human-readable message.
    pub message: String,
}

impl CompileError {
    /// Builds an error.
    pub fn new(kind: ErrorKind, span: Span, message: impl Into<String>) -> CompileError {
        CompileError {
            kind,
            span,
            message: message.into(),
        }
    }

    /// Converts to a `syn::Error` for the proc macro.
    pub fn to_syn(&self) -> syn::Error {
        syn::Error::new(self.span, &self.message)
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CompileError {}

impl From<syn::Error> for CompileError {
    fn from(e: syn::Error) -> CompileError {
        CompileError::new(ErrorKind::Syntax, e.span(), e.to_string())
    }
}

/// Result alias for compile-time stages.
pub type CResult<T> = Result<T, CompileError>;
