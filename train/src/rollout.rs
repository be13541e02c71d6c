//! Rollout storage for multi-agent self-play and GAE over each seat's own
//! sequence of decisions.
//!
//! Every decision of a learning seat is one transition. A seat's next
//! transition in the same game is linked to it (`next`), so the advantage of a
//! decision bootstraps from the value of that seat's *next* decision, not of
//! whoever moves next. Rewards that arrive while other seats act (Texas 42: the
//! hand result) are added to the seat's latest transition; an episode end marks
//! it `done`. A chain still open when the rollout stops bootstraps from the value
//! of the seat's current observation.
//!
//! A rollout that arrives as bytes (a remote worker's shard) is an
//! [`check::UncheckedRollout`] until [`check::UncheckedRollout::check`] has found every
//! index, size and number in it consistent: only then is it a [`Rollout`],
//! which the update indexes without looking again.

use bones_policy::sparse::SparseRows;
use serde::{Deserialize, Serialize};

/// One decision of a learning seat.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Transition {
    /// Game (index into the rollout's games) the decision was taken in.
    pub env: usize,
    /// Seat that acted.
    pub seat: usize,
    /// Action taken.
    pub action: usize,
    /// Log-probability of the action under the behaviour policy.
    pub logp: f32,
    /// Value estimate at the decision.
    pub value: f32,
    /// Reward earned until the seat's next decision (or the episode end).
    pub reward: f32,
    /// The episode ended before the seat's next decision.
    pub done: bool,
    /// Index of the seat's next decision in this rollout.
    pub next: Option<usize>,
    /// Value of the seat's state when the rollout stopped (open chains only).
    pub bootstrap: f32,
    /// The teacher's action at this decision (config `teacher`; `None`: no
    /// teacher, or the decision had one legal action).
    pub teacher: Option<usize>,
}

/// A rollout: transitions plus their observations (as their non-zero
/// entries) and legal masks. It is made by playing, or from bytes through
/// [`UncheckedRollout::check`].
#[derive(Serialize)]
pub struct Rollout {
    /// Observation length.
    pub obs_len: usize,
    /// Action-space size.
    pub num_actions: usize,
    /// Transitions in the order they were taken.
    pub steps: Vec<Transition>,
    /// Observations, one row per transition.
    pub obs: SparseRows,
    /// Legal masks, `steps.len() * num_actions` (0/1).
    pub masks: Vec<f32>,
    /// Length of each transition's hidden-hand input for the oracle critic (0: none).
    pub oracle_len: usize,
    /// Hidden-hand inputs, `steps.len() * oracle_len`.
    pub oracle: Vec<f32>,
    /// Latest transition of each (env, seat) chain.
    open: Vec<[Option<usize>; 4]>,
}

impl Rollout {
    /// An empty rollout for `envs` games; `oracle_len` floats of hidden hands are
    /// kept per transition for the oracle critic (0: none).
    pub fn new(envs: usize, obs_len: usize, num_actions: usize, oracle_len: usize) -> Rollout {
        Rollout {
            obs_len,
            num_actions,
            oracle_len,
            steps: Vec::new(),
            obs: SparseRows::new(obs_len),
            masks: Vec::new(),
            oracle: Vec::new(),
            open: vec![[None; 4]; envs],
        }
    }

    /// Clears the transitions; chains that were open stay unlinked.
    pub fn clear(&mut self) {
        self.steps.clear();
        self.obs.clear();
        self.masks.clear();
        self.oracle.clear();
        for o in &mut self.open {
            *o = [None; 4];
        }
    }

    /// The transitions recorded so far, leaving this rollout empty with the
    /// same shape (a worker hands its rollout to the learner this way).
    pub fn take(&mut self) -> Rollout {
        let empty = Rollout::new(self.open.len(), self.obs_len, self.num_actions, self.oracle_len);
        std::mem::replace(self, empty)
    }

    /// Appends `other`'s transitions, its games numbered after this rollout's
    /// (the learner merges the workers' shards, in order, this way). Links and
    /// open chains keep pointing at the same decisions.
    pub fn append(&mut self, other: &Rollout) {
        assert_eq!(
            (self.obs_len, self.num_actions, self.oracle_len),
            (other.obs_len, other.num_actions, other.oracle_len),
            "rollouts of one shape"
        );
        let (base, env_base) = (self.steps.len(), self.open.len());
        self.steps.extend(other.steps.iter().map(|t| Transition {
            env: t.env + env_base,
            next: t.next.map(|j| j + base),
            ..t.clone()
        }));
        for r in 0..other.obs.rows() {
            self.obs.push_row(&other.obs, r);
        }
        self.masks.extend_from_slice(&other.masks);
        self.oracle.extend_from_slice(&other.oracle);
        self.open.extend(other.open.iter().map(|seats| seats.map(|i| i.map(|i| i + base))));
    }

