//! The rules of layout changes through local memory ([`crate::rewrite::transpose`]), each
//! against the interpreter on random kernels (see [`super::gen::check_rule`]): map nests over
//! transposed views of sizes that are and are not multiples of the tiles.

use super::gen::{check_rule, Gen, Tol};
use crate::rewrite::transpose::{stage_tiles, tile_transpose, transpose_through_local, TileCopy};
use rand::Rng;

/// Makes the value 2-D and pushes `transpose`, then (mostly) a map nest of a random
/// element function over it; gives the sizes `(n, m)` of the view below the transpose.
fn transposed_nest(g: &mut Gen) -> Option<(usize, usize)> {
    if !g.two_d() {
        return None;
    }
    let (n, m) = (g.shape[0], g.shape[1]);
    g.push("transpose", vec![m, n]).then_some(())?;
    if g.rng.gen_bool(0.8) {
        let l = g.lambda();
        g.push(format!("map(map({l}))"), vec![m, n]).then_some(())?;
    }
    Some((n, m))
}

/// A tile side for a view of `n x m`: padded unless it divides both.
fn side(g: &mut Gen, n: usize, m: usize) -> (i64, bool) {
    let t = g.rng.gen_range(1..=4usize);
    (t as i64, !(n.is_multiple_of(t) && m.is_multiple_of(t)))
}

#[test]
fn tile_transpose_keeps_the_nest() {
    check_rule(
        &|g| {
            let (n, m) = transposed_nest(g)?;
            let (t, pad) = side(g, n, m);
            Some(tile_transpose(t, pad))
        },
        Tol::Exact,
        25,
    );
}

#[test]
fn stage_tiles_keeps_the_tiled_nest() {
    check_rule(
        &|g| {
            if !g.two_d() {
                return None;
            }
            let (n, m) = (g.shape[0], g.shape[1]);
            let common: Vec<usize> = (1..=n.min(m))
                .filter(|d| n.is_multiple_of(*d) && m.is_multiple_of(*d))
                .collect();
            let t = common[g.rng.gen_range(0..common.len())];
            let rows = g.divisor(t);
            let tiles = format!("map(transpose o map(split({t}))) o split({t})");
            g.push(tiles, vec![n / t, m / t, t, t]).then_some(())?;
            g.push("transpose", vec![m / t, n / t, t, t])
                .then_some(())?;
            let l = g.lambda();
            let per_tile = format!("map(map(join) o transpose o map(map(map({l})) o transpose))");
            g.push(per_tile, vec![m / t, t, n]).then_some(())?;
            g.push("join", vec![m, n]).then_some(())?;
            Some(stage_tiles(t as i64, rows as i64))
        },
        Tol::Exact,
        25,
    );
}

#[test]
fn transpose_through_local_keeps_the_nest() {
    check_rule(
        &|g| {
            let (n, m) = transposed_nest(g)?;
            let (t, pad) = side(g, n, m);
            let rows = g.divisor(t as usize) as i64;
            Some(transpose_through_local(TileCopy { t, rows, pad }))
        },
        Tol::Exact,
        25,
    );
}
