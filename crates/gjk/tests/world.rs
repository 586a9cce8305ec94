//! The collision world and its tree against brute force.
//!
//! Oracles: all pairs `i < j` tested with `intersects` (or `distance ≤ prediction`) — no
//! boxes, no tree, no cache — on random scenes of mixed shapes moving over several frames, with
//! bodies removed and inserted; events checked against the difference of consecutive brute-force
//! sets; the tree's box and ray queries against a scan of every leaf's box. Manifolds: each
//! pair's against `gjk::manifold` on the same two bodies outside the world; a box
//! resting on a box against the closed form (its four bottom corners, the sinking as depth)
//! and against `gjk::manifold` on the same pair outside the world (no cache, no warm start),
//! exactly, frame after frame of small motion, with the ids of the first frame.

use std::collections::BTreeSet;

use gjk::world::{AabbTree, BodyId, ContactEvent, World, WorldOptions};
use gjk::{
    distance, intersects, manifold, Aabb, Ball, Capsule, Cone, ContactId, Cuboid, Cylinder,
    ManifoldOptions, ManifoldStatus, Polytope, Pose, Ray, Shape, Support,
};
use gjk_testkit::SplitMix64;
use glam::{DQuat, DVec3, Vec2};

type Pairs = BTreeSet<(usize, usize)>;

fn random_shape(rng: &mut SplitMix64, hull: &Shape<DVec3>) -> Shape<DVec3> {
    match rng.below(6) {
        0 => Cuboid::new(DVec3::new(rng.range(0.2, 1.0), rng.range(0.2, 1.0), rng.range(0.2, 1.0)))
            .unwrap()
            .into(),
        1 => Ball::new(rng.range(0.2, 0.8)).unwrap().into(),
        2 => {
            Capsule::new(DVec3::new(0.0, -0.5, 0.0), DVec3::new(0.0, 0.5, 0.0), 0.3).unwrap().into()
        }
        3 => Cylinder::new(0.5, 0.4).unwrap().into(),
        4 => Cone::new(0.5, 0.5).unwrap().into(),
        _ => hull.clone(),
    }
}

fn random_pose(rng: &mut SplitMix64, side: f64) -> Pose<DVec3> {
    let [x, y, z, w] = rng.rotation3();
    let t = DVec3::new(rng.range(0.0, side), rng.range(0.0, side), rng.range(0.0, side));
    Pose::new(DQuat::from_xyzw(x, y, z, w), t).unwrap()
}

/// A small random motion: a step of up to `step` and a turn of up to 0.1 rad.
fn nudge(rng: &mut SplitMix64, pose: &Pose<DVec3>, step: f64) -> Pose<DVec3> {
    let [x, y, z] = rng.unit_vector3();
    let turn = DQuat::from_axis_angle(DVec3::new(x, y, z), rng.range(-0.1, 0.1));
    let t = pose.translation()
        + DVec3::new(rng.range(-step, step), rng.range(-step, step), rng.range(-step, step));
    Pose::new(turn * pose.rotation(), t).unwrap()
}

fn hull(rng: &mut SplitMix64) -> Shape<DVec3> {
    Polytope::new((0..32).map(|_| DVec3::from(rng.unit_vector3()) * 0.6).collect()).unwrap().into()
}

fn brute_force<S: Support<DVec3>>(bodies: &[Option<(S, Pose<DVec3>)>], prediction: f64) -> Pairs {
    let mut pairs = Pairs::new();
    for (i, a) in bodies.iter().enumerate() {
        let Some((sa, pa)) = a else { continue };
        for (j, b) in bodies.iter().enumerate().skip(i + 1) {
            let Some((sb, pb)) = b else { continue };
            let hit = if prediction == 0.0 {
                intersects(sa, pa, sb, pb)
            } else {
                distance(sa, pa, sb, pb) <= prediction
            };
            if hit {
                pairs.insert((i, j));
            }
        }
    }
    pairs
}

fn world_pairs(world: &World<DVec3, Shape<DVec3>>) -> Vec<(usize, usize)> {
    world.contacts().map(|(a, b, _)| (a.index(), b.index())).collect()
}

fn expected_events(before: &Pairs, after: &Pairs) -> Vec<ContactEvent> {
    let id = |i: usize| BodyId::from_index(i);
    let mut events: Vec<ContactEvent> = after
        .difference(before)
        .map(|&(a, b)| ContactEvent::Begin(id(a), id(b)))
        .chain(before.difference(after).map(|&(a, b)| ContactEvent::End(id(a), id(b))))
        .collect();
    events.sort_by_key(ContactEvent::bodies);
    events
}

