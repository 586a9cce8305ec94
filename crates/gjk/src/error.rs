//! The error type of shape and pose constructors.

use core::fmt;

/// Why a shape or pose could not be built.
///
/// ```
/// use gjk::{Ball, ShapeError};
/// use glam::Vec3;
/// let err = Ball::<Vec3>::new(-1.0).unwrap_err();
/// assert!(matches!(err, ShapeError::NotPositive { what: "radius", .. }));
/// assert_eq!(err.to_string(), "radius must be positive, got -1");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ShapeError {
    /// A coordinate or size is NaN or infinite.
    NonFinite {
        /// Which input.
        what: &'static str,
    },
    /// A point set has no points.
    EmptyPointSet,
    /// A size that must be strictly positive is zero or negative.
    NotPositive {
        /// Which input.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A size that must not be negative is negative.
    Negative {
        /// Which input.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A rotation cannot be normalised (zero, NaN or infinite quaternion or complex number).
    InvalidRotation,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFinite { what } => write!(f, "{what} must be finite (no NaN or infinity)"),
            Self::EmptyPointSet => write!(f, "a point set needs at least one point"),
            Self::NotPositive { what, value } => write!(f, "{what} must be positive, got {value}"),
            Self::Negative { what, value } => {
                write!(f, "{what} must not be negative, got {value}")
            }
            Self::InvalidRotation => {
                write!(f, "rotation cannot be normalised (zero, NaN or infinite)")
            }
        }
    }
}

impl core::error::Error for ShapeError {}
