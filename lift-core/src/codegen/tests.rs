//! Tests of the generated OpenCL C text.

use super::*;
use crate::parse::parse_program_str;
use crate::typeck::check_program;

/// Parses, type-checks and compiles the last kernel of `src` through the driver; gives the
/// default lowering (the `reduction` or `map` candidate).
fn try_gen(src: &str) -> GResult<Generated> {
    let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let k = p.kernels.last().map(|k| k.name.clone()).unwrap_or_default();
    let compiled = crate::driver::compile_kernel(&p, &k).map_err(|e| match e {
        crate::driver::DriverError::Codegen(e) => e,
        e => CodegenError::Lowering(e.to_string()),
    })?;
    compiled
        .candidates
        .into_iter()
        .find(|c| ["reduction", "stages", "map"].contains(&c.strategy.as_str()))
        .map(|c| c.generated)
        .ok_or_else(|| CodegenError::Internal("no default candidate".into()))
}

fn gen(src: &str) -> Generated {
    try_gen(src).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// The lines of the kernel that contain an indexed access.
fn accesses(g: &Generated) -> Vec<String> {
    g.source
        .lines()
        .filter(|l| l.contains('['))
        .map(|l| l.trim().to_string())
        .collect()
}

fn assert_has(g: &Generated, needle: &str) {
    assert!(
        g.source.contains(needle),
        "missing `{needle}` in\n{}",
        g.source
    );
}

#[test]
fn stencil_from_readme() {
    let g = gen("kernel Blur3<N>(input: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input }");
    assert_eq!(
        g.lowered,
        "map_glb(0, reduce_seq(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input"
    );
    assert_has(
        &g,
        "kernel void Blur3(const global float* restrict input, global float* out, lift_idx lift_size_N)",
    );
    assert_has(&g, "if (get_global_id(0) < N) {");
    assert_has(&g, "float acc_1 = 0.0f;");
    assert_has(&g, "for (lift_idx i_2 = 0; i_2 < 3; i_2 += 1) {");
    assert_has(
        &g,
        "acc_1 = acc_1 + input[lift_min(N - 1, lift_max(0, gid0 + i_2 - 1))];",
    );
    assert_has(&g, "out[gid0] = acc_1;");
    let k = &g.kernels[0];
    assert_eq!(
        k.args,
        vec![
            KernelArg::Input { param: 0 },
            KernelArg::Output,
            KernelArg::Size("N".into())
        ]
    );
    assert_eq!(k.global, vec![crate::arith::Nat::size_var("N")]);
    assert!(k.local.is_none());
}

#[test]
fn join_split_and_transpose_indices_have_no_div_or_mod() {
    for src in [
        "kernel J<N>(x: [f32; N]) -> [f32; N] { join o map(map(|v| v + 1.0)) o split(4) $ x }",
        "kernel T<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] { map(map(|v| v * 2.0)) o transpose $ x }",
        "kernel W<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map(map(|v| v * 2.0)) o split(M) o join $ x }",
        "kernel X<N>(x: [f32; N]) -> [f32; N] { join o map_wrg(0, map_lcl(0, |v| v + 1.0)) o split(32) $ x }",
    ] {
        let g = gen(src);
        for a in accesses(&g) {
            assert!(!a.contains('/') && !a.contains('%'), "{a}\n{}", g.source);
        }
    }
    let g = gen("kernel T<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] { map(map(|v| v * 2.0)) o transpose $ x }");
    assert_has(&g, "out[N * gid1 + gid0] = x[M * gid0 + gid1] * 2.0f;");
}

#[test]
fn partial_dot_product_uses_work_groups() {
    let g = gen(
        "kernel Dot<N>(x: [f32; N], y: [f32; N]) -> [f32; N / 128 * 64] {
            join o map_wrg(0, map_lcl(0, reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32)) o split(2)) o split(128) $ zip(x, y) }",
    );
    assert_has(&g, "__attribute__((reqd_work_group_size(64, 1, 1)))");
    assert_has(&g, "lift_idx wg0 = get_group_id(0);");
    assert_has(&g, "lift_idx l0 = get_local_id(0);");
    assert_has(
        &g,
        "acc_1 = acc_1 + x[i_2 + 2 * l0 + 128 * wg0] * y[i_2 + 2 * l0 + 128 * wg0];",
    );
    assert_has(&g, "out[l0 + 64 * wg0] = acc_1;");
    assert!(!g.source.contains("barrier"));
    let k = &g.kernels[0];
    assert_eq!(k.local, Some(vec![crate::arith::Nat::cst(64)]));
    assert_eq!(k.global[0].to_string(), "N / 128 * 64");
}

