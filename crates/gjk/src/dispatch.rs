//! The dispatch table: which kernel answers which query for which pair of cores.
//!
//! Every shape tells what its core is in one method, [`Support::core`](crate::Support::core).
//! (This module is public for its documentation: the table is the crate's policy; its items are
//! internal.)
//! This module is the one place that turns the two cores and the query into a path; the
//! queries ([`intersects`](crate::intersects()), [`distance`](crate::distance()),
//! [`closest_points`](crate::closest_points()), [`contact`](crate::contact())) follow it and
//! fall back to GJK (and EPA) when it says so or when a kernel declines a case it cannot answer
//! exactly. Adding a shortcut is one kernel and one row here.
//!
//! | core A \ core B | point | segment | box | polygon (2D) | ellipsoid, cylinder, cone | general |
//! |---|---|---|---|---|---|---|
//! | **point**     | projection | projection | projection | projection | projection | GJK |
//! | **segment**   | projection | segment pair | segment–box | GJK | GJK | GJK |
//! | **box**       | projection | segment–box | box SAT | polygon SAT (2D) | GJK | GJK |
//! | **polygon**   | projection | GJK | polygon SAT | polygon SAT | GJK | GJK |
//! | **triangle** (2D) | GJK | GJK | polygon SAT | polygon SAT (also against a triangle) | GJK | GJK |
//! | **ellipsoid, cylinder, cone** | projection | GJK | GJK | GJK | GJK | GJK |
//! | **general**   | GJK | GJK | GJK | GJK | GJK | GJK |
//!
//! `intersects` in 3D has one more kernel, **MPR**, for every pair of cores from *box,
//! polytope (3D), ellipsoid, cylinder, cone* that the table above gives to GJK (so all but
//! box–box, which box SAT answers); `distance` and `closest_points` (one row) run it too on
//! those pairs when one core is curved (ellipsoid, cylinder, cone), to answer 0 (intersecting)
//! for overlapping cores. Every other cell
//! is the same for all queries except where the notes below say otherwise.
//!
//! Per query:
//! * **projection** (one core a point, the other projecting points exactly,
//!   [`Core::closest_point`]): the cores' closest points, hence every query's answer; in
//!   `contact`, a point inside the other core exits by [`Core::nearest_boundary`] (a segment
//!   core has no interior: EPA answers there). An ellipsoid projects by the foot of the
//!   perpendicular (Eberly's root of a convex decreasing function), inside and out; a
//!   cylinder or a cone (bodies of revolution) by clamping to its section in the point's
//!   meridian half plane (a rectangle, a triangle).
//! * **segment pair** (capsules): the closed form of two segments' closest points for every
//!   query; `contact` hands touching or crossing cores to EPA.
//! * **box SAT** (separating-axis test over face normals and, in 3D, edge pairs): `intersects`
//!   and `contact` exactly when the cores overlap, and when they are farther apart than margins
//!   plus the touching distance (plus the prediction distance, for `contact`); in between GJK
//!   measures the gap; `distance` and `closest_points` for overlapping cores (0, intersecting),
//!   GJK measuring every gap (it has the witnesses). The test's overlap (its largest
//!   separation `≤ 0`) is the one rule all four queries take
//!   ([`Pair::overlap_proved`](crate::Pair)), so they agree on it by construction: tiny boxes
//!   (subnormal half extents) overlapping by a few units of `1e-309` were intersecting for
//!   three queries, while GJK, whose squared lengths underflow, stopped apart for the fourth.
//! * **segment–box** (capsules against boxes), two kernels run in the box's frame: the
//!   separating-axis test (the box's face normals and, in 3D, the segment's direction crossed
//!   with the box's three axes; in 2D the segment's normal) for the depth, and the exact
//!   distance (the minimum over the segment's parameter of its squared distance to the box,
//!   a convex piecewise quadratic) for the gap and the closest points. `intersects`,
//!   `distance` and `closest_points`: the distance, as a projection (one "support point"
//!   pair, no loop); `contact`: the distance first (no contact beyond reach, the closest
//!   points' contact within it), and for cores within the touching distance the test's exact
//!   depth, normal and witnesses when they overlap, GJK and EPA when a rounding-sized gap
//!   separates them (as for two segments). Both kernels decline pairs whose numbers overflow
//!   or that are smaller than `1e-75` (`f64`) or `1e-9` (`f32`) (the distance also larger
//!   than `1e75`, `1e9`), and GJK and EPA answer them.
//! * **polygon SAT** (2D, edge normals of both polygons; a box laid out as four corners, a
//!   triangle as three, counter-clockwise). `intersects`: the separating-axis test, overlap
//!   and clear separation by the test alone, GJK in between. `distance` and
//!   `closest_points`: a walk along the Minkowski difference's boundary to the closest
//!   vertex–edge or vertex–vertex pair (a few steps instead of GJK's loop), its answer
//!   certified by a supporting plane (`sat/polygon_closest.rs`); 0 when a triangle of its
//!   vertices proves the overlap (`closest_points` then runs GJK for a point of the
//!   overlap). `contact`: the test's depth, normal and witnesses when the cores overlap, the
//!   walk's closest points when they are apart within reach beyond the touching distance,
//!   GJK and EPA within it. Two boxes take box SAT (and GJK for `closest_points`). A
//!   triangle whose area is within rounding of zero (collinear or repeated corners), a walk
//!   the plane does not certify or that finds no visible edge without that proof, and
//!   numbers that overflow are declined, and GJK and EPA answer. Two triangles take the
//!   same row with their own kernels (`sat/triangles.rs`): the test unrolled for three edges
//!   a side for `intersects`, and for the gap the closed form over their corner–edge pairs
//!   instead of the walk.
//! * **MPR** (`intersects`, and the overlap proof of `distance` and `closest_points`; 3D; [`crate::mpr`]): Minkowski Portal Refinement from a
//!   point inside each core (a box's, ellipsoid's or cylinder's centre, a cone's centroid, a
//!   polytope's [`Support::center`](crate::Support::center)). It proves the cores overlap (the
//!   origin in a tetrahedron of support points) or the shapes apart (a support plane with the
//!   origin beyond it by more than the margins plus twice the touching distance); when it
//!   proves neither (a gap within the margins or the touching band, a degenerate portal, the
//!   iteration cap), GJK answers. Why these kinds: on the standard workloads MPR decides
//!   every pair after 1.7 support calls on average when apart and 3.8 when overlapping, where
//!   GJK's run to its verdict costs more (instructions per query in f64, GJK → MPR:
//!   cylinder–cone 2149 → 979, hull_32 3700 → 2553; docs/benchmarks.md, issue 16). In
//!   `distance` and `closest_points`, on pairs with a curved core, an overlap proof answers 0
//!   (intersecting) and anything else goes to GJK (curved cores make GJK's run to a simplex around the origin long: on
//!   cylinder–cone it saves about 700 instructions per query, the pairs apart included).
//!   General cores are not routed: nothing promises that their centre lies in the core, and
//!   MPR's overlap proof needs a point of it. Segments and points have their closed forms; 2D
//!   is not routed (not measured). `distance`, `closest_points` and `contact` need the gap or the depth, which
//!   MPR does not measure.
//! * **GJK**: the support-function path for everything else, EPA for `contact` when the cores
//!   overlap. Between two cylinder or cone cores, `distance` and `closest_points` hand GJK's
//!   tail to the feature finisher (`finish.rs`: Newton's method on the simplex's vertices held
//!   on the shapes' rim circles, accepted only when GJK's duality-gap test closes on its
//!   answer, `Converged`). The shape cast ([`shape_cast`](crate::shape_cast())) takes the GJK
//!   ray cast for every pair; its initial overlap is a `contact`. The 3D triangle and polytope
//!   cores count as general in this table (and the ellipsoid, cylinder and cone against
//!   anything but a point): only the ray cast has kernels for them, and `intersects` takes MPR
//!   (above) for all but the triangle.
//!
//! * **manifold** ([`manifold`](crate::manifold())): no row of its own. It runs `contact` (so
//!   the table above picks its normal: box SAT, polygon SAT, a projection, GJK or EPA), then
//!   clips the two shapes' supporting features along that normal
//!   ([`Support::feature`](crate::Support::feature), whose default is derived from the same
//!   core: a box's face, a polygon's edge, a segment, a point; general cores give their support
//!   point, hence one contact point, unless the shape overrides it: hulls, cylinders,
//!   cones, triangles). See [`crate::manifold`](mod@crate::manifold) for the clipping and reduction.
//!
//! ## Ray casts
//! A ray cast ([`ray_cast`](crate::ray_cast())) has one shape, so its row is the shape's core
//! and margin alone. The ray is taken into the shape's frame (rotation and translation of the
//! pose), cast there in closed form, and the hit's point and normal taken back; a ball or
//! capsule, which has no axes to align with, is placed in world coordinates instead (fewer
//! rotations):
//!
//! | core | margin 0 | margin `r > 0` |
//! |---|---|---|
//! | **point** | ball of the touching distance | ball (closest approach, half chord) |
//! | **segment** | capsule of the touching distance (2D: exact) | capsule (cylinder side, then end balls) |
//! | **box** | slab test | slab test on the box grown by `r`, then a walk through the regions of the core's faces, edges and corners (exact) |
//! | **polygon** (2D) | edge half-planes (Cyrus–Beck) | edge capsules |
//! | **polytope** (3D) | face half-spaces (Cyrus–Beck) | GJK |
//! | **triangle** | 2D: edge half-planes; 3D: plane, then barycentric test | 2D: edge capsules; 3D: GJK |
//! | **ellipsoid** | scaled to the unit ball | GJK |
//! | **cylinder** | quadratic on the side, slab on the caps | GJK |
//! | **cone** | quadratic on the side, plane of the base | GJK |
//! | **general** | GJK | GJK |
//!
//! Each kernel returns `None` where it cannot answer exactly (a flat triangle met edge-on, a
//! degenerate triangle, numbers that overflow), and the GJK ray cast answers instead: the
//! analytic answer and the GJK ray cast mean the same (first time of impact within
//! `max_toi`, outward unit normal; a ray starting inside or within the touching distance of
//! the surface is an initial overlap). Kernels run on exact geometry, GJK on the support
//! function up to its tolerance, so the two differ by the tolerance, and their hit-or-miss
//! verdicts only within it of a grazing contact. A shape with no volume (a point, a segment
//! in 3D) is hit by rays that pass within the touching distance, as GJK hits it.
//!
//! Why new [`Core`] kinds rather than a separate ray-cast method on [`Support`](crate::Support):
//! a core is *what the core is*, and the curved shapes and small hulls are exactly known
//! shapes that some query now answers without iterating. One method keeps the one place where
//! a shape states its geometry, and wrappers stay honest in one place too (a [`Posed`] moves
//! points, segments and triangles, and reports everything else as general; a [`Rounded`]
//! forwards its inner core and adds to the margin). The other queries keep treating the new
//! kinds as general until they get kernels of their own.
//!
//! [`Posed`]: crate::Posed
//! [`Rounded`]: crate::Rounded
//!
//! A core that is a polygon with fewer than three corners or mismatched normals, or a
//! polytope with fewer than four faces or mismatched offsets, is read as general: a user's
//! data that cannot be right is not trusted.

