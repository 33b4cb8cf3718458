use lift_runtime::lift;

lift! {
    /// `at` is the primitive `at(i)`: a parameter of that name is refused where it is declared.
    kernel GemvT<N, M>(at: [[f32; N]; M], x: [f32; M]) -> [f32; N] {
        map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(col, x)) $ transpose $ at
    }
}

fn main() {}
