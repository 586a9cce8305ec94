//! Shared test support: a deterministic PRNG, an independent brute-force oracle for the distance
//! between convex hulls of point sets, and the harness that checks a library query against it.
//!
//! Nothing here calls the library's algorithms (`gjk.rs`, `simplex.rs`): the oracle is written
//! from the definitions. The library is only used to *build* the shapes and poses under test and
//! to read back their data (vector components, a pose's rotation and translation).
//!
//! # The oracle (Carathéodory)
//! With `P = {aᵢ − bⱼ}` the vertices of the Minkowski difference `A − B`, the shapes intersect iff
//! the origin lies in `conv P`, and by Carathéodory's theorem iff it lies in a simplex of at most
//! `d + 1` points of `P`. When it does not, the closest point `q*` of `conv P` lies in the relative
//! interior of a face spanned by at most `d` affinely independent points of `P`, and is the
//! orthogonal projection of the origin onto that face's affine hull. So:
//! * `contains` = some `(d+1)`-subset is a non-degenerate simplex whose barycentric coordinates of
//!   the origin are all `≥ 0` (signed volumes, Cramer's rule);
//! * `distance` = the minimum, over all subsets of at most `d` points, of `|q|` where `q` is the
//!   projection of the origin onto the subset's affine hull, kept when its barycentric
//!   coordinates are (nearly) non-negative.
//!
//! Robustness of the minimum: each kept candidate is re-evaluated as `q = Σ λᵢ pᵢ` with the
//! weights clamped to `≥ 0` and renormalised, so every candidate is a genuine point of `conv P`
//! and can never undercut the true distance by more than the rounding of that sum; the optimal
//! face's candidate is exact to second order (the projection minimises `|q|` on the face's
//! plane, so an in-plane error changes `|q|` only quadratically). As a self-check the harness
//! verifies the optimality certificate `min_p p·q ≥ |q|²` of the best candidate.
#![allow(dead_code)]

use gjk::{
    GjkOptions, GjkResult, Goal, Pair, Pose, Proximity, Real, Rotation2, Support, Termination,
    Vector, WarmStart,
};
use glam::{DQuat, DVec2, DVec3, Quat, Vec2, Vec3};

// ---------------------------------------------------------------------------------------------
// The general path
// ---------------------------------------------------------------------------------------------

/// A shape that answers support queries only (no closed forms: no core point, box or polygon),
/// so queries on it take the general GJK and EPA path: the oracle for the shortcuts.
pub struct SupportOnly<'a, S: ?Sized>(pub &'a S);

impl<V: Vector, S: Support<V> + ?Sized> Support<V> for SupportOnly<'_, S> {
    fn support(&self, dir: V) -> V {
        self.0.support(dir)
    }
    fn center(&self) -> V {
        self.0.center()
    }
}

/// A shape seen through its support function only: the same geometry (support, margin,
/// centre, extent), but a general core, so no query or ray cast takes a shortcut on it (the
/// oracle of the dispatch and closed-form ray cast tests).
pub struct GeneralCore<'a, V>(pub &'a dyn Support<V>);

impl<V: Vector> Support<V> for GeneralCore<'_, V> {
    fn support(&self, dir: V) -> V {
        self.0.support(dir)
    }
    fn margin(&self) -> V::Real {
        self.0.margin()
    }
    fn center(&self) -> V {
        self.0.center()
    }
    fn extent(&self) -> V::Real {
        self.0.extent()
    }
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------------------------

/// The shared generator (SplitMix64, in `gjk-testkit`): `new`, `unit`, `range`, `below`, `chance`.
pub use gjk_testkit::SplitMix64 as Rng;

/// The draws of glam vectors and rotations the tests need, on top of [`Rng`]'s scalar draws.
pub trait Draw {
    /// A point uniform in the cube `[-h, h]^dim` (z = 0 in 2D).
    fn in_cube(&mut self, dim: usize, h: f64) -> DVec3;
    /// A unit vector, uniform on the circle (dim 2, z = 0) or sphere (dim 3).
    fn direction(&mut self, dim: usize) -> DVec3;
    /// A random rotation: about z in 2D, uniform (Shoemake) in 3D.
    fn rotation(&mut self, dim: usize) -> DQuat;
}

