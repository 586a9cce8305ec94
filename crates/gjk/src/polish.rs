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
//!
//! Between the two lie ruled patches of `D`: flat along a segment of support points (a
//! cylinder's or a cone's side, a rim or a curved surface against an edge) and curved across
//! it. The support point jumps between the segment's ends as the normal turns along it, so
//! the step above fails there; `ruled` turns the normal orthogonal to the segment and runs
//! Newton's method in the one curved direction left (for answers in f64 only, where the
//! angle resolves; as GJK's stall recovery, which needs only a support point that makes
//! progress, in f32 too).

use crate::epa::distribute;
use crate::geometry::cross;
use crate::math::{Real, Vector};
use crate::pair::Pair;
use crate::shape::{closest_on_segment, Support};
use crate::simplex::SupportPoint;

/// The cores' Minkowski difference as the polish sees it: its support function behind a `dyn`
/// reference, so that the polish (Newton's steps, the rulings, the witnesses' checks) is built
/// once per vector type, not once per pair of shape types (a tenth of the test suite's LLVM IR
/// went to its copies); one indirect call per support point, against a step of dozens of operations.
struct Difference<'s, V: Vector> {
    support: &'s dyn Fn(V) -> SupportPoint<V>,
    /// The centres of A and of B, in A's frame.
    centers: (V, V),
}

/// `then` on the difference of `pair`'s cores: the per-pair shell of every polish entry.
#[inline]
fn on_difference<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized, R>(
    pair: &Pair<'_, V, A, B>,
    then: impl FnOnce(&Difference<'_, V>) -> R,
) -> R {
    let support = |dir: V| pair.support(dir);
    let centers = (pair.a().center(), pair.relative_pose().transform_point(pair.b().center()));
    then(&Difference { support: &support, centers })
}

impl<V: Vector> Difference<'_, V> {
    /// The support point along `dir` (see [`Pair::support`]).
    #[inline]
    fn support(&self, dir: V) -> SupportPoint<V> {
        (self.support)(dir)
    }
}

/// At most this many Newton steps: each about squares the angle's error, and the start is
/// already within `√ε`.
const STEPS: usize = 3;

/// The polished normal (A's frame, from A toward B), its support value `h` (the signed depth)
/// and support point `s(n)` (with the points of A and B it came from).
pub(crate) struct Polished<V: Vector> {
    pub(crate) normal: V,
    pub(crate) depth: V::Real,
    pub(crate) support: SupportPoint<V>,
    /// Whether the support point's part across the normal is within rounding, so that its
    /// points are the witnesses (see [`Polished::witnesses`]).
    settled: bool,
    /// Whether the support point's `a` and `b` are on the shapes: left where they were found
    /// (support points, or points of a ruling between two), or moved across the normal to hand
    /// out a remainder only where checked to stay on them ([`kept_on_shapes`], for a stall's
    /// recovery). A remainder handed out unchecked (in f32 up to `√ε` of the size) may move
    /// them off.
    found: bool,
}

impl<V: Vector> Polished<V> {
    /// The witness points of the answer at the polished normal, `a − b = depth × normal`:
    /// the support point's `a` and `b` (on the shapes' supporting planes of the normal by
    /// construction), or `before`, the answer's witnesses before the polish (on the shapes),
    /// put on those planes, whichever leaves the smaller remainder across the normal; then
    /// the remainder handed out ([`distribute`]: across the normal, to the shape with room
    /// for it along its supporting face).
    ///
    /// The remainder across the normal is what moves the points off their shapes: on a smooth
    /// surface by its square over the radius, but at a sharp feature (a rim, a segment's end,
    /// a hull's vertex) by its size. Newton's method ends with it within `√ε` of the size, a
    /// few rounding units in f64, but up to 3.4e-4 of the size in f32, where a normal within a
    /// touching contact's flat minimum is found only to a few degrees: near a disc's axis the
    /// rim's support point slid 140 along the rim from the contact (size 2.9e5). The points
    /// before the polish lie on the shapes (GJK's or EPA's witnesses at the contact), and the
    /// support values of the polished normal put them on its planes with one move each along
    /// the normal. What is left across it is no rounding either where a flat curved surface
    /// (an ellipse's flank, radius of curvature 1e7) meets a vertex: its support point runs
    /// along the surface by the radius times the normal's last rounding-sized error, and
    /// the vertex, which has no room, must not take half of that.
    ///
    /// `rooms`: the pair whose support measures the rooms, `None` to split evenly. GJK's
    /// distance passes `None`: there the rooms moved a cone's rim point off the cone in one
    /// f32 scene of the long run (docs/robustness.md, branch `w13a`; not traced yet).
    pub(crate) fn witnesses<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &self,
        depth: V::Real,
        before: (V, V),
        rooms: Option<&Pair<'_, V, A, B>>,
    ) -> (V, V) {
        match rooms {
            Some(pair) => {
                on_difference(pair, |rooms| self.witnesses_in(depth, before, Some(rooms)))
            }
            None => self.witnesses_in(depth, before, None),
        }
    }

    /// [`Polished::witnesses`] on the erased difference.
    fn witnesses_in(
        &self,
        depth: V::Real,
        before: (V, V),
        rooms: Option<&Difference<'_, V>>,
    ) -> (V, V) {
        let (n, s) = (self.normal, &self.support);
        let target = n * depth;
        if self.settled {
            return s.witnesses_apart(target);
        }
        let (a, b) = before;
        let (a, b) = (a + n * n.dot(s.a - a), b + n * n.dot(s.b - b));
        let r = a - b - target;
        let polished = s.w - target;
        let across = |r: V| r - n * n.dot(r);
        let start = if across(r).length_squared() < across(polished).length_squared() {
            (a, b, r)
        } else {
            (s.a, s.b, polished)
        };
        let tangential = across(start.2);
        let root_eps = V::Real::EPSILON.sqrt();
        let toward = |t: V| Some(rooms?.support((n - t * root_eps).direction()?));
        match tangential.direction().and_then(|t| Some((t, toward(t)?))) {
            Some((t, toward)) => distribute(n, start, t, &toward.into()),
            None => (start.0 - start.2 * V::Real::HALF, start.1 + start.2 * V::Real::HALF),
        }
    }
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
    start: Start,
) -> Option<Polished<V>> {
    on_difference(pair, |difference| polish_in(difference, normal, bound, start))
}

