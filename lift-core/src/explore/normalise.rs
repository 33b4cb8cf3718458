//! Normalisation before exploration: programs that compute the same function with the same
//! types are rewritten to one canonical spelling, so that they reach the same candidates.
//!
//! Two steps, both semantics-preserving, neither entering a rewrite point (the driver applies
//! the points after normalisation, to the code as the user wrote it there):
//!
//! 1. [`inline_user_functions`]: a call of a user function whose body is a single expression
//!    (no `let`, no OpenCL C) is replaced by its body, and a user function passed as a function
//!    argument (`reduce(add, 0.0)`) by the equivalent lambda (which `rewrite::build::section_of` then sees
//!    as an operator). A parameter used more than once is only substituted by an argument that
//!    costs nothing to repeat (a name, a projection, a literal), so no work is duplicated.
//! 2. The rules of [`rules`], normalised: tuple patterns become projections, `|x| f $ x`
//!    becomes `f`, nested 1-D `pad`/`slide` become `pad2`/`slide2` (the definitions of the
//!    stencil thesis read right to left), a producer map inside a `zip` is moved out of it and
//!    fused with its consumer, adjacent maps fuse, and a reduction of rows with an array
//!    accumulator combined element by element becomes a reduction per column.

use crate::ir::{Boundary, Expr, ExprKind, FunBody, Pat, PrimArg, Program, UserFun};
use crate::prim::Prim;
use crate::rewrite::build::{self, bind, call, chain, compose, ident, is_bare, prim, with_fun};
use crate::rewrite::strategy::{left_choice, repeat, rule, Strategy};
use crate::rewrite::walk::{child_ctx, children, children_mut, replace_child};
use crate::rewrite::{
    algorithmic, filter, rewrite_kernel, simplify, RewriteCtx, RewriteError, Rule,
};

/// The program with kernel `kernel`'s body in normal form, type-checked again.
pub fn normalise_kernel(prog: &Program, kernel: &str) -> Result<Program, RewriteError> {
    let mut p = prog.clone();
    if let Some(k) = p.kernels.iter_mut().find(|k| k.name == kernel) {
        inline_user_functions(&mut k.body, &prog.funs);
        desugar(&mut k.body);
    }
    rewrite_kernel(&p, kernel, &normal_form())
}

/// `generate(n, f)` as `map(f) $ iota(n)`; `generate2(n, m, f)` as
/// `map(|i| map(|j| f(i, j)) $ iota(m)) $ iota(n)` (with names no program can write).
fn generate(p: Prim, args: &[PrimArg], span: proc_macro2::Span) -> Expr {
    let prim = |p: Prim, args: Vec<PrimArg>| Expr::new(ExprKind::Prim(p, args), span);
    let ns: Vec<PrimArg> = args
        .iter()
        .filter(|a| matches!(a, PrimArg::Nat(..)))
        .cloned()
        .collect();
    let f = args.iter().find_map(|a| match a {
        PrimArg::Fun(f) => Some(f.clone()),
        _ => None,
    });
    let Some(f) = f else {
        return Expr::new(
            ExprKind::Apply(Box::new(prim(p, args.to_vec())), Vec::new()),
            span,
        );
    };
    let iota = |n: &PrimArg| {
        Expr::new(
            ExprKind::Apply(Box::new(prim(Prim::Iota, vec![n.clone()])), Vec::new()),
            span,
        )
    };
    let map = |g: Expr, x: Expr| {
        Expr::new(
            ExprKind::Apply(Box::new(prim(Prim::Map, vec![PrimArg::Fun(g)])), vec![x]),
            span,
        )
    };
    match ns.as_slice() {
        [n, m] => {
            let (i, j) = ("#i".to_string(), "#j".to_string());
            let call = call(&f, vec![ident(&i, span), ident(&j, span)], span);
            let inner = Expr::new(
                ExprKind::Lambda(vec![Pat::Name(j, span)], Box::new(call)),
                span,
            );
            let row = Expr::new(
                ExprKind::Lambda(vec![Pat::Name(i, span)], Box::new(map(inner, iota(m)))),
                span,
            );
            map(row, iota(n))
        }
        [n, ..] => map(f, iota(n)),
        [] => Expr::new(
            ExprKind::Apply(Box::new(prim(p, args.to_vec())), Vec::new()),
            span,
        ),
    }
}

