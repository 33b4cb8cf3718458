//! A kernel split over several devices, derived from the program (SPEC section 6): the
//! outermost dimension of the result is cut into slabs of rows; each slab is a kernel of its
//! own that reads only the rows of each parameter its rows need, halo included.
//!
//! A slab is found by rewriting, never by matching a workload: the rows `a .. a + k` of the
//! result are `range(a, k)` of the body, and the rules of [`crate::rewrite::slices`] push that
//! range through maps, zips, windows, paddings and splits until it stands on parameters.
//! A parameter read only through ranges is given as the rows those ranges cover (the halo
//! of a `slide(3, 1) o pad(1, 1, b)` is one row on each side; a padding stays only where the
//! slab holds the global edge, so boundaries apply at the global edges only); one read
//! otherwise (the right operand of a product, the vector of a GEMV, a scalar) is given whole.
//! A full reduction splits the data it reduces; the partial results combine with its own
//! operator. Where a range stops above the parameters (a `transpose`, a sequential scan,
//! a `let`), the program is not split, and [`NotSplit`] says why.
//!
//! A rewrite point changes how a kernel computes, not what: slabs are derived and compiled
//! without the kernel's points.
//!
//! Slabs are kernels at the sizes of one launch (every size variable replaced by its value),
//! so the rules decide their side conditions on numbers.

use crate::arith::Nat;
use crate::explore::normalise::normalise_kernel;
use crate::interp::Value;
use crate::ir::{children, children_mut, pat_names};
use crate::ir::{Expr, ExprKind, Kernel, PrimArg, Program};
use crate::prim::Prim;
use crate::rewrite::build::{apply1, untyped};
use crate::rewrite::slices::{as_range, push_ranges, range};
use crate::rewrite::RewriteCtx;
use crate::typeck::check_program;
use crate::types::Type;
use std::collections::HashMap;
use std::ops::Range;

#[cfg(test)]
mod tests;

/// Why a kernel runs on one device.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotSplit {
    /// No kernel of that name.
    #[error("unknown kernel `{0}`")]
    UnknownKernel(String),
    /// The number of sizes given differs from the kernel's size variables.
    #[error("kernel `{kernel}` has {expected} size variables, {actual} given")]
    Sizes {
        /// The kernel.
        kernel: String,
        /// Its size variables.
        expected: usize,
        /// The sizes given.
        actual: usize,
    },
    /// The result is a scalar that is not a full reduction.
    #[error("the result is a scalar computed by {0}, not by a reduction of an array")]
    Scalar(String),
    /// The range of rows stops above the parameters.
    #[error(
        "the rows of the result are computed through {0}, which the partition cannot read rows of"
    )]
    Stuck(String),
    /// A stage failed (normalising, checking a slab).
    #[error("{0}")]
    Stage(String),
}

/// How the slabs' results make the kernel's result.
#[derive(Debug, Clone)]
pub enum Combine {
    /// Their rows, concatenated in order.
    Rows,
    /// Their values folded with the reduction's operator (a binary function).
    Reduce(Expr),
}

/// What a slab's kernel receives for one parameter of the kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Rows `first .. first + count` of the parameter's outermost dimension.
    Rows(Range<i64>),
    /// The parameter as it is.
    Whole,
}

/// One slab: rows of the kernel's result and the kernel that computes them.
#[derive(Debug, Clone)]
pub struct Slab {
    /// The rows of the result (of the reduced array, for a full reduction).
    pub rows: Range<i64>,
    /// A checked program whose one kernel (of the kernel's name, without size variables)
    /// computes the slab.
    pub program: Program,
    /// Per parameter of the kernel, in order, what the slab's kernel receives.
    pub inputs: Vec<Input>,
}

/// The dimension a kernel is split along.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Its rows.
    pub rows: i64,
    /// How the slabs' results combine.
    pub combine: Combine,
}

