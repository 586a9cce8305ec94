//! Contact (penetration depth, normal, witness points) against independent oracles.
//!
//! * Polytopes: the penetration depth of two intersecting convex polytopes is the distance from
//!   the origin to the boundary of the hull of `P = {aᵢ − bⱼ}`, i.e. the smallest plane distance
//!   over the facets of that hull. The oracle enumerates the facets by brute force: every plane
//!   through `d` points of `P` (3 in 3D, 2 in 2D) that has all of `P` on one side.
//! * Analytic cases: balls, boxes, capsules, nesting, touching, identical and flat shapes.
//!
//! Tolerances (stated per check): f64 depth within 1e-9 relative; witness points within 1e-9 of
//! the shapes' size; f32 within 1e-4 of the size.

use crate::common;

use common::{Rng, SupportOnly};
use gjk::{
    contact, distance, intersects, Ball, Capsule, Contact, ContactOptions, Core, Cuboid,
    EpaTermination, Pair, Point, Polytope, Pose, Real, Rounded, Segment, Support, Termination,
    Triangle, Vector, WarmStart,
};
use glam::{DQuat, DVec2, DVec3, Vec2, Vec3};

/// The spaces the tests run in: random points and poses.
trait Space: Vector {
    fn random_point(rng: &mut Rng, half_extents: [f64; 3]) -> Self;
    fn random_pose(rng: &mut Rng, spread: f64) -> Pose<Self>;
}

fn coords(rng: &mut Rng, h: [f64; 3]) -> [f64; 3] {
    [rng.range(-h[0], h[0]), rng.range(-h[1], h[1]), rng.range(-h[2], h[2])]
}

fn random_quat(rng: &mut Rng) -> DQuat {
    let q = DQuat::from_xyzw(
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
    );
    if q.length() < 0.1 {
        DQuat::IDENTITY
    } else {
        q.normalize()
    }
}

impl Space for DVec3 {
    fn random_point(rng: &mut Rng, h: [f64; 3]) -> Self {
        DVec3::from_array(coords(rng, h))
    }
    fn random_pose(rng: &mut Rng, spread: f64) -> Pose<Self> {
        let t = DVec3::from_array(coords(rng, [spread; 3]));
        Pose::new(random_quat(rng), t).unwrap()
    }
}

impl Space for Vec3 {
    fn random_point(rng: &mut Rng, h: [f64; 3]) -> Self {
        DVec3::random_point(rng, h).as_vec3()
    }
    fn random_pose(rng: &mut Rng, spread: f64) -> Pose<Self> {
        let t = DVec3::from_array(coords(rng, [spread; 3])).as_vec3();
        Pose::new(random_quat(rng).as_quat(), t).unwrap()
    }
}

impl Space for DVec2 {
    fn random_point(rng: &mut Rng, h: [f64; 3]) -> Self {
        let c = coords(rng, h);
        DVec2::new(c[0], c[1])
    }
    fn random_pose(rng: &mut Rng, spread: f64) -> Pose<Self> {
        let t = DVec2::new(rng.range(-spread, spread), rng.range(-spread, spread));
        Pose::<DVec2>::from_angle_translation(rng.range(-3.2, 3.2), t).unwrap()
    }
}

impl Space for Vec2 {
    fn random_point(rng: &mut Rng, h: [f64; 3]) -> Self {
        DVec2::random_point(rng, h).as_vec2()
    }
    fn random_pose(rng: &mut Rng, spread: f64) -> Pose<Self> {
        let t = Vec2::new(rng.range(-spread, spread) as f32, rng.range(-spread, spread) as f32);
        Pose::<Vec2>::from_angle_translation(rng.range(-3.2, 3.2) as f32, t).unwrap()
    }
}

/// Any vector as an f64 3-vector (z = 0 in 2D): the oracles compute in f64.
fn wide<V: Vector>(v: V) -> DVec3 {
    DVec3::new(v.component(0).to_f64(), v.component(1).to_f64(), v.component(2).to_f64())
}

fn narrow<V: Vector>(v: DVec3) -> V {
    V::from_components([V::Real::from_f64(v.x), V::Real::from_f64(v.y), V::Real::from_f64(v.z)])
}

// ---------------------------------------------------------------------------------------------
// The brute-force oracle.

/// A facet of the hull of a point set: the signed distance of its plane from the origin
/// (along the outward normal).
#[derive(Clone, Copy, Debug)]
struct Plane {
    offset: f64,
}

/// Every facet plane of the hull of `points` (`dim` = 2 or 3), by brute force.
fn hull_planes(points: &[DVec3], dim: usize) -> Vec<Plane> {
    let size = points.iter().map(|p| p.length()).fold(0.0, f64::max).max(1e-300);
    let eps = 1e-12 * size;
    let mut planes = Vec::new();
    let mut consider = |n: DVec3, p: DVec3| {
        let Some(n) = n.try_normalize() else { return };
        let d = n.dot(p);
        let (mut above, mut below) = (false, false);
        for q in points {
            let s = n.dot(*q) - d;
            above |= s > eps;
            below |= s < -eps;
            if above && below {
                return;
            }
        }
        if !above {
            planes.push(Plane { offset: d });
        }
        if !below {
            planes.push(Plane { offset: -d });
        }
    };
    let n = points.len();
    for i in 0..n {
        for j in i + 1..n {
            let e = points[j] - points[i];
            if dim == 2 {
                if e.length() > 1e-12 * size {
                    consider(DVec3::new(e.y, -e.x, 0.0), points[i]);
                }
                continue;
            }
            for k in j + 1..n {
                let m = e.cross(points[k] - points[i]);
                if m.length() > 1e-12 * size * size {
                    consider(m, points[i]);
                }
            }
        }
    }
    planes
}

/// The penetration depth by the oracle: the smallest facet distance when the origin is inside
/// the hull (every facet distance positive), else `None`.
fn oracle_depth(planes: &[Plane]) -> Option<f64> {
    let min = planes.iter().map(|p| p.offset).fold(f64::INFINITY, f64::min);
    (min > 0.0 && min.is_finite()).then_some(min)
}

/// The support value `max p·n` of a point set.
fn support_value(points: &[DVec3], n: DVec3) -> f64 {
    points.iter().map(|p| p.dot(n)).fold(f64::NEG_INFINITY, f64::max)
}

fn transformed<V: Vector>(points: &[V], pose: &Pose<V>) -> Vec<DVec3> {
    points.iter().map(|&p| wide(pose.transform_point(p))).collect()
}

fn differences(a: &[DVec3], b: &[DVec3]) -> Vec<DVec3> {
    a.iter().flat_map(|&p| b.iter().map(move |&q| p - q)).collect()
}