/// `filter(x, ids)` as `map(|k| x[k]) $ ids`, the run-time index clamped on the device (`run`
/// checks the indices of a parameter): a map producing `x` moves out (`filter(map(f) $ y,
/// ids)` is `map(f) $ filter(y, ids)`), a view is indexed as it is, other data is bound by a
/// `let` first.
fn filter(x: &Expr, ids: &Expr, span: proc_macro2::Span) -> Expr {
    if let ExprKind::Apply(m, ys) = &x.kind {
        if let ([y], Some(f)) = (ys.as_slice(), m.prim_fun(Prim::Map)) {
            let inner = filter(y, ids, span);
            let map = Expr::new(
                ExprKind::Prim(Prim::Map, vec![PrimArg::Fun(f.clone())]),
                span,
            );
            return Expr::new(ExprKind::Apply(Box::new(map), vec![inner]), span);
        }
    }
    let k = "#k".to_string();
    let (data, bind) = if build::is_view(x) {
        (x.clone(), None)
    } else {
        (ident("#x", span), Some(x.clone()))
    };
    let index = Expr::new(
        ExprKind::Apply(
            Box::new(ident(crate::ir::DYN_INDEX, span)),
            vec![data, ident(&k, span)],
        ),
        span,
    );
    let get = Expr::new(
        ExprKind::Lambda(vec![Pat::Name(k, span)], Box::new(index)),
        span,
    );
    let map = Expr::new(ExprKind::Prim(Prim::Map, vec![PrimArg::Fun(get)]), span);
    let body = Expr::new(ExprKind::Apply(Box::new(map), vec![ids.clone()]), span);
    match bind {
        Some(init) => Expr::new(
            ExprKind::Let(Pat::Name("#x".into(), span), Box::new(init), Box::new(body)),
            span,
        ),
        None => body,
    }
}

/// LIFT's layout primitives that are compositions of others, expanded everywhere (inside
/// rewrite points too): `transpose_w` is `transpose` (a transpose after a map is written
/// transposed already), `head` is `take(1)`, `tail` of `[a; n]` is `at(1) o slide(n - 1, 1)`
/// (its second window), `untile2` is `map(join) o join o map(transpose)`.
fn desugar(e: &mut Expr) {
    use crate::arith::Nat;
    use crate::types::Type;
    for c in crate::rewrite::walk::children_mut(e) {
        desugar(c);
    }
    let span = e.span;
    let prim = |p: Prim, args: Vec<PrimArg>| Expr::new(ExprKind::Prim(p, args), span);
    let nat = |n: Nat| PrimArg::Nat(n, span);
    let new = match &e.kind {
        ExprKind::Prim(Prim::Head, _) => prim(Prim::Take, vec![nat(Nat::cst(1))]),
        ExprKind::Prim(Prim::TransposeW, _) => prim(Prim::Transpose, Vec::new()),
        ExprKind::Prim(Prim::Tail, _) => {
            let Some(Type::Array(_, m)) = &e.ty else {
                return;
            };
            Expr::new(
                ExprKind::Compose(vec![
                    prim(Prim::At, vec![nat(Nat::cst(1))]),
                    prim(Prim::Slide, vec![nat(m.clone()), nat(Nat::cst(1))]),
                ]),
                span,
            )
        }
        ExprKind::Apply(f, xs) if matches!(f.as_prim(), Some((Prim::Filter, _))) => {
            let [x, ids] = xs.as_slice() else {
                return;
            };
            filter(x, ids, span)
        }
        ExprKind::Apply(f, xs) if xs.is_empty() => match f.as_prim() {
            Some((p @ (Prim::Generate | Prim::Generate2), args)) => generate(p, args, span),
            _ => return,
        },
        ExprKind::Prim(Prim::Untile2, _) => {
            let join = || prim(Prim::Join, Vec::new());
            let transpose = prim(Prim::Transpose, Vec::new());
            Expr::new(
                ExprKind::Compose(vec![
                    prim(Prim::Map, vec![PrimArg::Fun(join())]),
                    join(),
                    prim(Prim::Map, vec![PrimArg::Fun(transpose)]),
                ]),
                span,
            )
        }
        _ => return,
    };
    *e = new;
}

