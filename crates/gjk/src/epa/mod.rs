//! Penetration depth: the Expanding Polytope Algorithm (EPA).
//!
//! When the cores of two shapes overlap, the origin lies inside their Minkowski difference
//! `D = A − B`. The **penetration depth** is the distance from the origin to the boundary of
//! `D`, and the point `p` of `∂D` closest to the origin is the shortest translation that, applied
//! to B, brings the shapes into touching contact. Its direction `n = p / |p|` is the outward
//! normal of `D` there — pointing from A toward B.
//!
//! EPA (van den Bergen, "Proximity queries and penetration depth computation on 3D game
//! objects", GDC 2001) grows a polytope inside `D`, starting from GJK's final simplex:
//! 1. take the polytope's facet closest to the origin (normal `n`, plane distance `d`);
//! 2. ask `D` for its support point `w` along `n`. Then `d ≤ depth ≤ n·w`: the polytope lies
//!    inside `D` (lower bound) and `D` lies below the plane `n·x = n·w` (upper bound);
//! 3. stop when the gap `n·w − d` is within the relative tolerance; otherwise add `w` and
//!    replace every facet that `w` sees by a fan of new facets from `w` to the horizon.
//!
//! One generic driver (`expand`) runs the loop; the polytope is a polygon in 2D (module
//! `polygon`: insert `w` between the ends of the closest edge) and a triangulated polyhedron in
//! 3D (module `polyhedron`: horizon walk over the facets' adjacency), both behind the small
//! `Expansion` trait. GJK ends on a lower-dimensional simplex when the shapes touch or are flat;
//! module `start` completes it to a full simplex with support searches, or reports that `D`
//! itself is flat ([`EpaTermination::Flat`]).
//!
//! Storage: most expansions need a few dozen support points at most, so the polytope starts
//! small, in fixed-capacity arrays on the stack (cheap to set up, no allocation), and moves into
//! a larger fixed one when it fills up. Big hulls need more: deep in two hulls of hundreds of
//! vertices, the closest face of `D` is one of thousands of small ones, and the expansion must
//! refine the polytope down to that face before the bounds meet. In 3D the expansion then moves
//! on to a polyhedron on the heap that doubles its room whenever it fills up, so that only the
//! iteration cap ([`EpaOptions::max_iterations`]) ends it; the 2D polygon keeps its fixed room
//! (61 support points), which ends the expansion like the cap.
//!
//! # Watching the expansion
//! [`penetration_observed`] reports every iteration to an [`EpaObserver`] — the polytope's
//! faces, the closest one, the support point found along its normal, the lower and upper
//! bounds of the depth and what the iteration decided — and then the answer. The plain
//! [`penetration`] passes `()`, whose methods are empty and inlined, so the loop pays nothing
//! for the hook; [`crate::Trace`] records the steps (explanations, pictures).
//!
//! # Witness points
//! Every answer satisfies `point_a − point_b = depth × normal` up to rounding, with both points
//! on the supporting planes of the normal (`settle` has the construction). A converged answer
//! takes them from the closest facet: the origin's projection `depth × normal` onto it, as the
//! same barycentric combination of the corners' points of A and of B. When that projection
//! falls outside the facet (rounding bends the long slivers that flat directions of `D` make,
//! as along a capsule's core), and when the expansion stopped short (the answer is then the
//! best upper bound `h_D(n)` along a direction `n`, whose support points of A and B may be any
//! points of faces across `n`, such as a cylinder's rim), they are chosen again on the faces of
//! A and B that support `n`.

mod polygon;
mod polyhedron;
mod start;

use crate::geometry::{cross, unit};
use crate::math::{Real, Vector};
use crate::pair::Pair;
use crate::shape::{closest_on_segments, Support};
use crate::simplex::{Simplex, SupportPoint};

use start::Start;

/// Tuning of the expansion: relative tolerance and iteration cap.
///
/// ```
/// use gjk::EpaOptions;
/// let quick = EpaOptions::<f32> { tolerance: 1e-3, ..Default::default() };
/// assert_eq!(quick.max_iterations, 1024);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaOptions<R> {
    /// Relative tolerance `ε`: the expansion stops when the upper and lower bounds of the depth
    /// agree within `ε × depth` (plus a few rounding units of the shapes' size). Polytopes
    /// converge exactly in a few iterations; curved shapes converge slowly, and a looser
    /// tolerance saves iterations there.
    pub tolerance: R,
    /// The most support points the expansion may add; it then reports
    /// [`EpaTermination::IterationCap`] with its best answer. The polygon's storage also caps
    /// it in 2D (61 support points beyond the starting triangle); in 3D the polyhedron grows on
    /// the heap past 68 (up to 32,764, beyond any sensible cap).
    ///
    /// The default, 1024, lets polytopes converge: each iteration adds a new vertex of `D`,
    /// and deep overlaps of hulls of 1,000–1,500 points need up to about 550 (the figures are in
    /// docs/benchmarks.md). Curved shapes converge in a few dozen unless the set of closest
    /// directions is a continuum (a ball centred in a cylinder): they then run to the cap, and
    /// since each iteration scans the polytope's facets, the cap also bounds that work (about
    /// the square of the cap in facet reads). Lower it to trade accuracy for time.
    pub max_iterations: u32,
}

impl<R: Real> Default for EpaOptions<R> {
    fn default() -> Self {
        Self { tolerance: R::DEFAULT_TOLERANCE, max_iterations: 1024 }
    }
}

/// How the expansion ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpaTermination {
    /// The bounds of the depth met within tolerance: the answer is accurate.
    Converged,
    /// The iteration cap (or the 2D polygon's capacity) was reached — curved shapes whose
    /// closest directions form a continuum, or a tight tolerance. The answer is the best upper
    /// bound found: the direction `n` of smallest support value `h_D(n)`, so that translating B
    /// by `depth × n` separates the shapes. The witness points lie on the supporting planes of
    /// A and B along `n`, `depth × n` apart, on the faces that support `n` where those allow
    /// it; otherwise (the exact answer's normal differs from `n`, and no pair of points of the
    /// shapes is exactly `depth × n` apart) the part of the remainder neither face has room
    /// for is split between them, each off its shape by half of it.
    IterationCap,
    /// Rounding broke the expansion (the new support point repeats a vertex, a new facet has no
    /// area, or the facets it sees do not form a simple horizon); the answer is the best upper
    /// bound, as for [`EpaTermination::IterationCap`]. In 3D such an end first runs the
    /// expansion once more from its start with a horizon walk that guards against folds (the
    /// polytope losing the origin), within the same iteration cap: a rerun whose bounds meet
    /// reports [`EpaTermination::Converged`], with the iterations of both runs.
    Degenerate,
    /// The cores' Minkowski difference is flat (a point, a segment or, in 3D, a planar set — for
    /// instance two crossing segments or two coplanar triangles): it has no interior, so the
    /// cores separate under any small translation across it. The depth of the cores is 0 and
    /// the normal is orthogonal to the flat set, oriented from A's centre toward B's.
    Flat,
}

/// The penetration of two shapes' cores as found by [`penetration`], in A's frame (the frame
/// [`Pair`] queries run in).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration<V: Vector> {
    /// The depth of the cores' overlap: the distance from the origin to the boundary of the
    /// Minkowski difference (close to 0, possibly slightly negative, when they only touch).
    pub depth: V::Real,
    /// The unit normal from A toward B: moving B by `depth × normal` makes the cores touch.
    pub normal: V,
    /// The deepest point of A's core inside B.
    pub point_a: V,
    /// The deepest point of B's core inside A: `point_a − point_b = depth × normal` (up to
    /// rounding).
    pub point_b: V,
    /// The number of support points the expansion added.
    pub iterations: u32,
    /// How the expansion ended.
    pub termination: EpaTermination,
}

