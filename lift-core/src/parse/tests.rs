//! Parser and printer tests: SPEC examples, precedence, errors, round trips, fuzzing.

use super::*;
use crate::ir::{Boundary, ExprKind, FunBody, Pat, PrimArg, Reorder};
use crate::prim::Prim;
use crate::print;
use crate::types::Type;

/// A structural dump, to check the shape of trees independently of the printer.
fn sexp(e: &Expr) -> String {
    let list = |xs: &[Expr]| xs.iter().map(sexp).collect::<Vec<_>>().join(" ");
    match &e.kind {
        ExprKind::Ident(n) => n.clone(),
        ExprKind::Lit(v, t) => format!("{v:?}{}", t.map_or("", |t| t.name())),
        ExprKind::Prim(p, a) => format!("{}/{}", p.name(), a.len()),
        ExprKind::Section(s) => format!("{s:?}"),
        ExprKind::Lambda(ps, b) => format!("(fn{} {})", ps.len(), sexp(b)),
        ExprKind::Compose(fs) => format!("(o {})", list(fs)),
        ExprKind::Apply(f, xs) => format!("({} {})", sexp(f), list(xs)),
        ExprKind::Tuple(xs) => format!("(tuple {})", list(xs)),
        ExprKind::Proj(t, i) => format!("(. {} {i})", sexp(t)),
        ExprKind::Index(t, n) => format!("([] {} {n})", sexp(t)),
        ExprKind::Binary(op, a, b) => format!("({} {} {})", op.symbol(), sexp(a), sexp(b)),
        ExprKind::Unary(op, a) => format!("({op:?} {})", sexp(a)),
        ExprKind::If(c, a, b) => format!("(if {} {} {})", sexp(c), sexp(a), sexp(b)),
        ExprKind::Cast(a, t) => format!("(as {} {t})", sexp(a)),
        ExprKind::Let(_, v, b) => format!("(let {} {})", sexp(v), sexp(b)),
        ExprKind::Point(n, a, x) => format!("(#{n}/{} {})", a.len(), sexp(x)),
    }
}

fn ex(src: &str) -> Expr {
    parse_expr_str(src, &["N", "M"]).unwrap_or_else(|e| panic!("{src}: {e}"))
}

fn shape(src: &str) -> String {
    sexp(&ex(src))
}

fn err_expr(src: &str) -> CompileError {
    match parse_expr_str(src, &["N", "M"]) {
        Ok(e) => panic!("{src}: expected an error, got {}", print::expr(&e)),
        Err(e) => e,
    }
}

fn err_prog(src: &str) -> CompileError {
    match parse_program_str(src) {
        Ok(p) => panic!("{src}: expected an error, got\n{}", print::program(&p)),
        Err(e) => e,
    }
}

/// Parsing the printed text prints the same again, and the printed text is stable.
fn round_trip_expr(src: &str) {
    let once = print::expr(&ex(src));
    let twice = print::expr(&ex(&once));
    assert_eq!(once, twice, "round trip of `{src}`");
}