/// Where the polish's start comes from, which tells how far off it may be.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Start {
    /// EPA's normal: in f32 up to 1e-2 rad off (a point deep in a thin ellipsoid's tip), where
    /// a secant over the widest angle may not be the derivative: a refused step measured there
    /// is measured again at `√ε` (see `polish_in`).
    Expansion,
    /// GJK's normal (apart, or a stall's): no second measurement. On cylinders and cones in
    /// f32 a step over the widest angle is often refused (rulings, rounding) and refused again
    /// at `√ε`: the three support calls cost 3.4 % of f32 `closest_points` of cylinder_cone
    /// (docs/robustness.md, fifteenth session).
    Loop,
}

/// [`polish`] on the erased difference.
fn polish_in<V: Vector>(
    difference: &Difference<'_, V>,
    normal: V,
    bound: V::Real,
    start: Start,
) -> Option<Polished<V>> {
    let mut n = normal;
    let first = difference.support(n);
    let (mut s, mut h) = (first, n.dot(first.w));
    let size = rounding_size(difference, &first);
    // The loop's other bound meets `h` to rounding: a polytope's face, exact already. Only
    // where rounding resolves the angle (`h` changes by `θ²`: `θ` down to about √ε, 1.5e-8 in
    // f64); in f32 a curved surface's `h` meets the bound to rounding with the normal still
    // 1e-3 off, and the vertex test of `newton_step` is the cheap exit.
    let resolved = V::Real::EPSILON.sqrt() < V::Real::from_f64(1e-6);
    if resolved && (h - bound).abs() <= V::Real::from_f64(16.0) * V::Real::EPSILON * size {
        return None;
    }
    let mut improved = false;
    let mut vertex = false;
    // A step may raise `h` by its rounding: the support point's coordinates carry a few
    // roundings of the size each (poses, a posed shape's own rotation), and at 4 ε × size a
    // second step that took `g` from 2.2e-12 to 3.9e-18 was refused for 1.64e-19 (f64 ball in
    // a posed ellipsoid, size 1.2e-4), which left the answer short of smooth and EPA's normal
    // 1.7e-6 rad off. 16 ε × size, as the exit test above.
    let rounding = V::Real::from_f64(16.0) * V::Real::EPSILON * size;
    // The finite-difference angle of the next step: a guess for the first, then the last kept
    // step's angle per unit of `g` (see `newton_step`).
    let mut angle = Angle::Guess;
    'steps: for _ in 0..STEPS {
        let g = (s.w - n * h).length();
        let mut measured = angle;
        let (next, s_next, h_next, per_unit) = loop {
            let (next, per_unit, e) = match newton_step(difference, n, s.w, h, measured) {
                Ok(step) => step,
                Err(at_vertex) => {
                    // A vertex is told by the step as planned, not by the finest turn (on a
                    // ruled patch a turn of `√ε` along the ruling may not move the support point).
                    if measured == angle {
                        vertex = at_vertex;
                    }
                    break 'steps;
                }
            };
            let s_next = difference.support(next);
            let h_next = next.dot(s_next.w);
            // A step is kept when it shrinks the tangential part without raising `h` beyond
            // rounding: near the minimum `h` changes by the square of the angle, below the
            // rounding of `h` itself in `f32`, while `g` shrinks in proportion to the angle.
            let shorter = (s_next.w - next * h_next).length() < g;
            if shorter && h_next <= h + rounding {
                break (next, s_next, h_next, per_unit);
            }
            // A refused step whose derivatives were measured over the widest angle (1e-2 rad:
            // a start far from the answer) is measured again at `√ε`: that secant is not the
            // derivative where the radii of curvature change fast along it (a point deep in a
            // thin ellipsoid's tip, `H − h I` with eigenvalues 0.86 and 1.2e-3: measured over
            // 1e-2 rad the small one came out 7 times too small and the step overshot
            // tenfold). Only there, and only from EPA's start ([`Start`]): a step refused for
            // other reasons (a ruled patch, rounding) is refused again, and the three support
            // calls of a retry cost 3–4 % of f32 `closest_points` on cylinders and cones.
            if start == Start::Loop || measured == Angle::Finest || e < V::Real::from_f64(1e-2) {
                break 'steps;
            }
            measured = Angle::Finest;
        };
        angle = Angle::PerUnit(per_unit);
        (n, s, h, improved) = (next, s_next, h_next, true);
    }
    // Kept only where the surfaces are smooth: there `s(n)` ends up along `n`. On a flat face
    // or an edge the support point is a corner, off the line of `n` by up to the face's size,
    // and the answer before the polish (with its witnesses chosen on the faces) is the exact
    // one.
    let tangential = (s.w - n * h).length();
    let smooth = tangential <= V::Real::EPSILON.sqrt() * size;
    if improved && smooth {
        let settled = tangential <= V::Real::from_f64(64.0) * V::Real::EPSILON * size;
        return Some(Polished { normal: n, depth: h, support: s, settled, found: true });
    }
    // A vertex of `D` is exact for an answer with a finite bound; an expansion that stopped
    // short (no bound) may have stopped at a ruling's far end instead, where turning the
    // normal further keeps the support point (a cone's rim point, past the side's normals).
    if vertex && bound.is_finite() {
        return None;
    }
    // The ruling's other end: the support point once the normal turns away from this one.
    // Only where the angle resolves (see `ruled`): in f32 the answer keeps its witnesses.
    if !resolved {
        return None;
    }
    let other = ruling_end(difference, normal, &first, size)?;
    let mode = if bound.is_finite() { Ruled::Near } else { Ruled::Far };
    ruled(difference, normal, &first, &other, size, mode)
}

