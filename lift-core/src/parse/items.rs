//! Items of a `lift!` block: user functions and kernels, with their doc comments.

use super::expr::parse_expr;
use super::types::parse_type;
use super::{join, lex, userfun, Scope, State};
use crate::error::ErrorKind;
use crate::ir::{FunBody, Kernel, Param, Program, UserFun};
use proc_macro2::Span;
use syn::parse::{ParseStream, Parser};
use syn::{braced, parenthesized, token, Token};

/// Parses every item up to the end of `input`.
pub(crate) fn parse_items(input: ParseStream, st: &State) -> syn::Result<Program> {
    let mut prog = Program::default();
    while !input.is_empty() {
        let attrs = input.call(syn::Attribute::parse_outer)?;
        let mut docs = Vec::new();
        let mut opencl = None;
        for a in &attrs {
            if let Some(d) = doc_value(a) {
                docs.push(d);
            } else if matches!(&a.meta, syn::Meta::Path(p) if p.is_ident("opencl")) {
                opencl = Some(a.pound_token.span);
            } else {
                return Err(syn::Error::new(a.pound_token.span, "unsupported attribute"));
            }
        }
        if input.cursor().ident().is_some_and(|(i, _)| i == "include") && input.peek2(Token![!]) {
            input.parse::<syn::Ident>()?;
            input.parse::<Token![!]>()?;
            let content;
            syn::parenthesized!(content in input);
            let path: syn::LitStr = content.parse()?;
            input.parse::<Token![;]>()?;
            prog.includes.push((path.value(), path.span()));
        } else if input.peek(Token![fn]) {
            prog.funs
                .push(parse_fun(input, st, docs, opencl.is_some())?);
        } else if input.peek(Token![pub])
            || input.cursor().ident().is_some_and(|(i, _)| i == "kernel")
        {
            if let Some(span) = opencl {
                return Err(syn::Error::new(
                    span,
                    "`#[opencl]` applies to functions only",
                ));
            }
            prog.kernels.push(parse_kernel(input, st, docs)?);
        } else {
            return Err(input.error("expected `fn`, `kernel` or `include!(\"file.cl\");`"));
        }
    }
    Ok(prog)
}

/// The text of a `#[doc = "..."]` attribute.
fn doc_value(a: &syn::Attribute) -> Option<String> {
    match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    }
}

/// `(name: T, ...)`, refusing duplicate names.
fn parse_params(input: ParseStream, sc: Scope) -> syn::Result<Vec<Param>> {
    let content;
    parenthesized!(content in input);
    let mut params: Vec<Param> = Vec::new();
    while !content.is_empty() {
        let name = declared_name(&content, "parameter")?;
        content.parse::<Token![:]>()?;
        let (ty, tspan) = parse_type(&content, sc)?;
        let n = name.to_string();
        super::expr::not_a_primitive(&n, name.span(), "parameter")?;
        if params.iter().any(|p| p.name == n) {
            return Err(syn::Error::new(
                name.span(),
                format!("duplicate parameter `{n}`"),
            ));
        }
        params.push(Param {
            name: n,
            ty,
            span: join(name.span(), tspan),
        });
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    Ok(params)
}

/// The name a parameter or size variable is declared with: any identifier but a Rust keyword,
/// refused with the reason (it names a parameter of the generated launcher).
fn declared_name(input: ParseStream, what: &str) -> syn::Result<syn::Ident> {
    use syn::ext::IdentExt;
    if input.peek(syn::Ident) {
        return input.parse();
    }
    let fork = input.fork();
    match fork.call(syn::Ident::parse_any) {
        Ok(kw) => Err(syn::Error::new(
            kw.span(),
            format!(
                "{what} `{kw}`: a Rust keyword cannot name a {what} (it becomes a parameter of \
                 the generated launcher's `run`, `launch` and `tune`); choose another name"
            ),
        )),
        Err(_) => input.parse(),
    }
}

/// `fn name(p: T, ...) -> T { body }`, or with `#[opencl]` a string body.
fn parse_fun(
    input: ParseStream,
    st: &State,
    docs: Vec<String>,
    opencl: bool,
) -> syn::Result<UserFun> {
    input.parse::<Token![fn]>()?;
    let name: syn::Ident = input.parse()?;
    let sc = Scope { sizes: &[], st };
    let params = parse_params(input, sc)?;
    input.parse::<Token![->]>()?;
    let (ret, _) = parse_type(input, sc)?;
    let body = if opencl {
        let content;
        let b = braced!(content in input);
        let text = content
            .parse::<syn::LitStr>()
            .ok()
            .filter(|_| content.is_empty());
        match text {
            Some(s) => FunBody::OpenCl(s.value()),
            None => {
                return Err(syn::Error::new(
                    b.span.join(),
                    "the body of an `#[opencl]` function must be one string literal",
                ))
            }
        }
    } else {
        let block: syn::Block = input.parse()?;
        FunBody::Expr(userfun::translate(&block, &name.to_string()).map_err(|e| st.lift(e))?)
    };
    Ok(UserFun {
        docs,
        name: name.to_string(),
        params,
        ret,
        body,
        span: name.span(),
    })
}

/// `[pub] kernel Name<SIZES>(params) -> T { expr }` or `... -> T = "expr";`.
fn parse_kernel(input: ParseStream, st: &State, docs: Vec<String>) -> syn::Result<Kernel> {
    let public = input.parse::<Option<Token![pub]>>()?.is_some();
    let kw: syn::Ident = input.parse()?;
    if kw != "kernel" {
        return Err(syn::Error::new(kw.span(), "expected `kernel`"));
    }
    let name: syn::Ident = input.parse()?;
    let mut sizes: Vec<(String, Span)> = Vec::new();
    if input.peek(Token![<]) {
        input.parse::<Token![<]>()?;
        while !input.peek(Token![>]) {
            let s = declared_name(input, "size variable")?;
            let n = s.to_string();
            if sizes.iter().any(|(m, _)| *m == n) {
                return Err(syn::Error::new(
                    s.span(),
                    format!("duplicate size variable `{n}`"),
                ));
            }
            sizes.push((n, s.span()));
            if input.peek(Token![>]) {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        input.parse::<Token![>]>()?;
    }
    let names: Vec<String> = sizes.iter().map(|(n, _)| n.clone()).collect();
    let sc = Scope { sizes: &names, st };
    let params = parse_params(input, sc)?;
    input.parse::<Token![->]>()?;
    let (ret, ret_span) = parse_type(input, sc)?;
    let body = if input.peek(token::Brace) {
        let content;
        braced!(content in input);
        let e = parse_expr(&content, sc)?;
        if !content.is_empty() {
            return Err(content.error("unexpected token after the kernel body"));
        }
        e
    } else if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        let lit: syn::LitStr = input.parse()?;
        input.parse::<Token![;]>()?;
        let tokens = lex(&lit.value(), Some(lit.span())).map_err(|e| st.lift(e))?;
        if tokens.is_empty() {
            return Err(st.fail(ErrorKind::Syntax, lit.span(), "empty kernel body"));
        }
        (|i: ParseStream| parse_expr(i, sc)).parse2(tokens)?
    } else {
        return Err(input.error("expected the kernel body: `{ ... }` or `= \"...\";`"));
    };
    Ok(Kernel {
        docs,
        public,
        name: name.to_string(),
        sizes,
        params,
        ret,
        ret_span,
        body,
        span: name.span(),
    })
}
