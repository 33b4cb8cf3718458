//! Exploration (CGO'17; Mogers' thesis, chapters 4 and 6): from a type-checked, normalised
//! high-level kernel, derive low-level candidates by rewrite rules, each with its
//! [`Strategy`], whose typed configuration (the tuning parameters) satisfies the constraints
//! inferred from the program ([`strategy`]: names only display it).
//!
//! * [`normalise`]: one canonical spelling per function (runs first, in the driver);
//! * [`space`]: the tuning parameters of each strategy, their constraints, and the valid
//!   configurations (with the fraction of valid ones among uniformly drawn configurations);
//! * strategies, each a sequence of rules of [`crate::rewrite`]: 2-D blocking of nested
//!   map-reduce ([`crate::rewrite::blocking`]), strip mining with interchange ([`strips`]),
//!   sliding-window strips with `map_seq_slide` ([`slides`]), layout changes through local
//!   memory in tiles ([`tiles`]), vectorised element-wise maps ([`vectors`]),
//!   the reduction lowerings of [`crate::codegen`], kernel fission of chains of several
//!   computing stages ([`stages`]), and the default mapping
//!   ([`crate::explore::lower`]: fusion, `map_glb` over the map nest, sequential rest), which
//!   applies to every kernel, followed by the other parallel mappings of the map nest that
//!   the mapping constraint problem allows ([`mapping`], [`parallel`]).
//!
//! What the explorer assumes of the device (work-group sizes, local memory, vector width) is
//! a [`DeviceModel`]: [`candidates_for`] takes one, [`candidates`] and [`candidates_in`]
//! assume [`DeviceModel::DEFAULT`].
//!
//! Candidates come in order of preference: without timing, the runtime launches the first
//! one whose conditions hold and whose resources fit the device; the tuner times them all.

pub mod lets;
pub mod lower;
pub mod mapping;
pub mod materialise;
pub mod normalise;
pub mod parallel;
pub mod products;
pub mod reductions;
pub mod slides;
pub mod space;
pub mod stages;
pub mod strategy;
pub mod strips;
pub mod tiles;
pub mod vectors;

use crate::arith::Nat;
use crate::device::DeviceModel;
use crate::ir::{Expr, ExprKind, Program};
use crate::rewrite::blocking::{self, block_map_reduce, Blocking, Edge};
use crate::rewrite::RewriteCtx;
use crate::rewrite::{build, partial};
use crate::typeck::{check_program, KernelInfo};
use crate::typeck::{Cond, Precondition};
pub use strategy::{Strategy, Tree, VectorMap};

/// How a candidate reaches OpenCL C.
#[derive(Clone, Debug)]
pub enum Lowering {
    /// A low-level program for [`crate::codegen::generate`].
    Program(Program),
    /// Several kernels run in order, each stage's result in a global temporary
    /// ([`stages`]).
    Stages(Vec<stages::Stage>),
}

/// One low-level candidate of a kernel.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The strategy that derived it, with its configuration (its tuning parameters).
    pub strategy: Strategy,
    /// The program, type-checked.
    pub lowering: Lowering,
    /// The checker's output for it (its preconditions say when it applies).
    pub info: KernelInfo,
}

impl Candidate {
    /// `strategy(p=v, ...)` ([`Strategy::name`]).
    pub fn name(&self) -> String {
        self.strategy.name()
    }
}

/// A derivation the explorer dropped after a rule applied: the candidate it would have been
/// and why (its result did not type-check, changed the kernel's type, or did not lower).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    /// The candidate's name, `strategy(p=v, ...)`.
    pub name: String,
    /// Why it was dropped.
    pub reason: String,
}

/// What exploring a kernel gives: the candidates in order of preference, and the
/// derivations dropped on the way.
#[derive(Clone, Debug, Default)]
pub struct Explored {
    /// The candidates, best first.
    pub candidates: Vec<Candidate>,
    /// The derivations dropped, in the order they were tried.
    pub dropped: Vec<Dropped>,
}

/// The most configurations of one strategy explored (each gives up to three candidates:
/// unpadded and padded variants; each is compiled at build time and timed by the tuner). For
/// the blocked strategy, eight tilings with their slice steps looped and unrolled.
pub const MAX_CONFIGS: usize = 16;

