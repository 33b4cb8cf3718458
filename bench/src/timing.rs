//! Timing from OpenCL profiling events: warm-up, then repeated runs; median and p10/p90.

use cl3::event::{create_user_event, release_event, set_user_event_status};
use lift_runtime::opencl3::types::cl_int;

/// `CL_COMPLETE`, the status that releases a user event.
const CL_COMPLETE: cl_int = 0;
use lift_runtime::opencl3::event::Event as ClEvent;
use lift_runtime::Context;
use std::time::Instant;

/// Boxed error used across the suite.
pub type BoxError = Box<dyn std::error::Error>;
/// Result with [`BoxError`].
pub type Res<T> = Result<T, BoxError>;

/// An event from `opencl3` or from a generated launcher.
pub enum Ev {
    /// A raw `opencl3` event.
    Cl(ClEvent),
    /// The event a `lift!` launcher returned.
    Lift(lift_runtime::Event),
}

impl Ev {
    /// The event that ends the command (a `lift!` launch's last kernel's).
    fn cl(&self) -> &ClEvent {
        match self {
            Ev::Cl(e) => e,
            Ev::Lift(e) => e.raw(),
        }
    }

    /// The event that starts the command (a `lift!` launch's first kernel's).
    fn first(&self) -> &ClEvent {
        match self {
            Ev::Cl(e) => e,
            Ev::Lift(e) => e.first_raw(),
        }
    }
}

/// The events of one run of an implementation.
pub enum Done {
    /// One kernel: its own start..end.
    One(Ev),
    /// Several kernels whose events we hold: first start .. last end.
    Many(Vec<Ev>),
    /// Several kernels of which only the last event is known (a multi-kernel `lift!`
    /// launcher, a CLBlast routine): timed from a gate marker (see [`Gate`]) to its end.
    Last(Ev),
}

impl From<lift_runtime::Event> for Ev {
    fn from(e: lift_runtime::Event) -> Ev {
        Ev::Lift(e)
    }
}

impl From<ClEvent> for Ev {
    fn from(e: ClEvent) -> Ev {
        Ev::Cl(e)
    }
}

/// How the span of a run that ends in [`Done::Last`] is opened. A one-work-item `gate`
/// kernel is enqueued first; the span is its end .. the last event's end (kernel timestamps
/// only: marker timestamps proved unreliable on POCL).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Gate {
    /// No gate: the implementation's events give the time ([`Done::One`], [`Done::Many`]).
    None,
    /// The gate kernel waits on a user event that is completed only once the run's commands
    /// are enqueued, so that they execute back to back behind it (lift launchers: their
    /// enqueue never blocks).
    UserEvent,
    /// The gate kernel runs at once (libraries that might block inside the call); the span
    /// then includes the host time of the library call.
    Marker,
}

/// Summary of repeated timings, in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Median time.
    pub median_ms: f64,
    /// 10th percentile.
    pub p10_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// Number of timed runs.
    pub runs: usize,
}

impl Stats {
    /// Median and 10th/90th percentiles of `ns`.
    pub fn from_ns(mut ns: Vec<f64>) -> Stats {
        ns.sort_by(f64::total_cmp);
        let q = |p: f64| ns[((ns.len() - 1) as f64 * p).round() as usize] / 1e6;
        Stats {
            median_ms: q(0.5),
            p10_ms: q(0.1),
            p90_ms: q(0.9),
            runs: ns.len(),
        }
    }
}

/// The gate kernel and its one-float sink, built once per thread and context.
struct GateKernel {
    ctx: Context,
    kernel: lift_runtime::KernelHandle,
    _sink: lift_runtime::Buffer<f32>,
}

thread_local! {
    static GATE: std::cell::RefCell<Option<GateKernel>> = const { std::cell::RefCell::new(None) };
}

