//! Small constructors and pattern accessors shared by the rule families.
//!
//! New nodes are untyped; a node moved to a new position loses its root type ([`untyped`]), so
//! every type left on a tree stays correct for side conditions.

pub(crate) use super::names::{binds, free as free_names, mentions, pat_names, subst};
use super::walk::children_mut;
use crate::arith::Nat;
use crate::ir::{BinOp, Expr, ExprKind, LitValue, Pat, PrimArg, Section};
use crate::prim::Prim;
use crate::types::Type;
use proc_macro2::Span;

/// A clone of `e` without its root type.
pub(crate) fn untyped(e: &Expr) -> Expr {
    Expr {
        ty: None,
        ..e.clone()
    }
}

/// A primitive node.
pub(crate) fn prim(p: Prim, args: Vec<PrimArg>, span: Span) -> Expr {
    Expr::new(ExprKind::Prim(p, args), span)
}

/// A function argument.
pub(crate) fn fun(e: &Expr) -> PrimArg {
    PrimArg::Fun(e.clone())
}

/// A size argument.
pub(crate) fn nat(n: &Nat, span: Span) -> PrimArg {
    PrimArg::Nat(n.clone(), span)
}

/// `p(f)` for a primitive with a single function argument (`map(f)`).
pub(crate) fn with_fun(p: Prim, f: &Expr, span: Span) -> Expr {
    prim(p, vec![fun(f)], span)
}

/// Nested compositions flattened into one chain.
pub(crate) fn flatten(fs: &[Expr]) -> Vec<Expr> {
    let mut out = Vec::new();
    for f in fs {
        match &f.kind {
            ExprKind::Compose(inner) => out.extend(flatten(inner)),
            _ => out.push(f.clone()),
        }
    }
    out
}

/// [`flatten`], moving the functions instead of cloning them.
fn flatten_owned(fs: Vec<Expr>) -> Vec<Expr> {
    if !fs.iter().any(|f| matches!(f.kind, ExprKind::Compose(_))) {
        return fs;
    }
    let mut out = Vec::with_capacity(fs.len());
    for f in fs {
        match f.kind {
            ExprKind::Compose(inner) => out.extend(flatten_owned(inner)),
            _ => out.push(f),
        }
    }
    out
}

/// The composition of `fs` (outermost first): flattened, a single function as itself, and
/// `id` when empty.
pub(crate) fn compose(fs: Vec<Expr>, span: Span) -> Expr {
    let mut fs = flatten_owned(fs);
    match fs.len() {
        0 => prim(Prim::Id, Vec::new(), span),
        1 => fs.swap_remove(0),
        _ => Expr::new(ExprKind::Compose(fs), span),
    }
}

/// Is `e` primitive `p` with no static arguments (`join`, `transpose`)?
pub(crate) fn is_bare(e: &Expr, p: Prim) -> bool {
    matches!(e.as_prim(), Some((q, [])) if q == p)
}

/// Element type and length of an array type.
pub(crate) fn array(t: Option<&Type>) -> Option<(&Type, &Nat)> {
    t?.as_array()
}

/// Is `e` the literal `k` (integer or float)?
pub(crate) fn is_lit(e: &Expr, k: f64) -> bool {
    match &e.kind {
        ExprKind::Lit(LitValue::Int(i), _) => *i as f64 == k,
        ExprKind::Lit(LitValue::Float(x), _) => *x == k,
        _ => false,
    }
}

