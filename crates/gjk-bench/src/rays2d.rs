//! 2D ray-cast workloads: rays against discs, octagons and triangles, with the closed-form
//! first hit (the oracle of the agreement test and the report).
//!
//! Laid out as the 3D workloads of [`crate::rays`]: every ray starts outside its shape, which
//! sits at a random angle and a translation in `[−10, 10]²`; the origin is `2–4` bounding radii
//! `R` from the shape's centre in a random direction, and the ray aims at a point within
//! `spread × R` of the centre, so about half the rays hit. Directions are not unit
//! (`0.5–2` times the origin-to-aim vector). The queries themselves ([`OurRay`],
//! [`ParryRay`], [`RayQuery`]) are the 3D module's, which are generic over the dimension.

use std::f64::consts::PI;

use glam::{DVec2, DVec3, Vec2};

use crate::rays::{
    answers, clip_half_spaces, score_answers, Impact, ImpactErrors, OurRay, ParryRay, ParryRayGjk,
    WorkloadAnswers, MAX_TOI, RAYS,
};
use crate::spec::{
    parry2_f64_pose, parry2_pose, point2, BuildError, CircleSpec, Placement2, PolygonSpec, Space2,
    Spec2, TriangleSpec,
};
use crate::SplitMix64;

/// One 2D ray against one placed shape, as plain numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct RayCase2<S> {
    /// The shape.
    pub shape: S,
    /// Where the shape is.
    pub pose: Placement2,
    /// The ray's origin (outside the shape).
    pub origin: [f64; 2],
    /// The ray's direction (not unit).
    pub direction: [f64; 2],
}

/// A named, deterministic list of 2D rays.
#[derive(Clone, Debug, PartialEq)]
pub struct RayWorkload2<S> {
    /// The name used in benchmark ids and the report (`ray_circle`, …).
    pub name: &'static str,
    /// The rays.
    pub cases: Vec<RayCase2<S>>,
}

/// Our rays of a 2D workload.
pub type OurRays2<S, V> = Vec<OurRay<<S as Spec2>::Ours<V>, V>>;
/// parry2d's rays of a workload.
pub type ParryRays2<S> =
    Vec<ParryRay<<S as Spec2>::Parry, parry2d::math::Pose, parry2d::query::Ray>>;
/// parry2d-f64's rays of a workload.
pub type ParryRays2F64<S> =
    Vec<ParryRay<<S as Spec2>::ParryF64, parry2d_f64::math::Pose, parry2d_f64::query::Ray>>;

impl<S: Spec2> RayWorkload2<S> {
    /// The rays in our types, `f32` (`Vec2`) or `f64` (`DVec2`).
    pub fn ours<V: Space2>(&self) -> Result<OurRays2<S, V>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                Ok(OurRay {
                    shape: c.shape.ours()?,
                    pose: V::pose(&c.pose)?,
                    ray: gjk::Ray::new(point2(c.origin), point2(c.direction)),
                })
            })
            .collect()
    }

    /// The rays in parry2d's (f32) types.
    pub fn parry(&self) -> Result<ParryRays2<S>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                let (o, d) = (c.origin.map(|x| x as f32), c.direction.map(|x| x as f32));
                let ray = parry2d::query::Ray::new(Vec2::from_array(o), Vec2::from_array(d));
                Ok(ParryRay { shape: c.shape.parry()?, pose: parry2_pose(&c.pose), ray })
            })
            .collect()
    }

    /// The rays in parry2d-f64's types.
    pub fn parry_f64(&self) -> Result<ParryRays2F64<S>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                let (o, d) = (DVec2::from_array(c.origin), DVec2::from_array(c.direction));
                let ray = parry2d_f64::query::Ray::new(o, d);
                Ok(ParryRay { shape: c.shape.parry_f64()?, pose: parry2_f64_pose(&c.pose), ray })
            })
            .collect()
    }
}

/// A unit vector at a uniformly random angle.
fn unit_vector2(rng: &mut SplitMix64) -> DVec2 {
    DVec2::from_angle(rng.range(-PI, PI))
}

fn build<S: Spec2>(
    name: &'static str,
    seed: u64,
    spread: f64,
    mut shape: impl FnMut(&mut SplitMix64) -> S,
) -> RayWorkload2<S> {
    let mut rng = SplitMix64::new(seed);
    let cases = (0..RAYS)
        .map(|_| {
            let shape = shape(&mut rng);
            let radius = shape.bounding_radius();
            let t = DVec2::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0));
            let pose = Placement2 { angle: rng.range(-PI, PI), translation: t.to_array() };
            let origin = t + unit_vector2(&mut rng) * radius * rng.range(2.0, 4.0);
            let aim = t + unit_vector2(&mut rng) * radius * spread * rng.unit();
            let direction = (aim - origin) * rng.range(0.5, 2.0);
            RayCase2 { shape, pose, origin: origin.to_array(), direction: direction.to_array() }
        })
        .collect();
    RayWorkload2 { name, cases }
}

/// Rays against discs with radii in `[0.5, 2]`.
pub fn ray_circle() -> RayWorkload2<CircleSpec> {
    build("ray_circle", 0x7AC1, 3.2, |rng| CircleSpec { radius: rng.range(0.5, 2.0) })
}

/// Rays against octagons (the corners of `polygon_8`: on an ellipse with semi-axes in
/// `[0.5, 2]`, at jittered angles).
pub fn ray_polygon_8() -> RayWorkload2<PolygonSpec> {
    build("ray_polygon_8", 0x7A08, 2.6, |rng| crate::workload::ellipse_polygon(rng, 8))
}

