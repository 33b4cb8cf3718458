//! Points on reductions, interchange and storage: `tile_nested_map_reduce`,
//! `interchange_maps`, `privatise_accumulator`, `materialise`, `optimise_data_layout`,
//! `interchange_reduce`.

use super::tiling::{ab_pattern, apply, map_apply, map_elem, pat_names};
use super::{default_divisor, input_len, is_function, on_application, on_function, rewrap};
use super::{Nested, PointResult, Site};
use crate::arith::Nat;
use crate::ir::{Expr, ExprKind};
use crate::prim::Prim;
use crate::rewrite::build::{self, compose, prim, with_fun};
use crate::rewrite::strategy::{rule, top_down};
use crate::rewrite::{algorithmic, interchange, lowering, reduction, RewriteCtx, Rule};
use crate::types::Type;

/// Largest default tile of a reduction.
const MAX_TILE: i64 = 64;
/// Default reduction tile for a symbolic length.
const SYMBOLIC_TILE: i64 = 32;

/// The partial reduction `reduce(f, z) ⇒ reduce(f, z) o map(reduce(f, z)) o split(t)` (rule
/// [`reduction::partial_reduce`]) with the tile size `t` or its default for the length at
/// hand; gives the outer reduction, the per-tile reduction and the split.
fn partial(r: &Expr, t: &Option<Nat>, ctx: &RewriteCtx) -> Option<[Expr; 3]> {
    let len = input_len(ctx);
    let t = t
        .clone()
        .unwrap_or_else(|| default_divisor(len, MAX_TILE, SYMBOLIC_TILE));
    let out = reduction::partial_reduce(t).apply(r, ctx)?;
    match &out.kind {
        ExprKind::Compose(fs) => match fs.as_slice() {
            [outer, m, split] => {
                Some([outer.clone(), m.prim_fun(Prim::Map)?.clone(), split.clone()])
            }
            _ => None,
        },
        _ => None,
    }
}

/// Reduction tiling at one location: `reduce(f, z) o map(g) ⇒ reduce(f, z) o map(P) o split(t)`
/// with `P = reduce(f, z) o map(g)` (the partial reduction, `split(t) o map(g) = map(map(g)) o
/// split(t)` and map fusion), or `reduce(f, z)` alone with `P = reduce(f, z)`; the nested
/// points go around `P`.
fn reduce_tiling(t: Option<Nat>, nested: Vec<Nested>) -> Rule {
    let (t2, nested2) = (t.clone(), nested.clone());
    let pair = Rule::chain(
        "reduce_map_tiling",
        "reduce(f, z) o map(g) ⇒ reduce(f, z) o map(reduce(f, z) o map(g)) o split(t)   if f is an associative operator with neutral z and t | length",
        move |r, m, ctx| {
            m.prim_fun(Prim::Map)?;
            let [outer, per_tile, split] = partial(r, &t, ctx)?;
            let p = compose(vec![per_tile, build::untyped(m)], r.span);
            Some(vec![outer, with_fun(Prim::Map, &rewrap(&nested, p), r.span), split])
        },
    );
    Rule::new(
        "reduce_tiling",
        "reduce(f, z) o map(g) | reduce(f, z) ⇒ partial reduction over tiles of t",
        move |e, ctx| {
            pair.apply(e, ctx).or_else(|| {
                let [outer, per_tile, split] = partial(e, &t2, ctx)?;
                let m = with_fun(Prim::Map, &rewrap(&nested2, per_tile), e.span);
                Some(compose(vec![outer, m, split], e.span))
            })
        },
    )
}

/// `tile_nested_map_reduce(t)`: reduction tiling of the first (pre-order) associative
/// reduction in the annotated expression, typically the `reduce(+, 0) o map(*) $ zip(..)` of a
/// nested map-reduce: `reduce(f, z) o map(reduce(f, z) o map(g)) o split(t)`. The combining
/// operator is `f` itself, so `f` must be `+ * min max` (or a lambda computing one) with a
/// neutral initial value (the thesis leaves it to the user). Default `t`: the largest divisor
/// `<= 64` of the reduced length, 32 if symbolic. Nested points go around the per-tile
/// reduction.
pub(crate) fn tile_nested_map_reduce(core: &Expr, site: &Site<'_>) -> PointResult {
    let t = site.args.first().cloned().flatten();
    let s = top_down(rule(reduce_tiling(t, site.nested.to_vec())));
    s.apply(core, site.ctx).ok_or_else(|| {
        "no reduction with an associative operator (+ * min max, neutral initial value) \
         whose length the tile size divides"
            .into()
    })
}

