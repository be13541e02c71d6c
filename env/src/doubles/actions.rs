//! The Doubles dense action space: ids, canonical names and parsing.
//!
//! | ids | actions |
//! |---|---|
//! | 0..7 | opening doubles `0-0` … `6-6` (id = the double's number) |
//! | 7..56 | attachments, by domino in dense order: a double `n-n@n` takes one id, a non-double `h-l` two ids, `h-l@h` then `h-l@l` |
//! | 56 | `draw` |
//! | 57 | `pass` |
//!
//! `h-l@e` attaches `h-l` to an open end showing `e`; the new open end shows the
//! other number (`6-3@6`: the new end shows 3). A double `n-n@n` opens three new
//! sides showing `n`. Names are written high end first; parsing also accepts
//! `3-6@6` and `6-6@6`-style names for doubles.

use crate::action::Action;
use crate::action::ActionError;
use crate::domino::Domino;

/// The first opening-double id (`0-0`); `OPEN + n` opens with `n-n`.
pub const OPEN: Action = 0;
/// The first attachment id (`0-0@0`).
pub const ATTACH: Action = 7;
/// Number of attachment ids.
pub const NUM_ATTACH: usize = 49;
/// `draw`.
pub const DRAW: Action = ATTACH + NUM_ATTACH;
/// `pass`.
pub const PASS: Action = DRAW + 1;
/// Size of the Doubles dense action space.
pub const NUM_ACTIONS_DOUBLES: usize = PASS + 1;

/// What an action id does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Move {
    /// Opens the round with this double.
    Open(Domino),
    /// Attaches the domino to an open end showing the number.
    Attach(Domino, u8),
    /// Draws one domino from the boneyard.
    Draw,
    /// Ends the turn without playing.
    Pass,
}

/// Domino and end of each attachment id (index `id - ATTACH`).
const ATTACH_TABLE: [(Domino, u8); NUM_ATTACH] = {
    let mut t = [(Domino::from_index(0), 0u8); NUM_ATTACH];
    let mut k = 0;
    let mut i = 0;
    while i < 28 {
        let d = Domino::from_index(i);
        t[k] = (d, d.high());
        k += 1;
        if !d.is_double() {
            t[k] = (d, d.low());
            k += 1;
        }
        i += 1;
    }
    t
};

/// Attachment id of `(domino, end)`, or `u8::MAX` when the domino has no such end.
const ATTACH_IDS: [[u8; 7]; 28] = {
    let mut t = [[u8::MAX; 7]; 28];
    let mut k = 0;
    while k < NUM_ATTACH {
        let (d, e) = ATTACH_TABLE[k];
        t[d.index()][e as usize] = (ATTACH + k) as u8;
        k += 1;
    }
    t
};

/// Attachment ids of each domino, indexed by byte `k` of a domino bit set and that
/// byte's value (bit `i` = domino `8k + i`).
pub(crate) const IDS_BY_BYTE: [[u64; 256]; 4] = {
    let mut t = [[0u64; 256]; 4];
    let mut k = 0;
    while k < 4 {
        let mut v = 0;
        while v < 256 {
            let mut i = 0;
            while i < 8 {
                let di = 8 * k + i;
                if v & (1 << i) != 0 && di < 28 {
                    let mut e = 0;
                    while e < 7 {
                        let id = ATTACH_IDS[di][e];
                        if id != u8::MAX {
                            t[k][v] |= 1 << id;
                        }
                        e += 1;
                    }
                }
                i += 1;
            }
            v += 1;
        }
        k += 1;
    }
    t
};