impl Draw for Rng {
    fn in_cube(&mut self, dim: usize, h: f64) -> DVec3 {
        let z = if dim == 3 { self.range(-h, h) } else { 0.0 };
        DVec3::new(self.range(-h, h), self.range(-h, h), z)
    }
    fn direction(&mut self, dim: usize) -> DVec3 {
        loop {
            let p = self.in_cube(dim, 1.0);
            let l = p.length();
            if l > 0.1 && l <= 1.0 {
                return p / l;
            }
        }
    }
    fn rotation(&mut self, dim: usize) -> DQuat {
        if dim == 2 {
            return DQuat::from_rotation_z(self.angle());
        }
        DQuat::from_array(self.rotation3()).normalize()
    }
}

/// The number of random cases for a family: `default`, or `GJK_ORACLE_CASES` × default / 1000
/// when that environment variable is set (`GJK_ORACLE_CASES=20000` runs 20× the default).
pub fn case_count(default: usize) -> usize {
    match std::env::var("GJK_ORACLE_CASES").ok().and_then(|s| s.parse::<usize>().ok()) {
        Some(n) => (default * n / 1000).max(1),
        None => default,
    }
}

// ---------------------------------------------------------------------------------------------
// The oracle
// ---------------------------------------------------------------------------------------------

/// What the oracle knows about the origin and `conv P`.
#[derive(Clone, Copy, Debug)]
pub struct HullQuery {
    /// The origin lies in a non-degenerate simplex of `d + 1` points of `P`.
    pub contains: bool,
    /// A lower bound of the origin's depth inside `conv P` (0 when not contained): its distance
    /// to the nearest facet of the deepest containing simplex found.
    pub depth: f64,
    /// The smallest `|q|` over all faces of at most `d` points (meaningful when `!contains`).
    pub face_distance: f64,
    /// The best candidate `q` (the closest point of `conv P` when `!contains`).
    pub closest: DVec3,
    /// The unit direction of `closest` (see `project_origin`), zero when `closest` is.
    pub direction: DVec3,
    /// `max |p|` over `P`: the scale the tolerances are relative to.
    pub scale: f64,
}

impl HullQuery {
    /// The distance from the origin to `conv P`: 0 when contained.
    pub fn distance(&self) -> f64 {
        if self.contains {
            0.0
        } else {
            self.face_distance
        }
    }
}

/// Projects the origin onto the affine hull of `pts` (1 to 3 points); `None` when the points
/// are affinely dependent or the projection falls outside their convex hull. The result is
/// re-evaluated as a clamped convex combination, hence always a point of `conv(pts)`.
///
/// Also returns the unit direction of `q`. For a triangle whose interior holds the projection,
/// that is the triangle's normal, and for an edge in the xy plane its in-plane normal: exact to
/// rounding even when `q` is tiny and its own rounding error would tilt `q/|q|`.
fn project_origin(pts: &[DVec3]) -> Option<(DVec3, DVec3)> {
    let p0 = pts[0];
    let lambdas: [f64; 3] = match pts.len() {
        1 => return Some((p0, p0.normalize_or_zero())),
        2 => {
            let e = pts[1] - p0;
            let ee = e.dot(e);
            if ee <= 0.0 {
                return None;
            }
            let mu = -p0.dot(e) / ee;
            [1.0 - mu, mu, 0.0]
        }
        3 => {
            // Normal equations G μ = r with G = [eᵢ·eⱼ], r = [−p0·eᵢ], by Cramer's rule.
            let (e1, e2) = (pts[1] - p0, pts[2] - p0);
            let (g11, g12, g22) = (e1.dot(e1), e1.dot(e2), e2.dot(e2));
            let (r1, r2) = (-p0.dot(e1), -p0.dot(e2));
            let det = g11 * g22 - g12 * g12;
            if det <= 1e-14 * g11 * g22 {
                return None; // (nearly) collinear: its edges are enumerated separately
            }
            let mu1 = (r1 * g22 - r2 * g12) / det;
            let mu2 = (g11 * r2 - g12 * r1) / det;
            [1.0 - mu1 - mu2, mu1, mu2]
        }
        _ => unreachable!("faces have at most 3 points"),
    };
    let k = pts.len();
    if lambdas[..k].iter().any(|&l| l < -1e-9) {
        return None;
    }
    let clamped: Vec<f64> = lambdas[..k].iter().map(|&l| l.max(0.0)).collect();
    let sum: f64 = clamped.iter().sum();
    let q = pts.iter().zip(&clamped).fold(DVec3::ZERO, |q, (p, l)| q + *p * (l / sum));
    let normal = (pts[1] - p0).cross(pts.get(2).map_or(DVec3::ZERO, |p2| *p2 - p0));
    let in_xy_plane = pts.iter().all(|p| p.z == 0.0);
    let direction = if k == 3 && lambdas.iter().all(|&l| l > 0.0) && normal.dot(p0) != 0.0 {
        normal.normalize() * normal.dot(p0).signum()
    } else if k == 2 && in_xy_plane && lambdas[..2].iter().all(|&l| l > 0.0) {
        // An edge in the plane (2D): its in-plane normal, facing away from the origin.
        let e = pts[1] - p0;
        let perp = DVec3::new(-e.y, e.x, 0.0).normalize_or_zero();
        perp * perp.dot(p0).signum()
    } else {
        q.normalize_or_zero()
    };
    Some((q, direction))
}

