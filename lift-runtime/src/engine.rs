//! What a `lift!` kernel runs on (SPEC sections 3 and 5): the typed launcher the macro emits
//! checks sizes and arguments and hands them to an [`Engine`], which owns everything that
//! depends on what the explorer finds: the candidates (explored at run time, once, see
//! [`crate::explored`]), their builds, the choice per sizes (cached tuning result, else the
//! first that applies and fits the device), the global temporaries per candidate (allocated
//! on first use, reused), and the launches themselves: argument setting and one enqueue per
//! kernel of the candidate, driven by the candidate's launch description, with no allocation
//! once it is built. The generated API therefore depends only on the kernel's declaration.

use crate::dynamic::{eval, holds};
use crate::private::{index64, index_options, round_up_in_place, to_usize};
use crate::select::CandidateFacts;
use crate::tune::{self, TuneJob, Tuned};
use crate::{Buffer, Context, DeviceScalar, Error, Event, KernelHandle, Result};
use lift_core::arith::Nat;
use lift_core::codegen::{Generated, KernelArg};
use lift_core::typeck::Cond;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, OnceLock};

/// What the macro knows of a kernel at build time: its declaration and program text.
#[derive(Clone, Copy, Debug)]
pub struct Decl {
    /// The kernel's name.
    pub name: &'static str,
    /// The kernel with the user functions it calls, as `lift!` source (`Name::LIFT`).
    pub lift: &'static str,
    /// OpenCL C of `include!`d files, put before every candidate's source.
    pub helpers: &'static str,
    /// The size variables, in declaration order.
    pub sizes: &'static [&'static str],
    /// The OpenCL C program of the default configuration (`Name::SOURCE`).
    pub source: &'static str,
}

/// One candidate of a kernel, as the explorer derived it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandidateInfo {
    /// `strategy(parameter=value, ...)`.
    pub name: String,
    /// Its tuning parameters.
    pub params: Vec<(String, i64)>,
    /// The conditions under which it applies beyond the kernel's own (`; `-separated, empty
    /// for every size).
    pub conditions: String,
    /// Its OpenCL C program.
    pub source: String,
    /// The low-level expression compiled.
    pub lowered: String,
    /// Its OpenCL kernels, in launch order.
    pub kernels: Vec<String>,
}

/// Global temporaries for launches of one candidate (see the generated `scratch`,
/// `scratch_for` and `launch_in`).
#[derive(Debug)]
pub struct Scratch {
    bufs: Vec<Buffer<u8>>,
}

impl Scratch {
    /// Device memory held, in bytes.
    pub fn bytes(&self) -> usize {
        self.bufs.iter().map(Buffer::len).sum()
    }
}

/// A kernel argument the launcher passes through: a buffer or a scalar.
pub trait ArgValue {
    /// Sets argument `index` of `k` to this value.
    fn set(&self, k: &KernelHandle, index: u32) -> Result<()>;
}

impl<T: DeviceScalar> ArgValue for Buffer<T> {
    fn set(&self, k: &KernelHandle, index: u32) -> Result<()> {
        k.set_buffer(index, self)
    }
}

macro_rules! scalar_arg {
    ($($t:ty),*) => {$(
        impl ArgValue for $t {
            fn set(&self, k: &KernelHandle, index: u32) -> Result<()> {
                k.set_scalar(index, *self)
            }
        }
    )*};
}
scalar_arg!(f32, f64, i32, u32, i64, u64, u8);

/// The buffers of one launch besides the parameters: the result, a capped result's length.
pub struct Outputs<'a> {
    /// The result buffer.
    pub out: &'a dyn ArgValue,
    /// The one-element length buffer of a capped result.
    pub count: Option<&'a Buffer<i32>>,
}

/// One candidate, kept without spans (the engine may move between threads).
#[derive(Debug)]
struct Cand {
    conditions: Vec<Cond>,
    generated: Generated,
}

