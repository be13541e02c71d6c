//! Bid rounds (config `[bidding]`): bid values priced by the play that follows
//! them, refit round after round (after the mk5 project's bidder).
//!
//! While rounds remain, the collector logs every contract decision (a bid, a
//! trump) of the games the current policy plays in all four seats, and when
//! the hand ends, the hand's reward to the deciding seat ([`BidLog`]). Every
//! `round_hands` hands the run fits the bid values ([`fit`]) to what was
//! logged in the last `keep_rounds` rounds, each round's records weighted
//! `recent_weight` per round of age; from then on the bid values steer the
//! policy's contract decisions (bones-policy's `bid_values`: the policy head's
//! logits plus 4 × value) and PPO trains the play alone, so that play adapts
//! to the contracts it is given.
//!
//! The winner's curse (a bid chosen because its estimate is high is
//! over-estimated) is guarded against by two fits on disjoint halves of the
//! hands: a choice's value is the lower of the two. The calibration of each
//! round ([`Calibration`]) is out of sample: each declaration's make-rate is
//! predicted by the fit that did not see its hand.

use crate::checkpoint::{write_atomic, CheckpointError};
use crate::config::BiddingSection;
use bones_policy::bid_values::BidValues;
use bones_policy::sparse::SparseRows;
use burn::optim::{AdamConfig, GradientsParams};
use burn::prelude::*;
use burn::tensor::Int;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Contract decisions and how their hands came out for the deciding seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct BidRecords {
    /// The deciding seat's observation, one row per decision.
    pub obs: SparseRows,
    /// The choice made.
    pub action: Vec<u8>,
    /// The hand's reward to the deciding seat (the config's `reward`, before `reward_scale`).
    pub target: Vec<f32>,
    /// Which fit learns from it (0 or 1: the hands alternate).
    pub half: Vec<u8>,
    /// Whether it is the hand's last contract decision (the one that named
    /// the contract played: the declarer's, whose reward says made or set).
    pub named: Vec<bool>,
}

impl BidRecords {
    pub fn new(obs_len: usize) -> BidRecords {
        BidRecords { obs: SparseRows::new(obs_len), action: vec![], target: vec![], half: vec![], named: vec![] }
    }

    pub fn len(&self) -> usize {
        self.action.len()
    }

    fn append(&mut self, other: &BidRecords) {
        for r in 0..other.len() {
            self.obs.push_row(&other.obs, r);
        }
        self.action.extend_from_slice(&other.action);
        self.target.extend_from_slice(&other.target);
        self.half.extend_from_slice(&other.half);
        self.named.extend_from_slice(&other.named);
    }
}

/// One game's contract decisions so far in its hand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Pending {
    obs: SparseRows,
    /// (action, seat) of each decision.
    choices: Vec<(u8, u8)>,
    /// Each seat's reward so far this hand.
    rewards: [f32; 4],
    /// A seat of the hand was played by another policy than the learner's
    /// (a snapshot): the hand is not logged.
    mixed: bool,
}

impl Pending {
    fn new(obs_len: usize) -> Pending {
        Pending { obs: SparseRows::new(obs_len), choices: vec![], rewards: [0.0; 4], mixed: false }
    }
}

/// The collector's log of contract decisions, kept across rollouts (a hand
/// may span two) and saved in checkpoints with the games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct BidLog {
    pending: Vec<Pending>,
    /// Finished hands' records, not yet handed to the run.
    pub finished: BidRecords,
    /// Hands logged so far (their parity picks the half).
    hands: u64,
}

impl BidLog {
    pub fn new(games: usize, obs_len: usize) -> BidLog {
        BidLog { pending: vec![Pending::new(obs_len); games], finished: BidRecords::new(obs_len), hands: 0 }
    }

    pub fn games(&self) -> usize {
        self.pending.len()
    }

    /// Seat `seat` of game `env` chose `action` at a contract decision, seeing row `r` of `obs`.
    pub fn push(&mut self, env: usize, seat: usize, obs: &SparseRows, r: usize, action: usize) {
        let p = &mut self.pending[env];
        p.obs.push_row(obs, r);
        p.choices.push((action as u8, seat as u8));
    }

