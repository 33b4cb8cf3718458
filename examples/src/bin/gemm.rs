//! GEMM on the default device (`LIFT_DEVICE`): the high-level program with the default
//! lowering, the low-level `map_glb` version, and the tiled low-level versions (local-memory
//! tiles; 4x4 and 8x8 register blocks). Checks a sample of entries against the CPU, times
//! each with OpenCL profiling events (median of the runs) and prints GFLOP/s.
//!
//! `cargo run --release -p examples --bin gemm -- [SIZE] [--runs R] [--source]`
//! (SIZE: N = M = K, default 1024, a multiple of 128; `--source` prints the 8x8 kernel.)

use lift_runtime::{lift, Buffer, Context, Error, Event};

lift! {
    /// The high-level program; the compiler chooses the lowering.
    kernel Gemm<N, M, K>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|row| map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, col)) o transpose $ b) $ a
    }

    /// One work-item per output: `map_glb` over rows and columns.
    kernel GemmGlb<N, M, K>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map_glb(1, |row| map_glb(0, |col| reduce_seq(|acc, p| acc + p.0 * p.1, 0.0f32) $ zip(row, col)) o transpose $ b) $ a
    }

    /// 16x16 output tiles, one output per work-item; 16x16 tiles of A and B staged in local
    /// memory per K-step. Requires N, M and K divisible by 16.
    kernel GemmTiled<N, M, K>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
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
    kernel GemmBlocked<N, M, K>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
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

    /// The same with 128x128 output tiles and an 8x8 register block per work-item. Requires
    /// N and M divisible by 128, K by 16.
    kernel GemmBlocked8<N, M, K>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
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
            ) o split(128) o transpose $ b
        ) o split(128) $ a
    }

    /// The 8x8 version with the loop over k inside a K-tile unrolled.
    kernel GemmBlocked8U<N, M, K>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        join o map_wrg(1, |arows|
            transpose o join o map_wrg(0, |bcols|
                map_seq(join o transpose) o join o transpose o map_seq(transpose)
                o map_lcl(0, map_lcl(1, map_seq_unroll(map_seq_unroll(id)))) o
                reduce_seq(|acc, t| (|(al, bl)|
                    map_lcl(0, |(accc, bb)| map_lcl(1, |(blk, ab)|
                        reduce_seq_unroll(|bk, ks| (|(bp, ap)|
                            map_seq_unroll(|(brow, bv)| map_seq_unroll(|(e, av)| e + av * bv) $ zip(brow, ap)) $ zip(bk, bp)
                        ) $ (to_private(map_seq_unroll(id)) $ ks.0, to_private(map_seq_unroll(id)) $ ks.1), blk)
                        $ zip(transpose $ bb, transpose $ ab)
                    ) $ zip(accc, transpose o split(16) $ al)) $ zip(acc, transpose o split(16) o transpose $ bl)
                ) $ (to_local(join o transpose o map_lcl(1, map_seq(map_lcl(0, id))) o transpose o split(16)) o transpose $ t.0,
                     to_local(map_lcl(1, join o map_seq(map_lcl(0, id)) o split(16))) $ t.1),
                    to_private(map_lcl(0, |c| map_lcl(1, |r| map_seq_unroll(|x| map_seq_unroll(|y| 0.0f32) $ r) $ c)
                        $ (transpose o split(16) $ arows))) $ (transpose o split(16) $ bcols))
                $ zip(split(16) o transpose $ arows, split(16) o transpose $ bcols)
            ) o split(128) o transpose $ b
        ) o split(128) $ a
    }
}

/// Launches one kernel on `(n, n, n)` device buffers.
type LaunchFn<'a> = Box<dyn Fn(&Buffer<f32>) -> Result<Event, Error> + 'a>;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Deterministic pseudo-random values in [-1, 1).
fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

/// Largest error of a sample of entries of `c = a x b` against an f64 CPU dot product,
/// relative to the sum of the absolute products.
fn sample_error(a: &[f32], b: &[f32], c: &[f32], n: usize) -> f64 {
    (0..256usize)
        .map(|s| {
            let (i, j) = ((s * 7919 + 13) % n, (s * 104_729 + 5) % n);
            let (mut dot, mut mag) = (0.0f64, 0.0f64);
            for p in 0..n {
                let t = f64::from(a[i * n + p]) * f64::from(b[p * n + j]);
                dot += t;
                mag += t.abs();
            }
            (f64::from(c[i * n + j]) - dot).abs() / mag.max(1e-30)
        })
        .fold(0.0, f64::max)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut n, mut runs, mut source) = (1024usize, 10usize, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().ok_or("--runs needs a count")?.parse()?,
            "--source" => source = true,
            size => n = size.parse()?,
        }
    }
    if source {
        println!("{}", GemmBlocked8::SOURCE);
    }
    let ctx = Context::new()?;
    println!(
        "device: {}; N = M = K = {n}; median of {runs} runs",
        ctx.device_info().name
    );
    let (ha, hb) = (values(n * n, 1), values(n * n, 2));
    let (a, b) = (ctx.upload(&ha)?, ctx.upload(&hb)?);
    let out = ctx.alloc::<f32>(n * n)?;
    let (naive, glb) = (Gemm::new(&ctx)?, GemmGlb::new(&ctx)?);
    let b8u = GemmBlocked8U::new(&ctx)?;
    let (tiled, b4, b8) = (
        GemmTiled::new(&ctx)?,
        GemmBlocked::new(&ctx)?,
        GemmBlocked8::new(&ctx)?,
    );
    let versions: Vec<(&str, LaunchFn)> = vec![
        (
            "high-level (default lowering)",
            Box::new(|o| naive.launch(n, n, n, &a, &b, o)),
        ),
        (
            "map_glb(1)/map_glb(0)",
            Box::new(|o| glb.launch(n, n, n, &a, &b, o)),
        ),
        (
            "tiled 16x16, local memory",
            Box::new(|o| tiled.launch(n, n, n, &a, &b, o)),
        ),
        (
            "tiled 64x64, 4x4 registers",
            Box::new(|o| b4.launch(n, n, n, &a, &b, o)),
        ),
        (
            "tiled 128x128, 8x8 registers",
            Box::new(|o| b8.launch(n, n, n, &a, &b, o)),
        ),
        (
            "tiled 128x128, 8x8 registers, k unrolled",
            Box::new(|o| b8u.launch(n, n, n, &a, &b, o)),
        ),
    ];
    let flops = 2.0 * (n as f64).powi(3);
    println!("| version | median ms | GFLOP/s | max rel err (256 entries) |");
    println!("|---|--:|--:|--:|");
    for (name, launch) in &versions {
        launch(&out)?.wait()?;
        let err = sample_error(&ha, &hb, &out.download()?, n);
        let mut times = Vec::with_capacity(runs);
        for _ in 0..runs {
            let ev = launch(&out)?;
            ev.wait()?;
            times.push(ev.profile_ns()? as f64 * 1e-6);
        }
        let ms = median(times);
        let status = if err < 1e-5 { "" } else { " WRONG" };
        println!(
            "| {name} | {ms:.3} | {:.0} | {err:.1e}{status} |",
            flops / ms * 1e-6
        );
    }
    Ok(())
}
