//! Closed-form ray casts against the cores of the dispatch table's ray-cast column
//! ([`crate::dispatch`]), in the shape's local frame (balls and capsules: in world coordinates,
//! placed by [`in_world`]).
//!
//! Every kernel takes the ray `o + t·d` (`d` not zero, not necessarily unit: `t` is in units of
//! `d`, as the caller's time of impact), the largest `t` to look at, `limit`, and the
//! touching distance `δ`, and answers: [`RayAnswer::Inside`] when `o` is in the shape or
//! within `δ` of it (the GJK ray cast's initial overlap), [`RayAnswer::Hit`] with the first
//! `t ∈ [0, limit]` on the surface and the outward unit normal there, or [`RayAnswer::Miss`]. `None` declines: the caller runs the GJK
//! ray cast instead (a flat triangle met edge-on, numbers that overflow).
//!
//! The kernels rest on one fact: a convex set meets a line in an interval, so a shape written
//! as an intersection of simple convex sets (slabs, half-spaces, a ball, an infinite cylinder
//! or cone) meets the ray in the intersection of their intervals, entered where the last of
//! them is entered; and a union of convex pieces (a capsule: a cylinder and two balls) is
//! entered where the first piece is.
//!
//! Precision: the quadratics are solved from the point of closest approach, not from the
//! textbook `b² − 4ac`: with `m` the origin relative to the centre and `e` the direction (in
//! the quadratic's subspace), `τ* = −m·e / e·e` and `q = m + τ* e`, the roots are
//! `τ* ± √((r² − |q|²) / e·e)`. `|q|` is the ray's distance from the centre, computed directly
//! (its rounding is that of the coordinates), where `b² − 4ac` subtracts two squares of the
//! origin's distance, and cancels, for a ray that starts far away.

use crate::dispatch::RayKernel;
use crate::geometry::{cross, unit};
use crate::math::{Pose, Real, Vector};
use crate::shape::{CorePolygon, CorePolytope};

/// What a closed-form ray cast found (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum RayAnswer<V: Vector> {
    /// The origin is inside the shape or within the touching distance of it.
    Inside,
    /// The first hit: at `o + t·d`, with the outward unit normal there.
    Hit { t: V::Real, normal: V },
    /// No hit within the limit.
    Miss,
}

/// The ray in the kernel's frame: origin, direction, limit, touching distance and `dir · dir`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LocalRay<V: Vector> {
    /// The origin.
    pub(crate) origin: V,
    /// The direction (not zero; need not be unit, but of a length whose square neither
    /// overflows nor underflows).
    pub(crate) dir: V,
    /// The largest parameter `t` (in units of `dir`) that counts.
    pub(crate) limit: V::Real,
    /// The touching distance `δ` (a length).
    pub(crate) touch: V::Real,
    /// `dir · dir`, which the caller has computed already.
    pub(crate) dd: V::Real,
}

impl<V: Vector> LocalRay<V> {
    /// The unit vector against the direction: the normal of a hit where the shape has no
    /// better one (a bare point, an edge-on start).
    #[inline]
    fn back(&self) -> V {
        unit_or(-self.dir, || -V::axis(0))
    }
}

/// The kernel in world coordinates, and `true`, when its shape is a ball or capsule: their
/// kernels do not care about the frame's axes, and placing a centre or two ends costs fewer
/// rotations than taking the ray in and the normal out. Otherwise the kernel as it is, and
/// `false`: the ray goes into the shape's frame.
#[inline(always)]
pub(crate) fn in_world<'a, V: Vector>(
    kernel: RayKernel<'a, V>,
    pose: &Pose<V>,
) -> (RayKernel<'a, V>, bool) {
    match kernel {
        // The centre is usually the origin (a `Ball`'s, known at compile time): no rotation.
        RayKernel::Ball { center, radius } => {
            let center =
                if center == V::ZERO { pose.translation() } else { pose.transform_point(center) };
            (RayKernel::Ball { center, radius }, true)
        }
        // By centre and half axis: one rotation for a capsule built about its centre.
        RayKernel::Capsule { ends: [a, b], radius } => {
            let (center, half) = ((a + b) * V::Real::HALF, (b - a) * V::Real::HALF);
            let center =
                if center == V::ZERO { pose.translation() } else { pose.transform_point(center) };
            let half = pose.transform_vector(half);
            (RayKernel::PlacedCapsule { center, half, radius }, true)
        }
        kernel => (kernel, false),
    }
}

