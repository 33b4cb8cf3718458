//! Kernel fission at a view (the thesis' `kernel_fission` placed where a convolution becomes
//! im2col + GEMM): a product in disguise ([`super::products`]) reads its rows through a view
//! that repeats data (`slide2` windows over a `pad2`), so every load of the blocked product
//! computes a window's index (divisions by the channel count, the width, 3) and bounds. The
//! alternatives materialise a view first, by the rules of [`crate::rewrite::views`]:
//!
//! ```text
//! materialise_windows (im2col, materialise=1):
//!   s0: map^d(map(id) o join^(r-1)) o L $ x                    -> lift_m0
//!   s1..: map^d(|w| B[w := split(n1) o .. o split(n_{r-1}) $ w]) $ lift_m0   (a plain product)
//! materialise_input (the padded input, materialise=2):
//!   s0: map^r(id) o Lo $ x                                     -> lift_i0
//!   s1..: f o W $ lift_i0                                       (windows without bounds)
//! ```
//!
//! The second part is explored as a kernel of its own, with the copy a parameter: its blocked
//! and partial-product candidates come after the copy stage. The tuner compares them with the
//! unmaterialised ones (memory against time: the materialised windows take `d`-dimensional
//! elements times their length).

use super::strategy::{Nest, Strategy};
use super::Candidate;
use crate::device::DeviceModel;
use crate::ir::{ExprKind, Pat, Program};
use crate::rewrite::views::{materialise_input, materialise_windows};
use crate::rewrite::{RewriteCtx, Rule};
use crate::typeck::KernelInfo;

/// Of the product's candidates, the most kept (its unsplit blockings of the three largest
/// tilings, then the partial products of the largest).
const MAX_KEPT: usize = 32;

/// The candidates that materialise the view of kernel `kernel`'s body (see the module docs),
/// with the parameter `materialise=1`, and those that materialise the input below the
/// windows (`materialise=2`); none unless the body is a product in disguise over a view with
/// windows.
pub fn candidates(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    device: &DeviceModel,
) -> Vec<Candidate> {
    if super::products::as_product(prog, kernel).is_none() {
        return Vec::new();
    }
    let mut out = fission(prog, kernel, info, device, Nest::Im2col).unwrap_or_default();
    out.extend(fission(prog, kernel, info, device, Nest::PaddedInput).unwrap_or_default());
    out
}

/// Kernel fission by the rule of `nest`: [`materialise_windows`] for [`Nest::Im2col`] (the
/// windows flattened to rows, then a plain product over them), [`materialise_input`] for
/// [`Nest::PaddedInput`] (a copy kernel writes the padded image, a little larger than the
/// input, then the product reads its windows without the padding's bounds checks: the
/// thesis' `kernel_fission` before `slide`, Table 6.1, a direct convolution over an optimised
/// input layout). The rule's `let` is computed by a kernel of its own, the rest explored as a
/// kernel with the value a parameter ([`super::lets::nest`]).
fn fission(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    device: &DeviceModel,
    nest: Nest,
) -> Option<Vec<Candidate>> {
    let k = prog.kernel(kernel)?;
    let (rule, value, rest): (Rule, _, _) = match nest {
        Nest::Im2col => (materialise_windows(), "m", "p"),
        _ => (materialise_input(), "i", "q"),
    };
    let ctx = RewriteCtx::for_kernel(prog, k, info);
    let new = rule.apply(&k.body, &ctx)?;
    let ExprKind::Let(Pat::Name(param, _), copy, rest_body) = new.kind else {
        return None;
    };
    let names = super::lets::Names {
        value: format!("{kernel}_{value}"),
        param,
        rest: format!("{kernel}_{rest}"),
        nest,
    };
    let keep = move |cs: Vec<Candidate>| match nest {
        // The product over the copy's windows, unmaterialised (its own im2col candidates
        // would copy the input twice).
        Nest::PaddedInput => {
            let cs = cs.into_iter().filter(|c| !materialises(c)).collect();
            super::lets::largest_blocks(cs, MAX_KEPT)
        }
        _ => super::lets::largest_blocks(cs, MAX_KEPT),
    };
    super::lets::nest(
        prog,
        k,
        info,
        (*copy, *rest_body),
        &names,
        (super::Scope::All, device),
        &keep,
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
