//! Two boxes: penetration by the separating-axis test, without GJK or EPA.
//!
//! The Minkowski difference `D = A − B` of two boxes is a polytope whose face normals are among
//! a short list of axes: the face normals of A and of B, and (3D) the cross products of an edge
//! direction of A with one of B — 6 or 15 axes in all (Gottschalk, Lin and Manocha, "OBBTree",
//! SIGGRAPH 1996). Along a unit axis `n` the support value of `D` is
//!
//! `h_D(n) = r_A(n) + r_B(n) − |n·t|`, with `r_A(n) = Σᵢ aᵢ |n·eᵢ|`, `r_B(n) = Σⱼ bⱼ |n·uⱼ|`
//!
//! (half extents `a`, `b`; A's axes `eᵢ`, B's axes `uⱼ` and B's centre `t`, all in A's frame),
//! taking `n`'s orientation toward B. Every face of `D` is on the list, so the smallest `h_D`
//! over it is the exact depth (see the [parent module](super)): one evaluation
//! per axis, about 15 small dot products, replaces an expansion of 7 or more support points.
//!
//! The witness points come from the features touching across the winning axis:
//! * a **face** of one box (the *reference*): the other box's support feature against the
//!   normal (a vertex, an edge, or a face when parallel) is clipped to the reference face's
//!   side slabs (Sutherland–Hodgman), and the centre of what is left is the witness on the
//!   other box — a point of the overlap patch. The origin's projection onto the face of `D`
//!   lies in that face, so the clipped set is not empty; when rounding empties it anyway,
//!   a corner of the other box's feature is used;
//! * an **edge pair**: the closest points of the two edges (a closed form).
//!
//! Ties between axes prefer A's faces, then B's faces, then edge pairs (within a few rounding
//! units of the boxes' size): aligned boxes have equal face and edge-pair depths, and a face
//! gives the better witness.

use super::AxisTest;
use crate::math::{Pose, Real, Vector};
use crate::shape::closest_on_segments;

/// Box A, `[−a, a]` in its frame, against box B, `[−b, b]` in its frame, placed by `rel` (B's
/// frame to A's). Results are in A's frame.
pub(crate) fn box_pair<V: Vector>(a: V, b: V, rel: &Pose<V>) -> AxisTest<V> {
    let axes = box_axes(a, b, rel, V::Real::INFINITY);
    if let Some(gap) = axes.gap() {
        return AxisTest::Apart { gap };
    }
    let (depth, normal) = axes.overlap();
    let (point_a, point_b) = axes.witnesses();
    AxisTest::Overlap { depth, normal, point_a, point_b }
}

/// [`box_pair`] in two steps: the axes first, the witness points on demand (a contact
/// manifold clips the features itself and needs them only when it falls back to one point).
/// The edge axes are skipped when the face axes already separate the boxes by more than
/// `stop` (the caller's reach: an answer "apart" either way).
#[inline]
pub(crate) fn box_axes<V: Vector>(a: V, b: V, rel: &Pose<V>, stop: V::Real) -> BoxAxes<V> {
    // Built in place and then searched: moving a finished frame into the result copied its
    // couple of hundred bytes on every query.
    let mut axes = BoxAxes { frame: Frame::new(a, b, rel), search: Search::new(V::Real::ZERO) };
    let BoxAxes { frame, search } = &mut axes;
    search.slop = V::Real::from_f64(8.0) * V::Real::EPSILON * frame.size();
    frame.face_axes(search);
    // (A NaN gap is not out of reach: the edge axes run, as in the full test.)
    let out_of_reach = search.gap > stop;
    if V::DIM == 3 && !out_of_reach {
        frame.edge_axes(search);
    }
    axes
}

/// The separating-axis test of two boxes before its witness points ([`box_axes`]).
pub(crate) struct BoxAxes<V: Vector> {
    frame: Frame<V>,
    search: Search<V::Real>,
}

