//! Many bodies: our collision world against parry's `Bvh` broad phase plus its narrow phase, in
//! the same run, on the same scene and motion.
//!
//! `cargo run --release -p gjk-bench --bin world -- [--bodies N] [--frames F]
//! [--engine both|gjk|parry] [--check] [--parallel] [--parry-contact]`
//!
//! The scene: `N` mixed bodies (boxes, balls, capsules, 32-vertex hulls — 16 distinct hulls,
//! shared by the bodies of each), f32, at random places and orientations in a cube sized so
//! that each body touches about two others. Every steady frame every body moves a little (a
//! fixed velocity of at most 0.01 per frame and a spin of at most 0.01 rad per frame).
//!
//! Both pipelines do the same work per frame: a pose per body, the broad phase, and the
//! contact manifold (prediction 0) of each candidate pair whose tight boxes overlap, each pair
//! keeping its cache from frame to frame.
//! * ours: `World::set_pose` for each body, `World::update` (or `update_parallel`): the pair's
//!   manifold, warm-started by its own GJK cache;
//! * parry, as rapier's broad phase drives it: `compute_aabb` and
//!   `Bvh::insert_or_update_partially` (fattened by the same margin, 0.1) per body, `refit`,
//!   `optimize_incremental`, `traverse_bvtt_single_tree` for the pairs of changed leaves (all
//!   leaves in the first frame) into a persistent pair map, pairs whose fat boxes parted dropped, then
//!   `DefaultQueryDispatcher::contact_manifolds` on the pairs whose tight boxes overlap, each
//!   pair keeping its `ContactManifold`s between frames as rapier's narrow phase does (and so
//!   its shortcut that reuses the last points when the relative pose barely moved). With
//!   `--parry-contact`, parry's single-contact `query::contact` instead (the pipeline this
//!   benchmark measured before our world computed manifolds).
//!
//! `--check`: the pair set of every engine against brute force over all pairs — a bounding
//! sphere test (`|c_a − c_b| > r_a + r_b`, the spheres from the shapes' `center`, `extent` and
//! margin, so sound) and `gjk::intersects` on the rest — on the first and last frame.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Instant;

use gjk::world::{World, WorldOptions};
use gjk::{intersects, Ball, Capsule, Cuboid, Polytope, Pose, Shape, Support};
use gjk_testkit::SplitMix64;
use glam::{Quat, Vec3};
use parry3d::bounding_volume::{Aabb, BoundingVolume};
use parry3d::partitioning::{Bvh, BvhWorkspace};
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry3d::shape::SharedShape;

const MARGIN: f32 = 0.1;

/// One body: both libraries' shape, and its motion.
struct Body {
    ours: Shape<Vec3>,
    parry: SharedShape,
    start: Vec3,
    rotation: Quat,
    velocity: Vec3,
    spin_axis: Vec3,
    spin: f32,
}

impl Body {
    fn pose_at(&self, frame: u32) -> (Vec3, Quat) {
        let t = frame as f32;
        let turn = Quat::from_axis_angle(self.spin_axis, self.spin * t);
        (self.start + self.velocity * t, (turn * self.rotation).normalize())
    }
}

