//! Strength reduction of strided loops, a pass over the tree before printing.
//!
//! A sequential loop `for (i = 0; i < n; i += 1)` whose body indexes memory at `a_k i + b_k`
//! only, with every coefficient `a_k` a multiple `f_k a` of one stride `a > 1` (the fold of a
//! work-item over a strided slice: `x[p i + l]`, a column `m[N p i + N l + c]`), becomes a
//! loop over the index itself:
//!
//! ```text
//! for (i = 0; i < n; i += 1) { .. x[f_k (a i) + b_k] .. }
//!   => for (u = o; u < a n + o; u += a) { .. x[f_k u + (b_k - f_k o)] .. }
//! ```
//!
//! with `o` the simplest offset `b_k` of an access of coefficient `a` itself. Both loops visit
//! the same elements in the same order (`u = a i + o`); the second is the form a C compiler
//! turns into pointer increments (on NVIDIA's OpenCL a fold over `x[p i + l]` runs 4-20 %
//! slower than over `x[u]`, the index computed in 32 bits and widened at every access).
//! Only innermost loops whose variable occurs in index arithmetic alone are rewritten.

use super::ast::{rebuild, CExpr, Index, LocalAt, Mark, Stmt, Touch};
use crate::arith::poly::{polydiv, Poly};
use crate::arith::Nat;

/// `body` with its strided innermost loops reduced (see the module docs).
pub(crate) fn reduce(body: Vec<Stmt>) -> Vec<Stmt> {
    rebuild(body, &mut |s| vec![reduce_loop(s)])
}

/// One loop reduced when it qualifies, any other statement as it is.
fn reduce_loop(s: Stmt) -> Stmt {
    let plan = match &s {
        Stmt::For {
            var,
            from: CExpr::Int(0),
            bound: CExpr::Nat(n),
            step: CExpr::Int(1),
            unroll: false,
            body,
        } => stride(var, n, body),
        _ => None,
    };
    match (plan, s) {
        (Some(plan), Stmt::For { var, body, .. }) => plan.apply(var, body),
        (_, s) => s,
    }
}

/// The loop over the index: from `o` below `a n + o` by `a`.
struct Plan {
    a: Poly,
    o: Poly,
    n: Nat,
}

/// `n` as `a i + b` for the loop variable `i`, when it is linear in `i` (no atom but `i`
/// itself mentions it).
fn linear(n: &Nat, i: &str) -> Option<(Poly, Poly)> {
    let (mut a, mut b) = (Poly::zero(), Poly::zero());
    for (mono, k) in &Poly::from_nat(n).terms {
        let is_i = |x: &Nat| matches!(x, Nat::Var(v) if &*v.name == i);
        let with_i = mono.iter().filter(|x| is_i(x)).count();
        if mono.iter().any(|x| !is_i(x) && x.mentions(i)) || with_i > 1 {
            return None;
        }
        let rest: Vec<Nat> = mono.iter().filter(|x| !is_i(x)).cloned().collect();
        let term = Poly::term(rest, *k);
        if with_i == 1 {
            a = a.add(&term)?;
        } else {
            b = b.add(&term)?;
        }
    }
    Some((a, b))
}

/// The plan of a loop over `i < n` with `body`, if it qualifies.
fn stride(i: &str, n: &Nat, body: &[Stmt]) -> Option<Plan> {
    if n.as_cst().is_some() || has_loop(body) {
        return None;
    }
    let mut uses = Vec::new();
    let mut ok = true;
    walk(body, &mut |e| match e {
        Leaf::Var(v) => ok &= v != i,
        Leaf::Nat(x) if x.mentions(i) => match linear(x, i) {
            Some(ab) => uses.push(ab),
            None => ok = false,
        },
        Leaf::Nat(_) => {}
        Leaf::Local(at) => {
            let mut nats = at
                .at
                .iter()
                .flat_map(|(x, d)| [x, d])
                .chain(at.lane.iter().map(|l| &l.0));
            ok &= !nats.any(|x| x.mentions(i));
        }
    });
    if !ok || uses.is_empty() {
        return None;
    }
    // The stride: the coefficient that divides every other.
    let a = uses.iter().map(|(a, _)| a).find(|a| {
        uses.iter()
            .all(|(x, _)| polydiv(x, a).is_some_and(|(_, r)| r.is_zero()))
    })?;
    // The loop's bounds may name only what is defined before it.
    let inner = declared(body);
    let outside = |p: &Poly| !inner.iter().any(|v| p.to_nat().mentions(v));
    if a.as_cst().is_some_and(|c| c <= 1) || !crate::arith::range::pos(&a.to_nat()) || !outside(a) {
        return None;
    }
    let o = uses
        .iter()
        .filter(|(x, b)| x == a && outside(b))
        .map(|(_, b)| b)
        .min_by_key(|b| b.to_nat().op_count())
        .cloned()
        .unwrap_or_else(Poly::zero);
    Some(Plan {
        a: a.clone(),
        o,
        n: n.clone(),
    })
}