fn translated<V: Vector>(pose: &Pose<V>, by: DVec3) -> Pose<V> {
    Pose::new(pose.rotation(), pose.translation() + narrow::<V>(by)).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Random polytope pairs.

/// Worst errors seen over a batch, relative to the tolerance scale.
#[derive(Default, Debug)]
struct Worst {
    depth: f64,
    normal_support: f64,
    points_gap: f64,
    on_surface: f64,
    pairs: usize,
    translations_checked: usize,
}

/// Checks one overlapping polytope pair against the oracle; `tol` is relative to the size.
fn check_polytopes<V: Space>(
    a: &[V],
    pose_a: &Pose<V>,
    b: &[V],
    pose_b: &Pose<V>,
    tol: f64,
    worst: &mut Worst,
) -> bool {
    let shape_a = Polytope::new(a.to_vec()).unwrap();
    let shape_b = Polytope::new(b.to_vec()).unwrap();
    // Small polygons in 2D take the separating-axis test (no expansion); the same polygons
    // behind support queries only still run GJK and EPA, checked against the same oracle.
    let polygon = |s: &Polytope<V>| matches!(s.core(), Core::Polygon(_));
    let polygons = polygon(&shape_a) && polygon(&shape_b);
    if polygons {
        let (general_a, general_b) = (SupportOnly(&shape_a), SupportOnly(&shape_b));
        let general = Polyhedra { a: (&general_a, a, pose_a), b: (&general_b, b, pose_b) };
        general.check(Some(EpaTermination::Converged), tol, worst);
    }
    let pair = Polyhedra { a: (&shape_a, a, pose_a), b: (&shape_b, b, pose_b) };
    let expansion = if polygons { None } else { Some(EpaTermination::Converged) };
    pair.check(expansion, tol, worst)
}

/// Two shapes with the vertices of their hulls (local frames) and their poses.
struct Polyhedra<'s, V: Vector, A, B> {
    a: (&'s A, &'s [V], &'s Pose<V>),
    b: (&'s B, &'s [V], &'s Pose<V>),
}

impl<V: Space, A: Support<V>, B: Support<V>> Polyhedra<'_, V, A, B> {
    /// [`check_polytopes`] for any two shapes given with their hulls' vertices: `false` when
    /// the pair does not overlap by 1e-3 of its size; `epa` is how the expansion must end
    /// (`None`: no expansion, an analytic answer).
    fn check(&self, epa: Option<EpaTermination>, tol: f64, worst: &mut Worst) -> bool {
        let ((shape_a, a, pose_a), (shape_b, b, pose_b)) = (self.a, self.b);
        check_contact(shape_a, a, pose_a, shape_b, b, pose_b, epa, tol, worst)
    }
}

/// The checks of [`check_polytopes`] on any two shapes whose hulls have the vertices `a`, `b`.
#[allow(clippy::too_many_arguments)]
fn check_contact<V: Space, A: Support<V>, B: Support<V>>(
    shape_a: &A,
    a: &[V],
    pose_a: &Pose<V>,
    shape_b: &B,
    b: &[V],
    pose_b: &Pose<V>,
    epa: Option<EpaTermination>,
    tol: f64,
    worst: &mut Worst,
) -> bool {
    let (wa, wb) = (transformed(a, pose_a), transformed(b, pose_b));
    let p = differences(&wa, &wb);
    let size = p.iter().map(|q| q.length()).fold(0.0, f64::max);
    let Some(depth) = oracle_depth(&hull_planes(&p, V::DIM)) else { return false };
    if depth < 1e-3 * size {
        return false; // keep clear of touching: those have their own tests
    }
    let r = Pair::new(shape_a, *pose_a, shape_b, *pose_b)
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    let c = r.contact.expect("overlapping shapes have a contact");
    assert_eq!(r.epa, epa, "{r:?}");
    let depth_found = c.depth.to_f64();
    let n = wide(c.normal);
    let (pa, pb) = (wide(c.point_a), wide(c.point_b));
    // Depth: within tol of the oracle, relative to the depth (f64) / the size (f32).
    let scale = if tol < 1e-6 { depth } else { size };
    let depth_error = (depth_found - depth).abs() / scale;
    assert!(depth_error <= tol, "depth {depth_found} vs oracle {depth}: {r:?}");
    assert!((n.length() - 1.0).abs() <= tol.max(1e-12), "normal not unit: {n}");
    // The normal realises the depth: h_D(n) equals it.
    let normal_error = (support_value(&p, n) - depth).abs() / scale;
    assert!(normal_error <= tol, "h_D(n) = {} vs {depth}", support_value(&p, n));
    // point_a − point_b = depth × normal.
    let gap_error = (pa - pb - n * depth_found).length() / size;
    assert!(gap_error <= tol, "points {pa} {pb} vs depth × normal");
    // Each witness lies on its shape's supporting plane along ±n, and in the shape.
    let on_a = (pa.dot(n) - support_value(&wa, n)).abs() / size;
    let on_b = (pb.dot(-n) - support_value(&wb, -n)).abs() / size;
    let in_a = distance(&Point::new(c.point_a).unwrap(), &Pose::IDENTITY, shape_a, pose_a);
    let in_b = distance(&Point::new(c.point_b).unwrap(), &Pose::IDENTITY, shape_b, pose_b);
    let surface = on_a.max(on_b).max(in_a.to_f64() / size).max(in_b.to_f64() / size);
    assert!(surface <= tol, "witnesses off the surfaces: {on_a} {on_b} {in_a} {in_b}");
    // Moving B by depth × normal (a hair more) separates; a little less does not.
    if depth > 1e-2 * size && tol < 1e-6 {
        let apart = translated(pose_b, n * depth * (1.0 + 1e-6));
        assert!(!intersects(shape_a, pose_a, shape_b, &apart), "still overlapping: {r:?}");
        let not_yet = translated(pose_b, n * depth * (1.0 - 1e-3));
        assert!(intersects(shape_a, pose_a, shape_b, &not_yet), "separated too early: {r:?}");
        worst.translations_checked += 1;
    }
    worst.depth = worst.depth.max(depth_error);
    worst.normal_support = worst.normal_support.max(normal_error);
    worst.points_gap = worst.points_gap.max(gap_error);
    worst.on_surface = worst.on_surface.max(surface);
    worst.pairs += 1;
    true
}

/// Random overlapping polytope pairs (4–8 points each, random extents, poses) until `count`
/// of them overlap by more than 1e-3 of their size.
fn random_polytope_pairs<V: Space>(seed: u64, count: usize, tol: f64) -> Worst {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    let min_points = V::DIM + 1;
    let mut attempts = 0;
    while worst.pairs < count {
        attempts += 1;
        assert!(attempts < 20 * count, "too few overlapping pairs");
        let shape = |rng: &mut Rng| {
            let h = [rng.range(0.3, 2.0), rng.range(0.3, 2.0), rng.range(0.3, 2.0)];
            let n = min_points + rng.below(9 - min_points);
            (0..n).map(|_| V::random_point(rng, h)).collect::<Vec<V>>()
        };
        let (a, b) = (shape(&mut rng), shape(&mut rng));
        let pose_a = V::random_pose(&mut rng, 10.0);
        let offset = V::random_pose(&mut rng, 1.5);
        let pose_b = pose_a.compose(&offset);
        check_polytopes(&a, &pose_a, &b, &pose_b, tol, &mut worst);
    }
    worst
}

#[test]
fn random_polytopes_3d_f64_match_the_oracle() {
    let worst = random_polytope_pairs::<DVec3>(1, 1500, 1e-9);
    eprintln!("3D f64: {worst:?}");
}

#[test]
fn random_polygons_2d_f64_match_the_oracle() {
    let worst = random_polytope_pairs::<DVec2>(2, 1500, 1e-9);
    eprintln!("2D f64: {worst:?}");
}

#[test]
fn random_polytopes_3d_f32_match_the_oracle() {
    let worst = random_polytope_pairs::<Vec3>(3, 200, 1e-4);
    eprintln!("3D f32: {worst:?}");
}

#[test]
fn random_polygons_2d_f32_match_the_oracle() {
    let worst = random_polytope_pairs::<Vec2>(4, 400, 1e-4);
    eprintln!("2D f32: {worst:?}");
}

/// Boxes as polytopes of their 8 corners, rotated: box–box is the workhorse of physics engines.
#[test]
fn random_boxes_3d_match_the_oracle() {
    let mut rng = Rng::new(5);
    let mut worst = Worst::default();
    let mut attempts = 0;
    while worst.pairs < 300 {
        attempts += 1;
        assert!(attempts < 10_000);
        let corners = |rng: &mut Rng| {
            let h = DVec3::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0), rng.range(0.5, 2.0));
            (0..8).map(|i| h * DVec3::new(sign(i, 0), sign(i, 1), sign(i, 2))).collect::<Vec<_>>()
        };
        let (a, b) = (corners(&mut rng), corners(&mut rng));
        let pose_a = DVec3::random_pose(&mut rng, 5.0);
        let pose_b = pose_a.compose(&DVec3::random_pose(&mut rng, 2.5));
        check_polytopes(&a, &pose_a, &b, &pose_b, 1e-9, &mut worst);
    }
    eprintln!("boxes: {worst:?}");
}

