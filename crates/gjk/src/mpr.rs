//! Minkowski Portal Refinement: a boolean test that proves overlap or separation in 3D.
//!
//! Gary Snethen's XenoCollide (Game Programming Gems 7, 2008) works on the cores' Minkowski
//! difference `D = A − B` like GJK, but it needs no simplex sub-algorithm:
//!
//! 1. **Portal discovery.** `v₀`, a point of `D` (a point of A's core minus a point of B's),
//!    starts a ray toward the origin. Three support points `v₁, v₂, v₃` of `D` are chosen so
//!    that the ray passes through their triangle, the *portal*.
//! 2. **Refinement.** If the origin lies on `v₀`'s side of the portal's plane, it lies in the
//!    tetrahedron `v₀v₁v₂v₃`, whose corners are points of `D`: the cores **overlap**.
//!    Otherwise the support point `v₄` along the portal's outward normal `n` is asked for. If
//!    `n·v₄ < 0`, the plane `n·x = n·v₄` leaves all of `D` on one side and the origin `−n·v₄`
//!    beyond it: the cores are **apart** by at least that much. Otherwise `v₄` replaces the
//!    portal corner that keeps the ray inside the new, closer portal, and the step repeats.
//!
//! Both verdicts are proofs, not estimates: one is a tetrahedron of points of `D` around the
//! origin, the other a support plane with the origin outside. What MPR cannot do is measure a
//! gap, so this module only decides what is clear and says so ([`MprStatus`]):
//! * overlapping cores touch, whatever the margins: the shapes intersect;
//! * a support plane proves the shapes apart only when the origin is beyond it by more than
//!   the margins plus twice the touching distance ([`Pair::tolerance`]: the pair's own rule, so
//!   that [`intersects`](crate::intersects()) agrees with `distance` and `contact`); the second
//!   touching distance leaves room for the rounding of `n` and `v₄`, so that no pair within the
//!   touching distance is ever called apart;
//! * the origin closer than that to the boundary of `D` (a gap within the margins, a portal that
//!   converged onto the boundary without deciding), a degenerate portal, or the iteration cap:
//!   no verdict, and [`intersects`](crate::intersects()) runs GJK, which measures the gap.
//!
//! `v₀` must be a point of `D`, so the start points come from the cores' own data where it
//! names one (the centre of a box, ellipsoid or cylinder; a point on a cone's axis) and from
//! [`Support::center`] for a polytope (the hull's vertex mean for [`Polytope`](crate::Polytope);
//! the trait asks a shape's centre to lie inside it). General cores are not routed here (see
//! [`crate::dispatch`]). Every loop is bounded by the options' iteration cap (support calls).

use crate::geometry::cross;
use crate::math::{Pose, Real, Rotation, Vector};
use crate::pair::Pair;
use crate::shape::{Core, Support};

/// How an MPR run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MprStatus {
    /// The origin lies in a tetrahedron of points of the cores' Minkowski difference (or on a
    /// segment of two of them): the cores overlap, the shapes intersect.
    Overlap,
    /// A support plane leaves the origin outside the Minkowski difference by more than the
    /// margins plus twice the touching distance: the shapes are apart.
    Separated,
    /// A support plane leaves the origin outside, but by no more than the margins plus twice
    /// the touching distance: the gap needs measuring (no verdict).
    Near,
    /// The portal reached the boundary (the support plane within the touching distance of
    /// it) without the origin on either side of both: too close to call (no verdict).
    Converged,
    /// A normal could not be formed (collinear portal points, numbers out of range): no
    /// verdict.
    Degenerate,
    /// The cap on support calls was reached (no verdict).
    IterationCap,
    /// A core of a kind MPR does not take, a 2D pair, or a pair whose size is outside
    /// [`Real::QUARTIC_SAFE`] (its triple products would underflow or overflow): no verdict,
    /// no support call.
    Unsupported,
}

