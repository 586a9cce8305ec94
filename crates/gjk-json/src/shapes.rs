//! The fields every query kind of `gjk query` shares: shapes, poses and vectors of one input
//! line, in 2D or 3D, `f64` throughout.
//!
//! Parsing runs in two stages. The first reads the JSON into dimension-free [`ShapeSpec`]s,
//! [`PoseSpec`]s and vectors, checking every field (type, finiteness, sign) and collecting
//! evidence of the dimension in one [`Dimension`]: each coordinate array, a 2D angle, a 3D
//! quaternion, a 3D-only shape type. All the evidence must agree, and the first disagreement is
//! reported with both fields named. The second stage builds boxed [`gjk::Support`] shapes for
//! the dimension found ([`ParsedPair`] for a pair, [`Space`] for the rest).

use gjk::{
    Ball, Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Polytope, Pose, Posed, Rounded, Segment,
    ShapeError, Support, Triangle, Vector,
};
use glam::{DQuat, DVec2, DVec3};
use serde_json::Value;

use crate::fields::{self as json, Object};

/// A shape of the input line, in its local frame, ready for queries.
pub type BoxedShape<V> = Box<dyn Support<V>>;

/// Two shapes and their poses in one dimension.
pub struct PosedPair<V: Vector> {
    /// Shape `a` (with its `center` and `margin` applied).
    pub a: BoxedShape<V>,
    /// Where `a` sits in the world.
    pub pose_a: Pose<V>,
    /// Shape `b`.
    pub b: BoxedShape<V>,
    /// Where `b` sits in the world.
    pub pose_b: Pose<V>,
}

/// A parsed pair, in the dimension its coordinates gave.
pub enum ParsedPair {
    /// A 2D pair.
    Two(PosedPair<DVec2>),
    /// A 3D pair.
    Three(PosedPair<DVec3>),
}

/// One input line, ready to be answered: its id and its pair.
pub struct ParsedLine {
    /// The line's `id` (`null` when absent), echoed in the answer.
    pub id: Value,
    /// The shapes and poses.
    pub pair: ParsedPair,
}

/// Why a line cannot be answered.
#[derive(Debug, PartialEq)]
pub struct LineError {
    /// The line's `id` if it could be read, else `null`.
    pub id: Value,
    /// What is wrong, naming the field: `a.radius: must be positive, got -1`.
    pub message: String,
}

/// Parses one input line as a pair: `{"id":…, "a": SHAPE, "b": SHAPE, "pose_a": POSE,
/// "pose_b": POSE}` (what `gjk demo` and `gjk explain` read; other fields are ignored).
pub fn parse_line(text: &str) -> Result<ParsedLine, LineError> {
    let value = parse_json(text)?;
    let id = line_id(&value);
    match line_object(&value).and_then(|line| parse_pair(&line)) {
        Ok(pair) => Ok(ParsedLine { id, pair }),
        Err(message) => Err(LineError { id, message }),
    }
}

/// The JSON value of one line; a syntax error has no id.
pub fn parse_json(text: &str) -> Result<Value, LineError> {
    serde_json::from_str(text)
        .map_err(|e| LineError { id: Value::Null, message: json_syntax_error(&e) })
}

/// The line's `id`, `null` when absent.
pub fn line_id(value: &Value) -> Value {
    value.get("id").cloned().unwrap_or(Value::Null)
}

/// The line as an object, or why not.
pub fn line_object(value: &Value) -> Result<Object<'_>, String> {
    match value {
        Value::Object(_) => Object::new(value, ""),
        other => Err(format!("expected a JSON object per line, got {}", json::describe(other))),
    }
}

/// `invalid JSON at column 7: expected value` (serde's message without its "line 1").
fn json_syntax_error(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let reason = full.rsplit_once(" at line ").map_or(full.as_str(), |(reason, _)| reason);
    format!("invalid JSON at column {}: {reason}", e.column())
}

