//! Points that tile or reshape iteration spaces: `split_join`, `join_split`, `ab_tile`,
//! `tile_stencil`, `pad_extra`.

use super::{default_divisor, input_len, on_function, refuted, PointResult, Site};
use crate::arith::Nat;
use crate::ir::{Boundary, Expr, ExprKind, Pat, PrimArg};
use crate::prim::Prim;
use crate::rewrite::build::{self, compose, prim, with_fun};
use crate::rewrite::{algorithmic, stencil};
use proc_macro2::Span;

/// Largest default split size of a 1-D tiling.
const MAX_TILE_1D: i64 = 64;
/// Default split size for a symbolic length.
const SYMBOLIC_TILE_1D: i64 = 32;
/// Largest default tile size per dimension of a 2-D tiling (tiles of at most 256 elements).
const MAX_TILE_2D: i64 = 16;
/// Multiple that `pad_extra` pads to by default.
const PAD_MULTIPLE: i64 = 32;

/// `e` with element `i` of its composition chain (outermost first) mapped by `f`.
pub(super) fn map_elem(e: Expr, i: usize, f: impl FnOnce(Expr) -> Expr) -> Expr {
    match e.kind {
        ExprKind::Compose(mut fs) if i < fs.len() => {
            let old = fs[i].clone();
            fs[i] = f(old);
            Expr::new(ExprKind::Compose(fs), e.span)
        }
        _ => e,
    }
}

/// `split_join(n)` on `map(f)`: `join o map(map(f)) o split(n)` (rule
/// [`algorithmic::split_join`]); nested points go around `map(map(f))`. `n` must divide the
/// length; default: its largest divisor `<= 64`, or 32 for a symbolic length.
pub(crate) fn split_join(core: &Expr, site: &Site<'_>) -> PointResult {
    on_function(core, site.ctx, &|f, ctx| {
        f.prim_fun(Prim::Map).ok_or("expects `map(f)`")?;
        let len = input_len(ctx);
        let n = site.arg(0, default_divisor(len, MAX_TILE_1D, SYMBOLIC_TILE_1D))?;
        let r = algorithmic::split_join(n.clone())
            .apply(f, ctx)
            .ok_or_else(|| format!("split({n}) does not divide the length"))?;
        Ok(map_elem(r, 1, |m| site.rewrap(m)))
    })
}

/// `join_split` on a map nest `map(...map(f))` of depth `k >= 2` over `[[..; d1]; d0]`:
/// `split(d1) o ... o split(d(k-1)) o map(f) o join o ... o join` (flattening; the thesis'
/// `splitND(N) o map(f) o joinND`). Nested points go around the flat `map(f)`.
pub(crate) fn join_split(core: &Expr, site: &Site<'_>) -> PointResult {
    on_function(core, site.ctx, &|e, ctx| {
        // `map2(f)` and `map3(f)` are map nests of depth 2 and 3.
        let (mut f, mut depth) = [(Prim::Map, 1), (Prim::Map2, 2), (Prim::Map3, 3)]
            .into_iter()
            .find_map(|(p, d)| e.prim_fun(p).map(|f| (f, d)))
            .ok_or("expects a map nest `map(map(f))`")?;
        while let Some(g) = f.prim_fun(Prim::Map) {
            f = g;
            depth += 1;
        }
        if depth < 2 {
            return Err("expects a map nest `map(map(f))`".into());
        }
        let mut t = ctx.input.as_ref().ok_or("the input type is unknown")?;
        let mut dims = Vec::new();
        for _ in 0..depth {
            let (inner, n) = t.as_array().ok_or("the input is not nested deep enough")?;
            dims.push(n.clone());
            t = inner;
        }
        let s = e.span;
        let mut chain: Vec<Expr> = dims[1..]
            .iter()
            .map(|d| prim(Prim::Split, vec![build::nat(d, s)], s))
            .collect();
        chain.push(site.rewrap(with_fun(Prim::Map, f, s)));
        chain.extend((1..depth).map(|_| prim(Prim::Join, Vec::new(), s)));
        Ok(compose(chain, s))
    })
}