/// A stall's way out, for GJK's loop and the shape cast's sweep alike: the support point of
/// the polished normal from the unit `normal` ([`polish`], then [`polish_ruled`] for the far
/// end of a ruling), `bound` the loop's bound of the signed depth. The polish interpolates
/// along a ruling, so B's point in its own frame is measured again from the point itself
/// (a warm start or a sweep's advance re-poses it from there). With it, whether its points
/// are on the shapes ([`Polished`]'s `found`).
///
/// `at_foot` (GJK's loop): about a ruling, the curvature at its foot first (see
/// [`foot_curvature`]). The shape cast's sweep keeps the support point's end's: with the
/// foot's, two f32 casts of the long run stopped short by up to 2 times the property test's
/// tolerance where they had not (a cylinder against a triangle, an ellipsoid against a round
/// hull; not traced), while a third no longer did (docs/robustness.md, branch `w21b`).
#[cold]
pub(crate) fn stall_escape<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    normal: V,
    bound: V::Real,
    at_foot: bool,
) -> Option<(SupportPoint<V>, bool)> {
    let polished = on_difference(pair, |difference| {
        polish_in(difference, normal, bound, Start::Loop)
            .or_else(|| polish_ruled(difference, normal, at_foot))
    })?;
    let found = polished.support;
    let b_local = pair.relative_pose().inverse_transform_point(found.b);
    Some((SupportPoint::new(found.a, found.b, b_local), polished.found))
}

/// The size that rounding is relative to at the support point `s`: its points' distances from
/// their shapes' centres, and its own length.
fn rounding_size<V: Vector>(difference: &Difference<'_, V>, s: &SupportPoint<V>) -> V::Real {
    let (center_a, center_b) = difference.centers;
    (s.a - center_a).length() + (s.b - center_b).length() + s.w.length()
}

/// [`ruled`] alone, from the unit `normal`: for GJK's stalls, where `polish` stops at what
/// looks like a vertex of `D` but is the far end of a ruling (a polytope's vertex against a
/// cylinder's side near its rim: turning the normal toward the far end keeps the support
/// point, turning it back makes it jump to the near end). `at_foot`: Newton's method about
/// the ruling takes the curvature at its foot first ([`foot_curvature`]), and the support
/// point's end's where that finds no point.
#[cold]
fn polish_ruled<V: Vector>(
    difference: &Difference<'_, V>,
    normal: V,
    at_foot: bool,
) -> Option<Polished<V>> {
    let first = difference.support(normal);
    let size = rounding_size(difference, &first);
    let other = ruling_end(difference, normal, &first, size)?;
    let at_end = || ruled(difference, normal, &first, &other, size, Ruled::Recovering);
    if at_foot {
        ruled(difference, normal, &first, &other, size, Ruled::RecoveringAtFoot).or_else(at_end)
    } else {
        at_end()
    }
}

/// The support point at the other end of the ruling whose end `first` supports `normal`.
///
/// The normal may lean toward this end by far more than `√ε` (GJK's `−v` across a chord of
/// the near rim leans by `gap / length`; a stalled `−v` a rounding-sized distance from the
/// origin, made of support points far longer than itself, is off by `ε size / |v|`, up to
/// 0.1 rad; a triangle with two vertices close together at one end of the ruling and the third
/// at the other end leans along it by the cross-section's offset between them over the
/// length: 0.15 rad at a flat ellipsoid's rim against a segment): turn it back by doubling
/// angles from `√ε` until the support point jumps (moves by more than a smooth turn's
/// `e × size` could move it), up to half a radian. Stopping at 1e-2 rad took a neighbour on
/// the curved cross-section for the other end, and the recovery ran about a wrong ruling.
fn ruling_end<V: Vector>(
    difference: &Difference<'_, V>,
    normal: V,
    first: &SupportPoint<V>,
    size: V::Real,
) -> Option<SupportPoint<V>> {
    let t1 = (first.w - normal * normal.dot(first.w)).direction()?;
    let mut e = V::Real::EPSILON.sqrt();
    loop {
        let other = difference.support((normal - t1 * e).direction()?);
        let jumped = (other.w - first.w).length() > V::Real::from_f64(4.0) * e * size;
        if jumped || e >= V::Real::from_f64(0.5) {
            return Some(other);
        }
        e = e + e;
    }
}

