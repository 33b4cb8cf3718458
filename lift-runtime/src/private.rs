//! Helpers called by the code `lift!` generates; not a public API.
//!
//! Sizes are evaluated in `i64` with C semantics (`/` truncates, `%` takes the dividend's
//! sign); every operation is checked, so a bad size is an [`Error`] and never a panic.

use crate::Error;

fn size_error(op: &'static str, a: i64, b: i64) -> Error {
    let (expected, actual) = if b == 0 && matches!(op, "/" | "%") {
        ("a non-zero divisor", "division by zero")
    } else {
        (
            "a result within the 64-bit range (the sizes given are too large for this \
             kernel's arrays)",
            "an overflow",
        )
    };
    Error::Precondition {
        what: format!("{a} {op} {b}"),
        expected: expected.into(),
        actual: actual.into(),
    }
}

/// Checked `a + b`.
pub fn add(a: i64, b: i64) -> Result<i64, Error> {
    a.checked_add(b).ok_or_else(|| size_error("+", a, b))
}

/// Checked `a * b`.
pub fn mul(a: i64, b: i64) -> Result<i64, Error> {
    a.checked_mul(b).ok_or_else(|| size_error("*", a, b))
}

/// Checked C division.
pub fn div(a: i64, b: i64) -> Result<i64, Error> {
    a.checked_div(b).ok_or_else(|| size_error("/", a, b))
}

/// Checked C remainder.
pub fn rem(a: i64, b: i64) -> Result<i64, Error> {
    a.checked_rem(b).ok_or_else(|| size_error("%", a, b))
}

/// Checked power with a non-negative exponent.
pub fn pow(a: i64, b: i64) -> Result<i64, Error> {
    u32::try_from(b)
        .ok()
        .and_then(|e| a.checked_pow(e))
        .ok_or_else(|| size_error("^", a, b))
}

/// A size variable's value: positive and small enough for an OpenCL `int`.
pub fn size(name: &str, value: usize) -> Result<i64, Error> {
    match i32::try_from(value) {
        Ok(v) if v > 0 => Ok(i64::from(v)),
        _ => Err(Error::Precondition {
            what: name.into(),
            expected: format!("a size in 1..={}", i32::MAX),
            actual: value.to_string(),
        }),
    }
}

/// Whether a launch whose arrays hold `extents` scalars each (flattened) indexes with
/// 64-bit arithmetic: when one exceeds [`INDEX32_LIMIT`](lift_core::typeck::INDEX32_LIMIT),
/// or always when the environment sets `LIFT_INDEX64=1` (read once; for testing the 64-bit
/// path at small sizes). Takes any iterator, so launches fold the extents as they evaluate
/// them (no allocation); every extent is evaluated, so an error in one is reported even
/// when another already makes the launch wide.
pub fn index64<E>(
    extents: impl IntoIterator<Item = std::result::Result<i64, E>>,
) -> std::result::Result<bool, E> {
    let mut wide = false;
    for e in extents {
        wide |= e? > lift_core::typeck::INDEX32_LIMIT;
    }
    Ok(forced_index64() || wide)
}

/// Whether the environment sets `LIFT_INDEX64=1` (read once).
fn forced_index64() -> bool {
    static FORCE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FORCE.get_or_init(|| std::env::var("LIFT_INDEX64").is_ok_and(|v| v == "1"))
}

/// The build options of a generated source with 64-bit (`wide`) or 32-bit indices.
pub fn index_options(wide: bool) -> &'static str {
    if wide {
        lift_core::codegen::INDEX64_OPTION
    } else {
        ""
    }
}

