//! Rewrite points: each applied to small kernels (sizes 1, primes, composites) must remove
//! every point, keep the result type and the interpreter's result; a misplaced point warns and
//! leaves the program as if it had not been written.

use crate::interp::{run_kernel, Scalar, Value};
use crate::ir::{Expr, ExprKind, Program};
use crate::parse::parse_program_str;
use crate::rewrite::points::{apply_points, PointWarning};
use crate::rewrite::walk::children;
use crate::typeck::check_program;
use crate::types::Type;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// 1-D lengths: 1, primes, composites, a power of two.
const SIZES: [usize; 8] = [1, 2, 3, 5, 7, 12, 13, 16];
/// 2-D shapes `(n, m)`.
const SHAPES: [(usize, usize); 5] = [(1, 1), (1, 5), (3, 4), (7, 6), (12, 13)];

fn has_point(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Point(..)) || children(e).into_iter().any(has_point)
}

fn count(t: &Type) -> usize {
    match t.as_array() {
        Some((inner, n)) => n.as_cst().map_or(0, |c| c as usize) * count(inner),
        None => 1,
    }
}

/// `src` without its points (`#[name(args)] `).
fn strip_points(src: &str) -> String {
    let mut out = String::new();
    let mut rest = src;
    while let Some(i) = rest.find("#[") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find(']').map_or(rest.len(), |j| i + j + 1);
        rest = rest[end..].trim_start();
    }
    out + rest
}

fn parse(src: &str) -> Program {
    parse_program_str(src).unwrap_or_else(|e| panic!("parse: {e}\n{src}"))
}

fn run(p: &Program, args: &[Value], what: &str) -> Vec<f32> {
    let v = run_kernel(p, "K", &[], args)
        .unwrap_or_else(|e| panic!("run ({what}): {e}\n{}", crate::print::program(p)));
    v.flatten()
        .into_iter()
        .map(|s| match s {
            Scalar::F32(x) => x,
            s => panic!("unexpected scalar {s}"),
        })
        .collect()
}

/// Applies the points of `template` (`{P}` = `point`, `{n} {m} {k}` = `dims`) and compares
/// with the kernel without them; gives the warnings. All points dropped (`unchanged`): the
/// program must print as the one without points.
fn case(template: &str, point: &str, dims: [usize; 3], unchanged: bool) -> Vec<PointWarning> {
    let fill = |p: &str| {
        template
            .replace("{P}", p)
            .replace("{n}", &dims[0].to_string())
            .replace("{m}", &dims[1].to_string())
            .replace("{k}", &dims[2].to_string())
    };
    let src = fill(point);
    let mut plain = parse(&strip_points(&src));
    check_program(&mut plain).unwrap_or_else(|e| panic!("typeck: {e}\n{src}"));
    let (out, warnings) =
        apply_points(&parse(&src), "K").unwrap_or_else(|e| panic!("apply: {e}\n{src}"));
    let shown = crate::print::program(&out);
    if std::env::var_os("SHOW_POINTS").is_some() {
        eprintln!("{src}\n=> {}\n", crate::print::expr(&out.kernels[0].body));
    }
    let (body, want) = (&out.kernels[0].body, &plain.kernels[0].body);
    assert!(!has_point(body), "a point is left\n{src}\n=>\n{shown}");
    let (t0, t1) = (
        want.ty.as_ref().expect("typed"),
        body.ty.as_ref().expect("typed"),
    );
    assert!(
        t0.equiv(t1, &Default::default()),
        "type {t0} vs {t1}\n{shown}"
    );
    if unchanged {
        assert_eq!(
            crate::print::expr(body),
            crate::print::expr(want),
            "\n{src}"
        );
    }
    let mut rng = StdRng::seed_from_u64(dims.iter().sum::<usize>() as u64);
    let args: Vec<Value> = plain.kernels[0]
        .params
        .iter()
        .map(|p| {
            let flat: Vec<Scalar> = (0..count(&p.ty))
                .map(|_| Scalar::F32(rng.gen_range(-1.0..1.0)))
                .collect();
            Value::from_flat(&p.ty, &|_| None, &flat).expect("input")
        })
        .collect();
    let (a, b) = (run(&plain, &args, "plain"), run(&out, &args, "rewritten"));
    let close = a.len() == b.len()
        && a.iter()
            .zip(&b)
            .all(|(x, y)| (x - y).abs() <= 1e-4 * (1.0 + x.abs()));
    assert!(close, "results differ\n{src}\n=>\n{shown}\n{a:?}\n{b:?}");
    warnings
}