/// The normalisation strategy: every rule of [`rules`] wherever it applies, until none does,
/// except inside rewrite points (what the user asked for there stays as written).
pub fn normal_form() -> Strategy {
    let mut rs = rules().into_iter();
    let first = rule(rs.next().expect("rules are not empty"));
    let any = rs.fold(first, |s, r| left_choice(s, rule(r)));
    repeat(Strategy::new(move |e, ctx| outside_points(&any, e, ctx)))
}

/// `s` at the first location in pre-order, outside rewrite points, where it succeeds.
fn outside_points(s: &Strategy, e: &Expr, ctx: &RewriteCtx) -> Option<Expr> {
    if matches!(e.kind, ExprKind::Point(..)) {
        return None;
    }
    s.apply(e, ctx).or_else(|| {
        children(e).into_iter().enumerate().find_map(|(i, c)| {
            let new = outside_points(s, c, &child_ctx(e, i, ctx))?;
            replace_child(e, i, new)
        })
    })
}

/// The normalisation rules, in order of preference.
pub fn rules() -> Vec<Rule> {
    vec![
        map_nd_expand(),
        nd_full_args(),
        tuple_params(),
        eta_reduce(),
        lambda_section(),
        pad2_nested(),
        pad3_nested(),
        slide2_nested(),
        slide3_nested(),
        slide2_of_slides(),
        map_id_elim(),
        simplify::transpose_transpose(),
        map_past_layout(),
        zip_producer(),
        zip_nd_producer(),
        map_into_lambda(),
        index_of_map(),
        apply_map_fusion(),
        apply_reduce_map(),
        filter::apply_filter(),
        filter::filter_fusion(),
        filter::reduce_filter(),
        algorithmic::map_fusion(),
        lambda_fusion(),
        hoist_invariant_reduction(),
        crate::rewrite::interchange::reduce_interchange(),
        zip_unused(),
        iterate_map(),
    ]
}

/// Inlines the single-expression user functions of `funs` into `e` (see the module docs).
pub fn inline_user_functions(e: &mut Expr, funs: &[UserFun]) {
    for c in children_mut(e) {
        inline_user_functions(c, funs);
    }
    let fun_of = |x: &Expr| match &x.kind {
        ExprKind::Ident(n) => funs.iter().find(|f| &f.name == n).and_then(inlinable),
        _ => None,
    };
    match &mut e.kind {
        ExprKind::Apply(f, args) => {
            if let Some((params, body)) = fun_of(f) {
                if args.len() == params.len()
                    && params
                        .iter()
                        .zip(args.iter())
                        .all(|(p, a)| cheap(a) || uses(body, p) <= 1)
                {
                    let mut out = build::untyped(body);
                    for (p, a) in params.iter().zip(args.iter()) {
                        build::subst(&mut out, p, a);
                    }
                    out.span = e.span;
                    *e = out;
                }
            }
        }
        ExprKind::Prim(_, args) => {
            for a in args.iter_mut() {
                if let PrimArg::Fun(f) = a {
                    if let Some((params, body)) = fun_of(f) {
                        let s = f.span;
                        let pats = params.iter().map(|p| Pat::Name(p.clone(), s)).collect();
                        let lam = ExprKind::Lambda(pats, Box::new(build::untyped(body)));
                        *f = Expr::new(lam, s);
                    }
                }
            }
        }
        _ => {}
    }
}

/// The parameter names and body of a user function that can be inlined.
fn inlinable(f: &UserFun) -> Option<(Vec<String>, &Expr)> {
    let FunBody::Expr(body) = &f.body else {
        return None;
    };
    if contains(body, &|x| {
        matches!(x.kind, ExprKind::Let(..) | ExprKind::Lambda(..))
    }) {
        return None;
    }
    Some((f.params.iter().map(|p| p.name.clone()).collect(), body))
}

/// Does some sub-expression of `e` satisfy `p`?
fn contains(e: &Expr, p: &dyn Fn(&Expr) -> bool) -> bool {
    p(e) || children(e).into_iter().any(|c| contains(c, p))
}

/// How often the variable `name` occurs in `e`.
fn uses(e: &Expr, name: &str) -> usize {
    if build::is_ident(e, name) {
        return 1;
    }
    children(e).into_iter().map(|c| uses(c, name)).sum()
}

