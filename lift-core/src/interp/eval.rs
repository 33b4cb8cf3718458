//! The evaluator: environments, closures, expressions and function application.

use super::layout;
use super::scalar::{self, Builtin};
use super::value::{Scalar, Value};
use super::{eval_nat, InterpError};
use crate::arith::Nat;
use crate::ir::{BinOp, Expr, ExprKind, FunBody, Pat, PrimArg, Program, Section, UserFun};
use crate::prim::Prim;
use std::cell::RefCell;
use std::rc::Rc;

type Result<T> = std::result::Result<T, InterpError>;

/// An immutable environment of bindings, shared by the closures that capture it.
#[derive(Clone, Default)]
pub(super) struct Env<'p>(Option<Rc<Frame<'p>>>);

struct Frame<'p> {
    name: &'p str,
    val: Val<'p>,
    next: Env<'p>,
}

impl<'p> Env<'p> {
    /// This environment extended with `name = val`.
    pub(super) fn bind(&self, name: &'p str, val: Val<'p>) -> Env<'p> {
        Env(Some(Rc::new(Frame {
            name,
            val,
            next: self.clone(),
        })))
    }

    fn lookup(&self, name: &str) -> Option<&Val<'p>> {
        let mut frame = self.0.as_deref();
        while let Some(f) = frame {
            if f.name == name {
                return Some(&f.val);
            }
            frame = f.next.0.as_deref();
        }
        None
    }
}

/// What an expression evaluates to: data or a function.
#[derive(Clone)]
pub(super) enum Val<'p> {
    /// A data value.
    Data(Value),
    /// A function value.
    Fun(Fun<'p>),
}