// ---------------------------------------------------------------------------------------------
// Boxes as `Cuboid`s: answered by the separating-axis test (no GJK, no expansion), checked
// against the same brute-force oracle as the polytopes.

/// The corners of the box `[−h, h]` (4 in 2D, 8 in 3D).
fn box_corners<V: Vector>(h: V) -> Vec<V> {
    (0..1 << V::DIM)
        .map(|i| {
            let c =
                [0, 1, 2]
                    .map(|k| if k < V::DIM { h.component(k).to_f64() * sign(i, k) } else { 0.0 });
            V::from_components(c.map(V::Real::from_f64))
        })
        .collect()
}

/// Random overlapping cuboid pairs: half extents in [0.3, 2] × `scale` (one may be flat),
/// poses from `pose` (given the rng and the scale); every overlapping pair is checked.
fn random_cuboid_pairs<V: Space>(
    seed: u64,
    count: usize,
    tol: f64,
    scale: f64,
    pose: impl Fn(&mut Rng, f64) -> Pose<V>,
) -> Worst {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    let mut attempts = 0;
    while worst.pairs < count {
        attempts += 1;
        assert!(attempts < 20 * count, "too few overlapping pairs");
        let half = |rng: &mut Rng| {
            let c = [0; 3].map(|_| rng.range(0.3, 2.0) * scale);
            V::from_components(c.map(V::Real::from_f64))
        };
        let (ha, hb) = (half(&mut rng), half(&mut rng));
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let pose_a = pose(&mut rng, 5.0 * scale);
        let pose_b = pose_a.compose(&pose(&mut rng, 2.0 * scale));
        let (ca, cb) = (box_corners(ha), box_corners(hb));
        let pair = Polyhedra { a: (&a, &ca[..], &pose_a), b: (&b, &cb[..], &pose_b) };
        pair.check(None, tol, &mut worst);
    }
    worst
}

#[test]
fn random_cuboids_3d_f64_match_the_oracle() {
    let worst = random_cuboid_pairs::<DVec3>(11, 1000, 1e-9, 1.0, DVec3::random_pose);
    eprintln!("cuboids 3D f64: {worst:?}");
}

#[test]
fn random_cuboids_2d_f64_match_the_oracle() {
    let worst = random_cuboid_pairs::<DVec2>(12, 1000, 1e-9, 1.0, DVec2::random_pose);
    eprintln!("cuboids 2D f64: {worst:?}");
}

#[test]
fn random_cuboids_in_f32_match_the_oracle() {
    let worst = random_cuboid_pairs::<Vec3>(13, 300, 1e-4, 1.0, Vec3::random_pose);
    eprintln!("cuboids 3D f32: {worst:?}");
    let worst = random_cuboid_pairs::<Vec2>(14, 300, 1e-4, 1.0, Vec2::random_pose);
    eprintln!("cuboids 2D f32: {worst:?}");
}

#[test]
fn tiny_and_huge_cuboids_match_the_oracle() {
    for (seed, scale) in [(15, 1e-4), (16, 1e4)] {
        let worst = random_cuboid_pairs::<DVec3>(seed, 200, 1e-9, scale, DVec3::random_pose);
        eprintln!("cuboids at scale {scale}: {worst:?}");
    }
}

/// `intersects` on cuboids (the separating-axis test) against the oracle's hull planes of
/// `P = {aᵢ − bⱼ}`: the origin inside every plane is an overlap, outside one by more than
/// 1e-9 of the size a separation; pairs closer to touching are skipped.
#[test]
fn random_cuboids_intersect_as_the_oracle_says() {
    let mut rng = Rng::new(19);
    let (mut overlapping, mut apart) = (0, 0);
    for _ in 0..3000 {
        let half = |rng: &mut Rng| {
            DVec3::new(rng.range(0.3, 2.0), rng.range(0.3, 2.0), rng.range(0.3, 2.0))
        };
        let (ha, hb) = (half(&mut rng), half(&mut rng));
        let pose_a = DVec3::random_pose(&mut rng, 5.0);
        let pose_b = pose_a.compose(&DVec3::random_pose(&mut rng, 3.0));
        let p = differences(
            &transformed(&box_corners(ha), &pose_a),
            &transformed(&box_corners(hb), &pose_b),
        );
        let size = p.iter().map(|q| q.length()).fold(0.0, f64::max);
        let nearest = hull_planes(&p, 3).iter().map(|q| q.offset).fold(f64::INFINITY, f64::min);
        if nearest.abs() <= 1e-9 * size {
            continue;
        }
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        assert_eq!(
            intersects(&a, &pose_a, &b, &pose_b),
            nearest > 0.0,
            "{ha} {hb} {pose_a:?} {pose_b:?}"
        );
        if nearest > 0.0 {
            overlapping += 1;
        } else {
            apart += 1;
        }
    }
    assert!(overlapping > 500 && apart > 500, "{overlapping} overlapping, {apart} apart");
}

/// Parallel faces and edges everywhere: axis-aligned boxes (every face and edge-pair depth
/// ties with a face's) and boxes turned about z only (the z edges stay parallel).
#[test]
fn aligned_and_half_aligned_cuboids_match_the_oracle() {
    let aligned = |rng: &mut Rng, spread: f64| {
        Pose::from_translation(DVec3::random_point(rng, [spread; 3])).unwrap()
    };
    let worst = random_cuboid_pairs::<DVec3>(17, 500, 1e-9, 1.0, aligned);
    eprintln!("aligned cuboids: {worst:?}");
    let about_z = |rng: &mut Rng, spread: f64| {
        let turn = DQuat::from_rotation_z(rng.range(-3.2, 3.2));
        Pose::new(turn, DVec3::random_point(rng, [spread; 3])).unwrap()
    };
    let worst = random_cuboid_pairs::<DVec3>(18, 500, 1e-9, 1.0, about_z);
    eprintln!("cuboids turned about z: {worst:?}");
}

