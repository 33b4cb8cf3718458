//! The Rust API generated for one kernel (SPEC section 3): the struct with `SOURCE`, `new`,
//! `run` and a zero-overhead `launch`.

use crate::sizes::{eval, size_local};
use lift_core::driver::Compiled;
use lift_core::ir::{Kernel, Program};
use lift_core::typeck::{Cond, KernelInfo};
use lift_core::types::{ScalarType, Type};
use lift_core::{CompileError, ErrorKind};
use proc_macro2::{Span, TokenStream};
use quote::format_ident;

/// How a kernel parameter or the result crosses between host and device.
pub(crate) struct HostType {
    /// The host element type (`f32`, `half::f16`, `bool`, `(f32, f32)`, ...).
    pub(crate) host: TokenStream,
    /// The element type of the device buffer (`u8` for `bool`, the field type for tuples).
    pub(crate) device: TokenStream,
    /// For arrays: the number of host elements, as a size expression; `None` for scalars.
    pub(crate) len: Option<TokenStream>,
    /// The device scalar type.
    pub(crate) scalar: ScalarType,
    /// How host elements map to device elements.
    pub(crate) conv: Conv,
}

/// The element conversion between host slices and device buffers.
pub(crate) enum Conv {
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
            Conv::Plain => q!(self.engine.ctx().upload(#id)?),
            Conv::Bool => q!(self.engine.ctx().upload(
                &#id.iter().map(|&b| u8::from(b)).collect::<::std::vec::Vec<u8>>()
            )?),
            Conv::Tuple(k) => {
                let fields = (0..k).map(syn::Index::from);
                q!(self.engine.ctx().upload(
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
pub(crate) fn host_type(ty: &Type, what: &str, span: Span) -> Result<HostType, CompileError> {
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

/// The size checks of kernel `k`'s own preconditions, as statements over the size locals.
fn precondition_checks(compiled: &Compiled) -> Vec<TokenStream> {
    compiled
        .preconditions
        .iter()
        .map(|p| {
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
        })
        .collect()
}

/// The parameters of a kernel as the launcher sees them.
#[derive(Default)]
struct Params {
    /// `run`'s parameters (`x: &[f32]`, `alpha: f32`).
    run: Vec<TokenStream>,
    /// `launch`'s parameters (`x: &Buffer<f32>`, `alpha: f32`).
    launch: Vec<TokenStream>,
    /// Length and index checks of `run`'s slices.
    run_checks: Vec<TokenStream>,
    /// Length checks of `launch`'s buffers.
    launch_checks: Vec<TokenStream>,
    /// Uploads of `run`'s slices into buffers of the same names.
    uploads: Vec<TokenStream>,
    /// `run`'s arguments to `launch` after the uploads.
    forward: Vec<TokenStream>,
    /// The parameter names (forwarded unchanged between launch methods).
    names: Vec<proc_macro2::Ident>,
    /// Statements binding the device value of each scalar parameter, and the argument list
    /// for the engine (one `&dyn ArgValue` per parameter).
    scalar_locals: Vec<TokenStream>,
    args: Vec<TokenStream>,
}

/// The launcher's view of kernel `k`'s parameters.
fn params(k: &Kernel, info: &KernelInfo) -> Result<Params, CompileError> {
    let mut ps = Params::default();
    for (i, p) in k.params.iter().enumerate() {
        let id = format_ident!("{}", p.name, span = p.span);
        let ht = host_type(&p.ty, &format!("parameter `{}`", p.name), p.span)?;
        let (host, device) = (&ht.host, &ht.device);
        let pname = &p.name;
        match &ht.len {
            Some(len) => {
                ps.run.push(q!(#id: &[#host]));
                ps.launch.push(q!(#id: &::lift_runtime::Buffer<#device>));
                let fields = ht.fields();
                for (checks, per) in [
                    (&mut ps.run_checks, 1usize),
                    (&mut ps.launch_checks, fields),
                ] {
                    checks.push(q! {
                        let __lift_len = ::lift_runtime::__private::to_usize(#len)? * #per;
                        if #id.len() != __lift_len {
                            return Err(::lift_runtime::Error::ArgLength { arg: #pname.into(), expected: __lift_len, actual: #id.len() });
                        }
                    });
                }
                for c in info.index_checks.iter().filter(|c| c.param == p.name) {
                    let len = eval(&c.len);
                    ps.run_checks
                        .push(q!(::lift_runtime::__private::check_indices(#pname, #len, #id)?;));
                }
                let upload = ht.upload(&id);
                ps.uploads.push(q!(let #id = #upload;));
                ps.forward.push(q!(&#id));
                ps.args.push(q!(#id));
            }
            None if !matches!(ht.conv, Conv::Tuple(_)) => {
                ps.run.push(q!(#id: #host));
                ps.launch.push(q!(#id: #host));
                ps.forward.push(q!(#id));
                let local = format_ident!("__lift_scalar_{}", i, span = Span::mixed_site());
                let v = device_scalar(&id, ht.scalar);
                ps.scalar_locals.push(q!(let #local = #v;));
                ps.args.push(q!(&#local));
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
        ps.names.push(id);
    }
    Ok(ps)
}

/// The struct, constants and methods for kernel `k`, whose default configuration is
/// `compiled`'s one candidate. Nothing here depends on what the explorer finds at run time.
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
    let sizes = Sizes::of(k);
    let constants = constants(prog, k, info, compiled, helpers, &sizes)?;
    let ps = params(k, info)?;
    let out = output(k, info)?;
    let size_methods = size_methods(&sizes, compiled);
    let run_methods = run_methods(&sizes, &ps, &out);
    let launch_methods = launch_methods(&sizes, &ps, &out);
    let on_devices = crate::on_devices::item(k, info);

    Ok(q! {
        #(#[doc = #docs])*
        #vis struct #name {
            engine: ::lift_runtime::engine::Engine,
        }

        #[allow(non_snake_case, clippy::too_many_arguments, clippy::identity_op, unused_parens)]
        impl #name {
            #constants

            /// Builds the default configuration on `ctx`'s device (builds are cached per
            /// context); the other candidates are explored and built when first chosen.
            pub fn new(ctx: &::lift_runtime::Context) -> ::core::result::Result<Self, ::lift_runtime::Error> {
                Ok(Self { engine: ::lift_runtime::engine::Engine::new(ctx, Self::DECL)? })
            }

            /// Every candidate the explorer derives, in order of preference (explored on the
            /// first call, cached in memory and on disk).
            pub fn candidates(&self) -> ::core::result::Result<&[::lift_runtime::CandidateInfo], ::lift_runtime::Error> {
                self.engine.candidates()
            }

            #size_methods

            #run_methods

            #launch_methods
        }

        #on_devices
    })
}

/// A kernel's size variables: their names, the launcher's parameters for them and the
/// locals holding their checked values.
struct Sizes<'k> {
    names: Vec<&'k str>,
    params: Vec<proc_macro2::Ident>,
    locals: Vec<proc_macro2::Ident>,
}

impl<'k> Sizes<'k> {
    /// The size variables of kernel `k`.
    fn of(k: &'k Kernel) -> Sizes<'k> {
        let names: Vec<&str> = k.sizes.iter().map(|(s, _)| s.as_str()).collect();
        let params = names.iter().map(|s| format_ident!("{}", s)).collect();
        let locals = names.iter().map(|s| size_local(s)).collect();
        Sizes {
            names,
            params,
            locals,
        }
    }
}

/// The launcher's constants for kernel `k`: the default configuration's OpenCL C and
/// lowered expression, the kernel's text and result type, its preconditions, and the
/// declaration the engine compiles the other candidates from.
fn constants(
    prog: &Program,
    k: &Kernel,
    info: &KernelInfo,
    compiled: &Compiled,
    helpers: &str,
    sizes: &Sizes<'_>,
) -> Result<TokenStream, CompileError> {
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
    let default = compiled
        .candidates
        .first()
        .ok_or_else(|| unsupported(k.span, format!("kernel `{}`: no candidate", k.name)))?;
    let source = if helpers.is_empty() {
        default.generated.source.clone()
    } else {
        format!("{helpers}\n{}", default.generated.source)
    };
    let lowered = &default.generated.lowered;
    let default_name = &default.name;
    let kernel_name = &k.name;
    let size_names = &sizes.names;
    Ok(q! {
        /// The OpenCL C program of the default configuration (the first candidate that
        /// applies to every size).
        pub const SOURCE: &'static str = #source;
        /// The low-level expression compiled into [`Self::SOURCE`].
        pub const LOWERED: &'static str = #lowered;
        /// The name of the default configuration's candidate.
        pub const DEFAULT_CANDIDATE: &'static str = #default_name;
        /// The kernel with the user functions it calls, as written and type-checked.
        pub const LIFT: &'static str = #lift_text;
        /// The inferred result type.
        pub const RESULT_TYPE: &'static str = #result_type;
        /// Size conditions checked before every launch.
        pub const PRECONDITIONS: &'static [&'static str] = &[#(#preconditions),*];
        const DECL: ::lift_runtime::engine::Decl = ::lift_runtime::engine::Decl {
            name: #kernel_name,
            lift: Self::LIFT,
            helpers: #helpers,
            sizes: &[#(#size_names),*],
            source: Self::SOURCE,
        };
    })
}

/// How the launcher returns a kernel's result: its device buffer, `run`'s download of it
/// and, for a capped result, the buffer receiving its length.
struct Output {
    /// The element type of the result buffer.
    elem: TokenStream,
    /// The number of host elements of the result, and device elements per host element.
    len: TokenStream,
    fields: usize,
    /// `run`'s return type, and its download of the result.
    run_ret: TokenStream,
    download: TokenStream,
    /// The allocation of the result buffer (and the length buffer) in `run` and `tune`.
    alloc: TokenStream,
    /// For a capped result: `launch`'s `count` parameter, the length buffer as an argument
    /// of `run` and `tune`, `count` forwarded between launch methods, and its length check.
    count_param: Option<TokenStream>,
    count_arg: Option<TokenStream>,
    count_fwd: Option<TokenStream>,
    count_check: Option<TokenStream>,
    /// The engine's `Outputs::count`.
    count_value: TokenStream,
}

/// The launcher's view of kernel `k`'s result.
fn output(k: &Kernel, info: &KernelInfo) -> Result<Output, CompileError> {
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

    // A capped result (`filter_seq`): `out` holds its capacity and a one-element `count`
    // buffer receives its length; `run` returns that many elements.
    let capped = matches!(info.result, Type::Capped(..));
    let count_param = capped.then(|| q!(, count: &::lift_runtime::Buffer<i32>));
    let count_arg = capped.then(|| q!(, &__lift_count));
    let count_fwd = capped.then(|| q!(, count));
    let count_alloc = capped.then(|| q!(let __lift_count = self.engine.ctx().alloc::<i32>(1)?;));
    let count_value = if capped { q!(Some(count)) } else { q!(None) };
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
    let alloc_out = q! {
        let __lift_out = self.engine.ctx().alloc::<#out_elem>(::lift_runtime::__private::to_usize(#out_len)? * #out_fields)?;
        #count_alloc
    };
    Ok(Output {
        elem: out_elem.clone(),
        len: out_len,
        fields: out_fields,
        run_ret,
        download,
        alloc: alloc_out,
        count_param,
        count_arg,
        count_fwd,
        count_check,
        count_value,
    })
}

/// `check_sizes` and the methods that only need the sizes: the candidate chosen for them
/// and its global temporaries.
fn size_methods(sizes: &Sizes<'_>, compiled: &Compiled) -> TokenStream {
    let Sizes {
        names: size_names,
        params: size_params,
        locals: size_locals,
    } = sizes;
    let n_sizes = size_names.len();
    let checks = precondition_checks(compiled);
    q! {
    /// Checks every size variable and size precondition; gives the sizes as `i64`.
    fn check_sizes(#(#size_params: usize),*) -> ::core::result::Result<[i64; #n_sizes], ::lift_runtime::Error> {
        #(let #size_locals = ::lift_runtime::__private::size(#size_names, #size_params)?;)*
        #(#checks)*
        Ok([#(#size_locals),*])
    }

    /// The candidate (an index into [`Self::candidates`]) a launch with these sizes
    /// runs: the tuned choice cached for this device and these sizes, else the first
    /// candidate that applies and fits the device.
    pub fn candidate_for(&self, #(#size_params: usize),*) -> ::core::result::Result<usize, ::lift_runtime::Error> {
        Ok(self.engine.choose(&Self::check_sizes(#(#size_params),*)?)?.0)
    }

    /// Allocates the global temporaries [`Self::candidate_for`] needs at these sizes
    /// (for [`Self::launch_in`]).
    pub fn scratch(&self, #(#size_params: usize),*) -> ::core::result::Result<::lift_runtime::Scratch, ::lift_runtime::Error> {
        let __lift_sizes = Self::check_sizes(#(#size_params),*)?;
        let (__lift_c, _) = self.engine.choose(&__lift_sizes)?;
        self.engine.scratch_for(__lift_c, &__lift_sizes)
    }

    /// Allocates the global temporaries candidate `candidate` needs at these sizes.
    pub fn scratch_for(&self, candidate: usize, #(#size_params: usize),*) -> ::core::result::Result<::lift_runtime::Scratch, ::lift_runtime::Error> {
        self.engine.scratch_for(candidate, &Self::check_sizes(#(#size_params),*)?)
    }

    /// The bytes of global temporaries candidate `candidate` uses at these sizes.
    pub fn temporary_bytes(&self, candidate: usize, #(#size_params: usize),*) -> ::core::result::Result<usize, ::lift_runtime::Error> {
        self.engine.temporary_bytes(candidate, &Self::check_sizes(#(#size_params),*)?)
    }

    }
}

/// `tune` and `run`: the methods on host slices.
fn run_methods(sizes: &Sizes<'_>, ps: &Params, out: &Output) -> TokenStream {
    let Sizes {
        params: size_params,
        locals: size_locals,
        ..
    } = sizes;
    let Params {
        run: run_params,
        run_checks,
        uploads,
        forward,
        names,
        ..
    } = ps;
    let Output {
        run_ret,
        download,
        alloc: alloc_out,
        count_arg,
        ..
    } = out;
    q! {
    /// Tunes the kernel for these sizes on the context's device (SPEC section 5):
    /// unless the cache already holds a choice, every candidate that applies and fits
    /// the device is checked against the interpreter on a small input, then timed on
    /// these arguments; the fastest is stored in the cache and used by `run` and
    /// `launch` from now on.
    pub fn tune(&self, #(#size_params: usize,)* #(#run_params),*) -> ::core::result::Result<::lift_runtime::Tuned, ::lift_runtime::Error> {
        let __lift_sizes = Self::check_sizes(#(#size_params),*)?;
        let [#(#size_locals),*] = __lift_sizes;
        #(#run_checks)*
        if let Some(__lift_t) = self.engine.cached_tuning(&__lift_sizes)? {
            return Ok(__lift_t);
        }
        #(#uploads)*
        #alloc_out
        self.engine.tune(&__lift_sizes, &mut |__lift_c, __lift_special| {
            let __lift_ev = self.launch_with((__lift_c, __lift_special), None, #(#size_params,)* #(#forward,)* &__lift_out #count_arg)?;
            Ok(__lift_ev.span_ns()? as f64 / 1e6)
        })
    }

    /// Uploads the arguments, launches, waits and downloads the result (tuning first
    /// on a cache miss when `LIFT_TUNE=1`).
    pub fn run(&self, #(#size_params: usize,)* #(#run_params),*) -> ::core::result::Result<#run_ret, ::lift_runtime::Error> {
        let [#(#size_locals),*] = Self::check_sizes(#(#size_params),*)?;
        #(#run_checks)*
        if ::lift_runtime::tune::tune_on_miss() {
            // Tuning only chooses: when it fails (no candidate could be checked or
            // timed), the untuned choice runs, as without `LIFT_TUNE`.
            let _ = self.tune(#(#size_params,)* #(#names),*);
        }
        #(#uploads)*
        #alloc_out
        self.launch(#(#size_params,)* #(#forward,)* &__lift_out #count_arg)?.wait()?;
        #download
    }

    }
}

/// `launch` and its variants on device buffers, and `launch_with`, which they all call.
fn launch_methods(sizes: &Sizes<'_>, ps: &Params, out: &Output) -> TokenStream {
    let Sizes {
        params: size_params,
        locals: size_locals,
        ..
    } = sizes;
    let Params {
        launch: launch_params,
        launch_checks,
        names,
        scalar_locals,
        args,
        ..
    } = ps;
    let Output {
        elem: out_elem,
        len: out_len,
        fields: out_fields,
        count_param,
        count_fwd,
        count_check,
        count_value,
        ..
    } = out;
    let n_params = names.len();
    let launch_sig = q!(#(#size_params: usize,)* #(#launch_params,)* out: &::lift_runtime::Buffer<#out_elem> #count_param);
    let launch_fwd = q!(#(#size_params,)* #(#names,)* out #count_fwd);
    q! {
    /// Launches on device buffers the candidate chosen for these sizes (see
    /// [`Self::candidate_for`]): checks, argument setting and one enqueue per kernel;
    /// no allocation, formatting or compilation once the candidate is built and its
    /// temporaries (owned by `self`) allocated. The event spans every kernel.
    pub fn launch(&self, #launch_sig) -> ::core::result::Result<::lift_runtime::Event, ::lift_runtime::Error> {
        let __lift_choice = self.engine.choose(&Self::check_sizes(#(#size_params),*)?)?;
        self.launch_with(__lift_choice, None, #launch_fwd)
    }

    /// [`Self::launch`] with candidate `candidate` (an index into
    /// [`Self::candidates`]), its general build; an `Err` if its conditions fail for
    /// these sizes.
    pub fn launch_candidate(&self, candidate: usize, #launch_sig) -> ::core::result::Result<::lift_runtime::Event, ::lift_runtime::Error> {
        self.launch_with((candidate, false), None, #launch_fwd)
    }

    /// [`Self::launch_candidate`] with the candidate built for these sizes (every size
    /// variable a constant; built on first use per sizes): what the tuner times for its
    /// fastest candidates, and a tuned choice runs where that was faster.
    pub fn launch_specialised(&self, candidate: usize, #launch_sig) -> ::core::result::Result<::lift_runtime::Event, ::lift_runtime::Error> {
        self.launch_with((candidate, true), None, #launch_fwd)
    }

    /// [`Self::launch_candidate`] with global temporaries the caller owns (made by
    /// [`Self::scratch_for`]); one too small for these sizes is an `Err`.
    pub fn launch_in(&self, scratch: &::lift_runtime::Scratch, candidate: usize, #launch_sig) -> ::core::result::Result<::lift_runtime::Event, ::lift_runtime::Error> {
        self.launch_with((candidate, false), Some(scratch), #launch_fwd)
    }

    fn launch_with(&self, candidate: (usize, bool), scratch: ::core::option::Option<&::lift_runtime::Scratch>, #launch_sig) -> ::core::result::Result<::lift_runtime::Event, ::lift_runtime::Error> {
        let [#(#size_locals),*] = Self::check_sizes(#(#size_params),*)?;
        #(#launch_checks)*
        #count_check
        let __lift_len = ::lift_runtime::__private::to_usize(#out_len)? * #out_fields;
        if out.len() != __lift_len {
            return Err(::lift_runtime::Error::ArgLength { arg: "out".into(), expected: __lift_len, actual: out.len() });
        }
        #(#scalar_locals)*
        let __lift_args: [&dyn ::lift_runtime::engine::ArgValue; #n_params] = [#(#args),*];
        let __lift_outs = ::lift_runtime::engine::Outputs { out, count: #count_value };
        self.engine.launch(candidate, &[#(#size_locals),*], &__lift_args, __lift_outs, scratch)
    }
    }
}
