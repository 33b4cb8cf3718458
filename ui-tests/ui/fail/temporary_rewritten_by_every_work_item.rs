use lift_runtime::lift;

lift! {
    /// The rows are computed by sequential code that every work-item runs before the
    /// `map_wrg`, into one temporary row rewritten for each row: work-items would overwrite
    /// the row another is reading.
    kernel Rows<N, M>(x: [[f32; M]; N], alpha: f32) -> [[f32; 4]; N / 4] {
        map_wrg(0, to_local(map_lcl(0, |v| v * alpha))) o split(4)
            $ map_seq(|r| (reduce_seq(+, 0.0) $ r) - r[0]) $ map_seq(map_seq(|v| v - 0.5)) $ x
    }
}

fn main() {}
