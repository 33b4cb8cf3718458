//! The launcher of a kernel on a set of devices (SPEC section 6): `Name::new_on(&devices)`
//! gives a `NameOn` whose `run` takes the arguments of `Name::run` and runs the kernel split
//! over the devices by `lift_runtime::SplitKernel::run_typed`: the user's typed slices
//! (`lift_runtime::HostArg`), each device's rows uploaded from sub-slices of them, the result
//! rows read into the typed result. Made for kernels whose parameters and result are scalars
//! or arrays of scalars (no tuples, no capped result).

use crate::launcher::{host_type, Conv};
use lift_core::ir::Kernel;
use lift_core::typeck::KernelInfo;
use lift_core::types::Type;
use proc_macro2::{Span, TokenStream};
use quote::format_ident;

/// `NameOn` and `Name::new_on`, or nothing where a parameter or the result is not plain.
pub fn item(k: &Kernel, info: &KernelInfo) -> TokenStream {
    let plain = |ty: &Type| {
        !matches!(ty, Type::Capped(..))
            && host_type(ty, "", Span::call_site()).is_ok_and(|h| !matches!(h.conv, Conv::Tuple(_)))
    };
    if !k.params.iter().all(|p| plain(&p.ty)) || !plain(&info.result) {
        return q!();
    }
    let name = format_ident!("{}", k.name, span = k.span);
    let on = format_ident!("{}On", k.name, span = k.span);
    let vis = if k.public { q!(pub) } else { q!() };
    let kernel = &k.name;
    let sizes: Vec<_> = k
        .sizes
        .iter()
        .map(|(s, sp)| format_ident!("{}", s, span = *sp))
        .collect();
    let mut params = Vec::new();
    let mut hosts = Vec::new();
    for p in &k.params {
        let id = format_ident!("{}", p.name, span = p.span);
        let Ok(h) = host_type(&p.ty, "", p.span) else {
            return q!();
        };
        let host = h.host;
        match h.len {
            Some(_) => {
                params.push(q!(#id: &[#host]));
                hosts.push(q!(::lift_runtime::HostArg::array(#id)));
            }
            None => {
                params.push(q!(#id: #host));
                hosts.push(q!(::lift_runtime::HostArg::scalar(#id)));
            }
        }
    }
    let Ok(out) = host_type(&info.result, "", k.ret_span) else {
        return q!();
    };
    let out_host = out.host;
    let (ret, convert) = match out.len {
        Some(_) => (q!(::std::vec::Vec<#out_host>), q!(Ok(__lift_v))),
        None => (
            q!(#out_host),
            q!(::lift_runtime::__private::one_of(__lift_v)),
        ),
    };
    let doc = format!(
        "[`{}`] on a set of devices ([`{}::new_on`]).",
        k.name, k.name
    );
    q! {
        #[doc = #doc]
        #vis struct #on {
            split: ::lift_runtime::SplitKernel,
        }

        #[allow(non_snake_case, clippy::too_many_arguments)]
        impl #name {
            /// This kernel on every device of `devices` (SPEC section 6): `run` takes the
            /// same arguments and returns the same result, the rows of the result split
            /// over the devices as the program allows (see `placement`).
            pub fn new_on(devices: &::lift_runtime::Devices) -> ::core::result::Result<#on, ::lift_runtime::Error> {
                Ok(#on { split: ::lift_runtime::SplitKernel::new(devices, Self::LIFT, #kernel)? })
            }
        }

        #[allow(non_snake_case, clippy::too_many_arguments)]
        impl #on {
            /// Uploads each device's part of the arguments straight from sub-slices of
            /// them (its rows, halo included), launches on every device, waits and reads
            /// each device's rows straight into the result (as `run` on one device); no
            /// interpreter value is built for an array. A device that fails is
            /// `Error::OnDevice` naming it.
            pub fn run(&self, #(#sizes: usize,)* #(#params),*) -> ::core::result::Result<#ret, ::lift_runtime::Error> {
                let __lift_v: ::std::vec::Vec<#out_host> = self.split.run_typed(&[#(#sizes),*], &[#(#hosts),*])?;
                #convert
            }

            /// This kernel with the rows split in proportion to `weights`, one positive
            /// number per device (`SplitKernel::with_weights`).
            pub fn with_weights(self, weights: &[f64]) -> ::core::result::Result<Self, ::lift_runtime::Error> {
                Ok(#on { split: self.split.with_weights(weights)? })
            }

            /// This kernel with the rows split in proportion to the devices' speed, measured
            /// on these sizes and arguments (`SplitKernel::measure_weights`: every device
            /// timed on the same probe; the weights are kept for every size).
            pub fn with_measured_weights(self, #(#sizes: usize,)* #(#params),*) -> ::core::result::Result<Self, ::lift_runtime::Error> {
                Ok(#on { split: self.split.with_measured_weights(&[#(#sizes),*], &[#(#hosts),*])? })
            }

            /// Where the kernel runs at these sizes: the rows per device, or one device
            /// and why.
            pub fn placement(&self, #(#sizes: usize),*) -> ::core::result::Result<::lift_runtime::Placement, ::lift_runtime::Error> {
                self.split.placement(&[#(#sizes),*])
            }
        }
    }
}