fn round_trip_prog(src: &str) -> Program {
    let p = parse_program_str(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    let once = print::program(&p);
    let q = parse_program_str(&once).unwrap_or_else(|e| panic!("reparse:\n{once}\n{e}"));
    assert_eq!(once, print::program(&q), "round trip of\n{src}");
    p
}

const SPEC_BLOCK: &str = r#"
    /// A user function: a Rust-subset body translated to OpenCL C.
    fn mult(a: f32, b: f32) -> f32 { a * b }

    /// 3-point sum with clamped borders (the stencil of the seeds).
    pub kernel Blur3<N>(input: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input
    }

    kernel Blur3s<N>(input: [f32; N]) -> [f32; N] = "map(reduce(+,0.0)) ∘ slide(3,1) $ input";

    pub kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M], alpha: f32) -> [f32; N] {
        map(|row| alpha * (reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x))) $ a
    }

    kernel Dot<N>(x: [f32; N], y: [f32; N]) -> f32 {
        reduce(+, 0.0f32) o map(|p| mult(p.0, p.1)) $ zip(x, y)
    }

    kernel PartialDot<N>(x: [f32; N], y: [f32; N]) -> [f32; N / 256] {
        join o map_wrg(0, join o map_lcl(0, reduce_seq(|acc, x| acc + x.0 * x.1, 0.0f32)) o split(2)) o split(128) $ zip(x, y)
    }

    kernel Jacobi2d<N, M>(m: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1]))
            o slide2(3, 1) o pad2(1, clamp) $ m
    }

    kernel Box2d<N, M>(m: [[f32; M]; N]) -> [[f32; M + 2]; N] {
        map2(|nbh| nbh[0][0]) o slide2(1, 1, 3, 1) o pad2(1, 1, 2, 2, constant(0.0)) $ m
    }

    kernel Tiled<N>(x: [f32; N]) -> f32 {
        #[split_join(_)] (#[materialise] reduce(+, 0.0) o map(|v| v * 2.0)) $ x
    }

    kernel Pairs<N>(x: [(f32, (i32, f32)); N]) -> [f32; N] {
        map(|(a, (b, c))| { let s = a * c; let (p, q) = (s, b as f32); if p > q { p } else { q - 1.0 } }) $ x
    }

    /// Math, let, if/else-if, casts, tuples.
    fn math(a: f32, b: i32, t: (f32, f32)) -> (f32, f32) {
        let s = sqrt(a * a + t.0) / max(exp(t.1), 1.0f32);
        let (u, v) = (s, -s);
        let k = if b > 3 && !(a < 0.0) { fma(u, v, 1.0) } else if b == 0 { pow(a, 2.0) } else { floor(a) + ceil(v) };
        (k, (b % 4) as f32 + abs(log(a)) * sin(cos(tan(v))))
    }

    #[opencl]
    fn twice(a: f32) -> f32 { "return a * 2.0f;" }

    kernel Other(x: f32) -> f32 { |v| v + 1.0 $ x }

    kernel Reord<N>(x: [f32; N]) -> [f32; N] {
        gather(reverse) o scatter(stride(4)) o iterate(2, id) o as_scalar o as_vector(4) $ x
    }
"#;

#[test]
fn spec_block_parses() {
    let p = round_trip_prog(SPEC_BLOCK);
    assert_eq!(p.funs.len(), 3);
    assert_eq!(p.kernels.len(), 11);
    let mult = p.fun("mult").unwrap();
    assert_eq!(
        mult.docs,
        vec![" A user function: a Rust-subset body translated to OpenCL C."]
    );
    assert_eq!(mult.params.len(), 2);
    let blur = p.kernel("Blur3").unwrap();
    assert!(blur.public);
    assert_eq!(blur.sizes[0].0, "N");
    assert_eq!(blur.docs.len(), 1);
    assert_eq!(sexp(&blur.body), "((o map/1 slide/2 pad/3) input)");
    let blur_s = p.kernel("Blur3s").unwrap();
    assert!(!blur_s.public);
    assert_eq!(
        print::expr(&blur_s.body),
        "map(reduce(+, 0.0)) o slide(3, 1) $ input"
    );
    let gemv = p.kernel("Gemv").unwrap();
    assert_eq!(gemv.params[0].ty.to_string(), "[[f32; M]; N]");
    assert_eq!(gemv.params[2].ty, Type::from_name("f32").unwrap());
    assert_eq!(gemv.ret.to_string(), "[f32; N]");
    assert!(
        matches!(p.fun("twice").unwrap().body, FunBody::OpenCl(ref s) if s == "return a * 2.0f;")
    );
    assert!(matches!(p.fun("math").unwrap().body, FunBody::Expr(_)));
    assert!(p.kernel("Other").unwrap().sizes.is_empty());
}

#[test]
fn spec_block_from_tokens() {
    let tokens = quote::quote! {
        /// doc
        pub kernel Blur3<N>(input: [f32; N]) -> [f32; N] {
            map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input
        }
        fn mult(a: f32, b: f32) -> f32 { a * b }
    };
    let p = parse_program(tokens).unwrap();
    assert_eq!(p.kernels[0].docs, vec![" doc"]);
    assert_eq!(p.funs[0].name, "mult");
}

