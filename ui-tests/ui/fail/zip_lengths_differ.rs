use lift_runtime::lift;

lift! {
    kernel K<N, M>(x: [f32; N], y: [f32; M]) -> [(f32, f32); N] { zip(x, y) }
}

fn main() {}
