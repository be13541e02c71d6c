//! How a finished deal ended, as the page says it (`how` and `count` of a
//! deal, docs/interfaces/web.md): the contract and why it was made or set
//! (Texas 42), who went out or why the round was blocked (Doubles).

use bones_env::texas42::{bid_value, team, Hand, Outcome, NEL_O, PLUNGE, SEVENS, SPLASH};
use bones_env::{Action, Domino, DoublesState, Texas42State};
use serde_json::{json, Value};

/// How the Texas 42 hand that ended on the action leading to `after` ended
/// (`how`), and the counting dominoes each team took (`count`).
pub fn texas42_how(after: &Texas42State, seat: usize) -> (Value, Option<Value>) {
    let h = if after.hand().is_done() { after.hand() } else { after.previous_hand().unwrap_or(after.hand()) };
    (hand_how(h, seat), Some(count_taken(h)))
}

/// How the Doubles round that ended on the action leading to `after` ended
/// (`how`): the end, who went out, the pips and dominoes each seat held.
pub fn doubles_how(after: &DoublesState) -> Value {
    let r = if after.round().is_done() { after.round() } else { after.previous_round().unwrap_or(after.round()) };
    let pips = &r.pips()[..r.players as usize];
    let end = r.end.map(|e| e.name());
    let went_out = (r.end == Some(bones_env::doubles::End::Domino)).then_some(r.winner).flatten();
    let held: Vec<usize> = r.hands[..r.players as usize].iter().map(|h| h.len()).collect();
    json!({"ended": end, "went_out": went_out, "pips": pips, "held": held})
}

/// The counting dominoes (5-5, 6-4: 10 points; 5-0, 4-1, 3-2: 5) each team
/// took in the tricks of `h`, in the order taken.
fn count_taken(h: &Hand) -> Value {
    let mut taken = [Vec::new(), Vec::new()];
    for t in &h.tricks[..(h.trick as usize).min(7)] {
        for d in t.played().iter().filter(|d| count_of(**d) > 0) {
            taken[team(t.winner)].push(d.to_string());
        }
    }
    json!(taken)
}

/// The count a domino carries: 10 for 5-5 and 6-4, 5 for 5-0, 4-1 and 3-2.
pub fn count_of(d: Domino) -> u8 {
    match d.pips() {
        10 if d.high() >= 5 => 10,
        5 => 5,
        _ => 0,
    }
}

/// `"points"` (30..41), `"marks"` (1m..7m), `"plunge"`, `"splash"`,
/// `"nel-o"` or `"sevens"`: the kind of a hand's contract.
fn contract_kind(h: &Hand) -> &'static str {
    let (bid, decl) = (h.high_bid as Action, h.declaration as Action);
    match () {
        _ if decl == NEL_O => "nel-o",
        _ if decl == SEVENS => "sevens",
        _ if bid == PLUNGE => "plunge",
        _ if bid == SPLASH => "splash",
        _ if bid_value(bid) < 42 => "points",
        _ => "marks",
    }
}