/// How often the variable `name` occurs in `e` inside the body of a lambda of `e`.
fn uses_under_lambda(e: &Expr, name: &str) -> usize {
    match &e.kind {
        ExprKind::Lambda(_, body) => uses(body, name),
        _ => children(e)
            .into_iter()
            .map(|c| uses_under_lambda(c, name))
            .sum(),
    }
}

/// An expression that costs nothing to evaluate twice.
fn cheap(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(_) | ExprKind::Lit(..) => true,
        ExprKind::Proj(x, _) => cheap(x),
        _ => false,
    }
}

/// `map2(f) ⇒ map(map(f))`, `map3(f) ⇒ map(map(map(f)))`.
pub fn map_nd_expand() -> Rule {
    Rule::new(
        "map_nd_expand",
        "map2(f) ⇒ map(map(f));  map3(f) ⇒ map(map(map(f)))",
        |e, _| {
            let (p, depth) = match e.as_prim()? {
                (Prim::Map2, _) => (Prim::Map2, 2),
                (Prim::Map3, _) => (Prim::Map3, 3),
                _ => return None,
            };
            let mut out = e.prim_fun(p)?.clone();
            for _ in 0..depth {
                out = with_fun(Prim::Map, &out, e.span);
            }
            Some(out)
        },
    )
}

/// The short forms of the n-D layout primitives spelled out: `slide2(s, t) ⇒ slide2(s, t, s,
/// t)`, `pad2(p, β) ⇒ pad2(p, p, p, p, β)`, and the same for `slide3`, `pad3`.
pub fn nd_full_args() -> Rule {
    Rule::new(
        "nd_full_args",
        "slide2(s, t) ⇒ slide2(s, t, s, t);  pad2(p, β) ⇒ pad2(p, p, p, p, β);  (also 3-D)",
        |e, _| {
            let (p, args) = e.as_prim()?;
            let dims = match p {
                Prim::Slide2 | Prim::Pad2 => 2,
                Prim::Slide3 | Prim::Pad3 => 3,
                _ => return None,
            };
            let short = args.len() == 2;
            if !short {
                return None;
            }
            let full: Vec<PrimArg> = match p {
                Prim::Slide2 | Prim::Slide3 => {
                    (0..dims).flat_map(|_| args.iter().cloned()).collect()
                }
                _ => (0..2 * dims)
                    .map(|_| args[0].clone())
                    .chain(std::iter::once(args[1].clone()))
                    .collect(),
            };
            Some(prim(p, full, e.span))
        },
    )
}

/// `|(a, b)| e ⇒ |p| e[a := p.0, b := p.1]` (nested patterns too).
pub fn tuple_params() -> Rule {
    Rule::new(
        "tuple_params",
        "|(a, b)| e ⇒ |p| e[a := p.0, b := p.1]",
        |e, ctx| {
            let ExprKind::Lambda(ps, body) = &e.kind else {
                return None;
            };
            if !ps.iter().any(|p| matches!(p, Pat::Tuple(..))) {
                return None;
            }
            let mut body = build::untyped(body);
            let mut names = Vec::new();
            for p in ps {
                match p {
                    Pat::Name(..) => names.push(p.clone()),
                    Pat::Tuple(_, s) => {
                        let n = ctx.fresh("t", &[e]);
                        bind(&mut body, p, &ident(&n, *s));
                        names.push(Pat::Name(n, *s));
                    }
                }
            }
            Some(Expr::new(ExprKind::Lambda(names, Box::new(body)), e.span))
        },
    )
}

/// `|x| f $ x ⇒ f` when `x` is not free in `f` (and `f` is not a variable: user and math
/// functions stay called by name).
pub fn eta_reduce() -> Rule {
    Rule::new(
        "eta_reduce",
        "|x| f $ x ⇒ f   if x not free in f",
        |e, _| {
            let (x, body) = build::lambda1(e)?;
            let ExprKind::Apply(f, args) = &body.kind else {
                return None;
            };
            let [arg] = args.as_slice() else { return None };
            let function = matches!(
                f.kind,
                ExprKind::Prim(..) | ExprKind::Compose(_) | ExprKind::Lambda(..)
            );
            (function && build::is_ident(arg, x) && !build::mentions(f, x)).then(|| (**f).clone())
        },
    )
}

