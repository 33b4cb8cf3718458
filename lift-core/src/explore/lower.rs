//! The default lowering of high-level bodies (SPEC: a body may be purely high-level).
//!
//! 1. `map2`/`map3` become nested maps.
//! 2. Fusion, with the rewrite rules normalised (`rewrite::algorithmic`): `f $ (g $ x)` to
//!    `(f o g) $ x`, `map(f) o map(g)` to `map(f o g)`, `reduce(op, z) o map(g)` to
//!    `reduce_seq(|acc, x| op(acc, g(x)), z)`, so that no intermediate array is stored.
//! 3. If the body uses no parallel map, a body of the form `layout o map(f) o layout $ data`
//!    gets `map_glb` for that map and up to two maps directly nested in it, the innermost in
//!    dimension 0 (coalesced access); a body that only reads data through views gets a
//!    `map_glb` copy; any other body runs in a single work-item (the explorer offers kernel
//!    fission for chains of several computing stages before this, `explore::stages`).
//! 4. Every remaining `map` becomes `map_seq` and every `reduce` `reduce_seq` (the lowering
//!    rules of `rewrite::lowering`, normalised).
//!
//! Before all this, `iterate(k, f)` with a constant `k` and an `f` that shrinks its input
//! (CGO'17 Listing 1) is unrolled into `f o ... o f`: every step then has its own types and
//! buffers. A type-preserving `iterate` stays (double buffering).
//!
//! The result is type-checked again.

use crate::analysis::{is_layout, is_pure};
use crate::arith::Nat;
use crate::codegen::{CodegenError, GResult};
use crate::ir::{Expr, ExprKind, PrimArg, Program};
use crate::prim::Prim;
use crate::rewrite::lowering::{self, MapLevel};
use crate::rewrite::strategy::{left_choice, normalize, rule};
use crate::rewrite::{algorithmic, RewriteCtx};
use crate::typeck::{check_program, KernelInfo};

/// A program whose kernel body has been lowered, with the new checker output.
pub struct Lowered {
    /// The program (only the named kernel changed).
    pub prog: Program,
    /// The checker's output for the lowered kernel.
    pub info: KernelInfo,
}

/// Lowers kernel `kernel` of `prog` (see the module docs) and type-checks the result.
pub fn lower_program(prog: &Program, kernel: &str, info: &KernelInfo) -> GResult<Lowered> {
    let mut fused = prepare(prog, kernel, info)?;
    if let Some(k) = fused.kernels.iter_mut().find(|k| k.name == kernel) {
        if !uses_parallel(&k.body) {
            parallel_top(&mut k.body);
        }
    }
    finish(fused, kernel, info)
}

/// Steps 1 and 2 (and the unrolling of shrinking `iterate`s): kernel `kernel` of `prog`
/// with its maps expanded and fused, type-checked again so that every map knows its trip
/// count. The parallel mapping ([`crate::explore::mapping`], or the heuristic of step 3)
/// works on this.
pub fn prepare(prog: &Program, kernel: &str, info: &KernelInfo) -> GResult<Program> {
    let mut out = prog.clone();
    let k = prog
        .kernel(kernel)
        .ok_or_else(|| CodegenError::UnknownKernel(kernel.to_string()))?;
    let ctx = RewriteCtx::for_kernel(prog, k, info);
    let k = out
        .kernels
        .iter_mut()
        .find(|k| k.name == kernel)
        .ok_or_else(|| CodegenError::UnknownKernel(kernel.to_string()))?;
    if super::stages::iterates_over_the_grid(&k.body) {
        return Err(CodegenError::Unsupported(
            "`iterate` whose steps run `map_glb` or `map_wrg` needs a kernel per step (one \
             kernel cannot wait for the whole grid between steps): give it a constant count, at \
             most 32 kernels in all"
                .into(),
        ));
    }
    let body = expand_nd(unroll_shrinking(k.body.clone(), None));
    let fusion = normalize(left_choice(
        rule(algorithmic::apply_to_compose()),
        left_choice(
            rule(algorithmic::map_fusion()),
            rule(algorithmic::map_reduce_fusion()),
        ),
    ));
    k.body = fusion.apply(&body, &ctx).unwrap_or(body);
    check_program(&mut out).map_err(|e| CodegenError::Lowering(e.to_string()))?;
    Ok(out)
}

