//! Time of impact under rotation and translation against independent oracles.
//!
//! * **Dense sampling** of the motion: the poses at `N` evenly spaced times (10,000 for the
//!   hand-built scenes, 2,000 for the random ones), built here in f64 from the motion's
//!   definition (`exp(t ω) R₀`, `p₀ + t v`), not by `Motion::pose_at`. The distance at each sample
//!   comes from a brute-force polygon distance in 2D (separating axes over the edge normals,
//!   then the smallest point–segment distance: no GJK) and from `gjk::distance` in 3D (the
//!   static query, itself checked against brute force in `oracle.rs`). Claims checked:
//!   - never a miss when a sample is within `σ/2` (in particular when one touches);
//!   - `toi` is never later than the first sample within `σ/2` (conservative advancement keeps
//!     the shapes `σ/2` apart before `toi`), allowing one sample spacing of motion;
//!   - every sample before `toi` is at least `σ/2` apart, less the oracle's tolerance;
//!   - at `toi` the shapes are within `[σ/2, σ]`, less/plus the oracle's tolerance.
//! * **Closed forms**: two balls (spinning or not: a ball's spin moves nothing), whose gap
//!   `|Δp + t Δv| − r_A − r_B` reaches a value `g` at the root of a quadratic: `toi` lies between
//!   the times the gap reaches `σ` and `σ/2`.
//! * **Pure translation** against `gjk::shape_cast` (the GJK ray cast, another algorithm):
//!   a cast hit at `t_c` means a hit no later than `t_c`; a miss means the cast misses too.
//!
//! Tolerances: distances within `1e-9` (f64) or `1e-4` (f32) of the scene's size; times within
//! one sample spacing plus that distance over the closing speed.

use gjk::{
    distance, intersects, shape_cast, time_of_impact, time_of_impact_with, Ball, Capsule,
    CastStatus, Cuboid, Motion, Polytope, Pose, Real, Support, ToiOptions, ToiResult, Vector,
};
use gjk_testkit::SplitMix64 as Rng;
use glam::{DQuat, DVec2, DVec3, Vec2, Vec3};

// ---------------------------------------------------------------------------------------------
// The oracle's motion: f64, from the definition.

/// A motion as the oracle sees it: 2D angles about z, or 3D quaternions and rotation vectors.
#[derive(Clone, Copy, Debug)]
struct Path {
    rotation: DQuat,
    translation: DVec3,
    linear: DVec3,
    /// 2D: (0, 0, ω); 3D: the rotation vector.
    angular: DVec3,
}

impl Path {
    fn rotation_at(&self, t: f64) -> DQuat {
        DQuat::from_scaled_axis(self.angular * t) * self.rotation
    }
    fn point_at(&self, t: f64, local: DVec3) -> DVec3 {
        self.rotation_at(t) * local + self.translation + self.linear * t
    }
}

/// The library's types for one space, built from the oracle's f64 values.
trait Space: Vector {
    fn motion(path: &Path) -> Motion<Self>;
    fn pose_at(path: &Path, t: f64) -> Pose<Self>;
    fn vec(p: DVec3) -> Self;
    fn d(self) -> DVec3;
    /// The distance tolerance relative to the scene's size.
    const TOL: f64;
}

macro_rules! space2 {
    ($v:ident, $r:ident) => {
        impl Space for $v {
            fn motion(p: &Path) -> Motion<Self> {
                let angle = 2.0 * p.rotation.z.atan2(p.rotation.w);
                let start = Pose::from_angle_translation(angle as $r, Self::vec(p.translation));
                Motion::new(start.unwrap(), Self::vec(p.linear), p.angular.z as $r)
            }
            fn pose_at(p: &Path, t: f64) -> Pose<Self> {
                let angle = 2.0 * p.rotation.z.atan2(p.rotation.w) + p.angular.z * t;
                let at = p.translation + p.linear * t;
                Pose::from_angle_translation(angle as $r, Self::vec(at)).unwrap()
            }
            fn vec(p: DVec3) -> Self {
                $v::new(p.x as $r, p.y as $r)
            }
            fn d(self) -> DVec3 {
                DVec3::new(self.x as f64, self.y as f64, 0.0)
            }
            const TOL: f64 = if <$r>::EPSILON > 1e-10 { 1e-4 } else { 1e-9 };
        }
    };
}
space2!(Vec2, f32);
space2!(DVec2, f64);

impl Space for DVec3 {
    fn motion(p: &Path) -> Motion<Self> {
        Motion::new(Pose::new(p.rotation, p.translation).unwrap(), p.linear, p.angular)
    }
    fn pose_at(p: &Path, t: f64) -> Pose<Self> {
        Pose::new(p.rotation_at(t), p.translation + p.linear * t).unwrap()
    }
    fn vec(p: DVec3) -> Self {
        p
    }
    fn d(self) -> DVec3 {
        self
    }
    const TOL: f64 = 1e-9;
}

