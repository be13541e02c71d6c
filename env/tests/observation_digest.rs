//! The observation encodings are frozen: a digest of every seat's observation
//! at every step of fixed random games (both games, several rule sets, hand and
//! game episodes) must not change. Bump the observation version and the digest
//! together when the layout changes on purpose.

use bones_env::rules::{parse_rules_arg, BlockedTie, DoublesRules};
use bones_env::seed::splitmix64;
use bones_env::{Doubles, Episode, Game, GameState, Texas42, Texas42Rules};

/// FNV-1a over the bits of every float, plus the step's mask.
struct Digest(u64);

impl Digest {
    fn add(&mut self, x: u64) {
        for b in x.to_le_bytes() {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Plays `episodes` random episodes and digests every seat's observation at
/// every state (the terminal one included).
fn digest<G: Game>(game: &G, episode: Episode, episodes: u64, d: &mut Digest) {
    let mut rng = 0x5eed;
    let mut out = vec![0.0f32; game.obs_len()];
    for seed in 0..episodes {
        let mut s = game.new_state(seed, episode);
        loop {
            d.add(s.legal_mask().0);
            for seat in 0..game.num_players() {
                s.observe(seat, &mut out);
                for x in &out {
                    d.add(x.to_bits() as u64);
                }
            }
            if s.is_terminal() {
                break;
            }
            let m = s.legal_mask();
            s.apply(m.nth(splitmix64(&mut rng) as usize % m.len())).unwrap();
        }
    }
}

fn rules42(text: &str) -> Texas42Rules {
    Texas42Rules::from_json(&parse_rules_arg(text).unwrap()).unwrap()
}

#[test]
fn texas42_observations_are_unchanged() {
    let mut d = Digest(0xcbf2_9ce4_8422_2325);
    for rules in [
        Texas42Rules::STANDARD,
        Texas42Rules::FULL,
        rules42(r#"{"preset":"full","nello_doubles":"high","all_pass":"redeal"}"#),
        rules42(r#"{"preset":"full","nello_doubles":"low","nello_min_marks":1,"early_end":false}"#),
        rules42(r#"{"scoring":"points"}"#),
    ] {
        digest(&Texas42::new(rules), Episode::Hand, 200, &mut d);
        digest(&Texas42::new(rules), Episode::Game, 4, &mut d);
    }
    assert_eq!(d.0, 0x801f9cb427b924b2, "the Texas 42 observation changed");
}

#[test]
fn doubles_observations_are_unchanged() {
    let mut d = Digest(0xcbf2_9ce4_8422_2325);
    for players in 2..=4u8 {
        for blocked_tie in [BlockedTie::None, BlockedTie::Split] {
            let game = Doubles::new(DoublesRules { players, blocked_tie, ..DoublesRules::default() });
            digest(&game, Episode::Hand, 100, &mut d);
            digest(&game, Episode::Game, 2, &mut d);
        }
    }
    assert_eq!(d.0, 0x1530cdafce862f14, "the Doubles observation changed");
}
