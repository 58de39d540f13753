//! The thread pools that batch work runs on.
//!
//! Parallel work never runs on rayon's global pool but on a pool of ours, one
//! per thread count and per process: a pool's threads do not survive
//! `fork()`, so a child process (a PyTorch DataLoader worker, say) that used
//! its parent's pool would wait forever. After a fork the child builds its
//! own, in a registry of its own (see [`Registry`]). The default count is
//! `RAYON_NUM_THREADS`, else one thread per CPU.

use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::Duration;

use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::error::{Error, Result};

/// Above this, a thread count is surely a mistake.
pub const MAX_THREADS: usize = 1024;
/// Pools kept for later calls; the oldest goes first.
const KEPT: usize = 4;

/// The pools of one process: `(threads, pool)`, newest last.
///
/// A child of `fork()` makes a registry of its own and never touches its
/// parent's: another thread of the parent may have held that one's lock at
/// the fork, and in the child no thread would ever release it. The parent's
/// registry and pools are leaked in the child (their threads are gone).
struct Registry {
    pid: u32,
    pools: Mutex<Vec<(usize, Arc<ThreadPool>)>>,
}

/// The registry of the process that made it; never freed.
static REGISTRY: AtomicPtr<Registry> = AtomicPtr::new(std::ptr::null_mut());

/// The registry of process `pid` (this process's, outside tests).
fn registry(pid: u32) -> &'static Registry {
    loop {
        let current = REGISTRY.load(Ordering::Acquire);
        // SAFETY: a non-null pointer in REGISTRY comes from `Box::into_raw`
        // below and is never freed, so it points to a live Registry.
        if let Some(found) = unsafe { current.as_ref() } {
            if found.pid == pid {
                return found;
            }
        }
        let fresh = Box::into_raw(Box::new(Registry { pid, pools: Mutex::new(Vec::new()) }));
        if REGISTRY.compare_exchange(current, fresh, Ordering::AcqRel, Ordering::Acquire).is_ok() {
            // SAFETY: `fresh` is live and, now in REGISTRY, never freed.
            return unsafe { &*fresh };
        }
        // Another thread put its own first: ours was never shared.
        // SAFETY: `fresh` came from `Box::into_raw` just above.
        drop(unsafe { Box::from_raw(fresh) });
    }
}

/// `RAYON_NUM_THREADS` if it is a positive number, else the CPU count.
pub fn default_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(cpus)
        .min(MAX_THREADS)
}

/// The CPUs this process may run on, asked once: the answer reads cgroup
/// files and the affinity mask, four system calls that a small batch would
/// otherwise pay on every call.
fn cpus() -> usize {
    static CPUS: OnceLock<usize> = OnceLock::new();
    *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn pool(threads: usize) -> Result<Arc<ThreadPool>> {
    pool_in(registry(std::process::id()), threads)
}

/// The pool of `threads` threads in `registry`, built if there is none; the
/// threads start outside the lock.
fn pool_in(registry: &Registry, threads: usize) -> Result<Arc<ThreadPool>> {
    let find =
        |pools: &[(usize, Arc<ThreadPool>)]| pools.iter().find(|(n, _)| *n == threads).map(|(_, p)| Arc::clone(p));
    if let Some(pool) = find(&registry.pools.lock().unwrap_or_else(|poisoned| poisoned.into_inner())) {
        return Ok(pool);
    }
    let pool = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("fast-wordpiece-{i}"))
        .build()
        .map_err(|e| Error::invalid(format!("could not start {threads} threads: {e}")))?;
    let mut pools = registry.pools.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(built) = find(&pools) {
        return Ok(built); // another thread built one meanwhile; ours stops
    }
    let pool = Arc::new(pool);
    if pools.len() >= KEPT {
        pools.remove(0); // its threads exit once the calls still using it return
    }
    pools.push((threads, Arc::clone(&pool)));
    Ok(pool)
}

/// Runs `work` (which may use rayon's parallel iterators) on the default
/// number of threads; on the calling thread alone if no thread can start.
pub fn run<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    match pool(default_threads()) {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

/// How often [`run_until`] asks whether to stop.
const POLL: Duration = Duration::from_millis(20);

/// [`run`] for long work that must stop when asked: `work` runs on the
/// pool while the calling thread asks `stop` every [`POLL`] (a binding's
/// hook runs there: Python runs signal handlers on its main thread only).
/// Once `stop` says true, the flag handed to `work` is set; `work` looks at
/// it between chunks and gives up (what it then returns is dropped), and
/// the result is [`Error::Interrupted`].
pub fn run_until<R: Send>(stop: &(dyn Fn() -> bool + Sync), work: impl FnOnce(&AtomicBool) -> R + Send) -> Result<R> {
    let stopped = AtomicBool::new(false);
    let done = match pool(default_threads()) {
        Ok(pool) => pool.in_place_scope(|scope| {
            let (sender, receiver) = mpsc::channel();
            let flag = &stopped;
            scope.spawn(move |_| {
                // The receiver outlives the scope; a send cannot fail.
                let _ = sender.send(work(flag));
            });
            loop {
                match receiver.recv_timeout(POLL) {
                    Ok(done) => break Some(done),
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if !stopped.load(Ordering::Relaxed) && stop() {
                            stopped.store(true, Ordering::Relaxed);
                        }
                    }
                    // `work` panicked: the scope passes the panic on.
                    Err(mpsc::RecvTimeoutError::Disconnected) => break None,
                }
            }
        }),
        // No thread can start: here, asking `stop` before only.
        Err(_) => match stop() {
            true => None,
            false => Some(work(&stopped)),
        },
    };
    match done {
        Some(done) if !stopped.load(Ordering::Relaxed) => Ok(done),
        _ => Err(Error::Interrupted),
    }
}

