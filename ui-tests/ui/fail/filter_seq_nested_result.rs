use lift_runtime::lift;

lift! {
    kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; <= M]; N] { map(filter_seq(|v| v > 0.0)) $ x }
}

fn main() {}
