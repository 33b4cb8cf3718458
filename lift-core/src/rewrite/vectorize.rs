//! Vectorisation: a scalar map over floats as a map over OpenCL vectors, with a scalar tail
//! for lengths that are not multiples of the width, and coarsening (issue 36, item 3).
//!
//! The rules on element-wise maps `map(f) $ D`, `D` an array of floats or a `zip` of such
//! (`zip(D1, .., Dk)`), compose into the explorer's `vector(w=..,k=..,tail=..)` candidates
//! (`explore::vectors`):
//!
//! ```text
//! map(map(f)) $ D                 ⇒ split(m) $ map(f) $ join $ D        flatten_map
//! map(f) $ zip(D1, .., Dk)        ⇒ take(n) $ map(f) $ zip(pad(0, q⌈n/q⌉ - n, clamp) $ Di)
//!                                                                       pad_map(q)
//! map(f) $ zip(D1, .., Dk)        ⇒ as_scalar $ map(vectorize(w, f)) $ zip(as_vector(w) $ Di)
//!                                                                       vectorize_data(w)
//! map(g) $ D                      ⇒ join $ transpose $ map(map_seq(g)) $ transpose
//!                                     $ split(n / k) $ D                coarsen(k)
//! ```
//!
//! `pad_map(w k)`, `vectorize_data(w)` and `coarsen(k)` in turn give a map over every length:
//! each work-item computes `k` vectors `n / k` vectors apart (neighbouring work-items read
//! neighbouring vectors), the last vectors read the clamped padding and are written lane by
//! lane up to `n` (the code generator's `Loc::Lanes`: the scalar tail; the vectors before
//! it are whole, through a vector pointer). Without the pad, `w k` must divide `n` (a
//! launch-time condition of `as_vector`/`split`). None of the rules binds a variable: `f`
//! is moved, never re-abstracted, so no user name can be captured.

use super::build::{self, compose, prim};
use super::dsl::Builder;
use super::Rule;
use crate::arith::Nat;
use crate::ir::{children, is_free, pat_names, BinOp, Section, UnOp};
use crate::ir::{Expr, ExprKind, PrimArg};
use crate::prim::Prim;
use crate::typeck::is_builtin;
use crate::types::{ScalarType, Type, VECTOR_WIDTHS};

/// `map(f) ⇒ as_scalar o map(vectorize(w, f)) o as_vector(w)`, for `f` from a float scalar to
/// a scalar (types known), `w` one of 2, 3, 4, 8, 16, and `w | length` when it is known.
pub fn vectorize_map(w: u32) -> Rule {
    Rule::new(
        "vectorize_map",
        "map(f) ⇒ as_scalar o map(vectorize(w, f)) o as_vector(w)   if f: float -> scalar, w ∈ {2,3,4,8,16}, w | length",
        move |e, ctx| {
            let f = e.prim_fun(Prim::Map)?;
            if !VECTOR_WIDTHS.contains(&w) {
                return None;
            }
            let (elem, len) = build::array(ctx.input.as_ref())?;
            let wn = Nat::cst(i64::from(w));
            let float_in = elem.as_scalar().is_some_and(|s| s.is_float());
            if !float_in || !scalar_out(f) || ctx.facts.divisible(len, &wn) == Some(false) {
                return None;
            }
            let s = e.span;
            let vf = prim(
                Prim::Vectorize,
                vec![build::nat(&wn, s), PrimArg::Fun(f.clone())],
                s,
            );
            Some(compose(
                vec![
                    prim(Prim::AsScalar, Vec::new(), s),
                    build::with_fun(Prim::Map, &vf, s),
                    prim(Prim::AsVector, vec![build::nat(&wn, s)], s),
                ],
                s,
            ))
        },
    )
}

/// Does `f` give a non-boolean scalar (its type known), computed lane by lane? `vectorize(w,
/// f)` runs `f`'s body on vectors, so its parameters may flow only through arithmetic, the
/// math builtins, float casts and `let`: never into an index (`x[(v * 4.0) as i32]` would be
/// a vector of indices), a comparison, a condition or a user function (written for scalars).
/// Values that do not depend on the parameters (`x[N - 1]`, a scalar argument) are the same
/// in every lane.
fn scalar_out(f: &Expr) -> bool {
    let ExprKind::Lambda(ps, body) = &f.kind else {
        return false;
    };
    let mut bound: Vec<String> = ps.iter().flat_map(pat_names).collect();
    matches!(&f.ty, Some(Type::Scalar(s)) if *s != ScalarType::Bool) && lanewise(body, &mut bound)
}