/// The names bound by a pattern.
pub(super) fn pat_names(p: &Pat) -> Vec<&str> {
    match p {
        Pat::Name(n, _) => vec![n.as_str()],
        Pat::Tuple(ps, _) => ps.iter().flat_map(pat_names).collect(),
    }
}

/// The pattern `map(|x| map(|y| body) $ b)` applied to `a`: gives `(x, y, body, b)` if `b`
/// does not mention `x` (the thesis' `(a, b) => map(map(f) << b) << a`).
pub(super) fn ab_pattern(f: &Expr) -> Option<(&Pat, &Pat, &Expr, &Expr)> {
    let ExprKind::Lambda(ps, body) = &f.prim_fun(Prim::Map)?.kind else {
        return None;
    };
    let [x] = ps.as_slice() else { return None };
    let ExprKind::Apply(g, bs) = &body.kind else {
        return None;
    };
    let [b] = bs.as_slice() else { return None };
    let ExprKind::Lambda(qs, inner) = &g.prim_fun(Prim::Map)?.kind else {
        return None;
    };
    let [y] = qs.as_slice() else { return None };
    let free = pat_names(x).iter().all(|n| !build::mentions(b, n));
    free.then_some((x, y, &**inner, b))
}

/// `map(|p| body) $ arg`.
pub(super) fn map_apply(p: &Pat, body: Expr, arg: Expr, s: Span) -> Expr {
    let lam = Expr::new(ExprKind::Lambda(vec![p.clone()], Box::new(body)), s);
    apply(with_fun(Prim::Map, &lam, s), arg, s)
}

/// `f $ x`.
pub(super) fn apply(f: Expr, x: Expr, s: Span) -> Expr {
    Expr::new(ExprKind::Apply(Box::new(f), vec![x]), s)
}

/// `ab_tile(ta, tb)` on `map(|x| map(|y| e) $ b)` (applied to `a`; AB-tiling, Listing 6.6
/// without the prefetch copies, which a `materialise` point can add):
/// `map(join) o join o map(transpose) o map(|ta| map(|tb| map(|x| map(|y| e) $ tb) $ ta) $
/// (split(tb) $ b)) o split(ta)`. Nested points go around the tile computation. The sizes must
/// divide the lengths of `a` and `b`; default: their largest divisors `<= 16` (16 for symbolic
/// lengths).
pub(crate) fn ab_tile(core: &Expr, site: &Site<'_>) -> PointResult {
    on_function(core, site.ctx, &|f, ctx| {
        let (x, y, e, b) = ab_pattern(f).ok_or("expects `map(|x| map(|y| e) $ b) $ a`")?;
        let la = input_len(ctx);
        let lb = build::array(b.ty.as_ref()).map(|(_, n)| n);
        let ta = site.arg(0, default_divisor(la, MAX_TILE_2D, MAX_TILE_2D))?;
        let tb = site.arg(1, default_divisor(lb, MAX_TILE_2D, MAX_TILE_2D))?;
        if refuted(la, &ta, ctx) || refuted(lb, &tb, ctx) {
            return Err(format!(
                "the tile sizes {ta}, {tb} do not divide the lengths"
            ));
        }
        let s = f.span;
        let tile_a = ctx.fresh("ta", &[f]);
        let tile_b = ctx.fresh("tb", &[f]);
        let var = |n: &str| Expr::new(ExprKind::Ident(n.to_string()), s);
        let split = |n: &Nat| prim(Prim::Split, vec![build::nat(n, s)], s);
        let tile = map_apply(x, map_apply(y, e.clone(), var(&tile_b), s), var(&tile_a), s);
        let over_b = map_apply(
            &Pat::Name(tile_b.clone(), s),
            site.rewrap(tile),
            apply(split(&tb), b.clone(), s),
            s,
        );
        let over_a = Expr::new(
            ExprKind::Lambda(vec![Pat::Name(tile_a.clone(), s)], Box::new(over_b)),
            s,
        );
        let bare = |p| prim(p, Vec::new(), s);
        Ok(compose(
            vec![
                with_fun(Prim::Map, &bare(Prim::Join), s),
                bare(Prim::Join),
                with_fun(Prim::Map, &bare(Prim::Transpose), s),
                with_fun(Prim::Map, &over_a, s),
                split(&ta),
            ],
            s,
        ))
    })
}

