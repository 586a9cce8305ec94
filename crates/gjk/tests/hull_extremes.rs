//! Hull vertices are exactly the extreme points on degenerate 3D inputs: lattices, points on a
//! cube's edges and faces, an octahedron with its edge midpoints and face centres, and points
//! just inside edges and faces.
//!
//! Oracle: a point is extreme iff it is not in the convex hull of the other points, decided by
//! brute force with the first stage of the Carathéodory oracle of `common`: the point of the
//! others' hull closest to it lies on a segment or triangle of them, so the closest of the
//! projections onto all of those gives the distance — when the plane through the point normal
//! to that direction has every other point strictly on one side; otherwise the point is in the
//! others' hull. It never calls the library. The inputs are small integers (exact in `f32` and
//! `f64`), or small integers moved by `1e-12` in `f64`, so a point counts as extreme when its
//! distance to the others' hull exceeds `1e-9` of the cloud's size.
//!
//! Beyond the vertex set, every hull is checked for its structure: the vertices are the input
//! points `input_indices` names, each face's normal is a unit outward normal whose plane has
//! every input point on its inner side and the face's corners on it, the faces close up (every
//! edge borders two faces, counter-clockwise from outside, and V − E + F = 2 with the faces as
//! the library defines them: triangles), and the adjacency is the edge list.

use crate::common;

use common::{origin_separation, Draw, Rng};
use gjk::hull::Hull;
use gjk::{Real, Vector};
use glam::{DVec3, Vec3};
use std::sync::Mutex;

/// The points that are not in the convex hull of the others, sorted. The oracle is slow (about
/// `n⁴ / 6` steps): its answers are kept per point set (shuffles and `f32` copies of integer
/// inputs ask again).
fn extreme_points(points: &[DVec3]) -> Vec<[f64; 3]> {
    /// Point sets (sorted) and their extreme points.
    type Answers = Vec<(Vec<[f64; 3]>, Vec<[f64; 3]>)>;
    static KNOWN: Mutex<Answers> = Mutex::new(Vec::new());
    let set = sorted(points.iter().copied());
    if let Some((_, answer)) = KNOWN.lock().unwrap().iter().find(|(known, _)| *known == set) {
        return answer.clone();
    }
    let answer = sorted(oracle_extremes(points).into_iter().map(|i| points[i]));
    KNOWN.lock().unwrap().push((set, answer.clone()));
    answer
}

/// The indices of the points that are not in the convex hull of the others.
fn oracle_extremes(points: &[DVec3]) -> Vec<usize> {
    let scale = points.iter().map(|p| p.abs().max_element()).fold(f64::MIN_POSITIVE, f64::max);
    (0..points.len())
        .filter(|&i| {
            let others: Vec<DVec3> =
                (0..points.len()).filter(|&j| j != i).map(|j| points[j] - points[i]).collect();
            origin_separation(&others, 3).is_some_and(|distance| distance > 1e-9 * scale)
        })
        .collect()
}

fn shuffle<T>(rng: &mut Rng, items: &mut [T]) {
    for k in (1..items.len()).rev() {
        items.swap(k, rng.below(k + 1));
    }
}

/// The integer points `0..nx × 0..ny × 0..nz`.
fn lattice(nx: usize, ny: usize, nz: usize) -> Vec<DVec3> {
    let mut points = Vec::new();
    for i in 0..nx {
        for j in 0..ny {
            for k in 0..nz {
                points.push(DVec3::new(i as f64, j as f64, k as f64));
            }
        }
    }
    points
}

/// Whether `p` lies on the boundary of the box `[0, m]³`.
fn on_cube_surface(p: DVec3, m: f64) -> bool {
    p.to_array().iter().any(|&c| c == 0.0 || c == m)
}

/// How many coordinates of `p` are at `0` or `m`: 3 at a corner, 2 on an edge, 1 on a face.
fn boundary_coordinates(p: DVec3, m: f64) -> usize {
    p.to_array().iter().filter(|&&c| c == 0.0 || c == m).count()
}

