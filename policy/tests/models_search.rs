//! Where the shipped models are found ([`ModelsSearch::among`], the lookup of
//! `bones_policy::agent::models_search`): `--models DIR`, then `BONES_MODELS`,
//! then `models` next to the program, then `./models`; the first two must exist,
//! the last two count only when they hold a model folder. Temporary folders
//! stand for each place (the process's own variable and folders are left alone).

use bones_policy::agent::{ModelsSearch, ModelsSource};
use std::path::{Path, PathBuf};

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bones-models-search-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `root/models/texas42/model.bpk` (an empty file: the search only looks for it);
/// returns `root/models`.
fn models_in(root: &Path) -> PathBuf {
    let dir = root.join("models");
    std::fs::create_dir_all(dir.join("texas42")).unwrap();
    std::fs::write(dir.join("texas42").join("model.bpk"), b"").unwrap();
    dir
}

/// The four places, each a folder holding `models/texas42`.
struct Places {
    root: PathBuf,
    flag: PathBuf,
    variable: PathBuf,
    program: PathBuf,
    current: PathBuf,
}

impl Places {
    fn new(name: &str) -> Places {
        let root = scratch(name);
        let [flag, variable, program, current] =
            ["flag", "variable", "program", "current"].map(|p| root.join(p)).map(|d| {
                models_in(&d);
                d
            });
        Places { flag: flag.join("models"), variable: variable.join("models"), program, current, root }
    }

    fn search(&self, flag: bool, variable: bool, program: bool) -> ModelsSearch {
        ModelsSearch::among(
            flag.then(|| self.flag.clone()),
            variable.then(|| self.variable.clone()),
            program.then(|| self.program.clone()),
            self.current.clone(),
        )
    }
}

impl Drop for Places {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn found(s: &ModelsSearch) -> (ModelsSource, PathBuf) {
    let place = s.found.clone().unwrap_or_else(|| panic!("nothing found: {s:?}"));
    (place.source, place.path)
}

#[test]
fn the_flag_comes_first_then_the_variable_then_next_to_the_program_then_the_current_folder() {
    let p = Places::new("order");
    let all = p.search(true, true, true);
    assert_eq!(found(&all), (ModelsSource::Flag, p.flag.clone()));
    assert_eq!(all.looked.len(), 1, "{all:?}");
    assert_eq!(all.models(), ["texas42"]);

    let no_flag = p.search(false, true, true);
    assert_eq!(found(&no_flag), (ModelsSource::Variable, p.variable.clone()));

    let neither = p.search(false, false, true);
    assert_eq!(found(&neither), (ModelsSource::BesideProgram, p.program.join("models")));
    let sources: Vec<ModelsSource> = neither.looked.iter().map(|l| l.source).collect();
    assert_eq!(sources, [ModelsSource::BesideProgram]);

    let last = p.search(false, false, false);
    assert_eq!(found(&last), (ModelsSource::CurrentFolder, p.current.join("models")));
    assert!(last.error.is_none());
    assert!(last.found_line().contains("texas42"), "{}", last.found_line());
}

#[test]
fn a_models_folder_without_models_next_to_the_program_is_passed_over() {
    let p = Places::new("empty-beside");
    let empty = p.root.join("bin");
    std::fs::create_dir_all(empty.join("models").join("notes")).unwrap();
    let s = ModelsSearch::among(None, None, Some(empty.clone()), p.current.clone());
    assert_eq!(found(&s), (ModelsSource::CurrentFolder, p.current.join("models")));
    let looked: Vec<(ModelsSource, PathBuf)> = s.looked.iter().map(|l| (l.source, l.path.clone())).collect();
    assert_eq!(
        looked,
        [(ModelsSource::BesideProgram, empty.join("models")), (ModelsSource::CurrentFolder, p.current.join("models"))]
    );
    assert!(s.looked_line().contains(&empty.join("models").display().to_string()), "{}", s.looked_line());

    // Nothing anywhere: no folder, no error, every place listed.
    let nowhere = p.root.join("nowhere");
    let s = ModelsSearch::among(None, None, Some(nowhere.clone()), nowhere.clone());
    assert_eq!((s.found.clone(), s.error.clone(), s.looked.len()), (None, None, 2));
    assert!(s.found_line().contains("--models DIR or set BONES_MODELS"), "{}", s.found_line());
}

#[test]
fn a_flag_or_variable_naming_a_missing_folder_is_an_error_naming_it_not_a_fallthrough() {
    let p = Places::new("missing");
    let missing = p.root.join("no-such-folder");
    let s = ModelsSearch::among(
        Some(missing.clone()),
        Some(p.variable.clone()),
        Some(p.program.clone()),
        p.current.clone(),
    );
    assert_eq!(s.found, None);
    let e = s.error.clone().expect("an error");
    assert_eq!(e.place.source, ModelsSource::Flag);
    assert_eq!(e.to_string().lines().count(), 1);
    assert!(e.to_string().starts_with(&format!("--models {}: no such folder", missing.display())), "{e}");
    assert!(s.found_line().contains("no such folder"), "{}", s.found_line());

    let s = ModelsSearch::among(None, Some(missing.clone()), Some(p.program.clone()), p.current.clone());
    let e = s.error.clone().expect("an error");
    assert_eq!((e.place.source, s.found.clone()), (ModelsSource::Variable, None));
    assert!(e.to_string().starts_with(&format!("BONES_MODELS={}: no such folder", missing.display())), "{e}");

    // An empty variable counts as unset.
    let s = ModelsSearch::among(None, Some(PathBuf::new()), Some(p.program.clone()), p.current.clone());
    assert_eq!(found(&s).0, ModelsSource::BesideProgram);

    // A named folder that exists but holds no model is still the one used.
    let bare = p.root.join("bare");
    std::fs::create_dir_all(&bare).unwrap();
    let s = ModelsSearch::among(Some(bare.clone()), None, Some(p.program.clone()), p.current.clone());
    assert_eq!(found(&s), (ModelsSource::Flag, bare));
    assert!(s.models().is_empty());
}

#[test]
fn the_current_folder_place_stays_relative() {
    let s = ModelsSearch::among(None, None, None, PathBuf::new());
    assert_eq!(s.looked[0].path, Path::new("models"));
    assert_eq!(s.looked[0].source, ModelsSource::CurrentFolder);
}
