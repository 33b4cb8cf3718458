//! Lists the OpenCL devices lift-rs can use and the one `Context::new()` would pick.

use std::process::ExitCode;

fn main() -> ExitCode {
    let devices = match lift_runtime::devices() {
        Ok(devices) => devices,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    for d in &devices {
        println!(
            "{d}\n    {} | max work-group {} | work-item sizes {:?} | local {} KiB | global {} MiB | fp64 {} | fp16 {}",
            d.version,
            d.max_work_group_size,
            d.max_work_item_sizes,
            d.local_mem_bytes / 1024,
            d.global_mem_bytes / (1024 * 1024),
            d.fp64,
            d.fp16
        );
    }
    match lift_runtime::Context::new() {
        Ok(ctx) => {
            println!("Context::new() picks device {}", ctx.device_info().index);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: Context::new(): {e}");
            ExitCode::FAILURE
        }
    }
}
