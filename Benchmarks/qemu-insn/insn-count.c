/*
 * insn-count: a QEMU TCG plugin (plugin API version 1, as in QEMU 7.2, Debian 12's qemu-user) that
 * counts the guest instructions each translated block executes, for the emulated arm64 stage account
 * (Benchmarks/cost-account-arm64.sh).
 *
 *   qemu-aarch64 -plugin ./libinsn-count.so,out=FILE[,from=S,to=S] [-L SYSROOT] PROGRAM ARGS...
 *
 * At the guest's exit it writes FILE: one line `block VADDR INSTRUCTIONS EXECUTIONS` per translated
 * block that ran (a block translated again, after its page changed or the cache was flushed, has a line
 * per translation), then the emulator's /proc/self/maps (lines `map ...`): on a 64-bit host qemu-user
 * places the guest at the same addresses (no guest base), so the maps say which file each block lies in.
 * With from= and to= (seconds after the plugin was loaded) only the executions between those two
 * moments are written (a window of steady running, without start-up and shutdown); the window
 * is written at the guest's exit, which must come after `to`.
 *
 * Counting is an inline add per block execution: cheap, but not atomic, so two guest threads running
 * the same block at the same instant can lose a count (the agent does its work on one thread).
 * Instructions of the host kernel (system calls) are not guest instructions and are not counted.
 *
 * Build: gcc -O2 -Wall -Wextra -shared -fPIC -o libinsn-count.so insn-count.c
 */
#include <inttypes.h>
#include <stddef.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The part of <qemu/qemu-plugin.h> (API version 1) this plugin uses; Debian ships no header for it. */
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr,
                                              uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

struct block {
    uint64_t vaddr;
    uint64_t instructions;
    uint64_t executions; /* added to inline by the translated code */
    uint64_t at_from;    /* executions when the window opened */
    uint64_t at_to;      /* executions when it closed */
};

/* Blocks live in chunks that never move: the translated code holds a pointer to its counter. */
#define CHUNK 65536
struct chunk {
    struct chunk *next;
    size_t used;
    struct block blocks[CHUNK];
};

static struct chunk *chunks;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *out_path;
static double window_from = -1, window_to = -1;
static int window_closed;

/* Copies every block's count into the field at `offset` (at_from or at_to). */
static void snapshot(size_t offset) {
    pthread_mutex_lock(&lock);
    for (struct chunk *chunk = chunks; chunk; chunk = chunk->next)
        for (size_t i = 0; i < chunk->used; i++)
            *(uint64_t *)((char *)&chunk->blocks[i] + offset) = __atomic_load_n(&chunk->blocks[i].executions, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&lock);
}

static void sleep_seconds(double seconds) {
    struct timespec pause = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&pause, &pause)) {}
}

/* Opens the window at `from` and closes it at `to` (blocks translated inside it start from 0). */
static void *window_thread(void *unused) {
    (void)unused;
    sleep_seconds(window_from);
    snapshot(offsetof(struct block, at_from));
    sleep_seconds(window_to - window_from);
    snapshot(offsetof(struct block, at_to));
    __atomic_store_n(&window_closed, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void on_translation(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    pthread_mutex_lock(&lock);
    if (!chunks || chunks->used == CHUNK) {
        struct chunk *fresh = calloc(1, sizeof *fresh);
        if (!fresh) {
            pthread_mutex_unlock(&lock);
            return;
        }
        fresh->next = chunks;
        chunks = fresh;
    }
    struct block *block = &chunks->blocks[chunks->used++];
    block->vaddr = qemu_plugin_tb_vaddr(tb);
    block->instructions = qemu_plugin_tb_n_insns(tb);
    pthread_mutex_unlock(&lock);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &block->executions, 1);
}

static void on_exit_(qemu_plugin_id_t id, void *userdata) {
    (void)id;
    (void)userdata;
    FILE *out = fopen(out_path, "w");
    if (!out) {
        perror("insn-count: cannot write the counts");
        return;
    }
    int windowed = window_from >= 0;
    if (windowed && !__atomic_load_n(&window_closed, __ATOMIC_ACQUIRE))
        fprintf(stderr, "insn-count: the guest exited before the window closed: counting the whole run\n");
    windowed = windowed && __atomic_load_n(&window_closed, __ATOMIC_ACQUIRE);
    pthread_mutex_lock(&lock);
    for (struct chunk *chunk = chunks; chunk; chunk = chunk->next)
        for (size_t i = 0; i < chunk->used; i++) {
            const struct block *block = &chunk->blocks[i];
            uint64_t executions = windowed ? block->at_to - block->at_from : block->executions;
            if (executions)
                fprintf(out, "block %" PRIx64 " %" PRIu64 " %" PRIu64 "\n", block->vaddr, block->instructions,
                        executions);
        }
    pthread_mutex_unlock(&lock);
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[4096];
    while (maps && fgets(line, sizeof line, maps)) fprintf(out, "map %s", line);
    if (maps) fclose(maps);
    fclose(out);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                                               int argc, char **argv) {
    (void)info;
    for (int i = 0; i < argc; i++)
        if (!strncmp(argv[i], "out=", 4)) out_path = strdup(argv[i] + 4);
        else if (!strncmp(argv[i], "from=", 5)) window_from = atof(argv[i] + 5);
        else if (!strncmp(argv[i], "to=", 3)) window_to = atof(argv[i] + 3);
    if (!out_path) {
        fprintf(stderr, "insn-count: give the output file: -plugin libinsn-count.so,out=FILE\n");
        return -1;
    }
    if ((window_from >= 0) != (window_to >= 0) || (window_from >= 0 && window_to <= window_from)) {
        fprintf(stderr, "insn-count: from= and to= go together, from < to\n");
        return -1;
    }
    if (window_from >= 0) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, window_thread, NULL)) return -1;
        pthread_detach(thread);
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translation);
    qemu_plugin_register_atexit_cb(id, on_exit_, NULL);
    return 0;
}