/// `|a, b| a + b ⇒ +` (and `*`, `min`, `max`; either operand order): a function argument that
/// computes exactly an operator becomes its section, which reduction strategies recognise.
pub fn lambda_section() -> Rule {
    Rule::new(
        "lambda_section",
        "|a, b| a + b ⇒ +   (also *, min, max)",
        |e, _| {
            if !matches!(e.kind, ExprKind::Lambda(..)) {
                return None;
            }
            let sec = build::section_of(e)?;
            Some(Expr::new(ExprKind::Section(sec), e.span))
        },
    )
}

/// `pad`'s sizes and boundary, for a boundary that is an index function (not a constant).
fn pad_args(e: &Expr) -> Option<(PrimArg, PrimArg, &Boundary)> {
    let (Prim::Pad, [l, r, PrimArg::Boundary(b, _)]) = e.as_prim()? else {
        return None;
    };
    (!matches!(b, Boundary::Constant(_))).then(|| (l.clone(), r.clone(), b))
}

fn same_boundary(a: &Boundary, b: &Boundary) -> bool {
    matches!(
        (a, b),
        (Boundary::Clamp, Boundary::Clamp)
            | (Boundary::Mirror, Boundary::Mirror)
            | (Boundary::Wrap, Boundary::Wrap)
    )
}

/// `pad(t, b, β) o map(pad(l, r, β)) ⇒ pad2(t, b, l, r, β)` and `map(pad(l, r, β)) o pad(t,
/// b, β) ⇒ pad2(t, b, l, r, β)` for an index boundary `β` (the two dimensions' index functions
/// are independent, so either order reads `x[β(i)][β(j)]`).
pub fn pad2_nested() -> Rule {
    Rule::chain(
        "pad2_nested",
        "pad(t, b, β) o map(pad(l, r, β)) ⇒ pad2(t, b, l, r, β);  map(pad(l, r, β)) o pad(t, b, β) ⇒ pad2(..)",
        |f, g, _| pad_nested(f, g, 1),
    )
}

/// `pad2(t, b, l, r, β) o map(map(pad(f, k, β))) ⇒ pad3(t, b, l, r, f, k, β)` and the
/// mirrored order, for an index boundary `β` (independent index functions per dimension).
pub fn pad3_nested() -> Rule {
    Rule::chain(
        "pad3_nested",
        "pad2(t, b, l, r, β) o map(map(pad(f, k, β))) ⇒ pad3(t, b, l, r, f, k, β)  (either order)",
        |f, g, _| pad_nested(f, g, 2),
    )
}

/// The `d`-dimensional pad (`pad`, `pad2`) and a 1-D pad under `d` maps, in either order, as
/// one `(d + 1)`-dimensional pad, when both use the same index boundary.
fn pad_nested(f: &Expr, g: &Expr, d: usize) -> Option<Vec<Expr>> {
    fn under(m: &Expr, d: usize) -> Option<(PrimArg, PrimArg, &Boundary)> {
        let mut m = m;
        for _ in 0..d {
            m = m.prim_fun(Prim::Map)?;
        }
        pad_args(m)
    }
    let (outer, (l, r, bi)) = match (under(f, d), under(g, d)) {
        (None, Some(p)) => (f, p),
        (Some(p), None) => (g, p),
        _ => return None,
    };
    let (want, out) = if d == 1 {
        (Prim::Pad, Prim::Pad2)
    } else {
        (Prim::Pad2, Prim::Pad3)
    };
    let (p, args) = outer.as_prim()?;
    let (Some(PrimArg::Boundary(bo, _)), true) =
        (args.last(), p == want && args.len() == 2 * d + 1)
    else {
        return None;
    };
    if !same_boundary(bo, bi) {
        return None;
    }
    let s = f.span;
    let mut all = args[..2 * d].to_vec();
    all.extend([l, r, PrimArg::Boundary(bo.clone(), s)]);
    Some(vec![prim(out, all, s)])
}

