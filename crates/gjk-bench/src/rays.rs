//! Ray-cast workloads: rays against boxes, spheres, capsules, 32-point hulls, cylinders and
//! cones (the 2D ones, discs, octagons and triangles, are in [`crate::rays2d`]), with the
//! closed-form first hit where one exists (the oracle of the agreement test and the report).
//!
//! Every ray starts outside its shape: the shape sits at a random rotation and a translation in
//! `[−10, 10]³`; the origin is `2–4` bounding radii `R` from the shape's centre in a random
//! direction, and the ray aims at a point within `spread × R` of the centre, so about half the
//! rays hit. Directions are not unit (`0.5–2` times the origin-to-aim vector): times of impact
//! are in units of the direction, as both libraries define them.

use gjk::{Pose, Real, Support, Vector};
use glam::{DQuat, DVec3};

use crate::cases::to_array;
use crate::spec::{
    parry3_f64_pose, parry3_pose, point3, BallSpec, BuildError, CapsuleSpec, ConeSpec, CuboidSpec,
    CylinderSpec, HullSpec3, Placement3, Space3, Spec3,
};
use crate::SplitMix64;

/// The largest time of impact asked for (the aim point is reached by time 2).
pub const MAX_TOI: f64 = 10.0;
/// Rays per workload.
pub const RAYS: usize = 1000;

/// One ray against one placed shape, as plain numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct RayCase<S> {
    /// The shape.
    pub shape: S,
    /// Where the shape is.
    pub pose: Placement3,
    /// The ray's origin (outside the shape).
    pub origin: [f64; 3],
    /// The ray's direction (not unit).
    pub direction: [f64; 3],
}

/// A named, deterministic list of rays.
#[derive(Clone, Debug, PartialEq)]
pub struct RayWorkload<S> {
    /// The name used in benchmark ids and the report (`ray_box`, …).
    pub name: &'static str,
    /// The rays.
    pub cases: Vec<RayCase<S>>,
}

/// Where a ray first meets a shape (or two moving shapes first touch), as `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// The time of impact, in units of the direction (or velocity).
    pub toi: f64,
    /// The unit normal at the impact (the shape's outward normal for a ray, A toward B for a
    /// shape cast); all zero when the query does not compute it.
    pub normal: [f64; 3],
}

impl Impact {
    /// The time plus the normal's coordinates: what the benchmark loops add up, so that a
    /// library whose cast inlines into the loop still computes the normal it reports.
    #[inline]
    pub fn checksum(&self) -> f64 {
        self.toi + self.normal.iter().sum::<f64>()
    }
}

/// A ray query in whatever library: what the benchmarks loop over and the tests compare.
pub trait RayQuery {
    /// The first hit within [`MAX_TOI`], solid shapes, or `None`.
    fn cast(&self) -> Option<Impact>;
}

/// A ray in our types.
#[derive(Clone, Debug)]
pub struct OurRay<S, V: Vector> {
    /// The shape.
    pub shape: S,
    /// Its pose.
    pub pose: Pose<V>,
    /// The ray (kept as one, as parry's side keeps its `Ray`: no copy per cast).
    pub ray: gjk::Ray<V>,
}

impl<V: Vector, S: Support<V>> RayQuery for OurRay<S, V> {
    /// [`gjk::ray_cast`].
    #[inline]
    fn cast(&self) -> Option<Impact> {
        let max = V::Real::from_f64(MAX_TOI);
        let hit = gjk::ray_cast(&self.shape, &self.pose, &self.ray, max)?;
        Some(Impact { toi: hit.toi.to_f64(), normal: to_array(hit.normal) })
    }
}

/// Our ray cast forced onto the GJK ray cast (the path every shape took before the closed
/// forms): the shape seen through [`GeneralCore`], which reports no core.
#[derive(Clone, Copy, Debug)]
pub struct OurRayGjk<'a, S, V: Vector>(pub &'a OurRay<S, V>);

/// A shape seen through its support function, margin, centre and extent only: its core is
/// general, so every query on it takes the support-function path.
#[derive(Clone, Copy, Debug)]
pub struct GeneralCore<'a, S>(pub &'a S);

