//! A dynamic bounding-volume tree: the broad phase's index of fattened boxes.
//!
//! # Why a tree, and why our own
//! Candidates were a dynamic AABB tree (Box2D, Jolt, Bullet's `btDbvt`, parry's `Bvh`) and
//! sweep-and-prune (sorted interval lists per axis). Sweep-and-prune shines when bodies are
//! spread along an axis and move coherently, but its sorted lists degrade when many bodies
//! share a coordinate range (a pile, a cluttered cell) and it answers "what overlaps this box /
//! this ray" only by a scan. The tree answers box and ray queries in `O(log n)`, and with
//! fattened leaves a body that moves a little stays inside its leaf's box, so a frame where
//! few bodies leave their boxes touches only those leaves: the incremental cost the world
//! needs.
//!
//! Crates: `bvh` (static trees, rebuilt per change, `std` and `nalgebra`), `rstar` (R*-tree,
//! `num-traits`, heavier updates, no ray query) and parry's `Bvh` (pulls in parry, nalgebra and
//! its own shapes) would each bring more than this crate's two dependencies (glam and libm) and
//! none is `no_std` on glam types. The tree below is about three hundred lines.
//!
//! # The algorithm (Box2D's `b2DynamicTree`, Catto; Bergen's AABB trees)
//! * Nodes live in one `Vec` with a free list: no allocation once the tree has reached its
//!   size, node indices stay valid while a leaf lives.
//! * **Insertion** descends from the root choosing, at each internal node, between stopping
//!   (a new parent of this node and the leaf) and the child whose box grows least, by the
//!   surface-area cost [`Aabb::measure`] (perimeter in 2D, half the area in 3D) plus the growth
//!   inherited by the ancestors: the branch-and-bound-free greedy descent of Box2D v2.
//! * **Rotations** on the way back up keep the tree balanced (an AVL rule on subtree heights):
//!   queries stay `O(log n)` whatever order the leaves arrive in.
//! * **Removal** replaces the leaf's parent by its sibling and rebalances upward.
//!
//! Queries walk the tree with an explicit stack on the call stack (the tree's height is
//! `O(log n)` through the rotations; deeper trees spill to the heap, which never happens for
//! balanced trees of fewer than 2⁶⁰ leaves).

use alloc::vec::Vec;

use crate::bounds::Aabb;
use crate::math::{Real, Vector};

/// No node.
const NULL: u32 = u32::MAX;

/// The parent of a leaf inserted with [`AabbTree::insert_deferred`] and not yet linked.
const PENDING: u32 = u32::MAX - 1;

/// The depth of the query stack kept on the call stack.
const STACK: usize = 128;

/// A handle on a leaf of an [`AabbTree`], valid until the leaf is removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProxyId(pub u32);

#[derive(Clone, Copy, Debug)]
struct Node<V> {
    aabb: Aabb<V>,
    /// The parent, or the next free node while the node is free.
    parent: u32,
    /// The children; `NULL` in a leaf.
    children: [u32; 2],
    /// 0 for a leaf, one more than the taller child for an internal node; −1 while free.
    height: i32,
    /// A leaf's user value.
    data: u32,
}

impl<V> Node<V> {
    #[inline]
    fn is_leaf(&self) -> bool {
        self.children[0] == NULL
    }
}

/// A dynamic AABB tree over boxes that carry a `u32` each.
///
/// ```
/// use gjk::world::AabbTree;
/// use gjk::Aabb;
/// use glam::Vec2;
/// let mut tree = AabbTree::new();
/// let a = tree.insert(Aabb::new(Vec2::ZERO, Vec2::ONE), 10);
/// tree.insert(Aabb::new(Vec2::splat(5.0), Vec2::splat(6.0)), 20);
/// let mut hits = vec![];
/// tree.query(&Aabb::new(Vec2::splat(0.5), Vec2::splat(2.0)), |_, data| { hits.push(data); true });
/// assert_eq!(hits, [10]);
/// tree.update(a, Aabb::new(Vec2::splat(5.5), Vec2::splat(7.0)));
/// hits.clear();
/// tree.query(&Aabb::new(Vec2::splat(0.5), Vec2::splat(2.0)), |_, data| { hits.push(data); true });
/// assert!(hits.is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct AabbTree<V> {
    nodes: Vec<Node<V>>,
    root: u32,
    free: u32,
    leaves: usize,
    /// The leaves during a rebuild, kept for its capacity.
    scratch: Vec<u32>,
    /// Leaves inserted but not yet linked (see [`AabbTree::insert_deferred`]).
    pending: Vec<u32>,
}

