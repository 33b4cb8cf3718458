//! The `lift` binary end to end on the default device (POCL in CI): `check` on good and bad
//! files (message and underline position), `emit` of each kind against the `lift!` macro's
//! own constants, `run` with `.npy` in and out against plain Rust, `tune` with its cache and
//! the `LIFT_DUMP` switch, and clean errors for bad arguments.

use assert_cmd::Command;
use npyz::WriterBuilder;
use predicates::prelude::*;
use std::path::{Path, PathBuf};

const PROGRAM: &str = "\
/// 3-point sum with clamped borders.
kernel Blur3<N>(input: [f32; N]) -> [f32; N] {
    map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input
}

kernel Scale<N, M>(a: [[f32; M]; N], alpha: f32) -> [[f32; M]; N] {
    map(map(|v| alpha * v)) $ a
}
";

// The same program through the macro: `emit` must print what `lift!` generates.
lift_runtime::lift! {
    /// 3-point sum with clamped borders.
    kernel Blur3<N>(input: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input
    }
}

const BAD: &str = "\
// a zip of arrays of different lengths
kernel Bad<N, M>(x: [f32; N], y: [f32; M]) -> [f32; N] {
    map(|p| p.0 + p.1) $ zip(x, y)
}
";

const RUST: &str = r#"use lift_runtime::lift;

// lift! { not a block: a comment }
lift! {
    /// A doc comment with a } brace.
    pub kernel Blur3<N>(input: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input
    }
}

fn main() {
    let _s = "lift! { not a block: a string }";
}

lift! {
    kernel Twice<N>(x: [f32; N]) -> [f32; N] {
        map(|v| v * 2.0) $ zip(x, x)
    }
}
"#;

/// A fresh directory with `files` written into it.
fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        std::fs::write(d.path().join(name), text).expect("write");
    }
    d
}

/// The `lift` binary, run in `dir`, with its own tuning cache there.
fn lift(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("lift").expect("the lift binary");
    c.current_dir(dir)
        .env("LIFT_CACHE_DIR", dir.join("cache"))
        .env_remove("LIFT_DUMP")
        .env_remove("LIFT_TUNE");
    c
}

fn write_f32(path: &Path, shape: &[u64], data: &[f32]) {
    let f = std::fs::File::create(path).expect("create");
    let mut w = npyz::WriteOptions::new()
        .default_dtype()
        .shape(shape)
        .writer(std::io::BufWriter::new(f))
        .begin_nd()
        .expect("npy header");
    w.extend(data.iter().copied()).expect("npy data");
    w.finish().expect("npy finish");
}

fn read_f32(path: &Path) -> (Vec<u64>, Vec<f32>) {
    let bytes = std::fs::read(path).expect("read");
    let f = npyz::NpyFile::new(&bytes[..]).expect("npy");
    let shape = f.shape().to_vec();
    (shape, f.into_vec::<f32>().expect("f32 data"))
}

fn values(n: usize, seed: u32) -> Vec<f32> {
    (0..n)
        .map(|i| {
            let x = (i as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) >> 8;
            (x % 2000) as f32 / 1000.0 - 1.0
        })
        .collect()
}

#[test]
fn check_accepts_a_good_file() {
    let d = dir_with(&[("good.lift", PROGRAM)]);
    lift(d.path())
        .args(["check", "good.lift"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "good.lift: kernel Blur3<N>(input: [f32; N]) -> [f32; N]: ok",
        ))
        .stdout(predicate::str::contains(
            "kernel Scale<N, M>(a: [[f32; M]; N], alpha: f32) -> [[f32; M]; N]: ok",
        ));
}

/// The column (in characters) at which the underline of the snippet line for source line
/// `line` starts, and the column of `word` in that source line, both in the rendered output.
fn underline_and_word(stderr: &str, line: usize, word: &str) -> (usize, usize) {
    let lines: Vec<&str> = stderr.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(&format!("{line} │")))
        .unwrap_or_else(|| panic!("no snippet of line {line} in:\n{stderr}"));
    let src: Vec<char> = lines[at].chars().collect();
    let under: Vec<char> = lines[at + 1].chars().collect();
    let word_col = (0..src.len())
        .find(|&i| src[i..].iter().collect::<String>().starts_with(word))
        .unwrap_or_else(|| panic!("`{word}` not in {}", lines[at]));
    let bar = src.iter().position(|&c| c == '│').expect("gutter");
    let first = (bar + 1..under.len())
        .find(|&i| under[i] != ' ')
        .unwrap_or_else(|| panic!("no underline under {}", lines[at]));
    (first, word_col)
}