/// What an MPR run found: [`Pair::mpr`](crate::Pair::mpr).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MprResult {
    /// How the run ended.
    pub status: MprStatus,
    /// The number of support calls of the Minkowski difference.
    pub iterations: u32,
}

impl MprResult {
    /// `Some(true)` for [`MprStatus::Overlap`], `Some(false)` for [`MprStatus::Separated`],
    /// `None` when the run gave no verdict.
    #[inline]
    pub fn verdict(&self) -> Option<bool> {
        match self.status {
            MprStatus::Overlap => Some(true),
            MprStatus::Separated => Some(false),
            _ => None,
        }
    }
}

/// A point of the core that MPR may start from, in the shape's frame (see
/// [`crate::dispatch`]); `None` for the kinds MPR does not take.
#[inline(always)]
fn start_point<V: Vector, S: Support<V> + ?Sized>(shape: &S) -> Option<V> {
    let start = crate::dispatch::mpr_start(&shape.core())?;
    Some(start.unwrap_or_else(|| shape.center()))
}

impl<'s, V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized> Pair<'s, V, A, B> {
    /// MPR on this pair from the cores' own start points ([`Pair::mpr`](crate::Pair::mpr)),
    /// with the relative tolerance `tolerance` and at most `max_iterations` support calls.
    #[inline]
    pub(crate) fn mpr_run(&self, tolerance: V::Real, max_iterations: u32) -> MprResult {
        let (Some(a), Some(b)) = (start_point(self.a), start_point(self.b)) else {
            return MprResult { status: MprStatus::Unsupported, iterations: 0 };
        };
        self.mpr_from(a, b, tolerance, max_iterations)
    }

    /// MPR from the start points `a` (A's frame) and `b` (B's frame), which must be points of
    /// the cores.
    #[inline(always)]
    pub(crate) fn mpr_from(
        &self,
        a: V,
        b: V,
        tolerance: V::Real,
        max_iterations: u32,
    ) -> MprResult {
        // The portal tests multiply three lengths (a cross product dotted with a point): out
        // of `QUARTIC_SAFE` they underflow to zeros that read as "on the portal" (hulls 1e-307
        // across) or overflow. GJK answers such pairs.
        let [low, high] = V::Real::QUARTIC_SAFE;
        let extents = self.a.extent() + self.b.extent();
        let reach = self.relative.translation().abs_sum() + a.abs_sum() + b.abs_sum() + extents;
        if V::DIM != 3 || !(extents >= low && reach <= high) {
            return MprResult { status: MprStatus::Unsupported, iterations: 0 };
        }
        let frame = Basis::new(&self.relative);
        let v0 = a - frame.transform_point(b);
        // An upper bound of the touching distance (sum norms, no square root): only the
        // separation verdict uses it, where a larger bound is the safe side.
        let touch = self.touch_bound(tolerance);
        let mut walk = Walk {
            frame,
            hints: [0; 2],
            iterations: 0,
            max_iterations,
            apart: crate::tolerance::apart_bound(self.margins(), touch),
        };
        let status = walk.run(self, v0, touch);
        MprResult { status, iterations: walk.iterations }
    }
}

/// B's pose relative to A as a rotation matrix and a translation, built once per run from the
/// rotation's closed form ([`Rotation::columns`]): every support call rotates the direction
/// into B's frame and B's point back, 15 products each by the matrix.
#[derive(Clone, Copy)]
struct Basis<V: Vector> {
    columns: [V; 3],
    translation: V,
}

impl<V: Vector> Basis<V> {
    #[inline(always)]
    fn new(pose: &Pose<V>) -> Self {
        Self { columns: pose.rotation().columns(), translation: pose.translation() }
    }

    /// `R p + t`.
    #[inline(always)]
    fn transform_point(&self, p: V) -> V {
        let [c0, c1, c2] = self.columns;
        c0 * p.component(0) + c1 * p.component(1) + c2 * p.component(2) + self.translation
    }

