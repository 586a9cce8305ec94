//! The seed table: where a cold climb starts.
//!
//! A lookup table from directions to vertices: the directions are mapped into the hull's own
//! frame (its principal axes, each scaled by the spread of the vertices along it), and the
//! mapped direction's cell of a cube map (a square map for flat hulls) holds a vertex farthest
//! along the cell's centre direction. The frame makes the cells share the vertices evenly on
//! elongated and flat hulls, not only on round ones: on an ellipsoid with semi-axes `r` the
//! support point along `d` sits where the unit sphere's point `r ⊙ d / |r ⊙ d|` is mapped, so
//! cells of the map of `r ⊙ d` hold equally many vertices; on a flat hull the map is that of
//! the in-plane directions, so a direction nearly normal to the plane still finds a seed on
//! the right side of the polygon.

use alloc::vec::Vec;

use glam::DVec3;

use super::{from_f64, to_f64, Hull};
use crate::math::{Real, Vector};

/// The largest cube-map resolution (cells per edge of a face): 6 · 64² cells.
const MAX_GRID: usize = 64;
/// The largest square-map resolution (cells per side): 4 · 4096 cells.
const MAX_PLANAR_GRID: usize = 4096;

/// A lookup table from directions to good starting vertices (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct SeedTable {
    /// The map from a direction to its coordinates in the table's frame: the rows are the
    /// hull's principal axes scaled by the spread along them (relative to the largest).
    rows: [[f32; 3]; 3],
    /// A square map of the first two mapped coordinates (polygons, flat hulls in 3D) rather
    /// than a cube map of all three.
    planar: bool,
    /// Cells per edge of a cube face, or per side of the square; 0 for no table.
    grid: u32,
    /// For each cell, a vertex farthest along the cell's centre direction.
    cells: Vec<u32>,
}

impl SeedTable {
    /// No table: every seed is vertex 0.
    pub(super) fn empty() -> Self {
        Self { rows: [[0.0; 3]; 3], planar: false, grid: 0, cells: Vec::new() }
    }

    /// The table of a climbable hull of dimension 2 or 3, of about one cell per vertex:
    /// each cell's vertex comes from a climb from the previous cell's (in an order where
    /// consecutive cells are adjacent), so the table costs a step or two per cell.
    pub(super) fn new<V: Vector>(hull: &Hull<V>) -> Self {
        let n = hull.vertices().len();
        // Without adjacency a "climb" is a scan: a table would cost n scans, and support scans
        // anyway.
        if n < 3 || hull.dimension() < 2 || !hull.climbable {
            return Self::empty();
        }
        let planar = hull.dimension() == 2;
        let (axes, spreads) = principal_axes(hull.vertices());
        let mut rows = [[0.0f32; 3]; 3];
        for k in 0..if planar { 2 } else { 3 } {
            rows[k] = (axes[k] * spreads[k]).to_array().map(|c| c as f32);
        }
        let (faces, grid, columns) = if planar {
            let grid = n.div_ceil(4).clamp(1, MAX_PLANAR_GRID);
            (4, grid, 1)
        } else {
            // ⌈√(n/6)⌉ in integers (`f64::sqrt` and `ceil` need std).
            let per_face = n.div_ceil(6);
            let grid = (1..MAX_GRID).find(|g| g * g >= per_face).unwrap_or(MAX_GRID);
            (6, grid, grid)
        };
        let mut table =
            Self { rows, planar, grid: grid as u32, cells: alloc::vec![0; faces * grid * columns] };
        let mut current = 0;
        for face in 0..faces {
            for i in 0..grid {
                for k in 0..columns {
                    // Serpentine: every other row backwards, so consecutive cells are adjacent.
                    let j = if i % 2 == 0 { k } else { columns - 1 - k };
                    let mapped = cell_centre(planar, grid, face, i, j);
                    current = hull.climb(from_f64(unmap(&axes, &spreads, mapped)), current);
                    table.cells[(face * grid + i) * columns + j] = current as u32;
                }
            }
        }
        table
    }

    /// The table's vertex for `dir` (0 without a table). Constant time: the map (three dot
    /// products), a few compares, one division, one table read.
    #[inline]
    pub(super) fn seed<V: Vector>(&self, dir: V) -> usize {
        match self.cells.get(self.cell(dir)) {
            Some(&s) => s as usize,
            None => 0,
        }
    }

