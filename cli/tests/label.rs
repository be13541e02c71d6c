//! `bones label`: a teacher's choices on positions of another agent's play,
//! written to a label file a training run reads; the same file for any thread
//! count; bad usage exits 2 and writes nothing.

use crate::bones_cmd::bones;
use bones_train::labels::LabelFile;

#[test]
fn label_writes_the_same_file_for_any_thread_count_and_refuses_bad_specs() {
    let dir = std::env::temp_dir().join(format!("bones-label-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    // The player is the shipped network (the default): each thread loads its own.
    let common = ["label", "--teacher", "heuristic", "--hands", "6", "--decisions", "2"];
    for (name, threads) in [("one.bin", "1"), ("two.bin", "2")] {
        let mut args = common.to_vec();
        let out = file(name);
        args.extend(["--threads", threads, "--out", &out]);
        let (code, stdout, err) = bones(&args);
        assert_eq!(code, 0, "{err}");
        assert!(stdout.contains("labels by heuristic on 6 hands played by model:"), "{stdout}");
    }
    assert_eq!(std::fs::read(file("one.bin")).unwrap(), std::fs::read(file("two.bin")).unwrap());
    let labels = LabelFile::read(&dir.join("one.bin")).unwrap();
    assert_eq!((labels.game.as_str(), labels.hands, labels.decisions), ("texas42", 6, 2));
    assert!(!labels.rows.is_empty() && labels.rows.len() <= 6 * 4 * 2);

    for (bad, says) in [
        (vec!["--teacher", "bogus"], "--teacher: unknown agent `bogus`"),
        (vec!["--player", "pimc:worlds=0"], "--player:"),
        (vec!["--teacher", "highest"], "does not play texas42"),
        (vec!["--hands", "0"], "--hands and --threads must be at least 1"),
    ] {
        let out = file("bad.bin");
        let mut args = vec!["label", "--out", out.as_str()];
        args.extend(bad);
        let (code, _, err) = bones(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!dir.join("bad.bin").exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
