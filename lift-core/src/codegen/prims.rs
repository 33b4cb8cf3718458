//! Primitives: layout primitives as views (read side) and output views (write side), maps as
//! loops, reductions with a private accumulator, `iterate` with double buffering.

use super::emit::{array_of, ty_of, Arg, Gen, Par};
use super::launch;
use super::loops::{LoopKind, Unroll};
use super::memory::Space;
use super::view::{PadKind, ReorderFn, View};
use super::{CodegenError, GResult};
use crate::arith::Nat;
use crate::ir::{Boundary, Expr, ExprKind, PrimArg, Reorder};
use crate::prim::Prim;
use crate::types::Type;

fn fun_arg(pargs: &[PrimArg]) -> GResult<&Expr> {
    pargs
        .iter()
        .rev()
        .find_map(PrimArg::as_fun)
        .ok_or_else(|| CodegenError::Internal("missing function argument".into()))
}

fn nat(pargs: &[PrimArg], i: usize) -> GResult<Nat> {
    PrimArg::nats(pargs)
        .get(i)
        .cloned()
        .ok_or_else(|| CodegenError::Internal("missing size argument".into()))
}

fn value_arg(pargs: &[PrimArg]) -> GResult<&Expr> {
    pargs
        .iter()
        .find_map(PrimArg::as_value)
        .ok_or_else(|| CodegenError::Internal("missing initial value".into()))
}

fn reorder(pargs: &[PrimArg], n: &Nat, inverse: bool) -> GResult<ReorderFn> {
    match pargs.iter().find_map(PrimArg::as_reorder) {
        Some(Reorder::Reverse) => Ok(ReorderFn::Reverse(n.clone())),
        Some(Reorder::Stride(s, _)) if inverse => Ok(ReorderFn::StrideInv {
            s: s.clone(),
            n: n.clone(),
        }),
        Some(Reorder::Stride(s, _)) => Ok(ReorderFn::Stride {
            s: s.clone(),
            n: n.clone(),
        }),
        None => Err(CodegenError::Internal("missing index function".into())),
    }
}

/// How the loop of a sequential reduction is emitted: `reduce_seq_unroll` over private data
/// as copies of the body (its elements are private array entries or vector lanes, which need
/// constant indices), over local or global memory as a loop the device compiler unrolls.
fn reduce_unroll(p: Prim, input: &View) -> Unroll {
    match p {
        Prim::ReduceSeqUnroll if input.in_private() => Unroll::Copies,
        Prim::ReduceSeqUnroll => Unroll::Pragma,
        _ => Unroll::No,
    }
}

/// The literal body of `|x| lit` (the parameter unused): every element of a map of it is
/// that literal.
fn constant_body(f: &Expr) -> Option<&Expr> {
    let ExprKind::Lambda(ps, body) = &f.kind else {
        return None;
    };
    let [crate::ir::Pat::Name(..)] = ps.as_slice() else {
        return None;
    };
    matches!(body.kind, ExprKind::Lit(..)).then_some(&**body)
}

/// The error for a `filter_seq` result used other than reduced, mapped or returned.
fn filter_use() -> CodegenError {
    CodegenError::Unsupported(
        "filter_seq: its result (whose length is known at run time only) can only be reduced, \
         mapped, or returned as the whole kernel result"
            .into(),
    )
}

/// `filter_seq(p) $ x` as the predicate `p` and the argument `x`; an error for anything else
/// of a capped type.
fn filtered(a: Arg<'_>) -> GResult<(&Expr, Arg<'_>)> {
    fn pred(f: &Expr) -> Option<&Expr> {
        f.prim_fun(Prim::FilterSeq)
    }
    match a {
        Arg::Chain([f, rest @ ..], args) => {
            let p = pred(f).ok_or_else(filter_use)?;
            Ok(match rest {
                [] => (p, first(args)?),
                rest => (p, Arg::Chain(rest, args)),
            })
        }
        Arg::Expr(e) => match &e.kind {
            ExprKind::Apply(f, xs) => {
                let x = xs.first().ok_or_else(filter_use)?;
                match &f.kind {
                    ExprKind::Compose(fs) => filtered(Arg::Chain(fs, vec![Arg::Expr(x)])),
                    _ => Ok((pred(f).ok_or_else(filter_use)?, Arg::Expr(x))),
                }
            }
            _ => Err(filter_use()),
        },
        _ => Err(filter_use()),
    }
}

