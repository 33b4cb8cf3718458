//! A specialised variant for matrix multiplication written in high-level primitives:
//!
//! ```text
//! map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) o transpose $ b) $ a
//! ```
//!
//! is also compiled as LIFT's tiled matrix multiplication (work-groups over 128x128 output
//! tiles, A and B tiles staged in local memory per K-step behind one shared barrier, a
//! `reduce_seq` over K-tiles whose array accumulator lives in private memory, 8x8 register
//! blocks per work-item: rows `l1 + 16i`, columns `64g + 4 l0 + u`, so that each K-quad reads
//! A and B from local memory with `vload4` into private `float4`s, used lane by lane). The tiled
//! program needs `N % 128 == 0`, `M % 128 == 0` and `K % 16 == 0`; the launcher runs it when
//! the sizes satisfy those conditions and the general program otherwise.

use super::GResult;
use crate::ir::{Expr, ExprKind, Kernel, Pat, PrimArg, Program, Section};
use crate::prim::Prim;
use crate::types::{ScalarType, Type};

/// The tiled program, with `A` and `B` standing for the two matrices.
const TILED: &str = "join o map_wrg(1, |arows|
    transpose o join o map_wrg(0, |bcols|
        map_seq(join o transpose) o join o map_seq(join) o transpose o map_seq(split(4) o transpose)
        o map_lcl(0, map_lcl(1, map_seq_unroll(map_seq_unroll(id)))) o
        reduce_seq(|acc, t| (|(al, bl)|
            map_lcl(0, |(accc, bb)| map_lcl(1, |(blk, ab)|
                reduce_seq(|bq, q| (|(ap, bs)|
                    reduce_seq_unroll(|bk, ks| (|(bp, av)|
                        map_seq_unroll(|(brow, bv)| map_seq_unroll(|(e, a)| e + a * bv) $ zip(brow, av)) $ zip(bk, bp)
                    ) $ (as_scalar o to_private(map_seq_unroll(id)) $ ks.0, ks.1), bq)
                    $ zip(bs, transpose o split(4) o as_scalar $ ap)
                ) $ (to_private(map_seq_unroll(id)) $ q.1, q.0), blk)
                $ zip(split(4) $ bb, transpose o map(as_vector(4)) $ ab)
            ) $ zip(accc, transpose o split(16) $ al)) $ zip(acc, transpose o map(transpose o split(16) o as_vector(4)) $ bl)
        ) $ (to_local(join o transpose o map_lcl(1, map_seq(map_lcl(0, id))) o transpose o split(16)) o transpose $ t.0,
             to_local(map_lcl(1, join o map_seq(map_lcl(0, id)) o split(16))) $ t.1),
            to_private(map_lcl(0, |c| map_lcl(1, |r| map_seq_unroll(|x| map_seq_unroll(|y| 0.0f32) $ r) $ c)
                $ (transpose o split(16) $ arows))) $ (transpose o split(16) $ bcols))
        $ zip(split(16) o transpose $ arows, split(16) o transpose $ bcols)
    ) o split(128) o transpose $ B
) o split(128) $ A";

/// The names of the two matrices if `k` is the f32 matrix multiplication above.
fn matrices(k: &Kernel) -> Option<(String, String)> {
    let ExprKind::Apply(outer, xs) = &k.body.kind else {
        return None;
    };
    let [Expr {
        kind: ExprKind::Ident(a),
        ..
    }] = &xs[..]
    else {
        return None;
    };
    let (r, row_body) = lambda1(outer.prim_fun(Prim::Map)?)?;
    let ExprKind::Apply(inner, ys) = &row_body.kind else {
        return None;
    };
    let [Expr {
        kind: ExprKind::Ident(b),
        ..
    }] = &ys[..]
    else {
        return None;
    };
    let ExprKind::Compose(fs) = &inner.kind else {
        return None;
    };
    let [m, t] = &fs[..] else { return None };
    if !matches!(&t.kind, ExprKind::Prim(Prim::Transpose, args) if args.is_empty()) {
        return None;
    }
    let (c, dot) = lambda1(m.prim_fun(Prim::Map)?)?;
    is_dot(dot, r, c).then(|| (a.clone(), b.clone()))
}