fn scene(n: usize, seed: u64) -> Vec<Body> {
    let mut rng = SplitMix64::new(seed);
    let hulls: Vec<(Arc<Polytope<Vec3>>, SharedShape)> = (0..16)
        .map(|_| {
            let points: Vec<Vec3> =
                (0..32).map(|_| Vec3::from(rng.unit_vector3().map(|c| c as f32 * 0.5))).collect();
            let ours = Arc::new(Polytope::new(points.clone()).unwrap());
            let parry = SharedShape::convex_hull(&points).unwrap();
            (ours, parry)
        })
        .collect();
    // About 0.6 bodies per unit volume: each body touches about two others.
    let side = (n as f64 / 0.6).cbrt();
    let mut r = |lo: f64, hi: f64| rng.range(lo, hi) as f32;
    let mut bodies = Vec::with_capacity(n);
    for i in 0..n {
        let (ours, parry): (Shape<Vec3>, SharedShape) = match i % 4 {
            0 => {
                let h = Vec3::new(r(0.2, 0.5), r(0.2, 0.5), r(0.2, 0.5));
                (Cuboid::new(h).unwrap().into(), SharedShape::cuboid(h.x, h.y, h.z))
            }
            1 => {
                let radius = r(0.25, 0.5);
                (Ball::new(radius).unwrap().into(), SharedShape::ball(radius))
            }
            2 => {
                let (hh, radius) = (r(0.2, 0.4), r(0.15, 0.3));
                let capsule =
                    Capsule::new(Vec3::new(0.0, -hh, 0.0), Vec3::new(0.0, hh, 0.0), radius);
                (capsule.unwrap().into(), SharedShape::capsule_y(hh, radius))
            }
            _ => {
                let k = (r(0.0, 16.0) as usize).min(15);
                (Shape::Polytope(hulls[k].0.clone()), hulls[k].1.clone())
            }
        };
        let start = Vec3::new(r(0.0, side), r(0.0, side), r(0.0, side));
        let mut rng2 = SplitMix64::new(seed ^ (i as u64).wrapping_mul(0x9E37));
        let [x, y, z, w] = rng2.rotation3();
        let rotation = Quat::from_xyzw(x as f32, y as f32, z as f32, w as f32).normalize();
        let velocity =
            Vec3::from(rng2.unit_vector3().map(|c| c as f32)) * rng2.range(0.0, 0.01) as f32;
        let spin_axis = Vec3::from(rng2.unit_vector3().map(|c| c as f32));
        let spin = rng2.range(-0.01, 0.01) as f32;
        bodies.push(Body { ours, parry, start, rotation, velocity, spin_axis, spin });
    }
    bodies
}

type Pairs = BTreeSet<(u32, u32)>;

/// Our pipeline.
struct Ours {
    world: World<Vec3, Shape<Vec3>>,
}

impl Ours {
    fn build(bodies: &[Body]) -> Self {
        let options = WorldOptions { margin: MARGIN, ..Default::default() };
        let mut world = World::new(options);
        for b in bodies {
            let (t, q) = b.pose_at(0);
            world.insert(b.ours.clone(), Pose::from_rotation_translation(q, t));
        }
        Self { world }
    }

    fn frame(&mut self, bodies: &[Body], frame: u32, parallel: bool) {
        if frame > 0 {
            for (i, b) in bodies.iter().enumerate() {
                let (t, q) = b.pose_at(frame);
                let id = gjk::world::BodyId::from_index(i);
                self.world.set_pose(id, Pose::from_rotation_translation(q, t));
            }
        }
        update(&mut self.world, parallel);
    }

    fn pairs(&self) -> Pairs {
        self.world.contacts().map(|(a, b, _)| (a.index() as u32, b.index() as u32)).collect()
    }
}

#[cfg(feature = "rayon")]
fn update(world: &mut World<Vec3, Shape<Vec3>>, parallel: bool) {
    if parallel {
        world.update_parallel();
    } else {
        world.update();
    }
}

#[cfg(not(feature = "rayon"))]
fn update(world: &mut World<Vec3, Shape<Vec3>>, parallel: bool) {
    assert!(!parallel, "--parallel needs the rayon feature");
    world.update();
}

/// Parry's pipeline, as rapier drives its `Bvh` broad phase.
struct Parry {
    bvh: Bvh,
    workspace: BvhWorkspace,
    poses: Vec<parry3d::math::Pose>,
    tight: Vec<Aabb>,
    /// The candidate pairs, each with the manifolds parry keeps for it between frames.
    pairs: HashMap<(u32, u32), Vec<ContactManifold<(), ()>>>,
    in_contact: Vec<(u32, u32)>,
    /// Ask `query::contact` (one point) instead of the manifolds.
    single_contact: bool,
}

impl Parry {
    fn build(bodies: &[Body], single_contact: bool) -> Self {
        let mut parry = Self {
            bvh: Bvh::new(),
            workspace: BvhWorkspace::default(),
            poses: Vec::with_capacity(bodies.len()),
            tight: Vec::with_capacity(bodies.len()),
            pairs: HashMap::new(),
            in_contact: Vec::new(),
            single_contact,
        };
        for b in bodies {
            let (t, q) = b.pose_at(0);
            let pose = parry3d::math::Pose::from_parts(t, q);
            parry.tight.push(b.parry.compute_aabb(&pose));
            parry.poses.push(pose);
        }
        parry
    }

