//! Running out of memory in the middle of long work: a `MemoryError`, not an
//! abort of the process.
//!
//! Sizes known up front (a text's tokens, a batch's encodings, the training
//! tables) are reserved with `try_reserve`, whose failure is an error. But
//! long work also makes many small allocations as it goes (each encoding of
//! a batch, the lists of a merge), and Rust aborts the process when one of
//! those fails. So the allocator keeps a spare: [`Reserve`] wraps the global
//! allocator, and when an allocation of at most [`SMALL`] bytes fails, it
//! frees the spare (address space, [`SPARE_BYTES`] bytes, never touched) and
//! tries again, which then succeeds. Long work started under a [`Watch`]
//! asks it, between small steps (an input of a batch, a merge), whether the
//! spare was spent since it started ([`Watch::check`]), and if so gives up
//! with [`Error::Memory`]: what it built is then freed, and the error
//! reaches the caller. The spare is taken again when the next watched work
//! starts.
//!
//! The spare is one per process: memory that runs out anywhere (another
//! thread, another tokenizer) ends every watched work under way with a
//! MemoryError. Larger allocations that fail are not retried: they are the
//! reserved sizes, whose failure is already an error, and the spare would
//! only let work whose output cannot fit go on.
//!
//! An allocation fails where address space is limited (`ulimit -v`,
//! `RLIMIT_AS`) or the kernel does not overcommit; with Linux's default
//! overcommit, the kernel's out-of-memory killer may end the process first.
//! One allocation larger than the machine's memory and swap ([`largest`])
//! is refused here, whatever the kernel would grant: mimalloc maps large
//! blocks with `MAP_NORESERVE`, which Linux's overcommit heuristic never
//! refuses, so padding to a `max_length` of 2^40 tokens was granted 20 TB
//! and the process was killed as the padding was written.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};

use crate::error::{Error, Result};

/// The spare's size: room for the small allocations a step of work makes
/// between two checks, many times over.
pub const SPARE_BYTES: usize = 64 << 20;

/// Allocations of at most this many bytes are retried once the spare is
/// freed. Larger ones are the sizes reserved with `try_reserve`, whose
/// failure the work handles (a cache that stays as it is, a MemoryError):
/// the spare is not spent on them.
pub const SMALL: usize = SPARE_BYTES / 16;

/// The machine's memory and swap in bytes, read once (0: not read yet).
static MACHINE_BYTES: AtomicUsize = AtomicUsize::new(0);

/// The largest allocation that could ever be backed: the machine's memory
/// and swap (`sysinfo` on Linux, read once), or `usize::MAX` where that is
/// not known. Reads no more than a system call: the allocator calls it.
pub fn largest() -> usize {
    match MACHINE_BYTES.load(Ordering::Relaxed) {
        0 => {
            let bytes = machine_bytes().unwrap_or(usize::MAX).max(1);
            MACHINE_BYTES.store(bytes, Ordering::Relaxed);
            bytes
        }
        bytes => bytes,
    }
}

#[cfg(target_os = "linux")]
fn machine_bytes() -> Option<usize> {
    // SAFETY: `sysinfo` only fills the struct it is given, which any bytes
    // (zeros included) are a valid value of.
    let mut info: libc::sysinfo = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to that struct.
    if unsafe { libc::sysinfo(&mut info) } != 0 {
        return None;
    }
    let unit = u128::from(info.mem_unit.max(1));
    #[allow(clippy::useless_conversion)] // `c_ulong` is 32 bits on some targets
    let total = (u128::from(info.totalram) + u128::from(info.totalswap)) * unit;
    Some(usize::try_from(total).unwrap_or(usize::MAX))
}

#[cfg(not(target_os = "linux"))]
fn machine_bytes() -> Option<usize> {
    None
}

/// Whether an allocation of `size` bytes is one no machine memory could
/// back (see [`largest`]): refused without asking the allocator.
#[inline]
fn beyond_memory(size: usize) -> bool {
    size > SMALL && size > largest()
}

/// The spare and what is known of it.
pub struct Spare {
    /// The spare (from the system allocator, so that it is address space
    /// the kernel maps on touch, and it is never touched), or null.
    at: AtomicPtr<u8>,
    /// How many times it was spent.
    spent: AtomicU64,
    /// It was spent and not taken again since, and no watch has said so yet.
    gone: AtomicBool,
    /// Threads spending it now (the one freeing it, and those that found it gone).
    spending: AtomicU32,
    /// Where it comes from: [`system_spare`] (a test's own, failing at will).
    take: fn() -> *mut u8,
}

/// The process's spare.
static SPARE: Spare = Spare::new(system_spare);

/// A spare from the system allocator, or null where memory is short.
fn system_spare() -> *mut u8 {
    // SAFETY: a nonzero size and a valid alignment.
    unsafe { System.alloc(spare_layout()) }
}

