//! Fuzzing the learner's side of the wire: random bytes, real messages with
//! bytes flipped, cut or added, and shards that decode but whose contents were
//! changed field by field go through the learner's decode-and-check path
//! ([`accept`]). Nothing panics; a shard is refused in one line naming what is
//! wrong, or accepted, and then everything the update does with it (merging,
//! GAE, the PPO epochs) runs. The worker's side takes damaged weights and pools
//! without panicking too.

use super::wire::{decode, RngState};
use super::*;
use crate::checkpoint::{critic_config, policy_config};
use crate::collector::Episodes;
use crate::config::CriticKind;
use crate::critic::ORACLE_LEN;
use crate::ppo;
use crate::profile::Profile;
use crate::rollout::Rollout;
use bones_env::Texas42;
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, TestCaseError, TestRunner};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::sync::OnceLock;

/// A run of 2 workers (smoke: 8 games, 16 steps) with the oracle critic and a
/// teacher, so that every column of a rollout is filled; and real messages of it.
struct Fixture {
    cfg: TrainConfig,
    id: RunId,
    dims: Dims,
    /// Worker 0's shard of update 0.
    shard: Vec<u8>,
    /// The weights it was played with, and an opponent pool of one snapshot.
    weights: Vec<u8>,
    pool: Vec<u8>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let cfg = TrainConfig::load("smoke").unwrap().with(|c| {
            c.run.workers = 2;
            c.ppo.critic = CriticKind::Oracle;
            c.ppo.teacher = Some("heuristic".parse().expect("a spec"));
            c.ppo.teacher_coef = 0.5;
        });
        let game = Texas42::default();
        let dims = Dims::of(&game, &cfg);
        let device = Device::flex();
        let policy = || checkpoint::record_bytes(policy_config(&cfg, dims.obs, dims.actions).init(&device));
        let critic = checkpoint::record_bytes(critic_config(&cfg, dims.obs, ORACLE_LEN).init(&device));
        let id = RunId::of(&cfg);
        let msg = WeightsMsg {
            run: id.clone(),
            update: 0,
            start_update: 0,
            start_decisions: 0,
            pool_version: 0,
            policy: policy(),
            critic: Some(critic),
        };
        let weights = encode(WEIGHTS_TAG, &msg);
        let pool = encode(POOL_TAG, &PoolMsg { run: id.clone(), version: 1, policies: vec![policy()] });
        let mut worker = RolloutWorker::new(cfg.clone(), 0, Device::flex()).unwrap();
        worker.set_weights(&weights).unwrap();
        let shard = worker.rollout().unwrap();
        Fixture { cfg, id, dims, shard, weights, pool }
    })
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

/// The learner's answer to `bytes` as the only shard given: `Ok` with the
/// shard, or the error `update` would return.
fn answer(bytes: &[u8]) -> Result<RolloutShard, TrainError> {
    let fx = fixture();
    let expect = Expect { cfg: &fx.cfg, id: &fx.id, update: 0, dims: fx.dims };
    accept(bytes, &expect).map(|(_, shard)| shard).map_err(|(worker, source)| TrainError::Shard {
        index: 0,
        given: 1,
        worker,
        source,
    })
}

/// A refusal is one line that says which shard and why.
fn clear(e: &TrainError) -> Result<(), TestCaseError> {
    let line = e.to_string();
    prop_assert!(line.starts_with("bad rollout shard 0 of the 1 given"), "{line}");
    prop_assert!(!line.contains('\n') && line.len() < 2000, "not one short line: {line}");
    Ok(())
}

