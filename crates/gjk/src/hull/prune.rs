//! Hull vertices that are not extreme points, found after Quickhull so they can be left out.
//!
//! Quickhull's faces are thick (see [`quickhull`](super::quickhull)): a point within the
//! tolerance of a face's plane is not above it. That keeps points on faces and edges from
//! *becoming* vertices, but not a vertex from *staying* one. A point can be the farthest above
//! a face before the points that make it non-extreme are processed: the starting tetrahedron's
//! corners are extreme only along their axis or plane, the farthest point above a face may tie
//! with others on an edge or face of the final hull (on a lattice, whole rows tie), and an
//! early eye can end up inside the cone of a later one. In exact arithmetic such a vertex
//! disappears when a later eye sees all of its faces; with thick faces, the faces that are
//! coplanar with the later eye (within the tolerance) are not seen, so a vertex on an edge or a
//! face of the final hull keeps them and stays. On the shuffled 5 × 5 × 5 lattice, 8 points on
//! the cube's edges stayed besides the 8 corners.
//!
//! A vertex `v` of a convex polytope is extreme with margin `m` (along some direction `v` is
//! ahead of every other vertex by more than `m`) exactly when its distance to the convex hull of
//! its *neighbours* exceeds `m`: along a direction in which `v` is the highest vertex, the next
//! highest is one of its neighbours (the simplex method's argument), so leading the neighbours
//! by `m` is leading every vertex by `m`, and the best lead over the neighbours is the distance
//! to their hull (separating plane). So each vertex is tested locally, against the tolerance:
//!
//! * a certificate first: along `d`, the sum of the unit normals of the triangles around `v`,
//!   `v` leads every neighbour by more than the tolerance. Every vertex of a hull whose faces
//!   meet at clear angles passes (all of them on round inputs); two passes over the triangles.
//! * Otherwise the distance from `v` to its neighbours' hull by GJK with the signed-volumes
//!   simplex, which stops as soon as a point of that hull lies within the tolerance (redundant)
//!   or a direction separates `v` by more than the tolerance (extreme).

use alloc::vec::Vec;

use glam::DVec3;

use crate::simplex::{Simplex, SupportPoint};

/// "Not a vertex" in the point-to-vertex map.
const NONE: u32 = u32::MAX;

/// GJK iterations before a vertex is given up on (kept): each iteration adds one neighbour to
/// the simplex, and the distance between a point and the hull of a few dozen points settles in
/// far fewer.
const MAX_ITERATIONS: usize = 64;

/// Vertices of `triangles` (a closed, convex, outward-oriented triangulation of points of
/// `points`) that lie within `tolerance` of the convex hull of their neighbours: not extreme,
/// up to the tolerance.
///
/// The result is an independent set — no two of them share an edge — so the neighbours of each
/// stay, and each one lies within `tolerance` of the hull of the points that remain. Removing
/// one vertex may leave another of the redundant ones in place: the caller rebuilds and asks
/// again.
pub(super) fn redundant_vertices(
    points: &[DVec3],
    triangles: &[[u32; 3]],
    tolerance: f64,
) -> Vec<u32> {
    // Local numbering of the vertices.
    let mut local = alloc::vec![NONE; points.len()];
    let mut vertices: Vec<u32> = Vec::new();
    for t in triangles {
        for &i in t {
            if local[i as usize] == NONE {
                local[i as usize] = vertices.len() as u32;
                vertices.push(i);
            }
        }
    }
    // The certificate, in two passes over the triangles: each vertex's direction (the sum of
    // its faces' unit normals), then its smallest lead over a neighbour along it (each edge
    // once: as `a → b` in one of its triangles, `b → a` in the other).
    let mut directions = alloc::vec![DVec3::ZERO; vertices.len()];
    for t in triangles {
        let [a, b, c] = t.map(|i| points[i as usize]);
        let normal = (b - a).cross(c - a);
        let normal = normal * (1.0 / normal.length());
        for &i in t {
            directions[local[i as usize] as usize] += normal;
        }
    }
    let mut leads = alloc::vec![f64::INFINITY; vertices.len()];
    for t in triangles {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            if a < b {
                let edge = points[a as usize] - points[b as usize];
                let (ka, kb) = (local[a as usize] as usize, local[b as usize] as usize);
                leads[ka] = leads[ka].min(directions[ka].dot(edge));
                leads[kb] = leads[kb].min(-directions[kb].dot(edge));
            }
        }
    }
    let uncertain = |k: usize| leads[k] <= tolerance * directions[k].length();
    if !(0..vertices.len()).any(uncertain) {
        return Vec::new();
    }

    // The uncertain ones: the triangles around each vertex (CSR), then GJK.
    let n = vertices.len();
    let mut starts = alloc::vec![0u32; n + 1];
    for &i in triangles.iter().flatten() {
        starts[local[i as usize] as usize + 1] += 1;
    }
    for k in 0..n {
        starts[k + 1] += starts[k];
    }
    let mut fill = starts.clone();
    let mut around = alloc::vec![0u32; starts[n] as usize];
    for (t, triangle) in triangles.iter().enumerate() {
        for &i in triangle {
            let k = local[i as usize] as usize;
            around[fill[k] as usize] = t as u32;
            fill[k] += 1;
        }
    }
    let mut removed = alloc::vec![false; n];
    let mut redundant = Vec::new();
    let mut offsets: Vec<DVec3> = Vec::new();
    for k in (0..n).filter(|&k| uncertain(k)) {
        let v = vertices[k];
        // Each neighbour, once per triangle it shares with `v` (twice).
        let neighbours = around[starts[k] as usize..starts[k + 1] as usize]
            .iter()
            .flat_map(|&t| triangles[t as usize])
            .filter(move |&w| w != v);
        if neighbours.clone().any(|w| removed[local[w as usize] as usize]) {
            continue;
        }
        let x = points[v as usize];
        offsets.clear();
        offsets.extend(neighbours.map(|w| points[w as usize] - x));
        if !is_separated(&offsets, tolerance) {
            removed[k] = true;
            redundant.push(v);
        }
    }
    redundant
}

