//! Penetration depth where the exact answer is known, and how far each library is from it.
//!
//! Exact depths and normals (all `f64`, independent of both libraries), the normal pointing
//! from A toward B (moving B by `depth × normal` makes the shapes touch):
//! * **box–box** (aligned or not): the separating-axis test over the 15 candidate axes — the 3
//!   face normals of each box and the 9 cross products of their edges. Those include every
//!   face normal of the Minkowski difference `D = A − B`, and along any unit `n` the overlap
//!   `h_A(n) + h_B(−n) − |n·Δ|` is at least the depth, so the smallest overlap *is* the depth
//!   (the distance from the origin to `∂D`) and its axis, turned toward B, the normal. For
//!   axis-aligned boxes this is `min over axes of (h_A + h_B − |Δ|)`;
//! * **ball–box**: the ball's centre `c` in the box's frame; outside the box,
//!   `r − |c − q|` with `q` the clamp of `c` to the box, normal `(q − c)/|q − c|`; inside,
//!   `r + (distance to the nearest face)`, normal minus that face's outward normal;
//! * **capsule–capsule**: a capsule is its core segment swept by a ball, so the Minkowski
//!   difference is the difference of the segments swept by a ball of radius `r₁ + r₂`; the
//!   distance from the origin to its boundary is `r₁ + r₂ − d` with `d` the distance between
//!   the segments (the distance to a convex set is 1-Lipschitz, and moving along the closest
//!   points' direction attains it). Normal: from A's closest core point to B's. When the
//!   segments cross (`d = 0`, measure zero here) the depth is still `r₁ + r₂` but the normal is
//!   not unique, so it is not scored;
//! * **hull–hull**: the separating-axis test of box–box, over the face normals of both hulls
//!   and the cross products of their edges (every face normal of the Minkowski difference is
//!   one of those), taking the hulls' faces and edges from parry-f64's `ConvexPolyhedron`, so
//!   the oracle shares no code with our hulls or our EPA.

use glam::{DQuat, DVec3, Vec3};

use crate::cases::{ContactQuery, Depth};
use crate::check::{segment_closest_points, world_point};
use crate::spec::{BallSpec, BuildError, CapsuleSpec, CuboidSpec, HullSpec3, Placement3, Spec3};
use crate::workload::{self, Case, Workload};
use crate::ParryGjk;

/// A depth error that is a wrong answer rather than round-off or a tolerance (the shapes are
/// 0.5–2 units in size).
pub const OFF: f64 = 1e-3;

/// How far one library's contacts are from the exact ones on one workload, in one precision.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthErrors {
    /// The workload.
    pub workload: &'static str,
    /// The implementation: `gjk`, `parry` (its public `query::contact`) or `parry GJK/EPA`
    /// (parry's GJK/EPA called directly, where the dispatcher does something else).
    pub library: &'static str,
    /// `f32` or `f64`.
    pub precision: &'static str,
    /// Pairs that penetrate (exact depth `> 0`): the pairs scored.
    pub penetrating: usize,
    /// Pairs where the library's verdict (penetrating or not) differs from the exact one.
    pub disagreements: usize,
    /// The largest absolute depth error (a pair the library calls apart counts as depth 0).
    pub max_error: f64,
    /// The mean absolute depth error over the penetrating pairs.
    pub mean_error: f64,
    /// Penetrating pairs whose depth is off by more than [`OFF`].
    pub off: usize,
    /// The largest angle (radians) between the library's normal and the exact one, over the
    /// penetrating pairs it reports and whose exact normal is unique.
    pub max_angle: f64,
}

/// The angle between two unit vectors, accurate near 0 (`atan2(|a × b|, a · b)`).
pub fn angle(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (a, b) = (DVec3::from_array(a), DVec3::from_array(b));
    a.cross(b).length().atan2(a.dot(b))
}

fn rotation(p: &Placement3) -> DQuat {
    let [x, y, z, w] = p.rotation;
    DQuat::from_xyzw(x, y, z, w).normalize()
}

