//! The GJK simplex and its closest-point sub-algorithm.
//!
//! GJK keeps a simplex — 1 to `d + 1` points of the Minkowski difference `A − B` — and needs,
//! at every iteration, the point of that simplex closest to the origin together with the smallest
//! sub-simplex that still contains it. We use the **signed-volumes** method of Montanari,
//! Petrinic & Barbieri ("Improving the GJK algorithm for faster and more reliable distance
//! queries between convex objects", ACM TOG 36(3), 2017):
//!
//! * For a full-dimensional simplex `s₀ … s_d`, the barycentric coordinates of the origin are
//!   `λᵢ = Cᵢ / μ`, where `Cᵢ` is the signed volume of the simplex with `sᵢ` replaced by the
//!   origin and `μ = Σ Cᵢ` the signed volume of the simplex itself (Cramer's rule). The origin is
//!   inside exactly when every `Cᵢ` has the sign of `μ`.
//! * A triangle in 3D is handled in the coordinate plane where its projected area is largest,
//!   with the origin replaced by its projection onto the triangle's plane.
//! * When the origin (or its projection) is outside, it is beyond the facets `i` whose `Cᵢ` has
//!   the wrong sign; the closest point lies on one of those facets, so we recurse into them and
//!   keep the closest answer.
//!
//! Unlike Johnson's sub-algorithm (which solves the same linear systems through a cascade of
//! determinants that lose all precision on thin simplices) and the tutorials' triple-product
//! region tests (which assume the newest point's region and misfire on flat input), every
//! decision here is a sign comparison of one well-scaled determinant, and degenerate simplices
//! (zero area or volume) simply fall through to their facets.

use crate::geometry::{edge_normal_2d, twice_signed_area};
use crate::math::{along_normal, Real, TriangleProjection, Vector};

/// One vertex of the simplex: a point `w = a − b` of the Minkowski difference, with the support
/// points of A and B that produced it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SupportPoint<V> {
    /// The point of the Minkowski difference: `a − b`.
    pub w: V,
    /// The support point of A's core, in the query frame (A's local frame).
    pub a: V,
    /// The support point of B's core, in the query frame (A's local frame).
    pub b: V,
    /// The same point of B in B's own frame (kept for warm starting).
    pub b_local: V,
}

impl<V: Vector> SupportPoint<V> {
    /// The points `a` and `b` moved by halves of the same correction so that `a − b` is
    /// exactly `w` (support points along a normal whose difference has a tangential part:
    /// the correction is split evenly, so neither point moves more than half of it).
    #[inline]
    pub(crate) fn witnesses_apart(&self, w: V) -> (V, V) {
        let r = (self.a - self.b - w) * V::Real::HALF;
        (self.a - r, self.b + r)
    }

    /// The support point pair `a`, `b` (both in the query frame), with `b` known locally as
    /// `b_local`.
    #[inline]
    pub fn new(a: V, b: V, b_local: V) -> Self {
        Self { w: a - b, a, b, b_local }
    }
}

/// A simplex of at most four support points with the barycentric coordinates of its point
/// closest to the origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Simplex<V: Vector> {
    points: [SupportPoint<V>; 4],
    lambdas: [V::Real; 4],
    len: usize,
}

impl<V: Vector> Default for Simplex<V> {
    fn default() -> Self {
        Self::new()
    }
}

/// The outcome of a sub-problem: weights over the current vertices (0 for dropped ones) and the
/// squared distance of the point they describe.
#[derive(Clone, Copy)]
struct Candidate<R> {
    lambdas: [R; 4],
    distance2: R,
}

impl<V: Vector> Simplex<V> {
    /// The empty simplex.
    pub fn new() -> Self {
        let zero = SupportPoint { w: V::ZERO, a: V::ZERO, b: V::ZERO, b_local: V::ZERO };
        Self { points: [zero; 4], lambdas: [V::Real::ZERO; 4], len: 0 }
    }

    /// The number of vertices (0 to `DIM + 1`).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the simplex has no vertices.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The vertices.
    #[inline]
    pub fn points(&self) -> &[SupportPoint<V>] {
        &self.points[..self.len]
    }

