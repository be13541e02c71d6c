//! Ladder ratings (`bones eval --ladder`): a round robin of agents
//! ([`ladder`]), the ratings fitted to its pairs ([`fit_ratings`]) and their
//! intervals ([`intervals`]).
//!
//! [`fit_ratings`] fits ratings `r` (mean 0) by weighted least
//! squares to the pairwise Elo differences `d_k` (agent `i` − agent `j` of pair
//! `k`, from its win rate shrunk by half a win and half a loss), with weights
//! `w_k` = the pair's trials. The fit is linear in the `d_k`:
//! `r = L⁺ Σ_k w_k d_k x_k`, where `x_k` is +1 at `i` and −1 at `j` and
//! `L = Σ_k w_k x_k x_kᵀ` (the weighted graph Laplacian; `L⁺` its
//! pseudo-inverse, which keeps the mean at 0). So the covariance of the ratings
//! is the sandwich `Σ_k w_k² σ_k² (L⁺x_k)(L⁺x_k)ᵀ`, and a rating's standard error
//! is the square root of its diagonal entry.
//!
//! `σ_k²`, the variance of `d_k`, comes from the delta method on the win rate
//! `p` (shrunk) over `n` trials: `Var(p) = p(1−p)/n` and
//! `d = 400 log10(p (m−1)/(1−p))` (m = the sides at the table), so
//! `σ² = (400 / ln 10)² / (n p (1−p))`. This is the binomial variance: it treats
//! the trials as independent, which is conservative for duplicate deals (the two
//! seatings of a deal are positively correlated through the deal, which the
//! duplicate design cancels) and ties counted as halves. The interval is
//! `rating ± z·se` (a normal approximation); it is relative to the mean of the
//! ladder (mean 0), so an agent's interval is how well it is placed among these
//! agents, not on an absolute scale.

use crate::arena::{elo_vs_field, EvalReport, Z95};
use crate::spec::AgentSpec;

/// A round robin: every pair evaluated, and a rating per agent.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    /// The agents' spec strings.
    pub agents: Vec<String>,
    /// Elo ratings (mean 0), fitted to the pairwise Elo differences.
    pub ratings: Vec<f64>,
    /// Every pair `(i, j)` with `i < j` and its report (A = agent i).
    pub pairs: Vec<(usize, usize, EvalReport)>,
}

/// Fits ratings (mean 0) to pairwise results by weighted least squares on the
/// pairwise Elo differences. Each pair's win rate is shrunk by half a win and half
/// a loss (`(wins + 0.5) / (trials + 1)`) so that perfect records stay finite.
pub fn fit_ratings(agents: usize, pairs: &[(usize, usize, EvalReport)]) -> Vec<f64> {
    let obs: Vec<(usize, usize, f64, f64)> = pairs
        .iter()
        .map(|(i, j, r)| {
            let trials = r.trials as f64;
            let p = (r.wins + 0.5) / (trials + 1.0);
            (*i, *j, elo_vs_field(p, r.sides).unwrap_or(0.0), trials.max(1.0))
        })
        .collect();
    let mut r = vec![0.0f64; agents];
    for _ in 0..2000 {
        let mut change = 0.0f64;
        for k in 0..agents {
            let (mut num, mut den) = (0.0, 0.0);
            for &(i, j, d, w) in &obs {
                if i == k {
                    num += w * (r[j] + d);
                    den += w;
                } else if j == k {
                    num += w * (r[i] - d);
                    den += w;
                }
            }
            if den > 0.0 {
                let new = num / den;
                change = change.max((new - r[k]).abs());
                r[k] = new;
            }
        }
        let mean = r.iter().sum::<f64>() / agents.max(1) as f64;
        r.iter_mut().for_each(|x| *x -= mean);
        if change < 1e-9 {
            break;
        }
    }
    r
}

/// Runs every pair of `specs` through `eval` and fits ratings.
pub fn ladder<E>(
    specs: &[AgentSpec],
    mut eval: impl FnMut(&AgentSpec, &AgentSpec) -> Result<EvalReport, E>,
) -> Result<Ladder, E> {
    let mut pairs = Vec::new();
    for i in 0..specs.len() {
        for j in i + 1..specs.len() {
            pairs.push((i, j, eval(&specs[i], &specs[j])?));
        }
    }
    let ratings = fit_ratings(specs.len(), &pairs);
    Ok(Ladder { agents: specs.iter().map(|s| s.to_string()).collect(), ratings, pairs })
}

/// A rating with its standard error and interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RatingInterval {
    /// The fitted rating (Elo, mean 0 over the ladder).
    pub rating: f64,
    /// Its standard error (NaN when the pairs do not connect every agent).
    pub se: f64,
    /// Lower bound `rating − z·se`.
    pub lo: f64,
    /// Upper bound `rating + z·se`.
    pub hi: f64,
}

