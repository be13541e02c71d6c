//! The gym-style API's own behaviour: refused steps and what they say,
//! truncation, VecEnv rows and seeds, and saved bytes that are not a save of
//! this game. (Determinism, rewards, save/restore continuing identically and
//! one or two threads giving the same buffers are the conformance suite's, for
//! every game: `suite`.)

use bones_env::{Doubles, Env, EnvError, Episode, Game, GameState, RestoreError, Texas42, Texas42Rules, VecEnv};

#[test]
fn step_after_the_end_and_illegal_actions_are_refused_without_change() {
    let mut env = Env::new(Texas42::new(Texas42Rules::STANDARD), Episode::Hand);
    let t = env.reset(3).clone();
    let illegal = (0..64).find(|a| !t.legal.contains(*a)).unwrap();
    match env.step(illegal) {
        Err(EnvError::Illegal { legal, .. }) => assert!(legal.contains("pass")),
        other => panic!("expected an illegal-action error, got {other:?}"),
    }
    assert!(env.step(1000).is_err());
    let mut t2 = env.step(t.legal.iter().next().unwrap()).unwrap().clone();
    while !t2.terminated {
        t2 = env.step(t2.legal.iter().next().unwrap()).unwrap().clone();
    }
    assert_eq!(env.step(28), Err(EnvError::EpisodeOver));
}

#[test]
fn max_steps_truncates() {
    let mut env = Env::new(Texas42::new(Texas42Rules::STANDARD), Episode::Game);
    env.max_steps = Some(10);
    let mut t = env.reset(1).clone();
    for _ in 0..10 {
        t = env.step(t.legal.iter().next().unwrap()).unwrap().clone();
    }
    assert!(t.truncated && !t.terminated);
    assert_eq!(env.step(t.legal.iter().next().unwrap()), Err(EnvError::EpisodeOver));
}

#[test]
fn vec_env_rows_match_single_envs_and_refuse_bad_steps() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let mut v = VecEnv::new(game, Episode::Hand, 3, 77, 2);
    for i in 0..3 {
        let s = game.new_state(bones_env::vec_env::episode_seed(77, i, 0), Episode::Hand);
        let mut obs = vec![0.0; game.obs_len()];
        s.observe(s.current_seat().unwrap(), &mut obs);
        assert_eq!(&v.obs[i * obs.len()..(i + 1) * obs.len()], &obs[..]);
    }
    let before = v.obs.clone();
    assert!(v.step(&[28, 28]).is_err());
    assert!(v.step(&[28, 28, 0]).is_err(), "playing a domino while bidding is illegal");
    assert_eq!(v.obs, before, "a refused step changes nothing");
}

#[test]
fn bad_bytes_are_typed_errors() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let mut env = Env::new(game, Episode::Hand);
    env.reset(1);
    let bytes = env.save();
    let restore = |b: &[u8]| match Env::restore(game, b) {
        Err(EnvError::Restore(e)) => e,
        Err(other) => panic!("expected a restore error, got {other}"),
        Ok(_) => panic!("restored from bad bytes"),
    };
    assert_eq!(restore(b"hello"), RestoreError::NotASave);
    assert_eq!(restore(&bytes[..bytes.len() - 3]), RestoreError::Checksum);
    let mut flipped = bytes.clone();
    *flipped.last_mut().unwrap() ^= 1;
    assert_eq!(restore(&flipped), RestoreError::Checksum);
    let mut version = bytes.clone();
    version[8] = 9;
    assert_eq!(restore(&version), RestoreError::Version { found: 9, expected: bones_env::env::SAVE_VERSION });
    let other = Env::restore(Texas42::new(Texas42Rules::FULL), &bytes).err().unwrap();
    assert!(matches!(other, EnvError::Restore(RestoreError::WrongGame { .. })), "{other}");
    assert!(other.to_string().contains("texas42"), "{other}");
    // Bytes of another game do not restore as this one.
    let mut d = Env::new(Doubles::default(), Episode::Hand);
    d.reset(1);
    let e = Env::restore(game, &d.save()).err().unwrap();
    assert!(
        matches!(&e, EnvError::Restore(RestoreError::WrongGame { found, .. }) if found.starts_with("doubles")),
        "{e}"
    );
}