/// The cube `[0, 4]³`: its corners, the three inner points of each edge and `faces` random
/// inner points of its faces' 5 × 5 grids.
fn cube_edges_and_faces(rng: &mut Rng, faces: usize) -> Vec<DVec3> {
    let grid = lattice(5, 5, 5);
    let mut points: Vec<DVec3> =
        grid.iter().copied().filter(|&p| boundary_coordinates(p, 4.0) >= 2).collect();
    let mut face_points: Vec<DVec3> =
        grid.iter().copied().filter(|&p| boundary_coordinates(p, 4.0) == 1).collect();
    shuffle(rng, &mut face_points);
    points.extend(face_points.into_iter().take(faces));
    points
}

/// An octahedron with the given tips (three opposite pairs, `tips[2k]` opposite
/// `tips[2k + 1]`), its edge midpoints and its face centres, sorted, without duplicates.
fn octahedron_with_midpoints(tips: [DVec3; 6]) -> Vec<DVec3> {
    // Two tips are joined by an edge unless they are opposite.
    let adjacent = |i: usize, j: usize| i != j && i / 2 != j / 2;
    let mut points = tips.to_vec();
    for i in 0..6 {
        for j in i + 1..6 {
            if !adjacent(i, j) {
                continue;
            }
            points.push((tips[i] + tips[j]) / 2.0);
            for k in j + 1..6 {
                if adjacent(i, k) && adjacent(j, k) {
                    points.push((tips[i] + tips[j] + tips[k]) / 3.0);
                }
            }
        }
    }
    points.sort_unstable_by(|p, q| p.to_array().partial_cmp(&q.to_array()).unwrap());
    points.dedup();
    points
}

/// The regular octahedron with tips at `±6` on the axes.
fn regular_octahedron() -> [DVec3; 6] {
    [DVec3::X, DVec3::Y, DVec3::Z].map(|a| a * 6.0).map(|a| [a, -a]).concat().try_into().unwrap()
}

/// An octahedron whose equator is the square `(±6, ±6, 0)` (edges parallel to the axes: the
/// extremes along x and y tie along an edge), with tips at `(0, 0, ±6)`.
fn square_octahedron() -> [DVec3; 6] {
    [
        DVec3::new(6.0, 6.0, 0.0),
        DVec3::new(-6.0, -6.0, 0.0),
        DVec3::new(6.0, -6.0, 0.0),
        DVec3::new(-6.0, 6.0, 0.0),
        DVec3::new(0.0, 0.0, 6.0),
        DVec3::new(0.0, 0.0, -6.0),
    ]
}

/// The 5 × 5 × 5 lattice with the inner points of the cube's edges and faces moved inward
/// along the axes on which they are at the boundary: edge points by `edge_move`, face points
/// by what `face_move` returns for each (negative: outward).
fn lattice_moved(edge_move: f64, mut face_move: impl FnMut() -> f64) -> Vec<DVec3> {
    lattice(5, 5, 5)
        .into_iter()
        .map(|p| {
            let amount = match boundary_coordinates(p, 4.0) {
                2 => edge_move,
                1 => face_move(),
                _ => return p,
            };
            let inward = p.to_array().map(|c| {
                if c == 0.0 {
                    amount
                } else if c == 4.0 {
                    -amount
                } else {
                    0.0
                }
            });
            p + DVec3::from_array(inward)
        })
        .collect()
}

/// The cube's corners `{0, 4}³`.
fn cube_corners() -> Vec<DVec3> {
    lattice(2, 2, 2).into_iter().map(|p| p * 4.0).collect()
}

/// The vertices, in `f64`, sorted.
fn sorted(points: impl Iterator<Item = DVec3>) -> Vec<[f64; 3]> {
    let mut v: Vec<[f64; 3]> = points.map(|p| p.to_array()).collect();
    v.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap());
    v
}

fn f64s<V: Vector>(v: V) -> DVec3 {
    DVec3::new(v.component(0).to_f64(), v.component(1).to_f64(), v.component(2).to_f64())
}

/// Builds the hull of `points` (as `V` stores them) and checks it against the oracle and for
/// its structure; returns the number of vertices.
fn check_hull<V: Vector>(name: &str, points: &[DVec3]) -> usize {
    check_hull_against::<V>(name, points, None)
}

