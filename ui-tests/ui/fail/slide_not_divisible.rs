use lift_runtime::lift;

lift! {
    kernel K(x: [f32; 10]) -> [[f32; 3]; 4] { slide(3, 2) $ x }
}

fn main() {}
