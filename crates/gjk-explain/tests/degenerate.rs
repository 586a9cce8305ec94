//! The classic (tutorial) GJK against the robust one on degenerate pairs, where the answer is
//! known analytically: touching, flat, collinear in 3D, the origin on an edge, tangent curves.
//!
//! The classic run is bounded (iteration cap, zero-direction and cycle detection), so every
//! case ends; the table it prints (`cargo test -p gjk-explain --test degenerate -- --nocapture`)
//! shows what it says and after how many support calls.

use gjk::{
    Ball, Cuboid, GjkOptions, GjkResult, Goal, Pair, Point, Polytope, Pose, Segment, Support,
    Triangle, Vector, WarmStart,
};
use gjk_explain::classic::{classic_gjk, ClassicEnd, ClassicOptions, ClassicRun};
use glam::{DVec2, DVec3};

struct Outcome<V: Vector> {
    classic: ClassicRun<V>,
    robust: GjkResult<V>,
}

fn compare<V: Vector<Real = f64>>(
    name: &str,
    a: &dyn Support<V>,
    pose_a: Pose<V>,
    b: &dyn Support<V>,
    pose_b: Pose<V>,
    first: V,
) -> Outcome<V> {
    let pair = Pair::new(a, pose_a, b, pose_b);
    let options = ClassicOptions { first_direction: Some(first), max_iterations: 64 };
    let classic = classic_gjk(&pair, &options);
    let robust = pair.gjk(Goal::Intersection, &GjkOptions::default(), &mut WarmStart::default());
    println!(
        "{name:<34} classic: {:<24} after {:>2} support calls | robust: intersecting={} ({:?}, {} calls)",
        format!("{:?}", classic.end),
        classic.steps.len(),
        robust.intersecting,
        robust.termination,
        robust.iterations
    );
    Outcome { classic, robust }
}

#[test]
fn touching_squares_the_classic_test_says_apart() {
    // Two unit squares sharing the edge x = 1: they touch (distance 0), which counts as
    // intersecting. The classic test's w·d ≤ 0 exit calls a zero-distance contact "apart".
    let square = Cuboid::new(DVec2::ONE).unwrap();
    let there = Pose::from_translation(DVec2::new(2.0, 0.5)).unwrap();
    let o = compare(
        "touching squares (2D)",
        &square,
        Pose::IDENTITY,
        &square,
        there,
        DVec2::new(1.0, 0.0),
    );
    assert!(o.robust.intersecting);
    assert_eq!(o.classic.end, ClassicEnd::Separated);
}

#[test]
fn flat_overlapping_triangles_in_3d_the_classic_test_says_apart() {
    // Two triangles in the plane z = 0 that overlap around (0.5, 0.25, 0): the Minkowski
    // difference is flat, so the origin is in the plane of every triangle the classic test
    // builds; it searches along the normal, finds nothing beyond the plane (w·d = 0) and
    // answers "apart".
    let a =
        Triangle::new(DVec3::ZERO, DVec3::new(2.0, 0.0, 0.0), DVec3::new(0.0, 2.0, 0.0)).unwrap();
    let b = Triangle::new(
        DVec3::new(0.5, -0.5, 0.0),
        DVec3::new(1.5, 0.5, 0.0),
        DVec3::new(-0.5, 0.5, 0.0),
    )
    .unwrap();
    let o = compare(
        "flat triangles overlapping (3D)",
        &a,
        Pose::IDENTITY,
        &b,
        Pose::IDENTITY,
        DVec3::X,
    );
    assert!(o.robust.intersecting);
    assert_ne!(o.classic.says_intersecting(), Some(true));
}

#[test]
fn collinear_segments_in_3d_the_classic_test_says_apart() {
    // Segments [−1, 1] and [0.5, 2] on the x axis overlap on [0.5, 1]. The origin lies on the
    // line of every simplex segment; the classic test's perpendicular search finds no support
    // off the line.
    let a = Segment::new(DVec3::new(-1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0)).unwrap();
    let b = Segment::new(DVec3::new(0.5, 0.0, 0.0), DVec3::new(2.0, 0.0, 0.0)).unwrap();
    let o = compare(
        "collinear segments overlapping (3D)",
        &a,
        Pose::IDENTITY,
        &b,
        Pose::IDENTITY,
        DVec3::X,
    );
    assert!(o.robust.intersecting);
    assert_ne!(o.classic.says_intersecting(), Some(true));
}

#[test]
fn origin_on_an_edge() {
    // A point on the hypotenuse of a triangle: the origin of A − B lies on an edge of it.
    let a = Triangle::new(DVec2::ZERO, DVec2::new(2.0, 0.0), DVec2::new(0.0, 2.0)).unwrap();
    let b = Point::new(DVec2::ZERO).unwrap();
    let there = Pose::from_translation(DVec2::new(1.0, 1.0)).unwrap();
    let o = compare(
        "point on a triangle's edge (2D)",
        &a,
        Pose::IDENTITY,
        &b,
        there,
        DVec2::new(1.0, 1.0),
    );
    assert!(o.robust.intersecting);
    // The first support point along (1, 1) is exactly on the edge: w·d = 0 → "apart".
    assert_eq!(o.classic.end, ClassicEnd::Separated);
}