impl<V: Vector, S: Support<V>> Support<V> for GeneralCore<'_, S> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.0.support(dir)
    }
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        self.0.support_hinted(dir, hint)
    }
    #[inline]
    fn margin(&self) -> V::Real {
        self.0.margin()
    }
    #[inline]
    fn center(&self) -> V {
        self.0.center()
    }
    #[inline]
    fn extent(&self) -> V::Real {
        self.0.extent()
    }
}

impl<V: Vector, S: Support<V>> RayQuery for OurRayGjk<'_, S, V> {
    /// [`gjk::ray_cast`] on [`GeneralCore`].
    #[inline]
    fn cast(&self) -> Option<Impact> {
        let c = self.0;
        let max = V::Real::from_f64(MAX_TOI);
        let hit = gjk::ray_cast(&GeneralCore(&c.shape), &c.pose, &c.ray, max)?;
        Some(Impact { toi: hit.toi.to_f64(), normal: to_array(hit.normal) })
    }
}

/// A ray in one of parry's crates' types (`P` its pose, `R` its ray).
#[derive(Clone, Debug)]
pub struct ParryRay<S, P, R> {
    /// The shape.
    pub shape: S,
    /// Its pose.
    pub pose: P,
    /// The ray.
    pub ray: R,
}

/// parry's `RayCast::cast_ray`: the time of impact only, no normal (the cheapest ray query
/// parry offers; [`Impact::normal`] is zero).
#[derive(Clone, Copy, Debug)]
pub struct ParryToiOnly<'a, C>(pub &'a C);

/// parry's GJK ray cast (`query::details::local_ray_intersection_with_support_map_with_params`)
/// called directly, bypassing the closed-form casts parry uses for boxes, balls and capsules.
#[derive(Clone, Copy, Debug)]
pub struct ParryRayGjk<'a, C>(pub &'a C);

macro_rules! parry_rays {
    ($parry:ident) => {
        impl<S: $parry::shape::Shape> RayQuery
            for ParryRay<S, $parry::math::Pose, $parry::query::Ray>
        {
            /// parry's `RayCast::cast_ray_and_get_normal` (solid): time and normal, like ours.
            #[inline]
            fn cast(&self) -> Option<Impact> {
                let max = MAX_TOI as $parry::math::Real;
                let hit = self.shape.cast_ray_and_get_normal(&self.pose, &self.ray, max, true)?;
                Some(Impact { toi: f64::from(hit.time_of_impact), normal: to_array(hit.normal) })
            }
        }

        impl<S: $parry::shape::Shape> RayQuery
            for ParryToiOnly<'_, ParryRay<S, $parry::math::Pose, $parry::query::Ray>>
        {
            #[inline]
            fn cast(&self) -> Option<Impact> {
                let c = self.0;
                let toi = c.shape.cast_ray(&c.pose, &c.ray, MAX_TOI as $parry::math::Real, true)?;
                Some(Impact { toi: f64::from(toi), normal: [0.0; 3] })
            }
        }

        impl<S: $parry::shape::SupportMap> RayQuery
            for ParryRayGjk<'_, ParryRay<S, $parry::math::Pose, $parry::query::Ray>>
        {
            #[inline]
            fn cast(&self) -> Option<Impact> {
                use $parry::query::details::local_ray_intersection_with_support_map_with_params as cast;
                let c = self.0;
                let local = c.ray.inverse_transform_by(&c.pose);
                let mut simplex = $parry::query::gjk::VoronoiSimplex::new();
                let max = MAX_TOI as $parry::math::Real;
                let hit = cast(&c.shape, &mut simplex, &local, max, true)?.transform_by(&c.pose);
                Some(Impact { toi: f64::from(hit.time_of_impact), normal: to_array(hit.normal) })
            }
        }
    };
}

parry_rays!(parry2d);
parry_rays!(parry3d);
parry_rays!(parry2d_f64);
parry_rays!(parry3d_f64);

/// Our rays of a workload.
pub type OurRays<S, V> = Vec<OurRay<<S as Spec3>::Ours<V>, V>>;
/// parry3d's rays of a workload.
pub type ParryRays<S> =
    Vec<ParryRay<<S as Spec3>::Parry, parry3d::math::Pose, parry3d::query::Ray>>;
