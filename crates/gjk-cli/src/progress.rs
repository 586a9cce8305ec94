//! The progress line of `gjk query` on standard error: lines done and their rate, redrawn in
//! place, for long inputs only and only when standard error is a terminal.
//!
//! Pipes, files and tests see nothing: the line is made of carriage returns and erase codes,
//! which would only be noise in a log. Short runs (under [`QUIET_FOR`]) draw nothing either,
//! so `gjk query` on a handful of lines stays silent on a terminal too.

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

/// How long a run goes before its progress line first appears.
pub(crate) const QUIET_FOR: Duration = Duration::from_secs(1);
/// How often the line is redrawn after that.
const REDRAW_EVERY: Duration = Duration::from_millis(250);

/// Counts of a run so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Counts {
    /// Lines read (answered, failed or blank).
    pub lines: u64,
    /// Lines that got an error record.
    pub failed: u64,
}

/// The progress line: silent unless it was given somewhere to draw.
pub(crate) struct Progress<W: Write> {
    /// Where to draw; `None` keeps it silent (and it then never reads the clock).
    out: Option<W>,
    started: Instant,
    next_draw: Instant,
    drawn: bool,
}

impl Progress<io::Stderr> {
    /// Progress on standard error when it is a terminal; silent otherwise.
    pub(crate) fn on_stderr() -> Self {
        let stderr = io::stderr();
        let out = stderr.is_terminal().then_some(stderr);
        Self::new(out, Instant::now())
    }
}

impl Progress<io::Sink> {
    /// A progress line that never draws.
    #[cfg(test)]
    pub(crate) fn silent() -> Self {
        Self::new(None, Instant::now())
    }
}

impl<W: Write> Progress<W> {
    /// A progress line drawn on `out` (none when `None`), for a run that started at `now`.
    pub(crate) fn new(out: Option<W>, now: Instant) -> Self {
        Self { out, started: now, next_draw: now + QUIET_FOR, drawn: false }
    }

    /// Notes the counts after a line; redraws when it is time.
    pub(crate) fn update(&mut self, counts: Counts) {
        if self.out.is_some() {
            self.update_at(counts, Instant::now());
        }
    }

    /// [`Progress::update`] at a given time.
    pub(crate) fn update_at(&mut self, counts: Counts, now: Instant) {
        if now >= self.next_draw {
            self.next_draw = now + REDRAW_EVERY;
            self.draw(counts, now, "");
        }
    }

    /// Ends the run: the final counts and the total time on a line of their own, if a
    /// progress line was drawn at all.
    pub(crate) fn finish(&mut self, counts: Counts) {
        if self.drawn {
            let now = Instant::now();
            let seconds = now.duration_since(self.started).as_secs_f64();
            self.draw(counts, now, &format!(" in {seconds:.1} s"));
            if let Some(out) = &mut self.out {
                let _ = out.write_all(b"\n");
            }
        }
    }

    fn draw(&mut self, counts: Counts, now: Instant, extra: &str) {
        let Some(out) = &mut self.out else { return };
        let seconds = now.duration_since(self.started).as_secs_f64();
        let rate = if seconds > 0.0 { counts.lines as f64 / seconds } else { 0.0 };
        // "\r" returns to the start of the line, "\x1b[K" erases what a longer draw left.
        // Nothing sensible is left to do when standard error fails: the answers matter more.
        let _ = write!(
            out,
            "\rgjk query: {} lines ({} failed), {rate:.0} lines/s{extra}\x1b[K",
            counts.lines, counts.failed
        );
        let _ = out.flush();
        self.drawn = true;
    }

    /// The drawing target (tests read what was drawn).
    #[cfg(test)]
    fn into_inner(self) -> Option<W> {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(lines: u64) -> Counts {
        Counts { lines, failed: 1 }
    }

    #[test]
    fn quiet_for_the_first_second_then_at_most_four_draws_a_second() {
        let start = Instant::now();
        let mut progress = Progress::new(Some(Vec::new()), start);
        progress.update_at(counts(10), start + QUIET_FOR / 2);
        assert!(!progress.drawn);
        progress.update_at(counts(2000), start + Duration::from_secs(2));
        progress.update_at(counts(2001), start + Duration::from_millis(2100));
        progress.update_at(counts(3000), start + Duration::from_millis(2300));
        let drawn = String::from_utf8(progress.into_inner().unwrap()).unwrap();
        assert_eq!(
            drawn,
            "\rgjk query: 2000 lines (1 failed), 1000 lines/s\x1b[K\
             \rgjk query: 3000 lines (1 failed), 1304 lines/s\x1b[K"
        );
    }

    #[test]
    fn a_short_run_draws_nothing_not_even_at_the_end() {
        let start = Instant::now();
        let mut progress = Progress::new(Some(Vec::new()), start);
        progress.update_at(counts(5), start + Duration::from_millis(10));
        progress.finish(counts(5));
        assert_eq!(progress.into_inner().unwrap(), b"");
    }

    #[test]
    fn a_long_run_ends_with_a_newline() {
        let start = Instant::now() - Duration::from_secs(3);
        let mut progress = Progress::new(Some(Vec::new()), start);
        progress.update_at(counts(7), start + Duration::from_secs(2));
        progress.finish(counts(9));
        let drawn = String::from_utf8(progress.into_inner().unwrap()).unwrap();
        let last = drawn.rsplit('\r').next().unwrap();
        assert!(last.starts_with("gjk query: 9 lines (1 failed), "), "{last:?}");
        assert!(last.ends_with(" s\x1b[K\n"), "{last:?}");
    }

    #[test]
    fn silent_progress_draws_nothing() {
        let start = Instant::now();
        let mut progress = Progress::<Vec<u8>>::new(None, start);
        progress.update_at(counts(10), start + Duration::from_secs(5));
        progress.finish(counts(10));
        assert!(progress.into_inner().is_none());
    }
}
