//! TEMPORARY probe (deleted before handing back).
use lift_runtime::core::{codegen, parse, typeck};
#[test]
fn probe() {
    let src = std::fs::read_to_string("/tmp/probe/in.lift").unwrap();
    let mut prog = match parse::parse_program_str(&src) { Ok(p) => p, Err(e) => { println!("PARSE ERR: {e}"); return; } };
    let infos = match typeck::check_program(&mut prog) { Ok(i) => i, Err(e) => { println!("TYPE ERR: {e}"); return; } };
    for (k, info) in prog.kernels.iter().zip(&infos) {
        println!("==== {} : {}", k.name, info.result);
        for p in &info.preconditions { println!("  pre: {p}"); }
        match codegen::generate(&prog, &k.name, info) {
            Ok(g) => { println!("lowered: {}", g.lowered); println!("global {:?} local {:?}", g.kernels[0].global.iter().map(|n| n.to_string()).collect::<Vec<_>>(), g.kernels[0].local.as_ref().map(|l| l.iter().map(|n| n.to_string()).collect::<Vec<_>>())); println!("{}", g.source); }
            Err(e) => println!("CODEGEN ERR: {e}"),
        }
    }
}
