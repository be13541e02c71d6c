//! The worlds of small positions against exhaustive enumeration: on real
//! positions with at most 8 dominoes unseen by the seat to move and a handful
//! of consistent deals, every deal of the unseen dominoes is enumerated (kept
//! when the public record replays from it; nothing of the sampler's class
//! dealer is used), the uniform [`WorldSampler`] draws each about equally
//! often, and the search's weighted worlds come about as often as each deal's
//! posterior weight says, that weight computed here from the deal alone: the
//! product over the other seats' choices (bids, declaration, plays) of
//! `max(p, floor)`, `p` the stand-in policy's probability of the action taken
//! (logits `slope * id`, so `p` depends on the seat's legal actions in the
//! deal). What a failure to follow suit or a Plunge/Splash implies is in which
//! deals replay; what each bid and play implies is also in the weights.
//!
//! ```text
//! cargo test -p bones-agents --test main -- posterior:: --nocapture
//! ```

use std::collections::{HashMap, HashSet};

use bones_agents::pimc::{public_actions, replay, WorldSampler};
use bones_agents::spec::SearchOptions;
use bones_agents::{legal_prob, AgentRng, Policy, SearchAgent};
use bones_env::texas42::actions::{PLUNGE, SPLASH};
use bones_env::texas42::{Hand, Phase};
use bones_env::{DominoSet, Game, Texas42, Texas42Rules, Texas42View};
use rand::SeedableRng;

use crate::search::Slope;
use crate::uniform::{chi2_p, chi_square};

/// A real position small enough to enumerate: the view of the seat to move
/// and every consistent deal, as the hand replayed from it.
struct Small {
    v: Texas42View,
    deals: Vec<Hand>,
}

/// The dominoes each seat has played, read off the view's tricks.
fn played_by(v: &Texas42View) -> [DominoSet; 4] {
    let mut played = [DominoSet::EMPTY; 4];
    for t in 0..=(v.trick as usize).min(6) {
        for (i, d) in v.tricks[t].played().iter().enumerate() {
            played[v.seat_of_play(t, i) as usize].insert(*d);
        }
    }
    played
}

/// Every way to deal the dominoes `v`'s seat has not seen to the other three
/// seats, each getting as many as it holds now, kept when the public record
/// replays from that deal: the hands replayed.
fn enumerate(v: &Texas42View) -> Vec<Hand> {
    let played = played_by(v);
    let seat = v.seat as usize;
    let others: Vec<usize> = (0..4).filter(|&s| s != seat).collect();
    // A seat holds its 7 less what it has played (the Nel-O partner plays none).
    let count = [0, 1, 2, 3].map(|s| if s == seat { v.hand.len() } else { 7 - played[s].len() } as u8);
    let unseen: Vec<_> = v.unseen().iter().collect();
    let mut hands = [DominoSet::EMPTY; 4];
    hands[seat] = v.hand;
    let mut out = Vec::new();
    crate::pimc::for_each_deal(&unseen, &others, &count, &mut hands, &mut |now| {
        let mut dealt = *now;
        for (d, p) in dealt.iter_mut().zip(played) {
            *d |= p;
        }
        if let Ok(h) = replay(v, dealt) {
            assert_eq!(Texas42View::from_hand(&h, v.seat), *v, "a deal that replays shows the seat its view");
            out.push(h);
        }
    });
    out
}

/// The positions of `hands` random hands per rule set (the `pimc` tests')
/// with at most 8 unseen dominoes and 4..=60 consistent deals.
fn small_positions(hands: u64, seed: u64) -> impl Iterator<Item = Small> {
    crate::pimc::positions(hands, seed).into_iter().filter(|(_, v)| v.unseen().len() <= 8).filter_map(|(_, v)| {
        let deals = enumerate(&v);
        (4..=60).contains(&deals.len()).then_some(Small { v, deals })
    })
}