#[test]
fn local_staging_gets_a_barrier_and_a_guard() {
    let g = gen(
        "kernel Dot<N>(x: [f32; N], y: [f32; N]) -> [f32; N / 128 * 32] {
            join o map_wrg(0, map_lcl(0, reduce_seq(+, 0.0f32)) o split(2)
              o to_local(map_lcl(0, reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32))) o split(2)) o split(128) $ zip(x, y) }",
    );
    assert_has(&g, "local float tmp_l_1[64];");
    assert_has(&g, "tmp_l_1[l0] = acc_2;");
    assert_has(&g, "barrier(CLK_LOCAL_MEM_FENCE);");
    assert_has(&g, "if (get_local_id(0) < 32) {");
    assert_has(&g, "acc_4 + tmp_l_1[i_5 + 2 * l0]");
    assert_eq!(g.kernels[0].local_mem_bytes, crate::arith::Nat::cst(256));
}

#[test]
fn matching_map_lcl_needs_no_barrier() {
    let g = gen(
        "kernel K<N>(x: [f32; N]) -> [f32; N] {
            join o map_wrg(0, map_lcl(0, |v| v * 2.0) o to_local(map_lcl(0, |v| v + 1.0))) o split(64) $ x }",
    );
    assert!(!g.source.contains("barrier"), "{}", g.source);
    let g = gen(
        "kernel K<N>(x: [f32; N]) -> [f32; N] {
            join o map_wrg(0, map_lcl(0, |v| v * 2.0) o gather(reverse) o to_local(map_lcl(0, |v| v + 1.0))) o split(64) $ x }",
    );
    assert_has(&g, "barrier(CLK_LOCAL_MEM_FENCE);");
}

#[test]
fn user_functions_and_tuples() {
    let g = gen(
        "fn mult(a: f32, b: f32) -> f32 { let c = a * b; if c > 0.0 { c } else { -c } }
         kernel K<N>(x: [f32; N], y: [f32; N]) -> [(f32, f32); N] { map(|p| (mult(p.0, p.1), p.0)) $ zip(x, y) }",
    );
    assert_has(
        &g,
        "typedef struct { float _0; float _1; } Tuple_float_float;",
    );
    assert_has(&g, "float uf_mult(float a, float b);");
    assert_has(&g, "float c_1 = a * b;");
    assert_has(&g, "return (c_1 > 0.0f) ? c_1 : -c_1;");
    assert_has(&g, "out[gid0]._0 = uf_mult(x[gid0], y[gid0]);");
    assert_has(&g, "out[gid0]._1 = x[gid0];");
}

