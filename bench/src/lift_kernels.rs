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

    /// VGG's 3x3 convolution: zero padding 1, stride 1, bias and ReLU; `F` filters over `C`
    /// channels of an `H x W` image (HWC).
    pub kernel Conv<H, W, C, F>(x: [[[f32; C]; W]; H], w: [[[[f32; C]; 3]; 3]; F], b: [f32; F])
        -> [[[f32; F]; W]; H] {
        map2(|win| map(|wb| max(0.0, wb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1)
            $ zip(join o join $ win, join o join $ wb.0)))) $ zip(w, b))
            o slide2(3, 1) o pad2(1, constant([0.0; C])) $ x
    }

    /// `Conv` with `kernel_fission` at the windows, flattened to rows: the rows materialised
    /// (im2col) by a kernel of their own, then the product reads them.
    pub kernel ConvIm2col<H, W, C, F>(x: [[[f32; C]; W]; H], w: [[[[f32; C]; 3]; 3]; F], b: [f32; F])
        -> [[[f32; F]; W]; H] {
        #[kernel_fission] map2(|win| map(|wb| max(0.0, wb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1)
            $ zip(win, join o join $ wb.0)))) $ zip(w, b))
            o map2(join o join) o slide2(3, 1) o pad2(1, constant([0.0; C])) $ x
    }

    /// `Conv` with `kernel_fission` before the windows: the padded input materialised, then a
    /// direct convolution over it.
    pub kernel ConvDirect<H, W, C, F>(x: [[[f32; C]; W]; H], w: [[[[f32; C]; 3]; 3]; F], b: [f32; F])
        -> [[[f32; F]; W]; H] {
        map2(|win| map(|wb| max(0.0, wb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1)
            $ zip(join o join $ win, join o join $ wb.0)))) $ zip(w, b))
            o #[kernel_fission] slide2(3, 1) o pad2(1, constant([0.0; C])) $ x
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

    // Tiled matrix multiplication in the low-level primitives (CGO'17 style), tested in
    // tests/tests/gemm_tiled.rs.
    /// 16x16 output tiles, one output per work-item; 16x16 tiles of A and B staged in local
    /// memory per K-step. Requires N, M and K divisible by 16.
    pub kernel GemmTiled<N, M, K>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        join o map_wrg(1, |arows|
            transpose o join o map_wrg(0, |bcols|
                map_lcl(0, map_lcl(1, id)) o
                reduce_seq(|acc, t| (|(al, bl)|
                    map_lcl(0, |(accc, bc)| map_lcl(1, |(e, ar)|
                        reduce_seq(|s, p| s + p.0 * p.1, e) $ zip(ar, bc)
                    ) $ zip(accc, al)) $ zip(acc, transpose $ bl)
                ) $ (to_local(map_lcl(1, map_lcl(0, id))) o transpose $ t.0,
                     to_local(map_lcl(1, map_lcl(0, id))) $ t.1),
                    to_private(map_lcl(0, |c| map_lcl(1, |r| 0.0f32) $ arows)) $ bcols)
                $ zip(split(16) o transpose $ arows, split(16) o transpose $ bcols)
            ) o split(16) o transpose $ b
        ) o split(16) $ a
    }

    /// 64x64 output tiles computed by 16x16 work-items, each a 4x4 register block (rows
    /// and columns strided by 16); 64x16 and 16x64 tiles of A and B staged in local memory
    /// per K-step, a column of A and a row of B copied to registers per k. Requires N and M
    /// divisible by 64, K by 16.
    pub kernel GemmBlocked<N, M, K>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        join o map_wrg(1, |arows|
            transpose o join o map_wrg(0, |bcols|
                map_seq(join o transpose) o join o transpose o map_seq(transpose)
                o map_lcl(0, map_lcl(1, map_seq_unroll(map_seq_unroll(id)))) o
                reduce_seq(|acc, t| (|(al, bl)|
                    map_lcl(0, |(accc, bb)| map_lcl(1, |(blk, ab)|
                        reduce_seq(|bk, ks| (|(bp, ap)|
                            map_seq_unroll(|(brow, bv)| map_seq_unroll(|(e, av)| e + av * bv) $ zip(brow, ap)) $ zip(bk, bp)
                        ) $ (to_private(map_seq_unroll(id)) $ ks.0, to_private(map_seq_unroll(id)) $ ks.1), blk)
                        $ zip(transpose $ bb, transpose $ ab)
                    ) $ zip(accc, transpose o split(16) $ al)) $ zip(acc, transpose o split(16) o transpose $ bl)
                ) $ (to_local(join o transpose o map_lcl(1, map_seq(map_lcl(0, id))) o transpose o split(16)) o transpose $ t.0,
                     to_local(map_lcl(1, join o map_seq(map_lcl(0, id)) o split(16))) $ t.1),
                    to_private(map_lcl(0, |c| map_lcl(1, |r| map_seq_unroll(|x| map_seq_unroll(|y| 0.0f32) $ r) $ c)
                        $ (transpose o split(16) $ arows))) $ (transpose o split(16) $ bcols))
                $ zip(split(16) o transpose $ arows, split(16) o transpose $ bcols)
            ) o split(64) o transpose $ b
        ) o split(64) $ a
    }
}

lift! {
    /// Low-level GEMM: work-item (j, i) in dimensions (0, 1) computes C[i][j], so that
    /// neighbouring work-items read neighbouring columns of B (coalesced) and share A's row.
    pub kernel GemmGlb<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map_glb(1, |row| map_glb(0, |col| reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32) $ zip(row, col)) o transpose $ b) $ a
    }
}