/// Whether the origin lies in the simplex `pts` (`dim + 1` points), by the signs of the
/// signed volumes with the origin substituted for each vertex (Cramer's rule); if it does, the
/// origin's distance to the simplex's nearest facet (a lower bound of its depth in `conv P`).
/// Degenerate simplices answer `None`: their faces are covered by the face enumeration.
fn simplex_contains_origin(pts: &[DVec3], dim: usize) -> Option<f64> {
    let vol = |p: &[DVec3]| -> f64 {
        if dim == 2 {
            (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[1].y - p[0].y) * (p[2].x - p[0].x)
        } else {
            (p[1] - p[0]).dot((p[2] - p[0]).cross(p[3] - p[0]))
        }
    };
    let total = vol(pts);
    let scale = pts.iter().map(|p| p.length()).fold(0.0, f64::max);
    if total.abs() <= 1e-13 * scale.powi(dim as i32) {
        return None;
    }
    let mut q = [DVec3::ZERO; 4];
    q[..=dim].copy_from_slice(&pts[..=dim]);
    let mut depth = f64::INFINITY;
    for i in 0..=dim {
        let saved = q[i];
        q[i] = DVec3::ZERO;
        let c = vol(&q[..=dim]);
        q[i] = saved;
        if c * total.signum() < 0.0 {
            return None;
        }
        // The facet opposite vertex i: its length (2D) or twice its area (3D).
        let facet: Vec<DVec3> = (0..=dim).filter(|&j| j != i).map(|j| pts[j]).collect();
        let measure = if dim == 2 {
            (facet[1] - facet[0]).length()
        } else {
            (facet[1] - facet[0]).cross(facet[2] - facet[0]).length()
        };
        depth = depth.min(c.abs() / measure);
    }
    Some(depth)
}

/// The oracle: the origin against `conv(points)` in dimension `dim` (2: z ignored, must be 0).
///
/// The Carathéodory search is skipped when the best face candidate `q` already proves the
/// origin outside (`p·q > 0` for every `p`: a plane through the origin has all of `P` strictly on
/// one side); [`origin_to_hull_exhaustive`] always searches, and a test checks the two agree.
pub fn origin_to_hull(points: &[DVec3], dim: usize) -> HullQuery {
    let scale = points.iter().map(|p| p.length()).fold(0.0, f64::max);
    origin_to_hull_with(points, dim, false, 1e-3 * scale)
}

/// [`origin_to_hull`], stopping the Carathéodory search once the origin is found `enough` deep.
pub fn origin_to_hull_until(points: &[DVec3], dim: usize, enough: f64) -> HullQuery {
    origin_to_hull_with(points, dim, false, enough)
}

/// [`origin_to_hull`] without the shortcut.
pub fn origin_to_hull_exhaustive(points: &[DVec3], dim: usize) -> HullQuery {
    origin_to_hull_with(points, dim, true, f64::INFINITY)
}

/// The distance from the origin to `conv(points)` when a plane through the origin has every
/// point strictly on one side (the origin is outside); `None` otherwise (inside, on the
/// boundary, or within rounding of it). The first stage of the oracle alone: the closest face
/// candidate, and the check that its direction separates.
pub fn origin_separation(points: &[DVec3], dim: usize) -> Option<f64> {
    let (distance, _, direction) = closest_face(points, dim);
    let separated = distance > 0.0 && points.iter().all(|p| p.dot(direction) > 0.0);
    separated.then_some(distance)
}

