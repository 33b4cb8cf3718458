//! Barriers from a memory-access graph (Mogers' thesis section 5.4, Algorithm 3).
//!
//! While a kernel is emitted, the generator leaves marks among its statements
//! ([`Stmt::Mark`]): every access to
//! local memory or to a global temporary (buffer, flat index, the loops around it), the
//! opening and closing of every loop, and *slots*, the points where a barrier may go (before
//! and after each loop, at the end of each sequential loop's body). Once the kernel is
//! complete, [`Gen::place_barriers`] pairs the accesses that two work-items of a group may
//! order differently (one of them a write, not provably the same work-item's element), takes
//! for each pair the slots on its control-flow path (forward, and around every sequential
//! loop both accesses share; slots in loops around neither access are not candidates), and
//! places as few barriers as it can: greedily, the slot on the most paths not yet separated,
//! on ties the one inside the fewest loops (after a loop rather than inside it), then the
//! later one. A path whose
//! slots are all in divergent control flow is refused: the mapping is not synchronisable.
//!
//! Whether a slot is in divergent control flow depends on which work-items reach it, not on
//! the loops elsewhere: a slot between two `map_lcl`s of a work-group's body is reached by
//! all, one inside a `map_lcl` guarded or strided by its trip count is not. Whether two
//! accesses may touch one element from two work-items is decided from their indices
//! ([`super::owners`]: the same index function of the same work-item id is the same
//! work-item, an element of a work-item's own block is its alone).

use super::cl::ast::{rebuild, visit};
use super::cl::{CExpr, Fence, Index, Mark, Stmt, Touch};
use super::emit::{Gen, Par};
use super::memory::Space;
use super::{GResult, SyncError};
use crate::arith::Nat;
use std::collections::HashMap;

/// What a loop is, for comparing the work-items' iteration spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LoopTag {
    Seq,
    Par(Par, usize),
}

/// A loop of the kernel.
struct LoopRec {
    tag: LoopTag,
    /// The index variable.
    var: String,
    trip: Nat,
    /// Whether one work-group runs several iterations in turn (a dependence can go from one
    /// iteration to the next).
    carried: bool,
}

/// One access to shared memory (its element is in its mark, [`Touch`]).
struct Access {
    buf: String,
    space: Space,
    write: bool,
    /// Vector width and lane, which must agree for two accesses to be the same element.
    shape: (Option<u32>, Option<String>),
    /// The loops around it, outermost first.
    stack: Vec<usize>,
}

/// A point where a barrier may go.
struct Slot {
    stack: Vec<usize>,
    /// Every work-item of the group reaches it equally often.
    sync: bool,
    /// The outermost loop around it that only some work-items of the group run.
    divergent: Option<usize>,
}

/// The memory-access graph of the kernel being emitted.
#[derive(Default)]
pub(crate) struct Mag {
    loops: Vec<LoopRec>,
    accesses: Vec<Access>,
    slots: Vec<Slot>,
    /// Loops open now.
    stack: Vec<usize>,
    /// Barriers placed in the kernels finished so far (the race checker's seeded bug counts
    /// them per kernel).
    placed: usize,
}

impl Mag {
    /// The innermost loop open now.
    pub(crate) fn open_loop(&self) -> Option<usize> {
        self.stack.last().copied()
    }
}

/// An access with the flat index of its element, as its mark gives it when barriers are
/// placed (local rows as bank padding left them).
#[derive(Clone, Copy)]
struct At<'m> {
    acc: &'m Access,
    idx: &'m Nat,
}

/// A point of the kernel's event sequence.
enum Event {
    /// An access and the flat index of its element.
    Access(usize, Nat),
    Slot(usize),
    Open(usize),
    Close(usize),
    /// A barrier written literally (the tree reduction's).
    Fixed,
}

/// A candidate barrier position in the event sequence.
struct Cand {
    pos: usize,
    /// The slot it is (`None`: a barrier written literally).
    slot: Option<usize>,
    stack: Vec<usize>,
    sync: bool,
    divergent: Option<usize>,
}

/// A pair of accesses that needs a barrier between them, with its path's candidates.
struct Need {
    space: Space,
    path: Vec<usize>,
}