/// `map(map(F o transpose o map(transpose o map(slide(sx, tx))))) o slide2(sz, tz, sy, ty) ⇒
/// map(map(F)) o slide3(sz, tz, sy, ty, sx, tx)` (also with `map(transpose) o
/// map(map(slide))` unfused): each 2-D window of rows is cut into 3-D windows along the rows,
/// which is `slide3`.
pub fn slide3_nested() -> Rule {
    Rule::chain(
        "slide3_nested",
        "map(map(F o transpose o map(transpose o map(slide(sx, tx))))) o slide2(sz, tz, sy, ty) ⇒ map(map(F)) o slide3(..)",
        |m, sl, _| {
            let (Prim::Slide2, [sz, tz, sy, ty]) = sl.as_prim()? else {
                return None;
            };
            let body = m.prim_fun(Prim::Map)?.prim_fun(Prim::Map)?;
            let fs = chain(body);
            let n = fs.len();
            // The tail `transpose o map(transpose o map(slide))`, fused or not.
            let (x, rest) = if n >= 2 && is_bare(&fs[n - 2], Prim::Transpose) {
                let inner = chain(fs[n - 1].prim_fun(Prim::Map)?);
                match inner.as_slice() {
                    [t, ms] if is_bare(t, Prim::Transpose) => {
                        (slide_args(ms.prim_fun(Prim::Map)?)?, &fs[..n - 2])
                    }
                    _ => return None,
                }
            } else if n >= 3
                && is_bare(&fs[n - 3], Prim::Transpose)
                && fs[n - 2]
                    .prim_fun(Prim::Map)
                    .is_some_and(|t| is_bare(t, Prim::Transpose))
            {
                let ms = fs[n - 1].prim_fun(Prim::Map)?.prim_fun(Prim::Map)?;
                (slide_args(ms)?, &fs[..n - 3])
            } else {
                return None;
            };
            let s = m.span;
            let [sx, tx] = x;
            let slide3 = prim(
                Prim::Slide3,
                vec![sz.clone(), tz.clone(), sy.clone(), ty.clone(), sx, tx],
                s,
            );
            let mut out = Vec::new();
            if !rest.is_empty() {
                let f = compose(rest.to_vec(), s);
                out.push(with_fun(Prim::Map, &with_fun(Prim::Map, &f, s), s));
            }
            out.push(slide3);
            Some(out)
        },
    )
}

/// `slide(n, s)`'s window size and step.
fn slide_args(e: &Expr) -> Option<[PrimArg; 2]> {
    let (Prim::Slide, [n, s]) = e.as_prim()? else {
        return None;
    };
    Some([n.clone(), s.clone()])
}

/// `slide2(sy, ty, sx, tx)` from the row and column windows.
fn slide2(y: [PrimArg; 2], x: [PrimArg; 2], s: proc_macro2::Span) -> Expr {
    let [sy, ty] = y;
    let [sx, tx] = x;
    prim(Prim::Slide2, vec![sy, ty, sx, tx], s)
}

/// `map(f o transpose o map(slide(sx, tx))) o slide(sy, ty) ⇒ map(f) o slide2(sy, ty, sx, tx)`
/// and `map(f o map(transpose) o slide(sx, tx) o transpose) o slide(sy, ty) ⇒ map(f) o
/// slide2(..)` (the two definitions of 2-D windows of the stencil thesis; `f` may be empty).
pub fn slide2_nested() -> Rule {
    Rule::chain(
        "slide2_nested",
        "map(f o transpose o map(slide(sx, tx))) o slide(sy, ty) ⇒ map(f) o slide2(sy, ty, sx, tx)   (also map(f o map(transpose) o slide(sx, tx) o transpose))",
        |m, sl, _| {
            let y = slide_args(sl)?;
            let body = m.prim_fun(Prim::Map)?;
            let fs = match &body.kind {
                ExprKind::Compose(fs) => build::flatten(fs),
                _ => vec![body.clone()],
            };
            let n = fs.len();
            let (x, rest) = if n >= 2
                && is_bare(&fs[n - 2], Prim::Transpose)
                && fs[n - 1].prim_fun(Prim::Map).is_some()
            {
                (slide_args(fs[n - 1].prim_fun(Prim::Map)?)?, &fs[..n - 2])
            } else if n >= 3
                && fs[n - 3]
                    .prim_fun(Prim::Map)
                    .is_some_and(|t| is_bare(t, Prim::Transpose))
                && is_bare(&fs[n - 1], Prim::Transpose)
            {
                (slide_args(&fs[n - 2])?, &fs[..n - 3])
            } else {
                return None;
            };
            let s = m.span;
            let mut out = Vec::new();
            if !rest.is_empty() {
                out.push(with_fun(Prim::Map, &compose(rest.to_vec(), s), s));
            }
            out.push(slide2(y, x, s));
            Some(out)
        },
    )
}

