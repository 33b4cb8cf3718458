//! OpenCL C code generation (CGO'17 section 5): a type-checked low-level kernel (one candidate
//! of [`crate::explore`]) is compiled in destination-passing style. Choosing the program is
//! not this module's job: [`crate::driver`] sequences the stages.
//!
//! (The default mapping of high-level bodies to `map_glb`/`map_seq`/`reduce_seq` is a
//! rewriting step of the explorer, [`crate::explore::lower`].)
//!
//! * [`stages`]: the stage kernels of a fissioned kernel merged into one program;
//! * `launch`: the NDRange, from the trip counts of the parallel maps;
//! * `view`: data-layout primitives as views, turned into one flat index per access;
//! * `memory`: address spaces, buffers and temporaries;
//! * `banks`: local-memory bank conflicts, removed by padding rows;
//! * [`trace`]: the race checker's instrumentation (memory accesses and barriers logged);
//! * `emit`: the generator, building each kernel as a syntax tree;
//! * `cl`: the OpenCL C syntax tree, its passes (empty loops, merging units) and its
//!   printing, the last step;
//! * `scalar`: the scalar subset (literals, operators, math builtins, user functions);
//! * `ctypes`: OpenCL C spellings of types and tuple structs.

mod banks;
mod barriers;
pub(crate) mod cl;
mod ctypes;
mod emit;
mod launch;
mod loops;
mod memory;
mod owners;
mod prims;
mod scalar;
pub mod stages;
#[cfg(test)]
mod tests;
pub mod trace;
mod view;

use crate::arith::Nat;
use crate::ir::Program;
use crate::typeck::KernelInfo;

/// The result of compiling one kernel.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Generated {
    /// The complete OpenCL C program.
    pub source: String,
    /// The kernels to launch, in launch order.
    pub kernels: Vec<GeneratedKernel>,
    /// Global buffers the launcher allocates (and passes as [`KernelArg::Temporary`]).
    pub temporaries: Vec<Temporary>,
    /// The low-level expression actually compiled, in `lift!` syntax.
    pub lowered: String,
    /// The syntax tree `source` was printed from (absent in a generated program read back
    /// from a cache, which is never merged again).
    #[serde(skip)]
    pub(crate) unit: Option<cl::Unit>,
}

impl Generated {
    /// The generated program of the syntax tree `unit`.
    pub(crate) fn of_unit(
        unit: cl::Unit,
        kernels: Vec<GeneratedKernel>,
        temporaries: Vec<Temporary>,
        lowered: String,
    ) -> Generated {
        Generated {
            source: cl::print::unit(&unit),
            kernels,
            temporaries,
            lowered,
            unit: Some(unit),
        }
    }
}

/// The head of every generated source: index arithmetic is `lift_idx`, `int` unless the
/// program is built with `-DLIFT_IDX64` (the launcher does when an extent of the kernel
/// exceeds [`crate::typeck::INDEX32_LIMIT`]), and `lift_min`/`lift_max` compare indices
/// (the builtins are ambiguous on a `long` and an `int` literal). Size parameters are
/// `lift_idx` too: the launcher passes them as `i32` or `i64` to match.
pub const INDEX_PRELUDE: &str = "#ifdef LIFT_IDX64
typedef long lift_idx;
#else
typedef int lift_idx;
#endif
#define lift_min(a, b) min((lift_idx)(a), (lift_idx)(b))
#define lift_max(a, b) max((lift_idx)(a), (lift_idx)(b))
";

/// The prefix of the macros that fix size variables at build time: a program built with
/// `-DLIFT_SIZE_N=<value>` computes with `N` as that constant (a build specialised to the
/// sizes at hand: index arithmetic folds, divisions by sizes become multiplications); the
/// launcher still passes every size as an argument.
pub const SIZE_MACRO: &str = "LIFT_SIZE_";

/// The size parameters of kernel `k` (`lift_idx lift_size_N`, in declaration order), their
/// arguments, and the C names of the sizes, which open the kernel's body bound to the
/// constant [`SIZE_MACRO`]`N` where the program is built with it, else to the parameter.
pub(crate) fn size_params(k: &crate::ir::Kernel) -> (Vec<cl::Param>, Vec<KernelArg>, Vec<String>) {
    let mut params = Vec::new();
    let mut args = Vec::new();
    let mut sizes = Vec::new();
    for (name, _) in &k.sizes {
        let s = crate::cnames::c_name(name);
        params.push(cl::Param::value(cl::CScalar::Idx, format!("lift_size_{s}")));
        args.push(KernelArg::Size(name.clone()));
        sizes.push(s);
    }
    (params, args, sizes)
}