/// What the learner does with an accepted shard: merges it after the real
/// one (as worker 1's shard is merged after worker 0's, so that any index
/// past its own end would land past the merged rollout's), its GAE, and a PPO
/// update of fresh networks on it.
fn consume(shard: RolloutShard) -> Result<(), TestCaseError> {
    let fx = fixture();
    let (cfg, dims) = (&fx.cfg, fx.dims);
    let RolloutShard { rollout, episodes, profile, mut rng } = shard;
    let Ok(first) = answer(&fx.shard) else { return Err(TestCaseError::fail("the real shard was refused")) };
    let mut merged = Rollout::new(0, dims.obs, dims.actions, dims.oracle);
    merged.append(&first.rollout);
    merged.append(&rollout);
    let (mut counts, mut times) = (Episodes::default(), Profile::default());
    for (e, p) in [(&first.episodes, &first.profile), (&episodes, &profile)] {
        counts.absorb(e);
        times.absorb(p);
    }
    let chains = first.rollout.open_chains().len() + rollout.open_chains().len();
    prop_assert_eq!(merged.open_chains().len(), chains);
    let (adv, ret) = merged.advantages(cfg.ppo.gamma, cfg.ppo.gae_lambda);
    prop_assert!(adv.iter().chain(&ret).all(|x| x.is_finite()), "GAE of an accepted shard is not finite");
    let device = Device::flex().autodiff();
    let nets = ppo::Nets {
        model: policy_config(cfg, dims.obs, dims.actions).init(&device),
        critic: Some(critic_config(cfg, dims.obs, dims.oracle).init(&device)),
    };
    let mut optim = burn::optim::AdamConfig::new().with_epsilon(1e-5).init();
    let batch = ppo::Batch { rollout: &merged, advantages: &adv, returns: &ret };
    let settings = ppo::Settings { cfg, lr: 1e-4, device: &device };
    let (_, stats) = ppo::update(nets, &mut optim, batch, settings, &mut rng, &mut Profile::default());
    prop_assert!(stats.minibatches >= 1 || merged.is_empty());
    Ok(())
}

/// The learner's answer to `bytes`: a clear refusal, or a shard it can learn from.
fn refused_or_learned(bytes: &[u8]) -> Result<bool, TestCaseError> {
    match answer(bytes) {
        Ok(shard) => consume(shard).map(|()| false),
        Err(e) => clear(&e).map(|()| true),
    }
}

/// Damage to a message's bytes (positions taken modulo its length).
#[derive(Clone, Debug)]
enum Damage {
    Flip { at: usize, bits: u8 },
    Set { at: usize, byte: u8 },
    Cut { keep: usize },
    Append(Vec<u8>),
    Insert { at: usize, bytes: Vec<u8> },
    Remove { at: usize, len: usize },
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        (any::<usize>(), 1..=255u8).prop_map(|(at, bits)| Damage::Flip { at, bits }),
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Damage::Set { at, byte }),
        any::<usize>().prop_map(|keep| Damage::Cut { keep }),
        prop::collection::vec(any::<u8>(), 1..16).prop_map(Damage::Append),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(at, bytes)| Damage::Insert { at, bytes }),
        (any::<usize>(), 1..64usize).prop_map(|(at, len)| Damage::Remove { at, len }),
    ]
}

fn damaged(bytes: &[u8], damage: &[Damage]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for d in damage {
        let n = b.len().max(1);
        match d {
            Damage::Flip { at, bits } => {
                if let Some(x) = b.get_mut(at % n) {
                    *x ^= bits;
                }
            }
            Damage::Set { at, byte } => {
                if let Some(x) = b.get_mut(at % n) {
                    *x = *byte;
                }
            }
            Damage::Cut { keep } => b.truncate(keep % n),
            Damage::Append(more) => b.extend_from_slice(more),
            Damage::Insert { at, bytes } => {
                let at = at % (b.len() + 1);
                b.splice(at..at, bytes.iter().copied());
            }
            Damage::Remove { at, len } => {
                let at = at % n;
                let end = (at + len).min(b.len());
                b.drain(at.min(end)..end);
            }
        }
    }
    b
}

#[test]
fn random_bytes_are_refused_in_one_line_whatever_their_tag() {
    let strategy = (prop::collection::vec(any::<u8>(), 0..600), 0..3u8);
    TestRunner::new(config(300))
        .run(&strategy, |(body, tag)| {
            let tag: &[u8] = [&SHARD_TAG[..], &WEIGHTS_TAG[..], b""][tag as usize];
            let bytes = [tag, &body].concat();
            let e = answer(&bytes).err().ok_or_else(|| TestCaseError::fail("random bytes were accepted"))?;
            clear(&e)
        })
        .unwrap();
}

#[test]
fn a_real_shard_is_accepted_and_learned_from() {
    let fx = fixture();
    let shard = answer(&fx.shard).unwrap();
    assert!(!shard.rollout.is_empty() && shard.rollout.steps.iter().any(|t| t.teacher.is_some()));
    assert_eq!(shard.rollout.oracle.len(), shard.rollout.len() * ORACLE_LEN);
    consume(shard).unwrap();
}

