//! Kernel body expressions, by precedence from lowest to highest:
//! `$` (right-assoc), `o` (flattened), `||`, `&&`, comparisons (non-assoc), `+ -`, `* / %`,
//! `as`, unary `- !` and rewrite points, postfix `.i` `[i]` `(args)`, primaries.

use super::types::parse_size;
use super::{args, join, literal, Scope};
use crate::error::ErrorKind;
use crate::ir::{BinOp, Expr, ExprKind, Pat, Section, UnOp};
use crate::prim::Prim;
use crate::types::ScalarType;
use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::{braced, bracketed, parenthesized, token, Token};

/// Parses an expression at the lowest precedence (`f $ x`, right-associative).
pub(crate) fn parse_expr(input: ParseStream, sc: Scope) -> syn::Result<Expr> {
    let mut chain = vec![parse_compose(input, sc)?];
    while input.peek(Token![$]) {
        input.parse::<Token![$]>()?;
        chain.push(parse_compose(input, sc)?);
    }
    let mut x = chain
        .pop()
        .ok_or_else(|| input.error("expected an expression"))?;
    while let Some(f) = chain.pop() {
        let span = join(f.span, x.span);
        x = Expr::new(ExprKind::Apply(Box::new(f), vec![x]), span);
    }
    Ok(x)
}

/// Is the next token the identifier `name`?
fn peek_ident(input: ParseStream, name: &str) -> bool {
    input.cursor().ident().is_some_and(|(id, _)| id == name)
}

fn parse_compose(input: ParseStream, sc: Scope) -> syn::Result<Expr> {
    let first = parse_binary(input, sc, 0)?;
    if !peek_ident(input, "o") {
        return Ok(first);
    }
    let mut fs = vec![first];
    while peek_ident(input, "o") {
        input.call(syn::Ident::parse_any)?;
        fs.push(parse_binary(input, sc, 0)?);
    }
    let span = join(fs[0].span, fs[fs.len() - 1].span);
    Ok(Expr::new(ExprKind::Compose(fs), span))
}

/// The binary operator at the head of `input`, if any.
fn peek_binop(input: ParseStream) -> Option<BinOp> {
    let op = if input.peek(Token![||]) {
        BinOp::Or
    } else if input.peek(Token![&&]) {
        BinOp::And
    } else if input.peek(Token![<=]) {
        BinOp::Le
    } else if input.peek(Token![>=]) {
        BinOp::Ge
    } else if input.peek(Token![==]) {
        BinOp::Eq
    } else if input.peek(Token![!=]) {
        BinOp::Ne
    } else if input.peek(Token![<]) {
        BinOp::Lt
    } else if input.peek(Token![>]) {
        BinOp::Gt
    } else if input.peek(Token![+]) {
        BinOp::Add
    } else if input.peek(Token![-]) && !input.peek(Token![->]) {
        BinOp::Sub
    } else if input.peek(Token![*]) {
        BinOp::Mul
    } else if input.peek(Token![/]) {
        BinOp::Div
    } else if input.peek(Token![%]) {
        BinOp::Rem
    } else {
        return None;
    };
    Some(op)
}

/// Consumes the tokens of `op` (just peeked).
fn eat_binop(input: ParseStream, op: BinOp) -> syn::Result<()> {
    match op {
        BinOp::Or => input.parse::<Token![||]>().map(drop),
        BinOp::And => input.parse::<Token![&&]>().map(drop),
        BinOp::Le => input.parse::<Token![<=]>().map(drop),
        BinOp::Ge => input.parse::<Token![>=]>().map(drop),
        BinOp::Eq => input.parse::<Token![==]>().map(drop),
        BinOp::Ne => input.parse::<Token![!=]>().map(drop),
        BinOp::Lt => input.parse::<Token![<]>().map(drop),
        BinOp::Gt => input.parse::<Token![>]>().map(drop),
        BinOp::Add => input.parse::<Token![+]>().map(drop),
        BinOp::Sub => input.parse::<Token![-]>().map(drop),
        BinOp::Mul => input.parse::<Token![*]>().map(drop),
        BinOp::Div => input.parse::<Token![/]>().map(drop),
        BinOp::Rem => input.parse::<Token![%]>().map(drop),
    }
}

