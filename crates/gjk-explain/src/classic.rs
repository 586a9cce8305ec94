//! The classic GJK as the tutorials teach it — a **teaching implementation, not for production**.
//!
//! This is the boolean GJK found in the well-known tutorials (Casey Muratori's video lecture
//! "Implementing GJK", 2006; William Bittle's dyn4j article "GJK", 2010, and the many write-ups
//! that follow them): it grows a simplex toward the origin and decides, with edge perpendiculars
//! built from triple products and plane normals built from cross products, which *region* of the
//! simplex the origin lies in. It answers only "do the shapes intersect?". It is here so that
//! learners can reproduce the tutorials' worked examples number for number and compare them with
//! the robust solver of [`gjk::gjk`]: use [`Pair::gjk`] for real work.
//!
//! The steps, with `s(d) = s_A(d) − s_B(−d)` the support of `A − B` and `A` always the newest
//! simplex point (`B`, `C`, `D` the older ones, newest first):
//! 1. `w = s(d₀)` for the first direction `d₀`; the simplex is `[w]`; the next direction is `−d₀`
//!    (dyn4j's choice: look the other way).
//! 2. Repeat: `w = s(d)`. If `w·d ≤ 0`, the support point did not get past the origin, so the
//!    origin is outside `A − B`: **no intersection**. Otherwise add `w` and test the regions:
//!    * *segment* `AB`: if `AB·AO > 0` keep the segment and search along the triple product
//!      `(AB × AO) × AB = AO(AB·AB) − AB(AB·AO)`, the perpendicular of `AB` toward the origin; else
//!      keep `A` and search along `AO`. When the origin is on the line through `AB` the triple
//!      product is zero and we search along a perpendicular of `AB` instead (in 2D the
//!      counter-clockwise one, `(−AB.y, AB.x)`).
//!    * *triangle*, 2D (dyn4j): with `AB⊥ = (AC × AB) × AB` and `AC⊥ = (AB × AC) × AC`, the origin
//!      is beyond edge `AB` if `AB⊥·AO > 0` (keep `AB`, search `AB⊥`), else beyond `AC` if
//!      `AC⊥·AO > 0` (keep `AC`, search `AC⊥`), else **inside: the shapes intersect**.
//!    * *triangle*, 3D: with the normal `ABC = AB × AC`, the edge regions of `AC` and `AB` are
//!      tested with `(ABC × AC)·AO` and `(AB × ABC)·AO`; otherwise the origin is above
//!      (`ABC·AO > 0`, search `ABC`) or below (search `−ABC`, with the triangle re-wound).
//!    * *tetrahedron*: if the origin is beyond face `ABC`, `ACD` or `ADB` (outward normals), go on
//!      with that triangle; else **inside**.
//!
//! What it gets wrong, and why the library does not use it: every decision is a strict sign
//! test on a product of differences, so touching shapes (`w·d = 0`) are reported apart, flat or
//! collinear simplices give zero normals, and then zero search directions, and nothing bounds
//! the loop. This version *is* bounded: it stops at an iteration cap, when a search direction
//! vanishes, or when its state (simplex and direction) repeats — a tutorial loop would then spin
//! forever — and it says which in [`ClassicEnd`].
//!
//! The farthest point of a point set along `d` is the **first** point with the largest dot
//! product, as in the tutorials' loops ([`gjk::Polytope`] and [`gjk::Triangle`] do this);
//! ties decide which vertex is taken, so this matters for reproducing their numbers.
//!
//! ```
//! use gjk_explain::classic::{classic_gjk, ClassicEnd, ClassicOptions};
//! use gjk::{Pair, Polytope, Pose};
//! use glam::DVec2;
//!
//! // The dyn4j article's shapes and first direction.
//! let a = Polytope::new(vec![DVec2::new(4.0, 11.0), DVec2::new(4.0, 5.0), DVec2::new(9.0, 9.0)])?;
//! let b = Polytope::new(vec![
//!     DVec2::new(5.0, 7.0), DVec2::new(12.0, 7.0), DVec2::new(10.0, 2.0), DVec2::new(7.0, 3.0),
//! ])?;
//! let pair = Pair::new(&a, Pose::IDENTITY, &b, Pose::IDENTITY);
//! let options = ClassicOptions { first_direction: Some(DVec2::new(1.0, -1.0)), ..Default::default() };
//! let run = classic_gjk(&pair, &options);
//! let ws: Vec<DVec2> = run.steps.iter().map(|s| s.support.w).collect();
//! assert_eq!(ws, [DVec2::new(4.0, 2.0), DVec2::new(-6.0, 9.0), DVec2::new(-8.0, -2.0), DVec2::new(-1.0, -2.0)]);
//! assert_eq!(run.end, ClassicEnd::Enclosed);
//! # Ok::<(), gjk::ShapeError>(())
//! ```

