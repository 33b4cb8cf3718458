//! The OpenCL C syntax tree: a translation unit of struct types, functions and kernels, whose
//! bodies are statements over expressions. Code generation builds it; the passes of
//! [`super`] (barrier placement, empty-loop removal, merging of stage kernels) work on it;
//! [`super::print`] writes it out last.

use crate::arith::Nat;
use crate::codegen::memory::Space;
use std::sync::Arc;

/// An OpenCL C scalar type ([`super::print`] spells them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CScalar {
    Float,
    Double,
    Int,
    Uint,
    Long,
    Ulong,
    Bool,
    /// 16-bit floats, a storage type only (`vload_half`, `vstore_half`).
    Half,
    /// `bool` in memory and in kernel parameters.
    Uchar,
    /// `lift_idx`, the type of index arithmetic (`int` or `long`, see
    /// [`crate::codegen::INDEX_PRELUDE`]).
    Idx,
}

/// An OpenCL C type ([`super::print`] spells them; [`crate::codegen::ctypes`] gives those of
/// lift-rs types).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CType {
    /// A scalar.
    Scalar(CScalar),
    /// A vector of a number of lanes, `float4`.
    Vector(CScalar, u32),
    /// A tuple struct by its field types, `Tuple_float_int` (declared in [`Unit::structs`]).
    Struct(Arc<[CType]>),
    /// A pointer to elements in an address space (no qualifier in private memory), `const`
    /// for reads.
    Pointer {
        space: Space,
        konst: bool,
        elem: Box<CType>,
    },
}

impl From<CScalar> for CType {
    fn from(s: CScalar) -> CType {
        CType::Scalar(s)
    }
}

impl CType {
    /// A pointer to `elem` in `space`, to `const` data when `konst`.
    pub(crate) fn pointer(space: Space, elem: CType, konst: bool) -> CType {
        CType::Pointer {
            space,
            konst,
            elem: Box::new(elem),
        }
    }
}

/// A C expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CExpr {
    /// A variable, parameter or constant name.
    Var(String),
    /// An integer literal.
    Int(i64),
    /// A literal of the scalar subset as printed (`1.5f`, `-2`, `3u`, `true`, `NAN`), built by
    /// [`crate::codegen::scalar::literal`].
    Lit(String),
    /// Index arithmetic over size variables and indices, printed in C.
    Nat(Nat),
    /// The flat index of an element of a local array: index arithmetic once lowered
    /// ([`LocalAt::flat`]).
    Local(LocalAt),
    /// A call of a builtin or user function: `f(a, b)`.
    Call(String, Vec<CExpr>),
    /// `base[index]`.
    Index(Box<CExpr>, Box<CExpr>),
    /// `base.member`: a struct field (`_0`) or a vector lane (`s3`).
    Member(Box<CExpr>, String),
    /// `a op b`.
    Bin(BinOp, Box<CExpr>, Box<CExpr>),
    /// `pointer + offset`: a buffer's pointer advanced by an index, whose terms are added to
    /// the pointer one by one (a sum is not parenthesised).
    Offset(Box<CExpr>, Index),
    /// `!(a)`.
    Not(Box<CExpr>),
    /// `-a`.
    Neg(Box<CExpr>),
    /// A C cast, `(ty)a`.
    Cast(CType, Box<CExpr>),
    /// OpenCL's conversion of a vector to another lane type, `convert_ty(a)`.
    Convert(CType, Box<CExpr>),
    /// `c ? a : b`.
    Cond(Box<CExpr>, Box<CExpr>, Box<CExpr>),
    /// A vector literal, `(ty)(a, b, ...)` (one component: every lane).
    Vector(CType, Vec<CExpr>),
    /// A struct (tuple) literal, `(ty){a, b, ...}`.
    Struct(CType, Vec<CExpr>),
}

/// The binary operators: the generator's own and those of the scalar subset
/// ([`crate::ir::BinOp`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    /// How tightly it binds in C (higher binds tighter).
    pub(crate) const fn precedence(self) -> u8 {
        match self {
            BinOp::Mul | BinOp::Div | BinOp::Rem => 6,
            BinOp::Add | BinOp::Sub => 5,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 4,
            BinOp::Eq | BinOp::Ne => 3,
            BinOp::And => 2,
            BinOp::Or => 1,
        }
    }

    /// The C operator.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Ne => "!=",
            BinOp::Or => "||",
            BinOp::Eq => "==",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::And => "&&",
        }
    }
}

