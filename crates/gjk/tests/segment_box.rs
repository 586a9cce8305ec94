//! A segment core against a box core (capsule against box, segment against rounded box),
//! answered by the separating-axis kernel (`sat/segment_box.rs`) when the cores overlap,
//! against an independent brute-force oracle in f64 on the poses the library holds:
//!
//! * **depth** of the cores: the smallest overlap of their projections,
//!   `min(max_B n − min_S n, max_S n − min_B n)` from the box's 8 (2D: 4) corners and the
//!   segment's two ends, over a candidate list (the box's axes and the segment direction
//!   crossed with them; 2D: the segment's normal). The list is checked complete against a
//!   dense sample of directions (a Fibonacci sphere, a fine circle) refined by a compass
//!   search: no direction may overlap less;
//! * the contact's **normal** must overlap by exactly that depth (oriented: A's projection's
//!   top minus B's bottom), its **witness points** must satisfy
//!   `point_a − point_b = depth × normal`, lie on the surfaces (capsule: the radius from the
//!   segment; box: the box's closed-form point distance equal to its margin) and be A's and
//!   B's extreme points along the normal;
//! * **distance** of the cores: `t ↦ dist(p(t), box)` is convex (a convex set's distance
//!   composed with an affine map), so a golden-section search over `t`, each value the box's
//!   closed-form point distance, finds its minimum; a dense sample of `t` checks it.
//!
//! Cores apart are answered by the exact distance kernel (`segment_box_closest`): the
//! distance, `closest_points` and `contact` with an unbounded prediction are checked against the
//! golden-section oracle, their witness points on the surfaces (so, that far apart, a closest
//! pair), the contact's status exact without GJK's loop or EPA.
//!
//! Every case runs in both orders (A the capsule, then A the box), in 2D and 3D, f32 and f64,
//! and checks that `intersects`, `contact(0)` and `distance` agree on touching.
//! Tolerances: 1e-9 of the pair's size (`f64`), 1e-4 (`f32`). Families: random poses, through
//! the box's centre, lying parallel on a face (just sunk in, resting, exactly in the face
//! plane), parallel to an edge, zero-length segments, touching (a segment in a supporting plane
//! of the box at a face, edge or corner, lifted off it by 0, a hair, or a little), tiny (1e-4)
//! and huge (1e4) scales.

use crate::common;

use common::{case_count, from_d, to_d, to_world, Draw, Rng, TestVector};
use gjk::{
    closest_points, contact, contact_with, distance, intersects, manifold, Ball, Capsule,
    ContactOptions, ContactStatus, Cuboid, ManifoldOptions, ManifoldStatus, Pose, Proximity, Real,
    Rounded, Support,
};
use glam::{DQuat, DVec2, DVec3, Vec2, Vec3};

/// A capsule (segment ends in its frame, radius) and a box (half extents, rounding), posed.
#[derive(Clone, Copy, Debug)]
struct Case {
    ends: [DVec3; 2],
    radius: f64,
    half: DVec3,
    rounding: f64,
    capsule_pose: (DQuat, DVec3),
    box_pose: (DQuat, DVec3),
}

/// The box's closed-form point distance (0 inside) for box `[−h, h]`.
fn box_distance(h: DVec3, p: DVec3) -> f64 {
    (p - p.clamp(-h, h)).length()
}

/// The oracle's geometry in the box's frame, from the poses the library holds.
struct Oracle {
    dim: usize,
    /// Segment ends in the box's frame.
    seg: [DVec3; 2],
    half: DVec3,
    /// The box's corners in its frame.
    corners: Vec<DVec3>,
}

