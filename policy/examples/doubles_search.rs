//! A search for Doubles (issue 27, item 4: "a search for Doubles if it pays"):
//! `pimc`'s worlds and objective (see `bones_agents::pimc::doubles`), with the
//! network's most probable action, every seat from its own view, playing each
//! world out in place of the heuristic. Every (world, action) play-out of a
//! decision runs in lockstep, one batched forward pass per step.
//!
//! ```text
//! cargo run --release -p bones-policy --example doubles_search -- WORLDS GAMES SEED [MODEL [others]]
//! ```
//! With `others` after MODEL, only the searching seat's own later play is the
//! network's; the heuristic plays the other seats out (the seats it faces).
//! Plays GAMES games of Doubles, this search as one seat and `heuristic` in the
//! other three, on duplicate deals from SEED (as `bones eval --game doubles
//! --agents SEARCH,heuristic` does), and prints the arena's report as JSON.
//! MODEL defaults to `models/doubles`.

use std::path::Path;

use bones_agents::arena::{evaluate_with, Amount, EvalOptions};
use bones_agents::heuristic::doubles::DoublesHeuristic;
use bones_agents::pimc::doubles::DoublesSampler;
use bones_agents::{Agent, AgentRng, AgentSpec, Policy, SpecError};
use bones_env::doubles::Round;
use bones_env::{Action, Doubles, DoublesView, Game, SeatView};
use bones_policy::agent::PolicyAgent;

/// `pimc` for Doubles with the network playing the worlds out.
struct NetworkPimc {
    worlds: u32,
    policy: PolicyAgent,
    obs_len: usize,
    num_actions: usize,
    /// The heuristic plays the other seats out (else the network plays every seat).
    others: Option<DoublesHeuristic>,
}

impl NetworkPimc {
    /// Plays every round of `rounds` to its end, the network's most probable
    /// action at every seat from that seat's view (a forced action without
    /// asking it).
    fn play_out(&mut self, rounds: &mut [Round], v: &DoublesView, rng: &mut AgentRng) {
        let (ol, na) = (self.obs_len, self.num_actions);
        let mut obs = Vec::new();
        loop {
            let mut asked: Vec<(usize, DoublesView)> = Vec::new();
            for (i, r) in rounds.iter_mut().enumerate() {
                if r.is_done() {
                    continue;
                }
                let view = DoublesView::from_round(r, r.to_move, v.rules);
                if view.legal.len() == 1 {
                    r.apply(view.legal.nth(0)).expect("a forced action is legal");
                } else if let Some(h) = self.others.as_mut().filter(|_| r.to_move != v.seat) {
                    r.apply(h.act(&view, rng)).expect("the heuristic plays legal actions");
                } else {
                    asked.push((i, view));
                }
            }
            if asked.is_empty() {
                if rounds.iter().all(|r| r.is_done()) {
                    return;
                }
                continue;
            }
            obs.clear();
            obs.resize(asked.len() * ol, 0.0);
            for (k, (_, view)) in asked.iter().enumerate() {
                view.observe(&mut obs[k * ol..(k + 1) * ol]);
            }
            let logits = self.policy.logits(&obs, asked.len());
            for (k, (i, view)) in asked.iter().enumerate() {
                let l = &logits[k * na..(k + 1) * na];
                let best = view.legal.iter().max_by(|&a, &b| l[a].total_cmp(&l[b]).then(b.cmp(&a)));
                rounds[*i].apply(best.expect("a legal action")).expect("the network's choice is legal");
            }
        }
    }
}

impl Agent<DoublesView> for NetworkPimc {
    fn act(&mut self, v: &DoublesView, rng: &mut AgentRng) -> Action {
        if v.legal.len() == 1 {
            return v.legal.nth(0);
        }
        let worlds = DoublesSampler::new(v).worlds(v, self.worlds, rng);
        let legal: Vec<Action> = v.legal.iter().collect();
        let mut rounds: Vec<Round> = Vec::with_capacity(worlds.len() * legal.len());
        for w in &worlds {
            for &a in &legal {
                let mut r = *w;
                r.apply(a).expect("an action legal in the view is legal in its worlds");
                rounds.push(r);
            }
        }
        self.play_out(&mut rounds, v, rng);
        let seat = v.seat as usize;
        let mut totals = vec![0i64; legal.len()];
        for (k, r) in rounds.iter().enumerate() {
            let sum: i64 = r.scores.iter().map(|&s| s as i64).sum();
            totals[k % legal.len()] += r.players as i64 * r.scores[seat] as i64 - sum;
        }
        // The highest total; ties go to the lowest action id.
        let best = (0..legal.len()).max_by(|&x, &y| totals[x].cmp(&totals[y]).then(y.cmp(&x)));
        legal[best.expect("a legal action")]
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).cloned().unwrap_or_else(|| panic!("usage: WORLDS GAMES SEED [MODEL]"));
    let (worlds, games, seed): (u32, u64, u64) =
        (arg(0).parse().expect("WORLDS"), arg(1).parse().expect("GAMES"), arg(2).parse().expect("SEED"));
    let model = args.get(3).cloned().unwrap_or_else(|| "models/doubles".to_string());
    let game = Doubles::default();
    let (obs_len, num_actions) = (game.obs_len(), game.num_actions());
    let heuristic: AgentSpec = "heuristic".parse().expect("a spec");
    let factory = bones_policy::agent::factory();
    let make = |who: usize| -> Result<Box<dyn Agent<DoublesView>>, SpecError> {
        if who == 1 {
            return factory.build(&heuristic, &game);
        }
        let policy = PolicyAgent::load(Path::new(&model), "doubles", obs_len, num_actions).expect("MODEL");
        let others = (args.get(4).map(String::as_str) == Some("others")).then(DoublesHeuristic::default);
        Ok(Box::new(NetworkPimc { worlds, policy, obs_len, num_actions, others }))
    };
    let opts = EvalOptions { amount: Amount::Games(games), seed, threads: 2 };
    let who = if args.get(4).is_some() { "its own seat" } else { "every seat" };
    let names = [format!("pimc with {model} playing {who} out, {worlds} worlds"), "heuristic".to_string()];
    let start = std::time::Instant::now();
    let report = evaluate_with(&game, names, &make, &opts, &|_| {}).expect("evaluation");
    println!("{}", report.to_json(seed));
    eprintln!("{} players, {:.0} s", game.num_players(), start.elapsed().as_secs_f64());
}