#[test]
fn math_builtins_and_types() {
    let g = gen("kernel K<N>(x: [f64; N]) -> [f64; N] { map(|v| max(abs(v), sqrt(v))) $ x }");
    assert_has(&g, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable");
    assert_has(&g, "fmax(fabs(x[gid0]), sqrt(x[gid0]))");
    let g = gen("kernel K<N>(x: [f16; N], s: f16) -> [f16; N] { map(|v| v * s) $ x }");
    assert_has(
        &g,
        "const global half* restrict x, float s, global half* out",
    );
    assert_has(&g, "vstore_half(vload_half(gid0, x) * s, gid0, out);");
    let g = gen("kernel K<N>(x: [i32; N]) -> [i32; N] { map(|v| min(v, 3) % 2) $ x }");
    assert_has(&g, "out[gid0] = min(x[gid0], 3) % 2;");
}

#[test]
fn pad_constant_and_mirror_boundaries() {
    let g = gen(
        "kernel K<N>(x: [f32; N]) -> [f32; N + 2] { map(|v| v) o pad(1, 1, constant(7.0)) $ x }",
    );
    assert_has(&g, "(gid0 - 1 < 0 || gid0 - 1 >= N) ? 7.0f : x[gid0 - 1]");
    let g = gen("kernel K<N>(x: [f32; N]) -> [f32; N + 2] { map(|v| v) o pad(1, 1, mirror) $ x }");
    assert!(g.source.contains('?'), "{}", g.source);
}

#[test]
fn fusion_avoids_temporaries() {
    let g = gen("kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| v + 1.0) o map(|v| v * 2.0) $ x }");
    assert!(g.temporaries.is_empty());
    assert_has(&g, "out[gid0] = x[gid0] * 2.0f + 1.0f;");
}

/// A map behind a reindexing moves before it (normalisation) and fuses: no temporary, and
/// the map is parallel.
#[test]
fn maps_move_past_layouts_and_fuse() {
    let g = gen("kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| v + 1.0) o gather(reverse) o map(|v| v * 2.0) $ x }");
    assert!(g.temporaries.is_empty());
    assert_eq!(g.kernels[0].global[0].to_string(), "N");
}

/// A map behind a constant border cannot move past it: the producer gets a kernel of its
/// own (kernel fission), storing a global temporary that the consumer's kernel reads.
#[test]
fn constant_border_producer_gets_its_own_kernel() {
    let g = gen("kernel K<N>(x: [f32; N]) -> [f32; N + 2] { map(|v| v + 1.0) o pad(1, 1, constant(0.0)) o map(|v| v * 2.0) $ x }");
    assert_eq!(g.kernels.len(), 2, "{}", g.source);
    // The producer stage is an element-wise map: vectors of 4 with a scalar tail.
    assert_eq!(g.kernels[0].global[0].to_string(), "(N + 3) / 4");
    assert_eq!(g.kernels[1].global[0].to_string(), "N + 2");
    assert_eq!(g.temporaries.len(), 1);
    assert_eq!(g.temporaries[0].bytes.to_string(), "4 * N");
    assert!(g.kernels[0].args.contains(&KernelArg::Temporary(0)));
    assert!(g.kernels[1].args.contains(&KernelArg::Temporary(0)));
}

#[test]
fn vectors_through_as_vector() {
    // Vectors at multiples of their width in global memory go through vector pointers.
    let g = gen("kernel K<N>(x: [f32; N]) -> [f32; N] { as_scalar o map_glb(0, vectorize(4, |v| v * 2.0)) o as_vector(4) $ x }");
    assert_has(
        &g,
        "((global float4*)out)[gid0] = ((const global float4*)x)[gid0] * 2.0f;",
    );
    // Rows of 6 floats: a row's first vector is not at a multiple of 4, so `vload4` (which
    // needs no alignment) reads it.
    let g = gen("kernel K<N>(x: [[f32; 6]; N]) -> [[f32; 4]; N] {
        map_glb(0, |r| as_scalar o map_seq(vectorize(4, |v| v * 2.0)) o as_vector(4) o take(4) $ r) $ x }");
    assert_has(&g, "vload4(0, x + 6 * gid0)");
}

#[test]
fn iterate_double_buffers() {
    let g = gen("kernel K<N>(x: [f32; N]) -> [f32; N] { iterate(4, map_glb(0, |v| v * 2.0)) $ x }");
    assert_eq!(g.temporaries.len(), 2, "{}", g.source);
    // Steps 2 and 3 alternate the two buffers (no pointer swap), so every access names the
    // memory it touches.
    assert!(!g.source.contains("tmp = "), "{}", g.source);
    assert_has(&g, "tmp_g_2[gid0] = tmp_g_1[gid0] * 2.0f;");
    assert_has(&g, "tmp_g_1[gid0] = tmp_g_2[gid0] * 2.0f;");
}

#[test]
fn unsupported_constructs_are_errors() {
    // Private memory is registers: its size must be known (local memory may depend on sizes).
    let e = try_gen(
        "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map_glb(0, |r| map_seq(|v| v) o to_private(map_seq(|v| v + 1.0)) $ r) $ x }",
    );
    assert!(
        matches!(&e, Err(CodegenError::NotConstant { what, .. }) if what == "private memory"),
        "{e:?}"
    );
}

/// Steps that read other work-items' results cannot be iterated across work-groups in one
/// kernel (there is no global barrier): they get one kernel per step, and too many steps are
/// an error; an elementwise step can iterate in one kernel.
#[test]
fn iterate_across_work_groups_needs_an_elementwise_step() {
    let src = "kernel K<N>(x: [f32; N]) -> [f32; N] { iterate(3, map_glb(0, |v| v + 1.0) o gather(reverse)) $ x }";
    let g = gen(src);
    assert_eq!(g.kernels.len(), 3, "{}", g.source);
    let e = try_gen(&src.replace("iterate(3,", "iterate(40,"));
    assert!(
        matches!(&e, Err(CodegenError::Unsupported(m)) if m.contains("kernel per step")),
        "{e:?}"
    );
    gen("kernel K<N>(x: [f32; N]) -> [f32; N] { iterate(3, map_glb(0, |v| v + 1.0)) o gather(reverse) $ x }");
    gen("kernel K<N>(x: [f32; N]) -> [f32; N] { join o map_wrg(0, iterate(3, map_lcl(0, |v| v + 1.0) o gather(reverse))) o split(8) $ x }");
}

/// An array accumulator of a work-group-level `reduce_seq`, written by a `map_lcl` into
/// private memory: each work-item keeps only its own elements (`float tmp_p_N[2]`, not
/// `[8 * 2]`), updated in place.
#[test]
fn array_accumulator_in_private_memory_is_per_work_item() {
    let g = gen(
        "kernel R<N, G>(x: [[[[f32; 2]; 8]; N]; G]) -> [[[f32; 2]; 8]; G] {
        map_wrg(0, |xs| map_lcl(0, map_seq(id)) o reduce_seq(|acc, t|
            map_lcl(0, |(a, r)| map_seq(|p| p.0 + p.1) $ zip(a, r)) $ zip(acc, t),
            to_private(map_lcl(0, map_seq(|v| 0.0f32))) $ xs[0]) $ xs) $ x }",
    );
    assert_has(&g, "float tmp_p_1[2];");
    assert_has(&g, "tmp_p_1[i_4] = tmp_p_1[i_4] + x[");
}