/// Two cubes whose edges cross: A turned 45° about x has a top edge along x at height √2; B
/// turned 45° about y has a bottom edge along y. Lowered until they overlap by 0.1, the depth
/// is 0.1 along +z, at the crossing point of the edges.
#[test]
fn crossing_cube_edges_touch_at_the_crossing() {
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    let root2 = 2f64.sqrt();
    let pose_a = Pose::new(DQuat::from_rotation_x(0.25 * std::f64::consts::PI), DVec3::ZERO);
    let height = 2.0 * root2 - 0.1;
    let pose_b = Pose::new(DQuat::from_rotation_y(0.25 * std::f64::consts::PI), DVec3::Z * height);
    let r = Pair::new(&cube, pose_a.unwrap(), &cube, pose_b.unwrap())
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!((r.epa, r.gjk_iterations), (None, 0), "the separating-axis test answers");
    let (depth, n, pa, pb) = full(&r.contact.unwrap());
    assert_close(depth, 0.1, 1e-12, "depth");
    assert_vec_close(n, DVec3::Z, 1e-12, "normal");
    assert_vec_close(pa, DVec3::Z * root2, 1e-12, "point on A's edge");
    assert_vec_close(pb, DVec3::Z * (root2 - 0.1), 1e-12, "point on B's edge");
}

/// Identical boxes at the same pose: `D` is the box of twice the half extents, so the depth is
/// twice the smallest half extent, along that axis (the `+` side: B's centre is not off A's).
#[test]
fn coincident_cuboids_separate_along_their_thinnest_axis() {
    let slab = Cuboid::new(DVec3::new(2.0, 0.25, 1.0)).unwrap();
    let pose = Pose::new(DQuat::from_rotation_z(0.4), DVec3::new(3.0, -1.0, 2.0)).unwrap();
    let c = contact(&slab, &pose, &slab, &pose, 0.0).unwrap();
    assert_close(c.depth, 0.5, 1e-12, "depth");
    assert_vec_close(c.normal.abs(), (DQuat::from_rotation_z(0.4) * DVec3::Y).abs(), 1e-12, "axis");
    assert_vec_close(c.point_a - c.point_b, c.normal * 0.5, 1e-12, "points");
}

/// Rounded boxes: the separating-axis test on the cores, the radii added; cores apart but
/// within the radii go to GJK (the cores' distance is needed).
#[test]
fn rounded_cuboids_add_their_radii() {
    let core = Cuboid::new(DVec3::new(1.0, 0.5, 0.5)).unwrap();
    let rounded = Rounded::new(core, 0.1).unwrap();
    // Cores overlapping by 0.2 along x: depth 0.2 + 0.1 + 0.1.
    let r = Pair::new(&rounded, Pose::IDENTITY, &rounded, at(DVec3::new(1.8, 0.3, -0.2)))
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!((r.epa, r.gjk_iterations), (None, 0));
    let (depth, n, pa, pb) = full(&r.contact.unwrap());
    assert_close(depth, 0.4, 1e-12, "depth");
    assert_vec_close(n, DVec3::X, 1e-12, "normal");
    assert_close(pa.x, 1.1, 1e-12, "A's surface");
    assert_close(pb.x, 0.7, 1e-12, "B's surface");
    // Cores 0.05 apart along y, radii 0.2 together: GJK's answer, 0.15 deep.
    let r = Pair::new(&rounded, Pose::IDENTITY, &rounded, at(DVec3::new(0.5, 1.05, 0.0)))
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert!(r.gjk_iterations > 0);
    assert_close(r.contact.unwrap().depth, 0.15, 1e-12, "margins overlap");
}

/// Apart boxes: beyond the prediction distance no contact (the separating axis suffices);
/// within it, GJK measures the gap.
#[test]
fn apart_cuboids_and_the_prediction_distance() {
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    let pose_b = Pose::new(DQuat::from_rotation_z(0.3), DVec3::new(2.05 + 0.3, 0.0, 0.0)).unwrap();
    let gap = distance(&cube, &Pose::IDENTITY, &cube, &pose_b);
    let far = Pair::new(&cube, Pose::IDENTITY, &cube, pose_b).contact_with(
        &ContactOptions { prediction: 0.5 * gap, ..Default::default() },
        &mut WarmStart::default(),
    );
    assert_eq!((far.contact, far.gjk_iterations), (None, 0));
    assert_eq!(far.gjk_termination, Termination::SeparatingAxis);
    let near = Pair::new(&cube, Pose::IDENTITY, &cube, pose_b).contact_with(
        &ContactOptions { prediction: 2.0 * gap, ..Default::default() },
        &mut WarmStart::default(),
    );
    assert_close(near.contact.unwrap().depth, -gap, 1e-12, "gap");
}

fn sign(i: usize, bit: usize) -> f64 {
    if i >> bit & 1 == 1 {
        1.0
    } else {
        -1.0
    }
}

// ---------------------------------------------------------------------------------------------
// Analytic cases.

fn at<V: Vector>(t: V) -> Pose<V> {
    Pose::from_translation(t).unwrap()
}

fn assert_close(found: f64, expected: f64, tol: f64, what: &str) {
    assert!((found - expected).abs() <= tol, "{what}: {found} vs {expected}");
}

fn assert_vec_close(found: DVec3, expected: DVec3, tol: f64, what: &str) {
    assert!((found - expected).length() <= tol, "{what}: {found} vs {expected}");
}

fn full<V: Vector>(c: &Contact<V>) -> (f64, DVec3, DVec3, DVec3) {
    (c.depth.to_f64(), wide(c.normal), wide(c.point_a), wide(c.point_b))
}

#[test]
fn ball_ball_3d_and_2d() {
    let (r1, r2) = (1.0, 0.5);
    let a = Ball::<DVec3>::new(r1).unwrap();
    let b = Ball::<DVec3>::new(r2).unwrap();
    let centre_b = DVec3::new(0.6, 0.8, -0.5);
    let c = contact(
        &a,
        &at(DVec3::new(0.1, 0.2, 0.3)),
        &b,
        &at(DVec3::new(0.1, 0.2, 0.3) + centre_b),
        0.0,
    )
    .unwrap();
    let (depth, n, pa, pb) = full(&c);
    let dist = centre_b.length();
    assert_close(depth, r1 + r2 - dist, 1e-12, "depth");
    assert_vec_close(n, centre_b / dist, 1e-12, "normal");
    assert_vec_close(pa, DVec3::new(0.1, 0.2, 0.3) + n * r1, 1e-12, "point_a");
    assert_vec_close(pb, DVec3::new(0.1, 0.2, 0.3) + centre_b - n * r2, 1e-12, "point_b");

    let a = Ball::<DVec2>::new(2.0).unwrap();
    let c = contact(&a, &Pose::IDENTITY, &a, &at(DVec2::new(-3.0, 0.0)), 0.0).unwrap();
    assert_close(c.depth, 1.0, 1e-12, "2D depth");
    assert_vec_close(wide(c.normal), -DVec3::X, 1e-12, "2D normal");
}

