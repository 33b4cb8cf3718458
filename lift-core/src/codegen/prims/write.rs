//! Primitives written into an output view: the write side of layout functions, maps as
//! loops, and `iterate` with double buffering.

use super::{filtered, first, fun_arg, is_layout, nat, reorder, space_of, vector_width};
use crate::arith::Nat;
use crate::codegen::emit::{array_of, ty_of, Arg, Gen, Par};
use crate::codegen::loops::{LoopKind, Unroll};
use crate::codegen::memory::Space;
use crate::codegen::view::View;
use crate::codegen::{launch, CodegenError, GResult};
use crate::ir::{Expr, ExprKind, PrimArg};
use crate::prim::Prim;
use crate::types::Type;

impl<'a> Gen<'a> {
    /// The view that the input of the layout function `g` (of type `in_ty`) is written to so
    /// that `g`'s result lands in `out`.
    fn write_view(&mut self, g: &Expr, in_ty: &Type, out: View) -> GResult<View> {
        let boxed = Box::new(out.clone());
        Ok(match &g.kind {
            ExprKind::Point(_, _, inner) => self.write_view(inner, in_ty, out)?,
            ExprKind::Compose(fs) => {
                let mut cur = out;
                for (k, h) in fs.iter().enumerate() {
                    let t = match fs.get(k + 1) {
                        Some(next) => ty_of(next)?,
                        None => in_ty.clone(),
                    };
                    cur = self.write_view(h, &t, cur)?;
                }
                cur
            }
            ExprKind::Prim(Prim::Map | Prim::MapSeq | Prim::MapSeqUnroll, pargs) => {
                let (elem, n) = array_of(in_ty)?;
                let name = self.fresh("j");
                let j = Nat::index_var(&name, Nat::cst(0), n);
                let inner = self.write_view(fun_arg(pargs)?, &elem, out.at(j))?;
                View::MapIdx(name, Box::new(inner))
            }
            ExprKind::Prim(Prim::Join, _) => {
                let (row, _) = array_of(in_ty)?;
                View::Split(boxed, array_of(&row)?.1)
            }
            ExprKind::Prim(Prim::Split, pargs) => View::Join(boxed, nat(pargs, 0)?),
            ExprKind::Prim(Prim::Take, pargs) => View::Guard(boxed, nat(pargs, 0)?),
            ExprKind::Prim(Prim::JoinCover, pargs) => View::Cover(
                boxed,
                array_of(&array_of(in_ty)?.0)?.1,
                nat(pargs, 0)?,
                true,
            ),
            ExprKind::Prim(Prim::Transpose, _) => View::Transpose(boxed),
            ExprKind::Prim(p @ (Prim::Gather | Prim::Scatter), pargs) => {
                let r = reorder(pargs, &array_of(in_ty)?.1, *p == Prim::Gather)?;
                View::Reorder(boxed, r)
            }
            ExprKind::Prim(Prim::AsScalar, _) => View::AsVector(boxed, vector_width(in_ty)?),
            _ => {
                return Err(CodegenError::Internal(format!(
                    "not a layout function: {}",
                    crate::print::expr(g)
                )))
            }
        })
    }

    /// Writes a primitive applied to `args` into `out`.
    pub(crate) fn prim_acc(
        &mut self,
        p: Prim,
        pargs: &[PrimArg],
        f: &Expr,
        args: Vec<Arg<'_>>,
        out: &View,
    ) -> GResult<()> {
        let in_ty = args.first().map(Self::arg_ty).transpose()?;
        let in_ty = || {
            in_ty
                .clone()
                .ok_or_else(|| CodegenError::Internal("missing input".into()))
        };
        let boxed = || Box::new(out.clone());
        match p {
            Prim::FilterSeq => self.filter_acc(fun_arg(pargs)?, None, first(args)?, out),
            Prim::Map | Prim::MapSeq if matches!(in_ty()?, Type::Capped(..)) => {
                let (pred, x) = filtered(first(args)?)?;
                self.filter_acc(pred, Some(fun_arg(pargs)?), x, out)
            }
            Prim::Map
            | Prim::MapSeq
            | Prim::MapSeqUnroll
            | Prim::MapGlb
            | Prim::MapWrg
            | Prim::MapLcl
                if !(matches!(p, Prim::Map | Prim::MapSeq | Prim::MapSeqUnroll)
                    && is_layout(fun_arg(pargs)?, true)) =>
            {
                self.map_acc(p, pargs, f, args, out)
            }
            Prim::Map | Prim::MapSeq | Prim::MapSeqUnroll => {
                let view = self.write_view(f, &in_ty()?, out.clone())?;
                self.acc(first(args)?, &view)
            }
            Prim::ReduceSeq | Prim::ReduceSeqUnroll if matches!(ty_of(f)?, Type::Array(..)) => {
                self.reduce_acc(p, pargs, f, args, out)
            }
            Prim::ScanSeq => self.scan_acc(pargs, f, args, out),
            Prim::MapSeqSlide => self.map_seq_slide_acc(pargs, f, args, out),
            Prim::Join => {
                let (row, _) = array_of(&in_ty()?)?;
                let (_, m) = array_of(&row)?;
                self.acc(first(args)?, &View::Split(boxed(), m))
            }
            Prim::Split => self.acc(first(args)?, &View::Join(boxed(), nat(pargs, 0)?)),
            Prim::Take => self.acc(first(args)?, &View::Guard(boxed(), nat(pargs, 0)?)),
            Prim::JoinCover => {
                let t = array_of(&array_of(&in_ty()?)?.0)?.1;
                self.acc(first(args)?, &View::Cover(boxed(), t, nat(pargs, 0)?, true))
            }
            Prim::Transpose => self.acc(first(args)?, &View::Transpose(boxed())),
            Prim::Gather | Prim::Scatter => {
                let (_, n) = array_of(&in_ty()?)?;
                let r = reorder(pargs, &n, p == Prim::Gather)?;
                self.acc(first(args)?, &View::Reorder(boxed(), r))
            }
            Prim::AsScalar => self.acc(
                first(args)?,
                &View::AsVector(boxed(), vector_width(&in_ty()?)?),
            ),
            Prim::Zip => args
                .into_iter()
                .enumerate()
                .try_for_each(|(k, a)| self.acc(a, &out.get(k))),
            Prim::ToGlobal | Prim::ToLocal | Prim::ToPrivate => {
                let args = self.evaluated(args)?;
                let saved = self.write_to.replace(space_of(p).unwrap_or(Space::Global));
                let r = self.call_acc(fun_arg(pargs)?, args, out);
                self.write_to = saved;
                r
            }
            Prim::Id => self.acc(first(args)?, out),
            Prim::Iterate => self.iterate_acc(pargs, f, first(args)?, out),
            _ => {
                let v = self.prim_value(p, pargs, f, args)?;
                self.copy(&v, out, &ty_of(f)?)
            }
        }
    }

