//! `bones_agents::resample`: for random positions of both games, every seat's
//! resampled state shows that seat the same view and observation, keeps its
//! hand, and plays on legally to the end; draws are deterministic per seed;
//! bad seats and finished episodes are errors; and the draws are uniform
//! (chi-square at a fixed seed; the number of distinct worlds equals the
//! sampler's count).
//!
//! ```text
//! cargo test -p bones-agents --release --test main -- resample:: --nocapture
//! ```

use bones_agents::AgentGame;
use std::collections::HashMap;
use std::hash::Hash;

use bones_agents::pimc::doubles::DoublesSampler;
use bones_agents::pimc::WorldSampler;
use bones_agents::resample;
use bones_agents::resample::{resample_doubles, resample_texas42, ResampleError};
use bones_agents::{AgentRng, ViewOf};
use bones_env::rules::{BlockedTie, DoublesRules};
use bones_env::{Action, DominoSet, Doubles, DoublesState, Episode, Game, GameState, Texas42, Texas42Rules};
use rand::{Rng, SeedableRng};

use crate::uniform::{check_some, chi2_p, chi_square};

fn random_action<S: GameState>(s: &S, rng: &mut AgentRng) -> Action {
    let legal = s.legal_mask();
    legal.nth(rng.random_range(0..legal.len()))
}

/// Checks one resampled state against the original for `seat`: the same view
/// and observation, the same own hand, the same seat to move and public
/// counts; then plays it to the end with random legal actions.
fn check<G: AgentGame>(game: &G, state: &G::State, seat: usize, rng: &mut AgentRng) -> G::State
where
    ViewOf<G>: PartialEq + std::fmt::Debug,
{
    let mut draw = AgentRng::seed_from_u64(rng.random());
    let alt = resample(game, state, seat, &mut draw).unwrap_or_else(|e| panic!("seat {seat}: {e}"));
    assert_eq!(alt.view(seat), state.view(seat), "seat {seat}'s view");
    let (mut a, mut b) = (vec![0.0f32; game.obs_len()], vec![0.0f32; game.obs_len()]);
    for s in 0..game.num_players() {
        state.observe(s, &mut a);
        alt.observe(s, &mut b);
        if s == seat {
            assert_eq!(a, b, "seat {seat}'s observation");
        }
    }
    assert_eq!(alt.seat_hands()[seat], state.seat_hands()[seat], "seat {seat}'s hand");
    for s in 0..game.num_players() {
        assert_eq!(alt.seat_hands()[s].len(), state.seat_hands()[s].len(), "seat {s}'s hand size");
    }
    assert_eq!(alt.current_seat(), state.current_seat());
    // Deterministic for a seed.
    let mut same = AgentRng::seed_from_u64(0);
    let x = resample(game, state, seat, &mut same).unwrap();
    let mut same = AgentRng::seed_from_u64(0);
    let y = resample(game, state, seat, &mut same).unwrap();
    assert_eq!(x.seat_hands(), y.seat_hands(), "one seed, one world");
    // It plays on legally to the end.
    let mut play = alt.clone();
    let mut steps = 0;
    while !play.is_terminal() {
        let a = random_action(&play, rng);
        play.apply(a).expect("a legal action applies");
        steps += 1;
        assert!(steps < 2000, "the resampled state ends");
    }
    alt
}