/// The pair of a line: fields `a`, `b`, `pose_a`, `pose_b`.
pub fn parse_pair(line: &Object<'_>) -> Result<ParsedPair, String> {
    let mut dimension = Dimension::default();
    let specs = PairSpec::parse(line, &mut dimension)?;
    if dimension.resolve(&[&specs.a, &specs.b]) == 2 {
        Ok(ParsedPair::Two(specs.build()?))
    } else {
        Ok(ParsedPair::Three(specs.build()?))
    }
}

/// Two shapes and their poses as read from JSON, before the dimension is known.
pub struct PairSpec {
    /// Shape `a`.
    pub a: ShapeSpec,
    /// Pose `pose_a` (identity when absent).
    pub pose_a: PoseSpec,
    /// Shape `b`.
    pub b: ShapeSpec,
    /// Pose `pose_b`.
    pub pose_b: PoseSpec,
}

impl PairSpec {
    /// Reads fields `a`, `b`, `pose_a`, `pose_b` of `line`.
    pub fn parse(line: &Object<'_>, dimension: &mut Dimension) -> Result<Self, String> {
        Ok(Self {
            a: ShapeSpec::parse(line.required("a")?, "a", dimension)?,
            b: ShapeSpec::parse(line.required("b")?, "b", dimension)?,
            pose_a: PoseSpec::parse(line.optional("pose_a"), "pose_a", dimension)?,
            pose_b: PoseSpec::parse(line.optional("pose_b"), "pose_b", dimension)?,
        })
    }

    /// The shapes and poses in dimension `V`.
    pub fn build<V: Space>(&self) -> Result<PosedPair<V>, String> {
        Ok(PosedPair {
            a: self.a.build::<V>("a")?,
            pose_a: self.pose_a.build::<V>("pose_a")?,
            b: self.b.build::<V>("b")?,
            pose_b: self.pose_b.build::<V>("pose_b")?,
        })
    }
}

/// What a field says about the dimension.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Evidence {
    /// An array of 2 or 3 coordinates.
    Coordinates(usize),
    /// A rotation given as one angle (2D).
    Angle,
    /// An angular velocity given as one number (2D).
    AngularRate,
    /// A rotation given as a quaternion (3D).
    Quaternion,
    /// A shape type that exists only in 3D.
    ThreeDOnly,
    /// A dimension stated outright (a scene's `dim`).
    Declared(usize),
}

impl Evidence {
    fn dimension(self) -> usize {
        match self {
            Self::Coordinates(n) | Self::Declared(n) => n,
            Self::Angle | Self::AngularRate => 2,
            Self::Quaternion | Self::ThreeDOnly => 3,
        }
    }

    fn describe(self) -> String {
        match self {
            Self::Coordinates(n) => format!("has {n} coordinates"),
            Self::Angle => "is a 2D angle".to_owned(),
            Self::AngularRate => "is a 2D angular velocity (one number)".to_owned(),
            Self::Quaternion => "is a 3D quaternion".to_owned(),
            Self::ThreeDOnly => "is a 3D-only shape".to_owned(),
            Self::Declared(n) => format!("is {n}"),
        }
    }
}

/// The dimension of a line: the first evidence seen, which all later evidence must match.
#[derive(Default)]
pub struct Dimension {
    first: Option<(Evidence, String)>,
}

impl Dimension {
    /// The dimension stated by the field at `path` (2 or 3), which every later field must
    /// match: `bodies[1].pose.translation has 3 coordinates, but dim is 2: ...`.
    pub fn declared(dimension: usize, path: &str) -> Self {
        Self { first: Some((Evidence::Declared(dimension), path.to_owned())) }
    }

    /// A required point or vector field of `object`, as evidence of the dimension.
    pub fn vector(&mut self, object: &Object<'_>, key: &str) -> Result<[f64; 3], String> {
        let path = object.field_path(key);
        let (c, n) = json::coordinates(object.required(key)?, &path)?;
        self.see(Evidence::Coordinates(n), &path)?;
        Ok(c)
    }

