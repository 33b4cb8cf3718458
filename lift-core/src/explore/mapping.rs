//! Parallel mapping as a constraint problem (Mogers' thesis, chapter 5, §5.3).
//!
//! Every computing `map` of a fused high-level kernel body is a decision variable whose value
//! is the thesis's encoding (Table 5.2, [`Code`]): sequential, fused with its parent, or a
//! `map_lcl`/`map_wrg`/`map_glb` of dimension 0, 1 or 2. [`constraints`] produces the
//! thesis's rules 5.1–5.10 as clauses over `enc(m) = c` literals, plus five of ours: fusion
//! only of a perfectly nested map into a map that is not itself fused, no `map_glb` with
//! `map_wrg`/`map_lcl` in one kernel (SPEC nesting rules), maps inside the function of a
//! sequential primitive (`reduce`, `iterate`) stay sequential, a map whose function computes
//! outside its nested maps is not a `map_wrg` and has only sequential maps inside (else that
//! work would be repeated by several work-items, each writing the same result), and a
//! symmetry breaker: the
//! dimensions of each level are used from 0 up (dimension 0 is special because it decides
//! coalescing; a mapping that uses dimension 1 but not 0 is a relabelling of one that uses 0).
//! [`solve`] enumerates every solution with the Pumpkin constraint solver (lazy clause
//! generation, TU Delft; chosen over `selen` because it is a maintained research solver
//! with a solution iterator and native clauses, and its core needs no binary-only
//! dependencies), [`apply`] turns one into a low-level program.
//!
//! Synchronisability (§5.3.6) is not a constraint: a mapping whose barriers could be
//! unreachable (a barrier inside a `map_lcl` loop whose trip count differs between
//! work-items) is refused by code generation, with that reason, before any kernel is emitted.

use crate::arith::Nat;
use crate::ir::{Expr, ExprKind, PrimArg};
use crate::prim::Prim;
use crate::rewrite::build;
use crate::rewrite::walk::children_mut;
use std::fmt;

/// How one map is executed (the thesis's Table 5.2: 0, 1, 1x, 2x, 3x).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Code {
    /// `map_seq` (0).
    Seq,
    /// Fused with its parent: `map(map(f))` runs as `split(m) o map(f) o join` (1).
    Fused,
    /// `map_lcl(d)` (10 + d).
    Lcl(u8),
    /// `map_wrg(d)` (20 + d).
    Wrg(u8),
    /// `map_glb(d)` (30 + d).
    Glb(u8),
}

impl Code {
    /// Every code, in encoding order.
    pub const ALL: [Code; 11] = [
        Code::Seq,
        Code::Fused,
        Code::Lcl(0),
        Code::Lcl(1),
        Code::Lcl(2),
        Code::Wrg(0),
        Code::Wrg(1),
        Code::Wrg(2),
        Code::Glb(0),
        Code::Glb(1),
        Code::Glb(2),
    ];

    /// The thesis's integer encoding.
    pub fn enc(self) -> i32 {
        match self {
            Code::Seq => 0,
            Code::Fused => 1,
            Code::Lcl(d) => 10 + i32::from(d),
            Code::Wrg(d) => 20 + i32::from(d),
            Code::Glb(d) => 30 + i32::from(d),
        }
    }

    /// The code of an encoding.
    pub fn from_enc(v: i32) -> Option<Code> {
        Code::ALL.into_iter().find(|c| c.enc() == v)
    }

    /// `enc / 10`: 0 sequential or fused, 1 local, 2 work-group, 3 global.
    pub fn level(self) -> i32 {
        self.enc() / 10
    }

    /// The parallel code of `level` (1, 2, 3) and dimension `d`.
    fn at(level: i32, d: u8) -> Code {
        match level {
            1 => Code::Lcl(d),
            2 => Code::Wrg(d),
            _ => Code::Glb(d),
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Code::Seq => write!(f, "seq"),
            Code::Fused => write!(f, "fused"),
            Code::Lcl(d) => write!(f, "lcl{d}"),
            Code::Wrg(d) => write!(f, "wrg{d}"),
            Code::Glb(d) => write!(f, "glb{d}"),
        }
    }
}

