use lift_runtime::lift;

lift! {
    kernel K<N>(x: [f32; N]) -> [f32; N + 1] { map(|v| v * 2.0) o take(N + 1) $ x }
}

fn main() {}
