//! A segment against a box (a capsule's core against a box's): penetration by the
//! separating-axis test, and the distance with its closest points by the exact minimum of a
//! convex piecewise quadratic ([`segment_box_closest`]), without GJK or EPA.
//!
//! Seen from the box's frame (the box `[−h, h]`, the segment `p₀ p₁` with direction `d` and
//! centre `c`), the Minkowski difference `D = S − B` of the segment and the box is the box swept
//! along the segment. Its faces are the box's faces, and the parallelograms swept by a box edge
//! along `d`, whose normals are `d × eᵢ` (3D: one per axis `i`; 2D: the segment's own normal
//! `d⊥`). Along a unit axis `n` (oriented toward the segment, `n·c ≥ 0`) its support value is
//!
//! `h_D(n) = Σᵢ hᵢ |nᵢ| + |n·d| / 2 − n·c`,
//!
//! so the smallest `h_D` over those 6 axes (4 in 2D) is the exact depth of the cores (see the
//! [parent module](super)). Along a box axis the segment term and the centre combine into the
//! segment's end nearest the box, `h_D(s eᵢ) = hᵢ − min(s p₀ᵢ, s p₁ᵢ)`; along a swept axis
//! `n ⟂ d`, the segment projects to the single value `n·c`.
//!
//! The swept axes use the unit direction `u = d / |d|`, so their products stay lengths (no
//! overflow or underflow of squared lengths at extreme scales); their norm is
//! `√(u_j² + u_k²)`, without cancellation. A zero-length segment has no swept axes: the box's
//! faces alone bound a point's depth. A swept axis along a box axis (the segment parallel to a
//! box face) repeats that face's axis, and ties prefer faces.
//!
//! The witness points come from the features touching across the winning axis:
//! * a **box face**: the segment's end deepest in the box; when the segment lies parallel to
//!   the face (within rounding), the middle of its part within the face's side slabs (the
//!   overlap patch). The origin's projection onto the face of `D` lies in that face, so the
//!   point's foot lies on the box's face;
//! * a **swept axis**: the closest points of the segment and the box's edge along axis `i`
//!   farthest toward the segment (3D), or the box's corner farthest toward it (2D).
//!
//! The test declines (`None`) input whose numbers overflow (NaN or infinite overlaps), and
//! pairs smaller than `Real::QUARTIC_SAFE`'s lower end (`1e-75` in `f64`, `1e-9` in `f32`),
//! whose products approach the subnormal range: the general path answers there. The distance
//! declines the same, and pairs larger than its upper end (`1e75`, `1e9`).

use super::AxisTest;
use crate::geometry::unit;
use crate::math::{Real, Vector};
use crate::shape::closest_on_segments;

/// The segment `ends` against the box `[−half, half]`, both in the box's frame: the answer with
/// the box as A (the normal from the box toward the segment, `point_a` on the box, `point_b`
/// on the segment), in the box's frame; a caller whose A is the segment swaps them. `None`:
/// the numbers overflowed.
pub(crate) fn segment_box<V: Vector>(ends: [V; 2], half: V) -> Option<AxisTest<V>> {
    let test = Test::new(ends, half);
    let search = test.search()?;
    if search.gap > V::Real::ZERO {
        return Some(AxisTest::Apart { gap: search.gap });
    }
    let depth = search.best;
    let normal = test.normal(search.kind);
    let on_segment = test.witness(search.kind, normal, search.slop);
    let on_box = on_segment + normal * depth;
    Some(AxisTest::Overlap { depth, normal, point_a: on_box, point_b: on_segment })
}

/// The largest separation over the axes (positive: apart, a lower bound of the distance;
/// otherwise minus the depth), or `None` when the numbers overflowed. No witnesses: what an
/// intersection test needs.
pub(crate) fn segment_box_separation<V: Vector>(ends: [V; 2], half: V) -> Option<V::Real> {
    Some(Test::new(ends, half).search()?.gap)
}

/// Which axis: a face normal of the box (by axis), or the segment swept along the box's edge
/// of axis `i` (3D), or the segment's normal (2D, `i = 0`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Face(usize),
    Swept(usize),
}

/// The running minimum over the axes.
struct Search<R> {
    best: R,
    kind: Kind,
    /// The largest separation (minus the overlap) seen.
    gap: R,
    /// How much smaller a later axis must be to win (ties keep faces), and the rounding scale
    /// of the pair.
    slop: R,
}

