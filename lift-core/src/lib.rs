//! `lift-core`: the lift-rs compiler as a library.
//!
//! The pipeline, one module per stage:
//!
//! * [`parse`]: `lift!` tokens (or a string body) to the [`ir`] syntax tree;
//! * [`arith`]: symbolic sizes ([`arith::Nat`]) and their simplifier;
//! * [`types`]: scalar, vector, tuple and array types with symbolic sizes;
//! * [`prim`]: every primitive, declared once in one table;
//! * [`typeck`]: the type checker (sizes, nesting rules, launch-time preconditions);
//! * [`interp`]: the reference interpreter, the oracle of every test;
//! * [`rewrite`]: rewrite rules as values and ELEVATE-style strategies;
//! * [`explore`]: normalisation and the derivation of low-level candidates (the default
//!   lowering, [`explore::lower`], among them);
//! * [`analysis`]: questions about programs several stages ask (views, pure data);
//! * [`codegen`]: OpenCL C generation from a low-level program;
//! * [`device`]: what the explorer and the code generator assume of the device;
//! * [`driver`]: sequences the stages for one kernel (points, normalisation, exploration,
//!   code generation).
//!
//! No OpenCL dependency: this crate runs inside the proc macro and at run time.

#![warn(missing_docs)]

pub mod analysis;
pub mod arith;
pub mod cnames;
pub mod codegen;
pub mod device;
pub mod driver;
pub mod error;
pub mod explore;
pub mod interp;
pub mod ir;
pub mod parse;
pub mod partition;
pub mod prim;
pub mod print;
pub mod rewrite;
pub mod typeck;
pub mod types;

pub use error::{CompileError, ErrorKind};

/// The compiler's identity: its version and a hash of its sources. Everything a compiler
/// derives and someone caches (the runtime's explored candidates) is keyed by it.
pub const FINGERPRINT: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    "-",
    env!("LIFT_CORE_FINGERPRINT")
);
