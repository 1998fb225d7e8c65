#if canImport(Glibc)
import CMalloc
#endif

/// Keeps freed heap blocks in the process instead of handing them back to the kernel.
///
/// The training front end allocates and frees megabytes per batch of windows (every layer's
/// output), from worker threads. glibc's defaults serve blocks that large with mmap, or trim them
/// off the heap once freed, so each batch faulted its pages back in and zeroed them: a third of
/// the front end's time (perf: page faults and madvise; 33 s → 21 s for one small member).
/// Process-wide and lasting (the trainer's peak memory stays with the process until it exits);
/// called by the trainer only, never by the daemon's runtime.
enum FreedMemoryReuse {
    static func enable() {
        #if canImport(Glibc)
        _ = mallopt(M_MMAP_THRESHOLD, 64 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 512 << 20)
        #endif
    }
}
