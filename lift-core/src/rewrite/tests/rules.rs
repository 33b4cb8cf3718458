//! One property test per rule (see [`super::gen::check_rule`]).

use super::gen::{check_rule, Gen, Tol};
use crate::arith::Nat;
use crate::ir::Reorder;
use crate::rewrite::lowering::{AddressSpace, MapLevel};
use crate::rewrite::*;
use proc_macro2::Span;
use rand::Rng;

fn n(k: usize) -> Nat {
    Nat::cst(k as i64)
}

/// `reverse` or `stride(s)` for a random divisor `s` of `len`.
fn random_reorder(g: &mut Gen, len: usize) -> (Reorder, String) {
    if g.rng.gen_bool(0.5) {
        (Reorder::Reverse, "reverse".into())
    } else {
        let s = g.divisor(len);
        (
            Reorder::Stride(n(s), Span::call_site()),
            format!("stride({s})"),
        )
    }
}

/// `map(reduce(op, z))` over rows; the rows are split first if the value is 1-D.
fn row_reduce(g: &mut Gen, prim: &str) -> Option<usize> {
    if !g.two_d() {
        return None;
    }
    let d = g.shape.clone();
    let (op, z) = match g.rng.gen_range(0..5) {
        0 => ("+", "0.0"),
        1 => ("max", "-2.0"),
        2 => ("min", "0.5"),
        3 => ("|a, b| a + b", "0.0"),
        _ => ("+", "1.0"), // not neutral: no partial reduction
    };
    g.push(format!("map({prim}({op}, {z}))"), vec![d[0]])
        .then_some(d[1])
}

#[test]
fn split_join() {
    check_rule(
        &|g| {
            g.map_all().then_some(())?;
            let k = g.divisor(g.shape[0]);
            Some(algorithmic::split_join(n(k)))
        },
        Tol::Exact,
        30,
    );
}

#[test]
fn map_fusion() {
    check_rule(
        &|g| (g.map_all() && g.map_all()).then(algorithmic::map_fusion),
        Tol::Exact,
        15,
    );
}

#[test]
fn map_fission() {
    check_rule(
        &|g| {
            let (a, b) = (g.lambda(), g.lambda());
            let mut f = format!("({a}) o ({b})");
            for _ in 1..g.shape.len() {
                f = format!("map({f})");
            }
            let s = g.shape.clone();
            g.push(format!("map({f})"), s)
                .then(algorithmic::map_fission)
        },
        Tol::Exact,
        30,
    );
}

#[test]
fn map_reduce_fusion() {
    check_rule(
        &|g| {
            if !g.two_d() {
                return None;
            }
            let d = g.shape.clone();
            let red = [
                "reduce(+, 0.0)",
                "reduce_seq(max, 0.0)",
                "reduce_seq(|a, b| a + b * 0.5, 1.0)",
            ][g.rng.gen_range(0..3)];
            let l = g.lambda();
            g.push(format!("map({red} o map({l}))"), vec![d[0]])
                .then(algorithmic::map_reduce_fusion)
        },
        Tol::Exact,
        25,
    );
}

#[test]
fn map_join_reorder() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let len = g.shape[0] * g.shape[1];
            let l = g.lambda();
            (g.push("join", vec![len]) && g.push(format!("map({l})"), vec![len]))
                .then(algorithmic::map_join_reorder)
        },
        Tol::Exact,
        25,
    );
}

#[test]
fn apply_to_compose() {
    check_rule(
        &|g| (g.map_all() && g.map_all()).then(algorithmic::apply_to_compose),
        Tol::Exact,
        10,
    );
}

#[test]
fn map_id_intro() {
    check_rule(
        &|g| g.map_all().then(algorithmic::map_id_intro),
        Tol::Exact,
        30,
    );
}

#[test]
fn partial_reduce() {
    check_rule(
        &|g| {
            let len = row_reduce(g, "reduce")?;
            let k = g.divisor(len);
            Some(reduction::partial_reduce(n(k)))
        },
        Tol::Relative,
        15,
    );
}

#[test]
fn reduce_reorder() {
    check_rule(
        &|g| {
            let len = row_reduce(g, "reduce")?;
            let (r, _) = random_reorder(g, len);
            Some(reduction::reduce_reorder(r))
        },
        Tol::Relative,
        15,
    );
}

/// `iterate(m, map(f))` with `m` in `0..4`.
fn iterate(g: &mut Gen, m: usize) -> bool {
    let l = g.lambda();
    let f = g.nest("map", l);
    let s = g.shape.clone();
    g.push(format!("iterate({m}, {f})"), s)
}

#[test]
fn iterate_split() {
    check_rule(
        &|g| {
            let m = g.rng.gen_range(2..5);
            iterate(g, m).then_some(())?;
            let k = g.rng.gen_range(1..m);
            Some(iterate::iterate_split(n(k)))
        },
        Tol::Exact,
        30,
    );
}

