//! What a shape's core is, and the exact kernels that the dispatch table runs on cores.
//!
//! A shape tells its core in one method, [`Support::core`](super::Support::core). The kinds
//! here are the ones that some query answers without iterating (see [`crate::dispatch`]);
//! everything else is [`Core::General`], known by its support function alone. Each kernel
//! below is written once, for the kind, not once per shape.

use crate::math::{Real, Vector};

/// What a shape's core is, in the shape's local frame: the answer of
/// [`Support::core`](super::Support::core).
///
/// The dispatch table ([`crate::dispatch`]) picks a query's path from the cores of both
/// shapes: a point against a box is one projection, two segments a closed form, two boxes the
/// separating-axis test. The data must describe the core exactly (the same set that
/// [`Support::support`](super::Support::support) spans): the shortcuts trust it. A wrapper
/// that moves or turns its shape maps the data into its own frame or answers
/// [`Core::General`].
///
/// ```
/// use gjk::{Capsule, Core, Cuboid, Support};
/// use glam::Vec3;
/// let capsule = Capsule::new(Vec3::ZERO, Vec3::Y, 0.5)?;
/// assert_eq!(capsule.core(), Core::Segment([Vec3::ZERO, Vec3::Y]));
/// let crate_box = Cuboid::new(Vec3::ONE)?;
/// assert_eq!(crate_box.core(), Core::Box(Vec3::ONE));
/// # Ok::<(), gjk::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Core<'a, V: Vector> {
    /// A single point (balls, points).
    Point(V),
    /// The segment between two points (capsules, segments).
    Segment([V; 2]),
    /// The axis-aligned box `[−h, h]` of the local frame, given by its half extents `h`
    /// (boxes, rounded boxes).
    Box(V),
    /// A convex polygon in 2D (polygons of at most 64 vertices).
    Polygon(CorePolygon<'a, V>),
    /// A convex polyhedron in 3D given by its face planes (hulls of at most 64 vertices).
    Polytope(CorePolytope<'a, V>),
    /// The triangle with these corners (solid in 2D, a flat plate in 3D).
    Triangle([V; 3]),
    /// The axis-aligned ellipse or ellipsoid `Σ (xᵢ/rᵢ)² ≤ 1`, given by its semi-axes `r`
    /// (all positive).
    Ellipsoid(V),
    /// The 3D cylinder `|y| ≤ half_height`, `x² + z² ≤ radius²`.
    Cylinder {
        /// Half the height along `y`.
        half_height: V::Real,
        /// The radius of the cross-section.
        radius: V::Real,
    },
    /// The 3D cone with its apex at `y = half_height` and its base disc of `radius` at
    /// `y = −half_height`.
    Cone {
        /// Half the height along `y`.
        half_height: V::Real,
        /// The radius of the base.
        radius: V::Real,
    },
    /// Any other core: queries use its support function (GJK, EPA).
    General,
}

/// A core that is a convex polyhedron in 3D, given by its face planes (see
/// [`Core::Polytope`]): the set of points `x` with `normals[i] · x ≤ offsets[i]` for every
/// face `i`.
///
/// Queries use it only when it has at least four faces and one offset per normal; otherwise
/// they take the general path. The normals must be the faces' outward unit normals and the
/// planes must bound exactly the shape that [`Support::support`](super::Support::support)
/// spans (up to rounding).
///
/// ```
/// use gjk::{Core, Polytope, Support};
/// use glam::DVec3;
/// let corners = (0..8).map(|i| DVec3::new((i & 1) as f64, ((i >> 1) & 1) as f64,
///     ((i >> 2) & 1) as f64)).collect();
/// let cube = Polytope::new(corners)?;
/// let Core::Polytope(core) = cube.core() else { unreachable!() };
/// assert_eq!(core.normals.len(), 12); // two triangles per square face
/// # Ok::<(), gjk::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CorePolytope<'a, V: Vector> {
    /// The outward unit normal of each face.
    pub normals: &'a [V],
    /// Each face's plane offset: `normals[i] · x = offsets[i]` on face `i`.
    pub offsets: &'a [V::Real],
}

impl<V: Vector> CorePolytope<'_, V> {
    /// Whether the data can be used: a solid (at least four faces), one offset per normal.
    #[inline]
    pub(crate) fn well_formed(&self) -> bool {
        V::DIM == 3 && self.normals.len() >= 4 && self.normals.len() == self.offsets.len()
    }
}

/// A core that is a convex polygon in the plane (see [`Core::Polygon`]).
///
/// Queries use it only when it has at least three corners and as many normals; otherwise
/// they take the general GJK and EPA path. The corners must be counter-clockwise and the
/// normals the edges' outward unit normals: the answers are only as right as this data.
///
/// ```
/// use gjk::{Core, Polytope, Support};
/// use glam::Vec2;
/// let square = Polytope::new(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y])?;
/// let Core::Polygon(core) = square.core() else { unreachable!() };
/// assert_eq!(core.vertices, [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y]);
/// assert_eq!(core.normals, [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X]);
/// # Ok::<(), gjk::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CorePolygon<'a, V> {
    /// The corners, counter-clockwise, at least three.
    pub vertices: &'a [V],
    /// The outward unit normal of each edge: edge `i` runs from `vertices[i]` to
    /// `vertices[i + 1]` (cyclically).
    pub normals: &'a [V],
}

