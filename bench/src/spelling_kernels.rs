//! The programs of the "spellings and sizes" benchmark: each workload as users write it, in
//! several spellings of the same function (see `workloads::spellings`).

#![allow(missing_docs)]

use lift_runtime::lift;

lift! {
    fn mult(x: f32, y: f32) -> f32 { x * y }
    fn add(x: f32, y: f32) -> f32 { x + y }

    /// GEMM, projections, `$ transpose $ b`.
    pub kernel GemmProj<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) $ transpose $ b) $ a
    }
    /// GEMM, a tuple pattern, `o transpose $ b`.
    pub kernel GemmTuple<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(+, 0.0) o map(|(x, y)| x * y) $ zip(r, c)) o transpose $ b) $ a
    }
    /// GEMM, user functions, applications instead of compositions.
    pub kernel GemmUserFn<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(add, 0.0) $ map(|p| mult(p.0, p.1)) $ zip(r, c)) o transpose $ b) $ a
    }
    /// GEMM with B given transposed (A·Bᵀ).
    pub kernel GemmNt<N, K, M>(a: [[f32; K]; N], bt: [[f32; K]; M]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) $ bt) $ a
    }

    /// Jacobi 2-D, `map2`, short forms.
    pub kernel JacobiMap2<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
    }
    /// Jacobi 2-D, full argument forms, terms in another order.
    pub kernel JacobiFull<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map(map(|w| 0.2 * (w[1][1] + w[0][1] + w[2][1] + w[1][0] + w[1][2]))) o slide2(3, 1, 3, 1) o pad2(1, 1, 1, 1, clamp) $ x
    }
    /// Jacobi 2-D with nested 1-D primitives.
    pub kernel JacobiNested<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map(|rows| map(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o transpose o map(slide(3, 1)) $ rows) o slide(3, 1) o pad(1, 1, clamp) o map(pad(1, 1, clamp)) $ x
    }

    /// GEMV, projections.
    pub kernel GemvProj<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
        map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a
    }
    /// GEMV, a tuple pattern and a lambda for `+`.
    pub kernel GemvTuple<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
        map(|row| reduce(|s, t| s + t, 0.0) $ map(|(u, v)| u * v) $ zip(row, x)) $ a
    }
    /// GEMV with the matrix given transposed (`Aᵀ x` of an M x N array).
    pub kernel GemvT<N, M>(mt: [[f32; N]; M], x: [f32; M]) -> [f32; N] {
        map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(col, x)) $ transpose $ mt
    }

    /// `x + 2 y` with the producer map inside the zip.
    pub kernel ZipComputed<N>(x: [f32; N], y: [f32; N]) -> [f32; N] {
        map(|p| p.0 + p.1) $ zip(x, map(|v| v * 2.0) $ y)
    }
    /// The same, one map over the zip.
    pub kernel ZipFused<N>(x: [f32; N], y: [f32; N]) -> [f32; N] {
        map(|p| p.0 + 2.0 * p.1) $ zip(x, y)
    }
    /// The same, a tuple pattern and two maps.
    pub kernel ZipTwoMaps<N>(x: [f32; N], y: [f32; N]) -> [f32; N] {
        map(|(u, v)| u + v) o map(|(u, v)| (u, v * 2.0)) $ zip(x, y)
    }
}