fn first<'e>(args: Vec<Arg<'e>>) -> GResult<Arg<'e>> {
    args.into_iter()
        .next()
        .ok_or_else(|| CodegenError::Internal("missing input".into()))
}

fn vector_width(t: &Type) -> GResult<u32> {
    match array_of(t)?.0 {
        Type::Vector(_, w) => Ok(w),
        t => Err(CodegenError::Internal(format!("as_scalar of {t}"))),
    }
}

fn space_of(p: Prim) -> Option<Space> {
    match p {
        Prim::ToGlobal => Some(Space::Global),
        Prim::ToLocal => Some(Space::Local),
        Prim::ToPrivate => Some(Space::Private),
        _ => None,
    }
}

/// The outer dimensions of the result of `f` that parallel maps write (outermost first), for
/// private memory (each work-item holds one element of those).
fn per_item_dims(f: &Expr) -> Vec<bool> {
    match &f.kind {
        ExprKind::Point(_, _, inner) => per_item_dims(inner),
        ExprKind::Compose(fs) => fs.first().map(per_item_dims).unwrap_or_default(),
        ExprKind::Apply(g, _) => per_item_dims(g),
        ExprKind::Lambda(_, body) => per_item_dims(body),
        ExprKind::Prim(p, args) if space_of(*p).is_some() => {
            fun_arg(args).map(per_item_dims).unwrap_or_default()
        }
        ExprKind::Prim(
            p @ (Prim::MapLcl | Prim::MapGlb | Prim::MapSeq | Prim::MapSeqUnroll | Prim::Map),
            args,
        ) => {
            let mut dims = vec![matches!(p, Prim::MapLcl | Prim::MapGlb)];
            if let Ok(g) = fun_arg(args) {
                dims.extend(per_item_dims(g));
            }
            dims
        }
        _ => Vec::new(),
    }
}

/// Is `f` built only from data-layout primitives (and maps of them)? `write`: only those
/// with an inverse on the write side.
fn is_layout(f: &Expr, write: bool) -> bool {
    match &f.kind {
        ExprKind::Point(_, _, inner) => is_layout(inner, write),
        ExprKind::Compose(fs) => fs.iter().all(|g| is_layout(g, write)),
        ExprKind::Prim(Prim::Map | Prim::MapSeq | Prim::MapSeqUnroll, args) => {
            fun_arg(args).is_ok_and(|g| is_layout(g, write))
        }
        ExprKind::Prim(
            Prim::Split
            | Prim::Join
            | Prim::JoinCover
            | Prim::Take
            | Prim::Transpose
            | Prim::Gather
            | Prim::Scatter
            | Prim::AsScalar,
            _,
        ) => true,
        ExprKind::Prim(
            Prim::AsVector
            | Prim::SplitCover
            | Prim::Slide
            | Prim::Slide2
            | Prim::Slide3
            | Prim::Pad
            | Prim::Pad2
            | Prim::Pad3,
            _,
        ) => !write,
        _ => false,
    }
}

