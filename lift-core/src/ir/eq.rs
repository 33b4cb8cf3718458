//! Structural equality and hashing of the syntax tree.
//!
//! Two expressions are equal when they have the same form, ignoring spans, the types the
//! checker filled in ([`Expr::ty`]) and the names of bound variables (alpha-equivalence):
//! `|x| x + y` equals `|z| z + y` but not `|x| x + z`. Lambda parameters, tuple patterns and
//! `let` binders all bind. A bound variable is compared by the position of its binder (its
//! de Bruijn level), a free one by name; so a bound name never equals a free one. Binders
//! must have the same pattern shape, and the same repetitions of a name within one binder
//! group (`|x, x| x` is not `|x, y| y`: which `x` is meant depends on the reader). Float
//! literals compare by their bits, so that equality is an equivalence (`0.0` differs from
//! `-0.0`, a NaN equals the same NaN); a literal's suffix is part of it (`1` differs from
//! `1i32`). [`Hash`] agrees with this equality: it hashes bound variables by binder
//! position, free ones by name, and no spans or types.
//!
//! A [`Pat`] on its own compares by its names (modulo spans): outside an expression its names
//! are all it says.

use super::{Boundary, Expr, ExprKind, LitValue, Pat, PrimArg, Reorder};
use std::hash::{Hash, Hasher};

/// The binders in scope on each side of a comparison, innermost last.
struct Scopes<'a> {
    left: Vec<&'a str>,
    right: Vec<&'a str>,
}

impl<'a> Scopes<'a> {
    fn new() -> Scopes<'a> {
        Scopes {
            left: Vec::new(),
            right: Vec::new(),
        }
    }

    /// Compares `a` and `b` with the names of binder groups `ps` and `qs` in scope.
    fn under(&mut self, ps: &'a [Pat], qs: &'a [Pat], a: &'a Expr, b: &'a Expr) -> bool {
        let (mut l, mut r) = (Vec::new(), Vec::new());
        if !binders_match(ps, qs, &mut l, &mut r) {
            return false;
        }
        let (nl, nr) = (self.left.len(), self.right.len());
        self.left.extend(l);
        self.right.extend(r);
        let out = expr_eq(a, b, self);
        self.left.truncate(nl);
        self.right.truncate(nr);
        out
    }
}

/// The binder level of `name` in `scope` (its innermost binding), if it is bound.
fn level(scope: &[&str], name: &str) -> Option<usize> {
    scope.iter().rposition(|m| *m == name)
}

/// Do binder groups `ps` and `qs` have the same shapes and the same repeated names? Collects
/// the names each binds, left to right.
fn binders_match<'a>(
    ps: &'a [Pat],
    qs: &'a [Pat],
    l: &mut Vec<&'a str>,
    r: &mut Vec<&'a str>,
) -> bool {
    fn shape<'a>(p: &'a Pat, q: &'a Pat, l: &mut Vec<&'a str>, r: &mut Vec<&'a str>) -> bool {
        match (p, q) {
            (Pat::Name(a, _), Pat::Name(b, _)) => {
                l.push(a);
                r.push(b);
                true
            }
            (Pat::Tuple(xs, _), Pat::Tuple(ys, _)) => {
                xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| shape(x, y, l, r))
            }
            _ => false,
        }
    }
    if ps.len() != qs.len() || !ps.iter().zip(qs).all(|(p, q)| shape(p, q, l, r)) {
        return false;
    }
    (0..l.len()).all(|i| (0..i).all(|j| (l[i] == l[j]) == (r[i] == r[j])))
}

fn all_eq<'a>(xs: &'a [Expr], ys: &'a [Expr], s: &mut Scopes<'a>) -> bool {
    xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| expr_eq(x, y, s))
}

fn expr_eq<'a>(a: &'a Expr, b: &'a Expr, s: &mut Scopes<'a>) -> bool {
    kind_eq(&a.kind, &b.kind, s)
}

