//! Time-of-impact workloads under rotation and translation: spinning boxes and spinning hulls,
//! and a reference time of impact by dense sampling of an exact distance.
//!
//! A sits at a random rotation and a translation in `[−10, 10]³`, moves with a random velocity
//! of speed `0–2` and spins at `0–10` rad per unit time about a random axis; B starts `1–2`
//! times `r_A + r_B` away (bounding radii), spins likewise and moves so that, relative to A, it
//! reaches a point within `spread × (r_A + r_B)` of A's centre at a time in `[2/3, 1]`. The
//! query runs over `t ∈ [0, 1]` (a third to a half turn or more: discrete steps would tunnel).
//!
//! Both libraries answer the same question with their own target: ours the first time the
//! shapes come within the linear slop (1/1000 of the smaller shape's reach), parry's
//! `cast_shapes_nonlinear` the first time they touch (within its tolerance). The report shows
//! how far each answer is from the reference contact time: ours is early by design (by about
//! the slop over the closing speed), and must never be late.

use gjk::{Motion, Real, Vector};
use glam::{DQuat, DVec3};

use crate::rays::Impact;
use crate::shape_casts::{cuboid, hull};
use crate::spec::{
    parry3_f64_pose, parry3_pose, point3, BuildError, CuboidSpec, HullSpec3, Placement3, Space3,
    Spec3,
};
use crate::SplitMix64;

/// The end of the time interval of every query.
pub const MAX_TOI: f64 = 1.0;

/// One moving, spinning pair, as plain numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct ToiCase<A, B> {
    /// Shape A.
    pub a: A,
    /// Shape B.
    pub b: B,
    /// A's placement at `t = 0`.
    pub pose_a: Placement3,
    /// B's placement at `t = 0`.
    pub pose_b: Placement3,
    /// A's linear velocity.
    pub velocity_a: [f64; 3],
    /// B's linear velocity.
    pub velocity_b: [f64; 3],
    /// A's angular velocity (axis × rate, about its position).
    pub spin_a: [f64; 3],
    /// B's angular velocity.
    pub spin_b: [f64; 3],
}

/// A named, deterministic list of spinning pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct ToiWorkload<A, B> {
    /// The name used in benchmark ids and the report (`toi_box_box`, …).
    pub name: &'static str,
    /// The pairs.
    pub cases: Vec<ToiCase<A, B>>,
}

/// A time-of-impact query under rotation in whatever library.
pub trait ToiQuery {
    /// The time of impact in `[0, MAX_TOI]` (0 when the shapes start touching), or `None`.
    fn toi(&self) -> Option<Impact>;
}

/// A spinning pair in our types.
#[derive(Clone, Debug)]
pub struct OurToi<A, B, V: Vector> {
    /// Shape A.
    pub a: A,
    /// Shape B.
    pub b: B,
    /// A's motion.
    pub motion_a: Motion<V>,
    /// B's motion.
    pub motion_b: Motion<V>,
}

impl<V: Vector, A: gjk::Support<V>, B: gjk::Support<V>> ToiQuery for OurToi<A, B, V> {
    /// [`gjk::time_of_impact`] (default slop): a hit, an initial overlap, or the iteration cap
    /// (a conservative time, counted as a hit there).
    #[inline]
    fn toi(&self) -> Option<Impact> {
        let max = V::Real::from_f64(MAX_TOI);
        let r = gjk::time_of_impact(&self.a, &self.motion_a, &self.b, &self.motion_b, max);
        let found = r.is_hit() || r.status == gjk::CastStatus::IterationCap;
        found.then(|| Impact { toi: r.toi.to_f64(), normal: crate::cases::to_array(r.normal) })
    }
}

/// A spinning pair in one of parry's 3D crates' types (`M` its rigid motion).
#[derive(Clone, Debug)]
pub struct ParryToi<A, B, M> {
    /// Shape A.
    pub a: A,
    /// Shape B.
    pub b: B,
    /// A's motion.
    pub motion_a: M,
    /// B's motion.
    pub motion_b: M,
}

