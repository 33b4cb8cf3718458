//! Kernel fission at a view (the thesis' `kernel_fission` placed where a convolution becomes
//! im2col + GEMM): a product in disguise ([`super::products`]) reads its rows through a view
//! that repeats data (`slide2` windows over a `pad2`), so every load of the blocked product
//! computes a window's index (divisions by the channel count, the width, 3) and bounds. The
//! alternative materialises the view first, each element flattened to one row:
//!
//! ```text
//! s0: map^d(map(id) o join^(r-1)) o L $ x                    -> lift_m0   (im2col)
//! s1..: map^d(|w| B[w := split(n1) o .. o split(n_{r-1}) $ w]) $ lift_m0   (a plain product)
//! ```
//!
//! for a body `map^d(|w| B) o L $ x` whose elements (at depth `d`) have type
//! `[..[T; n_{r-1}]..; n0]`; `join` then `split` cancel where `B` flattens the element again
//! (`join o join $ w`), so the product reads rows of `lift_m0`. The second part is explored as
//! a kernel of its own, with `lift_m0` a parameter: its blocked and partial-product candidates
//! come after the copy stage. The tuner compares them with the unmaterialised ones (memory
//! against time: the materialised view takes `d`-dimensional elements times their length).

use super::strategy::{Nest, Strategy};
use super::Candidate;
use crate::analysis::is_layout;
use crate::device::DeviceModel;
use crate::ir::{Expr, ExprKind, Program};
use crate::prim::Prim;
use crate::rewrite::build::{self, compose, ident, prim, with_fun};
use crate::rewrite::walk::children_mut;
use crate::typeck::KernelInfo;

/// The name of the materialised view, a parameter of the product's kernel.
const VIEW: &str = "lift_m0";

/// Of the product's candidates, the most kept (its unsplit blockings of the three largest
/// tilings, then the partial products of the largest).
const MAX_KEPT: usize = 32;

/// The candidates that materialise the view of kernel `kernel`'s body (see the module docs),
/// with the parameter `materialise=1`; none unless the body is a product in disguise over a
/// view with windows.
pub fn candidates(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    device: &DeviceModel,
) -> Vec<Candidate> {
    let mut out = try_candidates(prog, kernel, info, device).unwrap_or_default();
    out.extend(padded_input(prog, kernel, info, device).unwrap_or_default());
    out
}

/// The name of the materialised input below the windows.
const INPUT: &str = "lift_i0";

/// The candidates that materialise the input of the windows instead (`materialise=2`), for a
/// view `W o L $ x` whose windows `W` read data through layouts `L` (a zero padding): a copy
/// kernel writes `L $ x` (the padded image, a little larger than `x`), then the product reads
/// its windows without the padding's bounds checks (the thesis' `kernel_fission` before
/// `slide`, Table 6.1: a direct convolution over an optimised input layout).
fn padded_input(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    device: &DeviceModel,
) -> Option<Vec<Candidate>> {
    let k = prog.kernel(kernel)?;
    super::products::as_product(prog, kernel)?;
    let (f, view) = split_view(&k.body)?;
    let ExprKind::Apply(g, xs) = &view.kind else {
        return None;
    };
    let [x] = xs.as_slice() else { return None };
    let chain = build::chain(g);
    let last = chain.iter().rposition(has_windows)?;
    let (windows, lower) = chain.split_at(last + 1);
    if lower.is_empty() || lower.iter().any(has_windows) {
        return None;
    }
    let s = k.body.span;
    let input = Expr::new(
        ExprKind::Apply(Box::new(compose(lower.to_vec(), s)), vec![x.clone()]),
        s,
    );
    let iprog = super::lets::stage_program(prog, k, format!("{kernel}_j"), input.clone(), None)?;
    let rank = iprog.kernels[0].ret.dims().len();
    let copy = Expr::new(
        ExprKind::Apply(
            Box::new(maps(rank, prim(Prim::Id, Vec::new(), s), s)),
            vec![input],
        ),
        s,
    );
    let mut rest_chain = vec![f];
    rest_chain.extend(windows.iter().cloned());
    let param = crate::rewrite::names::fresh_for(INPUT, &crate::rewrite::names::of_kernel(prog, k));
    let rest = Expr::new(
        ExprKind::Apply(Box::new(compose(rest_chain, s)), vec![ident(&param, s)]),
        s,
    );
    let names = super::lets::Names {
        value: format!("{kernel}_i"),
        param,
        rest: format!("{kernel}_q"),
        nest: Nest::PaddedInput,
    };
    // The product over the copy's windows, unmaterialised (its own im2col candidates would
    // copy the input twice).
    super::lets::nest(
        prog,
        k,
        info,
        (copy, rest),
        &names,
        (super::Scope::All, device),
        &|cs| {
            let cs = cs.into_iter().filter(|c| !materialises(c)).collect();
            super::lets::largest_blocks(cs, MAX_KEPT)
        },
    )
}

/// Does candidate `c` materialise a view (a fission of [`Nest::Im2col`] or
/// [`Nest::PaddedInput`] anywhere in its nest)?
fn materialises(c: &Candidate) -> bool {
    let Strategy::Stages(s) = &c.strategy else {
        return false;
    };
    (s.nested.iter()).any(|n| matches!(n, Nest::Im2col | Nest::PaddedInput))
}