/// The smallest `|q|` over the faces of at most `dim` points, with `q` and its direction.
fn closest_face(points: &[DVec3], dim: usize) -> (f64, DVec3, DVec3) {
    let n = points.len();
    let mut best = (f64::INFINITY, DVec3::ZERO, DVec3::ZERO);
    let mut consider = |q: Option<(DVec3, DVec3)>| {
        if let Some((q, direction)) = q {
            let l = q.length();
            if l < best.0 {
                best = (l, q, direction);
            }
        }
    };
    for i in 0..n {
        consider(project_origin(&[points[i]]));
        for j in i + 1..n {
            consider(project_origin(&[points[i], points[j]]));
            if dim == 3 {
                for k in j + 1..n {
                    consider(project_origin(&[points[i], points[j], points[k]]));
                }
            }
        }
    }
    best
}

fn origin_to_hull_with(points: &[DVec3], dim: usize, exhaustive: bool, enough: f64) -> HullQuery {
    // The face projections multiply four lengths (Gram determinants), which overflow beyond
    // about 1e77 and lose digits to subnormals below 1e-77: solve at unit size. A power of two
    // scales exactly, so the answers are those of the points as given.
    let scale = points.iter().map(|p| p.length()).fold(0.0, f64::max);
    if scale > 0.0 && scale.is_finite() && !(1e-30..=1e30).contains(&scale) {
        let unit = 2f64.powi((-scale.log2().round() as i32).clamp(-1000, 1000));
        let scaled: Vec<DVec3> = points.iter().map(|p| *p * unit).collect();
        let q = origin_to_hull_with(&scaled, dim, exhaustive, enough * unit);
        return HullQuery {
            depth: q.depth / unit,
            face_distance: q.face_distance / unit,
            closest: q.closest / unit,
            scale: q.scale / unit,
            ..q
        };
    }
    let n = points.len();
    let best = closest_face(points, dim);
    let mut contains = false;
    let separated = best.0 > 0.0 && points.iter().all(|p| p.dot(best.2) > 0.0);
    if separated && !exhaustive {
        return HullQuery {
            contains,
            depth: 0.0,
            face_distance: best.0,
            closest: best.1,
            direction: best.2,
            scale,
        };
    }
    // Keep the deepest containing simplex seen; stop once the origin is `enough` deep.
    let mut depth = 0.0f64;
    let mut see = |found: Option<f64>| {
        if let Some(d) = found {
            contains = true;
            depth = depth.max(d);
        }
        depth > enough
    };
    'search: for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                if dim == 2 {
                    if see(simplex_contains_origin(&[points[i], points[j], points[k]], 2)) {
                        break 'search;
                    }
                    continue;
                }
                for l in k + 1..n {
                    let s = [points[i], points[j], points[k], points[l]];
                    if see(simplex_contains_origin(&s, 3)) {
                        break 'search;
                    }
                }
            }
        }
    }
    HullQuery { contains, depth, face_distance: best.0, closest: best.1, direction: best.2, scale }
}

/// The distance from `p` to `conv(hull)` (0 inside).
pub fn point_to_hull(p: DVec3, hull: &[DVec3], dim: usize) -> f64 {
    let shifted: Vec<DVec3> = hull.iter().map(|h| *h - p).collect();
    origin_to_hull(&shifted, dim).distance()
}

/// The vertex set of the Minkowski difference `A − B`.
pub fn minkowski_difference(a: &[DVec3], b: &[DVec3]) -> Vec<DVec3> {
    a.iter().flat_map(|&p| b.iter().map(move |&q| p - q)).collect()
}

// ---------------------------------------------------------------------------------------------
// Bridging the library's types and the f64 oracle
// ---------------------------------------------------------------------------------------------

/// The four vector types under test, with their pose constructors.
pub trait TestVector: Vector {
    /// `f64` vectors are checked against `TOL_F64`, `f32` ones against `TOL_F32`.
    const DISTANCE_TOLERANCE: f64;
    const NAME: &'static str;
    /// A pose from an f64 rotation (about z in 2D) and translation, rounded to this precision.
    fn pose(rotation: DQuat, translation: DVec3) -> Pose<Self>;
    /// The rotation the library actually holds, as an exact-as-possible f64 unit quaternion.
    fn rotation_of(pose: &Pose<Self>) -> DQuat;
}