/// `map(f)` of layout primitives is a view on both sides: no loop, no temporary.
#[test]
fn map_of_layout_primitives_is_a_view() {
    let g = gen("kernel T<N, M>(a: [[[f32; 4]; M]; N]) -> [[f32; 4 * N]; M] {
        map(join) o transpose o map_glb(1, map_glb(0, map_seq(|v| v * 2.0))) o map(transpose) o map(transpose) $ a }");
    assert!(!g.source.contains("tmp_"), "{}", g.source);
    assert_has(&g, "out[");
}

/// A transpose of outer dimensions keeps vector loads (the vector index stays innermost), and
/// `as_scalar` of private vectors reads lanes by name.
#[test]
fn vectors_through_outer_transposes_and_private_lanes() {
    let g = gen("kernel K<N>(x: [[[f32; 4]; N]; 2]) -> [[f32; 8]; N] {
        map_glb(0, |p| map_seq_unroll(id) o as_scalar o to_private(map_seq_unroll(id)) o join $ p)
          o transpose o map(map(as_vector(4))) $ x }");
    assert_has(&g, "float4 tmp_p_");
    assert_has(&g, "= ((const global float4*)x)[N + gid0];");
    assert_has(&g, "[1].s3;");
    // The vector's own index may not be reordered.
    let e = try_gen(
        "kernel K<N>(x: [[f32; N]; 4]) -> [f32; 4 * N] {
        as_scalar o map_glb(0, id) o join o map(as_vector(4)) o transpose $ x }",
    );
    assert!(e.is_err());
}

