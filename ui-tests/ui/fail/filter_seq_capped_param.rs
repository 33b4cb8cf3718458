use lift_runtime::lift;

lift! {
    kernel K<N>(x: [f32; <= N]) -> f32 { reduce(+, 0.0) $ x }
}

fn main() {}