/// `interchange_maps` on `map(map(f))` (or `map2(f)`): `transpose o map(map(f)) o transpose`
/// (rule [`interchange::map_interchange`]); on `map(|x| map(|y| e) $ b) $ a`:
/// `transpose $ (map(|y| map(|x| e) $ a) $ b)` (Listing 6.12). Nested points go around the
/// interchanged nest.
pub(crate) fn interchange_maps(core: &Expr, site: &Site<'_>) -> PointResult {
    let nest = on_function(core, site.ctx, &|f, ctx| {
        let r = interchange::map_interchange()
            .apply(f, ctx)
            .ok_or("expects a map nest")?;
        Ok(map_elem(r, 1, |m| site.rewrap(m)))
    });
    if nest.is_ok() {
        return nest;
    }
    on_application(core, site.ctx, &|f, a, _| {
        let (x, y, e, b) =
            ab_pattern(f).ok_or("expects `map(map(f))` or `map(|x| map(|y| e) $ b) $ a`")?;
        if pat_names(y).iter().any(|n| build::mentions(a, n)) {
            return Err("the outer input mentions the inner variable".into());
        }
        let s = f.span;
        let swapped = map_apply(y, map_apply(x, e.clone(), a.clone(), s), b.clone(), s);
        Ok(apply(
            prim(Prim::Transpose, Vec::new(), s),
            site.rewrap(swapped),
            s,
        ))
    })
}

/// `reduce(f, z) | reduce_seq(f, z)` as `reduce_seq(f, z)` (rule [`lowering::lower_reduce`];
/// the same left fold), `reduce_seq_unroll` as it is.
fn sequential(r: &Expr, ctx: &RewriteCtx) -> Option<Expr> {
    match r.as_prim()?.0 {
        Prim::Reduce => lowering::lower_reduce().apply(r, ctx),
        Prim::ReduceSeq | Prim::ReduceSeqUnroll => Some(build::untyped(r)),
        _ => None,
    }
}

/// `privatise_accumulator` on a reduction `reduce(f, z)` (or `reduce_seq`), or a chain whose
/// outermost function is one: `to_private(reduce_seq(f, z))`, so the accumulator lives in
/// private memory (Listing 6.14; the consumer reads the result as a value). A reduction fed
/// directly by `map(g)` is fused first (rule [`algorithmic::map_reduce_fusion`]) so no array
/// is stored. The accumulator must not be an array. Nested points go around the `reduce_seq`.
pub(crate) fn privatise_accumulator(core: &Expr, site: &Site<'_>) -> PointResult {
    on_function(core, site.ctx, &|f, ctx| {
        let wrap = |r: &Expr, acc: Option<&Type>| -> PointResult {
            let r = sequential(r, ctx).ok_or("expects a reduction")?;
            if acc.is_some_and(|t| t.as_array().is_some()) {
                return Err("the accumulator is an array".into());
            }
            Ok(with_fun(Prim::ToPrivate, &site.rewrap(r), f.span))
        };
        let ExprKind::Compose(fs) = &f.kind else {
            return wrap(f, site.ty);
        };
        let fs = build::flatten(fs);
        let acc = fs.first().and_then(|r| r.ty.clone());
        let (head, rest) = match fs.as_slice() {
            [r, m, rest @ ..] if m.prim_fun(Prim::Map).is_some() => {
                let input = rest
                    .first()
                    .map_or_else(|| ctx.input.clone(), |e| e.ty.clone());
                let pair = compose(vec![r.clone(), m.clone()], f.span);
                match algorithmic::map_reduce_fusion().apply(&pair, &ctx.with_input(input)) {
                    Some(fused) => (fused, rest),
                    None => (r.clone(), &fs[1..]),
                }
            }
            [r, rest @ ..] => (r.clone(), rest),
            [] => return Err("expects a reduction".into()),
        };
        let mut chain = vec![wrap(&head, acc.as_ref())?];
        chain.extend(rest.iter().map(build::untyped));
        Ok(compose(chain, f.span))
    })
}