/// The point applies without warnings.
fn applies(template: &str, point: &str, dims: [usize; 3]) {
    let w = case(template, point, dims, false);
    assert!(w.is_empty(), "{point}: {w:?}\n{template}");
}

/// The point warns (with `message` in the warning) and is dropped.
fn warns(template: &str, point: &str, dims: [usize; 3], message: &str) {
    let w = case(template, point, dims, true);
    assert_eq!(w.len(), 1, "{point}: {w:?}");
    assert!(w[0].message.contains(message), "{}", w[0].message);
}

const MAP1: &str = "kernel K(x: [f32; {n}]) -> [f32; {n}] { {P} map(|v| v * 2.0 + 1.0) $ x }";
const MAP2: &str =
    "kernel K(x: [[f32; {m}]; {n}]) -> [[f32; {m}]; {n}] { {P} map(map(|v| v - 0.5)) $ x }";
const SUM: &str = "kernel K(x: [f32; {n}]) -> f32 { {P} reduce(+, 0.0) $ x }";

#[test]
fn split_join() {
    for n in SIZES {
        applies(MAP1, "#[split_join(_)]", [n, 0, 0]);
        applies(MAP1, "#[split_join]", [n, 0, 0]);
        applies(MAP1, "#[split_join(1)] #[split_join(_)]", [n, 0, 0]);
        applies(MAP1, &format!("#[split_join({n})]"), [n, 0, 0]);
    }
    applies(MAP1, "#[split_join(4)]", [12, 0, 0]);
    warns(MAP1, "#[split_join(5)]", [12, 0, 0], "does not divide");
    warns(SUM, "#[split_join(_)]", [7, 0, 0], "expects `map(f)`");
    warns(MAP1, "#[split_join(2, 3)]", [12, 0, 0], "at most 1");
}

#[test]
fn join_split() {
    let map2 = "kernel K(x: [[f32; {m}]; {n}]) -> [[f32; {m}]; {n}] { {P} map2(|v| v - 0.5) $ x }";
    for (n, m) in SHAPES {
        applies(MAP2, "#[join_split]", [n, m, 0]);
        applies(map2, "#[join_split]", [n, m, 0]);
    }
    warns(MAP1, "#[join_split]", [5, 0, 0], "map nest");
}

const AB: &str = "kernel K(a: [f32; {n}], b: [f32; {m}]) -> [[f32; {m}]; {n}] \
                  { {P} map(|p| map(|q| p * q + 1.0) $ b) $ a }";
const MM: &str = "kernel K(a: [[f32; {k}]; {n}], b: [[f32; {k}]; {m}]) -> [[f32; {m}]; {n}] \
                  { {P} map(|r| map(|c| reduce(+, 0.0) o map(|(p, q)| p * q) $ zip(r, c)) $ b) $ a }";

#[test]
fn ab_tile() {
    for (n, m) in SHAPES {
        applies(AB, "#[ab_tile(_, _)]", [n, m, 0]);
        applies(AB, &format!("#[ab_tile({n}, 1)]"), [n, m, 0]);
        applies(MM, "#[ab_tile] #[tile_nested_map_reduce]", [n, m, 6]);
    }
    applies(AB, "#[ab_tile(4, 2)] #[ab_tile(2, 1)]", [12, 6, 0]);
    warns(AB, "#[ab_tile(5, 1)]", [12, 6, 0], "do not divide");
    warns(MAP2, "#[ab_tile]", [3, 4, 0], "expects");
}

const STENCIL: &str = "kernel K(x: [f32; {n}]) -> [f32; {n}] \
                       { map(reduce(+, 0.0)) o {P} slide(3, 1) o pad(1, 1, clamp) $ x }";
const STENCIL2: &str = "kernel K(x: [[f32; {m}]; {n}]) -> [[f32; {m}]; {n}] \
                        { map(map(reduce(+, 0.0) o join)) o {P} slide2(3, 1) o pad2(1, clamp) $ x }";

#[test]
fn tile_stencil() {
    for n in SIZES {
        applies(STENCIL, "#[tile_stencil(_)]", [n, 0, 0]);
        applies(STENCIL, "#[tile_stencil(_)] #[tile_stencil(3)]", [n, 0, 0]);
    }
    applies(STENCIL, "#[tile_stencil(6)]", [12, 0, 0]);
    for (n, m) in SHAPES {
        applies(STENCIL2, "#[tile_stencil]", [n, m, 0]);
        applies(STENCIL2, "#[tile_stencil(3, _)]", [n, m, 0]);
    }
    warns(STENCIL, "#[tile_stencil(7)]", [12, 0, 0], "not valid");
    warns(MAP1, "#[tile_stencil]", [12, 0, 0], "expects `slide");
}

