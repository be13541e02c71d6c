//! One random episode checked end to end ([`run_episode`]): every state and
//! transition, the same seed and actions again (determinism), a state saved
//! mid-episode (serde + bincode) and an `Env` saved there (`Env::save`), both
//! continued; and a `VecEnv` on one and two threads ([`run_vec_env`]).

use super::digest::{fingerprint, state_bytes};
use super::report::{Check, SuiteConfig, SuiteFailure, SuiteReport};
use super::state::{check_state, check_transition, first_difference, same_bits};
use crate::env::Env;
use crate::game::{Action, Episode, Game, GameState};
use crate::seed::{mix64, splitmix64};
use crate::vec_env::VecEnv;

/// What went wrong and at which step (0: the first state).
pub(super) type StepFail = (Check, String, usize);

/// Salts of the streams derived from a deal seed.
const CHOOSER: u64 = 0xC40_05E5;
const RESAMPLE: u64 = 0x5E5A_3D1E;
const SAVE: u64 = 0x5A7E;

/// Plays one episode of `game` dealt from `deal_seed`, actions drawn uniformly
/// among the legal ones, checking every state and transition; then replays it,
/// restores it mid-way from the state's bytes and from `Env::save`, and checks
/// every copy gives the same trajectory.
pub(super) fn run_episode<G: Game>(
    game: &G,
    episode: Episode,
    deal_seed: u64,
    config: &SuiteConfig,
    report: &mut SuiteReport,
) -> Result<(), StepFail> {
    let at = |step: usize| move |f: SuiteFailure| (f.check, f.message, step);
    let mut buf = vec![0.0f32; game.obs_len()];
    let mut st = game.new_state(deal_seed, episode);
    let mut rng = mix64(deal_seed ^ CHOOSER);
    let mut actions: Vec<Action> = Vec::new();
    let mut prints = vec![fingerprint(game, &st, &mut buf)];
    let mut rewards = [0.0f64; 4];
    check_state(game, &st, config, mix64(deal_seed ^ RESAMPLE), report).map_err(at(0))?;
    while !st.is_terminal() {
        let step = actions.len();
        if step >= config.max_steps {
            return Err((
                Check::Termination,
                format!("the episode did not end in {} decisions", config.max_steps),
                step,
            ));
        }
        if st.winning_side().is_some() {
            return Err((Check::Termination, "a game not over has a winner".into(), step));
        }
        let mask = st.legal_mask();
        let a = mask.nth((splitmix64(&mut rng) % mask.len() as u64) as usize);
        let before = st.clone();
        if let Err(e) = st.apply(a) {
            return Err((
                Check::LegalMask,
                format!("the legal action `{}` was refused: {e}", game.action_name(a)),
                step,
            ));
        }
        actions.push(a);
        for (t, r) in rewards.iter_mut().zip(st.rewards()) {
            *t += r as f64;
        }
        check_transition(game, &before, a, &st).map_err(at(step + 1))?;
        check_state(game, &st, config, mix64(deal_seed ^ RESAMPLE ^ (step as u64 + 1)), report)
            .map_err(at(step + 1))?;
        prints.push(fingerprint(game, &st, &mut buf));
    }
    let end = actions.len();
    if episode == Episode::Game && st.winning_side().is_none_or(|w| w >= game.num_sides()) {
        return Err((Check::Termination, format!("a finished game's winner is {:?}", st.winning_side()), end));
    }
    // The same seed and actions again.
    let again = replay(game, game.new_state(deal_seed, episode), &actions, &mut buf);
    if let Some(k) = (0..prints.len()).find(|&k| again.get(k) != Some(&prints[k])) {
        return Err((Check::Determinism, "the same seed and actions gave another trajectory".into(), k));
    }
    // A state saved mid-episode (serde + bincode) continues identically.
    let k = (mix64(deal_seed ^ SAVE) % (end as u64 + 1)) as usize;
    let mut mid = game.new_state(deal_seed, episode);
    for &a in &actions[..k] {
        mid.apply(a).expect("the actions replay");
    }
    let bytes = state_bytes(&mid);
    let decoded: G::State = match bincode::serde::decode_from_slice(&bytes, bincode::config::standard()) {
        Ok((s, used)) if used == bytes.len() => s,
        Ok((_, used)) => return Err((Check::SaveRestore, format!("{} of {} bytes decoded", used, bytes.len()), k)),
        Err(e) => return Err((Check::SaveRestore, format!("the state's bytes do not decode: {e}"), k)),
    };
    if state_bytes(&decoded) != bytes {
        return Err((Check::SaveRestore, "the decoded state encodes to other bytes".into(), k));
    }
    let tail = replay(game, decoded, &actions[k..], &mut buf);
    if let Some(j) = (0..tail.len()).find(|&j| tail[j] != prints[k + j]) {
        return Err((Check::SaveRestore, format!("the state restored at step {k} diverged"), k + j));
    }
    report.restores += 1;
    run_env(game, episode, deal_seed, &actions, k, &rewards, &mut buf)?;
    report.episodes += 1;
    Ok(())
}

/// The fingerprints of `st` and of the states after each action.
fn replay<G: Game>(game: &G, mut st: G::State, actions: &[Action], buf: &mut [f32]) -> Vec<Vec<u64>> {
    let mut out = vec![fingerprint(game, &st, buf)];
    for &a in actions {
        if st.apply(a).is_err() {
            break;
        }
        out.push(fingerprint(game, &st, buf));
    }
    out
}

