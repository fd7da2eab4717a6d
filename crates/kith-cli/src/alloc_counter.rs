//! The process allocator: mimalloc, plus an optional live-bytes counter so
//! `kith stats --memory` reports what loading a graph really costs rather than an
//! estimate.
//!
//! Why mimalloc: the write path allocates a request's values on an I/O thread and
//! frees them on the writer thread; with the system allocator those cross-thread
//! frees (and a shared counter updated on every call) were over half of the CPU time
//! of `kith bench writes` (docs/benchmarks.md).
//!
//! Why a server turns transparent huge pages off ([`disable_transparent_huge_pages`]):
//! mimalloc advises its arenas `MADV_HUGEPAGE`, and the kernel's khugepaged, scanning
//! slowly in the background, collapses any 2 MiB stretch of them that holds a single
//! touched page into a whole huge page (its default `max_ptes_none` is 511). In the
//! soak the primary's resident memory rose 18 MiB at minute 11-12 of every run, at
//! every request rate, with no allocation behind it: 88 of its 110 MiB of heap were
//! huge pages (docs/reliability.md). Memory that grows with the clock is what a
//! server must not do; most databases recommend THP off for the same reason.
//!
//! Why counting is off by default: one shared atomic updated by every allocation on
//! every thread makes the cores fight over its cache line. Commands that report heap
//! bytes switch it on with [`start_counting`] before they allocate what they measure.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use mimalloc::MiMalloc;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);
static ALLOCATED_BYTES: AtomicUsize = AtomicUsize::new(0);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

/// mimalloc plus a live-bytes counter that costs one relaxed load while it is off.
pub struct CountingAllocator;

/// Starts counting: allocations from now on are added, their frees subtracted.
/// (Frees of memory allocated before are subtracted too, so call it early.)
pub fn start_counting() {
    COUNTING.store(true, Ordering::Relaxed);
}

/// Heap bytes allocated and not yet freed since [`start_counting`].
pub fn live_bytes() -> usize {
    LIVE_BYTES.load(Ordering::Relaxed)
}

/// Bytes allocated and allocations made since [`start_counting`], frees ignored (a
/// reallocation counts as one allocation of its new size): what a piece of work
/// costs the allocator, read before and after it.
pub fn allocated() -> (u64, u64) {
    (
        ALLOCATED_BYTES.load(Ordering::Relaxed) as u64,
        ALLOCATIONS.load(Ordering::Relaxed) as u64,
    )
}

fn counting() -> bool {
    COUNTING.load(Ordering::Relaxed)
}

fn count_allocation(size: usize) {
    LIVE_BYTES.fetch_add(size, Ordering::Relaxed);
    ALLOCATED_BYTES.fetch_add(size, Ordering::Relaxed);
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
}

// Safety: every method forwards to `MiMalloc` with the caller's arguments unchanged
// and only adds bookkeeping, so its guarantees carry over.
#[expect(unsafe_code, reason = "a GlobalAlloc impl is unsafe by definition")]
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // Safety: forwarded unchanged; the caller upholds `alloc`'s contract.
        let ptr = unsafe { MiMalloc.alloc(layout) };
        if !ptr.is_null() && counting() {
            count_allocation(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // Safety: forwarded unchanged; `ptr` came from this allocator with `layout`.
        unsafe { MiMalloc.dealloc(ptr, layout) };
        if counting() {
            // Saturating: memory allocated before counting started may be freed.
            let _ = LIVE_BYTES.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |v| {
                Some(v.saturating_sub(layout.size()))
            });
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // Safety: forwarded unchanged.
        let ptr = unsafe { MiMalloc.alloc_zeroed(layout) };
        if !ptr.is_null() && counting() {
            count_allocation(layout.size());
        }
        ptr
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Safety: forwarded unchanged; `ptr` came from this allocator with `layout`.
        let new = unsafe { MiMalloc.realloc(ptr, layout, new_size) };
        if !new.is_null() && counting() {
            let _ = LIVE_BYTES.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |v| {
                Some(v.saturating_sub(layout.size()))
            });
            count_allocation(new_size);
        }
        new
    }
}

/// Turns transparent huge pages off for this process (`PR_SET_THP_DISABLE`, which
/// its children inherit): no page fault allocates one and khugepaged collapses none,
/// madvised or not (see the module's note).
pub fn disable_transparent_huge_pages() -> std::io::Result<()> {
    // Safety: PR_SET_THP_DISABLE takes an integer flag and no pointer; the unused
    // arguments must be zero.
    #[expect(unsafe_code, reason = "prctl has no safe wrapper in libc")]
    let done = unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Whether transparent huge pages are off for this process.
#[cfg(test)]
fn transparent_huge_pages_disabled() -> bool {
    // Safety: PR_GET_THP_DISABLE takes no argument and returns the flag.
    #[expect(unsafe_code, reason = "prctl has no safe wrapper in libc")]
    let flag = unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) };
    flag == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transparent_huge_pages_can_be_turned_off() {
        disable_transparent_huge_pages().expect("prctl");
        assert!(transparent_huge_pages_disabled());
    }
}
