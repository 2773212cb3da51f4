// The C allocator's public entry points, counted and handed to glibc's own (__libc_malloc and friends,
// which glibc exports for exactly this). An executable's definitions take precedence over libc's for
// every library in the process, so this counts the Swift runtime's allocations as well as the program's.
// Frees are not counted: the figure is allocations, each of which costs its free later.
#define _GNU_SOURCE
#include "CAllocationCounter.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void __libc_free(void *pointer);

static unsigned long long allocations;

static inline void count(void) { __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED); }

unsigned long long allocation_count(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }

void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count();
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    void *result = __libc_realloc(pointer, size);
    // A new block; a resize in place allocates nothing, and a failure (or a free by size 0) returns NULL.
    if (result && result != pointer) count();
    return result;
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
    count();
    return __libc_valloc(size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // POSIX: a power of two and a multiple of sizeof(void *).
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}