    /// The cell of `dir` (any index when there is no table). A zero, tiny or huge direction
    /// can give NaN coordinates, which the saturating conversion turns into the face's first
    /// cell: any cell is a valid start.
    #[inline(always)]
    fn cell<V: Vector>(&self, dir: V) -> usize {
        let d = [0, 1, 2].map(|k| if k < V::DIM { dir.component(k).to_f64() as f32 } else { 0.0 });
        let [x, y, z] = self.rows.map(|r| r[0] * d[0] + r[1] * d[1] + r[2] * d[2]);
        let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
        // The face (major axis and its sign: 2 · axis + negative), and on it the other
        // coordinates divided by the major one, in [−1, 1].
        let (face, u, v) = if self.planar {
            if ax >= ay {
                (usize::from(x < 0.0), y / ax, 0.0)
            } else {
                (2 + usize::from(y < 0.0), x / ay, 0.0)
            }
        } else if ax >= ay && ax >= az {
            (usize::from(x < 0.0), y / ax, z / ax)
        } else if ay >= az {
            (2 + usize::from(y < 0.0), z / ay, x / ay)
        } else {
            (4 + usize::from(z < 0.0), x / az, y / az)
        };
        let half = self.grid as f32 * 0.5;
        let last = self.grid.saturating_sub(1);
        let quantise = |t: f32| (((t + 1.0) * half) as u32).min(last) as usize;
        let grid = self.grid as usize;
        if self.planar {
            face * grid + quantise(u)
        } else {
            (face * grid + quantise(u)) * grid + quantise(v)
        }
    }
}

/// The mapped coordinates of the centre of cell `(i, j)` of `face` (`j` is 0 on a square
/// map): the face's axis at ±1, the others in `[−1, 1]`.
fn cell_centre(planar: bool, grid: usize, face: usize, i: usize, j: usize) -> [f64; 3] {
    let centre = |k: usize| ((k as f64 + 0.5) / grid as f64) * 2.0 - 1.0;
    let major = if face % 2 == 0 { 1.0 } else { -1.0 };
    let (u, v) = (centre(i), centre(j));
    match (planar, face / 2) {
        (true, 0) => [major, u, 0.0],
        (true, _) => [u, major, 0.0],
        (false, 0) => [major, u, v],
        (false, 1) => [v, major, u],
        (false, _) => [u, v, major],
    }
}

/// A direction whose mapped coordinates are `mapped`: the pseudo-inverse of the map with rows
/// `spreads[k] · axes[k]` (axes without spread are left out).
fn unmap(axes: &[DVec3; 3], spreads: &[f64; 3], mapped: [f64; 3]) -> DVec3 {
    let mut dir = DVec3::ZERO;
    for k in 0..3 {
        if spreads[k] > 0.0 {
            dir += axes[k] * (mapped[k] / spreads[k]);
        }
    }
    dir
}

/// The principal axes of the points (unit, orthogonal, by decreasing spread) and the spread
/// along each (the standard deviation) relative to the largest, so the map's rows are at most
/// unit length and cannot overflow.
fn principal_axes<V: Vector>(points: &[V]) -> ([DVec3; 3], [f64; 3]) {
    let n = points.len() as f64;
    let mean = points.iter().fold(DVec3::ZERO, |sum, &p| sum + to_f64(p) / n);
    // Scaled to unit size first, so the squares cannot overflow.
    let size = points.iter().fold(0.0f64, |m, &p| m.max((to_f64(p) - mean).abs().max_element()));
    let unit = if size > 0.0 && size.is_finite() { 1.0 / size } else { 1.0 };
    let mut c = [[0.0f64; 3]; 3];
    for &p in points {
        let q = ((to_f64(p) - mean) * unit).to_array();
        for i in 0..3 {
            for j in 0..3 {
                c[i][j] += q[i] * q[j] / n;
            }
        }
    }
    let (values, vectors) = symmetric_eigen(c);
    let mut order = [0, 1, 2];
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    let axes = order.map(|k| vectors[k]);
    let spreads = order.map(|k| libm::sqrt(values[k].max(0.0)));
    let spreads = spreads.map(|s| if spreads[0] > 0.0 { s / spreads[0] } else { 0.0 });
    if axes.iter().all(|a| a.is_finite()) && spreads.iter().all(|s| s.is_finite()) {
        (axes, spreads)
    } else {
        ([DVec3::X, DVec3::Y, DVec3::Z], [1.0; 3])
    }
}

