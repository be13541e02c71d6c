//! Seat views read back into positions (`bones_env::position`, what `bones
//! serve` plays a `view` request from): the view an outside program is sent at
//! every decision (`bones_agents::seat_request`) gives back a state whose view
//! for the seat is that view, in both games under their rule options; views
//! that contradict themselves are refused with a message naming what is wrong.

use bones_agents::seat_request::SeatRequest;
use bones_env::position::{position, ViewGame};
use bones_env::rules::{parse_rules_arg, BlockedTie, DoublesRules};
use bones_env::{Doubles, Episode, GameState, Texas42, Texas42Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value};

/// Plays `games` whole games of `game` with random legal actions and reads the
/// view of every decision back; returns the decisions checked.
fn every_view_reads_back<G: ViewGame>(game: &G, games: u64) -> usize
where
    <G::State as GameState>::View: SeatRequest + PartialEq + std::fmt::Debug,
{
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut checked = 0;
    for seed in 0..games {
        let mut st = game.new_state(seed, Episode::Game);
        while let Some(seat) = st.current_seat() {
            let view = st.view(seat);
            let request = view.to_request();
            let (_, back, s) = position::<G>(request.as_object().unwrap()).unwrap_or_else(|e| panic!("{e}: {request}"));
            assert_eq!(s, seat);
            assert_eq!(back.view(seat), view, "{request}");
            checked += 1;
            let legal: Vec<_> = st.legal_mask().iter().collect();
            st.apply(legal[rng.random_range(0..legal.len())]).unwrap();
        }
    }
    checked
}

#[test]
fn a_view_request_gives_back_a_state_with_the_same_view_in_both_games_under_every_option() {
    for rules in [r#"{"variants":[]}"#, r#"{"variants":["nel-o","sevens","plunge","splash"]}"#] {
        let rules = Texas42Rules::from_json(&parse_rules_arg(rules).unwrap()).unwrap();
        assert!(every_view_reads_back(&Texas42::new(rules), 150) > 5000);
    }
    for (players, blocked_tie) in [(2, BlockedTie::None), (3, BlockedTie::Split), (4, BlockedTie::None)] {
        let game = Doubles::new(DoublesRules { players, blocked_tie, target: 60 });
        assert!(every_view_reads_back(&game, 40) > 2000, "{players} players");
    }
}

/// The first decision's view of seed 1 as a request object, and a function
/// giving the error of that view with `key` set to a value.
fn first_view<G: ViewGame>(game: &G) -> (Map<String, Value>, impl Fn(&str, Value) -> String)
where
    <G::State as GameState>::View: SeatRequest,
{
    let st = game.new_state(1, Episode::Hand);
    let good = st.view(st.current_seat().unwrap()).to_request().as_object().unwrap().clone();
    let base = good.clone();
    let with = move |key: &str, v: Value| {
        let mut r = base.clone();
        r.insert(key.into(), v);
        position::<G>(&r).map(|_| ()).unwrap_err().to_string()
    };
    (good, with)
}

#[test]
fn a_texas42_view_request_that_contradicts_itself_is_refused() {
    let (good, with) = first_view(&Texas42::new(Texas42Rules::STANDARD));
    assert!(with("dealt", json!(["6-6"])).contains("`dealt` must hold the 7 dominoes"));
    assert!(with("seat", json!(7)).contains("bad `seat` 7"));
    assert!(with("actions", json!(["30", "bogus"])).contains("action 1"));
    assert!(with("colour", json!(1)).contains("unknown key `colour`"));
    // The seat bids, declares and leads; the next seat plays one of its dominoes.
    let mut actions: Vec<Value> = vec!["30".into(), "pass".into(), "pass".into(), "pass".into(), "sixes".into()];
    actions.push(good["dealt"][0].clone());
    let mut r = good.clone();
    r.insert("actions".into(), Value::Array(actions.clone()));
    r.remove("hand");
    assert!(position::<Texas42>(&r).is_ok());
    actions.push(good["dealt"][1].clone());
    let e = with("actions", Value::Array(actions));
    assert!(e.contains("cannot hold"), "{e}");
}

#[test]
fn a_doubles_view_request_that_contradicts_itself_is_refused() {
    let game = Doubles::new(DoublesRules { players: 3, ..DoublesRules::default() });
    let (good, with) = first_view(&game);
    let opener = good["opener"].as_u64().unwrap();
    assert_eq!(good["seat"], opener, "the opener opens");
    assert!(position::<Doubles>(&good).is_ok());
    let held = |name: &str| good["hand"].as_array().unwrap().iter().any(|d| d == name);
    let not_held = bones_env::Domino::ALL.iter().map(|d| d.to_string()).find(|d| !held(d)).unwrap();
    for (key, value, error) in [
        ("colour", json!(1), "unknown key `colour` in a doubles view"),
        ("game", json!("texas42"), "bad `game` \"texas42\": expected \"doubles\""),
        ("players", json!(4), "bad `players` 4: expected 3"),
        ("seat", json!(3), "bad `seat` 3: expected 0..=2"),
        ("seat", json!((opener + 1) % 3), "before the opening the opener"),
        ("hand_sizes", json!([6, 6]), "bad `hand_sizes` [6,6]: expected 3 numbers"),
        ("hand_sizes", json!([7, 7, 7]), "`hand_sizes` gives seat"),
        ("boneyard", json!(9), "do not add up to the 28 dominoes"),
        ("drawn", json!(not_held), "bad `drawn`"),
        ("void", json!([[7], [], []]), "bad `void` entry [7]"),
        ("totals", json!([1, 2]), "bad `totals` [1,2]: expected the 3 game totals"),
        ("plays", json!([{"seat": opener, "action": "6-5@6"}]), "placement 0 `6-5@6`"),
        ("plays", json!([{"seat": opener}]), "placement 0"),
        ("rules", json!({"target": 0}), "bad `rules`"),
    ] {
        let e = with(key, value.clone());
        assert!(e.contains(error), "{key} {value}: {e}");
    }
    // Every seat's draws showed it holds no number at all: the other hands cannot be dealt.
    let every = json!([0, 1, 2, 3, 4, 5, 6]);
    let e = with("void", json!([every, every, every]));
    assert!(e.contains("no deal of the unseen dominoes fits"), "{e}");
}
