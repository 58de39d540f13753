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
            eprintln!();
        }
    }

    fn draw(&self) {
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