/// The eigenvalues and unit eigenvectors of a symmetric 3×3 matrix, by cyclic Jacobi
/// rotations (Golub & Van Loan, algorithm 8.4.3).
fn symmetric_eigen(mut a: [[f64; 3]; 3]) -> ([f64; 3], [DVec3; 3]) {
    let mut v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    for _ in 0..32 {
        let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        let diagonal = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
        if off <= 1e-30 * diagonal || off == 0.0 {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q] == 0.0 {
                continue;
            }
            // The rotation in the (p, q) plane that zeroes a[p][q].
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = if theta.abs() > 1e150 {
                0.5 / theta
            } else {
                theta.signum() / (theta.abs() + libm::sqrt(theta * theta + 1.0))
            };
            let c = 1.0 / libm::sqrt(t * t + 1.0);
            let s = t * c;
            let apq = a[p][q];
            a[p][p] -= t * apq;
            a[q][q] += t * apq;
            a[p][q] = 0.0;
            a[q][p] = 0.0;
            let r = 3 - p - q;
            let (arp, arq) = (a[r][p], a[r][q]);
            a[r][p] = c * arp - s * arq;
            a[p][r] = a[r][p];
            a[r][q] = s * arp + c * arq;
            a[q][r] = a[r][q];
            for row in &mut v {
                let (vp, vq) = (row[p], row[q]);
                row[p] = c * vp - s * vq;
                row[q] = s * vp + c * vq;
            }
        }
    }
    let values = [a[0][0], a[1][1], a[2][2]];
    let vectors = [0, 1, 2].map(|k| DVec3::new(v[0][k], v[1][k], v[2][k]).normalize_or_zero());
    (values, vectors)
}

#[cfg(test)]
mod tests {
    use super::super::dot_f64;
    use super::*;
    use crate::test_rng::{Draw, Rng};
    use glam::{DVec2, Vec2, Vec3};

    /// The largest `p · dir` over the vertices, in `f64`.
    fn top<V: Vector>(hull: &Hull<V>, dir: DVec3) -> f64 {
        hull.vertices().iter().map(|&p| dot_f64(p, dir)).fold(f64::NEG_INFINITY, f64::max)
    }

    /// Every cell's centre direction falls in that cell and the cell holds a vertex farthest
    /// along it; climbs from the seed (also with a random hint) and from a random cell's seed
    /// agree with a scan on 10,000 random directions.
    fn check_table<V: Vector>(points: &[DVec3], rng: &mut Rng) {
        let points: Vec<V> = points.iter().map(|&p| from_f64(p)).collect();
        let hull = Hull::new(&points).unwrap();
        let table = &hull.seeds;
        // Tilted flat points rounded to `f32` are no longer coplanar: a thin solid.
        assert_eq!(table.planar, hull.dimension() == 2);
        let planar = table.planar;
        let grid = table.grid as usize;
        let (faces, columns) = if planar { (4, 1) } else { (6, grid) };
        assert!(grid > 0 && table.cells.len() == faces * grid * columns);
        let (axes, spreads) = principal_axes(hull.vertices());
        let squashed = spreads[..faces / 2].iter().any(|&s| s < 1e-3);
        let scale = points.iter().map(|p| to_f64(*p).length()).fold(0.0, f64::max);
        let tol = 1e-12 * scale;
        for face in 0..faces {
            for i in 0..grid {
                for j in 0..columns {
                    let d = unmap(&axes, &spreads, cell_centre(planar, grid, face, i, j));
                    let dir: V = from_f64(d);
                    let d = to_f64(dir);
                    let cell = (face * grid + i) * columns + j;
                    // (Except where the map is nearly singular: there `f32` rounding of the
                    // direction moves its mapped in-plane coordinates by up to a cell.)
                    if !squashed {
                        assert_eq!(table.cell(dir), cell, "face {face} cell ({i}, {j})");
                    }
                    let seed = table.cells[cell] as usize;
                    assert!(top(&hull, d) - dot_f64(hull.vertices()[seed], d) <= tol * d.length());
                }
            }
        }
        for _ in 0..10_000 {
            let mut d = rng.on_sphere() * (0.5 + rng.unit());
            if V::DIM == 2 {
                d.z = 0.0;
            }
            let dir: V = from_f64(d);
            let d = to_f64(dir);
            let best = top(&hull, d);
            let short = |found: usize| best - dot_f64(hull.vertices()[found], d);
            assert!(short(hull.support_index(dir)) <= tol, "seeded climb along {d}");
            let other = table.cells[(rng.unit() * table.cells.len() as f64) as usize];
            assert!(short(hull.climb(dir, other as usize)) <= tol, "climb along {d}");
            // Any hint, in range or not, good or bad.
            let hint = (rng.unit() * 1.1 * hull.vertices().len() as f64) as usize;
            let found = hull.climb_hinted(dir, hull.seed(dir), hint);
            assert!(short(found) <= tol, "hinted climb along {d}");
        }
    }

    fn ellipsoid(rng: &mut Rng, n: usize, radii: DVec3) -> Vec<DVec3> {
        (0..n).map(|_| rng.on_sphere() * radii).collect()
    }