/// The way out of a core from a point inside it: see [`Core::nearest_boundary`].
///
/// `point = p + depth × normal` for the query point `p`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoreBoundary<V: Vector> {
    /// The boundary point of the core nearest to the query point.
    pub point: V,
    /// The outward unit normal of the core at `point`.
    pub normal: V,
    /// The distance from the query point to `point` (`≥ 0` for a point in the core).
    pub depth: V::Real,
}

impl<V: Vector> Core<'_, V> {
    /// Whether the core is [`Core::General`] (no kernel of its own).
    #[inline(always)]
    pub fn is_general(&self) -> bool {
        matches!(self, Core::General)
    }

    /// Whether the kind projects points exactly ([`Core::closest_point`]): points, segments,
    /// boxes, polygons, ellipsoids, cylinders and cones.
    #[inline(always)]
    pub fn projects(&self) -> bool {
        matches!(
            self,
            Core::Point(_)
                | Core::Segment(_)
                | Core::Box(_)
                | Core::Polygon(_)
                | Core::Ellipsoid(_)
                | Core::Cylinder { .. }
                | Core::Cone { .. }
        )
    }

    /// The core moved by `place` (a map of points that keeps distances: a pose), when its kind
    /// survives the move: points, segments and triangles do (they are given by their
    /// corners); the others, axis-aligned or laid out in their own frame, become
    /// [`Core::General`].
    #[inline(always)]
    pub fn moved(self, place: impl Fn(V) -> V) -> Self {
        match self {
            Core::Point(p) => Core::Point(place(p)),
            Core::Segment(ends) => Core::Segment(ends.map(place)),
            Core::Triangle(corners) => Core::Triangle(corners.map(place)),
            _ => Core::General,
        }
    }

    /// Whether the core is a polytope (a point, segment, box, polygon, hull or triangle): the
    /// Minkowski difference of two such cores is a polytope, on which the expanding polytope
    /// algorithm's answer is exact once its bounds meet (its closest facet lies on a face of
    /// the difference), so the contact query skips the Newton polish meant for curved cores.
    /// `General` answers `false`: it may be curved.
    #[inline(always)]
    pub(crate) fn is_flat(&self) -> bool {
        matches!(
            self,
            Core::Point(_)
                | Core::Segment(_)
                | Core::Box(_)
                | Core::Polygon(_)
                | Core::Polytope(_)
                | Core::Triangle(_)
        )
    }

    /// The point of the core closest to `p` (`p` itself when inside), when the kind has an
    /// exact projection ([`Core::projects`]).
    ///
    /// ```
    /// use gjk::Core;
    /// use glam::DVec2;
    /// let square = Core::Box(DVec2::ONE);
    /// assert_eq!(square.closest_point(DVec2::new(3.0, 0.5)), Some(DVec2::new(1.0, 0.5)));
    /// ```
    #[inline(always)]
    pub fn closest_point(&self, p: V) -> Option<V> {
        match self {
            Core::Point(q) => Some(*q),
            Core::Segment([a, b]) => Some(closest_on_segment(*a, *b, p)),
            // Clamping each coordinate to `[−h, h]`.
            Core::Box(h) => Some(p.zip_map(*h, |x, h| x.max(-h).min(h))),
            Core::Polygon(polygon) => polygon.well_formed().then(|| polygon.closest(p)),
            Core::Ellipsoid(radii) if ellipsoid_contains(*radii, p) => Some(p),
            Core::Ellipsoid(radii) => Some(ellipsoid_foot(*radii, p).0),
            Core::Cylinder { .. } | Core::Cone { .. } => {
                self.axial_foot(p).map(|foot| if foot.inside { p } else { foot.point })
            }
            _ => None,
        }
    }

    /// For a point `p` inside the core: the nearest point of the core's boundary, the outward
    /// unit normal there and the distance. Boxes, polygons, ellipsoids, cylinders and cones
    /// compute it (the first two and the last two exactly, the ellipsoid to rounding); a
    /// point core has no interior and answers for `p` on it; the other kinds give `None` (the
    /// expanding polytope algorithm answers).
    ///
    /// This is the penetration depth of a point in the core: with `q` the boundary point
    /// nearest to `p`, the answer is `q`, `n` and `depth = |q − p| ≥ 0`, with
    /// `q = p + depth × n`. Pushing `p` by `depth` along `n` takes it out of the core, and no
    /// shorter push does. [`contact`](crate::contact()) uses it when the other shape's core is
    /// a single point (a ball deep inside a box): `depth` plus the margins is the contact's
    /// penetration depth, answered without iterating.
    ///
    /// Callers ask for points in the core or within rounding of its boundary (they use
    /// [`Core::closest_point`] first). For a point outside the core the answer is finite and
    /// its `depth` is at most 0 (for a box: minus the largest per-axis excess; for a point
    /// core: minus the distance to it), but otherwise unspecified. Ties (a point equally near
    /// several faces) are broken as each kind's kernel documents.
    ///
    /// ```
    /// use gjk::Core;
    /// use glam::DVec3;
    /// let b = Core::Box(DVec3::new(2.0, 1.0, 3.0));
    /// let exit = b.nearest_boundary(DVec3::new(0.5, -0.75, 0.0)).unwrap();
    /// assert_eq!(exit.depth, 0.25);                          // the −y face is nearest …
    /// assert_eq!(exit.normal, DVec3::NEG_Y);                 // … and faces outward
    /// assert_eq!(exit.point, DVec3::new(0.5, -1.0, 0.0));
    /// ```
    #[inline(always)]
    pub fn nearest_boundary(&self, p: V) -> Option<CoreBoundary<V>> {
        match self {
            Core::Point(q) => Some(point_exit(*q, p)),
            Core::Box(h) => Some(box_exit(*h, p)),
            Core::Polygon(polygon) => polygon.well_formed().then(|| polygon.nearest_exit(p)),
            Core::Ellipsoid(radii) => {
                let (point, normal) = ellipsoid_foot(*radii, p);
                Some(CoreBoundary { point, normal, depth: normal.dot(point - p) })
            }
            Core::Cylinder { half_height, radius } => Some(cylinder_exit(*half_height, *radius, p)),
            Core::Cone { half_height, radius } => Some(cone_exit(*half_height, *radius, p)),
            _ => None,
        }
    }
}

