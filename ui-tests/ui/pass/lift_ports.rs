use lift_runtime::lift;

lift! {
    fn add(a: f32, b: f32) -> f32 { a + b }
    fn mult(a: f32, b: f32) -> f32 { a * b }
    fn abs_and_sum_up(acc: f32, x: f32) -> f32 { acc + abs(x) }
    fn mult_and_sum_up(acc: f32, l: f32, r: f32) -> f32 { acc + l * r }

    /// LIFT's tiled 1-D stencil (TestStencil.scala): a barrier between the two `map_lcl`s,
    /// which every work-item reaches.
    kernel Tiled<N>(input: [f32; N], weights: [f32; 3]) -> [f32; N] {
        join o map_wrg(0, |tile| map_lcl(0, |nbh| to_global(id) o reduce_seq_unroll(add, 0.0)
            o map_seq_unroll(|p| mult(p.0, p.1)) $ zip(weights, nbh))
            o slide(3, 1) o map_lcl(0, to_local(id)) $ tile) o slide(4, 2) o pad(1, 1, clamp) $ input
    }

    /// TestIterate.scala: each element read, in the next step, by the work-item that wrote it.
    kernel Iterate<N>(input: [f32; N]) -> [f32; N] {
        iterate(7, map_glb(0, |x| add(1.0, x))) $ input
    }

    /// SumAbsoluteValues.scala: `vectorize` of a function of two arguments as an operator.
    kernel Asum<N, M>(x: [[f32; 4 * M]; N]) -> [f32; 4 * N] {
        as_scalar o map(|row| reduce_seq(vectorize(4, abs_and_sum_up), 0.0) o as_vector(4) $ row) $ x
    }

    /// The vectorised matrix product: `vectorize` of three arguments, applied.
    kernel MatMul<N, K, M>(a: [[f32; 4 * K]; N], bt: [[f32; 4 * K]; M]) -> [[f32; M]; N] {
        map(|r| map(|c| (|v| v[0] + v[1] + v[2] + v[3])
            $ reduce_seq(|acc, next| vectorize(4, mult_and_sum_up)(acc, next.0, next.1), 0.0)
            $ zip(as_vector(4) $ r, as_vector(4) $ c)) $ bt) $ a
    }
}

fn main() {
    let _ = (Tiled::SOURCE, Iterate::SOURCE, Asum::SOURCE, MatMul::SOURCE);
}