/// The closed-form ray cast of `kernel` (never [`RayKernel::Gjk`]: that gives `None`).
///
/// Always inlined: for a shape whose core is known at compile time (a `Cuboid`'s is a box)
/// the match folds to the one kernel.
#[inline(always)]
pub(crate) fn cast<V: Vector>(
    kernel: &RayKernel<'_, V>,
    ray: &LocalRay<V>,
) -> Option<RayAnswer<V>> {
    // Balls, capsules and plain boxes make their normals themselves (unit vectors of finite
    // vectors, or axes): only the time can overflow.
    let answer = match *kernel {
        RayKernel::Ball { center, radius } => return finite_time(ball(center, radius, ray)),
        RayKernel::Capsule { ends, radius } => {
            return finite_time(capsule_ends(ends, radius, ray));
        }
        RayKernel::PlacedCapsule { center, half, radius } => {
            return finite_time(capsule(center, half, radius, ray));
        }
        RayKernel::Box { half_extents, radius } if radius > V::Real::ZERO => {
            rounded_box(half_extents, radius, ray)
        }
        RayKernel::Box { half_extents, .. } => return finite_time(cuboid(half_extents, ray)),
        RayKernel::Polygon(p) => polygon(&p, ray),
        RayKernel::RoundedPolygon(p, radius) => rounded_polygon(&p, radius, ray),
        RayKernel::Polytope(p) => polytope(&p, ray),
        RayKernel::Triangle(corners) if V::DIM == 2 => triangle_2d(corners, ray)?,
        RayKernel::Triangle(corners) => triangle_3d(corners, ray)?,
        RayKernel::RoundedTriangle(corners, radius) => rounded_triangle_2d(corners, radius, ray),
        RayKernel::Ellipsoid(radii) => ellipsoid(radii, ray),
        RayKernel::Cylinder { half_height, radius } => cylinder(half_height, radius, ray),
        RayKernel::Cone { half_height, radius } => cone(half_height, radius, ray),
        RayKernel::Gjk => return None,
    };
    finite(answer)
}

/// The answer, or `None` when rounding or overflow made it meaningless.
#[inline]
fn finite<V: Vector>(answer: RayAnswer<V>) -> Option<RayAnswer<V>> {
    match answer {
        RayAnswer::Hit { t, normal } if !t.is_finite() || !normal.is_finite() => None,
        answer => Some(answer),
    }
}

/// The answer, or `None` when its time overflowed (for kernels whose normals are finite by
/// construction).
#[inline(always)]
fn finite_time<V: Vector>(answer: RayAnswer<V>) -> Option<RayAnswer<V>> {
    match answer {
        RayAnswer::Hit { t, .. } if !t.is_finite() => None,
        answer => Some(answer),
    }
}

/// The hit at `t` (the first point at or after the origin), if within the limit.
#[inline]
fn hit_at<V: Vector>(t: V::Real, normal: V, ray: &LocalRay<V>) -> RayAnswer<V> {
    let t = t.max(V::Real::ZERO);
    if t <= ray.limit {
        RayAnswer::Hit { t, normal }
    } else {
        RayAnswer::Miss
    }
}

/// The interval of `t` where `|m + t·e| ≤ r` (by the closest approach: see the module docs),
/// or `None`. With `e = 0` the whole line, if `|m| ≤ r`.
#[inline]
fn ball_interval<V: Vector>(m: V, e: V, r: V::Real) -> Option<(V::Real, V::Real)> {
    ball_interval_with(m, e, e.length_squared(), r)
}

/// [`ball_interval`] with `e·e` known (the ray's direction: [`LocalRay::dd`]).
#[inline(always)]
fn ball_interval_with<V: Vector>(
    m: V,
    e: V,
    ee: V::Real,
    r: V::Real,
) -> Option<(V::Real, V::Real)> {
    if !ee.is_positive() {
        return (m.length_squared() <= r * r).then_some((-V::Real::INFINITY, V::Real::INFINITY));
    }
    let closest = -m.dot(e) / ee;
    let across = (m + e * closest).length_squared();
    let chord = r * r - across;
    if chord < V::Real::ZERO {
        return None;
    }
    let half = (chord / ee).sqrt();
    Some((closest - half, closest + half))
}

/// The unit vector along `v`, or `fallback()` when `v` has no direction. (The fallback is
/// lazy: it usually normalises the ray's direction, which a hit rarely needs.)
#[inline(always)]
fn unit_or<V: Vector>(v: V, fallback: impl FnOnce() -> V) -> V {
    unit(v).unwrap_or_else(fallback)
}

