//! Convex hulls and hill-climbing support against brute-force oracles.
//!
//! Oracles: a full scan of the *input* points for support values; the plane-through-every-triple
//! (3D) or line-through-every-pair (2D) test for the set of extreme points; direct plane tests
//! for containment. Tolerances are relative to the point cloud's scale `s` (largest coordinate
//! magnitude): containment and support values within `1e-9 s` in `f64` and `1e-5 s` in `f32`
//! (the hull's own tolerance is about `1.4e-14 s`; the rest is rounding in the checks).

use gjk::hull::Hull;
use gjk::{distance, Polytope, Pose, Real, Support, Vector};
use gjk_testkit::SplitMix64 as Rng;
use glam::{DVec2, DVec3, Vec2, Vec3};

/// A uniformly random unit vector in 3D, on the shared SplitMix64.
trait Unit3 {
    fn unit3(&mut self) -> [f64; 3];
}

impl Unit3 for Rng {
    fn unit3(&mut self) -> [f64; 3] {
        loop {
            let v = [self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0)];
            let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            if n > 0.1 && n <= 1.0 {
                return v.map(|x| x / n);
            }
        }
    }
}

fn vector<V: Vector>(c: [f64; 3]) -> V {
    V::from_components(c.map(V::Real::from_f64))
}

fn f64s<V: Vector>(v: V) -> [f64; 3] {
    [0, 1, 2].map(|i| v.component(i).to_f64())
}

/// Relative tolerance of value checks for the scalar type.
fn relative_tolerance<V: Vector>() -> f64 {
    if V::Real::EPSILON.to_f64() > 1e-10 {
        1e-5
    } else {
        1e-9
    }
}

/// The largest coordinate magnitude (at least the smallest positive normal number).
fn scale<V: Vector>(points: &[V]) -> f64 {
    points.iter().map(|p| p.max_abs().to_f64()).fold(f64::MIN_POSITIVE, f64::max)
}

fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn sub3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// The largest `p·d` over the input: the oracle.
fn scan_value<V: Vector>(points: &[V], dir: V) -> f64 {
    points.iter().map(|p| p.dot(dir).to_f64()).fold(f64::NEG_INFINITY, f64::max)
}

/// Checks the hull's structure against the input: vertices are input points, faces' planes
/// bound every input point, every input point is inside, Euler's formula for polyhedra.
fn check_structure<V: Vector>(points: &[V], hull: &Hull<V>) {
    let tol = relative_tolerance::<V>() * scale(points);
    for (&v, &i) in hull.vertices().iter().zip(hull.input_indices()) {
        assert_eq!(v, points[i as usize], "a vertex is not its input point");
    }
    for face in hull.faces() {
        assert!((face.normal.length().to_f64() - 1.0).abs() < 1e-5, "normal not unit");
        for (k, &p) in points.iter().enumerate() {
            let above = face.normal.dot(p).to_f64() - face.offset.to_f64();
            assert!(above <= tol, "point {k} is {above} above a face (tolerance {tol})");
        }
    }
    let n = hull.vertices().len();
    for &[a, b] in hull.edges() {
        assert!(a < b && (b as usize) < n, "bad edge");
        assert!(hull.neighbours(a as usize).contains(&b), "adjacency misses an edge");
    }
    let degree_sum: usize = (0..n).map(|v| hull.neighbours(v).len()).sum();
    assert_eq!(degree_sum, 2 * hull.edges().len());
    match hull.dimension() {
        0 => assert_eq!(n, 1),
        1 => assert_eq!((n, hull.edges().len()), (2, 1)),
        2 => {
            assert_eq!(hull.edges().len(), n);
            assert!(n >= 3);
        }
        _ => {
            let (v, e, f) = (n as i64, hull.edges().len() as i64, hull.faces().len() as i64);
            assert_eq!(v - e + f, 2, "Euler's formula fails: V={v} E={e} F={f}");
        }
    }
    check_inside(points, hull, tol);
}

