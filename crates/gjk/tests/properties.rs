//! Property tests: random scenes over every built-in shape, 2D and 3D, `f32` and `f64`, scales
//! 1e-6..1e6, deep, shallow, near-touching and apart placements, checked against invariants
//! whose ground truth never comes from the code under test (docs/robustness.md).
//!
//! # Oracles
//! * **Support functions, written here in f64** (`Geo::support`): each shape's own closed form
//!   (`argmax x·n`), from the same (rounded) parameters the library holds. Never GJK or EPA.
//!   Plane tests on them decide separation along a direction: B is apart from A along `n` by
//!   `−h_B(−n) − h_A(n)` (`h` the support value), a lower bound of the distance, and
//!   `h_A(n) + h_B(−n)` bounds the penetration depth from above.
//! * **Constructions**: B is placed so that a known point of B meets a known point of A (a
//!   common point: the pair provably touches or overlaps), or so that B's support point along
//!   `−u` sits a gap `g` from A's along `u` (then the distance is exactly `g`: the plane along
//!   `u` bounds it from below, the two points from above).
//! * **Direction search** (`min_over_directions`): pattern search over unit directions for a
//!   counterexample — a direction whose plane test contradicts a reported depth, or a plane
//!   that a reported point lies outside of. A reported counterexample is a certificate (the
//!   explicit direction); the search can miss one, so a pass is evidence, not proof.
//! * **Brute-force hulls** (`common::origin_to_hull`, Carathéodory): when both cores are small
//!   polytopes (with any margin), the exact distance, and an exact overlap certificate.
//! * **Stationary direction** (`stationary_direction`): for smooth pairs the contact normal is
//!   where the support point of `A − B` is parallel to the direction; Newton's method on the
//!   f64 support functions finds it to ~1e-13 × size.
//!
//! # Tolerances (`τ = rel × size + 64 ε W`)
//! `size` is the largest of the two shapes' extents (local frames) and their centres' offset;
//! `W` the largest world coordinate. `rel` in f64: 1e-9 for polytopes, boxes, capsules,
//! segments, points, triangles and balls, 1e-7 when a smooth shape (ellipsoid, cylinder,
//! cone) takes part; in f32: 1e-5 (`F32_REL`, docs/robustness.md). Unit normals: `||n| − 1| ≤
//! rel`. Normal angles: 1e-6 rad in f64, 1e-4 in f32, plus `16 ε size / |depth|` and
//! `16 ε W / σ` (`σ` the stationary direction's conditioning, see `stationary_direction`). Each
//! invariant's doc comment states which tolerance it uses.
//!
//! # Counts
//! `case_count` of the kit scales the cases (`GJK_ORACLE_CASES=K` runs K/1000 × the default);
//! `GJK_PROPERTY_SEED=k` draws other scenes, `GJK_PROPERTY_VERBOSE=1` lists every failing
//! family; the long run is documented in docs/robustness.md. Failures are collected, printed with
//! reproductions (shapes, poses, observed and expected values, a `gjk query` JSON line when the
//! scene has one) and asserted at the end.

mod common;

use common::{case_count, from_d, to_d, Draw, Rng, TestVector};
use gjk::{
    Ball, CastStatus, Cone, Cuboid, Cylinder, Ellipsoid, Pair, Point, Polytope, Pose, Posed, Real,
    Rounded, Support,
};
use glam::{DQuat, DVec2, DVec3, Vec2, Vec3};
use std::collections::BTreeMap;
use std::fmt::Write as _;

// ---------------------------------------------------------------------------------------------
// Shapes, described independently of the library
// ---------------------------------------------------------------------------------------------

/// A shape in f64 with its own support function; `build` makes the library's shape from the
/// same numbers (already rounded to the precision under test).
#[derive(Clone, Debug)]
enum Geo {
    Point(DVec3),
    Segment(DVec3, DVec3),
    Triangle([DVec3; 3]),
    /// A `Polytope` of these points; `&'static str` names the generator (random, flat, ...).
    Hull(Vec<DVec3>, &'static str),
    Ball(f64),
    Ellipsoid(DVec3),
    Cuboid(DVec3),
    Capsule(DVec3, DVec3, f64),
    Cylinder(f64, f64),
    Cone(f64, f64),
    Rounded(Box<Geo>, f64),
    Posed(DQuat, DVec3, Box<Geo>),
}

impl Geo {
    /// A point of the shape farthest along `n` (`n` unit), local frame.
    fn support(&self, n: DVec3) -> DVec3 {
        match self {
            Geo::Point(p) => *p,
            Geo::Segment(a, b) => farthest(&[*a, *b], n),
            Geo::Triangle(c) => farthest(c, n),
            Geo::Hull(pts, _) => farthest(pts, n),
            Geo::Ball(r) => n * *r,
            Geo::Ellipsoid(radii) => {
                // x = R² n / |R n|, the point where the normal R⁻² x is parallel to n.
                let rn = *radii * n;
                let l = rn.length();
                if l == 0.0 {
                    DVec3::ZERO
                } else {
                    *radii * rn / l
                }
            }
            Geo::Cuboid(h) => DVec3::new(
                h.x * n.x.signum(),
                h.y * n.y.signum(),
                if n.z == 0.0 { 0.0 } else { h.z * n.z.signum() },
            ),
            Geo::Capsule(a, b, r) => farthest(&[*a, *b], n) + n * *r,
            Geo::Cylinder(hh, r) => {
                let (x, z) = rim(n, *r);
                DVec3::new(x, hh * n.y.signum(), z)
            }
            Geo::Cone(hh, r) => {
                let (x, z) = rim(n, *r);
                let apex = DVec3::new(0.0, *hh, 0.0);
                let base = DVec3::new(x, -hh, z);
                if apex.dot(n) >= base.dot(n) {
                    apex
                } else {
                    base
                }
            }
            Geo::Rounded(g, m) => g.support(n) + n * *m,
            Geo::Posed(q, t, g) => *q * g.support(q.conjugate() * n) + *t,
        }
    }

    /// The family name used in the reports.
    fn family(&self) -> String {
        match self {
            Geo::Point(_) => "point".into(),
            Geo::Segment(..) => "segment".into(),
            Geo::Triangle(_) => "triangle".into(),
            Geo::Hull(_, kind) => format!("hull-{kind}"),
            Geo::Ball(r) if *r < 1e-30 => "ball-tiny".into(),
            Geo::Ball(_) => "ball".into(),
            Geo::Ellipsoid(_) => "ellipsoid".into(),
            Geo::Cuboid(h) if h.min_element() == 0.0 => "cuboid-flat".into(),
            Geo::Cuboid(_) => "cuboid".into(),
            Geo::Capsule(..) => "capsule".into(),
            Geo::Cylinder(..) => "cylinder".into(),
            Geo::Cone(..) => "cone".into(),
            Geo::Rounded(g, _) => format!("rounded({})", g.family()),
            Geo::Posed(_, _, g) => format!("posed({})", g.family()),
        }
    }

    /// Whether the shape has curved faces that are not a sphere swept around a polytope
    /// (the looser f64 tolerance).
    fn smooth(&self) -> bool {
        match self {
            Geo::Ellipsoid(_) | Geo::Cylinder(..) | Geo::Cone(..) => true,
            Geo::Rounded(g, _) | Geo::Posed(_, _, g) => g.smooth(),
            _ => false,
        }
    }

    /// Whether the boundary has no flat part and no corner (a unique normal at every point:
    /// balls, ellipsoids, rounded points and balls), or is a single point.
    fn smooth_or_point(&self) -> bool {
        match self {
            Geo::Point(_) | Geo::Ball(_) | Geo::Ellipsoid(_) => true,
            Geo::Capsule(a, b, _) => a == b,
            Geo::Rounded(g, _) | Geo::Posed(_, _, g) => g.smooth_or_point(),
            _ => false,
        }
    }

    /// The core's vertices (local frame) and the margin around them, when the core is a
    /// polytope: everything but ellipsoids, cylinders and cones.
    fn core_vertices(&self, dim: usize) -> Option<(Vec<DVec3>, f64)> {
        Some(match self {
            Geo::Point(p) => (vec![*p], 0.0),
            Geo::Segment(a, b) => (vec![*a, *b], 0.0),
            Geo::Triangle(c) => (c.to_vec(), 0.0),
            Geo::Hull(pts, _) => (pts.clone(), 0.0),
            Geo::Ball(r) => (vec![DVec3::ZERO], *r),
            Geo::Cuboid(h) => {
                let corners = (0..1usize << dim).map(|i| {
                    let s = |k: usize| if i >> k & 1 == 1 { 1.0 } else { -1.0 };
                    DVec3::new(h.x * s(0), h.y * s(1), if dim == 3 { h.z * s(2) } else { 0.0 })
                });
                (corners.collect(), 0.0)
            }
            Geo::Capsule(a, b, r) => (vec![*a, *b], *r),
            Geo::Rounded(g, m) => {
                let (v, inner) = g.core_vertices(dim)?;
                (v, inner + m)
            }
            Geo::Posed(q, t, g) => {
                let (v, m) = g.core_vertices(dim)?;
                (v.iter().map(|x| *q * *x + *t).collect(), m)
            }
            Geo::Ellipsoid(_) | Geo::Cylinder(..) | Geo::Cone(..) => return None,
        })
    }

    /// The largest support distance from the local origin along the axes.
    fn extent(&self, dim: usize) -> f64 {
        let mut e = 0.0f64;
        for i in 0..dim {
            for s in [-1.0, 1.0] {
                let mut n = DVec3::ZERO;
                n[i] = s;
                e = e.max(self.support(n).length());
            }
        }
        e
    }

