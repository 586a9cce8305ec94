//! The library's modules form layers: each may use only modules of lower layers, so there is
//! no cycle (a query module reaching back into the loop that calls it) and no upward edge (the
//! hull builder importing from the shapes that are built on it).
//!
//! The edges are read from the sources: every `crate::module` path outside comments and test
//! modules.

use std::collections::BTreeMap;
use std::path::Path;

/// Bottom to top. A module may use the modules of earlier rows only.
const LAYERS: &[&[&str]] = &[
    &["error"],
    &["math"],
    &["geometry", "tolerance", "bounds"],
    &["simplex"],
    &["hull"],
    &["shape"],
    &["sat", "dispatch"],
    &["ray"],
    &["pair"],
    &["epa", "mpr"],
    &["polish", "finish"],
    &["gjk"],
    &["contact"],
    &["cast", "manifold"],
    &["toi"],
    &["trace"],
    &["world"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|row| row.contains(&module))
}

/// The crate modules that `source` names in code (comments and `#[cfg(test)]` modules dropped).
fn uses(source: &str) -> Vec<String> {
    let code = source.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = Vec::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or("");
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String =
                rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                found.push(name);
            }
        }
        // `use crate::{a::x, b::y}`
        if let Some(group) = line.split("crate::{").nth(1) {
            for part in group.split(',') {
                let part = part.trim();
                if let Some((name, _)) = part.split_once("::") {
                    found.push(name.trim().to_string());
                }
            }
        }
    }
    found
}

fn edges() -> BTreeMap<String, Vec<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(&root).unwrap();
            let first = relative.components().next().unwrap().as_os_str().to_string_lossy();
            let module = first.trim_end_matches(".rs").to_string();
            if module == "lib" || module == "test_rng" {
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            let used = graph.entry(module.clone()).or_default();
            for target in uses(&source) {
                if target != module && !used.contains(&target) {
                    used.push(target);
                }
            }
        }
    }
    graph
}

#[test]
fn every_module_has_a_layer() {
    for module in edges().keys() {
        assert!(layer_of(module).is_some(), "module `{module}` is missing from LAYERS");
    }
}

#[test]
fn modules_use_only_lower_layers() {
    let mut upward = Vec::new();
    for (module, used) in edges() {
        let Some(own) = layer_of(&module) else { continue };
        for target in used {
            match layer_of(&target) {
                Some(layer) if layer < own => {}
                Some(_) => upward.push(format!("{module} -> {target}")),
                None => {} // re-exports at the crate root (`crate::Vector`) and the like
            }
        }
    }
    assert!(upward.is_empty(), "edges that are not downward: {upward:?}");
}