impl<V: Vector> BoxAxes<V> {
    /// The largest separation over the axes when it is positive (the boxes are apart; a lower
    /// bound of their distance), `None` when they overlap.
    #[inline]
    pub(crate) fn gap(&self) -> Option<V::Real> {
        (self.search.gap > V::Real::ZERO).then_some(self.search.gap)
    }

    /// The penetration depth and the unit normal from A toward B (boxes that overlap).
    #[inline]
    pub(crate) fn overlap(&self) -> (V::Real, V) {
        (self.search.best, self.frame.normal(self.search.kind))
    }

    /// The witness points across the winning axis (A's frame): a point of A deepest in B,
    /// and one of B deepest in A.
    pub(crate) fn witnesses(&self) -> (V, V) {
        let (depth, normal) = self.overlap();
        self.witnesses_along(depth, normal)
    }

    /// [`BoxAxes::witnesses`] for a caller that holds [`BoxAxes::overlap`]'s answer already.
    #[inline]
    pub(crate) fn witnesses_along(&self, depth: V::Real, normal: V) -> (V, V) {
        self.frame.witnesses(&Axis { overlap: depth, normal, kind: self.search.kind })
    }

    /// The overlap (`h_D`) along each of A's face axes, then along each of B's: what a
    /// contact manifold compares to choose its reference face (3D; the test of overlapping
    /// boxes computes all six).
    #[inline]
    pub(crate) fn face_overlaps(&self) -> &[[V::Real; 3]; 2] {
        &self.search.faces
    }

    /// The rotation from B's frame to A's as numbers: `r[i][j] = eᵢ·uⱼ`.
    #[inline]
    pub(crate) fn rotation(&self) -> &[[V::Real; 3]; 3] {
        &self.frame.r
    }

    /// B's axes in A's frame.
    #[inline]
    pub(crate) fn axes_of_b(&self) -> &[V; 3] {
        &self.frame.u
    }

    /// B's centre in A's frame.
    #[inline]
    pub(crate) fn centre_of_b(&self) -> V {
        self.frame.t
    }
}

/// The largest separation of box A (`[−a, a]`) and box B (`[−b, b]`, placed by `rel`) over
/// the candidate axes: positive when the boxes are apart (a lower bound of their distance),
/// minus the penetration depth otherwise. No witnesses: what an intersection test needs.
pub(crate) fn box_separation<V: Vector>(a: V, b: V, rel: &Pose<V>) -> V::Real {
    let frame = Frame::new(a, b, rel);
    let mut search = Search::new(V::Real::ZERO);
    frame.face_axes(&mut search);
    if V::DIM == 3 && search.gap <= V::Real::ZERO {
        frame.edge_axes(&mut search);
    }
    search.gap
}

/// The running minimum over the candidate axes.
struct Search<R> {
    best: R,
    kind: Kind,
    /// The largest separation (minus the overlap) seen.
    gap: R,
    /// How much smaller a later axis must be to win: ties keep the earlier kind.
    slop: R,
    /// The overlap along each face axis of A, then of B (`h_D` of the axis).
    faces: [[R; 3]; 2],
}

impl<R: Real> Search<R> {
    #[inline(always)]
    fn new(slop: R) -> Self {
        let faces = [[R::INFINITY; 3]; 2];
        Self { best: R::INFINITY, kind: Kind::FaceOfA(0), gap: -R::INFINITY, slop, faces }
    }

    #[inline]
    fn consider(&mut self, overlap: R, kind: Kind) {
        self.gap = self.gap.max(-overlap);
        if overlap < self.best - self.slop {
            self.best = overlap;
            self.kind = kind;
        }
    }
}

/// Which axis: a face normal of A or B (by axis index), or the cross product of A's edge
/// direction `i` with B's `j`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    FaceOfA(usize),
    FaceOfB(usize),
    Edges(usize, usize),
}