/// Concentric balls: the point cores coincide, no normal is defined; the analytic answer (no
/// expansion) takes B's `−x` axis, deterministically.
#[test]
fn concentric_balls_have_full_depth_and_a_fixed_normal() {
    let a = Ball::<DVec3>::new(1.0).unwrap();
    let b = Ball::<DVec3>::new(0.25).unwrap();
    let r = Pair::new(&a, Pose::IDENTITY, &b, Pose::IDENTITY)
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(r.epa, None);
    let c = r.contact.unwrap();
    assert_close(c.depth, 1.25, 1e-12, "depth");
    assert_vec_close(c.normal, DVec3::NEG_X, 0.0, "B's −x");
    assert_vec_close(c.point_a - c.point_b, c.normal * 1.25, 1e-12, "points");
}

#[test]
fn axis_aligned_boxes_3d() {
    let ha = DVec3::new(1.0, 2.0, 3.0);
    let hb = DVec3::new(0.5, 0.5, 0.5);
    let a = Cuboid::new(ha).unwrap();
    let b = Cuboid::new(hb).unwrap();
    let mut rng = Rng::new(7);
    for _ in 0..200 {
        let t = DVec3::new(rng.range(-1.4, 1.4), rng.range(-2.4, 2.4), rng.range(-3.4, 3.4));
        let overlap = ha + hb - t.abs();
        if overlap.min_element() <= 1e-3 {
            continue;
        }
        let axis = if overlap.x <= overlap.y && overlap.x <= overlap.z {
            0
        } else if overlap.y <= overlap.z {
            1
        } else {
            2
        };
        let c = contact(&a, &Pose::IDENTITY, &b, &at(t), 0.0).unwrap();
        assert_close(c.depth, overlap[axis], 1e-12, "depth");
        let expected = DVec3::AXES[axis] * t[axis].signum();
        // Ties between axes (equal overlaps) may pick either.
        let sorted = {
            let mut o = overlap.to_array();
            o.sort_by(f64::total_cmp);
            o
        };
        if sorted[1] - sorted[0] > 1e-9 {
            assert_vec_close(c.normal, expected, 1e-12, "normal");
        }
        assert_vec_close(c.point_a - c.point_b, c.normal * c.depth, 1e-12, "points");
        assert_close(c.point_a.dot(c.normal), a.support(c.normal).dot(c.normal), 1e-12, "on A");
    }
}

#[test]
fn axis_aligned_rectangles_2d() {
    let a = Cuboid::new(DVec2::new(2.0, 1.0)).unwrap();
    let c = contact(&a, &at(DVec2::new(5.0, 5.0)), &a, &at(DVec2::new(6.0, 6.5)), 0.0).unwrap();
    assert_close(c.depth, 0.5, 1e-12, "depth");
    assert_vec_close(wide(c.normal), DVec3::Y, 1e-12, "normal");
    assert_vec_close(wide(c.point_a - c.point_b), DVec3::Y * 0.5, 1e-12, "points");
}

#[test]
fn capsules_parallel_and_crossing() {
    let cap = |a: DVec3, b: DVec3, r: f64| Capsule::new(a, b, r).unwrap();
    // Parallel, cores apart: GJK on the cores answers.
    let a = cap(DVec3::new(-1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), 0.5);
    let b = cap(DVec3::new(-1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), 0.3);
    let r = Pair::new(&a, Pose::IDENTITY, &b, at(DVec3::new(0.5, 0.0, 0.6)))
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(r.epa, None);
    let c = r.contact.unwrap();
    assert_close(c.depth, 0.2, 1e-12, "parallel depth");
    assert_vec_close(c.normal, DVec3::Z, 1e-12, "parallel normal");
    assert_close(c.point_a.z, 0.5, 1e-12, "on A's surface");
    assert_close(c.point_b.z, 0.3, 1e-12, "on B's surface");
    // Crossing cores (they intersect): depth = sum of radii, normal across both axes.
    let b = cap(DVec3::new(0.0, -1.0, 0.0), DVec3::new(0.0, 1.0, 0.0), 0.3);
    let r = Pair::new(&a, Pose::IDENTITY, &b, at(DVec3::new(0.2, 0.0, 0.0)))
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(r.epa, Some(EpaTermination::Flat));
    let c = r.contact.unwrap();
    assert_close(c.depth, 0.8, 1e-12, "crossing depth");
    assert_close(c.normal.z.abs(), 1.0, 1e-12, "crossing normal");
    assert_vec_close(c.point_a - c.point_b, c.normal * 0.8, 1e-12, "crossing points");
    // Cores overlapping in depth (collinear, overlapping segments): EPA is not needed for the
    // normal's direction but the depth is still margins + overlap of the cores' difference.
    let c = contact(&a, &Pose::IDENTITY, &a, &at(DVec3::new(0.0, 0.4, 0.0)), 0.0).unwrap();
    assert_close(c.depth, 0.6, 1e-12, "side by side");
    assert_vec_close(c.normal, DVec3::Y, 1e-12, "side by side normal");
}

#[test]
fn capsules_2d() {
    let a = Capsule::new(DVec2::new(0.0, -1.0), DVec2::new(0.0, 1.0), 0.5).unwrap();
    let c = contact(&a, &Pose::IDENTITY, &a, &at(DVec2::new(0.75, 3.0)), 1.0).unwrap();
    // Core ends (0,1) and (0.75,2): distance 1.25, radii 1.
    assert_close(c.depth, 1.0 - 1.25, 1e-12, "apart");
    let c = contact(&a, &Pose::IDENTITY, &a, &at(DVec2::new(0.75, 0.5)), 0.0).unwrap();
    assert_close(c.depth, 0.25, 1e-12, "side by side");
    assert_vec_close(wide(c.normal), DVec3::X, 1e-12, "normal");
}

#[test]
fn ball_inside_box() {
    let boxed = Cuboid::new(DVec3::new(2.0, 1.0, 3.0)).unwrap();
    let ball = Ball::<DVec3>::new(0.25).unwrap();
    // The ball's centre is 0.3 below the top face (y = 1): depth 0.3 + 0.25, normal +y.
    // The box knows its nearest face: answered analytically, no expansion.
    let r = Pair::new(&boxed, Pose::IDENTITY, &ball, at(DVec3::new(0.5, 0.7, -1.0)))
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(r.epa, None);
    let c = r.contact.unwrap();
    assert_close(c.depth, 0.55, 1e-12, "depth");
    assert_vec_close(c.normal, DVec3::Y, 1e-12, "normal");
    assert_vec_close(c.point_a, DVec3::new(0.5, 1.0, -1.0), 1e-12, "point on the box");
    assert_vec_close(c.point_b, DVec3::new(0.5, 0.45, -1.0), 1e-12, "point on the ball");
    // Ball against the box from outside, shallow: cores apart, no EPA.
    let r = Pair::new(&boxed, Pose::IDENTITY, &ball, at(DVec3::new(2.1, 0.0, 0.0)))
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(r.epa, None);
    assert_close(r.contact.unwrap().depth, 0.15, 1e-12, "shallow");
}