/// 1000 bodies in a box where each overlaps a few others; 6 frames of motion; then removals
/// and insertions. Every frame: the world's pairs (in order) equal brute force, and the events
/// equal the change of the brute-force set.
fn run_scene(prediction: f64, parallel: bool) {
    let mut rng = SplitMix64::new(1500 + prediction.to_bits() % 7);
    let hull = hull(&mut rng);
    let side = 14.0;
    let options = WorldOptions {
        manifold: ManifoldOptions { prediction, ..Default::default() },
        margin: 0.1,
    };
    let mut world = World::new(options);
    let mut mirror: Vec<Option<(Shape<DVec3>, Pose<DVec3>)>> = Vec::new();
    for _ in 0..1000 {
        let (shape, pose) = (random_shape(&mut rng, &hull), random_pose(&mut rng, side));
        let id = world.insert(shape.clone(), pose);
        assert_eq!(id.index(), mirror.len());
        mirror.push(Some((shape, pose)));
    }
    let mut before = Pairs::new();
    let step = |world: &mut World<DVec3, Shape<DVec3>>| {
        if parallel {
            update_parallel(world);
        } else {
            world.update();
        }
    };
    for frame in 0..8 {
        if frame > 0 && frame < 6 {
            // Most bodies move a little, some jump.
            for (i, slot) in mirror.iter_mut().enumerate() {
                let Some((_, pose)) = slot else { continue };
                let moved = if rng.chance(0.02) {
                    random_pose(&mut rng, side)
                } else if rng.chance(0.8) {
                    nudge(&mut rng, pose, 0.05)
                } else {
                    continue;
                };
                *pose = moved;
                assert!(world.set_pose(BodyId::from_index(i), moved));
            }
        }
        if frame == 6 {
            for i in (0..1000).step_by(7) {
                assert!(world.remove(BodyId::from_index(i)).is_some());
                mirror[i] = None;
            }
        }
        if frame == 7 {
            // Reuses the removed slots.
            for _ in 0..50 {
                let (shape, pose) = (random_shape(&mut rng, &hull), random_pose(&mut rng, side));
                let id = world.insert(shape.clone(), pose);
                if id.index() == mirror.len() {
                    mirror.push(None);
                }
                assert!(mirror[id.index()].is_none(), "slot {} still in use", id.index());
                mirror[id.index()] = Some((shape, pose));
            }
        }
        step(&mut world);
        world.tree().validate();
        let after = brute_force(&mirror, prediction);
        assert!(after.len() > 300, "the scene should be crowded: {} pairs", after.len());
        let got = world_pairs(&world);
        let want: Vec<_> = after.iter().copied().collect();
        assert_eq!(got, want, "frame {frame}: pairs differ");
        assert_eq!(world.events(), expected_events(&before, &after), "frame {frame}: events");
        let options = ManifoldOptions { prediction, ..Default::default() };
        for (a, b, m) in world.contacts() {
            assert!(a < b);
            assert!(!m.points().is_empty() && m.points().len() <= 4, "{m:?}");
            for p in m.points() {
                assert!(p.depth >= -prediction - 1e-9, "a point beyond the prediction: {m:?}");
            }
            // The same pair outside the world: the free function with a fresh cache. The
            // world's first frame starts from fresh caches too: the same bits. Later, the
            // warm-started loops stop at other iterates within their tolerance (1e-10 on the
            // squared gap, so about 1e-5 on directions): the same features and ids, the
            // normal, points and depths (measured along the normal) to its square root.
            let (Some((sa, pa)), Some((sb, pb))) = (&mirror[a.index()], &mirror[b.index()]) else {
                panic!("a contact of a removed body")
            };
            let want = manifold(sa, pa, sb, pb, &options);
            if frame == 0 {
                assert_eq!(*m, want, "{a:?} {b:?}");
                continue;
            }
            let what = || format!("frame {frame} {a:?} {b:?}\n  world {m:?}\n  fresh {want:?}");
            assert_eq!(m.status, want.status, "{}", what());
            assert_eq!(m.points().len(), want.points().len(), "{}", what());
            assert!((m.normal - want.normal).length() < 1e-4, "{}", what());
            for (p, q) in m.points().iter().zip(want.points()) {
                assert_eq!(p.id, q.id, "{}", what());
                assert!((p.depth - q.depth).abs() < 1e-4, "{}", what());
                assert!((p.point_a - q.point_a).length() < 1e-4, "{}", what());
                assert!((p.point_b - q.point_b).length() < 1e-4, "{}", what());
            }
        }
        before = after;
    }
    assert_eq!(world.len(), 1000 - 143 + 50);
}

