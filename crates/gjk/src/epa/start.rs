//! The starting simplex of EPA: GJK's final simplex, completed to full dimension.
//!
//! GJK stops as soon as it knows the cores overlap. When they only touch, or the shapes are
//! flat, that happens on a point, a segment or (3D) a triangle, and a full-volume simplex is
//! needed to start expanding. The completion is a Gram–Schmidt walk: keep an orthonormal basis
//! of the directions the chosen points span; a new point counts when its distance from their
//! affine hull exceeds the tolerance times the size of the Minkowski difference `D`. Missing
//! dimensions are searched with support points along ± each axis's component orthogonal to the
//! hull: if `D` extends off the hull at all, one of those directions finds it (the residual axes
//! span the orthogonal complement). If none does, `D` itself is flat.

use super::Vertex;
use crate::math::{Real, Vector};
use crate::simplex::SupportPoint;

/// The outcome of the completion.
pub(crate) enum Start<V: Vector> {
    /// `DIM + 1` affinely independent vertices (the first `DIM + 1` entries).
    Full {
        /// The simplex's vertices.
        vertices: [Vertex<V>; 4],
        /// The largest |w| seen: the size tolerances are relative to.
        size: V::Real,
    },
    /// `D` lies in a lower-dimensional affine set; `normal` is a unit vector orthogonal to it.
    Flat {
        /// The direction across the flat set, oriented along `towards_b` when possible.
        normal: V,
    },
}

/// The chosen points and the orthonormal basis of the directions they span.
struct Basis<V: Vector> {
    vertices: [Vertex<V>; 4],
    len: usize,
    directions: [V; 3],
}

impl<V: Vector> Basis<V> {
    /// The part of `v` orthogonal to the span of the basis (Gram–Schmidt, applied twice for
    /// accuracy on nearly dependent input).
    fn residual(&self, mut v: V) -> V {
        for _ in 0..2 {
            for &d in &self.directions[..self.len.saturating_sub(1)] {
                v = v - d * d.dot(v);
            }
        }
        v
    }

    /// The distance of `w` from the affine hull of the chosen points.
    fn offset(&self, w: V) -> V::Real {
        if self.len == 0 {
            return V::Real::INFINITY;
        }
        self.residual(w - self.vertices[0].w).length()
    }

    fn push(&mut self, vertex: Vertex<V>) {
        if self.len > 0 {
            let r = self.residual(vertex.w - self.vertices[0].w);
            self.directions[self.len - 1] = r.direction().unwrap_or(V::ZERO);
        }
        self.vertices[self.len] = vertex;
        self.len += 1;
    }

    /// The unit vector along the part of `v` orthogonal to the chosen points' hull, unless that
    /// part is lost in rounding (shorter than `√ε |v|`: `v` lies in the hull's directions).
    fn orthogonal_direction(&self, v: V) -> Option<V> {
        let r = self.residual(v);
        let floor = V::Real::from_f64(1e3) * V::Real::EPSILON * V::Real::EPSILON;
        (r.length_squared() > floor * v.length_squared()).then(|| r.direction()).flatten()
    }
}

/// Completes GJK's final simplex (its `points`) to `DIM + 1` affinely independent points of `D`, asking
/// `support` for more when needed; `towards_b` (A's centre to B's, A's frame) orients the
/// normal of a flat `D`.
pub(crate) fn full_simplex<V: Vector>(
    points: &[SupportPoint<V>],
    support: &mut impl FnMut(V) -> Vertex<V>,
    tolerance: V::Real,
    towards_b: V,
) -> Start<V> {
    // The largest |w| (the square root of the largest |w|², which is the same number).
    let mut size2 = V::Real::ZERO;
    for p in points {
        size2 = size2.max(p.w.length_squared());
    }
    let size = size2.sqrt();
    let relative = tolerance + V::Real::from_f64(64.0) * V::Real::EPSILON;
    if let Some(vertices) = clearly_full(points, relative * size, size) {
        return Start::Full { vertices, size };
    }
    walk(points, support, relative, size, towards_b)
}