#[test]
fn identical_shapes() {
    let b = Cuboid::new(DVec3::new(1.0, 0.5, 2.0)).unwrap();
    let pose = DVec3::random_pose(&mut Rng::new(11), 3.0);
    let c = contact(&b, &pose, &b, &pose, 0.0).unwrap();
    assert_close(c.depth, 1.0, 1e-12, "depth: the thinnest extent");
    let local = pose.rotation().inverse() * c.normal;
    assert_close(local.y.abs(), 1.0, 1e-12, "along the thin axis");
    // Random identical hulls: the oracle.
    let mut rng = Rng::new(12);
    let mut worst = Worst::default();
    for _ in 0..50 {
        let pts: Vec<DVec3> =
            (0..6).map(|_| DVec3::random_point(&mut rng, [1.0, 2.0, 0.5])).collect();
        let pose = DVec3::random_pose(&mut rng, 4.0);
        check_polytopes(&pts, &pose, &pts, &pose, 1e-9, &mut worst);
    }
    assert!(worst.pairs >= 45, "{worst:?}");
}

#[test]
fn touching_faces_have_zero_depth_and_the_face_normal() {
    let a = Cuboid::new(DVec3::ONE).unwrap();
    for offset in
        [DVec3::new(2.0, 0.3, -0.2), DVec3::new(0.5, -2.0, 0.0), DVec3::new(0.0, 0.0, 2.0)]
    {
        let c = contact(&a, &Pose::IDENTITY, &a, &at(offset), 0.0).expect("touching is a contact");
        assert!(c.depth.abs() <= 1e-12, "depth {} at {offset}", c.depth);
        let axis = offset.abs().max_position();
        assert_vec_close(c.normal, DVec3::AXES[axis] * offset[axis].signum(), 1e-12, "normal");
    }
    let a = Cuboid::new(DVec2::ONE).unwrap();
    let c = contact(&a, &Pose::IDENTITY, &a, &at(DVec2::new(-0.5, 2.0)), 0.0).unwrap();
    assert!(c.depth.abs() <= 1e-12);
    assert_vec_close(wide(c.normal), DVec3::Y, 1e-12, "2D normal");
    // Rotated and far from the world origin, the face contact is still found.
    let pose_a = Pose::new(DQuat::from_rotation_z(0.3), DVec3::new(1e3, -2e3, 5e2)).unwrap();
    let b = Cuboid::new(DVec3::ONE).unwrap();
    let pose_b = pose_a.compose(&at(DVec3::new(2.0, 0.4, 0.1)));
    let c = contact(&b, &pose_a, &b, &pose_b, 0.0).unwrap();
    assert!(c.depth.abs() <= 1e-9, "depth {}", c.depth);
    assert_vec_close(c.normal, DQuat::from_rotation_z(0.3) * DVec3::X, 1e-9, "rotated normal");
}

#[test]
fn deep_nesting() {
    let big = Cuboid::new(DVec3::new(10.0, 8.0, 6.0)).unwrap();
    let small = Cuboid::new(DVec3::new(0.1, 0.2, 0.3)).unwrap();
    let c = contact(&big, &Pose::IDENTITY, &small, &at(DVec3::new(1.0, -2.0, 4.0)), 0.0).unwrap();
    // Nearest face of the big box: z = 6, 2 away; plus the small box's 0.3 along z.
    assert_close(c.depth, 2.3, 1e-12, "depth");
    assert_vec_close(c.normal, DVec3::Z, 1e-12, "normal");
    assert_vec_close(c.point_a - c.point_b, DVec3::Z * 2.3, 1e-12, "points");
    // Inside a big ball: the ball's core (its centre) is 0.7 from the box, so the box must
    // move 20 − 0.7 along +z to leave it. The cores are apart: GJK alone answers.
    let ball = Ball::<DVec3>::new(20.0).unwrap();
    let r = Pair::new(&ball, Pose::IDENTITY, &small, at(DVec3::new(0.0, 0.0, 1.0)))
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(r.epa, None);
    let c = r.contact.unwrap();
    assert_close(c.depth, 19.3, 1e-12, "box in a ball");
    assert_vec_close(c.normal, DVec3::Z, 1e-12, "normal");
    // With the ball's centre inside the box: 20 + distance to the nearest face of the box
    // (x = −0.05, so B moves +x by 0.05), from the box's nearest face, without the expansion.
    let r = Pair::new(&ball, Pose::IDENTITY, &small, at(DVec3::new(0.05, 0.0, 0.0)))
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(r.epa, None);
    let c = r.contact.unwrap();
    assert_close(c.depth, 20.05, 1e-12, "ball centre in the box");
    assert_vec_close(c.normal, DVec3::X, 1e-12, "normal");
}

#[test]
fn flat_polytopes() {
    // A triangle through a box: D is full-dimensional, the oracle applies.
    let mut rng = Rng::new(13);
    let mut worst = Worst::default();
    let corners: Vec<DVec3> =
        (0..8).map(|i| DVec3::new(sign(i, 0), 0.5 * sign(i, 1), 2.0 * sign(i, 2))).collect();
    let mut attempts = 0;
    while worst.pairs < 100 {
        attempts += 1;
        assert!(attempts < 5000);
        let tri: Vec<DVec3> = (0..3).map(|_| DVec3::random_point(&mut rng, [2.0; 3])).collect();
        let pose_t = DVec3::random_pose(&mut rng, 1.0);
        check_polytopes(&corners, &Pose::IDENTITY, &tri, &pose_t, 1e-9, &mut worst);
    }
    eprintln!("triangle–box: {worst:?}");
    let t = Triangle::new(
        DVec3::new(-2.0, 0.0, -1.0),
        DVec3::new(2.0, 0.0, -1.0),
        DVec3::new(0.0, 0.0, 2.0),
    )
    .unwrap();
    let b = Cuboid::new(DVec3::ONE).unwrap();
    let c = contact(&t, &Pose::IDENTITY, &b, &at(DVec3::new(0.0, 0.75, 0.0)), 0.0).unwrap();
    assert_close(c.depth, 0.25, 1e-12, "triangle in the plane y = 0 under a box");
    assert_vec_close(c.normal, DVec3::Y, 1e-12, "normal");
    // Two coplanar triangles: D is flat. Depth 0 across the plane, normal toward B.
    let r = Pair::new(&t, Pose::IDENTITY, &t, at(DVec3::new(0.5, 0.0, 0.2)))
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(r.epa, Some(EpaTermination::Flat), "{r:?}");
    let c = r.contact.unwrap();
    assert!(c.depth.abs() <= 1e-12 && c.normal.y.abs() == 1.0, "{c:?}");
    // Two collinear segments in 2D: flat too.
    let s = Segment::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0)).unwrap();
    let r = Pair::new(&s, Pose::IDENTITY, &s, at(DVec2::new(0.5, 0.0)))
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(r.epa, Some(EpaTermination::Flat), "{r:?}");
    let c = r.contact.unwrap();
    assert!(c.depth.abs() <= 1e-12 && c.normal.y.abs() == 1.0, "{c:?}");
}

