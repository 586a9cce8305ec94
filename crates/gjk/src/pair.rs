//! Two posed shapes: the unit every query works on, and the support function of their cores'
//! Minkowski difference.
//!
//! A [`Pair`] holds the shapes and B's pose relative to A: every query runs in A's frame, so
//! coordinates stay small near the shapes even far from the world origin. It also answers the
//! two questions every query asks first: which kernel of the dispatch table applies
//! ([`crate::dispatch`]), and what touching means for this pair ([`Tolerance`]). The queries
//! live in their own modules ([`crate::gjk`], [`crate::contact`],
//! [`crate::manifold`](mod@crate::manifold), [`crate::cast`]).

use crate::dispatch::{self, Kernel, Query};
use crate::geometry::cross;
use crate::math::{
    all_finite, along_normal_by_reciprocal, length_at_most, length_beyond, Pose, Real, Vector,
};
use crate::sat::{
    polygon_closest, segment_box_closest, with_outlines, with_polygons, Closest, PolygonGap,
};
use crate::shape::Core;
use crate::shape::{closest_on_segments, offset_from_core, Support};
use crate::simplex::SupportPoint;
use crate::tolerance::Tolerance;

/// Two shapes and their poses: the unit every query works on.
///
/// ```
/// use gjk::{Ball, Cuboid, Pair, Pose};
/// use glam::Vec2;
/// let ball = Ball::<Vec2>::new(1.0).unwrap();
/// let boxed = Cuboid::new(Vec2::new(1.0, 1.0)).unwrap();
/// let pair = Pair::new(&ball, Pose::IDENTITY, &boxed,
///     Pose::from_translation(Vec2::new(4.0, 0.0)).unwrap());
/// assert!(!pair.intersects());
/// assert!((pair.distance() - 2.0).abs() < 1e-5);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Pair<'s, V: Vector, A: ?Sized, B: ?Sized> {
    pub(crate) a: &'s A,
    pub(crate) b: &'s B,
    pub(crate) pose_a: Pose<V>,
    /// B's pose in A's frame.
    pub(crate) relative: Pose<V>,
}

impl<'s, V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized> Pair<'s, V, A, B> {
    /// Shape `a` at `pose_a` and shape `b` at `pose_b`.
    #[inline]
    pub fn new(a: &'s A, pose_a: Pose<V>, b: &'s B, pose_b: Pose<V>) -> Self {
        Self { a, b, pose_a, relative: pose_a.relative(&pose_b) }
    }

