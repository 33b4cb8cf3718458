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

use crate::ir::{Expr, ExprKind, Pat, PrimArg, Program};
use crate::prim::Prim;
use crate::rewrite::build::{self, call, ident};
use crate::rewrite::strategy::{left_choice, repeat, rule, Strategy};
use crate::rewrite::walk::{child_ctx, children, replace_child};
use crate::rewrite::{
    algorithmic, filter, rewrite_kernel, simplify, RewriteCtx, RewriteError, Rule,
};

mod fusion;
mod inline;
mod pruning;
mod spelling;
mod stencils;

pub use fusion::{
    apply_map_fusion, apply_reduce_map, index_of_map, lambda_fusion, map_id_elim, map_into_lambda,
    map_past_layout, zip_nd_producer, zip_producer,
};
pub use inline::inline_user_functions;
pub use pruning::{hoist_invariant_reduction, iterate_map, zip_unused};
pub use spelling::{eta_reduce, lambda_section, map_nd_expand, nd_full_args, tuple_params};
pub use stencils::{pad2_nested, pad3_nested, slide2_nested, slide2_of_slides, slide3_nested};

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