/// The winning axis: `h_D` along it and its unit normal oriented from A toward B.
#[derive(Clone, Copy, Debug)]
struct Axis<V: Vector> {
    overlap: V::Real,
    normal: V,
    kind: Kind,
}

/// B seen from A: half extents, B's axes and centre in A's frame, as vectors and as plain
/// numbers (`r[i][j] = eᵢ·uⱼ`, the rotation matrix).
struct Frame<V: Vector> {
    a: V,
    b: V,
    /// B's axes in A's frame (`DIM` of them; the rest zero).
    u: [V; 3],
    /// B's centre in A's frame.
    t: V,
    r: [[V::Real; 3]; 3],
    abs_r: [[V::Real; 3]; 3],
    ta: [V::Real; 3],
    ha: [V::Real; 3],
    hb: [V::Real; 3],
}

impl<V: Vector> Frame<V> {
    // Plain loops, not `array::map`: the maps' closures were inlined or not from one build to
    // the next, which moved the box SAT's cost by a fifth.
    #[inline(always)]
    fn new(a: V, b: V, rel: &Pose<V>) -> Self {
        let zero = V::Real::ZERO;
        let coords = |v: V| {
            let mut c = [zero; 3];
            for (i, x) in c.iter_mut().enumerate().take(V::DIM) {
                *x = v.component(i);
            }
            c
        };
        let mut u = [V::ZERO; 3];
        let (mut r, mut abs_r) = ([[zero; 3]; 3], [[zero; 3]; 3]);
        for j in 0..V::DIM {
            u[j] = rel.transform_vector(V::axis(j));
            for i in 0..V::DIM {
                r[i][j] = u[j].component(i);
                abs_r[i][j] = r[i][j].abs();
            }
        }
        let t = rel.translation();
        Self { a, b, u, t, r, abs_r, ta: coords(t), ha: coords(a), hb: coords(b) }
    }

    /// The scale of rounding errors: the centres' distance and the boxes' extents.
    fn size(&self) -> V::Real {
        self.t.max_abs().max(self.a.max_abs()).max(self.b.max_abs())
    }

    /// The faces' normals: `h_D = aᵢ + Σⱼ bⱼ |rᵢⱼ| − |tᵢ|` for A's, and the same with the roles
    /// swapped (`t` in B's frame: `uⱼ·t`) for B's.
    #[inline(always)]
    fn face_axes(&self, search: &mut Search<V::Real>) {
        let d = V::DIM;
        for i in 0..d {
            let radii = (0..d).fold(self.ha[i], |s, j| s + self.hb[j] * self.abs_r[i][j]);
            let overlap = radii - self.ta[i].abs();
            search.faces[0][i] = overlap;
            search.consider(overlap, Kind::FaceOfA(i));
        }
        for j in 0..d {
            let radii = (0..d).fold(self.hb[j], |s, i| s + self.ha[i] * self.abs_r[i][j]);
            let along = (0..d).fold(V::Real::ZERO, |s, i| s + self.ta[i] * self.r[i][j]);
            let overlap = radii - along.abs();
            search.faces[1][j] = overlap;
            search.consider(overlap, Kind::FaceOfB(j));
        }
    }

