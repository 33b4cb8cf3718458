//! User-function bodies: the supported Rust subset of a `syn` block, as [`Expr`].

use super::{join, literal};
use crate::error::{CResult, CompileError, ErrorKind};
use crate::ir::{BinOp, Expr, ExprKind, Pat, UnOp};
use crate::types::ScalarType;
use proc_macro2::Span;
use syn::spanned::Spanned;

/// Translates the body of user function `fun`.
pub(crate) fn translate(block: &syn::Block, fun: &str) -> CResult<Expr> {
    Tr { fun }.block(block)
}

struct Tr<'a> {
    fun: &'a str,
}

impl Tr<'_> {
    fn unsupported(&self, span: Span, what: &str) -> CompileError {
        CompileError::new(
            ErrorKind::Unsupported,
            span,
            format!(
                "user function `{}`: unsupported construct: {what}",
                self.fun
            ),
        )
    }

    /// `{ let p = e; ...; value }`.
    fn block(&self, b: &syn::Block) -> CResult<Expr> {
        let span = b.brace_token.span.join();
        let Some((last, init)) = b.stmts.split_last() else {
            return Err(self.unsupported(span, "empty block"));
        };
        let mut lets = Vec::new();
        for s in init {
            match s {
                syn::Stmt::Local(l) => lets.push(self.local(l)?),
                syn::Stmt::Expr(e, _) => {
                    // Report the construct itself when it is unsupported anyway.
                    self.expr(e)?;
                    return Err(self.unsupported(s.span(), "statement"));
                }
                syn::Stmt::Item(i) => return Err(self.unsupported(i.span(), "item")),
                syn::Stmt::Macro(m) => return Err(self.unsupported(m.span(), "macro")),
            }
        }
        let mut body = match last {
            syn::Stmt::Expr(e, None) => self.expr(e)?,
            syn::Stmt::Expr(e, Some(_)) => {
                self.expr(e)?;
                return Err(self.unsupported(last.span(), "block without a final value"));
            }
            syn::Stmt::Local(l) => {
                return Err(self.unsupported(l.span(), "block without a final value"))
            }
            syn::Stmt::Item(i) => return Err(self.unsupported(i.span(), "item")),
            syn::Stmt::Macro(m) => return Err(self.unsupported(m.span(), "macro")),
        };
        for (span, pat, value) in lets.into_iter().rev() {
            let span = join(span, body.span);
            body = Expr::new(ExprKind::Let(pat, Box::new(value), Box::new(body)), span);
        }
        Ok(body)
    }

    fn local(&self, l: &syn::Local) -> CResult<(Span, Pat, Expr)> {
        let Some(init) = &l.init else {
            return Err(self.unsupported(l.span(), "`let` without a value"));
        };
        if let Some((_, d)) = &init.diverge {
            return Err(self.unsupported(d.span(), "`let ... else`"));
        }
        Ok((l.let_token.span, self.pat(&l.pat)?, self.expr(&init.expr)?))
    }

    fn pat(&self, p: &syn::Pat) -> CResult<Pat> {
        match p {
            syn::Pat::Ident(i)
                if i.by_ref.is_none() && i.mutability.is_none() && i.subpat.is_none() =>
            {
                Ok(Pat::Name(i.ident.to_string(), i.ident.span()))
            }
            syn::Pat::Ident(i) => Err(self.unsupported(i.span(), "mutable or reference binding")),
            syn::Pat::Wild(w) => Ok(Pat::Name("_".into(), w.span())),
            syn::Pat::Tuple(t) => {
                let pats = t
                    .elems
                    .iter()
                    .map(|p| self.pat(p))
                    .collect::<CResult<Vec<_>>>()?;
                if pats.is_empty() {
                    return Err(self.unsupported(t.span(), "empty pattern"));
                }
                Ok(Pat::Tuple(pats, t.span()))
            }
            syn::Pat::Paren(p) => self.pat(&p.pat),
            syn::Pat::Type(t) => Err(self.unsupported(t.span(), "type annotation on `let`")),
            other => Err(self.unsupported(other.span(), "pattern")),
        }
    }

    fn exprs<'e>(&self, es: impl IntoIterator<Item = &'e syn::Expr>) -> CResult<Vec<Expr>> {
        es.into_iter().map(|e| self.expr(e)).collect()
    }

    fn expr(&self, e: &syn::Expr) -> CResult<Expr> {
        use syn::Expr as E;
        let span = e.span();
        let kind = match e {
            E::Lit(l) => match (literal(&l.lit), &l.lit) {
                (Ok((v, t)), _) => ExprKind::Lit(v, t),
                (Err((s, m)), syn::Lit::Int(_) | syn::Lit::Float(_)) => {
                    let msg = format!("user function `{}`: {m}", self.fun);
                    return Err(CompileError::new(ErrorKind::Syntax, s, msg));
                }
                (Err((s, _)), _) => return Err(self.unsupported(s, "string or character literal")),
            },
            E::Binary(b) => {
                let Some(op) = binop(&b.op) else {
                    let what = if is_compound_assign(&b.op) {
                        "compound assignment"
                    } else {
                        "bitwise operator"
                    };
                    return Err(self.unsupported(b.op.span(), what));
                };
                ExprKind::Binary(
                    op,
                    Box::new(self.expr(&b.left)?),
                    Box::new(self.expr(&b.right)?),
                )
            }
            E::Unary(u) => {
                let op = match u.op {
                    syn::UnOp::Neg(_) => UnOp::Neg,
                    syn::UnOp::Not(_) => UnOp::Not,
                    _ => return Err(self.unsupported(span, "dereference")),
                };
                ExprKind::Unary(op, Box::new(self.expr(&u.expr)?))
            }
            E::If(i) => {
                let Some((_, other)) = &i.else_branch else {
                    return Err(self.unsupported(span, "`if` without `else`"));
                };
                let c = self.expr(&i.cond)?;
                let a = self.block(&i.then_branch)?;
                ExprKind::If(Box::new(c), Box::new(a), Box::new(self.expr(other)?))
            }
            E::Block(b) if b.label.is_none() => return self.block(&b.block),
            E::Cast(c) => {
                let t = match &*c.ty {
                    syn::Type::Path(p) if p.qself.is_none() => p
                        .path
                        .get_ident()
                        .and_then(|i| ScalarType::from_name(&i.to_string())),
                    _ => None,
                };
                let Some(t) = t else {
                    return Err(self.unsupported(c.ty.span(), "cast to a non-scalar type"));
                };
                ExprKind::Cast(Box::new(self.expr(&c.expr)?), t)
            }
            E::Tuple(t) if t.elems.is_empty() => return Err(self.unsupported(span, "unit value")),
            E::Tuple(t) => ExprKind::Tuple(self.exprs(&t.elems)?),
            E::Field(f) => match &f.member {
                syn::Member::Unnamed(i) => {
                    ExprKind::Proj(Box::new(self.expr(&f.base)?), i.index as usize)
                }
                syn::Member::Named(_) => return Err(self.unsupported(span, "named field")),
            },
            E::Paren(p) => {
                let mut inner = self.expr(&p.expr)?;
                inner.span = span;
                return Ok(inner);
            }
            E::Group(g) => return self.expr(&g.expr),
            E::Path(p) => ExprKind::Ident(self.path_ident(p)?),
            E::Call(c) => {
                let E::Path(p) = &*c.func else {
                    return Err(
                        self.unsupported(c.func.span(), "call of a non-function expression")
                    );
                };
                let f = Expr::new(ExprKind::Ident(self.path_ident(p)?), p.span());
                ExprKind::Apply(Box::new(f), self.exprs(&c.args)?)
            }
            other => return Err(self.unsupported(span, construct_name(other))),
        };
        Ok(Expr::new(kind, span))
    }

    /// A path that is one plain identifier.
    fn path_ident(&self, p: &syn::ExprPath) -> CResult<String> {
        match p.path.get_ident() {
            Some(i) if p.qself.is_none() => Ok(i.to_string()),
            _ => Err(self.unsupported(p.span(), "path")),
        }
    }
}

