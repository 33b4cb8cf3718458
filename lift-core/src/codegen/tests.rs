//! Tests of the generated OpenCL C text.

use super::*;
use crate::parse::parse_program_str;
use crate::typeck::check_program;

/// Parses, type-checks and compiles the only kernel of `src`.
fn gen(src: &str) -> Generated {
    let mut p = parse_program_str(src).unwrap();
    let infos = check_program(&mut p).unwrap();
    let k = p.kernels[0].name.clone();
    match generate(&p, &k, &infos[0]) {
        Ok(g) => g,
        Err(e) => panic!("{e}\n{src}"),
    }
}

#[test]
fn show() {
    for src in [
        "kernel Blur3<N>(input: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input }",
        "kernel T<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] { map(map(|v| v * 2.0)) o transpose $ x }",
        "kernel J<N>(x: [f32; N]) -> [f32; N] { join o map(map(|v| v + 1.0)) o split(4) $ x }",
        "kernel Dot<N>(x: [f32; N], y: [f32; N]) -> [f32; N / 128 * 64] { join o map_wrg(0, map_lcl(0, reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32)) o split(2)) o split(128) $ zip(x, y) }",
        "kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] { map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a }",
        "kernel S<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ x }",
    ] {
        let g = gen(src);
        println!("{}\n{}\n{:?}\n", g.lowered, g.source, g.kernels);
    }
}