use gjk::geometry::cross;
use gjk::{full_support, Pair, Real, Support, SupportPoint, Vector};

/// Settings of a classic run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassicOptions<V> {
    /// The first search direction, in A's frame. `None`: from A's centre toward B's centre,
    /// where the robust solver starts too (`d = c_B − c_A`).
    pub first_direction: Option<V>,
    /// The most support calls before the run gives up with [`ClassicEnd::IterationCap`].
    pub max_iterations: u32,
}

impl<V> Default for ClassicOptions<V> {
    fn default() -> Self {
        Self { first_direction: None, max_iterations: 64 }
    }
}

/// A region test's verdict: where the origin was found relative to the simplex.
///
/// Names use the tutorials' letters: `A` is the newest point, then `B`, `C`, `D`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// Only one point so far: nothing to test; search the opposite way.
    FirstPoint,
    /// Segment: the origin is behind `A` (`AB·AO ≤ 0`): keep `A`, search along `AO`.
    VertexA,
    /// Segment: the origin is beside `AB`: keep the segment, search along its perpendicular.
    EdgeAB,
    /// Segment: the origin is on the line through `AB`: the triple product vanished, so the
    /// search goes along a perpendicular of `AB` chosen by convention.
    OnLineAB,
    /// Triangle: the origin is beyond edge `AC`: keep `AC`.
    EdgeAC,
    /// 2D triangle or tetrahedron: the origin is inside (or on the boundary).
    Inside,
    /// 3D triangle: the origin is on the side the normal `AB × AC` points to.
    AboveTriangle,
    /// 3D triangle: the origin is on the other side (or in the plane): search along `−(AB × AC)`.
    BelowTriangle,
    /// 3D triangle: the origin is in the region of edge `AB`; the segment test decides next.
    TowardEdgeAB,
    /// Tetrahedron: the origin is beyond face `ABC`; the triangle test decides next.
    BeyondFaceABC,
    /// Tetrahedron: beyond face `ACD`.
    BeyondFaceACD,
    /// Tetrahedron: beyond face `ADB`.
    BeyondFaceADB,
}

/// How a classic run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassicEnd {
    /// The simplex enclosed the origin: the tutorial answers "they intersect".
    Enclosed,
    /// A support point did not pass the origin (`w·d ≤ 0`): the tutorial answers "apart".
    Separated,
    /// The next search direction came out zero (a flat or collinear simplex): a tutorial loop
    /// would now search along the zero vector. This run gives up instead.
    ZeroDirection,
    /// The simplex and search direction repeated the state after iteration `first_seen`: a
    /// tutorial loop would go round forever. This run gives up instead.
    Cycle {
        /// The iteration whose state came back.
        first_seen: u32,
    },
    /// The iteration cap was reached without a verdict.
    IterationCap,
}

impl ClassicEnd {
    /// The tutorial's verdict: `Some(true)` intersecting, `Some(false)` apart, `None` when it
    /// gave up.
    pub fn says_intersecting(&self) -> Option<bool> {
        match self {
            ClassicEnd::Enclosed => Some(true),
            ClassicEnd::Separated => Some(false),
            _ => None,
        }
    }
}

/// One iteration of the classic loop. Coordinates are in A's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassicStep<V> {
    /// 1 for the first support call.
    pub iteration: u32,
    /// The search direction `d`.
    pub direction: V,
    /// The support points: `a = s_A(d)`, `b = s_B(−d)` and `w = a − b` (of the whole shapes,
    /// margins included).
    pub support: SupportPoint<V>,
    /// `w·d`: how far past the origin the support point got along `d` (times `|d|`).
    pub progress: f64,
    /// The simplex the regions were tested on: the new point first, then the kept older points
    /// (empty when the run stopped at `w·d ≤ 0` before adding it).
    pub tested: Vec<SupportPoint<V>>,
    /// The region decisions, outermost first (a tetrahedron's face, then that triangle's region,
    /// then perhaps a segment's).
    pub regions: Vec<Region>,
    /// The simplex kept for the next iteration, newest first.
    pub kept: Vec<SupportPoint<V>>,
    /// The next search direction (`None` when the run ended here).
    pub next_direction: Option<V>,
}

/// A whole classic run: its steps and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassicRun<V> {
    /// Every iteration, in order.
    pub steps: Vec<ClassicStep<V>>,
    /// How it ended.
    pub end: ClassicEnd,
}