impl Space for Vec3 {
    fn motion(p: &Path) -> Motion<Self> {
        let start = Pose::new(p.rotation.as_quat(), p.translation.as_vec3()).unwrap();
        Motion::new(start, p.linear.as_vec3(), p.angular.as_vec3())
    }
    fn pose_at(p: &Path, t: f64) -> Pose<Self> {
        let at = p.translation + p.linear * t;
        Pose::new(p.rotation_at(t).as_quat(), at.as_vec3()).unwrap()
    }
    fn vec(p: DVec3) -> Self {
        p.as_vec3()
    }
    fn d(self) -> DVec3 {
        self.as_dvec3()
    }
    const TOL: f64 = 1e-4;
}

/// `x` in the space's precision.
fn real<V: Vector>(x: f64) -> V::Real {
    V::Real::from_f64(x)
}

// ---------------------------------------------------------------------------------------------
// Brute-force 2D polygon distance (no GJK).

fn point_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let s = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
    (a + ab * s - p).length()
}

/// Whether the edge normals of `a` or `b` separate the convex polygons (counter-clockwise).
fn separated(a: &[DVec2], b: &[DVec2]) -> bool {
    let axes = |p: &[DVec2]| -> Vec<DVec2> {
        (0..p.len()).map(|i| (p[(i + 1) % p.len()] - p[i]).perp()).collect()
    };
    axes(a).into_iter().chain(axes(b)).any(|n| {
        let (a_lo, a_hi) =
            a.iter().fold((f64::MAX, f64::MIN), |(l, h), p| (l.min(n.dot(*p)), h.max(n.dot(*p))));
        let (b_lo, b_hi) =
            b.iter().fold((f64::MAX, f64::MIN), |(l, h), p| (l.min(n.dot(*p)), h.max(n.dot(*p))));
        a_hi < b_lo || b_hi < a_lo
    })
}

/// The distance of two convex polygons: 0 when no edge normal separates them, else the
/// smallest vertex–edge distance (the closest points of disjoint convex polygons include a
/// vertex).
fn polygon_distance(a: &[DVec2], b: &[DVec2]) -> f64 {
    if !separated(a, b) {
        return 0.0;
    }
    let one_way = |p: &[DVec2], q: &[DVec2]| {
        let mut best = f64::MAX;
        for v in p {
            for i in 0..q.len() {
                best = best.min(point_segment(*v, q[i], q[(i + 1) % q.len()]));
            }
        }
        best
    };
    one_way(a, b).min(one_way(b, a))
}

fn rectangle(half: DVec2) -> Vec<DVec2> {
    vec![
        DVec2::new(-half.x, -half.y),
        DVec2::new(half.x, -half.y),
        DVec2::new(half.x, half.y),
        DVec2::new(-half.x, half.y),
    ]
}

fn placed(path: &Path, t: f64, local: &[DVec2]) -> Vec<DVec2> {
    local.iter().map(|p| path.point_at(t, p.extend(0.0)).truncate()).collect()
}

// ---------------------------------------------------------------------------------------------
// The sampling check.

/// What dense sampling saw of a motion pair.
struct Samples {
    /// The distance at each sample time `i × max_toi / (n − 1)`.
    distances: Vec<f64>,
    max_toi: f64,
}

impl Samples {
    fn new(n: usize, max_toi: f64, mut distance: impl FnMut(f64) -> f64) -> Self {
        let distances = (0..n).map(|i| distance(max_toi * i as f64 / (n - 1) as f64)).collect();
        Self { distances, max_toi }
    }
    fn time(&self, i: usize) -> f64 {
        self.max_toi * i as f64 / (self.distances.len() - 1) as f64
    }
    fn first_within(&self, gap: f64) -> Option<usize> {
        self.distances.iter().position(|&d| d <= gap)
    }
}