/// parry3d-f64's rays of a workload.
pub type ParryRaysF64<S> =
    Vec<ParryRay<<S as Spec3>::ParryF64, parry3d_f64::math::Pose, parry3d_f64::query::Ray>>;

impl<S: Spec3> RayWorkload<S> {
    /// The rays in our types, `f32` (`Vec3`) or `f64` (`DVec3`).
    pub fn ours<V: Space3>(&self) -> Result<OurRays<S, V>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                Ok(OurRay {
                    shape: c.shape.ours()?,
                    pose: V::pose(&c.pose)?,
                    ray: gjk::Ray::new(point3(c.origin), point3(c.direction)),
                })
            })
            .collect()
    }

    /// The rays in parry3d's (f32) types.
    pub fn parry(&self) -> Result<ParryRays<S>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                let ray = parry3d::query::Ray::new(point3(c.origin), point3(c.direction));
                Ok(ParryRay { shape: c.shape.parry()?, pose: parry3_pose(&c.pose), ray })
            })
            .collect()
    }

    /// The rays in parry3d-f64's types.
    pub fn parry_f64(&self) -> Result<ParryRaysF64<S>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                let ray = parry3d_f64::query::Ray::new(point3(c.origin), point3(c.direction));
                Ok(ParryRay { shape: c.shape.parry_f64()?, pose: parry3_f64_pose(&c.pose), ray })
            })
            .collect()
    }
}

fn build<S: Spec3>(
    name: &'static str,
    seed: u64,
    spread: f64,
    mut shape: impl FnMut(&mut SplitMix64) -> S,
) -> RayWorkload<S> {
    let mut rng = SplitMix64::new(seed);
    let cases = (0..RAYS)
        .map(|_| {
            let shape = shape(&mut rng);
            let radius = shape.bounding_radius();
            let t = [0; 3].map(|_| rng.range(-10.0, 10.0));
            let pose = Placement3 { rotation: rng.rotation3(), translation: t };
            let (from, reach) = (rng.unit_vector3(), radius * rng.range(2.0, 4.0));
            let (aim, miss) = (rng.unit_vector3(), radius * spread * rng.unit());
            let origin = [0, 1, 2].map(|i| t[i] + from[i] * reach);
            let scale = rng.range(0.5, 2.0);
            let direction = [0, 1, 2].map(|i| (t[i] + aim[i] * miss - origin[i]) * scale);
            RayCase { shape, pose, origin, direction }
        })
        .collect();
    RayWorkload { name, cases }
}

fn cuboid(rng: &mut SplitMix64) -> CuboidSpec {
    CuboidSpec { half_extents: [0; 3].map(|_| rng.range(0.5, 2.0)) }
}

/// Rays against boxes with half extents in `[0.5, 2]`.
pub fn ray_box() -> RayWorkload<CuboidSpec> {
    build("ray_box", 0x7A4B, 1.8, cuboid)
}

/// Rays against spheres with radii in `[0.5, 2]`.
pub fn ray_sphere() -> RayWorkload<BallSpec> {
    build("ray_sphere", 0x7A55, 2.6, |rng| BallSpec { radius: rng.range(0.5, 2.0) })
}

/// Rays against capsules (core half-lengths in `[0.5, 2]`, radii in `[0.25, 1]`).
pub fn ray_capsule() -> RayWorkload<CapsuleSpec> {
    build("ray_capsule", 0x7AC4, 1.4, |rng| CapsuleSpec {
        half_height: rng.range(0.5, 2.0),
        radius: rng.range(0.25, 1.0),
    })
}

/// Rays against hulls of 32 points on ellipsoids (semi-axes in `[0.5, 2]`).
pub fn ray_hull_32() -> RayWorkload<HullSpec3> {
    build("ray_hull_32", 0x7A32, 1.7, |rng| {
        let radii = [0; 3].map(|_| rng.range(0.5, 2.0));
        let points = (0..32)
            .map(|_| {
                let d = rng.unit_vector3();
                [d[0] * radii[0], d[1] * radii[1], d[2] * radii[2]]
            })
            .collect();
        HullSpec3 { points }
    })
}

/// Rays against cylinders (half heights and radii in `[0.5, 2]`).
pub fn ray_cylinder() -> RayWorkload<CylinderSpec> {
    build("ray_cylinder", 0x7AC7, 1.6, |rng| CylinderSpec {
        half_height: rng.range(0.5, 2.0),
        radius: rng.range(0.5, 2.0),
    })
}