impl Oracle {
    fn new<V: TestVector>(case: &Case, capsule_pose: &Pose<V>, box_pose: &Pose<V>) -> Self {
        let dim = V::DIM;
        let to_box = |p: DVec3| {
            let world = to_world(capsule_pose, p);
            V::rotation_of(box_pose).conjugate() * (world - to_d(box_pose.translation()))
        };
        // The ends as the library holds them (rounded to V's precision), then posed in f64.
        let held = |p: DVec3| to_d(from_d::<V>(p));
        let seg = [to_box(held(case.ends[0])), to_box(held(case.ends[1]))];
        let half = to_d(from_d::<V>(case.half));
        let mut corners = Vec::new();
        for i in 0..(1 << dim) {
            let s = |k: usize| if i >> k & 1 == 1 { 1.0 } else { -1.0 };
            let z = if dim == 3 { s(2) * half.z } else { 0.0 };
            corners.push(DVec3::new(s(0) * half.x, s(1) * half.y, z));
        }
        Self { dim, seg, half, corners }
    }

    /// The overlap of the projections onto the unit axis `n` (box's frame), either way round.
    fn overlap(&self, n: DVec3) -> f64 {
        let (bmin, bmax) = range(&self.corners, n);
        let (smin, smax) = range(&self.seg, n);
        (bmax - smin).min(smax - bmin)
    }

    /// The exact depth of the cores (negative: a separating axis) over the candidate list.
    fn depth(&self) -> f64 {
        let d = self.seg[1] - self.seg[0];
        let mut axes = vec![DVec3::X, DVec3::Y];
        if self.dim == 3 {
            axes.push(DVec3::Z);
            for e in [DVec3::X, DVec3::Y, DVec3::Z] {
                axes.push(d.cross(e));
            }
        } else {
            axes.push(DVec3::new(-d.y, d.x, 0.0));
        }
        axes.iter()
            .filter(|a| a.length() > 1e-300)
            .map(|a| self.overlap(a.normalize()))
            .fold(f64::INFINITY, f64::min)
    }

