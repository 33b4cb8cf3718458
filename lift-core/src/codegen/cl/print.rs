//! Printing the syntax tree as OpenCL C: the last step of code generation.

use super::ast::{
    BinOp, CExpr, CScalar, CType, FunBody, Function, Index, KernelDef, Param, Stmt, Unit,
};
use crate::arith::Facts;
use crate::codegen::memory::Space;
use crate::codegen::{INDEX_PRELUDE, SIZE_MACRO};
use std::fmt::{self, Display, Formatter, Write};

impl Display for CScalar {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CScalar::Float => "float",
            CScalar::Double => "double",
            CScalar::Int => "int",
            CScalar::Uint => "uint",
            CScalar::Long => "long",
            CScalar::Ulong => "ulong",
            CScalar::Bool => "bool",
            CScalar::Half => "half",
            CScalar::Uchar => "uchar",
            CScalar::Idx => "lift_idx",
        })
    }
}

/// A type as C spells it; a tuple struct is named after its fields, `Tuple_float_int`.
impl Display for CType {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            CType::Scalar(s) => write!(f, "{s}"),
            CType::Vector(s, w) => write!(f, "{s}{w}"),
            CType::Struct(fields) => {
                f.write_str("Tuple_")?;
                for (i, t) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str("_")?;
                    }
                    write!(f, "{t}")?;
                }
                Ok(())
            }
            CType::Pointer { space, konst, elem } => {
                if *konst {
                    f.write_str("const ")?;
                }
                match space {
                    Space::Private => write!(f, "{elem}*"),
                    sp => write!(f, "{} {elem}*", sp.qualifier()),
                }
            }
        }
    }
}

/// The source of a translation unit.
pub(crate) fn unit(u: &Unit) -> String {
    let mut out = String::new();
    if u.fp64 {
        out.push_str("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\n");
    }
    out.push_str(INDEX_PRELUDE);
    for s in &u.structs {
        out.push_str("typedef struct { ");
        for (i, f) in s.fields.iter().enumerate() {
            let _ = write!(out, "{f} _{i}; ");
        }
        let _ = writeln!(out, "}} {};", CType::Struct(s.fields.clone()));
    }
    functions(&u.functions, &mut out);
    if u.trace_helper {
        out.push_str(crate::codegen::trace::HELPER);
    }
    for k in &u.kernels {
        kernel(k, &mut out);
    }
    out
}

/// Prototypes first (functions may call each other in any order), then definitions.
fn functions(fs: &[Function], out: &mut String) {
    if fs.is_empty() {
        return;
    }
    let head = |f: &Function| format!("{} {}({})", f.ret, f.name, params(&f.params));
    for f in fs {
        let _ = writeln!(out, "{};", head(f));
    }
    out.push('\n');
    for f in fs {
        let body = match &f.body {
            FunBody::Verbatim(text) => text.trim().to_string(),
            FunBody::Stmts(b) => {
                let mut s = String::new();
                stmts(b, 1, &mut s);
                s.trim().to_string()
            }
        };
        let _ = write!(out, "{} {{\n  {body}\n}}\n\n", head(f));
    }
}

fn params(ps: &[Param]) -> String {
    let p: Vec<String> = ps.iter().map(param).collect();
    p.join(", ")
}

fn param(p: &Param) -> String {
    let konst = if p.konst { "const " } else { "" };
    match p.space {
        None => format!("{konst}{} {}", p.ty, p.name),
        Some(sp) => {
            let restrict = if p.restrict { " restrict" } else { "" };
            format!("{konst}{} {}*{restrict} {}", sp.qualifier(), p.ty, p.name)
        }
    }
}

