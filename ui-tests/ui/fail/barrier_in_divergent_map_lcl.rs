use lift_runtime::lift;

lift! {
    /// Each row is reversed between two `map_lcl(0)`s, which needs a barrier; but the rows
    /// are a `map_lcl(1)` over `M` rows, a loop strided by the work-group's height that some
    /// work-items run once more than others: a barrier inside is not reached by all.
    kernel Rows<M, G>(x: [[[[f32; 32]; M]; G]; G]) -> [[[[f32; 32]; M]; G]; G] {
        map_wrg(1, map_wrg(0, map_lcl(1, map_lcl(0, |v| v * 2.0) o gather(reverse)
            o to_local(map_lcl(0, |v| v + 1.0))))) $ x
    }
}

fn main() {}
