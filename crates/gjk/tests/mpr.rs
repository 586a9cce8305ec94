//! Minkowski Portal Refinement (`crates/gjk/src/mpr.rs`), the path `intersects` takes in 3D
//! for boxes, polytopes, ellipsoids, cylinders and cones, against independent oracles.
//!
//! * Curved pairs: a certified verdict from bounds written here from the definitions, not
//!   from the library. A lower bound of the cores' distance is `max_n −(h_A(n) + h_B(−n))`
//!   over searched unit directions `n` (the support functions in closed form, written here);
//!   an overlap is certified by a point of one shape (drawn from its parametric solid) lying
//!   inside the other by a certified depth (closed-form depth bounds of a cylinder, a cone, an
//!   ellipsoid and a box). Only pairs clearly apart or clearly overlapping (by 1e-3 of the
//!   scale) are checked; with margins, an upper bound of the cores' distance (the closest of
//!   sampled surface points) certifies shapes that touch within their margins.
//! * Polytopes: the exact distance of the hulls (the Carathéodory oracle of `common`).
//! * Near-touching pairs (built touching along a random normal, then moved by fractions of
//!   the touching distance): no oracle can tell those apart, so `intersects` must agree with
//!   `contact(.., 0)` and `distance` there, whichever path answered.
//!
//! Every check runs in `f32` and `f64`, in both orders, at tiny, unit and huge scales; MPR's
//! own verdict ([`Pair::mpr`]) is checked as well as `intersects`, and MPR must decide most
//! clear pairs (a test that the GJK fallback passes alone would not test MPR).

use crate::common;

use common::{minkowski_difference, origin_to_hull, to_d, Draw, Rng, TestVector};
use gjk::mpr::MprStatus;
use gjk::{
    contact, distance, intersects, Cone, Cuboid, Cylinder, Ellipsoid, GjkOptions, Pair, Polytope,
    Pose, Real, Rounded, Support,
};
use glam::{DQuat, DVec3, Vec3};

/// A curved or boxy solid, in f64, exactly as the library's shape holds it (parameters rounded
/// to the precision under test first).
#[derive(Clone, Copy, Debug)]
enum Solid {
    /// Half height, radius.
    Cylinder(f64, f64),
    /// Half height, base radius (apex at `+h`).
    Cone(f64, f64),
    Ellipsoid(DVec3),
    Box(DVec3),
}

impl Solid {
    fn random(rng: &mut Rng, kind: usize, scale: f64) -> Self {
        let mut len = || rng.range(0.2, 1.0) * scale;
        match kind {
            0 => Solid::Cylinder(len(), len()),
            1 => Solid::Cone(len(), len()),
            2 => Solid::Ellipsoid(DVec3::new(len(), len(), len())),
            _ => Solid::Box(DVec3::new(len(), len(), len())),
        }
    }

    /// The parameters rounded to `V`'s precision, as the library's shape holds them.
    fn rounded<V: TestVector>(self) -> Self {
        let r = |x: f64| V::Real::from_f64(x).to_f64();
        let rv = |v: DVec3| DVec3::new(r(v.x), r(v.y), r(v.z));
        match self {
            Solid::Cylinder(h, radius) => Solid::Cylinder(r(h), r(radius)),
            Solid::Cone(h, radius) => Solid::Cone(r(h), r(radius)),
            Solid::Ellipsoid(radii) => Solid::Ellipsoid(rv(radii)),
            Solid::Box(half) => Solid::Box(rv(half)),
        }
    }

    fn shape<V: TestVector + gjk::Vector3>(self) -> Box<dyn Support<V>> {
        let r = |x: f64| V::Real::from_f64(x);
        let v = |p: DVec3| common::from_d::<V>(p);
        match self {
            Solid::Cylinder(h, radius) => Box::new(Cylinder::new(r(h), r(radius)).unwrap()),
            Solid::Cone(h, radius) => Box::new(Cone::new(r(h), r(radius)).unwrap()),
            Solid::Ellipsoid(radii) => Box::new(Ellipsoid::new(v(radii)).unwrap()),
            Solid::Box(half) => Box::new(Cuboid::new(v(half)).unwrap()),
        }
    }

