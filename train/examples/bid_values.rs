//! Bids priced by a bid-value network fitted to realized self-play outcomes
//! (issue 27, item 2's second lever), in three steps:
//!
//! ```text
//! cargo run --release -p bones-train --example bid_values -- gen MODEL HANDS SEED OUT.bin
//! cargo run --release -p bones-train --example bid_values -- fit MODEL OUT.bin QNET EPOCHS
//! cargo run --release -p bones-train --example bid_values -- eval MODEL QNET AMOUNT SEED RATIO [OPPONENT]
//! ```
//! - `gen` plays HANDS self-play hands of Texas 42 with MODEL in every seat
//!   (its most probable action, except that half the bids are drawn from its
//!   policy at temperature 2, so that bids other than its favourite are tried)
//!   and writes every bid with a choice and the marks its side then won or lost.
//! - `fit` trains a network of MODEL's shape, from MODEL's weights, whose
//!   action outputs predict those marks (squared error on the bid taken; 5% of
//!   the hands held out) and saves it in the folder QNET (`model.bpk`,
//!   `config.toml`). It prints the held-out error and a calibration table:
//!   predicted against realized marks, in bins of the prediction.
//! - `eval` plays MODEL with its bids priced by QNET (among the legal bids to
//!   which the policy gives at least RATIO of its favourite's probability, the
//!   one QNET values most; with RATIO written `R:T`, the one with the highest
//!   `ln p + q / T`, the policy tilted by the values at temperature T) against OPPONENT (an agent spec; default MODEL
//!   itself) on duplicate deals, and prints the arena's report as JSON. AMOUNT
//!   is a number of hands, or of games to 7 marks with a `g` after it (`2000g`).

use bones_agents::arena::{evaluate_with, Amount, EvalOptions};
use bones_agents::{Agent, AgentRng, AgentSpec, ObservingAgent, Policy as DecidePolicy, SpecError};
use bones_env::texas42::{PASS, SPLASH};
use bones_env::{Action, ActionMask, Episode, Game, RewardMode, Texas42, Texas42View, VecEnv};
use bones_policy::agent::PolicyAgent;
use bones_policy::folder;
use bones_policy::inference::{choose, Actor};
use bones_policy::model::Policy;
use bones_policy::sparse::SparseRows;
use burn::optim::{AdamConfig, GradientsParams};
use burn::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Bids played in lockstep.
const GAMES: usize = 1024;
/// Share of bids drawn from the policy rather than taken greedily.
const EXPLORE: f32 = 0.5;
/// Temperature of those draws.
const EXPLORE_TEMPERATURE: f32 = 2.0;

/// Every bid with a choice, and what its side made of the hand.
#[derive(Serialize, Deserialize)]
struct BidRows {
    /// The bidder's observations.
    obs: SparseRows,
    /// The bid made.
    action: Vec<u8>,
    /// Marks its side won minus marks it lost in the hand.
    award: Vec<f32>,
    /// The hand each row came from (held-out rows are whole hands).
    hand: Vec<u32>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).cloned().unwrap_or_else(|| panic!("usage: see the file's header"));
    match arg(0).as_str() {
        "gen" => generate(&arg(1), arg(2).parse().expect("HANDS"), arg(3).parse().expect("SEED"), &arg(4)),
        "fit" => fit(&arg(1), &arg(2), &arg(3), arg(4).parse().expect("EPOCHS")),
        "eval" => {
            let amount = match arg(3).strip_suffix('g') {
                Some(games) => Amount::Games(games.parse().expect("AMOUNT")),
                None => Amount::Hands(arg(3).parse().expect("AMOUNT")),
            };
            let opponent = args.get(6).cloned().unwrap_or_else(|| format!("model:{}", arg(1)));
            eval(&arg(1), &arg(2), amount, arg(4).parse().expect("SEED"), &arg(5), &opponent)
        }
        other => panic!("unknown step {other}: gen, fit or eval"),
    }
}

fn is_bid(a: usize) -> bool {
    (PASS..=SPLASH).contains(&a)
}

fn load(model: &str, device: &Device) -> Policy {
    let game = Texas42::default();
    let dir = bones_policy::agent::resolve(Path::new(model)).unwrap_or_else(|e| panic!("{e}"));
    folder::load_model(&dir, game.obs_len(), game.num_actions(), device).unwrap_or_else(|e| panic!("{e}"))
}