macro_rules! parry_toi {
    ($parry:ident) => {
        impl<A: $parry::shape::Shape, B: $parry::shape::Shape> ToiQuery
            for ParryToi<A, B, $parry::query::NonlinearRigidMotion>
        {
            /// parry's public `query::cast_shapes_nonlinear` over `[0, MAX_TOI]`, stopping at
            /// penetration (a pair that starts touching hits at 0, like ours).
            #[inline]
            fn toi(&self) -> Option<Impact> {
                let hit = $parry::query::cast_shapes_nonlinear(
                    &self.motion_a,
                    &self.a,
                    &self.motion_b,
                    &self.b,
                    0.0,
                    MAX_TOI as $parry::math::Real,
                    true,
                );
                let hit = hit.ok().flatten()?;
                Some(Impact { toi: f64::from(hit.time_of_impact), normal: [0.0; 3] })
            }
        }
    };
}

parry_toi!(parry3d);
parry_toi!(parry3d_f64);

/// Our spinning pairs of a workload.
pub type OurTois<A, B, V> = Vec<OurToi<<A as Spec3>::Ours<V>, <B as Spec3>::Ours<V>, V>>;
/// parry3d's spinning pairs of a workload.
pub type ParryTois<A, B> =
    Vec<ParryToi<<A as Spec3>::Parry, <B as Spec3>::Parry, parry3d::query::NonlinearRigidMotion>>;
/// parry3d-f64's spinning pairs of a workload.
pub type ParryToisF64<A, B> = Vec<
    ParryToi<
        <A as Spec3>::ParryF64,
        <B as Spec3>::ParryF64,
        parry3d_f64::query::NonlinearRigidMotion,
    >,
>;

impl<A: Spec3, B: Spec3> ToiWorkload<A, B> {
    /// The pairs in our types, `f32` (`Vec3`) or `f64` (`DVec3`).
    pub fn ours<V: Space3 + Vector<Angular = V>>(&self) -> Result<OurTois<A, B, V>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                let motion = |p: &Placement3, v: [f64; 3], w: [f64; 3]| {
                    Ok::<_, BuildError>(Motion::new(V::pose(p)?, point3(v), point3(w)))
                };
                Ok(OurToi {
                    a: c.a.ours()?,
                    b: c.b.ours()?,
                    motion_a: motion(&c.pose_a, c.velocity_a, c.spin_a)?,
                    motion_b: motion(&c.pose_b, c.velocity_b, c.spin_b)?,
                })
            })
            .collect()
    }

    /// The pairs in parry3d's (f32) types.
    pub fn parry(&self) -> Result<ParryTois<A, B>, BuildError> {
        use parry3d::query::NonlinearRigidMotion;
        let motion = |p: &Placement3, v: [f64; 3], w: [f64; 3]| {
            NonlinearRigidMotion::new(parry3_pose(p), glam::Vec3::ZERO, point3(v), point3(w))
        };
        self.cases
            .iter()
            .map(|c| {
                Ok(ParryToi {
                    a: c.a.parry()?,
                    b: c.b.parry()?,
                    motion_a: motion(&c.pose_a, c.velocity_a, c.spin_a),
                    motion_b: motion(&c.pose_b, c.velocity_b, c.spin_b),
                })
            })
            .collect()
    }

    /// The pairs in parry3d-f64's types.
    pub fn parry_f64(&self) -> Result<ParryToisF64<A, B>, BuildError> {
        use parry3d_f64::query::NonlinearRigidMotion;
        let motion = |p: &Placement3, v: [f64; 3], w: [f64; 3]| {
            NonlinearRigidMotion::new(parry3_f64_pose(p), DVec3::ZERO, point3(v), point3(w))
        };
        self.cases
            .iter()
            .map(|c| {
                Ok(ParryToi {
                    a: c.a.parry_f64()?,
                    b: c.b.parry_f64()?,
                    motion_a: motion(&c.pose_a, c.velocity_a, c.spin_a),
                    motion_b: motion(&c.pose_b, c.velocity_b, c.spin_b),
                })
            })
            .collect()
    }

    /// The reference time of impact of every pair (see [`reference_toi`]).
    pub fn reference(&self) -> Result<Vec<Option<f64>>, BuildError> {
        let shapes: Vec<_> = self
            .cases
            .iter()
            .map(|c| Ok((c.a.parry_f64()?, c.b.parry_f64()?)))
            .collect::<Result<_, BuildError>>()?;
        Ok(self.cases.iter().zip(&shapes).map(|(c, (a, b))| reference_toi(c, a, b)).collect())
    }
}