use crate::math::{Real, Vector};
use crate::shape::{Core, CorePolygon, CorePolytope};

/// The queries that the table distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Query {
    /// The boolean test: touching or overlapping.
    Intersects,
    /// The distance, alone (`distance`) or with its closest points and normal
    /// (`closest_points`): one row, so that both take the same shortcuts and agree on
    /// touching by construction.
    Distance,
    /// Penetration depth, normal and witness points, or a gap up to a prediction distance.
    Contact,
}

/// The path that answers a query for a pair of cores (see the [module docs](self)).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kernel<'a, V: Vector> {
    /// A's core is the point `a` (A's frame); B's core projects it (B's frame).
    PointOnB { a: V, b: Core<'a, V> },
    /// B's core is the point `b` (B's frame); A's core projects it (A's frame).
    PointOnA { a: Core<'a, V>, b: V },
    /// Both cores are segments (each in its own frame).
    Segments([V; 2], [V; 2]),
    /// Both cores are axis-aligned boxes, given by their half extents.
    Boxes(V, V),
    /// One core is a segment (`ends`, in its shape's frame), the other a box (`half`
    /// extents); `box_is_a` tells which is A.
    SegmentBox { ends: [V; 2], half: V, box_is_a: bool },
    /// In 2D, both cores are polygons, boxes or triangles, but not two boxes.
    Polygons(Core<'a, V>, Core<'a, V>),
    /// In 3D, `intersects` on two cores that name a point inside them (boxes, polytopes,
    /// ellipsoids, cylinders, cones): Minkowski Portal Refinement from those points (each in
    /// its shape's frame; `None`: the shape's [`Support::center`](crate::Support::center)),
    /// GJK when it gives no verdict.
    Mpr { a: Option<V>, b: Option<V> },
    /// The support-function path: GJK, and EPA for penetration.
    Gjk,
}

impl<V: Vector> Kernel<'_, V> {
    /// Whether the kernel answers the distance by a projection or a closed form
    /// ([`Pair::projection`](crate::Pair)), which `distance` and GJK's first step take before
    /// any overlap proof.
    #[inline(always)]
    pub(crate) fn projects(&self) -> bool {
        matches!(
            self,
            Kernel::PointOnB { .. }
                | Kernel::PointOnA { .. }
                | Kernel::Segments(..)
                | Kernel::SegmentBox { .. }
                | Kernel::Polygons(..)
        )
    }
}