/// How much of the space [`candidates_in`] explores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Every strategy: what the tuner times (run time, paid once per program and cached).
    All,
    /// Enough to find the default configuration, the first candidate that applies to every
    /// size: strategies are explored in order and exploration stops after the first that
    /// gives such a candidate. Of the tile searches it derives only padded blockings (exact
    /// and covered ones carry size conditions unless every size is a constant), in order,
    /// up to the first; partial products and materialised views (which always carry a
    /// condition) not at all. The macro derives `SOURCE` in this scope, in milliseconds.
    Default,
}

/// The candidates of kernel `kernel` of the checked, normalised program `prog` (`info` its
/// checker output), in order of preference; the default mapping (`map`), which always exists
/// unless lowering itself fails, comes after the other strategies and before the other
/// solutions of the mapping problem (`mapping`).
pub fn candidates(prog: &Program, kernel: &str, info: &KernelInfo) -> Vec<Candidate> {
    candidates_in(prog, kernel, info, Scope::All)
}

/// [`candidates`] of the strategies of `scope`, in the same order.
pub fn candidates_in(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    scope: Scope,
) -> Vec<Candidate> {
    candidates_for(prog, kernel, info, scope, &DeviceModel::DEFAULT)
}

/// [`candidates_in`] for the device `device` describes: its work-group sizes, local memory,
/// vector width and register budget bound the tile searches and the reductions' and
/// mappings' groups (see [`space`]), and the candidates' code is generated for it.
pub fn candidates_for(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    scope: Scope,
    device: &DeviceModel,
) -> Vec<Candidate> {
    explore(prog, kernel, info, scope, device).candidates
}

/// [`candidates_for`], with the derivations the explorer dropped and why.
pub fn explore(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    scope: Scope,
    device: &DeviceModel,
) -> Explored {
    let mut dropped = Vec::new();
    let Some(k) = prog.kernel(kernel) else {
        return Explored::default();
    };
    let ctx = RewriteCtx::for_kernel(prog, k, info);
    // A `let` of a computed array at the top (`kernel_fission`): the value by a kernel of its
    // own, then the rest explored.
    let found = |out: &[Candidate]| {
        scope == Scope::Default && out.iter().any(|c| stages::unconditional(c, info))
    };
    let mut out = lets::candidates(prog, kernel, info, (scope, device));
    let nested = out.len();
    if !found(&out) {
        let found = (&mut out, &mut dropped);
        tile_searches(prog, kernel, info, (&ctx, scope, device), found, nested);
    }
    if !found(&out) {
        later_strategies(
            prog,
            kernel,
            info,
            (scope, device),
            (&mut out, &mut dropped),
        );
    }
    Explored {
        candidates: out,
        dropped,
    }
}