/// Every input point lies in the hull (within `tol`), checked by the hull's dimension: faces of a
/// full-dimensional hull; the plane and in-plane edges of a flat one; the segment; the point.
fn check_inside<V: Vector>(points: &[V], hull: &Hull<V>, tol: f64) {
    let vs: Vec<[f64; 3]> = hull.vertices().iter().map(|&v| f64s(v)).collect();
    for (k, &p) in points.iter().enumerate() {
        let p = f64s(p);
        let outside = match hull.dimension() {
            0 => dot3(sub3(p, vs[0]), sub3(p, vs[0])).sqrt(),
            1 => {
                let (a, b) = (vs[0], vs[1]);
                let ab = sub3(b, a);
                let t = (dot3(sub3(p, a), ab) / dot3(ab, ab)).clamp(0.0, 1.0);
                let q = [a[0] + t * ab[0], a[1] + t * ab[1], a[2] + t * ab[2]];
                dot3(sub3(p, q), sub3(p, q)).sqrt()
            }
            2 if V::DIM == 3 => {
                // Faces give the plane; the polygon's edges (counter-clockwise around the
                // first face's normal) bound it within the plane.
                let face = hull.face(0);
                let normal = f64s(face.normal);
                let cycle = face.vertices;
                let mut worst: f64 = 0.0;
                for k in 0..cycle.len() {
                    let (a, b) = (vs[cycle[k] as usize], vs[cycle[(k + 1) % cycle.len()] as usize]);
                    let out = cross3(sub3(b, a), normal);
                    let len = dot3(out, out).sqrt();
                    worst = worst.max(dot3(out, sub3(p, a)) / len);
                }
                worst
            }
            _ => 0.0, // full-dimensional: the face checks above decide
        };
        assert!(outside <= tol, "input point {k} is {outside} outside the hull");
    }
}

/// Hill climbing (seeded, from random starts, and through `Polytope` with a persisted hint)
/// gives the scan's support value for `directions` random directions.
fn check_climbing<V: Vector>(points: &[V], directions: usize, rng: &mut Rng) {
    let hull = Hull::new(points).unwrap();
    let polytope = Polytope::new(points.to_vec()).unwrap();
    let tol = relative_tolerance::<V>() * scale(points);
    let mut hint = 0u32;
    let mut previous = vector::<V>(rng.unit3());
    for k in 0..directions {
        // Alternate random directions with small turns of the previous one (warm starts).
        let dir = if k % 2 == 0 {
            vector::<V>(rng.unit3())
        } else {
            let turn = rng.unit3().map(|x| 0.05 * x);
            previous + vector::<V>(turn)
        };
        previous = dir;
        let best = scan_value(points, dir);
        let unit = dir.length().to_f64();
        let seeded = hull.vertices()[hull.support_index(dir)].dot(dir).to_f64();
        let start = rng.below(hull.vertices().len());
        let climbed = hull.vertices()[hull.climb(dir, start)].dot(dir).to_f64();
        let hinted = polytope.support_hinted(dir, &mut hint).dot(dir).to_f64();
        let plain = polytope.support(dir).dot(dir).to_f64();
        for (what, value) in
            [("seeded", seeded), ("climb", climbed), ("hinted", hinted), ("plain", plain)]
        {
            assert!(
                best - value <= tol * unit,
                "{what} support short by {} along {dir:?} (tolerance {tol})",
                best - value
            );
        }
    }
}

/// Structure and climbing checks for one point set.
fn check_all<V: Vector>(points: &[V], directions: usize, rng: &mut Rng) -> Hull<V> {
    let hull = Hull::new(points).unwrap();
    check_structure(points, &hull);
    check_climbing(points, directions, rng);
    hull
}

// ---------------------------------------------------------------- point-set generators

fn in_cube(rng: &mut Rng, n: usize, dim: usize) -> Vec<[f64; 3]> {
    (0..n)
        .map(|_| {
            let z = if dim == 3 { rng.range(-1.0, 1.0) } else { 0.0 };
            [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), z]
        })
        .collect()
}

