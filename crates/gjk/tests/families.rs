//! Hard configurations against the brute-force oracle (see `common`), each built so its answer
//! is also known by construction:
//!
//! * `vertex contact`: B's vertex on A's support point along a random direction, B beyond it;
//! * `box contact`: axis-aligned boxes (as `Cuboid` or as a `Polytope` of corners) in face,
//!   edge and corner contact — coplanar faces and parallel edges — also with B turned about the
//!   contact normal;
//! * `segments`: parallel, crossing and collinear segments (as `Segment` or as a `Polytope` of
//!   collinear points);
//! * `flat` (3D): coplanar triangles (`Triangle` or `Polytope`), a segment piercing or hovering
//!   over a triangle, parallel plates;
//! * `repeated`: point sets with duplicated points, a single point repeated;
//! * `inside`: one shape inside the other; `identical`: the same shape twice.
//!
//! Each scene is run at gaps `0` (touching: must intersect) and `g × scale` with
//! g ∈ {1e-9, 1e-6, 1e-2, 0.3} in f64 and g ∈ {1e-3, 0.3} in f32 (must be separated by that
//! distance), at scale 1 and 1e-6 (tiny), under five placements: identity poses, one common
//! random pose, independent random poses (B's points re-expressed in its own frame), huge
//! offsets (1e6) applied through the poses, and huge coordinates in the points themselves (1e6 in
//! f64; 1e3 in f32, whose ulp at 1e6 is 0.06).
//! With `SEEDS` = 8 random instances per scene the default run checks 5,440 pairs: 1,440 2D f64,
//! 960 2D f32, 1,840 3D f64, 1,200 3D f32 (each family prints its counts and worst errors).

use crate::common;

use common::{case_count, check_pair, to_d, Body, Draw, Expect, Rng, Stats, TestVector};
use gjk::{Cuboid, Segment, Triangle};
use glam::{DQuat, DVec2, DVec3, Vec2, Vec3};

/// Random instances per scene, gap, scale and placement.
const SEEDS: usize = 8;

/// A shape in the scene frame.
#[derive(Clone, Debug)]
enum Geometry {
    Cloud(Vec<DVec3>),
    /// An axis-aligned box turned by `rotation` and centred at `center`; `as_polytope` builds it
    /// as the hull of its corners instead of a `Cuboid`.
    Box {
        half: DVec3,
        center: DVec3,
        rotation: DQuat,
        as_polytope: bool,
    },
    Segment(DVec3, DVec3),
    Triangle([DVec3; 3]),
}

impl Geometry {
    fn points(&self, dim: usize) -> Vec<DVec3> {
        match self {
            Geometry::Cloud(p) => p.clone(),
            Geometry::Box { half, center, rotation, .. } => {
                corners(*half, dim).iter().map(|c| *rotation * *c + *center).collect()
            }
            Geometry::Segment(a, b) => vec![*a, *b],
            Geometry::Triangle(t) => t.to_vec(),
        }
    }
    fn scaled(&self, s: f64) -> Geometry {
        match self {
            Geometry::Cloud(p) => Geometry::Cloud(p.iter().map(|q| *q * s).collect()),
            Geometry::Box { half, center, rotation, as_polytope } => Geometry::Box {
                half: *half * s,
                center: *center * s,
                rotation: *rotation,
                as_polytope: *as_polytope,
            },
            Geometry::Segment(a, b) => Geometry::Segment(*a * s, *b * s),
            Geometry::Triangle(t) => Geometry::Triangle(t.map(|q| q * s)),
        }
    }
}

fn corners(half: DVec3, dim: usize) -> Vec<DVec3> {
    let signs: &[[f64; 3]] = if dim == 2 {
        &[[1.0, 1.0, 0.0], [-1.0, 1.0, 0.0], [-1.0, -1.0, 0.0], [1.0, -1.0, 0.0]]
    } else {
        &[
            [1.0, 1.0, 1.0],
            [-1.0, 1.0, 1.0],
            [-1.0, -1.0, 1.0],
            [1.0, -1.0, 1.0],
            [1.0, 1.0, -1.0],
            [-1.0, 1.0, -1.0],
            [-1.0, -1.0, -1.0],
            [1.0, -1.0, -1.0],
        ]
    };
    signs.iter().map(|s| DVec3::from_array(*s) * half).collect()
}

