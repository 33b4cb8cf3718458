use lift_runtime::lift;

lift! {
    kernel K(x: [f32; 6]) -> [f32x4; 1] { as_vector(4) $ x }
}

fn main() {}
