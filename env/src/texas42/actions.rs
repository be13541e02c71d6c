//! The Texas 42 dense action space: ids, canonical names and parsing.
//!
//! Ids are stable (exported with every model):
//! | ids | actions |
//! |---|---|
//! | 0..28 | plays, by domino dense index (`0-0` … `6-6`) |
//! | 28 | `pass` |
//! | 29..41 | point bids `30` … `41` |
//! | 41..48 | mark bids `1m` … `7m` (`42`, `84` accepted for `1m`, `2m`) |
//! | 48, 49 | `plunge`, `splash` |
//! | 50..57 | pip-suit trumps `blanks` … `sixes` |
//! | 57..61 | `doubles`, `follow-me`, `nel-o`, `sevens` |

use crate::action::{Action, ActionError};
use crate::domino::Domino;

/// Texas 42: the first play id.
pub const PLAY: Action = 0;
/// Texas 42: `pass`.
pub const PASS: Action = 28;
/// Texas 42: the id of point bid `30` (then `31` … `41`).
pub const BID_30: Action = 29;
/// Texas 42: the id of `1m` (then `2m` … `7m`).
pub const BID_1M: Action = 41;
/// Texas 42: `plunge`.
pub const PLUNGE: Action = 48;
/// Texas 42: `splash`.
pub const SPLASH: Action = 49;
/// Texas 42: the id of trump `blanks` (then `ones` … `sixes`).
pub const TRUMP_BLANKS: Action = 50;
/// Texas 42: `doubles` trump.
pub const DOUBLES: Action = 57;
/// Texas 42: `follow-me` (no trump).
pub const FOLLOW_ME: Action = 58;
/// Texas 42: `nel-o`.
pub const NEL_O: Action = 59;
/// Texas 42: `sevens`.
pub const SEVENS: Action = 60;
/// Texas 42: size of the dense action space.
pub const NUM_ACTIONS_42: usize = 61;

/// Texas 42 canonical action names in id order.
pub const NAMES_42: [&str; NUM_ACTIONS_42] = [
    "0-0",
    "1-0",
    "1-1",
    "2-0",
    "2-1",
    "2-2",
    "3-0",
    "3-1",
    "3-2",
    "3-3",
    "4-0",
    "4-1",
    "4-2",
    "4-3",
    "4-4",
    "5-0",
    "5-1",
    "5-2",
    "5-3",
    "5-4",
    "5-5",
    "6-0",
    "6-1",
    "6-2",
    "6-3",
    "6-4",
    "6-5",
    "6-6",
    "pass",
    "30",
    "31",
    "32",
    "33",
    "34",
    "35",
    "36",
    "37",
    "38",
    "39",
    "40",
    "41",
    "1m",
    "2m",
    "3m",
    "4m",
    "5m",
    "6m",
    "7m",
    "plunge",
    "splash",
    "blanks",
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "doubles",
    "follow-me",
    "nel-o",
    "sevens",
];

/// Texas 42: the id of a name (canonical, `4-6` for `6-4`, or `42`/`84`).
pub fn parse_42(name: &str) -> Result<Action, ActionError> {
    if let Ok(d) = name.parse::<Domino>() {
        return Ok(PLAY + d.index());
    }
    match name {
        "42" => return Ok(BID_1M),
        "84" => return Ok(BID_1M + 1),
        _ => {}
    }
    NAMES_42.iter().position(|n| *n == name).ok_or_else(|| ActionError {
        name: name.to_string(),
        game: "texas42",
        expected: "a domino like `6-4`, `pass`, a bid `30`..`41`, `1m`..`7m` (`42`, `84`), `plunge`, `splash`, \
                   or a declaration `blanks` `ones` `twos` `threes` `fours` `fives` `sixes` `doubles` \
                   `follow-me` `nel-o` `sevens`",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_play_ids_are_domino_indices() {
        for (i, n) in NAMES_42.iter().enumerate() {
            assert_eq!(parse_42(n).unwrap(), i, "{n}");
        }
        for d in Domino::ALL {
            assert_eq!(NAMES_42[d.index()], d.to_string());
        }
        assert_eq!(parse_42("4-6").unwrap(), parse_42("6-4").unwrap());
        assert_eq!(parse_42("42").unwrap(), BID_1M);
        assert_eq!(parse_42("84").unwrap(), BID_1M + 1);
        assert!(parse_42("29").is_err());
        assert!(parse_42("8m").unwrap_err().to_string().contains("`pass`"));
    }
}