impl<V> ClassicRun<V> {
    /// The tutorial's verdict (see [`ClassicEnd::says_intersecting`]).
    pub fn says_intersecting(&self) -> Option<bool> {
        self.end.says_intersecting()
    }
}

/// Runs the tutorials' boolean GJK on a pair (a teaching tool, see the [module docs](self)).
///
/// Works in A's frame like the rest of the library, on the whole shapes (margins included).
/// Bounded by `options.max_iterations`; never panics.
pub fn classic_gjk<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    options: &ClassicOptions<V>,
) -> ClassicRun<V> {
    let mut direction = first_direction(pair, options);
    let mut simplex: Vec<SupportPoint<V>> = Vec::new();
    let mut steps: Vec<ClassicStep<V>> = Vec::new();
    for iteration in 1..=options.max_iterations {
        let support = full_pair_support(pair, direction);
        let progress = support.w.dot(direction).to_f64();
        let mut step = ClassicStep {
            iteration,
            direction,
            support,
            progress,
            tested: Vec::new(),
            regions: Vec::new(),
            kept: simplex.clone(),
            next_direction: None,
        };
        // `!(progress > 0)` also stops on NaN.
        if progress.partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater) {
            steps.push(step);
            return ClassicRun { steps, end: ClassicEnd::Separated };
        }
        step.tested.push(support);
        step.tested.extend_from_slice(&simplex);
        let decision = if simplex.is_empty() {
            Decision::go(&step.tested, -direction, Region::FirstPoint)
        } else {
            decide(&step.tested)
        };
        step.regions = decision.regions;
        step.kept.clone_from(&decision.kept);
        if decision.enclosed {
            steps.push(step);
            return ClassicRun { steps, end: ClassicEnd::Enclosed };
        }
        let next = decision.direction;
        if next.direction().is_none() {
            steps.push(step);
            return ClassicRun { steps, end: ClassicEnd::ZeroDirection };
        }
        step.next_direction = Some(next);
        let repeated = steps.iter().find(|s| s.next_direction == Some(next) && s.kept == step.kept);
        if let Some(earlier) = repeated {
            let first_seen = earlier.iteration;
            steps.push(step);
            return ClassicRun { steps, end: ClassicEnd::Cycle { first_seen } };
        }
        simplex = decision.kept;
        direction = next;
        steps.push(step);
    }
    ClassicRun { steps, end: ClassicEnd::IterationCap }
}

/// The first direction: the option, or from A's centre toward B's (the robust solver's start);
/// the first axis when that is zero or not finite.
fn first_direction<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    options: &ClassicOptions<V>,
) -> V {
    let guess = options.first_direction.unwrap_or_else(|| {
        pair.relative_pose().transform_point(pair.b().center()) - pair.a().center()
    });
    if guess.direction().is_some() {
        guess
    } else {
        V::axis(0)
    }
}

/// The support point of the whole shapes' difference: `s_A(d) − s_B(−d)`, margins included.
fn full_pair_support<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    d: V,
) -> SupportPoint<V> {
    let a = full_support(pair.a(), d);
    let relative = pair.relative_pose();
    let b_local = full_support(pair.b(), relative.inverse_transform_vector(-d));
    SupportPoint::new(a, relative.transform_point(b_local), b_local)
}

/// What a region test decided.
struct Decision<V> {
    kept: Vec<SupportPoint<V>>,
    direction: V,
    regions: Vec<Region>,
    enclosed: bool,
}

impl<V: Vector> Decision<V> {
    fn go(kept: &[SupportPoint<V>], direction: V, region: Region) -> Self {
        Self { kept: kept.to_vec(), direction, regions: vec![region], enclosed: false }
    }

    fn inside(kept: &[SupportPoint<V>]) -> Self {
        Self {
            kept: kept.to_vec(),
            direction: V::ZERO,
            regions: vec![Region::Inside],
            enclosed: true,
        }
    }

    /// This decision, reached after the outer region test `region`.
    fn after(mut self, region: Region) -> Self {
        self.regions.insert(0, region);
        self
    }
}

/// The region test for a simplex of 2 to 4 points, newest first.
fn decide<V: Vector>(s: &[SupportPoint<V>]) -> Decision<V> {
    match s.len() {
        2 => segment(s[0], s[1]),
        3 => triangle(s[0], s[1], s[2]),
        _ => tetrahedron(s[0], s[1], s[2], s[3]),
    }
}

/// `(x × y) × z = y (x·z) − x (y·z)`: valid in any dimension, which is why the 2D tutorials
/// can use it without a cross product.
fn triple<V: Vector>(x: V, y: V, z: V) -> V {
    y * x.dot(z) - x * y.dot(z)
}

