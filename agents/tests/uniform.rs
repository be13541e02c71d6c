//! Chi-square checks that samplers draw uniformly, shared by the sampler
//! tests of both games: the count of each outcome over many draws, its
//! chi-square statistic and upper tail probability.

use std::collections::HashMap;
use std::hash::Hash;

use bones_agents::pimc::doubles::DoublesSampler;
use bones_agents::pimc::WorldSampler;
use bones_agents::AgentRng;
use rand::SeedableRng;

/// Draws `draws` outcomes and returns (distinct outcomes seen, the chi-square
/// statistic against the uniform over `n` outcomes, those never seen included).
pub fn chi_square<K: Hash + Eq>(draws: u64, n: u64, mut draw: impl FnMut() -> K) -> (u64, f64) {
    let mut freq: HashMap<K, u64> = HashMap::new();
    for _ in 0..draws {
        *freq.entry(draw()).or_default() += 1;
    }
    let expect = draws as f64 / n as f64;
    let seen = freq.len() as u64;
    let chi2: f64 = freq.values().map(|&f| (f as f64 - expect).powi(2) / expect).sum::<f64>()
        + (n.saturating_sub(seen)) as f64 * expect;
    (seen, chi2)
}

/// The upper tail probability of a chi-square statistic with `df` degrees of
/// freedom (Wilson–Hilferty normal approximation).
pub fn chi2_p(chi2: f64, df: f64) -> f64 {
    let z = ((chi2 / df).powf(1.0 / 3.0) - (1.0 - 2.0 / (9.0 * df))) / (2.0 / (9.0 * df)).sqrt();
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// erfc (Numerical Recipes' erfcc, relative error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.26551223
            + t * (1.00002368
                + t * (0.37409196
                    + t * (0.09678418
                        + t * (-0.18628806
                            + t * (0.27886807
                                + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Runs `check` on the positions in turn (it returns whether it checked one
/// or passed it over) until it has checked `most`, and asserts that it
/// checked at least `least`.
pub fn check_some<T>(
    positions: impl IntoIterator<Item = T>,
    most: usize,
    least: usize,
    mut check: impl FnMut(T) -> bool,
) {
    let mut tested = 0;
    for position in positions {
        if check(position) {
            tested += 1;
            if tested >= most {
                break;
            }
        }
    }
    assert!(tested >= least, "too few small positions: {tested} (at least {least})");
}

/// Over the samplers with a handful (4..=40) of outcomes, the first 25 (and
/// at least 10 of them), every outcome is drawn, about equally often over
/// `400 * n` draws (a generous chi-square bound). `count` is a sampler's
/// number of outcomes, `draw` draws one, and `what` names an outcome.
fn small_samplers_draw_uniformly<S, K: Hash + Eq>(
    samplers: impl IntoIterator<Item = S>,
    count: impl Fn(&S) -> u64,
    draw: impl Fn(&S, &mut AgentRng) -> K,
    rng: &mut AgentRng,
    what: &str,
) {
    check_some(samplers, 25, 10, |sampler| {
        let n = count(&sampler);
        if !(4..=40).contains(&n) {
            return false;
        }
        let (seen, chi2) = chi_square(400 * n, n, || draw(&sampler, rng));
        assert_eq!(seen, n, "every consistent {what} is drawn");
        // df = n - 1 <= 39: the 99.99% quantile is below 80.
        assert!(chi2 < 80.0, "chi-square {chi2} over {n} {what}s");
        true
    });
}

#[test]
fn both_samplers_draw_the_worlds_of_small_positions_uniformly() {
    // Real positions with a handful of consistent deals (Texas 42) or worlds
    // (Doubles): each comes up about equally often.
    let deals = crate::pimc::positions(30, 2).into_iter().map(|(_, v)| WorldSampler::new(&v));
    let draw = |s: &WorldSampler, rng: &mut AgentRng| s.sample(rng);
    small_samplers_draw_uniformly(deals, WorldSampler::count, draw, &mut AgentRng::seed_from_u64(3), "deal");
    let worlds = crate::pimc_doubles::positions(30, 4).into_iter().map(|(_, v)| DoublesSampler::new(&v));
    let draw = |s: &DoublesSampler, rng: &mut AgentRng| s.sample(rng);
    small_samplers_draw_uniformly(worlds, DoublesSampler::count, draw, &mut AgentRng::seed_from_u64(3), "world");
}

#[test]
fn chi_square_helper_is_sane() {
    // df 10: the 0.001 quantile is 29.59, the median 9.34.
    assert!((chi2_p(29.59, 10.0) - 0.001).abs() < 3e-4);
    assert!((chi2_p(9.34, 10.0) - 0.5).abs() < 0.02);
    // Four outcomes drawn in turn: every one seen, a statistic of 0; one
    // never drawn counts against the uniform.
    let mut turn = (0..).map(|k: u64| k % 4);
    assert_eq!(chi_square(400, 4, || turn.next()), (4, 0.0));
    let mut turn = (0..).map(|k: u64| k % 3);
    let (seen, chi2) = chi_square(300, 4, || turn.next());
    assert_eq!(seen, 3);
    assert!((chi2 - 100.0).abs() < 1e-9, "{chi2}");
}