/// Binding level of a binary operator: 0 `||`, 1 `&&`, 2 comparisons, 3 `+ -`, 4 `* / %`.
pub(crate) fn binop_level(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 0,
        BinOp::And => 1,
        BinOp::Add | BinOp::Sub => 3,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 4,
        _ => 2,
    }
}

/// Precedence climbing over the binary operators binding at least as tightly as `min`.
fn parse_binary(input: ParseStream, sc: Scope, min: u8) -> syn::Result<Expr> {
    let mut lhs = parse_cast(input, sc)?;
    while let Some(op) = peek_binop(input).filter(|op| binop_level(*op) >= min) {
        eat_binop(input, op)?;
        let rhs = parse_binary(input, sc, binop_level(op) + 1)?;
        let span = join(lhs.span, rhs.span);
        lhs = Expr::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span);
        if op.is_comparison() && peek_binop(input).is_some_and(|op| op.is_comparison()) {
            return Err(input.error("comparison operators cannot be chained"));
        }
    }
    Ok(lhs)
}

fn parse_cast(input: ParseStream, sc: Scope) -> syn::Result<Expr> {
    let mut e = parse_unary(input, sc)?;
    while input.peek(Token![as]) {
        input.parse::<Token![as]>()?;
        let id = input.call(syn::Ident::parse_any)?;
        let Some(t) = ScalarType::from_name(&id.to_string()) else {
            return Err(syn::Error::new(id.span(), "can only cast to a scalar type"));
        };
        let span = join(e.span, id.span());
        e = Expr::new(ExprKind::Cast(Box::new(e), t), span);
    }
    Ok(e)
}

