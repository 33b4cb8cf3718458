use lift_runtime::lift;

lift! {
    kernel K(x: f32) -> f32 { reduce(+, 0.0) $ x }
}

fn main() {}