/// The explored candidates and what the launcher needs of the kernel's types.
#[derive(Debug)]
struct Space {
    infos: Vec<CandidateInfo>,
    cands: Vec<Cand>,
    /// The extents of the kernel's arrays and views (the index width depends on them).
    extents: Vec<Nat>,
}

/// The builds of one candidate at one index width: general, and per sizes.
#[derive(Debug, Default)]
struct CandBuilds {
    general: Option<Vec<KernelHandle>>,
    /// Keyed by the sizes, looked up by slice (a launch allocates no key).
    special: HashMap<Vec<i64>, Vec<KernelHandle>>,
}

/// The builds per candidate and index width (64-bit indices if `true`).
type Builds = HashMap<(usize, bool), CandBuilds>;

/// The run-time side of one `lift!` kernel on one context.
#[derive(Debug)]
pub struct Engine {
    ctx: Context,
    decl: Decl,
    id: String,
    space: OnceLock<std::result::Result<Space, String>>,
    builds: Mutex<Builds>,
    choices: Mutex<HashMap<Vec<i64>, (usize, bool)>>,
    /// The temporaries of the candidate launched last (on its own temporaries): one
    /// candidate's at a time, grown when sizes need more, so a kernel launched repeatedly
    /// allocates once and one whose candidates are launched in turn holds one set.
    temps: Mutex<Option<(usize, Scratch)>>,
}

impl Engine {
    /// The engine of kernel `decl` on `ctx`; builds the default configuration (`SOURCE`), so
    /// that a build error shows here.
    pub fn new(ctx: &Context, decl: Decl) -> Result<Engine> {
        ctx.build(decl.source, index_options(false))?;
        Ok(Engine {
            ctx: ctx.clone(),
            decl,
            id: crate::private::kernel_id(decl.name, decl.lift),
            space: OnceLock::new(),
            builds: Mutex::new(HashMap::new()),
            choices: Mutex::new(HashMap::new()),
            temps: Mutex::new(None),
        })
    }

    /// The context.
    pub fn ctx(&self) -> &Context {
        &self.ctx
    }

    /// The explored space (explored on first use).
    fn space(&self) -> Result<&Space> {
        let s = self
            .space
            .get_or_init(|| self.explore().map_err(|e| e.to_string()));
        s.as_ref().map_err(|message| Error::Compile {
            message: message.clone(),
        })
    }

    fn explore(&self) -> Result<Space> {
        let d = &self.decl;
        let model = self.ctx.device_model();
        let ex = crate::explored::explored_for(d.lift, d.name, &self.id, &model)?;
        let mut prog = lift_core::parse::parse_program_str(d.lift).map_err(|e| Error::Compile {
            message: e.to_string(),
        })?;
        let infos = lift_core::typeck::check_program(&mut prog).map_err(|e| Error::Compile {
            message: e.to_string(),
        })?;
        let extents = infos
            .into_iter()
            .find(|i| i.name == d.name)
            .map(|i| i.extents)
            .unwrap_or_default();
        let (infos, cands) = ex
            .candidates
            .into_iter()
            .map(|c| {
                let mut generated = c.generated;
                if !d.helpers.is_empty() {
                    generated.source = format!("{}\n{}", d.helpers, generated.source);
                }
                let conditions: Vec<String> = c.conditions.iter().map(|p| p.to_string()).collect();
                let info = CandidateInfo {
                    name: c.name,
                    params: c.params,
                    conditions: conditions.join("; "),
                    source: generated.source.clone(),
                    lowered: generated.lowered.clone(),
                    kernels: generated.kernels.iter().map(|k| k.name.clone()).collect(),
                };
                let cand = Cand {
                    conditions: c.conditions.into_iter().map(|p| p.cond).collect(),
                    generated,
                };
                (info, cand)
            })
            .unzip();
        Ok(Space {
            infos,
            cands,
            extents,
        })
    }