/// A rigid motion in f64: `p ↦ R p + t`.
#[derive(Clone, Copy, Debug)]
struct Motion {
    rotation: DQuat,
    translation: DVec3,
}

impl Motion {
    const IDENTITY: Motion = Motion { rotation: DQuat::IDENTITY, translation: DVec3::ZERO };
    fn apply(&self, p: DVec3) -> DVec3 {
        self.rotation * p + self.translation
    }
    fn inverse_apply(&self, p: DVec3) -> DVec3 {
        self.rotation.conjugate() * (p - self.translation)
    }
    fn then(&self, inner: &Motion) -> Motion {
        Motion {
            rotation: self.rotation * inner.rotation,
            translation: self.apply(inner.translation),
        }
    }
}

/// Builds `geometry` (scene frame) as a body whose world placement is `world` ∘ scene; the body's
/// own local frame is `local` relative to the scene (its points are re-expressed in that frame).
fn body<V: TestVector>(geometry: &Geometry, world: &Motion, local: &Motion) -> Body<V> {
    let round = |p: DVec3| to_d(common::from_d::<V>(p));
    match geometry {
        Geometry::Box { half, center, rotation, as_polytope: false } => {
            let half = round(*half);
            let shape = Cuboid::new(common::from_d::<V>(half)).unwrap();
            let m = world.then(&Motion { rotation: *rotation, translation: *center });
            Body::new(shape, corners(half, V::DIM), V::pose(m.rotation, m.translation))
        }
        _ => {
            let pts: Vec<DVec3> =
                geometry.points(V::DIM).iter().map(|&p| round(local.inverse_apply(p))).collect();
            let m = world.then(local);
            let pose = V::pose(m.rotation, m.translation);
            match geometry {
                Geometry::Segment(..) => {
                    let s = Segment::new(common::from_d::<V>(pts[0]), common::from_d::<V>(pts[1]));
                    Body::new(s.unwrap(), pts, pose)
                }
                Geometry::Triangle(..) => {
                    let [a, b, c] = [pts[0], pts[1], pts[2]].map(common::from_d::<V>);
                    Body::new(Triangle::new(a, b, c).unwrap(), pts, pose)
                }
                _ => Body::polytope(&pts, pose),
            }
        }
    }
}

/// A scene: two shapes in a common frame and what their distance is by construction.
struct Scene {
    a: Geometry,
    b: Geometry,
    /// The distance by construction (`None`: unknown, only the oracle decides).
    distance: Option<f64>,
}

type SceneFn = fn(&mut Rng, usize, f64) -> Scene;

fn cloud(dim: usize, n: usize, size: f64, rng: &mut Rng) -> Vec<DVec3> {
    (0..n).map(|_| rng.in_cube(dim, size)).collect()
}

/// A random vector `r` with `r·u ≥ 0.05` (the half-space beyond a contact).
fn beyond(rng: &mut Rng, dim: usize, u: DVec3) -> DVec3 {
    let r = rng.in_cube(dim, 1.0);
    r - u * r.dot(u) + u * rng.range(0.05, 1.0)
}

fn vertex_contact(rng: &mut Rng, dim: usize, gap: f64) -> Scene {
    let a = cloud(dim, dim + 1 + rng.below(5), 1.0, rng);
    let u = rng.direction(dim);
    let v0 = *a.iter().max_by(|p, q| p.dot(u).total_cmp(&q.dot(u))).unwrap();
    let tip = v0 + u * gap;
    let mut b = vec![tip];
    b.extend((0..dim + rng.below(4)).map(|_| tip + beyond(rng, dim, u)));
    Scene { a: Geometry::Cloud(a), b: Geometry::Cloud(b), distance: Some(gap) }
}