/// The exact penetration of two placed boxes by the 15-axis separating-axis test, or `None`
/// when an axis separates them (see the module documentation).
pub fn box_box_depth(c: &Case<CuboidSpec, CuboidSpec, Placement3>) -> Option<Depth> {
    let frame = |p: &Placement3| DVec3::AXES.map(|axis| rotation(p) * axis);
    let (axes_a, axes_b) = (frame(&c.pose_a), frame(&c.pose_b));
    let delta = DVec3::from_array(c.pose_b.translation) - DVec3::from_array(c.pose_a.translation);
    let reach = |axes: &[DVec3; 3], h: &[f64; 3], n: DVec3| -> f64 {
        (0..3).map(|i| h[i] * axes[i].dot(n).abs()).sum()
    };
    let edges = axes_a.iter().flat_map(|a| axes_b.iter().map(move |b| a.cross(*b)));
    let candidates = axes_a.into_iter().chain(axes_b).chain(edges.filter_map(|n| {
        let length = n.length();
        (length > 1e-9).then(|| n / length)
    }));
    let mut best: Option<Depth> = None;
    for n in candidates {
        let along = n.dot(delta);
        let overlap = reach(&axes_a, &c.a.half_extents, n) + reach(&axes_b, &c.b.half_extents, n)
            - along.abs();
        if overlap <= 0.0 {
            return None;
        }
        if best.is_none_or(|b| overlap < b.depth) {
            let normal = if along < 0.0 { -n } else { n };
            best = Some(Depth { depth: overlap, normal: normal.to_array() });
        }
    }
    best
}

/// The exact penetration of a ball (A) and a box (B), or `None` when they are apart.
pub fn ball_box_depth(c: &Case<BallSpec, CuboidSpec, Placement3>) -> Option<Depth> {
    let box_rotation = rotation(&c.pose_b);
    let centre = DVec3::from_array(c.pose_a.translation) - DVec3::from_array(c.pose_b.translation);
    let local = box_rotation.inverse() * centre;
    let h = DVec3::from_array(c.b.half_extents);
    let clamped = local.clamp(-h, h);
    let r = c.a.radius;
    if clamped != local {
        let gap = (clamped - local).length();
        let normal = box_rotation * ((clamped - local) / gap);
        return (gap < r).then(|| Depth { depth: r - gap, normal: normal.to_array() });
    }
    let slack = h - local.abs();
    let axis = (0..3).fold(0, |best, i| if slack[i] < slack[best] { i } else { best });
    let face = DVec3::AXES[axis] * local[axis].signum();
    Some(Depth { depth: r + slack[axis], normal: (box_rotation * -face).to_array() })
}

/// The exact penetration of two capsules, or `None` when they are apart. The normal is all
/// zero when the core segments cross (not unique).
pub fn capsule_capsule_depth(c: &Case<CapsuleSpec, CapsuleSpec, Placement3>) -> Option<Depth> {
    let ends = |h: f64, p: &Placement3| {
        (world_point(p, DVec3::new(0.0, -h, 0.0)), world_point(p, DVec3::new(0.0, h, 0.0)))
    };
    let (p0, p1) = ends(c.a.half_height, &c.pose_a);
    let (q0, q1) = ends(c.b.half_height, &c.pose_b);
    let (p, q) = segment_closest_points(p0, p1, q0, q1);
    let gap = (q - p).length();
    let depth = c.a.radius + c.b.radius - gap;
    let normal = if gap > 1e-12 { (q - p) / gap } else { DVec3::ZERO };
    (depth > 0.0).then(|| Depth { depth, normal: normal.to_array() })
}

/// The exact penetration of two placed convex hulls, or `None` when an axis separates them
/// (see the module documentation).
pub fn hull_hull_depth(
    c: &Case<HullSpec3, HullSpec3, Placement3>,
) -> Result<Option<Depth>, BuildError> {
    let posed = |spec: &HullSpec3, p: &Placement3| -> Result<_, BuildError> {
        let hull = spec.parry_f64()?;
        let points: Vec<DVec3> = hull.points().iter().map(|&v| world_point(p, v)).collect();
        let normals: Vec<DVec3> = hull.faces().iter().map(|f| rotation(p) * f.normal).collect();
        let edges: Vec<DVec3> = hull
            .edges()
            .iter()
            .map(|e| points[e.vertices[1] as usize] - points[e.vertices[0] as usize])
            .collect();
        Ok((points, normals, edges))
    };
    let (points_a, normals_a, edges_a) = posed(&c.a, &c.pose_a)?;
    let (points_b, normals_b, edges_b) = posed(&c.b, &c.pose_b)?;
    let crosses = edges_a.iter().flat_map(|a| edges_b.iter().map(move |b| (a.cross(*b), a, b)));
    let axes =
        normals_a.iter().chain(&normals_b).copied().chain(crosses.filter_map(|(n, a, b)| {
            let length = n.length();
            (length > 1e-9 * a.length() * b.length()).then(|| n / length)
        }));
    let range = |points: &[DVec3], n: DVec3| {
        points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let x = p.dot(n);
            (lo.min(x), hi.max(x))
        })
    };
    let mut best: Option<Depth> = None;
    for n in axes {
        let ((a_lo, a_hi), (b_lo, b_hi)) = (range(&points_a, n), range(&points_b, n));
        // Moving B by `d` along `n` (or `−n`) separates the hulls.
        for (d, normal) in [(a_hi - b_lo, n), (b_hi - a_lo, -n)] {
            if d <= 0.0 {
                return Ok(None);
            }
            if best.is_none_or(|b| d < b.depth) {
                best = Some(Depth { depth: d, normal: normal.to_array() });
            }
        }
    }
    Ok(best)
}