/// Whether the origin lies farther than `tolerance` from the convex hull of `offsets` (not
/// empty): GJK with the signed-volumes simplex, stopping as soon as the answer is certain. A
/// search that stalls in between (the distance within rounding of the tolerance) answers yes.
fn is_separated(offsets: &[DVec3], tolerance: f64) -> bool {
    let vertex = |p: DVec3| SupportPoint::new(p, DVec3::ZERO, DVec3::ZERO);
    let mut simplex = Simplex::<DVec3>::new();
    simplex.push(vertex(offsets[0]));
    for _ in 0..MAX_ITERATIONS {
        // A point of the hull: the distance is at most its length.
        let closest = simplex.reduce();
        let distance = closest.length();
        if distance <= tolerance {
            return false;
        }
        // Every offset lies at least `gap` along the closest point's direction: the distance
        // is at least `gap`.
        let direction = closest / distance;
        let (support, gap) = offsets.iter().map(|&p| (p, p.dot(direction))).fold(
            (offsets[0], f64::INFINITY),
            |best, next| if next.1 < best.1 { next } else { best },
        );
        if gap > tolerance {
            return true;
        }
        let next = vertex(support);
        if simplex.len() >= 4 || simplex.contains(&next) {
            return true;
        }
        simplex.push(next);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOLERANCE: f64 = 1e-12;

    #[test]
    fn separation_from_a_few_points() {
        let x = DVec3::X;
        let (y, z) = (DVec3::Y, DVec3::Z);
        // On a segment, on a triangle, inside a tetrahedron: not separated.
        assert!(!is_separated(&[x, -x], TOLERANCE));
        assert!(!is_separated(&[x + y, x - y, -x], TOLERANCE));
        assert!(!is_separated(&[x, y, z, -(x + y + z)], TOLERANCE));
        // Off a triangle by half the tolerance: not separated; by twice: separated.
        let triangle = |h: f64| [x + y, x - y, -x].map(|p| p + z * h);
        assert!(!is_separated(&triangle(0.5 * TOLERANCE), TOLERANCE));
        assert!(is_separated(&triangle(2.0 * TOLERANCE), TOLERANCE));
        // A corner: separated.
        assert!(is_separated(&[x, y, z], TOLERANCE));
    }

    #[test]
    fn a_vertex_on_an_edge_is_redundant() {
        // A tetrahedron, outward triangles; then with the edge 0–1 split at its midpoint 4.
        let points = [DVec3::ZERO, DVec3::X * 2.0, DVec3::Y * 2.0, DVec3::Z * 2.0, DVec3::X];
        let tetrahedron = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
        assert!(redundant_vertices(&points, &tetrahedron, TOLERANCE).is_empty());
        let split = [[0, 2, 4], [4, 2, 1], [0, 4, 3], [4, 1, 3], [0, 3, 2], [1, 2, 3]];
        assert_eq!(redundant_vertices(&points, &split, TOLERANCE), [4]);
        // Moved outward by twice the tolerance, the midpoint is a vertex.
        let mut bent = points;
        bent[4] -= DVec3::new(0.0, 1.0, 1.0).normalize() * 2.0 * TOLERANCE;
        assert!(redundant_vertices(&bent, &split, TOLERANCE).is_empty());
    }
}
