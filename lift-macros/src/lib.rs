//! The `lift!` procedural macro: a thin shell over `lift-core`.
//!
//! It parses the block, type-checks it, compiles the default configuration of every kernel
//! through `lift_core::driver::compile_default` (rewrite points, normalisation, the explorer
//! up to the first candidate that applies to every size, code generation of that one) and
//! turns every error into a spanned compile error. Everything else the explorer finds is
//! derived at run time, once (`lift_runtime::explored`): the generated API depends only on
//! the kernel's declaration (SPEC sections 3 and 5).
//! Users reach it through `lift_runtime::lift`.

#![warn(missing_docs)]

/// `quote!` with every identifier it writes itself spanned at `Span::mixed_site()`: the
/// launcher's own local variables and parameters (`out`, `candidate`, `__lift_len`, the
/// size locals) are hygienic, so no kernel parameter or size variable of the user's, whatever
/// its name, can meet one of them. Items, fields and methods still resolve at the call site.
macro_rules! q {
    ($($t:tt)*) => { ::quote::quote_spanned!(::proc_macro2::Span::mixed_site()=> $($t)*) };
}

mod includes;
mod launcher;
mod on_devices;
mod sizes;

use proc_macro::TokenStream;
use quote::quote;

/// Compiles a block of lift-rs user functions and kernels (see SPEC section 2).
#[proc_macro]
pub fn lift(input: TokenStream) -> TokenStream {
    expand(input.into())
        .unwrap_or_else(|e| e.to_syn().to_compile_error())
        .into()
}

fn expand(
    input: proc_macro2::TokenStream,
) -> Result<proc_macro2::TokenStream, lift_core::CompileError> {
    let mut prog = lift_core::parse::parse_program(input)?;
    let infos = lift_core::typeck::check_program(&mut prog)?;
    let (helpers, tracked) = includes::resolve(&prog.includes)?;
    let mut items = tracked;
    for (k, info) in prog.kernels.iter().zip(&infos) {
        let started = std::time::Instant::now();
        let compiled = lift_core::driver::compile_default(&prog, &k.name).map_err(|e| {
            lift_core::CompileError::new(
                lift_core::ErrorKind::Unsupported,
                k.span,
                format!("kernel `{}`: code generation: {e}", k.name),
            )
        })?;
        items.push(launcher::kernel_item(&prog, k, info, &compiled, &helpers)?);
        log_expansion(&k.name, started.elapsed());
        items.extend(
            compiled
                .warnings
                .iter()
                .enumerate()
                .map(|(i, w)| point_warning(&k.name, i, w)),
        );
    }
    Ok(quote! { #(#items)* })
}

/// With `LIFT_EXPAND_LOG=file`, appends `kernel<TAB>microseconds` for each kernel expanded
/// (what `bench/compile_time.sh` reports); never an error.
fn log_expansion(kernel: &str, took: std::time::Duration) {
    use std::io::Write as _;
    let Some(path) = std::env::var_os("LIFT_EXPAND_LOG") else {
        return;
    };
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = writeln!(f, "{kernel}\t{}", took.as_micros());
    }
}

/// A warning for a dropped rewrite point: the use of a deprecated constant at the point's span
/// (stable proc macros have no other way to warn).
fn point_warning(
    kernel: &str,
    i: usize,
    w: &lift_core::rewrite::points::PointWarning,
) -> proc_macro2::TokenStream {
    let msg = &w.message;
    let id = quote::format_ident!("lift_rewrite_point_dropped_{}_{}", kernel, i, span = w.span);
    quote::quote_spanned! {w.span=>
        #[deprecated(note = #msg)]
        #[allow(non_upper_case_globals)]
        const #id: () = ();
        const _: () = #id;
    }
}