    /// An optional angular velocity field of `object`, as evidence of the dimension: one
    /// number in 2D (radians per unit time, counter-clockwise), returned as `[0, 0, ω]` (the
    /// spin about z), or a vector of 3 numbers in 3D (axis × rate). Absent or `null`: zero, no
    /// evidence.
    pub fn angular_velocity(&mut self, object: &Object<'_>, key: &str) -> Result<[f64; 3], String> {
        let Some(value) = object.optional(key) else { return Ok([0.0; 3]) };
        let path = object.field_path(key);
        if value.is_number() {
            let rate = json::number(value, &path)?;
            self.see(Evidence::AngularRate, &path)?;
            return Ok([0.0, 0.0, rate]);
        }
        let three = matches!(value, Value::Array(items) if items.len() == 3);
        if !three {
            let why = format!(
                "expected a number (2D) or a vector of 3 numbers (3D), got {}",
                json::describe(value)
            );
            return Err(json::at(&path, why));
        }
        let (c, n) = json::coordinates(value, &path)?;
        self.see(Evidence::Coordinates(n), &path)?;
        Ok(c)
    }

    /// Records that the field at `path` implies `evidence`; an error if it contradicts the first.
    fn see(&mut self, evidence: Evidence, path: &str) -> Result<(), String> {
        match &self.first {
            None => {
                self.first = Some((evidence, path.to_owned()));
                Ok(())
            }
            Some((first, _)) if first.dimension() == evidence.dimension() => Ok(()),
            Some((first, first_path)) => Err(json::at(
                path,
                format!(
                    "{}, but {first_path} {}: 2D and 3D cannot be mixed",
                    evidence.describe(),
                    first.describe()
                ),
            )),
        }
    }

    /// The dimension; without any evidence (say two spheres without centres or poses) the
    /// shape names decide (`circle`, `ellipse`, `rectangle`, `polygon` mean 2D), else 3D.
    pub fn resolve(&self, shapes: &[&ShapeSpec]) -> usize {
        match &self.first {
            Some((evidence, _)) => evidence.dimension(),
            None if shapes.iter().all(|s| s.planar_name) => 2,
            None => 3,
        }
    }
}

/// A shape as read from JSON, before its dimension is known (2D coordinates have `z = 0`).
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeSpec {
    /// The shape proper.
    pub(crate) kind: Kind,
    /// Where the shape's local origin is moved to (`center`).
    pub(crate) center: Option<[f64; 3]>,
    /// The rounding radius (`margin`, 0 when absent).
    pub(crate) margin: f64,
    /// Whether the type name is a 2D one (`circle`, `polygon`, …).
    planar_name: bool,
}

/// The shape families of the input format.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Kind {
    /// The convex hull of points (`points`, `polygon`, `polytope`).
    Points(Vec<[f64; 3]>),
    /// A ball (`sphere`, `circle`).
    Sphere { radius: f64 },
    /// An axis-aligned ellipsoid (`ellipsoid`, `ellipse`).
    Ellipsoid { radii: [f64; 3] },
    /// An axis-aligned box (`cuboid`, `box`, `rectangle`).
    Cuboid { half_extents: [f64; 3] },
    /// A segment.
    Segment { a: [f64; 3], b: [f64; 3] },
    /// A triangle.
    Triangle { a: [f64; 3], b: [f64; 3], c: [f64; 3] },
    /// A capsule: the segment `a b` swept by a ball.
    Capsule { a: [f64; 3], b: [f64; 3], radius: f64 },
    /// A 3D cylinder along local y.
    Cylinder { half_height: f64, radius: f64 },
    /// A 3D cone along local y, apex up.
    Cone { half_height: f64, radius: f64 },
}

/// One shape type of the input format: its names, its fields and how to read them.
///
/// [`SHAPE_TYPES`] is both the parser's dispatch table and the shape table of
/// `gjk query --help`, so the help cannot miss a type the parser accepts.
pub struct ShapeType {
    /// The type name, then its aliases.
    pub names: &'static [&'static str],
    /// The type's own fields as the help shows them (`P` is a point, `[x, y]` or `[x, y, z]`).
    pub fields: &'static str,
    /// What the shape is, in a few words for the help (may be empty).
    pub note: &'static str,
    /// Reads the type's own fields (`center` and `margin` are read for every type).
    read: fn(&mut ShapeReader<'_, '_>) -> Result<Kind, String>,
}

