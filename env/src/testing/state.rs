//! The checks on one state ([`check_state`]) and on one transition
//! ([`check_transition`]), which the suite runs at every step of its random
//! episodes; a game's own tests may run them along trajectories of their own
//! (steered towards rare contracts, say).

use super::digest::state_bytes;
use super::report::{Check, SuiteConfig, SuiteFailure, SuiteReport};
use crate::action::ActionMask;
use crate::domino::DominoSet;
use crate::env::game_label;
use crate::game::{Action, DominoLedger, Game, GameState};
use crate::seed::mix64;
use crate::view::SeatView;

/// Action ids tried on every state beyond `0..64`.
const FAR_IDS: [Action; 6] = [64, 100, 255, 256, 1 << 20, usize::MAX];

/// A failure of `check` in `game` (its label is written only when one fails).
fn fail<G: Game, T>(game: &G, check: Check, message: String) -> Result<T, SuiteFailure> {
    Err(SuiteFailure::new(game_label(game), check, message))
}

macro_rules! ensure {
    ($game:expr, $cond:expr, $check:expr, $($msg:tt)+) => {
        if !$cond {
            return fail($game, $check, format!($($msg)+));
        }
    };
}

/// Checks one state of `game`: the legal mask against `apply` (every id of
/// `0..64` and a few far beyond; a refused one is an error naming it and the
/// mask, and leaves the state's bytes unchanged), the seat to act and the end,
/// the rewards (finite, zero for absent seats, zero-sum per side when
/// `config.zero_sum`), the finished deal, every seat's observation (fully
/// written, finite, and what its view observes; the view's seat and legal
/// actions), the dominoes (each in exactly one place, where the game says
/// where), and `config.resamples` resamples of what each seat cannot see (its
/// observation, and its mask when it is to act, unchanged; a seat whose hand
/// changed sees it). `seed` seeds the resamples. Counts what it checked in
/// `report`.
pub fn check_state<G: Game>(
    game: &G,
    st: &G::State,
    config: &SuiteConfig,
    seed: u64,
    report: &mut SuiteReport,
) -> Result<(), SuiteFailure> {
    report.states += 1;
    let players = game.num_players();
    let mask = st.legal_mask();
    let seat = st.current_seat();
    // Termination and seats.
    if game.num_actions() < 64 {
        ensure!(
            game,
            mask.0 >> game.num_actions() == 0,
            Check::LegalMask,
            "the mask {mask:?} holds ids past the {} actions",
            game.num_actions()
        );
    }
    ensure!(
        game,
        st.is_terminal() == mask.is_empty() && st.is_terminal() == seat.is_none(),
        Check::Termination,
        "terminal {}, mask {mask:?}, seat to act {seat:?}: a state is terminal exactly when no one acts",
        st.is_terminal()
    );
    ensure!(game, seat.is_none_or(|s| s < players), Check::Termination, "seat {seat:?} acts in a game of {players}");
    if st.is_terminal() {
        ensure!(game, st.finished_deal().is_some(), Check::Termination, "a terminal state has no finished deal");
    }
    if let Some(d) = st.finished_deal() {
        let sides = game.num_sides();
        ensure!(
            game,
            d.win.iter().all(|w| (0.0..=1.0).contains(w)) && d.win.iter().sum::<f64>() <= 1.0 + 1e-9,
            Check::Termination,
            "the finished deal's win shares {:?} are not shares of one win",
            d.win
        );
        ensure!(
            game,
            d.score[sides..].iter().chain(&d.win[sides..]).all(|&x| x == 0.0),
            Check::Termination,
            "the finished deal scores sides past the {sides}: {d:?}"
        );
    }
    // The mask is exactly what apply accepts.
    let bytes = state_bytes(st);
    for a in (0..64).chain(FAR_IDS) {
        let mut c = st.clone();
        match c.apply(a) {
            Ok(()) => {
                ensure!(
                    game,
                    mask.contains(a),
                    Check::LegalMask,
                    "id {a} is not in the mask {mask:?} but apply took it"
                )
            }
            Err(e) => {
                ensure!(
                    game,
                    !mask.contains(a),
                    Check::LegalMask,
                    "id {a} is in the mask {mask:?} but apply refused it: {e}"
                );
                ensure!(
                    game,
                    e.action == a && e.legal == mask,
                    Check::LegalMask,
                    "refusing id {a} reported id {} and legal {:?}, not the mask {mask:?}",
                    e.action,
                    e.legal
                );
                ensure!(game, state_bytes(&c) == bytes, Check::LegalMask, "refusing id {a} changed the state");
            }
        }
    }
    // Rewards.
    let r = st.rewards();
    ensure!(game, r.iter().all(|x| x.is_finite()), Check::ZeroSum, "rewards {r:?} are not finite");
    ensure!(game, r[players.min(4)..].iter().all(|&x| x == 0.0), Check::ZeroSum, "absent seats are rewarded: {r:?}");
    if config.zero_sum {
        let mut side_reward = [None::<f32>; 4];
        for (s, &x) in r.iter().enumerate().take(players) {
            let side = game.team_of(s);
            ensure!(
                game,
                side < game.num_sides(),
                Check::ZeroSum,
                "seat {s} plays for side {side} of {}",
                game.num_sides()
            );
            match side_reward[side] {
                None => side_reward[side] = Some(x),
                Some(y) => ensure!(game, y == x, Check::ZeroSum, "seats of side {side} get different rewards: {r:?}"),
            }
        }
        let sum: f32 = side_reward.iter().flatten().sum();
        let size: f32 = side_reward.iter().flatten().map(|x| x.abs()).sum();
        let balanced = sum.abs() <= 8.0 * f32::EPSILON * size;
        ensure!(
            game,
            balanced,
            Check::ZeroSum,
            "the sides' rewards {side_reward:?} add up to {sum}, not zero (rewards {r:?})"
        );
    }
    // Every seat's observation, from the state and from its view.
    let len = game.obs_len();
    let (mut a, mut b) = (vec![f32::NAN; len], vec![f32::NAN; len]);
    for s in 0..players {
        a.fill(f32::NAN);
        st.observe(s, &mut a);
        ensure!(
            game,
            a.iter().all(|x| x.is_finite()),
            Check::ViewObservation,
            "seat {s}'s observation is not all written"
        );
        let view = st.view(s);
        ensure!(game, view.seat() == s, Check::ViewObservation, "the view of seat {s} says seat {}", view.seat());
        let legal = if seat == Some(s) { mask } else { ActionMask::EMPTY };
        ensure!(
            game,
            view.legal() == legal,
            Check::ViewObservation,
            "seat {s}'s view has legal actions {:?}, not {legal:?}",
            view.legal()
        );
        b.fill(f32::NAN);
        view.observe(&mut b);
        same_observation(game, &a, &b, Check::ViewObservation, format_args!("seat {s}'s view observes "))?;
    }
    // The dominoes.
    if let Some(ledger) = st.dominoes() {
        report.ledgers += 1;
        check_ledger(&ledger, players).or_else(|m| fail(game, Check::Dominoes, m))?;
        ensure!(
            game,
            ledger.hands == st.seat_hands(),
            Check::Dominoes,
            "the ledger's hands {:?} are not the seat hands {:?}",
            ledger.hands,
            st.seat_hands()
        );
    }
    // What each seat cannot see.
    let hands = st.seat_hands();
    for s in 0..players {
        for k in 0..config.resamples {
            let Some(alt) = st.resample_hidden(s, mix64(seed ^ ((s as u64) << 32) ^ k as u64)) else { continue };
            report.resamples += 1;
            let alt_hands = alt.seat_hands();
            let what = format!("a resample of what seat {s} cannot see (hands {hands:?} -> {alt_hands:?})");
            ensure!(game, alt_hands[s] == hands[s], Check::HiddenInformation, "{what} changed seat {s}'s own hand");
            ensure!(
                game,
                alt.current_seat() == seat && alt.is_terminal() == st.is_terminal(),
                Check::HiddenInformation,
                "{what} changed the seat to act or the end"
            );
            if seat == Some(s) {
                ensure!(
                    game,
                    alt.legal_mask() == mask,
                    Check::HiddenInformation,
                    "{what} changed the acting seat's legal actions {mask:?} -> {:?}",
                    alt.legal_mask()
                );
            }
            st.observe(s, &mut a);
            alt.observe(s, &mut b);
            same_observation(game, &a, &b, Check::HiddenInformation, format_args!("{what} changed its observation: "))?;
            alt.view(s).observe(&mut b);
            ensure!(
                game,
                same_bits(&a, &b),
                Check::HiddenInformation,
                "{what}: the resampled view observes differently"
            );
            let boneyard_changed = match (st.dominoes(), alt.dominoes()) {
                (Some(l), Some(m)) => {
                    check_ledger(&m, players)
                        .or_else(|e| fail(game, Check::HiddenInformation, format!("{what}: {e}")))?;
                    ensure!(
                        game,
                        l.played == m.played && l.set == m.set,
                        Check::HiddenInformation,
                        "{what} changed the dominoes played"
                    );
                    l.boneyard != m.boneyard
                }
                _ => false,
            };
            if alt_hands != hands || boneyard_changed {
                report.resamples_changed += 1;
            }
            // Not vacuous: a seat whose hand changed sees its own hand change.
            for o in (0..players).filter(|&o| alt_hands[o] != hands[o]) {
                st.observe(o, &mut a);
                alt.observe(o, &mut b);
                ensure!(
                    game,
                    !same_bits(&a, &b),
                    Check::HiddenInformation,
                    "{what}: seat {o} does not see its own hand"
                );
            }
            if let Some(x) = alt.legal_mask().iter().next() {
                let mut next = alt.clone();
                ensure!(game, next.apply(x).is_ok(), Check::HiddenInformation, "{what} does not play on");
            }
        }
    }
    Ok(())
}

