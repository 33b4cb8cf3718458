//! Explored candidates, paid once (SPEC section 5, build cost): the macro derives only the
//! default configuration; the whole space ([`lift_core::driver::compile_kernel`]) is derived
//! here, at run time, the first time a kernel needs it (an untuned choice at given sizes, the
//! tuner, [`crate::DynKernel`]), and kept in memory for the process and on disk next to the
//! tuning cache (`explored/` in the cache directory), keyed by the kernel's program text, its
//! name and the compiler's [`lift_core::FINGERPRINT`]. A damaged file is explored again and
//! rewritten; one that cannot be written only costs the next process the exploration. Writing
//! one removes the files another compiler or runtime wrote, which are never read again.
//!
//! The exploration is for a [`DeviceModel`], the context's ([`crate::Context::device_model`]):
//! the device's own ([`crate::device_model`]) unless `LIFT_DEVICE_MODEL=default` or
//! [`crate::Context::with_device_model`] chose another. Explorations for different models are
//! kept apart in memory and on disk (the model's hash in the file name, the model in the
//! file); the build-time model [`DeviceModel::DEFAULT`] has the names of before there were
//! models.

use crate::{Error, Result};
use lift_core::device::DeviceModel;
use lift_core::driver::CompiledCandidate;
use lift_core::typeck::Precondition;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// Every candidate of one kernel, in the explorer's order.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Explored {
    /// The compiler that derived them.
    pub fingerprint: String,
    /// The kernel's id (its name and a hash of its program text).
    pub kernel_id: String,
    /// The device model explored for.
    pub device: DeviceModel,
    /// The kernel's own launch-time conditions (as written, plus those of its rewrite
    /// points).
    pub preconditions: Vec<Precondition>,
    /// The candidates (spans are not kept: conditions read back at the call site).
    pub candidates: Vec<CompiledCandidate>,
}

/// One kernel's exploration, serialised, or why it failed; filled once.
type Slot = Arc<OnceLock<Result<Arc<str>, String>>>;

/// Explorations of this process, serialised (spans stay on their thread; the JSON is shared).
fn memory() -> &'static Mutex<HashMap<String, Slot>> {
    static M: OnceLock<Mutex<HashMap<String, Slot>>> = OnceLock::new();
    M.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The version of how this module explores and what its files hold: part of every file's
/// name, so that files an older runtime wrote are never read.
/// (3: the device model in the file.)
const FORMAT: u32 = 3;

/// What tells explorations for `device` apart from the default model's: empty for the
/// default (its names and keys as before there were models), else `-m` and a stable FNV-1a
/// hash of the model's JSON.
pub(crate) fn model_tag(device: &DeviceModel) -> String {
    if *device == DeviceModel::DEFAULT {
        return String::new();
    }
    let json = serde_json::to_string(device).unwrap_or_default();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in json.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("-m{h:016x}")
}

/// The file of kernel `id`'s exploration for `device`, if there is a cache directory (the
/// model's tag before the suffix, so that [`remove_stale`] keeps other devices' files).
fn file(id: &str, device: &DeviceModel) -> Option<PathBuf> {
    let dir = crate::cache::cache_file()?.parent()?.join("explored");
    let safe: String = id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    Some(dir.join(format!("{safe}{}{}", model_tag(device), current_suffix())))
}

/// Every candidate of kernel `kernel` of the `lift!` program `text` (whose id is `id`), for
/// the default device model ([`explored_for`]).
pub fn explored(text: &str, kernel: &str, id: &str) -> Result<Explored> {
    explored_for(text, kernel, id, &DeviceModel::DEFAULT)
}

/// Every candidate of kernel `kernel` of the `lift!` program `text` (whose id is `id`) for
/// `device`: from this process's memory, else the disk cache, else explored now (and stored
/// in both). Concurrent callers for the same kernel and model wait for one exploration.
pub fn explored_for(text: &str, kernel: &str, id: &str, device: &DeviceModel) -> Result<Explored> {
    let slot = Arc::clone(
        memory()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(format!("{id}{}", model_tag(device)))
            .or_default(),
    );
    let json = slot.get_or_init(|| {
        on_large_stack(|| load_or_explore(file(id, device).as_deref(), text, (kernel, id), device))
    });
    let json = json.clone().map_err(|message| Error::Compile { message })?;
    serde_json::from_str(&json).map_err(|e| Error::Compile {
        message: format!("kernel `{kernel}`: explored candidates: {e}"),
    })
}

/// The stack the explorer runs on: its rewrites recurse over the program (the macro ran it on
/// rustc's large stack; a test thread or a user's has 2 MiB).
const EXPLORER_STACK: usize = 256 << 20;