#[test]
fn iterate_fusion() {
    check_rule(
        &|g| {
            let l = g.lambda();
            let f = g.nest("map", l);
            let s = g.shape.clone();
            let (a, b) = (g.rng.gen_range(0..3), g.rng.gen_range(1..3));
            (g.push(format!("iterate({a}, {f})"), s.clone())
                && g.push(format!("iterate({b}, {f})"), s))
            .then(iterate::iterate_fusion)
        },
        Tol::Exact,
        20,
    );
}

#[test]
fn iterate_unfold() {
    check_rule(
        &|g| {
            let m = g.rng.gen_range(0..2);
            iterate(g, m).then(iterate::iterate_unfold)
        },
        Tol::Exact,
        30,
    );
}

#[test]
fn reorder_map() {
    check_rule(
        &|g| {
            g.map_all().then_some(())?;
            let len = g.shape[0];
            let (r, _) = random_reorder(g, len);
            Some(reorder::reorder_map(r))
        },
        Tol::Exact,
        30,
    );
}

#[test]
fn map_reorder_commute() {
    check_rule(
        &|g| {
            if g.shape.len() != 1 {
                return None;
            }
            let s = g.shape.clone();
            let (_, r) = random_reorder(g, s[0]);
            let which = ["gather", "scatter"][g.rng.gen_range(0..2)];
            let l = g.lambda();
            (g.push(format!("{which}({r})"), s.clone()) && g.push(format!("map({l})"), s))
                .then(reorder::map_reorder_commute)
        },
        Tol::Exact,
        15,
    );
}

#[test]
fn map_interchange() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let l = g.lambda();
            let f = if g.rng.gen_bool(0.5) {
                format!("map(map({l}))")
            } else {
                format!("map2({l})")
            };
            let s = g.shape.clone();
            g.push(f, s).then(interchange::map_interchange)
        },
        Tol::Exact,
        25,
    );
}

#[test]
fn transpose_intro() {
    check_rule(
        &|g| (g.two_d() && g.map_all()).then(interchange::transpose_intro),
        Tol::Exact,
        25,
    );
}

#[test]
fn join_split() {
    check_rule(
        &|g| {
            let d = g.shape.clone();
            let k = g.divisor(d[0]);
            let mut s = vec![d[0] / k, k];
            s.extend_from_slice(&d[1..]);
            (g.push(format!("split({k})"), s) && g.push("join", d)).then(simplify::join_split)
        },
        Tol::Exact,
        15,
    );
}

#[test]
fn split_join_elim() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let d = g.shape.clone();
            (g.push("join", vec![d[0] * d[1]]) && g.push(format!("split({})", d[1]), d))
                .then(simplify::split_join_elim)
        },
        Tol::Exact,
        15,
    );
}

#[test]
fn transpose_transpose() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let d = g.shape.clone();
            (g.push("transpose", vec![d[1], d[0]]) && g.push("transpose", d))
                .then(simplify::transpose_transpose)
        },
        Tol::Exact,
        15,
    );
}

#[test]
fn as_scalar_as_vector() {
    check_rule(
        &|g| {
            let d = g.shape.clone();
            let w = [2, 4, 8]
                .into_iter()
                .find(|w| d.len() == 1 && d[0] % w == 0)?;
            (g.push(format!("as_vector({w})"), vec![d[0] / w]) && g.push("as_scalar", d))
                .then(simplify::as_scalar_as_vector)
        },
        Tol::Exact,
        5,
    );
}

#[test]
fn reorder_cancel() {
    check_rule(
        &|g| {
            let d = g.shape.clone();
            if d.len() != 1 {
                return None;
            }
            let (_, r) = random_reorder(g, d[0]);
            let (a, b) = match g.rng.gen_range(0..3) {
                0 => ("gather", "scatter"),
                1 => ("scatter", "gather"),
                _ => ("gather", "gather"),
            };
            let r2 = if a == b { "reverse".to_string() } else { r };
            (g.push(format!("{a}({r2})"), d.clone()) && g.push(format!("{b}({r2})"), d))
                .then(simplify::reorder_cancel)
        },
        Tol::Exact,
        15,
    );
}

#[test]
fn id_removal() {
    check_rule(
        &|g| {
            let s = g.shape.clone();
            (g.map_all() && g.push("id", s)).then(simplify::id_removal)
        },
        Tol::Exact,
        25,
    );
}

#[test]
fn vectorize_map() {
    check_rule(
        &|g| {
            let d = g.shape.clone();
            let w = [2u32, 4, 8, 3]
                .into_iter()
                .find(|&w| d.len() == 1 && d[0] % w as usize == 0)?;
            g.map_all().then(|| vectorize::vectorize_map(w))
        },
        Tol::Exact,
        8,
    );
}

#[test]
fn lower_map() {
    check_rule(
        &|g| {
            let level = match g.rng.gen_range(0..5) {
                0 => MapLevel::Seq,
                1 => MapLevel::Glb(0),
                2 => MapLevel::Glb(1),
                3 => MapLevel::Wrg(0),
                _ => {
                    g.two_d().then_some(())?;
                    let l = g.lambda();
                    let s = g.shape.clone();
                    g.push(format!("map_wrg(0, map({l}) o map({l}))"), s)
                        .then_some(())?;
                    return Some(lowering::lower_map(MapLevel::Lcl(0)));
                }
            };
            (g.two_d() && g.map_all()).then(|| lowering::lower_map(level))
        },
        Tol::Exact,
        25,
    );
}

