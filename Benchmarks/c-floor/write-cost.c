/*
 * write-cost: what a delivery's system calls cost on this machine, to tell which of them is worth
 * saving (issue 36). One process wakes 100 times a second on an absolute clock_nanosleep schedule, as
 * the agent's delivery thread and the batched C floor do, and at each wake-up sends four messages of
 * BYTES bytes over loopback TCP (TCP_NODELAY) to a child that reads everything, in one of five ways:
 *
 *   sleep   nothing: the wake-up alone
 *   write   four write() calls, one per message (libmosquitto's way: one write per packet)
 *   cork    TCP_CORK on, four write() calls, TCP_CORK off (one segment)
 *   writev  one writev() of the four messages (one system call, one segment)
 *   more    four send() calls, MSG_MORE on the first three
 *
 *   write-cost [--seconds S] [--bytes B] [--rounds R]      (defaults: 5, 150, 3)
 *
 * Prints, per way and round, the sending process's CPU (CLOCK_PROCESS_CPUTIME_ID: user + system time,
 * to the nanosecond) in % of one core and in µs per wake-up. The ways run interleaved, round after
 * round, so that a change in the machine's load shows as spread rather than as a difference.
 *
 * Build: gcc -O2 -Wall -Wextra -o write-cost write-cost.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum way { SLEEP, WRITE, CORK, WRITEV, MORE, WAYS };
static const char *names[WAYS] = {"sleep", "write", "cork", "writev", "more"};

static double seconds_of(const struct timespec *t) { return (double)t->tv_sec + (double)t->tv_nsec / 1e9; }

static void fail(const char *what) {
    perror(what);
    exit(1);
}

/* A connected loopback TCP pair: the sending end is returned, the child reads the other until EOF. */
static int connect_reader(pid_t *reader) {
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 1)
        || getsockname(listener, (struct sockaddr *)&address, &length))
        fail("listen");
    *reader = fork();
    if (*reader < 0) fail("fork");
    if (*reader == 0) {
        int connection = accept(listener, NULL, NULL);
        char buffer[65536];
        while (read(connection, buffer, sizeof buffer) > 0) {}
        _exit(0);
    }
    close(listener);
    int sender = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    if (sender < 0 || connect(sender, (struct sockaddr *)&address, sizeof address)
        || setsockopt(sender, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one))
        fail("connect");
    return sender;
}

/* Runs one way for `seconds`; returns the process's CPU time spent, s. */
static double run(enum way way, int sender, int seconds, char messages[4][4096], size_t bytes) {
    struct timespec next, before, after;
    clock_gettime(CLOCK_MONOTONIC, &next);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &before);
    int on = 1, off = 0;
    for (int wake = 0; wake < seconds * 100; wake++) {
        next.tv_nsec += 10000000L;
        if (next.tv_nsec >= 1000000000L) { next.tv_sec++; next.tv_nsec -= 1000000000L; }
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL)) {}
        switch (way) {
        case SLEEP: break;
        case WRITE:
            for (int i = 0; i < 4; i++) if (write(sender, messages[i], bytes) < 0) fail("write");
            break;
        case CORK:
            setsockopt(sender, IPPROTO_TCP, TCP_CORK, &on, sizeof on);
            for (int i = 0; i < 4; i++) if (write(sender, messages[i], bytes) < 0) fail("write");
            setsockopt(sender, IPPROTO_TCP, TCP_CORK, &off, sizeof off);
            break;
        case WRITEV: {
            struct iovec parts[4];
            for (int i = 0; i < 4; i++) parts[i] = (struct iovec){messages[i], bytes};
            if (writev(sender, parts, 4) < 0) fail("writev");
            break;
        }
        case MORE:
            for (int i = 0; i < 4; i++) if (send(sender, messages[i], bytes, i < 3 ? MSG_MORE : 0) < 0) fail("send");
            break;
        case WAYS: break;
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &after);
    return seconds_of(&after) - seconds_of(&before);
}

int main(int argc, char **argv) {
    int seconds = 5, rounds = 3;
    long bytes = 150;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: write-cost [--seconds S] [--bytes B] [--rounds R]   (defaults: 5, 150, 3)\n");
            return 0;
        }
        if (i + 1 >= argc) { fprintf(stderr, "write-cost: %s needs a value\n", argv[i]); return 64; }
        if (!strcmp(argv[i], "--seconds")) seconds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--bytes")) bytes = atol(argv[++i]);
        else if (!strcmp(argv[i], "--rounds")) rounds = atoi(argv[++i]);
        else { fprintf(stderr, "write-cost: unknown option %s\n", argv[i]); return 64; }
    }
    if (seconds < 1 || rounds < 1 || bytes < 1 || bytes > 4096) { fprintf(stderr, "write-cost: bad value\n"); return 64; }
    static char messages[4][4096];
    for (int i = 0; i < 4; i++) memset(messages[i], 'a' + i, sizeof messages[i]);
    pid_t reader;
    int sender = connect_reader(&reader);
    printf("100 wake-ups/s, 4 messages of %ld B per wake-up over loopback TCP, %d s per run\n", bytes, seconds);
    printf("%-8s %s\n", "way", "CPU % of one core (µs per wake-up), round by round");
    double totals[WAYS] = {0};
    char lines[WAYS][512] = {{0}};
    for (int round = 0; round < rounds; round++) {
        for (int way = 0; way < WAYS; way++) {
            double cpu = run((enum way)way, sender, seconds, messages, (size_t)bytes);
            totals[way] += cpu;
            size_t used = strlen(lines[way]);
            snprintf(lines[way] + used, sizeof lines[way] - used, "  %.3f%% (%.1f)", cpu / seconds * 100,
                     cpu / (seconds * 100.0) * 1e6);
        }
    }
    for (int way = 0; way < WAYS; way++)
        printf("%-8s%s   mean %.3f%%\n", names[way], lines[way], totals[way] / (seconds * rounds) * 100);
    close(sender);
    waitpid(reader, NULL, 0);
    return 0;
}