#[test]
fn damaged_shards_and_weights_are_refused_in_one_line_or_learned_from() {
    let fx = fixture();
    let strategy = (prop::collection::vec(damage(), 1..4), any::<bool>());
    let refused = RefCell::new([0u32; 2]);
    TestRunner::new(config(256))
        .run(&strategy, |(damage, weights)| {
            let original = if weights { &fx.weights } else { &fx.shard };
            let bytes = damaged(original, &damage);
            if weights {
                let e = answer(&bytes).err().ok_or_else(|| TestCaseError::fail("weights taken for a shard"))?;
                return clear(&e);
            }
            let was_refused = refused_or_learned(&bytes)?;
            refused.borrow_mut()[usize::from(was_refused)] += 1;
            Ok(())
        })
        .unwrap();
    // The damage reaches both outcomes (or the test would not be testing both).
    let [learned, refused] = refused.into_inner();
    assert!(learned > 0 && refused > 0, "{learned} learned from, {refused} refused");
}

/// The shard's message with every field at hand, to change and encode again
/// (the serialised form of [`ShardMsg`], field for field).
#[derive(Serialize, Deserialize)]
struct Editable {
    run: RunId,
    worker: usize,
    update: u64,
    rollout: EditableRollout,
    episodes: Episodes,
    profile: Profile,
    rng: RngState,
}

#[derive(Serialize, Deserialize)]
struct EditableRollout {
    obs_len: usize,
    num_actions: usize,
    steps: Vec<crate::rollout::Transition>,
    obs: EditableRows,
    masks: Vec<f32>,
    oracle_len: usize,
    oracle: Vec<f32>,
    open: Vec<[Option<usize>; 4]>,
}

#[derive(Serialize, Deserialize)]
struct EditableRows {
    width: usize,
    start: Vec<usize>,
    index: Vec<u32>,
    value: Vec<f32>,
}

/// A change to one field of a shard that still decodes (indices taken modulo
/// the column's length).
#[derive(Clone, Debug)]
enum Edit {
    /// Sets a transition's `env`, `seat`, `action`, `teacher` or `next` (kind
    /// 0-4; 5: no teacher; 6: no next; 7: `done` flipped).
    Index {
        step: usize,
        kind: u8,
        value: usize,
    },
    /// Sets a transition's `logp`, `value`, `reward` or `bootstrap`.
    Float {
        step: usize,
        kind: u8,
        value: f32,
    },
    Open {
        game: usize,
        seat: usize,
        value: Option<usize>,
    },
    Mask {
        at: usize,
        value: f32,
    },
    Hidden {
        at: usize,
        value: f32,
    },
    ObsStart {
        at: usize,
        value: usize,
    },
    ObsIndex {
        at: usize,
        value: u32,
    },
    ObsValue {
        at: usize,
        value: f32,
    },
    /// Sets `obs_len`, `num_actions`, `oracle_len` or `obs.width`.
    Size {
        kind: u8,
        value: usize,
    },
    /// Drops the last entry of a column (kind 0-5: steps, masks, oracle,
    /// open, obs.start, obs.index), or (6) repeats a transition at the end.
    Column {
        kind: u8,
        step: usize,
    },
    /// Sets a count of `episodes` (kind 0-5: decisions, hands, finished,
    /// against_pool, length_sum, return_sum).
    Count {
        kind: u8,
        value: u64,
    },
    ProfileTotal(f64),
    Stream(u64),
    Worker(usize),
    Update(u64),
}

fn index() -> impl Strategy<Value = usize> {
    prop_oneof![0..8usize, 0..200usize, Just(usize::MAX), any::<usize>()]
}