#[test]
fn texas42_resampled_states_agree_with_every_seat_view_and_play_on() {
    let mut rng = AgentRng::seed_from_u64(42);
    let mut checked = 0;
    for (i, rules) in [Texas42Rules::STANDARD, Texas42Rules::FULL].into_iter().enumerate() {
        let game = Texas42::new(rules);
        for k in 0..12u64 {
            let episode = if k % 3 == 0 { Episode::Game } else { Episode::Hand };
            let mut st = game.new_state(1000 * i as u64 + k, episode);
            let mut steps = 0;
            while !st.is_terminal() && steps < 120 {
                if rng.random_bool(0.3) {
                    let seat = rng.random_range(0..4);
                    let alt = check(&game, &st, seat, &mut rng);
                    // Whole games keep their totals and hands played.
                    assert_eq!(alt.totals(), st.totals());
                    assert_eq!(alt.hands_played(), st.hands_played());
                    checked += 1;
                }
                let a = random_action(&st, &mut rng);
                st.apply(a).unwrap();
                steps += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

fn doubles(players: u8) -> Doubles {
    Doubles::new(DoublesRules {
        players,
        blocked_tie: if players == 3 { BlockedTie::Split } else { BlockedTie::None },
        target: 100,
    })
}

#[test]
fn doubles_resampled_states_agree_with_every_seat_view_and_play_on() {
    let mut rng = AgentRng::seed_from_u64(7);
    let (mut checked, mut before_opening, mut other_drew) = (0, 0, 0);
    for players in 2..=4u8 {
        let game = doubles(players);
        for k in 0..25u64 {
            let episode = if k % 5 == 0 { Episode::Game } else { Episode::Hand };
            let mut st: DoublesState = game.new_state(77 * players as u64 + k, episode);
            let mut steps = 0;
            while !st.is_terminal() && steps < 300 {
                let mover = st.current_seat().unwrap();
                let pre = !st.round().board.is_open();
                let drew = st.round().drawn.is_some();
                if pre || drew || rng.random_bool(0.3) {
                    for seat in 0..players as usize {
                        let alt = check(&game, &st, seat, &mut rng);
                        assert_eq!(alt.totals(), st.totals());
                        checked += 1;
                        before_opening += usize::from(pre && seat != mover);
                        other_drew += usize::from(drew && seat != mover);
                    }
                }
                let a = random_action(&st, &mut rng);
                st.apply(a).unwrap();
                steps += 1;
            }
        }
    }
    eprintln!("doubles: {checked} checked, {before_opening} before the opening, {other_drew} after another's draw");
    assert!(checked > 300 && before_opening > 20 && other_drew > 20, "{checked} {before_opening} {other_drew}");
}

#[test]
fn bad_seats_and_finished_episodes_are_errors() {
    let mut rng = AgentRng::seed_from_u64(1);
    let game = Texas42::new(Texas42Rules::STANDARD);
    let mut st = game.new_state(3, Episode::Hand);
    assert_eq!(resample(&game, &st, 4, &mut rng).unwrap_err(), ResampleError::Seat { seat: 4, players: 4 });
    assert_eq!(resample_texas42(&st, 9, &mut rng).unwrap_err(), ResampleError::Seat { seat: 9, players: 4 });
    while !st.is_terminal() {
        let a = random_action(&st, &mut rng);
        st.apply(a).unwrap();
    }
    let e = resample(&game, &st, 0, &mut rng).unwrap_err();
    assert_eq!(e, ResampleError::Over);
    assert!(e.to_string().contains("over"), "{e}");

    let game = doubles(3);
    let mut st = game.new_state(3, Episode::Hand);
    let e = resample(&game, &st, 3, &mut rng).unwrap_err();
    assert_eq!(e.to_string(), "no seat 3: seats run 0..3");
    while !st.is_terminal() {
        let a = random_action(&st, &mut rng);
        st.apply(a).unwrap();
    }
    assert_eq!(resample_doubles(&st, 1, &mut rng).unwrap_err(), ResampleError::Over);
}

/// Counts the worlds of `draws` draws and returns (distinct worlds, chi-square p
/// against the uniform over `n` worlds).
fn uniformity<K: Hash + Eq>(draws: u64, n: u64, world: impl FnMut() -> K) -> (u64, f64) {
    let (seen, chi2) = chi_square(draws, n, world);
    (seen, chi2_p(chi2, (n - 1) as f64))
}

#[test]
fn texas42_resample_is_uniform_after_five_tricks() {
    // After five tricks of a hand, the two tricks left make few consistent
    // deals: every one is drawn, about equally often.
    let game = Texas42::new(Texas42Rules::STANDARD);
    let mut rng = AgentRng::seed_from_u64(5);
    check_some(0..40u64, 3, 1, |k| {
        let mut st = game.new_state(900 + k, Episode::Hand);
        // Play until five tricks are done (20 dominoes played).
        while !st.is_terminal() {
            let h = st.hand();
            let played: usize = (0..4).map(|s| (h.dealt[s] - h.hands[s]).len()).sum();
            if played == 20 {
                break;
            }
            let a = random_action(&st, &mut rng);
            st.apply(a).unwrap();
        }
        if st.is_terminal() {
            return false;
        }
        let seat = st.current_seat().unwrap();
        let sampler = WorldSampler::new(&st.view(seat));
        let n = sampler.count();
        if !(3..=400).contains(&n) {
            return false;
        }
        let draws = 20_000;
        let mut draw = AgentRng::seed_from_u64(11 + k);
        let (seen, p) = uniformity(draws, n, || resample(&game, &st, seat, &mut draw).unwrap().seat_hands());
        eprintln!("texas42 after five tricks: {n} worlds, chi-square p {p:.3}");
        assert_eq!(seen, n, "every consistent deal is drawn (the sampler counts {n})");
        assert!(p > 0.001, "chi-square p {p} over {n} worlds");
        true
    });
}

#[test]
fn doubles_resample_is_uniform() {
    // Small positions of two kinds: the seat to move (the sampler's own case)
    // and a seat watching another that has just drawn; worlds are (hands, the
    // boneyard's dominoes, the domino just drawn), counted by brute force.
    let mut rng = AgentRng::seed_from_u64(9);
    let mut tested: HashMap<&str, u32> = HashMap::new();
    for players in [2u8, 3, 4] {
        let game = doubles(players);
        for k in 0..300u64 {
            if tested.values().filter(|&&t| t >= 2).count() == 2 {
                break;
            }
            let mut st: DoublesState = game.new_state(5000 + 31 * players as u64 + k, Episode::Hand);
            while !st.is_terminal() {
                let mover = st.current_seat().unwrap();
                let r = *st.round();
                let kind = if r.drawn.is_some() { "just drew" } else { "to move" };
                let seat = if kind == "to move" { mover } else { (mover + 1) % players as usize };
                if r.board.is_open() && tested.get(kind).copied().unwrap_or(0) < 2 {
                    if let Some(n) = world_count(&st, seat, kind) {
                        let draws = (300 * n).max(20_000);
                        let mut draw = AgentRng::seed_from_u64(k);
                        let (seen, p) = uniformity(draws, n, || {
                            let w = resample(&game, &st, seat, &mut draw).unwrap();
                            let bones: DominoSet = w.boneyard().iter().copied().collect();
                            (*w.hands(), bones, w.round().drawn)
                        });
                        eprintln!("doubles, {players} players, {kind}: {n} worlds, chi-square p {p:.3}");
                        assert_eq!(seen, n, "{kind}: every consistent world is drawn");
                        assert!(p > 0.001, "{kind}: chi-square p {p} over {n} worlds");
                        *tested.entry(kind).or_default() += 1;
                    }
                }
                let a = random_action(&st, &mut rng);
                st.apply(a).unwrap();
            }
        }
    }
    for kind in ["to move", "just drew"] {
        assert!(tested.get(kind).is_some_and(|&t| t >= 1), "no small position of kind {kind}: {tested:?}");
    }
}

#[test]
fn doubles_resample_before_the_opening_matches_rejection_sampling() {
    // Before the opening, for a seat other than the opener, the worlds are
    // too many to count: the resampler's draws are compared with uniform
    // deals of the unseen dominoes kept when they fit the seat's view and the
    // record (the opener holds the highest double of the hands), on the
    // opener's highest double and the doubles in its hand and the boneyard.
    for (players, seed) in [(4u8, 3u64), (2, 8)] {
        let game = doubles(players);
        let st: DoublesState = game.new_state(seed, Episode::Hand);
        let mover = st.current_seat().unwrap();
        let seat = (mover + 1) % players as usize;
        let v = st.view(seat);
        let r = *st.round();
        let stat = |w: &DoublesState| {
            let top = (w.hands()[mover] & DominoSet::DOUBLES).iter().map(|d| d.high()).max();
            let bones: DominoSet = w.boneyard().iter().copied().collect();
            (top, (w.hands()[mover] & DominoSet::DOUBLES).len(), (bones & DominoSet::DOUBLES).len())
        };
        let n = 20_000;
        let mut a: HashMap<_, u64> = HashMap::new();
        let mut draw = AgentRng::seed_from_u64(seed);
        for _ in 0..n {
            *a.entry(stat(&resample(&game, &st, seat, &mut draw).unwrap())).or_default() += 1;
        }
        let mut b: HashMap<_, u64> = HashMap::new();
        let mut rng = AgentRng::seed_from_u64(seed + 1);
        let others: Vec<usize> = (0..players as usize).filter(|&s| s != seat).collect();
        let mut kept = 0;
        while kept < n {
            let mut doms: Vec<bones_env::Domino> = v.unseen().iter().collect();
            for j in (1..doms.len()).rev() {
                doms.swap(j, rng.random_range(0..=j));
            }
            let mut hands = [DominoSet::EMPTY; 4];
            hands[seat] = v.hand;
            let mut rest = doms.into_iter();
            for &o in &others {
                hands[o] = rest.by_ref().take(v.hand_sizes[o] as usize).collect();
            }
            let bones: Vec<bones_env::Domino> = rest.collect();
            let w = st.with_round(candidate(&r, hands, &bones, None).unwrap());
            if w.view(seat) == v && consistent_history(&w) {
                *b.entry(stat(&w)).or_default() += 1;
                kept += 1;
            }
        }
        let keys: std::collections::HashSet<_> = a.keys().chain(b.keys()).copied().collect();
        let chi2: f64 = keys
            .iter()
            .map(|k| {
                let (x, y) = (*a.get(k).unwrap_or(&0) as f64, *b.get(k).unwrap_or(&0) as f64);
                (x - y).powi(2) / (x + y)
            })
            .sum();
        let p = chi2_p(chi2, (keys.len() - 1) as f64);
        eprintln!("doubles before the opening, {players} players: {} categories, p {p:.3}", keys.len());
        assert!(p > 0.001, "{players} players: chi-square p {p} over {} categories", keys.len());
    }
}

/// The number of consistent worlds of a small position (2..=300), counted
/// independently of the resampler where the sampler's constraints describe
/// it, else by brute force over the resampler's own support checked against
/// the view; `None` for large positions.
fn world_count(st: &DoublesState, seat: usize, kind: &str) -> Option<u64> {
    let v = st.view(seat);
    let unseen = v.unseen();
    if unseen.len() > 9 {
        return None;
    }
    let n = match kind {
        "to move" => DoublesSampler::new(&v).count(),
        _ => brute_force(st, seat)?,
    };
    (2..=300).contains(&n).then_some(n)
}

/// Every assignment of the unseen dominoes to the other hands and the
/// boneyard (and, when another seat has just drawn, which of its dominoes it
/// drew), kept when the seat's view of the resulting round equals its view
/// of the real one; the boneyard's order is not counted.
fn brute_force(st: &DoublesState, seat: usize) -> Option<u64> {
    let v = st.view(seat);
    let r = *st.round();
    let players = v.players() as usize;
    let others: Vec<usize> = (0..players).filter(|&s| s != seat).collect();
    let unseen: Vec<bones_env::Domino> = v.unseen().iter().collect();
    // Holders: the other seats, then the boneyard.
    let sizes: Vec<usize> = others.iter().map(|&s| v.hand_sizes[s] as usize).chain([v.boneyard_len as usize]).collect();
    let mut count = 0u64;
    let mut assign = vec![0usize; unseen.len()];
    fn rec(
        i: usize,
        unseen: &[bones_env::Domino],
        sizes: &[usize],
        used: &mut Vec<usize>,
        assign: &mut Vec<usize>,
        f: &mut dyn FnMut(&[usize]),
    ) {
        if i == unseen.len() {
            f(assign);
            return;
        }
        for h in 0..sizes.len() {
            if used[h] < sizes[h] {
                used[h] += 1;
                assign[i] = h;
                rec(i + 1, unseen, sizes, used, assign, f);
                used[h] -= 1;
            }
        }
    }
    let mut used = vec![0usize; sizes.len()];
    let mut visit = |assign: &[usize]| {
        let mut hands = [DominoSet::EMPTY; 4];
        hands[seat] = v.hand;
        let mut bones = Vec::new();
        for (d, &h) in unseen.iter().zip(assign) {
            if h == others.len() {
                bones.push(*d);
            } else {
                hands[others[h]].insert(*d);
            }
        }
        // The candidate round: the real one with these hands and boneyard.
        let drawn_options: Vec<Option<bones_env::Domino>> = match r.drawn {
            Some(_) if r.to_move as usize != seat => hands[r.to_move as usize].iter().map(Some).collect(),
            other => vec![other],
        };
        for drawn in drawn_options {
            if let Some(w) = candidate(&r, hands, &bones, drawn) {
                let alt = st.with_round(w);
                if alt.view(seat) == v && consistent_history(&alt) {
                    count += 1;
                }
            }
        }
    };
    rec(0, &unseen, &sizes, &mut used, &mut assign, &mut visit);
    Some(count)
}

/// A round like `r` with other hands, boneyard and drawn domino, its deal
/// rebuilt (hands now plus each seat's plays, the drawn dominoes counted as
/// dealt), or `None` when the round does not hold together.
fn candidate(
    r: &bones_env::doubles::Round,
    hands: [DominoSet; 4],
    bones: &[bones_env::Domino],
    drawn: Option<bones_env::Domino>,
) -> Option<bones_env::doubles::Round> {
    let mut w = *r;
    w.hands = hands;
    let mut dealt = hands;
    for d in r.board.placed {
        dealt[r.played_by[d.index()] as usize].insert(d);
    }
    w.dealt = dealt;
    for (slot, &d) in w.bones.iter_mut().zip(bones) {
        *slot = d;
    }
    w.bone_len = bones.len() as u8;
    w.bone_next = 0;
    w.drawn = drawn;
    w.refresh();
    Some(w)
}

/// Whether the public record could have come from this round's hands: replays
/// the real history on a deal where every seat held its dealt dominoes (the
/// hands now plus its plays) minus what it drew, drawing the dominoes it drew,
/// in order. Checked through the facts the record proves, as the env keeps
/// them: the voids and missing doubles hold for each hand (but a just-drawn
/// domino), and a seat that never drew holds no double above the opening.
fn consistent_history(s: &DoublesState) -> bool {
    let r = s.round();
    let opening = r.board.placed.iter().find(|d| r.play_index[d.index()] == 0 && r.played_by[d.index()] != 255);
    for seat in 0..r.players as usize {
        let mut hand = r.hands[seat];
        if r.to_move as usize == seat {
            if let Some(d) = r.drawn {
                hand.remove(d);
            }
        }
        for d in hand {
            let (a, b) = (d.high(), d.low());
            if r.void[seat] >> a & 1 != 0 || r.void[seat] >> b & 1 != 0 {
                return false;
            }
            if a == b && r.no_double[seat] >> a & 1 != 0 {
                return false;
            }
        }
        let never_drew = r.draws[seat] == 0 || (r.draws[seat] == 1 && r.drawn.is_some() && r.to_move as usize == seat);
        match opening {
            Some(o) if never_drew && hand.iter().any(|d| d.is_double() && d.high() > o.high()) => return false,
            None => {
                // Before the opening the mover holds the highest double of the hands.
                let top = (0..r.players as usize).flat_map(|s| r.hands[s] & DominoSet::DOUBLES).map(|d| d.high()).max();
                let mine = (r.hands[r.to_move as usize] & DominoSet::DOUBLES).iter().map(|d| d.high()).max();
                if top != mine {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}