    /// The support point along `d` in the local frame (closed forms).
    fn support(self, d: DVec3) -> DVec3 {
        let rim = |r: f64| {
            let l = (d.x * d.x + d.z * d.z).sqrt();
            if l > 0.0 {
                DVec3::new(d.x / l * r, 0.0, d.z / l * r)
            } else {
                DVec3::ZERO
            }
        };
        let sign = |x: f64| if x < 0.0 { -1.0 } else { 1.0 };
        match self {
            Solid::Cylinder(h, r) => rim(r) + DVec3::new(0.0, sign(d.y) * h, 0.0),
            Solid::Cone(h, r) => {
                let (apex, base) = (DVec3::new(0.0, h, 0.0), rim(r) - DVec3::new(0.0, h, 0.0));
                if apex.dot(d) >= base.dot(d) {
                    apex
                } else {
                    base
                }
            }
            Solid::Ellipsoid(a) => {
                // argmax x·d on Σ(xᵢ/aᵢ)² ≤ 1: x = a² d / |a d|.
                let ad = a * d;
                let l = ad.length();
                if l > 0.0 {
                    a * ad / l
                } else {
                    DVec3::ZERO
                }
            }
            Solid::Box(h) => DVec3::new(sign(d.x) * h.x, sign(d.y) * h.y, sign(d.z) * h.z),
        }
    }

    /// A lower bound of how deep `p` (local frame) lies inside: positive only when inside.
    fn depth(self, p: DVec3) -> f64 {
        let rho = (p.x * p.x + p.z * p.z).sqrt();
        match self {
            Solid::Cylinder(h, r) => (h - p.y.abs()).min(r - rho),
            Solid::Cone(h, r) => {
                // The meridian triangle (0, h), (0, −h), (r, −h): the base's distance and the
                // slanted side's (its inward normal is (−2h, −r)/√(4h² + r²)).
                let side = (2.0 * h * (r - rho) - r * (p.y + h)) / (4.0 * h * h + r * r).sqrt();
                (p.y + h).min(side)
            }
            Solid::Ellipsoid(a) => {
                // p ∈ sE with s = |p/a|, and p + (1 − s)E ⊂ E, which holds the ball of radius
                // (1 − s) min aᵢ about p.
                (1.0 - (p / a).length()) * a.min_element()
            }
            Solid::Box(h) => (h - p.abs()).min_element(),
        }
    }

    /// Points of the solid (local frame): its surface and inside.
    fn points(self, rng: &mut Rng, n: usize) -> Vec<DVec3> {
        (0..n)
            .map(|i| {
                let surface = i % 2 == 0;
                let u = if surface { 1.0 } else { rng.unit().sqrt() };
                let (s, c) = rng.angle().sin_cos();
                match self {
                    Solid::Cylinder(h, r) => DVec3::new(r * u * c, rng.range(-h, h), r * u * s),
                    Solid::Cone(h, r) => {
                        let y = rng.range(-h, h);
                        let reach = r * (h - y) / (2.0 * h);
                        DVec3::new(reach * u * c, y, reach * u * s)
                    }
                    Solid::Ellipsoid(a) => a * rng.direction(3) * u,
                    Solid::Box(h) => {
                        let p = DVec3::new(
                            rng.range(-1.0, 1.0),
                            rng.range(-1.0, 1.0),
                            rng.range(-1.0, 1.0),
                        );
                        // Half the points pushed onto a face.
                        let p = if surface { p / p.abs().max_element() } else { p };
                        h * p
                    }
                }
            })
            .collect()
    }
}

/// A solid placed in the world (rotation and translation exactly as the library holds them).
#[derive(Clone, Copy, Debug)]
struct Placed {
    solid: Solid,
    rotation: DQuat,
    translation: DVec3,
}

impl Placed {
    fn support(&self, n: DVec3) -> DVec3 {
        self.rotation * self.solid.support(self.rotation.conjugate() * n) + self.translation
    }
    fn depth(&self, p: DVec3) -> f64 {
        self.solid.depth(self.rotation.conjugate() * (p - self.translation))
    }
    fn points(&self, rng: &mut Rng, n: usize) -> Vec<DVec3> {
        let local = self.solid.points(rng, n);
        local.into_iter().map(|p| self.rotation * p + self.translation).collect()
    }
}

