//! A small driver for profilers (callgrind, perf): runs one query of one workload, for one
//! library, over the workload's pairs a number of times.
//!
//! ```text
//! profile WORKLOAD QUERY PRECISION LIBRARY [ROUNDS]
//!   WORKLOAD  box_box | sphere_box | capsule_capsule | hull_32 | hull_1000 | cylinder_cone
//!             | polygon_8 | circle_polygon | tutorial_triangles | box_box_aligned | capsule_box
//!   QUERY     intersects | distance | closest_points | contact | manifold
//! profile ray_box | ray_sphere | ray_capsule | ray_hull_32 | ray_cylinder | ray_cone
//!         | ray_circle | ray_polygon_8 | ray_triangle  ray  PRECISION  gjk | parry  [ROUNDS]
//!             (ray casts: solid, time and normal, over the ray workload's 1000 rays)
//! profile toi_box_box | toi_hull_32  toi  PRECISION  gjk | parry  [ROUNDS]
//!             (time of impact under rotation over the toi workload's pairs: ours,
//!             `gjk::time_of_impact`, or parry's `query::cast_shapes_nonlinear`)
//!   PRECISION f32 | f64
//!   LIBRARY   gjk | parry | parry_gjk | ccd_mpr | ccd_gjk
//! ```
//! `ccd_mpr` and `ccd_gjk` (feature `peers`, which links the system's libccd) run libccd's
//! `ccdMPRIntersect` and `ccdGJKIntersect` through `gjk_bench::ccd`, for `intersects` on the
//! 3D workloads the peers comparison covers (box_box, sphere_box, capsule_capsule, hull_32,
//! cylinder_cone), so that callgrind counts libccd's instructions in the same binary.
//! `manifold` runs ours ([`gjk::manifold`]) or, for `parry`, parry's `contact_manifolds` from
//! no kept manifold (`parry_cold` of the benchmark; `parry_gjk` is not a manifold query).
//! The checksum is the sum of the times of impact found (and of the normals' components).
//! Example: `valgrind --tool=callgrind target/release/profile box_box distance f32 gjk 200`.

use std::hint::black_box;
use std::process::ExitCode;

use gjk_bench::manifolds::{ManifoldQuery, ParryManifold};
use gjk_bench::rays::{self, RayQuery, RayWorkload};
use gjk_bench::rays2d::{self, RayWorkload2};
use gjk_bench::spec::{BuildError, Placement2, Placement3, Spec2, Spec3};
use gjk_bench::toi::{self, ToiQuery, ToiWorkload};
use gjk_bench::{workload, ContactQuery, ParryGjk, Query, Workload};
use glam::{DVec2, DVec3, Vec2, Vec3};

/// What to run.
struct Job {
    query: String,
    precision: String,
    library: String,
    rounds: usize,
}

impl Job {
    /// Runs the query over `cases` `rounds` times; returns a checksum.
    fn run<Q: Query + ContactQuery>(&self, cases: &[Q]) -> f64 {
        let mut sum = 0.0;
        for _ in 0..self.rounds {
            for c in cases {
                sum += match self.query.as_str() {
                    "intersects" => f64::from(u8::from(black_box(c).intersects())),
                    "contact" => black_box(c).contact().map_or(0.0, |c| c.depth),
                    "closest_points" => black_box(c).closest_points(),
                    _ => black_box(c).distance(),
                };
            }
        }
        sum
    }

    /// Runs the manifold query over `cases` `rounds` times; returns a checksum.
    fn run_manifold<Q: ManifoldQuery>(&self, cases: &[Q]) -> f64 {
        let mut sum = 0.0;
        for _ in 0..self.rounds {
            for c in cases {
                sum += black_box(c).manifold().map_or(0.0, |m| m.max_depth + m.points as f64);
            }
        }
        sum
    }

    fn three<A: Spec3, B: Spec3>(&self, w: &Workload<A, B, Placement3>) -> Result<f64, BuildError> {
        if self.query == "manifold" {
            return Ok(match (self.precision.as_str(), self.library.as_str()) {
                ("f32", "gjk") => self.run_manifold(&w.ours::<Vec3>()?),
                ("f64", "gjk") => self.run_manifold(&w.ours::<DVec3>()?),
                ("f32", _) => {
                    let parry = w.parry()?;
                    self.run_manifold(&parry.iter().map(ParryManifold::cold).collect::<Vec<_>>())
                }
                _ => {
                    let parry = w.parry_f64()?;
                    self.run_manifold(&parry.iter().map(ParryManifold::cold).collect::<Vec<_>>())
                }
            });
        }
        Ok(match (self.precision.as_str(), self.library.as_str()) {
            ("f32", "gjk") => self.run(&w.ours::<Vec3>()?),
            ("f64", "gjk") => self.run(&w.ours::<DVec3>()?),
            ("f32", "parry") => self.run(&w.parry()?),
            ("f64", "parry") => self.run(&w.parry_f64()?),
            ("f32", _) => self.run(&w.parry()?.iter().map(ParryGjk).collect::<Vec<_>>()),
            _ => self.run(&w.parry_f64()?.iter().map(ParryGjk).collect::<Vec<_>>()),
        })
    }

