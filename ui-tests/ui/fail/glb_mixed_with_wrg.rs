use lift_runtime::lift;

lift! {
    kernel K<N>(x: [f32; N]) -> [f32; N] {
        map_glb(0, |v| v) o join o map_wrg(0, map_lcl(0, |v| v)) o split(4) $ x
    }
}

fn main() {}