#[test]
fn tangent_discs_the_classic_test_says_apart() {
    // Two unit discs whose centres are 2 apart touch at one point: the origin is on the
    // boundary of A − B, which no simplex of support points can strictly enclose.
    let disc = Ball::<DVec2>::new(1.0).unwrap();
    let there = Pose::from_translation(DVec2::new(2.0, 0.0)).unwrap();
    let o =
        compare("tangent discs (2D)", &disc, Pose::IDENTITY, &disc, there, DVec2::new(0.0, 1.0));
    assert!(o.robust.intersecting);
    assert_ne!(o.classic.says_intersecting(), Some(true));
}

#[test]
fn every_classic_run_is_bounded() {
    // A sweep of near-degenerate placements: the classic run always ends within its cap.
    let square = Cuboid::new(DVec3::splat(0.5)).unwrap();
    for i in 0..200 {
        let t = i as f64 / 199.0;
        let offset = DVec3::new(1.0, t - 0.5, 0.5 * t);
        let pose = Pose::from_translation(offset).unwrap();
        let pair = Pair::new(&square, Pose::IDENTITY, &square, pose);
        let run = classic_gjk(
            &pair,
            &ClassicOptions { first_direction: Some(DVec3::Y), max_iterations: 32 },
        );
        assert!(run.steps.len() <= 32);
        assert!(matches!(
            run.end,
            ClassicEnd::Enclosed
                | ClassicEnd::Separated
                | ClassicEnd::ZeroDirection
                | ClassicEnd::Cycle { .. }
                | ClassicEnd::IterationCap
        ));
    }
}

#[test]
fn flat_pair_sharing_vertices_the_classic_test_gives_up_on_a_zero_direction() {
    // Two flat polygons in z = 0 that share the vertices (1, 0, 0) and (−0.5, −0.5, 0): they
    // intersect. The classic test's triangle is collinear, its normal zero, and so is the next
    // search direction.
    let v = |x, y| DVec3::new(x, y, 0.0);
    let a = Polytope::new(vec![v(1.0, 0.0), v(0.5, 0.5), v(-0.5, -0.5), v(-1.0, 0.0)]).unwrap();
    let b = Polytope::new(vec![v(1.0, 0.0), v(0.5, -1.0), v(-0.5, -0.5)]).unwrap();
    let o = compare(
        "flat pair sharing vertices (3D)",
        &a,
        Pose::IDENTITY,
        &b,
        Pose::IDENTITY,
        DVec3::new(0.5, 0.5, -0.5),
    );
    assert!(o.robust.intersecting);
    assert_eq!(o.classic.end, ClassicEnd::ZeroDirection);
}

/// A deterministic xorshift generator of coordinates on the half-integer grid in [−2, 2]
/// (which makes touching and flat contacts common).
struct Grid(u64);

impl Grid {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0).round() / 2.0
    }
}

#[test]
fn on_grid_pairs_the_classic_test_misses_contacts_but_never_invents_one() {
    // 4,000 pairs of 2–4 grid points each, half of them flat (z = 0), compared with the robust
    // test. Expected from the sign tests: "Enclosed" is always right (the origin is strictly
    // inside a simplex of points of A − B), but "Separated" is often wrong on contacts.
    let mut grid = Grid(12345);
    let (mut pairs, mut missed, mut invented, mut no_answer) = (0, 0, 0, 0);
    for _ in 0..4000 {
        let flat = grid.next() > 0.0;
        let points = |grid: &mut Grid| {
            let n = 2 + ((grid.next() + 2.0) as usize % 3);
            (0..n)
                .map(|_| DVec3::new(grid.next(), grid.next(), if flat { 0.0 } else { grid.next() }))
                .collect::<Vec<_>>()
        };
        let a = Polytope::new(points(&mut grid)).unwrap();
        let b = Polytope::new(points(&mut grid)).unwrap();
        let first = DVec3::new(grid.next(), grid.next(), grid.next());
        let pair = Pair::new(&a, Pose::IDENTITY, &b, Pose::IDENTITY);
        let run = classic_gjk(
            &pair,
            &ClassicOptions { first_direction: Some(first), max_iterations: 64 },
        );
        let robust = pair.intersects();
        pairs += 1;
        match run.says_intersecting() {
            Some(true) if !robust => invented += 1,
            Some(false) if robust => missed += 1,
            None => no_answer += 1,
            _ => {}
        }
    }
    println!("grid pairs: {pairs}, classic missed {missed} contacts, invented {invented}, gave up {no_answer}");
    assert_eq!(invented, 0);
    assert!(missed > pairs / 10, "the classic test should miss many degenerate contacts: {missed}");
}