/// [`check_hull`], with the extreme points given (`Some`) instead of found by the oracle.
fn check_hull_against<V: Vector>(
    name: &str,
    points: &[DVec3],
    extremes: Option<&[DVec3]>,
) -> usize {
    let input: Vec<V> =
        points.iter().map(|p| V::from_components(p.to_array().map(V::Real::from_f64))).collect();
    let stored: Vec<DVec3> = input.iter().map(|&p| f64s(p)).collect();
    let hull = Hull::new(&input).expect("a hull");
    assert_eq!(hull.dimension(), 3, "{name}: dimension");

    // The vertex set is the extreme point set.
    let expected = match extremes {
        Some(given) => sorted(given.iter().copied()),
        None => extreme_points(&stored),
    };
    let got = sorted(hull.vertices().iter().map(|&v| f64s(v)));
    assert_eq!(got, expected, "{name}: {} vertices, {} extreme points", got.len(), expected.len());

    // Vertices are the input points `input_indices` names, each once.
    assert_eq!(hull.input_indices().len(), hull.vertices().len());
    for (&v, &i) in hull.vertices().iter().zip(hull.input_indices()) {
        assert_eq!(v, input[i as usize], "{name}: a vertex is not its input point");
    }

    // Faces: unit outward normals, every input point inside, corners on the plane and
    // counter-clockwise seen from outside.
    let scale = stored.iter().map(|p| p.abs().max_element()).fold(f64::MIN_POSITIVE, f64::max);
    let tol = if V::Real::EPSILON.to_f64() > 1e-10 { 1e-5 } else { 1e-9 } * scale;
    let vertex = |i: u32| f64s(hull.vertices()[i as usize]);
    for face in hull.faces() {
        let normal = f64s(face.normal);
        let offset = face.offset.to_f64();
        assert!((normal.length() - 1.0).abs() < 1e-5, "{name}: normal not unit");
        for (k, p) in stored.iter().enumerate() {
            let above = normal.dot(*p) - offset;
            assert!(above <= tol, "{name}: input point {k} is {above:e} above a face");
        }
        assert!(face.vertices.len() >= 3, "{name}: a face with fewer than 3 corners");
        let corners: Vec<DVec3> = face.vertices.iter().map(|&i| vertex(i)).collect();
        for c in &corners {
            assert!((normal.dot(*c) - offset).abs() <= tol, "{name}: a corner off its face");
        }
        let mut area = DVec3::ZERO;
        for k in 1..corners.len() - 1 {
            area += (corners[k] - corners[0]).cross(corners[k + 1] - corners[0]);
        }
        assert!(area.dot(normal) > 0.0, "{name}: a face is clockwise from outside");
    }

    // Closed surface: each directed face edge once, its reverse once; edges are the undirected
    // face edges; Euler's formula.
    let mut directed: Vec<[u32; 2]> = Vec::new();
    for face in hull.faces() {
        let c = face.vertices;
        for k in 0..c.len() {
            directed.push([c[k], c[(k + 1) % c.len()]]);
        }
    }
    directed.sort_unstable();
    let count = directed.len();
    directed.dedup();
    assert_eq!(directed.len(), count, "{name}: a directed edge is in two faces");
    for &[a, b] in &directed {
        assert!(directed.binary_search(&[b, a]).is_ok(), "{name}: edge {a}→{b} has no twin");
    }
    let mut undirected: Vec<[u32; 2]> = directed.iter().filter(|e| e[0] < e[1]).copied().collect();
    undirected.sort_unstable();
    assert_eq!(hull.edges(), &undirected[..], "{name}: edges are not the faces' edges");
    let (v, e, f) = (hull.vertices().len() as i64, hull.edges().len() as i64, hull.faces().len());
    assert_eq!(v - e + f as i64, 2, "{name}: Euler's formula fails: V={v} E={e} F={f}");
    for k in 0..hull.vertices().len() {
        let mut neighbours: Vec<u32> = hull.neighbours(k).to_vec();
        neighbours.sort_unstable();
        let mut expected: Vec<u32> = hull
            .edges()
            .iter()
            .filter_map(|&[a, b]| {
                if a as usize == k {
                    Some(b)
                } else if b as usize == k {
                    Some(a)
                } else {
                    None
                }
            })
            .collect();
        expected.sort_unstable();
        assert_eq!(neighbours, expected, "{name}: adjacency of vertex {k}");
    }

    // Support by hill climbing matches a scan of the input.
    let mut rng = Rng::new(0x5EED);
    for _ in 0..200 {
        let d = rng.direction(3);
        let dir = V::from_components(d.to_array().map(V::Real::from_f64));
        let truth = stored.iter().map(|p| p.dot(f64s(dir))).fold(f64::NEG_INFINITY, f64::max);
        let got = f64s(hull.vertices()[hull.support_index(dir)]).dot(f64s(dir));
        assert!(truth - got <= tol, "{name}: support short by {:e}", truth - got);
    }
    hull.vertices().len()
}

