//! Many bodies: a collision world with a broad phase, a pair cache and contact events.
//!
//! A [`World`] holds bodies (a shape and a pose each). Each [`World::update`]:
//! 1. **Bounds.** Every body whose pose changed gets its tight box ([`Support::aabb`]) grown
//!    by half the prediction distance and the touching tolerance: its *reach*. When the reach
//!    leaves the body's *fat* box (the reach grown by [`WorldOptions::margin`]), the fat box
//!    is rebuilt and the body's leaf in the [`AabbTree`] moves. Bodies that move a little
//!    stay inside their fat boxes and touch nothing. When more than a quarter of the leaves
//!    moved (the first frame), the tree is rebuilt top down instead ([`AabbTree::rebuild`]);
//!    new bodies join the tree at the update, all at once.
//! 2. **New pairs.** Only the bodies whose fat box moved query the tree: every pair whose fat
//!    boxes overlap is in the pair cache, and that set changes only when a fat box does.
//! 3. **Pair cache.** One sorted pass merges the new pairs into the cache (kept sorted by body
//!    ids, so the order is deterministic and independent of the tree's shape) and drops the
//!    pairs whose fat boxes parted or whose body was removed. The sorted list holds only the
//!    two bodies and a slot; each pair's flags stay in that slot of a slab of 12-byte records
//!    and its state (warm start, manifold) at the same index of a second slab, so the merge
//!    and the passes over every candidate move little memory.
//! 4. **Narrow phase** on the pairs that have a body whose pose changed (the others keep their
//!    manifold): the contact manifold ([`Pair::manifold_with`](crate::Pair::manifold_with):
//!    one contact query, then the features along its normal clipped to up to 2 points in 2D,
//!    4 in 3D, each with a feature id) with the pair's own [`WarmStart`](crate::WarmStart),
//!    kept for as long as the pair stays in the cache. With the `rayon` feature,
//!    `World::update_parallel` (feature `rayon`) runs this step on all cores.
//! 5. **Events**: [`ContactEvent::Begin`] when a pair's manifold gets points,
//!    [`ContactEvent::End`] when it loses them (the pair parted, or a body was removed), sorted
//!    by body ids.
//!
//! Nothing allocates in a frame once the buffers have grown to the scene's size (the tree's
//! nodes, the cache, the scratch lists keep their capacity).
//!
//! A pair is *in contact* when its manifold has points, which is when the contact query under
//! it (the world's [`ManifoldOptions`]) answers a contact: with prediction 0, exactly when
//! [`intersects`](crate::intersects) holds (touching counts); with a prediction `δ`, when the
//! shapes are at most `δ` apart. [`World::contacts`] lends each such pair's
//! [`ManifoldResult`]: the normal (A toward B, the lower body id being A), the points on each
//! body with their depths and [`ContactId`](crate::ContactId)s — the same ids from frame to
//! frame while the same features touch, for a solver's warm start — and how it was found. The
//! manifold is the one [`manifold`](crate::manifold()) gives for the same two bodies.
//!
//! ```
//! use gjk::world::{ContactEvent, World, WorldOptions};
//! use gjk::{Ball, Cuboid, ManifoldStatus, Pose, Shape};
//! use glam::Vec2;
//!
//! let mut world = World::<Vec2, Shape<Vec2>>::new(WorldOptions::default());
//! let floor = world.insert(Cuboid::new(Vec2::new(10.0, 0.5))?.into(), Pose::IDENTITY);
//! let ball = world.insert(Ball::new(0.5)?.into(), Pose::from_translation(Vec2::new(0.0, 3.0))?);
//! world.update();
//! assert_eq!(world.contacts().count(), 0);
//!
//! world.set_pose(ball, Pose::from_translation(Vec2::new(0.0, 0.9))?);
//! world.update();
//! assert_eq!(world.events(), [ContactEvent::Begin(floor, ball)]);
//! let (a, b, manifold) = world.contacts().next().unwrap();
//! assert_eq!((a, b), (floor, ball));
//! assert_eq!(manifold.status, ManifoldStatus::SinglePoint); // a ball touches at one point
//! assert!((manifold.points()[0].depth - 0.1).abs() < 1e-5);
//!
//! // A crate on the floor, sunk 0.05 into it: the patch is its bottom edge, two points in 2D.
//! let crate_box = Cuboid::new(Vec2::new(0.5, 0.5))?.into();
//! let on_floor = world.insert(crate_box, Pose::from_translation(Vec2::new(3.0, 0.95))?);
//! world.update();
//! let (_, _, patch) = world.contacts().find(|&(_, b, _)| b == on_floor).unwrap();
//! assert_eq!(patch.points().len(), 2);
//! assert!((patch.normal - Vec2::Y).length() < 1e-6);
//! for p in patch.points() {
//!     assert!((p.depth - 0.05).abs() < 1e-5);
//! }
//! # Ok::<(), gjk::ShapeError>(())
//! ```

