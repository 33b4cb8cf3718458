//! [`Devices`]: a set of devices, each with its own [`Context`] (SPEC section 6).

use crate::device::{all_devices, DeviceKind};
use crate::{Context, Error, Result};

/// The environment variable that [`Devices::new`] reads to choose the devices.
pub const DEVICES_ENV: &str = "LIFT_DEVICES";

/// A set of devices, each with its own context, queue and program cache. A kernel built on
/// a set ([`crate::SplitKernel`]) runs on all of them. The same device may be named twice:
/// two contexts on one device stand in for two devices (the tests do so on a CPU).
#[derive(Clone, Debug)]
pub struct Devices {
    contexts: Vec<Context>,
}

impl Devices {
    /// The devices named by `LIFT_DEVICES` (see [`Devices::with_selector`]); unset, every GPU,
    /// else the device [`Context::new`] chooses.
    pub fn new() -> Result<Devices> {
        let selector = std::env::var_os(DEVICES_ENV)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Devices::with_selector(&selector)
    }

    /// The devices `selector` names: `gpu` or `cpu` (every device of that kind), or a
    /// comma-separated list of `LIFT_DEVICE` selectors, one device each (`0,1`, `cpu,cpu`, name
    /// substrings); empty: every GPU, else the default device. A selector that matches
    /// nothing is [`Error::DeviceNotFound`].
    pub fn with_selector(selector: &str) -> Result<Devices> {
        let sel = selector.trim().to_lowercase();
        let kind = match sel.as_str() {
            "" | "gpu" => Some(DeviceKind::Gpu),
            "cpu" => Some(DeviceKind::Cpu),
            _ => None,
        };
        let contexts = match kind {
            Some(kind) => {
                let indices: Vec<usize> = all_devices()?
                    .iter()
                    .filter(|(d, _)| d.kind == kind)
                    .map(|(d, _)| d.index)
                    .collect();
                match (indices.is_empty(), sel.is_empty()) {
                    (true, true) => vec![Context::new()?],
                    (true, false) => vec![Context::with_selector(&sel)?],
                    _ => indices
                        .iter()
                        .map(|i| Context::with_selector(&i.to_string()))
                        .collect::<Result<_>>()?,
                }
            }
            None => selector
                .split(',')
                .map(|s| Context::with_selector(s.trim()))
                .collect::<Result<_>>()?,
        };
        Ok(Devices { contexts })
    }

    /// A set of the given contexts, in order.
    pub fn from_contexts(contexts: Vec<Context>) -> Result<Devices> {
        match contexts.is_empty() {
            true => Err(Error::DeviceNotFound {
                selector: "an empty set of devices".into(),
                available: Vec::new(),
            }),
            false => Ok(Devices { contexts }),
        }
    }

    /// The contexts, one per device, in order.
    pub fn contexts(&self) -> &[Context] {
        &self.contexts
    }

    /// The number of devices.
    pub fn len(&self) -> usize {
        self.contexts.len()
    }

    /// Never: a set holds at least one device.
    pub fn is_empty(&self) -> bool {
        self.contexts.is_empty()
    }
}
