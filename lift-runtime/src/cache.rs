//! The persistent tuning cache (SPEC section 5): the tuner's choice per device, driver,
//! kernel and sizes, in `$LIFT_CACHE_DIR/tune.json`, else `<platform cache dir>/lift-rs/tune.json`.
//!
//! The file is read once per process (lookups after that touch no file) and written
//! atomically: merged with what is on disk at that moment (another process may have tuned),
//! written to a temporary file in the same directory, then renamed over the old one. A
//! damaged or unreadable file is treated as empty and rewritten by the next store: never an
//! error, never a wrong result (an entry naming a candidate that no longer exists is ignored
//! by the caller).

use crate::Context;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The environment variable that overrides the cache directory.
pub const CACHE_DIR_ENV: &str = "LIFT_CACHE_DIR";

/// One tuning result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The chosen candidate's name.
    pub candidate: String,
    /// Its tuning parameters.
    pub params: Vec<(String, i64)>,
    /// Its median time, in milliseconds.
    pub time_ms: f64,
    /// Candidates tried.
    pub tried: usize,
    /// Candidates that were valid (built, agreed with the interpreter, launched).
    pub valid: usize,
    /// When it was tuned (seconds since the Unix epoch).
    pub unix_time: u64,
    /// It was timed built for the entry's sizes (size variables as constants), and runs so
    /// (entries written before builds were specialised say `false`).
    #[serde(default)]
    pub specialised: bool,
}

type Table = BTreeMap<String, Entry>;

/// The cache file in use: `$LIFT_CACHE_DIR/tune.json`, else the platform cache directory's
/// `lift-rs/tune.json`; `None` when neither exists (then nothing persists).
pub fn cache_file() -> Option<PathBuf> {
    match std::env::var_os(CACHE_DIR_ENV) {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d).join("tune.json")),
        _ => dirs::cache_dir().map(|d| d.join("lift-rs").join("tune.json")),
    }
}

/// The key of a tuning result: platform, device, driver, kernel id and sizes, the
/// context's bound on temporaries where it has one (a choice within a bound is one of its
/// own), and the device model's tag where it is not the build-time model (a choice among
/// one model's candidates is one of its own).
pub fn key(ctx: &Context, kernel_id: &str, sizes: &[usize]) -> String {
    let info = ctx.device_info();
    let driver = ctx.cl_device().driver_version().unwrap_or_default();
    let sizes: Vec<String> = sizes.iter().map(usize::to_string).collect();
    let bound = ctx
        .temporary_limit()
        .map_or_else(String::new, |b| format!(" | temporaries <= {b} bytes"));
    let model = crate::explored::model_tag(&ctx.device_model());
    format!(
        "{} | {} | {} | {kernel_id} | {}{bound}{model}",
        info.platform,
        info.name,
        driver.trim(),
        sizes.join("x")
    )
}

/// The tables loaded so far, by file.
fn loaded() -> &'static Mutex<HashMap<PathBuf, Table>> {
    static LOADED: OnceLock<Mutex<HashMap<PathBuf, Table>>> = OnceLock::new();
    LOADED.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The table in `path`; empty if it is missing or damaged.
fn read(path: &Path) -> Table {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_default()
}

/// The cached entry for `key`, if any.
pub fn lookup(key: &str) -> Option<Entry> {
    let path = cache_file()?;
    let mut tables = loaded().lock().ok()?;
    tables
        .entry(path.clone())
        .or_insert_with(|| read(&path))
        .get(key)
        .cloned()
}

/// Stores `entry` under `key` (merged with the file's current content, written atomically).
/// Gives the file written, or why it could not be; in that case the entry is still kept for
/// the rest of this process.
pub fn store(key: &str, entry: Entry) -> Result<PathBuf, String> {
    let path = cache_file().ok_or("no cache directory (set LIFT_CACHE_DIR)")?;
    let mut tables = loaded().lock().map_err(|e| e.to_string())?;
    let mut table = read(&path);
    table.insert(key.to_string(), entry);
    let written = write_atomically(&path, &table);
    // Kept in memory either way: a cache that cannot be written still serves this process.
    tables.entry(path.clone()).or_default().extend(table);
    written.map(|()| path)
}

/// Writes `table` to `path` through a temporary file and a rename.
fn write_atomically(path: &Path, table: &Table) -> Result<(), String> {
    let dir = path.parent().ok_or("the cache file has no directory")?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let text = serde_json::to_string_pretty(table).map_err(|e| e.to_string())?;
    let tmp = dir.join(format!(".tune.json.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e}", tmp.display())
    })?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e}", path.display())
    })
}

/// Forgets what was loaded (for tests that change `LIFT_CACHE_DIR` or the file behind the
/// process's back).
pub fn reload() {
    if let Ok(mut t) = loaded().lock() {
        t.clear();
    }
}
