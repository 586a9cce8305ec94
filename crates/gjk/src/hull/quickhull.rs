//! The convex hull of points in space: Quickhull (Barber, Dobkin & Huhdanpaa, ACM TOMS 1996).
//!
//! Start from a tetrahedron of four extreme points; give every other point to the first face it
//! lies above (its *outside set*). Then, while some face has an outside set, take that set's
//! farthest point (the *eye*), find the faces it sees (a connected patch found by a walk over
//! face adjacency), replace the patch by the cone of triangles from the eye to the patch's
//! boundary (the *horizon*), and hand the patch's outside points to the new faces; points above
//! none of them are inside the hull for good.
//!
//! Robustness. Faces are *thick*: a point lies above a face only when it is farther than the
//! tolerance from the face's plane, so points on or near a face (coplanar grids, duplicates,
//! jitter) are dropped with the interior. They are not all gone: a point that became a vertex
//! before the points around it were processed stays a vertex when those points' cones meet it
//! only with faces coplanar with it (not seen, being thick), so the final hull can keep points on
//! its edges and faces as vertices; the caller removes them afterwards (`prune`, `extreme_only`
//! in the parent module). Rounding can still make the visible patch something other than
//! a disk (its horizon is then not one simple cycle); the construction detects this and reports
//! failure, and the caller retries with a larger tolerance. Every loop is bounded: each round
//! makes one point a vertex and removes it from every outside set.

use alloc::vec::Vec;

use glam::DVec3;

/// How deep a dent between neighbouring faces may be, in units of the tolerance.
const CONVEXITY_SLACK: f64 = 4.0;

/// "No face" in adjacency and "not yet set" in scratch arrays.
const NONE: u32 = u32::MAX;

/// A triangle of the hull under construction.
struct Face {
    /// Corners, counter-clockwise seen from outside.
    corners: [u32; 3],
    /// `neighbours[i]` shares the edge `corners[i] → corners[(i + 1) % 3]`.
    neighbours: [u32; 3],
    /// Outward unit normal.
    normal: DVec3,
    /// `normal · x = offset` on the face's plane.
    offset: f64,
    /// Points above this face, waiting, with their coordinates: handing them on reads this
    /// list in order instead of gathering from the whole cloud (a cache miss per point on
    /// large inputs).
    outside: Vec<(u32, DVec3)>,
    /// The farthest point of `outside` and its distance.
    farthest: (u32, f64),
    /// Still part of the hull.
    alive: bool,
    /// The round in which this face was last examined and whether it was visible then.
    seen: (u32, bool),
}

impl Face {
    fn distance(&self, p: DVec3) -> f64 {
        self.normal.dot(p) - self.offset
    }
}

/// A hull in the making: the points (centred) and the faces, dead and alive.
struct Builder<'a> {
    points: &'a [DVec3],
    tolerance: f64,
    faces: Vec<Face>,
    /// Per point: the horizon edge that starts there in the current round (`horizon_round`).
    horizon_next: Vec<u32>,
    horizon_round: Vec<u32>,
    /// Emptied outside lists of retired faces, reused by new faces (fewer allocations).
    spare: Vec<Vec<(u32, DVec3)>>,
    /// Scratch for [`Builder::horizon`]'s unordered edges, kept across rounds.
    horizon_edges: Vec<(u32, u32, u32)>,
}

/// Why a construction attempt gave up (the caller retries with a larger tolerance).
#[derive(Debug)]
pub(super) struct Degenerate;