/// The strategies that search tile spaces, appended to `out` (whose first `nested`
/// candidates are those of `let` fission): blocked products, the product in disguise in two
/// kernels, partial products, materialised views ([`Scope::Default`]: see there).
fn tile_searches(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    (ctx, scope, device): (&RewriteCtx, Scope, &DeviceModel),
    (out, dropped): (&mut Vec<Candidate>, &mut Vec<Dropped>),
    nested: usize,
) {
    let Some(k) = prog.kernel(kernel) else {
        return;
    };
    let body = &k.body;
    let mut configs = Vec::new();
    // A product in disguise (a convolution over windows): blocked as the product it is.
    let product = products::as_product(prog, kernel);
    for cfg in space::blockings_for(device) {
        let key = (cfg.tm, cfg.tn, cfg.tk, cfg.l0, cfg.l1, cfg.v, cfg.unroll);
        if !configs.contains(&key) {
            if configs.len() == MAX_CONFIGS {
                break;
            }
            configs.push(key);
        }
        if scope == Scope::Default && cfg.edge != Edge::Pad {
            continue;
        }
        // The padded blocking pads the shared dimension where the fold allows it and its
        // length is not known to be a multiple of `tk`; else it pads the rows only.
        let fallback = (cfg.edge == Edge::Pad).then_some(Blocking {
            pad_k: false,
            ..cfg
        });
        let Some((cfg, new, matched)) =
            [Some(cfg), fallback].into_iter().flatten().find_map(|cfg| {
                let rule = block_map_reduce(cfg);
                rule.apply(body, ctx).map(|n| (cfg, n, body)).or_else(|| {
                    let p = product.as_ref()?;
                    Some((cfg, p.wrap(rule.apply(&p.product, ctx)?), &p.product))
                })
            })
        else {
            continue;
        };
        let worth = blocking::worth_running(&cfg, matched);
        if let Some(Cond::Le(a, b)) = worth.as_ref().map(|p| &p.cond) {
            if ctx.facts.le(a, b) == Some(false) {
                continue;
            }
        }
        if let Some(mut c) = lowered(prog, kernel, info, new, Strategy::Blocked(cfg), dropped) {
            c.info.preconditions.extend(worth);
            if push_found(out, c, scope, info) {
                break;
            }
        }
    }
    // Padded blockings (they apply at every size, computing the padding too) after every
    // exact and covered one: without timing, the first blocking that applies is the one
    // wasting the least work (a product with 64 columns gets a covered 64 x 64 blocking,
    // not a padded 128 x 128 one).
    out.sort_by_key(|c| c.strategy.is_blocked_with(Edge::Pad));
    // A product with an epilogue that reads other data (a convolution's bias) that no
    // blocking applies to: the product, blocked, and the epilogue as two kernels.
    let blocked = out.len() - nested;
    if let (0, Some(p)) = (blocked, &product) {
        let mut q = prog.clone();
        if let Some(k) = q.kernels.iter_mut().find(|k| k.name == kernel) {
            k.body = p.wrap(p.product.clone());
            out.extend(stages::fission(&q, kernel, info, (scope, device)).unwrap_or_default());
        }
    }
    if scope == Scope::Default {
        return;
    }
    // Partial products (split-K) of a product: more work-groups where its result has few
    // blocks and its shared dimension is long; after the unsplit ones.
    let target = match &product {
        Some(p) => Some((p.product.clone(), Some(p))),
        None => (blocked > 0).then(|| (body.clone(), None)),
    };
    if let Some((e, wrap)) = target {
        // Larger blocks first, then fewer slices: the untuned default takes the first that
        // occupies the device (`lift_runtime::select::default_choice`): most work per group.
        let mut split: Vec<Candidate> = space::splits()
            .into_iter()
            .flat_map(|s| split_candidates(prog, kernel, info, (&e, wrap, s), (ctx, device)))
            .collect();
        split.sort_by_key(|c| std::cmp::Reverse(block_area(c)));
        out.extend(split);
    }
    // The product over its view materialised first (im2col + GEMM for a convolution).
    out.extend(materialise::candidates(prog, kernel, info, device));
}