/// `map(...map(id))` over every array level of `t`: a copy that stores the value (RR6).
pub(super) fn copy_of(t: &Type, s: proc_macro2::Span) -> Expr {
    let mut copy = prim(Prim::Id, Vec::new(), s);
    let mut t = t;
    while let Some((inner, _)) = t.as_array() {
        copy = with_fun(Prim::Map, &copy, s);
        t = inner;
    }
    copy
}

/// `pre` applied after the annotated expression: `pre o f` for a function, `pre $ e` for data.
fn after(pre: Vec<Expr>, core: &Expr, site: &Site<'_>) -> Expr {
    let s = core.span;
    let e = site.rewrap(build::untyped(core));
    if is_function(core) {
        let mut chain = pre;
        chain.push(e);
        compose(chain, s)
    } else {
        apply(compose(pre, s), e, s)
    }
}

/// `materialise` on an expression giving an array: `map(...map(id)) o f` (or `... $ e`), a copy
/// over every array level so the value is stored (RR6 / Listing 6.10, in the memory the
/// lowering chooses). Nested points go around the annotated expression.
pub(crate) fn materialise(core: &Expr, site: &Site<'_>) -> PointResult {
    let t = site.ty.ok_or("the type is unknown")?;
    if t.as_array().is_none() {
        return Err(format!("expects an array, found {t}"));
    }
    Ok(after(vec![copy_of(t, core.span)], core, site))
}

/// `optimise_data_layout` on an expression giving a matrix: `transpose o map(map(id)) o
/// transpose o g` (Listing 6.11 for the dimension order `(1, 0)`: the copy writes `g`'s result
/// transposed, the outer `transpose` reads it back in order; RR8 plus RR6). Nested points go
/// around `g`.
pub(crate) fn optimise_data_layout(core: &Expr, site: &Site<'_>) -> PointResult {
    let t = site.ty.ok_or("the type is unknown")?;
    let (inner, n) = t
        .as_array()
        .filter(|(i, _)| i.as_array().is_some())
        .ok_or_else(|| format!("expects an array of arrays, found {t}"))?;
    let (a, m) = inner.as_array().ok_or("expects an array of arrays")?;
    let transposed = Type::array(Type::array(a.clone(), n.clone()), m.clone());
    let s = core.span;
    let tr = || prim(Prim::Transpose, Vec::new(), s);
    Ok(after(vec![tr(), copy_of(&transposed, s), tr()], core, site))
}

/// `interchange_reduce` on a reduction of rows with an array accumulator combined element
/// by element, `reduce(|acc, x| map(h) $ zip(acc, x), z) $ xs`: a reduction per column,
/// `map(reduce(g, c)) o transpose $ xs` (rule [`interchange::reduce_interchange`], Listing
/// 6.13 with one interchanged dimension; a scalar accumulator each, in registers). Nested
/// points go around the per-column reduction (so a nested `interchange_reduce` interchanges
/// the next dimension of a matrix accumulator).
pub(crate) fn interchange_reduce(core: &Expr, site: &Site<'_>) -> PointResult {
    on_application(core, site.ctx, &|f, x, _| {
        let e = apply(build::untyped(f), build::untyped(x), core.span);
        let new = interchange::reduce_interchange()
            .apply(&e, site.ctx)
            .ok_or(
                "expects `reduce(|acc, x| map(h) $ zip(acc, x), z)`: a reduction whose \
                 accumulator is an array combined element by element",
            )?;
        let nested = site.nested.to_vec();
        Ok(top_down(rule(Rule::new("rewrap", "", move |r, _| {
            r.as_prim().filter(|(p, _)| *p == Prim::Reduce)?;
            Some(rewrap(&nested, build::untyped(r)))
        })))
        .apply(&new, site.ctx)
        .unwrap_or(new))
    })
}