/// The penetration of the cores of `pair`, expanded from the final simplex of a GJK query that
/// found them overlapping (`GjkResult::simplex`, in A's frame).
///
/// The simplex may have any size: touching shapes leave GJK on a point, a segment or a
/// triangle, and the expansion completes it with support searches first. Any other simplex of
/// the pair's Minkowski difference works too, but the answer is only meaningful when the origin
/// lies inside (or within tolerance of) that difference.
///
/// ```
/// use gjk::epa::{penetration, EpaTermination};
/// use gjk::{Cuboid, EpaOptions, GjkOptions, Goal, Pair, Pose, WarmStart};
/// use glam::DVec3;
/// let cube = Cuboid::new(DVec3::ONE).unwrap();
/// let pair = Pair::new(&cube, Pose::IDENTITY, &cube,
///     Pose::from_translation(DVec3::new(1.5, 0.2, 0.0)).unwrap());
/// let gjk = pair.gjk(Goal::Distance, &GjkOptions::default(), &mut WarmStart::default());
/// let p = penetration(&pair, &gjk.simplex, &EpaOptions::default());
/// assert_eq!(p.termination, EpaTermination::Converged);
/// assert!((p.depth - 0.5).abs() < 1e-12);
/// assert!((p.normal - DVec3::X).length() < 1e-12);
/// ```
pub fn penetration<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    simplex: &Simplex<V>,
    options: &EpaOptions<V::Real>,
) -> Penetration<V> {
    expand_from(pair, simplex.points(), || simplex.witnesses(), options, &mut (), None)
}

/// [`penetration`], with the answer's [`Cap`] when the expansion converged and `keep` asks
/// for it: the support points around the difference's face nearest the origin, which a warm
/// start can hand to the next query of a coherent pair.
pub(crate) fn penetration_facet<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    simplex: &Simplex<V>,
    options: &EpaOptions<V::Real>,
    keep: bool,
) -> (Penetration<V>, Option<Cap<V>>) {
    let mut cap = None;
    let wanted = if keep { Some(&mut cap) } else { None };
    let p = expand_from(pair, simplex.points(), || simplex.witnesses(), options, &mut (), wanted);
    (p, cap)
}

/// The most points a [`Cap`] holds: the face's three corners, the vertex farthest behind it
/// and the three across its edges (also the room of a warm start).
pub(crate) const CAP: usize = 7;

/// The support points (`w` and A's point, A's frame) around the face of a converged
/// expansion: the face's corners first (three in 3D, two in 2D: `face`), then in 3D the
/// polytope's vertex farthest behind the face and the vertices across the face's edges (the
/// far corners of its neighbouring facets), each once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cap<V> {
    pub(crate) points: [Vertex<V>; crate::epa::CAP],
    pub(crate) len: usize,
    pub(crate) face: usize,
}

impl<V: Vector> Cap<V> {
    /// The points, face first.
    pub(crate) fn points(&self) -> &[Vertex<V>] {
        &self.points[..self.len]
    }
}

/// The penetration of the cores of `pair` (3D) expanded from the polytope of `points`, the
/// [`Cap`] a converged expansion left last time, rebuilt from the same points of A and B at
/// the pair's new pose (A's frame): the first four a tetrahedron (the face and the vertex
/// behind it), the others added one by one where they lie outside it. `None` when that
/// polytope does not hold the origin clearly inside (the cores may be apart now, or the
/// contact moved to another face): the caller then starts from GJK.
///
/// The points are points of the cores' Minkowski difference, so their polytope lies inside
/// it; one holding the origin converges to the difference's face nearest the origin like
/// GJK's simplex does (within the tolerance), only in fewer steps: last frame's face and its
/// neighbours usually still bound the polytope there, and the first support point confirms
/// the face.
pub(crate) fn penetration_from_cap<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    points: &[Vertex<V>],
    options: &EpaOptions<V::Real>,
) -> Option<(Penetration<V>, Option<Cap<V>>)> {
    let mut hints = [0u32; 2];
    expanded_from_cap(points, options, &mut |dir| {
        Vertex::from(pair.support_hinted(dir, &mut hints))
    })
}

/// [`penetration_from_cap`] on the erased support function.
fn expanded_from_cap<V: Vector>(
    points: &[Vertex<V>],
    options: &EpaOptions<V::Real>,
    mut support: SupportFn<'_, V>,
) -> Option<(Penetration<V>, Option<Cap<V>>)> {
    if V::DIM != 3 || points.len() < 4 {
        return None;
    }
    let tolerance = tolerance_of(options);
    let mut size2 = V::Real::ZERO;
    for p in points {
        size2 = size2.max(p.w.length_squared());
    }
    let size = size2.sqrt();
    let relative = tolerance + V::Real::from_f64(64.0) * V::Real::EPSILON;
    let first = [points[0], points[1], points[2], points[3]];
    if !start::clearly_full_volume(first.map(|p| p.w), relative * size, size) {
        return None;
    }
    let mut small = polyhedron::Small::<V>::empty();
    small.start(&first, size);
    for &p in &points[4..] {
        small.insert(p).ok()?;
    }
    if !small.holds_origin() {
        return None;
    }
    let limits = Limits { tolerance, max_iterations: options.max_iterations, size };
    let mut cap = None;
    let p = expand_staged::<V, _, polyhedron::Large<V>, _, ()>(
        &mut small,
        &mut support,
        || Run::new(limits),
        &mut (),
        Some(&mut cap),
        on_the_heap,
    );
    Some((p, cap))
}

/// [`penetration`] from the points of any simplex of the cores' Minkowski difference that holds
/// the origin (GJK's final simplex, or the classic GJK's of a tutorial), reporting every
/// iteration and the answer to `observer`.
///
/// ```
/// use gjk::epa::{penetration_observed, EpaDecision};
/// use gjk::{Cuboid, EpaOptions, GjkOptions, Goal, Pair, Pose, Trace, WarmStart};
/// use glam::DVec2;
/// let square = Cuboid::new(DVec2::ONE).unwrap();
/// let pair = Pair::new(&square, Pose::IDENTITY, &square,
///     Pose::from_angle_translation(0.3, DVec2::new(1.5, 0.2)).unwrap());
/// let gjk = pair.gjk(Goal::Distance, &GjkOptions::default(), &mut WarmStart::default());
/// let mut trace = Trace::new();
/// let p = penetration_observed(&pair, gjk.simplex.points(), &EpaOptions::default(), &mut trace);
/// let steps: Vec<_> = trace.epa_iterations().collect();
/// // Every step brackets the depth; the last one's closest edge is the answer.
/// assert!(steps.iter().all(|s| s.lower <= p.depth && p.depth <= s.upper));
/// let last = steps.last().unwrap();
/// assert_eq!((last.decision, last.closest.normal), (EpaDecision::Converged, p.normal));
/// assert_eq!(trace.epa_end(), Some(&p));
/// ```
pub fn penetration_observed<
    V: Vector,
    A: Support<V> + ?Sized,
    B: Support<V> + ?Sized,
    O: EpaObserver<V> + ?Sized,
>(
    pair: &Pair<'_, V, A, B>,
    points: &[SupportPoint<V>],
    options: &EpaOptions<V::Real>,
    observer: &mut O,
) -> Penetration<V> {
    expand_from(pair, points, || witnesses(points), options, observer, None)
}

/// The expansion from `points`; `flat_witnesses` gives the contact points when the difference
/// turns out flat (GJK's own when it handed over its simplex).
#[inline]
fn expand_from<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized, O>(
    pair: &Pair<'_, V, A, B>,
    points: &[SupportPoint<V>],
    flat_witnesses: impl FnOnce() -> (V, V),
    options: &EpaOptions<V::Real>,
    observer: &mut O,
    corners: Option<&mut Option<Cap<V>>>,
) -> Penetration<V>
where
    O: EpaObserver<V> + ?Sized,
{
    // Two support functions: the careful rerun starts its hull searches afresh.
    let (mut hints, mut careful_hints) = ([0u32; 2], [0u32; 2]);
    let p = expand_erased(
        points,
        options,
        observer,
        corners,
        &mut |dir| Vertex::from(pair.support_hinted(dir, &mut hints)),
        &mut |dir| Vertex::from(pair.support_hinted(dir, &mut careful_hints)),
        towards_b(pair),
    )
    .unwrap_or_else(|normal| flat(flat_witnesses(), normal));
    observer.end(&p);
    p
}

