//! The config's tests: presets, the defaults, the old flat form, removed keys,
//! typed values and how a config is written back.

use super::*;
use bones_env::RewardMode;

fn configs_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs")
}

#[test]
fn an_evaluation_of_no_deals_or_too_many_is_refused_naming_the_key_and_its_range() {
    for text in ["[eval]\neval_hands = 0", "eval_hands = 0", "[eval]\neval_hands = 1000001"] {
        let e = TrainConfig::from_toml(text, "x").unwrap_err().to_string();
        assert!(e.contains("`eval_hands` must be 1 to 1000000 (") && !e.contains('\n'), "{text}: {e}");
    }
    let e = TrainConfig::default().with(|c| c.eval.eval_hands = 0).validate().unwrap_err();
    assert!(e.starts_with("`eval_hands` must be 1 to 1000000"), "{e}");
    for n in [1, MAX_EVAL_HANDS] {
        let cfg = TrainConfig::from_toml(&format!("[eval]\neval_hands = {n}"), "x").unwrap();
        assert_eq!(cfg.eval.eval_hands, n);
    }
}

#[test]
fn presets_load_and_round_trip() {
    for (name, _) in PRESETS {
        let cfg = TrainConfig::load(name).unwrap();
        assert_eq!(TrainConfig::from_toml(&cfg.to_toml(), name).unwrap(), cfg);
    }
}

#[test]
fn the_default_config_is_configs_cpu_quick_toml_which_gives_every_key() {
    let path = configs_dir().join("cpu-quick.toml");
    let file = TrainConfig::load(path.to_str().unwrap()).unwrap();
    assert_eq!(TrainConfig::default(), file);
    assert_eq!(TrainConfig::load("cpu-quick").unwrap(), file);
    assert_eq!(TrainConfig::from_toml("", "empty").unwrap(), file);
    // Every field is written there, in the order of the struct.
    let written: toml::Table = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let fields: toml::Table = toml::from_str(&file.to_toml()).unwrap();
    let names = |t: &toml::Table| -> Vec<String> {
        t.iter().flat_map(|(s, f)| f.as_table().unwrap().keys().map(move |n| format!("{s}.{n}"))).collect()
    };
    assert_eq!(names(&written), names(&fields));
}

#[test]
fn every_config_file_in_configs_loads_and_gives_only_what_differs_from_cpu_quick() {
    let defaults = defaults();
    let mut files = 0;
    for entry in std::fs::read_dir(configs_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let cfg = TrainConfig::from_toml(&text, &path.display().to_string()).unwrap();
        cfg.validate().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        files += 1;
        if path.file_stem().unwrap() == "cpu-quick" {
            continue;
        }
        let table: toml::Table = toml::from_str(&text).unwrap();
        for (section, fields) in &table {
            let fields =
                fields.as_table().unwrap_or_else(|| panic!("{}: `{section}` outside a section", path.display()));
            for (name, value) in fields {
                let default = &defaults[section.as_str()][name.as_str()];
                let same = match (value.as_float(), default.as_float()) {
                    (Some(a), Some(b)) => a == b,
                    _ => value == default,
                };
                assert!(!same, "{}: `{section}.{name} = {value}` is cpu-quick's value", path.display());
            }
        }
    }
    assert!(files >= 6, "{files} config files");
}

#[test]
fn reward_and_critic_parse_to_enums_and_serialise_to_the_same_strings() {
    for (text, reward) in
        [("marks", RewardMode::Marks), ("points", RewardMode::Points), ("marks+points", RewardMode::MarksAndPoints)]
    {
        let cfg = TrainConfig::from_toml(&format!("[model]\nreward = \"{text}\""), "x").unwrap();
        assert_eq!(cfg.model.reward, reward);
        assert!(cfg.to_toml().contains(&format!("reward = \"{text}\"\n")), "{}", cfg.to_toml());
    }
    for (text, critic) in [("public", CriticKind::Public), ("oracle", CriticKind::Oracle)] {
        let cfg = TrainConfig::from_toml(&format!("[ppo]\ncritic = \"{text}\""), "x").unwrap();
        assert_eq!(cfg.ppo.critic, critic);
        assert_eq!(cfg.oracle_critic(), critic == CriticKind::Oracle);
        assert!(cfg.to_toml().contains(&format!("critic = \"{text}\"\n")), "{}", cfg.to_toml());
    }
    let cfg = TrainConfig::from_toml("", "x").unwrap();
    assert_eq!((cfg.model.reward, cfg.ppo.critic), (RewardMode::Marks, CriticKind::Public));
}

