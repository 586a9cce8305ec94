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
//! steps (its Jacobian exact: the circle points' derivatives are closed form).
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

    /// Which generating circle the support point `p` (local frame) lies on: 1 for the rim at
    /// `y = −h`, 2 for a cylinder's rim at `y = h`, 0 for a point that must stay where it is
    /// (the apex, a point off the rims).
    #[inline(always)]
    fn circle_of<V: Vector<Real = R>>(&self, p: V) -> u8 {
        let (y, h) = (p.component(1), self.half_height);
        let code = if y == -h {
            1
        } else if !self.cone && y == h {
            2
        } else {
            return 0;
        };
        let (x, z) = (p.component(0), p.component(2));
        let r2 = self.radius * self.radius;
        let off = (x * x + z * z - r2).abs();
        if off > R::from_f64(64.0) * R::EPSILON * r2 {
            0
        } else {
            code
        }
    }

    /// The height of circle `code` (1 or 2, see [`Rims::circle_of`]).
    #[inline(always)]
    fn height(&self, code: u8) -> R {
        if code == 1 {
            -self.half_height
        } else {
            self.half_height
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

    /// [`Rims::point`] and its derivatives as `dir` moves along `tangents`: `R/ρ (t − q (q·t))`
    /// across the axis, with `q` the unit `xz` direction and `ρ` the length of `dir`'s `xz`
    /// part. `None` along the axis (the point jumps).
    #[inline(always)]
    fn point_sloped<V: Vector<Real = R>>(
        &self,
        height: R,
        dir: V,
        tangents: [V; 2],
    ) -> Option<(V, [V; 2])> {
        let (x, z) = (dir.component(0), dir.component(2));
        let xz2 = x * x + z * z;
        if !xz2.is_positive() {
            return None;
        }
        let inv = R::ONE / xz2.sqrt();
        let scale = self.radius * inv;
        let (qx, qz) = (x * inv, z * inv);
        let slope = |t: V| {
            let (tx, tz) = (t.component(0), t.component(2));
            let along = qx * tx + qz * tz;
            V::from_components([scale * (tx - qx * along), R::ZERO, scale * (tz - qz * along)])
        };
        Some((
            V::from_components([x * scale, height, z * scale]),
            [slope(tangents[0]), slope(tangents[1])],
        ))
    }
}

/// B's pose relative to A, as the finisher needs it: directions into B's frame, B's points and
/// vectors back into A's.
pub(crate) trait Relative<V: Vector> {
    /// `Rᵀ d`: a direction of A's frame in B's.
    fn to_b(&self, d: V) -> V;
    /// `R v`: a vector of B's frame in A's.
    fn rotate_from_b(&self, v: V) -> V;
    /// `R p + t`: a point of B's frame in A's.
    fn point_from_b(&self, p: V) -> V;
}

/// The features the simplex's vertices lie on, read once per attempt: what Newton's method
/// moves.
struct Features<'s, V: Vector> {
    rims: RimPair<V::Real>,
    /// GJK's vertices: the fixed sides keep their points.
    simplex: &'s [SupportPoint<V>],
    /// How many vertices (one to three, after merging vertices on the same features).
    len: usize,
    /// Per vertex: its index in `simplex`, A's circle and B's (codes of
    /// [`Rims::circle_of`]: 0 fixed, 1 the rim at `−h`, 2 the rim at `h`).
    vertices: [(usize, u8, u8); 3],
    /// The circles in use, A's and B's, as bit masks (bit `code − 1`).
    used: (u8, u8),
}

/// The vertices at one direction, with their derivatives along the two tangent directions.
struct Moved<V: Vector> {
    w: [V; 3],
    slopes: [[V; 2]; 3],
}

/// The orthonormal frame Newton's method works in: the start direction `d0` and two unit
/// tangents; the direction of the unknown `u` is `d0 + u₀ e₁ + u₁ e₂`. B's copies (its frame,
/// of the negated directions) are formed once: the direction is linear in `u`.
struct Tangent<V: Vector> {
    d0: V,
    e: [V; 2],
    d0_b: V,
    e_b: [V; 2],
}

