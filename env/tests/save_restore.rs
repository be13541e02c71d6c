//! `Env::save` / `Env::restore`: a restored environment continues exactly as
//! the original (both games, single deals and whole games, mid-episode and
//! across deals), and bad bytes are typed errors.

use bones_env::rules::DoublesRules;
use bones_env::{Doubles, Env, EnvError, Episode, Game, RestoreError, Texas42, Texas42Rules, TimeStep};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays random actions from `env` until the episode ends (at most `limit`
/// steps): the time steps seen.
fn play<G: Game>(env: &mut Env<G>, rng: &mut ChaCha8Rng, limit: usize) -> Vec<TimeStep> {
    let mut out = Vec::new();
    for _ in 0..limit {
        let t = env.last().clone();
        if t.terminated || t.truncated {
            break;
        }
        let a = t.legal.nth(rng.random_range(0..t.legal.len()));
        out.push(env.step(a).unwrap().clone());
    }
    out
}

/// Saves at several points of several episodes and checks the restored copy
/// plays on identically to the original.
fn restored_envs_continue_identically<G: Game>(game: G) {
    for episode in [Episode::Hand, Episode::Game] {
        for seed in 0..6u64 {
            let mut env = Env::new(game.clone(), episode);
            env.max_steps = (seed == 5).then_some(40);
            env.reset(seed);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let skip = rng.random_range(0..30);
            play(&mut env, &mut rng, skip);
            let bytes = env.save();
            let mut copy = Env::restore(game.clone(), &bytes).unwrap();
            assert_eq!(copy.last(), env.last(), "the restored TimeStep equals the saved one");
            assert_eq!(copy.max_steps, env.max_steps);
            let tail = play(&mut env, &mut rng.clone(), 2000);
            let copied = play(&mut copy, &mut rng, 2000);
            assert_eq!(tail, copied, "{} {episode:?} seed {seed}: the copy diverged", game.name());
            assert_eq!(copy.save(), env.save(), "and ends in the same state");
            // A new episode after a restore deals as the original's would.
            assert_eq!(copy.reset(seed + 100), env.reset(seed + 100));
        }
    }
}

#[test]
fn texas42_envs_restore_and_continue_identically() {
    restored_envs_continue_identically(Texas42::new(Texas42Rules::FULL));
    restored_envs_continue_identically(Texas42::new(Texas42Rules::STANDARD));
}

#[test]
fn doubles_envs_restore_and_continue_identically() {
    for players in [2u8, 3, 4] {
        restored_envs_continue_identically(Doubles::new(DoublesRules { players, ..DoublesRules::default() }));
    }
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

#[test]
fn vec_envs_restore_and_continue_identically() {
    use bones_env::VecEnv;
    fn check<G: Game>(game: G, episode: Episode) {
        let mut v = VecEnv::new(game.clone(), episode, 5, 11, 2);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let act = |v: &VecEnv<G>, rng: &mut ChaCha8Rng| -> Vec<usize> {
            (0..v.len())
                .map(|i| {
                    let legal = bones_env::GameState::legal_mask(v.state(i));
                    legal.nth(rng.random_range(0..legal.len()))
                })
                .collect()
        };
        for _ in 0..37 {
            let a = act(&v, &mut rng);
            v.step(&a).unwrap();
        }
        let bytes = v.save();
        let mut w = VecEnv::restore(game.clone(), 1, &bytes).unwrap();
        assert_eq!(
            (&w.obs, &w.mask, &w.seats, &w.rewards, &w.dones),
            (&v.obs, &v.mask, &v.seats, &v.rewards, &v.dones)
        );
        for _ in 0..300 {
            let a = act(&v, &mut rng);
            v.step(&a).unwrap();
            w.step(&a).unwrap();
            assert_eq!((&w.obs, &w.seats, &w.rewards, &w.dones), (&v.obs, &v.seats, &v.rewards, &v.dones));
        }
        assert_eq!(w.episodes_done, v.episodes_done);
        assert!(VecEnv::restore(game, 1, &bytes[..bytes.len() - 1]).is_err());
    }
    check(Texas42::new(Texas42Rules::FULL), Episode::Hand);
    check(Texas42::new(Texas42Rules::STANDARD), Episode::Game);
    check(Doubles::new(DoublesRules { players: 3, ..DoublesRules::default() }), Episode::Game);
}