    fn two<A: Spec2, B: Spec2>(&self, w: &Workload<A, B, Placement2>) -> Result<f64, BuildError> {
        if self.query == "manifold" {
            return Ok(match (self.precision.as_str(), self.library.as_str()) {
                ("f32", "gjk") => self.run_manifold(&w.ours::<Vec2>()?),
                ("f64", "gjk") => self.run_manifold(&w.ours::<DVec2>()?),
                ("f32", _) => {
                    let parry = w.parry()?;
                    self.run_manifold(&parry.iter().map(ParryManifold::cold).collect::<Vec<_>>())
                }
                _ => {
                    let parry = w.parry_f64()?;
                    self.run_manifold(&parry.iter().map(ParryManifold::cold).collect::<Vec<_>>())
                }
            });
        }
        Ok(match (self.precision.as_str(), self.library.as_str()) {
            ("f32", "gjk") => self.run(&w.ours::<Vec2>()?),
            ("f64", "gjk") => self.run(&w.ours::<DVec2>()?),
            ("f32", "parry") => self.run(&w.parry()?),
            ("f64", "parry") => self.run(&w.parry_f64()?),
            ("f32", _) => self.run(&w.parry()?.iter().map(ParryGjk).collect::<Vec<_>>()),
            _ => self.run(&w.parry_f64()?.iter().map(ParryGjk).collect::<Vec<_>>()),
        })
    }

    /// Runs the ray casts over `rays` `rounds` times; returns a checksum.
    fn cast<R: RayQuery>(&self, rays: &[R]) -> f64 {
        let mut sum = 0.0;
        for _ in 0..self.rounds {
            for r in rays {
                sum += black_box(r).cast().map_or(0.0, |hit| hit.checksum());
            }
        }
        sum
    }

    fn rays<S: Spec3>(&self, w: &RayWorkload<S>) -> Result<f64, BuildError> {
        Ok(match (self.precision.as_str(), self.library.as_str()) {
            ("f32", "gjk") => self.cast(&w.ours::<Vec3>()?),
            ("f64", "gjk") => self.cast(&w.ours::<DVec3>()?),
            ("f32", _) => self.cast(&w.parry()?),
            _ => self.cast(&w.parry_f64()?),
        })
    }

    fn rays2<S: Spec2>(&self, w: &RayWorkload2<S>) -> Result<f64, BuildError> {
        Ok(match (self.precision.as_str(), self.library.as_str()) {
            ("f32", "gjk") => self.cast(&w.ours::<Vec2>()?),
            ("f64", "gjk") => self.cast(&w.ours::<DVec2>()?),
            ("f32", _) => self.cast(&w.parry()?),
            _ => self.cast(&w.parry_f64()?),
        })
    }

    /// Runs the time-of-impact query over `cases` `rounds` times; returns the sum of the
    /// times of impact found. Prints the best round's wall time per query to stderr (a
    /// supporting figure: the instruction count under callgrind is the load-independent one).
    fn run_toi<Q: ToiQuery>(&self, cases: &[Q]) -> f64 {
        let mut sum = 0.0;
        let mut best = f64::INFINITY;
        for _ in 0..self.rounds {
            let start = std::time::Instant::now();
            for c in cases {
                sum += black_box(c).toi().map_or(0.0, |hit| hit.toi);
            }
            best = best.min(start.elapsed().as_secs_f64());
        }
        if !cases.is_empty() {
            eprintln!("best round: {:.3} us/query", best * 1e6 / cases.len() as f64);
        }
        sum
    }

    fn tois<A: Spec3, B: Spec3>(&self, w: &ToiWorkload<A, B>) -> Result<f64, BuildError> {
        Ok(match (self.precision.as_str(), self.library.as_str()) {
            ("f32", "gjk") => self.run_toi(&w.ours::<Vec3>()?),
            ("f64", "gjk") => self.run_toi(&w.ours::<DVec3>()?),
            ("f32", _) => self.run_toi(&w.parry()?),
            _ => self.run_toi(&w.parry_f64()?),
        })
    }

