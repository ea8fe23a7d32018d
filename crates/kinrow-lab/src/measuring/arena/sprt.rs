//! The sequential probability ratio test of an A/B match, over pentanomial pair results,
//! as fishtest and fastchess compute it (the generalised SPRT of Michel Van den Bergh).
//!
//! Games come in pairs that share an opening, one with each colour, so a pair's result
//! for engine A is one of five: 0, ½, 1, 1½ or 2 points (counted here per game: 0, ¼, ½,
//! ¾, 1). The two games of a pair are correlated (the opening favours one colour), and
//! counting pairs instead of games takes that out of the variance.
//!
//! The test weighs H0 "A is `elo0` stronger than B" against H1 "A is `elo1` stronger"
//! (logistic Elo: a per-game score s is worth `-400 log10(1/s - 1)`,
//! [`elo_from_score`](super::summary::elo_from_score)). For each
//! hypothesis, the distribution of pair results closest to the one observed whose mean
//! is that hypothesis' score is found (the maximum-likelihood distribution under the
//! constraint: `q_i = p_i / (1 + theta (x_i - s))`, theta solved by bisection); the
//! log-likelihood ratio is the pairs' count times the observed mean of `ln(q1 / q0)`.
//! The match stops when it crosses `ln((1 - beta) / alpha)` (H1 accepted: the change
//! passes) or `ln(beta / (1 - alpha))` (H0 accepted: it fails). Empty result classes
//! count 1e-3 pairs, as fishtest regularises them, so that a short run does not divide
//! by zero.

/// The per-game score of each pair result, A's view: both lost, one lost and one drawn,
/// ..., both won.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The test's hypotheses and error rates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0 (the change is no better than this).
    pub elo0: f64,
    /// The Elo difference of H1 (the change is at least this much better).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds (a false pass).
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds (a false fail).
    pub beta: f64,
}

/// Where a running test stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Neither bound reached: play on.
    Continue,
    /// H1 accepted: A is better by about `elo1` (the change passes).
    H1,
    /// H0 accepted: A is not better than `elo0` (the change fails).
    H0,
}

impl Decision {
    /// `continue`, `H1` or `H0`, as the summary writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Continue => "continue",
            Decision::H1 => "H1",
            Decision::H0 => "H0",
        }
    }
}

