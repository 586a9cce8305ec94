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
//! | core A \ core B | point | segment | box | polygon (2D) | general |
//! |---|---|---|---|---|---|
//! | **point**   | projection | projection | projection | projection | GJK |
//! | **segment** | projection | segment pair | GJK | GJK | GJK |
//! | **box**     | projection | GJK | box SAT | polygon SAT (2D) | GJK |
//! | **polygon** | projection | GJK | polygon SAT | polygon SAT | GJK |
//! | **general** | GJK | GJK | GJK | GJK | GJK |
//!
//! Per query:
//! * **projection** (one core a point, the other projecting points exactly,
//!   [`Core::closest_point`]): the cores' closest points, hence every query's answer; in
//!   `contact`, a point inside the other core exits by [`Core::nearest_boundary`] (a segment
//!   core has no interior: EPA answers there).
//! * **segment pair** (capsules): the closed form of two segments' closest points for every
//!   query; `contact` hands touching or crossing cores to EPA.
//! * **box SAT** (separating-axis test over face normals and, in 3D, edge pairs): `intersects`
//!   and `contact` exactly when the cores overlap, and when they are farther apart than margins
//!   plus the touching distance (plus the prediction distance, for `contact`); in between GJK
//!   measures the gap; `distance` only for cores overlapping beyond the touching
//!   distance (GJK measures gaps, so that it agrees with `closest_points` to the bit);
//!   `closest_points` runs GJK (it needs the witnesses of a gap).
//! * **polygon SAT** (2D, edge normals of both polygons, a box laid out as four corners):
//!   `intersects` and `contact` as for boxes; `distance` and `closest_points` run GJK (the test
//!   costs more than it saves there: measured in docs/benchmarks.md).
//! * **GJK**: the support-function path for everything else, EPA for `contact` when the cores
//!   overlap. The casts ([`ray_cast`](crate::ray_cast()), [`shape_cast`](crate::shape_cast()))
//!   take the GJK ray cast for every pair; their initial overlap is a `contact`.
//!
//! * **manifold** ([`manifold`](crate::manifold())): no row of its own. It runs `contact` (so
//!   the table above picks its normal: box SAT, polygon SAT, a projection, GJK or EPA), then
//!   clips the two shapes' supporting features along that normal
//!   ([`Support::feature`](crate::Support::feature), whose default is derived from the same
//!   core: a box's face, a polygon's edge, a segment, a point; general cores give their support
//!   point, hence one contact point, unless the shape overrides it: hulls, cylinders,
//!   cones, triangles). See [`crate::manifold`] for the clipping and reduction.
//!
//! A core that is a polygon with fewer than three corners or mismatched normals is read as
//! general: a user's data that cannot be right is not trusted.

use crate::math::Vector;
use crate::shape::Core;

/// The queries that the table distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Query {
    /// The boolean test: touching or overlapping.
    Intersects,
    /// The distance alone.
    Distance,
    /// The distance with closest points and normal (the GJK result).
    ClosestPoints,
    /// Penetration depth, normal and witness points, or a gap up to a prediction distance.
    Contact,
}

/// The path that answers a query for a pair of cores (see the [module docs](self)).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kernel<'a, V> {
    /// A's core is the point `a` (A's frame); B's core projects it (B's frame).
    PointOnB { a: V, b: Core<'a, V> },
    /// B's core is the point `b` (B's frame); A's core projects it (A's frame).
    PointOnA { a: Core<'a, V>, b: V },
    /// Both cores are segments (each in its own frame).
    Segments([V; 2], [V; 2]),
    /// Both cores are axis-aligned boxes, given by their half extents.
    Boxes(V, V),
    /// In 2D, both cores are polygons or boxes, but not two boxes.
    Polygons(Core<'a, V>, Core<'a, V>),
    /// The support-function path: GJK, and EPA for penetration.
    Gjk,
}

/// The table: the kernel for `query` on cores `a` and `b`.
#[inline(always)]
pub(crate) fn kernel<'a, V: Vector>(query: Query, a: Core<'a, V>, b: Core<'a, V>) -> Kernel<'a, V> {
    let (a, b) = (trusted(a), trusted(b));
    match (a, b) {
        (Core::Point(a), b) if projects(&b) => Kernel::PointOnB { a, b },
        (a, Core::Point(b)) if projects(&a) => Kernel::PointOnA { a, b },
        (Core::Segment(a), Core::Segment(b)) => Kernel::Segments(a, b),
        (Core::Box(a), Core::Box(b)) if query != Query::ClosestPoints => Kernel::Boxes(a, b),
        (Core::Box(_) | Core::Polygon(_), Core::Box(_) | Core::Polygon(_))
            if V::DIM == 2 && matches!(query, Query::Intersects | Query::Contact) =>
        {
            Kernel::Polygons(a, b)
        }
        _ => Kernel::Gjk,
    }
}

/// The core, or [`Core::General`] for polygon data that cannot be right.
#[inline(always)]
fn trusted<V: Vector>(core: Core<'_, V>) -> Core<'_, V> {
    match core {
        Core::Polygon(p) if !p.well_formed() || V::DIM != 2 => Core::General,
        core => core,
    }
}

/// Whether the core has an exact projection ([`Core::closest_point`]).
#[inline(always)]
fn projects<V: Vector>(core: &Core<'_, V>) -> bool {
    !core.is_general()
}