/// A point core has no interior: its boundary is the point `q` itself, at depth 0 from a query
/// point on it, and every direction is an outward normal there (the normal cone of a point is
/// the whole space). The answer picks `+x` of the frame, always, so that coincident centres
/// (ball against ball, the gap within rounding) get a deterministic contact normal; `depth` is
/// minus the distance from `p` to `q`, so the contact's depth stays the margins minus the gap.
#[inline(always)]
fn point_exit<V: Vector>(q: V, p: V) -> CoreBoundary<V> {
    let d = p - q;
    // `n · d` is `|d|` without the overflow of `|d|²` for huge coordinates.
    let depth = -d.direction().map_or(V::Real::ZERO, |n| n.dot(d));
    CoreBoundary { point: q, normal: V::axis(0), depth }
}

/// The nearest face of the box `[−h, h]`. From `p` inside the box, face `±i` (the plane
/// `xᵢ = ±hᵢ`) is `hᵢ ∓ pᵢ` away, so the nearest face is the one of the smallest `hᵢ − |pᵢ|`,
/// on the side of `pᵢ`'s sign. Its nearest point is `p` with coordinate `i` set to `±hᵢ` —
/// inside that face, since every other `|pⱼ| ≤ hⱼ`, hence on the boundary — and no boundary
/// point is nearer: the boundary is the union of the faces, and every face's points are at
/// least their plane's distance away. The point is exact (one coordinate replaced) and so is
/// the depth (one subtraction).
///
/// Ties go to the lowest axis, then to the `+` side (`pᵢ = 0`, `−0` included): the centre of
/// a cube exits through `+x`. For a point outside the box this returns the face it is
/// farthest outside of, with `depth = −`(that excess).
#[inline(always)]
fn box_exit<V: Vector>(h: V, p: V) -> CoreBoundary<V> {
    let mut axis = 0;
    let mut depth = h.component(0) - p.component(0).abs();
    for i in 1..V::DIM {
        let d = h.component(i) - p.component(i).abs();
        if d < depth {
            axis = i;
            depth = d;
        }
    }
    let side = if p.component(axis) < V::Real::ZERO { -V::Real::ONE } else { V::Real::ONE };
    let exit = h.component(axis) * side;
    let coords = [0, 1, 2].map(|i| if i == axis { exit } else { p.component(i) });
    CoreBoundary { point: V::from_components(coords), normal: V::axis(axis) * side, depth }
}

