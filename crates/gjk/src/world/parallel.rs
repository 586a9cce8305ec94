//! All cores: the world's narrow phase and batches of independent queries on rayon's pool.
//!
//! # Partitioning
//! The work items are independent and sit in one contiguous slice (the slab of the world's
//! pair states; the caller's poses), so the slice is split in halves recursively by rayon's work
//! stealing down to chunks of at least [`MIN_CHUNK`] items: a core that finishes its half steals
//! half of another's remainder, which evens out pairs of very different cost (a ball against a
//! box in one projection, two hulls through EPA). The broad phase, the merge of the cache and the
//! events stay on one thread: they are linear passes over memory and cost a few percent of the
//! narrow phase. Carrying this further than a few cores would mean splitting the tree queries
//! of the enlarged bodies by body (each writes its own key list, concatenated and sorted after)
//! and the reach-box pass by body.

use rayon::prelude::*;

use super::{refresh, World};
use crate::gjk::distance;
use crate::math::{Pose, Vector};
use crate::shape::Support;

/// The smallest run of items one task takes: enough work (microseconds) to pay for a task.
pub const MIN_CHUNK: usize = 64;

impl<V: Vector, S: Support<V> + Sync> World<V, S> {
    /// [`World::update`] with the narrow phase on all cores of rayon's global pool. The results
    /// and events are the same as [`World::update`]'s, in the same order.
    pub fn update_parallel(&mut self) {
        self.broad_phase();
        let options = self.options.manifold;
        let (bodies, bounds) = (&self.bodies, &self.bounds);
        self.slots
            .par_iter_mut()
            .zip(&mut self.states)
            .with_min_len(MIN_CHUNK)
            .for_each(|(slot, state)| refresh(slot, state, bodies, bounds, &options));
        self.finish();
    }
}

/// The distance between `a` and `b` for each pair of poses, into `out` (the same length as
/// `poses`; extra entries of either are left alone), on all cores.
///
/// ```
/// use gjk::world::distance_batch;
/// use gjk::{Ball, Pose};
/// use glam::DVec3;
/// let ball = Ball::<DVec3>::new(1.0)?;
/// let poses: Vec<_> = (0..1000)
///     .map(|i| (Pose::IDENTITY, Pose::from_translation(DVec3::new(3.0 + i as f64, 0.0, 0.0)).unwrap()))
///     .collect();
/// let mut out = vec![0.0; poses.len()];
/// distance_batch(&ball, &ball, &poses, &mut out);
/// assert!((out[10] - 11.0).abs() < 1e-12);
/// # Ok::<(), gjk::ShapeError>(())
/// ```
pub fn distance_batch<V, A, B>(a: &A, b: &B, poses: &[(Pose<V>, Pose<V>)], out: &mut [V::Real])
where
    V: Vector,
    A: Support<V> + Sync + ?Sized,
    B: Support<V> + Sync + ?Sized,
{
    poses.par_iter().zip(out.par_iter_mut()).with_min_len(MIN_CHUNK).for_each(
        |((pose_a, pose_b), d)| {
            *d = distance(a, pose_a, b, pose_b);
        },
    );
}