/// Two tuple components staged into local memory share one barrier.
#[test]
fn sibling_local_stagings_share_a_barrier() {
    let g = gen("kernel K<N>(x: [f32; N], y: [f32; N]) -> [f32; N] {
        join o map_wrg(0, |t| (|(a, b)| map_lcl(0, |p| p.0 + p.1) $ zip(gather(reverse) $ a, b))
          $ (to_local(map_lcl(0, id)) $ t.0, to_local(map_lcl(0, id)) $ t.1)) $ zip(split(64) $ x, split(64) $ y) }");
    assert_eq!(g.source.matches("barrier(").count(), 1, "{}", g.source);
}

/// `map_lcl`s over size variables in two dimensions share the `lanes` work-items: 8 x 8 for
/// 64 and 16 x 16 for 256 (a group of `lanes x lanes` exceeds every device); in one dimension
/// they take all of them.
#[test]
fn symbolic_local_sizes_share_the_lanes() {
    let two = "kernel K<N, M, A, B>(x: [[f32; M]; N]) -> [[f32; M]; N] { \
        join o map_wrg(1, |rows| map(join) o transpose o map_wrg(0, |blk| map_lcl(1, map_lcl(0, |v| v + 1.0)) $ blk) o transpose o map(split(B)) $ rows) o split(A) $ x }";
    let mut p = parse_program_str(two).expect("parses");
    let infos = check_program(&mut p).expect("checks");
    for (lanes, side) in [(64, 8), (256, 16), (1024, 32), (100, 8)] {
        let g = generate_with(
            &p,
            "K",
            &infos[0],
            &Options {
                lanes,
                ..Options::default()
            },
        )
        .expect("generates");
        let local = g.kernels[0].local.clone().expect("a fixed group");
        assert_eq!(local, vec![Nat::cst(side), Nat::cst(side)], "lanes {lanes}");
    }
    let one = "kernel K<N, A>(x: [f32; N]) -> [f32; N] { join o map_wrg(0, map_lcl(0, |v| v + 1.0)) o split(A) $ x }";
    let mut p = parse_program_str(one).expect("parses");
    let infos = check_program(&mut p).expect("checks");
    let g = generate_with(
        &p,
        "K",
        &infos[0],
        &Options {
            lanes: 256,
            ..Options::default()
        },
    )
    .expect("generates");
    assert_eq!(g.kernels[0].local, Some(vec![Nat::cst(256)]));
}

/// `reduce_seq_unroll` over global or local memory is a loop the device compiler unrolls
/// (`#pragma unroll`); over private memory, one copy of the body per element (constant
/// indices keep the elements in registers).
#[test]
fn unrolled_reductions_copy_only_over_private_data() {
    let g = gen("kernel K<N>(x: [[f32; 4]; N]) -> [f32; N] {
        map_glb(0, |r| reduce_seq_unroll(|a, v| a + v, 0.0) $ r) $ x }");
    assert_has(&g, "#pragma unroll");
    assert_has(&g, "i_2 < 4; i_2 += 1) {");
    let g = gen("kernel K<N>(x: [[f32; 4]; N]) -> [f32; N] {
        map_glb(0, |r| reduce_seq_unroll(|a, v| a + v, 0.0) o to_private(map_seq_unroll(id)) $ r) $ x }");
    assert!(!g.source.contains("#pragma unroll"), "{}", g.source);
    assert_has(&g, "[3];");
}
