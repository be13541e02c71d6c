//! Hand-written tests of the Texas 42 rules of docs/rules.md (the authority), one per
//! rule, each on hands built so that the rule is exercised exactly.
//!
//! Deals are written as four hands of domino names (seat 0..3); `start` checks
//! that they are a partition of the 28 dominoes. Actions are applied by name.

use bones_env::deal::{deal_texas42, rng_for_seed};
use bones_env::replay::replay_line;
use bones_env::texas42::actions::{parse_42, NAMES_42};
use bones_env::texas42::{bid_marks, sevens_distance, team, Hand, Outcome, Phase};
use bones_env::{Action, Domino, DominoSet, Episode, Game, GameState, Scoring, Texas42, Texas42Rules, Texas42State};
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// Helpers

fn rules(v: Value) -> Texas42Rules {
    Texas42Rules::from_json(&v).unwrap()
}

fn standard() -> Texas42Rules {
    Texas42Rules::STANDARD
}

fn full() -> Texas42Rules {
    Texas42Rules::FULL
}

fn dominoes(s: &str) -> DominoSet {
    s.split_whitespace().map(|d| d.parse::<Domino>().unwrap()).collect()
}

fn dom(s: &str) -> Domino {
    s.parse().unwrap()
}

/// Four hands of seven that together are the 28 dominoes.
fn deal(hands: [&str; 4]) -> [DominoSet; 4] {
    let sets = hands.map(dominoes);
    let mut all = DominoSet::EMPTY;
    for (seat, s) in sets.iter().enumerate() {
        assert_eq!(s.len(), 7, "hand {seat} of the test deal has {} dominoes", s.len());
        assert!((all & *s).is_empty(), "hand {seat} repeats a domino");
        all |= *s;
    }
    assert_eq!(all, DominoSet::FULL);
    sets
}

/// The deal turned `k` seats to the left: seat `(i + k) % 4` gets hand `i`.
fn rotate(hands: [&'static str; 4], k: usize) -> [&'static str; 4] {
    let mut out = hands;
    for (i, h) in hands.iter().enumerate() {
        out[(i + k) % 4] = h;
    }
    out
}

fn start(r: Texas42Rules, dealer: u8, hands: [&str; 4]) -> Texas42State {
    Texas42::new(r).from_hands(dealer, deal(hands))
}

/// [`start`], then `actions` (as [`act`] reads them).
#[track_caller]
fn played(r: Texas42Rules, dealer: u8, hands: [&str; 4], actions: &str) -> Texas42State {
    let mut s = start(r, dealer, hands);
    act(&mut s, actions);
    s
}

fn id(name: &str) -> Action {
    parse_42(name).unwrap_or_else(|e| panic!("{e}"))
}

/// Applies the space-separated actions in order; panics on an illegal one.
/// Between them, a bracketed list is what must be legal then, exactly (any
/// order), and `!name` an action that must be refused then
/// ([`assert_rejects`]): `6-2 [6-5 6-0] !6-6 6-0` leads 6-2, checks that the
/// next seat may play 6-5 or 6-0 and nothing else, that 6-6 is refused, and
/// plays 6-0.
#[track_caller]
fn act(s: &mut Texas42State, actions: &str) {
    let spaced = actions.replace('[', " [ ").replace(']', " ] ");
    let mut names = spaced.split_whitespace();
    while let Some(name) = names.next() {
        if name == "[" {
            let expected: Vec<&str> = names.by_ref().take_while(|&n| n != "]").collect();
            assert_legal(s, &expected.join(" "));
            continue;
        }
        if let Some(refused) = name.strip_prefix('!') {
            assert_rejects(s, refused);
            continue;
        }
        let seat = s.current_seat();
        let legal = legal(s);
        if let Err(e) = s.apply(id(name)) {
            panic!("`{name}` by seat {seat:?} is illegal ({e}); legal: {legal:?}");
        }
    }
}

fn legal(s: &Texas42State) -> Vec<&'static str> {
    s.legal_mask().iter().map(|a| NAMES_42[a]).collect()
}

/// The legal actions are exactly `expected` (names, any order).
#[track_caller]
fn assert_legal(s: &Texas42State, expected: &str) {
    let mut want: Vec<&str> = expected.split_whitespace().map(|n| NAMES_42[id(n)]).collect();
    want.sort_unstable();
    let mut got = legal(s);
    got.sort_unstable();
    assert_eq!(got, want, "legal actions of seat {:?}", s.current_seat());
}

/// `name` is rejected and leaves the state unchanged.
#[track_caller]
fn assert_rejects(s: &Texas42State, name: &str) {
    let mut t = s.clone();
    assert!(t.apply(id(name)).is_err(), "`{name}` should be illegal for seat {:?}", s.current_seat());
    assert_eq!(t.hand(), s.hand(), "a rejected action changed the hand");
}

/// A deal as a record's `hands`.
fn hands_json(hands: [&str; 4]) -> Value {
    json!(hands.map(|h| h.split_whitespace().collect::<Vec<_>>()))
}

/// Point bids `from..=to` as names.
fn point_bids(from: u32, to: u32) -> String {
    (from..=to).map(|b| b.to_string()).collect::<Vec<_>>().join(" ")
}

const TRUMPS: &str = "blanks ones twos threes fours fives sixes doubles follow-me";

fn first_legal(s: &Texas42State) -> Action {
    s.legal_mask().iter().next().expect("a live state has a legal action")
}

/// Plays the first legal action until the episode is over.
fn play_out(s: &mut Texas42State) {
    while !s.is_terminal() {
        s.apply(first_legal(s)).unwrap();
    }
}

fn made(h: &Hand) -> bool {
    match h.outcome {
        Some(Outcome::Settled { made }) => made,
        other => panic!("hand not settled: {other:?}"),
    }
}

fn declaration(h: &Hand) -> &'static str {
    NAMES_42[h.declaration as usize]
}

fn high_bid(h: &Hand) -> &'static str {
    NAMES_42[h.high_bid as usize]
}

/// Winner of the `t`-th (0-based) trick.
fn trick_winner(h: &Hand, t: usize) -> u8 {
    assert!(t < h.trick as usize, "trick {t} is not complete");
    h.tricks[t].winner
}

/// Plays `plays` (as [`act`] reads them), which complete the first trick, on
/// a copy of `s`, and checks that seat `winner` won that trick. Returns the
/// copy.
#[track_caller]
fn first_trick(s: &Texas42State, plays: &str, winner: u8) -> Texas42State {
    let mut t = s.clone();
    act(&mut t, plays);
    assert_eq!(trick_winner(t.hand(), 0), winner, "the winner of the trick {plays}");
    t
}

/// A small deterministic random stream for random legal play.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
    fn pick(&mut self, s: &Texas42State) -> Action {
        let m = s.legal_mask();
        m.nth(self.below(m.len()))
    }
}

// ---------------------------------------------------------------------------
// Deals

/// Sixes trump: `6-5` is not a five. Seat 0 leads `5-4`; seat 1 holds `6-5` and
/// fours but no other five; seat 2 holds one plain five (`5-1`).
const SUITS_SIXES: [&str; 4] = [
    "5-4 6-4 6-3 6-2 6-1 3-3 2-2",
    "6-5 6-0 4-4 4-0 3-0 2-0 1-0",
    "5-1 6-6 4-3 4-2 4-1 3-2 3-1",
    "5-5 5-0 5-2 5-3 2-1 1-1 0-0",
];

/// Follow-me: seat 1's only four and only five is `5-4`.
const SUITS_FOLLOW_ME: [&str; 4] = [
    "4-2 5-0 6-6 0-0 1-1 2-2 3-3",
    "5-4 6-3 6-2 6-1 3-2 3-1 3-0",
    "4-4 4-3 4-1 4-0 5-5 2-1 2-0",
    "1-0 5-1 5-2 5-3 6-0 6-4 6-5",
];

/// Seat 1 holds five ones (and `1-1`) but no six: void when `6-1` is led.
const LOWER_END: [&str; 4] = [
    "6-1 0-0 2-0 3-0 4-0 5-0 2-2",
    "1-1 2-1 3-1 4-1 5-1 1-0 3-3",
    "6-0 6-2 6-3 4-4 3-2 4-2 4-3",
    "5-2 5-3 5-4 5-5 6-4 6-5 6-6",
];

/// Doubles trump: seat 1 holds one double (`2-2`) and fives; seat 2 no double;
/// seat 3 holds `5-5` as its only domino with a five.
const DOUBLES_TRUMP: [&str; 4] = [
    "6-6 5-3 0-0 1-0 2-0 3-0 4-0",
    "2-2 5-4 5-2 6-0 6-1 6-2 6-5",
    "5-1 5-0 4-1 4-2 4-3 3-1 3-2",
    "5-5 1-1 2-1 3-3 4-4 6-4 6-3",
];

/// Seat 0 holds six sixes and `1-0`; seat 1 holds `6-0`, `1-1` and fives. With
/// sixes trump seat 0 wins six tricks and seat 1 the last (`MIXED_PLAY`).
const MIXED: [&str; 4] = [
    "6-6 6-5 6-4 6-3 6-2 6-1 1-0",
    "6-0 1-1 5-5 5-4 5-3 5-2 5-1",
    "5-0 4-4 4-3 4-2 4-1 4-0 3-3",
    "3-2 3-1 3-0 2-2 2-1 2-0 0-0",
];