/// `f` on a thread of its own with [`EXPLORER_STACK`] bytes of stack (reserved, not touched).
fn on_large_stack(f: impl FnOnce() -> Result<Arc<str>, String> + Send) -> Result<Arc<str>, String> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("lift-explore".into())
            .stack_size(EXPLORER_STACK)
            .spawn_scoped(s, f)
            .map_err(|e| format!("cannot start the explorer's thread: {e}"))?
            .join()
            .unwrap_or_else(|_| Err("the explorer panicked".into()))
    })
}

/// The exploration from `path` if it is there and whole, else a new one (written back).
fn load_or_explore(
    path: Option<&std::path::Path>,
    text: &str,
    (kernel, id): (&str, &str),
    device: &DeviceModel,
) -> Result<Arc<str>, String> {
    if let Some(json) = path.and_then(|p| std::fs::read_to_string(p).ok()) {
        let whole = serde_json::from_str::<Explored>(&json).is_ok_and(|e| {
            e.fingerprint == lift_core::FINGERPRINT && e.kernel_id == id && e.device == *device
        });
        if whole {
            return Ok(json.into());
        }
    }
    let mut prog = lift_core::parse::parse_program_str(text).map_err(|e| e.to_string())?;
    lift_core::typeck::check_program(&mut prog).map_err(|e| e.to_string())?;
    let compiled = lift_core::driver::compile_kernel_for(&prog, kernel, device)
        .map_err(|e| format!("kernel `{kernel}`: code generation: {e}"))?;
    crate::dump::dropped(kernel, &compiled.rejected);
    let explored = Explored {
        fingerprint: lift_core::FINGERPRINT.to_string(),
        kernel_id: id.to_string(),
        device: *device,
        preconditions: compiled.preconditions,
        candidates: compiled.candidates,
    };
    let json = serde_json::to_string(&explored).map_err(|e| e.to_string())?;
    if let Some(p) = path {
        // Not writable: the next process explores again; never an error.
        let _ = write_atomically(p, &json);
        if let Some(dir) = p.parent() {
            remove_stale(dir);
        }
    }
    Ok(json.into())
}

/// The end of the names of the files this compiler and runtime write.
fn current_suffix() -> String {
    format!("-{}-{FORMAT}.json", lift_core::FINGERPRINT)
}

