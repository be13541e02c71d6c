//! Resampling what one seat cannot see of a hand ([`GameState::resample_hidden`](crate::GameState::resample_hidden)):
//! the dominoes the other seats still hold, dealt among them again (each keeps
//! its count), kept only when the hand's public history replays on the new deal
//! (every bid, the declaration and every play legal again: a seat that showed
//! out of a suit still holds none of it).

use super::hand::Hand;
use crate::domino::{Domino, DominoSet};
use crate::seed::splitmix64;

/// Attempts before giving up (half full reshuffles, half single swaps, which
/// fit a long public history more often).
const TRIES: usize = 32;

/// A hand `seat` cannot tell from `h`, from the random `seed`; `None` when
/// fewer than two other seats hold dominoes or no different deal fitted.
pub(super) fn resample(h: &Hand, seat: usize, seed: u64) -> Option<Hand> {
    let others: Vec<usize> = (0..4).filter(|&s| s != seat && !h.hands[s].is_empty()).collect();
    if seat >= 4 || others.len() < 2 {
        return None;
    }
    let history = h.actions();
    let mut rng = seed;
    for attempt in 0..TRIES {
        let mut held = h.hands;
        if attempt % 2 == 0 {
            let mut pool: Vec<Domino> = others.iter().flat_map(|&s| h.hands[s].iter()).collect();
            for i in (1..pool.len()).rev() {
                pool.swap(i, (splitmix64(&mut rng) % (i as u64 + 1)) as usize);
            }
            let mut rest = pool.into_iter();
            for &s in &others {
                held[s] = rest.by_ref().take(h.hands[s].len()).collect();
            }
        } else {
            let i = (splitmix64(&mut rng) % others.len() as u64) as usize;
            let j = (i + 1 + (splitmix64(&mut rng) % (others.len() as u64 - 1)) as usize) % others.len();
            let (a, b) = (others[i], others[j]);
            let da = pick(h.hands[a], &mut rng);
            let db = pick(h.hands[b], &mut rng);
            held[a] = (held[a] - da.bit()) | db.bit();
            held[b] = (held[b] - db.bit()) | da.bit();
        }
        if held == h.hands {
            continue;
        }
        let dealt: [DominoSet; 4] = std::array::from_fn(|s| (h.dealt[s] - h.hands[s]) | held[s]);
        let mut alt = Hand::new(h.rules, h.dealer, dealt);
        if history.iter().all(|&a| alt.apply(a).is_ok()) {
            debug_assert_eq!(alt.hands, held, "the replayed hand holds the resampled dominoes");
            return Some(alt);
        }
    }
    None
}

fn pick(set: DominoSet, rng: &mut u64) -> Domino {
    set.iter().nth((splitmix64(rng) % set.len() as u64) as usize).expect("a non-empty hand")
}