#[test]
fn check_reports_a_type_error_with_its_position() {
    let d = dir_with(&[("bad.lift", BAD)]);
    let out = lift(d.path())
        .args(["check", "bad.lift"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "error: bad.lift:3:26: zip: lengths differ: N vs M",
        ))
        .stderr(predicate::str::contains("bad.lift: 1 error"))
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let (under, word) = underline_and_word(&stderr, 3, "zip(x, y)");
    assert_eq!(under, word, "underline not under `zip`:\n{stderr}");
}

#[test]
fn check_reads_lift_blocks_of_a_rust_file() {
    let d = dir_with(&[("demo.rs", RUST)]);
    let out = lift(d.path())
        .args(["check", "demo.rs"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "demo.rs: kernel Blur3<N>(input: [f32; N]) -> [f32; N]: ok",
        ))
        .stderr(predicate::str::contains(
            "error: demo.rs:17:17: `*`: operand types differ: (f32, f32) vs f32",
        ))
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let (under, word) = underline_and_word(&stderr, 17, "v * 2.0");
    assert_eq!(under, word, "underline not under `v * 2.0`:\n{stderr}");
}

#[test]
fn check_fails_cleanly_without_blocks_or_file() {
    let d = dir_with(&[("empty.rs", "fn main() {}\n")]);
    lift(d.path())
        .args(["check", "empty.rs"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "error: FILE `empty.rs`: no `lift! { ... }` block found",
        ));
    lift(d.path())
        .args(["check", "missing.lift"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "error: FILE `missing.lift`: cannot read",
        ));
}