/// Every shape type `"type"` may name, in the order the help lists them.
pub const SHAPE_TYPES: [ShapeType; 9] = [
    ShapeType {
        names: &["points", "polygon", "polytope"],
        fields: r#""points": [P, ...], at least one"#,
        note: "the convex hull of the points",
        read: |r| Ok(Kind::Points(r.points()?)),
    },
    ShapeType {
        names: &["sphere", "circle"],
        fields: r#""radius": r > 0"#,
        note: "a ball (a disc in 2D)",
        read: |r| Ok(Kind::Sphere { radius: r.object.positive("radius")? }),
    },
    ShapeType {
        names: &["ellipsoid", "ellipse"],
        fields: r#""radii": P, each > 0"#,
        note: "semi-axes along the local axes",
        read: |r| Ok(Kind::Ellipsoid { radii: r.sizes("radii", json::positive)? }),
    },
    ShapeType {
        names: &["cuboid", "box", "rectangle"],
        fields: r#""half_extents": P, each >= 0"#,
        note: "edges along the local axes",
        read: |r| Ok(Kind::Cuboid { half_extents: r.sizes("half_extents", json::non_negative)? }),
    },
    ShapeType {
        names: &["segment"],
        fields: r#""a": P, "b": P"#,
        note: "",
        read: |r| Ok(Kind::Segment { a: r.point("a")?, b: r.point("b")? }),
    },
    ShapeType {
        names: &["triangle"],
        fields: r#""a": P, "b": P, "c": P"#,
        note: "",
        read: |r| Ok(Kind::Triangle { a: r.point("a")?, b: r.point("b")?, c: r.point("c")? }),
    },
    ShapeType {
        names: &["capsule"],
        fields: r#""a": P, "b": P, "radius": r >= 0"#,
        note: "the segment ab swept by a ball",
        read: |r| {
            Ok(Kind::Capsule {
                a: r.point("a")?,
                b: r.point("b")?,
                radius: r.object.non_negative("radius")?,
            })
        },
    },
    ShapeType {
        names: &["cylinder"],
        fields: r#""half_height": h >= 0, "radius": r >= 0"#,
        note: "3D only; axis along local y, centred at the origin",
        read: |r| {
            let (half_height, radius) = r.solid_of_revolution()?;
            Ok(Kind::Cylinder { half_height, radius })
        },
    },
    ShapeType {
        names: &["cone"],
        fields: r#""half_height": h >= 0, "radius": r >= 0"#,
        note: "3D only; axis along local y, apex at y = +h, base disc at y = -h",
        read: |r| {
            let (half_height, radius) = r.solid_of_revolution()?;
            Ok(Kind::Cone { half_height, radius })
        },
    },
];

/// Every accepted type name, in table order: `points, polygon, polytope, sphere, ...`.
pub fn shape_type_names() -> impl Iterator<Item = &'static str> {
    SHAPE_TYPES.iter().flat_map(|t| t.names.iter().copied())
}

/// Reads fields of one shape object, recording the dimension evidence of each.
struct ShapeReader<'v, 'd> {
    object: Object<'v>,
    dimension: &'d mut Dimension,
}

impl ShapeReader<'_, '_> {
    fn point(&mut self, key: &str) -> Result<[f64; 3], String> {
        let path = self.object.field_path(key);
        self.coordinates(self.object.required(key)?, &path)
    }

    fn coordinates(&mut self, value: &Value, path: &str) -> Result<[f64; 3], String> {
        let (c, n) = json::coordinates(value, path)?;
        self.dimension.see(Evidence::Coordinates(n), path)?;
        Ok(c)
    }

    /// A vector field whose every coordinate passes `check`.
    fn sizes(
        &mut self,
        key: &str,
        check: fn(f64, &str) -> Result<f64, String>,
    ) -> Result<[f64; 3], String> {
        let path = self.object.field_path(key);
        let (c, n) = json::coordinates(self.object.required(key)?, &path)?;
        for (i, &x) in c[..n].iter().enumerate() {
            check(x, &format!("{path}[{i}]"))?;
        }
        self.dimension.see(Evidence::Coordinates(n), &path)?;
        Ok(c)
    }

