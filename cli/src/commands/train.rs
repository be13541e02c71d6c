//! `bones train`: PPO self-play from a config preset or file.

use super::args::usage;
use anyhow::{bail, Context, Result};
use bones_agents::AgentGame;
use bones_env::{AnyGame, GAMES};
use bones_train::checkpoint::RunState;
use bones_train::config::flags::{FlagValue, TrainFlag, FLAGS};
use bones_train::training::{Progress, Summary};
use bones_train::{train, TrainConfig, TrainError};
use burn::prelude::Device;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};

/// Compute device for training.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceName {
    /// The CPU (burn's flex backend, multi-threaded).
    Cpu,
    /// An NVIDIA GPU (build with `--features cuda`).
    Cuda,
    /// Any GPU through wgpu (build with `--features wgpu`).
    Wgpu,
}

/// `bones train`'s arguments: its flags are bones-train's table of a
/// training run's flags ([`FLAGS`]), with `--device` after `--resume`.
#[derive(Debug)]
pub struct TrainArgs {
    /// `--config`.
    pub config: String,
    /// `--out`.
    pub out: Option<PathBuf>,
    /// `--resume`.
    pub resume: bool,
    /// Compute device.
    pub device: DeviceName,
    /// The config fields the flags given override, with their values.
    pub overrides: Vec<(&'static str, serde_json::Value)>,
}

/// The clap argument of a flag of the table.
fn arg_of(flag: &TrainFlag) -> clap::Arg {
    let arg = clap::Arg::new(flag.name).long(flag.name).help(flag.help);
    let arg = match &flag.value {
        FlagValue::Switch => arg.action(clap::ArgAction::SetTrue),
        FlagValue::Whole { min, max, .. } => arg.value_parser(clap::value_parser!(u64).range(*min..=*max)),
        FlagValue::Game => arg.value_parser(clap::builder::PossibleValuesParser::new(GAMES.map(|g| g.name))),
        FlagValue::Text { .. } => arg,
    };
    let arg = match flag.value.shown() {
        Some(shown) => arg.value_name(shown),
        None => arg,
    };
    match flag.default {
        Some(d) => arg.default_value(d),
        None => arg,
    }
}

impl clap::Args for TrainArgs {
    fn augment_args(mut cmd: clap::Command) -> clap::Command {
        for flag in FLAGS {
            cmd = cmd.arg(arg_of(flag));
            if flag.name == "resume" {
                cmd = cmd.arg(
                    clap::Arg::new("device")
                        .long("device")
                        .value_name("DEVICE")
                        .help("Compute device.")
                        .value_parser(clap::builder::EnumValueParser::<DeviceName>::new())
                        .default_value("cpu"),
                );
            }
        }
        cmd
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for TrainArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let text = |name: &str| m.get_one::<String>(name).cloned();
        let mut overrides = Vec::new();
        for flag in FLAGS {
            let Some(field) = flag.field else { continue };
            let value = match flag.value {
                FlagValue::Whole { .. } => m.get_one::<u64>(flag.name).map(|&v| v.into()),
                FlagValue::Switch => m.get_flag(flag.name).then_some(true.into()),
                FlagValue::Text { .. } | FlagValue::Game => text(flag.name).map(Into::into),
            };
            overrides.extend(value.map(|v| (field, v)));
        }
        Ok(TrainArgs {
            config: text("config").unwrap_or_default(),
            out: text("out").map(PathBuf::from),
            resume: m.get_flag("resume"),
            device: m.get_one::<DeviceName>("device").copied().unwrap_or(DeviceName::Cpu),
            overrides,
        })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

fn device(name: DeviceName) -> Result<Device> {
    match name {
        DeviceName::Cpu => Ok(Device::flex()),
        #[cfg(feature = "cuda")]
        DeviceName::Cuda => Ok(Device::cuda(0)),
        #[cfg(feature = "wgpu")]
        DeviceName::Wgpu => Ok(Device::wgpu(Default::default())),
        #[allow(unreachable_patterns)]
        other => bail!(
            "--device {other:?}: this build has no GPU backend; rebuild with `--features cuda` or `--features wgpu`"
        ),
    }
}

struct Bar(ProgressBar);

impl Progress for Bar {
    fn update(&mut self, s: &RunState, hands_per_s: f64, decisions_per_s: f64) {
        self.0.set_position(s.hands);
        let eval: Vec<String> = s.last_eval.iter().map(|(k, v)| format!("{k} {v:.3}")).collect();
        self.0.set_message(format!(
            "update {} · {hands_per_s:.0} hands/s · {decisions_per_s:.0} decisions/s · {}",
            s.update,
            eval.join(" · ")
        ));
    }

    fn note(&mut self, line: &str) {
        self.0.suspend(|| eprintln!("{line}"));
    }
}

struct Train<'a> {
    cfg: &'a TrainConfig,
    out: &'a std::path::Path,
    resume: bool,
    device: Device,
    progress: &'a mut Bar,
}

impl Train<'_> {
    fn visit<G: AgentGame>(self, game: G) -> Result<Summary, TrainError> {
        train(game, self.cfg, self.out, self.resume, self.device, self.progress)
    }
}

pub fn run(args: TrainArgs) -> Result<i32> {
    let mut cfg = TrainConfig::load(&args.config).map_err(usage)?;
    if !args.overrides.is_empty() {
        cfg = cfg.with_overrides(args.overrides.iter().map(|(f, v)| (*f, v.clone()))).map_err(usage)?;
    }
    cfg.validate().map_err(|e| usage(format!("config: {e}")))?;
    let game = cfg.game().map_err(|e| usage(format!("config: {e}")))?;
    let name = std::path::Path::new(&args.config).file_stem().and_then(|s| s.to_str()).unwrap_or("run").to_string();
    let out = args.out.unwrap_or_else(|| PathBuf::from("runs").join(name));
    let dev = device(args.device)?;
    let bar = ProgressBar::new(cfg.run.total_hands);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} hands {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let mut progress = Bar(bar);
    let train = Train { cfg: &cfg, out: &out, resume: args.resume, device: dev, progress: &mut progress };
    let summary =
        bones_env::on_game!(game, g => train.visit(g)).with_context(|| format!("training into {}", out.display()))?;
    progress.0.finish();
    println!(
        "trained {} hands in {} updates ({:.0} decisions/s, {:.0} hands/hour); checkpoint {}",
        summary.state.hands,
        summary.state.update,
        summary.decisions_per_s,
        summary.hands_per_hour,
        summary.checkpoint.display()
    );
    for (k, v) in &summary.state.last_eval {
        println!("  {k}: {v:.3}");
    }
    println!("time per phase:\n{}", summary.profile);
    if let Some(rss) = summary.peak_rss_bytes {
        println!("peak memory (RSS): {:.2} GiB", rss as f64 / (1u64 << 30) as f64);
    }
    println!("next: evaluate it, play against it, export it (`model:RUN` plays the run's best checkpoint):");
    for command in next_steps(&game, &out) {
        println!("  {command}");
    }
    Ok(0)
}

/// The commands that evaluate, play against and export what a run of `game`
/// trained into `out`, as a shell reads them.
pub fn next_steps(game: &AnyGame, out: &Path) -> [String; 3] {
    let mut g = format!("--game {}", game.name());
    if game.num_players() != game.entry().default_players {
        g += &format!(" --players {}", game.num_players());
    }
    let default = AnyGame::new(game.name(), None, Some(game.num_players())).map(|d| d.rules_json());
    if default.as_ref().ok() != Some(&game.rules_json()) {
        g += &format!(" --rules {}", quoted(&game.rules_json().to_string()));
    }
    let run = out.display().to_string();
    [
        format!("bones eval {g} --agents {} --games 1000", quoted(&format!("model:{run},heuristic"))),
        format!("bones play {g} --opponents {}", quoted(&format!("model:{run}"))),
        format!("bones export --checkpoint {} --out {}", quoted(&run), quoted(&format!("{run}/export"))),
    ]
}

/// `arg` as one shell word: as it is when it holds no character a shell
/// reads, else in single quotes.
fn quoted(arg: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:,=+@%".contains(c);
    if !arg.is_empty() && arg.chars().all(plain) {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::{Cli, Command};
    use clap::Parser;

    #[test]
    fn a_run_ends_with_commands_that_evaluate_play_against_and_export_it() {
        let texas = AnyGame::new("texas42", None, None).unwrap();
        let steps = next_steps(&texas, Path::new("runs/cpu-quick"));
        assert_eq!(
            steps,
            [
                "bones eval --game texas42 --agents model:runs/cpu-quick,heuristic --games 1000",
                "bones play --game texas42 --opponents model:runs/cpu-quick",
                "bones export --checkpoint runs/cpu-quick --out runs/cpu-quick/export",
            ]
        );
        for step in &steps {
            let words: Vec<&str> = step.split(' ').collect();
            assert!(Cli::try_parse_from(&words).is_ok(), "`{step}` does not parse");
        }
        // Players and rules other than the defaults are given; odd paths quoted.
        let doubles = AnyGame::new("doubles", Some(&serde_json::json!({"target": 50})), Some(3)).unwrap();
        let steps = next_steps(&doubles, Path::new("my runs/d3"));
        assert!(steps[1].starts_with("bones play --game doubles --players 3 --rules '{"), "{}", steps[1]);
        assert!(steps[1].ends_with("--opponents 'model:my runs/d3'"), "{}", steps[1]);
        assert_eq!(quoted("it's"), "'it'\\''s'");
    }

    #[test]
    fn bones_train_takes_every_flag_of_the_table_and_sets_the_fields_they_override() {
        let cli = <Cli as clap::CommandFactory>::command();
        let train = cli.find_subcommand("train").expect("a train command");
        for flag in FLAGS {
            assert!(train.get_arguments().any(|a| a.get_long() == Some(flag.name)), "--{} is missing", flag.name);
        }
        let words = "bones train --config smoke --game doubles --players 3 --hands 40 --seed 9 --workers 2 --resume";
        let Cli { command: Command::Train(args), .. } = Cli::parse_from(words.split(' ')) else {
            panic!("`bones train` parses as another command");
        };
        assert!(args.resume);
        let cfg = TrainConfig::load(&args.config).unwrap().with_overrides(args.overrides).unwrap();
        assert_eq!(cfg.model.game, "doubles");
        assert_eq!((cfg.model.players, cfg.run.total_hands, cfg.run.seed, cfg.run.workers), (3, 40, 9, 2));
        assert!(Cli::try_parse_from(["bones", "train", "--players", "5"]).is_err(), "--players 5 was taken");
    }

    #[test]
    fn bones_train_without_a_config_trains_configs_cpu_quick_toml() {
        let Cli { command: Command::Train(args), .. } = Cli::parse_from(["bones", "train"]) else {
            panic!("`bones train` parses as another command");
        };
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/cpu-quick.toml");
        let cfg = TrainConfig::load(&args.config).unwrap();
        assert_eq!(cfg, TrainConfig::load(file.to_str().unwrap()).unwrap());
        assert_eq!(cfg, TrainConfig::default());
    }
}
