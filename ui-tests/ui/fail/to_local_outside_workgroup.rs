use lift_runtime::lift;

lift! {
    kernel K<N>(x: [f32; N]) -> [f32; N] { to_local(map_seq(id)) $ x }
}

fn main() {}