    /// Game `env`'s hand had a seat played by another policy.
    pub fn mix(&mut self, env: usize) {
        self.pending[env].mixed = true;
    }

    /// Game `env` stepped with `rewards` (per seat); `done`: its hand ended.
    pub fn step(&mut self, env: usize, rewards: &[f32], done: bool) {
        let p = &mut self.pending[env];
        for (sum, r) in p.rewards.iter_mut().zip(rewards) {
            *sum += r;
        }
        if !done {
            return;
        }
        let p = std::mem::replace(p, Pending::new(p.obs.width()));
        if p.mixed || p.choices.is_empty() {
            return;
        }
        let half = (self.hands % 2) as u8;
        self.hands += 1;
        let last = p.choices.len() - 1;
        for (r, &(action, seat)) in p.choices.iter().enumerate() {
            self.finished.obs.push_row(&p.obs, r);
            self.finished.action.push(action);
            self.finished.target.push(p.rewards[seat as usize]);
            self.finished.half.push(half);
            self.finished.named.push(r == last);
        }
    }

    /// The finished hands' records, leaving none.
    pub fn take(&mut self) -> BidRecords {
        let width = self.finished.obs.width();
        std::mem::replace(&mut self.finished, BidRecords::new(width))
    }
}

/// The records of the rounds kept, oldest first, and the round being logged last.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct BidData {
    /// (round number, its records).
    pub rounds: Vec<(u32, BidRecords)>,
}

impl BidData {
    pub fn new() -> BidData {
        BidData { rounds: Vec::new() }
    }

    /// Adds records to round `round` (a new round starts a new entry).
    pub fn add(&mut self, round: u32, records: &BidRecords) {
        if records.len() == 0 {
            return;
        }
        match self.rounds.last_mut() {
            Some((r, recs)) if *r == round => recs.append(records),
            _ => self.rounds.push((round, records.clone())),
        }
    }

    /// Drops rounds older than the `keep` newest.
    pub fn keep(&mut self, keep: usize) {
        let n = self.rounds.len();
        if n > keep {
            self.rounds.drain(..n - keep);
        }
    }

    pub fn len(&self) -> usize {
        self.rounds.iter().map(|(_, r)| r.len()).sum()
    }
}

/// What a checkpoint keeps of the bid rounds (`bids.bin`): the records, and
/// the log of the games in progress.
pub(crate) fn save_bids(data: &BidData, log: Option<&BidLog>) -> Vec<u8> {
    bincode::serde::encode_to_vec((data, log), bincode::config::standard()).expect("bid records encode")
}

/// Reads back [`save_bids`]'s bytes.
pub(crate) fn load_bids(bytes: &[u8]) -> Result<(BidData, Option<BidLog>), String> {
    bincode::serde::decode_from_slice(bytes, bincode::config::standard()).map(|(v, _)| v).map_err(|e| e.to_string())
}

/// What one round's fit reports.
#[derive(Clone, Debug)]
pub(crate) struct FitReport {
    /// Records fitted (all kept rounds).
    pub records: usize,
    /// Mean weighted squared error of the last epoch.
    pub loss: f32,
    /// Out-of-sample calibration of the round's declarations.
    pub calibration: Calibration,
}

/// Predicted against realized make-rate of declarations, in ten bins of the prediction.
#[derive(Clone, Debug, Default)]
pub(crate) struct Calibration {
    /// Per bin: declarations, summed predicted make-rate, contracts made.
    pub bins: [(u64, f64, u64); 10],
}

impl Calibration {
    fn add(&mut self, predicted: f64, made: bool) {
        let bin = ((predicted * 10.0) as usize).min(9);
        let b = &mut self.bins[bin];
        b.0 += 1;
        b.1 += predicted;
        b.2 += made as u64;
    }

    /// Declarations counted.
    pub fn count(&self) -> u64 {
        self.bins.iter().map(|b| b.0).sum()
    }

    /// Mean absolute gap between predicted and realized make-rate, weighted by the bins' counts.
    pub fn error(&self) -> f64 {
        let n = self.count().max(1) as f64;
        self.bins.iter().filter(|b| b.0 > 0).map(|b| (b.1 - b.2 as f64).abs()).sum::<f64>() / n
    }