/// Newton's method on a ruled patch of `D`: a segment of support points across `n` (a
/// cylinder's or a cone's side, a rim or an edge against an edge) and curved across it.
///
/// There the support point jumps between the segment's ends as the normal turns along it,
/// and the plain step (which measures `H` by turning the normal) fails. At the answer the
/// normal is orthogonal to the segment `d` (its ends tie) and the tangential part of the
/// support point across `d` vanishes: the normal is turned orthogonal to `d`, then Newton's
/// method runs in one dimension, about `d`, along `t = n × d` (in 2D the normal orthogonal to
/// `d` is the answer). From a stopped expansion's normal ([`along_rulings`]) the curvature is the
/// one at the segment's point along the normal (the foot), which on a developable patch is the
/// ends' interpolated (a cone's side: none at the apex, the rim's at the rim; for a point near the
/// axis the foot is near the apex, and the rim's curvature takes steps far too short); and since a
/// cone's rulings are not parallel, a turn about one leaves the patch's normals by its square, so
/// after each step the ruling is measured again and the normal turned orthogonal to it, and a step
/// that raises the support value is not kept. A converged answer's normal and a stall's recovery
/// turn about the first ruling with its end's curvature ([`about_ruling`]). The witnesses are the
/// points of the segment whose difference lies along the normal, kept only where the tangential
/// part ends up within `√ε` of the size, and the depth is the support value there, as for the plain
/// step. `first` is the support point of `normal`, `other` the one after turning the normal away
/// from it (the ruling's other end); `mode` says where the normal comes from.
#[cold]
#[inline(never)]
fn ruled<V: Vector>(
    difference: &Difference<'_, V>,
    normal: V,
    first: &SupportPoint<V>,
    other: &SupportPoint<V>,
    size: V::Real,
    mode: Ruled,
) -> Option<Polished<V>> {
    let recovering = matches!(mode, Ruled::Recovering | Ruled::RecoveringAtFoot);
    let root_eps = V::Real::EPSILON.sqrt();
    // Only where the angle resolves (f64, see `polish`): in f32 the tangential part left
    // below is not small enough for an answer's witnesses. A stall's recovery takes only the
    // support point, as one more vertex for GJK's simplex, so it runs in f32 as well.
    if root_eps >= V::Real::from_f64(1e-6) && !recovering {
        return None;
    }
    let h0 = normal.dot(first.w);
    // The ruling's direction: `first.w − other.w` is `da + db`, where one shape's points span
    // the ruling (a flat feature: a segment, an edge, a cylinder's side) and the other's moved
    // only with the `√ε` turn of the normal, on its curved surface. That small motion tilts
    // `da + db` by about `√ε`, so the answer takes the spanning shape's own difference when
    // the other's is under a sixteenth of its length. So does a stall's recovery, whose turn
    // to the ruling's other end may be tenths of a radian: a capsule's segment grazing a flat
    // ellipsoid's rim, where the ellipsoid's point moved 2.5e-8 in a 0.17 rad turn and tilted
    // `da + db` by 7.5e-3 rad off the segment (2.5e-6 long). A normal held orthogonal to the
    // tilted ruling leans along the segment, where the support value grows by half its length
    // per radian: 9.5e-9, fifty times the distance, and the recovered point made no progress.
    // Where the sum's tilt is within `√ε` the recovery keeps it, as its sweep was tuned
    // (`f32_cast_of_a_box_edge_onto_a_cylinder_rim_does_not_stop_short`: the spanning edge's
    // own direction, 7e-5 rad from the sum, stopped that cast 4.9e-5 short).
    let (da, db) = (first.a - other.a, other.b - first.b);
    let (aa, bb) = (da.length_squared(), db.length_squared());
    let small = V::Real::from_f64(1.0 / 256.0);
    // Which shape spans the ruling alone (`None`: both, an edge against an edge).
    let spanning = match () {
        _ if recovering && aa.min(bb) <= V::Real::EPSILON * aa.max(bb) => None,
        _ if bb <= aa * small => Some(Spans::A),
        _ if aa <= bb * small => Some(Spans::B),
        _ => None,
    };
    let span = |p: &SupportPoint<V>, q: &SupportPoint<V>| match spanning {
        Some(Spans::A) => p.a - q.a,
        Some(Spans::B) => q.b - p.b,
        None => p.w - q.w,
    };
    let d = match spanning {
        Some(Spans::A) => da,
        Some(Spans::B) => db,
        None => da + db,
    };
    let d = d.direction()?;
    let n = (normal - d * d.dot(normal)).direction()?;
    let (n, end, (p, q)) = match mode {
        Ruled::Far => along_rulings(difference, n, d, span, size)?,
        Ruled::Near | Ruled::Recovering | Ruled::RecoveringAtFoot => {
            let at_foot = mode == Ruled::RecoveringAtFoot;
            about_ruling(difference, n, d, (first, other), size, at_foot)?
        }
    };
    // The support value at the new normal is the depth: kept only when it is no worse than
    // at the start (a smaller upper bound of the signed depth).
    let h = n.dot(end.w);
    if h > h0 + V::Real::from_f64(4.0) * V::Real::EPSILON * size {
        return None;
    }
    // The witnesses: the point of the segment whose difference lies along the normal. An
    // end other than `end` comes from a normal turned by `√ε` along `d`, which moves the
    // other shape's point on its curved surface by `√ε` times its radius of curvature (a
    // cylinder's rim as wide as the shapes: as much as the check below allows). So when one
    // shape spans the ruling alone, the other's point is its support point at `n` itself,
    // and only the spanning shape's point is interpolated.
    let (from, span) = match spanning {
        Some(Spans::A) => (q.a - end.b, p.a - q.a),
        Some(Spans::B) => (end.a - q.b, q.b - p.b),
        None => (q.w, p.w - q.w),
    };
    let across = span - n * n.dot(span);
    let from = from - n * n.dot(from);
    let ll = across.length_squared();
    let l = if ll.is_positive() {
        (-(from.dot(across)) / ll).max(V::Real::ZERO).min(V::Real::ONE)
    } else {
        V::Real::ZERO
    };
    let (a, b) = match spanning {
        Some(Spans::A) => (q.a + (p.a - q.a) * l, end.b),
        Some(Spans::B) => (end.a, q.b + (p.b - q.b) * l),
        None => (q.a + (p.a - q.a) * l, q.b + (p.b - q.b) * l),
    };
    let r = a - b - n * h;
    let tangential = r - n * n.dot(r);
    // What is left across the segment: the curved direction's, to the shape with room for it.
    if tangential.length() > root_eps * size {
        return None;
    }
    let rounding = V::Real::from_f64(64.0) * V::Real::EPSILON * size;
    let found = tangential.length() <= rounding;
    let (a, b, found) = match tangential.direction().filter(|_| !found) {
        Some(t) => {
            let toward = difference.support((n - t * root_eps).direction()?);
            let split = distribute(n, (a, b, r), t, &toward.into());
            if recovering {
                kept_on_shapes(difference, n, (a, b, r), t, split, &toward, rounding)
            } else {
                (split.0, split.1, false)
            }
        }
        None => (a - r * V::Real::HALF, b + r * V::Real::HALF, found),
    };
    let support = SupportPoint::new(a, b, q.b_local);
    Some(Polished { normal: n, depth: h, support, settled: true, found })
}