/// One map of the nest: a decision variable and the facts its constraints need.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MapVar {
    /// The innermost map whose function contains this one.
    pub parent: Option<usize>,
    /// The parent's function is this map itself (`map(map(f))`): perfectly nested.
    pub perfect: bool,
    /// It writes private memory (it is inside `to_private`).
    pub private: bool,
    /// It writes local memory (it is inside `to_local`).
    pub local: bool,
    /// It is inside the function of a sequential primitive (`reduce`, `iterate`, ...).
    pub in_fold: bool,
    /// Its result is read by a sequential stage of the same function (`to_private(reduce_seq(f,
    /// z)) $ map(g) $ x`): every work-item running that stage reads the whole result.
    pub feeds_sequential: bool,
    /// Its function computes outside the maps nested in it (it is not just one nested map
    /// with layouts around it).
    pub direct: bool,
}

/// The computing maps of a body in pre-order, with their nesting.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Nest {
    /// The maps; a map's index is its position in a pre-order walk of the body.
    pub maps: Vec<MapVar>,
}

impl Nest {
    /// The maps of `body` (layout maps such as `map(transpose)` are views, not variables).
    pub fn of(body: &Expr) -> Nest {
        let mut found = Vec::new();
        let mut copy = body.clone();
        visit(&mut copy, Ctx::default(), &mut 0, &mut |i, m, cx| {
            found.push((
                i,
                MapVar {
                    parent: cx.parent,
                    perfect: cx.perfect,
                    private: cx.private,
                    local: cx.local,
                    in_fold: cx.in_fold,
                    feeds_sequential: cx.feeds_seq,
                    direct: direct_work(m),
                },
            ));
        });
        // `visit` reports in post-order; indices are pre-order.
        found.sort_by_key(|(i, _)| *i);
        Nest {
            maps: found.into_iter().map(|(_, v)| v).collect(),
        }
    }

    /// The maps strictly inside map `m` (`NestedMaps`).
    pub fn nested(&self, m: usize) -> Vec<usize> {
        (0..self.maps.len())
            .filter(|&i| self.outer(i).contains(&m))
            .collect()
    }

    /// The maps strictly around map `m` (`OuterMaps`), innermost first.
    pub fn outer(&self, m: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut cur = self.maps[m].parent;
        while let Some(p) = cur {
            out.push(p);
            cur = self.maps[p].parent;
        }
        out
    }

    /// Every outermost-to-innermost chain of nested maps (`MapNestingChains`).
    pub fn chains(&self) -> Vec<Vec<usize>> {
        (0..self.maps.len())
            .filter(|&m| !self.maps.iter().any(|v| v.parent == Some(m)))
            .map(|leaf| {
                let mut c = self.outer(leaf);
                c.reverse();
                c.push(leaf);
                c
            })
            .collect()
    }
}

/// The context a map is found in.
#[derive(Clone, Copy, Debug, Default)]
struct Ctx {
    parent: Option<usize>,
    perfect: bool,
    private: bool,
    local: bool,
    in_fold: bool,
    feeds_seq: bool,
}

/// Is `f` (a function of a chain) a sequential computing stage: neither a layout nor a map,
/// possibly under `to_private`/`to_local`/`to_global` (`to_private(reduce_seq(f, z))`,
/// `reduce_seq`, `iterate`, a lambda)?
fn sequential_stage(f: &Expr) -> bool {
    use crate::analysis::is_layout;
    match &f.kind {
        ExprKind::Point(_, _, x) => sequential_stage(x),
        ExprKind::Compose(fs) => fs.iter().any(sequential_stage),
        ExprKind::Prim(Prim::ToPrivate | Prim::ToLocal | Prim::ToGlobal, _) => {
            crate::rewrite::walk::children(f)
                .into_iter()
                .any(sequential_stage)
        }
        ExprKind::Prim(Prim::Map, _) => false,
        ExprKind::Ident(_) | ExprKind::Lit(..) => false,
        _ => !is_layout(f),
    }
}

/// Does the function of map `m` compute outside the maps nested in it? It does unless it is
/// made of nested maps and layouts only, with no `pad` applied to its result (writing the
/// border is work; a `pad` read by a nested map is a view).
fn direct_work(m: &Expr) -> bool {
    m.prim_fun(Prim::Map).is_some_and(|f| work(f, true))
}