fn positive<R: Real>(x: R) -> bool {
    x > R::ZERO
}

/// The perpendicular of edge `e` toward the origin `ao`: the triple product `(e × ao) × e`,
/// or, when the origin is on the edge's line and that vanishes, a perpendicular of `e` by
/// convention (2D: counter-clockwise `(−e.y, e.x)`; 3D: any).
fn toward_origin_from_edge<V: Vector>(e: V, ao: V) -> (V, Region) {
    let d = triple(e, ao, e);
    if d.direction().is_some() {
        return (d, Region::EdgeAB);
    }
    let perpendicular = if V::DIM == 2 {
        V::from_components([-e.component(1), e.component(0), V::Real::ZERO])
    } else {
        e.any_orthogonal() * e.length()
    };
    (perpendicular, Region::OnLineAB)
}

/// Segment `AB` (A newest).
fn segment<V: Vector>(a: SupportPoint<V>, b: SupportPoint<V>) -> Decision<V> {
    let ab = b.w - a.w;
    let ao = -a.w;
    if positive(ab.dot(ao)) {
        let (d, region) = toward_origin_from_edge(ab, ao);
        Decision::go(&[a, b], d, region)
    } else {
        Decision::go(&[a], ao, Region::VertexA)
    }
}

/// Triangle `ABC` (A newest): 2D is the dyn4j region test, 3D the above/below test.
fn triangle<V: Vector>(a: SupportPoint<V>, b: SupportPoint<V>, c: SupportPoint<V>) -> Decision<V> {
    if V::DIM == 2 {
        triangle_2d(a, b, c)
    } else {
        triangle_3d(a, b, c)
    }
}

fn triangle_2d<V: Vector>(
    a: SupportPoint<V>,
    b: SupportPoint<V>,
    c: SupportPoint<V>,
) -> Decision<V> {
    let (ab, ac, ao) = (b.w - a.w, c.w - a.w, -a.w);
    let ab_perp = triple(ac, ab, ab);
    let ac_perp = triple(ab, ac, ac);
    if positive(ab_perp.dot(ao)) {
        Decision::go(&[a, b], ab_perp, Region::EdgeAB)
    } else if positive(ac_perp.dot(ao)) {
        Decision::go(&[a, c], ac_perp, Region::EdgeAC)
    } else {
        Decision::inside(&[a, b, c])
    }
}

fn triangle_3d<V: Vector>(
    a: SupportPoint<V>,
    b: SupportPoint<V>,
    c: SupportPoint<V>,
) -> Decision<V> {
    let (ab, ac, ao) = (b.w - a.w, c.w - a.w, -a.w);
    let abc = cross(ab, ac);
    if positive(cross(abc, ac).dot(ao)) {
        if positive(ac.dot(ao)) {
            let (d, _) = toward_origin_from_edge(ac, ao);
            return Decision::go(&[a, c], d, Region::EdgeAC);
        }
        return segment(a, b).after(Region::TowardEdgeAB);
    }
    if positive(cross(ab, abc).dot(ao)) {
        return segment(a, b).after(Region::TowardEdgeAB);
    }
    if positive(abc.dot(ao)) {
        Decision::go(&[a, b, c], abc, Region::AboveTriangle)
    } else {
        Decision::go(&[a, c, b], -abc, Region::BelowTriangle)
    }
}

/// Tetrahedron `ABCD` (A newest; the triangle test wound `BCD` so that `A` is above it).
fn tetrahedron<V: Vector>(
    a: SupportPoint<V>,
    b: SupportPoint<V>,
    c: SupportPoint<V>,
    d: SupportPoint<V>,
) -> Decision<V> {
    let (ab, ac, ad, ao) = (b.w - a.w, c.w - a.w, d.w - a.w, -a.w);
    if positive(cross(ab, ac).dot(ao)) {
        return triangle(a, b, c).after(Region::BeyondFaceABC);
    }
    if positive(cross(ac, ad).dot(ao)) {
        return triangle(a, c, d).after(Region::BeyondFaceACD);
    }
    if positive(cross(ad, ab).dot(ao)) {
        return triangle(a, d, b).after(Region::BeyondFaceADB);
    }
    Decision::inside(&[a, b, c, d])
}

#[cfg(test)]
mod tests {
    use super::*;
    use gjk::{Cuboid, Polytope, Pose};
    use glam::{DVec2, DVec3};

    fn polygon(points: &[(f64, f64)]) -> Polytope<DVec2> {
        Polytope::new(points.iter().map(|&(x, y)| DVec2::new(x, y)).collect()).unwrap()
    }