#[test]
fn pad_extra() {
    for n in SIZES {
        applies(MAP1, "#[pad_extra]", [n, 0, 0]);
        applies(MAP1, "#[pad_extra(3)]", [n, 0, 0]);
        applies(MAP1, "#[pad_extra(_)] #[split_join(_)]", [n, 0, 0]);
        applies(STENCIL, "#[pad_extra]", [n, 0, 0]);
    }
    for (n, m) in SHAPES {
        applies(STENCIL2, "#[pad_extra]", [n, m, 0]);
    }
    let rev = "kernel K(x: [f32; {n}]) -> [f32; {n}] { {P} gather(reverse) $ x }";
    warns(rev, "#[pad_extra]", [5, 0, 0], "expects a chain");
}

const DOT: &str = "kernel K(a: [[f32; {k}]; {n}], b: [f32; {k}]) -> [f32; {n}] \
                   { {P} map(|r| reduce(+, 0.0) o map(|(p, q)| p * q) $ zip(r, b)) $ a }";

#[test]
fn tile_nested_map_reduce() {
    for k in SIZES {
        applies(DOT, "#[tile_nested_map_reduce(_)]", [3, 0, k]);
        applies(MM, "#[tile_nested_map_reduce(1)]", [2, 3, k]);
        applies(SUM, "#[tile_nested_map_reduce]", [k, 0, 0]);
    }
    applies(
        DOT,
        "#[tile_nested_map_reduce(4)] #[tile_nested_map_reduce(2)]",
        [3, 0, 16],
    );
    let offset = DOT.replace("0.0", "1.0");
    warns(
        &offset,
        "#[tile_nested_map_reduce]",
        [3, 0, 4],
        "no reduction",
    );
    warns(
        DOT,
        "#[tile_nested_map_reduce(5)]",
        [3, 0, 12],
        "no reduction",
    );
}

#[test]
fn materialise() {
    let data = "kernel K(x: [[f32; {m}]; {n}]) -> [[f32; {m}]; {n}] \
                { map(map(|v| v * 3.0)) $ {P} (map(map(|v| v + 1.0)) $ x) }";
    for (n, m) in SHAPES {
        applies(MAP2, "#[materialise]", [n, m, 0]);
        applies(data, "#[materialise]", [n, m, 0]);
    }
    warns(SUM, "#[materialise]", [5, 0, 0], "expects an array");
}

#[test]
fn optimise_data_layout() {
    let chain = "kernel K(x: [[f32; {m}]; {n}]) -> [[f32; {m}]; {n}] \
                 { map(map(|v| v * 3.0)) o {P} map(map(|v| v + 1.0)) $ x }";
    for (n, m) in SHAPES {
        applies(chain, "#[optimise_data_layout]", [n, m, 0]);
        applies(MAP2, "#[optimise_data_layout] #[join_split]", [n, m, 0]);
    }
    warns(
        MAP1,
        "#[optimise_data_layout]",
        [5, 0, 0],
        "array of arrays",
    );
}

#[test]
fn interchange_maps() {
    for (n, m) in SHAPES {
        applies(MAP2, "#[interchange_maps]", [n, m, 0]);
        applies(AB, "#[interchange_maps]", [n, m, 0]);
        applies(MM, "#[interchange_maps] #[ab_tile]", [n, m, 3]);
    }
    let fun = "kernel K(a: [f32; {n}], b: [f32; {m}]) -> [[f32; {m}]; {n}] \
               { ({P} map(|p| map(|q| p - q) $ b)) $ a }";
    applies(fun, "#[interchange_maps]", [3, 4, 0]);
    warns(MAP1, "#[interchange_maps]", [5, 0, 0], "expects");
}

#[test]
fn privatise_accumulator() {
    let rows =
        "kernel K(x: [[f32; {m}]; {n}]) -> [f32; {n}] { map(|r| {P} reduce(+, 0.0) $ r) $ x }";
    let fused = "kernel K(x: [[f32; {m}]; {n}]) -> [f32; {n}] \
                 { map({P} (reduce(max, -2.0) o map(|v| v * v))) $ x }";
    for (n, m) in SHAPES {
        applies(rows, "#[privatise_accumulator]", [n, m, 0]);
        applies(fused, "#[privatise_accumulator]", [n, m, 0]);
    }
    for k in SIZES {
        applies(SUM, "#[privatise_accumulator]", [k, 0, 0]);
    }
    warns(
        MAP1,
        "#[privatise_accumulator]",
        [5, 0, 0],
        "expects a reduction",
    );
}