impl<'a> Gen<'a> {
    /// The view of a primitive applied to `args`.
    pub(crate) fn prim_value(
        &mut self,
        p: Prim,
        pargs: &[PrimArg],
        f: &Expr,
        args: Vec<Arg<'_>>,
    ) -> GResult<View> {
        let in_ty = args.first().map(Self::arg_ty).transpose()?;
        Ok(match p {
            Prim::Zip
            | Prim::Zip2
            | Prim::Zip3
            | Prim::Split
            | Prim::Join
            | Prim::Transpose
            | Prim::SplitCover
            | Prim::JoinCover
            | Prim::Iota
            | Prim::Take
            | Prim::Slide
            | Prim::Slide2
            | Prim::Slide3
            | Prim::Pad
            | Prim::Pad2
            | Prim::Pad3
            | Prim::Unzip
            | Prim::Get
            | Prim::At
            | Prim::Gather
            | Prim::Scatter
            | Prim::AsVector
            | Prim::AsScalar => self.layout_value(p, pargs, args, in_ty)?,
            Prim::Id if !matches!(ty_of(f)?, Type::Array(..)) => self.value(first(args)?)?,
            Prim::Reduce | Prim::ReduceSeq | Prim::ReduceSeqUnroll
                if matches!(ty_of(f)?, Type::Array(..)) =>
            {
                self.reduce_array_value(p, pargs, f, args)?
            }
            Prim::Reduce | Prim::ReduceSeq | Prim::ReduceSeqUnroll => {
                self.reduce_value(p, pargs, f, args)?
            }
            Prim::ReduceWhileSeq => self.reduce_while(pargs, f, args)?,
            _ if args
                .first()
                .map(Self::arg_ty)
                .transpose()?
                .is_some_and(|t| t.has_capped())
                || ty_of(f)?.has_capped() =>
            {
                return Err(filter_use());
            }
            // Every element the same literal (an array constant `[v; n]`, lowered to
            // `map(|_| v) $ iota(n)`, such as a constant pad of arrays): a view of `v`,
            // nothing stored.
            Prim::Map | Prim::MapSeq | Prim::MapSeqUnroll
                if constant_body(fun_arg(pargs)?).is_some() =>
            {
                let body = constant_body(fun_arg(pargs)?)
                    .ok_or_else(|| CodegenError::Internal("constant map".into()))?;
                let v = self.value(Arg::Expr(body))?;
                View::MapIdx(self.fresh("j"), Box::new(v))
            }
            Prim::Map | Prim::MapSeq | Prim::MapSeqUnroll if is_layout(fun_arg(pargs)?, false) => {
                let (input, elem, n) = self.array_input(args)?;
                let name = self.fresh("j");
                let j = Nat::index_var(&name, Nat::cst(0), n);
                let inner = self.call_value(fun_arg(pargs)?, vec![Arg::View(input.at(j), elem)])?;
                View::MapIdx(name, Box::new(inner))
            }
            Prim::ToGlobal | Prim::ToLocal | Prim::ToPrivate
                if !matches!(ty_of(f)?, Type::Array(..)) =>
            {
                // The space is that of the function's own results: its inputs are computed
                // (and any producer materialised) where they would be without it.
                let args = self.evaluated(args)?;
                let saved = self.write_to.replace(space_of(p).unwrap_or(Space::Global));
                let r = self.call_value(fun_arg(pargs)?, args);
                self.write_to = saved;
                r?
            }
            Prim::Vectorize => {
                let w = nat(pargs, 0)?.as_cst().and_then(|w| u32::try_from(w).ok());
                let saved = std::mem::replace(&mut self.vector_width, w);
                let r = self.call_value(fun_arg(pargs)?, args);
                self.vector_width = saved;
                r?
            }
            Prim::Map2 | Prim::Map3 => {
                return Err(CodegenError::Internal(format!(
                    "{} should have been lowered",
                    p.name()
                )))
            }
            _ => self.materialize(f, args, space_of(p))?,
        })
    }

