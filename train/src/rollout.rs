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

/// One decision of a learning seat.
#[derive(Clone, Debug)]
pub struct Transition {
    /// Observation at the decision (offset into the rollout's flat `obs`).
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
}

/// A rollout: transitions plus their observations and legal masks, flat.
#[derive(Default)]
pub struct Rollout {
    /// Observation length.
    pub obs_len: usize,
    /// Action-space size.
    pub num_actions: usize,
    /// Transitions in the order they were taken.
    pub steps: Vec<Transition>,
    /// Observations, `steps.len() * obs_len`.
    pub obs: Vec<f32>,
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
        Rollout { obs_len, num_actions, oracle_len, open: vec![[None; 4]; envs], ..Default::default() }
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

    /// Number of transitions.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// No transitions.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Records a decision of `seat` in `env` (`oracle`: `oracle_len` floats).
    #[allow(clippy::too_many_arguments)]
    pub fn push(
        &mut self,
        env: usize,
        seat: usize,
        obs: &[f32],
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
        self.obs.extend_from_slice(obs);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_follow_each_seat_and_terminal_rewards_reach_every_seat() {
        let mut r = Rollout::new(1, 1, 2, 0);
        // Seats 0 and 1 alternate; the hand ends after seat 1's second move.
        r.push(0, 0, &[0.0], &[1.0, 1.0], &[], 0, -0.7, 0.5);
        r.push(0, 1, &[0.0], &[1.0, 1.0], &[], 1, -0.7, -0.5);
        r.push(0, 0, &[0.0], &[1.0, 1.0], &[], 0, -0.7, 0.8);
        r.push(0, 1, &[0.0], &[1.0, 1.0], &[], 1, -0.7, -0.2);
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
    fn open_chains_bootstrap_from_the_seats_current_value() {
        let mut r = Rollout::new(2, 1, 1, 1);
        r.push(1, 3, &[0.0], &[1.0], &[0.5], 0, 0.0, 0.25);
        assert_eq!(r.oracle, vec![0.5]);
        let open = r.open_chains();
        assert_eq!(open, vec![(1, 3, 0)]);
        r.set_bootstrap(0, 1.0);
        let (adv, ret) = r.advantages(0.5, 0.9);
        assert!((adv[0] - (0.5 * 1.0 - 0.25)).abs() < 1e-6);
        assert!((ret[0] - 0.5).abs() < 1e-6);
    }
}