impl Plan {
    /// The loop over the index, every access `a_k i + b_k` rewritten as `f_k u + (b_k - f_k o)`.
    fn apply(self, var: String, body: Vec<Stmt>) -> Stmt {
        let (a, o) = (self.a.to_nat(), self.o.to_nat());
        let bound = &(&a * &self.n) + &o;
        let u = Nat::index_var(&var, Nat::cst(0), bound.clone());
        let map = |x: Nat| -> Nat {
            if !x.mentions(&var) {
                return x;
            }
            let Some((ak, bk)) = linear(&x, &var) else {
                return x;
            };
            let Some((f, _)) = polydiv(&ak, &self.a) else {
                return x;
            };
            let f = f.to_nat();
            &(&f * &u) + &(&bk.to_nat() - &(&f * &o))
        };
        Stmt::For {
            var: var.clone(),
            from: CExpr::Nat(o.clone()),
            bound: CExpr::Nat(bound),
            step: CExpr::Nat(a),
            unroll: false,
            body: map_nats(body, &map),
        }
    }
}

/// The names `body` declares.
fn declared(body: &[Stmt]) -> Vec<String> {
    let mut names = Vec::new();
    super::ast::visit(body, &mut |s| {
        if let Stmt::Decl { name, .. } | Stmt::Array { name, .. } = s {
            names.push(name.clone());
        }
    });
    names
}

/// Whether `body` holds a loop.
fn has_loop(body: &[Stmt]) -> bool {
    let mut found = false;
    super::ast::visit(body, &mut |s| found |= matches!(s, Stmt::For { .. }));
    found
}

