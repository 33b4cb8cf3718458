//! Full reductions as two kernels (issue 5: multi-kernel reductions).
//!
//! A kernel whose body is `reduce(op, z) o map(g1) o ... o map(gk) $ x`, with `x` a parameter
//! or a layout view of parameters, compiles to
//!
//! 1. `K_part`: `G = min(MAX_GROUPS, ceil(n / WG))` work-groups of `WG` work-items; each
//!    work-item folds a grid-stride (coalesced) slice with the fused function
//!    `|acc, v| op(acc, g1(...gk(v)))`, then each group combines its `WG` values with a tree
//!    in local memory and writes one partial result to a global temporary;
//! 2. `K_final`: one work-group reduces the `G` partial results the same way with `op`, and
//!    applies the epilogue around the reduction, if any (`alpha * reduce(..)`).
//!
//! `op` is associative (and commutative) by the contract of `reduce` (SPEC section 2), which
//! is what makes the reordering valid; `z` is applied once per work-item, so it must be
//! neutral for `op`, as `reduce`'s initial value is in every lowering of LIFT.

use super::cl::ast::KernelDef;
use super::cl::{self, BinOp, CExpr, Stmt};
use super::emit::{c_name, Arg, Gen};
use super::launch::Launch;
use super::memory::{Buffer, Space};
use super::view::View;
use super::{GResult, GeneratedKernel, KernelArg, Temporary};
use crate::arith::{Facts, Nat};
use crate::ir::{Expr, ExprKind, Kernel, Param, Pat, PrimArg, Program};
use crate::prim::Prim;
use crate::rewrite::names;
use crate::typeck::{check_program, Cond, KernelInfo};
use crate::types::{ScalarType, Type};
use proc_macro2::Span;
use std::rc::Rc;
use tree::{lift_l, lift_tmp, Lanes};

mod tree;

/// Upper bound on the number of work-groups of the first kernel: a choice of the algorithm
/// (enough partial results to occupy a large GPU, few enough for one group to fold them),
/// not read from the device model. (`WG`, the work-items per group, is the model's
/// [`group`](crate::device::DeviceModel::group), 256 by default.)
const MAX_GROUPS: i64 = 1024;
/// Name of the size variable holding the number of partial results in the second kernel.
const GROUPS: &str = "lift_groups";

/// The parts of a reduction body: `post(reduce(op, z) o map(g1) o ... o layout $ x)`, with
/// an optional epilogue `post` (see [`crate::rewrite::epilogue`]).
struct Shape {
    op: Expr,
    z: Expr,
    maps: Vec<Expr>,
    /// The input: `x` with the layout primitives after the maps applied.
    input: Expr,
    /// The epilogue applied to the reduction's result, if any (untyped).
    post: Option<Expr>,
}

fn shape(body: &Expr) -> Option<Shape> {
    let split =
        crate::rewrite::epilogue::split(body, &crate::rewrite::epilogue::has_reduce, &|e| {
            core(e).is_some()
        })?;
    let mut s = core(&split.core)?;
    s.post = split.post;
    Some(s)
}

/// The [`Shape`] of `reduce(op, z) o map(g1) o ... o layout $ x` (no epilogue).
fn core(body: &Expr) -> Option<Shape> {
    let ExprKind::Apply(f, args) = &body.kind else {
        return None;
    };
    let [x] = &args[..] else { return None };
    let chain: Vec<&Expr> = match &f.kind {
        ExprKind::Compose(fs) => fs.iter().collect(),
        _ => vec![&**f],
    };
    let (head, rest) = chain.split_first()?;
    let (op, z) = (head.prim_fun(Prim::Reduce)?, head.prim_value(Prim::Reduce)?);
    let maps: Vec<Expr> = rest
        .iter()
        .map_while(|m| m.prim_fun(Prim::Map).cloned())
        .collect();
    let layout: Vec<Expr> = rest[maps.len()..].iter().map(|e| (*e).clone()).collect();
    let input = if layout.is_empty() {
        x.clone()
    } else {
        let f = Expr::new(ExprKind::Compose(layout), x.span);
        Expr::new(ExprKind::Apply(Box::new(f), vec![x.clone()]), x.span)
    };
    crate::analysis::is_pure(&input).then(|| Shape {
        op: op.clone(),
        z: z.clone(),
        maps,
        input,
        post: None,
    })
}

