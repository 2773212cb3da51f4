/*
 * capacity-sink: the measuring subscriber of the capacity benchmark (Benchmarks/capacity/run.sh).
 *
 *   capacity-sink --port P [--host H] --prefix PFX --devices N --rate HZ [--seconds W] [--warmup S]
 *                 [--start-timeout S] [--pids FILE] [--protocol mqtt5|mqtt311]
 *       Subscribes PFX/+/device-motion (MQTT 5, or 3.1.1 for brokers without 5; QoS 0), waits until it has heard N devices (or
 *       --start-timeout seconds, 60 by default, have passed since it subscribed), lets --warmup seconds
 *       (3) pass, then measures for W seconds (12): per device the messages received and the messages lost
 *       (gaps in the payload's `seq`); a device heard of nowhere in the window counts HZ*W messages lost.
 *       Latency is CLOCK_REALTIME at receipt minus the payload's `ts` (Unix time of the sample). Then it
 *       prints one line on standard output and exits 0:
 *         devices=N seen=M received=R lost=L delivered=D% throughput=T% p50_ms=… p99_ms=… max_ms=…
 *         cpu_NAME=…% … cpu_sink=…% user_us_NAME=… … user_us_sink=… cpu_machine=…% cpu_steal=…%
 *         payload_bytes=B (the mean payload size received)
 *       delivered = R / (R + L); throughput = R / (N * HZ * W), which shows a publisher that falls behind
 *       without gaps; seen = devices heard in the window. cpu_* are per cent of one core over the window:
 *       for each `NAME PID` line of FILE (read when the window starts; /proc/PID/stat utime + stime), the
 *       sink itself, and the whole machine (/proc/stat, all cores: 200 % is a saturated 2-core machine;
 *       cpu_steal: the time the hypervisor gave the machine's virtual cores to others). user_us_* are each
 *       process's user time (utime) over the window per message received, µs: the publisher's own code per
 *       message beside the broker's (the kernel's half of loopback TCP is system time, left out).
 *       Prints `capacity-sink: subscribed` on standard error once the broker has granted the subscription.
 *
 * It speaks MQTT over its own socket instead of through libmosquitto: libmosquitto's client reads every
 * packet with one select and three read calls, which at 100 000 messages a second would make the
 * measuring instrument cost as much CPU as the broker it measures on a 2-core machine; this reads up to
 * 1 MB per call. Payloads are not parsed as JSON: `"seq":` and `"ts":` are found with strstr.
 *
 * Build: gcc -O2 -Wall -Wextra -o capacity-sink sink.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BUFFER_SIZE (1 << 20)
#define BUCKET_US 10   /* latency histogram resolution */
#define BUCKETS 500000 /* up to 5 s; later latencies land in the last bucket (the maximum is kept exactly) */
#define MAX_WATCHED 8

struct device {
    char *id;
    long last_seq;  /* the newest seq in the window, -1 before the device's first message in it */
    long received;  /* in the window */
    long lost;      /* gaps in seq in the window */
};

static struct device *devices;
static size_t table_size;
static long devices_heard; /* distinct devices heard since subscribing */
static long devices_in_window;

enum phase { WAITING, WARMING, MEASURING, DONE };
static enum phase phase = WAITING;

static long received, lost, reordered, malformed;
static long long received_bytes; /* payload bytes of the messages received in the window */
static long *histogram;
static double latency_max_ms = 0;

static const char *prefix;
static size_t prefix_length;

static double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static double wall_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void fail(const char *message) {
    fprintf(stderr, "capacity-sink: %s\n", message);
    exit(1);
}

/* The device named id[0..length), added when new. */
static struct device *device_named(const char *id, size_t length) {
    uint64_t hash = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < length; i++) hash = (hash ^ (unsigned char)id[i]) * 1099511628211ULL;
    for (size_t slot = hash & (table_size - 1);; slot = (slot + 1) & (table_size - 1)) {
        struct device *device = &devices[slot];
        if (!device->id) {
            if ((size_t)devices_heard * 2 >= table_size) fail("more devices than expected");
            device->id = strndup(id, length);
            device->last_seq = -1;
            devices_heard++;
            return device;
        }
        if (strncmp(device->id, id, length) == 0 && device->id[length] == '\0') return device;
    }
}