impl From<crate::ir::BinOp> for BinOp {
    fn from(op: crate::ir::BinOp) -> BinOp {
        use crate::ir::BinOp as Ir;
        match op {
            Ir::Add => BinOp::Add,
            Ir::Sub => BinOp::Sub,
            Ir::Mul => BinOp::Mul,
            Ir::Div => BinOp::Div,
            Ir::Rem => BinOp::Rem,
            Ir::Lt => BinOp::Lt,
            Ir::Le => BinOp::Le,
            Ir::Gt => BinOp::Gt,
            Ir::Ge => BinOp::Ge,
            Ir::Eq => BinOp::Eq,
            Ir::Ne => BinOp::Ne,
            Ir::And => BinOp::And,
            Ir::Or => BinOp::Or,
        }
    }
}

impl CExpr {
    /// A variable.
    pub(crate) fn var(name: impl Into<String>) -> CExpr {
        CExpr::Var(name.into())
    }

    /// A literal as printed.
    pub(crate) fn lit(text: impl Into<String>) -> CExpr {
        CExpr::Lit(text.into())
    }

    /// `f(args)`.
    pub(crate) fn call(f: &str, args: Vec<CExpr>) -> CExpr {
        CExpr::Call(f.to_string(), args)
    }

    /// `self op rhs`.
    pub(crate) fn bin(self, op: BinOp, rhs: CExpr) -> CExpr {
        CExpr::Bin(op, Box::new(self), Box::new(rhs))
    }

    /// `a op b` of two index expressions: a guard over sizes and indices.
    pub(crate) fn cmp(a: &Nat, op: BinOp, b: &Nat) -> CExpr {
        CExpr::Nat(a.clone()).bin(op, CExpr::Nat(b.clone()))
    }

    /// `self && rhs`.
    pub(crate) fn and(self, rhs: CExpr) -> CExpr {
        self.bin(BinOp::And, rhs)
    }

    /// `!(self)`.
    pub(crate) fn not(self) -> CExpr {
        CExpr::Not(Box::new(self))
    }

    /// `self.m`.
    pub(crate) fn member(self, m: impl Into<String>) -> CExpr {
        CExpr::Member(Box::new(self), m.into())
    }

    /// `self[i]`.
    pub(crate) fn index(self, i: CExpr) -> CExpr {
        CExpr::Index(Box::new(self), Box::new(i))
    }

    /// `-self`.
    pub(crate) fn neg(self) -> CExpr {
        CExpr::Neg(Box::new(self))
    }

    /// `(ty)self`.
    pub(crate) fn cast(self, ty: impl Into<CType>) -> CExpr {
        CExpr::Cast(ty.into(), Box::new(self))
    }

    /// `self ? a : b`.
    pub(crate) fn cond(self, a: CExpr, b: CExpr) -> CExpr {
        CExpr::Cond(Box::new(self), Box::new(a), Box::new(b))
    }

    /// `(ty)(self)`: a vector of `ty` with every lane `self` (a vector of `ty` unchanged).
    pub(crate) fn splat(self, ty: CType) -> CExpr {
        CExpr::Vector(ty, vec![self])
    }

    /// Its direct sub-expressions (an `Offset`'s index is index arithmetic, not one).
    pub(crate) fn children(&self) -> Vec<&CExpr> {
        match self {
            CExpr::Call(_, xs) | CExpr::Vector(_, xs) | CExpr::Struct(_, xs) => xs.iter().collect(),
            CExpr::Index(x, y) | CExpr::Bin(_, x, y) => vec![x, y],
            CExpr::Member(x, _)
            | CExpr::Offset(x, _)
            | CExpr::Not(x)
            | CExpr::Neg(x)
            | CExpr::Cast(_, x)
            | CExpr::Convert(_, x) => vec![x],
            CExpr::Cond(c, x, y) => vec![c, x, y],
            CExpr::Var(_) | CExpr::Int(_) | CExpr::Lit(_) | CExpr::Nat(_) | CExpr::Local(_) => {
                Vec::new()
            }
        }
    }