/// Standard errors of the ratings [`fit_ratings`] fits to `pairs`
/// among `agents` agents (pairs naming an agent past `agents`, or an agent with
/// itself, are left out, as they carry no rating difference). NaN for every
/// agent when the pairs do not connect all of them.
pub fn standard_errors(agents: usize, pairs: &[(usize, usize, EvalReport)]) -> Vec<f64> {
    // (i, j, weight, variance of the Elo difference)
    let obs: Vec<(usize, usize, f64, f64)> = pairs
        .iter()
        .filter(|(i, j, _)| *i < agents && *j < agents && i != j)
        .map(|(i, j, r)| {
            let n = (r.trials as f64).max(1.0);
            let p = (r.wins + 0.5) / (r.trials as f64 + 1.0);
            let slope = 400.0 / std::f64::consts::LN_10;
            (*i, *j, n, slope * slope / (n * p * (1.0 - p)))
        })
        .collect();
    if agents < 2 {
        return vec![0.0; agents];
    }
    // M = L + J/n: invertible when the pairs connect every agent, and
    // M⁻¹ x = L⁺ x for every x whose entries sum to 0.
    let n = agents as f64;
    let mut m = vec![vec![1.0 / n; agents]; agents];
    for &(i, j, w, _) in &obs {
        m[i][i] += w;
        m[j][j] += w;
        m[i][j] -= w;
        m[j][i] -= w;
    }
    let Some(inv) = invert(m) else {
        return vec![f64::NAN; agents];
    };
    let mut var = vec![0.0; agents];
    for &(i, j, w, s2) in &obs {
        for (a, v) in var.iter_mut().enumerate() {
            let y = inv[a][i] - inv[a][j];
            *v += w * w * s2 * y * y;
        }
    }
    var.into_iter().map(f64::sqrt).collect()
}

/// The ladder's ratings with intervals at normal quantile `z`.
pub fn intervals(ladder: &Ladder, z: f64) -> Vec<RatingInterval> {
    let se = standard_errors(ladder.agents.len(), &ladder.pairs);
    ladder
        .ratings
        .iter()
        .zip(se)
        .map(|(&rating, se)| RatingInterval { rating, se, lo: rating - z * se, hi: rating + z * se })
        .collect()
}

/// The ladder's ratings with 95% intervals.
pub fn intervals95(ladder: &Ladder) -> Vec<RatingInterval> {
    intervals(ladder, Z95)
}

/// The Elo difference a pair's report gives, shrunk as the fit shrinks it.
pub fn pair_elo(r: &EvalReport) -> f64 {
    elo_vs_field((r.wins + 0.5) / (r.trials as f64 + 1.0), r.sides).unwrap_or(0.0)
}

/// The inverse of a square matrix by Gauss-Jordan elimination with partial
/// pivoting; `None` when it is singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect()).collect();
    let scale = a.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs())).max(1.0);
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        if a[p][c].abs() <= 1e-12 * scale {
            return None;
        }
        a.swap(c, p);
        inv.swap(c, p);
        let d = a[c][c];
        for k in 0..n {
            a[c][k] /= d;
            inv[c][k] /= d;
        }
        for r in 0..n {
            if r != c {
                let f = a[r][c];
                if f != 0.0 {
                    for k in 0..n {
                        a[r][k] -= f * a[c][k];
                        inv[r][k] -= f * inv[c][k];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::Estimate;

    fn report(wins: f64, trials: u64) -> EvalReport {
        let e = Estimate { mean: 0.0, lo: 0.0, hi: 0.0 };
        EvalReport {
            game: "texas42",
            agents: ["a".into(), "b".into()],
            players: 4,
            sides: 2,
            deals: trials / 2,
            games: 0,
            hands: trials,
            win_unit: "hand",
            trials,
            wins,
            win_rate: wins / trials as f64,
            win_ci: (0.0, 1.0),
            marks_per_hand: Some(e),
            points_per_hand: Some(e),
            points_per_round: None,
            contracts: None,
            elo: None,
            decisions: [0, 0],
            agent_seconds: [0.0, 0.0],
        }
    }

    fn ladder(scale: u64) -> Ladder {
        let n = 100 * scale;
        let pairs = vec![
            (0, 1, report(0.7 * n as f64, n)),
            (0, 2, report(0.9 * n as f64, n)),
            (1, 2, report(0.6 * n as f64, n)),
        ];
        let ratings = fit_ratings(3, &pairs);
        Ladder { agents: vec!["a".into(), "b".into(), "c".into()], ratings, pairs }
    }

    #[test]
    fn intervals_hold_the_rating_and_shrink_with_more_trials() {
        let small = intervals95(&ladder(1));
        let big = intervals95(&ladder(16));
        for (s, b) in small.iter().zip(&big) {
            assert!(s.se > 0.0 && s.lo < s.rating && s.rating < s.hi, "{s:?}");
            assert!(b.lo < b.rating && b.rating < b.hi, "{b:?}");
            // 16 times the trials: a quarter of the width (the shrinkage of half
            // a win moves the variance a little).
            let ratio = (b.hi - b.lo) / (s.hi - s.lo);
            assert!((ratio - 0.25).abs() < 0.01, "{ratio}");
        }
        assert!(small[0].rating > small[1].rating && small[1].rating > small[2].rating);
    }

    #[test]
    fn two_agents_get_the_delta_method_error_of_their_difference() {
        let pairs = vec![(0, 1, report(300.0, 400))];
        let se = standard_errors(2, &pairs);
        let p: f64 = 300.5 / 401.0;
        let sd_diff = 400.0 / std::f64::consts::LN_10 / (400.0 * p * (1.0 - p)).sqrt();
        // Each rating is ± half the difference.
        for s in se {
            assert!((s - sd_diff / 2.0).abs() < 1e-9, "{s} vs {}", sd_diff / 2.0);
        }
        let r = fit_ratings(2, &pairs);
        assert!((r[0] - r[1] - pair_elo(&pairs[0].2)).abs() < 1e-6);
    }

    #[test]
    fn unconnected_or_degenerate_ladders() {
        // Agent 2 never played: no finite errors.
        let pairs = vec![(0, 1, report(5.0, 10))];
        assert!(standard_errors(3, &pairs).iter().all(|s| s.is_nan()));
        // Out-of-range pairs are left out; one agent has no error.
        assert_eq!(standard_errors(1, &[(0, 3, report(5.0, 10))]), vec![0.0]);
        assert!(standard_errors(0, &[]).is_empty());
    }
}
