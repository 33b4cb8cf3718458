//! The scalar subset: literals, operators, math builtins, operator sections, and user
//! functions as OpenCL C functions (prefixed `uf_` to stay clear of OpenCL builtins).

use super::cl::ast::{FunBody as ClBody, Function};
use super::cl::{BinOp as ClOp, CExpr, CScalar, CType, Param, Stmt};
use super::emit::{c_name, ty_of, Arg, Gen};
use super::launch::Launch;
use super::view::View;
use super::{ctypes::CTypes, CodegenError, GResult};
use crate::arith::{Facts, Nat};
use crate::ir::{BinOp, Expr, ExprKind, FunBody, LitValue, Pat, Program, Section, UnOp};
use crate::types::{ScalarType, Type};

/// The C literal of `v` of type `s`, as printed.
pub(crate) fn literal(v: &LitValue, s: ScalarType) -> CExpr {
    let float = |x: f64, suffix: &str| {
        if x.is_nan() {
            CExpr::lit("NAN")
        } else if x.is_infinite() {
            let inf = CExpr::lit("INFINITY");
            if x > 0.0 {
                inf
            } else {
                inf.neg()
            }
        } else {
            let t = format!("{x:?}");
            let t = if t.contains(['.', 'e', 'E']) {
                t
            } else {
                format!("{t}.0")
            };
            CExpr::lit(format!("{t}{suffix}"))
        }
    };
    match (v, s) {
        (LitValue::Bool(b), _) => CExpr::lit(b.to_string()),
        (LitValue::Float(x), ScalarType::F64) => float(*x, ""),
        (LitValue::Float(x), _) => float(*x, "f"),
        (LitValue::Int(i), ScalarType::F64) => float(*i as f64, ""),
        (LitValue::Int(i), ScalarType::F32 | ScalarType::F16) => float(*i as f64, "f"),
        (LitValue::Int(i), ScalarType::U32) => CExpr::lit(format!("{i}u")),
        (LitValue::Int(i), ScalarType::I64) => CExpr::lit(format!("{i}L")),
        (LitValue::Int(i), ScalarType::U64) => CExpr::lit(format!("{i}UL")),
        (LitValue::Int(i), _) => CExpr::lit(i.to_string()),
    }
}

fn lane(t: &Type) -> Option<ScalarType> {
    match t {
        Type::Scalar(s) | Type::Vector(s, _) => Some(*s),
        _ => None,
    }
}

fn is_float(t: &Type) -> bool {
    lane(t).is_some_and(|s| s.is_float())
}

/// `min`/`max` of `args` for the operand type.
fn min_max(name: &str, t: &Type, args: Vec<CExpr>) -> CExpr {
    let f = if is_float(t) {
        format!("f{name}")
    } else {
        name.to_string()
    };
    CExpr::Call(f, args)
}

impl<'a> Gen<'a> {
    /// The C expression of a data argument of type `ty`.
    fn operand(&mut self, e: &Expr) -> GResult<(CExpr, Type)> {
        let t = ty_of(e)?;
        let v = self.value(Arg::Expr(e))?;
        Ok((self.read(&v, &t)?, t))
    }

    /// Literals, operators, `if` and casts, as private values.
    pub(crate) fn scalar_expr(&mut self, e: &Expr) -> GResult<View> {
        let ty = ty_of(e)?;
        let code = match &e.kind {
            ExprKind::Lit(v, _) => match ty {
                Type::Scalar(s) => literal(v, s),
                Type::Vector(s, _) => literal(v, s).splat(self.ct.compute(&ty)?),
                t => return Err(CodegenError::Internal(format!("literal of type {t}"))),
            },
            ExprKind::Binary(op, l, r) => {
                let (a, lt) = self.operand(l)?;
                let (b, _) = self.operand(r)?;
                if *op == BinOp::Rem && is_float(&lt) {
                    CExpr::call("fmod", vec![a, b])
                } else {
                    a.bin((*op).into(), b)
                }
            }
            ExprKind::Unary(op, x) => {
                let (a, _) = self.operand(x)?;
                match op {
                    UnOp::Neg => a.neg(),
                    UnOp::Not => a.not(),
                }
            }
            ExprKind::Cast(x, to) => self.cast(x, *to)?,
            ExprKind::If(c, a, b) => self.choice(&ty, c, a, b)?,
            _ => return Err(CodegenError::Internal("not a scalar expression".into())),
        };
        Ok(View::Value(code))
    }