/// A lower bound of the distance between two placed solids: the best support-plane gap
/// `−(h_A(n) + h_B(−n))` over random directions, then a shrinking-step search around the best.
fn distance_lower_bound(a: &Placed, b: &Placed, rng: &mut Rng) -> f64 {
    let gap = |n: DVec3| {
        let n = n.normalize();
        -(n.dot(a.support(n)) - n.dot(b.support(-n)))
    };
    let mut best_n = (b.translation - a.translation).try_normalize().unwrap_or(DVec3::X);
    let mut best = gap(best_n);
    for _ in 0..300 {
        let n = rng.direction(3);
        let g = gap(n);
        if g > best {
            (best, best_n) = (g, n);
        }
    }
    let mut step = 0.3;
    while step > 1e-7 {
        let mut improved = false;
        for _ in 0..12 {
            let n = (best_n + rng.direction(3) * step).normalize();
            let g = gap(n);
            if g > best {
                (best, best_n, improved) = (g, n, true);
            }
        }
        if !improved {
            step *= 0.5;
        }
    }
    best
}

/// The deepest certified overlap: a point of one solid inside the other by this much.
fn overlap_depth(a: &Placed, b: &Placed, rng: &mut Rng) -> f64 {
    let into_b = a.points(rng, 400).into_iter().map(|p| b.depth(p));
    let into_a = b.points(rng, 400).into_iter().map(|p| a.depth(p));
    into_b.chain(into_a).fold(f64::NEG_INFINITY, f64::max)
}

/// An upper bound of the distance: the closest pair of sampled surface points.
fn distance_upper_bound(a: &Placed, b: &Placed, rng: &mut Rng) -> f64 {
    let pa: Vec<DVec3> = a.points(rng, 800).into_iter().step_by(2).collect();
    let pb: Vec<DVec3> = b.points(rng, 800).into_iter().step_by(2).collect();
    pa.iter().flat_map(|p| pb.iter().map(move |q| (*p - *q).length())).fold(f64::INFINITY, f64::min)
}

/// The certified verdict for the cores of `a` and `b` grown by `margins`: `Some(true)` when
/// clearly intersecting, `Some(false)` when clearly apart (by `clear`), `None` otherwise.
fn certified(a: &Placed, b: &Placed, margins: f64, clear: f64, rng: &mut Rng) -> Option<bool> {
    if distance_lower_bound(a, b, rng) > margins + clear {
        return Some(false);
    }
    if overlap_depth(a, b, rng) > clear {
        return Some(true);
    }
    if margins > 0.0 && distance_upper_bound(a, b, rng) < margins - clear {
        return Some(true);
    }
    None
}

/// A random placement of two solids about `scale` apart, rounded to `V`'s precision.
fn place<V: TestVector>(
    rng: &mut Rng,
    kinds: (usize, usize),
    scale: f64,
) -> (Placed, Placed, Pose<V>, Pose<V>) {
    let (sa, sb) = (Solid::random(rng, kinds.0, scale), Solid::random(rng, kinds.1, scale));
    let pose_a = V::pose(rng.rotation(3), rng.in_cube(3, 0.5 * scale));
    let pose_b = V::pose(rng.rotation(3), rng.in_cube(3, 1.6 * scale));
    let placed = |solid: Solid, pose: &Pose<V>| Placed {
        solid: solid.rounded::<V>(),
        rotation: V::rotation_of(pose),
        translation: to_d(pose.translation()),
    };
    (placed(sa, &pose_a), placed(sb, &pose_b), pose_a, pose_b)
}

/// The kind pairs under test: cylinder, cone, ellipsoid, box (0..4), each routed to MPR.
const KINDS: [(usize, usize); 8] = [(0, 1), (0, 0), (1, 1), (2, 1), (2, 0), (3, 0), (3, 1), (2, 2)];