    /// Every candidate, in the explorer's order of preference.
    pub fn candidates(&self) -> Result<&[CandidateInfo]> {
        Ok(&self.space()?.infos)
    }

    /// The candidate `c` and what is shown of it, or an `Err` naming the argument.
    fn cand(&self, c: usize) -> Result<(&Cand, &CandidateInfo)> {
        let space = self.space()?;
        space
            .cands
            .get(c)
            .zip(space.infos.get(c))
            .ok_or_else(|| Error::ArgLength {
                arg: "candidate".into(),
                expected: space.cands.len(),
                actual: c,
            })
    }

    /// The value of size variable `n` among checked `sizes`.
    fn lookup<'a>(&'a self, sizes: &'a [i64]) -> impl Fn(&str) -> Option<i64> + 'a {
        move |n: &str| {
            let i = self.decl.sizes.iter().position(|s| *s == n)?;
            sizes.get(i).copied()
        }
    }

    /// For checked sizes: whether each candidate applies and what it needs of the device.
    fn facts(&self, sizes: &[i64]) -> Result<Vec<CandidateFacts>> {
        let lookup = self.lookup(sizes);
        let value = |x: &Nat| eval(x, &lookup).ok().and_then(|v| usize::try_from(v).ok());
        Ok(self
            .space()?
            .cands
            .iter()
            .map(|c| {
                let g = &c.generated.kernels;
                let fixed = g.iter().find(|k| k.local.is_some());
                let local = fixed.and_then(|k| k.local.as_ref());
                CandidateFacts {
                    applies: c.conditions.iter().all(|p| holds(p, &lookup)),
                    group: local
                        .map(|l| l.iter().map(|x| value(x).unwrap_or(usize::MAX)).collect()),
                    groups: fixed.zip(local).and_then(|(k, l)| {
                        k.global.iter().zip(l).try_fold(1usize, |acc, (g, l)| {
                            acc.checked_mul(value(g)?.div_ceil(value(l)?.max(1)))
                        })
                    }),
                    local_bytes: g
                        .iter()
                        .map(|k| value(&k.local_mem_bytes).unwrap_or(usize::MAX))
                        .max()
                        .unwrap_or(0),
                    temporaries: c
                        .generated
                        .temporaries
                        .iter()
                        .map(|t| value(&t.bytes).unwrap_or(usize::MAX))
                        .collect(),
                }
            })
            .collect())
    }

    /// The candidate a launch at checked sizes runs, and whether it runs built for them: the
    /// tuned choice cached for this device and these sizes, else the first candidate that
    /// applies and fits the device.
    pub fn choose(&self, sizes: &[i64]) -> Result<(usize, bool)> {
        if let Some(&c) = lock(&self.choices).get(sizes) {
            return Ok(c);
        }
        let facts = self.facts(sizes)?;
        let cands = self.candidates()?;
        let names: Vec<&str> = cands.iter().map(|c| c.name.as_str()).collect();
        let usizes = usizes(sizes);
        let c = tune::cached_choice(&self.ctx, &self.id, &usizes, &names)
            .filter(|&(c, _)| facts[c].applies && facts[c].fits(&self.ctx))
            .or_else(|| crate::select::default_choice(&self.ctx, &facts).map(|c| (c, false)))
            .ok_or_else(|| crate::select::no_choice(&self.ctx, &names, &facts))?;
        lock(&self.choices).insert(sizes.to_vec(), c);
        Ok(c)
    }

    /// The tuning result cached for checked sizes, if any (remembered as the choice).
    pub fn cached_tuning(&self, sizes: &[i64]) -> Result<Option<Tuned>> {
        let (names, params, facts) = self.job_parts(sizes)?;
        let params: Vec<&[(&str, i64)]> = params.iter().map(Vec::as_slice).collect();
        let usizes = usizes(sizes);
        let job = self.job(&usizes, &names, &params, &facts);
        Ok(tune::cached(&self.ctx, &job).map(|(c, t)| {
            lock(&self.choices).insert(sizes.to_vec(), (c, t.specialised));
            t
        }))
    }

