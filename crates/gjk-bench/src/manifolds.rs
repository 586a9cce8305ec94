//! Contact manifolds on the standard workloads: ours ([`gjk::manifold`]) against parry's
//! (`PersistentQueryDispatcher::contact_manifolds` of its `DefaultQueryDispatcher`), on the
//! same pairs, prediction 0.
//!
//! parry keeps a manifold per pair between calls (its intended use: the points' storage is
//! reused, and its convex–convex path starts from the last normal), timed as `parry`; a call
//! that starts from no manifold, as ours always does (on the stack), is timed as
//! `parry_cold`. Both answer the number of points and the deepest point's depth, which the
//! tests compare.

use std::cell::RefCell;

use gjk::{ManifoldOptions, Real, Support, Vector};

use crate::cases::{OurCase, ParryCase};

/// What a manifold query returns to the benchmark: the number of points and the largest depth
/// (`None` when there are no points).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Patch {
    /// How many points.
    pub points: usize,
    /// The deepest point's depth (`> 0` overlap).
    pub max_depth: f64,
}

/// One pair's manifold query.
pub trait ManifoldQuery {
    /// The manifold of the pair with prediction 0, or `None` when it has no points.
    fn manifold(&self) -> Option<Patch>;
}

impl<V: Vector, A: Support<V>, B: Support<V>> ManifoldQuery for OurCase<A, B, V> {
    #[inline]
    fn manifold(&self) -> Option<Patch> {
        let m = gjk::manifold(
            &self.a,
            &self.pose_a,
            &self.b,
            &self.pose_b,
            &ManifoldOptions::default(),
        );
        let max_depth = m.max_depth()?.to_f64();
        Some(Patch { points: m.points().len(), max_depth })
    }
}

/// A parry pair type and the manifold type its crate keeps.
pub trait ParryPair {
    /// The crate's `ContactManifold<(), ()>`.
    type Manifold;
}

/// A parry pair with the manifolds parry keeps between calls.
pub struct ParryManifold<'a, C: ParryPair> {
    /// The pair.
    pub case: &'a C,
    /// parry's persistent manifolds for the pair.
    manifolds: RefCell<Vec<C::Manifold>>,
    /// Whether every call starts from no manifold (no state from the last call: a cold query
    /// like ours, paying parry's allocation of the points).
    cold: bool,
}

impl<'a, C: ParryPair> ParryManifold<'a, C> {
    /// The pair, with no manifolds yet; parry keeps them between calls.
    pub fn new(case: &'a C) -> Self {
        Self { case, manifolds: RefCell::new(Vec::new()), cold: false }
    }

    /// The pair queried cold: the manifolds are dropped before every call.
    pub fn cold(case: &'a C) -> Self {
        Self { cold: true, ..Self::new(case) }
    }
}

macro_rules! parry_manifolds {
    ($parry:ident) => {
        impl<A, B> ParryPair for ParryCase<A, B, $parry::math::Pose> {
            type Manifold = $parry::query::ContactManifold<(), ()>;
        }

        impl<A: $parry::shape::Shape, B: $parry::shape::Shape> ManifoldQuery
            for ParryManifold<'_, ParryCase<A, B, $parry::math::Pose>>
        {
            #[inline]
            fn manifold(&self) -> Option<Patch> {
                use $parry::query::{DefaultQueryDispatcher, PersistentQueryDispatcher};
                let c = self.case;
                let pos12 = c.pose_a.inv_mul(&c.pose_b);
                let mut manifolds = self.manifolds.borrow_mut();
                if self.cold {
                    manifolds.clear();
                }
                // Convex pairs never use the workspace (composite shapes do).
                let mut workspace = None;
                DefaultQueryDispatcher
                    .contact_manifolds(&pos12, &c.a, &c.b, 0.0, &mut manifolds, &mut workspace)
                    .ok()?;
                let mut count = 0;
                let mut max_depth = f64::NEG_INFINITY;
                for m in manifolds.iter() {
                    for p in &m.points {
                        count += 1;
                        max_depth = max_depth.max(-f64::from(p.dist));
                    }
                }
                (count > 0).then_some(Patch { points: count, max_depth })
            }
        }
    };
}

parry_manifolds!(parry2d);
parry_manifolds!(parry3d);
parry_manifolds!(parry2d_f64);
parry_manifolds!(parry3d_f64);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload;
    use glam::{DVec2, DVec3};

    /// Both libraries find a manifold on the same pairs (up to touching ones), with the same
    /// deepest depth (the penetration depth, up to parry's EPA tolerance) on the pairs where
    /// both clip a patch.
    fn agree<O: ManifoldQuery, P: ManifoldQuery>(
        name: &str,
        ours: &[O],
        parry: &[P],
        tolerance: f64,
    ) {
        let (mut both, mut disagree) = (0, 0);
        for (i, (o, p)) in ours.iter().zip(parry).enumerate() {
            match (o.manifold(), p.manifold()) {
                (Some(o), Some(p)) => {
                    both += 1;
                    if (o.max_depth - p.max_depth).abs() > tolerance {
                        disagree += 1;
                        eprintln!("{name} pair {i}: ours {o:?}, parry {p:?}");
                    }
                }
                (None, None) => {}
                (o, p) => {
                    let depth = o.or(p).unwrap().max_depth;
                    assert!(depth.abs() < 1e-6, "{name} pair {i}: ours {o:?}, parry {p:?}");
                }
            }
        }
        assert!(both > ours.len() / 4, "{name}: only {both} manifolds");
        assert!(disagree * 50 <= both, "{name}: {disagree} of {both} disagree");
    }

    #[test]
    fn ours_and_parrys_agree_on_the_workloads() {
        let w = workload::box_box();
        let (ours, parry) = (w.ours::<DVec3>().unwrap(), w.parry_f64().unwrap());
        let parry: Vec<_> = parry.iter().map(ParryManifold::new).collect();
        agree("box_box", &ours, &parry, 1e-6);
        let w = workload::capsule_box();
        let (ours, parry) = (w.ours::<DVec3>().unwrap(), w.parry_f64().unwrap());
        let parry: Vec<_> = parry.iter().map(ParryManifold::new).collect();
        agree("capsule_box", &ours, &parry, 1e-4);
        let w = workload::hull_32();
        let (ours, parry) = (w.ours::<DVec3>().unwrap(), w.parry_f64().unwrap());
        let parry: Vec<_> = parry.iter().map(ParryManifold::new).collect();
        agree("hull_32", &ours, &parry, 1e-4);
        let w = workload::polygon_8();
        let (ours, parry) = (w.ours::<DVec2>().unwrap(), w.parry_f64().unwrap());
        let parry: Vec<_> = parry.iter().map(ParryManifold::new).collect();
        agree("polygon_8", &ours, &parry, 1e-6);
    }
}