/// `slide(sy, ty) o map(slide(sx, tx)) ⇒ map(transpose) o slide2(sy, ty, sx, tx)` (windows of
/// windows, rows first: each neighbourhood is the transpose of `slide2`'s).
pub fn slide2_of_slides() -> Rule {
    Rule::chain(
        "slide2_of_slides",
        "slide(sy, ty) o map(slide(sx, tx)) ⇒ map(transpose) o slide2(sy, ty, sx, tx)",
        |sl, m, _| {
            let y = slide_args(sl)?;
            let x = slide_args(m.prim_fun(Prim::Map)?)?;
            let s = sl.span;
            let tr = prim(Prim::Transpose, Vec::new(), s);
            Some(vec![with_fun(Prim::Map, &tr, s), slide2(y, x, s)])
        },
    )
}

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
fn projections(e: &Expr, p: &str, i: usize) -> usize {
    if let ExprKind::Proj(x, j) = &e.kind {
        if *j == i && build::is_ident(x, p) {
            return 1;
        }
    }
    children(e).into_iter().map(|c| projections(c, p, i)).sum()
}

/// `F o map(|x| E[R]) o G $ data ⇒ { let h = R; F o map(|x| E[h]) o G $ data }` where `R` is
/// a reduction that mentions no name bound in the lambda: computed once instead of once per
/// element (`map(|x| x / (reduce(+, 0.0) $ v)) $ v` is quadratic as written).
pub fn hoist_invariant_reduction() -> Rule {
    Rule::new(
        "hoist_invariant_reduction",
        "F o map(|x| E[R]) o G $ d ⇒ { let h = R; F o map(|x| E[h]) o G $ d }   if R is a reduction free of x",
        |e, ctx| {
            let ExprKind::Apply(f, _) = &e.kind else {
                return None;
            };
            let fs: Vec<&Expr> = match &f.kind {
                ExprKind::Compose(fs) => fs.iter().collect(),
                _ => vec![&**f],
            };
            let (i, r) = fs.iter().enumerate().find_map(|(i, m)| {
                let lam = m.prim_fun(Prim::Map)?;
                let ExprKind::Lambda(_, body) = &lam.kind else {
                    return None;
                };
                Some((i, invariant_reduction(body, &binders(lam))?))
            })?;
            let h = ctx.fresh("h", &[e]);
            let s = e.span;
            // Only inside that map's lambda, which binds none of `r`'s names.
            let mut fs: Vec<Expr> = fs.into_iter().cloned().collect();
            build::replace_same(&mut fs[i], &r, &ident(&h, s));
            let ExprKind::Apply(_, xs) = &e.kind else {
                return None;
            };
            let app = Expr::new(
                ExprKind::Apply(Box::new(compose(fs, f.span)), xs.clone()),
                s,
            );
            let kind = ExprKind::Let(Pat::Name(h, s), Box::new(build::untyped(&r)), Box::new(app));
            Some(Expr::new(kind, s))
        },
    )
}

/// The names bound by lambdas and `let`s in `e`.
fn binders(e: &Expr) -> Vec<String> {
    let mut out = match &e.kind {
        ExprKind::Lambda(ps, _) => ps.iter().flat_map(build::pat_names).collect(),
        ExprKind::Let(p, _, _) => build::pat_names(p),
        _ => Vec::new(),
    };
    for c in children(e) {
        out.extend(binders(c));
    }
    out
}

/// The first reduction applied to data in `e` (pre-order) none of whose free names is in
/// `bound`.
fn invariant_reduction(e: &Expr, bound: &[String]) -> Option<Expr> {
    if let ExprKind::Apply(f, _) = &e.kind {
        let head = match &f.kind {
            ExprKind::Compose(fs) => fs.first(),
            _ => Some(&**f),
        };
        if head.is_some_and(|h| h.prim_fun(Prim::Reduce).is_some())
            && !build::free_names(e).iter().any(|n| bound.contains(n))
        {
            return Some(e.clone());
        }
    }
    children(e)
        .into_iter()
        .find_map(|c| invariant_reduction(c, bound))
}

