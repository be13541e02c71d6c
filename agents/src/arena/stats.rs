//! The arena's statistics: Wilson intervals of win rates, normal-approximation
//! intervals of means and ratios, and Elo differences from win rates.

/// A mean with a 95% interval (`lo`/`hi` are NaN when undefined: fewer than two
/// duplicate groups).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Point estimate.
    pub mean: f64,
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval for `successes` out of `n` trials (ties may count a
/// half), at normal quantile `z`. `(0, 1)` when `n == 0`.
pub fn wilson(successes: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo difference from a score (win probability) `p`: `400 log10(p / (1 - p))`;
/// `None` when `p` is 0 or 1 (or not a number).
pub fn elo_from_score(p: f64) -> Option<f64> {
    elo_vs_field(p, 2)
}

/// Elo difference of A against one opponent when A beats a field of `players - 1`
/// equal opponents with probability `p` (Bradley-Terry): `400 log10(p (n-1) / (1-p))`.
/// `None` when `p` is 0 or 1.
pub fn elo_vs_field(p: f64, players: usize) -> Option<f64> {
    if !(p > 0.0 && p < 1.0) {
        return None;
    }
    Some(400.0 * (p * (players.max(2) - 1) as f64 / (1.0 - p)).log10())
}

/// Mean of `xs` with a normal-approximation interval `mean ± z·sd/√n`
/// (bounds NaN with fewer than two values).
pub fn mean_ci(xs: &[f64], z: f64) -> Estimate {
    let pairs: Vec<(f64, f64)> = xs.iter().map(|&x| (x, 1.0)).collect();
    ratio_ci(&pairs, z)
}

/// A ratio estimate `Σ s / Σ w` over groups `(s, w)` (e.g. a pair's total
/// difference and its hands) with a normal-approximation interval from the
/// linearised variance `n/(n-1) Σ (s - r w)² / (Σ w)²`. With all `w` equal it is
/// the mean of `s / w` with the usual standard error.
pub fn ratio_ci(groups: &[(f64, f64)], z: f64) -> Estimate {
    let n = groups.len() as f64;
    let (ss, sw) = groups.iter().fold((0.0, 0.0), |(a, b), &(s, w)| (a + s, b + w));
    if sw <= 0.0 {
        return Estimate { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN };
    }
    let r = ss / sw;
    if groups.len() < 2 {
        return Estimate { mean: r, lo: f64::NAN, hi: f64::NAN };
    }
    let e2: f64 = groups.iter().map(|&(s, w)| (s - r * w).powi(2)).sum();
    let se = (n / (n - 1.0) * e2).sqrt() / sw;
    Estimate { mean: r, lo: r - z * se, hi: r + z * se }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 8 of 10 at 95%: (0.4902, 0.9433).
        let (lo, hi) = wilson(8.0, 10.0, Z95);
        assert!((lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson(0.0, 20.0, Z95);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.1611).abs() < 1e-3, "{hi}");
        let (lo, hi) = wilson(20.0, 20.0, Z95);
        assert!((lo - 0.8389).abs() < 1e-3 && hi == 1.0);
        assert_eq!(wilson(0.0, 0.0, Z95), (0.0, 1.0));
    }

    #[test]
    fn elo_from_win_rates() {
        assert_eq!(elo_from_score(0.5), Some(0.0));
        assert!((elo_from_score(0.76).unwrap() - 200.0).abs() < 1.0);
        assert!((elo_from_score(0.24).unwrap() + 200.0).abs() < 1.0);
        assert_eq!(elo_from_score(0.0), None);
        assert_eq!(elo_from_score(1.0), None);
        assert_eq!(elo_from_score(f64::NAN), None);
        // Beating three equals a quarter of the time is an even match.
        assert!(elo_vs_field(0.25, 4).unwrap().abs() < 1e-9);
    }

    #[test]
    fn mean_and_ratio_intervals() {
        let e = mean_ci(&[1.0, 2.0, 3.0, 4.0], Z95);
        assert_eq!(e.mean, 2.5);
        let se = (1.666_666_666_666_666_7f64 / 4.0).sqrt();
        assert!((e.hi - (2.5 + Z95 * se)).abs() < 1e-12 && (e.lo - (2.5 - Z95 * se)).abs() < 1e-12);
        let one = mean_ci(&[3.0], Z95);
        assert_eq!(one.mean, 3.0);
        assert!(one.lo.is_nan() && one.hi.is_nan());
        // Equal weights: the ratio estimate is the mean of the per-group rates.
        let r = ratio_ci(&[(2.0, 2.0), (4.0, 2.0), (6.0, 2.0), (8.0, 2.0)], Z95);
        let m = mean_ci(&[1.0, 2.0, 3.0, 4.0], Z95);
        assert!((r.mean - m.mean).abs() < 1e-12 && (r.lo - m.lo).abs() < 1e-12 && (r.hi - m.hi).abs() < 1e-12);
        // Unequal weights: the pooled ratio.
        let r = ratio_ci(&[(3.0, 1.0), (3.0, 3.0)], Z95);
        assert!((r.mean - 1.5).abs() < 1e-12 && r.lo < 1.5 && r.hi > 1.5);
    }
}
