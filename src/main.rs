// Reading a plan allocates many small strings and maps; mimalloc makes the
// whole fold-and-check path markedly faster than the system allocator (see
// docs/performance.md).
#[global_allocator]
static GLOBAL: Mi = Mi;

/// mimalloc, asked for plain blocks when the alignment wanted is at most a
/// word's (strings, vectors, boxes: nearly every allocation here). The
/// `mimalloc` crate's allocator asks for every block through the aligned
/// entry point, which costs about twice the plain one per call (restoring a
/// 100,000-node plan makes about 5 million blocks); every mimalloc block is
/// word-aligned, so the plain one serves such layouts as they are. Larger
/// alignments (hash tables' 16) take the aligned entry point as before.
struct Mi;

/// A block mimalloc could not give (null): the process says so and ends
/// with exit code 3 (`model::oom`), instead of the runtime's abort.
#[inline]
fn given(ptr: *mut u8, size: usize) -> *mut u8 {
    if ptr.is_null() && size != 0 {
        planforge::model::oom::out_of_memory(size);
    }
    ptr
}

/// The alignment every mimalloc block has (a word).
const WORD: usize = std::mem::size_of::<usize>();

// SAFETY: each entry point hands the layout to mimalloc's function for it:
// the plain ones only when the layout's alignment is at most a word, which
// every mimalloc block meets; blocks are freed by `mi_free` whichever way
// they were made (as `mimalloc::MiMalloc` does).
unsafe impl std::alloc::GlobalAlloc for Mi {
    #[inline]
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: see the impl.
        let ptr = unsafe {
            if layout.align() <= WORD {
                libmimalloc_sys::mi_malloc(layout.size()).cast()
            } else {
                libmimalloc_sys::mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        };
        given(ptr, layout.size())
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: see the impl.
        let ptr = unsafe {
            if layout.align() <= WORD {
                libmimalloc_sys::mi_zalloc(layout.size()).cast()
            } else {
                libmimalloc_sys::mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        };
        given(ptr, layout.size())
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: std::alloc::Layout) {
        // SAFETY: see the impl.
        unsafe { libmimalloc_sys::mi_free(ptr.cast()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        // SAFETY: see the impl.
        let ptr = unsafe {
            if layout.align() <= WORD {
                libmimalloc_sys::mi_realloc(ptr.cast(), new_size).cast()
            } else {
                libmimalloc_sys::mi_realloc_aligned(ptr.cast(), new_size, layout.align()).cast()
            }
        };
        given(ptr, new_size)
    }
}

fn main() -> std::process::ExitCode {
    planforge::model::pages::no_huge_pages();
    planforge::cli::main()
}