/// The `build` options of a generated source with 64-bit indices ([`INDEX_PRELUDE`]).
pub const INDEX64_OPTION: &str = "-DLIFT_IDX64";

/// One OpenCL kernel function and how to launch it.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct GeneratedKernel {
    /// The OpenCL kernel function name.
    pub name: String,
    /// Its arguments, in OpenCL parameter order.
    pub args: Vec<KernelArg>,
    /// Global size per dimension, over the size variables. The kernel guards every global
    /// map, so the launcher may round these up.
    pub global: Vec<Nat>,
    /// Local size per dimension (`None`: the driver chooses). When given, the kernel
    /// requires exactly this size (`reqd_work_group_size`).
    pub local: Option<Vec<Nat>>,
    /// Statically allocated local memory, in bytes.
    pub local_mem_bytes: Nat,
}

/// One argument of a generated kernel.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum KernelArg {
    /// The array kernel parameter of this index (a `const global T*`).
    Input {
        /// Index into the kernel's parameters.
        param: usize,
    },
    /// The output buffer: the result flattened row-major (a scalar result is one element;
    /// a capped array result its capacity).
    Output,
    /// For a capped array result (`[a; <= n]`, from `filter_seq`): a `global int*` buffer of
    /// one element the kernel writes the result's length to.
    Count,
    /// The global temporary of this index in [`Generated::temporaries`].
    Temporary(usize),
    /// A size variable, a `lift_idx` parameter: passed as `i32`, or as `i64` to a program
    /// built with [`INDEX64_OPTION`].
    Size(String),
    /// A `local` buffer whose size depends on size variables: a `__local` pointer parameter
    /// given this many bytes per work-group at launch.
    Local {
        /// Its size in bytes, over the size variables.
        bytes: Nat,
    },
    /// The scalar kernel parameter of this index, by value (`f16` is passed as `float`,
    /// `bool` as `uchar`).
    Scalar {
        /// Index into the kernel's parameters.
        param: usize,
    },
    /// The race checker's trace buffer (`global int*`) and its capacity in records (`int`),
    /// two arguments; only in kernels generated under [`trace::traced`].
    Trace {
        /// The traced buffers by id: name, and whether it is local memory.
        buffers: Vec<(String, bool)>,
    },
}

/// A global buffer allocated by the launcher.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Temporary {
    /// The kernel parameter name.
    pub name: String,
    /// The size in bytes, over the size variables.
    pub bytes: Nat,
    /// The number of scalars it holds (what its flat indices range over, at most), for the
    /// launcher's choice of index width.
    pub scalars: Nat,
}

/// The number of scalars in one element of type `t` (a vector's lanes, a tuple's fields).
pub(crate) fn scalars_per(t: &crate::types::Type) -> i64 {
    use crate::types::Type;
    match t {
        Type::Vector(_, w) => i64::from(*w),
        Type::Tuple(ts) => ts.iter().map(scalars_per).sum(),
        // Never the element of a buffer (arrays are stored flat); constant lengths only.
        Type::Array(e, n) | Type::Capped(e, n) => scalars_per(e) * n.as_cst().unwrap_or(1),
        Type::Scalar(_) => 1,
    }
}

/// Why code generation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CodegenError {
    /// No kernel of that name in the program.
    #[error("unknown kernel `{0}`")]
    UnknownKernel(String),
    /// The lowered program failed to type-check again.
    #[error("lowering produced an ill-typed program: {0}")]
    Lowering(String),
    /// A construct the generator cannot compile.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// Work-items that share memory cannot be ordered by barriers in one kernel.
    #[error("unsupported: {0}")]
    Unsynchronisable(SyncError),
    /// A size that must be known at compile time (local or private memory, local sizes).
    #[error("{what}: the size must be a compile-time constant, found {size}")]
    NotConstant {
        /// What needed the constant.
        what: String,
        /// The size found.
        size: String,
    },
    /// A node the type checker left untyped, or another broken invariant.
    #[error("internal code generator error: {0}")]
    Internal(String),
}

