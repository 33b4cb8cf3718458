//! OpenCL C identifiers for the names a user chose (parameters, sizes, user functions and
//! their parameters, kernels), such that no user name can meet a name the code generator makes
//! up, an OpenCL C keyword, a built-in function or type, or a predefined macro.
//!
//! The code generator's own names have one of three shapes: they start with `lift_` or
//! `LIFT_` (`lift_idx`, `lift_size_N`, `LIFT_SIZE_N`), they end with a digit (`gid0`, `l1`,
//! `acc_3`, `tmp_l_2`), or they are `out` or a tuple struct `Tuple_..`. None starts or ends
//! with `_`.
//!
//! A user name is printed as written when it is *plain*: it has none of those shapes, neither
//! starts nor ends with `_`, and is no reserved word of OpenCL C (see [`is_reserved`]).
//! Otherwise it gets a suffix: `_` (`l0` is `l0_`, `int` is `int_`, `lift_t0` is `lift_t0_`),
//! or `_u` for a name that starts with `_` (`_x` is `_x_u`). The mapping is injective and its
//! images are disjoint from the generator's names and from the reserved words: plain names end
//! neither in `_` nor in a digit; suffixed ones end in `_` (no reserved word does, but the
//! `__NAME__` macros, which start with `_`) or start with `_` and end in `_u` (nothing reserved
//! does).
//!
//! User functions are `uf_{name}` ([`fun_c_name`]); a variable whose name would start with
//! `uf_` (after any number of `v_`) is printed `v_{name}_`, so nothing in a kernel's scope can
//! shadow a function the kernel calls.

/// The C identifier of a user-chosen name (see the module docs).
pub fn c_name(name: &str) -> String {
    if in_function_family(name) {
        format!("v_{name}_")
    } else if name.starts_with('_') {
        format!("{name}_u")
    } else if is_plain(name) {
        name.to_string()
    } else {
        format!("{name}_")
    }
}

/// The C identifier of user function `name`: `uf_{name}`. No other identifier starts with
/// `uf_` (a user's name that does is printed `v_{name}_`, see [`in_function_family`]), so
/// no parameter or local can shadow a user function where a kernel calls it.
pub fn fun_c_name(name: &str) -> String {
    format!("uf_{name}")
}

/// Is `name` of the form `v_v_..uf_..` (any number of `v_`, then `uf_`)? Such names are
/// printed `v_{name}_`: the images start with `v_`, end with `_` and are of this form again,
/// so no two names meet and none starts with `uf_`.
fn in_function_family(name: &str) -> bool {
    let mut s = name;
    while let Some(rest) = s.strip_prefix("v_") {
        s = rest;
    }
    s.starts_with("uf_")
}

/// Is `name` printed as written?
fn is_plain(name: &str) -> bool {
    !name.is_empty()
        && !in_function_family(name)
        && !name.starts_with('_')
        && !name.ends_with('_')
        && !name.ends_with(|c: char| c.is_ascii_digit())
        && !has_prefix(name, &["lift_", "LIFT_", "Tuple_"])
        && name != "out"
        && !is_reserved(name)
}

fn has_prefix(name: &str, prefixes: &[&str]) -> bool {
    prefixes.iter().any(|p| name.starts_with(p))
}

/// Is `name` a keyword, built-in type, built-in function or predefined macro of OpenCL C
/// (or in one of their families: `convert_*`, `as_*`, `vload*`, `atomic_*`, `native_*`,
/// `FLT_*`, `CLK_*`, ...)? Names ending in a digit (`float4`, `vload4`, `atan2`) are never
/// plain and need no entry here.
pub fn is_reserved(name: &str) -> bool {
    let upper = name
        .bytes()
        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
    RESERVED.binary_search(&name).is_ok()
        || has_prefix(name, RESERVED_PREFIXES)
        || (upper && has_prefix(name, MACRO_PREFIXES))
}

/// The C identifier of a kernel's name. A kernel is never called, so a local of the
/// generator's that shadows it does no harm: a name ending in digits stays as written (`Blur3`)
/// unless it is an OpenCL C name (`float4`, `exp2`, `M_PI_2`); otherwise as [`c_name`].
pub fn kernel_c_name(name: &str) -> String {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
    if stem.len() < name.len() && is_plain(stem) {
        name.to_string()
    } else {
        c_name(name)
    }
}

