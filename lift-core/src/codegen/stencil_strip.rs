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
//!
//! 3-D stencils, `map3(f) o slide3(...) o pad3(...) $ x` with a window of more than one
//! plane, get strips of [`STRIP3`] consecutive planes the same way, the strip's rows and
//! columns interchanged outside in turn (each `[S][L]` plane of the strip handled as in 2-D):
//!
//! ```text
//! join o map_glb(2, |strip_p| transpose o map_glb(1, |strip_s|
//!         transpose o map_glb(0, map_seq_unroll(f)) o transpose $ strip_s)
//!     o transpose $ strip_p) o split(S) o slide3(...) o pad3(...) $ x
//! ```
//!
//! (the number of planes a multiple of `S`).

use super::GResult;
use crate::arith::Nat;
use crate::ir::{Expr, ExprKind, Pat, PrimArg, Program};
use crate::prim::Prim;
use crate::types::{ScalarType, Type};

/// Outputs per work-item (consecutive rows).
pub(crate) const STRIP: i64 = 8;

/// Outputs per work-item of a 3-D stencil (consecutive planes): on the H100, jacobi3d 512^3
/// took 0.415 ms with 4, 0.428 ms with 8 (0.414 / 0.434 ms with strips along the middle
/// dimension instead), 0.566 ms without strips.
pub(crate) const STRIP3: i64 = 4;

/// The strip-mined variant of kernel `kernel`, type-checked (its launch-time condition says
/// when it applies), if the kernel is an f32 2-D stencil of the shape above whose window has
/// more than one row (with one row, consecutive rows share no loads).
pub(crate) fn specialise(prog: &Program, kernel: &str) -> GResult<Option<super::Generated>> {
    let Some(k) = prog.kernel(kernel) else {
        return Ok(None);
    };
    let f32_matrix =
        |t: &Type| matches!(t.dims().len(), 2 | 3) && t.base() == &Type::Scalar(ScalarType::F32);
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

/// The strip-mined body, if `body` is `map2(f) o layout... $ x` (or `map3(f) o layout... $ x`)
/// with a `slide2` (`slide3`) of more than one row (plane) among the layout primitives (only
/// views: `slide2`/`pad2`, `slide3`/`pad3`).
fn strips(body: &Expr) -> Option<Expr> {
    let ExprKind::Apply(fun, xs) = &body.kind else {
        return None;
    };
    let ExprKind::Compose(fs) = &fun.kind else {
        return None;
    };
    let (first, rest) = fs.split_first()?;
    let (f, slide, pad) = match first.prim_fun(Prim::Map2) {
        Some(f) => (f, Prim::Slide2, Prim::Pad2),
        None => (first.prim_fun(Prim::Map3)?, Prim::Slide3, Prim::Pad3),
    };
    if !rest
        .iter()
        .all(|e| matches!(e.as_prim(), Some((p, _)) if p == slide || p == pad))
    {
        return None;
    }
    let tall = rest.iter().any(|e| {
        e.prim_nats(slide)
            .and_then(|n| n.first().and_then(Nat::as_cst))
            .is_some_and(|rows| rows > 1)
    });
    if !tall {
        return None;
    }
    let span = body.span;
    let prim = |p: Prim, args: Vec<PrimArg>| Expr::new(ExprKind::Prim(p, args), span);
    let nat = |n: i64| PrimArg::Nat(Nat::cst(n), span);
    // `|name| transpose o map_glb(dim, g) o transpose $ name`
    let interchange = |name: &str, dim: i64, g: Expr| {
        let inner = Expr::new(
            ExprKind::Apply(
                Box::new(Expr::new(
                    ExprKind::Compose(vec![
                        prim(Prim::Transpose, vec![]),
                        prim(Prim::MapGlb, vec![nat(dim), PrimArg::Fun(g)]),
                        prim(Prim::Transpose, vec![]),
                    ]),
                    span,
                )),
                vec![Expr::new(ExprKind::Ident(name.to_string()), span)],
            ),
            span,
        );
        Expr::new(
            ExprKind::Lambda(vec![Pat::Name(name.to_string(), span)], Box::new(inner)),
            span,
        )
    };
    let rows = prim(Prim::MapSeqUnroll, vec![PrimArg::Fun(f.clone())]);
    // 2-D: the strip is `[S][M]` windows, columns on `map_glb(0)`.
    let mut strip = interchange("strip_s", 0, rows);
    let mut size = STRIP;
    if slide == Prim::Slide3 {
        // 3-D: the strip is `[S][M][L]`; its planes go inside the middle dimension
        // (`map_glb(1)`), each `[S][L]` handled as in 2-D.
        strip = interchange("strip_p", 1, strip);
        size = STRIP3;
    }
    let outer = if slide == Prim::Slide3 { 2 } else { 1 };
    let mut chain = vec![
        prim(Prim::Join, vec![]),
        prim(Prim::MapGlb, vec![nat(outer), PrimArg::Fun(strip)]),
        prim(Prim::Split, vec![nat(size)]),
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
