use lift_runtime::lift;

lift! {
    kernel K(x: [f32; 2]) -> [f32; 8] { pad(3, 3, mirror) $ x }
}

fn main() {}
