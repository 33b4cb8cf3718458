use lift_runtime::lift;

lift! {
    fn f(a: f32) -> f32 { for i in 0..3 { } a }
    kernel K<N>(x: [f32; N]) -> [f32; N] { map(f) $ x }
}

fn main() {}
