use lift_runtime::lift;

lift! {
    kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| v) o generate(N, |i| 1.0) $ x }
}

fn main() {}