    /// `x as to`.
    fn cast(&mut self, x: &Expr, to: ScalarType) -> GResult<CExpr> {
        let (a, from) = self.operand(x)?;
        Ok(match (self.vector_width, from.as_scalar()) {
            // Inside `vectorize(w, ..)` the operand is a vector of `w` lanes (or a scalar,
            // broadcast first): C's cast cannot convert vectors, OpenCL's `convert_T<w>`
            // does, rounding toward zero as the scalar cast does.
            (Some(w), Some(s)) if to != ScalarType::Bool && s != ScalarType::Bool => {
                let src = self.ct.compute(&Type::Vector(s, w))?;
                let dst = self.ct.compute(&Type::Vector(to, w))?;
                CExpr::Convert(dst, Box::new(a.splat(src)))
            }
            (Some(_), _) => {
                return Err(CodegenError::Unsupported(format!(
                    "cast of {from} to {to} inside `vectorize`"
                )))
            }
            _ => a.cast(super::ctypes::scalar(to)),
        })
    }

    /// `if c { a } else { b }` of type `ty`: a conditional expression, or a variable
    /// assigned in an `if` statement when a side emits statements, or lane by lane inside
    /// `vectorize`.
    fn choice(&mut self, ty: &Type, c: &Expr, a: &Expr, b: &Expr) -> GResult<CExpr> {
        let (cc, _) = self.operand(c)?;
        let (la, (va, _)) = self.capture(|g| g.operand(a))?;
        let (lb, (vb, _)) = self.capture(|g| g.operand(b))?;
        if let (Some(w), Some(s)) = (self.vector_width, ty.as_scalar()) {
            // Lane by lane: both sides computed, then `select` (a C `if` needs a scalar
            // condition); the condition is widened to a mask of `w` lanes whether it is a
            // vector comparison (-1/0) or a scalar (1/0).
            self.extend(la);
            self.extend(lb);
            let t = self.ct.compute(&Type::Vector(s, w))?;
            let mask = if matches!(s, ScalarType::F64 | ScalarType::I64 | ScalarType::U64) {
                CType::Vector(CScalar::Long, w)
            } else {
                CType::Vector(CScalar::Int, w)
            };
            let c = self.fresh("c");
            self.emit(Stmt::Decl {
                ty: mask.clone(),
                name: c.clone(),
                init: Some(cc),
                konst: false,
            });
            let nonzero = CExpr::var(c).bin(ClOp::Ne, CExpr::Int(0).cast(mask));
            Ok(CExpr::call(
                "select",
                vec![vb.splat(t.clone()), va.splat(t), nonzero],
            ))
        } else if la.is_empty() && lb.is_empty() {
            Ok(cc.cond(va, vb))
        } else {
            let r = self.fresh("r");
            let t = self.ct.compute(ty)?;
            self.emit(Stmt::Decl {
                ty: t,
                name: r.clone(),
                init: None,
                konst: false,
            });
            let branch = |mut stmts: Vec<Stmt>, v: CExpr| {
                stmts.push(Stmt::Assign {
                    place: CExpr::var(r.clone()),
                    value: v,
                });
                stmts
            };
            self.emit(Stmt::If {
                cond: cc,
                then: branch(la, va),
                otherwise: Some(branch(lb, vb)),
            });
            Ok(CExpr::Var(r))
        }
    }

