use lift_runtime::lift;

lift! {
    kernel K<N>(x: [f32; N]) -> [f32; <= N] { filter_seq(|v| v + 1.0) $ x }
}

fn main() {}
