//! The generator, in destination-passing style: [`Gen::acc`] writes the value of an
//! expression into an output view, [`Gen::value`] gives the view of an expression (emitting
//! code, and allocating a temporary, only for functions that compute arrays). Layout
//! primitives applied to a computation move to the output side (`join $ x` into `out` is `x`
//! into `split(out)`), so intermediate results are only stored where a user function writes.

use super::barriers::Mag;
use super::cl::ast::{KernelDef, LocalArray};
use super::cl::{self, CExpr, CScalar, Param, Stmt};
use super::ctypes::CTypes;
use super::launch::{self, Launch};
use super::loops::Unroll;
use super::memory::{Buffer, Space};
use super::view::{self, View};
use super::{CodegenError, GResult, GeneratedKernel, KernelArg, Temporary};
use crate::arith::{Facts, Nat};
use crate::ir::{Expr, ExprKind, Kernel, Pat, Program};
use crate::typeck::{Cond, KernelInfo};
use crate::types::Type;
use std::rc::Rc;

/// The kind of an enclosing parallel loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Par {
    Glb,
    Wrg,
    Lcl,
}

/// An enclosing parallel loop: its index and trip count.
pub(crate) struct ParLoop {
    pub par: Par,
    pub idx: Nat,
    pub trip: Nat,
}

/// A data argument: an expression, functions still to apply (`fs[0] o fs[1] o ... $ args`),
/// or a view already built, with its type.
#[derive(Clone)]
pub(crate) enum Arg<'e> {
    Expr(&'e Expr),
    Chain(&'e [Expr], Vec<Arg<'e>>),
    View(View, Type),
}

/// The code generator's state for one kernel (or one user function).
pub(crate) struct Gen<'a> {
    pub prog: &'a Program,
    pub facts: Facts,
    pub ct: CTypes,
    pub launch: Launch,
    /// The statements emitted so far into the innermost open body.
    body: Vec<Stmt>,
    pub local_decls: Vec<LocalArray>,
    /// Local buffers sized by size variables: kernel parameter and bytes.
    pub local_params: Vec<(Param, Nat)>,
    pub temporaries: Vec<Temporary>,
    pub temp_params: Vec<Param>,
    counter: usize,
    pub par: Vec<ParLoop>,
    pub write_to: Option<Space>,
    /// Inside `vectorize(w, f)`: `w`. The body of `f` is typed lane by lane (scalars) but
    /// computes on vectors of `w` lanes.
    pub vector_width: Option<u32>,
    /// The outermost loop open now that only some work-items of a group run (or run more
    /// often than others): a barrier inside is not reached by all.
    pub divergent: Option<usize>,
    /// Array copies are unrolled (indices into private windows must be constants).
    pub unroll_copies: bool,
    /// A loop over local or global memory was left to the device compiler to unroll
    /// ([`super::loops::Unroll::Pragma`]): the kernel's local arrays are declared 16-byte
    /// aligned, so that the unrolled copies' `vload4`s at multiples of 4 become single wide
    /// loads. (Without such a loop they keep their natural alignment: the wide loads need
    /// registers in groups of four, which can cost a work-group per multiprocessor.)
    pub pragma_unrolled: bool,
    /// The memory-access graph barriers are placed from ([`super::barriers`]).
    pub mag: Mag,
    pub lcl_loops: usize,
    /// Loops over global work-items or work-groups opened so far.
    pub grid_loops: usize,
    /// Race checker: whether accesses are logged ([`super::trace`]; kernels compiled by
    /// [`compile_kernel`] only), the buffers traced so far (name, local) and the inputs,
    /// never traced.
    pub trace: bool,
    pub traced: Vec<(String, bool)>,
    /// For a kernel whose result is a capped array (`filter_seq`): the `global int*`
    /// parameter its length is written to, until the filter writing the result took it.
    pub count_out: Option<String>,
    /// The primitive applications being materialised, innermost last (by node address): a
    /// primitive that neither writes to memory nor gives a view would otherwise ask for
    /// itself to be materialised again, without end (refused after a bounded nesting).
    pub materialising: Vec<*const Expr>,
    inputs: Vec<String>,
    env: Vec<(String, View)>,
}

/// What compiling one kernel gives.
pub(crate) struct Output {
    pub unit: cl::Unit,
    pub kernel: GeneratedKernel,
    pub temporaries: Vec<Temporary>,
}

pub(crate) fn ty_of(e: &Expr) -> GResult<Type> {
    e.ty.clone()
        .ok_or_else(|| CodegenError::Internal(format!("untyped node: {}", crate::print::expr(e))))
}

