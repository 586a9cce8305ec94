//! Reading JSON values with the path of each field, so every error names the field it is about
//! (`a.points[2][1]: expected a number, got a string`).

use serde_json::{Map, Value};

/// The largest magnitude accepted for a coordinate, size or angle.
///
/// Queries square and multiply coordinates (squared lengths; products of two edge cross
/// products in the 3D simplex solver, a fourth power), and the library's answers go wrong for
/// scenes larger than about `1e77` (measured). `1e15` keeps far away from that, and at `1e15`
/// an `f64` resolves only 0.125 anyway: a kilometre-wide world in nanometres is `1e12`.
pub(crate) const MAX_MAGNITUDE: f64 = 1e15;

/// A JSON object together with its path in the input line (`""` for the line itself).
#[derive(Clone, Copy)]
pub struct Object<'v> {
    map: &'v Map<String, Value>,
    path: &'v str,
}

impl<'v> Object<'v> {
    /// `value` as an object, or an error naming `path`.
    pub fn new(value: &'v Value, path: &'v str) -> Result<Self, String> {
        match value {
            Value::Object(map) => Ok(Self { map, path }),
            other => Err(at(path, format!("expected an object, got {}", describe(other)))),
        }
    }

    /// The path of field `key`: `a.radius`, or `a` at the top level.
    pub(crate) fn field_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// Field `key`; `null` counts as absent.
    pub fn optional(&self, key: &str) -> Option<&'v Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// Field `key`, which must be present and not `null`.
    pub fn required(&self, key: &str) -> Result<&'v Value, String> {
        self.optional(key).ok_or_else(|| at(&self.field_path(key), "missing".to_owned()))
    }

    /// A required number field.
    pub(crate) fn number(&self, key: &str) -> Result<f64, String> {
        number(self.required(key)?, &self.field_path(key))
    }

    /// A required number field that must be strictly positive.
    pub(crate) fn positive(&self, key: &str) -> Result<f64, String> {
        positive(self.number(key)?, &self.field_path(key))
    }

    /// A required number field that must not be negative.
    pub fn non_negative(&self, key: &str) -> Result<f64, String> {
        non_negative(self.number(key)?, &self.field_path(key))
    }

    /// An optional boolean field: `default` when absent.
    pub fn flag(&self, key: &str, default: bool) -> Result<bool, String> {
        match self.optional(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(at(
                &self.field_path(key),
                format!("expected true or false, got {}", describe(other)),
            )),
        }
    }

    /// A required string field.
    pub fn string(&self, key: &str) -> Result<&'v str, String> {
        match self.required(key)? {
            Value::String(s) => Ok(s),
            other => Err(at(
                &self.field_path(key),
                format!("expected a string, got {}", describe(other)),
            )),
        }
    }
}

/// `"{path}: {message}"`.
pub fn at(path: &str, message: String) -> String {
    format!("{path}: {message}")
}

/// A finite number of magnitude at most [`MAX_MAGNITUDE`].
pub(crate) fn number(value: &Value, path: &str) -> Result<f64, String> {
    let Some(x) = value.as_f64() else {
        return Err(at(path, format!("expected a number, got {}", describe(value))));
    };
    // JSON has no NaN or infinity and serde_json refuses numbers beyond f64, but stay defensive.
    if !x.is_finite() {
        return Err(at(path, format!("must be finite, got {x}")));
    }
    if x.abs() > MAX_MAGNITUDE {
        return Err(at(path, format!("magnitude must be at most 1e15, got {x:e}")));
    }
    Ok(x)
}

/// `x` if it is strictly positive.
pub(crate) fn positive(x: f64, path: &str) -> Result<f64, String> {
    if x > 0.0 {
        Ok(x)
    } else {
        Err(at(path, format!("must be positive, got {x}")))
    }
}

/// `x` if it is not negative.
pub(crate) fn non_negative(x: f64, path: &str) -> Result<f64, String> {
    if x >= 0.0 {
        Ok(x)
    } else {
        Err(at(path, format!("must not be negative, got {x}")))
    }
}

/// An array of numbers (any length; the caller checks it), without allocating.
pub(crate) fn numbers<'v>(value: &'v Value, path: &str) -> Result<&'v [Value], String> {
    match value {
        Value::Array(items) => Ok(items),
        other => Err(at(path, format!("expected an array of numbers, got {}", describe(other)))),
    }
}

/// A point or vector: an array of 2 or 3 numbers, returned with its length (`z = 0` in 2D).
pub(crate) fn coordinates(value: &Value, path: &str) -> Result<([f64; 3], usize), String> {
    let items = numbers(value, path)?;
    if !(2..=3).contains(&items.len()) {
        return Err(at(path, format!("expected 2 or 3 coordinates, got {}", items.len())));
    }
    let mut c = [0.0; 3];
    for (i, item) in items.iter().enumerate() {
        c[i] = number(item, &format!("{path}[{i}]"))?;
    }
    Ok((c, items.len()))
}

/// "a string", "an array of 3 items", … for error messages.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.len() <= 40 => format!("the string {}", Value::String(s.clone())),
        Value::String(_) => "a string".to_owned(),
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::Object(_) => "an object".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_are_checked_for_type_and_range() {
        assert_eq!(number(&json!(1.5), "x"), Ok(1.5));
        assert_eq!(
            number(&json!("1"), "a.r"),
            Err("a.r: expected a number, got the string \"1\"".into())
        );
        assert_eq!(
            number(&json!(2e15), "x"),
            Err("x: magnitude must be at most 1e15, got 2e15".into())
        );
        assert_eq!(number(&json!(-1e15), "x"), Ok(-1e15));
    }

    #[test]
    fn coordinates_need_two_or_three_numbers() {
        assert_eq!(coordinates(&json!([1, 2]), "c"), Ok(([1.0, 2.0, 0.0], 2)));
        assert_eq!(coordinates(&json!([1, 2, 3]), "c"), Ok(([1.0, 2.0, 3.0], 3)));
        assert_eq!(
            coordinates(&json!([1]), "c"),
            Err("c: expected 2 or 3 coordinates, got 1".into())
        );
        assert_eq!(
            coordinates(&json!([1, null]), "a.center"),
            Err("a.center[1]: expected a number, got null".into())
        );
        assert_eq!(
            coordinates(&json!({"x": 1}), "c"),
            Err("c: expected an array of numbers, got an object".into())
        );
    }

    #[test]
    fn fields_report_their_path() {
        let v = json!({"radius": -1, "kind": 3, "none": null});
        let o = Object::new(&v, "b").unwrap();
        assert_eq!(o.positive("radius"), Err("b.radius: must be positive, got -1".into()));
        assert_eq!(o.non_negative("radius"), Err("b.radius: must not be negative, got -1".into()));
        assert_eq!(o.number("none"), Err("b.none: missing".into()));
        assert_eq!(o.string("kind"), Err("b.kind: expected a string, got the number 3".into()));
        let top = json!({});
        assert_eq!(Object::new(&top, "").unwrap().required("a"), Err("a: missing".into()));
        assert!(Object::new(&json!([1]), "pose_a").is_err());
    }
}
