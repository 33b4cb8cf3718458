//! The mapping constraint problem: nests found in bodies, the solver against brute force,
//! the thesis's examples, and applied solutions that type-check.

use super::*;
use crate::explore::lower::prepare;
use crate::ir::Program;
use crate::parse::parse_program_str;
use crate::typeck::check_program;

/// The fused, typed body of the last kernel of `src` and its program.
fn prepared(src: &str) -> (Program, String) {
    let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let infos = check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let k = p.kernels.last().map(|k| k.name.clone()).unwrap_or_default();
    let info = infos.into_iter().find(|i| i.name == k).expect("info");
    (
        prepare(&p, &k, &info).unwrap_or_else(|e| panic!("{e}\n{src}")),
        k,
    )
}

fn nest(src: &str) -> Nest {
    let (p, k) = prepared(src);
    Nest::of(&p.kernel(&k).expect("kernel").body)
}

fn solutions(n: &Nest) -> Vec<Vec<Code>> {
    solve(n, &constraints(n)).expect("solved")
}

fn show(sols: &[Vec<Code>]) -> Vec<String> {
    sols.iter()
        .map(|s| {
            s.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

const MAP2: &str =
    "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map(map(|v| v + 1.0)) $ x }";
const GEMM: &str = "kernel G<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] { map(|r| map(|c| reduce(+, 0.0) o map(|(x, y)| x * y) $ zip(r, c)) $ transpose $ b) $ a }";

#[test]
fn nests_of_bodies() {
    let n = nest(MAP2);
    assert_eq!(n.maps.len(), 2);
    assert_eq!(n.maps[1].parent, Some(0));
    assert!(n.maps[1].perfect);
    assert_eq!(n.chains(), vec![vec![0, 1]]);
    // GEMM: the product map is fused into the reduction, which is sequential.
    let g = nest(GEMM);
    assert_eq!(g.maps.len(), 2, "{g:?}");
    assert!(!g.maps[1].perfect);
    // A map inside the function of a sequential primitive.
    let r = nest("kernel R<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map(iterate(2, |row| map(|p| p.0 * p.1) $ zip(row, row))) $ x }");
    assert_eq!(r.maps.len(), 2, "{r:?}");
    assert!(r.maps[1].in_fold, "{r:?}");
    assert!(solutions(&r).iter().all(|s| s[1].level() == 0));
    // Layout maps are views, not variables.
    let t = nest("kernel T<N>(x: [[f32; 4]; N]) -> [[[f32; 2]; 2]; N] { map(map(map(|v| v * 2.0))) o map(split(2)) $ x }");
    assert_eq!(t.maps.len(), 3, "{t:?}");
}

/// The two perfectly nested maps of a 2-D map: every mapping the rules allow.
#[test]
fn two_perfectly_nested_maps() {
    let sols = show(&solutions(&nest(MAP2)));
    assert_eq!(
        sols,
        [
            "seq,fused", // one work-item, the two loops flattened
            "seq,glb0",
            "wrg0,lcl0",
            "glb0,seq",
            "glb0,fused", // one global dimension over N * M
            "glb0,glb1",
            "glb1,glb0",
        ]
    );
}

/// The solver enumerates exactly the assignments brute force finds, on every nest of
/// bodies of depth 1 to 3 (and a two-chain body).
#[test]
fn solver_matches_brute_force() {
    let bodies = [
        "kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| v + 1.0) $ x }",
        MAP2,
        GEMM,
        "kernel K<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] { map(map(map(|v| v * v))) $ x }",
        "kernel K<N, M>(x: [[f32; M]; N]) -> [f32; N] { map(|r| reduce(+, 0.0) o map(|v| v * v) $ r) $ x }",
        "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map(|r| map(|v| v * 2.0) $ to_private(map(|v| v + 1.0)) $ r) $ x }",
    ];
    for src in bodies {
        let n = nest(src);
        let cs = constraints(&n);
        let solved = solve(&n, &cs).expect("solved");
        assert_eq!(solved, brute_force(&n, &cs), "{src}");
        assert!(!solved.is_empty(), "{src}");
        for s in &solved {
            assert!(satisfies(s, &cs));
        }
    }
}

/// The thesis's statement for depth 3: a `map_wrg` nesting a `map_lcl` in the same
/// dimension, or up to three nested `map_glb` in different dimensions (with sequential and
/// fused maps around them).
#[test]
fn depth_three() {
    let n = nest("kernel K<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] { map(map(map(|v| v * v))) $ x }");
    for s in solutions(&n) {
        let glb: Vec<u8> = s
            .iter()
            .filter_map(|c| match c {
                Code::Glb(d) => Some(*d),
                _ => None,
            })
            .collect();
        let mut sorted = glb.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), glb.len(), "{s:?}");
        let wrg: Vec<u8> = s
            .iter()
            .filter_map(|c| match c {
                Code::Wrg(d) => Some(*d),
                _ => None,
            })
            .collect();
        let lcl: Vec<u8> = s
            .iter()
            .filter_map(|c| match c {
                Code::Lcl(d) => Some(*d),
                _ => None,
            })
            .collect();
        let (mut w, mut l) = (wrg.clone(), lcl.clone());
        w.sort();
        l.sort();
        assert_eq!(w, l, "{s:?}");
        assert!(glb.is_empty() || wrg.is_empty(), "{s:?}");
    }
}

/// Memory scoping (5.1, 5.2): a map writing private memory is sequential; one writing local
/// memory is sequential, fused or local, under a `map_wrg`.
#[test]
fn memory_scoping() {
    let n = nest("kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map(|r| map(|v| v * 2.0) $ to_private(map(|v| v + 1.0)) $ r) $ x }");
    let private = n.maps.iter().position(|m| m.private).expect("private map");
    let sols = solutions(&n);
    assert!(!sols.is_empty());
    for s in sols {
        assert!(s[private].level() == 0, "{s:?}");
    }
    // (`to_local` outside a work-group does not type-check: a nest built by hand.)
    let local = MapVar {
        parent: Some(0),
        local: true,
        ..MapVar::default()
    };
    let n = Nest {
        maps: vec![MapVar::default(), local],
    };
    let sols = show(&solutions(&n));
    assert_eq!(sols, ["wrg0,lcl0"]);
}

/// Every solution of the GEMM and 3-D nests applies to a program that type-checks.
#[test]
fn applied_solutions_check() {
    for src in [MAP2, GEMM] {
        let (p, k) = prepared(src);
        let body = p.kernel(&k).expect("kernel").body.clone();
        let n = Nest::of(&body);
        for s in solutions(&n) {
            let new = apply(&body, &s).expect("applied");
            let mut q = p.clone();
            q.kernels.iter_mut().find(|x| x.name == k).expect("k").body = new;
            check_program(&mut q).unwrap_or_else(|e| {
                panic!(
                    "{s:?}: {e}\n{}",
                    crate::print::expr(&q.kernel(&k).unwrap().body)
                )
            });
        }
    }
}

/// The number of mappings of perfect nests of depth 1 to 4 and of GEMM (docs/MAPPING.md),
/// each solved well within the macro's budget of 50 ms per kernel.
#[test]
fn solution_counts() {
    let depth4 = "kernel K<A, B, C, D>(x: [[[[f32; D]; C]; B]; A]) -> [[[[f32; D]; C]; B]; A] { map(map(map(map(|v| v + 1.0)))) $ x }";
    for (src, want) in [
        ("kernel K<A>(x: [f32; A]) -> [f32; A] { map(|v| v + 1.0) $ x }", 2),
        (MAP2, 7),
        ("kernel K<A, B, C>(x: [[[f32; C]; B]; A]) -> [[[f32; C]; B]; A] { map(map(map(|v| v + 1.0))) $ x }", 27),
        (depth4, 93),
        (GEMM, 6),
    ] {
        let n = nest(src);
        let t = std::time::Instant::now();
        let s = solutions(&n);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        assert_eq!(s.len(), want, "{src}");
        // A guard against a blow-up of the search, not a speed claim (a loaded test machine
        // takes several times the 1-5 ms these take alone).
        assert!(ms < 1000.0, "{ms} ms: {src}");
    }
}

/// The default heuristic's mapping is one of the solutions.
#[test]
fn heuristic_is_a_solution() {
    for src in [
        MAP2,
        GEMM,
        "kernel K<A, B, C>(x: [[[f32; C]; B]; A]) -> [[[f32; C]; B]; A] { map(map(map(|v| v + 1.0))) $ x }",
        "kernel K<N, M>(x: [[f32; M]; N]) -> [f32; N] { map(|r| reduce(+, 0.0) o map(|v| v * v) $ r) $ x }",
        "kernel J<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1])) o slide2(3, 1) o pad2(1, clamp) $ x }",
    ] {
        let mut p = parse_program_str(src).expect("parses");
        let infos = check_program(&mut p).expect("checks");
        let (k, info) = (p.kernels[0].name.clone(), infos[0].clone());
        let text = |q: &Program| crate::print::expr(&q.kernel(&k).expect("k").body);
        let default = crate::explore::lower::lower_program(&p, &k, &info).expect("lowers");
        let all = crate::explore::parallel::mappings(&p, &k, &info).expect("mappings");
        assert!(
            all.iter()
                .any(|m| m.lowered.as_ref().is_ok_and(|l| text(&l.prog) == text(&default.prog))),
            "{src}: {}",
            text(&default.prog)
        );
    }
}

/// Synchronisability (thesis §5.3.6, its example): a barrier needed inside a `map_lcl` loop
/// whose trip count differs between work-items would be unreachable for some of them, so
/// code generation refuses the mapping with that reason; with a trip count equal to the
/// local size it is emitted.
#[test]
fn unsynchronisable_mapping_is_refused() {
    let program = |b: &str| {
        format!(
            "kernel S<A, B, C>(x: [[[[[f32; C]; C]; {b}]; A]; A]) -> [[[[[f32; C]; C]; {b}]; A]; A] {{ \
             map_wrg(1, map_wrg(0, map_lcl(1, map_lcl(0, map_seq(|v| v * 2.0)) o transpose \
             o map_lcl(0, map_seq(|v| v + 1.0))))) $ x }}"
        )
    };
    let compile = |src: &str| {
        let mut p = parse_program_str(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        check_program(&mut p).unwrap_or_else(|e| panic!("{e}\n{src}"));
        crate::driver::compile_kernel(&p, "S").map_err(|e| e.to_string())
    };
    let err = compile(&program("B")).expect_err("refused");
    assert!(
        err.contains("barrier would be needed inside divergent control flow"),
        "{err}"
    );
    let ok = compile(&program("4")).expect("emitted");
    assert!(ok.candidates[0].generated.source.contains("barrier("));
}

/// A map whose result a sequential stage of the same function reads (here a private
/// reduction) is sequential: as `map_glb`, every work-item would reduce an array the others
/// are still writing (seed 34 of the differential run, wrong on POCL and an H100).
#[test]
fn map_feeding_a_sequential_stage_is_sequential() {
    for src in [
        "kernel K<N>(x: [f32; N]) -> f32 { to_private(reduce_seq(max, -1000.0)) $ map(|v| max(v, 0.25)) $ x }",
        "kernel K<N>(x: [f32; N]) -> f32 { to_private(reduce_seq(max, -1000.0)) o map(|v| max(v, 0.25)) $ x }",
    ] {
        let n = nest(src);
        assert_eq!(n.maps.len(), 1, "{n:?}");
        assert!(n.maps[0].feeds_sequential, "{n:?}");
        assert!(solutions(&n).iter().all(|s| s[0].level() == 0), "{src}");
    }
    // A map after (reading) a sequential stage's result is not affected.
    let n = nest("kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| v * 2.0) $ x }");
    assert!(!n.maps[0].feeds_sequential);
}

/// A body of many map nests has exponentially many mappings (the differential run's seed
/// 3819, with nests inside `iterate`s, ran for minutes enumerating and lowering them all):
/// the solver stops at [`MAX_SOLUTIONS`], deterministically.
#[test]
fn solutions_are_capped() {
    let stages: Vec<String> = (0..12)
        .map(|k| format!("map(map(|v| v + {k}.0))"))
        .collect();
    let src = format!(
        "kernel K<N>(x: [[f32; N]; N]) -> [[f32; N]; N] {{ {} $ x }}",
        stages.join(" o transpose o ")
    );
    let n = nest(&src);
    let t = std::time::Instant::now();
    let a = solutions(&n);
    let ms = t.elapsed().as_secs_f64() * 1e3;
    assert_eq!(a.len(), MAX_SOLUTIONS, "{} maps", n.maps.len());
    assert_eq!(a, solutions(&n), "the same solutions every time");
    assert!(ms < 20_000.0, "{ms} ms");
}