/// A new untyped expression at `span`.
fn node(kind: ExprKind, span: Span) -> Expr {
    Expr::new(kind, span)
}

fn ident(name: &str, span: Span) -> Expr {
    node(ExprKind::Ident(name.into()), span)
}

/// `reduce_seq(f, z) $ x` as an expression.
fn reduce_seq(f: Expr, z: Expr, x: Expr, span: Span) -> Expr {
    let r = node(
        ExprKind::Prim(Prim::ReduceSeq, vec![PrimArg::Fun(f), PrimArg::Value(z)]),
        span,
    );
    node(ExprKind::Apply(Box::new(r), vec![x]), span)
}

/// Compiles `k` as a two-kernel reduction, with groups of `wg` work-items (`WG` of the module
/// docs, a power of two), when its body has the shape of the module docs and a numeric scalar
/// result; `None` otherwise.
pub(crate) fn compile(
    prog: &Program,
    k: &Kernel,
    info: &KernelInfo,
    wg: i64,
) -> GResult<Option<super::Generated>> {
    let Some(s) = shape(&k.body) else {
        return Ok(None);
    };
    let Some(elem) = tree_scalar(&info.result) else {
        return Ok(None);
    };
    let span = k.body.span;
    let part = Kernel {
        name: format!("{}_part", k.name),
        body: reduce_seq(fused_fold(&s, span), s.z.clone(), s.input.clone(), span),
        ..k.clone()
    };
    let Some(sprog) = with_op_kernel(prog, part, k, elem, &s) else {
        return Ok(None);
    };
    let (part, fin) = (&sprog.kernels[0], &sprog.kernels[1]);
    let (post, fin_fold) = peel_post(&fin.body);
    let (
        Some(Stage {
            f: f1,
            z: z1,
            x: x1,
        }),
        Some(Stage { f: f2, z: z2, .. }),
    ) = (stage(&part.body), stage(fin_fold))
    else {
        return Ok(None);
    };
    let n = match &x1.ty {
        Some(Type::Array(_, n)) => n.clone(),
        _ => return Ok(None),
    };
    let groups = Nat::min(&Nat::cst(MAX_GROUPS), &((&n + (wg - 1)) / wg));
    let t = Type::Scalar(elem);

    let mut g = Gen::new(&sprog, facts_of(info), Launch::default());
    // Kernel 1.
    let (mut params, mut args) = g.bind_params(part)?;
    let ct = g.ct.compute(&t)?;
    params.push(cl::Param::pointer(
        Space::Global,
        ct.clone(),
        "lift_partial",
    ));
    args.push(KernelArg::Temporary(0));
    let (size_params, size_args, sizes) = super::size_params(k);
    params.extend(size_params);
    args.extend(size_args);
    let input = g.value(Arg::Expr(x1))?;
    let elem_ty = match &x1.ty {
        Some(Type::Array(e, _)) => (**e).clone(),
        _ => return Ok(None),
    };
    let lanes = vector_lanes(x1, part);
    g.tree(
        &t,
        (f1, f2),
        z1,
        (&input, &elem_ty, lanes.as_ref()),
        &n,
        (
            CExpr::call("get_global_id", vec![CExpr::Int(0)]),
            CExpr::call("get_global_size", vec![CExpr::Int(0)]),
        ),
        (1, wg),
    )?;
    if needs_buffers(&g) {
        return Ok(None);
    }
    g.emit(Stmt::When {
        cond: lift_l().bin(BinOp::Eq, CExpr::Int(0)),
        stmt: Box::new(Stmt::Assign {
            place: CExpr::var("lift_partial")
                .index(CExpr::call("get_group_id", vec![CExpr::Int(0)])),
            value: CExpr::var("lift_tmp").index(CExpr::Int(0)),
        }),
    });
    let def1 = tree_kernel(&part.name, wg, params, sizes, g.take_placed()?);
    let kernel1 = GeneratedKernel {
        name: def1.name.clone(),
        args,
        global: vec![&groups * wg],
        local: Some(vec![Nat::cst(wg)]),
        local_mem_bytes: Nat::cst(wg * elem_bytes(elem)),
    };

    // Kernel 2.
    let partial = Rc::new(Buffer::new("lift_partial".into(), Space::Global, t.clone()));
    let pview = View::Mem(partial, vec![groups.clone()]);
    let mut params = vec![
        cl::Param::input(ct.clone(), "lift_partial"),
        cl::Param::pointer(Space::Global, ct, "out"),
    ];
    let mut args = vec![KernelArg::Temporary(0), KernelArg::Output];
    // The scalar parameters, for the epilogue (bound since kernel 1).
    for (i, p) in k.params.iter().enumerate() {
        if !matches!(p.ty, Type::Array(..)) {
            let (decl, arg) = g.scalar_param(p, i)?;
            params.push(decl);
            args.push(arg);
        }
    }
    let (size_params, size_args, sizes) = super::size_params(k);
    params.extend(size_params);
    args.extend(size_args);
    g.tree(
        &t,
        (f2, f2),
        z2,
        (&pview, &t, None),
        &groups,
        (
            CExpr::call("get_local_id", vec![CExpr::Int(0)]),
            CExpr::Int(wg),
        ),
        (1, wg),
    )?;
    let result = g.finish(post, lift_tmp(CExpr::Int(0)), &t)?;
    g.emit(Stmt::When {
        cond: lift_l().bin(BinOp::Eq, CExpr::Int(0)),
        stmt: Box::new(Stmt::Assign {
            place: CExpr::var("out").index(CExpr::Int(0)),
            value: result,
        }),
    });
    let def2 = tree_kernel(&fin.name, wg, params, sizes, g.take_placed()?);
    let kernel2 = GeneratedKernel {
        name: def2.name.clone(),
        args,
        global: vec![Nat::cst(wg)],
        local: Some(vec![Nat::cst(wg)]),
        local_mem_bytes: Nat::cst(wg * elem_bytes(elem)),
    };
    let mut unit = g.unit()?;
    unit.kernels = vec![def1, def2];
    let bytes = elem_bytes(elem);
    let lowered = format!(
        "{} ; {}",
        crate::print::expr(&part.body),
        crate::print::expr(&fin.body)
    );
    Ok(Some(super::Generated::of_unit(
        unit,
        vec![kernel1, kernel2],
        vec![Temporary {
            name: "lift_partial".into(),
            scalars: groups.clone(),
            bytes: &groups * bytes,
        }],
        format!("two kernels: {lowered}"),
    )))
}