/// The per-game score of a logistic Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// Parses `elo0,elo1` with the error rates; `elo0 < elo1`, rates in (0, 0.5).
    pub fn new(bounds: &str, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let v: Vec<f64> = bounds
            .split(',')
            .map(|s| s.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("--sprt: {bounds:?} is not ELO0,ELO1"))?;
        let [elo0, elo1] = v[..] else {
            return Err(format!("--sprt: {bounds:?} is not ELO0,ELO1"));
        };
        if elo0 >= elo1 || !elo0.is_finite() || !elo1.is_finite() {
            return Err(format!("--sprt: ELO0 must be below ELO1, got {bounds:?}"));
        }
        for (name, rate) in [("--alpha", alpha), ("--beta", beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(format!("{name}: {rate} is not between 0 and 0.5"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The LLR below which H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The LLR above which H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 for the pair counts `penta` (pairs
    /// scoring 0, ½, 1, 1½, 2 points for A); 0 without pairs.
    pub fn llr(&self, penta: &[u32; 5]) -> f64 {
        let total: u32 = penta.iter().sum();
        if total == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = penta
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { f64::from(c) })
            .collect();
        let n: f64 = counts.iter().sum();
        let p: Vec<f64> = counts.iter().map(|c| c / n).collect();
        let q0 = closest(&p, score_of_elo(self.elo0));
        let q1 = closest(&p, score_of_elo(self.elo1));
        let mean: f64 = (0..5).map(|i| p[i] * (q1[i] / q0[i]).ln()).sum();
        f64::from(total) * mean
    }

    /// The decision the counts `penta` reach.
    pub fn decide(&self, penta: &[u32; 5]) -> Decision {
        let llr = self.llr(penta);
        if llr >= self.upper_bound() {
            Decision::H1
        } else if llr <= self.lower_bound() {
            Decision::H0
        } else {
            Decision::Continue
        }
    }
}

/// The distribution of pair results with mean `s` closest to `p` (the maximum-likelihood
/// one): `q_i = p_i / (1 + theta (x_i - s))`, with theta making the `q_i` sum to 1.
fn closest(p: &[f64], s: f64) -> [f64; 5] {
    let d: Vec<f64> = PAIR_SCORES.iter().map(|x| x - s).collect();
    // theta keeps every 1 + theta * d_i positive: between -1/max(d) and -1/min(d).
    let (dmax, dmin) = d
        .iter()
        .fold((f64::MIN, f64::MAX), |(hi, lo), &v| (hi.max(v), lo.min(v)));
    let lo = if dmax > 0.0 { -1.0 / dmax } else { -1e9 };
    let hi = if dmin < 0.0 { -1.0 / dmin } else { 1e9 };
    // f(theta) = sum p_i d_i / (1 + theta d_i) falls as theta grows; its root is theta.
    let f = |t: f64| -> f64 { (0..5).map(|i| p[i] * d[i] / (1.0 + t * d[i])).sum() };
    let (mut a, mut b) = (lo + 1e-12 * (hi - lo), hi - 1e-12 * (hi - lo));
    for _ in 0..200 {
        let mid = 0.5 * (a + b);
        if f(mid) > 0.0 {
            a = mid;
        } else {
            b = mid;
        }
    }
    let theta = 0.5 * (a + b);
    let mut q = [0.0; 5];
    for i in 0..5 {
        q[i] = p[i] / (1.0 + theta * d[i]);
    }
    let sum: f64 = q.iter().sum();
    q.map(|v| v / sum)
}

/// A's per-game score over the pairs `penta` with its 95% interval from the pairs'
/// own variance (the pentanomial standard error), as `(score, low, high)`; `None`
/// without pairs.
pub fn pair_score(penta: &[u32; 5]) -> Option<(f64, f64, f64)> {
    let total: u32 = penta.iter().sum();
    if total == 0 {
        return None;
    }
    let n = f64::from(total);
    let mean: f64 = (0..5)
        .map(|i| f64::from(penta[i]) * PAIR_SCORES[i])
        .sum::<f64>()
        / n;
    let var: f64 = (0..5)
        .map(|i| f64::from(penta[i]) * (PAIR_SCORES[i] - mean).powi(2))
        .sum::<f64>()
        / n;
    let half = 1.959964 * (var / n).sqrt();
    Some((mean, (mean - half).max(0.0), (mean + half).min(1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measuring::arena::summary::elo_from_score;

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-300.0, -10.0, 0.0, 5.0, 200.0] {
            assert!(
                (elo_from_score(score_of_elo(elo)) - elo).abs() < 1e-9,
                "{elo}"
            );
        }
        assert_eq!(score_of_elo(0.0), 0.5);
    }

    #[test]
    fn the_closest_distribution_has_the_asked_mean() {
        let p = [0.1, 0.2, 0.4, 0.2, 0.1];
        for s in [0.45, 0.5, 0.52, 0.6] {
            let q = closest(&p, s);
            let mean: f64 = (0..5).map(|i| q[i] * PAIR_SCORES[i]).sum();
            assert!((mean - s).abs() < 1e-9, "{s}: {mean}");
            assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        // At the observed mean, the closest distribution is the observed one.
        let q = closest(&p, 0.5);
        for i in 0..5 {
            assert!((q[i] - p[i]).abs() < 1e-9);
        }
    }

    #[test]
    fn the_llr_leans_to_the_hypothesis_the_results_fit() {
        let t = Sprt::new("0,10", 0.05, 0.05).unwrap();
        // Even results favour H0 (0 Elo), clearly better results H1.
        assert!(t.llr(&[100, 200, 400, 200, 100]) < 0.0);
        assert!(t.llr(&[50, 150, 400, 250, 150]) > 0.0);
        assert_eq!(t.llr(&[0; 5]), 0.0);
        assert_eq!(t.decide(&[0; 5]), Decision::Continue);
        // Enough of them decide.
        assert_eq!(t.decide(&[1000, 2000, 4000, 2000, 1000]), Decision::H0);
        assert_eq!(t.decide(&[500, 1500, 4000, 2500, 1500]), Decision::H1);
    }

    #[test]
    fn the_llr_matches_the_normal_approximation_for_small_differences() {
        // For elo0, elo1 near 0, GSPRT's LLR is close to the classical approximation
        // N (s1 - s0) (2 mean - s0 - s1) / (2 var) over pairs.
        let t = Sprt::new("-2,2", 0.05, 0.05).unwrap();
        let penta = [400, 1800, 3900, 2300, 600];
        let n: f64 = penta.iter().map(|&c| f64::from(c)).sum();
        let (mean, _, _) = pair_score(&penta).unwrap();
        let var: f64 = (0..5)
            .map(|i| f64::from(penta[i]) * (PAIR_SCORES[i] - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (score_of_elo(-2.0), score_of_elo(2.0));
        let approx = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let exact = t.llr(&penta);
        assert!(
            (exact - approx).abs() < 0.05 * approx.abs().max(1.0),
            "{exact} vs {approx}"
        );
    }

    #[test]
    fn bounds_follow_the_error_rates() {
        let t = Sprt::new("0,5", 0.05, 0.05).unwrap();
        assert!((t.upper_bound() - 2.944).abs() < 1e-3);
        assert!((t.lower_bound() + 2.944).abs() < 1e-3);
        assert!(Sprt::new("5,0", 0.05, 0.05).is_err());
        assert!(Sprt::new("0", 0.05, 0.05).is_err());
        assert!(Sprt::new("0,5", 0.0, 0.05).is_err());
        assert!(Sprt::new("a,b", 0.05, 0.05).is_err());
    }

    #[test]
    fn the_pair_score_interval_narrows_with_pairs() {
        let (m, lo, hi) = pair_score(&[1, 2, 4, 2, 1]).unwrap();
        assert!((m - 0.5).abs() < 1e-12 && lo < 0.5 && hi > 0.5);
        let (_, lo2, hi2) = pair_score(&[100, 200, 400, 200, 100]).unwrap();
        assert!(hi2 - lo2 < (hi - lo) / 5.0);
        assert_eq!(pair_score(&[0; 5]), None);
    }
}