/// Checks a time-of-impact result against dense sampling; `tol` is the oracle's distance
/// tolerance, `speed` a bound of the closing speed (for one sample spacing of motion).
fn check_against_samples<V: Vector>(
    what: &str,
    r: &ToiResult<V>,
    samples: &Samples,
    distance_at: impl Fn(f64) -> f64,
    tol: f64,
) {
    let slop = r.linear_slop.to_f64();
    let toi = r.toi.to_f64();
    assert!(toi.is_finite() && r.distance.to_f64().is_finite(), "{what}: {r:?}");
    if let Some(i) = samples.first_within(slop / 2.0 - tol) {
        assert!(
            r.is_hit() || r.status == CastStatus::IterationCap,
            "{what}: missed sample {i}: {r:?}"
        );
        assert!(
            toi <= samples.time(i) + 1e-12,
            "{what}: toi {toi} after sample {}",
            samples.time(i)
        );
    }
    if r.status == CastStatus::NoHit {
        assert!(samples.first_within(slop / 2.0 - tol).is_none(), "{what}");
        return;
    }
    for (i, &d) in samples.distances.iter().enumerate() {
        if samples.time(i) >= toi {
            break;
        }
        assert!(
            d >= slop / 2.0 - tol,
            "{what}: sample {} at distance {d} before toi {toi}",
            samples.time(i)
        );
    }
    if r.status == CastStatus::Hit && toi > 0.0 {
        let d = distance_at(toi);
        assert!(
            d >= slop / 2.0 - tol && d <= slop + tol,
            "{what}: distance {d} at toi, slop {slop}"
        );
        assert!(
            (r.distance.to_f64() - d).abs() <= tol + 1e-3 * slop,
            "{what}: {} vs {d}",
            r.distance
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Scenes

/// A thin bar spinning about its centre, its tips sweeping through a small post that sits on
/// the circle they describe: at `t = 0` and at `t = 1` (half a turn) the bar lies along x, far
/// from the post, so a discrete check at the ends of the step finds nothing.
fn spinning_bar_2d<V: Space>() {
    let bar_half = DVec2::new(2.0, 0.05);
    let post_half = DVec2::new(0.1, 0.1);
    let bar = Cuboid::new(V::vec(bar_half.extend(0.0))).unwrap();
    let post = Cuboid::new(V::vec(post_half.extend(0.0))).unwrap();
    let spin = Path {
        rotation: DQuat::IDENTITY,
        translation: DVec3::ZERO,
        linear: DVec3::ZERO,
        angular: DVec3::new(0.0, 0.0, std::f64::consts::PI),
    };
    let post_path = Path { translation: DVec3::new(0.0, 1.5, 0.0), angular: DVec3::ZERO, ..spin };
    let (ma, mb) = (V::motion(&spin), V::motion(&post_path));
    // Discrete stepping tunnels: apart at both ends of the step.
    for t in [0.0, 1.0] {
        assert!(!intersects(&bar, &V::pose_at(&spin, t), &post, &V::pose_at(&post_path, t)));
    }
    let r = time_of_impact(&bar, &ma, &post, &mb, real::<V>(1.0));
    assert_eq!(r.status, CastStatus::Hit, "{r:?}");
    let bar_local = rectangle(bar_half);
    let post_world = placed(&post_path, 0.0, &rectangle(post_half));
    let at = |t: f64| polygon_distance(&placed(&spin, t, &bar_local), &post_world);
    let samples = Samples::new(10_000, 1.0, at);
    assert!(samples.first_within(0.0).is_some(), "the scene must collide");
    check_against_samples("spinning bar 2D", &r, &samples, at, V::TOL * 4.0);
    // The normal points from the bar toward the post.
    assert!(r.normal.d().dot(DVec3::new(0.0, 1.5, 0.0) - r.point_a.d()) > 0.0, "{r:?}");
}

#[test]
fn spinning_bar_does_not_tunnel_2d() {
    spinning_bar_2d::<DVec2>();
    spinning_bar_2d::<Vec2>();
}

fn spinning_bar_3d<V: Space>() {
    let bar = Cuboid::new(V::vec(DVec3::new(2.0, 0.05, 0.05))).unwrap();
    let post = Cuboid::new(V::vec(DVec3::splat(0.1))).unwrap();
    // Spinning about an axis tilted from z, and drifting a little.
    let spin = Path {
        rotation: DQuat::from_rotation_x(0.2),
        translation: DVec3::new(0.1, 0.0, 0.0),
        linear: DVec3::new(0.0, 0.1, 0.0),
        angular: DVec3::new(0.1, 0.0, 3.0),
    };
    let post_path = Path {
        rotation: DQuat::from_rotation_y(0.3),
        translation: DVec3::new(0.0, 1.6, 0.0),
        linear: DVec3::ZERO,
        angular: DVec3::new(0.0, 2.0, 0.0),
    };
    let r = time_of_impact(&bar, &V::motion(&spin), &post, &V::motion(&post_path), real::<V>(1.0));
    assert_eq!(r.status, CastStatus::Hit, "{r:?}");
    let at =
        |t: f64| distance(&bar, &V::pose_at(&spin, t), &post, &V::pose_at(&post_path, t)).to_f64();
    let samples = Samples::new(10_000, 1.0, at);
    assert!(samples.first_within(0.0).is_some(), "the scene must collide");
    check_against_samples("spinning bar 3D", &r, &samples, at, V::TOL * 10.0);
}

#[test]
fn spinning_bar_does_not_tunnel_3d() {
    spinning_bar_3d::<DVec3>();
    spinning_bar_3d::<Vec3>();
}

fn random_path(rng: &mut Rng, dim: usize, spread: f64) -> Path {
    let mut v = || DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
    let (translation, linear, mut angular) = (v() * spread, v() * 2.0, v() * 4.0);
    let rotation = if dim == 2 {
        DQuat::from_rotation_z(rng.range(-3.0, 3.0))
    } else {
        DQuat::from_scaled_axis(DVec3::new(rng.range(-2.0, 2.0), rng.unit(), rng.unit()))
    };
    let mut translation = translation;
    let mut linear = linear;
    if dim == 2 {
        translation.z = 0.0;
        linear.z = 0.0;
        angular = DVec3::new(0.0, 0.0, angular.z);
    }
    Path { rotation, translation, linear, angular }
}

/// Random tumbling rectangles in 2D, sampled with the brute-force polygon distance.
fn random_rectangles<V: Space>(seed: u64, cases: usize) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let (mut hits, mut misses, mut capped, mut steps) = (0, 0, 0, 0);
    for case in 0..cases {
        let ha = DVec2::new(rng.range(0.1, 1.5), rng.range(0.05, 1.0));
        let hb = DVec2::new(rng.range(0.1, 1.5), rng.range(0.05, 1.0));
        let pa = random_path(&mut rng, 2, 3.0);
        let mut pb = random_path(&mut rng, 2, 3.0);
        // Aim B at A half of the time.
        if case % 2 == 0 {
            pb.linear = (pa.translation - pb.translation) * rng.range(0.5, 1.5) + pa.linear;
        }
        let a = Cuboid::new(V::vec(ha.extend(0.0))).unwrap();
        let b = Cuboid::new(V::vec(hb.extend(0.0))).unwrap();
        let r = time_of_impact(&a, &V::motion(&pa), &b, &V::motion(&pb), real::<V>(1.0));
        let (la, lb) = (rectangle(ha), rectangle(hb));
        let at = |t: f64| polygon_distance(&placed(&pa, t, &la), &placed(&pb, t, &lb));
        let samples = Samples::new(2_000, 1.0, at);
        if r.status == CastStatus::InitiallyOverlapping {
            assert_eq!(samples.distances[0], 0.0, "case {case}: {r:?}");
            continue;
        }
        check_against_samples(&format!("rectangles case {case}"), &r, &samples, at, V::TOL * 20.0);
        capped += usize::from(r.status == CastStatus::IterationCap);
        steps += r.iterations as usize;
        if r.is_hit() {
            hits += 1;
        } else {
            misses += 1;
        }
    }
    println!("{cases} cases: {hits} hits, {misses} misses, {capped} at the cap, {steps} steps");
    // The cap comes only from near misses that slide past within a few slops (the sampling
    // check above holds them to the lower-bound contract).
    assert!(capped * 20 <= cases, "{capped} of {cases} at the cap");
    (hits, misses)
}

#[test]
fn random_tumbling_rectangles_against_brute_force_sampling() {
    let (hits, misses) = random_rectangles::<DVec2>(0x701, 150);
    assert!(hits > 20 && misses > 20, "{hits} hits, {misses} misses");
    random_rectangles::<Vec2>(0x702, 100);
}

/// A square spinning fast (4–25 rad per unit time, either way) above a long wall, sinking
/// slowly and sliding sideways: its lowest corner changes several times within one advancement
/// step, so the step search's Newton guesses overshoot where the bound's support vertex
/// switches and the search falls back to its bracket. Half the scenes end with the corner's
/// circle a fraction of a slop to a few slops above the wall (grazing: hits and misses within
/// reach of the slop), half sink into it. Sampled with the brute-force polygon distance.
fn spinning_square_over_a_wall<V: Space>(seed: u64, cases: usize) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let (mut hits, mut misses) = (0, 0);
    let square_half = DVec2::splat(0.5);
    let wall_half = DVec2::new(30.0, 0.25);
    let wall = Path {
        rotation: DQuat::IDENTITY,
        translation: DVec3::new(0.0, -0.25, 0.0),
        linear: DVec3::ZERO,
        angular: DVec3::ZERO,
    };
    let corner = square_half.length();
    let a = Cuboid::new(V::vec(square_half.extend(0.0))).unwrap();
    let b = Cuboid::new(V::vec(wall_half.extend(0.0))).unwrap();
    // The default slop: 1/1000 of the smaller reach (the square's corner distance).
    let slop = 1e-3 * corner;
    for case in 0..cases {
        let rate = rng.range(4.0, 25.0) * if rng.unit() < 0.5 { -1.0 } else { 1.0 };
        let start_height = rng.range(1.0, 2.5);
        // The lowest the corner's circle gets by t = 1: grazing heights or deep.
        let end_gap = if case % 2 == 0 { rng.range(0.2, 3.0) * slop } else { -rng.range(0.0, 0.3) };
        let sink = start_height - (corner + end_gap);
        let path = Path {
            rotation: DQuat::from_rotation_z(rng.range(-3.0, 3.0)),
            translation: DVec3::new(rng.range(-2.0, 2.0), start_height, 0.0),
            linear: DVec3::new(rng.range(-3.0, 3.0), -sink, 0.0),
            angular: DVec3::new(0.0, 0.0, rate),
        };
        let r = time_of_impact(&a, &V::motion(&path), &b, &V::motion(&wall), real::<V>(1.0));
        assert!(r.iterations <= ToiOptions::<f64>::default().max_iterations, "{r:?}");
        let (square, wall_world) =
            (rectangle(square_half), placed(&wall, 0.0, &rectangle(wall_half)));
        let at = |t: f64| polygon_distance(&placed(&path, t, &square), &wall_world);
        let samples = Samples::new(20_000, 1.0, at);
        check_against_samples(
            &format!("spinning square case {case}"),
            &r,
            &samples,
            at,
            V::TOL * 20.0,
        );
        if r.is_hit() {
            hits += 1;
        } else {
            misses += 1;
        }
    }
    (hits, misses)
}

#[test]
fn spinning_square_grazing_a_wall_against_brute_force_sampling() {
    let (hits, misses) = spinning_square_over_a_wall::<DVec2>(0x5A11, 40);
    assert!(hits >= 10 && misses >= 10, "{hits} hits, {misses} misses");
    spinning_square_over_a_wall::<Vec2>(0x5A12, 40);
}

/// Random tumbling 3D pairs (boxes, hulls, capsules), sampled with `gjk::distance`.
fn random_solids<V: Space>(seed: u64, cases: usize) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let (mut hits, mut misses, mut capped, mut steps) = (0, 0, 0, 0);
    for case in 0..cases {
        let shape = |rng: &mut Rng, kind: usize| -> Box<dyn Support<V>> {
            match kind {
                0 => Box::new(
                    Cuboid::new(V::vec(DVec3::new(
                        rng.range(0.1, 1.5),
                        rng.range(0.05, 1.0),
                        rng.range(0.05, 1.0),
                    )))
                    .unwrap(),
                ),
                1 => {
                    let points: Vec<V> = (0..16)
                        .map(|_| {
                            V::vec(DVec3::new(
                                rng.range(-1.0, 1.0),
                                rng.range(-0.5, 0.5),
                                rng.range(-0.7, 0.7),
                            ))
                        })
                        .collect();
                    Box::new(Polytope::new(points).unwrap())
                }
                _ => Box::new(
                    Capsule::new(
                        V::vec(DVec3::new(-rng.range(0.1, 1.0), 0.0, 0.0)),
                        V::vec(DVec3::new(rng.range(0.1, 1.0), 0.0, 0.0)),
                        real::<V>(rng.range(0.05, 0.5)),
                    )
                    .unwrap(),
                ),
            }
        };
        let a = shape(&mut rng, case % 3);
        let b = shape(&mut rng, (case / 3) % 3);
        let pa = random_path(&mut rng, 3, 3.0);
        let mut pb = random_path(&mut rng, 3, 3.0);
        if case % 2 == 0 {
            pb.linear = (pa.translation - pb.translation) * rng.range(0.5, 1.5) + pa.linear;
        }
        let r = time_of_impact(&*a, &V::motion(&pa), &*b, &V::motion(&pb), real::<V>(1.0));
        let at = |t: f64| distance(&*a, &V::pose_at(&pa, t), &*b, &V::pose_at(&pb, t)).to_f64();
        let samples = Samples::new(2_000, 1.0, at);
        if r.status == CastStatus::InitiallyOverlapping {
            assert_eq!(samples.distances[0], 0.0, "case {case}: {r:?}");
            assert!(r.distance.to_f64() <= 0.0, "case {case}: {r:?}");
            continue;
        }
        check_against_samples(&format!("solids case {case}"), &r, &samples, at, V::TOL * 50.0);
        capped += usize::from(r.status == CastStatus::IterationCap);
        steps += r.iterations as usize;
        if r.is_hit() {
            hits += 1;
        } else {
            misses += 1;
        }
    }
    println!("{cases} cases: {hits} hits, {misses} misses, {capped} at the cap, {steps} steps");
    // The cap comes only from near misses that slide past within a few slops (the sampling
    // check above holds them to the lower-bound contract).
    assert!(capped * 20 <= cases, "{capped} of {cases} at the cap");
    (hits, misses)
}