/// The outward-oriented triangles of the hull of `points`, built from the non-degenerate
/// tetrahedron `start`; `Err` when rounding broke the surface's topology.
pub(super) fn quickhull(
    points: &[DVec3],
    start: [u32; 4],
    tolerance: f64,
) -> Result<Vec<[u32; 3]>, Degenerate> {
    let mut builder = Builder {
        points,
        tolerance,
        faces: Vec::new(),
        horizon_next: alloc::vec![NONE; points.len()],
        horizon_round: alloc::vec![NONE; points.len()],
        spare: Vec::new(),
        horizon_edges: Vec::new(),
    };
    builder.tetrahedron(start)?;
    builder.assign_initial(start);
    builder.run()?;
    let triangles = builder.triangles()?;
    // The start's points are extreme (the two ends of the widest axis, the points farthest
    // from their line and from the plane of three): exactly, no eye lies beyond every face
    // around one of them, so none leaves the hull. On a sliver (f32-rounded collinear points,
    // 6e-8 off their line) a face's plane is only good to `ε × length² / width`, far above
    // the tolerance, and an eye in the middle "saw" every face around an end: the end was
    // dropped and the hull came out 0.28 short along its axis
    // (`f32_nearly_collinear_hull_keeps_both_ends`). That is rounding defeating the
    // construction: the caller retries with a larger tolerance.
    if start.iter().any(|s| !triangles.iter().any(|t| t.contains(s))) {
        return Err(Degenerate);
    }
    Ok(triangles)
}