impl<V: Vector> Default for AabbTree<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Vector> AabbTree<V> {
    /// An empty tree.
    pub const fn new() -> Self {
        Self {
            nodes: Vec::new(),
            root: NULL,
            free: NULL,
            leaves: 0,
            scratch: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// The number of leaves.
    pub fn len(&self) -> usize {
        self.leaves
    }

    /// Whether the tree has no leaves.
    pub fn is_empty(&self) -> bool {
        self.leaves == 0
    }

    /// The height of the tree (0 for one leaf or none).
    pub fn height(&self) -> usize {
        if self.root == NULL {
            0
        } else {
            self.nodes[self.root as usize].height as usize
        }
    }

    /// The box stored for a leaf.
    #[inline]
    pub fn aabb(&self, proxy: ProxyId) -> &Aabb<V> {
        &self.nodes[proxy.0 as usize].aabb
    }

    /// The value stored with a leaf.
    #[inline]
    pub fn data(&self, proxy: ProxyId) -> u32 {
        self.nodes[proxy.0 as usize].data
    }

    /// Adds a leaf with box `aabb` and value `data`.
    pub fn insert(&mut self, aabb: Aabb<V>, data: u32) -> ProxyId {
        let leaf = self.allocate();
        let node = &mut self.nodes[leaf as usize];
        node.aabb = aabb;
        node.data = data;
        node.height = 0;
        self.insert_leaf(leaf);
        self.leaves += 1;
        ProxyId(leaf)
    }

    /// Adds a leaf that queries see only after the next [`AabbTree::flush`], which links all
    /// such leaves at once: one by one when they are few, by a [`AabbTree::rebuild`] when
    /// they are many (a scene's first frame), which is faster and gives a better tree.
    pub fn insert_deferred(&mut self, aabb: Aabb<V>, data: u32) -> ProxyId {
        let leaf = self.allocate();
        let node = &mut self.nodes[leaf as usize];
        node.aabb = aabb;
        node.data = data;
        node.height = 0;
        node.parent = PENDING;
        self.pending.push(leaf);
        self.leaves += 1;
        ProxyId(leaf)
    }

    /// Links the leaves of [`AabbTree::insert_deferred`] into the tree.
    pub fn flush(&mut self) {
        if self.pending.len() * 4 > self.leaves {
            self.pending.clear();
            self.rebuild();
            return;
        }
        for i in 0..self.pending.len() {
            let leaf = self.pending[i];
            self.insert_leaf(leaf);
        }
        self.pending.clear();
    }

    /// Removes a leaf (its handle becomes invalid; a later insert may reuse it).
    ///
    /// # Panics
    /// If `proxy` is not a live leaf of this tree.
    pub fn remove(&mut self, proxy: ProxyId) {
        assert!(self.is_live_leaf(proxy), "not a leaf of this tree: {proxy:?}");
        if self.nodes[proxy.0 as usize].parent == PENDING {
            self.pending.retain(|&leaf| leaf != proxy.0);
        } else {
            self.remove_leaf(proxy.0);
        }
        self.release(proxy.0);
        self.leaves -= 1;
    }

    /// Gives a leaf a new box (out and back in: its handle stays).
    ///
    /// # Panics
    /// If `proxy` is not a live leaf of this tree.
    pub fn update(&mut self, proxy: ProxyId, aabb: Aabb<V>) {
        assert!(self.is_live_leaf(proxy), "not a leaf of this tree: {proxy:?}");
        self.nodes[proxy.0 as usize].aabb = aabb;
        if self.nodes[proxy.0 as usize].parent != PENDING {
            self.remove_leaf(proxy.0);
            self.insert_leaf(proxy.0);
        }
    }

    /// Rebuilds the tree top down over the same leaves (their handles stay): each internal
    /// node splits its leaves at the median of their centres along the axis where the centres
    /// spread most. `O(n log n)`; the result is balanced and its boxes overlap little, whatever
    /// order the leaves were inserted in. Incremental insertion of many leaves in random
    /// order (a scene's first frame) leaves a much worse tree: the greedy descent sees one
    /// leaf at a time.
    pub fn rebuild(&mut self) {
        self.pending.clear();
        let mut leaves = core::mem::take(&mut self.scratch);
        leaves.clear();
        for id in 0..self.nodes.len() as u32 {
            let node = &self.nodes[id as usize];
            if node.height == 0 {
                leaves.push(id);
            } else if node.height > 0 {
                self.release(id);
            }
        }
        self.root = if leaves.is_empty() { NULL } else { self.build(&mut leaves) };
        if self.root != NULL {
            self.nodes[self.root as usize].parent = NULL;
        }
        self.scratch = leaves;
    }

    /// The subtree over `leaves` (at least one); returns its root.
    fn build(&mut self, leaves: &mut [u32]) -> u32 {
        if let [leaf] = leaves {
            return *leaf;
        }
        let center = |tree: &Self, id: u32| tree.nodes[id as usize].aabb.center();
        let mut spread = Aabb::from_point(center(self, leaves[0]));
        for &id in leaves.iter() {
            spread = spread.with_point(center(self, id));
        }
        let size = spread.max - spread.min;
        let axis =
            (1..V::DIM).fold(
                0,
                |best, i| {
                    if size.component(i) > size.component(best) {
                        i
                    } else {
                        best
                    }
                },
            );
        let mid = leaves.len() / 2;
        leaves.select_nth_unstable_by(mid, |&a, &b| {
            let (ca, cb) = (center(self, a).component(axis), center(self, b).component(axis));
            ca.partial_cmp(&cb).unwrap_or(core::cmp::Ordering::Equal)
        });
        let (low, high) = leaves.split_at_mut(mid);
        let children = [self.build(low), self.build(high)];
        let parent = self.allocate();
        self.nodes[parent as usize].children = children;
        for child in children {
            self.nodes[child as usize].parent = parent;
        }
        self.refit(parent);
        parent
    }

    /// Calls `visit(leaf, data)` for every leaf whose box intersects `aabb`, until it returns
    /// `false`.
    pub fn query(&self, aabb: &Aabb<V>, mut visit: impl FnMut(ProxyId, u32) -> bool) {
        self.walk(|node| node.aabb.intersects(aabb), |id, node| visit(ProxyId(id), node.data));
    }

    /// Calls `visit(leaf, data)` for every leaf whose box the ray `origin + t direction`,
    /// `0 ≤ t ≤ max_toi`, enters; `visit` returns the new `max_toi` (smaller, to keep only
    /// closer hits; negative to stop).
    pub fn ray(
        &self,
        origin: V,
        direction: V,
        max_toi: V::Real,
        mut visit: impl FnMut(ProxyId, u32) -> V::Real,
    ) {
        let mut reach = max_toi;
        let mut stack = Stack::new();
        stack.push(self.root);
        while let Some(id) = stack.pop() {
            if reach < V::Real::ZERO {
                return;
            }
            let node = &self.nodes[id as usize];
            if node.aabb.ray_entry(origin, direction, reach).is_none() {
                continue;
            }
            if node.is_leaf() {
                reach = reach.min(visit(ProxyId(id), node.data));
            } else {
                stack.push(node.children[0]);
                stack.push(node.children[1]);
            }
        }
    }

    /// Depth-first walk: descends where `enter` holds, calls `leaf` on the leaves reached
    /// until it returns `false`.
    #[inline]
    fn walk(&self, enter: impl Fn(&Node<V>) -> bool, mut leaf: impl FnMut(u32, &Node<V>) -> bool) {
        let mut stack = Stack::new();
        stack.push(self.root);
        while let Some(id) = stack.pop() {
            let node = &self.nodes[id as usize];
            if !enter(node) {
                continue;
            }
            if node.is_leaf() {
                if !leaf(id, node) {
                    return;
                }
            } else {
                stack.push(node.children[0]);
                stack.push(node.children[1]);
            }
        }
    }

    fn is_live_leaf(&self, proxy: ProxyId) -> bool {
        self.nodes.get(proxy.0 as usize).is_some_and(|n| n.height == 0 && n.is_leaf())
    }

    fn allocate(&mut self) -> u32 {
        if self.free == NULL {
            let empty = Aabb::new(V::ZERO, V::ZERO);
            let node = Node { aabb: empty, parent: NULL, children: [NULL; 2], height: -1, data: 0 };
            self.nodes.push(node);
            return (self.nodes.len() - 1) as u32;
        }
        let id = self.free;
        self.free = self.nodes[id as usize].parent;
        let node = &mut self.nodes[id as usize];
        node.parent = NULL;
        node.children = [NULL; 2];
        id
    }

    fn release(&mut self, id: u32) {
        let node = &mut self.nodes[id as usize];
        node.parent = self.free;
        node.children = [NULL; 2];
        node.height = -1;
        self.free = id;
    }

    /// The cheapest sibling for a new leaf of box `aabb`, by the surface-area cost.
    fn best_sibling(&self, aabb: &Aabb<V>) -> u32 {
        let mut index = self.root;
        loop {
            let node = &self.nodes[index as usize];
            if node.is_leaf() {
                return index;
            }
            let combined = node.aabb.merged(aabb).measure();
            // A new parent here costs the merged box; going down, every ancestor including
            // this node grows by what the leaf adds to it.
            let here = combined + combined;
            let inherited = (combined - node.aabb.measure()) * V::Real::TWO;
            let descend = |child: u32| {
                let c = &self.nodes[child as usize];
                let grown = c.aabb.merged(aabb).measure();
                let own = if c.is_leaf() { grown } else { grown - c.aabb.measure() };
                own + inherited
            };
            let [c0, c1] = node.children;
            let (cost0, cost1) = (descend(c0), descend(c1));
            if here < cost0 && here < cost1 {
                return index;
            }
            index = if cost0 < cost1 { c0 } else { c1 };
        }
    }

    fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let aabb = self.nodes[leaf as usize].aabb;
        let sibling = self.best_sibling(&aabb);
        let old_parent = self.nodes[sibling as usize].parent;
        let parent = self.allocate();
        {
            let s = self.nodes[sibling as usize];
            let p = &mut self.nodes[parent as usize];
            p.parent = old_parent;
            p.aabb = aabb.merged(&s.aabb);
            p.height = s.height + 1;
            p.children = [sibling, leaf];
        }
        self.replace_child(old_parent, sibling, parent);
        self.nodes[sibling as usize].parent = parent;
        self.nodes[leaf as usize].parent = parent;
        self.refit_upward(parent);
    }

    fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grandparent = self.nodes[parent as usize].parent;
        let [c0, c1] = self.nodes[parent as usize].children;
        let sibling = if c0 == leaf { c1 } else { c0 };
        self.replace_child(grandparent, parent, sibling);
        self.nodes[sibling as usize].parent = grandparent;
        self.release(parent);
        if grandparent != NULL {
            self.refit_upward(grandparent);
        }
    }