    /// Tunes at checked sizes (SPEC section 5): every candidate that applies and fits is
    /// checked against the interpreter, then timed by `launch(candidate, built for the
    /// sizes)`; the fastest is cached and becomes the choice.
    pub fn tune(
        &self,
        sizes: &[i64],
        launch: &mut dyn FnMut(usize, bool) -> Result<f64>,
    ) -> Result<Tuned> {
        let (names, params, facts) = self.job_parts(sizes)?;
        let params: Vec<&[(&str, i64)]> = params.iter().map(Vec::as_slice).collect();
        let usizes = usizes(sizes);
        let job = self.job(&usizes, &names, &params, &facts);
        let (ctx, lift, name) = (&self.ctx, self.decl.lift, self.decl.name);
        let (c, t) = tune::tune(
            ctx,
            &job,
            &|c| tune::check_candidate(ctx, lift, name, names[c]),
            launch,
        )?;
        lock(&self.choices).insert(sizes.to_vec(), (c, t.specialised));
        Ok(t)
    }

    #[allow(clippy::type_complexity)]
    fn job_parts(
        &self,
        sizes: &[i64],
    ) -> Result<(Vec<&str>, Vec<Vec<(&str, i64)>>, Vec<CandidateFacts>)> {
        let facts = self.facts(sizes)?;
        let cands = self.candidates()?;
        let names = cands.iter().map(|c| c.name.as_str()).collect();
        let params = cands
            .iter()
            .map(|c| c.params.iter().map(|(n, v)| (n.as_str(), *v)).collect())
            .collect();
        Ok((names, params, facts))
    }

