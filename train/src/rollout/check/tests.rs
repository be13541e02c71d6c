//! A rollout from bytes: one that was sent whole passes its check; each
//! inconsistency is refused, naming the field.

use super::*;

/// Two games of two seats, 3 observation floats, 3 actions and 1 hidden
/// float: game 0's seats play and its hand ends; game 1's seat 0 plays
/// twice and its chain is still open.
fn small() -> Rollout {
    let mut r = Rollout::new(2, 3, 3, 1);
    let obs = SparseRows::from_dense(&[0.0, 2.0, 0.0, 1.0, 0.0, -0.5], 3);
    r.push(0, 0, &obs, 0, &[1.0, 1.0, 0.0], &[0.5], 1, -0.7, 0.1);
    r.push(1, 0, &obs, 1, &[0.0, 1.0, 1.0], &[0.0], 2, -0.7, 0.2);
    r.steps[1].teacher = Some(1);
    r.push(0, 1, &obs, 1, &[1.0, 0.0, 1.0], &[1.0], 0, -0.7, 0.3);
    r.push(0, 0, &obs, 0, &[1.0, 1.0, 1.0], &[0.5], 2, -1.1, 0.4);
    r.reward(0, &[1.0, -1.0, 0.0, 0.0], true);
    r.push(1, 0, &obs, 0, &[1.0, 0.0, 0.0], &[0.0], 0, 0.0, 0.5);
    r.set_bootstrap(4, 0.25);
    r
}

const SHAPE: RolloutShape =
    RolloutShape { obs_len: 3, num_actions: 3, oracle_len: 1, games: 2, players: 2, max_steps: 8 };

fn bytes(r: &Rollout) -> Vec<u8> {
    bincode::serde::encode_to_vec(r, bincode::config::standard()).unwrap()
}

fn unchecked(r: &Rollout) -> UncheckedRollout {
    bincode::serde::decode_from_slice(&bytes(r), bincode::config::standard()).unwrap().0
}

#[test]
fn a_rollout_sent_as_bytes_passes_its_check_unchanged() {
    let r = small();
    let back = unchecked(&r).check(&SHAPE).unwrap();
    assert_eq!(bytes(&back), bytes(&r));
    assert_eq!(back.obs, r.obs);
    assert_eq!(back.open_chains(), vec![(1, 0, 4)]);
    assert_eq!(back.advantages(0.9, 0.8), r.advantages(0.9, 0.8));
}