/// Scores one implementation's contacts against the exact ones.
fn score<Q: ContactQuery>(
    labels: (&'static str, &'static str, &'static str),
    cases: &[Q],
    exact: &[Option<Depth>],
) -> DepthErrors {
    score_answers(labels, cases.iter().map(ContactQuery::contact), exact)
}

/// Scores contacts already computed (`found`, pair by pair, `None` for no contact) against the
/// exact ones: how the peers outside Rust (libccd, coal) are scored.
pub fn score_answers(
    (workload, library, precision): (&'static str, &'static str, &'static str),
    found: impl IntoIterator<Item = Option<Depth>>,
    exact: &[Option<Depth>],
) -> DepthErrors {
    let mut e = DepthErrors {
        workload,
        library,
        precision,
        penetrating: 0,
        disagreements: 0,
        max_error: 0.0,
        mean_error: 0.0,
        off: 0,
        max_angle: 0.0,
    };
    for (found, exact) in found.into_iter().zip(exact) {
        let found = found.filter(|c| c.depth > 0.0);
        if found.is_some() != exact.is_some() {
            e.disagreements += 1;
        }
        let Some(exact) = exact else { continue };
        e.penetrating += 1;
        let error = (found.map_or(0.0, |c| c.depth) - exact.depth).abs();
        e.max_error = e.max_error.max(error);
        e.mean_error += error;
        e.off += usize::from(error > OFF);
        if let Some(c) = found.filter(|_| exact.normal != [0.0; 3]) {
            e.max_angle = e.max_angle.max(angle(c.normal, exact.normal));
        }
    }
    e.mean_error /= e.penetrating.max(1) as f64;
    e
}

/// Scores ours and parry's (and parry's GJK/EPA if `direct`) in both precisions.
fn score_all<A: Spec3, B: Spec3>(
    w: &Workload<A, B, Placement3>,
    exact: &[Option<Depth>],
    direct: bool,
) -> Result<Vec<DepthErrors>, BuildError> {
    let (p32, p64) = (w.parry()?, w.parry_f64()?);
    let mut rows = vec![
        score((w.name, "gjk", "f32"), &w.ours::<Vec3>()?, exact),
        score((w.name, "parry", "f32"), &p32, exact),
        score((w.name, "gjk", "f64"), &w.ours::<DVec3>()?, exact),
        score((w.name, "parry", "f64"), &p64, exact),
    ];
    if direct {
        let gjk32: Vec<_> = p32.iter().map(ParryGjk).collect();
        let gjk64: Vec<_> = p64.iter().map(ParryGjk).collect();
        rows.insert(2, score((w.name, "parry GJK/EPA", "f32"), &gjk32, exact));
        rows.push(score((w.name, "parry GJK/EPA", "f64"), &gjk64, exact));
    }
    Ok(rows)
}

/// The depth-accuracy table: axis-aligned box–box ([`workload::box_box_aligned`]), and the
/// standard box–box, sphere–box and capsule–capsule workloads (their penetrating pairs).
pub fn all() -> Result<Vec<DepthErrors>, BuildError> {
    let aligned = workload::box_box_aligned();
    let boxes = workload::box_box();
    let balls = workload::sphere_box();
    let capsules = workload::capsule_capsule();
    let aligned_exact: Vec<_> = aligned.cases.iter().map(box_box_depth).collect();
    let box_exact: Vec<_> = boxes.cases.iter().map(box_box_depth).collect();
    let ball_exact: Vec<_> = balls.cases.iter().map(ball_box_depth).collect();
    let capsule_exact: Vec<_> = capsules.cases.iter().map(capsule_capsule_depth).collect();
    let mut rows = score_all(&aligned, &aligned_exact, false)?;
    rows.extend(score_all(&boxes, &box_exact, false)?);
    rows.extend(score_all(&balls, &ball_exact, true)?);
    rows.extend(score_all(&capsules, &capsule_exact, false)?);
    Ok(rows)
}
