//! Names and binding: the names an expression uses, the ones it leaves free, substitution that
//! never captures, alpha-renaming of binders, and names fresh for a whole kernel.
//!
//! Users may call their parameters and lambda variables anything (`a`, `acc`, `l0`,
//! `lift_t0`); rules never assume that a name they bind is unused. A rule that introduces a
//! binder asks [`super::RewriteCtx::fresh`] for a name that occurs nowhere in the kernel,
//! and every substitution renames the binders it passes under when they would capture a free
//! name of what is substituted.

use crate::ir::{children, children_mut};
use crate::ir::{Expr, ExprKind, Kernel, Pat, Program};
use std::collections::HashSet;

/// Adds every name `e` uses to `out`: variables, function names and the names its patterns
/// bind.
pub(crate) fn collect(e: &Expr, out: &mut HashSet<String>) {
    match &e.kind {
        ExprKind::Ident(n) => {
            out.insert(n.clone());
        }
        ExprKind::Lambda(ps, _) => ps.iter().for_each(|p| collect_pat(p, out)),
        ExprKind::Let(p, _, _) => collect_pat(p, out),
        _ => {}
    }
    for c in children(e) {
        collect(c, out);
    }
}

fn collect_pat(p: &Pat, out: &mut HashSet<String>) {
    match p {
        Pat::Name(n, _) => {
            out.insert(n.clone());
        }
        Pat::Tuple(ps, _) => ps.iter().for_each(|q| collect_pat(q, out)),
    }
}

/// Every name `e` uses (see [`collect`]).
pub(crate) fn of(e: &Expr) -> HashSet<String> {
    let mut out = HashSet::new();
    collect(e, &mut out);
    out
}

/// Every name kernel `k` of `prog` uses: its parameters and size variables, the names in its body, and the
/// program's user functions with their parameters. A name fresh for this set captures
/// nothing wherever it is bound in the kernel.
pub fn of_kernel(prog: &Program, k: &Kernel) -> HashSet<String> {
    let mut out = of(&k.body);
    out.extend(k.params.iter().map(|p| p.name.clone()));
    // Size variables too: in the generated C they share the kernel's scope with its
    // parameters.
    out.extend(k.sizes.iter().map(|(s, _)| s.clone()));
    for f in &prog.funs {
        out.insert(f.name.clone());
        out.extend(f.params.iter().map(|p| p.name.clone()));
        if let crate::ir::FunBody::Expr(b) = &f.body {
            collect(b, &mut out);
        }
    }
    out
}

/// Does the name `name` occur anywhere in `e` (as a variable, a function or a pattern)?
pub(crate) fn mentions(e: &Expr, name: &str) -> bool {
    match &e.kind {
        ExprKind::Ident(n) if n == name => return true,
        ExprKind::Lambda(ps, _) if ps.iter().any(|p| binds(p, name)) => return true,
        ExprKind::Let(p, _, _) if binds(p, name) => return true,
        _ => {}
    }
    children(e).into_iter().any(|c| mentions(c, name))
}