    /// The barycentric coordinates of the closest point, one per vertex (they sum to 1).
    #[inline]
    pub fn barycentric(&self) -> &[V::Real] {
        &self.lambdas[..self.len]
    }

    /// The point of the simplex closest to the origin: `Σ λᵢ wᵢ`.
    pub fn closest_point(&self) -> V {
        self.combine(|p| p.w)
    }

    /// The corresponding points on A and on B: `(Σ λᵢ aᵢ, Σ λᵢ bᵢ)`.
    pub fn witnesses(&self) -> (V, V) {
        (self.combine(|p| p.a), self.combine(|p| p.b))
    }

    /// Whether a support point with the same `w` or the same pair `(a, b)` is already a vertex.
    pub fn contains(&self, p: &SupportPoint<V>) -> bool {
        self.points().iter().any(|q| q.w == p.w || (q.a == p.a && q.b == p.b))
    }

    /// Adds a vertex (the caller keeps the count at most `DIM + 1`).
    #[inline]
    pub(crate) fn push(&mut self, p: SupportPoint<V>) {
        debug_assert!(self.len < 4);
        self.points[self.len] = p;
        self.len += 1;
    }

    fn combine(&self, f: impl Fn(&SupportPoint<V>) -> V) -> V {
        let mut sum = V::ZERO;
        for (p, &l) in self.points().iter().zip(self.barycentric()) {
            sum = sum + f(p) * l;
        }
        sum
    }

    /// Reduces the simplex to the smallest sub-simplex holding its point closest to the origin,
    /// stores that point's barycentric coordinates, and returns the point.
    ///
    /// Returns `V::ZERO` exactly when the origin lies inside a full-dimensional simplex.
    pub(crate) fn reduce(&mut self) -> V {
        let reduction = self.solve();
        self.commit(&reduction);
        reduction.closest
    }

    /// Finds the point closest to the origin and the sub-simplex holding it, without changing
    /// the simplex: the GJK loop first checks that the point is progress, then
    /// [`Simplex::commit`]s it or [`Simplex::pop`]s the newest vertex — no copy of the simplex
    /// is needed to undo a step.
    pub(crate) fn solve(&self) -> Reduction<V> {
        let w = [self.points[0].w, self.points[1].w, self.points[2].w, self.points[3].w];
        let (candidate, contains_origin) = match self.len {
            0 => return Reduction { lambdas: [V::Real::ZERO; 4], kept: 0, closest: V::ZERO },
            1 => (vertex(&w, 0), false),
            2 => (segment(&w, 0, 1), false),
            3 => triangle(&w, 0, 1, 2),
            _ => tetrahedron(&w),
        };
        let lambdas = candidate.lambdas;
        let mut kept = [0usize; 4];
        let mut count = 0;
        for (i, &lambda) in lambdas.iter().enumerate().take(self.len) {
            if lambda > V::Real::ZERO {
                kept[count] = i;
                count += 1;
            }
        }
        let closest = if contains_origin {
            V::ZERO
        } else {
            let sum = combine(kept[..count].iter().map(|&i| (w[i], lambdas[i])));
            self.facet_projection(&kept[..count], sum).unwrap_or(sum)
        };
        Reduction { lambdas, kept: count.max(1), closest }
    }

    /// Keeps the sub-simplex [`Simplex::solve`] found.
    #[inline]
    pub(crate) fn commit(&mut self, reduction: &Reduction<V>) {
        self.keep(&reduction.lambdas);
    }

    /// Removes the newest vertex: undoes a [`Simplex::push`] whose reduction was not committed.
    #[inline]
    pub(crate) fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    /// The closest point recomputed from the facet's normal, when the kept vertices form a facet
    /// (an edge in 2D, a triangle in 3D) holding the point in its interior — where that is the
    /// more precise way.
    ///
    /// Same point as `Σ λᵢ wᵢ`, but with a better direction near contact: `Σ λᵢ wᵢ` carries an
    /// absolute error of a few ε·M (M: the largest |wᵢ|), which tilts a short `v` by ε·M/|v|.
    /// The next support point then lands off, and GJK stalls far from the tolerance (an f32
    /// ellipse against a long segment reported apart while overlapping; an f64 ellipsoid
    /// against a box stopped 2.5e-8 short, the search direction tilted by 3.6e-7 rad). The
    /// facet's normal comes from edge vectors: `v = n (n·w₀) / (n·n)`. `sum` is `Σ λᵢ wᵢ`.
    fn facet_projection(&self, kept: &[usize], sum: V) -> Option<V> {
        let p = |k: usize| &self.points[kept[k]];
        let normal = match (V::DIM, kept.len()) {
            (2, 2) => edge_normal_2d(p(0).w, p(1).w),
            (3, 3) => triangle_normal_if_better([p(0), p(1), p(2)], sum.length_squared())?,
            _ => return None,
        };
        along_normal(normal, p(0).w)
    }