    /// The largest width `h(n) + h(−n)` along the axes (0 for a point).
    fn diameter(&self, dim: usize) -> f64 {
        let mut w = 0.0f64;
        for i in 0..dim {
            let mut n = DVec3::ZERO;
            n[i] = 1.0;
            w = w.max(self.support(n).dot(n) + self.support(-n).dot(-n));
        }
        w
    }

    /// The library's shape.
    fn build<V: Space>(&self) -> Box<dyn Support<V>> {
        let v = |p: &DVec3| from_d::<V>(*p);
        let r = |x: f64| V::Real::from_f64(x);
        match self {
            Geo::Point(p) => Box::new(Point::new(v(p)).unwrap()),
            Geo::Segment(a, b) => Box::new(gjk::Segment::new(v(a), v(b)).unwrap()),
            Geo::Triangle(c) => Box::new(gjk::Triangle::new(v(&c[0]), v(&c[1]), v(&c[2])).unwrap()),
            Geo::Hull(pts, _) => Box::new(Polytope::new(pts.iter().map(v).collect()).unwrap()),
            Geo::Ball(radius) => Box::new(Ball::<V>::new(r(*radius)).unwrap()),
            Geo::Ellipsoid(radii) => Box::new(Ellipsoid::new(v(radii)).unwrap()),
            Geo::Cuboid(h) => Box::new(Cuboid::new(v(h)).unwrap()),
            Geo::Capsule(a, b, radius) => {
                Box::new(gjk::Capsule::new(v(a), v(b), r(*radius)).unwrap())
            }
            Geo::Cylinder(hh, radius) => V::revolution(false, *hh, *radius),
            Geo::Cone(hh, radius) => V::revolution(true, *hh, *radius),
            Geo::Rounded(g, m) => Box::new(Rounded::new(g.build::<V>(), r(*m)).unwrap()),
            Geo::Posed(q, t, g) => Box::new(Posed::new(g.build::<V>(), V::pose(*q, *t))),
        }
    }

