use lift_runtime::lift;

lift! {
    kernel K<N>(x: [f32; N]) -> [[f32; 2]; N / 2] { split(2) o filter_seq(|v| v > 0.0) $ x }
}

fn main() {}
