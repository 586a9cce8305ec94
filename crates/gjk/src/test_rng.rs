//! glam-valued random inputs for the unit tests, on the shared SplitMix64 of `gjk-testkit`.

use glam::DVec3;

pub(crate) use gjk_testkit::SplitMix64 as Rng;

/// The vector draws of the unit tests.
pub(crate) trait Draw {
    /// A point uniform in the cube `[−1, 1)³`.
    fn in_cube(&mut self) -> DVec3;
    /// A uniformly random unit vector (Marsaglia's rejection in the cube).
    fn on_sphere(&mut self) -> DVec3;
}

impl Draw for Rng {
    fn in_cube(&mut self) -> DVec3 {
        DVec3::new(self.unit(), self.unit(), self.unit()) * 2.0 - 1.0
    }

    fn on_sphere(&mut self) -> DVec3 {
        loop {
            let v = self.in_cube();
            if (1e-6..=1.0).contains(&v.length_squared()) {
                return v.normalize();
            }
        }
    }
}
