use lift_runtime::lift;

lift! {
    kernel K<N>(x: [f32; N]) -> [[f32; 1]; N] { split(0) $ x }
}

fn main() {}