/// Boxes in contact along x, and also along y (and z) with exactly coplanar faces there.
fn box_contact(rng: &mut Rng, dim: usize, gap: f64) -> Scene {
    let half = |rng: &mut Rng| {
        let z = if dim == 3 { rng.range(0.2, 1.0) } else { 0.0 };
        DVec3::new(rng.range(0.2, 1.0), rng.range(0.2, 1.0), z)
    };
    let (ha, hb) = (half(rng), half(rng));
    let contact_axes = 1 + rng.below(dim); // 1: face, 2: edge, 3: corner
    let mut center = DVec3::ZERO;
    for axis in 0..dim {
        let reach = ha[axis] + hb[axis];
        center[axis] = if axis == 0 {
            reach + gap
        } else if axis < contact_axes {
            reach * if rng.chance(0.5) { 1.0 } else { -1.0 }
        } else {
            rng.range(-0.3, 0.3) * ha[axis].min(hb[axis])
        };
    }
    // A face contact may turn B about the contact normal: still face to face at distance `gap`.
    let rotation = if dim == 3 && contact_axes == 1 && rng.chance(0.5) {
        DQuat::from_rotation_x(rng.range(0.0, 1.5))
    } else {
        DQuat::IDENTITY
    };
    let a = Geometry::Box {
        half: ha,
        center: DVec3::ZERO,
        rotation: DQuat::IDENTITY,
        as_polytope: rng.chance(0.5),
    };
    let b = Geometry::Box { half: hb, center, rotation, as_polytope: rng.chance(0.5) };
    Scene { a, b, distance: Some(gap) }
}

/// A segment, given either as a `Segment` or as a `Polytope` of collinear points.
fn segment(p: DVec3, q: DVec3, rng: &mut Rng) -> Geometry {
    if rng.chance(0.5) {
        Geometry::Segment(p, q)
    } else {
        let mut pts = vec![p, q, p + (q - p) * 0.5, p + (q - p) * 0.25];
        pts.rotate_left(rng.below(4));
        Geometry::Cloud(pts)
    }
}

fn segments(rng: &mut Rng, dim: usize, gap: f64) -> Scene {
    let a = segment(DVec3::new(-1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), rng);
    let b = match rng.below(3) {
        // Parallel, overlapping in x, `gap` above.
        0 => segment(
            DVec3::new(rng.range(-0.9, 0.5), gap, 0.0),
            DVec3::new(rng.range(0.6, 2.0), gap, 0.0),
            rng,
        ),
        // Crossing (3D: skew along z; 2D: a T).
        1 => {
            let x = rng.range(-0.9, 0.9);
            if dim == 3 {
                segment(DVec3::new(x, gap, -1.0), DVec3::new(x, gap, 1.0), rng)
            } else {
                segment(DVec3::new(x, gap, 0.0), DVec3::new(x, gap + 1.0, 0.0), rng)
            }
        }
        // Collinear, end to end: the Minkowski difference is itself a segment.
        _ => segment(
            DVec3::new(1.0 + gap, 0.0, 0.0),
            DVec3::new(1.0 + gap + rng.range(0.1, 2.0), 0.0, 0.0),
            rng,
        ),
    };
    Scene { a, b, distance: Some(gap) }
}

/// A triangle as a `Triangle` or a `Polytope`.
fn triangle(t: [DVec3; 3], rng: &mut Rng) -> Geometry {
    if rng.chance(0.5) {
        Geometry::Triangle(t)
    } else {
        Geometry::Cloud(t.to_vec())
    }
}