fn float() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(1e7),
        Just(-1e7),
        Just(0.0),
        Just(-100.0),
        Just(0.5),
        Just(1.0),
        -10.0f32..10.0,
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        8 => (any::<usize>(), 0..8u8, index()).prop_map(|(step, kind, value)| Edit::Index { step, kind, value }),
        4 => (any::<usize>(), 0..4u8, float()).prop_map(|(step, kind, value)| Edit::Float { step, kind, value }),
        2 => (any::<usize>(), 0..4usize, prop::option::of(index()))
            .prop_map(|(game, seat, value)| Edit::Open { game, seat, value }),
        1 => (any::<usize>(), float()).prop_map(|(at, value)| Edit::Mask { at, value }),
        1 => (any::<usize>(), float()).prop_map(|(at, value)| Edit::Hidden { at, value }),
        1 => (any::<usize>(), index()).prop_map(|(at, value)| Edit::ObsStart { at, value }),
        1 => (any::<usize>(), prop_oneof![0..600u32, any::<u32>()]).prop_map(|(at, value)| Edit::ObsIndex { at, value }),
        1 => (any::<usize>(), float()).prop_map(|(at, value)| Edit::ObsValue { at, value }),
        1 => (0..4u8, index()).prop_map(|(kind, value)| Edit::Size { kind, value }),
        1 => (0..7u8, any::<usize>()).prop_map(|(kind, step)| Edit::Column { kind, step }),
        1 => (0..6u8, prop_oneof![0..2000u64, any::<u64>()]).prop_map(|(kind, value)| Edit::Count { kind, value }),
        1 => prop_oneof![Just(f64::NAN), Just(-1.0), Just(f64::INFINITY), 0.0..10.0f64].prop_map(Edit::ProfileTotal),
        1 => any::<u64>().prop_map(Edit::Stream),
        1 => prop_oneof![0..3usize, Just(usize::MAX)].prop_map(Edit::Worker),
        1 => prop_oneof![0..2u64, Just(u64::MAX)].prop_map(Edit::Update),
    ]
}

/// Sets element `at` (modulo the length) of `v`, if it has any.
fn set<T>(v: &mut [T], at: usize, value: T) {
    let n = v.len();
    if n > 0 {
        v[at % n] = value;
    }
}

fn apply(m: &mut Editable, edit: &Edit) {
    let r = &mut m.rollout;
    let n = r.steps.len();
    match *edit {
        Edit::Index { step, kind, value } if n > 0 => {
            let t = &mut r.steps[step % n];
            match kind {
                0 => t.env = value,
                1 => t.seat = value,
                2 => t.action = value,
                3 => t.teacher = Some(value),
                4 => t.next = Some(value),
                5 => t.teacher = None,
                6 => t.next = None,
                _ => t.done = !t.done,
            }
        }
        Edit::Float { step, kind, value } if n > 0 => {
            let t = &mut r.steps[step % n];
            *[&mut t.logp, &mut t.value, &mut t.reward, &mut t.bootstrap][kind as usize % 4] = value;
        }
        Edit::Index { .. } | Edit::Float { .. } => {}
        Edit::Open { game, seat, value } => {
            let len = r.open.len();
            if len > 0 {
                r.open[game % len][seat] = value;
            }
        }
        Edit::Mask { at, value } => set(&mut r.masks, at, value),
        Edit::Hidden { at, value } => set(&mut r.oracle, at, value),
        Edit::ObsStart { at, value } => set(&mut r.obs.start, at, value),
        Edit::ObsIndex { at, value } => set(&mut r.obs.index, at, value),
        Edit::ObsValue { at, value } => set(&mut r.obs.value, at, value),
        Edit::Size { kind, value } => match kind {
            0 => r.obs_len = value,
            1 => r.num_actions = value,
            2 => r.oracle_len = value,
            _ => r.obs.width = value,
        },
        Edit::Column { kind, step } => match kind {
            0 => {
                r.steps.truncate(r.steps.len().saturating_sub(1));
            }
            1 => {
                r.masks.truncate(r.masks.len().saturating_sub(1));
            }
            2 => {
                r.oracle.truncate(r.oracle.len().saturating_sub(1));
            }
            3 => {
                r.open.truncate(r.open.len().saturating_sub(1));
            }
            4 => {
                r.obs.start.truncate(r.obs.start.len().saturating_sub(1));
            }
            5 => {
                r.obs.index.truncate(r.obs.index.len().saturating_sub(1));
            }
            _ if n > 0 => {
                let t = r.steps[step % n].clone();
                r.steps.push(t);
            }
            _ => {}
        },
        Edit::Count { kind, value } => {
            let e = &mut m.episodes;
            match kind {
                0 => e.decisions = value,
                1 => e.hands = value,
                2 => e.finished = value,
                3 => e.against_pool = value,
                4 => e.length_sum = value,
                _ => e.return_sum = value as f64 * 1e300,
            }
        }
        Edit::ProfileTotal(total) => m.profile.total = total,
        Edit::Stream(stream) => m.rng.stream = stream,
        Edit::Worker(worker) => m.worker = worker,
        Edit::Update(update) => m.update = update,
    }
}