/// The element type and length of an array type.
pub(crate) fn array_of(t: &Type) -> GResult<(Type, Nat)> {
    match t {
        Type::Array(e, n) => Ok(((**e).clone(), n.clone())),
        t => Err(CodegenError::Internal(format!(
            "expected an array, found {t}"
        ))),
    }
}

pub(crate) use crate::cnames::c_name;

impl<'a> Gen<'a> {
    pub(crate) fn new(prog: &'a Program, facts: Facts, launch: Launch) -> Gen<'a> {
        Gen {
            prog,
            facts,
            ct: CTypes::default(),
            launch,
            body: Vec::new(),
            local_decls: Vec::new(),
            local_params: Vec::new(),
            temporaries: Vec::new(),
            temp_params: Vec::new(),
            counter: 0,
            par: Vec::new(),
            write_to: None,
            vector_width: None,
            divergent: None,
            unroll_copies: false,
            pragma_unrolled: false,
            mag: Mag::default(),
            lcl_loops: 0,
            grid_loops: 0,
            trace: false,
            traced: Vec::new(),
            count_out: None,
            materialising: Vec::new(),
            inputs: Vec::new(),
            env: Vec::new(),
        }
    }

    /// A fresh C name with this prefix (a user's name as its C identifier): ends with a
    /// number, as no user name's identifier does ([`crate::cnames`]).
    pub(crate) fn fresh(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{}_{}", c_name(prefix), self.counter)
    }

    /// Emits a statement.
    pub(crate) fn emit(&mut self, s: Stmt) {
        self.body.push(s);
    }

    /// Emits statements.
    pub(crate) fn extend(&mut self, stmts: Vec<Stmt>) {
        self.body.extend(stmts);
    }

    /// Runs `f`, returning the statements it emitted instead of emitting them.
    pub(crate) fn capture<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> GResult<T>,
    ) -> GResult<(Vec<Stmt>, T)> {
        let (got, r) = self.nest(f);
        Ok((got, r?))
    }

