//! Named regression tests: each is the smallest case of a core bug this suite found, kept so the
//! bug stays fixed. The fix is described in the commit that added the test.

use gjk::{GjkOptions, Goal, Pair, Polytope, Pose, WarmStart};
use glam::DVec2;

/// Touching within tolerance must count as intersecting even when the very first support points
/// meet at the contact. The touching tolerance is relative to the shapes' size, but the query
/// measured "size" as the largest `|w| = |a − b|` seen — here `|w| = 1e-14`, so the tolerance
/// shrank to ~1e-24: `intersects()` reported a separating axis and `distance()` a 1e-14 gap
/// between two unit triangles sharing a vertex (up to rounding). Fixed by also measuring the
/// support points' distances from their shapes' centres.
#[test]
fn touching_vertex_seen_first_still_intersects() {
    let a =
        Polytope::new(vec![DVec2::ZERO, DVec2::new(-1.0, 1.0), DVec2::new(-1.0, -1.0)]).unwrap();
    let b =
        Polytope::new(vec![DVec2::new(1e-14, 0.0), DVec2::new(1.0, 1.0), DVec2::new(1.0, -1.0)])
            .unwrap();
    let pair = Pair::new(&a, Pose::IDENTITY, &b, Pose::IDENTITY);
    assert!(pair.intersects(), "a 1e-14 gap between unit shapes is touching");
    assert_eq!(pair.distance(), 0.0);
    let r = pair.gjk(Goal::Distance, &GjkOptions::default(), &mut WarmStart::default());
    assert!(r.intersecting, "{r:?}");
}

/// A subnormal direction must normalise to a unit vector, not NaN. `Vector::direction` scaled by
/// `1/max|xᵢ|`, which overflows to infinity for a subnormal maximum and turns the zero
/// coordinates into `0 × ∞ = NaN`; `full_support` of any shape with a margin then returned NaN.
/// Fixed by dividing by the maximum instead.
#[test]
fn subnormal_direction_normalises_without_nan() {
    use gjk::{full_support, Ball, Vector};
    use glam::DVec3;
    let d = DVec3::new(0.0, -5e-324, 0.0);
    assert_eq!(Vector::direction(d), Some(DVec3::new(0.0, -1.0, 0.0)));
    let ball = Ball::<DVec3>::new(2.0).unwrap();
    assert_eq!(full_support(&ball, d), DVec3::new(0.0, -2.0, 0.0));
}

/// A polytope whose points lie near the largest float must have a finite centre. The centre was
/// the sum of the points divided by their number, and the sum overflowed to infinity; the
/// touching tolerance (relative to the support points' distances from the centre) then became
/// infinite. Fixed by summing `pᵢ / n`.
#[test]
fn polytope_center_near_float_max_is_finite() {
    use gjk::{Polytope, Support};
    use glam::{DVec3, Vec2};
    let hull = Polytope::new(vec![DVec3::splat(1.5e308), DVec3::splat(1.7e308)]).unwrap();
    assert!(hull.center().is_finite());
    assert!((hull.center().x - 1.6e308).abs() < 1e293);
    let f32_hull = Polytope::new(vec![Vec2::splat(3e38), Vec2::new(3e38, -3e38)]).unwrap();
    assert_eq!(f32_hull.center(), Vec2::new(3e38, 0.0));
}

/// An ellipsoid with very unequal (valid) radii must have a finite support point. With radii
/// (1e-300, 1, 1e300) and the direction (1e-300, 0, 0), `R d` was (1e-300, 0, 0), its squared
/// length underflowed to 0, and the support became 0/0 = NaN. Fixed by rescaling `R d` by its
/// largest coordinate before taking its length.
#[test]
fn ellipsoid_support_with_extreme_radii_is_finite() {
    use gjk::{Ellipsoid, Support};
    use glam::DVec3;
    let e = Ellipsoid::new(DVec3::new(1e-300, 1.0, 1e300)).unwrap();
    assert_eq!(e.support(DVec3::new(1e-300, 0.0, 0.0)), DVec3::new(1e-300, 0.0, 0.0));
    assert_eq!(e.support(DVec3::new(0.0, 0.0, -1.0)), DVec3::new(0.0, 0.0, -1e300));
    let p = e.support(DVec3::new(1.0, 1.0, 1.0));
    assert!(p.is_finite() && (p.z - 1e300).abs() < 1e285, "{p:?}");
}

/// In f32, an ellipse 4.9e-4 from a segment of length 5.3 was reported 1.08e-3 away (after
/// `NoProgress`). Near contact, `v = Σ λᵢ wᵢ` on a long edge of the Minkowski difference is
/// accurate in position but tilted by ε·L/|v|; the segment's two ends tie along such a `v`, the
/// tilt picked the wrong one, the support point repeated, and the loop stopped on a wrong edge.
/// Fixed (2D) by projecting the origin along the edge's exact normal. The expected distance is
/// `c − √((r₁n₁)² + (r₂n₂)²)` for the line `n·x = c`, computed in f64.
#[test]
fn f32_ellipse_near_long_segment_has_the_right_distance() {
    use gjk::{Ellipsoid, Pose, Rotation2, Segment};
    use glam::{DVec2, Vec2};
    let radii = DVec2::new(0.15182854235172272, 0.6621919274330139);
    let n = DVec2::new(-0.50863281918701, -0.8609835394744051);
    let c = 0.5758302870322657;
    let far = 4.0 * radii.y;
    let t = DVec2::new(-n.y, n.x) * far;
    let (p, q) = ((n * c + t).as_vec2(), (n * c - t).as_vec2());
    let ellipse = Ellipsoid::new(radii.as_vec2()).unwrap();
    let line = Segment::new(p, q).unwrap();
    let rotation = Rotation2 { cos: -0.007_185_441, sin: 0.999_974_2 };
    let pose = Pose::<Vec2>::new(rotation, Vec2::new(-2.125_275_1, -0.700_411_1)).unwrap();
    let distance = f64::from(Pair::new(&ellipse, pose, &line, pose).distance());
    let expected = 4.87646098944583e-4;
    // The library's f32 tolerance (1e-5) relative to the size (the segment: 2 × far + c).
    let size = 2.0 * far + c;
    assert!((distance - expected).abs() <= 1e-5 * size, "{distance} vs {expected}");
}

/// Reported by the CLI's scale sweep: the 3D triangle case squared the normal's length (a
/// fourth power of the coordinates), so this pair's distance went wrong from about 1e77 on.
/// The answer scales exactly with the coordinates: 0.9488147219339523 × s.
#[test]
fn triangle_projection_survives_huge_and_tiny_coordinates() {
    use gjk::{distance, Polytope, Pose};
    use glam::DVec3;
    for s in [1e-90, 1e-60, 1.0, 1e60, 1e90] {
        let a = Polytope::new(vec![
            DVec3::new(0.0, s, 0.0),
            DVec3::new(s, -s, 0.0),
            DVec3::new(-s, -s, 0.1 * s),
        ])
        .unwrap();
        let b = Polytope::new(vec![
            DVec3::new(0.0, -s, s),
            DVec3::new(s, s, s),
            DVec3::new(-s, s, 2.0 * s),
        ])
        .unwrap();
        let d = distance(&a, &Pose::IDENTITY, &b, &Pose::IDENTITY);
        let expected = 0.9488147219339523 * s;
        assert!((d - expected).abs() <= 1e-9 * s, "scale {s:e}: {d:e} vs {expected:e}");
    }
}

/// Reported by the cast and benchmark suites: an ellipsoid touching a box stopped with
/// "no progress" 2.5e-8 short of contact. `v = Σ λᵢ wᵢ` summed vectors of length 0.6 down to
/// 2.5e-8, tilting the search direction by 3.6e-7 rad; the simplex now takes `v` from its
/// triangle's normal when that is the more precise way. Truth, from the GJK ray cast's upper
/// bound at this instant: the shapes are within 4e-11 of touching.
#[test]
fn curved_shapes_near_contact_do_not_stall_short_of_it() {
    use gjk::{Cuboid, Ellipsoid, GjkOptions, Goal, Pair, Pose, WarmStart};
    use glam::{DQuat, DVec3};
    let ellipsoid = Ellipsoid::new(DVec3::new(1.0, 0.4, 0.6)).unwrap();
    let cube = Cuboid::new(DVec3::new(0.8, 0.5, 0.3)).unwrap();
    let pose_a = Pose::new(
        DQuat::from_xyzw(
            -0.497791667355508,
            -0.05901075714631731,
            0.06981264653433641,
            -0.8624658722733981,
        ),
        DVec3::new(4.6546763572481575, 0.732446744435308, -2.806753824725673),
    )
    .unwrap();
    let pose_b = Pose::new(
        DQuat::from_xyzw(
            -0.0904073966304239,
            -0.16033613686963663,
            0.9191383362806245,
            -0.34828658404755747,
        ),
        DVec3::new(3.29169155983299, 0.2599062520443405, -3.4044242154544673),
    )
    .unwrap();
    let options = GjkOptions { max_iterations: 1000, ..Default::default() };
    let r = Pair::new(&ellipsoid, pose_a, &cube, pose_b).gjk(
        Goal::Distance,
        &options,
        &mut WarmStart::default(),
    );
    assert!(r.distance <= 1e-9, "stalled at {:e} ({:?})", r.distance, r.termination);
}

/// A ball just outside a turned box, in `f32`: the contact normal must match the exact one
/// (computed in `f64` from the same `f32` inputs) to `f32` rounding. The point-projection
/// shortcut measured the gap as `a − b` in the ball's frame, after mapping the box's closest
/// point back through the relative pose; that pose's rounding (~1 ulp of the 9-unit positions)
/// against a 4e-3 gap tilted the normal by 1.6e-4 rad. These are the two worst pairs of the
/// benchmark workload `sphere_box`. Fixed by measuring the gap in the box's frame, where the
/// projection leaves the components along the face exactly zero, and rotating it.
#[test]
fn ball_near_a_turned_box_has_the_exact_normal_in_f32() {
    use gjk::{contact, Ball, Cuboid};
    use glam::{DQuat, DVec3, Quat, Vec3};
    let pairs = [
        (
            1.342_922_3,
            [1.917_524, 1.777_348_4, 1.870_943_3],
            [-0.622_556_15, -0.400_987_54, 0.488_005_85, 0.462_042_36],
            [5.321_833, -3.954_395_5, 5.699_929],
            [0.423_462_45, 0.267_160_83, -0.855_600_54, 0.131_348_86],
            [4.954_399_6, -4.271_976, 8.396_97],
        ),
        (
            1.437_732_5,
            [0.625_016_3, 0.587_409_3, 1.359_221_6],
            [0.504_140_44, -0.854_114_6, -0.064_193_234, 0.110_498_31],
            [4.468_08, 9.514_274, -3.352_564_8],
            [-0.665_016_6, 0.317_792_8, 0.238_864_65, 0.632_221_9],
            [4.241_503_2, 9.002_192_5, -2.611_194_6],
        ),
    ];
    for (radius, half, turn_a, at_a, turn_b, at_b) in pairs {
        let pose =
            |q: [f32; 4], t: [f32; 3]| Pose::new(Quat::from_array(q), Vec3::from(t)).unwrap();
        let (pose_a, pose_b) = (pose(turn_a, at_a), pose(turn_b, at_b));
        let c = contact(
            &Ball::new(radius).unwrap(),
            &pose_a,
            &Cuboid::new(Vec3::from(half)).unwrap(),
            &pose_b,
            0.0,
        )
        .expect("they overlap");
        // Oracle: the ball's centre outside the box, in f64: the normal runs from the centre to
        // its clamp onto the box.
        let turn = pose_b.rotation().as_dquat();
        let local = turn.inverse() * (pose_a.translation() - pose_b.translation()).as_dvec3();
        let half = Vec3::from(half).as_dvec3();
        let gap = local.clamp(-half, half) - local;
        assert!(gap.length() > 1e-3 && gap.length() < radius as f64, "the centre is just outside");
        let exact: DVec3 = DQuat::normalize(turn) * gap.normalize();
        let error = c.normal.as_dvec3().cross(exact).length();
        assert!(error < 2e-6, "normal {:?} is {error:e} rad off {exact:?}", c.normal);
    }
}

/// The exact penetration of two 2D segment cores `p` and `q` (world coordinates) that cross:
/// their Minkowski difference is the parallelogram of the four `pᵢ − qⱼ`, whose edge normals
/// are perpendicular to one segment or the other, so the depth is the smallest support value
/// over those four directions. Returns the depth and its unit normal (from P toward Q).
fn crossing_segments_depth(p: [DVec2; 2], q: [DVec2; 2]) -> (f64, DVec2) {
    let corners = [p[0] - q[0], p[0] - q[1], p[1] - q[0], p[1] - q[1]];
    let mut best = (f64::INFINITY, DVec2::ZERO);
    for d in [p[1] - p[0], q[1] - q[0]] {
        let perp = d.perp().normalize();
        for n in [perp, -perp] {
            let h = corners.iter().map(|c| n.dot(*c)).fold(f64::NEG_INFINITY, f64::max);
            if h < best.0 {
                best = (h, n);
            }
        }
    }
    best
}

/// Two crossing 2D segments (or capsules, whose cores they are) must get the exact depth and
/// normal, in either order. GJK's closed form for two segment cores returns their crossing
/// point, whose `w` is the origin: a point inside the Minkowski difference. EPA's polygon kept
/// it as a vertex, its edges passed through the origin, and the expansion ended `Degenerate`
/// with depth 1.0962 (1.0672 with A and B swapped) for the first pair below, whose exact depth
/// is 0.6322 along (0.958, −0.287); random crossings were all wrong. Fixed by dropping the
/// vertices a new support point sees past (the 2D horizon step). Tolerance: 1e-9 relative.
#[test]
fn crossing_2d_segments_and_capsules_get_the_exact_depth() {
    use gjk::{Capsule, Contact, Segment};
    let check = |c: Contact<DVec2>, depth: f64, normal: DVec2, case: &str| {
        assert!((c.depth - depth).abs() <= 1e-9 * depth.max(1.0), "{case}: {c:?} vs {depth}");
        // The normal is unique unless two directions tie (a symmetric crossing).
        let tie = (c.normal - normal).length() > 1e-6;
        if tie {
            assert!((c.normal.length() - 1.0).abs() < 1e-12, "{case}: {c:?}");
        } else {
            assert!((c.normal - normal).length() < 1e-9, "{case}: {c:?} vs {normal}");
        }
        let rule = c.point_a - c.point_b - c.normal * c.depth;
        assert!(rule.length() < 1e-9 * depth.max(1.0), "{case}: {c:?}");
    };
    let shift = DVec2::new(0.1, 0.2);
    let a = Segment::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0)).unwrap();
    let b = Segment::new(DVec2::new(0.0, -1.0), DVec2::new(0.6, 1.0)).unwrap();
    let pose_b = Pose::from_translation(shift).unwrap();
    let ab = gjk::contact(&a, &Pose::IDENTITY, &b, &pose_b, 0.0).unwrap();
    let ba = gjk::contact(&b, &pose_b, &a, &Pose::IDENTITY, 0.0).unwrap();
    let q = [DVec2::new(0.0, -1.0) + shift, DVec2::new(0.6, 1.0) + shift];
    let (depth, normal) = crossing_segments_depth([a.a(), a.b()], q);
    assert!((depth - 0.6321653482459599).abs() < 1e-12);
    check(ab, depth, normal, "segments A, B");
    check(ba, depth, -normal, "segments B, A");

    // The capsules of the issue: depth 1.0367909 along (0, 1).
    let (ra, rb) = (0.19921875, 0.26953125);
    let pa = [DVec2::new(-1.73828125, 0.30078125), DVec2::new(0.26171875, 0.30078125)];
    let pb = [DVec2::new(-0.73828125, -0.26725969163826657), DVec2::new(-0.73828125, 1.30078125)];
    let ca = Capsule::new(pa[0], pa[1], ra).unwrap();
    let cb = Capsule::new(pb[0], pb[1], rb).unwrap();
    let c = gjk::contact(&ca, &Pose::IDENTITY, &cb, &Pose::IDENTITY, 0.0).unwrap();
    let (core, normal) = crossing_segments_depth(pa, pb);
    assert!((core + ra + rb - 1.0367909).abs() < 1e-7);
    check(c, core + ra + rb, normal, "capsules");

    // Random crossings, both orders, as segments and as capsules.
    let mut state = 0x5eed_u64;
    let mut unit = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut crossings = 0;
    while crossings < 500 {
        let mut point = || DVec2::new(unit() * 4.0 - 2.0, unit() * 4.0 - 2.0);
        let (p, q) = ([point(), point()], [point(), point()]);
        let side = |s: [DVec2; 2], x: DVec2| (s[1] - s[0]).perp_dot(x - s[0]);
        // Properly crossing (clear of the ends), so the difference has an interior.
        let margin = 1e-3 * (p[1] - p[0]).length() * (q[1] - q[0]).length();
        if side(p, q[0]) * side(p, q[1]) > -margin * margin
            || side(q, p[0]) * side(q, p[1]) > -margin * margin
        {
            continue;
        }
        crossings += 1;
        let (sp, sq) = (Segment::new(p[0], p[1]).unwrap(), Segment::new(q[0], q[1]).unwrap());
        let (depth, normal) = crossing_segments_depth(p, q);
        let id = Pose::IDENTITY;
        check(gjk::contact(&sp, &id, &sq, &id, 0.0).unwrap(), depth, normal, "random AB");
        check(gjk::contact(&sq, &id, &sp, &id, 0.0).unwrap(), depth, -normal, "random BA");
        let (r, s) = (unit(), unit());
        let (cp, cq) = (Capsule::new(p[0], p[1], r).unwrap(), Capsule::new(q[0], q[1], s).unwrap());
        check(gjk::contact(&cp, &id, &cq, &id, 0.0).unwrap(), depth + r + s, normal, "capsules");
    }
}

/// `intersects`, `distance == 0`, `closest_points` and `contact(.., 0)` must agree on every
/// pair, touching ones included: code that filters with one and unwraps another must not
/// panic. Shapes apart by less than GJK's touching distance (relative to their size) count as
/// touching for `intersects`, but the contact query dropped a gap unless it was at most the
/// prediction distance, exactly: `intersects` true and `contact` `None` for a third of
/// near-touching balls (f32 and f64). Fixed by one rule for the contact's gap (prediction plus
/// the touching distance, measured as `intersects` measures it). The sweep walks B across the
/// touching distance in steps of a few rounding units, through each shortcut: point cores
/// (balls, ball and box), segment cores (capsules), box cores, polygon cores and plain GJK.
#[test]
fn intersects_and_contact_agree_across_the_touching_band() {
    use gjk::{Ball, Capsule, Cuboid, Proximity, Real, Support, Vector};
    use glam::{DVec3, Vec2, Vec3};

    fn sweep<V: Vector, A: Support<V>, B: Support<V>>(a: &A, b: &B, dir: V, touch_at: V::Real) {
        let step = touch_at * V::Real::EPSILON * V::Real::from_f64(2.0);
        for k in -200..=200 {
            let offset = touch_at + step * V::Real::from_f64(f64::from(k));
            let pose_b = Pose::from_translation(dir * offset).unwrap();
            let pair = Pair::new(a, Pose::IDENTITY, b, pose_b);
            let verdict = pair.intersects();
            let touching = pair.contact(V::Real::ZERO).is_some();
            let zero = pair.distance() == V::Real::ZERO;
            let closest = matches!(pair.closest_points(), Proximity::Intersecting);
            assert!(
                verdict == touching && touching == zero && zero == closest,
                "offset {offset:?}: intersects {verdict}, contact {touching}, \
                 distance 0 {zero}, closest points intersecting {closest}"
            );
        }
    }
    let ball = Ball::<Vec3>::new(0.8).unwrap();
    let dir = Vec3::new(0.48, 0.6, 0.64);
    sweep(&ball, &ball, dir, 1.6);
    let dball = Ball::<DVec3>::new(0.8).unwrap();
    sweep(&dball, &dball, DVec3::new(0.48, 0.6, 0.64), 1.6);
    let cube = Cuboid::new(Vec3::splat(0.5)).unwrap();
    sweep(&cube, &ball, Vec3::X, 1.3);
    sweep(&ball, &cube, Vec3::X, 1.3);
    let capsule = Capsule::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0), 0.3).unwrap();
    sweep(&capsule, &capsule, Vec3::X, 0.6);
    sweep(&cube, &cube, Vec3::X, 1.0);
    let square = Cuboid::new(Vec2::splat(0.5)).unwrap();
    let hexagon = gjk::Polytope::new(
        (0..6).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::FRAC_PI_3)).collect(),
    )
    .unwrap();
    sweep(&square, &hexagon, Vec2::X, 1.5);
    let hull = gjk::Polytope::new(vec![
        DVec3::new(1.0, 0.0, 0.0),
        DVec3::new(-1.0, 0.3, 0.0),
        DVec3::new(0.0, 1.0, 0.5),
        DVec3::new(0.0, -1.0, 0.5),
        DVec3::new(0.2, 0.1, -1.0),
    ])
    .unwrap();
    sweep(&hull, &dball, DVec3::X, 1.8);
}

/// A shape cast's hit must put its witness points on the shapes. Against a nearly flat hull
/// (z within 5e-9) the sweep advanced its ray point by a step within rounding, which rebuilds
/// the simplex at the new point, and then stopped on a repeated support point before reducing
/// it again: the simplex had no barycentric coordinates, and `Hit` came with both points at
/// A's origin. Fixed by reducing the simplex before that stop. Oracle: the hit point of A lies
/// on A's supporting plane of the normal (A's own support function), and B is a point, so
/// `point_b` is that point moved to the time of impact; tolerance 1e-9 of the scene.
#[test]
fn shape_cast_hit_on_a_flat_hull_has_its_points_on_the_shapes() {
    use gjk::{shape_cast, CastStatus, Point, Support};
    use glam::{DQuat, DVec3};
    let flat = Polytope::new(vec![
        DVec3::new(-1.467942839506653, -1.9172897745677284, 3.596146522889871e-9),
        DVec3::new(1.9831329487148186, -0.11114130293775348, 1.2466195457877596e-9),
        DVec3::new(0.6281402361592949, 1.3912953577304794, -2.7593698866288675e-9),
        DVec3::new(-1.6624324877643435, 1.1317558373674061, -3.6546600174737287e-9),
        DVec3::new(-1.654455769041324, -1.1235316149435803, -1.904633303658273e-9),
        DVec3::new(-0.9584609729856428, 0.9286664537789981, -2.4012753210554837e-9),
    ])
    .unwrap();
    let local = DVec3::new(-0.7250430028367618, -0.5973532417970318, 0.8517712391435777);
    let point = Point::new(local).unwrap();
    let rotation = DQuat::from_xyzw(
        0.23536908435680418,
        -0.38299608419632947,
        0.24487654600052877,
        0.859040668908154,
    )
    .normalize();
    let start = DVec3::new(-23.551946318213844, -14.266958521562051, 18.008545973733156);
    let velocity = DVec3::new(29.460623722955027, 18.57619109225208, -22.291072209880344);
    let pose_b = Pose::new(rotation, start).unwrap();
    let r = shape_cast(&flat, &Pose::IDENTITY, DVec3::ZERO, &point, &pose_b, velocity, 1.0);
    assert_eq!(r.status, CastStatus::Hit, "{r:?}");
    let b_at_hit = pose_b.transform_point(local) + velocity * r.toi;
    assert!((r.point_b - b_at_hit).length() < 1e-9 * start.length(), "{r:?} vs {b_at_hit}");
    let on_plane = flat.support(r.normal).dot(r.normal) - r.point_a.dot(r.normal);
    assert!(on_plane.abs() < 1e-9 * start.length(), "{r:?}: {on_plane}");
    assert!((r.point_a - r.point_b).length() < 1e-9 * start.length(), "{r:?}");
}

/// Tiny shapes must still get unit normals and consistent verdicts. Balls of radius 1e-320
/// with centres 1e-300 apart: the squared gap (1e-600) underflowed to 0, and so did the
/// squared touching distance, so `0 ≤ 0` made GJK call them intersecting while the contact
/// query had no contact, and the CLI printed GJK's normal `[0, 0, 0]`. Fixed by comparing
/// lengths, not squares, and by a `Vector::length` that rescales vectors whose squared length
/// underflows. Oracle: the closed form of two balls (gap = centres' distance − radii); the
/// normal within 1e-3, as subnormal coordinates keep only a few digits of the direction.
#[test]
fn subnormal_radii_get_unit_normals_and_agreeing_verdicts() {
    use gjk::{Ball, Proximity};
    use glam::DVec3;
    let dir = DVec3::new(0.6, 0.8, 0.0);
    for (ra, rb, d) in [
        (1e-320, 1e-320, 1e-300),
        (1e-320, 1e-300, 1e-300),
        (1e-300, 1e-320, 1e-310),
        (1e-300, 1e-300, 1e-300),
        (1e-320, 1e-320, 3e-320),
        (1e-320, 1e-320, 1e-320),
    ] {
        let (a, b) = (Ball::<DVec3>::new(ra).unwrap(), Ball::<DVec3>::new(rb).unwrap());
        let pair = Pair::new(&a, Pose::IDENTITY, &b, Pose::from_translation(dir * d).unwrap());
        let case = format!("radii {ra:e}, {rb:e}, {d:e} apart");
        let verdict = pair.intersects();
        let contact = pair.contact(0.0);
        assert_eq!(verdict, contact.is_some(), "{case}: {contact:?}");
        assert_eq!(verdict, matches!(pair.closest_points(), Proximity::Intersecting), "{case}");
        let gap = d - ra - rb;
        if gap > 1e-3 * d {
            assert!(!verdict, "{case}");
            let Proximity::Separated(s) = pair.closest_points() else { unreachable!() };
            assert!((s.distance - gap).abs() <= 1e-9 * d, "{case}: {s:?}");
            // Subnormal coordinates keep only a few digits of the direction.
            assert!((s.normal - dir).length() < 1e-3, "{case}: {s:?}");
        }
        if let Some(c) = contact {
            assert!((c.normal.length() - 1.0).abs() < 1e-12, "{case}: {c:?}");
            assert!((c.normal - dir).length() < 1e-3, "{case}: {c:?}");
        }
    }
}

