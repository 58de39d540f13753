//! A hint to the CPU: start reading memory that will soon be needed, so
//! that misses on independent lookups overlap instead of stalling one after
//! another (the chunk cache's slots, the trainer's word records, the shared
//! ints of a list of ids).

/// Starts bringing the cache line at `p` into the nearest cache, without
/// waiting for it. A hint only: it reads and writes nothing the program can
/// see and never faults, whatever the address (a dangling or null pointer
/// is harmless), so it is safe to call with any pointer. A no-op off
/// x86_64.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of x86_64; PREFETCHT0 does not access memory
        // in the architectural sense and cannot fault on any address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::prefetch;

    #[test]
    fn any_address_is_a_harmless_hint() {
        let x = [1u64; 8];
        prefetch(&x[3]);
        prefetch(std::ptr::null::<u8>());
        prefetch(usize::MAX as *const u8);
        assert_eq!(x, [1; 8]);
    }
}