#[test]
fn random_tumbling_solids_against_sampling() {
    let (hits, misses) = random_solids::<DVec3>(0x703, 120);
    assert!(hits > 15 && misses > 15, "{hits} hits, {misses} misses");
    random_solids::<Vec3>(0x704, 60);
}

// ---------------------------------------------------------------------------------------------
// Closed forms and the linear cast

/// The first time `|d + t e| = g` for `t ≥ 0`, if any (the quadratic's smaller root).
fn reach_gap(d: DVec3, e: DVec3, g: f64) -> Option<f64> {
    let (a, b, c) = (e.dot(e), 2.0 * d.dot(e), d.dot(d) - g * g);
    if c <= 0.0 {
        return Some(0.0);
    }
    let disc = b * b - 4.0 * a * c;
    if a == 0.0 || disc < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / (2.0 * a);
    (t >= 0.0).then_some(t)
}

fn spinning_balls<V: Space>(seed: u64) {
    let mut rng = Rng::new(seed);
    let dim = V::DIM;
    let mut hits = 0;
    for case in 0..300 {
        let (ra, rb) = (rng.range(0.1, 2.0), rng.range(0.1, 2.0));
        let pa = random_path(&mut rng, dim, 5.0);
        let mut pb = random_path(&mut rng, dim, 5.0);
        pb.linear = (pa.translation - pb.translation) * rng.range(0.2, 1.5) + pa.linear;
        if case % 3 == 0 {
            pb.linear += random_path(&mut rng, dim, 1.0).linear * 3.0;
        }
        let (a, b) =
            (Ball::<V>::new(real::<V>(ra)).unwrap(), Ball::<V>::new(real::<V>(rb)).unwrap());
        let r = time_of_impact(&a, &V::motion(&pa), &b, &V::motion(&pb), real::<V>(1.0));
        let (d, e) = (pb.translation - pa.translation, pb.linear - pa.linear);
        let slop = r.linear_slop.to_f64();
        let scale = d.length() + e.length() + ra + rb;
        let tol = V::TOL * scale;
        if d.length() <= ra + rb {
            assert_eq!(r.status, CastStatus::InitiallyOverlapping, "case {case}");
            continue;
        }
        let early = reach_gap(d, e, ra + rb + slop + tol);
        let late = reach_gap(d, e, ra + rb + slop / 2.0 - tol);
        match (r.status, early, late) {
            (CastStatus::Hit, Some(t0), _) => {
                hits += 1;
                let t1 = late.unwrap_or(1.0);
                let dt = tol / e.length().max(1e-300);
                assert!(
                    r.toi.to_f64() >= t0 - dt && r.toi.to_f64() <= t1 + dt,
                    "case {case}: toi {} outside [{t0}, {t1}]",
                    r.toi
                );
            }
            (CastStatus::NoHit, _, late) => {
                assert!(late.is_none_or(|t| t > 1.0), "case {case}: missed at {late:?}");
            }
            other => panic!("case {case}: {other:?} {r:?}"),
        }
    }
    assert!(hits > 50, "{hits}");
}