/// [`expand_from`] on the erased support functions (`careful` for [`careful`]'s rerun): the
/// answer, or the normal of a flat difference.
fn expand_erased<V: Vector, O: EpaObserver<V> + ?Sized>(
    points: &[SupportPoint<V>],
    options: &EpaOptions<V::Real>,
    observer: &mut O,
    mut corners: Option<&mut Option<Cap<V>>>,
    mut support: SupportFn<'_, V>,
    careful_support: SupportFn<'_, V>,
    towards_b: V,
) -> Result<Penetration<V>, V> {
    let tolerance = tolerance_of(options);
    let p = match start::full_simplex(points, &mut support, tolerance, towards_b) {
        Start::Full { vertices, size } => {
            let limits = Limits { tolerance, max_iterations: options.max_iterations, size };
            if V::DIM == 2 {
                staged::<V, polygon::Small<V>, polygon::Large<V>, _, O>(
                    &vertices,
                    size,
                    &mut support,
                    || Run::new(limits),
                    observer,
                    corners.as_deref_mut(),
                    |run, large, _, support, _| {
                        run.finish(large, EpaTermination::IterationCap, support)
                    },
                )
            } else {
                staged::<V, polyhedron::Small<V>, polyhedron::Large<V>, _, O>(
                    &vertices,
                    size,
                    &mut support,
                    || Run::new(limits),
                    observer,
                    corners.as_deref_mut(),
                    on_the_heap,
                )
            }
        }
        Start::Flat { normal } => return Err(normal),
    };
    Ok(if V::DIM == 3 && p.termination == EpaTermination::Degenerate {
        careful(careful_support, towards_b, points, options, p, observer, corners)
    } else {
        p
    })
}

/// Watches the expansion iteration by iteration (explain mode, pictures, statistics), as
/// [`crate::GjkObserver`] watches GJK.
///
/// `()` watches nothing and compiles away.
pub trait EpaObserver<V: Vector> {
    /// Called once per iteration, after the support point was found and before the polytope
    /// grows (the step's faces are the polytope the support point was searched from).
    fn step(&mut self, step: &EpaStep<'_, V>);
    /// Called once with the answer (also when the difference was flat and nothing expanded).
    fn end(&mut self, penetration: &Penetration<V>) {
        let _ = penetration;
    }
}

impl<V: Vector> EpaObserver<V> for () {
    #[inline(always)]
    fn step(&mut self, _: &EpaStep<'_, V>) {}
    #[inline(always)]
    fn end(&mut self, _: &Penetration<V>) {}
}

/// What an iteration decided after finding its support point `w`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpaDecision {
    /// The bounds met: the closest face lies on the boundary of the difference, and its
    /// distance is the depth. The expansion ends [`EpaTermination::Converged`].
    Converged,
    /// `w` is already a vertex of the polytope: no progress is possible, and the expansion
    /// ends [`EpaTermination::Degenerate`] with its best upper bound.
    Repeated,
    /// `w` joins the polytope: the faces it sees are replaced by a fan from `w` to their
    /// horizon (in 2D, `w` goes between the ends of the closest edge). Rounding or the
    /// iteration cap may still end the expansion there.
    Grow,
}

/// A face of the expanding polytope, in A's frame: a triangle in 3D, an edge in 2D.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaFace<V: Vector> {
    corners: [V; 3],
    len: usize,
    /// The outward unit normal.
    pub normal: V,
    /// The signed distance of the face's plane (line) from the origin.
    pub distance: V::Real,
}

impl<V: Vector> EpaFace<V> {
    /// The corners (points `w` of the Minkowski difference): two for an edge, three for a
    /// triangle, counter-clockwise seen from outside in 3D, from start to end counter-clockwise
    /// around the polygon in 2D.
    pub fn corners(&self) -> &[V] {
        &self.corners[..self.len]
    }
}

/// One EPA iteration, as shown to an [`EpaObserver`]. Coordinates are in A's frame.
#[derive(Clone, Copy)]
pub struct EpaStep<'s, V: Vector> {
    /// 1 for the first support point searched.
    pub iteration: u32,
    /// The support point of A's core along the normal.
    pub a: V,
    /// The support point of B's core along the opposite direction.
    pub b: V,
    /// The new point of the Minkowski difference, `w = a − b`.
    pub w: V,
    /// The lower bound of the depth: the closest face's distance.
    pub lower: V::Real,
    /// This direction's upper bound `n·w`.
    pub bound: V::Real,
    /// The smallest upper bound so far (this step's included): the depth lies in
    /// `[lower, upper]`.
    pub upper: V::Real,
    /// What the iteration decided.
    pub decision: EpaDecision,
    /// The closest face's slot, normal and distance.
    facet: Facet<V>,
    polytope: &'s dyn Faces<V>,
}

impl<V: Vector> EpaStep<'_, V> {
    /// The polytope's face closest to the origin, whose normal the support point was asked
    /// for.
    pub fn closest(&self) -> EpaFace<V> {
        self.polytope.face(&self.facet)
    }

    /// Calls `f` with every face of the polytope (the one the support point was searched
    /// from), in storage order.
    pub fn for_each_face(&self, mut f: impl FnMut(EpaFace<V>)) {
        self.polytope.visit(&mut f);
    }

    /// The polytope's faces (allocates; see [`EpaStep::for_each_face`]).
    pub fn faces(&self) -> alloc::vec::Vec<EpaFace<V>> {
        let mut faces = alloc::vec::Vec::new();
        self.for_each_face(|face| faces.push(face));
        faces
    }
}

impl<V: Vector> core::fmt::Debug for EpaStep<'_, V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EpaStep")
            .field("iteration", &self.iteration)
            .field("closest", &self.closest())
            .field("w", &self.w)
            .field("lower", &self.lower)
            .field("upper", &self.upper)
            .field("decision", &self.decision)
            .finish_non_exhaustive()
    }
}

/// The polytope's faces for an observer: object-safe, so that [`EpaStep`] needs no type
/// parameter for the storage.
pub(crate) trait Faces<V: Vector> {
    /// The face `facet` is, with its corners.
    fn face(&self, facet: &Facet<V>) -> EpaFace<V>;
    /// Calls `f` with every live face that has an area.
    fn visit(&self, f: &mut dyn FnMut(EpaFace<V>));
}

impl<V: Vector> EpaFace<V> {
    /// The face of `facet` with these corners (two or three).
    pub(crate) fn new(facet: &Facet<V>, corners: &[V]) -> Self {
        let mut all = [V::ZERO; 3];
        all[..corners.len()].copy_from_slice(corners);
        Self { corners: all, len: corners.len(), normal: facet.normal, distance: facet.distance }
    }
}

/// The answer for a flat Minkowski difference: depth 0 across it, at GJK's contact point.
fn flat<V: Vector>((point_a, point_b): (V, V), normal: V) -> Penetration<V> {
    Penetration {
        depth: V::Real::ZERO,
        normal,
        point_a,
        point_b,
        iterations: 0,
        termination: EpaTermination::Flat,
    }
}

/// The points of A and B whose difference is the point of the simplex of `points` closest to
/// the origin (GJK's witness points, for a simplex handed over by another GJK).
fn witnesses<V: Vector>(points: &[SupportPoint<V>]) -> (V, V) {
    let mut simplex = Simplex::new();
    points.iter().take(V::DIM + 1).for_each(|p| simplex.push(*p));
    simplex.reduce();
    simplex.witnesses()
}

/// A vertex of the expanding polytope: a point `w = a − b` of the Minkowski difference and the
/// point `a` of A it came from (`b = a − w`), both in A's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Vertex<V> {
    pub(crate) w: V,
    pub(crate) a: V,
}

impl<V: Vector> Vertex<V> {
    const ZERO: Self = Self { w: V::ZERO, a: V::ZERO };
}

impl<V: Vector> From<crate::simplex::SupportPoint<V>> for Vertex<V> {
    #[inline]
    fn from(p: crate::simplex::SupportPoint<V>) -> Self {
        Self { w: p.w, a: p.a }
    }
}

/// A facet (3D) or edge (2D) of the polytope: its slot, outward unit normal and the signed
/// distance of its plane from the origin (negative when the origin is outside it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Facet<V: Vector> {
    pub(crate) index: usize,
    pub(crate) normal: V,
    pub(crate) distance: V::Real,
}