impl Gen<'_> {
    /// Opens a loop of the access graph (its mark goes before the loop's statement).
    pub(crate) fn mag_open(&mut self, tag: LoopTag, var: &str, trip: &Nat, carried: bool) {
        let id = self.mag.loops.len();
        self.mag.loops.push(LoopRec {
            tag,
            var: var.to_string(),
            trip: trip.clone(),
            carried,
        });
        self.mag.stack.push(id);
        self.emit(Stmt::Mark(Mark::Open(id)));
    }

    /// Closes the innermost loop of the access graph.
    pub(crate) fn mag_close(&mut self) {
        if let Some(id) = self.mag.stack.pop() {
            self.emit(Stmt::Mark(Mark::Close(id)));
        }
    }

    /// A point where a barrier may go.
    pub(crate) fn mag_slot(&mut self) {
        // Outside divergent loops every work-item of a kernel with work-groups reaches it (a
        // barrier between two group loops orders each group's work-items).
        let in_group = !self.launch.groups.is_empty();
        let id = self.mag.slots.len();
        self.mag.slots.push(Slot {
            stack: self.mag.stack.clone(),
            sync: in_group && self.divergent.is_none(),
            divergent: self.divergent,
        });
        self.emit(Stmt::Mark(Mark::Slot(id)));
    }

    /// Records an access to element `idx` of `buf` (local memory or a global temporary);
    /// `words`: its words for the bank model ([`Touch::words`]).
    pub(crate) fn mag_access(
        &mut self,
        buf: &str,
        space: Space,
        write: bool,
        idx: &Index,
        shape: (Option<u32>, Option<String>),
        words: Option<(i64, i64)>,
    ) {
        let id = self.mag.accesses.len();
        self.mag.accesses.push(Access {
            buf: buf.to_string(),
            space,
            write,
            shape,
            stack: self.mag.stack.clone(),
        });
        self.emit(Stmt::Mark(Mark::Access(Touch {
            id,
            at: idx.clone(),
            words,
        })));
    }

    /// Places the barriers of the kernel emitted so far and removes the marks.
    pub(crate) fn place_barriers(&mut self) -> GResult<()> {
        let body = self.take_body();
        let (events, cands) = self.events(&body);
        let needs = self.needs(&events, &cands)?;
        let chosen = choose(&needs, &cands);
        let mut fence: Vec<Option<Fence>> = vec![None; cands.len()];
        for n in &needs {
            for &c in n
                .path
                .iter()
                .filter(|&&c| chosen[c] && cands[c].slot.is_some())
            {
                let f = fence[c].get_or_insert_with(Fence::default);
                match n.space {
                    Space::Global => f.global = true,
                    _ => f.local = true,
                }
            }
        }
        let at: HashMap<usize, Fence> = cands
            .iter()
            .zip(&fence)
            .filter_map(|(cand, f)| Some((cand.slot?, (*f)?)))
            .collect();
        let drop = super::trace::options().drop_barrier;
        let trace = self.trace;
        let mut placed = self.mag.placed;
        let body = rebuild(body, &mut |s| {
            let Stmt::Mark(m) = s else {
                return vec![s];
            };
            let Mark::Slot(slot) = m else {
                return Vec::new();
            };
            let Some(&f) = at.get(&slot) else {
                return Vec::new();
            };
            let mut out = Vec::new();
            if drop != Some(placed) {
                out.push(Stmt::Barrier(f));
                if trace {
                    out.push(Stmt::AddAssign {
                        place: CExpr::var("lift_epoch"),
                        value: CExpr::Int(1),
                    });
                }
            }
            placed += 1;
            out
        });
        self.mag.placed = placed;
        self.extend(body);
        Ok(())
    }

    /// The event sequence of `body` and the candidate barrier positions in it (of a run of
    /// adjacent slots, the last).
    fn events(&self, body: &[Stmt]) -> (Vec<Event>, Vec<Cand>) {
        let mut events = Vec::new();
        let mut cands: Vec<Cand> = Vec::new();
        let mut stack: Vec<usize> = Vec::new();
        visit(body, &mut |s| {
            let ev = match s {
                Stmt::Mark(Mark::Access(t)) => Event::Access(t.id, t.at.flat(&self.facts)),
                Stmt::Mark(Mark::Slot(n)) => Event::Slot(*n),
                Stmt::Mark(Mark::Open(n)) => Event::Open(*n),
                Stmt::Mark(Mark::Close(n)) => Event::Close(*n),
                Stmt::Barrier(_) => Event::Fixed,
                _ => return,
            };
            match ev {
                Event::Open(n) => stack.push(n),
                Event::Close(_) => {
                    stack.pop();
                }
                Event::Slot(s) => {
                    if matches!(events.last(), Some(Event::Slot(_))) {
                        cands.pop();
                        events.pop();
                    }
                    cands.push(Cand {
                        pos: events.len(),
                        slot: Some(s),
                        stack: self.mag.slots[s].stack.clone(),
                        sync: self.mag.slots[s].sync,
                        divergent: self.mag.slots[s].divergent,
                    });
                }
                Event::Fixed => cands.push(Cand {
                    pos: events.len(),
                    slot: None,
                    stack: stack.clone(),
                    sync: true,
                    divergent: None,
                }),
                Event::Access(..) => {}
            }
            events.push(ev);
        });
        (events, cands)
    }

    /// The pairs of accesses a barrier must separate, with the candidates on their paths.
    fn needs(&self, events: &[Event], cands: &[Cand]) -> GResult<Vec<Need>> {
        let mut open = std::collections::HashMap::new();
        let mut close = std::collections::HashMap::new();
        let mut acc = Vec::new();
        for (p, e) in events.iter().enumerate() {
            match e {
                Event::Open(l) => {
                    open.insert(*l, p);
                }
                Event::Close(l) => {
                    close.insert(*l, p);
                }
                Event::Access(a, idx) => acc.push((
                    p,
                    At {
                        acc: &self.mag.accesses[*a],
                        idx,
                    },
                )),
                _ => {}
            }
        }
        if let Some(a) = acc.iter().map(|a| a.1).find(|a| self.rewritten_by_all(*a)) {
            return Err(SyncError::RewrittenByAll {
                buffer: a.acc.buf.clone(),
            }
            .into());
        }
        let mut needs = Vec::new();
        for (x, &(p1, a1)) in acc.iter().enumerate() {
            for &(p2, a2) in &acc[x + 1..] {
                if a1.acc.buf != a2.acc.buf || !(a1.acc.write || a2.acc.write) {
                    continue;
                }
                let common = common_prefix(&a1.acc.stack, &a2.acc.stack);
                let shared = common.len();
                let in_group =
                    common.iter().any(|&l| self.group_loop(l)) || self.same_group(a1, a2, shared);
                if !in_group {
                    if !self.depends(a1, a2, shared) {
                        continue;
                    }
                    let below = |a: At| a.acc.stack[common.len()..].to_vec();
                    let (b1, b2) = (below(a1), below(a2));
                    // (A map_lcl is inside a map_wrg: below the common loops, or around both
                    // accesses, where they are inside one group.)
                    if b1.iter().chain(&b2).any(|&l| self.grid_loop(l)) {
                        let buffer = a1.acc.buf.clone();
                        return Err(SyncError::GridRace { buffer }.into());
                    }
                    continue;
                }
                // A slot in a loop around one of the accesses runs between the two on every
                // iteration; deeper slots are not candidates.
                let on_level = |c: &Cand| {
                    a1.acc.stack.starts_with(&c.stack) || a2.acc.stack.starts_with(&c.stack)
                };
                let forward: Vec<usize> = (0..cands.len())
                    .filter(|&c| cands[c].pos > p1 && cands[c].pos < p2 && on_level(&cands[c]))
                    .collect();
                let space = if a1.acc.space == Space::Global || a2.acc.space == Space::Global {
                    Space::Global
                } else {
                    Space::Local
                };
                if self.depends(a1, a2, shared) {
                    needs.push(self.need(a1.acc, space, forward, cands)?);
                }
                if !self.depends(a2, a1, shared) {
                    continue;
                }
                for &l in common.iter().filter(|&&l| self.mag.loops[l].carried) {
                    let (Some(&o), Some(&c)) = (open.get(&l), close.get(&l)) else {
                        continue;
                    };
                    let around: Vec<usize> = (0..cands.len())
                        .filter(|&k| {
                            let q = cands[k].pos;
                            ((q > p2 && q < c) || (q > o && q < p1)) && on_level(&cands[k])
                        })
                        .collect();
                    needs.push(self.need(a1.acc, space, around, cands)?);
                }
            }
        }
        Ok(needs)
    }

    /// The need of a pair with these candidates, refused if no barrier can go on its path.
    fn need(&self, a: &Access, space: Space, path: Vec<usize>, cands: &[Cand]) -> GResult<Need> {
        let usable: Vec<usize> = path
            .iter()
            .copied()
            .filter(|&c| cands[c].sync && !(cands[c].slot.is_none() && space == Space::Global))
            .collect();
        if usable.is_empty() {
            let buffer = a.buf.clone();
            let Some(l) = path.iter().find_map(|&c| cands[c].divergent) else {
                return Err(SyncError::SameMap { buffer }.into());
            };
            let l = &self.mag.loops[l];
            let (construct, why) = match l.tag {
                LoopTag::Par(Par::Lcl, d) => {
                    let local = self.launch.local.get(d).copied().unwrap_or(1);
                    (
                        format!("map_lcl({d})"),
                        format!("{} iterations, {local} work-items", l.trip),
                    )
                }
                LoopTag::Par(p, d) => (
                    format!("{}({d})", if p == Par::Glb { "map_glb" } else { "map_wrg" }),
                    "a barrier orders the work-items of one group only".into(),
                ),
                LoopTag::Seq => ("map_seq".into(), "run by one work-item".into()),
            };
            return Err(SyncError::Divergent {
                construct,
                why,
                buffer,
            }
            .into());
        }
        Ok(Need {
            space,
            path: usable,
        })
    }

    /// Whether `a` is a write that every work-item of a kernel with several runs (no
    /// `map_lcl`/`map_glb` around it gives each its own elements) and that writes one
    /// element on several iterations of a sequential loop around it (the index does not
    /// depend on the loop): one work-item's later value overwrites what another work-item is
    /// about to read. Writes of each element once are benign (every work-item writes the same
    /// value).
    fn rewritten_by_all(&self, At { acc: a, idx }: At) -> bool {
        let parallel = self
            .mag
            .loops
            .iter()
            .any(|l| matches!(l.tag, LoopTag::Par(..)));
        let split = a
            .stack
            .iter()
            .any(|&l| matches!(self.mag.loops[l].tag, LoopTag::Par(Par::Lcl | Par::Glb, _)));
        a.write
            && parallel
            && !split
            && a.stack.iter().any(|&l| {
                let l = &self.mag.loops[l];
                l.tag == LoopTag::Seq
                    && !self.facts.equal(&l.trip, &Nat::cst(1))
                    && !idx.mentions(&l.var)
            })
    }

    fn grid_loop(&self, l: usize) -> bool {
        matches!(self.mag.loops[l].tag, LoopTag::Par(Par::Wrg | Par::Glb, _))
    }

    fn group_loop(&self, l: usize) -> bool {
        matches!(self.mag.loops[l].tag, LoopTag::Par(Par::Wrg, _))
    }

    /// Whether `second`, executed after `first`, may touch an element another work-item of
    /// the group touched through `first` (Definition 5.4.1): not if each work-item touches
    /// the same elements through both, nor if `first` writes with no parallel loop below the
    /// `shared` loops (every work-item wrote every element it reads afterwards).
    fn depends(&self, first: At, second: At, shared: usize) -> bool {
        let replicated = first.acc.write
            && !second.acc.write
            && first.acc.stack[shared..]
                .iter()
                .all(|&l| self.mag.loops[l].tag == LoopTag::Seq);
        !replicated && !self.same_items(first, second, shared) && !self.apart(first, second, shared)
    }

    /// Whether `a` and `b`, in different work-group loops (or iterations of one), touch each
    /// element from one group: each element determines the group ids alike. A barrier that
    /// every work-item of the group reaches then orders them.
    fn same_group(&self, a: At, b: At, shared: usize) -> bool {
        if self.launch.groups.is_empty() || a.acc.shape != b.acc.shape {
            return false;
        }
        let mut wanted: Vec<String> = Vec::new();
        for &l in a.acc.stack[shared..].iter().chain(&b.acc.stack[shared..]) {
            let rec = &self.mag.loops[l];
            if self.group_loop(l) && !wanted.contains(&rec.var) {
                wanted.push(rec.var.clone());
            }
        }
        let (sa, sb) = (self.singles(a), self.singles(b));
        !wanted.is_empty()
            && super::owners::apart(&self.facts, side(a, &sa), side(b, &sb), &wanted, &[])
    }

    /// The variables of the parallel loops of one iteration around `a` (run by one
    /// work-item: the variable is `0`).
    fn singles(&self, a: At) -> Vec<String> {
        a.acc
            .stack
            .iter()
            .map(|&l| &self.mag.loops[l])
            .filter(|l| {
                matches!(l.tag, LoopTag::Par(..)) && self.facts.equal(&l.trip, &Nat::cst(1))
            })
            .map(|l| l.var.clone())
            .collect()
    }

    /// Whether each element touched through `a` and `b` determines the work-item that touches
    /// it alike ([`super::owners`]): the ids of every parallel loop around either access
    /// (the group's id too, but where both run in one iteration of a group loop that is not
    /// strided: the same group).
    fn apart(&self, a: At, b: At, shared: usize) -> bool {
        if a.acc.shape != b.acc.shape {
            return false;
        }
        let common = &a.acc.stack[..shared];
        let in_group = common.iter().any(|&l| self.group_loop(l));
        let mut wanted: Vec<String> = Vec::new();
        let mut fixed: Vec<String> = Vec::new();
        for &l in a.acc.stack.iter().chain(&b.acc.stack) {
            let rec = &self.mag.loops[l];
            let LoopTag::Par(p, _) = rec.tag else {
                continue;
            };
            let list = if in_group && p == Par::Wrg && common.contains(&l) && !rec.carried {
                &mut fixed
            } else {
                &mut wanted
            };
            if !list.contains(&rec.var) {
                list.push(rec.var.clone());
            }
        }
        let (sa, sb) = (self.singles(a), self.singles(b));
        !wanted.is_empty()
            && super::owners::apart(&self.facts, side(a, &sa), side(b, &sb), &wanted, &fixed)
    }

    /// Whether each work-item touches through `b` exactly the elements it touches through
    /// `a` (thesis Definition 5.4.2): the loops below the `shared` common ones agree position
    /// by position (kind, dimension, trip count) and the indices are equal once the loop
    /// variables are matched up.
    fn same_items(&self, a: At, b: At, shared: usize) -> bool {
        // A sequential loop whose variable the index does not mention changes no element
        // (the steps of an `iterate` around one of two grid maps).
        let below = |x: At| -> Vec<usize> {
            x.acc.stack[shared..]
                .iter()
                .copied()
                .filter(|&l| {
                    let l = &self.mag.loops[l];
                    l.tag != LoopTag::Seq || x.idx.mentions(&l.var)
                })
                .collect()
        };
        let (la, lb) = (below(a), below(b));
        if la.len() != lb.len() || a.acc.shape != b.acc.shape {
            return false;
        }
        let mut idx = b.idx.clone();
        for (&x, &y) in la.iter().zip(&lb) {
            let (x, y) = (&self.mag.loops[x], &self.mag.loops[y]);
            if x.tag != y.tag || !self.facts.equal(&x.trip, &y.trip) {
                return false;
            }
            if x.var != y.var {
                idx = idx
                    .substitute_index(&y.var, &Nat::index_var(&x.var, Nat::cst(0), x.trip.clone()));
            }
        }
        self.facts.equal(a.idx, &idx)
    }
}

