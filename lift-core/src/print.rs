//! A pretty printer producing `lift!` source: parsing the output gives a tree that prints
//! identically. Parentheses are added only where precedence requires them.

use crate::ir::{
    BinOp, Boundary, Expr, ExprKind, FunBody, LitValue, Param, Pat, PrimArg, Program, Reorder,
    Section, UnOp,
};
use crate::prim::Inputs;
use std::fmt::Write;

/// Binding levels, loosest first (an expression printed where a tighter level is required
/// gets parentheses).
const APPLY: u8 = 0;
const COMPOSE: u8 = 1;
const CMP: u8 = 4;
const CAST: u8 = 7;
const UNARY: u8 = 8;
const POSTFIX: u8 = 9;
const PRIMARY: u8 = 10;

/// Prints an expression in `lift!` syntax.
pub fn expr(e: &Expr) -> String {
    let mut out = String::new();
    write_expr(&mut out, e, APPLY);
    out
}

/// Prints a whole program: user functions, then kernels, separated by blank lines.
pub fn program(p: &Program) -> String {
    let mut items = Vec::new();
    for f in &p.funs {
        let mut s = docs(&f.docs);
        let body = match &f.body {
            FunBody::Expr(e) => block(e),
            FunBody::OpenCl(text) => {
                s.push_str("#[opencl]\n");
                format!("{text:?}")
            }
        };
        let _ = write!(
            s,
            "fn {}({}) -> {} {{\n    {body}\n}}\n",
            f.name,
            params(&f.params),
            f.ret
        );
        items.push(s);
    }
    for k in &p.kernels {
        let mut s = docs(&k.docs);
        if k.public {
            s.push_str("pub ");
        }
        let _ = write!(s, "kernel {}", k.name);
        if !k.sizes.is_empty() {
            let names: Vec<&str> = k.sizes.iter().map(|(n, _)| n.as_str()).collect();
            let _ = write!(s, "<{}>", names.join(", "));
        }
        let _ = write!(
            s,
            "({}) -> {} {{\n    {}\n}}\n",
            params(&k.params),
            k.ret,
            expr(&k.body)
        );
        items.push(s);
    }
    items.join("\n")
}

fn docs(lines: &[String]) -> String {
    let mut s = String::new();
    for d in lines {
        if d.contains(['\n', '\r']) || d.starts_with('/') {
            let _ = writeln!(s, "#[doc = {d:?}]");
        } else {
            let _ = writeln!(s, "///{d}");
        }
    }
    s
}

fn params(ps: &[Param]) -> String {
    let v: Vec<String> = ps.iter().map(|p| format!("{}: {}", p.name, p.ty)).collect();
    v.join(", ")
}

/// The binding level of `e` as printed.
fn level(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Apply(f, xs) if is_dyn_index(f, xs) || call_syntax(f, xs) => POSTFIX,
        ExprKind::Apply(..) | ExprKind::Lambda(..) | ExprKind::If(..) | ExprKind::Let(..) => APPLY,
        ExprKind::Compose(_) => COMPOSE,
        ExprKind::Binary(op, ..) => binop_level(*op),
        ExprKind::Cast(..) => CAST,
        ExprKind::Unary(..) | ExprKind::Point(..) => UNARY,
        ExprKind::Proj(..) | ExprKind::Index(..) => POSTFIX,
        _ => PRIMARY,
    }
}

fn binop_level(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 2,
        BinOp::And => 3,
        BinOp::Add | BinOp::Sub => 5,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 6,
        _ => CMP,
    }
}

/// Is `f(xs)` printed as a call (rather than `f $ x`)?
/// `lift_index(x, e)`, printed `x[e]`.
fn is_dyn_index(f: &Expr, xs: &[Expr]) -> bool {
    xs.len() == 2 && matches!(&f.kind, ExprKind::Ident(n) if n == crate::ir::DYN_INDEX)
}

/// A primitive with no data inputs (`generate(n, f)`), written without an application.
fn is_data_prim(f: &Expr) -> bool {
    matches!(&f.kind, ExprKind::Prim(p, _) if matches!(p.def().inputs, Inputs::Exactly(0)))
}

