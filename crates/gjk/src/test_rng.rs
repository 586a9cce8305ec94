//! Deterministic random inputs for the unit tests (SplitMix64: Steele, Lea and Flood).

use glam::DVec3;

/// SplitMix64 state.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// A uniform number in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A point uniform in the cube `[−1, 1)³`.
    pub(crate) fn in_cube(&mut self) -> DVec3 {
        DVec3::new(self.unit(), self.unit(), self.unit()) * 2.0 - 1.0
    }

    /// A uniformly random unit vector (Marsaglia's rejection in the cube).
    pub(crate) fn on_sphere(&mut self) -> DVec3 {
        loop {
            let v = self.in_cube();
            if (1e-6..=1.0).contains(&v.length_squared()) {
                return v.normalize();
            }
        }
    }
}
