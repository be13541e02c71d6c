//! Shards: the deals `start..end` of an evaluation kept deal by deal, and
//! their merge into the report of the whole evaluation.

use std::ops::Range;

use super::error::MergeError;
use super::eval_report::EvalReport;
use super::options::{deal_count, Amount};
use super::summary::{summarise, DealResult};
use bones_env::Game;
use serde::{Deserialize, Serialize};

/// The deals `start..end` of an evaluation, played and kept deal by deal so that
/// shards can be merged into the report of the whole evaluation
/// ([`merge_shards`]). Serialisable: a shard travels as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shard {
    /// The game's name.
    pub game: String,
    /// The two spec strings, A then B.
    pub agents: [String; 2],
    /// Players at the table.
    pub players: usize,
    /// Sides competing for a win.
    pub sides: usize,
    /// The whole evaluation's amount (not this shard's).
    pub amount: Amount,
    /// Base seed of the deals.
    pub seed: u64,
    /// Index of the first deal.
    pub start: u64,
    /// The results of deals `start..start + deals.len()`, in deal order.
    pub deals: Vec<DealResult>,
}

impl Shard {
    /// One past the index of the last deal.
    pub fn end(&self) -> u64 {
        self.start + self.deals.len() as u64
    }
}

/// Splits the deals of an evaluation into `shards` contiguous ranges of sizes
/// that differ by at most one (empty ranges when there are fewer deals).
pub fn shard_ranges(deals: u64, shards: u64) -> Vec<Range<u64>> {
    let shards = shards.max(1);
    (0..shards).map(|k| deals * k / shards..deals * (k + 1) / shards).collect()
}

/// Joins shards of one evaluation of `game` (in any order) into its report: the
/// same [`EvalReport`] as [`evaluate`] with the same seed and amount, to the bit
/// (only `agent_seconds`, wall-clock time, differs from run to run). The shards
/// must cover deals `0..`[`deal_count`] exactly once; empty shards are allowed.
pub fn merge_shards<G: Game>(game: &G, shards: &[Shard]) -> Result<EvalReport, MergeError> {
    let first = shards.first().ok_or(MergeError::NoShards)?;
    let mismatch =
        |field: &'static str, expected: String, found: String| Err(MergeError::Mismatch { field, expected, found });
    let expect = [
        ("game", game.name().to_string()),
        ("players", game.num_players().to_string()),
        ("sides", game.num_sides().to_string()),
        ("agents", format!("{:?}", first.agents)),
        ("amount", format!("{:?}", first.amount)),
        ("seed", first.seed.to_string()),
    ];
    for s in shards {
        let found = [
            s.game.clone(),
            s.players.to_string(),
            s.sides.to_string(),
            format!("{:?}", s.agents),
            format!("{:?}", s.amount),
            s.seed.to_string(),
        ];
        for ((field, expected), found) in expect.iter().zip(found) {
            if *expected != found {
                return mismatch(field, expected.clone(), found);
            }
        }
    }
    let deals = deal_count(first.amount, game.num_sides())
        .map_err(|e| MergeError::Coverage { deals: 0, detail: e.to_string() })?;
    let mut order: Vec<&Shard> = shards.iter().filter(|s| !s.deals.is_empty()).collect();
    order.sort_by_key(|s| s.start);
    let mut next = 0;
    let mut all = Vec::with_capacity(deals as usize);
    for s in order {
        if s.start != next {
            let detail = if s.start > next {
                format!("deals {next}..{} are missing", s.start)
            } else {
                format!("deals {}..{} are in two shards", s.start, next.min(s.end()))
            };
            return Err(MergeError::Coverage { deals, detail });
        }
        all.extend_from_slice(&s.deals);
        next = s.end();
    }
    if next != deals {
        let detail = if next < deals {
            format!("deals {next}..{deals} are missing")
        } else {
            format!("deals {deals}..{next} are past the end")
        };
        return Err(MergeError::Coverage { deals, detail });
    }
    Ok(summarise(game.name(), first.agents.clone(), game.num_players(), game.num_sides(), first.amount, &all))
}
