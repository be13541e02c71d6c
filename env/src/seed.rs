//! Seed helpers: the SplitMix64 generator step and its finaliser, written once
//! for every crate that derives seeds or picks cheap random numbers, and the
//! deal stream of duplicate-deal evaluations made of them ([`deal_seed`],
//! [`seating_seed`]): `bones eval`, `bones benchmark`, Python's
//! `bones.evaluate` and the trainer's evaluation all deal from it, so one seed
//! gives the same deals everywhere.
//!
//! ```
//! use bones_env::seed::{mix64, splitmix64};
//!
//! let mut state = 0;
//! assert_eq!(splitmix64(&mut state), 0xE220_A839_7B1D_CDAF);
//! assert_eq!(state, 0x9E37_79B9_7F4A_7C15);
//! assert_eq!(mix64(0x9E37_79B9_7F4A_7C15), 0xE220_A839_7B1D_CDAF);
//! ```

/// The SplitMix64 increment (the golden ratio in 64 bits).
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// One SplitMix64 step: advances `state` by [`GOLDEN_GAMMA`] and returns the
/// new state passed through [`mix64`].
#[inline]
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN_GAMMA);
    mix64(*state)
}

/// The SplitMix64 finaliser of one value (a bijection of `u64` that spreads
/// every input bit over the output): xor-shift 30, multiply, xor-shift 27,
/// multiply, xor-shift 31.
#[inline]
pub fn mix64(x: u64) -> u64 {
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of deal `i` of the duplicate-deal evaluation under base seed `seed`.
#[inline]
pub fn deal_seed(seed: u64, i: u64) -> u64 {
    step(seed ^ step(i.wrapping_add(0x5EED)))
}

/// The seed of the agents' random stream in seating `seating` (the side A
/// takes) of the deal dealt from `deal_seed`.
#[inline]
pub fn seating_seed(deal_seed: u64, seating: usize) -> u64 {
    step(deal_seed ^ step(0xA6E7 + seating as u64))
}

/// One SplitMix64 step from state `x` (the new state is dropped).
#[inline]
fn step(x: u64) -> u64 {
    let mut state = x;
    splitmix64(&mut state)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference SplitMix64 stream from seed 1234567 (Vigna's splitmix64.c).
    #[test]
    fn the_stream_matches_the_reference_generator() {
        let mut s = 1_234_567;
        let got: Vec<u64> = (0..5).map(|_| splitmix64(&mut s)).collect();
        assert_eq!(
            got,
            [6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821]
        );
        assert_eq!(s, 1_234_567u64.wrapping_add(5u64.wrapping_mul(GOLDEN_GAMMA)));
    }

    #[test]
    fn the_stream_from_zero_starts_with_the_known_values() {
        let mut s = 0;
        assert_eq!(splitmix64(&mut s), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(&mut s), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(splitmix64(&mut s), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn the_finaliser_maps_zero_to_zero_and_is_the_step_without_the_increment() {
        assert_eq!(mix64(0), 0);
        for x in [1u64, 42, u64::MAX, 0xDEAD_BEEF] {
            let mut s = x.wrapping_sub(GOLDEN_GAMMA);
            assert_eq!(splitmix64(&mut s), mix64(x));
        }
    }

    #[test]
    fn the_deal_stream_is_the_one_the_arena_always_dealt() {
        // The deal seeds and agent streams `bones eval` has dealt since its
        // first version (the benchmark's checksums rest on them).
        let deals: [(u64, u64, u64); 5] = [
            (0, 0, 0x1282_C5CD_2DEB_CEE8),
            (1, 0, 0x6F8D_8FC9_A414_4514),
            (1, 1, 0xB318_B1AA_9EB7_47EE),
            (7, 41, 0x9B5D_F2A4_762E_9AC5),
            (u64::MAX, 1000, 0xFE7B_826E_5461_09F2),
        ];
        for (seed, i, want) in deals {
            assert_eq!(deal_seed(seed, i), want, "deal_seed({seed:#x}, {i})");
        }
        let seatings: [(u64, usize, u64); 3] =
            [(0, 0, 0x0052_6BE1_8ABF_5184), (0, 1, 0xF538_C139_C7A5_43AE), (12345, 3, 0x3B72_1BFB_43D6_D544)];
        for (deal, seating, want) in seatings {
            assert_eq!(seating_seed(deal, seating), want, "seating_seed({deal}, {seating})");
        }
    }

    #[test]
    fn deal_seeds_differ_by_deal_and_by_base_seed() {
        assert_ne!(deal_seed(1, 0), deal_seed(1, 1));
        assert_ne!(deal_seed(1, 0), deal_seed(2, 0));
        assert_ne!(seating_seed(deal_seed(1, 0), 0), seating_seed(deal_seed(1, 0), 1));
    }
}
