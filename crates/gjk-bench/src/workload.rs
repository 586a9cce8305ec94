//! The standard benchmark workloads (DESIGN.md, "Standard benchmark workloads"): fixed seeds,
//! plain numbers, pairs spread so that about half of them intersect.
//!
//! Every pair places A at a random rotation and a random translation in `[−10, 10]³` (so the
//! relative-pose arithmetic is exercised, as in a real scene) and B at a random rotation, offset
//! from A along a random direction by `u × spread × (r_A + r_B)`, with `u` uniform in `[0, 1)`
//! and `r` the shapes' bounding radii. `spread` is set per workload so about half the pairs
//! intersect (the fractions are checked by this crate's tests and printed in the report).

use core::f64::consts::TAU;

use crate::spec::{
    BallSpec, CapsuleSpec, CircleSpec, ConeSpec, CuboidSpec, CylinderSpec, HullSpec3, Placement2,
    Placement3, PolygonSpec, Spec2, Spec3, TriangleSpec,
};
use crate::SplitMix64;

/// One pair of shapes and their placements, as plain numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Case<A, B, P> {
    /// Shape A.
    pub a: A,
    /// Shape B.
    pub b: B,
    /// A's placement.
    pub pose_a: P,
    /// B's placement.
    pub pose_b: P,
}

/// A named, deterministic list of pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload<A, B, P> {
    /// The name used in benchmark ids and the report (`box_box`, `hull_32`, …).
    pub name: &'static str,
    /// The pairs.
    pub cases: Vec<Case<A, B, P>>,
}

/// Pairs in the workloads of small shapes.
pub const PAIRS: usize = 1000;
/// Pairs in the 32-point hull workload.
pub const HULL_32_PAIRS: usize = 250;
/// Pairs in the 1,000-point hull workload (each shape holds 1,000 points).
pub const HULL_1000_PAIRS: usize = 32;

fn placements3(rng: &mut SplitMix64, reach: f64) -> (Placement3, Placement3) {
    let ta = [rng.range(-10.0, 10.0), rng.range(-10.0, 10.0), rng.range(-10.0, 10.0)];
    let pose_a = Placement3 { rotation: rng.rotation3(), translation: ta };
    let dir = rng.unit_vector3();
    let offset = rng.unit() * reach;
    let tb = [0, 1, 2].map(|i| ta[i] + dir[i] * offset);
    (pose_a, Placement3 { rotation: rng.rotation3(), translation: tb })
}

fn placements2(rng: &mut SplitMix64, reach: f64) -> (Placement2, Placement2) {
    let ta = [rng.range(-10.0, 10.0), rng.range(-10.0, 10.0)];
    let pose_a = Placement2 { angle: rng.angle(), translation: ta };
    let dir = rng.unit_vector2();
    let offset = rng.unit() * reach;
    let tb = [ta[0] + dir[0] * offset, ta[1] + dir[1] * offset];
    (pose_a, Placement2 { angle: rng.angle(), translation: tb })
}

/// `count` pairs made by `shapes`, spread by `spread` (see the module documentation).
fn build3<A: Spec3, B: Spec3>(
    name: &'static str,
    seed: u64,
    count: usize,
    spread: f64,
    mut shapes: impl FnMut(&mut SplitMix64) -> (A, B),
) -> Workload<A, B, Placement3> {
    let mut rng = SplitMix64::new(seed);
    let cases = (0..count)
        .map(|_| {
            let (a, b) = shapes(&mut rng);
            let reach = spread * (a.bounding_radius() + b.bounding_radius());
            let (pose_a, pose_b) = placements3(&mut rng, reach);
            Case { a, b, pose_a, pose_b }
        })
        .collect();
    Workload { name, cases }
}