fn certified_pairs<V: TestVector + gjk::Vector3>(scales: &[f64], margin: f64) {
    let mut rng = Rng::new(0x4D50_5201 ^ V::NAME.len() as u64 ^ margin.to_bits());
    let options = GjkOptions::<V::Real>::default();
    let (mut clear, mut decided) = (0, 0);
    for &scale in scales {
        for kinds in KINDS {
            for _ in 0..common::case_count(12) {
                let (a, b, pose_a, pose_b) = place::<V>(&mut rng, kinds, scale);
                let m = V::Real::from_f64(margin * scale);
                let margins = 2.0 * m.to_f64();
                let Some(expected) = certified(&a, &b, margins, 1e-3 * scale, &mut rng) else {
                    continue;
                };
                let (shape_a, shape_b) = (a.solid.shape::<V>(), b.solid.shape::<V>());
                let (shape_a, shape_b): (Box<dyn Support<V>>, Box<dyn Support<V>>) = if margin > 0.0
                {
                    (
                        Box::new(Rounded::new(shape_a, m).unwrap()),
                        Box::new(Rounded::new(shape_b, m).unwrap()),
                    )
                } else {
                    (shape_a, shape_b)
                };
                for (x, px, y, py) in
                    [(&shape_a, &pose_a, &shape_b, &pose_b), (&shape_b, &pose_b, &shape_a, &pose_a)]
                {
                    clear += 1;
                    let what = format!("{} scale {scale} {a:?} {b:?} margins {margins}", V::NAME);
                    let run = Pair::new(&**x, *px, &**y, *py).mpr(&options);
                    if let Some(verdict) = run.verdict() {
                        decided += 1;
                        assert_eq!(verdict, expected, "MPR {run:?}: {what}");
                    }
                    assert_eq!(intersects(&**x, px, &**y, py), expected, "intersects: {what}");
                }
            }
        }
    }
    assert!(clear > 100, "too few certified pairs: {clear}");
    // Without margins MPR decides every clear pair; with them, the pairs apart by less than
    // the margins (about a third here) go to GJK by design.
    let floor = if margin > 0.0 { 0.5 } else { 0.95 };
    assert!(decided as f64 >= floor * clear as f64, "MPR decided {decided} of {clear}");
}

#[test]
fn curved_pairs_match_the_certified_oracle_f64() {
    certified_pairs::<DVec3>(&[1e-9, 1.0, 1e9], 0.0);
}

#[test]
fn curved_pairs_match_the_certified_oracle_f32() {
    certified_pairs::<Vec3>(&[1e-5, 1.0, 1e5], 0.0);
}

#[test]
fn rounded_curved_pairs_match_the_certified_oracle() {
    certified_pairs::<DVec3>(&[1.0], 0.15);
    certified_pairs::<Vec3>(&[1.0], 0.15);
}

fn hulls<V: TestVector + gjk::Vector3>(scale: f64) {
    let mut rng = Rng::new(0x4D50_5202 ^ V::NAME.len() as u64);
    let options = GjkOptions::<V::Real>::default();
    let (mut clear, mut decided) = (0, 0);
    for _ in 0..common::case_count(60) {
        let corners = |rng: &mut Rng| -> Vec<V> {
            (0..6).map(|_| common::from_d::<V>(rng.in_cube(3, scale))).collect()
        };
        let (ca, cb) = (corners(&mut rng), corners(&mut rng));
        let (a, b) = (Polytope::new(ca.clone()).unwrap(), Polytope::new(cb.clone()).unwrap());
        let pose_a = V::pose(rng.rotation(3), rng.in_cube(3, 0.5 * scale));
        let pose_b = V::pose(rng.rotation(3), rng.in_cube(3, 1.8 * scale));
        let world = |pose: &Pose<V>, c: &[V]| -> Vec<DVec3> {
            c.iter().map(|&p| V::rotation_of(pose) * to_d(p) + to_d(pose.translation())).collect()
        };
        let q =
            origin_to_hull(&minkowski_difference(&world(&pose_a, &ca), &world(&pose_b, &cb)), 3);
        let clear_by = 1e-3 * scale;
        let expected = if q.contains && q.depth > clear_by {
            true
        } else if !q.contains && q.face_distance > clear_by {
            false
        } else {
            continue;
        };
        for (x, px, y, py) in [(&a, &pose_a, &b, &pose_b), (&b, &pose_b, &a, &pose_a)] {
            clear += 1;
            let run = Pair::new(x, *px, y, *py).mpr(&options);
            if let Some(verdict) = run.verdict() {
                decided += 1;
                assert_eq!(verdict, expected, "{} scale {scale}: MPR {run:?}", V::NAME);
            }
            assert_eq!(intersects(x, px, y, py), expected, "{} scale {scale}", V::NAME);
        }
    }
    assert!(clear > 60 && decided as f64 >= 0.95 * clear as f64, "{decided} of {clear}");
}

