//! Weights of a split kernel's devices measured from their speed
//! ([`crate::SplitKernel::measure_weights`]): every device runs the same probe (one slab of
//! an equal split, or the whole kernel where it is not split) on resident data, timed as the
//! tuner times a candidate (profiling events, the median of several launches:
//! [`crate::tune`]), in rounds by turns; each device's weight is its speed (the inverse of its time) over the
//! sum of the speeds.

use crate::dynamic::DynKernel;
use crate::{Devices, Error, HostArg};

/// The shortest time a probe is taken to last, in milliseconds (a nanosecond, the profiling
/// clock's unit): a launch with no kernel (a result that is a view of its input) counts as
/// this fast, so every weight is finite and positive.
const SHORTEST_MS: f64 = 1e-6;

/// Rounds of timing: each device's time is the median of its rounds' medians, the devices
/// timed by turns in each round (in another order each), so that a change of load on the
/// host (another process on a CPU device) falls on every device alike.
const ROUNDS: usize = 3;

/// Per device of `devices`, the median device time (milliseconds) of kernel `kernel` of
/// `text` at `sizes` on `args`, uploaded once and launched again and again; a failure with
/// the device (its position in the set) where it happened.
pub(crate) fn median_times(
    devices: &Devices,
    text: &str,
    kernel: &str,
    sizes: &[usize],
    args: &[HostArg<'_>],
) -> std::result::Result<Vec<f64>, (usize, Error)> {
    let probes = devices
        .contexts()
        .iter()
        .enumerate()
        .map(|(d, ctx)| {
            let k = DynKernel::compile_for(ctx, text, kernel, sizes).map_err(|e| (d, e))?;
            let r = k.resident_host(sizes, args).map_err(|e| (d, e))?;
            Ok((k, r))
        })
        .collect::<std::result::Result<Vec<_>, (usize, Error)>>()?;
    let mut rounds = vec![Vec::with_capacity(ROUNDS); probes.len()];
    for round in 0..ROUNDS {
        for i in 0..probes.len() {
            let d = (i + round) % probes.len();
            let (k, r) = &probes[d];
            let mut launch = || match k.launch_resident(r)? {
                Some(ev) => Ok(ev.span_ns()? as f64 / 1e6),
                None => Ok(0.0),
            };
            rounds[d].push(crate::tune::time(&mut launch, None).map_err(|e| (d, e))?);
        }
    }
    Ok(rounds
        .into_iter()
        .map(|mut t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        })
        .collect())
}

/// Weights in proportion to the speeds of devices taking `times` (milliseconds) for the same
/// work: positive, summing to 1; equal times give equal weights.
pub(crate) fn from_times(times: &[f64]) -> Vec<f64> {
    let speeds: Vec<f64> = times.iter().map(|t| 1.0 / t.max(SHORTEST_MS)).collect();
    let sum: f64 = speeds.iter().sum();
    speeds.iter().map(|s| s / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::from_times;

    #[test]
    fn weights_are_speeds_over_their_sum() {
        let w = from_times(&[1.0, 2.0, 4.0]);
        let want = [4.0 / 7.0, 2.0 / 7.0, 1.0 / 7.0];
        assert!(
            w.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12),
            "{w:?}"
        );
        assert_eq!(from_times(&[3.0, 3.0]), vec![0.5, 0.5]);
        // No kernel to time: as fast as the clock can tell, never an infinite weight.
        let w = from_times(&[0.0, 0.0, 1e-6]);
        assert!(w.iter().all(|x| (x - 1.0 / 3.0).abs() < 1e-12), "{w:?}");
        let w = from_times(&[0.0, 1.0]);
        assert!(w[1] > 0.0 && (w[0] + w[1] - 1.0).abs() < 1e-12, "{w:?}");
    }
}