/// Step 4: every map left high-level in kernel `kernel` of `prog` becomes `map_seq` and
/// every `reduce` `reduce_seq`; the result is type-checked.
pub fn finish(mut prog: Program, kernel: &str, info: &KernelInfo) -> GResult<Lowered> {
    let k = prog
        .kernel(kernel)
        .ok_or_else(|| CodegenError::UnknownKernel(kernel.to_string()))?;
    let ctx = RewriteCtx::for_kernel(&prog, k, info);
    let k = prog
        .kernels
        .iter_mut()
        .find(|k| k.name == kernel)
        .ok_or_else(|| CodegenError::UnknownKernel(kernel.to_string()))?;
    let sequential = normalize(left_choice(
        rule(lowering::lower_map(MapLevel::Seq)),
        rule(lowering::lower_reduce()),
    ));
    k.body = sequential
        .apply(&k.body, &ctx)
        .unwrap_or_else(|| k.body.clone());
    let infos = check_program(&mut prog).map_err(|e| CodegenError::Lowering(e.to_string()))?;
    let info = infos
        .into_iter()
        .find(|i| i.name == kernel)
        .unwrap_or_else(|| info.clone());
    Ok(Lowered { prog, info })
}

/// Rebuilds `e` with `f` applied to every direct child expression.
fn map_children(e: Expr, f: &mut dyn FnMut(Expr) -> Expr) -> Expr {
    let Expr { kind, span, ty } = e;
    let bx = |x: Box<Expr>, f: &mut dyn FnMut(Expr) -> Expr| Box::new(f(*x));
    let kind = match kind {
        ExprKind::Prim(p, args) => ExprKind::Prim(
            p,
            args.into_iter()
                .map(|a| match a {
                    PrimArg::Fun(x) => PrimArg::Fun(f(x)),
                    PrimArg::Value(x) => PrimArg::Value(f(x)),
                    a => a,
                })
                .collect(),
        ),
        ExprKind::Lambda(ps, b) => ExprKind::Lambda(ps, bx(b, f)),
        ExprKind::Compose(es) => ExprKind::Compose(es.into_iter().map(&mut *f).collect()),
        ExprKind::Apply(g, es) => {
            let g = bx(g, f);
            ExprKind::Apply(g, es.into_iter().map(&mut *f).collect())
        }
        ExprKind::Tuple(es) => ExprKind::Tuple(es.into_iter().map(&mut *f).collect()),
        ExprKind::Proj(x, i) => ExprKind::Proj(bx(x, f), i),
        ExprKind::Index(x, i) => ExprKind::Index(bx(x, f), i),
        ExprKind::Binary(op, a, b) => {
            let a = bx(a, f);
            ExprKind::Binary(op, a, bx(b, f))
        }
        ExprKind::Unary(op, x) => ExprKind::Unary(op, bx(x, f)),
        ExprKind::If(c, a, b) => {
            let c = bx(c, f);
            let a = bx(a, f);
            ExprKind::If(c, a, bx(b, f))
        }
        ExprKind::Cast(x, t) => ExprKind::Cast(bx(x, f), t),
        ExprKind::Let(p, v, b) => {
            let v = bx(v, f);
            ExprKind::Let(p, v, bx(b, f))
        }
        ExprKind::Point(n, a, x) => ExprKind::Point(n, a, bx(x, f)),
        k => k,
    };
    Expr { kind, span, ty }
}

fn prim(p: Prim, args: Vec<PrimArg>, span: proc_macro2::Span) -> Expr {
    Expr::new(ExprKind::Prim(p, args), span)
}

/// The largest `k` of a shrinking `iterate` that is unrolled.
const MAX_UNROLL: i64 = 32;