#[test]
fn primitive_arguments() {
    let e = ex("pad(1, N - 1, constant(0.5))");
    let ExprKind::Prim(Prim::Pad, a) = &e.kind else {
        panic!()
    };
    assert!(matches!(&a[0], PrimArg::Nat(n, _) if n.as_cst() == Some(1)));
    assert!(matches!(&a[1], PrimArg::Nat(n, _) if n.to_string().contains('N')));
    assert!(matches!(&a[2], PrimArg::Boundary(Boundary::Constant(_), _)));
    let e = ex("map_glb(1, map_seq(id))");
    let ExprKind::Prim(Prim::MapGlb, a) = &e.kind else {
        panic!()
    };
    assert!(matches!(&a[0], PrimArg::Nat(n, _) if n.as_cst() == Some(1)));
    assert!(matches!(&a[1], PrimArg::Fun(_)));
    let e = ex("map_glb(f)");
    assert!(matches!(&e.kind, ExprKind::Prim(Prim::MapGlb, a) if a.len() == 1));
    let e = ex("scatter(stride(N / 2))");
    let ExprKind::Prim(Prim::Scatter, a) = &e.kind else {
        panic!()
    };
    assert!(matches!(&a[0], PrimArg::Reorder(Reorder::Stride(..), _)));
    assert_eq!(shape("reduce(max, 0.0)"), "reduce/2");
    let e = ex("reduce(min, 0.0)");
    let ExprKind::Prim(_, a) = &e.kind else {
        panic!()
    };
    assert!(matches!(&a[0], PrimArg::Fun(f) if sexp(f) == "Min"));
    assert_eq!(shape("zip3(a, b, c)"), "(zip3/0 a b c)");
    assert_eq!(
        shape("transpose o join o unzip o as_scalar o id"),
        "(o transpose/0 join/0 unzip/0 as_scalar/0 id/0)"
    );
    assert_eq!(shape("max(a, b)"), "(max a b)");
    assert_eq!(shape("get(1) $ t"), "(get/1 t)");
    assert_eq!(
        shape("slide3(3, 1, 3, 1, 3, 1) o pad3(1, wrap)"),
        "(o slide3/6 pad3/2)"
    );
    assert_eq!(shape("vectorize(4, |v| v * v)"), "vectorize/2");
    assert_eq!(
        shape("to_local(map_lcl(1, id)) o to_global(to_private(id))"),
        "(o to_local/1 to_global/1)"
    );
}

#[test]
fn precedence_and_associativity() {
    assert_eq!(shape("f o g $ h $ x"), "((o f g) (h x))");
    assert_eq!(print::expr(&ex("f o g $ h $ x")), "f o g $ h(x)");
    assert_eq!(shape("f o (g o h)"), "(o f (o g h))");
    assert_eq!(shape("f o g o h"), "(o f g h)");
    assert_eq!(shape("(f $ x) $ y"), "((f x) y)");
    assert_eq!(print::expr(&ex("(f $ x) $ y")), "f(x) $ y");
    assert_eq!(shape("a + b * c - d"), "(- (+ a (* b c)) d)");
    assert_eq!(shape("a - (b - c)"), "(- a (- b c))");
    assert_eq!(print::expr(&ex("a - (b - c)")), "a - (b - c)");
    assert_eq!(print::expr(&ex("(a - b) - c")), "a - b - c");
    assert_eq!(shape("a || b && c == d"), "(|| a (&& b (== c d)))");
    assert_eq!(shape("-a as f32 * b"), "(* (as (Neg a) f32) b)");
    assert_eq!(shape("!a.0"), "(Not (. a 0))");
    assert_eq!(shape("t.0.1"), "(. (. t 0) 1)");
    assert_eq!(shape("t.1.0.2"), "(. (. (. t 1) 0) 2)");
    let n1 = crate::arith::Nat::size_var("N") - 1;
    assert_eq!(shape("nbh[1][N - 1]"), format!("([] ([] nbh 1) {n1})"));
    assert_eq!(shape("|x| x + 1 $ y"), "(fn1 ((+ x Int(1)) y))");
    assert_eq!(shape("#[p] f o g"), "(o (#p/0 f) g)");
    assert_eq!(shape("#[p(4, _, N)] (f o g)"), "(#p/3 (o f g))");
    assert_eq!(shape("f(x)(y)"), "((f x) y)");
    assert_eq!(shape("split(4)(x)"), "(split/1 x)");
    assert_eq!(shape("(a, b).1"), "(. (tuple a b) 1)");
    assert_eq!(shape("(a,)"), "(tuple a)");
    assert_eq!(
        shape("{ let a = 1; let (b, c) = a; b }"),
        "(let Int(1) (let a b))"
    );
    assert_eq!(
        shape("if a { b } else if c { d } else { e }"),
        "(if a b (if c d e))"
    );
    assert_eq!(
        shape("1.5f64 + 2u32 + 3f32 + true"),
        "(+ (+ (+ Float(1.5)f64 Int(2)u32) Float(3.0)f32) Bool(true))"
    );
    assert_eq!(shape("x as i32 as f32"), "(as (as x i32) f32)");
}