fn generate(model: &str, hands: u64, seed: u64, out: &str) {
    let game = Texas42::default().with_reward(RewardMode::Marks);
    let (ol, na) = (game.obs_len(), game.num_actions());
    let device = Device::flex();
    let actor = Actor::new(load(model, &device), &device);
    let mut envs = VecEnv::new(game, Episode::Hand, GAMES, seed, 2);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xB1D5);
    let mut rows = BidRows { obs: SparseRows::new(ol), action: Vec::new(), award: Vec::new(), hand: Vec::new() };
    // Bids of each game's hand in progress: (observation, seat, bid).
    type Open = (Vec<f32>, usize, usize);
    let mut open: Vec<Vec<Open>> = vec![Vec::new(); GAMES];
    let (mut done, start) = (0u64, std::time::Instant::now());
    let mut actions = vec![0usize; GAMES];
    while done < hands {
        let obs = SparseRows::from_dense(&envs.obs, ol);
        let (logits, _) = actor.forward(&obs);
        for env in 0..GAMES {
            let (l, m) = (&logits[env * na..(env + 1) * na], &envs.mask[env * na..(env + 1) * na]);
            let bids = (0..na).filter(|&a| m[a] > 0.5 && is_bid(a)).count();
            actions[env] = if bids > 1 && rng.random::<f32>() < EXPLORE {
                let cool: Vec<f32> = l.iter().map(|x| x / EXPLORE_TEMPERATURE).collect();
                choose(&cool, m, Some(&mut rng)).0
            } else {
                choose(l, m, None).0
            };
            if bids > 1 {
                let seen = envs.obs[env * ol..(env + 1) * ol].to_vec();
                open[env].push((seen, envs.seats[env] as usize, actions[env]));
            }
        }
        envs.step(&actions).expect("legal actions");
        for (env, bids) in open.iter_mut().enumerate() {
            if !envs.dones[env] {
                continue;
            }
            for (seen, seat, action) in bids.drain(..) {
                rows.obs.push_dense(&seen);
                rows.action.push(action as u8);
                rows.award.push(envs.rewards[env * 4 + seat]);
                rows.hand.push(done as u32);
            }
            done += 1;
        }
    }
    let bytes = bincode::serde::encode_to_vec(&rows, bincode::config::standard()).expect("rows encode");
    folder::write_atomic(Path::new(out), &bytes).expect("write the rows");
    let mean = rows.award.iter().map(|&x| x as f64).sum::<f64>() / rows.award.len() as f64;
    println!(
        "{} bids from {done} hands in {:.0} s; mean award {mean:.3}",
        rows.action.len(),
        start.elapsed().as_secs_f64()
    );
}

/// Squared error of the outputs at `actions` against `awards`, per row.
fn errors(net: &Policy, obs: Tensor<2>, actions: Tensor<2, Int>, awards: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
    let (q, _) = net.forward(obs);
    let taken = q.gather(1, actions);
    let diff = taken.clone() - awards;
    (diff.clone() * diff, taken)
}

fn batch(rows: &BidRows, idx: &[usize], device: &Device) -> (Tensor<2>, Tensor<2, Int>, Tensor<2>) {
    let ol = rows.obs.width();
    let obs = rows.obs.select(idx).to_dense();
    let actions: Vec<i64> = idx.iter().map(|&i| rows.action[i] as i64).collect();
    let awards: Vec<f32> = idx.iter().map(|&i| rows.award[i]).collect();
    (
        Tensor::<2>::from_data(TensorData::new(obs, [idx.len(), ol]), device),
        Tensor::<2, Int>::from_data(TensorData::new(actions, [idx.len(), 1]), device),
        Tensor::<2>::from_data(TensorData::new(awards, [idx.len(), 1]), device),
    )
}

