use lift_runtime::lift;

lift! {
    kernel K(x: [f32; 0]) -> [f32; 0] { x }
}

fn main() {}