    fn points(&mut self) -> Result<Vec<[f64; 3]>, String> {
        let path = self.object.field_path("points");
        let items = json::numbers(self.object.required("points")?, &path)?;
        if items.is_empty() {
            return Err(json::at(&path, "needs at least one point, got none".to_owned()));
        }
        let mut points = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            points.push(self.coordinates(item, &format!("{path}[{i}]"))?);
        }
        Ok(points)
    }

    /// The fields of a cylinder or cone, which exist only in 3D: `(half_height, radius)`.
    fn solid_of_revolution(&mut self) -> Result<(f64, f64), String> {
        self.dimension.see(Evidence::ThreeDOnly, &self.object.field_path("type"))?;
        Ok((self.object.non_negative("half_height")?, self.object.non_negative("radius")?))
    }

    /// The shape named `name`, read by its entry in [`SHAPE_TYPES`].
    fn kind(&mut self, name: &str) -> Result<Kind, String> {
        match SHAPE_TYPES.iter().find(|t| t.names.contains(&name)) {
            Some(shape_type) => (shape_type.read)(self),
            None => Err(json::at(
                &self.object.field_path("type"),
                format!(
                    "unknown shape type {} (expected one of {})",
                    Value::String(name.to_owned()),
                    shape_type_names().collect::<Vec<_>>().join(", ")
                ),
            )),
        }
    }
}

impl ShapeSpec {
    /// Reads the shape object `value` found at `path` (`a` or `b`).
    pub fn parse(value: &Value, path: &str, dimension: &mut Dimension) -> Result<Self, String> {
        let object = Object::new(value, path)?;
        let name = object.string("type")?;
        let mut reader = ShapeReader { object, dimension };
        let kind = reader.kind(name)?;
        let center = match object.optional("center") {
            Some(c) => Some(reader.coordinates(c, &object.field_path("center"))?),
            None => None,
        };
        let margin = match object.optional("margin") {
            Some(m) => json::non_negative(
                json::number(m, &object.field_path("margin"))?,
                &object.field_path("margin"),
            )?,
            None => 0.0,
        };
        let planar_name = matches!(name, "circle" | "ellipse" | "rectangle" | "polygon");
        Ok(Self { kind, center, margin, planar_name })
    }

    /// The shape in dimension `V`: the core, moved to its centre, rounded by its margin.
    /// `path` names the shape in errors (after the checks of [`ShapeSpec::parse`] only the
    /// library's own checks remain).
    pub fn build<V: Space>(&self, path: &str) -> Result<BoxedShape<V>, String> {
        let library = |e: ShapeError| json::at(path, e.to_string());
        let v = |c: &[f64; 3]| V::from_components(*c);
        let core = match &self.kind {
            Kind::Points(points) => Some(Polytope::new(points.iter().map(v).collect()).map(boxed)),
            Kind::Sphere { radius } => Some(Ball::<V>::new(*radius).map(boxed)),
            Kind::Ellipsoid { radii } => Some(Ellipsoid::new(v(radii)).map(boxed)),
            Kind::Cuboid { half_extents } => Some(Cuboid::new(v(half_extents)).map(boxed)),
            Kind::Segment { a, b } => Some(Segment::new(v(a), v(b)).map(boxed)),
            Kind::Triangle { a, b, c } => Some(Triangle::new(v(a), v(b), v(c)).map(boxed)),
            Kind::Capsule { a, b, radius } => Some(Capsule::new(v(a), v(b), *radius).map(boxed)),
            Kind::Cylinder { half_height, radius } => V::cylinder(*half_height, *radius),
            Kind::Cone { half_height, radius } => V::cone(*half_height, *radius),
        };
        let core = core
            .ok_or_else(|| json::at(path, "cylinders and cones exist only in 3D".to_owned()))?
            .map_err(library)?;
        let placed: BoxedShape<V> = match &self.center {
            Some(c) => {
                let pose = Pose::from_translation(V::from_components(*c)).map_err(library)?;
                Box::new(Posed::new(core, pose))
            }
            None => core,
        };
        if self.margin > 0.0 {
            Ok(Box::new(Rounded::new(placed, self.margin).map_err(library)?))
        } else {
            Ok(placed)
        }
    }
}