/// `base`, or `base` followed by the first number that makes it occur in none of `avoid`:
/// a name for a placeholder or binder local to those expressions.
pub(crate) fn unused(base: &str, avoid: &[&Expr]) -> String {
    let taken = |n: &str| avoid.iter().any(|e| mentions(e, n));
    if !taken(base) {
        return base.to_string();
    }
    (1u32..)
        .map(|k| format!("{base}{k}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| base.to_string())
}

/// `base`, or `base_{k}` for the first `k` that is not in `taken`: the name of a new kernel
/// parameter or placeholder, fresh for a kernel whose names are `taken` ([`of_kernel`]).
pub(crate) fn fresh_for(base: &str, taken: &HashSet<String>) -> String {
    if !taken.contains(base) {
        return base.to_string();
    }
    (1u32..)
        .map(|k| format!("{base}_{k}"))
        .find(|n| !taken.contains(n))
        .unwrap_or_else(|| base.to_string())
}

pub(crate) use crate::ir::{binds, free, is_free, pat_names};

/// Replaces the free occurrences of the names of `by` in `e` by their expressions, all at
/// once (an expression put in is not searched again). A lambda or `let` that binds a name
/// free in an expression being put under it is renamed first, so nothing is captured.
/// Projections of tuples put in are folded (`(a, b).0` is `a`).
pub(crate) fn subst_all(e: &mut Expr, by: &[(&str, &Expr)]) {
    if by.is_empty() {
        return;
    }
    let fv: HashSet<String> = by.iter().flat_map(|(_, x)| free(x)).collect();
    go(e, by, &fv);
}

/// [`subst_all`] of one name.
pub(crate) fn subst(e: &mut Expr, name: &str, by: &Expr) {
    subst_all(e, &[(name, by)]);
}

fn go(e: &mut Expr, by: &[(&str, &Expr)], fv: &HashSet<String>) {
    if let ExprKind::Ident(n) = &e.kind {
        if let Some((_, x)) = by.iter().find(|(m, _)| m == n) {
            *e = (*x).clone();
        }
        return;
    }
    e.ty = None;
    match &mut e.kind {
        ExprKind::Lambda(ps, body) => {
            let inner = shadowed(ps.iter(), by);
            if !inner.is_empty() {
                unclash(ps.iter_mut(), body, &inner, fv);
                go(body, &inner, fv);
            }
        }
        ExprKind::Let(p, v, body) => {
            go(v, by, fv);
            let inner = shadowed(std::iter::once(&*p), by);
            if !inner.is_empty() {
                unclash(std::iter::once(p), body, &inner, fv);
                go(body, &inner, fv);
            }
        }
        _ => {
            for c in children_mut(e) {
                go(c, by, fv);
            }
        }
    }
    if let ExprKind::Proj(x, i) = &e.kind {
        if let ExprKind::Tuple(vs) = &x.kind {
            if let Some(v) = vs.get(*i) {
                *e = v.clone();
            }
        }
    }
}

/// The substitutions that go on under binders `ps` (those of names they do not bind).
fn shadowed<'a, 'b>(
    ps: impl Iterator<Item = &'b Pat> + Clone,
    by: &[(&'a str, &'a Expr)],
) -> Vec<(&'a str, &'a Expr)> {
    by.iter()
        .filter(|(n, _)| !ps.clone().any(|p| binds(p, n)))
        .copied()
        .collect()
}

/// Renames the names bound by `ps` over `body` that are free in what is put under them (`fv`)
/// and would meet a substituted occurrence: each gets a name used neither in `body` nor in
/// `fv`.
fn unclash<'p>(
    ps: impl Iterator<Item = &'p mut Pat>,
    body: &mut Expr,
    by: &[(&str, &Expr)],
    fv: &HashSet<String>,
) {
    if !by.iter().any(|(n, _)| is_free(body, n)) {
        return;
    }
    for p in ps {
        for old in pat_names(p) {
            if fv.contains(&old) {
                let new = (1u32..)
                    .map(|k| format!("{old}{k}"))
                    .find(|n| {
                        !fv.contains(n) && !mentions(body, n) && !by.iter().any(|(m, _)| m == n)
                    })
                    .unwrap_or_else(|| old.clone());
                rename_pat(p, &old, &new);
                let var = Expr::new(ExprKind::Ident(new), body.span);
                subst(body, &old, &var);
            }
        }
    }
}

/// Renames the binding of `old` in pattern `p` to `new`.
fn rename_pat(p: &mut Pat, old: &str, new: &str) {
    match p {
        Pat::Name(n, _) if n == old => *n = new.to_string(),
        Pat::Name(..) => {}
        Pat::Tuple(ps, _) => ps.iter_mut().for_each(|q| rename_pat(q, old, new)),
    }
}

/// Renames every binder of `e` (lambda parameters and `let` names) to the name `fresh` gives
/// for it; gives the pairs `(old, new)` in the order the binders were met. Tests use it to
/// check that nothing depends on what binders are called.
#[cfg(test)]
pub(crate) fn rename_binders(
    e: &mut Expr,
    fresh: &mut dyn FnMut(&str) -> String,
) -> Vec<(String, String)> {
    let mut renamed = Vec::new();
    rename_in(e, fresh, &mut renamed);
    renamed
}

#[cfg(test)]
fn rename_in(
    e: &mut Expr,
    fresh: &mut dyn FnMut(&str) -> String,
    renamed: &mut Vec<(String, String)>,
) {
    let bound = match &e.kind {
        ExprKind::Lambda(ps, _) => ps.iter().flat_map(pat_names).collect(),
        ExprKind::Let(p, _, _) => pat_names(p),
        _ => Vec::new(),
    };
    for old in bound {
        let new = fresh(&old);
        let var = Expr::new(ExprKind::Ident(new.clone()), e.span);
        match &mut e.kind {
            ExprKind::Lambda(ps, body) => {
                ps.iter_mut().for_each(|p| rename_pat(p, &old, &new));
                subst(body, &old, &var);
            }
            ExprKind::Let(p, _, body) => {
                rename_pat(p, &old, &new);
                subst(body, &old, &var);
            }
            _ => {}
        }
        renamed.push((old, new));
    }
    for c in children_mut(e) {
        rename_in(c, fresh, renamed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_expr_str;

    fn p(s: &str) -> Expr {
        parse_expr_str(s, &[]).unwrap()
    }

    fn show(e: &Expr) -> String {
        crate::print::expr(e)
    }

    #[test]
    fn substitution_renames_a_binder_that_would_capture() {
        // (|x| x + a)[a := x * 2.0] must not turn into |x| x + x * 2.0.
        let mut e = p("|x| x + a");
        subst(&mut e, "a", &p("x * 2.0"));
        assert_eq!(show(&e), "|x1| x1 + x * 2.0");
    }

    #[test]
    fn substitution_stops_at_a_binder_of_the_name() {
        let mut e = p("map(|a| a * 2.0) $ a");
        subst(&mut e, "a", &p("y"));
        assert_eq!(show(&e), "map(|a| a * 2.0) $ y");
    }

    #[test]
    fn substitution_respects_let_scope() {
        let mut e = p("f(|q| { let a = a + 1.0; a * q })");
        subst(&mut e, "a", &p("b"));
        assert_eq!(show(&e), "f(|q| { let a = b + 1.0; a * q })");
    }

    #[test]
    fn simultaneous_substitution_does_not_search_what_it_put_in() {
        let mut e = p("(s, t)");
        subst_all(&mut e, &[("s", &p("t")), ("t", &p("s"))]);
        assert_eq!(show(&e), "(t, s)");
    }

    #[test]
    fn renamed_binders_keep_the_meaning() {
        let mut e = p("map(|(e, a)| e + a * k) $ zip(x, map(|e| e) $ y)");
        let mut k = 0;
        let pairs = rename_binders(&mut e, &mut |b| {
            k += 1;
            format!("{b}_{k}")
        });
        assert_eq!(
            show(&e),
            "map(|(e_1, a_2)| e_1 + a_2 * k) $ zip(x, map(|e_3| e_3) $ y)"
        );
        assert_eq!(pairs.len(), 3);
    }

    #[test]
    fn names_free_and_mentioned() {
        let e = p("map(|x| { let t = x; t * k }) $ y");
        assert!(mentions(&e, "t") && mentions(&e, "x") && !mentions(&e, "z"));
        assert!(is_free(&e, "k") && is_free(&e, "y") && !is_free(&e, "x") && !is_free(&e, "t"));
        assert_eq!(unused("t", &[&e]), "t1");
        assert_eq!(unused("z", &[&e]), "z");
    }
}
