//! Label files (`bones label`, config `labels`): made the same for any thread
//! count, read back as written, refused with the reason when damaged or of
//! another game, and learned from by a run.

use bones_agents::AgentSpec;
use bones_env::{Doubles, Texas42};
use bones_train::labels::{make, target, LabelFile, LabelOptions, LabelRow, TAG};
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
    assert!(e.contains("not a usable label file") && e.contains("bonesL02"), "{e}");
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

#[test]
fn a_row_keeps_the_teachers_values_and_the_players_policy() {
    let game = Doubles::default();
    let opts = LabelOptions { player: "model:../models/doubles".parse().unwrap(), ..options("pimc:worlds=8", 6, 2, 2) };
    let file = make(&game, &opts, &|_| {}).unwrap();
    assert!(!file.rows.is_empty());
    for row in &file.rows {
        let legal = |a: u8| row.legal >> a & 1 == 1;
        // pimc values every legal play; the player's probabilities cover the legal actions.
        assert_eq!(row.values.len() as u32, row.legal.count_ones(), "{row:?}");
        assert!(row.values.iter().all(|&(a, q)| legal(a) && q.is_finite()));
        let best = row.values.iter().map(|v| v.1).fold(f32::NEG_INFINITY, f32::max);
        assert_eq!(row.values.iter().find(|v| v.0 == row.action).unwrap().1, best, "the label is a best-valued action");
        assert_eq!(row.prior.len() as u32, row.legal.count_ones());
        let sum: f32 = row.prior.iter().map(|p| p.1).sum();
        assert!(row.prior.iter().all(|&(a, _)| legal(a)) && (sum - 1.0).abs() < 1e-4, "{:?}", row.prior);
    }
    // A player that is not a network gives no prior; a value-less teacher no values.
    let plain = make(&game, &options("highest", 6, 2, 2), &|_| {}).unwrap();
    assert!(plain.rows.iter().all(|r| r.values.is_empty() && r.prior.is_empty()));
    // A damaged value or prior is refused with its row.
    let dir = tmp("values");
    for (what, damage) in [
        ("the value NaN of action", (|r: &mut LabelRow| r.values[0].1 = f32::NAN) as fn(&mut LabelRow)),
        ("the prior 1.5 of action", |r: &mut LabelRow| r.prior[0].1 = 1.5),
    ] {
        let mut bad = file.clone();
        damage(&mut bad.rows[1]);
        bad.write(&dir.join("bad.bin")).unwrap();
        let e = LabelFile::read(&dir.join("bad.bin")).unwrap_err().to_string();
        assert!(e.contains(&format!("row 1: {what}")), "{e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_target_is_the_teachers_action_or_the_prior_tilted_by_its_values() {
    // Legal actions 1, 2 and 3; the teacher weighed 1 and 2 and chose 2.
    let row = LabelRow {
        obs: vec![],
        legal: 0b1110,
        action: 2,
        values: vec![(2, 0.9), (1, 0.8)],
        prior: vec![(1, 0.5), (2, 0.25), (3, 0.25)],
    };
    assert_eq!(target(&row, 5, 0.0), [0.0, 0.0, 1.0, 0.0, 0.0], "temperature 0: the action");
    let t = target(&row, 5, 0.1);
    // 0.5·e^-1, 0.25·e^0, and 3 (not weighed) as the least valued: 0.25·e^-1.
    let w = [0.5 * (-1f32).exp(), 0.25, 0.25 * (-1f32).exp()];
    let z: f32 = w.iter().sum();
    for (a, want) in [(0, 0.0), (1, w[0] / z), (2, w[1] / z), (3, w[2] / z), (4, 0.0)] {
        assert!((t[a] - want).abs() < 1e-6, "action {a}: {} vs {want}", t[a]);
    }
    // A cold temperature is the argmax; a hot one the prior.
    assert!(target(&row, 5, 1e-4)[2] > 0.999);
    let hot = target(&row, 5, 1e4);
    assert!((hot[1] - 0.5).abs() < 1e-3 && (hot[3] - 0.25).abs() < 1e-3, "{hot:?}");
    // Without a prior: uniform over the legal actions, tilted.
    let flat = target(&LabelRow { prior: vec![], ..row.clone() }, 5, 0.1);
    assert!((flat[1] - flat[3]).abs() < 1e-6 && flat[2] > flat[1] && (flat.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    // Without values: the action at any temperature.
    assert_eq!(target(&LabelRow { values: vec![], ..row }, 5, 0.1), [0.0, 0.0, 1.0, 0.0, 0.0]);
}
