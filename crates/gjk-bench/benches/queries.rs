//! Our queries against parry's, on the same pairs, in the same run.
//!
//! Group ids are `<workload>/<query>/<precision>` (for example `box_box/distance/f32`), with
//! the functions `gjk` (ours) and `parry` (parry's public query: `query::intersection_test`,
//! `query::distance`, `query::closest_points`, `query::contact`, `RayCast::cast_ray_and_get_normal`,
//! `query::cast_shapes`, `query::cast_shapes_nonlinear`), and where parry's dispatcher does
//! not use GJK (box–box intersection and distance: SAT; a ball against a polyhedron: point projection; rays on boxes, balls and
//! capsules: closed forms) `parry_gjk`, parry's GJK (or GJK/EPA, GJK ray cast) called
//! directly. Rays also time `parry_toi` (`RayCast::cast_ray`: the time only, no normal) and
//! `gjk_general` (our GJK ray cast on the same shapes seen through a general core: the path
//! before the closed forms).
//! One iteration answers the whole batch of a workload's pairs; the throughput is the number of
//! pairs, so ns per query = iteration time / pairs. `src/bin/report.rs` turns the estimates
//! into `docs/benchmarks.md`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gjk::{Support, Vector};
use gjk_bench::manifolds::{ManifoldQuery, ParryManifold};
use gjk_bench::rays::{self, OurRay, OurRayGjk, ParryRayGjk, ParryToiOnly, RayQuery, RayWorkload};
use gjk_bench::rays2d::{self, RayWorkload2};
use gjk_bench::shape_casts::{self, CastQuery, CastWorkload};
use gjk_bench::spec::{Placement2, Placement3, Spec2, Spec3};
use gjk_bench::toi::{self, ToiQuery, ToiWorkload};
use gjk_bench::{workload, ContactQuery, ParryGjk, Query, Workload};
use glam::{DVec2, DVec3, Vec2, Vec3};

/// The number of pairs that intersect (kept so the loop cannot be optimised away).
fn intersect_all<Q: Query>(cases: &[Q]) -> usize {
    cases.iter().filter(|c| black_box(*c).intersects()).count()
}

/// The sum of the distances.
fn distance_all<Q: Query>(cases: &[Q]) -> f64 {
    cases.iter().map(|c| black_box(c).distance()).sum()
}

/// The sum of the closest points' checksums (distance and coordinates).
fn closest_all<Q: Query>(cases: &[Q]) -> f64 {
    cases.iter().map(|c| black_box(c).closest_points()).sum()
}

/// The sum of the penetration depths.
fn contact_all<Q: ContactQuery>(cases: &[Q]) -> f64 {
    cases.iter().filter_map(|c| black_box(c).contact()).map(|c| c.depth).sum()
}

/// The sum of the ray casts' times of impact and normals (the normal too: a cast inlined into
/// this loop would otherwise skip computing it).
fn ray_all<Q: RayQuery>(cases: &[Q]) -> f64 {
    cases.iter().filter_map(|c| black_box(c).cast()).map(|c| c.checksum()).sum()
}

/// The sum of the shape casts' times of impact.
fn cast_all<Q: CastQuery>(cases: &[Q]) -> f64 {
    cases.iter().filter_map(|c| black_box(c).cast()).map(|c| c.toi).sum()
}

/// The sum of the times of impact under rotation.
fn toi_all<Q: ToiQuery>(cases: &[Q]) -> f64 {
    cases.iter().filter_map(|c| black_box(c).toi()).map(|c| c.toi).sum()
}

/// The number of manifold points (kept so the loop cannot be optimised away).
fn manifold_all<Q: ManifoldQuery>(cases: &[Q]) -> usize {
    cases.iter().filter_map(|c| black_box(c).manifold()).map(|m| m.points).sum()
}

