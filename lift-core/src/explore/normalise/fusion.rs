//! Rules that move maps towards the data and fuse them with their consumers: past layout
//! primitives, out of `zip`s, into lambdas, across applications, and lambda fusion.

use super::inline::{cheap, uses, uses_under_lambda};
use crate::ir::{Boundary, Expr, ExprKind, Pat, PrimArg};
use crate::prim::Prim;
use crate::rewrite::build::{self, call, chain, compose, ident, is_bare, prim, with_fun};
use crate::rewrite::walk::{children, children_mut};
use crate::rewrite::Rule;

/// `map(id) o f ⇒ f`, `f o map(id) ⇒ f` (a copy has no meaning before memory is placed).
pub fn map_id_elim() -> Rule {
    Rule::chain(
        "map_id_elim",
        "map(id) o f ⇒ f;  f o map(id) ⇒ f",
        |a, b, _| {
            let is_copy = |e: &Expr| e.prim_fun(Prim::Map).is_some_and(|f| is_bare(f, Prim::Id));
            if is_copy(a) {
                Some(vec![b.clone()])
            } else if is_copy(b) {
                Some(vec![a.clone()])
            } else {
                None
            }
        },
    )
}

/// `map(f)` nested `k` times.
fn maps(f: &Expr, k: usize, s: proc_macro2::Span) -> Expr {
    (0..k).fold(f.clone(), |e, _| with_fun(Prim::Map, &e, s))
}

/// `f` if `e` is `map` nested `k` times around `f`.
fn under_maps(e: &Expr, k: usize) -> Option<&Expr> {
    (0..k).try_fold(e, |x, _| x.prim_fun(Prim::Map))
}

/// Maps move before layout primitives (towards the data), so that they fuse with the maps
/// that consume them instead of being stored by one work-item:
///
/// ```text
/// L o map(f) ⇒ map(f) o L            L = gather(r), scatter(r), take(n), pad(l, r, β)
/// split(n) o map(f) ⇒ map(map(f)) o split(n)       join o map(map(f)) ⇒ map(f) o join
/// transpose o map(map(f)) ⇒ map(map(f)) o transpose
/// slide(n, s) o map(f) ⇒ map(map(f)) o slide(n, s)  (f recomputed per window; also split_cover)
/// pad2(.., β) o map(map(f)) ⇒ map(map(f)) o pad2(.., β)
/// slide2(..) o map(map(f)) ⇒ map(map(map(map(f)))) o slide2(..)
/// ```
///
/// for an index boundary `β` (a constant border is not `f` of anything).
pub fn map_past_layout() -> Rule {
    Rule::chain(
        "map_past_layout",
        "L o map(f) ⇒ map(f) o L for reindexing L; split, join, transpose, slide, pad2, slide2 with the matching map depths",
        |l, m, _| {
            let (p, args) = l.as_prim()?;
            let index_border = || !args.iter().any(|a| matches!(a, PrimArg::Boundary(Boundary::Constant(_), _)));
            // (maps the layout needs around `f` on its input, maps around `f` after it)
            let (depth_in, depth_out) = match p {
                Prim::Gather | Prim::Scatter | Prim::Take => (1, 1),
                Prim::Pad if index_border() => (1, 1),
                Prim::Split | Prim::SplitCover | Prim::Slide => (1, 2),
                Prim::Join | Prim::JoinCover => (2, 1),
                Prim::Transpose => (2, 2),
                Prim::Pad2 if index_border() => (2, 2),
                Prim::Slide2 => (2, 4),
                _ => return None,
            };
            let f = under_maps(m, depth_in)?;
            let s = l.span;
            Some(vec![maps(f, depth_out, s), l.clone()])
        },
    )
}

/// `(map(g) o h) $ y` as `(g, h $ y)` (`h` possibly empty).
fn producer(e: &Expr) -> Option<(Expr, Expr)> {
    let ExprKind::Apply(f, ys) = &e.kind else {
        return None;
    };
    let [y] = ys.as_slice() else { return None };
    if let Some(g) = f.prim_fun(Prim::Map) {
        return Some((g.clone(), y.clone()));
    }
    let ExprKind::Compose(fs) = &f.kind else {
        return None;
    };
    let fs = build::flatten(fs);
    let g = fs.first()?.prim_fun(Prim::Map)?.clone();
    let rest = compose(fs[1..].to_vec(), f.span);
    Some((
        g,
        Expr::new(ExprKind::Apply(Box::new(rest), vec![y.clone()]), e.span),
    ))
}