/// Kernel `kernel` of the checked program `prog`, normalised and at `sizes` (one per size
/// variable), with the rows to split: the result's outermost dimension, or the reduced
/// array's for a full reduction.
pub fn plan(prog: &Program, kernel: &str, sizes: &[i64]) -> Result<Plan, NotSplit> {
    let (p, _) = concrete(prog, kernel, sizes)?;
    let k = &p.kernels[0];
    match top_reduce(&k.body) {
        Some((op, data)) => Ok(Plan {
            rows: outer(data.ty.as_ref()).ok_or_else(|| scalar(&k.body))?,
            combine: Combine::Reduce(op.clone()),
        }),
        None => Ok(Plan {
            rows: outer(Some(&k.ret)).ok_or_else(|| scalar(&k.body))?,
            combine: Combine::Rows,
        }),
    }
}

/// The slab of rows `rows` of kernel `kernel` of `prog` at `sizes` (see [`plan`]).
pub fn slab(
    prog: &Program,
    kernel: &str,
    sizes: &[i64],
    rows: Range<i64>,
) -> Result<Slab, NotSplit> {
    let (mut p, _) = concrete(prog, kernel, sizes)?;
    let count = Nat::cst(rows.end - rows.start);
    let first = Nat::cst(rows.start);
    let k = &mut p.kernels[0];
    let s = k.body.span;
    k.body = match top_reduce(&k.body) {
        Some((_, data)) => {
            let reduce = reduce_of(&k.body).ok_or_else(|| scalar(&k.body))?;
            apply1(reduce, range(&first, &count, data.clone(), s), s)
        }
        None => {
            let (elem, _) = k.ret.as_array().ok_or_else(|| scalar(&k.body))?;
            k.ret = Type::array(elem.clone(), count.clone());
            range(&first, &count, k.body.clone(), s)
        }
    };
    let mut p = pushed(p)?;
    let inputs = narrow(&mut p.kernels[0]);
    check(&mut p)?;
    let p = pushed(p)?;
    if let Some(stuck) = stuck(&p.kernels[0]) {
        return Err(NotSplit::Stuck(stuck));
    }
    Ok(Slab {
        rows,
        program: p,
        inputs,
    })
}

/// A program whose kernel (of the kernel's name) folds `parts` partial results of the full
/// reduction of kernel `kernel` of `prog` with the reduction's own operator and initial
/// value (neutral for the operator, as every parallel reduction assumes):
/// `reduce(op, z) $ parts`.
pub fn combiner(
    prog: &Program,
    kernel: &str,
    sizes: &[i64],
    parts: i64,
) -> Result<Program, NotSplit> {
    let (mut p, _) = concrete(prog, kernel, sizes)?;
    let k = &mut p.kernels[0];
    let reduce = match top_reduce(&k.body) {
        Some(_) => reduce_of(&k.body),
        None => None,
    }
    .ok_or_else(|| scalar(&k.body))?;
    let s = k.body.span;
    let name = "#parts".to_string();
    k.body = apply1(reduce, crate::rewrite::build::ident(&name, s), s);
    k.params = vec![crate::ir::Param {
        name,
        ty: Type::array(k.ret.clone(), Nat::cst(parts)),
        span: s,
    }];
    check(&mut p)?;
    Ok(p)
}

/// The rows a slab receives (`input`) of an argument of `len` rows, clamped to them: the one
/// place that slices, for interpreter values ([`slice`]) and for host data alike (the rows
/// `r` of an array whose row holds `w` scalars are its scalars `r.start * w .. r.end * w`).
pub fn rows(input: &Input, len: usize) -> Range<usize> {
    match input {
        Input::Rows(r) => {
            let clamp = |x: i64| usize::try_from(x).unwrap_or(0).min(len);
            let end = clamp(r.end);
            clamp(r.start).min(end)..end
        }
        Input::Whole => 0..len,
    }
}

/// What a slab receives of an argument: its rows `input` names, or all of it.
pub fn slice(arg: &Value, input: &Input) -> Value {
    match arg {
        Value::Array(xs) if matches!(input, Input::Rows(_)) => {
            Value::Array(xs[rows(input, xs.len())].to_vec())
        }
        _ => arg.clone(),
    }
}

