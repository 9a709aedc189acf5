//! How the process asks for memory (issue 17, session 28): ordinary pages
//! rather than transparent huge pages, and a large vector's pages in one go.

/// Asks the kernel for ordinary pages only. mimalloc asks for transparent
/// huge pages (2 MiB) for its arena, and each is zeroed whole when first
/// touched: on a virtual machine whose host takes back the guest's free
/// memory (free page reporting, as this project's machines do), a command
/// run after a pause then waits for the host to supply every huge page
/// afresh — at 100,000 nodes a one-shot `add-node` took 90–370 ms instead
/// of 30, `validate FILE` 2.0 s instead of 0.85 (docs/performance.md,
/// session 28). Ordinary pages cost more faults when the memory is warm
/// (see [`populate`]) and nothing after a pause; long-lived sessions
/// measured the same either way. A kernel without the setting changes
/// nothing. Called first thing in `main`; the programs the process starts
/// get the usual setting back ([`as_before`]).
#[cfg(target_os = "linux")]
pub fn no_huge_pages() {
    // SAFETY: PR_SET_THP_DISABLE takes integer arguments and reads or
    // writes no memory of this process; a failure leaves things as they were.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(not(target_os = "linux"))]
pub fn no_huge_pages() {}

/// A program `c` starts (a pager, an editor) runs with the kernel's usual
/// huge-page setting, not the one [`no_huge_pages`] took for this process
/// (the kernel would pass it on through fork and exec).
#[cfg(target_os = "linux")]
pub fn as_before(c: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the hook runs in the child between fork and exec and makes
    // one system call (async-signal-safe), touching no memory; a failure
    // leaves the child as it was.
    unsafe {
        c.pre_exec(|| {
            libc::prctl(libc::PR_SET_THP_DISABLE, 0, 0, 0, 0);
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
pub fn as_before(_c: &mut std::process::Command) {}

/// Below this, a vector's pages are left to fault in one by one.
const AT_LEAST: usize = 1 << 20;

/// Has the kernel supply the pages of `v`'s unused capacity now, in one
/// call, instead of one page fault each as they are first written: a
/// one-shot write at 100,000 nodes builds tens of MB of vectors, about
/// 17,000 faults. Nothing below [`AT_LEAST`] bytes, off Linux, or when the
/// kernel cannot (it then faults them in as before).
pub fn populate<T>(v: &mut Vec<T>) {
    Room::of(v.spare_capacity_mut()).populate();
}

/// Where slots of a vector's unused capacity lie, for one thread to have
/// their pages supplied while the slots are handed out in parts to two
/// (a restore's, see `store::snapshot::view`).
#[derive(Clone, Copy)]
pub struct Room {
    start: usize,
    len: usize,
}

impl Room {
    pub fn of<T>(slots: &[std::mem::MaybeUninit<T>]) -> Room {
        Room {
            start: slots.as_ptr() as usize,
            len: std::mem::size_of_val(slots),
        }
    }

    /// As [`populate`]; the vector must outlive the call.
    pub fn populate(self) {
        if self.len >= AT_LEAST {
            populate_range(self.start as *mut u8, self.len);
        }
    }
}

#[cfg(target_os = "linux")]
fn populate_range(start: *mut u8, len: usize) {
    // SAFETY: sysconf reads a value the C library holds.
    let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
        p if p > 0 => p as usize,
        _ => return,
    };
    let first = (start as usize).div_ceil(page) * page;
    let end = (start as usize + len) / page * page;
    if end <= first {
        return;
    }
    // SAFETY: [first, end) lies inside the vector's allocation (whole pages
    // of its unused capacity), which this process owns and may write;
    // MADV_POPULATE_WRITE only faults those pages in (writable, zeroed or
    // as they were), changing no byte of them, and fails harmlessly.
    unsafe {
        libc::madvise(
            first as *mut libc::c_void,
            end - first,
            libc::MADV_POPULATE_WRITE,
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn populate_range(_start: *mut u8, _len: usize) {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::populate;

    /// Page faults taken so far by this thread.
    fn faults() -> i64 {
        // SAFETY: getrusage writes the struct it is given, zeroed first.
        unsafe {
            let mut u: libc::rusage = std::mem::zeroed();
            libc::getrusage(libc::RUSAGE_THREAD, &mut u);
            u.ru_minflt
        }
    }

    /// Writing `n` bytes into a vector made with room for them: the faults
    /// it took.
    fn faults_to_fill(n: usize, first: bool) -> i64 {
        let mut v: Vec<u8> = Vec::with_capacity(n);
        if first {
            populate(&mut v);
        }
        let before = faults();
        v.resize(n, 1);
        let taken = faults() - before;
        assert!(v.iter().all(|&b| b == 1));
        taken
    }

    #[test]
    fn a_large_vector_is_written_without_a_fault_per_page() {
        // Ordinary pages, as the binary asks for (src/main.rs): with huge
        // pages an 8 MiB vector takes a few faults either way.
        super::no_huge_pages();
        let n = 8 << 20;
        let populated = faults_to_fill(n, true);
        assert!(populated < 64, "{populated} faults after populate");
        // The near miss: the same vector written page by page.
        let plain = faults_to_fill(n, false);
        assert!(plain >= 1024, "{plain} faults without it");
    }

    #[test]
    fn a_small_vector_and_its_items_are_left_as_they_are() {
        let mut v: Vec<u64> = (0..10).collect();
        v.reserve(100);
        populate(&mut v);
        assert_eq!(v, (0..10).collect::<Vec<u64>>());
        let mut big: Vec<u64> = (0..10).collect();
        big.reserve(1 << 20);
        populate(&mut big);
        assert_eq!(big, (0..10).collect::<Vec<u64>>());
        big.extend(10..1000);
        assert_eq!(big.len(), 1000);
        assert_eq!(big[999], 999);
    }
}