fn build2<A: Spec2, B: Spec2>(
    name: &'static str,
    seed: u64,
    count: usize,
    spread: f64,
    mut shapes: impl FnMut(&mut SplitMix64) -> (A, B),
) -> Workload<A, B, Placement2> {
    let mut rng = SplitMix64::new(seed);
    let cases = (0..count)
        .map(|_| {
            let (a, b) = shapes(&mut rng);
            let reach = spread * (a.bounding_radius() + b.bounding_radius());
            let (pose_a, pose_b) = placements2(&mut rng, reach);
            Case { a, b, pose_a, pose_b }
        })
        .collect();
    Workload { name, cases }
}

fn cuboid(rng: &mut SplitMix64) -> CuboidSpec {
    CuboidSpec { half_extents: [0; 3].map(|_| rng.range(0.5, 2.0)) }
}

/// `n` points on an ellipsoid with semi-axes in `[0.5, 2]`: every point is a vertex of the
/// hull, so both libraries scan the same `n` vertices.
fn ellipsoid_points(rng: &mut SplitMix64, n: usize) -> HullSpec3 {
    let radii = [0; 3].map(|_| rng.range(0.5, 2.0));
    let points = (0..n)
        .map(|_| {
            let d = rng.unit_vector3();
            [d[0] * radii[0], d[1] * radii[1], d[2] * radii[2]]
        })
        .collect();
    HullSpec3 { points }
}

/// `n` points in convex position on an ellipse with semi-axes in `[0.5, 2]`, at angles spread
/// around the circle with jitter: a convex `n`-gon.
pub(crate) fn ellipse_polygon(rng: &mut SplitMix64, n: usize) -> PolygonSpec {
    let (rx, ry) = (rng.range(0.5, 2.0), rng.range(0.5, 2.0));
    let step = TAU / n as f64;
    let points = (0..n)
        .map(|i| {
            let angle = step * (i as f64 + rng.range(-0.25, 0.25));
            let (sin, cos) = angle.sin_cos();
            [rx * cos, ry * sin]
        })
        .collect();
    PolygonSpec { points }
}

/// 3D boxes with half extents in `[0.5, 2]`.
pub fn box_box() -> Workload<CuboidSpec, CuboidSpec, Placement3> {
    build3("box_box", 0xB0C5, PAIRS, 1.5, |rng| (cuboid(rng), cuboid(rng)))
}

/// A sphere (radius in `[0.5, 2]`) against a box (half extents in `[0.5, 2]`).
pub fn sphere_box() -> Workload<BallSpec, CuboidSpec, Placement3> {
    build3("sphere_box", 0x5B0C, PAIRS, 1.6, |rng| {
        (BallSpec { radius: rng.range(0.5, 2.0) }, cuboid(rng))
    })
}

/// Capsules with core half-lengths in `[0.5, 2]` and radii in `[0.25, 1]`.
pub fn capsule_capsule() -> Workload<CapsuleSpec, CapsuleSpec, Placement3> {
    let capsule = |rng: &mut SplitMix64| CapsuleSpec {
        half_height: rng.range(0.5, 2.0),
        radius: rng.range(0.25, 1.0),
    };
    build3("capsule_capsule", 0xCA95, PAIRS, 1.1, |rng| (capsule(rng), capsule(rng)))
}

/// A capsule (as in [`capsule_capsule`]) against a box (half extents in `[0.5, 2]`): the
/// manifold workload where a flat face meets a segment.
pub fn capsule_box() -> Workload<CapsuleSpec, CuboidSpec, Placement3> {
    build3("capsule_box", 0xCAB0, PAIRS, 1.3, |rng| {
        let capsule =
            CapsuleSpec { half_height: rng.range(0.5, 2.0), radius: rng.range(0.25, 1.0) };
        (capsule, cuboid(rng))
    })
}

/// Hulls of 32 points on ellipsoids.
pub fn hull_32() -> Workload<HullSpec3, HullSpec3, Placement3> {
    build3("hull_32", 0x4832, HULL_32_PAIRS, 1.3, |rng| {
        (ellipsoid_points(rng, 32), ellipsoid_points(rng, 32))
    })
}

