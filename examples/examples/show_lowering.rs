//! Prints what the default lowering makes of a few high-level kernels: the low-level
//! expression (`LOWERED`) and the OpenCL C (`SOURCE`). `docs/LOWERING.md` shows its output.
//!
//! `cargo run --example show_lowering`

use lift_runtime::lift;

lift! {
    /// Dot product: a full reduction of a fused map.
    kernel Dot<N>(x: [f32; N], y: [f32; N]) -> f32 {
        reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(x, y)
    }

    /// Matrix-vector product: a map of reductions.
    kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
        map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a
    }

    /// Scaled sum of two vectors: two maps fused into one.
    kernel Axpy<N>(x: [f32; N], y: [f32; N], a: f32) -> [f32; N] {
        map(|p| p.0 + p.1) o map(|p| (a * p.0, p.1)) $ zip(x, y)
    }

    /// The README stencil.
    kernel Blur3<N>(input: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input
    }
}

fn main() {
    for (name, lift, lowered, source) in [
        ("Dot", Dot::LIFT, Dot::LOWERED, Dot::SOURCE),
        ("Gemv", Gemv::LIFT, Gemv::LOWERED, Gemv::SOURCE),
        ("Axpy", Axpy::LIFT, Axpy::LOWERED, Axpy::SOURCE),
        ("Blur3", Blur3::LIFT, Blur3::LOWERED, Blur3::SOURCE),
    ] {
        println!(
            "## {name}\n\nAs written:\n\n```text\n{}\n```\n",
            lift.trim()
        );
        println!(
            "Lowered:\n\n```text\n{lowered}\n```\n\nOpenCL C:\n\n```c\n{}\n```\n",
            source.trim()
        );
    }
}