/// Newton's method of [`ruled`] for a stopped expansion's normal, from the unit `n` orthogonal to
/// the ruling `d`: the final normal, its support point and the ruling's ends there (`p` toward
/// `+d`).
/// `span` is the ruling's direction from two support points (the spanning shape's own).
fn along_rulings<V: Vector>(
    difference: &Difference<'_, V>,
    mut n: V,
    mut d: V,
    span: impl Fn(&SupportPoint<V>, &SupportPoint<V>) -> V,
    size: V::Real,
) -> Option<(V, SupportPoint<V>, Ends<V>)> {
    let root_eps = V::Real::EPSILON.sqrt();
    let rounding = V::Real::from_f64(4.0) * V::Real::EPSILON * size;
    let mut kept: Option<(V, Ends<V>, V::Real)> = None;
    let mut step = 0;
    let (p, q) = loop {
        // The ruling's ends at `n`. Where the rulings are not parallel (a cone's meet at its
        // apex) a turn about `d` leaves the patch's normals by its square: the ruling is
        // measured again and the normal turned orthogonal to it.
        let (mut p, mut q) = ruling_ends(difference, n, d, root_eps, size)?;
        for _ in 0..2 {
            match span(&p, &q).direction() {
                Some(m) if (m - d).length() > root_eps => {
                    d = m;
                    n = (n - d * d.dot(n)).direction()?;
                    (p, q) = ruling_ends(difference, n, d, root_eps, size)?;
                }
                _ => break,
            }
        }
        if V::DIM != 3 {
            break (p, q);
        }
        let w = if n.dot(p.w) >= n.dot(q.w) { p.w } else { q.w };
        let h = n.dot(w);
        // A step is kept only when it does not raise the support value beyond rounding (the
        // curvature along the patch's normals may be rounding's own: a point on a cone's axis
        // has the whole circle of them).
        match kept {
            Some((kn, ends, kh)) if h > kh + rounding => {
                n = kn;
                break ends;
            }
            _ => kept = Some((n, (p, q), h)),
        }
        let t = cross(n, d).direction()?;
        let g = t.dot(w);
        if step == STEPS || g.abs() <= rounding {
            break (p, q);
        }
        let e = (g.abs() / size).max(root_eps).min(V::Real::from_f64(1e-2));
        // The curvature across the ruling at its point along the normal (the foot), not at
        // an end: on a developable patch it varies linearly along the ruling (from 0 at a
        // cone's apex to the rim's), so it is the ends' motions interpolated at the foot.
        let along = d.dot(p.w - q.w);
        let l = if along.is_positive() {
            (-d.dot(q.w) / along).max(V::Real::ZERO).min(V::Real::ONE)
        } else {
            V::Real::ZERO
        };
        let kappa = root_eps.max(e * e * V::Real::from_f64(4.0));
        let (tp, tq) = ruling_ends(difference, (n + t * e).direction()?, d, kappa, size)?;
        let motion = (tq.w - q.w) * (V::Real::ONE - l) + (tp.w - p.w) * l;
        let curvature = t.dot(motion) / e - h;
        if !curvature.is_positive() {
            break (p, q);
        }
        n = (n - t * (g / curvature)).direction()?;
        step += 1;
    };
    Some((n, difference.support(n), (p, q)))
}

