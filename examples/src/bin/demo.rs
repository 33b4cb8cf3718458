//! The README demo: the 3-point stencil of SPEC section 2, type-checked at build time by
//! `lift!`, evaluated by the reference interpreter.

use lift_runtime::core::interp::{run_kernel, Value};
use lift_runtime::core::{parse, typeck};
use lift_runtime::lift;

lift! {
    /// 3-point sum with clamped borders (the stencil of the seeds).
    pub kernel Blur3<N>(input: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!(
        "Blur3, type-checked by lift! at build time:\n{}",
        Blur3::LIFT
    );
    println!("result type: {}", Blur3::RESULT_TYPE);
    let mut prog = parse::parse_program_str(Blur3::LIFT)?;
    typeck::check_program(&mut prog)?;
    let input = [1.0f32, 2.0, 3.0, 4.0, 5.0];
    let out = run_kernel(
        &prog,
        "Blur3",
        &[input.len() as i64],
        &[Value::from_f32s(&input)],
    )?;
    let out = out.as_f32s().ok_or("Blur3 did not return f32s")?;
    println!("input  {input:?}\noutput {out:?}");
    if out != [4.0, 6.0, 9.0, 12.0, 14.0] {
        return Err(format!("unexpected result {out:?}").into());
    }
    println!("ok: matches the worked example [4 6 9 12 14]");
    Ok(())
}
