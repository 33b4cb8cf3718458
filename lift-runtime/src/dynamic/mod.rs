//! Programs compiled at run time: [`DynKernel`] parses, type-checks and generates a kernel
//! from `lift!` source text, builds it (through the program cache) and runs it on
//! interpreter [`Value`](lift_core::interp::Value)s, with the checks of the generated `run`.
//!
//! Compiling and tuning are in `compile`, launching in `launch`, the typed device buffers in
//! `buffers`.

use crate::private::{check_divisible, check_le, size};
use crate::tune;
use crate::{Context, Error, KernelHandle, Result};
use lift_core::arith::Nat;
use lift_core::codegen::{trace, Generated};
use lift_core::ir::Kernel;
use lift_core::typeck::{Cond, KernelInfo, Precondition};
use lift_core::types::Type;
use std::collections::HashMap;

mod buffers;
mod compile;
mod host;
mod launch;
mod resident;

pub(crate) use buffers::{buffer_scalar, scalar_count, Staging};
pub(crate) use launch::check_value;
pub use launch::Started;
pub use resident::Resident;

/// A race the checker found, in the OpenCL kernel named `kernel`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    /// The OpenCL kernel.
    pub kernel: String,
    /// What happened.
    pub race: trace::Race,
}

impl std::fmt::Display for Race {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "kernel `{}`: {}", self.kernel, self.race)
    }
}

/// One kernel of a program compiled at run time, built on one context.
#[derive(Debug)]
pub struct DynKernel {
    ctx: Context,
    kernel: Kernel,
    info: KernelInfo,
    /// The kernel's own launch-time conditions (without any candidate's).
    kernel_preconditions: Vec<Precondition>,
    preconditions: Vec<Precondition>,
    candidates: Vec<String>,
    summaries: Vec<Summary>,
    chosen: usize,
    lift_text: String,
    kernel_id: String,
    gen: Generated,
    /// The kernels built with 32-bit indices.
    handles: Vec<KernelHandle>,
    /// The kernels built with 64-bit indices, on the first launch that needs them.
    wide: std::sync::OnceLock<Vec<KernelHandle>>,
    /// The kernels built for one set of sizes ([`DynKernel::specialise`]): the sizes, and
    /// the handles (built with the index width those sizes need).
    special: Option<(Vec<usize>, Vec<KernelHandle>)>,
}

/// What [`DynKernel`] keeps of every candidate to choose among them at given sizes.
#[derive(Clone, Debug)]
struct Summary {
    params: Vec<(String, i64)>,
    conditions: Vec<Precondition>,
    /// The first fixed work-group size of its kernels.
    local: Option<Vec<Nat>>,
    /// The global size of that kernel.
    global: Vec<Nat>,
    /// The static local memory of each of its kernels.
    local_mem: Vec<Nat>,
    /// The bytes of each of its global temporaries.
    temporaries: Vec<Nat>,
}

/// Evaluates a size expression; an unbound variable, overflow or division by zero is an `Err`.
pub(crate) fn eval(n: &Nat, env: &dyn Fn(&str) -> Option<i64>) -> Result<i64> {
    n.eval(env).map_err(|e| Error::Precondition {
        what: n.to_string(),
        expected: "a size expression that evaluates".into(),
        actual: e.to_string(),
    })
}

impl DynKernel {
    /// The context the kernel is built on.
    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// The name of the compiled candidate.
    pub fn candidate(&self) -> &str {
        &self.candidates[self.chosen]
    }

    /// The index of the compiled candidate in [`DynKernel::candidates`].
    pub fn candidate_index(&self) -> usize {
        self.chosen
    }

    /// The tuning parameters of the compiled candidate.
    pub fn candidate_params(&self) -> &[(String, i64)] {
        &self.summaries[self.chosen].params
    }

    /// The kernel with the user functions it calls, printed as `lift!` source: what the
    /// launcher of the same kernel calls `Name::LIFT`.
    pub fn lift_text(&self) -> &str {
        &self.lift_text
    }

    /// The kernel's id in the tuning cache (its name and a hash of [`Self::lift_text`]), the
    /// same as the `lift!` launcher's for the same kernel.
    pub fn kernel_id(&self) -> &str {
        &self.kernel_id
    }

    /// The names of every candidate of the kernel, in the explorer's order.
    pub fn candidates(&self) -> &[String] {
        &self.candidates
    }

    /// The kernel's parameters and size variables, as declared.
    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    /// The launch-time conditions of the compiled candidate (the kernel's and its own).
    pub fn preconditions(&self) -> &[Precondition] {
        &self.preconditions
    }

    /// Do the sizes (one per size variable) satisfy every precondition of the compiled
    /// candidate?
    pub fn applies(&self, sizes: &[usize]) -> bool {
        self.check_sizes(sizes).is_ok()
    }

    /// The OpenCL C program.
    pub fn source(&self) -> &str {
        &self.gen.source
    }