/// Does `e` (a function or data expression inside a map's function) compute outside
/// nested maps? `result`: `e` is applied after every nested map (its layouts write).
fn work(e: &Expr, result: bool) -> bool {
    use crate::analysis::is_layout;
    let is_map = |f: &Expr| matches!(f.kind, ExprKind::Prim(Prim::Map, _)) && !is_layout(f);
    match &e.kind {
        ExprKind::Ident(_) | ExprKind::Lit(..) => false,
        ExprKind::Lambda(_, b) | ExprKind::Proj(b, _) | ExprKind::Point(_, _, b) => work(b, result),
        ExprKind::Tuple(es) => es.iter().any(|x| work(x, result)),
        ExprKind::Compose(fs) => {
            let mut result = result;
            for f in fs {
                if is_map(f) {
                    result = false;
                } else if !is_layout(f) || result && has_pad(f) {
                    return true;
                }
            }
            false
        }
        ExprKind::Apply(f, args) => {
            let after = result && !has_map(f);
            work(f, result) || args.iter().any(|x| work(x, after))
        }
        _ if is_map(e) => false,
        _ if is_layout(e) => result && has_pad(e),
        _ => true,
    }
}

/// Does `e` contain a computing map?
fn has_map(e: &Expr) -> bool {
    (matches!(e.kind, ExprKind::Prim(Prim::Map, _)) && !crate::analysis::is_layout(e))
        || crate::rewrite::walk::children(e).into_iter().any(has_map)
}

/// Does the layout `g` contain a `pad`?
fn has_pad(g: &Expr) -> bool {
    matches!(
        g.kind,
        ExprKind::Prim(Prim::Pad | Prim::Pad2 | Prim::Pad3, _)
    ) || crate::rewrite::walk::children(g).into_iter().any(has_pad)
}

/// Walks `e`, numbering computing maps in pre-order and calling `f(index, map, context)`
/// after each map's own function has been walked (so `f` may rewrite inner maps first).
fn visit(e: &mut Expr, cx: Ctx, next: &mut usize, f: &mut dyn FnMut(usize, &mut Expr, Ctx)) {
    let ExprKind::Prim(p, args) = &mut e.kind else {
        let inner = Ctx {
            perfect: false,
            ..cx
        };
        match &mut e.kind {
            // The stages after (applied before) a sequential stage, and the data of an
            // application of one, feed it.
            ExprKind::Compose(fs) => {
                let mut cx = inner;
                for g in fs.iter_mut() {
                    let seq = sequential_stage(g);
                    visit(g, cx, next, f);
                    cx.feeds_seq |= seq;
                }
            }
            ExprKind::Apply(g, xs) => {
                let seq = sequential_stage(g);
                visit(g, inner, next, f);
                let data = Ctx {
                    feeds_seq: inner.feeds_seq || seq,
                    ..inner
                };
                for x in xs.iter_mut() {
                    visit(x, data, next, f);
                }
            }
            _ => {
                for c in children_mut(e) {
                    visit(c, inner, next, f);
                }
            }
        }
        return;
    };
    let p = *p;
    if p == Prim::Map {
        if crate::analysis::is_layout(e) {
            return;
        }
        let me = *next;
        *next += 1;
        if let ExprKind::Prim(_, args) = &mut e.kind {
            for a in args.iter_mut() {
                if let PrimArg::Fun(g) = a {
                    let perfect = matches!(g.kind, ExprKind::Prim(Prim::Map, _))
                        && !crate::analysis::is_layout(g);
                    let inner = Ctx {
                        parent: Some(me),
                        perfect,
                        ..cx
                    };
                    visit(g, inner, next, f);
                }
            }
        }
        f(me, e, cx);
        return;
    }
    let inner = match p {
        Prim::ToPrivate => Ctx {
            private: true,
            ..cx
        },
        Prim::ToLocal => Ctx { local: true, ..cx },
        Prim::ToGlobal => Ctx {
            private: false,
            local: false,
            ..cx
        },
        _ => Ctx {
            in_fold: true,
            ..cx
        },
    };
    let inner = Ctx {
        perfect: false,
        ..inner
    };
    for a in args.iter_mut() {
        if let PrimArg::Fun(g) | PrimArg::Value(g) = a {
            visit(g, inner, next, f);
        }
    }
}

/// A literal: `enc(map) = code` (`holds`) or `enc(map) ≠ code`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lit {
    /// The map.
    pub map: usize,
    /// The code compared with.
    pub code: Code,
    /// Equality (true) or disequality (false).
    pub holds: bool,
}