impl<V: Vector> Tangent<V> {
    fn new(v: V, frame: &impl Relative<V>) -> Option<Self> {
        let d0 = unit(-v)?;
        // The axis least aligned with `d0` gives the best-conditioned first tangent.
        let (x, y, z) = (d0.component(0).abs(), d0.component(1).abs(), d0.component(2).abs());
        let k = if x <= y && x <= z {
            0
        } else if y <= z {
            1
        } else {
            2
        };
        let e1 = unit(cross(d0, V::axis(k)))?;
        let e2 = cross(d0, e1);
        Some(Self {
            d0,
            e: [e1, e2],
            d0_b: frame.to_b(-d0),
            e_b: [frame.to_b(-e1), frame.to_b(-e2)],
        })
    }

    fn direction(&self, u: [V::Real; 2]) -> V {
        self.d0 + self.e[0] * u[0] + self.e[1] * u[1]
    }

    fn direction_b(&self, u: [V::Real; 2]) -> V {
        self.d0_b + self.e_b[0] * u[0] + self.e_b[1] * u[1]
    }
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

/// Newton stops after a step of at most this (in the tangent plane of a unit direction),
/// `f64` and `f32`: with the exact Jacobian the next step would be about its square, below
/// the default tolerances in the duality gap (measured on the cylinder_cone workload: 1e-3 in
/// `f64` fails more certificates, and costs 2 % more instructions; 1e-4 in `f32` costs 2.5 %
/// more than 1e-3).
const SETTLE: [f64; 2] = [1e-4, 1e-3];

/// Newton's method on the direction `d` for the vertices of `simplex` held on their circles
/// (see the [module docs](self)). `v` is GJK's current closest point, `frame` B's pose
/// relative to A. `None` when the simplex has no vertex on a circle, the features are a flat
/// cap's chord, or Newton does not settle on a point inside the vertices' hull.
pub(crate) fn finish<V: Vector>(
    simplex: &[SupportPoint<V>],
    rims: RimPair<V::Real>,
    v: V,
    frame: &impl Relative<V>,
) -> Option<Finished<V>> {
    let features = Features::read(simplex, rims)?;
    let tangent = Tangent::new(v, frame)?;
    let u = features.newton(&tangent, frame)?;
    let points = features.support_points(&tangent, u, frame);
    let w = [points[0].w, points[1].w, points[2].w];
    let n = features.len;
    let (closest, lambdas) = project(&w[..n])?;
    if lambdas[..n].iter().any(|l| !l.is_positive()) {
        return None;
    }
    Some(Finished { points, lambdas, len: n, v: closest })
}

impl<'s, V: Vector> Features<'s, V> {
    /// The features of the simplex's vertices; `None` when no vertex is on a circle.
    fn read(simplex: &'s [SupportPoint<V>], rims: RimPair<V::Real>) -> Option<Self> {
        if simplex.len() > 3 {
            return None;
        }
        let mut codes = [(0, 0); 3];
        for (c, p) in codes.iter_mut().zip(simplex) {
            *c = (rims.0.circle_of(p.a), rims.1.circle_of(p.b_local));
        }
        unchord(&mut codes[..simplex.len()], simplex, rims);
        let mut features = Self { rims, simplex, len: 0, vertices: [(0, 0, 0); 3], used: (0, 0) };
        for (i, &(ca, cb)) in codes[..simplex.len()].iter().enumerate() {
            if !features.merges(i, ca, cb) {
                features.vertices[features.len] = (i, ca, cb);
                features.len += 1;
                features.used.0 |= bit(ca);
                features.used.1 |= bit(cb);
            }
        }
        (features.used != (0, 0)).then_some(features)
    }

    /// Whether vertex `i` on circles `ca`, `cb` is on the same features as a kept one (then
    /// the same point at every direction).
    #[inline(always)]
    fn merges(&self, i: usize, ca: u8, cb: u8) -> bool {
        let p = &self.simplex[i];
        self.vertices[..self.len].iter().any(|&(k, ka, kb)| {
            let q = &self.simplex[k];
            ka == ca && kb == cb && (ca != 0 || p.a == q.a) && (cb != 0 || p.b_local == q.b_local)
        })
    }

