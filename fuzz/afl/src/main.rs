//! `lift-afl TARGET`: one of the `fuzz` crate's targets (`parse_str`, `tokens`, `typeck`,
//! `points`, `codegen`, `rules`, `explore`) as an AFL++ program, in persistent mode: the
//! engine's inputs are the bytes `fuzz::exec` draws the target's input from, and a panic is a
//! crash. `lift-afl seeds DIR` writes the starting inputs (random bytes of fixed seeds).
//!
//! ```sh
//! cd fuzz/afl && cargo afl build --release
//! target/release/lift-afl seeds /tmp/seeds
//! cargo afl fuzz -i /tmp/seeds -o /tmp/out-rules -V 3600 -- target/release/lift-afl rules
//! ```

use fuzz::{corpus_dir, exec, load_corpus, on_large_stack, Target};

/// Starting inputs written by `lift-afl seeds`.
const SEEDS: u64 = 16;
/// Bytes of each starting input.
const SEED_BYTES: usize = 512;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [cmd, dir] if cmd == "seeds" => {
            if let Err(e) = write_seeds(std::path::Path::new(dir)) {
                eprintln!("lift-afl: {dir}: {e}");
                std::process::exit(1);
            }
        }
        [name] => match Target::from_name(name) {
            Some(target) => run(target),
            None => usage(&format!("unknown target `{name}`")),
        },
        _ => usage("expected a target or `seeds DIR`"),
    }
}

fn usage(why: &str) -> ! {
    let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
    eprintln!(
        "lift-afl: {why}\nusage: lift-afl {} | lift-afl seeds DIR",
        names.join("|")
    );
    std::process::exit(2)
}

/// The fuzz loop of `target`, on a thread with the explorer's stack.
fn run(target: Target) {
    let corpus = load_corpus(&corpus_dir(), target);
    on_large_stack(move || {
        afl::fuzz!(|data: &[u8]| {
            let mut input = String::new();
            exec(target, data, &corpus, &mut input);
        });
    });
}

fn write_seeds(dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for s in 0..SEEDS {
        let mut data = fuzz::bytes(s);
        data.truncate(SEED_BYTES);
        std::fs::write(dir.join(format!("seed-{s:02}")), data)?;
    }
    Ok(())
}