/// A result must say when a loop stopped short: `contact()` and `closest_points()` returned
/// bare numbers, so an EPA or GJK run that hit its iteration cap looked like any other answer.
/// Fixed by `Contact::status` and `Separation::termination`. Oracle: the caps are forced by
/// options small enough that round shapes cannot converge.
#[test]
fn capped_loops_say_so_in_contacts_and_separations() {
    use gjk::{
        ContactOptions, ContactStatus, Ellipsoid, EpaOptions, EpaTermination, Proximity,
        Termination,
    };
    use glam::DVec3;
    let egg = Ellipsoid::new(DVec3::new(1.0, 0.7, 0.5)).unwrap();
    let overlapping = Pose::from_translation(DVec3::new(0.9, 0.3, 0.1)).unwrap();
    let pair = Pair::new(&egg, Pose::IDENTITY, &egg, overlapping);
    let short = ContactOptions {
        epa: EpaOptions { max_iterations: 3, ..EpaOptions::default() },
        ..ContactOptions::default()
    };
    let capped = pair.contact_with(&short, &mut WarmStart::default()).contact.unwrap();
    assert_eq!(capped.status, ContactStatus::Epa(EpaTermination::IterationCap));
    assert!(!capped.status.is_accurate());
    let loose = ContactOptions {
        epa: EpaOptions { tolerance: 1e-4, max_iterations: 1000 },
        ..ContactOptions::default()
    };
    let full = pair.contact_with(&loose, &mut WarmStart::default()).contact.unwrap();
    assert_eq!(full.status, ContactStatus::Epa(EpaTermination::Converged));

    let apart = Pose::from_translation(DVec3::new(3.0, 0.4, 0.2)).unwrap();
    let pair = Pair::new(&egg, Pose::IDENTITY, &egg, apart);
    let options = GjkOptions { max_iterations: 2, ..GjkOptions::default() };
    let r = pair.gjk(Goal::Distance, &options, &mut WarmStart::default());
    let Proximity::Separated(s) = Proximity::from(&r) else { panic!("{r:?}") };
    assert_eq!(s.termination, Termination::IterationCap);
    let Proximity::Separated(s) = pair.closest_points() else { panic!() };
    assert_ne!(s.termination, Termination::IterationCap);
    let near = pair.contact(10.0).unwrap();
    assert!(matches!(near.status, ContactStatus::Gjk(t) if t != Termination::IterationCap));
}

/// EPA's normal must be a direction that separates: pushing B by the depth along it ends the
/// overlap. A "collinear" hull of 163 points in f32 (a sliver a few rounding units thick)
/// crossing a 192-gon: D has two directions of nearly equal depth, and EPA stopped when the
/// closest facet's distance met the smallest support value seen along *any* direction — then
/// reported that facet's normal, along which D reaches 17% farther (push 0.2776 along it, and
/// the shapes still overlap by 0.047). Fixed by closing the gap on the facet's own support
/// value. Oracle: the shapes' own support functions (after the push, the plane along the
/// normal separates them up to 1e-4 of the depth plus f32 rounding of the scene).
#[test]
fn epa_normal_separates_a_sliver_from_a_round_polygon_in_f32() {
    use gjk::Support;
    use glam::Vec2;
    let round: Vec<Vec2> =
        (0..192).map(|i| Vec2::from_angle(i as f32 / 192.0 * std::f32::consts::TAU)).collect();
    let b = Polytope::new(round).unwrap();
    let mut state = 0x51_1ce_u64;
    let mut unit = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut checked = 0;
    for _ in 0..2000 {
        let center = Vec2::new(unit() as f32 * 3.0 - 1.5, unit() as f32 * 3.0 - 1.5);
        let dir = Vec2::from_angle((unit() * std::f64::consts::TAU) as f32);
        let line: Vec<Vec2> =
            (0..163).map(|_| center + dir * (unit() as f32 * 2.0 - 1.0)).collect();
        let a = Polytope::new(line).unwrap();
        let Some(c) = gjk::contact(&a, &Pose::IDENTITY, &b, &Pose::IDENTITY, 0.0) else {
            continue;
        };
        if c.depth <= 0.0 {
            continue;
        }
        checked += 1;
        let n = c.normal;
        let max_a = a.support(n).dot(n);
        let min_b = b.support(-n).dot(n) + c.depth * (1.0 + 1e-4);
        assert!(min_b - max_a >= -1e-5, "{c:?}: still {} deep", max_a - min_b);
    }
    assert!(checked > 1000, "{checked}");
}

/// A touching contact's normal must support both shapes: moving B by the (zero) depth along
/// it keeps them apart. A triangle touching a collinear hull (2D): GJK's simplex put a vertex
/// at the origin, two polygon edges passed through it at distance 0, and the witness-point
/// tie rule (meant for the triangles of one split face) swapped the converged edge for the
/// other one, a chord of D along which the shapes overlap by 4.3. Fixed by letting only
/// parallel facets tie. Oracle: the shapes' own support functions along the normal, in the
/// world frame; tolerance 1e-9 of the scene.
#[test]
fn touching_contact_normal_supports_both_shapes() {
    use gjk::{Support, Triangle};
    let triangle = Triangle::new(
        DVec2::new(-0.7684620456589588, 4.065121853004017),
        DVec2::new(3.9786020392258745, -0.3031051828998814),
        DVec2::new(2.4165793707358407, 1.1342680414377095),
    )
    .unwrap();
    let collinear = Polytope::new(vec![
        DVec2::new(14.345163430133974, -3.871381869291866),
        DVec2::new(21.08512077599884, -5.988856517374966),
        DVec2::new(-7.672914618730543, 3.045979721518473),
        DVec2::new(-8.856362749018526, 3.4177805037212856),
    ])
    .unwrap();
    let pose_a = Pose::new(
        gjk::Rotation2::from_angle(0.9755395432844214),
        DVec2::new(-24.923676098083785, 14.017278758608192),
    )
    .unwrap();
    let pose_b = Pose::new(
        gjk::Rotation2::from_angle(-1.738896849400242),
        DVec2::new(-13.009626206305535, 36.92753870525141),
    )
    .unwrap();
    let c = gjk::contact(&triangle, &pose_a, &collinear, &pose_b, 0.0).unwrap();
    let n = c.normal;
    let reach_a = pose_a.transform_point(triangle.support(pose_a.inverse_transform_vector(n)));
    let reach_b = pose_b.transform_point(collinear.support(pose_b.inverse_transform_vector(-n)));
    let overlap = reach_a.dot(n) - reach_b.dot(n) - c.depth;
    assert!(overlap.abs() < 1e-9 * 40.0, "{c:?}: overlap {overlap} along the normal");
}

/// Normals of curved shapes must be exact, not just their depths: GJK and EPA stop when their
/// bounds meet within ε, which on a smooth surface leaves the normal about √ε off (2D ellipse
/// contacts were 5.7e-6 rad off in f64; f32 normals up to 2e-3). Fixed by polishing the
/// normal with Newton's method on the support function (module `polish`). Oracle: the signed
/// depth is the minimum over directions of `h_A(n) + h_B(−n)`, written here from the
/// ellipses' closed-form support functions and minimised by sampling then golden-section
/// search. Tolerance: 1e-6 rad in f64 (1e-4 in f32), for overlapping and apart pairs.
#[test]
fn ellipse_contact_normals_are_exact() {
    use gjk::{Ellipsoid, Rotation2};
    use glam::Vec2;
    let mut state = 0xe11_1b5e_u64;
    let mut unit = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    // h(n) of the ellipse with radii r, turned by `angle`, centred at `c`.
    let support = |r: DVec2, angle: f64, c: DVec2, n: DVec2| {
        let local = DVec2::from_angle(-angle).rotate(n);
        c.dot(n) + ((r.x * local.x).powi(2) + (r.y * local.y).powi(2)).sqrt()
    };
    for _ in 0..300 {
        let (ra, rb) =
            (DVec2::new(0.2 + unit(), 0.2 + unit()), DVec2::new(0.2 + unit(), 0.2 + unit()));
        let (angle_a, angle_b) = (unit() * 6.0, unit() * 6.0);
        let offset = DVec2::from_angle(unit() * 6.3) * (unit() * 3.0);
        let overlap = |theta: f64| {
            let n = DVec2::from_angle(theta);
            support(ra, angle_a, DVec2::ZERO, n) + support(rb, angle_b, offset, -n)
        };
        let samples = 3600;
        let step = std::f64::consts::TAU / samples as f64;
        let start = (0..samples)
            .map(|i| i as f64 * step)
            .min_by(|&x, &y| overlap(x).total_cmp(&overlap(y)));
        let start = start.unwrap();
        let expected =
            DVec2::from_angle(crate::common::golden_argmin(start - step, start + step, overlap));
        let (a, b) = (Ellipsoid::new(ra).unwrap(), Ellipsoid::new(rb).unwrap());
        let pose_a = Pose::new(Rotation2::from_angle(angle_a), DVec2::ZERO).unwrap();
        let pose_b = Pose::new(Rotation2::from_angle(angle_b), offset).unwrap();
        let c = gjk::contact(&a, &pose_a, &b, &pose_b, f64::INFINITY).unwrap();
        let case = format!("radii {ra}, {rb}, angles {angle_a}, {angle_b}, offset {offset}");
        assert!((c.normal - expected).length() < 1e-6, "{case}: {c:?} vs {expected}");

        let (a, b) = (Ellipsoid::new(ra.as_vec2()).unwrap(), Ellipsoid::new(rb.as_vec2()).unwrap());
        let pose_a = Pose::new(Rotation2::from_angle(angle_a as f32), Vec2::ZERO).unwrap();
        let pose_b = Pose::new(Rotation2::from_angle(angle_b as f32), offset.as_vec2()).unwrap();
        let c = gjk::contact(&a, &pose_a, &b, &pose_b, f32::INFINITY).unwrap();
        assert!((c.normal.as_dvec2() - expected).length() < 1e-4, "f32 {case}: {c:?}");
    }
}

/// Witness points must stay on their shapes when EPA's remainder is large. A box touching a
/// cone (size 5e4): EPA converged with A's point on a box corner and B's at the end of the
/// cone's ruling across from it, 0.19 apart along the supporting plane; the re-choice on the
/// faces could not shrink that, and the remainder was split evenly, which moved the corner
/// 0.09 off the box (the tolerance here is 1e-7 of the size, 5e-3). Fixed by giving the
/// remainder to the shape whose supporting face has room for it (the cone's ruling). Oracle:
/// the closed-form containment of a point in the box and in the cone, in their own frames.
#[test]
fn contact_points_stay_on_a_box_corner_and_a_cone() {
    use gjk::{Cone, Cuboid};
    use glam::{DQuat, DVec3};
    let half = DVec3::new(2624.3177046813294, 16070.040453185462, 14440.69529864537);
    let (h, r) = (27808.932691019345, 25007.914793796637);
    let (q_a, t_a) = (
        DQuat::from_xyzw(
            -0.4405377428199384,
            0.7774496042661208,
            -0.4231679705689344,
            -0.14975806710202808,
        ),
        DVec3::new(-34786.0271998595, 60534.88657540077, -47608.23870681723),
    );
    let (q_b, t_b) = (
        DQuat::from_xyzw(
            -0.5586606693354058,
            0.1970407043890854,
            -0.535989602434333,
            0.601488456608982,
        ),
        DVec3::new(-31185.626319809548, 73634.67735539198, -95709.13386479036),
    );
    let (pose_a, pose_b) = (Pose::new(q_a, t_a).unwrap(), Pose::new(q_b, t_b).unwrap());
    let c = gjk::contact(
        &Cuboid::new(half).unwrap(),
        &pose_a,
        &Cone::new(h, r).unwrap(),
        &pose_b,
        f64::INFINITY,
    )
    .unwrap();
    let tolerance = 1e-7 * 5e4;
    // Outside the box: the largest excess of a local coordinate over its half extent.
    let a = q_a.inverse() * (c.point_a - t_a);
    let outside_a = (a.abs() - half).max_element();
    // Outside the cone (apex at y = h, base disc of radius r at y = −h): the larger of the
    // excess beyond the two caps and the radial excess over the radius at that height.
    let b = q_b.inverse() * (c.point_b - t_b);
    let radius_at = r * (h - b.y.clamp(-h, h)) / (2.0 * h);
    let outside_b = (b.y.abs() - h).max(b.x.hypot(b.z) - radius_at);
    assert!(outside_a <= tolerance, "{c:?}: point_a {outside_a} outside the box");
    assert!(outside_b <= tolerance, "{c:?}: point_b {outside_b} outside the cone");
    assert!((c.point_a - c.point_b - c.normal * c.depth).length() <= tolerance, "{c:?}");
}

/// A converged contact's normal must be the one EPA's support point confirmed. A triangle
/// touching a segment: EPA's closest facet passed through the origin, and the witness tie
/// rule (the origin projected outside it) took a parallel facet's normal along with its
/// witnesses; "parallel" allowed √ε of angle, and along that normal the triangle reached
/// 3.3e-8 (1e-6 of the size) past the segment, so pushing B by the depth did not separate
/// them. Fixed by keeping the closest facet's normal and depth and taking only the witnesses
/// from the tie. Oracle: the closed-form support functions of the triangle (largest vertex)
/// and the segment (larger end) along the normal; tolerance 1e-9 of the size.
#[test]
fn touching_triangle_and_segment_get_a_normal_that_separates() {
    use gjk::{Segment, Triangle};
    use glam::{DQuat, DVec3};
    let corners = [
        DVec3::new(0.0009852053621208293, -0.003142787585108243, -0.00237705532288745),
        DVec3::new(-0.0006542362087324557, 0.001039607779790102, 0.0005098223147716428),
        DVec3::new(0.00019361410056874828, -0.0011232745859359582, -0.0009831108800558471),
    ];
    let ends = [
        DVec3::new(0.009635901140345335, -0.014060450850527487, -0.016473199137347103),
        DVec3::new(0.00533000349133167, 0.007196661501156346, 0.0038115542986657293),
    ];
    let (q_a, t_a) = (
        DQuat::from_xyzw(
            0.04927710686568937,
            -0.4248057741076318,
            0.6815637704841465,
            -0.5937867022653817,
        ),
        DVec3::new(0.006763549564312396, 0.000999022323971789, 0.021804144974488925),
    );
    let (q_b, t_b) = (
        DQuat::from_xyzw(
            -0.7687828211827928,
            -0.5070250892118694,
            -0.3520322413945297,
            0.16724782145865272,
        ),
        DVec3::new(0.024488974562236837, -0.0009460249647273275, 0.00483575933244218),
    );
    let a = Triangle::new(corners[0], corners[1], corners[2]).unwrap();
    let b = Segment::new(ends[0], ends[1]).unwrap();
    let (pose_a, pose_b) = (Pose::new(q_a, t_a).unwrap(), Pose::new(q_b, t_b).unwrap());
    let c = gjk::contact(&a, &pose_a, &b, &pose_b, f64::INFINITY).unwrap();
    let n = c.normal;
    let h_a = corners.iter().map(|&p| n.dot(q_a * p + t_a)).fold(f64::MIN, f64::max);
    let h_b = ends.iter().map(|&p| -n.dot(q_b * p + t_b)).fold(f64::MIN, f64::max);
    let size = 0.0345;
    assert!(h_a + h_b - c.depth <= 1e-9 * size, "{c:?}: overlap {} along n", h_a + h_b);
}

/// The normal of a ruled patch of the Minkowski difference must be exact too. A segment
/// crossing a cylinder's rim (f64, size 0.05): the difference is a rim swept along the
/// segment, flat along the segment and curved across it; EPA's normal was √ε off, Newton's
/// polish gave up (the support point jumps between the segment's ends as the normal turns
/// along it), and the witness points, chosen on faces tilted by that error, left the
/// cylinder by 3.3e-7 (the tolerance is 1e-7 of the size, 5.3e-9). Fixed by polishing on the
/// ruled patch (`polish::ruled`: the normal made orthogonal to the segment, then Newton's
/// method across it). Oracles: the closed-form containment of a point in the cylinder and on
/// the segment, and the cylinder's and segment's closed-form support functions along the
/// normal (the push by the depth separates them).
#[test]
fn segment_across_a_cylinder_rim_gets_points_on_both() {
    use gjk::{Cylinder, Segment};
    use glam::{DQuat, DVec3};
    let (half_height, radius) = (0.0062395850662750295, 0.030723418159803614);
    let ends = [
        DVec3::new(0.026923387718539728, 0.0270531158789621, -0.0249959863916554),
        DVec3::new(0.02129275800847314, -0.010505408982954222, 0.008052437858597064),
    ];
    let (q_a, t_a) = (
        DQuat::from_xyzw(
            -0.397922969649629,
            -0.33656718954568676,
            -0.7939142508368341,
            -0.313177265242429,
        ),
        DVec3::new(0.012434031109069724, 0.05292146674339815, -0.03346661211099652),
    );
    let (q_b, t_b) = (
        DQuat::from_xyzw(
            0.08320624965822959,
            -0.21364966623911305,
            -0.6200024609518919,
            -0.7503515766274671,
        ),
        DVec3::new(-0.015549614719078203, 0.008860788036321506, -0.043852996421603445),
    );
    let a = Cylinder::new(half_height, radius).unwrap();
    let b = Segment::new(ends[0], ends[1]).unwrap();
    let (pose_a, pose_b) = (Pose::new(q_a, t_a).unwrap(), Pose::new(q_b, t_b).unwrap());
    let c = gjk::contact(&a, &pose_a, &b, &pose_b, f64::INFINITY).unwrap();
    let tolerance = 1e-7 * 0.0532;
    // In the cylinder's frame (axis y): beyond the caps or the radius.
    let p = q_a.inverse() * (c.point_a - t_a);
    let outside_a = (p.y.abs() - half_height).max(p.x.hypot(p.z) - radius);
    // Off the segment: the distance to its closest point.
    let (e0, e1) = (q_b * ends[0] + t_b, q_b * ends[1] + t_b);
    let s = ((c.point_b - e0).dot(e1 - e0) / (e1 - e0).length_squared()).clamp(0.0, 1.0);
    let off_b = (c.point_b - (e0 + (e1 - e0) * s)).length();
    assert!(outside_a <= tolerance, "{c:?}: point_a {outside_a} outside the cylinder");
    assert!(off_b <= tolerance, "{c:?}: point_b {off_b} off the segment");
    // h_A(n) + h_B(−n) ≤ depth: the cylinder's support value along a local direction m is
    // h |m_y| + r |(m_x, m_z)|.
    let n = c.normal;
    let m = q_a.inverse() * n;
    let h_a = n.dot(t_a) + half_height * m.y.abs() + radius * m.x.hypot(m.z);
    let h_b = (-n.dot(e0)).max(-n.dot(e1));
    assert!(h_a + h_b - c.depth <= tolerance, "{c:?}: overlap {} along n", h_a + h_b);
}