#[test]
fn spinning_balls_match_the_closed_form() {
    spinning_balls::<DVec3>(0x705);
    spinning_balls::<Vec3>(0x706);
    spinning_balls::<DVec2>(0x707);
    spinning_balls::<Vec2>(0x708);
}

fn translation_agrees_with_shape_cast<V: Space>(seed: u64) {
    let mut rng = Rng::new(seed);
    let dim = V::DIM;
    let mut hits = 0;
    for case in 0..300 {
        let points = |rng: &mut Rng| -> Vec<V> {
            (0..12).map(|_| V::vec(random_path(rng, dim, 1.0).translation)).collect()
        };
        let (a, b) =
            (Polytope::new(points(&mut rng)).unwrap(), Polytope::new(points(&mut rng)).unwrap());
        let mut pa = random_path(&mut rng, dim, 4.0);
        let mut pb = random_path(&mut rng, dim, 4.0);
        pa.angular = DVec3::ZERO;
        pb.angular = DVec3::ZERO;
        pb.linear = (pa.translation - pb.translation) * rng.range(0.3, 1.5)
            + pa.linear
            + random_path(&mut rng, dim, 1.0).linear;
        let (ma, mb) = (V::motion(&pa), V::motion(&pb));
        let r = time_of_impact(&a, &ma, &b, &mb, real::<V>(1.0));
        let cast = shape_cast(&a, &ma.start, ma.linear, &b, &mb.start, mb.linear, real::<V>(1.0));
        let speed = (pb.linear - pa.linear).length();
        let tol = V::TOL * 10.0 * (pa.translation - pb.translation).length().max(1.0);
        match cast.status {
            CastStatus::InitiallyOverlapping => {
                assert_eq!(r.status, CastStatus::InitiallyOverlapping, "case {case}: {r:?}");
            }
            CastStatus::Hit => {
                hits += 1;
                assert_eq!(r.status, CastStatus::Hit, "case {case}: {r:?} {cast:?}");
                let (t, tc) = (r.toi.to_f64(), cast.toi.to_f64());
                assert!(t <= tc + tol / speed, "case {case}: toi {t} after the cast's {tc}");
                // Early by at most the slop over the closing speed along the normal.
                let closing = -(pb.linear - pa.linear).dot(cast.normal.d());
                if closing > 0.1 * speed {
                    let slack = (r.linear_slop.to_f64() + tol) / closing;
                    assert!(t >= tc - slack, "case {case}: toi {t}, cast {tc}, slack {slack}");
                }
            }
            CastStatus::NoHit => {
                // Within the slop of touching but apart: either answer is right.
                if r.is_hit() {
                    let d = distance(&a, &ma.pose_at(r.toi), &b, &mb.pose_at(r.toi)).to_f64();
                    assert!(d <= r.linear_slop.to_f64() + tol, "case {case}: {d}");
                }
            }
            other => panic!("case {case}: cast {other:?}"),
        }
    }
    assert!(hits > 50, "{hits}");
}