/// The dimension-specific half of EPA: a convex polytope of support points that can find its
/// facet closest to the origin and grow by one vertex.
pub(crate) trait Expansion<V: Vector>: Faces<V> {
    /// The live facet whose plane is closest to the origin (smallest signed distance), if any.
    fn closest(&self) -> Option<Facet<V>>;
    /// Whether `w` is already a vertex.
    fn has_vertex(&self, w: V) -> bool;
    /// Adds `vertex`, which lies beyond `facet`, and re-triangulates; says why when it cannot.
    /// Out of room ([`Stuck::Full`]), the polytope is left unchanged (a larger one can take
    /// over); after [`Stuck::Degenerate`] it may be inconsistent, and the expansion ends
    /// without reading it again.
    fn grow(&mut self, facet: &Facet<V>, vertex: Vertex<V>) -> Result<(), Stuck>;
    /// The support points around `facet` (its [`Cap`]).
    fn cap(&self, facet: &Facet<V>) -> Cap<V>;
    /// Every live facet with an area.
    fn facets(&self) -> impl Iterator<Item = Facet<V>> + '_;
    /// The barycentric coordinates of the origin's projection onto `facet` over its vertices
    /// (an edge has two; the third is then infinite): all `≥ 0` when the projection lies in
    /// the facet.
    fn barycentric(&self, facet: &Facet<V>) -> [V::Real; 3];
    /// Whether the affine combination of `facet`'s corners with `barycentric` coordinates (some
    /// negative: the origin projects outside the facet) is a convex combination of one shape's
    /// points: corners that share that shape's point (a polytope's vertex, a segment's end)
    /// pool their weights, and every pool is `≥ 0`. That shape's witness then lies in it, and
    /// the other's is that point minus the facet's point: kept where it extends the line of
    /// the other shape's corners (a rim's chord) and moves across it by no more than `slack`
    /// (the expansion's rounding) plus a sixteenth of the extension. The weights need not be
    /// small: a sliver with a segment's end twice and three points of a cone, the apex and two
    /// rim points a short chord apart, had weights about `(1, −1, 1)`, and the cone's witness
    /// was the apex moved by the whole chord, off the cone (see `combination`).
    fn affine(&self, facet: &Facet<V>, barycentric: [V::Real; 3], slack: V::Real) -> bool;
    /// The points of A and B (A's frame) whose difference is the origin's projection onto
    /// `facet`, from its `barycentric` coordinates: as they are when they lie in the facet or
    /// are [`Expansion::affine`], else those of the facet's point nearest the projection.
    fn witnesses(&self, facet: &Facet<V>, barycentric: [V::Real; 3], slack: V::Real) -> (V, V);
}

/// Why a polytope could not grow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stuck {
    /// The fixed-capacity storage is full.
    Full,
    /// Rounding made the update inconsistent.
    Degenerate,
}

/// The loop's stopping parameters.
#[derive(Clone, Copy, Debug)]
struct Limits<R> {
    tolerance: R,
    max_iterations: u32,
    /// The largest |w| of the starting simplex: the size rounding is relative to.
    size: R,
}

/// A polytope's storage: built empty where it lives (it is large; returning it would copy
/// it), then filled.
pub(crate) trait Storage<V: Vector>: Expansion<V> {
    /// Empty storage.
    fn empty() -> Self;
    /// Makes the empty storage the starting simplex of `vertices` (the first `DIM + 1`);
    /// `size` is the largest |w|.
    fn start(&mut self, vertices: &[Vertex<V>; 4], size: V::Real);
}

/// A larger polytope's storage taking over a smaller one's, slot for slot.
pub(crate) trait Absorb<S> {
    /// Makes this empty storage a copy of `small`.
    fn absorb(&mut self, small: &S);
}

/// The closest facet and the support point beyond it that a full polytope had no room for.
type Pending<V> = (Facet<V>, Vertex<V>);

/// The expansion in a small polytope `S` first, moved into the large `L` if it fills up: the
/// run continues there with the support point the small one had no room for. When `L` fills
/// up too, `overflow` takes over the run.
#[inline]
fn staged<
    V: Vector,
    S: Storage<V>,
    L: Storage<V> + Absorb<S>,
    F: FnMut(V) -> Vertex<V>,
    O: EpaObserver<V> + ?Sized,
>(
    vertices: &[Vertex<V>; 4],
    size: V::Real,
    support: &mut F,
    run: impl FnOnce() -> Run<V>,
    observer: &mut O,
    cap: Option<&mut Option<Cap<V>>>,
    overflow: impl FnOnce(&mut Run<V>, &L, Pending<V>, &mut F, &mut O) -> Penetration<V>,
) -> Penetration<V> {
    let mut small = S::empty();
    small.start(vertices, size);
    expand_staged(&mut small, support, run, observer, cap, overflow)
}

/// [`staged`] from the polytope `small`, already built.
#[inline]
fn expand_staged<
    V: Vector,
    S: Expansion<V>,
    L: Storage<V> + Absorb<S>,
    F: FnMut(V) -> Vertex<V>,
    O: EpaObserver<V> + ?Sized,
>(
    small: &mut S,
    support: &mut F,
    run: impl FnOnce() -> Run<V>,
    observer: &mut O,
    cap: Option<&mut Option<Cap<V>>>,
    overflow: impl FnOnce(&mut Run<V>, &L, Pending<V>, &mut F, &mut O) -> Penetration<V>,
) -> Penetration<V> {
    // A constructor rather than the run itself: moving the state (with room for a cap) into
    // the call would copy it.
    let mut run = run();
    run.keep = cap.is_some();
    let p = match run.expand(small, support, observer) {
        Ok(termination) => run.finish(small, termination, support),
        Err(pending) => {
            let mut large = L::empty();
            match run.take_over(&mut large, small, pending, support, observer) {
                Ok(termination) => run.finish(&large, termination, support),
                Err(pending) => overflow(&mut run, &large, pending, support, observer),
            }
        }
    };
    if let Some(cap) = cap {
        *cap = run.cap;
    }
    p
}

/// The last stage in 3D: a polyhedron on the heap that grows with the expansion (big hulls,
/// deep overlaps), so that only the iteration cap ends it. Out of line: few runs get here.
#[cold]
#[inline(never)]
fn on_the_heap<
    V: Vector,
    F: FnMut(V) -> Vertex<V>,
    O: EpaObserver<V> + ?Sized,
    const CAREFUL: bool,
>(
    run: &mut Run<V>,
    large: &polyhedron::Large<V, CAREFUL>,
    pending: Pending<V>,
    support: &mut F,
    observer: &mut O,
) -> Penetration<V> {
    let mut heap = polyhedron::Heap::<V, CAREFUL>::empty();
    let termination = run
        .take_over(&mut heap, large, pending, support, observer)
        .unwrap_or(EpaTermination::IterationCap);
    run.finish(&heap, termination, support)
}

/// The expansion in 3D run again from its starting simplex (built again from `points`, as
/// [`expand_from`] built it: the hot path keeps nothing alive for the rerun) in careful polytopes
/// (horizon walks that guard against folds, [`polyhedron::Polyhedron::walk`]), after the plain
/// one ended [`EpaTermination::Degenerate`] with `first`. Out of line, and only then: the
/// guard costs a triple product per horizon edge on every step.
///
/// Rounding can make a horizon walk miss a facet the new point lies in the plane of, and the
/// fan facet over their edge then folds back with the origin outside: the polytope has lost
/// the origin, and the expansion wanders among facets behind it until it stops on a repeated
/// support point or an inconsistent horizon, with the best upper bound it met (which need not
/// be near the depth). The careful run continues the count of iterations (its cap is the
/// whole run's) and starts from `first`'s upper bound, so its answer is never a worse bound;
/// a converged answer is kept only when its depth (a lower bound) does not exceed that bound
/// beyond the convergence test's allowance, and is reported converged: its bounds met. Any
/// other end reports how the careful run ended.
#[cold]
#[inline(never)]
fn careful<V: Vector, O>(
    mut support: SupportFn<'_, V>,
    towards_b: V,
    points: &[SupportPoint<V>],
    options: &EpaOptions<V::Real>,
    first: Penetration<V>,
    observer: &mut O,
    cap: Option<&mut Option<Cap<V>>>,
) -> Penetration<V>
where
    O: EpaObserver<V> + ?Sized,
{
    let tolerance = tolerance_of(options);
    let Start::Full { vertices, size } =
        start::full_simplex(points, &mut support, tolerance, towards_b)
    else {
        return first;
    };
    let limits = Limits { tolerance, max_iterations: options.max_iterations, size };
    let seed = Vertex { w: first.point_a - first.point_b, a: first.point_a };
    let resumed = || {
        let mut run = Run::new(limits);
        run.iterations = first.iterations;
        run.upper = Some((first.depth, first.normal, seed));
        run
    };
    let slack = V::Real::from_f64(ROUNDING) * V::Real::EPSILON * size;
    let p = staged::<V, polyhedron::Small<V, true>, polyhedron::Large<V, true>, _, O>(
        &vertices,
        size,
        &mut support,
        resumed,
        observer,
        cap,
        on_the_heap,
    );
    let kept = Penetration { iterations: p.iterations, termination: p.termination, ..first };
    if p.termination == EpaTermination::Converged {
        // A lower bound above an upper bound (beyond the rounding of the facet's plane) is no
        // certificate.
        if p.depth <= first.depth + slack {
            p
        } else {
            kept
        }
    } else if p.depth < first.depth {
        p
    } else {
        kept
    }
}

