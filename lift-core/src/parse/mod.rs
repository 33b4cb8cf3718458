//! The parser: `lift!` tokens (or a string) to the [`ir`](crate::ir) syntax tree.
//!
//! One grammar serves the proc macro ([`parse_program`]), strings ([`parse_program_str`]) and
//! single kernel bodies ([`parse_expr_str`]). It is written with `syn`'s parsing machinery;
//! errors that need a kind other than [`ErrorKind::Syntax`] (unknown names, wrong arity,
//! unsupported constructs) are recorded in a `State` on their way out as `syn::Error`s and
//! recovered at the top.
//!
//! * `items`: user functions and kernels;
//! * `types`: types and size expressions;
//! * `expr`: kernel body expressions;
//! * `args`: static arguments of primitives;
//! * `userfun`: the Rust subset of user-function bodies.

mod args;
mod expr;
mod items;
#[cfg(test)]
mod tests;
mod types;
mod userfun;

use crate::error::{CResult, CompileError, ErrorKind};
use crate::ir::{pat_names, Expr, ExprKind, LitValue, Program, Section};
use crate::types::ScalarType;
use proc_macro2::{Group, Span, TokenStream, TokenTree};
use std::cell::{Cell, RefCell};
use std::str::FromStr;
use syn::parse::{ParseStream, Parser};

/// Parses the body of a `lift! { ... }` block.
pub fn parse_program(tokens: TokenStream) -> CResult<Program> {
    let st = State::default();
    let mut prog = (|input: ParseStream| items::parse_items(input, &st))
        .parse2(tokens)
        .map_err(|e| st.resolve(e))?;
    let funs: Vec<String> = prog.funs.iter().map(|f| f.name.clone()).collect();
    for k in &mut prog.kernels {
        let mut bound: Vec<String> = funs.clone();
        bound.extend(k.params.iter().map(|p| p.name.clone()));
        resolve_sections(&mut k.body, &mut bound);
    }
    Ok(prog)
}

/// `min` and `max` written without arguments (`reduce(max, z)`) are the operator sections,
/// unless a variable or user function of that name is in scope there (`bound`): the
/// expression parser leaves every name a name, and this decides by scope.
fn resolve_sections(e: &mut Expr, bound: &mut Vec<String>) {
    let depth = bound.len();
    match &mut e.kind {
        ExprKind::Ident(n) if !bound.contains(n) => {
            match n.as_str() {
                "min" => e.kind = ExprKind::Section(Section::Min),
                "max" => e.kind = ExprKind::Section(Section::Max),
                _ => {}
            }
            return;
        }
        // A call by name (`min(a, b)`) stays a call.
        ExprKind::Apply(f, xs) if matches!(f.kind, ExprKind::Ident(_)) => {
            for x in xs {
                resolve_sections(x, bound);
            }
            return;
        }
        ExprKind::Lambda(ps, body) => {
            bound.extend(ps.iter().flat_map(pat_names));
            resolve_sections(body, bound);
        }
        ExprKind::Let(p, v, body) => {
            resolve_sections(v, bound);
            bound.extend(pat_names(p));
            resolve_sections(body, bound);
        }
        _ => {
            for c in crate::ir::children_mut(e) {
                resolve_sections(c, bound);
            }
        }
    }
    bound.truncate(depth);
}

/// Parses the body of a `lift!` block given as a string (`∘` may stand for `o`).
pub fn parse_program_str(src: &str) -> CResult<Program> {
    parse_program(lex(src, None)?)
}

/// Parses one kernel body expression over the size variables `sizes`.
pub fn parse_expr_str(src: &str, sizes: &[&str]) -> CResult<Expr> {
    let sizes: Vec<String> = sizes.iter().map(|s| s.to_string()).collect();
    let st = State::default();
    let tokens = lex(src, None)?;
    let sc = Scope {
        sizes: &sizes,
        st: &st,
    };
    let mut e = (|input: ParseStream| expr::parse_expr(input, sc))
        .parse2(tokens)
        .map_err(|e| st.resolve(e))?;
    resolve_sections(&mut e, &mut Vec::new());
    Ok(e)
}

