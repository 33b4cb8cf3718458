use lift_runtime::lift;

lift! {
    kernel K<N>(x: [(f32, f32); N]) -> [f32; N] { map(|p| p.2) $ x }
}

fn main() {}
