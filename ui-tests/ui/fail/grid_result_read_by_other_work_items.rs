use lift_runtime::lift;

lift! {
    /// The padding copy reads the results of `map_glb` at other positions than the
    /// work-items that wrote them, in the same kernel.
    kernel Padded<N>(x: [f32; N]) -> [f32; N + 2] {
        pad(1, 1, constant(0.0)) o map_glb(0, |v| v * 2.0) $ x
    }
}

fn main() {}