    /// The edge pairs (3D): `L = eᵢ × uⱼ` has coordinates `rₖⱼ` (for the two `k ≠ i`, one with
    /// a sign), length `√(r²ᵢ₁ⱼ + r²ᵢ₂ⱼ)` without cancellation, and the products with the other
    /// axes of both boxes are entries of `r` again (Gottschalk et al.'s table).
    #[inline(always)]
    fn edge_axes(&self, search: &mut Search<V::Real>) {
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                let length2 = self.r[i1][j] * self.r[i1][j] + self.r[i2][j] * self.r[i2][j];
                if !length2.is_positive() {
                    continue; // parallel edges: the face axes cover them
                }
                let radii = self.ha[i1] * self.abs_r[i2][j]
                    + self.ha[i2] * self.abs_r[i1][j]
                    + self.hb[j1] * self.abs_r[i][j2]
                    + self.hb[j2] * self.abs_r[i][j1];
                let along = self.ta[i2] * self.r[i1][j] - self.ta[i1] * self.r[i2][j];
                search.consider((radii - along.abs()) / length2.sqrt(), Kind::Edges(i, j));
            }
        }
    }

    /// The unit normal of an axis, oriented from A toward B.
    fn normal(&self, kind: Kind) -> V {
        let axis = match kind {
            Kind::FaceOfA(i) => V::axis(i),
            Kind::FaceOfB(j) => self.u[j],
            Kind::Edges(i, j) => {
                let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
                let mut c = [V::Real::ZERO; 3];
                c[i1] = -self.r[i2][j];
                c[i2] = self.r[i1][j];
                V::from_components(c).direction().unwrap_or(V::axis(i1))
            }
        };
        if axis.dot(self.t) < V::Real::ZERO {
            -axis
        } else {
            axis
        }
    }

    /// The witness points (A's frame) across the winning axis.
    fn witnesses(&self, best: &Axis<V>) -> (V, V) {
        let (n, depth) = (best.normal, best.overlap);
        match best.kind {
            Kind::FaceOfA(i) => {
                // B's feature against the normal, clipped to A's face `i`.
                let b = Boxed { half: self.b, axes: self.u, centre: self.t };
                let point_b = b.clipped_feature(-n, self.a, i);
                (point_b + n * depth, point_b)
            }
            Kind::FaceOfB(j) => {
                // The same in B's frame, with the roles swapped: A's feature along the normal,
                // clipped to B's face `j`.
                let to_b = |v: V| {
                    V::from_components([0, 1, 2].map(|k| {
                        if k < V::DIM {
                            v.dot(self.u[k])
                        } else {
                            V::Real::ZERO
                        }
                    }))
                };
                let axes = [0, 1, 2].map(|i| if i < V::DIM { to_b(V::axis(i)) } else { V::ZERO });
                let a = Boxed { half: self.a, axes, centre: -to_b(self.t) };
                let local = a.clipped_feature(to_b(n), self.b, j);
                let point_a = self.t + self.b_to_a(local);
                (point_a, point_a - n * depth)
            }
            Kind::Edges(i, j) => {
                let edge_a = Boxed { half: self.a, axes: axes_of_a(), centre: V::ZERO }.edge(n, i);
                let edge_b = Boxed { half: self.b, axes: self.u, centre: self.t }.edge(-n, j);
                let (s, _) = closest_on_segments(edge_a, edge_b);
                let point_a = edge_a[0] + (edge_a[1] - edge_a[0]) * s;
                (point_a, point_a - n * depth)
            }
        }
    }

    /// A vector of B's frame in A's frame.
    fn b_to_a(&self, v: V) -> V {
        let mut out = V::ZERO;
        for k in 0..V::DIM {
            out = out + self.u[k] * v.component(k);
        }
        out
    }
}

/// A's own axes.
fn axes_of_a<V: Vector>() -> [V; 3] {
    [0, 1, 2].map(|i| if i < V::DIM { V::axis(i) } else { V::ZERO })
}

/// A box placed in some reference frame: half extents, axes and centre there.
struct Boxed<V: Vector> {
    half: V,
    axes: [V; 3],
    centre: V,
}

/// The most vertices a clipped feature has: a parallelogram cut by four slab planes.
const MAX_CLIPPED: usize = 8;