#[test]
fn hulls_match_the_exact_oracle() {
    for scale in [1e-9, 1.0, 1e9] {
        hulls::<DVec3>(scale);
    }
    for scale in [1e-5, 1.0, 1e5] {
        hulls::<Vec3>(scale);
    }
}

/// Pairs built touching along a random normal, then moved apart or together by fractions of
/// the touching distance: `intersects` must agree with `contact(.., 0)` and `distance`.
fn near_touching<V: TestVector + gjk::Vector3>(scales: &[f64]) {
    let mut rng = Rng::new(0x4D50_5203 ^ V::NAME.len() as u64);
    let mut statuses = std::collections::BTreeMap::new();
    for &scale in scales {
        for kinds in KINDS {
            for _ in 0..common::case_count(6) {
                let (sa, sb) = (
                    Solid::random(&mut rng, kinds.0, scale),
                    Solid::random(&mut rng, kinds.1, scale),
                );
                let (sa, sb) = (sa.rounded::<V>(), sb.rounded::<V>());
                let (ra, rb) = (rng.rotation(3), rng.rotation(3));
                let ta = rng.in_cube(3, 0.5 * scale);
                let n = rng.direction(3);
                // A's support point along n, B's along −n, made to coincide.
                let on_a = ra * sa.support(ra.conjugate() * n) + ta;
                let on_b = rb * sb.support(rb.conjugate() * -n);
                let (shape_a, shape_b) = (sa.shape::<V>(), sb.shape::<V>());
                let pose_a = V::pose(ra, ta);
                let touch = {
                    let pose_b = V::pose(rb, on_a - on_b);
                    Pair::new(&*shape_a, pose_a, &*shape_b, pose_b)
                        .tolerance(V::Real::DEFAULT_TOLERANCE)
                        .distance()
                        .to_f64()
                };
                for k in [-1e3, -3.0, -1.0, -0.5, 0.0, 0.5, 0.9, 1.1, 2.0, 3.0, 1e3] {
                    let pose_b = V::pose(rb, on_a - on_b + n * (k * touch));
                    for (x, px, y, py) in [
                        (&shape_a, &pose_a, &shape_b, &pose_b),
                        (&shape_b, &pose_b, &shape_a, &pose_a),
                    ] {
                        let hit = intersects(&**x, px, &**y, py);
                        let what = format!("{} scale {scale} k {k} {sa:?} {sb:?}", V::NAME);
                        assert_eq!(
                            hit,
                            contact(&**x, px, &**y, py, V::Real::ZERO).is_some(),
                            "contact: {what}"
                        );
                        assert_eq!(
                            hit,
                            distance(&**x, px, &**y, py) == V::Real::ZERO,
                            "distance: {what}"
                        );
                        let run = Pair::new(&**x, *px, &**y, *py).mpr(&GjkOptions::default());
                        *statuses.entry(format!("{:?}", run.status)).or_insert(0) += 1;
                        if k >= 1e3 {
                            // Moved apart along the separating normal by a thousand touching
                            // distances: the plane proves them apart. (Moved together, pairs
                            // touching at a corner may slide past each other: no claim.)
                            assert!(!hit, "{what}");
                        }
                    }
                }
            }
        }
    }
    // Both the proofs and the fallback are exercised.
    for status in ["Overlap", "Separated"] {
        assert!(statuses.contains_key(status), "{statuses:?}");
    }
    assert!(statuses.keys().any(|s| s != "Overlap" && s != "Separated"), "{statuses:?}");
}

#[test]
fn near_touching_pairs_agree_with_contact_and_distance() {
    near_touching::<DVec3>(&[1e-9, 1.0, 1e9]);
    near_touching::<Vec3>(&[1e-5, 1.0, 1e5]);
}

