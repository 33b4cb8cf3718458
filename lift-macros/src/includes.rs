//! OpenCL C helper files pulled into a `lift!` block with `include!("file.cl");`, resolved
//! (with their own `#include`s and `#pragma once`) by `ocl-include`, relative to the
//! directory of the crate that uses `lift!`.

use lift_core::{CompileError, ErrorKind};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use std::path::{Path, PathBuf};

/// The helpers' text, to put before the generated functions, and one `include_bytes!` per
/// file so that Cargo rebuilds when a helper changes.
pub fn resolve(includes: &[(String, Span)]) -> Result<(String, Vec<TokenStream>), CompileError> {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."));
    let mut text = String::new();
    let mut tracked = Vec::new();
    for (file, span) in includes {
        let fail = |what: String| {
            CompileError::new(
                ErrorKind::UnknownName,
                *span,
                format!("include!: {file}: {what}"),
            )
        };
        if !dir.join(file).is_file() {
            return Err(fail(
                "file not found (paths are relative to the crate's directory)".into(),
            ));
        }
        let source = ocl_include::source::Fs::builder()
            .include_dir(&dir)
            .map_err(|e| fail(e.to_string()))?
            .build();
        let parser = ocl_include::Parser::builder().add_source(source).build();
        let node = parser
            .parse(Path::new(file))
            .map_err(|e| fail(e.to_string()))?;
        text.push_str(&node.collect().0);
        text.push('\n');
        let full = dir.join(file).to_string_lossy().into_owned();
        tracked.push(quote! { const _: &[u8] = include_bytes!(#full); });
    }
    Ok((text, tracked))
}
