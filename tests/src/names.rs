//! Hostile names (issue 33): a program renamed so that its parameters, size variables, lambda
//! and `let` variables and user functions carry the names the compiler itself uses: the
//! binders of its rules, the identifiers of the OpenCL C it generates, OpenCL C keywords and
//! built-ins. The renamed program must compute what the original computes, with every
//! candidate.

use lift_runtime::core::parse;
use lift_runtime::core::prim::Prim;
use lift_runtime::core::rewrite::{names, rename};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::BTreeSet;

/// Names the compiler binds in its rewrite rules and strategies (the blocked product's
/// pattern, kernel fission, split-K, the reduction generators, normalisation).
pub const COMPILER_BINDERS: &[&str] = &[
    "ra",
    "cb",
    "acc",
    "t",
    "q",
    "e",
    "a",
    "bv",
    "al",
    "bl",
    "accc",
    "bb",
    "blk",
    "ab",
    "bq",
    "ap",
    "bs",
    "bk",
    "ks",
    "bp",
    "av",
    "brow",
    "cc",
    "rr",
    "x",
    "y",
    "lift_acc",
    "lift_accc",
    "lift_xs",
    "lift_blk",
    "lift_brow",
    "lift_col",
    "lift_ex",
    "lift_cbx",
    "lift_rx",
    "lift_el",
    "lift_eb",
    "lift_ec",
    "lift_v",
    "lift_t0",
    "lift_t1",
    "lift_t2",
    "lift_l1",
    "lift_l2",
    "lift_m0",
    "lift_i0",
    "lift_g",
    "lift_s",
    "lift_parts",
    "lift_partial",
    "lift_row",
    "lift_column",
    "lift_epi",
    "lift_k0",
    "lift_k1",
    "lift_p0",
    "lift_r1",
    "lift_c2",
    "lift_index",
    "t0",
    "t1",
    "z0",
    "z1",
    "v0",
    "v1",
    "r0",
    "h0",
    "x0",
    "acc0",
    "p0",
    "ta0",
    "tb0",
    "a0",
    "b0",
];

/// Identifiers of the OpenCL C the compiler generates.
pub const GENERATED_C: &[&str] = &[
    "l0",
    "l1",
    "l2",
    "wg0",
    "wg1",
    "wg2",
    "gid0",
    "gid1",
    "gid2",
    "acc_1",
    "acc_2",
    "i_1",
    "i_2",
    "j_3",
    "c_1",
    "r_2",
    "a_3",
    "d_4",
    "kept_1",
    "tmp_l_1",
    "tmp_p_2",
    "out",
    "lift_idx",
    "lift_size_N",
    "LIFT_SIZE_N",
    "LIFT_IDX64",
    "lift_min",
    "lift_max",
    "lift_l",
    "lift_tmp",
    "lift_wg",
    "lift_i",
    "lift_j",
    "lift_count",
    "lift_trace",
    "lift_epoch",
    "Tuple_float_float",
    "Tuple_int_int",
    "_0",
    "_1",
];

/// OpenCL C keywords, types, built-in functions and macros that are Rust identifiers.
pub const OPENCL_C: &[&str] = &[
    "int",
    "float",
    "float4",
    "double",
    "half",
    "char",
    "uchar",
    "uint",
    "long",
    "ulong",
    "short",
    "bool2",
    "size_t",
    "kernel",
    "global",
    "local",
    "private",
    "constant",
    "restrict",
    "typedef",
    "switch",
    "case",
    "default",
    "sizeof",
    "register",
    "volatile",
    "unsigned",
    "signed",
    "union",
    "goto",
    "inline",
    "auto",
    "min",
    "max",
    "sqrt",
    "exp",
    "log",
    "pow",
    "mad",
    "fma",
    "clamp",
    "dot",
    "select",
    "barrier",
    "mem_fence",
    "get_global_id",
    "get_local_id",
    "get_group_id",
    "get_local_size",
    "vload4",
    "vstore4",
    "convert_int",
    "as_float",
    "printf",
    "sin",
    "cos",
    "abs",
    "fabs",
    "floor",
    "ceil",
    "mix",
    "step",
    "sign",
    "length",
    "normalize",
    "cross",
    "any",
    "all",
    "shuffle",
    "NAN",
    "INFINITY",
    "MAXFLOAT",
    "M_PI",
    "M_PI_2",
    "FLT_MAX",
    "CLK_LOCAL_MEM_FENCE",
    "NULL",
    "__kernel",
    "__global",
    "__FILE__",
    "__LINE__",
    "_Bool",
];

/// Every hostile name.
pub fn hostile_names() -> impl Iterator<Item = &'static str> {
    COMPILER_BINDERS
        .iter()
        .chain(GENERATED_C)
        .chain(OPENCL_C)
        .copied()
}

/// The program `text` with every name it binds (kernel parameters, size variables, lambda
/// and `let` variables, user functions and their parameters) renamed to a distinct hostile
/// name, drawn at random from `seed`; names the program uses otherwise (built-ins it calls)
/// and primitive names are never drawn. Kernel names are kept. `Err` if the text does not
/// parse.
pub fn hostile(text: &str, seed: u64) -> Result<String, String> {
    let prog = parse::parse_program_str(text).map_err(|e| e.to_string())?;
    let (vars, sizes) = rename::bound_names(&prog);
    let mut used: BTreeSet<String> = vars.iter().chain(&sizes).cloned().collect();
    for k in &prog.kernels {
        used.extend(names::of_kernel(&prog, k));
    }
    // Every word of the text too: `reduce(max, z)` uses `max` as an operator section, which a
    // variable or function of that name would shadow.
    used.extend(
        text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map(str::to_string),
    );
    let mut pool: Vec<&str> = hostile_names()
        .filter(|n| !used.contains(*n) && Prim::from_name(n).is_none())
        .collect();
    pool.sort_unstable();
    pool.dedup();
    pool.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
    let mut fresh = pool.into_iter();
    let mut map = std::collections::HashMap::new();
    for n in vars.iter().chain(&sizes) {
        let to = fresh
            .next()
            .ok_or_else(|| "more names than hostile names".to_string())?;
        map.insert(n.clone(), to.to_string());
    }
    let renamed =
        rename::rename_program(&prog, &|n| vars.contains(n).then(|| map[n].clone()), &|s| {
            sizes.contains(s).then(|| map[s].clone())
        });
    Ok(lift_runtime::core::print::program(&renamed))
}
