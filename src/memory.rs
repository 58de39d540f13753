//! Running out of memory in the middle of long work: a `MemoryError`, not an
//! abort of the process.
//!
//! Sizes known up front (a text's tokens, a batch's encodings, the training
//! tables) are reserved with `try_reserve`, whose failure is an error. But
//! long work also makes many small allocations as it goes (each encoding of
//! a batch, the lists of a merge), and Rust aborts the process when one of
//! those fails. So the allocator keeps a spare: [`Reserve`] wraps the global
//! allocator, and when an allocation of at most [`SMALL`] bytes fails, it
//! frees the spare (address space, [`SPARE`] bytes, never touched) and tries
//! again, which then succeeds. Long work started under a [`Watch`] asks it,
//! between small steps (an input of a batch, a merge), whether the spare was
//! spent since it started ([`Watch::check`]), and if so gives up with
//! [`Error::Memory`]: what it built is then freed, and the error reaches
//! the caller. The spare is taken again when the next watched work starts.
//!
//! Larger allocations that fail are not retried: they are the reserved
//! sizes, whose failure is already an error, and the spare would only let
//! work whose output cannot fit go on.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};

use crate::error::{Error, Result};

/// The spare's size: room for the small allocations a step of work makes
/// between two checks, many times over.
pub const SPARE: usize = 64 << 20;

/// Allocations of at most this many bytes are retried once the spare is
/// freed.
pub const SMALL: usize = 4 << 20;

/// The spare (from the system allocator, so that it is address space the
/// kernel maps on touch, and it is never touched), or null.
static SPARE_AT: AtomicPtr<u8> = AtomicPtr::new(null_mut());

/// How many times the spare was spent.
static SPENT: AtomicU64 = AtomicU64::new(0);

/// The spare was spent and not taken again since.
static GONE: AtomicBool = AtomicBool::new(false);

fn spare_layout() -> Layout {
    Layout::from_size_align(SPARE, 4096).expect("a valid layout")
}

/// Takes the spare if it is not held (and memory allows it).
pub fn arm() {
    if !SPARE_AT.load(Ordering::Acquire).is_null() {
        return;
    }
    // SAFETY: a nonzero size and a valid alignment.
    let spare = unsafe { System.alloc(spare_layout()) };
    if spare.is_null() {
        return;
    }
    if SPARE_AT.compare_exchange(null_mut(), spare, Ordering::AcqRel, Ordering::Acquire).is_err() {
        // SAFETY: allocated above with this layout, and not shared.
        unsafe { System.dealloc(spare, spare_layout()) };
    }
    GONE.store(false, Ordering::Release);
}

/// Frees the spare, if held, and counts it as spent.
fn spend() {
    let spare = SPARE_AT.swap(null_mut(), Ordering::AcqRel);
    if !spare.is_null() {
        // SAFETY: `arm` allocated it with this layout; the swap made it ours alone.
        unsafe { System.dealloc(spare, spare_layout()) };
        GONE.store(true, Ordering::Release);
        SPENT.fetch_add(1, Ordering::AcqRel);
    }
}

/// A global allocator that frees the spare and tries again when a small
/// allocation fails (see the module's documentation).
pub struct Reserve<A>(pub A);

// SAFETY: every call is passed on to `A` unchanged; a failed small one is
// passed on again after the spare is freed.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Reserve<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { self.0.alloc(layout) };
        if p.is_null() && layout.size() <= SMALL {
            spend();
            // SAFETY: as above.
            return unsafe { self.0.alloc(layout) };
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { self.0.alloc_zeroed(layout) };
        if p.is_null() && layout.size() <= SMALL {
            spend();
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
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        if p.is_null() && new_size <= SMALL {
            spend();
            // SAFETY: as above (a failed realloc leaves `ptr` as it was).
            return unsafe { self.0.realloc(ptr, layout, new_size) };
        }
        p
    }
}

/// Long work's view of the spare: started before the work, checked between
/// its steps.
#[derive(Clone, Copy, Debug)]
pub struct Watch {
    spent: u64,
    /// The spare had been spent and could not be taken again at the start:
    /// memory had run out already (e.g. while the work's inputs were read).
    dry: bool,
}

impl Watch {
    /// Takes the spare if it is not held, and starts watching it. If it was
    /// spent and cannot be taken again, memory has run out: the watch starts
    /// so. (A spare that could never be taken, where address space is that
    /// short, leaves the work as it would be without one.)
    pub fn start() -> Self {
        arm();
        let spent = SPENT.load(Ordering::Acquire);
        Self { spent, dry: GONE.load(Ordering::Acquire) }
    }

    /// Whether memory ran out: the spare was spent since `start`, or could
    /// not be taken then.
    #[inline]
    pub fn ran_out(&self) -> bool {
        self.dry || SPENT.load(Ordering::Relaxed) != self.spent
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

    /// An allocator that fails every allocation of exactly 777 bytes until
    /// the spare is spent.
    struct FailsUntilSpent;

    // SAFETY: passes every call on to the system allocator, or fails it.
    unsafe impl GlobalAlloc for FailsUntilSpent {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            if layout.size() == 777 && !SPARE_AT.load(Ordering::Acquire).is_null() {
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

    struct FailsLarge;

    // SAFETY: passes every call on to the system allocator, or fails it.
    unsafe impl GlobalAlloc for FailsLarge {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            if layout.size() > SMALL {
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

    // One test: the spare and its count are global.
    #[test]
    fn a_failed_small_allocation_spends_the_spare_and_a_large_one_does_not() {
        let watch = Watch::start();
        assert!(!watch.ran_out());
        let large = Layout::from_size_align(SMALL + 1, 8).unwrap();
        // SAFETY: a valid layout of nonzero size.
        assert!(unsafe { Reserve(FailsLarge).alloc(large) }.is_null());
        assert!(!watch.ran_out(), "a large allocation that fails is not retried");

        let reserve = Reserve(FailsUntilSpent);
        let layout = Layout::from_size_align(777, 8).unwrap();
        // SAFETY: a valid layout of nonzero size.
        let p = unsafe { reserve.alloc(layout) };
        assert!(!p.is_null(), "retried once the spare is freed");
        // SAFETY: allocated just above with this layout.
        unsafe { reserve.dealloc(p, layout) };
        assert!(watch.ran_out());
        let err = watch.check(|| "training on 3 words".into()).unwrap_err();
        assert!(matches!(err, Error::Memory(m) if m.starts_with("training on 3 words needs more memory")));
        // The next work takes the spare again and starts afresh.
        let again = Watch::start();
        assert!(!again.ran_out());
        assert!(!SPARE_AT.load(Ordering::Acquire).is_null());
    }
}