    /// The vertices at the direction of `u` and their derivatives along the tangents.
    #[inline(always)]
    fn moved(&self, t: &Tangent<V>, u: [V::Real; 2], frame: &impl Relative<V>) -> Option<Moved<V>> {
        let zero = (V::ZERO, [V::ZERO; 2]);
        let (d, d_b) = (t.direction(u), t.direction_b(u));
        let (rim_a, rim_b) = self.rims;
        let mut a = [zero; 3];
        let mut b = [zero; 3];
        for code in 1..3u8 {
            if self.used.0 & bit(code) != 0 {
                a[usize::from(code)] = rim_a.point_sloped(rim_a.height(code), d, t.e)?;
            }
            if self.used.1 & bit(code) != 0 {
                let (p, s) = rim_b.point_sloped(rim_b.height(code), d_b, t.e_b)?;
                b[usize::from(code)] =
                    (frame.point_from_b(p), [frame.rotate_from_b(s[0]), frame.rotate_from_b(s[1])]);
            }
        }
        let mut moved = Moved { w: [V::ZERO; 3], slopes: [[V::ZERO; 2]; 3] };
        for (m, &(i, ca, cb)) in self.vertices[..self.len].iter().enumerate() {
            let p = &self.simplex[i];
            let (pa, sa) = if ca == 0 { (p.a, [V::ZERO; 2]) } else { a[usize::from(ca)] };
            let (pb, sb) = if cb == 0 { (p.b, [V::ZERO; 2]) } else { b[usize::from(cb)] };
            moved.w[m] = pa - pb;
            moved.slopes[m] = [sa[0] - sb[0], sa[1] - sb[1]];
        }
        Some(moved)
    }

    /// The vertices as support points at the direction of `u`.
    fn support_points(
        &self,
        t: &Tangent<V>,
        u: [V::Real; 2],
        frame: &impl Relative<V>,
    ) -> [SupportPoint<V>; 3] {
        let (d, d_b) = (t.direction(u), t.direction_b(u));
        let (rim_a, rim_b) = self.rims;
        let mut a = [V::ZERO; 3];
        let mut b = [(V::ZERO, V::ZERO); 3];
        for code in 1..3u8 {
            if self.used.0 & bit(code) != 0 {
                a[usize::from(code)] = rim_a.point(rim_a.height(code), d);
            }
            if self.used.1 & bit(code) != 0 {
                let local = rim_b.point(rim_b.height(code), d_b);
                b[usize::from(code)] = (frame.point_from_b(local), local);
            }
        }
        let mut found = [SupportPoint::new(V::ZERO, V::ZERO, V::ZERO); 3];
        for (f, &(i, ca, cb)) in found.iter_mut().zip(&self.vertices[..self.len]) {
            let p = &self.simplex[i];
            let pa = if ca == 0 { p.a } else { a[usize::from(ca)] };
            let (pb, pb_local) = if cb == 0 { (p.b, p.b_local) } else { b[usize::from(cb)] };
            *f = SupportPoint::new(pa, pb, pb_local);
        }
        found
    }

