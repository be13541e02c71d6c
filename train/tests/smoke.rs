//! CI smoke test of the trainer: a tiny config runs a few updates on a handful
//! of games; losses are finite, the checkpoint loads back and plays, the event
//! file holds the scalars, and `--resume` continues the run.

use bones_env::{Doubles, Game, Texas42, Texas42Rules};
use bones_policy::inference::Actor;
use bones_train::checkpoint;
use bones_train::config::CriticKind;
use bones_train::critic::ORACLE_LEN;
use bones_train::eval::{evaluate, EvalOpponent};
use bones_train::log::read_scalars;
use bones_train::profile::Phase;
use bones_train::{train, TrainConfig};
use burn::prelude::Device;

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("bones-smoke-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The smoke config on Doubles for 30 hands, its scores scaled by 0.01.
fn doubles_smoke() -> TrainConfig {
    let mut cfg = TrainConfig::load("smoke").unwrap();
    cfg.model.game = "doubles".into();
    cfg.run.total_hands = 30;
    cfg.model.reward_scale = 0.01;
    cfg
}

#[test]
fn a_tiny_run_trains_checkpoints_logs_and_resumes() {
    let cfg = TrainConfig::load("smoke").unwrap();
    let out = tmp("texas42");
    let game = Texas42::new(Texas42Rules::STANDARD);
    let summary = train(game, &cfg, &out, false, Device::flex(), &mut ()).unwrap();
    assert!(summary.state.hands >= cfg.run.total_hands);
    assert!(summary.state.update >= 2);

    // The event file holds CleanRL's scalars, all finite.
    let scalars = read_scalars(&out).unwrap();
    for tag in ["losses/policy_loss", "losses/value_loss", "losses/entropy", "losses/approx_kl", "charts/hands_per_s"] {
        let points = scalars.get(tag).unwrap_or_else(|| panic!("no `{tag}` in {:?}", scalars.keys()));
        assert_eq!(points.len() as u64, summary.state.update, "{tag}");
        assert!(points.iter().all(|(_, v)| v.is_finite()), "{tag}: {points:?}");
    }
    assert!(scalars.contains_key("eval/win_rate_vs_random"));
    assert!(scalars.contains_key("eval/win_rate_vs_heuristic"));

    // The checkpoint loads back and plays whole hands.
    let dir = checkpoint::latest(&out.join("checkpoints")).unwrap();
    let device = Device::flex();
    let model = checkpoint::load_model(&dir, game.obs_len(), game.num_actions(), &device).unwrap();
    let r = evaluate(&game, &Actor::new(model, &device), EvalOpponent::Random, 4, 1).unwrap();
    assert_eq!(r.games, 8);
    assert!((0.0..=1.0).contains(&r.win_rate));

    // Resume continues from the counters.
    let mut more = cfg.clone();
    more.run.total_hands = summary.state.hands + 40;
    let resumed = train(game, &more, &out, true, Device::flex(), &mut ()).unwrap();
    assert!(resumed.state.update > summary.state.update);
    assert!(resumed.state.hands >= more.run.total_hands);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn an_oracle_critic_run_trains_checkpoints_its_critic_and_resumes() {
    let mut cfg = TrainConfig::load("smoke").unwrap();
    cfg.ppo.critic = CriticKind::Oracle;
    cfg.run.total_hands = 60;
    let out = tmp("oracle");
    let game = Texas42::new(Texas42Rules::STANDARD);
    let summary = train(game, &cfg, &out, false, Device::flex(), &mut ()).unwrap();
    let scalars = read_scalars(&out).unwrap();
    for tag in ["losses/value_loss", "losses/explained_variance", "losses/policy_loss"] {
        assert!(scalars[tag].iter().all(|(_, v)| v.is_finite()), "{tag}: {:?}", scalars[tag]);
    }
    // The checkpoint holds the critic beside the policy, and both load.
    let dir = checkpoint::latest(&out.join("checkpoints")).unwrap();
    assert!(dir.join("critic.bpk").is_file());
    let device = Device::flex();
    checkpoint::load_critic(&dir, game.obs_len(), ORACLE_LEN, &device).unwrap();
    let model = checkpoint::load_model(&dir, game.obs_len(), game.num_actions(), &device).unwrap();
    assert_eq!(evaluate(&game, &Actor::new(model, &device), EvalOpponent::Random, 2, 1).unwrap().games, 4);

    // Resuming with the other critic is refused; with the same one it continues.
    let mut public = cfg.clone();
    public.ppo.critic = CriticKind::Public;
    public.run.total_hands = summary.state.hands + 20;
    let e = train(game, &public, &out, true, Device::flex(), &mut ()).unwrap_err().to_string();
    assert!(e.contains("critic=oracle") && e.contains("critic=public"), "{e}");
    let mut more = cfg.clone();
    more.run.total_hands = summary.state.hands + 20;
    let resumed = train(game, &more, &out, true, Device::flex(), &mut ()).unwrap();
    assert!(resumed.state.update > summary.state.update);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn doubles_trains_with_the_same_trainer() {
    let mut cfg = doubles_smoke();
    cfg.model.players = 3;
    let out = tmp("doubles");
    let rules = bones_env::rules::DoublesRules { players: 3, ..Default::default() };
    let summary = train(Doubles::new(rules), &cfg, &out, false, Device::flex(), &mut ()).unwrap();
    assert!(summary.state.hands >= 30);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn resume_without_a_checkpoint_is_a_clear_error() {
    let cfg = TrainConfig::load("smoke").unwrap();
    let out = tmp("noresume");
    let e = train(Texas42::default(), &cfg, &out, true, Device::flex(), &mut ()).unwrap_err().to_string();
    assert!(e.contains("no checkpoint"), "{e}");
    let _ = std::fs::remove_dir_all(&out);
}

/// A short Doubles run that learns fast from a teacher's labels (with
/// `teacher_coef` 5 and no entropy bonus), for the imitation tests.
pub fn imitation_config() -> TrainConfig {
    let mut cfg = doubles_smoke();
    cfg.run.total_hands = 300;
    cfg.ppo.num_envs = 16;
    cfg.ppo.num_steps = 32;
    cfg.model.hidden = 64;
    cfg.ppo.learning_rate = 3e-3;
    cfg.ppo.ent_coef = 0.0;
    cfg.ppo.teacher_coef = 5.0;
    cfg
}

#[test]
fn a_teacher_run_learns_to_imitate_its_teacher() {
    // Doubles with `highest` as the teacher (the legal domino with the most
    // pips: easy to imitate): the cross-entropy against its choices falls.
    let mut cfg = imitation_config();
    cfg.ppo.teacher = Some("highest".parse().unwrap());
    let out = tmp("teacher");
    let summary = train(Doubles::default(), &cfg, &out, false, Device::flex(), &mut ()).unwrap();
    let scalars = read_scalars(&out).unwrap();
    let loss = &scalars["losses/teacher_loss"];
    assert_eq!(loss.len() as u64, summary.state.update);
    let (first, last) = (loss[0].1, loss[loss.len() - 1].1);
    assert!(first > 0.5 && last < 0.6 * first, "teacher loss {first} -> {last}: {loss:?}");
    let _ = std::fs::remove_dir_all(&out);

    // A teacher that is not an agent spec is an error when the config is
    // read; one not for this game, when the run starts.
    let e = TrainConfig::from_toml("[ppo]\nteacher = \"pimc:worlds=0\"", "x").unwrap_err().to_string();
    assert!(e.contains("`teacher`: bad agent spec `pimc:worlds=0`"), "{e}");
    let e =
        train(Texas42::default(), &cfg.with(|c| c.model.game = "texas42".into()), &out, false, Device::flex(), &mut ())
            .unwrap_err()
            .to_string();
    assert!(e.contains("`teacher`") && e.contains("does not play texas42"), "{e}");
    let _ = std::fs::remove_dir_all(&out);
}

/// The greedy decisions and values of the checkpoint in `dir` on the first
/// observations of a few Doubles deals.
fn doubles_decisions(dir: &std::path::Path) -> Vec<(usize, f32)> {
    use bones_env::{Episode, GameState};
    use bones_policy::inference::decide;
    use bones_policy::sparse::SparseRows;
    let game = Doubles::default();
    let (ol, na) = (game.obs_len(), game.num_actions());
    let device = Device::flex();
    let actor = Actor::new(checkpoint::load_model(dir, ol, na, &device).unwrap(), &device);
    let (mut obs, mut masks) = (vec![0f32; 4 * ol], vec![0f32; 4 * na]);
    for seed in 0..4u64 {
        let mut st = game.new_state(seed, Episode::Hand);
        st.apply(st.legal_mask().nth(0)).unwrap(); // the forced opening
        let seat = st.current_seat().unwrap();
        st.observe(seat, &mut obs[seed as usize * ol..(seed as usize + 1) * ol]);
        for a in st.legal_mask().iter() {
            masks[seed as usize * na + a] = 1.0;
        }
    }
    decide(&actor, &SparseRows::from_dense(&obs, ol), &masks, na, None).iter().map(|d| (d.action, d.value)).collect()
}

#[test]
fn init_starts_a_run_from_a_trained_policy() {
    let cfg = doubles_smoke();
    let first = tmp("init-a");
    train(Doubles::default(), &cfg, &first, false, Device::flex(), &mut ()).unwrap();
    let trained = checkpoint::latest(&first.join("checkpoints")).unwrap();

    // A second run from those weights with a vanishing learning rate ends
    // where the first left off; from a fresh start it would not.
    let second = tmp("init-b");
    let tiny = cfg.clone().with(|c| {
        c.run.init = Some(trained.clone());
        c.ppo.learning_rate = 1e-12;
        c.run.seed = 99;
    });
    train(Doubles::default(), &tiny, &second, false, Device::flex(), &mut ()).unwrap();
    let continued = checkpoint::latest(&second.join("checkpoints")).unwrap();
    assert_eq!(doubles_decisions(&continued), doubles_decisions(&trained));
    let fresh = tmp("init-c");
    train(Doubles::default(), &tiny.clone().with(|c| c.run.init = None), &fresh, false, Device::flex(), &mut ())
        .unwrap();
    let fresh_ck = checkpoint::latest(&fresh.join("checkpoints")).unwrap();
    assert_ne!(doubles_decisions(&fresh_ck), doubles_decisions(&trained));

    // A run folder stands for its best checkpoint, else its latest (as `model:PATH` does).
    let from_run = tmp("init-e");
    train(
        Doubles::default(),
        &tiny.clone().with(|c| c.run.init = Some(first.clone())),
        &from_run,
        false,
        Device::flex(),
        &mut (),
    )
    .unwrap();
    let picked = bones_policy::agent::resolve(&first).unwrap();
    assert_eq!(
        doubles_decisions(&checkpoint::latest(&from_run.join("checkpoints")).unwrap()),
        doubles_decisions(&picked)
    );
    let nowhere = tiny.clone().with(|c| c.run.init = Some(fresh.join("no-such-folder")));
    let missing = tmp("init-f");
    let e = train(Doubles::default(), &nowhere, &missing, false, Device::flex(), &mut ()).unwrap_err().to_string();
    assert!(e.contains("`init`") && e.contains("no-such-folder"), "{e}");

    // Weights of another shape are refused with both shapes named.
    let wider = tiny.with(|c| c.model.hidden = cfg.model.hidden * 2);
    let refused = tmp("init-d");
    let e = train(Doubles::default(), &wider, &refused, false, Device::flex(), &mut ()).unwrap_err().to_string();
    assert!(e.contains("`init`") && e.contains("hidden=32") && e.contains("hidden=64"), "{e}");
    for d in [first, second, fresh, refused, from_run, missing] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_frozen_opponent_plays_the_other_side_of_every_game() {
    let mut cfg = TrainConfig::load("smoke").unwrap();
    let out = tmp("opponent");
    let plain = train(Texas42::default(), &cfg, &out, false, Device::flex(), &mut ()).unwrap();
    assert_eq!(plain.profile.seconds(Phase::Opponent), 0.0);
    let _ = std::fs::remove_dir_all(&out);

    cfg.opponents.opponent = Some("heuristic".parse().unwrap());
    let summary = train(Texas42::default(), &cfg, &out, false, Device::flex(), &mut ()).unwrap();
    assert!(summary.profile.seconds(Phase::Opponent) > 0.0);
    // Every game is against the opponent: the learner's return against it is
    // logged at every update where a game ended (the smoke config ends some in each).
    let scalars = read_scalars(&out).unwrap();
    assert_eq!(scalars["charts/episodic_return"].len() as u64, summary.state.update);
    assert!(std::fs::read_to_string(out.join("config.toml")).unwrap().contains("opponent = \"heuristic\""));
    let _ = std::fs::remove_dir_all(&out);

    // An opponent that is not an agent spec is an error when the config is
    // read; one not for this game, when the run starts.
    let e = TrainConfig::from_toml("[opponents]\nopponent = \"pimc:worlds=0\"", "x").unwrap_err().to_string();
    assert!(e.contains("`opponent`: bad agent spec `pimc:worlds=0`"), "{e}");
    cfg.opponents.opponent = Some("highest".parse().unwrap());
    let e = train(Texas42::default(), &cfg, &out, false, Device::flex(), &mut ()).unwrap_err().to_string();
    assert!(e.contains("`opponent`") && e.contains("does not play texas42"), "{e}");
    let _ = std::fs::remove_dir_all(&out);
}