    /// The view of the layout primitive `p` applied to `args` (`in_ty` the type of the first):
    /// no code, only the view.
    fn layout_value(
        &mut self,
        p: Prim,
        pargs: &[PrimArg],
        args: Vec<Arg<'_>>,
        in_ty: Option<Type>,
    ) -> GResult<View> {
        let in_ty = || {
            in_ty
                .clone()
                .ok_or_else(|| CodegenError::Internal("missing input".into()))
        };
        let depth = match p {
            Prim::Slide2 | Prim::Pad2 => 2,
            Prim::Slide3 | Prim::Pad3 => 3,
            _ => 1,
        };
        Ok(match p {
            Prim::Zip | Prim::Zip2 | Prim::Zip3 => View::Tuple(
                args.into_iter()
                    .map(|a| self.value(a))
                    .collect::<GResult<_>>()?,
            ),
            Prim::Split => View::Split(Box::new(self.value(first(args)?)?), nat(pargs, 0)?),
            Prim::Join => {
                let (row, _) = array_of(&in_ty()?)?;
                let (_, m) = array_of(&row)?;
                View::Join(Box::new(self.value(first(args)?)?), m)
            }
            Prim::Transpose => View::Transpose(Box::new(self.value(first(args)?)?)),
            Prim::SplitCover => {
                let n = array_of(&in_ty()?)?.1;
                View::Cover(
                    Box::new(self.value(first(args)?)?),
                    nat(pargs, 0)?,
                    n,
                    false,
                )
            }
            Prim::JoinCover => {
                let t = array_of(&array_of(&in_ty()?)?.0)?.1;
                View::Uncover(Box::new(self.value(first(args)?)?), t, nat(pargs, 0)?)
            }
            Prim::Iota => View::Iota,
            // Reading the first `n` elements reads the input at the same indices.
            Prim::Take => self.value(first(args)?)?,
            Prim::Slide | Prim::Slide2 | Prim::Slide3 => {
                let ns = PrimArg::nats(pargs);
                let steps = if ns.len() == 2 {
                    vec![ns[1].clone(); depth]
                } else {
                    ns.chunks(2).map(|c| c[1].clone()).collect()
                };
                View::Slide(Box::new(self.value(first(args)?)?), steps)
            }
            Prim::Pad | Prim::Pad2 | Prim::Pad3 => {
                let ns = PrimArg::nats(pargs);
                let lefts: Vec<Nat> = if p != Prim::Pad && ns.len() == 1 {
                    vec![ns[0].clone(); depth]
                } else {
                    ns.chunks(2).map(|c| c[0].clone()).collect()
                };
                let lens = in_ty()?.dims();
                let kind = self.pad_kind(pargs)?;
                let dims = lefts.into_iter().zip(lens).collect();
                View::Pad(Box::new(self.value(first(args)?)?), dims, kind)
            }
            Prim::Unzip => {
                let v = self.value(first(args)?)?;
                match array_of(&in_ty()?)?.0 {
                    Type::Tuple(ts) => View::Tuple((0..ts.len()).map(|k| v.get(k)).collect()),
                    t => return Err(CodegenError::Internal(format!("unzip of {t}"))),
                }
            }
            Prim::Get => {
                let i = nat(pargs, 0)?
                    .as_cst()
                    .and_then(|c| usize::try_from(c).ok());
                let i =
                    i.ok_or_else(|| CodegenError::Internal("get: non-constant index".into()))?;
                self.value(first(args)?)?.get(i)
            }
            Prim::At => self.value(first(args)?)?.at(nat(pargs, 0)?),
            Prim::Gather | Prim::Scatter => {
                let (_, n) = array_of(&in_ty()?)?;
                let r = reorder(pargs, &n, p == Prim::Scatter)?;
                View::Reorder(Box::new(self.value(first(args)?)?), r)
            }
            Prim::AsVector => {
                let w = nat(pargs, 0)?.as_cst().and_then(|c| u32::try_from(c).ok());
                let w = w.ok_or_else(|| CodegenError::Internal("as_vector: width".into()))?;
                View::AsVector(Box::new(self.value(first(args)?)?), w)
            }
            Prim::AsScalar => View::AsScalar(
                Box::new(self.value(first(args)?)?),
                vector_width(&in_ty()?)?,
            ),
            _ => {
                return Err(CodegenError::Internal(format!(
                    "{} is not a layout primitive",
                    p.name()
                )))
            }
        })
    }