    /// A scalar user function applied lane by lane inside `vectorize(w, ..)`: each argument
    /// in a vector of `w` lanes (a scalar is broadcast), one call per lane, the results
    /// gathered into a vector.
    fn user_call_by_lane(
        &mut self,
        name: &str,
        uf: &crate::ir::UserFun,
        ops: Vec<(CExpr, Type)>,
        w: u32,
    ) -> GResult<View> {
        let mut temps = Vec::new();
        for (p, (code, _)) in uf.params.iter().zip(ops) {
            let s =
                p.ty.as_scalar()
                    .ok_or_else(|| CodegenError::Internal(name.into()))?;
            let t = self.ct.compute(&Type::Vector(s, w))?;
            let a = self.fresh("a");
            self.emit(Stmt::Decl {
                ty: t,
                name: a.clone(),
                init: Some(code),
                konst: false,
            });
            temps.push(a);
        }
        let ret = uf.ret.as_scalar().ok_or_else(|| {
            CodegenError::Unsupported(format!(
                "user function `{name}` with a non-scalar result applied to vectors"
            ))
        })?;
        let lanes: Vec<CExpr> = (0..w)
            .map(|l| {
                let args = temps
                    .iter()
                    .map(|a| CExpr::var(a.clone()).member(format!("s{l:x}")))
                    .collect();
                CExpr::call(&crate::cnames::fun_c_name(name), args)
            })
            .collect();
        let t = self.ct.compute(&Type::Vector(ret, w))?;
        Ok(View::Value(CExpr::Vector(t, lanes)))
    }

    /// The C expressions and types of evaluated arguments.
    fn operands(&mut self, args: Vec<Arg<'_>>) -> GResult<Vec<(CExpr, Type)>> {
        args.into_iter()
            .map(|a| {
                let t = Self::arg_ty(&a)?;
                let v = self.value(a)?;
                Ok((self.read(&v, &t)?, t))
            })
            .collect()
    }

    /// `x[i]`: the index clamped into a fresh variable whose range is the array's.
    fn dyn_index(&mut self, mut args: Vec<Arg<'_>>) -> GResult<View> {
        let i = args
            .pop()
            .ok_or_else(|| CodegenError::Internal("x[i]".into()))?;
        let x = args
            .pop()
            .ok_or_else(|| CodegenError::Internal("x[i]".into()))?;
        let (_, n) = super::emit::array_of(&Self::arg_ty(&x)?)?;
        let ti = Self::arg_ty(&i)?;
        let vi = self.value(i)?;
        let code = self.read(&vi, &ti)?;
        let d = self.fresh("d");
        let idx = |e: CExpr| e.cast(CScalar::Idx);
        let last = idx(CExpr::Nat(n.clone())).bin(ClOp::Sub, CExpr::Int(1));
        self.emit(Stmt::Decl {
            ty: CScalar::Idx.into(),
            name: d.clone(),
            init: Some(CExpr::call(
                "clamp",
                vec![idx(code), idx(CExpr::Int(0)), last],
            )),
            konst: false,
        });
        let x = self.value(x)?;
        Ok(x.at(Nat::index_var(&d, Nat::cst(0), n)))
    }