/// Takes the process's spare if it is not held (and memory allows it).
pub fn arm() {
    SPARE.arm();
}

/// Memory ran out where the failure was handled without the spare (a
/// fallible growth with no way back): every watch sees it as spent.
pub fn ran_out() {
    SPARE.spent.fetch_add(1, Ordering::AcqRel);
}

/// A MemoryError reached the caller: the spare's loss has been said (no
/// watch need say it again), and it is taken again if memory allows.
pub fn reported() {
    SPARE.gone.store(false, Ordering::Release);
    SPARE.arm();
}

fn spare_layout() -> Layout {
    Layout::from_size_align(SPARE_BYTES, 4096).expect("a valid layout")
}

impl Spare {
    const fn new(take: fn() -> *mut u8) -> Self {
        Self {
            at: AtomicPtr::new(null_mut()),
            spent: AtomicU64::new(0),
            gone: AtomicBool::new(false),
            spending: AtomicU32::new(0),
            take,
        }
    }

    /// Takes the spare if it is not held and memory allows it. Every call
    /// tries (one system call that fails while memory stays short: calls
    /// are per piece of work, not per allocation), so that work started
    /// once memory is back has its spare, however short memory was before.
    fn arm(&self) {
        // Not while a thread is freeing it to retry its allocation: that
        // retry needs the room back.
        if !self.at.load(Ordering::Acquire).is_null() || self.spending.load(Ordering::Acquire) > 0 {
            return;
        }
        let spare = (self.take)();
        if spare.is_null() {
            return;
        }
        // Before the spare is published: a spend after it says "gone" again.
        self.gone.store(false, Ordering::Release);
        if self.at.compare_exchange(null_mut(), spare, Ordering::AcqRel, Ordering::Acquire).is_err() {
            // SAFETY: allocated above with this layout, and not shared.
            unsafe { System.dealloc(spare, spare_layout()) };
        }
    }

    /// Frees the spare, if held, and counts it as spent; returns once no
    /// other thread is still freeing it, so that a retry finds its room.
    fn spend(&self) {
        self.spending.fetch_add(1, Ordering::AcqRel);
        let spare = self.at.swap(null_mut(), Ordering::AcqRel);
        if !spare.is_null() {
            // SAFETY: `arm` allocated it with this layout; the swap made it ours alone.
            unsafe { System.dealloc(spare, spare_layout()) };
            self.gone.store(true, Ordering::Release);
            self.spent.fetch_add(1, Ordering::AcqRel);
        }
        self.spending.fetch_sub(1, Ordering::AcqRel);
        // Whoever took the spare counted itself in before its swap: wait
        // for its free to end.
        while self.spending.load(Ordering::Acquire) > 0 {
            std::hint::spin_loop();
        }
    }

    /// Takes the spare if it is not held, and starts watching it. If it was
    /// spent, cannot be taken again, and no watch has said so yet, memory
    /// has run out (e.g. while the work's inputs were read): this watch
    /// starts so, and says it once. (A spare that cannot be taken otherwise,
    /// where address space is that short, leaves the work as it would be
    /// without one.)
    fn watch(&'static self) -> Watch {
        self.arm();
        let spent = self.spent.load(Ordering::Acquire);
        let dry = self.at.load(Ordering::Acquire).is_null() && self.gone.swap(false, Ordering::AcqRel);
        Watch { spare: self, spent, dry }
    }
}

/// A global allocator that frees the spare and tries again when a small
/// allocation fails, and refuses one larger than the machine's memory and
/// swap (see the module's documentation).
pub struct Reserve<A>(pub A);

impl<A> Reserve<A> {
    fn spare(&self) -> &'static Spare {
        &SPARE
    }
}

// SAFETY: every call is passed on to `A` unchanged, but for one larger than
// the machine's memory, which fails (null, as an allocator may); a failed
// small one is passed on again after the spare is freed.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Reserve<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if beyond_memory(layout.size()) {
            return null_mut();
        }
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { self.0.alloc(layout) };
        if p.is_null() && layout.size() <= SMALL {
            self.spare().spend();
            // SAFETY: as above.
            return unsafe { self.0.alloc(layout) };
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if beyond_memory(layout.size()) {
            return null_mut();
        }
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { self.0.alloc_zeroed(layout) };
        if p.is_null() && layout.size() <= SMALL {
            self.spare().spend();
            // SAFETY: as above.
            return unsafe { self.0.alloc_zeroed(layout) };
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { self.0.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if beyond_memory(new_size) {
            return null_mut(); // `ptr` stays as it was
        }
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        if p.is_null() && new_size <= SMALL {
            self.spare().spend();
            // SAFETY: as above (a failed realloc leaves `ptr` as it was).
            return unsafe { self.0.realloc(ptr, layout, new_size) };
        }
        p
    }
}

/// Long work's view of the spare: started before the work, checked between
/// its steps.
#[derive(Clone, Copy)]
pub struct Watch {
    spare: &'static Spare,
    spent: u64,
    /// Memory had run out already when it started (see [`Watch::start`]).
    dry: bool,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch").field("spent", &self.spent).field("dry", &self.dry).finish()
    }
}

