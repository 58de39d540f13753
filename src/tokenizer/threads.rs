//! Explicit thread counts for batch work. Without one, rayon's global pool
//! runs it (`RAYON_NUM_THREADS`, else one thread per CPU); with one, a pool of
//! that many threads, made on first use and kept for the next call.

use std::sync::{Arc, Mutex};

use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::error::{Error, Result};

/// Above this, a thread count is surely a mistake.
pub const MAX_THREADS: usize = 1024;

static POOLS: Mutex<Vec<(usize, Arc<ThreadPool>)>> = Mutex::new(Vec::new());

/// Runs `work` on `threads` threads (rayon's global pool when None).
pub fn install<R: Send>(threads: Option<usize>, work: impl FnOnce() -> R + Send) -> Result<R> {
    let Some(n) = threads else {
        return Ok(work());
    };
    if n == 0 || n > MAX_THREADS {
        return Err(Error::invalid(format!("num_threads must be between 1 and {MAX_THREADS}, not {n}")));
    }
    let pool = {
        let mut pools = POOLS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match pools.iter().find(|(k, _)| *k == n) {
            Some((_, pool)) => Arc::clone(pool),
            None => {
                let pool = ThreadPoolBuilder::new()
                    .num_threads(n)
                    .thread_name(|i| format!("fast-wordpiece-{i}"))
                    .build()
                    .map_err(|e| Error::invalid(format!("could not start {n} threads: {e}")))?;
                let pool = Arc::new(pool);
                pools.push((n, Arc::clone(&pool)));
                pool
            }
        }
    };
    Ok(pool.install(work))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_on_the_asked_number_of_threads() {
        assert_eq!(install(Some(3), rayon::current_num_threads).unwrap(), 3);
        assert_eq!(install(Some(1), rayon::current_num_threads).unwrap(), 1);
        assert_eq!(install(None, rayon::current_num_threads).unwrap(), rayon::current_num_threads());
        assert!(install(Some(0), || ()).is_err());
    }
}