/// A shape behind a pointer.
fn boxed<V: Vector, S: Support<V> + 'static>(shape: S) -> BoxedShape<V> {
    Box::new(shape)
}

/// A rotation as read from JSON.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RotationSpec {
    /// No rotation given.
    Identity,
    /// A 2D angle in radians, counter-clockwise.
    Angle(f64),
    /// A 3D quaternion `[x, y, z, w]` (normalised when built).
    Quaternion([f64; 4]),
}

/// A pose as read from JSON.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoseSpec {
    /// The translation (`[0, 0, 0]` when absent).
    pub translation: [f64; 3],
    /// The rotation.
    pub rotation: RotationSpec,
}

impl PoseSpec {
    /// Reads the pose at `path`; absent (or `null`) is the identity.
    pub fn parse(
        value: Option<&Value>,
        path: &str,
        dimension: &mut Dimension,
    ) -> Result<Self, String> {
        let mut pose = Self { translation: [0.0; 3], rotation: RotationSpec::Identity };
        let Some(value) = value else { return Ok(pose) };
        let object = Object::new(value, path)?;
        if let Some(t) = object.optional("translation") {
            let t_path = object.field_path("translation");
            let (c, n) = json::coordinates(t, &t_path)?;
            dimension.see(Evidence::Coordinates(n), &t_path)?;
            pose.translation = c;
        }
        if let Some(r) = object.optional("rotation") {
            let r_path = object.field_path("rotation");
            pose.rotation = parse_rotation(r, &r_path)?;
            let evidence = match pose.rotation {
                RotationSpec::Quaternion(_) => Evidence::Quaternion,
                _ => Evidence::Angle,
            };
            dimension.see(evidence, &r_path)?;
        }
        Ok(pose)
    }

    /// The pose in dimension `V`; `path` names it in errors.
    pub fn build<V: Space>(&self, path: &str) -> Result<Pose<V>, String> {
        V::pose(self.rotation, V::from_components(self.translation))
            .map_err(|e| json::at(&format!("{path}.rotation"), e.to_string()))
    }
}

fn parse_rotation(value: &Value, path: &str) -> Result<RotationSpec, String> {
    if value.is_number() {
        return Ok(RotationSpec::Angle(json::number(value, path)?));
    }
    let wrong = || {
        json::at(
            path,
            format!(
                "expected an angle in radians (2D) or a quaternion [x, y, z, w] (3D), got {}",
                json::describe(value)
            ),
        )
    };
    let Value::Array(items) = value else { return Err(wrong()) };
    if items.len() != 4 {
        return Err(wrong());
    }
    let mut q = [0.0; 4];
    for (i, item) in items.iter().enumerate() {
        q[i] = json::number(item, &format!("{path}[{i}]"))?;
    }
    if q.iter().all(|&x| x == 0.0) {
        return Err(json::at(path, "the zero quaternion is not a rotation".to_owned()));
    }
    Ok(RotationSpec::Quaternion(q))
}

/// The dimension-specific parts of building shapes and poses: `DVec2` and `DVec3`.
pub trait Space: Vector<Real = f64> {
    /// A pose from a rotation and a translation.
    fn pose(rotation: RotationSpec, translation: Self) -> Result<Pose<Self>, ShapeError>;
    /// A cylinder, or `None` where there is none (2D).
    fn cylinder(half_height: f64, radius: f64) -> Option<Result<BoxedShape<Self>, ShapeError>>;
    /// A cone, or `None` where there is none (2D).
    fn cone(half_height: f64, radius: f64) -> Option<Result<BoxedShape<Self>, ShapeError>>;
    /// An angular velocity from [`Dimension::angular_velocity`]'s `[x, y, z]` (2D: the spin
    /// about z).
    fn angular(c: [f64; 3]) -> Self::Angular;
}