/// A ball of `radius` about `center`; a bare point (`radius` 0) is a ball of the touching
/// distance, so that rays passing within it hit, as in the GJK ray cast.
#[inline(always)]
fn ball<V: Vector>(center: V, radius: V::Real, ray: &LocalRay<V>) -> RayAnswer<V> {
    let r = radius.max(ray.touch);
    let m = ray.origin - center;
    let reach = r + ray.touch;
    if m.length_squared() <= reach * reach {
        return RayAnswer::Inside;
    }
    match ball_interval_with(m, ray.dir, ray.dd, r) {
        // A bare point has every direction as a normal: the one facing the ray.
        Some((enter, exit)) if exit >= V::Real::ZERO && radius == V::Real::ZERO => {
            hit_at(enter, ray.back(), ray)
        }
        Some((enter, exit)) if exit >= V::Real::ZERO => {
            let at = enter.max(V::Real::ZERO);
            hit_at(enter, unit_or(m + ray.dir * at, || ray.back()), ray)
        }
        _ => RayAnswer::Miss,
    }
}

/// A capsule given by its ends (see [`capsule`]).
#[inline(always)]
fn capsule_ends<V: Vector>([a, b]: [V; 2], radius: V::Real, ray: &LocalRay<V>) -> RayAnswer<V> {
    capsule((a + b) * V::Real::HALF, (b - a) * V::Real::HALF, radius, ray)
}

