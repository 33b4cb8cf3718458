//! The workloads: each module checks and times every implementation of its workloads.

pub mod blas;
pub mod reduce;
pub mod spellings;
pub mod stencil;
pub mod vgg;

use crate::clblast::ClBlast;
use crate::common::{bench_one, Config, Imp, Record, Reference, Work};
use crate::timing::{Done, Ev, Gate, Res};
use lift_runtime::{Buffer, Context};
use std::fmt::Display;

/// CLBlast if it loaded, else why not.
pub type Blas<'a> = Result<&'a ClBlast, &'a str>;

/// Name of the default-lowered lift-rs implementation.
pub const LIFT_DEFAULT: &str = "lift-rs default";

/// The implementations of one workload: each is checked against `reference` and timed on
/// `out`, or recorded with why it could not run; records go to `recs`.
pub struct Bench<'a> {
    /// The OpenCL context.
    pub ctx: &'a Context,
    /// The suite's configuration.
    pub cfg: &'a Config,
    /// The workload.
    pub work: &'a Work,
    /// Its CPU reference.
    pub reference: &'a Reference,
    /// The output buffer every implementation writes.
    pub out: &'a mut Buffer<f32>,
    /// Where the records go.
    pub recs: &'a mut Vec<Record>,
}

impl<'a> Bench<'a> {
    /// The implementations of `work`, checked against `reference`, recorded in `recs`.
    pub fn new(
        ctx: &'a Context,
        cfg: &'a Config,
        work: &'a Work,
        reference: &'a Reference,
        out: &'a mut Buffer<f32>,
        recs: &'a mut Vec<Record>,
    ) -> Bench<'a> {
        Bench {
            ctx,
            cfg,
            work,
            reference,
            out,
            recs,
        }
    }

    fn push(&mut self, imp: Imp<'_>, run: &mut dyn FnMut(&Buffer<f32>) -> Res<Done>) {
        let (ctx, cfg, work, reference) = (self.ctx, self.cfg, self.work, self.reference);
        self.recs
            .push(bench_one(ctx, cfg, work, imp, self.out, reference, run));
    }

    /// Benches `imp` with `run`, or records `error: {e}` when it could not be built.
    pub fn run<E: Display>(
        &mut self,
        imp: Imp<'_>,
        run: Result<impl FnMut(&Buffer<f32>) -> Res<Done>, E>,
    ) {
        match run {
            Ok(mut f) => self.push(imp, &mut f),
            Err(e) => self.error(imp.name, imp.class, e),
        }
    }

    /// An implementation timed by its own events ([`Gate::None`]).
    pub fn events<E: Display>(
        &mut self,
        name: &str,
        class: &str,
        timing: &str,
        run: Result<impl FnMut(&Buffer<f32>) -> Res<Done>, E>,
    ) {
        self.run(Imp::new(name, class, Gate::None, timing), run);
    }

    /// A `lift!` program built as `kernel`, run by `launch`, timed from its event: the start
    /// of the launch's first kernel to the end of its last (whatever candidate it runs).
    pub fn lift<K, E: Display>(
        &mut self,
        name: &str,
        class: &str,
        kernel: Result<K, E>,
        launch: impl Fn(&K, &Buffer<f32>) -> Res<lift_runtime::Event>,
    ) {
        let run = kernel.map(|k| move |o: &Buffer<f32>| Ok(Done::One(Ev::Lift(launch(&k, o)?))));
        let timing = "launch span (first kernel's start to last kernel's end)";
        self.run(Imp::new(name, class, Gate::None, timing), run);
    }

    /// [`Bench::lift`] for the default-lowered program ([`LIFT_DEFAULT`], class `lift`).
    pub fn default_lift<K, E: Display>(
        &mut self,
        kernel: Result<K, E>,
        launch: impl Fn(&K, &Buffer<f32>) -> Res<lift_runtime::Event>,
    ) {
        self.lift(LIFT_DEFAULT, "lift", kernel, launch);
    }

    /// The CLBlast routine `call`, timed from a marker gate; `not available` without CLBlast.
    pub fn clblast(
        &mut self,
        name: &str,
        blas: Blas<'_>,
        call: impl Fn(&ClBlast, &Buffer<f32>) -> Res<Ev>,
    ) {
        match blas {
            Ok(b) => {
                let imp = Imp::new(name, "clblast", Gate::Marker, "marker span");
                self.push(imp, &mut |o| Ok(Done::Last(call(b, o)?)));
            }
            Err(why) => self.unavailable(name, "clblast", why),
        }
    }

    /// Records `error: {e}`.
    pub fn error(&mut self, name: &str, class: &str, e: impl Display) {
        let rec = self.work.unmeasured(name, class, format!("error: {e}"));
        self.recs.push(rec);
    }

    /// Records `not available ({why})`.
    pub fn unavailable(&mut self, name: &str, class: &str, why: impl Display) {
        let rec = self
            .work
            .unmeasured(name, class, format!("not available ({why})"));
        self.recs.push(rec);
    }
}
