use lift_runtime::lift;

lift! {
    kernel K<N>(x: [f32; N]) -> [f32; <= N] { map_glb(|v| v + 1.0) o filter_seq(|v| v > 0.0) $ x }
}

fn main() {}
