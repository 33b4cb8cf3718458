//! The scalar subset: literals, operators, math builtins, operator sections, and user
//! functions as OpenCL C functions (prefixed `uf_` to stay clear of OpenCL builtins).

use super::cl::ast::{FunBody as ClBody, Function};
use super::cl::{CExpr, Param, Stmt};
use super::emit::{c_name, ty_of, Arg, Gen};
use super::launch::Launch;
use super::view::View;
use super::{ctypes::CTypes, CodegenError, GResult};
use crate::arith::Facts;
use crate::ir::{BinOp, Expr, ExprKind, FunBody, LitValue, Pat, Program, Section, UnOp};
use crate::types::{ScalarType, Type};

/// The C spelling of a literal of type `s`.
pub(crate) fn literal(v: &LitValue, s: ScalarType) -> String {
    let float = |x: f64, suffix: &str| {
        if x.is_nan() {
            "NAN".to_string()
        } else if x.is_infinite() {
            if x > 0.0 { "INFINITY" } else { "(-INFINITY)" }.to_string()
        } else {
            let t = format!("{x:?}");
            let t = if t.contains(['.', 'e', 'E']) {
                t
            } else {
                format!("{t}.0")
            };
            format!("{t}{suffix}")
        }
    };
    match (v, s) {
        (LitValue::Bool(b), _) => b.to_string(),
        (LitValue::Float(x), ScalarType::F64) => float(*x, ""),
        (LitValue::Float(x), _) => float(*x, "f"),
        (LitValue::Int(i), ScalarType::F64) => float(*i as f64, ""),
        (LitValue::Int(i), ScalarType::F32 | ScalarType::F16) => float(*i as f64, "f"),
        (LitValue::Int(i), ScalarType::U32) => format!("{i}u"),
        (LitValue::Int(i), ScalarType::I64) => format!("{i}L"),
        (LitValue::Int(i), ScalarType::U64) => format!("{i}UL"),
        (LitValue::Int(i), _) => i.to_string(),
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

/// `min`/`max` for the operand type.
fn min_max(name: &str, t: &Type, a: &str, b: &str) -> String {
    if is_float(t) {
        format!("f{name}({a}, {b})")
    } else {
        format!("{name}({a}, {b})")
    }
}

impl<'a> Gen<'a> {
    /// The C expression of a data argument of type `ty`.
    fn operand(&mut self, e: &Expr) -> GResult<(String, Type)> {
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
                Type::Vector(s, _) => format!("(({})({}))", self.ct.compute(&ty)?, literal(v, s)),
                t => return Err(CodegenError::Internal(format!("literal of type {t}"))),
            },
            ExprKind::Binary(op, l, r) => {
                let (a, lt) = self.operand(l)?;
                let (b, _) = self.operand(r)?;
                if *op == BinOp::Rem && is_float(&lt) {
                    format!("fmod({a}, {b})")
                } else {
                    format!("({a} {} {b})", op.symbol())
                }
            }
            ExprKind::Unary(op, x) => {
                let (a, _) = self.operand(x)?;
                match op {
                    UnOp::Neg => format!("(-{a})"),
                    UnOp::Not => format!("(!{a})"),
                }
            }
            ExprKind::Cast(x, to) => {
                let (a, from) = self.operand(x)?;
                match (self.vector_width, from.as_scalar()) {
                    // Inside `vectorize(w, ..)` the operand is a vector of `w` lanes (or a
                    // scalar, broadcast first): C's cast cannot convert vectors, OpenCL's
                    // `convert_T<w>` does, rounding toward zero as the scalar cast does.
                    (Some(w), Some(s)) if *to != ScalarType::Bool && s != ScalarType::Bool => {
                        let src = self.ct.compute(&Type::Vector(s, w))?;
                        let dst = self.ct.compute(&Type::Vector(*to, w))?;
                        format!("convert_{dst}(({src})({a}))")
                    }
                    (Some(_), _) => {
                        return Err(CodegenError::Unsupported(format!(
                            "cast of {from} to {to} inside `vectorize`"
                        )))
                    }
                    _ => format!("(({}){a})", super::ctypes::scalar(*to)),
                }
            }
            ExprKind::If(c, a, b) => {
                let (cc, _) = self.operand(c)?;
                let (la, va) = self.capture(|g| g.operand(a))?;
                let (lb, vb) = self.capture(|g| g.operand(b))?;
                if let (Some(w), Some(s)) = (self.vector_width, ty.as_scalar()) {
                    // Lane by lane: both sides computed, then `select` (a C `if` needs a
                    // scalar condition); the condition is widened to a mask of `w` lanes
                    // whether it is a vector comparison (-1/0) or a scalar (1/0).
                    self.extend(la);
                    self.extend(lb);
                    let t = self.ct.compute(&Type::Vector(s, w))?;
                    let mask = if matches!(s, ScalarType::F64 | ScalarType::I64 | ScalarType::U64) {
                        format!("long{w}")
                    } else {
                        format!("int{w}")
                    };
                    let c = self.fresh("c");
                    self.emit(Stmt::Decl {
                        ty: mask.clone(),
                        name: c.clone(),
                        init: Some(CExpr::code(cc)),
                        konst: false,
                    });
                    format!("select(({t})({}), ({t})({}), {c} != ({mask})0)", vb.0, va.0)
                } else if la.is_empty() && lb.is_empty() {
                    format!("({cc} ? {} : {})", va.0, vb.0)
                } else {
                    let r = self.fresh("r");
                    let t = self.ct.compute(&ty)?;
                    self.emit(Stmt::Decl {
                        ty: t,
                        name: r.clone(),
                        init: None,
                        konst: false,
                    });
                    let branch = |mut stmts: Vec<Stmt>, v: String| {
                        stmts.push(Stmt::Assign {
                            place: CExpr::var(r.clone()),
                            value: CExpr::code(v),
                        });
                        stmts
                    };
                    self.emit(Stmt::If {
                        cond: CExpr::code(cc),
                        then: branch(la, va.0),
                        otherwise: Some(branch(lb, vb.0)),
                    });
                    r
                }
            }
            _ => return Err(CodegenError::Internal("not a scalar expression".into())),
        };
        Ok(View::Value(code))
    }

    /// A scalar user function applied lane by lane inside `vectorize(w, ..)`: each argument
    /// in a vector of `w` lanes (a scalar is broadcast), one call per lane, the results
    /// gathered into a vector.
    fn user_call_by_lane(
        &mut self,
        name: &str,
        uf: &crate::ir::UserFun,
        ops: &[(String, Type)],
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
                init: Some(CExpr::code(code.clone())),
                konst: false,
            });
            temps.push(a);
        }
        let ret = uf.ret.as_scalar().ok_or_else(|| {
            CodegenError::Unsupported(format!(
                "user function `{name}` with a non-scalar result applied to vectors"
            ))
        })?;
        let lanes: Vec<String> = (0..w)
            .map(|l| {
                let args: Vec<String> = temps.iter().map(|a| format!("{a}.s{l:x}")).collect();
                format!("{}({})", crate::cnames::fun_c_name(name), args.join(", "))
            })
            .collect();
        let t = self.ct.compute(&Type::Vector(ret, w))?;
        Ok(View::Value(format!("(({t})({}))", lanes.join(", "))))
    }

    /// The C expressions and types of evaluated arguments.
    fn operands(&mut self, args: Vec<Arg<'_>>) -> GResult<Vec<(String, Type)>> {
        args.into_iter()
            .map(|a| {
                let t = Self::arg_ty(&a)?;
                let v = self.value(a)?;
                Ok((self.read(&v, &t)?, t))
            })
            .collect()
    }

    /// A call of a user function or math builtin by name.
    pub(crate) fn call_named(
        &mut self,
        name: &str,
        f: &Expr,
        mut args: Vec<Arg<'_>>,
    ) -> GResult<View> {
        if name == crate::ir::DYN_INDEX && args.len() == 2 {
            // `x[e]`: the index clamped into a fresh variable whose range is the array's.
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
            self.emit(Stmt::Decl {
                ty: "lift_idx".into(),
                name: d.clone(),
                init: Some(CExpr::code(format!(
                    "clamp((lift_idx)({code}), (lift_idx)0, (lift_idx)({}) - 1)",
                    n.c()
                ))),
                konst: false,
            });
            let x = self.value(x)?;
            return Ok(x.at(crate::arith::Nat::index_var(
                &d,
                crate::arith::Nat::cst(0),
                n,
            )));
        }
        let ops = self.operands(args)?;
        let codes: Vec<&str> = ops.iter().map(|(c, _)| c.as_str()).collect();
        if let Some(uf) = self.prog.fun(name) {
            if let (Some(w), true) = (
                self.vector_width,
                uf.params.iter().all(|p| p.ty.as_scalar().is_some()),
            ) {
                return self.user_call_by_lane(name, uf, &ops, w);
            }
            let vectorised = uf.params.iter().zip(&ops).any(|(p, (_, t))| p.ty != *t);
            if vectorised {
                return Err(CodegenError::Unsupported(format!(
                    "user function `{name}` applied to vectors"
                )));
            }
            return Ok(View::Value(format!(
                "{}({})",
                crate::cnames::fun_c_name(name),
                codes.join(", ")
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
        let owned: Vec<String> = ops
            .iter()
            .map(|(c, ct)| match (&splat, ct) {
                (Some(v), Type::Scalar(_)) => format!("(({v})({c}))"),
                _ => c.clone(),
            })
            .collect();
        let codes: Vec<&str> = owned.iter().map(String::as_str).collect();
        let code = match (name, codes.as_slice()) {
            ("abs", [a]) if is_float(&t) => format!("fabs({a})"),
            ("abs", [a]) => format!("(({})abs({a}))", self.ct.compute(&t)?),
            ("min" | "max", [a, b]) => min_max(name, &t, a, b),
            (
                "sqrt" | "exp" | "log" | "sin" | "cos" | "tan" | "floor" | "ceil" | "pow" | "fma",
                _,
            ) => format!("{name}({})", codes.join(", ")),
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
        let [(a, t), (b, _)] = ops.as_slice() else {
            return Err(CodegenError::Internal(
                "a section needs two arguments".into(),
            ));
        };
        Ok(View::Value(match s {
            Section::Add => format!("({a} + {b})"),
            Section::Mul => format!("({a} * {b})"),
            Section::Min => min_max("min", t, a, b),
            Section::Max => min_max("max", t, a, b),
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
                        View::Value(c_name(&p.name)),
                    );
                }
                let r = g.value(Arg::Expr(e)).and_then(|v| g.read(&v, &f.ret));
                std::mem::swap(&mut g.ct, ct);
                g.emit(Stmt::Return(CExpr::code(r?)));
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