    fn map_acc(
        &mut self,
        p: Prim,
        pargs: &[PrimArg],
        f: &Expr,
        args: Vec<Arg<'_>>,
        out: &View,
    ) -> GResult<()> {
        let g = fun_arg(pargs)?;
        let n = launch::trip(f)?;
        let input = first(args)?;
        let (elem, _) = array_of(&Self::arg_ty(&input)?)?;
        let d = PrimArg::dim(pargs);
        let kind = match p {
            Prim::MapGlb => LoopKind::Par(Par::Glb, d),
            Prim::MapWrg => LoopKind::Par(Par::Wrg, d),
            Prim::MapLcl => LoopKind::Par(Par::Lcl, d),
            Prim::MapSeqUnroll => LoopKind::SeqUnroll,
            _ => LoopKind::Seq,
        };
        let input = self.value(input)?;
        self.map_loop(kind, &n, &mut |gen, i| {
            gen.call_acc(
                g,
                vec![Arg::View(input.at(i.clone()), elem.clone())],
                &out.at(i),
            )
        })
    }

    /// `iterate(k, f)` with a type-preserving `f`: `input -> A`, then `A <-> B` swapped by
    /// pointers in a loop, the last application writing `out`.
    fn iterate_acc(
        &mut self,
        pargs: &[PrimArg],
        f: &Expr,
        input: Arg<'_>,
        out: &View,
    ) -> GResult<()> {
        let g = fun_arg(pargs)?;
        let ty = ty_of(f)?;
        let in_ty = Self::arg_ty(&input)?;
        if !ty.equiv(&in_ty, &self.facts) {
            return Err(CodegenError::Unsupported(format!(
                "iterate with a function that changes the type: {in_ty} to {ty}"
            )));
        }
        let k = nat(pargs, 0)?;
        let k = k.as_cst().ok_or_else(|| CodegenError::NotConstant {
            what: "iterate count".into(),
            size: k.to_string(),
        })?;
        // Work-items of different groups cannot synchronise inside one kernel: a step that
        // spans them is only sound when each work-item reads back just what it wrote, as in
        // a bare parallel map.
        let elementwise = matches!(&g.kind, ExprKind::Prim(Prim::MapGlb | Prim::MapWrg, _));
        let once = |s: &mut Self, src: Arg<'_>, dst: &View| -> GResult<()> {
            let grid = s.grid_loops;
            s.call_acc(g, vec![src], dst)?;
            if s.grid_loops > grid && !elementwise {
                return Err(CodegenError::Unsupported(format!(
                    "iterate({k}, {}): a step that moves data between work-groups needs a \
                     global synchronisation; iterate inside map_wrg on local memory instead",
                    crate::print::expr(g)
                )));
            }
            Ok(())
        };
        if k <= 0 {
            return self.acc(input, out);
        }
        if k == 1 {
            return self.call_acc(g, vec![input], out);
        }
        // Two buffers written in turn: steps 2..k-1 run in pairs (A to B, B to A) in a loop,
        // so that every access names the memory it touches (the barriers come from them).
        let space = self.write_to.unwrap_or(Space::Global);
        let buffer = |s: &mut Self| -> GResult<View> {
            let (buf, dims, reps) = s.allocate_raw(&ty, space)?;
            Ok(reps.into_iter().fold(View::Mem(buf, dims), |v, i| v.at(i)))
        };
        let a = buffer(self)?;
        let b = buffer(self)?;
        once(self, input, &a)?;
        let middle = k - 2;
        self.seq_loop(&Nat::cst(middle / 2), Unroll::No, &mut |s, _| {
            once(s, Arg::View(a.clone(), ty.clone()), &b)?;
            once(s, Arg::View(b.clone(), ty.clone()), &a)
        })?;
        let last = if middle % 2 == 1 {
            once(self, Arg::View(a.clone(), ty.clone()), &b)?;
            b
        } else {
            a
        };
        self.call_acc(g, vec![Arg::View(last, ty)], out)
    }
}