/// A capsule: the segment from `center − half` to `center + half` swept by `radius` (a bare
/// segment by the touching distance).
///
/// The capsule is the union of a finite cylinder and the balls at its ends, and lies inside
/// the infinite cylinder about its axis. Where the ray enters that infinite cylinder between
/// the ends, it enters the capsule (every earlier point is outside the infinite cylinder).
/// Otherwise the first point of the capsule it meets lies in an end ball: it can only reach
/// the finite cylinder's side through its flat ends, which lie inside the balls.
///
/// Coordinates are along the axis from the centre (`y`) and across it: the origin's distance
/// to the segment is `√(|across|² + (|y| − ℓ)₊²)` with `ℓ` the half length, from the same
/// numbers as the interval.
#[inline(always)]
fn capsule<V: Vector>(center: V, half: V, radius: V::Real, ray: &LocalRay<V>) -> RayAnswer<V> {
    let zero = V::Real::ZERO;
    let Some(axis) = unit(half) else {
        return ball(center, radius, ray);
    };
    let r = radius.max(ray.touch);
    let (o, d) = (ray.origin, ray.dir);
    let half_length = axis.dot(half);
    let m = o - center;
    let (m_along, d_along) = (m.dot(axis), d.dot(axis));
    let (m_across, d_across) = (m - axis * m_along, d - axis * d_along);
    let beyond = (m_along.abs() - half_length).max(zero);
    let reach = r + ray.touch;
    if m_across.length_squared() + beyond * beyond <= reach * reach {
        return RayAnswer::Inside;
    }
    let Some((enter, exit)) = ball_interval(m_across, d_across, r) else {
        return RayAnswer::Miss;
    };
    if exit < zero {
        return RayAnswer::Miss;
    }
    // A bare segment's normals at a point inside it are the directions across it: the one
    // facing the ray. (Its touching-distance capsule's normal would be the direction of a
    // vector of that tiny length, known only to rounding.)
    let bare = radius == zero;
    if enter >= zero {
        let y = m_along + enter * d_along;
        if y.abs() <= half_length {
            let normal = if bare {
                unit_or(-d_across, || ray.back())
            } else {
                unit_or(m_across + d_across * enter, || ray.back())
            };
            return hit_at(enter, normal, ray);
        }
    }
    // An end ball (`side` −1 for `center − half`, +1 for `center + half`): the nearer entry.
    let entry = |side: V::Real| {
        let m = m - half * side;
        ball_interval_with(m, d, ray.dd, r).filter(|&(_, exit)| exit >= zero).map(|(t, _)| (t, m))
    };
    // Where the ray enters the infinite cylinder (or starts, inside it) lies beyond one end:
    // between there and the capsule every point is in the infinite cylinder, so the ray
    // reaches the capsule through that end's ball (the other ball's part beyond this end lies
    // within this end's ball). Both are tried only when rounding put that point between them.
    let y = m_along + enter.max(zero) * d_along;
    let first = if y < -half_length {
        entry(-V::Real::ONE)
    } else if y > half_length {
        entry(V::Real::ONE)
    } else {
        match (entry(-V::Real::ONE), entry(V::Real::ONE)) {
            (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
            (x, y) => x.or(y),
        }
    };
    match first {
        // At a bare segment's end the normals point away from the segment: the nearest to
        // the ray's reverse is that reverse, or its part across the axis.
        Some((t, _)) if bare => {
            let toward_segment = if m_along + t * d_along > zero { -axis } else { axis };
            let normal = if d.dot(toward_segment) >= zero {
                unit_or(-d_across, || ray.back())
            } else {
                ray.back()
            };
            hit_at(t, normal, ray)
        }
        Some((t, m)) => {
            let at = t.max(zero);
            hit_at(t, unit_or(m + d * at, || ray.back()), ray)
        }
        None => RayAnswer::Miss,
    }
}

/// The slab test (Kay & Kajiya 1986) on the box `[−h, h]`: the interval where the ray is
/// within every slab `|xᵢ| ≤ hᵢ`, and the axis of the last slab entered (`DIM` when the ray
/// runs inside every slab from `−∞`). `None`: it misses a slab it runs parallel to.
#[inline]
fn slabs<V: Vector>(h: V, o: V, d: V) -> Option<(V::Real, V::Real, usize)> {
    let inverse = d.recip();
    if inverse.is_finite() {
        // Every slab crossed at finite times (no zero or subnormal coordinate in `d`): the
        // same arithmetic as the loop below, coordinate-wise (no NaN can arise, so the
        // minima and maxima agree with the loop's comparisons).
        let a = (-h - o).component_mul(inverse);
        let b = (h - o).component_mul(inverse);
        let near = a.component_min(b);
        let enter = near.max_element();
        let exit = a.component_max(b).min_element();
        // The first axis of the largest entry, as the loop's strict comparison picks.
        let axis = (0..V::DIM)
            .find(|&i| near.component(i) == enter && enter > -V::Real::INFINITY)
            .unwrap_or(V::DIM);
        return Some((enter, exit, axis));
    }
    let (mut enter, mut exit, mut axis) = (-V::Real::INFINITY, V::Real::INFINITY, V::DIM);
    for i in 0..V::DIM {
        let (hi, oi, di) = (h.component(i), o.component(i), d.component(i));
        if di == V::Real::ZERO {
            if oi.abs() > hi {
                return None;
            }
            continue;
        }
        let inverse = V::Real::ONE / di;
        let (a, b) = ((-hi - oi) * inverse, (hi - oi) * inverse);
        let (near, far) = if a < b { (a, b) } else { (b, a) };
        if near > enter {
            enter = near;
            axis = i;
        }
        exit = exit.min(far);
    }
    Some((enter, exit, axis))
}

/// The outward normal of the box face on axis `axis` that a ray along `d` enters (the
/// reverse of `d` when no face was entered: a ray within every slab from the start).
#[inline(always)]
fn entered_face<V: Vector>(axis: usize, d: V) -> V {
    if axis >= V::DIM {
        return unit_or(-d, || -V::axis(0));
    }
    if d.component(axis) < V::Real::ZERO {
        V::axis(axis)
    } else {
        -V::axis(axis)
    }
}

/// The box `[−h, h]`: the slab test.
#[inline(always)]
fn cuboid<V: Vector>(h: V, ray: &LocalRay<V>) -> RayAnswer<V> {
    let (o, d) = (ray.origin, ray.dir);
    // |oᵢ| > hᵢ + δ for some i (the sign of a difference is exact).
    let outside = (o.abs() - (h + V::splat(ray.touch))).max_element() > V::Real::ZERO;
    if !outside {
        return RayAnswer::Inside;
    }
    match slabs(h, o, d) {
        Some((enter, exit, axis)) if enter <= exit && exit >= V::Real::ZERO => {
            hit_at(enter, entered_face(axis, d), ray)
        }
        _ => RayAnswer::Miss,
    }
}

/// The box `[−h, h]` swept by a ball of radius `r > 0`.
///
/// The rounded box lies in the box grown by `r`, whose slab test gives where the ray can be
/// inside at all. Space outside the core box splits into convex regions by which coordinates
/// exceed the box, and on which side (a face's region: one coordinate; an edge's: two; a
/// corner's: three). In a region with the set `S` of exceeded coordinates, a point is in the
/// rounded box exactly when `Σ_{i∈S} (xᵢ − sᵢhᵢ)² ≤ r²` (its distance to the core box): a
/// ball, cylinder or slab in the coordinates of `S`, met in one interval. The ray passes
/// through the regions in order (each is convex, so it meets each in one interval); the walk
/// from the grown box's entry takes each region's interval until one holds a point of the
/// rounded box, which is then the first. Each step changes the set `S` by at least one
/// coordinate, so the walk ends within a few steps; it is exact (no tolerance enters).
fn rounded_box<V: Vector>(h: V, r: V::Real, ray: &LocalRay<V>) -> RayAnswer<V> {
    let zero = V::Real::ZERO;
    let (o, d) = (ray.origin, ray.dir);
    let excess = o.zip_map(h, |x, h| (x.abs() - h).max(zero));
    if excess.length() <= r + ray.touch {
        return RayAnswer::Inside;
    }
    let grown = h.map(|h| h + r);
    let Some((enter, exit, axis)) = slabs(grown, o, d) else { return RayAnswer::Miss };
    if enter > exit || exit < zero {
        return RayAnswer::Miss;
    }
    let mut t = enter.max(zero);
    // The region at `t`: the side of each exceeded coordinate (±1), 0 for the others.
    let p = o + d * t;
    let mut side = [zero; 3];
    let mut exceeded = 0;
    for (i, s) in side.iter_mut().enumerate().take(V::DIM) {
        if p.component(i).abs() > h.component(i) {
            *s = if p.component(i) < zero { -V::Real::ONE } else { V::Real::ONE };
            exceeded += 1;
        }
    }
    if exceeded <= 1 && axis < V::DIM {
        // A face's region: the grown box's face is the rounded box's there.
        return hit_at(t, entered_face(axis, d), ray);
    }
    for _ in 0..2 * V::DIM + 2 {
        let mask = |v: V, c: V| {
            V::from_components([0, 1, 2].map(|i| {
                if i < V::DIM && side[i] != zero {
                    v.component(i) - c.component(i)
                } else {
                    zero
                }
            }))
        };
        let corner = V::from_components([0, 1, 2].map(|i| {
            if i < V::DIM {
                side[i] * h.component(i)
            } else {
                zero
            }
        }));
        let (m, e) = (mask(o, corner), mask(d, V::ZERO));
        // Where the ray leaves the region: a coordinate of S comes back within the box, or
        // another one leaves it.
        let mut leave = exit;
        for (i, &s) in side.iter().enumerate().take(V::DIM) {
            if let Some(at) = crossing(s, h.component(i), o.component(i), d.component(i)) {
                leave = leave.min(at.max(t));
            }
        }
        if exceeded == 0 {
            // Within rounding of the core box: the walk came through a boundary point.
            return hit_at(t, unit_or(e, || ray.back()), ray);
        }
        if let Some((a, b)) = ball_interval(m, e, r) {
            if b >= t && a <= leave {
                let at = a.max(t);
                return hit_at(at, unit_or(m + e * at, || ray.back()), ray);
            }
        }
        if leave >= exit {
            return RayAnswer::Miss;
        }
        for (i, s) in side.iter_mut().enumerate().take(V::DIM) {
            let crossed = crossing(*s, h.component(i), o.component(i), d.component(i));
            if crossed.is_some_and(|at| at <= leave) {
                if *s == zero {
                    *s = if d.component(i) < zero { -V::Real::ONE } else { V::Real::ONE };
                    exceeded += 1;
                } else {
                    *s = zero;
                    exceeded -= 1;
                }
            }
        }
        t = leave;
    }
    RayAnswer::Miss
}

/// When coordinate `o + t·d` crosses the box's boundary plane out of its current state: back
/// within `|x| ≤ h` for an exceeded coordinate on side `s` (±1), out of it for a coordinate
/// within (`s = 0`). `None` when it never does.
#[inline]
fn crossing<R: Real>(s: R, h: R, o: R, d: R) -> Option<R> {
    if s == R::ZERO {
        if d > R::ZERO {
            Some((h - o) / d)
        } else if d < R::ZERO {
            Some((-h - o) / d)
        } else {
            None
        }
    } else if s * d < R::ZERO {
        Some((s * h - o) / d)
    } else {
        None
    }
}

/// Cyrus–Beck clipping (Cyrus & Beck 1978) of the ray by half-spaces `n·x ≤ c`: the ray is in
/// the intersection on the interval from the last plane it enters to the first it leaves.
/// The normal of the entry is that last plane's. The origin is inside when it is within the
/// touching distance of every half-space.
#[inline]
fn clip<V: Vector>(planes: impl Iterator<Item = (V, V::Real)>, ray: &LocalRay<V>) -> RayAnswer<V> {
    let (o, d) = (ray.origin, ray.dir);
    let (mut enter, mut exit, mut normal) = (-V::Real::INFINITY, V::Real::INFINITY, V::ZERO);
    let mut inside = true;
    for (n, c) in planes {
        let gap = n.dot(o) - c;
        let towards = n.dot(d);
        let outside = gap > ray.touch;
        if outside && towards >= V::Real::ZERO {
            // Beyond this plane (by more than the touching distance) and not coming back.
            return RayAnswer::Miss;
        }
        inside &= !outside;
        if towards < V::Real::ZERO {
            let t = -gap / towards;
            if t > enter {
                enter = t;
                normal = n;
            }
        } else if towards > V::Real::ZERO {
            exit = exit.min(-gap / towards);
        } else if gap > V::Real::ZERO {
            exit = -V::Real::INFINITY; // parallel and outside: no hit
        }
        if !inside && (enter > exit || enter > ray.limit) {
            // The interval is already empty or beyond the limit, and the origin is not inside.
            return RayAnswer::Miss;
        }
    }
    if inside {
        RayAnswer::Inside
    } else if enter <= exit && exit >= V::Real::ZERO {
        hit_at(enter, if normal == V::ZERO { ray.back() } else { normal }, ray)
    } else {
        RayAnswer::Miss
    }
}

/// A 2D polygon: its edges' half-planes.
fn polygon<V: Vector>(p: &CorePolygon<'_, V>, ray: &LocalRay<V>) -> RayAnswer<V> {
    let planes = p.normals.iter().zip(p.vertices).map(|(&n, &v)| (n, n.dot(v)));
    clip(planes, ray)
}

/// A 3D polytope: its faces' half-spaces.
fn polytope<V: Vector>(p: &CorePolytope<'_, V>, ray: &LocalRay<V>) -> RayAnswer<V> {
    clip(p.normals.iter().copied().zip(p.offsets.iter().copied()), ray)
}

/// The earliest answer of a union of convex pieces: inside any is inside, else the first hit.
fn first_of<V: Vector>(answers: impl Iterator<Item = RayAnswer<V>>) -> RayAnswer<V> {
    let mut best = RayAnswer::Miss;
    for answer in answers {
        match (answer, best) {
            (RayAnswer::Inside, _) => return RayAnswer::Inside,
            (RayAnswer::Hit { t, .. }, RayAnswer::Hit { t: best_t, .. }) if t >= best_t => {}
            (RayAnswer::Hit { .. }, _) => best = answer,
            (RayAnswer::Miss, _) => {}
        }
    }
    best
}

/// A 2D polygon swept by `radius`: the union of the polygon and its edges' capsules (every
/// point within `radius` of the polygon is in the polygon or within `radius` of an edge).
/// The ray enters the union through a capsule unless it starts in the polygon.
fn rounded_polygon<V: Vector>(
    p: &CorePolygon<'_, V>,
    radius: V::Real,
    ray: &LocalRay<V>,
) -> RayAnswer<V> {
    let o = ray.origin;
    if p.normals.iter().zip(p.vertices).all(|(&n, &v)| n.dot(o - v) <= V::Real::ZERO) {
        return RayAnswer::Inside;
    }
    let count = p.vertices.len();
    let edges = (0..count).map(|i| [p.vertices[i], p.vertices[(i + 1) % count]]);
    first_of(edges.map(|ends| capsule_ends(ends, radius, ray)))
}

/// The 2D triangle's edges as half-planes `(n, c)`, outward whichever the corners' order;
/// `None` for a degenerate triangle.
#[inline]
fn triangle_edges<V: Vector>([a, b, c]: [V; 3]) -> Option<[(V, V::Real); 3]> {
    let area = crate::geometry::area2(a, b, c);
    if area == V::Real::ZERO {
        return None;
    }
    let outward = |p: V, q: V| {
        let e = q - p;
        let n = V::from_components([e.component(1), -e.component(0), V::Real::ZERO]);
        let n = if area < V::Real::ZERO { -n } else { n };
        n.direction().map(|n| (n, n.dot(p)))
    };
    Some([outward(a, b)?, outward(b, c)?, outward(c, a)?])
}

/// A solid 2D triangle: its edges' half-planes (`None` for a degenerate one).
fn triangle_2d<V: Vector>(corners: [V; 3], ray: &LocalRay<V>) -> Option<RayAnswer<V>> {
    Some(clip(triangle_edges(corners)?.into_iter(), ray))
}

/// A 2D triangle swept by `radius`: the triangle and its edges' capsules.
fn rounded_triangle_2d<V: Vector>(
    [a, b, c]: [V; 3],
    radius: V::Real,
    ray: &LocalRay<V>,
) -> RayAnswer<V> {
    let o = ray.origin;
    let inside =
        triangle_edges([a, b, c]).is_some_and(|edges| edges.iter().all(|&(n, k)| n.dot(o) <= k));
    if inside {
        return RayAnswer::Inside;
    }
    first_of([[a, b], [b, c], [c, a]].into_iter().map(|ends| capsule_ends(ends, radius, ray)))
}

/// A flat triangle in 3D: where the ray crosses its plane, if that point is in the triangle
/// (each edge's cross product with the point along the normal). `None` for a degenerate
/// triangle, and for an origin in the plane outside the triangle (a ray in the plane meets
/// only the edges, within the touching distance: the GJK ray cast decides).
fn triangle_3d<V: Vector>([a, b, c]: [V; 3], ray: &LocalRay<V>) -> Option<RayAnswer<V>> {
    let (o, d) = (ray.origin, ray.dir);
    let n = cross(b - a, c - a).direction()?;
    let height = n.dot(o - a);
    let within = |p: V, slack: V::Real| {
        [(a, b), (b, c), (c, a)].iter().all(|&(s, e)| {
            let edge = e - s;
            let Some(across) = cross(n, edge).direction() else { return true };
            across.dot(p - s) >= -slack
        })
    };
    if height.abs() <= ray.touch {
        return within(o, ray.touch).then_some(RayAnswer::Inside);
    }
    let towards = n.dot(d);
    if towards == V::Real::ZERO || (height > V::Real::ZERO) == (towards > V::Real::ZERO) {
        return Some(RayAnswer::Miss);
    }
    let t = -height / towards;
    let p = o + d * t;
    if !within(p, V::Real::ZERO) {
        return Some(RayAnswer::Miss);
    }
    let normal = if towards < V::Real::ZERO { n } else { -n };
    Some(hit_at(t, normal, ray))
}

/// An ellipsoid of semi-axes `radii`: the map `x ↦ x / radii` takes it to the unit ball and
/// keeps the ray's parameter, so the ball's interval is the ellipsoid's. The normal is the
/// gradient of `Σ (xᵢ/rᵢ)²`, `x / radii²`.
fn ellipsoid<V: Vector>(radii: V, ray: &LocalRay<V>) -> RayAnswer<V> {
    let (o, d) = (ray.origin, ray.dir);
    let scale = |v: V| v.zip_map(radii, |x, r| x / r);
    let smallest = (0..V::DIM).fold(V::Real::INFINITY, |m, i| m.min(radii.component(i)));
    let m = scale(o);
    if m.length() <= V::Real::ONE + ray.touch / smallest {
        return RayAnswer::Inside;
    }
    match ball_interval(m, scale(d), V::Real::ONE) {
        Some((enter, exit)) if exit >= V::Real::ZERO => {
            let p = o + d * enter.max(V::Real::ZERO);
            hit_at(enter, unit_or(scale(scale(p)), || ray.back()), ray)
        }
        _ => RayAnswer::Miss,
    }
}

/// The `x z` part of a 3D vector (the `y` component zeroed).
#[inline]
fn across_y<V: Vector>(v: V) -> V {
    V::from_components([v.component(0), V::Real::ZERO, v.component(2)])
}

/// The interval where `lo ≤ o + t·d` (`upper` false) or `o + t·d ≤ hi` (`upper` true) for one
/// coordinate: a half-line, the whole line, or `None`.
#[inline]
fn half_line<R: Real>(bound: R, o: R, d: R, upper: bool) -> Option<(R, R)> {
    let all = (-R::INFINITY, R::INFINITY);
    if d == R::ZERO {
        let ok = if upper { o <= bound } else { o >= bound };
        return ok.then_some(all);
    }
    let t = (bound - o) / d;
    // Moving toward the allowed side from the bound on: for an upper bound, d < 0.
    if (d < R::ZERO) == upper {
        Some((t, R::INFINITY))
    } else {
        Some((-R::INFINITY, t))
    }
}

/// The cylinder `|y| ≤ h`, `x² + z² ≤ r²` (a bare segment, `r = 0`, by the touching
/// distance): the infinite cylinder's interval (a ball's in the `x z` plane) and the slab's.
fn cylinder<V: Vector>(h: V::Real, radius: V::Real, ray: &LocalRay<V>) -> RayAnswer<V> {
    let (o, d) = (ray.origin, ray.dir);
    let r = radius.max(ray.touch);
    let (oy, dy) = (o.component(1), d.component(1));
    if oy.abs() <= h + ray.touch && across_y(o).length() <= r + ray.touch {
        return RayAnswer::Inside;
    }
    let Some(side) = ball_interval(across_y(o), across_y(d), r) else { return RayAnswer::Miss };
    let (Some(lower), Some(upper)) = (half_line(-h, oy, dy, false), half_line(h, oy, dy, true))
    else {
        return RayAnswer::Miss;
    };
    let (enter, exit) = (lower.0.max(upper.0), lower.1.min(upper.1));
    let (start, end) = (side.0.max(enter), side.1.min(exit));
    if start > end || end < V::Real::ZERO {
        return RayAnswer::Miss;
    }
    let normal = if enter >= side.0 {
        entered_face(1, d)
    } else if radius == V::Real::ZERO {
        // A needle: the direction across it facing the ray (see the bare capsule).
        unit_or(-across_y(d), || ray.back())
    } else {
        unit_or(across_y(o + d * start.max(V::Real::ZERO)), || ray.back())
    };
    hit_at(start, normal, ray)
}

/// The cone with apex `(0, h, 0)` and base disc of radius `r` at `y = −h`: the solid
/// infinite cone `ρ ≤ k (h − y)` (`ρ` the distance from the axis, `k = r / 2h`) cut by the
/// base plane `y ≥ −h`. The infinite cone's interval comes from the quadratic
/// `f(t) = ρ² − k² (h − y)²`, whose sublevel set `f ≤ 0` is the double cone: of its pieces
/// (one interval when `f` opens upward, two half-lines when it opens downward) the one with
/// `h − y ≥ 0` is the solid cone's. A flat cone (`h = 0`) is a disc and a needle (`r = 0`) a
/// segment: the cylinder's kernel answers for both.
fn cone<V: Vector>(h: V::Real, radius: V::Real, ray: &LocalRay<V>) -> RayAnswer<V> {
    let zero = V::Real::ZERO;
    if !h.is_positive() || !radius.is_positive() {
        return cylinder(h, radius, ray);
    }
    let (o, d) = (ray.origin, ray.dir);
    let k = radius / (h + h);
    let (oy, dy) = (o.component(1), d.component(1));
    let w0 = h - oy;
    let (m, e) = (across_y(o), across_y(d));
    let slant = (V::Real::ONE + k * k).sqrt();
    if oy >= -h - ray.touch && m.length() - k * w0 <= ray.touch * slant {
        return RayAnswer::Inside;
    }
    // f(t) = A t² + 2 B t + C.
    let kk = k * k;
    let a = e.length_squared() - kk * dy * dy;
    let b = m.dot(e) + kk * w0 * dy;
    let c = m.length_squared() - kk * w0 * w0;
    // Below the apex: h − y(t) = w0 − t·dy ≥ 0.
    let Some(below) = half_line(h, oy, dy, true) else { return RayAnswer::Miss };
    let Some(base) = half_line(-h, oy, dy, false) else { return RayAnswer::Miss };
    let meet = |x: (V::Real, V::Real), y: (V::Real, V::Real)| {
        let s = (x.0.max(y.0), x.1.min(y.1));
        (s.0 <= s.1).then_some(s)
    };
    let inf = V::Real::INFINITY;
    let pieces: [Option<(V::Real, V::Real)>; 2] = if a == zero {
        if b == zero {
            [(c <= zero).then_some((-inf, inf)), None]
        } else {
            let root = -c / (b + b);
            [Some(if b > zero { (-inf, root) } else { (root, inf) }), None]
        }
    } else {
        let disc = b * b - a * c;
        if disc < zero {
            [(a < zero).then_some((-inf, inf)), None]
        } else {
            // The roots without cancellation: q = −(B + sign(B)·√disc), roots q/A and C/q.
            let root = disc.sqrt();
            let q = if b < zero { root - b } else { -b - root };
            let (r1, r2) = if q == zero { (zero, zero) } else { (q / a, c / q) };
            let (lo, hi) = if r1 < r2 { (r1, r2) } else { (r2, r1) };
            if a > zero {
                [Some((lo, hi)), None]
            } else {
                [Some((-inf, lo)), Some((hi, inf))]
            }
        }
    };
    let mut span: Option<(V::Real, V::Real)> = None;
    for piece in pieces.into_iter().flatten() {
        if let Some(s) = meet(piece, below) {
            span = Some(span.map_or(s, |u: (V::Real, V::Real)| (u.0.min(s.0), u.1.max(s.1))));
        }
    }
    let Some(side) = span else { return RayAnswer::Miss };
    let Some((start, end)) = meet(side, base) else { return RayAnswer::Miss };
    if end < zero {
        return RayAnswer::Miss;
    }
    let p = o + d * start.max(zero);
    let normal = if base.0 >= side.0 {
        -V::axis(1)
    } else {
        // The gradient of f: (x, k² (h − y), z).
        let g = V::from_components([p.component(0), kk * (h - p.component(1)), p.component(2)]);
        unit_or(g, || V::axis(1))
    };
    hit_at(start, normal, ray)
}
