//! An environment as plain text, for any game: the table shown by the Python
//! package's `render_mode="ansi"` (`bones._bones.Table.render`).
//!
//! ```text
//! texas42 (4 players), step 3
//! player_0 (side 0): 6-1 6-0 5-2 3-3 3-1 2-2 1-1 <- to move
//! player_1 (side 1): 6-3 5-5 5-3 4-3 4-2 4-0 3-2
//! player_2 (side 0): 6-6 6-2 5-4 5-0 4-4 4-1 1-0
//! player_3 (side 1): 6-5 6-4 5-1 3-0 2-1 2-0 0-0
//! actions: 1:pass 2:pass 3:pass
//! player_0 to move; legal: 30 31 32 33 34 35 36 37 38 39 40 41 1m 2m
//! ```

use std::fmt::Write;

use crate::{Action, Env, Game, GameState};

/// The most actions of the episode shown (the last ones).
const SHOWN_ACTIONS: usize = 40;

/// `env` as text: the game, the step count, every seat's dominoes (the seat to
/// move marked), `log` (this episode's `(seat, action)` pairs, the last 40),
/// then the seat to move and its legal actions or, once the episode is over,
/// each seat's reward.
pub fn render<G: Game>(env: &Env<G>, log: &[(usize, Action)]) -> String {
    let game = env.game();
    let state = env.state();
    let t = env.last();
    let mut s = String::new();
    let _ = writeln!(s, "{} ({} players), step {}", game.name(), game.num_players(), t.steps);
    let hands = state.seat_hands();
    for (seat, hand) in hands.iter().enumerate().take(game.num_players()) {
        let mut dominoes: Vec<String> = hand.iter().map(|d| d.to_string()).collect();
        dominoes.reverse();
        let mark = if t.seat == Some(seat) { " <- to move" } else { "" };
        let _ = writeln!(s, "player_{seat} (side {}): {}{mark}", game.team_of(seat), dominoes.join(" "));
    }
    if !log.is_empty() {
        let hidden = log.len().saturating_sub(SHOWN_ACTIONS);
        let _ = write!(
            s,
            "actions{}:",
            if hidden > 0 { format!(" (last {} of {})", log.len() - hidden, log.len()) } else { String::new() }
        );
        for &(seat, a) in &log[hidden..] {
            let _ = write!(s, " {seat}:{}", game.action_name(a));
        }
        s.push('\n');
    }
    if let Some(seat) = t.seat {
        let legal: Vec<&str> = state.legal_mask().iter().map(|a| game.action_name(a)).collect();
        let _ = writeln!(s, "player_{seat} to move; legal: {}", legal.join(" "));
    } else {
        let r: Vec<String> = t.rewards[..game.num_players()].iter().map(|r| format!("{r:+.3}")).collect();
        let end = if t.truncated { "truncated" } else { "over" };
        let _ = writeln!(s, "episode {end}; rewards: {}", r.join(" "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Episode, Texas42, Texas42Rules};

    /// Deals seed 7 and plays the first legal action `steps` times (or to the
    /// end), logging each.
    fn played(episode: Episode, steps: usize) -> (Env<Texas42>, Vec<(usize, Action)>) {
        let mut env = Env::new(Texas42::new(Texas42Rules::STANDARD), episode);
        env.reset(7);
        let mut log = Vec::new();
        for _ in 0..steps {
            let Some(seat) = env.last().seat else { break };
            let a = env.state().legal_mask().iter().next().expect("a seat to move has a legal action");
            env.step(a).expect("a legal action");
            log.push((seat, a));
        }
        (env, log)
    }

    #[test]
    fn a_hand_in_play_shows_every_seat_the_actions_and_the_legal_bids() {
        let (env, log) = played(Episode::Hand, 3);
        assert_eq!(
            render(&env, &log),
            "texas42 (4 players), step 3\n\
             player_0 (side 0): 6-1 6-0 5-2 3-3 3-1 2-2 1-1 <- to move\n\
             player_1 (side 1): 6-3 5-5 5-3 4-3 4-2 4-0 3-2\n\
             player_2 (side 0): 6-6 6-2 5-4 5-0 4-4 4-1 1-0\n\
             player_3 (side 1): 6-5 6-4 5-1 3-0 2-1 2-0 0-0\n\
             actions: 1:pass 2:pass 3:pass\n\
             player_0 to move; legal: 30 31 32 33 34 35 36 37 38 39 40 41 1m 2m\n"
        );
    }

    #[test]
    fn a_fresh_deal_shows_no_actions_line() {
        let (env, log) = played(Episode::Hand, 0);
        let text = render(&env, &log);
        assert!(text.starts_with("texas42 (4 players), step 0\n"), "{text}");
        assert!(!text.contains("actions"), "{text}");
        assert!(text.ends_with("player_1 to move; legal: pass 30 31 32 33 34 35 36 37 38 39 40 41 1m 2m\n"), "{text}");
    }

    #[test]
    fn a_finished_hand_shows_each_seats_reward() {
        let (env, log) = played(Episode::Hand, 200);
        let text = render(&env, &log);
        assert!(text.starts_with("texas42 (4 players), step 29\n"), "{text}");
        assert!(text.ends_with("episode over; rewards: +1.000 -1.000 +1.000 -1.000\n"), "{text}");
    }

    #[test]
    fn a_long_episode_shows_only_its_last_forty_actions() {
        let (env, log) = played(Episode::Game, 50);
        assert_eq!(log.len(), 50);
        let text = render(&env, &log);
        let line = text.lines().find(|l| l.starts_with("actions")).expect("an actions line");
        assert!(line.starts_with("actions (last 40 of 50): "), "{line}");
        assert_eq!(line.split(' ').count(), 5 + 40, "{line}");
    }
}