fn binop(op: &syn::BinOp) -> Option<BinOp> {
    use syn::BinOp as B;
    Some(match op {
        B::Add(_) => BinOp::Add,
        B::Sub(_) => BinOp::Sub,
        B::Mul(_) => BinOp::Mul,
        B::Div(_) => BinOp::Div,
        B::Rem(_) => BinOp::Rem,
        B::Lt(_) => BinOp::Lt,
        B::Le(_) => BinOp::Le,
        B::Gt(_) => BinOp::Gt,
        B::Ge(_) => BinOp::Ge,
        B::Eq(_) => BinOp::Eq,
        B::Ne(_) => BinOp::Ne,
        B::And(_) => BinOp::And,
        B::Or(_) => BinOp::Or,
        _ => return None,
    })
}

fn is_compound_assign(op: &syn::BinOp) -> bool {
    use syn::BinOp as B;
    matches!(
        op,
        B::AddAssign(_)
            | B::SubAssign(_)
            | B::MulAssign(_)
            | B::DivAssign(_)
            | B::RemAssign(_)
            | B::BitXorAssign(_)
            | B::BitAndAssign(_)
            | B::BitOrAssign(_)
            | B::ShlAssign(_)
            | B::ShrAssign(_)
    )
}

/// A human name for an unsupported expression.
fn construct_name(e: &syn::Expr) -> &'static str {
    use syn::Expr as E;
    match e {
        E::MethodCall(_) => "method call",
        E::Macro(_) => "macro",
        E::Closure(_) => "closure",
        E::ForLoop(_) | E::While(_) | E::Loop(_) => "loop",
        E::Return(_) => "return",
        E::Reference(_) | E::RawAddr(_) => "reference",
        E::Array(_) | E::Repeat(_) => "array",
        E::Assign(_) => "assignment",
        E::Index(_) => "indexing",
        E::Range(_) => "range",
        E::Break(_) | E::Continue(_) => "break or continue",
        E::Match(_) => "match",
        E::Struct(_) => "struct literal",
        E::Unsafe(_) => "unsafe block",
        E::Block(_) => "labeled block",
        E::Async(_) | E::Await(_) => "async",
        E::Try(_) | E::TryBlock(_) => "`?`",
        E::Let(_) => "`let` in a condition",
        _ => "expression",
    }
}
