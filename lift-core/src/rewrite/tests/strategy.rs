//! Tests of the strategy combinators and traversals, and of `rewrite_kernel`.

use crate::interp::{run_kernel, Value};
use crate::ir::Program;
use crate::parse::parse_program_str;
use crate::print;
use crate::rewrite::strategy::*;
use crate::rewrite::*;

fn program(src: &str) -> Program {
    parse_program_str(src).unwrap_or_else(|e| panic!("parse: {e}"))
}

fn body(p: &Program) -> String {
    print::expr(&p.kernels[0].body)
}

const MAPS: &str =
    "kernel K(x: [f32; 6]) -> [f32; 6] { map(|x| x + 1.0) o map(|x| x * 2.0) o map(|x| x - 0.5) $ x }";

fn run(p: &Program) -> Vec<f32> {
    let x = Value::from_f32s(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    run_kernel(p, "K", &[], &[x])
        .expect("runs")
        .as_f32s()
        .expect("f32")
}

#[test]
fn normalize_fuses_a_whole_chain() {
    let p = program(MAPS);
    let s = normalize(rule(algorithmic::map_fusion()));
    let q = rewrite_kernel(&p, "K", &s).expect("rewrites");
    assert_eq!(
        body(&q),
        "map((|x| x + 1.0) o (|x| x * 2.0) o (|x| x - 0.5)) $ x"
    );
    let mut p = p;
    crate::typeck::check_program(&mut p).expect("checks");
    assert_eq!(run(&p), run(&q));
    // and fission undoes it
    let r = rewrite_kernel(&q, "K", &normalize(rule(algorithmic::map_fission()))).expect("ok");
    assert_eq!(body(&r), body(&p));
}

#[test]
fn combinators() {
    let p = program(MAPS);
    let e = &p.kernels[0].body;
    let ctx = RewriteCtx::default();
    assert!(fail().apply(e, &ctx).is_none());
    assert_eq!(
        print::expr(&id().apply(e, &ctx).expect("id")),
        print::expr(e)
    );
    assert!(try_(fail()).apply(e, &ctx).is_some());
    assert!(seq(id(), fail()).apply(e, &ctx).is_none());
    assert!(left_choice(fail(), id()).apply(e, &ctx).is_some());
    // the root is an application: fusion does not match there, but one level down
    let fuse = rule(algorithmic::map_fusion());
    assert!(fuse.apply(e, &ctx).is_none());
    assert!(one(fuse.clone()).apply(e, &ctx).is_some());
    assert!(all(fuse.clone()).apply(e, &ctx).is_none(), "fails on x");
    assert!(all(id()).apply(e, &ctx).is_some());
    // top_down rewrites once, at the first location
    let once = top_down(fuse.clone()).apply(e, &ctx).expect("matches");
    assert_eq!(
        print::expr(&once),
        "map((|x| x + 1.0) o (|x| x * 2.0)) o map(|x| x - 0.5) $ x"
    );
    let up = bottom_up(fuse).apply(e, &ctx).expect("matches");
    assert_eq!(print::expr(&up), print::expr(&once));
}

#[test]
fn locations_and_at() {
    let p = program(MAPS);
    let e = &p.kernels[0].body;
    let ctx = RewriteCtx::default();
    let s = rule(lowering::lower_map(lowering::MapLevel::Seq));
    let locs = locations(&s, e, &ctx);
    assert_eq!(locs, vec![vec![0, 0], vec![0, 1], vec![0, 2]]);
    let mut cur = e.clone();
    for l in locs.iter().rev() {
        cur = at(l.clone(), s.clone()).apply(&cur, &ctx).expect("matches");
    }
    assert_eq!(
        print::expr(&cur),
        "map_seq(|x| x + 1.0) o map_seq(|x| x * 2.0) o map_seq(|x| x - 0.5) $ x"
    );
    assert!(at(vec![7], id()).apply(e, &ctx).is_none());
    assert!(at(vec![1], s).apply(e, &ctx).is_none());
}

#[test]
fn repeat_terminates_on_a_rule_that_always_applies() {
    let p = program("kernel K(x: [f32; 2]) -> [f32; 2] { map(|x| x) $ x }");
    let s = repeat(rule(algorithmic::map_id_intro()));
    let e = &p.kernels[0].body;
    assert!(s.apply(e, &RewriteCtx::default()).is_some());
}

#[test]
fn rewrite_kernel_errors() {
    let p = program(MAPS);
    let s = rule(algorithmic::map_fusion());
    assert!(matches!(
        rewrite_kernel(&p, "Nope", &s),
        Err(RewriteError::UnknownKernel(_))
    ));
    assert!(matches!(
        rewrite_kernel(&p, "K", &s),
        Err(RewriteError::NoMatch(_))
    ));
    // split(4) of 6 elements: the re-check rejects it (the length is unknown to the rule)
    let ctxless = Strategy::new(|e, ctx| {
        top_down(rule(algorithmic::split_join(crate::arith::Nat::cst(4))))
            .apply(e, &ctx.with_input(None))
    });
    let untyped = program(MAPS);
    assert!(matches!(
        rewrite_kernel(&untyped, "K", &ctxless),
        Err(RewriteError::NoMatch(_)) | Err(RewriteError::After(_))
    ));
}

/// Example 3.1 of the stencil thesis: overlapped tiling, map-join reorder, fusion, lowering.
#[test]
fn one_d_stencil_derivation() {
    let src = "kernel K(x: [f32; 6]) -> [f32; 6] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x }";
    let p = program(src);
    let s = seq(
        top_down(rule(stencil::overlapped_tiling(crate::arith::Nat::cst(5)))),
        seq(
            top_down(rule(algorithmic::map_join_reorder())),
            top_down(rule(algorithmic::map_fusion())),
        ),
    );
    let q = rewrite_kernel(&p, "K", &s).expect("rewrites");
    assert_eq!(
        body(&q),
        "join o map(map(reduce(+, 0.0)) o slide(3, 1)) o slide(5, 3) o pad(1, 1, clamp) $ x"
    );
    let lower = seq(
        top_down(rule(lowering::lower_map(lowering::MapLevel::Wrg(0)))),
        seq(
            top_down(rule(lowering::lower_map(lowering::MapLevel::Lcl(0)))),
            normalize(rule(lowering::lower_reduce())),
        ),
    );
    let l = rewrite_kernel(&q, "K", &lower).expect("lowers");
    assert_eq!(
        body(&l),
        "join o map_wrg(0, map_lcl(0, reduce_seq(+, 0.0)) o slide(3, 1)) o slide(5, 3) o pad(1, 1, clamp) $ x"
    );
    let mut p = p;
    crate::typeck::check_program(&mut p).expect("checks");
    assert_eq!(run(&p), run(&l));
    assert_eq!(run(&p), vec![4.0, 6.0, 9.0, 12.0, 15.0, 17.0]);
}
