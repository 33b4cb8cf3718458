//! The lift-rs programs of the suite: each workload in high-level SPEC syntax (lowered by the
//! default strategy) and, where it is better, a hand-written low-level program.

#![allow(missing_docs)]

use lift_runtime::lift;

lift! {
    /// Sum, high level.
    pub kernel Sum<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ x }

    /// Sum of absolute values, high level.
    pub kernel Asum<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) o map(|v| abs(v)) $ x }

    /// Dot product, high level.
    pub kernel Dot<N>(x: [f32; N], y: [f32; N]) -> f32 {
        reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(x, y)
    }

    /// Matrix-vector product, high level.
    pub kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
        map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a
    }

    /// Matrix product, high level: rows of A against the columns (transpose) of B.
    pub kernel Gemm<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|row| map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, col)) o transpose $ b) $ a
    }

    /// 2-D Jacobi, 5 points, clamped borders.
    pub kernel Jacobi2d<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
    }

    /// 5x5 Gaussian blur (binomial weights / 256), clamped borders.
    pub kernel Gauss5<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.00390625 * nbh[0][0] + 0.015625 * nbh[0][1] + 0.0234375 * nbh[0][2] + 0.015625 * nbh[0][3] + 0.00390625 * nbh[0][4]
            + 0.015625 * nbh[1][0] + 0.0625 * nbh[1][1] + 0.09375 * nbh[1][2] + 0.0625 * nbh[1][3] + 0.015625 * nbh[1][4]
            + 0.0234375 * nbh[2][0] + 0.09375 * nbh[2][1] + 0.140625 * nbh[2][2] + 0.09375 * nbh[2][3] + 0.0234375 * nbh[2][4]
            + 0.015625 * nbh[3][0] + 0.0625 * nbh[3][1] + 0.09375 * nbh[3][2] + 0.0625 * nbh[3][3] + 0.015625 * nbh[3][4]
            + 0.00390625 * nbh[4][0] + 0.015625 * nbh[4][1] + 0.0234375 * nbh[4][2] + 0.015625 * nbh[4][3] + 0.00390625 * nbh[4][4]) o slide2(5, 1) o pad2(2, clamp) $ x
    }

    /// 3-D Jacobi, 7 points, clamped borders.
    pub kernel Jacobi3d<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] {
        map3(|nbh| 0.142857 * (nbh[0][1][1] + nbh[1][0][1] + nbh[1][1][0] + nbh[1][1][1] + nbh[1][1][2] + nbh[1][2][1] + nbh[2][1][1])) o slide3(3, 1) o pad3(1, clamp) $ x
    }

    /// Separable 17x17 convolution, row pass (triangle weights / 81), clamped borders.
    pub kernel ConvRow<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.01234568 * nbh[0][0] + 0.02469136 * nbh[0][1] + 0.03703704 * nbh[0][2] + 0.04938272 * nbh[0][3] + 0.0617284 * nbh[0][4] + 0.07407407 * nbh[0][5] + 0.08641975 * nbh[0][6] + 0.09876543 * nbh[0][7] + 0.11111111 * nbh[0][8] + 0.09876543 * nbh[0][9] + 0.08641975 * nbh[0][10] + 0.07407407 * nbh[0][11] + 0.0617284 * nbh[0][12] + 0.04938272 * nbh[0][13] + 0.03703704 * nbh[0][14] + 0.02469136 * nbh[0][15] + 0.01234568 * nbh[0][16]) o slide2(1, 1, 17, 1) o pad2(0, 0, 8, 8, clamp) $ x
    }

    /// Separable 17x17 convolution, column pass.
    pub kernel ConvCol<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.01234568 * nbh[0][0] + 0.02469136 * nbh[1][0] + 0.03703704 * nbh[2][0] + 0.04938272 * nbh[3][0] + 0.0617284 * nbh[4][0] + 0.07407407 * nbh[5][0] + 0.08641975 * nbh[6][0] + 0.09876543 * nbh[7][0] + 0.11111111 * nbh[8][0] + 0.09876543 * nbh[9][0] + 0.08641975 * nbh[10][0] + 0.07407407 * nbh[11][0] + 0.0617284 * nbh[12][0] + 0.04938272 * nbh[13][0] + 0.03703704 * nbh[14][0] + 0.02469136 * nbh[15][0] + 0.01234568 * nbh[16][0]) o slide2(17, 1, 1, 1) o pad2(8, 8, 0, 0, clamp) $ x
    }

    /// Low level, first pass of a sum: each work-group of 256 reduces 65536 elements, each
    /// work-item a coalesced stride-256 column of them (transpose o split(256)).
    pub kernel SumPartial<N>(x: [f32; N]) -> [f32; N / 65536 * 256] {
        join o map_wrg(0, map_lcl(0, reduce_seq(|acc, v| acc + v, 0.0f32)) o transpose o split(256)) o split(65536) $ x
    }

    /// Low level, first pass of asum (same shape as `SumPartial`).
    pub kernel AsumPartial<N>(x: [f32; N]) -> [f32; N / 65536 * 256] {
        join o map_wrg(0, map_lcl(0, reduce_seq(|acc, v| acc + abs(v), 0.0f32)) o transpose o split(256)) o split(65536) $ x
    }

    /// Low level, first pass of dot (same shape as `SumPartial`).
    pub kernel DotPartial<N>(x: [f32; N], y: [f32; N]) -> [f32; N / 65536 * 256] {
        join o map_wrg(0, map_lcl(0, reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32)) o transpose o split(256)) o split(65536) $ zip(x, y)
    }
}

lift! {
    /// Low-level GEMM: work-item (j, i) in dimensions (0, 1) computes C[i][j], so that
    /// neighbouring work-items read neighbouring columns of B (coalesced) and share A's row.
    pub kernel GemmGlb<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map_glb(1, |row| map_glb(0, |col| reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32) $ zip(row, col)) o transpose $ b) $ a
    }
}
