//! Penetration by the separating-axis test, without GJK or EPA, for cores whose Minkowski
//! difference has its face normals on a short list: two boxes (module `boxes`), two convex
//! polygons in 2D (module `polygons`; two triangles unrolled in module `triangles`), and a segment against a box (module `segment_box`).
//!
//! Along a unit axis `n` the support value `h_D(n)` of the Minkowski difference `D = A − B` is
//! the overlap of the two shapes' projections onto `n`. A negative value is a separating axis.
//! Otherwise the penetration depth — the distance from the origin to the boundary of `D` — is
//! the smallest `h_D` over any list of directions that contains every face normal of `D`: the
//! depth is the smallest distance to a face plane, and no direction at all has `h_D(n)` below
//! the depth (the ball of that radius around the origin lies in `D`). So the minimum over the
//! list is exact, not an estimate.

mod boxes;
mod polygon_closest;
mod polygons;
mod segment_box;
mod triangles;

pub(crate) use boxes::{box_axes, box_pair, box_separation, BoxAxes};
pub(crate) use polygon_closest::{polygon_closest, PolygonGap};
pub(crate) use polygons::{polygon_pair, polygon_separation, with_outlines, with_polygons};
pub(crate) use segment_box::{segment_box, segment_box_closest, segment_box_separation, Closest};
pub(crate) use triangles::{triangle_closest, triangle_separation};

use crate::math::Vector;

/// What the separating-axis test found, in A's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum AxisTest<V: Vector> {
    /// A separating axis: the cores are at least `gap` apart (a lower bound of the distance).
    Apart {
        /// The largest separation found along an axis.
        gap: V::Real,
    },
    /// The cores overlap (or touch: `depth` may be 0).
    Overlap {
        /// The penetration depth.
        depth: V::Real,
        /// The unit normal from A toward B: moving B by `depth × normal` separates them.
        normal: V,
        /// A point of A deepest in B: `point_a − point_b = depth × normal`.
        point_a: V,
        /// A point of B deepest in A.
        point_b: V,
    },
}