/// MIXED played out: bidders 31 points (1, 12, 23, 24, 25, 31 after each of
/// the first six tricks), defenders 11 in the last trick.
const MIXED_PLAY: [&str; 7] = [
    "6-6 6-0 4-4 3-1",
    "6-5 5-5 4-3 3-0",
    "6-4 5-4 4-2 2-2",
    "6-3 5-3 4-0 2-1",
    "6-2 5-2 3-3 2-0",
    "6-1 5-1 4-1 0-0",
    "1-0 1-1 5-0 3-2",
];

/// Another play of MIXED: bidders 11, 27, 38, 39, 40, 41; defenders 1.
const MIXED_PLAY_FAST: [&str; 7] = [
    "6-6 6-0 5-0 3-2",
    "6-5 5-5 4-1 0-0",
    "6-4 5-4 4-4 2-2",
    "6-3 5-3 4-3 3-1",
    "6-2 5-2 4-2 2-1",
    "6-1 5-1 4-0 2-0",
    "1-0 1-1 3-3 3-0",
];

/// Seat 1 holds all seven sixes; seat 0 (the bidder in the tests) none.
const SIXES_WITH_DEFENDER: [&str; 4] = [
    "5-5 5-4 5-3 5-2 5-1 5-0 4-4",
    "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
    "4-3 4-2 4-1 4-0 3-3 3-2 3-1",
    "3-0 2-2 2-1 2-0 1-1 1-0 0-0",
];

/// Nel-O: bidder seat 0 leads `1-1` or `2-0`; seat 1 holds `1-0`, doubles `2-2`
/// `3-3` and every other two; seat 3 holds `6-1` and no double.
const NELLO: [&str; 4] = [
    "1-1 0-0 2-0 3-0 4-0 5-0 6-0",
    "1-0 2-2 3-3 3-2 4-2 5-2 6-2",
    "2-1 3-1 4-1 4-4 5-1 5-5 6-6",
    "4-3 5-3 5-4 6-1 6-3 6-4 6-5",
];

/// Nel-O the bidder cannot win (doubles own suit): seat 0 holds every blank.
const NELLO_MADE: [&str; 4] = [
    "0-0 1-0 2-0 3-0 4-0 5-0 6-0",
    "6-5 6-4 6-3 1-1 2-2 5-4 5-3",
    "6-6 5-5 4-4 3-3 6-2 6-1 5-2",
    "5-1 4-3 4-2 4-1 3-2 3-1 2-1",
];

/// Sevens: seat 0 holds two of the three 7-pip dominoes, seat 1 the third.
const SEVENS_MIXED: [&str; 4] = [
    "6-1 5-2 6-6 0-0 1-0 1-1 2-0",
    "4-3 6-5 5-5 2-1 3-0 2-2 3-1",
    "3-3 4-4 6-0 4-0 3-2 6-4 5-4",
    "4-2 5-1 5-3 6-2 4-1 5-0 6-3",
];

/// Sevens: seat 0 holds every domino of 7 pips and four of 6 or 8 pips.
const SEVENS_MADE: [&str; 4] = [
    "6-1 5-2 4-3 3-3 4-2 5-1 6-0",
    "6-3 0-0 1-0 1-1 2-0 2-1 2-2",
    "4-4 5-3 6-2 3-2 4-1 5-0 5-4",
    "3-0 3-1 4-0 5-5 6-4 6-5 6-6",
];

/// Plunge: seat 1 holds four doubles and the top sixes; seat 3 (its partner)
/// the other three doubles; seats 0 and 2 no double.
const PLUNGE: [&str; 4] = [
    "6-2 6-1 6-0 5-1 5-0 4-2 4-1",
    "6-6 5-5 4-4 3-3 6-5 6-4 6-3",
    "1-0 2-0 2-1 3-0 3-1 3-2 4-0",
    "2-2 1-1 0-0 5-4 5-3 4-3 5-2",
];

// ---------------------------------------------------------------------------
// Bidding

#[test]
fn bidding_starts_left_of_the_shaker_and_each_seat_bids_exactly_once() {
    for dealer in 0..4u8 {
        let mut s = start(standard(), dealer, SUITS_SIXES);
        assert_eq!(s.hand().phase, Phase::Bidding);
        for i in 1..=3 {
            assert_eq!(s.current_seat(), Some(((dealer + i) % 4) as usize));
            act(&mut s, "pass");
        }
        assert_eq!(s.current_seat(), Some(dealer as usize), "the shaker bids last");
        act(&mut s, "30");
        let h = s.hand();
        assert_eq!(h.phase, Phase::Declaring, "bidding ends after four bids");
        assert_eq!((h.bidder, h.declarer, h.to_move), (dealer, dealer, dealer));
        assert_eq!(h.bid_of(dealer), Some(id("30")));
        assert_legal(&s, TRUMPS);
    }
    // The high bidder declares, whoever bid after it.
    let s = played(standard(), 2, SUITS_SIXES, "30 pass 31 pass");
    let h = s.hand();
    assert_eq!((h.phase, h.bidder, h.declarer), (Phase::Declaring, 1, 1));
    assert_eq!(
        [h.bid_of(3), h.bid_of(0), h.bid_of(1), h.bid_of(2)],
        [Some(id("30")), Some(id("pass")), Some(id("31")), Some(id("pass"))]
    );
    assert_eq!(s.current_seat(), Some(1));
}

#[test]
fn point_bids_must_exceed_the_high_bid() {
    let mut s = start(standard(), 3, SUITS_SIXES);
    assert_legal(&s, &format!("pass {} 1m 2m", point_bids(30, 41)));
    act(&mut s, "32");
    assert_legal(&s, &format!("pass {} 1m 2m", point_bids(33, 41)));
    act(&mut s, "!30 !32 35");
    assert_legal(&s, &format!("pass {} 1m 2m", point_bids(36, 41)));
    act(&mut s, "!35 41 [pass 1m 2m] !41 pass");
    assert_eq!(s.hand().bidder, 2);
    assert_eq!(high_bid(s.hand()), "41");
}

#[test]
fn opening_mark_bids_1m_and_2m_are_allowed_while_the_high_bid_is_below_them() {
    let s = start(standard(), 3, SUITS_SIXES);
    assert_rejects(&s, "3m");
    // 1m and 2m as opening bids, and over any point bid.
    let mut t = s.clone();
    act(&mut t, "41 [pass 1m 2m] 1m [pass 2m] !1m !41 !3m");
    let mut t = s.clone();
    act(&mut t, "pass 2m [pass 3m] !1m");
}

#[test]
fn after_a_2m_high_bid_only_one_more_mark_at_a_time() {
    let s = played(standard(), 3, SUITS_SIXES, "2m [pass 3m] !4m 3m [pass 4m] !5m !2m 4m [pass 5m] !6m 5m");
    let h = s.hand();
    assert_eq!((h.phase, h.bidder, high_bid(h)), (Phase::Declaring, 3, "5m"));
    assert_eq!(bid_marks(h.high_bid as Action), 5);
    // A pass in between does not reopen jumps.
    played(standard(), 3, SUITS_SIXES, "2m pass [pass 3m]");
}

#[test]
fn bid_aliases_42_and_84_are_1m_and_2m() {
    assert_eq!(id("42"), id("1m"));
    assert_eq!(id("84"), id("2m"));
    let mut s = played(standard(), 3, SUITS_SIXES, "42");
    assert_eq!(high_bid(s.hand()), "1m");
    act(&mut s, "84");
    assert_eq!(high_bid(s.hand()), "2m");
    let rec = json!({"game":"texas42","dealer":3,"hands":hands_json(SUITS_SIXES),
                     "actions":["42","84","pass","pass"]});
    let (out, ok) = replay_line(&rec.to_string(), 1);
    assert!(ok, "{out}");
    let r = &out["result"];
    assert_eq!(r["steps"][0]["action"], "1m");
    assert_eq!(r["steps"][1]["action"], "2m");
    assert_eq!((r["bid"].as_str(), r["bidder"].as_u64()), (Some("2m"), Some(1)));
}

#[test]
fn forced_bid_after_three_passes_the_shaker_cannot_pass() {
    // Standard: 30..41, 1m or 2m, but not pass.
    let mut s = played(standard(), 0, SUITS_SIXES, "pass pass pass");
    assert_eq!(s.current_seat(), Some(0));
    assert_legal(&s, &format!("{} 1m 2m", point_bids(30, 41)));
    act(&mut s, "!pass 1m");
    assert_eq!((s.hand().phase, s.hand().bidder), (Phase::Declaring, 0));

    // Full: a forced shaker holding four doubles may also plunge or splash.
    let mut s = played(full(), 1, PLUNGE, "pass pass pass");
    assert_eq!(s.current_seat(), Some(1));
    assert_legal(&s, &format!("{} 1m 2m plunge splash", point_bids(30, 41)));
    act(&mut s, "plunge");
    assert_eq!((s.hand().phase, s.hand().bidder, s.current_seat()), (Phase::Declaring, 1, Some(3)));
    // ... holding three doubles: splash, not plunge (seat 1 passed its plunge).
    let mut s = played(full(), 3, PLUNGE, "pass pass pass");
    assert_eq!(s.current_seat(), Some(3));
    assert_legal(&s, &format!("{} 1m 2m splash", point_bids(30, 41)));
    act(&mut s, "splash");
    assert_eq!((s.hand().bidder, s.hand().declarer), (3, 1));
    // ... holding no double: the ordinary forced bids.
    let s = played(full(), 0, PLUNGE, "pass pass pass");
    assert_legal(&s, &format!("{} 1m 2m", point_bids(30, 41)));
}

