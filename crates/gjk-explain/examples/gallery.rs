//! Writes the gallery: one SVG and one text walkthrough per built-in example and method.
//!
//! `cargo run -p gjk-explain --example gallery -- docs/gallery`

use std::path::PathBuf;

use gjk_explain::{ExplainOptions, Explanation, Method, BUILTIN_NAMES};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "docs/gallery".to_string()));
    std::fs::create_dir_all(&dir)?;
    for name in BUILTIN_NAMES {
        for method in [Method::Classic, Method::Robust] {
            let options = ExplainOptions { method, ..Default::default() };
            let e = Explanation::builtin(name, &options)?;
            let stem = format!("{name}-{method}");
            std::fs::write(dir.join(format!("{stem}.svg")), e.svg())?;
            std::fs::write(dir.join(format!("{stem}.txt")), e.text())?;
            println!(
                "{stem}: {} support calls, intersecting: {:?}",
                e.support_calls(),
                e.intersecting()
            );
        }
    }
    Ok(())
}
