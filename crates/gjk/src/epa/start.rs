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
use crate::simplex::Simplex;

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

/// Completes GJK's final `simplex` to `DIM + 1` affinely independent points of `D`, asking
/// `support` for more when needed; `towards_b` (A's centre to B's, A's frame) orients the
/// normal of a flat `D`.
pub(crate) fn full_simplex<V: Vector>(
    simplex: &Simplex<V>,
    support: &mut impl FnMut(V) -> Vertex<V>,
    tolerance: V::Real,
    towards_b: V,
) -> Start<V> {
    let mut size = V::Real::ZERO;
    for p in simplex.points() {
        size = size.max(p.w.length());
    }
    let relative = tolerance + V::Real::from_f64(64.0) * V::Real::EPSILON;
    let mut basis = Basis { vertices: [Vertex::ZERO; 4], len: 0, directions: [V::ZERO; 3] };
    for p in simplex.points() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simplex::SupportPoint;
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
        let Start::Full { vertices, .. } = full_simplex(&s, &mut cube, 1e-10, DVec3::X) else {
            panic!("a cube is not flat")
        };
        let [a, b, c, d] = vertices.map(|v| v.w);
        assert!(DVec3::tetrahedron_volume6(a, b, c, d).abs() > 1.0);
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
        let start = full_simplex(&s, &mut square, 1e-10, DVec3::new(0.3, 0.0, -2.0));
        let Start::Flat { normal } = start else { panic!("the square is flat") };
        assert!((normal - DVec3::new(0.0, 0.0, -1.0)).length() < 1e-15);
    }
}