/// `map(|t| E) $ zip(x0, .., xn) ⇒ map(|t| E') $ zip(xi, ..)` keeping only the components
/// `E` projects (`E'` renumbered; a single one is not zipped at all): a component nobody reads
/// hides the shape of the map from the strategies (`map(|t| f(t.0)) $ zip(a, c)` is
/// `map(f) $ a`).
pub fn zip_unused() -> Rule {
    Rule::new(
        "zip_unused",
        "map(|t| E) $ zip(x0, .., xn) ⇒ map(|t| E') $ zip(xi, ..)   keeping the projected xi",
        |e, _ctx| {
            let ExprKind::Apply(m, ys) = &e.kind else {
                return None;
            };
            let [zipped] = ys.as_slice() else { return None };
            let (t, body) = build::lambda1(m.prim_fun(Prim::Map)?)?;
            let ExprKind::Apply(z, xs) = &zipped.kind else {
                return None;
            };
            if !matches!(&z.kind, ExprKind::Prim(Prim::Zip, a) if a.is_empty()) {
                return None;
            }
            let counts: Vec<usize> = (0..xs.len()).map(|i| projections(body, t, i)).collect();
            let used: Vec<usize> = (0..xs.len()).filter(|&i| counts[i] > 0).collect();
            if used.is_empty()
                || used.len() == xs.len()
                || counts.iter().sum::<usize>() != uses(body, t)
            {
                return None;
            }
            let s = e.span;
            let mut body = build::untyped(body);
            let one = used.len() == 1;
            for (k, &i) in used.iter().enumerate() {
                let by = if one {
                    ident(t, s)
                } else {
                    Expr::new(ExprKind::Proj(Box::new(ident(t, s)), k), s)
                };
                replace_projection(&mut body, t, i, &by);
            }
            let data = if one {
                build::untyped(&xs[used[0]])
            } else {
                let kept = used.iter().map(|&i| build::untyped(&xs[i])).collect();
                Expr::new(ExprKind::Apply(Box::new(build::untyped(z)), kept), s)
            };
            let lam = Expr::new(
                ExprKind::Lambda(vec![Pat::Name(t.to_string(), s)], Box::new(body)),
                s,
            );
            let m = with_fun(Prim::Map, &lam, s);
            Some(Expr::new(ExprKind::Apply(Box::new(m), vec![data]), s))
        },
    )
}

/// Replaces every `p.i` in `e` by `by` (the new projections are not revisited).
fn replace_projection(e: &mut Expr, p: &str, i: usize, by: &Expr) {
    if let ExprKind::Proj(x, j) = &e.kind {
        if *j == i && build::is_ident(x, p) {
            *e = Expr {
                ty: None,
                ..by.clone()
            };
            // Mark as done: a renumbered projection must not be replaced again.
            return;
        }
    }
    e.ty = None;
    for c in children_mut(e) {
        replace_projection(c, p, i, by);
    }
}

/// The most steps [`iterate_map`] writes out.
const MAX_ITERATE_MAP: i64 = 16;

/// `iterate(k, map(f)) ⇒ map(f o ... o f)` (`k` copies, `k` a constant of at most 16): the
/// steps of an elementwise iteration fuse into one map instead of `k` passes over memory.
pub fn iterate_map() -> Rule {
    Rule::new(
        "iterate_map",
        "iterate(k, map(f)) ⇒ map(f o ... o f)   (k constant, at most 16)",
        |e, _ctx| {
            let (Prim::Iterate, args) = e.as_prim()? else {
                return None;
            };
            let k = args.iter().find_map(|a| a.as_nat()?.as_cst())?;
            let f = args
                .iter()
                .rev()
                .find_map(PrimArg::as_fun)?
                .prim_fun(Prim::Map)?;
            if !(1..=MAX_ITERATE_MAP).contains(&k) {
                return None;
            }
            let s = e.span;
            let steps = vec![build::untyped(f); k as usize];
            Some(with_fun(Prim::Map, &compose(steps, s), s))
        },
    )
}
