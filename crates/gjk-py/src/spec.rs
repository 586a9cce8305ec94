//! Shapes and poses as plain numbers: what Python gives, what pickling stores, what the CLI's
//! JSON says. No library call happens here ([`crate::engine`] builds the library's objects).

/// The shape families, named as `gjk query` names them (first name of each JSON type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The convex hull of points; parameters: the points, `dim` numbers each.
    Points,
    /// A ball; parameters: `[radius]`.
    Sphere,
    /// An axis-aligned ellipsoid; parameters: the radii.
    Ellipsoid,
    /// An axis-aligned box; parameters: the half extents.
    Cuboid,
    /// A segment; parameters: `a`, `b`.
    Segment,
    /// A triangle; parameters: `a`, `b`, `c`.
    Triangle,
    /// A capsule; parameters: `a`, `b`, `[radius]`.
    Capsule,
    /// A 3D cylinder along local y; parameters: `[half_height, radius]`.
    Cylinder,
    /// A 3D cone along local y, apex up; parameters: `[half_height, radius]`.
    Cone,
}

impl Kind {
    /// Every kind with its name.
    const NAMES: [(Kind, &'static str); 9] = [
        (Kind::Points, "points"),
        (Kind::Sphere, "sphere"),
        (Kind::Ellipsoid, "ellipsoid"),
        (Kind::Cuboid, "cuboid"),
        (Kind::Segment, "segment"),
        (Kind::Triangle, "triangle"),
        (Kind::Capsule, "capsule"),
        (Kind::Cylinder, "cylinder"),
        (Kind::Cone, "cone"),
    ];

    /// The kind called `name`.
    pub(crate) fn from_name(name: &str) -> Result<Self, String> {
        Self::NAMES.iter().find(|(_, n)| *n == name).map(|(k, _)| *k).ok_or_else(|| {
            let names: Vec<&str> = Self::NAMES.iter().map(|(_, n)| *n).collect();
            format!("unknown shape kind {name:?} (expected one of {})", names.join(", "))
        })
    }

    /// The name `gjk query` uses.
    pub(crate) fn name(self) -> &'static str {
        Self::NAMES.iter().find(|(k, _)| *k == self).map_or("?", |(_, n)| n)
    }

    /// How many parameters the kind takes in dimension `dim` (`None`: a multiple of `dim`, at
    /// least one point).
    fn parameter_count(self, dim: usize) -> Option<usize> {
        match self {
            Kind::Points => None,
            Kind::Sphere => Some(1),
            Kind::Ellipsoid | Kind::Cuboid => Some(dim),
            Kind::Segment => Some(2 * dim),
            Kind::Triangle => Some(3 * dim),
            Kind::Capsule => Some(2 * dim + 1),
            Kind::Cylinder | Kind::Cone => Some(2),
        }
    }
}

/// A shape as plain numbers, checked for count, dimension and finiteness (the library's
/// constructors check signs and sizes when [`crate::engine`] builds it).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ShapeSpec {
    /// The family.
    pub kind: Kind,
    /// 2 or 3.
    pub dim: usize,
    /// Single precision (`f32`) instead of `f64`.
    pub single: bool,
    /// The family's numbers, in the order of [`Kind`]'s docs.
    pub params: Vec<f64>,
    /// Where the shape's local origin is moved to, in its own frame.
    pub center: Option<[f64; 3]>,
    /// The rounding radius (0: none).
    pub margin: f64,
}

