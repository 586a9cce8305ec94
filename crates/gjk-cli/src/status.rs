//! The `status` field of `gjk query` answers: how the loops behind an answer ended.
//!
//! This module is the one home of the vocabulary: [`Status::name`] maps the library's
//! terminations to the words printed, [`Status::meaning`] explains each word, and
//! `gjk query --help` lists [`Status::PROXIMITY`] and [`Status::CAST`] with those explanations.

use gjk::{
    CastStatus, ContactResult, EpaTermination, GjkResult, ManifoldStatus, Termination, Vector,
};

/// How the query of one pair ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// GJK's ending: separated pairs, and intersecting pairs whose contact needed no EPA.
    Gjk(Termination),
    /// EPA's ending: intersecting pairs whose cores overlap.
    Epa(EpaTermination),
    /// GJK found the shapes intersecting, but the contact query returned no contact: the
    /// depth, normal and points of a contact are unknown.
    ContactMissing,
    /// How a ray cast or shape cast ended.
    Cast(CastStatus),
    /// How a contact manifold was found.
    Manifold(ManifoldStatus),
}

impl Status {
    /// Every status of a proximity answer, in the order `gjk query --help` lists them.
    ///
    /// [`Status::name`] matches on every library variant, so a new one stops the build there;
    /// add it here or to [`Status::CAST`] too (the tests check that the names are distinct).
    pub(crate) const PROXIMITY: [Status; 11] = [
        Status::Gjk(Termination::Converged),
        Status::Gjk(Termination::NoProgress),
        Status::Gjk(Termination::Contained),
        Status::Gjk(Termination::IterationCap),
        Status::Gjk(Termination::SeparatingAxis),
        Status::Gjk(Termination::MarginOverlap),
        Status::Epa(EpaTermination::Converged),
        Status::Epa(EpaTermination::IterationCap),
        Status::Epa(EpaTermination::Degenerate),
        Status::Epa(EpaTermination::Flat),
        Status::ContactMissing,
    ];

    /// Every status of a cast answer (`ray_cast`, `shape_cast`, `time_of_impact`), in help order.
    ///
    /// [`CastStatus::InvalidInput`] is not among them: `gjk query` checks every field before
    /// casting, and should the library still refuse, the line gets an error record instead.
    pub(crate) const CAST: [Status; 4] = [
        Status::Cast(CastStatus::Hit),
        Status::Cast(CastStatus::InitiallyOverlapping),
        Status::Cast(CastStatus::NoHit),
        Status::Cast(CastStatus::IterationCap),
    ];

    /// Every status of a manifold answer, in help order.
    pub(crate) const MANIFOLD: [Status; 6] = [
        Status::Manifold(ManifoldStatus::Clipped { reference_is_a: true }),
        Status::Manifold(ManifoldStatus::Clipped { reference_is_a: false }),
        Status::Manifold(ManifoldStatus::SinglePoint),
        Status::Manifold(ManifoldStatus::Tilted),
        Status::Manifold(ManifoldStatus::Degenerate),
        Status::Manifold(ManifoldStatus::Apart),
    ];

    /// The status of an answer: from GJK alone for separated pairs; for intersecting pairs
    /// from the contact query, whose depth, normal and points the answer shows (EPA's ending
    /// when it ran, else the ending of the contact query's own GJK run or exact shortcut).
    pub(crate) fn of<V: Vector>(gjk: &GjkResult<V>, contact: Option<&ContactResult<V>>) -> Self {
        let Some(contact) = contact.filter(|_| gjk.intersecting) else {
            return Status::Gjk(gjk.termination);
        };
        match (contact.contact, contact.epa) {
            (None, _) => Status::ContactMissing,
            (Some(_), Some(epa)) => Status::Epa(epa),
            (Some(_), None) => Status::Gjk(contact.gjk_termination),
        }
    }

