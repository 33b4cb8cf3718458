#![deny(deprecated)]
use lift_runtime::lift;

lift! {
    kernel K<N>(x: [f32; N]) -> f32 { #[split_join(4)] reduce(+, 0.0) $ x }
}

fn main() {}
