//! Symbolic sizes as Rust expressions for the generated launcher.
//!
//! Every size variable is an `i64` local named `__lift_size_<NAME>`; every operation is a
//! checked call into `lift_runtime::__private`, so a division by zero or an overflow in a size
//! is an `Err`, never a panic, and the success path does no allocation.

use lift_core::arith::{CmpOp, Nat};
use proc_macro2::TokenStream;
use quote::format_ident;

/// The local holding the value of size variable `name`.
pub fn size_local(name: &str) -> proc_macro2::Ident {
    format_ident!(
        "__lift_size_{}",
        name,
        span = proc_macro2::Span::mixed_site()
    )
}

/// A Rust expression of type `Result<i64, lift_runtime::Error>`-propagating (`?`) form that
/// evaluates `n`.
pub fn eval(n: &Nat) -> TokenStream {
    let p = q!(::lift_runtime::__private);
    match n {
        Nat::Cst(c) => q!(#c),
        Nat::Var(v) => {
            let id = size_local(&v.name);
            q!(#id)
        }
        Nat::Sum(ts) => fold(ts, q!(#p::add)),
        Nat::Prod(ts) => fold(ts, q!(#p::mul)),
        Nat::Div(a, b) => binary(q!(#p::div), a, b),
        Nat::Mod(a, b) => binary(q!(#p::rem), a, b),
        Nat::Pow(a, b) => binary(q!(#p::pow), a, b),
        Nat::Min(a, b) => {
            let (a, b) = (eval(a), eval(b));
            q!(::core::cmp::min(#a, #b))
        }
        Nat::Max(a, b) => {
            let (a, b) = (eval(a), eval(b));
            q!(::core::cmp::max(#a, #b))
        }
        Nat::Ite(c, a, b) => {
            let (l, r) = (eval(&c.lhs), eval(&c.rhs));
            let op = match c.op {
                CmpOp::Lt => q!(<),
                CmpOp::Le => q!(<=),
                CmpOp::Gt => q!(>),
                CmpOp::Ge => q!(>=),
                CmpOp::Eq => q!(==),
                CmpOp::Ne => q!(!=),
            };
            let (a, b) = (eval(a), eval(b));
            q!(if #l #op #r { #a } else { #b })
        }
    }
}

fn binary(f: TokenStream, a: &Nat, b: &Nat) -> TokenStream {
    let (a, b) = (eval(a), eval(b));
    q!(#f(#a, #b)?)
}

fn fold(ts: &[Nat], f: TokenStream) -> TokenStream {
    let mut it = ts.iter().map(eval);
    let first = it.next().unwrap_or_else(|| q!(0i64));
    it.fold(first, |acc, t| q!(#f(#acc, #t)?))
}