fn is(map: usize, code: Code) -> Lit {
    Lit {
        map,
        code,
        holds: true,
    }
}

fn not(map: usize, code: Code) -> Lit {
    Lit {
        map,
        code,
        holds: false,
    }
}

/// Where a constraint comes from (the thesis's rules, then ours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// 5.1: a map writing private memory is sequential or fused.
    PrivateMemory,
    /// 5.2: a map writing local memory is sequential, fused or `map_lcl`, under a `map_wrg`.
    LocalMemory,
    /// 5.3: no map is scheduled like a map nested in it.
    DuplicateScheduling,
    /// 5.4, 5.5: the local and work-group dimensions of a chain are the same.
    LocalIndexDimensionality,
    /// 5.6: no `map_wrg(d)` inside `map_lcl(d)`; with the SPEC's nesting rules, no
    /// `map_wrg` of any dimension inside a `map_lcl`.
    LocalIndexHierarchy,
    /// 5.7–5.9: a parallel dimension used in one chain is used in every chain.
    ExhaustiveIndexing,
    /// 5.10: perfectly nested pairs are not both sequential (they are fused or parallel).
    SequentialFusion,
    /// Ours: only a perfectly nested map is fused, and not into a fused map.
    Fusion,
    /// Ours (SPEC): `map_glb` is not mixed with `map_wrg`/`map_lcl` in one kernel.
    NoGlobalWithGroups,
    /// Ours: a map inside the function of a sequential primitive is sequential.
    InsideSequential,
    /// Ours: a map whose result a sequential stage of the same function reads is sequential
    /// (every work-item would run that stage over the whole result, which other work-items
    /// write with no barrier between: a race).
    FeedsSequential,
    /// Ours: a map whose function computes outside its nested maps is not a `map_wrg` and
    /// has only sequential maps nested in it (else every work-item of the group, or of the
    /// inner parallel dimensions, would repeat that work and write the same result).
    ReplicatedWork,
    /// Ours: the dimensions of each level are used from 0 up.
    Symmetry,
}

/// One generated constraint: its rule and its clauses (a conjunction of disjunctions).
#[derive(Clone, Debug)]
pub struct Constraint {
    /// The rule that produced it.
    pub rule: Rule,
    /// Its clauses.
    pub clauses: Vec<Vec<Lit>>,
}