/// A tree-reduction kernel: groups of `wg` work-items (required), no local arrays of its own
/// (the tree's is declared in the body).
fn tree_kernel(
    name: &str,
    wg: i64,
    params: Vec<cl::Param>,
    sizes: Vec<String>,
    body: Vec<Stmt>,
) -> KernelDef {
    KernelDef {
        name: crate::cnames::kernel_c_name(name),
        local_size: Some(vec![Nat::cst(wg)]),
        params,
        sizes,
        locals: Vec::new(),
        align_locals: false,
        body,
    }
}

fn elem_bytes(t: ScalarType) -> i64 {
    match t {
        ScalarType::F64 | ScalarType::I64 | ScalarType::U64 => 8,
        ScalarType::F16 => 2,
        ScalarType::Bool => 1,
        _ => 4,
    }
}

/// `|acc, v| op(acc, g1(...gk(v)))`: the fold of one work-item.
fn fused_fold(s: &Shape, span: Span) -> Expr {
    // Binders named after nothing in the functions they are put around.
    let around: Vec<&Expr> = s.maps.iter().chain([&s.op]).collect();
    let acc = names::unused("lift_acc", &around);
    let v = names::unused("lift_v", &around);
    let (acc, v) = (acc.as_str(), v.as_str());
    let mut mapped = ident(v, span);
    for g in s.maps.iter().rev() {
        mapped = node(ExprKind::Apply(Box::new(g.clone()), vec![mapped]), span);
    }
    let combined = node(
        ExprKind::Apply(Box::new(s.op.clone()), vec![ident(acc, span), mapped]),
        span,
    );
    node(
        ExprKind::Lambda(
            vec![Pat::Name(acc.into(), span), Pat::Name(v.into(), span)],
            Box::new(combined),
        ),
        span,
    )
}

