//! Primitive application: static arguments, then the meaning from SPEC section 2. Low-level
//! primitives mean their high-level counterparts.

use super::eval::{arity, single, Env, Fun, Interp};
use super::layout::{self, Bound, Order};
use super::value::Value;
use super::InterpError;
use crate::ir::{Boundary, PrimArg, Reorder};
use crate::prim::{Inputs, Prim};

type Result<T> = std::result::Result<T, InterpError>;

/// The static arguments of one primitive application, evaluated, by kind.
struct Static<'p> {
    prim: Prim,
    nats: Vec<usize>,
    funs: Vec<Fun<'p>>,
    values: Vec<Value>,
    bound: Option<Bound>,
    order: Option<Order>,
}

impl<'p> Static<'p> {
    fn missing(&self, kind: &str, expected: usize, actual: usize) -> InterpError {
        arity(
            &format!("{} ({kind} arguments)", self.prim.name()),
            expected,
            actual,
        )
    }

    fn nat(&self, i: usize) -> Result<usize> {
        self.nats
            .get(i)
            .copied()
            .ok_or_else(|| self.missing("size", i + 1, self.nats.len()))
    }

    fn fun(&self, i: usize) -> Result<&Fun<'p>> {
        self.funs
            .get(i)
            .ok_or_else(|| self.missing("function", i + 1, self.funs.len()))
    }

    fn value(&self, i: usize) -> Result<&Value> {
        self.values
            .get(i)
            .ok_or_else(|| self.missing("value", i + 1, self.values.len()))
    }

    fn bound(&self) -> Result<&Bound> {
        self.bound
            .as_ref()
            .ok_or_else(|| self.missing("boundary", 1, 0))
    }

    fn order(&self) -> Result<&Order> {
        self.order
            .as_ref()
            .ok_or_else(|| self.missing("index function", 1, 0))
    }

    /// One `(size, step)` or `(before, after)` pair per dimension: `(s, t)` means the same
    /// pair in every dimension, `(p)` means `(p, p)` everywhere, else pairs outermost first.
    fn pairs(&self, dims: usize) -> Result<Vec<(usize, usize)>> {
        match self.nats.as_slice() {
            [s, t] => Ok(vec![(*s, *t); dims]),
            [p] => Ok(vec![(*p, *p); dims]),
            ns if ns.len() == 2 * dims => Ok(ns
                .chunks_exact(2)
                .filter_map(|c| Some((*c.first()?, *c.get(1)?)))
                .collect()),
            ns => Err(self.missing("size", 2 * dims, ns.len())),
        }
    }
}