    /// Number of transitions.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// No transitions.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Records a decision of `seat` in `env`, whose observation is row `row` of
    /// `obs` (`oracle`: `oracle_len` floats).
    #[allow(clippy::too_many_arguments)]
    pub fn push(
        &mut self,
        env: usize,
        seat: usize,
        obs: &SparseRows,
        row: usize,
        mask: &[f32],
        oracle: &[f32],
        action: usize,
        logp: f32,
        value: f32,
    ) {
        debug_assert_eq!(oracle.len(), self.oracle_len);
        let idx = self.steps.len();
        if let Some(prev) = self.open[env][seat] {
            self.steps[prev].next = Some(idx);
        }
        self.open[env][seat] = Some(idx);
        self.obs.push_row(obs, row);
        self.masks.extend_from_slice(mask);
        self.oracle.extend_from_slice(oracle);
        self.steps.push(Transition {
            env,
            seat,
            action,
            logp,
            value,
            reward: 0.0,
            done: false,
            next: None,
            bootstrap: 0.0,
            teacher: None,
        });
    }

    /// Credits the rewards of one env step to each seat's latest decision; on
    /// `done` closes every chain of the env.
    pub fn reward(&mut self, env: usize, rewards: &[f32], done: bool) {
        for (seat, r) in rewards.iter().enumerate().take(4) {
            if let Some(i) = self.open[env][seat] {
                self.steps[i].reward += r;
                if done {
                    self.steps[i].done = true;
                }
            }
        }
        if done {
            self.open[env] = [None; 4];
        }
    }

    /// The chains still open, as (env, seat, transition index).
    pub fn open_chains(&self) -> Vec<(usize, usize, usize)> {
        let mut v = Vec::new();
        for (env, seats) in self.open.iter().enumerate() {
            for (seat, i) in seats.iter().enumerate() {
                if let Some(i) = i {
                    v.push((env, seat, *i));
                }
            }
        }
        v
    }

    /// Sets the bootstrap value of an open chain's last transition.
    pub fn set_bootstrap(&mut self, i: usize, value: f32) {
        self.steps[i].bootstrap = value;
    }

    /// Generalised advantage estimates and returns (`advantages + values`).
    pub fn advantages(&self, gamma: f32, lambda: f32) -> (Vec<f32>, Vec<f32>) {
        let n = self.steps.len();
        let mut adv = vec![0.0f32; n];
        for i in (0..n).rev() {
            let t = &self.steps[i];
            let (next_value, next_adv) = if t.done {
                (0.0, 0.0)
            } else {
                match t.next {
                    Some(j) => (self.steps[j].value, adv[j]),
                    None => (t.bootstrap, 0.0),
                }
            };
            let delta = t.reward + gamma * next_value - t.value;
            adv[i] = delta + gamma * lambda * next_adv;
        }
        let returns = adv.iter().zip(&self.steps).map(|(a, t)| a + t.value).collect();
        (adv, returns)
    }
}

