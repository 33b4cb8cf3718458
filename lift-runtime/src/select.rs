//! Choosing a candidate without timing (SPEC section 5): the first candidate, in the
//! explorer's order of preference, whose conditions hold for the sizes at hand and whose
//! launch fits the device's own limits (work-group size per dimension and in total, local
//! memory). No table of devices, no measurement: the limits are read from the device.

use crate::Context;

/// What the runtime knows of one candidate for the sizes of a launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandidateFacts {
    /// Its launch-time conditions hold for these sizes.
    pub applies: bool,
    /// The work-group size it requires per dimension, if it fixes one.
    pub group: Option<Vec<usize>>,
    /// The local memory it allocates statically, in bytes.
    pub local_bytes: usize,
}

impl CandidateFacts {
    /// Does the launch fit the device of `ctx`?
    pub fn fits(&self, ctx: &Context) -> bool {
        let info = ctx.device_info();
        if self.local_bytes as u64 > info.local_mem_bytes {
            return false;
        }
        match &self.group {
            None => true,
            Some(g) => {
                let total = g.iter().try_fold(1usize, |acc, &x| acc.checked_mul(x));
                total.is_some_and(|t| t <= info.max_work_group_size)
                    && g.iter()
                        .zip(&info.max_work_item_sizes)
                        .all(|(&x, &max)| x <= max)
                    && g.len() <= info.max_work_item_sizes.len().max(1)
            }
        }
    }
}

/// The first candidate that applies and fits the device, if any.
pub fn default_choice(ctx: &Context, cands: &[CandidateFacts]) -> Option<usize> {
    cands.iter().position(|c| c.applies && c.fits(ctx))
}