fn fit(model: &str, data: &str, out: &str, epochs: usize) {
    let bytes = std::fs::read(data).expect("read the rows");
    let (rows, _): (BidRows, usize) =
        bincode::serde::decode_from_slice(&bytes, bincode::config::standard()).expect("decode the rows");
    let device = Device::flex().autodiff();
    let mut net = load(model, &device);
    let n = rows.action.len();
    let last_hand = *rows.hand.last().unwrap_or(&0);
    let held_from = (last_hand as f64 * 0.95) as u32;
    let (mut train, held): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| rows.hand[i] < held_from);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut optim = AdamConfig::new().with_epsilon(1e-5).init();
    let held_error = |net: &Policy| {
        let valid = net.valid();
        let (mut sum, mut preds) = (0f64, Vec::with_capacity(held.len()));
        for chunk in held.chunks(4096) {
            let (o, a, w) = batch(&rows, chunk, &Device::flex());
            let (e, q) = errors(&valid, o, a, w);
            sum += e.sum().into_scalar::<f32>() as f64;
            preds.extend(q.into_data().try_to_vec::<f32>().expect("f32"));
        }
        (sum / held.len() as f64, preds)
    };
    let mean = train.iter().map(|&i| rows.award[i] as f64).sum::<f64>() / train.len() as f64;
    let var = held.iter().map(|&i| (rows.award[i] as f64 - mean).powi(2)).sum::<f64>() / held.len() as f64;
    println!("{} training rows, {} held out; held-out error of the mean: {var:.4}", train.len(), held.len());
    for epoch in 0..epochs {
        train.shuffle(&mut rng);
        let lr = 1e-3 * (1.0 - epoch as f64 / epochs as f64).max(0.1);
        for chunk in train.chunks(1024) {
            let (o, a, w) = batch(&rows, chunk, &device);
            let (e, _) = errors(&net, o, a, w);
            let grads = GradientsParams::from_grads(e.mean().backward(), &net);
            net = optim.step(lr, net, grads);
        }
        println!("epoch {epoch}: held-out squared error {:.4}", held_error(&net).0);
    }
    let (_, preds) = held_error(&net);
    // Calibration: predicted vs realized marks, in bins of the prediction.
    let edges = [-9.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 9.0];
    println!("| predicted marks | bids | mean predicted | mean realized |");
    println!("|---|---:|---:|---:|");
    for w in edges.windows(2) {
        let inside: Vec<usize> =
            (0..held.len()).filter(|&k| preds[k] as f64 >= w[0] && (preds[k] as f64) < w[1]).collect();
        if inside.is_empty() {
            continue;
        }
        let p = inside.iter().map(|&k| preds[k] as f64).sum::<f64>() / inside.len() as f64;
        let r = inside.iter().map(|&k| rows.award[held[k]] as f64).sum::<f64>() / inside.len() as f64;
        println!("| [{}, {}) | {} | {p:+.3} | {r:+.3} |", w[0], w[1], inside.len());
    }
    std::fs::create_dir_all(out).expect("create QNET");
    net.valid().save_file(Path::new(out).join("model")).expect("save the network");
    let dir = bones_policy::agent::resolve(Path::new(model)).expect("model");
    std::fs::copy(dir.join("config.toml"), Path::new(out).join("config.toml")).expect("copy config.toml");
}

/// MODEL's policy with its bids priced by a bid-value network.
struct PricedBids {
    policy: PolicyAgent,
    values: Actor,
    ratio: f32,
    /// Temperature of the tilt (0: the values alone).
    tilt: f32,
}

impl DecidePolicy for PricedBids {
    fn decide(&mut self, obs: &[f32], legal: ActionMask, rng: &mut AgentRng) -> Action {
        let out = self.policy.evaluate(obs, legal, rng);
        let bids: Vec<(Action, f32)> = out.policy.iter().copied().filter(|&(a, _)| is_bid(a)).collect();
        if bids.len() < 2 {
            return out.action;
        }
        let top = bids.iter().map(|b| b.1).fold(0.0, f32::max);
        let (q, _) = self.values.forward(&SparseRows::from_dense(obs, obs.len()));
        bids.iter()
            .filter(|b| b.1 >= self.ratio * top)
            .map(|&(a, p)| (a, if self.tilt > 0.0 { p.ln() + q[a] / self.tilt } else { q[a] }))
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .map_or(out.action, |b| b.0)
    }

    fn logits(&mut self, obs: &[f32], rows: usize) -> Vec<f32> {
        self.policy.logits(obs, rows)
    }
}

fn eval(model: &str, qnet: &str, amount: Amount, seed: u64, ratio: &str, opponent: &str) {
    let game = Texas42::default();
    let (ol, na) = (game.obs_len(), game.num_actions());
    let (ratio, tilt) = ratio.split_once(':').unwrap_or((ratio, "0"));
    let (ratio, tilt): (f32, f32) = (ratio.parse().expect("RATIO"), tilt.parse().expect("RATIO's T"));
    let opponent: AgentSpec = opponent.parse().expect("OPPONENT: an agent spec");
    let factory = bones_policy::agent::factory();
    let make = |who: usize| -> Result<Box<dyn Agent<Texas42View>>, SpecError> {
        if who == 1 {
            return factory.build(&opponent, &game);
        }
        let policy = PolicyAgent::load(Path::new(model), "texas42", ol, na).expect("MODEL");
        let device = Device::flex();
        let priced = PricedBids { policy, values: Actor::new(load(qnet, &device), &device), ratio, tilt };
        Ok(Box::new(ObservingAgent::new(Box::new(priced), ol)))
    };
    let opts = EvalOptions { amount, seed, threads: 2 };
    let names = [format!("model:{model} bids by {qnet} ratio {ratio} tilt {tilt}"), opponent.to_string()];
    let report = evaluate_with(&game, names, &make, &opts, &|_| {}).expect("evaluation");
    println!("{}", report.to_json(seed));
}