/// f64 distances must match the oracle within this fraction of the scale.
pub const TOL_F64: f64 = 1e-9;
/// f32 distances must match the f64 oracle within this fraction of the scale.
pub const TOL_F32: f64 = 1e-4;

pub fn to_d<V: Vector>(v: V) -> DVec3 {
    DVec3::new(v.component(0).to_f64(), v.component(1).to_f64(), v.component(2).to_f64())
}

pub fn from_d<V: Vector>(p: DVec3) -> V {
    let r = |x: f64| V::Real::from_f64(x);
    V::from_components([r(p.x), r(p.y), r(p.z)])
}

fn angle_of(q: DQuat) -> f64 {
    2.0 * q.z.atan2(q.w)
}

impl TestVector for DVec2 {
    const DISTANCE_TOLERANCE: f64 = TOL_F64;
    const NAME: &'static str = "DVec2";
    fn pose(rotation: DQuat, translation: DVec3) -> Pose<Self> {
        Pose::<DVec2>::from_angle_translation(angle_of(rotation), from_d(translation)).unwrap()
    }
    fn rotation_of(pose: &Pose<Self>) -> DQuat {
        let r: Rotation2<f64> = pose.rotation();
        DQuat::from_rotation_z(r.sin.atan2(r.cos))
    }
}

impl TestVector for Vec2 {
    const DISTANCE_TOLERANCE: f64 = TOL_F32;
    const NAME: &'static str = "Vec2";
    fn pose(rotation: DQuat, translation: DVec3) -> Pose<Self> {
        Pose::<Vec2>::from_angle_translation(angle_of(rotation) as f32, from_d(translation))
            .unwrap()
    }
    fn rotation_of(pose: &Pose<Self>) -> DQuat {
        let r: Rotation2<f32> = pose.rotation();
        DQuat::from_rotation_z((r.sin as f64).atan2(r.cos as f64))
    }
}

impl TestVector for DVec3 {
    const DISTANCE_TOLERANCE: f64 = TOL_F64;
    const NAME: &'static str = "DVec3";
    fn pose(rotation: DQuat, translation: DVec3) -> Pose<Self> {
        Pose::new(rotation, translation).unwrap()
    }
    fn rotation_of(pose: &Pose<Self>) -> DQuat {
        pose.rotation().normalize()
    }
}

impl TestVector for Vec3 {
    const DISTANCE_TOLERANCE: f64 = TOL_F32;
    const NAME: &'static str = "Vec3";
    fn pose(rotation: DQuat, translation: DVec3) -> Pose<Self> {
        let q = Quat::from_xyzw(
            rotation.x as f32,
            rotation.y as f32,
            rotation.z as f32,
            rotation.w as f32,
        );
        Pose::new(q, from_d(translation)).unwrap()
    }
    fn rotation_of(pose: &Pose<Self>) -> DQuat {
        let q = pose.rotation();
        DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64).normalize()
    }
}

/// `p` (a world point) in the frame of `pose`, in f64.
pub fn to_local<V: TestVector>(pose: &Pose<V>, p: DVec3) -> DVec3 {
    V::rotation_of(pose).conjugate() * (p - to_d(pose.translation()))
}

/// `p` (a local point of `pose`'s frame) in the world, in f64.
pub fn to_world<V: TestVector>(pose: &Pose<V>, p: DVec3) -> DVec3 {
    V::rotation_of(pose) * p + to_d(pose.translation())
}

/// `p`, a local point of body B, seen in A's frame (computed as the relative motion, so huge
/// common offsets cancel before they can round anything).
pub fn b_in_a<V: TestVector>(pose_a: &Pose<V>, pose_b: &Pose<V>, p: DVec3) -> DVec3 {
    let qa_inv = V::rotation_of(pose_a).conjugate();
    let rel_t = qa_inv * (to_d(pose_b.translation()) - to_d(pose_a.translation()));
    (qa_inv * V::rotation_of(pose_b)) * p + rel_t
}

/// A posed shape whose geometry is the convex hull of known vertices.
pub struct Body<V: TestVector> {
    pub shape: Box<dyn Support<V>>,
    /// The hull's vertices in the shape's local frame, exactly as the library holds them.
    pub vertices: Vec<DVec3>,
    pub pose: Pose<V>,
}