/// Rays against cones (half heights and base radii in `[0.5, 2]`).
pub fn ray_cone() -> RayWorkload<ConeSpec> {
    build("ray_cone", 0x7AC0, 1.4, |rng| ConeSpec {
        half_height: rng.range(0.5, 2.0),
        radius: rng.range(0.5, 2.0),
    })
}

/// A ray expressed in a shape's frame: origin and direction in `f64`.
fn local_ray<S>(c: &RayCase<S>) -> (DVec3, DVec3) {
    let [x, y, z, w] = c.pose.rotation;
    let inverse = DQuat::from_xyzw(x, y, z, w).normalize().inverse();
    let origin = inverse * (DVec3::from_array(c.origin) - DVec3::from_array(c.pose.translation));
    (origin, inverse * DVec3::from_array(c.direction))
}

fn world_normal<S>(c: &RayCase<S>, local: DVec3) -> [f64; 3] {
    let [x, y, z, w] = c.pose.rotation;
    (DQuat::from_xyzw(x, y, z, w).normalize() * local).to_array()
}

/// The first `t ≥ 0` with `|o + t·d| = r` (the ray starting outside the ball), or `None`.
fn ray_ball_toi(origin: DVec3, direction: DVec3, radius: f64) -> Option<f64> {
    let (a, half_b) = (direction.dot(direction), origin.dot(direction));
    let c = origin.dot(origin) - radius * radius;
    let discriminant = half_b * half_b - a * c;
    if discriminant < 0.0 || half_b >= 0.0 {
        return None;
    }
    // The smaller root, in the cancellation-free form c / q (q = −b/2 + √disc, both positive).
    Some(c / (-half_b + discriminant.sqrt()))
}

/// The closed-form first hit of a ray on a box: the slab method (Kay & Kajiya 1986) in the
/// box's frame; the normal is the face of the last slab entered.
pub fn exact_ray_box(c: &RayCase<CuboidSpec>) -> Option<Impact> {
    let (o, d) = local_ray(c);
    let (mut enter, mut exit, mut axis) = (0.0_f64, MAX_TOI, None);
    for i in 0..3 {
        let h = c.shape.half_extents[i];
        if d[i] == 0.0 {
            if o[i].abs() > h {
                return None;
            }
            continue;
        }
        let (t0, t1) = ((-h - o[i]) / d[i], (h - o[i]) / d[i]);
        let (near, far) = (t0.min(t1), t0.max(t1));
        if near > enter {
            (enter, axis) = (near, Some(i));
        }
        exit = exit.min(far);
    }
    let axis = axis?;
    (enter <= exit).then(|| {
        let normal = DVec3::AXES[axis] * -d[axis].signum();
        Impact { toi: enter, normal: world_normal(c, normal) }
    })
}

/// The closed-form first hit of a ray on a sphere (the smaller root of the quadratic).
pub fn exact_ray_sphere(c: &RayCase<BallSpec>) -> Option<Impact> {
    let (o, d) = local_ray(c);
    let toi = ray_ball_toi(o, d, c.shape.radius).filter(|&t| t <= MAX_TOI)?;
    let normal = (o + d * toi) / c.shape.radius;
    Some(Impact { toi, normal: world_normal(c, normal) })
}

/// The closed-form first hit of a ray on a capsule: the capsule is the union of a finite
/// cylinder and two balls, so its first hit is the earliest of the cylinder side's (the
/// quadratic in the plane across the axis, kept if it lands between the ends) and the balls'.
pub fn exact_ray_capsule(c: &RayCase<CapsuleSpec>) -> Option<Impact> {
    let (o, d) = local_ray(c);
    let (h, r) = (c.shape.half_height, c.shape.radius);
    let across = |v: DVec3| DVec3::new(v.x, 0.0, v.z);
    let side = ray_ball_toi(across(o), across(d), r).filter(|t| (o.y + t * d.y).abs() <= h);
    let cap = |y: f64| ray_ball_toi(o - DVec3::new(0.0, y, 0.0), d, r);
    let toi = [side, cap(-h), cap(h)].into_iter().flatten().fold(f64::INFINITY, f64::min);
    if toi > MAX_TOI {
        return None;
    }
    let p = o + d * toi;
    let normal = (p - DVec3::new(0.0, p.y.clamp(-h, h), 0.0)) / r;
    Some(Impact { toi, normal: world_normal(c, normal) })
}

