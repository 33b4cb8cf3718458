//! The `lift!` procedural macro: a thin shell over `lift-core`.
//!
//! It parses the block, type-checks it and turns every error into a spanned compile error.
//! Users reach it through `lift_runtime::lift`.

use lift_core::ir::{Kernel, Program};
use lift_core::typeck::KernelInfo;
use proc_macro::TokenStream;
use quote::{format_ident, quote};

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
    let items = prog
        .kernels
        .iter()
        .zip(&infos)
        .map(|(k, info)| kernel_item(&prog, k, info));
    Ok(quote! { #(#items)* })
}

/// The items generated for one kernel.
fn kernel_item(prog: &Program, k: &Kernel, info: &KernelInfo) -> proc_macro2::TokenStream {
    let name = format_ident!("{}", k.name, span = k.span);
    let vis = if k.public { quote!(pub) } else { quote!() };
    let docs = &k.docs;
    let standalone = Program {
        funs: prog.funs.clone(),
        kernels: vec![k.clone()],
    };
    let text = lift_core::print::program(&standalone);
    let signature = format!("{}", info.result);
    let preconditions: Vec<String> = info.preconditions.iter().map(|p| p.to_string()).collect();
    quote! {
        #(#[doc = #docs])*
        #vis struct #name;

        impl #name {
            /// The kernel with the user functions it may call, as `lift-core` prints it after
            /// type checking; `lift_runtime::core::parse::parse_program_str` reads it back.
            pub const LIFT: &'static str = #text;
            /// The inferred result type.
            pub const RESULT_TYPE: &'static str = #signature;
            /// Size conditions checked at launch time.
            pub const PRECONDITIONS: &'static [&'static str] = &[#(#preconditions),*];
        }
    }
}
