//! Room for training's tables, reserved once: a module of its own, below the
//! merge loop and the rankings that use it (`training/mod.rs` uses them).

/// Makes room for `total` items in `v` at once if the allocator grants it
/// (else `v` grows as it would). The tables of training grow to tens of
/// megabytes; growing by doubling copies a table whole at every step (one
/// step of 16 MB took ~10 ms on GCIDE), and its new pages are touched twice.
/// Room reserved up front is address space: its pages are only touched as
/// the table fills.
pub(crate) fn reserve_total<T>(v: &mut Vec<T>, total: usize) {
    let _ = v.try_reserve_exact(total.saturating_sub(v.len()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserves_room_for_the_total_not_for_more_items() {
        let mut v = vec![1u32, 2, 3];
        reserve_total(&mut v, 1000);
        assert!(v.capacity() >= 1000);
        assert_eq!(v, [1, 2, 3]);
        // A total already reached asks for nothing more.
        let mut full = Vec::<u8>::with_capacity(8);
        full.extend([0; 8]);
        reserve_total(&mut full, 4);
        assert_eq!(full.capacity(), 8);
    }

    #[test]
    fn a_total_the_allocator_refuses_leaves_the_vector_as_it_was() {
        let mut v = vec![7u64];
        reserve_total(&mut v, usize::MAX);
        assert_eq!(v, [7]);
    }
}
