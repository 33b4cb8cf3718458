//! Sets `LIFT_CORE_FINGERPRINT`: a hash of the compiler's sources, part of the key of every
//! cached exploration (`lift-runtime`), so that a changed compiler never reuses candidates an
//! older one derived, even at the same version number.

use std::path::Path;

fn hash_dir(dir: &Path, h: &mut u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            hash_dir(&p, h);
        } else if let Ok(bytes) = std::fs::read(&p) {
            for b in p.to_string_lossy().bytes().chain(bytes) {
                *h ^= u64::from(b);
                *h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src");
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    hash_dir(Path::new("src"), &mut h);
    println!("cargo:rustc-env=LIFT_CORE_FINGERPRINT={h:016x}");
}