fn check_both(name: &str, points: &[DVec3]) -> usize {
    let n = check_hull::<DVec3>(name, points);
    check_hull::<Vec3>(&format!("{name} (f32)"), points);
    n
}

#[test]
fn shuffled_lattices_keep_only_corners() {
    for (nx, ny, nz) in [(5, 5, 5), (3, 3, 3), (4, 6, 2)] {
        let base = lattice(nx, ny, nz);
        let mut points = base.clone();
        // In order, reversed and shuffled with several seeds: Quickhull's choices depend on
        // the order.
        for seed in 0..6u64 {
            match seed {
                0 => {}
                1 => points.reverse(),
                _ => shuffle(&mut Rng::new(seed), &mut points),
            }
            let name = format!("{nx}×{ny}×{nz} lattice, order {seed}");
            assert_eq!(check_both(&name, &points), 8, "{name}");
        }
    }
}

#[test]
fn the_known_failure_five_cubed_lattice() {
    // The reported case: 5 × 5 × 5, shuffled, kept 8 points on the cube's edges besides the
    // corners.
    let mut points = lattice(5, 5, 5);
    for seed in [1, 7, 42, 1234, 0xDE6E] {
        shuffle(&mut Rng::new(seed), &mut points);
        assert_eq!(check_both(&format!("5³ lattice, seed {seed}"), &points), 8);
    }
}

#[test]
fn cube_edges_and_faces_keep_only_corners() {
    for seed in 0..8u64 {
        let mut rng = Rng::new(100 + seed);
        let faces = [0, 10, 30, 54][seed as usize % 4];
        let mut points = cube_edges_and_faces(&mut rng, faces);
        shuffle(&mut rng, &mut points);
        let name = format!("cube edges and {faces} face points, seed {seed}");
        assert_eq!(check_both(&name, &points), 8, "{name}");
    }
}

#[test]
fn cube_face_grid_keeps_only_corners() {
    // Only the surface of the 5 × 5 × 5 and 8 × 8 × 8 lattices: no interior points at all. The
    // larger one (296 points) is beyond the oracle's reach: its extreme points are the corners.
    for m in [5, 8] {
        let side = (m - 1) as f64;
        let surface: Vec<DVec3> =
            lattice(m, m, m).into_iter().filter(|&p| on_cube_surface(p, side)).collect();
        let corners: Vec<DVec3> = cube_corners().into_iter().map(|c| c / 4.0 * side).collect();
        let given = (m > 5).then_some(&corners[..]);
        for seed in 0..4u64 {
            let mut points = surface.clone();
            shuffle(&mut Rng::new(200 + seed), &mut points);
            let name = format!("{m}³ face grid, seed {seed}");
            assert_eq!(check_hull_against::<DVec3>(&name, &points, given), 8, "{name}");
            let name = format!("{name} (f32)");
            assert_eq!(check_hull_against::<Vec3>(&name, &points, given), 8, "{name}");
        }
    }
}

#[test]
fn octahedra_with_midpoints_keep_only_tips() {
    for (shape, tips) in [("regular", regular_octahedron()), ("square", square_octahedron())] {
        let base = octahedron_with_midpoints(tips);
        assert_eq!(base.len(), 6 + 12 + 8);
        for seed in 0..8u64 {
            let mut points = base.clone();
            shuffle(&mut Rng::new(300 + seed), &mut points);
            let name = format!("{shape} octahedron with midpoints, seed {seed}");
            assert_eq!(check_both(&name, &points), 6, "{name}");
        }
    }
}