/// `reduce(+, 0) o map(|p| p.0 * p.1) $ zip(r, c)` (or `p.1 * p.0`).
fn is_dot(e: &Expr, r: &str, c: &str) -> bool {
    let ExprKind::Apply(f, xs) = &e.kind else {
        return false;
    };
    let [Expr {
        kind: ExprKind::Apply(z, zs),
        ..
    }] = &xs[..]
    else {
        return false;
    };
    let zipped = matches!(&z.kind, ExprKind::Prim(Prim::Zip, a) if a.is_empty())
        && matches!(&zs[..], [Expr { kind: ExprKind::Ident(x), .. }, Expr { kind: ExprKind::Ident(y), .. }] if x == r && y == c);
    let ExprKind::Compose(fs) = &f.kind else {
        return false;
    };
    let [red, mul] = &fs[..] else { return false };
    let ExprKind::Prim(Prim::Reduce, rargs) = &red.kind else {
        return false;
    };
    let add = rargs.iter().any(|a| {
        matches!(
            a,
            PrimArg::Fun(Expr {
                kind: ExprKind::Section(Section::Add),
                ..
            })
        )
    });
    let zero = rargs.iter().any(|a| matches!(a, PrimArg::Value(Expr { kind: ExprKind::Lit(v, _), .. }) if matches!(v, crate::ir::LitValue::Float(x) if *x == 0.0) || matches!(v, crate::ir::LitValue::Int(0))));
    let Some((p, prod)) = mul.prim_fun(Prim::Map).and_then(lambda1) else {
        return false;
    };
    let ExprKind::Binary(crate::ir::BinOp::Mul, x, y) = &prod.kind else {
        return false;
    };
    let field = |e: &Expr| match &e.kind {
        ExprKind::Proj(v, i) if matches!(&v.kind, ExprKind::Ident(n) if n == p) => Some(*i),
        _ => None,
    };
    let fields = (field(x), field(y));
    zipped && add && zero && matches!(fields, (Some(0), Some(1)) | (Some(1), Some(0)))
}

/// `|x| body` with a single named parameter.
fn lambda1(e: &Expr) -> Option<(&str, &Expr)> {
    match &e.kind {
        ExprKind::Lambda(ps, body) => match &ps[..] {
            [Pat::Name(n, _)] => Some((n.as_str(), &**body)),
            _ => None,
        },
        _ => None,
    }
}

/// The tiled variant of kernel `kernel`, type-checked (its launch-time conditions say when it
/// applies), if the kernel is an f32 matrix multiplication of the shape above.
pub(crate) fn specialise(prog: &Program, kernel: &str) -> GResult<Option<super::Generated>> {
    let Some(k) = prog.kernel(kernel) else {
        return Ok(None);
    };
    let f32_matrix = |t: &Type| t.dims().len() == 2 && t.base() == &Type::Scalar(ScalarType::F32);
    if !k.params.iter().all(|p| f32_matrix(&p.ty)) || !f32_matrix(&k.ret) {
        return Ok(None);
    }
    let Some((a, b)) = matrices(k) else {
        return Ok(None);
    };
    let text = TILED
        .replace("$ B\n", &format!("$ {b}\n"))
        .replace("$ A", &format!("$ {a}"));
    let sizes: Vec<&str> = k.sizes.iter().map(|(s, _)| s.as_str()).collect();
    let Ok(body) = crate::parse::parse_expr_str(&text, &sizes) else {
        return Ok(None);
    };
    let mut tiled = prog.clone();
    let Some(tk) = tiled.kernels.iter_mut().find(|x| x.name == kernel) else {
        return Ok(None);
    };
    tk.body = body;
    let Ok(infos) = crate::typeck::check_program(&mut tiled) else {
        return Ok(None);
    };
    let Some(info) = infos.into_iter().find(|i| i.name == kernel) else {
        return Ok(None);
    };
    let mut g = super::generate_checked(&tiled, kernel, &info)?;
    if !g.temporaries.is_empty() {
        return Ok(None);
    }
    g.preconditions = info.preconditions;
    Ok(Some(g))
}