/// Does `e` mention one of the names `bound`?
fn mentions(e: &Expr, bound: &[String]) -> bool {
    bound.iter().any(|n| is_free(e, n))
}

/// Is `e`, which mentions no lane, a scalar expression without primitives (the same value
/// in every lane: `x[N - 1]`, `a * 2.0`)?
fn uniform(e: &Expr) -> bool {
    let scalar = matches!(&e.ty, Some(Type::Scalar(s)) if *s != ScalarType::Bool);
    let plain = |x: &Expr| {
        !matches!(
            x.kind,
            ExprKind::Prim(..) | ExprKind::Lambda(..) | ExprKind::Compose(_) | ExprKind::Point(..)
        )
    };
    fn all(e: &Expr, ok: &dyn Fn(&Expr) -> bool) -> bool {
        ok(e) && children(e).into_iter().all(|c| all(c, ok))
    }
    scalar && all(e, &plain)
}

/// Is `e` computed lane by lane from the names `bound` (see [`scalar_out`])?
fn lanewise(e: &Expr, bound: &mut Vec<String>) -> bool {
    if !mentions(e, bound) {
        return uniform(e);
    }
    match &e.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Proj(x, _) => lanewise(x, bound),
        ExprKind::Binary(op, a, b) => {
            matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div)
                && lanewise(a, bound)
                && lanewise(b, bound)
        }
        ExprKind::Unary(UnOp::Neg, x) => lanewise(x, bound),
        ExprKind::Cast(x, t) => {
            let from = match &x.ty {
                Some(Type::Scalar(s)) => s.is_float(),
                _ => false,
            };
            from && t.is_float() && lanewise(x, bound)
        }
        ExprKind::Apply(g, xs) => {
            let math = match &g.kind {
                ExprKind::Ident(n) => is_builtin(n) && !bound.contains(n),
                ExprKind::Section(s) => matches!(s, Section::Min | Section::Max),
                _ => false,
            };
            math && xs.iter().all(|x| lanewise(x, bound))
        }
        ExprKind::Let(p, v, body) => {
            if !lanewise(v, bound) {
                return false;
            }
            let before = bound.len();
            bound.extend(pat_names(p));
            let ok = lanewise(body, bound);
            bound.truncate(before);
            ok
        }
        _ => false,
    }
}

/// An element-wise map `map(f) $ D` or `map(f) $ zip(D1, .., Dk)`: `f`, the arrays `Di` (one
/// for a plain `D`), whether they were zipped, and their length (from the types).
pub struct MapOver<'a> {
    /// The element function.
    pub f: &'a Expr,
    /// The arrays mapped over, zipped when `zipped`.
    pub data: Vec<&'a Expr>,
    /// Whether the map runs over `zip(data)`.
    pub zipped: bool,
    /// Their length.
    pub n: Nat,
}

/// `map(f) $ D` or `map(f) $ zip(D1, .., Dk)` with every `Di` typed `[s; n]`, `s` a float
/// scalar.
pub fn map_over(e: &Expr) -> Option<MapOver<'_>> {
    let ExprKind::Apply(m, xs) = &e.kind else {
        return None;
    };
    let [x] = xs.as_slice() else { return None };
    let f = m.prim_fun(Prim::Map)?;
    let (data, zipped) = match &x.kind {
        ExprKind::Apply(z, ds) if build::is_bare(z, Prim::Zip) => (ds.iter().collect(), true),
        _ => (vec![x], false),
    };
    let mut n = None;
    for d in &data {
        let (elem, len) = build::array(d.ty.as_ref())?;
        if !elem.as_scalar().is_some_and(|s| s.is_float()) || n.is_some_and(|n| n != len) {
            return None;
        }
        n = Some(len);
    }
    Some(MapOver {
        f,
        n: n?.clone(),
        data,
        zipped,
    })
}

/// `map(f) $ zip(Di)` (or `map(f) $ D`) over the data `g(Di)`.
fn remapped(b: &Builder, m: &MapOver, f: Expr, g: impl Fn(&Expr) -> Expr) -> Expr {
    let ds: Vec<Expr> = m.data.iter().map(|d| g(d)).collect();
    let data = match (m.zipped, ds.as_slice()) {
        (false, [d]) => d.clone(),
        _ => Expr::new(ExprKind::Apply(Box::new(b.bare(Prim::Zip)), ds), b.s),
    };
    b.app(b.with(Prim::Map, f), data)
}