pub mod check;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_follow_each_seat_and_terminal_rewards_reach_every_seat() {
        let mut r = Rollout::new(1, 1, 2, 0);
        let zero = SparseRows::from_dense(&[0.0], 1);
        // Seats 0 and 1 alternate; the hand ends after seat 1's second move.
        r.push(0, 0, &zero, 0, &[1.0, 1.0], &[], 0, -0.7, 0.5);
        r.push(0, 1, &zero, 0, &[1.0, 1.0], &[], 1, -0.7, -0.5);
        r.push(0, 0, &zero, 0, &[1.0, 1.0], &[], 0, -0.7, 0.8);
        r.push(0, 1, &zero, 0, &[1.0, 1.0], &[], 1, -0.7, -0.2);
        r.reward(0, &[2.0, -2.0, 0.0, 0.0], true);
        assert_eq!(r.steps[0].next, Some(2));
        assert_eq!(r.steps[1].next, Some(3));
        assert!(r.steps[2].done && r.steps[3].done);
        let (adv, ret) = r.advantages(1.0, 1.0);
        // Undiscounted Monte Carlo: every return is the final reward.
        assert_eq!(ret, vec![2.0, -2.0, 2.0, -2.0]);
        assert!((adv[0] - 1.5).abs() < 1e-6);
        // With lambda 0: one-step TD to the seat's own next value.
        let (adv0, _) = r.advantages(1.0, 0.0);
        assert!((adv0[0] - (0.8 - 0.5)).abs() < 1e-6);
        assert!(r.open_chains().is_empty());
    }

    #[test]
    fn gae_follows_each_seats_chain_with_discounting_a_done_and_bootstraps() {
        // gamma 0.9, lambda 0.8 (gamma * lambda = 0.72). Two games interleaved:
        // game 0 seats 0 and 1 alternate, the hand ends (done) after seat 1's
        // second move and a new hand starts whose chain is still open at the end;
        // game 1 seat 2 has two decisions and stays open too.
        let mut r = Rollout::new(2, 1, 1, 0);
        let zero = SparseRows::from_dense(&[0.0], 1);
        let push = |r: &mut Rollout, env: usize, seat: usize, value: f32| {
            r.push(env, seat, &zero, 0, &[1.0], &[], 0, 0.0, value)
        };
        push(&mut r, 0, 0, 0.5); // t0
        push(&mut r, 1, 2, 0.1); // t1
        r.reward(1, &[0.0, 0.0, 0.25, 0.0], false); // credited to t1
        push(&mut r, 0, 1, -0.5); // t2
        push(&mut r, 0, 0, 0.8); // t3 (t0's next)
        push(&mut r, 0, 1, -0.2); // t4 (t2's next)
        r.reward(0, &[1.0, -1.0, 0.0, 0.0], true); // hand over: t3 +1, t4 -1, both done
        push(&mut r, 0, 0, 0.3); // t5: a new hand, not linked to t3
        r.reward(0, &[0.5, 0.0, 0.0, 0.0], false); // credited to t5
        push(&mut r, 1, 2, 0.2); // t6 (t1's next)
        let next: Vec<Option<usize>> = r.steps.iter().map(|t| t.next).collect();
        assert_eq!(next, vec![Some(3), Some(6), Some(4), None, None, None, None]);
        assert_eq!(r.open_chains(), vec![(0, 0, 5), (1, 2, 6)]);
        r.set_bootstrap(5, 0.6);
        r.set_bootstrap(6, 0.4);

        // delta_t = r_t + 0.9 * V(next) - V_t (V(next) = 0 after a done, the
        // bootstrap for an open chain); A_t = delta_t + 0.72 * A(next).
        // t6: 0    + 0.9*0.4    - 0.2    = 0.16                 A = 0.16
        // t5: 0.5  + 0.9*0.6    - 0.3    = 0.74                 A = 0.74
        // t4: -1   (done)       + 0.2    = -0.8                 A = -0.8
        // t3: 1    (done)       - 0.8    = 0.2                  A = 0.2
        // t2: 0    + 0.9*(-0.2) + 0.5    = 0.32   + 0.72*(-0.8) = -0.256
        // t1: 0.25 + 0.9*0.2    - 0.1    = 0.33   + 0.72*0.16   = 0.4452
        // t0: 0    + 0.9*0.8    - 0.5    = 0.22   + 0.72*0.2    = 0.364
        // Returns are A + V.
        let (adv, ret) = r.advantages(0.9, 0.8);
        let want_adv = [0.364, 0.4452, -0.256, 0.2, -0.8, 0.74, 0.16];
        let want_ret = [0.864, 0.5452, -0.756, 1.0, -1.0, 1.04, 0.36];
        for i in 0..7 {
            assert!((adv[i] - want_adv[i]).abs() < 1e-6, "advantage {i}: {} != {}", adv[i], want_adv[i]);
            assert!((ret[i] - want_ret[i]).abs() < 1e-6, "return {i}: {} != {}", ret[i], want_ret[i]);
        }
    }

    #[test]
    fn open_chains_bootstrap_from_the_seats_current_value() {
        let mut r = Rollout::new(2, 1, 1, 1);
        r.push(1, 3, &SparseRows::from_dense(&[0.0], 1), 0, &[1.0], &[0.5], 0, 0.0, 0.25);
        assert_eq!(r.oracle, vec![0.5]);
        let open = r.open_chains();
        assert_eq!(open, vec![(1, 3, 0)]);
        r.set_bootstrap(0, 1.0);
        let (adv, ret) = r.advantages(0.5, 0.9);
        assert!((adv[0] - (0.5 * 1.0 - 0.25)).abs() < 1e-6);
        assert!((ret[0] - 0.5).abs() < 1e-6);
    }
}