/// `zip(.., map(g) $ y, ..) ⇒ map(|p| (p.0, .., g(p.i), ..)) $ zip(.., y, ..)`: the producer
/// runs where its element is consumed instead of into a stored array.
pub fn zip_producer() -> Rule {
    Rule::new(
        "zip_producer",
        "zip(.., map(g) $ y, ..) ⇒ map(|p| (p.0, .., g(p.i), ..)) $ zip(.., y, ..)",
        |e, ctx| {
            let ExprKind::Apply(z, xs) = &e.kind else {
                return None;
            };
            if !matches!(&z.kind, ExprKind::Prim(Prim::Zip, a) if a.is_empty()) {
                return None;
            }
            let (i, (g, y)) = xs
                .iter()
                .enumerate()
                .find_map(|(i, x)| Some((i, producer(x)?)))?;
            let s = e.span;
            let p = ctx.fresh("z", &[e]);
            let proj = |j| Expr::new(ExprKind::Proj(Box::new(ident(&p, s)), j), s);
            let parts = (0..xs.len())
                .map(|j| {
                    if j == i {
                        call(&g, vec![proj(j)], s)
                    } else {
                        proj(j)
                    }
                })
                .collect();
            let lam = ExprKind::Lambda(
                vec![Pat::Name(p.clone(), s)],
                Box::new(Expr::new(ExprKind::Tuple(parts), s)),
            );
            let mut args: Vec<Expr> = xs.iter().map(build::untyped).collect();
            args[i] = y;
            let zipped = Expr::new(ExprKind::Apply(Box::new(build::untyped(z)), args), s);
            let m = with_fun(Prim::Map, &Expr::new(lam, s), s);
            Some(Expr::new(ExprKind::Apply(Box::new(m), vec![zipped]), s))
        },
    )
}

/// `zip2(.., map(g) $ y, ..) ⇒ map(|p| zip(p.0, p.1, ..)) $ zip(.., map(g) $ y, ..)` (and
/// `zip3` to `zip2` rows): a multi-dimensional zip of a computed array as nested zips, so
/// that [`zip_producer`] fuses the producer level by level (a `generate2` zipped with an
/// input is computed where it is read instead of into a stored array on one work-item).
pub fn zip_nd_producer() -> Rule {
    Rule::new(
        "zip_nd_producer",
        "zip2(.., map(g) $ y, ..) ⇒ map(|p| zip(p.0, ..)) $ zip(.., map(g) $ y, ..)",
        |e, ctx| {
            let ExprKind::Apply(z, xs) = &e.kind else {
                return None;
            };
            let inner = match &z.kind {
                ExprKind::Prim(Prim::Zip2, a) if a.is_empty() => Prim::Zip,
                ExprKind::Prim(Prim::Zip3, a) if a.is_empty() => Prim::Zip2,
                _ => return None,
            };
            if !xs.iter().any(|x| producer(x).is_some()) {
                return None;
            }
            let s = e.span;
            let p = ctx.fresh("z", &[e]);
            let proj = |j| Expr::new(ExprKind::Proj(Box::new(ident(&p, s)), j), s);
            let row = call(
                &prim(inner, Vec::new(), s),
                (0..xs.len()).map(proj).collect(),
                s,
            );
            let lam = Expr::new(
                ExprKind::Lambda(vec![Pat::Name(p.clone(), s)], Box::new(row)),
                s,
            );
            let args = xs.iter().map(build::untyped).collect();
            let zipped = call(&prim(Prim::Zip, Vec::new(), s), args, s);
            Some(call(&with_fun(Prim::Map, &lam, s), vec![zipped], s))
        },
    )
}

/// `(.. o map(f)) $ ((map(g) o ..) $ x) ⇒ (.. o map(f o g) o ..) $ x`: map fusion across an
/// application (other applications keep their shape, which later stages match).
pub fn apply_map_fusion() -> Rule {
    Rule::new(
        "apply_map_fusion",
        "(.. o map(f)) $ ((map(g) o ..) $ x) ⇒ (.. o map(f o g) o ..) $ x",
        |e, _| {
            let (f, g, ys) = build::apply_of_apply(e)?;
            let [x] = ys else { return None };
            let (mut fs, gs) = (chain(f), chain(g));
            let ff = fs.pop()?.prim_fun(Prim::Map)?.clone();
            let gf = gs.first()?.prim_fun(Prim::Map)?;
            let s = e.span;
            fs.push(with_fun(Prim::Map, &compose(vec![ff, gf.clone()], s), s));
            fs.extend(gs[1..].iter().cloned());
            let h = compose(fs, s);
            Some(Expr::new(ExprKind::Apply(Box::new(h), vec![x.clone()]), s))
        },
    )
}

/// `map(f) o (|p| map(g) $ y) ⇒ |p| map(f) $ (map(g) $ y)`: a map after a lambda whose
/// body is a map moves into the lambda, where [`apply_map_fusion`] fuses the two (the
/// consumer of a fused `zip` producer's row).
pub fn map_into_lambda() -> Rule {
    Rule::chain(
        "map_into_lambda",
        "map(f) o (|p| map(g) $ y) ⇒ |p| map(f) $ (map(g) $ y)",
        |f, g, _| {
            f.prim_fun(Prim::Map)?;
            let ExprKind::Lambda(ps, body) = &g.kind else {
                return None;
            };
            producer(body)?;
            let s = g.span;
            let applied = Expr::new(
                ExprKind::Apply(Box::new(build::untyped(f)), vec![build::untyped(body)]),
                s,
            );
            Some(vec![Expr::new(
                ExprKind::Lambda(ps.clone(), Box::new(applied)),
                s,
            )])
        },
    )
}

