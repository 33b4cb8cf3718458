//! Choosing a candidate without timing (SPEC section 5): the first candidate, in the
//! explorer's order of preference, whose conditions hold for the sizes at hand and whose
//! launch fits the device's own limits (work-group size per dimension and in total, local
//! memory, the largest allocation and the global memory for its temporaries) and the
//! context's bound on temporaries, if it has one; where that one launches fewer work-groups than the device has compute units
//! (a short product), the first of the candidates with its work-group shape that occupies the
//! most of them, where that is at least twice as many. No table of devices, no
//! measurement: the limits are read from the device.

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
    /// The work-groups its first kernel with a fixed work-group size launches, if known.
    pub groups: Option<usize>,
    /// The bytes of each of its global temporaries (`usize::MAX` where that overflows).
    pub temporaries: Vec<usize>,
}

impl CandidateFacts {
    /// Why the candidate cannot run on `ctx`'s device at these sizes, or `None` if it can.
    pub fn refusal(&self, ctx: &Context) -> Option<String> {
        if !self.applies {
            return Some("its launch-time conditions do not hold for these sizes".into());
        }
        let why = self.exceeded(ctx);
        (!why.is_empty()).then(|| why.join(", "))
    }

    /// Does the launch fit the device of `ctx` and its bound on temporaries?
    pub fn fits(&self, ctx: &Context) -> bool {
        self.exceeded(ctx).is_empty()
    }

    /// The bytes of all its global temporaries together (saturating).
    pub fn temporary_bytes(&self) -> usize {
        self.temporaries
            .iter()
            .fold(0usize, |a, &b| a.saturating_add(b))
    }

    /// The limits of `ctx` (its device's and its bound on temporaries) the launch exceeds.
    fn exceeded(&self, ctx: &Context) -> Vec<String> {
        let info = ctx.device_info();
        let mut why = Vec::new();
        if self.local_bytes as u64 > info.local_mem_bytes {
            why.push(format!(
                "{} bytes of local memory (the device has {})",
                self.local_bytes, info.local_mem_bytes
            ));
        }
        if let Some(g) = &self.group {
            let shape: Vec<String> = g.iter().map(ToString::to_string).collect();
            let total = g.iter().try_fold(1usize, |acc, &x| acc.checked_mul(x));
            if total.is_none_or(|t| t > info.max_work_group_size) {
                let count = total.map_or_else(|| "too many".into(), |t| t.to_string());
                let size = if g.len() == 1 {
                    count
                } else {
                    format!("{} = {count}", shape.join("x"))
                };
                why.push(format!(
                    "a work-group of {size} work-items (the device allows {})",
                    info.max_work_group_size
                ));
            }
            for (d, (&x, &max)) in g.iter().zip(&info.max_work_item_sizes).enumerate() {
                if x > max {
                    why.push(format!(
                        "{x} work-items in dimension {d} (the device allows {max})"
                    ));
                }
            }
            if g.len() > info.max_work_item_sizes.len().max(1) {
                why.push(format!("{} dimensions", g.len()));
            }
        }
        if let Some(&t) = self.temporaries.iter().max() {
            if t as u64 > info.max_alloc_bytes {
                why.push(format!(
                    "a global temporary of {t} bytes (the device allocates at most {})",
                    info.max_alloc_bytes
                ));
            }
        }
        let total = self.temporary_bytes() as u64;
        if total > info.global_mem_bytes {
            why.push(format!(
                "{total} bytes of global temporaries (the device has {})",
                info.global_mem_bytes
            ));
        }
        if let Some(limit) = ctx.temporary_limit().filter(|&l| total > l) {
            why.push(format!(
                "{total} bytes of global temporaries (the context's bound is {limit}: \
                 `{}` or `Context::with_temporary_limit`)",
                crate::MAX_TEMPORARY_ENV
            ));
        }
        why
    }
}

/// The first candidate that applies and fits the device, if any; where that one launches
/// fewer work-groups than the device has compute units, the first of the candidates with its
/// work-group shape (as much work per group) that occupies the most of them, if that is at
/// least twice as many (a product split over its shared dimension where the unsplit one
/// leaves most units idle).
pub fn default_choice(ctx: &Context, cands: &[CandidateFacts]) -> Option<usize> {
    let fit: Vec<usize> = (0..cands.len())
        .filter(|&i| cands[i].applies && cands[i].fits(ctx))
        .collect();
    let first = *fit.first()?;
    let units = ctx.device_info().compute_units as usize;
    let f = &cands[first];
    let alike = |c: &CandidateFacts| shape(c.group.as_deref()) == shape(f.group.as_deref());
    let occupied = |i: usize| cands[i].groups.map_or(0, |g| g.min(units));
    match f.groups {
        Some(g) if g < units => {
            let alike: Vec<usize> = fit.into_iter().filter(|&i| alike(&cands[i])).collect();
            let most = alike.iter().map(|&i| occupied(i)).max()?;
            // Only for at least twice the occupied units: a split adds a pass.
            if most < 2 * g {
                return Some(first);
            }
            alike.into_iter().find(|&i| occupied(i) == most)
        }
        _ => Some(first),
    }
}

/// A work-group size without its trailing dimensions of one (`16 x 16 x 1` is `16 x 16`).
fn shape(g: Option<&[usize]>) -> Option<&[usize]> {
    let g = g?;
    let n = g.iter().rposition(|&x| x != 1).map_or(0, |i| i + 1);
    Some(&g[..n])
}

/// The error when no candidate can run: why each was refused, on which device.
pub fn no_choice(ctx: &Context, names: &[&str], cands: &[CandidateFacts]) -> crate::Error {
    let why: Vec<String> = cands
        .iter()
        .enumerate()
        .map(|(i, c)| {
            format!(
                "candidate `{}`: {}",
                names.get(i).copied().unwrap_or("?"),
                c.refusal(ctx).unwrap_or_else(|| "not chosen".to_string())
            )
        })
        .collect();
    crate::Error::Launch {
        reason: format!(
            "no candidate of this kernel can run at these sizes on the device `{}`: {}; \
             use smaller sizes or a device with larger limits",
            ctx.device_info().name,
            why.join("; ")
        ),
    }
}