mod narrow;
#[cfg(feature = "rayon")]
mod parallel;
mod tree;

use alloc::vec::Vec;
use core::mem;

use crate::bounds::Aabb;
use crate::cast::{ray_cast, Ray, RayHit};
use crate::manifold::{ManifoldOptions, ManifoldResult};
use crate::math::{Pose, Real, Vector};
use crate::shape::Support;
use narrow::{narrow_phase, PairState};
#[cfg(feature = "rayon")]
pub use parallel::{distance_batch, MIN_CHUNK};
pub use tree::{AabbTree, ProxyId};

/// A body's handle: its index in the world, valid until it is removed (the index is reused
/// by a later insert, after the next update).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyId(u32);

impl BodyId {
    /// The body's index (bodies are numbered in insertion order, from 0, reusing the indices
    /// of removed bodies).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The handle of the body at `index` (for ids read back from files or logs; an index with
    /// no live body behind it is answered `None` by the world's accessors).
    #[inline]
    pub fn from_index(index: usize) -> Self {
        Self(index as u32)
    }
}

/// A change of contact between two bodies, `a < b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ContactEvent {
    /// The pair came into contact this update.
    Begin(BodyId, BodyId),
    /// The pair was in contact and is not any more (or a body was removed).
    End(BodyId, BodyId),
}

impl ContactEvent {
    /// The two bodies, `a < b`.
    #[inline]
    pub fn bodies(&self) -> (BodyId, BodyId) {
        match *self {
            Self::Begin(a, b) | Self::End(a, b) => (a, b),
        }
    }
}

/// Tuning of a [`World`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldOptions<R> {
    /// The narrow phase's options (the contact query's and the clipping's); its `prediction`
    /// also widens the boxes, so pairs up to that gap are found.
    pub manifold: ManifoldOptions<R>,
    /// How far a fat box reaches beyond its body (world units, `≥ 0`): larger margins mean
    /// fewer tree updates and more candidate pairs. Box2D's choice of 0.1 (for bodies of
    /// about unit size) is the default.
    pub margin: R,
}

impl<R: Real> Default for WorldOptions<R> {
    fn default() -> Self {
        Self { manifold: ManifoldOptions::default(), margin: R::from_f64(0.1) }
    }
}

/// A body's shape and pose: read by the narrow phase only for pairs whose boxes meet.
#[derive(Clone, Debug)]
struct Body<V: Vector, S> {
    shape: S,
    pose: Pose<V>,
    proxy: ProxyId,
}

/// A body's boxes and flags, apart from its shape: the broad phase and the pair cache read
/// these for every pair every frame, so they sit together in a compact array.
#[derive(Clone, Copy, Debug)]
struct Bounds<V> {
    /// The tight box grown by half the prediction and the touching tolerance.
    reach: Aabb<V>,
    /// The tree's box: the reach grown by the margin when it was last rebuilt.
    fat: Aabb<V>,
    /// The body exists (a removed body's slot is dead until reused).
    live: bool,
    /// The pose changed since the last update.
    dirty: bool,
    /// The fat box changed since the last update (or the body is new).
    enlarged: bool,
}