/// The constraints of a nest (see the module docs).
pub fn constraints(nest: &Nest) -> Vec<Constraint> {
    let n = nest.maps.len();
    let mut out = Vec::new();
    let mut push = |rule, clauses: Vec<Vec<Lit>>| {
        if !clauses.is_empty() {
            out.push(Constraint { rule, clauses });
        }
    };
    let parallel: Vec<Code> = Code::ALL.into_iter().filter(|c| c.level() > 0).collect();
    let levels = |l: i32| (0..3u8).map(move |d| Code::at(l, d));
    let chains = nest.chains();
    for m in 0..n {
        let v = &nest.maps[m];
        if v.private {
            push(
                Rule::PrivateMemory,
                parallel.iter().map(|&c| vec![not(m, c)]).collect(),
            );
        }
        if v.local {
            let mut cl: Vec<Vec<Lit>> = levels(2)
                .chain(levels(3))
                .map(|c| vec![not(m, c)])
                .collect();
            cl.push(
                nest.outer(m)
                    .into_iter()
                    .flat_map(|o| levels(2).map(move |c| is(o, c)))
                    .collect(),
            );
            push(Rule::LocalMemory, cl);
        }
        for mi in nest.nested(m) {
            push(
                Rule::DuplicateScheduling,
                parallel
                    .iter()
                    .map(|&c| vec![not(m, c), not(mi, c)])
                    .collect(),
            );
            push(
                Rule::LocalIndexHierarchy,
                levels(1)
                    .flat_map(|l| levels(2).map(move |w| vec![not(m, l), not(mi, w)]))
                    .collect(),
            );
        }
        if !(v.perfect && v.parent.is_some()) {
            push(Rule::Fusion, vec![vec![not(m, Code::Fused)]]);
        } else if let Some(p) = v.parent {
            push(
                Rule::Fusion,
                vec![vec![not(m, Code::Fused), not(p, Code::Fused)]],
            );
            push(
                Rule::SequentialFusion,
                vec![vec![not(p, Code::Seq), not(m, Code::Seq)]],
            );
        }
        if v.in_fold {
            push(
                Rule::InsideSequential,
                parallel.iter().map(|&c| vec![not(m, c)]).collect(),
            );
        }
        if v.feeds_sequential {
            push(
                Rule::FeedsSequential,
                parallel.iter().map(|&c| vec![not(m, c)]).collect(),
            );
        }
        if v.direct {
            let mut cl: Vec<Vec<Lit>> = levels(2).map(|c| vec![not(m, c)]).collect();
            for mi in nest.nested(m) {
                cl.extend(parallel.iter().map(|&c| vec![not(mi, c)]));
            }
            push(Rule::ReplicatedWork, cl);
        }
    }
    for chain in &chains {
        for d in 0..3u8 {
            for (a, b) in [(Code::Lcl(d), Code::Wrg(d)), (Code::Wrg(d), Code::Lcl(d))] {
                // a used in the chain ⇒ b used in the chain.
                let some_b: Vec<Lit> = chain.iter().map(|&m| is(m, b)).collect();
                push(
                    Rule::LocalIndexDimensionality,
                    chain
                        .iter()
                        .map(|&m| {
                            let mut c = vec![not(m, a)];
                            c.extend(some_b.iter().copied());
                            c
                        })
                        .collect(),
                );
            }
        }
    }
    for (i, a) in chains.iter().enumerate() {
        for (j, b) in chains.iter().enumerate() {
            if i == j {
                continue;
            }
            let mut cl = Vec::new();
            for &c in &parallel {
                let in_b: Vec<Lit> = b.iter().map(|&m| is(m, c)).collect();
                for &m in a {
                    let mut clause = vec![not(m, c)];
                    clause.extend(in_b.iter().copied());
                    cl.push(clause);
                }
            }
            push(Rule::ExhaustiveIndexing, cl);
        }
    }
    let mut mix = Vec::new();
    for m1 in 0..n {
        for m2 in 0..n {
            for g in levels(3) {
                for w in levels(1).chain(levels(2)) {
                    if m1 != m2 || g != w {
                        mix.push(vec![not(m1, g), not(m2, w)]);
                    }
                }
            }
        }
    }
    push(Rule::NoGlobalWithGroups, mix);
    let mut sym = Vec::new();
    for l in 1..=3 {
        for d in 1..3u8 {
            let lower: Vec<Lit> = (0..n).map(|m| is(m, Code::at(l, d - 1))).collect();
            for m in 0..n {
                let mut c = vec![not(m, Code::at(l, d))];
                c.extend(lower.iter().copied());
                sym.push(c);
            }
        }
    }
    push(Rule::Symmetry, sym);
    out
}

/// Does the assignment `sol` (one code per map) satisfy every constraint?
pub fn satisfies(sol: &[Code], constraints: &[Constraint]) -> bool {
    constraints.iter().all(|c| {
        c.clauses
            .iter()
            .all(|cl| cl.iter().any(|l| (sol[l.map] == l.code) == l.holds))
    })
}

/// Why the solver gave no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The solver stopped without finishing the enumeration.
    #[error("the mapping solver stopped before enumerating every solution")]
    Unknown,
}

/// The most solutions [`solve`] enumerates: a body of many map nests (`iterate`s of nested
/// maps) has exponentially many mappings, and the explorer offers a few of them anyway.
pub const MAX_SOLUTIONS: usize = 4096;