    /// CSV rows `round,bin,declarations,predicted,made` (rates in each bin).
    pub fn csv_rows(&self, round: u32) -> String {
        let mut out = String::new();
        for (i, &(n, p, made)) in self.bins.iter().enumerate().filter(|(_, b)| b.0 > 0) {
            let n_f = n as f64;
            out += &format!(
                "{round},{:.1}-{:.1},{n},{:.4},{:.4}\n",
                i as f64 / 10.0,
                (i + 1) as f64 / 10.0,
                p / n_f,
                made as f64 / n_f
            );
        }
        out
    }
}

/// Writes round `round`'s calibration rows into `path` (`bidding.csv`) after
/// the rows of the rounds before it: a resumed run writes its rounds again,
/// and rows of this round or later (from the session that stopped) give way.
pub(crate) fn write_calibration(path: &Path, round: u32, calibration: &Calibration) -> Result<(), CheckpointError> {
    let earlier = |line: &&str| line.split(',').next().and_then(|r| r.parse::<u32>().ok()).is_none_or(|r| r < round);
    let kept: String = match std::fs::read_to_string(path) {
        Ok(text) => text.lines().filter(earlier).map(|l| format!("{l}\n")).collect(),
        Err(_) => "round,bin,declarations,predicted,made\n".to_string(),
    };
    write_atomic(path, (kept + &calibration.csv_rows(round)).as_bytes())
}