#[test]
fn all_pass_redeal_throws_the_hand_in() {
    let r = rules(json!({"all_pass":"redeal"}));
    let mut s = played(r, 0, SUITS_SIXES, "pass pass pass");
    assert_eq!(s.current_seat(), Some(0));
    assert_legal(&s, &format!("pass {} 1m 2m", point_bids(30, 41)));
    act(&mut s, "pass");
    let h = s.hand();
    assert!(s.is_terminal());
    assert_eq!((h.phase, h.outcome), (Phase::Done, Some(Outcome::Redeal)));
    assert_eq!(h.award(), [0, 0]);
    assert_eq!(s.rewards(), [0.0; 4]);
    assert!(s.legal_mask().is_empty());

    let rec = json!({"game":"texas42","rules":{"all_pass":"redeal"},
                     "hands":hands_json(SUITS_SIXES),
                     "actions":["pass","pass","pass","pass"]});
    let (out, ok) = replay_line(&rec.to_string(), 1);
    assert!(ok, "{out}");
    let r = &out["result"];
    assert_eq!((&r["redeal"], &r["done"]), (&json!(true), &json!(true)));
    assert!(r.get("made").is_none() && r.get("marks").is_none() && r.get("bid").is_none(), "{r}");
    // An action after the thrown-in hand is an error.
    let rec = json!({"game":"texas42","rules":{"all_pass":"redeal"},
                     "hands":hands_json(SUITS_SIXES),
                     "actions":["pass","pass","pass","pass","30"]});
    let (out, ok) = replay_line(&rec.to_string(), 1);
    assert!(!ok);
    assert_eq!(out["error"]["index"], 4);
}

// ---------------------------------------------------------------------------
// Declarations

#[test]
fn a_point_bid_declares_only_a_pip_suit_doubles_or_follow_me() {
    for bid in ["30", "41"] {
        let s = played(full(), 3, SUITS_SIXES, &format!("{bid} pass pass pass"));
        assert_legal(&s, TRUMPS);
        assert_rejects(&s, "nel-o");
        assert_rejects(&s, "sevens");
    }
}

#[test]
fn nel_o_needs_a_winning_mark_bid_of_at_least_nello_min_marks() {
    let declare_after = |r: Texas42Rules, bids: &str| {
        let mut s = start(r, 3, SUITS_SIXES);
        act(&mut s, bids);
        s
    };
    // Default 2 marks.
    assert_eq!(full().nello_min_marks, 2);
    assert_legal(&declare_after(full(), "1m pass pass pass"), &format!("{TRUMPS} sevens"));
    assert_legal(&declare_after(full(), "2m pass pass pass"), &format!("{TRUMPS} sevens nel-o"));
    assert_legal(&declare_after(full(), "2m 3m pass pass"), &format!("{TRUMPS} sevens nel-o"));
    // House rule: 1 mark.
    let one = rules(json!({"preset":"full","nello_min_marks":1}));
    assert_legal(&declare_after(one, "1m pass pass pass"), &format!("{TRUMPS} sevens nel-o"));
    assert_legal(&declare_after(one, "41 pass pass pass"), TRUMPS);
    // 3 marks.
    let three = rules(json!({"preset":"full","nello_min_marks":3}));
    assert_legal(&declare_after(three, "2m pass pass pass"), &format!("{TRUMPS} sevens"));
    assert_legal(&declare_after(three, "2m 3m pass pass"), &format!("{TRUMPS} sevens nel-o"));
}

#[test]
fn sevens_may_be_declared_after_any_winning_mark_bid() {
    for bids in ["1m pass pass pass", "2m pass pass pass", "pass 1m 2m 3m"] {
        let mut s = start(full(), 3, SUITS_SIXES);
        act(&mut s, bids);
        assert!(legal(&s).contains(&"sevens"), "{bids}: {:?}", legal(&s));
        act(&mut s, "sevens");
        assert_eq!(s.hand().phase, Phase::Playing);
    }
}

#[test]
fn no_nel_o_or_sevens_after_a_winning_plunge_or_splash() {
    for special in ["plunge", "splash"] {
        let s = played(full(), 0, PLUNGE, &format!("{special} pass pass pass"));
        let h = s.hand();
        assert_eq!((h.bidder, h.declarer, s.current_seat()), (1, 3, Some(3)), "{special}: the partner declares");
        assert_legal(&s, TRUMPS);
        assert_rejects(&s, "nel-o");
        assert_rejects(&s, "sevens");
    }
}

#[test]
fn a_plunge_outbid_by_an_ordinary_mark_bid_allows_nel_o_and_sevens() {
    let s = played(full(), 0, PLUNGE, "plunge 5m pass pass");
    let h = s.hand();
    assert_eq!((h.bidder, h.declarer, s.current_seat()), (2, 2, Some(2)), "the 5m bidder declares itself");
    assert_legal(&s, &format!("{TRUMPS} nel-o sevens"));
    // Likewise a splash outbid by 4m.
    let s = played(full(), 0, PLUNGE, "splash pass 4m pass");
    assert_eq!(s.current_seat(), Some(3));
    assert_legal(&s, &format!("{TRUMPS} nel-o sevens"));
}

#[test]
fn special_declarations_only_when_their_variant_is_enabled() {
    let after_2m = |r: Texas42Rules| played(r, 3, SUITS_SIXES, "2m pass pass pass");
    assert_legal(&after_2m(standard()), TRUMPS);
    assert_legal(&after_2m(rules(json!({"variants":["sevens"]}))), &format!("{TRUMPS} sevens"));
    assert_legal(&after_2m(rules(json!({"variants":["nel-o"]}))), &format!("{TRUMPS} nel-o"));
    assert_legal(&after_2m(rules(json!({"variants":["plunge","splash"]}))), TRUMPS);
    assert_legal(&after_2m(rules(json!({"preset":"full","variants":[]}))), TRUMPS);
}

// ---------------------------------------------------------------------------
// Suits, following and winning a trick

#[test]
fn a_trump_belongs_only_to_trump_six_five_does_not_follow_a_led_five() {
    let mut s = played(standard(), 3, SUITS_SIXES, "30 pass pass pass sixes 5-4");
    // Seat 1's only domino with a five is 6-5, a trump: void in fives.
    act(&mut s, "[6-5 6-0 4-4 4-0 3-0 2-0 1-0] 6-5");
    // Seat 2 holds 5-1 (a five) and 6-6 (a trump): must play 5-1.
    act(&mut s, "[5-1] 5-1 [5-5 5-0 5-2 5-3] 5-5");
    let h = s.hand();
    assert_eq!(trick_winner(h, 0), 1, "a trump beats the highest five");
    assert_eq!(h.tricks[0].points, 11);
    assert_eq!(h.points, [0, 11]);
    assert_eq!(s.current_seat(), Some(1), "the trick winner leads the next");
}

#[test]
fn a_led_trump_calls_trump_whatever_its_higher_end() {
    // Threes trump: 6-3 led is a trump lead, not a six.
    let mut s = start(standard(), 3, SUITS_SIXES);
    // Seat 1 holds 6-5 and 6-0 but only 3-0 is a three.
    act(&mut s, "30 pass pass pass threes 6-3 [3-0] 3-0 [4-3 3-2 3-1] 3-2 [5-3] 5-3");
    assert_eq!(trick_winner(s.hand(), 0), 0, "6-3 is the highest three played");
    // Sixes trump, a six led: the trumps follow, 6-6 included.
    let s = played(
        standard(),
        3,
        SUITS_SIXES,
        "30 pass pass pass sixes 6-2 [6-5 6-0] 6-0 [6-6] 6-6 [5-5 5-0 5-2 5-3 2-1 1-1 0-0] 5-5",
    );
    assert_eq!(trick_winner(s.hand(), 0), 2, "6-6 is the highest trump");
}

#[test]
fn a_non_trump_domino_follows_both_of_its_numbers() {
    let s = played(standard(), 3, SUITS_FOLLOW_ME, "30 pass pass pass follow-me");
    // 4-2 calls fours: 5-4 is seat 1's only four.
    // 4-4 is the highest four.
    first_trick(&s, "4-2 [5-4] 5-4 [4-4 4-3 4-1 4-0] 4-4 [6-4] 6-4", 2);
    // 5-0 calls fives: 5-4 is seat 1's only five too.
    // 5-5 beats 6-5 and 5-4 in fives.
    let t = first_trick(&s, "5-0 [5-4] 5-4 [5-5] 5-5 [5-1 5-2 5-3 6-5] 6-5", 2);
    assert_eq!(t.hand().tricks[0].points, 1 + 5 + 10);
}

