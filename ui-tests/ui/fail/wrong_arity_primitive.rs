use lift_runtime::lift;

lift! {
    kernel K<N>(x: [f32; N]) -> [f32; N] { map(id, id) $ x }
}

fn main() {}
