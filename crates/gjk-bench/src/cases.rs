//! Workloads converted into each library's types, with the one call per query that the
//! benchmarks time and the tests compare.

use gjk::{Pose, Real, Support, Vector};

use crate::spec::{
    parry2_f64_pose, parry2_pose, parry3_f64_pose, parry3_pose, BuildError, Placement2, Placement3,
    Space2, Space3, Spec2, Spec3,
};
use crate::workload::Workload;

/// A pair in our library's types.
#[derive(Clone, Debug)]
pub struct OurCase<A, B, V: Vector> {
    /// Shape A.
    pub a: A,
    /// Shape B.
    pub b: B,
    /// A's pose.
    pub pose_a: Pose<V>,
    /// B's pose.
    pub pose_b: Pose<V>,
}

/// One pair's two queries, whatever the library answers them: what the benchmarks loop over
/// and the tests compare. Distances come back as `f64` (exact for `f32` results).
pub trait Query {
    /// Whether the shapes touch or overlap.
    fn intersects(&self) -> bool;
    /// The distance between the shapes (0 when they intersect; NaN if the library refused).
    fn distance(&self) -> f64;
    /// The closest points, as a checksum: the distance plus both points' coordinates (0 when
    /// the shapes intersect; NaN if the library refused).
    fn closest_points(&self) -> f64;
}

/// The checksum of [`Query::closest_points`] for points `a` and `b` apart by `distance`.
#[inline]
fn closest_checksum(distance: f64, a: [f64; 3], b: [f64; 3]) -> f64 {
    distance + a.iter().sum::<f64>() + b.iter().sum::<f64>()
}

impl<V: Vector, A: Support<V>, B: Support<V>> Query for OurCase<A, B, V> {
    /// [`gjk::intersects`] on the pair.
    #[inline]
    fn intersects(&self) -> bool {
        gjk::intersects(&self.a, &self.pose_a, &self.b, &self.pose_b)
    }

    /// [`gjk::distance`] on the pair.
    #[inline]
    fn distance(&self) -> f64 {
        gjk::distance(&self.a, &self.pose_a, &self.b, &self.pose_b).to_f64()
    }

    /// [`gjk::closest_points()`] on the pair.
    #[inline]
    fn closest_points(&self) -> f64 {
        match gjk::closest_points(&self.a, &self.pose_a, &self.b, &self.pose_b) {
            gjk::Proximity::Separated(s) => {
                closest_checksum(s.distance.to_f64(), to_array(s.point_a), to_array(s.point_b))
            }
            gjk::Proximity::Intersecting => 0.0,
        }
    }
}

/// A contact (penetration) answer in world coordinates, as `f64` whatever the library's
/// precision: what the contact benchmarks return and the depth table compares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Depth {
    /// The penetration depth (`> 0` overlap, `≤ 0` touching).
    pub depth: f64,
    /// The unit contact normal from A toward B (the third coordinate is 0 in 2D).
    pub normal: [f64; 3],
}

/// The coordinates of a glam vector (ours or parry's: both are glam types) as `f64`, padded
/// with 0 in 2D.
pub fn to_array<V: Vector>(v: V) -> [f64; 3] {
    [0, 1, 2].map(|i| if i < V::DIM { v.component(i).to_f64() } else { 0.0 })
}

/// The penetration query of a pair with a prediction distance of 0: `None` when the shapes are
/// apart.
pub trait ContactQuery {
    /// The contact of the pair, or `None` when the shapes do not touch.
    fn contact(&self) -> Option<Depth>;
}

impl<V: Vector, A: Support<V>, B: Support<V>> ContactQuery for OurCase<A, B, V> {
    /// [`gjk::contact()`] with prediction 0.
    #[inline]
    fn contact(&self) -> Option<Depth> {
        let c = gjk::contact(&self.a, &self.pose_a, &self.b, &self.pose_b, V::Real::ZERO)?;
        Some(Depth { depth: c.depth.to_f64(), normal: to_array(c.normal) })
    }
}

/// A pair in one of parry's crates' types (`P` is that crate's pose type).
#[derive(Clone, Debug)]
pub struct ParryCase<A, B, P> {
    /// Shape A.
    pub a: A,
    /// Shape B.
    pub b: B,
    /// A's pose.
    pub pose_a: P,
    /// B's pose.
    pub pose_b: P,
}

