//! Code shared by the example binaries (`examples/*.rs`).

#![warn(missing_docs)]

pub mod common;
