//! Process-wide things every layer may use: the Ctrl-C flag and which signal set it, bytes in
//! words, the machine's memory and address-space limits, and glibc's allocator knobs and
//! resident-memory figure.
//!
//! The ground floor: it imports nothing of the crate, so `script/`, `search/` and the
//! commands can all use it without an arrow running back up the layers (`src/lib.rs`).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::Instant;

/// Set by Ctrl-C, SIGTERM or SIGHUP: every running search stops at its next budget check.
pub static CANCELLED: AtomicBool = AtomicBool::new(false);

/// The signal that set [`CANCELLED`], 0 while none has.
static STOPPED_BY: AtomicI32 = AtomicI32::new(0);

/// Has Ctrl-C (SIGINT), SIGTERM (`timeout`, a CI system cancelling a job) and SIGHUP (a
/// closed terminal) set [`CANCELLED`] instead of ending the process, so that what finished
/// is still reported; [`stopped_by`] names the one that came.
pub fn stop_on_signals() {
    handle_signals(false);
}

/// While set (see [`stop_searches_only`]), a signal that comes between searches ends the
/// process at once, as if unhandled.
static END_WHEN_IDLE: AtomicBool = AtomicBool::new(false);

/// Whether a search is running, for [`END_WHEN_IDLE`].
static SEARCHING: AtomicBool = AtomicBool::new(false);

/// Has Ctrl-C stop a search (see [`searching`]) and leave the process going, and end it,
/// exit 130, between searches; SIGTERM and SIGHUP end it at once, exit 130 too (`timeout` and
/// a closed terminal mean the session, not the hint): piped `play`, whose player stops a long
/// hint and plays on, and whose waiting for a line a signal must still end.
pub fn stop_searches_only() {
    END_WHEN_IDLE.store(true, Ordering::SeqCst);
    handle_signals(true);
}

/// Registers the action of [`stop_on_signals`], or with `end_when_idle` of
/// [`stop_searches_only`], for SIGINT, SIGTERM and SIGHUP.
fn handle_signals(end_when_idle: bool) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        // SAFETY: the action only touches atomics and calls `_exit`, both async-signal-safe.
        let _ = unsafe {
            signal_hook::low_level::register(signal, move || {
                if end_when_idle && (signal != SIGINT || !SEARCHING.load(Ordering::SeqCst)) {
                    // 130 whichever signal it was, as every other command exits on each.
                    libc::_exit(130);
                }
                STOPPED_BY.store(signal, Ordering::SeqCst);
                CANCELLED.store(true, Ordering::SeqCst);
            })
        };
    }
}

/// Marks a search as running (`true`) or over (`false`) for [`stop_searches_only`]; over, it
/// says whether a signal stopped it, and clears that for the next one.
pub fn searching(on: bool) -> bool {
    SEARCHING.store(on, Ordering::SeqCst);
    !on && END_WHEN_IDLE.load(Ordering::SeqCst) && CANCELLED.swap(false, Ordering::SeqCst)
}

/// What stopped the run, as messages name it: `Ctrl-C`, `SIGTERM` or `SIGHUP` (`Ctrl-C`
/// when no signal did: `play` stops its own search by a key).
pub fn stopped_by() -> &'static str {
    use signal_hook::consts::{SIGHUP, SIGTERM};
    match STOPPED_BY.load(Ordering::SeqCst) {
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "Ctrl-C",
    }
}

/// `1536` → `1.5 KiB`.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// The bytes an allocation of `bytes` makes resident: glibc maps one of 128 KiB or more
/// ([`map_large_tables`]) on its own, with a 16-byte header, in whole 4 KiB pages, so a table
/// of a power of two bytes takes a page more than its slots; smaller ones carry the header.
/// Over a layer's partitions (up to 4,096) those pages were the 2.2 MiB by which the
/// layer-by-layer count passed its limit (`--positions-only` at 336MB: 2.1–3.3 MiB over).
pub fn allocated(bytes: u64) -> u64 {
    match bytes {
        0 => 0,
        b if b >= 128 << 10 => (b + 16).next_multiple_of(4096),
        b => b + 16,
    }
}

/// The bytes a growing list holds resident. One of 128 KiB and more is mapped on its own
/// ([`map_large_tables`]): the room it has grown into but not filled is not resident until
/// written (counting that room, English edge under 50MB gave up in the fewest-moves beam at
/// a 36 MiB peak). A smaller one comes from the heap, whose pages freed lists may have
/// touched: all of its room counts.
pub fn list_bytes<T>(list: &Vec<T>) -> u64 {
    let room = (list.capacity() * size_of::<T>()) as u64;
    match room >= 128 << 10 {
        true => allocated(size_of_val(list.as_slice()) as u64),
        false => allocated(room),
    }
}

/// [`list_bytes`] over `lists`.
pub fn lists_bytes<'a, T: 'a>(lists: impl IntoIterator<Item = &'a Vec<T>>) -> u64 {
    lists.into_iter().map(list_bytes).sum()
}