/* One device-motion message; payload is NUL-terminated. */
static void on_message(const char *topic, size_t topic_length, const char *payload, size_t payload_length) {
    if (topic_length <= prefix_length + 1) return;
    const char *id = topic + prefix_length + 1;
    const char *slash = memchr(id, '/', topic_length - prefix_length - 1);
    if (!slash) return;
    struct device *device = device_named(id, (size_t)(slash - id));
    if (phase != MEASURING) return;
    double now = wall_seconds();
    const char *seq_field = strstr(payload, "\"seq\":");
    const char *ts_field = strstr(payload, "\"ts\":");
    if (!seq_field || !ts_field) {
        malformed++;
        return;
    }
    long seq = strtol(seq_field + 6, NULL, 10);
    double latency_ms = (now - strtod(ts_field + 5, NULL)) * 1e3;
    received++;
    received_bytes += (long long)payload_length;
    device->received++;
    if (device->last_seq < 0) {
        devices_in_window++;
    } else if (seq > device->last_seq + 1) {
        device->lost += seq - device->last_seq - 1;
        lost += seq - device->last_seq - 1;
    } else if (seq <= device->last_seq) {
        reordered++; /* or the publisher restarted */
    }
    device->last_seq = seq;
    if (latency_ms > latency_max_ms) latency_max_ms = latency_ms;
    long bucket = latency_ms <= 0 ? 0 : (long)(latency_ms * 1000 / BUCKET_US);
    histogram[bucket < BUCKETS ? bucket : BUCKETS - 1]++;
}

static double percentile_ms(double fraction) {
    long total = 0, target;
    for (long i = 0; i < BUCKETS; i++) total += histogram[i];
    if (total == 0) return 0;
    target = (long)(fraction * (double)total);
    if (target < 1) target = 1;
    long cumulative = 0;
    for (long i = 0; i < BUCKETS; i++) {
        cumulative += histogram[i];
        if (cumulative >= target) return (i + 0.5) * BUCKET_US / 1000.0;
    }
    return latency_max_ms;
}