fn kernel(k: &KernelDef, out: &mut String) {
    if let Some(l) = &k.local_size {
        let mut l: Vec<String> = l.iter().map(|n| n.c().to_string()).collect();
        l.resize(3, "1".into());
        let _ = writeln!(
            out,
            "__attribute__((reqd_work_group_size({})))",
            l.join(", ")
        );
    }
    let _ = writeln!(out, "kernel void {}({}) {{", k.name, params(&k.params));
    for s in &k.sizes {
        let _ = write!(
            out,
            "#ifdef {SIZE_MACRO}{s}\n  const {idx} {s} = {SIZE_MACRO}{s};\n#else\n  const {idx} {s} = lift_size_{s};\n#endif\n",
            idx = CScalar::Idx
        );
    }
    let align = if k.align_locals {
        " __attribute__((aligned(16)))"
    } else {
        ""
    };
    for a in &k.locals {
        let _ = writeln!(out, "  local {} {}[{}]{align};", a.ty, a.name, a.len);
    }
    stmts(&k.body, 1, out);
    out.push_str("}\n");
}

/// The statements of `body` at nesting depth `depth`.
pub(crate) fn stmts(body: &[Stmt], depth: usize, out: &mut String) {
    for s in body {
        stmt(s, depth, out);
    }
}

fn line(depth: usize, text: &str, out: &mut String) {
    for _ in 0..depth {
        out.push_str("  ");
    }
    out.push_str(text);
    out.push('\n');
}

fn stmt(s: &Stmt, depth: usize, out: &mut String) {
    let braced = |head: &str, body: &[Stmt], out: &mut String| {
        line(depth, &format!("{head}{{"), out);
        stmts(body, depth + 1, out);
        line(depth, "}", out);
    };
    match s {
        Stmt::Block(b) => braced("", b, out),
        Stmt::If {
            cond,
            then,
            otherwise,
        } => {
            braced(&format!("if ({}) ", expr(cond)), then, out);
            if let Some(o) = otherwise {
                braced("else ", o, out);
            }
        }
        Stmt::For {
            var,
            from,
            bound,
            step,
            unroll,
            body,
        } => {
            if *unroll {
                line(depth, "#pragma unroll", out);
            }
            let head = format!(
                "for ({} {var} = {}; {var} < {}; {var} += {}) ",
                CScalar::Idx,
                expr(from),
                expr(bound),
                expr(step)
            );
            braced(&head, body, out);
        }
        Stmt::Mark(_) => {}
        s => line(depth, &simple(s), out),
    }
}

/// A statement that fits on one line.
fn simple(s: &Stmt) -> String {
    match s {
        Stmt::Decl {
            ty,
            name,
            init,
            konst,
        } => {
            let konst = if *konst { "const " } else { "" };
            match init {
                Some(e) => format!("{konst}{ty} {name} = {};", expr(e)),
                None => format!("{konst}{ty} {name};"),
            }
        }
        Stmt::Array {
            space,
            ty,
            name,
            len,
        } => match space {
            Space::Private => format!("{ty} {name}[{len}];"),
            sp => format!("{} {ty} {name}[{len}];", sp.qualifier()),
        },
        Stmt::Assign { place, value } => format!("{} = {};", expr(place), expr(value)),
        Stmt::AddAssign { place, value } => format!("{} += {};", expr(place), expr(value)),
        Stmt::Expr(e) => format!("{};", expr(e)),
        Stmt::When { cond, stmt } => format!("if ({}) {}", expr(cond), simple(stmt)),
        Stmt::Break => "break;".into(),
        Stmt::Return(e) => format!("return {};", expr(e)),
        Stmt::Barrier(f) => {
            let fence = match (f.local, f.global) {
                (true, true) => "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE",
                (false, true) => "CLK_GLOBAL_MEM_FENCE",
                _ => "CLK_LOCAL_MEM_FENCE",
            };
            format!("barrier({fence});")
        }
        // Compound statements on one line (only under `When`).
        s => {
            let mut out = String::new();
            stmt(s, 0, &mut out);
            out.trim_end().to_string()
        }
    }
}

