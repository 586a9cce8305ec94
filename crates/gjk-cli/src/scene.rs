//! `gjk scene FILE`: every pair in contact among many bodies, through the library's collision
//! world (bounding boxes, the AABB tree, the narrow phase of [`gjk::world`]).
//!
//! The file is one JSON object; bodies that cannot be read get an error record each (with
//! their index) and the scene of the others is still answered, as `gjk query` answers the
//! lines after a bad one.

use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Arg, ArgMatches, Command};
use gjk::world::{World, WorldOptions};
use gjk::{ManifoldOptions, Pose};
use glam::{DVec2, DVec3};
use serde_json::Value;

use crate::json::{self, Object};
use crate::kinds::{contact_word, manifold_is_finite, points_json};
use crate::output::Record;
use crate::query::shapes_and_poses;
use crate::shapes::{BoxedShape, Dimension, PoseSpec, ShapeSpec, Space};
use crate::status::Status;
use crate::{fail, EXIT_LINES_FAILED};

/// `gjk scene FILE`: arguments and the whole format.
pub(crate) fn command() -> Command {
    Command::new("scene")
        .about("Find every pair in contact among the bodies of a JSON scene (--help: the format)")
        .long_about(
            "Reads a scene of bodies (shapes with poses) from FILE (standard input for '-') and\n\
             writes one JSON line per pair of bodies in contact, found by the library's broad\n\
             phase (an AABB tree) and narrow phase (GJK, EPA and the closed forms), with the\n\
             pair's contact manifold: up to 2 (2D) or 4 (3D) points under one normal.",
        )
        .arg(
            Arg::new("file")
                .value_name("FILE")
                .required(true)
                .value_parser(clap::value_parser!(PathBuf))
                .help("The scene, one JSON object; - for standard input"),
        )
        .after_long_help(usage())
}

fn usage() -> String {
    let mut text = String::from(USAGE_INPUT);
    text.push_str(&shapes_and_poses());
    text.push_str(USAGE_OUTPUT);
    text
}

const USAGE_INPUT: &str = "\
FORMAT

INPUT: one JSON object (it may span many lines):
  {\"dim\": 2 | 3, \"bodies\": [{\"id\": ANY, \"shape\": SHAPE, \"pose\": POSE}, ...],
   \"prediction\": d}
  dim       the dimension of every body
  bodies    the bodies; id is echoed in the answers (null when absent), pose is optional
            (the identity)
  prediction  optional, >= 0 (default 0): also report pairs apart by at most d
  Unknown fields are ignored.

";

const USAGE_OUTPUT: &str = "
ANSWER: one line per pair in contact, fields in this order:
  {\"a\": ID, \"b\": ID, \"normal\": [..], \"depth\": d, \"points\": [{\"point_a\": [..],
   \"point_b\": [..], \"depth\": d, \"id\": [1073741824, 3]}, ..], \"contact_status\": WORD,
   \"status\": WORD}
  a comes before b in the file; the pairs are sorted by a's place in the file, then b's.
  In contact: the shapes touch or overlap, or (with a prediction) are apart by at most it.
  The normal, points and statuses are the pair's contact manifold, exactly as a
  {\"query\": \"manifold\"} line of `gjk query` answers it for a and b (see its --help).
  normal    unit, from a toward b, shared by the points
  depth     the deepest point's: > 0 the overlap, 0 touching; a gap of g within the
            prediction prints \"distance\": g instead of \"depth\"
  points    up to 2 (2D) or 4 (3D): point_a on a's surface, point_b on b's (world
            coordinates), the signed depth (negative for a gap; on a face's patch
            point_a - point_b = depth * normal), id = [a's feature, b's feature], the same
            from frame to frame while the same features touch (top two bits: 0 vertex,
            1 edge, 2 face)
  contact_status  how the contact query that found the normal ended (exact, or a GJK or
            EPA ending as in proximity answers)
  status    how the points were found: clipped_a or clipped_b (a face of a or b clipped
            the other's feature), single_point, tilted, degenerate (one point), as in
            `gjk query --help`

ERRORS: a body that cannot be read gives {\"id\": ID or null, \"body\": i, \"error\": \"why\"}
  (i counts from 0), printed before the pairs; the other bodies are still answered. A pair
  whose numbers are not finite gives {\"a\": ID, \"b\": ID, \"error\": \"why\"} in its place. A file
  that is not a scene (bad JSON, no bodies, dim not 2 or 3) is a usage error.

EXIT STATUS: 0 every body and pair answered, 1 some failed, 2 usage or I/O error.
";

/// One body as read from the file.
struct BodySpec {
    id: Value,
    shape: ShapeSpec,
    pose: PoseSpec,
}

/// The scene's header fields and its bodies (bad ones as error records).
struct Scene {
    dimension: usize,
    prediction: f64,
    bodies: Vec<Result<BodySpec, (Value, String)>>,
}

/// Runs `gjk scene FILE`.
pub(crate) fn run(matches: &ArgMatches) -> ExitCode {
    let Some(path) = matches.get_one::<PathBuf>("file") else { unreachable!("FILE is required") };
    let name = path.display().to_string();
    let mut text = String::new();
    let read = if name == "-" {
        io::stdin().lock().read_to_string(&mut text)
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_string(&mut text))
    };
    if let Err(e) = read {
        return fail(&format!("cannot read {name}: {e}"));
    }
    let scene = match parse_scene(&text) {
        Ok(scene) => scene,
        Err(why) => return fail(&format!("{name}: {why}")),
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let answered = if scene.dimension == 2 {
        answer::<DVec2>(&scene, &mut out)
    } else {
        answer::<DVec3>(&scene, &mut out)
    };
    match answered.and_then(|failed| out.flush().map(|()| failed)) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(EXIT_LINES_FAILED),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail(&format!("cannot write: {e}")),
    }
}

fn parse_scene(text: &str) -> Result<Scene, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let reason = full.rsplit_once(" at line ").map_or(full.as_str(), |(r, _)| r);
        format!("invalid JSON at line {}, column {}: {reason}", e.line(), e.column())
    })?;
    if !value.is_object() {
        return Err("expected a JSON object {\"dim\", \"bodies\", \"prediction\"}".to_owned());
    }
    let scene = Object::new(&value, "")?;
    let dimension = match scene.required("dim")?.as_u64() {
        Some(d @ (2 | 3)) => d as usize,
        _ => return Err(json::at("dim", "must be 2 or 3".to_owned())),
    };
    let prediction = match scene.optional("prediction") {
        Some(_) => scene.non_negative("prediction")?,
        None => 0.0,
    };
    let Value::Array(items) = scene.required("bodies")? else {
        return Err(json::at("bodies", "must be an array of bodies".to_owned()));
    };
    let bodies = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let id = item.get("id").cloned().unwrap_or(Value::Null);
            parse_body(item, i, dimension).map_err(|why| (id, why))
        })
        .collect();
    Ok(Scene { dimension, prediction, bodies })
}