    /// The word printed in the `status` field.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Status::Gjk(t) => match t {
                Termination::Converged => "converged",
                Termination::NoProgress => "no_progress",
                Termination::Contained => "contained",
                Termination::IterationCap => "iteration_cap",
                Termination::SeparatingAxis => "separating_axis",
                Termination::MarginOverlap => "margin_overlap",
            },
            Status::Epa(t) => match t {
                EpaTermination::Converged => "epa_converged",
                EpaTermination::IterationCap => "epa_iteration_cap",
                EpaTermination::Degenerate => "epa_degenerate",
                EpaTermination::Flat => "epa_flat",
            },
            Status::ContactMissing => "contact_missing",
            Status::Cast(t) => match t {
                CastStatus::Hit => "hit",
                CastStatus::InitiallyOverlapping => "initially_overlapping",
                CastStatus::NoHit => "no_hit",
                CastStatus::IterationCap => "cast_iteration_cap",
                CastStatus::InvalidInput => "invalid_input",
            },
            Status::Manifold(m) => match m {
                ManifoldStatus::Clipped { reference_is_a: true } => "clipped_a",
                ManifoldStatus::Clipped { reference_is_a: false } => "clipped_b",
                ManifoldStatus::SinglePoint => "single_point",
                ManifoldStatus::Tilted => "tilted",
                ManifoldStatus::Degenerate => "degenerate",
                ManifoldStatus::Apart => "apart",
            },
        }
    }

    /// What the word means, in one line of `gjk query --help`.
    pub(crate) fn meaning(self) -> &'static str {
        match self {
            Status::Gjk(t) => match t {
                Termination::Converged => "GJK (or an exact formula) converged: accurate",
                Termination::NoProgress => {
                    "GJK could not improve (usual for polytopes): its best answer"
                }
                Termination::Contained => "the cores overlap; depth from a closed form, no EPA",
                Termination::IterationCap => "GJK hit its iteration cap: its best answer",
                Termination::SeparatingAxis => "a separating axis was found (intersection tests)",
                Termination::MarginOverlap => "cores apart, margins overlap (intersection tests)",
            },
            Status::Epa(t) => match t {
                EpaTermination::Converged => "EPA converged: the depth is accurate",
                EpaTermination::IterationCap => "EPA hit its cap: the depth is an upper bound",
                EpaTermination::Degenerate => "rounding stopped EPA: the depth is an upper bound",
                EpaTermination::Flat => "the cores are flat (e.g. crossing segments): depth 0",
            },
            Status::ContactMissing => {
                "intersecting, but the contact query found none: GJK's points, depth 0"
            }
            Status::Cast(t) => match t {
                CastStatus::Hit => "the first contact within [0, max_toi], at toi",
                CastStatus::InitiallyOverlapping => {
                    "touching or overlapping at t = 0 (ray: the origin is inside): toi 0"
                }
                CastStatus::NoHit => "no contact within [0, max_toi]: toi is max_toi",
                CastStatus::IterationCap => {
                    "the cast hit its iteration cap: toi is a lower bound, apart before it"
                }
                CastStatus::InvalidInput => "the library refused the input (never printed)",
            },
            Status::Manifold(m) => match m {
                ManifoldStatus::Clipped { reference_is_a: true } => {
                    "B's face or edge clipped against A's face: the patch"
                }
                ManifoldStatus::Clipped { reference_is_a: false } => {
                    "A's face or edge clipped against B's face: the patch"
                }
                ManifoldStatus::SinglePoint => {
                    "a curved surface or a corner touches: the contact's one point"
                }
                ManifoldStatus::Tilted => {
                    "no face lies along the normal (edge on edge): the contact's one point"
                }
                ManifoldStatus::Degenerate => {
                    "clipping kept no point (flat or tiny features): the contact's one point"
                }
                ManifoldStatus::Apart => "farther apart than the prediction: no points",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gjk::{Ball, ContactOptions, GjkOptions, Goal, Pair, Pose, WarmStart};
    use glam::DVec2;

    #[test]
    fn names_are_distinct_snake_case_words() {
        let all = Status::PROXIMITY.iter().chain(&Status::CAST).chain(&Status::MANIFOLD);
        let names: Vec<&str> = all.map(|s| s.name()).collect();
        for (i, name) in names.iter().enumerate() {
            assert!(name.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{name}");
            assert!(!names[..i].contains(name), "{name} twice");
        }
        for status in Status::PROXIMITY {
            let name = status.name();
            assert_eq!(name.starts_with("epa_"), matches!(status, Status::Epa(_)), "{name}");
        }
    }

    /// GJK's answer for two unit discs with centres `gap + 2` apart.
    fn discs(gap: f64) -> (GjkResult<DVec2>, ContactResult<DVec2>) {
        let ball = Ball::<DVec2>::new(1.0).unwrap();
        let pose_b = Pose::from_translation(DVec2::new(2.0 + gap, 0.0)).unwrap();
        let pair = Pair::new(&ball, Pose::IDENTITY, &ball, pose_b);
        let mut cache = WarmStart::default();
        let gjk = pair.gjk(Goal::Distance, &GjkOptions::default(), &mut cache);
        (gjk, pair.contact_with(&ContactOptions::default(), &mut cache))
    }

    #[test]
    fn separated_pairs_take_gjks_ending() {
        let (gjk, contact) = discs(1.0);
        assert!(!gjk.intersecting);
        // Even when a contact result is at hand, a separated pair reports GJK's own ending.
        assert_eq!(Status::of(&gjk, Some(&contact)), Status::Gjk(gjk.termination));
        assert_eq!(Status::of(&gjk, None), Status::Gjk(gjk.termination));
    }

    #[test]
    fn intersecting_pairs_take_the_contact_querys_ending() {
        let (gjk, contact) = discs(-0.5);
        assert!(gjk.intersecting && contact.contact.is_some());
        let expanded = ContactResult { epa: Some(EpaTermination::Degenerate), ..contact };
        assert_eq!(Status::of(&gjk, Some(&expanded)).name(), "epa_degenerate");
        let shortcut =
            ContactResult { epa: None, gjk_termination: Termination::Contained, ..contact };
        assert_eq!(Status::of(&gjk, Some(&shortcut)).name(), "contained");
    }

    #[test]
    fn a_missing_contact_is_reported_not_hidden() {
        let (gjk, contact) = discs(-0.5);
        let missing = ContactResult { contact: None, ..contact };
        assert_eq!(Status::of(&gjk, Some(&missing)), Status::ContactMissing);
        assert_eq!(Status::of(&gjk, Some(&missing)).name(), "contact_missing");
    }
}