    /// The shape as `gjk query` reads it (f64), or `None` when the format cannot say it (a
    /// rotated `Posed`, a margin on a margin).
    fn json(&self, dim: usize) -> Option<String> {
        let p = |p: &DVec3| coords(*p, dim);
        Some(match self {
            Geo::Point(q) => format!(r#"{{"type":"points","points":[{}]}}"#, p(q)),
            Geo::Segment(a, b) => format!(r#"{{"type":"segment","a":{},"b":{}}}"#, p(a), p(b)),
            Geo::Triangle(c) => format!(
                r#"{{"type":"triangle","a":{},"b":{},"c":{}}}"#,
                p(&c[0]),
                p(&c[1]),
                p(&c[2])
            ),
            Geo::Hull(pts, _) => {
                let list: Vec<String> = pts.iter().map(p).collect();
                format!(r#"{{"type":"points","points":[{}]}}"#, list.join(","))
            }
            Geo::Ball(r) => format!(r#"{{"type":"sphere","radius":{r:?}}}"#),
            Geo::Ellipsoid(radii) => format!(r#"{{"type":"ellipsoid","radii":{}}}"#, p(radii)),
            Geo::Cuboid(h) => format!(r#"{{"type":"box","half_extents":{}}}"#, p(h)),
            Geo::Capsule(a, b, r) => {
                format!(r#"{{"type":"capsule","a":{},"b":{},"radius":{r:?}}}"#, p(a), p(b))
            }
            Geo::Cylinder(hh, r) => {
                format!(r#"{{"type":"cylinder","half_height":{hh:?},"radius":{r:?}}}"#)
            }
            Geo::Cone(hh, r) => format!(r#"{{"type":"cone","half_height":{hh:?},"radius":{r:?}}}"#),
            Geo::Rounded(g, m) => {
                if matches!(**g, Geo::Rounded(..)) {
                    return None;
                }
                let inner = g.json(dim)?;
                format!(r#"{},"margin":{m:?}}}"#, &inner[..inner.len() - 1])
            }
            Geo::Posed(q, t, g) => {
                // A rotated point set, segment, triangle, capsule or ball is baked into its
                // coordinates; other rotated shapes have no JSON form.
                let m = |x: &DVec3| *q * *x + *t;
                match &**g {
                    _ if *q == DQuat::IDENTITY => {
                        let inner = g.json(dim)?;
                        format!(r#"{},"center":{}}}"#, &inner[..inner.len() - 1], p(t))
                    }
                    Geo::Point(x) => Geo::Point(m(x)).json(dim)?,
                    Geo::Segment(a, b) => Geo::Segment(m(a), m(b)).json(dim)?,
                    Geo::Triangle(c) => Geo::Triangle(c.map(|x| m(&x))).json(dim)?,
                    Geo::Hull(pts, k) => Geo::Hull(pts.iter().map(m).collect(), k).json(dim)?,
                    Geo::Capsule(a, b, r) => Geo::Capsule(m(a), m(b), *r).json(dim)?,
                    Geo::Ball(r) => {
                        Geo::Posed(DQuat::IDENTITY, *t, Box::new(Geo::Ball(*r))).json(dim)?
                    }
                    _ => return None,
                }
            }
        })
    }
}

/// The point of `pts` farthest along `n` (the first on ties).
fn farthest(pts: &[DVec3], n: DVec3) -> DVec3 {
    let mut best = pts[0];
    for p in &pts[1..] {
        if p.dot(n) > best.dot(n) {
            best = *p;
        }
    }
    best
}

/// The rim point of a disc of `radius` in the xz plane along `n`'s xz part (0 when that is).
fn rim(n: DVec3, radius: f64) -> (f64, f64) {
    let l = n.x.hypot(n.z);
    if l == 0.0 {
        (0.0, 0.0)
    } else {
        (radius * n.x / l, radius * n.z / l)
    }
}

fn coords(p: DVec3, dim: usize) -> String {
    if dim == 2 {
        format!("[{:?},{:?}]", p.x, p.y)
    } else {
        format!("[{:?},{:?},{:?}]", p.x, p.y, p.z)
    }
}

/// The vector types under test, with the 3D-only shapes.
trait Space: TestVector {
    fn revolution(cone: bool, half_height: f64, radius: f64) -> Box<dyn Support<Self>>;
}

macro_rules! space2 {
    ($v:ty) => {
        impl Space for $v {
            fn revolution(_: bool, _: f64, _: f64) -> Box<dyn Support<Self>> {
                unreachable!("cylinders and cones are 3D only")
            }
        }
    };
}
space2!(DVec2);
space2!(Vec2);

macro_rules! space3 {
    ($v:ty, $r:ty) => {
        impl Space for $v {
            fn revolution(cone: bool, half_height: f64, radius: f64) -> Box<dyn Support<Self>> {
                let (h, r) = (half_height as $r, radius as $r);
                if cone {
                    Box::new(Cone::<$v>::new(h, r).unwrap())
                } else {
                    Box::new(Cylinder::<$v>::new(h, r).unwrap())
                }
            }
        }
    };
}
space3!(DVec3, f64);
space3!(Vec3, f32);

// ---------------------------------------------------------------------------------------------
// Generating shapes and scenes
// ---------------------------------------------------------------------------------------------

/// Rounds numbers to the precision of `V`.
struct Round<V>(std::marker::PhantomData<V>);

impl<V: Space> Round<V> {
    fn x(x: f64) -> f64 {
        V::Real::from_f64(x).to_f64()
    }
    fn p(p: DVec3) -> DVec3 {
        to_d(from_d::<V>(p))
    }
}

/// A random shape of about `s` in size (already rounded to `V`).
fn random_shape<V: Space>(rng: &mut Rng, s: f64) -> Geo {
    let roll = rng.unit();
    let base = random_base::<V>(rng, s);
    if roll < 0.12 {
        Geo::Rounded(Box::new(base), margin::<V>(rng, s))
    } else if roll < 0.22 {
        posed::<V>(rng, s, base)
    } else if roll < 0.26 {
        Geo::Rounded(Box::new(posed::<V>(rng, s, base)), margin::<V>(rng, s))
    } else {
        base
    }
}

/// A margin or radius, sometimes next to the subnormal range.
fn margin<V: Space>(rng: &mut Rng, s: f64) -> f64 {
    if rng.chance(0.03) {
        let tiny = V::Real::MIN_POSITIVE.to_f64();
        let below = if V::Real::EPSILON.to_f64() < 1e-10 { 12.0 } else { 5.0 };
        Round::<V>::x(tiny * 10f64.powf(-rng.range(0.0, below))).max(tiny * 1e-3)
    } else {
        Round::<V>::x(s * rng.range(0.02, 0.5))
    }
}

fn posed<V: Space>(rng: &mut Rng, s: f64, inner: Geo) -> Geo {
    let pose = V::pose(rng.rotation(V::DIM), rng.in_cube(V::DIM, 0.5 * s));
    Geo::Posed(V::rotation_of(&pose), to_d(pose.translation()), Box::new(inner))
}

fn random_base<V: Space>(rng: &mut Rng, s: f64) -> Geo {
    let dim = V::DIM;
    let pt = |rng: &mut Rng, h: f64| Round::<V>::p(rng.in_cube(dim, h * s));
    let kinds = if dim == 3 { 11 } else { 9 };
    match rng.below(kinds) {
        0 => Geo::Point(pt(rng, 0.5)),
        1 => {
            let a = pt(rng, 1.0);
            let b = if rng.chance(0.1) {
                Round::<V>::p(a + rng.direction(dim) * s * 1e-4)
            } else {
                pt(rng, 1.0)
            };
            Geo::Segment(a, b)
        }
        2 => {
            let (a, b) = (pt(rng, 1.0), pt(rng, 1.0));
            let c = if rng.chance(0.15) {
                // Nearly collinear.
                Round::<V>::p(a.lerp(b, rng.unit()) + rng.direction(dim) * s * 1e-5)
            } else {
                pt(rng, 1.0)
            };
            Geo::Triangle([a, b, c])
        }
        3 | 4 => random_hull::<V>(rng, s),
        5 => Geo::Ball(if rng.chance(0.04) {
            margin::<V>(rng, s)
        } else {
            Round::<V>::x(s * rng.range(0.1, 1.0))
        }),
        6 => {
            let mut radii = DVec3::ZERO;
            for i in 0..dim {
                radii[i] = Round::<V>::x(s * 10f64.powf(rng.range(-2.0, 0.0)));
            }
            Geo::Ellipsoid(radii)
        }
        7 => {
            let mut h = DVec3::ZERO;
            for i in 0..dim {
                h[i] = Round::<V>::x(s * rng.range(0.05, 1.0));
            }
            if rng.chance(0.15) {
                h[rng.below(dim)] = 0.0;
            }
            Geo::Cuboid(h)
        }
        8 => {
            let a = pt(rng, 1.0);
            let b = if rng.chance(0.1) { a } else { pt(rng, 1.0) };
            let r = if rng.chance(0.04) {
                margin::<V>(rng, s)
            } else {
                Round::<V>::x(s * rng.range(0.05, 0.5))
            };
            Geo::Capsule(a, b, r)
        }
        k => {
            let mut hh = Round::<V>::x(s * rng.range(0.05, 1.0));
            let mut r = Round::<V>::x(s * rng.range(0.05, 1.0));
            match rng.below(10) {
                0 => hh = 0.0,
                1 => r = 0.0,
                _ => {}
            }
            if k == 9 {
                Geo::Cylinder(hh, r)
            } else {
                Geo::Cone(hh, r)
            }
        }
    }
}

/// Point sets: random, flat (3D: coplanar), collinear, with duplicates, round (small and big).
fn random_hull<V: Space>(rng: &mut Rng, s: f64) -> Geo {
    let dim = V::DIM;
    let roll = rng.unit();
    let (pts, kind): (Vec<DVec3>, &'static str) = if roll < 0.4 {
        let n = 4 + rng.below(20);
        ((0..n).map(|_| rng.in_cube(dim, s)).collect(), "random")
    } else if roll < 0.55 && dim == 3 {
        let q = rng.rotation(3);
        let n = 3 + rng.below(12);
        ((0..n).map(|_| q * rng.in_cube(2, s)).collect(), "flat")
    } else if roll < 0.65 {
        let (o, d) = (rng.in_cube(dim, 0.3 * s), rng.direction(dim));
        let n = 2 + rng.below(6);
        ((0..n).map(|_| o + d * s * rng.range(-1.0, 1.0)).collect(), "collinear")
    } else if roll < 0.8 {
        let n = 3 + rng.below(8);
        let mut pts: Vec<DVec3> = (0..n).map(|_| rng.in_cube(dim, s)).collect();
        for _ in 0..n {
            let p = pts[rng.below(n)];
            let jitter = if rng.chance(0.5) { 0.0 } else { s * 1e-12 };
            pts.push(p + rng.direction(dim) * jitter);
        }
        (pts, "duplicates")
    } else if roll < 0.97 {
        let n = 8 + rng.below(50);
        ((0..n).map(|_| rng.direction(dim) * s).collect(), "round")
    } else {
        let n = if dim == 3 { 755 + rng.below(754) } else { 200 + rng.below(400) };
        ((0..n).map(|_| rng.direction(dim) * s).collect(), "round-big")
    };
    Geo::Hull(pts.into_iter().map(Round::<V>::p).collect(), kind)
}

/// How B was placed against A.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Placement {
    /// A common point well inside both: `λ ∈ [0.3, 1]` of the way to their inner points.
    Deep,
    /// A common point near both boundaries: `λ ∈ [0.001, 0.3]`.
    Shallow,
    /// A common point, overlapping along `u` by 0.1..20 library touching tolerances.
    NearIn,
    /// Boundary points coincide: touching exactly.
    Touching,
    /// Apart by a gap of 0.1..20 library touching tolerances.
    NearOut,
    /// Apart by 0.01..2 sizes.
    Apart,
}

/// One body in the world: its shape and the pose the library holds, in f64.
#[derive(Clone, Debug)]
struct Body {
    geo: Geo,
    rot: DQuat,
    t: DVec3,
}

impl Body {
    fn of<V: Space>(geo: &Geo, pose: &Pose<V>) -> Self {
        Body { geo: geo.clone(), rot: V::rotation_of(pose), t: to_d(pose.translation()) }
    }
    fn support(&self, n: DVec3) -> DVec3 {
        self.rot * self.geo.support(self.rot.conjugate() * n) + self.t
    }
    /// The support value `h(n) = max x·n`.
    fn h(&self, n: DVec3) -> f64 {
        self.support(n).dot(n)
    }
    /// A point inside: the mean of the support points along ± the axes.
    fn inner(&self, dim: usize) -> DVec3 {
        let mut sum = DVec3::ZERO;
        for i in 0..dim {
            let mut n = DVec3::ZERO;
            n[i] = 1.0;
            sum += self.support(n) + self.support(-n);
        }
        sum / (2 * dim) as f64
    }
    /// The core's vertices in the world and the margin, when the core is a polytope.
    fn core_vertices(&self, dim: usize) -> Option<(Vec<DVec3>, f64)> {
        let (v, m) = self.geo.core_vertices(dim)?;
        Some((v.iter().map(|x| self.rot * *x + self.t).collect(), m))
    }
    fn moved(&self, d: DVec3) -> Body {
        Body { t: self.t + d, ..self.clone() }
    }
}

/// A generated scene in the precision of `V`.
struct Scene<V: Space> {
    a: Geo,
    b: Geo,
    pose_a: Pose<V>,
    pose_b: Pose<V>,
    wa: Body,
    wb: Body,
    placement: Placement,
    /// The construction direction (from A toward B) and gap (`> 0` apart, else 0).
    u: DVec3,
    gap: f64,
    /// A common point of the two shapes exists by construction.
    common_point: bool,
    /// Both shapes are single points: they touch only when equal, which the rounding of the
    /// poses rules out (the touching tolerance of two points is relative to their gap).
    two_points: bool,
    /// Sizes next to the subnormal range: only the exact invariants apply.
    tiny: bool,
    /// Sizes over the whole documented range (f64 1e-100..1e100, f32 1e-10..1e10).
    wide: bool,
    size: f64,
    /// The check tolerance `τ` and the relative tolerance it came from.
    tau: f64,
    rel: f64,
    /// The library's touching distance, about (`(tol + 16 ε) × size`).
    touch: f64,
}

/// The relative tolerance of f32 queries (measured: docs/robustness.md).
const F32_REL: f64 = 1e-5;
/// The contact normal's angle tolerance in f32 (radians; f64: 1e-6).
const F32_ANGLE: f64 = 1e-4;

fn relative_tolerance<V: Space>(a: &Geo, b: &Geo) -> f64 {
    if V::Real::EPSILON.to_f64() > 1e-10 {
        F32_REL
    } else if a.smooth() || b.smooth() {
        1e-7
    } else {
        1e-9
    }
}

fn random_scene<V: Space>(rng: &mut Rng) -> Scene<V> {
    let dim = V::DIM;
    // One scene in a hundred lives next to the subnormal range (only the exact invariants are
    // checked there: no relative tolerance survives it, and the crate documents its accuracy
    // only down to 1e-100 in f64, 1e-10 in f32); four span that documented range; the rest
    // 1e-6..1e6.
    let (tiny, wide) = (rng.chance(0.01), rng.chance(0.04));
    let s = if tiny {
        V::Real::MIN_POSITIVE.to_f64() * 10f64.powf(rng.range(-3.0, 3.0))
    } else if wide {
        let decades = if V::Real::EPSILON.to_f64() < 1e-10 { 100.0 } else { 10.0 };
        10f64.powf(rng.range(-decades, decades))
    } else {
        10f64.powf(rng.range(-6.0, 6.0))
    };
    let a = random_shape::<V>(rng, s);
    let s_b = s * 10f64.powf(rng.range(-1.0, 1.0));
    let b = random_shape::<V>(rng, s_b);
    let size_ab = a.extent(dim).max(b.extent(dim));
    let pose_a = V::pose(rng.rotation(dim), rng.in_cube(dim, 2.0 * size_ab));
    let wa = Body::of(&a, &pose_a);
    let rot_b = V::pose(rng.rotation(dim), DVec3::ZERO);
    let b0 = Body::of(&b, &rot_b);
    let u = rng.direction(dim);
    let eps = V::Real::EPSILON.to_f64();
    let touch_rel = V::Real::DEFAULT_TOLERANCE.to_f64() + 16.0 * eps;
    let placement = match rng.below(12) {
        0 | 1 => Placement::Deep,
        2 | 3 => Placement::Shallow,
        4 | 5 => Placement::NearIn,
        6 => Placement::Touching,
        7..=9 => Placement::NearOut,
        _ => Placement::Apart,
    };
    let (p_a, m_a) = (wa.support(u), wa.inner(dim));
    let (p_b, m_b) = (b0.support(-u), b0.inner(dim));
    let near = touch_rel * size_ab * 10f64.powf(rng.range(-1.0, 1.3));
    let (mut lambda, mut gap) = (0.0, 0.0);
    match placement {
        Placement::Deep => lambda = rng.range(0.3, 1.0),
        Placement::Shallow => lambda = 10f64.powf(rng.range(-3.0, -0.5)),
        Placement::NearIn => {
            // Overlap along u: λ (u·(p_A − m_A) + u·(m_B − p_B)).
            let thickness = u.dot(p_a - m_a) + u.dot(m_b - p_b);
            if thickness > 1e-6 * size_ab {
                lambda = (near / thickness).min(1.0);
            }
        }
        Placement::Touching => {}
        Placement::NearOut => gap = near,
        Placement::Apart => gap = size_ab * 10f64.powf(rng.range(-2.0, 0.3)),
    }
    let c_a = p_a.lerp(m_a, lambda);
    let c_b = p_b.lerp(m_b, lambda);
    let pose_b = V::pose(V::rotation_of(&rot_b), c_a - c_b + u * gap);
    let mut scene = Scene::new(a, pose_a, b, pose_b, (placement, u, gap), tiny);
    scene.wide = wide && !tiny;
    scene
}

impl<V: Space> Scene<V> {
    /// The scene of `a` at `pose_a` and `b` at `pose_b`, built as `how` says: the placement,
    /// the direction `u` from A toward B, and the gap along it (0: a common point exists).
    fn new(
        a: Geo,
        pose_a: Pose<V>,
        b: Geo,
        pose_b: Pose<V>,
        how: (Placement, DVec3, f64),
        tiny: bool,
    ) -> Self {
        let (placement, u, gap) = how;
        let dim = V::DIM;
        let eps = V::Real::EPSILON.to_f64();
        let touch_rel = V::Real::DEFAULT_TOLERANCE.to_f64() + 16.0 * eps;
        let size_ab = a.extent(dim).max(b.extent(dim));
        let wa = Body::of(&a, &pose_a);
        let wb = Body::of(&b, &pose_b);
        let size = size_ab.max((wb.t - wa.t).length());
        let world = wa.t.length().max(wb.t.length()).max(size);
        let rel = relative_tolerance::<V>(&a, &b);
        let tau = rel * size + 64.0 * eps * world;
        let two_points = a.diameter(dim) == 0.0 && b.diameter(dim) == 0.0;
        Scene {
            a,
            b,
            pose_a,
            pose_b,
            wa,
            wb,
            placement,
            u,
            gap,
            common_point: gap == 0.0,
            two_points,
            tiny,
            wide: false,
            size,
            tau,
            rel,
            touch: touch_rel * size,
        }
    }

    fn dim(&self) -> usize {
        V::DIM
    }

    /// The scale class: `1e-6..1e6`, `wide` (the documented range) or `tiny` (subnormal).
    fn class(&self) -> &'static str {
        if self.tiny {
            "tiny"
        } else if self.wide {
            "wide"
        } else {
            "1e-6..1e6"
        }
    }

    /// The family key of the reports: the two families, sorted.
    fn family(&self) -> String {
        let (fa, fb) = (self.a.family(), self.b.family());
        let (fa, fb) = if fa <= fb { (fa, fb) } else { (fb, fa) };
        let class = if self.tiny {
            "tiny "
        } else if self.wide {
            "wide "
        } else {
            ""
        };
        format!("{} {class}{fa} | {fb}", V::NAME)
    }

    /// The scene, pasteable: shapes, poses (as the library holds them), and a JSON line.
    fn repro(&self) -> String {
        let dim = self.dim();
        let pose = |b: &Body| {
            let rotation = if dim == 2 {
                format!("{:?}", 2.0 * b.rot.z.atan2(b.rot.w))
            } else {
                format!("[{:?},{:?},{:?},{:?}]", b.rot.x, b.rot.y, b.rot.z, b.rot.w)
            };
            format!(r#"{{"translation":{},"rotation":{rotation}}}"#, coords(b.t, dim))
        };
        let mut s = format!(
            "{} {:?} (gap {:e} along u = {:?}), size {:e}, τ {:e}\n    A = {:?}\n    pose_a = {}\n    B = {:?}\n    pose_b = {}",
            V::NAME,
            self.placement,
            self.gap,
            self.u,
            self.size,
            self.tau,
            self.a,
            pose(&self.wa),
            self.b,
            pose(&self.wb)
        );
        match (self.a.json(dim), self.b.json(dim)) {
            (Some(a), Some(b)) => {
                let _ = write!(
                    s,
                    "\n    gjk query (f64{}): {{\"id\":\"repro\",\"a\":{a},\"b\":{b},\"pose_a\":{},\"pose_b\":{}}}",
                    if V::Real::EPSILON.to_f64() > 1e-10 { "; the failure was in f32" } else { "" },
                    pose(&self.wa),
                    pose(&self.wb)
                );
            }
            _ => s.push_str("\n    (no JSON line: a rotated Posed or nested margin)"),
        }
        s
    }
}

// ---------------------------------------------------------------------------------------------
// The direction search
// ---------------------------------------------------------------------------------------------

/// The smallest `f(n)` found over unit directions `n` (in the xy plane in 2D), with its `n`:
/// every start, the ± axes and 6 random directions are tried, then a pattern search (random
/// tangent frame, step halving from 0.25 rad to 1e-8 rad) refines the best two.
fn min_over_directions(
    dim: usize,
    rng: &mut Rng,
    starts: &[DVec3],
    f: &dyn Fn(DVec3) -> f64,
) -> (f64, DVec3) {
    search_directions(dim, rng, starts, true, f)
}

/// The pattern search of [`min_over_directions`]; `global: false` refines the first start
/// alone (the local minimum next to it).
fn search_directions(
    dim: usize,
    rng: &mut Rng,
    starts: &[DVec3],
    global: bool,
    f: &dyn Fn(DVec3) -> f64,
) -> (f64, DVec3) {
    let mut seeds: Vec<(f64, DVec3)> = Vec::with_capacity(starts.len() + 12);
    let add = |n: DVec3, seeds: &mut Vec<(f64, DVec3)>| {
        let n = n.normalize_or_zero();
        if n != DVec3::ZERO && n.is_finite() {
            seeds.push((f(n), n));
        }
    };
    for &n in starts {
        add(n, &mut seeds);
    }
    if global {
        for i in 0..dim {
            let mut n = DVec3::ZERO;
            n[i] = 1.0;
            add(n, &mut seeds);
            add(-n, &mut seeds);
        }
        for _ in 0..6 {
            add(rng.direction(dim), &mut seeds);
        }
    } else {
        seeds.truncate(1);
    }
    if seeds.is_empty() {
        return (f64::NAN, DVec3::ZERO);
    }
    seeds.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut best = seeds[0];
    for &(v0, n0) in seeds.iter().take(2) {
        let (mut v, mut n) = (v0, n0);
        let mut step = 0.25;
        let mut evaluations = 0;
        while step > 1e-8 && evaluations < 400 {
            let tangents: Vec<DVec3> = if dim == 2 {
                vec![DVec3::new(-n.y, n.x, 0.0)]
            } else {
                let (t1, t2) = n.any_orthonormal_pair();
                let phi = rng.range(0.0, std::f64::consts::PI);
                let (sp, cp) = phi.sin_cos();
                vec![t1 * cp + t2 * sp, t2 * cp - t1 * sp]
            };
            let mut moved = false;
            for t in &tangents {
                for sign in [-1.0, 1.0] {
                    let m = (n + *t * (sign * step)).normalize();
                    let w = f(m);
                    evaluations += 1;
                    if w < v {
                        (v, n, moved) = (w, m, true);
                    }
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        if v < best.0 {
            best = (v, n);
        }
    }
    best
}

/// The direction `m` next to `n` where the overlap `h_A(m) + h_B(−m)` is stationary on the
/// sphere: where the support point of `A − B`, `s(m) = s_A(m) − s_B(−m)` (the gradient of the
/// overlap), is parallel to `m`. Newton's method on the tangential part of `s` in a fixed
/// tangent frame of `n`, derivatives by central differences; `None` when it does not converge
/// to `1e-13 × size` (coincident ball centres have no such direction).
///
/// Also returns the smallest singular value `σ` of that tangential part's Jacobian at the
/// direction (2D: `ρ_A + ρ_B − overlap`, the radii of curvature at the support points): B
/// moved across `m` by `δ` turns the stationary direction by `δ / σ`.
fn stationary_direction<V: Space>(sc: &Scene<V>, n: DVec3) -> Option<(DVec3, f64)> {
    let dim = sc.dim();
    let frame: Vec<DVec3> = if dim == 2 {
        vec![DVec3::new(-n.y, n.x, 0.0)]
    } else {
        let (t1, t2) = n.any_orthonormal_pair();
        vec![t1, t2]
    };
    let at = |x: &[f64]| {
        let mut m = n;
        for (e, c) in frame.iter().zip(x) {
            m += *e * *c;
        }
        m.normalize()
    };
    let residual = |x: &[f64]| -> [f64; 2] {
        let m = at(x);
        let w = sc.wa.support(m) - sc.wb.support(-m);
        let t = w - m * w.dot(m);
        [t.dot(frame[0]), frame.get(1).map_or(0.0, |e| t.dot(*e))]
    };
    let k = frame.len();
    let delta = 1e-7;
    let jacobian = |x: [f64; 2]| {
        let mut h = [[0.0f64; 2]; 2];
        for j in 0..k {
            let (mut plus, mut minus) = (x, x);
            plus[j] += delta;
            minus[j] -= delta;
            let (gp, gm) = (residual(&plus[..k]), residual(&minus[..k]));
            for i in 0..k {
                h[i][j] = (gp[i] - gm[i]) / (2.0 * delta);
            }
        }
        h
    };
    let mut x = [0.0f64; 2];
    for _ in 0..12 {
        let g = residual(&x[..k]);
        let h = jacobian(x);
        let step = if k == 1 {
            [g[0] / h[0][0], 0.0]
        } else {
            let det = h[0][0] * h[1][1] - h[0][1] * h[1][0];
            [(h[1][1] * g[0] - h[0][1] * g[1]) / det, (h[0][0] * g[1] - h[1][0] * g[0]) / det]
        };
        if !(step[0].is_finite() && step[1].is_finite()) {
            return None;
        }
        x = [x[0] - step[0], x[1] - step[1]];
    }
    let g = residual(&x[..k]);
    let converged = g[0].hypot(g[1]) <= 1e-13 * sc.size;
    let h = jacobian(x);
    let sigma = if k == 1 {
        h[0][0].abs()
    } else {
        // σ_min² = (‖h‖_F² − √(‖h‖_F⁴ − 4 det²)) / 2, the smaller root of the 2 × 2 case.
        let frobenius = h[0][0].powi(2) + h[0][1].powi(2) + h[1][0].powi(2) + h[1][1].powi(2);
        let det = h[0][0] * h[1][1] - h[0][1] * h[1][0];
        let root = (frobenius * frobenius - 4.0 * det * det).max(0.0).sqrt();
        (0.5 * (frobenius - root)).max(0.0).sqrt()
    };
    converged.then(|| (at(&x[..k]), sigma))
}

/// How far `p` lies outside `body` (≤ 0 inside), by the direction search: `max_m m·p − h(m)`.
fn outside(body: &Body, p: DVec3, dim: usize, rng: &mut Rng, hint: DVec3) -> f64 {
    let f = |m: DVec3| body.h(m) - m.dot(p);
    let start = [hint, p - body.inner(dim)];
    -min_over_directions(dim, rng, &start, &f).0
}

// ---------------------------------------------------------------------------------------------
// Bookkeeping
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    checks: u64,
    failures: u64,
    /// Worst error / tolerance over every check (passing or not) of the 1e-6..1e6 scenes, and
    /// that case.
    worst: f64,
    worst_case: String,
    samples: Vec<String>,
    /// The first failure in a `wide` or `tiny` scene.
    other_scale: String,
    by_family: BTreeMap<String, u64>,
    by_placement: BTreeMap<String, u64>,
    /// Per vector type: (checks, failures, worst error / tolerance).
    by_space: BTreeMap<&'static str, (u64, u64, f64)>,
    /// Per scale class (`1e-6..1e6`, `wide`, `tiny`): (checks, failures).
    by_class: BTreeMap<&'static str, (u64, u64)>,
}

#[derive(Default)]
struct Report {
    invariants: BTreeMap<&'static str, Tally>,
    queries: u64,
    cases: u64,
    by_placement: BTreeMap<String, u64>,
}

impl Report {
    /// Records one check: it fails unless `error ≤ tolerance` (NaN fails).
    fn check<V: Space>(
        &mut self,
        name: &'static str,
        scene: &Scene<V>,
        error: f64,
        tolerance: f64,
        detail: &dyn Fn() -> String,
    ) {
        let t = self.invariants.entry(name).or_default();
        t.checks += 1;
        let ratio = if error.is_nan() {
            f64::INFINITY
        } else if tolerance == 0.0 {
            error // exact checks: 0 or 1
        } else {
            error / tolerance
        };
        let failed = error.is_nan() || error > tolerance;
        let space = t.by_space.entry(V::NAME).or_default();
        space.0 += 1;
        space.1 += u64::from(failed);
        space.2 = space.2.max(ratio);
        let class = t.by_class.entry(scene.class()).or_default();
        class.0 += 1;
        class.1 += u64::from(failed);
        // The worst case and the samples come from the 1e-6..1e6 scenes; the first failure of
        // the other scale classes is kept apart.
        let main = !scene.tiny && !scene.wide;
        if main && (ratio > t.worst || (failed && t.worst_case.is_empty())) {
            t.worst = t.worst.max(ratio);
            if failed {
                t.worst_case = format!("{}\n    {}", detail(), scene.repro());
            }
        }
        if failed {
            if std::env::var("GJK_PROPERTY_DUMP").is_ok_and(|d| d.split(',').any(|d| d == name)) {
                eprintln!("--- {name}: {}\n    {}", detail(), scene.repro());
            }
            t.failures += 1;
            *t.by_family.entry(scene.family()).or_default() += 1;
            *t.by_placement.entry(format!("{:?}", scene.placement)).or_default() += 1;
            if main && t.samples.len() < 3 {
                t.samples.push(format!("{}\n    {}", detail(), scene.repro()));
            }
            if !main && t.other_scale.is_empty() {
                t.other_scale = format!("{}\n    {}", detail(), scene.repro());
            }
        }
    }

    fn failures(&self) -> u64 {
        self.invariants.values().map(|t| t.failures).sum()
    }

    fn merge(&mut self, other: Report) {
        self.queries += other.queries;
        self.cases += other.cases;
        for (k, v) in other.by_placement {
            *self.by_placement.entry(k).or_default() += v;
        }
        for (name, o) in other.invariants {
            let t = self.invariants.entry(name).or_default();
            t.checks += o.checks;
            t.failures += o.failures;
            if o.worst > t.worst {
                t.worst = o.worst;
                if !o.worst_case.is_empty() {
                    t.worst_case = o.worst_case;
                }
            }
            for s in o.samples {
                if t.samples.len() < 3 {
                    t.samples.push(s);
                }
            }
            if t.other_scale.is_empty() {
                t.other_scale = o.other_scale;
            }
            for (f, n) in o.by_family {
                *t.by_family.entry(f).or_default() += n;
            }
            for (f, n) in o.by_placement {
                *t.by_placement.entry(f).or_default() += n;
            }
            for (f, (c, n)) in o.by_class {
                let e = t.by_class.entry(f).or_default();
                (e.0, e.1) = (e.0 + c, e.1 + n);
            }
            for (f, (c, n, w)) in o.by_space {
                let e = t.by_space.entry(f).or_default();
                (e.0, e.1, e.2) = (e.0 + c, e.1 + n, e.2.max(w));
            }
        }
    }

    fn summary(&self, verbose: bool) -> String {
        let mut s = format!(
            "property tests: {} cases, {} queries, {} failed checks\n",
            self.cases,
            self.queries,
            self.failures()
        );
        let _ = writeln!(s, "placements: {:?}", self.by_placement);
        let _ = writeln!(
            s,
            "{:<34} {:>10} {:>9} {:>12}",
            "invariant", "checks", "failures", "worst err/τ (1e-6..1e6)"
        );
        for (name, t) in &self.invariants {
            let _ = writeln!(s, "{name:<34} {:>10} {:>9} {:>12.3e}", t.checks, t.failures, t.worst);
        }
        let _ = writeln!(s, "\nper scale class: failures / checks");
        for (name, t) in &self.invariants {
            let mut line = format!("{name:<34}");
            for (class, (c, n)) in &t.by_class {
                let _ = write!(line, " {class} {n}/{c}");
            }
            let _ = writeln!(s, "{line}");
        }
        let _ = writeln!(s, "\nper vector type: failures / checks (worst err/τ)");
        for (name, t) in &self.invariants {
            let mut line = format!("{name:<34}");
            for (space, (c, n, w)) in &t.by_space {
                let _ = write!(line, " {space} {n}/{c} ({w:.2e})");
            }
            let _ = writeln!(s, "{line}");
        }
        for (name, t) in &self.invariants {
            if t.failures == 0 {
                continue;
            }
            let _ = writeln!(s, "\n=== {name}: {} failures of {} checks", t.failures, t.checks);
            let _ = writeln!(s, "  by placement: {:?}", t.by_placement);
            let mut fams: Vec<_> = t.by_family.iter().collect();
            fams.sort_by(|x, y| y.1.cmp(x.1));
            let limit = if verbose { fams.len() } else { 12 };
            for (f, n) in fams.iter().take(limit) {
                let _ = writeln!(s, "  {n:>8}  {f}");
            }
            if fams.len() > limit {
                let _ = writeln!(s, "  ... {} more families", fams.len() - limit);
            }
            let _ = writeln!(s, "  worst ({:.3e} τ):\n    {}", t.worst, t.worst_case);
            for (i, c) in t.samples.iter().enumerate() {
                let _ = writeln!(s, "  sample {}:\n    {c}", i + 1);
            }
            if !t.other_scale.is_empty() {
                let _ =
                    writeln!(s, "  first failure at a wide or tiny scale:\n    {}", t.other_scale);
            }
        }
        s
    }
}

// ---------------------------------------------------------------------------------------------
// The invariants
// ---------------------------------------------------------------------------------------------

/// Everything the library said about one scene.
struct Answers {
    intersects: bool,
    distance: f64,
    /// `closest_points`: `None` when it says intersecting; else (distance, point_a, point_b,
    /// normal), world, f64.
    closest: Option<(f64, DVec3, DVec3, DVec3)>,
    /// `contact(0)` is some.
    contact0: bool,
    /// `contact(∞)`: (depth, normal, point_a, point_b).
    contact: Option<(f64, DVec3, DVec3, DVec3)>,
    /// How `contact(∞)` was obtained (its status), for the failure reports.
    how: String,
}

fn ask<V: Space>(
    a: &dyn Support<V>,
    pose_a: Pose<V>,
    b: &dyn Support<V>,
    pose_b: Pose<V>,
    report: &mut Report,
) -> Answers {
    let pair = Pair::new(a, pose_a, b, pose_b);
    report.queries += 5;
    let closest = match pair.closest_points() {
        gjk::Proximity::Separated(s) => {
            Some((s.distance.to_f64(), to_d(s.point_a), to_d(s.point_b), to_d(s.normal)))
        }
        gjk::Proximity::Intersecting => None,
    };
    let full = pair.contact(V::Real::INFINITY);
    let how = full.map_or_else(String::new, |c| format!("{:?}", c.status));
    let contact =
        full.map(|c| (c.depth.to_f64(), to_d(c.normal), to_d(c.point_a), to_d(c.point_b)));
    Answers {
        intersects: pair.intersects(),
        distance: pair.distance().to_f64(),
        closest,
        contact0: pair.contact(V::Real::ZERO).is_some(),
        contact,
        how,
    }
}

fn finite3(p: DVec3) -> bool {
    p.is_finite()
}

/// **finite_outputs** (exact): every number of every answer is finite.
fn check_finite<V: Space>(r: &mut Report, sc: &Scene<V>, q: &Answers) {
    let mut ok = q.distance.is_finite();
    if let Some((d, pa, pb, n)) = q.closest {
        ok &= d.is_finite() && finite3(pa) && finite3(pb) && finite3(n);
    }
    if let Some((d, n, pa, pb)) = q.contact {
        ok &= d.is_finite() && finite3(pa) && finite3(pb) && finite3(n);
    }
    r.check("finite_outputs", sc, if ok { 0.0 } else { 1.0 }, 0.0, &|| {
        format!(
            "non-finite output: distance {:e}, closest {:?}, contact {:?}",
            q.distance, q.closest, q.contact
        )
    });
}

/// **unit_normals** (`||n| − 1| ≤ rel`): the separation's and the contact's normals.
fn check_unit_normals<V: Space>(r: &mut Report, sc: &Scene<V>, q: &Answers) {
    if let Some((_, _, _, n)) = q.closest {
        let e = (n.length() - 1.0).abs();
        r.check("unit_normals", sc, e, sc.rel, &|| {
            format!("closest_points normal {n:?}, |n| = {}", n.length())
        });
    }
    if let Some((_, n, _, _)) = q.contact {
        let e = (n.length() - 1.0).abs();
        r.check("unit_normals", sc, e, sc.rel, &|| {
            format!("contact normal {n:?}, |n| = {}", n.length())
        });
    }
}

/// **intersects_consistent** (exact): `intersects()` ⇔ `contact(0)` is some ⇔ `distance() == 0`
/// ⇔ `closest_points()` says intersecting.
fn check_consistent<V: Space>(r: &mut Report, sc: &Scene<V>, q: &Answers) {
    let votes = [q.intersects, q.contact0, q.distance == 0.0, q.closest.is_none()];
    let agree = votes.iter().all(|&v| v == votes[0]);
    r.check("intersects_consistent", sc, if agree { 0.0 } else { 1.0 }, 0.0, &|| {
        format!(
            "intersects {} / contact(0) some {} / distance {:e} / closest_points intersecting {} (contact(∞) depth {:?})",
            q.intersects,
            q.contact0,
            q.distance,
            q.closest.is_none(),
            q.contact.map(|c| c.0)
        )
    });
}

/// **intersects_truth**: a pair with a common point (by construction, up to the rounding of
/// the poses, far below the touching tolerance) intersects, or at least reports a distance
/// within `τ` (the pair's distance tolerance); a pair whose plane gap along the construction
/// direction exceeds `4 × touch + τ` does not intersect.
fn check_truth<V: Space>(r: &mut Report, sc: &Scene<V>, q: &Answers) {
    if sc.common_point && !sc.two_points {
        let e = if q.intersects { 0.0 } else { q.distance };
        r.check("intersects_truth", sc, e, sc.tau, &|| {
            format!("a common point exists, intersects() = false, distance {:e}", q.distance)
        });
    }
    let lower = -sc.wb.h(-sc.u) - sc.wa.h(sc.u);
    if lower > 4.0 * sc.touch + sc.tau {
        r.check("intersects_truth", sc, if q.intersects { 1.0 } else { 0.0 }, 0.0, &|| {
            format!("apart by ≥ {lower:e} along u, intersects() = true")
        });
    }
}

/// **distance_exact** (`τ`): for apart constructions the distance is the gap: between the plane
/// gap along `u` (a lower bound) and the distance of the two construction points (an upper
/// bound), both recomputed from the poses the library holds.
fn check_distance_exact<V: Space>(r: &mut Report, sc: &Scene<V>, q: &Answers) {
    if sc.gap <= 0.0 {
        return;
    }
    let lower = -sc.wb.h(-sc.u) - sc.wa.h(sc.u);
    let upper = (sc.wb.support(-sc.u) - sc.wa.support(sc.u)).length();
    if lower <= 4.0 * sc.touch + sc.tau {
        return; // In the touching band: intersects_consistent covers the answer.
    }
    let d = q.distance;
    let e = (lower - d).max(d - upper).max(0.0);
    r.check("distance_exact", sc, e, sc.tau, &|| {
        format!("distance {d:e}, expected in [{lower:e}, {upper:e}]")
    });
}

/// **closest_points** (`τ`): for a separated answer, `point_a` on A's supporting plane of `n`
/// (`n·p_a = h_A(n)`), `point_b` on B's (`n·p_b = −h_B(−n)`), `|p_b − p_a − d n| ≤ τ`, and both
/// points in their shapes (direction search: no plane `m` with `m·p > h(m) + τ`).
fn check_closest<V: Space>(r: &mut Report, sc: &Scene<V>, q: &Answers, rng: &mut Rng) {
    let Some((d, pa, pb, n)) = q.closest else { return };
    let n = n.normalize_or_zero();
    let (ea, eb) = (n.dot(pa) - sc.wa.h(n), -sc.wb.h(-n) - n.dot(pb));
    r.check("closest_points_on_planes", sc, ea.abs().max(eb.abs()), sc.tau, &|| {
        format!("n·p_a − h_A(n) = {ea:e}, −h_B(−n) − n·p_b = {eb:e} (n {n:?}, distance {d:e})")
    });
    let apart = (pb - pa - n * d).length();
    r.check("closest_points_apart_by_distance", sc, apart, sc.tau, &|| {
        format!("|p_b − p_a − d n| = {apart:e}: p_a {pa:?}, p_b {pb:?}, d {d:e}, n {n:?}")
    });
    let dim = sc.dim();
    let (oa, ob) = (outside(&sc.wa, pa, dim, rng, n), outside(&sc.wb, pb, dim, rng, -n));
    r.check("closest_points_on_shapes", sc, oa.max(ob), sc.tau, &|| {
        format!("p_a outside A by {oa:e}, p_b outside B by {ob:e} ({})", q.how)
    });
}

/// **contact** (`τ`, `contact(∞)`, any sign of depth): `p_a − p_b = depth × n`; the points on
/// the supporting planes of `n` and in their shapes; pushing B by `(depth + τ) n` separates
/// (the plane of `n`: `h_A(n) + h_B(−n) ≤ depth + τ`); pushing it by `(depth − τ) n` does not
/// (direction search: no `m` with `h_A(m) + h_B(−m) < (depth − τ) n·m`); and the depth is the
/// smallest overlap (direction search: no `m` with `h_A(m) + h_B(−m) < depth − τ`). When both
/// shapes are smooth (balls, ellipsoids, rounded points) or points, the normal is within 1e-6
/// rad (f64; f32: `F32_ANGLE`), plus `16 ε size / |depth|` (a direction between points
/// `|depth|` apart, each rounded) and `16 ε W / σ` (the relative pose rounded by `ε W` turns
/// the stationary direction by `ε W / σ`), of the stationary direction of the overlap next
/// to it.
fn check_contact<V: Space>(r: &mut Report, sc: &Scene<V>, q: &Answers, rng: &mut Rng) {
    let Some((depth, n, pa, pb)) = q.contact else {
        r.check("contact_some", sc, 1.0, 0.0, &|| "contact(∞) returned None".into());
        return;
    };
    let n = n.normalize_or_zero();
    let dim = sc.dim();
    let witness = (pa - pb - n * depth).length();
    r.check("contact_witness", sc, witness, sc.tau, &|| {
        format!(
            "|p_a − p_b − depth n| = {witness:e}: depth {depth:e}, n {n:?}, p_a {pa:?}, p_b {pb:?}"
        )
    });
    let (ea, eb) = (n.dot(pa) - sc.wa.h(n), -sc.wb.h(-n) - n.dot(pb));
    r.check("contact_points_on_planes", sc, ea.abs().max(eb.abs()), sc.tau, &|| {
        format!(
            "n·p_a − h_A(n) = {ea:e}, −h_B(−n) − n·p_b = {eb:e} (depth {depth:e}, n {n:?}, {})",
            q.how
        )
    });
    let (oa, ob) = (outside(&sc.wa, pa, dim, rng, n), outside(&sc.wb, pb, dim, rng, -n));
    r.check("contact_points_on_shapes", sc, oa.max(ob), sc.tau, &|| {
        format!("p_a outside A by {oa:e}, p_b outside B by {ob:e} ({})", q.how)
    });
    let overlap = |m: DVec3| sc.wa.h(m) + sc.wb.h(-m);
    let along_n = overlap(n);
    r.check("contact_push_separates", sc, along_n - depth, sc.tau, &|| {
        format!("overlap along n {along_n:e} > depth {depth:e}: pushing by depth(1+e) leaves them overlapping (n {n:?}, {})", q.how)
    });
    if sc.a.smooth_or_point() && sc.b.smooth_or_point() && !sc.two_points {
        if let Some((m, sigma)) = stationary_direction(sc, n) {
            let angle = (n - m).length();
            // Plus the conditioning of a direction between points `|depth|` apart, each known
            // to `ε × size`, and that of the stationary direction itself: the relative pose
            // is known to `ε W` (the poses' rounding), which turns it by `ε W / σ` (a point
            // near a ball's centre, `σ` its distance from the centre).
            let eps = V::Real::EPSILON.to_f64();
            let base = if sc.rel > 1e-7 { F32_ANGLE } else { 1e-6 };
            let world = sc.wa.t.length().max(sc.wb.t.length()).max(sc.size);
            let tolerance = base + 16.0 * eps * sc.size / depth.abs() + 16.0 * eps * world / sigma;
            r.check("contact_normal_angle", sc, angle, tolerance, &|| {
                format!("normal {n:?} is {angle:e} rad from the stationary direction {m:?} of the overlap")
            });
        }
    }
    let (smallest, m) = min_over_directions(dim, rng, &[n, sc.u], &overlap);
    r.check("contact_depth_minimal", sc, depth - smallest, sc.tau, &|| {
        format!("depth {depth:e} but the overlap along m = {m:?} is only {smallest:e} (n {n:?})")
    });
    if depth <= sc.tau {
        return; // The origin may not be inside A − B: thin shapes pass through each other.
    }
    let short = depth - sc.tau;
    let f = |m: DVec3| overlap(m) - short * n.dot(m);
    let (worst, m) = min_over_directions(dim, rng, &[n, sc.u], &f);
    r.check("contact_push_short_overlaps", sc, -worst, 0.0, &|| {
        format!("after pushing by depth − τ = {short:e} along n {n:?}, the plane m = {m:?} separates by {:e}", -worst)
    });
}

/// The vertex sets of A − B's cores when both cores are polytopes small enough for the
/// brute-force oracle (at most 32 difference points in 3D, 64 in 2D), with the sum of the
/// margins; B moved by `shift`.
fn small_cores<V: Space>(sc: &Scene<V>, shift: DVec3) -> Option<(Vec<DVec3>, f64)> {
    let dim = sc.dim();
    let (va, ma) = sc.wa.core_vertices(dim)?;
    let (vb, mb) = sc.wb.core_vertices(dim)?;
    let limit = if dim == 3 { 32 } else { 64 };
    if va.len() * vb.len() > limit {
        return None;
    }
    let vb: Vec<DVec3> = vb.iter().map(|b| *b + shift).collect();
    Some((common::minkowski_difference(&va, &vb), ma + mb))
}

/// **hull_oracle** (`τ`): when both cores are small polytopes (points, segments, triangles,
/// boxes, small hulls, with any margin), the brute-force Carathéodory oracle of
/// tests/common gives the exact distance `max(0, d_cores − margins)`: `distance()` matches it
/// within `τ` (in the touching band `4 × touch + τ`, either 0 or the distance is fine); and
/// for a penetrating contact, B pushed by `(depth − τ) n` still meets A (the cores'
/// distance after the push is at most the margins + `τ`), the exact form of
/// `contact_push_short_overlaps`.
fn check_hull_oracle<V: Space>(r: &mut Report, sc: &Scene<V>, q: &Answers) {
    let dim = sc.dim();
    let Some((diff, margins)) = small_cores(sc, DVec3::ZERO) else { return };
    let oracle = common::origin_to_hull(&diff, dim);
    let truth = (oracle.distance() - margins).max(0.0);
    let d = q.distance;
    let in_band = truth <= 4.0 * sc.touch + sc.tau && d == 0.0;
    let e = if in_band { 0.0 } else { (d - truth).abs() };
    r.check("hull_oracle_distance", sc, e, sc.tau, &|| {
        format!(
            "distance {d:e}, brute-force oracle {truth:e} (cores {:e}, margins {margins:e})",
            oracle.distance()
        )
    });
    let Some((depth, n, _, _)) = q.contact else { return };
    let n = n.normalize_or_zero();
    if depth <= sc.tau {
        return;
    }
    let Some((pushed, _)) = small_cores(sc, n * (depth - sc.tau)) else { return };
    let after = common::origin_to_hull(&pushed, dim).distance() - margins;
    r.check("hull_oracle_push_short_overlaps", sc, after, sc.tau, &|| {
        format!("after pushing B by depth − τ = {:e} along n {n:?} the shapes are {after:e} apart (brute force)", depth - sc.tau)
    });
}

/// How far two answers of `distance()` for the same pair disagree. A distance inside the
/// touching band (`4 × touch + τ`, as in `hull_oracle_distance`) is reported as 0 by
/// contract, so when one answer is 0 and the other lies in the band, the two sit on either
/// side of the threshold within rounding and both are right: no disagreement. Outside the
/// band, the plain difference.
fn distance_disagreement<V: Space>(sc: &Scene<V>, d: f64, other: f64) -> f64 {
    let band = 4.0 * sc.touch + sc.tau;
    if (d == 0.0 && other <= band) || (other == 0.0 && d <= band) {
        0.0
    } else {
        (d - other).abs()
    }
}

/// **symmetric** (`τ`): `distance` and the signed depth of `contact(∞)` do not change when A
/// and B swap.
fn check_symmetric<V: Space>(r: &mut Report, sc: &Scene<V>, q: &Answers, swapped: &Answers) {
    let e = distance_disagreement(sc, q.distance, swapped.distance);
    r.check("symmetric_distance", sc, e, sc.tau, &|| {
        format!("distance(A, B) {:e}, distance(B, A) {:e}", q.distance, swapped.distance)
    });
    if let (Some(c), Some(s)) = (q.contact, swapped.contact) {
        let e = (c.0 - s.0).abs();
        r.check("symmetric_depth", sc, e, sc.tau, &|| {
            format!("depth(A, B) {:e}, depth(B, A) {:e}", c.0, s.0)
        });
    }
}

/// **rigid_invariant** (`τ`): `distance` and the signed depth do not change when the whole
/// scene moves (a random rotation and a translation up to 2 sizes). A failure prints the
/// moved poses (`moved`'s), so the moved scene can be rerun alone.
fn check_rigid<V: Space>(
    r: &mut Report,
    sc: &Scene<V>,
    q: &Answers,
    moved: &Answers,
    (moved_a, moved_b): (Pose<V>, Pose<V>),
) {
    let poses = || format!("\n    moved poses: A {moved_a:?}, B {moved_b:?}");
    let e = distance_disagreement(sc, q.distance, moved.distance);
    r.check("rigid_invariant_distance", sc, e, sc.tau, &|| {
        format!("distance {:e}, after moving the scene {:e}{}", q.distance, moved.distance, poses())
    });
    if let (Some(c), Some(s)) = (q.contact, moved.contact) {
        let e = (c.0 - s.0).abs();
        r.check("rigid_invariant_depth", sc, e, sc.tau, &|| {
            format!("depth {:e}, after moving the scene {:e}{}", c.0, s.0, poses())
        });
    }
}

/// **casts** (`τ`), apart constructions: B moves toward A by `k·g` along `−u` over `t ∈ [0, 1]`
/// (A and B both move, plus a common drift): with `k > 1` the cast hits at `t = 1/k` exactly
/// (before, the plane of `u` separates; then the construction points meet), with `k < 1` it
/// misses. At the hit: the gap `|p_b − p_a|` and the plane gap along the normal are within `τ`
/// of 0, and the points lie on the moved shapes' supporting planes.
fn check_cast<V: Space>(
    r: &mut Report,
    sc: &Scene<V>,
    a: &dyn Support<V>,
    b: &dyn Support<V>,
    rng: &mut Rng,
) {
    let dim = sc.dim();
    let lower = -sc.wb.h(-sc.u) - sc.wa.h(sc.u);
    if sc.gap <= 0.0 || lower <= 4.0 * sc.touch + sc.tau {
        return;
    }
    let hit = rng.chance(0.8);
    let k = if hit { rng.range(1.2, 3.0) } else { rng.range(0.3, 0.8) };
    let alpha = rng.unit();
    let drift = rng.in_cube(dim, sc.gap);
    let closing = sc.u * (sc.gap * k);
    let (va, vb) =
        (from_d::<V>(drift + closing * alpha), from_d::<V>(drift - closing * (1.0 - alpha)));
    let pair = Pair::new(a, sc.pose_a, b, sc.pose_b);
    r.queries += 1;
    let c = pair.shape_cast(va, vb, V::Real::ONE);
    let (va, vb) = (to_d(va), to_d(vb));
    let relative = (vb - va).length();
    let expect = if hit { CastStatus::Hit } else { CastStatus::NoHit };
    r.check("cast_status", sc, if c.status == expect { 0.0 } else { 1.0 }, 0.0, &|| {
        format!("status {:?}, expected {expect:?} (toi {:e}, k {k})", c.status, c.toi.to_f64())
    });
    if !hit || c.status != CastStatus::Hit {
        return;
    }
    let toi = c.toi.to_f64();
    let e = (toi - 1.0 / k).abs() * relative;
    r.check("cast_toi", sc, e, sc.tau, &|| {
        format!("toi {toi:e}, expected {:e} (relative speed {relative:e})", 1.0 / k)
    });
    let (wa, wb) = (sc.wa.moved(va * toi), sc.wb.moved(vb * toi));
    let (pa, pb, n) = (to_d(c.point_a), to_d(c.point_b), to_d(c.normal).normalize_or_zero());
    let plane_gap = -wb.h(-n) - wa.h(n);
    let gap = (pb - pa).length().max(plane_gap.abs());
    r.check("cast_gap_zero", sc, gap, sc.tau, &|| {
        format!(
            "at toi {toi:e}: |p_b − p_a| {:e}, plane gap along n {plane_gap:e} (n {n:?})",
            (pb - pa).length()
        )
    });
    let (ea, eb) = (n.dot(pa) - wa.h(n), -wb.h(-n) - n.dot(pb));
    let (oa, ob) = (outside(&wa, pa, dim, rng, n), outside(&wb, pb, dim, rng, -n));
    let e = ea.abs().max(eb.abs()).max(oa).max(ob);
    r.check("cast_points_on_shapes", sc, e, sc.tau, &|| {
        format!(
            "at toi {toi:e}: n·p_a − h_A(n) {ea:e}, −h_B(−n) − n·p_b {eb:e}, outside A {oa:e}, \
             outside B {ob:e}; p_a {pa:?}, p_b {pb:?}, n {n:?}; v_a {va:?}, v_b {vb:?}"
        )
    });
}

/// One scene: every query, every invariant.
fn run_case<V: Space>(rng: &mut Rng, report: &mut Report) {
    let sc = random_scene::<V>(rng);
    report.cases += 1;
    *report.by_placement.entry(format!("{:?}", sc.placement)).or_default() += 1;
    let mut inner = Report::default();
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        check_scene(rng, &mut inner, &sc);
    }));
    let panicked = run.is_err();
    report.merge(inner);
    report.check("no_panic", &sc, if panicked { 1.0 } else { 0.0 }, 0.0, &|| {
        "a query or shape constructor panicked (message above)".to_owned()
    });
}

/// Every query and every invariant on one scene.
fn check_scene<V: Space>(rng: &mut Rng, report: &mut Report, sc: &Scene<V>) {
    let (a, b) = (sc.a.build::<V>(), sc.b.build::<V>());
    let q = ask::<V>(&*a, sc.pose_a, &*b, sc.pose_b, report);
    check_finite(report, sc, &q);
    check_unit_normals(report, sc, &q);
    check_consistent(report, sc, &q);
    if sc.tiny {
        return;
    }
    check_truth(report, sc, &q);
    check_distance_exact(report, sc, &q);
    check_hull_oracle(report, sc, &q);
    check_closest(report, sc, &q, rng);
    check_contact(report, sc, &q, rng);

    let swapped = ask::<V>(&*b, sc.pose_b, &*a, sc.pose_a, report);
    check_symmetric(report, sc, &q, &swapped);

    let dim = V::DIM;
    let (g_rot, g_t) = (rng.rotation(dim), rng.in_cube(dim, 2.0 * sc.size));
    let move_pose = |w: &Body| V::pose(g_rot * w.rot, g_rot * w.t + g_t);
    let moved_poses = (move_pose(&sc.wa), move_pose(&sc.wb));
    let moved = ask::<V>(&*a, moved_poses.0, &*b, moved_poses.1, report);
    check_rigid(report, sc, &q, &moved, moved_poses);

    check_cast(report, sc, &*a, &*b, rng);
}

/// Each scene draws from its own generator, seeded by the space's seed and the scene's index:
/// the checks draw from it too (the direction search's random starts, the moved scene, the
/// cast), and how many numbers they draw depends on the answers, so with one generator for
/// the whole run any change to the library would redraw every later scene and move the
/// counts of invariants it never touched.
fn run_space<V: Space>(seed: u64, cases: usize) -> Report {
    let mut report = Report::default();
    for case in 0..cases {
        let mut rng = Rng::new(Rng::new(seed ^ (case as u64).rotate_left(32)).next_u64());
        run_case::<V>(&mut rng, &mut report);
    }
    report
}

/// The seed of a space: fixed, or offset by `GJK_PROPERTY_SEED` (the long runs use several).
fn seed(base: u64) -> u64 {
    let extra = std::env::var("GJK_PROPERTY_SEED").ok().and_then(|s| s.parse::<u64>().ok());
    base ^ extra.map_or(0, |e| e.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The four spaces, `cases` each (scaled by `GJK_ORACLE_CASES`), one report; asserts at the end.
#[test]
fn properties() {
    let cases = case_count(5000);
    let start = std::time::Instant::now();
    let mut report = Report::default();
    report.merge(run_space::<DVec2>(seed(0x2d64), cases));
    report.merge(run_space::<DVec3>(seed(0x3d64), cases));
    report.merge(run_space::<Vec2>(seed(0x2d32), cases));
    report.merge(run_space::<Vec3>(seed(0x3d32), cases));
    let verbose = std::env::var("GJK_PROPERTY_VERBOSE").is_ok();
    let summary = report.summary(verbose);
    eprintln!("{summary}\nelapsed {:.1} s", start.elapsed().as_secs_f64());
    let default_run =
        std::env::var("GJK_ORACLE_CASES").is_err() && std::env::var("GJK_PROPERTY_SEED").is_err();
    let open = |name: &str| OPEN_FAILURES.iter().find(|(n, _)| *n == name).map_or(0, |(_, c)| *c);
    // The default run holds each invariant to its open count; other counts and seeds report
    // the open invariants and hold the others to zero.
    let allowed = |name: &str| match (default_run, open(name)) {
        (true, count) => u64::from(count),
        (false, 0) => 0,
        (false, _) => u64::MAX,
    };
    let failing: Vec<String> = report
        .invariants
        .iter()
        .filter(|(name, t)| t.failures > allowed(name))
        .map(|(name, t)| format!("{name}: {} of {} (open: {})", t.failures, t.checks, open(name)))
        .collect();
    if default_run {
        for (name, count) in OPEN_FAILURES {
            let now = report.invariants.get(*name).map_or(0, |t| t.failures);
            if now < u64::from(*count) {
                eprintln!(
                    "{name}: {now} failures, fewer than the {count} open: lower OPEN_FAILURES"
                );
            }
        }
    }
    assert!(
        failing.is_empty(),
        "{} failed checks in {} cases ({} queries), more than open for: {}\n(run with --nocapture for the reproductions)",
        report.failures(),
        report.cases,
        report.queries,
        failing.join(", ")
    );
}

/// Failures still open at the default count and seeds (issue 12; docs/robustness.md lists
/// them with their causes). The default run fails when an invariant fails more often than
/// this, so the numbers can only go down: a fix lowers its line. Every other invariant must
/// hold in every run.
const OPEN_FAILURES: &[(&str, u32)] = &[];

/// The scenes of the issue's defect list (issue 12), through the same invariants: each
/// failed before its fix, and all must keep passing.
#[test]
fn issue_examples() {
    let mut rng = Rng::new(12);
    let mut report = Report::default();
    let p2 = |x: f64, y: f64| DVec3::new(x, y, 0.0);
    let at2 = |x: f64, y: f64| DVec2::pose(DQuat::IDENTITY, p2(x, y));
    let at3 = |t: DVec3| DVec3::pose(DQuat::IDENTITY, t);
    let common = (Placement::Deep, DVec3::X, 0.0);
    let run2 = |report: &mut Report, rng: &mut Rng, a: Geo, b: Geo, pose_b: Pose<DVec2>| {
        let sc = Scene::<DVec2>::new(a, at2(0.0, 0.0), b, pose_b, common, false);
        check_scene(rng, report, &sc);
    };
    // 2D crossing segments and capsules: depth 1.0962 reported, 0.6322 exact.
    let seg_a = Geo::Segment(p2(-1.0, 0.0), p2(1.0, 0.0));
    let seg_b = Geo::Segment(p2(0.0, -1.0), p2(0.6, 1.0));
    run2(&mut report, &mut rng, seg_a.clone(), seg_b.clone(), at2(0.1, 0.2));
    let cap_a = Geo::Capsule(p2(-1.0, 0.0), p2(1.0, 0.0), 0.1);
    let cap_b = Geo::Capsule(p2(0.0, -1.0), p2(0.6, 1.0), 0.1);
    run2(&mut report, &mut rng, cap_a, cap_b, at2(0.1, 0.2));
    // 2D ellipses overlapping (contact normal accuracy).
    let ellipse = Geo::Ellipsoid(p2(2.0, 1.0));
    run2(
        &mut report,
        &mut rng,
        ellipse.clone(),
        ellipse,
        DVec2::pose(DQuat::from_rotation_z(0.7), p2(2.5, 1.0)),
    );
    // Cylinder against a ball of the same size at the same place (witness points).
    let sc = Scene::<DVec3>::new(
        Geo::Cylinder(1.0, 1.0),
        at3(DVec3::ZERO),
        Geo::Ball(1.0),
        at3(DVec3::ZERO),
        common,
        false,
    );
    check_scene(&mut rng, &mut report, &sc);
    // A big round hull (1000 points on the unit sphere) against a copy, half overlapping.
    let sphere: Vec<DVec3> = (0..1000).map(|_| rng.direction(3)).collect();
    let hull = Geo::Hull(sphere, "round-big");
    let sc = Scene::<DVec3>::new(
        hull.clone(),
        at3(DVec3::ZERO),
        hull,
        at3(DVec3::new(1.0, 0.2, 0.1)),
        common,
        false,
    );
    check_scene(&mut rng, &mut report, &sc);
    // Balls with radii next to the subnormal range.
    let sc = Scene::<DVec3>::new(
        Geo::Ball(1e-320),
        at3(DVec3::ZERO),
        Geo::Ball(1e-320),
        at3(DVec3::new(1e-320, 0.0, 0.0)),
        common,
        true,
    );
    check_scene(&mut rng, &mut report, &sc);
    eprintln!("{}", report.summary(true));
    assert_eq!(report.failures(), 0, "issue examples still failing");
}
