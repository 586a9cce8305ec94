//! `gjk demo`: a built-in scene of 2D and 3D pairs, answered and printed as an aligned table.
//!
//! The scene is written in the input format of `gjk query` (one JSON line per pair, the `id` is
//! the pair's name), so the demo also shows that format at work.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use gjk::Vector;

use crate::fail;
use crate::kinds::{solve, Answer};
use crate::shapes::{parse_line, ParsedPair};

/// The scene: one query per line. Expected answers (analytic) are noted in the pair names'
/// comments below and checked by the tests.
pub(crate) const SCENE: &str = r#"
{"id":"tutorial triangles","a":{"type":"polygon","points":[[0,1],[1,-1],[-1,-1]]},"b":{"type":"polygon","points":[[0,-1],[1,1],[-1,1]]}}
{"id":"dyn4j polygons","a":{"type":"polygon","points":[[4,11],[4,5],[9,9]]},"b":{"type":"polygon","points":[[5,7],[12,7],[10,2],[7,3]]}}
{"id":"circle, rectangle apart","a":{"type":"circle","radius":1},"b":{"type":"rectangle","half_extents":[1,0.5]},"pose_b":{"translation":[3,0]}}
{"id":"squares touching","a":{"type":"rectangle","half_extents":[1,1]},"b":{"type":"rectangle","half_extents":[1,1]},"pose_b":{"translation":[2,0]}}
{"id":"turned square, circle","a":{"type":"rectangle","half_extents":[1,1]},"pose_a":{"rotation":0.7853981633974483},"b":{"type":"circle","radius":0.5,"center":[3,0]}}
{"id":"capsule, segment 2D","a":{"type":"capsule","a":[-1,0],"b":[1,0],"radius":0.5},"b":{"type":"segment","a":[0,2],"b":[3,3]}}
{"id":"boxes apart","a":{"type":"box","half_extents":[1,1,1]},"b":{"type":"box","half_extents":[0.5,0.5,0.5]},"pose_b":{"translation":[3,0.2,0.1]}}
{"id":"boxes overlapping","a":{"type":"box","half_extents":[1,1,1]},"b":{"type":"box","half_extents":[1,1,1]},"pose_b":{"translation":[1.8,0,0],"rotation":[0,0,0.3826834323650898,0.9238795325112867]}}
{"id":"balls touching","a":{"type":"sphere","radius":1,"center":[0,0,0]},"b":{"type":"sphere","radius":1,"center":[2,0,0]}}
{"id":"balls apart","a":{"type":"sphere","radius":1,"center":[0,0,0]},"b":{"type":"sphere","radius":0.5,"center":[2,2,1]}}
{"id":"capsules, skew","a":{"type":"capsule","a":[-2,0,0],"b":[2,0,0],"radius":0.5},"b":{"type":"capsule","a":[0,-2,3],"b":[0,2,3],"radius":0.5}}
{"id":"cylinder, cone","a":{"type":"cylinder","half_height":1,"radius":1},"b":{"type":"cone","half_height":1,"radius":1},"pose_b":{"translation":[0,3.5,0],"rotation":[1,0,0,0]}}
{"id":"octahedron, ball","a":{"type":"polytope","points":[[1,0,0],[-1,0,0],[0,1,0],[0,-1,0],[0,0,1],[0,0,-1]]},"b":{"type":"sphere","radius":0.5,"center":[2,2,2]}}
{"id":"rounded box, ellipsoid","a":{"type":"box","half_extents":[1,1,1],"margin":0.25},"b":{"type":"ellipsoid","radii":[2,1,1]},"pose_b":{"translation":[0,3,0]}}
{"id":"triangle, segment 3D","a":{"type":"triangle","a":[0,0,0],"b":[2,0,0],"c":[0,2,0]},"b":{"type":"segment","a":[0.5,0.5,1],"b":[0.5,0.5,3]}}
"#;

const HEADER: [&str; 9] = [
    "pair",
    "dim",
    "intersects",
    "distance",
    "point_a",
    "point_b",
    "normal",
    "iters",
    "termination",
];

const FOOTER: &str = "\
Points are world coordinates, rounded to 3 decimals; the normal points from A toward B.
For intersecting pairs `distance` shows minus the penetration depth, the points are the
deepest points of the overlap, and moving B by depth x normal separates the pair.
Each row is one line of the JSON-lines input format: try `gjk query --help`.
";

/// `gjk demo`: no arguments.
pub(crate) fn command() -> clap::Command {
    clap::Command::new("demo")
        .about("Answer a built-in scene of 2D and 3D pairs, printed as a table")
        .long_about(
            "Answers a built-in scene of 2D and 3D pairs and prints a table. Each row is one line\n\
             of the JSON-lines input format of `gjk query`.",
        )
}

/// Runs `gjk demo`.
pub(crate) fn run(_: &clap::ArgMatches) -> ExitCode {
    let table = render(&rows());
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match out
        .write_all(table.as_bytes())
        .and_then(|()| out.write_all(FOOTER.as_bytes()))
        .and_then(|()| out.flush())
    {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => fail(&format!("cannot write: {e}")),
        _ => ExitCode::SUCCESS,
    }
}