/// A function value; closures keep the environment they were built in.
#[derive(Clone)]
pub(super) enum Fun<'p> {
    /// A primitive with its static arguments, evaluated when applied.
    Prim(Prim, &'p [PrimArg], Env<'p>),
    /// An operator section.
    Section(Section),
    /// A lambda.
    Lambda(&'p [Pat], &'p Expr, Env<'p>),
    /// Functions applied right to left.
    Compose(Vec<Fun<'p>>),
    /// A user function.
    User(&'p UserFun),
    /// A math builtin.
    Builtin(Builtin),
}

/// The evaluation context of one kernel: the program and the size variables.
pub(super) struct Interp<'p> {
    /// The program (for user functions).
    pub(super) prog: &'p Program,
    /// Size variables and their values.
    pub(super) sizes: Vec<(&'p str, i64)>,
    /// The user functions being called, innermost last (to refuse recursion).
    pub(super) calls: RefCell<Vec<&'p str>>,
}

impl<'p> Interp<'p> {
    /// The value of a size variable.
    pub(super) fn size(&self, name: &str) -> Option<i64> {
        self.sizes.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }

    /// Evaluates a size expression.
    pub(super) fn nat(&self, n: &Nat) -> Result<usize> {
        eval_nat(n, &|s| self.size(s))
    }

    /// Evaluates an expression that must be data.
    pub(super) fn data(&self, e: &'p Expr, env: &Env<'p>) -> Result<Value> {
        match self.eval(e, env)? {
            Val::Data(v) => Ok(v),
            Val::Fun(_) => Err(InterpError::TypeMismatch(
                "expected data, found a function".into(),
            )),
        }
    }

    /// Evaluates an expression that must be a function.
    pub(super) fn fun(&self, e: &'p Expr, env: &Env<'p>) -> Result<Fun<'p>> {
        match self.eval(e, env)? {
            Val::Fun(f) => Ok(f),
            Val::Data(v) => Err(InterpError::TypeMismatch(format!(
                "expected a function, found data {}",
                v.describe()
            ))),
        }
    }

    fn boolean(&self, e: &'p Expr, env: &Env<'p>) -> Result<bool> {
        match self.data(e, env)? {
            Value::Scalar(Scalar::Bool(b)) => Ok(b),
            v => Err(InterpError::TypeMismatch(format!(
                "expected bool, found {}",
                v.describe()
            ))),
        }
    }

    /// Evaluates an expression.
    pub(super) fn eval(&self, e: &'p Expr, env: &Env<'p>) -> Result<Val<'p>> {
        let data = |v: Value| Ok(Val::Data(v));
        match &e.kind {
            ExprKind::Ident(name) => self.ident(name, env),
            ExprKind::Lit(v, suffix) => data(scalar::literal(v, *suffix, e.ty.as_ref())?),
            ExprKind::Prim(p, args) => Ok(Val::Fun(Fun::Prim(*p, args, env.clone()))),
            ExprKind::Section(s) => Ok(Val::Fun(Fun::Section(*s))),
            ExprKind::Lambda(pats, body) => Ok(Val::Fun(Fun::Lambda(pats, body, env.clone()))),
            ExprKind::Compose(fs) => {
                let fs = fs.iter().map(|f| self.fun(f, env)).collect::<Result<_>>()?;
                Ok(Val::Fun(Fun::Compose(fs)))
            }
            ExprKind::Apply(f, args)
                if matches!(&f.kind, ExprKind::Ident(n) if n == crate::ir::DYN_INDEX)
                    && args.len() == 2 =>
            {
                let x = self.data(&args[0], env)?;
                let i = match self.data(&args[1], env)? {
                    Value::Scalar(s) => s.to_f64() as i64,
                    v => {
                        return Err(InterpError::TypeMismatch(format!(
                            "x[i]: the index must be an integer, found {}",
                            v.describe()
                        )))
                    }
                };
                let n = layout::as_array(&x, "x[i]")?.len() as i64;
                data(layout::at(x, i.clamp(0, (n - 1).max(0)) as usize, "x[i]")?)
            }
            ExprKind::Apply(f, args) => {
                let f = self.fun(f, env)?;
                let args = args
                    .iter()
                    .map(|a| self.data(a, env))
                    .collect::<Result<_>>()?;
                data(self.apply(&f, args)?)
            }
            ExprKind::Tuple(es) => data(Value::Tuple(
                es.iter()
                    .map(|x| self.data(x, env))
                    .collect::<Result<_>>()?,
            )),
            ExprKind::Proj(x, i) => data(layout::field(self.data(x, env)?, *i, "x.i")?),
            ExprKind::Index(x, i) => data(layout::at(self.data(x, env)?, self.nat(i)?, "x[i]")?),
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), l, r) => {
                let l = self.boolean(l, env)?;
                let b = if l == (*op == BinOp::Or) {
                    l
                } else {
                    self.boolean(r, env)?
                };
                data(Value::Scalar(Scalar::Bool(b)))
            }
            ExprKind::Binary(op, l, r) => data(scalar::binary(
                *op,
                &self.data(l, env)?,
                &self.data(r, env)?,
            )?),
            ExprKind::Unary(op, x) => data(scalar::unary(*op, &self.data(x, env)?)?),
            ExprKind::If(c, a, b) => self.eval(if self.boolean(c, env)? { a } else { b }, env),
            ExprKind::Cast(x, t) => data(scalar::cast_value(&self.data(x, env)?, *t)?),
            ExprKind::Let(p, v, body) => {
                let v = self.eval(v, env)?;
                self.eval(body, &bind(p, v, env)?)
            }
            ExprKind::Point(_, _, x) => self.eval(x, env),
        }
    }

    fn ident(&self, name: &'p str, env: &Env<'p>) -> Result<Val<'p>> {
        if let Some(v) = env.lookup(name) {
            return Ok(v.clone());
        }
        if let Some(f) = self.prog.fun(name) {
            return Ok(Val::Fun(Fun::User(f)));
        }
        Builtin::from_name(name)
            .map(|b| Val::Fun(Fun::Builtin(b)))
            .ok_or_else(|| InterpError::UnknownName(name.to_string()))
    }

    /// Applies a function to data arguments.
    pub(super) fn apply(&self, f: &Fun<'p>, mut args: Vec<Value>) -> Result<Value> {
        // A function of k arguments applied to one tuple of k components takes the components.
        let params = match f {
            Fun::Lambda(pats, ..) => pats.len(),
            Fun::User(uf) => uf.params.len(),
            Fun::Section(_) => 2,
            _ => 1,
        };
        if let [Value::Tuple(parts)] = &args[..] {
            if params > 1 && parts.len() == params {
                args = parts.clone();
            }
        }
        match f {
            Fun::Prim(p, pargs, env) => self.prim(*p, pargs, env, args),
            Fun::Section(s) => match args.as_slice() {
                [a, b] => scalar::section(*s, a, b),
                _ => Err(arity(&format!("{s:?}"), 2, args.len())),
            },
            Fun::Lambda(pats, body, env) => {
                if pats.len() != args.len() {
                    return Err(arity("lambda", pats.len(), args.len()));
                }
                let mut env = env.clone();
                for (p, a) in pats.iter().zip(args) {
                    env = bind(p, Val::Data(a), &env)?;
                }
                self.data(body, &env)
            }
            Fun::Compose(fs) => {
                let mut fs = fs.iter().rev();
                let Some(first) = fs.next() else {
                    return single(args, "composition");
                };
                let mut v = self.apply(first, args)?;
                for g in fs {
                    v = self.apply(g, vec![v])?;
                }
                Ok(v)
            }
            Fun::User(uf) => self.call_user(uf, args),
            Fun::Builtin(b) => scalar::builtin(*b, &args),
        }
    }

    fn call_user(&self, uf: &'p UserFun, args: Vec<Value>) -> Result<Value> {
        if uf.params.len() != args.len() {
            return Err(arity(&uf.name, uf.params.len(), args.len()));
        }
        let body = match &uf.body {
            FunBody::Expr(e) => e,
            FunBody::OpenCl(_) => {
                return Err(InterpError::Unsupported(format!(
                    "user function `{}` has an OpenCL C body, which the interpreter cannot run",
                    uf.name
                )))
            }
        };
        if self.calls.borrow().contains(&uf.name.as_str()) {
            return Err(InterpError::Unsupported(format!(
                "user function `{}` is recursive, which OpenCL C does not allow",
                uf.name
            )));
        }
        let env = uf
            .params
            .iter()
            .zip(args)
            .fold(Env::default(), |env, (p, a)| {
                env.bind(&p.name, Val::Data(a))
            });
        self.calls.borrow_mut().push(&uf.name);
        let out = self.data(body, &env);
        self.calls.borrow_mut().pop();
        out
    }
}

