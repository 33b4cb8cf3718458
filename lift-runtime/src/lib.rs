//! `lift-runtime`: what users of lift-rs depend on.
//!
//! Re-exports the [`lift!`] macro and the pieces generated code refers to: device selection
//! ([`Context`]), typed device buffers ([`Buffer`]), the program cache ([`Context::build`]),
//! kernel launches ([`KernelHandle`], [`Event`]), the [`Error`] type, [`DynKernel`] for
//! programs compiled at run time, and the choice among a kernel's candidates: without timing
//! ([`select`]) or by the tuner ([`tune`]) with its persistent [`cache`]; `LIFT_DUMP=dir`
//! writes every kernel built at run time and every tuning result into `dir` ([`dump`]).

#![warn(missing_docs)]

pub use lift_macros::lift;

/// The compiler, for generated code and for users who want to inspect programs.
pub use lift_core as core;

/// Half-precision floats (`f16` in `lift!` types).
pub use half;

/// The `opencl3` crate the runtime is built on, for interoperation through the `raw` accessors.
pub use opencl3;

mod buffer;
pub mod cache;
mod check;
mod context;
mod device;
mod devices;
pub mod dump;
pub mod dynamic;
pub mod engine;
mod error;
pub mod explored;
mod faults;
mod host;
mod iterate;
mod launch;
pub mod live;
mod program;
#[cfg(feature = "mpi")]
pub mod ranks;
pub mod select;
mod split;
pub mod tune;
mod weights;

pub use buffer::{Buffer, DeviceScalar};
pub use context::{Context, DEVICE_ENV, DEVICE_MODEL_ENV, MAX_TEMPORARY_ENV};
pub use device::{device_model, devices, DeviceInfo, DeviceKind};
pub use devices::{Devices, DEVICES_ENV};
pub use dynamic::DynKernel;
pub use engine::{CandidateInfo, Scratch};
pub use error::{Error, Result};
pub use host::{HostArg, HostData, HostScalar};
pub use iterate::Steps;
pub use launch::{Event, KernelHandle};
pub use live::{live_objects, LiveObjects};
pub use program::BuiltProgram;
pub use split::{Placement, SplitKernel};
pub use tune::Tuned;

#[doc(hidden)]
pub mod __private {
    //! Used by generated code only.
    pub use crate::private::*;
}
mod private;

/// Fault injection for tests (feature `fault-injection`, enabled by the tests crate only):
/// [`__faults::inject`] arms a point of the runs on one context, on the calling thread.
#[cfg(feature = "fault-injection")]
#[doc(hidden)]
pub mod __faults {
    pub use crate::faults::{inject, Fault, Point};
}
