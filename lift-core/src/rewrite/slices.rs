//! Rules that move a range of rows towards the data it reads: the partition of a kernel over
//! several devices ([`crate::partition`]) puts `range(d, k)` on the kernel's result and
//! pushes it down until it stands on the kernel's parameters, which then say which of their
//! rows a slab of the result reads, halo included.
//!
//! `range(d, k) $ x`, rows `d .. d + k` of `x`, is written with the primitives there are:
//! `at(d) $ slide(k, 1) $ x` (the `d`-th window of `k` rows), which every stage already
//! types, interprets and compiles as a view. Each rule below preserves the meaning on its
//! own (`tests/slices.rs`); the side conditions that compare sizes need them constant (the
//! partition works at the sizes of a launch).
//!
//! - [`range_map`]: `range(d, k) $ map(f) $ x ⇒ map(f) $ range(d, k) $ x` (`map2`, `map3`)
//! - [`range_zip`]: `range(d, k) $ zip(x, y) ⇒ zip(range(d, k) $ x, range(d, k) $ y)`
//! - [`range_slide`]: `range(d, k) $ slide(s, t) $ x ⇒ slide(s, t) $ range(d t, (k - 1) t + s) $ x`
//! - [`range_pad`]: `range(d, k) $ pad(l, r, b) $ x ⇒ pad(l', r', b) $ range(lo, hi - lo) $ x`
//!   where the padding left is only what the range reaches of it
//! - [`range_split`]: `range(d, k) $ split(m) $ x ⇒ split(m) $ range(d m, k m) $ x`
//! - [`range_reverse`]: `range(d, k) $ gather(reverse) $ x ⇒ gather(reverse) $ range(n - d - k, k) $ x`
//! - [`range_range`], [`range_take`], [`range_whole`]: ranges of ranges, of a `take`, and of
//!   every row
//! - [`range_unchain`]: `range(d, k) $ (f o g) $ x ⇒ range(d, k) $ f $ g $ x`

use super::build::{self, apply1, prim};
use super::strategy::{left_choice, normalize, rule, Strategy};
use super::Rule;
use crate::arith::Nat;
use crate::ir::{Boundary, Expr, ExprKind, PrimArg};
use crate::prim::Prim;
use proc_macro2::Span;

/// `range(d, k) $ x`: `at(d) $ slide(k, 1) $ x`, rows `d .. d + k` of `x`.
pub fn range(d: &Nat, k: &Nat, x: Expr, s: Span) -> Expr {
    let window = prim(
        Prim::Slide,
        vec![build::nat(k, s), build::nat(&Nat::cst(1), s)],
        s,
    );
    let at = prim(Prim::At, vec![build::nat(d, s)], s);
    apply1(at, apply1(window, x, s), s)
}

/// The first row, the number of rows and the data of `range(d, k) $ x`.
pub fn as_range(e: &Expr) -> Option<(Nat, Nat, &Expr)> {
    let (at, inner) = applied1(e)?;
    let d = at.prim_nats(Prim::At)?.pop()?;
    let (window, x) = applied1(inner)?;
    match window.prim_nats(Prim::Slide)?.as_slice() {
        [k, one] if one.as_cst() == Some(1) => Some((d, k.clone(), x)),
        _ => None,
    }
}

/// `f $ x` with one argument.
fn applied1(e: &Expr) -> Option<(&Expr, &Expr)> {
    match &e.kind {
        ExprKind::Apply(f, xs) => match xs.as_slice() {
            [x] => Some((f, x)),
            _ => None,
        },
        _ => None,
    }
}

/// `range(d, k) $ (p $ x)` for a primitive `p` among `prims`: `(d, k, p, x)`.
fn range_of<'a>(e: &'a Expr, prims: &[Prim]) -> Option<(Nat, Nat, &'a Expr, &'a [Expr])> {
    let (d, k, inner) = as_range(e)?;
    let ExprKind::Apply(p, xs) = &inner.kind else {
        return None;
    };
    let (q, _) = p.as_prim()?;
    prims
        .contains(&q)
        .then_some((d, k, p.as_ref(), xs.as_slice()))
}

/// `range_map`.
pub fn range_map() -> Rule {
    Rule::new(
        "range_map",
        "range(d, k) $ map(f) $ x ⇒ map(f) $ range(d, k) $ x   (map2, map3, map_glb, map_wrg, map_seq alike)",
        |e, _| {
            let maps = [
                Prim::Map,
                Prim::Map2,
                Prim::Map3,
                Prim::MapGlb,
                Prim::MapWrg,
                Prim::MapSeq,
                Prim::MapSeqUnroll,
            ];
            let (d, k, p, [x]) = range_of(e, &maps)? else {
                return None;
            };
            let s = e.span;
            Some(apply1(build::untyped(p), range(&d, &k, x.clone(), s), s))
        },
    )
}