impl<R: Real> Search<R> {
    /// The search, or `None` when a number overflowed.
    #[inline(always)]
    fn finite(self) -> Option<Self> {
        (self.best.is_finite() && self.gap.is_finite()).then_some(self)
    }

    #[inline(always)]
    fn consider(&mut self, overlap: R, kind: Kind) {
        self.gap = self.gap.max(-overlap);
        if overlap < self.best - self.slop {
            self.best = overlap;
            self.kind = kind;
        }
    }
}

/// A vector's coordinates (zero past `DIM`).
#[inline(always)]
fn coords<V: Vector>(v: V) -> [V::Real; 3] {
    let mut c = [V::Real::ZERO; 3];
    for (i, x) in c.iter_mut().enumerate().take(V::DIM) {
        *x = v.component(i);
    }
    c
}

/// The segment seen from the box's frame.
struct Test<V: Vector> {
    ends: [V; 2],
    half: V,
    /// `p₁ − p₀`.
    d: V,
    /// Twice the centre, `p₀ + p₁` (halved where used: one rounding fewer).
    c2: V,
}

impl<V: Vector> Test<V> {
    #[inline(always)]
    fn new(ends: [V; 2], half: V) -> Self {
        let [p0, p1] = ends;
        Self { ends, half, d: p1 - p0, c2: p0 + p1 }
    }

    /// The side of the box the segment's centre is on along axis `i` (`+1` on the plane).
    #[inline(always)]
    fn side(&self, i: usize) -> V::Real {
        if self.c2.component(i) < V::Real::ZERO {
            -V::Real::ONE
        } else {
            V::Real::ONE
        }
    }

    /// The minimum of `h_D` over the face and swept axes; `None` when a number overflowed.
    // Plain arrays and fixed index pairs, not `component(i)` in a loop over `i % 3`: the
    // runtime index kept the loops from unrolling.
    #[inline(always)]
    fn search(&self) -> Option<Search<V::Real>> {
        let [p0, p1] = self.ends;
        let (zero, half) = (V::Real::ZERO, V::Real::from_f64(0.5));
        let size = p0.max_abs().max(p1.max_abs()).max(self.half.max_abs());
        if size < V::Real::QUARTIC_SAFE[0] {
            // Near the bottom of the range the overlaps' rounding is as large as they are
            // (subnormal products), and GJK's verdicts are the ones the other queries share.
            return None;
        }
        let slop = V::Real::from_f64(8.0) * V::Real::EPSILON * size;
        let mut search =
            Search { best: V::Real::INFINITY, kind: Kind::Face(0), gap: -V::Real::INFINITY, slop };
        let (a, b, h, c2) = (coords(p0), coords(p1), coords(self.half), coords(self.c2));
        for i in 0..V::DIM {
            // The end nearest the box along the axis oriented toward the segment's centre.
            let nearest = if c2[i] < zero { -(a[i].max(b[i])) } else { a[i].min(b[i]) };
            search.consider(h[i] - nearest, Kind::Face(i));
        }
        let Some(u) = unit(self.d) else {
            return search.finite();
        };
        let (u, c) = (coords(u), [c2[0] * half, c2[1] * half, c2[2] * half]);
        if V::DIM == 2 {
            // The segment's normal `u⊥ = (−u_y, u_x)`, a unit vector already.
            let radii = h[0] * u[1].abs() + h[1] * u[0].abs();
            let along = c[1] * u[0] - c[0] * u[1];
            search.consider(radii - along.abs(), Kind::Swept(0));
            return search.finite();
        }
        for (i, (j, k)) in [(1, 2), (2, 0), (0, 1)].into_iter().enumerate() {
            let length2 = u[j] * u[j] + u[k] * u[k];
            if !length2.is_positive() {
                continue; // the segment along axis i: the face axes cover it
            }
            // `L = u × eᵢ` has coordinates `L_j = u_k`, `L_k = −u_j`.
            let radii = h[j] * u[k].abs() + h[k] * u[j].abs();
            let along = c[j] * u[k] - c[k] * u[j];
            search.consider((radii - along.abs()) / length2.sqrt(), Kind::Swept(i));
        }
        search.finite()
    }