/// `post $ reduce_seq(op, z) $ lift_partial` over `lift_groups` values: the final kernel, and
/// the way to get `op` and the epilogue `post` typed for the local-memory tree.
fn op_kernel(prog: &Program, k: &Kernel, elem: ScalarType, s: &Shape, span: Span) -> Kernel {
    let partial = names::fresh_for("lift_partial", &names::of_kernel(prog, k));
    let fold = reduce_seq(s.op.clone(), s.z.clone(), ident(&partial, span), span);
    let body = match &s.post {
        Some(post) => node(ExprKind::Apply(Box::new(post.clone()), vec![fold]), span),
        None => fold,
    };
    Kernel {
        name: format!("{}_final", k.name),
        sizes: vec![(GROUPS.into(), span)],
        params: std::iter::once(Param {
            name: partial,
            ty: Type::array(Type::Scalar(elem), Nat::size_var(GROUPS)),
            span,
        })
        .chain(
            k.params
                .iter()
                .filter(|p| !matches!(p.ty, Type::Array(..)))
                .cloned(),
        )
        .collect(),
        ret: Type::Scalar(elem),
        body,
        ..k.clone()
    }
}

/// A program of the user functions, `main` and the [`op_kernel`] of `k`, type-checked;
/// `None` if it does not check (the caller then falls back to the general lowering).
fn with_op_kernel(
    prog: &Program,
    main: Kernel,
    k: &Kernel,
    elem: ScalarType,
    s: &Shape,
) -> Option<Program> {
    let fin = op_kernel(prog, k, elem, s, k.body.span);
    let mut sprog = Program {
        funs: prog.funs.clone(),
        kernels: vec![main, fin],
        includes: Vec::new(),
    };
    check_program(&mut sprog).ok()?;
    Some(sprog)
}

/// The numeric scalar type a tree reduction supports.
fn tree_scalar(t: &Type) -> Option<ScalarType> {
    match t {
        Type::Scalar(s) if *s != ScalarType::F16 && *s != ScalarType::Bool => Some(*s),
        _ => None,
    }
}