/// The table: the kernel for `query` on cores `a` and `b`.
#[inline(always)]
pub(crate) fn kernel<'a, V: Vector>(query: Query, a: Core<'a, V>, b: Core<'a, V>) -> Kernel<'a, V> {
    let (a, b) = (trusted(a), trusted(b));
    match (a, b) {
        (Core::Point(a), b) if projects(&b) => Kernel::PointOnB { a, b },
        (a, Core::Point(b)) if projects(&a) => Kernel::PointOnA { a, b },
        (Core::Segment(a), Core::Segment(b)) => Kernel::Segments(a, b),
        (Core::Box(a), Core::Box(b)) => Kernel::Boxes(a, b),
        (Core::Segment(ends), Core::Box(half)) => {
            Kernel::SegmentBox { ends, half, box_is_a: false }
        }
        (Core::Box(half), Core::Segment(ends)) => Kernel::SegmentBox { ends, half, box_is_a: true },
        (
            Core::Box(_) | Core::Polygon(_) | Core::Triangle(_),
            Core::Box(_) | Core::Polygon(_) | Core::Triangle(_),
        ) if V::DIM == 2 && !matches!((a, b), (Core::Box(_), Core::Box(_))) => {
            Kernel::Polygons(a, b)
        }
        (a, b) if V::DIM == 3 && query == Query::Intersects => match (mpr_start(&a), mpr_start(&b))
        {
            (Some(a), Some(b)) => Kernel::Mpr { a, b },
            _ => Kernel::Gjk,
        },
        (a, b) if V::DIM == 3 && query == Query::Distance && (curved(&a) || curved(&b)) => {
            match (mpr_start(&a), mpr_start(&b)) {
                (Some(a), Some(b)) => Kernel::Mpr { a, b },
                _ => Kernel::Gjk,
            }
        }
        _ => Kernel::Gjk,
    }
}