/// Rays against triangles whose corners lie `0.5–2` from the centre at random angles (any
/// orientation, thin ones included).
pub fn ray_triangle() -> RayWorkload2<TriangleSpec> {
    build("ray_triangle", 0x7A03, 1.4, |rng| TriangleSpec {
        corners: [0; 3].map(|_| (unit_vector2(rng) * rng.range(0.5, 2.0)).to_array()),
    })
}

/// The ray in the shape's frame, and the rotation that takes a local normal to the world.
fn local_ray<S>(c: &RayCase2<S>) -> (DVec2, DVec2, DVec2) {
    let rotation = DVec2::from_angle(c.pose.angle);
    let inverse = DVec2::new(rotation.x, -rotation.y);
    let origin =
        inverse.rotate(DVec2::from_array(c.origin) - DVec2::from_array(c.pose.translation));
    (origin, inverse.rotate(DVec2::from_array(c.direction)), rotation)
}

fn impact(toi: f64, local_normal: DVec2, rotation: DVec2) -> Impact {
    let n = rotation.rotate(local_normal);
    Impact { toi, normal: [n.x, n.y, 0.0] }
}

/// The closed-form first hit of a ray on a disc: the smaller root of `|o + t·d| = r`, in the
/// cancellation-free form `c / q`.
pub fn exact_ray_circle(c: &RayCase2<CircleSpec>) -> Option<Impact> {
    let (o, d, rotation) = local_ray(c);
    let r = c.shape.radius;
    let (a, half_b, cc) = (d.dot(d), o.dot(d), o.dot(o) - r * r);
    let discriminant = half_b * half_b - a * cc;
    if discriminant < 0.0 || half_b >= 0.0 {
        return None;
    }
    let toi = cc / (-half_b + discriminant.sqrt());
    (toi <= MAX_TOI).then(|| impact(toi, (o + d * toi) / r, rotation))
}

/// The edge lines `(outward unit normal, offset)` of the convex hull of `points`, by brute
/// force: every pair of points whose line has all the points on one side (within `1e-12` of
/// the set's size) bounds the hull. Independent of either library's hull.
fn hull_edges(points: &[DVec2]) -> Vec<(DVec2, f64)> {
    let size = points.iter().map(|p| p.length()).fold(0.0, f64::max);
    let mut edges = Vec::new();
    for (i, &a) in points.iter().enumerate() {
        for &b in &points[i + 1..] {
            let Some(n) = (b - a).perp().try_normalize() else { continue };
            let side = |p: &DVec2| n.dot(*p - a);
            if points.iter().all(|p| side(p) <= 1e-12 * size) {
                edges.push((n, n.dot(a)));
            } else if points.iter().all(|p| side(p) >= -1e-12 * size) {
                edges.push((-n, -n.dot(a)));
            }
        }
    }
    edges
}

/// The first hit of a ray on the hull of `points` (in the shape's frame): the ray clipped by
/// the hull's edge half-planes (Cyrus & Beck), the normal that of the last edge entered.
fn exact_ray_points<S>(c: &RayCase2<S>, points: &[[f64; 2]]) -> Option<Impact> {
    let points: Vec<DVec2> = points.iter().map(|&p| DVec2::from_array(p)).collect();
    let (o, d, rotation) = local_ray(c);
    let lift = |v: DVec2| DVec3::new(v.x, v.y, 0.0);
    let planes = hull_edges(&points).into_iter().map(|(n, offset)| (lift(n), offset));
    let (toi, n) = clip_half_spaces(planes, lift(o), lift(d))?;
    Some(impact(toi, n.truncate(), rotation))
}

/// The closed-form first hit of a ray on a convex polygon (its points' hull).
pub fn exact_ray_polygon(c: &RayCase2<PolygonSpec>) -> Option<Impact> {
    exact_ray_points(c, &c.shape.points)
}

/// The closed-form first hit of a ray on a triangle.
pub fn exact_ray_triangle(c: &RayCase2<TriangleSpec>) -> Option<Impact> {
    exact_ray_points(c, &c.shape.corners)
}

/// Ours, parry's public cast and (if `direct`) parry's GJK cast against `reference`.
fn score_workload<S: Spec2>(
    w: &RayWorkload2<S>,
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
        ours: [answers(&w.ours::<Vec2>()?), answers(&w.ours::<DVec2>()?)],
        parry: [answers(&p32), answers(&p64)],
        parry_gjk: direct.then(|| gjk(&p32, &p64)),
    };
    Ok(score_answers(w.name, &all, reference))
}

/// The 2D rows of the ray-cast accuracy table: every 2D ray workload against its closed form.
pub fn accuracy() -> Result<Vec<ImpactErrors>, BuildError> {
    let (discs, octagons, triangles) = (ray_circle(), ray_polygon_8(), ray_triangle());
    let disc_exact: Vec<_> = discs.cases.iter().map(exact_ray_circle).collect();
    let octagon_exact: Vec<_> = octagons.cases.iter().map(exact_ray_polygon).collect();
    let triangle_exact: Vec<_> = triangles.cases.iter().map(exact_ray_triangle).collect();
    let mut rows = score_workload(&discs, &disc_exact, true)?;
    rows.extend(score_workload(&octagons, &octagon_exact, false)?);
    rows.extend(score_workload(&triangles, &triangle_exact, true)?);
    Ok(rows)
}