/// Compiles `map(|row| reduce(op, z) o map(g)... $ input(row)) $ x` (GEMV-like) with one
/// work-group per `cols` rows: the group's `wg` work-items are `wg / cols` slices of `cols`
/// lanes; lane `c` of every slice folds row `cols · group + c` at a stride of `wg / cols`
/// elements, and a local-memory tree combines the slices. `cols = 1` reads each row with
/// consecutive work-items (coalesced when rows are rows of memory); `cols = 32` or more
/// reads one element of `cols` consecutive rows side by side (coalesced when the rows are
/// columns of memory, a transposed view). Used when the row length is symbolic or at least
/// `wg / 2`.
pub(crate) fn compile_rows(
    prog: &Program,
    k: &Kernel,
    info: &KernelInfo,
    cols: i64,
    wg: i64,
) -> GResult<Option<super::Generated>> {
    if cols < 1 || wg < cols || wg % cols != 0 || wg & (wg - 1) != 0 {
        return Ok(None);
    }
    // `map(f) $ x`, or `(map(f) o layout) $ y` with `x = layout $ y`.
    let Some((lambda, x)) = crate::rewrite::blocking::map_app(&k.body) else {
        return Ok(None);
    };
    let x = &x;
    let span = k.body.span;
    // `map(f)` with a function that is not a lambda is `map(|lift_row| f $ lift_row)`.
    let row = names::unused("lift_row", &[lambda]);
    let (pat, row_body) = match &lambda.kind {
        ExprKind::Lambda(pats, body) if pats.len() == 1 => (pats[0].clone(), (**body).clone()),
        ExprKind::Lambda(..) => return Ok(None),
        _ => (
            Pat::Name(row.clone(), span),
            node(
                ExprKind::Apply(Box::new(lambda.clone()), vec![ident(&row, span)]),
                span,
            ),
        ),
    };
    let Some(s) = shape(&row_body) else {
        return Ok(None);
    };
    let (Some(elem), Some((_, rows))) = (
        info.result.as_array().and_then(|(e, _)| tree_scalar(e)),
        info.result.as_array(),
    ) else {
        return Ok(None);
    };
    if !crate::analysis::is_pure(x) {
        return Ok(None);
    }
    let per_row = node(
        ExprKind::Lambda(
            vec![pat],
            Box::new(reduce_seq(
                fused_fold(&s, span),
                s.z.clone(),
                s.input.clone(),
                span,
            )),
        ),
        span,
    );
    let map = node(ExprKind::Prim(Prim::Map, vec![PrimArg::Fun(per_row)]), span);
    let rows_kernel = Kernel {
        body: node(ExprKind::Apply(Box::new(map), vec![x.clone()]), span),
        ..k.clone()
    };
    let Some(sprog) = with_op_kernel(prog, rows_kernel, k, elem, &s) else {
        return Ok(None);
    };
    let (rk, fin) = (&sprog.kernels[0], &sprog.kernels[1]);
    let ExprKind::Apply(m, xs) = &rk.body.kind else {
        return Ok(None);
    };
    let (post, fin_fold) = peel_post(&fin.body);
    let (Some(lambda), Some(Stage { f: op, .. })) = (m.prim_fun(Prim::Map), stage(fin_fold)) else {
        return Ok(None);
    };
    let ExprKind::Lambda(pats, inner) = &lambda.kind else {
        return Ok(None);
    };
    let Some(Stage {
        f: fold,
        z,
        x: row_input,
    }) = stage(inner)
    else {
        return Ok(None);
    };
    let Some(Type::Array(row_elem, len)) = &row_input.ty else {
        return Ok(None);
    };
    if len.as_cst().is_some_and(|c| c < wg / 2) {
        return Ok(None);
    }
    let t = Type::Scalar(elem);
    let mut g = Gen::new(&sprog, facts_of(info), Launch::default());
    let (mut params, mut args) = g.bind_params(rk)?;
    let ct = g.ct.compute(&t)?;
    params.push(cl::Param::pointer(Space::Global, ct, "out"));
    args.push(KernelArg::Output);
    let (size_params, size_args, sizes) = super::size_params(k);
    params.extend(size_params);
    args.extend(size_args);
    let xv = g.value(Arg::Expr(&xs[0]))?;
    // The row of this work-item (clamped: lanes past the last row repeat it, unwritten).
    let local_id = CExpr::call("get_local_id", vec![CExpr::Int(0)]);
    g.emit(Stmt::Decl {
        ty: cl::CScalar::Idx.into(),
        name: "lift_wg".into(),
        init: Some(
            CExpr::call("get_group_id", vec![CExpr::Int(0)])
                .bin(BinOp::Mul, CExpr::Int(cols))
                .bin(
                    BinOp::Add,
                    local_id.clone().bin(BinOp::Rem, CExpr::Int(cols)),
                ),
        ),
        konst: true,
    });
    g.emit(Stmt::Decl {
        ty: cl::CScalar::Idx.into(),
        name: "lift_row".into(),
        init: Some(CExpr::call(
            "lift_min",
            vec![
                CExpr::var("lift_wg"),
                CExpr::Nat(rows.clone()).bin(BinOp::Sub, CExpr::Int(1)),
            ],
        )),
        konst: true,
    });
    g.bind(
        &pats[0],
        xv.at(Nat::index_var("lift_row", Nat::cst(0), rows.clone())),
    );
    let input = g.value(Arg::Expr(row_input))?;
    let (start, stride) = (
        local_id.bin(BinOp::Div, CExpr::Int(cols)),
        CExpr::Int(wg / cols),
    );
    g.tree(
        &t,
        (fold, op),
        z,
        (&input, row_elem, None),
        len,
        (start, stride),
        (cols, wg),
    )?;
    if needs_buffers(&g) {
        return Ok(None);
    }
    let result = g.finish(post, lift_tmp(lift_l()), &t)?;
    g.emit(Stmt::When {
        cond: lift_l().bin(BinOp::Lt, CExpr::Int(cols)).bin(
            BinOp::And,
            CExpr::var("lift_wg").bin(BinOp::Lt, CExpr::Nat(rows.clone())),
        ),
        stmt: Box::new(Stmt::Assign {
            place: CExpr::var("out").index(CExpr::var("lift_wg")),
            value: result,
        }),
    });
    let def = tree_kernel(&k.name, wg, params, sizes, g.take_placed()?);
    let name = def.name.clone();
    let mut unit = g.unit()?;
    unit.kernels.push(def);
    Ok(Some(super::Generated::of_unit(
        unit,
        vec![GeneratedKernel {
            name,
            args,
            global: vec![(rows + &Nat::cst(cols - 1)) / &Nat::cst(cols) * wg],
            local: Some(vec![Nat::cst(wg)]),
            local_mem_bytes: Nat::cst(wg * elem_bytes(elem)),
        }],
        Vec::new(),
        format!(
            "one work-group per {cols} row(s): {}",
            crate::print::expr(&rk.body)
        ),
    )))
}

