//! Short, readable numbers for walkthroughs and pictures.

/// Where a number is shown: plain text uses the ASCII minus, pictures the typographic one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    /// `-1.5`
    Text,
    /// `−1.5`
    Picture,
}

/// A number with at most four decimals, no trailing zeros, no `-0`; very large or very small
/// magnitudes in scientific notation.
pub(crate) fn num(x: f64, style: Style) -> String {
    let s = if !x.is_finite() {
        format!("{x}")
    } else if x != 0.0 && (x.abs() >= 1e7 || x.abs() < 1e-4) {
        format!("{x:.3e}")
    } else {
        let rounded = (x * 1e4).round() / 1e4;
        if rounded == 0.0 {
            "0".to_string()
        } else {
            format!("{rounded}")
        }
    };
    match style {
        Style::Text => s,
        Style::Picture => s.replace('-', "\u{2212}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(2.0, Style::Text), "2");
        assert_eq!(num(-0.0, Style::Text), "0");
        assert_eq!(num(-0.2000000001, Style::Text), "-0.2");
        assert_eq!(num(1.0 / 3.0, Style::Text), "0.3333");
        assert_eq!(num(-4.0, Style::Picture), "\u{2212}4");
        assert_eq!(num(1e-9, Style::Text), "1.000e-9");
    }
}