#[test]
fn points_just_inside_edges_or_faces_are_not_vertices() {
    // f64 only: in f32 the 1e-12 moves vanish (that input is the plain lattice, tested above).
    // Edge points just inside and face points on the faces, then the other way round.
    for (edge_move, face_move) in [(1e-12, 0.0), (0.0, 1e-12)] {
        for seed in 0..6u64 {
            let mut rng = Rng::new(400 + seed);
            let mut points = lattice_moved(edge_move, || face_move);
            shuffle(&mut rng, &mut points);
            let name =
                format!("lattice, edges in by {edge_move:e}, faces by {face_move:e}, seed {seed}");
            assert_eq!(check_hull::<DVec3>(&name, &points), 8, "{name}");
        }
    }
}

#[test]
fn points_within_the_tolerance_of_edges_and_faces_are_not_vertices() {
    // Edge points 1e-12 inside (several tolerances), face points moved by up to 1e-14 either
    // way (a tenth of the hull's tolerance, about 1.4e-13 here): the corners are the extreme
    // points up to the tolerance, and the only vertices.
    let corners = cube_corners();
    for seed in 0..6u64 {
        let mut rng = Rng::new(600 + seed);
        let mut points = lattice_moved(1e-12, || 1e-14 * rng.range(-1.0, 1.0));
        shuffle(&mut rng, &mut points);
        let name = format!("lattice within the tolerance, seed {seed}");
        let hull = Hull::new(&points).unwrap();
        assert!(hull.tolerance() > 1e-13, "{name}: the tolerance is {:e}", hull.tolerance());
        check_hull_against::<DVec3>(&name, &points, Some(&corners));
    }
}

#[test]
fn lattices_off_the_origin_and_scaled() {
    // The same degeneracies away from the origin and at other scales (exact: powers of two
    // and small integer offsets).
    for (offset, scale) in [(1000.0, 1.0), (-3.0, 0.25), (0.0, 1024.0)] {
        let mut points: Vec<DVec3> =
            lattice(5, 5, 5).into_iter().map(|p| p * scale + DVec3::splat(offset)).collect();
        shuffle(&mut Rng::new(500), &mut points);
        let name = format!("lattice ×{scale} + {offset}");
        assert_eq!(check_both(&name, &points), 8, "{name}");
    }
}

#[test]
fn random_small_integer_clouds() {
    // 8 to 47 distinct points with coordinates in 0..=m (m from 2 to 5): collinear and
    // coplanar points everywhere; half of them turned by an exact rotation (entries 3/5, 4/5,
    // scaled by 25) so the degenerate faces are not axis-aligned; some scaled by a power of two
    // and moved. The oracle decides every case.
    let mut rng = Rng::new(77);
    let mut solids = 0;
    for case in 0..300 {
        let n = 8 + rng.below(40);
        let m = 2 + rng.below(4);
        let mut coordinate = || rng.below(m + 1) as f64;
        let mut points: Vec<DVec3> =
            (0..n).map(|_| DVec3::new(coordinate(), coordinate(), coordinate())).collect();
        points.sort_unstable_by(|p, q| p.to_array().partial_cmp(&q.to_array()).unwrap());
        points.dedup();
        shuffle(&mut rng, &mut points);
        if rng.chance(0.5) {
            let turn = |p: DVec3| {
                let q = DVec3::new(3.0 * p.x - 4.0 * p.y, 4.0 * p.x + 3.0 * p.y, 5.0 * p.z);
                DVec3::new(5.0 * q.x, 3.0 * q.y - 4.0 * q.z, 4.0 * q.y + 3.0 * q.z)
            };
            points = points.into_iter().map(turn).collect();
        }
        if rng.chance(0.3) {
            let scale = [0.125, 64.0, 1024.0][rng.below(3)];
            let offset = [3.0, -100.0, 4096.0][rng.below(3)];
            points = points.into_iter().map(|p| p * scale + DVec3::splat(offset)).collect();
        }
        if Hull::new(&points).unwrap().dimension() != 3 {
            continue; // flat or collinear: `hull.rs` covers those
        }
        solids += 1;
        check_both(&format!("random cloud {case}"), &points);
    }
    assert!(solids > 250, "only {solids} full-dimensional clouds");
}