/// Points on the ellipsoid (2D: ellipse) with the given radii.
fn on_ellipsoid(rng: &mut Rng, n: usize, radii: [f64; 3], dim: usize) -> Vec<[f64; 3]> {
    (0..n)
        .map(|_| {
            let mut u = rng.unit3();
            if dim == 2 {
                let angle = rng.range(0.0, std::f64::consts::TAU);
                u = [angle.cos(), angle.sin(), 0.0];
            }
            [u[0] * radii[0], u[1] * radii[1], u[2] * radii[2]]
        })
        .collect()
}

/// A random plane through the origin in 3D, points inside a disc on it (exactly flat in the
/// xy-plane when `tilted` is false).
fn flat(rng: &mut Rng, n: usize, tilted: bool) -> Vec<[f64; 3]> {
    let (u, v) = if tilted {
        let a = rng.unit3();
        let b = rng.unit3();
        let n = cross3(a, b);
        let len = dot3(n, n).sqrt();
        let n = n.map(|x| x / len);
        let u = cross3(n, a);
        let lu = dot3(u, u).sqrt();
        (a, u.map(|x| x / lu))
    } else {
        ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
    };
    (0..n)
        .map(|_| {
            let (s, t) = (rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
            [0, 1, 2].map(|k| s * u[k] + t * v[k])
        })
        .collect()
}

fn collinear(rng: &mut Rng, n: usize, dim: usize) -> Vec<[f64; 3]> {
    let d = if dim == 3 { rng.unit3() } else { [0.6, -0.8, 0.0] };
    (0..n)
        .map(|_| {
            let t = rng.range(-2.0, 3.0);
            d.map(|x| x * t + 0.5)
        })
        .collect()
}

/// An `m`-per-side grid (2D: square) of integer points, shuffled: many coplanar faces.
fn grid(rng: &mut Rng, m: usize, dim: usize) -> Vec<[f64; 3]> {
    let mut points = Vec::new();
    for i in 0..m {
        for j in 0..m {
            for k in 0..(if dim == 3 { m } else { 1 }) {
                points.push([i as f64, j as f64, k as f64]);
            }
        }
    }
    for k in (1..points.len()).rev() {
        points.swap(k, rng.below(k + 1));
    }
    points
}

/// `points` with every coordinate moved by up to `amount` (relative).
fn jitter(rng: &mut Rng, points: &[[f64; 3]], amount: f64, dim: usize) -> Vec<[f64; 3]> {
    points
        .iter()
        .map(|p| {
            let mut q = p.map(|x| x + amount * rng.range(-1.0, 1.0) * x.abs().max(1.0));
            if dim == 2 {
                q[2] = 0.0;
            }
            q
        })
        .collect()
}

/// Every point of `points` twice or three times, shuffled.
fn duplicated(rng: &mut Rng, points: &[[f64; 3]]) -> Vec<[f64; 3]> {
    let mut out: Vec<[f64; 3]> = points.iter().flat_map(|&p| [p, p]).collect();
    out.extend(points.iter().step_by(3));
    for k in (1..out.len()).rev() {
        out.swap(k, rng.below(k + 1));
    }
    out
}

fn to_vectors<V: Vector>(points: &[[f64; 3]]) -> Vec<V> {
    points.iter().map(|&p| vector::<V>(p)).collect()
}

/// The battery of point sets for one vector type.
fn battery<V: Vector>(seed: u64) {
    let dim = V::DIM;
    let mut rng = Rng::new(seed);
    let thin = if dim == 3 { [1.0, 1.0, 0.01] } else { [1.0, 0.01, 0.0] };
    let sets: Vec<(&str, Vec<[f64; 3]>, usize)> = vec![
        ("cube 200", in_cube(&mut rng, 200, dim), 2000),
        ("sphere 10k", on_ellipsoid(&mut rng, 10_000, [1.0; 3], dim), 10_000),
        ("thin ellipsoid 10k", on_ellipsoid(&mut rng, 10_000, thin, dim), 10_000),
        ("flat tilted", flat(&mut rng, 500, dim == 3), 2000),
        ("flat xy", flat(&mut rng, 500, false), 2000),
        ("collinear", collinear(&mut rng, 100, dim), 500),
        ("grid", grid(&mut rng, if dim == 3 { 8 } else { 20 }, dim), 2000),
        ("one point", vec![[0.25, -3.0, if dim == 3 { 7.0 } else { 0.0 }]; 17], 100),
        ("two points", vec![[1.0, 2.0, 0.0], [-1.0, 0.5, 0.0], [1.0, 2.0, 0.0]], 100),
    ];
    let mut sets = sets;
    let sphere = on_ellipsoid(&mut rng, 2000, [1.0; 3], dim);
    sets.push(("sphere jitter 1e-12", jitter(&mut rng, &sphere, 1e-12, dim), 2000));
    let plane = flat(&mut rng, 2000, dim == 3);
    sets.push(("flat jitter 1e-12", jitter(&mut rng, &plane, 1e-12, dim), 2000));
    let g = grid(&mut rng, 6, dim);
    sets.push(("grid jitter 1e-12", jitter(&mut rng, &g, 1e-12, dim), 2000));
    let line = collinear(&mut rng, 300, dim);
    sets.push(("collinear jitter 1e-12", jitter(&mut rng, &line, 1e-12, dim), 1000));
    let cube = in_cube(&mut rng, 300, dim);
    sets.push(("duplicates", duplicated(&mut rng, &cube), 2000));
    let far: Vec<[f64; 3]> =
        in_cube(&mut rng, 300, dim).iter().map(|p| p.map(|x| x + 1e4)).collect();
    sets.push(("far from origin", far, 1000));
    // Large enough for the interior filter (points deep inside the hull of 26 extreme points
    // are dropped before Quickhull), full-dimensional and nearly flat.
    sets.push(("cube 5k", in_cube(&mut rng, 5000, dim), 1000));
    let slab: Vec<[f64; 3]> =
        in_cube(&mut rng, 5000, dim).iter().map(|p| [p[0], p[1], p[2] * 1e-6]).collect();
    sets.push(("slab 5k", slab, 1000));
    for (name, points, directions) in sets {
        let points: Vec<V> = to_vectors(&points);
        let hull = Hull::new(&points).unwrap();
        eprintln!(
            "{name}: {} points → {} vertices, dimension {}",
            points.len(),
            hull.vertices().len(),
            hull.dimension()
        );
        check_all(&points, directions, &mut rng);
    }
}

#[test]
fn battery_dvec3() {
    battery::<DVec3>(1);
}

#[test]
fn battery_vec3() {
    battery::<Vec3>(2);
}

#[test]
fn battery_dvec2() {
    battery::<DVec2>(3);
}

#[test]
fn battery_vec2() {
    battery::<Vec2>(4);
}

// ---------------------------------------------------------------- dimensions

#[test]
fn degenerate_inputs_give_lower_dimensional_hulls() {
    let mut rng = Rng::new(5);
    let one = Hull::new(&[DVec3::new(1.0, 2.0, 3.0); 5]).unwrap();
    assert_eq!((one.dimension(), one.vertices().len(), one.faces().len()), (0, 1, 0));
    let line = to_vectors::<DVec3>(&collinear(&mut rng, 50, 3));
    let segment = Hull::new(&line).unwrap();
    assert_eq!((segment.dimension(), segment.vertices().len()), (1, 2));
    let plane = to_vectors::<DVec3>(&flat(&mut rng, 50, true));
    let polygon = Hull::new(&plane).unwrap();
    assert_eq!((polygon.dimension(), polygon.faces().len()), (2, 2));
    let square = Hull::new(&to_vectors::<Vec2>(&grid(&mut rng, 5, 2))).unwrap();
    assert_eq!((square.dimension(), square.vertices().len(), square.faces().len()), (2, 4, 4));
    // The corners are the only vertices: points on the cube's edges and faces are not, even
    // when Quickhull met them before the corners (see `hull_extremes.rs`).
    let cube = Hull::new(&to_vectors::<Vec3>(&grid(&mut rng, 5, 3))).unwrap();
    assert_eq!((cube.dimension(), cube.vertices().len()), (3, 8));
    for corner in 0..8 {
        let c = [corner & 1, (corner >> 1) & 1, (corner >> 2) & 1].map(|b| 4.0 * b as f32);
        assert!(cube.vertices().contains(&Vec3::from(c)), "corner {c:?} missing");
    }
    let segment2 = Hull::new(&to_vectors::<DVec2>(&collinear(&mut rng, 9, 2))).unwrap();
    assert_eq!((segment2.dimension(), segment2.faces().len()), (1, 2));
}

#[test]
fn invalid_inputs_are_errors() {
    assert!(Hull::<DVec3>::new(&[]).is_err());
    assert!(Hull::new(&[DVec3::new(f64::NAN, 0.0, 0.0)]).is_err());
    assert!(Polytope::new(vec![Vec2::new(0.0, f32::INFINITY)]).is_err());
}

#[test]
fn extreme_magnitudes_are_handled() {
    let mut rng = Rng::new(6);
    for magnitude in [1e-300, 1e-150, 1e150, 1e300] {
        let points: Vec<DVec3> = in_cube(&mut rng, 100, 3)
            .iter()
            .map(|p| vector::<DVec3>(p.map(|x| x * magnitude)))
            .collect();
        let hull = check_all(&points, 200, &mut rng);
        assert_eq!(hull.dimension(), 3);
    }
}

// ---------------------------------------------------------------- extreme points

/// The extreme points by brute force (general position): in 3D, the corners of every triple
/// whose plane has all other points strictly on one side; in 2D, the ends of every such pair.
fn brute_force_extremes(points: &[[f64; 3]], dim: usize) -> Vec<usize> {
    let n = points.len();
    let mut extreme = vec![false; n];
    let one_side = |normal: [f64; 3], origin: [f64; 3], skip: &[usize]| {
        let (mut above, mut below) = (false, false);
        for (k, &p) in points.iter().enumerate() {
            if skip.contains(&k) {
                continue;
            }
            let s = dot3(normal, sub3(p, origin));
            above |= s > 0.0;
            below |= s < 0.0;
        }
        !(above && below)
    };
    for i in 0..n {
        for j in i + 1..n {
            if dim == 2 {
                let d = sub3(points[j], points[i]);
                if one_side([d[1], -d[0], 0.0], points[i], &[i, j]) {
                    extreme[i] = true;
                    extreme[j] = true;
                }
                continue;
            }
            for k in j + 1..n {
                let normal = cross3(sub3(points[j], points[i]), sub3(points[k], points[i]));
                if one_side(normal, points[i], &[i, j, k]) {
                    for m in [i, j, k] {
                        extreme[m] = true;
                    }
                }
            }
        }
    }
    (0..n).filter(|&k| extreme[k]).collect()
}

fn check_extremes<V: Vector>(seed: u64) {
    let mut rng = Rng::new(seed);
    for round in 0..40 {
        let n = 4 + round % 30;
        let raw = if round % 2 == 0 {
            in_cube(&mut rng, n, V::DIM)
        } else {
            on_ellipsoid(&mut rng, n, [1.0, 0.7, 0.4], V::DIM)
        };
        let points: Vec<V> = to_vectors(&raw);
        // The oracle runs on the points as the vector type stores them.
        let stored: Vec<[f64; 3]> = points.iter().map(|&p| f64s(p)).collect();
        let expected = brute_force_extremes(&stored, V::DIM);
        let hull = Hull::new(&points).unwrap();
        let mut got: Vec<usize> = hull.input_indices().iter().map(|&i| i as usize).collect();
        got.sort_unstable();
        assert_eq!(got, expected, "round {round}: vertex set differs from the extreme points");
    }
}

#[test]
fn vertices_are_the_extreme_points() {
    check_extremes::<DVec3>(7);
    check_extremes::<Vec3>(8);
    check_extremes::<DVec2>(9);
    check_extremes::<Vec2>(10);
}

// ---------------------------------------------------------------- hints and GJK

#[test]
fn foreign_hints_are_safe() {
    let mut rng = Rng::new(11);
    let points: Vec<DVec3> = to_vectors(&on_ellipsoid(&mut rng, 1000, [1.0; 3], 3));
    let polytope = Polytope::new(points.clone()).unwrap();
    for hint in [0, 1, 999, 1000, 1001, u32::MAX] {
        let mut h = hint;
        let dir = DVec3::new(0.3, -0.2, 0.9);
        let found = polytope.support_hinted(dir, &mut h);
        assert!((scan_value(&points, dir) - found.dot(dir)).abs() < 1e-12);
        assert!(h >= 1 && (h as usize) <= polytope.points().len());
    }
}

/// A point set whose support scans every input point: the behaviour before hulls.
struct RawPoints<V>(Vec<V>);

impl<V: Vector> Support<V> for RawPoints<V> {
    fn support(&self, dir: V) -> V {
        let mut best = self.0[0];
        for &p in &self.0 {
            if p.dot(dir) > best.dot(dir) {
                best = p;
            }
        }
        best
    }
}

fn check_gjk_distance<V: Vector>(seed: u64, pose: impl Fn(&mut Rng) -> Pose<V>) {
    let mut rng = Rng::new(seed);
    let tol = relative_tolerance::<V>() * 1e2;
    for round in 0..60 {
        let n = [8, 60, 400][round % 3];
        let make = |rng: &mut Rng| -> Vec<V> {
            let raw = if round % 2 == 0 {
                on_ellipsoid(rng, n, [1.0, 0.6, 0.3], V::DIM)
            } else {
                in_cube(rng, n, V::DIM)
            };
            to_vectors(&raw)
        };
        let (a, b) = (make(&mut rng), make(&mut rng));
        let (pa, pb) = (pose(&mut rng), pose(&mut rng));
        let hulls = distance(
            &Polytope::new(a.clone()).unwrap(),
            &pa,
            &Polytope::new(b.clone()).unwrap(),
            &pb,
        );
        let raw = distance(&RawPoints(a), &pa, &RawPoints(b), &pb);
        let (h, r) = (hulls.to_f64(), raw.to_f64());
        assert!((h - r).abs() <= tol * (1.0 + r), "round {round}: hulls {h}, raw points {r}");
    }
}

#[test]
fn gjk_distance_matches_raw_point_sets() {
    let place3 = |rng: &mut Rng| {
        let t = rng.unit3().map(|x| x * rng.range(0.0, 4.0));
        let axis = glam::DVec3::from(rng.unit3());
        let q = glam::DQuat::from_axis_angle(axis, rng.range(0.0, 6.0));
        (t, q)
    };
    check_gjk_distance::<DVec3>(12, |rng| {
        let (t, q) = place3(rng);
        Pose::new(q, DVec3::from(t)).unwrap()
    });
    check_gjk_distance::<Vec3>(13, |rng| {
        let (t, q) = place3(rng);
        Pose::new(q.as_quat(), DVec3::from(t).as_vec3()).unwrap()
    });
    check_gjk_distance::<DVec2>(14, |rng| {
        let t = DVec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
        Pose::<DVec2>::from_angle_translation(rng.range(0.0, 6.0), t).unwrap()
    });
    check_gjk_distance::<Vec2>(15, |rng| {
        let t = Vec2::new(rng.range(-4.0, 4.0) as f32, rng.range(-4.0, 4.0) as f32);
        Pose::<Vec2>::from_angle_translation(rng.range(0.0, 6.0) as f32, t).unwrap()
    });
}