/// The expansion's relative tolerance: the caller's, or `ε` when it asks for none.
#[inline]
fn tolerance_of<R: Real>(options: &EpaOptions<R>) -> R {
    if options.tolerance > R::ZERO {
        options.tolerance
    } else {
        R::EPSILON
    }
}

/// From A's centre towards B's, in A's frame: the start simplex's preferred side.
#[inline]
fn towards_b<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
) -> V {
    pair.relative_pose().transform_point(pair.b().center()) - pair.a().center()
}

/// The support function of the cores' Minkowski difference as the expansion calls it: behind a
/// `dyn` reference, so that the expansion (its stages, polytopes, witness re-choice) is built
/// once per vector type and observer, not once per pair of shape types (a fifth of the test
/// suite's LLVM IR went to its copies). One indirect call per support point, against a polytope update
/// of hundreds of instructions.
type SupportFn<'s, V> = &'s mut dyn FnMut(V) -> Vertex<V>;

/// The relative rounding of the expansion's arithmetic, in units of `ε`: `ROUNDING × ε × size`
/// is its absolute slack.
const ROUNDING: f64 = 64.0;

/// The state of the generic EPA loop (van den Bergen 2001) over a polytope that contains the
/// origin.
///
/// Besides the lower bound (the closest facet's distance) it keeps the best upper bound: the
/// smallest support value `n·w` over the directions tried, since `depth = min_n h_D(n)`. When
/// the loop stops short of convergence (curved shapes at the iteration cap, rounding trouble)
/// that direction is the better answer — translating B by it really separates the shapes.
struct Run<V: Vector> {
    limits: Limits<V::Real>,
    /// Relative rounding of the arithmetic: `rounding × size` is the absolute slack.
    rounding: V::Real,
    /// The largest |w| so far.
    size: V::Real,
    iterations: u32,
    /// The smallest support value so far, with its direction and support point.
    upper: Option<(V::Real, V, Vertex<V>)>,
    /// The closest facet when the bounds met (the polytope's closest facet from then on).
    converged: Option<Facet<V>>,
    /// Whether the caller wants the converged facet's cap.
    keep: bool,
    /// The converged facet's cap, once the run finished converged (when wanted).
    cap: Option<Cap<V>>,
}

impl<V: Vector> Run<V> {
    #[inline]
    fn new(limits: Limits<V::Real>) -> Self {
        Self {
            limits,
            rounding: V::Real::from_f64(ROUNDING) * V::Real::EPSILON,
            size: limits.size,
            iterations: 0,
            upper: None,
            converged: None,
            keep: false,
            cap: None,
        }
    }

    /// Continues the run in the empty polytope `next`: a copy of the `full` one, grown by the
    /// `pending` support point. As [`Run::expand`].
    #[inline]
    fn take_over<P, N: Storage<V> + Absorb<P>, O: EpaObserver<V> + ?Sized>(
        &mut self,
        next: &mut N,
        full: &P,
        (facet, vertex): Pending<V>,
        support: &mut impl FnMut(V) -> Vertex<V>,
        observer: &mut O,
    ) -> Result<EpaTermination, Pending<V>> {
        next.absorb(full);
        match next.grow(&facet, vertex) {
            Ok(()) => self.expand(next, support, observer),
            Err(Stuck::Full) => Err((facet, vertex)),
            Err(Stuck::Degenerate) => Ok(EpaTermination::Degenerate),
        }
    }

    /// Expands `polytope` until the bounds meet or the loop has to stop. When the polytope is
    /// full, returns the closest facet and the support point that did not fit, for a larger
    /// polytope to continue with; otherwise how the expansion ended.
    #[inline]
    fn expand<E: Expansion<V>, O: EpaObserver<V> + ?Sized>(
        &mut self,
        polytope: &mut E,
        support: &mut impl FnMut(V) -> Vertex<V>,
        observer: &mut O,
    ) -> Result<EpaTermination, Pending<V>> {
        loop {
            let Some(facet) = polytope.closest() else {
                return Ok(EpaTermination::Degenerate);
            };
            if self.iterations >= self.limits.max_iterations {
                return Ok(EpaTermination::IterationCap);
            }
            self.iterations += 1;
            let vertex = support(facet.normal);
            self.size = self.size.max(vertex.w.length());
            let bound = facet.normal.dot(vertex.w);
            if self.upper.is_none_or(|(u, _, _)| bound < u) {
                self.upper = Some((bound, facet.normal, vertex));
            }
            // The facet's own support value minus its distance: how far the facet is from D's
            // boundary along its normal. (The smallest support value seen along other
            // directions bounds the depth too, but meeting it says nothing of this facet's
            // normal: with two near-equal minima of D the facet may point where D reaches far
            // beyond the depth, and pushing B along it would not separate the shapes.)
            let gap = bound - facet.distance;
            let decision = if gap
                <= self.limits.tolerance * facet.distance.abs() + self.rounding * self.size
            {
                EpaDecision::Converged
            } else if polytope.has_vertex(vertex.w) {
                EpaDecision::Repeated
            } else {
                EpaDecision::Grow
            };
            observer.step(&EpaStep {
                iteration: self.iterations,
                a: vertex.a,
                b: vertex.a - vertex.w,
                w: vertex.w,
                lower: facet.distance,
                bound,
                upper: self.upper.map_or(bound, |(u, _, _)| u),
                decision,
                facet,
                polytope: &*polytope,
            });
            match decision {
                EpaDecision::Converged => {
                    self.converged = Some(facet);
                    return Ok(EpaTermination::Converged);
                }
                EpaDecision::Repeated => return Ok(EpaTermination::Degenerate),
                EpaDecision::Grow => {}
            }
            match polytope.grow(&facet, vertex) {
                Ok(()) => {}
                Err(Stuck::Full) => return Err((facet, vertex)),
                Err(Stuck::Degenerate) => return Ok(EpaTermination::Degenerate),
            }
        }
    }

    /// The answer once the expansion ended with `termination`.
    #[inline]
    fn finish<E: Expansion<V>>(
        &mut self,
        polytope: &E,
        termination: EpaTermination,
        support: &mut impl FnMut(V) -> Vertex<V>,
    ) -> Penetration<V> {
        let slack = self.rounding * self.size;
        if termination == EpaTermination::Converged && self.keep {
            self.cap = self.converged.map(|facet| polytope.cap(&facet));
        }
        let mut p = match self.upper {
            Some((depth, normal, vertex)) if termination != EpaTermination::Converged => {
                Penetration {
                    depth,
                    normal,
                    point_a: vertex.a,
                    point_b: vertex.a - vertex.w,
                    iterations: self.iterations,
                    termination,
                }
            }
            _ => answer(
                polytope,
                self.converged.or_else(|| polytope.closest()),
                self.iterations,
                termination,
                slack,
                self.limits.tolerance,
            ),
        };
        (p.point_a, p.point_b) = settle(
            p.depth,
            p.normal,
            (p.point_a, p.point_b),
            support,
            self.limits.tolerance,
            slack,
        );
        p
    }
}

