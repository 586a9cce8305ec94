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
//! Every case runs in both orders (A the capsule, then A the box), in 2D and 3D, f32 and f64,
//! and checks that `intersects`, `contact(0)` and `distance` agree on touching.
//! Tolerances: 1e-9 of the pair's size (`f64`), 1e-4 (`f32`). Families: random poses, through
//! the box's centre, lying parallel on a face (just sunk in, resting, exactly in the face
//! plane), parallel to an edge, zero-length segments, tiny (1e-4) and huge (1e4) scales.

mod common;

use common::{case_count, from_d, to_d, to_world, Draw, Rng, TestVector};
use gjk::{
    contact, contact_with, distance, intersects, manifold, Capsule, ContactOptions, ContactStatus,
    Cuboid, ManifoldOptions, ManifoldStatus, Pose, Real, Rounded, Support,
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
    for kind in 0..5 {
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

/// A capsule flat on a box's face, resting (its segment outside the box: GJK measures the
/// gap) or sunk past its radius (the segment inside: the kernel's face normal): the manifold's
/// two points at the ends, each as deep as the geometry says, in either order.
#[test]
fn capsule_flat_on_a_face_gives_two_points() {
    let capsule = Capsule::new(DVec3::new(-0.8, 0.0, 0.0), DVec3::new(0.8, 0.0, 0.0), 0.3).unwrap();
    let table = Cuboid::new(DVec3::new(2.0, 0.5, 1.5)).unwrap();
    let tilt = DQuat::from_rotation_y(0.4);
    let options = ManifoldOptions::default();
    // (height of the segment above the top face, depth, whether the kernel answers)
    for (height, depth, exact) in [(0.25, 0.05, false), (-0.05, 0.35, true)] {
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
            assert_eq!(c.status == ContactStatus::Exact, exact, "{c:?}");
            assert!((c.depth - depth).abs() < 1e-12);
        }
    }
}