    /// [`Gen::capture`], giving the statements emitted before an error too.
    pub(crate) fn nest<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> GResult<T>,
    ) -> (Vec<Stmt>, GResult<T>) {
        let saved = std::mem::take(&mut self.body);
        let r = f(self);
        (std::mem::replace(&mut self.body, saved), r)
    }

    /// The statements emitted so far, removed from the generator.
    pub(crate) fn take_body(&mut self) -> Vec<Stmt> {
        std::mem::take(&mut self.body)
    }

    /// Binds a pattern to a view.
    pub(crate) fn bind(&mut self, pat: &Pat, v: View) {
        match pat {
            Pat::Name(n, _) => self.env.push((n.clone(), v)),
            Pat::Tuple(ps, _) => {
                for (k, p) in ps.iter().enumerate() {
                    self.bind(p, v.get(k));
                }
            }
        }
    }

    pub(crate) fn scope(&self) -> usize {
        self.env.len()
    }

    pub(crate) fn unbind(&mut self, depth: usize) {
        self.env.truncate(depth);
    }

    pub(crate) fn lookup(&self, name: &str) -> Option<View> {
        self.env
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    }

    /// The type of an argument.
    pub(crate) fn arg_ty(a: &Arg) -> GResult<Type> {
        match a {
            Arg::Expr(e) => ty_of(e),
            Arg::Chain(fs, _) => fs
                .first()
                .map(ty_of)
                .unwrap_or_else(|| Err(CodegenError::Internal("empty chain".into()))),
            Arg::View(_, t) => Ok(t.clone()),
        }
    }

    /// The C expression reading a non-array view of type `ty`.
    pub(crate) fn read(&mut self, v: &View, ty: &Type) -> GResult<CExpr> {
        let loc = view::resolve(v, &self.facts)?;
        self.note_access(&loc, false);
        view::read(&loc, ty, &mut self.ct)
    }

    /// The bookkeeping of every memory access (`write`: a store): the race checker's log, and
    /// the memory-access graph (local memory and global temporaries) that barriers are placed
    /// from and the bank model reads.
    fn note_access(&mut self, loc: &view::Loc, write: bool) {
        for (leaf, guard) in loc.mem_leaves() {
            let view::Loc::Mem {
                buf,
                idx,
                vec,
                lane,
                ..
            } = leaf
            else {
                continue;
            };
            if self.trace {
                self.trace_access(leaf, write, guard);
            }
            let shared = buf.space == Space::Local
                || (buf.space == Space::Global
                    && self.temporaries.iter().any(|t| t.name == buf.name));
            if shared {
                let shape = (*vec, lane.as_ref().map(|(l, w)| format!("{l}/{w}")));
                let words = view::bank_words(leaf);
                self.mag_access(&buf.name, buf.space, write, idx, shape, words);
            }
        }
    }

    /// Race checker: logs the access to buffer element `leaf` (under `guard`) if it is local
    /// memory or global memory other than the inputs.
    fn trace_access(&mut self, leaf: &view::Loc, write: bool, guard: Option<CExpr>) {
        let view::Loc::Mem {
            buf,
            idx,
            vec,
            lane,
            ..
        } = leaf
        else {
            return;
        };
        if buf.space == Space::Private || self.inputs.contains(&buf.name) {
            return;
        }
        let key = (buf.name.clone(), buf.space == Space::Local);
        let id = match self.traced.iter().position(|b| *b == key) {
            Some(i) => i,
            None => {
                self.traced.push(key);
                self.traced.len() - 1
            }
        };
        let ew = match &buf.elem {
            Type::Vector(_, w) => i64::from(*w),
            _ => 1,
        };
        let first = idx.clone().expr().bin(cl::BinOp::Mul, CExpr::Int(ew));
        let (at, len) = match lane {
            Some((l, _)) => (first.bin(cl::BinOp::Add, CExpr::Nat(l.clone())), 1),
            None => (first, ew * vec.map_or(1, i64::from)),
        };
        // A write outside every parallel loop is replicated: every work-item runs it,
        // writing the same value (see `trace::races`).
        let kind = match (write, self.par.is_empty()) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        };
        let log = Stmt::Expr(super::trace::log(CExpr::Int(id as i64), at, len, kind));
        self.emit(match guard {
            Some(c) => Stmt::When {
                cond: c,
                stmt: Box::new(log),
            },
            None => log,
        });
    }

    /// Copies the value of view `src` (of type `ty`) to `dst`, looping over arrays.
    pub(crate) fn copy(&mut self, src: &View, dst: &View, ty: &Type) -> GResult<()> {
        match ty {
            Type::Array(e, n) => {
                let e = (**e).clone();
                let (body, ()) = self.capture(|g| {
                    let unroll = if g.unroll_copies {
                        Unroll::Copies
                    } else {
                        Unroll::No
                    };
                    g.seq_loop(n, unroll, &mut |g, i| {
                        g.copy(&src.at(i.clone()), &dst.at(i), &e)
                    })
                })?;
                // Loops left empty (an accumulator copied onto itself) are dropped.
                if !cl::is_empty(&body) {
                    self.extend(body);
                }
                Ok(())
            }
            Type::Tuple(ts) if ts.iter().any(|t| matches!(t, Type::Array(..))) => {
                for (k, t) in ts.iter().enumerate() {
                    self.copy(&src.get(k), &dst.get(k), t)?;
                }
                Ok(())
            }
            t => {
                let value = self.read(src, t)?;
                let loc = view::resolve(dst, &self.facts)?;
                self.note_access(&loc, true);
                for s in view::write(&loc, value, t, &mut self.ct, 0)? {
                    // An accumulator updated in place starts from itself.
                    if !matches!(&s, Stmt::Assign { place, value } if place == value) {
                        self.emit(s);
                    }
                }
                Ok(())
            }
        }
    }

    /// The view of an argument.
    pub(crate) fn value(&mut self, a: Arg<'_>) -> GResult<View> {
        match a {
            Arg::View(v, _) => Ok(v),
            Arg::Chain(fs, args) => match fs {
                [f] => self.call_value(f, args),
                [f, rest @ ..] => self.call_value(f, vec![Arg::Chain(rest, args)]),
                [] => Err(CodegenError::Internal("empty composition".into())),
            },
            Arg::Expr(e) => self.expr_value(e),
        }
    }

    fn expr_value(&mut self, e: &Expr) -> GResult<View> {
        match &e.kind {
            ExprKind::Ident(name) => self
                .lookup(name)
                .ok_or_else(|| CodegenError::Unsupported(format!("`{name}` used as data"))),
            ExprKind::Apply(f, args) => self.call_value(f, args.iter().map(Arg::Expr).collect()),
            ExprKind::Tuple(es) => Ok(View::Tuple(
                es.iter()
                    .map(|x| self.expr_value(x))
                    .collect::<GResult<_>>()?,
            )),
            ExprKind::Proj(x, i) => Ok(self.expr_value(x)?.get(*i)),
            ExprKind::Index(x, i) => Ok(self.expr_value(x)?.at(i.clone())),
            ExprKind::Point(_, _, x) => self.expr_value(x),
            ExprKind::Let(p, init, body) => {
                let v = self.expr_value(init)?;
                let v = self.share(v, &ty_of(init)?, p_name(p))?;
                let depth = self.scope();
                self.bind(p, v);
                let r = self.expr_value(body);
                self.unbind(depth);
                r
            }
            ExprKind::Lit(..)
            | ExprKind::Binary(..)
            | ExprKind::Unary(..)
            | ExprKind::If(..)
            | ExprKind::Cast(..) => self.scalar_expr(e),
            ExprKind::Prim(..)
            | ExprKind::Section(_)
            | ExprKind::Lambda(..)
            | ExprKind::Compose(_) => Err(CodegenError::Internal(
                "a function where data is expected".into(),
            )),
        }
    }

    /// Stores a computed private value in a variable so that using it twice computes it once.
    pub(crate) fn share(&mut self, v: View, ty: &Type, hint: &str) -> GResult<View> {
        match v {
            View::Value(code) if !code.is_simple() => {
                let name = self.fresh(hint);
                let t = self.ct.compute(ty)?;
                self.emit(Stmt::Decl {
                    ty: t,
                    name: name.clone(),
                    init: Some(code),
                    konst: false,
                });
                Ok(View::Value(CExpr::Var(name)))
            }
            v => Ok(v),
        }
    }

    /// Applies function `f` to `args` and gives the view of the result.
    pub(crate) fn call_value(&mut self, f: &Expr, args: Vec<Arg<'_>>) -> GResult<View> {
        let args = self.spread(f, args)?;
        match &f.kind {
            ExprKind::Point(_, _, inner) => self.call_value(inner, args),
            ExprKind::Compose(fs) => self.value(Arg::Chain(fs, args)),
            ExprKind::Lambda(pats, body) => {
                let depth = self.bind_args(pats, args)?;
                let r = self.expr_value(body);
                self.unbind(depth);
                r
            }
            ExprKind::Ident(name) => self.call_named(name, f, args),
            ExprKind::Section(s) => self.section(*s, args),
            ExprKind::Prim(p, pargs) => self.prim_value(*p, pargs, f, args),
            _ => Err(CodegenError::Internal("data applied as a function".into())),
        }
    }

    /// A single tuple argument spread over the parameters of `g` when `g` takes as many
    /// (user functions over `zip`s, `vectorize` of a function of k arguments over a tuple of
    /// k vectors).
    pub(crate) fn spread<'x>(&mut self, g: &Expr, mut args: Vec<Arg<'x>>) -> GResult<Vec<Arg<'x>>> {
        let [arg] = &args[..] else {
            return Ok(args);
        };
        let Type::Tuple(ts) = Self::arg_ty(arg)? else {
            return Ok(args);
        };
        if ts.len() < 2 || crate::ir::fun_arity(g, &self.prog.funs) != Some(ts.len()) {
            return Ok(args);
        }
        let v = self.value(args.remove(0))?;
        Ok(ts
            .into_iter()
            .enumerate()
            .map(|(k, t)| Arg::View(v.get(k), t))
            .collect())
    }

    /// Writes the value of an argument into `out`.
    pub(crate) fn acc(&mut self, a: Arg<'_>, out: &View) -> GResult<()> {
        match a {
            Arg::View(v, t) => self.copy(&v, out, &t),
            Arg::Chain(fs, args) => match fs {
                [f] => self.call_acc(f, args, out),
                [f, rest @ ..] => self.call_acc(f, vec![Arg::Chain(rest, args)], out),
                [] => Err(CodegenError::Internal("empty composition".into())),
            },
            Arg::Expr(e) => self.expr_acc(e, out),
        }
    }

    fn expr_acc(&mut self, e: &Expr, out: &View) -> GResult<()> {
        match &e.kind {
            ExprKind::Apply(f, args) => self.call_acc(f, args.iter().map(Arg::Expr).collect(), out),
            ExprKind::Tuple(es) => es
                .iter()
                .enumerate()
                .try_for_each(|(k, x)| self.expr_acc(x, &out.get(k))),
            ExprKind::Point(_, _, x) => self.expr_acc(x, out),
            ExprKind::Let(p, init, body) => {
                let v = self.expr_value(init)?;
                let v = self.share(v, &ty_of(init)?, p_name(p))?;
                let depth = self.scope();
                self.bind(p, v);
                let r = self.expr_acc(body, out);
                self.unbind(depth);
                r
            }
            _ => {
                let v = self.expr_value(e)?;
                self.copy(&v, out, &ty_of(e)?)
            }
        }
    }

    /// Binds a lambda's patterns to the views of its arguments (each computed value shared in a
    /// variable); gives the scope depth to restore with [`Gen::unbind`].
    fn bind_args(&mut self, pats: &[Pat], args: Vec<Arg<'_>>) -> GResult<usize> {
        let depth = self.scope();
        let mut bound = Vec::new();
        for (p, a) in pats.iter().zip(args) {
            let t = Self::arg_ty(&a)?;
            let v = self.value(a)?;
            bound.push((p, self.share(v, &t, p_name(p))?));
        }
        for (p, v) in bound {
            self.bind(p, v);
        }
        Ok(depth)
    }

    /// Applies `f` to `args`, writing the result into `out`.
    pub(crate) fn call_acc(&mut self, f: &Expr, args: Vec<Arg<'_>>, out: &View) -> GResult<()> {
        let args = self.spread(f, args)?;
        match &f.kind {
            ExprKind::Point(_, _, inner) => self.call_acc(inner, args, out),
            ExprKind::Compose(fs) => self.acc(Arg::Chain(fs, args), out),
            ExprKind::Lambda(pats, body) => {
                let depth = self.bind_args(pats, args)?;
                let r = self.expr_acc(body, out);
                self.unbind(depth);
                r
            }
            ExprKind::Prim(p, pargs) => self.prim_acc(*p, pargs, f, args, out),
            _ => {
                let v = self.call_value(f, args)?;
                self.copy(&v, out, &ty_of(f)?)
            }
        }
    }
}

