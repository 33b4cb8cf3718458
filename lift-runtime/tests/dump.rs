//! `LIFT_DUMP=dir` through the generated launcher: a child process (this test binary, one
//! ignored test) builds and runs a `lift!` kernel with the variable set; the parent checks the
//! files. Also: `DynKernel` has the launcher's kernel id (they share tuning cache entries).

use lift_runtime::{lift, Context, DynKernel};
use std::process::Command;

lift! {
    /// 3-point sum with clamped borders.
    kernel DumpBlur<N>(input: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input
    }
}

/// The same kernel as text (doc comment included: it is part of the kernel's `LIFT` text).
const TEXT: &str = "
    /// 3-point sum with clamped borders.
    kernel DumpBlur<N>(input: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input
    }";

/// Run by `launcher_dumps_what_it_builds` in a child process with `LIFT_DUMP` set.
#[test]
#[ignore = "spawned by launcher_dumps_what_it_builds with LIFT_DUMP set"]
fn child_builds_and_runs() {
    if std::env::var_os("LIFT_DUMP").is_none() {
        return;
    }
    let ctx = Context::new().expect("device");
    let k = DumpBlur::new(&ctx).expect("build");
    // N = 5: the default runs (the exact strips of four need N - 4 divisible by 4).
    let out = k.run(5, &[1.0, 2.0, 3.0, 4.0, 5.0]).expect("run");
    assert_eq!(out, vec![4.0, 6.0, 9.0, 12.0, 14.0]);
}

fn child(dump: &std::path::Path) -> std::process::Output {
    Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "child_builds_and_runs",
            "--exact",
            "--ignored",
            "--nocapture",
        ])
        .env("LIFT_DUMP", dump)
        .output()
        .expect("child runs")
}

#[test]
fn launcher_dumps_what_it_builds() {
    let dir = std::env::temp_dir().join(format!("lift-dump-launcher-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = child(&dir);
    assert!(
        out.status.success(),
        "child failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The default (the first candidate without conditions) ran.
    let ctx = Context::new().expect("device");
    let k = DumpBlur::new(&ctx).expect("build");
    let cands = k.candidates().expect("candidates");
    let c = cands
        .iter()
        .position(|c| c.conditions.is_empty())
        .expect("a default candidate");
    let folder = lift_runtime::dump::candidate_dir(&dir, "DumpBlur", c, &cands[c].name);
    let read =
        |f: &str| std::fs::read_to_string(folder.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    assert_eq!(read("kernel.cl").trim_end(), DumpBlur::SOURCE.trim_end());
    assert_eq!(
        read("lowered.lift").trim_end(),
        DumpBlur::LOWERED.trim_end()
    );
    assert_eq!(read("program.lift").trim_end(), DumpBlur::LIFT.trim_end());
    let info = read("candidate.txt");
    assert!(info.contains("built by: launcher"), "{info}");
    assert!(info.contains("kernel: DumpBlur"), "{info}");

    // An unwritable dump directory (a path under a file): the child still succeeds and warns.
    let file = dir.join("a-file");
    std::fs::write(&file, "").expect("file");
    let out = child(&file.join("dump"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed: {stderr}");
    assert_eq!(
        stderr.matches("cannot write the kernel dump").count(),
        1,
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dyn_kernel_has_the_launchers_kernel_id() {
    let ctx = Context::new().expect("device");
    let dk = DynKernel::compile(&ctx, TEXT, "DumpBlur").expect("compile");
    assert_eq!(dk.lift_text(), DumpBlur::LIFT);
    assert_eq!(
        dk.kernel_id(),
        lift_runtime::__private::kernel_id("DumpBlur", DumpBlur::LIFT)
    );
}