/// A candidate pair in the cache (fat boxes that overlap): its bodies and where its state
/// lives. The cache's order is this small record's; the states stay put in their slabs, so the
/// merge of a frame moves twelve bytes per pair, not the warm-start cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PairKey {
    a: u32,
    b: u32,
    slot: u32,
}

impl PairKey {
    #[inline]
    fn bodies(&self) -> (u32, u32) {
        (self.a, self.b)
    }
}

/// The bookkeeping of a cached pair, in the slab of slots: twelve bytes, apart from the pair's
/// [`PairState`] (warm start and manifold, 340 bytes for f32 3D) in the slab of states at the
/// same index. The passes over every candidate (the merge's flags, the narrow phase's box test,
/// the events) read these only; a pair's state is read when its reach boxes meet or it was in
/// contact, a quarter of the candidates in a typical scene.
#[derive(Clone, Copy, Debug)]
struct PairSlot {
    a: u32,
    b: u32,
    /// In contact: after the previous update until the narrow phase runs, after it then.
    touching: bool,
    /// The narrow phase changed `touching` this update (an event to report).
    changed: bool,
    /// The narrow phase must run this update (false in free slots).
    refresh: bool,
}

/// Bodies, their broad phase, their pair cache and contacts. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct World<V: Vector, S> {
    options: WorldOptions<V::Real>,
    bodies: Vec<Option<Body<V, S>>>,
    /// The bodies' boxes and flags, by body index.
    bounds: Vec<Bounds<V>>,
    tree: AabbTree<V>,
    /// The cached pairs, sorted by `(a, b)`.
    pairs: Vec<PairKey>,
    /// The cached pairs' bookkeeping (`PairKey::slot`), and the free slots.
    slots: Vec<PairSlot>,
    /// The cached pairs' warm starts and manifolds, at the same indices as `slots`.
    states: Vec<PairState<V>>,
    free_slots: Vec<u32>,
    /// Slots free for insertion.
    free: Vec<u32>,
    /// Slots removed since the last update (freed after it, so the update can end their pairs).
    removed: Vec<u32>,
    /// Bodies whose pose changed since the last update.
    dirty: Vec<u32>,
    events: Vec<ContactEvent>,
    // Per-frame scratch, kept for its capacity.
    enlarged: Vec<u32>,
    new_keys: Vec<(u32, u32)>,
    merged: Vec<PairKey>,
}

impl<V: Vector, S: Support<V>> World<V, S> {
    /// An empty world.
    pub fn new(options: WorldOptions<V::Real>) -> Self {
        Self {
            options,
            bodies: Vec::new(),
            bounds: Vec::new(),
            tree: AabbTree::new(),
            pairs: Vec::new(),
            slots: Vec::new(),
            states: Vec::new(),
            free_slots: Vec::new(),
            free: Vec::new(),
            removed: Vec::new(),
            dirty: Vec::new(),
            events: Vec::new(),
            enlarged: Vec::new(),
            new_keys: Vec::new(),
            merged: Vec::new(),
        }
    }

    /// The options.
    pub fn options(&self) -> &WorldOptions<V::Real> {
        &self.options
    }

    /// Adds a body; its pairs appear at the next update.
    pub fn insert(&mut self, shape: S, pose: Pose<V>) -> BodyId {
        let reach = self.reach(&shape, &pose);
        let fat = reach.loosened(self.margin());
        let index = match self.free.pop() {
            Some(index) => index,
            None => {
                self.bodies.push(None);
                self.bounds.push(Bounds { reach, fat, live: false, dirty: false, enlarged: false });
                (self.bodies.len() - 1) as u32
            }
        };
        let proxy = self.tree.insert_deferred(fat, index);
        self.bodies[index as usize] = Some(Body { shape, pose, proxy });
        self.bounds[index as usize] =
            Bounds { reach, fat, live: true, dirty: true, enlarged: true };
        self.dirty.push(index);
        self.enlarged.push(index);
        BodyId(index)
    }

    /// Removes a body and returns its shape (`None` if there is no such body). Its contacts
    /// end at the next update.
    pub fn remove(&mut self, id: BodyId) -> Option<S> {
        let body = self.bodies.get_mut(id.index())?.take()?;
        self.bounds[id.index()].live = false;
        self.tree.remove(body.proxy);
        self.removed.push(id.0);
        Some(body.shape)
    }