    /// The low-level expression compiled into [`Self::source`].
    pub fn lowered(&self) -> &str {
        &self.gen.lowered
    }

    /// The inferred result type.
    pub fn result_type(&self) -> &Type {
        &self.info.result
    }

    /// Checks the sizes (one per size variable, in declaration order) and every size
    /// precondition; gives the size bindings.
    fn check_sizes(&self, sizes: &[usize]) -> Result<HashMap<String, i64>> {
        self.check_sizes_with(sizes, &self.preconditions)
    }

    /// [`Self::check_sizes`] against the conditions `preconditions`.
    fn check_sizes_with(
        &self,
        sizes: &[usize],
        preconditions: &[Precondition],
    ) -> Result<HashMap<String, i64>> {
        let names = &self.kernel.sizes;
        if sizes.len() != names.len() {
            return Err(Error::ArgLength {
                arg: "sizes".into(),
                expected: names.len(),
                actual: sizes.len(),
            });
        }
        let env: HashMap<String, i64> = names
            .iter()
            .zip(sizes)
            .map(|((n, _), &v)| Ok((n.clone(), size(n, v)?)))
            .collect::<Result<_>>()?;
        let lookup = |n: &str| env.get(n).copied();
        for p in preconditions {
            let origin = format!("{} ({})", p.origin, p.reason);
            match &p.cond {
                Cond::Divisible(n, d) => check_divisible(
                    &n.to_string(),
                    &d.to_string(),
                    &origin,
                    eval(n, &lookup)?,
                    eval(d, &lookup)?,
                )?,
                Cond::Le(a, b) => check_le(
                    &a.to_string(),
                    &b.to_string(),
                    &origin,
                    eval(a, &lookup)?,
                    eval(b, &lookup)?,
                )?,
            }
        }
        Ok(env)
    }

    /// Makes runs at `sizes` use the build for them (`special`) or the general one.
    fn use_build(&mut self, sizes: &[usize], special: bool) -> Result<()> {
        match (special, &self.special) {
            (true, Some((at, _))) if at == sizes => Ok(()),
            (true, _) => self.specialise(sizes),
            (false, _) => {
                self.special = None;
                Ok(())
            }
        }
    }

    /// Whether a launch with the sizes of `lookup` indexes with 64-bit arithmetic (an array,
    /// a temporary or a view's extent is too large for 32-bit indices).
    fn wide_at(&self, lookup: &dyn Fn(&str) -> Option<i64>) -> Result<bool> {
        let temp_extents = self.gen.temporaries.iter().map(|t| &t.scalars);
        let extents = self
            .info
            .extents
            .iter()
            .chain(temp_extents)
            .map(|n| eval(n, lookup));
        crate::private::index64(extents)
    }

    /// Builds the kernels for `sizes` (one per size variable): the program with every size
    /// variable a constant (`-DLIFT_SIZE_<name>=<value>`: index arithmetic folds, divisions
    /// by sizes become multiplications), used by runs at exactly these sizes; other sizes
    /// run the general build. What a tuned choice runs ([`crate::Tuned::specialised`]).
    pub fn specialise(&mut self, sizes: &[usize]) -> Result<()> {
        let env = self.check_sizes(sizes)?;
        let lookup = |n: &str| env.get(n).copied();
        let wide = self.wide_at(&lookup)?;
        let names = self.kernel.sizes.iter().map(|(n, _)| n.as_str());
        let values = sizes.iter().map(|&v| v as i64);
        let options = format!(
            "{}{}",
            crate::private::index_options(wide),
            tune::size_options(names.zip(values))
        );
        let program = self.ctx.build(&self.gen.source, &options)?;
        let handles = self
            .gen
            .kernels
            .iter()
            .map(|g| program.kernel(&g.name))
            .collect::<Result<Vec<_>>>()?;
        self.special = Some((sizes.to_vec(), handles));
        Ok(())
    }

    /// The kernels built with 64-bit indices (built on first use).
    fn wide_handles(&self) -> Result<&[KernelHandle]> {
        if let Some(h) = self.wide.get() {
            return Ok(h);
        }
        let program = self
            .ctx
            .build(&self.gen.source, crate::private::index_options(true))?;
        let handles = self
            .gen
            .kernels
            .iter()
            .map(|g| program.kernel(&g.name))
            .collect::<Result<Vec<_>>>()?;
        Ok(self.wide.get_or_init(|| handles))
    }
}

/// Does `cond` hold with the sizes of `env`? (An arithmetic error counts as no.)
pub(crate) fn holds(cond: &Cond, env: &dyn Fn(&str) -> Option<i64>) -> bool {
    match cond {
        Cond::Divisible(a, b) => {
            matches!((a.eval(env), b.eval(env)), (Ok(a), Ok(b)) if b != 0 && a % b == 0)
        }
        Cond::Le(a, b) => matches!((a.eval(env), b.eval(env)), (Ok(a), Ok(b)) if a <= b),
    }
}