/// `(|p| E[p[i], p[j], ..]) o map(g) ⇒ |q| E[g(q[i]), g(q[j]), ..]` when `E` only reads
/// elements of `p` at constant indices, outside inner lambdas: the elements read are computed,
/// not the whole mapped array (`map(|r| r[0] - r[2]) $ map(map(g)) $ x` stored every row).
pub fn index_of_map() -> Rule {
    Rule::chain(
        "index_of_map",
        "(|p| E[p[i], ..]) o map(g) ⇒ |q| E[g(q[i]), ..]   if p is only indexed",
        |f, g, ctx| {
            let (p, e) = build::lambda1(f)?;
            let h = g.prim_fun(Prim::Map)?;
            let n = uses(e, p);
            if n == 0 || n != indexed(e, p) || uses_under_lambda(e, p) > 0 {
                return None;
            }
            let s = f.span;
            let q = ctx.fresh("r", &[f, g]);
            let mut body = build::untyped(e);
            replace_indexed(&mut body, p, &q, h);
            Some(vec![Expr::new(
                ExprKind::Lambda(vec![Pat::Name(q, s)], Box::new(body)),
                s,
            )])
        },
    )
}

/// How often `p[i]` (a constant index) occurs in `e`.
fn indexed(e: &Expr, p: &str) -> usize {
    match &e.kind {
        ExprKind::Index(x, _) if build::is_ident(x, p) => 1,
        _ => children(e).into_iter().map(|c| indexed(c, p)).sum(),
    }
}

/// Replaces every `p[i]` in `e` by `h(q[i])`.
fn replace_indexed(e: &mut Expr, p: &str, q: &str, h: &Expr) {
    if let ExprKind::Index(x, i) = &e.kind {
        if build::is_ident(x, p) {
            let s = e.span;
            let at = Expr::new(ExprKind::Index(Box::new(ident(q, s)), i.clone()), s);
            *e = call(h, vec![at], s);
            return;
        }
    }
    for c in children_mut(e) {
        replace_indexed(c, p, q, h);
    }
}

/// `reduce(op, z) $ (map(g) $ x) ⇒ (reduce(op, z) o map(g)) $ x`: the one shape the reduction
/// strategies match.
pub fn apply_reduce_map() -> Rule {
    Rule::new(
        "apply_reduce_map",
        "reduce(op, z) $ (map(g) $ x) ⇒ (reduce(op, z) o map(g)) $ x",
        |e, _| {
            let (f, g, ys) = build::apply_of_apply(e)?;
            if ys.len() != 1
                || !matches!(f.as_prim(), Some((Prim::Reduce, _)))
                || g.prim_fun(Prim::Map).is_none()
            {
                return None;
            }
            Some(build::apply_composed(f, g, ys, e))
        },
    )
}

/// `(|p| e) o (|q| t) ⇒ |n| e[p := t[q := n]]` (`n` fresh) when no work is duplicated: `t`
/// is cheap, or `p` occurs once in `e`, or `t` is a tuple whose costly parts are each
/// projected at most once and `p` occurs only projected. `e` must hold no lambda (which could
/// capture a name of `t`).
pub fn lambda_fusion() -> Rule {
    Rule::chain(
        "lambda_fusion",
        "(|p| e) o (|q| t) ⇒ |q| e[p := t]   if nothing is computed twice",
        |f, g, ctx| {
            let (p, e) = build::lambda1(f)?;
            let (q, t) = build::lambda1(g)?;
            // Substituted under an inner lambda, `t` would be computed once per call of it.
            if !no_duplication(e, p, t) || uses_under_lambda(e, p) > 0 {
                return None;
            }
            let n = ctx.fresh("v", &[f, g]);
            let s = f.span;
            let mut t = build::untyped(t);
            build::subst(&mut t, q, &ident(&n, s));
            let mut body = build::untyped(e);
            build::subst(&mut body, p, &t);
            let lam = ExprKind::Lambda(vec![Pat::Name(n, s)], Box::new(body));
            Some(vec![Expr::new(lam, s)])
        },
    )
}

fn no_duplication(e: &Expr, p: &str, t: &Expr) -> bool {
    if cheap(t) || uses(e, p) <= 1 {
        return true;
    }
    let ExprKind::Tuple(parts) = &t.kind else {
        return false;
    };
    uses(e, p)
        == (0..parts.len())
            .map(|i| projections(e, p, i))
            .sum::<usize>()
        && parts
            .iter()
            .enumerate()
            .all(|(i, x)| cheap(x) || projections(e, p, i) <= 1)
}

/// How often `p.i` occurs in `e`.
pub(super) fn projections(e: &Expr, p: &str, i: usize) -> usize {
    if let ExprKind::Proj(x, j) = &e.kind {
        if *j == i && build::is_ident(x, p) {
            return 1;
        }
    }
    children(e).into_iter().map(|c| projections(c, p, i)).sum()
}