/// Newton's method of [`ruled`] about the first ruling `d` only, with the curvature of the
/// support point's end, or `at_foot` the curvature at the ruling's foot ([`foot_curvature`]):
/// for a normal within `√ε` of the answer's (a converged one's), and for a stall's recovery
/// (see [`stall_escape`]: a support point that makes progress is all it needs). Returns as
/// [`along_rulings`].
fn about_ruling<V: Vector>(
    difference: &Difference<'_, V>,
    mut n: V,
    d: V,
    (first, other): (&SupportPoint<V>, &SupportPoint<V>),
    size: V::Real,
    at_foot: bool,
) -> Option<(V, SupportPoint<V>, Ends<V>)> {
    let root_eps = V::Real::EPSILON.sqrt();
    let mut end = difference.support(n);
    if V::DIM == 3 {
        let t = cross(n, d).direction()?;
        for step in 0..=STEPS {
            let w = end.w;
            let g = t.dot(w);
            if step == STEPS || g.abs() <= V::Real::from_f64(4.0) * V::Real::EPSILON * size {
                break;
            }
            let e = (g.abs() / size).max(root_eps).min(V::Real::from_f64(1e-2));
            let turned = (n + t * e).direction()?;
            let moved = difference.support(turned).w;
            let across = |m: V| t.dot(m - w) / e - n.dot(w);
            // The curvature at the support point's end of the ruling where it has some; at an
            // end without (a cone's apex) or with the measurement lost, the turned point's.
            let at_end = || match same_end(difference, turned, d, (w, moved), e, size) {
                Some(same) if across(same).is_positive() => across(same),
                _ => across(moved),
            };
            let foot = || foot_curvature(difference, n, d, turned, e, size);
            let curvature = if at_foot { foot().unwrap_or_else(at_end) } else { at_end() };
            if !curvature.is_positive() {
                return None;
            }
            n = (n - t * (g / curvature)).direction()?;
            end = difference.support(n);
        }
    }
    // The segment's ends along the final normal (the support point is one of them).
    let (p, q) = if d.dot(end.w) * V::Real::from_f64(2.0) >= d.dot(first.w + other.w) {
        (end, difference.support((n - d * root_eps).direction()?))
    } else {
        (difference.support((n + d * root_eps).direction()?), end)
    };
    Some((n, end, (p, q)))
}

/// The curvature across the ruling `d` at its foot, the point of the ruling along the unit
/// normal `n` (for a stall's recovery, [`about_ruling`]): the ruling's ends at `n` and at
/// `turned` (`n` turned by `e` across the ruling), their motions interpolated at the foot, as
/// [`along_rulings`] measures it; `None` where the ends do not come apart.
///
/// On a developable patch the curvature varies linearly along the ruling: none at a cone's
/// apex, the rim's at the rim. The support point's end is where the stalled normal leans, not
/// where the answer lies: a capsule's segment beside a cone's side (f32, size 1.3e5, cores
/// 226 apart), its stalled normal 2.6e-2 rad off, measured the curvature at its end, the
/// apex, as 212 (the cores' distance and a rounding of the apex's motion), against about
/// 38 400 at the foot. Newton's step, some 180 times too long, left the side's normals and
/// found a negative curvature; the recovery gave up, and the answer kept the stalled normal,
/// along which the push by the depth left the shapes overlapping by 5 times the property
/// test's tolerance (`f32_segment_beside_a_cone_or_cylinder_side_takes_the_curvature_at_the_foot`).
fn foot_curvature<V: Vector>(
    difference: &Difference<'_, V>,
    n: V,
    d: V,
    turned: V,
    e: V::Real,
    size: V::Real,
) -> Option<V::Real> {
    let root_eps = V::Real::EPSILON.sqrt();
    let (p, q) = ruling_ends(difference, n, d, root_eps, size)?;
    let along = d.dot(p.w - q.w);
    // The ends apart along the ruling by more than the turn of `√ε` moves a point smoothly.
    if !(along - V::Real::from_f64(8.0) * root_eps * size).is_positive() {
        return None;
    }
    // The foot: the point of the ruling whose difference lies along `n` (`d·x = 0`).
    let l = (-d.dot(q.w) / along).max(V::Real::ZERO).min(V::Real::ONE);
    let (tp, tq) = ruling_ends(difference, turned, d, root_eps, size)?;
    let t = cross(n, d).direction()?;
    let motion = (tq.w - q.w) * (V::Real::ONE - l) + (tp.w - p.w) * l;
    let h = n.dot(p.w).max(n.dot(q.w));
    Some(t.dot(motion) / e - h)
}

