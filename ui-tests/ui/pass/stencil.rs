use lift_runtime::lift;

lift! {
    /// A user function.
    fn mult(a: f32, b: f32) -> f32 { a * b }

    /// 3-point sum with clamped borders.
    pub kernel Blur3<N>(input: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input
    }

    /// The same, as a string body.
    pub kernel Blur3s<N>(input: [f32; N]) -> [f32; N] = "map(reduce(+, 0.0)) ∘ slide(3, 1) ∘ pad(1, 1, clamp) $ input";

    kernel Scale<N>(x: [f32; N], alpha: f32) -> [f32; N] { map(|v| mult(v, alpha)) $ x }

    kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
        map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a
    }

    kernel Jacobi2d<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
    }

    kernel PartialDot<N>(x: [f32; N], y: [f32; N]) -> [f32; N / 128 * 64] {
        join o map_wrg(0, map_lcl(0, reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32)) o split(2)) o split(128) $ zip(x, y)
    }
}

fn main() {
    assert!(Blur3::LIFT.contains("slide(3, 1)"));
    assert_eq!(Blur3s::RESULT_TYPE, "[f32; N]");
    assert_eq!(PartialDot::PRECONDITIONS.len(), 1);
}
