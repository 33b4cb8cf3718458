//! The Rust API generated for one kernel (SPEC section 3): the struct with `SOURCE`, `new`,
//! `run` and a zero-overhead `launch`.

use crate::sizes::{eval, size_local};
use lift_core::codegen::KernelArg;
use lift_core::driver::Compiled;
use lift_core::ir::{Kernel, Program};
use lift_core::typeck::{Cond, KernelInfo};
use lift_core::types::{ScalarType, Type};
use lift_core::{CompileError, ErrorKind};
use proc_macro2::{Span, TokenStream};
use quote::format_ident;

/// How a kernel parameter or the result crosses between host and device.
struct HostType {
    /// The host element type (`f32`, `half::f16`, `bool`, `(f32, f32)`, ...).
    host: TokenStream,
    /// The element type of the device buffer (`u8` for `bool`, the field type for tuples).
    device: TokenStream,
    /// For arrays: the number of host elements, as a size expression; `None` for scalars.
    len: Option<TokenStream>,
    /// The device scalar type.
    scalar: ScalarType,
    /// How host elements map to device elements.
    conv: Conv,
}

/// The element conversion between host slices and device buffers.
enum Conv {
    /// The same type on both sides.
    Plain,
    /// `bool` on the host, `uchar` on the device.
    Bool,
    /// A tuple of this many fields of one scalar type, stored field by field (as the
    /// generated C structs are laid out).
    Tuple(usize),
}

impl HostType {
    /// Device elements per host element.
    fn fields(&self) -> usize {
        match self.conv {
            Conv::Tuple(k) => k,
            _ => 1,
        }
    }

