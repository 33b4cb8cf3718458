//! Rewrite points in `lift!` kernels: applied before lowering, checked on the device against
//! the interpreter of the kernel as written (points are transparent there).

use lift_runtime::core::interp::Value;
use lift_runtime::lift;
use lift_tests::{assert_close, ctx, f32s, interpret, matrix, random_f32};

lift! {
    kernel SplitJoin<N>(x: [f32; N]) -> [f32; N] { #[split_join(4)] map(|v| v * 2.0 + 1.0) $ x }
    kernel SplitJoinDefault<N>(x: [f32; N]) -> [f32; N] { #[split_join(_)] map(|v| v - 3.0) $ x }
    kernel Tiled<N>(x: [f32; N + 2]) -> [f32; N] {
        map(reduce(+, 0.0)) o #[tile_stencil(10)] slide(3, 1) $ x
    }
    kernel Interchange<N, M>(a: [[f32; M]; N]) -> [[f32; M]; N] {
        #[interchange_maps] map(map(|v| v * v)) $ a
    }
    kernel Private<N, M>(a: [[f32; M]; N]) -> [f32; N] {
        map(|row| #[privatise_accumulator] reduce(+, 0.0) $ row) $ a
    }
}

#[test]
fn split_join_with_a_fixed_and_a_default_factor() {
    let k = SplitJoin::new(ctx()).unwrap();
    let d = SplitJoinDefault::new(ctx()).unwrap();
    assert!(
        SplitJoin::PRECONDITIONS
            .iter()
            .any(|p| p.contains("% (4) == 0")),
        "{:?}",
        SplitJoin::PRECONDITIONS
    );
    assert!(
        !SplitJoinDefault::PRECONDITIONS.is_empty(),
        "the default factor is a precondition"
    );
    for n in [4, 64, 1024] {
        let x = random_f32(n, 1);
        let want = f32s(&interpret(
            SplitJoin::LIFT,
            "SplitJoin",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        assert_close(
            &k.run(n, &x).unwrap(),
            &want,
            1e-6,
            &format!("SplitJoin N={n}"),
        );
    }
    assert!(
        k.run(6, &random_f32(6, 2)).is_err(),
        "N = 6 breaks split(4)"
    );
    let x = random_f32(1024, 3);
    let want = f32s(&interpret(
        SplitJoinDefault::LIFT,
        "SplitJoinDefault",
        &[1024],
        &[Value::from_f32s(&x)],
    ));
    assert_close(&d.run(1024, &x).unwrap(), &want, 1e-6, "SplitJoinDefault");
}

#[test]
fn stencil_tiling_interchange_and_private_accumulator() {
    let t = Tiled::new(ctx()).unwrap();
    for n in [8, 80, 800] {
        let x = random_f32(n + 2, 4);
        let want = f32s(&interpret(
            Tiled::LIFT,
            "Tiled",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        assert_close(&t.run(n, &x).unwrap(), &want, 1e-5, &format!("Tiled N={n}"));
    }
    let i = Interchange::new(ctx()).unwrap();
    let p = Private::new(ctx()).unwrap();
    for (n, m) in [(1, 1), (3, 7), (16, 33)] {
        let a = random_f32(n * m, 5);
        let want = f32s(&interpret(
            Interchange::LIFT,
            "Interchange",
            &[n, m],
            &[matrix(&a, n)],
        ));
        assert_close(
            &i.run(n, m, &a).unwrap(),
            &want,
            1e-6,
            &format!("Interchange {n}x{m}"),
        );
        let want = f32s(&interpret(
            Private::LIFT,
            "Private",
            &[n, m],
            &[matrix(&a, n)],
        ));
        assert_close(
            &p.run(n, m, &a).unwrap(),
            &want,
            1e-5,
            &format!("Private {n}x{m}"),
        );
    }
    assert!(
        Interchange::LOWERED.contains("transpose"),
        "{}",
        Interchange::LOWERED
    );
    assert!(
        Private::LOWERED.contains("to_private"),
        "{}",
        Private::LOWERED
    );
}