/// Witness points `(a, b)` with `a − b = depth × n` up to rounding, from `start`: points of A
/// and B (or inside them) whose difference `a − b` is close to that.
///
/// The remainder `r = a − b − depth n` of the start is rounding when the origin projects into
/// the answer's facet; both points then move by `r / 2`. It is large in two cases: the answer
/// is the best upper bound `(h_D(n), n)` of an expansion that stopped short, whose support
/// points along `n` may be any points of faces across `n` (a cylinder's rim for its base), or
/// the origin projects outside the closest facet (rounding bends the long slivers that flat
/// directions of `D` make, as along a capsule's core or a cone's side). The points are then
/// chosen again on the supporting planes `n·x = h_A(n)` and `n·x = −h_B(−n)`, where
/// `a − b = depth × n` holds exactly when their tangential parts agree, and the tangential
/// error to remove lies along `t`, the unit tangential part of `r`:
/// * the support points along `n` and along `n ± τ t` span A's supporting face along `t` (the
///   extreme points of a flat face, or for a curved surface points about `τ × radius` either
///   side of the support point), and likewise B's (B's support along `−(n ± τ t)` lies toward
///   `∓t`); the tilt `τ = √ε` (the expansion's tolerance) exceeds a converged normal's angle
///   error;
/// * on the two polylines through those points, take the points of equal `t`-coordinate `c`:
///   inside the overlap of the two ranges, the `c` nearest to the middle of the two support
///   points' coordinates (the least displacement); without overlap (the normal is off by more
///   than `τ`), the middle of the gap;
/// * lift both onto their planes: a chord of a curved surface dips below the plane by at most
///   `τ` times its length (the support inequality at the tilted normal), so the lifted point
///   lies at most that far outside the shape (`τ² × radius / 2` on a smooth surface);
/// * keep whichever of the start and the new pair has the smaller remainder (a kept start
///   put on the planes too), and hand it out (`distribute`): the normal part,
///   `h_D(n) − depth` (zero for an upper bound, within the tolerance for a converged answer),
///   evenly; the tangential part to the point whose shape has room for it along its
///   supporting face — a box's corner has none, the cone's ruling across from it has plenty —
///   and evenly only what neither can take.
#[inline]
fn settle<V: Vector>(
    depth: V::Real,
    n: V,
    (a, b): (V, V),
    support: &mut impl FnMut(V) -> Vertex<V>,
    tolerance: V::Real,
    slack: V::Real,
) -> (V, V) {
    let r = a - b - n * depth;
    if r.length_squared() > slack * slack {
        return rechoose(depth, n, (a, b, r), support, tolerance, slack);
    }
    halves(a, b, r)
}

/// `a` and `b` moved along `n` onto the supporting planes through `a0` and `b0` (the support
/// points along `n` and `−n`): the lift of [`rechoose`]'s re-chosen points.
#[inline]
fn onto_planes<V: Vector>(n: V, (a0, b0): (V, V), (a, b): (V, V)) -> (V, V) {
    (a + n * n.dot(a0 - a), b + n * n.dot(b0 - b))
}

/// `a` and `b` moved by half the remainder `r` each, so that `a − b` loses `r`.
#[inline]
fn halves<V: Vector>(a: V, b: V, r: V) -> (V, V) {
    (a - r * V::Real::HALF, b + r * V::Real::HALF)
}

/// The witness points of [`settle`]: chosen again on the faces that support `n`, or the
/// `start` (with its remainder `r`) when those do not need a smaller correction; then the
/// remainder handed out.
#[cold]
#[inline(never)]
fn rechoose<V: Vector>(
    depth: V::Real,
    n: V,
    start: (V, V, V),
    support: &mut impl FnMut(V) -> Vertex<V>,
    tolerance: V::Real,
    slack: V::Real,
) -> (V, V) {
    let r = start.2;
    let tangential = r - n * n.dot(r);
    let Some(t) = unit(tangential).filter(|_| tangential.length_squared() > slack * slack) else {
        return halves(start.0, start.1, r);
    };
    let tilt = tolerance.sqrt();
    let (along, up, down) = (support(n), support(n + t * tilt), support(n - t * tilt));
    let (a0, b0) = (along.a, along.a - along.w);
    // In 3D, along the other tangent too (`s = n × t`): where both faces are lines in the
    // tangent plane (a rim or an edge each), their crossing is the contact, whatever `t` is;
    // and a face long across `t` is reached only so (`polyline_crossing`).
    let faces = (V::DIM == 3).then(|| {
        let s = cross(n, t);
        let (left, right) = (support(n + s * tilt), support(n - s * tilt));
        let b = |v: &Vertex<V>| v.a - v.w;
        ([a0, up.a, down.a, left.a, right.a], [b0, b(&up), b(&down), b(&left), b(&right)])
    });
    if let Some((face_a, face_b)) = faces {
        if let Some((a1, b1)) = chord_crossing(n, face_a, face_b) {
            let (a1, b1) = onto_planes(n, (a0, b0), (a1, b1));
            let r1 = a1 - b1 - n * depth;
            let tangential = r1 - n * n.dot(r1);
            if tangential.length_squared() <= slack * slack {
                return halves(a1, b1, r1);
            }
            // A chord's end: what is left lies across the other chord (mostly), to the
            // shape with room for it.
            if tangential.length_squared() < (r - n * n.dot(r)).length_squared() {
                if let Some(t1) = unit(tangential) {
                    return distribute(n, (a1, b1, r1), t1, &support(n - t1 * tilt));
                }
            }
        }
    }
    let (xa, xb) = (t.dot(a0), t.dot(b0));
    // A's points toward −t and +t; B's support along −(n ± τt) is extreme toward ∓t.
    let face_a = [down.a, a0, up.a];
    let face_b = [up.a - up.w, b0, down.a - down.w];
    let low = t.dot(face_a[0]).min(xa).max(t.dot(face_b[0]).min(xb));
    let high = t.dot(face_a[2]).max(xa).min(t.dot(face_b[2]).max(xb));
    // Where the faces' ranges along t overlap, the coordinate nearest to the middle of the
    // support points' (the least displacement); otherwise the middle of the gap.
    let c = if low <= high {
        ((xa + xb) * V::Real::HALF).max(low).min(high)
    } else {
        (low + high) * V::Real::HALF
    };
    // Back onto the supporting planes: a chord of a curved surface dips below its plane (by at
    // most τ times its length, from the support inequality at the tilted normal).
    let (a1, b1) = (at_coordinate(face_a, t, c), at_coordinate(face_b, t, c));
    let (a1, b1) = onto_planes(n, (a0, b0), (a1, b1));
    let r1 = a1 - b1 - n * depth;
    // Keep the start when it needs the smaller correction (a tilt below the normal's angle
    // error leaves the faces' ranges apart), unless the faces cross in the tangent plane
    // (a face long across `t`, which the match along `t` alone misses: `polyline_crossing`).
    if r1.length_squared() >= r.length_squared() {
        // Only a remainder well above rounding is worth the support calls: below `16 ×
        // slack` the even split moves each point by a rounding-sized distance.
        let across = tangential.length();
        let crossed = faces
            .filter(|_| across > V::Real::from_f64(16.0) * slack)
            .and_then(|faces| polyline_crossing(n, t, faces, tilt * across));
        return match crossed {
            Some((a2, b2)) => halves(a2, b2, a2 - b2 - n * depth),
            None => {
                // The start is a facet's chord, below the planes of `n` (a parallel facet's,
                // `answer`, by more than the gap): on the planes, the remainder's part along
                // `n` is the gap, which the even split keeps within the tolerance.
                let (a2, b2) = onto_planes(n, (a0, b0), (start.0, start.1));
                distribute(n, (a2, b2, a2 - b2 - n * depth), t, &down)
            }
        };
    }
    // The new pair's remainder lies across `t` (mostly): the rooms along its own direction.
    let tangential = r1 - n * n.dot(r1);
    match unit(tangential).filter(|_| tangential.length_squared() > slack * slack) {
        Some(t1) => distribute(n, (a1, b1, r1), t1, &support(n - t1 * tilt)),
        None => halves(a1, b1, r1),
    }
}

