//! Digests of trajectories: the pinned observation digest
//! ([`observation_digest`]) and the per-state fingerprints the determinism and
//! save/restore checks compare.

use crate::game::{Game, GameState};
use crate::seed::splitmix64;

/// FNV-1a over 64-bit words (each added as its 8 little-endian bytes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ObservationDigest(pub u64);

impl Default for ObservationDigest {
    fn default() -> ObservationDigest {
        ObservationDigest::new()
    }
}

impl ObservationDigest {
    /// The FNV-1a offset basis.
    pub const fn new() -> ObservationDigest {
        ObservationDigest(0xcbf2_9ce4_8422_2325)
    }
    /// Adds one word.
    #[inline]
    pub fn add(&mut self, x: u64) {
        for b in x.to_le_bytes() {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    /// Adds bytes, one at a time.
    pub fn add_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Plays `episodes` episodes of kind `episode` of `game`, dealt from seeds
/// `0..episodes`, each action drawn from one SplitMix64 stream seeded `0x5eed`
/// (`legal.nth(next % legal.len())`), and adds to `digest`, at every state (the
/// terminal one included), the legal mask and every seat's observation (the
/// bits of each float). The fixed trajectories of the golden check, and of the
/// observation-digest tests.
pub fn observation_digest<G: Game>(game: &G, episode: crate::Episode, episodes: u64, digest: &mut ObservationDigest) {
    let mut rng = 0x5eed;
    let mut out = vec![0.0f32; game.obs_len()];
    for seed in 0..episodes {
        let mut s = game.new_state(seed, episode);
        loop {
            digest.add(s.legal_mask().0);
            for seat in 0..game.num_players() {
                s.observe(seat, &mut out);
                for x in &out {
                    digest.add(x.to_bits() as u64);
                }
            }
            if s.is_terminal() {
                break;
            }
            let m = s.legal_mask();
            s.apply(m.nth(splitmix64(&mut rng) as usize % m.len())).expect("a legal action applies");
        }
    }
}

/// A state's bytes as [`crate::Env::save`] encodes states (bincode, standard
/// configuration).
pub(super) fn state_bytes<S: GameState>(s: &S) -> Vec<u8> {
    bincode::serde::encode_to_vec(s, bincode::config::standard()).expect("a state always encodes")
}

/// Everything observable of a state, as words: the seat to act, the mask, the
/// terminal flag, the winner, the rewards, every hand, the finished deal, a
/// digest of every seat's observation, and a digest of the state's bytes.
pub(super) fn fingerprint<G: Game>(game: &G, s: &G::State, buf: &mut [f32]) -> Vec<u64> {
    let mut v = vec![
        s.current_seat().map_or(u64::MAX, |x| x as u64),
        s.legal_mask().0,
        s.is_terminal() as u64,
        s.winning_side().map_or(u64::MAX, |x| x as u64),
    ];
    v.extend(s.rewards().iter().map(|r| r.to_bits() as u64));
    v.extend(s.seat_hands().iter().map(|h| h.0 as u64));
    if let Some(d) = s.finished_deal() {
        v.extend(d.score.iter().chain(&d.win).chain(d.points.iter().flatten()).map(|x| x.to_bits()));
        v.extend(d.contract.map(|c| [c.side as u64, c.made as u64, c.bid_points as u64]).into_iter().flatten());
    }
    for seat in 0..game.num_players() {
        s.observe(seat, buf);
        let mut d = ObservationDigest::new();
        for x in buf.iter() {
            d.add(x.to_bits() as u64);
        }
        v.push(d.0);
    }
    let mut d = ObservationDigest::new();
    d.add_bytes(&state_bytes(s));
    v.push(d.0);
    v
}
