//! How often a network's greedy choice is the label, by phase of the hand: what
//! a label file (`bones label`) would teach a network that it does not already
//! do.
//!
//! ```text
//! cargo run --release -p bones-train --example label_agreement -- LABELS.bin [MODEL [T]]
//! ```
//! MODEL defaults to the file's game's shipped model (`models/GAME`). Prints one
//! line per phase (Texas 42: bidding, declaring, playing; Doubles: one line for
//! every decision): labels matched / labels; with a `label_temperature` T, also
//! the mean probability the rows' priors and their targets at T give the label,
//! and the share of rows whose values tie at the top.

use bones_agents::{AgentRng, Policy};
use bones_env::ActionMask;
use bones_policy::agent::PolicyAgent;
use bones_train::labels::{target, LabelFile};
use rand::SeedableRng;
use std::path::Path;

/// Where the observation's one-hot phase segment starts (version 2: bidding,
/// declaring, playing, done).
const PHASE: usize = 32;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let labels = args.get(1).expect("usage: label_agreement LABELS.bin [MODEL]");
    let file = LabelFile::read(Path::new(labels)).unwrap_or_else(|e| panic!("{e}"));
    let model = args.get(2).cloned().unwrap_or_else(|| format!("models/{}", file.game));
    let temperature: Option<f32> = args.get(3).map(|t| t.parse().expect("a temperature (a number at least 0)"));
    // Texas 42 by the observation's phase; any other game as one phase.
    let phases: &[&str] =
        if file.game == "texas42" { &["bidding", "declaring", "playing"] } else { &["every decision"] };
    let mut policy = PolicyAgent::load(Path::new(&model), &file.game, file.obs_len, file.num_actions)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rng = AgentRng::seed_from_u64(0);
    let mut agree = [[0u32; 2]; 3];
    // The probability the prior and the target give the label, summed.
    let mut on_label = [[0f64; 2]; 3];
    let mut tied = [0u32; 3];
    let mut obs = vec![0f32; file.obs_len];
    for row in &file.rows {
        obs.iter_mut().for_each(|x| *x = 0.0);
        for &(j, v) in &row.obs {
            obs[j as usize] = v;
        }
        let phase = match phases.len() {
            1 => 0,
            n => (0..n).find(|&p| obs[PHASE + p] > 0.5).expect("a decision before the hand is done"),
        };
        let choice = policy.decide(&obs, ActionMask(row.legal), &mut rng);
        agree[phase][0] += (choice == row.action as usize) as u32;
        agree[phase][1] += 1;
        if let Some(t) = temperature {
            let prior = match row.prior.is_empty() {
                true => 1.0 / row.legal.count_ones() as f32,
                false => row.prior.iter().find(|p| p.0 == row.action).map_or(0.0, |p| p.1),
            };
            on_label[phase][0] += prior as f64;
            on_label[phase][1] += target(row, file.num_actions, t)[row.action as usize] as f64;
            let best = row.values.iter().map(|v| v.1).fold(f32::NEG_INFINITY, f32::max);
            tied[phase] += (row.values.iter().filter(|v| v.1 == best).count() > 1) as u32;
        }
    }
    for (((name, [matched, n]), [prior, tilted]), tied) in phases.iter().zip(agree).zip(on_label).zip(tied) {
        let n = n.max(1) as f64;
        print!("{name}: {matched} / {n} = {:.3}", matched as f64 / n);
        match temperature {
            Some(t) => println!(
                "; on the label: prior {:.3}, target at {t} {:.3}; tied at the top {:.3}",
                prior / n,
                tilted / n,
                tied as f64 / n
            ),
            None => println!(),
        }
    }
}