// A disc against a polygon is the most common 2D query. Its answer is one point projection
// onto the polygon: outside, the nearest point of the nearest edge; inside, the way out
// through the edge whose line is nearest. A scan of the edges answers both exactly, in a few
// arithmetic operations per edge — a fraction of what GJK's loop (or EPA, for a disc centre
// inside) spends on the same question.
//
// Why the scans are right, for a convex polygon `P` with outward unit edge normals `nᵢ` and
// edge lines `nᵢ·x = cᵢ`, and the excess `sᵢ(p) = nᵢ·p − cᵢ`:
// - `p ∈ P` exactly when every `sᵢ(p) ≤ 0` (`P` is the intersection of the edges' half
//   planes);
// - outside, the nearest point of `P` lies on the boundary, which is the union of the edges,
//   so the nearest of the edges' nearest points is the answer;
// - inside, the distance to the boundary is `minᵢ −sᵢ(p)`: every boundary point lies on some
//   edge's line, at least `−sᵢ` away, and the foot of the perpendicular to the nearest line,
//   `p − sᵢ nᵢ`, lies in `P` (it is no farther out than `p` for every other edge, by the
//   choice of the nearest one), hence on that edge.
impl<V: Vector> CorePolygon<'_, V> {
    /// Whether the data can be used: at least three corners and one normal per edge. A user's
    /// shape whose answer is not is left to the general path rather than trusted.
    #[inline]
    pub(crate) fn well_formed(&self) -> bool {
        self.vertices.len() >= 3 && self.normals.len() == self.vertices.len()
    }

    /// Edge `i`'s ends.
    #[inline]
    fn ends(&self, i: usize) -> (V, V) {
        let next = if i + 1 == self.vertices.len() { 0 } else { i + 1 };
        (self.vertices[i], self.vertices[next])
    }

    /// The edge whose line `p` lies farthest outside of, and by how much (`≤ 0`: `p` inside).
    /// Ties go to the first such edge.
    #[inline]
    fn largest_excess(&self, p: V) -> (usize, V::Real) {
        let mut best = (0, -V::Real::INFINITY);
        for (i, (normal, &corner)) in self.normals.iter().zip(self.vertices).enumerate() {
            let excess = normal.dot(p - corner);
            if excess > best.1 {
                best = (i, excess);
            }
        }
        best
    }

    /// `p` itself inside, otherwise the nearest of the edges' nearest points, by a scan of the
    /// edges (the polygons that have this core are small). Only edges that `p` lies strictly
    /// outside of can hold the nearest point `q`: inside an edge, `p − q` is that edge's
    /// normal times `|p − q|`; at a corner, `p − q` lies in the cone of the two edges' normals,
    /// so one of them has a positive excess. The others are skipped, and when every edge is
    /// skipped `p` is inside: one pass answers both cases.
    ///
    /// The skip trusts the sign of each excess, which rounding decides for a point within
    /// rounding of an edge's line. On a sliver (a nearly collinear point set, f32: every
    /// normal the same up to sign and rounding) a point on the polygon can sit a rounding unit
    /// outside a far edge's line and inside its own edge's: the far edge's point was the
    /// answer, 0.40 away on a polygon 0.42 long (`f32_point_on_a_collinear_polygon_touches`).
    /// Exactly, the answer's gap `d` and the largest excess `e` satisfy `d ≤ e / cos(α/2)` for
    /// the exterior angle `α` at the nearest corner (`d = e` on an edge); a gap more than four
    /// times the excess (`α` beyond 151°: sliver tips, or rounding) is checked by the nearest
    /// of all edges' points instead, the boundary's nearest point, which is the answer for
    /// any point outside and within rounding of it for one classified outside by rounding.
    #[inline]
    fn closest(&self, p: V) -> V {
        self.closest_on_edge(p).0
    }

    /// [`CorePolygon::closest`] and the edge that holds the nearest point (`None`: `p` is
    /// inside, its own nearest point). Always inlined: left to the compiler, one more caller
    /// (`closest_points`' projection) moved it out of line, and a circle against an octagon
    /// cost 23–36 more instructions a query in every query; inlined, 13–18 fewer than before
    /// (docs/benchmarks.md, "Closest points").
    #[inline(always)]
    fn closest_on_edge(&self, p: V) -> (V, Option<usize>) {
        let mut best = (V::Real::INFINITY, p, None);
        let mut excess = V::Real::ZERO;
        for i in 0..self.vertices.len() {
            let e = self.normals[i].dot(p - self.vertices[i]);
            if e <= V::Real::ZERO {
                continue;
            }
            excess = excess.max(e);
            let (start, end) = self.ends(i);
            let q = closest_on_segment(start, end, p);
            let gap2 = (p - q).length_squared();
            if gap2 < best.0 {
                best = (gap2, q, Some(i));
            }
        }
        if best.0.is_finite() && best.0 > V::Real::from_f64(16.0) * excess * excess {
            best = self.nearest_of_edges(p, best);
        }
        (best.1, best.2)
    }

    /// The nearest of every edge's nearest point to `p` (or `best`, a gap², point and edge,
    /// when none is nearer): the boundary's nearest point ([`CorePolygon::closest`]'s check).
    #[cold]
    #[inline(never)]
    fn nearest_of_edges(
        &self,
        p: V,
        mut best: (V::Real, V, Option<usize>),
    ) -> (V::Real, V, Option<usize>) {
        for i in 0..self.vertices.len() {
            let (start, end) = self.ends(i);
            let q = closest_on_segment(start, end, p);
            let gap2 = (p - q).length_squared();
            if gap2 < best.0 {
                best = (gap2, q, Some(i));
            }
        }
        best
    }

    /// The way out through the edge whose line is nearest to `p` (ties: the first such edge
    /// in the corners' order).
    #[inline]
    fn nearest_exit(&self, p: V) -> CoreBoundary<V> {
        let (i, excess) = self.largest_excess(p);
        let normal = self.normals[i];
        CoreBoundary { point: p - normal * excess, normal, depth: -excess }
    }
}

/// The point `q` of the core closest to `p` and the offset `p − q` ([`Core::closest_point`]).
///
/// On a segment's interior (or a polygon edge's) the offset is orthogonal to the axis; the computed `q` carries
/// rounding of the coordinates' size along it, large against a small offset (a ball's
/// centre 1e-3 from a capsule's axis 16 from the origin: the f32 normal came out 1.5e-4 rad
/// off, and pushing by the depth left 4e-4 of overlap across the capsule's length). The
/// axial part is removed: the offset's direction is then as good as the axis's.
#[inline(always)]
pub(crate) fn offset_from_core<V: Vector>(core: &Core<'_, V>, p: V) -> Option<(V, V)> {
    if let Core::Ellipsoid(radii) = core {
        // Outside, `p − q` is along the normal at the foot: keep only that part of it.
        if ellipsoid_contains(*radii, p) {
            return Some((p, V::ZERO));
        }
        let (q, normal) = ellipsoid_foot(*radii, p);
        return Some((q, normal * normal.dot(p - q)));
    }
    // Cylinders and cones: the offset from its parts across and along the axis, each measured
    // directly rather than as the difference of two points of the coordinates' size.
    if let Some(foot) = core.axial_foot(p) {
        return Some(if foot.inside { (p, V::ZERO) } else { (foot.point, foot.offset) });
    }
    match core {
        Core::Segment([a, b]) => Some(segment_offset(*a, *b, p)),
        // A polygon's nearest point outside lies on an edge: the same as a segment's.
        Core::Polygon(polygon) if polygon.well_formed() => match polygon.closest_on_edge(p) {
            (_, Some(i)) => {
                let (start, end) = polygon.ends(i);
                Some(segment_offset(start, end, p))
            }
            (q, None) => Some((q, p - q)),
        },
        _ => {
            let q = core.closest_point(p)?;
            Some((q, p - q))
        }
    }
}