    /// A call of a user function or math builtin by name.
    pub(crate) fn call_named(&mut self, name: &str, f: &Expr, args: Vec<Arg<'_>>) -> GResult<View> {
        if name == crate::ir::DYN_INDEX && args.len() == 2 {
            return self.dyn_index(args);
        }
        let ops = self.operands(args)?;
        if let Some(uf) = self.prog.fun(name) {
            if let (Some(w), true) = (
                self.vector_width,
                uf.params.iter().all(|p| p.ty.as_scalar().is_some()),
            ) {
                return self.user_call_by_lane(name, uf, ops, w);
            }
            let vectorised = uf.params.iter().zip(&ops).any(|(p, (_, t))| p.ty != *t);
            if vectorised {
                return Err(CodegenError::Unsupported(format!(
                    "user function `{name}` applied to vectors"
                )));
            }
            let args = ops.into_iter().map(|(c, _)| c).collect();
            return Ok(View::Value(CExpr::call(
                &crate::cnames::fun_c_name(name),
                args,
            )));
        }
        // With a vector operand the call is lane-wise: scalar operands are broadcast.
        let t = ops
            .iter()
            .find(|(_, t)| matches!(t, Type::Vector(..)))
            .or(ops.first())
            .map(|(_, t)| t.clone())
            .ok_or_else(|| CodegenError::Internal(format!("{name}()")))?;
        let splat = match &t {
            Type::Vector(..) => Some(self.ct.compute(&t)?),
            _ => None,
        };
        let args: Vec<CExpr> = ops
            .into_iter()
            .map(|(c, ct)| match (&splat, ct) {
                (Some(v), Type::Scalar(_)) => c.splat(v.clone()),
                _ => c,
            })
            .collect();
        let code = match (name, args.len()) {
            ("abs", 1) if is_float(&t) => CExpr::Call("fabs".into(), args),
            ("abs", 1) => CExpr::Call("abs".into(), args).cast(self.ct.compute(&t)?),
            ("min" | "max", 2) => min_max(name, &t, args),
            (
                "sqrt" | "exp" | "log" | "sin" | "cos" | "tan" | "floor" | "ceil" | "pow" | "fma",
                _,
            ) => CExpr::Call(name.into(), args),
            _ => {
                return Err(CodegenError::Unsupported(format!(
                    "call of `{name}` ({})",
                    crate::print::expr(f)
                )))
            }
        };
        Ok(View::Value(code))
    }

    /// An operator section applied to two arguments.
    pub(crate) fn section(&mut self, s: Section, args: Vec<Arg<'_>>) -> GResult<View> {
        let ops = self.operands(args)?;
        let Ok::<[(CExpr, Type); 2], _>([(a, t), (b, _)]) = ops.try_into() else {
            return Err(CodegenError::Internal(
                "a section needs two arguments".into(),
            ));
        };
        Ok(View::Value(match s {
            Section::Add => a.bin(ClOp::Add, b),
            Section::Mul => a.bin(ClOp::Mul, b),
            Section::Min => min_max("min", &t, vec![a, b]),
            Section::Max => min_max("max", &t, vec![a, b]),
        }))
    }
}

/// Every user function of the program as an OpenCL C function.
pub(crate) fn user_functions(prog: &Program, ct: &mut CTypes) -> GResult<Vec<Function>> {
    let mut out = Vec::new();
    for f in &prog.funs {
        let ret = ct.compute(&f.ret)?;
        // An OpenCL C body reads its parameters by the names the user gave them.
        let verbatim = matches!(f.body, FunBody::OpenCl(_));
        let params = f
            .params
            .iter()
            .map(|p| {
                let name = if verbatim {
                    p.name.clone()
                } else {
                    c_name(&p.name)
                };
                Ok(Param::value(ct.compute(&p.ty)?, name))
            })
            .collect::<GResult<Vec<_>>>()?;
        let body = match &f.body {
            FunBody::OpenCl(text) => ClBody::Verbatim(text.clone()),
            FunBody::Expr(e) => {
                let mut g = Gen::new(prog, Facts::new(), Launch::default());
                std::mem::swap(&mut g.ct, ct);
                for p in &f.params {
                    g.bind(
                        &Pat::Name(p.name.clone(), p.span),
                        View::Value(CExpr::Var(c_name(&p.name))),
                    );
                }
                let r = g.value(Arg::Expr(e)).and_then(|v| g.read(&v, &f.ret));
                std::mem::swap(&mut g.ct, ct);
                g.emit(Stmt::Return(r?));
                ClBody::Stmts(g.take_body())
            }
        };
        out.push(Function {
            ret,
            name: crate::cnames::fun_c_name(&f.name),
            params,
            body,
        });
    }
    Ok(out)
}