/// A name usable as a prefix for variables bound by a pattern.
fn p_name(p: &Pat) -> &str {
    match p {
        Pat::Name(n, _) if n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => n,
        _ => "v",
    }
}

/// Compiles one kernel of a lowered, type-checked program: its syntax tree, rows of local
/// arrays padded where that removes bank conflicts ([`super::banks::pad_banks`]), barriers
/// placed, local indices lowered.
pub(crate) fn compile_kernel(
    prog: &Program,
    k: &Kernel,
    info: &KernelInfo,
    opts: &super::Options,
) -> GResult<Output> {
    let mut facts = Facts::new();
    for p in &info.preconditions {
        if let Cond::Divisible(n, d) = &p.cond {
            facts.assume_divisible(n, d);
        }
    }
    let launch = launch::configure(&k.body, &facts, opts.lanes)?;
    let mut g = Gen::new(prog, facts, launch);
    let tracing = super::trace::options().trace;
    g.trace = tracing;
    if tracing {
        g.emit(Stmt::Decl {
            ty: CScalar::Int.into(),
            name: "lift_epoch".into(),
            init: Some(CExpr::Int(0)),
            konst: false,
        });
    }
    let (mut params, mut args) = g.bind_params(k)?;
    let result = &info.result;
    if matches!(result.base(), Type::Tuple(ts) if ts.iter().any(|t| matches!(t, Type::Array(..)))) {
        return Err(CodegenError::Unsupported(format!(
            "a result with tuples of arrays: {result}"
        )));
    }
    let out = Rc::new(Buffer::new(
        "out".into(),
        Space::Global,
        result.base().clone(),
    ));
    let out_decl = super::memory::elem_decl(&out, &mut g.ct)?;
    let capped = matches!(result, Type::Capped(..));
    if capped {
        g.count_out = Some("lift_count".into());
    }
    g.acc(Arg::Expr(&k.body), &View::Mem(out, result.dims()))?;
    if g.count_out.is_some() {
        return Err(CodegenError::Internal(
            "a capped result that no filter_seq wrote".into(),
        ));
    }
    params.push(Param::pointer(Space::Global, out_decl, "out"));
    args.push(KernelArg::Output);
    if capped {
        params.push(Param::pointer(Space::Global, CScalar::Int, "lift_count"));
        args.push(KernelArg::Count);
    }
    for (i, t) in g.temp_params.iter().enumerate() {
        params.push(t.clone());
        args.push(KernelArg::Temporary(i));
    }
    for (decl, bytes) in &g.local_params {
        params.push(decl.clone());
        args.push(KernelArg::Local {
            bytes: bytes.clone(),
        });
    }
    let (size_params, size_args, sizes) = super::size_params(k);
    params.extend(size_params);
    args.extend(size_args);
    if tracing {
        g.emit(super::trace::end());
        params.push(Param::pointer(Space::Global, CScalar::Int, "lift_trace"));
        params.push(Param::value(CScalar::Int, "lift_trace_cap"));
        args.push(KernelArg::Trace {
            buffers: std::mem::take(&mut g.traced),
        });
    }
    let local = g.launch.local_size();
    let lanes: Vec<i64> = local
        .iter()
        .flatten()
        .map(|n| n.as_cst().unwrap_or(1))
        .collect();
    let mut kernel = KernelDef {
        name: crate::cnames::kernel_c_name(&k.name),
        local_size: local.clone(),
        params,
        sizes,
        locals: std::mem::take(&mut g.local_decls),
        align_locals: g.pragma_unrolled,
        body: g.take_body(),
    };
    super::banks::pad_banks(&mut kernel, &lanes, &opts.device);
    g.extend(std::mem::take(&mut kernel.body));
    kernel.body = cl::strides::reduce(g.take_placed()?);
    let local_bytes: i64 = kernel.locals.iter().map(|a| a.len * a.elem_bytes).sum();
    let mut unit = g.unit()?;
    unit.trace_helper = tracing;
    let name = kernel.name.clone();
    unit.kernels.push(kernel);
    Ok(Output {
        unit,
        kernel: GeneratedKernel {
            name,
            args,
            global: g.launch.global_size(),
            local,
            local_mem_bytes: g
                .local_params
                .iter()
                .fold(Nat::cst(local_bytes), |a, (_, b)| a + b.clone()),
        },
        temporaries: std::mem::take(&mut g.temporaries),
    })
}