/// The default stencil tile size for windows `(n, s)` over a length `len`: for constants, the
/// largest valid `u <= 64` below the length (tiles overlap by `n - s`: `s | u - n` and
/// `(u - n + s) | len - u`), else the length itself; for a symbolic length the largest
/// `u <= 64` with `s | u - n` (a launch-time precondition of the tiling `slide`); `n` when the
/// window is symbolic (one window per tile).
fn default_tile(n: &Nat, s: &Nat, len: Option<&Nat>) -> Nat {
    let (Some(nc), Some(sc)) = (n.as_cst(), s.as_cst()) else {
        return n.clone();
    };
    if sc < 1 || nc < 1 {
        return n.clone();
    }
    match len.and_then(Nat::as_cst) {
        Some(l) => (nc..l.min(MAX_TILE_1D + 1))
            .rev()
            .find(|u| (u - nc) % sc == 0 && (l - u) % (u - nc + sc) == 0)
            .map_or_else(|| Nat::cst(l.max(nc)), Nat::cst),
        None => Nat::cst(nc + sc * ((MAX_TILE_1D - nc).max(0) / sc)),
    }
}

/// `tile_stencil(u)` on `slide(n, s)`: overlapped tiling `join o map(slide(n, s)) o slide(u,
/// u - n + s)` (rule [`stencil::overlapped_tiling`]); `tile_stencil(uy, ux)` (or one size for
/// both) on `slide2`: [`stencil::overlapped_tiling_2d`]. Nested points go around the inner
/// `slide`. Default sizes: see [`default_tile`].
pub(crate) fn tile_stencil(core: &Expr, site: &Site<'_>) -> PointResult {
    on_function(core, site.ctx, &|e, ctx| {
        let bad = |u: &str| format!("the tile size {u} is not valid for this stencil");
        if let Some(ns) = e.prim_nats(Prim::Slide) {
            if site.args.len() > 1 {
                return Err("a 1-D slide takes one tile size".into());
            }
            let [n, s] = ns.as_slice() else {
                return Err("expects `slide(n, s)`".into());
            };
            let u = site.arg(0, default_tile(n, s, input_len(ctx)))?;
            let r = stencil::overlapped_tiling(u.clone())
                .apply(e, ctx)
                .ok_or_else(|| bad(&u.to_string()))?;
            return Ok(map_elem(r, 1, |m| inner_rewrap(m, site)));
        }
        let ns = e
            .prim_nats(Prim::Slide2)
            .ok_or("expects `slide(n, s)` or `slide2(...)`")?;
        let (ny, sy, nx, sx) = match ns.as_slice() {
            [n, s] => (n, s, n, s),
            [ny, sy, nx, sx] => (ny, sy, nx, sx),
            _ => return Err("expects `slide2(...)`".into()),
        };
        let rows = build::array(ctx.input.as_ref());
        let cols = rows.and_then(|(r, _)| r.as_array()).map(|(_, l)| l);
        let uy = site.arg(0, default_tile(ny, sy, rows.map(|(_, l)| l)))?;
        let ux = match site.args.len() {
            2 => site.arg(1, default_tile(nx, sx, cols))?,
            _ if site.args.first().is_some_and(Option::is_some) => uy.clone(),
            _ => default_tile(nx, sx, cols),
        };
        let r = stencil::overlapped_tiling_2d(uy.clone(), ux.clone())
            .apply(e, ctx)
            .ok_or_else(|| bad(&format!("{uy} x {ux}")))?;
        Ok(map_elem(r, 3, |m| match m.prim_fun(Prim::Map) {
            Some(inner) => with_fun(Prim::Map, &inner_rewrap(inner.clone(), site), m.span),
            None => m,
        }))
    })
}