#[test]
fn the_shipped_models_configs_load_and_are_written_back_in_sections_with_every_value_as_given() {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
    for name in bones_env::GAMES.map(|g| g.name) {
        let path = models.join(name).join("config.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        let cfg = TrainConfig::from_toml(&text, name).unwrap();
        let saved = cfg.to_toml();
        assert_eq!(TrainConfig::from_toml(&saved, name).unwrap(), cfg);
        assert!(saved.starts_with("[run]\n") && saved.contains("\n[model]\ngame = "), "{saved}");
        // Every key of the file (flat, or in its section) comes back with its
        // value in its section; an f32 as its shortest decimal (the file's
        // `0.949999988079071` is the f32 0.95 widened: `0.95` comes back).
        // The removed bid rounds' keys, at their "off" values, do not.
        let file: toml::Table = toml::from_str(&text).unwrap();
        let back: toml::Table = toml::from_str(&saved).unwrap();
        let mut keys = Vec::new();
        for (key, value) in file {
            match value {
                toml::Value::Table(fields) => keys.extend(fields.into_iter().map(|(k, v)| (format!("{key}.{k}"), v))),
                value => keys.push((key, value)),
            }
        }
        for (key, value) in keys {
            if key.starts_with("bidding.") || key == "model.bid_hidden" {
                if key == "bidding.rounds" || key == "model.bid_hidden" {
                    assert_eq!(value.as_integer(), Some(0), "{name}: {key}");
                }
                continue;
            }
            let (section, field) = field_path(&key).unwrap_or_else(|| panic!("{name}: `{key}` is no config key"));
            let got = &back[section][field];
            match (value.as_float(), got.as_float()) {
                (Some(given), Some(written)) => {
                    assert_eq!(given as f32, written as f32, "{name}: {key}");
                    assert_eq!(written, (given as f32).to_string().parse::<f64>().unwrap(), "{name}: {key}");
                }
                _ => assert_eq!(got, &value, "{name}: {key}"),
            }
        }
        assert!(!back.contains_key("bidding") && !saved.contains("bid_hidden"), "{saved}");
        assert!(saved.contains("\ngae_lambda = 0.95\n") && saved.contains("\nclip_coef = 0.2\n"), "{saved}");
    }
}

#[test]
fn an_old_flat_config_loads_to_the_same_config_as_its_sections() {
    // configs/texas42-continue-2.toml (stage 3 of models/texas42) as it was
    // before the sections, and as it was in them.
    let flat = "game = \"texas42\"\nrules = \"standard\"\nseed = 3\ntotal_hands = 2000000\nnum_envs = 512\n\
                num_steps = 32\nenv_threads = 2\nlearning_rate = 0.00025\nhidden = 256\ndepth = 2\n\
                update_epochs = 1\nnum_minibatches = 16\nent_coef = 0.02\ntarget_kl = 0.03\nreward = \"marks\"\n\
                opponent_share = 0.2\nsnapshot_every = 20\npool_size = 8\neval_every = 50\neval_hands = 1000\n\
                checkpoint_every = 10\ninit = \"models/texas42\"\n";
    let sections = "[run]\nseed = 3\ntotal_hands = 2000000\ninit = \"models/texas42\"\n\n[model]\nhidden = 256\n\n\
                    [ppo]\nnum_envs = 512\nlearning_rate = 0.00025\nnum_minibatches = 16\nent_coef = 0.02\n\n\
                    [opponents]\nsnapshot_every = 20\n\n[eval]\neval_every = 50\neval_hands = 1000\n";
    let old = TrainConfig::from_toml(flat, "flat").unwrap();
    assert_eq!(old, TrainConfig::from_toml(sections, "sections").unwrap());
    assert_ne!(old, TrainConfig::default());
    assert_eq!((old.run.seed, old.model.hidden, old.ppo.learning_rate, old.eval.eval_hands), (3, 256, 0.00025, 1000));
}

#[test]
fn an_old_flat_config_that_leaves_keys_out_gets_the_defaults_of_the_flat_form() {
    let old = TrainConfig::from_toml("seed = 9\n", "flat").unwrap();
    let ppo = &old.ppo;
    assert_eq!(
        (old.run.seed, old.run.total_hands, old.model.hidden),
        (9, 200_000, bones_policy::folder::DEFAULT_HIDDEN)
    );
    assert_eq!((ppo.learning_rate, ppo.update_epochs, ppo.num_minibatches), (3e-4, 4, 4));
    assert_eq!((ppo.ent_coef, ppo.target_kl), (0.01, 0.0));
    // Every other key is cpu-quick's, and the sectioned form takes cpu-quick's throughout.
    assert_eq!((old.ppo.num_envs, old.eval.eval_every), (256, 20));
    let sectioned = TrainConfig::from_toml("[run]\nseed = 9\n", "sections").unwrap();
    assert_eq!((sectioned.run.total_hands, sectioned.ppo.learning_rate), (150_000, 0.001));
}

#[test]
fn a_config_saved_before_labels_were_removed_still_loads_and_a_live_label_file_is_refused() {
    let old = TrainConfig::from_toml("labels = \"\"\nlabel_share = 1.0\nlabel_temperature = 0.0\n", "old").unwrap();
    assert_eq!(old, TrainConfig::default());
    let e = TrainConfig::from_toml("labels = \"runs/labels/search.bin\"", "x").unwrap_err().to_string();
    assert!(e.contains("label files were removed") && e.contains("delete the key"), "{e}");
    let e = TrainConfig::from_toml("label_share = 0.25", "x").unwrap_err().to_string();
    assert!(e.contains("`label_share = 0.25`"), "{e}");
}

#[test]
fn an_unknown_key_is_one_line_naming_it_and_the_nearest_known_key() {
    for (text, says) in [
        ("learning_rat = 0.1", "unknown key `learning_rat` (did you mean `learning_rate`?)"),
        ("[ppo]\nlearning_rat = 0.1", "unknown key `ppo.learning_rat` (did you mean `ppo.learning_rate`?)"),
        ("[ppo]\nseed = 3", "unknown key `ppo.seed` (did you mean `run.seed`?)"),
        ("[model]\nhiden = 64", "unknown key `model.hiden` (did you mean `model.hidden`?)"),
        ("[evl]\neval_every = 3", "unknown section `[evl]` (did you mean `[eval]`?)"),
        ("seed = 3\n[run]\nseed = 4", "`run.seed` is given twice"),
    ] {
        let e = TrainConfig::from_toml(text, "x").unwrap_err().to_string();
        assert!(e.contains(says) && !e.contains('\n'), "{text}: {e}");
    }
}

#[test]
fn a_key_may_be_named_alone_or_with_its_section() {
    assert_eq!(field_path("learning_rate"), Some(("ppo", "learning_rate")));
    assert_eq!(field_path("ppo.learning_rate"), Some(("ppo", "learning_rate")));
    assert_eq!(field_path("run.learning_rate"), None);
    assert_eq!(field_path("hidden_size"), None);
}

#[test]
fn bad_values_are_errors() {
    let e = TrainConfig::from_toml("[model]\ngame = \"chess\"", "x").unwrap_err().to_string();
    assert!(e.contains("texas42"), "{e}");
    let e = TrainConfig::from_toml("[ppo]\ncritic = \"psychic\"", "x").unwrap_err().to_string();
    assert!(e.contains("`critic` must be \"public\" or \"oracle\", not \"psychic\"") && !e.contains('\n'), "{e}");
    let e = TrainConfig::from_toml("reward = \"goals\"", "x").unwrap_err().to_string();
    assert!(e.contains("`reward` must be \"marks\", \"points\" or \"marks+points\", not \"goals\""), "{e}");
    let e = TrainConfig::from_toml("[ppo]\nnum_envs = 0", "x").unwrap_err().to_string();
    assert!(e.contains("`num_envs` must be at least 1"), "{e}");
    assert!(TrainConfig::load("no-such-preset").unwrap_err().to_string().contains("cpu-quick"));
}

#[test]
fn a_config_saved_with_bid_rounds_off_loads_and_one_asking_for_them_is_refused_naming_the_removed_option() {
    // Every config and checkpoint saved while bid rounds existed holds these.
    let off = "[model]\nbid_hidden = 0\n\n[bidding]\nrounds = 0\nround_hands = 100000\nkeep_rounds = 4\n\
               recent_weight = 0.5\nfit_epochs = 4\nfit_learning_rate = 0.001\nfit_minibatch = 512\n";
    assert_eq!(TrainConfig::from_toml(off, "old").unwrap(), TrainConfig::default());
    assert_eq!(TrainConfig::from_toml("[bidding]\nround_hands = 5\n", "old").unwrap(), TrainConfig::default());
    // configs/texas42-bidding.toml, the recipe measured.
    let bidding = "[run]\nseed = 46\ntotal_hands = 550000\n\n[model]\nhidden = 256\nbid_hidden = 64\n\n\
                   [bidding]\nrounds = 10\nround_hands = 50000\nfit_epochs = 2\nfit_minibatch = 1024\n";
    for (text, starts) in [
        (bidding, "`[bidding] rounds = 10`: bid rounds were removed from the trainer ("),
        ("[bidding]\nrounds = 2\n", "`[bidding] rounds = 2`: bid rounds were removed from the trainer ("),
        (
            "[model]\nbid_hidden = 8\n",
            "`bid_hidden = 8`: bid values (fitted by bid rounds) were removed from the trainer (",
        ),
        ("bid_hidden = 8\n", "`bid_hidden = 8`: bid values (fitted by bid rounds) were removed from the trainer ("),
    ] {
        let e = TrainConfig::from_toml(text, "x").unwrap_err().to_string();
        let message = e.strip_prefix("bad config `x`: ").unwrap_or_else(|| panic!("{e}"));
        assert!(message.starts_with(starts), "{text}: {e}");
        assert!(e.contains("+0.004 marks/hand") && e.contains("the code is at commit ") && !e.contains('\n'), "{e}");
        assert!(e.ends_with("delete the section") || e.ends_with("delete the key"), "{e}");
    }
    // In any other section the key is unknown, as any other.
    let e = TrainConfig::from_toml("[ppo]\nbid_hidden = 0\n", "x").unwrap_err().to_string();
    assert!(e.contains("unknown key `ppo.bid_hidden`"), "{e}");
}

#[test]
fn teacher_opponent_and_init_are_typed_when_read_and_written_back_as_given() {
    let cfg = TrainConfig::from_toml(
        "[run]\ninit = \"models/texas42\"\n\n[ppo]\nteacher = \"pimc:worlds=128\"\n\n[opponents]\nopponent = \" search \"\n",
        "x",
    )
    .unwrap();
    assert_eq!(cfg.run.init, Some(PathBuf::from("models/texas42")));
    assert_eq!(cfg.ppo.teacher.as_ref().map(GivenSpec::spec), Some(&bones_agents::AgentSpec::Pimc { worlds: 128 }));
    let opponent = cfg.opponents.opponent.as_ref().unwrap();
    assert!(matches!(opponent.spec(), bones_agents::AgentSpec::Search(_)), "{opponent:?}");
    // Written back as given (not `search`'s canonical spelling with every option).
    let saved = cfg.to_toml();
    for line in ["init = \"models/texas42\"\n", "teacher = \"pimc:worlds=128\"\n", "opponent = \"search\"\n"] {
        assert!(saved.contains(line), "{line} not in\n{saved}");
    }
    assert_eq!(TrainConfig::from_toml(&saved, "saved").unwrap(), cfg);
    // Empty (or blank) is none, and none is written empty, as cpu-quick gives it.
    let none = TrainConfig::from_toml("[ppo]\nteacher = \"  \"\n", "x").unwrap();
    assert_eq!((&none.run.init, &none.ppo.teacher, &none.opponents.opponent), (&None, &None, &None));
    for line in ["init = \"\"\n", "teacher = \"\"\n", "opponent = \"\"\n"] {
        assert!(none.to_toml().contains(line), "{line}");
    }
    // A bad spec is an error of the load, naming the key, in one line.
    for (text, says) in [
        ("[ppo]\nteacher = \"pimc:worlds=0\"", "`teacher`: bad agent spec `pimc:worlds=0`"),
        ("[opponents]\nopponent = \"herustic\"", "`opponent`: unknown agent `herustic` (did you mean `heuristic`?"),
        ("teacher = \"search:retie=2\"", "`teacher`: bad agent spec `search:retie=2`: `retie` was removed ("),
    ] {
        let e = TrainConfig::from_toml(text, "x").unwrap_err().to_string();
        assert!(e.contains(says) && !e.contains('\n'), "{text}: {e}");
    }
    // The Python package's overrides go through JSON: the same config comes back.
    let json = serde_json::to_value(&cfg).unwrap();
    assert_eq!(json["ppo"]["teacher"], "pimc:worlds=128");
    assert_eq!(serde_json::from_value::<TrainConfig>(json).unwrap(), cfg);
}

#[test]
fn a_config_is_written_back_with_its_floats_as_they_were_given() {
    let cfg = TrainConfig::from_toml("[model]\nreward_scale = 0.02\n\n[ppo]\nent_coef = 0.03\n", "x").unwrap();
    let saved = cfg.to_toml();
    for line in
        ["reward_scale = 0.02\n", "gamma = 1.0\n", "gae_lambda = 0.95\n", "ent_coef = 0.03\n", "target_kl = 0.03\n"]
    {
        assert!(saved.contains(line), "{line} not in\n{saved}");
    }
    assert!(saved.contains("opponent_share = 0.2\n") && !saved.contains("0.2000000"), "{saved}");
    // A config written before (each f32 widened) reads as the same config, and is written back short.
    let widened =
        TrainConfig::from_toml("[ppo]\ngae_lambda = 0.949999988079071\nclip_coef = 0.20000000298023224\n", "old");
    assert_eq!(widened.unwrap(), TrainConfig::default());
}