/// Families of OpenCL C built-ins and macros, by prefix.
const RESERVED_PREFIXES: &[&str] = &[
    "as_",
    "async_",
    "atom_",
    "atomic_",
    "convert_",
    "get_",
    "half_",
    "image1d_",
    "image2d_",
    "image3d_",
    "native_",
    "read_image",
    "sub_group_",
    "vload",
    "vstore",
    "work_group_",
    "write_image",
];

/// Families of OpenCL C macros, by prefix, for names in capitals (`M_PI`, `FLT_MAX`; not
/// `M_dim`).
const MACRO_PREFIXES: &[&str] = &[
    "CHAR_", "CL_", "CLK_", "DBL_", "FLT_", "FP_", "HALF_", "INT_", "LONG_", "M_", "SCHAR_",
    "SHRT_", "UCHAR_", "UINT_", "ULONG_", "USHRT_",
];

/// Keywords, types, built-in functions and macros of OpenCL C 1.2 and 2.0 (sorted, for
/// binary search).
const RESERVED: &[&str] = &[
    "EOF",
    "HUGE_VAL",
    "HUGE_VALF",
    "INFINITY",
    "MAXFLOAT",
    "NAN",
    "NULL",
    "abs",
    "abs_diff",
    "acos",
    "acosh",
    "acospi",
    "add_sat",
    "all",
    "any",
    "asin",
    "asinh",
    "asinpi",
    "atan",
    "atan2pi",
    "atanh",
    "atanpi",
    "auto",
    "barrier",
    "bitselect",
    "bool",
    "break",
    "case",
    "cbrt",
    "ceil",
    "char",
    "clamp",
    "clk_event_t",
    "clz",
    "complex",
    "const",
    "constant",
    "continue",
    "copysign",
    "cos",
    "cosh",
    "cospi",
    "cross",
    "ctz",
    "default",
    "degrees",
    "distance",
    "do",
    "dot",
    "double",
    "else",
    "enum",
    "erf",
    "erfc",
    "event_t",
    "exp",
    "expm1",
    "extern",
    "fabs",
    "false",
    "fast_distance",
    "fast_length",
    "fast_normalize",
    "fdim",
    "float",
    "floor",
    "fma",
    "fmax",
    "fmin",
    "fmod",
    "for",
    "fract",
    "frexp",
    "generic",
    "global",
    "goto",
    "hadd",
    "half",
    "hypot",
    "if",
    "ilogb",
    "imaginary",
    "inline",
    "int",
    "intptr_t",
    "isequal",
    "isfinite",
    "isgreater",
    "isgreaterequal",
    "isinf",
    "isless",
    "islessequal",
    "islessgreater",
    "isnan",
    "isnormal",
    "isnotequal",
    "isordered",
    "isunordered",
    "kernel",
    "ldexp",
    "length",
    "lgamma",
    "lgamma_r",
    "local",
    "log",
    "log1p",
    "logb",
    "long",
    "mad",
    "mad_hi",
    "mad_sat",
    "max",
    "maxmag",
    "mem_fence",
    "memory_order",
    "memory_scope",
    "min",
    "minmag",
    "mix",
    "modf",
    "mul",
    "mul_hi",
    "nan",
    "ndrange_t",
    "nextafter",
    "normalize",
    "pipe",
    "popcount",
    "pow",
    "pown",
    "powr",
    "prefetch",
    "printf",
    "private",
    "ptrdiff_t",
    "quad",
    "queue_t",
    "radians",
    "read_mem_fence",
    "read_only",
    "read_write",
    "register",
    "remainder",
    "remquo",
    "reserve_id_t",
    "restrict",
    "return",
    "rhadd",
    "rint",
    "rootn",
    "rotate",
    "round",
    "rsqrt",
    "sampler_t",
    "select",
    "short",
    "shuffle",
    "sign",
    "signbit",
    "signed",
    "sin",
    "sincos",
    "sinh",
    "sinpi",
    "size_t",
    "sizeof",
    "smoothstep",
    "sqrt",
    "static",
    "step",
    "struct",
    "sub_sat",
    "switch",
    "tan",
    "tanh",
    "tanpi",
    "tgamma",
    "true",
    "trunc",
    "typedef",
    "uchar",
    "uint",
    "uintptr_t",
    "ulong",
    "uniform",
    "union",
    "unsigned",
    "upsample",
    "ushort",
    "vec_step",
    "void",
    "volatile",
    "wait_group_events",
    "while",
    "write_mem_fence",
    "write_only",
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn reserved_is_sorted() {
        assert!(RESERVED.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn kernel_names_keep_their_digits() {
        assert_eq!(kernel_c_name("Blur3"), "Blur3");
        assert_eq!(kernel_c_name("Gemm"), "Gemm");
        assert_eq!(kernel_c_name("float4"), "float4_");
        assert_eq!(kernel_c_name("exp2"), "exp2_");
        assert_eq!(kernel_c_name("M_PI_2"), "M_PI_2_");
        assert_eq!(kernel_c_name("lift_k1"), "lift_k1_");
    }

    #[test]
    fn plain_names_stay_readable() {
        for n in ["input", "x", "N", "alpha", "row", "weights", "M_dim"] {
            assert_eq!(c_name(n), n, "{n}");
        }
    }

    #[test]
    fn names_the_generator_or_opencl_use_are_suffixed() {
        let cases = [
            ("l0", "l0_"),
            ("wg0", "wg0_"),
            ("gid1", "gid1_"),
            ("acc_1", "acc_1_"),
            ("lift_t0", "lift_t0_"),
            ("lift_idx", "lift_idx_"),
            ("out", "out_"),
            ("int", "int_"),
            ("float4", "float4_"),
            ("min", "min_"),
            ("barrier", "barrier_"),
            ("get_global_id", "get_global_id_"),
            ("convert_int", "convert_int_"),
            ("M_PI", "M_PI_"),
            ("FLT_MAX", "FLT_MAX_"),
            ("Tuple_float_int", "Tuple_float_int_"),
            ("x_", "x__"),
            ("_x", "_x_u"),
            ("__FILE_", "__FILE__u"),
            ("uf_f", "v_uf_f_"),
            ("v_uf_f", "v_v_uf_f_"),
            ("v_x", "v_x"),
        ];
        for (n, c) in cases {
            assert_eq!(c_name(n), c, "{n}");
        }
    }

    #[test]
    fn the_mapping_is_injective_and_avoids_generated_and_reserved_names() {
        // Every name built from these pieces, and the generator's shapes.
        let pieces = [
            "", "_", "__", "a", "l", "lift_", "x_", "0", "_1", "u", "int", "M_PI", "uf_", "v_",
        ];
        let mut names = HashSet::new();
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let n = format!("{a}{b}{c}");
                    if !n.is_empty() && !n.starts_with(|c: char| c.is_ascii_digit()) {
                        names.insert(n);
                    }
                }
            }
        }
        let mut images = HashSet::new();
        for n in &names {
            let c = c_name(n);
            assert!(images.insert(c.clone()), "two names map to {c}");
            let generated = (c.starts_with("lift_")
                || c.starts_with("LIFT_")
                || c.ends_with(|c: char| c.is_ascii_digit())
                || c == "out"
                || c.starts_with("Tuple_"))
                && !c.starts_with('_')
                && !c.ends_with('_');
            assert!(!generated, "{n} maps to a generated shape {c}");
            // The families are matched by prefix; their members never end in `_`.
            assert!(
                c.ends_with('_') || c.ends_with("_u") || !is_reserved(&c),
                "{n} maps to {c}"
            );
            assert!(
                !(c.starts_with("__") && c.ends_with("__")),
                "{n} maps to a macro shape {c}"
            );
            assert!(!c.starts_with("uf_"), "{n} maps to a function's shape {c}");
        }
        for n in &names {
            assert!(
                !images.contains(&fun_c_name(n)),
                "function {n} meets a name"
            );
        }
    }
}