    /// Shape A.
    pub fn a(&self) -> &'s A {
        self.a
    }

    /// Shape B.
    pub fn b(&self) -> &'s B {
        self.b
    }

    /// A's pose: the query frame's place in the world.
    pub fn pose_a(&self) -> &Pose<V> {
        &self.pose_a
    }

    /// B's pose seen from A's frame.
    pub fn relative_pose(&self) -> &Pose<V> {
        &self.relative
    }

    /// The support point of the cores' Minkowski difference `A − B` along `dir`, in A's frame.
    #[inline]
    pub fn support(&self, dir: V) -> SupportPoint<V> {
        self.support_hinted(dir, &mut [0; 2])
    }

    /// [`Pair::support`] with search hints for A and B (see [`Support::support_hinted`]).
    #[inline]
    pub fn support_hinted(&self, dir: V, hints: &mut [u32; 2]) -> SupportPoint<V> {
        let a = self.a.support_hinted(dir, &mut hints[0]);
        let dir_b = self.relative.inverse_transform_vector(-dir);
        let b_local = self.b.support_hinted(dir_b, &mut hints[1]);
        SupportPoint::new(a, self.relative.transform_point(b_local), b_local)
    }

    /// The dispatch table's kernel for `query` on this pair's cores ([`crate::dispatch`]).
    #[inline(always)]
    pub(crate) fn kernel(&self, query: Query) -> Kernel<'s, V> {
        dispatch::kernel(query, self.a.core(), self.b.core())
    }

    /// The closest points of the cores as one support point pair, when the kernel is a
    /// projection (one core a point, the other projecting it exactly), the segment pair
    /// (capsule against capsule) or a segment and a box (capsule against box); `None` for the
    /// other kernels, or when the kernel declines the numbers.
    #[inline(always)]
    pub(crate) fn projection(&self, kernel: &Kernel<'_, V>) -> Option<Projected<V>> {
        let rel = &self.relative;
        match *kernel {
            Kernel::PointOnB { a, b } => {
                let a_in_b = rel.inverse_transform_point(a);
                let (b_local, offset) = offset_from_core(&b, a_in_b)?;
                // The gap is measured in B's frame, where the projection is exact (a face
                // region leaves its tangent components exactly zero), then rotated: `a − b` in
                // A's frame would carry the rounding of both poses, large against a small gap.
                let w = rel.transform_vector(offset);
                let points = SupportPoint { w, a, b: rel.transform_point(b_local), b_local };
                Some(Projected { points, gap: offset })
            }
            Kernel::PointOnA { a, b: b_local } => {
                let b = rel.transform_point(b_local);
                let (on_a, offset) = offset_from_core(&a, b)?;
                Some(Projected::in_a(SupportPoint { w: -offset, a: on_a, b, b_local }))
            }
            Kernel::Segments(ends_a, ends_b_local) => {
                Some(Projected::in_a(self.segments(ends_a, ends_b_local)))
            }
            Kernel::SegmentBox { ends, half, box_is_a } => {
                let c = segment_box_closest(self.segment_in_box(ends, box_is_a), half)?;
                let points = self.segment_box_support(&c, ends, box_is_a);
                Some(Projected { points, gap: c.gap() })
            }
            Kernel::Polygons(a, b) => match self.polygon_gap(&a, &b)? {
                PolygonGap::Apart(p) => Some(Projected::in_a(p)),
                // Overlapping cores have no closest points to project to: GJK finds a point
                // of the overlap.
                PolygonGap::Overlap => None,
            },
            _ => None,
        }
    }

    /// Two 2D polygon cores (polygons, boxes, triangles): overlapping, or apart with their
    /// exact closest points ([`polygon_closest`]); `None` when the kernel declines (a
    /// triangle of no area, numbers that overflow).
    #[inline(always)]
    pub(crate) fn polygon_gap(&self, a: &Core<'_, V>, b: &Core<'_, V>) -> Option<PolygonGap<V>> {
        // Two triangles: the closed form over their corner–edge pairs costs less than the
        // walk and its certificate (docs/benchmarks.md, issue 16, branch `tri2d`).
        if let (Core::Triangle(a), Core::Triangle(b)) = (a, b) {
            return crate::sat::triangle_closest(*a, *b, &self.relative);
        }
        // The walk starts where D faces the origin: along the line from A's centre to B's.
        let toward = self.relative.transform_point(self.b.center()) - self.a.center();
        // The coordinates' scale, for the rounding the walk's certificate allows.
        // (An extent is measured from its shape's centre.)
        let reach = |extent: V::Real, center: V| extent + center.max_abs();
        let size = reach(self.a.extent(), self.a.center())
            + reach(self.b.extent(), self.b.center())
            + self.relative.translation().max_abs();
        with_outlines(a, b, |a, b| polygon_closest(a, b, &self.relative, toward, size))?
    }

    /// The cores' exact distance for two 2D polygon cores (0 when they overlap); `None` when
    /// the kernel declines ([`Pair::polygon_gap`]).
    #[inline(always)]
    pub(crate) fn polygon_distance(&self, a: &Core<'_, V>, b: &Core<'_, V>) -> Option<V::Real> {
        Some(match self.polygon_gap(a, b)? {
            PolygonGap::Apart(p) => p.w.length(),
            PolygonGap::Overlap => V::Real::ZERO,
        })
    }

    /// The closest points of a segment core (`ends`, in its shape's frame) and a box core
    /// from the kernel's answer `c` (box frame, [`segment_box_closest`]).
    #[inline(always)]
    pub(crate) fn segment_box_support(
        &self,
        c: &Closest<V>,
        [p, q]: [V; 2],
        box_is_a: bool,
    ) -> SupportPoint<V> {
        // The segment's point from its own shape's ends (one rounding), the box's from the
        // box frame; the gap is measured in the box's frame, where each coordinate is exact
        // (0 within a slab, an excess over a face otherwise), then rotated (as for a point
        // core: `a − b` would carry both poses' rounding).
        let (zero, one) = (V::Real::ZERO, V::Real::ONE);
        let own = if c.t == zero {
            p
        } else if c.t == one {
            q
        } else {
            p + (q - p) * c.t
        };
        let rel = &self.relative;
        if box_is_a {
            SupportPoint { w: -c.gap(), a: c.on_box, b: c.on_segment, b_local: own }
        } else {
            let w = rel.transform_vector(c.gap());
            SupportPoint { w, a: own, b: rel.transform_point(c.on_box), b_local: c.on_box }
        }
    }

    /// The closest points of two segment cores (B's ends in B's frame), by their closed form.
    /// Not on [`Vector::Packed`] as [`Pair::segments_gap`] is: the four points'
    /// conversions back from `Vec3A` cost f32 capsule contacts 65 ns against 53 (wall time,
    /// docs/benchmarks.md, "Stop 27 merged"), though they saved instructions.
    #[inline(always)]
    fn segments(&self, ends_a: [V; 2], ends_b: [V; 2]) -> SupportPoint<V> {
        segments(&self.relative, ends_a, ends_b)
    }

    /// The gap `w` of two segment cores (B's ends in B's frame): [`Pair::segments`]'s `w`
    /// without the witness points, which `distance` and `intersects` do not need. Computed
    /// on [`Vector::Packed`] (glam's SIMD `Vec3A` for `Vec3`: the same arithmetic in the same
    /// order, so the same bits, in fewer instructions).
    #[inline(always)]
    pub(crate) fn segments_gap(&self, [p0, p1]: [V; 2], [q0, q1]: [V; 2]) -> V::Packed {
        segments_gap(
            &self.relative.to_packed(),
            [p0.to_packed(), p1.to_packed()],
            [q0.to_packed(), q1.to_packed()],
        )
    }

    /// [`Pair::touching`] for cores `|w|` apart, decided from `ll = |w|²` when it can be
    /// ([`length_at_most`], [`length_beyond`]): `Some` when `ll` alone settles it, `None` when
    /// the square root is needed. Half the capsule pairs of a scene overlap, and many of the
    /// others lie well apart: the square root, the last link of the closed form's dependency
    /// chain, is then skipped, with the same verdict.
    #[inline(always)]
    pub(crate) fn touching_squared(&self, ll: V::Real, relative: V::Real) -> Option<bool> {
        let margins = self.margins();
        if length_at_most(ll, margins) {
            return Some(true);
        }
        if length_beyond(ll, margins + self.touch_bound(relative)) {
            return Some(false);
        }
        None
    }

    /// [`Pair::projection`] reduced to the cores' distance, for the plain queries (no `Run` to
    /// set up).
    #[inline(always)]
    pub(crate) fn projected_distance(&self, kernel: &Kernel<'_, V>) -> Option<V::Real> {
        // A point core against B: only the gap's length is wanted, which B's frame gives
        // without rotating back.
        match *kernel {
            Kernel::PointOnB { a, b } => {
                let a_in_b = self.relative.inverse_transform_point(a);
                Some(offset_from_core(&b, a_in_b)?.1.length())
            }
            Kernel::Segments(ends_a, ends_b_local) => {
                Some(self.segments_gap(ends_a, ends_b_local).length())
            }
            // The gap's length in the box's frame, without rotating it back.
            Kernel::SegmentBox { ends, half, box_is_a } => {
                let ends = self.segment_in_box(ends, box_is_a);
                Some(segment_box_closest(ends, half)?.gap().length())
            }
            // Two 2D polygons: one pass proves the overlap (0) or finds the closest points,
            // for less than the separating-axis test's search over both polygons' normals.
            Kernel::Polygons(a, b) => self.polygon_distance(&a, &b),
            _ => Some(self.projection(kernel)?.distance()),
        }
    }

    /// The separating-axis test's largest separation, when the kernel is box SAT or polygon
    /// SAT: positive, a lower bound of the cores' distance; otherwise minus their penetration
    /// depth.
    #[inline(always)]
    pub(crate) fn axis_gap(&self, kernel: &Kernel<'_, V>) -> Option<V::Real> {
        let rel = &self.relative;
        match kernel {
            Kernel::Boxes(a, b) => Some(crate::sat::box_separation(*a, *b, rel)),
            // Two triangles: the test unrolled, without laying them out as polygons.
            Kernel::Polygons(Core::Triangle(a), Core::Triangle(b)) => {
                crate::sat::triangle_separation(*a, *b, rel)
            }
            Kernel::Polygons(a, b) => {
                with_polygons(a, b, |a, b| crate::sat::polygon_separation(a, b, rel))
            }
            Kernel::SegmentBox { ends, half, box_is_a } => {
                crate::sat::segment_box_separation(self.segment_in_box(*ends, *box_is_a), *half)
            }
            _ => None,
        }
    }

    /// A segment core's ends (in its shape's frame) in the frame of the box core it meets:
    /// B's frame when the box is B, A's when it is A.
    #[inline(always)]
    pub(crate) fn segment_in_box(&self, [p, q]: [V; 2], box_is_a: bool) -> [V; 2] {
        let rel = &self.relative;
        if box_is_a {
            [rel.transform_point(p), rel.transform_point(q)]
        } else {
            [rel.inverse_transform_point(p), rel.inverse_transform_point(q)]
        }
    }

    /// Whether cores `core_distance` apart touch for the relative tolerance `relative`
    /// ([`Tolerance::touching`]). The pair's size is bounded first without rotating B's
    /// centre or taking a square root (`|t + R c_b − c_a|₂ ≤ |t|₁ + |c_b|₁ + |c_a|₁`): only a
    /// gap inside that bound needs the exact rule.
    #[inline(always)]
    pub(crate) fn touching(&self, core_distance: V::Real, relative: V::Real) -> bool {
        let margins = self.margins();
        if core_distance <= margins {
            return true;
        }
        core_distance <= margins + self.touch_bound(relative)
            && self.tolerance(relative).touching(core_distance, margins)
    }

    /// An upper bound of the touching distance of [`Pair::tolerance`], without rotating B's
    /// centre or taking a square root: the size's centre distance bounded by the sum norms
    /// `|t|₁ + |c_b|₁ + |c_a|₁` (see [`Pair::touching`]).
    #[inline(always)]
    pub(crate) fn touch_bound(&self, relative: V::Real) -> V::Real {
        let offsets = self.relative.translation().abs_sum()
            + self.a.center().abs_sum()
            + self.b.center().abs_sum();
        Tolerance::new(relative, offsets + self.a.extent() + self.b.extent()).distance()
    }

    /// The pair's touching rule for the relative tolerance `relative` (see [`Tolerance`]):
    /// the size is the centres' distance plus both cores' [extents](Support::extent), the
    /// same whichever path a query takes, so that [`Pair::intersects`], [`Pair::distance`],
    /// [`Pair::closest_points`] and [`Pair::contact`] agree on touching. The distance is
    /// Euclidean so that the rule does not change when A and B swap or the scene moves.
    ///
    /// ```
    /// use gjk::{Cuboid, Pair, Pose};
    /// use glam::DVec2;
    /// let square = Cuboid::new(DVec2::ONE)?;
    /// let pair = Pair::new(&square, Pose::IDENTITY, &square,
    ///     Pose::from_translation(DVec2::new(3.0, 0.0))?);
    /// let rule = pair.tolerance(1e-6);
    /// assert_eq!(rule.size(), 3.0 + 2.0 + 2.0); // centres 3 apart, extents |h|₁ = 2 each
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    #[inline(always)]
    pub fn tolerance(&self, relative: V::Real) -> Tolerance<V::Real> {
        let centers = (self.a.center(), self.relative.transform_point(self.b.center()));
        self.tolerance_between(centers, relative)
    }

    /// [`Pair::tolerance`] with the centres of A and B (A's frame) at hand.
    #[inline(always)]
    pub(crate) fn tolerance_between(
        &self,
        (center_a, center_b): (V, V),
        relative: V::Real,
    ) -> Tolerance<V::Real> {
        // Euclidean, not the cheaper sum norm: the sum norm of the same offset differs in A's
        // and B's frames (by up to √d), so a gap between the two rules read as touching one
        // way round and apart the other (f32 ellipse and triangle 4.19 apart: touch 4.08
        // against 4.37), and moving the whole scene changed the answer.
        let size = (center_b - center_a).length() + self.a.extent() + self.b.extent();
        Tolerance::new(relative, size)
    }

    /// The sum of both shapes' margins.
    #[inline]
    pub(crate) fn margins(&self) -> V::Real {
        self.a.margin() + self.b.margin()
    }
}