    /// The support point of the cores' Minkowski difference along `dir` (A's frame).
    #[inline(always)]
    fn support<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &self,
        pair: &Pair<'_, V, A, B>,
        dir: V,
        hints: &mut [u32; 2],
    ) -> V {
        let [c0, c1, c2] = self.columns;
        let a = core_support(pair.a, dir, &mut hints[0]);
        let back = -dir;
        let b_dir = V::from_components([c0.dot(back), c1.dot(back), c2.dot(back)]);
        a - self.transform_point(core_support(pair.b, b_dir, &mut hints[1]))
    }
}

/// The support point of `shape`'s core along `dir`, any length: the shape's own for most
/// kinds, closed forms for cylinders and cones. (The core's kind is known at compile time for
/// a concrete shape type, so the match folds away.) The closed forms take one division and
/// one square root where the shapes' [`Support`] rescale `dir` first and form both of a cone's
/// candidates; they may pick the other of two tied points, which MPR's proofs do not mind (the
/// support value is the same) but which would move GJK's and EPA's rounding, so they stay
/// here. Directions whose `xz` part squares out of the normal range go to the shape.
#[inline(always)]
fn core_support<V: Vector, S: Support<V> + ?Sized>(shape: &S, dir: V, hint: &mut u32) -> V {
    let (x, z) = (dir.component(0), dir.component(2));
    let across = x * x + z * z;
    // A subnormal term of `across` is below its rounding; an overflowed one fails the test.
    let normal = across >= V::Real::MIN_POSITIVE / V::Real::EPSILON && across < V::Real::INFINITY;
    match shape.core() {
        Core::Cylinder { half_height: h, radius: r } if normal => {
            let scale = r / across.sqrt();
            let y = if dir.component(1) < V::Real::ZERO { -h } else { h };
            V::from_components([x * scale, y, z * scale])
        }
        Core::Cone { half_height: h, radius: r } if normal => {
            // With `ρ = |dir_xz|`, the apex reaches `h dir_y` and the base's rim `r ρ − h dir_y`:
            // the rim point is only formed when it wins.
            let rho = across.sqrt();
            if h * dir.component(1) * V::Real::TWO >= r * rho {
                V::from_components([V::Real::ZERO, h, V::Real::ZERO])
            } else {
                let scale = r / rho;
                V::from_components([x * scale, -h, z * scale])
            }
        }
        _ => shape.support_hinted(dir, hint),
    }
}

/// The state of one MPR run, in A's frame.
struct Walk<V: Vector> {
    frame: Basis<V>,
    hints: [u32; 2],
    iterations: u32,
    max_iterations: u32,
    /// A support plane proves the shapes apart when the origin is beyond it by more than
    /// this: margins plus twice the touching distance.
    apart: V::Real,
}

/// What one support call says before the portal moves: go on, or stop with this status.
type Step<V> = Result<V, MprStatus>;

