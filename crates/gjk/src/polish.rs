//! Polishing the normal of curved shapes: Newton's method on the support function.
//!
//! GJK and EPA stop when their bounds of the distance (or depth) meet within the relative
//! tolerance `ε`. On polytopes that happens at the exact answer; on curved shapes the bounds
//! close quadratically in the angle, so a normal `θ` off the true one already has its bounds
//! within `θ²`: the normal is only good to about `√ε` (1e-5 rad in `f64`).
//!
//! Both answers are the same stationary point. With `h(n) = max_{x ∈ D} n·x` the support
//! function of the cores' Minkowski difference `D = A − B` and `s(n)` its support point, the
//! signed depth is `min_{|n|=1} h(n)`: the penetration depth when the origin is inside `D`,
//! minus the distance when it is outside (the closest point `v` of `D` gives `h(−v/|v|) =
//! −|v|`). At the minimiser `s(n)` is parallel to `n`, so the tangential part
//! `g(n) = s(n) − (s(n)·n) n` vanishes. Near it, for a step `δ ⟂ n`,
//! `g(n + δ) ≈ g(n) + (H − h I) δ` in the tangent plane, with `H` the derivative of `s`
//! (the radii of curvature of `D`, symmetric). Newton's step solves `(H − h I) δ = −g`; `H` is
//! measured by finite differences of `s` along the tangent directions (one support call each).
//! A step is kept only when it shrinks `g` without raising `h` beyond rounding, and the
//! result only where `g` ends up within `√ε` of the shapes' size: the answer's depth is `h` at
//! the kept normal, so it stays a valid bound (pushing B by `h(n) n` separates the shapes
//! whatever `n` is), and flat faces and vertices, where `H` vanishes or jumps and the normal
//! is already exact, keep the answer they had.

use crate::geometry::cross;
use crate::math::{Real, Vector};
use crate::pair::Pair;
use crate::shape::Support;
use crate::simplex::SupportPoint;

/// At most this many Newton steps: each about squares the angle's error, and the start is
/// already within `√ε`.
const STEPS: usize = 3;

/// The polished normal (A's frame, from A toward B), its support value `h` (the signed depth)
/// and support point `s(n)` (with the points of A and B it came from).
pub(crate) struct Polished<V: Vector> {
    pub(crate) normal: V,
    pub(crate) depth: V::Real,
    pub(crate) support: SupportPoint<V>,
}

/// Newton's method from the unit `normal` (see the module docs); `None` when no step helped
/// (the normal was already as good as rounding allows, or the shapes are flat there), and
/// after one support call when `h(normal)` meets `bound`, the loop's bound of the signed depth
/// from the other side, to rounding (a polytope's face). At a polytope's vertex it costs two
/// support calls: the support point does not move when the normal turns a little.
pub(crate) fn polish<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    normal: V,
    bound: V::Real,
) -> Option<Polished<V>> {
    let mut n = normal;
    let mut s = pair.support(n);
    let mut h = n.dot(s.w);
    let center_b = pair.relative_pose().transform_point(pair.b().center());
    let size = (s.a - pair.a().center()).length() + (s.b - center_b).length() + s.w.length();
    // The loop's other bound meets `h` to rounding: a polytope's face, exact already. Only
    // where rounding resolves the angle (`h` changes by `θ²`: `θ` down to about √ε, 1.5e-8 in
    // f64); in f32 a curved surface's `h` meets the bound to rounding with the normal still
    // 1e-3 off, and the vertex test of `newton_step` is the cheap exit.
    let resolved = V::Real::EPSILON.sqrt() < V::Real::from_f64(1e-6);
    if resolved && (h - bound).abs() <= V::Real::from_f64(16.0) * V::Real::EPSILON * size {
        return None;
    }
    let mut improved = false;
    let rounding = V::Real::from_f64(4.0) * V::Real::EPSILON * size;
    for _ in 0..STEPS {
        let Some(next) = newton_step(pair, n, s.w, h) else { break };
        let s_next = pair.support(next);
        let h_next = next.dot(s_next.w);
        // A step is kept when it shrinks the tangential part without raising `h` beyond
        // rounding: near the minimum `h` changes by the square of the angle, below the
        // rounding of `h` itself in `f32`, while `g` shrinks in proportion to the angle.
        let shorter = (s_next.w - next * h_next).length() < (s.w - n * h).length();
        if !(shorter && h_next <= h + rounding) {
            break;
        }
        (n, s, h, improved) = (next, s_next, h_next, true);
    }
    // Kept only where the surfaces are smooth: there `s(n)` ends up along `n`. On a flat face
    // or an edge the support point is a corner, off the line of `n` by up to the face's size,
    // and the answer before the polish (with its witnesses chosen on the faces) is the exact
    // one.
    let tangential = (s.w - n * h).length();
    let smooth = tangential <= V::Real::EPSILON.sqrt() * size;
    (improved && smooth).then_some(Polished { normal: n, depth: h, support: s })
}

/// The unit normal after one Newton step from `n` (support point `w`, value `h`), or `None`
/// when the tangential part is lost in rounding or `H − h I` is not positive definite.
fn newton_step<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    n: V,
    w: V,
    h: V::Real,
) -> Option<V> {
    let g = w - n * h;
    let size = w.length();
    let g_len = g.length();
    if !g_len.is_finite() || g_len <= V::Real::from_f64(4.0) * V::Real::EPSILON * size {
        return None;
    }
    let t1 = g * (V::Real::ONE / g_len);
    // The finite-difference angle: about the size of the step to come (`|g| / |w|` when the
    // curvature is of the shapes' size), within `[√ε, 1e-2]`.
    let root_eps = V::Real::EPSILON.sqrt();
    let e = (g_len / size).max(root_eps).min(V::Real::from_f64(1e-2));
    let column = |t: V| {
        let moved = (n + t * e).direction()?;
        Some((pair.support(moved).w - w) * (V::Real::ONE / e))
    };
    let c1 = column(t1)?;
    if c1 == V::ZERO {
        // The same support point after the turn: a vertex of `D` (polytopes), whose normal
        // cone holds `n`; nothing to polish.
        return None;
    }
    if V::DIM == 2 {
        // One tangent: (H − h) δ = −|g| along t1.
        let curvature = t1.dot(c1) - h;
        if !curvature.is_positive() {
            return None;
        }
        return (n - t1 * (g_len / curvature)).direction();
    }
    let t2 = cross(n, t1);
    let c2 = column(t2)?;
    // The symmetric 2×2 matrix of H − h I in (t1, t2), and g = (|g|, 0) there.
    let m11 = t1.dot(c1) - h;
    let m22 = t2.dot(c2) - h;
    let m12 = (t1.dot(c2) + t2.dot(c1)) * V::Real::HALF;
    let det = m11 * m22 - m12 * m12;
    if !(m11.is_positive() && det.is_positive()) {
        return None;
    }
    // δ = −M⁻¹ (|g|, 0) = −|g| / det × (m22, −m12).
    let scale = g_len / det;
    (n - t1 * (scale * m22) + t2 * (scale * m12)).direction()
}