    /// Moves a body (an error-free setter: poses are validated when built). Returns `false`
    /// if there is no such body.
    pub fn set_pose(&mut self, id: BodyId, pose: Pose<V>) -> bool {
        let Some(Some(body)) = self.bodies.get_mut(id.index()) else { return false };
        body.pose = pose;
        let bounds = &mut self.bounds[id.index()];
        if !bounds.dirty {
            bounds.dirty = true;
            self.dirty.push(id.0);
        }
        true
    }

    /// The number of bodies.
    pub fn len(&self) -> usize {
        self.bodies.len() - self.free.len() - self.removed.len()
    }

    /// Whether the world has no bodies.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A body's shape.
    pub fn shape(&self, id: BodyId) -> Option<&S> {
        self.body(id).map(|b| &b.shape)
    }

    /// A body's pose.
    pub fn pose(&self, id: BodyId) -> Option<&Pose<V>> {
        self.body(id).map(|b| &b.pose)
    }

    /// A body's box as of the last update (or insertion): its tight box grown by half the
    /// prediction and the touching tolerance.
    pub fn aabb(&self, id: BodyId) -> Option<&Aabb<V>> {
        self.body(id).map(|_| &self.bounds[id.index()].reach)
    }

    /// The live bodies, in index order.
    pub fn bodies(&self) -> impl Iterator<Item = BodyId> + '_ {
        self.bodies.iter().enumerate().filter(|(_, b)| b.is_some()).map(|(i, _)| BodyId(i as u32))
    }

    /// The broad phase's tree (its leaves carry body indices).
    pub fn tree(&self) -> &AabbTree<V> {
        &self.tree
    }

    /// The pairs in contact after the last update, sorted by `(a, b)` with `a < b`, each with
    /// its manifold (A is `a`: the normal points from `a` toward `b`; never without points).
    pub fn contacts(&self) -> impl Iterator<Item = (BodyId, BodyId, &ManifoldResult<V>)> + '_ {
        self.pairs.iter().filter_map(|k| {
            let slot = k.slot as usize;
            self.slots[slot]
                .touching
                .then(|| (BodyId(k.a), BodyId(k.b), &self.states[slot].manifold))
        })
    }

    /// The number of candidate pairs (fat boxes overlapping) in the cache.
    pub fn candidate_pairs(&self) -> usize {
        self.pairs.len()
    }

    /// The contact events of the last update, sorted by `(a, b)`.
    pub fn events(&self) -> &[ContactEvent] {
        &self.events
    }

    /// Calls `visit` for every body whose box (as of the last update) intersects `aabb`, until
    /// it returns `false`. Bodies come in the tree's order.
    pub fn query_aabb(&self, aabb: &Aabb<V>, mut visit: impl FnMut(BodyId) -> bool) {
        self.tree.query(aabb, |_, index| {
            let bounds = &self.bounds[index as usize];
            if bounds.live && bounds.reach.intersects(aabb) {
                visit(BodyId(index))
            } else {
                true
            }
        });
    }

    /// The first body the ray hits within `max_toi`, with the hit (ties: the smaller index).
    /// The tree prunes by boxes; each candidate runs [`ray_cast`].
    pub fn cast_ray(&self, ray: &Ray<V>, max_toi: V::Real) -> Option<(BodyId, RayHit<V>)> {
        let mut best: Option<(BodyId, RayHit<V>)> = None;
        self.tree.ray(ray.origin, ray.direction, max_toi, |_, index| {
            let reach = best.map_or(max_toi, |(_, h)| h.toi);
            let Some(body) = self.bodies[index as usize].as_ref() else { return reach };
            if let Some(hit) = ray_cast(&body.shape, &body.pose, ray, reach) {
                let better = match best {
                    None => true,
                    Some((id, h)) => hit.toi < h.toi || (hit.toi == h.toi && index < id.0),
                };
                if better {
                    best = Some((BodyId(index), hit));
                }
            }
            best.map_or(max_toi, |(_, h)| h.toi)
        });
        best
    }

    /// Runs one frame: bounds, new pairs, pair cache, narrow phase, events (see the
    /// [module docs](self)).
    pub fn update(&mut self) {
        self.broad_phase();
        let options = self.options.manifold;
        let (bodies, bounds) = (&self.bodies, &self.bounds);
        for (slot, state) in self.slots.iter_mut().zip(&mut self.states) {
            refresh(slot, state, bodies, bounds, &options);
        }
        self.finish();
    }

    fn body(&self, id: BodyId) -> Option<&Body<V, S>> {
        self.bodies.get(id.index())?.as_ref()
    }

    fn margin(&self) -> V::Real {
        self.options.margin.max(V::Real::ZERO)
    }

    /// The shape's tight box grown by half the prediction (two shapes within the prediction
    /// have reach boxes that meet) and by a pad for the touching tolerance (relative to the
    /// pair's size: twice the relative tolerance of the box's half extents' sum) and for the
    /// rounding of the world coordinates (a few ulps of the largest).
    fn reach(&self, shape: &S, pose: &Pose<V>) -> Aabb<V> {
        let tight = shape.aabb(pose);
        let prediction = self.options.manifold.prediction;
        let half_prediction =
            if prediction > V::Real::ZERO { prediction * V::Real::HALF } else { V::Real::ZERO };
        let size = tight.half_extents().abs_sum();
        let place = tight.min.max_abs().max(tight.max.max_abs());
        let tolerance = self.options.manifold.gjk.tolerance.max(V::Real::ZERO);
        let pad =
            V::Real::TWO * tolerance * size + V::Real::from_f64(4.0) * V::Real::EPSILON * place;
        tight.loosened(half_prediction + pad)
    }

    /// Steps 1 to 3: refreshes the boxes, finds new pairs, merges the cache and marks the
    /// pairs whose narrow phase must run.
    fn broad_phase(&mut self) {
        self.events.clear();
        self.refresh_boxes();
        self.find_new_pairs();
        self.merge_pairs();
    }

    fn refresh_boxes(&mut self) {
        let margin = self.margin();
        for i in 0..self.dirty.len() {
            let index = self.dirty[i];
            let Some(body) = self.bodies[index as usize].as_ref() else { continue };
            let reach = self.reach(&body.shape, &body.pose);
            let bounds = &mut self.bounds[index as usize];
            bounds.reach = reach;
            if bounds.fat.contains(&reach) {
                continue;
            }
            bounds.fat = reach.loosened(margin);
            self.tree.update(body.proxy, bounds.fat);
            if !bounds.enlarged {
                bounds.enlarged = true;
                self.enlarged.push(index);
            }
        }
        // When much of the tree moved (a reset), one top-down rebuild makes a better tree than
        // the same leaves inserted one at a time, in less time than the queries it speeds up.
        // New bodies wait for the flush, which makes the same choice.
        if self.enlarged.len() > 64 && self.enlarged.len() * 4 > self.tree.len() {
            self.tree.rebuild();
        } else {
            self.tree.flush();
        }
    }

    fn find_new_pairs(&mut self) {
        self.new_keys.clear();
        let (bounds, tree, keys) = (&self.bounds, &self.tree, &mut self.new_keys);
        for &i in &self.enlarged {
            let body = &bounds[i as usize];
            if !body.live {
                continue;
            }
            tree.query(&body.fat, |_, j| {
                // A pair of two enlarged bodies is reported by the larger index only.
                if j != i && !(bounds[j as usize].enlarged && j < i) {
                    keys.push((i.min(j), i.max(j)));
                }
                true
            });
        }
        self.new_keys.sort_unstable();
    }

    /// Drops the cached pairs whose body went or whose fat boxes parted (with an end event if
    /// they touched), marks the others for the narrow phase if a body moved, and merges in the
    /// new pairs: two sorted lists, one pass.
    fn merge_pairs(&mut self) {
        let (bounds, slots, events) = (&self.bounds, &mut self.slots, &mut self.events);
        let free_slots = &mut self.free_slots;
        self.pairs.retain(|key| {
            let slot = &mut slots[key.slot as usize];
            let (a, b) = (&bounds[key.a as usize], &bounds[key.b as usize]);
            if a.live && b.live && a.fat.intersects(&b.fat) {
                slot.refresh = a.dirty || b.dirty;
                return true;
            }
            if slot.touching {
                events.push(ContactEvent::End(BodyId(key.a), BodyId(key.b)));
            }
            slot.refresh = false;
            free_slots.push(key.slot);
            false
        });
        if self.new_keys.is_empty() {
            return;
        }
        let mut merged = mem::take(&mut self.merged);
        merged.clear();
        let mut new = self.new_keys.iter().copied().peekable();
        for &key in &self.pairs {
            while let Some(&next) = new.peek() {
                if next >= key.bodies() {
                    break;
                }
                merged.push(open_slot(
                    &mut self.slots,
                    &mut self.states,
                    &mut self.free_slots,
                    next,
                ));
                new.next();
            }
            if new.peek() == Some(&key.bodies()) {
                new.next();
            }
            merged.push(key);
        }
        for next in new {
            merged.push(open_slot(&mut self.slots, &mut self.states, &mut self.free_slots, next));
        }
        self.merged = mem::replace(&mut self.pairs, merged);
    }

    /// Step 5 and the frame's bookkeeping: events, flags, freed slots.
    fn finish(&mut self) {
        for key in &self.pairs {
            let slot = &mut self.slots[key.slot as usize];
            if slot.changed {
                let (a, b) = (BodyId(key.a), BodyId(key.b));
                let event =
                    if slot.touching { ContactEvent::Begin(a, b) } else { ContactEvent::End(a, b) };
                self.events.push(event);
                slot.changed = false;
            }
            slot.refresh = false;
        }
        self.events.sort_unstable_by_key(ContactEvent::bodies);
        for &i in self.dirty.iter().chain(&self.enlarged) {
            let bounds = &mut self.bounds[i as usize];
            bounds.dirty = false;
            bounds.enlarged = false;
        }
        self.dirty.clear();
        self.enlarged.clear();
        self.free.append(&mut self.removed);
    }
}

