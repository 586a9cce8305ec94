//! The feature finisher of GJK's distance between cylinders and cones.
//!
//! On curved shapes GJK converges linearly: near the answer each iteration cuts the duality
//! gap by about four (docs/benchmarks.md, issue 16), so from a gap of 1e-3 to `f64`'s 1e-10 it
//! spends a dozen iterations. A cylinder is the hull of its two rim circles and a cone the hull
//! of its apex and its base rim, so every support point GJK finds lies on one of these
//! *generating circles* (or is the apex). Once the gap is small, the simplex's vertices name
//! the features that meet: a rim against a cone's side is two vertices that share the rim's
//! point and end on the apex and on the base rim, two crossing rims one vertex, and so on.
//! Held on their circles, each vertex is a smooth function of the search direction `d`: the
//! point of its circle farthest along `d` (for A) and along `−d` (for B). The answer is the
//! direction that the closest point `v(d)` of the vertices' affine hull points against:
//! `−v(d) ∥ d`, two equations in the tangent plane, which Newton's method solves in a few
//! steps (its Jacobian by finite differences).
//!
//! Nothing here is trusted: the vertices it returns are true support points of the two
//! shapes' circles (points of A minus points of B) with positive weights, so their
//! combination is a point of the Minkowski difference and its length an upper bound of the
//! distance; the caller asks the shapes' full support function along it for the lower bound
//! and accepts the answer only when GJK's own duality-gap test closes (`Run::finish_curved`
//! in `gjk.rs`). When the features were misread (a vertex about to leave the simplex,
//! a flat cap) the test fails and GJK goes on from where it was.

use crate::geometry::{cross, unit};
use crate::math::{Real, Vector};
use crate::shape::Core;
use crate::simplex::SupportPoint;

/// The rims of A's core and of B's.
pub(crate) type RimPair<R> = (Rims<R>, Rims<R>);

/// The generating circles of a cylinder's or a cone's core, in its local frame (axis `y`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rims<R> {
    half_height: R,
    radius: R,
    /// A cone (one rim at `y = −h`, the apex at `y = h`) rather than a cylinder (rims at `±h`).
    cone: bool,
}

impl<R: Real> Rims<R> {
    /// The rims of a cylinder's or a cone's core; `None` for every other core (and for a
    /// radius that is not positive: no circle to move along).
    #[inline]
    pub(crate) fn of<V: Vector<Real = R>>(core: &Core<'_, V>) -> Option<Self> {
        let (half_height, radius, cone) = match *core {
            Core::Cylinder { half_height, radius } => (half_height, radius, false),
            Core::Cone { half_height, radius } => (half_height, radius, true),
            _ => return None,
        };
        radius.is_positive().then_some(Self { half_height, radius, cone })
    }

    /// Which generating circle the support point `p` (local frame) lies on: its height, or
    /// `None` for a point that must stay where it is (the apex, a point off the rims).
    fn circle_of<V: Vector<Real = R>>(&self, p: V) -> Option<R> {
        let y = p.component(1);
        let (x, z) = (p.component(0), p.component(2));
        let r2 = self.radius * self.radius;
        let off = (x * x + z * z - r2).abs();
        if off > R::from_f64(64.0) * R::EPSILON * r2 {
            return None;
        }
        let h = self.half_height;
        if y == -h || (!self.cone && y == h) {
            Some(y)
        } else {
            None
        }
    }

    /// The point of the circle at `height` farthest along `dir` (local frame).
    #[inline(always)]
    fn point<V: Vector<Real = R>>(&self, height: R, dir: V) -> V {
        // As the shapes' own support (`rim_point`), without its rescaling of the direction:
        // the finisher's directions are near unit length.
        let (x, z) = (dir.component(0), dir.component(2));
        let xz2 = x * x + z * z;
        if !xz2.is_positive() {
            return V::from_components([R::ZERO, height, R::ZERO]);
        }
        let scale = self.radius / xz2.sqrt();
        V::from_components([x * scale, height, z * scale])
    }
}

/// One vertex of the simplex as a function of the search direction: each side either a
/// circle (its height) or a fixed point.
#[derive(Clone, Copy)]
struct Vertex<V: Vector> {
    /// A's circle, or `None`: A's point stays `a`.
    circle_a: Option<V::Real>,
    /// B's circle, or `None`: B's point stays `b_local`.
    circle_b: Option<V::Real>,
    a: V,
    /// B's point in A's frame and in B's.
    b: V,
    b_local: V,
}

/// What the finisher found: true support points, their positive weights, and the point of
/// their hull closest to the origin.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Finished<V: Vector> {
    /// The vertices (`len` of them), points of A and of B on their generating circles.
    pub(crate) points: [SupportPoint<V>; 3],
    /// Their weights (positive, summing to one).
    pub(crate) lambdas: [V::Real; 3],
    /// How many vertices.
    pub(crate) len: usize,
    /// `Σ λᵢ wᵢ`, computed along the hull's normal (see [`project`]).
    pub(crate) v: V,
}

/// The most Newton steps before the answer goes to the certificate as it is.
const MAX_STEPS: usize = 8;