/// The point `q` of segment `a b` closest to `p` and the offset `p − q`, orthogonal to the
/// segment when `q` lies inside it ([`offset_from_core`]).
#[inline(always)]
fn segment_offset<V: Vector>(a: V, b: V, p: V) -> (V, V) {
    let (q, along) = segment_projection(a, b, p);
    let w = p - q;
    if along > V::Real::ZERO && along < V::Real::ONE {
        let t = b - a;
        return (q, w - t * (w.dot(t) / t.length_squared()));
    }
    (q, w)
}

/// The point of segment `a b` closest to `p`.
#[inline]
pub(crate) fn closest_on_segment<V: Vector>(a: V, b: V, p: V) -> V {
    segment_projection(a, b, p).0
}

/// The point of segment `a b` closest to `p` and the unclamped parameter of `p`'s projection
/// on the line `a + s (b − a)` (0 for a point segment).
#[inline]
fn segment_projection<V: Vector>(a: V, b: V, p: V) -> (V, V::Real) {
    let t = b - a;
    let tt = t.length_squared();
    if !tt.is_positive() {
        return (a, V::Real::ZERO);
    }
    let along = (p - a).dot(t) / tt;
    (a + t * along.max(V::Real::ZERO).min(V::Real::ONE), along)
}

/// The parameters `(s, t)` of the closest points `p₀ + s (p₁ − p₀)` and `q₀ + t (q₁ − q₀)` of
/// two segments (`s, t ∈ [0, 1]`).
///
/// The squared distance is a convex quadratic in `(s, t)`. With `d₁ = p₁ − p₀`,
/// `d₂ = q₁ − q₀`, `r = p₀ − q₀` and `a = d₁·d₁`, `b = d₁·d₂`, `c = d₁·r`, `e = d₂·d₂`,
/// `f = d₂·r`, its stationary point solves `a s − b t = −c`, `b s − e t = −f`; by Cramer's
/// rule `s = (b f − c e) / (a e − b²)`. Clamping `s` to `[0, 1]`, then taking the best `t` for
/// it (`t = (b s + f) / e`) and, when that `t` must be clamped, the best `s` for the clamped
/// `t` gives the minimum over the square (the quadratic is convex, and each step minimises
/// over one parameter exactly). Parallel segments (`a e − b²` within rounding of 0) have a
/// whole interval of closest pairs: `s = 0` picks one. Points (zero-length segments) reduce
/// to point–segment projections.
#[inline(always)]
pub(crate) fn closest_on_segments<V: Vector>(
    [p0, p1]: [V; 2],
    [q0, q1]: [V; 2],
) -> (V::Real, V::Real) {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e) = (d1.length_squared(), d2.length_squared());
    // The solve multiplies four lengths (`a e`, `b f`): beyond `QUARTIC_SAFE` that overflows
    // to a NaN (f64 segments 1e80 long) or underflows to noise (f32 ones 1e-11 long). The
    // parameters do not change with the scale, so such segments are solved at unit size. The
    // sum of squares is within a factor 3 of the largest.
    let [low, high] = V::Real::QUARTIC_SAFE;
    let size2 = a + e + r.length_squared();
    if size2 >= low * low && size2 <= high * high {
        return segment_parameters(d1, d2, r, a, e);
    }
    segment_parameters_rescaled(d1, d2, r)
}

/// [`segment_parameters`] for directions and offset outside `QUARTIC_SAFE`, at unit size.
#[cold]
#[inline(never)]
fn segment_parameters_rescaled<V: Vector>(d1: V, d2: V, r: V) -> (V::Real, V::Real) {
    let size = d1.max_abs().max(d2.max_abs()).max(r.max_abs());
    if !size.is_positive() {
        return (V::Real::ZERO, V::Real::ZERO);
    }
    // For a subnormal size `1 / size` overflows: scale up by `high` first.
    let high = V::Real::QUARTIC_SAFE[1];
    let (pre, unit) = if size > high {
        (V::Real::ONE, V::Real::ONE / size)
    } else {
        (high, V::Real::ONE / (size * high))
    };
    let [d1, d2, r] = [d1, d2, r].map(|v| v * pre * unit);
    segment_parameters(d1, d2, r, d1.length_squared(), d2.length_squared())
}

