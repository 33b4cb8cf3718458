//! Renaming a whole program: its kernels' parameters and size variables, its lambda and `let`
//! variables, its user functions and their parameters. A renaming that is injective on the
//! program's names and gives no name the program already uses elsewhere (a built-in it calls)
//! yields the same program up to names; its results must not change, which the name tests
//! check on random programs (`tests/tests/names.rs`, `differential --rename`).

use super::walk::children_mut;
use crate::arith::Nat;
use crate::ir::{Expr, ExprKind, FunBody, Pat, PrimArg, Program, Reorder};
use crate::types::Type;
use std::collections::BTreeSet;

/// The names a program binds: every kernel's parameters, the names its patterns bind, the
/// user functions and their parameters, and (separately) the size variables. Names a program
/// only refers to (built-in functions such as `max`) are in neither set.
pub fn bound_names(prog: &Program) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut vars = BTreeSet::new();
    let mut sizes = BTreeSet::new();
    for k in &prog.kernels {
        vars.extend(k.params.iter().map(|p| p.name.clone()));
        sizes.extend(k.sizes.iter().map(|(s, _)| s.clone()));
        binders(&k.body, &mut vars);
    }
    for f in &prog.funs {
        vars.insert(f.name.clone());
        vars.extend(f.params.iter().map(|p| p.name.clone()));
        if let FunBody::Expr(b) = &f.body {
            binders(b, &mut vars);
        }
    }
    (vars, sizes)
}

fn binders(e: &Expr, out: &mut BTreeSet<String>) {
    match &e.kind {
        ExprKind::Lambda(ps, _) => out.extend(ps.iter().flat_map(super::names::pat_names)),
        ExprKind::Let(p, _, _) => out.extend(super::names::pat_names(p)),
        _ => {}
    }
    for c in super::walk::children(e) {
        binders(c, out);
    }
}

/// `prog` with every variable or function name `n` for which `var(n)` is `Some` and every
/// size variable `s` for which `size(s)` is `Some` renamed (kernel names are kept). Types are
/// dropped: check the result again.
pub fn rename_program(
    prog: &Program,
    var: &dyn Fn(&str) -> Option<String>,
    size: &dyn Fn(&str) -> Option<String>,
) -> Program {
    let r = Renamer { var, size };
    let mut out = prog.clone();
    for k in &mut out.kernels {
        for (s, _) in &mut k.sizes {
            *s = r.size_name(s);
        }
        for p in &mut k.params {
            p.name = r.var_name(&p.name);
            p.ty = r.ty(&p.ty);
        }
        k.ret = r.ty(&k.ret);
        r.expr(&mut k.body);
    }
    for f in &mut out.funs {
        f.name = r.var_name(&f.name);
        for p in &mut f.params {
            p.name = r.var_name(&p.name);
            p.ty = r.ty(&p.ty);
        }
        f.ret = r.ty(&f.ret);
        if let FunBody::Expr(b) = &mut f.body {
            r.expr(b);
        }
    }
    out
}

struct Renamer<'a> {
    var: &'a dyn Fn(&str) -> Option<String>,
    size: &'a dyn Fn(&str) -> Option<String>,
}

impl Renamer<'_> {
    fn var_name(&self, n: &str) -> String {
        (self.var)(n).unwrap_or_else(|| n.to_string())
    }

    fn size_name(&self, n: &str) -> String {
        (self.size)(n).unwrap_or_else(|| n.to_string())
    }

    fn nat(&self, n: &Nat) -> Nat {
        n.free_vars()
            .iter()
            .fold(n.clone(), |acc, v| match (self.size)(&v.name) {
                Some(new) if v.kind == crate::arith::VarKind::Size => {
                    acc.substitute(&v.name, &Nat::size_var(&new))
                }
                _ => acc,
            })
    }

    fn ty(&self, t: &Type) -> Type {
        match t {
            Type::Array(e, n) => Type::Array(Box::new(self.ty(e)), self.nat(n)),
            Type::Capped(e, n) => Type::Capped(Box::new(self.ty(e)), self.nat(n)),
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| self.ty(t)).collect()),
            t => t.clone(),
        }
    }

    fn pat(&self, p: &mut Pat) {
        match p {
            Pat::Name(n, _) => *n = self.var_name(n),
            Pat::Tuple(ps, _) => ps.iter_mut().for_each(|q| self.pat(q)),
        }
    }

    fn expr(&self, e: &mut Expr) {
        e.ty = None;
        match &mut e.kind {
            ExprKind::Ident(n) => *n = self.var_name(n),
            ExprKind::Lambda(ps, _) => ps.iter_mut().for_each(|p| self.pat(p)),
            ExprKind::Let(p, _, _) => self.pat(p),
            ExprKind::Index(_, n) => *n = self.nat(n),
            ExprKind::Point(_, args, _) => {
                for n in args.iter_mut().flatten() {
                    *n = self.nat(n);
                }
            }
            ExprKind::Prim(_, args) => {
                for a in args.iter_mut() {
                    match a {
                        PrimArg::Nat(n, _) => *n = self.nat(n),
                        PrimArg::Reorder(Reorder::Stride(n, _), _) => *n = self.nat(n),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        for c in children_mut(e) {
            self.expr(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program_str;

    #[test]
    fn renames_every_kind_of_name() {
        let src = "fn f(a: f32) -> f32 { a * 2.0 }\n\
                   kernel K<N>(x: [f32; N], s: f32) -> [f32; N / 2] { \
                   map(|v| f(v) + max(s, v)) o map(|p| p[0] + p[1]) o split(2) o take(N / 2 * 2) $ x }";
        let prog = parse_program_str(src).unwrap();
        let (vars, sizes) = bound_names(&prog);
        assert_eq!(
            vars.iter().collect::<Vec<_>>(),
            ["a", "f", "p", "s", "v", "x"]
        );
        assert_eq!(sizes.iter().collect::<Vec<_>>(), ["N"]);
        let renamed = rename_program(
            &prog,
            &|n| vars.contains(n).then(|| format!("{n}_r")),
            &|s| (s == "N").then(|| "l0".to_string()),
        );
        let text = crate::print::program(&renamed);
        let mut again = parse_program_str(&text).unwrap();
        crate::typeck::check_program(&mut again).unwrap();
        assert!(
            text.contains("kernel K<l0>(x_r: [f32; l0], s_r: f32) -> [f32; l0 / 2]"),
            "{text}"
        );
        assert!(text.contains("fn f_r(a_r: f32) -> f32"), "{text}");
        assert!(text.contains("max(s_r, v_r)"), "{text}");
    }
}