impl<V: Vector> Walk<V> {
    /// The support point of `D` along `n` (of squared length `ll`, see [`scaled`]), or the
    /// run's end: the cap, or a support plane with the origin outside (apart, or too near to
    /// tell).
    #[inline(always)]
    fn support<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &mut self,
        pair: &Pair<'_, V, A, B>,
        (n, ll): (V, V::Real),
    ) -> Step<V> {
        if self.iterations >= self.max_iterations {
            return Err(MprStatus::IterationCap);
        }
        self.iterations += 1;
        let w = self.frame.support(pair, n, &mut self.hints);
        let reach = n.dot(w);
        if reach < V::Real::ZERO {
            // `−reach / |n|` bounds the cores' distance from below; the square root is only
            // taken here, once per run.
            let apart = -reach > self.apart * ll.sqrt();
            return Err(if apart { MprStatus::Separated } else { MprStatus::Near });
        }
        Ok(w)
    }

    fn run<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &mut self,
        pair: &Pair<'_, V, A, B>,
        v0: V,
        converged: V::Real,
    ) -> MprStatus {
        match self.walk(pair, v0, converged) {
            Ok(status) | Err(status) => status,
        }
    }

    /// Portal discovery, then refinement; `Err` carries the statuses that end a run early.
    fn walk<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &mut self,
        pair: &Pair<'_, V, A, B>,
        v0: V,
        converged: V::Real,
    ) -> Result<MprStatus, MprStatus> {
        let degenerate = MprStatus::Degenerate;
        if v0 == V::ZERO {
            // The start point itself, a point of D, is the origin.
            return Ok(MprStatus::Overlap);
        }
        // The ray from v₀ toward the origin: v₁ along it.
        let mut v1 = self.support(pair, scaled(-v0).ok_or(degenerate)?)?;
        let n = cross(v1, v0);
        if n == V::ZERO {
            // The origin is on the line v₀v₁, and between them (v₁ is past it along −v₀).
            return Ok(MprStatus::Overlap);
        }
        let mut v2 = self.support(pair, scaled(n).ok_or(degenerate)?)?;
        let mut n = cross(v1 - v0, v2 - v0);
        if n.dot(v0) > V::Real::ZERO {
            // Orient the triangle v₀v₁v₂ so that its normal faces the origin.
            core::mem::swap(&mut v1, &mut v2);
            n = -n;
        }
        // Find the third corner: the ray must pass through the portal v₁v₂v₃.
        let mut v3;
        loop {
            v3 = self.support(pair, scaled(n).ok_or(degenerate)?)?;
            if cross(v1, v3).dot(v0) < V::Real::ZERO {
                // The origin is outside the face v₀v₁v₃: v₃ replaces v₂.
                v2 = v3;
                n = cross(v1 - v0, v3 - v0);
            } else if cross(v3, v2).dot(v0) < V::Real::ZERO {
                // Outside the face v₀v₃v₂: v₃ replaces v₁.
                v1 = v3;
                n = cross(v3 - v0, v2 - v0);
            } else {
                break;
            }
        }
        // Refinement: move the portal out to the boundary of D until the origin is inside
        // the tetrahedron or outside a support plane.
        loop {
            let (n, ll) = scaled(cross(v2 - v1, v3 - v1)).ok_or(degenerate)?;
            let portal = n.dot(v1);
            if portal >= V::Real::ZERO {
                return Ok(MprStatus::Overlap);
            }
            let v4 = self.support(pair, (n, ll))?;
            // The support plane within `converged` of the portal: `n` is not a unit vector.
            if n.dot(v4) - portal <= converged * ll.sqrt() {
                return Ok(MprStatus::Converged);
            }
            // Keep the ray inside the new portal: the plane through the origin, v₀ and v₄
            // tells which corner v₄ replaces.
            let side = cross(v4, v0);
            if v1.dot(side) > V::Real::ZERO {
                if v2.dot(side) > V::Real::ZERO {
                    v1 = v4;
                } else {
                    v3 = v4;
                }
            } else if v3.dot(side) > V::Real::ZERO {
                v2 = v4;
            } else {
                v1 = v4;
            }
        }
    }
}

/// A direction for a support call and the portal tests, with its squared length: `v` itself
/// when that length exceeds 1e-30, else `v` normalised; `None` for a zero or non-finite `v`.
/// Only signs and support points are taken along it, and the two tests that measure (the
/// separation and the convergence bound) divide by its length, so no normalisation is
/// needed; below 1e-30, products of `v` with points of `D` could underflow (a sign lost). No
/// upper bound is needed: the size gate of [`Pair::mpr_from`] keeps the points of `D` within
/// `reach ≤ QUARTIC_SAFE[1]` of the origin, so the directions (a point, or the cross product
/// of two differences of points) stay below `4 reach²` and their products with points below
/// `8 reach³` (`4e18` and `8e27` in f32).
#[inline(always)]
fn scaled<V: Vector>(v: V) -> Option<(V, V::Real)> {
    let ll = v.length_squared();
    if ll > V::Real::from_f64(1e-30) {
        Some((v, ll))
    } else {
        let u = v.direction()?;
        Some((u, u.length_squared()))
    }
}
