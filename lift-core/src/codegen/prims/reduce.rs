//! Reductions, scans, filters and sliding maps: sequential folds into private or array
//! accumulators.

use super::{filter_use, fun_arg, nat, per_item_dims, reduce_unroll, value_arg};
use crate::arith::Nat;
use crate::codegen::cl::{CExpr, CScalar, Stmt};
use crate::codegen::emit::{array_of, ty_of, Arg, Gen};
use crate::codegen::loops::Unroll;
use crate::codegen::memory::Space;
use crate::codegen::view::View;
use crate::codegen::{CodegenError, GResult};
use crate::ir::{Expr, PrimArg};
use crate::prim::Prim;
use crate::types::Type;

impl<'a> Gen<'a> {
    /// A sequential fold into a private accumulator; gives the accumulator.
    pub(super) fn reduce_value(
        &mut self,
        p: Prim,
        pargs: &[PrimArg],
        f: &Expr,
        args: Vec<Arg<'_>>,
    ) -> GResult<View> {
        let op = fun_arg(pargs)?;
        let acc_ty = ty_of(f)?;
        let (input, elem, n) = self.array_input(args)?;
        let acc = self.private_acc(pargs, &acc_ty)?;
        self.seq_loop(&n, reduce_unroll(p, &input), &mut |g, i| {
            g.fold_step(op, &acc, &acc_ty, input.at(i), &elem)
        })?;
        Ok(acc)
    }

    /// A private accumulator of type `ty` holding the initial value of `pargs`.
    fn private_acc(&mut self, pargs: &[PrimArg], ty: &Type) -> GResult<View> {
        let z = self.value(Arg::Expr(value_arg(pargs)?))?;
        let z = self.read(&z, ty)?;
        let name = self.fresh("acc");
        let t = self.ct.compute(ty)?;
        self.emit(Stmt::Decl {
            ty: t,
            name: name.clone(),
            init: Some(z),
            konst: false,
        });
        Ok(View::Value(CExpr::Var(name)))
    }

    /// One step of a sequential fold into the private accumulator `acc` (from
    /// [`Gen::private_acc`]): `acc = op(acc, x)`.
    fn fold_step(&mut self, op: &Expr, acc: &View, ty: &Type, x: View, elem: &Type) -> GResult<()> {
        let args = vec![
            Arg::View(acc.clone(), ty.clone()),
            Arg::View(x, elem.clone()),
        ];
        let v = self.call_value(op, args)?;
        let value = self.read(&v, ty)?;
        let View::Value(place) = acc else {
            return Err(CodegenError::Internal(
                "a fold into a non-private accumulator".into(),
            ));
        };
        // A step that gives the accumulator back unchanged writes nothing.
        if value != *place {
            self.emit(Stmt::Assign {
                place: place.clone(),
                value,
            });
        }
        Ok(())
    }

    /// `reduce_while_seq(f, p, z)`: a sequential fold into a private accumulator that stops
    /// at the first element for which `p` does not hold.
    pub(super) fn reduce_while(
        &mut self,
        pargs: &[PrimArg],
        f: &Expr,
        args: Vec<Arg<'_>>,
    ) -> GResult<View> {
        let mut funs = pargs.iter().filter_map(PrimArg::as_fun);
        let (Some(op), Some(pred)) = (funs.next(), funs.next()) else {
            return Err(CodegenError::Internal("reduce_while_seq arguments".into()));
        };
        let acc_ty = ty_of(f)?;
        if matches!(acc_ty, Type::Array(..)) {
            return Err(CodegenError::Unsupported(
                "reduce_while_seq with an array accumulator".into(),
            ));
        }
        let (input, elem, n) = self.array_input(args)?;
        let acc = self.private_acc(pargs, &acc_ty)?;
        let i = self.fresh("i");
        let idx = Nat::index_var(&i, Nat::cst(0), n.clone());
        let (body, ()) = self.capture(|g| {
            let x = input.at(idx);
            let keep = g.call_value(pred, vec![Arg::View(x.clone(), elem.clone())])?;
            let keep = g.read(&keep, &Type::Scalar(crate::types::ScalarType::Bool))?;
            g.emit(Stmt::When {
                cond: keep.not(),
                stmt: Box::new(Stmt::Break),
            });
            g.fold_step(op, &acc, &acc_ty, x, &elem)
        })?;
        self.emit(Stmt::For {
            var: i,
            from: CExpr::Int(0),
            bound: CExpr::Nat(n),
            step: CExpr::Int(1),
            unroll: false,
            body,
        });
        Ok(acc)
    }

    /// `then o filter_seq(pred) $ x` (`then` a function of each kept element, if any) written
    /// into the kernel's result `out`: one loop with a write cursor, whose final value is the
    /// result's length (written to the count parameter).
    pub(super) fn filter_acc(
        &mut self,
        pred: &Expr,
        then: Option<&Expr>,
        x: Arg<'_>,
        out: &View,
    ) -> GResult<()> {
        let count = self.count_out.take().ok_or_else(filter_use)?;
        let (input, elem, n) = self.array_input(vec![x])?;
        let j = self.fresh("kept");
        let at = Nat::index_var(&j, Nat::cst(0), n.clone());
        self.emit(Stmt::Decl {
            ty: CScalar::Idx.into(),
            name: j.clone(),
            init: Some(CExpr::Int(0)),
            konst: false,
        });
        self.seq_loop(&n, Unroll::No, &mut |g, i| {
            let x = input.at(i);
            let x = g.share(x, &elem, "x")?;
            let keep = g.call_value(pred, vec![Arg::View(x.clone(), elem.clone())])?;
            let keep = g.read(&keep, &Type::Scalar(crate::types::ScalarType::Bool))?;
            let dst = out.at(at.clone());
            let (mut then_body, ()) = g.capture(|g| match then {
                Some(h) => g.call_acc(h, vec![Arg::View(x, elem.clone())], &dst),
                None => g.copy(&x, &dst, &elem),
            })?;
            then_body.push(Stmt::AddAssign {
                place: CExpr::var(j.clone()),
                value: CExpr::Int(1),
            });
            g.emit(Stmt::If {
                cond: keep,
                then: then_body,
                otherwise: None,
            });
            Ok(())
        })?;
        self.emit(Stmt::Assign {
            place: CExpr::var(count).index(CExpr::Int(0)),
            value: CExpr::var(j).cast(CScalar::Int),
        });
        Ok(())
    }

