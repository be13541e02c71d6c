//! Where `bones` finds the shipped models: `bones --models DIR`, else
//! `BONES_MODELS`, else `models` next to the program, else `./models`;
//! `bones agents` and `bones --version` say where it looked and what it found,
//! and a `--models` or `BONES_MODELS` folder that does not exist is a one-line
//! usage error naming it, in every command.

use crate::bones_cmd::{bones_in, MODELS};
use std::path::{Path, PathBuf};

/// A fresh scratch folder holding `models/NAME/model.bpk` for each name
/// (empty files: finding them reads no weights).
fn folder_with_models(name: &str, models: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bones-models-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for m in models {
        std::fs::create_dir_all(dir.join("models").join(m)).unwrap();
        std::fs::write(dir.join("models").join(m).join("model.bpk"), b"").unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The last two lines of `bones agents`: where it looked, what it found.
fn agents_lines(cwd: &Path, flag: Option<&Path>, variable: Option<&str>) -> (String, String) {
    let flag = flag.map(|f| f.display().to_string());
    let mut args = Vec::new();
    if let Some(f) = &flag {
        args.extend(["--models", f.as_str()]);
    }
    args.push("agents");
    let (code, out, err) = bones_in(&args, cwd, &[("BONES_MODELS", variable)]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let [.., looked, found] = lines[..] else { panic!("{out}") };
    (looked.to_string(), found.to_string())
}

#[test]
fn the_flag_beats_the_variable_which_beats_the_current_folder() {
    let here = folder_with_models("here", &["texas42"]);
    let flagged = folder_with_models("flagged", &["doubles"]);
    let flag = flagged.join("models");

    let (looked, found) = agents_lines(&here, Some(&flag), Some(MODELS));
    assert_eq!(looked, format!("models looked for in: {} (--models)", flag.display()));
    assert_eq!(found, format!("models found: {} (--models): doubles", flag.display()));

    let (looked, found) = agents_lines(&here, None, Some(MODELS));
    assert_eq!(looked, format!("models looked for in: {MODELS} (BONES_MODELS)"));
    assert!(found.starts_with(&format!("models found: {MODELS} (BONES_MODELS): ")), "{found}");
    assert!(found.contains("doubles") && found.contains("texas42"), "{found}");

    // Neither: next to the program (target/…/models, not there), then ./models.
    let (looked, found) = agents_lines(&here, None, None);
    let beside = Path::new(env!("CARGO_BIN_EXE_bones")).parent().unwrap().join("models");
    assert_eq!(
        looked,
        format!("models looked for in: {} (next to the program), models (in the current folder)", beside.display())
    );
    assert_eq!(found, "models found: models (in the current folder): texas42");

    // An empty variable counts as unset.
    let (_, found) = agents_lines(&here, None, Some(""));
    assert_eq!(found, "models found: models (in the current folder): texas42");

    // Nowhere: said so, with the way to name a folder.
    let empty = folder_with_models("empty", &[]);
    let (_, found) = agents_lines(&empty, None, None);
    assert!(found.starts_with("models found: none") && found.contains("--models DIR or set BONES_MODELS"), "{found}");

    for d in [here, flagged, empty] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_missing_models_folder_is_a_one_line_usage_error_naming_the_flag_or_the_variable() {
    let here = folder_with_models("missing", &["texas42"]);
    let missing = here.join("no-such-folder");
    let m = missing.to_str().unwrap();
    for cmd in [&["agents"][..], &["eval", "--agents", "random,random", "--hands", "1"], &["replay", "-"]] {
        let args: Vec<&str> = ["--models", m].into_iter().chain(cmd.iter().copied()).collect();
        let (code, _, err) = bones_in(&args, &here, &[("BONES_MODELS", Some(MODELS))]);
        assert_eq!(code, 2, "{cmd:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{cmd:?}: {err}");
        assert!(err.starts_with(&format!("error: --models {m}: no such folder")), "{cmd:?}: {err}");

        let (code, _, err) = bones_in(cmd, &here, &[("BONES_MODELS", Some(m))]);
        assert_eq!(code, 2, "{cmd:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{cmd:?}: {err}");
        assert!(err.starts_with(&format!("error: BONES_MODELS={m}: no such folder")), "{cmd:?}: {err}");
    }
    // `bones agents` still says where it looked before the error.
    let (_, out, _) = bones_in(&["agents"], &here, &[("BONES_MODELS", Some(m))]);
    assert_eq!(out.lines().last(), Some(format!("models looked for in: {m} (BONES_MODELS)").as_str()), "{out}");
    let _ = std::fs::remove_dir_all(here);
}

#[test]
fn bones_version_says_where_the_models_are() {
    let (code, out, err) = bones_in(&["--version"], Path::new("."), &[("BONES_MODELS", Some(MODELS))]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("bones {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(lines[1], format!("models looked for in: {MODELS} (BONES_MODELS)"));
    assert!(lines[2].starts_with(&format!("models found: {MODELS} (BONES_MODELS): ")), "{out}");
    // -V: the version alone.
    let (_, out, _) = bones_in(&["-V"], Path::new("."), &[("BONES_MODELS", Some(MODELS))]);
    assert_eq!(out.trim(), format!("bones {}", env!("CARGO_PKG_VERSION")));
}