    /// Newton's method on `F(u) = g(u) − u`, `g(u)` the tangential coordinates of
    /// `−v(d(u))` scaled to `d₀`'s component 1, with the exact Jacobian (the circle points'
    /// derivatives are closed form, the closest point's follow from its orthogonality to the
    /// hull): the `u` where `−v ∥ d`, or `None` when it leaves its window or meets a singular
    /// Jacobian.
    fn newton(&self, t: &Tangent<V>, frame: &impl Relative<V>) -> Option<[V::Real; 2]> {
        let single = V::Real::EPSILON > V::Real::from_f64(1e-10);
        let settle = V::Real::from_f64(SETTLE[usize::from(single)]);
        let limit = V::Real::from_f64(0.5);
        let mut u = [V::Real::ZERO; 2];
        for _ in 0..MAX_STEPS {
            let moved = self.moved(t, u, frame)?;
            let (f, j) = system(t, &moved, self.len, u)?;
            let step = solve2(j, f)?;
            u = [u[0] + step[0], u[1] + step[1]];
            if !(u[0].abs() < limit && u[1].abs() < limit) {
                return None;
            }
            if step[0].abs().max(step[1].abs()) <= settle {
                break;
            }
        }
        Some(u)
    }
}

/// A Newton system: the residual `F` and its Jacobian `J` (row-major).
type System<R> = ([R; 2], [R; 4]);

/// The residual `F = g − u` and its Jacobian at the vertices `moved`.
#[inline(always)]
fn system<V: Vector>(
    t: &Tangent<V>,
    moved: &Moved<V>,
    n: usize,
    u: [V::Real; 2],
) -> Option<System<V::Real>> {
    let (v, lambdas) = project(&moved.w[..n])?;
    let dv = closest_slopes(&moved.w[..n], &moved.slopes[..n], v, lambdas)?;
    let along = -v.dot(t.d0);
    if !along.is_positive() {
        return None;
    }
    let inv = V::Real::ONE / along;
    let g = [-v.dot(t.e[0]) * inv, -v.dot(t.e[1]) * inv];
    // `g_k = −(v·e_k)/α` with `α = −v·d₀`: `∂g_k = (g_k (∂v·d₀) − ∂v·e_k)/α`.
    let dg = |k: usize, j: usize| (g[k] * dv[j].dot(t.d0) - dv[j].dot(t.e[k])) * inv;
    let one = V::Real::ONE;
    Some(([g[0] - u[0], g[1] - u[1]], [dg(0, 0) - one, dg(0, 1), dg(1, 0), dg(1, 1) - one]))
}

/// The Newton step `−J⁻¹ F`; `None` for a singular `J`.
#[inline(always)]
fn solve2<R: Real>(j: [R; 4], f: [R; 2]) -> Option<[R; 2]> {
    let [j11, j12, j21, j22] = j;
    let det = j11 * j22 - j12 * j21;
    if det.abs() <= R::EPSILON || !det.is_finite() {
        return None;
    }
    Some([(j12 * f[1] - j22 * f[0]) / det, (j21 * f[0] - j11 * f[1]) / det])
}

/// The derivatives of the closest point `v` of the affine hull of `w` (weights `lambdas`)
/// when the vertices move by `slopes` (two directions each). With the edges `E = [wₖ − w₀]`,
/// `v = Σ λᵢ wᵢ` stays orthogonal to them: `∂v = a + E μ` with `a = Σ λᵢ ∂wᵢ` and
/// `Eᵀ E μ = −(Eᵀ a + [v·(∂wₖ − ∂w₀)])`.
#[inline(always)]
fn closest_slopes<V: Vector>(
    w: &[V],
    slopes: &[[V; 2]],
    v: V,
    lambdas: [V::Real; 3],
) -> Option<[V; 2]> {
    let blend = |j: usize| {
        let mut a = V::ZERO;
        for (s, &l) in slopes.iter().zip(&lambdas) {
            a = a + s[j] * l;
        }
        a
    };
    match w.len() {
        1 => Some(slopes[0]),
        2 => {
            let e = w[1] - w[0];
            let ee = e.length_squared();
            if !ee.is_positive() {
                return None;
            }
            let inv = V::Real::ONE / ee;
            let along = |j: usize| {
                let a = blend(j);
                let mu = -(e.dot(a) + v.dot(slopes[1][j] - slopes[0][j])) * inv;
                a + e * mu
            };
            Some([along(0), along(1)])
        }
        3 => {
            let (e1, e2) = (w[1] - w[0], w[2] - w[0]);
            let (g11, g12, g22) = (e1.dot(e1), e1.dot(e2), e2.dot(e2));
            let det = g11 * g22 - g12 * g12;
            if !det.is_positive() {
                return None;
            }
            let inv = V::Real::ONE / det;
            let along = |j: usize| {
                let a = blend(j);
                let r1 = -(e1.dot(a) + v.dot(slopes[1][j] - slopes[0][j]));
                let r2 = -(e2.dot(a) + v.dot(slopes[2][j] - slopes[0][j]));
                let (m1, m2) = ((g22 * r1 - g12 * r2) * inv, (g11 * r2 - g12 * r1) * inv);
                a + e1 * m1 + e2 * m2
            };
            Some([along(0), along(1)])
        }
        _ => None,
    }
}

/// The bit of circle `code` in [`Features::used`] (none for a fixed point).
#[inline(always)]
fn bit(code: u8) -> u8 {
    (1 << code) >> 1
}

/// Two points of one rim far apart are a chord of a flat cap, whose points do not follow the
/// direction: they stay fixed (GJK is exact on flat features).
fn unchord<V: Vector>(codes: &mut [(u8, u8)], simplex: &[SupportPoint<V>], rims: RimPair<V::Real>) {
    let far = |r: V::Real| r * r * V::Real::from_f64(0.0625);
    let (far_a, far_b) = (far(rims.0.radius), far(rims.1.radius));
    for i in 0..codes.len() {
        for j in i + 1..codes.len() {
            let (ci, cj) = (codes[i], codes[j]);
            let (pi, pj) = (&simplex[i], &simplex[j]);
            if ci.0 != 0 && ci.0 == cj.0 && (pi.a - pj.a).length_squared() > far_a {
                codes[i].0 = 0;
                codes[j].0 = 0;
            }
            if ci.1 != 0 && ci.1 == cj.1 && (pi.b_local - pj.b_local).length_squared() > far_b {
                codes[i].1 = 0;
                codes[j].1 = 0;
            }
        }
    }
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