fn kind_eq<'a>(a: &'a ExprKind, b: &'a ExprKind, s: &mut Scopes<'a>) -> bool {
    use ExprKind as K;
    match (a, b) {
        (K::Ident(x), K::Ident(y)) => match (level(&s.left, x), level(&s.right, y)) {
            (Some(i), Some(j)) => i == j,
            (None, None) => x == y,
            _ => false,
        },
        (K::Lit(v, t), K::Lit(w, u)) => v == w && t == u,
        (K::Prim(p, xs), K::Prim(q, ys)) => {
            p == q && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| arg_eq(x, y, s))
        }
        (K::Section(x), K::Section(y)) => x == y,
        (K::Lambda(ps, x), K::Lambda(qs, y)) => s.under(ps, qs, x, y),
        (K::Compose(xs), K::Compose(ys)) | (K::Tuple(xs), K::Tuple(ys)) => all_eq(xs, ys, s),
        (K::Apply(f, xs), K::Apply(g, ys)) => expr_eq(f, g, s) && all_eq(xs, ys, s),
        (K::Proj(x, i), K::Proj(y, j)) => i == j && expr_eq(x, y, s),
        (K::Index(x, n), K::Index(y, m)) => n == m && expr_eq(x, y, s),
        (K::Binary(o, x1, x2), K::Binary(p, y1, y2)) => {
            o == p && expr_eq(x1, y1, s) && expr_eq(x2, y2, s)
        }
        (K::Unary(o, x), K::Unary(p, y)) => o == p && expr_eq(x, y, s),
        (K::If(c, x1, x2), K::If(d, y1, y2)) => {
            expr_eq(c, d, s) && expr_eq(x1, y1, s) && expr_eq(x2, y2, s)
        }
        (K::Cast(x, t), K::Cast(y, u)) => t == u && expr_eq(x, y, s),
        (K::Let(p, v, x), K::Let(q, w, y)) => {
            expr_eq(v, w, s) && s.under(std::slice::from_ref(p), std::slice::from_ref(q), x, y)
        }
        (K::Point(n, xs, x), K::Point(m, ys, y)) => n == m && xs == ys && expr_eq(x, y, s),
        _ => false,
    }
}

fn arg_eq<'a>(a: &'a PrimArg, b: &'a PrimArg, s: &mut Scopes<'a>) -> bool {
    match (a, b) {
        (PrimArg::Fun(x), PrimArg::Fun(y)) | (PrimArg::Value(x), PrimArg::Value(y)) => {
            expr_eq(x, y, s)
        }
        (PrimArg::Nat(n, _), PrimArg::Nat(m, _)) => n == m,
        (PrimArg::Boundary(x, _), PrimArg::Boundary(y, _)) => boundary_eq(x, y, s),
        (PrimArg::Reorder(x, _), PrimArg::Reorder(y, _)) => x == y,
        _ => false,
    }
}

fn boundary_eq<'a>(a: &'a Boundary, b: &'a Boundary, s: &mut Scopes<'a>) -> bool {
    match (a, b) {
        (Boundary::Constant(x), Boundary::Constant(y)) => expr_eq(x, y, s),
        (Boundary::Constant(_), _) | (_, Boundary::Constant(_)) => false,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

/// Feeds the shape of a pattern (not its names) to `h`, and pushes its names onto `scope`.
fn hash_pat<'a, H: Hasher>(p: &'a Pat, scope: &mut Vec<&'a str>, h: &mut H) {
    match p {
        Pat::Name(n, _) => {
            0u8.hash(h);
            scope.push(n);
        }
        Pat::Tuple(ps, _) => {
            1u8.hash(h);
            ps.len().hash(h);
            ps.iter().for_each(|q| hash_pat(q, scope, h));
        }
    }
}

fn hash_all<'a, H: Hasher>(xs: &'a [Expr], scope: &mut Vec<&'a str>, h: &mut H) {
    xs.len().hash(h);
    xs.iter().for_each(|x| hash_expr(x, scope, h));
}

fn hash_expr<'a, H: Hasher>(e: &'a Expr, scope: &mut Vec<&'a str>, h: &mut H) {
    hash_kind(&e.kind, scope, h);
}