impl Builder<'_> {
    fn at(&self, i: u32) -> DVec3 {
        self.points[i as usize]
    }

    /// A face through three points, with an outward unit normal (`Err` if they are collinear).
    fn new_face(&self, corners: [u32; 3]) -> Result<Face, Degenerate> {
        let [a, b, c] = corners.map(|i| self.at(i));
        // The cross product of the two edges at the corner opposite the longest edge is the
        // most accurate of the three.
        let (ab, bc, ca) = (b - a, c - b, a - c);
        let (lab, lbc, lca) = (ab.length_squared(), bc.length_squared(), ca.length_squared());
        let n = if lab >= lbc && lab >= lca {
            ca.cross(-bc) // corner c
        } else if lbc >= lca {
            ab.cross(-ca) // corner a
        } else {
            bc.cross(-ab) // corner b
        };
        let normal = n.try_normalize().ok_or(Degenerate)?;
        let offset = (normal.dot(a) + normal.dot(b) + normal.dot(c)) / 3.0;
        Ok(Face {
            corners,
            neighbours: [NONE; 3],
            normal,
            offset,
            outside: Vec::new(),
            farthest: (NONE, 0.0),
            alive: true,
            seen: (NONE, false),
        })
    }

    /// The four faces of the starting tetrahedron, oriented outward and linked.
    fn tetrahedron(&mut self, [p0, p1, p2, p3]: [u32; 4]) -> Result<(), Degenerate> {
        let volume = (self.at(p1) - self.at(p0))
            .cross(self.at(p2) - self.at(p0))
            .dot(self.at(p3) - self.at(p0));
        // With positive volume, p3 is on the side the normal of (p0, p1, p2) points to, so that
        // triangle is reversed to face away from it; the other three follow.
        let (p1, p2) = if volume > 0.0 { (p2, p1) } else { (p1, p2) };
        let triangles = [[p0, p1, p2], [p0, p3, p1], [p1, p3, p2], [p2, p3, p0]];
        for corners in triangles {
            let face = self.new_face(corners)?;
            self.faces.push(face);
        }
        // Link by matching each edge a → b with the reversed edge b → a of another face.
        for f in 0..4 {
            for i in 0..3 {
                let (a, b) = (self.faces[f].corners[i], self.faces[f].corners[(i + 1) % 3]);
                let g = (0..4)
                    .find(|&g| g != f && self.edge_index(g as u32, b, a).is_some())
                    .ok_or(Degenerate)?;
                self.faces[f].neighbours[i] = g as u32;
            }
        }
        Ok(())
    }

    /// The index `i` of the edge `a → b` in face `f`, if it has one.
    fn edge_index(&self, f: u32, a: u32, b: u32) -> Option<usize> {
        let c = &self.faces[f as usize].corners;
        (0..3).find(|&i| c[i] == a && c[(i + 1) % 3] == b)
    }

    /// Gives every point to the first face it lies above.
    fn assign_initial(&mut self, start: [u32; 4]) {
        let faces: Vec<u32> = (0..self.faces.len() as u32).collect();
        let points = self.points;
        for (p, &x) in (0..points.len() as u32).zip(points) {
            if !start.contains(&p) {
                self.assign(p, x, &faces);
            }
        }
    }

    /// Puts point `p` in the outside set of the first face of `candidates` it lies above
    /// (farther than the tolerance); otherwise it is inside and forgotten.
    fn assign(&mut self, p: u32, x: DVec3, candidates: &[u32]) {
        for &f in candidates {
            let face = &mut self.faces[f as usize];
            let d = face.distance(x);
            if d > self.tolerance {
                if face.outside.is_empty() || d > face.farthest.1 {
                    face.farthest = (p, d);
                }
                face.outside.push((p, x));
                return;
            }
        }
    }

    /// The main loop: one eye point per round until no face has an outside set.
    fn run(&mut self) -> Result<(), Degenerate> {
        let mut pending: Vec<u32> = (0..self.faces.len() as u32).collect();
        let mut visible = Vec::new();
        let mut horizon = Vec::new();
        let mut cone = Vec::new();
        let mut round = 0u32;
        // Each round turns one outside point into a vertex: at most `points.len()` rounds.
        while let Some(f) = pending.pop() {
            let face = &self.faces[f as usize];
            if !face.alive || face.outside.is_empty() {
                continue;
            }
            if round as usize > self.points.len() {
                return Err(Degenerate);
            }
            round += 1;
            let eye = face.farthest.0;
            self.visible_patch(f, eye, round, &mut visible);
            self.horizon(&visible, round, &mut horizon)?;
            self.build_cone(eye, &horizon, &mut cone)?;
            self.reassign(eye, &visible, &cone);
            pending.extend(
                cone.iter().copied().filter(|&g| !self.faces[g as usize].outside.is_empty()),
            );
        }
        Ok(())
    }

    /// The faces `eye` lies above, found by a walk over adjacency from `start` (which it does).
    fn visible_patch(&mut self, start: u32, eye: u32, round: u32, visible: &mut Vec<u32>) {
        let x = self.at(eye);
        visible.clear();
        self.faces[start as usize].seen = (round, true);
        visible.push(start);
        let mut k = 0;
        while k < visible.len() {
            let f = visible[k] as usize;
            k += 1;
            for i in 0..3 {
                let g = self.faces[f].neighbours[i] as usize;
                if self.faces[g].seen.0 == round {
                    continue;
                }
                let sees = self.faces[g].distance(x) > self.tolerance;
                self.faces[g].seen = (round, sees);
                if sees {
                    visible.push(g as u32);
                }
            }
        }
    }

    fn is_visible(&self, f: u32, round: u32) -> bool {
        self.faces[f as usize].seen == (round, true)
    }

    /// The boundary of the visible patch as one cycle of edges `(a, b, face beyond)`, each
    /// oriented as in its visible face; `Err` unless the edges form one simple cycle (the patch
    /// is a disk).
    fn horizon(
        &mut self,
        visible: &[u32],
        round: u32,
        horizon: &mut Vec<(u32, u32, u32)>,
    ) -> Result<(), Degenerate> {
        let mut edges = core::mem::take(&mut self.horizon_edges);
        edges.clear();
        for &f in visible {
            let face = &self.faces[f as usize];
            for i in 0..3 {
                let g = face.neighbours[i];
                if !self.is_visible(g, round) {
                    edges.push((face.corners[i], face.corners[(i + 1) % 3], g));
                }
            }
        }
        // Chain the edges: each vertex may start exactly one of them.
        for (k, &(a, _, _)) in edges.iter().enumerate() {
            let a = a as usize;
            if self.horizon_round[a] == round {
                return Err(Degenerate);
            }
            self.horizon_round[a] = round;
            self.horizon_next[a] = k as u32;
        }
        horizon.clear();
        let mut k = 0usize;
        for _ in 0..edges.len() {
            let edge = *edges.get(k).ok_or(Degenerate)?;
            horizon.push(edge);
            let b = edge.1 as usize;
            if self.horizon_round[b] != round {
                return Err(Degenerate);
            }
            k = self.horizon_next[b] as usize;
            if k == 0 {
                break;
            }
        }
        if horizon.len() != edges.len() || k != 0 || horizon.len() < 3 {
            return Err(Degenerate);
        }
        self.horizon_edges = edges;
        Ok(())
    }

    /// Replaces the visible patch by triangles `(a, b, eye)` on the horizon edges, linked to
    /// each other around the eye and to the faces beyond the horizon.
    fn build_cone(
        &mut self,
        eye: u32,
        horizon: &[(u32, u32, u32)],
        cone: &mut Vec<u32>,
    ) -> Result<(), Degenerate> {
        cone.clear();
        let first = self.faces.len() as u32;
        let n = horizon.len() as u32;
        for (k, &(a, b, beyond)) in horizon.iter().enumerate() {
            let mut face = self.new_face([a, b, eye])?;
            face.outside = self.spare.pop().unwrap_or_default();
            let k = k as u32;
            face.neighbours = [beyond, first + (k + 1) % n, first + (k + n - 1) % n];
            let me = self.faces.len() as u32;
            let i = self.edge_index(beyond, b, a).ok_or(Degenerate)?;
            self.faces[beyond as usize].neighbours[i] = me;
            self.faces.push(face);
            cone.push(me);
        }
        Ok(())
    }

    /// Retires the visible faces and gives their outside points to the new faces.
    fn reassign(&mut self, eye: u32, visible: &[u32], cone: &[u32]) {
        for &f in visible {
            let face = &mut self.faces[f as usize];
            face.alive = false;
            let mut outside = core::mem::take(&mut face.outside);
            for &(p, x) in &outside {
                if p != eye {
                    self.assign(p, x, cone);
                }
            }
            outside.clear();
            self.spare.push(outside);
        }
    }

    /// The living faces; `Err` if the surface is not a sphere (V − E + F ≠ 2) or not locally
    /// convex (see [`Builder::is_locally_convex`]).
    fn triangles(&self) -> Result<Vec<[u32; 3]>, Degenerate> {
        if !self.is_locally_convex() {
            return Err(Degenerate);
        }
        let triangles: Vec<[u32; 3]> =
            self.faces.iter().filter(|f| f.alive).map(|f| f.corners).collect();
        let mut vertices: Vec<u32> = triangles.iter().flatten().copied().collect();
        vertices.sort_unstable();
        vertices.dedup();
        let (v, f) = (vertices.len() as i64, triangles.len() as i64);
        // Each edge borders two triangles: E = 3F / 2.
        if f % 2 != 0 || v - 3 * f / 2 + f != 2 {
            return Err(Degenerate);
        }
        Ok(triangles)
    }

    /// Whether every edge is convex within the slack: the far corner of each face's neighbour
    /// lies no more than `CONVEXITY_SLACK × tolerance` above the face's plane. Thick faces allow
    /// dents of about the tolerance; a face that rounding turned inside out shows up as a deep
    /// dent. A closed surface that is locally convex everywhere is convex, so hill climbing on it
    /// finds the maximum.
    fn is_locally_convex(&self) -> bool {
        let slack = CONVEXITY_SLACK * self.tolerance;
        self.faces.iter().filter(|f| f.alive).all(|face| {
            face.neighbours.iter().all(|&g| {
                let far = self.faces[g as usize].corners.iter().find(|c| !face.corners.contains(c));
                far.is_none_or(|&c| face.distance(self.at(c)) <= slack)
            })
        })
    }
}
