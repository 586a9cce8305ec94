//! Shape-cast workloads (time of impact under linear motion): box–box and hull–hull pairs
//! with velocities, and a reference time of impact by bisection on an exact distance.
//!
//! A sits at a random rotation and a translation in `[−10, 10]³` and moves with a random
//! velocity of speed `0–2`; B starts `0.9–2` times `r_A + r_B` away (bounding radii: a few pairs
//! start overlapping) and moves so that, relative to A, it reaches a point within
//! `spread × (r_A + r_B)` of A's centre at a time in `[2/3, 1]`. The cast runs over
//! `t ∈ [0, 1]`; `spread` is set so about half the pairs touch.

use gjk::{Pose, Real, Support, Vector};
use glam::DVec3;

use crate::cases::to_array;
use crate::rays::{score, Impact, ImpactErrors};
use crate::spec::{
    parry3_f64_pose, parry3_pose, point3, BuildError, CuboidSpec, HullSpec3, Placement3, Space3,
    Spec3,
};
use crate::SplitMix64;

/// The end of the time interval of every cast.
pub const MAX_TOI: f64 = 1.0;

/// One moving pair, as plain numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct CastCase<A, B> {
    /// Shape A.
    pub a: A,
    /// Shape B.
    pub b: B,
    /// A's placement at `t = 0`.
    pub pose_a: Placement3,
    /// B's placement at `t = 0`.
    pub pose_b: Placement3,
    /// A's velocity.
    pub velocity_a: [f64; 3],
    /// B's velocity.
    pub velocity_b: [f64; 3],
}

/// A named, deterministic list of moving pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct CastWorkload<A, B> {
    /// The name used in benchmark ids and the report (`cast_box_box`, …).
    pub name: &'static str,
    /// The pairs.
    pub cases: Vec<CastCase<A, B>>,
}

/// A shape cast in whatever library.
pub trait CastQuery {
    /// The first time of contact in `[0, MAX_TOI]` (0 when the shapes start touching), with
    /// the normal from A toward B, or `None`.
    fn cast(&self) -> Option<Impact>;
}

/// A moving pair in our types.
#[derive(Clone, Debug)]
pub struct OurCast<A, B, V: Vector> {
    /// Shape A.
    pub a: A,
    /// Shape B.
    pub b: B,
    /// A's pose at `t = 0`.
    pub pose_a: Pose<V>,
    /// B's pose at `t = 0`.
    pub pose_b: Pose<V>,
    /// A's velocity.
    pub velocity_a: V,
    /// B's velocity.
    pub velocity_b: V,
}

impl<V: Vector, A: Support<V>, B: Support<V>> CastQuery for OurCast<A, B, V> {
    /// [`gjk::shape_cast`]: a hit or an initial overlap.
    #[inline]
    fn cast(&self) -> Option<Impact> {
        let (va, vb, max) = (self.velocity_a, self.velocity_b, V::Real::from_f64(MAX_TOI));
        let r = gjk::shape_cast(&self.a, &self.pose_a, va, &self.b, &self.pose_b, vb, max);
        r.is_hit().then(|| Impact { toi: r.toi.to_f64(), normal: to_array(r.normal) })
    }
}

/// A moving pair in one of parry's crates' types (`P` its pose, `W` its vector).
#[derive(Clone, Debug)]
pub struct ParryCast<A, B, P, W> {
    /// Shape A.
    pub a: A,
    /// Shape B.
    pub b: B,
    /// A's pose at `t = 0`.
    pub pose_a: P,
    /// B's pose at `t = 0`.
    pub pose_b: P,
    /// A's velocity.
    pub velocity_a: W,
    /// B's velocity.
    pub velocity_b: W,
}

macro_rules! parry_casts {
    ($parry:ident) => {
        impl<A: $parry::shape::Shape, B: $parry::shape::Shape> CastQuery
            for ParryCast<A, B, $parry::math::Pose, $parry::math::Vector>
        {
            /// parry's public `query::cast_shapes` (linear motion, default options: stop at
            /// penetration); its normal is in A's frame and is turned into the world's.
            #[inline]
            fn cast(&self) -> Option<Impact> {
                let options = $parry::query::ShapeCastOptions::with_max_time_of_impact(
                    MAX_TOI as $parry::math::Real,
                );
                let (va, vb) = (self.velocity_a, self.velocity_b);
                let hit = $parry::query::cast_shapes(
                    &self.pose_a,
                    va,
                    &self.a,
                    &self.pose_b,
                    vb,
                    &self.b,
                    options,
                );
                let hit = hit.ok().flatten()?;
                let normal = to_array(self.pose_a.rotation * hit.normal1);
                Some(Impact { toi: f64::from(hit.time_of_impact), normal })
            }
        }
    };
}

parry_casts!(parry3d);
parry_casts!(parry3d_f64);