#[test]
fn pure_translation_agrees_with_shape_cast() {
    translation_agrees_with_shape_cast::<DVec3>(0x709);
    translation_agrees_with_shape_cast::<Vec3>(0x70A);
    translation_agrees_with_shape_cast::<DVec2>(0x70B);
    translation_agrees_with_shape_cast::<Vec2>(0x70C);
}

// ---------------------------------------------------------------------------------------------
// Overlap, misses, degenerate and bad input

#[test]
fn initially_overlapping_reports_the_penetration() {
    let square = Cuboid::new(DVec2::ONE).unwrap();
    let a = Motion::translating(Pose::IDENTITY, DVec2::X);
    let b = Motion::stationary(Pose::from_translation(DVec2::new(1.5, 0.0)).unwrap());
    let r = time_of_impact(&square, &a, &square, &b, 1.0);
    assert_eq!(r.status, CastStatus::InitiallyOverlapping);
    assert_eq!(r.toi, 0.0);
    assert!((r.distance + 0.5).abs() < 1e-9, "{r:?}"); // overlapping by 0.5 along x
    assert!((r.normal - DVec2::X).length() < 1e-9);
    // Apart but within the slop at t = 0: a hit at once.
    let slop = ToiOptions { linear_slop: Some(0.01), ..Default::default() };
    let near = Motion::stationary(Pose::from_translation(DVec2::new(2.005, 0.0)).unwrap());
    let r = time_of_impact_with(&square, &a, &square, &near, 1.0, &slop);
    assert_eq!((r.status, r.toi), (CastStatus::Hit, 0.0));
    assert!((r.distance - 0.005).abs() < 1e-9);
}