    /// Drops the vertices whose weight is zero, keeping the order of the others.
    fn keep(&mut self, lambdas: &[V::Real; 4]) {
        let mut kept = 0;
        for (i, &lambda) in lambdas.iter().enumerate().take(self.len) {
            if lambda > V::Real::ZERO {
                self.points[kept] = self.points[i];
                self.lambdas[kept] = lambda;
                kept += 1;
            }
        }
        if kept == 0 {
            // Cannot happen (weights sum to one), but never leave an empty simplex behind.
            self.lambdas[0] = V::Real::ONE;
            kept = 1;
        }
        self.len = kept;
    }
}

/// What [`Simplex::solve`] found: the weights over the current vertices (0 for the dropped
/// ones), how many are kept, and the closest point.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reduction<V: Vector> {
    lambdas: [V::Real; 4],
    /// The number of vertices the reduced simplex keeps.
    pub(crate) kept: usize,
    /// The point of the simplex closest to the origin (`V::ZERO` when it contains the origin).
    pub(crate) closest: V,
}

/// `Σ λᵢ wᵢ`.
#[inline]
fn combine<V: Vector>(terms: impl Iterator<Item = (V, V::Real)>) -> V {
    terms.fold(V::ZERO, |sum, (w, lambda)| sum + w * lambda)
}

/// A 3D triangle's normal `n = e₁ × e₂`, when it gives `v` a better direction than `Σ λᵢ wᵢ`.
///
/// The edges are differences of points of size M, so the normal's direction is off by about
/// ε·M/h (h = |n|/L: the height over the longest edge L), and `Σ λᵢ wᵢ`'s by about ε·M/|v|:
/// the normal wins when the triangle is taller than the distance, `|n| > L |v|`. On slivers
/// and small far triangles it loses, and the sum is kept; so it is when `|v|` is not small
/// next to M (then the sum is precise already). `distance2` is `|Σ λᵢ wᵢ|²`.
fn triangle_normal_if_better<V: Vector>(
    points: [&SupportPoint<V>; 3],
    distance2: V::Real,
) -> Option<V> {
    let [w0, w1, w2] = points.map(|p| p.w);
    // Only near contact (|v| ≪ M) does the sum lose precision worth recovering; this cheap
    // test (|v| < M / 1024, squared) settles most calls before any square root.
    let size2 = w0.length_squared().max(w1.length_squared()).max(w2.length_squared());
    let ratio = V::Real::from_f64(1024.0 * 1024.0);
    let near = distance2 * ratio < size2;
    if !near {
        return None;
    }
    let (e1, e2, e3) = (w1 - w0, w2 - w0, w2 - w1);
    let c = |v: V, i: usize| v.component(i);
    let n = V::from_components([
        c(e1, 1) * c(e2, 2) - c(e1, 2) * c(e2, 1),
        c(e1, 2) * c(e2, 0) - c(e1, 0) * c(e2, 2),
        c(e1, 0) * c(e2, 1) - c(e1, 1) * c(e2, 0),
    ]);
    let longest = e1.length_squared().max(e2.length_squared()).max(e3.length_squared()).sqrt();
    let distance = distance2.sqrt();
    // The vertices themselves carry the rounding of the shapes' coordinates (w = a − b):
    // the triangle must stand well clear of that noise for its normal to be trusted.
    let coordinates =
        points.iter().fold(V::Real::ZERO, |m, p| m.max(p.a.max_abs()).max(p.b.max_abs()));
    let noise = V::Real::from_f64(1e6) * V::Real::EPSILON * coordinates;
    let height = n.length() / longest;
    (height > distance && height > noise).then_some(n)
}