fn try_candidates(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    device: &DeviceModel,
) -> Option<Vec<Candidate>> {
    let k = prog.kernel(kernel)?;
    super::products::as_product(prog, kernel)?;
    let (f, view) = split_view(&k.body)?;
    let s = k.body.span;
    // `f` is `map^d(|w| B)`.
    let mut depth = 0;
    let mut inner = &f;
    while let Some(g) = inner.prim_fun(Prim::Map) {
        depth += 1;
        inner = g;
    }
    let (w, body) = build::lambda1(inner)?;
    let vprog = super::lets::stage_program(prog, k, format!("{kernel}_v"), view.clone(), None)?;
    let mut elem = &vprog.kernels[0].ret;
    for _ in 0..depth {
        elem = elem.as_array()?.0;
    }
    let dims = elem.dims();
    let flat = vec![prim(Prim::Join, Vec::new(), s); dims.len().saturating_sub(1)];
    let unflat: Vec<Expr> = dims
        .iter()
        .skip(1)
        .map(|n| prim(Prim::Split, vec![build::nat(n, s)], s))
        .collect();
    // The copy: `map^d(map(id) o join^(r-1)) $ view` (a computing stage, not a view).
    let copy_row = match dims.len() {
        0 => prim(Prim::Id, Vec::new(), s),
        _ => compose(
            std::iter::once(with_fun(Prim::Map, &prim(Prim::Id, Vec::new(), s), s))
                .chain(flat)
                .collect(),
            s,
        ),
    };
    let copy = Expr::new(
        ExprKind::Apply(
            Box::new(maps(depth, copy_row, s)),
            vec![build::untyped(&view)],
        ),
        s,
    );
    // The rest over the materialised view, each element unflattened where it is read.
    let mut b = body.clone();
    if !unflat.is_empty() {
        let read = Expr::new(
            ExprKind::Apply(Box::new(compose(unflat, s)), vec![ident(w, s)]),
            s,
        );
        build::subst(&mut b, w, &read);
        cancel_join_split(&mut b);
    }
    let lam = Expr::new(
        ExprKind::Lambda(vec![crate::ir::Pat::Name(w.to_string(), s)], Box::new(b)),
        s,
    );
    let param = crate::rewrite::names::fresh_for(VIEW, &crate::rewrite::names::of_kernel(prog, k));
    let rest = Expr::new(
        ExprKind::Apply(Box::new(maps(depth, lam, s)), vec![ident(&param, s)]),
        s,
    );

    let names = super::lets::Names {
        value: format!("{kernel}_m"),
        param,
        rest: format!("{kernel}_p"),
        nest: Nest::Im2col,
    };
    super::lets::nest(
        prog,
        k,
        info,
        (copy, rest),
        &names,
        (super::Scope::All, device),
        &|cs| super::lets::largest_blocks(cs, MAX_KEPT),
    )
}

/// `f o L1 o .. o Lk $ x` (or `f $ (L $ x)`) with `f` computing and the `Li` layouts that
/// include windows (`slide`, `slide2`, `slide3`): `f` and the view `L1 o .. o Lk $ x`.
fn split_view(body: &Expr) -> Option<(Expr, Expr)> {
    let ExprKind::Apply(g, xs) = &body.kind else {
        return None;
    };
    let [x] = xs.as_slice() else { return None };
    let fs = build::chain(g);
    let (f, layouts) = fs.split_first()?;
    let view = if layouts.is_empty() {
        x.clone()
    } else if layouts.iter().all(is_layout) && crate::analysis::is_pure(x) {
        Expr::new(
            ExprKind::Apply(Box::new(compose(layouts.to_vec(), g.span)), vec![x.clone()]),
            body.span,
        )
    } else {
        return None;
    };
    (crate::analysis::is_pure(&view) && has_windows(&view) && !is_layout(f))
        .then(|| (f.clone(), view))
}

/// Does the view use a window primitive (which repeats elements)?
fn has_windows(e: &Expr) -> bool {
    let windows = [Prim::Slide, Prim::Slide2, Prim::Slide3];
    matches!(&e.kind, ExprKind::Prim(p, _) if windows.contains(p))
        || crate::rewrite::walk::children(e)
            .into_iter()
            .any(has_windows)
}

/// `map^d(f)`.
fn maps(d: usize, f: Expr, s: proc_macro2::Span) -> Expr {
    (0..d).fold(f, |g, _| with_fun(Prim::Map, &g, s))
}

/// Replaces every `L1 $ (L2 $ x)` of layouts by `L1 o L2 $ x` and drops each `join` followed
/// by a `split` in a layout chain (`join o split(n) = id`).
fn cancel_join_split(e: &mut Expr) {
    for c in children_mut(e) {
        cancel_join_split(c);
    }
    if let Some((f, g, ys)) = build::apply_of_apply(e) {
        if is_layout(f) && is_layout(g) {
            *e = build::apply_composed(f, g, ys, e);
        }
    }
    let ExprKind::Apply(f, xs) = &e.kind else {
        return;
    };
    if !is_layout(f) {
        return;
    }
    let mut fs = build::chain(f);
    let mut i = 0;
    while i + 1 < fs.len() {
        if build::is_bare(&fs[i], Prim::Join) && fs[i + 1].prim_nats(Prim::Split).is_some() {
            fs.drain(i..i + 2);
            i = i.saturating_sub(1);
        } else {
            i += 1;
        }
    }
    let xs = xs.clone();
    *e = match (fs.is_empty(), xs.as_slice()) {
        (true, [x]) => x.clone(),
        _ => Expr::new(ExprKind::Apply(Box::new(compose(fs, e.span)), xs), e.span),
    };
}