impl<V: TestVector> Body<V> {
    /// A `Polytope` of `points` (rounded to the precision of `V`) at `pose`.
    pub fn polytope(points: &[DVec3], pose: Pose<V>) -> Self {
        let pts: Vec<V> = points.iter().map(|&p| from_d(p)).collect();
        let vertices = pts.iter().map(|&p| to_d(p)).collect();
        Self { shape: Box::new(gjk::Polytope::new(pts).unwrap()), vertices, pose }
    }

    /// Any shape whose hull is `vertices` (given in f64, already representable in `V`).
    pub fn new(shape: impl Support<V> + 'static, vertices: Vec<DVec3>, pose: Pose<V>) -> Self {
        Self { shape: Box::new(shape), vertices, pose }
    }

    /// The largest local coordinate magnitude: what the rounding of the shape's data scales with.
    fn magnitude(&self) -> f64 {
        self.vertices.iter().map(|p| p.length()).fold(0.0, f64::max)
    }
}

// ---------------------------------------------------------------------------------------------
// The harness
// ---------------------------------------------------------------------------------------------

/// What a family expects beyond agreement with the oracle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Expect {
    /// Only agreement with the oracle.
    Oracle,
    /// Exactly touching or overlapping by construction: must report intersecting.
    Intersecting,
    /// Separated by exactly this distance by construction.
    Gap(f64),
}

/// Running statistics of a family, printed at the end of each test.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub cases: usize,
    pub intersecting: usize,
    pub separated: usize,
    pub in_band: usize,
    /// Cases in the band where `intersects()` and `distance() == 0` disagreed (allowed there).
    pub band_disagreements: usize,
    /// Worst |distance − oracle| / tolerance over separated cases (must stay ≤ 1).
    pub worst_distance: f64,
    /// Worst closest-point error / tolerance (on the shapes, `distance` apart).
    pub worst_points: f64,
    /// Worst |distance error| / scale seen where the input's rounding is negligible.
    pub worst_relative: f64,
    pub max_iterations: u32,
    pub total_iterations: u64,
}

impl Stats {
    pub fn report(&self, family: &str) {
        eprintln!(
            "[{family}] cases {} (intersecting {}, separated {}, in tolerance band {} with {} \
             intersects()/distance() disagreements); worst distance error {:.3e} of tolerance ({:.3e} of scale); worst point error {:.3e} of \
             tolerance; iterations mean {:.2} max {}",
            self.cases,
            self.intersecting,
            self.separated,
            self.in_band,
            self.band_disagreements,
            self.worst_distance,
            self.worst_relative,
            self.worst_points,
            self.total_iterations as f64 / self.cases.max(1) as f64,
            self.max_iterations
        );
    }

    pub fn merge(&mut self, other: &Stats) {
        self.cases += other.cases;
        self.intersecting += other.intersecting;
        self.separated += other.separated;
        self.in_band += other.in_band;
        self.band_disagreements += other.band_disagreements;
        self.worst_distance = self.worst_distance.max(other.worst_distance);
        self.worst_points = self.worst_points.max(other.worst_points);
        self.worst_relative = self.worst_relative.max(other.worst_relative);
        self.max_iterations = self.max_iterations.max(other.max_iterations);
        self.total_iterations += other.total_iterations;
    }
}

fn finite(p: DVec3) -> bool {
    p.is_finite()
}