/// Newton stops after a step of at most this (in the tangent plane of a unit direction):
/// the next would be about its square, far below `f64`'s and `f32`'s default tolerances in
/// the duality gap (measured: settling at 1e-3 fails the certificate more often and costs
/// more instructions in `f64`, at 1e-5 costs more steps).
const SETTLE: f64 = 1e-4;

/// The Jacobian is kept while each step is at most this fraction of the last.
const CHORD_RATE: f64 = 0.25;

/// Newton's method on the direction `d` for the vertices of `simplex` held on their circles
/// (see the [module docs](self)). `v` is GJK's current closest point, `to_b` turns a
/// direction of A's frame into B's, `from_b` a point of B's frame into A's. `None` when the
/// simplex has no vertex on a circle, the features are a flat cap's chord, or Newton does
/// not settle on a point inside the vertices' hull.
pub(crate) fn finish<V: Vector>(
    simplex: &[SupportPoint<V>],
    rims: RimPair<V::Real>,
    v: V,
    to_b: impl Fn(V) -> V,
    from_b: impl Fn(V) -> V,
) -> Option<Finished<V>> {
    let mut vertices =
        [Vertex { circle_a: None, circle_b: None, a: V::ZERO, b: V::ZERO, b_local: V::ZERO }; 3];
    let mut len = 0;
    if simplex.len() > 3 {
        return None;
    }
    for p in simplex {
        vertices[len] = Vertex {
            circle_a: rims.0.circle_of(p.a),
            circle_b: rims.1.circle_of(p.b_local),
            a: p.a,
            b: p.b,
            b_local: p.b_local,
        };
        len += 1;
    }
    // Two points of one rim far apart are a chord of a flat cap, whose points do not follow
    // the direction: they stay fixed (GJK is exact on flat features).
    let chord = |r: V::Real| r * V::Real::from_f64(0.25);
    for i in 0..len {
        for j in i + 1..len {
            let (vi, vj) = (vertices[i], vertices[j]);
            if vi.circle_a.is_some()
                && vi.circle_a == vj.circle_a
                && (vi.a - vj.a).length() > chord(rims.0.radius)
            {
                vertices[i].circle_a = None;
                vertices[j].circle_a = None;
            }
            if vi.circle_b.is_some()
                && vi.circle_b == vj.circle_b
                && (vi.b_local - vj.b_local).length() > chord(rims.1.radius)
            {
                vertices[i].circle_b = None;
                vertices[j].circle_b = None;
            }
        }
    }
    // Vertices on the same features become the same point: keep one.
    let same = |p: &Vertex<V>, q: &Vertex<V>| {
        p.circle_a == q.circle_a
            && p.circle_b == q.circle_b
            && (p.circle_a.is_some() || p.a == q.a)
            && (p.circle_b.is_some() || p.b_local == q.b_local)
    };
    let mut kept = 0;
    for i in 0..len {
        if !vertices[..kept].iter().any(|q| same(&vertices[i], q)) {
            vertices[kept] = vertices[i];
            kept += 1;
        }
    }
    let vertices = &vertices[..kept];
    if !vertices.iter().any(|p| p.circle_a.is_some() || p.circle_b.is_some()) {
        return None;
    }

    let d0 = unit(-v)?;
    let k = (0..3)
        .min_by(|&i, &j| {
            let (x, y) = (d0.component(i).abs(), d0.component(j).abs());
            x.partial_cmp(&y).unwrap_or(core::cmp::Ordering::Equal)
        })
        .unwrap_or(0);
    let e1 = unit(cross(d0, V::axis(k)))?;
    let e2 = cross(d0, e1);
    let n = vertices.len();
    // Each distinct circle once (a rim against a cone's side is two vertices on one rim):
    // per vertex, the index of its circle among the distinct ones, or `None` (fixed point).
    let mut heights_a = [V::Real::ZERO; 3];
    let mut heights_b = [V::Real::ZERO; 3];
    let (mut count_a, mut count_b) = (0, 0);
    let mut slot_a = [None; 3];
    let mut slot_b = [None; 3];
    let mut fixed_a = [V::ZERO; 3];
    let mut fixed_b = [V::ZERO; 3];
    for (i, p) in vertices.iter().enumerate() {
        fixed_a[i] = p.a;
        fixed_b[i] = p.b;
        slot_a[i] = p.circle_a.map(|y| slot(&mut heights_a, &mut count_a, y));
        slot_b[i] = p.circle_b.map(|y| slot(&mut heights_b, &mut count_b, y));
    }
    // The circles' points for the direction `d`: A's in A's frame, B's in B's (local) and
    // in A's.
    let circles = |d: V| {
        let d_b = to_b(-d);
        let mut a = [V::ZERO; 2];
        let mut b_local = [V::ZERO; 2];
        let mut b = [V::ZERO; 2];
        for k in 0..count_a.min(2) {
            a[k] = rims.0.point(heights_a[k], d);
        }
        for k in 0..count_b.min(2) {
            b_local[k] = rims.1.point(heights_b[k], d_b);
            b[k] = from_b(b_local[k]);
        }
        (a, b, b_local)
    };
    let ws = |d: V| {
        let (a, b, _) = circles(d);
        let mut w = [V::ZERO; 3];
        for i in 0..n {
            let pa = slot_a[i].map_or(fixed_a[i], |k: usize| a[k]);
            let pb = slot_b[i].map_or(fixed_b[i], |k: usize| b[k]);
            w[i] = pa - pb;
        }
        w
    };
    // The fixed point `u = g(u)`: the tangential coordinates of `−v(d(u))`; `F = g − u`.
    let residual = |u: [V::Real; 2]| {
        let (closest, _) = project(&ws(d0 + e1 * u[0] + e2 * u[1])[..n])?;
        let along = -closest.dot(d0);
        if !along.is_positive() {
            return None;
        }
        Some([-closest.dot(e1) / along - u[0], -closest.dot(e2) / along - u[1]])
    };

    // Newton's method with its Jacobian by finite differences, kept while the steps shrink
    // fast (each refresh costs two more evaluations).
    let h = V::Real::EPSILON.sqrt();
    let settle = V::Real::from_f64(SETTLE);
    let chord = V::Real::from_f64(CHORD_RATE);
    let limit = V::Real::from_f64(0.5);
    let mut u = [V::Real::ZERO; 2];
    let mut jacobian: Option<[V::Real; 4]> = None;
    let mut last = V::Real::from_f64(1e30);
    for _ in 0..MAX_STEPS {
        let f = residual(u)?;
        let [j11, j12, j21, j22] = match jacobian {
            Some(j) => j,
            None => {
                let f1 = residual([u[0] + h, u[1]])?;
                let f2 = residual([u[0], u[1] + h])?;
                let j = [
                    (f1[0] - f[0]) / h,
                    (f2[0] - f[0]) / h,
                    (f1[1] - f[1]) / h,
                    (f2[1] - f[1]) / h,
                ];
                jacobian = Some(j);
                j
            }
        };
        let det = j11 * j22 - j12 * j21;
        if det.abs() <= V::Real::EPSILON || !det.is_finite() {
            return None;
        }
        let step = [(j12 * f[1] - j22 * f[0]) / det, (j21 * f[0] - j11 * f[1]) / det];
        u = [u[0] + step[0], u[1] + step[1]];
        if !(u[0].abs() < limit && u[1].abs() < limit) {
            return None;
        }
        let size = step[0].abs().max(step[1].abs());
        if size <= settle {
            break;
        }
        if size > last * chord {
            jacobian = None;
        }
        last = size;
    }
    let d = d0 + e1 * u[0] + e2 * u[1];
    let (a, b, b_local) = circles(d);
    let mut found = [SupportPoint::new(V::ZERO, V::ZERO, V::ZERO); 3];
    for i in 0..n {
        let p = &vertices[i];
        let pa = slot_a[i].map_or(p.a, |k: usize| a[k]);
        let (pb, pb_local) =
            slot_b[i].map_or((fixed_b[i], p.b_local), |k: usize| (b[k], b_local[k]));
        found[i] = SupportPoint::new(pa, pb, pb_local);
    }
    let w = [found[0].w, found[1].w, found[2].w];
    let (closest, lambdas) = project(&w[..n])?;
    if lambdas[..n].iter().any(|l| !l.is_positive()) {
        return None;
    }
    Some(Finished { points: found, lambdas, len: n, v: closest })
}

