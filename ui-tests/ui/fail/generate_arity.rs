use lift_runtime::lift;

lift! {
    kernel K<N>(x: [f32; N]) -> [f32; N] { generate(N, |i, j| (i + j) as f32) }
}

fn main() {}