#[cfg(feature = "rayon")]
fn update_parallel(world: &mut World<DVec3, Shape<DVec3>>) {
    world.update_parallel();
}

#[cfg(not(feature = "rayon"))]
fn update_parallel(world: &mut World<DVec3, Shape<DVec3>>) {
    world.update();
}

#[test]
fn world_pairs_equal_brute_force_intersects_over_frames() {
    run_scene(0.0, false);
}

#[test]
fn world_pairs_with_prediction_equal_brute_force_distance() {
    run_scene(0.2, false);
}

#[test]
fn parallel_update_gives_the_same_pairs_and_events() {
    run_scene(0.0, true);
}

#[test]
fn static_pairs_keep_their_contacts_and_moves_end_only_their_own() {
    // Static bodies keep their contact without a narrow phase: a body moved far away ends its
    // contacts and nothing else changes.
    let mut world = World::<Vec2, Shape<Vec2>>::new(WorldOptions::default());
    let square: Shape<Vec2> = Cuboid::new(Vec2::splat(0.5)).unwrap().into();
    let ids: Vec<_> = (0..10)
        .map(|i| {
            world.insert(
                square.clone(),
                Pose::from_translation(Vec2::new(i as f32 * 0.9, 0.0)).unwrap(),
            )
        })
        .collect();
    world.update();
    assert_eq!(world.contacts().count(), 9);
    assert_eq!(world.events().len(), 9);
    world.update();
    assert!(world.events().is_empty());
    world.set_pose(ids[4], Pose::from_translation(Vec2::new(100.0, 0.0)).unwrap());
    world.update();
    assert_eq!(
        world.events(),
        [ContactEvent::End(ids[3], ids[4]), ContactEvent::End(ids[4], ids[5])]
    );
    assert_eq!(world.contacts().count(), 7);
    world.remove(ids[0]);
    world.update();
    assert_eq!(world.events(), [ContactEvent::End(ids[0], ids[1])]);
    assert_eq!(world.len(), 9);
}

