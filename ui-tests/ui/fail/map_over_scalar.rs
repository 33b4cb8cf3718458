use lift_runtime::lift;

lift! {
    kernel K(x: f32) -> f32 { map(|v| v) $ x }
}

fn main() {}
