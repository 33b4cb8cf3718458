use lift_runtime::lift;

lift! {
    kernel K(x: [f32; 3]) -> f32 { at(3) $ x }
}

fn main() {}