#[test]
fn lambda_bodies_extend_right() {
    let e = ex("map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a");
    assert_eq!(sexp(&e), "(map/1 a)");
    let ExprKind::Apply(m, _) = &e.kind else {
        panic!()
    };
    let ExprKind::Prim(_, args) = &m.kind else {
        panic!()
    };
    let PrimArg::Fun(l) = &args[0] else { panic!() };
    assert_eq!(sexp(l), "(fn1 ((o reduce/2 map/1) (zip/0 row x)))");
    let e = ex("reduce_seq(|acc, (a, (b, c))| acc + a * b, 0.0f32)");
    let ExprKind::Prim(_, args) = &e.kind else {
        panic!()
    };
    let PrimArg::Fun(l) = &args[0] else { panic!() };
    let ExprKind::Lambda(pats, _) = &l.kind else {
        panic!()
    };
    assert!(
        matches!(&pats[1], Pat::Tuple(ps, _) if matches!(&ps[1], Pat::Tuple(q, _) if q.len() == 2))
    );
    assert!(matches!(&args[1], PrimArg::Value(_)));
}

#[test]
fn round_trips() {
    for src in [
        "f o g $ h $ x",
        "(f o g) o h $ x",
        "(|x| x) $ y",
        "(|x| x) o f",
        "g(f $ x, y)",
        "(join)(x)",
        "(split(2) o join)(x)",
        "(min)(a, b)",
        "min $ a",
        "((+), (*), min)",
        "zip(a, b, c)",
        "(zip)(a)",
        "-(-a)",
        "!(a && b) || c",
        "(a < b) == (c >= d)",
        "(a as f32) < b",
        "-(a as f32)",
        "(1).0",
        "t.0.1",
        "{ let f = +; reduce(f, 0.0) }",
        "if { let a = x; a } { |x| x } else { (if c { d } else { e }) + 1 }",
        "#[tile_stencil(4, _)] #[materialise] map(f) o (#[ab_tile] g) $ x",
        "map(|(a, (b,)), c| (a, b, c)) $ x",
        "reduce(+, -1.0e10) $ x",
        "pad(N % 2, (N + 1) / 2 * 3, mirror)",
        "1e-7f32 * 123456789012345678901234567890",
        "x[N / 2 - 1]",
        "f $ g $ |x| x o h",
    ] {
        round_trip_expr(src);
    }
}

#[test]
fn user_functions() {
    let p = parse_program_str(
        "fn f(a: f32, t: (f32, i32)) -> f32 { let (x, _) = t; if a > x { a } else { (t.1 as f32) } }",
    )
    .unwrap();
    let FunBody::Expr(e) = &p.funs[0].body else {
        panic!()
    };
    assert_eq!(sexp(e), "(let t (if (> a x) a (as (. t 1) f32)))");
    let p = parse_program_str("fn g(a: f32) -> f32 { ({ let b = a; b }) * -2.0f32 }").unwrap();
    let FunBody::Expr(e) = &p.funs[0].body else {
        panic!()
    };
    assert_eq!(sexp(e), "(* (let a b) (Neg Float(2.0)f32))");
    assert_eq!(
        print::program(&p),
        "fn g(a: f32) -> f32 {\n    ({ let b = a; b }) * -2.0f32\n}\n"
    );
}