impl Gen<'_> {
    /// Binds the kernel's parameters: arrays as `const global T* restrict` buffers, scalars
    /// by value. Gives the C parameter declarations and the launcher's arguments.
    pub(crate) fn bind_params(&mut self, k: &Kernel) -> GResult<(Vec<Param>, Vec<KernelArg>)> {
        let mut params = Vec::new();
        let mut args = Vec::new();
        for (i, p) in k.params.iter().enumerate() {
            let name = c_name(&p.name);
            match &p.ty {
                Type::Array(..) => {
                    let buf = Rc::new(Buffer::new(
                        name.clone(),
                        Space::Global,
                        p.ty.base().clone(),
                    ));
                    let decl = super::memory::elem_decl(&buf, &mut self.ct)?;
                    self.inputs.push(name.clone());
                    params.push(Param::input(decl, name.clone()));
                    args.push(KernelArg::Input { param: i });
                    self.bind(
                        &Pat::Name(p.name.clone(), p.span),
                        View::Mem(buf, p.ty.dims()),
                    );
                }
                _ => {
                    let (decl, arg) = self.scalar_param(p, i)?;
                    params.push(decl);
                    args.push(arg);
                    self.bind(
                        &Pat::Name(p.name.clone(), p.span),
                        View::Value(CExpr::Var(name)),
                    );
                }
            }
        }
        Ok((params, args))
    }

    /// The C declaration and launcher argument of scalar kernel parameter `p` (index `i`),
    /// passed by value (`bool` as `uchar`).
    pub(crate) fn scalar_param(
        &mut self,
        p: &crate::ir::Param,
        i: usize,
    ) -> GResult<(Param, KernelArg)> {
        let decl = match &p.ty {
            Type::Scalar(crate::types::ScalarType::Bool) => CScalar::Uchar.into(),
            t => self.ct.compute(t)?,
        };
        Ok((
            Param::value(decl, c_name(&p.name)),
            KernelArg::Scalar { param: i },
        ))
    }

    /// The body emitted so far, with its barriers placed and its local indices lowered,
    /// removed from the generator (to start another kernel).
    pub(crate) fn take_placed(&mut self) -> GResult<Vec<Stmt>> {
        self.place_barriers()?;
        let body = self.take_body();
        Ok(cl::locals::lower(body, &self.facts))
    }

    /// A unit without kernels: the extensions, struct types and user functions of the
    /// program.
    pub(crate) fn unit(&mut self) -> GResult<cl::Unit> {
        let functions = super::scalar::user_functions(self.prog, &mut self.ct)?;
        Ok(cl::Unit {
            fp64: self.ct.fp64,
            structs: self.ct.structs(),
            functions,
            trace_helper: false,
            kernels: Vec::new(),
        })
    }
}
