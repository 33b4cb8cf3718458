//! The syntax tree of a `lift!` block, shared by every stage.
//!
//! Functions and data live in one expression type, as in RISE: `map(f)` is an expression of
//! function type, `f $ x` applies it. The type checker fills [`Expr::ty`] on data nodes.

use crate::arith::Nat;
use crate::prim::Prim;
use crate::types::{ScalarType, Type};
use proc_macro2::Span;

mod eq;
mod walk;

pub use walk::pat_names;
pub(crate) use walk::{arg_child, binds, children, children_mut, free, is_free};

/// A whole `lift!` block.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// User functions, in source order.
    pub funs: Vec<UserFun>,
    /// Kernels, in source order.
    pub kernels: Vec<Kernel>,
    /// OpenCL C files pulled in with `include!("file.cl");` (paths relative to the crate
    /// that uses `lift!`), for functions with OpenCL C bodies.
    pub includes: Vec<(String, Span)>,
}

impl Program {
    /// Looks up a user function by name.
    pub fn fun(&self, name: &str) -> Option<&UserFun> {
        self.funs.iter().find(|f| f.name == name)
    }

    /// Looks up a kernel by name.
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

/// A named, typed parameter (of a kernel or user function).
#[derive(Clone, Debug)]
pub struct Param {
    /// Parameter name.
    pub name: String,
    /// Declared type.
    pub ty: Type,
    /// Span of the whole parameter.
    pub span: Span,
}

/// The body of a user function.
#[derive(Clone, Debug)]
pub enum FunBody {
    /// A Rust-subset expression, translated to OpenCL C.
    Expr(Expr),
    /// Verbatim OpenCL C statements (the function body between braces).
    OpenCl(String),
}

/// `fn name(p: T, ...) -> T { body }`.
#[derive(Clone, Debug)]
pub struct UserFun {
    /// Doc comment lines.
    pub docs: Vec<String>,
    /// Function name.
    pub name: String,
    /// Parameters.
    pub params: Vec<Param>,
    /// Result type.
    pub ret: Type,
    /// Body.
    pub body: FunBody,
    /// Span of the name.
    pub span: Span,
}

/// `[pub] kernel Name<SIZES>(params) -> RESULT { expression }`.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Doc comment lines.
    pub docs: Vec<String>,
    /// Declared `pub`.
    pub public: bool,
    /// Kernel name.
    pub name: String,
    /// Size variables in declaration order, with their spans.
    pub sizes: Vec<(String, Span)>,
    /// Parameters (arrays or scalars).
    pub params: Vec<Param>,
    /// Declared result type.
    pub ret: Type,
    /// Span of the declared result type.
    pub ret_span: Span,
    /// The body expression.
    pub body: Expr,
    /// Span of the kernel name.
    pub span: Span,
}

/// The function a dynamic index `x[e]` (an index computed at run time) is applied as:
/// `#index(x, e)`, printed `x[e]`. The index is clamped to `[0, n)`. No user can write
/// the name, so no variable or function of theirs can shadow it.
pub const DYN_INDEX: &str = "#index";

/// How many data arguments the function expression `f` takes, where its form says:
/// a lambda's parameters, a user function's (from `funs`), two for an operator section.
pub fn fun_arity(f: &Expr, funs: &[UserFun]) -> Option<usize> {
    match &f.kind {
        ExprKind::Lambda(ps, _) => Some(ps.len()),
        ExprKind::Section(_) => Some(2),
        ExprKind::Ident(n) => funs.iter().find(|u| &u.name == n).map(|u| u.params.len()),
        ExprKind::Point(_, _, x) => fun_arity(x, funs),
        _ => None,
    }
}

/// An expression with its span and, after type checking, its type (data nodes only).
#[derive(Clone, Debug)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Source location for errors.
    pub span: Span,
    /// The inferred type of a data expression, set by the type checker.
    pub ty: Option<Type>,
}

impl Expr {
    /// A new untyped expression.
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr {
            kind,
            span,
            ty: None,
        }
    }

    /// The primitive and its static arguments, if this is a primitive.
    pub fn as_prim(&self) -> Option<(Prim, &[PrimArg])> {
        match &self.kind {
            ExprKind::Prim(p, a) => Some((*p, a.as_slice())),
            _ => None,
        }
    }

    /// The static arguments, if this is primitive `p`.
    fn args_of(&self, p: Prim) -> Option<&[PrimArg]> {
        self.as_prim().filter(|(q, _)| *q == p).map(|(_, a)| a)
    }

    /// The function argument, if this is primitive `p` (`f` of `map(f)`).
    pub fn prim_fun(&self, p: Prim) -> Option<&Expr> {
        self.args_of(p)?.iter().rev().find_map(PrimArg::as_fun)
    }

    /// The size arguments in order, if this is primitive `p`.
    pub fn prim_nats(&self, p: Prim) -> Option<Vec<Nat>> {
        Some(PrimArg::nats(self.args_of(p)?))
    }

    /// The scalar value argument, if this is primitive `p` (`z` of `reduce(f, z)`).
    pub fn prim_value(&self, p: Prim) -> Option<&Expr> {
        self.args_of(p)?.iter().find_map(PrimArg::as_value)
    }

    /// The index function, if this is `gather`/`scatter` `p`.
    pub fn prim_reorder(&self, p: Prim) -> Option<&Reorder> {
        self.args_of(p)?.iter().find_map(PrimArg::as_reorder)
    }
}