    fn frame(&mut self, bodies: &[Body], frame: u32) {
        for (i, b) in bodies.iter().enumerate() {
            let (t, q) = b.pose_at(frame);
            let pose = parry3d::math::Pose::from_parts(t, q);
            let aabb = b.parry.compute_aabb(&pose);
            self.poses[i] = pose;
            self.tight[i] = aabb;
            self.bvh.insert_or_update_partially(aabb, i as u32, MARGIN);
        }
        self.bvh.refit(&mut self.workspace);
        self.bvh.optimize_incremental(&mut self.workspace);
        let pairs = &mut self.pairs;
        let mut found = |a: u32, b: u32| {
            pairs.entry((a.min(b), a.max(b))).or_default();
        };
        // The first frame traverses the whole tree; later ones only the changed leaves.
        if frame == 0 {
            self.bvh.traverse_bvtt_single_tree::<false>(&mut self.workspace, &mut found);
        } else {
            self.bvh.traverse_bvtt_single_tree::<true>(&mut self.workspace, &mut found);
        }
        // Pairs whose fat boxes parted leave the set.
        let bvh = &self.bvh;
        self.pairs.retain(|&(a, b), _| {
            let (na, nb) = (bvh.leaf_node(a).unwrap(), bvh.leaf_node(b).unwrap());
            na.aabb().intersects(&nb.aabb())
        });
        self.in_contact.clear();
        let (tight, poses) = (&self.tight, &self.poses);
        for (&(a, b), manifolds) in self.pairs.iter_mut() {
            let (a_, b_) = (a as usize, b as usize);
            if !tight[a_].intersects(&tight[b_]) {
                manifolds.clear();
                continue;
            }
            let (shape_a, shape_b) = (bodies[a_].parry.as_ref(), bodies[b_].parry.as_ref());
            let touching = if self.single_contact {
                let c = parry3d::query::contact(&poses[a_], shape_a, &poses[b_], shape_b, 0.0);
                matches!(c, Ok(Some(_)))
            } else {
                let pos12 = poses[a_].inv_mul(&poses[b_]);
                // Convex pairs never use the workspace (composite shapes do).
                let mut workspace = None;
                let found = DefaultQueryDispatcher.contact_manifolds(
                    &pos12,
                    shape_a,
                    shape_b,
                    0.0,
                    manifolds,
                    &mut workspace,
                );
                found.is_ok() && manifolds.iter().any(|m| !m.points.is_empty())
            };
            if touching {
                self.in_contact.push((a, b));
            }
        }
    }

    fn pairs(&self) -> Pairs {
        self.in_contact.iter().copied().collect()
    }
}

fn brute_force(bodies: &[Body], frame: u32) -> Pairs {
    let poses: Vec<Pose<Vec3>> = bodies
        .iter()
        .map(|b| {
            let (t, q) = b.pose_at(frame);
            Pose::from_rotation_translation(q, t)
        })
        .collect();
    let spheres: Vec<(Vec3, f32)> = bodies
        .iter()
        .zip(&poses)
        .map(|(b, p)| (p.transform_point(b.ours.center()), b.ours.extent() + b.ours.margin()))
        .collect();
    let mut pairs = Pairs::new();
    for i in 0..bodies.len() {
        for j in i + 1..bodies.len() {
            let ((ci, ri), (cj, rj)) = (spheres[i], spheres[j]);
            // A little slack for the touching tolerance.
            if (ci - cj).length() > (ri + rj) * 1.001 + 1e-4 {
                continue;
            }
            if intersects(&bodies[i].ours, &poses[i], &bodies[j].ours, &poses[j]) {
                pairs.insert((i as u32, j as u32));
            }
        }
    }
    pairs
}

/// The CPU time of this process's threads so far, in seconds (Linux: the scheduler's run
/// time of each thread, in nanoseconds), or 0 where unavailable. On a loaded machine the wall
/// clock counts the time other processes ran; this does not.
fn cpu_seconds() -> f64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return 0.0 };
    let mut total = 0u64;
    for task in tasks.flatten() {
        let stat = std::fs::read_to_string(task.path().join("schedstat")).unwrap_or_default();
        total += stat.split_whitespace().next().and_then(|t| t.parse::<u64>().ok()).unwrap_or(0);
    }
    total as f64 * 1e-9
}