/// The cores' closest points that a projection or closed form found ([`Pair::projection`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Projected<V: Vector> {
    /// The closest points, A's frame, and their gap `w = a − b`.
    pub(crate) points: SupportPoint<V>,
    /// The same gap in the frame where the kernel measured it: B's for a point core
    /// projected onto B, the box's for a segment against a box, A's (`w` itself) otherwise.
    /// `w` is this vector rotated into A's frame, and the rotation rounds its length.
    pub(crate) gap: V,
}

impl<V: Vector> Projected<V> {
    /// Closest points whose gap was measured in A's frame.
    #[inline(always)]
    fn in_a(points: SupportPoint<V>) -> Self {
        Self { points, gap: points.w }
    }

    /// The cores' distance: the length of the gap where the kernel measured it, the number
    /// [`Pair::projected_distance`] returns to the bit. Every query compares this one number
    /// with the touching rule: the length of the rotated `w` differs from it by rounding, and
    /// a pair at the edge of the touching distance then read as touching in `distance` and
    /// apart in `closest_points` (f32 ball against a box, 3.3e-11 apart against a touching
    /// distance of the same size).
    #[inline(always)]
    pub(crate) fn distance(&self) -> V::Real {
        self.gap.length()
    }
}

/// [`Pair::segments_gap`] for the relative pose `rel` (B's frame in A's).
#[inline(always)]
fn segments_gap<V: Vector>(rel: &Pose<V>, ends_a: [V; 2], ends_b_local: [V; 2]) -> V {
    let ends_b = ends_in_a(rel, ends_b_local);
    let (s, t) = closest_on_segments(ends_a, ends_b);
    let on = |[p, q]: [V; 2], u: V::Real| p + (q - p) * u;
    let w = on(ends_a, s) - on(ends_b, t);
    // As in `segments`: `distance` agrees with `gjk(Distance)` and `closest_points` to the
    // bit.
    gap_across(ends_a, ends_b, s, t, w).unwrap_or(w)
}