/// `range_zip`.
pub fn range_zip() -> Rule {
    Rule::new(
        "range_zip",
        "range(d, k) $ zip(x1, .., xn) ⇒ zip(range(d, k) $ x1, .., range(d, k) $ xn)   (zip2, zip3 alike)",
        |e, _| {
            let (d, k, p, xs) = range_of(e, &[Prim::Zip, Prim::Zip2, Prim::Zip3])?;
            let s = e.span;
            let xs = xs.iter().map(|x| range(&d, &k, x.clone(), s)).collect();
            Some(Expr::new(
                ExprKind::Apply(Box::new(build::untyped(p)), xs),
                s,
            ))
        },
    )
}

/// A padding's boundary and its span.
type Bound = (Boundary, Span);

/// The `(first, second)` pairs of a `slide`/`pad` family primitive's sizes, one per
/// dimension, outermost first (the shorthand forms expanded), and its boundary.
fn pairs(p: Prim, args: &[PrimArg]) -> (Vec<(Nat, Nat)>, Option<Bound>) {
    let depth = match p {
        Prim::Slide | Prim::Pad => 1,
        Prim::Slide2 | Prim::Pad2 => 2,
        _ => 3,
    };
    let ns = PrimArg::nats(args);
    let pairs = match ns.as_slice() {
        [x] => vec![(x.clone(), x.clone()); depth],
        [x, y] => vec![(x.clone(), y.clone()); depth],
        ns => ns.chunks(2).map(|c| (c[0].clone(), c[1].clone())).collect(),
    };
    let boundary = args.iter().find_map(|a| match a {
        PrimArg::Boundary(b, s) => Some((b.clone(), *s)),
        _ => None,
    });
    (pairs, boundary)
}

/// Primitive `p` with its sizes written out per dimension (`pairs`) and its boundary.
fn with_pairs(p: Prim, pairs: &[(Nat, Nat)], boundary: Option<Bound>, s: Span) -> Expr {
    let mut args: Vec<PrimArg> = pairs
        .iter()
        .flat_map(|(a, b)| [build::nat(a, s), build::nat(b, s)])
        .collect();
    if let Some((b, bs)) = boundary {
        args.push(PrimArg::Boundary(b, bs));
    }
    prim(p, args, s)
}

/// `range_slide`.
pub fn range_slide() -> Rule {
    Rule::new(
        "range_slide",
        "range(d, k) $ slide(s, t) $ x ⇒ slide(s, t) $ range(d t, (k - 1) t + s) $ x   \
         (the outer dimension of slide2, slide3 alike)",
        |e, _| {
            let (d, k, p, [x]) = range_of(e, &[Prim::Slide, Prim::Slide2, Prim::Slide3])? else {
                return None;
            };
            let (q, args) = p.as_prim()?;
            let (ps, _) = pairs(q, args);
            let (size, step) = ps.first()?.clone();
            let s = e.span;
            let rows = range(&(&d * &step), &(&(&(&k - 1) * &step) + &size), x.clone(), s);
            Some(apply1(with_pairs(q, &ps, None, s), rows, s))
        },
    )
}

/// `range_pad`: the rows `lo .. hi` of `x` that rows `d .. d + k` of the padded array read,
/// padded by what the range reaches of each side. A clamped or constant boundary reads the
/// edge row or nothing, so the padding of a range that holds an edge row of `x` is right; a
/// mirror needs the range to hold as many rows as it pads; a wrap reads the other end, so it
/// moves only where the range holds all of `x`.
pub fn range_pad() -> Rule {
    Rule::new(
        "range_pad",
        "range(d, k) $ pad(l, r, b) $ x ⇒ pad(l', r', b) $ range(lo, hi - lo) $ x   \
         lo = max(0, d - l), hi = min(n, d + k - l), l' = max(0, l - d), r' = max(0, d + k - l - n), \
         hi > lo, constant sizes; b mirror: hi - lo >= l', r'; b wrap: lo = 0, hi = n; \
         b clamp, the range wholly in a padding: pad(k - 1, 0, clamp) $ range(0, 1) $ x (left), \
         pad(0, k - 1, clamp) $ range(n - 1, 1) $ x (right) (the outer dimension of pad2, pad3 alike)",
        |e, _| {
            let (d, k, p, [x]) = range_of(e, &[Prim::Pad, Prim::Pad2, Prim::Pad3])? else {
                return None;
            };
            let (q, args) = p.as_prim()?;
            let (mut ps, boundary) = pairs(q, args);
            let (l, r) = ps.first()?.clone();
            let (_, n) = build::array(x.ty.as_ref())?;
            let [d, k, l, r, n] = [&d, &k, &l, &r, n].map(Nat::as_cst);
            let (d, k, l, _r, n) = (d?, k?, l?, r?, n?);
            let (lo, hi) = ((d - l).max(0), (d + k - l).min(n));
            let (l2, r2) = ((l - d).max(0), (d + k - l - n).max(0));
            let fits = match boundary.as_ref().map(|b| &b.0) {
                Some(Boundary::Mirror) => hi - lo >= l2.max(r2),
                Some(Boundary::Wrap) => lo == 0 && hi == n,
                _ => true,
            };
            let clamp = matches!(boundary.as_ref().map(|b| &b.0), Some(Boundary::Clamp));
            let (lo, hi, l2, r2) = match (hi <= lo, clamp) {
                // Wholly in a clamped padding: copies of the edge row.
                (true, true) if d < l => (0, 1, k - 1, 0),
                (true, true) => (n - 1, n, 0, k - 1),
                (true, false) => return None,
                (false, _) if !fits => return None,
                (false, _) => (lo, hi, l2, r2),
            };
            ps[0] = (Nat::cst(l2), Nat::cst(r2));
            let s = e.span;
            let rows = range(&Nat::cst(lo), &Nat::cst(hi - lo), x.clone(), s);
            Some(apply1(with_pairs(q, &ps, boundary, s), rows, s))
        },
    )
}

