//! Loops with control-flow simplification (CGO'17 section 5.5): a parallel map whose trip
//! count equals the number of threads becomes a block, one with fewer iterations an `if`,
//! otherwise a strided loop; sequential loops of one iteration become blocks and
//! `*_unroll` loops with a constant trip count are unrolled.

use super::barriers::LoopTag;
use super::cl::{BinOp, CExpr, CScalar, Stmt};
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
        let dim = || vec![CExpr::Int(d as i64)];
        let was = self.divergent;
        // How the work-items run the iterations: one each (a block), at most one each (a
        // guard), or in turn (a strided loop). A work-group runs a strided map_wrg's
        // iterations in turn: a dependence can go from one to the next, and a barrier inside
        // is reached by the whole group alike.
        enum Shape {
            Block,
            Guard,
            Strided,
        }
        let shape = if par != Par::Glb && self.facts.equal(n, &total) {
            Shape::Block
        } else if self.facts.le(n, &total) == Some(true) {
            Shape::Guard
        } else {
            Shape::Strided
        };
        let carried = matches!(shape, Shape::Strided) && par == Par::Wrg;
        self.mag_slot();
        self.mag_open(LoopTag::Par(par, d), &name, n, carried);
        if !matches!(shape, Shape::Block) && par != Par::Wrg && self.divergent.is_none() {
            // Only some work-items run (or run as often) what is inside.
            self.divergent = self.mag.open_loop();
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
        let (stmts, r) = self.nest(|g| {
            if !matches!(shape, Shape::Strided) {
                g.emit(Stmt::Decl {
                    ty: CScalar::Idx.into(),
                    name: name.clone(),
                    init: Some(CExpr::call(id, dim())),
                    konst: false,
                });
            }
            let r = body(g, idx);
            // Still inside the group loop: the whole group reaches its end.
            if carried {
                g.mag_slot();
            }
            g.par.pop();
            r
        });
        self.divergent = was;
        self.emit(match shape {
            Shape::Block => Stmt::Block(stmts),
            Shape::Guard => Stmt::If {
                cond: CExpr::call(id, dim()).bin(BinOp::Lt, CExpr::Nat(n.clone())),
                then: stmts,
                otherwise: None,
            },
            Shape::Strided => Stmt::For {
                var: name.clone(),
                from: CExpr::call(id, dim()),
                bound: CExpr::Nat(n.clone()),
                step: CExpr::call(size, dim()),
                unroll: false,
                body: stmts,
            },
        });
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
                    let (stmts, r) = self.nest(|g| body(g, Nat::cst(k)));
                    self.emit(Stmt::Block(stmts));
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
                let pragma =
                    unroll == Unroll::Pragma && n.as_cst().is_some_and(|c| c <= MAX_UNROLL);
                self.pragma_unrolled |= pragma;
                let (stmts, r) = self.nest(|g| {
                    let r = body(g, idx);
                    // Where a dependence goes from one iteration to the next.
                    g.mag_slot();
                    r
                });
                self.emit(Stmt::For {
                    var: name,
                    from: CExpr::Int(0),
                    bound: CExpr::Nat(n.clone()),
                    step: CExpr::Int(1),
                    unroll: pragma,
                    body: stmts,
                });
                self.mag_close();
                self.mag_slot();
                r
            }
        }
    }
}
