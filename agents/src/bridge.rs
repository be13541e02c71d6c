//! Outside Texas 42 engines as agents (`bridge:COMMAND`): a program that speaks
//! the line protocol of the bridge programs of github.com/jasonyandell/texas-42
//! (`walt_bridge`, `rob_bridge`; the mk5 arena seats them so), started once per
//! agent and kept alive across decisions, like `exec:` ([`crate::exec`]).
//!
//! The protocol is whitespace-separated integers, one line each way, one
//! decision per line (docs/benchmark.md has it in full):
//!
//! - request: `seat decl bidder h0 … h6 n a1 d1 … an dn`: the seat to play
//!   (0..3, turn order 0, 1, 2, 3, team `seat % 2`, as in Bones), the
//!   declaration (pip trump 0..6, 7 doubles, 9 follow-me), the seat that leads
//!   the first trick, the seven dominoes the seat was dealt, then the `n` plays
//!   of the hand so far in order, each the seat that played and the domino.
//!   Dominoes are numbered `high·(high+1)/2 + low`, `0-0` = 0 … `6-6` = 27, as
//!   Bones numbers them.
//! - reply: `domino leader points0 points1`: the domino played, then the
//!   program's own reading of the record (the leader of the trick in progress and
//!   each team's points so far), which must agree with Bones'.
//!
//! A request holds only what the seat knows: its own dominoes and the public
//! plays. The protocol has no bids, so the agent plays only under `dropped30`
//! (docs/rules.md), where the auction and the declaration are forced: a
//! decision with one legal action (a forced bid, the declaration, a forced
//! play) is taken without asking the program. A reply that is not four
//! integers, an illegal domino, a reading of the record that disagrees, no
//! reply in time and the program's exit are each an [`AgentFailure`] in one
//! line; after one the program is stopped and every later decision fails the
//! same way.

use crate::agent::{Agent, AgentFailure, AgentRng};
use crate::program::{quote, Program};
use crate::spec::SpecError;
use bones_env::texas42::{Phase, DOUBLES, FOLLOW_ME, NAMES_42, PLAY, TRUMP_BLANKS};
use bones_env::{Action, Domino, Texas42Rules, Texas42View};
use std::fmt::Write;

/// A running bridge program playing from its seat's views.
#[derive(Debug)]
pub struct BridgeAgent {
    program: Program,
    /// The failure that stopped the program (every later decision repeats it).
    failed: Option<AgentFailure>,
}

impl BridgeAgent {
    /// Starts `argv` (program and arguments) for the agent of `spec` under
    /// `rules`, with `limit_ms` milliseconds for each decision; refused unless
    /// the rules are `dropped30`.
    pub fn start(spec: String, argv: &[String], limit_ms: u64, rules: &Texas42Rules) -> Result<BridgeAgent, SpecError> {
        if !rules.dropped30 {
            return Err(SpecError::WrongRules {
                spec,
                reason:
                    "a bridge program plays only dropped-30 deals (`--rules dropped30`): its protocol has no bids, \
                         so it cannot bid or declare"
                        .to_string(),
            });
        }
        let program = Program::start("bridge", &spec, argv, limit_ms)?;
        Ok(BridgeAgent { program, failed: None })
    }

    /// Asks the program for the play of `v`'s seat.
    fn ask(&mut self, v: &Texas42View) -> Result<Action, AgentFailure> {
        let legal: Vec<&str> = v.legal.iter().map(|a| NAMES_42[a]).collect();
        let expected_reply = || {
            format!(
                "one line `domino leader points0 points1` (four integers) with the domino one of {}",
                legal.join(", ")
            )
        };
        let request = request(v).map_err(|what| AgentFailure {
            what,
            got: "nothing".to_string(),
            expected: "a play decision the protocol can send".to_string(),
        })?;
        let line = self.program.ask(&request, &expected_reply)?;
        let bad = |what: String| AgentFailure { what, got: quote(&line), expected: expected_reply() };
        let nums: Vec<u32> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| bad("the reply is not four integers".to_string()))?;
        let &[domino, leader, p0, p1] = nums.as_slice() else {
            return Err(bad(format!("the reply is {} integers, not four", nums.len())));
        };
        let action = (domino < 28).then(|| PLAY + domino as usize).filter(|&a| v.legal.contains(a));
        let Some(action) = action else {
            return Err(bad(format!("domino {domino} is not a legal play now")));
        };
        let ours = (v.tricks[v.trick.min(6) as usize].leader as u32, v.points[0] as u32, v.points[1] as u32);
        if (leader, p0, p1) != ours {
            return Err(bad(format!(
                "the program reads the record otherwise: it says the trick's leader is seat {leader} and the points \
                 {p0}-{p1}, Bones says seat {} and {}-{}",
                ours.0, ours.1, ours.2
            )));
        }
        Ok(action)
    }
}

/// The protocol's declaration number of a Bones declaration.
fn declaration_number(d: Action) -> Option<u32> {
    match d {
        _ if (TRUMP_BLANKS..TRUMP_BLANKS + 7).contains(&d) => Some((d - TRUMP_BLANKS) as u32),
        DOUBLES => Some(7),
        FOLLOW_ME => Some(9),
        _ => None,
    }
}

/// The request line of a play decision of `v`'s seat (see the module docs),
/// or why there is none.
pub fn request(v: &Texas42View) -> Result<String, String> {
    if v.phase != Phase::Playing {
        let what = if v.phase == Phase::Bidding { "a bid" } else { "a declaration" };
        return Err(format!(
            "a bridge program only plays dominoes, and it was asked {what} with {} legal choices (under `--rules \
             dropped30` the auction and the declaration are forced)",
            v.legal.len()
        ));
    }
    let (Some(d), Some(leader)) = (v.declaration, v.declarer) else {
        return Err("the hand is being played but has no declaration".to_string());
    };
    let decl = declaration_number(d)
        .ok_or_else(|| format!("the bridge protocol has no number for the declaration `{}`", NAMES_42[d]))?;
    let mut dealt = v.hand;
    let mut plays: Vec<(u8, Domino)> = Vec::with_capacity(28);
    for t in 0..=(v.trick as usize).min(6) {
        for (i, dom) in v.tricks[t].played().iter().enumerate() {
            let seat = v.seat_of_play(t, i);
            if seat == v.seat {
                dealt.insert(*dom);
            }
            plays.push((seat, *dom));
        }
    }
    let mut line = format!("{} {decl} {leader}", v.seat);
    for dom in dealt.iter() {
        let _ = write!(line, " {}", dom.index());
    }
    let _ = write!(line, " {}", plays.len());
    for (seat, dom) in plays {
        let _ = write!(line, " {seat} {}", dom.index());
    }
    Ok(line)
}

impl Agent<Texas42View> for BridgeAgent {
    /// [`Agent::try_act`]; a failure is never replaced by another action: it
    /// panics with the failure (drivers call [`crate::agent::act_contained`],
    /// which reports it).
    fn act(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Action {
        self.try_act(v, rng).unwrap_or_else(|f| panic!("the program failed: {f}"))
    }

    fn try_act(&mut self, v: &Texas42View, _rng: &mut AgentRng) -> Result<Action, AgentFailure> {
        if let Some(f) = &self.failed {
            return Err(f.clone());
        }
        if v.legal.len() == 1 {
            return Ok(v.legal.nth(0));
        }
        let out = self.ask(v);
        if let Err(f) = &out {
            self.failed = Some(f.clone());
            self.program.stop();
        }
        out
    }
}