#[test]
fn holding_only_the_lower_end_of_the_led_domino_is_void() {
    for trump in ["follow-me", "sixes"] {
        let mut s = played(standard(), 3, LOWER_END, &format!("30 pass pass pass {trump} 6-1"));
        // Seat 1 holds 1-1, 2-1, 3-1, 4-1, 5-1, 1-0 but no six: 6-1 calls sixes only.
        act(&mut s, "[1-1 2-1 3-1 4-1 5-1 1-0 3-3] 1-1 [6-0 6-2 6-3] 6-0 [6-4 6-5 6-6] 6-4");
        let h = s.hand();
        assert_eq!(trick_winner(h, 0), 3, "{trump}: 6-4 wins; 1-1 is off-suit");
        assert_eq!(h.points, [0, 11]);
    }
}

#[test]
fn doubles_trump_any_led_double_is_trump_and_doubles_belong_only_to_trump() {
    let s = played(standard(), 3, DOUBLES_TRUMP, "30 pass pass pass doubles");
    // A led double calls doubles (trump), not its number.
    // Seat 1 must play 2-2 (not 5-4, 5-2, 6-x); seat 2, no double, is void;
    // 6-6 is the highest double.
    first_trick(&s, "6-6 [2-2] 2-2 [5-1 5-0 4-1 4-2 4-3 3-1 3-2] 5-0 [5-5 1-1 3-3 4-4] 5-5", 0);
    // Doubles rank 6-6 high down to 0-0: 2-2 beats 1-1 and 0-0.
    first_trick(&s, "0-0 2-2 4-3 1-1", 1);
    // A non-double calls its higher end; 5-5 is not a five: seat 3 must play
    // 5-5, its only domino with a five, and it trumps the fives.
    let t = first_trick(&s, "5-3 [5-4 5-2 6-5] 6-5 [5-1 5-0] 5-0 [5-5 1-1 2-1 3-3 4-4 6-4 6-3] 5-5", 3);
    assert_eq!(t.hand().points, [0, 16]);
}

#[test]
fn follow_me_has_no_trump_and_a_double_is_the_highest_of_its_suit() {
    let s = played(standard(), 3, SUITS_FOLLOW_ME, "30 pass pass pass follow-me");
    // 6-6 calls sixes and is their highest.
    // Seat 2 is void; 6-6 beats 6-5; 5-5 is off-suit.
    first_trick(&s, "6-6 [6-3 6-2 6-1] 6-3 [4-4 4-3 4-1 4-0 5-5 2-1 2-0] 5-5 [6-0 6-4 6-5] 6-5", 0);
    // A double in a pip suit: 3-3 leads threes and nothing trumps it.
    first_trick(&s, "3-3 [6-3 3-2 3-1 3-0] 6-3 4-3 5-3", 0);
}

#[test]
fn rank_within_a_suit_is_the_double_then_the_other_end_high_to_low() {
    let s = played(standard(), 3, SUITS_FOLLOW_ME, "30 pass pass pass follow-me");
    let mut h = *s.hand();
    // Threes: 3-3, 6-3, 5-3, 4-3, 3-2, 3-1, 3-0 (under blanks 3-0 is a trump).
    let threes = ["3-3", "6-3", "5-3", "4-3", "3-2", "3-1", "3-0"].map(dom);
    for (decl, order) in [("follow-me", &threes[..]), ("blanks", &threes[..6])] {
        h.declaration = id(decl) as u8;
        // The lowest of them leads threes; every other three beats it.
        let (led, rest) = order.split_last().unwrap();
        for (i, hi) in rest.iter().enumerate() {
            assert_eq!(h.winning_play(&[*led, *hi]), 1, "{decl}: {hi} beats the led {led}");
            for lo in &rest[i + 1..] {
                assert_eq!(h.winning_play(&[*led, *lo, *hi]), 2, "{decl}: {hi} > {lo}");
                assert_eq!(h.winning_play(&[*led, *hi, *lo]), 1, "{decl}: {hi} > {lo}");
            }
        }
    }
    // Trumps: sixes 6-6 high down to 6-0; doubles 6-6 down to 0-0.
    let sixes = ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"].map(dom);
    let doubles = ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"].map(dom);
    for (decl, order) in [("sixes", sixes), ("doubles", doubles)] {
        h.declaration = id(decl) as u8;
        for i in 0..7 {
            for j in i + 1..7 {
                assert_eq!(h.winning_play(&[order[j], order[i]]), 1, "{decl}: {} > {}", order[i], order[j]);
                assert_eq!(h.winning_play(&[order[i], order[j]]), 0, "{decl}: {} > {}", order[i], order[j]);
            }
        }
    }
}

#[test]
fn trumps_beat_everything_and_off_suit_never_wins() {
    let mut h = {
        let s = played(standard(), 3, SUITS_FOLLOW_ME, "30 pass pass pass follow-me");
        *s.hand()
    };
    // Sixes trump: the lowest trump beats the highest five.
    h.declaration = id("sixes") as u8;
    assert_eq!(h.winning_play(&[dom("5-5"), dom("5-4"), dom("6-0"), dom("4-4")]), 2);
    // Among several trumps the highest wins.
    assert_eq!(h.winning_play(&[dom("5-0"), dom("6-1"), dom("6-6"), dom("6-5")]), 2);
    // Off-suit dominoes never win: 2-0 leads twos, the higher off-suit lose.
    for decl in ["follow-me", "fives", "doubles"] {
        h.declaration = id(decl) as u8;
        let lead = if decl == "doubles" { "2-1" } else { "2-0" };
        assert_eq!(h.winning_play(&[dom(lead), dom("4-3"), dom("6-4"), dom("4-1")]), 0, "{decl}");
    }
    // Under fives the lowest trump 5-0 beats a led 6-6; under follow-me 5-5 is off-suit on a six.
    h.declaration = id("fives") as u8;
    assert_eq!(h.winning_play(&[dom("6-6"), dom("5-0")]), 1);
    h.declaration = id("follow-me") as u8;
    assert_eq!(h.winning_play(&[dom("6-0"), dom("5-5"), dom("4-4")]), 0);
    // Through the engine: with no trump, the highest two wins a led 2-0.
    let mut s = start(standard(), 3, LOWER_END);
    // 2-1 is seat 1's only two.
    act(&mut s, "30 pass pass pass follow-me 2-0 [2-1] 2-1 [6-2 3-2 4-2] 3-2 [5-2] 5-2");
    assert_eq!(trick_winner(s.hand(), 0), 3);
}

// ---------------------------------------------------------------------------
// Nel-O

#[test]
fn nel_o_partner_sits_out_the_bidder_leads_and_made_when_the_bidder_wins_no_trick() {
    let mut s = played(full(), 3, NELLO_MADE, "2m pass pass pass nel-o");
    let h = s.hand();
    assert_eq!((h.phase, s.current_seat(), h.tricks[0].leader), (Phase::Playing, Some(0), 0), "the bidder leads");
    assert_eq!(h.trick_size(), 3);
    act(&mut s, "6-0");
    assert_eq!(s.current_seat(), Some(1));
    act(&mut s, "[6-5 6-4 6-3] 6-3");
    assert_eq!(s.current_seat(), Some(3), "the partner (seat 2) is skipped");
    while !s.is_terminal() {
        assert_ne!(s.current_seat(), Some(2), "the bidder's partner never plays");
        s.apply(first_legal(&s)).unwrap();
    }
    let h = s.hand();
    assert_eq!(h.trick, 7, "all seven tricks are played");
    for t in &h.tricks {
        assert_eq!(t.len, 3, "Nel-O tricks have three dominoes");
        assert_ne!(t.winner, 0);
    }
    assert_eq!(h.hands[2], h.dealt[2], "the partner keeps its seven dominoes");
    assert!(h.hands[0].is_empty() && h.hands[1].is_empty() && h.hands[3].is_empty());
    assert_eq!(h.tricks_won[0], 0);
    assert!(made(h));
    assert_eq!(h.award(), [2, 0]);
    assert_eq!(s.rewards(), [2.0, -2.0, 2.0, -2.0]);
}

#[test]
fn nel_o_is_set_on_the_first_trick_the_bidder_wins_with_early_end() {
    let r = rules(json!({"preset":"full","nello_doubles":"high"}));
    let s = played(r, 3, NELLO, "2m pass pass pass nel-o 1-1 1-0 6-1");
    let h = s.hand();
    assert_eq!(trick_winner(h, 0), 0);
    assert!(s.is_terminal(), "the hand ends on the bidder's first trick");
    assert_eq!(h.trick, 1);
    assert!(!made(h));
    assert_eq!(h.award(), [0, 2]);
}

#[test]
fn nel_o_without_early_end_plays_all_seven_tricks_and_is_still_set() {
    let r = rules(json!({"preset":"full","nello_doubles":"high","early_end":false}));
    let mut s = played(r, 3, NELLO, "2m pass pass pass nel-o 1-1 1-0 6-1");
    assert!(!s.is_terminal());
    assert_eq!(s.current_seat(), Some(0));
    play_out(&mut s);
    let h = s.hand();
    assert_eq!(h.trick, 7);
    assert!(h.tricks.iter().all(|t| t.len == 3));
    assert!(!made(h));
    assert_eq!(h.award(), [0, 2]);
    // Also when the bidder's only won trick is a later one.
    let r = rules(json!({"preset":"full","early_end":false}));
    let mut s = start(r, 3, NELLO);
    act(&mut s, "2m pass pass pass nel-o 2-0 6-2 6-1"); // seat 1 wins with 6-2
    assert_eq!(trick_winner(s.hand(), 0), 1);
    play_out(&mut s);
    let h = s.hand();
    assert_eq!(h.trick, 7);
    assert_eq!(made(h), h.tricks_won[0] == 0);
}