/// Where MPR starts in a core that it takes: `Some(point)` for the kinds whose data names a
/// point inside (a box's, ellipsoid's or cylinder's centre, a cone's centroid on its axis),
/// `Some(None)` for a polytope (its shape's centre), `None` for the kinds MPR does not take.
#[inline(always)]
pub(crate) fn mpr_start<V: Vector>(core: &Core<'_, V>) -> Option<Option<V>> {
    match *core {
        Core::Box(_) | Core::Ellipsoid(_) | Core::Cylinder { .. } => Some(Some(V::ZERO)),
        Core::Cone { half_height, .. } => {
            let half = V::Real::HALF;
            Some(Some(V::from_components([V::Real::ZERO, -half_height * half, V::Real::ZERO])))
        }
        Core::Polytope(_) => Some(None),
        _ => None,
    }
}

/// Whether the core is curved (an ellipsoid, a cylinder or a cone): GJK converges linearly
/// on it, and its run to a simplex around the origin costs more than MPR's proof of overlap.
#[inline(always)]
fn curved<V: Vector>(core: &Core<'_, V>) -> bool {
    matches!(core, Core::Ellipsoid(_) | Core::Cylinder { .. } | Core::Cone { .. })
}

/// The core, or [`Core::General`] for polygon or polytope data that cannot be right.
#[inline(always)]
fn trusted<V: Vector>(core: Core<'_, V>) -> Core<'_, V> {
    match core {
        Core::Polygon(p) if !p.well_formed() || V::DIM != 2 => Core::General,
        Core::Polytope(p) if !p.well_formed() => Core::General,
        Core::Cylinder { .. } | Core::Cone { .. } if V::DIM != 3 => Core::General,
        core => core,
    }
}

/// Whether the core has an exact projection ([`Core::closest_point`]).
#[inline(always)]
fn projects<V: Vector>(core: &Core<'_, V>) -> bool {
    core.projects()
}

/// The closed-form ray cast for a shape's core and margin (see the [module docs](self)), in
/// the shape's local frame.
#[derive(Clone, Copy, Debug)]
pub(crate) enum RayKernel<'a, V: Vector> {
    /// A ball: a point core swept by `radius` (0 for a bare point).
    Ball { center: V, radius: V::Real },
    /// A capsule: a segment core swept by `radius` (0 for a bare segment).
    Capsule { ends: [V; 2], radius: V::Real },
    /// A capsule by its centre and half axis (the ends are `center ± half`): the form the
    /// ray cast places in world coordinates.
    PlacedCapsule { center: V, half: V, radius: V::Real },
    /// The box `[−h, h]` swept by `radius` (0: a plain box).
    Box { half_extents: V, radius: V::Real },
    /// A 2D polygon given by its edges, margin 0.
    Polygon(CorePolygon<'a, V>),
    /// A 2D polygon swept by `radius > 0`: the union of the core and its edges' capsules.
    RoundedPolygon(CorePolygon<'a, V>, V::Real),
    /// A 3D polytope given by its face planes, margin 0.
    Polytope(CorePolytope<'a, V>),
    /// A triangle, margin 0.
    Triangle([V; 3]),
    /// A 2D triangle swept by `radius > 0`.
    RoundedTriangle([V; 3], V::Real),
    /// An ellipsoid of these semi-axes, margin 0.
    Ellipsoid(V),
    /// A cylinder along `y`, margin 0.
    Cylinder { half_height: V::Real, radius: V::Real },
    /// A cone along `y`, margin 0.
    Cone { half_height: V::Real, radius: V::Real },
    /// The GJK ray cast on the support function.
    Gjk,
}

/// The ray-cast table: the kernel for a shape of core `core` and margin `margin`.
#[inline(always)]
pub(crate) fn ray_kernel<V: Vector>(core: Core<'_, V>, margin: V::Real) -> RayKernel<'_, V> {
    let bare = margin == V::Real::ZERO;
    match trusted(core) {
        Core::Point(center) => RayKernel::Ball { center, radius: margin },
        Core::Segment(ends) => RayKernel::Capsule { ends, radius: margin },
        Core::Box(half_extents) => RayKernel::Box { half_extents, radius: margin },
        Core::Polygon(p) if bare => RayKernel::Polygon(p),
        Core::Polygon(p) => RayKernel::RoundedPolygon(p, margin),
        Core::Polytope(p) if bare => RayKernel::Polytope(p),
        Core::Triangle(t) if bare => RayKernel::Triangle(t),
        Core::Triangle(t) if V::DIM == 2 => RayKernel::RoundedTriangle(t, margin),
        Core::Ellipsoid(radii) if bare => RayKernel::Ellipsoid(radii),
        Core::Cylinder { half_height, radius } if bare => {
            RayKernel::Cylinder { half_height, radius }
        }
        Core::Cone { half_height, radius } if bare => RayKernel::Cone { half_height, radius },
        _ => RayKernel::Gjk,
    }
}