/// One group: `gjk`, `parry` and the optional extra functions, each answering every pair.
macro_rules! group {
    ($c:expr, $id:expr, $all:ident, $ours:expr, $parry:expr $(, $name:literal => $extra:expr)*) => {{
        let mut group = $c.benchmark_group($id);
        group.throughput(Throughput::Elements($ours.len() as u64));
        group.bench_function("gjk", |b| b.iter(|| $all($ours)));
        group.bench_function("parry", |b| b.iter(|| $all($parry)));
        $(if let Some(extra) = $extra {
            group.bench_function($name, |b| b.iter(|| $all(extra)));
        })*
        group.finish();
    }};
}

/// Which of parry's dispatched queries take a special path on a workload (then parry's GJK is
/// timed directly too).
#[derive(Clone, Copy)]
struct Direct {
    /// Intersection test and distance.
    proximity: bool,
    /// Contact.
    contact: bool,
}

/// The three pair queries of one workload in one precision.
fn compare<O, P, G>(
    c: &mut Criterion,
    (name, precision): (&str, &str),
    ours: &[O],
    parry: &[P],
    gjk: &[G],
    direct: Direct,
) where
    O: Query + ContactQuery,
    P: Query + ContactQuery,
    G: Query + ContactQuery,
{
    let proximity = direct.proximity.then_some(gjk);
    let id = |query: &str| format!("{name}/{query}/{precision}");
    group!(c, id("intersects"), intersect_all, ours, parry, "parry_gjk" => proximity);
    group!(c, id("distance"), distance_all, ours, parry, "parry_gjk" => proximity);
    group!(c, id("closest_points"), closest_all, ours, parry, "parry_gjk" => proximity);
    group!(c, id("contact"), contact_all, ours, parry, "parry_gjk" => direct.contact.then_some(gjk));
}

/// A 3D workload in `f32` and `f64`.
fn bench3<A: Spec3, B: Spec3>(c: &mut Criterion, w: &Workload<A, B, Placement3>, direct: Direct) {
    let (ours, parry) = (w.ours::<Vec3>().expect("ours f32"), w.parry().expect("parry3d"));
    let gjk: Vec<_> = parry.iter().map(ParryGjk).collect();
    compare(c, (w.name, "f32"), &ours, &parry, &gjk, direct);
    let (ours, parry) = (w.ours::<DVec3>().expect("ours f64"), w.parry_f64().expect("parry3d-f64"));
    let gjk: Vec<_> = parry.iter().map(ParryGjk).collect();
    compare(c, (w.name, "f64"), &ours, &parry, &gjk, direct);
}

/// A 2D workload in `f32` and `f64`.
fn bench2<A: Spec2, B: Spec2>(c: &mut Criterion, w: &Workload<A, B, Placement2>, direct: Direct) {
    let (ours, parry) = (w.ours::<Vec2>().expect("ours f32"), w.parry().expect("parry2d"));
    let gjk: Vec<_> = parry.iter().map(ParryGjk).collect();
    compare(c, (w.name, "f32"), &ours, &parry, &gjk, direct);
    let (ours, parry) = (w.ours::<DVec2>().expect("ours f64"), w.parry_f64().expect("parry2d-f64"));
    let gjk: Vec<_> = parry.iter().map(ParryGjk).collect();
    compare(c, (w.name, "f64"), &ours, &parry, &gjk, direct);
}

/// The contact query alone (a workload made for the depth table).
fn contact3<A: Spec3, B: Spec3>(c: &mut Criterion, w: &Workload<A, B, Placement3>) {
    let (ours, parry) = (w.ours::<Vec3>().expect("ours f32"), w.parry().expect("parry3d"));
    group!(c, format!("{}/contact/f32", w.name), contact_all, &ours, &parry);
    let (ours, parry) = (w.ours::<DVec3>().expect("ours f64"), w.parry_f64().expect("parry3d-f64"));
    group!(c, format!("{}/contact/f64", w.name), contact_all, &ours, &parry);
}