/// `map(g)` with `g` wrapped in the nested points.
fn inner_rewrap(m: Expr, site: &Site<'_>) -> Expr {
    match m.prim_fun(Prim::Map) {
        Some(g) => with_fun(Prim::Map, &site.rewrap(g.clone()), m.span),
        None => m,
    }
}

/// Does the function keep prefixes: is the first part of its result on `x ++ pad` its result
/// on `x`? True for chains of maps (of anything), `join`, `split`, `slide` (also `slide2` and
/// `slide3`, whose windows of the outer dimension come first), `id` and points on those.
fn keeps_prefixes(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Compose(fs) => fs.iter().all(keeps_prefixes),
        ExprKind::Point(_, _, x) => keeps_prefixes(x),
        ExprKind::Prim(p, _) => {
            p.is_map()
                || matches!(
                    p,
                    Prim::Join | Prim::Split | Prim::Slide | Prim::Slide2 | Prim::Slide3 | Prim::Id
                )
        }
        _ => false,
    }
}

/// The constant `split` sizes of a chain.
fn split_sizes(e: &Expr) -> Vec<i64> {
    match &e.kind {
        ExprKind::Compose(fs) => fs.iter().flat_map(split_sizes).collect(),
        ExprKind::Point(_, _, x) => split_sizes(x),
        _ => e
            .prim_nats(Prim::Split)
            .and_then(|n| n.first().and_then(Nat::as_cst))
            .into_iter()
            .collect(),
    }
}

/// The least common multiple of positive `a` and `b`, if it fits.
fn lcm(a: i64, b: i64) -> Option<i64> {
    (a > 0 && b > 0).then(|| (a / gcd(a, b)).checked_mul(b))?
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// `pad_extra(p)` on a function `F: [a; n] -> [b; m]` made of maps, `join`, `split` and
/// `slide` (which keep prefixes, so padding at the end does not change the first `m` results):
/// `at(0) o slide(m, 1) o F o pad(0, p, clamp)` (the thesis' `take(m) o F o pad((0, p))`; the
/// padded values are never kept, so `clamp` stands for any value). Nested points go around `F`
/// and see the padded length. Default `p`: pads `n` to a multiple of the least common multiple
/// of 32 and the constant `split` sizes in `F` (`ceil(n / 32) * 32 - n` for symbolic `n`).
pub(crate) fn pad_extra(core: &Expr, site: &Site<'_>) -> PointResult {
    on_function(core, site.ctx, &|f, ctx| {
        if !keeps_prefixes(f) {
            return Err("expects a chain of maps, `join`, `split` and `slide`".into());
        }
        let n = input_len(ctx).ok_or("the input is not a known array")?;
        let (_, m) = build::array(site.ty).ok_or("the result is not an array")?;
        let multiple = split_sizes(f)
            .into_iter()
            .fold(PAD_MULTIPLE, |l, k| lcm(l, k).unwrap_or(l));
        let default = &(&n.ceil_div(&Nat::cst(multiple)) * multiple) - n;
        let p = match site.args.first().cloned().flatten() {
            Some(p) => p,
            None => default,
        };
        if p.max_value().is_some_and(|v| v < 0) {
            return Err(format!("the padding must not be negative: {p}"));
        }
        if p.as_cst() == Some(0) {
            return Ok(site.rewrap(build::untyped(f)));
        }
        let s = f.span;
        let nat = |k: &Nat| build::nat(k, s);
        let pad = prim(
            Prim::Pad,
            vec![
                nat(&Nat::cst(0)),
                nat(&p),
                PrimArg::Boundary(Boundary::Clamp, s),
            ],
            s,
        );
        let take = [
            prim(Prim::At, vec![nat(&Nat::cst(0))], s),
            prim(Prim::Slide, vec![nat(m), nat(&Nat::cst(1))], s),
        ];
        let mut chain = take.to_vec();
        chain.push(site.rewrap(build::untyped(f)));
        chain.push(pad);
        Ok(compose(chain, s))
    })
}