/// The Gram–Schmidt completion of the module docs, from the simplex's points in order.
fn walk<V: Vector>(
    points: &[SupportPoint<V>],
    support: &mut impl FnMut(V) -> Vertex<V>,
    relative: V::Real,
    mut size: V::Real,
    towards_b: V,
) -> Start<V> {
    let mut basis = Basis { vertices: [Vertex::ZERO; 4], len: 0, directions: [V::ZERO; 3] };
    for p in points {
        if basis.len <= V::DIM && basis.offset(p.w) > relative * size {
            basis.push(Vertex::from(*p));
        }
    }
    if basis.len == 0 {
        // An empty simplex (GJK never returns one): start from any support point.
        let v = support(V::axis(0));
        size = size.max(v.w.length());
        basis.push(v);
    }
    while basis.len <= V::DIM {
        let mut best: Option<(V::Real, Vertex<V>)> = None;
        let mut first_direction = None;
        for i in 0..V::DIM {
            let Some(d) = basis.orthogonal_direction(V::axis(i)) else { continue };
            first_direction.get_or_insert(d);
            for dir in [d, -d] {
                let v = support(dir);
                size = size.max(v.w.length());
                let offset = basis.offset(v.w);
                if best.is_none_or(|(o, _)| offset > o) {
                    best = Some((offset, v));
                }
            }
        }
        match best {
            Some((offset, v)) if offset > relative * size && offset.is_finite() => basis.push(v),
            _ => {
                let fallback = first_direction.unwrap_or(V::axis(0));
                let normal = basis.orthogonal_direction(towards_b).unwrap_or(fallback);
                return Start::Flat { normal };
            }
        }
    }
    Start::Full { vertices: basis.vertices, size }
}

/// GJK's simplex as it is, when it is clearly full-dimensional: each point lies farther than
/// twice `threshold` from the affine hull of the points before it. The walk above would then
/// keep every point in order, so this only skips its Gram–Schmidt arithmetic (the common case:
/// overlapping cores leave GJK on a full simplex). The distances come from the edge vectors'
/// cross product and volume; `None` (take the walk) when the simplex is not full, a distance is
/// within the margin, or `size` is so small or large that the squared products could leave the
/// floating-point range.
#[inline]
fn clearly_full<V: Vector>(
    points: &[SupportPoint<V>],
    threshold: V::Real,
    size: V::Real,
) -> Option<[Vertex<V>; 4]> {
    if points.len() != V::DIM + 1 {
        return None;
    }
    let mut ws = [V::ZERO; 4];
    for (w, p) in ws.iter_mut().zip(points) {
        *w = p.w;
    }
    if !clearly_full_volume(ws, threshold, size) {
        return None;
    }
    let mut vertices = [Vertex::ZERO; 4];
    for (v, p) in vertices.iter_mut().zip(points) {
        *v = Vertex::from(*p);
    }
    Some(vertices)
}