#[test]
fn emit_each_kind_matches_the_macro() {
    let d = dir_with(&[("good.lift", PROGRAM), ("demo.rs", RUST)]);
    let out = lift(d.path())
        .args(["emit", "good.lift", "--kernel", "Blur3", "--opencl"])
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (header, source) = text.split_once('\n').expect("header line");
    let ctx = lift_runtime::Context::new().expect("device");
    let blur3 = Blur3::new(&ctx).expect("build");
    // The default: the first candidate that applies to every size.
    let cands = blur3.candidates().expect("candidates");
    let i = cands
        .iter()
        .position(|c| c.conditions.is_empty())
        .expect("a default");
    let name = &cands[i].name;
    assert_eq!(header, format!("// kernel Blur3, candidate {i}: {name}"));
    assert_eq!(source.trim_end(), Blur3::SOURCE.trim_end());
    // The default is the OpenCL C too.
    lift(d.path())
        .args(["emit", "good.lift", "-k", "Blur3"])
        .assert()
        .success()
        .stdout(text.clone());
    lift(d.path())
        .args(["emit", "good.lift", "-k", "Blur3", "--lowered"])
        .assert()
        .success()
        .stdout(predicate::str::contains(Blur3::LOWERED.trim_end()));
    lift(d.path())
        .args(["emit", "good.lift", "-k", "Scale", "--candidates"])
        .assert()
        .success()
        .stdout(predicate::str::contains("kernel Scale:"))
        // An element-wise map's default: vectors with a scalar tail (every length).
        .stdout(predicate::str::contains("   0* vector(w="))
        .stdout(predicate::str::contains(",tail=1)"));
    // Every kernel of a Rust file's blocks, with a block in error reported.
    lift(d.path())
        .args(["emit", "demo.rs", "--lowered"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("demo.rs:17:17"));
    lift(d.path())
        .args(["emit", "good.lift", "-k", "Nope"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "error: KERNEL `Nope` not found in good.lift (its kernels: Blur3, Scale)",
        ));
    lift(d.path())
        .args(["emit", "good.lift", "-k", "Scale", "--candidate", "999"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "error: --candidate 999: kernel `Scale` has ",
        ));
    lift(d.path())
        .args(["emit", "good.lift", "--lowered", "--candidates"])
        .assert()
        .code(2);
}

/// Blur3 in plain Rust.
fn blur3(x: &[f32]) -> Vec<f32> {
    let n = x.len() as isize;
    let at = |i: isize| x[i.clamp(0, n - 1) as usize];
    (0..n).map(|i| at(i - 1) + at(i) + at(i + 1)).collect()
}

#[test]
fn run_reads_and_writes_npy() {
    let d = dir_with(&[("good.lift", PROGRAM)]);
    let x = values(37, 1);
    write_f32(&d.path().join("x.npy"), &[37], &x);
    // N is taken from the shape of x.npy.
    lift(d.path())
        .args(["run", "good.lift", "Blur3", "--input", "input=x.npy"])
        .args(["--output", "y.npy", "--check"])
        .assert()
        .success()
        .stdout(predicate::str::contains("kernel Blur3 at N=37"))
        .stdout(predicate::str::contains(
            "result: [f32; N] shape [37], 37 values",
        ))
        .stdout(predicate::str::contains(
            "check: agrees with the interpreter",
        ));
    let (shape, y) = read_f32(&d.path().join("y.npy"));
    assert_eq!(shape, vec![37]);
    let want = blur3(&x);
    for (i, (a, b)) in y.iter().zip(&want).enumerate() {
        assert!((a - b).abs() <= 1e-5, "element {i}: {a} vs {b}");
    }
    assert_eq!(y.len(), want.len());

    // A 2-D input, a scalar argument and explicit sizes.
    let a = values(5 * 3, 7);
    write_f32(&d.path().join("a.npy"), &[5, 3], &a);
    lift(d.path())
        .args(["run", "good.lift", "Scale", "--sizes", "N=5,M=3"])
        .args(["-i", "a=a.npy", "-i", "alpha=-2.5", "-o", "s.npy"])
        .assert()
        .success()
        .stdout(predicate::str::contains("shape [5, 3], 15 values"));
    let (shape, s) = read_f32(&d.path().join("s.npy"));
    assert_eq!(shape, vec![5, 3]);
    let want: Vec<f32> = a.iter().map(|v| -2.5 * v).collect();
    assert_eq!(s, want);
}

#[test]
fn run_rejects_bad_arguments_cleanly() {
    let d = dir_with(&[("good.lift", PROGRAM), ("junk.npy", "not a numpy file")]);
    write_f32(&d.path().join("a.npy"), &[3, 5], &values(15, 3));
    write_f32(&d.path().join("v.npy"), &[15], &values(15, 3));
    let cases: &[(&[&str], &str)] = &[
        (
            &["run", "good.lift", "Blur3", "-i", "input=junk.npy"],
            "error: --input input=junk.npy: not a NumPy .npy file",
        ),
        (
            &["run", "good.lift", "Scale", "-s", "N=5,M=3", "-i", "a=a.npy"],
            "error: argument `a`: expected shape [5, 3] (type [[f32; M]; N] at N=5, M=3), got [3, 5] from a.npy",
        ),
        (
            &["run", "good.lift", "Scale", "-i", "a=v.npy"],
            "error: argument `a`: expected a 2-dimensional array (type [[f32; M]; N]), got shape [15] from v.npy",
        ),
        (
            &["run", "good.lift", "Scale", "-s", "N=5"],
            "error: size `M` of kernel `Scale` is not known: give --sizes M=VALUE",
        ),
        (
            &["run", "good.lift", "Scale", "-s", "N=5,Q=2"],
            "error: --sizes Q=2: kernel `Scale` has no size variable `Q` (its sizes: N, M)",
        ),
        (
            &["run", "good.lift", "Scale", "-s", "N=5,M=0"],
            "error: --sizes M=0: expected a positive integer",
        ),
        (
            &["run", "good.lift", "Scale", "-s", "N=5,M=2", "-i", "alpha=fast"],
            "error: --input alpha=fast: expected a value of type f32",
        ),
        (
            &["run", "good.lift", "Scale", "-s", "N=5,M=2", "-i", "beta=1"],
            "error: --input beta=1: kernel `Scale` has no parameter `beta` (its parameters: a, alpha)",
        ),
        (
            &["run", "good.lift", "Blur", "-s", "N=5"],
            "error: KERNEL `Blur` not found in good.lift (its kernels: Blur3, Scale)",
        ),
        (
            &["run", "good.lift", "Blur3", "-s", "N=5", "-i", "input=missing.npy"],
            "error: --input input=missing.npy: cannot read",
        ),
    ];
    for (args, msg) in cases {
        lift(d.path())
            .args(*args)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(*msg))
            .stderr(predicate::str::contains("panicked").not());
    }
}

