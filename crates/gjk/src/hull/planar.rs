//! The convex hull of points in a plane: Andrew's monotone chain (Andrew 1979).
//!
//! The points are sorted by `(x, y)`; the lower hull is built left to right and the upper hull
//! right to left, each keeping only left turns. A turn counts as a left turn only when the middle
//! point lies farther than the tolerance from the chord of its neighbours, so collinear,
//! duplicate and nearly collinear points are dropped instead of producing zero-length edges or
//! reflex vertices.

use alloc::vec::Vec;

use glam::DVec2;

/// Twice the signed area of `o, a, b`: positive when `o → a → b` turns left.
#[inline]
fn cross(o: DVec2, a: DVec2, b: DVec2) -> f64 {
    (a - o).perp_dot(b - o)
}

/// Whether `a` must leave the chain `…, o, a` when `b` comes next: `a` is not farther than
/// `tolerance` to the right of the chord `o → b` (so `o → a → b` is not a clear left turn).
#[inline]
fn is_not_left_turn(o: DVec2, a: DVec2, b: DVec2, tolerance: f64) -> bool {
    // cross(o, a, b) = |b − o| × (distance of `a` to the right of the chord o → b).
    cross(o, a, b) <= tolerance * (b - o).length()
}

/// The indices of the hull's vertices in counter-clockwise order, starting from the
/// lexicographically smallest point. `points` must not be empty; the result has one entry when
/// every point lies within `tolerance` of the first, two for a segment.
pub(super) fn monotone_chain(points: &[DVec2], tolerance: f64) -> Vec<u32> {
    let mut order: Vec<u32> = (0..points.len() as u32).collect();
    order.sort_unstable_by(|&i, &j| {
        let (p, q) = (points[i as usize], points[j as usize]);
        p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)).then(i.cmp(&j))
    });
    let at = |i: u32| points[i as usize];
    let mut hull: Vec<u32> = Vec::with_capacity(order.len() + 1);
    // Pops `hull`'s last point while it does not make a clear left turn towards `i`, never
    // going below `floor` points, then pushes `i`.
    let push = |hull: &mut Vec<u32>, floor: usize, i: u32| {
        while hull.len() >= floor + 2 {
            let (o, a) = (hull[hull.len() - 2], hull[hull.len() - 1]);
            if !is_not_left_turn(at(o), at(a), at(i), tolerance) {
                break;
            }
            hull.pop();
        }
        hull.push(i);
    };
    // Lower hull, left to right.
    for &i in &order {
        push(&mut hull, 0, i);
    }
    // Upper hull, right to left: the rightmost point (last of the lower hull) stays.
    let floor = hull.len() - 1;
    for &i in order.iter().rev().skip(1) {
        push(&mut hull, floor, i);
    }
    // The upper hull ends where the lower one began.
    if hull.len() > 1 {
        hull.pop();
    }
    remove_flat_vertices(points, &mut hull, tolerance);
    hull
}

/// Removes vertices lying within `tolerance` of the chord of their cyclic neighbours (the seams
/// of the two chains can leave one), and vertices within `tolerance` of their successor.
fn remove_flat_vertices(points: &[DVec2], hull: &mut Vec<u32>, tolerance: f64) {
    let at = |i: u32| points[i as usize];
    let mut changed = true;
    // Each pass removes at least one vertex or stops: bounded by the hull's size.
    while changed && hull.len() > 2 {
        changed = false;
        let n = hull.len();
        for k in 0..n {
            let (o, a, b) = (hull[(k + n - 1) % n], hull[k], hull[(k + 1) % n]);
            let too_close = (at(a) - at(b)).length() <= tolerance;
            if too_close || is_not_left_turn(at(o), at(a), at(b), tolerance) {
                hull.remove(k);
                changed = true;
                break;
            }
        }
    }
    if hull.len() == 2 && (at(hull[0]) - at(hull[1])).length() <= tolerance {
        hull.pop();
    }
}