#[test]
fn nel_o_doubles_own_suit_a_led_double_calls_the_doubles_and_only_doubles_follow() {
    let r = full();
    assert_eq!(r.nello_doubles, bones_env::NelloDoubles::OwnSuit, "own-suit is the default");
    let s = played(r, 3, NELLO, "2m pass pass pass nel-o");
    // Seat 1 holds 1-0 but only doubles follow; seat 3 has no double; 3-3
    // beats 1-1 in the doubles suit.
    let t = first_trick(&s, "1-1 [2-2 3-3] 3-3 [4-3 5-3 5-4 6-1 6-3 6-4 6-5] 6-1", 1);
    assert!(!t.is_terminal());
    // A double does not follow its number: 2-0 leads twos, 2-2 is not a two.
    // No trump in Nel-O: 6-5 is off-suit.
    first_trick(&s, "2-0 [3-2 4-2 5-2 6-2] 6-2 6-5", 1);
    // 6-6 is the highest double.
    let h = *s.hand();
    assert_eq!(h.winning_play(&[dom("5-5"), dom("6-6"), dom("0-0")]), 1);
    assert_eq!(h.winning_play(&[dom("6-0"), dom("6-6")]), 0, "6-6 is not a six");
}

#[test]
fn nel_o_doubles_high_a_double_is_the_highest_of_its_number() {
    let r = rules(json!({"preset":"full","nello_doubles":"high"}));
    let s = played(r, 3, NELLO, "2m pass pass pass nel-o");
    // 1-1 calls ones, and is the highest one.
    first_trick(&s, "1-1 [1-0] 1-0 [6-1] 6-1", 0);
    // 2-2 follows twos, and is the highest two.
    first_trick(&s, "2-0 [2-2 3-2 4-2 5-2 6-2] 2-2 6-5", 1);
}

#[test]
fn nel_o_doubles_low_a_double_is_the_lowest_of_its_number() {
    let r = rules(json!({"preset":"full","nello_doubles":"low"}));
    let s = played(r, 3, NELLO, "2m pass pass pass nel-o");
    // 1-1 is the lowest one: 6-1 wins.
    let t = first_trick(&s, "1-1 [1-0] 1-0 [6-1] 6-1", 3);
    assert!(!t.is_terminal());
    assert_eq!(t.hand().winning_play(&[dom("1-1"), dom("1-0")]), 1, "even 1-0 beats 1-1");
    // 2-0 beats 2-2.
    let t = first_trick(&s, "2-0 [2-2 3-2 4-2 5-2 6-2] 2-2 6-5", 0);
    assert!(t.is_terminal(), "the bidder won a trick: set");
    assert!(!made(t.hand()));
}

// ---------------------------------------------------------------------------
// Sevens

#[test]
fn sevens_every_player_plays_a_domino_closest_to_seven_and_the_closest_wins_ties_to_the_first() {
    let mut s = played(full(), 3, SEVENS_MIXED, "1m pass pass pass sevens");
    assert_eq!(s.current_seat(), Some(0), "the bidder leads");
    // Trick 1: choice among the equals 6-1 and 5-2 (7 pips); seat 2 holds
    // none of 7 pips, so those of 6 or 8.
    act(&mut s, "[6-1 5-2] 6-1 [4-3] 4-3 [3-3 4-4 6-0] 3-3 [4-2 5-1 5-3 6-2] 4-2");
    assert_eq!(trick_winner(s.hand(), 0), 0, "6-1 and 4-3 tie: the first played wins");
    // Trick 2: seat 1's closest are 3 away (6-5, 2-1, 3-0 are 4 away).
    act(&mut s, "[5-2] 5-2 [5-5 2-2 3-1] 5-5 4-4 5-3");
    assert_eq!(trick_winner(s.hand(), 1), 0);
    // Trick 3: the leader is farthest; 6-0 and 6-2 tie at 1 away: 6-0 came first.
    act(&mut s, "[6-6 1-1 2-0] 2-0 [2-2 3-1] 3-1 [6-0] 6-0 [5-1 6-2] 6-2");
    assert_eq!(trick_winner(s.hand(), 2), 2, "the closest wins, not the leader");
    // Trick 4: led by seat 2; seat 3's 5-1 (1 away) beats 3-2 (2 away).
    assert_eq!(s.current_seat(), Some(2));
    act(&mut s, "[3-2 5-4] 3-2 [5-1] 5-1 [6-6 1-1] 1-1 [2-2] 2-2");
    let h = s.hand();
    assert_eq!(trick_winner(h, 3), 3);
    // The defenders won a trick: the bidders (who must win all 7) are set.
    assert!(s.is_terminal());
    assert_eq!(h.trick, 4);
    assert_eq!(h.points, [13, 6]);
    assert!(!made(h));
    assert_eq!(h.award(), [0, 1]);
}

#[test]
fn sevens_bidders_must_win_all_seven_tricks() {
    let mut s = played(full(), 3, SEVENS_MADE, "1m pass pass pass sevens");
    while !s.is_terminal() {
        // Every legal play is a domino of the hand closest to 7.
        let h = s.hand();
        let held = h.hands[h.to_move as usize];
        let best = held.iter().map(sevens_distance).min().unwrap();
        let want: DominoSet = held.iter().filter(|d| sevens_distance(*d) == best).collect();
        assert_eq!(s.legal_mask().0, want.0 as u64, "seat {}", h.to_move);
        s.apply(first_legal(&s)).unwrap();
    }
    let h = s.hand();
    assert_eq!(h.trick, 7);
    assert!(h.tricks.iter().all(|t| t.winner == 0));
    assert!(made(h));
    assert_eq!(h.award(), [1, 0]);
    // Without early end a sevens contract set on trick 4 still plays all 7.
    let r = rules(json!({"preset":"full","early_end":false}));
    let mut s = played(
        r,
        3,
        SEVENS_MIXED,
        "1m pass pass pass sevens 6-1 4-3 3-3 4-2 5-2 5-5 4-4 5-3 2-0 3-1 6-0 6-2 3-2 5-1 1-1 2-2",
    );
    assert!(!s.is_terminal());
    play_out(&mut s);
    assert_eq!(s.hand().trick, 7);
    assert!(!made(s.hand()));
    assert_eq!(s.hand().award(), [0, 1]);
}

// ---------------------------------------------------------------------------
// Plunge and Splash

#[test]
fn plunge_needs_four_doubles_splash_three_and_both_come_before_any_other_bid() {
    let ordinary = format!("pass {} 1m 2m", point_bids(30, 41));
    let s = start(full(), 0, PLUNGE);
    assert_eq!(s.current_seat(), Some(1));
    assert_legal(&s, &format!("{ordinary} plunge splash")); // four doubles
    let mut t = s.clone();
    act(&mut t, "pass");
    assert_legal(&t, &ordinary); // seat 2: no double
    act(&mut t, "pass");
    assert_legal(&t, &format!("{ordinary} splash")); // seat 3: three doubles
                                                     // After any non-pass bid, neither.
    let mut t = s.clone();
    act(&mut t, "30 pass");
    assert_legal(&t, &format!("pass {} 1m 2m", point_bids(31, 41)));
    let mut t = s.clone();
    act(&mut t, "pass 1m [pass 2m]");
    // Not without the variants.
    assert_legal(&start(standard(), 0, PLUNGE), &ordinary);
    assert_legal(&start(rules(json!({"variants":["splash"]})), 0, PLUNGE), &format!("{ordinary} splash"));
    assert_legal(&start(rules(json!({"variants":["plunge"]})), 0, PLUNGE), &format!("{ordinary} plunge"));
}

#[test]
fn plunge_is_outbid_only_by_5m_and_splash_only_by_4m() {
    let s = played(full(), 0, PLUNGE, "plunge [pass 5m] !4m !6m 5m [pass 6m] 6m [pass 7m] 7m");
    assert_eq!((s.hand().bidder, high_bid(s.hand())), (0, "7m"));
    assert_legal(&s, &format!("{TRUMPS} nel-o sevens"));
    let s = played(full(), 0, PLUNGE, "splash [pass 4m] !3m !5m pass pass 4m");
    assert_eq!((s.hand().bidder, s.current_seat()), (0, Some(0)));
}

