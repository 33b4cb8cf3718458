use lift_runtime::lift;

lift! {
    kernel K(x: [f32; 3]) -> [f32; 5] { map(|v| v * 2.0) o take(5) $ x }
}

fn main() {}