/// Pairs in the spinning box–box workload.
pub const BOX_PAIRS: usize = 500;
/// Pairs in the spinning hull–hull workload.
pub const HULL_PAIRS: usize = 200;

fn build<A: Spec3, B: Spec3>(
    name: &'static str,
    seed: u64,
    count: usize,
    spread: f64,
    mut shapes: impl FnMut(&mut SplitMix64) -> (A, B),
) -> ToiWorkload<A, B> {
    let mut rng = SplitMix64::new(seed);
    let cases = (0..count)
        .map(|_| {
            let (a, b) = shapes(&mut rng);
            let size = a.bounding_radius() + b.bounding_radius();
            let ta = DVec3::from_array([0; 3].map(|_| rng.range(-10.0, 10.0)));
            let tb = ta + DVec3::from_array(rng.unit_vector3()) * size * rng.range(1.0, 2.0);
            let velocity_a = DVec3::from_array(rng.unit_vector3()) * rng.range(0.0, 2.0);
            let aim = ta + DVec3::from_array(rng.unit_vector3()) * size * spread * rng.unit();
            let velocity_b = velocity_a + (aim - tb) * rng.range(1.0, 1.5);
            let spin_a = DVec3::from_array(rng.unit_vector3()) * rng.range(0.0, 10.0);
            let spin_b = DVec3::from_array(rng.unit_vector3()) * rng.range(0.0, 10.0);
            let pose_a = Placement3 { rotation: rng.rotation3(), translation: ta.to_array() };
            let pose_b = Placement3 { rotation: rng.rotation3(), translation: tb.to_array() };
            ToiCase {
                a,
                b,
                pose_a,
                pose_b,
                velocity_a: velocity_a.to_array(),
                velocity_b: velocity_b.to_array(),
                spin_a: spin_a.to_array(),
                spin_b: spin_b.to_array(),
            }
        })
        .collect();
    ToiWorkload { name, cases }
}

/// Spinning boxes with half extents in `[0.5, 2]`.
pub fn toi_box_box() -> ToiWorkload<CuboidSpec, CuboidSpec> {
    build("toi_box_box", 0x7B0B, BOX_PAIRS, 2.0, |rng| (cuboid(rng), cuboid(rng)))
}

/// Spinning hulls of 32 points on ellipsoids.
pub fn toi_hull_32() -> ToiWorkload<HullSpec3, HullSpec3> {
    build("toi_hull_32", 0x7432, HULL_PAIRS, 2.0, |rng| (hull(rng), hull(rng)))
}

/// Samples of the motion for the reference.
const SAMPLES: usize = 20_000;
/// Bisection steps between the last sample apart and the first touching.
const BISECTION_STEPS: usize = 60;