/// Our moving pairs of a workload.
pub type OurCasts<A, B, V> = Vec<OurCast<<A as Spec3>::Ours<V>, <B as Spec3>::Ours<V>, V>>;
/// parry3d's moving pairs of a workload.
pub type ParryCasts<A, B> = Vec<
    ParryCast<<A as Spec3>::Parry, <B as Spec3>::Parry, parry3d::math::Pose, parry3d::math::Vector>,
>;
/// parry3d-f64's moving pairs of a workload.
pub type ParryCastsF64<A, B> = Vec<
    ParryCast<
        <A as Spec3>::ParryF64,
        <B as Spec3>::ParryF64,
        parry3d_f64::math::Pose,
        parry3d_f64::math::Vector,
    >,
>;

impl<A: Spec3, B: Spec3> CastWorkload<A, B> {
    /// The pairs in our types, `f32` (`Vec3`) or `f64` (`DVec3`).
    pub fn ours<V: Space3>(&self) -> Result<OurCasts<A, B, V>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                Ok(OurCast {
                    a: c.a.ours()?,
                    b: c.b.ours()?,
                    pose_a: V::pose(&c.pose_a)?,
                    pose_b: V::pose(&c.pose_b)?,
                    velocity_a: point3(c.velocity_a),
                    velocity_b: point3(c.velocity_b),
                })
            })
            .collect()
    }

    /// The pairs in parry3d's (f32) types.
    pub fn parry(&self) -> Result<ParryCasts<A, B>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                Ok(ParryCast {
                    a: c.a.parry()?,
                    b: c.b.parry()?,
                    pose_a: parry3_pose(&c.pose_a),
                    pose_b: parry3_pose(&c.pose_b),
                    velocity_a: point3(c.velocity_a),
                    velocity_b: point3(c.velocity_b),
                })
            })
            .collect()
    }

    /// The pairs in parry3d-f64's types.
    pub fn parry_f64(&self) -> Result<ParryCastsF64<A, B>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                Ok(ParryCast {
                    a: c.a.parry_f64()?,
                    b: c.b.parry_f64()?,
                    pose_a: parry3_f64_pose(&c.pose_a),
                    pose_b: parry3_f64_pose(&c.pose_b),
                    velocity_a: point3(c.velocity_a),
                    velocity_b: point3(c.velocity_b),
                })
            })
            .collect()
    }

    /// The reference time of impact of every pair (see [`reference_toi`]).
    pub fn reference(&self) -> Result<Vec<Option<f64>>, BuildError> {
        Ok(self.parry_f64()?.iter().map(reference_toi).collect())
    }
}

/// Pairs in the box–box cast workload.
pub const BOX_PAIRS: usize = 1000;
/// Pairs in the hull–hull cast workload.
pub const HULL_PAIRS: usize = 250;

fn build<A: Spec3, B: Spec3>(
    name: &'static str,
    seed: u64,
    count: usize,
    spread: f64,
    mut shapes: impl FnMut(&mut SplitMix64) -> (A, B),
) -> CastWorkload<A, B> {
    let mut rng = SplitMix64::new(seed);
    let cases = (0..count)
        .map(|_| {
            let (a, b) = shapes(&mut rng);
            let size = a.bounding_radius() + b.bounding_radius();
            let ta = DVec3::from_array([0; 3].map(|_| rng.range(-10.0, 10.0)));
            let tb = ta + DVec3::from_array(rng.unit_vector3()) * size * rng.range(0.9, 2.0);
            let velocity_a = DVec3::from_array(rng.unit_vector3()) * rng.range(0.0, 2.0);
            let aim = ta + DVec3::from_array(rng.unit_vector3()) * size * spread * rng.unit();
            let velocity_b = velocity_a + (aim - tb) * rng.range(1.0, 1.5);
            let pose_a = Placement3 { rotation: rng.rotation3(), translation: ta.to_array() };
            let pose_b = Placement3 { rotation: rng.rotation3(), translation: tb.to_array() };
            let (velocity_a, velocity_b) = (velocity_a.to_array(), velocity_b.to_array());
            CastCase { a, b, pose_a, pose_b, velocity_a, velocity_b }
        })
        .collect();
    CastWorkload { name, cases }
}

/// A box with half extents in `[0.5, 2]` (the cast and time-of-impact workloads).
pub(crate) fn cuboid(rng: &mut SplitMix64) -> CuboidSpec {
    CuboidSpec { half_extents: [0; 3].map(|_| rng.range(0.5, 2.0)) }
}

/// A hull of 32 points on an ellipsoid of radii in `[0.5, 2]` (the cast and time-of-impact
/// workloads).
pub(crate) fn hull(rng: &mut SplitMix64) -> HullSpec3 {
    let radii = [0; 3].map(|_| rng.range(0.5, 2.0));
    let points = (0..32)
        .map(|_| {
            let d = rng.unit_vector3();
            [d[0] * radii[0], d[1] * radii[1], d[2] * radii[2]]
        })
        .collect();
    HullSpec3 { points }
}