/// The weight of deal `dealt` at `v` under the stand-in policy of `slope`,
/// split into the bidding (bids and declaration) and the plays: the product,
/// over the public actions of the other seats where the seat had more than one
/// legal action, of `max(p, floor)`, `p` the softmax of the logits over that
/// seat's legal actions in this deal.
fn weight(v: &Texas42View, dealt: [DominoSet; 4], logits: &[f32], floor: f32) -> [f64; 2] {
    let mut w = [1.0f64; 2];
    let mut h = Hand::new(v.rules, v.dealer, dealt);
    for a in public_actions(v) {
        let legal = h.legal_mask();
        if h.to_move != v.seat && legal.len() > 1 {
            let part = usize::from(h.phase == Phase::Playing);
            w[part] *= f64::from(legal_prob(logits, legal, a).max(floor));
        }
        h.apply(a).unwrap();
    }
    w
}

/// The chi-square statistic of `freq` (the counts of `draws` draws) against
/// the probabilities `p`, and its degrees of freedom. Outcomes expected fewer
/// than 5 times are pooled, the least likely first, into one cell expected at
/// least 5 times (a rare outcome drawn once would otherwise dominate the
/// statistic). A draw outside `p` fails the test.
fn chi_square_against(freq: &HashMap<[DominoSet; 4], u64>, p: &[([DominoSet; 4], f64)], draws: u64) -> (f64, f64) {
    let known: HashSet<_> = p.iter().map(|(k, _)| k).collect();
    for k in freq.keys() {
        assert!(known.contains(k), "a world outside the enumerated deals: {k:?}");
    }
    let mut cells: Vec<(f64, f64)> =
        p.iter().map(|(k, pk)| (pk * draws as f64, freq.get(k).copied().unwrap_or(0) as f64)).collect();
    cells.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut pooled, mut chi2, mut df) = ((0.0, 0.0), 0.0, -1.0);
    for (expect, seen) in cells {
        if expect < 5.0 || (pooled.0 > 0.0 && pooled.0 < 5.0) {
            pooled = (pooled.0 + expect, pooled.1 + seen);
        } else {
            chi2 += (seen - expect).powi(2) / expect;
            df += 1.0;
        }
    }
    if pooled.0 > 0.0 {
        chi2 += (pooled.1 - pooled.0).powi(2) / pooled.0;
        df += 1.0;
    }
    (chi2, df)
}

/// `items` in order, at most `most` of each kind (`kind` names it); asserts
/// that there are at least `least` of each of `kinds`.
fn some_of_each<T, K: Copy + Eq + std::hash::Hash + std::fmt::Debug>(
    items: impl IntoIterator<Item = T>,
    kinds: &[K],
    most: usize,
    least: usize,
    kind: impl Fn(&T) -> K,
) -> Vec<(K, T)> {
    let mut taken: HashMap<K, usize> = HashMap::new();
    let mut out = Vec::new();
    for item in items {
        let k = kind(&item);
        let n = taken.entry(k).or_default();
        if *n < most {
            *n += 1;
            out.push((k, item));
        }
    }
    println!("positions checked: {taken:?} (at most {most} of each)");
    for k in kinds {
        assert!(taken.get(k).copied().unwrap_or(0) >= least, "too few positions of kind {k:?}: {taken:?}");
    }
    out
}

