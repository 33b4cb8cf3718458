use lift_runtime::lift;

lift! {
    kernel K<N>(x: [f32; N]) -> [[f32; 3]; N] { slide(3, 0) $ x }
}

fn main() {}