/// Omitted arguments on symbolic sizes: fixed defaults with launch-time preconditions.
#[test]
fn symbolic_defaults() {
    let cases = [
        (
            "kernel K<N>(x: [f32; N]) -> [f32; N] { #[split_join] map(|v| v + 1.0) $ x }",
            64,
        ),
        (
            "kernel K<N>(x: [f32; N]) -> [f32; N] \
             { map(reduce(+, 0.0)) o #[tile_stencil] slide(3, 1) o pad(1, 1, clamp) $ x }",
            124,
        ),
        (
            "kernel K<N>(x: [f32; N]) -> [f32; N] { #[pad_extra] map(|v| v + 1.0) $ x }",
            7,
        ),
        (
            "kernel K<N>(x: [f32; N]) -> f32 { #[tile_nested_map_reduce] reduce(+, 0.0) $ x }",
            96,
        ),
    ];
    for (src, n) in cases {
        let (mut out, w) = apply_points(&parse(src), "K").expect("applies");
        assert!(
            w.is_empty() && !has_point(&out.kernels[0].body),
            "{w:?}\n{src}"
        );
        let pre = &check_program(&mut out).expect("checks")[0].preconditions;
        let (plain, dropped) =
            apply_points(&parse(&src.replace("#[", "#[skip_")), "K").expect("drops");
        assert_eq!(dropped.len(), 1);
        let x = Value::from_f32s(&(0..n).map(|i| (i % 7) as f32 - 3.0).collect::<Vec<_>>());
        let run = |p: &Program| run_kernel(p, "K", &[n as i64], std::slice::from_ref(&x));
        let (a, b) = (run(&plain).expect("runs"), run(&out).expect("runs"));
        assert_eq!(a.flatten(), b.flatten(), "{src}\n{pre:?}");
    }
}

const COLSUM: &str = "kernel K(x: [[f32; {m}]; {n}]) -> [f32; {m}] \
    { {P} reduce(|acc, r| map(|(u, v)| u + v) $ zip(acc, r), generate({m}, |i| 0.0)) $ x }";
const COLMAX: &str = "kernel K(x: [[f32; {m}]; {n}], z: [f32; {m}]) -> [f32; {m}] \
    { {P} reduce(|acc, r| map(|t| max(t.0, t.1 * 2.0)) $ zip(r, acc), z) $ x }";
const PLANES: &str = "kernel K(x: [[[f32; {k}]; {m}]; {n}]) -> [[f32; {k}]; {m}] \
    { {P} reduce(|a, b| map(|(p, q)| map(|(u, v)| u + v) $ zip(p, q)) $ zip(a, b), \
      generate2({m}, {k}, |i, j| 0.0)) $ x }";

#[test]
fn interchange_reduce() {
    for (n, m) in SHAPES {
        applies(COLSUM, "#[interchange_reduce]", [n, m, 0]);
        applies(COLMAX, "#[interchange_reduce]", [n, m, 0]);
        applies(PLANES, "#[interchange_reduce]", [n, m, 3]);
        applies(
            PLANES,
            "#[interchange_reduce] #[interchange_reduce]",
            [n, m, 2],
        );
    }
    warns(
        SUM,
        "#[interchange_reduce]",
        [5, 0, 0],
        "accumulator is an array",
    );
    // `acc` read outside the element-wise combination: not a reduction per column.
    let other = "kernel K(x: [[f32; {m}]; {n}]) -> [f32; {m}] \
        { {P} reduce(|acc, r| map(|(u, v)| u + v) $ zip(acc, acc), generate({m}, |i| 0.0)) $ x }";
    warns(
        other,
        "#[interchange_reduce]",
        [3, 4, 0],
        "accumulator is an array",
    );
}

/// Is `e` a `let` (hoisted by `kernel_fission`) at the top of the body?
fn let_on_top(template: &str, point: &str, dims: [usize; 3]) -> bool {
    let src = template
        .replace("{P}", point)
        .replace("{n}", &dims[0].to_string())
        .replace("{m}", &dims[1].to_string());
    let (out, _) = apply_points(&parse(&src), "K").expect("applies");
    matches!(out.kernels[0].body.kind, ExprKind::Let(..))
}