    /// The expression with each direct sub-expression replaced by what `f` gives for it (an
    /// `Offset`'s index stays).
    pub(crate) fn map_children(self, f: &mut impl FnMut(CExpr) -> CExpr) -> CExpr {
        let mut b = |x: Box<CExpr>| Box::new(f(*x));
        match self {
            CExpr::Call(name, xs) => CExpr::Call(name, xs.into_iter().map(&mut *f).collect()),
            CExpr::Vector(t, xs) => CExpr::Vector(t, xs.into_iter().map(&mut *f).collect()),
            CExpr::Struct(t, xs) => CExpr::Struct(t, xs.into_iter().map(&mut *f).collect()),
            CExpr::Index(x, y) => CExpr::Index(b(x), b(y)),
            CExpr::Bin(op, x, y) => CExpr::Bin(op, b(x), b(y)),
            CExpr::Member(x, m) => CExpr::Member(b(x), m),
            CExpr::Offset(x, i) => CExpr::Offset(b(x), i),
            CExpr::Not(x) => CExpr::Not(b(x)),
            CExpr::Neg(x) => CExpr::Neg(b(x)),
            CExpr::Cast(t, x) => CExpr::Cast(t, b(x)),
            CExpr::Convert(t, x) => CExpr::Convert(t, b(x)),
            CExpr::Cond(c, x, y) => CExpr::Cond(b(c), b(x), b(y)),
            e @ (CExpr::Var(_)
            | CExpr::Int(_)
            | CExpr::Lit(_)
            | CExpr::Nat(_)
            | CExpr::Local(_)) => e,
        }
    }

    /// Whether the expression is a name or a literal, possibly with members selected: cheap
    /// to repeat.
    pub(crate) fn is_simple(&self) -> bool {
        match self {
            CExpr::Var(_) | CExpr::Int(_) | CExpr::Lit(_) => true,
            CExpr::Member(e, _) => e.is_simple(),
            _ => false,
        }
    }
}

/// Which memory a barrier orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Fence {
    pub local: bool,
    pub global: bool,
}

/// A statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stmt {
    /// `[const] ty name [= init];`
    Decl {
        ty: CType,
        name: String,
        init: Option<CExpr>,
        konst: bool,
    },
    /// An array of constant length, `[space] ty name[len];` (private, or local in the body of
    /// a kernel).
    Array {
        space: Space,
        ty: CType,
        name: String,
        len: i64,
    },
    /// `place = value;`
    Assign { place: CExpr, value: CExpr },
    /// `place += value;`
    AddAssign { place: CExpr, value: CExpr },
    /// An expression evaluated for its effect, `e;`.
    Expr(CExpr),
    /// `{ ... }`: a scope.
    Block(Vec<Stmt>),
    /// `if (cond) { ... } [else { ... }]`.
    If {
        cond: CExpr,
        then: Vec<Stmt>,
        otherwise: Option<Vec<Stmt>>,
    },
    /// `if (cond) stmt` on one line (a guarded single statement).
    When { cond: CExpr, stmt: Box<Stmt> },
    /// `for (lift_idx var = from; var < bound; var += step) { ... }`, under `#pragma unroll`
    /// when `unroll`.
    For {
        var: String,
        from: CExpr,
        bound: CExpr,
        step: CExpr,
        unroll: bool,
        body: Vec<Stmt>,
    },
    /// `break;`
    Break,
    /// `return value;`
    Return(CExpr),
    /// `barrier(fences);`
    Barrier(Fence),
    /// An event of the memory-access graph (see [`crate::codegen::barriers`]); barrier
    /// placement removes them all. Never printed.
    Mark(Mark),
}

/// An event of the memory-access graph, by its index in the graph's tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// An access to shared memory.
    Access(Touch),
    /// A point where a barrier may go.
    Slot(usize),
    /// A loop opens (before its first statement).
    Open(usize),
    /// A loop closes.
    Close(usize),
}