/// Has allocations of 128 KiB and more (search tables and their partitions) mapped on their own, so that each is
/// handed back to the system when freed. glibc otherwise raises that threshold after the
/// first such free, and a table doubling through the heap leaves each smaller copy resident
/// behind it: a tenth more than `--max-memory` on a depth-first search at 50MB.
pub fn map_large_tables() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning parameter of the allocator.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
    }
}

/// Has glibc keep 64 MiB of freed heap above each arena's top instead of handing it back at
/// once (the default keeps 128 KiB). A count frees a layer's partitions and grows the next
/// one's tables and successor streams straight after, many vectors per thread; without the
/// slack the heap shrinks and faults the same pages back in (English `count --all`: system
/// time ~1.4–2.4 s without, ~0.8–1.4 s with, 3 interleaved runs). Costs at most 64 MiB per
/// arena of resident memory; large tables are still mapped on their own (see
/// [`map_large_tables`]).
pub fn keep_heap_slack() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning parameter of the allocator.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}

/// Asks for huge pages (2 MiB) under `table`, where the system hands them out on request
/// (`transparent_hugepage` set to `madvise`): a table read at random positions spends most
/// of a lookup on the page walk when its pages are 4 KiB ([`crate::search::dense`]'s 32 MiB).
/// Whether the system grants them changes no value, only speed.
pub fn advise_huge_pages<T>(table: &[T]) {
    #[cfg(target_os = "linux")]
    {
        let page = 4096;
        let start = (table.as_ptr() as usize).next_multiple_of(page);
        let end = (table.as_ptr() as usize + std::mem::size_of_val(table)) / page * page;
        if end > start {
            // SAFETY: madvise with MADV_HUGEPAGE changes no contents, only how the pages of
            // the range (page-aligned, inside `table`'s allocation) are backed.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
}

/// Hands memory freed by a finished phase back to the system. glibc keeps freed heap pages
/// resident, so a search's later, larger tables (the next turn's, the next peg count's)
/// would otherwise be resident on top of the last ones' in the process's peak.
pub fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// [`resident_bytes`] as read at most a millisecond ago: searches ask at every budget check
/// and every table growth, and reading `/proc` each time cost the fewest-moves search 51,000
/// reads (~1 s of 8) on the English board. In a millisecond the process grows by a few MB at
/// most, within the limit's allowance.
pub fn resident_recent() -> u64 {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    static READ_AT: AtomicU64 = AtomicU64::new(u64::MAX);
    static VALUE: AtomicU64 = AtomicU64::new(0);
    let now = EPOCH.get_or_init(Instant::now).elapsed().as_micros() as u64;
    let at = READ_AT.load(Ordering::Relaxed);
    if at != u64::MAX && now.saturating_sub(at) < 1000 {
        return VALUE.load(Ordering::Relaxed);
    }
    let bytes = resident_bytes();
    VALUE.store(bytes, Ordering::Relaxed);
    READ_AT.store(now, Ordering::Relaxed);
    bytes
}

/// The resident memory of this process, from `/proc/self/statm` (0 where it cannot be read).
pub fn resident_bytes() -> u64 {
    let pages = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .unwrap_or(0);
    // SAFETY: sysconf reads a constant of the system.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    pages * page.max(0) as u64
}

/// The default memory limit per puzzle, split between jobs: a quarter of the machine's
/// memory, or half of a tighter cgroup limit or `RLIMIT_AS`/`RLIMIT_DATA` cap (the process
/// needs room beyond its tables: code, stacks, the allocator's slack).
pub fn default_memory_limit(jobs: usize) -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 = meminfo
        .lines()
        .find(|l| l.starts_with("MemTotal:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    let cgroup = [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .filter_map(|f| std::fs::read_to_string(f).ok()?.trim().parse::<u64>().ok())
    .min();
    let rlimit = [soft_rlimit(libc::RLIMIT_AS), soft_rlimit(libc::RLIMIT_DATA)]
        .into_iter()
        .flatten()
        .min();
    let tightest = [Some(kb * 1024 / 4), cgroup.map(|c| c / 2), rlimit.map(|r| r / 2)]
        .into_iter()
        .flatten()
        .min()?;
    Some(tightest / jobs.max(1) as u64)
}

/// Under an address-space cap, keeps glibc from reserving a 64 MiB arena per thread (rayon
/// workers, the Ctrl-C watcher): reservations count against `RLIMIT_AS` though they hold
/// nothing, and three of them left a 300 MiB cap too little room for the default limit's
/// tables. Without a cap nothing changes.
pub fn fit_allocator_to_rlimit() {
    if soft_rlimit(libc::RLIMIT_AS).is_some() {
        // SAFETY: mallopt only sets an allocator parameter; called before any thread starts.
        unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
    }
}

/// Whether this process's address space is capped (`RLIMIT_AS`): then every thread's stack
/// reservation counts against it, touched or not.
pub fn address_space_capped() -> bool {
    soft_rlimit(libc::RLIMIT_AS).is_some()
}

/// A soft resource limit of this process, or `None` when unlimited.
fn soft_rlimit(resource: libc::__rlimit_resource_t) -> Option<u64> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one struct we own.
    let ok = unsafe { libc::getrlimit(resource, &mut r) } == 0;
    (ok && r.rlim_cur != libc::RLIM_INFINITY).then_some(r.rlim_cur)
}