/// The reference time of impact of a spinning pair: the first of [`SAMPLES`] evenly spaced
/// times at which parry3d-f64's distance (exact on polytopes) is 0, refined by bisection from
/// the sample before it. The poses come from the motion's definition (`exp(t ω) R₀`,
/// `p₀ + t v`), computed here. Independent of either library's time-of-impact algorithm; a
/// contact shorter than a sample spacing (`5e-5`) can be missed by it.
pub fn reference_toi<A, B, S1, S2>(c: &ToiCase<A, B>, a: &S1, b: &S2) -> Option<f64>
where
    S1: parry3d_f64::shape::Shape,
    S2: parry3d_f64::shape::Shape,
{
    let at = |p: &Placement3, v: [f64; 3], w: [f64; 3], t: f64| {
        let [x, y, z, s] = p.rotation;
        let q0 = DQuat::from_xyzw(x, y, z, s).normalize();
        let q = DQuat::from_scaled_axis(DVec3::from_array(w) * t) * q0;
        let translation = DVec3::from_array(p.translation) + DVec3::from_array(v) * t;
        parry3d_f64::math::Pose::from_parts(translation, q.normalize())
    };
    let d = |t: f64| {
        let pa = at(&c.pose_a, c.velocity_a, c.spin_a, t);
        let pb = at(&c.pose_b, c.velocity_b, c.spin_b, t);
        parry3d_f64::query::distance(&pa, a, &pb, b).map_or(f64::NAN, |r| r.distance)
    };
    let step = MAX_TOI / (SAMPLES - 1) as f64;
    let first = (0..SAMPLES).find(|&i| d(i as f64 * step) <= 0.0)?;
    if first == 0 {
        return Some(0.0);
    }
    let (mut apart, mut touching) = ((first - 1) as f64 * step, first as f64 * step);
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

/// How one library's answers compare with the reference.
#[derive(Clone, Debug)]
pub struct ToiErrors {
    /// The workload.
    pub workload: &'static str,
    /// `gjk` or `parry`.
    pub library: &'static str,
    /// `f32` or `f64`.
    pub precision: &'static str,
    /// The number of queries.
    pub cases: usize,
    /// Queries the reference finds a contact for.
    pub hits: usize,
    /// Reference contacts the library missed (unsafe).
    pub missed: usize,
    /// Library hits the reference has no contact for (near misses within the slop, or a
    /// contact briefer than the reference's sample spacing).
    pub extra: usize,
    /// Hits later than the reference by more than `1e-6` (unsafe: the shapes would overlap).
    pub late: usize,
    /// The largest `reference − toi` over both hits (how early).
    pub max_early: f64,
    /// The mean `|toi − reference|` over both hits.
    pub mean_error: f64,
}

/// Scores `answers` against `reference`.
pub fn score(
    (workload, library, precision): (&'static str, &'static str, &'static str),
    answers: &[Option<Impact>],
    reference: &[Option<f64>],
) -> ToiErrors {
    let mut e = ToiErrors {
        workload,
        library,
        precision,
        cases: reference.len(),
        hits: reference.iter().filter(|r| r.is_some()).count(),
        missed: 0,
        extra: 0,
        late: 0,
        max_early: 0.0,
        mean_error: 0.0,
    };
    let (mut sum, mut both) = (0.0, 0);
    for (answer, reference) in answers.iter().zip(reference) {
        match (answer, reference) {
            (Some(a), Some(r)) => {
                e.late += usize::from(a.toi > r + 1e-6);
                e.max_early = e.max_early.max(r - a.toi);
                sum += (a.toi - r).abs();
                both += 1;
            }
            (None, Some(_)) => e.missed += 1,
            (Some(_), None) => e.extra += 1,
            (None, None) => {}
        }
    }
    e.mean_error = if both > 0 { sum / both as f64 } else { 0.0 };
    e
}

fn answers<Q: ToiQuery>(cases: &[Q]) -> Vec<Option<Impact>> {
    cases.iter().map(ToiQuery::toi).collect()
}

fn score_workload<A: Spec3, B: Spec3>(w: &ToiWorkload<A, B>) -> Result<Vec<ToiErrors>, BuildError> {
    let reference = w.reference()?;
    Ok(vec![
        score((w.name, "gjk", "f32"), &answers(&w.ours::<glam::Vec3>()?), &reference),
        score((w.name, "parry", "f32"), &answers(&w.parry()?), &reference),
        score((w.name, "gjk", "f64"), &answers(&w.ours::<DVec3>()?), &reference),
        score((w.name, "parry", "f64"), &answers(&w.parry_f64()?), &reference),
    ])
}

/// The time-of-impact accuracy table: both workloads against [`reference_toi`].
pub fn accuracy() -> Result<Vec<ToiErrors>, BuildError> {
    let mut rows = score_workload(&toi_box_box())?;
    rows.extend(score_workload(&toi_hull_32())?);
    Ok(rows)
}