#[test]
fn the_uniform_sampler_draws_every_enumerated_deal_about_equally_often() {
    // Positions after a Plunge or Splash (its bidder held at least 4 or 3
    // doubles), after a seat failed to follow suit, and after neither: the
    // enumeration's count is the sampler's, and over `400 * n` draws each of
    // the `n` deals comes up, none outside them, about equally often: the
    // chi-square statistic (df = n - 1) below its 99.99% quantile.
    let kind = |small: &Small| {
        if small.v.bids.iter().any(|&b| b == Some(PLUNGE) || b == Some(SPLASH)) {
            "plunge/splash"
        } else if small.v.known_voids().iter().any(|&m| m != 0) {
            "void"
        } else {
            "neither"
        }
    };
    let mut rng = AgentRng::seed_from_u64(47);
    let kinds = ["plunge/splash", "void", "neither"];
    for (kind, small) in some_of_each(small_positions(30, 5), &kinds, 8, 4, kind) {
        let sampler = WorldSampler::new(&small.v);
        let n = small.deals.len() as u64;
        assert_eq!(sampler.count(), n, "the sampler's count vs enumeration\n{:?}", small.v);
        let deals: HashSet<[DominoSet; 4]> = small.deals.iter().map(|h| h.hands).collect();
        let (seen, chi2) = chi_square(400 * n, n, || {
            let now = sampler.sample(&mut rng);
            assert!(deals.contains(&now), "a drawn deal the enumeration does not hold: {now:?}");
            now
        });
        assert_eq!(seen, n, "every enumerated deal is drawn");
        let p = chi2_p(chi2, (n - 1) as f64);
        println!("{kind}: {n} deals, {} unseen: chi-square {chi2:.1} (df {}), p {p:.3}", small.v.unseen().len(), n - 1);
        assert!(p > 1e-4, "chi-square {chi2} over {n} deals (p {p})");
    }
}

/// What makes the posterior of a small position differ between its deals
/// (besides the plays, which always may).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Inference {
    /// The bids: the largest bidding weight of a deal is at least 1.5 times
    /// the smallest (a seat's legal bids, Plunge or Splash among them, differ
    /// between deals).
    Bids,
    /// A seat has failed to follow suit: the deals are those where it was void.
    Void,
    /// Only the plays.
    Plays,
}

/// The enumerated posterior of `small` under the stand-in policy's `logits`:
/// each deal (the hands held now) with its probability, what its weights
/// read, and the largest bidding weight over the smallest.
fn posterior(small: &Small, logits: &[f32], floor: f32) -> (Vec<([DominoSet; 4], f64)>, Inference, f64) {
    let w: Vec<[f64; 2]> = small.deals.iter().map(|h| weight(&small.v, h.dealt, logits, floor)).collect();
    let total: f64 = w.iter().map(|w| w[0] * w[1]).sum();
    let p = small.deals.iter().zip(&w).map(|(h, w)| (h.hands, w[0] * w[1] / total)).collect();
    let (lo, hi) = w.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), w| (lo.min(w[0]), hi.max(w[0])));
    let inference = if hi >= 1.5 * lo {
        Inference::Bids
    } else if small.v.known_voids().iter().any(|&m| m != 0) {
        Inference::Void
    } else {
        Inference::Plays
    };
    (p, inference, hi / lo)
}

/// How often each deal (the hands held now) comes among the worlds of
/// `calls` calls of `search.worlds` at `v`.
fn tally(search: &mut SearchAgent, v: &Texas42View, calls: u64, rng: &mut AgentRng) -> HashMap<[DominoSet; 4], u64> {
    let mut freq = HashMap::new();
    for _ in 0..calls {
        let worlds = search.worlds(v, rng);
        assert_eq!(worlds.len(), search.options().worlds as usize);
        for w in worlds {
            *freq.entry(w.hands).or_default() += 1;
        }
    }
    freq
}

