//! Checked folders: `manifest.json` lists every file of a checkpoint (or model
//! folder) with its size and SHA-256, written last, when the folder is
//! complete. A folder with a manifest is read only when every file it lists
//! is there, whole and unchanged; a folder without one (written before
//! manifests) is read as it is.
//!
//! ```text
//! {"files": {"model.bpk": {"bytes": 1048712, "sha256": "9f2c…"}, "pool/00.bpk": {…}, …}}
//! ```

use crate::error::{io, CheckpointError};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

/// The manifest's file name, in the folder it describes.
pub const MANIFEST: &str = "manifest.json";

/// What the manifest says of one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Entry {
    /// Its length in bytes.
    bytes: u64,
    /// Its SHA-256, in lowercase hex.
    sha256: String,
}

/// The manifest: each file's path (relative, `/`-separated) and what it holds.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Manifest {
    files: BTreeMap<String, Entry>,
}

fn entry_of(bytes: &[u8]) -> Entry {
    let digest = Sha256::digest(bytes);
    Entry { bytes: bytes.len() as u64, sha256: digest.iter().map(|b| format!("{b:02x}")).collect() }
}

/// The files under `dir` (in subfolders too), relative and `/`-separated, in
/// order; the manifest itself and temporary files (`*.tmp`) are left out.
fn files(dir: &Path, prefix: &str, out: &mut Vec<String>) -> Result<(), CheckpointError> {
    let mut entries: Vec<_> = std::fs::read_dir(dir).map_err(io(dir))?.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let Ok(name) = e.file_name().into_string() else { continue };
        let rel = format!("{prefix}{name}");
        let path = e.path();
        if path.is_dir() {
            files(&path, &format!("{rel}/"), out)?;
        } else if rel != MANIFEST && !name.ends_with(".tmp") {
            out.push(rel);
        }
    }
    Ok(())
}

/// Writes `dir`'s manifest: every file now in it, with its size and checksum.
/// Call it last, when the folder holds everything.
pub fn write(dir: &Path) -> Result<(), CheckpointError> {
    let mut names = Vec::new();
    files(dir, "", &mut names)?;
    let mut manifest = Manifest::default();
    for name in names {
        let path = dir.join(&name);
        let bytes = std::fs::read(&path).map_err(io(&path))?;
        manifest.files.insert(name, entry_of(&bytes));
    }
    let text = serde_json::to_vec_pretty(&manifest).expect("a manifest serialises");
    let path = dir.join(MANIFEST);
    std::fs::write(&path, text).map_err(io(&path))
}

/// Checks every file `dir`'s manifest lists; refuses, naming the first file
/// that is missing, cut short, longer or changed. A folder without a manifest
/// passes (it was written before manifests).
pub fn verify(dir: &Path) -> Result<(), CheckpointError> {
    let path = dir.join(MANIFEST);
    let text = match std::fs::read(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io(&path)(e)),
    };
    let damaged = |path: &Path, message: String| CheckpointError::Damaged { path: path.display().to_string(), message };
    let manifest: Manifest = serde_json::from_slice(&text)
        .map_err(|e| damaged(&path, format!("the manifest does not parse ({e}); the folder cannot be checked")))?;
    for (name, want) in &manifest.files {
        let file = dir.join(name);
        let bytes = match std::fs::read(&file) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(damaged(&file, "missing (the manifest lists it)".into()))
            }
            Err(e) => return Err(io(&file)(e)),
        };
        let got = entry_of(&bytes);
        if got.bytes < want.bytes {
            return Err(damaged(&file, format!("cut short: {} of {} bytes", got.bytes, want.bytes)));
        }
        if got.bytes > want.bytes {
            return Err(damaged(&file, format!("{} bytes where {} were written", got.bytes, want.bytes)));
        }
        if got.sha256 != want.sha256 {
            return Err(damaged(
                &file,
                "changed since it was written (its SHA-256 differs from the manifest's)".into(),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("bones-manifest-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("pool")).unwrap();
        std::fs::write(d.join("a.bin"), [1u8, 2, 3, 4]).unwrap();
        std::fs::write(d.join("pool/00.bpk"), b"snapshot").unwrap();
        write(&d).unwrap();
        d
    }

    #[test]
    fn a_folder_passes_until_a_file_it_lists_is_cut_changed_or_removed() {
        let d = folder("damage");
        verify(&d).unwrap();
        let text = std::fs::read_to_string(d.join(MANIFEST)).unwrap();
        assert!(text.contains("pool/00.bpk") && text.contains("a.bin"), "{text}");

        std::fs::write(d.join("a.bin"), [1u8, 2, 3]).unwrap();
        let e = verify(&d).unwrap_err().to_string();
        assert!(e.contains("a.bin") && e.contains("cut short: 3 of 4 bytes"), "{e}");

        std::fs::write(d.join("a.bin"), [1u8, 2, 3, 5]).unwrap();
        let e = verify(&d).unwrap_err().to_string();
        assert!(e.contains("a.bin") && e.contains("changed"), "{e}");

        std::fs::write(d.join("a.bin"), [1u8, 2, 3, 4]).unwrap();
        std::fs::remove_file(d.join("pool/00.bpk")).unwrap();
        let e = verify(&d).unwrap_err().to_string();
        assert!(e.contains("00.bpk") && e.contains("missing"), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_folder_without_a_manifest_passes_and_a_broken_manifest_is_refused() {
        let d = folder("legacy");
        std::fs::write(d.join(MANIFEST), b"{\"files\": {").unwrap();
        let e = verify(&d).unwrap_err().to_string();
        assert!(e.contains(MANIFEST) && e.contains("does not parse"), "{e}");
        std::fs::remove_file(d.join(MANIFEST)).unwrap();
        verify(&d).unwrap();
        let _ = std::fs::remove_dir_all(&d);
    }
}