/// [`Pair::segments`] for the relative pose `rel` (B's frame in A's).
#[inline(always)]
fn segments<V: Vector>(rel: &Pose<V>, ends_a: [V; 2], ends_b_local: [V; 2]) -> SupportPoint<V> {
    let ends_b = ends_in_a(rel, ends_b_local);
    let (s, t) = closest_on_segments(ends_a, ends_b);
    let on = |[p, q]: [V; 2], u: V::Real| p + (q - p) * u;
    let mut p = SupportPoint::new(on(ends_a, s), on(ends_b, t), on(ends_b_local, t));
    if let Some(w) = gap_across(ends_a, ends_b, s, t, p.w) {
        p.w = w;
    }
    p
}

/// B's segment ends `[q₀, q₁]` (B's frame) in A's frame, by the relative pose `rel`.
///
/// A segment centred on its frame's origin (`q₀ = −q₁`, the usual way to pose a capsule)
/// takes one rotation: the quaternion's rotation is linear in the vector and every rounding in
/// it is symmetric in sign, so `R(−q₁) = −R(q₁)` to the bit (up to the sign of a zero), and
/// `t − R q₁` is `R q₀ + t`.
#[inline(always)]
fn ends_in_a<V: Vector>(rel: &Pose<V>, [q0, q1]: [V; 2]) -> [V; 2] {
    // Not `map(…)`: the array's `map` compiled to a loop through memory here (measured in
    // docs/benchmarks.md, "Capsule–capsule").
    if q0 == -q1 {
        let h = rel.transform_vector(q1);
        let t = rel.translation();
        return [t - h, h + t];
    }
    [rel.transform_point(q0), rel.transform_point(q1)]
}