fn check(e: CompileError, kind: ErrorKind, msg: &str) {
    assert_eq!(e.kind, kind, "{}", e.message);
    assert!(
        e.message.contains(msg),
        "message `{}` lacks `{msg}`",
        e.message
    );
}

#[test]
fn errors() {
    use ErrorKind::*;
    check(
        err_prog("kernel K<N>(x: [f32; K]) -> f32 { x }"),
        UnknownName,
        "unknown size variable `K`",
    );
    check(
        err_prog("kernel K<N>(x: [f32; N]) -> [f32; N * M] { x }"),
        UnknownName,
        "unknown size variable `M`",
    );
    check(
        err_expr("split(K) $ x"),
        UnknownName,
        "unknown size variable `K`",
    );
    // An index that is not a size expression is computed at run time: `#index(x, K)`.
    assert_eq!(shape("x[K]"), "(#index x K)");
    assert_eq!(shape("x[N - 1]"), "([] x N - 1)");
    check(
        err_expr("#[p(K)] x"),
        UnknownName,
        "unknown size variable `K`",
    );
    check(
        err_prog("kernel K<N>(x: [g32; N]) -> f32 { x }"),
        UnknownName,
        "unknown type `g32`",
    );
    check(
        err_expr("map(f, g) $ x"),
        WrongArity,
        "map: wrong number of arguments: expected 1 (f), found 2",
    );
    check(
        err_expr("map $ x"),
        WrongArity,
        "map: wrong number of arguments: expected 1 (f), found 0",
    );
    check(
        err_expr("map_glb(0, 1, f)"),
        WrongArity,
        "map_glb: wrong number of arguments: expected 1 (f) or 2 (d, f), found 3",
    );
    check(
        err_expr("zip(a)"),
        WrongArity,
        "zip: wrong number of arguments: expected at least 2, found 1",
    );
    check(
        err_expr("join(x)"),
        WrongArity,
        "join: wrong number of arguments: expected 0, found 1",
    );
    check(
        err_expr("pad(1, 1, constant(1, 2))"),
        WrongArity,
        "constant: wrong number of arguments",
    );
    check(
        err_expr("map_wrg(3, f)"),
        Syntax,
        "map_wrg: the dimension must be 0, 1 or 2",
    );
    check(
        err_expr("map_lcl(N, f)"),
        Syntax,
        "map_lcl: the dimension must be 0, 1 or 2",
    );
    check(
        err_expr("pad(1, 1, reflect)"),
        Syntax,
        "pad: expected a boundary",
    );
    check(
        err_expr("gather(clamp)"),
        Syntax,
        "gather: expected `reverse` or `stride(s)`",
    );
    check(
        err_expr("split(f(x))"),
        Syntax,
        "expected a size expression",
    );
    check(err_expr("split(N / 0)"), ZeroSize, "divides by zero");
    check(err_expr("map(f) x"), Syntax, "unexpected token");
    check(
        err_expr("a < b < c"),
        Syntax,
        "comparison operators cannot be chained",
    );
    check(
        err_expr("if a { b }"),
        Syntax,
        "`if` needs an `else` branch",
    );
    check(err_expr("t.x"), Syntax, "expected a tuple index");
    check(err_expr("|| x"), Syntax, "at least one parameter");
    check(
        err_expr("1 as f32x4"),
        Syntax,
        "can only cast to a scalar type",
    );
    check(err_expr("()"), Syntax, "`()` is not supported");
    check(err_expr("1usize"), Syntax, "unsupported literal suffix");
    check(err_expr("map(f) o"), Syntax, "expected an expression");
    check(
        err_prog("struct X;"),
        Syntax,
        "expected `fn`, `kernel` or `include!",
    );
    check(
        err_prog("kernel K<N, N>(x: f32) -> f32 { x }"),
        Syntax,
        "duplicate size variable `N`",
    );
    check(
        err_prog("kernel K(x: f32, x: f32) -> f32 { x }"),
        Syntax,
        "duplicate parameter `x`",
    );
    check(
        err_prog("kernel K(x: f32) -> f32 { x } junk"),
        Syntax,
        "expected `fn`, `kernel` or `include!",
    );
    check(
        err_prog("#[inline] fn f(a: f32) -> f32 { a }"),
        Syntax,
        "unsupported attribute",
    );
    check(
        err_prog("#[opencl] fn f(a: f32) -> f32 { a }"),
        Syntax,
        "one string literal",
    );
    check(
        err_prog("kernel K(x: f32) -> f32 = \"x $ \\\"y\";"),
        Syntax,
        "cannot tokenize",
    );
    check(
        err_prog("kernel K(x: f32) -> f32 = \"\";"),
        Syntax,
        "empty kernel body",
    );
    let nested = format!("{}x{}", "(".repeat(500), ")".repeat(500));
    check(err_expr(&nested), Syntax, "nested too deeply");
}