/// A literal value as written. Equality compares floats by their bits (see [`Expr`]'s
/// equality), so `0.0` and `-0.0` differ and a NaN equals itself.
#[derive(Clone, Debug)]
pub enum LitValue {
    /// An integer literal.
    Int(u128),
    /// A floating-point literal.
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
}

/// A binary operator of the scalar subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&&`
    And,
    /// `||`
    Or,
}

impl BinOp {
    /// The operator as written in Rust and OpenCL C.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    /// Does the operator yield `bool`?
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        )
    }

    /// Is it `&&` or `||`?
    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::And | BinOp::Or)
    }
}

/// A unary operator of the scalar subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `!x`
    Not,
}

/// The binary functions usable as operator sections: `reduce(+, 0.0)`, `reduce(max, ...)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// `+`
    Add,
    /// `*`
    Mul,
    /// `min`
    Min,
    /// `max`
    Max,
}

/// A tuple pattern or a name, as bound by a lambda or `let`.
#[derive(Clone, Debug)]
pub enum Pat {
    /// A name.
    Name(String, Span),
    /// `(a, b, ...)`.
    Tuple(Vec<Pat>, Span),
}

/// Boundary handling of `pad`.
#[derive(Clone, Debug)]
pub enum Boundary {
    /// `min(max(i, 0), n - 1)`
    Clamp,
    /// `i < 0: -1 - i; i >= n: 2n - 1 - i`
    Mirror,
    /// `((i % n) + n) % n`
    Wrap,
    /// A constant value.
    Constant(Box<Expr>),
}

/// Index functions of `gather` / `scatter`.
#[derive(Clone, Debug)]
pub enum Reorder {
    /// `n - 1 - i`
    Reverse,
    /// `i / (n / s) + s * (i % (n / s))`
    Stride(Nat, Span),
}

/// A static argument of a primitive, of the kind its table entry asks for.
#[derive(Clone, Debug)]
pub enum PrimArg {
    /// A function (`map(f)`).
    Fun(Expr),
    /// A size or count (`split(4)`, `get(1)`, `map_glb(0, f)`).
    Nat(Nat, Span),
    /// A scalar value (`reduce(+, 0.0)`'s initial value).
    Value(Expr),
    /// A pad boundary.
    Boundary(Boundary, Span),
    /// A gather/scatter index function.
    Reorder(Reorder, Span),
}

impl PrimArg {
    /// The function, if this is one.
    pub fn as_fun(&self) -> Option<&Expr> {
        match self {
            PrimArg::Fun(f) => Some(f),
            _ => None,
        }
    }

    /// The function, mutably, if this is one.
    pub fn as_fun_mut(&mut self) -> Option<&mut Expr> {
        match self {
            PrimArg::Fun(f) => Some(f),
            _ => None,
        }
    }

    /// The scalar value, if this is one.
    pub fn as_value(&self) -> Option<&Expr> {
        match self {
            PrimArg::Value(v) => Some(v),
            _ => None,
        }
    }

    /// The size, if this is one.
    pub fn as_nat(&self) -> Option<&Nat> {
        match self {
            PrimArg::Nat(n, _) => Some(n),
            _ => None,
        }
    }

    /// The index function, if this is one.
    pub fn as_reorder(&self) -> Option<&Reorder> {
        match self {
            PrimArg::Reorder(r, _) => Some(r),
            _ => None,
        }
    }

    /// The size arguments among `args`, in order.
    pub fn nats(args: &[PrimArg]) -> Vec<Nat> {
        args.iter().filter_map(PrimArg::as_nat).cloned().collect()
    }

    /// The dimension argument of a low-level map among `args` (`map_glb(f)` is dimension 0).
    pub fn dim(args: &[PrimArg]) -> usize {
        args.iter()
            .find_map(|a| a.as_nat()?.as_cst())
            .and_then(|d| usize::try_from(d).ok())
            .unwrap_or(0)
    }
}

/// The kinds of expression.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A kernel parameter, lambda or `let` variable, or a user / math function name.
    Ident(String),
    /// A literal; its type comes from the suffix, or from context via the type checker.
    Lit(LitValue, Option<ScalarType>),
    /// A primitive with its static arguments; a function.
    Prim(Prim, Vec<PrimArg>),
    /// An operator section (`+` in `reduce(+, 0.0)`); a binary function.
    Section(Section),
    /// `|x, (a, b)| body`; a function.
    Lambda(Vec<Pat>, Box<Expr>),
    /// `f o g o h`: functions applied right to left; a function.
    Compose(Vec<Expr>),
    /// `f $ x` or `f(x, y)`: a function applied to data arguments.
    Apply(Box<Expr>, Vec<Expr>),
    /// `(a, b, ...)`.
    Tuple(Vec<Expr>),
    /// `x.i`.
    Proj(Box<Expr>, usize),
    /// `x[i]` with a constant index.
    Index(Box<Expr>, Nat),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// A unary operation.
    Unary(UnOp, Box<Expr>),
    /// `if c { a } else { b }`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `e as T`.
    Cast(Box<Expr>, ScalarType),
    /// `let p = e; body` (inside blocks).
    Let(Pat, Box<Expr>, Box<Expr>),
    /// `#[name(args)] e`: a rewrite point on `e`; arguments `None` are left to tuning.
    Point(String, Vec<Option<Nat>>, Box<Expr>),
}
