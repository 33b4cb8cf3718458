//! Rules that spell a function one way: n-D maps and the short forms of n-D layout
//! primitives written out, tuple patterns as projections, eta reduction, operator sections.

use crate::ir::{Expr, ExprKind, Pat, PrimArg};
use crate::prim::Prim;
use crate::rewrite::build::{self, bind, ident, prim, with_fun};
use crate::rewrite::Rule;

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