/// Pairs built touching along a random normal `n` and moved along it by gaps of 0.1 to 10
/// `unit`s (1e-9 of the scale in f64, 1e-5 in f32: about the touching distance), checked
/// against the distance known by construction. With B moved by `g n` from touching (its
/// translation as the library holds it), the support plane of A along `n` separates the solids
/// by `s = n·(B's support along −n) − h_A(n)`, a lower bound of their distance, and A's and B's
/// support points are `|·|` apart, an upper bound; moved together (`g < 0`), the midpoint of
/// the two support points lying inside both (closed-form depths) certifies an overlap.
/// MPR's own verdict, when it gives one, must be true below the touching distance and false
/// above it (outside a band of rounding around it); `intersects` the same, outside the band
/// plus its GJK fallback's accuracy (`fallback` of the scale).
fn gap_family<V: TestVector + gjk::Vector3>(scales: &[f64], unit: f64, band: f64, fallback: f64) {
    let mut rng = Rng::new(0x4D50_5206 ^ V::NAME.len() as u64);
    let options = GjkOptions::<V::Real>::default();
    let (mut checked, mut overlaps, mut proved, mut cases) = (0, 0, 0, 0);
    for &scale in scales {
        for kinds in KINDS {
            for _ in 0..common::case_count(8) {
                let (sa, sb) = (
                    Solid::random(&mut rng, kinds.0, scale).rounded::<V>(),
                    Solid::random(&mut rng, kinds.1, scale).rounded::<V>(),
                );
                let pose_a = V::pose(rng.rotation(3), rng.in_cube(3, 0.5 * scale));
                let a = Placed {
                    solid: sa,
                    rotation: V::rotation_of(&pose_a),
                    translation: to_d(pose_a.translation()),
                };
                let rb = V::rotation_of(&V::pose(rng.rotation(3), DVec3::ZERO));
                let n = rng.direction(3);
                let on_a = a.support(n);
                // B's support point along −n at the origin of its frame.
                let on_b = rb * sb.support(rb.conjugate() * -n);
                let (shape_a, shape_b) = (sa.shape::<V>(), sb.shape::<V>());
                for k in [-30.0, -10.0, -2.0, -1.0, -0.3, -0.1, 0.1, 0.3, 1.0, 2.0, 10.0, 30.0] {
                    let g = k * unit * scale;
                    let pose_b = V::pose(rb, on_a - on_b + n * g);
                    let b = Placed {
                        solid: sb,
                        rotation: V::rotation_of(&pose_b),
                        translation: to_d(pose_b.translation()),
                    };
                    let on_b = b.support(-n);
                    let lower = n.dot(on_b) - n.dot(on_a);
                    let upper = (on_b - on_a).length();
                    // Moved together: how deep the midpoint of the support points lies in both.
                    let mid = 0.5 * (on_a + on_b);
                    let depth = if g < 0.0 { a.depth(mid).min(b.depth(mid)) } else { 0.0 };
                    let touch = Pair::new(&*shape_a, pose_a, &*shape_b, pose_b)
                        .tolerance(V::Real::DEFAULT_TOLERANCE)
                        .distance()
                        .to_f64();
                    // The verdict with `slack` of rounding either side of the touching distance.
                    let oracle = |slack: f64| {
                        if lower > touch + slack {
                            Some(false)
                        } else if upper < touch - slack || depth > slack.max(0.0) {
                            Some(true)
                        } else {
                            None
                        }
                    };
                    // MPR's verdicts are proofs: held to the touching distance. `intersects`
                    // also answers through GJK, whose distances are only as accurate as
                    // `fallback` of the scale.
                    let proof = oracle(band * touch);
                    let answer = oracle(band * touch + fallback * scale);
                    cases += 1;
                    if proof.is_none() && answer.is_none() {
                        continue;
                    }
                    for (x, px, y, py) in [
                        (&shape_a, &pose_a, &shape_b, &pose_b),
                        (&shape_b, &pose_b, &shape_a, &pose_a),
                    ] {
                        let what = format!(
                            "{} scale {scale} gap {k} units (touch {:.3} units) {sa:?} {sb:?}",
                            V::NAME,
                            touch / (unit * scale)
                        );
                        if let Some(expected) = answer {
                            assert_eq!(intersects(&**x, px, &**y, py), expected, "{what}");
                            checked += 1;
                            overlaps += usize::from(expected);
                        }
                        let run = Pair::new(&**x, *px, &**y, *py).mpr(&options);
                        if let (Some(verdict), Some(expected)) = (run.verdict(), proof) {
                            assert_eq!(verdict, expected, "MPR {:?}: {what}", run.status);
                            proved += 1;
                        }
                    }
                }
            }
        }
    }
    // The oracle decides many gaps (each in both orders; in f32 mostly the larger ones), both
    // ways, and MPR proves many.
    assert!(checked >= cases / 8, "{checked} of {cases}");
    assert!(overlaps > 0 && overlaps < checked, "{overlaps} of {checked}");
    assert!(proved >= cases / 10, "{proved} of {cases}");
}