/// A ray workload in one precision: ours, parry's cast with and without the normal, parry's
/// GJK ray cast if `direct`, and our GJK ray cast on a general core.
fn ray_groups<S: Support<V>, V: Vector, P>(
    c: &mut Criterion,
    id: String,
    ours: &[OurRay<S, V>],
    parry: &[P],
    direct: bool,
) where
    P: RayQuery,
    for<'a> ParryToiOnly<'a, P>: RayQuery,
    for<'a> ParryRayGjk<'a, P>: RayQuery,
{
    let toi: Vec<_> = parry.iter().map(ParryToiOnly).collect();
    let gjk: Vec<_> = parry.iter().map(ParryRayGjk).collect();
    let general: Vec<_> = ours.iter().map(OurRayGjk).collect();
    group!(c, id, ray_all, ours, parry,
        "parry_toi" => Some(&toi), "parry_gjk" => direct.then_some(&gjk),
        "gjk_general" => Some(&general));
}

/// A 3D ray workload in `f32` and `f64` ([`ray_groups`]).
fn rays<S: Spec3>(c: &mut Criterion, w: &RayWorkload<S>, direct: bool) {
    let id = |precision: &str| format!("{}/ray_cast/{precision}", w.name);
    let (ours, parry) = (w.ours::<Vec3>().expect("ours f32"), w.parry().expect("parry3d"));
    ray_groups(c, id("f32"), &ours, &parry, direct);
    let (ours, parry) = (w.ours::<DVec3>().expect("ours f64"), w.parry_f64().expect("parry3d-f64"));
    ray_groups(c, id("f64"), &ours, &parry, direct);
}

/// A 2D ray workload in `f32` and `f64` ([`ray_groups`]).
fn rays2<S: Spec2>(c: &mut Criterion, w: &RayWorkload2<S>, direct: bool) {
    let id = |precision: &str| format!("{}/ray_cast/{precision}", w.name);
    let (ours, parry) = (w.ours::<Vec2>().expect("ours f32"), w.parry().expect("parry2d"));
    ray_groups(c, id("f32"), &ours, &parry, direct);
    let (ours, parry) = (w.ours::<DVec2>().expect("ours f64"), w.parry_f64().expect("parry2d-f64"));
    ray_groups(c, id("f64"), &ours, &parry, direct);
}

/// A shape-cast workload in `f32` and `f64`.
fn casts<A: Spec3, B: Spec3>(c: &mut Criterion, w: &CastWorkload<A, B>) {
    let (ours, parry) = (w.ours::<Vec3>().expect("ours f32"), w.parry().expect("parry3d"));
    group!(c, format!("{}/shape_cast/f32", w.name), cast_all, &ours, &parry);
    let (ours, parry) = (w.ours::<DVec3>().expect("ours f64"), w.parry_f64().expect("parry3d-f64"));
    group!(c, format!("{}/shape_cast/f64", w.name), cast_all, &ours, &parry);
}

/// A time-of-impact workload (rotation and translation) in `f32` and `f64`: ours against
/// parry's `query::cast_shapes_nonlinear`.
fn tois<A: Spec3, B: Spec3>(c: &mut Criterion, w: &ToiWorkload<A, B>) {
    let (ours, parry) = (w.ours::<Vec3>().expect("ours f32"), w.parry().expect("parry3d"));
    group!(c, format!("{}/time_of_impact/f32", w.name), toi_all, &ours, &parry);
    let (ours, parry) = (w.ours::<DVec3>().expect("ours f64"), w.parry_f64().expect("parry3d-f64"));
    group!(c, format!("{}/time_of_impact/f64", w.name), toi_all, &ours, &parry);
}

fn queries(c: &mut Criterion) {
    let general = Direct { proximity: false, contact: false };
    let ball = Direct { proximity: true, contact: true };
    bench3(c, &workload::box_box(), Direct { proximity: true, contact: false });
    bench3(c, &workload::sphere_box(), ball);
    bench3(c, &workload::capsule_capsule(), general);
    bench3(c, &workload::hull_32(), general);
    bench3(c, &workload::hull_1000(), general);
    bench3(c, &workload::cylinder_cone(), general);
    bench2(c, &workload::polygon_8(), general);
    bench2(c, &workload::circle_polygon(), ball);
    bench2(c, &workload::tutorial_triangles(), general);
    contact3(c, &workload::box_box_aligned());
}