/// Wall and CPU seconds of `f`.
fn timed(f: impl FnOnce()) -> (f64, f64) {
    let (wall, cpu) = (Instant::now(), cpu_seconds());
    f();
    (wall.elapsed().as_secs_f64(), cpu_seconds() - cpu)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

const USAGE: &str = "usage: world [--bodies N] [--frames F] [--engine both|gjk|parry] [--check] \
                     [--parallel] [--parry-contact]";

/// Exits with the usage and why (status 2), as the `gjk` CLI does for a bad command line.
fn usage_error(why: &str) -> ! {
    eprintln!("world: {why}\n{USAGE}");
    std::process::exit(2)
}

fn main() {
    let mut n = 10_000;
    let mut frames = 10u32;
    let mut engine = "both".to_owned();
    let (mut check, mut parallel, mut parry_contact) = (false, false, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |what: &str| args.next().unwrap_or_else(|| usage_error(what));
        match arg.as_str() {
            "--bodies" => {
                n = value("--bodies needs a count")
                    .parse()
                    .unwrap_or_else(|_| usage_error("--bodies needs a whole number"))
            }
            "--frames" => {
                frames = value("--frames needs a count")
                    .parse()
                    .unwrap_or_else(|_| usage_error("--frames needs a whole number"))
            }
            "--engine" => engine = value("--engine needs both, gjk or parry"),
            "--check" => check = true,
            "--parallel" => parallel = true,
            "--parry-contact" => parry_contact = true,
            "--help" | "-h" => {
                println!("{USAGE}");
                return;
            }
            other => usage_error(&format!("unknown argument {other}")),
        }
    }
    if !["both", "gjk", "parry"].contains(&engine.as_str()) {
        usage_error(&format!("unknown engine {engine}"));
    }
    let bodies = scene(n, 0x5EED + n as u64);
    println!("{n} bodies, {frames} steady frames{}", if parallel { ", parallel" } else { "" });
    let truth = |frame| if check { Some(brute_force(&bodies, frame)) } else { None };
    let first_truth = truth(0);
    let last_truth = truth(frames);
    if engine != "parry" {
        let mut ours = None;
        let build = timed(|| {
            let mut world = Ours::build(&bodies);
            world.frame(&bodies, 0, parallel);
            ours = Some(world);
        });
        let mut ours = ours.expect("built");
        let first = ours.pairs();
        let steady: Vec<_> =
            (1..=frames).map(|f| timed(|| ours.frame(&bodies, f, parallel))).collect();
        report("gjk  ", build, &steady, first.len(), ours.world.candidate_pairs());
        verify("gjk", &first, first_truth.as_ref(), &ours.pairs(), last_truth.as_ref());
    }
    if engine != "gjk" {
        let mut parry = None;
        let build = timed(|| {
            let mut p = Parry::build(&bodies, parry_contact);
            p.frame(&bodies, 0);
            parry = Some(p);
        });
        let mut parry = parry.expect("built");
        let first = parry.pairs();
        let steady: Vec<_> = (1..=frames).map(|f| timed(|| parry.frame(&bodies, f))).collect();
        report("parry", build, &steady, first.len(), parry.pairs.len());
        verify("parry", &first, first_truth.as_ref(), &parry.pairs(), last_truth.as_ref());
    }
}

fn report(
    name: &str,
    build: (f64, f64),
    steady: &[(f64, f64)],
    contacts: usize,
    candidates: usize,
) {
    let wall = median(steady.iter().map(|s| s.0).collect()) * 1e3;
    // The scheduler's run time advances at ticks and switches: averaged over the frames.
    let cpu = steady.iter().map(|s| s.1).sum::<f64>() / steady.len().max(1) as f64 * 1e3;
    println!(
        "{name}  first frame {:8.2} ms wall {:8.2} ms cpu   steady frame {wall:8.3} ms wall (median) {cpu:8.3} ms cpu (mean)   {contacts} pairs in contact, {candidates} candidates",
        build.0 * 1e3,
        build.1 * 1e3,
    );
}

fn verify(name: &str, first: &Pairs, truth0: Option<&Pairs>, last: &Pairs, truth1: Option<&Pairs>) {
    for (frame, got, want) in [("first", first, truth0), ("last", last, truth1)] {
        let Some(want) = want else { continue };
        let missing = want.difference(got).count();
        let extra = got.difference(want).count();
        println!(
            "{name}  {frame} frame against brute force: {} pairs, {missing} missing, {extra} extra{}",
            want.len(),
            if missing + extra == 0 { " (identical)" } else { "" }
        );
    }
}