/// [`run`], on `threads` threads when given.
pub fn install<R: Send>(threads: Option<usize>, work: impl FnOnce() -> R + Send) -> Result<R> {
    if threads.is_none() {
        return Ok(run(work));
    }
    Ok(pool_for(threads)?.install(work))
}

/// `threads`, checked, or the default number.
pub fn checked(threads: Option<usize>) -> Result<usize> {
    match threads.unwrap_or_else(default_threads) {
        n @ 1..=MAX_THREADS => Ok(n),
        n => Err(Error::invalid(format!("num_threads must be between 1 and {MAX_THREADS}, not {n}"))),
    }
}

/// The pool for `threads` threads, or for the default number.
pub fn pool_for(threads: Option<usize>) -> Result<Arc<ThreadPool>> {
    pool(checked(threads)?)
}

/// Below this many bytes of work in all, [`for_each`] runs on the calling
/// thread: handing work to a pool wakes its threads and puts the caller to
/// sleep until they are done (two context switches, tens of µs on a busy
/// machine), more than a single thread takes to copy this much.
pub const SERIAL_BELOW: usize = 128 << 10;

/// Runs `f` on each of `jobs` on `threads` threads (the default number when
/// None), or in order on the calling thread when that is one thread, when
/// there is one job, or when `bytes`, the size of all the work, is below
/// [`SERIAL_BELOW`].
pub fn for_each<T: Send>(
    threads: Option<usize>,
    bytes: usize,
    jobs: Vec<T>,
    f: impl Fn(T) + Sync + Send,
) -> Result<()> {
    if checked(threads)? == 1 || jobs.len() < 2 || bytes < SERIAL_BELOW {
        jobs.into_iter().for_each(f);
        return Ok(());
    }
    install(threads, || jobs.into_par_iter().for_each(f))
}

/// Drops `value` on a thread of the default pool when it has more than one
/// thread (freeing large structures then overlaps the caller's next work),
/// else here.
pub fn drop_in_background<T: Send + 'static>(value: T) {
    if default_threads() > 1 {
        if let Ok(pool) = pool(default_threads()) {
            pool.spawn(move || drop(value));
            return;
        }
    }
    drop(value);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_on_the_asked_number_of_threads() {
        assert_eq!(install(Some(3), rayon::current_num_threads).unwrap(), 3);
        assert_eq!(install(Some(1), rayon::current_num_threads).unwrap(), 1);
        assert_eq!(install(None, rayon::current_num_threads).unwrap(), default_threads());
        assert!(install(Some(0), || ()).is_err());
        assert!(install(Some(MAX_THREADS + 1), || ()).is_err());
    }

    #[test]
    fn small_work_runs_on_the_calling_thread_and_large_work_on_the_pool() {
        let here = std::thread::current().id();
        let ran_on = |threads: Option<usize>, bytes: usize, jobs: usize| {
            let seen = Mutex::new(Vec::new());
            for_each(threads, bytes, (0..jobs).collect(), |i| {
                seen.lock().unwrap().push((i, std::thread::current().id()));
            })
            .unwrap();
            let mut seen = seen.into_inner().unwrap();
            seen.sort_unstable_by_key(|&(i, _)| i);
            assert_eq!(seen.iter().map(|&(i, _)| i).collect::<Vec<_>>(), (0..jobs).collect::<Vec<_>>());
            seen.iter().all(|&(_, id)| id == here)
        };
        assert!(ran_on(Some(4), SERIAL_BELOW - 1, 8));
        assert!(ran_on(Some(1), 1 << 30, 8));
        assert!(ran_on(Some(4), 1 << 30, 1));
        assert!(!ran_on(Some(4), SERIAL_BELOW, 64));
        assert!(for_each(Some(0), 0, vec![1], |_| ()).is_err());
    }

    #[test]
    fn values_dropped_in_the_background_are_dropped() {
        let value = Arc::new(vec![1u8; 1 << 20]);
        drop_in_background(Arc::clone(&value));
        // On a pool thread or here: either way the clone goes, soon.
        for _ in 0..10_000 {
            if Arc::strong_count(&value) == 1 {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        panic!("the clone was never dropped");
    }

    #[test]
    fn work_run_until_asked_to_stop_gives_up_between_chunks() {
        assert_eq!(run_until(&|| false, |_| 7).unwrap(), 7);
        let asked = std::sync::atomic::AtomicUsize::new(0);
        let chunks = std::sync::atomic::AtomicUsize::new(0);
        // Stops at the third question, about 3 * POLL into endless work.
        let stop = || asked.fetch_add(1, Ordering::Relaxed) >= 2;
        let endless = |stopped: &AtomicBool| {
            while !stopped.load(Ordering::Relaxed) {
                chunks.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(1));
            }
        };
        assert!(matches!(run_until(&stop, endless), Err(Error::Interrupted)));
        assert_eq!(asked.load(Ordering::Relaxed), 3);
        assert!(chunks.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn keeps_a_few_pools_only() {
        for n in 1..=KEPT + 3 {
            assert_eq!(install(Some(n), rayon::current_num_threads).unwrap(), n);
        }
        assert!(registry(std::process::id()).pools.lock().unwrap().len() <= KEPT);
    }

    #[test]
    fn a_forked_child_never_waits_for_its_parents_lock() {
        // As in a child forked while another thread of the parent held the
        // registry's lock: the child (another pid) gets a registry of its
        // own, whose lock is free, and builds its pool there.
        let parent = registry(std::process::id());
        let held = parent.pools.lock().unwrap();
        let child_pid = std::process::id().wrapping_add(1);
        let child = registry(child_pid);
        assert!(!std::ptr::eq(child, parent));
        assert_eq!(pool_in(child, 2).unwrap().current_num_threads(), 2);
        drop(held);
    }
}