#[test]
fn thin_slivers() {
    let mut rng = Rng::new(14);
    let mut worst = Worst::default();
    let mut attempts = 0;
    while worst.pairs < 100 {
        attempts += 1;
        assert!(attempts < 5000);
        let thickness = 10f64.powf(rng.range(-7.0, -3.0));
        let sliver: Vec<DVec3> = (0..8)
            .map(|i| DVec3::new(2.0 * sign(i, 0), sign(i, 1), thickness * sign(i, 2)))
            .collect();
        let other: Vec<DVec3> =
            (0..6).map(|_| DVec3::random_point(&mut rng, [1.0, 1.0, 1.0])).collect();
        let pose_b = DVec3::random_pose(&mut rng, 1.0);
        check_polytopes(&sliver, &Pose::IDENTITY, &other, &pose_b, 1e-9, &mut worst);
    }
    eprintln!("slivers: {worst:?}");
    // Two crossing slivers.
    let a = Cuboid::new(DVec3::new(2.0, 1e-6, 1.0)).unwrap();
    let b = Cuboid::new(DVec3::new(1.0, 2.0, 1e-6)).unwrap();
    let c = contact(&a, &Pose::IDENTITY, &b, &at(DVec3::new(0.1, 0.0, 0.0)), 0.0).unwrap();
    // The cheapest way out is along z: B's 1e-6 plus A's 1.
    assert_close(c.depth, 1.0 + 1e-6, 1e-12, "crossing slivers");
    assert_vec_close(c.normal.abs(), DVec3::Z, 1e-12, "normal");
}

// ---------------------------------------------------------------------------------------------
// Separation and prediction.

#[test]
fn separated_pairs_report_the_gjk_separation() {
    let a = Cuboid::new(DVec3::ONE).unwrap();
    let b = Ball::<DVec3>::new(0.5).unwrap();
    let c =
        contact(&a, &Pose::IDENTITY, &b, &at(DVec3::new(0.0, 3.0, 0.0)), f64::INFINITY).unwrap();
    assert_close(c.depth, -1.5, 1e-12, "gap as negative depth");
    assert_vec_close(c.normal, DVec3::Y, 1e-12, "normal");
    assert_vec_close(c.point_a, DVec3::Y, 1e-12, "point_a");
    assert_vec_close(c.point_b, DVec3::new(0.0, 2.5, 0.0), 1e-12, "point_b");
    assert_vec_close(c.point_a - c.point_b, c.normal * c.depth, 1e-12, "convention");
    // Random separated hulls: the gap equals GJK's distance.
    let mut rng = Rng::new(15);
    for _ in 0..100 {
        let pa: Vec<DVec3> = (0..6).map(|_| DVec3::random_point(&mut rng, [1.0; 3])).collect();
        let pb: Vec<DVec3> = (0..6).map(|_| DVec3::random_point(&mut rng, [1.0; 3])).collect();
        let (sa, sb) = (Polytope::new(pa).unwrap(), Polytope::new(pb).unwrap());
        let pose_b = DVec3::random_pose(&mut rng, 4.0);
        let d = distance(&sa, &Pose::IDENTITY, &sb, &pose_b);
        let c = contact(&sa, &Pose::IDENTITY, &sb, &pose_b, f64::INFINITY).unwrap();
        if d > 1e-6 {
            assert_close(-c.depth, d, 1e-12, "gap");
            assert_vec_close(c.point_a - c.point_b, c.normal * c.depth, 1e-9, "convention");
        } else {
            assert!(c.depth >= -1e-9);
        }
    }
}

#[test]
fn prediction_distance() {
    let a = Cuboid::new(DVec2::ONE).unwrap();
    let gap_03 = at(DVec2::new(2.3, 0.0));
    assert!(contact(&a, &Pose::IDENTITY, &a, &gap_03, 0.0).is_none());
    assert!(contact(&a, &Pose::IDENTITY, &a, &gap_03, 0.2).is_none());
    let c = contact(&a, &Pose::IDENTITY, &a, &gap_03, 0.4).unwrap();
    assert_close(c.depth, -0.3, 1e-12, "predicted gap");
    assert_vec_close(wide(c.normal), DVec3::X, 1e-12, "normal");
    // Negative and NaN predictions count as 0.
    assert!(contact(&a, &Pose::IDENTITY, &a, &gap_03, -1.0).is_none());
    assert!(contact(&a, &Pose::IDENTITY, &a, &gap_03, f64::NAN).is_none());
    // Touching capsules (rounded cores exactly 2 radii apart: depth 0 from GJK alone) are a
    // contact whatever the prediction, NaN included: a NaN prediction used to survive
    // `max(0)`, and `0 <= NaN` is false, so the touching pair was dropped.
    let capsule = gjk::Capsule::new(DVec2::new(0.0, -1.0), DVec2::new(0.0, 1.0), 0.5).unwrap();
    let touching = at(DVec2::new(1.0, 0.25));
    for prediction in [0.0, -1.0, f64::NAN] {
        let c = contact(&capsule, &Pose::IDENTITY, &capsule, &touching, prediction)
            .unwrap_or_else(|| panic!("touching capsules, prediction {prediction}"));
        assert_close(c.depth, 0.0, 1e-12, "touching depth");
    }
    // Far apart: the intersection test's separating axis ends the query early.
    let far = Pair::new(&a, Pose::IDENTITY, &a, at(DVec2::new(50.0, 1.0)));
    let options = ContactOptions { prediction: 0.5, ..Default::default() };
    let r = far.contact_with(&options, &mut WarmStart::default());
    assert!(r.contact.is_none());
    assert_eq!(r.gjk_termination, Termination::SeparatingAxis);
    assert!(r.gjk_iterations <= 2, "{r:?}");
    // Rounded shapes: the prediction counts from the surfaces.
    let ball = Ball::<DVec2>::new(0.5).unwrap();
    assert!(contact(&ball, &Pose::IDENTITY, &ball, &at(DVec2::new(1.2, 0.0)), 0.1).is_none());
    let c = contact(&ball, &Pose::IDENTITY, &ball, &at(DVec2::new(1.2, 0.0)), 0.25).unwrap();
    assert_close(c.depth, -0.2, 1e-12, "ball gap");
}