/// How a finished Texas 42 hand ended, with the team names of the person at
/// `seat` (`Us`, `Them`) in `reason`: docs/interfaces/web.md.
fn hand_how(h: &Hand, seat: usize) -> Value {
    let side = |t: usize| if t == team(seat as u8) { "Us" } else { "Them" };
    let made = match h.outcome {
        Some(Outcome::Settled { made }) => made,
        _ => {
            return json!({"ended": "thrown-in", "contract": null, "tricks": 0, "early": false,
                          "reason": "everyone passed, and the rules throw such a hand in"});
        }
    };
    let kind = contract_kind(h);
    let tricks = h.trick.min(7);
    let (bidders, defenders) = (team(h.bidder), 1 - team(h.bidder));
    let bid = bid_value(h.high_bid as Action);
    // The trick that settled it: the last one played.
    let last = &h.tricks[tricks.saturating_sub(1) as usize];
    let by = if tricks < 7 { format!(" by trick {tricks}") } else { String::new() };
    let reason = match kind {
        "points" if made => format!("{} took {}{by}; a bid of {bid} needs {bid}", side(bidders), h.points[bidders]),
        "points" => format!("{} took {}{by}; a bid of {bid} allows {}", side(defenders), h.points[defenders], 42 - bid),
        "nel-o" if made => format!("{} lost every trick, as Nel-O must", side(bidders)),
        "nel-o" => format!("{} won trick {tricks}; Nel-O must lose every trick", side(bidders)),
        _ => {
            let what = match kind {
                "plunge" => "a Plunge".to_string(),
                "splash" => "a Splash".to_string(),
                "sevens" => "Sevens".to_string(),
                _ => format!("a bid of {} marks", bid / 42).replace("of 1 marks", "of 1 mark"),
            };
            if made {
                format!("{} won all 7 tricks; {what} must win every trick", side(bidders))
            } else {
                format!("{} won trick {tricks}; {what} must win every trick", side(team(last.winner)))
            }
        }
    };
    json!({
        "ended": if made { "made" } else { "set" },
        "contract": kind,
        "tricks": tricks,
        "early": tricks < 7,
        "reason": reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bones_env::deal::deal_hands;
    use bones_env::texas42::parse_42;
    use bones_env::{AllPass, Texas42Rules};

    /// The hand in which seat 0 (first to bid: the dealer is seat 3) holds
    /// the seven doubles, after `calls`, then each seat's first legal move.
    fn played_out(rules: Texas42Rules, calls: &[&str]) -> Hand {
        let mut deck = Domino::ALL;
        deck.sort_by_key(|d| !d.is_double());
        let mut h = Hand::new(rules, 3, deal_hands(&deck, 4, 7));
        for call in calls {
            h.apply(parse_42(call).unwrap()).unwrap();
        }
        while !h.is_done() {
            h.apply(h.legal_mask().nth(0)).unwrap();
        }
        h
    }

    #[test]
    fn each_kind_of_contract_says_why_its_hand_ended() {
        let full = Texas42Rules::FULL;
        let how = hand_how(&played_out(full, &["2m", "pass", "pass", "pass", "nel-o"]), 0);
        assert_eq!((&how["ended"], &how["contract"]), (&json!("set"), &json!("nel-o")));
        assert_eq!(how["reason"], "Us won trick 1; Nel-O must lose every trick");
        assert_eq!((&how["tricks"], &how["early"]), (&json!(1), &json!(true)));
        // Seen from the other side, the same hand.
        let theirs = hand_how(&played_out(full, &["2m", "pass", "pass", "pass", "nel-o"]), 1);
        assert_eq!(theirs["reason"], "Them won trick 1; Nel-O must lose every trick");
        for (calls, contract, must) in [
            (&["plunge", "pass", "pass", "pass"][..], "plunge", "; a Plunge must win every trick"),
            (&["1m", "pass", "pass", "pass"][..], "marks", "; a bid of 1 mark must win every trick"),
            (&["1m", "2m", "3m", "pass"][..], "marks", "; a bid of 3 marks must win every trick"),
        ] {
            let how = hand_how(&played_out(full, calls), 0);
            assert_eq!(how["contract"], contract, "{calls:?}");
            let reason = how["reason"].as_str().unwrap();
            assert!(reason.ends_with(must), "{calls:?}: {reason}");
            let made = how["ended"] == "made";
            assert_eq!(made, reason.starts_with("Us won all 7 tricks"), "{calls:?}: {reason}");
        }
        let how = hand_how(&played_out(full, &["30", "pass", "pass", "pass"]), 0);
        let reason = how["reason"].as_str().unwrap();
        assert!(reason.ends_with("a bid of 30 needs 30") || reason.ends_with("a bid of 30 allows 12"), "{reason}");
        let redeal = Texas42Rules { all_pass: AllPass::Redeal, ..Texas42Rules::STANDARD };
        let how = hand_how(&played_out(redeal, &["pass", "pass", "pass", "pass"]), 0);
        assert_eq!((&how["ended"], &how["tricks"]), (&json!("thrown-in"), &json!(0)));
        assert_eq!(how["reason"], "everyone passed, and the rules throw such a hand in");
    }

    #[test]
    fn the_count_each_side_took_is_the_counting_dominoes_of_its_tricks() {
        let h = played_out(Texas42Rules::STANDARD, &["30", "pass", "pass", "pass"]);
        let taken = count_taken(&h);
        let mut all: Vec<&str> =
            taken.as_array().unwrap().iter().flat_map(|t| t.as_array().unwrap()).map(|d| d.as_str().unwrap()).collect();
        all.sort();
        let played: Vec<Domino> =
            h.tricks[..(h.trick as usize).min(7)].iter().flat_map(|t| t.played().to_vec()).collect();
        let mut counting: Vec<String> = played.iter().filter(|d| count_of(**d) > 0).map(|d| d.to_string()).collect();
        counting.sort();
        assert_eq!(all, counting);
        assert_eq!(
            [Domino::new(5, 5), Domino::new(6, 4), Domino::new(5, 0), Domino::new(4, 1), Domino::new(3, 2)]
                .map(count_of),
            [10, 10, 5, 5, 5]
        );
        assert_eq!(count_of(Domino::new(6, 6)), 0);
    }
}
