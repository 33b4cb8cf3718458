//! The user's guide (`docs/guide/`, an mdBook) as doc-tests: each chapter is the
//! documentation of one module below, so `cargo test -p guide-tests --doc` compiles and runs
//! every ```` ```rust ```` block of the guide on the default OpenCL device (`LIFT_DEVICE`),
//! checks that every ```` ```rust,compile_fail ```` block is refused by the compiler, and the
//! guide cannot fall behind the code. Blocks tagged `sh`, `text` or `c` are not compiled.
//!
//! A chapter added to `docs/guide/src/SUMMARY.md` gets a module here.

#![allow(rustdoc::broken_intra_doc_links)]
#![warn(missing_docs)]

/// Links to the chapters are relative to the book, not to this crate.
macro_rules! chapter {
    ($name:ident, $file:literal) => {
        #[doc = include_str!(concat!("../../docs/guide/src/", $file))]
        pub mod $name {}
    };
}

chapter!(introduction, "introduction.md");
chapter!(install, "install.md");
chapter!(first_kernel, "first-kernel.md");
chapter!(language, "language.md");
chapter!(errors, "errors.md");
chapter!(running, "running.md");
chapter!(inspecting, "inspecting.md");
chapter!(tuning, "tuning.md");
chapter!(cli, "cli.md");
chapter!(stencils, "stencils.md");
chapter!(performance, "performance.md");
chapter!(devices, "devices.md");