/// What a slab receives of every argument (`inputs`, one per parameter; see [`slice`]).
pub fn slice_all(args: &[Value], inputs: &[Input]) -> Vec<Value> {
    args.iter().zip(inputs).map(|(a, i)| slice(a, i)).collect()
}

/// The rows of the slabs' results, in order, as one array.
pub fn concat(parts: Vec<Value>) -> Value {
    Value::Array(
        parts
            .into_iter()
            .flat_map(|p| match p {
                Value::Array(xs) => xs,
                other => vec![other],
            })
            .collect(),
    )
}

/// `total` rows cut into at most `weights.len()` contiguous, non-empty slabs sized in
/// proportion to the weights (positive; equal weights give slabs differing by at most one
/// row).
pub fn slabs(total: i64, weights: &[f64]) -> Vec<Range<i64>> {
    let n = (weights.len() as i64).min(total).max(0) as usize;
    let weights = &weights[..n];
    let sum: f64 = weights.iter().sum();
    let mut out = Vec::with_capacity(n);
    let (mut start, mut acc) = (0, 0.0);
    for (i, w) in weights.iter().enumerate() {
        acc += w;
        let left = (n - i - 1) as i64;
        let end = match left {
            0 => total,
            _ => ((total as f64 * acc / sum).round() as i64).clamp(start + 1, total - left),
        };
        out.push(start..end);
        start = end;
    }
    out
}

/// The program of kernel `kernel` alone, normalised, its size variables replaced by `sizes`,
/// checked; with the original's size names and values.
fn concrete(
    prog: &Program,
    kernel: &str,
    sizes: &[i64],
) -> Result<(Program, HashMap<String, i64>), NotSplit> {
    let k = prog
        .kernel(kernel)
        .ok_or_else(|| NotSplit::UnknownKernel(kernel.to_string()))?;
    if k.sizes.len() != sizes.len() {
        return Err(NotSplit::Sizes {
            kernel: kernel.to_string(),
            expected: k.sizes.len(),
            actual: sizes.len(),
        });
    }
    let env: HashMap<String, i64> = k
        .sizes
        .iter()
        .map(|(n, _)| n.clone())
        .zip(sizes.iter().copied())
        .collect();
    let mut one = Program {
        funs: prog.funs.clone(),
        kernels: vec![k.clone()],
        includes: prog.includes.clone(),
    };
    // A rewrite point changes how, not what: a slab computes its rows without it.
    without_points(&mut one.kernels[0].body);
    check(&mut one)?;
    let mut p = normalise_kernel(&one, kernel).map_err(|e| NotSplit::Stage(e.to_string()))?;
    let k = &mut p.kernels[0];
    let sub = |n: &Nat| {
        env.iter()
            .fold(n.clone(), |n, (v, c)| n.substitute(v, &Nat::cst(*c)))
    };
    for param in &mut k.params {
        param.ty = map_type(&param.ty, &sub);
    }
    k.ret = map_type(&k.ret, &sub);
    map_nats(&mut k.body, &sub);
    unchain(&mut k.body);
    k.sizes.clear();
    check(&mut p)?;
    Ok((p, env))
}

fn check(p: &mut Program) -> Result<(), NotSplit> {
    check_program(p)
        .map(|_| ())
        .map_err(|e| NotSplit::Stage(e.to_string()))
}

/// The program with the ranges of its kernel pushed as far as they go (types are checked
/// again between rounds: a rule that compares sizes reads them from the types).
fn pushed(mut p: Program) -> Result<Program, NotSplit> {
    let strategy = push_ranges();
    for _ in 0..64 {
        let body = &p.kernels[0].body;
        let next = strategy
            .apply(body, &RewriteCtx::default())
            .unwrap_or_else(|| body.clone());
        if next == *body {
            break;
        }
        p.kernels[0].body = next;
        check(&mut p)?;
    }
    Ok(p)
}