    /// The smallest overlap over a dense sample of directions, each refined by a compass search.
    fn sampled_depth(&self) -> f64 {
        let dir = |(u, v): (f64, f64)| {
            if self.dim == 2 {
                DVec3::new(u.cos(), u.sin(), 0.0)
            } else {
                DVec3::new(v.sin() * u.cos(), v.sin() * u.sin(), v.cos())
            }
        };
        let count = if self.dim == 2 { 720 } else { 3000 };
        let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
        let mut best = (f64::INFINITY, (0.0, 0.0));
        for i in 0..count {
            let angles = if self.dim == 2 {
                (std::f64::consts::PI * i as f64 / count as f64, 0.0)
            } else {
                let z = 1.0 - (i as f64 + 0.5) / count as f64; // the upper hemisphere suffices
                (golden * i as f64, z.acos())
            };
            let o = self.overlap(dir(angles));
            if o < best.0 {
                best = (o, angles);
            }
        }
        // A compass search from the best sample.
        let (mut value, mut at) = best;
        let mut step = 0.05;
        while step > 1e-12 {
            let mut moved = false;
            for (du, dv) in [(step, 0.0), (-step, 0.0), (0.0, step), (0.0, -step)] {
                if self.dim == 2 && dv != 0.0 {
                    continue;
                }
                let next = (at.0 + du, at.1 + dv);
                let o = self.overlap(dir(next));
                if o < value {
                    (value, at, moved) = (o, next, true);
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        value
    }

    /// The distance of the cores: golden-section search of the convex `t ↦ dist(p(t), box)`.
    fn distance(&self) -> f64 {
        let [p, q] = self.seg;
        let g = |t: f64| box_distance(self.half, p + (q - p) * t);
        let best = common::golden_minimum(g);
        let sampled = (0..=1000).map(|i| g(i as f64 / 1000.0)).fold(f64::INFINITY, f64::min);
        let slack = 1e-12 * (1.0 + self.size());
        assert!(best <= sampled + slack, "golden {best} > sampled {sampled}");
        best
    }

    /// The pair's size: the tolerances' scale.
    fn size(&self) -> f64 {
        let s = self.seg[0].abs().max_element().max(self.seg[1].abs().max_element());
        s.max(self.half.max_element())
    }
}

/// The smallest and largest of `n·p`.
fn range(points: &[DVec3], n: DVec3) -> (f64, f64) {
    points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
        let x = n.dot(*p);
        (lo.min(x), hi.max(x))
    })
}

/// The distance from `p` to segment `a b`.
fn point_segment(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let d = b - a;
    let t = if d.length_squared() > 0.0 { (p - a).dot(d) / d.length_squared() } else { 0.0 };
    (p - (a + d * t.clamp(0.0, 1.0))).length()
}

/// A case of family `kind` (see the module docs), at scale 1.
fn family(rng: &mut Rng, dim: usize, kind: usize) -> Case {
    let half = (rng.in_cube(dim, 1.0).abs() + DVec3::splat(0.2))
        * if dim == 2 { DVec3::new(1.0, 1.0, 0.0) } else { DVec3::ONE };
    let radius = rng.range(0.05, 0.6);
    let rounding = if rng.chance(0.3) { rng.range(0.0, 0.2) } else { 0.0 };
    let box_pose = (rng.rotation(dim), rng.in_cube(dim, 3.0));
    let length = rng.range(0.1, 3.0);
    let random = |rng: &mut Rng, centre: DVec3| {
        let d = rng.direction(dim) * (0.5 * length);
        ([-d, d], (rng.rotation(dim), centre))
    };
    // Placements in the box's frame, then posed with it (capsule pose = box pose ∘ local).
    let in_box = |(q, t): (DQuat, DVec3), (lq, lt): (DQuat, DVec3)| (q * lq, t + q * lt);
    let (ends, capsule_pose) = match kind {
        // Random: the capsule's centre anywhere near the box.
        0 => {
            let local = rng.in_cube(dim, 1.0) * (half.max_element() + 1.0);
            let (ends, lp) = random(rng, local);
            (ends, in_box(box_pose, lp))
        }
        // Through the box's centre (up to a hair).
        1 => {
            let near_centre = rng.in_cube(dim, 1e-3);
            let (ends, lp) = random(rng, near_centre);
            (ends, in_box(box_pose, lp))
        }
        // Lying parallel on a face: sunk in, resting, or in the face's plane; same rotation as
        // the box, so the segment stays parallel to the face through rounding.
        2 | 3 => {
            let axis = rng.below(dim);
            let side = if rng.chance(0.5) { 1.0 } else { -1.0 };
            let mut n = DVec3::ZERO;
            n[axis] = side;
            let height = match rng.below(3) {
                0 => rng.range(-0.5, 1.0) * radius,
                1 => 0.0,
                _ => -rng.range(0.0, 0.3),
            };
            let mut dir = rng.direction(dim);
            dir[axis] = 0.0;
            if kind == 3 {
                // Parallel to an edge: along one of the face's own axes.
                let other = (axis + 1 + rng.below(dim - 1)) % dim;
                dir = DVec3::ZERO;
                dir[other] = 1.0;
            }
            let dir = dir.normalize_or(DVec3::X) * (0.5 * length);
            let mut centre = rng.in_cube(dim, 1.0) * half;
            centre[axis] = side * (half[axis] + height);
            ([centre - dir, centre + dir], in_box(box_pose, (DQuat::IDENTITY, DVec3::ZERO)))
        }
        // Touching: a segment in a supporting plane of the box (normal `n` in the normal cone
        // of a face, edge or corner point `x`), lifted off it by `g`; the cores' distance is
        // exactly `g` (the plane separates, `x + g n` is on the segment).
        5 => {
            let mut x = rng.in_cube(dim, 1.0) * half;
            let mut n = DVec3::ZERO;
            // 1 to `dim` coordinates on the boundary: a face, an edge, a corner.
            let on = 1 + rng.below(dim);
            let first = rng.below(dim);
            for k in 0..on {
                let axis = (first + k) % dim;
                let side = if rng.chance(0.5) { 1.0 } else { -1.0 };
                x[axis] = side * half[axis];
                n[axis] = side * rng.range(0.2, 1.0);
            }
            let n = n.normalize();
            let lift = [0.0, 1e-12, 1e-7, 1e-3, 0.05][rng.below(5)];
            let mut dir = rng.direction(dim);
            dir -= n * n.dot(dir);
            let dir = dir.normalize_or(DVec3::ZERO) * (0.5 * length * rng.range(0.0, 1.0));
            let centre = x + n * lift + dir * rng.range(-1.0, 1.0);
            ([centre - dir, centre + dir], in_box(box_pose, (DQuat::IDENTITY, DVec3::ZERO)))
        }
        // A zero-length segment (a ball's worth of capsule).
        _ => {
            let local = rng.in_cube(dim, 1.0) * (half.max_element() + 0.5);
            let p = rng.in_cube(dim, 1.0);
            ([p, p], in_box(box_pose, (rng.rotation(dim), local - p)))
        }
    };
    Case { ends, radius, half, rounding, capsule_pose, box_pose }
}

impl Case {
    fn scaled(mut self, s: f64) -> Self {
        self.ends = self.ends.map(|p| p * s);
        self.radius *= s;
        self.half *= s;
        self.rounding *= s;
        self.capsule_pose.1 *= s;
        self.box_pose.1 *= s;
        self
    }
}

/// What was checked, for the run's summary.
#[derive(Default, Debug)]
struct Counts {
    overlapping: usize,
    apart: usize,
    exact: usize,
    closest: usize,
}

/// Checks one case, both orders, in `V`'s precision.
fn check<V: TestVector>(case: &Case, counts: &mut Counts) {
    let r = |x: f64| V::Real::from_f64(x);
    let v = |p: DVec3| from_d::<V>(p);
    let capsule = Capsule::new(v(case.ends[0]), v(case.ends[1]), r(case.radius)).unwrap();
    let cuboid = Rounded::new(Cuboid::new(v(case.half)).unwrap(), r(case.rounding)).unwrap();
    let capsule_pose = V::pose(case.capsule_pose.0, case.capsule_pose.1);
    let box_pose = V::pose(case.box_pose.0, case.box_pose.1);
    let oracle = Oracle::new(case, &capsule_pose, &box_pose);
    let size = oracle.size().max(case.radius);
    let tol = V::DISTANCE_TOLERANCE * size;
    let (radius, rounding) = (to_d(from_d::<V>(DVec3::splat(case.radius))).x, cuboid.margin());
    let margins = radius + rounding.to_f64();
    let depth = oracle.depth();
    let box_rot = V::rotation_of(&box_pose);
    let to_box = |p: DVec3| box_rot.conjugate() * (p - to_d(box_pose.translation()));
    let what = format!("{} {case:?} depth {depth}", V::NAME);

    // The candidate list is complete: no sampled direction overlaps less (for overlapping
    // cores; apart, the list's best separation is only a lower bound of the distance).
    if depth >= 0.0 {
        let sampled = oracle.sampled_depth();
        assert!(sampled >= depth - tol, "sampled {sampled} below the candidates' {depth}: {what}");
    }

    // Cores apart: the distance oracle. Overlapping: its depth.
    let core_distance = if depth < 0.0 { oracle.distance() } else { 0.0 };
    for capsule_is_a in [true, false] {
        let (hit, gap, c, full) = if capsule_is_a {
            let options = ContactOptions::default();
            (
                intersects(&capsule, &capsule_pose, &cuboid, &box_pose),
                distance(&capsule, &capsule_pose, &cuboid, &box_pose),
                contact(&capsule, &capsule_pose, &cuboid, &box_pose, r(0.0)),
                contact_with(&capsule, &capsule_pose, &cuboid, &box_pose, &options),
            )
        } else {
            let options = ContactOptions::default();
            (
                intersects(&cuboid, &box_pose, &capsule, &capsule_pose),
                distance(&cuboid, &box_pose, &capsule, &capsule_pose),
                contact(&cuboid, &box_pose, &capsule, &capsule_pose, r(0.0)),
                contact_with(&cuboid, &box_pose, &capsule, &capsule_pose, &options),
            )
        };
        let what = format!("{what} capsule_is_a {capsule_is_a}");
        // The three queries agree on touching.
        assert_eq!(hit, c.is_some(), "intersects against contact(0): {what}");
        assert_eq!(hit, gap == V::Real::ZERO, "intersects against distance {gap:?}: {what}");

        let gap = gap.to_f64();
        if depth < 0.0 {
            counts.apart += 1;
            // The shapes' distance, away from touching.
            let shapes = core_distance - margins;
            if shapes > tol {
                assert!(!hit, "apart by {shapes}: {what}");
                assert!((gap - shapes).abs() <= tol, "distance {gap} against {shapes}: {what}");
            } else if shapes < -tol {
                assert!(hit, "overlapping by {}: {what}", -shapes);
            }
            if core_distance > tol {
                let on_surfaces = |on_capsule: DVec3, on_box: DVec3| {
                    let (cb, bb) = (to_box(on_capsule), to_box(on_box));
                    let from_segment = point_segment(cb, oracle.seg[0], oracle.seg[1]);
                    assert!((from_segment - radius).abs() <= tol, "capsule {from_segment}: {what}");
                    let from_box = box_distance(oracle.half, bb);
                    assert!((from_box - rounding.to_f64()).abs() <= tol, "box {from_box}: {what}");
                };
                // The distance kernel answered the contact: exact, one projection, no EPA.
                let options = ContactOptions { prediction: r(f64::INFINITY), ..Default::default() };
                let far = if capsule_is_a {
                    contact_with(&capsule, &capsule_pose, &cuboid, &box_pose, &options)
                } else {
                    contact_with(&cuboid, &box_pose, &capsule, &capsule_pose, &options)
                };
                assert_eq!((far.gjk_iterations, far.epa), (1, None), "{far:?}: {what}");
                let c = far.contact.unwrap();
                assert_eq!(c.status, ContactStatus::Exact, "{what}");
                let got = c.depth.to_f64();
                assert!((got + shapes).abs() <= tol, "depth {got} against {}: {what}", -shapes);
                let (pa, pb, n) = (to_d(c.point_a), to_d(c.point_b), to_d(c.normal));
                assert!((n.length() - 1.0).abs() <= 1e-6, "normal {n}: {what}");
                assert!((pa - pb - n * got).length() <= tol, "witness rule: {what}");
                let (on_capsule, on_box) = if capsule_is_a { (pa, pb) } else { (pb, pa) };
                on_surfaces(on_capsule, on_box);
                // Closest points: two points on the surfaces the distance apart are a closest
                // pair.
                let found = if capsule_is_a {
                    closest_points(&capsule, &capsule_pose, &cuboid, &box_pose)
                } else {
                    closest_points(&cuboid, &box_pose, &capsule, &capsule_pose)
                };
                if shapes > tol {
                    let Proximity::Separated(s) = found else { panic!("{found:?}: {what}") };
                    let (pa, pb, n) = (to_d(s.point_a), to_d(s.point_b), to_d(s.normal));
                    let d = s.distance.to_f64();
                    assert!((d - shapes).abs() <= tol, "closest {d} against {shapes}: {what}");
                    assert!((pb - pa - n * d).length() <= tol, "separation rule: {what}");
                    let (on_capsule, on_box) = if capsule_is_a { (pa, pb) } else { (pb, pa) };
                    on_surfaces(on_capsule, on_box);
                    counts.closest += 1;
                }
            }
            continue;
        }
        counts.overlapping += 1;
        assert!(hit, "cores overlap by {depth}: {what}");
        let c = c.unwrap();
        // The kernel answered: no GJK loop, no expansion (an exact status).
        if depth > tol {
            assert_eq!(c.status, ContactStatus::Exact, "{what}");
            assert_eq!(full.epa, None, "{what}");
            counts.exact += 1;
        }
        let got = c.depth.to_f64();
        assert!(
            (got - (depth + margins)).abs() <= tol,
            "depth {got} against {}: {what}",
            depth + margins
        );
        // The normal, A toward B, overlaps by exactly the depth.
        let n = to_d(c.normal);
        assert!((n.length() - 1.0).abs() < tol / size + 1e-6, "normal {n}: {what}");
        let n_box = box_rot.conjugate() * n;
        let (bmin, bmax) = range(&oracle.corners, n_box);
        let (smin, smax) = range(&oracle.seg, n_box);
        let along = if capsule_is_a { smax - bmin } else { bmax - smin };
        assert!((along - depth).abs() <= tol, "overlap along the normal {along}: {what}");
        // Witnesses: the rule, on the surfaces, extreme along the normal.
        let (pa, pb) = (to_d(c.point_a), to_d(c.point_b));
        assert!((pa - pb - n * got).length() <= tol, "witness rule: {what}");
        let (on_capsule, on_box) = if capsule_is_a { (pa, pb) } else { (pb, pa) };
        let (cb, bb) = (to_box(on_capsule), to_box(on_box));
        let from_segment = point_segment(cb, oracle.seg[0], oracle.seg[1]);
        assert!((from_segment - radius).abs() <= tol, "capsule witness {from_segment}: {what}");
        let from_box = box_distance(oracle.half, bb);
        let rounding = rounding.to_f64();
        assert!((from_box - rounding).abs() <= tol, "box witness {from_box}: {what}");
        let towards = if capsule_is_a { -n_box } else { n_box };
        assert!((towards.dot(bb) - (range(&oracle.corners, towards).1 + rounding)).abs() <= tol);
        assert!((-towards.dot(cb) - (range(&oracle.seg, -towards).1 + radius)).abs() <= tol);
    }
}

fn run<V: TestVector>() {
    let dim = V::DIM;
    let mut rng = Rng::new(0x5E6B0 + dim as u64 + 10 * (V::DISTANCE_TOLERANCE < 1e-6) as u64);
    let mut counts = Counts::default();
    let cases = case_count(300);
    for kind in 0..6 {
        for i in 0..cases {
            let case = family(&mut rng, dim, kind);
            let scale = match i % 10 {
                8 => 1e-4,
                9 => 1e4,
                _ => 1.0,
            };
            check::<V>(&case.scaled(scale), &mut counts);
        }
    }
    eprintln!("{}: {counts:?}", V::NAME);
    // Every family reached the kernel (overlapping cores) and the distance oracle.
    assert!(counts.exact > cases && counts.apart > cases / 4, "{counts:?}");
    assert!(counts.closest > cases / 4, "{counts:?}");
}

#[test]
fn segment_box_f64_3d() {
    run::<DVec3>();
}

#[test]
fn segment_box_f32_3d() {
    run::<Vec3>();
}

#[test]
fn segment_box_f64_2d() {
    run::<DVec2>();
}

#[test]
fn segment_box_f32_2d() {
    run::<Vec2>();
}

/// A capsule flat on a box's face, resting (its segment outside the box: the distance kernel's
/// closest points) or sunk past its radius (the segment inside: the separating-axis test's face
/// normal): the manifold's two points at the ends, each as deep as the geometry says, in either
/// order; both contacts exact, without GJK or EPA.
#[test]
fn capsule_flat_on_a_face_gives_two_points() {
    let capsule = Capsule::new(DVec3::new(-0.8, 0.0, 0.0), DVec3::new(0.8, 0.0, 0.0), 0.3).unwrap();
    let table = Cuboid::new(DVec3::new(2.0, 0.5, 1.5)).unwrap();
    let tilt = DQuat::from_rotation_y(0.4);
    let options = ManifoldOptions::default();
    // (height of the segment above the top face, depth)
    for (height, depth) in [(0.25, 0.05), (-0.05, 0.35)] {
        let pose = Pose::new(tilt, DVec3::new(0.2, 0.5 + height, 0.1)).unwrap();
        for capsule_is_a in [true, false] {
            let m = if capsule_is_a {
                manifold(&capsule, &pose, &table, &Pose::IDENTITY, &options)
            } else {
                manifold(&table, &Pose::IDENTITY, &capsule, &pose, &options)
            };
            assert_eq!(m.status, ManifoldStatus::Clipped { reference_is_a: !capsule_is_a });
            assert_eq!(m.points().len(), 2);
            let sign = if capsule_is_a { -1.0 } else { 1.0 };
            assert!((m.normal - DVec3::Y * sign).length() < 1e-12);
            for p in m.points() {
                assert!((p.depth - depth).abs() < 1e-12, "{p:?}");
            }
            let c = if capsule_is_a {
                contact(&capsule, &pose, &table, &Pose::IDENTITY, 0.0)
            } else {
                contact(&table, &Pose::IDENTITY, &capsule, &pose, 0.0)
            }
            .unwrap();
            assert_eq!(c.status, ContactStatus::Exact, "{c:?}");
            assert!((c.depth - depth).abs() < 1e-12);
        }
    }
}

/// A capsule lying parallel above a face and hanging over its edge: a whole interval of closest
/// points on the segment, of which the kernel reports the middle of the part over the face
/// (hand-computed), the same for the reversed segment and in either order.
#[test]
fn parallel_over_an_edge_picks_the_middle_of_the_interval() {
    let table = Cuboid::new(DVec3::new(1.0, 0.5, 1.0)).unwrap();
    let radius = 0.1;
    // Segment core at height 0.8 over the top face, x from 0.5 to 3: over the face for
    // x in [0.5, 1], middle 0.75; the gap 0.3 from the face, 0.2 between the surfaces.
    let ends = [DVec3::new(0.5, 0.8, 0.2), DVec3::new(3.0, 0.8, 0.2)];
    let spin = DQuat::from_rotation_y(0.3);
    let box_pose = Pose::new(spin, DVec3::new(4.0, -2.0, 1.0)).unwrap();
    let capsule_pose = box_pose; // ends given in the box's frame
    let world = |p: DVec3| spin * p + DVec3::new(4.0, -2.0, 1.0);
    for ends in [ends, [ends[1], ends[0]]] {
        let capsule = Capsule::new(ends[0], ends[1], radius).unwrap();
        for capsule_is_a in [true, false] {
            let found = if capsule_is_a {
                closest_points(&capsule, &capsule_pose, &table, &box_pose)
            } else {
                closest_points(&table, &box_pose, &capsule, &capsule_pose)
            };
            let Proximity::Separated(s) = found else { panic!("{found:?}") };
            let (on_capsule, on_box) =
                if capsule_is_a { (s.point_a, s.point_b) } else { (s.point_b, s.point_a) };
            assert!((s.distance - 0.2).abs() < 1e-14, "{s:?}");
            assert!((on_capsule - world(DVec3::new(0.75, 0.7, 0.2))).length() < 1e-14, "{s:?}");
            assert!((on_box - world(DVec3::new(0.75, 0.5, 0.2))).length() < 1e-14, "{s:?}");
        }
    }
}

/// A zero-length capsule is a ball: every query against a box agrees with the ball's, which
/// takes the point-projection kernel (another path), in 2D and 3D, f32 and f64.
#[test]
fn zero_length_capsule_agrees_with_a_ball() {
    fn run<V: TestVector>() {
        let mut rng = Rng::new(0xBA11 + V::DIM as u64);
        let r = |x: f64| V::Real::from_f64(x);
        for i in 0..200 {
            let scale = [1e-4, 1.0, 1e4][i % 3];
            let dim = V::DIM;
            let half = (rng.in_cube(dim, 1.0).abs() + DVec3::splat(0.2)) * scale;
            let half = if dim == 2 { DVec3::new(half.x, half.y, 0.0) } else { half };
            let cuboid = Cuboid::new(from_d::<V>(half)).unwrap();
            let radius = rng.range(0.05, 0.5) * scale;
            let p = rng.in_cube(dim, 1.0) * scale;
            let capsule = Capsule::new(from_d::<V>(p), from_d::<V>(p), r(radius)).unwrap();
            let ball = Ball::new(r(radius)).unwrap();
            let rotation = rng.rotation(dim);
            let box_pose = V::pose(rng.rotation(dim), rng.in_cube(dim, 2.0) * scale);
            let capsule_pose = V::pose(rotation, rng.in_cube(dim, 2.5) * scale);
            // The ball at the capsule's point, as the library places it.
            let centre = to_world(&capsule_pose, to_d(from_d::<V>(p)));
            let ball_pose = V::pose(DQuat::IDENTITY, centre);
            let tol = V::DISTANCE_TOLERANCE * scale * 4.0;
            let d_capsule = distance(&capsule, &capsule_pose, &cuboid, &box_pose).to_f64();
            let d_ball = distance(&ball, &ball_pose, &cuboid, &box_pose).to_f64();
            assert!((d_capsule - d_ball).abs() <= tol, "{d_capsule} against {d_ball}");
            let c = contact(&cuboid, &box_pose, &capsule, &capsule_pose, r(f64::INFINITY));
            let b = contact(&cuboid, &box_pose, &ball, &ball_pose, r(f64::INFINITY));
            let (c, b) = (c.unwrap(), b.unwrap());
            assert!((c.depth - b.depth).to_f64().abs() <= tol, "{c:?} against {b:?}");
            if b.depth.to_f64() < -tol {
                assert!((to_d(c.normal) - to_d(b.normal)).length() <= 1e-3, "{c:?} {b:?}");
                assert!((to_d(c.point_a) - to_d(b.point_a)).length() <= tol, "{c:?} {b:?}");
                assert!((to_d(c.point_b) - to_d(b.point_b)).length() <= tol, "{c:?} {b:?}");
            }
        }
    }
    run::<DVec3>();
    run::<Vec3>();
    run::<DVec2>();
    run::<Vec2>();
}

/// A segment skew to a box's edge (3D) or past its corner (2D), apart by a known distance (its
/// closed form from the construction), at scales from 1e-4 to 1e4 and beyond the kernel's
/// range (1e80 in f64: GJK answers there).
#[test]
fn known_distances_across_scales() {
    // 3D: the box [−1, 1]³ and a segment along z at x = 1 + a, y = 1 + b, z in [−3, 3]: the
    // edge x = y = 1 at distance √(a² + b²) = 0.5, less the radius 0.1.
    let (a, b) = (0.3, 0.4);
    for scale in [1e-4, 1e-2, 1.0, 1e2, 1e4, 1e80] {
        let cube = Cuboid::new(DVec3::splat(scale)).unwrap();
        let top = Capsule::new(
            DVec3::new(1.0 + a, 1.0 + b, -3.0) * scale,
            DVec3::new(1.0 + a, 1.0 + b, 3.0) * scale,
            0.1 * scale,
        )
        .unwrap();
        let expected = (0.5 - 0.1) * scale;
        let at = Pose::IDENTITY;
        let d = distance(&top, &at, &cube, &at);
        assert!((d - expected).abs() <= 1e-12 * scale, "3D f64 at {scale}: {d}");
        let d = distance(&cube, &at, &top, &at);
        assert!((d - expected).abs() <= 1e-12 * scale, "3D f64 at {scale}: {d}");
        if scale <= 1e4 {
            let cube = Cuboid::new(Vec3::splat(scale as f32)).unwrap();
            let top = Capsule::new(
                Vec3::new(1.3, 1.4, -3.0) * scale as f32,
                Vec3::new(1.3, 1.4, 3.0) * scale as f32,
                0.1 * scale as f32,
            )
            .unwrap();
            let d = f64::from(distance(&top, &Pose::IDENTITY, &cube, &Pose::IDENTITY));
            assert!((d - expected).abs() <= 1e-5 * scale, "3D f32 at {scale}: {d}");
        }
        // 2D: the square [−1, 1]²; a segment along (1, −1) through (1 + a', 1 + a') passes the
        // corner at distance √2 a'.
        let square = Cuboid::new(DVec2::splat(scale)).unwrap();
        let c = 0.25;
        let diagonal = Capsule::new(
            DVec2::new(1.0 + c - 2.0, 1.0 + c + 2.0) * scale,
            DVec2::new(1.0 + c + 2.0, 1.0 + c - 2.0) * scale,
            0.1 * scale,
        )
        .unwrap();
        let expected = (2f64.sqrt() * c - 0.1) * scale;
        let d = distance(&diagonal, &Pose::IDENTITY, &square, &Pose::IDENTITY);
        assert!((d - expected).abs() <= 1e-12 * scale, "2D at {scale}: {d} against {expected}");
    }
}
