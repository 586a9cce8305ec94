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

use crate::geometry::{cross, edge_normal_2d, twice_signed_area};
use crate::math::{along_normal, Real, Vector};

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

/// The outcome of a sub-problem: weights over the current vertices (0 for dropped ones), the
/// point they describe (`Σ λᵢ wᵢ` over the positive weights, in vertex order, as
/// [`Simplex::solve`] reports it) and its squared distance.
#[derive(Clone, Copy)]
struct Candidate<V: Vector> {
    lambdas: [V::Real; 4],
    point: V,
    distance2: V::Real,
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

    /// The unit normal of the simplex's affine hull on the side of `toward`, for a segment
    /// (`toward` projected off its edge) or a triangle in 3D (its edges' cross product); `None`
    /// for a vertex, a full simplex or a degenerate one.
    ///
    /// Near contact the closest point `Σ λᵢ wᵢ` is tiny next to the vertices and carries
    /// rounding of their size, so its direction degrades as it shrinks (1e-3 rad in `f32` for
    /// cores apart by 3e-4 of their size). The edges keep full relative precision, all the
    /// more where both ends share one shape's point: the edge is then the difference of the
    /// other shape's own points, a feature of that shape ([`edge`]).
    pub(crate) fn hull_normal(&self, toward: V) -> Option<V> {
        let p = self.points();
        let normal = match p.len() {
            2 => {
                let e = edge(&p[0], &p[1]);
                let ee = e.length_squared();
                if !ee.is_positive() {
                    return None;
                }
                toward - e * (toward.dot(e) / ee)
            }
            3 if V::DIM == 3 => {
                let c = crate::geometry::cross(edge(&p[0], &p[1]), edge(&p[0], &p[2]));
                if c.dot(toward) < V::Real::ZERO {
                    -c
                } else {
                    c
                }
            }
            _ => return None,
        };
        normal.direction()
    }

    /// Replaces every vertex by `f(vertex)` and keeps the weights (for vertices moved by a
    /// small step, where the old weights still describe a point of the simplex).
    pub(crate) fn map_points(&mut self, f: impl Fn(&SupportPoint<V>) -> SupportPoint<V>) {
        for p in &mut self.points[..self.len] {
            *p = f(p);
        }
    }

    /// A stall's other way out, where the polish finds none: the stalled support point `w`'s
    /// point of one shape paired with a vertex's point of the other, the pairing whose
    /// simplex comes closest to the origin, if closer than `bound` (`|v|²` now).
    ///
    /// `w` pairs A's support point with B's. Where one of them jumps along a flat feature
    /// almost orthogonal to `v` (a hull's long edge: its ends tie along `v`), `w` pairs the
    /// other shape's better point with the feature's far end, and the segment to it is so long
    /// that the progress it offers (about the gap squared over the segment's length squared)
    /// rounds away in f32: a flat hull's 14-long edge against an ellipsoid stalled 1.8e-3
    /// short of the distance (size 19), in one order of the shapes only
    /// (`f32_flat_hull_edge_against_an_ellipsoid_measures_the_distance_in_both_orders`; a
    /// shape cast's sweep stopped 30 short of a polygon, size 6.8e5:
    /// `f32_cast_of_a_rounded_ellipse_onto_a_polygon_edge_reaches_the_contact`). Any point of
    /// A minus any point of B lies in the Minkowski difference, so `|v|` stays an upper bound
    /// of the distance; the better point with the near end a vertex holds is the
    /// progress the support point was meant to bring. The vertices and `w` must be at the
    /// same relative pose (a sweep's at the same ray point).
    #[cold]
    pub(crate) fn recombined(
        &self,
        w: &SupportPoint<V>,
        bound: V::Real,
    ) -> Option<SupportPoint<V>> {
        let mut best: Option<(V::Real, SupportPoint<V>)> = None;
        for s in self.points() {
            let pairings = [
                SupportPoint { w: w.a - s.b, a: w.a, b: s.b, b_local: s.b_local },
                SupportPoint { w: s.a - w.b, a: s.a, b: w.b, b_local: w.b_local },
            ];
            for p in pairings {
                if self.contains(&p) {
                    continue;
                }
                let mut trial = *self;
                trial.push(p);
                let vv = trial.solve().closest.length_squared();
                if vv < best.map_or(bound, |(least, _)| least) {
                    best = Some((vv, p));
                }
            }
        }
        best.map(|(_, p)| p)
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
        let w = Ws(&self.points);
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
            let sum = candidate.point;
            self.facet_projection(&kept[..count], sum).unwrap_or(sum)
        };
        Reduction { lambdas, kept: count.max(1), closest }
    }

    /// Keeps the sub-simplex [`Simplex::solve`] found.
    #[inline]
    pub(crate) fn commit(&mut self, reduction: &Reduction<V>) {
        self.keep(&reduction.lambdas);
    }

    /// Replaces the vertices and their weights (at most three, weights positive and summing
    /// to one): the feature finisher's certified answer.
    pub(crate) fn replace(&mut self, points: &[SupportPoint<V>], lambdas: &[V::Real]) {
        debug_assert!(points.len() == lambdas.len() && points.len() <= 3);
        self.len = points.len().min(3);
        self.points[..self.len].copy_from_slice(&points[..self.len]);
        self.lambdas[..self.len].copy_from_slice(&lambdas[..self.len]);
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
                if kept != i {
                    self.points[kept] = self.points[i];
                }
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

/// The vertices' points `wᵢ`, read in place (`w[i]`) rather than copied out of the
/// support points.
struct Ws<'a, V>(&'a [SupportPoint<V>; 4]);