/// `reduce(op, z) $ data` at the top of a body (a chain `reduce(op, z) o g $ x` too): the
/// operator and the data.
fn top_reduce(body: &Expr) -> Option<(&Expr, &Expr)> {
    let ExprKind::Apply(f, xs) = &body.kind else {
        return None;
    };
    let [x] = xs.as_slice() else {
        return None;
    };
    let op = f.prim_fun(Prim::Reduce)?;
    Some((op, x))
}

/// The `reduce(op, z)` of [`top_reduce`].
fn reduce_of(body: &Expr) -> Option<Expr> {
    match &body.kind {
        ExprKind::Apply(f, _) => Some(untyped(f)),
        _ => None,
    }
}

fn outer(t: Option<&Type>) -> Option<i64> {
    t?.as_array()?.1.as_cst()
}

fn scalar(body: &Expr) -> NotSplit {
    NotSplit::Scalar(describe(body))
}

/// The primitive (or kind of node) at the head of `e`, for messages.
fn describe(e: &Expr) -> String {
    let head = match &e.kind {
        ExprKind::Apply(f, _) => f.as_ref(),
        _ => e,
    };
    let head = match &head.kind {
        ExprKind::Compose(fs) => fs.first().unwrap_or(head),
        _ => head,
    };
    match &head.kind {
        ExprKind::Prim(p, _) => format!("`{}`", p.name()),
        ExprKind::Let(..) => "a `let`".into(),
        ExprKind::Ident(n) => format!("`{n}`"),
        _ => "an expression".into(),
    }
}

/// `e` with every rewrite point replaced by the expression it marks.
fn without_points(e: &mut Expr) {
    while let ExprKind::Point(_, _, inner) = &mut e.kind {
        *e = std::mem::replace(
            inner.as_mut(),
            Expr::new(ExprKind::Tuple(Vec::new()), e.span),
        );
    }
    children_mut(e).into_iter().for_each(without_points);
}

/// The data spine of a body applied function by function: `(f o g) $ x` as `f $ g $ x`, down
/// through the data each function is applied to.
fn unchain(e: &mut Expr) {
    if let ExprKind::Apply(f, xs) = &mut e.kind {
        if let ExprKind::Compose(fs) = &f.kind {
            let fs = crate::rewrite::build::flatten(fs);
            if let Some((last, rest)) = fs.split_last() {
                let s = e.span;
                let args = std::mem::take(xs);
                let mut data = Expr::new(ExprKind::Apply(Box::new(last.clone()), args), s);
                for g in rest.iter().rev() {
                    data = apply1(g.clone(), data, s);
                }
                *e = data;
            }
        }
    }
    if let ExprKind::Apply(_, xs) = &mut e.kind {
        xs.iter_mut().for_each(unchain);
    }
}

/// `t` with `f` applied to every size.
fn map_type(t: &Type, f: &dyn Fn(&Nat) -> Nat) -> Type {
    match t {
        Type::Array(e, n) => Type::Array(Box::new(map_type(e, f)), f(n)),
        Type::Capped(e, n) => Type::Capped(Box::new(map_type(e, f)), f(n)),
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| map_type(t, f)).collect()),
        other => other.clone(),
    }
}

/// `e` with `f` applied to every size it names, its types cleared (checked again after).
fn map_nats(e: &mut Expr, f: &dyn Fn(&Nat) -> Nat) {
    e.ty = None;
    match &mut e.kind {
        ExprKind::Prim(_, args) => {
            for a in args.iter_mut() {
                if let PrimArg::Nat(n, _) = a {
                    *n = f(n);
                }
            }
        }
        ExprKind::Index(_, n) => *n = f(n),
        ExprKind::Point(_, args, _) => {
            for n in args.iter_mut().flatten() {
                *n = f(n);
            }
        }
        _ => {}
    }
    for c in children_mut(e) {
        map_nats(c, f);
    }
}

