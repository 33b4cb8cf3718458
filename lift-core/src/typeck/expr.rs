//! Typing of expressions: data expressions bottom-up, functions by application to the types of
//! their arguments (lambda parameters get their types from what they are applied to).

use super::scalar::{self, is_unsuffixed_literal};
use super::Checker;
use crate::error::{CResult, CompileError, ErrorKind};
use crate::ir::{Expr, ExprKind, Section};
use crate::types::Type;
use proc_macro2::Span;

fn err(kind: ErrorKind, span: Span, msg: impl Into<String>) -> CompileError {
    CompileError::new(kind, span, msg)
}

impl Checker<'_> {
    /// Types a data expression and records the type on it; `hint` types unsuffixed literals.
    pub(crate) fn data(&mut self, e: &mut Expr, hint: Option<&Type>) -> CResult<Type> {
        let t = self.data_kind(e, hint)?.simplify_with(&self.facts);
        e.ty = Some(t.clone());
        Ok(t)
    }

    fn data_kind(&mut self, e: &mut Expr, hint: Option<&Type>) -> CResult<Type> {
        let span = e.span;
        match &mut e.kind {
            ExprKind::Ident(name) => match self.lookup(name) {
                Some(t) => Ok(t.clone()),
                None if self.is_function_name(name) => Err(err(
                    ErrorKind::TypeMismatch,
                    span,
                    format!("`{name}`: expected data, found a function (apply it with `$`)"),
                )),
                None => Err(err(
                    ErrorKind::UnknownName,
                    span,
                    format!("unknown name `{name}`"),
                )),
            },
            ExprKind::Lit(v, suffix) => scalar::literal(v, *suffix, hint, span),
            ExprKind::Prim(..)
            | ExprKind::Section(_)
            | ExprKind::Lambda(..)
            | ExprKind::Compose(_) => Err(err(
                ErrorKind::TypeMismatch,
                span,
                "expected data, found a function (apply it with `$`)",
            )),
            ExprKind::Apply(f, args) => self.call(f, args, span),
            ExprKind::Tuple(es) => {
                let hints: Vec<Option<&Type>> = match hint {
                    Some(Type::Tuple(ts)) if ts.len() == es.len() => ts.iter().map(Some).collect(),
                    _ => vec![None; es.len()],
                };
                let ts = es.iter_mut().zip(hints).map(|(e, h)| self.data(e, h));
                Ok(Type::Tuple(ts.collect::<CResult<_>>()?))
            }
            ExprKind::Proj(x, i) => {
                let t = self.data(x, None)?;
                project(&t, *i, span)
            }
            ExprKind::Index(x, i) => {
                let t = self.data(x, None)?;
                self.index(&t, i, span)
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, hint, span),
            ExprKind::Unary(op, x) => {
                let t = self.data(x, hint)?;
                scalar::unary(*op, &t, span)
            }
            ExprKind::If(c, a, b) => {
                let tc = self.data(c, Some(&Type::Scalar(crate::types::ScalarType::Bool)))?;
                scalar::expect_bool("if", &tc, c.span)?;
                let (first, second) = if is_unsuffixed_literal(a) {
                    (b, a)
                } else {
                    (a, b)
                };
                let ta = self.data(first, hint)?;
                let tb = self.data(second, Some(&ta))?;
                if !ta.equiv(&tb, &self.facts) {
                    return Err(err(
                        ErrorKind::TypeMismatch,
                        span,
                        format!("if: branches have different types: {ta} vs {tb}"),
                    ));
                }
                Ok(ta)
            }
            ExprKind::Cast(x, to) => {
                let t = self.data(x, None)?;
                if t.as_scalar().is_none() {
                    return Err(err(
                        ErrorKind::TypeMismatch,
                        span,
                        format!("as: only scalars can be cast: {t} as {to}"),
                    ));
                }
                Ok(Type::Scalar(*to))
            }
            ExprKind::Let(p, v, body) => {
                let tv = self.data(v, None)?;
                let depth = self.scopes.len();
                self.bind(p, &tv)?;
                let t = self.data(body, hint);
                self.scopes.truncate(depth);
                t
            }
            ExprKind::Point(_, _, x) => self.data(x, hint),
        }
    }

    /// `f(args)` or `f $ x`: a call of a user/math function by name, or a function applied.
    fn call(&mut self, f: &mut Expr, args: &mut [Expr], span: Span) -> CResult<Type> {
        if let ExprKind::Ident(name) = &f.kind {
            if self.lookup(name).is_none() {
                let name = name.clone();
                let t = self.named_call(&name, args, f.span)?;
                f.ty = Some(t.clone());
                return Ok(t);
            }
        }
        let mut types = Vec::with_capacity(args.len());
        for a in args.iter_mut() {
            types.push(self.data(a, None)?);
        }
        self.apply(f, &types, span)
    }

    /// Types a call of a user function or math builtin, typing literal arguments from the
    /// parameter types (user functions) or from the other arguments (builtins).
    fn named_call(&mut self, name: &str, args: &mut [Expr], span: Span) -> CResult<Type> {
        if let (crate::ir::DYN_INDEX, [x, i]) = (name, &mut *args) {
            let tx = self.data(x, None)?;
            let ti = self.data(i, Some(&Type::Scalar(crate::types::ScalarType::I32)))?;
            let Type::Array(elem, _) = tx else {
                return Err(err(
                    ErrorKind::TypeMismatch,
                    x.span,
                    format!("x[i]: indexes an array, found {tx}"),
                ));
            };
            if !matches!(ti, Type::Scalar(s) if s.is_int()) {
                return Err(err(
                    ErrorKind::TypeMismatch,
                    i.span,
                    format!("x[i]: the index must be an integer, found {ti}"),
                ));
            }
            return Ok(*elem);
        }
        let params: Option<Vec<Type>> = self
            .funs
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.params.iter().map(|p| p.ty.clone()).collect());
        let mut types: Vec<Option<Type>> = vec![None; args.len()];
        for (i, a) in args.iter_mut().enumerate() {
            let hint = params.as_ref().and_then(|p| p.get(i));
            if hint.is_some() || !is_unsuffixed_literal(a) {
                types[i] = Some(self.data(a, hint)?);
            }
        }
        let first = types.iter().flatten().next().cloned();
        for (i, a) in args.iter_mut().enumerate() {
            if types[i].is_none() {
                types[i] = Some(self.data(a, first.as_ref())?);
            }
        }
        let types: Vec<Type> = types.into_iter().flatten().collect();
        self.call_by_name(name, &types, span)
    }

    /// Result type of the user function or builtin `name` applied to `types`.
    fn call_by_name(&mut self, name: &str, types: &[Type], span: Span) -> CResult<Type> {
        if let Some(f) = self.funs.iter().find(|f| f.name == name) {
            if f.params.len() != types.len() {
                return Err(err(
                    ErrorKind::WrongArity,
                    span,
                    format!(
                        "{name}: wrong number of arguments: expected {}, found {}",
                        f.params.len(),
                        types.len()
                    ),
                ));
            }
            for (p, t) in f.params.iter().zip(types) {
                if !p.ty.equiv(t, &self.facts) {
                    return Err(err(
                        ErrorKind::TypeMismatch,
                        span,
                        format!(
                            "{name}: argument `{}` has type {t}, expected {}",
                            p.name, p.ty
                        ),
                    ));
                }
            }
            return Ok(f.ret.clone());
        }
        if let Some(result) = scalar::builtin(name, types, span) {
            return result;
        }
        if crate::prim::Prim::from_name(name).is_some() {
            return Err(err(
                ErrorKind::Syntax,
                span,
                format!("{name}: a primitive needs its arguments in parentheses first, e.g. `{name}(...) $ x`"),
            ));
        }
        Err(err(
            ErrorKind::UnknownName,
            span,
            format!("unknown name `{name}`"),
        ))
    }

    /// Is `e` a name bound to nothing: no variable, user function, builtin or primitive?
    fn is_unknown(&self, e: &Expr) -> bool {
        matches!(&e.kind, ExprKind::Ident(n) if self.lookup(n).is_none()
            && !self.is_function_name(n)
            && crate::prim::Prim::from_name(n).is_none())
    }

    fn is_function_name(&self, name: &str) -> bool {
        self.funs.iter().any(|f| f.name == name) || scalar::is_builtin(name)
    }

    /// Types the function expression `f` applied to arguments of types `args`.
    /// A function of k arguments applied to one tuple of k components takes the components
    /// (LIFT's user functions over `zip`s: `map(add) $ zip(x, y)`).
    pub(crate) fn apply(&mut self, f: &mut Expr, args: &[Type], span: Span) -> CResult<Type> {
        let spread;
        let args = match args {
            [Type::Tuple(ts)]
                if ts.len() > 1 && crate::ir::fun_arity(f, self.funs) == Some(ts.len()) =>
            {
                spread = ts.clone();
                &spread[..]
            }
            _ => args,
        };
        let t = self.apply_kind(f, args, span)?.simplify_with(&self.facts);
        f.ty = Some(t.clone());
        Ok(t)
    }

    fn apply_kind(&mut self, f: &mut Expr, args: &[Type], span: Span) -> CResult<Type> {
        let fspan = f.span;
        match &mut f.kind {
            ExprKind::Prim(p, pargs) => {
                let p = *p;
                let def = p.def();
                let ok = match def.inputs {
                    crate::prim::Inputs::Exactly(n) => args.len() == n,
                    crate::prim::Inputs::AtLeast(n) => args.len() >= n,
                    // Its rule applies its function to them, which checks their number.
                    crate::prim::Inputs::OfFunction(n) => args.len() >= n,
                };
                if !ok {
                    return Err(err(
                        ErrorKind::WrongArity,
                        fspan,
                        format!(
                            "{}: wrong number of inputs: expected {}, found {}",
                            def.name,
                            def.inputs,
                            args.len()
                        ),
                    ));
                }
                if p.def().level == crate::prim::Level::Low || self.in_kernel {
                    (def.rule)(self, p, pargs, args, fspan)
                } else {
                    Err(err(
                        ErrorKind::Unsupported,
                        fspan,
                        format!(
                            "{}: primitives cannot be used inside a user function",
                            def.name
                        ),
                    ))
                }
            }
            ExprKind::Section(s) => {
                let s = *s;
                self.section(s, args, fspan)
            }
            ExprKind::Lambda(pats, body) => {
                if pats.len() != args.len() {
                    return Err(err(
                        ErrorKind::WrongArity,
                        fspan,
                        format!(
                            "lambda: wrong number of arguments: expected {}, found {}",
                            pats.len(),
                            args.len()
                        ),
                    ));
                }
                let depth = self.scopes.len();
                for (p, t) in pats.iter().zip(args) {
                    self.bind(p, t)?;
                }
                let t = self.data(body, None);
                self.scopes.truncate(depth);
                t
            }
            ExprKind::Compose(fs) => {
                let mut types = args.to_vec();
                for g in fs.iter_mut().rev() {
                    types = vec![self.apply(g, &types, span)?];
                }
                Ok(types.pop().unwrap_or(Type::Tuple(Vec::new())))
            }
            ExprKind::Ident(name) => {
                if self.lookup(name).is_some() {
                    return Err(err(
                        ErrorKind::TypeMismatch,
                        fspan,
                        format!("`{name}`: expected a function, found data"),
                    ));
                }
                let name = name.clone();
                self.call_by_name(&name, args, fspan)
            }
            ExprKind::Point(_, _, inner) => self.apply(inner, args, span),
            // `name(..) $ x` with an unknown `name` (a primitive lift-rs lacks, a typo): the
            // same message as an unknown name anywhere else.
            ExprKind::Apply(h, _) if self.is_unknown(h) => Err(err(
                ErrorKind::UnknownName,
                h.span,
                format!("unknown name `{}`", crate::print::expr(h)),
            )),
            // `generate(n, f)` is an array: `map(g) o generate(..) $ x` misplaces it.
            ExprKind::Apply(h, xs) if xs.is_empty() && h.as_prim().is_some() => Err(err(
                ErrorKind::TypeMismatch,
                fspan,
                format!(
                    "`{}` is an array, not a function: apply functions to it with `$`",
                    h.as_prim().map_or("", |(p, _)| p.name())
                ),
            )),
            _ => Err(err(
                ErrorKind::TypeMismatch,
                fspan,
                "expected a function, found data",
            )),
        }
    }

    fn section(&mut self, s: Section, args: &[Type], span: Span) -> CResult<Type> {
        let sym = match s {
            Section::Add => "+",
            Section::Mul => "*",
            Section::Min => "min",
            Section::Max => "max",
        };
        match args {
            [a, b] if a == b && scalar::is_numeric(a) => Ok(a.clone()),
            [a, b] => Err(err(
                ErrorKind::TypeMismatch,
                span,
                format!("`{sym}`: expects two numbers of the same type, found {a} and {b}"),
            )),
            _ => Err(err(
                ErrorKind::WrongArity,
                span,
                format!(
                    "`{sym}`: wrong number of arguments: expected 2, found {}",
                    args.len()
                ),
            )),
        }
    }

    fn binary(
        &mut self,
        op: crate::ir::BinOp,
        l: &mut Expr,
        r: &mut Expr,
        hint: Option<&Type>,
        span: Span,
    ) -> CResult<Type> {
        let outer = if op.is_comparison() || op.is_logical() {
            None
        } else {
            hint
        };
        let (tl, tr) = if is_unsuffixed_literal(l) && !is_unsuffixed_literal(r) {
            let tr = self.data(r, outer)?;
            (self.data(l, Some(&lane_or_self(&tr)))?, tr)
        } else {
            let tl = self.data(l, outer)?;
            let tr = self.data(r, Some(&lane_or_self(&tl)))?;
            (tl, tr)
        };
        scalar::binary(op, &tl, &tr, span)
    }

    fn index(&mut self, t: &Type, i: &crate::arith::Nat, span: Span) -> CResult<Type> {
        match t {
            Type::Array(e, n) => {
                self.check_index(i, n, "x[i]", span)?;
                Ok((**e).clone())
            }
            Type::Vector(s, w) => {
                self.check_index(i, &crate::arith::Nat::cst(i64::from(*w)), "x[i]", span)?;
                Ok(Type::Scalar(*s))
            }
            t => Err(err(
                ErrorKind::NotAnArray,
                span,
                format!("x[i]: expects an array, found {t}"),
            )),
        }
    }

    /// Checks that the index `i` (a constant or a size expression) is below `n`.
    pub(crate) fn check_index(
        &mut self,
        i: &crate::arith::Nat,
        n: &crate::arith::Nat,
        what: &str,
        span: Span,
    ) -> CResult<()> {
        let Some(c) = i.as_cst() else {
            // A size expression: in bounds by proof or by a launch-time precondition.
            let origin = what.to_string();
            for cond in [
                super::Cond::Le(crate::arith::Nat::cst(0), i.clone()),
                super::Cond::Le(i + 1, n.clone()),
            ] {
                self.require(
                    cond,
                    (&origin, "index must be within the length"),
                    span,
                    ErrorKind::OutOfBounds,
                )?;
            }
            return Ok(());
        };
        let bad = c < 0 || self.facts.le(n, i) == Some(true);
        if bad {
            return Err(err(
                ErrorKind::OutOfBounds,
                span,
                format!("{what}: index out of bounds: {c} for length {n}"),
            ));
        }
        if self.facts.le(n, i).is_none() {
            let origin = what.to_string();
            self.require(
                super::Cond::Le(i + 1, n.clone()),
                (&origin, "index must be below the length"),
                span,
                ErrorKind::OutOfBounds,
            )?;
        }
        Ok(())
    }
}

/// The lane type of a vector, or the type itself (for typing literals next to vectors).
fn lane_or_self(t: &Type) -> Type {
    match t {
        Type::Vector(s, _) => Type::Scalar(*s),
        t => t.clone(),
    }
}

/// `x.i` on a tuple type.
pub(crate) fn project(t: &Type, i: usize, span: Span) -> CResult<Type> {
    match t {
        Type::Tuple(ts) => ts.get(i).cloned().ok_or_else(|| {
            err(
                ErrorKind::TupleIndex,
                span,
                format!(
                    "get: tuple index {i} out of range for {t} ({} elements)",
                    ts.len()
                ),
            )
        }),
        t => Err(err(
            ErrorKind::TupleIndex,
            span,
            format!("get: expects a tuple, found {t}"),
        )),
    }
}