#[test]
fn plunge_is_a_4_mark_bid_and_the_partner_declares_and_leads() {
    let mut s = played(full(), 0, PLUNGE, "plunge pass pass pass");
    let h = s.hand();
    assert_eq!((h.bidder, h.declarer, s.current_seat()), (1, 3, Some(3)));
    assert_eq!(bid_marks(h.high_bid as Action), 4);
    act(&mut s, "doubles");
    assert_eq!((s.hand().tricks[0].leader, s.current_seat()), (3, Some(3)), "the partner leads");
    act(&mut s, "2-2");
    play_out(&mut s);
    let h = s.hand();
    assert_eq!(h.trick, 7);
    assert!(h.tricks.iter().all(|t| team(t.winner) == 1));
    assert!(made(h));
    assert_eq!(h.award(), [0, 4]);
    // The record names the plunger as bidder.
    let rec = json!({"game":"texas42","rules":{"preset":"full"},"dealer":0,
                     "hands":hands_json(PLUNGE),
                     "actions":["plunge","pass","pass","pass","doubles","2-2"]});
    let (out, ok) = replay_line(&rec.to_string(), 1);
    assert!(ok, "{out}");
    let r = &out["result"];
    assert_eq!((&r["bid"], &r["bidder"], &r["trump"]), (&json!("plunge"), &json!(1), &json!("doubles")));
    assert_eq!(r["tricks"][0]["leader"], 3);
    // Set: a splash that loses a trick gives the defenders 3 marks.
    let mut s = start(full(), 2, PLUNGE);
    act(&mut s, "splash pass pass pass"); // seat 3 splashes, seat 1 declares
    assert_eq!((s.hand().bidder, s.current_seat()), (3, Some(1)));
    // Seat 2, void in sixes, trumps with 2-0; seat 0 may not play 6-0, a
    // blank (trump), not a six.
    act(&mut s, "blanks 6-6 2-0 5-4 [6-2 6-1] 6-1");
    assert!(s.is_terminal(), "the defenders won a trick");
    assert_eq!(trick_winner(s.hand(), 0), 2);
    assert_eq!(s.hand().award(), [3, 0]);
}

// ---------------------------------------------------------------------------
// Early end

/// Whether docs/rules.md's early end (or the seventh trick) ends the hand now.
fn rules_say_stop(h: &Hand) -> bool {
    let n = h.trick as usize;
    if n == 7 {
        return true;
    }
    if !h.rules.early_end || h.rules.scoring == Scoring::Points {
        return false;
    }
    let us = team(h.bidder);
    let done = &h.tricks[..n];
    if declaration(h) == "nel-o" {
        return done.iter().any(|t| t.winner == h.bidder);
    }
    match high_bid(h).parse::<u32>() {
        Ok(b) => {
            let pts =
                |side: usize| done.iter().filter(|t| team(t.winner) == side).map(|t| t.points as u32).sum::<u32>();
            pts(us) >= b || pts(1 - us) > 42 - b
        }
        Err(_) => done.iter().any(|t| team(t.winner) != us),
    }
}

#[test]
fn early_end_point_bid_stops_once_the_bidders_reach_the_bid() {
    let mut s = played(standard(), 3, MIXED, "30 pass pass pass sixes");
    act(&mut s, MIXED_PLAY_FAST[0]);
    act(&mut s, MIXED_PLAY_FAST[1]);
    assert_eq!(s.hand().points, [27, 0]);
    assert!(!s.is_terminal());
    act(&mut s, MIXED_PLAY_FAST[2]);
    let h = s.hand();
    assert_eq!(h.points, [38, 0]);
    assert!(s.is_terminal(), "38 >= 30: made");
    assert_eq!(h.trick, 3);
    assert!(made(h));
    assert_eq!(h.award(), [1, 0]);
    // The slower play reaches 30 only on the sixth trick.
    let mut s = played(standard(), 3, MIXED, "30 pass pass pass sixes");
    for (t, want) in [1, 12, 23, 24, 25].into_iter().enumerate() {
        act(&mut s, MIXED_PLAY[t]);
        assert_eq!(s.hand().points, [want, 0]);
        assert!(!s.is_terminal());
    }
    act(&mut s, MIXED_PLAY[5]);
    assert!(s.is_terminal());
    assert_eq!((s.hand().trick, s.hand().points), (6, [31, 0]));
    assert!(made(s.hand()));
}

#[test]
fn early_end_point_bid_stops_once_the_defenders_exceed_42_minus_the_bid() {
    // Bid 41: the defenders may take 1 point; the second point sets it.
    let mut s = played(standard(), 3, SIXES_WITH_DEFENDER, "41 pass pass pass sixes 4-4 6-0 4-0 0-0");
    assert_eq!((trick_winner(s.hand(), 0), s.hand().points), (1, [0, 1]));
    assert!(!s.is_terminal(), "1 point is not more than 42 - 41");
    act(&mut s, "6-1 3-1 1-0 5-0");
    let h = s.hand();
    assert_eq!((h.trick, h.points), (2, [0, 7]));
    assert!(s.is_terminal());
    assert!(!made(h));
    assert_eq!(h.award(), [0, 1]);
    // Bid 30: the defenders need 13.
    let mut s = played(standard(), 3, SIXES_WITH_DEFENDER, "30 pass pass pass sixes 4-4 6-0 4-0 0-0 6-1 3-1 1-0 5-0");
    assert!(!s.is_terminal(), "7 is not more than 12");
    act(&mut s, "6-2 3-2 2-0 5-1");
    assert_eq!((s.hand().trick, s.hand().points), (3, [0, 13]));
    assert!(s.is_terminal());
    assert!(!made(s.hand()));
}

#[test]
fn early_end_mark_bid_stops_once_the_defenders_win_a_trick() {
    let s = played(standard(), 3, SIXES_WITH_DEFENDER, "1m pass pass pass sixes 4-4 6-0 4-0 0-0");
    let h = s.hand();
    assert!(s.is_terminal());
    assert_eq!((h.trick, h.points), (1, [0, 1]));
    assert!(!made(h));
    assert_eq!(h.award(), [0, 1]);
    // A mark bid being made plays all seven tricks (MIXED: the defenders win the last).
    let mut s = played(standard(), 3, MIXED, "2m pass pass pass sixes");
    for (t, trick) in MIXED_PLAY.iter().enumerate() {
        assert!(!s.is_terminal(), "trick {t}");
        act(&mut s, trick);
    }
    let h = s.hand();
    assert!(s.is_terminal());
    assert_eq!((h.trick, h.points), (7, [31, 11]));
    assert!(!made(h));
    assert_eq!(h.award(), [0, 2]);
}

#[test]
fn early_end_off_plays_all_seven_tricks() {
    let off = rules(json!({"early_end":false}));
    let mut s = played(off, 3, SIXES_WITH_DEFENDER, "1m pass pass pass sixes 4-4 6-0 4-0 0-0");
    assert!(!s.is_terminal());
    play_out(&mut s);
    let h = s.hand();
    assert_eq!((h.trick, h.points), (7, [0, 42]));
    assert!(!made(h));
    assert_eq!(h.award(), [0, 1]);
    let mut s = played(off, 3, MIXED, "30 pass pass pass sixes");
    for trick in MIXED_PLAY_FAST {
        assert!(!s.is_terminal());
        act(&mut s, trick);
    }
    let h = s.hand();
    assert_eq!((h.trick, h.points), (7, [41, 1]));
    assert!(made(h));
    assert_eq!(h.award(), [1, 0]);
}

#[test]
fn early_end_stops_exactly_when_the_result_is_settled_in_random_hands() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut stopped_early = 0;
    for (i, r) in [standard(), full(), rules(json!({"preset":"full","nello_doubles":"low"}))].into_iter().enumerate() {
        let game = Texas42::new(r);
        for seed in 0..150u64 {
            let mut s = game.from_seed((seed % 4) as u8, seed * 7 + i as u64, Episode::Hand);
            while !s.is_terminal() {
                let before = s.hand().trick;
                s.apply(rng.pick(&s)).unwrap();
                if s.hand().trick != before {
                    assert_eq!(s.is_terminal(), rules_say_stop(s.hand()), "seed {seed}, rules {i}, trick {before}");
                }
            }
            let h = s.hand();
            stopped_early += usize::from(h.trick < 7);
            let winners = &h.tricks[..h.trick as usize];
            let us = team(h.bidder);
            let want = if declaration(h) == "nel-o" {
                winners.iter().all(|t| t.winner != h.bidder)
            } else if let Ok(b) = high_bid(h).parse::<u8>() {
                h.points[us] >= b
            } else {
                winners.iter().all(|t| team(t.winner) == us)
            };
            assert_eq!(made(h), want, "seed {seed}, rules {i}");
        }
    }
    assert!(stopped_early > 100, "early end exercised ({stopped_early})");
}

#[test]
fn points_scoring_never_stops_early() {
    let pts = rules(json!({"scoring":"points"}));
    assert!(pts.early_end, "early_end stays on, but does not apply");
    let mut s = played(pts, 3, MIXED, "30 pass pass pass sixes");
    for trick in MIXED_PLAY_FAST {
        assert!(!s.is_terminal());
        act(&mut s, trick);
    }
    assert!(s.is_terminal());
    assert_eq!(s.hand().trick, 7);
    let mut s = played(pts, 3, SIXES_WITH_DEFENDER, "1m pass pass pass sixes 4-4 6-0 4-0 0-0");
    assert!(!s.is_terminal(), "a mark bid set on trick 1 still plays on");
    play_out(&mut s);
    assert_eq!(s.hand().trick, 7);
}

// ---------------------------------------------------------------------------
// Scoring

/// A bid, the deal, the tricks to play before the first legal plays, the award.
type ScoreCase = (&'static str, [&'static str; 4], &'static [&'static str], [u32; 2]);

fn scored(r: Texas42Rules, hands: [&str; 4], actions: &str, tricks: &[&str]) -> Hand {
    let mut s = start(r, 3, hands);
    act(&mut s, actions);
    for t in tricks {
        if !s.is_terminal() {
            act(&mut s, t);
        }
    }
    play_out(&mut s);
    *s.hand()
}