    /// Uploads the host slice `id` (in `run`).
    fn upload(&self, id: &proc_macro2::Ident) -> TokenStream {
        match self.conv {
            Conv::Plain => q!(self.ctx.upload(#id)?),
            Conv::Bool => q!(self.ctx.upload(
                &#id.iter().map(|&b| u8::from(b)).collect::<::std::vec::Vec<u8>>()
            )?),
            Conv::Tuple(k) => {
                let fields = (0..k).map(syn::Index::from);
                q!(self.ctx.upload(
                    &#id.iter().flat_map(|t| [#(t.#fields),*]).collect::<::std::vec::Vec<_>>()
                )?)
            }
        }
    }

    /// Converts the downloaded device elements `v` (a `Vec`) to host elements.
    fn to_host(&self, v: TokenStream) -> TokenStream {
        match self.conv {
            Conv::Plain => v,
            Conv::Bool => q!(#v.into_iter().map(|b| b != 0).collect::<::std::vec::Vec<bool>>()),
            Conv::Tuple(k) => {
                let fields = (0..k).map(|i| q!(c[#i]));
                q!(#v.chunks_exact(#k).map(|c| (#(#fields),*)).collect::<::std::vec::Vec<_>>())
            }
        }
    }
}

fn unsupported(span: Span, msg: String) -> CompileError {
    CompileError::new(ErrorKind::Unsupported, span, msg)
}

fn host_elem(s: ScalarType) -> TokenStream {
    match s {
        ScalarType::F16 => q!(::lift_runtime::half::f16),
        ScalarType::F32 => q!(f32),
        ScalarType::F64 => q!(f64),
        ScalarType::I32 => q!(i32),
        ScalarType::U32 => q!(u32),
        ScalarType::I64 => q!(i64),
        ScalarType::U64 => q!(u64),
        ScalarType::Bool => q!(bool),
    }
}

/// The host view of a parameter or result type.
fn host_type(ty: &Type, what: &str, span: Span) -> Result<HostType, CompileError> {
    let dims = ty.dims();
    let (scalar, width, conv) = match ty.base() {
        Type::Scalar(ScalarType::Bool) => (ScalarType::Bool, 1i64, Conv::Bool),
        Type::Scalar(s) => (*s, 1i64, Conv::Plain),
        Type::Vector(s, w) => (*s, i64::from(*w), Conv::Plain),
        Type::Tuple(ts) => match ts.first() {
            Some(Type::Scalar(s))
                if !matches!(s, ScalarType::Bool | ScalarType::F16)
                    && ts.iter().all(|t| t == &Type::Scalar(*s)) =>
            {
                (*s, 1, Conv::Tuple(ts.len()))
            }
            _ => return Err(unsupported(
                span,
                format!("launcher: {what}: tuples need fields of one number type (not bool or f16), found {}; pass the components as separate arrays and zip them in the kernel", ty.base()),
            )),
        },
        t => {
            return Err(unsupported(
                span,
                format!("launcher: {what} of type {t} is not supported yet; pass its components as separate arrays and zip them in the kernel"),
            ))
        }
    };
    let len = (!dims.is_empty()).then(|| {
        let n = dims
            .iter()
            .fold(lift_core::arith::Nat::cst(width), |acc, d| acc * d.clone());
        eval(&n)
    });
    let device = match conv {
        Conv::Bool => q!(u8),
        _ => host_elem(scalar),
    };
    let host = match conv {
        Conv::Tuple(k) => {
            let e = vec![host_elem(scalar); k];
            q!((#(#e),*))
        }
        _ => host_elem(scalar),
    };
    Ok(HostType {
        host,
        device,
        len,
        scalar,
        conv,
    })
}

/// Host elements per element of the capped array `ty` (its inner lengths, times the width of
/// a vector element).
fn capped_elem_len(ty: &Type) -> lift_core::arith::Nat {
    let width = match ty.base() {
        Type::Vector(_, w) => i64::from(*w),
        _ => 1,
    };
    ty.dims()
        .into_iter()
        .skip(1)
        .fold(lift_core::arith::Nat::cst(width), |acc, d| acc * d)
}

/// The value passed to `set_scalar` for a scalar parameter (`f16` as float, bool as uchar).
fn device_scalar(id: &proc_macro2::Ident, s: ScalarType) -> TokenStream {
    match s {
        ScalarType::F16 => q!(#id.to_f32()),
        ScalarType::Bool => q!(u8::from(#id)),
        _ => q!(#id),
    }
}

/// A precondition as a Rust `bool` expression over the checked size locals (an arithmetic
/// error counts as false).
fn cond_holds(p: &lift_core::typeck::Precondition) -> TokenStream {
    let test = match &p.cond {
        Cond::Divisible(n, d) => {
            let (n, d) = (eval(n), eval(d));
            q!({ let __lift_d = #d; __lift_d != 0 && ::lift_runtime::__private::rem(#n, __lift_d)? == 0 })
        }
        Cond::Le(a, b) => {
            let (a, b) = (eval(a), eval(b));
            q!((#a <= #b))
        }
    };
    q!((|| -> ::core::result::Result<bool, ::lift_runtime::Error> { Ok(#test) })().unwrap_or(false))
}

/// The struct, constants and methods for kernel `k` with its compiled candidates.
pub fn kernel_item(
    prog: &Program,
    k: &Kernel,
    info: &KernelInfo,
    compiled: &Compiled,
    helpers: &str,
) -> Result<TokenStream, CompileError> {
    let name = format_ident!("{}", k.name, span = k.span);
    let vis = if k.public { q!(pub) } else { q!() };
    let docs = &k.docs;
    let standalone = Program {
        funs: prog.funs.clone(),
        kernels: vec![k.clone()],
        includes: Vec::new(),
    };
    let lift_text = lift_core::print::program(&standalone);
    let result_type = info.result.to_string();
    let preconditions: Vec<String> = compiled
        .preconditions
        .iter()
        .map(|p| p.to_string())
        .collect();
    let cands = &compiled.candidates;
    let n_cands = cands.len();
    // The default configuration: the first candidate without conditions of its own.
    let default = cands
        .iter()
        .position(|c| c.conditions.is_empty())
        .unwrap_or(n_cands - 1);
    let sources: Vec<String> = cands
        .iter()
        .map(|c| {
            if helpers.is_empty() {
                c.generated.source.clone()
            } else {
                format!("{helpers}\n{}", c.generated.source)
            }
        })
        .collect();
    let source = &sources[default];
    let lowered = &cands[default].generated.lowered;
    let cand_names: Vec<&String> = cands.iter().map(|c| &c.name).collect();
    let cand_lowered: Vec<&String> = cands.iter().map(|c| &c.generated.lowered).collect();
    let cand_conditions: Vec<String> = cands
        .iter()
        .map(|c| {
            c.conditions
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        })
        .collect();
    let cand_params = cands.iter().map(|c| {
        let ps = c.params.iter().map(|(n, v)| q!((#n, #v)));
        q!(&[#(#ps),*])
    });

    let size_names: Vec<&str> = k.sizes.iter().map(|(s, _)| s.as_str()).collect();
    let size_params: Vec<_> = size_names.iter().map(|s| format_ident!("{}", s)).collect();
    let size_locals: Vec<_> = size_names.iter().map(|s| size_local(s)).collect();
    let n_sizes = size_names.len();
    let checks = compiled.preconditions.iter().map(|p| {
        let origin = format!("{} ({})", p.origin, p.reason);
        match &p.cond {
            Cond::Divisible(n, d) => {
                let (what, expected) = (n.to_string(), d.to_string());
                let (n, d) = (eval(n), eval(d));
                q!(::lift_runtime::__private::check_divisible(#what, #expected, #origin, #n, #d)?;)
            }
            Cond::Le(a, b) => {
                let (what, bound) = (a.to_string(), b.to_string());
                let (a, b) = (eval(a), eval(b));
                q!(::lift_runtime::__private::check_le(#what, #bound, #origin, #a, #b)?;)
            }
        }
    });

    // Parameters: host types, `run` arguments, `launch` arguments, upload and length checks.
    let mut run_params = Vec::new();
    let mut launch_params = Vec::new();
    let mut run_checks = Vec::new();
    let mut launch_checks = Vec::new();
    let mut uploads = Vec::new();
    let mut forward = Vec::new();
    let mut launch_forward = Vec::new();
    let mut params = Vec::new();
    for p in &k.params {
        let id = format_ident!("{}", p.name, span = p.span);
        let ht = host_type(&p.ty, &format!("parameter `{}`", p.name), p.span)?;
        let (host, device) = (&ht.host, &ht.device);
        let pname = &p.name;
        match &ht.len {
            Some(len) => {
                run_params.push(q!(#id: &[#host]));
                launch_params.push(q!(#id: &::lift_runtime::Buffer<#device>));
                let fields = ht.fields();
                for (checks, per) in [(&mut run_checks, 1usize), (&mut launch_checks, fields)] {
                    checks.push(q! {
                        let __lift_len = ::lift_runtime::__private::to_usize(#len)? * #per;
                        if #id.len() != __lift_len {
                            return Err(::lift_runtime::Error::ArgLength { arg: #pname.into(), expected: __lift_len, actual: #id.len() });
                        }
                    });
                }
                for c in info.index_checks.iter().filter(|c| c.param == p.name) {
                    let len = eval(&c.len);
                    run_checks
                        .push(q!(::lift_runtime::__private::check_indices(#pname, #len, #id)?;));
                }
                let upload = ht.upload(&id);
                uploads.push(q!(let #id = #upload;));
                forward.push(q!(&#id));
            }
            None if !matches!(ht.conv, Conv::Tuple(_)) => {
                run_params.push(q!(#id: #host));
                launch_params.push(q!(#id: #host));
                forward.push(q!(#id));
            }
            None => {
                return Err(unsupported(
                    p.span,
                    format!(
                        "launcher: scalar parameter `{}` of type {} is not supported",
                        p.name, p.ty
                    ),
                ))
            }
        }
        launch_forward.push(q!(#id));
        params.push((id, ht));
    }

    let out = host_type(&info.result, "the result", k.ret_span)?;
    let (out_host, out_elem) = (&out.host, &out.device);
    let out_fields = out.fields();
    let out_len = out.len.clone().unwrap_or_else(|| q!(1i64));
    let converted = out.to_host(q!(__lift_out.download()?));
    let (run_ret, download) = match out.len {
        Some(_) if matches!(out.conv, Conv::Plain) => {
            (q!(::std::vec::Vec<#out_host>), q!(__lift_out.download()))
        }
        Some(_) => (q!(::std::vec::Vec<#out_host>), q!(Ok(#converted))),
        None => (
            q!(#out_host),
            q!(#converted
            .pop()
            .ok_or(::lift_runtime::Error::Launch {
                reason: "empty result buffer".into()
            })),
        ),
    };

    // Temporaries: a scratch struct (every candidate's buffers) allocated once, reused by
    // `launch`.
    let scratch_name = format_ident!("{}Scratch", k.name);
    let has_scratch = cands.iter().any(|c| !c.generated.temporaries.is_empty());
    let scratch_param = has_scratch.then(|| q!(, scratch: &#scratch_name));
    let scratch_arg = has_scratch.then(|| q!(, &__lift_scratch));
    let scratch_fwd = has_scratch.then(|| q!(, scratch));
    let tune_scratch_arg = has_scratch.then(|| q!(, __lift_scratch));

    // A capped result (`filter_seq`): `out` holds its capacity and a one-element `count`
    // buffer receives its length; `run` returns that many elements.
    let capped = matches!(info.result, Type::Capped(..));
    let count_param = capped.then(|| q!(, count: &::lift_runtime::Buffer<i32>));
    let count_arg = capped.then(|| q!(, &__lift_count));
    let count_fwd = capped.then(|| q!(, count));
    let count_alloc = capped.then(|| q!(let __lift_count = self.ctx.alloc::<i32>(1)?;));
    let count_check = capped.then(|| {
        q! {
            if count.len() != 1 {
                return Err(::lift_runtime::Error::ArgLength { arg: "count".into(), expected: 1, actual: count.len() });
            }
        }
    });
    let download = if capped {
        let per = eval(&capped_elem_len(&info.result));
        q! {
            let __lift_kept = ::lift_runtime::__private::to_usize(i64::from(__lift_count.download()?[0]))?;
            let mut __lift_v: ::std::vec::Vec<#out_host> = (#download)?;
            __lift_v.truncate(__lift_kept * ::lift_runtime::__private::to_usize(#per)?);
            Ok(__lift_v)
        }
    } else {
        download
    };
    let scratch_alloc =
        has_scratch.then(|| q!(let __lift_scratch = self.scratch(#(#size_params),*)?;));
    // The tuner times candidates one after another, each with a scratch of its own (the
    // previous one freed first), so that no candidate's temporaries are held for another.
    let tune_scratch_hold =
        has_scratch.then(|| q!(let mut __lift_held: Option<(usize, #scratch_name)> = None;));
    let tune_scratch_get = has_scratch.then(|| {
        q! {
            let __lift_scratch = match __lift_held.take() {
                Some((c, s)) if c == __lift_c => s,
                _ => self.scratch_for(__lift_c, #(#size_params),*)?,
            };
            let __lift_scratch = &__lift_held.insert((__lift_c, __lift_scratch)).1;
        }
    });
    // Before a launch: every temporary of the candidate in `scratch` is large enough for
    // these sizes (a scratch made for smaller sizes would be overrun).
    let scratch_checks = cands.iter().enumerate().map(|(ci, c)| {
        let checks = c.generated.temporaries.iter().enumerate().map(|(ti, t)| {
            let b = eval(&t.bytes);
            q! {
                let __lift_need = ::lift_runtime::__private::to_usize(#b)?;
                let __lift_have = scratch.bufs.get(#ti).map_or(0, |b| b.len());
                if __lift_have < __lift_need {
                    return Err(::lift_runtime::Error::ArgLength {
                        arg: format!("scratch (temporary {} of candidate `{}`, in bytes; make it with `scratch` at these sizes after any tuning, or `scratch_for` this candidate)", #ti, Self::CANDIDATES[#ci]),
                        expected: __lift_need,
                        actual: __lift_have,
                    });
                }
            }
        });
        q!(#ci => { #(#checks)* })
    });
    let scratch_check = has_scratch.then(|| q!(match candidate { #(#scratch_checks)* _ => {} }));
    // Per candidate: the bytes of each of its temporaries at these sizes (none where it does
    // not apply). Candidates run one at a time and share the buffers: temporary `i` of a
    // scratch serves temporary `i` of whichever candidate runs.
    let n_temps = cands
        .iter()
        .map(|c| c.generated.temporaries.len())
        .max()
        .unwrap_or(0);
    let needs_arms = cands.iter().enumerate().map(|(ci, c)| {
        let applies = c.conditions.iter().map(cond_holds);
        let needs = c.generated.temporaries.iter().enumerate().map(|(ti, t)| {
            let b = eval(&t.bytes);
            q!(__lift_need[#ti] = ::lift_runtime::__private::to_usize(#b)?;)
        });
        q!(#ci => if true #(&& #applies)* { #(#needs)* })
    });

    // Per candidate: whether it applies, what it needs of the device, and its enqueue block.
    let facts = cands.iter().map(|c| {
        let applies = c.conditions.iter().map(cond_holds);
        let g = &c.generated.kernels;
        let group = match g.iter().find_map(|k| k.local.as_ref()) {
            Some(l) => {
                let l = l.iter().map(|x| {
                    let x = eval(x);
                    q!(::lift_runtime::__private::to_usize(#x).unwrap_or(usize::MAX))
                });
                q!(Some(vec![#(#l),*]))
            }
            None => q!(None),
        };
        let lmem = g.iter().map(|k| eval(&k.local_mem_bytes));
        // The work-groups of the first kernel with a fixed work-group size.
        let groups = match g.iter().find(|k| k.local.is_some()) {
            Some(k) => {
                let per = k.global.iter().zip(k.local.iter().flatten()).map(|(gl, l)| {
                    let (gl, l) = (eval(gl), eval(l));
                    q!(::lift_runtime::__private::to_usize(#gl)?.div_ceil(::lift_runtime::__private::to_usize(#l)?.max(1)))
                });
                q!((|| -> ::core::result::Result<::core::option::Option<usize>, ::lift_runtime::Error> {
                    let __lift_dims: ::std::vec::Vec<usize> = vec![#(#per),*];
                    Ok(__lift_dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d)))
                })().ok().flatten())
            }
            None => q!(None),
        };
        let temps = c.generated.temporaries.iter().map(|t| eval(&t.bytes));
        q! {
            ::lift_runtime::select::CandidateFacts {
                temporaries: vec![#((|| -> ::core::result::Result<usize, ::lift_runtime::Error> { ::lift_runtime::__private::to_usize(#temps) })().unwrap_or(usize::MAX)),*],
                applies: true #(&& #applies)*,
                group: #group,
                groups: #groups,
                local_bytes: [#((|| -> ::core::result::Result<i64, ::lift_runtime::Error> { let __lift_b: i64 = #lmem; Ok(__lift_b) })().unwrap_or(i64::MAX)),*]
                    .into_iter().max().unwrap_or(0).max(0) as usize,
            }
        }
    });
    let extents = info.extents.iter().map(eval);
    // Per candidate: the scalar counts of its temporaries (the rest of what it indexes).
    let temp_extents = cands.iter().enumerate().map(|(ci, c)| {
        let t = c.generated.temporaries.iter().map(|t| eval(&t.scalars));
        q!(#ci => ::lift_runtime::__private::index64(&[#(#t),*]),)
    });
    let applies_arms = cands.iter().enumerate().map(|(ci, c)| {
        let applies = c.conditions.iter().map(cond_holds);
        q!(#ci => true #(&& #applies)*,)
    });
    let arms = cands.iter().enumerate().map(|(ci, c)| {
        let block = enqueue_block(&c.generated.kernels, &params);
        q!(#ci => { #block })
    });
    let cand_kernels = cands.iter().map(|c| {
        let names = c.generated.kernels.iter().map(|k| &k.name);
        q!(&[#(#names),*])
    });
    let unused_sizes = q!(#(let _ = #size_locals;)*);

    let temp_bytes = cands.iter().enumerate().map(|(ci, c)| {
        let b = c.generated.temporaries.iter().map(|t| eval(&t.bytes));
        q!(#ci => 0usize #(+ ::lift_runtime::__private::to_usize(#b)?)*,)
    });
    let scratch_item = has_scratch.then(|| {
        let doc = format!(
            "Global temporaries of [`{}`], allocated once by `scratch` and reused by `launch`.",
            k.name
        );
        q! {
            #[doc = #doc]
            #vis struct #scratch_name {
                bufs: ::std::vec::Vec<::lift_runtime::Buffer<u8>>,
            }

            impl #scratch_name {
                /// Device memory held, in bytes.
                pub fn bytes(&self) -> usize {
                    self.bufs.iter().map(|b| b.len()).sum()
                }
            }
        }
    });
    let scratch_fn = has_scratch.then(|| {
        q! {
            /// Allocates the global temporaries that `launch` needs for these sizes: those of
            /// the candidate it runs there ([`Self::candidate_for`]; after tuning changes that
            /// choice, make the scratch again).
            pub fn scratch(&self, #(#size_params: usize),*) -> ::core::result::Result<#scratch_name, ::lift_runtime::Error> {
                let __lift_sizes = Self::check_sizes(#(#size_params),*)?;
                let (__lift_c, _) = self.choose(__lift_sizes)?;
                self.alloc_scratch(Self::needs(__lift_c, __lift_sizes)?)
            }

            /// Allocates the global temporaries candidate `candidate` needs at these sizes (for
            /// `launch_candidate`; nothing if it does not apply there).
            pub fn scratch_for(&self, candidate: usize, #(#size_params: usize),*) -> ::core::result::Result<#scratch_name, ::lift_runtime::Error> {
                let __lift_sizes = Self::check_sizes(#(#size_params),*)?;
                if candidate >= #n_cands {
                    return Err(::lift_runtime::Error::ArgLength { arg: "candidate".into(), expected: #n_cands, actual: candidate });
                }
                self.alloc_scratch(Self::needs(candidate, __lift_sizes)?)
            }

            /// Allocates a scratch that serves every candidate applying at these sizes (each
            /// temporary as large as the largest need), for launching candidates side by side.
            pub fn scratch_all(&self, #(#size_params: usize),*) -> ::core::result::Result<#scratch_name, ::lift_runtime::Error> {
                let __lift_sizes = Self::check_sizes(#(#size_params),*)?;
                let mut __lift_most = [0usize; #n_temps];
                for __lift_c in 0..#n_cands {
                    for (m, n) in __lift_most.iter_mut().zip(Self::needs(__lift_c, __lift_sizes)?) {
                        *m = (*m).max(n);
                    }
                }
                self.alloc_scratch(__lift_most)
            }

            /// For checked sizes: the bytes of each temporary of candidate `c` (zeros where it
            /// does not apply).
            #[allow(unused_variables, clippy::nonminimal_bool)]
            fn needs(c: usize, [#(#size_locals),*]: [i64; #n_sizes]) -> ::core::result::Result<[usize; #n_temps], ::lift_runtime::Error> {
                let mut __lift_need = [0usize; #n_temps];
                match c {
                    #(#needs_arms)*
                    _ => {}
                }
                Ok(__lift_need)
            }

            fn alloc_scratch(&self, need: [usize; #n_temps]) -> ::core::result::Result<#scratch_name, ::lift_runtime::Error> {
                let bufs = need
                    .iter()
                    .map(|&b| self.ctx.alloc::<u8>(b.max(1)))
                    .collect::<::core::result::Result<_, _>>()?;
                Ok(#scratch_name { bufs })
            }

            /// The bytes of global temporaries candidate `candidate` uses at these sizes.
            pub fn temporary_bytes(&self, candidate: usize, #(#size_params: usize),*) -> ::core::result::Result<usize, ::lift_runtime::Error> {
                let [#(#size_locals),*] = Self::check_sizes(#(#size_params),*)?;
                #unused_sizes
                Ok(match candidate {
                    #(#temp_bytes)*
                    _ => return Err(::lift_runtime::Error::ArgLength { arg: "candidate".into(), expected: #n_cands, actual: candidate }),
                })
            }
        }
    });
    let kernel_name = &k.name;

    Ok(q! {
        #(#[doc = #docs])*
        #vis struct #name {
            ctx: ::lift_runtime::Context,
            /// The built kernels of each candidate, with 32-bit and with 64-bit indices.
            built: [[::std::sync::OnceLock<::std::vec::Vec<::lift_runtime::KernelHandle>>; 2]; #n_cands],
            /// The choice per sizes: the candidate, and whether it runs built for the sizes.
            choices: ::std::sync::Mutex<::std::collections::HashMap<[i64; #n_sizes], (usize, bool)>>,
            /// The kernels of a candidate built for one set of sizes (and index width).
            special: ::std::sync::Mutex<::std::collections::HashMap<(usize, bool, [i64; #n_sizes]), ::std::vec::Vec<::lift_runtime::KernelHandle>>>,
            id: ::std::string::String,
        }

        #scratch_item

        #[allow(non_snake_case, clippy::too_many_arguments, clippy::identity_op, unused_parens)]
        impl #name {
            /// The OpenCL C program of the default configuration (the first candidate that
            /// applies to every size).
            pub const SOURCE: &'static str = #source;
            /// The low-level expression compiled into [`Self::SOURCE`].
            pub const LOWERED: &'static str = #lowered;
            /// The kernel with the user functions it calls, as written and type-checked.
            pub const LIFT: &'static str = #lift_text;
            /// The inferred result type.
            pub const RESULT_TYPE: &'static str = #result_type;
            /// Size conditions checked before every launch.
            pub const PRECONDITIONS: &'static [&'static str] = &[#(#preconditions),*];
            /// The candidates the explorer derived, in order of preference:
            /// `strategy(parameter=value, ...)`.
            pub const CANDIDATES: &'static [&'static str] = &[#(#cand_names),*];
            /// The tuning parameters of each candidate.
            pub const CANDIDATE_PARAMS: &'static [&'static [(&'static str, i64)]] = &[#(#cand_params),*];
            /// The OpenCL C program of each candidate.
            pub const CANDIDATE_SOURCES: &'static [&'static str] = &[#(#sources),*];
            /// The low-level expression of each candidate.
            pub const CANDIDATE_LOWERED: &'static [&'static str] = &[#(#cand_lowered),*];
            /// The conditions under which each candidate applies (`; `-separated, empty for
            /// every size).
            pub const CANDIDATE_CONDITIONS: &'static [&'static str] = &[#(#cand_conditions),*];
            const CANDIDATE_KERNELS: &'static [&'static [&'static str]] = &[#(#cand_kernels),*];

            /// Builds the default configuration on `ctx`'s device (builds are cached per
            /// context); the other candidates are built the first time they are chosen.
            pub fn new(ctx: &::lift_runtime::Context) -> ::core::result::Result<Self, ::lift_runtime::Error> {
                let this = Self {
                    ctx: ctx.clone(),
                    built: ::core::array::from_fn(|_| [::std::sync::OnceLock::new(), ::std::sync::OnceLock::new()]),
                    choices: ::std::sync::Mutex::new(::std::collections::HashMap::new()),
                    special: ::std::sync::Mutex::new(::std::collections::HashMap::new()),
                    id: ::lift_runtime::__private::kernel_id(#kernel_name, Self::LIFT),
                };
                this.handles(#default, false)?;
                Ok(this)
            }

            /// The builds for sizes, locked, holding the kernels of candidate `c` built for
            /// `sizes` (every size variable a constant) with 64-bit indices (`wide`) or 32-bit
            /// ones (built on first use).
            #[allow(clippy::type_complexity)]
            fn special_handles(&self, c: usize, wide: bool, sizes: [i64; #n_sizes]) -> ::core::result::Result<::std::sync::MutexGuard<'_, ::std::collections::HashMap<(usize, bool, [i64; #n_sizes]), ::std::vec::Vec<::lift_runtime::KernelHandle>>>, ::lift_runtime::Error> {
                let mut __lift_map = self.special.lock().map_err(|_| ::lift_runtime::Error::Launch { reason: "a launch panicked while building this kernel".into() })?;
                if __lift_map.contains_key(&(c, wide, sizes)) {
                    return Ok(__lift_map);
                }
                let __lift_opts = format!(
                    "{}{}",
                    ::lift_runtime::__private::index_options(wide),
                    ::lift_runtime::tune::size_options([#(#size_names),*].into_iter().zip(sizes))
                );
                let program = self.ctx.build(Self::CANDIDATE_SOURCES[c], &__lift_opts)?;
                let handles = Self::CANDIDATE_KERNELS[c]
                    .iter()
                    .map(|k| program.kernel(k))
                    .collect::<::core::result::Result<::std::vec::Vec<_>, _>>()?;
                __lift_map.insert((c, wide, sizes), handles);
                Ok(__lift_map)
            }

            /// The kernels of candidate `c` with 64-bit indices (`wide`) or 32-bit ones, built
            /// on first use.
            fn handles(&self, c: usize, wide: bool) -> ::core::result::Result<&[::lift_runtime::KernelHandle], ::lift_runtime::Error> {
                let slot = &self.built[c][usize::from(wide)];
                if let Some(h) = slot.get() {
                    return Ok(h);
                }
                let program = self.ctx.build(Self::CANDIDATE_SOURCES[c], ::lift_runtime::__private::index_options(wide))?;
                let handles = Self::CANDIDATE_KERNELS[c]
                    .iter()
                    .map(|k| program.kernel(k))
                    .collect::<::core::result::Result<::std::vec::Vec<_>, _>>()?;
                // `LIFT_DUMP=dir`: the built candidate into `dir` (never an error).
                ::lift_runtime::dump::kernel(&::lift_runtime::dump::KernelDump {
                    kernel: #kernel_name,
                    kernel_id: &self.id,
                    lift: Self::LIFT,
                    index: c,
                    candidate: Self::CANDIDATES[c],
                    params: Self::CANDIDATE_PARAMS[c],
                    conditions: Self::CANDIDATE_CONDITIONS[c],
                    lowered: Self::CANDIDATE_LOWERED[c],
                    source: Self::CANDIDATE_SOURCES[c],
                    builder: "launcher",
                });
                Ok(slot.get_or_init(|| handles))
            }

            /// For checked sizes: whether the kernels of candidate `c` index with 64-bit
            /// arithmetic (a buffer, a temporary of `c` or a dimension of a view is too large
            /// for 32-bit indices, or `LIFT_INDEX64=1`).
            #[allow(unused_variables)]
            fn index64(c: usize, [#(#size_locals),*]: [i64; #n_sizes]) -> ::core::result::Result<bool, ::lift_runtime::Error> {
                let temps = match c {
                    #(#temp_extents)*
                    _ => false,
                };
                Ok(temps || ::lift_runtime::__private::index64(&[#(#extents),*]))
            }

            /// Checks every size variable and size precondition; gives the sizes as `i64`.
            fn check_sizes(#(#size_params: usize),*) -> ::core::result::Result<[i64; #n_sizes], ::lift_runtime::Error> {
                #(let #size_locals = ::lift_runtime::__private::size(#size_names, #size_params)?;)*
                #(#checks)*
                Ok([#(#size_locals),*])
            }

            #scratch_fn

            /// For checked sizes: whether candidate `c` applies (`None`: no such candidate).
            /// Allocates nothing (it runs on every launch).
            #[allow(unused_variables, clippy::nonminimal_bool)]
            fn applies(c: usize, [#(#size_locals),*]: [i64; #n_sizes]) -> Option<bool> {
                Some(match c {
                    #(#applies_arms)*
                    _ => return None,
                })
            }

            /// For checked sizes: whether each candidate applies and what it needs.
            fn facts([#(#size_locals),*]: [i64; #n_sizes]) -> ::std::vec::Vec<::lift_runtime::select::CandidateFacts> {
                #unused_sizes
                vec![#(#facts),*]
            }

            /// The candidate a launch with these sizes runs: the tuned choice cached for this
            /// device and these sizes, else the first candidate that applies and fits the
            /// device.
            pub fn candidate_for(&self, #(#size_params: usize),*) -> ::core::result::Result<usize, ::lift_runtime::Error> {
                let sizes = Self::check_sizes(#(#size_params),*)?;
                Ok(self.choose(sizes)?.0)
            }

            /// The candidate for checked sizes, and whether it runs built for them (a tuned
            /// choice does).
            fn choose(&self, sizes: [i64; #n_sizes]) -> ::core::result::Result<(usize, bool), ::lift_runtime::Error> {
                if let Some(&c) = self.choices.lock().ok().as_ref().and_then(|m| m.get(&sizes)) {
                    return Ok(c);
                }
                let facts = Self::facts(sizes);
                let usizes: ::std::vec::Vec<usize> = sizes.iter().map(|&s| s as usize).collect();
                let c = ::lift_runtime::tune::cached_choice(&self.ctx, &self.id, &usizes, Self::CANDIDATES)
                    .filter(|&(c, _)| facts[c].applies && facts[c].fits(&self.ctx))
                    .or_else(|| ::lift_runtime::select::default_choice(&self.ctx, &facts).map(|c| (c, false)))
                    .ok_or_else(|| ::lift_runtime::select::no_choice(&self.ctx, Self::CANDIDATES, &facts))?;
                self.remember(sizes, c);
                Ok(c)
            }

            /// Tunes the kernel for these sizes on the context's device (SPEC section 5):
            /// unless the cache already holds a choice, every candidate that applies and fits
            /// the device is checked against the interpreter on a small input, then timed on
            /// these arguments; the fastest is stored in the cache and used by `run` and
            /// `launch` from now on.
            pub fn tune(&self, #(#size_params: usize,)* #(#run_params),*) -> ::core::result::Result<::lift_runtime::Tuned, ::lift_runtime::Error> {
                let __lift_sizes = Self::check_sizes(#(#size_params),*)?;
                let [#(#size_locals),*] = __lift_sizes;
                #(#run_checks)*
                let __lift_usizes = [#(#size_params),*];
                let __lift_facts = Self::facts(__lift_sizes);
                let __lift_job = ::lift_runtime::tune::TuneJob {
                    kernel_id: &self.id,
                    sizes: &__lift_usizes,
                    names: Self::CANDIDATES,
                    params: Self::CANDIDATE_PARAMS,
                    facts: &__lift_facts,
                    specialise: true,
                };
                if let Some((__lift_c, __lift_t)) = ::lift_runtime::tune::cached(&self.ctx, &__lift_job) {
                    self.remember(__lift_sizes, (__lift_c, __lift_t.specialised));
                    return Ok(__lift_t);
                }
                #(#uploads)*
                let __lift_out = self.ctx.alloc::<#out_elem>(::lift_runtime::__private::to_usize(#out_len)? * #out_fields)?;
                #count_alloc
                #tune_scratch_hold
                // The checks run on several threads: they borrow the context alone.
                let __lift_ctx = &self.ctx;
                let (__lift_c, __lift_t) = ::lift_runtime::tune::tune(
                    &self.ctx,
                    &__lift_job,
                    &|__lift_c| ::lift_runtime::tune::check_candidate(__lift_ctx, Self::LIFT, #kernel_name, Self::CANDIDATES[__lift_c]),
                    &mut |__lift_c, __lift_special| {
                        #tune_scratch_get
                        let __lift_ev = self.launch_with(__lift_c, __lift_special, #(#size_params,)* #(#forward,)* &__lift_out #count_arg #tune_scratch_arg)?;
                        Ok(__lift_ev.span_ns()? as f64 / 1e6)
                    },
                )?;
                self.remember(__lift_sizes, (__lift_c, __lift_t.specialised));
                Ok(__lift_t)
            }

            fn remember(&self, sizes: [i64; #n_sizes], c: (usize, bool)) {
                if let Ok(mut m) = self.choices.lock() {
                    m.insert(sizes, c);
                }
            }

            /// Uploads the arguments, launches, waits and downloads the result (tuning first
            /// on a cache miss when `LIFT_TUNE=1`).
            pub fn run(&self, #(#size_params: usize,)* #(#run_params),*) -> ::core::result::Result<#run_ret, ::lift_runtime::Error> {
                let [#(#size_locals),*] = Self::check_sizes(#(#size_params),*)?;
                #(#run_checks)*
                if ::lift_runtime::tune::tune_on_miss() {
                    // Tuning only chooses: when it fails (no candidate could be checked or
                    // timed), the untuned choice runs, as without `LIFT_TUNE`.
                    let _ = self.tune(#(#size_params,)* #(#launch_forward),*);
                }
                #(#uploads)*
                let __lift_out = self.ctx.alloc::<#out_elem>(::lift_runtime::__private::to_usize(#out_len)? * #out_fields)?;
                #count_alloc
                #scratch_alloc
                self.launch(#(#size_params,)* #(#forward,)* &__lift_out #count_arg #scratch_arg)?.wait()?;
                #download
            }

            /// Launches on device buffers the candidate chosen for these sizes (see
            /// [`Self::candidate_for`]): checks, argument setting and one enqueue per kernel;
            /// no allocation, formatting or compilation once the candidate is built. Returns
            /// the last kernel's event.
            pub fn launch(&self, #(#size_params: usize,)* #(#launch_params,)* out: &::lift_runtime::Buffer<#out_elem> #count_param #scratch_param) -> ::core::result::Result<::lift_runtime::Event, ::lift_runtime::Error> {
                let __lift_sizes = Self::check_sizes(#(#size_params),*)?;
                let (__lift_c, __lift_special) = self.choose(__lift_sizes)?;
                self.launch_with(__lift_c, __lift_special, #(#size_params,)* #(#launch_forward,)* out #count_fwd #scratch_fwd)
            }

            /// [`Self::launch`] with candidate `candidate` (an index into
            /// [`Self::CANDIDATES`]), its general build; an `Err` if its conditions fail for
            /// these sizes.
            pub fn launch_candidate(&self, candidate: usize, #(#size_params: usize,)* #(#launch_params,)* out: &::lift_runtime::Buffer<#out_elem> #count_param #scratch_param) -> ::core::result::Result<::lift_runtime::Event, ::lift_runtime::Error> {
                self.launch_with(candidate, false, #(#size_params,)* #(#launch_forward,)* out #count_fwd #scratch_fwd)
            }

            /// [`Self::launch_candidate`] with the candidate built for these sizes (every size
            /// variable a constant; built on first use per sizes): what the tuner times for its
            /// fastest candidates, and a tuned choice runs where that was faster.
            pub fn launch_specialised(&self, candidate: usize, #(#size_params: usize,)* #(#launch_params,)* out: &::lift_runtime::Buffer<#out_elem> #count_param #scratch_param) -> ::core::result::Result<::lift_runtime::Event, ::lift_runtime::Error> {
                self.launch_with(candidate, true, #(#size_params,)* #(#launch_forward,)* out #count_fwd #scratch_fwd)
            }

            /// [`Self::launch_candidate`] (`special`: [`Self::launch_specialised`]).
            fn launch_with(&self, candidate: usize, special: bool, #(#size_params: usize,)* #(#launch_params,)* out: &::lift_runtime::Buffer<#out_elem> #count_param #scratch_param) -> ::core::result::Result<::lift_runtime::Event, ::lift_runtime::Error> {
                let [#(#size_locals),*] = Self::check_sizes(#(#size_params),*)?;
                #unused_sizes
                #(#launch_checks)*
                #count_check
                let __lift_len = ::lift_runtime::__private::to_usize(#out_len)? * #out_fields;
                if out.len() != __lift_len {
                    return Err(::lift_runtime::Error::ArgLength { arg: "out".into(), expected: __lift_len, actual: out.len() });
                }
                match Self::applies(candidate, [#(#size_locals),*]) {
                    Some(true) => {}
                    Some(false) => return Err(::lift_runtime::Error::Launch { reason: format!("candidate `{}` does not apply to these sizes: {}", Self::CANDIDATES[candidate], Self::CANDIDATE_CONDITIONS[candidate]) }),
                    None => return Err(::lift_runtime::Error::ArgLength { arg: "candidate".into(), expected: #n_cands, actual: candidate }),
                }
                #scratch_check
                let __lift_wide = Self::index64(candidate, [#(#size_locals),*])?;
                let __lift_special;
                let __lift_handles: &[::lift_runtime::KernelHandle] = if special {
                    let __lift_key = (candidate, __lift_wide, [#(#size_locals),*]);
                    __lift_special = self.special_handles(__lift_key.0, __lift_key.1, __lift_key.2)?;
                    __lift_special.get(&__lift_key).map_or(&[], |h| h.as_slice())
                } else {
                    self.handles(candidate, __lift_wide)?
                };
                let __lift_event = match candidate {
                    #(#arms)*
                    _ => return Err(::lift_runtime::Error::ArgLength { arg: "candidate".into(), expected: #n_cands, actual: candidate }),
                };
                Ok(__lift_event)
            }
        }
    })
}

/// Argument setting and one enqueue per kernel of `kernels` (a candidate's, whose handles
/// are `__lift_handles`); the block's value is the last kernel's event.
fn enqueue_block(
    kernels: &[lift_core::codegen::GeneratedKernel],
    params: &[(proc_macro2::Ident, HostType)],
) -> TokenStream {
    let last = kernels.len().saturating_sub(1);
    let blocks = kernels.iter().enumerate().map(|(ki, gk)| {
        let sets = gk.args.iter().enumerate().map(|(ai, a)| {
            let ai = ai as u32;
            match a {
                KernelArg::Input { param } => {
                    let id = &params[*param].0;
                    q!(__lift_k.set_buffer(#ai, #id)?;)
                }
                KernelArg::Output => q!(__lift_k.set_buffer(#ai, out)?;),
                KernelArg::Count => q!(__lift_k.set_buffer(#ai, count)?;),
                KernelArg::Temporary(t) => q!(__lift_k.set_buffer(#ai, &scratch.bufs[#t])?;),
                KernelArg::Size(s) => {
                    let l = size_local(s);
                    q!(if __lift_wide { __lift_k.set_scalar(#ai, #l)?; } else { __lift_k.set_scalar(#ai, #l as i32)?; })
                }
                KernelArg::Local { bytes } => {
                    let b = eval(bytes);
                    q!(__lift_k.set_local(#ai, ::lift_runtime::__private::to_usize(#b)?)?;)
                }
                KernelArg::Scalar { param } => {
                    let (id, ht) = &params[*param];
                    let v = device_scalar(id, ht.scalar);
                    q!(__lift_k.set_scalar(#ai, #v)?;)
                }
                // The macro never generates traced kernels (only the race checker does).
                KernelArg::Trace { .. } => q!(compile_error!("a traced kernel in a launcher");),
            }
        });
        let global = gk.global.iter().map(|g| {
            let g = eval(g);
            q!(::lift_runtime::__private::to_usize(#g)?)
        });
        let local = match &gk.local {
            Some(l) => {
                let l = l.iter().map(|x| {
                    let x = eval(x);
                    q!(::lift_runtime::__private::to_usize(#x)?)
                });
                q!(Some(&[#(#l),*][..]))
            }
            None => q!(__lift_auto.as_ref().map(|l| &l[..__lift_global.len()])),
        };
        let auto = gk.local.is_none().then(
            || q!(let __lift_auto = __lift_k.default_local(&self.ctx, &__lift_global);),
        );
        let lmem = eval(&gk.local_mem_bytes);
        let enqueue = q!(::lift_runtime::__private::enqueue(__lift_k, &self.ctx, &__lift_global, __lift_local)?);
        // The first kernel's event is kept in the last's (for `Event::span_ns`).
        let enqueue = match (ki, last) {
            (0, 0) => enqueue,
            (0, _) => q!(let __lift_first = #enqueue;),
            (k, l) if k == l => q!(::lift_runtime::__private::spanning(#enqueue, __lift_first)),
            _ => q!(#enqueue;),
        };
        q! {
            let __lift_k = &__lift_handles[#ki];
            #(#sets)*
            let __lift_global = [#(#global),*];
            #auto
            let __lift_local: Option<&[usize]> = #local;
            let __lift_global = ::lift_runtime::__private::round_up(__lift_global, __lift_local);
            self.ctx.check_launch(&__lift_global, __lift_local, ::lift_runtime::__private::to_usize(#lmem)?)?;
            #enqueue
        }
    });
    q!(#(#blocks)*)
}