/// An access to shared memory (local, or a global temporary) as the passes over the tree
/// see it: barrier placement ([`crate::codegen::barriers`]) and bank padding
/// ([`crate::codegen::banks`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Touch {
    /// Its entry in the memory-access graph's table of accesses.
    pub id: usize,
    /// The element it touches.
    pub at: Index,
    /// Local memory of 4-byte words only: words per element of the buffer (a `float4` is 4)
    /// and words touched per work-item, for the bank model.
    pub words: Option<(i64, i64)>,
}

/// An element of a local array by its index in each dimension: row-major over the
/// dimensions' extents, so that bank padding widens a row by widening the last extent.
/// Lowered to one flat index with the kernel's divisibility facts ([`LocalAt::flat`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LocalAt {
    /// The array's C name.
    pub buf: String,
    /// Per dimension, outermost first: the index and the extent.
    pub at: Vec<(Nat, Nat)>,
    /// One lane of a vector element read or written as a scalar, `(lane, width)`: the
    /// index `element * width + lane` of the array seen as scalars.
    pub lane: Option<(Nat, u32)>,
}

/// An element index into a buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Index {
    /// Index arithmetic.
    Flat(Nat),
    /// An element of a local array, flattened when lowered.
    Local(LocalAt),
}

/// A kernel or function parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Param {
    /// The address space of a pointer parameter; `None` for a value.
    pub space: Option<Space>,
    /// `const` data.
    pub konst: bool,
    /// The element (or value) type.
    pub ty: CType,
    /// `restrict` (pointers only).
    pub restrict: bool,
    pub name: String,
}

impl Param {
    /// A value parameter, `ty name`.
    pub(crate) fn value(ty: impl Into<CType>, name: impl Into<String>) -> Param {
        Param {
            space: None,
            konst: false,
            ty: ty.into(),
            restrict: false,
            name: name.into(),
        }
    }

    /// A pointer parameter, `space ty* name`.
    pub(crate) fn pointer(space: Space, ty: impl Into<CType>, name: impl Into<String>) -> Param {
        Param {
            space: Some(space),
            ..Param::value(ty, name)
        }
    }

    /// An input buffer, `const global ty* restrict name`.
    pub(crate) fn input(ty: impl Into<CType>, name: impl Into<String>) -> Param {
        Param {
            konst: true,
            restrict: true,
            ..Param::pointer(Space::Global, ty, name)
        }
    }
}

/// A local array of the kernel with a size known at compile time, `local ty name[len];`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LocalArray {
    pub ty: CType,
    pub name: String,
    /// Elements, padding included.
    pub len: i64,
    /// Bytes per element.
    pub elem_bytes: i64,
    /// The length of its rows (its last dimension), where the value it holds has two or more
    /// dimensions (besides the copies of enclosing `map_lcl`s): rows that bank padding may
    /// widen ([`crate::codegen::banks`]).
    pub row: Option<i64>,
}

/// A kernel function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct KernelDef {
    pub name: String,
    /// The exact work-group size it requires, per dimension (`reqd_work_group_size`).
    pub local_size: Option<Vec<Nat>>,
    pub params: Vec<Param>,
    /// Size variables (C names), each bound to its build-time constant or its parameter
    /// (see [`crate::codegen::SIZE_MACRO`]).
    pub sizes: Vec<String>,
    pub locals: Vec<LocalArray>,
    /// Local arrays are declared 16-byte aligned (see [`crate::codegen::emit::Gen`]).
    pub align_locals: bool,
    pub body: Vec<Stmt>,
}

/// The body of a user function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FunBody {
    /// Compiled from the program.
    Stmts(Vec<Stmt>),
    /// The OpenCL C the user wrote (`fun f(..) -> T { opencl "..." }`).
    Verbatim(String),
}

/// A user function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Function {
    pub ret: CType,
    pub name: String,
    pub params: Vec<Param>,
    pub body: FunBody,
}

/// A tuple type, `typedef struct { f0 _0; f1 _1; ... } name;`, named after its fields
/// ([`CType::Struct`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Struct {
    pub fields: Arc<[CType]>,
}

/// An OpenCL C translation unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Unit {
    /// `cl_khr_fp64` is enabled.
    pub fp64: bool,
    pub structs: Vec<Struct>,
    pub functions: Vec<Function>,
    /// The race checker's logging function is included ([`crate::codegen::trace::HELPER`]).
    pub trace_helper: bool,
    pub kernels: Vec<KernelDef>,
}