#[test]
fn a_box_resting_on_a_box_gets_the_manifold_of_the_pair_with_stable_ids() {
    let options = ManifoldOptions::default();
    let mut world = World::<DVec3, Shape<DVec3>>::new(WorldOptions::default());
    let table: Shape<DVec3> = Cuboid::new(DVec3::new(2.0, 0.5, 2.0)).unwrap().into();
    let crate_box: Shape<DVec3> = Cuboid::new(DVec3::splat(0.5)).unwrap().into();
    let far: Shape<DVec3> = Ball::new(0.5).unwrap().into();
    let table_id = world.insert(table.clone(), Pose::IDENTITY);
    world.insert(far, Pose::from_translation(DVec3::new(10.0, 0.0, 0.0)).unwrap());
    // The crate sunk 0.01 into the table's top (y = 0.5), then sliding and turning a little.
    let pose_at = |frame: u32| {
        let f = frame as f64;
        let turn = DQuat::from_rotation_y(0.002 * f);
        Pose::new(turn, DVec3::new(0.3 + 0.004 * f, 0.99, -0.2 - 0.003 * f)).unwrap()
    };
    let crate_id = world.insert(crate_box.clone(), pose_at(0));
    let mut first_ids: Option<Vec<ContactId>> = None;
    for frame in 0..12 {
        let pose = pose_at(frame);
        world.set_pose(crate_id, pose);
        world.update();
        let contacts: Vec<_> = world.contacts().collect();
        assert_eq!(contacts.len(), 1, "frame {frame}");
        let (a, b, m) = contacts[0];
        assert_eq!((a, b), (table_id, crate_id));
        // The oracle outside the world: the free function, a fresh cache.
        let want = manifold(&table, &Pose::IDENTITY, &crate_box, &pose, &options);
        assert_eq!(*m, want, "frame {frame}");
        // The closed form: the crate's four bottom corners on the table's top, 0.01 deep.
        assert_eq!(m.status, ManifoldStatus::Clipped { reference_is_a: true });
        assert_eq!(m.points().len(), 4);
        assert!((m.normal - DVec3::Y).length() < 1e-12);
        let mut corners: Vec<DVec3> = [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
            .map(|(x, z)| pose.transform_point(DVec3::new(0.5 * x, -0.5, 0.5 * z)))
            .to_vec();
        for p in m.points() {
            assert!((p.depth - 0.01).abs() < 1e-12, "frame {frame}: {p:?}");
            assert!((p.point_a.y - 0.5).abs() < 1e-12, "frame {frame}: {p:?}");
            let at = corners.iter().position(|c| (*c - p.point_b).length() < 1e-12);
            corners.remove(at.unwrap_or_else(|| panic!("frame {frame}: {p:?} is no corner")));
        }
        let mut ids: Vec<ContactId> = m.points().iter().map(|p| p.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 4, "four distinct ids: {ids:?}");
        match &first_ids {
            None => first_ids = Some(ids),
            Some(first) => assert_eq!(&ids, first, "frame {frame}: the ids changed"),
        }
    }
}

#[test]
fn world_ray_cast_finds_the_nearest_body() {
    let mut rng = SplitMix64::new(77);
    let hull = hull(&mut rng);
    let mut world = World::new(WorldOptions::default());
    let mut mirror = Vec::new();
    for _ in 0..300 {
        let (shape, pose) = (random_shape(&mut rng, &hull), random_pose(&mut rng, 20.0));
        world.insert(shape.clone(), pose);
        mirror.push((shape, pose));
    }
    world.update();
    for _ in 0..200 {
        let origin =
            DVec3::new(rng.range(-5.0, 25.0), rng.range(-5.0, 25.0), rng.range(-5.0, 25.0));
        let ray = Ray::new(origin, DVec3::from(rng.unit_vector3()));
        let want = mirror
            .iter()
            .enumerate()
            .filter_map(|(i, (s, p))| gjk::ray_cast(s, p, &ray, 40.0).map(|h| (h.toi, i)))
            .min_by(|a, b| a.0.total_cmp(&b.0));
        let got = world.cast_ray(&ray, 40.0).map(|(id, h)| (h.toi, id.index()));
        match (got, want) {
            (None, None) => {}
            (Some((t, _)), Some((u, _))) => assert!((t - u).abs() < 1e-9, "{t} vs {u}"),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn tree_queries_equal_a_scan_through_inserts_updates_and_removals() {
    let mut rng = SplitMix64::new(9);
    let mut tree = AabbTree::new();
    let mut live: Vec<(gjk::world::ProxyId, Aabb<DVec3>, u32)> = Vec::new();
    let random_box = |rng: &mut SplitMix64| {
        let c = DVec3::new(rng.range(0.0, 30.0), rng.range(0.0, 30.0), rng.range(0.0, 30.0));
        let h = DVec3::new(rng.range(0.0, 2.0), rng.range(0.0, 2.0), rng.range(0.0, 2.0));
        Aabb::new(c - h, c + h)
    };
    for round in 0..3000u32 {
        match rng.below(4) {
            0 => {
                let b = random_box(&mut rng);
                live.push((tree.insert(b, round), b, round));
            }
            1 => {
                // Linked at the next flush (one by one, or by a rebuild when many wait).
                let b = random_box(&mut rng);
                live.push((tree.insert_deferred(b, round), b, round));
            }
            2 if !live.is_empty() => {
                let k = rng.below(live.len());
                let b = random_box(&mut rng);
                tree.update(live[k].0, b);
                live[k].1 = b;
            }
            _ if !live.is_empty() => {
                let k = rng.below(live.len());
                tree.remove(live.swap_remove(k).0);
            }
            _ => {}
        }
        if round % 100 == 0 {
            tree.flush();
            if round % 700 == 0 {
                tree.rebuild();
            }
            assert_eq!(tree.validate(), live.len());
            assert_eq!(tree.len(), live.len());
            // Balanced: far below the worst case of one leaf per level.
            let bound = 3.0 * (live.len().max(2) as f64).log2() + 2.0;
            assert!((tree.height() as f64) <= bound, "height {} for {}", tree.height(), live.len());
            let q = random_box(&mut rng);
            let mut got = Vec::new();
            tree.query(&q, |_, data| {
                got.push(data);
                true
            });
            got.sort_unstable();
            let mut want: Vec<u32> =
                live.iter().filter(|(_, b, _)| b.intersects(&q)).map(|&(_, _, d)| d).collect();
            want.sort_unstable();
            assert_eq!(got, want);
            let ray = (
                DVec3::new(-1.0, rng.range(0.0, 30.0), rng.range(0.0, 30.0)),
                DVec3::from(rng.unit_vector3()) + DVec3::X,
            );
            let mut got = Vec::new();
            tree.ray(ray.0, ray.1, 50.0, |_, data| {
                got.push(data);
                50.0
            });
            got.sort_unstable();
            let mut want: Vec<u32> = live
                .iter()
                .filter(|(_, b, _)| b.ray_entry(ray.0, ray.1, 50.0).is_some())
                .map(|&(_, _, d)| d)
                .collect();
            want.sort_unstable();
            assert_eq!(got, want);
        }
    }
}