/// `env` extended with the names of `pat` bound to the parts of `v`.
fn bind<'p>(pat: &'p Pat, v: Val<'p>, env: &Env<'p>) -> Result<Env<'p>> {
    match (pat, v) {
        (Pat::Name(n, _), v) => Ok(env.bind(n, v)),
        (Pat::Tuple(ps, _), Val::Data(Value::Tuple(vs))) if ps.len() == vs.len() => {
            let mut env = env.clone();
            for (p, v) in ps.iter().zip(vs) {
                env = bind(p, Val::Data(v), &env)?;
            }
            Ok(env)
        }
        (Pat::Tuple(ps, _), Val::Data(v)) => Err(InterpError::TypeMismatch(format!(
            "tuple pattern of {} fields bound to {}",
            ps.len(),
            v.describe()
        ))),
        (Pat::Tuple(..), Val::Fun(_)) => Err(InterpError::TypeMismatch(
            "tuple pattern bound to a function".into(),
        )),
    }
}

/// An arity error.
pub(super) fn arity(what: &str, expected: usize, actual: usize) -> InterpError {
    InterpError::Arity {
        what: what.to_string(),
        expected,
        actual,
    }
}

/// The only element of `args`.
pub(super) fn single(args: Vec<Value>, what: &str) -> Result<Value> {
    let n = args.len();
    let mut it = args.into_iter();
    match (it.next(), it.next()) {
        (Some(v), None) => Ok(v),
        _ => Err(arity(what, 1, n)),
    }
}
