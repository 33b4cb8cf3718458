use lift_runtime::lift;

lift! {
    fn mult(a: f32, b: f32) -> f32 { a * b }
    kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| mult(v)) $ x }
}

fn main() {}
