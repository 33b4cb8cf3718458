//! The programs of the "spellings and sizes" benchmark (`workloads::spellings`): each
//! workload as users write it, in several spellings of the same function. SPEC section 5:
//! they should reach the same low-level candidates and the same speed.

#![allow(missing_docs)]

use lift_runtime::lift;

lift! {
    fn mult(x: f32, y: f32) -> f32 { x * y }
    fn add(x: f32, y: f32) -> f32 { x + y }

    /// GEMM (a): projections, `$ transpose $ b`.
    pub kernel GemmProj<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) $ transpose $ b) $ a
    }
    /// GEMM (b): a tuple pattern, `o transpose $ b`.
    pub kernel GemmTuple<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(+, 0.0) o map(|(x, y)| x * y) $ zip(r, c)) o transpose $ b) $ a
    }
    /// GEMM (c): user functions, applications instead of compositions.
    pub kernel GemmUserFn<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(add, 0.0) $ map(|p| mult(p.0, p.1)) $ zip(r, c)) o transpose $ b) $ a
    }
    /// GEMM (e): BLAS `sgemm`, `alpha * A·B + beta * C` with C zipped with the rows (run with
    /// `alpha = 1`, `beta = 0`).
    pub kernel GemmBlas<N, K, M>(alpha: f32, beta: f32, a: [[f32; K]; N], b: [[f32; M]; K], c: [[f32; M]; N]) -> [[f32; M]; N] {
        map(|(ra, rc)| map(|(cb, x)| alpha * (reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(ra, cb)) + beta * x) $ zip(transpose $ b, rc)) $ zip(a, c)
    }
    /// GEMM (d): B given transposed, `A · Btᵀ`.
    pub kernel GemmBt<N, K, M>(a: [[f32; K]; N], bt: [[f32; K]; M]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(r, c)) $ bt) $ a
    }
    /// GEMM (f): A given transposed, `Atᵀ · B`.
    pub kernel GemmAt<N, K, M>(a_t: [[f32; N]; K], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|r| map(|c| reduce(+, 0.0) o map(|(x, y)| x * y) $ zip(r, c)) $ transpose $ b) $ transpose $ a_t
    }

    /// Jacobi 2-D (a): `map2`, short forms.
    pub kernel JacobiMap2<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
    }
    /// Jacobi 2-D (b): full argument forms, the terms in another order, the factor last.
    pub kernel JacobiFull<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|w| (w[1][1] + w[0][1] + w[2][1] + w[1][0] + w[1][2]) * 0.2) o slide2(3, 1, 3, 1) o pad2(1, 1, 1, 1, clamp) $ x
    }
    /// Jacobi 2-D (c): nested 1-D primitives.
    pub kernel JacobiNested<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map(|rows| map(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o transpose o map(slide(3, 1)) $ rows) o slide(3, 1) o pad(1, 1, clamp) o map(pad(1, 1, clamp)) $ x
    }
    /// Jacobi 3-D (a): `map3 o slide3(3, 1) o pad3(1, clamp)`, 7 points.
    pub kernel Jacobi3Map3<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] {
        map3(|c| 0.142857 * (c[0][1][1] + c[1][0][1] + c[1][1][0] + c[1][1][1] + c[1][1][2] + c[1][2][1] + c[2][1][1])) o slide3(3, 1) o pad3(1, clamp) $ x
    }
    /// Jacobi 3-D (b): nested 1-D `map`/`slide`/`pad`, windows built per dimension.
    pub kernel Jacobi3Nested<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] {
        map(|planes| map(|rows| map(|c| 0.142857 * (c[0][1][1] + c[1][0][1] + c[1][1][0] + c[1][1][1] + c[1][1][2] + c[1][2][1] + c[2][1][1])) o transpose o map(transpose) o map(map(slide(3, 1))) $ rows) o transpose o map(slide(3, 1)) $ planes) o slide(3, 1) o pad(1, 1, clamp) o map(pad(1, 1, clamp)) o map(map(pad(1, 1, clamp))) $ x
    }

    /// GEMV (a): projections.
    pub kernel GemvProj<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
        map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a
    }
    /// GEMV (b): a tuple pattern, a lambda for `+`, applications.
    pub kernel GemvTuple<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
        map(|row| reduce(|s, t| s + t, 0.0) $ map(|(u, v)| u * v) $ zip(row, x)) $ a
    }
    /// GEMV (c): the matrix given transposed (`mt` is M x N), `transpose $ mt`.
    pub kernel GemvT<N, M>(mt: [[f32; N]; M], x: [f32; M]) -> [f32; N] {
        map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(col, x)) $ transpose $ mt
    }

    /// The README's 3-point blur (a): `reduce` over each window.
    pub kernel BlurReduce<N>(x: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x
    }
    /// The 3-point blur (b): the window's elements named, weights of one.
    pub kernel BlurIndexed<N>(x: [f32; N]) -> [f32; N] {
        map(|w| w[0] + w[1] + w[2]) o slide(3, 1) o pad(1, 1, clamp) $ x
    }
    /// The 3-point blur (c): a lambda, applications with `$`.
    pub kernel BlurLambda<N>(x: [f32; N]) -> [f32; N] {
        map(|w| reduce(|s, v| s + v, 0.0) $ w) $ slide(3, 1) $ pad(1, 1, clamp) $ x
    }

    /// `x + 2 y` (a): a producer map inside the zip.
    pub kernel ZipComputed<N>(x: [f32; N], y: [f32; N]) -> [f32; N] {
        map(|p| p.0 + p.1) $ zip(x, map(|v| v * 2.0) $ y)
    }
    /// `x + 2 y` (b): fused by hand, one map over the zip.
    pub kernel ZipFused<N>(x: [f32; N], y: [f32; N]) -> [f32; N] {
        map(|p| p.0 + 2.0 * p.1) $ zip(x, y)
    }
    /// `x + 2 y` (c): (a) with a tuple pattern.
    pub kernel ZipTuple<N>(x: [f32; N], y: [f32; N]) -> [f32; N] {
        map(|(u, v)| u + v) $ zip(x, map(|v| v * 2.0) $ y)
    }
    /// `x + 2 y` (d): two maps over the zip, tuple patterns, a tuple built in between.
    pub kernel ZipTwoMaps<N>(x: [f32; N], y: [f32; N]) -> [f32; N] {
        map(|(u, v)| u + v) o map(|(u, v)| (u, v * 2.0)) $ zip(x, y)
    }

    /// Transpose (a): a copy through `map(map(id)) o transpose`.
    pub kernel TransposeMaps<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] {
        map(map(id)) o transpose $ x
    }
    /// Transpose (b): lambdas, `$ transpose $ x`.
    pub kernel TransposeLambdas<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] {
        map(|col| map(|v| v) $ col) $ transpose $ x
    }
    /// Transpose (c): the copy writes transposed, `transpose_w`.
    pub kernel TransposeOnWrite<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] {
        transpose_w o map(map(id)) $ x
    }
    /// Transpose (d): the view alone.
    pub kernel TransposeBare<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] {
        transpose $ x
    }
}
