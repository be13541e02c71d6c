//! The gym-style API: reset/step, rewards, truncation, and determinism through
//! Env and VecEnv (1 and 2 threads give identical buffers).

use bones_env::{Env, EnvError, Episode, Game, GameState, Texas42, Texas42Rules, VecEnv};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// (seat, observation, legal mask bits, rewards) at each decision.
type Trajectory = Vec<(Option<usize>, Vec<f32>, u64, [f32; 4])>;

fn random_episode(env: &mut Env<Texas42>, seed: u64, rng: &mut ChaCha8Rng) -> Trajectory {
    let mut traj = Vec::new();
    let mut t = env.reset(seed).clone();
    loop {
        traj.push((t.seat, t.obs.clone(), t.legal.0, t.rewards));
        if t.terminated {
            return traj;
        }
        let a = t.legal.nth(rng.random_range(0..t.legal.len()));
        t = env.step(a).unwrap().clone();
    }
}

#[test]
fn same_seed_and_actions_give_identical_trajectories() {
    let game = Texas42::new(Texas42Rules::FULL);
    for episode in [Episode::Hand, Episode::Game] {
        let mut env = Env::new(game, episode);
        let a = random_episode(&mut env, 99, &mut ChaCha8Rng::seed_from_u64(1));
        let b = random_episode(&mut env, 99, &mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(a, b);
        let c = random_episode(&mut env, 100, &mut ChaCha8Rng::seed_from_u64(1));
        assert_ne!(a, c, "a different seed deals differently");
    }
}

#[test]
fn terminal_rewards_are_team_zero_sum_and_reported_to_every_seat() {
    let mut env = Env::new(Texas42::new(Texas42Rules::STANDARD), Episode::Hand);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for seed in 0..50 {
        let traj = random_episode(&mut env, seed, &mut rng);
        let last = traj.last().unwrap().3;
        assert_eq!(last[0], last[2]);
        assert_eq!(last[1], last[3]);
        assert_eq!(last[0], -last[1]);
        assert!(last[0] != 0.0, "a played hand always awards marks");
        assert!(traj[..traj.len() - 1].iter().all(|s| s.3 == [0.0; 4]));
    }
}

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

fn run_vec(threads: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>, u64) {
    let game = Texas42::new(Texas42Rules::FULL);
    let mut v = VecEnv::new(game, Episode::Hand, 7, 1234, threads);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut obs = Vec::new();
    let mut rewards = Vec::new();
    let na = game.num_actions();
    for _ in 0..200 {
        let actions: Vec<usize> = (0..v.len())
            .map(|i| {
                let legal: Vec<usize> = (0..na).filter(|a| v.mask[i * na + a] > 0.5).collect();
                legal[rng.random_range(0..legal.len())]
            })
            .collect();
        v.step(&actions).unwrap();
        obs.extend_from_slice(&v.obs);
        rewards.extend_from_slice(&v.rewards);
    }
    (obs, v.mask.clone(), rewards, v.episodes_done)
}

#[test]
fn vec_env_is_identical_with_one_or_two_threads() {
    let a = run_vec(1);
    let b = run_vec(2);
    assert!(a.3 > 7, "envs auto-reset and play several episodes");
    assert_eq!(a, b);
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