/// Parses unary `-`/`!`, rewrite points, then a primary with its postfixes.
fn parse_unary(input: ParseStream, sc: Scope) -> syn::Result<Expr> {
    sc.st.nested(input.span(), || {
        let op = if input.peek(Token![-]) {
            Some((input.parse::<Token![-]>()?.span, UnOp::Neg))
        } else if input.peek(Token![!]) {
            Some((input.parse::<Token![!]>()?.span, UnOp::Not))
        } else {
            None
        };
        if let Some((span, op)) = op {
            let e = parse_unary(input, sc)?;
            let span = join(span, e.span);
            return Ok(Expr::new(ExprKind::Unary(op, Box::new(e)), span));
        }
        if input.peek(Token![#]) {
            return parse_point(input, sc);
        }
        let e = parse_primary(input, sc)?;
        parse_postfix(input, sc, e)
    })
}

/// `#[name(args)] e` or `#[name] e`; the arguments are sizes or `_`.
fn parse_point(input: ParseStream, sc: Scope) -> syn::Result<Expr> {
    let pound: Token![#] = input.parse()?;
    let content;
    bracketed!(content in input);
    let name = content.call(syn::Ident::parse_any)?;
    let mut point_args = Vec::new();
    if content.peek(token::Paren) {
        let a;
        parenthesized!(a in content);
        while !a.is_empty() {
            if a.peek(Token![_]) {
                a.parse::<Token![_]>()?;
                point_args.push(None);
            } else {
                point_args.push(Some(parse_size(&a, sc)?.0));
            }
            if a.is_empty() {
                break;
            }
            a.parse::<Token![,]>()?;
        }
    }
    if !content.is_empty() {
        return Err(content.error("unexpected token in rewrite point"));
    }
    let e = parse_unary(input, sc)?;
    let span = join(pound.span, e.span);
    let kind = ExprKind::Point(name.to_string(), point_args, Box::new(e));
    Ok(Expr::new(kind, span))
}

/// Are `ts` a size expression: declared size variables, unsuffixed integers, `+ - * / %`
/// and parentheses only? (Else an index is an expression computed at run time.)
fn is_size_expr(ts: &proc_macro2::TokenStream, sc: Scope) -> bool {
    use proc_macro2::{Delimiter, TokenTree};
    ts.clone().into_iter().all(|t| match t {
        TokenTree::Ident(id) => sc.sizes.iter().any(|s| id == s),
        TokenTree::Literal(l) => l.to_string().chars().all(|c| c.is_ascii_digit()),
        TokenTree::Punct(p) => "+-*/%".contains(p.as_char()),
        TokenTree::Group(g) => {
            g.delimiter() == Delimiter::Parenthesis && is_size_expr(&g.stream(), sc)
        }
    })
}

fn parse_postfix(input: ParseStream, sc: Scope, mut e: Expr) -> syn::Result<Expr> {
    loop {
        if input.peek(Token![.]) && !input.peek(Token![..]) {
            input.parse::<Token![.]>()?;
            for (i, span) in tuple_indices(input)? {
                let span = join(e.span, span);
                e = Expr::new(ExprKind::Proj(Box::new(e), i), span);
            }
        } else if input.peek(token::Bracket) {
            let content;
            let br = bracketed!(content in input);
            let span = join(e.span, br.span.join());
            if !is_size_expr(&content.fork().parse()?, sc) {
                // An index computed at run time: `lift_index(x, e)`.
                let i = parse_expr(&content, sc)?;
                if !content.is_empty() {
                    return Err(content.error("unexpected token in index"));
                }
                let f = Expr::new(ExprKind::Ident(crate::ir::DYN_INDEX.into()), span);
                e = Expr::new(ExprKind::Apply(Box::new(f), vec![e, i]), span);
                continue;
            }
            let (n, _) = parse_size(&content, sc)?;
            if !content.is_empty() {
                return Err(content.error("unexpected token in index"));
            }
            e = Expr::new(ExprKind::Index(Box::new(e), n), span);
        } else if input.peek(token::Paren) {
            let content;
            let p = parenthesized!(content in input);
            let list = parse_list(&content, sc)?;
            let span = join(e.span, p.span.join());
            e = Expr::new(ExprKind::Apply(Box::new(e), list), span);
        } else {
            return Ok(e);
        }
    }
}

/// The tuple index (or two, for `t.0.1` lexed as `t . 0.1`) after a `.`.
fn tuple_indices(input: ParseStream) -> syn::Result<Vec<(usize, Span)>> {
    let bad = |span| syn::Error::new(span, "expected a tuple index after `.`");
    let index = |s: &str, span| -> syn::Result<usize> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(span));
        }
        s.parse().map_err(|_| bad(span))
    };
    if input.peek(syn::LitInt) {
        let lit: syn::LitInt = input.parse()?;
        Ok(vec![(index(&lit.to_string(), lit.span())?, lit.span())])
    } else if input.peek(syn::LitFloat) {
        let lit: syn::LitFloat = input.parse()?;
        let text = lit.to_string();
        let Some((a, b)) = text.split_once('.') else {
            return Err(bad(lit.span()));
        };
        Ok(vec![
            (index(a, lit.span())?, lit.span()),
            (index(b, lit.span())?, lit.span()),
        ])
    } else {
        Err(bad(input.span()))
    }
}

