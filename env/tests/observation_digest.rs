//! The observation encodings are frozen: a digest of every seat's observation
//! at every step of fixed random games (both games, several rule sets, hand and
//! game episodes) must not change. Bump the observation version and the digest
//! together when the layout changes on purpose.
//!
//! The digest is the conformance suite's (`bones_env::testing::observation_digest`,
//! which its golden check uses): these pinned values are the ones the tests
//! pinned before the suite existed, so they also pin the suite's digest.

use bones_env::rules::{parse_rules_arg, BlockedTie, DoublesRules};
use bones_env::testing::{observation_digest as digest, ObservationDigest as Digest};
use bones_env::{Doubles, Episode, Texas42, Texas42Rules};

fn rules42(text: &str) -> Texas42Rules {
    Texas42Rules::from_json(&parse_rules_arg(text).unwrap()).unwrap()
}

#[test]
fn texas42_observations_are_unchanged() {
    let mut d = Digest::new();
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
    let mut d = Digest::new();
    for players in 2..=4u8 {
        for blocked_tie in [BlockedTie::None, BlockedTie::Split] {
            let game = Doubles::new(DoublesRules { players, blocked_tie, ..DoublesRules::default() });
            digest(&game, Episode::Hand, 100, &mut d);
            digest(&game, Episode::Game, 2, &mut d);
        }
    }
    assert_eq!(d.0, 0x1530cdafce862f14, "the Doubles observation changed");
}
