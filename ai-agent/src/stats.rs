//! Statistics for self-play reports of any game: the Wilson score
//! interval for a win rate, the mean with its interval, and percentiles
//! (of thinking time, scores).

/// Wilson score interval (95%) for `wins` successes out of `n`.
pub fn wilson95(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = wins as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    // Exact at the edges (the formula leaves rounding dust there).
    let lo = if wins == 0 { 0.0 } else { (centre - half).max(0.0) };
    let hi = if wins as f64 == n { 1.0 } else { (centre + half).min(1.0) };
    (lo, hi)
}

/// The `q`-quantile (0..=1) of `values` by nearest rank; 0 when empty.
pub fn percentile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = (q.clamp(0.0, 1.0) * v.len() as f64).ceil() as usize;
    v[rank.saturating_sub(1).min(v.len() - 1)]
}

/// The mean of `values` and its 95% interval by the normal approximation
/// (mean, low, high); a single value or none gives a zero-width interval.
pub fn mean_ci95(values: &[f64]) -> (f64, f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, mean, mean);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.959_963_984_540_054 * (var / n).sqrt();
    (mean, mean - half, mean + half)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_known_values() {
        // 50/100: about 0.404..0.596.
        let (lo, hi) = wilson95(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3, "{lo}");
        assert!((hi - 0.5962).abs() < 1e-3, "{hi}");
        // 0 wins still has a positive upper bound.
        let (lo, hi) = wilson95(0, 500);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.0 && hi < 0.01, "{hi}");
        assert_eq!(wilson95(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson95(10, 10);
        assert!(lo > 0.69 && hi == 1.0);
    }

    #[test]
    fn mean_interval_known_values() {
        assert_eq!(mean_ci95(&[]), (0.0, 0.0, 0.0));
        assert_eq!(mean_ci95(&[3.0]), (3.0, 3.0, 3.0));
        // 1..=4: mean 2.5, sd 1.291, se 0.6455, half 1.265.
        let (m, lo, hi) = mean_ci95(&[1.0, 2.0, 3.0, 4.0]);
        assert!((m - 2.5).abs() < 1e-12);
        assert!((hi - m - 1.2652).abs() < 1e-3 && (m - lo - 1.2652).abs() < 1e-3, "{lo} {hi}");
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.5), 50.0);
        assert_eq!(percentile(&v, 0.99), 99.0);
        assert_eq!(percentile(&v, 1.0), 100.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
        assert_eq!(percentile(&[7.0], 0.99), 7.0);
    }
}