/// One table row per scene line.
pub(crate) fn rows() -> Vec<[String; 9]> {
    SCENE.lines().filter(|l| !l.trim().is_empty()).map(row).collect()
}

fn row(line: &str) -> [String; 9] {
    match parse_line(line) {
        Ok(parsed) => {
            let name = parsed.id.as_str().unwrap_or("?").to_owned();
            match &parsed.pair {
                ParsedPair::Two(pair) => result_row(name, "2D", &solve(pair)),
                ParsedPair::Three(pair) => result_row(name, "3D", &solve(pair)),
            }
        }
        // The scene is fixed and tested; show a broken line rather than hide it.
        Err(e) => [
            e.id.to_string(),
            e.message,
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
        ],
    }
}

fn result_row<V: Vector<Real = f64>>(name: String, dim: &str, r: &Answer<V>) -> [String; 9] {
    [
        name,
        dim.to_owned(),
        if r.intersecting { "yes" } else { "no" }.to_owned(),
        if r.intersecting { fixed(-r.penetration_depth) } else { fixed(r.distance) },
        point(r.point_a),
        point(r.point_b),
        point(r.normal),
        r.iterations.to_string(),
        format!("{:?}", r.termination),
    ]
}

/// `x` with 3 decimals, without a minus sign on zero.
fn fixed(x: f64) -> String {
    let s = format!("{x:.3}");
    if s.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
        s.trim_start_matches('-').to_owned()
    } else {
        s
    }
}

/// `(x, y)` or `(x, y, z)`.
fn point<V: Vector<Real = f64>>(v: V) -> String {
    let parts: Vec<String> = (0..V::DIM).map(|i| fixed(v.component(i))).collect();
    format!("({})", parts.join(", "))
}

/// The rows under the header, columns padded to their widest cell.
fn render(rows: &[[String; 9]]) -> String {
    let mut widths = HEADER.map(|h| h.chars().count());
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut text = String::new();
    let header = HEADER.map(str::to_owned);
    for row in std::iter::once(&header).chain(rows) {
        let mut line = String::new();
        for (cell, width) in row.iter().zip(widths) {
            line.push_str(cell);
            line.extend(std::iter::repeat_n(' ', width - cell.chars().count() + 2));
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The analytic answer of each scene pair: intersecting, or the distance.
    const EXPECTED: [(&str, Option<f64>); 15] = [
        ("tutorial triangles", None),
        ("dyn4j polygons", None),
        ("circle, rectangle apart", Some(1.0)),
        ("squares touching", None),
        // Corner of the turned square at √2; circle of radius 0.5 centred at 3.
        ("turned square, circle", Some(3.0 - std::f64::consts::SQRT_2 - 0.5)),
        ("capsule, segment 2D", Some(1.5)),
        ("boxes apart", Some(1.5)),
        // The turned box reaches to 1.8 − √2 ≈ 0.39 < 1.
        ("boxes overlapping", None),
        ("balls touching", None),
        ("balls apart", Some(1.5)),
        ("capsules, skew", Some(2.0)),
        // The flipped cone's apex at y = 2.5, the cylinder's top at 1.
        ("cylinder, cone", Some(1.5)),
        // Face x + y + z = 1 to the point (2, 2, 2): 5/√3, minus the radius.
        ("octahedron, ball", Some(5.0 / 1.7320508075688772 - 0.5)),
        ("rounded box, ellipsoid", Some(0.75)),
        ("triangle, segment 3D", Some(1.0)),
    ];

    #[test]
    fn every_scene_pair_has_its_analytic_answer() {
        let lines: Vec<&str> = SCENE.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(lines.len(), EXPECTED.len());
        for (line, (name, expected)) in lines.iter().zip(EXPECTED) {
            let parsed = parse_line(line).unwrap_or_else(|e| panic!("{name}: {}", e.message));
            assert_eq!(parsed.id, *name);
            let (intersecting, distance) = match &parsed.pair {
                ParsedPair::Two(p) => (solve(p).intersecting, solve(p).distance),
                ParsedPair::Three(p) => (solve(p).intersecting, solve(p).distance),
            };
            match expected {
                None => assert!(intersecting, "{name} should intersect"),
                Some(d) => {
                    assert!(!intersecting, "{name} should be apart");
                    assert!((distance - d).abs() < 1e-9, "{name}: {distance} vs {d}");
                }
            }
        }
    }

    #[test]
    fn table_is_aligned() {
        let text = render(&rows());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + EXPECTED.len());
        // Every row's "dim" column starts where the header's does.
        let column = lines[0].find("dim").unwrap();
        for line in &lines[1..] {
            let cell = line.chars().skip(column).take(2).collect::<String>();
            assert!(cell == "2D" || cell == "3D", "misaligned: {line}");
        }
        assert_eq!(fixed(-0.0001), "0.000");
        assert_eq!(fixed(-1.25), "-1.250");
    }
}
