//! Label files (`bones label`, config `labels`): made the same for any thread
//! count, read back as written, refused with the reason when damaged or of
//! another game, and learned from by a run.

use bones_agents::AgentSpec;
use bones_env::{Doubles, Texas42};
use bones_train::labels::{make, LabelFile, LabelOptions, TAG};
use bones_train::log::read_scalars;
use bones_train::{train, TrainConfig};
use burn::prelude::Device;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bones-labels-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn options(teacher: &str, hands: u64, decisions: u32, threads: usize) -> LabelOptions {
    LabelOptions {
        teacher: teacher.parse().unwrap(),
        player: AgentSpec::Random,
        hands,
        seed: 5,
        decisions,
        skip_ties: false,
        threads,
    }
}

#[test]
fn a_label_file_depends_on_its_options_not_the_thread_count_and_reads_back_as_written() {
    let game = Doubles::default();
    let one = make(&game, &options("highest", 12, 3, 1), &|_| {}).unwrap();
    let three = make(&game, &options("highest", 12, 3, 3), &|_| {}).unwrap();
    assert_eq!(one, three);
    assert_eq!((one.game.as_str(), one.teacher.as_str(), one.player.as_str()), ("doubles", "highest", "random"));
    // At most 3 labels per seat and hand, each the teacher's legal choice.
    assert!(!one.rows.is_empty() && one.rows.len() <= 12 * 4 * 3, "{} rows", one.rows.len());
    assert!(one.rows.iter().all(|r| r.legal >> r.action & 1 == 1));
    // Without ties: only the positions where the teacher's values single out its choice.
    let pimc = make(&game, &options("pimc:worlds=8", 12, 3, 2), &|_| {}).unwrap();
    let strict = make(&game, &LabelOptions { skip_ties: true, ..options("pimc:worlds=8", 12, 3, 2) }, &|_| {}).unwrap();
    assert!(strict.skip_ties && strict.rows.len() < pimc.rows.len(), "{} of {}", strict.rows.len(), pimc.rows.len());
    assert!(strict.rows.iter().all(|r| pimc.rows.contains(r)));
    let e = make(&game, &LabelOptions { skip_ties: true, ..options("exec:cat", 2, 1, 1) }, &|_| {}).unwrap_err();
    assert!(e.to_string().contains("skipping ties needs a teacher that values its actions"), "{e}");
    let all = make(&game, &options("highest", 12, 0, 2), &|_| {}).unwrap();
    assert!(all.rows.len() > one.rows.len(), "every decision: {} rows", all.rows.len());
    let dir = tmp("roundtrip");
    let path = dir.join("labels.bin");
    one.write(&path).unwrap();
    assert_eq!(LabelFile::read(&path).unwrap(), one);
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["labels.bin"], "the temporary file was renamed");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_learns_its_label_file_and_refuses_a_damaged_or_foreign_one() {
    let dir = tmp("run");
    let labels = dir.join("highest.bin");
    make(&Doubles::default(), &options("highest", 60, 0, 2), &|_| {}).unwrap().write(&labels).unwrap();
    // As the live teacher's test: `highest` is easy to imitate.
    let cfg = TrainConfig { labels: labels.display().to_string(), ..crate::smoke::imitation_config() };
    let out = dir.join("run");
    let summary = train(Doubles::default(), &cfg, &out, false, Device::flex(), &mut ()).unwrap();
    let loss = &read_scalars(&out).unwrap()["losses/teacher_loss"];
    assert_eq!(loss.len() as u64, summary.state.update);
    let (first, last) = (loss[0].1, loss[loss.len() - 1].1);
    assert!(first > 0.5 && last < 0.6 * first, "label loss {first} -> {last}: {loss:?}");

    // Refused before training, naming the field and what is wrong.
    let fails = |path: &std::path::Path, game: &str| {
        let cfg = TrainConfig { labels: path.display().to_string(), ..cfg.clone() };
        let out = dir.join(format!("refused-{game}"));
        let e = match game {
            "texas42" => train(
                Texas42::default(),
                &TrainConfig { game: game.into(), ..cfg },
                &out,
                false,
                Device::flex(),
                &mut (),
            ),
            _ => train(Doubles::default(), &cfg, &out, false, Device::flex(), &mut ()),
        };
        e.unwrap_err().to_string()
    };
    let e = fails(&dir.join("missing.bin"), "doubles");
    assert!(e.contains("`labels`") && e.contains("missing.bin"), "{e}");
    let foreign = dir.join("foreign.bin");
    std::fs::write(&foreign, b"not labels at all").unwrap();
    let e = fails(&foreign, "doubles");
    assert!(e.contains("not a usable label file") && e.contains("bonesL01"), "{e}");
    let mut bytes = std::fs::read(&labels).unwrap();
    bytes.truncate(TAG.len() + 40);
    let damaged = dir.join("damaged.bin");
    std::fs::write(&damaged, &bytes).unwrap();
    let e = fails(&damaged, "doubles");
    assert!(e.contains("not a usable label file") && e.contains("do not decode"), "{e}");
    // A row whose label is beyond the game's actions.
    let mut file = LabelFile::read(&labels).unwrap();
    file.rows[0].action = 70;
    let beyond = dir.join("beyond.bin");
    file.write(&beyond).unwrap();
    let e = fails(&beyond, "doubles");
    assert!(e.contains("row 0: the label 70 is not legal"), "{e}");
    let e = fails(&labels, "texas42");
    assert!(e.contains("labels of doubles") && e.contains("the run is texas42"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
