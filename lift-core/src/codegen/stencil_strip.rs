//! A specialised variant for 2-D stencils written in high-level primitives:
//!
//! ```text
//! map2(f) o slide2(...) o pad2(...) $ x
//! ```
//!
//! is also compiled with strips of [`STRIP`] vertically consecutive outputs per work-item.
//! After `map2(f)` becomes `map(map(f))`, the split-join rule splits the rows of the
//! neighbourhood matrix into strips and the interchange rule (`map(map(f)) = transpose o
//! map(map(f)) o transpose`) puts the columns outside:
//!
//! ```text
//! join o map_glb(1, |strip| transpose o map_glb(0, map_seq_unroll(f)) o transpose $ strip)
//!     o split(S) o slide2(...) o pad2(...) $ x
//! ```
//!
//! All of it but the maps is views, so the work-item of strip `i` and column `j` reads its
//! `S` neighbourhoods straight from the input; the rows are unrolled, so the OpenCL compiler
//! sees the same (restrict) loads in consecutive rows and keeps them in registers: for a
//! `k x l` window, `l (S + k - 1)` loads for `S` outputs instead of `k l S`. The variant needs
//! the number of rows to be a multiple of `S` (a launch-time condition from `split`); the
//! general program runs otherwise.

use super::GResult;
use crate::arith::Nat;
use crate::ir::{Expr, ExprKind, Pat, PrimArg, Program};
use crate::prim::Prim;
use crate::types::{ScalarType, Type};

/// Outputs per work-item (consecutive rows).
pub(crate) const STRIP: i64 = 8;

/// The strip-mined variant of kernel `kernel`, type-checked (its launch-time condition says
/// when it applies), if the kernel is an f32 2-D stencil of the shape above whose window has
/// more than one row (with one row, consecutive rows share no loads).
pub(crate) fn specialise(prog: &Program, kernel: &str) -> GResult<Option<super::Generated>> {
    let Some(k) = prog.kernel(kernel) else {
        return Ok(None);
    };
    let f32_matrix = |t: &Type| t.dims().len() == 2 && t.base() == &Type::Scalar(ScalarType::F32);
    if !k.params.iter().all(|p| f32_matrix(&p.ty)) || !f32_matrix(&k.ret) {
        return Ok(None);
    }
    let Some(body) = strips(&k.body) else {
        return Ok(None);
    };
    let mut strip = prog.clone();
    let Some(sk) = strip.kernels.iter_mut().find(|x| x.name == kernel) else {
        return Ok(None);
    };
    sk.body = body;
    let Ok(infos) = crate::typeck::check_program(&mut strip) else {
        return Ok(None);
    };
    let Some(info) = infos.into_iter().find(|i| i.name == kernel) else {
        return Ok(None);
    };
    let mut g = super::generate_checked(&strip, kernel, &info)?;
    if !g.temporaries.is_empty() || g.kernels.len() != 1 {
        return Ok(None);
    }
    g.preconditions = info.preconditions;
    Ok(Some(g))
}

/// The strip-mined body, if `body` is `map2(f) o layout... $ x` with a `slide2` of more than
/// one row among the layout primitives (only views: `slide2`, `pad2`).
fn strips(body: &Expr) -> Option<Expr> {
    let ExprKind::Apply(fun, xs) = &body.kind else {
        return None;
    };
    let ExprKind::Compose(fs) = &fun.kind else {
        return None;
    };
    let (first, rest) = fs.split_first()?;
    let f = first.prim_fun(Prim::Map2)?;
    if !rest
        .iter()
        .all(|e| matches!(e.as_prim(), Some((Prim::Slide2 | Prim::Pad2, _))))
    {
        return None;
    }
    let tall = rest.iter().any(|e| {
        e.prim_nats(Prim::Slide2)
            .and_then(|n| n.first().and_then(Nat::as_cst))
            .is_some_and(|rows| rows > 1)
    });
    if !tall {
        return None;
    }
    let span = body.span;
    let prim = |p: Prim, args: Vec<PrimArg>| Expr::new(ExprKind::Prim(p, args), span);
    let nat = |n: i64| PrimArg::Nat(Nat::cst(n), span);
    let name = "strip_s";
    let rows = prim(Prim::MapSeqUnroll, vec![PrimArg::Fun(f.clone())]);
    let cols = prim(Prim::MapGlb, vec![nat(0), PrimArg::Fun(rows)]);
    let inner = Expr::new(
        ExprKind::Apply(
            Box::new(Expr::new(
                ExprKind::Compose(vec![
                    prim(Prim::Transpose, vec![]),
                    cols,
                    prim(Prim::Transpose, vec![]),
                ]),
                span,
            )),
            vec![Expr::new(ExprKind::Ident(name.to_string()), span)],
        ),
        span,
    );
    let lambda = Expr::new(
        ExprKind::Lambda(vec![Pat::Name(name.to_string(), span)], Box::new(inner)),
        span,
    );
    let mut chain = vec![
        prim(Prim::Join, vec![]),
        prim(Prim::MapGlb, vec![nat(1), PrimArg::Fun(lambda)]),
        prim(Prim::Split, vec![nat(STRIP)]),
    ];
    chain.extend(rest.iter().cloned());
    Some(Expr::new(
        ExprKind::Apply(
            Box::new(Expr::new(ExprKind::Compose(chain), span)),
            xs.clone(),
        ),
        span,
    ))
}