/// Hulls of 1,000 points on ellipsoids.
pub fn hull_1000() -> Workload<HullSpec3, HullSpec3, Placement3> {
    build3("hull_1000", 0x41000, HULL_1000_PAIRS, 1.1, |rng| {
        (ellipsoid_points(rng, 1000), ellipsoid_points(rng, 1000))
    })
}

/// A cylinder against a cone, heights and radii in `[0.5, 2]`.
pub fn cylinder_cone() -> Workload<CylinderSpec, ConeSpec, Placement3> {
    build3("cylinder_cone", 0xC7C0, PAIRS, 1.4, |rng| {
        let cylinder =
            CylinderSpec { half_height: rng.range(0.5, 2.0), radius: rng.range(0.5, 2.0) };
        let cone = ConeSpec { half_height: rng.range(0.5, 2.0), radius: rng.range(0.5, 2.0) };
        (cylinder, cone)
    })
}

/// Convex octagons on ellipses.
pub fn polygon_8() -> Workload<PolygonSpec, PolygonSpec, Placement2> {
    build2("polygon_8", 0x9088, PAIRS, 1.5, |rng| {
        (ellipse_polygon(rng, 8), ellipse_polygon(rng, 8))
    })
}

/// A circle (radius in `[0.5, 2]`) against a convex octagon.
pub fn circle_polygon() -> Workload<CircleSpec, PolygonSpec, Placement2> {
    build2("circle_polygon", 0xC19C, PAIRS, 1.7, |rng| {
        (CircleSpec { radius: rng.range(0.5, 2.0) }, ellipse_polygon(rng, 8))
    })
}

/// The triangle of the classic GJK tutorial (dyn4j, W. Bittle: `(4, 11), (9, 9), (4, 5)`)
/// against the triangle `(5, 7), (12, 7), (10, 2)` (the first three corners of that tutorial's
/// second polygon), each centred on its centroid and placed at random.
pub fn tutorial_triangles() -> Workload<TriangleSpec, TriangleSpec, Placement2> {
    let a = centred([[4.0, 11.0], [9.0, 9.0], [4.0, 5.0]]);
    let b = centred([[5.0, 7.0], [12.0, 7.0], [10.0, 2.0]]);
    build2("tutorial_triangles", 0x7819, PAIRS, 1.3, |_| (a.clone(), b.clone()))
}

fn centred(corners: [[f64; 2]; 3]) -> TriangleSpec {
    let cx = (corners[0][0] + corners[1][0] + corners[2][0]) / 3.0;
    let cy = (corners[0][1] + corners[1][1] + corners[2][1]) / 3.0;
    TriangleSpec { corners: corners.map(|[x, y]| [x - cx, y - cy]) }
}

/// Axis-aligned, overlapping boxes (half extents in `[0.5, 2]`, no rotation), for the exact
/// penetration depth `min over axes of (h_A + h_B − |Δ|)`: along each axis the centres are
/// `u × 0.98 × (h_A + h_B)` apart (`u` uniform in `[0, 1)`, random sign), so every pair
/// overlaps, by `0.02–100 %` of the reach on its shallowest axis.
pub fn box_box_aligned() -> Workload<CuboidSpec, CuboidSpec, Placement3> {
    const UPRIGHT: [f64; 4] = [0.0, 0.0, 0.0, 1.0];
    let mut rng = SplitMix64::new(0xA11B);
    let cases = (0..PAIRS)
        .map(|_| {
            let (a, b) = (cuboid(&mut rng), cuboid(&mut rng));
            let ta = [0; 3].map(|_| rng.range(-10.0, 10.0));
            let tb = [0, 1, 2].map(|i| {
                let reach = 0.98 * (a.half_extents[i] + b.half_extents[i]);
                let sign = if rng.unit() < 0.5 { -1.0 } else { 1.0 };
                ta[i] + sign * reach * rng.unit()
            });
            let pose_a = Placement3 { rotation: UPRIGHT, translation: ta };
            let pose_b = Placement3 { rotation: UPRIGHT, translation: tb };
            Case { a, b, pose_a, pose_b }
        })
        .collect();
    Workload { name: "box_box_aligned", cases }
}