#[test]
fn misses_are_reported_with_max_toi() {
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    // Moving apart while spinning: the bound proves they never meet.
    let a = Motion::new(Pose::IDENTITY, DVec3::new(-10.0, 0.0, 0.0), DVec3::new(0.0, 0.0, 5.0));
    let b = Motion::stationary(Pose::from_translation(DVec3::new(4.0, 0.0, 0.0)).unwrap());
    let r = time_of_impact(&cube, &a, &cube, &b, 10.0);
    assert_eq!((r.status, r.toi), (CastStatus::NoHit, 10.0), "{r:?}");
    // Approaching, but too slowly for the interval.
    let slow = Motion::translating(Pose::IDENTITY, DVec3::new(0.1, 0.0, 0.0));
    let r = time_of_impact(&cube, &slow, &cube, &b, 1.0);
    assert_eq!(r.status, CastStatus::NoHit);
    // Nothing moves: decided in one step.
    let still = Motion::stationary(Pose::IDENTITY);
    let r = time_of_impact(&cube, &still, &cube, &b, 1e30);
    assert_eq!((r.status, r.iterations), (CastStatus::NoHit, 1));
}

#[test]
fn huge_angular_velocity_is_bounded() {
    let bar = Cuboid::new(DVec3::new(2.0, 0.05, 0.05)).unwrap();
    let post = Cuboid::new(DVec3::splat(0.1)).unwrap();
    let fast = Motion::new(Pose::IDENTITY, DVec3::ZERO, DVec3::new(0.0, 0.0, 1e6));
    let post_at = Motion::stationary(Pose::from_translation(DVec3::new(0.0, 1.5, 0.0)).unwrap());
    let r = time_of_impact(&bar, &fast, &post, &post_at, 1.0);
    // It turns about 0.2 rad within the first 2e-7: contact happens almost at once; the cap
    // or a hit, with a time no later than that and no NaN.
    assert!(r.is_hit() || r.status == CastStatus::IterationCap, "{r:?}");
    assert!(r.toi >= 0.0 && r.toi < 2e-6 && r.distance.is_finite(), "{r:?}");
    assert!(r.iterations <= ToiOptions::<f64>::default().max_iterations);
    // A ball's spin moves nothing (its core is a point): as fast as without it.
    let ball = Ball::<DVec3>::new(1.0).unwrap();
    let spinning_ball = Motion::new(Pose::IDENTITY, DVec3::X, DVec3::new(3e5, -1e6, 2e4));
    let ahead = Motion::stationary(Pose::from_translation(DVec3::new(3.0, 0.0, 0.0)).unwrap());
    let r = time_of_impact(&ball, &spinning_ball, &ball, &ahead, 2.0);
    assert_eq!(r.status, CastStatus::Hit, "{r:?}");
    assert!(r.iterations <= 3 && (r.toi - 1.0).abs() <= r.linear_slop, "{r:?}");
    // Apart along z, spinning fast: the spin about z moves nothing along z, a quick miss.
    let above = Motion::stationary(Pose::from_translation(DVec3::new(0.0, 0.0, 1.0)).unwrap());
    let r = time_of_impact(&bar, &fast, &post, &above, 1.0);
    assert_eq!(r.status, CastStatus::NoHit, "{r:?}");
}