/// Removes the explorations in `dir` that another compiler or runtime wrote (they are never
/// read again), so that the cache does not grow with every upgrade; failures are ignored.
fn remove_stale(dir: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let suffix = current_suffix();
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".json") && !name.starts_with('.') && !name.ends_with(&suffix) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Writes `json` to `path` through a temporary file in the same directory.
fn write_atomically(path: &std::path::Path, json: &str) -> std::io::Result<()> {
    let dir = path.parent().ok_or(std::io::ErrorKind::NotFound)?;
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("explored"),
        std::process::id()
    ));
    std::fs::write(&tmp, json)?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "kernel Scale<N>(x: [f32; N]) -> [f32; N] { map(|v| 2.0 * v) $ x }";

    fn candidates(json: &str) -> Vec<String> {
        let e: Explored = serde_json::from_str(json).unwrap();
        e.candidates.into_iter().map(|c| c.name).collect()
    }

    /// An exploration is written where it is cached, read back whole by the next caller, and a
    /// damaged or foreign file is explored again and rewritten; with no file (no cache
    /// directory) it is explored every time.
    #[test]
    fn written_read_back_and_a_damaged_file_rewritten() {
        let dir = std::env::temp_dir().join(format!("lift-explored-{}", std::process::id()));
        let path = dir.join(format!("Scale{}", current_suffix()));
        let first = load_or_explore(
            Some(&path),
            TEXT,
            ("Scale", "Scale#1"),
            &DeviceModel::DEFAULT,
        )
        .unwrap();
        let names = candidates(&first);
        assert!(names.iter().any(|n| n == "map"), "{names:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), *first);
        // Read back: the same candidates, from the file (marked so that it shows).
        let mut e: Explored = serde_json::from_str(&first).unwrap();
        e.candidates.truncate(1);
        std::fs::write(&path, serde_json::to_string(&e).unwrap()).unwrap();
        let again = load_or_explore(
            Some(&path),
            TEXT,
            ("Scale", "Scale#1"),
            &DeviceModel::DEFAULT,
        )
        .unwrap();
        assert_eq!(candidates(&again).len(), 1);
        // Another kernel id in the file (or a damaged file): explored again, rewritten.
        let other = load_or_explore(
            Some(&path),
            TEXT,
            ("Scale", "Scale#2"),
            &DeviceModel::DEFAULT,
        )
        .unwrap();
        assert_eq!(candidates(&other), names);
        std::fs::write(&path, "{ not json").unwrap();
        let fixed = load_or_explore(
            Some(&path),
            TEXT,
            ("Scale", "Scale#2"),
            &DeviceModel::DEFAULT,
        )
        .unwrap();
        assert_eq!(candidates(&fixed), names);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), *fixed);
        // A file for another device model: explored again.
        let mut e: Explored = serde_json::from_str(&fixed).unwrap();
        e.device.local_mem_bytes *= 2;
        e.candidates.truncate(1);
        std::fs::write(&path, serde_json::to_string(&e).unwrap()).unwrap();
        let default = load_or_explore(
            Some(&path),
            TEXT,
            ("Scale", "Scale#2"),
            &DeviceModel::DEFAULT,
        );
        assert_eq!(candidates(&default.unwrap()), names);
        // No cache directory: explored, nothing written.
        assert_eq!(
            candidates(
                &load_or_explore(None, TEXT, ("Scale", "Scale#3"), &DeviceModel::DEFAULT).unwrap()
            ),
            names
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The default model's files and keys are named as before there were models; another
    /// model's carry its hash, before the suffix that the removal of stale files looks at.
    #[test]
    fn models_are_kept_apart() {
        let d = DeviceModel::DEFAULT;
        assert_eq!(model_tag(&d), "");
        let small = DeviceModel {
            max_work_group: 128,
            ..d
        };
        let tag = model_tag(&small);
        assert!(tag.starts_with("-m") && tag.len() == 18, "{tag}");
        assert_ne!(
            tag,
            model_tag(&DeviceModel {
                max_work_group: 64,
                ..d
            })
        );
        if let (Some(a), Some(b)) = (file("K#1", &d), file("K#1", &small)) {
            assert_ne!(a, b);
            let b = b.to_string_lossy().into_owned();
            assert!(b.ends_with(&current_suffix()) && b.contains(&tag), "{b}");
        }
    }

    /// Writing an exploration removes the files another compiler or runtime wrote, and keeps
    /// this one's.
    #[test]
    fn files_of_other_compilers_are_removed() {
        let dir = std::env::temp_dir().join(format!("lift-stale-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let old = dir.join("Scale_1-0.0.9-0123456789abcdef-2.json");
        let mine = dir.join(format!("Other{}", current_suffix()));
        let other = dir.join("notes.txt");
        for f in [&old, &mine, &other] {
            std::fs::write(f, "{}").unwrap();
        }
        let path = dir.join(format!("Scale{}", current_suffix()));
        load_or_explore(
            Some(&path),
            TEXT,
            ("Scale", "Scale#4"),
            &DeviceModel::DEFAULT,
        )
        .unwrap();
        assert!(!old.exists());
        assert!(mine.exists() && other.exists() && path.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The launch descriptions survive the round trip through the file: what a later process
    /// launches is what this one derived.
    #[test]
    fn candidates_round_trip_exactly() {
        let text = "kernel Mm<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] { map(|row| map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, col)) o transpose $ b) $ a }";
        let mut prog = lift_core::parse::parse_program_str(text).unwrap();
        lift_core::typeck::check_program(&mut prog).unwrap();
        let compiled = lift_core::driver::compile_kernel(&prog, "Mm").unwrap();
        let json = load_or_explore(None, text, ("Mm", "Mm#1"), &DeviceModel::DEFAULT).unwrap();
        let e: Explored = serde_json::from_str(&json).unwrap();
        assert_eq!(e.candidates.len(), compiled.candidates.len());
        for (a, b) in e.candidates.iter().zip(&compiled.candidates) {
            assert_eq!(a.name, b.name);
            assert_eq!(a.generated.source, b.generated.source);
            let conds = |c: &CompiledCandidate| {
                c.conditions
                    .iter()
                    .map(|p| p.cond.clone())
                    .collect::<Vec<_>>()
            };
            assert_eq!(conds(a), conds(b));
            for (ka, kb) in a.generated.kernels.iter().zip(&b.generated.kernels) {
                assert_eq!(ka.args, kb.args);
                assert_eq!(ka.global, kb.global);
                assert_eq!(ka.local, kb.local);
                assert_eq!(ka.local_mem_bytes, kb.local_mem_bytes);
            }
            let temps = |c: &CompiledCandidate| {
                c.generated
                    .temporaries
                    .iter()
                    .map(|t| (t.bytes.clone(), t.scalars.clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(temps(a), temps(b));
        }
    }
}