/// The strategies after the tile searches, appended to `out`: strips, sliding strips,
/// reductions, kernel fission, the default mapping and the other parallel mappings.
fn later_strategies(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    (scope, device): (Scope, &DeviceModel),
    (out, dropped): (&mut Vec<Candidate>, &mut Vec<Dropped>),
) {
    let Some(k) = prog.kernel(kernel) else {
        return;
    };
    let ctx = RewriteCtx::for_kernel(prog, k, info);
    let body = &k.body;
    for &(s, pad) in &space::strips() {
        let Some(new) = strips::strip_mine(body, s, pad, &ctx) else {
            continue;
        };
        let strip = Strategy::Strips(strategy::Strip { s, pad });
        if let Some(c) = lowered(prog, kernel, info, new, strip, dropped) {
            if push_found(out, c, scope, info) {
                return;
            }
        }
    }
    // Sliding strips come before the default mapping: longest first in 2-D and 3-D (a strip
    // of rows walks down columns read side by side), shortest first in 1-D (neighbouring
    // work-items walk strips `s` elements apart: the shortest keep a warp's reads closest).
    let order = match slides::walk_depth(body) {
        Some(1) => space::slides_shortest_first(),
        _ => space::slides(),
    };
    for &(s, pad) in &order {
        let Some(new) = slides::slide_strips(body, s, pad, &ctx) else {
            continue;
        };
        let strip = Strategy::Slides(strategy::Strip { s, pad });
        if let Some(c) = lowered(prog, kernel, info, new, strip, dropped) {
            if push_found(out, c, scope, info) {
                return;
            }
        }
    }
    // A map nest over a transposed view: tiles staged through local memory.
    if tiles::candidates(prog, kernel, info, (&ctx, scope, device), (out, dropped)) {
        return;
    }
    // An element-wise map over float arrays: vectors, several per work-item, a scalar tail.
    if vectors::candidates(prog, kernel, info, (&ctx, scope, device), (out, dropped)) {
        return;
    }
    let columns = rows_are_columns(body);
    // Reductions derived as programs ([`reductions`]): each applies where its work-items
    // have whole slices to fold, so the mappings after them serve shorter inputs.
    let mut reductions = reductions::full(prog, kernel, info, (scope, device), dropped);
    reductions.extend(reductions::rows(
        prog,
        kernel,
        info,
        (scope, device),
        dropped,
    ));
    let mut mappings = parallel::candidates(prog, kernel, info, device);
    let map =
        (mappings.first().map(|c| &c.strategy) == Some(&Strategy::Map)).then(|| mappings.remove(0));
    // Row reductions with one row per work-group read each row with consecutive work-items:
    // coalesced when rows are rows of memory. When they are columns (a transposed view),
    // groups of many rows read side by side instead, and so does one work-item per row: then
    // those come first (fewest rows per group first: the most work-items per row), and the
    // map before one row per group.
    let one_row = |c: &Candidate| matches!(c.strategy, Strategy::Tree(Tree::Rows { rows: 1, .. }));
    // Kernel fission, where no other strategy applies, comes before the default mapping,
    // which runs such chains on one work-item. A product whose epilogue reads another
    // matrix's elements keeps its two-kernel form besides the blocked one: the blocked
    // product's padded reads of them cost registers (BLAS at 4001^3 on the H100, 3.78 ms
    // fused against 3.67 ms in two kernels); the tuner picks.
    let fission = if stages::iterates_over_the_grid(body)
        || out.is_empty()
            && !reductions::is_reduction(prog, kernel, info)
            && !crate::explore::lower::uses_parallel(body)
        || blocking::reads_elements(body)
    {
        stages::fission(prog, kernel, info, (scope, device)).unwrap_or_default()
    } else {
        Vec::new()
    };
    let mut tail: Vec<Candidate> = Vec::new();
    if columns {
        let (single, many): (Vec<_>, Vec<_>) = reductions.drain(..).partition(one_row);
        tail.extend(many);
        tail.extend(fission);
        tail.extend(map);
        tail.extend(single);
    } else {
        tail.extend(reductions);
        tail.extend(fission);
        tail.extend(map);
    }
    out.extend(tail);
    out.extend(mappings);
}

/// Appends `c` to `out`; whether exploring in `scope` stops here (the default scope stops
/// at the first candidate that applies to every size).
fn push_found(out: &mut Vec<Candidate>, c: Candidate, scope: Scope, info: &KernelInfo) -> bool {
    let stop = scope == Scope::Default && stages::unconditional(&c, info);
    out.push(c);
    stop
}