/// Comma-separated expressions up to the end of `input` (a trailing comma is allowed).
pub(crate) fn parse_list(input: ParseStream, sc: Scope) -> syn::Result<Vec<Expr>> {
    let mut out = Vec::new();
    while !input.is_empty() {
        out.push(parse_expr(input, sc)?);
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    Ok(out)
}

/// Is the next token a lone `+`/`*` operator section (followed by `,`, `;` or the end)?
fn peek_section(input: ParseStream) -> Option<Section> {
    let fork = input.fork();
    let s = if fork.parse::<Token![+]>().is_ok() {
        Section::Add
    } else if fork.parse::<Token![*]>().is_ok() {
        Section::Mul
    } else {
        return None;
    };
    (fork.is_empty() || fork.peek(Token![,]) || fork.peek(Token![;])).then_some(s)
}

/// `[e; n]`: an array of `n` copies of `e` (nested for more dimensions), the constant of
/// private array accumulators; read as `generate(n, |_| e)`.
fn parse_array_constant(input: ParseStream, sc: Scope) -> syn::Result<Expr> {
    let content;
    let br = bracketed!(content in input);
    let span = br.span.join();
    let e = parse_expr(&content, sc)?;
    content.parse::<Token![;]>()?;
    let (n, nspan) = parse_size(&content, sc)?;
    if !content.is_empty() {
        return Err(content.error("unexpected token in an array constant `[e; n]`"));
    }
    let f = Expr::new(
        ExprKind::Lambda(vec![crate::ir::Pat::Name("_".into(), span)], Box::new(e)),
        span,
    );
    let g = Expr::new(
        ExprKind::Prim(
            crate::prim::Prim::Generate,
            vec![
                crate::ir::PrimArg::Nat(n, nspan),
                crate::ir::PrimArg::Fun(f),
            ],
        ),
        span,
    );
    Ok(Expr::new(ExprKind::Apply(Box::new(g), Vec::new()), span))
}

fn parse_primary(input: ParseStream, sc: Scope) -> syn::Result<Expr> {
    let span = input.span();
    if input.peek(syn::Lit) {
        let lit: syn::Lit = input.parse()?;
        let (v, t) = literal(&lit).map_err(|(s, m)| syn::Error::new(s, m))?;
        return Ok(Expr::new(ExprKind::Lit(v, t), lit.span()));
    }
    if input.peek(Token![||]) {
        return Err(input.error("a lambda needs at least one parameter"));
    }
    if input.peek(Token![|]) {
        return parse_lambda(input, sc);
    }
    if input.peek(token::Paren) {
        return parse_paren(input, sc);
    }
    if input.peek(token::Brace) {
        let content;
        let b = braced!(content in input);
        return parse_block_body(&content, sc, b.span.join());
    }
    if input.peek(token::Bracket) {
        return parse_array_constant(input, sc);
    }
    if input.peek(Token![if]) {
        return parse_if(input, sc);
    }
    if let Some(s) = peek_section(input) {
        input.parse::<proc_macro2::Punct>()?;
        return Ok(Expr::new(ExprKind::Section(s), span));
    }
    if !input.peek(syn::Ident) {
        return Err(input.error("expected an expression"));
    }
    let id: syn::Ident = input.parse()?;
    let name = id.to_string();
    let span = id.span();
    if name == "o" {
        return Err(syn::Error::new(
            span,
            "`o` is the composition operator, not a name",
        ));
    }
    if let Some(p) = Prim::from_name(&name) {
        return parse_prim(input, sc, p, span);
    }
    // `min`/`max` without arguments are sections unless bound (see `resolve_sections`).
    Ok(Expr::new(ExprKind::Ident(name), span))
}

/// A primitive, with its arguments if parenthesised.
fn parse_prim(input: ParseStream, sc: Scope, p: Prim, span: Span) -> syn::Result<Expr> {
    if input.peek(token::Paren) {
        let content;
        let paren = parenthesized!(content in input);
        let list = parse_list(&content, sc)?;
        return args::prim_call(p, list, span, join(span, paren.span.join()), sc);
    }
    args::prim_bare(p, span, sc)
}

/// `|p, q| body`.
fn parse_lambda(input: ParseStream, sc: Scope) -> syn::Result<Expr> {
    let bar: Token![|] = input.parse()?;
    let mut pats = vec![parse_pat(input, sc)?];
    while input.peek(Token![,]) {
        input.parse::<Token![,]>()?;
        pats.push(parse_pat(input, sc)?);
    }
    input.parse::<Token![|]>()?;
    let body = parse_expr(input, sc)?;
    let span = join(bar.span, body.span);
    Ok(Expr::new(ExprKind::Lambda(pats, Box::new(body)), span))
}

/// A name, `_`, or a parenthesised tuple of patterns.
pub(crate) fn parse_pat(input: ParseStream, sc: Scope) -> syn::Result<Pat> {
    if input.peek(Token![_]) {
        let u: Token![_] = input.parse()?;
        return Ok(Pat::Name("_".into(), u.span));
    }
    if input.peek(token::Paren) {
        let content;
        let p = parenthesized!(content in input);
        let span = p.span.join();
        let mut pats = Vec::new();
        let mut trailing = false;
        while !content.is_empty() {
            pats.push(sc.st.nested(span, || parse_pat(&content, sc))?);
            trailing = false;
            if content.is_empty() {
                break;
            }
            content.parse::<Token![,]>()?;
            trailing = true;
        }
        return match pats.len() {
            0 => Err(syn::Error::new(span, "empty pattern")),
            1 if !trailing => Ok(pats.remove(0)),
            _ => Ok(Pat::Tuple(pats, span)),
        };
    }
    let id: syn::Ident = input
        .parse()
        .map_err(|e| syn::Error::new(e.span(), "expected a pattern: a name or a tuple"))?;
    if id == "o" {
        return Err(syn::Error::new(
            id.span(),
            "`o` is the composition operator, not a name",
        ));
    }
    not_a_primitive(&id.to_string(), id.span(), "lambda parameter")?;
    Ok(Pat::Name(id.to_string(), id.span()))
}

/// A name bound by a parameter or a pattern must not be a primitive's: in the body the
/// primitive would win (`at` there is `at(i)`, not the parameter).
pub(crate) fn not_a_primitive(name: &str, span: Span, what: &str) -> syn::Result<()> {
    match Prim::from_name(name) {
        Some(_) => Err(syn::Error::new(
            span,
            format!("{what} `{name}` has the name of the primitive `{name}`; rename it"),
        )),
        None => Ok(()),
    }
}

/// `(e)` or a tuple `(a, b, ...)`.
fn parse_paren(input: ParseStream, sc: Scope) -> syn::Result<Expr> {
    let content;
    let p = parenthesized!(content in input);
    let span = p.span.join();
    if content.is_empty() {
        return Err(syn::Error::new(span, "`()` is not supported"));
    }
    let mut elems = Vec::new();
    let mut trailing = false;
    while !content.is_empty() {
        elems.push(parse_expr(&content, sc)?);
        trailing = false;
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
        trailing = true;
    }
    if elems.len() == 1 && !trailing {
        let mut e = elems.remove(0);
        e.span = span;
        return Ok(e);
    }
    Ok(Expr::new(ExprKind::Tuple(elems), span))
}

/// The inside of a block: `let p = e; ... e`.
fn parse_block_body(input: ParseStream, sc: Scope, span: Span) -> syn::Result<Expr> {
    let mut lets = Vec::new();
    while input.peek(Token![let]) {
        let kw: Token![let] = input.parse()?;
        let pat = parse_pat(input, sc)?;
        if input.peek(Token![:]) {
            return Err(input.error("type annotations on `let` are not supported"));
        }
        input.parse::<Token![=]>()?;
        let value = parse_expr(input, sc)?;
        input.parse::<Token![;]>()?;
        lets.push((kw.span, pat, value));
    }
    if input.is_empty() {
        return Err(syn::Error::new(span, "a block must end with an expression"));
    }
    let mut body = parse_expr(input, sc)?;
    if !input.is_empty() {
        return Err(input.error("expected the end of the block"));
    }
    for (kw, pat, value) in lets.into_iter().rev() {
        let span = join(kw, body.span);
        body = Expr::new(ExprKind::Let(pat, Box::new(value), Box::new(body)), span);
    }
    Ok(body)
}

/// `if c { a } else { b }`, with `else if` chains.
fn parse_if(input: ParseStream, sc: Scope) -> syn::Result<Expr> {
    let kw: Token![if] = input.parse()?;
    let cond = parse_expr(input, sc)?;
    let content;
    let b = braced!(content in input);
    let then = parse_block_body(&content, sc, b.span.join())?;
    if !input.peek(Token![else]) {
        return Err(sc
            .st
            .fail(ErrorKind::Syntax, kw.span, "`if` needs an `else` branch"));
    }
    input.parse::<Token![else]>()?;
    let other = if input.peek(Token![if]) {
        sc.st.nested(kw.span, || parse_if(input, sc))?
    } else {
        let content;
        let b = braced!(content in input);
        parse_block_body(&content, sc, b.span.join())?
    };
    let span = join(kw.span, other.span);
    Ok(Expr::new(
        ExprKind::If(Box::new(cond), Box::new(then), Box::new(other)),
        span,
    ))
}
