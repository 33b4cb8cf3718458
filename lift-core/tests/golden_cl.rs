//! Golden OpenCL C (a filetest, as cranelift's): the default candidate of each kernel of
//! `golden/kernels.lift` (the one `lift!` builds in), with its launch description, against
//! `golden/cl/<Kernel>.cl` (and, where that is the sequential `map`, the first candidate, which
//! a launch runs where it applies, against `<Kernel>.first.cl`). A change to rewriting or code generation that changes what users
//! run shows here as a diff to review; `LIFT_BLESS=1 cargo test -p lift-core --test
//! golden_cl` writes the files.

use lift_core::driver::{compile_default, compile_kernel, CompiledCandidate};
use lift_core::parse::parse_program_str;
use lift_core::typeck::check_program;
use std::fmt::Write;
use std::path::Path;

fn golden(name: &str, text: &str, bless: bool, differ: &mut Vec<String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("golden/cl/{name}.cl"));
    if bless {
        std::fs::write(&path, text).expect("golden file written");
        return;
    }
    match std::fs::read_to_string(&path) {
        Ok(want) if want == text => {}
        Ok(want) => {
            let line = want.lines().zip(text.lines()).position(|(a, b)| a != b);
            differ.push(format!(
                "{name}.cl (first differing line {:?})",
                line.map(|l| l + 1)
            ));
        }
        Err(_) => differ.push(format!("{name}.cl (missing)")),
    }
}

#[test]
fn default_candidates_match_the_golden_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
    let src = std::fs::read_to_string(dir.join("kernels.lift")).expect("golden/kernels.lift");
    let mut prog = parse_program_str(&src).expect("golden/kernels.lift parses");
    check_program(&mut prog).expect("golden/kernels.lift checks");
    let bless = std::env::var_os("LIFT_BLESS").is_some();
    let mut differ = Vec::new();
    assert!(prog.kernels.len() >= 12);
    for k in &prog.kernels {
        let compiled = compile_default(&prog, &k.name).expect("a default candidate");
        let c = compiled.candidates.first().expect("one candidate");
        golden(&k.name, &describe(&k.name, c), bless, &mut differ);
        // Where the default is the sequential map, what a launch runs at the sizes the first
        // candidate applies to (a derived reduction's tree).
        if c.name == "map" {
            let all = compile_kernel(&prog, &k.name).expect("candidates");
            let first = all.candidates.first().expect("one candidate");
            if first.name != "map" {
                let name = format!("{}.first", k.name);
                golden(&name, &describe(&k.name, first), bless, &mut differ);
            }
        }
    }
    assert!(
        differ.is_empty(),
        "generated OpenCL differs from golden/cl: {differ:?}; review, then LIFT_BLESS=1 rewrites"
    );
}

/// A candidate's name, launches, temporaries and source.
fn describe(kernel: &str, c: &CompiledCandidate) -> String {
    let mut text = format!("// {kernel}: {}\n", c.name);
    for g in &c.generated.kernels {
        let global: Vec<String> = g.global.iter().map(ToString::to_string).collect();
        let local = match &g.local {
            Some(l) => l
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            None => "any".to_string(),
        };
        writeln!(
            text,
            "// launch {} global [{}] local [{local}] local memory {} bytes",
            g.name,
            global.join(", "),
            g.local_mem_bytes
        )
        .unwrap();
    }
    for t in &c.generated.temporaries {
        writeln!(text, "// temporary {} of {} bytes", t.name, t.bytes).unwrap();
    }
    text.push_str(&c.generated.source);
    text
}
