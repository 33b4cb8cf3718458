//! Loops with control-flow simplification (CGO'17 section 5.5): a parallel map whose trip
//! count equals the number of threads becomes a block, one with fewer iterations an `if`,
//! otherwise a strided loop; sequential loops of one iteration become blocks and
//! `*_unroll` loops with a constant trip count are unrolled.

use super::barriers::LoopTag;
use super::emit::{Gen, Par, ParLoop};
use super::GResult;
use crate::arith::Nat;

/// How a map is executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LoopKind {
    Par(Par, usize),
    Seq,
    SeqUnroll,
}

/// Most iterations unrolled by `map_seq_unroll` / `reduce_seq_unroll`.
const MAX_UNROLL: i64 = 64;

/// How a sequential loop with a constant trip count is emitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unroll {
    /// A loop.
    No,
    /// One copy of the body per iteration: the index is a constant in each, as indices into
    /// private arrays and vector lanes must be.
    Copies,
    /// A loop under `#pragma unroll`: the device compiler unrolls it (a body that indexes
    /// only local or global memory with the loop index; the compiler then schedules the
    /// copies itself, where copies written out let it hoist every load to the top and run
    /// out of registers).
    Pragma,
}

/// A loop body: the generator and the index of the iteration.
pub(crate) type Body<'b, 'a> = dyn FnMut(&mut Gen<'a>, Nat) -> GResult<()> + 'b;

impl<'a> Gen<'a> {
    /// Emits a loop of `n` iterations of `kind`.
    pub(crate) fn map_loop(
        &mut self,
        kind: LoopKind,
        n: &Nat,
        body: &mut Body<'_, 'a>,
    ) -> GResult<()> {
        match kind {
            LoopKind::Par(par, d) => self.par_loop(par, d, n, body),
            LoopKind::Seq => self.seq_loop(n, Unroll::No, body),
            LoopKind::SeqUnroll => self.seq_loop(n, Unroll::Copies, body),
        }
    }

    fn par_loop(&mut self, par: Par, d: usize, n: &Nat, body: &mut Body<'_, 'a>) -> GResult<()> {
        let one = Nat::cst(1);
        let (name, id, size, total) = match par {
            Par::Glb => (
                format!("gid{d}"),
                "get_global_id",
                "get_global_size",
                self.launch.global.get(d).cloned(),
            ),
            Par::Wrg => (
                format!("wg{d}"),
                "get_group_id",
                "get_num_groups",
                self.launch.groups.get(d).cloned(),
            ),
            Par::Lcl => (
                format!("l{d}"),
                "get_local_id",
                "get_local_size",
                self.launch.local.get(d).map(|l| Nat::cst(*l)),
            ),
        };
        let total = total.unwrap_or(one);
        let idx = Nat::index_var(&name, Nat::cst(0), n.clone());
        let was = self.divergent;
        // A work-group runs a strided map_wrg's iterations in turn: a dependence can go from
        // one to the next, and a barrier inside is reached by the whole group alike.
        let mut carried = false;
        self.mag_slot();
        if par != Par::Glb && self.facts.equal(n, &total) {
            self.mag_open(LoopTag::Par(par, d), &name, n, false);
            self.open("{");
            self.line(format!("lift_idx {name} = {id}({d});"));
        } else if self.facts.le(n, &total) == Some(true) {
            self.mag_open(LoopTag::Par(par, d), &name, n, false);
            self.open(format!("if ({id}({d}) < {}) {{", n.c()));
            self.line(format!("lift_idx {name} = {id}({d});"));
            self.divergent |= par != Par::Wrg;
        } else {
            carried = par == Par::Wrg;
            self.mag_open(LoopTag::Par(par, d), &name, n, carried);
            self.open(format!(
                "for (lift_idx {name} = {id}({d}); {name} < {}; {name} += {size}({d})) {{",
                n.c()
            ));
            self.divergent |= par != Par::Wrg;
        }
        if par == Par::Lcl {
            self.lcl_loops += 1;
        } else {
            self.grid_loops += 1;
        }
        self.par.push(ParLoop {
            par,
            idx: idx.clone(),
            trip: n.clone(),
        });
        let r = body(self, idx);
        self.par.pop();
        if carried {
            self.mag_slot();
        }
        self.divergent = was;
        self.close();
        self.mag_close();
        self.mag_slot();
        r
    }

    /// Emits a sequential loop of `n` iterations (unrolled if asked and `n` is a constant).
    pub(crate) fn seq_loop(
        &mut self,
        n: &Nat,
        unroll: Unroll,
        body: &mut Body<'_, 'a>,
    ) -> GResult<()> {
        match n.as_cst() {
            Some(c) if c <= 0 => Ok(()),
            Some(c) if c == 1 || (unroll == Unroll::Copies && c <= MAX_UNROLL) => {
                for k in 0..c {
                    self.open("{");
                    let r = body(self, Nat::cst(k));
                    self.close();
                    self.mag_slot();
                    r?;
                }
                Ok(())
            }
            _ => {
                let name = self.fresh("i");
                let idx = Nat::index_var(&name, Nat::cst(0), n.clone());
                self.mag_slot();
                self.mag_open(LoopTag::Seq, &name, n, true);
                if unroll == Unroll::Pragma && n.as_cst().is_some_and(|c| c <= MAX_UNROLL) {
                    self.line("#pragma unroll");
                    self.pragma_unrolled = true;
                }
                self.open(format!(
                    "for (lift_idx {name} = 0; {name} < {}; {name} += 1) {{",
                    n.c()
                ));
                let r = body(self, idx);
                // Where a dependence goes from one iteration to the next.
                self.mag_slot();
                self.close();
                self.mag_close();
                self.mag_slot();
                r
            }
        }
    }
}