/// Moving boxes with half extents in `[0.5, 2]`.
pub fn cast_box_box() -> CastWorkload<CuboidSpec, CuboidSpec> {
    build("cast_box_box", 0xCB0B, BOX_PAIRS, 2.3, |rng| (cuboid(rng), cuboid(rng)))
}

/// Moving hulls of 32 points on ellipsoids.
pub fn cast_hull_32() -> CastWorkload<HullSpec3, HullSpec3> {
    build("cast_hull_32", 0xC432, HULL_PAIRS, 2.3, |rng| (hull(rng), hull(rng)))
}

/// Golden-section steps (each shrinks the bracket by 0.618: 10⁻²¹ after 100).
const GOLDEN_STEPS: usize = 100;
/// Bisection steps (2⁻⁶⁰ ≈ 10⁻¹⁸ of the interval).
const BISECTION_STEPS: usize = 60;

/// The reference time of impact of a moving pair of polytopes: the first `t ∈ [0, MAX_TOI]`
/// where parry3d-f64's distance (exact on polytopes: GJK ends on a vertex set) is 0.
///
/// Under linear motion the distance `d(t) = dist(0, (A − B) − t·(v_B − v_A))` is convex in `t`
/// (a distance to a convex set along an affine path), so a golden-section search for its
/// minimum finds a point where it is 0, if any (it stops at the first such point: at the minimum itself, where
/// the shapes only touch, GJK reports a distance of a few rounding units), and a bisection on
/// `[0, that point]` then finds the first touching time (`d > 0` before it, `d = 0` after).
/// Independent of either library's cast algorithm. Pairs that only graze (minimum distance
/// within rounding of 0) may come out either way.
pub fn reference_toi<A, B>(
    c: &ParryCast<A, B, parry3d_f64::math::Pose, parry3d_f64::math::Vector>,
) -> Option<f64>
where
    A: parry3d_f64::shape::Shape,
    B: parry3d_f64::shape::Shape,
{
    let at = |pose: &parry3d_f64::math::Pose, v: DVec3, t: f64| {
        let mut moved = *pose;
        moved.translation += v * t;
        moved
    };
    let d = |t: f64| {
        let (pa, pb) = (at(&c.pose_a, c.velocity_a, t), at(&c.pose_b, c.velocity_b, t));
        parry3d_f64::query::distance(&pa, &c.a, &pb, &c.b).map_or(f64::NAN, |r| r.distance)
    };
    if d(0.0) <= 0.0 {
        return Some(0.0);
    }
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0, MAX_TOI);
    let mut touching = None;
    for _ in 0..GOLDEN_STEPS {
        let (x1, x2) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
        let (d1, d2) = (d(x1), d(x2));
        if d1 <= 0.0 || d2 <= 0.0 {
            touching = Some(if d1 <= 0.0 { x1 } else { x2 });
            break;
        }
        if d1 <= d2 {
            hi = x2;
        } else {
            lo = x1;
        }
    }
    let lowest = touching.or_else(|| (d(MAX_TOI) <= 0.0).then_some(MAX_TOI))?;
    let (mut apart, mut touching) = (0.0, lowest);
    for _ in 0..BISECTION_STEPS {
        let mid = 0.5 * (apart + touching);
        if d(mid) > 0.0 {
            apart = mid;
        } else {
            touching = mid;
        }
    }
    Some(touching)
}

fn answers<Q: CastQuery>(cases: &[Q]) -> Vec<Option<Impact>> {
    cases.iter().map(CastQuery::cast).collect()
}

fn score_workload<A: Spec3, B: Spec3>(
    w: &CastWorkload<A, B>,
) -> Result<Vec<ImpactErrors>, BuildError> {
    let reference: Vec<Option<Impact>> =
        w.reference()?.into_iter().map(|t| t.map(|toi| Impact { toi, normal: [0.0; 3] })).collect();
    Ok(vec![
        score((w.name, "gjk", "f32"), &answers(&w.ours::<glam::Vec3>()?), &reference),
        score((w.name, "parry", "f32"), &answers(&w.parry()?), &reference),
        score((w.name, "gjk", "f64"), &answers(&w.ours::<DVec3>()?), &reference),
        score((w.name, "parry", "f64"), &answers(&w.parry_f64()?), &reference),
    ])
}

/// The shape-cast accuracy table: both workloads against [`reference_toi`] (times only).
pub fn accuracy() -> Result<Vec<ImpactErrors>, BuildError> {
    let mut rows = score_workload(&cast_box_box())?;
    rows.extend(score_workload(&cast_hull_32())?);
    Ok(rows)
}