#[test]
fn the_editable_form_of_a_shard_is_its_wire_form() {
    let fx = fixture();
    let m: Editable = decode(SHARD_TAG, "rollout shard", &fx.shard).unwrap();
    assert_eq!(encode(SHARD_TAG, &m), fx.shard);
}

#[test]
fn shards_changed_field_by_field_are_refused_in_one_line_or_learned_from() {
    let fx = fixture();
    let outcomes = RefCell::new([0u32; 2]);
    TestRunner::new(config(600))
        .run(
            &prop_oneof![3 => prop::collection::vec(edit(), 1..2), 1 => prop::collection::vec(edit(), 2..4)],
            |edits| {
                let mut m: Editable = decode(SHARD_TAG, "rollout shard", &fx.shard).unwrap();
                for e in &edits {
                    apply(&mut m, e);
                }
                let was_refused = refused_or_learned(&encode(SHARD_TAG, &m))?;
                outcomes.borrow_mut()[usize::from(was_refused)] += 1;
                Ok(())
            },
        )
        .unwrap();
    let [learned, refused] = outcomes.into_inner();
    assert!(learned > 0 && refused > 0, "{learned} learned from, {refused} refused");
}

#[test]
fn a_worker_takes_damaged_weights_and_pools_without_panicking() {
    let fx = fixture();
    let worker = RefCell::new(RolloutWorker::new(fx.cfg.clone(), 1, Device::flex()).unwrap());
    let strategy = (prop::collection::vec(damage(), 1..4), any::<bool>());
    TestRunner::new(config(48))
        .run(&strategy, |(damage, pool)| {
            let mut w = worker.borrow_mut();
            let answer = match pool {
                true => w.set_pool(&damaged(&fx.pool, &damage)),
                false => w.set_weights(&damaged(&fx.weights, &damage)).map(|_| ()),
            };
            if let Err(e) = answer {
                let line = e.to_string();
                prop_assert!(line.starts_with("bad ") && !line.contains('\n'), "{line}");
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn an_inconsistent_shard_is_refused_by_the_update_which_counts_nothing_and_takes_good_shards_after() {
    let cfg = TrainConfig::load("smoke").unwrap().with(|c| c.run.workers = 2);
    let out = std::env::temp_dir().join(format!("bones-remote-inconsistent-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let mut learner = Learner::new(cfg.clone(), &out, false, Device::flex()).unwrap();
    let weights = learner.weights(0).unwrap();
    let shards: Vec<Vec<u8>> = (0..2)
        .map(|w| {
            let mut worker = RolloutWorker::new(cfg.clone(), w, Device::flex()).unwrap();
            worker.set_weights(&weights).unwrap();
            worker.rollout().unwrap()
        })
        .collect();
    let mut m: Editable = decode(SHARD_TAG, "rollout shard", &shards[1]).unwrap();
    m.rollout.steps[3].next = Some(1_000_000);
    let bad = encode(SHARD_TAG, &m);
    let e = learner.update(&[&shards[0], &bad]).unwrap_err();
    let n = m.rollout.steps.len();
    assert!(matches!(e, TrainError::Shard { index: 1, given: 2, worker: Some(1), .. }), "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "bad rollout shard 1 of the 2 given (worker 1): transition 3: `next` is 1000000; \
             expected less than {n} (the transitions)"
        )
    );
    assert_eq!((learner.state().update, learner.state().decisions), (0, 0));
    learner.update(&[&shards[1], &shards[0]]).unwrap();
    assert_eq!((learner.state().update, learner.state().decisions), (1, 8 * 16));
    drop(learner);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_message_that_claims_more_bytes_than_it_holds_is_refused_without_allocating_them() {
    // The run's game name first: a length of about 2^62 bytes, and nothing after it.
    let mut bytes = SHARD_TAG.to_vec();
    bytes.extend([0xFD, 0, 0, 0, 0, 0, 0, 0, 0x40]);
    let e = answer(&bytes).err().unwrap();
    assert!(e.to_string().starts_with("bad rollout shard 0 of the 1 given: unreadable ("), "{e}");
    let mut worker = RolloutWorker::new(fixture().cfg.clone(), 0, Device::flex()).unwrap();
    bytes[..8].copy_from_slice(&WEIGHTS_TAG);
    let e = worker.set_weights(&bytes).unwrap_err().to_string();
    assert!(e.starts_with("bad weights: unreadable ("), "{e}");
}