#[test]
fn marks_scoring_made_gives_the_bidders_the_bids_marks_and_set_gives_them_to_the_defenders() {
    let all_sixes = rotate(SIXES_WITH_DEFENDER, 3); // seat 0 holds the sixes
    let cases: [ScoreCase; 7] = [
        ("30", MIXED, &MIXED_PLAY_FAST, [1, 0]),
        ("41", MIXED, &MIXED_PLAY_FAST, [1, 0]),
        ("1m", all_sixes, &[], [1, 0]),
        ("2m", all_sixes, &[], [2, 0]),
        ("30", SIXES_WITH_DEFENDER, &[], [0, 1]),
        ("2m", SIXES_WITH_DEFENDER, &[], [0, 2]),
        ("2m", MIXED, &MIXED_PLAY, [0, 2]),
    ];
    for (bid, hands, tricks, award) in cases {
        let h = scored(standard(), hands, &format!("{bid} pass pass pass sixes"), tricks);
        assert_eq!(h.award(), award, "bid {bid}");
        assert_eq!(made(&h), award[0] > 0, "bid {bid}");
    }
    // Seat 1 (team 1) bids 2m and makes it: the marks go to team 1.
    let mut s = played(standard(), 0, SIXES_WITH_DEFENDER, "2m pass pass pass sixes");
    play_out(&mut s);
    assert_eq!((s.hand().bidder, s.hand().award()), (1, [0, 2]));
    assert_eq!(s.rewards(), [-2.0, 2.0, -2.0, 2.0]);
}

#[test]
fn points_scoring_bid_under_42_made_each_team_scores_its_points() {
    let pts = rules(json!({"scoring":"points"}));
    let h = scored(pts, MIXED, "30 pass pass pass sixes", &MIXED_PLAY);
    assert_eq!(h.points, [31, 11]);
    assert!(made(&h));
    assert_eq!(h.award(), [31, 11]);
    let h = scored(pts, MIXED, "41 pass pass pass sixes", &MIXED_PLAY_FAST);
    assert_eq!(h.award(), [41, 1]);
}

#[test]
fn points_scoring_bid_under_42_set_bidders_score_0_defenders_their_points_plus_the_bid() {
    let pts = rules(json!({"scoring":"points"}));
    let h = scored(pts, MIXED, "32 pass pass pass sixes", &MIXED_PLAY);
    assert_eq!(h.points, [31, 11]);
    assert!(!made(&h));
    assert_eq!(h.award(), [0, 11 + 32]);
    let h = scored(pts, SIXES_WITH_DEFENDER, "30 pass pass pass sixes", &[]);
    assert_eq!(h.points, [0, 42]);
    assert_eq!(h.award(), [0, 42 + 30]);
}

#[test]
fn points_scoring_bid_of_42_or_more_scores_42_per_mark_to_the_winning_side() {
    let pts = rules(json!({"scoring":"points"}));
    let all_sixes = rotate(SIXES_WITH_DEFENDER, 3);
    assert_eq!(scored(pts, all_sixes, "1m pass pass pass sixes", &[]).award(), [42, 0]);
    assert_eq!(scored(pts, all_sixes, "2m pass pass pass sixes", &[]).award(), [84, 0]);
    assert_eq!(scored(pts, all_sixes, "2m 3m pass pass sixes", &[]).award(), [126, 0], "seat 1 bid 3m, set");
    let h = scored(pts, MIXED, "1m pass pass pass sixes", &MIXED_PLAY);
    assert_eq!((h.points, h.award()), ([31, 11], [0, 42]), "set on the last trick");
}

// ---------------------------------------------------------------------------
// Whole game

/// Plays a seeded whole game: hand k is thrown in when k % 4 == 0 (all pass),
/// otherwise the first bidder bids 2m (k % 4 == 1) or 30 and the others pass;
/// then the first legal declaration and plays. Returns the actions and the
/// finished hands.
fn play_game(game: Texas42, seed: u64) -> (Texas42State, Vec<&'static str>, Vec<Hand>) {
    let mut s = game.from_seed(game.dealer, seed, Episode::Game);
    let (mut actions, mut finished) = (Vec::new(), Vec::new());
    while !s.is_terminal() {
        let h = s.hand();
        let k = s.hands_played();
        let a = match (h.phase, h.num_bids, k % 4) {
            (Phase::Bidding, 0, 1) => id("2m"),
            (Phase::Bidding, 0, 2 | 3) => id("30"),
            (Phase::Bidding, _, _) => id("pass"),
            _ => first_legal(&s),
        };
        actions.push(NAMES_42[a]);
        s.apply(a).unwrap();
        if s.hands_played() > k {
            finished.push(s.previous_hand().copied().unwrap_or(*s.hand()));
            assert_eq!(s.hands_played() as usize, finished.len());
        }
        if !s.is_terminal() {
            assert_eq!(s.rewards(), [0.0; 4], "no reward before the game ends");
        }
    }
    (s, actions, finished)
}

#[test]
fn a_whole_game_to_7_marks_rotates_the_shake_and_ends_when_a_team_reaches_the_target() {
    let r = rules(json!({"all_pass":"redeal"}));
    for (seed, first) in [(1u64, 0u8), (42, 2), (2024, 3)] {
        let game = Texas42 { dealer: first, ..Texas42::new(r) };
        let (s, _, hands) = play_game(game, seed);
        let mut rng = rng_for_seed(seed);
        let mut totals = [0u32; 2];
        for (k, h) in hands.iter().enumerate() {
            assert!(totals[0] < 7 && totals[1] < 7, "seed {seed}: the game went on after reaching 7");
            assert_eq!(h.dealer as usize, (first as usize + k) % 4, "seed {seed}: hand {k}'s shaker");
            assert_eq!(h.dealt, deal_texas42(&mut rng), "seed {seed}: hand {k} is the next deal of the seed");
            if k % 4 == 0 {
                assert_eq!(h.outcome, Some(Outcome::Redeal));
            } else {
                assert!(matches!(h.outcome, Some(Outcome::Settled { .. })));
                assert_eq!(h.award()[0] + h.award()[1], if k % 4 == 1 { 2 } else { 1 });
            }
            totals[0] += h.award()[0];
            totals[1] += h.award()[1];
        }
        assert_eq!(s.totals(), totals);
        let w = s.winner().expect("a finished game has a winner") as usize;
        assert!(totals[w] >= 7 && totals[1 - w] < 7, "seed {seed}: {totals:?}");
        let r = if w == 0 { 1.0 } else { -1.0 };
        assert_eq!(s.rewards(), [r, -r, r, -r]);
        assert!(s.current_seat().is_none() && s.legal_mask().is_empty());
    }
}

#[test]
fn a_whole_game_record_replays_into_hand_results_totals_and_winner() {
    let r = rules(json!({"all_pass":"redeal"}));
    let game = Texas42 { dealer: 2, ..Texas42::new(r) };
    let (s, actions, hands) = play_game(game, 7);
    let rec = json!({"game":"texas42","rules":{"all_pass":"redeal"},"dealer":2,"seed":7,"episode":"game",
                     "actions":actions});
    let (out, ok) = replay_line(&rec.to_string(), 1);
    assert!(ok, "{out}");
    let res = &out["result"];
    let results = res["hand_results"].as_array().unwrap();
    assert_eq!(results.len(), hands.len());
    for (k, (got, h)) in results.iter().zip(&hands).enumerate() {
        assert_eq!(got["dealer"], h.dealer, "hand {k}");
        let dealt: Vec<Vec<String>> = h.dealt.iter().map(|d| d.iter().map(|x| x.to_string()).collect()).collect();
        assert_eq!(got["hands"], json!(dealt), "hand {k}");
        assert_eq!(got["done"], true);
        if h.outcome == Some(Outcome::Redeal) {
            assert_eq!(got["redeal"], true, "hand {k}");
            assert_eq!(got["steps"].as_array().unwrap().len(), 4);
        } else {
            assert_eq!(got["marks"], json!(h.award()), "hand {k}");
            assert_eq!(got["made"], json!(made(h)), "hand {k}");
            assert_eq!(got["bid"], high_bid(h));
        }
    }
    assert_eq!(res["marks"], json!(s.totals()));
    assert_eq!(res["winner"], json!(s.winner()));
    assert_eq!(res["done"], true);
    assert!(res.get("next").is_none());
    // Cut short: not done, no winner, and the next seat to act.
    let cut = actions.len() - 3;
    let rec = json!({"game":"texas42","rules":{"all_pass":"redeal"},"dealer":2,"seed":7,"episode":"game",
                     "actions":actions[..cut].to_vec()});
    let (out, ok) = replay_line(&rec.to_string(), 1);
    assert!(ok, "{out}");
    let res = &out["result"];
    assert_eq!((&res["done"], &res["winner"]), (&json!(false), &Value::Null));
    let mut t = game.from_seed(2, 7, Episode::Game);
    for a in &actions[..cut] {
        t.apply(id(a)).unwrap();
    }
    assert_eq!(res["hand_results"].as_array().unwrap().len(), t.hands_played() as usize + 1, "finished + current");
    assert_eq!(res["next"]["seat"], json!(t.current_seat()));
    assert_eq!(res["marks"], json!(t.totals()));
    // One action too many is an error.
    let mut more = actions.clone();
    more.push("pass");
    let rec = json!({"game":"texas42","rules":{"all_pass":"redeal"},"dealer":2,"seed":7,"episode":"game",
                     "actions":more});
    let (out, ok) = replay_line(&rec.to_string(), 1);
    assert!(!ok);
    assert_eq!(out["error"]["index"], actions.len());
}

