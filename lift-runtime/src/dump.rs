//! The dump switch: `LIFT_DUMP=dir` writes, for every kernel candidate the runtime builds (the
//! generated launcher's build path and [`crate::DynKernel`]), its high-level program, the
//! candidate, the low-level expression and the OpenCL C into `dir`, and every tuning result,
//! the way LIFT dumped its kernels.
//!
//! Layout (one folder per kernel name, one per candidate inside it):
//!
//! ```text
//! dir/<Kernel>/<NN>-<candidate>/program.lift   the kernel and the user functions it calls
//!                               candidate.txt  name, tuning parameters, conditions, kernel id, builder
//!                               lowered.lift   the low-level expression compiled
//!                               kernel.cl      the OpenCL C program
//! dir/<Kernel>/tune-<sizes>.txt                the tuner's outcome per candidate and its choice
//! dir/<Kernel>/dropped.txt                      derivations that did not become candidates, and why
//! ```
//!
//! `NN` is the candidate's index in the explorer's order. Writing never fails a build: when
//! `dir` cannot be written, one warning goes to stderr and nothing is dumped.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// The environment variable naming the dump directory (`LIFT_DUMP=dir`).
pub const DUMP_ENV: &str = "LIFT_DUMP";

/// Set once the warning about an unwritable dump directory was printed.
static WARNED: AtomicBool = AtomicBool::new(false);

/// The dump directory named by `LIFT_DUMP`, if it is set and not empty.
pub fn dump_dir() -> Option<PathBuf> {
    match std::env::var_os(DUMP_ENV) {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => None,
    }
}

/// One built candidate of a kernel, as [`write_kernel`] writes it.
#[derive(Clone, Debug)]
pub struct KernelDump<'a> {
    /// The kernel's name.
    pub kernel: &'a str,
    /// The kernel's id in the tuning cache (name and a hash of its program text).
    pub kernel_id: &'a str,
    /// The high-level program: the kernel with the user functions it calls.
    pub lift: &'a str,
    /// The candidate's index in the explorer's order.
    pub index: usize,
    /// The candidate's name, `strategy(parameter=value, ...)`.
    pub candidate: &'a str,
    /// Its tuning parameters.
    pub params: &'a [(&'a str, i64)],
    /// The conditions under which it applies (`; `-separated, empty for every size).
    pub conditions: &'a str,
    /// The low-level expression compiled.
    pub lowered: &'a str,
    /// The OpenCL C program.
    pub source: &'a str,
    /// Who built it: `launcher` (a `lift!` kernel) or `DynKernel`.
    pub builder: &'a str,
}

/// One candidate's outcome in a tuning run: its median time in milliseconds, or why it was
/// not valid.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateOutcome {
    /// The candidate's name.
    pub name: String,
    /// Its median time (ms), or the reason it was skipped.
    pub result: Result<f64, String>,
    /// Seconds the tuner spent on it (its check, build included, and its timed launches).
    pub seconds: f64,
}

/// Where a tuning run's time went, in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Took {
    /// Checking every candidate against the interpreter (several at once).
    pub checks: f64,
    /// The threads the checks ran on.
    pub threads: usize,
    /// Timing the general builds.
    pub timing: f64,
    /// Building and timing the fastest again for the sizes.
    pub specialised: f64,
}

/// A name made safe as a file name: ASCII letters, digits and `_ - . =` kept, every other
/// character replaced by `_`, at most 100 characters.
pub fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '=') {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect::<String>()
        .trim_matches('_')
        .to_string()
}

/// The folder [`write_kernel`] writes candidate `index` (named `candidate`) of `kernel` to.
pub fn candidate_dir(dir: &Path, kernel: &str, index: usize, candidate: &str) -> PathBuf {
    dir.join(file_name(kernel))
        .join(format!("{index:02}-{}", file_name(candidate)))
}