    /// The unit normal of an axis, oriented from the box toward the segment.
    fn normal(&self, kind: Kind) -> V {
        let zero = V::Real::ZERO;
        let axis = match kind {
            Kind::Face(i) => return V::axis(i) * self.side(i),
            Kind::Swept(i) => {
                let mut c = [zero; 3];
                if V::DIM == 2 {
                    c[0] = -self.d.component(1);
                    c[1] = self.d.component(0);
                } else {
                    let (j, k) = ((i + 1) % 3, (i + 2) % 3);
                    c[j] = self.d.component(k);
                    c[k] = -self.d.component(j);
                }
                // A swept axis won only with a segment of some length: `unit` answers.
                unit(V::from_components(c)).unwrap_or(V::axis(0))
            }
        };
        if axis.dot(self.c2) < zero {
            -axis
        } else {
            axis
        }
    }

    /// The segment's witness point (box frame) across the winning axis, whose normal (box
    /// toward segment) is `n`; `tie` is the rounding scale within which the segment counts as
    /// parallel to a face.
    fn witness(&self, kind: Kind, n: V, tie: V::Real) -> V {
        let [p0, p1] = self.ends;
        // The segment's end deepest toward the box.
        let deepest = if n.dot(p1) < n.dot(p0) { p1 } else { p0 };
        match kind {
            Kind::Face(i) if self.d.component(i).abs() <= tie => {
                self.clipped_middle(i).unwrap_or(deepest)
            }
            Kind::Face(_) => deepest,
            Kind::Swept(_) if V::DIM == 2 => {
                // The box's corner toward the segment, moved onto the segment's line.
                let corner = self.corner(n, usize::MAX);
                corner - n * n.dot(corner - p0)
            }
            Kind::Swept(i) => {
                let corner = self.corner(n, i);
                let span = V::axis(i) * self.half.component(i);
                let (s, _) = closest_on_segments(self.ends, [corner - span, corner + span]);
                p0 + self.d * s
            }
        }
    }

    /// The box's corner farthest along `n`, with coordinate `skip` (if any) set to 0: the
    /// middle of the edge along that axis.
    fn corner(&self, n: V, skip: usize) -> V {
        let mut c = [V::Real::ZERO; 3];
        for (k, x) in c.iter_mut().enumerate().take(V::DIM) {
            if k != skip {
                let h = self.half.component(k);
                *x = if n.component(k) < V::Real::ZERO { -h } else { h };
            }
        }
        V::from_components(c)
    }

    /// The middle of the part of the segment within the box's side slabs `|x_k| ≤ h_k`,
    /// `k ≠ face` (the overlap patch of a segment lying on that face); `None` when rounding
    /// leaves nothing.
    fn clipped_middle(&self, face: usize) -> Option<V> {
        let (mut t0, mut t1) = (V::Real::ZERO, V::Real::ONE);
        let p0 = self.ends[0];
        for k in (0..V::DIM).filter(|&k| k != face) {
            let (x, dx, h) = (p0.component(k), self.d.component(k), self.half.component(k));
            if dx == V::Real::ZERO {
                if x.abs() > h {
                    return None;
                }
                continue;
            }
            // Where the segment crosses the slab's two planes.
            let (a, b) = ((-h - x) / dx, (h - x) / dx);
            let (enter, leave) = if a < b { (a, b) } else { (b, a) };
            t0 = t0.max(enter);
            t1 = t1.min(leave);
        }
        (t0 <= t1).then(|| p0 + self.d * ((t0 + t1) * V::Real::from_f64(0.5)))
    }
}

/// The closest points of a segment and a box, both in the box's frame ([`segment_box_closest`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Closest<V: Vector> {
    /// The segment's point `p₀ + t (p₁ − p₀)`: its parameter.
    pub(crate) t: V::Real,
    /// The segment's closest point.
    pub(crate) on_segment: V,
    /// The box's closest point, the segment's point clamped to `[−h, h]` (equal to it when the
    /// segment meets the box).
    pub(crate) on_box: V,
}

impl<V: Vector> Closest<V> {
    /// The gap from the box to the segment, `on_segment − on_box`: each coordinate either
    /// exactly 0 (within the box's slab) or the segment point's excess over the face.
    #[inline(always)]
    pub(crate) fn gap(&self) -> V {
        self.on_segment - self.on_box
    }
}