impl<V> core::ops::Index<usize> for Ws<'_, V> {
    type Output = V;
    #[inline(always)]
    fn index(&self, i: usize) -> &V {
        &self.0[i].w
    }
}

/// `Σ λᵢ wᵢ` over the vertices `indices` whose weight is positive, in that order, from zero:
/// the sum [`Simplex::solve`] reports (a zero weight's term would turn a `−0` coordinate into
/// `+0`, which the sign tests of some support functions see).
#[inline(always)]
fn positive_sum<V: Vector, const N: usize>(
    w: &Ws<V>,
    lambdas: &[V::Real; 4],
    indices: [usize; N],
) -> V {
    let mut sum = V::ZERO;
    for i in indices {
        if lambdas[i] > V::Real::ZERO {
            sum = sum + w[i] * lambdas[i];
        }
    }
    sum
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
#[inline(always)]
fn vertex<V: Vector>(w: &Ws<V>, i: usize) -> Candidate<V> {
    let mut lambdas = [V::Real::ZERO; 4];
    lambdas[i] = V::Real::ONE;
    Candidate { lambdas, point: V::ZERO + w[i], distance2: w[i].length_squared() }
}

/// The point of the segment `wᵢ wⱼ` closest to the origin.
///
/// With `t = wⱼ − wᵢ`, the origin projects at parameter `λⱼ = −wᵢ·t / t·t`; outside `[0, 1]`
/// the nearer end wins.
#[inline(always)]
fn segment<V: Vector>(w: &Ws<V>, i: usize, j: usize) -> Candidate<V> {
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
    // `p + 0` is `positive_sum` when both weights count (see `triangle`).
    let point = if li > V::Real::ZERO && lj > V::Real::ZERO {
        p + V::ZERO
    } else {
        positive_sum(w, &lambdas, [i, j])
    };
    Candidate { lambdas, point, distance2: p.length_squared() }
}

/// The signed volumes `c` and their sum `mu` with the signs flipped when `mu < 0` (exact), so
/// that "`cᵢ` agrees with the sign of `mu`" reads `cᵢ ≥ 0` and "the simplex is
/// full-dimensional" reads `mu > 0` (false for `mu = 0` and NaN, which then fall through to
/// the facets). Zero counts as agreeing: the point lies on that facet. The weights `cᵢ / mu`
/// are the same to the bit either way.
#[inline(always)]
fn oriented<R: Real, const N: usize>(c: [R; N], mu: R) -> ([R; N], R) {
    // A product by ±1 is exact: the same values as negating, without a branch.
    let sign = if mu < R::ZERO { -R::ONE } else { R::ONE };
    (c.map(|ci| ci * sign), mu * sign)
}

/// Twice the signed areas `(p b c, a p c, a b p)` of the triangle `a b c` with one corner
/// replaced by `p`, in the coordinate plane of axes `x` and `y`.
#[inline(always)]
fn areas_in<V: Vector>(a: V, b: V, c: V, p: V, x: usize, y: usize) -> [V::Real; 3] {
    let pick = |v: V| [v.component(x), v.component(y)];
    let (a, b, c, p) = (pick(a), pick(b), pick(c), pick(p));
    [twice_signed_area(p, b, c), twice_signed_area(a, p, c), twice_signed_area(a, b, p)]
}

/// The signed areas of [`areas_in`] for the origin: in 2D directly; in 3D for the origin's
/// projection onto the triangle's plane, in the coordinate plane where the projected area is
/// largest (the one that drops the normal's largest coordinate). Each branch names its axes
/// as constants, so no coordinate is picked by a run-time index. Same arithmetic as
/// [`Vector::project_triangle`] followed by the three areas.
#[inline(always)]
fn origin_areas<V: Vector>(a: V, b: V, c: V) -> [V::Real; 3] {
    if V::DIM == 2 {
        return areas_in(a, b, c, V::ZERO, 0, 1);
    }
    let n = cross(b - a, c - a);
    // Origin projected on the plane: p = n (a·n) / (n·n). A zero normal (collinear corners)
    // leaves p at the origin; the solver then sees a zero area and falls back to the edges.
    let p = along_normal(n, a).unwrap_or(V::ZERO);
    let (nx, ny, nz) = (n.component(0).abs(), n.component(1).abs(), n.component(2).abs());
    if nx >= ny && nx >= nz {
        areas_in(a, b, c, p, 1, 2)
    } else if ny >= nz {
        areas_in(a, b, c, p, 2, 0)
    } else {
        areas_in(a, b, c, p, 0, 1)
    }
}

/// Keeps `c` in `best` when it is closer (the first on ties, for determinism).
#[inline(always)]
fn keep_closer<V: Vector>(best: &mut Option<Candidate<V>>, c: Candidate<V>) {
    if best.is_none_or(|b| c.distance2 < b.distance2) {
        *best = Some(c);
    }
}

/// The point of triangle `wᵢ wⱼ w_k` closest to the origin, and whether the triangle is
/// full-dimensional (2D) and contains the origin.
#[inline(always)]
fn triangle<V: Vector>(w: &Ws<V>, i: usize, j: usize, k: usize) -> (Candidate<V>, bool) {
    // Signed areas with one corner replaced by the (projected) origin: Cramer's rule.
    let [ci, cj, ck] = origin_areas(w[i], w[j], w[k]);
    let ([ci, cj, ck], mu) = oriented([ci, cj, ck], ci + cj + ck);
    if mu > V::Real::ZERO && ci >= V::Real::ZERO && cj >= V::Real::ZERO && ck >= V::Real::ZERO {
        let mut lambdas = [V::Real::ZERO; 4];
        lambdas[i] = ci / mu;
        lambdas[j] = cj / mu;
        lambdas[k] = ck / mu;
        if V::DIM == 2 {
            return (Candidate { lambdas, point: V::ZERO, distance2: V::Real::ZERO }, true);
        }
        let q = w[i] * lambdas[i] + w[j] * lambdas[j] + w[k] * lambdas[k];
        let positive =
            lambdas[i] > V::Real::ZERO && lambdas[j] > V::Real::ZERO && lambdas[k] > V::Real::ZERO;
        // `((0 + a) + b) + c` and `((a + b) + c) + 0` are the same to the bit (both only
        // turn a `−0` result into `+0`): `q + 0` is `positive_sum` when every weight counts.
        let point = if positive { q + V::ZERO } else { positive_sum(w, &lambdas, [i, j, k]) };
        return (Candidate { lambdas, point, distance2: q.length_squared() }, false);
    }
    // Outside (or degenerate, mu = 0): try each edge the origin lies beyond.
    let outside = |c: V::Real| !(mu > V::Real::ZERO && c >= V::Real::ZERO);
    let mut best = None;
    if outside(ci) {
        keep_closer(&mut best, segment(w, j, k));
    }
    if outside(cj) {
        keep_closer(&mut best, segment(w, i, k));
    }
    if outside(ck) {
        keep_closer(&mut best, segment(w, i, j));
    }
    (best.unwrap_or_else(|| vertex(w, i)), false)
}

/// The point of the tetrahedron `w₀ … w₃` closest to the origin, and whether it contains the
/// origin.
fn tetrahedron<V: Vector>(w: &Ws<V>) -> (Candidate<V>, bool) {
    let o = V::ZERO;
    let vol = V::tetrahedron_volume6;
    let c = [
        vol(o, w[1], w[2], w[3]),
        vol(w[0], o, w[2], w[3]),
        vol(w[0], w[1], o, w[3]),
        vol(w[0], w[1], w[2], o),
    ];
    let (c, mu) = oriented(c, c[0] + c[1] + c[2] + c[3]);
    if mu > V::Real::ZERO && c.iter().all(|&ci| ci >= V::Real::ZERO) {
        let mut lambdas = [V::Real::ZERO; 4];
        for (l, ci) in lambdas.iter_mut().zip(c) {
            *l = ci / mu;
        }
        return (Candidate { lambdas, point: V::ZERO, distance2: V::Real::ZERO }, true);
    }
    // Every face the origin lies beyond is tried, the one opposite the newest vertex w₃
    // included. In the GJK loop that face is never taken: the loop adds w₃ only when
    // `v·w₃ < |v|²` beyond rounding, where v is the old triangle's closest point, the foot of
    // the origin on its plane, so w₃ and the origin lie on the same side of that plane and
    // c₃ agrees with mu. Skipping the face would save one comparison (c₃ is needed for mu).
    let outside = |c: V::Real| !(mu > V::Real::ZERO && c >= V::Real::ZERO);
    let mut best = None;
    if outside(c[0]) {
        keep_closer(&mut best, triangle(w, 1, 2, 3).0);
    }
    if outside(c[1]) {
        keep_closer(&mut best, triangle(w, 0, 2, 3).0);
    }
    if outside(c[2]) {
        keep_closer(&mut best, triangle(w, 0, 1, 3).0);
    }
    if outside(c[3]) {
        keep_closer(&mut best, triangle(w, 0, 1, 2).0);
    }
    (best.unwrap_or_else(|| vertex(w, 0)), false)
}

/// The edge from `p` to `q` of the Minkowski difference: the difference of A's points where
/// both share B's point, of B's (negated) where both share A's, else of the differences.
#[inline]
fn edge<V: Vector>(p: &SupportPoint<V>, q: &SupportPoint<V>) -> V {
    if p.b == q.b {
        q.a - p.a
    } else if p.a == q.a {
        p.b - q.b
    } else {
        q.w - p.w
    }
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

    /// The closest point of the hull of `ws` to the origin by brute force: every vertex, every
    /// edge clamped, every triangle whose plane's foot of the origin lies inside it (by 3D
    /// cross products, not the solver's projected areas), and the tetrahedron when its signed
    /// volumes say it holds the origin; the nearest of these. Returns the distance. The points
    /// are first scaled to unit size (so that no cross product or volume underflows or
    /// overflows at scales of 1e±100), the distance scaled back.
    fn brute_distance(ws: &[DVec3]) -> f64 {
        let size = ws.iter().fold(0.0f64, |m, w| m.max(w.max_abs()));
        if size == 0.0 {
            return 0.0;
        }
        let unit: Vec<DVec3> = ws.iter().map(|&w| w / size).collect();
        brute_distance_unit(&unit) * size
    }

    /// [`brute_distance`] for points of about unit size.
    fn brute_distance_unit(ws: &[DVec3]) -> f64 {
        let mut best = f64::INFINITY;
        for &a in ws {
            best = best.min(a.length());
        }
        for (x, &a) in ws.iter().enumerate() {
            for &b in &ws[x + 1..] {
                let t = b - a;
                if t.length_squared() > 0.0 {
                    let s = (-a.dot(t) / t.length_squared()).clamp(0.0, 1.0);
                    best = best.min((a + t * s).length());
                }
            }
        }
        for (x, &a) in ws.iter().enumerate() {
            for (y, &b) in ws.iter().enumerate().skip(x + 1) {
                for &c in &ws[y + 1..] {
                    let n = (b - a).cross(c - a);
                    let nn = n.length_squared();
                    if nn == 0.0 || !nn.is_finite() {
                        continue;
                    }
                    let p = n * (n.dot(a) / nn);
                    let inside = [(a, b), (b, c), (c, a)]
                        .iter()
                        .all(|&(u, v)| (v - u).cross(p - u).dot(n) >= -1e-12 * nn);
                    if inside {
                        best = best.min(p.length());
                    }
                }
            }
        }
        if ws.len() == 4 {
            let vol = |a: DVec3, b: DVec3, c: DVec3, d: DVec3| (b - a).dot((c - a).cross(d - a));
            let o = DVec3::ZERO;
            let c = [
                vol(o, ws[1], ws[2], ws[3]),
                vol(ws[0], o, ws[2], ws[3]),
                vol(ws[0], ws[1], o, ws[3]),
                vol(ws[0], ws[1], ws[2], o),
            ];
            let mu: f64 = c.iter().sum();
            if mu != 0.0 && c.iter().all(|&ci| ci * mu.signum() > 0.0) {
                best = 0.0;
            }
        }
        best
    }

    /// Checks one simplex against the brute force: the reported point is `Σ λᵢ wᵢ` over the
    /// kept vertices with weights in [0, 1] summing to 1, and as near as the brute force's
    /// (within rounding of the simplex's size).
    fn check_against_brute(ws: &[DVec3]) {
        let mut s = simplex_of(ws);
        let closest = s.reduce();
        let scale = ws.iter().fold(0.0f64, |m, w| m.max(w.max_abs()));
        let expected = brute_distance(ws);
        let tolerance = 1e-9 * scale;
        assert!(
            (closest.length() - expected).abs() <= tolerance,
            "{ws:?}: solver {} against brute force {expected}",
            closest.length()
        );
        let sum: f64 = s.barycentric().iter().sum();
        assert!((sum - 1.0).abs() < 1e-12, "{ws:?}: weights sum to {sum}");
        assert!(s.barycentric().iter().all(|&l| (0.0..=1.0).contains(&l)));
        if closest != DVec3::ZERO {
            let combined = s.closest_point();
            assert!((combined - closest).length() <= tolerance, "{ws:?}: {combined} vs {closest}");
        }
    }

    #[test]
    fn matches_brute_force_on_degenerate_simplices() {
        use crate::test_rng::{Draw, Rng};
        let mut rng = Rng::new(0x51_3913);
        for scale in [1e-60, 1e-8, 1.0, 1e8, 1e100] {
            for round in 0..400 {
                let offset = rng.in_cube() * 2.0;
                let dir = rng.on_sphere();
                let other = rng.on_sphere();
                let mut ws = [DVec3::ZERO; 4];
                for w in &mut ws {
                    *w = match round % 5 {
                        // Collinear: all on one line.
                        0 => offset + dir * (rng.unit() * 4.0 - 2.0),
                        // Coplanar: all in one plane (the origin on it or off it).
                        1 | 2 => {
                            let lift = if round % 5 == 1 { offset } else { DVec3::ZERO };
                            lift + dir * (rng.unit() * 4.0 - 2.0) + other * (rng.unit() * 4.0 - 2.0)
                        }
                        // Slivers: a tiny spread about one point.
                        3 => offset + rng.in_cube() * 1e-7,
                        // General position.
                        _ => offset + rng.in_cube(),
                    } * scale;
                }
                // Flat and sliver tetrahedra (collinear, coplanar and tiny-spread draws) are
                // left out: their four volumes are rounding noise (each a triple product of
                // the vertices themselves), which can agree in sign and claim the origin
                // inside, or pick the wrong faces. The GJK loop never builds one: its fourth
                // vertex stands off the triangle's plane by the duality gap. Their triangles,
                // segments and vertices are in.
                let flat = round % 5 < 4;
                for len in 1..=if flat { 3 } else { 4 } {
                    check_against_brute(&ws[..len]);
                }
                // Repeated vertices.
                check_against_brute(&[ws[0], ws[1], ws[0]]);
                check_against_brute(&[ws[2], ws[2]]);
            }
        }
    }
}
