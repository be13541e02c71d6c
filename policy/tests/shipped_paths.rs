//! No file that ships (the model folders under `models/`, `configs/`, `docs/`)
//! holds an absolute path of the machine that wrote it; and the exporter
//! writes none ([`portable_path`], [`portable_config`]).

use bones_policy::export::{is_absolute_path, portable_config, portable_path};
use std::path::{Path, PathBuf};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// Text that marks a machine's own path.
const MARKS: [&str; 8] = ["/home/", "/root/", "/work/", "/tmp/", "/Users/", "/mnt/", "C:\\", "C:/"];

/// The text files under `dir`, recursively (binary files, such as weights and
/// pictures, are skipped: they do not read as UTF-8).
fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            text_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Every line of `files` holding a mark: `FILE:LINE: text`.
fn offending(files: &[PathBuf]) -> Vec<String> {
    let root = Path::new(ROOT);
    let mut bad = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        for (i, line) in text.lines().enumerate() {
            if MARKS.iter().any(|m| line.contains(m)) {
                let name = file.strip_prefix(root).unwrap_or(file).display().to_string();
                bad.push(format!("{name}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    bad
}

#[test]
fn no_shipped_file_holds_a_machines_absolute_path() {
    let root = Path::new(ROOT);
    let mut files = Vec::new();
    for dir in ["models", "configs", "docs"] {
        text_files(&root.join(dir), &mut files);
    }
    assert!(files.iter().any(|f| f.ends_with("models/texas42/model.json")), "the scan missed models/texas42");
    assert!(files.iter().any(|f| f.ends_with("configs/texas42-shipped.toml")), "the scan missed configs/");
    let bad = offending(&files);
    assert!(
        bad.is_empty(),
        "absolute paths of a machine in files that ship (make them relative, or cut them as \
         bones_policy::export::portable_path does):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_scan_finds_a_planted_path() {
    let dir = std::env::temp_dir().join(format!("bones-shipped-paths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("model.json");
    std::fs::write(&file, "{\n  \"checkpoint\": \"/home/me/runs/x\"\n}\n").unwrap();
    let bad = offending(&[file]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(bad[0].ends_with("model.json:2: \"checkpoint\": \"/home/me/runs/x\""), "{bad:?}");
}

#[test]
fn exported_paths_are_relative_or_cut_to_their_last_components() {
    for (given, kept) in [
        ("runs/full/checkpoints/update-000120", "runs/full/checkpoints/update-000120"),
        ("models/texas42", "models/texas42"),
        ("../old/models/texas42", "../old/models/texas42"),
        ("", ""),
        ("/tmp/runs/dt2/checkpoints/update-000576", "dt2/checkpoints/update-000576"),
        ("/work/longrun/run/checkpoints/update-005800", "run/checkpoints/update-005800"),
        ("/home/me/bones/models/texas42", "texas42"),
        ("/home/me/bones/models/texas42/", "texas42"),
        ("C:\\Users\\me\\runs\\a\\checkpoints\\update-000001", "a/checkpoints/update-000001"),
        ("D:/runs/b", "b"),
        ("\\\\server\\share\\run", "run"),
    ] {
        assert_eq!(portable_path(given), kept, "{given}");
        assert!(!is_absolute_path(&portable_path(given)), "{given}");
    }
    assert!(is_absolute_path("/x") && is_absolute_path("C:\\x") && !is_absolute_path("runs/x"));
}

#[test]
fn an_exported_config_keeps_every_line_but_an_absolute_init() {
    let text = "[run]\nseed = 47\ninit = \"/work/longrun/run/checkpoints/update-005800\"\n\n[model]\nhidden = 256\n";
    assert_eq!(
        portable_config(text),
        "[run]\nseed = 47\ninit = \"run/checkpoints/update-005800\"\n\n[model]\nhidden = 256\n"
    );
    let relative = "seed = 1\ninit = \"models/texas42\"\r\ninitial = 3\n";
    assert_eq!(portable_config(relative), relative);
    let windows = "  init = 'C:\\runs\\x'\n";
    assert_eq!(portable_config(windows), "  init = \"x\"\n");
}