/// For each set of numbers (bit `e` = number `e`), the ids of every attachment to
/// an end showing one of them.
pub(crate) const IDS_AT: [u64; 128] = {
    let mut t = [0u64; 128];
    let mut m = 0;
    while m < 128 {
        let mut k = 0;
        while k < NUM_ATTACH {
            if m & (1 << ATTACH_TABLE[k].1) != 0 {
                t[m] |= 1 << (ATTACH + k);
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// The ids of the seven `n-n@n` attachments.
pub(crate) const DOUBLE_IDS: u64 = {
    let mut m = 0u64;
    let mut k = 0;
    while k < NUM_ATTACH {
        if ATTACH_TABLE[k].0.is_double() {
            m |= 1 << (ATTACH + k);
        }
        k += 1;
    }
    m
};

/// Every attachment id of the dominoes in `set`.
#[inline]
pub(crate) fn ids_of(set: u32) -> u64 {
    IDS_BY_BYTE[0][(set & 0xff) as usize]
        | IDS_BY_BYTE[1][((set >> 8) & 0xff) as usize]
        | IDS_BY_BYTE[2][((set >> 16) & 0xff) as usize]
        | IDS_BY_BYTE[3][((set >> 24) & 0xff) as usize]
}

/// Canonical names in id order.
pub const NAMES_DOUBLES: [&str; NUM_ACTIONS_DOUBLES] = [
    "0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "0-0@0", "1-0@1", "1-0@0", "1-1@1", "2-0@2", "2-0@0", "2-1@2",
    "2-1@1", "2-2@2", "3-0@3", "3-0@0", "3-1@3", "3-1@1", "3-2@3", "3-2@2", "3-3@3", "4-0@4", "4-0@0", "4-1@4",
    "4-1@1", "4-2@4", "4-2@2", "4-3@4", "4-3@3", "4-4@4", "5-0@5", "5-0@0", "5-1@5", "5-1@1", "5-2@5", "5-2@2",
    "5-3@5", "5-3@3", "5-4@5", "5-4@4", "5-5@5", "6-0@6", "6-0@0", "6-1@6", "6-1@1", "6-2@6", "6-2@2", "6-3@6",
    "6-3@3", "6-4@6", "6-4@4", "6-5@6", "6-5@5", "6-6@6", "draw", "pass",
];

/// The id that opens the round with the double `n-n`.
#[inline]
pub const fn open_action(n: u8) -> Action {
    OPEN + n as Action
}

/// The id that attaches `d` to an open end showing `end`, if `d` has that end.
#[inline]
pub const fn attach_action(d: Domino, end: u8) -> Option<Action> {
    if end > 6 {
        return None;
    }
    let id = ATTACH_IDS[d.index()][end as usize];
    if id == u8::MAX {
        None
    } else {
        Some(id as Action)
    }
}

/// What action `a` does (`None` for an id outside the action space).
#[inline]
pub const fn decode(a: Action) -> Option<Move> {
    if a < ATTACH {
        Some(Move::Open(Domino::new(a as u8, a as u8)))
    } else if a < DRAW {
        let (d, e) = ATTACH_TABLE[a - ATTACH];
        Some(Move::Attach(d, e))
    } else if a == DRAW {
        Some(Move::Draw)
    } else if a == PASS {
        Some(Move::Pass)
    } else {
        None
    }
}

/// The domino an action plays (opening or attaching), if it plays one.
#[inline]
pub const fn played_domino(a: Action) -> Option<Domino> {
    match decode(a) {
        Some(Move::Open(d)) | Some(Move::Attach(d, _)) => Some(d),
        _ => None,
    }
}

/// Canonical name of an action id (`"?"` outside the action space).
pub fn action_name(a: Action) -> &'static str {
    NAMES_DOUBLES.get(a).copied().unwrap_or("?")
}

/// Parses a Doubles action name: `6-6` (opening double), `6-3@6` (also `3-6@6`),
/// `draw`, `pass`.
pub fn parse_doubles(name: &str) -> Result<Action, ActionError> {
    let err = || ActionError {
        name: name.to_string(),
        game: "doubles",
        expected: "an opening double like `6-6`, an attachment like `6-3@6` (domino `@` the open end it covers), \
                   `draw` or `pass`",
    };
    match name {
        "draw" => return Ok(DRAW),
        "pass" => return Ok(PASS),
        _ => {}
    }
    match name.split_once('@') {
        None => {
            let d: Domino = name.parse().map_err(|_| err())?;
            if d.is_double() {
                Ok(open_action(d.high()))
            } else {
                Err(err())
            }
        }
        Some((dom, end)) => {
            let d: Domino = dom.parse().map_err(|_| err())?;
            let e = match end.as_bytes() {
                [c @ b'0'..=b'6'] => c - b'0',
                _ => return Err(err()),
            };
            attach_action(d, e).ok_or_else(err)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_tables_and_round_trip() {
        assert_eq!(NUM_ACTIONS_DOUBLES, 58);
        for (a, n) in NAMES_DOUBLES.iter().enumerate() {
            assert_eq!(parse_doubles(n).unwrap(), a, "{n}");
            let expect = match decode(a).unwrap() {
                Move::Open(d) => d.to_string(),
                Move::Attach(d, e) => format!("{d}@{e}"),
                Move::Draw => "draw".into(),
                Move::Pass => "pass".into(),
            };
            assert_eq!(*n, expect);
        }
        assert!(decode(NUM_ACTIONS_DOUBLES).is_none());
    }

    #[test]
    fn aliases_and_bad_names() {
        assert_eq!(parse_doubles("3-6@6").unwrap(), parse_doubles("6-3@6").unwrap());
        assert_eq!(parse_doubles("3-6@3").unwrap(), parse_doubles("6-3@3").unwrap());
        assert_eq!(parse_doubles("6-6").unwrap(), open_action(6));
        assert_eq!(parse_doubles("6-6@6").unwrap(), attach_action(Domino::new(6, 6), 6).unwrap());
        for bad in ["6-3", "6-3@5", "6-6@5", "6-3@", "6-3@66", "7-7", "", "Draw", "6-3@6 ", "@6"] {
            let e = parse_doubles(bad).unwrap_err();
            assert!(e.to_string().contains("`6-3@6`"), "{bad}: {e}");
        }
    }

    #[test]
    fn id_tables_agree_with_attach_action() {
        for d in Domino::ALL {
            let mut ids = 0u64;
            for e in 0..7 {
                if let Some(a) = attach_action(d, e) {
                    ids |= 1 << a;
                    assert!(IDS_AT[1 << e] & (1 << a) != 0);
                    assert_eq!(DOUBLE_IDS & (1 << a) != 0, d.is_double());
                }
            }
            assert_eq!(ids_of(d.bit().0), ids);
        }
        assert_eq!(ids_of(crate::DominoSet::FULL.0).count_ones() as usize, NUM_ATTACH);
        assert_eq!(IDS_AT[127].count_ones() as usize, NUM_ATTACH);
    }

    #[test]
    fn every_domino_end_pair_has_an_id() {
        let mut seen = [false; NUM_ACTIONS_DOUBLES];
        for d in Domino::ALL {
            for e in 0..7 {
                match attach_action(d, e) {
                    Some(a) => {
                        assert!(d.has(e));
                        assert_eq!(decode(a), Some(Move::Attach(d, e)));
                        assert!(!seen[a]);
                        seen[a] = true;
                    }
                    None => assert!(!d.has(e)),
                }
            }
        }
        assert_eq!(seen.iter().filter(|s| **s).count(), NUM_ATTACH);
    }
}