/// Writes `d` into its folder under `dir` (see the module documentation); gives the folder.
pub fn write_kernel(dir: &Path, d: &KernelDump<'_>) -> std::io::Result<PathBuf> {
    let folder = candidate_dir(dir, d.kernel, d.index, d.candidate);
    std::fs::create_dir_all(&folder)?;
    let mut info = String::new();
    let _ = writeln!(info, "kernel: {}", d.kernel);
    let _ = writeln!(info, "kernel id: {}", d.kernel_id);
    let _ = writeln!(info, "candidate: {} (index {})", d.candidate, d.index);
    let params: Vec<String> = d.params.iter().map(|(n, v)| format!("{n}={v}")).collect();
    let _ = writeln!(info, "parameters: {}", params.join(", "));
    let conditions = if d.conditions.is_empty() {
        "none (applies to every size)"
    } else {
        d.conditions
    };
    let _ = writeln!(info, "conditions: {conditions}");
    let _ = writeln!(info, "built by: {}", d.builder);
    std::fs::write(folder.join("program.lift"), with_newline(d.lift))?;
    std::fs::write(folder.join("candidate.txt"), info)?;
    std::fs::write(folder.join("lowered.lift"), with_newline(d.lowered))?;
    std::fs::write(folder.join("kernel.cl"), with_newline(d.source))?;
    Ok(folder)
}

/// The file [`write_tuning`] writes the tuning of `kernel` at `sizes` to.
pub fn tuning_file(dir: &Path, kernel: &str, sizes: &[usize]) -> PathBuf {
    let sizes: Vec<String> = sizes.iter().map(usize::to_string).collect();
    dir.join(file_name(kernel))
        .join(format!("tune-{}.txt", sizes.join("x")))
}

/// Writes a tuning run's outcome: the device, the sizes, where the time went, every
/// candidate's median time or failure (and the seconds spent on it), and the choice (`None`:
/// no candidate was valid). Gives the file.
pub fn write_tuning(
    dir: &Path,
    kernel_id: &str,
    device: &str,
    sizes: &[usize],
    (outcomes, took): (&[CandidateOutcome], &Took),
    chosen: Option<&crate::Tuned>,
) -> std::io::Result<PathBuf> {
    let kernel = kernel_id.split('#').next().unwrap_or(kernel_id);
    let file = tuning_file(dir, kernel, sizes);
    if let Some(p) = file.parent() {
        std::fs::create_dir_all(p)?;
    }
    let mut t = String::new();
    let _ = writeln!(t, "kernel id: {kernel_id}");
    let _ = writeln!(t, "device: {device}");
    let sz: Vec<String> = sizes.iter().map(usize::to_string).collect();
    let _ = writeln!(t, "sizes: {}", sz.join(", "));
    let _ = writeln!(
        t,
        "took: checks {:.2} s on {} threads, timing {:.2} s, built for the sizes {:.2} s",
        took.checks, took.threads, took.timing, took.specialised
    );
    let _ = writeln!(t, "candidates:");
    for o in outcomes {
        match &o.result {
            Ok(ms) => {
                let _ = writeln!(t, "  {:>12.4} ms  {} ({:.2} s)", ms, o.name, o.seconds);
            }
            Err(e) => {
                let _ = writeln!(
                    t,
                    "  {:>15}  {}: {e} ({:.2} s)",
                    "invalid", o.name, o.seconds
                );
            }
        }
    }
    match chosen {
        Some(c) => {
            let params: Vec<String> = c.params.iter().map(|(n, v)| format!("{n}={v}")).collect();
            let _ = writeln!(
                t,
                "chosen: {} [{}] {:.4} ms ({} of {} valid)",
                c.candidate,
                params.join(", "),
                c.time_ms,
                c.valid,
                c.tried
            );
        }
        None => {
            let _ = writeln!(t, "chosen: none (no valid candidate)");
        }
    }
    std::fs::write(&file, t)?;
    Ok(file)
}

fn with_newline(s: &str) -> String {
    if s.ends_with('\n') {
        s.to_string()
    } else {
        format!("{s}\n")
    }
}

/// Warns once per process on stderr that `LIFT_DUMP` could not be written.
fn warn(dir: &Path, e: &std::io::Error) {
    if !WARNED.swap(true, Ordering::Relaxed) {
        eprintln!(
            "lift-runtime: {DUMP_ENV}={}: cannot write the kernel dump ({e}); kernels are built but not dumped",
            dir.display()
        );
    }
}

/// [`write_kernel`] into the directory of `LIFT_DUMP`, if set; an error is a warning (once).
pub fn kernel(d: &KernelDump<'_>) {
    if let Some(dir) = dump_dir() {
        if let Err(e) = write_kernel(&dir, d) {
            warn(&dir, &e);
        }
    }
}

