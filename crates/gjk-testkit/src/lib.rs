//! # gjk-testkit — deterministic random numbers for the gjk tests and benchmarks
//!
//! One generator, [`SplitMix64`], for every test, benchmark and workload of the workspace, so
//! that a seed names the same inputs everywhere and forever: the stream is fixed by the
//! generator's definition, not by a random-number crate's version. No dependencies; the
//! vector-valued draws a test needs in its own types (glam vectors, poses) stay with that test
//! and are written on top of the scalar draws here.
//!
//! ```
//! use gjk_testkit::SplitMix64;
//!
//! let mut a = SplitMix64::new(7);
//! let mut b = SplitMix64::new(7);
//! assert_eq!(a.next_u64(), b.next_u64());
//! let x = a.range(2.0, 3.0);
//! assert!((2.0..3.0).contains(&x));
//! assert!(a.below(10) < 10);
//! ```

use std::f64::consts::PI;

/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA
/// 2014): a 64-bit counter advanced by the golden-ratio increment and passed through a
/// bijective mixing function. Tiny, fast, well mixed, and its stream is fixed by its definition,
/// which is all deterministic test inputs need.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator whose stream starts from `seed`.
    pub const fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `[0, 1)`: the top 53 bits as the mantissa of a double (the scaling
    /// by `2⁻⁵³` is exact, so every `k · 2⁻⁵³` is equally likely).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform number in `[lo, hi)` (up to the rounding of `lo + (hi − lo) · u`).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// A log-uniform number in `[lo, hi)`, for `0 < lo < hi`: every decade equally likely.
    pub fn scale(&mut self, lo: f64, hi: f64) -> f64 {
        self.range(lo.ln(), hi.ln()).exp()
    }

    /// An index in `0..n`, for `n > 0` (by remainder: the bias, below `n / 2⁶⁴`, does not
    /// matter for test inputs).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// An angle uniform in `[−π, π)`.
    pub fn angle(&mut self) -> f64 {
        self.range(-PI, PI)
    }

    /// A direction uniform on the unit circle.
    pub fn unit_vector2(&mut self) -> [f64; 2] {
        let (sin, cos) = self.angle().sin_cos();
        [cos, sin]
    }

    /// A direction uniform on the unit sphere (Archimedes: `z` uniform in `[−1, 1]`, longitude
    /// uniform).
    pub fn unit_vector3(&mut self) -> [f64; 3] {
        let z = self.range(-1.0, 1.0);
        let (sin, cos) = self.angle().sin_cos();
        let r = (1.0 - z * z).max(0.0).sqrt();
        [r * cos, r * sin, z]
    }

    /// A rotation uniform over SO(3), as a unit quaternion `[x, y, z, w]` (Shoemake, "Uniform
    /// random rotations", Graphics Gems III, 1992).
    pub fn rotation3(&mut self) -> [f64; 4] {
        let u1 = self.unit();
        let (s2, c2) = (2.0 * PI * self.unit()).sin_cos();
        let (s3, c3) = (2.0 * PI * self.unit()).sin_cos();
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        [a * s2, a * c2, b * s3, b * c3]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_matches_the_published_reference() {
        // First outputs of SplitMix64 seeded with 1234567 (the reference C implementation).
        let mut rng = SplitMix64::new(1_234_567);
        assert_eq!(rng.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn draws_stay_in_their_ranges() {
        let mut rng = SplitMix64::new(5);
        for _ in 0..10_000 {
            assert!((0.0..1.0).contains(&rng.unit()));
            assert!((-2.0..3.0).contains(&rng.range(-2.0, 3.0)));
            assert!((0.1..10.0).contains(&rng.scale(0.1, 10.0)));
            assert!(rng.below(7) < 7);
            assert!((-PI..PI).contains(&rng.angle()));
        }
    }

    #[test]
    fn chance_follows_its_probability() {
        let mut rng = SplitMix64::new(11);
        let hits = (0..100_000).filter(|_| rng.chance(0.3)).count();
        // Binomial(100000, 0.3): standard deviation about 145, so 1000 is about 7 sigma.
        assert!((29_000..31_000).contains(&hits), "{hits}");
        assert!(!(0..1000).any(|_| rng.chance(0.0)));
    }

    #[test]
    fn rotations_and_directions_are_unit() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..1000 {
            let q = rng.rotation3();
            let n: f64 = q.iter().map(|c| c * c).sum();
            assert!((n - 1.0).abs() < 1e-12);
            let d = rng.unit_vector3();
            let n: f64 = d.iter().map(|c| c * c).sum();
            assert!((n - 1.0).abs() < 1e-12);
            let d = rng.unit_vector2();
            assert!((d[0] * d[0] + d[1] * d[1] - 1.0).abs() < 1e-12);
        }
    }
}