/// The facet planes `(outward unit normal, offset)` of the hull of `points`, by brute force:
/// every triple of points whose plane has all the points on one side (within `1e-12` of the
/// set's size) bounds the hull. Cubic in the number of points — for the 32-point oracle only.
fn hull_planes(points: &[DVec3]) -> Vec<(DVec3, f64)> {
    let size = points.iter().map(|p| p.length()).fold(0.0, f64::max);
    let mut planes = Vec::new();
    for (i, &a) in points.iter().enumerate() {
        for (j, &b) in points.iter().enumerate().skip(i + 1) {
            for &c in &points[j + 1..] {
                let Some(n) = (b - a).cross(c - a).try_normalize() else { continue };
                let side = |p: &DVec3| n.dot(*p - a);
                let tolerance = 1e-12 * size;
                if points.iter().all(|p| side(p) <= tolerance) {
                    planes.push((n, n.dot(a)));
                } else if points.iter().all(|p| side(p) >= -tolerance) {
                    planes.push((-n, -n.dot(a)));
                }
            }
        }
    }
    planes
}

/// The first hit of a ray on the hull of a point set: the ray clipped by the hull's facet
/// half-spaces (Cyrus & Beck, 1978), the planes found by brute force (independent of either
/// library); the normal is the plane of the last entry.
pub fn exact_ray_hull(c: &RayCase<HullSpec3>) -> Option<Impact> {
    let points: Vec<DVec3> = c.shape.points.iter().map(|&p| DVec3::from_array(p)).collect();
    let (o, d) = local_ray(c);
    let (toi, normal) = clip_half_spaces(hull_planes(&points), o, d)?;
    Some(Impact { toi, normal: world_normal(c, normal) })
}

/// The ray `o + t·d`, `t ∈ [0, MAX_TOI]`, clipped by the half-spaces `n·x ≤ offset` (Cyrus &
/// Beck, 1978): the entry time and the normal of the last half-space entered, or `None` when
/// the ray misses or starts inside.
pub(crate) fn clip_half_spaces(
    planes: impl IntoIterator<Item = (DVec3, f64)>,
    o: DVec3,
    d: DVec3,
) -> Option<(f64, DVec3)> {
    let (mut enter, mut exit, mut normal) = (0.0_f64, MAX_TOI, None);
    for (n, offset) in planes {
        let (towards, gap) = (n.dot(d), offset - n.dot(o));
        if towards == 0.0 {
            if gap < 0.0 {
                return None;
            }
            continue;
        }
        let t = gap / towards;
        if towards < 0.0 && t > enter {
            (enter, normal) = (t, Some(n));
        } else if towards > 0.0 {
            exit = exit.min(t);
        }
    }
    let normal = normal?;
    (enter <= exit).then_some((enter, normal))
}

/// How far one implementation's casts are from the reference, on one workload and precision.
#[derive(Clone, Debug, PartialEq)]
pub struct ImpactErrors {
    /// The workload.
    pub workload: &'static str,
    /// The implementation (`gjk`, `parry`, `parry GJK`).
    pub library: &'static str,
    /// `f32` or `f64`.
    pub precision: &'static str,
    /// The number of casts.
    pub cases: usize,
    /// Casts that hit, by the reference.
    pub hits: usize,
    /// Casts where the implementation's hit-or-miss differs from the reference's.
    pub mismatches: usize,
    /// The largest absolute error of the time of impact over the casts both call hits.
    pub max_toi_error: f64,
    /// The largest angle (radians) between the normal and the reference's, where the
    /// reference has one.
    pub max_angle: Option<f64>,
}