/// Tokenizes `src` after replacing `∘` by ` o `; with `span`, every token gets that span.
pub(crate) fn lex(src: &str, span: Option<Span>) -> CResult<TokenStream> {
    let text = src.replace('∘', " o ");
    match TokenStream::from_str(&text) {
        Ok(ts) => Ok(match span {
            Some(s) => respan(ts, s),
            None => ts,
        }),
        Err(e) => Err(CompileError::new(
            ErrorKind::Syntax,
            span.unwrap_or_else(|| e.span()),
            format!("cannot tokenize: {e}"),
        )),
    }
}

/// Gives every token of `ts`, recursively into groups, the span `span`.
fn respan(ts: TokenStream, span: Span) -> TokenStream {
    ts.into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => {
                let mut ng = Group::new(g.delimiter(), respan(g.stream(), span));
                ng.set_span(span);
                TokenTree::Group(ng)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

/// The span from `a` to `b`, or `a` where spans cannot be joined.
pub(crate) fn join(a: Span, b: Span) -> Span {
    a.join(b).unwrap_or(a)
}

/// Parser state shared by one parse: typed errors and the nesting depth.
#[derive(Default)]
pub(crate) struct State {
    errors: RefCell<Vec<CompileError>>,
    depth: Cell<usize>,
}

/// The deepest expression nesting accepted (protects the stack).
const MAX_DEPTH: usize = 64;

impl State {
    /// Records a typed error and returns it as a `syn::Error` to propagate.
    pub(crate) fn fail(&self, kind: ErrorKind, span: Span, msg: impl Into<String>) -> syn::Error {
        self.lift(CompileError::new(kind, span, msg))
    }

    /// Records a compile error and returns it as a `syn::Error` to propagate.
    pub(crate) fn lift(&self, e: CompileError) -> syn::Error {
        let se = e.to_syn();
        self.errors.borrow_mut().push(e);
        se
    }

    /// Turns the error that reached the top back into a typed compile error.
    fn resolve(&self, e: syn::Error) -> CompileError {
        let msg = e.to_string();
        self.errors
            .borrow()
            .iter()
            .rev()
            .find(|r| r.message == msg)
            .cloned()
            .unwrap_or_else(|| e.into())
    }

    /// Runs `f` one nesting level deeper, failing beyond [`MAX_DEPTH`].
    pub(crate) fn nested<T>(
        &self,
        span: Span,
        f: impl FnOnce() -> syn::Result<T>,
    ) -> syn::Result<T> {
        let d = self.depth.get();
        if d >= MAX_DEPTH {
            return Err(self.fail(ErrorKind::Syntax, span, "expression nested too deeply"));
        }
        self.depth.set(d + 1);
        let r = f();
        self.depth.set(d);
        r
    }
}

/// What parsing functions see: the size variables in scope and the shared state.
#[derive(Clone, Copy)]
pub(crate) struct Scope<'a> {
    /// Declared size variables of the enclosing kernel.
    pub sizes: &'a [String],
    /// The shared state.
    pub st: &'a State,
}

/// Converts a numeric or boolean literal to its value and optional suffix type.
pub(crate) fn literal(lit: &syn::Lit) -> Result<(LitValue, Option<ScalarType>), (Span, String)> {
    let suffix_type = |s: &str, span: Span| -> Result<Option<ScalarType>, (Span, String)> {
        if s.is_empty() {
            return Ok(None);
        }
        match ScalarType::from_name(s) {
            Some(t) if t != ScalarType::Bool => Ok(Some(t)),
            _ => Err((span, format!("unsupported literal suffix `{s}`"))),
        }
    };
    match lit {
        syn::Lit::Int(i) => {
            let ty = suffix_type(i.suffix(), i.span())?;
            let v: u128 = i.base10_parse().map_err(|e| (i.span(), e.to_string()))?;
            match ty {
                Some(t) if t.is_float() => Ok((LitValue::Float(v as f64), Some(t))),
                t => Ok((LitValue::Int(v), t)),
            }
        }
        syn::Lit::Float(f) => {
            let ty = suffix_type(f.suffix(), f.span())?;
            if ty.is_some_and(|t| !t.is_float()) {
                return Err((f.span(), "float literal with an integer suffix".into()));
            }
            let v: f64 = f.base10_parse().map_err(|e| (f.span(), e.to_string()))?;
            if !v.is_finite() {
                return Err((f.span(), "float literal out of range".into()));
            }
            Ok((LitValue::Float(v), ty))
        }
        syn::Lit::Bool(b) => Ok((LitValue::Bool(b.value), None)),
        other => Err((other.span(), "expected a number or `true`/`false`".into())),
    }
}