/// A slot for the new pair `(a, b)`: a free one, or a new one at the slabs' end.
fn open_slot<V: Vector>(
    slots: &mut Vec<PairSlot>,
    states: &mut Vec<PairState<V>>,
    free_slots: &mut Vec<u32>,
    (a, b): (u32, u32),
) -> PairKey {
    let fresh = PairSlot { a, b, touching: false, changed: false, refresh: true };
    let slot = match free_slots.pop() {
        Some(slot) => {
            slots[slot as usize] = fresh;
            states[slot as usize] = PairState::default();
            slot
        }
        None => {
            slots.push(fresh);
            states.push(PairState::default());
            (slots.len() - 1) as u32
        }
    };
    PairKey { a, b, slot }
}

/// Step 4 for one slot: the narrow phase when the slot is marked, and the contact flags.
#[inline]
fn refresh<V: Vector, S: Support<V>>(
    slot: &mut PairSlot,
    state: &mut PairState<V>,
    bodies: &[Option<Body<V, S>>],
    bounds: &[Bounds<V>],
    options: &ManifoldOptions<V::Real>,
) {
    if !slot.refresh {
        return;
    }
    let (a, b) = (slot.a, slot.b);
    let reach = [&bounds[a as usize].reach, &bounds[b as usize].reach];
    let touching = narrow_phase(reach, || sides(bodies, a, b), options, slot.touching, state);
    slot.changed = touching != slot.touching;
    slot.touching = touching;
}

/// The shapes and poses of a cached pair's bodies (both live: the merge dropped the others,
/// and free slots are never refreshed).
#[inline]
fn sides<V: Vector, S>(bodies: &[Option<Body<V, S>>], a: u32, b: u32) -> [(&S, &Pose<V>); 2] {
    let side = |i: u32| {
        let body = bodies[i as usize].as_ref().expect("cached pairs join live bodies");
        (&body.shape, &body.pose)
    };
    [side(a), side(b)]
}
