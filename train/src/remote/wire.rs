//! The bytes the learner and its rollout workers trade: weights, the
//! opponent pool and rollout shards, each tagged with what it is and its
//! format's version, and stamped with the run it belongs to.

use crate::collector::Episodes;
use crate::config::TrainConfig;
use crate::error::TrainError;
use crate::profile::Profile;
use rand_chacha::ChaCha8Rng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The first bytes of each message: what it is, and the format's version.
pub(super) const WEIGHTS_TAG: [u8; 8] = *b"bonesW01";
pub(super) const POOL_TAG: [u8; 8] = *b"bonesP01";
pub(super) const SHARD_TAG: [u8; 8] = *b"bonesS01";

/// The run a message belongs to: bytes of another game, seed or worker count
/// are refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct RunId {
    #[serde(deserialize_with = "string_in_place")]
    pub(super) game: String,
    pub(super) seed: u64,
    pub(super) workers: usize,
}

/// A string read where it lies in the message's bytes, then copied: a length
/// that the bytes do not hold is refused before anything is allocated for it
/// (bincode's own `String` allocates the length it reads first).
fn string_in_place<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    struct Text;
    impl serde::de::Visitor<'_> for Text {
        type Value = String;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<String, E> {
            Ok(s.to_owned())
        }
    }
    d.deserialize_str(Text)
}

impl RunId {
    pub(super) fn of(cfg: &TrainConfig) -> RunId {
        RunId { game: cfg.model.game.clone(), seed: cfg.run.seed, workers: cfg.run.workers }
    }

    /// Refuses `other` (from a message that is a `what`) unless it is this run.
    pub(super) fn check(&self, other: &RunId, what: &'static str) -> Result<(), TrainError> {
        self.mismatch(other).map_or(Ok(()), |reason| Err(TrainError::Wire { what, reason }))
    }

    /// Why `other` is not this run, if it is not.
    pub(super) fn mismatch(&self, other: &RunId) -> Option<String> {
        (self != other).then(|| {
            format!(
                "they are of a {} run with seed {} and {} workers; this one trains {} with seed {} and {} workers",
                other.game, other.seed, other.workers, self.game, self.seed, self.workers
            )
        })
    }
}

/// The behaviour policy of the rollout of one update.
#[derive(Serialize, Deserialize)]
pub(super) struct WeightsMsg {
    pub(super) run: RunId,
    /// The update whose rollout these weights play.
    pub(super) update: u64,
    /// The learner's counters when it sent them: a worker's first weights deal
    /// its games from them.
    pub(super) start_update: u64,
    pub(super) start_decisions: u64,
    /// The pool the rollout is played against.
    pub(super) pool_version: u64,
    /// The policy's and the oracle critic's inference copies, as burnpack records.
    pub(super) policy: Vec<u8>,
    pub(super) critic: Option<Vec<u8>>,
}

/// The opponent pool, oldest first, as burnpack records.
#[derive(Serialize, Deserialize)]
pub(super) struct PoolMsg {
    pub(super) run: RunId,
    pub(super) version: u64,
    pub(super) policies: Vec<Vec<u8>>,
}

/// One worker's shard of the rollout of one update (`R`: a
/// [`Rollout`](crate::rollout::Rollout) as sent, an [`UncheckedRollout`](crate::rollout::check::UncheckedRollout) as received).
#[derive(Serialize, Deserialize)]
pub(super) struct ShardMsg<R> {
    pub(super) run: RunId,
    pub(super) worker: usize,
    pub(super) update: u64,
    pub(super) rollout: R,
    pub(super) episodes: Episodes,
    pub(super) profile: Profile,
    pub(super) rng: RngState,
}

/// Where a ChaCha stream stands (shard 0's goes on to order the minibatches).
#[derive(Serialize, Deserialize)]
pub(super) struct RngState {
    pub(super) seed: [u8; 32],
    pub(super) stream: u64,
    pub(super) word_pos: u128,
}

impl RngState {
    pub(super) fn of(rng: &ChaCha8Rng) -> RngState {
        RngState { seed: rng.get_seed(), stream: rng.get_stream(), word_pos: rng.get_word_pos() }
    }

    pub(super) fn restore(&self) -> ChaCha8Rng {
        let mut rng = <ChaCha8Rng as rand::SeedableRng>::from_seed(self.seed);
        rng.set_stream(self.stream);
        rng.set_word_pos(self.word_pos);
        rng
    }
}

pub(super) fn encode<T: Serialize>(tag: [u8; 8], msg: &T) -> Vec<u8> {
    let mut out = tag.to_vec();
    bincode::serde::encode_into_std_write(msg, &mut out, bincode::config::standard())
        .expect("a message serialises into memory");
    out
}

/// The message of kind `tag` (a `what`) in `bytes`.
pub(super) fn decode<T: DeserializeOwned>(tag: [u8; 8], what: &'static str, bytes: &[u8]) -> Result<T, TrainError> {
    decode_reason(tag, what, bytes).map_err(|reason| TrainError::Wire { what, reason })
}

/// [`decode`], its error the reason alone.
pub(super) fn decode_reason<T: DeserializeOwned>(tag: [u8; 8], what: &'static str, bytes: &[u8]) -> Result<T, String> {
    let Some(body) = bytes.strip_prefix(&tag[..]) else {
        let kind = match bytes.get(..8).and_then(|t| <[u8; 8]>::try_from(t).ok()) {
            Some(WEIGHTS_TAG) => "weights".to_string(),
            Some(POOL_TAG) => "an opponent pool".to_string(),
            Some(SHARD_TAG) => "a rollout shard".to_string(),
            _ => format!("{} bytes that are no message of a Bones learner or worker", bytes.len()),
        };
        return Err(format!("expected {what}, got {kind}"));
    };
    let (msg, used) = bincode::serde::decode_from_slice(body, bincode::config::standard())
        .map_err(|e| format!("unreadable ({e})"))?;
    if used != body.len() {
        return Err(format!("{} bytes past the end of the message", body.len() - used));
    }
    Ok(msg)
}

/// Checks what both halves need of a config: a valid one, with workers.
pub(super) fn check_config(cfg: &TrainConfig) -> Result<(), TrainError> {
    cfg.validate().map_err(TrainError::Config)?;
    if cfg.run.workers == 0 {
        return Err(TrainError::Config(
            "`workers` is 0: a learner fed by rollout workers needs the number of workers (at least 1)".into(),
        ));
    }
    Ok(())
}
