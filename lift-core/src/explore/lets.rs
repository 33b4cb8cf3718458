//! Kernel fission at a value, nested: a body `{ let t = V; R }` whose value `V` is a computed
//! array (the `kernel_fission` rewrite point writes one, [`crate::rewrite::points`]; a user
//! may too) runs as
//!
//! ```text
//! s0:  V                      -> t      (its own kernel: the value's default candidate)
//! s1..: R, `t` a parameter    -> out    (explored as a kernel of its own)
//! ```
//!
//! Unlike [`super::stages::fission`], which fixes every stage but one to its default, the rest
//! is explored as a whole kernel: each of its candidates follows the value's stage, its own
//! stages included (a partial product after an im2col copy, or a further `let`). The value's
//! other candidates that apply at every size come with the rest's default. [`nest`] is shared
//! with [`super::materialise`], which builds the value (the windows of a convolution) itself.

use super::stages::{unconditional, with_conditions, Stage};
use super::strategy::{Nest, Stages, Strategy};
use super::{Candidate, Lowering};
use crate::analysis::is_pure;
use crate::device::DeviceModel;
use crate::ir::{Expr, ExprKind, Kernel, Param, Pat, Program};
use crate::prim::Prim;
use crate::rewrite::build;
use crate::typeck::{check_program, KernelInfo};

/// Of the rest's candidates, the most kept after a `let`'s value.
const MAX_REST: usize = 32;

/// Other candidates of a `let`'s value offered (with the rest's default).
const VALUE_VARIANTS: usize = 2;

/// The candidates of kernel `kernel` whose body, past `let`s of views (read where used), is
/// `{ let t = V; R }` with `V` a computed array (see the module docs), with the parameter
/// `fission=1`; none otherwise.
pub fn candidates(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    (scope, device): (super::Scope, &DeviceModel),
) -> Vec<Candidate> {
    let Some(k) = prog.kernel(kernel) else {
        return Vec::new();
    };
    let mut body = &k.body;
    let mut views: Vec<(&str, &Expr)> = Vec::new();
    let (name, value, rest) = loop {
        let ExprKind::Let(Pat::Name(n, _), v, b) = &body.kind else {
            return Vec::new();
        };
        if !is_pure(v) {
            break (n, v, b);
        }
        views.push((n, v));
        body = b;
    };
    if value.ty.as_ref().and_then(|t| t.as_array()).is_none() {
        return Vec::new();
    }
    let read = |e: &Expr| {
        let mut e = e.clone();
        for (n, v) in views.iter().rev() {
            build::subst(&mut e, n, v);
        }
        e
    };
    let (value, mut rest) = (read(value), read(rest));
    // The value becomes a kernel parameter of the rest, named as nothing in the kernel.
    let taken = crate::rewrite::names::of_kernel(prog, k);
    let param = crate::rewrite::names::fresh_for(&format!("lift_l{}", k.params.len()), &taken);
    let read_param = build::ident(&param, rest.span);
    build::subst(&mut rest, name, &read_param);
    let names = Names {
        value: format!("{kernel}_l"),
        param,
        rest: format!("{kernel}_r"),
        nest: Nest::Let,
    };
    nest(
        prog,
        k,
        info,
        (value, rest),
        &names,
        (scope, device),
        &|cs| largest_blocks(cs, MAX_REST),
    )
    .unwrap_or_default()
}

/// Of candidates `cands` of a product, the unsplit blockings of the largest tilings (at least
/// half the largest block) and the partial products of the largest, up to `max`; of other
/// candidates, the first `max`.
pub(crate) fn largest_blocks(cands: Vec<Candidate>, max: usize) -> Vec<Candidate> {
    let largest = cands.iter().map(super::block_area).max().unwrap_or(0);
    if largest == 0 {
        return cands.into_iter().take(max).collect();
    }
    cands
        .into_iter()
        .filter(|c| {
            let split = matches!(&c.strategy, Strategy::Stages(s) if s.split.is_some());
            let area = super::block_area(c);
            area > 0
                && if split {
                    area == largest
                } else {
                    2 * area >= largest
                }
        })
        .take(max)
        .collect()
}

/// The names of a nested fission: the value's kernel, the parameter the rest reads it as, the
/// rest's kernel; and which fission it is (it marks its candidates).
pub(crate) struct Names {
    pub value: String,
    pub param: String,
    pub rest: String,
    pub nest: Nest,
}