impl<'p> Interp<'p> {
    fn statics(&self, prim: Prim, pargs: &'p [PrimArg], env: &Env<'p>) -> Result<Static<'p>> {
        let mut s = Static {
            prim,
            nats: Vec::new(),
            funs: Vec::new(),
            values: Vec::new(),
            bound: None,
            order: None,
        };
        for a in pargs {
            match a {
                PrimArg::Fun(e) => s.funs.push(self.fun(e, env)?),
                PrimArg::Nat(n, _) => s.nats.push(self.nat(n)?),
                PrimArg::Value(e) => s.values.push(self.data(e, env)?),
                PrimArg::Boundary(b, _) => {
                    s.bound = Some(match b {
                        Boundary::Clamp => Bound::Clamp,
                        Boundary::Mirror => Bound::Mirror,
                        Boundary::Wrap => Bound::Wrap,
                        Boundary::Constant(e) => Bound::Constant(self.data(e, env)?),
                    })
                }
                PrimArg::Reorder(r, _) => {
                    s.order = Some(match r {
                        Reorder::Reverse => Order::Reverse,
                        Reorder::Stride(n, _) => Order::Stride(self.nat(n)?),
                    })
                }
            }
        }
        Ok(s)
    }

    /// Applies primitive `p` with static arguments `pargs` (evaluated in `env`) to `inputs`.
    pub(super) fn prim(
        &self,
        p: Prim,
        pargs: &'p [PrimArg],
        env: &Env<'p>,
        mut inputs: Vec<Value>,
    ) -> Result<Value> {
        use Prim::*;
        let a = self.statics(p, pargs, env)?;
        let name = p.name();
        // Address-space wrappers and `vectorize` take whatever inputs their function takes.
        if !matches!(p, ToGlobal | ToLocal | ToPrivate | Vectorize) {
            match p.def().inputs {
                Inputs::Exactly(n) if inputs.len() != n => {
                    return Err(arity(name, n, inputs.len()))
                }
                Inputs::AtLeast(n) if inputs.len() < n => return Err(arity(name, n, inputs.len())),
                _ => {}
            }
        }
        let mut x = || single(std::mem::take(&mut inputs), name);
        match p {
            Map | MapGlb | MapWrg | MapLcl | MapSeq | MapSeqUnroll => {
                self.map_n(a.fun(0)?, x()?, 1)
            }
            Map2 => self.map_n(a.fun(0)?, x()?, 2),
            Map3 => self.map_n(a.fun(0)?, x()?, 3),
            Reduce | ReduceSeq | ReduceSeqUnroll => {
                let f = a.fun(0)?;
                let mut acc = a.value(0)?.clone();
                for v in layout::into_array(x()?, name)? {
                    acc = self.apply(f, vec![acc, v])?;
                }
                Ok(acc)
            }
            Filter => filter(std::mem::take(&mut inputs), name),
            Generate | Generate2 | Iota => {
                let ns = &a.nats;
                let index = |i: usize| Value::Scalar(super::Scalar::I32(i as i32));
                let at = |is: Vec<usize>| -> Result<Value> {
                    match p {
                        Iota => Ok(index(is[0])),
                        _ => self.apply(a.fun(0)?, is.into_iter().map(index).collect()),
                    }
                };
                match ns.as_slice() {
                    [n, m] => Ok(Value::Array(
                        (0..*n)
                            .map(|i| {
                                Ok(Value::Array(
                                    (0..*m).map(|j| at(vec![i, j])).collect::<Result<_>>()?,
                                ))
                            })
                            .collect::<Result<_>>()?,
                    )),
                    [n] => Ok(Value::Array(
                        (0..*n).map(|i| at(vec![i])).collect::<Result<_>>()?,
                    )),
                    _ => Err(InterpError::TypeMismatch(format!("{name}: expects sizes"))),
                }
            }
            MapSeqSlide => {
                let f = a.fun(0)?;
                let windows = layout::slide(&x()?, &a.pairs(1)?, name)?;
                let out = layout::into_array(windows, name)?
                    .into_iter()
                    .map(|w| self.apply(f, vec![w]))
                    .collect::<Result<_>>()?;
                Ok(Value::Array(out))
            }
            ScanSeq => {
                let f = a.fun(0)?;
                let mut acc = a.value(0)?.clone();
                let mut out = Vec::new();
                for v in layout::into_array(x()?, name)? {
                    acc = self.apply(f, vec![acc, v])?;
                    out.push(acc.clone());
                }
                Ok(Value::Array(out))
            }
            ReduceWhileSeq => {
                let (f, pred) = (a.fun(0)?, a.fun(1)?);
                let mut acc = a.value(0)?.clone();
                for v in layout::into_array(x()?, name)? {
                    if !self.holds(pred, &v, name)? {
                        break;
                    }
                    acc = self.apply(f, vec![acc, v])?;
                }
                Ok(acc)
            }
            FilterSeq => {
                let pred = a.fun(0)?;
                let mut out = Vec::new();
                for v in layout::into_array(x()?, name)? {
                    if self.holds(pred, &v, name)? {
                        out.push(v);
                    }
                }
                Ok(Value::Array(out))
            }
            Zip => layout::zip(inputs, 1, name),
            Zip2 => layout::zip(inputs, 2, name),
            Zip3 => layout::zip(inputs, 3, name),
            Unzip => layout::unzip(x()?),
            Split => layout::split(a.nat(0)?, x()?),
            Join => layout::join(x()?),
            Take => layout::take(a.nat(0)?, x()?),
            SplitCover => layout::split_cover(a.nat(0)?, x()?),
            JoinCover => layout::join_cover(a.nat(0)?, x()?),
            Head => layout::head(x()?),
            Tail => layout::tail(x()?),
            Untile2 => layout::untile2(x()?),
            Slide => layout::slide(&x()?, &a.pairs(1)?, name),
            Slide2 => layout::slide(&x()?, &a.pairs(2)?, name),
            Slide3 => layout::slide(&x()?, &a.pairs(3)?, name),
            Pad => layout::pad(&x()?, &a.pairs(1)?, a.bound()?, name),
            Pad2 => layout::pad(&x()?, &a.pairs(2)?, a.bound()?, name),
            Pad3 => layout::pad(&x()?, &a.pairs(3)?, a.bound()?, name),
            Transpose | TransposeW => layout::transpose(&x()?),
            Gather => layout::reorder(x()?, a.order()?, false),
            Scatter => layout::reorder(x()?, a.order()?, true),
            Get => layout::field(x()?, a.nat(0)?, name),
            At => layout::at(x()?, a.nat(0)?, name),
            Id => x(),
            Iterate => {
                let f = a.fun(0)?;
                let mut v = x()?;
                for _ in 0..a.nat(0)? {
                    v = self.apply(f, vec![v])?;
                }
                Ok(v)
            }
            ToGlobal | ToLocal | ToPrivate => self.apply(a.fun(0)?, inputs),
            AsVector => layout::as_vector(a.nat(0)?, x()?),
            AsScalar => layout::as_scalar(x()?),
            Vectorize => self.vectorize(a.nat(0)?, a.fun(0)?, inputs),
        }
    }

    /// Whether predicate `pred` holds for `v` (an error if it gives no `bool`).
    fn holds(&self, pred: &Fun<'p>, v: &Value, name: &str) -> Result<bool> {
        match self.apply(pred, vec![v.clone()])? {
            Value::Scalar(crate::interp::Scalar::Bool(b)) => Ok(b),
            other => Err(InterpError::TypeMismatch(format!(
                "{name}: the predicate gave {}",
                other.describe()
            ))),
        }
    }

    /// `map` over `depth` nested levels.
    fn map_n(&self, f: &Fun<'p>, x: Value, depth: usize) -> Result<Value> {
        let xs = layout::into_array(x, "map")?;
        let one = |v: Value| {
            if depth > 1 {
                self.map_n(f, v, depth - 1)
            } else {
                self.apply(f, vec![v])
            }
        };
        Ok(Value::Array(
            xs.into_iter().map(one).collect::<Result<_>>()?,
        ))
    }

    /// `vectorize(w, f)`: `f` applied lane by lane to vectors of width `w` (scalar arguments
    /// are broadcast, a tuple of vectors gives the tuple of lanes, spread over the arguments
    /// of a function of that many); every lane's result must be a scalar.
    fn vectorize(&self, w: usize, f: &Fun<'p>, inputs: Vec<Value>) -> Result<Value> {
        fn lane_of(v: &Value, i: usize, w: usize) -> Result<Value> {
            match v {
                Value::Vector(lanes) if lanes.len() == w => {
                    lanes.get(i).copied().map(Value::Scalar).ok_or_else(|| {
                        InterpError::IndexOutOfRange {
                            what: "vectorize".into(),
                            index: i as i64,
                            len: lanes.len(),
                        }
                    })
                }
                Value::Scalar(s) => Ok(Value::Scalar(*s)),
                Value::Tuple(vs) => Ok(Value::Tuple(
                    vs.iter().map(|v| lane_of(v, i, w)).collect::<Result<_>>()?,
                )),
                v => Err(InterpError::TypeMismatch(format!(
                    "vectorize({w}): expects vectors of width {w}, found {}",
                    v.describe()
                ))),
            }
        }
        let lane = |i: usize| -> Result<_> {
            // A tuple of lanes is spread over a function of as many arguments by `apply`.
            let args: Vec<Value> = inputs
                .iter()
                .map(|v| lane_of(v, i, w))
                .collect::<Result<_>>()?;
            match self.apply(f, args)? {
                Value::Scalar(s) => Ok(s),
                v => Err(InterpError::TypeMismatch(format!(
                    "vectorize: the function must give a scalar, gave {}",
                    v.describe()
                ))),
            }
        };
        Ok(Value::Vector((0..w).map(lane).collect::<Result<_>>()?))
    }
}

/// `filter(x, ids)`: `x[ids[i]]`, an error naming the first index out of range.
fn filter(inputs: Vec<Value>, name: &str) -> Result<Value> {
    let [x, ids]: [Value; 2] = inputs
        .try_into()
        .map_err(|v: Vec<Value>| arity(name, 2, v.len()))?;
    let x = layout::into_array(x, name)?;
    layout::into_array(ids, name)?
        .into_iter()
        .enumerate()
        .map(|(i, v)| match v {
            Value::Scalar(super::Scalar::I32(k))
                if usize::try_from(k).is_ok_and(|k| k < x.len()) =>
            {
                Ok(x[k as usize].clone())
            }
            v => Err(InterpError::Precondition {
                prim: name.into(),
                reason: format!(
                    "index {i} is {}, not an index into an array of {}",
                    v.describe(),
                    x.len()
                ),
            }),
        })
        .collect::<Result<Vec<_>>>()
        .map(Value::Array)
}
