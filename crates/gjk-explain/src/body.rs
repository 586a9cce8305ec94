//! A posed shape to explain, and its outline on paper.

use gjk::{full_support, Pose, Support};
use glam::DVec2;

use crate::space::Space;

/// Directions sampled around the screen circle for an outline (then refined at corners).
const OUTLINE_DIRECTIONS: usize = 256;
/// How many times the angle between two neighbouring samples is halved to find a corner.
const REFINE_DEPTH: u32 = 6;

/// A shape placed in the world.
pub(crate) struct Body<'s, V: Space> {
    /// The shape in its own frame.
    pub shape: &'s dyn Support<V>,
    /// Its place in the world.
    pub pose: Pose<V>,
    /// Its vertices in the world when it is a known point set (exact outlines, vertex dots).
    pub vertices: Option<Vec<V>>,
    /// How it is described in words ("the triangle (0, 1), (1, −1), (−1, −1)").
    pub description: String,
}

impl<V: Space> Body<'_, V> {
    /// The farthest point of the whole shape (margin included) along the world direction `d`.
    pub fn support(&self, d: V) -> V {
        let local = full_support(self.shape, self.pose.inverse_transform_vector(d));
        self.pose.transform_point(local)
    }

    /// The outline on screen, counter-clockwise.
    pub fn outline(&self) -> Vec<DVec2> {
        match &self.vertices {
            Some(points) => convex_hull(points.iter().map(|&p| p.screen()).collect()),
            None => sampled_outline(|u| self.support(V::lift(u)).screen()),
        }
    }
}

/// The outline on screen of the Minkowski difference `A − B`, counter-clockwise: the hull of all
/// differences of vertices for point sets, else sampled from `s(d) = s_A(d) − s_B(−d)`.
pub(crate) fn difference_outline<V: Space>(a: &Body<'_, V>, b: &Body<'_, V>) -> Vec<DVec2> {
    if let (Some(pa), Some(pb)) = (&a.vertices, &b.vertices) {
        let all = pa.iter().flat_map(|&p| pb.iter().map(move |&q| (p - q).screen())).collect();
        return convex_hull(all);
    }
    sampled_outline(|u| {
        let d = V::lift(u);
        (a.support(d) - b.support(-d)).screen()
    })
}

/// The outline on screen of the cores' Minkowski difference (the margins left out), which is
/// where GJK's support points lie for rounded shapes, counter-clockwise.
pub(crate) fn core_difference_outline<V: Space>(a: &Body<'_, V>, b: &Body<'_, V>) -> Vec<DVec2> {
    let core = |body: &Body<'_, V>, d: V| {
        body.pose.transform_point(body.shape.support(body.pose.inverse_transform_vector(d)))
    };
    sampled_outline(|u| {
        let d = V::lift(u);
        (core(a, d) - core(b, -d)).screen()
    })
}

/// The edges of the convex hull of a 3D point set (for wireframes; empty in 2D or for more than
/// 64 points).
///
/// A pair `p, q` is an edge when at least two different planes through it support the set
/// (all points on one side): an edge joins two faces, while a face diagonal lies in only one
/// supporting plane and an inner segment in none. The candidate planes go through `p`, `q` and
/// a third point. O(n⁴), fine for the few dozen points of a picture.
pub(crate) fn hull_edges<V: Space>(points: &[V]) -> Vec<(V, V)> {
    if V::DIM != 3 || points.len() > 64 {
        return Vec::new();
    }
    let scale = points.iter().map(|p| p.length_squared()).fold(0.0, f64::max).max(1e-300);
    let eps = 1e-9 * scale;
    let cross = |x: V, y: V| {
        let (c, d) = (|i| x.component(i), |i| y.component(i));
        V::from_components([
            c(1) * d(2) - c(2) * d(1),
            c(2) * d(0) - c(0) * d(2),
            c(0) * d(1) - c(1) * d(0),
        ])
    };
    let mut edges = Vec::new();
    for (i, &p) in points.iter().enumerate() {
        for &q in &points[i + 1..] {
            let mut normals: Vec<V> = Vec::new();
            for &r in points {
                let Some(n) = cross(q - p, r - p).direction() else { continue };
                let sides = points.iter().map(|&m| n.dot(m - p));
                let n = if sides.clone().all(|x| x <= eps) {
                    n
                } else if sides.clone().all(|x| x >= -eps) {
                    -n
                } else {
                    continue;
                };
                if normals.iter().all(|&m| (m - n).length() > 1e-9) {
                    normals.push(n);
                }
            }
            if normals.len() >= 2 {
                edges.push((p, q));
            }
        }
    }
    edges
}