    /// `args` computed into views (with their types), under the current memory space.
    fn evaluated<'e>(&mut self, args: Vec<Arg<'e>>) -> GResult<Vec<Arg<'e>>> {
        args.into_iter()
            .map(|a| {
                let t = Self::arg_ty(&a)?;
                Ok(Arg::View(self.value(a)?, t))
            })
            .collect()
    }

    /// The view of the single array input, with its element type and length.
    fn array_input(&mut self, args: Vec<Arg<'_>>) -> GResult<(View, Type, Nat)> {
        let input = first(args)?;
        let (elem, n) = array_of(&Self::arg_ty(&input)?)?;
        Ok((self.value(input)?, elem, n))
    }

    fn pad_kind(&mut self, pargs: &[PrimArg]) -> GResult<PadKind> {
        let b = pargs.iter().find_map(|a| match a {
            PrimArg::Boundary(b, _) => Some(b),
            _ => None,
        });
        Ok(match b {
            Some(Boundary::Clamp) => PadKind::Clamp,
            Some(Boundary::Mirror) => PadKind::Mirror,
            Some(Boundary::Wrap) => PadKind::Wrap,
            Some(Boundary::Constant(v)) => PadKind::Constant(Box::new(self.value(Arg::Expr(v))?)),
            None => return Err(CodegenError::Internal("pad without a boundary".into())),
        })
    }

    /// Stores the result of `f $ args` in a new temporary and gives its view.
    fn materialize(&mut self, f: &Expr, args: Vec<Arg<'_>>, space: Option<Space>) -> GResult<View> {
        let ty = ty_of(f)?;
        let space = space.or(self.write_to).unwrap_or(Space::Global);
        let out = self.allocate_per_item(&ty, space, &per_item_dims(f))?;
        self.call_acc(f, args, &out)?;
        Ok(out)
    }

    /// A sequential fold into a private accumulator; gives the accumulator.
    fn reduce_value(
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
        self.line(format!("{t} {name} = {z};"));
        Ok(View::Value(name))
    }

    /// One step of a sequential fold into the private accumulator `acc` (from
    /// [`Gen::private_acc`]): `acc = op(acc, x)`.
    fn fold_step(&mut self, op: &Expr, acc: &View, ty: &Type, x: View, elem: &Type) -> GResult<()> {
        let args = vec![
            Arg::View(acc.clone(), ty.clone()),
            Arg::View(x, elem.clone()),
        ];
        let v = self.call_value(op, args)?;
        let code = self.read(&v, ty)?;
        let View::Value(name) = acc else {
            return Err(CodegenError::Internal(
                "a fold into a non-private accumulator".into(),
            ));
        };
        if code != *name {
            self.line(format!("{name} = {code};"));
        }
        Ok(())
    }

    /// `reduce_while_seq(f, p, z)`: a sequential fold into a private accumulator that stops
    /// at the first element for which `p` does not hold.
    fn reduce_while(&mut self, pargs: &[PrimArg], f: &Expr, args: Vec<Arg<'_>>) -> GResult<View> {
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
        self.open(format!(
            "for (lift_idx {i} = 0; {i} < {}; {i} += 1) {{",
            n.c()
        ));
        let x = input.at(idx);
        let keep = self.call_value(pred, vec![Arg::View(x.clone(), elem.clone())])?;
        let keep = self.read(&keep, &Type::Scalar(crate::types::ScalarType::Bool))?;
        self.line(format!("if (!({keep})) break;"));
        self.fold_step(op, &acc, &acc_ty, x, &elem)?;
        self.close();
        Ok(acc)
    }

    /// `then o filter_seq(pred) $ x` (`then` a function of each kept element, if any) written
    /// into the kernel's result `out`: one loop with a write cursor, whose final value is the
    /// result's length (written to the count parameter).
    fn filter_acc(
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
        self.line(format!("lift_idx {j} = 0;"));
        self.seq_loop(&n, Unroll::No, &mut |g, i| {
            let x = input.at(i);
            let x = g.share(x, &elem, "x")?;
            let keep = g.call_value(pred, vec![Arg::View(x.clone(), elem.clone())])?;
            let keep = g.read(&keep, &Type::Scalar(crate::types::ScalarType::Bool))?;
            g.open(format!("if ({keep}) {{"));
            let dst = out.at(at.clone());
            match then {
                Some(h) => g.call_acc(h, vec![Arg::View(x, elem.clone())], &dst)?,
                None => g.copy(&x, &dst, &elem)?,
            }
            g.line(format!("{j} += 1;"));
            g.close();
            Ok(())
        })?;
        self.line(format!("{count}[0] = (int){j};"));
        Ok(())
    }

    /// `scan_seq(f, z)`: a sequential fold in a private accumulator whose every step is
    /// written to `out`.
    fn scan_acc(
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
    fn map_seq_slide_acc(
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
    fn reduce_array_value(
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
    fn reduce_acc(
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
