//! Primitives: layout primitives as views (read side) and output views (write side), maps as
//! loops, reductions with a private accumulator, `iterate` with double buffering.
//!
//! Here the shared helpers and the views of primitives ([`Gen::prim_value`]); the reductions,
//! scans and filters in `reduce`, writing into an output view ([`Gen::prim_acc`]) in `write`.

use crate::arith::Nat;
use crate::codegen::emit::{array_of, ty_of, Arg, Gen};
use crate::codegen::loops::Unroll;
use crate::codegen::memory::Space;
use crate::codegen::view::{PadKind, ReorderFn, View};
use crate::codegen::{CodegenError, GResult};
use crate::ir::{Boundary, Expr, ExprKind, PrimArg, Reorder};
use crate::prim::Prim;
use crate::types::Type;

/// The most times one primitive application is materialised within itself
/// ([`Gen::materialising`]) before it is refused as a cycle.
const MAX_NESTED: usize = 64;

mod reduce;
mod write;

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
        let node: *const Expr = f;
        // A function bound once and applied within itself (`g $ g $ x`) nests legitimately,
        // as deep as the program is written; a cycle nests without end.
        if self.materialising.iter().filter(|&&n| n == node).count() > MAX_NESTED {
            return Err(CodegenError::Unsupported(format!(
                "`{}` here: neither a view nor a store (lower it first, as the driver does)",
                crate::print::expr(f)
            )));
        }
        let ty = ty_of(f)?;
        let space = space.or(self.write_to).unwrap_or(Space::Global);
        let out = self.allocate_per_item(&ty, space, &per_item_dims(f))?;
        self.materialising.push(node);
        let r = self.call_acc(f, args, &out);
        self.materialising.pop();
        r?;
        Ok(out)
    }
}