/// The single vertex `i`.
fn vertex<V: Vector>(w: &[V; 4], i: usize) -> Candidate<V::Real> {
    let mut lambdas = [V::Real::ZERO; 4];
    lambdas[i] = V::Real::ONE;
    Candidate { lambdas, distance2: w[i].length_squared() }
}

/// The point of the segment `wᵢ wⱼ` closest to the origin.
///
/// With `t = wⱼ − wᵢ`, the origin projects at parameter `λⱼ = −wᵢ·t / t·t`; outside `[0, 1]`
/// the nearer end wins.
fn segment<V: Vector>(w: &[V; 4], i: usize, j: usize) -> Candidate<V::Real> {
    let t = w[j] - w[i];
    let tt = t.length_squared();
    let along = -w[i].dot(t);
    if !tt.is_positive() || along <= V::Real::ZERO {
        return vertex(w, i);
    }
    if along >= tt {
        return vertex(w, j);
    }
    let lj = along / tt;
    let li = V::Real::ONE - lj;
    let mut lambdas = [V::Real::ZERO; 4];
    lambdas[i] = li;
    lambdas[j] = lj;
    let p = w[i] * li + w[j] * lj;
    Candidate { lambdas, distance2: p.length_squared() }
}

/// Whether `c` does not contradict the sign of `mu` (zero counts as agreeing: the point lies
/// on that facet).
#[inline]
fn agrees<R: Real>(c: R, mu: R) -> bool {
    (c >= R::ZERO && mu > R::ZERO) || (c <= R::ZERO && mu < R::ZERO)
}

/// The point of triangle `wᵢ wⱼ w_k` closest to the origin, and whether the triangle is
/// full-dimensional (2D) and contains the origin.
fn triangle<V: Vector>(w: &[V; 4], i: usize, j: usize, k: usize) -> (Candidate<V::Real>, bool) {
    let TriangleProjection { corners: [a, b, c], origin: p } =
        V::project_triangle(w[i], w[j], w[k]);
    // Signed areas with one corner replaced by the (projected) origin: Cramer's rule.
    let ci = twice_signed_area(p, b, c);
    let cj = twice_signed_area(a, p, c);
    let ck = twice_signed_area(a, b, p);
    let mu = ci + cj + ck;
    if agrees(ci, mu) && agrees(cj, mu) && agrees(ck, mu) {
        let mut lambdas = [V::Real::ZERO; 4];
        lambdas[i] = ci / mu;
        lambdas[j] = cj / mu;
        lambdas[k] = ck / mu;
        if V::DIM == 2 {
            return (Candidate { lambdas, distance2: V::Real::ZERO }, true);
        }
        let q = w[i] * lambdas[i] + w[j] * lambdas[j] + w[k] * lambdas[k];
        return (Candidate { lambdas, distance2: q.length_squared() }, false);
    }
    // Outside (or degenerate, mu = 0): try each edge the origin lies beyond.
    let edges = [(ci, j, k), (cj, i, k), (ck, i, j)];
    let best = closest_of(
        edges.iter().filter(|(c, _, _)| !agrees(*c, mu)).map(|&(_, m, n)| segment(w, m, n)),
    );
    (best.unwrap_or_else(|| vertex(w, i)), false)
}

/// The point of the tetrahedron `w₀ … w₃` closest to the origin, and whether it contains the
/// origin.
fn tetrahedron<V: Vector>(w: &[V; 4]) -> (Candidate<V::Real>, bool) {
    let o = V::ZERO;
    let vol = V::tetrahedron_volume6;
    let c = [
        vol(o, w[1], w[2], w[3]),
        vol(w[0], o, w[2], w[3]),
        vol(w[0], w[1], o, w[3]),
        vol(w[0], w[1], w[2], o),
    ];
    let mu = c[0] + c[1] + c[2] + c[3];
    if c.iter().all(|&ci| agrees(ci, mu)) {
        let mut lambdas = [V::Real::ZERO; 4];
        for (l, ci) in lambdas.iter_mut().zip(c) {
            *l = ci / mu;
        }
        return (Candidate { lambdas, distance2: V::Real::ZERO }, true);
    }
    const FACES: [(usize, usize, usize); 4] = [(1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2)];
    let best = closest_of(
        FACES
            .iter()
            .zip(c)
            .filter(|(_, ci)| !agrees(*ci, mu))
            .map(|(&(i, j, k), _)| triangle(w, i, j, k).0),
    );
    (best.unwrap_or_else(|| vertex(w, 0)), false)
}