/// [`closest_on_segments`] for the directions `d₁`, `d₂`, the offset `r = p₀ − q₀` and the
/// squared lengths `a = d₁·d₁`, `e = d₂·d₂`.
#[inline(always)]
fn segment_parameters<V: Vector>(d1: V, d2: V, r: V, a: V::Real, e: V::Real) -> (V::Real, V::Real) {
    let (zero, one) = (V::Real::ZERO, V::Real::ONE);
    let f = d2.dot(r);
    if !a.is_positive() && !e.is_positive() {
        return (zero, zero);
    }
    if !a.is_positive() {
        return (zero, unit_ratio(f, e));
    }
    let c = d1.dot(r);
    if !e.is_positive() {
        return (unit_ratio(-c, a), zero);
    }
    let b = d1.dot(d2);
    let denominator = a * e - b * b;
    let parallel = denominator <= V::Real::from_f64(16.0) * V::Real::EPSILON * a * e;
    let s = if parallel { zero } else { unit_ratio(b * f - c * e, denominator) };
    // `1 / e` by a multiplication: the reciprocal does not wait for `s`, so only one
    // division (`s`'s) stays on the answer's dependency chain. The extra rounding moves `t`
    // along B only, by a relative `ε`.
    let t = (b * s + f) * (one / e);
    if t < zero {
        (unit_ratio(-c, a), zero)
    } else if t > one {
        (unit_ratio(b - c, a), one)
    } else {
        (s, t)
    }
}

/// `num / den` clamped to `[0, 1]` for `den > 0`, deciding the clamp on the numerator: the
/// branch does not wait for the division, and a parameter clamped to an end skips it (and
/// the answer's dependency chain with it). The same value as `(num / den).max(0).min(1)` to
/// the bit (up to the sign of a zero): the rounded quotient is monotone in `num`, so it is
/// `≤ 0` exactly when `num ≤ 0` (a positive quotient that underflows is `0` either way) and
/// `≥ 1` exactly when `num ≥ den` (a quotient below 1 that rounds to 1 is `1` either way). A
/// NaN numerator, which only NaN input makes, gives 0.
#[inline(always)]
fn unit_ratio<R: Real>(num: R, den: R) -> R {
    if num > R::ZERO {
        if num < den {
            num / den
        } else {
            R::ONE
        }
    } else {
        R::ZERO
    }
}

/// A point's nearest point on a cylinder or cone core (see [`cylinder_foot`]).
struct AxialFoot<V: Vector> {
    /// Whether the point lies in the core (then `point` and `offset` are unspecified).
    inside: bool,
    /// The core's point nearest to the query point.
    point: V,
    /// The query point minus `point`.
    offset: V,
}

/// `p` split about the `y` axis: the unit direction of its part across the axis (`+x` on the
/// axis) and that part's length `ρ`.
#[inline(always)]
fn across_axis<V: Vector>(p: V) -> (V, V::Real) {
    let flat = V::from_components([p.component(0), V::Real::ZERO, p.component(2)]);
    match flat.direction() {
        // `u · flat` is `|flat|` without the overflow of its square.
        Some(u) => (u, u.dot(flat)),
        None => (V::axis(0), V::Real::ZERO),
    }
}

/// The point `(ρ, y)` of a meridian half plane (`ρ ≥ 0` across the axis along `u`, `y` along
/// it) back in 3D.
#[inline(always)]
fn from_meridian<V: Vector>(u: V, rho: V::Real, y: V::Real) -> V {
    u * rho + V::axis(1) * y
}

impl<V: Vector> Core<'_, V> {
    /// A cylinder's or a cone's foot of `p`; `None` for the other kinds.
    #[inline(always)]
    fn axial_foot(&self, p: V) -> Option<AxialFoot<V>> {
        match *self {
            Core::Cylinder { half_height, radius } => Some(cylinder_foot(half_height, radius, p)),
            Core::Cone { half_height, radius } => Some(cone_foot(half_height, radius, p)),
            _ => None,
        }
    }
}

impl<V: Vector> AxialFoot<V> {
    /// The foot `(ρ_q, y_q)` of the point `(ρ, y)` in the meridian half plane along `u`.
    #[inline(always)]
    fn in_meridian(
        u: V,
        (rho, y): (V::Real, V::Real),
        (rho_q, y_q): (V::Real, V::Real),
        inside: bool,
    ) -> Self {
        Self {
            inside,
            point: from_meridian(u, rho_q, y_q),
            offset: from_meridian(u, rho - rho_q, y - y_q),
        }
    }
}

/// The cylinder `|y| ≤ h`, `x² + z² ≤ r²` is a body of revolution: a point's nearest point
/// lies in its meridian half plane, where the cylinder's section is the rectangle
/// `[0, r] × [−h, h]`, and clamping `(ρ, y)` to it is the projection (the rectangle's side on
/// the axis is interior in 3D, and the clamp never moves `ρ ≥ 0` below 0).
#[inline]
fn cylinder_foot<V: Vector>(h: V::Real, r: V::Real, p: V) -> AxialFoot<V> {
    let (u, rho) = across_axis(p);
    let y = p.component(1);
    let foot = (rho.min(r), y.max(-h).min(h));
    AxialFoot::in_meridian(u, (rho, y), foot, rho <= r && y.abs() <= h)
}