/// Every assignment of codes to the maps of `nest` that satisfies `constraints` (the first
/// [`MAX_SOLUTIONS`] the Pumpkin solver finds, a deterministic choice), sorted.
pub fn solve(nest: &Nest, constraints: &[Constraint]) -> Result<Vec<Vec<Code>>, SolveError> {
    use pumpkin_conflict_resolvers::resolvers::ResolutionResolver;
    use pumpkin_core::predicate;
    use pumpkin_core::results::solution_iterator::IteratedSolution;
    use pumpkin_core::results::ProblemSolution;
    use pumpkin_core::termination::Indefinite;
    use pumpkin_core::Solver;

    if nest.maps.is_empty() {
        return Ok(vec![Vec::new()]);
    }
    let mut solver = Solver::default();
    let tag = solver.new_constraint_tag();
    let domain: Vec<i32> = Code::ALL.iter().map(|c| c.enc()).collect();
    let vars: Vec<_> = nest
        .maps
        .iter()
        .map(|_| solver.new_sparse_integer(domain.clone()))
        .collect();
    for c in constraints {
        for cl in &c.clauses {
            let preds = cl.iter().map(|l| {
                let x = vars[l.map];
                let v = l.code.enc();
                if l.holds {
                    predicate![x == v]
                } else {
                    predicate![x != v]
                }
            });
            solver.add_clause(preds, tag);
        }
    }
    let mut termination = Indefinite;
    let mut brancher = solver.default_brancher();
    let mut resolver = ResolutionResolver::default();
    let mut it = solver.get_solution_iterator(&mut brancher, &mut termination, &mut resolver);
    let mut out = Vec::new();
    loop {
        match it.next_solution() {
            IteratedSolution::Solution(s, ..) => {
                out.push(
                    vars.iter()
                        .map(|&x| Code::from_enc(s.get_integer_value(x)).unwrap_or(Code::Seq))
                        .collect(),
                );
                if out.len() == MAX_SOLUTIONS {
                    break;
                }
            }
            IteratedSolution::Finished | IteratedSolution::Unsatisfiable => break,
            IteratedSolution::Unknown => return Err(SolveError::Unknown),
        }
    }
    out.sort();
    Ok(out)
}

/// Every satisfying assignment by trying all `11^n` of them (for tests on small nests).
pub fn brute_force(nest: &Nest, constraints: &[Constraint]) -> Vec<Vec<Code>> {
    let n = nest.maps.len();
    let mut out = Vec::new();
    let mut sol = vec![Code::Seq; n];
    let total = Code::ALL.len().pow(n as u32);
    for k in 0..total {
        let mut r = k;
        for s in sol.iter_mut() {
            *s = Code::ALL[r % Code::ALL.len()];
            r /= Code::ALL.len();
        }
        if satisfies(&sol, constraints) {
            out.push(sol.clone());
        }
    }
    out.sort();
    out
}

/// The body with every computing map executed as `sol` says: parallel and sequential maps
/// renamed, a fused map and its parent `p` turned into `split(m) o p(f) o join`. The maps of
/// `body` must carry their types (the fused map's trip count is read from it). `None` if a
/// fused map's trip count is unknown.
pub fn apply(body: &Expr, sol: &[Code]) -> Option<Expr> {
    let mut out = body.clone();
    let mut ok = true;
    visit(&mut out, Ctx::default(), &mut 0, &mut |i, e, _| {
        let code = sol.get(i).copied().unwrap_or(Code::Seq);
        let span = e.span;
        let ExprKind::Prim(p, args) = &mut e.kind else {
            return;
        };
        let fused_child = sol.get(i + 1) == Some(&Code::Fused)
            && matches!(args.last(), Some(PrimArg::Fun(g)) if matches!(g.kind, ExprKind::Prim(Prim::Map, _)));
        let (prim, dim) = match code {
            Code::Seq => (Prim::MapSeq, None),
            Code::Fused => return,
            Code::Lcl(d) => (Prim::MapLcl, Some(d)),
            Code::Wrg(d) => (Prim::MapWrg, Some(d)),
            Code::Glb(d) => (Prim::MapGlb, Some(d)),
        };
        *p = prim;
        if let Some(d) = dim {
            args.insert(0, build::nat(&Nat::cst(i64::from(d)), span));
        }
        if !fused_child {
            return;
        }
        // map_X(map(g)) ⇒ split(m) o map_X(g) o join, m the inner trip count.
        let Some(PrimArg::Fun(child)) = args.last_mut() else {
            return;
        };
        let Some((_, m)) = build::array(child.ty.as_ref()).map(|(t, n)| (t.clone(), n.clone()))
        else {
            ok = false;
            return;
        };
        let Some(g) = child.prim_fun(Prim::Map).cloned() else {
            ok = false;
            return;
        };
        *child = g;
        let mapped = build::untyped(e);
        *e = build::compose(
            vec![
                build::prim(Prim::Split, vec![build::nat(&m, span)], span),
                mapped,
                build::prim(Prim::Join, Vec::new(), span),
            ],
            span,
        );
    });
    ok.then_some(out)
}

#[cfg(test)]
mod tests;