/// The test of [`clearly_full`] on the points `ws` (the first `DIM + 1`): each farther than
/// twice `threshold` from the affine hull of the ones before it, with `size` (their largest
/// length) in the range where the squared products stay finite.
#[inline]
pub(crate) fn clearly_full_volume<V: Vector>(
    ws: [V; 4],
    threshold: V::Real,
    size: V::Real,
) -> bool {
    let (low, high) = if V::Real::EPSILON.to_f64() > 1e-10 { (1e-4, 1e4) } else { (1e-40, 1e40) };
    if !(size > V::Real::from_f64(low) && size < V::Real::from_f64(high)) {
        return false;
    }
    let t2 = V::Real::from_f64(4.0) * threshold * threshold;
    let p0 = ws[0];
    let e1 = ws[1] - p0;
    let e2 = ws[2] - p0;
    let l1 = e1.length_squared();
    if V::DIM == 2 {
        // |e1|, then the distance of p2 from the line: area / |e1|.
        let area = crate::geometry::area2(p0, ws[1], ws[2]);
        l1 > t2 && area * area > t2 * l1
    } else {
        // |e1|, the distance of p2 from the line (|c| / |e1|) and of p3 from the plane
        // (volume / |c|).
        let c = crate::geometry::cross(e1, e2);
        let cc = c.length_squared();
        let volume = c.dot(ws[3] - p0);
        l1 > t2 && cc > t2 * l1 && volume * volume > t2 * cc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simplex::{Simplex, SupportPoint};
    use glam::DVec3;

    fn simplex_of(ws: &[DVec3]) -> Simplex<DVec3> {
        let mut s = Simplex::new();
        for &w in ws {
            s.push(SupportPoint::new(w, DVec3::ZERO, DVec3::ZERO));
        }
        s
    }

    /// Support of the cube [-1, 1]³ as a Minkowski difference (b = 0).
    fn cube(dir: DVec3) -> Vertex<DVec3> {
        let w = dir.map(|x| if x > 0.0 { 1.0 } else { -1.0 });
        Vertex { w, a: w }
    }

    #[test]
    fn a_point_grows_to_a_tetrahedron() {
        let s = simplex_of(&[DVec3::new(1.0, 1.0, 1.0)]);
        let Start::Full { vertices, .. } = full_simplex(s.points(), &mut cube, 1e-10, DVec3::X)
        else {
            panic!("a cube is not flat")
        };
        let [a, b, c, d] = vertices.map(|v| v.w);
        assert!(DVec3::tetrahedron_volume6(a, b, c, d).abs() > 1.0);
    }

    /// The shortcut only accepts simplices the walk keeps whole, in the same order.
    #[test]
    fn the_shortcut_agrees_with_the_walk() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let (mut accepted, mut refused) = (0, 0);
        for i in 0..20_000 {
            let base = [0; 4].map(|_| DVec3::new(next(), next(), next()));
            // Flatten some simplices towards a plane, a line or a point by varying amounts.
            let squash = 10f64.powi(-(i % 16));
            let ws = match i % 4 {
                0 => base,
                1 => base.map(|w| DVec3::new(w.x, w.y, w.z * squash)),
                2 => base.map(|w| DVec3::new(w.x, w.y * squash, w.z * squash)),
                _ => base.map(|w| base[0] + (w - base[0]) * squash),
            };
            let s = simplex_of(&ws);
            let size = ws.iter().map(|w| w.length()).fold(0.0, f64::max);
            let relative = 1e-10 + 64.0 * f64::EPSILON;
            let Some(fast) = clearly_full(s.points(), relative * size, size) else {
                refused += 1;
                continue;
            };
            accepted += 1;
            let mut no_support = |_: DVec3| -> Vertex<DVec3> { panic!("the walk needed support") };
            let Start::Full { vertices, .. } =
                walk(s.points(), &mut no_support, relative, size, DVec3::X)
            else {
                panic!("the walk found a full simplex flat")
            };
            assert_eq!(vertices, fast);
        }
        assert!(accepted > 10_000 && refused > 1_000, "{accepted} {refused}");
    }

    #[test]
    fn a_flat_difference_is_reported_with_its_normal() {
        // D = the square [-1,1]² × {0}: support never leaves the plane z = 0.
        let mut square = |dir: DVec3| {
            let w = DVec3::new(
                if dir.x > 0.0 { 1.0 } else { -1.0 },
                if dir.y > 0.0 { 1.0 } else { -1.0 },
                0.0,
            );
            Vertex { w, a: w }
        };
        let s = simplex_of(&[DVec3::new(1.0, 1.0, 0.0)]);
        let start = full_simplex(s.points(), &mut square, 1e-10, DVec3::new(0.3, 0.0, -2.0));
        let Start::Flat { normal } = start else { panic!("the square is flat") };
        assert!((normal - DVec3::new(0.0, 0.0, -1.0)).length() < 1e-15);
    }
}