fn call_syntax(f: &Expr, xs: &[Expr]) -> bool {
    xs.len() != 1 || matches!(f.kind, ExprKind::Ident(_))
}

/// Writes `e`, parenthesised if it binds looser than `min`.
fn write_expr(out: &mut String, e: &Expr, min: u8) {
    if level(e) < min {
        out.push('(');
        write_inner(out, e);
        out.push(')');
    } else {
        write_inner(out, e);
    }
}

/// Writes an argument of a call or primitive (operator sections stand alone there).
fn write_arg(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Section(Section::Add) => out.push('+'),
        ExprKind::Section(Section::Mul) => out.push('*'),
        _ => write_expr(out, e, APPLY),
    }
}

fn write_args(out: &mut String, xs: &[Expr]) {
    out.push('(');
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_arg(out, x);
    }
    out.push(')');
}

fn write_inner(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Ident(n) => out.push_str(n),
        ExprKind::Lit(v, t) => {
            match v {
                LitValue::Int(i) => {
                    let _ = write!(out, "{i}");
                }
                LitValue::Float(x) => {
                    let _ = write!(out, "{x:?}");
                }
                LitValue::Bool(b) => {
                    let _ = write!(out, "{b}");
                }
            }
            if let Some(t) = t {
                out.push_str(t.name());
            }
        }
        ExprKind::Prim(p, args) => {
            out.push_str(p.name());
            if !args.is_empty() {
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write_prim_arg(out, a);
                }
                out.push(')');
            }
        }
        ExprKind::Section(s) => out.push_str(match s {
            Section::Add => "(+)",
            Section::Mul => "(*)",
            Section::Min => "min",
            Section::Max => "max",
        }),
        ExprKind::Lambda(pats, body) => {
            out.push('|');
            for (i, p) in pats.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_pat(out, p);
            }
            out.push_str("| ");
            write_expr(out, body, APPLY);
        }
        ExprKind::Compose(fs) => {
            for (i, f) in fs.iter().enumerate() {
                if i > 0 {
                    out.push_str(" o ");
                }
                write_expr(out, f, COMPOSE + 1);
            }
        }
        ExprKind::Apply(f, xs) if is_dyn_index(f, xs) => {
            write_postfix_base(out, &xs[0]);
            out.push('[');
            write_inner(out, &xs[1]);
            out.push(']');
        }
        ExprKind::Apply(f, xs) if xs.is_empty() && is_data_prim(f) => write_inner(out, f),
        ExprKind::Apply(f, xs) if call_syntax(f, xs) => {
            if callee_needs_parens(f, xs.len()) {
                out.push('(');
                write_inner(out, f);
                out.push(')');
            } else {
                write_expr(out, f, POSTFIX);
            }
            write_args(out, xs);
        }
        ExprKind::Apply(f, xs) => {
            write_expr(out, f, COMPOSE);
            out.push_str(" $ ");
            for x in xs {
                write_expr(out, x, APPLY);
            }
        }
        ExprKind::Tuple(xs) => {
            write_args(out, xs);
            if xs.len() == 1 {
                out.insert(out.len() - 1, ',');
            }
        }
        ExprKind::Proj(t, i) => {
            write_postfix_base(out, t);
            let _ = write!(out, ".{i}");
        }
        ExprKind::Index(t, n) => {
            write_postfix_base(out, t);
            let _ = write!(out, "[{n}]");
        }
        ExprKind::Binary(op, a, b) => {
            let l = binop_level(*op);
            let (la, lb) = if op.is_comparison() {
                (l + 1, l + 1)
            } else {
                (l, l + 1)
            };
            write_operand(out, a, la, op.is_comparison());
            let _ = write!(out, " {} ", op.symbol());
            write_operand(out, b, lb, op.is_comparison());
        }
        ExprKind::Unary(op, x) => {
            out.push(match op {
                UnOp::Neg => '-',
                UnOp::Not => '!',
            });
            write_expr(out, x, UNARY);
        }
        ExprKind::If(c, a, b) => {
            out.push_str("if ");
            write_expr(out, c, COMPOSE + 1);
            let _ = write!(out, " {{ {} }} else ", block(a));
            if matches!(b.kind, ExprKind::If(..)) {
                write_inner(out, b);
            } else {
                let _ = write!(out, "{{ {} }}", block(b));
            }
        }
        ExprKind::Cast(x, t) => {
            write_expr(out, x, CAST);
            let _ = write!(out, " as {t}");
        }
        ExprKind::Let(..) => {
            let _ = write!(out, "{{ {} }}", block(e));
        }
        ExprKind::Point(name, args, x) => {
            let _ = write!(out, "#[{name}");
            if !args.is_empty() {
                let v: Vec<String> = args
                    .iter()
                    .map(|a| {
                        a.as_ref()
                            .map_or_else(|| "_".to_string(), |n| n.to_string())
                    })
                    .collect();
                let _ = write!(out, "({})", v.join(", "));
            }
            out.push_str("] ");
            write_expr(out, x, UNARY);
        }
    }
}