/// A parry pair queried through parry's GJK directly
/// (`query::details::{intersection_test,distance,contact}_support_map_support_map`), bypassing
/// the dispatcher's special cases (SAT for box–box, point projection for balls): algorithm
/// against algorithm.
#[derive(Clone, Copy, Debug)]
pub struct ParryGjk<'a, C>(pub &'a C);

/// The checksum of parry's `ClosestPoints` (world points), as [`Query::closest_points`].
macro_rules! parry_closest {
    ($parry:ident) => {
        |r: $parry::query::ClosestPoints| match r {
            $parry::query::ClosestPoints::WithinMargin(a, b) => {
                closest_checksum(f64::from((b - a).length()), to_array(a), to_array(b))
            }
            $parry::query::ClosestPoints::Intersecting => 0.0,
            $parry::query::ClosestPoints::Disjoint => f64::NAN,
        }
    };
}

/// [`Query`] for each of parry's crates (their types differ, their API is the same).
macro_rules! parry_queries {
    ($parry:ident) => {
        impl<A: $parry::shape::Shape, B: $parry::shape::Shape> Query
            for ParryCase<A, B, $parry::math::Pose>
        {
            /// parry's public `query::intersection_test`: its dispatcher picks the algorithm
            /// (GJK for general convex shapes, SAT for box–box, point projection with a ball).
            #[inline]
            fn intersects(&self) -> bool {
                let r = $parry::query::intersection_test(&self.pose_a, &self.a, &self.pose_b, &self.b);
                matches!(r, Ok(r) if r.intersecting)
            }

            /// parry's public `query::distance` (dispatched like [`Query::intersects`]).
            #[inline]
            fn distance(&self) -> f64 {
                let r = $parry::query::distance(&self.pose_a, &self.a, &self.pose_b, &self.b);
                r.map_or(f64::NAN, |r| f64::from(r.distance))
            }

            /// parry's public `query::closest_points` with no distance limit.
            #[inline]
            fn closest_points(&self) -> f64 {
                let max = $parry::math::Real::MAX;
                let r = $parry::query::closest_points(&self.pose_a, &self.a, &self.pose_b, &self.b, max);
                r.map_or(f64::NAN, parry_closest!($parry))
            }
        }

        impl<A: $parry::shape::SupportMap, B: $parry::shape::SupportMap> Query
            for ParryGjk<'_, ParryCase<A, B, $parry::math::Pose>>
        {
            #[inline]
            fn intersects(&self) -> bool {
                let c = self.0;
                let pos12 = c.pose_a.inv_mul(&c.pose_b);
                $parry::query::details::intersection_test_support_map_support_map(&pos12, &c.a, &c.b)
            }

            #[inline]
            fn distance(&self) -> f64 {
                let c = self.0;
                let pos12 = c.pose_a.inv_mul(&c.pose_b);
                let d = $parry::query::details::distance_support_map_support_map(&pos12, &c.a, &c.b);
                f64::from(d)
            }

            #[inline]
            fn closest_points(&self) -> f64 {
                use $parry::query::details::closest_points_support_map_support_map as closest;
                let c = self.0;
                let pos12 = c.pose_a.inv_mul(&c.pose_b);
                let r = closest(&pos12, &c.a, &c.b, $parry::math::Real::MAX);
                parry_closest!($parry)(r.transform_by(&c.pose_a, &c.pose_b))
            }
        }

        impl<A: $parry::shape::Shape, B: $parry::shape::Shape> ContactQuery
            for ParryCase<A, B, $parry::math::Pose>
        {
            /// parry's public `query::contact` with prediction 0 (dispatched: point projection
            /// when a ball meets a convex shape, GJK then EPA otherwise).
            #[inline]
            fn contact(&self) -> Option<Depth> {
                let c = $parry::query::contact(&self.pose_a, &self.a, &self.pose_b, &self.b, 0.0);
                let c = c.ok().flatten()?;
                Some(Depth { depth: -f64::from(c.dist), normal: to_array(c.normal1) })
            }
        }

        impl<A: $parry::shape::SupportMap, B: $parry::shape::SupportMap> ContactQuery
            for ParryGjk<'_, ParryCase<A, B, $parry::math::Pose>>
        {
            /// parry's GJK then EPA (`query::details::contact_support_map_support_map`),
            /// whatever the shapes; its answer is in A's frame and is turned into the world's.
            #[inline]
            fn contact(&self) -> Option<Depth> {
                let c = self.0;
                let pos12 = c.pose_a.inv_mul(&c.pose_b);
                let k = $parry::query::details::contact_support_map_support_map(&pos12, &c.a, &c.b, 0.0)?;
                Some(Depth { depth: -f64::from(k.dist), normal: to_array(c.pose_a.rotation * k.normal1) })
            }
        }
    };
}