/// Each domino of the ledger's set in exactly one place; no hand of an absent seat.
fn check_ledger(l: &DominoLedger, players: usize) -> Result<(), String> {
    let mut seen = l.played;
    let mut count = l.played.len() + l.boneyard.len();
    for (s, &h) in l.hands.iter().enumerate() {
        if s >= players && !h.is_empty() {
            return Err(format!("absent seat {s} holds {h:?}"));
        }
        if !(seen & h).is_empty() {
            return Err(format!("{:?} of seat {s}'s hand are also elsewhere", seen & h));
        }
        seen |= h;
        count += h.len();
    }
    for d in &l.boneyard {
        if seen.contains(*d) {
            return Err(format!("boneyard domino {d} is also elsewhere (or twice in the boneyard)"));
        }
        seen.insert(*d);
    }
    if seen != l.set || count != l.set.len() {
        return Err(format!("hands, table and boneyard hold {seen:?} ({count} dominoes), not the deal's {:?}", l.set));
    }
    Ok(())
}

/// Checks one transition of `game` (`before` --`action`--> `after`, which
/// `apply` accepted): where both states account for their dominoes and the
/// action did not end the deal, the deal's dominoes stay the same, the
/// played ones stay played, only the seat that acted changed its hand
/// (losing what it played, gaining what it drew from the front of the
/// boneyard).
pub fn check_transition<G: Game>(
    game: &G,
    before: &G::State,
    action: Action,
    after: &G::State,
) -> Result<(), SuiteFailure> {
    let (Some(l), Some(m)) = (before.dominoes(), after.dominoes()) else { return Ok(()) };
    if after.finished_deal().is_some() && !after.is_terminal() {
        return Ok(()); // a new deal was dealt
    }
    let mover = before.current_seat().expect("an action was applied");
    let name = game.action_name(action);
    ensure!(game, m.set == l.set, Check::Dominoes, "`{name}` changed the deal's dominoes {:?} -> {:?}", l.set, m.set);
    ensure!(game, m.played & l.played == l.played, Check::Dominoes, "`{name}` took back played dominoes");
    let newly = m.played - l.played;
    ensure!(
        game,
        newly & l.hands[mover] == newly,
        Check::Dominoes,
        "`{name}` put {newly:?} on the table, not from seat {mover}'s hand {:?}",
        l.hands[mover]
    );
    for s in 0..4 {
        if s != mover {
            ensure!(
                game,
                m.hands[s] == l.hands[s],
                Check::Dominoes,
                "`{name}` by seat {mover} changed seat {s}'s hand"
            );
        }
    }
    let drawn = l.boneyard.len() - m.boneyard.len().min(l.boneyard.len());
    ensure!(
        game,
        m.boneyard.len() <= l.boneyard.len() && l.boneyard[drawn..] == m.boneyard[..],
        Check::Dominoes,
        "`{name}` changed the boneyard other than by drawing from its front"
    );
    let gained = m.hands[mover] - l.hands[mover];
    let from_boneyard: DominoSet = l.boneyard[..drawn].iter().copied().collect();
    ensure!(
        game,
        gained == from_boneyard && l.hands[mover] - m.hands[mover] == newly,
        Check::Dominoes,
        "`{name}`: seat {mover} gained {gained:?} (drew {from_boneyard:?}) and lost {:?} (played {newly:?})",
        l.hands[mover] - m.hands[mover]
    );
    Ok(())
}

/// Fails with `check` where the observations `a` and `b` differ, the message
/// `before` then the first segment that differs.
fn same_observation<G: Game>(
    game: &G,
    a: &[f32],
    b: &[f32],
    check: Check,
    before: std::fmt::Arguments,
) -> Result<(), SuiteFailure> {
    ensure!(game, same_bits(a, b), check, "{before}{}", first_difference(game, a, b));
    Ok(())
}

pub(super) fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// The first segment where two observations differ, named.
pub(super) fn first_difference<G: Game>(game: &G, a: &[f32], b: &[f32]) -> String {
    let mut off = 0;
    for seg in game.obs_segments() {
        let (x, y) = (&a[off..off + seg.len], &b[off..off + seg.len]);
        if !same_bits(x, y) {
            let i = (0..seg.len).find(|&i| x[i].to_bits() != y[i].to_bits()).unwrap_or(0);
            return format!("segment `{}` differs first at its float {i} ({} vs {})", seg.name, x[i], y[i]);
        }
        off += seg.len;
    }
    "the same".to_string()
}
