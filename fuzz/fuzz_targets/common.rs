//! What the fuzz targets share: numbers read from the fuzzer's bytes, and the touching band the
//! consistency checks allow.

use gjk::{Support, Vector};

/// Reads f64s from the fuzzer's bytes, mapped into a wide but finite range.
pub struct Numbers<'a>(pub &'a [u8]);

impl Numbers<'_> {
    /// 16 bits: a mantissa-like value in [−1, 1) and an exponent in [−8, 7].
    pub fn next(&mut self) -> Option<f64> {
        let (head, tail) = self.0.split_first_chunk::<2>()?;
        self.0 = tail;
        let raw = u16::from_le_bytes(*head);
        let mantissa = (raw & 0x0fff) as f64 / 4096.0 * 2.0 - 1.0;
        let exponent = ((raw >> 12) as i32) - 8;
        Some(mantissa * 10f64.powi(exponent))
    }

    /// One raw byte (a choice).
    pub fn byte(&mut self) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first)
    }
}

/// The width of the touching band, inside which either verdict is allowed: 1e-6 of the scene's
/// size — the poses' offsets and the shapes' extents along the axes (a box 1e7 long has a band
/// near 1e-3, as GJK's tolerance is relative to the same size).
pub fn band<V: Vector<Real = f64>>(
    a: &dyn Support<V>,
    offset_a: V,
    b: &dyn Support<V>,
    offset_b: V,
) -> f64 {
    let reach = |s: &dyn Support<V>| {
        (0..V::DIM)
            .flat_map(|i| [V::axis(i), -V::axis(i)])
            .map(|d| s.support(d).length() + s.margin())
            .fold(0.0, f64::max)
    };
    1e-6 * (1.0 + offset_a.length() + offset_b.length() + reach(a) + reach(b))
}