/// Checks every query of the library on `a`, `b` against the oracle; panics with `label` and
/// the numbers on any disagreement.
///
/// Tolerances (`tol` = 1e-9 for f64, 1e-4 for f32; `scale` = max |aᵢ − bⱼ| in A's frame; `M` =
/// the largest coordinate magnitude of the relative geometry (local points, B's offset from A),
/// since no result can be finer than the input's rounding):
/// * distance: `|d − d*| ≤ tol·scale + 64·ε·M`;
/// * with `ρ = 8·ε·M` the rounding of the relative geometry: the pair must be reported
///   separated when `d* − ρ > band_hi = tol/2·scale` (f64: 5e-10·scale, 5× the library's 1e-10
///   touching tolerance; f32: 5e-5 vs 1.2e-5), intersecting when `d* + ρ ≤ band_lo = 0.1 × the
///   library's touching tolerance`; in between either answer is fine (the distance must still
///   match) and `intersects()` may disagree with `distance() == 0` (counted, not failed);
/// * closest points within the same tolerance of their hulls and `distance` apart along the unit
///   normal.
pub fn check_pair<V: TestVector>(
    a: &Body<V>,
    b: &Body<V>,
    expect: Expect,
    label: &str,
    stats: &mut Stats,
) {
    let dim = V::DIM;
    let eps = V::Real::EPSILON.to_f64();
    let tol = V::DISTANCE_TOLERANCE;
    let b_vertices: Vec<DVec3> = b.vertices.iter().map(|&p| b_in_a(&a.pose, &b.pose, p)).collect();
    let difference = minkowski_difference(&a.vertices, &b_vertices);
    let scale = difference.iter().map(|p| p.length()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    // Queries run in A's frame: distances can be as fine as the relative geometry (local
    // coordinates, B's offset from A), world points only as fine as the world coordinates.
    let (ta, tb) = (to_d(a.pose.translation()), to_d(b.pose.translation()));
    let relative_magnitude = a.magnitude().max(b.magnitude()).max((tb - ta).length()).max(scale);
    let world_magnitude = relative_magnitude.max(ta.length()).max(tb.length());
    let rounding = 8.0 * eps * relative_magnitude;
    let slack = 8.0 * rounding;
    let dist_tol = tol * scale + slack;
    let point_tol = tol * scale + 64.0 * eps * world_magnitude;
    let library_touch = (V::Real::DEFAULT_TOLERANCE.to_f64() + 16.0 * eps) * scale;
    let band_lo = 0.1 * library_touch;
    let band_hi = 0.5 * tol * scale;
    let oracle = origin_to_hull_until(&difference, dim, 2.0 * (rounding + band_lo));
    let expected = oracle.distance();

    // Self-check of the oracle: the best face candidate of a separated pair is optimal, i.e.
    // the plane normal to q̂ at distance |q| supports conv P: `p·q̂ ≥ |q|` for every p (within
    // the distance tolerance and the rounding of q̂: a direction computed from points of size
    // `scale` is only known to ~64 ε·scale/|q| radians when it is not a face normal).
    if !oracle.contains && expected > 1e-12 * scale {
        let (q, n) = (oracle.closest, oracle.direction);
        let worst = minkowski_difference(&a.vertices, &b_vertices)
            .iter()
            .map(|p| p.dot(n))
            .fold(f64::INFINITY, f64::min);
        assert!(
            worst >= q.length() - dist_tol - 64.0 * f64::EPSILON * scale * scale / q.length(),
            "{label}: oracle's optimality certificate failed ({worst:e} < {:e}); q = {q:?}, A = \
             {:?}, B = {:?}",
            q.length(),
            a.vertices,
            b_vertices
        );
    }

    let pair = Pair::new(&*a.shape, a.pose, &*b.shape, b.pose);
    let options = GjkOptions::default();
    let r: GjkResult<V> = pair.gjk(Goal::Distance, &options, &mut WarmStart::default());
    let quick = pair.intersects();
    let dist = pair.distance().to_f64();
    let d = r.distance.to_f64();
    let context = || {
        format!(
            "{label} [{}]: oracle distance {expected:e} (contains {}), library {:?} distance {d:e} \
             intersecting {} (intersects() {quick}), iterations {} ended {:?}, scale {scale:e}",
            V::NAME,
            oracle.contains,
            r.termination,
            r.intersecting,
            r.iterations,
            r.termination
        )
    };
    stats.cases += 1;
    stats.total_iterations += u64::from(r.iterations);
    stats.max_iterations = stats.max_iterations.max(r.iterations);

    assert!(d.is_finite() && dist.is_finite(), "non-finite distance: {}", context());
    assert!(
        finite(to_d(r.point_a)) && finite(to_d(r.point_b)) && finite(to_d(r.normal)),
        "NaN: {}",
        context()
    );
    assert_ne!(
        r.termination,
        Termination::IterationCap,
        "iteration cap on a polytope: {}",
        context()
    );
    assert_eq!(d, dist, "distance() differs from gjk(Distance): {}", context());
    assert_eq!(r.intersecting, d == 0.0, "intersecting flag vs distance 0: {}", context());

    match expect {
        Expect::Oracle => {}
        Expect::Intersecting => {
            // Constructions are exact up to the rounding of the poses (world coordinates).
            assert!(expected <= band_lo + point_tol, "construction should touch: {}", context());
        }
        Expect::Gap(g) => {
            assert!((expected - g).abs() <= point_tol, "construction gap {g:e}: {}", context());
        }
    }

    // Must intersect: touching within a tenth of the library's tolerance, or overlapping deeper
    // than the rounding of the input can undo.
    if expected + rounding <= band_lo || oracle.depth > rounding + band_lo {
        stats.intersecting += 1;
        assert!(r.intersecting && quick, "must intersect: {}", context());
        return;
    }
    if expected - rounding <= band_hi {
        stats.in_band += 1;
        if quick != r.intersecting {
            stats.band_disagreements += 1;
        }
        if r.intersecting {
            return;
        }
    } else {
        stats.separated += 1;
        assert!(!r.intersecting && !quick, "must be separated: {}", context());
    }

    let error = (d - expected).abs();
    stats.worst_distance = stats.worst_distance.max(error / dist_tol);
    if slack <= 0.1 * tol * scale {
        stats.worst_relative = stats.worst_relative.max(error / scale);
    }
    assert!(error <= dist_tol, "distance off by {error:e} > {dist_tol:e}: {}", context());

    // Closest points, in A's frame.
    let pa = to_local(&a.pose, to_d(r.point_a));
    let pb = to_local(&a.pose, to_d(r.point_b));
    let n = V::rotation_of(&a.pose).conjugate() * to_d(r.normal);
    let on_a = point_to_hull(pa, &a.vertices, dim);
    let on_b = point_to_hull(pb, &b_vertices, dim);
    let apart = (pb - pa - n * d).length();
    let unit = (n.length() - 1.0).abs();
    let worst_point = (on_a.max(on_b).max(apart) / point_tol).max(unit / (16.0 * eps + tol));
    stats.worst_points = stats.worst_points.max(worst_point);
    assert!(
        worst_point <= 1.0,
        "closest points: off A {on_a:e}, off B {on_b:e}, |pb − pa − d n| {apart:e}, |n| − 1 = \
         {unit:e} (tolerance {point_tol:e}): {}",
        context()
    );
    // The normal is the unique direction from A to B: −q*/|q*| (meaningful when d* ≫ rounding).
    if expected > 1e3 * point_tol {
        let truth = -oracle.direction;
        let off = (n - truth).length();
        assert!(off <= 1e3 * point_tol / expected, "normal off by {off:e}: {}", context());
    }

    let prox = pair.closest_points();
    match prox {
        Proximity::Separated(s) => {
            assert_eq!(s.distance.to_f64(), d, "closest_points() distance: {}", context());
            assert_eq!(to_d(s.point_a), to_d(r.point_a), "closest_points() point: {}", context());
        }
        Proximity::Intersecting => panic!("closest_points() says intersecting: {}", context()),
    }
}

/// Compass search for a minimum of `cost` over two parameters, the oracles' refinement of a
/// grid's best cell: from `start` (its cost `start_cost`) it tries a step along each of
/// `moves`, keeps the first that lowers the cost, and halves the step when none does, down to
/// `min_step`. `clamp` keeps the parameters in their domain.
pub fn compass_search(
    cost: impl Fn((f64, f64)) -> f64,
    (start, start_cost): ((f64, f64), f64),
    step: f64,
    min_step: f64,
    moves: &[(f64, f64)],
    clamp: impl Fn((f64, f64)) -> (f64, f64),
) -> ((f64, f64), f64) {
    let mut best = (start, start_cost);
    let mut step = step;
    while step > min_step {
        let mut moved = false;
        for (dx, dy) in moves {
            let u = clamp((best.0 .0 + dx * step, best.0 .1 + dy * step));
            let c = cost(u);
            if c < best.1 {
                best = (u, c);
                moved = true;
            }
        }
        if !moved {
            step *= 0.5;
        }
    }
    best
}

/// The minimum of a convex function on `[0, 1]` by golden-section search (200 steps, then the
/// ends and the bracket's middle): an oracle for distances along a segment.
#[allow(dead_code)]
pub fn golden_minimum(g: impl Fn(f64) -> f64) -> f64 {
    g(0.0).min(g(1.0)).min(g(golden_argmin(0.0, 1.0, &g)))
}

/// Where a function unimodal on `[lo, hi]` is smallest, by golden-section search (200 steps,
/// the bracket's middle).
#[allow(dead_code)]
pub fn golden_argmin(mut lo: f64, mut hi: f64, g: impl Fn(f64) -> f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..200 {
        let (m1, m2) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
        if g(m1) <= g(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    0.5 * (lo + hi)
}