/// Unrolls every shrinking `iterate(k, f)` whose input type is known: the argument of an
/// application, or the result of the function to its right in a composition.
fn unroll_shrinking(e: Expr, input: Option<&crate::types::Type>) -> Expr {
    let span = e.span;
    match e.kind {
        ExprKind::Apply(f, args) => {
            let args: Vec<Expr> = args
                .into_iter()
                .map(|a| unroll_shrinking(a, None))
                .collect();
            let input = match &args[..] {
                [x] => x.ty.clone(),
                _ => None,
            };
            let f = unroll_shrinking(*f, input.as_ref());
            Expr {
                kind: ExprKind::Apply(Box::new(f), args),
                span,
                ty: e.ty,
            }
        }
        ExprKind::Compose(fs) => {
            let mut out = Vec::with_capacity(fs.len());
            let mut next_input = input.cloned();
            for f in fs.into_iter().rev() {
                let result = f.ty.clone();
                out.push(unroll_shrinking(f, next_input.as_ref()));
                next_input = result;
            }
            out.reverse();
            Expr {
                kind: ExprKind::Compose(out),
                span,
                ty: e.ty,
            }
        }
        ExprKind::Prim(Prim::Iterate, args) => {
            let k = args.iter().find_map(|a| a.as_nat()?.as_cst());
            let shrinking = matches!((input, &e.ty), (Some(i), Some(o)) if i != o);
            match (k, args.iter().rev().find_map(PrimArg::as_fun)) {
                (Some(k), Some(f)) if shrinking && (1..=MAX_UNROLL).contains(&k) => {
                    let f = unroll_shrinking(f.clone(), None);
                    Expr::new(ExprKind::Compose(vec![f; k as usize]), span)
                }
                _ => map_children(
                    Expr {
                        kind: ExprKind::Prim(Prim::Iterate, args),
                        span,
                        ty: e.ty,
                    },
                    &mut |x| unroll_shrinking(x, None),
                ),
            }
        }
        kind => map_children(
            Expr {
                kind,
                span,
                ty: e.ty,
            },
            &mut |x| unroll_shrinking(x, None),
        ),
    }
}

/// `map2(f)` to `map(map(f))`, `map3(f)` to `map(map(map(f)))`.
fn expand_nd(e: Expr) -> Expr {
    let e = map_children(e, &mut expand_nd);
    match e.kind {
        ExprKind::Prim(p @ (Prim::Map2 | Prim::Map3), args) => {
            let span = e.span;
            let mut out = prim(Prim::Map, args, span);
            for _ in 0..(if p == Prim::Map2 { 1 } else { 2 }) {
                out = prim(Prim::Map, vec![PrimArg::Fun(out)], span);
            }
            out
        }
        kind => Expr { kind, ..e },
    }
}

fn is_prim(e: &Expr, ps: &[Prim]) -> bool {
    matches!(&e.kind, ExprKind::Prim(p, _) if ps.contains(p))
}

/// Does the expression use a map over the whole grid (`map_glb`, `map_wrg`)?
pub(crate) fn uses_grid_map(e: &Expr) -> bool {
    is_prim(e, &[Prim::MapGlb, Prim::MapWrg]) || {
        let mut found = false;
        let _ = map_children(e.clone(), &mut |x| {
            found |= uses_grid_map(&x);
            x
        });
        found
    }
}

/// Does the expression use a parallel map?
pub(crate) fn uses_parallel(e: &Expr) -> bool {
    let mut found = false;
    let _ = map_children(e.clone(), &mut |x| {
        found |= is_prim(&x, &[Prim::MapGlb, Prim::MapWrg, Prim::MapLcl]) || uses_parallel(&x);
        x
    });
    found
}

