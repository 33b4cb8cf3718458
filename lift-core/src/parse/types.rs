//! Types (`f32`, `(A, B)`, `[T; SIZE]`, `[T; <= SIZE]`) and size expressions over declared size variables.

use super::{join, Scope};
use crate::arith::Nat;
use crate::error::ErrorKind;
use crate::types::Type;
use proc_macro2::Span;
use syn::parse::ParseStream;
use syn::{bracketed, parenthesized, token, Token};

/// Parses a type; returns it with its span.
pub(crate) fn parse_type(input: ParseStream, sc: Scope) -> syn::Result<(Type, Span)> {
    if input.peek(token::Bracket) {
        let content;
        let br = bracketed!(content in input);
        let span = br.span.join();
        let (elem, _) = sc.st.nested(span, || parse_type(&content, sc))?;
        content.parse::<Token![;]>()?;
        // `[T; <= N]`: at most `N` elements, the length known at run time only.
        let capped = content.parse::<Option<Token![<=]>>()?.is_some();
        let (len, _) = parse_size(&content, sc)?;
        if !content.is_empty() {
            return Err(content.error("unexpected token in array type"));
        }
        if capped {
            Ok((Type::Capped(Box::new(elem), len), span))
        } else {
            Ok((Type::array(elem, len), span))
        }
    } else if input.peek(token::Paren) {
        let content;
        let p = parenthesized!(content in input);
        let span = p.span.join();
        if content.is_empty() {
            return Err(syn::Error::new(span, "the unit type `()` is not supported"));
        }
        let mut elems = Vec::new();
        let mut trailing = false;
        while !content.is_empty() {
            elems.push(sc.st.nested(span, || parse_type(&content, sc))?.0);
            trailing = false;
            if content.is_empty() {
                break;
            }
            content.parse::<Token![,]>()?;
            trailing = true;
        }
        if elems.len() == 1 && !trailing {
            Ok((elems.remove(0), span))
        } else {
            Ok((Type::Tuple(elems), span))
        }
    } else if input.peek(syn::Ident) {
        let id: syn::Ident = input.parse()?;
        match Type::from_name(&id.to_string()) {
            Some(t) => Ok((t, id.span())),
            None => Err(sc.st.fail(
                ErrorKind::UnknownName,
                id.span(),
                format!("unknown type `{id}`"),
            )),
        }
    } else {
        Err(input.error("expected a type"))
    }
}

/// Parses a size expression: integer literals, size variables, `+ - * / %`, parentheses.
pub(crate) fn parse_size(input: ParseStream, sc: Scope) -> syn::Result<(Nat, Span)> {
    let (mut acc, mut span) = parse_size_term(input, sc)?;
    loop {
        let op = if input.peek(Token![+]) {
            input.parse::<Token![+]>()?;
            '+'
        } else if input.peek(Token![-]) && !input.peek(Token![->]) {
            input.parse::<Token![-]>()?;
            '-'
        } else {
            return Ok((acc, span));
        };
        let (rhs, rspan) = parse_size_term(input, sc)?;
        span = join(span, rspan);
        acc = nat_op(op, acc, rhs, span, sc)?;
    }
}

fn parse_size_term(input: ParseStream, sc: Scope) -> syn::Result<(Nat, Span)> {
    let (mut acc, mut span) = parse_size_atom(input, sc)?;
    loop {
        let op = if input.peek(Token![*]) {
            input.parse::<Token![*]>()?;
            '*'
        } else if input.peek(Token![/]) {
            input.parse::<Token![/]>()?;
            '/'
        } else if input.peek(Token![%]) {
            input.parse::<Token![%]>()?;
            '%'
        } else {
            return Ok((acc, span));
        };
        let (rhs, rspan) = parse_size_atom(input, sc)?;
        span = join(span, rspan);
        acc = nat_op(op, acc, rhs, span, sc)?;
    }
}

fn parse_size_atom(input: ParseStream, sc: Scope) -> syn::Result<(Nat, Span)> {
    if input.peek(token::Paren) {
        let content;
        let p = parenthesized!(content in input);
        let span = p.span.join();
        let (n, _) = sc.st.nested(span, || parse_size(&content, sc))?;
        if !content.is_empty() {
            return Err(content.error("unexpected token in size expression"));
        }
        Ok((n, span))
    } else if input.peek(syn::LitInt) {
        let lit: syn::LitInt = input.parse()?;
        Ok((size_literal(&lit, sc)?, lit.span()))
    } else if input.peek(syn::Ident) {
        let id: syn::Ident = input.parse()?;
        Ok((size_var(&id.to_string(), id.span(), sc)?, id.span()))
    } else {
        Err(input.error("expected a size expression"))
    }
}

/// A size literal as a constant.
pub(crate) fn size_literal(lit: &syn::LitInt, sc: Scope) -> syn::Result<Nat> {
    if !lit.suffix().is_empty() {
        return Err(syn::Error::new(
            lit.span(),
            "a size literal takes no suffix",
        ));
    }
    match lit.base10_parse::<i64>() {
        Ok(v) => Ok(Nat::cst(v)),
        Err(_) => Err(sc
            .st
            .fail(ErrorKind::Syntax, lit.span(), "size literal out of range")),
    }
}

/// A declared size variable, or an [`ErrorKind::UnknownName`] error.
pub(crate) fn size_var(name: &str, span: Span, sc: Scope) -> syn::Result<Nat> {
    if sc.sizes.iter().any(|s| s == name) {
        Ok(Nat::size_var(name))
    } else {
        Err(sc.st.fail(
            ErrorKind::UnknownName,
            span,
            format!("unknown size variable `{name}`"),
        ))
    }
}

/// `a op b` for sizes, refusing division by zero and overflowing constants.
pub(crate) fn nat_op(op: char, a: Nat, b: Nat, span: Span, sc: Scope) -> syn::Result<Nat> {
    if matches!(op, '/' | '%') && b.as_cst() == Some(0) {
        return Err(sc
            .st
            .fail(ErrorKind::ZeroSize, span, "size expression divides by zero"));
    }
    if let (Some(x), Some(y)) = (a.as_cst(), b.as_cst()) {
        let r = match op {
            '+' => x.checked_add(y),
            '-' => x.checked_sub(y),
            '*' => x.checked_mul(y),
            '/' => x.checked_div(y),
            _ => x.checked_rem(y),
        };
        return match r {
            Some(v) => Ok(Nat::cst(v)),
            None => Err(sc
                .st
                .fail(ErrorKind::Syntax, span, "size expression overflows")),
        };
    }
    Ok(match op {
        '+' => a + b,
        '-' => a - b,
        '*' => a * b,
        '/' => a / b,
        _ => a % b,
    })
}