/// Must the callee of a call be parenthesised to stay a callee (and not take the arguments
/// as its own static arguments)?
fn callee_needs_parens(f: &Expr, n_args: usize) -> bool {
    match &f.kind {
        ExprKind::Prim(p, a) if a.is_empty() => {
            !matches!(p.def().inputs, Inputs::AtLeast(m) if n_args >= m)
                && !matches!(p.def().inputs, Inputs::Exactly(m) if m >= 2 && n_args == m)
        }
        ExprKind::Section(_) => true,
        _ => level(f) < POSTFIX,
    }
}

/// The base of `.i` or `[i]`; literals are parenthesised (`(1).0`, not `1.0`).
fn write_postfix_base(out: &mut String, t: &Expr) {
    if matches!(t.kind, ExprKind::Lit(..)) {
        out.push('(');
        write_inner(out, t);
        out.push(')');
    } else {
        write_expr(out, t, POSTFIX);
    }
}

/// An operand of a binary operator; casts beside comparisons are parenthesised, since Rust
/// reads `x as f32 < y` as the start of generic arguments.
fn write_operand(out: &mut String, x: &Expr, min: u8, comparison: bool) {
    let min = if comparison && matches!(x.kind, ExprKind::Cast(..)) {
        UNARY
    } else {
        min
    };
    write_expr(out, x, min);
}

/// The contents of a block: `let p = v; ... body`.
fn block(e: &Expr) -> String {
    let mut out = String::new();
    let mut cur = e;
    while let ExprKind::Let(p, v, body) = &cur.kind {
        out.push_str("let ");
        write_pat(&mut out, p);
        out.push_str(" = ");
        write_arg(&mut out, v);
        out.push_str("; ");
        cur = body;
    }
    write_arg(&mut out, cur);
    out
}

fn write_pat(out: &mut String, p: &Pat) {
    match p {
        Pat::Name(n, _) => out.push_str(n),
        Pat::Tuple(ps, _) => {
            out.push('(');
            for (i, q) in ps.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_pat(out, q);
            }
            if ps.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
    }
}

fn write_prim_arg(out: &mut String, a: &PrimArg) {
    match a {
        PrimArg::Fun(e) | PrimArg::Value(e) => write_arg(out, e),
        PrimArg::Nat(n, _) => {
            let _ = write!(out, "{n}");
        }
        PrimArg::Boundary(b, _) => match b {
            Boundary::Clamp => out.push_str("clamp"),
            Boundary::Mirror => out.push_str("mirror"),
            Boundary::Wrap => out.push_str("wrap"),
            Boundary::Constant(v) => {
                out.push_str("constant(");
                write_arg(out, v);
                out.push(')');
            }
        },
        PrimArg::Reorder(r, _) => match r {
            Reorder::Reverse => out.push_str("reverse"),
            Reorder::Stride(n, _) => {
                let _ = write!(out, "stride({n})");
            }
        },
    }
}