#[test]
fn the_searchs_worlds_come_as_often_as_the_enumerated_posterior_says() {
    // Positions of each kind of inference; in each, `n` calls of the search's
    // `worlds` (64 worlds from a pool of 1024) for `n` deals, pooled: the
    // count of each deal against the posterior enumerated here, a chi-square
    // statistic below its 99.99% quantile (small expected counts pooled).
    //
    // Two things move the statistic off the chi-square of independent draws,
    // both small here. Systematic resampling spreads one call's 64 draws
    // evenly over the pool's weights, so draws within a call are negatively
    // correlated: the statistic is then smaller than for independent draws
    // (the bound errs on the generous side). And the pool is a finite sample
    // (sampling-importance-resampling): the pool's own noise adds at most
    // about `n * 64 / 1024` to the statistic, and its bias, to first order
    // `(n sum_j p_j^2 - n p_i) / pool` relative in deal `i`, adds the
    // noncentrality printed as `bias` (asserted below 2, where a statistic
    // of about `df` spreads by `sqrt(2 df)`: the test cannot see it).
    let g = Texas42::new(Texas42Rules::STANDARD);
    let options = SearchOptions { worlds: 64, pool: 1024, ..SearchOptions::default() };
    let (floor, pool) = (options.floor, f64::from(options.pool));
    let slope = 0.5;
    let logits = Slope { slope, num_actions: g.num_actions() }.logits(&[], 1);
    let stand_in = || Box::new(Slope { slope, num_actions: g.num_actions() });
    let mut search = SearchAgent::new(stand_in(), options.clone(), g.obs_len());
    let mut unweighted = SearchAgent::new(stand_in(), SearchOptions { weighted: false, ..options }, g.obs_len());
    let (mut rejected, mut most_bids) = (0, 1.0f64);
    // The search weighs worlds only for a decision with a choice.
    let positions = small_positions(30, 5).enumerate().filter(|(_, s)| s.v.legal.len() > 1);
    let kinds = [Inference::Bids, Inference::Void, Inference::Plays];
    for (inference, (i, small)) in some_of_each(positions, &kinds, 4, 3, |(_, s)| posterior(s, &logits, floor).1) {
        let (p, _, bids) = posterior(&small, &logits, floor);
        most_bids = most_bids.max(bids);
        let n = p.len() as u64;
        let draws = 64 * n;
        let mut rng = AgentRng::seed_from_u64(i as u64);
        let freq = tally(&mut search, &small.v, n, &mut rng);
        let (chi2, df) = chi_square_against(&freq, &p, draws);
        let pv = chi2_p(chi2, df);
        // The same statistic against the uniform over the deals.
        let uniform: Vec<_> = p.iter().map(|&(k, _)| (k, 1.0 / n as f64)).collect();
        let (chi2_u, df_u) = chi_square_against(&freq, &uniform, draws);
        let pv_u = chi2_p(chi2_u, df_u);
        // How far the posterior is from uniform (the uniform statistic's
        // expected excess), and the finite pool's bias.
        let (n, draws) = (n as f64, draws as f64);
        let kappa = n * p.iter().map(|(_, q)| q * q).sum::<f64>();
        let apart = draws * n * p.iter().map(|(_, q)| (q - 1.0 / n).powi(2)).sum::<f64>();
        let bias = draws * p.iter().map(|(_, q)| q * ((kappa - n * q) / pool).powi(2)).sum::<f64>();
        println!(
            "{inference:?} (bidding weights up to {bids:.1}x): {n} deals ({} unseen, trick {}), effective {:.1}, \
             {draws} worlds: chi-square {chi2:.1} (df {df}, p {pv:.3}); against uniform {chi2_u:.1} (df {df_u}, \
             p {pv_u:.1e}); apart {apart:.0}, bias {bias:.2}",
            small.v.unseen().len(),
            small.v.trick,
            n / kappa,
        );
        assert!(bias < 2.0, "the pool is too small for {n} deals: bias {bias}");
        assert!(pv > 1e-4, "{inference:?}: chi-square {chi2} (df {df}, p {pv}) over {n} deals\n{:?}", small.v);
        // Power: where the posterior is clearly not uniform, the uniform is
        // rejected by the same statistic, and so are the worlds of a search
        // that ignores its weights.
        if apart > 200.0 {
            assert!(pv_u < 1e-4, "the uniform passes where the posterior is {apart} apart: p {pv_u}");
            let freq = tally(&mut unweighted, &small.v, n as u64, &mut rng);
            let (chi2_off, df_off) = chi_square_against(&freq, &p, draws as u64);
            let pv_off = chi2_p(chi2_off, df_off);
            assert!(pv_off < 1e-4, "unweighted worlds pass: chi-square {chi2_off} (df {df_off}, p {pv_off})");
            rejected += 1;
        }
    }
    println!("{rejected} positions clearly not uniform; bidding weights up to {most_bids:.1}x");
    assert!(rejected >= 3, "too few positions with a clearly non-uniform posterior: {rejected}");
    assert!(most_bids >= 4.0, "the bids never weigh one deal clearly above another: {most_bids}x");
}