/// `range_reverse`.
pub fn range_reverse() -> Rule {
    Rule::new(
        "range_reverse",
        "range(d, k) $ gather(reverse) $ x ⇒ gather(reverse) $ range(n - d - k, k) $ x   x: [a; n]",
        |e, _| {
            let (d, k, p, [x]) = range_of(e, &[Prim::Gather])? else {
                return None;
            };
            let (_, args) = p.as_prim()?;
            if !matches!(args, [PrimArg::Reorder(crate::ir::Reorder::Reverse, _)]) {
                return None;
            }
            let (_, n) = build::array(x.ty.as_ref())?;
            let s = e.span;
            let rows = range(&(&(n - &d) - &k), &k, x.clone(), s);
            Some(apply1(build::untyped(p), rows, s))
        },
    )
}

/// `range_split`.
pub fn range_split() -> Rule {
    Rule::new(
        "range_split",
        "range(d, k) $ split(m) $ x ⇒ split(m) $ range(d m, k m) $ x",
        |e, _| {
            let (d, k, p, [x]) = range_of(e, &[Prim::Split])? else {
                return None;
            };
            let m = p.prim_nats(Prim::Split)?.pop()?;
            let s = e.span;
            let rows = range(&(&d * &m), &(&k * &m), x.clone(), s);
            Some(apply1(build::untyped(p), rows, s))
        },
    )
}

/// `range_take`.
pub fn range_take() -> Rule {
    Rule::new(
        "range_take",
        "range(d, k) $ take(m) $ x ⇒ range(d, k) $ x",
        |e, _| {
            let (d, k, _, [x]) = range_of(e, &[Prim::Take])? else {
                return None;
            };
            Some(range(&d, &k, x.clone(), e.span))
        },
    )
}

/// `range_range`.
pub fn range_range() -> Rule {
    Rule::new(
        "range_range",
        "range(d, k) $ range(d2, k2) $ x ⇒ range(d + d2, k) $ x",
        |e, _| {
            let (d, k, inner) = as_range(e)?;
            let (d2, _, x) = as_range(inner)?;
            Some(range(&(&d + &d2), &k, x.clone(), e.span))
        },
    )
}

/// `range_whole`.
pub fn range_whole() -> Rule {
    Rule::new(
        "range_whole",
        "range(0, n) $ x ⇒ x   x: [a; n]",
        |e, _| {
            let (d, k, x) = as_range(e)?;
            let (_, n) = build::array(x.ty.as_ref())?;
            (d.as_cst() == Some(0) && k.as_cst().is_some() && k.as_cst() == n.as_cst())
                .then(|| x.clone())
        },
    )
}

/// `range_unchain`.
pub fn range_unchain() -> Rule {
    Rule::new(
        "range_unchain",
        "range(d, k) $ (f o g) $ x ⇒ range(d, k) $ f $ g $ x",
        |e, _| {
            let (d, k, inner) = as_range(e)?;
            let ExprKind::Apply(f, xs) = &inner.kind else {
                return None;
            };
            let ExprKind::Compose(fs) = &f.kind else {
                return None;
            };
            let s = inner.span;
            let fs = build::flatten(fs);
            let (last, rest) = fs.split_last()?;
            let mut data = Expr::new(ExprKind::Apply(Box::new(last.clone()), xs.clone()), s);
            for g in rest.iter().rev() {
                data = apply1(g.clone(), data, s);
            }
            Some(range(&d, &k, data, e.span))
        },
    )
}

/// Every rule of this module.
pub fn rules() -> Vec<Rule> {
    vec![
        range_unchain(),
        range_whole(),
        range_range(),
        range_map(),
        range_zip(),
        range_slide(),
        range_pad(),
        range_split(),
        range_take(),
        range_reverse(),
    ]
}

/// The rules of this module wherever they apply, until none does: every range as close to
/// the data as the rules take it.
pub fn push_ranges() -> Strategy {
    let mut rs = rules().into_iter().map(rule);
    let first = rs.next().expect("rules");
    normalize(rs.fold(first, left_choice))
}