/// The outline of a convex set known by its screen support `support(u)`: samples the circle of
/// directions, then halves the angle between neighbours whose support points differ while that
/// reveals a corner that matters on paper (off the chord by more than 1/1000 of the size), and
/// takes the hull. Curves stay at the base sampling; polygons get all their visible corners.
pub(crate) fn sampled_outline(support: impl Fn(DVec2) -> DVec2) -> Vec<DVec2> {
    let angle = |k: f64| {
        let t = k * core::f64::consts::TAU / OUTLINE_DIRECTIONS as f64;
        DVec2::new(t.cos(), t.sin())
    };
    let samples: Vec<DVec2> = (0..=OUTLINE_DIRECTIONS).map(|k| support(angle(k as f64))).collect();
    let mean = samples.iter().copied().sum::<DVec2>() / samples.len() as f64;
    let size = samples.iter().map(|p| (*p - mean).length()).fold(0.0, f64::max);
    let refiner = Refiner { support: &support, angle: &angle, tolerance: 1e-3 * size };
    let mut points = samples.clone();
    for k in 0..OUTLINE_DIRECTIONS {
        let ends = ((k as f64, samples[k]), (k as f64 + 1.0, samples[k + 1]));
        refiner.refine(ends.0, ends.1, REFINE_DEPTH, &mut points);
    }
    convex_hull(points)
}

/// Looks for corners between two directions (given as sample positions) and their support
/// points.
struct Refiner<'f, S, A> {
    support: &'f S,
    angle: &'f A,
    tolerance: f64,
}

impl<S: Fn(DVec2) -> DVec2, A: Fn(f64) -> DVec2> Refiner<'_, S, A> {
    fn refine(
        &self,
        (k0, p0): (f64, DVec2),
        (k1, p1): (f64, DVec2),
        depth: u32,
        out: &mut Vec<DVec2>,
    ) {
        if depth == 0 || p0 == p1 {
            return;
        }
        let km = 0.5 * (k0 + k1);
        let pm = (self.support)((self.angle)(km));
        if pm == p0 {
            // For a polygon the left half all maps to p0: only the right half can hide a corner.
            self.refine((km, pm), (k1, p1), depth - 1, out);
        } else if pm == p1 {
            self.refine((k0, p0), (km, pm), depth - 1, out);
        } else if distance_to_line(pm, p0, p1) > self.tolerance {
            out.push(pm);
            self.refine((k0, p0), (km, pm), depth - 1, out);
            self.refine((km, pm), (k1, p1), depth - 1, out);
        }
    }
}

/// The distance from `p` to the line through `a` and `b` (to `a` when they coincide).
fn distance_to_line(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let t = b - a;
    let len = t.length();
    if len > 0.0 {
        (p - a).perp_dot(t).abs() / len
    } else {
        (p - a).length()
    }
}