fn parse_body(value: &Value, index: usize, dimension: usize) -> Result<BodySpec, String> {
    let path = format!("bodies[{index}]");
    let body = Object::new(value, &path)?;
    let mut seen = Dimension::declared(dimension, "dim");
    let shape = ShapeSpec::parse(body.required("shape")?, &format!("{path}.shape"), &mut seen)?;
    let pose = PoseSpec::parse(body.optional("pose"), &format!("{path}.pose"), &mut seen)?;
    let id = body.optional("id").cloned().unwrap_or(Value::Null);
    Ok(BodySpec { id, shape, pose })
}

/// Builds the world of the scene's good bodies, runs one update, writes the error records and
/// the pairs. Returns the number of bodies and pairs that failed.
fn answer<V: Space>(scene: &Scene, out: &mut impl Write) -> io::Result<usize> {
    let options = WorldOptions {
        manifold: ManifoldOptions { prediction: scene.prediction, ..Default::default() },
        ..Default::default()
    };
    let mut world: World<V, BoxedShape<V>> = World::new(options);
    // The file index of each body in the world (bodies enter in file order).
    let mut ids: Vec<&Value> = Vec::new();
    let mut failed = 0;
    for (i, body) in scene.bodies.iter().enumerate() {
        let built = body.as_ref().map_err(|(id, why)| (id, why.clone())).and_then(|spec| {
            build::<V>(spec, i).map(|(shape, pose)| (spec, shape, pose)).map_err(|w| (&spec.id, w))
        });
        match built {
            Ok((spec, shape, pose)) => {
                world.insert(shape, pose);
                ids.push(&spec.id);
            }
            Err((id, why)) => {
                failed += 1;
                let mut record = Record::begin(out, id)?;
                record.field("body", i)?;
                record.string("error", &why)?;
                record.end()?;
            }
        }
    }
    world.update();
    for (a, b, manifold) in world.contacts() {
        let mut record = Record::begin_with(out, "a", ids[a.index()])?;
        record.field("b", ids[b.index()])?;
        let deepest = manifold.deepest().filter(|_| manifold_is_finite(manifold));
        let (Some(deepest), Some(contact_status)) = (deepest, manifold.contact_status) else {
            // In contact means points; a manifold without them, or with a number that is not
            // finite, is reported rather than printed.
            failed += 1;
            record.string("error", crate::kinds::NON_FINITE)?;
            record.end()?;
            continue;
        };
        record.vector("normal", manifold.normal)?;
        if deepest.depth >= 0.0 {
            record.number("depth", deepest.depth)?;
        } else {
            record.number("distance", -deepest.depth)?;
        }
        record.field("points", points_json(manifold))?;
        record.string("contact_status", contact_word(contact_status))?;
        record.string("status", Status::Manifold(manifold.status).name())?;
        record.end()?;
    }
    Ok(failed)
}

fn build<V: Space>(spec: &BodySpec, index: usize) -> Result<(BoxedShape<V>, Pose<V>), String> {
    let path = format!("bodies[{index}]");
    let shape = spec.shape.build::<V>(&format!("{path}.shape"))?;
    let pose = spec.pose.build::<V>(&format!("{path}.pose"))?;
    Ok((shape, pose))
}