/// The way out of the cylinder from `p` inside: through the side (`r − ρ` away, along `u`) or
/// through the nearer cap (`h − |y|` away, along `±y`), whichever is nearer; ties go to the
/// side. On the axis the side's normal is `+x`. Outside, the depth is negative (minus the
/// larger excess).
#[inline]
fn cylinder_exit<V: Vector>(h: V::Real, r: V::Real, p: V) -> CoreBoundary<V> {
    let (u, rho) = across_axis(p);
    let y = p.component(1);
    let (side, cap) = (r - rho, h - y.abs());
    if side <= cap {
        return CoreBoundary { point: p + u * side, normal: u, depth: side };
    }
    let sign = if y < V::Real::ZERO { -V::Real::ONE } else { V::Real::ONE };
    let point = V::from_components([p.component(0), h * sign, p.component(2)]);
    CoreBoundary { point, normal: V::axis(1) * sign, depth: cap }
}

/// The cone with apex `(0, h, 0)` and base disc of radius `r` at `y = −h`, in a meridian half
/// plane: the triangle `(0, h)`, `(r, −h)`, `(0, −h)` of `(ρ, y)`. Its side on the axis is
/// interior in 3D, so a point outside is nearest to the base edge or the slanted edge: the
/// nearer of the two segments' nearest points.
#[inline]
fn cone_foot<V: Vector>(h: V::Real, r: V::Real, p: V) -> AxialFoot<V> {
    let (u, rho) = across_axis(p);
    let y = p.component(1);
    let at = |rho: V::Real, y: V::Real| V::from_components([rho, y, V::Real::ZERO]);
    let (q, apex, rim, centre) =
        (at(rho, y), at(V::Real::ZERO, h), at(r, -h), at(V::Real::ZERO, -h));
    // Inside: above the base plane and below the slanted line (its outward normal `(2h, r)`).
    let slant = (h + h) * rho + r * (y - h);
    let inside = y >= -h && slant <= V::Real::ZERO;
    let on_base = closest_on_segment(centre, rim, q);
    let on_side = closest_on_segment(rim, apex, q);
    let foot = if (q - on_side).length_squared() < (q - on_base).length_squared() {
        on_side
    } else {
        on_base
    };
    AxialFoot::in_meridian(u, (rho, y), (foot.component(0), foot.component(1)), inside)
}

/// The way out of the cone from `p` inside: through the base (`y + h` away, along `−y`) or the
/// slanted side (the distance to its line in the meridian plane, along its outward normal
/// `(2h, r) / |(2h, r)|` turned about the axis), whichever is nearer; ties go to the base.
/// The foot on the slanted line lies on the side (it moves away from the axis and up from
/// `p`, and stays below the apex). On the axis the side's normal leans toward `+x`.
#[inline]
fn cone_exit<V: Vector>(h: V::Real, r: V::Real, p: V) -> CoreBoundary<V> {
    let (u, rho) = across_axis(p);
    let y = p.component(1);
    let base = y + h;
    let slanted = V::from_components([h + h, r, V::Real::ZERO]).direction();
    if let Some(n) = slanted {
        let (a, b) = (n.component(0), n.component(1));
        let side = -(a * rho + b * (y - h));
        if side < base {
            let normal = u * a + V::axis(1) * b;
            return CoreBoundary { point: p + normal * side, normal, depth: side };
        }
    }
    let point = V::from_components([p.component(0), -h, p.component(2)]);
    CoreBoundary { point, normal: -V::axis(1), depth: base }
}

/// Whether `p` lies in the ellipsoid `Σ (xᵢ/rᵢ)² ≤ 1`.
#[inline]
fn ellipsoid_contains<V: Vector>(radii: V, p: V) -> bool {
    let k = p.zip_map(radii, |x, r| x / r);
    k.dot(k) <= V::Real::ONE
}

