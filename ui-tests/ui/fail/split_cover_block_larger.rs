use lift_runtime::lift;

lift! {
    kernel K(x: [f32; 5]) -> [[f32; 8]; 1] { split_cover(8) $ x }
}

fn main() {}