#[test]
fn tune_fills_the_cache_and_run_uses_it() {
    let d = dir_with(&[("good.lift", PROGRAM)]);
    let dump = d.path().join("dump");
    lift(d.path())
        .args(["tune", "good.lift", "Scale", "--sizes", "N=8,M=4"])
        .env("LIFT_DUMP", &dump)
        .assert()
        .success()
        .stdout(predicate::str::contains("tuning Scale at N=8, M=4"))
        .stdout(predicate::str::contains("chosen: candidate"))
        // ("; built for these sizes" follows when a build for the sizes won.)
        .stdout(predicate::str::is_match(r"; (\d+) of (\d+) candidates valid[;)]").expect("regex"))
        // One line per candidate on stderr.
        .stderr(predicate::str::contains(" ms  map\n"));
    assert!(d.path().join("cache").join("tune.json").exists());
    let tuning = std::fs::read_to_string(dump.join("Scale").join("tune-8x4.txt")).expect("dump");
    assert!(tuning.contains("kernel id: Scale#"), "{tuning}");
    assert!(tuning.contains("chosen: "), "{tuning}");
    // Every candidate timed was built and dumped (the fastest are timed again built for the
    // sizes: the same candidates).
    let timed = tuning
        .lines()
        .filter(|l| l.contains(" ms  ") && !l.contains("(built for these sizes)"))
        .count();
    assert!(timed >= 2, "{tuning}");
    let built = std::fs::read_dir(dump.join("Scale"))
        .expect("kernel folder")
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().is_dir()))
        .count();
    assert_eq!(built, timed, "{tuning}");
    // The second time the cache answers; `run` uses the cached choice.
    let out = lift(d.path())
        .args(["tune", "good.lift", "Scale", "-s", "N=8,M=4"])
        .assert()
        .success()
        .stdout(predicate::str::contains("; cached)"))
        .get_output()
        .clone();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let chosen = text
        .lines()
        .find_map(|l| l.strip_prefix("chosen: "))
        .and_then(|l| l.split(" (").next())
        .expect("chosen line")
        .to_string();
    lift(d.path())
        .args(["run", "good.lift", "Scale", "-s", "N=8,M=4", "--check"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("{chosen}\n")));
}

#[test]
fn dump_writes_what_run_builds_and_never_fails_it() {
    let d = dir_with(&[("good.lift", PROGRAM), ("a-file", "")]);
    let dump = d.path().join("dump");
    lift(d.path())
        .args(["run", "good.lift", "Blur3", "-s", "N=9"])
        .env("LIFT_DUMP", &dump)
        .assert()
        .success();
    // At N = 9 the default runs (the exact strips need N - 4 divisible by 4).
    let ctx = lift_runtime::Context::new().expect("device");
    let blur3 = Blur3::new(&ctx).expect("build");
    let cands = blur3.candidates().expect("candidates");
    let c = cands
        .iter()
        .position(|c| c.conditions.is_empty())
        .expect("a default");
    let folder: PathBuf = lift_runtime::dump::candidate_dir(&dump, "Blur3", c, &cands[c].name);
    let cl = std::fs::read_to_string(folder.join("kernel.cl")).expect("kernel.cl");
    assert_eq!(cl.trim_end(), Blur3::SOURCE.trim_end());
    let lowered = std::fs::read_to_string(folder.join("lowered.lift")).expect("lowered");
    assert_eq!(lowered.trim_end(), Blur3::LOWERED.trim_end());
    let program = std::fs::read_to_string(folder.join("program.lift")).expect("program");
    assert_eq!(program.trim_end(), Blur3::LIFT.trim_end());
    let info = std::fs::read_to_string(folder.join("candidate.txt")).expect("candidate");
    let line = format!("candidate: {} (index {c})", cands[c].name);
    assert!(info.contains(&line), "{info}");
    assert!(info.contains("built by: DynKernel"), "{info}");
    // A dump directory that cannot be created: tuning (many builds) succeeds, one warning.
    lift(d.path())
        .args(["tune", "good.lift", "Scale", "-s", "N=4,M=4", "--retune"])
        .env("LIFT_DUMP", d.path().join("a-file").join("dump"))
        .assert()
        .success()
        .stderr(predicate::function(|s: &str| {
            s.matches("cannot write the kernel dump").count() == 1
        }));
}

#[test]
fn devices_lists_the_device_in_use() {
    let d = dir_with(&[]);
    lift(d.path())
        .arg("devices")
        .assert()
        .success()
        .stdout(predicate::str::contains("used: device"));
}