/// The uses of each parameter in a slab's body: `Some(rows)` for each `range(d, k) $ x`,
/// `None` for any other.
fn uses(
    e: &Expr,
    params: &[String],
    bound: &mut Vec<String>,
    out: &mut HashMap<String, Vec<Option<Range<i64>>>>,
) {
    let free_param = |x: &Expr, bound: &[String]| match &x.kind {
        ExprKind::Ident(n) if params.contains(n) && !bound.contains(n) => Some(n.clone()),
        _ => None,
    };
    if let Some((d, k, x)) = as_range(e) {
        if let (Some(n), Some(d), Some(k)) = (free_param(x, bound), d.as_cst(), k.as_cst()) {
            out.entry(n).or_default().push(Some(d..d + k));
            return;
        }
    }
    if let Some(n) = free_param(e, bound) {
        out.entry(n).or_default().push(None);
        return;
    }
    let binds = match &e.kind {
        ExprKind::Lambda(ps, _) => ps.iter().flat_map(pat_names).collect(),
        ExprKind::Let(p, _, _) => pat_names(p),
        _ => Vec::new(),
    };
    let depth = bound.len();
    for (i, c) in children(e).into_iter().enumerate() {
        // A `let`'s value (its first child) does not see its own binder.
        let sees = !matches!(e.kind, ExprKind::Let(..)) || i > 0;
        if sees {
            bound.extend(binds.iter().cloned());
        }
        uses(c, params, bound, out);
        bound.truncate(depth);
    }
}

/// Narrows every array parameter that the body reads only through constant ranges to the
/// rows they cover (its type and the ranges shifted), and says what each parameter receives.
fn narrow(k: &mut Kernel) -> Vec<Input> {
    let names: Vec<String> = k.params.iter().map(|p| p.name.clone()).collect();
    let mut found = HashMap::new();
    uses(&k.body, &names, &mut Vec::new(), &mut found);
    let mut inputs = Vec::new();
    for param in &mut k.params {
        let ranges = found.get(&param.name).cloned().unwrap_or_default();
        let cover = ranges.iter().try_fold(None::<Range<i64>>, |acc, r| {
            let r = r.clone()?;
            Some(Some(match acc {
                None => r,
                Some(a) => a.start.min(r.start)..a.end.max(r.end),
            }))
        });
        match (cover, param.ty.as_array()) {
            (Some(Some(rows)), Some((elem, _))) => {
                param.ty = Type::array(elem.clone(), Nat::cst(rows.end - rows.start));
                shift(&mut k.body, &param.name, rows.start);
                inputs.push(Input::Rows(rows));
            }
            // Read nowhere: no rows at all would do, but an empty array is no type.
            (Some(None), Some((elem, _))) => {
                param.ty = Type::array(elem.clone(), Nat::cst(1));
                inputs.push(Input::Rows(0..1));
            }
            _ => inputs.push(Input::Whole),
        }
    }
    inputs
}

/// Every `range(d, k) $ name` in `e` as `range(d - by, k) $ name` (the parameter now starts
/// at row `by`; a binder of the same name hides it).
fn shift(e: &mut Expr, name: &str, by: i64) {
    if let Some((d, k, x)) = as_range(e) {
        if matches!(&x.kind, ExprKind::Ident(n) if n == name) {
            *e = range(&(&d - by), &k, x.clone(), e.span);
            return;
        }
    }
    let hides = match &e.kind {
        ExprKind::Lambda(ps, _) => ps.iter().any(|p| pat_names(p).iter().any(|n| n == name)),
        _ => false,
    };
    if hides {
        return;
    }
    for c in children_mut(e) {
        shift(c, name, by);
    }
}

/// A range left on something other than a parameter: what it stands on.
fn stuck(k: &Kernel) -> Option<String> {
    fn find(e: &Expr, params: &[&str]) -> Option<String> {
        if let Some((_, _, x)) = as_range(e) {
            if !matches!(&x.kind, ExprKind::Ident(n) if params.contains(&n.as_str())) {
                return Some(describe(x));
            }
        }
        children(e).into_iter().find_map(|c| find(c, params))
    }
    let params: Vec<&str> = k.params.iter().map(|p| p.name.as_str()).collect();
    find(&k.body, &params)
}