impl Watch {
    /// Takes the spare if it is not held, and starts watching it. If it was
    /// spent, cannot be taken again, and no watch has said so yet, memory
    /// has run out (e.g. while the work's inputs were read): this watch
    /// starts so.
    pub fn start() -> Self {
        SPARE.watch()
    }

    /// Whether memory ran out: the spare was spent since `start`, or had
    /// been and could not be taken again then.
    #[inline]
    pub fn ran_out(&self) -> bool {
        self.dry || self.spare.spent.load(Ordering::Relaxed) != self.spent
    }

    /// [`Error::Memory`] naming `what` (e.g. "training on 3 words") if
    /// memory ran out since `start`.
    #[inline]
    pub fn check(&self, what: impl FnOnce() -> String) -> Result<()> {
        if self.ran_out() {
            return Err(Error::memory(what()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A spare of the test's own, so that spending it fails no other
    /// test's work.
    fn own_spare() -> &'static Spare {
        Box::leak(Box::new(Spare::new(system_spare)))
    }

    /// Whether [`short_spare`] fails, as where memory is short.
    static SHORT: AtomicBool = AtomicBool::new(false);

    fn short_spare() -> *mut u8 {
        if SHORT.load(Ordering::Acquire) {
            null_mut()
        } else {
            system_spare()
        }
    }

    // One allocator for a spare of a test's own: fails every allocation of
    // exactly 777 bytes while that spare is held, and those above `SMALL`.
    struct Failing(&'static Spare);

    // SAFETY: passes every call on to the system allocator, or fails it.
    unsafe impl GlobalAlloc for Failing {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let held = !self.0.at.load(Ordering::Acquire).is_null();
            if layout.size() > SMALL || (layout.size() == 777 && held) {
                return null_mut();
            }
            // SAFETY: the caller's contract, passed on.
            unsafe { System.alloc(layout) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: the caller's contract, passed on.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    /// `Reserve`'s retry with a spare of the test's own.
    fn alloc_retrying(spare: &'static Spare, layout: Layout) -> *mut u8 {
        let failing = Failing(spare);
        // SAFETY: a valid layout of nonzero size.
        let p = unsafe { failing.alloc(layout) };
        if p.is_null() && layout.size() <= SMALL {
            spare.spend();
            // SAFETY: as above.
            return unsafe { failing.alloc(layout) };
        }
        p
    }

    #[test]
    fn a_failed_small_allocation_spends_the_spare_and_a_large_one_does_not() {
        let spare = own_spare();
        let watch = spare.watch();
        assert!(!watch.ran_out());
        let large = Layout::from_size_align(SMALL + 1, 8).unwrap();
        assert!(alloc_retrying(spare, large).is_null());
        assert!(!watch.ran_out(), "a large allocation that fails is not retried");

        let layout = Layout::from_size_align(777, 8).unwrap();
        let p = alloc_retrying(spare, layout);
        assert!(!p.is_null(), "retried once the spare is freed");
        // SAFETY: allocated just above with this layout.
        unsafe { System.dealloc(p, layout) };
        assert!(watch.ran_out());
        let err = watch.check(|| "training on 3 words".into()).unwrap_err();
        assert!(matches!(err, Error::Memory(m) if m.starts_with("training on 3 words needs more memory")));
        // The next work takes the spare again and starts afresh.
        let again = spare.watch();
        assert!(!again.ran_out());
        assert!(!spare.at.load(Ordering::Acquire).is_null());
    }

    #[test]
    fn a_spare_that_cannot_be_taken_again_is_said_once() {
        let spare: &'static Spare = Box::leak(Box::new(Spare::new(short_spare)));
        spare.arm();
        spare.spend();
        // Memory stays short: the spare cannot be taken again.
        SHORT.store(true, Ordering::Release);
        assert!(spare.watch().ran_out(), "the first watch after says memory ran out");
        assert!(!spare.watch().ran_out(), "later ones go on without a spare");
        assert!(spare.at.load(Ordering::Acquire).is_null());
        // Memory is back: the very next work takes the spare again.
        SHORT.store(false, Ordering::Release);
        assert!(!spare.watch().ran_out());
        assert!(!spare.at.load(Ordering::Acquire).is_null());
    }

    #[test]
    fn threads_that_run_out_together_all_find_room() {
        let spare = own_spare();
        spare.arm();
        let layout = Layout::from_size_align(777, 8).unwrap();
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    let p = alloc_retrying(spare, layout);
                    assert!(!p.is_null());
                    // SAFETY: allocated just above with this layout.
                    unsafe { System.dealloc(p, layout) };
                });
            }
        });
        assert_eq!(spare.spent.load(Ordering::Acquire), 1);
    }
}