impl<V: Vector> Boxed<V> {
    /// The centre of the part of the box's support feature along `dir` (a vertex, an edge, or
    /// a face when `dir` is orthogonal to axes) that lies within the reference box's side
    /// slabs `|x_k| ≤ reference_k`, `k ≠ face` (the reference frame is that box's); a corner
    /// of the feature when rounding leaves nothing.
    fn clipped_feature(&self, dir: V, reference: V, face: usize) -> V {
        // Coordinates along which `dir` is (within rounding) orthogonal span the feature.
        let tie = V::Real::from_f64(8.0) * V::Real::EPSILON;
        let mut centre = self.centre;
        let mut free = [0usize; 2];
        let mut free_count = 0;
        for k in 0..V::DIM {
            let along = dir.dot(self.axes[k]);
            if along.abs() <= tie && free_count < 2 {
                free[free_count] = k;
                free_count += 1;
            } else {
                let side = if along < V::Real::ZERO { -V::Real::ONE } else { V::Real::ONE };
                centre = centre + self.axes[k] * (self.half.component(k) * side);
            }
        }
        let corner = centre
            + (0..free_count)
                .fold(V::ZERO, |s, f| s + self.axes[free[f]] * self.half.component(free[f]));
        let mut polygon = Polygon::default();
        let spans = free.map(|k| self.axes[k] * self.half.component(k));
        match free_count {
            0 => polygon.push(centre),
            1 => {
                polygon.push(centre + spans[0]);
                polygon.push(centre - spans[0]);
            }
            _ => {
                for (s, t) in [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)] {
                    let (s, t) = (V::Real::from_f64(s), V::Real::from_f64(t));
                    polygon.push(centre + spans[0] * s + spans[1] * t);
                }
            }
        }
        for k in (0..V::DIM).filter(|&k| k != face) {
            let h = reference.component(k);
            polygon = polygon.clip(k, h, V::Real::ONE);
            polygon = polygon.clip(k, h, -V::Real::ONE);
        }
        polygon.centre().unwrap_or(corner)
    }

    /// The box's edge along axis `k` that is farthest along `dir`.
    #[inline]
    fn edge(&self, dir: V, k: usize) -> [V; 2] {
        let mut centre = self.centre;
        for m in (0..V::DIM).filter(|&m| m != k) {
            let side =
                if dir.dot(self.axes[m]) < V::Real::ZERO { -V::Real::ONE } else { V::Real::ONE };
            centre = centre + self.axes[m] * (self.half.component(m) * side);
        }
        let span = self.axes[k] * self.half.component(k);
        [centre - span, centre + span]
    }
}

/// A small convex polygon (or segment, or point) for clipping.
#[derive(Clone, Copy, Debug)]
struct Polygon<V: Vector> {
    points: [V; MAX_CLIPPED],
    len: usize,
}

impl<V: Vector> Default for Polygon<V> {
    fn default() -> Self {
        Self { points: [V::ZERO; MAX_CLIPPED], len: 0 }
    }
}

impl<V: Vector> Polygon<V> {
    fn push(&mut self, p: V) {
        if self.len < MAX_CLIPPED {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    /// The part on the inner side of the plane `side × x_k = h` (Sutherland–Hodgman).
    fn clip(&self, k: usize, h: V::Real, side: V::Real) -> Self {
        let mut out = Self::default();
        let inside = |p: V| side * p.component(k) - h;
        for i in 0..self.len {
            let (p, q) = (self.points[i], self.points[(i + 1) % self.len]);
            let (dp, dq) = (inside(p), inside(q));
            if dp <= V::Real::ZERO {
                out.push(p);
            }
            if (dp < V::Real::ZERO && dq > V::Real::ZERO)
                || (dp > V::Real::ZERO && dq < V::Real::ZERO)
            {
                out.push(p + (q - p) * (dp / (dp - dq)));
            }
        }
        out
    }

    /// The mean of the corners, or `None` when nothing is left.
    fn centre(&self) -> Option<V> {
        (self.len > 0).then(|| {
            let sum = self.points[..self.len].iter().fold(V::ZERO, |s, &p| s + p);
            sum * (V::Real::ONE / V::Real::from_f64(self.len as f64))
        })
    }
}
