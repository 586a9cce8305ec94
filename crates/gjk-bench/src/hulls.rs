//! The convex-hull workloads: point sets for hull construction and sphere hulls for support.
//!
//! Construction is timed on points uniform in the unit ball (most points inside: the hull has
//! a few hundred to a few thousand vertices, so discarding interior points is what counts) and
//! on points uniform on the unit sphere (every point a vertex: the surface-building worst
//! case), 1,000 / 10,000 / 100,000 of each, from fixed seeds. Both libraries get the same
//! points: ours through [`gjk::hull::Hull::new`], parry's through
//! `parry3d::transformation::convex_hull` — its plain hull construction (vertices and
//! triangles). `ConvexPolyhedron::from_convex_hull` runs the same construction and then merges
//! coplanar triangles into polygons and builds its adjacency tables, so it measures more than
//! the hull.
//!
//! Support is timed on hulls of points on the sphere (every point a vertex) for a batch of
//! [`SUPPORT_BATCH`] random directions, each paired with a direction [`WARM_ANGLE`] radians
//! away whose answer is the warm start's hint (what a previous frame or GJK iteration leaves).
//!
//! ```
//! let set = gjk_bench::hulls::construction_sets().remove(0);
//! assert_eq!(set.points.len(), 1000);
//! let (vertices, _) = gjk_bench::hulls::parry_hull_f64(&set.points);
//! let ours = gjk::hull::Hull::new(&set.points).unwrap();
//! assert_eq!(ours.vertices().len(), vertices.len());
//! ```

use glam::{DVec3, Vec3};

use crate::SplitMix64;

/// Directions per support batch (one criterion iteration answers all of them).
pub const SUPPORT_BATCH: usize = 256;

/// How far (radians) the warm start's hint direction is from the queried one.
pub const WARM_ANGLE: f64 = 0.02;

/// The point counts of the construction sets.
pub const CONSTRUCTION_SIZES: [usize; 3] = [1_000, 10_000, 100_000];

/// The vertex counts of the support hulls.
pub const SUPPORT_SIZES: [usize; 2] = [1_000, 10_000];

/// How the points of a set are spread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distribution {
    /// Uniform in the unit ball: most points are interior.
    Ball,
    /// Uniform on the unit sphere: every point is a hull vertex.
    Sphere,
}

impl Distribution {
    /// The name used in benchmark ids and the report (`ball`, `sphere`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Ball => "ball",
            Self::Sphere => "sphere",
        }
    }

    /// The seed of the set of `n` points (fixed, distinct per distribution and size).
    const fn seed(self, n: usize) -> u64 {
        let base = match self {
            Self::Ball => 0x4855_4C4C_0000_0000,
            Self::Sphere => 0x5350_4845_0000_0000,
        };
        base + n as u64
    }
}

/// A named, deterministic point set.
#[derive(Clone, Debug, PartialEq)]
pub struct PointSet {
    /// The id used in benchmark group ids and the report: `<distribution>_<n>` (`ball_1000`).
    pub name: String,
    /// How the points are spread.
    pub distribution: Distribution,
    /// The points, in `f64` (the `f32` benchmarks round them: [`PointSet::points_f32`]).
    pub points: Vec<DVec3>,
}

impl PointSet {
    /// `n` points of `distribution`, from that set's fixed seed.
    pub fn new(distribution: Distribution, n: usize) -> Self {
        let mut rng = SplitMix64::new(distribution.seed(n));
        let points = (0..n)
            .map(|_| match distribution {
                Distribution::Ball => in_ball(&mut rng),
                Distribution::Sphere => DVec3::from_array(rng.unit_vector3()),
            })
            .collect();
        Self { name: format!("{}_{n}", distribution.name()), distribution, points }
    }

    /// The points rounded to `f32` (the input of the `f32` benchmarks, for both libraries).
    pub fn points_f32(&self) -> Vec<Vec3> {
        self.points.iter().map(|p| p.as_vec3()).collect()
    }
}

/// A point uniform in the unit ball (rejection from the cube `[−1, 1)³`).
pub fn in_ball(rng: &mut SplitMix64) -> DVec3 {
    loop {
        let p = DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
        if p.length_squared() <= 1.0 {
            return p;
        }
    }
}

/// The construction sets: ball then sphere, each at [`CONSTRUCTION_SIZES`].
pub fn construction_sets() -> Vec<PointSet> {
    [Distribution::Ball, Distribution::Sphere]
        .into_iter()
        .flat_map(|d| CONSTRUCTION_SIZES.map(|n| PointSet::new(d, n)))
        .collect()
}

/// The support hulls' point sets: points on the sphere at [`SUPPORT_SIZES`].
pub fn support_sets() -> Vec<PointSet> {
    SUPPORT_SIZES.map(|n| PointSet::new(Distribution::Sphere, n)).to_vec()
}

/// [`SUPPORT_BATCH`] directions uniform on the sphere, each with the nearby direction
/// ([`WARM_ANGLE`] radians away) whose support point is the warm start's hint.
pub fn direction_pairs(seed: u64) -> Vec<(DVec3, DVec3)> {
    let mut rng = SplitMix64::new(seed);
    (0..SUPPORT_BATCH)
        .map(|_| {
            let d = DVec3::from_array(rng.unit_vector3());
            let (sin, cos) = WARM_ANGLE.sin_cos();
            let near = d * cos + d.any_orthonormal_vector() * sin;
            (d, near)
        })
        .collect()
}

/// parry3d-f64's plain hull construction (`transformation::convex_hull`): its vertices (input
/// points, unchanged) and counter-clockwise triangles. Panics where parry's does (fewer than
/// three points, or an internal failure).
pub fn parry_hull_f64(points: &[DVec3]) -> (Vec<DVec3>, Vec<[u32; 3]>) {
    parry3d_f64::transformation::convex_hull(points)
}

/// parry3d's (`f32`) plain hull construction, as [`parry_hull_f64`].
pub fn parry_hull_f32(points: &[Vec3]) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    parry3d::transformation::convex_hull(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_deterministic_and_where_they_should_be() {
        assert_eq!(PointSet::new(Distribution::Ball, 100), PointSet::new(Distribution::Ball, 100));
        for p in PointSet::new(Distribution::Ball, 1000).points {
            assert!(p.length() <= 1.0);
        }
        for p in PointSet::new(Distribution::Sphere, 1000).points {
            assert!((p.length() - 1.0).abs() < 1e-12);
        }
        for (d, near) in direction_pairs(1) {
            assert!((d.length() - 1.0).abs() < 1e-12 && (near.length() - 1.0).abs() < 1e-12);
            assert!((d.angle_between(near) - WARM_ANGLE).abs() < 1e-9);
        }
    }
}
