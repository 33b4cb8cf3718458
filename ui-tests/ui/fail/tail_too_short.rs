use lift_runtime::lift;

lift! {
    kernel K(x: [[f32; 4]; 1]) -> [f32; 4] { join o tail $ x }
}

fn main() {}