/// The operator section `e` stands for: a section, or a lambda `|a, b| a op b` (`b op a`,
/// `min(a, b)`, `max(a, b)`) computing exactly that operator.
pub(crate) fn section_of(e: &Expr) -> Option<Section> {
    use crate::ir::{BinOp, Pat};
    match &e.kind {
        ExprKind::Section(s) => Some(*s),
        ExprKind::Lambda(pats, body) => {
            let [Pat::Name(a, _), Pat::Name(b, _)] = pats.as_slice() else {
                return None;
            };
            if a == b {
                return None;
            }
            let is = |x: &Expr, n: &str| matches!(&x.kind, ExprKind::Ident(m) if m == n);
            let pair = |x: &Expr, y: &Expr| (is(x, a) && is(y, b)) || (is(x, b) && is(y, a));
            match &body.kind {
                ExprKind::Binary(BinOp::Add, x, y) if pair(x, y) => Some(Section::Add),
                ExprKind::Binary(BinOp::Mul, x, y) if pair(x, y) => Some(Section::Mul),
                ExprKind::Apply(f, xs) if xs.len() == 2 && pair(&xs[0], &xs[1]) => match &f.kind {
                    ExprKind::Ident(n) if n == "min" => Some(Section::Min),
                    ExprKind::Ident(n) if n == "max" => Some(Section::Max),
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// `p(args)` with its function argument replaced by `f`.
pub(crate) fn replace_fun(p: Prim, args: &[PrimArg], f: Expr, span: Span) -> Expr {
    let mut args = args.to_vec();
    if let Some(slot) = args.iter_mut().rev().find_map(PrimArg::as_fun_mut) {
        *slot = f;
    }
    prim(p, args, span)
}

/// An unsuffixed literal given the suffix of its checked type, so that it keeps that type in a
/// new context; other expressions unchanged.
pub(crate) fn pin_literal(z: &Expr) -> Expr {
    match (&z.kind, &z.ty) {
        (ExprKind::Lit(v, None), Some(Type::Scalar(t))) => {
            Expr::new(ExprKind::Lit(v.clone(), Some(*t)), z.span)
        }
        _ => z.clone(),
    }
}

/// `pad(0, extra, clamp) $ x`, with `extra` bringing the outer length `len` of `x` up to a
/// multiple of `t` (the padded elements repeat the last one; callers cut them off again with
/// `take`).
pub(crate) fn pad_to_multiple(x: Expr, len: &Nat, t: i64, s: Span) -> Expr {
    let t = Nat::cst(t);
    let extra = (len + &(&t - &Nat::cst(1))) / &t * &t - len;
    let pad = prim(
        Prim::Pad,
        vec![
            PrimArg::Nat(Nat::cst(0), s),
            PrimArg::Nat(extra, s),
            PrimArg::Boundary(crate::ir::Boundary::Clamp, s),
        ],
        s,
    );
    Expr::new(ExprKind::Apply(Box::new(pad), vec![x]), s)
}

/// Reshaping primitives ([`crate::analysis::RESHAPES`]), compositions and maps of them.
pub(crate) fn is_layout(f: &Expr) -> bool {
    match &f.kind {
        ExprKind::Compose(fs) => fs.iter().all(is_layout),
        ExprKind::Prim(Prim::Map, _) => f.prim_fun(Prim::Map).is_some_and(is_layout),
        ExprKind::Prim(p, _) => crate::analysis::RESHAPES.contains(p),
        _ => false,
    }
}

/// Data read without computing: names, `iota(n)`, and layout primitives applied to such data.
pub(crate) fn is_view(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Apply(f, xs) if xs.is_empty() => matches!(f.as_prim(), Some((Prim::Iota, _))),
        ExprKind::Apply(f, xs) => is_layout(f) && xs.iter().all(is_view),
        _ => false,
    }
}

/// Data read without computing: a view, or a `zip` of such.
pub(crate) fn is_data(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Apply(f, xs) if matches!(f.as_prim(), Some((Prim::Zip, _))) => {
            xs.iter().all(is_data)
        }
        _ => is_view(e),
    }
}

/// `pad(0, extra, constant(0.0f32))`: `extra` zeros after the elements.
pub(crate) fn zero_pad(extra: &Nat, s: Span) -> Expr {
    let zero = Expr::new(
        ExprKind::Lit(LitValue::Float(0.0), Some(crate::types::ScalarType::F32)),
        s,
    );
    prim(
        Prim::Pad,
        vec![
            PrimArg::Nat(Nat::cst(0), s),
            PrimArg::Nat(extra.clone(), s),
            PrimArg::Boundary(crate::ir::Boundary::Constant(Box::new(zero)), s),
        ],
        s,
    )
}

/// `f $ x`.
pub(crate) fn apply1(f: Expr, x: Expr, s: Span) -> Expr {
    Expr::new(ExprKind::Apply(Box::new(f), vec![x]), s)
}

/// `zip(a, b)`.
pub(crate) fn zip2(a: Expr, b: Expr, s: Span) -> Expr {
    Expr::new(
        ExprKind::Apply(Box::new(prim(Prim::Zip, Vec::new(), s)), vec![a, b]),
        s,
    )
}

/// `map(|pat| body) $ data`.
pub(crate) fn map_over(pat: Pat, body: Expr, data: Expr, s: Span) -> Expr {
    let lam = Expr::new(ExprKind::Lambda(vec![pat], Box::new(body)), s);
    apply1(with_fun(Prim::Map, &lam, s), data, s)
}

/// `|x| body` with a single named parameter.
pub(crate) fn lambda1(e: &Expr) -> Option<(&str, &Expr)> {
    match &e.kind {
        ExprKind::Lambda(ps, body) => match ps.as_slice() {
            [Pat::Name(n, _)] => Some((n, body)),
            _ => None,
        },
        _ => None,
    }
}

/// Is `e` the variable `name`?
pub(crate) fn is_ident(e: &Expr, name: &str) -> bool {
    matches!(&e.kind, ExprKind::Ident(n) if n == name)
}

/// A variable reference.
pub(crate) fn ident(n: &str, s: Span) -> Expr {
    Expr::new(ExprKind::Ident(n.to_string()), s)
}

/// `f(args)` for a function expression `f`: a section becomes the operator, a lambda is
/// beta-reduced (its parameters bound to the arguments), anything else is applied.
pub(crate) fn call(f: &Expr, args: Vec<Expr>, s: Span) -> Expr {
    match (&f.kind, args.as_slice()) {
        (ExprKind::Section(sec @ (Section::Add | Section::Mul)), [x, y]) => {
            let op = if *sec == Section::Add {
                BinOp::Add
            } else {
                BinOp::Mul
            };
            let kind = ExprKind::Binary(op, Box::new(x.clone()), Box::new(y.clone()));
            Expr::new(kind, s)
        }
        (ExprKind::Lambda(ps, body), _) if ps.len() == args.len() => {
            let mut out = untyped(body);
            let mut pairs = Vec::new();
            for (p, a) in ps.iter().zip(&args) {
                bindings(p, a, &mut pairs);
            }
            let by: Vec<(&str, &Expr)> = pairs.iter().map(|(n, v)| (n.as_str(), v)).collect();
            super::names::subst_all(&mut out, &by);
            out
        }
        _ => Expr::new(ExprKind::Apply(Box::new(f.clone()), args), s),
    }
}

/// Substitutes the names of pattern `p` by the matching parts of `v`, all at once.
pub(crate) fn bind(e: &mut Expr, p: &Pat, v: &Expr) {
    let mut pairs = Vec::new();
    bindings(p, v, &mut pairs);
    let by: Vec<(&str, &Expr)> = pairs.iter().map(|(n, v)| (n.as_str(), v)).collect();
    super::names::subst_all(e, &by);
}

/// The names of pattern `p` with the parts of `v` they stand for (projections of `v` where
/// it is not a tuple).
fn bindings(p: &Pat, v: &Expr, out: &mut Vec<(String, Expr)>) {
    match p {
        Pat::Name(n, _) => out.push((n.clone(), v.clone())),
        Pat::Tuple(ps, _) => {
            for (i, q) in ps.iter().enumerate() {
                let part = match &v.kind {
                    ExprKind::Tuple(vs) if vs.len() == ps.len() => vs[i].clone(),
                    _ => Expr::new(ExprKind::Proj(Box::new(v.clone()), i), v.span),
                };
                bindings(q, &part, out);
            }
        }
    }
}

/// `f $ (g $ ys)` (one argument outside): `f`, `g` and `ys`.
pub(crate) fn apply_of_apply(e: &Expr) -> Option<(&Expr, &Expr, &[Expr])> {
    let ExprKind::Apply(f, xs) = &e.kind else {
        return None;
    };
    let [inner] = xs.as_slice() else { return None };
    let ExprKind::Apply(g, ys) = &inner.kind else {
        return None;
    };
    Some((f, g, ys))
}

/// `(f o g) $ ys`, spanned like `e`.
pub(crate) fn apply_composed(f: &Expr, g: &Expr, ys: &[Expr], e: &Expr) -> Expr {
    let fg = compose(vec![f.clone(), g.clone()], e.span);
    Expr::new(ExprKind::Apply(Box::new(fg), ys.to_vec()), e.span)
}

/// A function's composition chain, outermost first.
pub(crate) fn chain(f: &Expr) -> Vec<Expr> {
    match &f.kind {
        ExprKind::Compose(fs) => flatten(fs),
        _ => vec![f.clone()],
    }
}

/// Replaces every sub-expression of `e` equal to `r` (structurally, see [`Expr`]'s equality,
/// so up to the names it binds) by `by`, untyping the rest. Not under a binder of one of the
/// free names of `r`: there an equal-looking expression means something else.
pub(crate) fn replace_same(e: &mut Expr, r: &Expr, by: &Expr) {
    fn go(e: &mut Expr, r: &Expr, by: &Expr, fv: &[String]) {
        if e == r {
            *e = by.clone();
            return;
        }
        e.ty = None;
        let shadows = |p: &Pat| fv.iter().any(|n| binds(p, n));
        match &mut e.kind {
            ExprKind::Lambda(ps, _) if ps.iter().any(shadows) => {}
            ExprKind::Let(p, v, _) if shadows(p) => go(v, r, by, fv),
            _ => {
                for c in children_mut(e) {
                    go(c, r, by, fv);
                }
            }
        }
    }
    go(e, r, by, &free_names(r));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_expr_str;

    fn replaced(e: &str, r: &str) -> String {
        let p = |s: &str| parse_expr_str(s, &[]).unwrap();
        let mut e = p(e);
        replace_same(&mut e, &p(r), &p("h"));
        crate::print::expr(&e)
    }

    #[test]
    fn replace_same_is_structural_and_respects_scope() {
        assert_eq!(
            replaced("map(|a| a + f(y)) $ x", "f(y)"),
            "map(|a| a + h) $ x"
        );
        // Alpha-equivalent occurrences are the same expression.
        assert_eq!(
            replaced("(map(|v| v * 2.0) $ y, z)", "map(|u| u * 2.0) $ y"),
            "(h, z)"
        );
        // Under a binder of one of its free names, an equal-looking expression is another.
        assert_eq!(
            replaced("(y.0, map(|y| y.0) $ w)", "y.0"),
            "(h, map(|y| y.0) $ w)"
        );
        assert_eq!(
            replaced("{ let y = y.0; y.0 }", "y.0"),
            "{ let y = h; y.0 }"
        );
    }
}