/// Fits `bids` (on the autodiff `device`) to `data`: fit `h` on the records of
/// half `h`, each weighted `recent_weight` per round of age behind `round`,
/// by weighted squared error on the chosen action's value; then the
/// calibration of round `round`'s declarations, each predicted by the other
/// half's fit. Deterministic for its seed.
pub(crate) fn fit(
    mut bids: BidValues,
    data: &BidData,
    round: u32,
    cfg: &BiddingSection,
    seed: u64,
    device: &Device,
) -> (BidValues, FitReport) {
    let width = data.rounds.first().map(|(_, r)| r.obs.width()).unwrap_or(1);
    // (round index, record index, weight) of every record.
    let mut rows: Vec<(usize, usize, f32)> = Vec::with_capacity(data.len());
    for (i, (r, recs)) in data.rounds.iter().enumerate() {
        let w = (cfg.recent_weight as f32).powi(round.saturating_sub(*r) as i32);
        rows.extend((0..recs.len()).map(|k| (i, k, w)));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut optim = AdamConfig::new().init();
    let mut loss_sum = 0f64;
    let mut weight_sum = 0f64;
    for _epoch in 0..cfg.fit_epochs {
        rows.shuffle(&mut rng);
        (loss_sum, weight_sum) = (0.0, 0.0);
        for batch in rows.chunks(cfg.fit_minibatch) {
            let mut loss = None;
            for h in 0..2u8 {
                let mine: Vec<&(usize, usize, f32)> =
                    batch.iter().filter(|(i, k, _)| data.rounds[*i].1.half[*k] == h).collect();
                if mine.is_empty() {
                    continue;
                }
                let m = mine.len();
                let mut obs = SparseRows::new(width);
                let (mut act, mut tgt, mut wts) = (Vec::with_capacity(m), Vec::with_capacity(m), Vec::with_capacity(m));
                for &&(i, k, w) in &mine {
                    let recs = &data.rounds[i].1;
                    obs.push_row(&recs.obs, k);
                    act.push(recs.action[k] as i64);
                    tgt.push(recs.target[k]);
                    wts.push(w);
                }
                weight_sum += wts.iter().map(|&w| w as f64).sum::<f64>();
                let x = Tensor::<2>::from_data(TensorData::new(obs.to_dense(), [m, width]), device);
                let a = Tensor::<2, Int>::from_data(TensorData::new(act, [m, 1]), device);
                let t = Tensor::<2>::from_data(TensorData::new(tgt, [m, 1]), device);
                let w = Tensor::<2>::from_data(TensorData::new(wts, [m, 1]), device);
                let q = bids.fit(h as usize).forward(x).gather(1, a);
                let err = (q - t).powi_scalar(2) * w;
                let part = err.sum();
                loss = Some(match loss {
                    Some(l) => l + part,
                    None => part,
                });
            }
            let Some(loss) = loss else { continue };
            let batch_weight = batch.iter().map(|r| r.2).sum::<f32>().max(1e-6);
            let loss = loss / batch_weight;
            loss_sum += loss.clone().into_scalar::<f32>() as f64 * batch_weight as f64;
            let grads = GradientsParams::from_grads(loss.backward(), &bids);
            bids = optim.step(cfg.fit_learning_rate, bids, grads);
        }
    }
    let calibration = calibrate(&bids, data, round, device);
    let report = FitReport { records: rows.len(), loss: (loss_sum / weight_sum.max(1e-9)) as f32, calibration };
    (bids, report)
}

/// Round `round`'s declarations: predicted make-rate (from the fit of the
/// other half: value v of a contract worth m marks either way is m(2p - 1))
/// against made (the declarer's reward above 0).
fn calibrate(bids: &BidValues, data: &BidData, round: u32, device: &Device) -> Calibration {
    let mut cal = Calibration::default();
    let Some((_, recs)) = data.rounds.iter().find(|(r, _)| *r == round) else { return cal };
    let named: Vec<usize> = (0..recs.len()).filter(|&k| recs.named[k] && recs.target[k] != 0.0).collect();
    for chunk in named.chunks(4096) {
        let obs = recs.obs.select(chunk);
        let x = Tensor::<2>::from_data(TensorData::new(obs.to_dense(), [chunk.len(), obs.width()]), device);
        let [a, b] = bids.fits(x);
        let na = a.dims()[1];
        let (a, b): (Vec<f32>, Vec<f32>) =
            (a.into_data().try_to_vec().expect("f32"), b.into_data().try_to_vec().expect("f32"));
        for (j, &k) in chunk.iter().enumerate() {
            let action = recs.action[k] as usize;
            let other = if recs.half[k] == 0 { &b } else { &a };
            let (v, t) = (other[j * na + action] as f64, recs.target[k] as f64);
            let p = ((v / t.abs() + 1.0) / 2.0).clamp(0.0, 1.0);
            cal.add(p, t > 0.0);
        }
    }
    cal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_is_logged_with_its_reward_to_each_deciding_seat_and_a_mixed_hand_is_not() {
        let mut log = BidLog::new(2, 4);
        let obs = SparseRows::from_dense(&[1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0], 4);
        log.push(0, 1, &obs, 0, 28);
        log.push(0, 2, &obs, 1, 30);
        log.push(1, 0, &obs, 0, 28);
        log.mix(1);
        log.step(0, &[0.0, 0.0, 0.0, 0.0], false);
        log.step(1, &[1.0, -1.0, 1.0, -1.0], true);
        log.step(0, &[-2.0, 2.0, -2.0, 2.0], true);
        let recs = log.take();
        assert_eq!(recs.action, vec![28, 30]);
        assert_eq!(recs.target, vec![2.0, -2.0]);
        assert_eq!(recs.named, vec![false, true]);
        assert_eq!(recs.half, vec![0, 0]);
        assert_eq!(recs.obs.to_dense(), obs.to_dense());
        assert_eq!(log.take().len(), 0);
    }

    #[test]
    fn kept_rounds_drop_the_oldest_and_survive_a_round_trip_through_bytes() {
        let mut data = BidData::new();
        let mut recs = BidRecords::new(3);
        recs.obs.push_dense(&[0.0, 1.0, 0.5]);
        (recs.action, recs.target, recs.half, recs.named) = (vec![4], vec![1.0], vec![1], vec![true]);
        for round in [0, 0, 1, 2] {
            data.add(round, &recs);
        }
        assert_eq!(data.rounds.iter().map(|(r, x)| (*r, x.len())).collect::<Vec<_>>(), [(0, 2), (1, 1), (2, 1)]);
        data.keep(2);
        assert_eq!(data.rounds.iter().map(|(r, _)| *r).collect::<Vec<_>>(), [1, 2]);
        let log = BidLog::new(3, 3);
        assert_eq!(load_bids(&save_bids(&data, Some(&log))).unwrap(), (data.clone(), Some(log)));
        assert_eq!(load_bids(&save_bids(&data, None)).unwrap(), (data, None));
        assert!(load_bids(&[7, 7]).is_err());
    }
}