/// The candidate with the smallest distance (the first on ties, for determinism).
fn closest_of<R: Real>(candidates: impl Iterator<Item = Candidate<R>>) -> Option<Candidate<R>> {
    let mut best: Option<Candidate<R>> = None;
    for c in candidates {
        if best.is_none_or(|b| c.distance2 < b.distance2) {
            best = Some(c);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3};

    fn simplex_of<V: Vector>(ws: &[V]) -> Simplex<V> {
        let mut s = Simplex::new();
        for &w in ws {
            s.push(SupportPoint::new(w, V::ZERO, V::ZERO));
        }
        s
    }

    #[test]
    fn segment_interior_and_ends() {
        let mut s = simplex_of(&[DVec2::new(-1.0, 1.0), DVec2::new(1.0, 1.0)]);
        assert_eq!(s.reduce(), DVec2::new(0.0, 1.0));
        assert_eq!(s.len(), 2);
        let mut s = simplex_of(&[DVec2::new(1.0, 1.0), DVec2::new(2.0, 1.0)]);
        assert_eq!(s.reduce(), DVec2::new(1.0, 1.0));
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn triangle_2d_contains_origin() {
        let mut s =
            simplex_of(&[DVec2::new(0.0, 2.0), DVec2::new(0.0, -2.0), DVec2::new(-2.0, -2.0)]);
        // The origin lies on the edge (0,2)-(0,-2): the closest point is the origin itself.
        assert_eq!(s.reduce().length(), 0.0);
        let mut s =
            simplex_of(&[DVec2::new(1.0, 1.0), DVec2::new(-2.0, 0.0), DVec2::new(1.0, -1.0)]);
        assert_eq!(s.reduce(), DVec2::ZERO);
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn triangle_3d_projects_on_its_plane() {
        let mut s = simplex_of(&[
            DVec3::new(-1.0, -1.0, 2.0),
            DVec3::new(3.0, -1.0, 2.0),
            DVec3::new(-1.0, 3.0, 2.0),
        ]);
        assert_eq!(s.reduce(), DVec3::new(0.0, 0.0, 2.0));
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn collinear_triangle_falls_back_to_an_edge() {
        let mut s = simplex_of(&[
            DVec3::new(-1.0, 1.0, 0.0),
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(1.0, 1.0, 0.0),
        ]);
        assert_eq!(s.reduce(), DVec3::new(0.0, 1.0, 0.0));
        assert!(s.len() <= 2);
    }

    #[test]
    fn tetrahedron_inside_and_outside() {
        let mut s = simplex_of(&[
            DVec3::new(1.0, 0.0, -1.0),
            DVec3::new(-1.0, 1.0, -1.0),
            DVec3::new(-1.0, -1.0, -1.0),
            DVec3::new(0.0, 0.0, 1.0),
        ]);
        assert_eq!(s.reduce(), DVec3::ZERO);
        assert_eq!(s.len(), 4);
        let lambda_sum: f64 = s.barycentric().iter().sum();
        assert!((lambda_sum - 1.0).abs() < 1e-15);
        // Shift up: closest point is on the bottom face.
        let mut s = simplex_of(&[
            DVec3::new(1.0, 0.0, 1.0),
            DVec3::new(-1.0, 1.0, 1.0),
            DVec3::new(-1.0, -1.0, 1.0),
            DVec3::new(0.0, 0.0, 3.0),
        ]);
        assert!((s.reduce() - DVec3::new(0.0, 0.0, 1.0)).length() < 1e-15);
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn flat_tetrahedron_falls_back_to_faces() {
        let mut s = simplex_of(&[
            DVec3::new(1.0, 0.0, 1.0),
            DVec3::new(-1.0, 1.0, 1.0),
            DVec3::new(-1.0, -1.0, 1.0),
            DVec3::new(0.0, 0.0, 1.0),
        ]);
        assert!((s.reduce() - DVec3::new(0.0, 0.0, 1.0)).length() < 1e-15);
    }
}