/// Whether the fused fold allocated a global or local temporary (an element function that
/// computes an array): the tree kernels have no place for it, so the general lowering is used.
fn needs_buffers(g: &Gen) -> bool {
    !g.temporaries.is_empty() || !g.local_decls.is_empty()
}

/// Divisibility facts from the checker's preconditions.
fn facts_of(info: &KernelInfo) -> Facts {
    let mut facts = Facts::new();
    for p in &info.preconditions {
        if let Cond::Divisible(a, d) = &p.cond {
            facts.assume_divisible(a, d);
        }
    }
    facts
}

/// The [`Lanes`] of `x` in kernel `k`, if every component is a 1-D array parameter of a
/// 32- or 64-bit number type.
fn vector_lanes(x: &Expr, k: &Kernel) -> Option<Lanes> {
    let param = |e: &Expr| {
        let ExprKind::Ident(name) = &e.kind else {
            return None;
        };
        let p = k.params.iter().find(|p| &p.name == name)?;
        let (Type::Scalar(s), 1) = (p.ty.base(), p.ty.dims().len()) else {
            return None;
        };
        let sct = match s {
            ScalarType::F16 | ScalarType::Bool => return None,
            s => super::ctypes::scalar(*s),
        };
        Some((c_name(name), sct))
    };
    match &x.kind {
        ExprKind::Ident(_) => Some(Lanes {
            bufs: vec![param(x)?],
            tuple: false,
        }),
        ExprKind::Apply(f, xs) if matches!(&f.kind, ExprKind::Prim(Prim::Zip, a) if a.is_empty()) =>
        {
            let bufs = xs.iter().map(param).collect::<Option<Vec<_>>>()?;
            Some(Lanes { bufs, tuple: true })
        }
        _ => None,
    }
}

/// `(Some(post), x)` for the final kernel's body `post $ x`, `(None, body)` without an
/// epilogue.
fn peel_post(body: &Expr) -> (Option<&Expr>, &Expr) {
    match &body.kind {
        ExprKind::Apply(f, xs) if f.prim_fun(Prim::ReduceSeq).is_none() && xs.len() == 1 => {
            (Some(&**f), &xs[0])
        }
        _ => (None, body),
    }
}

/// The typed parts of `reduce_seq(f, z) $ x`.
struct Stage<'e> {
    f: &'e Expr,
    z: &'e Expr,
    x: &'e Expr,
}

fn stage(body: &Expr) -> Option<Stage<'_>> {
    let ExprKind::Apply(r, xs) = &body.kind else {
        return None;
    };
    Some(Stage {
        f: r.prim_fun(Prim::ReduceSeq)?,
        z: r.prim_value(Prim::ReduceSeq)?,
        x: xs.first()?,
    })
}