/// The distance of two segments (as `[p0, p1]`) in 2D by an independent oracle: zero when
/// they cross (opposite orientations of each one's ends against the other), else the least of
/// the four end-to-segment distances.
fn segments_distance_2d(p: [DVec2; 2], q: [DVec2; 2]) -> f64 {
    let orient = |a: DVec2, b: DVec2, c: DVec2| (b - a).perp_dot(c - a);
    let crosses = orient(p[0], p[1], q[0]) * orient(p[0], p[1], q[1]) <= 0.0
        && orient(q[0], q[1], p[0]) * orient(q[0], q[1], p[1]) <= 0.0;
    if crosses {
        return 0.0;
    }
    let to_segment = |x: DVec2, [a, b]: [DVec2; 2]| {
        let t = ((x - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
        (a + (b - a) * t - x).length()
    };
    [to_segment(p[0], q), to_segment(p[1], q), to_segment(q[0], p), to_segment(q[1], p)]
        .into_iter()
        .fold(f64::INFINITY, f64::min)
}

/// Segments 1e84 long gave a NaN distance and a zero normal: the segment pair's closed form
/// multiplies four lengths (`a e − b²`), 1e336, which overflows. Fixed by solving segments
/// outside `Real::QUARTIC_SAFE` at unit size (their parameters do not depend on the scale).
/// Oracle: the same segments scaled by 2⁻²⁸⁰ (exact) through `segments_distance_2d`.
#[test]
fn huge_segments_have_a_finite_exact_distance() {
    use gjk::{closest_points, distance, Segment};
    let scale = 2f64.powi(280);
    let a = [
        DVec2::new(-3.838027993565403e83, -3.280364218139634e84),
        DVec2::new(-8.117358507990194e83, -5.246855049408313e84),
    ];
    let b = [
        DVec2::new(-2.6112541602939176e84, -7.10157463350331e84),
        DVec2::new(-7.139880387677069e84, 6.316049587971502e84),
    ];
    let pose_a = Pose::from_angle_translation(
        0.18469854026962151,
        DVec2::new(-3.1666745566758563e84, 6.247630284357032e84),
    )
    .unwrap();
    let pose_b = Pose::from_angle_translation(
        3.1404351968556092,
        DVec2::new(-4.833732850210396e84, -6.79952636850337e84),
    )
    .unwrap();
    let (sa, sb) = (Segment::new(a[0], a[1]).unwrap(), Segment::new(b[0], b[1]).unwrap());
    let world = |pose: &Pose<DVec2>, s: [DVec2; 2]| s.map(|p| pose.transform_point(p) / scale);
    let expected = segments_distance_2d(world(&pose_a, a), world(&pose_b, b)) * scale;
    let d = distance(&sa, &pose_a, &sb, &pose_b);
    assert!((d - expected).abs() <= 1e-9 * expected, "{d} vs {expected}");
    let gjk::Proximity::Separated(r) = closest_points(&sa, &pose_a, &sb, &pose_b) else {
        panic!("the segments are {expected} apart");
    };
    assert!((r.normal.length() - 1.0).abs() < 1e-12, "{r:?}");
    assert!(((r.point_b - r.point_a).length() - expected).abs() <= 1e-9 * expected, "{r:?}");
}

/// The same at the small end: f32 segments 1e-11 long, skew, closest at interior points. Their
/// fourth powers (about 1e-43) are subnormal numbers with two or three digits left: the
/// closest points came out 5% of the length off (the distance, taken along `d₁ × d₂`, stayed
/// right). Oracle: the closed form (the segments cross in
/// the xy projection, so their distance is the z offset).
#[test]
fn tiny_f32_skew_segments_have_the_right_distance() {
    use gjk::{closest_points, distance, Segment};
    use glam::Vec3;
    for s in [1e-9f32, 1e-10, 1e-11] {
        let a = Segment::new(Vec3::new(-1.0, 0.0, 0.0) * s, Vec3::new(1.0, 0.0, 0.0) * s).unwrap();
        let b = Segment::new(Vec3::new(0.0, -1.0, 0.5) * s, Vec3::new(0.2, 1.0, 0.5) * s).unwrap();
        let d = distance(&a, &Pose::IDENTITY, &b, &Pose::IDENTITY);
        assert!((d - 0.5 * s).abs() <= 1e-5 * s, "size {s}: {d} vs {}", 0.5 * s);
        let gjk::Proximity::Separated(r) = closest_points(&a, &Pose::IDENTITY, &b, &Pose::IDENTITY)
        else {
            panic!("size {s}: the segments are apart");
        };
        // b crosses the x axis (in the xy projection) at x = 0.1.
        let expected_a = Vec3::new(0.1, 0.0, 0.0) * s;
        assert!((r.point_a - expected_a).length() <= 1e-5 * s, "size {s}: {r:?}");
        assert!((r.point_b - expected_a - Vec3::Z * 0.5 * s).length() <= 1e-5 * s, "{r:?}");
    }
}

/// Subnormal segments (f64 1e-310, f32 1e-41) gave NaN points once the closed form rescaled
/// small segments: `1 / size` overflows to infinity for a subnormal size. The crate promises
/// no accuracy there, only finite answers and unit normals.
#[test]
fn subnormal_segments_give_finite_answers() {
    use gjk::{closest_points, contact, distance, Capsule, Proximity, Segment};
    use glam::{DVec3, Vec2};
    let a =
        Segment::new(DVec3::new(1.0816e-310, -2.2e-312, 1.6e-311), DVec3::new(1.0e-311, 0.0, 0.0))
            .unwrap();
    let b = Segment::new(
        DVec3::new(-4e-311, 1.3e-310, -1.9e-310),
        DVec3::new(1.2e-310, 1.3e-310, -4e-311),
    )
    .unwrap();
    let pose = Pose::IDENTITY;
    assert!(distance(&a, &pose, &b, &pose).is_finite());
    if let Proximity::Separated(r) = closest_points(&a, &pose, &b, &pose) {
        assert!(r.point_a.is_finite() && r.point_b.is_finite(), "{r:?}");
    }
    let a = Segment::new(Vec2::new(-3.9e-42, 2.4e-41), Vec2::new(-4.1e-41, -5.3e-42)).unwrap();
    let b =
        Capsule::new(Vec2::new(-3.6e-41, -4.5e-41), Vec2::new(4.2e-41, -7.8e-41), 2.9e-41).unwrap();
    let pose = Pose::IDENTITY;
    assert!(distance(&a, &pose, &b, &pose).is_finite());
    let c = contact(&a, &pose, &b, &pose, 1.0).expect("within the prediction distance");
    assert!(c.point_a.is_finite() && c.point_b.is_finite(), "{c:?}");
    assert!((c.normal.length() - 1.0).abs() < 1e-5, "{c:?}");
}

/// A segment whose end pokes 1e-6 of the size into a cylinder near its rim was reported apart
/// by 0.0377 (sizes 6e4; `NoProgress` after 18 iterations). Near the rim the Minkowski
/// difference is ruled (the side, between the two rims): `−v` leant toward the far rim, the
/// support point came from there and offered 1e-13 of progress, while the simplex's two
/// near-rim points had a chord cutting 0.0135 inside the rim's curve. Fixed by recovering the
/// stall with the support point of Newton's polished normal (`Run::recover` in `gjk.rs`).
/// Oracle: the closed-form signed distance of the segment's end from the cylinder.
#[test]
fn segment_touching_a_cylinder_near_its_rim_is_not_apart() {
    use gjk::{distance, intersects, Cylinder};
    use glam::{DQuat, DVec3};
    let ends = [
        DVec3::new(8539.021972398474, 6695.393995030172, -6881.27119482231),
        DVec3::new(-7066.932188646193, 2048.2656928530378, 5725.894152703117),
    ];
    let segment = Polytope::new(ends.to_vec()).unwrap();
    let (half_height, radius) = (33196.24629872791, 11312.729532215877);
    let cylinder = Cylinder::new(half_height, radius).unwrap();
    let quat = |x, y, z, w| DQuat::from_xyzw(x, y, z, w);
    let pose_a = Pose::from_rotation_translation(
        quat(0.5861047066814126, 0.13909525333559541, -0.5508242312899408, -0.5776906174841752),
        DVec3::new(-44946.95559559378, 82160.24852619012, 24907.795302228675),
    );
    let pose_b = Pose::from_rotation_translation(
        quat(-0.10406411290635424, -0.9539781550341424, 0.2076314295720735, 0.18969852286331756),
        DVec3::new(-33636.06666666547, 50367.53334372348, 23470.1103409293),
    );
    // Signed distance of a point (B's frame) from the cylinder (axis y): outside, the norm of
    // the radial and axial excesses; inside, minus the smaller margin.
    let signed = |p: DVec3| {
        let radial = (p.x * p.x + p.z * p.z).sqrt() - radius;
        let axial = p.y.abs() - half_height;
        if radial <= 0.0 && axial <= 0.0 {
            radial.max(axial)
        } else {
            (radial.max(0.0).powi(2) + axial.max(0.0).powi(2)).sqrt()
        }
    };
    let deepest = ends
        .iter()
        .map(|&e| signed(pose_b.inverse_transform_point(pose_a.transform_point(e))))
        .fold(f64::INFINITY, f64::min);
    let size = 6.0e4;
    assert!(deepest <= 1e-10 * size, "the oracle must see the end touch: {deepest}");
    assert!(intersects(&segment, &pose_a, &cylinder, &pose_b));
    assert_eq!(distance(&segment, &pose_a, &cylinder, &pose_b), 0.0);
}

/// Touching must not depend on the order of A and B. The pair's size (what the touching
/// distance is relative to) took the centres' offset in the sum norm, in A's frame: the same
/// offset measured 4.08 / 1.2e-5 one way round and 4.37 / 1.2e-5 the other, so this f32
/// ellipse and triangle, 4.18 apart, were apart as (A, B) and touching as (B, A). Fixed by
/// measuring the offset's Euclidean length. Oracle: the ellipse's boundary sampled densely
/// and refined by ternary search, against the triangle's edges, in f64.
#[test]
fn touching_rule_is_the_same_in_both_orders() {
    use gjk::{distance, intersects, Ellipsoid, Triangle};
    use glam::Vec2;
    let (radii, corners) = (
        Vec2::new(31703.584, 6636.15),
        [
            Vec2::new(-67635.21, -49556.727),
            Vec2::new(-62512.754, -117228.05),
            Vec2::new(71335.83, 37251.902),
        ],
    );
    let ellipse = Ellipsoid::new(radii).unwrap();
    let triangle = Triangle::new(corners[0], corners[1], corners[2]).unwrap();
    let (angle_a, angle_b) = (0.609_080_75_f32, 2.650_429_2_f32);
    let (ta, tb) = (Vec2::new(-93241.23, 108140.29), Vec2::new(13408.129, 125153.016));
    let pose_a = Pose::from_angle_translation(angle_a, ta).unwrap();
    let pose_b = Pose::from_angle_translation(angle_b, tb).unwrap();

    let world = |angle: f32, t: Vec2, p: DVec2| {
        let (s, c) = f64::from(angle).sin_cos();
        DVec2::new(c * p.x - s * p.y, s * p.x + c * p.y) + t.as_dvec2()
    };
    let tri: Vec<DVec2> = corners.iter().map(|c| world(angle_b, tb, c.as_dvec2())).collect();
    let to_triangle = |p: DVec2| {
        (0..3)
            .map(|i| segments_distance_2d([p, p], [tri[i], tri[(i + 1) % 3]]))
            .fold(f64::INFINITY, f64::min)
    };
    let on_ellipse = |t: f64| {
        let local = DVec2::new(f64::from(radii.x) * t.cos(), f64::from(radii.y) * t.sin());
        world(angle_a, ta, local)
    };
    let samples = 100_000;
    let step = std::f64::consts::TAU / f64::from(samples);
    let best = (0..samples)
        .map(|i| f64::from(i) * step)
        .min_by(|x, y| to_triangle(on_ellipse(*x)).total_cmp(&to_triangle(on_ellipse(*y))))
        .unwrap();
    let (mut lo, mut hi) = (best - step, best + step);
    for _ in 0..100 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if to_triangle(on_ellipse(m1)) < to_triangle(on_ellipse(m2)) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let expected = to_triangle(on_ellipse(lo));
    assert!((expected - 4.03).abs() < 0.01, "oracle {expected}");

    let forward = f64::from(distance(&ellipse, &pose_a, &triangle, &pose_b));
    let backward = f64::from(distance(&triangle, &pose_b, &ellipse, &pose_a));
    // Within 2e-6 of the size (1.3e5); the touching distance is 1.2e-5 of it.
    assert!((forward - expected).abs() < 0.3, "(A, B): {forward} vs {expected}");
    assert!((backward - expected).abs() < 0.3, "(B, A): {backward} vs {expected}");
    assert!(!intersects(&ellipse, &pose_a, &triangle, &pose_b));
    assert!(!intersects(&triangle, &pose_b, &ellipse, &pose_a));
}

/// A hull's vertex 6e-8 inside a cylinder's side next to its rim was reported apart by 5e-3
/// (size 1.2e3, status `no_progress`): a false "separated". GJK zig-zagged along the rim
/// between near points and the far rim, and stalled with the gap open; the stall recovery's
/// polish took the far rim's support for a vertex of the Minkowski difference (turning the
/// normal by `√ε` did not jump to the near end: `−v` leans toward the far end by
/// `gap / length`, 2.4e-5 rad). Fixed by turning back by doubling angles until the support
/// point jumps (`polish_ruled`). Oracle: vertex 15, in the cylinder's frame, lies inside by
/// 6.2e-8 radially and 1.5e-7 axially.
#[test]
fn hull_vertex_just_inside_a_cylinder_rim_is_not_apart() {
    use gjk::{contact, distance, intersects, Cylinder};
    use glam::{DQuat, DVec3};
    let points = [
        DVec3::new(58.824573951211164, 216.46852004465842, -220.07603229636524),
        DVec3::new(-256.03894541738964, 198.5365783511533, -274.56097933244405),
        DVec3::new(-272.84016038613726, 286.22082194096623, -11.327782108285419),
        DVec3::new(-44.32800005303267, -48.52312399350268, 41.90768525857317),
        DVec3::new(-186.3442682878426, -133.04736144429052, -114.18711645245341),
        DVec3::new(251.29457295882804, 190.89507158684927, -137.55772929635324),
        DVec3::new(-101.78351795436188, -8.87719249214831, -58.635800297551555),
        DVec3::new(-170.16773559990813, 336.5780549564243, -185.70894461551092),
        DVec3::new(88.11994344615579, 281.6487518429222, 35.79668518764856),
        DVec3::new(277.26660419188244, 174.27586742892407, 207.26732213062024),
        DVec3::new(338.4502917259974, 257.72787141080477, -79.25715436370683),
        DVec3::new(-230.68204966004083, 176.28161965343696, -138.16454999403473),
        DVec3::new(-58.10096759782385, 86.75693094901828, -101.11838114775898),
        DVec3::new(-199.0672744927981, -170.4272518929508, -327.85265495442064),
        DVec3::new(-204.85868067403914, -55.31107628235088, 202.58201545376033),
        DVec3::new(220.02996643210435, 70.80735877600694, -233.5195355903123),
    ];
    let hull = Polytope::new(points.to_vec()).unwrap();
    let cylinder = Cylinder::new(965.116279192153, 170.22634129827077).unwrap();
    let pose_a = Pose::new(
        DQuat::from_xyzw(
            0.291227205281614,
            0.6913115229215053,
            0.40203965419318405,
            -0.5250135328122836,
        ),
        DVec3::new(444.72701726605715, -3545.837893524744, -2309.201386527103),
    )
    .unwrap();
    let pose_b = Pose::new(
        DQuat::from_xyzw(
            0.12690047896181836,
            -0.11535552598826689,
            0.6693382232350484,
            0.7228939852978308,
        ),
        DVec3::new(1515.2746841099909, -3887.9747954120903, -1943.7173275037976),
    )
    .unwrap();
    let inside = pose_b.inverse_transform_point(pose_a.transform_point(points[15]));
    let radial = 170.22634129827077 - inside.x.hypot(inside.z);
    let axial = 965.116279192153 - inside.y.abs();
    assert!(radial > 6e-8 && axial > 1e-7, "oracle: {radial} {axial}");

    assert!(intersects(&hull, &pose_a, &cylinder, &pose_b));
    assert_eq!(distance(&hull, &pose_a, &cylinder, &pose_b), 0.0);
    let c = contact(&hull, &pose_a, &cylinder, &pose_b, 0.0).expect("they overlap");
    // Pushing B by the radial slack frees vertex 15; 1e-8 is 1e-11 of the size.
    assert!(c.depth > 0.0 && c.depth <= radial + 1e-8, "{c:?}");
}

/// A ball whose centre lies 7.8e-4 from a capsule's axis (f32, coordinates near 16) got a
/// contact normal 1.5e-4 rad off, and pushing by its depth left 4.4e-4 of overlap (the tilt
/// times the capsule's half-length). The closest point on the axis carries rounding of the
/// coordinates' size along the axis, large against the 7.8e-4 offset; the offset is now taken
/// orthogonal to the axis (`offset_from_core`). Oracle: the exact normal, orthogonal to the
/// axis, and the depth from the f64 distance of the centre to the axis.
#[test]
fn f32_ball_centre_near_a_capsule_axis_gets_the_exact_normal() {
    use gjk::{contact, Ball, Capsule};
    use glam::Vec2;
    let ball = Ball::<Vec2>::new(9.431654).unwrap();
    let (end_a, end_b) = (Vec2::new(2.870334, 2.640028), Vec2::new(-2.6718595, 1.4250408));
    let capsule = Capsule::new(end_a, end_b, 0.27684692).unwrap();
    let pose_a = Pose::from_angle_translation(0.0, Vec2::new(-8.787682, -16.144629)).unwrap();
    let angle_b = -3.033_533_8_f32;
    let pose_b = Pose::from_angle_translation(angle_b, Vec2::new(-8.909546, -14.112864)).unwrap();

    let (s, c) = f64::from(angle_b).sin_cos();
    let world = |p: Vec2| {
        let p = p.as_dvec2();
        DVec2::new(c * p.x - s * p.y, s * p.x + c * p.y) + pose_b.translation().as_dvec2()
    };
    let (a, b, centre) = (world(end_a), world(end_b), pose_a.translation().as_dvec2());
    let axis = (b - a).normalize();
    let offset = (centre - a) - axis * (centre - a).dot(axis);
    let expected_normal = -offset.normalize(); // from the ball toward the capsule's axis
    let expected_depth = 9.431654_f32 as f64 + 0.27684692_f32 as f64 - offset.length();
    assert!(offset.length() < 1e-3, "oracle: the centre is {} from the axis", offset.length());

    let got = contact(&ball, &pose_a, &capsule, &pose_b, 0.0).unwrap();
    let angle = got.normal.as_dvec2().angle_to(expected_normal).abs();
    assert!(angle < 2e-6, "normal {:?} is {angle} rad from {expected_normal:?}", got.normal);
    assert!((f64::from(got.depth) - expected_depth).abs() < 1e-5, "{got:?} vs {expected_depth}");
}

/// The f32 twin of `hull_vertex_just_inside_a_cylinder_rim_is_not_apart`: a 13-point hull
/// whose vertex lies 1.4e-3 outside a cylinder's rim (coordinates near 1e5, the cylinder's
/// radius 6.4e4) was 0 apart with the cylinder first and 25.3 apart (`NoProgress`) the other
/// way round. GJK's stall recovery found the rim's near end, but the ruled polish that turns
/// the normal onto it ran in f64 only (in f32 its witnesses are not good enough for a
/// contact's answer); as a recovery, which only needs a support point that makes progress, it
/// now runs in f32 too. Oracle: the vertex's position in the cylinder's frame, in f64 from
/// the f32 poses.
#[test]
fn f32_hull_vertex_at_a_cylinder_rim_is_not_apart_either_way() {
    use gjk::{distance, intersects, Cylinder};
    let points = [
        [-13752.6396484375, -5626.220703125, -11102.6923828125],
        [-11050.47265625, -22155.193359375, 18146.140625],
        [3437.37353515625, 19580.4453125, 24608.697265625],
        [7620.0244140625, 2378.471435546875, -20132.828125],
        [26114.318359375, 19056.13671875, -26956.93359375],
        [11765.103515625, 10114.3056640625, 14342.056640625],
        [-13708.81640625, 5001.8916015625, 22061.0078125],
        [-25874.361328125, 2905.8125, -3216.708984375],
        [-10953.6787109375, 2500.13818359375, -12291.6044921875],
        [1966.662109375, 23477.1796875, -22542.998046875],
        [-5316.40869140625, 8560.73046875, 16970.771484375],
        [2023.814697265625, 13458.126953125, -11013.2705078125],
        [13535.3125, 1244.074462890625, -17007.6953125],
    ]
    .map(v32);
    let hull = Polytope::new(points.to_vec()).unwrap();
    let (half_height, radius) = (28356.587890625f64 as f32, 63566.44921875f64 as f32);
    let cylinder = Cylinder::new(half_height, radius).unwrap();
    let pose_a = pose32(
        [-0.40079174164688347, -0.8575474773702237, 0.2581899808470741, -0.19317411232825835],
        [-24430.3515625, -72526.03125, -96506.5078125],
    );
    let pose_b = pose32(
        [0.9576194443166394, -0.2664249284981883, 0.06876435243443225, -0.08517171581986076],
        [-39233.81640625, -10719.61328125, -184302.40625],
    );
    let world =
        pose_b.rotation().as_dquat() * points[4].as_dvec3() + pose_b.translation().as_dvec3();
    let inside = pose_a.rotation().as_dquat().inverse() * (world - pose_a.translation().as_dvec3());
    // The vertex's distance from the cylinder (outside its rim by rounding of the f32 poses):
    // an upper bound of the shapes' distance.
    let radial = inside.x.hypot(inside.z) - f64::from(radius);
    let axial = inside.y.abs() - f64::from(half_height);
    let gap = radial.max(0.0).hypot(axial.max(0.0));
    assert!(gap < 2e-3, "oracle: {radial} {axial}");

    // 1e-5 of the cylinder's size: f32 rounding of coordinates near 1e5 is about 1e-2.
    let bound = gap as f32 + 1e-5 * radius;
    let one_way = distance(&cylinder, &pose_a, &hull, &pose_b);
    let other_way = distance(&hull, &pose_b, &cylinder, &pose_a);
    assert!(one_way <= bound, "cylinder first: {one_way} apart");
    assert!(other_way <= bound, "hull first: {other_way} apart");
    assert_eq!(
        intersects(&cylinder, &pose_a, &hull, &pose_b),
        intersects(&hull, &pose_b, &cylinder, &pose_a)
    );
}

/// f32 vectors and quaternions from the f64 decimals the property test printed (rounded to
/// nearest, as the test's scenes are).
fn v32(a: [f64; 3]) -> glam::Vec3 {
    glam::DVec3::from_array(a).as_vec3()
}

/// A pose from f64 decimals rounded to f32.
fn pose32(rotation: [f64; 4], translation: [f64; 3]) -> Pose<glam::Vec3> {
    Pose::new(glam::DQuat::from_array(rotation).as_quat(), v32(translation)).unwrap()
}

/// The f32 cast of a small cylinder (A) and a 5-point hull (B) of the two regression tests
/// below: the cylinder's half height and radius, the hull's points, the poses, the velocities.
struct StalledCast {
    half_height: f32,
    radius: f32,
    points: [glam::Vec3; 5],
    pose_a: Pose<glam::Vec3>,
    pose_b: Pose<glam::Vec3>,
    velocity_a: glam::Vec3,
    velocity_b: glam::Vec3,
}

impl StalledCast {
    fn new() -> Self {
        let points = [
            [-0.009141477756202221, 0.003976624924689531, -0.008249609731137753],
            [0.004444371443241835, 0.008242236450314522, -0.006359689403325319],
            [0.0015665270620957017, -0.0037173284217715263, -0.009100975468754768],
            [0.008611727505922318, 0.0026964067947119474, 0.005096105393022299],
            [0.0002866672002710402, 0.0008077900856733322, -0.0033528178464621305],
        ]
        .map(v32);
        let pose_a = pose32(
            [0.2638373689131061, 0.8945885355459791, 0.339141311339698, 0.12281842605041118],
            [0.0235415231436491, -0.01459936611354351, 0.01161359716206789],
        );
        let pose_b = pose32(
            [0.3376874087949162, -0.1539741930132154, -0.22068894290546007, 0.9019731438943038],
            [0.005855269730091095, -0.002013778081163764, 0.02953977882862091],
        );
        let velocity_a = v32([-0.007265998516231775, 0.002464998746290803, 0.02229016274213791]);
        let velocity_b = v32([0.010543922893702984, -0.015151865780353546, 0.011394861154258251]);
        let (half_height, radius) =
            (0.0011723447823897004f64 as f32, 0.0008097229874692857f64 as f32);
        Self { half_height, radius, points, pose_a, pose_b, velocity_a, velocity_b }
    }
}

/// A shape cast (f32) of a 5-point hull onto a small cylinder stalled at the contact with the
/// simplex's closest point 1e-6 from the ray point, above twice the touching distance, and
/// took its direction for the normal: a hull vertex then stuck 4.4e-6 (1.5e-4 of the size)
/// through the contact plane. The normal is now the last advancing plane's (a supporting
/// plane by construction) unless one more support call confirms the closest point's.
/// Oracle: the hull's vertices and the cylinder's support point at the time of impact, in f64.
#[test]
fn f32_cast_normal_is_a_supporting_plane_after_a_stall() {
    use gjk::{shape_cast, CastStatus, Cylinder, Support};
    let StalledCast { half_height, radius, points, pose_a, pose_b, velocity_a, velocity_b } =
        StalledCast::new();
    let cylinder = Cylinder::new(half_height, radius).unwrap();
    let hull = Polytope::new(points.to_vec()).unwrap();
    let r = shape_cast(&cylinder, &pose_a, velocity_a, &hull, &pose_b, velocity_b, 1.0);
    assert_eq!(r.status, CastStatus::Hit, "{r:?}");
    let (t, n, p) = (f64::from(r.toi), r.normal.as_dvec3(), r.point_a.as_dvec3());
    let moved_b = |q: glam::Vec3| {
        pose_b.rotation().as_dquat() * q.as_dvec3()
            + pose_b.translation().as_dvec3()
            + velocity_b.as_dvec3() * t
    };
    // B lies on the far side of the plane through the contact point (1e-6 is 3.5e-5 of the
    // hull's size; the failure was 4.4e-6).
    for q in points {
        let below = n.dot(p - moved_b(q));
        assert!(below <= 1e-6, "vertex {q:?} is {below:e} through the contact plane");
    }
    // A reaches the plane and not beyond it.
    let local = cylinder.support(pose_a.rotation().inverse() * r.normal).as_dvec3();
    let reach = pose_a.rotation().as_dquat() * local
        + pose_a.translation().as_dvec3()
        + velocity_a.as_dvec3() * t;
    assert!(n.dot(reach - p).abs() <= 1e-6, "{r:?}");
}

/// The same cast (f32) after that fix still stopped short: at a stall 1.1e-6 from `C` (the
/// touching distance is 3e-7) it reported a hit 1.95e-5 early in time, the hull's vertex
/// 5.3e-7 from the cylinder. The simplex held a ruling of `C`: the cylinder's rim point minus
/// the hull's edge 0.017 long that ends at the rim, with `−u` leaning to the edge's far end.
/// The stall's recovery (Newton's method across the ruling, `polish::about_ruling`) measures
/// the curvature by turning the normal across the ruling, but the normal is orthogonal to the
/// ruling, its two ends tie up to rounding, and the turned support point landed on the other
/// end: a curvature of the wrong sign, and the recovery gave up. It now measures the turn at
/// the same end. Oracle: the hull's vertex at the rim against the cylinder in closed form
/// (its meridian half plane: a clamp to the rectangle), in f64 at the reported time.
#[test]
fn f32_cast_of_a_hull_edge_ending_at_a_cylinder_rim_reaches_the_rim() {
    use gjk::{shape_cast, CastStatus, Cylinder};
    use glam::DVec3;
    let StalledCast { half_height, radius, points, pose_a, pose_b, velocity_a, velocity_b } =
        StalledCast::new();
    let cylinder = Cylinder::new(half_height, radius).unwrap();
    let hull = Polytope::new(points.to_vec()).unwrap();
    let r = shape_cast(&cylinder, &pose_a, velocity_a, &hull, &pose_b, velocity_b, 1.0);
    assert_eq!(r.status, CastStatus::Hit, "{r:?}");
    let t = f64::from(r.toi);
    let (ra, rb) = (pose_a.rotation().as_dquat(), pose_b.rotation().as_dquat());
    let ta = pose_a.translation().as_dvec3() + velocity_a.as_dvec3() * t;
    let tb = pose_b.translation().as_dvec3() + velocity_b.as_dvec3() * t;
    let (h, rho) = (f64::from(half_height), f64::from(radius));
    // Signed distance of a point from the cylinder: outside, from the rectangle
    // `[0, rho] × [−h, h]` of its meridian half plane; inside, minus the nearer of side and caps.
    let signed = |q: glam::Vec3| {
        let x = ra.inverse() * (rb * q.as_dvec3() + tb - ta);
        let (dr, dy) = (DVec3::new(x.x, 0.0, x.z).length() - rho, x.y.abs() - h);
        if dr <= 0.0 && dy <= 0.0 {
            dr.max(dy)
        } else {
            DVec3::new(dr.max(0.0), dy.max(0.0), 0.0).length()
        }
    };
    // The vertex that meets the rim (the third): 5.3e-7 away before the fix, 2e-10 after; the
    // others are 7e-3 and more away. 5e-8 is 1.8e-6 of the scene's size.
    let gaps = points.map(signed);
    assert!(gaps[2].abs() <= 5e-8, "the rim's vertex is {:e} from the cylinder: {r:?}", gaps[2]);
    assert!(gaps.iter().all(|&g| g >= -5e-8), "{gaps:?}");
}

/// A shape cast (f32) of a box's edge onto a cylinder's rim stalled 1.1e-3 short of contact
/// (the ruled patch of GJK's stall recovery: the support point along `−u` was the ruling's
/// far end) and reported a hit at a time when the shapes were still 1.8e-4 apart. The sweep
/// now recovers a stall as GJK does, with Newton's polish of the normal at the ray point.
/// Oracle: the distance at the reported time from 2,000,000 points of the rim where they
/// touch, each against the box in closed form (an upper bound of the true distance).
#[test]
fn f32_cast_of_a_box_edge_onto_a_cylinder_rim_does_not_stop_short() {
    use gjk::{shape_cast, CastStatus, Cuboid, Cylinder};
    use glam::DVec3;
    let (half_height, radius) = (0.46264395117759705f64 as f32, 1.6239140033721924f64 as f32);
    let cylinder = Cylinder::new(half_height, radius).unwrap();
    let half = v32([2.0596916675567627, 1.3150376081466675, 1.7391878366470337]);
    let cuboid = Cuboid::new(half).unwrap();
    let pose_a = pose32(
        [0.7643142327692305, 0.335441052260828, -0.10150486956153329, -0.5412945736840774],
        [-0.6751683354377747, -4.617325305938721, 3.687506914138794],
    );
    let pose_b = pose32(
        [0.43362283097662924, 0.4938537707110831, 0.08933159583514877, 0.748397995451487],
        [2.0088374614715576, -7.016019821166992, 1.5551376342773438],
    );
    let velocity_a = v32([0.2724880278110504, -0.28799042105674744, -0.2083480805158615]);
    let velocity_b = v32([0.0980551615357399, 0.030042417347431183, -0.036948636174201965]);
    let r = shape_cast(&cylinder, &pose_a, velocity_a, &cuboid, &pose_b, velocity_b, 1.0);
    assert_eq!(r.status, CastStatus::Hit, "{r:?}");
    let t = f64::from(r.toi);
    let (ra, rb) = (pose_a.rotation().as_dquat(), pose_b.rotation().as_dquat());
    let ta = pose_a.translation().as_dvec3() + velocity_a.as_dvec3() * t;
    let tb = pose_b.translation().as_dvec3() + velocity_b.as_dvec3() * t;
    let half = half.as_dvec3();
    let to_box = |x: DVec3| {
        let local = rb.inverse() * (x - tb);
        (local.abs() - half).max(DVec3::ZERO).length()
    };
    let rim = (0..2_000_000).map(|i| {
        let angle = std::f64::consts::TAU * f64::from(i) / 2_000_000.0;
        let (s, c) = angle.sin_cos();
        let y = f64::from(half_height);
        ra * DVec3::new(f64::from(radius) * c, y, f64::from(radius) * s) + ta
    });
    let gap = rim.map(to_box).fold(f64::INFINITY, f64::min);
    // The stall left 1.8e-4; sampling the rim every 5.1e-6 adds at most 2.6e-6 (the box's edge
    // crosses the rim).
    assert!(gap <= 2e-5, "{gap:e} apart at the reported time of impact: {r:?}");
}

/// Cores apart by less than GJK's tolerance make EPA run on GJK's simplex, and the expansion's
/// nearest facet then has the origin just outside. Its witness points were the facet's
/// barycentric combination, whose corners held the two far ends of a segment 1.4e6 long
/// against nearly one point of a cone's rim: the weights' rounding put `point_a` 3 units along
/// the segment from the end that touches, and `point_b` 1.7 outside the cone (the tolerance is
/// 0.14). Now GJK's own closest points are the witnesses there. Oracle: the segment's distance
/// to the cone sampled densely (the cone in closed form, in its meridian half plane): the end
/// is the closest point, 2.18e-5 away.
#[test]
fn segment_end_at_a_cone_rim_keeps_its_witnesses_at_the_end() {
    use gjk::{contact, Cone, Segment};
    use glam::{DQuat, DVec3};
    let (end0, end1) = (
        DVec3::new(-702972.0639864132, 658972.5447708842, -794236.4259430883),
        DVec3::new(-745250.7450262494, 667483.7065602626, 654977.8225005184),
    );
    let (half_height, radius) = (159769.88838364306, 156639.96824094848);
    let segment = Segment::new(end0, end1).unwrap();
    let cone = Cone::new(half_height, radius).unwrap();
    let quat = |x, y, z, w| DQuat::from_xyzw(x, y, z, w);
    let pose_a = Pose::new(
        quat(0.5609510950744448, 0.4720532679358429, 0.0843649308724398, -0.6748200794321113),
        DVec3::new(233504.8800058947, -69664.68840964558, -137183.97822333174),
    )
    .unwrap();
    let pose_b = Pose::new(
        quat(-0.8561416450687678, 0.3784976926553278, -0.32039948374422783, 0.14527612002655277),
        DVec3::new(-174003.6559787659, 386384.4634700987, -1392114.0071921884),
    )
    .unwrap();
    // Distance of a world point from the cone (apex at +h on local y, base disc at −h).
    let cone_distance = |p: DVec3| {
        let local = pose_b.inverse_transform_point(p);
        let (rho, y) = (local.x.hypot(local.z), local.y);
        let to_segment = |a: [f64; 2], b: [f64; 2]| {
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            let t = (((rho - a[0]) * dx + (y - a[1]) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
            (rho - a[0] - t * dx).hypot(y - a[1] - t * dy)
        };
        let side = to_segment([0.0, half_height], [radius, -half_height]);
        let base = to_segment([radius, -half_height], [0.0, -half_height]);
        let below_side = (rho - radius) * 2.0 * half_height + (y + half_height) * radius <= 0.0;
        if y >= -half_height && below_side {
            -side.min(base)
        } else {
            side.min(base)
        }
    };
    let world_end = pose_a.transform_point(end1);
    let samples = 20_000;
    let closest = (0..=samples)
        .map(|k| pose_a.transform_point(end0.lerp(end1, 1.0 - 1e-3 * k as f64 / samples as f64)))
        .min_by(|p, q| cone_distance(*p).total_cmp(&cone_distance(*q)))
        .unwrap();
    assert!(closest.distance(world_end) < 1e-6 && cone_distance(world_end) < 3e-5);
    let c = contact(&segment, &pose_a, &cone, &pose_b, 0.0).expect("touching within tolerance");
    let tolerance = 1e-7 * 1.4e6;
    assert!(c.point_a.distance(world_end) <= tolerance, "{c:?}");
    assert!(cone_distance(c.point_b).abs() <= tolerance, "{c:?}: {}", cone_distance(c.point_b));
    assert!((c.point_a - c.point_b - c.normal * c.depth).length() <= 1e-9 * 1.4e6);
}

/// An expansion that stops short (`Degenerate`) at a touching depth chose its witnesses again
/// on the faces across the normal: at a cylinder's rim, `point_a` came out 3.7e-4 above the
/// cap (the tolerance is 2.2e-5). Now GJK's closest points, put on the supporting planes, are
/// the witnesses there. Oracle: the cylinder in closed form (`|y| ≤ h`, `√(x² + z²) ≤ r`).
#[test]
fn touching_contact_at_a_cylinder_rim_keeps_point_a_on_the_cylinder() {
    use gjk::{contact_with, ContactOptions, Cylinder, Posed};
    use glam::{DQuat, DVec3};
    let (half_height, radius) = (99.42458782405816, 102.48584353339355);
    let a = Cylinder::new(half_height, radius).unwrap();
    let pts = vec![
        [-72.09008019614468, 93.75536036744592, -1.8844988865879202],
        [106.90487813575197, 50.821555534033706, 16.006696138497986],
        [-98.34248187966821, -29.176183238901302, 59.138553674873975],
        [101.15026505427036, 49.03775768799372, 72.25330171839477],
        [19.29529418819159, 3.8597894343815113, 63.59486154882336],
        [57.02855458901115, 7.1021528650421, -102.37495798762005],
        [-70.79553779772311, 8.71075844759001, 46.000951652065226],
        [21.74634402834039, 76.57820347171264, -75.9385176017805],
        [34.991633429965844, 77.49833035694894, 63.76623178862474],
        [-96.49712464487331, 37.51492264230447, -73.03879717215554],
        [-64.76209145918332, 56.67621556052612, -87.72875771876973],
        [-31.273123647251737, 12.735711847434132, -81.87878097526219],
        [48.489476356333626, -23.62392095062944, -23.75166090669127],
        [20.640775143007346, 4.106302950226706, 103.80781947805227],
        [56.72576427227736, 19.22049755535167, 101.40544256016037],
        [-31.95431427868398, -4.505671912002285, -25.348003235868305],
        [-67.14699296135979, 89.55553699116206, 79.49687598509388],
        [29.837729219516063, -65.83877834877856, -98.06253402765414],
        [-63.58000821041977, 0.1686363636243584, -82.92677569217497],
        [-39.906879019571164, -80.33737928623373, 17.622717844925404],
    ];
    let hull = Polytope::new(pts.iter().map(|p| DVec3::from_array(*p)).collect()).unwrap();
    let b = Posed::new(
        hull,
        Pose::new(
            DQuat::from_xyzw(
                -0.784945866654298,
                -0.3441939665347676,
                0.09166708834235546,
                0.5069394882411816,
            ),
            DVec3::new(44.700052335687374, -0.6292165924431288, -36.07708959127312),
        )
        .unwrap(),
    );
    let q = |r: [f64; 4]| DQuat::from_xyzw(r[0], r[1], r[2], r[3]);
    let pose_a = Pose::new(
        q([-0.8862192317412144, 0.1755269318979089, 0.37037247145958796, 0.21593981072381166]),
        DVec3::new(-130.40046330709507, 100.32708467418564, -312.01130612831463),
    )
    .unwrap();
    let pose_b = Pose::new(
        q([-0.29830095497267123, 0.08818001843122708, 0.8600159694422087, 0.40449147941117247]),
        DVec3::new(-103.25158837484116, -77.83613007395935, -446.6478039163324),
    )
    .unwrap();
    let r = contact_with(&a, &pose_a, &b, &pose_b, &ContactOptions::default());
    let c = r.contact.expect("touching");
    let local = pose_a.inverse_transform_point(c.point_a);
    let outside = (local.y.abs() - half_height).max(local.x.hypot(local.z) - radius);
    let tolerance = 1e-7 * 225.0;
    assert!(c.depth.abs() <= tolerance, "{r:?}");
    assert!(outside <= tolerance, "{r:?}: point_a {outside} outside the cylinder");
    assert!((c.point_a - c.point_b - c.normal * c.depth).length() <= 1e-12 * 225.0);
}

/// A cylinder's side against a flat hull's edge is a ruled patch of their Minkowski
/// difference, where the polish turns the normal orthogonal to the ruling. The ruling's
/// direction was the difference of two support points of `A − B` taken a `√ε` turn apart,
/// which carries the turn's motion of the shape without the flat feature (here the hull's
/// vertex moved along its other edge): `d` leaned by about `√ε`, and point A of the contact
/// ended 4.1e-7 outside the cylinder (τ = 2.8e-7). Fixed by taking the ruling's direction from
/// the shape whose points span it.
#[test]
fn ruling_direction_comes_from_the_shape_that_spans_it() {
    use gjk::{contact_with, ContactOptions, Cylinder, Posed};
    use glam::{DQuat, DVec3};
    let (half_height, radius) = (2.2765687073791008, 0.31562734463889697);
    let a = Cylinder::new(half_height, radius).unwrap();
    let points = [
        [-0.45767129149135133, -0.12012238444329554, -0.14791199888153114],
        [0.2527541773390424, 0.059246247030177564, 0.2664551621297255],
        [0.09993626147124682, 0.050845048863594214, -0.6089461226734475],
        [0.27591995613838693, 0.06915303247900684, 0.17425696757742276],
        [0.36000123978443216, 0.09173242625715111, 0.18811736194041967],
        [-0.09638239528359208, -0.022767482231305973, -0.09704306547112526],
        [0.405009754522101, 0.09887475958450018, 0.3243403087092467],
        [-0.6132710443094526, -0.1607063206280934, -0.2048538817303456],
        [0.2236096842707904, 0.08369778676072295, -0.5792115348072403],
        [-0.27922517006829994, -0.07093986698314982, -0.15137598606723873],
    ];
    // A nearly flat hull (the property suite's "flat" generator), posed inside B.
    let hull = Polytope::new(points.iter().map(|p| DVec3::from_array(*p)).collect()).unwrap();
    let inner = Pose::new(
        DQuat::from_xyzw(
            0.8109544111336242,
            0.16131967317094242,
            -0.08568479168107959,
            -0.5558660113602082,
        ),
        DVec3::new(-0.1288828861478572, 0.24891923057303833, -0.07711362856271206),
    )
    .unwrap();
    let b = Posed::new(hull, inner);
    let q = |r: [f64; 4]| DQuat::from_xyzw(r[0], r[1], r[2], r[3]);
    let pose_a = Pose::new(
        q([-0.3905720312352419, -0.15857671573167662, -0.23257799874780125, -0.8764784014127218]),
        DVec3::new(-4.473341194937038, -2.0485972708798044, -3.980736068475218),
    )
    .unwrap();
    let pose_b = Pose::new(
        q([-0.5856645741054901, 0.4732658193656927, -0.5147741621731745, 0.40990734662464967]),
        DVec3::new(-4.852664102270697, -0.6722243455053829, -1.5363683923423963),
    )
    .unwrap();
    let r = contact_with(&a, &pose_a, &b, &pose_b, &ContactOptions::default());
    let c = r.contact.expect("overlapping");
    // The cylinder's own closed form: beyond its caps or its side, in its frame.
    let local = pose_a.inverse_transform_point(c.point_a);
    let outside = (local.y.abs() - half_height).max(local.x.hypot(local.z) - radius);
    let tolerance = 1e-7 * 2.83;
    assert!(outside <= tolerance, "{r:?}: point_a {outside:e} outside the cylinder");
    assert!((c.point_a - c.point_b - c.normal * c.depth).length() <= 1e-12 * 2.83);
}

/// A rounded segment (radius 4734) against a cone of radius 0 (a segment of length 837), f32,
/// their cores 13.7 apart at a size of 3e4: GJK's closest point `v` comes from support points
/// 2.4e4 long, so its direction was 1e-3 rad off, and the contact's depth (the margin minus
/// `|v|`) held along a normal that was not the cores' common perpendicular: pushing B by the
/// depth left them 15 units overlapped (τ = 0.56). The normal is now `−v` turned orthogonal
/// to the final simplex's edges, each the difference of one shape's own points. Oracle: the
/// overlap along the normal from both shapes' support functions in closed form (f64).
#[test]
fn f32_normal_of_cores_far_smaller_apart_than_their_size_is_the_common_perpendicular() {
    use gjk::{contact, Cone, Rounded, Segment};
    use glam::DVec3;
    let (p, q) = (
        [-22976.35546875, 1074.789794921875, -4772.27197265625],
        [23057.08203125, 11163.7958984375, 10642.052734375],
    );
    let radius = 4734.37744140625;
    let half_height = 418.7712707519531;
    let a = Rounded::new(Segment::new(v32(p), v32(q)).unwrap(), radius as f32).unwrap();
    let b = Cone::new(half_height as f32, 0.0).unwrap();
    let pose_a = pose32(
        [-0.7816790453657207, 0.4932301412732885, -0.24671879762119192, 0.29125887570342035],
        [-5315.70361328125, 15492.9013671875, 21591.9453125],
    );
    let pose_b = pose32(
        [-0.23306742492289573, -0.07605996559740962, 0.9386565154263282, -0.24252505668659166],
        [-7626.54931640625, 14814.5302734375, 15449.6923828125],
    );
    let c = contact(&a, &pose_a, &b, &pose_b, 0.0).expect("overlapping");
    let n = c.normal.as_dvec3().normalize();
    let world = |pose: &Pose<glam::Vec3>, x: DVec3| {
        pose.rotation().as_dquat() * x + pose.translation().as_dvec3()
    };
    // A's support along n: the farther end of the segment plus the radius; B's along −n: the
    // nearer of the cone's apex and base centre (radius 0).
    let h_a = [p, q].map(|x| n.dot(world(&pose_a, v32(x).as_dvec3()))).into_iter();
    let h_a = h_a.fold(f64::NEG_INFINITY, f64::max) + f64::from(radius as f32);
    let ends = [1.0, -1.0].map(|s| world(&pose_b, DVec3::Y * s * f64::from(half_height as f32)));
    let h_b = ends.map(|x| -n.dot(x)).into_iter().fold(f64::NEG_INFINITY, f64::max);
    let overlap = h_a + h_b;
    let tolerance = 1e-5 * 3.2e4;
    assert!(
        overlap <= f64::from(c.depth) + tolerance,
        "overlap along the normal {overlap} > depth {}: {c:?}",
        c.depth
    );
}

/// A shape cast (f64) of a rounded cylinder onto an ellipsoid stalled at the hit after an
/// advance within rounding. The sweep rebuilt its simplex at the new ray point without the
/// weights, the stall restored that simplex and stopped, and the witnesses, a combination with
/// no weights, were the origin of A's frame: both points at A's position at the time of
/// impact, 1.3e-2 off both supporting planes (size 0.06). The advance now keeps the weights.
/// Oracle: both shapes' support functions in closed form at the time of impact.
#[test]
fn cast_stalled_after_a_rounding_advance_keeps_its_witnesses() {
    use gjk::{shape_cast, CastStatus, Cylinder, Ellipsoid, Rounded};
    use glam::{DQuat, DVec3};
    let (half_height, radius, margin) =
        (0.011909531904284806, 0.0050117643403363565, 0.00069050136041581);
    let radii = DVec3::new(0.049882114507395214, 0.005637241748484338, 0.029757047208766405);
    let a = Rounded::new(Cylinder::new(half_height, radius).unwrap(), margin).unwrap();
    let b = Ellipsoid::new(radii).unwrap();
    let q = |r: [f64; 4]| DQuat::from_xyzw(r[0], r[1], r[2], r[3]);
    let (ra, rb) = (
        q([-0.35396819900356596, 0.3084035437880832, -0.7811374536257635, -0.4116042356635582]),
        q([0.7138339501124576, -0.46498496808481665, 0.1692845061561458, -0.4955530517487277]),
    );
    let (ta, tb) = (
        DVec3::new(0.06547214324497869, -0.007950408230074535, -0.061738883048849565),
        DVec3::new(0.06281613459621382, -0.06632223085774275, -0.06675794150703511),
    );
    let va = DVec3::new(-0.006683938381101981, -0.0021879611429301785, -0.004429916541533661);
    let vb = DVec3::new(-0.0032212064356251496, 0.004957379857338947, -0.0028080813985940398);
    let (pose_a, pose_b) = (Pose::new(ra, ta).unwrap(), Pose::new(rb, tb).unwrap());
    let r = shape_cast(&a, &pose_a, va, &b, &pose_b, vb, 1.0);
    assert_eq!(r.status, CastStatus::Hit, "{r:?}");
    let n = r.normal;
    // Support values at the time of impact: the rounded cylinder (axis y) along n, the
    // ellipsoid along −n.
    let (ta, tb) = (ta + va * r.toi, tb + vb * r.toi);
    let local = ra.inverse() * n;
    let h_a = n.dot(ta) + half_height * local.y.abs() + radius * local.x.hypot(local.z) + margin;
    let h_b = -n.dot(tb) + (radii * (rb.inverse() * -n)).length();
    let size = 0.06;
    assert!((n.dot(r.point_a) - h_a).abs() <= 1e-7 * size, "point_a off A's plane: {r:?}");
    assert!((-n.dot(r.point_b) - h_b).abs() <= 1e-7 * size, "point_b off B's plane: {r:?}");
}

/// An f32 contact of a segment's end with a disc's rim (a cylinder of half height 0), the two
/// touching (0.006 apart at a size of 2.9e5). Newton's polish of the normal moved it into the
/// contact's flat minimum, 18° off the common perpendicular near the disc's axis, where the
/// rim's support point lies 140 along the rim from the contact; the witnesses were that
/// support point and the segment's end, moved by halves of their 140 across the normal:
/// `point_b` ended 70 past the segment's end (τ = 5.7). The witnesses before the polish, put
/// on the polished normal's supporting planes, are kept when they leave the smaller remainder.
/// Oracle: the disc's and the segment's closed-form inside tests, in f64.
#[test]
fn f32_segment_end_at_a_disc_rim_keeps_its_witnesses_on_both() {
    use gjk::{contact, Cylinder, Segment};
    let radius = 19322.45703125f64 as f32;
    let disc = Cylinder::new(0.0f32, radius).unwrap();
    let (e0, e1) = (
        v32([-83807.7890625, -122291.0546875, -252744.5]),
        v32([77641.8359375, 237078.25, 83685.2578125]),
    );
    let segment = Segment::new(e0, e1).unwrap();
    let pose_a = pose32(
        [0.04412493394497812, 0.12086098400847406, -0.9815740986205715, 0.14127243774377],
        [212686.828125, 283565.28125, -70997.421875],
    );
    let pose_b = pose32(
        [-0.35790234221664874, -0.678404797003348, 0.3268115467288487, 0.5521476774952337],
        [293070.46875, 102852.921875, 97081.7421875],
    );
    let c = contact(&disc, &pose_a, &segment, &pose_b, 0.0).expect("touching");
    let local = |pose: &Pose<glam::Vec3>, p: glam::Vec3| {
        pose.rotation().as_dquat().inverse() * (p.as_dvec3() - pose.translation().as_dvec3())
    };
    let a = local(&pose_a, c.point_a);
    let outside_a = a.y.abs().max(a.x.hypot(a.z) - f64::from(radius));
    let b = local(&pose_b, c.point_b);
    let (s0, d) = (e0.as_dvec3(), (e1 - e0).as_dvec3());
    let along = ((b - s0).dot(d) / d.length_squared()).clamp(0.0, 1.0);
    let outside_b = (s0 + d * along - b).length();
    // 1e-5 of the size (2.9e5), the documented f32 bound; the failure was 70.
    let bound = 2.9;
    assert!(outside_a <= bound, "point_a {outside_a:e} off the disc: {c:?}");
    assert!(outside_b <= bound, "point_b {outside_b:e} off the segment: {c:?}");
}

/// A cylinder's cap rim 2.8e-14 from a box (f64, size 5.7e-5): GJK stalls on a triangle of
/// two points of the flat disk `cap − box corner` and one far point, 9.7e-14 from the origin,
/// whose `−v` (made of support points 4e-5 long) is 0.07 rad off. The polish of the answer
/// looked for the ruling's other end one `√ε` turn away, where the support point had not yet
/// jumped, and gave up: the normal stayed 0.07 rad off and pushing B by the depth left the
/// shapes 7e-11 overlapped (τ = 5.7e-12), for `closest_points` and `contact` alike. The
/// polish now turns by doubling angles until the support point jumps, as GJK's stall
/// recovery does. Oracle: both shapes' support functions in closed form.
#[test]
fn stalled_normal_at_a_cylinder_rim_near_a_box_is_polished_across_the_rim() {
    use gjk::{closest_points, contact, Cuboid, Cylinder, Proximity};
    use glam::{DQuat, DVec3};
    let (half_height, radius) = (7.393419423231722e-6, 6.621171480621825e-6);
    let half = DVec3::new(3.683204131744721e-5, 1.9659508229794406e-5, 2.417585799034267e-5);
    let a = Cylinder::new(half_height, radius).unwrap();
    let b = Cuboid::new(half).unwrap();
    let q = |r: [f64; 4]| DQuat::from_xyzw(r[0], r[1], r[2], r[3]);
    let (ra, rb) = (
        q([0.4777439328072934, -0.09521389003663693, 0.6941797925364414, -0.529914583158432]),
        q([-0.6615677690170988, -0.3735569865387537, -0.21940569401265275, -0.6120820257454473]),
    );
    let (ta, tb) = (
        DVec3::new(-6.087136387383258e-5, -3.394251506706468e-5, -2.957930273521676e-5),
        DVec3::new(-1.450342302718935e-5, -2.1713444920733773e-5, -6.0568959673036723e-5),
    );
    let (pose_a, pose_b) = (Pose::new(ra, ta).unwrap(), Pose::new(rb, tb).unwrap());
    // Support values in closed form: the cylinder (axis y) along n, the box along −n.
    let h_a = |n: DVec3| {
        let l = pose_a.rotation().inverse() * n;
        n.dot(pose_a.translation()) + half_height * l.y.abs() + radius * l.x.hypot(l.z)
    };
    let h_b = |n: DVec3| {
        let l = pose_b.rotation().inverse() * n;
        n.dot(pose_b.translation()) + half.dot(l.abs())
    };
    let tolerance = 1e-7 * 5.71e-5;
    let c = contact(&a, &pose_a, &b, &pose_b, f64::INFINITY).expect("a gap");
    let overlap = h_a(c.normal) + h_b(-c.normal);
    assert!(overlap <= c.depth + tolerance, "overlap along n {overlap:e} > depth: {c:?}");
    assert!((c.normal.dot(c.point_a) - h_a(c.normal)).abs() <= tolerance, "{c:?}");
    assert!((-c.normal.dot(c.point_b) - h_b(-c.normal)).abs() <= tolerance, "{c:?}");
    let Proximity::Separated(s) = closest_points(&a, &pose_a, &b, &pose_b) else {
        panic!("2.8e-14 apart, above the touching distance 5.7e-15")
    };
    let n = s.normal;
    assert!((n.dot(s.point_a) - h_a(n)).abs() <= tolerance, "point_a off A's plane: {s:?}");
    assert!((-n.dot(s.point_b) - h_b(-n)).abs() <= tolerance, "point_b off B's plane: {s:?}");
}

/// A segment crossing a wide cylinder's rim (f64, radius 4.1e5, depth 8.9e-6): the contact
/// lies on a ruled patch of `A − B` (the rim swept along the segment), and the polish took
/// both witnesses by interpolating between the ruling's two ends, one of them the support
/// point of a normal turned by `√ε` along the segment. That turn moves the rim point by `√ε`
/// times the rim's radius (0.013 here), more than the polish accepts (`√ε × size`), so the
/// polish gave up and EPA's facet witnesses stood: `point_a` 7.6 outside the cylinder
/// (τ = 0.057). The rim point is now the cylinder's support point at the normal itself, and
/// only the segment's point is interpolated. Oracle: the cylinder's closed-form inside test
/// and the segment's closed-form distance.
#[test]
fn segment_across_a_wide_cylinder_rim_keeps_point_a_on_the_rim() {
    use gjk::{contact, Cylinder, Segment};
    use glam::{DQuat, DVec3};
    let (half_height, radius) = (261797.08675112098, 411490.03763740277);
    let a = Cylinder::new(half_height, radius).unwrap();
    let (s0, s1) = (
        DVec3::new(46726.785444796784, -6537.893804078543, 14610.654431525007),
        DVec3::new(25327.222101729567, -157006.4383518934, -148224.5571443022),
    );
    let b = Segment::new(s0, s1).unwrap();
    let q = |r: [f64; 4]| DQuat::from_xyzw(r[0], r[1], r[2], r[3]);
    let pose_a = Pose::new(
        q([0.597588234885592, -0.21987809248810297, -0.6430498768631742, 0.4254747722678428]),
        DVec3::new(377653.81082707806, 379715.12196863675, 194373.93896319973),
    )
    .unwrap();
    let pose_b = Pose::new(
        q([-0.378556636037297, 0.6464438970070401, -0.27161672406537496, -0.6041767262502512]),
        DVec3::new(3612.4208407802216, 445011.94263718283, 619337.428403078),
    )
    .unwrap();
    let c = contact(&a, &pose_a, &b, &pose_b, f64::INFINITY).expect("overlapping");
    let tolerance = 1e-7 * 5.7e5;
    let local = pose_a.inverse_transform_point(c.point_a);
    let outside = (local.y.abs() - half_height).max(local.x.hypot(local.z) - radius);
    assert!(outside <= tolerance, "point_a {outside:e} outside the cylinder: {c:?}");
    let local = pose_b.inverse_transform_point(c.point_b);
    let t = ((local - s0).dot(s1 - s0) / (s1 - s0).length_squared()).clamp(0.0, 1.0);
    let off = (local - (s0 + (s1 - s0) * t)).length();
    assert!(off <= tolerance, "point_b {off:e} off the segment: {c:?}");
}

/// A segment across a cone's side (f64, size 0.81): the expansion stopped on rounding
/// (`Degenerate`) at a shallow depth, and its witnesses came from a facet that is not the
/// answer's feature: `point_a` 3.0e-7 outside the cone (τ = 8.1e-8). Only converged
/// expansions were polished; a stopped one now is too, from its best normal (the polish keeps
/// only a stationary normal whose support value is no larger, so the depth stays an upper
/// bound). Since the careful rerun of a `Degenerate` expansion (branch `w17b`) the scene
/// converges. Oracle: the cone's closed-form inside test (radial excess at the point's height,
/// an upper bound of its distance outside) and the segment's closed-form distance.
#[test]
fn degenerate_expansion_at_a_cone_side_is_polished() {
    use gjk::{contact_with, Cone, ContactOptions, EpaTermination, Segment};
    use glam::{DQuat, DVec3};
    let (half_height, radius) = (0.21213349576041518, 0.14718178978197516);
    let a = Cone::new(half_height, radius).unwrap();
    let (s0, s1) = (
        DVec3::new(0.5660229800284389, 0.5460901092006931, 0.042343974665799644),
        DVec3::new(-0.5801111813094648, -0.5306818788480833, -0.15239291428384943),
    );
    let b = Segment::new(s0, s1).unwrap();
    let q = |r: [f64; 4]| DQuat::from_xyzw(r[0], r[1], r[2], r[3]);
    let pose_a = Pose::new(
        q([-0.4578308709693271, -0.45262767263436127, -0.47713571606544514, 0.5982145033412211]),
        DVec3::new(-0.848107203922439, 0.7524966159892967, -1.577879414079849),
    )
    .unwrap();
    let pose_b = Pose::new(
        q([0.5839438758269117, -0.3873481745476654, -0.6868285044368292, 0.19297032686893742]),
        DVec3::new(-0.7783407450511761, 1.5598630094170036, -1.492944755178072),
    )
    .unwrap();
    let r = contact_with(&a, &pose_a, &b, &pose_b, &ContactOptions::default());
    let c = r.contact.expect("overlapping");
    // The plain expansion still stops here; its careful rerun (after a `Degenerate` end)
    // now converges, and the witnesses must hold either way.
    assert_eq!(r.epa, Some(EpaTermination::Converged), "{r:?}");
    let tolerance = 1e-7 * 0.81;
    let l = pose_a.inverse_transform_point(c.point_a);
    let excess = l.x.hypot(l.z) - radius * (half_height - l.y) / (2.0 * half_height);
    let outside = (-half_height - l.y).max(excess);
    assert!(outside <= tolerance, "point_a {outside:e} outside the cone: {r:?}");
    let l = pose_b.inverse_transform_point(c.point_b);
    let t = ((l - s0).dot(s1 - s0) / (s1 - s0).length_squared()).clamp(0.0, 1.0);
    let off = (l - (s0 + (s1 - s0) * t)).length();
    assert!(off <= tolerance, "point_b {off:e} off the segment: {r:?}");
}

/// `p` (f32, in a shape's frame) moved by the f32 `pose`, computed in f64: the oracle's world
/// point, without the rounding of an f32 transform.
fn world_f64(pose: &Pose<glam::Vec2>, p: glam::Vec2) -> DVec2 {
    let r = pose.rotation();
    let (s, c) = (f64::from(r.sin), f64::from(r.cos));
    let p = p.as_dvec2();
    DVec2::new(c * p.x - s * p.y, s * p.x + c * p.y) + pose.translation().as_dvec2()
}

/// A point on a nearly collinear polygon (f32: six points of a line, rounded, make a sliver
/// 0.42 long whose edge normals all agree up to sign and rounding) was reported 0.40 apart:
/// the point projection skips edges whose line the point lies inside of, and rounding put the
/// point a rounding unit outside a far edge's line and inside its own edge's, so the far
/// edge's point was the answer. Now a gap far larger than the largest excess is checked
/// against every edge. Oracle: the distance (f64) from the point to the segments between the
/// hull's input points (inside the hull, so an upper bound of the true distance): 4.7e-9.
#[test]
fn f32_point_on_a_collinear_polygon_touches() {
    use gjk::{contact, distance, intersects, Point};
    use glam::DVec2;
    let v = |x: f64, y: f64| DVec2::new(x, y).as_vec2();
    let points = vec![
        v(0.07957256585359573, -0.026270030066370964),
        v(0.026653246954083443, -0.31245309114456177),
        v(0.019782302901148796, -0.3496105670928955),
        v(0.09257803112268448, 0.04406239092350006),
        v(0.007178180385380983, -0.4177725613117218),
        v(0.01188919972628355, -0.392295777797699),
    ];
    let hull = Polytope::new(points.clone()).unwrap();
    let point = Point::new(v(-0.013584129512310028, 0.01810496114194393)).unwrap();
    let pose_a = Pose::from_angle_translation(
        -1.9659773067327455f64 as f32,
        v(-0.6483498215675354, -0.033021267503499985),
    )
    .unwrap();
    let pose_b = Pose::from_angle_translation(
        1.346850513682472f64 as f32,
        v(-0.6226563453674316, -0.1262013018131256),
    )
    .unwrap();
    let q = world_f64(&pose_b, v(-0.013584129512310028, 0.01810496114194393));
    let corners: Vec<DVec2> = points.iter().map(|&p| world_f64(&pose_a, p)).collect();
    let mut oracle = f64::INFINITY;
    for &s in &corners {
        for &e in &corners {
            let t = if s == e {
                0.0
            } else {
                ((q - s).dot(e - s) / (e - s).length_squared()).clamp(0.0, 1.0)
            };
            oracle = oracle.min((q - (s + (e - s) * t)).length());
        }
    }
    assert!(oracle < 1e-8, "the scene changed: the point is {oracle:e} from the hull");
    // τ of the property test: 1e-5 × the size 0.42 (the failure was 0.40).
    let d = f64::from(distance(&hull, &pose_a, &point, &pose_b));
    assert!(d <= oracle + 4e-6, "distance {d:e}, oracle {oracle:e}");
    assert!(intersects(&hull, &pose_a, &point, &pose_b));
    let c = contact(&hull, &pose_a, &point, &pose_b, 0.0).expect("touching");
    assert!(f64::from(c.depth).abs() <= 4e-6, "{c:?}");
}

/// Quickhull on a sliver: five f32-rounded points of a line (6e-8 off it, far above the
/// construction's tolerance of 2e-14) made a thin tetrahedron whose faces' planes are only
/// good to `ε × length² / width`; the middle point "saw" every face around the far end of the
/// line, which was dropped. The hull came out 0.28 short along its axis (size 0.9), and an
/// ellipsoid touching that end was reported 0.27 apart. Now a construction that loses one of
/// its extreme starting points retries with a larger tolerance. Oracle: the support of the
/// input points by brute force, in f64, over 20,000 directions; the scene's common point.
#[test]
fn f32_nearly_collinear_hull_keeps_both_ends() {
    use gjk::{intersects, Ellipsoid, Support};
    use glam::{DVec3, Vec3};
    let points: Vec<Vec3> = [
        [-0.15415070950984955, 0.013708646409213543, -0.09666429460048676],
        [-0.5619072914123535, 0.026067689061164856, -0.588021993637085],
        [0.023065678775310516, 0.00833724346011877, 0.11688624322414398],
        [0.20079617202281952, 0.0029502573888748884, 0.33105629682540894],
        [0.025113392621278763, 0.008275177329778671, 0.11935379356145859],
    ]
    .map(v32)
    .to_vec();
    let hull = Polytope::new(points.clone()).unwrap();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let mut worst = 0.0f64;
    for _ in 0..20_000 {
        let d = DVec3::new(next(), next(), next()).normalize();
        let best = points.iter().map(|p| p.as_dvec3().dot(d)).fold(f64::MIN, f64::max);
        let got = hull.support(d.as_vec3()).as_dvec3().dot(d);
        worst = worst.max(best - got);
    }
    // The points' own distance from their line is 6e-8; the failure was 0.28.
    assert!(worst <= 1e-6, "the hull's support falls {worst:e} short of the points'");
    let ellipsoid =
        Ellipsoid::new(v32([0.017179368063807487, 0.004288628231734037, 0.01877869851887226]))
            .unwrap();
    let pose_a = pose32(
        [0.17096991659553087, -0.4657050918874988, 0.37927347027949543, 0.7810503759371238],
        [-0.6535423398017883, 1.5456840991973877, 0.6033357977867126],
    );
    let pose_b = pose32(
        [-0.059329083632070685, 0.7301378075375758, 0.07056103477879146, -0.6770524220550037],
        [-0.8089044690132141, 1.4255725145339966, 0.955032229423523],
    );
    assert!(intersects(&hull, &pose_a, &ellipsoid, &pose_b), "touching at the hull's end");
}

/// A ball (a capsule whose ends coincide) 0.015 deep against a segment 13 long (f32): the
/// segment pair's closest point on the long segment carried 1e-6 of rounding along it, and
/// the normal `a − b` came out 5e-5 rad off the perpendicular; along it the long segment
/// reaches 3.5e-4 farther, so pushing B by the depth left them overlapping (τ 1.4e-4). The
/// gap of a point interior to one segment now drops its part along that segment. Oracle:
/// the ball's centre projected onto the segment in f64 (closed form), and the overlap along
/// the reported normal from the f64 support functions.
#[test]
fn f32_ball_against_a_long_segment_gets_the_perpendicular_normal() {
    use gjk::{contact, Capsule, Segment};
    use glam::DVec2;
    let v = |x: f64, y: f64| DVec2::new(x, y).as_vec2();
    let centre = v(-0.748075544834137, -0.8472831845283508);
    let radius = 0.25104254484176636f64 as f32;
    let ball = Capsule::new(centre, centre, radius).unwrap();
    let (e0, e1) =
        (v(-2.5141096115112305, -7.666565418243408), v(7.5327935218811035, 1.9584733247756958));
    let segment = Segment::new(e0, e1).unwrap();
    let pose_a = Pose::from_angle_translation(
        -2.6396484338611628f64 as f32,
        v(-5.8427300453186035, -5.500178813934326),
    )
    .unwrap();
    let pose_b = Pose::from_angle_translation(
        2.964690211318947f64 as f32,
        v(-3.2644946575164795, -7.390089511871338),
    )
    .unwrap();
    let (c, s0, s1) = (world_f64(&pose_a, centre), world_f64(&pose_b, e0), world_f64(&pose_b, e1));
    let t = ((c - s0).dot(s1 - s0) / (s1 - s0).length_squared()).clamp(0.0, 1.0);
    let foot = s0 + (s1 - s0) * t;
    assert!(t > 0.0 && t < 1.0, "the scene changed: the centre projects to an end");
    let truth = (foot - c).normalize();
    let got = contact(&ball, &pose_a, &segment, &pose_b, 0.0).expect("overlapping");
    let n = got.normal.as_dvec2();
    let angle = n.perp_dot(truth).abs();
    // f32 rounding of the normal itself is 6e-8; the failure was 5e-5.
    assert!(angle <= 2e-6, "normal {angle:e} rad off the perpendicular: {got:?}");
    // Pushing B by the depth along n separates: B's overlap along n is A's reach minus B's.
    let reach_a = n.dot(c) + f64::from(radius);
    let back_b = n.dot(s0).min(n.dot(s1));
    let overlap = reach_a - back_b;
    assert!(overlap <= f64::from(got.depth) + 1e-5, "overlap {overlap:e} along n, depth {got:?}");
}

/// Tiny boxes (subnormal half extents, `~1e-309`) that overlap: `intersects`, `distance` and
/// `contact(0)` took the separating-axis test's overlap, while `closest_points` ran GJK alone,
/// whose duality-gap test squares lengths that underflow to 0: it stopped after one support
/// point and reported the boxes apart (the long run's `intersects_consistent`, 9 f64 scenes).
/// `distance` and `closest_points` now share one row of the dispatch table and one overlap
/// rule (`Pair::overlap_proved`: the test's largest separation `≤ 0`), the one `intersects`
/// and `contact` take. Oracle: axis-aligned boxes, which overlap exactly when their intervals
/// overlap on every axis (closed form, no rounding: the coordinates are sums of subnormals).
#[test]
fn subnormal_boxes_that_overlap_are_intersecting_for_every_query() {
    use gjk::{Cuboid, Proximity};
    use glam::{DVec2, DVec3};
    fn check<V: gjk::Vector<Real = f64>>(half_a: V, half_b: V, centre_b: V, case: &str) {
        let (a, b) = (Cuboid::new(half_a).unwrap(), Cuboid::new(half_b).unwrap());
        let pair = Pair::new(&a, Pose::IDENTITY, &b, Pose::from_translation(centre_b).unwrap());
        // The oracle: the intervals [−a, a] and [c − b, c + b] overlap on every axis.
        let overlap = (0..V::DIM).all(|i| {
            let (a, b, c) = (half_a.component(i), half_b.component(i), centre_b.component(i));
            c.abs() <= a + b
        });
        assert!(overlap, "{case}: the scene is meant to overlap");
        assert!(pair.intersects(), "{case}");
        assert_eq!(pair.distance(), 0.0, "{case}");
        assert!(pair.contact(0.0).is_some(), "{case}");
        let closest = pair.closest_points();
        assert!(matches!(closest, Proximity::Intersecting), "{case}: {closest:?}");
    }
    let t = 1e-309;
    check(
        DVec3::new(1.46, 2.20, 1.38) * t,
        DVec3::new(1.60, 3.40, 3.30) * t,
        DVec3::new(-0.93, -0.50, -0.39) * t,
        "3D, 1e-309",
    );
    check(
        DVec3::new(2.41, 1.67, 1.29) * 1e-311,
        DVec3::new(0.07, 0.87, 0.31) * 1e-311,
        DVec3::new(-0.71, 1.44, -0.97) * 1e-311,
        "3D, 1e-311",
    );
    check(
        DVec2::new(2.23, 3.17) * t,
        DVec2::new(7.24, 14.66) * t,
        DVec2::new(-9.34, -13.51) * t,
        "2D",
    );
}

/// A box cast onto a rounded (posed) ellipsoid (f64, the long run's `cast_points_on_shapes`):
/// the sweep ended with the last advancing plane's normal, good to about `√ε` on the curved
/// core, and the contact points were the cores' witnesses pushed out by their margins along
/// that normal, then averaged: the ellipsoid's margin (0.1) times the normal's error put its
/// point beside the box's corner, and the average lay 5.7e-7 outside the box (τ = 2.8e-7).
/// Each point now lies its margin from its core's witness toward the other's, which keeps it
/// in its shape by construction. Oracle: the box's closed form (`|local| ≤ half extents`),
/// at the box's pose moved by the time of impact.
#[test]
fn cast_onto_a_rounded_ellipsoid_keeps_the_point_on_the_box() {
    use gjk::{CastStatus, Cuboid, Ellipsoid, Posed, Rounded};
    use glam::{DQuat, DVec3};
    let pose =
        |q: [f64; 4], t: [f64; 3]| Pose::new(DQuat::from_array(q), DVec3::from_array(t)).unwrap();
    let half = DVec3::new(2.0447963889463203, 0.8257006879109389, 0.23566321263141463);
    let a = Cuboid::new(half).unwrap();
    let radii = DVec3::new(0.17454769222284275, 0.054204199924439, 0.006816653738816801);
    let inner = Posed::new(
        Ellipsoid::new(radii).unwrap(),
        pose(
            [-0.5188877752863537, 0.7835364214502999, 0.1882512189064959, 0.28528517574429807],
            [0.16437579515900963, 0.2805521811589515, -0.011844267717710966],
        ),
    );
    let b = Rounded::new(inner, 0.10048250547384713).unwrap();
    let pose_a = pose(
        [0.3573200384027012, 0.8052155002588454, -0.05910002478953065, 0.46952909959731604],
        [0.14292214089027766, -4.030796606302971, -3.8407751027941366],
    );
    let pose_b = pose(
        [-0.32937120961869004, 0.9126975405088465, -0.21349826110878486, 0.11364989365128694],
        [0.8914862355053491, -2.011248180714558, -5.643392752427513],
    );
    let va = DVec3::new(-0.14624455197252234, 0.5364721899878595, 0.1759793789155166);
    let vb = DVec3::new(-0.8819266630103096, -0.340226352531522, 0.6674285409874706);
    let c = Pair::new(&a, pose_a, &b, pose_b).shape_cast(va, vb, 1.0);
    assert_eq!(c.status, CastStatus::Hit, "{c:?}");
    // The property test's tolerance: 1e-7 of the scene's size (2.81).
    let tau = 2.8e-7;
    let moved = Pose::new(pose_a.rotation(), pose_a.translation() + va * c.toi).unwrap();
    let outside = (moved.inverse_transform_point(c.point_a).abs() - half).max_element();
    assert!(outside <= tau, "point_a {outside:e} outside the box: {c:?}");
    assert!((c.point_b - c.point_a).length() <= tau, "{c:?}");
}

/// EPA's witnesses on a ruled patch in f32 where the normal is off by more than the re-choice's
/// tilt: a cylinder's rim (the cylinder posed inside a `Posed`) against a cone's side, Shallow.
/// The depth is flat to rounding across the patch for a few 1e-3 rad, and f32 EPA's normal
/// was 0.013 rad off the f64 one. The witnesses, chosen again on the faces that support the
/// normal, matched only the coordinate along `t` (the remainder's direction across the
/// normal), but the cone's support points along `−n` and `−(n ± τ t)` all lay at its ruling's
/// base end, 2.9e-3 across `t` from the rim's point: the re-choice was rejected and the
/// remainder (4.2e-5) split evenly, which left `point_a` 1.9e-5 off the rim (the tolerance is
/// 1.6e-6). Fixed by crossing the faces in the tangent plane (support points along
/// `n ± τ s` as well reach the ruling's apex end; `epa::crossing`). Oracle: the closed-form
/// containment in the cylinder and the cone, in their own frames, in f64 from the f32 shapes
/// and poses.
#[test]
fn f32_rim_against_a_cone_side_keeps_both_contact_points_on_their_shapes() {
    use gjk::{Cone, Cylinder, Posed};
    let inner = pose32(
        [0.22322942227413262, -0.7243207664183245, -0.18394584880349074, -0.625852999572816],
        [-0.01622086577117443, -0.02586674503982067, -0.029587728902697563],
    );
    let (hh_a, r_a) = (0.012469005770981312f64 as f32, 0.008864661678671837f64 as f32);
    let cylinder = Posed::new(Cylinder::new(hh_a, r_a).unwrap(), inner);
    let pose_a = pose32(
        [-0.4466737196852728, 0.6904067375636229, 0.3448526848553666, 0.45265632726973154],
        [-0.09939727932214737, -0.09007760137319565, 0.052480656653642654],
    );
    let (hh_b, r_b) = (0.027496160939335823f64 as f32, 0.00456822756677866f64 as f32);
    let cone = Cone::new(hh_b, r_b).unwrap();
    let pose_b = pose32(
        [-0.23447784894001017, -0.86789584576425, -0.3449131266936661, 0.2698367549019627],
        [-0.0579523965716362, -0.1031937226653099, 0.07467234134674072],
    );
    let c = gjk::contact(&cylinder, &pose_a, &cone, &pose_b, f32::INFINITY).expect("overlapping");
    let local = |pose: &Pose<glam::Vec3>, p: glam::DVec3| {
        pose.rotation().as_dquat().inverse() * (p - pose.translation().as_dvec3())
    };
    let (hh_a, r_a, hh_b, r_b) = (f64::from(hh_a), f64::from(r_a), f64::from(hh_b), f64::from(r_b));
    // The cylinder: |y| ≤ h and radial ≤ r; the cone (apex at y = h, base at y = −h): radial
    // ≤ r (h − y) / 2h.
    let a = local(&inner, local(&pose_a, c.point_a.as_dvec3()));
    let outside_a = (a.y.abs() - hh_a).max(a.x.hypot(a.z) - r_a);
    let b = local(&pose_b, c.point_b.as_dvec3());
    let radius_at = r_b * (hh_b - b.y.clamp(-hh_b, hh_b)) / (2.0 * hh_b);
    let outside_b = (b.y.abs() - hh_b).max(b.x.hypot(b.z) - radius_at);
    // The property test's tolerance for this scene (1e-5 of the size 0.053, plus rounding).
    let tolerance = 1.6e-6;
    assert!(outside_a <= tolerance, "point_a {outside_a:e} outside the cylinder: {c:?}");
    assert!(outside_b <= tolerance, "point_b {outside_b:e} outside the cone: {c:?}");
    let remainder = (c.point_a - c.point_b - c.normal * c.depth).length();
    assert!(remainder <= 1e-7, "{c:?}: a − b − depth n = {remainder:e}");
}

/// A point cast straight at a segment's end, far from the world's origin (translations near
/// 4000, the scene 2500 across): the sweep's first step lands the ray point on the end, where
/// `C` (a segment) reaches the origin only up to the relative pose's rounding, 3.5e-12 off.
/// The touching distance counted the coordinates of A's frame only (3.2e-12), so that gap,
/// with a direction that was rounding's own, read as a separating plane the motion did not
/// approach: `NoHit` at toi 1 where the hit is at toi 1/k. The touching distance now counts
/// the poses' translations, whose rounding every ray point carries.
#[test]
fn point_cast_at_a_segment_end_far_from_the_origin_hits() {
    use gjk::{CastStatus, Segment};
    use glam::{DQuat, DVec3};
    let point = DVec3::new(174.00275612940214, 92.31303840954473, 159.21634527741378);
    let (e0, e1) = (
        DVec3::new(-1680.1565615823072, 1787.1627665369936, 359.0362149440723),
        DVec3::new(-6.1468507642580335, -826.0994521181595, -462.1167405711658),
    );
    let a = Polytope::new(vec![point]).unwrap();
    let b = Segment::new(e0, e1).unwrap();
    let quat = |x, y, z, w| DQuat::from_xyzw(x, y, z, w);
    let pose_a = Pose::new(
        quat(-0.7120890444631072, 0.023643637499890936, 0.5035152546092538, -0.4887152131222961),
        DVec3::new(2082.855741251031, -3218.8657674596016, -259.5462231104975),
    )
    .unwrap();
    let pose_b = Pose::new(
        quat(0.8621302981341662, 0.4436449599216898, -0.0023607379672611335, 0.24475482730975162),
        DVec3::new(2709.5626159971075, -4080.0545707788897, -202.71342056458744),
    )
    .unwrap();
    // Oracle: the closed-form nearest point of the world segment to the world point.
    let p = pose_a.transform_point(point);
    let (q0, q1) = (pose_b.transform_point(e0), pose_b.transform_point(e1));
    let s = ((p - q0).dot(q1 - q0) / (q1 - q0).length_squared()).clamp(0.0, 1.0);
    let gap = q0 + (q1 - q0) * s - p;
    assert!(s == 0.0 || s == 1.0, "the nearest point is an end ({s})");
    // The property test's direction and gap (its own oracle's, last bits apart from this one).
    let u = DVec3::new(-0.5581365416806625, -0.10047791410194289, 0.8236429988887617);
    let along = u * 2.1219469672535544e2;
    assert!((along - gap).length() <= 1e-9, "{along:?} against {gap:?}");
    let pair = Pair::new(&a, pose_a, &b, pose_b);
    for k in [1.5, 1.9704461681738286, 2.5] {
        // B moves straight at the point, k times the gap in the unit time.
        let c = pair.shape_cast(DVec3::ZERO, -along * k, 1.0);
        assert_eq!(c.status, CastStatus::Hit, "k {k}: {c:?}");
        assert!((c.toi - 1.0 / k).abs() <= 1e-12, "k {k}: toi {} for {}", c.toi, 1.0 / k);
        assert!((c.point_a - p).length() <= 1e-9, "k {k}: {c:?}");
    }
}

/// A 2D sliver (three nearly collinear points, f32, 9e4 long and 6e-4 wide) deep in a long
/// flat ellipse (radii 3.0e5 and 9.1e3): EPA's witness of A was the sliver's end vertex,
/// exact, but the polish of the normal (the ellipse is curved) ended in f32 with the support
/// point 32 across the normal (an ellipse's flank whose radius of curvature is 1e7 moves its
/// support point by that much for a normal 3e-6 rad off), and `Polished::witnesses` split that
/// remainder evenly: the vertex, which has no room across the normal, moved by 8.7 and left
/// the sliver by 6.4 (the property test's tolerance here: 5.4). The remainder now goes to the
/// shape with room for it along its supporting face (`distribute`, as in EPA's re-choice).
/// Oracles: the f64 distance from the sliver's triangle (its world vertices from the f32 poses)
/// and the ellipse's implicit form in its frame.
#[test]
fn f32_sliver_vertex_deep_in_a_flat_ellipse_keeps_its_witness() {
    use gjk::{Ellipsoid, Posed};
    use glam::Vec2;
    let pts = [
        DVec2::new(-20269.5, -13612.2802734375),
        DVec2::new(48219.890625, 46111.59765625),
        DVec2::new(12465.408203125, 14933.0986328125),
    ];
    let pose = |angle: f64, x: f32, y: f32| {
        Pose::<Vec2>::from_angle_translation(angle as f32, Vec2::new(x, y)).unwrap()
    };
    let inner = pose(0.4510463941750785, 10494.073, -15566.466);
    let sliver =
        Posed::new(Polytope::new(pts.iter().map(|p| p.as_vec2()).collect()).unwrap(), inner);
    let pose_a = pose(2.8445477389378557, 22931.486, 308106.1);
    let radii = DVec2::new(303851.0625, 9125.40625);
    let ellipse = Ellipsoid::new(radii.as_vec2()).unwrap();
    let pose_b = pose(-1.4705521991520012, 5944.27, 140393.05);
    let c = Pair::new(&sliver, pose_a, &ellipse, pose_b).contact(f32::INFINITY).unwrap();
    let to_world = |pose: &Pose<Vec2>, p: DVec2| {
        let r = pose.rotation();
        let (cos, sin) = (f64::from(r.cos), f64::from(r.sin));
        DVec2::new(cos * p.x - sin * p.y, sin * p.x + cos * p.y) + pose.translation().as_dvec2()
    };
    let to_local = |pose: &Pose<Vec2>, p: DVec2| {
        let r = pose.rotation();
        let (cos, sin) = (f64::from(r.cos), f64::from(r.sin));
        let d = p - pose.translation().as_dvec2();
        DVec2::new(cos * d.x + sin * d.y, -sin * d.x + cos * d.y)
    };
    let w: Vec<DVec2> = pts.iter().map(|p| to_world(&pose_a, to_world(&inner, *p))).collect();
    // Outside the triangle: 0 inside (every edge's side agrees), else the nearest edge's distance.
    let p = c.point_a.as_dvec2();
    let edge = |i: usize| (w[i], w[(i + 1) % 3]);
    let side = |(e0, e1): (DVec2, DVec2)| (e1 - e0).perp_dot(p - e0);
    let inside = (0..3).all(|i| side(edge(i)) >= 0.0) || (0..3).all(|i| side(edge(i)) <= 0.0);
    let to_edge = |(e0, e1): (DVec2, DVec2)| {
        let s = ((p - e0).dot(e1 - e0) / (e1 - e0).length_squared()).clamp(0.0, 1.0);
        (e0 + (e1 - e0) * s - p).length()
    };
    let outside_a =
        if inside { 0.0 } else { (0..3).map(|i| to_edge(edge(i))).fold(f64::MAX, f64::min) };
    // The ellipse: `q / k` lies on it for `k = |q / radii|`, so `|q| (1 − 1/k)` bounds the
    // distance of an outside point `q` (k > 1).
    let q = to_local(&pose_b, c.point_b.as_dvec2());
    let k = (q / radii).length();
    let outside_b = if k > 1.0 { q.length() * (1.0 - 1.0 / k) } else { 0.0 };
    // The property test's tolerance for this scene (1e-5 of the size 3.0e5, plus rounding).
    let tolerance = 5.4;
    assert!(outside_a <= tolerance, "point_a {outside_a:e} outside the sliver: {c:?}");
    assert!(outside_b <= tolerance, "point_b {outside_b:e} outside the ellipse: {c:?}");
    let remainder = (c.point_a - c.point_b - c.normal * c.depth).length();
    assert!(remainder <= 0.1, "{c:?}: a − b − depth n = {remainder:e}");
}

/// Cones that touch within the touching distance (f64, the long run's `intersects_consistent`,
/// cases 105547 and 115869): rounded cones 1.17e-10 apart with a touching distance of
/// 1.21e-10, and cones of size 4e-5 4.09e-15 apart with one of 4.11e-15. `distance` and
/// `closest_points` said touching (0, intersecting), `intersects` and `contact(0)` apart. The
/// intersection run (no separating axis: its lower bound `v·w/|v|` was within the touching
/// distance) stopped at its tolerance with `|v|` 1.24e-10 beyond the margins, an upper bound
/// only; the distance run, with the feature finisher for cones, measured 1.17e-10. An
/// intersection run that ends apart without a separating axis now takes the cold distance
/// run's verdict, the one `distance` and `closest_points` take. Oracle: the closed-form cone
/// support (apex or rim, plus the margin), which bounds the distance between the plane gap
/// along the scene's direction `u` and the distance of the two support points; B slides
/// along `u` through the touching distance, and every query must say touching when the upper
/// bound is within it, apart when the lower bound is beyond it, and all must agree.
#[test]
fn cones_within_the_touching_distance_intersect_for_every_query() {
    use gjk::{Cone, Proximity, Rounded};
    use glam::{DQuat, DVec3};
    struct Body {
        h: f64,
        r: f64,
        m: f64,
        rot: DQuat,
        t: DVec3,
    }
    impl Body {
        /// The support point along the unit `n` (world): the cone's apex or rim point,
        /// then the margin along `n`.
        fn support(&self, n: DVec3) -> DVec3 {
            let d = self.rot.inverse() * n;
            let rho = (d.x * d.x + d.z * d.z).sqrt();
            let apex = DVec3::new(0.0, self.h, 0.0);
            let rim = if rho > 0.0 {
                DVec3::new(d.x * self.r / rho, -self.h, d.z * self.r / rho)
            } else {
                DVec3::new(self.r, -self.h, 0.0)
            };
            let core = if apex.dot(d) >= rim.dot(d) { apex } else { rim };
            self.rot * core + self.t + n * self.m
        }
        fn pose(&self) -> Pose<DVec3> {
            Pose::new(self.rot, self.t).unwrap()
        }
    }
    let quat = |q: [f64; 4]| DQuat::from_xyzw(q[0], q[1], q[2], q[3]).normalize();
    let scenes = [
        (
            Body {
                h: 0.05641935144572234,
                r: 0.16199134370838,
                m: 0.17673231445411103,
                rot: quat([
                    -0.8695704900505521,
                    -0.2563976802122717,
                    0.4176093838328835,
                    -0.060908086078351444,
                ]),
                t: DVec3::new(-0.25341648825171537, 0.2843936828509881, -0.1972918939897465),
            },
            Body {
                h: 0.18546707408013488,
                r: 0.2907380793134072,
                m: 2.225073858507e-311,
                rot: quat([
                    -0.1401275956992751,
                    -0.5914187516180793,
                    0.7734112013495503,
                    -0.18006451839576496,
                ]),
                t: DVec3::new(0.34961646423559417, 0.5493115919621042, -0.19450510624810696),
            },
            DVec3::new(0.9143751747742758, 0.3643563283068131, 0.17652905080833128),
        ),
        (
            Body {
                h: 5.576358919035121e-7,
                r: 3.1186597738685857e-6,
                m: 0.0,
                rot: quat([
                    0.10797234395230933,
                    0.24830080524770118,
                    -0.594722844396928,
                    0.7569632893391954,
                ]),
                t: DVec3::new(
                    -1.6615975593919912e-5,
                    -1.9494715287897587e-5,
                    1.4977983140262142e-5,
                ),
            },
            Body {
                h: 1.3316583486641964e-5,
                r: 3.3717543184186568e-6,
                m: 8.130613711573704e-6,
                rot: quat([
                    0.4525091107854374,
                    0.6112269207951929,
                    0.3811189982195699,
                    0.5257237536458778,
                ]),
                t: DVec3::new(-1.2204503079321394e-5, -2.6969051498007907e-5, 3.591410454078452e-5),
            },
            DVec3::new(0.19037084638572485, -0.7280049972061168, 0.6586104044799965),
        ),
    ];
    for (k, (a, b, u)) in scenes.iter().enumerate() {
        let u = u.normalize();
        let shape = |body: &Body| {
            let cone = Cone::new(body.h, body.r).unwrap();
            Rounded::new(cone, body.m).unwrap()
        };
        let (sa, sb) = (shape(a), shape(b));
        // The touching rule of the pair (the documented one: `(1e-10 + 16 ε) × size`); sliding
        // B along `u` by less than its size moves it by less than 1e-16 of itself.
        let touch = Pair::new(&sa, a.pose(), &sb, b.pose()).tolerance(1e-10).distance();
        let (pa, pb) = (a.support(u), b.support(-u));
        let (lower0, upper0) = ((pb - pa).dot(u), (pb - pa).length());
        assert!(upper0 <= touch, "scene {k}: the recorded scene is within the touching distance");
        for step in [0.0, 0.25, 0.5, 0.75, 0.9, 0.95, 0.98, 1.02, 1.05, 1.1, 1.5, 2.0, 4.0] {
            let slide = step * touch - lower0;
            let moved = Body { t: b.t + u * slide, ..*b };
            let (pa, pb) = (a.support(u), moved.support(-u));
            let (lower, upper) = ((pb - pa).dot(u), (pb - pa).length());
            let pair = Pair::new(&sa, a.pose(), &sb, moved.pose());
            let intersects = pair.intersects();
            let votes = [
                intersects,
                pair.contact(0.0).is_some(),
                pair.distance() == 0.0,
                matches!(pair.closest_points(), Proximity::Intersecting),
            ];
            let case =
                format!("scene {k}, gap {step} × touch ({lower:e}..{upper:e}, touch {touch:e})");
            assert!(votes.iter().all(|&v| v == intersects), "{case}: votes {votes:?}");
            if upper <= touch {
                assert!(intersects, "{case}: within the touching distance, reported apart");
            }
            if lower > touch {
                assert!(!intersects, "{case}: beyond the touching distance, reported touching");
            }
        }
        // The recorded scene itself.
        let pair = Pair::new(&sa, a.pose(), &sb, b.pose());
        assert!(pair.intersects() && pair.contact(0.0).is_some(), "scene {k}: {lower0:e} apart");
    }
}

/// A flat hull's long edge against an ellipsoid in f32 (the property suite's
/// `symmetric_distance`, a `hull-flat | posed(ellipsoid)` scene of the long run): the distance
/// came out 4.5319 with the ellipsoid first, 4.5301 with the hull first (exact 4.5301).
///
/// GJK's support point along `−v` paired the ellipsoid's better point with the far end of a
/// hull edge 14 long that was almost orthogonal to `v` (its ends tie along `v`). The segment
/// to it offered progress of about the gap squared over its length squared, which rounded
/// away in f32: the loop stalled 1.8e-3 short with the duality gap open, and the stall's
/// polish, made for curved ruled patches, found no point either. Fixed by pairing the better
/// point with the near end the simplex already held (`Run::recombined`).
///
/// Oracle (f64, the poses the library holds): the largest separation `min_B n·b − max_A n·a`
/// over unit `n` (a grid, then pattern search) bounds the distance from below, and the two
/// supporting points at that `n` bound it from above; they meet here, the hull's vertex
/// against the ellipsoid's side.
#[test]
fn f32_flat_hull_edge_against_an_ellipsoid_measures_the_distance_in_both_orders() {
    use gjk::{distance, Ellipsoid, Posed};
    use glam::{DQuat, DVec3};
    let points = [
        [-1.0537432432174683, 16.720731735229492, -0.4286183714866638],
        [-0.7508785128593445, 3.7014496326446533, -12.94532299041748],
        [-0.5248168110847473, 1.3170807361602783, -11.00240421295166],
        [0.9475255608558655, -10.790936470031738, 6.917147159576416],
        [0.556337833404541, -5.103741645812988, 5.957558631896973],
        [0.7604458928108215, -16.00739288330078, -5.755111217498779],
    ]
    .map(v32);
    let hull = Polytope::new(points.to_vec()).unwrap();
    let pose_hull = pose32(
        [-0.6253843859365981, -0.43370419434319113, -0.4202688306685639, 0.4941347504520457],
        [10.850887298583984, 24.129085540771484, 29.42866325378418],
    );
    let radii = v32([1.1384060382843018, 0.7756479382514954, 1.1735612154006958]);
    let inner = pose32(
        [0.6311914853438808, 0.07404480050451162, 0.26192107517116453, -0.7263002318110697],
        [-2.3248963356018066, 0.1990709751844406, -0.7265492677688599],
    );
    let ellipsoid = Posed::new(Ellipsoid::new(radii).unwrap(), inner);
    let pose_ellipsoid = pose32(
        [0.26169365025001773, -0.38925751122315366, -0.8426794210281845, -0.26436039179646686],
        [-4.744041442871094, 35.48381423950195, 27.809350967407227],
    );

    let rotation = |p: &Pose<glam::Vec3>| p.rotation().as_dquat().normalize();
    let hull_q = rotation(&pose_hull);
    let world: Vec<DVec3> =
        points.iter().map(|p| hull_q * p.as_dvec3() + pose_hull.translation().as_dvec3()).collect();
    let ellipsoid_q: DQuat = rotation(&pose_ellipsoid) * rotation(&inner);
    let center = rotation(&pose_ellipsoid) * inner.translation().as_dvec3()
        + pose_ellipsoid.translation().as_dvec3();
    let r = radii.as_dvec3();
    // The ellipsoid's support point along `n` (world): `R diag(r²) m / |diag(r) m|`, `m = Rᵀ n`.
    let ellipsoid_support = |n: DVec3| {
        let m = ellipsoid_q.inverse() * n;
        center + ellipsoid_q * (r * r * m / (r * m).length())
    };
    let hull_support =
        |n: DVec3| *world.iter().max_by(|a, b| n.dot(**a).total_cmp(&n.dot(**b))).unwrap();
    let at = |(theta, phi): (f64, f64)| {
        DVec3::new(theta.cos() * phi.sin(), theta.sin() * phi.sin(), phi.cos())
    };
    // Minus the separation along `n` (from the hull toward the ellipsoid).
    let cost = |u: (f64, f64)| {
        let n = at(u);
        n.dot(hull_support(n)) - n.dot(ellipsoid_support(-n))
    };
    let (n_theta, n_phi) = (720, 360);
    let mut best = ((0.0, 0.0), f64::INFINITY);
    for i in 0..n_theta {
        for j in 0..n_phi {
            let u = (
                std::f64::consts::TAU * i as f64 / n_theta as f64,
                std::f64::consts::PI * (j as f64 + 0.5) / n_phi as f64,
            );
            if cost(u) < best.1 {
                best = (u, cost(u));
            }
        }
    }
    let moves = [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)];
    let step = std::f64::consts::TAU / n_theta as f64;
    let (u, minus_lower) = crate::common::compass_search(cost, best, step, 1e-14, &moves, |u| u);
    let n = at(u);
    let (lower, upper) = (-minus_lower, (ellipsoid_support(-n) - hull_support(n)).length());
    assert!(upper - lower < 1e-9, "oracle bounds {lower} {upper}");

    // 1e-5 of the scene's size (19): f32 rounding of the coordinates is about 2e-6.
    let bound = 1e-5 * 19.0;
    let hull_first = f64::from(distance(&hull, &pose_hull, &ellipsoid, &pose_ellipsoid));
    let ellipsoid_first = f64::from(distance(&ellipsoid, &pose_ellipsoid, &hull, &pose_hull));
    assert!((hull_first - lower).abs() < bound, "hull first: {hull_first}, exact {lower}");
    assert!(
        (ellipsoid_first - lower).abs() < bound,
        "ellipsoid first: {ellipsoid_first}, exact {lower}"
    );
}

/// An f32 2D cast of a rounded ellipse onto a 7-point polygon (the property suite's
/// `cast_toi` and `cast_points_on_shapes`, `rounded(ellipsoid) | hull-random`, size 6.8e5):
/// the sweep reported a hit at 0.2264 with the shapes still 30 apart; the time of impact is
/// 0.4717.
///
/// At a fixed ray point the sweep's support point paired the ellipse's better point with the
/// far end of a polygon edge almost orthogonal to the search direction, and the progress of
/// the segment to it rounded away (as in GJK's loop: `Simplex::recombined`). The stall's
/// polish found no point, and the sweep stopped as if touching. Fixed by pairing the better
/// point with the near end the simplex held.
///
/// Oracle (f64, the shapes and poses the library holds): at time `t` the largest separation
/// `min_B n·b − max_A n·a` over unit `n` (a dense grid of angles, then golden-section
/// search) is the distance of the moved shapes; the time of impact is its first zero,
/// found by bisection.
#[test]
fn f32_cast_of_a_rounded_ellipse_onto_a_polygon_edge_reaches_the_contact() {
    use gjk::{Ellipsoid, Rounded};
    use glam::{DVec2, Vec2};
    let v = |x: f64, y: f64| DVec2::new(x, y).as_vec2();
    let radii = v(104753.1015625, 144568.8125);
    let margin = 317795.1875f64 as f32;
    let ellipse = Rounded::new(Ellipsoid::new(radii).unwrap(), margin).unwrap();
    let points = [
        [26716.94921875, -195931.109375],
        [-211697.296875, 130149.6171875],
        [128767.171875, -40369.1015625],
        [-231691.65625, 489872.28125],
        [109984.3828125, 531546.6875],
        [194554.328125, -410506.25],
        [-8472.0244140625, -70676.609375],
    ]
    .map(|[x, y]| v(x, y));
    let polygon = Polytope::new(points.to_vec()).unwrap();
    let pose_ellipse = Pose::<Vec2>::from_angle_translation(
        2.160847893911195f64 as f32,
        v(-966112.4375, -17245.11328125),
    )
    .unwrap();
    let pose_polygon = Pose::<Vec2>::from_angle_translation(
        0.522930501667751f64 as f32,
        v(-331541.8125, 230102.796875),
    )
    .unwrap();
    let (velocity_ellipse, velocity_polygon) =
        (v(66.5328369140625, 57.519073486328125), v(-35.93337631225586, -9.7847261428833));
    let cast = Pair::new(&ellipse, pose_ellipse, &polygon, pose_polygon).shape_cast(
        velocity_ellipse,
        velocity_polygon,
        1.0,
    );

    // The oracle, from the f32 numbers the library holds.
    let frame = |p: &Pose<Vec2>| {
        let r = p.rotation();
        (DVec2::new(f64::from(r.cos), f64::from(r.sin)), p.translation().as_dvec2())
    };
    let ((cos_e, sin_e), center) = {
        let (c, t) = frame(&pose_ellipse);
        ((c.x, c.y), t)
    };
    let (rot_p, t_p) = frame(&pose_polygon);
    let world: Vec<DVec2> = points
        .iter()
        .map(|p| {
            let p = p.as_dvec2();
            DVec2::new(rot_p.x * p.x - rot_p.y * p.y, rot_p.y * p.x + rot_p.x * p.y) + t_p
        })
        .collect();
    let r = radii.as_dvec2();
    // Support values along `n` at time `t`: the rounded ellipse's `|diag(r) Rᵀn| + margin`.
    let h_ellipse = |n: DVec2, t: f64| {
        let m = DVec2::new(cos_e * n.x + sin_e * n.y, -sin_e * n.x + cos_e * n.y);
        (r * m).length() + f64::from(margin) + n.dot(center + velocity_ellipse.as_dvec2() * t)
    };
    let h_polygon = |n: DVec2, t: f64| {
        let moved = velocity_polygon.as_dvec2() * t;
        world.iter().map(|p| n.dot(*p + moved)).fold(f64::NEG_INFINITY, f64::max)
    };
    // The distance at `t`: the largest separation over the normals (from the ellipse toward
    // the polygon).
    let distance = |t: f64| {
        let separation = |angle: f64| {
            let n = DVec2::from_angle(angle);
            -h_polygon(-n, t) - h_ellipse(n, t)
        };
        let steps = 20_000;
        let step = std::f64::consts::TAU / steps as f64;
        let best = (0..steps)
            .map(|i| i as f64 * step)
            .max_by(|a, b| separation(*a).total_cmp(&separation(*b)))
            .unwrap();
        let minus = |u: f64| -separation(best - step + 2.0 * step * u);
        -crate::common::golden_minimum(minus)
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    assert!(distance(lo) > 0.0 && distance(hi) < 0.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if distance(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let relative_speed = (velocity_polygon - velocity_ellipse).as_dvec2().length();
    // 1e-5 of the scene's size (6.8e5) along the relative motion.
    let bound = 1e-5 * 6.8e5;
    let toi = f64::from(cast.toi);
    assert!(cast.is_hit(), "{cast:?}");
    assert!((toi - lo).abs() * relative_speed < bound, "toi {toi}, exact {lo}: {cast:?}");
    // The contact points lie on the moved shapes, within the bound.
    let n = cast.normal.as_dvec2();
    let (pa, pb) = (cast.point_a.as_dvec2(), cast.point_b.as_dvec2());
    assert!((n.dot(pa) - h_ellipse(n, toi)).abs() < bound, "{cast:?}");
    assert!((n.dot(pb) + h_polygon(-n, toi)).abs() < bound, "{cast:?}");
}

/// EPA's witnesses in f32 taken from a parallel facet and kept off the supporting planes: an
/// ellipsoid (radii 132, 86, 17) deep in a posed cylinder (half height 1360, radius 1338),
/// the scene 2.5e3 across, far from the world's origin (the property tests' last CI failure,
/// `contact_points_on_planes`). f32 EPA converged on the cylinder's side, its facet 0.022
/// below the support value along its normal (within its tolerance), a sliver with two corners
/// 15 apart on one rim and the third on the other. The origin projected outside that facet
/// (a barycentric coordinate of −0.42), so the witnesses came from a parallel facet of the
/// same face (normals within `√ε`, 0.026 rad in f32), whose points missed `depth × n` by 9.2,
/// mostly across the normal. The re-choice on the faces that support the normal did worse
/// (the faces' ranges along the remainder did not meet), so the start was kept and its
/// remainder handed out; but the start was that facet's chord, below the supporting planes of
/// the answer's normal: `point_a` ended 4.6e-2 inside A's plane (the tolerance is 4.4e-2) and
/// `point_b` 2.5e-2 beyond B's. Fixed by putting the kept start on the planes, as the
/// re-chosen points are, before handing out its remainder, whose part along the normal is
/// then the expansion's gap, split evenly. Oracle: the closed-form supports of the cylinder
/// and the ellipsoid, in f64 from the f32 shapes and poses: each point within the gap
/// `h_A(n) + h_B(−n) − depth` of its plane, and inside its shape (closed-form containment).
#[test]
fn f32_witnesses_from_a_parallel_facet_lie_on_the_supporting_planes() {
    use gjk::{Cylinder, Ellipsoid, Posed};
    use glam::{DVec3, Vec3};
    let inner = pose32(
        [0.8460226597200982, 0.5150533879374452, 0.035393081363607304, 0.13309018222949406],
        [228.15008544921875, 639.1137084960938, -59.85615539550781],
    );
    let (hh, r) = (1359.6572265625f64 as f32, 1338.3409423828125f64 as f32);
    let cylinder = Posed::new(Cylinder::new(hh, r).unwrap(), inner);
    let pose_a = pose32(
        [-0.6350556049417837, 0.25092220438561696, 0.7304366865484515, -0.01430639445866561],
        [-72.95872497558594, -162.53692626953125, 1764.0926513671875],
    );
    let radii = v32([132.36636352539063, 86.35452270507813, 17.477649688720703]);
    let ellipsoid = Ellipsoid::new(radii).unwrap();
    let pose_b = pose32(
        [-0.5840997773109875, -0.3017537335694174, 0.09108232827147751, -0.7479813793797401],
        [61.24444580078125, -302.29144287109375, 1150.728759765625],
    );
    let c = gjk::contact(&cylinder, &pose_a, &ellipsoid, &pose_b, f32::INFINITY).unwrap();
    // The oracle, in f64: world to local and the shapes' closed-form supports.
    let rotation = |p: &Pose<Vec3>| p.rotation().as_dquat().normalize();
    let local = |p: &Pose<Vec3>, x: DVec3| rotation(p).inverse() * (x - p.translation().as_dvec3());
    let world = |p: &Pose<Vec3>, x: DVec3| rotation(p) * x + p.translation().as_dvec3();
    let turn = |p: &Pose<Vec3>, d: DVec3| rotation(p).inverse() * d;
    let (hh, r, radii) = (f64::from(hh), f64::from(r), radii.as_dvec3());
    let support_a = |n: DVec3| {
        let m = turn(&inner, turn(&pose_a, n));
        let l = m.x.hypot(m.z);
        let rim = DVec3::new(r * m.x / l, hh * m.y.signum(), r * m.z / l);
        world(&pose_a, world(&inner, rim))
    };
    let support_b = |n: DVec3| {
        // x = R² m / |R m|, where the ellipsoid's normal R⁻² x is parallel to m.
        let rm = radii * turn(&pose_b, n);
        world(&pose_b, radii * rm / rm.length())
    };
    let n = c.normal.as_dvec3().normalize();
    let (pa, pb) = (c.point_a.as_dvec3(), c.point_b.as_dvec3());
    let (h_a, h_b) = (n.dot(support_a(n)), -n.dot(support_b(-n)));
    let gap = h_a + h_b - f64::from(c.depth);
    let (off_a, off_b) = (n.dot(pa) - h_a, -h_b - n.dot(pb));
    // Each point within half the expansion's gap of its plane (the remainder's part along
    // the normal, split evenly), plus the rounding of the world coordinates (up to 1764).
    let rounding = 64.0 * f64::from(f32::EPSILON) * 1764.0;
    let allowed = 0.5 * gap + rounding;
    assert!(gap <= 2.5e-2, "gap {gap:e}: {c:?}");
    assert!(off_a.abs() <= allowed, "point_a {off_a:e} off A's plane (gap {gap:e}): {c:?}");
    assert!(off_b.abs() <= allowed, "point_b {off_b:e} off B's plane (gap {gap:e}): {c:?}");
    // Inside the shapes up to the property test's tolerance (4.4e-2): the cylinder's radial
    // and axial extents; the ellipsoid's outside distance is at most (|R⁻¹x| − 1) × its
    // largest radius.
    let tolerance = 4.4e-2;
    let a = local(&inner, local(&pose_a, pa));
    let outside_a = (a.y.abs() - hh).max(a.x.hypot(a.z) - r);
    let b = local(&pose_b, pb);
    let outside_b = ((b / radii).length() - 1.0) * radii.max_element();
    assert!(outside_a <= tolerance, "point_a {outside_a:e} outside the cylinder: {c:?}");
    assert!(outside_b <= tolerance, "point_b {outside_b:e} outside the ellipsoid: {c:?}");
}

/// A ball deep in a posed ellipsoid of axis ratio 34, f64 (the property suite's long run, case
/// 152745, `contact_normal_angle`): with the ball first the contact normal was 1.73e-6 rad off
/// (the target is 1e-6 rad), with the ellipsoid first it was exact.
///
/// EPA converged with the normal 1.73e-6 rad off, and Newton's polish took the support point's
/// tangential part from 1.57e-9 to 2.2e-12 in one step and to 3.9e-18 in the next; but the
/// second step raised the support value by 1.64e-19, more than the 4 ε × size a step was
/// allowed (1.06e-19), so it was refused, and 2.2e-12 is just above the `√ε × size` that marks
/// a smooth answer: the polish was dropped. A step may now raise it by 16 ε × size.
///
/// Oracle: the ball's centre is inside the ellipsoid, so the depth is its distance to the
/// nearest boundary point plus the ball's radius, and the normal that boundary point's; the
/// point is `xᵢ = aᵢ² cᵢ / (aᵢ² + t)` with the Lagrange multiplier `t ∈ (−min aᵢ², 0)` the root
/// of `Σ (xᵢ/aᵢ)² = 1`, found by bisection (the sum falls monotonically in `t`).
#[test]
fn ball_deep_in_a_flat_posed_ellipsoid_gets_the_exact_normal_in_either_order() {
    use gjk::{contact, Ball, Ellipsoid, Posed, Rounded};
    use glam::{DQuat, DVec3};
    let pose =
        |t: [f64; 3], r: [f64; 4]| Pose::new(DQuat::from_array(r), DVec3::from_array(t)).unwrap();
    let (radius, margin) = (7.168947113191585e-5, 3.729882100098342e-5);
    let ball = Rounded::new(Ball::<DVec3>::new(radius).unwrap(), margin).unwrap();
    let pose_ball = pose(
        [0.00020122808426300317, 0.0007755475033174872, 0.0015005054398158166],
        [0.7128740937867064, 0.4050447249939098, -0.5074759169632448, -0.26498583144142673],
    );
    let inner = pose(
        [0.00038822353290636686, 0.0003463683205008445, 0.0001654368320209038],
        [0.49118388077452096, 0.005638170961336529, 0.8674223420836876, 0.07927853902250166],
    );
    let radii = DVec3::new(0.0008181319668748413, 4.3737690728525556e-5, 2.3717307129308592e-5);
    let ellipsoid = Posed::new(Ellipsoid::new(radii).unwrap(), inner);
    let pose_ellipsoid = pose(
        [0.0006851619475124962, 0.0005029358429292446, 0.0013947953327856832],
        [0.010839532329231865, 0.1355061924696518, 0.8412688677566477, 0.5232468523409475],
    );

    let frame = pose_ellipsoid.compose(&inner);
    let c = frame.inverse_transform_point(pose_ball.translation());
    let a2 = radii * radii;
    let foot = |t: f64| a2 * c / (a2 + DVec3::splat(t));
    let (mut lo, mut hi) = (-a2.min_element(), 0.0);
    assert!((c / radii).length() < 1.0, "the centre is inside");
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if (foot(mid) / radii).length_squared() > 1.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = foot(0.5 * (lo + hi));
    let depth = (x - c).length() + radius + margin;
    // From the ball toward the ellipsoid: the ball leaves through the foot's outward normal,
    // so the ellipsoid moves the other way.
    let normal = -frame.transform_vector(x / a2).normalize();

    let size = radii.max_element();
    for (name, c, sign) in [
        ("ball first", contact(&ball, &pose_ball, &ellipsoid, &pose_ellipsoid, 0.0), 1.0),
        ("ellipsoid first", contact(&ellipsoid, &pose_ellipsoid, &ball, &pose_ball, 0.0), -1.0),
    ] {
        let c = c.unwrap();
        let angle = (c.normal * sign).angle_between(normal);
        assert!(angle < 1e-9, "{name}: normal {angle:e} rad off: {c:?}");
        assert!((c.depth - depth).abs() < 1e-9 * size, "{name}: depth {} against {depth}", c.depth);
    }
}

/// A capsule whose segment passes 1.9e-10 outside a flat ellipsoid's rim, f32 (the property
/// suite's long run, `contact_push_separates` and `contact_points_on_planes`, `capsule |
/// ellipsoid`, Deep: the capsule's radius 5.5e-7 holds the ellipsoid, radii 3.6e-8, 1.4e-7,
/// 1.9e-7, size 2.9e-6). The depth is the radius minus the cores' distance, which GJK measures
/// on the ellipsoid against the segment; pushing B out along the normal by the depth left the
/// shapes 2.5e-7 overlapping (2542 τ) with the ellipsoid first, 3.6e-8 with the capsule first.
///
/// `A − B` is the ellipsoid swept along the segment: a ruled patch, flat along the segment and
/// sharply curved across it at the rim. GJK's support points sit at the segment's two ends;
/// its triangle had two vertices at one end 1e-9 apart and the third at the other end at
/// another point of the rim's cross-section, so its plane (and `v`) leaned 0.15 rad along the
/// segment, and the loop stalled (`NoProgress`) at `|v|` 2.06e-10 with the duality gap open.
/// The stall's recovery (`polish::polish_ruled`) looks for the ruling's other end by turning
/// the normal back, doubling the angle from `√ε` up to 1e-2 rad: never far enough, so it took a
/// neighbour on the rim for the other end, and Newton's method ran about a wrong "ruling" and
/// found no point. The turn now doubles up to 0.5 rad. Then the ruling's direction came from
/// both shapes' motion between its ends (`da + db`): the ellipsoid's point moved 2.5e-8 with
/// the 0.17 rad turn, tilting the ruling by 7.5e-3 rad, and the normal held orthogonal to that
/// leaned along the segment, where the support value grows by half the segment's length per
/// radian (9.5e-9 for the tilt, fifty times the distance): the recovered point made no
/// progress. The recovery now takes the spanning shape's own direction, as the polish of an
/// answer does. Both orders then measure the distance to f32's resolution and the normal
/// within 3e-3 rad.
///
/// Oracle, in f64 from the f32 shapes and poses: the cores' distance is the minimum over the
/// segment's parameter of the point's distance to the ellipsoid (convex along a line: golden
/// section), that distance from the foot `xᵢ = aᵢ² cᵢ / (aᵢ² + t)`, the multiplier `t > 0` the
/// root of `Σ (xᵢ/aᵢ)² = 1` by bisection; the overlap along a normal from the closed-form
/// supports of the ellipsoid and the capsule.
/// Oracle: the distance from `c`, outside the ellipsoid of semi-axes `radii` (its own frame),
/// to the ellipsoid: the foot `r² c / (r² + m)` of the Lagrange multiplier `m ≥ 0` that puts
/// it on the surface, found by bisection.
fn gap_to_ellipsoid(radii: glam::DVec3, c: glam::DVec3) -> f64 {
    let a2 = radii * radii;
    let foot = |m: f64| a2 * c / (a2 + glam::DVec3::splat(m));
    let (mut lo, mut hi) = (0.0, 4.0 * c.length() * radii.max_element());
    for _ in 0..300 {
        let mid = 0.5 * (lo + hi);
        if (foot(mid) / radii).length_squared() > 1.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (c - foot(0.5 * (lo + hi))).length()
}

/// Oracle: where the unimodal `f` is least on `[0, 1]`, by golden-section search.
fn golden_minimum(f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..200 {
        let (m1, m2) = (lo + (hi - lo) * 0.381966, hi - (hi - lo) * 0.381966);
        if f(m1) < f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    0.5 * (lo + hi)
}

#[test]
fn f32_capsule_grazing_a_flat_ellipsoid_rim_gets_the_depth_and_normal() {
    use gjk::{contact, Capsule, Ellipsoid};
    use glam::{DVec3, Vec3};
    let radii = v32([3.604284160019233e-8, 1.425961926315722e-7, 1.8699223858220648e-7]);
    let ellipsoid = Ellipsoid::new(radii).unwrap();
    let pose_e = pose32(
        [0.49708084039675515, 0.7526710149659801, 0.3700070438308705, -0.22246745572347734],
        [-5.137545485922601e-6, 3.7303907447494566e-6, -5.509656148205977e-6],
    );
    let (s0, s1) = (
        v32([1.181393486149318e-6, 1.4809235153734335e-6, -1.5816810901014833e-6]),
        v32([-1.2760289109792211e-6, 8.601708145761222e-7, -1.410932441103796e-6]),
    );
    let radius = 5.519969477063569e-7f64 as f32;
    let capsule = Capsule::new(s0, s1, radius).unwrap();
    let pose_c = pose32(
        [0.18528629542354166, -0.04658405780610668, -0.6802056918760628, 0.7076857572580812],
        [-6.960902737773722e-6, 3.788702088058926e-6, -4.541325324680656e-6],
    );
    // The oracle, in f64.
    let rotation = |p: &Pose<Vec3>| p.rotation().as_dquat().normalize();
    let world = |p: &Pose<Vec3>, x: DVec3| rotation(p) * x + p.translation().as_dvec3();
    let (radii, r) = (radii.as_dvec3(), f64::from(radius));
    let (e0, e1) = (world(&pose_c, s0.as_dvec3()), world(&pose_c, s1.as_dvec3()));
    let centre = pose_e.translation().as_dvec3();
    let to_e = |x: DVec3| rotation(&pose_e).inverse() * (x - centre);
    let to_ellipsoid = |t: f64| gap_to_ellipsoid(radii, to_e(e0 + (e1 - e0) * t));
    let distance = to_ellipsoid(golden_minimum(to_ellipsoid));
    assert!((distance - 1.853e-10).abs() < 1e-13, "the cores are {distance:e} apart");
    let depth = r - distance;
    // Overlap of the shapes along `n` (from the ellipsoid toward the capsule):
    // h_E(n) + h_C(−n).
    let overlap = |n: DVec3| {
        let h_e = (radii * (rotation(&pose_e).inverse() * n)).length() + n.dot(centre);
        h_e - n.dot(e0).min(n.dot(e1)) + r
    };
    // The property suite's tolerance for this scene.
    let tau = 9.822092180516306e-11;
    for (name, c, sign) in [
        ("ellipsoid first", contact(&ellipsoid, &pose_e, &capsule, &pose_c, f32::INFINITY), 1.0),
        ("capsule first", contact(&capsule, &pose_c, &ellipsoid, &pose_e, f32::INFINITY), -1.0),
    ] {
        let c = c.unwrap();
        let n = c.normal.as_dvec3().normalize() * sign;
        let excess = overlap(n) - f64::from(c.depth);
        assert!(
            (f64::from(c.depth) - depth).abs() <= tau,
            "{name}: depth against {depth:e}: {c:?}"
        );
        assert!(excess <= tau, "{name}: pushed by the depth, {excess:e} still overlapping: {c:?}");
    }
}

/// A capsule against an ellipsoid whose core it misses, f32 (the long run's
/// `contact_push_separates` and `contact_points_on_planes`, `capsule | ellipsoid`, Deep): the
/// depth is the capsule's radius minus the cores' distance, the normal the direction between
/// the segment and the ellipsoid there. An ellipsoid with radii 9.6e-4, 7.9e-4, 5.2e-4 (first)
/// and a segment 5.8e-2 long, radius 3.6e-3, the cores 7.749e-4 apart (size 3.5e-2, τ
/// 1.05e-6). `A − B` is the ellipsoid swept along the segment, a ruled patch. GJK's triangle
/// had two vertices 1.2e-5 apart at one end of the segment and the third at the other end; it
/// stalled (`NoProgress`) at
/// `|v|` 7.7498e-4 with the normal 1.5e-3 rad off along the segment, where the support value
/// grows by the segment's length per radian: pushed by the depth, the shapes still overlapped
/// by 6.5e-5 (62 τ), though the depth itself was right to 0.03 τ. The stall's recovery
/// (`stall_escape`, the ruled patch's Newton step) found the answer's point of `D`, `|w|`
/// 7.74945e-4, closer to the origin than `v` by 3.4e-8, but `Run::recover` took a recovered
/// point only where it opened the duality gap along `−v`, and its gap (3.6e-8 |v|) was under
/// the loop's rounding floor (8 ε |v| size): the recovery was refused and the tilted `v` was
/// the answer. A recovered point closer to the origin than `v` is a better answer even inside
/// the gap's floor (a point of `D`, so its length is a distance bound, and its direction the
/// recovery's normal, across the ruling): the loop now restarts from it alone, and the next
/// support point closes the gap (`Converged`, the normal 2.3e-4 rad off). Only a recovered
/// point whose witnesses were found on the shapes (support points, or points of a ruling
/// between two, not moved across the normal to hand out a remainder) restarts the loop: a
/// moved one put a cylinder's witness 6.5 τ off the cylinder (`closest_points_on_shapes`, a
/// hull against a cylinder, apart by 1.8e-3).
///
/// The second scene (the long run's `contact_push_separates`, an ellipsoid with radii 1.44,
/// 0.020, 0.037 beside a capsule 23 long, radius 2.17, cores 0.445 apart; size 24, τ 4.7e-4)
/// stalled the same way with the ellipsoid first (`NoProgress`, pushed by the depth still
/// overlapping by 6.4 τ), but its recovered point's witnesses had been moved by `distribute`
/// to hand out the remainder across the ruling, so `Polished::found` refused it. The recovery
/// now checks each moved point against its shape's support points (`polish::kept_on_shapes`:
/// within rounding of a triangle of the shape's points, seen along the normal), or else gives
/// the whole remainder to one shape where that check passes: the point restarts the loop
/// (`Converged`, 0.001 τ).
///
/// Oracle, in f64 from the f32 shapes and poses, as in the test above: the cores' distance is
/// the minimum over the segment's parameter (golden section) of the point's distance to the
/// ellipsoid (the foot `xᵢ = aᵢ² cᵢ / (aᵢ² + t)`, `t` by bisection); the overlap along a normal
/// from the closed-form supports.
#[test]
fn f32_capsule_beside_an_ellipsoid_takes_the_stall_recovery_inside_the_gap_floor() {
    use gjk::{contact, Capsule, Ellipsoid};
    use glam::{DVec3, Vec3};
    struct Scene {
        radii: [f64; 3],
        pose_e: ([f64; 4], [f64; 3]),
        segment: [[f64; 3]; 2],
        radius: f64,
        pose_c: ([f64; 4], [f64; 3]),
        distance: f64,
        tau: f64,
    }
    let scenes = [
        Scene {
            radii: [0.0009582224884070456, 0.0007856698939576745, 0.0005188838695175946],
            pose_e: (
                [-0.08143802715365439, 0.7715662701841991, 0.2632520491393949, -0.5733687269735538],
                [-0.040882501751184464, 0.05798168480396271, 0.03964972868561745],
            ),
            segment: [
                [0.023710355162620544, 0.021668437868356705, 0.005780711770057678],
                [-0.024394549429416656, -0.009197795763611794, -0.005853531416505575],
            ],
            radius: 0.003610470099374652,
            pose_c: (
                [
                    0.014580916619988655,
                    -0.2455399923775279,
                    -0.6367591811726068,
                    -0.7307771576932027,
                ],
                [-0.04031752794981003, 0.07136303186416626, 0.03957371413707733],
            ),
            distance: 7.749e-4,
            tau: 1.0478753465234557e-6,
        },
        Scene {
            radii: [1.4392683506011963, 0.019747527316212654, 0.03685740381479263],
            pose_e: (
                [-0.17754037379647797, -0.2950566361394661, 0.08803474755046611, 0.934703632370173],
                [-24.28496742248535, -0.3612481355667114, 17.512605667114258],
            ),
            segment: [
                [11.268712043762207, -18.184932708740234, 9.387354850769043],
                [-11.465900421142578, -18.75536346435547, -3.4049153327941895],
            ],
            radius: 2.173070192337036,
            pose_c: (
                [
                    -0.031044394845143496,
                    0.6411763861420527,
                    -0.008351444984097336,
                    -0.7667198580767252,
                ],
                [-18.933502197265625, 19.258073806762695, 11.470561027526855],
            ),
            distance: 0.4446981,
            tau: 4.7329275424132624e-4,
        },
    ];
    for (k, scene) in scenes.iter().enumerate() {
        let radii = v32(scene.radii);
        let ellipsoid = Ellipsoid::new(radii).unwrap();
        let pose_e = pose32(scene.pose_e.0, scene.pose_e.1);
        let (s0, s1) = (v32(scene.segment[0]), v32(scene.segment[1]));
        let radius = scene.radius as f32;
        let capsule = Capsule::new(s0, s1, radius).unwrap();
        let pose_c = pose32(scene.pose_c.0, scene.pose_c.1);
        // The oracle, in f64.
        let rotation = |p: &Pose<Vec3>| p.rotation().as_dquat().normalize();
        let world = |p: &Pose<Vec3>, x: DVec3| rotation(p) * x + p.translation().as_dvec3();
        let (radii, r) = (radii.as_dvec3(), f64::from(radius));
        let (e0, e1) = (world(&pose_c, s0.as_dvec3()), world(&pose_c, s1.as_dvec3()));
        let centre = pose_e.translation().as_dvec3();
        let to_ellipsoid = |t: f64| {
            let c = rotation(&pose_e).inverse() * (e0 + (e1 - e0) * t - centre);
            assert!((c / radii).length() > 1.0, "scene {k}: the segment enters the ellipsoid");
            gap_to_ellipsoid(radii, c)
        };
        let distance = to_ellipsoid(golden_minimum(to_ellipsoid));
        assert!(
            (distance - scene.distance).abs() < 1e-4 * scene.distance,
            "scene {k}: the cores are {distance:e} apart"
        );
        let depth = r - distance;
        // Overlap of the shapes along `n` (from the ellipsoid toward the capsule):
        // h_E(n) + h_C(−n).
        let overlap = |n: DVec3| {
            let h_e = (radii * (rotation(&pose_e).inverse() * n)).length() + n.dot(centre);
            h_e - n.dot(e0).min(n.dot(e1)) + r
        };
        let tau = scene.tau;
        for (name, c, sign) in [
            (
                "ellipsoid first",
                contact(&ellipsoid, &pose_e, &capsule, &pose_c, f32::INFINITY),
                1.0,
            ),
            ("capsule first", contact(&capsule, &pose_c, &ellipsoid, &pose_e, f32::INFINITY), -1.0),
        ] {
            let c = c.unwrap();
            let n = c.normal.as_dvec3().normalize() * sign;
            let excess = overlap(n) - f64::from(c.depth);
            assert!(
                (f64::from(c.depth) - depth).abs() <= tau,
                "scene {k}, {name}: depth against {depth:e}: {c:?}"
            );
            assert!(
                excess <= tau,
                "scene {k}, {name}: pushed by the depth, {excess:e} still overlapping: {c:?}"
            );
        }
    }
}

/// A box's corner just inside a wide cone's base, at its rim (f64, the long run's
/// `contact_points_on_shapes`, case 34212, size 2.9e5: the box's point 4.8e-2 off the box, 1.69
/// τ, `Epa(Degenerate)`). GJK hands EPA a sliver: support points along the rim's tangent, a
/// short arc of a circle of radius 1.6e5, whose facets in the base's plane have normals
/// tilted by their corners' rounding over the arc's sagitta (5e-8 rad). The base's far rim,
/// 3e5 away in the same plane, saw one such facet by 1.1e-2 and missed its neighbour by
/// 6e-3, so the fan facet on their edge pointed back over the neighbour with the origin
/// outside it: the polytope lost the origin, the expansion wandered behind it and stopped on
/// a repeated vertex with the best upper bound it had met, a normal 90° off whose support
/// points lie 1.9 apart across it, which no witness pair on the shapes can meet. A polytope
/// that held the origin and grows cannot lose it, so an expansion that ends `Degenerate` now
/// runs again from its starting simplex with a careful horizon walk, which also counts as seen
/// a facet whose fan facet would leave the origin outside: the rerun converges on the base in
/// 7 more iterations and reports `Epa(Converged)` (its bounds met). Oracle (closed form, in the cone's frame): the corner is A's
/// highest point along the cone's axis, so pushing B by its height `c_y + h` above the base
/// plane along the axis separates the shapes, and the corner lies deeper than that from the
/// cone's side, so no shorter push does: the depth is that height and the normal the axis.
#[test]
fn box_corner_at_a_cone_base_rim_has_the_base_depth_and_witnesses_on_the_shapes() {
    use gjk::{contact, Cone, Cuboid};
    use glam::{DQuat, DVec3};
    let pose = |t: [f64; 3], q: [f64; 4]| {
        Pose::new(DQuat::from_xyzw(q[0], q[1], q[2], q[3]), DVec3::from(t)).unwrap()
    };
    let half = DVec3::new(42905.47786099098, 4353.9958163201545, 30036.240922613124);
    let a = Cuboid::new(half).unwrap();
    let pose_a = pose(
        [166727.9054364512, 247509.31153498578, -443940.1556346869],
        [0.516856475481988, -0.7156792637834605, -0.34896845311423574, 0.3144576185652983],
    );
    let (h, r) = (175203.67725599444, 157414.17408838766);
    let b = Cone::new(h, r).unwrap();
    let pose_b = pose(
        [295689.3872846301, -509.7693591690622, -379434.63967780577],
        [-0.759193531061756, -0.46144665189208567, 0.2562282823990692, -0.3808401727107975],
    );
    let in_b = |p: DVec3| pose_b.inverse_transform_point(p);
    // The box's corners in the cone's frame: the highest along the axis is the contact.
    let corners = (0..8).map(|i| {
        let s = DVec3::new([1.0, -1.0][i & 1], [1.0, -1.0][(i >> 1) & 1], [1.0, -1.0][i >> 2]);
        in_b(pose_a.transform_point(half * s))
    });
    let c = corners.max_by(|p, q| p.y.total_cmp(&q.y)).unwrap();
    let height = c.y + h;
    // The side's distance: the meridian half plane's line from the rim (r, −h) to the apex.
    let radial = c.x.hypot(c.z);
    let side = DVec3::new(2.0 * h, r, 0.0).normalize();
    let to_side = side.dot(DVec3::new(r - radial, c.y + h, 0.0));
    assert!(height > 0.0 && radial < r && to_side > height, "{height:e} {radial} {to_side:e}");
    let axis = pose_b.transform_vector(DVec3::Y);
    let size = 2.9e5;
    // The depth to rounding; the witnesses to the library's touching distance (1e-10 of the
    // size, 2.9e-5: the swapped query's cone point is 2.7e-7 off, the bug's box point 4.8e-2).
    let tolerance = 64.0 * f64::EPSILON * size;
    let on_shape = 1e-10 * size;
    let outside_box = |p: DVec3| (pose_a.inverse_transform_point(p).abs() - half).max_element();
    let outside_cone = |p: DVec3| {
        let q = in_b(p);
        let rim = r * (h - q.y) / (2.0 * h);
        (-h - q.y).max(q.x.hypot(q.z) - rim).max(q.y - h)
    };
    for prediction in [0.0, f64::INFINITY] {
        for swapped in [false, true] {
            let c = if swapped {
                contact(&b, &pose_b, &a, &pose_a, prediction).map(|c| (c, -1.0))
            } else {
                contact(&a, &pose_a, &b, &pose_b, prediction).map(|c| (c, 1.0))
            };
            let (c, sign) = c.expect("the shapes overlap");
            let (on_a, on_b) =
                if swapped { (c.point_b, c.point_a) } else { (c.point_a, c.point_b) };
            let what = format!("swapped {swapped}, prediction {prediction}: {c:?}");
            assert!(c.status.is_accurate(), "{what}");
            assert!((c.depth - height).abs() <= tolerance, "depth, not {height:e}: {what}");
            assert!((c.normal * sign - axis).length() <= 1e-12, "normal, not {axis:?}: {what}");
            assert!(outside_box(on_a) <= on_shape, "{:e} off the box: {what}", outside_box(on_a));
            assert!(
                outside_cone(on_b) <= on_shape,
                "{:e} off the cone: {what}",
                outside_cone(on_b)
            );
            let remainder = (c.point_a - c.point_b - c.normal * c.depth).length();
            assert!(remainder <= tolerance, "a − b − depth n = {remainder:e}: {what}");
        }
    }
}

/// A ball (or a rounded point) whose centre lies a few 1e-9 from a collinear hull in f32 (the
/// long run's `contact_push_separates` and `contact_points_on_planes`, families
/// `hull-collinear | rounded(point)`, `hull-collinear | rounded(ball)`, `ball |
/// hull-collinear`: up to 7 τ, status `Exact`). Rounded to f32 the hull's points make a
/// sliver polygon (7e-13 wide, 3e-5 long), and the ball's centre projects onto one of its
/// long edges: the point-against-core projection answers. Its normal was the direction of
/// `p − q`, with `q` the centre's foot on the edge; `q` carries rounding of the coordinates'
/// size along the edge (1e-12), which tilts a 5e-9 offset by 2e-4 rad, and pushing by the
/// (right) depth along that tilted normal left 3e-9 of overlap over the edge's half length.
/// A segment core had the fix already (the offset's part along the axis removed); a polygon
/// edge now takes the same path. Oracle (f64, closed form): the distance from the centre to
/// the hull is the least over the segments between two of its points (in 2D the nearest
/// point of the hull to an outside point lies on an edge, a segment between two input
/// points), the depth the radius minus it, the normal the direction from the centre to that
/// nearest point; the overlap left along the answered normal is `h_A(n) + h_B(−n)` minus the
/// depth, with the hull's support the largest of its points.
#[test]
fn f32_ball_grazing_a_collinear_hull_gets_the_edge_normal() {
    use gjk::{contact, Point, Rounded};
    use glam::{DVec2, Vec2};
    let v = |[x, y]: [f64; 2]| DVec2::new(x, y).as_vec2();
    // (hull points, hull pose, ball centre (its shape's frame), radius, ball pose, τ)
    type Scene = (Vec<[f64; 2]>, (f64, [f64; 2]), [f64; 2], f64, (f64, [f64; 2]), f64);
    let scenes: [Scene; 2] = [
        (
            vec![
                [3.269015905971173e-6, -3.1829322324483655e-6],
                [-1.1441818060120568e-5, 6.207946171343792e-6],
                [5.98973031173955e-7, -1.478470949223265e-6],
                [1.3213708371040411e-5, -9.53127437242074e-6],
                [4.213780357531505e-6, -3.7860363590880297e-6],
                [-1.1956648449995555e-5, 6.536595265060896e-6],
                [1.6614093567568489e-7, -1.2021661177641363e-6],
            ],
            (2.5049731694946233, [-2.531567406549584e-5, 2.313509139639791e-5]),
            [4.0939352174973465e-7, 4.639178996512783e-8],
            1.8753677295535454e-6,
            (0.5912865463718521, [-2.5224127966794185e-5, 2.440583375573624e-5]),
            4.307054689636855e-10,
        ),
        (
            vec![
                [0.0001524833933217451, 2.792668055917602e-5],
                [-0.0002479047398082912, -0.00010527617996558547],
                [9.688125282991678e-5, 9.428718840354122e-6],
                [-0.00028520278283394873, -0.0001176846562884748],
                [-0.00024380280228797346, -0.00010391153045929968],
                [-0.000102453057479579, -5.6886685342760757e-5],
            ],
            (1.3306581987909814, [0.00016577747010160238, -0.0001278613053727895]),
            [0.0, 0.0],
            9.486920134804677e-6 + 1.9250079276389442e-5,
            (1.396618241378907, [0.00019353354582563043, -0.0002017286024056375]),
            5.439184088567485e-9,
        ),
    ];
    for (i, (points, (angle_h, t_h), centre, radius, (angle_b, t_b), tau)) in
        scenes.into_iter().enumerate()
    {
        let points: Vec<Vec2> = points.into_iter().map(v).collect();
        let hull = Polytope::new(points.clone()).unwrap();
        let ball = Rounded::new(Point::new(v(centre)).unwrap(), radius as f32).unwrap();
        let pose_h = Pose::from_angle_translation(angle_h as f32, v(t_h)).unwrap();
        let pose_b = Pose::from_angle_translation(angle_b as f32, v(t_b)).unwrap();
        // The oracle, in f64, on the f32 inputs.
        let c = world_f64(&pose_b, v(centre));
        let corners: Vec<DVec2> = points.iter().map(|&p| world_f64(&pose_h, p)).collect();
        let mut nearest = (f64::INFINITY, c);
        for &s in &corners {
            for &e in &corners {
                let t = if s == e {
                    0.0
                } else {
                    ((c - s).dot(e - s) / (e - s).length_squared()).clamp(0.0, 1.0)
                };
                let q = s + (e - s) * t;
                if (c - q).length() < nearest.0 {
                    nearest = ((c - q).length(), q);
                }
            }
        }
        let (gap, foot) = nearest;
        assert!(gap > 1e-9 && gap < 1e-7, "scene {i} changed: the centre is {gap:e} off the hull");
        let r = f64::from(radius as f32);
        let depth = r - gap;
        // From the ball toward the hull.
        let toward_hull = (foot - c) / gap;
        let overlap = |n: DVec2| {
            let h_hull = corners.iter().map(|q| q.dot(-n)).fold(f64::NEG_INFINITY, f64::max);
            c.dot(n) + r + h_hull
        };
        for (order, answer, sign) in [
            ("ball first", contact(&ball, &pose_b, &hull, &pose_h, f32::INFINITY), 1.0),
            ("hull first", contact(&hull, &pose_h, &ball, &pose_b, f32::INFINITY), -1.0),
        ] {
            let answer = answer.unwrap();
            let n = answer.normal.as_dvec2().normalize() * sign;
            let d = f64::from(answer.depth);
            assert!(
                (d - depth).abs() <= tau,
                "scene {i}, {order}: depth against {depth:e}: {answer:?}"
            );
            let excess = overlap(n) - d;
            assert!(
                excess <= tau,
                "scene {i}, {order}: pushed by the depth, {excess:e} still overlapping: {answer:?}"
            );
            let angle = n.angle_to(toward_hull).abs();
            assert!(angle <= 1e-5, "scene {i}, {order}: normal {angle:e} rad off: {answer:?}");
        }
    }
}

/// The four verdicts on touching of one pair: `intersects`, `contact(0)` is some,
/// `distance == 0`, `closest_points` says intersecting.
fn touching_verdicts<V, A, B>(pair: &Pair<'_, V, A, B>) -> [bool; 4]
where
    V: gjk::Vector,
    A: gjk::Support<V> + ?Sized,
    B: gjk::Support<V> + ?Sized,
{
    use gjk::{Proximity, Real};
    [
        pair.intersects(),
        pair.contact(V::Real::ZERO).is_some(),
        pair.distance() == V::Real::ZERO,
        matches!(pair.closest_points(), Proximity::Intersecting),
    ]
}

/// The gap of scene `case` in touching distances, from a uniform draw `x`: within 10 % of
/// the touching distance (four scenes in five: where rounding decides, and the verdicts must
/// agree), or 0.3 or 1.7 of it (where they must also say what the gap says: the `f32`
/// placement rounds the gap by up to about a tenth of the touching distance).
fn sweep(case: usize, x: f64) -> f64 {
    if case % 5 != 0 {
        0.9 + 0.2 * x
    } else if x < 0.5 {
        0.3
    } else {
        1.7
    }
}

/// A unit vector and a rotation from a SplitMix64 stream (deterministic scenes).
struct Draws(u64);

impl Draws {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn direction(&mut self) -> glam::DVec3 {
        loop {
            let v = glam::DVec3::new(self.unit(), self.unit(), self.unit()) * 2.0 - 1.0;
            if v.length_squared() > 0.01 && v.length_squared() <= 1.0 {
                return v.normalize();
            }
        }
    }

    /// A rotation, rounded to `f32` and back (the one an `f32` pose holds, up to its own
    /// normalisation).
    fn rotation(&mut self) -> glam::DQuat {
        let q = glam::DQuat::from_axis_angle(self.direction(), self.unit() * 7.0);
        q.as_quat().normalize().as_dquat()
    }
}

/// Scenes whose distance is `g` by construction, for the sweeps across the touching distance
/// below: B's face (its local `+x` face, turned by `qb`) faces A's support point `on_a` along
/// `u = −qb x̂` from `g` away, its centre `lateral` (within the face) to the side. Both shapes
/// then have supporting planes `g` apart along `u` whose points of contact lie across from each
/// other: the distance is `g`.
fn box_centre_facing(
    on_a: glam::DVec3,
    qb: glam::DQuat,
    half: glam::DVec3,
    g: f64,
    lateral: [f64; 2],
) -> glam::DVec3 {
    let u = -(qb * glam::DVec3::X);
    let side = qb * glam::DVec3::new(0.0, lateral[0] * half.y, lateral[1] * half.z);
    on_a + u * (g + half.x) + side
}

/// f32 point cores projected onto a shape at the edge of the touching distance (the long
/// run's `intersects_consistent`: 13 of its 15 f32 scenes, a ball against a point, a box, a
/// round polygon, a rounded ball or box, subnormal balls and capsules). `distance`,
/// `intersects` and `contact` measured the gap where the projection is exact (the point in
/// B's frame; a segment in the box's frame) and judged its length; `closest_points` judged
/// the length of the same gap rotated into A's frame, which the rotation rounds: a ball
/// 3.37e-7 from a point, with a touching distance about that size, read as touching in three
/// queries and apart in the fourth. The projection now carries the gap where it measured it,
/// and every query judges that one number. Oracle: the distance `g` by construction (closed
/// forms, f64: a point `r + g` from the ball's centre; a box face `g` beyond the ball's or the
/// capsule's support point, [`box_centre_facing`]); the sweep ([`sweep`]) puts `g` within
/// 10 % of the touching distance, where the verdicts may go either way but must agree, or
/// 0.3 and 1.7 of it, where they must say what `g` says.
#[test]
fn f32_projected_cores_give_one_verdict_at_the_touching_distance() {
    use gjk::{Ball, Capsule, Cuboid, GjkOptions, Point};
    use glam::{DVec3, Vec3};
    let mut draw = Draws(0x20a);
    let tolerance = GjkOptions::<f32>::default().tolerance;
    let pose = |q: glam::DQuat, t: DVec3| Pose::new(q.as_quat(), t.as_vec3()).unwrap();
    let mut wrong = Vec::new();
    let mut count = [0usize; 3];
    for case in 0..9000 {
        let scale = 10f64.powf(draw.unit() * 8.0 - 4.0);
        let (qa, qb) = (draw.rotation(), draw.rotation());
        let ta = (DVec3::new(draw.unit(), draw.unit(), draw.unit()) - 0.5) * 4.0 * scale;
        let r = f64::from(((0.2 + draw.unit()) * scale) as f32);
        let half = DVec3::new(0.3 + draw.unit(), 0.3 + draw.unit(), 0.3 + draw.unit()) * scale;
        let half = half.as_vec3().as_dvec3();
        let local = (DVec3::new(draw.unit(), draw.unit(), draw.unit()) - 0.5) * scale;
        let local = local.as_vec3().as_dvec3();
        let lateral = [draw.unit() * 1.6 - 0.8, draw.unit() * 1.6 - 0.8];
        let (k, kind) = (sweep(case, draw.unit()), case % 3);
        let pose_a = pose(qa, ta);
        let ta = pose_a.translation().as_dvec3();
        let ball = Ball::new(r as f32).unwrap();
        let segment = (qa * DVec3::X * scale).as_vec3();
        let capsule = Capsule::new(Vec3::ZERO, segment, r as f32).unwrap();
        let (point, cuboid) =
            (Point::new(local.as_vec3()).unwrap(), Cuboid::new(half.as_vec3()).unwrap());
        // B's pose for a gap `g`, and the pair's touching distance (from the scene at `g = 0`).
        let place = |g: f64| -> Pose<Vec3> {
            let u = -(qb * DVec3::X);
            match kind {
                0 => pose(qb, ta + u * (r + g) - qb * local),
                // The capsule's segment runs from A's origin along `segment`; its end's ball
                // reaches `r` beyond the end along `u` when `u` leans away from the segment.
                1 => pose(qb, box_centre_facing(ta + u * r, qb, half, g, lateral)),
                _ => {
                    let world = pose_a.rotation().as_dquat() * segment.as_dvec3();
                    let end = if world.dot(u) > 0.0 { world } else { DVec3::ZERO };
                    pose(qb, box_centre_facing(ta + end + u * r, qb, half, g, lateral))
                }
            }
        };
        let judge = |pose_b: Pose<Vec3>| -> (f32, [bool; 4]) {
            match kind {
                0 => {
                    let pair = Pair::new(&ball, pose_a, &point, pose_b);
                    (pair.tolerance(tolerance).distance(), touching_verdicts(&pair))
                }
                1 => {
                    let pair = Pair::new(&ball, pose_a, &cuboid, pose_b);
                    (pair.tolerance(tolerance).distance(), touching_verdicts(&pair))
                }
                _ => {
                    let pair = Pair::new(&capsule, pose_a, &cuboid, pose_b);
                    (pair.tolerance(tolerance).distance(), touching_verdicts(&pair))
                }
            }
        };
        let touch = f64::from(judge(place(0.0)).0);
        let g = k * touch;
        let (_, votes) = judge(place(g));
        count[kind] += 1;
        let agree = votes.iter().all(|&v| v == votes[0]);
        // `g` is the plane gap along `u`, a lower bound of the distance: beyond the touching
        // distance the pair is apart; below it, touching where `g` is the distance (a point
        // `r + g` from the ball's centre, a box face across from the ball's support point).
        let apart = g > 1.5 * touch;
        let touching = g < 0.5 * touch && kind < 2;
        if !agree || (apart && votes[0]) || (touching && !votes[0]) {
            wrong.push(format!("case {case} kind {kind}: g/touch {k}, verdicts {votes:?}"));
        }
    }
    assert!(wrong.is_empty(), "{} of {count:?}:\n{}", wrong.len(), wrong.join("\n"));
}

/// An f32 posed cylinder against a box (GJK on a general core) apart by about the touching
/// distance (the long run's `intersects_consistent`, `cuboid | posed(cylinder)`): the
/// intersection run stopped at a separating axis, its lower bound `v·w / |v|` of the distance
/// (2.022e-7) just beyond the touching distance (2.008e-7), while the distance run converged
/// to `|v|` = 1.995e-7, within it (the true gap 2.013e-7): `intersects` and `contact(0)` said
/// apart, `distance` and `closest_points` touching. Each number was within rounding of the
/// truth, on either side of it. A lower bound now proves the shapes apart only beyond twice
/// the touching distance (`tolerance::apart_bound`, the rule MPR had): nearer, the run goes on
/// to the distance run's verdict. Oracle: the distance `g` by construction (the cylinder's
/// support point along `u`, closed form in f64, facing a box face `g` away,
/// [`box_centre_facing`]); `g` as in the sweep above ([`sweep`]).
#[test]
fn f32_lower_bound_and_measured_distance_give_one_verdict() {
    use gjk::{Cuboid, Cylinder, GjkOptions, Posed};
    use glam::{DVec3, Vec3};
    let mut draw = Draws(0x20a2);
    let tolerance = GjkOptions::<f32>::default().tolerance;
    let pose = |q: glam::DQuat, t: DVec3| Pose::new(q.as_quat(), t.as_vec3()).unwrap();
    let mut wrong = Vec::new();
    let cases = 6000;
    for case in 0..cases {
        let scale = 10f64.powf(draw.unit() * 6.0 - 3.0);
        let (qa, qp, qb) = (draw.rotation(), draw.rotation(), draw.rotation());
        let ta = (DVec3::new(draw.unit(), draw.unit(), draw.unit()) - 0.5) * 4.0 * scale;
        let (hh, radius) =
            (((0.2 + draw.unit()) * scale) as f32, ((0.2 + draw.unit()) * scale) as f32);
        let half = DVec3::new(0.3 + draw.unit(), 0.3 + draw.unit(), 0.05 + draw.unit()) * scale;
        let half = half.as_vec3().as_dvec3();
        let lateral = [draw.unit() * 1.6 - 0.8, draw.unit() * 1.6 - 0.8];
        let k = sweep(case, draw.unit());
        let inner = pose(qp, DVec3::ZERO);
        let a = Posed::new(Cylinder::<Vec3>::new(hh, radius).unwrap(), inner);
        let pose_a = pose(qa, ta);
        let b = Cuboid::new(half.as_vec3()).unwrap();
        // A's support point along u, f64, from the rotations the poses hold.
        let turn =
            pose_a.rotation().as_dquat().normalize() * inner.rotation().as_dquat().normalize();
        let u = -(qb * DVec3::X);
        let d = turn.conjugate() * u;
        let rim = DVec3::new(d.x, 0.0, d.z).normalize() * f64::from(radius);
        let local = DVec3::new(rim.x, f64::from(hh).copysign(d.y), rim.z);
        let on_a = pose_a.translation().as_dvec3() + turn * local;
        let place = |g: f64| pose(qb, box_centre_facing(on_a, qb, half, g, lateral));
        let touch =
            f64::from(Pair::new(&a, pose_a, &b, place(0.0)).tolerance(tolerance).distance());
        let g = k * touch;
        let pair = Pair::new(&a, pose_a, &b, place(g));
        let votes = touching_verdicts(&pair);
        let agree = votes.iter().all(|&v| v == votes[0]);
        // `g`, the plane gap along `u`, bounds the distance from below: beyond the touching
        // distance the pair is apart.
        if !agree || (g > 1.5 * touch && votes[0]) {
            wrong.push(format!("case {case}: g/touch {k}, verdicts {votes:?}"));
        }
    }
    assert!(wrong.is_empty(), "{} of {cases}:\n{}", wrong.len(), wrong.join("\n"));
}

/// A capsule's segment beside a cone's side, and a rounded posed capsule beside a cylinder's
/// side, f32 (the long run's `contact_push_separates` and `contact_points_on_planes`,
/// `capsule | cone` Shallow and `cylinder | rounded(posed(capsule))` Deep, both
/// `Gjk(NoProgress)`): the cores are apart, so the depth is the margins minus the cores'
/// distance and the normal the direction between the segment and the side. `A − B` there is
/// the side swept along the segment, a ruled patch. GJK stalled with the normal off along the
/// side's generator (the capsule beside the cone: 2.6e-2 rad from the direction the f64 run
/// finds, segment 7.4e4 long, cores 226 apart, size 1.3e5, τ 3.16), and the stall's recovery
/// (`polish::ruled`, Newton's method about the generator) gave up: it measured the curvature
/// across the generator at the support point's end of it, the cone's apex, where there is
/// none (212: the cores' distance and a rounding of the apex's motion, against about 38 400
/// at the foot, the generator's point along the normal). The step, some 180 times too long, left
/// the side's normals, the next curvature came out negative, and the answer kept the stalled
/// normal: pushed by the depth, the shapes still overlapped by 5.0 τ (the cylinder: 4.0 τ). On
/// a developable patch the curvature varies linearly along the ruling, so the recovery now
/// measures it at the foot first (`polish::foot_curvature`: both ends' motions interpolated,
/// as the polish of a stopped expansion already did) and at the end where that finds no
/// point; GJK then converges.
///
/// Oracle, in f64 from the f32 shapes and poses: the cores' distance is the minimum over the
/// segment's parameter (golden section) of the point's distance to the solid of revolution,
/// which is the distance in the point's meridian half-plane to the solid's half section (a
/// triangle for the cone, a rectangle for the cylinder, by its edges); the overlap along a
/// normal from the closed-form supports. Shapes built as the property test builds them
/// (behind `Box<dyn Support>`).
#[test]
fn f32_segment_beside_a_cone_or_cylinder_side_takes_the_curvature_at_the_foot() {
    use gjk::{contact, Capsule, Cone, Cylinder, Posed, Rounded, Support};
    use glam::{DVec2, DVec3, Vec3};
    struct Scene {
        segment: [[f64; 3]; 2],
        radius: f64,
        // A `Posed` around the capsule (rotation, translation) and a margin around that.
        inner: Option<([f64; 4], [f64; 3], f64)>,
        pose_c: ([f64; 4], [f64; 3]),
        cone: bool,
        half_height: f64,
        revolved_radius: f64,
        pose_r: ([f64; 4], [f64; 3]),
        tau: f64,
    }
    let scenes = [
        Scene {
            segment: [
                [7605.36376953125, -33885.359375, -1143.13330078125],
                [-31780.625, -27975.533203125, 59440.73828125],
            ],
            radius: 4083.623046875,
            inner: None,
            pose_c: (
                [0.456175714737927, 0.20737572014636876, 0.5700544715011531, 0.6511043906307633],
                [69275.7734375, -78323.7890625, 61328.89453125],
            ),
            cone: true,
            half_height: 56227.0859375,
            revolved_radius: 37406.6796875,
            pose_r: (
                [
                    0.016019057085013406,
                    -0.4396589289295165,
                    -0.880371131510725,
                    0.17717247761766844,
                ],
                [136565.390625, -186488.40625, 80457.1171875],
            ),
            tau: 3.155428263503765,
        },
        Scene {
            segment: [
                [-15052.94140625, -860.818115234375, -3615.2470703125],
                [9741.587890625, 4045.275634765625, 13883.67578125],
            ],
            radius: 3077.9755859375,
            inner: Some((
                [-0.1616999961841042, 0.8291871587983153, -0.5190225268783953, 0.1300668424726443],
                [-6371.1865234375, -6371.56103515625, 1797.6417236328125],
                3834.82080078125,
            )),
            pose_c: (
                [
                    -0.9123386603499168,
                    -0.17610627147990857,
                    0.23364740258794825,
                    0.2864151553955713,
                ],
                [-40181.8203125, -43703.44140625, -29168.220703125],
            ),
            cone: false,
            half_height: 4145.2666015625,
            revolved_radius: 4414.70166015625,
            pose_r: (
                [-0.0683838277993701, -0.8773841857121222, 0.2436193972606944, -0.4076398312678956],
                [-33544.34375, -36228.296875, -30422.666015625],
            ),
            tau: 8.051583682963894e-1,
        },
    ];
    let rotation = |p: &Pose<Vec3>| p.rotation().as_dquat().normalize();
    let world = |p: &Pose<Vec3>, x: DVec3| rotation(p) * x + p.translation().as_dvec3();
    for (k, scene) in scenes.iter().enumerate() {
        let (s0, s1) = (v32(scene.segment[0]), v32(scene.segment[1]));
        let capsule = Capsule::new(s0, s1, scene.radius as f32).unwrap();
        let pose_c = pose32(scene.pose_c.0, scene.pose_c.1);
        let (hh, rr) = (scene.half_height as f32, scene.revolved_radius as f32);
        let revolved: Box<dyn Support<Vec3>> = if scene.cone {
            Box::new(Cone::<Vec3>::new(hh, rr).unwrap())
        } else {
            Box::new(Cylinder::<Vec3>::new(hh, rr).unwrap())
        };
        let pose_r = pose32(scene.pose_r.0, scene.pose_r.1);
        // The segment in the world and the margins around it, in f64.
        let (mut e0, mut e1) = (s0.as_dvec3(), s1.as_dvec3());
        let mut margins = f64::from(scene.radius as f32);
        let shape: Box<dyn Support<Vec3>> = match scene.inner {
            None => Box::new(capsule),
            Some((q, t, m)) => {
                let inner = pose32(q, t);
                (e0, e1) = (world(&inner, e0), world(&inner, e1));
                margins += f64::from(m as f32);
                let posed: Box<dyn Support<Vec3>> = Box::new(Posed::new(capsule, inner));
                Box::new(Rounded::new(posed, m as f32).unwrap())
            }
        };
        let (e0, e1) = (world(&pose_c, e0), world(&pose_c, e1));
        let (hh, rr) = (f64::from(hh), f64::from(rr));
        let local = |x: DVec3| rotation(&pose_r).inverse() * (x - pose_r.translation().as_dvec3());
        // The point's distance to the solid: in its meridian half-plane (ρ ≥ 0, y), to the
        // half section's edges.
        let to_segment = |p: DVec2, a: DVec2, b: DVec2| {
            let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            (p - a - (b - a) * t).length()
        };
        let to_solid = |x: DVec3| {
            let l = local(x);
            let p = DVec2::new(l.x.hypot(l.z), l.y);
            if scene.cone {
                let inside = p.y >= -hh && p.x * 2.0 * hh <= rr * (hh - p.y);
                assert!(!inside, "scene {k}: the segment enters the cone");
                let (apex, rim, base) =
                    (DVec2::new(0.0, hh), DVec2::new(rr, -hh), DVec2::new(0.0, -hh));
                to_segment(p, apex, rim).min(to_segment(p, base, rim))
            } else {
                let out = DVec2::new((p.x - rr).max(0.0), (p.y.abs() - hh).max(0.0));
                assert!(out != DVec2::ZERO, "scene {k}: the segment enters the cylinder");
                out.length()
            }
        };
        let along = |t: f64| to_solid(e0 + (e1 - e0) * t);
        let distance = along(golden_minimum(along));
        let depth = margins - distance;
        // Overlap of the shapes along `n` (from the capsule toward the solid):
        // h_C(n) + h_R(−n), the solid's support in its own frame.
        let overlap = |n: DVec3| {
            let m = rotation(&pose_r).inverse() * -n;
            let radial = rr * m.x.hypot(m.z);
            let h_r = if scene.cone {
                (hh * m.y).max(radial - hh * m.y)
            } else {
                hh * m.y.abs() + radial
            };
            n.dot(e0).max(n.dot(e1)) + margins + h_r - n.dot(pose_r.translation().as_dvec3())
        };
        for (name, c, sign) in [
            ("capsule first", contact(&*shape, &pose_c, &*revolved, &pose_r, f32::INFINITY), 1.0),
            ("solid first", contact(&*revolved, &pose_r, &*shape, &pose_c, f32::INFINITY), -1.0),
        ] {
            let c = c.unwrap();
            let n = c.normal.as_dvec3().normalize() * sign;
            let excess = overlap(n) - f64::from(c.depth);
            assert!(
                (f64::from(c.depth) - depth).abs() <= scene.tau,
                "scene {k}, {name}: depth against {depth:e}: {c:?}"
            );
            assert!(
                excess <= scene.tau,
                "scene {k}, {name}: pushed by the depth, {:.2} τ still overlapping: {c:?}",
                excess / scene.tau
            );
        }
    }
}