    fn workload(&self, name: &str) -> Option<Result<f64, BuildError>> {
        Some(match name {
            "box_box" => self.three(&workload::box_box()),
            "sphere_box" => self.three(&workload::sphere_box()),
            "capsule_capsule" => self.three(&workload::capsule_capsule()),
            "hull_32" => self.three(&workload::hull_32()),
            "hull_1000" => self.three(&workload::hull_1000()),
            "cylinder_cone" => self.three(&workload::cylinder_cone()),
            "polygon_8" => self.two(&workload::polygon_8()),
            "circle_polygon" => self.two(&workload::circle_polygon()),
            "tutorial_triangles" => self.two(&workload::tutorial_triangles()),
            "box_box_aligned" => self.three(&workload::box_box_aligned()),
            "ray_box" => self.rays(&rays::ray_box()),
            "ray_sphere" => self.rays(&rays::ray_sphere()),
            "ray_capsule" => self.rays(&rays::ray_capsule()),
            "ray_hull_32" => self.rays(&rays::ray_hull_32()),
            "ray_cylinder" => self.rays(&rays::ray_cylinder()),
            "ray_cone" => self.rays(&rays::ray_cone()),
            "ray_circle" => self.rays2(&rays2d::ray_circle()),
            "ray_polygon_8" => self.rays2(&rays2d::ray_polygon_8()),
            "ray_triangle" => self.rays2(&rays2d::ray_triangle()),
            "capsule_box" => self.three(&workload::capsule_box()),
            "toi_box_box" => self.tois(&toi::toi_box_box()),
            "toi_hull_32" => self.tois(&toi::toi_hull_32()),
            _ => return None,
        })
    }
}

/// libccd's intersection test (`ccd_mpr` or `ccd_gjk`) over a workload's pairs `rounds` times;
/// `None` for a workload it does not cover.
#[cfg(feature = "peers")]
fn ccd(job: &Job, name: &str) -> Option<f64> {
    use gjk_bench::ccd::{CcdPair, CcdShape};
    use gjk_bench::peers::AsPeerShape;
    fn pairs<A: AsPeerShape, B: AsPeerShape>(w: &Workload<A, B, Placement3>) -> Vec<CcdPair> {
        w.cases
            .iter()
            .map(|c| CcdPair {
                a: CcdShape::new(c.a.peer_shape(), &c.pose_a),
                b: CcdShape::new(c.b.peer_shape(), &c.pose_b),
            })
            .collect()
    }
    let cases = match name {
        "box_box" => pairs(&workload::box_box()),
        "sphere_box" => pairs(&workload::sphere_box()),
        "capsule_capsule" => pairs(&workload::capsule_capsule()),
        "hull_32" => pairs(&workload::hull_32()),
        "cylinder_cone" => pairs(&workload::cylinder_cone()),
        _ => return None,
    };
    let test =
        if job.library == "ccd_mpr" { CcdPair::mpr_intersects } else { CcdPair::gjk_intersects };
    let mut sum = 0.0;
    for _ in 0..job.rounds {
        for c in &cases {
            sum += f64::from(u8::from(test(black_box(c))));
        }
    }
    Some(sum)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let valid = args.len() >= 4
        && ["intersects", "distance", "closest_points", "contact", "manifold", "ray", "toi"].contains(&args[1].as_str())
        && ["f32", "f64"].contains(&args[2].as_str())
        && ["gjk", "parry", "parry_gjk", "ccd_mpr", "ccd_gjk"].contains(&args[3].as_str())
        // libccd only answers the intersection test here, and only with the `peers` feature.
        && (!args[3].starts_with("ccd") || (cfg!(feature = "peers") && args[1] == "intersects"))
        // The time-of-impact workloads answer only the `toi` query, and only they do.
        && (args[1] == "toi") == args[0].starts_with("toi_");
    if !valid {
        eprintln!(
            "usage: profile WORKLOAD intersects|distance|closest_points|contact|manifold|ray|toi f32|f64 gjk|parry|parry_gjk|ccd_mpr|ccd_gjk [ROUNDS]"
        );
        return ExitCode::FAILURE;
    }
    let job = Job {
        query: args[1].clone(),
        precision: args[2].clone(),
        library: args[3].clone(),
        rounds: args.get(4).and_then(|r| r.parse().ok()).unwrap_or(100),
    };
    #[cfg(feature = "peers")]
    if job.library.starts_with("ccd") {
        return match ccd(&job, &args[0]) {
            Some(checksum) => {
                println!("checksum {checksum}");
                ExitCode::SUCCESS
            }
            None => {
                eprintln!(
                    "libccd runs box_box, sphere_box, capsule_capsule, hull_32, cylinder_cone"
                );
                ExitCode::FAILURE
            }
        };
    }
    match job.workload(&args[0]) {
        Some(Ok(checksum)) => {
            println!("checksum {checksum}");
            ExitCode::SUCCESS
        }
        Some(Err(e)) => {
            eprintln!("cannot build the workload: {e}");
            ExitCode::FAILURE
        }
        None => {
            eprintln!("unknown workload {}", args[0]);
            ExitCode::FAILURE
        }
    }
}