/// The support point of the unit `turned` (the normal turned by `e` across the ruling `d`) at
/// the same end of the ruling as `w`, the support point before the turn, when the turn's own
/// support point `moved` is at the other end (`None` when it is not).
///
/// The normal is orthogonal to `d`, so the ruling's two ends tie along it up to rounding, and
/// the turn may land on the other end: a difference of the ruling's length, whose part across
/// it is rounding of either sign (a hull's edge 0.017 long ending at a cylinder's rim, f32:
/// a negative curvature, and the stall's recovery gave up). The turned normal is then tilted
/// toward `w`'s end by `κ`: enough for the ends' support values to differ by `64 ε size`,
/// decisive against rounding, and at most `e / 8`, so that the tilt's own motion of the
/// curved shape's point stays small next to the turn's.
fn same_end<V: Vector>(
    difference: &Difference<'_, V>,
    turned: V,
    d: V,
    (w, moved): (V, V),
    e: V::Real,
    size: V::Real,
) -> Option<V> {
    let jump = (moved - w).length();
    // A smooth turn by `e` moves the support point by at most `e × size`.
    if jump <= V::Real::from_f64(4.0) * e * size {
        return None;
    }
    let side = if d.dot(w) >= d.dot(moved) { d } else { -d };
    let decisive = V::Real::from_f64(64.0) * V::Real::EPSILON * size / jump;
    let kappa = decisive.min(e / V::Real::from_f64(8.0));
    Some(difference.support((turned + side * kappa).direction()?).w)
}

/// The ends of the ruling along `d` at the unit `normal`: the support points of the normal
/// turned toward `+d` and toward `−d`, by `kappa` doubled until they are apart by more than
/// a smooth turn could move one point (the normal may have left the patch's normals by more
/// than `kappa`, after a long step).
fn ruling_ends<V: Vector>(
    difference: &Difference<'_, V>,
    normal: V,
    d: V,
    mut kappa: V::Real,
    size: V::Real,
) -> Option<Ends<V>> {
    loop {
        let p = difference.support((normal + d * kappa).direction()?);
        let q = difference.support((normal - d * kappa).direction()?);
        let apart = (p.w - q.w).length() > V::Real::from_f64(8.0) * kappa * size;
        if apart || kappa >= V::Real::from_f64(1e-2) {
            return Some((p, q));
        }
        kappa = kappa + kappa;
    }
}

/// A ruling's two ends: `p` toward `+d`, `q` toward `−d`.
type Ends<V> = (SupportPoint<V>, SupportPoint<V>);

/// Where [`ruled`] starts from: how far the normal may be from the answer's.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ruled {
    /// A converged answer's normal (within `√ε`): Newton's method about the first ruling.
    Near,
    /// An expansion that stopped short (its cap, rounding): the normal may be tens of degrees
    /// off along a cone's side, where the depth varies by the square of the distance of the
    /// origin from the axis ([`along_rulings`]).
    Far,
    /// GJK's stall recovery, in f32 too (see [`polish_ruled`]), with the curvature of the
    /// support point's end ([`about_ruling`]).
    Recovering,
    /// The same with the curvature at the ruling's foot ([`foot_curvature`]): the recovery's
    /// first try, the end's where it finds no point.
    RecoveringAtFoot,
}

/// The shape whose own points span a ruling of `A − B` (see [`ruled`]).
#[derive(Clone, Copy)]
enum Spans {
    A,
    B,
}

/// The finite-difference angle of a Newton step (see [`newton_step`]).
#[derive(Clone, Copy, PartialEq)]
enum Angle<R> {
    /// The first step's: `|g| / |w|`, the step to come when the radii of curvature of `D` are
    /// about `|w|`.
    Guess,
    /// The last kept step's angle per unit of `g`, times this `|g|`: the step to come, whatever
    /// the radii of curvature; or the guess where that is smaller, so that no secant is wider
    /// than the first step's rule would make it (a kept first step may have measured its radii
    /// poorly).
    PerUnit(R),
    /// `√ε`, the smallest angle whose difference rounding leaves meaningful.
    Finest,
}