/// Makes the single map of `layout o map(f) o layout $ pure` a `map_glb`; a body that only
/// reads (`transpose $ a`) becomes `map_glb(.., id)` over up to three dimensions of it.
fn parallel_top(body: &mut Expr) {
    if is_pure(body) {
        let depth = body.ty.as_ref().map_or(0, |t| t.dims().len()).min(3);
        if depth > 0 {
            let span = body.span;
            let mut m = prim(Prim::Id, Vec::new(), span);
            for _ in 0..depth {
                m = prim(Prim::Map, vec![PrimArg::Fun(m)], span);
            }
            make_glb(&mut m, depth as i64 - 1);
            *body = Expr::new(ExprKind::Apply(Box::new(m), vec![body.clone()]), span);
        }
        return;
    }
    let ExprKind::Apply(f, args) = &mut body.kind else {
        return;
    };
    if !args.iter().all(is_pure) {
        return;
    }
    let fs: &mut [Expr] = match &mut f.kind {
        ExprKind::Compose(fs) => fs,
        _ => std::slice::from_mut(&mut **f),
    };
    let computing: Vec<usize> = (0..fs.len()).filter(|&i| !is_layout(&fs[i])).collect();
    if let [i] = computing[..] {
        let depth = map_depth(&fs[i]).min(3);
        make_glb(&mut fs[i], depth - 1);
    }
}

/// How many maps are directly nested at the top of `m` (`map(map(f))` is 2; a map whose
/// function is `|x| map(g) $ data` counts the inner map too, as in GEMM).
fn map_depth(m: &Expr) -> i64 {
    match &m.kind {
        ExprKind::Prim(Prim::Map, args) => {
            1 + args
                .iter()
                .rev()
                .find_map(PrimArg::as_fun)
                .and_then(nested_map)
                .map_or(0, map_depth)
        }
        _ => 0,
    }
}

/// The map nested directly in the function `f` of a map: `f` itself, the single map of a
/// composition `layout o map(g) o layout`, or the single map of
/// `|x| layout o map(g) o layout $ pure`.
pub(crate) fn nested_map(f: &Expr) -> Option<&Expr> {
    match &f.kind {
        ExprKind::Prim(Prim::Map, _) => Some(f),
        ExprKind::Compose(fs) => single_map(fs),
        ExprKind::Lambda(_, body) => match &body.kind {
            ExprKind::Apply(g, args) if args.iter().all(is_pure) => match &g.kind {
                ExprKind::Compose(fs) => single_map(fs),
                _ if is_prim(g, &[Prim::Map]) => Some(g),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// The one computing function of a chain, if the rest are layouts and it is a map or a lambda
/// `|x| layout o map(g) o layout $ pure` (its map then).
fn single_map(fs: &[Expr]) -> Option<&Expr> {
    let mut computing = fs.iter().filter(|x| !is_layout(x));
    match (computing.next(), computing.next()) {
        (Some(m), None) if is_prim(m, &[Prim::Map]) => Some(m),
        (Some(m), None) if matches!(m.kind, ExprKind::Lambda(..)) => nested_map(m),
        _ => None,
    }
}

/// The mutable counterpart of [`nested_map`].
fn nested_map_mut(f: &mut Expr) -> Option<&mut Expr> {
    nested_map(f)?;
    if is_prim(f, &[Prim::Map]) {
        return Some(f);
    }
    let fs = match &mut f.kind {
        ExprKind::Compose(fs) => fs,
        ExprKind::Lambda(_, body) => {
            let ExprKind::Apply(g, _) = &mut body.kind else {
                return None;
            };
            if is_prim(g, &[Prim::Map]) {
                return Some(&mut **g);
            }
            match &mut g.kind {
                ExprKind::Compose(fs) => fs,
                _ => return None,
            }
        }
        _ => return None,
    };
    let x = fs.iter_mut().find(|x| !is_layout(x))?;
    if is_prim(x, &[Prim::Map]) {
        Some(x)
    } else {
        nested_map_mut(x)
    }
}

/// Makes `m` and the maps nested in it (see [`nested_map`]) `map_glb`, the innermost in
/// dimension 0: neighbouring work-items then touch neighbouring elements of row-major arrays
/// (coalescing).
fn make_glb(m: &mut Expr, d: i64) {
    let span = m.span;
    if let ExprKind::Prim(p @ Prim::Map, args) = &mut m.kind {
        *p = Prim::MapGlb;
        args.insert(0, PrimArg::Nat(Nat::cst(d), span));
        if d > 0 {
            if let Some(inner) = args
                .last_mut()
                .and_then(PrimArg::as_fun_mut)
                .and_then(nested_map_mut)
            {
                make_glb(inner, d - 1);
            }
        }
    }
}