/// Why the work-items of a kernel cannot be ordered by barriers: each names the construct and
/// what to write instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyncError {
    /// A barrier is needed where only some work-items of the group arrive: inside a
    /// `map_lcl` with fewer (a guard) or more (a strided loop) iterations than the group has
    /// work-items, or inside a `map_glb`.
    #[error(
        "a barrier would be needed inside divergent control flow: inside `{construct}`, which \
         not every work-item of the group reaches alike ({why}); give that map as many \
         iterations as the group has work-items (`split` its input into rows of the group's \
         size and map over a row), or move the accesses to `{buffer}` out of it"
    )]
    Divergent {
        /// The loop, as `map_lcl(0)`.
        construct: String,
        /// Its trip count against the work-items that run it.
        why: String,
        /// The buffer whose accesses need ordering.
        buffer: String,
    },
    /// A grid map's result read, in the same kernel, by other work-items than its writers.
    #[error(
        "the result of a parallel map (map_glb/map_wrg) written to `{buffer}` is read outside \
         it in the same kernel, by work-items that did not write it (a race: one kernel \
         cannot wait for the whole grid): read it in a kernel of its own (the \
         `kernel_fission` rewrite point, or a high-level `map` that the explorer splits)"
    )]
    GridRace {
        /// The temporary.
        buffer: String,
    },
    /// Work-items read each other's elements inside one parallel map.
    #[error(
        "work-items of a group read each other's elements of `{buffer}` inside one parallel \
         map, where no barrier can go: compute those elements in a `map_lcl` of their own \
         before the map that reads them"
    )]
    SameMap {
        /// The buffer.
        buffer: String,
    },
    /// Code every work-item runs rewrites a temporary on each iteration of a loop.
    #[error(
        "sequential code outside the parallel maps, which every work-item runs, rewrites the \
         temporary `{buffer}` on each iteration of a loop (work-items would overwrite each \
         other's values: compute it inside a parallel map, or fuse it into its reader)"
    )]
    RewrittenByAll {
        /// The temporary.
        buffer: String,
    },
}

impl From<SyncError> for CodegenError {
    fn from(e: SyncError) -> CodegenError {
        CodegenError::Unsynchronisable(e)
    }
}

/// Result alias for code generation.
pub type GResult<T> = Result<T, CodegenError>;

/// Choices of code generation that the program does not fix (tuning parameters of the
/// candidate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The work-group size shared by the dimensions whose `map_lcl`s have trip counts that
    /// are not compile-time constants (LIFT's launch parameter): each of `k` such dimensions
    /// takes the largest power of two whose `k`-th power is at most `lanes`, and their maps
    /// become loops strided by it. Dimensions with constant trip counts take the largest of
    /// them.
    pub lanes: i64,
    /// The device the code is generated for: the bank-conflict model's SIMD width and bank
    /// count, the full reduction's work-group size.
    pub device: crate::device::DeviceModel,
}

impl Options {
    /// The default local size for `map_lcl` over a size variable: small enough for the
    /// work-group limits of GPU and CPU drivers alike (the runtime skips a candidate whose
    /// work-group a device refuses; the explorer offers larger ones to the tuner).
    pub const DEFAULT_LANES: i64 = 64;
}

impl Default for Options {
    fn default() -> Options {
        Options {
            lanes: Options::DEFAULT_LANES,
            device: crate::device::DeviceModel::DEFAULT,
        }
    }
}

/// Compiles kernel `kernel` of the type-checked low-level program `prog` (`info` its checker
/// output) to OpenCL C with the default [`Options`].
pub fn generate(prog: &Program, kernel: &str, info: &KernelInfo) -> GResult<Generated> {
    generate_with(prog, kernel, info, &Options::default())
}

/// [`generate`] with the given options.
pub fn generate_with(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    opts: &Options,
) -> GResult<Generated> {
    let k = prog
        .kernel(kernel)
        .ok_or_else(|| CodegenError::UnknownKernel(kernel.to_string()))?;
    let text = crate::print::expr(&k.body);
    let out = emit::compile_kernel(prog, k, info, opts)?;
    Ok(Generated::of_unit(
        out.unit,
        vec![out.kernel],
        out.temporaries,
        text,
    ))
}
