use lift_runtime::lift;

lift! {
    include!("no/such/file.cl");
    kernel K<N>(x: [f32; N]) -> [f32; N] { x }
}

fn main() {}
