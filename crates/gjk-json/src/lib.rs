//! # gjk-json — the shapes and poses of `gjk query`'s JSON lines
//!
//! One reader for the JSON of the `gjk` command line (`crates/gjk-cli`) and of the browser
//! playground (`crates/gjk-playground`), so both accept exactly the same input and reject it
//! with the same words: every error names the field it is about
//! (`a.points[2][1]: expected a number, got a string`).
//!
//! * [`fields`]: a JSON object with its path in the line ([`fields::Object`]) and checked
//!   numbers and coordinates;
//! * [`shapes`]: shapes, poses and vectors of one line, their dimension (2D or 3D) from the
//!   evidence of every field, and the boxed [`gjk::Support`] shapes built from them.
//!
//! ```
//! use gjk_json::shapes::{parse_line, ParsedPair};
//!
//! let line = r#"{"id":1,"a":{"type":"circle","radius":1},"b":{"type":"box","half_extents":[1,1]},
//!               "pose_b":{"translation":[3,0]}}"#;
//! let parsed = parse_line(line).unwrap();
//! assert!(matches!(parsed.pair, ParsedPair::Two(_)));
//!
//! let bad = parse_line(r#"{"id":"q7","a":{"type":"sphere","radius":-1}}"#).err().unwrap();
//! assert_eq!(bad.message, "a.radius: must be positive, got -1");
//! ```

pub mod fields;
pub mod shapes;