/// [`KernelHandle::enqueue`](crate::KernelHandle::enqueue) for the engine behind the
/// launchers `lift!` generates, which meets its contract before it calls it: every argument
/// set from the kernel's parameters (input and output lengths checked against the sizes by the
/// launcher), temporaries checked to be large enough. (Generated code stays free of `unsafe`,
/// so crates that forbid it can use `lift!`.)
pub(crate) fn enqueue(
    k: &crate::KernelHandle,
    ctx: &crate::Context,
    global: &[usize],
    local: Option<&[usize]>,
) -> Result<crate::Event, Error> {
    // SAFETY: only called by the engine, after the checks above.
    unsafe { k.enqueue(ctx, global, local) }
}

/// The event of a launch of several kernels: the last kernel's `last`, holding the first's.
pub(crate) fn spanning(last: crate::Event, first: crate::Event) -> crate::Event {
    last.after(first)
}

/// A non-negative size as `usize`.
pub fn to_usize(v: i64) -> Result<usize, Error> {
    usize::try_from(v).map_err(|_| Error::Precondition {
        what: "a derived size".into(),
        expected: "a non-negative value".into(),
        actual: v.to_string(),
    })
}

/// Rounds each global size up to a multiple of the local size (kernels guard their maps).
pub fn round_up_in_place(global: &mut [usize], local: Option<&[usize]>) {
    if let Some(local) = local {
        for (g, l) in global.iter_mut().zip(local) {
            if *l > 0 {
                *g = g.div_ceil(*l) * l;
            }
        }
    }
}

/// The precondition `n % d == 0` on size expression `what` (required by `origin`, whose
/// divisor is written `expected`).
pub fn check_divisible(
    what: &str,
    expected: &str,
    origin: &str,
    n: i64,
    d: i64,
) -> Result<(), Error> {
    if d == 0 || n % d != 0 {
        return Err(Error::Precondition {
            what: what.into(),
            expected: format!("a multiple of {expected} = {d} [{origin}]"),
            actual: n.to_string(),
        });
    }
    Ok(())
}

/// The precondition `a <= b` on size expression `what` (the bound written `bound`).
pub fn check_le(what: &str, bound: &str, origin: &str, a: i64, b: i64) -> Result<(), Error> {
    if a > b {
        return Err(Error::Precondition {
            what: what.into(),
            expected: format!("at most {bound} = {b} [{origin}]"),
            actual: a.to_string(),
        });
    }
    Ok(())
}

/// The values of parameter `arg`, indices into an array of `len` elements (`filter`): an
/// error names the first one out of range.
pub fn check_indices(arg: &str, len: i64, ids: &[i32]) -> Result<(), Error> {
    match ids.iter().position(|&v| !(0..len).contains(&i64::from(v))) {
        Some(i) => Err(Error::ArgShape {
            arg: format!("{arg}[{i}]"),
            expected: format!("an index into an array of {len} (0..{len})"),
            actual: ids[i].to_string(),
        }),
        None => Ok(()),
    }
}

/// A kernel's identity in the tuning cache: its name and a stable 64-bit FNV-1a hash of its
/// program text (an edited kernel misses the cache).
pub fn kernel_id(name: &str, lift_text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in lift_text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{name}#{h:016x}")
}

/// The one scalar of the result of a kernel on a set of devices
/// ([`crate::SplitKernel::run_typed`] of a scalar result).
pub fn one_of<T>(mut v: Vec<T>) -> crate::Result<T> {
    match (v.pop(), v.is_empty()) {
        (Some(x), true) => Ok(x),
        (_, _) => Err(Error::Launch {
            reason: "a scalar result of other than one scalar".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checked_sizes() {
        assert_eq!(div(7, 2).unwrap(), 3);
        assert_eq!(rem(-7, 2).unwrap(), -1);
        assert!(div(1, 0).is_err());
        assert!(mul(i64::MAX, 2).is_err());
        assert!(size("N", 0).is_err());
        assert_eq!(size("N", 5).unwrap(), 5);
        let mut global = [10, 3];
        round_up_in_place(&mut global, Some(&[4, 1]));
        assert_eq!(global, [12, 3]);
        assert!(to_usize(-1).is_err());
    }
}