fn flat(rng: &mut Rng, dim: usize, gap: f64) -> Scene {
    assert_eq!(dim, 3);
    let flat_cloud = |n: usize, rng: &mut Rng| -> Vec<DVec3> {
        (0..n).map(|_| DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.0)).collect()
    };
    match rng.below(3) {
        // Coplanar triangles, B beyond A's support point along an in-plane direction.
        0 => {
            let t = flat_cloud(3, rng);
            let u = rng.direction(2);
            let v0 = *t.iter().max_by(|p, q| p.dot(u).total_cmp(&q.dot(u))).unwrap();
            let tip = v0 + u * gap;
            let (b1, b2) = (tip + beyond(rng, 2, u), tip + beyond(rng, 2, u));
            Scene {
                a: triangle([t[0], t[1], t[2]], rng),
                b: triangle([tip, b1, b2], rng),
                distance: Some(gap),
            }
        }
        // A vertical segment ending `gap` above a triangle's interior point.
        1 => {
            let t = [
                DVec3::new(-1.0, -1.0, 0.0),
                DVec3::new(1.5, -0.5, 0.0),
                DVec3::new(0.0, 1.2, 0.0),
            ];
            let w = [rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(0.1, 1.0)];
            let s = w[0] + w[1] + w[2];
            let inner = (t[0] * w[0] + t[1] * w[1] + t[2] * w[2]) / s;
            let foot = DVec3::new(inner.x, inner.y, gap);
            Scene {
                a: triangle(t, rng),
                b: segment(foot, foot + DVec3::new(0.0, 0.0, rng.range(0.2, 2.0)), rng),
                distance: Some(gap),
            }
        }
        // Parallel plates: B is A shrunk about its centroid and lifted by `gap`.
        _ => {
            let a = flat_cloud(3 + rng.below(4), rng);
            let c = a.iter().copied().sum::<DVec3>() / a.len() as f64;
            let b = a.iter().map(|p| c + (*p - c) * 0.5 + DVec3::new(0.0, 0.0, gap)).collect();
            Scene { a: Geometry::Cloud(a), b: Geometry::Cloud(b), distance: Some(gap) }
        }
    }
}

fn repeated(rng: &mut Rng, dim: usize, _gap: f64) -> Scene {
    let with_repeats = |n: usize, rng: &mut Rng| -> Vec<DVec3> {
        let base = cloud(dim, n, 1.0, rng);
        let mut pts = Vec::new();
        for p in base {
            for _ in 0..1 + rng.below(3) {
                pts.push(p);
            }
        }
        pts
    };
    let a = if rng.chance(0.3) {
        vec![rng.in_cube(dim, 1.0); 4]
    } else {
        with_repeats(1 + rng.below(5), rng)
    };
    let offset = rng.in_cube(dim, 1.5);
    let b = with_repeats(1 + rng.below(5), rng).iter().map(|p| *p + offset).collect();
    Scene { a: Geometry::Cloud(a), b: Geometry::Cloud(b), distance: None }
}

fn inside(rng: &mut Rng, dim: usize, _gap: f64) -> Scene {
    let a = cloud(dim, dim + 2 + rng.below(4), 1.0, rng);
    let c = a.iter().copied().sum::<DVec3>() / a.len() as f64;
    let b = if rng.chance(0.3) {
        vec![c]
    } else {
        let shrink = if rng.chance(0.5) { 0.3 } else { 0.999_999 };
        a.iter().map(|p| c + (*p - c) * shrink).collect()
    };
    let (a, b) = if rng.chance(0.5) { (a, b) } else { (b, a) };
    Scene { a: Geometry::Cloud(a), b: Geometry::Cloud(b), distance: Some(0.0) }
}