#[test]
fn gaps_near_the_touching_distance_match_the_constructed_distance() {
    gap_family::<DVec3>(&[1e-9, 1.0, 1e9], 1e-9, 0.01, 0.0);
    // f32's GJK measures to about 1e-4 of the scale (`common::TOL_F32`), more than the
    // touching distance (5e-5 of it here): near touching only MPR's proofs are held exact.
    gap_family::<Vec3>(&[1e-5, 1.0, 1e5], 1e-5, 0.05, common::TOL_F32);
}

fn identical_and_nested<V: TestVector + gjk::Vector3>(scale: f64) {
    let mut rng = Rng::new(0x4D50_5204);
    let options = GjkOptions::<V::Real>::default();
    for kinds in KINDS {
        let outer = Solid::random(&mut rng, kinds.0, scale).rounded::<V>();
        let pose = V::pose(rng.rotation(3), rng.in_cube(3, scale));
        let shape = outer.shape::<V>();
        // The same shape at the same pose: the start points coincide.
        let run = Pair::new(&*shape, pose, &*shape, pose).mpr(&options);
        assert_eq!(run.status, MprStatus::Overlap, "identical {outer:?}");
        assert!(intersects(&*shape, &pose, &*shape, &pose));
        // A small solid deep inside: its whole extent is a tenth of the outer's smallest size.
        let size = match outer {
            Solid::Cylinder(h, r) | Solid::Cone(h, r) => h.min(r),
            Solid::Ellipsoid(a) | Solid::Box(a) => a.min_element(),
        };
        let inner = Solid::random(&mut rng, kinds.1, 0.05 * size).rounded::<V>();
        // The cone's centroid is inside it, a quarter of the height above the base.
        let offset = match outer {
            Solid::Cone(h, _) => DVec3::new(0.0, -0.5 * h, 0.0),
            _ => DVec3::ZERO,
        };
        let inner_pose =
            V::pose(rng.rotation(3), V::rotation_of(&pose) * offset + to_d(pose.translation()));
        let small = inner.shape::<V>();
        for (x, px, y, py) in
            [(&shape, &pose, &small, &inner_pose), (&small, &inner_pose, &shape, &pose)]
        {
            let run = Pair::new(&**x, *px, &**y, *py).mpr(&options);
            assert_eq!(run.status, MprStatus::Overlap, "nested {inner:?} in {outer:?}");
            assert!(intersects(&**x, px, &**y, py));
        }
    }
}

#[test]
fn identical_and_nested_shapes_overlap() {
    for scale in [1e-9, 1.0, 1e9] {
        identical_and_nested::<DVec3>(scale);
    }
    for scale in [1e-5, 1.0, 1e5] {
        identical_and_nested::<Vec3>(scale);
    }
}

#[test]
fn the_iteration_cap_is_reported() {
    let cylinder = Cylinder::<DVec3>::new(1.0, 0.5).unwrap();
    let cone = Cone::<DVec3>::new(1.0, 0.5).unwrap();
    let pose_b = Pose::new(DQuat::from_rotation_x(0.7), DVec3::new(0.6, 0.3, 0.2)).unwrap();
    let pair = Pair::new(&cylinder, Pose::IDENTITY, &cone, pose_b);
    let full = pair.mpr(&GjkOptions::default());
    assert_eq!(full.status, MprStatus::Overlap);
    assert!(full.iterations >= 3);
    let capped = pair.mpr(&GjkOptions { max_iterations: 2, ..Default::default() });
    assert_eq!(capped.status, MprStatus::IterationCap);
    assert_eq!(capped.iterations, 2);
    assert_eq!(capped.verdict(), None);
    // Kinds MPR does not take: no verdict and no support call.
    let ball = gjk::Ball::<DVec3>::new(1.0).unwrap();
    let other = Pair::new(&ball, Pose::IDENTITY, &cone, pose_b).mpr(&GjkOptions::default());
    assert_eq!((other.status, other.iterations), (MprStatus::Unsupported, 0));
}