/// Scores `answers` against `reference` (a zero reference normal is not scored).
pub fn score(
    (workload, library, precision): (&'static str, &'static str, &'static str),
    answers: &[Option<Impact>],
    reference: &[Option<Impact>],
) -> ImpactErrors {
    let mut e = ImpactErrors {
        workload,
        library,
        precision,
        cases: reference.len(),
        hits: reference.iter().filter(|r| r.is_some()).count(),
        mismatches: 0,
        max_toi_error: 0.0,
        max_angle: None,
    };
    for (answer, reference) in answers.iter().zip(reference) {
        match (answer, reference) {
            (Some(a), Some(r)) => {
                e.max_toi_error = e.max_toi_error.max((a.toi - r.toi).abs());
                if r.normal != [0.0; 3] {
                    let angle = crate::depth::angle(a.normal, r.normal);
                    e.max_angle = Some(e.max_angle.map_or(angle, |m| m.max(angle)));
                }
            }
            (None, None) => {}
            _ => e.mismatches += 1,
        }
    }
    e
}

pub(crate) fn answers<Q: RayQuery>(cases: &[Q]) -> Vec<Option<Impact>> {
    cases.iter().map(RayQuery::cast).collect()
}

/// The answers of one workload: ours and parry's public cast, each in `f32` and `f64`, and
/// parry's GJK cast in both when its public cast takes a closed form.
pub(crate) struct WorkloadAnswers {
    pub(crate) ours: [Vec<Option<Impact>>; 2],
    pub(crate) parry: [Vec<Option<Impact>>; 2],
    pub(crate) parry_gjk: Option<[Vec<Option<Impact>>; 2]>,
}

/// The accuracy rows of one workload's answers against `reference`, in the report's order.
pub(crate) fn score_answers(
    name: &'static str,
    answers: &WorkloadAnswers,
    reference: &[Option<Impact>],
) -> Vec<ImpactErrors> {
    let mut rows = Vec::new();
    for (i, precision) in ["f32", "f64"].into_iter().enumerate() {
        rows.push(score((name, "gjk", precision), &answers.ours[i], reference));
        rows.push(score((name, "parry", precision), &answers.parry[i], reference));
        if let Some(gjk) = &answers.parry_gjk {
            rows.push(score((name, "parry GJK", precision), &gjk[i], reference));
        }
    }
    rows
}

/// Ours, parry's public cast and (if `direct`) parry's GJK cast against `reference`.
fn score_workload<S: Spec3>(
    w: &RayWorkload<S>,
    reference: &[Option<Impact>],
    direct: bool,
) -> Result<Vec<ImpactErrors>, BuildError> {
    let (p32, p64) = (w.parry()?, w.parry_f64()?);
    let gjk = |p32: &[_], p64: &[_]| {
        let gjk32: Vec<_> = p32.iter().map(ParryRayGjk).collect();
        let gjk64: Vec<_> = p64.iter().map(ParryRayGjk).collect();
        [answers(&gjk32), answers(&gjk64)]
    };
    let all = WorkloadAnswers {
        ours: [answers(&w.ours::<glam::Vec3>()?), answers(&w.ours::<DVec3>()?)],
        parry: [answers(&p32), answers(&p64)],
        parry_gjk: direct.then(|| gjk(&p32, &p64)),
    };
    Ok(score_answers(w.name, &all, reference))
}

/// The ray-cast accuracy table: every ray workload against its closed-form answer.
pub fn accuracy() -> Result<Vec<ImpactErrors>, BuildError> {
    let (boxes, spheres, capsules, hulls) = (ray_box(), ray_sphere(), ray_capsule(), ray_hull_32());
    let box_exact: Vec<_> = boxes.cases.iter().map(exact_ray_box).collect();
    let sphere_exact: Vec<_> = spheres.cases.iter().map(exact_ray_sphere).collect();
    let capsule_exact: Vec<_> = capsules.cases.iter().map(exact_ray_capsule).collect();
    let hull_exact: Vec<_> = hulls.cases.iter().map(exact_ray_hull).collect();
    let mut rows = score_workload(&boxes, &box_exact, true)?;
    rows.extend(score_workload(&spheres, &sphere_exact, true)?);
    rows.extend(score_workload(&capsules, &capsule_exact, true)?);
    rows.extend(score_workload(&hulls, &hull_exact, false)?);
    rows.extend(crate::rays2d::accuracy()?);
    Ok(rows)
}

/// The fraction of a workload's rays that hit (by `answers`).
pub fn hit_fraction(answers: &[Option<Impact>]) -> f64 {
    answers.iter().filter(|a| a.is_some()).count() as f64 / answers.len().max(1) as f64
}