#[test]
fn unsupported_user_function_constructs() {
    let cases = [
        ("for i in 0..3 {} a", "loop"),
        ("let mut s = a; s", "mutable or reference binding"),
        ("s = a; a", "assignment"),
        ("a.sqrt()", "method call"),
        ("let g = |x: f32| x; g(a)", "closure"),
        ("max!(a, a)", "macro"),
        ("println!(\"hi\"); a", "macro"),
        ("while a > 0.0 {} a", "loop"),
        ("return a", "return"),
        ("*&a", "dereference"),
        ("[a, a].len() as f32", "method call"),
        ("let x; a", "`let` without a value"),
        ("let x: f32 = a; x", "type annotation on `let`"),
        ("if a > 0.0 { a }", "`if` without `else`"),
        ("a += 1.0; a", "compound assignment"),
        ("a & a", "bitwise operator"),
        ("a;", "block without a final value"),
        ("std::f32::consts::PI", "path"),
        ("\"s\"", "string or character literal"),
        ("a; a", "statement"),
    ];
    for (body, what) in cases {
        let src = format!("fn f(a: f32) -> f32 {{ {body} }}");
        let e = err_prog(&src);
        check(
            e,
            ErrorKind::Unsupported,
            &format!("user function `f`: unsupported construct: {what}"),
        );
    }
}

#[test]
fn spans() {
    let src = "kernel K<N>(x: [f32; N]) -> f32 =\n  \"map(f, g) ∘ h $ x\";";
    let e = err_prog(src);
    assert_eq!(e.kind, ErrorKind::WrongArity);
    // The error points at the string literal (line 2, column 2).
    assert_eq!((e.span.start().line, e.span.start().column), (2, 2));
    let e = err_expr("map(f) $\n  split(K) $ x");
    assert_eq!((e.span.start().line, e.span.start().column), (2, 8));
    let e = ex("f o\n g $ x");
    assert_eq!(
        (e.span.start().line, e.span.end().line, e.span.end().column),
        (1, 2, 6)
    );
    let e = err_prog("fn f(a: f32) -> f32 {\n    a.abs()\n}");
    assert_eq!((e.span.start().line, e.span.start().column), (2, 4));
    let p = parse_program_str("kernel K<N>(x: [f32; N]) -> [f32; N] { x }").unwrap();
    assert_eq!(p.kernels[0].ret_span.start().column, 28);
}