#[test]
fn kernel_fission() {
    let windows = "kernel K(x: [f32; {n}]) -> [f32; {n}] \
        { {P} (map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x) }";
    // Inside a lambda, a value of the parameters only: computed once, before the map.
    let inside = "kernel K(x: [f32; {n}]) -> [f32; {n}] \
        { map(|v| v + ({P} (reduce(+, 0.0) o map(|u| u * 2.0) $ x))) $ x }";
    let after_let = "kernel K(x: [[f32; {m}]; {n}]) -> [[f32; {m}]; {n}] \
        { { let y = map(map(|v| v + 1.0)) $ x; {P} (map(map(|v| v * 2.0)) o transpose o transpose $ y) } }";
    for n in SIZES {
        applies(MAP1, "#[kernel_fission]", [n, 0, 0]);
        applies(windows, "#[kernel_fission]", [n, 0, 0]);
        applies(inside, "#[kernel_fission]", [n, 0, 0]);
        assert!(let_on_top(inside, "#[kernel_fission]", [n, 0, 0]));
    }
    for (n, m) in SHAPES {
        applies(MAP2, "#[kernel_fission] #[join_split]", [n, m, 0]);
        applies(after_let, "#[kernel_fission]", [n, m, 0]);
    }
    let bound = "kernel K(x: [[f32; {m}]; {n}]) -> [[f32; {m}]; {n}] \
        { map(|r| {P} (map(|v| v * 2.0) $ r)) $ x }";
    warns(
        bound,
        "#[kernel_fission]",
        [3, 4, 0],
        "reads `r`, bound inside",
    );
    // On a function in a chain: the boundary at its input (`x` copied by a kernel).
    let chained = "kernel K(x: [f32; {n}]) -> [f32; {n}] \
        { map(|v| v + 1.0) o {P} map(|v| v * 2.0) o map(|v| v - 1.0) $ x }";
    for n in SIZES {
        applies(chained, "#[kernel_fission]", [n, 0, 0]);
        assert!(let_on_top(chained, "#[kernel_fission]", [n, 0, 0]));
    }
    let function = "kernel K(x: [[f32; {m}]; {n}]) -> [[f32; {m}]; {n}] \
        { map({P} map(|v| v * 2.0)) $ x }";
    warns(function, "#[kernel_fission]", [3, 4, 0], "expects data");
    let scalar = "kernel K(x: [f32; {n}]) -> f32 { {P} ((|s| s * 2.0) $ reduce(+, 0.0) $ x) }";
    warns(scalar, "#[kernel_fission]", [5, 0, 0], "expects an array");
}

#[test]
fn unknown_points_warn() {
    warns(
        MAP1,
        "#[no_such_point(4)]",
        [5, 0, 0],
        "unknown rewrite point",
    );
    let w = case(MAP1, "#[no_such_point] #[split_join(_)]", [12, 0, 0], false);
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].name, "no_such_point");
}

/// The thesis's Listing 6.4 (Table 6.1): one convolution (`{n} x {m}` pixels, `{k}` channels,
/// 3 filters, zero padding, bias and ReLU) annotated with `pad_extra` before the windows,
/// `kernel_fission` at the padded input, the windows flattened to rows (im2col) and the
/// weights, `join_split`, `ab_tile`, `tile_nested_map_reduce` and `privatise_accumulator`:
/// every point applies, together, and the result stays the interpreter's.
const LISTING_6_4: &str = "kernel K(x: [[[f32; {k}]; {m}]; {n}], w: [[[[f32; {k}]; 3]; 3]; 3], \
    b: [f32; 3]) -> [[[f32; 3]; {m}]; {n}] { #[pad_extra] (#[join_split] #[ab_tile] \
    #[tile_nested_map_reduce] map2(|win| map(|wb| max(0.0, wb.1 + (#[privatise_accumulator] \
    (reduce(+, 0.0) o map(|q| q.0 * q.1)) $ zip(win, wb.0)))) \
    $ zip(#[kernel_fission] (map(join o join) $ w), b)) o #[kernel_fission] map2(join o join) \
    o #[kernel_fission] slide2(3, 1)) o pad2(1, constant([0.0; {k}])) $ x }";

#[test]
fn listing_6_4() {
    for dims in [[1, 1, 1], [7, 5, 3], [8, 8, 4], [4, 9, 2]] {
        applies(LISTING_6_4, "", dims);
    }
}
