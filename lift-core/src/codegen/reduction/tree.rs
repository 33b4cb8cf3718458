//! One work-group's part of a reduction: a strided fold per work-item, then a tree in local
//! memory (`lift_tmp`), shared by the two-kernel and the row reductions of [`super`].

use crate::arith::Nat;
use crate::codegen::cl::{BinOp, CExpr, CScalar, CType, Fence, Stmt};
use crate::codegen::emit::{Arg, Gen};
use crate::codegen::memory::Space;
use crate::codegen::view::View;
use crate::codegen::GResult;
use crate::ir::Expr;
use crate::types::Type;

/// The buffers of a reduction input that can be read with `vload4`: a 1-D array parameter, or
/// a `zip` of such parameters (`tuple`), with the OpenCL scalar type of each.
pub(super) struct Lanes {
    pub bufs: Vec<(String, CScalar)>,
    pub tuple: bool,
}

/// `lift_tmp[i]`, element `i` of a tree reduction's local values.
pub(super) fn lift_tmp(i: CExpr) -> CExpr {
    CExpr::var("lift_tmp").index(i)
}

/// `lift_l`, the work-item's index in its group in a tree reduction.
pub(super) fn lift_l() -> CExpr {
    CExpr::var("lift_l")
}

impl Gen<'_> {
    /// `post(value)`, or `value` itself without an epilogue.
    pub(super) fn finish(&mut self, post: Option<&Expr>, value: CExpr, t: &Type) -> GResult<CExpr> {
        let Some(post) = post else {
            return Ok(value);
        };
        let arg = Arg::View(View::Value(value), t.clone());
        let r = self.call_value(post, vec![arg])?;
        self.read(&r, t)
    }

    /// One work-group's part of a reduction: every work-item folds `input[i]` for `i` from
    /// `start` in steps of `stride` below `n` with `fold` (with `vload4` of whole vectors first
    /// when `lanes` gives the input's buffers), then the group combines its values in local
    /// memory (`lift_tmp`) with a tree of `combine`, leaving the result in `lift_tmp[0]`. With
    /// `cols > 1` the group holds `cols` independent reductions, work-item `l` taking part in
    /// reduction `l % cols`: the tree stops at `cols` values, `lift_tmp[0..cols]`. The group
    /// has `wg` work-items.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tree(
        &mut self,
        t: &Type,
        (fold, combine): (&Expr, &Expr),
        z: &Expr,
        (input, elem, lanes): (&View, &Type, Option<&Lanes>),
        n: &Nat,
        (start, stride): (CExpr, CExpr),
        (cols, wg): (i64, i64),
    ) -> GResult<()> {
        let ct = self.ct.compute(t)?;
        let zv = self.value(Arg::Expr(z))?;
        let zc = self.read(&zv, t)?;
        let decl = |ty: &CType, name: &str, init: CExpr| Stmt::Decl {
            ty: ty.clone(),
            name: name.into(),
            init: Some(init),
            konst: false,
        };
        let acc = || CExpr::var("lift_acc");
        let barrier = Stmt::Barrier(Fence {
            local: true,
            global: false,
        });
        self.emit(Stmt::Array {
            space: Space::Local,
            ty: ct.clone(),
            name: "lift_tmp".into(),
            len: wg,
        });
        self.emit(Stmt::Decl {
            ty: CScalar::Int.into(),
            name: "lift_l".into(),
            init: Some(CExpr::call("get_local_id", vec![CExpr::Int(0)])),
            konst: true,
        });
        self.emit(decl(&ct, "lift_acc", zc));
        let mut first = start.clone();
        if let Some(lanes) = lanes {
            let (body, ()) = self.capture(|g| {
                for (k, (buf, sct)) in lanes.bufs.iter().enumerate() {
                    g.emit(Stmt::Decl {
                        ty: CType::Vector(*sct, 4),
                        name: format!("lift_v{k}"),
                        init: Some(CExpr::call(
                            "vload4",
                            vec![CExpr::var("lift_j"), CExpr::var(buf.clone())],
                        )),
                        konst: true,
                    });
                }
                for lane in 0..4 {
                    let part = |k: usize| {
                        View::Value(CExpr::var(format!("lift_v{k}")).member(format!("s{lane}")))
                    };
                    let v = if lanes.tuple {
                        View::Tuple((0..lanes.bufs.len()).map(part).collect())
                    } else {
                        part(0)
                    };
                    g.fold_into_acc(fold, t, v, elem)?;
                }
                Ok(())
            })?;
            self.emit(Stmt::For {
                var: "lift_j".into(),
                from: start.clone(),
                bound: CExpr::Nat(n / 4),
                step: stride.clone(),
                unroll: false,
                body,
            });
            first = CExpr::Nat(n / 4 * 4).bin(BinOp::Add, start);
        }
        let (body, ()) = self.capture(|g| {
            let i = Nat::index_var("lift_i", Nat::cst(0), n.clone());
            g.fold_into_acc(fold, t, input.at(i), elem)
        })?;
        self.emit(Stmt::For {
            var: "lift_i".into(),
            from: first,
            bound: CExpr::Nat(n.clone()),
            step: stride,
            unroll: false,
            body,
        });
        self.emit(Stmt::Assign {
            place: lift_tmp(lift_l()),
            value: acc(),
        });
        self.emit(barrier.clone());
        let mut s = wg / 2;
        while s >= cols {
            let args = vec![
                Arg::View(View::Value(lift_tmp(lift_l())), t.clone()),
                Arg::View(
                    View::Value(lift_tmp(lift_l().bin(BinOp::Add, CExpr::Int(s)))),
                    t.clone(),
                ),
            ];
            let r = self.call_value(combine, args)?;
            let value = self.read(&r, t)?;
            self.emit(Stmt::When {
                cond: lift_l().bin(BinOp::Lt, CExpr::Int(s)),
                stmt: Box::new(Stmt::Assign {
                    place: lift_tmp(lift_l()),
                    value,
                }),
            });
            self.emit(barrier.clone());
            s /= 2;
        }
        Ok(())
    }
}

impl Gen<'_> {
    /// `lift_acc = fold(lift_acc, v)`, `v` an element of type `elem`, the accumulator of `t`.
    fn fold_into_acc(&mut self, fold: &Expr, t: &Type, v: View, elem: &Type) -> GResult<()> {
        let args = vec![
            Arg::View(View::Value(CExpr::var("lift_acc")), t.clone()),
            Arg::View(v, elem.clone()),
        ];
        let r = self.call_value(fold, args)?;
        let value = self.read(&r, t)?;
        self.emit(Stmt::Assign {
            place: CExpr::var("lift_acc"),
            value,
        });
        Ok(())
    }
}
