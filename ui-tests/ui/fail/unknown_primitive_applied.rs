use lift_runtime::lift;

// A primitive lift-rs does not have, applied to its arguments: the same message as any
// unknown name (not "expected a function, found data").
lift! {
    kernel K<N>(x: [f32; N]) -> [f32; N] { scan_par(+, 0.0) $ x }
}

fn main() {}