/// Random token soups and byte strings never make the parser panic.
#[test]
fn fuzz_never_panics() {
    use rand::{Rng, SeedableRng};
    const VOCAB: &[&str] = &[
        "map",
        "reduce",
        "zip",
        "split",
        "join",
        "pad",
        "slide",
        "pad2",
        "slide2",
        "map_glb",
        "get",
        "at",
        "iterate",
        "gather",
        "stride",
        "reverse",
        "clamp",
        "mirror",
        "constant",
        "(",
        ")",
        "(",
        ")",
        ",",
        ",",
        "o",
        "$",
        "|",
        "||",
        "x",
        "y",
        "N",
        "M",
        "+",
        "-",
        "*",
        "/",
        "%",
        "0.0",
        "0",
        "1",
        "2",
        "3",
        "0.1",
        "1e9",
        "4294967296000000000000",
        "[",
        "]",
        ".",
        "..",
        ";",
        "{",
        "}",
        "#",
        "kernel",
        "fn",
        "pub",
        "->",
        "<",
        ">",
        "<=",
        "==",
        "!",
        "&&",
        "as",
        "f32",
        "i32",
        "let",
        "=",
        "if",
        "else",
        "_",
        "min",
        "max",
        "∘",
        ":",
        "\"",
        "'",
        "true",
        "id",
        "join",
        "for",
        "loop",
        "x.0",
        "t.0.1",
        "#[opencl]",
        "///",
        "\n",
    ];
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x11f7);
    let mut failures = Vec::new();
    let mut ok = 0;
    for i in 0..4000 {
        let src = if i % 5 == 4 {
            let n = rng.gen_range(0..40);
            let bytes: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            let n = rng.gen_range(0..30);
            let toks: Vec<&str> = (0..n)
                .map(|_| VOCAB[rng.gen_range(0..VOCAB.len())])
                .collect();
            toks.join(" ")
        };
        let wrapped = [
            format!("kernel K<N, M>(x: [f32; N], y: [f32; N]) -> f32 {{ {src} }}"),
            format!("kernel K<N>(x: f32) -> f32 = {src:?};"),
            format!("fn f(a: f32) -> f32 {{ {src} }}"),
            src.clone(),
        ];
        for text in &wrapped {
            let r = std::panic::catch_unwind(|| {
                let a = parse_program_str(text);
                let b = parse_expr_str(text, &["N", "M"]);
                // Whatever parses must also print and reparse.
                if let Ok(e) = &b {
                    let printed = print::expr(e);
                    let again = parse_expr_str(&printed, &["N", "M"]).map(|e| print::expr(&e));
                    assert_eq!(again.as_deref().ok(), Some(printed.as_str()), "{text}");
                }
                a.is_ok() || b.is_ok()
            });
            match r {
                Ok(true) => ok += 1,
                Ok(false) => {}
                Err(_) => failures.push(text.clone()),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "panicked on {} inputs, first: {:?}",
        failures.len(),
        failures.first()
    );
    assert!(ok > 0);
}
/// Deep nesting of every recursive construct is an error, not a stack overflow.
#[test]
fn deep_nesting() {
    for d in [60, 300] {
        for (open, close) in [
            ("(", ")"),
            ("|x| ", ""),
            ("- ", ""),
            ("map(", ")"),
            ("f(", ")"),
            ("#[p] ", ""),
            ("{ let a = ", "; a }"),
            ("if c { ", " } else { x }"),
            ("(x, ", ")"),
        ] {
            let src = format!("{}x{}", open.repeat(d), close.repeat(d));
            let r = parse_expr_str(&src, &[]);
            assert_eq!(
                r.is_ok(),
                d < 64,
                "{open}: {:?}",
                r.err().map(|e| e.message)
            );
        }
        let ty = format!(
            "kernel K(x: {}f32{}) -> f32 {{ x }}",
            "[".repeat(d),
            "; 2]".repeat(d)
        );
        assert_eq!(parse_program_str(&ty).is_ok(), d < 64);
        let ty = format!(
            "kernel K(x: {}f32{}) -> f32 {{ x }}",
            "(".repeat(d),
            ",)".repeat(d)
        );
        assert_eq!(parse_program_str(&ty).is_ok(), d < 64);
    }
}

/// `[e; n]` reads as `generate(n, |_| e)`, nested for more dimensions, which parses back
/// (the tuner and `DynKernel` recompile printed programs); `filter(x, ids)` and
/// `generate(n, f)` print back as they are written.
#[test]
fn array_constants_filter_and_generate() {
    assert_eq!(
        print::expr(&ex("[[0.0; 4]; N]")),
        "generate(N, |_| generate(4, |_| 0.0))"
    );
    round_trip_expr("generate(N, |_| generate(4, |_| 0.0))");
    round_trip_expr("filter(x, ids)");
    round_trip_expr("map(|v| v * 2.0) $ generate(N, |i| i as f32)");
    round_trip_expr("generate2(N, M, |i, j| i + j)");
    for (src, msg) in [
        ("[0.0, 4]", "expected `;`"),
        ("[0.0; 4 x]", "unexpected token in an array constant"),
        ("filter(x)", "filter: wrong number of arguments"),
    ] {
        let e = err_expr(src).to_string();
        assert!(e.contains(msg), "{src}: {e}");
    }
}