/// One Newton step from `n` (support point `w`, value `h`), its derivatives measured over the
/// `angle`: the unit normal, the step's angle per unit of `|g|` and the finite-difference angle
/// used; or why not: `Err(true)` when there is nothing to polish (the tangential part is lost
/// in rounding, or the support point does not move as the normal turns: a vertex of `D`),
/// `Err(false)` when `H − h I` is not positive definite.
///
/// The angle, within `[√ε, 1e-2]`: a secant of `s` over an angle much wider than the step is
/// not its derivative where the radii of curvature change along it. `|g| / |w|` assumes radii
/// about `|w|` (the depth, near the answer); against a flat ellipse's flank they are `r_max² /
/// r_min` (1.4e4 at depth 8.7, f32: the guess spanned 1e-2 rad, the step 5e-4, and each step
/// shrank `g` by only 0.4–0.6). The angle per unit of `g` of the last step measures the actual
/// radii, so later secants span about their own step. (In f64 EPA's start is within 1e-6 rad
/// and any of these angles converges quadratically; in f32 it may be 1e-2 rad off.)
fn newton_step<V: Vector>(
    difference: &Difference<'_, V>,
    n: V,
    w: V,
    h: V::Real,
    angle: Angle<V::Real>,
) -> Result<(V, V::Real, V::Real), bool> {
    let g = w - n * h;
    let size = w.length();
    let g_len = g.length();
    if !g_len.is_finite() || g_len <= V::Real::from_f64(4.0) * V::Real::EPSILON * size {
        return Err(true);
    }
    let t1 = g * (V::Real::ONE / g_len);
    let root_eps = V::Real::EPSILON.sqrt();
    let e = match angle {
        Angle::Guess => g_len / size,
        Angle::PerUnit(k) => (g_len * k).min(g_len / size),
        Angle::Finest => root_eps,
    };
    let e = e.max(root_eps).min(V::Real::from_f64(1e-2));
    let column = |t: V| {
        let moved = (n + t * e).direction()?;
        Some((difference.support(moved).w - w) * (V::Real::ONE / e))
    };
    let c1 = column(t1).ok_or(false)?;
    if c1 == V::ZERO {
        // The same support point after the turn: a vertex of `D` (polytopes), whose normal
        // cone holds `n`; nothing to polish.
        return Err(true);
    }
    let delta = if V::DIM == 2 {
        // One tangent: (H − h) δ = −|g| along t1.
        let curvature = t1.dot(c1) - h;
        if !curvature.is_positive() {
            return Err(false);
        }
        t1 * -(g_len / curvature)
    } else {
        let t2 = cross(n, t1);
        let c2 = column(t2).ok_or(false)?;
        // The symmetric 2×2 matrix of H − h I in (t1, t2), and g = (|g|, 0) there.
        let m11 = t1.dot(c1) - h;
        let m22 = t2.dot(c2) - h;
        let m12 = (t1.dot(c2) + t2.dot(c1)) * V::Real::HALF;
        let det = m11 * m22 - m12 * m12;
        if !(m11.is_positive() && det.is_positive()) {
            return Err(false);
        }
        // δ = −M⁻¹ (|g|, 0) = −|g| / det × (m22, −m12).
        let scale = g_len / det;
        t2 * (scale * m12) - t1 * (scale * m22)
    };
    let next = (n + delta).direction().ok_or(false)?;
    Ok((next, delta.length() / g_len, e))
}

/// For a stall's recovery, the points of [`ruled`] with the remainder `r` handed out, and
/// whether they are on the shapes (within `rounding`): [`distribute`]'s `split` where it
/// keeps them there, else the whole tangential part `t·r` on the one shape that has room for
/// it. `distribute` measures a shape's room by one tilted support point, the reach of its
/// supporting face toward `∓t`; that is the room only for a face spanning `t`. An edge or a
/// segment at an angle to `t` (a capsule's core) reaches along `t` as well, yet a point moved
/// along `t` leaves it, so each moved point is checked ([`stays_on`]).
fn kept_on_shapes<V: Vector>(
    difference: &Difference<'_, V>,
    n: V,
    (a, b, r): (V, V, V),
    t: V,
    split: (V, V),
    toward: &SupportPoint<V>,
    rounding: V::Real,
) -> (V, V, bool) {
    let tilt = V::Real::EPSILON.sqrt();
    let on_a = |at: V| {
        let side = |w: V| Some(difference.support((n + w * tilt).direction()?).a);
        stays_on(n, (a, at, toward.a), side, rounding)
    };
    let on_b = |at: V| {
        let side = |w: V| Some(difference.support((n - w * tilt).direction()?).b);
        stays_on(n, (b, at, toward.b), side, rounding)
    };
    let normal = n * (n.dot(r) * V::Real::HALF);
    let (x, a_h, b_h) = (t * t.dot(r), a - normal, b + normal);
    [split, (a_h - x, b_h), (a_h, b_h + x)]
        .into_iter()
        .find(|&(p, q)| on_a(p) && on_b(q))
        .map_or((split.0, split.1, false), |(p, q)| (p, q, true))
}

/// Whether `at`, a point of a shape moved across `n` from `from` (on the shape) to hand out a
/// remainder, still lies on the shape to `rounding`: seen along `n`, within the triangle of
/// `from`, `toward` (the shape's support point tilted toward the move, which measured its
/// room) and the support point tilted toward the move's part off the chord to `toward`
/// (`side`, from a unit tangent). The shape is convex, so the triangle is in it.
fn stays_on<V: Vector>(
    n: V,
    (from, at, toward): (V, V, V),
    side: impl Fn(V) -> Option<V>,
    rounding: V::Real,
) -> bool {
    let across = |x: V| x - n * n.dot(x);
    let (m, c) = (across(at - from), across(toward - from));
    if m.length() <= rounding {
        return true;
    }
    let off = match c.direction() {
        Some(d) => m - d * d.dot(m),
        None => m,
    };
    let c2 = match off.direction().filter(|_| off.length() > rounding) {
        Some(w) => match side(w) {
            Some(p) => across(p - from),
            None => return false,
        },
        None => c,
    };
    in_triangle(n, m, c, c2, rounding)
}

/// Whether `m` lies within `rounding` of the triangle `0, c, c2` (all across `n`).
fn in_triangle<V: Vector>(n: V, m: V, c: V, c2: V, rounding: V::Real) -> bool {
    let area = |p: V, q: V| n.dot(cross(p, q));
    let s = area(c, c2);
    let zero = V::Real::ZERO;
    if s != zero
        && s * area(c, m) >= zero
        && s * area(c2 - c, m - c) >= zero
        && s * area(-c2, m - c2) >= zero
    {
        return true;
    }
    let to_segment = |p: V, q: V| (m - closest_on_segment(p, q, m)).length();
    to_segment(V::ZERO, c).min(to_segment(c, c2)).min(to_segment(c2, V::ZERO)) <= rounding
}