    /// Points on an ellipse in a tilted plane of 3D (or the xy-plane): the hull is a polygon.
    fn ellipse(rng: &mut Rng, n: usize, tilted: bool) -> Vec<DVec3> {
        let (u, v) = if tilted {
            let u = DVec3::new(1.0, 0.5, 0.2).normalize();
            (u, DVec3::new(-0.3, 0.4, 1.0).reject_from(u).normalize())
        } else {
            (DVec3::X, DVec3::Y)
        };
        (0..n)
            .map(|_| {
                let (sin, cos) = libm::sincos(rng.unit() * core::f64::consts::TAU);
                u * cos + v * (2.0 * sin)
            })
            .collect()
    }

    #[test]
    fn seed_tables_hold_maximisers_and_climbs_agree_with_scans() {
        let mut rng = Rng::new(7);
        for n in [65, 1000, 10_000] {
            let round = ellipsoid(&mut rng, n, DVec3::ONE);
            let thin = ellipsoid(&mut rng, n, DVec3::new(1.0, 0.02, 3.0));
            for solid in [round, thin] {
                check_table::<DVec3>(&solid, &mut rng);
                check_table::<Vec3>(&solid, &mut rng);
            }
            for tilted in [false, true] {
                let flat = ellipse(&mut rng, n, tilted);
                check_table::<DVec3>(&flat, &mut rng);
                check_table::<Vec3>(&flat, &mut rng);
            }
            let polygon = ellipse(&mut rng, n, false);
            check_table::<DVec2>(&polygon, &mut rng);
            check_table::<Vec2>(&polygon, &mut rng);
        }
    }

    #[test]
    fn cells_stay_in_the_table_for_any_direction() {
        let hull = Hull::new(&ellipsoid(&mut Rng::new(3), 200, DVec3::ONE)).unwrap();
        let weird = [
            DVec3::ZERO,
            DVec3::splat(1e-300),
            DVec3::new(-1e300, 1e300, 0.0),
            DVec3::new(0.0, -0.0, -5.0),
            DVec3::splat(-1.0),
            DVec3::new(f64::MIN_POSITIVE, 0.0, -f64::MIN_POSITIVE),
            DVec3::new(f64::MAX, -f64::MAX, f64::MAX),
        ];
        for dir in weird {
            assert!(hull.seeds.cell(dir) < hull.seeds.cells.len(), "{dir}");
            assert!(hull.seed(dir) < hull.vertices().len());
        }
        let none = SeedTable::empty();
        assert_eq!(none.seed(DVec3::X), 0);
    }

    #[test]
    fn jacobi_diagonalises() {
        let a = [[4.0, 1.0, -2.0], [1.0, 3.0, 0.5], [-2.0, 0.5, 1.0]];
        let (values, vectors) = symmetric_eigen(a);
        for k in 0..3 {
            let x = vectors[k];
            let ax = DVec3::new(
                a[0][0] * x.x + a[0][1] * x.y + a[0][2] * x.z,
                a[1][0] * x.x + a[1][1] * x.y + a[1][2] * x.z,
                a[2][0] * x.x + a[2][1] * x.y + a[2][2] * x.z,
            );
            assert!((ax - x * values[k]).length() < 1e-12, "{k}: {ax} vs {}", x * values[k]);
            assert!((x.length() - 1.0).abs() < 1e-12);
        }
        assert!((values.iter().sum::<f64>() - 8.0).abs() < 1e-12);
    }

    #[test]
    fn the_frame_follows_a_tilted_slab() {
        // Points of a thin tilted box: the last axis is the slab's normal.
        let normal = DVec3::new(1.0, 2.0, 2.0) / 3.0;
        let u = normal.any_orthonormal_vector();
        let w = normal.cross(u);
        let points: Vec<DVec3> = (0..64)
            .map(|i| {
                let (a, b, c) = ((i & 3) as f64, ((i >> 2) & 3) as f64, ((i >> 4) & 3) as f64);
                u * (a - 1.5) * 4.0 + w * (b - 1.5) * 2.0 + normal * (c - 1.5) * 0.01
            })
            .collect();
        let (axes, spreads) = principal_axes(&points);
        assert!((axes[0].dot(u).abs() - 1.0).abs() < 1e-9);
        assert!((axes[1].dot(w).abs() - 1.0).abs() < 1e-9);
        assert!((axes[2].dot(normal).abs() - 1.0).abs() < 1e-9);
        assert!(spreads[0] == 1.0 && spreads[1] < 1.0 && spreads[1] > 100.0 * spreads[2]);
    }
}