#[test]
fn each_inconsistency_of_a_rollout_from_bytes_is_refused_naming_the_field_and_what_was_expected() {
    type Change = Box<dyn Fn(&mut UncheckedRollout)>;
    let cases: Vec<(Change, &str)> = vec![
        (Box::new(|u| u.num_actions = 4), "`num_actions` is 4; expected 3 (the game's action count)"),
        (
            Box::new(|u| u.masks.truncate(u.masks.len() - 1)),
            "`masks` has length 14; expected 15 (one float per transition and action)",
        ),
        (
            Box::new(|u| u.open.truncate(u.open.len() - 1)),
            "`open` has length 1; expected 2 (one entry per game of the shard)",
        ),
        (Box::new(|u| u.masks[1] = 0.5), "transition 0: `masks` holds 0.5 for action 1; expected 0 or 1"),
        (Box::new(|u| u.masks[12] = 0.0), "transition 4: `masks` allows no action; expected at least one legal action"),
        (
            Box::new(|u| u.oracle[2] = f32::NAN),
            "hidden-hand float 2: `oracle` is NaN; expected a finite number of magnitude at most 1e6",
        ),
        (Box::new(|u| u.steps[2].env = 2), "transition 2: `env` is 2; expected less than 2 (the shard's games)"),
        (Box::new(|u| u.steps[0].seat = 2), "transition 0: `seat` is 2; expected less than 2 (the seats at the table)"),
        (
            Box::new(|u| u.steps[0].action = 3),
            "transition 0: `action` is 3; expected less than 3 (the game's action count)",
        ),
        (
            Box::new(|u| u.steps[0].action = 2),
            "transition 0: `action` is 2, which its legal mask does not allow; expected a legal action",
        ),
        (
            Box::new(|u| u.steps[1].teacher = Some(0)),
            "transition 1: `teacher` is 0, which its legal mask does not allow; expected a legal action",
        ),
        (
            Box::new(|u| u.steps[0].logp = f32::NAN),
            "transition 0: `logp` is NaN; expected a log-probability from -87 to 0",
        ),
        (Box::new(|u| u.steps[0].logp = 0.5), "transition 0: `logp` is 0.5; expected a log-probability from -87 to 0"),
        (
            Box::new(|u| u.steps[3].value = f32::INFINITY),
            "transition 3: `value` is inf; expected a finite number of magnitude at most 1e6",
        ),
        (
            Box::new(|u| u.steps[3].reward = -2e6),
            "transition 3: `reward` is -2000000; expected a finite number of magnitude at most 1e6",
        ),
        (Box::new(|u| u.steps[0].next = Some(9)), "transition 0: `next` is 9; expected less than 5 (the transitions)"),
        (
            Box::new(|u| u.steps[1].next = Some(0)),
            "transition 1: `next` is 0, not after it; expected a later transition (the seat's next decision)",
        ),
        (
            Box::new(|u| u.steps[0].next = Some(4)),
            "transition 0: `next` is 4, a decision of game 1 seat 0; expected a decision of the same game and seat",
        ),
        (
            Box::new(|u| u.steps[2].next = Some(3)),
            "transition 2: `next` is 3 after its episode ended (`done`); expected no next decision after `done`",
        ),
        (
            Box::new(|u| {
                let t = &mut u.steps[2];
                (t.seat, t.done, t.next) = (0, false, Some(3));
            }),
            "transition 2: `next` is 3, the next decision of an earlier transition already; \
             expected each decision the next of at most one",
        ),
        (
            Box::new(|u| u.open[1][0] = None),
            "transition 4: it has no `next`, is not `done`, and no open chain ends at it; \
             expected a next decision, `done`, or its chain in `open`",
        ),
        (
            Box::new(|u| u.open[0][1] = Some(2)),
            "`open` of game 0, seat 1: it names transition 2, whose chain goes on or has ended; \
             expected the chain's last decision, its episode not over",
        ),
        (
            Box::new(|u| u.open[0][0] = Some(4)),
            "`open` of game 0, seat 0: it names transition 4, a decision of game 1 seat 0; \
             expected a decision of that game and seat",
        ),
        (
            Box::new(|u| u.open[0][0] = Some(5)),
            "`open` of game 0, seat 0: `open` is 5; expected less than 5 (the transitions)",
        ),
        (Box::new(|u| u.obs.width = 4), "`obs.width` is 4; expected 3 (the observation length)"),
        (
            Box::new(|u| u.obs.start.truncate(u.obs.start.len() - 1)),
            "`obs.start` has length 5; expected 6 (an offset per transition's row, and one more)",
        ),
        (Box::new(|u| u.obs.start[0] = 1), "`obs.start` begins at 1; expected offsets from 0"),
        (
            Box::new(|u| u.obs.start[2] = 0),
            "`obs.start` goes back from 1 to 0 at row 1; expected offsets that never go back",
        ),
        (
            Box::new(|u| u.obs.start[5] = 6),
            "`obs.start` ends at 6 with 7 entries; expected the last offset to be the entries' count",
        ),
        (
            Box::new(|u| u.obs.value.truncate(u.obs.value.len() - 1)),
            "`obs.value` has length 6; expected 7 (one value per entry of `obs.index`)",
        ),
        (
            Box::new(|u| u.obs.index[0] = 3),
            "observation row 0: `obs.index` is 3; expected less than 3 (the observation length)",
        ),
        (
            Box::new(|u| u.obs.index[2] = 0),
            "`obs.index` lists column 0 after column 0 in row 1; expected each row's columns in increasing order",
        ),
        (
            Box::new(|u| u.obs.value[0] = 0.0),
            "observation row 0: `obs.value` is 0; expected a finite non-zero number of magnitude at most 1e6",
        ),
    ];
    let r = small();
    assert_eq!((unchecked(&r).obs.start, unchecked(&r).obs.index), (vec![0, 1, 3, 5, 6, 7], vec![1, 0, 2, 0, 2, 1, 1]));
    for (change, says) in cases {
        let mut u = unchecked(&r);
        change(&mut u);
        let e = u.check(&SHAPE).err().unwrap_or_else(|| panic!("passed its check: {says}"));
        assert_eq!(e.to_string(), says);
    }
    let e = unchecked(&r).check(&RolloutShape { max_steps: 4, ..SHAPE }).err().unwrap();
    assert_eq!(e.to_string(), "`steps` has length 5; expected at most 4 (one per decision of the shard's games)");
}