/// Witness points of [`rechoose`] in 3D where matching the coordinate along `t` alone fails
/// (a remainder `across` the normal): the support points along `n`, `n ± τ t` and `n ± τ s`
/// (`s = n × t`; `faces`, each with the support point along `n` first) span each shape's
/// supporting face in the tangent plane; where a segment between two of A's points crosses
/// one between two of B's (in that plane), the crossing's points lifted onto their planes are
/// the witnesses. `None` when none cross with a lift within `max_lift`.
///
/// The coordinate along `t` is not enough when a face is long across `t`: a cylinder's rim
/// against a cone's ruling nearly parallel to it in the tangent plane (f32, the normal 0.013
/// rad off: the depth is flat to rounding across the ruled patch). B's support points along
/// `−n` and `−(n ± τ t)` all lay at the ruling's base end, 2.9e-3 from A's across `t` (the
/// remainder along `t` was 4.2e-5): the matched points ended 2.9e-3 apart, and the split
/// remainder left `point_a` 7 tolerances off the rim. The tilt along `s` reaches the
/// ruling's apex end, and the rim's polyline crosses the ruling near where the exact contact
/// is at the exact normal. A point of a segment between two points of a shape lies in the
/// shape, and its lift onto the plane (`n·(a0 − a)` for A, measured) bounds how far the
/// lifted point lies outside it. The crossing with the smallest lift is kept when that is
/// within `τ × across`, what the tilt allows the match along `t` (see [`rechoose`]).
#[cold]
#[inline(never)]
fn polyline_crossing<V: Vector>(
    n: V,
    t: V,
    (face_a, face_b): ([V; 5], [V; 5]),
    max_lift: V::Real,
) -> Option<(V, V)> {
    let s = cross(n, t);
    let cross_2d = |u: V, v: V| t.dot(u) * s.dot(v) - s.dot(u) * t.dot(v);
    let (zero, one) = (V::Real::ZERO, V::Real::ONE);
    let (a0, b0) = (face_a[0], face_b[0]);
    let mut best: Option<(V::Real, V, V)> = None;
    for i in 0..5 {
        for j in i + 1..5 {
            let (p, d1) = (face_a[i], face_a[j] - face_a[i]);
            for k in 0..5 {
                for l in k + 1..5 {
                    // p + λ d1 = u + μ d2 in the tangent plane.
                    let (u, d2) = (face_b[k], face_b[l] - face_b[k]);
                    let den = cross_2d(d1, d2);
                    if den == zero {
                        continue;
                    }
                    let w = u - p;
                    let (lambda, mu) = (cross_2d(w, d2) / den, cross_2d(w, d1) / den);
                    if !(lambda >= zero && lambda <= one && mu >= zero && mu <= one) {
                        continue;
                    }
                    let (a, b) = (p + d1 * lambda, u + d2 * mu);
                    let lift = n.dot(a0 - a).max(n.dot(b - b0)).max(zero);
                    if best.is_none_or(|(l0, _, _)| lift < l0) {
                        best = Some((lift, a, b));
                    }
                }
            }
        }
    }
    let (_, a, b) = best.filter(|(lift, _, _)| *lift <= max_lift)?;
    Some(onto_planes(n, (a0, b0), (a, b)))
}

/// The start's points `a − r_a`, `b + r_b` with `r_a + r_b = r`, the remainder of
/// [`settle`]: its normal part evenly, its tangential part `x t` where the shapes have room
/// for it.
///
/// Moving `b` by `s t` keeps it on B's supporting face while the face reaches that far toward
/// `+t`, and moving `a` by `−s t` keeps it on A's while A's reaches toward `−t`. The support
/// point along `n − τ t` (`toward`) measures both (B's is its support along `−n + τ t`): on
/// a flat face it is the face's extreme along `∓t`, so the room is the face's extent beyond
/// the point (zero at a vertex); on a curved surface it is about `τ × radius`, and moving a
/// point of the surface by `s` tangentially leaves it only `s² / (2 radius)` outside. Each
/// point takes up to its room, as evenly as the rooms allow; what neither has room for (the
/// normal is off, or the faces do not overlap) is split evenly.
pub(crate) fn distribute<V: Vector>(
    n: V,
    (a, b, r): (V, V, V),
    t: V,
    toward: &Vertex<V>,
) -> (V, V) {
    let normal = n * n.dot(r);
    let (a, b) = halves(a, b, normal);
    let x = t.dot(r);
    let room_a = t.dot(a - toward.a).max(V::Real::ZERO);
    let room_b = t.dot(toward.a - toward.w - b).max(V::Real::ZERO);
    let to_b = if room_a + room_b >= x {
        // Both fit: as even as the rooms allow.
        (x * V::Real::HALF).max(x - room_a).min(room_b)
    } else {
        room_b + (x - room_a - room_b) * V::Real::HALF
    };
    (a - t * (x - to_b), b + t * to_b)
}

/// The points of two faces (3D), each sampled by its support points along `n` and four
/// tilts of it, nearest each other across `n`, when each face's samples lie on a line there
/// (an edge's two ends; a rim's or a curved edge's chord, bent by only `τ²` times its radius)
/// and the lines are not near parallel: the closest points of the two chords seen along `n`
/// (off the supporting planes; [`rechoose`] lifts them). Where the chords cross (the normal
/// is exact) the points are `depth × n` apart once lifted; otherwise (a chord's end, such as
/// a segment's, against the other's side) the remainder across `n` is their distance there.
/// `None` for a face that spans an area or is a point, and for near-parallel lines (the
/// pair then has a range of nearest points, which the one-tangent choice handles).
fn chord_crossing<V: Vector>(n: V, face_a: [V; 5], face_b: [V; 5]) -> Option<(V, V)> {
    let (pa, qa) = face_line(n, face_a)?;
    let (pb, qb) = face_line(n, face_b)?;
    let (da, db) = (qa - pa, qb - pb);
    let across = |d: V| d - n * n.dot(d);
    let det = n.dot(cross(da, db));
    // At least 1/16 rad apart: nearer to parallel, the nearest points move along the lines
    // by the chords' rounding over the angle.
    if det.abs() * V::Real::from_f64(16.0) < across(da).length() * across(db).length() {
        return None;
    }
    // Seen along `n` (relative to `pa`, for the rounding): the parameters carry over to the
    // faces' own points, the projection being linear.
    let seen = |x: V| across(x - pa);
    let (s, u) = closest_on_segments([seen(pa), seen(qa)], [seen(pb), seen(qb)]);
    Some((pa + da * s, pb + db * u))
}

/// The two of `points` farthest apart across `n`, when every point lies within 1/64 of their
/// distance from the line through them (seen along `n`): the face is a line there.
fn face_line<V: Vector>(n: V, points: [V; 5]) -> Option<(V, V)> {
    let across = |d: V| (d - n * n.dot(d)).length_squared();
    let mut far = (V::Real::ZERO, 0, 0);
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            let ll = across(points[j] - points[i]);
            if ll > far.0 {
                far = (ll, i, j);
            }
        }
    }
    let (ll, i, j) = far;
    let (p, d) = (points[i], points[j] - points[i]);
    // `n·(d × (x − p))` is `|d|` across `n` times the distance of `x` from the line.
    let thin = |x: &V| n.dot(cross(d, *x - p)).abs() * V::Real::from_f64(64.0) <= ll;
    (ll.is_positive() && points.iter().all(thin)).then_some((p, points[j]))
}

/// The point of the polyline `low → middle → high` (increasing along `t`) whose coordinate
/// along `t` is `c`, clamped to the ends.
fn at_coordinate<V: Vector>([low, middle, high]: [V; 3], t: V, c: V::Real) -> V {
    let x = t.dot(middle);
    let (from, to) = if c >= x { (middle, high) } else { (low, middle) };
    let (x0, x1) = (t.dot(from), t.dot(to));
    let span = x1 - x0;
    let s = if span > V::Real::ZERO {
        ((c - x0) / span).max(V::Real::ZERO).min(V::Real::ONE)
    } else {
        V::Real::HALF
    };
    from + (to - from) * s
}