fn scaled<V: Space>(scale: f64) {
    let ball = Ball::<V>::new(real::<V>(scale)).unwrap();
    let cube = Cuboid::new(V::vec(DVec3::splat(scale))).unwrap();
    let from = Pose::from_translation(V::vec(DVec3::new(-4.0 * scale, 0.0, 0.0))).unwrap();
    let a = Motion::translating(from, V::vec(DVec3::new(4.0 * scale, 0.0, 0.0)));
    let mut b = Motion::stationary(Pose::IDENTITY);
    b.angular = V::motion(&Path {
        rotation: DQuat::IDENTITY,
        translation: DVec3::ZERO,
        linear: DVec3::ZERO,
        angular: DVec3::new(0.0, 0.0, 1.0),
    })
    .angular;
    let r = time_of_impact(&ball, &a, &cube, &b, real::<V>(1.0));
    assert_eq!(r.status, CastStatus::Hit, "scale {scale}: {r:?}");
    // The ball meets the spinning cube between its face (t = 0.5) and corner (√2 − 1 + … ≈ 0.4).
    let t = r.toi.to_f64();
    assert!(t > 0.35 && t <= 0.5, "scale {scale}: {t}");
    assert!(r.distance.to_f64() <= r.linear_slop.to_f64() && r.distance.to_f64() >= 0.0);
    assert!(r.linear_slop.to_f64() <= 2e-3 * scale && r.linear_slop.to_f64() > 0.0);
}

#[test]
fn tiny_and_huge_scales() {
    for scale in [1e-6, 1.0, 1e6] {
        scaled::<DVec3>(scale);
        scaled::<DVec2>(scale);
        scaled::<Vec3>(scale);
        scaled::<Vec2>(scale);
    }
    scaled::<DVec3>(1e-100);
    scaled::<DVec3>(1e100);
}

#[test]
fn bad_input_is_invalid_input() {
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    let fine = Motion::stationary(Pose::IDENTITY);
    let nan_linear = Motion::translating(Pose::IDENTITY, DVec3::new(f64::NAN, 0.0, 0.0));
    let nan_angular = Motion::new(Pose::IDENTITY, DVec3::ZERO, DVec3::new(0.0, f64::NAN, 0.0));
    let inf_angular = Motion::new(Pose::IDENTITY, DVec3::ZERO, DVec3::new(0.0, f64::INFINITY, 0.0));
    let spinning = Motion::new(Pose::IDENTITY, DVec3::ZERO, DVec3::Z);
    for (ma, mb, max_toi) in [
        (nan_linear, fine, 1.0),
        (fine, nan_angular, 1.0),
        (inf_angular, fine, 1.0),
        (fine, fine, -1.0),
        (fine, fine, f64::NAN),
        (spinning, fine, f64::INFINITY), // the angle over the interval is not finite
        (spinning, fine, 1e308 * 10.0),
    ] {
        let r = time_of_impact(&cube, &ma, &cube, &mb, max_toi);
        assert_eq!(r.status, CastStatus::InvalidInput, "{ma:?} {mb:?} {max_toi}");
        assert_eq!((r.toi, r.normal), (0.0, DVec3::ZERO));
    }
    let r = time_of_impact(
        &Cuboid::new(Vec2::ONE).unwrap(),
        &Motion::new(Pose::IDENTITY, Vec2::ZERO, f32::NAN),
        &Cuboid::new(Vec2::ONE).unwrap(),
        &Motion::stationary(Pose::IDENTITY),
        1.0,
    );
    assert_eq!(r.status, CastStatus::InvalidInput);
    // An infinite interval without rotation is fine.
    let far = Motion::stationary(Pose::from_translation(DVec3::new(10.0, 0.0, 0.0)).unwrap());
    let r = time_of_impact(
        &cube,
        &Motion::translating(Pose::IDENTITY, DVec3::X),
        &cube,
        &far,
        f64::INFINITY,
    );
    assert_eq!(r.status, CastStatus::Hit, "{r:?}");
    assert!((r.toi - 8.0).abs() < 0.01);
}

#[test]
fn a_small_cap_reports_iteration_cap_with_a_lower_bound() {
    let bar = Cuboid::new(DVec2::new(2.0, 0.05)).unwrap();
    let post = Cuboid::new(DVec2::new(0.1, 0.1)).unwrap();
    let spin = Motion::new(Pose::IDENTITY, DVec2::ZERO, std::f64::consts::PI);
    let fixed = Motion::stationary(Pose::from_translation(DVec2::new(0.0, 1.5)).unwrap());
    let full = time_of_impact(&bar, &spin, &post, &fixed, 1.0);
    let capped = ToiOptions { max_iterations: 2, ..Default::default() };
    let r = time_of_impact_with(&bar, &spin, &post, &fixed, 1.0, &capped);
    assert_eq!((r.status, r.iterations), (CastStatus::IterationCap, 2));
    assert!(r.toi > 0.0 && r.toi < full.toi, "{r:?} {full:?}");
}