fn identical(rng: &mut Rng, dim: usize, _gap: f64) -> Scene {
    let a = cloud(dim, 1 + rng.below(7), 1.0, rng);
    Scene { a: Geometry::Cloud(a.clone()), b: Geometry::Cloud(a), distance: Some(0.0) }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Placement {
    Identity,
    Common,
    Independent,
    HugePose,
    HugeCoordinates,
}

const PLACEMENTS: [Placement; 5] = [
    Placement::Identity,
    Placement::Common,
    Placement::Independent,
    Placement::HugePose,
    Placement::HugeCoordinates,
];

/// Runs `scene` at each gap, scale and placement; returns the statistics.
fn run_family<V: TestVector>(name: &str, scene: SceneFn, gaps: &[f64], seed: u64) -> Stats {
    let dim = V::DIM;
    let mut stats = Stats::default();
    let mut rng = Rng::new(seed);
    for instance in 0..case_count(SEEDS) {
        for &relative_gap in gaps {
            for scale in [1.0, 1e-6] {
                for placement in PLACEMENTS {
                    let scene_seed = rng.next_u64();
                    // The scale of the gap: the touching scene's max |a − b|.
                    let touching = scene(&mut Rng::new(scene_seed), dim, 0.0);
                    let size = common::minkowski_difference(
                        &touching.a.points(dim),
                        &touching.b.points(dim),
                    )
                    .iter()
                    .map(|p| p.length())
                    .fold(0.0, f64::max);
                    let gap = relative_gap * size;
                    let s = scene(&mut Rng::new(scene_seed), dim, gap);
                    let (a, b) = (s.a.scaled(scale), s.b.scaled(scale));
                    let world = Motion {
                        rotation: rng.rotation(dim),
                        translation: rng.in_cube(dim, 5.0 * scale),
                    };
                    let (world, local_a, local_b) = match placement {
                        Placement::Identity => {
                            (Motion::IDENTITY, Motion::IDENTITY, Motion::IDENTITY)
                        }
                        Placement::Common => (world, Motion::IDENTITY, Motion::IDENTITY),
                        Placement::Independent => {
                            let mut local = || Motion {
                                rotation: rng.rotation(dim),
                                translation: rng.in_cube(dim, scale),
                            };
                            (world, local(), local())
                        }
                        Placement::HugePose => {
                            let far = Motion {
                                translation: world.translation + rng.direction(dim) * 1e6,
                                ..world
                            };
                            let local =
                                Motion { rotation: rng.rotation(dim), translation: DVec3::ZERO };
                            (
                                far,
                                Motion::IDENTITY,
                                if rng.chance(0.5) { local } else { Motion::IDENTITY },
                            )
                        }
                        Placement::HugeCoordinates => {
                            // f32 cannot hold sub-unit detail at 1e6 (its ulp there is 0.06):
                            // its points sit at 1e3 instead.
                            let offset = if V::DISTANCE_TOLERANCE < 1e-6 { 1e6 } else { 1e3 };
                            let k = rng.direction(dim) * offset;
                            let shift = Motion { rotation: DQuat::IDENTITY, translation: -k };
                            (world, shift, shift)
                        }
                    };
                    let huge =
                        matches!(placement, Placement::HugePose | Placement::HugeCoordinates);
                    let expect = match s.distance {
                        Some(d) if d > 0.0 => Expect::Gap(d * scale),
                        Some(_) if !huge => Expect::Intersecting,
                        _ => Expect::Oracle,
                    };
                    let label = format!(
                        "{name} #{instance} gap {relative_gap:e} scale {scale:e} {placement:?} (seed {seed})"
                    );
                    let body_a = body::<V>(&a, &world, &local_a);
                    let body_b = body::<V>(&b, &world, &local_b);
                    check_pair(&body_a, &body_b, expect, &label, &mut stats);
                }
            }
        }
    }
    stats
}

const GAPS_F64: &[f64] = &[0.0, 1e-9, 1e-6, 1e-2, 0.3];
const GAPS_F32: &[f64] = &[0.0, 1e-3, 0.3];

fn all_families<V: TestVector>(seed: u64) {
    let gaps = if V::DISTANCE_TOLERANCE < 1e-6 { GAPS_F64 } else { GAPS_F32 };
    let mut families: Vec<(&str, SceneFn, &[f64])> = vec![
        ("vertex contact", vertex_contact, gaps),
        ("box contact", box_contact, gaps),
        ("segments", segments, gaps),
        ("repeated", repeated, &[0.0]),
        ("inside", inside, &[0.0]),
        ("identical", identical, &[0.0]),
    ];
    if V::DIM == 3 {
        families.push(("flat", flat, gaps));
    }
    let mut total = Stats::default();
    for (i, (name, scene, gaps)) in families.into_iter().enumerate() {
        let stats = run_family::<V>(name, scene, gaps, seed + i as u64);
        stats.report(&format!("{} {name}", V::NAME));
        total.merge(&stats);
    }
    total.report(&format!("{} all families", V::NAME));
}

#[test]
fn families_2d_f64() {
    all_families::<DVec2>(0xF2D64);
}

#[test]
fn families_2d_f32() {
    all_families::<Vec2>(0xF2D32);
}

#[test]
fn families_3d_f64() {
    all_families::<DVec3>(0xF3D64);
}

#[test]
fn families_3d_f32() {
    all_families::<Vec3>(0xF3D32);
}
