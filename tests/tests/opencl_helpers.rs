//! User functions with OpenCL C bodies calling helpers from files pulled in with `include!`
//! (resolved by `ocl-include`, nested `#include` and `#pragma once` included).

use lift_runtime::lift;
use lift_tests::{ctx, random_f32};

lift! {
    include!("cl/helpers.cl");

    #[opencl]
    fn triple(a: f32) -> f32 { "return helper_triple(a);" }

    kernel Triple<N>(x: [f32; N]) -> [f32; N] { map(|v| triple(v) + 1.0) $ x }
}

#[test]
fn included_helpers_are_compiled_in() {
    assert!(
        Triple::SOURCE.contains("float helper_scale(float x, float by)"),
        "{}",
        Triple::SOURCE
    );
    assert_eq!(
        Triple::SOURCE.matches("float helper_scale(").count(),
        1,
        "pragma once"
    );
    let k = Triple::new(ctx()).unwrap();
    for n in [1, 7, 1000] {
        let x = random_f32(n, 3);
        let want: Vec<f32> = x.iter().map(|v| 3.0 * v + 1.0).collect();
        assert_eq!(k.run(n, &x).unwrap(), want);
    }
}