/// The closest points of the segment `ends` and the solid box `[−half, half]`, both in the
/// box's frame; `None` for input the kernel declines (numbers outside `Real::QUARTIC_SAFE`, NaN
/// or infinite), which the general path answers.
///
/// The squared distance `f(t) = Σᵢ φᵢ(p₀ᵢ + t dᵢ)`, `φᵢ(x) = (|x| − hᵢ)₊²`, is convex and
/// piecewise quadratic in `t`, with breakpoints where a coordinate crosses `±hᵢ`: the segment's
/// line is within axis `i`'s slab `|xᵢ| ≤ hᵢ` for `t ∈ [sᵢ, eᵢ]`. Half its slope is
///
/// `g(t) = Σᵢ dᵢ² ((t − eᵢ)₊ − (sᵢ − t)₊)`,
///
/// continuous, nondecreasing, linear between breakpoints. The minimum over `[0, 1]` of a convex
/// function is its minimum over the whole line clamped to `[0, 1]`, so no case analysis of
/// the ends is needed. Axes the segment runs parallel to (`|dᵢ|` within the rounding scale)
/// add a constant to `f` and take no part. With `enter = max sᵢ` (axis `m`) and
/// `leave = min eᵢ` (axis `k`) over the other axes:
/// * `enter ≤ leave`: `g` vanishes on `[enter, leave]`, the whole set of minimisers (`f` there
///   is the constant of the parallel axes, and at least that everywhere). The answer is the
///   middle of its part within `[0, 1]` (deterministic, the same for the reversed segment: a
///   segment through the box gives the middle of its chord inside, one lying parallel above a
///   face the middle of its part over the face, a zero-length segment its point), or the end
///   nearest to it;
/// * `enter > leave`: one minimiser, between them (`g(leave) ≤ 0 ≤ g(enter)`). There axis `k`
///   is past its slab and axis `m` before it; the only other breakpoints are the third axis's
///   (3D), so `g`'s root is the weighted mean `(d_k² e_k + d_m² s_m) / (d_k² + d_m²)`, with the
///   third axis's `d_j² s_j` or `d_j² e_j` added when that mean lies before or past its slab.
///
/// No loop and no sorting: six divisions and a few comparisons.
pub(crate) fn segment_box_closest<V: Vector>(ends: [V; 2], half: V) -> Option<Closest<V>> {
    let [p0, p1] = ends;
    let size = p0.max_abs().max(p1.max_abs()).max(half.max_abs());
    let [low, high] = V::Real::QUARTIC_SAFE;
    // Products of two coordinates (and a coordinate over the rounding scale) stay normal
    // numbers; a NaN fails both comparisons.
    if !(size >= low && size <= high) {
        return None;
    }
    let (zero, one) = (V::Real::ZERO, V::Real::ONE);
    let tie = V::Real::from_f64(8.0) * V::Real::EPSILON * size;
    let (a, h, d) = (coords(p0), coords(half), coords(p1 - p0));
    let infinity = V::Real::INFINITY;
    // Per moving axis: the slab's parameter interval `[s, e]` and the weight `d²`.
    let (mut s, mut e, mut weight) = ([-infinity; 3], [infinity; 3], [zero; 3]);
    let (mut enter, mut leave, mut m, mut k) = (-infinity, infinity, 0, 0);
    for i in 0..V::DIM {
        if d[i].abs() > tie {
            let (u, v) = ((-h[i] - a[i]) / d[i], (h[i] - a[i]) / d[i]);
            (s[i], e[i], weight[i]) = (u.min(v), u.max(v), d[i] * d[i]);
            if s[i] > enter {
                (enter, m) = (s[i], i);
            }
            if e[i] < leave {
                (leave, k) = (e[i], i);
            }
        }
    }
    let t = if enter <= leave {
        let (from, to) = (enter.max(zero), leave.min(one));
        if from <= to {
            (from + to) * V::Real::HALF
        } else if leave < zero {
            zero
        } else {
            one
        }
    } else {
        let mut num = weight[k] * e[k] + weight[m] * s[m];
        let mut den = weight[k] + weight[m];
        if V::DIM == 3 {
            let j = 3 - k - m;
            let root = num / den;
            if weight[j] > zero && (root < s[j] || root > e[j]) {
                let bound = if root < s[j] { s[j] } else { e[j] };
                num += weight[j] * bound;
                den += weight[j];
            }
        }
        (num / den).max(zero).min(one)
    };
    let on_segment = if t == zero {
        p0
    } else if t == one {
        p1
    } else {
        p0 + (p1 - p0) * t
    };
    let on_box = on_segment.component_max(-half).component_min(half);
    on_segment.is_finite().then_some(Closest { t, on_segment, on_box })
}
