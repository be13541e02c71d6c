//! How often a network's greedy choice is the label, by phase of the hand: what
//! a label file (`bones label`) would teach a Texas 42 network that it does not
//! already do.
//!
//! ```text
//! cargo run --release -p bones-train --example label_agreement -- LABELS.bin [MODEL]
//! ```
//! MODEL defaults to `models/texas42`. Prints one line per phase (bidding,
//! declaring, playing): labels matched / labels.

use bones_agents::{AgentRng, Policy};
use bones_env::{ActionMask, Game, Texas42, Texas42Rules};
use bones_policy::agent::PolicyAgent;
use bones_train::labels::LabelFile;
use rand::SeedableRng;
use std::path::Path;

/// Where the observation's one-hot phase segment starts (version 2: bidding,
/// declaring, playing, done).
const PHASE: usize = 32;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let labels = args.get(1).expect("usage: label_agreement LABELS.bin [MODEL]");
    let model = args.get(2).map_or("models/texas42", String::as_str);
    let file = LabelFile::read(Path::new(labels)).unwrap_or_else(|e| panic!("{e}"));
    let game = Texas42::new(Texas42Rules::STANDARD);
    assert_eq!(file.game, "texas42", "a Texas 42 label file");
    let mut policy = PolicyAgent::load(Path::new(model), "texas42", game.obs_len(), game.num_actions())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rng = AgentRng::seed_from_u64(0);
    let mut agree = [[0u32; 2]; 3];
    let mut obs = vec![0f32; file.obs_len];
    for row in &file.rows {
        obs.iter_mut().for_each(|x| *x = 0.0);
        for &(j, v) in &row.obs {
            obs[j as usize] = v;
        }
        let phase = (0..3).find(|&p| obs[PHASE + p] > 0.5).expect("a decision before the hand is done");
        let choice = policy.decide(&obs, ActionMask(row.legal), &mut rng);
        agree[phase][0] += (choice == row.action as usize) as u32;
        agree[phase][1] += 1;
    }
    for (name, [matched, n]) in ["bidding", "declaring", "playing"].iter().zip(agree) {
        println!("{name}: {matched} / {n} = {:.3}", matched as f64 / n.max(1) as f64);
    }
}
