//! The OpenCL C syntax tree ([`ast`]), the passes over it that need no knowledge of the
//! program (empty-loop removal, merging of stage kernels into one unit, local indices
//! lowered to flat ones in [`locals`]; barrier placement is [`super::barriers`], bank padding
//! [`super::banks`]), and printing ([`print`]), the last step.

pub(crate) mod ast;
pub(crate) mod locals;
pub(crate) mod print;
pub(crate) mod strides;

pub(crate) use ast::{
    BinOp, CExpr, CScalar, CType, Fence, Index, LocalAt, Mark, Param, Stmt, Touch, Unit,
};

/// Whether `body` has no effect: nothing but scopes and loops around nothing, and marks of
/// the memory-access graph (an accumulator copied onto itself leaves such loops).
pub(crate) fn is_empty(body: &[Stmt]) -> bool {
    body.iter().all(|s| match s {
        Stmt::Mark(_) => true,
        Stmt::Block(b) | Stmt::For { body: b, .. } => is_empty(b),
        _ => false,
    })
}

/// One unit holding the kernels of `units` in order, with their struct types and user
/// functions each declared once.
pub(crate) fn merge(units: Vec<Unit>) -> Unit {
    let mut out = Unit::default();
    for u in units {
        out.fp64 |= u.fp64;
        out.trace_helper |= u.trace_helper;
        for s in u.structs {
            if !out.structs.contains(&s) {
                out.structs.push(s);
            }
        }
        for f in u.functions {
            if !out.functions.iter().any(|g| g.name == f.name) {
                out.functions.push(f);
            }
        }
        out.kernels.extend(u.kernels);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::ast::{FunBody, Function, KernelDef, Struct};
    use super::*;
    use crate::arith::Nat;
    use crate::codegen::memory::Space;

    fn unit(kernel: &str, fp64: bool) -> Unit {
        Unit {
            fp64,
            structs: vec![Struct {
                fields: [CScalar::Float.into(), CScalar::Int.into()].into(),
            }],
            functions: vec![Function {
                ret: CScalar::Float.into(),
                name: "uf_f".into(),
                params: vec![Param::value(CScalar::Float, "x")],
                body: FunBody::Stmts(vec![Stmt::Return(CExpr::var("x"))]),
            }],
            trace_helper: false,
            kernels: vec![KernelDef {
                name: kernel.into(),
                local_size: None,
                params: vec![Param::input(CScalar::Float, "x")],
                sizes: vec!["N".into()],
                locals: Vec::new(),
                align_locals: false,
                body: vec![Stmt::Barrier(Fence {
                    local: true,
                    global: false,
                })],
            }],
        }
    }

    #[test]
    fn merged_units_declare_types_and_functions_once() {
        let m = merge(vec![unit("K_0", false), unit("K_1", true)]);
        assert!(m.fp64);
        assert_eq!(
            (m.structs.len(), m.functions.len(), m.kernels.len()),
            (1, 1, 2)
        );
        let src = print::unit(&m);
        assert_eq!(
            src.matches("typedef struct { float _0; int _1; } Tuple_float_int;")
                .count(),
            1
        );
        assert_eq!(src.matches("float uf_f(float x) {").count(), 1);
        assert!(src.find("kernel void K_0").unwrap() < src.find("kernel void K_1").unwrap());
    }

    #[test]
    fn loops_around_nothing_are_empty() {
        let lp = |body| Stmt::For {
            var: "i".into(),
            from: CExpr::Int(0),
            bound: CExpr::Int(4),
            step: CExpr::Int(1),
            unroll: false,
            body,
        };
        assert!(is_empty(&[lp(vec![
            Stmt::Mark(Mark::Slot(0)),
            Stmt::Block(vec![])
        ])]));
        assert!(!is_empty(&[lp(vec![Stmt::Break])]));
    }

    #[test]
    fn statements_print_as_c() {
        let s = Stmt::If {
            cond: CExpr::call("get_local_id", vec![CExpr::Int(0)]).bin(BinOp::Lt, CExpr::Int(8)),
            then: vec![Stmt::When {
                cond: CExpr::Not(Box::new(CExpr::var("k"))),
                stmt: Box::new(Stmt::Break),
            }],
            otherwise: Some(vec![Stmt::Assign {
                place: CExpr::var("c").index(CExpr::Int(0)),
                value: CExpr::var("j").cast(CScalar::Int),
            }]),
        };
        let mut out = String::new();
        print::stmts(&[s], 0, &mut out);
        assert_eq!(
            out,
            "if (get_local_id(0) < 8) {\n  if (!(k)) break;\n}\nelse {\n  c[0] = (int)j;\n}\n"
        );
    }

    /// The scalar subset's expressions print with the parentheses C needs and no others.
    #[test]
    fn expressions_parenthesise_by_precedence() {
        let v = CExpr::var;
        let i = Nat::index_var("i", Nat::cst(0), Nat::cst(8));
        let i1 = || CExpr::Nat(&i + 1);
        let cases = [
            // Numbers do not reassociate; index arithmetic does.
            (
                v("a").bin(BinOp::Add, v("b").bin(BinOp::Add, v("c"))),
                "a + (b + c)",
            ),
            (v("a").bin(BinOp::Add, i1()), "a + (i + 1)"),
            (CExpr::Int(2).bin(BinOp::Add, i1()), "2 + i + 1"),
            (
                CExpr::Offset(Box::new(v("x")), Index::Flat(&i + 1)),
                "x + i + 1",
            ),
            (v("a").bin(BinOp::Mul, i1()), "a * (i + 1)"),
            (
                v("a").bin(BinOp::Sub, v("b").bin(BinOp::Sub, v("c"))),
                "a - (b - c)",
            ),
            (
                v("a").bin(BinOp::Sub, v("b")).bin(BinOp::Sub, v("c")),
                "a - b - c",
            ),
            (v("a").bin(BinOp::Lt, v("b").neg()), "a < -b"),
            (CExpr::lit("-1.0f").neg(), "-(-1.0f)"),
            (v("a").neg().neg(), "-(-a)"),
            (v("a").bin(BinOp::Add, v("b")).neg(), "-(a + b)"),
            (CExpr::lit("-2").member("s0"), "(-2).s0"),
            (
                v("x").splat(CType::Vector(CScalar::Float, 4)).member("s1"),
                "((float4)(x)).s1",
            ),
            (v("a").not().member("s0"), "(!(a)).s0"),
            (
                v("a").bin(
                    BinOp::Ne,
                    CExpr::Int(0).cast(CType::Vector(CScalar::Int, 4)),
                ),
                "a != (int4)0",
            ),
            (
                v("a").bin(BinOp::Add, v("b")).cast(CScalar::Idx),
                "(lift_idx)(a + b)",
            ),
            (
                CExpr::Convert(
                    CType::Vector(CScalar::Int, 2),
                    Box::new(v("x").splat(CType::Vector(CScalar::Float, 2))),
                ),
                "convert_int2((float2)(x))",
            ),
            (
                v("p")
                    .cast(CType::pointer(
                        Space::Global,
                        CType::Vector(CScalar::Half, 4),
                        true,
                    ))
                    .index(CExpr::Int(1)),
                "((const global half4*)p)[1]",
            ),
            (
                v("p").cast(CType::pointer(Space::Private, CScalar::Uchar.into(), false)),
                "(uchar*)p",
            ),
            (
                v("p").bin(BinOp::Or, v("q")).cond(v("x"), v("y")),
                "(p || q) ? x : y",
            ),
            (
                v("p").cond(v("x"), v("q").cond(v("y"), v("z"))),
                "p ? x : (q ? y : z)",
            ),
            (
                v("w").bin(BinOp::Mul, v("p").cond(v("x"), v("y"))),
                "w * (p ? x : y)",
            ),
            (
                CExpr::Struct(
                    CType::Struct(
                        [CScalar::Double.into(), CType::Vector(CScalar::Ulong, 2)].into(),
                    ),
                    vec![v("a").bin(BinOp::Add, v("b")), v("c")],
                ),
                "(Tuple_double_ulong2){a + b, c}",
            ),
            (
                CExpr::Vector(CType::Vector(CScalar::Float, 2), vec![v("a"), v("b")])
                    .bin(BinOp::Mul, v("c")),
                "(float2)(a, b) * c",
            ),
        ];
        for (e, want) in cases {
            assert_eq!(print::expr(&e), want);
        }
    }

    /// Every expression of a statement tree is mapped, nested ones included.
    #[test]
    fn map_exprs_reaches_nested_statements() {
        let x = || CExpr::var("x");
        let s = Stmt::If {
            cond: x(),
            then: vec![Stmt::For {
                var: "i".into(),
                from: x(),
                bound: x(),
                step: CExpr::Int(1),
                unroll: false,
                body: vec![Stmt::When {
                    cond: x(),
                    stmt: Box::new(Stmt::Assign {
                        place: x(),
                        value: x(),
                    }),
                }],
            }],
            otherwise: Some(vec![Stmt::Decl {
                ty: CScalar::Int.into(),
                name: "d".into(),
                init: Some(x()),
                konst: true,
            }]),
        };
        let mut n = 0;
        let s = s.map_exprs(&mut |e| {
            n += 1;
            if e == x() {
                CExpr::var("y")
            } else {
                e
            }
        });
        let mut out = String::new();
        print::stmts(&[s], 0, &mut out);
        assert_eq!(n, 8);
        assert_eq!(
            out,
            "if (y) {\n  for (lift_idx i = y; i < y; i += 1) {\n    if (y) y = y;\n  }\n}\n\
             else {\n  const int d = y;\n}\n"
        );
    }

    #[test]
    fn names_and_literals_are_simple() {
        let x = CExpr::var("x");
        assert!(x.clone().member("_0").member("s1").is_simple());
        assert!(CExpr::lit("-1.5f").is_simple());
        assert!(!x.clone().neg().is_simple());
        assert!(!x.index(CExpr::Int(0)).is_simple());
    }
}