impl ShapeSpec {
    /// Checks the counts and the dimension; `ValueError` text on failure.
    pub(crate) fn new(
        kind: Kind,
        dim: usize,
        single: bool,
        params: Vec<f64>,
        center: Option<Vec<f64>>,
        margin: f64,
    ) -> Result<Self, String> {
        if dim != 2 && dim != 3 {
            return Err(format!("dim must be 2 or 3, got {dim}"));
        }
        if dim == 2 && matches!(kind, Kind::Cylinder | Kind::Cone) {
            return Err("cylinders and cones exist only in 3D".to_owned());
        }
        match kind.parameter_count(dim) {
            Some(n) if params.len() != n => {
                return Err(format!(
                    "a {dim}D {} takes {n} numbers, got {}",
                    kind.name(),
                    params.len()
                ))
            }
            None if params.is_empty() || params.len() % dim != 0 => {
                return Err(format!(
                    "points must be an (n, {dim}) array with n >= 1, got {} numbers",
                    params.len()
                ))
            }
            _ => {}
        }
        if let Some(i) = params.iter().position(|x| !x.is_finite()) {
            return Err(format!("{} parameter {i} must be finite, got {}", kind.name(), params[i]));
        }
        let center = center.map(|c| coordinates(&c, dim, "center")).transpose()?;
        if !margin.is_finite() || margin < 0.0 {
            return Err(format!("margin must be finite and >= 0, got {margin}"));
        }
        Ok(Self { kind, dim, single, params, center, margin })
    }

    /// The `i`-th point of the parameters, as three coordinates (`z = 0` in 2D).
    pub(crate) fn point(&self, i: usize) -> [f64; 3] {
        let mut p = [0.0; 3];
        p[..self.dim].copy_from_slice(&self.params[i * self.dim..(i + 1) * self.dim]);
        p
    }
}

/// `values` as a point of dimension `dim` (`z = 0` in 2D), finite.
pub(crate) fn coordinates(values: &[f64], dim: usize, what: &str) -> Result<[f64; 3], String> {
    if values.len() != dim {
        return Err(format!("{what} must have {dim} coordinates, got {}", values.len()));
    }
    if values.iter().any(|x| !x.is_finite()) {
        return Err(format!("{what} must be finite, got {values:?}"));
    }
    let mut p = [0.0; 3];
    p[..dim].copy_from_slice(values);
    Ok(p)
}

/// A rotation as plain numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum RotationSpec {
    /// 2D: an angle in radians, counter-clockwise.
    Angle(f64),
    /// 3D: a unit quaternion `[x, y, z, w]` (normalised on construction).
    Quaternion([f64; 4]),
}

/// A pose as plain numbers: rotated about the shape's origin, then translated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PoseSpec {
    /// 2 or 3.
    pub dim: usize,
    /// The translation (`z = 0` in 2D).
    pub translation: [f64; 3],
    /// The rotation.
    pub rotation: RotationSpec,
}

impl PoseSpec {
    /// The identity pose of dimension `dim`.
    pub(crate) fn identity(dim: usize) -> Self {
        let rotation = if dim == 2 {
            RotationSpec::Angle(0.0)
        } else {
            RotationSpec::Quaternion([0.0, 0.0, 0.0, 1.0])
        };
        Self { dim, translation: [0.0; 3], rotation }
    }

    /// A pose from one row of a batch array: `[x, y, angle]` in 2D, `[x, y, z, qx, qy, qz, qw]`
    /// in 3D. The numbers are checked when the library builds the pose.
    #[inline]
    pub(crate) fn from_row(dim: usize, row: &[f64]) -> Self {
        if dim == 2 {
            Self { dim, translation: [row[0], row[1], 0.0], rotation: RotationSpec::Angle(row[2]) }
        } else {
            Self {
                dim,
                translation: [row[0], row[1], row[2]],
                rotation: RotationSpec::Quaternion([row[3], row[4], row[5], row[6]]),
            }
        }
    }

    /// The numbers of a batch row (see [`PoseSpec::from_row`]).
    pub(crate) fn row(&self) -> Vec<f64> {
        let mut row = self.translation[..self.dim].to_vec();
        match self.rotation {
            RotationSpec::Angle(a) => row.push(a),
            RotationSpec::Quaternion(q) => row.extend_from_slice(&q),
        }
        row
    }
}