/// A leaf of the expressions of a tree: a variable named in C, index arithmetic, or a local
/// element's index (not lowered yet).
enum Leaf<'e> {
    Var(&'e str),
    Nat(&'e Nat),
    Local(&'e LocalAt),
}

/// Calls `f` on every leaf of every expression in `body`.
fn walk(body: &[Stmt], f: &mut impl FnMut(Leaf)) {
    super::ast::visit(body, &mut |s| {
        for e in s.own_exprs() {
            leaves(e, f);
        }
        if let Stmt::Mark(Mark::Access(Touch { at, .. })) = s {
            match at {
                Index::Flat(n) => f(Leaf::Nat(n)),
                Index::Local(at) => f(Leaf::Local(at)),
            }
        }
    });
}

fn leaves(e: &CExpr, f: &mut impl FnMut(Leaf)) {
    match e {
        CExpr::Var(v) => f(Leaf::Var(v)),
        CExpr::Nat(n) | CExpr::Offset(_, Index::Flat(n)) => f(Leaf::Nat(n)),
        CExpr::Local(at) | CExpr::Offset(_, Index::Local(at)) => f(Leaf::Local(at)),
        _ => {}
    }
    for c in e.children() {
        leaves(c, f);
    }
}

/// `body` with every index arithmetic leaf `n` replaced by `f(n)` (local indices, lowered
/// or not, stay: a reduced loop never indexes one).
fn map_nats(body: Vec<Stmt>, f: &impl Fn(Nat) -> Nat) -> Vec<Stmt> {
    body.into_iter()
        .map(|s| s.map_exprs(&mut |e| map_expr(e, f)))
        .collect()
}

fn map_expr(x: CExpr, f: &impl Fn(Nat) -> Nat) -> CExpr {
    match x {
        CExpr::Nat(n) => CExpr::Nat(f(n)),
        CExpr::Offset(p, Index::Flat(n)) => {
            CExpr::Offset(Box::new(map_expr(*p, f)), Index::Flat(f(n)))
        }
        x => x.map_children(&mut |c| map_expr(c, f)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::cl::ast::CScalar;
    use crate::codegen::cl::{print, BinOp};

    /// `for (i = 0; i < n; i += 1) { body(i) }` printed after the pass, on one line.
    fn after_pass(n: Nat, body: &dyn Fn(&Nat) -> Vec<Stmt>) -> String {
        let i = Nat::index_var("i", Nat::cst(0), n.clone());
        let lp = Stmt::For {
            var: "i".into(),
            from: CExpr::Int(0),
            bound: CExpr::Nat(n),
            step: CExpr::Int(1),
            unroll: false,
            body: body(&i),
        };
        let mut out = String::new();
        print::stmts(&reduce(vec![lp]), 0, &mut out);
        out.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// `acc = acc + m[index(i)] * x[xi(i)];` in a loop of `n`, after the pass.
    fn reduced(n: Nat, index: &dyn Fn(&Nat) -> Nat, xi: &dyn Fn(&Nat) -> Nat) -> String {
        let read = |buf: &str, at: Nat| CExpr::var(buf).index(CExpr::Nat(at));
        after_pass(n, &|i| {
            vec![Stmt::Assign {
                place: CExpr::var("acc"),
                value: CExpr::var("acc").bin(
                    BinOp::Add,
                    read("m", index(i)).bin(BinOp::Mul, read("x", xi(i))),
                ),
            }]
        })
    }

    #[test]
    fn a_column_fold_runs_over_its_index() {
        let (big_n, m, l) = (Nat::size_var("N"), Nat::size_var("M"), Nat::size_var("l"));
        // `m[8 N i + N l + 3]`, `x[8 i + l]`: the stride 8 divides `8 N`.
        let c = reduced(
            &m / 8,
            &|i| &(&(&(i * 8) * &big_n) + &(&big_n * &l)) + 3,
            &|i| &(i * 8) + &l,
        );
        assert!(
            c.contains("for (lift_idx i = l; i < l + M / 8 * 8; i += 8)"),
            "{c}"
        );
        assert!(c.contains("acc = acc + m[N * i + 3] * x[i];"), "{c}");
    }

    #[test]
    fn loops_that_do_not_stride_stay() {
        let (n, l) = (Nat::size_var("N"), Nat::size_var("l"));
        let plain = "for (lift_idx i = 0; i < N; i += 1)";
        // Unit stride, an index that is not linear in `i`, two strides neither of which
        // divides the other.
        let unit = reduced(n.clone(), &|i| i + &l, &|i| i.clone());
        assert!(unit.contains(plain), "{unit}");
        let clamped = reduced(n.clone(), &|i| Nat::min(&(i * 4), &n), &|i| i * 4);
        assert!(clamped.contains(plain), "{clamped}");
        let coprime = reduced(n.clone(), &|i| i * 4, &|i| i * 6);
        assert!(coprime.contains(plain), "{coprime}");
        // A constant trip count: the C compiler unrolls it.
        let short = reduced(Nat::cst(4), &|i| i * 4, &|i| i * 4);
        assert!(!short.contains("i += 4"), "{short}");
    }

    #[test]
    fn bounds_name_only_what_the_loop_sees() {
        // `y[8 i + g]` with `g` declared in the loop's body: the loop runs from 0.
        let g = Nat::size_var("g");
        let out = after_pass(Nat::size_var("N"), &|i| {
            vec![
                Stmt::Decl {
                    ty: CScalar::Idx.into(),
                    name: "g".into(),
                    init: Some(CExpr::call("get_global_id", vec![CExpr::Int(0)])),
                    konst: false,
                },
                Stmt::Assign {
                    place: CExpr::var("y").index(CExpr::Nat(&(i * 8) + &g)),
                    value: CExpr::Int(1),
                },
            ]
        });
        assert!(
            out.contains("for (lift_idx i = 0; i < 8 * N; i += 8)"),
            "{out}"
        );
        assert!(
            out.contains("y[g + i] = 1;") || out.contains("y[i + g] = 1;"),
            "{out}"
        );
    }

    #[test]
    fn a_loop_variable_used_as_a_value_stays() {
        let out = after_pass(Nat::size_var("N"), &|i| {
            vec![Stmt::Assign {
                place: CExpr::var("y").index(CExpr::Nat(i * 2)),
                value: CExpr::var("i"),
            }]
        });
        assert!(out.contains("i < N; i += 1"), "{out}");
    }
}