fn hash_kind<'a, H: Hasher>(k: &'a ExprKind, scope: &mut Vec<&'a str>, h: &mut H) {
    use ExprKind as K;
    std::mem::discriminant(k).hash(h);
    match k {
        K::Ident(n) => match level(scope, n) {
            Some(i) => (0u8, i).hash(h),
            None => (1u8, n).hash(h),
        },
        K::Lit(v, t) => (v, t).hash(h),
        K::Prim(p, args) => {
            p.hash(h);
            args.len().hash(h);
            args.iter().for_each(|a| hash_arg(a, scope, h));
        }
        K::Section(x) => x.hash(h),
        K::Lambda(ps, body) => {
            let n = scope.len();
            ps.len().hash(h);
            ps.iter().for_each(|p| hash_pat(p, scope, h));
            hash_expr(body, scope, h);
            scope.truncate(n);
        }
        K::Compose(xs) | K::Tuple(xs) => hash_all(xs, scope, h),
        K::Apply(f, xs) => {
            hash_expr(f, scope, h);
            hash_all(xs, scope, h);
        }
        K::Proj(x, i) => {
            i.hash(h);
            hash_expr(x, scope, h);
        }
        K::Index(x, n) => {
            n.hash(h);
            hash_expr(x, scope, h);
        }
        K::Binary(o, x, y) => {
            o.hash(h);
            hash_expr(x, scope, h);
            hash_expr(y, scope, h);
        }
        K::Unary(o, x) => {
            o.hash(h);
            hash_expr(x, scope, h);
        }
        K::If(c, x, y) => {
            hash_expr(c, scope, h);
            hash_expr(x, scope, h);
            hash_expr(y, scope, h);
        }
        K::Cast(x, t) => {
            t.hash(h);
            hash_expr(x, scope, h);
        }
        K::Let(p, v, body) => {
            hash_expr(v, scope, h);
            let n = scope.len();
            hash_pat(p, scope, h);
            hash_expr(body, scope, h);
            scope.truncate(n);
        }
        K::Point(name, xs, x) => {
            (name, xs).hash(h);
            hash_expr(x, scope, h);
        }
    }
}

fn hash_arg<'a, H: Hasher>(a: &'a PrimArg, scope: &mut Vec<&'a str>, h: &mut H) {
    std::mem::discriminant(a).hash(h);
    match a {
        PrimArg::Fun(x) | PrimArg::Value(x) => hash_expr(x, scope, h),
        PrimArg::Nat(n, _) => n.hash(h),
        PrimArg::Boundary(b, _) => {
            std::mem::discriminant(b).hash(h);
            if let Boundary::Constant(x) = b {
                hash_expr(x, scope, h);
            }
        }
        PrimArg::Reorder(r, _) => r.hash(h),
    }
}

impl PartialEq for Expr {
    fn eq(&self, other: &Self) -> bool {
        expr_eq(self, other, &mut Scopes::new())
    }
}

impl Eq for Expr {}

impl Hash for Expr {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_expr(self, &mut Vec::new(), state);
    }
}

/// As [`Expr`]'s equality, which looks at nothing outside the kind.
impl PartialEq for ExprKind {
    fn eq(&self, other: &Self) -> bool {
        kind_eq(self, other, &mut Scopes::new())
    }
}

impl Eq for ExprKind {}

impl Hash for ExprKind {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_kind(self, &mut Vec::new(), state);
    }
}

impl PartialEq for PrimArg {
    fn eq(&self, other: &Self) -> bool {
        arg_eq(self, other, &mut Scopes::new())
    }
}

impl Eq for PrimArg {}

impl Hash for PrimArg {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_arg(self, &mut Vec::new(), state);
    }
}

impl PartialEq for Boundary {
    fn eq(&self, other: &Self) -> bool {
        boundary_eq(self, other, &mut Scopes::new())
    }
}

impl Eq for Boundary {}

impl Hash for Boundary {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        if let Boundary::Constant(x) = self {
            x.hash(state);
        }
    }
}

/// Index functions compare modulo spans.
impl PartialEq for Reorder {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Reorder::Reverse, Reorder::Reverse) => true,
            (Reorder::Stride(x, _), Reorder::Stride(y, _)) => x == y,
            _ => false,
        }
    }
}

impl Eq for Reorder {}

impl Hash for Reorder {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        if let Reorder::Stride(n, _) = self {
            n.hash(state);
        }
    }
}

/// Floats compare by their bits.
impl PartialEq for LitValue {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (LitValue::Int(a), LitValue::Int(b)) => a == b,
            (LitValue::Float(a), LitValue::Float(b)) => a.to_bits() == b.to_bits(),
            (LitValue::Bool(a), LitValue::Bool(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for LitValue {}

impl Hash for LitValue {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            LitValue::Int(i) => i.hash(state),
            LitValue::Float(x) => x.to_bits().hash(state),
            LitValue::Bool(b) => b.hash(state),
        }
    }
}

/// Patterns compare by their names and shape, modulo spans.
impl PartialEq for Pat {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Pat::Name(a, _), Pat::Name(b, _)) => a == b,
            (Pat::Tuple(xs, _), Pat::Tuple(ys, _)) => xs == ys,
            _ => false,
        }
    }
}

impl Eq for Pat {}

impl Hash for Pat {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Pat::Name(n, _) => n.hash(state),
            Pat::Tuple(ps, _) => ps.hash(state),
        }
    }
}

#[cfg(test)]
#[path = "eq_tests.rs"]
mod tests;
