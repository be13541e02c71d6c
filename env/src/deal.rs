//! The seeded shuffle of docs/rules.md ("The shake"), fixed exactly so that any implementation
//! reproduces the same deals.
//!
//! `rng = ChaCha8Rng::seed_from_u64(seed)`; `deck = [0, 1, …, 27]`; for `i` from
//! 27 down to 1: `j = (rng.next_u32() as u64 * (i + 1) as u64) >> 32`, swap
//! `deck[i]` and `deck[j]`. A whole game keeps drawing from the same `rng`.

use crate::domino::{Domino, DominoSet};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The random stream of a seed.
pub fn rng_for_seed(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// Shuffles the 28 dominoes in dense order with the Fisher-Yates of docs/rules.md ("The shake").
pub fn shuffle(rng: &mut ChaCha8Rng) -> [Domino; 28] {
    let mut deck = Domino::ALL;
    for i in (1..28usize).rev() {
        let j = ((rng.next_u32() as u64 * (i as u64 + 1)) >> 32) as usize;
        deck.swap(i, j);
    }
    deck
}

/// Deals `seats` hands of `per_seat` dominoes from a shuffled deck (seat s gets
/// `deck[k*s..k*s+k]`); returns the hands and the rest in order (the boneyard).
pub fn deal(rng: &mut ChaCha8Rng, seats: usize, per_seat: usize) -> ([DominoSet; 4], Vec<Domino>) {
    let deck = shuffle(rng);
    (deal_hands(&deck, seats, per_seat), deck[seats * per_seat..].to_vec())
}

/// The hands of a shuffled deck: seat s gets `deck[k*s..k*s+k]` (`k = per_seat`);
/// the rest of the deck is the boneyard, in order.
pub fn deal_hands(deck: &[Domino; 28], seats: usize, per_seat: usize) -> [DominoSet; 4] {
    let mut hands = [DominoSet::EMPTY; 4];
    for (s, hand) in hands.iter_mut().enumerate().take(seats) {
        *hand = deck[per_seat * s..per_seat * (s + 1)].iter().copied().collect();
    }
    hands
}

/// A Texas 42 deal: four hands of seven (no heap allocation).
pub fn deal_texas42(rng: &mut ChaCha8Rng) -> [DominoSet; 4] {
    deal_hands(&shuffle(rng), 4, 7)
}

/// Serde for a ChaCha8 random stream (`#[serde(with = "bones_env::deal::rng_serde")]`): its seed, stream and word position
/// (what `rand_chacha` exposes without its own `serde` feature).
pub mod rng_serde {
    use rand_chacha::rand_core::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Stream {
        seed: [u8; 32],
        stream: u64,
        word_pos: u128,
    }

    /// Writes the stream's seed, stream and word position.
    pub fn serialize<S: Serializer>(rng: &ChaCha8Rng, s: S) -> Result<S::Ok, S::Error> {
        Stream { seed: rng.get_seed(), stream: rng.get_stream(), word_pos: rng.get_word_pos() }.serialize(s)
    }

    /// Reads what [`serialize`] wrote.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ChaCha8Rng, D::Error> {
        let st = Stream::deserialize(d)?;
        let mut rng = ChaCha8Rng::from_seed(st.seed);
        rng.set_stream(st.stream);
        rng.set_word_pos(st.word_pos);
        Ok(rng)
    }
}