/// `flatten_map`: a 2-D element-wise map as a 1-D one over the rows joined, its result split
/// back into rows.
pub fn flatten_map() -> Rule {
    Rule::new(
        "flatten_map",
        "map(map(f)) $ D ⇒ split(m) $ map(f) $ join $ D   if D: [[a; m]; n]",
        |e, ctx| {
            let ExprKind::Apply(mm, xs) = &e.kind else {
                return None;
            };
            let [d] = xs.as_slice() else { return None };
            let f = mm.prim_fun(Prim::Map)?.prim_fun(Prim::Map)?;
            let (row, _) = d.ty.as_ref()?.as_array()?;
            let (_, m) = row.as_array()?;
            let b = Builder::new(ctx, vec![f, d], e.span);
            let joined = b.app(b.bare(Prim::Join), d.clone());
            let flat = b.app(b.with(Prim::Map, f.clone()), joined);
            Some(b.app(b.prim(Prim::Split, vec![build::nat(m, e.span)]), flat))
        },
    )
}

/// `pad_map(q)`: an element-wise map over data padded with `clamp` up to a multiple of `q`,
/// its result cut back with `take`; where `q` is not known to divide the length.
pub fn pad_map(q: i64) -> Rule {
    Rule::new(
        "pad_map",
        "map(f) $ zip(D1, .., Dk) ⇒ take(n) $ map(f) $ zip(pad(0, q⌈n/q⌉ - n, clamp) $ Di)   \
         if Di: [float; n], q ∤ n",
        move |e, ctx| {
            let m = map_over(e)?;
            if q < 2 || ctx.facts.divisible(&m.n, &Nat::cst(q)) == Some(true) {
                return None;
            }
            let b = Builder::new(ctx, vec![e], e.span);
            let padded = remapped(&b, &m, m.f.clone(), |d| {
                build::pad_to_multiple(d.clone(), &m.n, q, b.s)
            });
            Some(b.app(b.prim(Prim::Take, vec![build::nat(&m.n, b.s)]), padded))
        },
    )
}

/// `vectorize_data(w)`: an element-wise map over floats as a map of `vectorize(w, f)` over
/// vectors of the data, a zip's components each as vectors; where `w` is not known not to
/// divide the length.
pub fn vectorize_data(w: u32) -> Rule {
    Rule::new(
        "vectorize_data",
        "map(f) $ zip(D1, .., Dk) ⇒ as_scalar $ map(vectorize(w, f)) $ zip(as_vector(w) $ Di)   \
         if Di: [float; n], f gives a scalar, w ∈ {2,3,4,8,16}, w | n",
        move |e, ctx| {
            let m = map_over(e)?;
            let wn = Nat::cst(i64::from(w));
            if !VECTOR_WIDTHS.contains(&w)
                || !scalar_out(m.f)
                || ctx.facts.divisible(&m.n, &wn) == Some(false)
            {
                return None;
            }
            let b = Builder::new(ctx, vec![e], e.span);
            let vf = b.prim(
                Prim::Vectorize,
                vec![build::nat(&wn, b.s), PrimArg::Fun(m.f.clone())],
            );
            let vs = remapped(&b, &m, vf, |d| {
                b.app(b.sized(Prim::AsVector, i64::from(w)), d.clone())
            });
            Some(b.app(b.bare(Prim::AsScalar), vs))
        },
    )
}

/// `coarsen(k)`: each element of a map computed by the work-item of its index modulo `n / k`,
/// `k` of them in a sequential loop (neighbouring work-items take neighbouring elements);
/// where `k` is not known not to divide the length `n`.
pub fn coarsen(k: i64) -> Rule {
    Rule::new(
        "coarsen",
        "map(g) $ D ⇒ join $ transpose $ map(map_seq(g)) $ transpose $ split(n / k) $ D   \
         if D: [a; n], k | n",
        move |e, ctx| {
            let ExprKind::Apply(m, xs) = &e.kind else {
                return None;
            };
            let [d] = xs.as_slice() else { return None };
            let g = m.prim_fun(Prim::Map)?;
            let (_, n) = build::array(d.ty.as_ref())?;
            let kn = Nat::cst(k);
            if k < 2 || ctx.facts.divisible(n, &kn) == Some(false) {
                return None;
            }
            let b = Builder::new(ctx, vec![g, d], e.span);
            let chunk = n / &kn;
            let split = b.prim(Prim::Split, vec![build::nat(&chunk, b.s)]);
            let cols = b.app(b.bare(Prim::Transpose), b.app(split, d.clone()));
            let per_item = b.with(Prim::Map, b.with(Prim::MapSeq, g.clone()));
            let rows = b.app(per_item, cols);
            Some(b.app(b.bare(Prim::Join), b.app(b.bare(Prim::Transpose), rows)))
        },
    )
}