/* utime + stime of a process in clock ticks, -1 when it is gone; its utime alone in *user. */
static long process_ticks(const char *pid, long *user) {
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *file = fopen(path, "r");
    if (!file) return -1;
    size_t length = fread(line, 1, sizeof line - 1, file);
    fclose(file);
    line[length] = '\0';
    const char *end = strrchr(line, ')'); /* the command name may hold spaces */
    unsigned long utime, stime;
    if (!end || sscanf(end + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
        return -1;
    *user = (long)utime;
    return (long)(utime + stime);
}

/* The machine's clock ticks over all cores: busy (user, nice, system, irq, softirq), stolen by the
 * hypervisor, and all of them (with idle and iowait). */
static void machine_ticks(unsigned long long *busy, unsigned long long *steal, unsigned long long *total) {
    unsigned long long v[8] = {0};
    FILE *file = fopen("/proc/stat", "r");
    if (!file || fscanf(file, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
                        &v[5], &v[6], &v[7]) != 8)
        fail("cannot read /proc/stat");
    fclose(file);
    *busy = v[0] + v[1] + v[2] + v[5] + v[6];
    *steal = v[7];
    *total = *busy + v[3] + v[4] + v[7];
}

struct watched {
    char name[32];
    char pid[16];
    long start;
    long start_user;
};
static struct watched watched[MAX_WATCHED + 1]; /* the last one is the sink itself */
static int watched_count;
static unsigned long long machine_busy0, machine_steal0, machine_total0;

static void start_cpu(const char *pids_file) {
    watched_count = 0;
    if (pids_file) {
        FILE *file = fopen(pids_file, "r");
        if (file) {
            while (watched_count < MAX_WATCHED
                   && fscanf(file, "%31s %15s", watched[watched_count].name, watched[watched_count].pid) == 2)
                watched_count++;
            fclose(file);
        } else {
            fprintf(stderr, "capacity-sink: cannot read %s: %s\n", pids_file, strerror(errno));
        }
    }
    strcpy(watched[watched_count].name, "sink");
    strcpy(watched[watched_count].pid, "self");
    for (int i = 0; i <= watched_count; i++) watched[i].start = process_ticks(watched[i].pid, &watched[i].start_user);
    machine_ticks(&machine_busy0, &machine_steal0, &machine_total0);
}

/* Each watched process's CPU over the window (cpu_NAME, % of one core) and its user time per message
 * received (user_us_NAME, µs): what a publisher spends in its own code for each message, beside the
 * broker's. */
static void print_cpu(double seconds, long messages) {
    double ticks = (double)sysconf(_SC_CLK_TCK);
    long end_user[MAX_WATCHED + 1];
    for (int i = 0; i <= watched_count; i++) {
        long end = process_ticks(watched[i].pid, &end_user[i]);
        if (watched[i].start < 0 || end < 0) {
            printf(" cpu_%s=-", watched[i].name);
            end_user[i] = -1;
        } else {
            printf(" cpu_%s=%.1f%%", watched[i].name, 100.0 * (double)(end - watched[i].start) / ticks / seconds);
        }
    }
    for (int i = 0; i <= watched_count; i++) {
        if (end_user[i] < 0 || messages <= 0) printf(" user_us_%s=-", watched[i].name);
        else printf(" user_us_%s=%.1f", watched[i].name, 1e6 * (double)(end_user[i] - watched[i].start_user) / ticks / (double)messages);
    }
    unsigned long long busy, steal, total;
    machine_ticks(&busy, &steal, &total);
    double cores = (double)sysconf(_SC_NPROCESSORS_ONLN), span = total > machine_total0 ? (double)(total - machine_total0) : 1;
    printf(" cpu_machine=%.1f%% cpu_steal=%.1f%%", 100.0 * cores * (double)(busy - machine_busy0) / span,
           100.0 * cores * (double)(steal - machine_steal0) / span);
}

static void send_all(int fd, const unsigned char *bytes, size_t length) {
    while (length > 0) {
        ssize_t n = send(fd, bytes, length, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("send failed");
        bytes += n;
        length -= (size_t)n;
    }
}

/* MQTT's variable byte integer at p (at most available bytes): its length, 0 when incomplete. */
static size_t read_varint(const unsigned char *p, size_t available, size_t *value) {
    *value = 0;
    for (size_t i = 0; i < 4 && i < available; i++) {
        *value |= (size_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) return i + 1;
    }
    if (available >= 4) fail("malformed packet length");
    return 0;
}

static size_t write_varint(unsigned char *p, size_t value) {
    size_t i = 0;
    do {
        p[i] = value & 0x7f;
        value >>= 7;
        if (value) p[i] |= 0x80;
        i++;
    } while (value);
    return i;
}

static int connect_to(const char *host, const char *port) {
    struct addrinfo hints = {0}, *addresses;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &addresses) != 0) fail("cannot resolve the broker's host");
    int fd = -1;
    for (struct addrinfo *a = addresses; a; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0) continue;
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) break;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(addresses);
    if (fd < 0) fail("cannot connect to the broker");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* 5 (MQTT 5) or 4 (MQTT 3.1.1, whose packets have no property lists). */
static int protocol_level = 5;

static void send_connect_and_subscribe(int fd, const char *filter) {
    unsigned char packet[1024];
    char client_id[64];
    snprintf(client_id, sizeof client_id, "capacity-sink-%d", (int)getpid());
    size_t id_length = strlen(client_id), filter_length = strlen(filter);
    if (filter_length > 900) fail("prefix too long");
    /* CONNECT, clean start, keep-alive 60 s, no properties (MQTT 5: an empty property list). */
    unsigned char variable[] = {0, 4, 'M', 'Q', 'T', 'T', (unsigned char)protocol_level, 0x02, 0, 60, 0};
    size_t variable_length = protocol_level == 5 ? sizeof variable : sizeof variable - 1;
    size_t n = 0;
    packet[n++] = 0x10;
    n += write_varint(packet + n, variable_length + 2 + id_length);
    memcpy(packet + n, variable, variable_length);
    n += variable_length;
    packet[n++] = (unsigned char)(id_length >> 8);
    packet[n++] = (unsigned char)id_length;
    memcpy(packet + n, client_id, id_length);
    n += id_length;
    send_all(fd, packet, n);
    /* SUBSCRIBE, packet id 1, no properties, QoS 0. */
    n = 0;
    packet[n++] = 0x82;
    n += write_varint(packet + n, 2 + (protocol_level == 5 ? 1 : 0) + 2 + filter_length + 1);
    packet[n++] = 0;
    packet[n++] = 1;
    if (protocol_level == 5) packet[n++] = 0;
    packet[n++] = (unsigned char)(filter_length >> 8);
    packet[n++] = (unsigned char)filter_length;
    memcpy(packet + n, filter, filter_length);
    n += filter_length;
    packet[n++] = 0;
    send_all(fd, packet, n);
}

/* Handles one packet; body[length] may be overwritten (it is restored). */
static void handle_packet(unsigned char type_flags, unsigned char *body, size_t length) {
    switch (type_flags >> 4) {
    case 2: /* CONNACK */
        if (length < 2 || body[1] != 0) fail("the broker refused the connection");
        break;
    case 9: /* SUBACK: packet id, properties (MQTT 5), reason codes */
    {
        size_t properties = 0, skip = 0;
        if (protocol_level == 5) {
            skip = length >= 3 ? read_varint(body + 2, length - 2, &properties) : 0;
            if (!skip) fail("malformed SUBACK");
        }
        if (2 + skip + properties >= length || body[2 + skip + properties] != 0)
            fail("the broker refused the subscription");
        fprintf(stderr, "capacity-sink: subscribed\n");
        break;
    }
    case 3: /* PUBLISH */
    {
        int qos = (type_flags >> 1) & 3;
        if (length < 2) fail("malformed PUBLISH");
        size_t topic_length = ((size_t)body[0] << 8) | body[1];
        size_t offset = 2 + topic_length + (qos ? 2 : 0), properties = 0;
        if (offset > length || (protocol_level == 5 && offset >= length)) fail("malformed PUBLISH");
        if (protocol_level == 5) {
            size_t skip = read_varint(body + offset, length - offset, &properties);
            offset += skip + properties;
            if (!skip || offset > length) fail("malformed PUBLISH");
        }
        unsigned char saved = body[length];
        body[length] = '\0';
        on_message((const char *)body + 2, topic_length, (const char *)body + offset, length - offset);
        body[length] = saved;
        break;
    }
    case 13: /* PINGRESP */
        break;
    case 14: /* DISCONNECT */
        fail("the broker disconnected the sink");
        break;
    default:
        break;
    }
}

static void usage(void) {
    fprintf(stderr, "usage: capacity-sink --port P [--host H] --prefix PFX --devices N --rate HZ [--seconds W]\n"
                    "                     [--warmup S] [--start-timeout S] [--pids FILE] [--protocol mqtt5|mqtt311]\n");
    exit(64);
}

int main(int argc, char **argv) {
    const char *host = "127.0.0.1", *port = NULL, *pids_file = NULL;
    long expected_devices = 0;
    double rate = 0, window = 12, warmup = 3, start_timeout = 60;
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i];
        if (i + 1 >= argc) usage();
        const char *value = argv[++i];
        if (!strcmp(option, "--host")) host = value;
        else if (!strcmp(option, "--port")) port = value;
        else if (!strcmp(option, "--prefix")) prefix = value;
        else if (!strcmp(option, "--devices")) expected_devices = strtol(value, NULL, 10);
        else if (!strcmp(option, "--rate")) rate = strtod(value, NULL);
        else if (!strcmp(option, "--seconds")) window = strtod(value, NULL);
        else if (!strcmp(option, "--warmup")) warmup = strtod(value, NULL);
        else if (!strcmp(option, "--start-timeout")) start_timeout = strtod(value, NULL);
        else if (!strcmp(option, "--pids")) pids_file = value;
        else if (!strcmp(option, "--protocol") && !strcmp(value, "mqtt5")) protocol_level = 5;
        else if (!strcmp(option, "--protocol") && !strcmp(value, "mqtt311")) protocol_level = 4;
        else usage();
    }
    if (!port || !prefix || expected_devices < 1 || rate <= 0 || window <= 0 || warmup < 0 || start_timeout <= 0) usage();
    prefix_length = strlen(prefix);
    for (table_size = 1024; table_size < 4 * (size_t)expected_devices; table_size *= 2) {}
    devices = calloc(table_size, sizeof *devices);
    histogram = calloc(BUCKETS, sizeof *histogram);
    unsigned char *buffer = malloc(BUFFER_SIZE + 1);
    if (!devices || !histogram || !buffer) fail("out of memory");

    char filter[1024];
    snprintf(filter, sizeof filter, "%s/+/device-motion", prefix);
    int fd = connect_to(host, port);
    send_connect_and_subscribe(fd, filter);

    double subscribed_at = monotonic_seconds(), phase_end = subscribed_at + start_timeout, last_ping = subscribed_at;
    double measure_start = 0, measured = window;
    size_t have = 0;
    while (phase != DONE) {
        struct pollfd poll_fd = {.fd = fd, .events = POLLIN};
        if (poll(&poll_fd, 1, 50) < 0 && errno != EINTR) fail("poll failed");
        if (poll_fd.revents) {
            ssize_t n = recv(fd, buffer + have, BUFFER_SIZE - have, 0);
            if (n == 0) fail("the broker closed the connection");
            if (n < 0 && errno != EINTR && errno != EAGAIN) fail("recv failed");
            if (n > 0) have += (size_t)n;
            size_t offset = 0;
            while (have - offset >= 2) {
                size_t remaining, skip = read_varint(buffer + offset + 1, have - offset - 1, &remaining);
                if (!skip) break;
                size_t total = 1 + skip + remaining;
                if (total > BUFFER_SIZE) fail("packet larger than the buffer");
                if (have - offset < total) break;
                handle_packet(buffer[offset], buffer + offset + 1 + skip, remaining);
                offset += total;
            }
            memmove(buffer, buffer + offset, have - offset);
            have -= offset;
        }
        double now = monotonic_seconds();
        if (phase == WAITING && (devices_heard >= expected_devices || now >= phase_end)) {
            if (devices_heard < expected_devices)
                fprintf(stderr, "capacity-sink: heard %ld of %ld devices after %.0f s; measuring anyway\n", devices_heard,
                        expected_devices, start_timeout);
            phase = WARMING;
            phase_end = now + warmup;
        }
        if (phase == WARMING && now >= phase_end) {
            phase = MEASURING;
            phase_end = now + window;
            measure_start = now;
            start_cpu(pids_file);
        } else if (phase == MEASURING && now >= phase_end) {
            phase = DONE;
            measured = now - measure_start;
        }
        if (now - last_ping >= 30) {
            static const unsigned char ping[] = {0xc0, 0};
            send_all(fd, ping, sizeof ping);
            last_ping = now;
        }
    }

    long missing = expected_devices - devices_in_window;
    if (missing < 0) missing = 0;
    long lost_total = lost + (long)((double)missing * rate * measured + 0.5);
    double delivered = received + lost_total > 0 ? 100.0 * (double)received / (double)(received + lost_total) : 0;
    printf("devices=%ld seen=%ld received=%ld lost=%ld delivered=%.2f%% throughput=%.1f%% p50_ms=%.2f p99_ms=%.2f "
           "max_ms=%.2f",
           expected_devices, devices_in_window, received, lost_total, delivered,
           100.0 * (double)received / ((double)expected_devices * rate * measured), percentile_ms(0.50),
           percentile_ms(0.99), latency_max_ms);
    print_cpu(measured, received);
    printf(" payload_bytes=%.0f", received > 0 ? (double)received_bytes / (double)received : 0.0);
    if (reordered) printf(" reordered=%ld", reordered);
    if (malformed) printf(" malformed=%ld", malformed);
    printf("\n");
    fflush(stdout);
    static const unsigned char disconnect[] = {0xe0, 0};
    send_all(fd, disconnect, sizeof disconnect);
    close(fd);
    return 0;
}