impl Space for DVec2 {
    fn pose(rotation: RotationSpec, translation: Self) -> Result<Pose<Self>, ShapeError> {
        match rotation {
            RotationSpec::Identity => Pose::from_translation(translation),
            RotationSpec::Angle(angle) => Pose::<DVec2>::from_angle_translation(angle, translation),
            // The dimension check keeps quaternions out of 2D.
            RotationSpec::Quaternion(_) => Err(ShapeError::InvalidRotation),
        }
    }
    fn cylinder(_: f64, _: f64) -> Option<Result<BoxedShape<Self>, ShapeError>> {
        None
    }
    fn cone(_: f64, _: f64) -> Option<Result<BoxedShape<Self>, ShapeError>> {
        None
    }
    fn angular(c: [f64; 3]) -> f64 {
        c[2]
    }
}

impl Space for DVec3 {
    fn pose(rotation: RotationSpec, translation: Self) -> Result<Pose<Self>, ShapeError> {
        match rotation {
            RotationSpec::Identity => Pose::from_translation(translation),
            RotationSpec::Quaternion([x, y, z, w]) => {
                Pose::new(DQuat::from_xyzw(x, y, z, w), translation)
            }
            // The dimension check keeps angles out of 3D.
            RotationSpec::Angle(_) => Err(ShapeError::InvalidRotation),
        }
    }
    fn cylinder(half_height: f64, radius: f64) -> Option<Result<BoxedShape<Self>, ShapeError>> {
        Some(Cylinder::<DVec3>::new(half_height, radius).map(boxed))
    }
    fn cone(half_height: f64, radius: f64) -> Option<Result<BoxedShape<Self>, ShapeError>> {
        Some(Cone::<DVec3>::new(half_height, radius).map(boxed))
    }
    fn angular(c: [f64; 3]) -> DVec3 {
        DVec3::from_array(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gjk::full_support;

    fn shape(json: &str) -> Result<ShapeSpec, String> {
        ShapeSpec::parse(&serde_json::from_str(json).unwrap(), "a", &mut Dimension::default())
    }

    #[test]
    fn aliases_name_the_same_shapes() {
        for (names, json_rest, kind) in [
            (
                &["points", "polygon", "polytope"][..],
                r#""points":[[1,2]]"#,
                Kind::Points(vec![[1.0, 2.0, 0.0]]),
            ),
            (&["sphere", "circle"], r#""radius":2"#, Kind::Sphere { radius: 2.0 }),
            (
                &["ellipsoid", "ellipse"],
                r#""radii":[1,2]"#,
                Kind::Ellipsoid { radii: [1.0, 2.0, 0.0] },
            ),
            (
                &["cuboid", "box", "rectangle"],
                r#""half_extents":[1,2]"#,
                Kind::Cuboid { half_extents: [1.0, 2.0, 0.0] },
            ),
        ] {
            for name in names {
                let spec = shape(&format!(r#"{{"type":"{name}",{json_rest}}}"#)).unwrap();
                assert_eq!(spec.kind, kind, "{name}");
            }
        }
    }

    #[test]
    fn dimension_follows_the_evidence() {
        let two = parse_line(
            r#"{"a":{"type":"sphere","radius":1},"b":{"type":"sphere","radius":1},"pose_a":{"rotation":0.1}}"#,
        );
        assert!(matches!(two.map(|l| l.pair), Ok(ParsedPair::Two(_))));
        let three = parse_line(
            r#"{"a":{"type":"circle","radius":1},"b":{"type":"circle","radius":1},"pose_b":{"rotation":[0,0,0,1]}}"#,
        );
        assert!(matches!(three.map(|l| l.pair), Ok(ParsedPair::Three(_))));
        let named = parse_line(
            r#"{"a":{"type":"polygon","points":[[0,0]]},"b":{"type":"circle","radius":1}}"#,
        );
        assert!(matches!(named.map(|l| l.pair), Ok(ParsedPair::Two(_))));
    }

    #[test]
    fn center_and_margin_shape_the_support() {
        let spec =
            shape(r#"{"type":"box","half_extents":[1,2],"center":[10,0],"margin":0.5}"#).unwrap();
        let built = spec.build::<DVec2>("a").unwrap();
        // Farthest point along +x: the face x = 11 pushed out by the margin.
        assert_eq!(full_support(&*built, DVec2::X).x, 11.5);
        assert_eq!(built.margin(), 0.5);
    }

    #[test]
    fn errors_keep_the_id() {
        let e = parse_line(r#"{"id":"q7","a":{"type":"sphere"}}"#).err().unwrap();
        assert_eq!(e, LineError { id: Value::from("q7"), message: "a.radius: missing".into() });
    }

    /// A valid shape object of each type, named by its first name.
    fn example(name: &str) -> Option<Value> {
        let json = match name {
            "points" => r#"{"type":"points","points":[[0,0],[1,0],[0,1]]}"#,
            "sphere" => r#"{"type":"sphere","radius":1}"#,
            "ellipsoid" => r#"{"type":"ellipsoid","radii":[1,2,3]}"#,
            "cuboid" => r#"{"type":"cuboid","half_extents":[1,2]}"#,
            "segment" => r#"{"type":"segment","a":[0,0],"b":[1,0]}"#,
            "triangle" => r#"{"type":"triangle","a":[0,0,0],"b":[1,0,0],"c":[0,1,0]}"#,
            "capsule" => r#"{"type":"capsule","a":[0,0],"b":[1,0],"radius":0.5}"#,
            "cylinder" => r#"{"type":"cylinder","half_height":1,"radius":1}"#,
            "cone" => r#"{"type":"cone","half_height":1,"radius":1}"#,
            _ => return None,
        };
        Some(serde_json::from_str(json).unwrap())
    }

    /// The quoted keys of a help `fields` text: `"a": P, "b": P` → `a`, `b`.
    fn keys(fields: &str) -> Vec<&str> {
        fields.split('"').skip(1).step_by(2).collect()
    }

    /// The help's `fields` of each type are exactly the fields its reader requires: each one
    /// named is missed when absent, and the type's example holds no other.
    #[test]
    fn help_fields_are_the_required_fields() {
        for shape_type in &SHAPE_TYPES {
            let name = shape_type.names[0];
            let example = example(name).unwrap_or_else(|| panic!("no example for {name}"));
            for alias in shape_type.names {
                let mut renamed = example.clone();
                renamed["type"] = Value::from(*alias);
                let spec = ShapeSpec::parse(&renamed, "a", &mut Dimension::default());
                spec.unwrap_or_else(|e| panic!("{alias}: {e}"));
            }
            let listed = keys(shape_type.fields);
            let given: Vec<&String> = example.as_object().unwrap().keys().collect();
            for key in given.iter().filter(|k| k.as_str() != "type") {
                assert!(listed.contains(&key.as_str()), "{name}: help misses {key}");
            }
            for key in &listed {
                let mut without = example.clone();
                without.as_object_mut().unwrap().remove(*key);
                let error = ShapeSpec::parse(&without, "a", &mut Dimension::default()).err();
                assert_eq!(error, Some(format!("a.{key}: missing")), "{name}");
            }
        }
    }

    #[test]
    fn unknown_types_list_the_table() {
        let error = shape(r#"{"type":"blob"}"#).err().unwrap();
        let names: Vec<&str> = shape_type_names().collect();
        assert_eq!(
            error,
            format!("a.type: unknown shape type \"blob\" (expected one of {})", names.join(", "))
        );
        assert_eq!(names.len(), 15);
    }

    #[test]
    fn cylinder_cannot_be_built_in_2d() {
        let spec = shape(r#"{"type":"cylinder","half_height":1,"radius":1}"#).unwrap();
        assert_eq!(
            spec.build::<DVec2>("b").err().unwrap(),
            "b: cylinders and cones exist only in 3D"
        );
    }
}