parry_queries!(parry2d);
parry_queries!(parry3d);
parry_queries!(parry2d_f64);
parry_queries!(parry3d_f64);

/// Our pairs of a 3D workload.
pub type OurCases3<A, B, V> = Vec<OurCase<<A as Spec3>::Ours<V>, <B as Spec3>::Ours<V>, V>>;
/// Our pairs of a 2D workload.
pub type OurCases2<A, B, V> = Vec<OurCase<<A as Spec2>::Ours<V>, <B as Spec2>::Ours<V>, V>>;
/// parry3d's pairs of a 3D workload.
pub type ParryCases3<A, B> =
    Vec<ParryCase<<A as Spec3>::Parry, <B as Spec3>::Parry, parry3d::math::Pose>>;
/// parry3d-f64's pairs of a 3D workload.
pub type ParryCases3F64<A, B> =
    Vec<ParryCase<<A as Spec3>::ParryF64, <B as Spec3>::ParryF64, parry3d_f64::math::Pose>>;
/// parry2d's pairs of a 2D workload.
pub type ParryCases2<A, B> =
    Vec<ParryCase<<A as Spec2>::Parry, <B as Spec2>::Parry, parry2d::math::Pose>>;
/// parry2d-f64's pairs of a 2D workload.
pub type ParryCases2F64<A, B> =
    Vec<ParryCase<<A as Spec2>::ParryF64, <B as Spec2>::ParryF64, parry2d_f64::math::Pose>>;

impl<A: Spec3, B: Spec3> Workload<A, B, Placement3> {
    /// The pairs in our types, in `f32` (`Vec3`) or `f64` (`DVec3`).
    pub fn ours<V: Space3>(&self) -> Result<OurCases3<A, B, V>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                Ok(OurCase {
                    a: c.a.ours()?,
                    b: c.b.ours()?,
                    pose_a: V::pose(&c.pose_a)?,
                    pose_b: V::pose(&c.pose_b)?,
                })
            })
            .collect()
    }

    /// The pairs in parry3d's (f32) types.
    pub fn parry(&self) -> Result<ParryCases3<A, B>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                Ok(ParryCase {
                    a: c.a.parry()?,
                    b: c.b.parry()?,
                    pose_a: parry3_pose(&c.pose_a),
                    pose_b: parry3_pose(&c.pose_b),
                })
            })
            .collect()
    }

    /// The pairs in parry3d-f64's types.
    pub fn parry_f64(&self) -> Result<ParryCases3F64<A, B>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                Ok(ParryCase {
                    a: c.a.parry_f64()?,
                    b: c.b.parry_f64()?,
                    pose_a: parry3_f64_pose(&c.pose_a),
                    pose_b: parry3_f64_pose(&c.pose_b),
                })
            })
            .collect()
    }
}

impl<A: Spec2, B: Spec2> Workload<A, B, Placement2> {
    /// The pairs in our types, in `f32` (`Vec2`) or `f64` (`DVec2`).
    pub fn ours<V: Space2>(&self) -> Result<OurCases2<A, B, V>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                Ok(OurCase {
                    a: c.a.ours()?,
                    b: c.b.ours()?,
                    pose_a: V::pose(&c.pose_a)?,
                    pose_b: V::pose(&c.pose_b)?,
                })
            })
            .collect()
    }

    /// The pairs in parry2d's (f32) types.
    pub fn parry(&self) -> Result<ParryCases2<A, B>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                Ok(ParryCase {
                    a: c.a.parry()?,
                    b: c.b.parry()?,
                    pose_a: parry2_pose(&c.pose_a),
                    pose_b: parry2_pose(&c.pose_b),
                })
            })
            .collect()
    }

    /// The pairs in parry2d-f64's types.
    pub fn parry_f64(&self) -> Result<ParryCases2F64<A, B>, BuildError> {
        self.cases
            .iter()
            .map(|c| {
                Ok(ParryCase {
                    a: c.a.parry_f64()?,
                    b: c.b.parry_f64()?,
                    pose_a: parry2_f64_pose(&c.pose_a),
                    pose_b: parry2_f64_pose(&c.pose_b),
                })
            })
            .collect()
    }
}