    fn run_2d(a: &Polytope<DVec2>, b: &Polytope<DVec2>, d: DVec2) -> ClassicRun<DVec2> {
        let pair = Pair::new(a, Pose::IDENTITY, b, Pose::IDENTITY);
        classic_gjk(&pair, &ClassicOptions { first_direction: Some(d), max_iterations: 64 })
    }

    #[test]
    fn tutorial_triangles_reproduce_the_worked_example() {
        let a = polygon(&[(0.0, 1.0), (1.0, -1.0), (-1.0, -1.0)]);
        let b = polygon(&[(0.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]);
        let run = run_2d(&a, &b, DVec2::new(0.0, 1.0));
        let ws: Vec<DVec2> = run.steps.iter().map(|s| s.support.w).collect();
        // Worked by hand: s_A(0,1) − s_B(0,−1) = (0,1) − (0,−1); s_A(0,−1) − s_B(0,1) =
        // (1,−1) − (1,1) (first maximal vertices); s_A(−1,0) − s_B(1,0) = (−1,−1) − (1,1).
        assert_eq!(ws, [DVec2::new(0.0, 2.0), DVec2::new(0.0, -2.0), DVec2::new(-2.0, -2.0)]);
        assert_eq!(run.steps[1].regions, [Region::OnLineAB]);
        assert_eq!(run.steps[1].next_direction, Some(DVec2::new(-4.0, 0.0)));
        assert_eq!(run.steps[2].regions, [Region::Inside]);
        assert_eq!(run.end, ClassicEnd::Enclosed);
    }

    #[test]
    fn dyn4j_example_reproduces_the_article() {
        let a = polygon(&[(4.0, 11.0), (4.0, 5.0), (9.0, 9.0)]);
        let b = polygon(&[(5.0, 7.0), (12.0, 7.0), (10.0, 2.0), (7.0, 3.0)]);
        let run = run_2d(&a, &b, DVec2::new(1.0, -1.0));
        let pts: Vec<(DVec2, DVec2, DVec2)> =
            run.steps.iter().map(|s| (s.support.a, s.support.b, s.support.w)).collect();
        let v = DVec2::new;
        assert_eq!(
            pts,
            [
                (v(9.0, 9.0), v(5.0, 7.0), v(4.0, 2.0)),
                (v(4.0, 11.0), v(10.0, 2.0), v(-6.0, 9.0)),
                (v(4.0, 5.0), v(12.0, 7.0), v(-8.0, -2.0)),
                (v(4.0, 5.0), v(5.0, 7.0), v(-1.0, -2.0)),
            ]
        );
        // Hand-computed triple products: (AB × AO) × AB = (−336, −480) = 48 (−7, −10), and the
        // triangle's AC perpendicular (496, −1488) = 496 (1, −3).
        assert_eq!(run.steps[2].direction, v(-336.0, -480.0));
        assert_eq!(run.steps[2].regions, [Region::EdgeAC]);
        assert_eq!(run.steps[3].direction, v(496.0, -1488.0));
        assert_eq!(run.end, ClassicEnd::Enclosed);
    }

    #[test]
    fn separated_pair_stops_at_the_first_failed_support() {
        let a = polygon(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]);
        let b = polygon(&[(3.0, 0.0), (4.0, 0.0), (3.0, 1.0)]);
        let run = run_2d(&a, &b, DVec2::new(1.0, 0.0));
        assert_eq!(run.end, ClassicEnd::Separated);
        assert_eq!(run.says_intersecting(), Some(false));
    }

    #[test]
    fn tetrahedron_in_box_is_enclosed() {
        let a = Polytope::new(vec![
            DVec3::new(-1.0, -1.0, -1.0),
            DVec3::new(2.0, -1.0, -1.0),
            DVec3::new(-1.0, 2.0, -1.0),
            DVec3::new(-1.0, -1.0, 2.0),
        ])
        .unwrap();
        let b = Cuboid::new(DVec3::new(0.5, 0.7, 0.3)).unwrap();
        let pose_b = Pose::from_translation(DVec3::new(0.4, 0.2, -0.1)).unwrap();
        let pair = Pair::new(&a, Pose::IDENTITY, &b, pose_b);
        let run = classic_gjk(&pair, &ClassicOptions::default());
        assert_eq!(run.end, ClassicEnd::Enclosed);
        let pose_b = Pose::from_translation(DVec3::new(3.0, 3.0, 3.0)).unwrap();
        let pair = Pair::new(&a, Pose::IDENTITY, &b, pose_b);
        assert_eq!(classic_gjk(&pair, &ClassicOptions::default()).end, ClassicEnd::Separated);
    }
}