/// Writes `dir/<kernel>/dropped.txt`: the derivations of `kernel` that did not become
/// candidates (dropped by the explorer or refused by code generation), one per line with why.
pub fn write_dropped(
    dir: &Path,
    kernel: &str,
    dropped: &[(String, String)],
) -> std::io::Result<()> {
    let folder = dir.join(file_name(kernel));
    std::fs::create_dir_all(&folder)?;
    let mut text = String::new();
    for (name, why) in dropped {
        let _ = writeln!(text, "{name}: {why}");
    }
    std::fs::write(folder.join("dropped.txt"), text)
}

/// [`write_dropped`] into the directory of `LIFT_DUMP`, if set; an error is a warning (once).
pub fn dropped(kernel: &str, dropped: &[(String, String)]) {
    if let Some(dir) = dump_dir() {
        if let Err(e) = write_dropped(&dir, kernel, dropped) {
            warn(&dir, &e);
        }
    }
}

/// [`write_tuning`] into the directory of `LIFT_DUMP`, if set; an error is a warning (once).
pub fn tuning(
    kernel_id: &str,
    device: &str,
    sizes: &[usize],
    outcomes: (&[CandidateOutcome], &Took),
    chosen: Option<&crate::Tuned>,
) {
    if let Some(dir) = dump_dir() {
        if let Err(e) = write_tuning(&dir, kernel_id, device, sizes, outcomes, chosen) {
            warn(&dir, &e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names() {
        assert_eq!(
            file_name("blocked(tm=4, tn=8)"),
            "blocked_tm=4__tn=8".to_string()
        );
        assert_eq!(file_name("a/../b"), "a_.._b");
    }

    #[test]
    fn writes_the_dropped_derivations() {
        let dir = std::env::temp_dir().join(format!("lift-dump-dropped-{}", std::process::id()));
        let dropped = [("blocked(tm=8)".to_string(), "type error: x".to_string())];
        write_dropped(&dir, "K", &dropped).unwrap();
        let text = std::fs::read_to_string(dir.join("K").join("dropped.txt")).unwrap();
        assert_eq!(text, "blocked(tm=8): type error: x\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn writes_a_kernel_and_a_tuning() {
        let dir = std::env::temp_dir().join(format!("lift-dump-unit-{}", std::process::id()));
        let d = KernelDump {
            kernel: "K",
            kernel_id: "K#0",
            lift: "kernel K<N>(x: [f32; N]) -> [f32; N] { x }",
            index: 3,
            candidate: "map(lanes=4)",
            params: &[("lanes", 4)],
            conditions: "",
            lowered: "map_glb(id) $ x",
            source: "kernel void K() {}",
            builder: "test",
        };
        let folder = write_kernel(&dir, &d).unwrap();
        assert_eq!(folder, dir.join("K").join("03-map_lanes=4"));
        let info = std::fs::read_to_string(folder.join("candidate.txt")).unwrap();
        assert!(info.contains("parameters: lanes=4"), "{info}");
        assert!(info.contains("conditions: none"), "{info}");
        assert_eq!(
            std::fs::read_to_string(folder.join("kernel.cl")).unwrap(),
            "kernel void K() {}\n"
        );
        let outcomes = [
            CandidateOutcome {
                name: "a".into(),
                result: Ok(1.5),
                seconds: 0.25,
            },
            CandidateOutcome {
                name: "b".into(),
                result: Err("disagrees".into()),
                seconds: 2.0,
            },
        ];
        let took = Took {
            checks: 2.0,
            threads: 2,
            timing: 0.25,
            specialised: 0.0,
        };
        let f = write_tuning(&dir, "K#0", "dev", &[8, 2], (&outcomes, &took), None).unwrap();
        assert_eq!(f, dir.join("K").join("tune-8x2.txt"));
        let t = std::fs::read_to_string(f).unwrap();
        assert!(t.contains("1.5000 ms  a (0.25 s)"), "{t}");
        assert!(t.contains("b: disagrees (2.00 s)"), "{t}");
        assert!(t.contains("took: checks 2.00 s on 2 threads"), "{t}");
        assert!(t.contains("chosen: none"), "{t}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