/// Calls `f` on every statement of `body`, inner ones included, in program order (a
/// compound statement before its contents).
pub(crate) fn visit(body: &[Stmt], f: &mut impl FnMut(&Stmt)) {
    for s in body {
        f(s);
        match s {
            Stmt::Block(b) | Stmt::For { body: b, .. } => visit(b, f),
            Stmt::If {
                then, otherwise, ..
            } => {
                visit(then, f);
                if let Some(o) = otherwise {
                    visit(o, f);
                }
            }
            Stmt::When { stmt, .. } => visit(std::slice::from_ref(stmt), f),
            _ => {}
        }
    }
}

/// Rebuilds `body` bottom-up: each statement (its contents already rebuilt) is replaced by
/// what `f` gives for it.
pub(crate) fn rebuild(body: Vec<Stmt>, f: &mut impl FnMut(Stmt) -> Vec<Stmt>) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(body.len());
    for s in body {
        let s = match s {
            Stmt::Block(b) => Stmt::Block(rebuild(b, f)),
            Stmt::For {
                var,
                from,
                bound,
                step,
                unroll,
                body,
            } => Stmt::For {
                var,
                from,
                bound,
                step,
                unroll,
                body: rebuild(body, f),
            },
            Stmt::If {
                cond,
                then,
                otherwise,
            } => Stmt::If {
                cond,
                then: rebuild(then, f),
                otherwise: otherwise.map(|o| rebuild(o, f)),
            },
            s => s,
        };
        out.extend(f(s));
    }
    out
}

impl Stmt {
    /// The expressions of the statement itself (not of the statements inside it).
    pub(crate) fn own_exprs(&self) -> Vec<&CExpr> {
        match self {
            Stmt::Decl { init, .. } => init.iter().collect(),
            Stmt::Assign { place, value } | Stmt::AddAssign { place, value } => vec![place, value],
            Stmt::Expr(e) | Stmt::Return(e) => vec![e],
            Stmt::If { cond, .. } | Stmt::When { cond, .. } => vec![cond],
            Stmt::For {
                from, bound, step, ..
            } => vec![from, bound, step],
            Stmt::Array { .. }
            | Stmt::Block(_)
            | Stmt::Break
            | Stmt::Barrier(_)
            | Stmt::Mark(_) => Vec::new(),
        }
    }

    /// The statement with every expression in it replaced by what `f` gives for it: its own
    /// and those of the statements nested in it, in program order. Types, names and access
    /// marks are kept.
    pub(crate) fn map_exprs(self, f: &mut impl FnMut(CExpr) -> CExpr) -> Stmt {
        fn body(b: Vec<Stmt>, f: &mut impl FnMut(CExpr) -> CExpr) -> Vec<Stmt> {
            b.into_iter().map(|s| s.map_exprs(f)).collect()
        }
        match self {
            Stmt::Decl {
                ty,
                name,
                init,
                konst,
            } => Stmt::Decl {
                ty,
                name,
                init: init.map(&mut *f),
                konst,
            },
            Stmt::Assign { place, value } => Stmt::Assign {
                place: f(place),
                value: f(value),
            },
            Stmt::AddAssign { place, value } => Stmt::AddAssign {
                place: f(place),
                value: f(value),
            },
            Stmt::Expr(e) => Stmt::Expr(f(e)),
            Stmt::Return(e) => Stmt::Return(f(e)),
            Stmt::Block(b) => Stmt::Block(body(b, f)),
            Stmt::If {
                cond,
                then,
                otherwise,
            } => Stmt::If {
                cond: f(cond),
                then: body(then, f),
                otherwise: otherwise.map(|o| body(o, f)),
            },
            Stmt::When { cond, stmt } => Stmt::When {
                cond: f(cond),
                stmt: Box::new(stmt.map_exprs(f)),
            },
            Stmt::For {
                var,
                from,
                bound,
                step,
                unroll,
                body: b,
            } => Stmt::For {
                var,
                from: f(from),
                bound: f(bound),
                step: f(step),
                unroll,
                body: body(b, f),
            },
            s @ (Stmt::Array { .. } | Stmt::Break | Stmt::Barrier(_) | Stmt::Mark(_)) => s,
        }
    }
}