/// An access as [`super::owners`] sees it.
fn side<'s>(a: At<'s>, single: &'s [String]) -> super::owners::Side<'s> {
    super::owners::Side { idx: a.idx, single }
}

/// The longest common prefix of two loop stacks.
fn common_prefix(a: &[usize], b: &[usize]) -> Vec<usize> {
    a.iter()
        .zip(b)
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| *x)
        .collect()
}

/// Chooses the candidates that get a barrier (a hitting set of the paths, greedily): fixed
/// barriers always; then, while a path is not separated, the candidate on the most such
/// paths, on ties the one inside the fewest loops (it runs least often), then the later one.
fn choose(needs: &[Need], cands: &[Cand]) -> Vec<bool> {
    let mut chosen: Vec<bool> = cands.iter().map(|c| c.slot.is_none()).collect();
    let mut open: Vec<&Need> = needs
        .iter()
        .filter(|n| !n.path.iter().any(|&c| chosen[c]))
        .collect();
    while !open.is_empty() {
        let mut count = vec![0usize; cands.len()];
        for n in &open {
            for &c in &n.path {
                count[c] += 1;
            }
        }
        let best = (0..cands.len()).filter(|&c| count[c] > 0).max_by_key(|&c| {
            (
                count[c],
                std::cmp::Reverse(cands[c].stack.len()),
                cands[c].pos,
            )
        });
        let Some(best) = best else {
            break;
        };
        chosen[best] = true;
        open.retain(|n| !n.path.contains(&best));
    }
    chosen
}