    /// `scan_seq(f, z)`: a sequential fold in a private accumulator whose every step is
    /// written to `out`.
    pub(super) fn scan_acc(
        &mut self,
        pargs: &[PrimArg],
        f: &Expr,
        args: Vec<Arg<'_>>,
        out: &View,
    ) -> GResult<()> {
        let op = fun_arg(pargs)?;
        let (acc_ty, _) = array_of(&ty_of(f)?)?;
        if matches!(acc_ty, Type::Array(..)) {
            return Err(CodegenError::Unsupported(
                "scan_seq with an array accumulator".into(),
            ));
        }
        let (input, elem, n) = self.array_input(args)?;
        let acc = self.private_acc(pargs, &acc_ty)?;
        self.seq_loop(&n, Unroll::No, &mut |g, i| {
            g.fold_step(op, &acc, &acc_ty, input.at(i.clone()), &elem)?;
            g.copy(&acc, &out.at(i), &acc_ty)
        })
    }

    /// `map_seq_slide(g, size, step)`: the window lives in a private array, filled once; per
    /// output the `step` new elements are loaded at its end, `g` is applied to it and the
    /// window shifted down by `step`. The copies are unrolled, so every index into the window
    /// is a constant and the window stays in registers: each input element is read once.
    pub(super) fn map_seq_slide_acc(
        &mut self,
        pargs: &[PrimArg],
        f: &Expr,
        args: Vec<Arg<'_>>,
        out: &View,
    ) -> GResult<()> {
        let g = fun_arg(pargs)?;
        let (input, elem, _) = self.array_input(args)?;
        let (_, count) = array_of(&ty_of(f)?)?;
        let (size, step) = (nat(pargs, 0)?, nat(pargs, 1)?);
        let constant = |n: &Nat, what: &str| {
            n.as_cst().ok_or_else(|| CodegenError::NotConstant {
                what: format!("map_seq_slide {what}"),
                size: n.to_string(),
            })
        };
        let (k, s) = (constant(&size, "window")?, constant(&step, "step")?);
        let win_ty = Type::array(elem.clone(), size);
        let win = self.allocate_per_item(&win_ty, Space::Private, &[])?;
        let keep = (k - s).max(0);
        let unrolled = std::mem::replace(&mut self.unroll_copies, true);
        let fill = |g: &mut Self, from: &Nat, lo: i64, hi: i64| -> GResult<()> {
            (lo..hi).try_for_each(|j| {
                let at = from + &Nat::cst(j);
                g.copy(&input.at(at), &win.at(Nat::cst(j)), &elem)
            })
        };
        let r = fill(self, &Nat::cst(0), 0, keep).and_then(|()| {
            self.seq_loop(&count, Unroll::No, &mut |gen, i| {
                fill(gen, &(&i * &step), keep, k)?;
                gen.call_acc(g, vec![Arg::View(win.clone(), win_ty.clone())], &out.at(i))?;
                (0..keep).try_for_each(|j| {
                    gen.copy(&win.at(Nat::cst(j + s)), &win.at(Nat::cst(j)), &elem)
                })
            })
        });
        self.unroll_copies = unrolled;
        r
    }

    /// A sequential fold with an array accumulator, in a new buffer (private unless an
    /// enclosing `to_*` says otherwise); gives the accumulator.
    pub(super) fn reduce_array_value(
        &mut self,
        p: Prim,
        pargs: &[PrimArg],
        f: &Expr,
        args: Vec<Arg<'_>>,
    ) -> GResult<View> {
        let space = self.write_to.unwrap_or(Space::Private);
        let per_item = per_item_dims(value_arg(pargs)?);
        let acc = self.allocate_per_item(&ty_of(f)?, space, &per_item)?;
        self.reduce_acc(p, pargs, f, args, &acc)?;
        Ok(acc)
    }

    /// A sequential fold with an array accumulator updated in place in `out`: the initial
    /// value is written there, then each step reads and writes it. The operator must update
    /// the accumulator element by element (each element from the same element), as LIFT's
    /// array accumulators do; parallel maps in it may share the accumulator over work-items.
    pub(super) fn reduce_acc(
        &mut self,
        p: Prim,
        pargs: &[PrimArg],
        f: &Expr,
        args: Vec<Arg<'_>>,
        out: &View,
    ) -> GResult<()> {
        let op = fun_arg(pargs)?;
        let acc_ty = ty_of(f)?;
        let (input, elem, n) = self.array_input(args)?;
        self.acc(Arg::Expr(value_arg(pargs)?), out)?;
        self.seq_loop(&n, reduce_unroll(p, &input), &mut |g, i| {
            let args = vec![
                Arg::View(out.clone(), acc_ty.clone()),
                Arg::View(input.at(i), elem.clone()),
            ];
            g.call_acc(op, args, out)
        })
    }
}