/// The index of the circle at height `y` among the first `count` of `heights`, added when new.
fn slot<R: Real>(heights: &mut [R; 3], count: &mut usize, y: R) -> usize {
    for (k, &h) in heights.iter().enumerate().take(*count) {
        if h == y {
            return k;
        }
    }
    heights[*count] = y;
    *count += 1;
    *count - 1
}

/// The point of the affine hull of `w` (one to three points) closest to the origin, and its
/// weights; `None` for a degenerate hull. The point is computed along the hull's normal
/// (`n (n·w₀)/|n|²`, from edge vectors), which keeps its direction where it is short next to
/// the vertices (as [`crate::simplex`]'s facet projection does).
fn project<V: Vector>(w: &[V]) -> Option<(V, [V::Real; 3])> {
    let one = V::Real::ONE;
    let zero = V::Real::ZERO;
    match w.len() {
        1 => Some((w[0], [one, zero, zero])),
        2 => {
            let e = w[1] - w[0];
            let ee = e.length_squared();
            if !ee.is_positive() {
                return None;
            }
            let t = -w[0].dot(e) / ee;
            Some((w[0] + e * t, [one - t, t, zero]))
        }
        3 => {
            let (e1, e2) = (w[1] - w[0], w[2] - w[0]);
            let n = cross(e1, e2);
            let nn = n.length_squared();
            if !nn.is_positive() {
                return None;
            }
            let closest = n * (n.dot(w[0]) / nn);
            // Weights by areas: the closest point's share of the triangle opposite each corner.
            let l1 = cross(w[2] - closest, w[0] - closest).dot(n) / nn;
            let l2 = cross(w[0] - closest, w[1] - closest).dot(n) / nn;
            Some((closest, [one - l1 - l2, l1, l2]))
        }
        _ => None,
    }
}
