use lift_runtime::lift;

lift! {
    /// `type` is a Rust keyword: the launcher's `run(type: &[f32])` could not be written, so
    /// the parameter is refused where it is declared, saying why.
    kernel Scale<N>(type: [f32; N], alpha: f32) -> [f32; N] {
        map(|v| alpha * v) $ type
    }
}

fn main() {}