/// Enqueues the one-work-item gate kernel after `wait`.
fn enqueue_gate(ctx: &Context, wait: &[cl3::types::cl_event]) -> Res<ClEvent> {
    GATE.with(|g| -> Res<ClEvent> {
        let mut g = g.borrow_mut();
        let stale = g
            .as_ref()
            .is_none_or(|k| k.ctx.cl_context().get() != ctx.cl_context().get());
        if stale {
            let kernel = crate::opencl::kernel(ctx, crate::opencl::ROOFLINE_CL, "", "gate")?;
            let sink = ctx.alloc::<f32>(1)?;
            kernel.set_buffer(0, &sink)?;
            *g = Some(GateKernel {
                ctx: ctx.clone(),
                kernel,
                _sink: sink,
            });
        }
        let k = g.as_ref().ok_or("gate kernel missing")?;
        let one = [1usize];
        // SAFETY: the gate kernel's only argument is set; one work-item; `wait` holds live events.
        let e = unsafe {
            ctx.cl_queue().enqueue_nd_range_kernel(
                k.kernel.raw().get(),
                1,
                std::ptr::null(),
                one.as_ptr(),
                std::ptr::null(),
                wait,
            )
        }?;
        Ok(e)
    })
}

/// Turns an OpenCL status into an error naming `call`.
fn cl_err(call: &'static str) -> impl Fn(i32) -> BoxError {
    move |code| format!("{call} failed with OpenCL error {code}").into()
}

/// The start of the command's first kernel and the end of its last.
fn prof(e: &Ev) -> Res<(u64, u64)> {
    e.cl().wait()?;
    Ok((
        e.first().profiling_command_start()?,
        e.cl().profiling_command_end()?,
    ))
}

/// Runs `f` once under `gate` and returns its device time in nanoseconds.
pub fn time_once(ctx: &Context, gate: Gate, f: &mut dyn FnMut() -> Res<Done>) -> Res<f64> {
    ctx.finish()?;
    let (user, marker) = match gate {
        Gate::None => (None, None),
        Gate::UserEvent => {
            let ue =
                create_user_event(ctx.cl_context().get()).map_err(cl_err("clCreateUserEvent"))?;
            match enqueue_gate(ctx, &[ue]) {
                Ok(m) => (Some(ue), Some(m)),
                Err(e) => {
                    // SAFETY: drops the reference `create_user_event` gave us.
                    let _ = unsafe { release_event(ue) };
                    return Err(e);
                }
            }
        }
        Gate::Marker => (None, Some(enqueue_gate(ctx, &[])?)),
    };
    let done = f();
    if let Some(ue) = user {
        // Release the queue whatever `f` did, then drop our reference.
        set_user_event_status(ue, CL_COMPLETE).map_err(cl_err("clSetUserEventStatus"))?;
        // SAFETY: drops the reference `create_user_event` gave us; the marker holds its own.
        unsafe { release_event(ue) }.map_err(cl_err("clReleaseEvent"))?;
    }
    let done = done?;
    let ns = match (&done, &marker) {
        (Done::One(e), _) => {
            let (s, t) = prof(e)?;
            t.saturating_sub(s)
        }
        (Done::Many(v), _) => {
            let first = v.first().ok_or("no events")?;
            let last = v.last().ok_or("no events")?;
            let (s, _) = prof(first)?;
            let (_, t) = prof(last)?;
            t.saturating_sub(s)
        }
        (Done::Last(e), Some(m)) => {
            let (_, t) = prof(e)?;
            let m = m.wait().and_then(|_| m.profiling_command_end());
            let m_end = m?;
            if std::env::var_os("LIFT_BENCH_DEBUG").is_some() {
                let (s, _) = prof(e)?;
                eprintln!(
                    "    gate end {m_end}, last start {s} (+{}), last end {t}",
                    s as i64 - m_end as i64
                );
            }
            t.saturating_sub(m_end)
        }
        (Done::Last(e), None) => {
            let (s, t) = prof(e)?;
            t.saturating_sub(s)
        }
    };
    Ok(ns as f64)
}

/// Warm-up runs, then at least `min_runs` timed runs (fewer, but at least 3, when one run
/// takes longer than `budget_s / min_runs`: slow baselines stay affordable).
pub fn measure(
    ctx: &Context,
    gate: Gate,
    warmup: usize,
    min_runs: usize,
    budget_s: f64,
    f: &mut dyn FnMut() -> Res<Done>,
) -> Res<Stats> {
    let start = Instant::now();
    for _ in 0..warmup {
        time_once(ctx, gate, f)?;
        if start.elapsed().as_secs_f64() > budget_s / 4.0 {
            break;
        }
    }
    let start = Instant::now();
    let mut ns = Vec::with_capacity(min_runs);
    while ns.len() < min_runs {
        ns.push(time_once(ctx, gate, f)?);
        if ns.len() >= 3 && start.elapsed().as_secs_f64() > budget_s {
            break;
        }
    }
    Ok(Stats::from_ns(ns))
}