/// The convex hull of points in the plane, counter-clockwise, without collinear points
/// (Andrew's monotone chain).
pub(crate) fn convex_hull(mut points: Vec<DVec2>) -> Vec<DVec2> {
    points.retain(|p| p.is_finite());
    points.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let turn = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<DVec2> = Vec::with_capacity(points.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &DVec2>> =
            if pass == 0 { Box::new(points.iter()) } else { Box::new(points.iter().rev()) };
        for &p in ordered {
            while hull.len() >= start + 2
                && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// Directions for sampling a curved shape's surface: a Fibonacci spiral on the sphere, nearly
/// uniform, deterministic.
fn sphere_directions<V: Space>(n: usize) -> impl Iterator<Item = V> {
    let golden = core::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n).map(move |i| {
        let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
        let r = (1.0 - y * y).sqrt();
        let t = golden * i as f64;
        V::from_components([r * t.cos(), y, r * t.sin()])
    })
}

/// Directions sampled for a curved shape's mesh.
const MESH_DIRECTIONS: usize = 320;
/// The most vertex differences a difference mesh takes exactly (else it is sampled).
const MESH_PAIRS: usize = 4096;

/// The triangle mesh of the convex hull of `points` (3D; empty when the hull is not solid or
/// cannot be built).
fn hull_mesh<V: Space>(points: &[V]) -> crate::view::Mesh {
    let Ok(hull) = gjk::Hull::new(points) else { return crate::view::Mesh::default() };
    let vertices =
        hull.vertices().iter().map(|p| [p.component(0), p.component(1), p.component(2)]).collect();
    let mut triangles = Vec::new();
    for face in hull.faces() {
        // Fan over the face's corners (triangles already, or a flat polygon's side).
        for k in 1..face.vertices.len().saturating_sub(1) {
            triangles.push([face.vertices[0], face.vertices[k], face.vertices[k + 1]]);
        }
    }
    crate::view::Mesh { vertices, triangles }
}

/// The mesh of a 3D body: the hull of its vertices, or of its support points (margin
/// included) along many directions.
pub(crate) fn body_mesh<V: Space>(body: &Body<'_, V>) -> crate::view::Mesh {
    match &body.vertices {
        Some(points) => hull_mesh(points),
        None => hull_mesh(
            &sphere_directions::<V>(MESH_DIRECTIONS).map(|d| body.support(d)).collect::<Vec<_>>(),
        ),
    }
}

/// The mesh of the Minkowski difference `A − B` of two 3D bodies: the hull of all vertex
/// differences for small point sets, else of `s_A(d) − s_B(−d)` along many directions.
pub(crate) fn difference_mesh<V: Space>(a: &Body<'_, V>, b: &Body<'_, V>) -> crate::view::Mesh {
    if let (Some(pa), Some(pb)) = (&a.vertices, &b.vertices) {
        if pa.len() * pb.len() <= MESH_PAIRS {
            let all: Vec<V> = pa.iter().flat_map(|&p| pb.iter().map(move |&q| p - q)).collect();
            return hull_mesh(&all);
        }
    }
    let points: Vec<V> =
        sphere_directions::<V>(MESH_DIRECTIONS).map(|d| a.support(d) - b.support(-d)).collect();
    hull_mesh(&points)
}

/// The mesh of the cores' Minkowski difference (the margins left out) of two 3D bodies, where
/// GJK's and EPA's points lie for rounded shapes: sampled like [`difference_mesh`].
pub(crate) fn core_difference_mesh<V: Space>(
    a: &Body<'_, V>,
    b: &Body<'_, V>,
) -> crate::view::Mesh {
    let core = |body: &Body<'_, V>, d: V| {
        body.pose.transform_point(body.shape.support(body.pose.inverse_transform_vector(d)))
    };
    let points: Vec<V> =
        sphere_directions::<V>(MESH_DIRECTIONS).map(|d| core(a, d) - core(b, -d)).collect();
    hull_mesh(&points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gjk::{Ball, Polytope};

    #[test]
    fn hull_of_a_square_with_inner_and_edge_points() {
        let pts = [(0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (2.0, 2.0), (1.0, 1.0), (0.0, 2.0)];
        let hull = convex_hull(pts.iter().map(|&(x, y)| DVec2::new(x, y)).collect());
        assert_eq!(
            hull,
            [DVec2::ZERO, DVec2::new(2.0, 0.0), DVec2::new(2.0, 2.0), DVec2::new(0.0, 2.0)]
        );
    }

    #[test]
    fn sampled_outline_finds_every_corner_of_a_polygon() {
        // A thin sliver with a corner whose normal cone is much narrower than 2π/256.
        let corners = vec![
            DVec2::new(0.0, 0.0),
            DVec2::new(10.0, 0.0),
            DVec2::new(5.0, 0.05),
            DVec2::new(0.5, 0.02),
        ];
        let shape = Polytope::new(corners.clone()).unwrap();
        let body = Body {
            shape: &shape,
            pose: Pose::IDENTITY,
            vertices: None,
            description: String::new(),
        };
        let hull = body.outline();
        assert_eq!(hull, convex_hull(corners));
    }

    #[test]
    fn a_cube_has_twelve_edges_and_a_tetrahedron_six() {
        let cube: Vec<glam::DVec3> = (0..8)
            .map(|i| glam::DVec3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
            .collect();
        let edges = hull_edges(&cube);
        assert_eq!(edges.len(), 12);
        assert!(edges.iter().all(|(p, q)| ((*p - *q).length() - 1.0).abs() < 1e-15));
        let tetra = &cube[..3].iter().copied().chain([glam::DVec3::Z]).collect::<Vec<_>>();
        assert_eq!(hull_edges(tetra).len(), 6);
        // A point inside adds no edge.
        let mut with_inner = cube.clone();
        with_inner.push(glam::DVec3::splat(0.5));
        assert_eq!(hull_edges(&with_inner).len(), 12);
    }

    #[test]
    fn sampled_circle_is_round() {
        let ball = Ball::<DVec2>::new(2.0).unwrap();
        let pose = Pose::from_translation(DVec2::new(1.0, -1.0)).unwrap();
        let body = Body { shape: &ball, pose, vertices: None, description: String::new() };
        let outline = body.outline();
        assert!(outline.len() >= OUTLINE_DIRECTIONS);
        for p in outline {
            assert!(((p - DVec2::new(1.0, -1.0)).length() - 2.0).abs() < 1e-12);
        }
    }
}