/// The same episode through `Env`: each `TimeStep` shows the state's seat to
/// act, legal actions and observation; every reward is reported exactly once;
/// an `Env` saved at step `k` and restored continues identically; a step after
/// the end is refused.
fn run_env<G: Game>(
    game: &G,
    episode: Episode,
    deal_seed: u64,
    actions: &[Action],
    k: usize,
    rewards: &[f64; 4],
    buf: &mut [f32],
) -> Result<(), StepFail> {
    let mut st = game.new_state(deal_seed, episode);
    let mut env = Env::new(game.clone(), episode);
    let mut copy: Option<Env<G>> = None;
    let mut reported = [0.0f64; 4];
    let mut t = env.reset(deal_seed).clone();
    for step in 0..=actions.len() {
        if t.seat != st.current_seat() || t.legal != st.legal_mask() || t.terminated != st.is_terminal() {
            let msg = format!(
                "the TimeStep shows seat {:?}, legal {:?}, terminated {}; the state {:?}, {:?}, {}",
                t.seat,
                t.legal,
                t.terminated,
                st.current_seat(),
                st.legal_mask(),
                st.is_terminal()
            );
            return Err((Check::Env, msg, step));
        }
        match t.seat {
            Some(s) => st.observe(s, buf),
            None => buf.fill(0.0),
        }
        if !same_bits(&t.obs, buf) {
            return Err((
                Check::Env,
                format!("the TimeStep's observation: {}", first_difference(game, &t.obs, buf)),
                step,
            ));
        }
        for (r, x) in reported.iter_mut().zip(t.rewards) {
            *r += x as f64;
        }
        if step == k {
            let bytes = env.save();
            match Env::restore(game.clone(), &bytes) {
                Ok(c) if c.last() == env.last() => copy = Some(c),
                Ok(_) => return Err((Check::SaveRestore, "the restored Env's TimeStep differs".into(), step)),
                Err(e) => {
                    return Err((Check::SaveRestore, format!("Env::restore refused Env::save's bytes: {e}"), step))
                }
            }
        }
        let Some(&a) = actions.get(step) else { break };
        st.apply(a).expect("the actions replay");
        t = env.step(a).map_err(|e| (Check::Env, format!("Env refused a legal action: {e}"), step))?.clone();
        if let Some(c) = copy.as_mut() {
            match c.step(a) {
                Ok(u) if *u == t => {}
                _ => return Err((Check::SaveRestore, format!("the Env restored at step {k} diverged"), step + 1)),
            }
        }
    }
    if env.step(0).is_ok() {
        return Err((Check::Env, "Env took a step after the end".into(), actions.len()));
    }
    if copy.is_some_and(|c| c.save() != env.save()) {
        return Err((Check::SaveRestore, "the restored Env ended in another state".into(), actions.len()));
    }
    for s in 0..4 {
        let (want, got) = (rewards[s], reported[s]);
        if (want - got).abs() > 1e-4 * (1.0 + want.abs()) {
            let msg = format!("seat {s} was paid {want} by the state and {got} by the TimeSteps");
            return Err((Check::Env, msg, actions.len()));
        }
    }
    Ok(())
}

/// A `VecEnv` of 3 envs stepped `steps` times on one and on two threads (the
/// same buffers), each row the observation and mask of its env's state, and one
/// restored from `VecEnv::save` half-way continuing identically.
pub(super) fn run_vec_env<G: Game>(game: &G, episode: Episode, seed: u64, steps: usize) -> Result<(), StepFail> {
    let (ol, na) = (game.obs_len(), game.num_actions());
    let mut one = VecEnv::new(game.clone(), episode, 3, seed, 1);
    let mut two = VecEnv::new(game.clone(), episode, 3, seed, 2);
    let mut restored: Option<VecEnv<G>> = None;
    let mut rng = mix64(seed ^ CHOOSER);
    let mut buf = vec![0.0f32; ol];
    for step in 0..=steps {
        for v in [Some(&two), restored.as_ref()].into_iter().flatten() {
            let same = same_bits(&v.obs, &one.obs)
                && same_bits(&v.mask, &one.mask)
                && v.seats == one.seats
                && same_bits(&v.rewards, &one.rewards)
                && v.dones == one.dones;
            if !same {
                return Err((Check::Env, "two VecEnvs of the same seed and actions differ".into(), step));
            }
        }
        for i in 0..one.len() {
            let s = one.state(i);
            s.observe(one.seats[i] as usize, &mut buf);
            let mut mask = vec![0.0f32; na];
            s.legal_mask().write_f32(&mut mask);
            if !same_bits(&buf, &one.obs[i * ol..(i + 1) * ol]) || mask[..] != one.mask[i * na..(i + 1) * na] {
                return Err((Check::Env, format!("VecEnv row {i} is not its state's observation and mask"), step));
            }
        }
        if step == steps / 2 {
            let r = VecEnv::restore(game.clone(), 1, &one.save()).map_err(|e| {
                (Check::SaveRestore, format!("VecEnv::restore refused VecEnv::save's bytes: {e}"), step)
            })?;
            restored = Some(r);
        }
        if step == steps {
            break;
        }
        let actions: Vec<Action> = (0..one.len())
            .map(|i| {
                let m = one.state(i).legal_mask();
                m.nth((splitmix64(&mut rng) % m.len() as u64) as usize)
            })
            .collect();
        for v in [Some(&mut one), Some(&mut two), restored.as_mut()].into_iter().flatten() {
            v.step(&actions).map_err(|e| (Check::Env, format!("VecEnv refused legal actions: {e}"), step))?;
        }
    }
    Ok(())
}