/// The gap `w = a − b` of two segments' closest points (parameters `s` on A, `t` on B) with
/// the part that rounding of the points' coordinates put along a segment removed, where the
/// exact gap has none; `None` to keep `w`.
///
/// Interior to both segments in 3D, the gap runs along `n = d₁ × d₂`, a direction known to
/// rounding of the segments' directions, where `a − b` carries the rounding of the points'
/// coordinates (large against a small gap): only `w`'s part along `n` is kept. Interior to
/// one segment only (the other's end, or a segment of no length: a capsule that is a ball),
/// the gap is orthogonal to that segment: its part along it is removed. In f32 the point of
/// a segment 13 long carried 1e-6 along it against a gap of 0.015, and the normal came out
/// 5e-5 rad off, which tilts the long segment by 3.5e-4 across it
/// (`f32_ball_against_a_long_segment_gets_the_perpendicular_normal`).
#[inline(always)]
fn gap_across<V: Vector>(
    ends_a: [V; 2],
    ends_b: [V; 2],
    s: V::Real,
    t: V::Real,
    w: V,
) -> Option<V> {
    let (zero, one) = (V::Real::ZERO, V::Real::ONE);
    let (inside_a, inside_b) = (s > zero && s < one, t > zero && t < one);
    let (d1, d2) = (ends_a[1] - ends_a[0], ends_b[1] - ends_b[0]);
    if V::DIM == 3 && inside_a && inside_b {
        return along_normal_by_reciprocal(cross(d1, d2), w);
    }
    let axis = match (inside_a, inside_b) {
        (_, true) => d2,
        (true, false) => d1,
        (false, false) => return None,
    };
    let across = w - along_normal_by_reciprocal(axis, w)?;
    all_finite(across).then_some(across)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DQuat, Vec3};

    /// A centred segment's ends by one rotation are both ends transformed, to the bit (up to
    /// the sign of a zero: `==` on the coordinates), in `f64`, `f32` and on `Vec3A`; an
    /// off-centre segment takes the two transforms.
    #[test]
    fn centred_ends_take_one_rotation_and_give_the_same_bits() {
        use crate::test_rng::{Draw, Rng};
        let mut rng = Rng::new(29);
        for _ in 0..20_000 {
            let axis = rng.on_sphere();
            let q = DQuat::from_axis_angle(axis, rng.unit() * 7.0);
            let rel = Pose::from_rotation_translation(q, rng.in_cube() * 30.0);
            let end = rng.in_cube() * 3.0;
            for ends in [[-end, end], [end * 0.5, end]] {
                let both = ends.map(|p| rel.transform_point(p));
                assert_eq!(ends_in_a(&rel, ends), both, "{rel:?} {ends:?}");
            }
            let rel = Pose::from_rotation_translation(q.as_quat(), rel.translation().as_vec3());
            let ends = [-end.as_vec3(), end.as_vec3()];
            let both = ends.map(|p| rel.transform_point(p));
            assert_eq!(ends_in_a(&rel, ends), both);
            let packed = ends_in_a(&rel.to_packed(), ends.map(Vec3::to_packed));
            assert_eq!(packed.map(Vec3::from_packed), both);
        }
    }
}