/// An expression.
pub(crate) fn expr(e: &CExpr) -> String {
    match e {
        CExpr::Var(v) | CExpr::Lit(v) => v.clone(),
        CExpr::Int(i) => i.to_string(),
        CExpr::Nat(n) => n.c().to_string(),
        CExpr::Local(at) => at.flat(&Facts::default()).c().to_string(),
        CExpr::Call(f, args) => format!("{f}({})", list(args)),
        CExpr::Index(b, i) => format!("{}[{}]", operand(b, ATOM), expr(i)),
        CExpr::Member(b, m) => format!("{}.{m}", operand(b, ATOM)),
        CExpr::Bin(op, a, b) => {
            let p = op.precedence();
            // A sum of index arithmetic on the right of `+` of index arithmetic reads the
            // same without parentheses (integers; never the scalar subset's numbers, whose
            // sums do not reassociate).
            let right = if *op == BinOp::Add && is_index(a) && is_index(b) {
                p
            } else {
                p + 1
            };
            format!("{} {} {}", operand(a, p), op.symbol(), operand(b, right))
        }
        CExpr::Offset(p, i) => format!("{} + {}", operand(p, ADD), index(i)),
        CExpr::Not(a) => format!("!({})", expr(a)),
        // An operand that is not an atom is parenthesised: `-(-1)` is not `--1`.
        CExpr::Neg(a) => format!("-{}", operand(a, ATOM)),
        CExpr::Cast(t, a) => format!("({t}){}", operand(a, ATOM)),
        CExpr::Convert(t, a) => format!("convert_{t}({})", expr(a)),
        // A condition that is not an atom is parenthesised, for the reader.
        CExpr::Cond(c, a, b) => format!(
            "{} ? {} : {}",
            operand(c, ATOM),
            operand(a, COND + 1),
            operand(b, COND + 1)
        ),
        CExpr::Vector(t, parts) => format!("({t})({})", list(parts)),
        CExpr::Struct(t, parts) => format!("({t}){{{}}}", list(parts)),
    }
}

/// An index. Local element indices are lowered with the kernel's divisibility facts before
/// printing ([`super::locals::lower`]); one printed as it is (here and in [`expr`]) flattens
/// without facts.
fn index(i: &Index) -> String {
    i.flat(&Facts::default()).c().to_string()
}

/// Comma-separated expressions (arguments, components).
fn list(es: &[CExpr]) -> String {
    let parts: Vec<String> = es.iter().map(expr).collect();
    parts.join(", ")
}

/// Whether `e` is index arithmetic: sizes, indices and integer constants combined by `+`,
/// `-`, `*`, `/`, `%`.
fn is_index(e: &CExpr) -> bool {
    match e {
        CExpr::Nat(_) | CExpr::Local(_) | CExpr::Int(_) => true,
        CExpr::Bin(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem, a, b) => {
            is_index(a) && is_index(b)
        }
        _ => false,
    }
}

/// The precedence of expressions that never need parentheses.
const ATOM: u8 = u8::MAX;

/// The precedence of `+` and `-`.
const ADD: u8 = BinOp::Add.precedence();

/// The precedence of unary operators, casts and literals of vectors and structs.
const UNARY: u8 = BinOp::Mul.precedence() + 1;

/// The precedence of `c ? a : b`.
const COND: u8 = 0;

/// The precedence of an expression as C parses it (higher binds tighter). Index arithmetic
/// is a sum at worst; a negative number is a unary minus.
fn precedence(e: &CExpr) -> u8 {
    match e {
        CExpr::Var(_)
        | CExpr::Call(..)
        | CExpr::Convert(..)
        | CExpr::Index(..)
        | CExpr::Member(..) => ATOM,
        CExpr::Int(i) if *i >= 0 => ATOM,
        CExpr::Lit(t) if !t.starts_with('-') => ATOM,
        CExpr::Int(_) | CExpr::Lit(_) => UNARY,
        CExpr::Nat(n) if n.as_cst().is_some_and(|c| c >= 0) => ATOM,
        CExpr::Nat(_) | CExpr::Local(_) | CExpr::Offset(..) => ADD,
        CExpr::Bin(op, ..) => op.precedence(),
        CExpr::Not(_) | CExpr::Neg(_) | CExpr::Cast(..) | CExpr::Vector(..) | CExpr::Struct(..) => {
            UNARY
        }
        CExpr::Cond(..) => COND,
    }
}
/// An operand that needs no parentheses at precedence `at` or above.
fn operand(e: &CExpr, at: u8) -> String {
    if precedence(e) >= at {
        expr(e)
    } else {
        format!("({})", expr(e))
    }
}