/// The partial-products candidates of the product `e` (the body, or the body's product
/// reshaped by [`products`], `wrap` then giving the body's shape back) with `s` slices (of a
/// multiple of the largest step of the blocked strategy): the rule of
/// [`crate::rewrite::partial`], then kernel fission into the batch of partial products
/// (blocked) and the sums with the epilogue; those of them that apply
/// wherever the kernel does (see [`SPLIT_COVERED`]), each with the parameter `split`.
fn split_candidates(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    (e, wrap, s): (&Expr, Option<&products::Product>, i64),
    (ctx, device): (&RewriteCtx, &DeviceModel),
) -> Vec<Candidate> {
    let q = space::blockings_for(device)
        .iter()
        .map(|b| b.tk)
        .max()
        .unwrap_or(1);
    let (Some((new, k)), Some((row, n))) =
        (partial::split(e, s, q, ctx), build::array(e.ty.as_ref()))
    else {
        return Vec::new();
    };
    let Some((_, m)) = row.as_array() else {
        return Vec::new();
    };
    // Where it may pay: the partial results take at most four times the operands' memory
    // (`s N M <= 4 K (N + M)`: a short product with a long shared dimension). A bound on the
    // scratch, not a guess at the speed: the tuner times every split that applies.
    let pays = Precondition {
        cond: Cond::Le(&(&Nat::cst(s) * n) * m, &(&Nat::cst(4) * &k) * &(n + m)),
        origin: "split_shared".to_string(),
        reason: "partial products pay where their results take at most four times the \
                 operands' memory"
            .to_string(),
        span: e.span,
    };
    // `wrap(let parts = v; b)` as `let parts = v; wrap(b)`.
    let body = match (new.kind, wrap) {
        (ExprKind::Let(p, v, b), Some(w)) => {
            Expr::new(ExprKind::Let(p, v, Box::new(w.wrap(*b))), new.span)
        }
        (kind, _) => Expr::new(kind, new.span),
    };
    let mut q = prog.clone();
    let Some(k) = q.kernels.iter_mut().find(|k| k.name == kernel) else {
        return Vec::new();
    };
    k.body = body;
    if check_program(&mut q).is_err() {
        return Vec::new();
    }
    // The batch's covered blockings, larger blocks first (the slices supply the work-groups
    // that small blocks would), then its first padded one (it applies at every size).
    let (mut covered, padded): (Vec<Candidate>, Vec<Candidate>) =
        stages::fission(&q, kernel, info, (Scope::All, device))
            .unwrap_or_default()
            .into_iter()
            .filter(|c| stages::applies_widely(c, info))
            .partition(|c| c.strategy.blocking().is_some_and(|b| b.edge == Edge::Cover));
    covered.sort_by_key(|c| std::cmp::Reverse(block_area(c)));
    let mut cands: Vec<Candidate> = covered.into_iter().take(SPLIT_COVERED).collect();
    cands.extend(padded.into_iter().take(1));
    for c in &mut cands {
        if let Strategy::Stages(stages) = &mut c.strategy {
            stages.split = Some(s);
        }
        c.info.preconditions.push(pays.clone());
    }
    cands
}

/// The covered blockings of the batch of partial products kept per slice count (with 6: the
/// three largest tilings, looped and unrolled).
const SPLIT_COVERED: usize = 6;

/// The elements of a block of blocked candidate `c` or of its blocked stage (`tm tn`; 0 if
/// none).
fn block_area(c: &Candidate) -> i64 {
    c.strategy.blocking().map_or(0, |b| b.tm * b.tn)
}

/// Is `body` a map over a view whose outermost layout primitive is `transpose` (its rows are
/// columns of memory)?
fn rows_are_columns(body: &Expr) -> bool {
    let Some((_, data)) = crate::rewrite::blocking::map_app(body) else {
        return false;
    };
    let ExprKind::Apply(f, _) = &data.kind else {
        return false;
    };
    let first = match &f.kind {
        ExprKind::Compose(fs) => fs.first(),
        _ => Some(&**f),
    };
    first.is_some_and(|g| matches!(g.kind, ExprKind::Prim(crate::prim::Prim::Transpose, _)))
}

/// The candidate of `strategy` whose kernel body is `body`: type-checked, of the kernel's
/// type, lowered; `None` where any of that fails, recorded in `dropped` with the reason.
fn lowered(
    prog: &Program,
    kernel: &str,
    info: &KernelInfo,
    body: Expr,
    strategy: Strategy,
    dropped: &mut Vec<Dropped>,
) -> Option<Candidate> {
    let lower = || -> Result<(Program, KernelInfo), String> {
        let mut p = prog.clone();
        let k = p.kernels.iter_mut().find(|k| k.name == kernel);
        k.ok_or("no such kernel")?.body = body;
        let infos = check_program(&mut p).map_err(|e| format!("type error: {e}"))?;
        let info2 = infos
            .into_iter()
            .find(|i| i.name == kernel)
            .ok_or("unchecked")?;
        if !info2
            .result
            .equiv(&info.result, &RewriteCtx::facts_of(info))
        {
            return Err(format!(
                "result type {} instead of {}",
                info2.result, info.result
            ));
        }
        let l = crate::explore::lower::lower_program(&p, kernel, &info2)
            .map_err(|e| format!("lowering: {e}"))?;
        Ok((l.prog, l.info))
    };
    match lower() {
        Ok((p, i)) => Some(Candidate {
            strategy,
            lowering: Lowering::Program(p),
            info: i,
        }),
        Err(reason) => {
            let name = strategy.name();
            dropped.push(Dropped { name, reason });
            None
        }
    }
}

#[cfg(test)]
mod tests;