#[test]
fn warm_started_queries_agree_with_cold_ones() {
    let mut rng = Rng::new(16);
    let pa: Vec<DVec3> = (0..12).map(|_| DVec3::random_point(&mut rng, [1.0, 0.7, 1.3])).collect();
    let pb: Vec<DVec3> = (0..12).map(|_| DVec3::random_point(&mut rng, [0.8, 1.0, 0.6])).collect();
    let (sa, sb) = (Polytope::new(pa).unwrap(), Polytope::new(pb).unwrap());
    let mut cache = WarmStart::default();
    let options = ContactOptions { prediction: 1.0, ..Default::default() };
    for step in 0..200 {
        let s = step as f64 * 0.02;
        let pose_b =
            Pose::new(DQuat::from_rotation_y(s), DVec3::new(2.5 * s.cos(), 0.3, s.sin())).unwrap();
        let pair = Pair::new(&sa, Pose::IDENTITY, &sb, pose_b);
        let warm = pair.contact_with(&options, &mut cache).contact;
        let cold = pair.contact_with(&options, &mut WarmStart::default()).contact;
        match (warm, cold) {
            (Some(w), Some(c)) => assert_close(w.depth, c.depth, 1e-9, "warm vs cold depth"),
            (None, None) => {}
            other => panic!("warm and cold disagree at step {step}: {other:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Degenerate input: never a panic, NaN or non-unit normal.

fn assert_sane<V: Vector>(c: &Contact<V>, what: &str) {
    let (depth, n, pa, pb) = full(c);
    assert!(depth.is_finite() && pa.is_finite() && pb.is_finite(), "{what}: {c:?}");
    assert!((n.length() - 1.0).abs() < 1e-6, "{what}: normal {n}");
}

#[test]
fn degenerate_point_sets_never_fail() {
    let mut rng = Rng::new(17);
    for case in 0..2000 {
        // Duplicated, collinear and coplanar points, tiny and huge scales.
        let scale = 10f64.powf(rng.range(-4.0, 4.0));
        let shape = |rng: &mut Rng| {
            let kind = rng.below(4);
            let base: Vec<DVec3> = (0..3).map(|_| DVec3::random_point(rng, [1.0; 3])).collect();
            let n = 1 + rng.below(6);
            (0..n)
                .map(|i| {
                    let t = rng.range(-1.0, 1.0);
                    let p = match kind {
                        0 => base[0],                           // one point
                        1 => base[0] + (base[1] - base[0]) * t, // a segment
                        2 => {
                            base[0]
                                + (base[1] - base[0]) * t
                                + (base[2] - base[0]) * (i as f64 * 0.3)
                        } // a plane
                        _ => DVec3::random_point(rng, [1.0; 3]),
                    };
                    p * scale
                })
                .collect::<Vec<_>>()
        };
        let (a, b) = (shape(&mut rng), shape(&mut rng));
        let (sa, sb) = (Polytope::new(a.clone()).unwrap(), Polytope::new(b.clone()).unwrap());
        let pose_a = DVec3::random_pose(&mut rng, scale);
        let pose_b = if rng.below(4) == 0 { pose_a } else { DVec3::random_pose(&mut rng, scale) };
        let r = Pair::new(&sa, pose_a, &sb, pose_b).contact_with(
            &ContactOptions { prediction: f64::INFINITY, ..Default::default() },
            &mut WarmStart::default(),
        );
        let c = r.contact.unwrap_or_else(|| panic!("case {case}: infinite prediction: {r:?}"));
        assert_sane(&c, &format!("case {case}"));
        // Where the difference is full-dimensional and clearly overlapping, the oracle applies.
        if r.epa == Some(EpaTermination::Converged) {
            let p = differences(&transformed(&a, &pose_a), &transformed(&b, &pose_b));
            if let Some(depth) = oracle_depth(&hull_planes(&p, 3)) {
                let size = p.iter().map(|q| q.length()).fold(0.0, f64::max);
                assert!(
                    (c.depth - depth).abs() <= 1e-9 * size,
                    "case {case}: {} vs {depth}",
                    c.depth
                );
            }
        }
    }
}

#[test]
fn degenerate_2d_and_f32_never_fail() {
    let mut rng = Rng::new(18);
    for case in 0..1000 {
        let n = 1 + rng.below(4);
        let line = rng.below(2) == 0;
        let a: Vec<Vec2> = (0..n)
            .map(|_| {
                let p = Vec2::random_point(&mut rng, [1.0; 3]);
                if line {
                    Vec2::new(p.x, 0.5 * p.x)
                } else {
                    p
                }
            })
            .collect();
        let sa = Polytope::new(a).unwrap();
        let pose_b = if case % 3 == 0 { Pose::IDENTITY } else { Vec2::random_pose(&mut rng, 0.5) };
        let r = Pair::new(&sa, Pose::IDENTITY, &sa, pose_b).contact_with(
            &ContactOptions { prediction: f32::INFINITY, ..Default::default() },
            &mut WarmStart::default(),
        );
        assert_sane(&r.contact.unwrap(), &format!("2D case {case}"));
        let ball = Ball::<Vec3>::new(0.5).unwrap();
        let tri = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap();
        let pose = Vec3::random_pose(&mut rng, 0.3);
        if let Some(c) = contact(&tri, &Pose::IDENTITY, &ball, &pose, 0.0) {
            assert_sane(&c, "triangle–ball f32");
        }
    }
}

/// Curved shapes without a core (ellipsoids shaped as balls): EPA converges slowly there and may
/// stop at the iteration cap; it then reports the best upper bound, a direction along which
/// moving B really separates the shapes.
#[test]
fn curved_shapes_report_a_separating_upper_bound() {
    let mut rng = Rng::new(19);
    let (ra, rb) = (1.0, 0.6);
    let a = gjk::Ellipsoid::new(DVec3::splat(ra)).unwrap();
    let b = gjk::Ellipsoid::new(DVec3::splat(rb)).unwrap();
    let mut worst: f64 = 0.0;
    for _ in 0..40 {
        let pose_a = DVec3::random_pose(&mut rng, 3.0);
        let offset = DVec3::random_point(&mut rng, [1.0; 3]);
        let pose_b = translated(&pose_a, offset);
        let r = Pair::new(&a, pose_a, &b, pose_b)
            .contact_with(&ContactOptions::default(), &mut WarmStart::default());
        let c = r.contact.unwrap();
        let expected = ra + rb - offset.length();
        assert!(c.depth >= expected - 1e-9, "an upper bound: {} vs {expected}", c.depth);
        worst = worst.max((c.depth - expected) / ra);
        assert_close(c.normal.length(), 1.0, 1e-12, "unit normal");
        let apart = translated(&pose_b, c.normal * (c.depth * (1.0 + 1e-6) + 1e-9));
        assert!(!intersects(&a, &pose_a, &b, &apart), "{r:?}");
    }
    // Measured: about 2e-3 of the radius at worst after 64 iterations.
    assert!(worst <= 5e-3, "worst relative depth error {worst}");
    eprintln!("spheres as ellipsoids: worst relative error {worst:.2e}");
}

/// Hulls of 32 points (the benchmark workload; too many for the facet oracle): the expansion
/// converges, and moving B by the depth along the normal is exactly what separates them.
#[test]
fn hulls_of_32_points_converge_and_separate() {
    let mut rng = Rng::new(20);
    let mut checked = 0;
    while checked < 100 {
        let cloud = |rng: &mut Rng| {
            (0..32).map(|_| DVec3::random_point(rng, [1.0, 0.8, 1.2])).collect::<Vec<_>>()
        };
        let (a, b) =
            (Polytope::new(cloud(&mut rng)).unwrap(), Polytope::new(cloud(&mut rng)).unwrap());
        let pose_a = DVec3::random_pose(&mut rng, 5.0);
        let pose_b = pose_a.compose(&DVec3::random_pose(&mut rng, 1.5));
        let r = Pair::new(&a, pose_a, &b, pose_b)
            .contact_with(&ContactOptions::default(), &mut WarmStart::default());
        let Some(c) = r.contact.filter(|c| c.depth > 1e-2) else { continue };
        assert_eq!(r.epa, Some(EpaTermination::Converged), "{r:?}");
        let apart = translated(&pose_b, c.normal * c.depth * (1.0 + 1e-6));
        assert!(!intersects(&a, &pose_a, &b, &apart), "{r:?}");
        let not_yet = translated(&pose_b, c.normal * c.depth * (1.0 - 1e-3));
        assert!(intersects(&a, &pose_a, &b, &not_yet), "{r:?}");
        assert_vec_close(c.point_a - c.point_b, c.normal * c.depth, 1e-9, "points");
        checked += 1;
    }
}