/// A 3D manifold workload in `f32` and `f64`: ours against parry's `contact_manifolds` (which
/// keeps each pair's manifold between calls).
fn manifolds3<A: Spec3, B: Spec3>(c: &mut Criterion, w: &Workload<A, B, Placement3>) {
    let (ours, parry) = (w.ours::<Vec3>().expect("ours f32"), w.parry().expect("parry3d"));
    let cold: Vec<_> = parry.iter().map(ParryManifold::cold).collect();
    let parry: Vec<_> = parry.iter().map(ParryManifold::new).collect();
    group!(c, format!("{}/manifold/f32", w.name), manifold_all, &ours, &parry,
        "parry_cold" => Some(&cold));
    let (ours, parry) = (w.ours::<DVec3>().expect("ours f64"), w.parry_f64().expect("parry3d-f64"));
    let cold: Vec<_> = parry.iter().map(ParryManifold::cold).collect();
    let parry: Vec<_> = parry.iter().map(ParryManifold::new).collect();
    group!(c, format!("{}/manifold/f64", w.name), manifold_all, &ours, &parry,
        "parry_cold" => Some(&cold));
}

/// A 2D manifold workload in `f32` and `f64`.
fn manifolds2<A: Spec2, B: Spec2>(c: &mut Criterion, w: &Workload<A, B, Placement2>) {
    let (ours, parry) = (w.ours::<Vec2>().expect("ours f32"), w.parry().expect("parry2d"));
    let cold: Vec<_> = parry.iter().map(ParryManifold::cold).collect();
    let parry: Vec<_> = parry.iter().map(ParryManifold::new).collect();
    group!(c, format!("{}/manifold/f32", w.name), manifold_all, &ours, &parry,
        "parry_cold" => Some(&cold));
    let (ours, parry) = (w.ours::<DVec2>().expect("ours f64"), w.parry_f64().expect("parry2d-f64"));
    let cold: Vec<_> = parry.iter().map(ParryManifold::cold).collect();
    let parry: Vec<_> = parry.iter().map(ParryManifold::new).collect();
    group!(c, format!("{}/manifold/f64", w.name), manifold_all, &ours, &parry,
        "parry_cold" => Some(&cold));
}

/// Contact manifolds: box–box, 32-point hulls, capsule–box, 2D octagons.
fn manifolds(c: &mut Criterion) {
    manifolds3(c, &workload::box_box());
    manifolds3(c, &workload::hull_32());
    manifolds3(c, &workload::capsule_box());
    manifolds2(c, &workload::polygon_8());
}

fn casts_and_rays(c: &mut Criterion) {
    rays(c, &rays::ray_box(), true);
    rays(c, &rays::ray_sphere(), true);
    rays(c, &rays::ray_capsule(), true);
    rays(c, &rays::ray_hull_32(), false);
    rays(c, &rays::ray_cylinder(), false);
    rays(c, &rays::ray_cone(), false);
    // parry2d casts rays on discs and triangles in closed form, on polygons by GJK.
    rays2(c, &rays2d::ray_circle(), true);
    rays2(c, &rays2d::ray_polygon_8(), false);
    rays2(c, &rays2d::ray_triangle(), true);
    casts(c, &shape_casts::cast_box_box());
    casts(c, &shape_casts::cast_hull_32());
    tois(c, &toi::toi_box_box());
    tois(c, &toi::toi_hull_32());
}

criterion_group! {
    name = benches;
    // 50 samples keep the 1,000-point hulls (about a millisecond per batch) within a short
    // measurement time; the command line may still override it.
    config = Criterion::default().sample_size(50);
    targets = queries, casts_and_rays, manifolds
}
criterion_main!(benches);
