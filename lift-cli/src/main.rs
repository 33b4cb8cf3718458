//! `lift`: the lift-rs command-line tool.
//!
//! ```text
//! lift devices                                    the OpenCL devices, and the one used
//! lift check FILE                                 parse, type-check and compile every kernel
//! lift emit FILE [--kernel K] [--lowered | --opencl | --candidates] [--candidate C]
//! lift run FILE K [--sizes N=..,M=..] [--input x=x.npy ...] [--output out.npy] [--check]
//! lift tune FILE K [--sizes N=..] [--input ...] [--retune]
//! ```
//!
//! FILE is a `.lift` file (the contents of one `lift!` block) or a Rust file whose
//! `lift! { ... }` blocks are read. Errors point into FILE at the right line and column.

/// `println!` that ends the process quietly when stdout is closed (`lift emit ... | head`)
/// instead of panicking.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($t)*) {
            $crate::stdout_failed(e);
        }
    }};
}

mod commands;
mod diag;
mod npy;
mod source;

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// An error the tool reports: a message for stderr, and whether it was already printed (a
/// compile error shown with its snippet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError {
    message: String,
    shown: bool,
}

impl CliError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            shown: false,
        }
    }

    /// An error whose details were already printed (diagnostics with snippets).
    pub fn shown(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            shown: true,
        }
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

impl From<lift_runtime::Error> for CliError {
    fn from(e: lift_runtime::Error) -> CliError {
        CliError::new(e.to_string())
    }
}

/// lift-rs from the command line: check, inspect, run and tune kernels written in the `lift!`
/// language.
#[derive(Debug, Parser)]
#[command(name = "lift", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the OpenCL devices and the one used (chosen by LIFT_DEVICE=cpu|gpu|INDEX|NAME).
    Devices,
    /// Parse, type-check and compile every kernel of FILE (no device needed); errors are shown
    /// with the source they point at; the exit status is 1 when there are errors.
    Check {
        /// A `.lift` file, or a Rust file with `lift! { ... }` blocks.
        file: PathBuf,
    },
    /// Print the OpenCL C (default), the low-level expression or the candidates of kernels.
    Emit {
        /// A `.lift` file, or a Rust file with `lift! { ... }` blocks.
        file: PathBuf,
        /// Only this kernel (default: every kernel of FILE).
        #[arg(long, short)]
        kernel: Option<String>,
        /// Print the low-level expression compiled.
        #[arg(long, conflicts_with_all = ["opencl", "candidates"])]
        lowered: bool,
        /// Print the OpenCL C program (the default).
        #[arg(long, conflicts_with = "candidates")]
        opencl: bool,
        /// List the candidates the explorer derived: index, name, parameters, conditions.
        #[arg(long)]
        candidates: bool,
        /// The candidate to print, by name or index (default: the first that applies to every
        /// size, what `Name::SOURCE` holds).
        #[arg(long, short)]
        candidate: Option<String>,
    },
    /// Compile a kernel at run time and run it on the device; prints a summary of the result.
    Run {
        /// A `.lift` file, or a Rust file with `lift! { ... }` blocks.
        file: PathBuf,
        /// The kernel's name.
        kernel: String,
        #[command(flatten)]
        data: DataArgs,
        /// Write the result to this `.npy` file.
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Run this candidate (name or index) instead of the one chosen for the sizes (the
        /// tuned one if the cache has it, else the default for the device).
        #[arg(long)]
        candidate: Option<String>,
        /// Also run the reference interpreter and compare (relative tolerance 1e-3 for
        /// floats, exact otherwise); exit status 1 if they differ.
        #[arg(long)]
        check: bool,
    },
    /// Tune a kernel at these sizes with the runtime's tuner and store the choice in its cache
    /// (LIFT_CACHE_DIR), which `lift run` and compiled `lift!` kernels then use.
    Tune {
        /// A `.lift` file, or a Rust file with `lift! { ... }` blocks.
        file: PathBuf,
        /// The kernel's name.
        kernel: String,
        #[command(flatten)]
        data: DataArgs,
        /// Tune again even when the cache holds a choice.
        #[arg(long)]
        retune: bool,
    },
}

/// Sizes and inputs of `run` and `tune`.
#[derive(Debug, Args)]
pub struct DataArgs {
    /// Size variables: `N=1024,M=512` (repeatable). Sizes not given are taken from the
    /// shapes of `.npy` inputs where a dimension is exactly that size variable.
    #[arg(long, short, value_name = "NAME=VALUE", value_delimiter = ',')]
    pub sizes: Vec<String>,
    /// An argument: `x=file.npy` for an array (C order, converted to the parameter's element
    /// type), `alpha=2.5` for a scalar (repeatable). Arguments not given are seeded random
    /// values (floats in [-1, 1), integers in [-8, 8)).
    #[arg(long = "input", short, value_name = "NAME=FILE|VALUE")]
    pub inputs: Vec<String>,
    /// The seed of the random inputs.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Stdout cannot be written: a closed pipe ends the process with success, anything else with
/// an error.
pub fn stdout_failed(e: std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("error: cannot write to stdout: {e}");
    std::process::exit(1);
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match commands::run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            if !e.shown {
                eprintln!("error: {e}");
            } else if !e.message.is_empty() {
                eprintln!("{e}");
            }
            ExitCode::FAILURE
        }
    }
}
