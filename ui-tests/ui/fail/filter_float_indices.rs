use lift_runtime::lift;

lift! {
    kernel K<N, M>(x: [f32; N], ids: [f32; M]) -> [f32; M] { filter(x, ids) }
}

fn main() {}