/// The foot of `p` on the ellipsoid `Σ (xᵢ/rᵢ)² = 1` (semi-axes `radii`, all positive): the
/// boundary point `q` nearest to `p`, inside or out, and the outward unit normal there.
///
/// Eberly's method ("Distance from a point to an ellipse, an ellipsoid, or a
/// hyperellipsoid"): at the foot, `p − q` is along the normal `(qᵢ/rᵢ²)`, so
/// `qᵢ = rᵢ² pᵢ / (t + rᵢ²)` for one `t`, the root of
/// `F(t) = Σ (rᵢ pᵢ / (t + rᵢ²))² − 1` (`t > 0` outside, `t ≤ 0` inside). On
/// `t > −r_min²` (where the global foot lies) `F` is convex and decreasing, so Newton's
/// method from a point where `F ≥ 0` climbs to the root without overshooting; each step is
/// kept inside the bracket, which bisection shrinks when Newton stalls. With `p` on the
/// minor axis' plane of symmetry the root may leave that range: the foot then lies off the
/// plane (`t = −r_min²`). Work is in the first octant at unit size (signs and scale restored
/// at the end), so no square overflows.
///
/// The unknown is `s = t + r_min²`, not `t`: deep inside, next to the minor axis' plane, the
/// root sits just above the pole (`s = r_min² y_min / q_min` ≪ `r_min²`), and `t + r_min²`
/// would lose all but the last bits of `s` to cancellation, while the foot's minor
/// coordinate `r_min² y_min / s` and the normal follow `s`'s relative error. The other
/// denominators are `s + (rᵢ² − r_min²)`, sums of non-negative terms, with `rᵢ² − r_min²`
/// formed as `(rᵢ − r_min)(rᵢ + r_min)` (the difference of nearly equal radii is exact, that
/// of their squares is not).
pub(crate) fn ellipsoid_foot<V: Vector>(radii: V, p: V) -> (V, V) {
    let (zero, one) = (V::Real::ZERO, V::Real::ONE);
    let scale = (0..V::DIM).map(|i| radii.component(i)).fold(zero, |m, r| m.max(r));
    let e = radii.map(|r| r / scale);
    let y = p.map(|x| x.abs() / scale);
    let ee = e.component_mul(e);
    let ey = e.component_mul(y);
    let minor = (0..V::DIM).fold(0, |m, i| if ee.component(i) < ee.component(m) { i } else { m });
    let (emin, emin2) = (e.component(minor), ee.component(minor));
    let shift = e.map(|e| (e - emin) * (e + emin));
    // `s + rᵢ² − r_min²` (`t + rᵢ²`) at least `rᵢ yᵢ`, as it is at the root (each term of `F`
    // is at most 1 there): near the pole (a point near the centre) the sum rounds to 0.
    let gap = |s: V::Real, i: usize| (s + shift.component(i)).max(ey.component(i));
    let f = |s: V::Real| -> (V::Real, V::Real) {
        (0..V::DIM).filter(|&i| ey.component(i) > zero).fold((-one, zero), |(value, slope), i| {
            let k = ey.component(i) / gap(s, i);
            (value + k * k, slope - V::Real::TWO * k * k / gap(s, i))
        })
    };
    let foot_of = |s: V::Real| {
        let x = |i: usize| {
            let y = y.component(i);
            if y > zero {
                ee.component(i) * y / gap(s, i)
            } else {
                zero
            }
        };
        V::from_components([x(0), x(1), x(2)])
    };
    let inside = ellipsoid_contains(e, y);
    let mut x = V::ZERO;
    let mut solved = false;
    if inside && ey.component(minor) <= zero {
        // On the minor axis' plane: the foot off the plane, when the in-plane equations allow.
        let rest =
            ee.component_mul(y).zip_map(shift, |eey, d| if d > zero { eey / d } else { zero });
        let used = (0..V::DIM).fold(zero, |s, i| {
            let k = rest.component(i) / e.component(i);
            s + k * k
        });
        if used <= one {
            let off = e.component(minor) * (one - used).sqrt();
            x = rest + V::axis(minor) * off;
            solved = true;
        }
    }
    if !solved {
        // In `s`: the pole at 0, the bracket `t ∈ [max(−r_min², rᵢyᵢ − rᵢ²), 0 or |r y|]`.
        let mut lo = (0..V::DIM)
            .filter(|&i| y.component(i) > zero)
            .map(|i| ey.component(i) - shift.component(i))
            .fold(zero, |m, s| m.max(s));
        let mut hi = if inside { emin2 } else { ey.length() + emin2 };
        let mut s = lo;
        for _ in 0..128 {
            let (value, slope) = f(s);
            if value > zero {
                lo = lo.max(s);
            } else {
                hi = hi.min(s);
            }
            let newton = s - value / slope;
            // A step that rounds to nothing is convergence: `F(s)` is rounding noise there. It
            // is not a stall (bisecting from the far end of the bracket then may not come back
            // to the root within the iteration cap).
            if newton == s {
                break;
            }
            let next = if newton > lo && newton < hi { newton } else { (lo + hi) * V::Real::HALF };
            if next == s || hi <= lo {
                break;
            }
            s = next;
        }
        x = foot_of(s);
    }
    // Back to `p`'s octant and size; the normal from the gradient `qᵢ/rᵢ²` at unit size.
    let signed = x.zip_map(p, |x, p| if p < zero { -x } else { x });
    let q = signed * scale;
    let normal = signed.zip_map(ee, |x, ee| x / ee).direction().unwrap_or(V::axis(minor));
    (q, normal)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `unit_ratio` is the quotient clamped after the division, `(n / d).max(0).min(1)`, to
    /// the bit (up to the sign of a zero), for numerators at and around `0` and `d`, tiny and
    /// huge ones.
    #[test]
    fn unit_ratio_is_the_clamped_quotient() {
        use crate::test_rng::Rng;
        let clamped = |n: f64, d: f64| Real::min(Real::max(n / d, 0.0), 1.0);
        let mut rng = Rng::new(29);
        for _ in 0..100_000 {
            let d = 10f64.powf(rng.unit() * 40.0 - 20.0);
            let ulps = (rng.unit() * 8.0 - 4.0) as i64;
            let near = |x: f64| f64::from_bits((x.to_bits() as i64 + ulps) as u64);
            for n in [near(d), -near(d), d * (rng.unit() * 3.0 - 1.0), near(f64::MIN_POSITIVE)] {
                assert_eq!(unit_ratio(n, d), clamped(n, d), "{n:e} / {d:e}");
                let (n, d) = (n as f32, d as f32);
                if d > 0.0 {
                    let c = Real::min(Real::max(n / d, 0.0), 1.0);
                    assert_eq!(unit_ratio(n, d), c, "{n:e} / {d:e}");
                }
            }
        }
        assert_eq!(unit_ratio(f64::MIN_POSITIVE, 1e300), 0.0);
        assert_eq!(unit_ratio(f64::NAN, 1.0), 0.0);
    }
}