#[test]
fn lower_reduce() {
    check_rule(
        &|g| row_reduce(g, "reduce").map(|_| lowering::lower_reduce()),
        Tol::Exact,
        25,
    );
}

#[test]
fn unroll() {
    check_rule(
        &|g| {
            let l = g.lambda();
            let f = g.nest("map_seq", l);
            let s = g.shape.clone();
            (g.push(f, s) && row_reduce(g, "reduce_seq").is_some()).then(lowering::unroll)
        },
        Tol::Exact,
        25,
    );
}

#[test]
fn to_address_space() {
    check_rule(
        &|g| {
            g.two_d().then_some(())?;
            let l = g.lambda();
            let s = g.shape.clone();
            let (body, space) = match g.rng.gen_range(0..3) {
                0 => (format!("map_glb(0, map_seq({l}))"), AddressSpace::Private),
                1 => (format!("map_glb(0, map_seq({l}))"), AddressSpace::Global),
                _ => (format!("map_wrg(0, map_lcl(0, {l}))"), AddressSpace::Local),
            };
            g.push(body, s).then(|| lowering::to_address_space(space))
        },
        Tol::Exact,
        25,
    );
}

/// `slide(n, s)` on a 1-D value, and a valid tile size.
#[test]
fn overlapped_tiling() {
    check_rule(
        &|g| {
            let d = g.shape.clone();
            if d.len() != 1 {
                return None;
            }
            let size = g.rng.gen_range(1..=d[0].min(4));
            let rest = d[0] - size;
            let step = if rest > 0 && rest % 2 == 0 {
                g.rng.gen_range(1..=2)
            } else {
                1
            };
            let us: Vec<usize> = (size..=d[0])
                .filter(|u| (u - size) % step == 0 && (d[0] - u) % (u - size + step) == 0)
                .collect();
            let u = us[g.rng.gen_range(0..us.len())];
            g.push(
                format!("slide({size}, {step})"),
                vec![rest / step + 1, size],
            )
            .then(|| stencil::overlapped_tiling(n(u)))
        },
        Tol::Exact,
        25,
    );
}

/// `map(f) o slide(n, s)` on a 1-D value (a sum or a weighted window), as `map_seq_slide`.
#[test]
fn map_seq_slide() {
    check_rule(
        &|g| {
            let d = g.shape.clone();
            if d.len() != 1 {
                return None;
            }
            let size = g.rng.gen_range(1..=d[0].min(4));
            let steps: Vec<usize> = (1..=3)
                .filter(|t| (d[0] - size).is_multiple_of(*t))
                .collect();
            let step = steps[g.rng.gen_range(0..steps.len())];
            let count = (d[0] - size) / step + 1;
            let f = if g.rng.gen_bool(0.5) {
                "reduce(+, 0.0)".to_string()
            } else {
                format!("|w| w[0] * 2.0 - w[{}]", size - 1)
            };
            let m = if g.rng.gen_bool(0.5) {
                "map"
            } else {
                "map_seq"
            };
            g.push(format!("{m}({f}) o slide({size}, {step})"), vec![count])
                .then(stencil::map_seq_slide)
        },
        Tol::Exact,
        25,
    );
}

/// A valid tile size for windows `(size, step)` over `len`.
fn tile(g: &mut Gen, len: usize, size: usize, step: usize) -> usize {
    let us: Vec<usize> = (size..=len)
        .filter(|u| (u - size).is_multiple_of(step) && (len - u).is_multiple_of(u - size + step))
        .collect();
    us[g.rng.gen_range(0..us.len())]
}

/// `map(map(reduce(+, 0.0) o join)) o slide2(ny, sy, nx, sx)`; gives the tile sizes.
fn stencil_2d(g: &mut Gen) -> Option<(usize, usize)> {
    g.two_d().then_some(())?;
    let d = g.shape.clone();
    let mut pick = |len: usize| {
        let size = g.rng.gen_range(1..=len.min(3));
        let step = if (len - size).is_multiple_of(2) && len > size {
            2
        } else {
            1
        };
        (size, step, tile(g, len, size, step))
    };
    let (ny, sy, uy) = pick(d[0]);
    let (nx, sx, ux) = pick(d[1]);
    let shape = vec![(d[0] - ny) / sy + 1, (d[1] - nx) / sx + 1];
    g.push(
        format!("map(map(reduce(+, 0.0) o join)) o slide2({ny}, {sy}, {nx}, {sx})"),
        shape,
    )
    .then_some((uy, ux))
}

#[test]
fn overlapped_tiling_2d() {
    check_rule(
        &|g| stencil_2d(g).map(|(uy, ux)| stencil::overlapped_tiling_2d(n(uy), n(ux))),
        Tol::Exact,
        25,
    );
}

#[test]
fn slide2_expand() {
    check_rule(
        &|g| stencil_2d(g).map(|_| stencil::slide2_expand()),
        Tol::Exact,
        25,
    );
}
