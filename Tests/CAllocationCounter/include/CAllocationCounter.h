#ifndef C_ALLOCATION_COUNTER_H
#define C_ALLOCATION_COUNTER_H

/// How many blocks the process has allocated (malloc, calloc, realloc of NULL or to a new block,
/// posix_memalign, aligned_alloc, memalign, valloc) since it started, by every thread and library that
/// calls the C allocator through its public names (the Swift runtime, libmosquitto, libc's callers;
/// glibc's internal calls inside itself are not seen). Linked only into the allocation probe
/// (Tests/AllocationProbe), whose definitions of those functions replace glibc's in the whole process.
unsigned long long allocation_count(void);

#endif