    /// Puts `new` where `old` was among `parent`'s children (or at the root).
    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        if parent == NULL {
            self.root = new;
            return;
        }
        let children = &mut self.nodes[parent as usize].children;
        if children[0] == old {
            children[0] = new;
        } else {
            children[1] = new;
        }
    }

    /// Rebalances and refits every node from `index` to the root.
    fn refit_upward(&mut self, mut index: u32) {
        while index != NULL {
            index = self.balance(index);
            self.refit(index);
            index = self.nodes[index as usize].parent;
        }
    }

    /// Recomputes an internal node's box and height from its children.
    #[inline]
    fn refit(&mut self, index: u32) {
        let [c0, c1] = self.nodes[index as usize].children;
        let (a, b) = (self.nodes[c0 as usize], self.nodes[c1 as usize]);
        let node = &mut self.nodes[index as usize];
        node.aabb = a.aabb.merged(&b.aabb);
        node.height = 1 + a.height.max(b.height);
    }

    /// One AVL rotation at `a` if its children's heights differ by more than one: the taller
    /// child takes `a`'s place and hands its shorter child to `a`. Returns the node now at
    /// `a`'s place.
    fn balance(&mut self, a: u32) -> u32 {
        let node = self.nodes[a as usize];
        if node.is_leaf() || node.height < 2 {
            return a;
        }
        let [b, c] = node.children;
        let skew = self.nodes[c as usize].height - self.nodes[b as usize].height;
        if skew > 1 {
            self.rotate_up(a, 1)
        } else if skew < -1 {
            self.rotate_up(a, 0)
        } else {
            a
        }
    }

    /// Lifts child `side` (`up`) of `a` into `a`'s place: `up` keeps its taller child and gives
    /// `a` its shorter one in place of itself.
    fn rotate_up(&mut self, a: u32, side: usize) -> u32 {
        let up = self.nodes[a as usize].children[side];
        let [f, g] = self.nodes[up as usize].children;
        let (tall, short) = if self.nodes[f as usize].height > self.nodes[g as usize].height {
            (f, g)
        } else {
            (g, f)
        };
        let grand = self.nodes[a as usize].parent;
        self.replace_child(grand, a, up);
        self.nodes[up as usize].parent = grand;
        self.nodes[up as usize].children = [a, tall];
        self.nodes[a as usize].parent = up;
        self.nodes[a as usize].children[side] = short;
        self.nodes[short as usize].parent = a;
        self.refit(a);
        self.refit(up);
        up
    }

    /// Checks the tree's invariants (parents, heights, boxes holding their children), for
    /// tests. Returns the number of leaves reached.
    #[doc(hidden)]
    pub fn validate(&self) -> usize {
        if self.root == NULL {
            return 0;
        }
        assert_eq!(self.nodes[self.root as usize].parent, NULL);
        self.validate_node(self.root)
    }

    fn validate_node(&self, id: u32) -> usize {
        let node = &self.nodes[id as usize];
        if node.is_leaf() {
            assert_eq!(node.height, 0);
            return 1;
        }
        let [c0, c1] = node.children;
        let (a, b) = (&self.nodes[c0 as usize], &self.nodes[c1 as usize]);
        assert_eq!(a.parent, id);
        assert_eq!(b.parent, id);
        assert_eq!(node.height, 1 + a.height.max(b.height));
        assert!(node.aabb.contains(&a.aabb) && node.aabb.contains(&b.aabb));
        self.validate_node(c0) + self.validate_node(c1)
    }
}

/// The query stack: on the call stack up to [`STACK`] entries, then on the heap.
struct Stack {
    inline: [u32; STACK],
    len: usize,
    spill: Vec<u32>,
}

impl Stack {
    #[inline]
    fn new() -> Self {
        Self { inline: [NULL; STACK], len: 0, spill: Vec::new() }
    }

    /// Pushes a node (the empty tree's `NULL` root is skipped).
    #[inline]
    fn push(&mut self, id: u32) {
        if id == NULL {
            return;
        }
        if self.len < STACK {
            self.inline[self.len] = id;
            self.len += 1;
        } else {
            self.spill.push(id);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
        if let Some(id) = self.spill.pop() {
            return Some(id);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.inline[self.len])
    }
}