    fn job<'a>(
        &'a self,
        sizes: &'a [usize],
        names: &'a [&'a str],
        params: &'a [&'a [(&'a str, i64)]],
        facts: &'a [CandidateFacts],
    ) -> TuneJob<'a> {
        TuneJob {
            kernel_id: &self.id,
            sizes,
            names,
            params,
            facts,
            specialise: true,
        }
    }

    /// The bytes of global temporaries candidate `c` uses at checked sizes.
    pub fn temporary_bytes(&self, c: usize, sizes: &[i64]) -> Result<usize> {
        let lookup = self.lookup(sizes);
        let sum = needs(self.cand(c)?.0, &lookup).try_fold(0, |sum, n| Ok(sum + n?));
        sum
    }

    /// Allocates the temporaries candidate `c` needs at checked sizes (nothing where it does
    /// not apply).
    pub fn scratch_for(&self, c: usize, sizes: &[i64]) -> Result<Scratch> {
        let lookup = self.lookup(sizes);
        let bufs = needs(self.cand(c)?.0, &lookup)
            .map(|b| self.ctx.alloc::<u8>(b?.max(1)))
            .collect::<Result<_>>()?;
        Ok(Scratch { bufs })
    }

    /// Whether candidate `c` applies at checked sizes (an `Err` if there is no such one).
    fn check_applies(&self, c: usize, sizes: &[i64]) -> Result<()> {
        let (cand, info) = self.cand(c)?;
        let lookup = self.lookup(sizes);
        match cand.conditions.iter().all(|p| holds(p, &lookup)) {
            true => Ok(()),
            false => Err(Error::Launch {
                reason: format!(
                    "candidate `{}` does not apply to these sizes: {}",
                    info.name, info.conditions
                ),
            }),
        }
    }

    /// Launches candidate `c` (built for the sizes if `special`) at checked sizes with the
    /// kernel's arguments `args` (one per parameter, in order; lengths checked by the
    /// caller) and its temporaries from `scratch`, else from those the engine owns.
    pub fn launch(
        &self,
        (c, special): (usize, bool),
        sizes: &[i64],
        args: &[&dyn ArgValue],
        outs: Outputs<'_>,
        scratch: Option<&Scratch>,
    ) -> Result<Event> {
        self.check_applies(c, sizes)?;
        let (cand, info) = self.cand(c)?;
        let lookup = self.lookup(sizes);
        let wide = self.wide(cand, &lookup)?;
        let mut builds = lock(&self.builds);
        // Looked up without a key of its own: the entry exists after the first launch, and
        // the per-sizes map is searched by the `sizes` slice.
        let per = builds.entry((c, wide)).or_default();
        let handles: &[KernelHandle] = match special {
            true => {
                if !per.special.contains_key(sizes) {
                    let handles = self.build((c, cand, info), wide, Some(sizes))?;
                    per.special.insert(sizes.to_vec(), handles);
                }
                per.special.get(sizes).map_or(&[][..], Vec::as_slice)
            }
            false => {
                if per.general.is_none() {
                    per.general = Some(self.build((c, cand, info), wide, None)?);
                }
                per.general.as_deref().unwrap_or(&[])
            }
        };
        let mut owned = lock(&self.temps);
        let temps = match scratch {
            Some(s) => {
                for (i, n) in needs(cand, &lookup).enumerate() {
                    let n = n?;
                    let have = s.bufs.get(i).map_or(0, Buffer::len);
                    if have < n {
                        return Err(Error::ArgLength {
                            arg: format!("scratch (temporary {i} of candidate `{}`, in bytes; make it with `scratch_for` this candidate at these sizes)", info.name),
                            expected: n,
                            actual: have,
                        });
                    }
                }
                s
            }
            None => {
                let fits = match owned.as_ref() {
                    Some((held, s)) if *held == c => {
                        let mut fits = true;
                        for (i, n) in needs(cand, &lookup).enumerate() {
                            if s.bufs.get(i).map_or(0, Buffer::len) < n? {
                                fits = false;
                                break;
                            }
                        }
                        fits
                    }
                    _ => false,
                };
                if !fits {
                    // The old set is freed before the new one is allocated.
                    *owned = None;
                    *owned = Some((c, self.scratch_for(c, sizes)?));
                }
                owned
                    .as_ref()
                    .map(|(_, s)| s)
                    .ok_or_else(|| Error::launch("temporaries not allocated"))?
            }
        };
        let mut first: Option<Event> = None;
        let mut last: Option<Event> = None;
        for (k, g) in handles.iter().zip(&cand.generated.kernels) {
            for (i, a) in g.args.iter().enumerate() {
                let i = i as u32;
                match a {
                    KernelArg::Input { param } | KernelArg::Scalar { param } => args
                        .get(*param)
                        .ok_or_else(|| Error::launch("missing argument"))?
                        .set(k, i)?,
                    KernelArg::Output => outs.out.set(k, i)?,
                    KernelArg::Count => match outs.count {
                        Some(b) => k.set_buffer(i, b)?,
                        None => return Err(Error::launch("missing count buffer")),
                    },
                    KernelArg::Temporary(t) => {
                        let b = temps
                            .bufs
                            .get(*t)
                            .ok_or_else(|| Error::launch("missing temporary"))?;
                        k.set_buffer(i, b)?;
                    }
                    KernelArg::Size(s) => {
                        let v = lookup(s).ok_or_else(|| Error::launch("unknown size"))?;
                        match wide {
                            true => k.set_scalar(i, v)?,
                            false => k.set_scalar(i, v as i32)?,
                        }
                    }
                    KernelArg::Local { bytes } => {
                        k.set_local(i, to_usize(eval(bytes, &lookup)?)?)?
                    }
                    KernelArg::Trace { .. } => {
                        return Err(Error::launch("a traced kernel in a launcher"))
                    }
                }
            }
            let mut global = [1usize; 3];
            let dims = g.global.len().min(3);
            for (d, x) in g.global.iter().take(3).enumerate() {
                global[d] = to_usize(eval(x, &lookup)?)?;
            }
            let mut local = [1usize; 3];
            let fixed = match &g.local {
                Some(l) => {
                    for (d, x) in l.iter().take(3).enumerate() {
                        local[d] = to_usize(eval(x, &lookup)?)?;
                    }
                    Some(&local[..dims])
                }
                None => None,
            };
            let auto = match fixed {
                Some(_) => None,
                None => k.default_local(&self.ctx, &global[..dims]),
            };
            let local = fixed.or(auto.as_ref().map(|l| &l[..dims]));
            round_up_in_place(&mut global[..dims], local);
            let lmem = to_usize(eval(&g.local_mem_bytes, &lookup)?)?;
            self.ctx.check_launch(&global[..dims], local, lmem)?;
            let ev = crate::private::enqueue(k, &self.ctx, &global[..dims], local)?;
            if first.is_none() {
                first = Some(ev);
            } else {
                last = Some(ev);
            }
        }
        match (first, last) {
            (Some(f), Some(l)) => Ok(crate::private::spanning(l, f)),
            (Some(f), None) => Ok(f),
            _ => Err(Error::launch("a candidate without kernels")),
        }
    }

    /// Whether a launch of `cand` at the sizes of `lookup` indexes with 64-bit arithmetic.
    fn wide(&self, cand: &Cand, lookup: &dyn Fn(&str) -> Option<i64>) -> Result<bool> {
        let temps = cand.generated.temporaries.iter().map(|t| &t.scalars);
        let extents = self.space()?.extents.iter().chain(temps);
        index64(extents.map(|n| eval(n, lookup)))
    }

    /// Builds the kernels of candidate `c` (index width `wide`; for `sizes` if given).
    fn build(
        &self,
        (c, cand, info): (usize, &Cand, &CandidateInfo),
        wide: bool,
        sizes: Option<&[i64]>,
    ) -> Result<Vec<KernelHandle>> {
        let options = match sizes {
            Some(s) => format!(
                "{}{}",
                index_options(wide),
                tune::size_options(self.decl.sizes.iter().copied().zip(s.iter().copied()))
            ),
            None => index_options(wide).to_string(),
        };
        let program = self.ctx.build(&cand.generated.source, &options)?;
        let handles = info
            .kernels
            .iter()
            .map(|k| program.kernel(k))
            .collect::<Result<Vec<_>>>()?;
        if sizes.is_none() && !wide {
            let params: Vec<(&str, i64)> =
                info.params.iter().map(|(n, v)| (n.as_str(), *v)).collect();
            crate::dump::kernel(&crate::dump::KernelDump {
                kernel: self.decl.name,
                kernel_id: &self.id,
                lift: self.decl.lift,
                index: c,
                candidate: &info.name,
                params: &params,
                conditions: &info.conditions,
                lowered: &info.lowered,
                source: &info.source,
                builder: "launcher",
            });
        }
        Ok(handles)
    }
}

/// The bytes of each temporary of `cand` at the sizes of `lookup` (zeros where it does not
/// apply), evaluated as they are iterated: a launch checks them without collecting them.
fn needs<'a>(
    cand: &'a Cand,
    lookup: &'a dyn Fn(&str) -> Option<i64>,
) -> impl Iterator<Item = Result<usize>> + 'a {
    let applies = cand.conditions.iter().all(|p| holds(p, lookup));
    cand.generated
        .temporaries
        .iter()
        .map(move |t| match applies {
            true => to_usize(eval(&t.bytes, lookup)?),
            false => Ok(0),
        })
}

/// A lock whose poisoning (a panic elsewhere mid-launch) leaves the data usable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Checked sizes as `usize` (they are positive).
fn usizes(sizes: &[i64]) -> Vec<usize> {
    sizes.iter().map(|&s| s as usize).collect()
}