/// The penetration described by the polytope's `closest` facet.
///
/// Coplanar facets (a face of `D` split into triangles) share the smallest distance up to
/// rounding, and the origin projects into only one of them: among the facets within
/// `slack + ties × distance` of the closest, take the witness points from the one covering the
/// projection best, so that they are exact; the normal and depth stay the closest facet's.
fn answer<V: Vector, E: Expansion<V>>(
    polytope: &E,
    closest: Option<Facet<V>>,
    iterations: u32,
    termination: EpaTermination,
    slack: V::Real,
    ties: V::Real,
) -> Penetration<V> {
    let coverage = |[l0, l1, l2]: [V::Real; 3]| l0.min(l1).min(l2);
    let closest = closest.map(|closest| {
        let weights = polytope.barycentric(&closest);
        let mut best = (coverage(weights), weights, closest);
        if best.0 < V::Real::ZERO && !polytope.affine(&closest, weights, slack) {
            let limit = closest.distance + slack + ties * closest.distance.abs();
            // Only facets of the same face: parallel up to rounding. When the shapes touch,
            // other facets through the origin tie at distance 0 too, but their normals need
            // not support D (a chord from a vertex at the origin); the closest facet's does.
            let parallel = V::Real::ONE - V::Real::EPSILON.sqrt();
            let same_face = |f: &Facet<V>| {
                f.distance <= limit
                    && f.index != closest.index
                    && f.normal.dot(closest.normal) >= parallel
            };
            for facet in polytope.facets().filter(same_face) {
                let weights = polytope.barycentric(&facet);
                let c = coverage(weights);
                if c > best.0 {
                    best = (c, weights, facet);
                }
            }
        }
        (closest, best.2, best.1)
    });
    match closest {
        // The normal and depth stay the closest facet's: its normal is the one the support
        // point confirmed. A parallel facet's normal is parallel only to about √ε, and along
        // it D may reach beyond the depth (pushing B by the depth would not separate the
        // shapes); it only gives the witness points, and `settle` removes their remainder.
        Some((closest, facet, weights)) => {
            let (point_a, point_b) = polytope.witnesses(&facet, weights, slack);
            Penetration {
                depth: closest.distance,
                normal: closest.normal,
                point_a,
                point_b,
                iterations,
                termination,
            }
        }
        // Every facet is degenerate: cannot happen for a valid start, which has full volume.
        None => Penetration {
            depth: V::Real::ZERO,
            normal: V::axis(0),
            point_a: V::ZERO,
            point_b: V::ZERO,
            iterations,
            termination: EpaTermination::Degenerate,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Ellipsoid, GjkOptions, Goal, Pose, WarmStart};
    use glam::{DVec2, DVec3};

    /// EPA on the pair's GJK simplex, in the small polytope `S` moving into `L` when full.
    fn staged_run<
        V: Vector,
        S: Storage<V>,
        L: Storage<V> + Absorb<S>,
        A: Support<V>,
        B: Support<V>,
    >(
        pair: &Pair<'_, V, A, B>,
        simplex: &Simplex<V>,
        options: &EpaOptions<V::Real>,
    ) -> Penetration<V> {
        let mut hints = [0u32; 2];
        let mut support: SupportFn<'_, V> =
            &mut |dir| Vertex::from(pair.support_hinted(dir, &mut hints));
        let start =
            start::full_simplex(simplex.points(), &mut support, options.tolerance, V::axis(0));
        let Start::Full { vertices, size } = start else { panic!("the pair is not flat") };
        let limits =
            Limits { tolerance: options.tolerance, max_iterations: options.max_iterations, size };
        staged::<V, S, L, _, ()>(
            &vertices,
            size,
            &mut support,
            || Run::new(limits),
            &mut (),
            None,
            |run, large, _, support, _| run.finish(large, EpaTermination::IterationCap, support),
        )
    }

    /// Two overlapping balls (as ellipsoids: round cores, so only EPA answers) at a tight
    /// tolerance need more support points than the small polytope holds: the expansion moves
    /// into the large one and ends exactly as if it had started there (here at the iteration
    /// cap), close to the closed form `r_A + r_B − |c_B − c_A|` along the centres.
    #[test]
    fn a_long_expansion_moves_into_the_large_polytope() {
        let a = Ellipsoid::new(DVec3::splat(1.0)).unwrap();
        let b = Ellipsoid::new(DVec3::splat(0.7)).unwrap();
        let offset = DVec3::new(0.9, 0.4, -0.3);
        let pair = Pair::new(&a, Pose::IDENTITY, &b, Pose::from_translation(offset).unwrap());
        let gjk = pair.gjk(Goal::Distance, &GjkOptions::default(), &mut WarmStart::default());
        let options = EpaOptions { tolerance: 1e-9, max_iterations: 64 };
        let moved = staged_run::<DVec3, polyhedron::Small<DVec3>, polyhedron::Large<DVec3>, _, _>(
            &pair,
            &gjk.simplex,
            &options,
        );
        let direct = staged_run::<DVec3, polyhedron::Large<DVec3>, polyhedron::Large<DVec3>, _, _>(
            &pair,
            &gjk.simplex,
            &options,
        );
        assert_eq!(moved, direct);
        assert_eq!(penetration(&pair, &gjk.simplex, &options), moved);
        // More support points than the small polytope's 32 vertices less the 4 it starts with.
        assert!(moved.iterations > 28, "{moved:?}");
        let depth = 1.7 - offset.length();
        assert!((moved.depth - depth).abs() < 5e-5 * depth, "{moved:?} vs {depth}");
        assert!((moved.normal - offset.normalize()).length() < 1e-2, "{moved:?}");
    }

    /// A ball centred in a cylinder (as an ellipsoid: EPA answers) never converges: the radial
    /// directions are as deep as the axial ones. With a cap of 300 the expansion outgrows the
    /// large polytope and the heap's first room, and ends exactly as if it had started on the
    /// heap.
    #[test]
    fn a_longer_expansion_moves_onto_the_heap() {
        let a = crate::Cylinder::new(1.0, 1.0).unwrap();
        let b = Ellipsoid::new(DVec3::ONE).unwrap();
        let pair = Pair::new(&a, Pose::IDENTITY, &b, Pose::IDENTITY);
        let gjk = pair.gjk(Goal::Distance, &GjkOptions::default(), &mut WarmStart::default());
        let options = EpaOptions { max_iterations: 300, ..Default::default() };
        let moved = penetration(&pair, &gjk.simplex, &options);
        let direct = staged_run::<DVec3, polyhedron::Heap<DVec3>, polyhedron::Heap<DVec3>, _, _>(
            &pair,
            &gjk.simplex,
            &options,
        );
        assert_eq!(moved, direct);
        assert_eq!((moved.iterations, moved.termination), (300, EpaTermination::IterationCap));
        assert!((moved.depth - 2.0).abs() < 1e-12, "{moved:?}");
    }

    /// The same in 2D: two discs need more support points than the small polygon holds.
    #[test]
    fn a_long_expansion_moves_into_the_large_polygon() {
        let a = Ellipsoid::new(DVec2::splat(1.0)).unwrap();
        let b = Ellipsoid::new(DVec2::splat(0.7)).unwrap();
        let offset = DVec2::new(0.9, 0.4);
        let pose = Pose::<DVec2>::from_translation(offset).unwrap();
        let pair = Pair::new(&a, Pose::IDENTITY, &b, pose);
        let gjk = pair.gjk(Goal::Distance, &GjkOptions::default(), &mut WarmStart::default());
        let options = EpaOptions { tolerance: 1e-14, max_iterations: 64 };
        let moved = staged_run::<DVec2, polygon::Small<DVec2>, polygon::Large<DVec2>, _, _>(
            &pair,
            &gjk.simplex,
            &options,
        );
        let direct = staged_run::<DVec2, polygon::Large<DVec2>, polygon::Large<DVec2>, _, _>(
            &pair,
            &gjk.simplex,
            &options,
        );
        assert_eq!(moved, direct);
        assert_eq!(penetration(&pair, &gjk.simplex, &options), moved);
        // More support points than the small polygon's 24 vertices less the 3 it starts with.
        assert!(moved.iterations > 21, "{moved:?}");
        let depth = 1.7 - offset.length();
        assert!((moved.depth - depth).abs() < 1e-9 * depth, "{moved:?} vs {depth}");
        assert!((moved.normal - offset.normalize()).length() < 1e-4, "{moved:?}");
    }
}
