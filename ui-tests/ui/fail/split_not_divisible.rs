use lift_runtime::lift;

lift! {
    kernel K(x: [f32; 10]) -> [[f32; 4]; 2] { split(4) $ x }
}

fn main() {}