/// Flat and thin solids (discs, segments, needles): the Minkowski difference can be flat, and
/// the portal degenerate. Clear separations must be found, and `intersects` must agree with
/// `contact(.., 0)` and `distance` everywhere.
fn degenerate<V: TestVector + gjk::Vector3>() {
    let mut rng = Rng::new(0x4D50_5205 ^ V::NAME.len() as u64);
    let options = GjkOptions::<V::Real>::default();
    let mut decided = 0;
    for case in 0..common::case_count(200) {
        let solid = |rng: &mut Rng, k: usize| {
            let (h, r) = (rng.range(0.2, 1.0), rng.range(0.2, 1.0));
            match (case + k) % 6 {
                0 => Solid::Cylinder(h, 0.0),
                1 => Solid::Cylinder(0.0, r),
                2 => Solid::Cone(h, 0.0),
                3 => Solid::Cone(0.0, r),
                4 => Solid::Cylinder(h, 1e-7 * h),
                _ => Solid::Cone(1e-7 * r, r),
            }
            .rounded::<V>()
        };
        let (sa, sb) = (solid(&mut rng, 0), solid(&mut rng, case / 6));
        let pose_a = V::pose(rng.rotation(3), rng.in_cube(3, 0.3));
        // Half the cases with parallel axes (flat differences), half turned.
        let turn = if case % 2 == 0 { V::rotation_of(&pose_a) } else { rng.rotation(3) };
        let pose_b = V::pose(turn, rng.in_cube(3, 1.2));
        let placed = |solid: Solid, pose: &Pose<V>| Placed {
            solid,
            rotation: V::rotation_of(pose),
            translation: to_d(pose.translation()),
        };
        let lower = distance_lower_bound(&placed(sa, &pose_a), &placed(sb, &pose_b), &mut rng);
        let (a, b) = (sa.shape::<V>(), sb.shape::<V>());
        for (x, px, y, py) in [(&a, &pose_a, &b, &pose_b), (&b, &pose_b, &a, &pose_a)] {
            let what = format!("{} {sa:?} {sb:?} case {case}", V::NAME);
            let hit = intersects(&**x, px, &**y, py);
            assert_eq!(hit, contact(&**x, px, &**y, py, V::Real::ZERO).is_some(), "{what}");
            assert_eq!(hit, distance(&**x, px, &**y, py) == V::Real::ZERO, "{what}");
            let run = Pair::new(&**x, *px, &**y, *py).mpr(&options);
            if lower > 1e-3 {
                assert!(!hit, "{what}");
                assert_ne!(run.verdict(), Some(true), "{what}");
            }
            // (A verdict of MPR is what `intersects` returned: the check on it is the
            // agreement with `contact` and `distance` above, which run GJK and EPA.)
            decided += u32::from(run.verdict().is_some());
        }
    }
    assert!(decided > 0);
}

#[test]
fn flat_and_thin_solids_agree_with_contact_and_distance() {
    degenerate::<DVec3>();
    degenerate::<Vec3>();
}

/// Out of `QUARTIC_SAFE` the portal's triple products underflow (hulls 1e-307 across read as
/// overlapping when 3e-307 apart, found by the property suite): MPR declines, GJK answers.
#[test]
fn sizes_out_of_the_safe_range_go_to_gjk() {
    for scale in [1e-307, 1e-200, 1e200] {
        let corners = |shift: f64| -> Vec<DVec3> {
            [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z]
                .iter()
                .map(|&p| (p + DVec3::new(shift, 0.0, 0.0)) * scale)
                .collect()
        };
        let a = Polytope::new(corners(0.0)).unwrap();
        for shift in [1.5, 0.5] {
            let b = Polytope::new(corners(shift)).unwrap();
            let id = Pose::<DVec3>::IDENTITY;
            let run = Pair::new(&a, id, &b, id).mpr(&GjkOptions::default());
            assert_eq!(run.status, MprStatus::Unsupported, "scale {scale}");
            assert_eq!(run.iterations, 0);
            let hit = intersects(&a, &id, &b, &id);
            assert_eq!(hit, distance(&a, &id, &b, &id) == 0.0, "scale {scale}");
            // (No verdict checked: GJK's own squares leave the normal range at these sizes,
            // and it calls these overlapping tetrahedra apart at 1e-200. Its limit, not MPR's.)
        }
    }
}