#[test]
fn points_game_when_both_teams_reach_the_target_on_one_hand_the_bidders_win() {
    let r = rules(json!({"scoring":"points","target":1}));
    let game = Texas42::new(r);
    let mut both = 0;
    for seed in 0..60u64 {
        let mut s = game.from_seed(0, seed, Episode::Game);
        act(&mut s, "30 pass pass pass");
        while !s.is_terminal() {
            s.apply(first_legal(&s)).unwrap();
        }
        let h = s.hand();
        let award = h.award();
        assert_eq!(s.totals(), award);
        assert_eq!(h.trick, 7);
        let w = s.winner().unwrap();
        if award[0] >= 1 && award[1] >= 1 {
            both += 1;
            assert_eq!(w, 1, "seed {seed}: seat 1 bid; both teams reached the target");
        } else {
            assert!(award[w as usize] >= 1, "seed {seed}");
        }
    }
    assert!(both > 0, "the tie case was exercised");
}

// ---------------------------------------------------------------------------
// Conservation

#[test]
fn forty_two_points_in_a_fully_played_hand_and_28_dominoes_conserved() {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for (i, r) in
        [rules(json!({"early_end":false})), rules(json!({"preset":"full","early_end":false}))].into_iter().enumerate()
    {
        let game = Texas42::new(r);
        for seed in 0..200u64 {
            let mut s = game.from_seed((seed % 4) as u8, seed + 1000 * i as u64, Episode::Hand);
            let dealt = s.hand().dealt;
            assert_eq!(dealt.iter().fold(DominoSet::EMPTY, |a, h| a | *h), DominoSet::FULL);
            assert!(dealt.iter().all(|h| h.len() == 7));
            while !s.is_terminal() {
                s.apply(rng.pick(&s)).unwrap();
                let h = s.hand();
                let mut seen = DominoSet::EMPTY;
                let mut n = 0;
                for held in h.hands {
                    seen |= held;
                    n += held.len();
                }
                for t in h.tricks.iter().take(h.trick as usize + 1).filter(|t| t.len > 0) {
                    for d in t.played() {
                        seen.insert(*d);
                        n += 1;
                    }
                }
                assert_eq!((seen, n), (DominoSet::FULL, 28), "seed {seed}: every domino held or played, once");
            }
            let h = s.hand();
            if h.outcome == Some(Outcome::Redeal) {
                continue;
            }
            assert_eq!(h.trick, 7, "early_end false: all seven tricks");
            let size = if declaration(h) == "nel-o" { 3 } else { 4 };
            let mut leader = h.declarer;
            for t in &h.tricks {
                assert_eq!((t.len, t.leader), (size, leader), "seed {seed}: the winner leads the next trick");
                assert_eq!(t.points as u32, 1 + t.played().iter().map(|d| d.count() as u32).sum::<u32>());
                leader = t.winner;
            }
            assert_eq!(h.tricks_won.iter().map(|&n| n as u32).sum::<u32>(), 7);
            if size == 4 {
                assert_eq!(h.points[0] as u32 + h.points[1] as u32, 42, "seed {seed}: 35 count + 7 tricks");
            } else {
                let out: u32 = h.hands[(h.bidder as usize + 2) % 4].iter().map(|d| d.count() as u32).sum();
                assert_eq!(h.points[0] as u32 + h.points[1] as u32 + out, 42, "seed {seed}: Nel-O");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// dropped30: walt's forced auction and declaration, all seven tricks

const DROPPED30_DEAL: [&str; 4] = [
    "0-0 1-0 1-1 2-0 2-1 2-2 3-0",
    // Fours and sixes both expose 5 count (37) with two trumps and no double:
    // the higher pip is declared.
    "3-2 4-1 5-1 5-4 5-5 6-1 6-2",
    "3-1 3-3 4-0 4-2 4-3 4-4 5-0",
    "5-2 5-3 6-0 6-3 6-4 6-5 6-6",
];

#[test]
fn dropped30_the_seat_left_of_the_shaker_bids_30_the_others_pass_and_the_bidder_declares_its_best_pip() {
    let r = rules(json!({"preset": "dropped30"}));
    assert_eq!(r, Texas42Rules::DROPPED30);
    let s = played(r, 0, DROPPED30_DEAL, "[30] 30 [pass] pass [pass] pass [pass] pass [sixes] sixes");
    let h = s.hand();
    assert_eq!((h.bidder, h.declarer, h.phase), (1, 1, Phase::Playing));
    assert_eq!(declaration(h), "sixes");
    // The shake moved left, and the same hand with it: seat 2 bids and declares.
    let s = played(r, 1, rotate(DROPPED30_DEAL, 1), "[30] 30 [pass] pass [pass] pass [pass] pass [sixes] sixes");
    assert_eq!(s.hand().bidder, 2);
    let s = start(r, 3, DROPPED30_DEAL);
    assert_rejects(&s, "pass");
    assert_rejects(&s, "31");
    assert_legal(&s, "30");
}

#[test]
fn dropped30_plays_all_seven_tricks_and_gives_one_mark_to_the_bidders_at_30_points_or_else_to_the_defenders() {
    let game = Texas42::new(Texas42Rules::DROPPED30);
    let (mut made, mut set) = (0, 0);
    for seed in 0..200u64 {
        let mut s = game.new_state(seed, Episode::Hand);
        let dealer = s.hand().dealer;
        let mut rng = rng_for_seed(seed);
        while s.current_seat().is_some() {
            let legal: Vec<Action> = s.legal_mask().iter().collect();
            if s.hand().phase != Phase::Playing {
                assert_eq!(legal.len(), 1, "seed {seed}: the auction and the declaration are forced");
            }
            let pick = legal[(rand::Rng::random_range(&mut rng, 0..legal.len() as u64)) as usize];
            s.apply(pick).unwrap();
        }
        let h = s.hand();
        assert_eq!(h.bidder, (dealer + 1) % 4, "seed {seed}");
        assert_eq!(h.trick, 7, "seed {seed}: all seven tricks are played");
        let us = team(h.bidder);
        let ok = h.points[us] >= 30;
        assert_eq!(h.outcome, Some(Outcome::Settled { made: ok }), "seed {seed}");
        let mut want = [0, 0];
        want[if ok { us } else { 1 - us }] = 1;
        assert_eq!(h.award(), want, "seed {seed}");
        if ok {
            made += 1;
        } else {
            set += 1;
        }
    }
    assert!(made > 10 && set > 10, "both results come up: {made} made, {set} set");
}

#[test]
fn dropped30_is_a_preset_and_a_key_that_rules_out_early_end_points_and_variants() {
    assert_eq!(rules(json!({"dropped30": true})), Texas42Rules::DROPPED30);
    assert!(!Texas42Rules::DROPPED30.stops_early());
    assert_eq!(Texas42Rules::DROPPED30.to_json()["dropped30"], json!(true));
    assert_eq!(Texas42Rules::DROPPED30.to_json()["early_end"], json!(false));
    assert!(Texas42Rules::STANDARD.to_json().get("dropped30").is_none(), "the other rules print as before");
    assert_eq!(Value::Object(Texas42Rules::DROPPED30.preset_diff()), json!({"preset": "dropped30"}));
    let target3 = Texas42Rules { target: 3, ..Texas42Rules::DROPPED30 };
    assert_eq!(Value::Object(target3.preset_diff()), json!({"preset": "dropped30", "target": 3}));
    for r in [Texas42Rules::DROPPED30, target3] {
        assert_eq!(rules(r.to_json()), r);
        assert_eq!(rules(Value::Object(r.preset_diff())), r);
    }
    for (bad, says) in [
        (json!({"dropped30": true, "early_end": true}), "`early_end` true"),
        (json!({"preset": "dropped30", "scoring": "points"}), "`scoring` points"),
        (json!({"preset": "full", "dropped30": true}), "`variants`"),
        (json!({"dropped30": "yes"}), "true or false"),
    ] {
        let e = Texas42Rules::from_json(&bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    assert_eq!(bones_env::rules::parse_rules_arg("dropped30").unwrap(), json!({"preset": "dropped30"}));
}

#[test]
fn a_dropped30_record_replays_its_forced_auction_and_refuses_any_other() {
    let hands = hands_json(DROPPED30_DEAL);
    let rec = json!({"game":"texas42","rules":{"preset":"dropped30"},"hands":hands,
                     "actions":["30","pass","pass","pass","sixes"]});
    let (out, ok) = replay_line(&rec.to_string(), 1);
    assert!(ok, "{out}");
    assert_eq!((out["result"]["bid"].as_str(), out["result"]["bidder"].as_u64()), (Some("30"), Some(1)));
    for (actions, index) in
        [(json!(["31"]), 0), (json!(["30", "31"]), 1), (json!(["30", "pass", "pass", "pass", "fours"]), 4)]
    {
        let rec = json!({"game":"texas42","rules":{"dropped30":true},"hands":hands,"actions":actions});
        let (out, ok) = replay_line(&rec.to_string(), 1);
        assert!(!ok, "{actions}: {out}");
        assert_eq!(out["error"]["index"], index, "{actions}: {out}");
    }
}
