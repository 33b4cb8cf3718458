//! Code shared by the example binaries (`src/bin/*.rs`).

pub mod common;