/// Kernel fission of kernel `k` (checked as `info`) at `value`, a body over its parameters:
/// the value's default candidate (its default mapping if it is a copy, `map(..map(id))`),
/// then each candidate of `rest` (a body reading the value as parameter `names.param`) that
/// `keep` keeps (both explored in `scope`); then the value's other candidates that apply at every size (up to
/// [`VALUE_VARIANTS`]) before the rest's first kept one. `None` if a part does not check.
pub(crate) fn nest(
    prog: &Program,
    k: &Kernel,
    info: &KernelInfo,
    (value, rest): (Expr, Expr),
    names: &Names,
    (scope, device): (super::Scope, &DeviceModel),
    keep: &dyn Fn(Vec<Candidate>) -> Vec<Candidate>,
) -> Option<Vec<Candidate>> {
    let copy = is_copy(&value);
    let mut vprog = stage_program(prog, k, names.value.clone(), value, None)?;
    let vinfo = check_program(&mut vprog).ok()?.into_iter().next()?;
    let vname = vprog.kernels[0].name.clone();
    let mut values: Vec<Candidate> = super::candidates_for(&vprog, &vname, &vinfo, scope, device)
        .into_iter()
        .filter(|c| !matches!(c.strategy, Strategy::Stages(_)) && unconditional(c, &vinfo))
        .collect();
    // A copy (every element written once) runs best as its default mapping: every level
    // parallel, neighbouring work-items writing neighbouring elements.
    if let Some(i) = values
        .iter()
        .position(|c| copy && c.strategy == Strategy::Map)
    {
        let c = values.remove(i);
        values.insert(0, c);
    }
    let first = values.first()?.clone();
    let stage = |c: &Candidate| Stage {
        kernel: vname.clone(),
        candidate: c.clone(),
        result: vinfo.result.clone(),
    };

    let param = Param {
        name: names.param.clone(),
        ty: vinfo.result.clone(),
        span: k.span,
    };
    let rprog = stage_program(prog, k, names.rest.clone(), rest, Some(param))?;
    let rname = rprog.kernels[0].name.clone();
    let mut rprog = super::normalise::normalise_kernel(&rprog, &rname).ok()?;
    let rinfo = check_program(&mut rprog).ok()?.into_iter().next()?;
    let facts = crate::rewrite::RewriteCtx::facts_of(info);
    if !rinfo.result.equiv(&info.result, &facts) {
        return None;
    }
    let kept = keep(super::candidates_for(&rprog, &rname, &rinfo, scope, device));
    let mut out = Vec::new();
    for c in &kept {
        let mut stages = vec![stage(&first)];
        match &c.lowering {
            Lowering::Stages(ss) => stages.extend(ss.iter().cloned()),
            _ => stages.push(Stage {
                kernel: rname.clone(),
                candidate: c.clone(),
                result: info.result.clone(),
            }),
        }
        out.push(Candidate {
            strategy: Strategy::Stages(Stages::after_value(names.nest, &c.strategy)),
            lowering: Lowering::Stages(stages),
            info: with_conditions(info, c),
        });
    }
    // The value's other candidates, with the rest's first (as a plain second stage only).
    if let Some(c) = kept
        .first()
        .filter(|c| !matches!(c.lowering, Lowering::Stages(_)))
    {
        for (j, v) in values.iter().enumerate().skip(1).take(VALUE_VARIANTS) {
            let stages = vec![
                stage(v),
                Stage {
                    kernel: rname.clone(),
                    candidate: c.clone(),
                    result: info.result.clone(),
                },
            ];
            let variant = Stages {
                kernels: 2,
                nested: vec![names.nest],
                split: None,
                variants: vec![(0, j)],
                tuned: vec![(0, v.strategy.clone()), (1, c.strategy.clone())],
            };
            out.push(Candidate {
                strategy: Strategy::Stages(variant),
                lowering: Lowering::Stages(stages),
                info: with_conditions(info, c),
            });
        }
    }
    Some(out)
}

/// Is `e` a copy, `map(..map(id)) $ x`, its levels possibly flattening their elements first
/// (`map(map(id) o join)`)?
fn is_copy(e: &Expr) -> bool {
    fn copies(f: &Expr) -> bool {
        if let Some(g) = f.prim_fun(Prim::Map) {
            return copies(g);
        }
        match build::chain(f).split_first() {
            Some((h, rest)) if !rest.is_empty() => rest.iter().all(build::is_layout) && copies(h),
            _ => build::is_bare(f, Prim::Id),
        }
    }
    matches!(&e.kind, ExprKind::Apply(f, _) if copies(f))
}

/// A program of one kernel named `name`: `k`'s parameters (and `extra`), body `body`, its
/// result type inferred.
pub(crate) fn stage_program(
    prog: &Program,
    k: &Kernel,
    name: String,
    body: Expr,
    extra: Option<Param>,
) -> Option<Program> {
    let mut params = k.params.clone();
    params.extend(extra);
    let mut stage = Kernel {
        name,
        params,
        body,
        ..k.clone()
    };
    stage.ret = crate::typeck::infer_result(&prog.funs, &stage).ok()?;
    let mut p = Program {
        funs: prog.funs.clone(),
        kernels: vec![stage],
        includes: prog.includes.clone(),
    };
    check_program(&mut p).ok()?;
    Some(p)
}
