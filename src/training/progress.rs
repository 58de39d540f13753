//! Progress on stderr, in phases, with counts and rates (like a tqdm bar),
//! and the hook through which a caller can interrupt long work.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

const REDRAW: Duration = Duration::from_millis(250);
const CHECK: Duration = Duration::from_millis(100);

/// Returns true when the work must stop (e.g. Ctrl-C in Python).
pub type Interrupt<'a> = &'a (dyn Fn() -> bool + Sync);

pub struct Progress<'a> {
    enabled: bool,
    interrupt: Option<Interrupt<'a>>,
    phase: &'static str,
    unit: &'static str,
    total: Option<u64>,
    done: u64,
    started: Instant,
    last_draw: Instant,
    last_check: Instant,
    /// A line is drawn and not ended yet.
    open: bool,
}

impl<'a> Progress<'a> {
    pub fn new(enabled: bool, interrupt: Option<Interrupt<'a>>) -> Self {
        let now = Instant::now();
        Self {
            enabled,
            interrupt,
            phase: "",
            unit: "",
            total: None,
            done: 0,
            started: now,
            last_draw: now,
            last_check: now,
            open: false,
        }
    }

    pub fn disabled() -> Self {
        Self::new(false, None)
    }

    pub fn start(&mut self, phase: &'static str, unit: &'static str, total: Option<u64>) {
        let now = Instant::now();
        (self.phase, self.unit, self.total, self.done) = (phase, unit, total, 0);
        (self.started, self.last_draw, self.last_check) = (now, now, now);
        if self.enabled {
            self.draw();
        }
    }

    /// Drops the total, when the units turn out to be other than those counted
    /// for it.
    pub fn forget_total(&mut self) {
        self.total = None;
    }

    /// Records `n` more units of work; fails with `Interrupted` when asked to stop.
    pub fn advance(&mut self, n: u64) -> Result<()> {
        self.done += n;
        let now = Instant::now();
        if now.duration_since(self.last_check) >= CHECK {
            self.last_check = now;
            self.check()?;
        }
        if self.enabled && now.duration_since(self.last_draw) >= REDRAW {
            self.last_draw = now;
            self.draw();
        }
        Ok(())
    }

    /// Asks the interrupt hook whether to stop.
    pub fn check(&self) -> Result<()> {
        match self.interrupt {
            Some(stop) if stop() => Err(Error::Interrupted),
            _ => Ok(()),
        }
    }

    pub fn finish(&mut self) {
        if self.enabled {
            self.draw();
            self.end_line();
        }
    }

    fn end_line(&mut self) {
        if self.open {
            // Written as `draw` writes: a stderr that fails (a closed pipe,
            // a full disk) loses the progress, never the work.
            let _ = writeln!(std::io::stderr());
            self.open = false;
        }
    }

    /// Ends the merging phase of training, which stopped at `tokens` of the
    /// `asked` vocabulary size: at its total when it got there; otherwise no
    /// pair was left to merge (none occurring `min_frequency` times), and the
    /// phase ends at the units really done (not the total planned), saying
    /// so once, on a line of its own ([`ran_out_of_pairs`]).
    pub fn finish_merging(&mut self, tokens: usize, asked: usize, min_frequency: u64) {
        if tokens >= asked {
            return self.finish();
        }
        self.total = Some(self.done);
        if self.enabled {
            self.draw();
            self.end_line();
            let _ = writeln!(std::io::stderr(), "[{}] {}", self.phase, ran_out_of_pairs(tokens, asked, min_frequency));
        }
    }

    fn draw(&mut self) {
        self.open = true;
        let secs = self.started.elapsed().as_secs_f64().max(1e-9);
        let rate = self.done as f64 / secs;
        let of = self.total.map(|t| format!("/{t}")).unwrap_or_default();
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r[{}] {}{} {} [{:.1}s, {:.0} {}/s]   ",
            self.phase, self.done, of, self.unit, secs, rate, self.unit
        );
        let _ = err.flush();
    }
}

/// Work that fails part-way leaves no line half drawn: the error that
/// follows starts on a line of its own.
impl Drop for Progress<'_> {
    fn drop(&mut self) {
        self.end_line();
    }
}

/// Why training stopped at `tokens` of the `asked` vocabulary size (the
/// twin's progress says it in the same words).
pub fn ran_out_of_pairs(tokens: usize, asked: usize, min_frequency: u64) -> String {
    let why = if min_frequency > 1 {
        format!("no pairs left to merge (none occurs min_frequency={min_frequency} times)")
    } else {
        "no pairs left to merge".to_string()
    };
    format!("stopped at {tokens} tokens of the {asked} asked: {why}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_out_of_pairs_is_said_plainly() {
        assert_eq!(
            ran_out_of_pairs(10655, 30000, 2),
            "stopped at 10655 tokens of the 30000 asked: no pairs left to merge (none occurs min_frequency=2 times)"
        );
        assert_eq!(ran_out_of_pairs(40, 100, 1), "stopped at 40 tokens of the 100 asked: no pairs left to merge");
        assert_eq!(ran_out_of_pairs(40, 100, 0), "stopped at 40 tokens of the 100 asked: no pairs left to merge");
    }

    #[test]
    fn merging_that_stops_short_ends_at_what_was_done() {
        let mut progress = Progress::disabled();
        progress.start("merging", "merges", Some(100));
        progress.advance(37).unwrap();
        progress.finish_merging(60, 123, 2);
        assert_eq!((progress.done, progress.total), (37, Some(37)));
        progress.start("merging", "merges", Some(100));
        progress.advance(100).unwrap();
        progress.finish_merging(123, 123, 2);
        assert_eq!((progress.done, progress.total), (100, Some(100)));
    }
}
