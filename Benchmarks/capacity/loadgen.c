/*
 * capacity-loadgen: the protocol-level load of the capacity benchmark (Benchmarks/capacity/run.sh):
 * N devices publishing device-motion, as `motionctl simulate --devices N` does with N real agents, but
 * with nothing behind the MQTT client but the payload: no IMU, no fusion, no engine; each message's JSON
 * is formatted when it is published, as the agent's encoder does (a fair comparison, issue 36).
 *
 *   capacity-loadgen --port P [--host H] --devices N --rate HZ [--seconds S] [--prefix motion]
 *                    [--id-prefix gen] [--threads T] [--protocol mqtt5|mqtt311]
 *       Opens N libmosquitto clients, one connection each (client id and device id ID-0001…, MQTT 5,
 *       TCP_NODELAY, keep-alive 60 s, last will `offline` retained at QoS 1 on PREFIX/ID/status, and
 *       `online` retained at QoS 1 published there once connected, as the agent does), spread over T
 *       threads (default: the number of cores), and waits until all are connected (at most 60 s). Then
 *       every device publishes PREFIX/ID/device-motion at HZ, QoS 0: the agent's device-motion JSON,
 *       every field formatted with snprintf for each message (~580 bytes, as the agent's; see
 *       format_payload) with a real `seq` from 1, `timestamp` (CLOCK_MONOTONIC seconds) and `ts`
 *       (CLOCK_REALTIME seconds) of the instant the message was due, as an agent stamps the instant its
 *       sample was taken (so the sink's latency includes the generator's lag behind its schedule, as it
 *       includes a simulated device's; until 2026-12-06 `ts` was the time of the publish call, which left
 *       the generator's lag out of its latency). The devices' publication times
 *       are spread evenly over the period, on an absolute schedule (a late thread catches up).
 *       Each thread sleeps with clock_nanosleep(TIMER_ABSTIME) to the next due publication (at most one
 *       wake-up a millisecond) and publishes everything due; mosquitto_publish writes the packet itself
 *       (no loop thread); input (CONNACK, PUBACK, PINGRESP) and write back-pressure go through one epoll
 *       set per thread with mosquitto_loop_read/mosquitto_loop_write, keep-alive through
 *       mosquitto_loop_misc once a second.
 *       After S seconds of publishing (default: until SIGTERM or SIGINT) every device publishes `offline`
 *       and disconnects cleanly; then it prints one line on standard error:
 *         capacity-loadgen: devices=N connected=C published=P errors=E lost_connections=L lag_p99_ms=… lag_max_ms=…
 *                           payload_bytes=B (the mean payload size)
 *       lag is how far a publication was behind its schedule (a part of the sink's latency).
 *
 * Build: gcc -O2 -Wall -Wextra -o capacity-loadgen loadgen.c -lmosquitto -lpthread -lm
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <mosquitto.h>
#include <mqtt_protocol.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* The device-motion payload, built per message as the agent builds it: the same fields in the same
 * order (Tests/MotionAgentTests/PayloadGoldenTests.swift), every number formatted at publish time from a
 * state that moves (a slow rotation about the vertical, a tilt that wobbles), `timestamp` with 9
 * decimals, `ts` with 7, measurements in single precision with 8 significant digits (the agent prints a
 * Float's shortest round-trip form: 7 to 9). About 580 bytes, as the agent's. */
static int format_payload(char *out, size_t size, long seq, const struct timespec *monotonic,
                          const struct timespec *wall, double phase) {
    double t = (double)monotonic->tv_sec + (double)monotonic->tv_nsec / 1e9;
    double yaw = fmod(0.3 * t + phase, 2 * M_PI) - M_PI, pitch = 0.44 + 0.05 * sin(1.3 * t + phase);
    double roll = 0.22 + 0.003 * cos(0.7 * t + phase);
    double cy = cos(yaw / 2), sy = sin(yaw / 2), cp = cos(pitch / 2), sp = sin(pitch / 2), cr = cos(roll / 2), sr = sin(roll / 2);
    float w = (float)(cr * cp * cy + sr * sp * sy), x = (float)(sr * cp * cy - cr * sp * sy);
    float y = (float)(cr * sp * cy + sr * cp * sy), z = (float)(cr * cp * sy - sr * sp * cy);
    float gx = (float)(-sin(pitch)), gy = (float)(sin(roll) * cos(pitch)), gz = (float)(-cos(roll) * cos(pitch));
    float spin = (float)(0.05 * 1.3 * cos(1.3 * t + phase));
    return snprintf(out, size,
        "{\"seq\":%ld,\"tsUncertain\":true,\"timestamp\":%ld.%09ld,\"ts\":%ld.%07ld,"
        "\"attitude\":{\"quaternion\":{\"x\":%.8g,\"y\":%.8g,\"z\":%.8g,\"w\":%.8g},"
        "\"roll\":%.8g,\"pitch\":%.8g,\"yaw\":%.8g},"
        "\"rotationRate\":{\"x\":%.8g,\"y\":%.8g,\"z\":%.8g},"
        "\"gravity\":{\"x\":%.8g,\"y\":%.8g,\"z\":%.8g},"
        "\"userAcceleration\":{\"x\":%.8g,\"y\":%.8g,\"z\":%.8g},"
        "\"magneticField\":{\"field\":{\"x\":%.8g,\"y\":%.8g,\"z\":%.8g},\"accuracy\":\"low\"},"
        "\"heading\":%.8g,\"uncertainty\":{\"heading\":%.8g,\"inclination\":%.8g}}",
        seq, (long)monotonic->tv_sec, monotonic->tv_nsec, (long)wall->tv_sec, wall->tv_nsec / 100,
        x, y, z, w, roll, pitch, yaw, spin + 0.09, 0.32 - spin, 0.22f + spin, gx, gy, gz,
        0.01f * spin, 0.006f - spin / 10, 0.008f + spin / 7, 10.2f + 3 * gx, -1.7f + gy, -47.4f + gz,
        (float)(yaw + M_PI), 0.8096f + spin / 100, 0.3322f - spin / 100);
}

#define LAG_BUCKET_US 100
#define LAG_BUCKETS 100000 /* up to 10 s */
#define MIN_WAKE_NS 1000000L
#define CONNECT_TIMEOUT_S 60

struct client {
    struct mosquitto *m;
    char topic[160];
    char status_topic[160];
    long seq;
    double phase; /* where this device's motion starts, rad */
    int connected;
    int watching_write; /* EPOLLOUT armed */
    int gone;           /* connection lost */
};

struct worker {
    pthread_t thread;
    int index;
    int count; /* clients index, index + threads, … */
    struct client *clients;
    int epoll_fd;
    long published, errors, lost_connections;
    long long payload_bytes;
    long *lag_histogram;
    double lag_max_ms;
};

static const char *host = "127.0.0.1", *prefix = "motion", *id_prefix = "gen";
static int port, devices, threads;
static int protocol_version = MQTT_PROTOCOL_V5; /* --protocol mqtt311: for brokers without MQTT 5 (RabbitMQ 3.x) */
static double rate, seconds = 0;
static long period_ns;

static volatile sig_atomic_t stop_requested = 0;
static int connected_count = 0;  /* atomic */
static int connect_failures = 0; /* atomic */
static long start_ns = 0;        /* atomic; set by main once everything is connected */

static void on_signal(int signal_number) {
    (void)signal_number;
    stop_requested = 1;
}

static long monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1000000000L + now.tv_nsec;
}

static void on_connect(struct mosquitto *m, void *userdata, int rc, int flags, const mosquitto_property *props) {
    (void)flags; (void)props;
    struct client *client = userdata;
    if (rc != 0) {
        fprintf(stderr, "capacity-loadgen: %s refused: %s\n", client->topic, mosquitto_reason_string(rc));
        return;
    }
    if (!client->connected) {
        client->connected = 1;
        __atomic_add_fetch(&connected_count, 1, __ATOMIC_SEQ_CST);
    }
    mosquitto_publish_v5(m, NULL, client->status_topic, 6, "online", 1, true, NULL);
}

/* Arms or disarms EPOLLOUT for a client as libmosquitto has packets waiting or not. */
static void update_write_interest(struct worker *worker, struct client *client) {
    int want = mosquitto_want_write(client->m);
    if (want == client->watching_write || client->gone) return;
    struct epoll_event event = {.events = EPOLLIN | (want ? EPOLLOUT : 0), .data.ptr = client};
    epoll_ctl(worker->epoll_fd, EPOLL_CTL_MOD, mosquitto_socket(client->m), &event);
    client->watching_write = want;
}

static void connection_lost(struct worker *worker, struct client *client) {
    if (client->gone) return;
    client->gone = 1;
    static int reported = 0; /* atomic */
    worker->lost_connections++;
    if (!stop_requested && __atomic_add_fetch(&reported, 1, __ATOMIC_SEQ_CST) <= 3)
        fprintf(stderr, "capacity-loadgen: %s lost its connection\n", client->topic);
}

/* Reads input and writes pending output of the clients whose sockets are ready; waits at most timeout_ms. */
static void service_io(struct worker *worker, int timeout_ms) {
    struct epoll_event events[256];
    int n = epoll_wait(worker->epoll_fd, events, 256, timeout_ms);
    for (int i = 0; i < n; i++) {
        struct client *client = events[i].data.ptr;
        if (client->gone) continue;
        if (events[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
            if (mosquitto_loop_read(client->m, 1) != MOSQ_ERR_SUCCESS) {
                connection_lost(worker, client);
                continue;
            }
        }
        if (events[i].events & EPOLLOUT) {
            if (mosquitto_loop_write(client->m, 1) != MOSQ_ERR_SUCCESS) {
                connection_lost(worker, client);
                continue;
            }
        }
        update_write_interest(worker, client);
    }
}

static void keep_alive(struct worker *worker) {
    for (int k = 0; k < worker->count; k++) {
        struct client *client = &worker->clients[k];
        if (client->gone || !client->m) continue;
        if (mosquitto_loop_misc(client->m) != MOSQ_ERR_SUCCESS) connection_lost(worker, client);
        else update_write_interest(worker, client);
    }
}

/* Publishes the message due at `due_ns` (CLOCK_MONOTONIC), `lag_ns` late. Its `timestamp` is the due time
 * and its `ts` that time on the wall clock, as an agent stamps a sample with the instant it was taken, not
 * the instant it was published: the sink's latency then counts the generator's own lag, as it counts a
 * simulated device's between its sample's time and the pool thread's tick. */
static void publish(struct worker *worker, struct client *client, long due_ns, long lag_ns) {
    struct timespec wall_now, monotonic_now;
    clock_gettime(CLOCK_REALTIME, &wall_now);
    clock_gettime(CLOCK_MONOTONIC, &monotonic_now);
    long wall_offset_ns = (wall_now.tv_sec - monotonic_now.tv_sec) * 1000000000L + (wall_now.tv_nsec - monotonic_now.tv_nsec);
    long wall_ns = due_ns + wall_offset_ns;
    struct timespec monotonic = {.tv_sec = due_ns / 1000000000L, .tv_nsec = due_ns % 1000000000L};
    struct timespec wall = {.tv_sec = wall_ns / 1000000000L, .tv_nsec = wall_ns % 1000000000L};
    char payload[1024];
    int length = format_payload(payload, sizeof payload, ++client->seq, &monotonic, &wall, client->phase);
    worker->payload_bytes += length;
    if (mosquitto_publish_v5(client->m, NULL, client->topic, length, payload, 0, false, NULL) == MOSQ_ERR_SUCCESS)
        worker->published++;
    else
        worker->errors++;
    update_write_interest(worker, client);
    double lag_ms = (double)lag_ns / 1e6;
    if (lag_ms > worker->lag_max_ms) worker->lag_max_ms = lag_ms;
    long bucket = lag_ns / (LAG_BUCKET_US * 1000L);
    worker->lag_histogram[bucket < 0 ? 0 : bucket < LAG_BUCKETS ? bucket : LAG_BUCKETS - 1]++;
}

/* When device `number` (0-based) publishes for the cycle-th time: its phase is number / devices of the period. */
static long due_ns(long start, long cycle, long number) {
    return start + cycle * period_ns + (long)((double)number * (double)period_ns / devices);
}

static void *run_worker(void *argument) {
    struct worker *worker = argument;
    worker->epoll_fd = epoll_create1(0);
    if (worker->epoll_fd < 0) {
        perror("capacity-loadgen: epoll_create1");
        exit(1);
    }
    /* Connect this thread's clients (blocking TCP connect, CONNECT written at once), reading CONNACKs as they come. */
    for (int k = 0; k < worker->count && !stop_requested; k++) {
        struct client *client = &worker->clients[k];
        int number = worker->index + k * threads + 1;
        char id[64];
        snprintf(id, sizeof id, "%s-%04d", id_prefix, number);
        snprintf(client->topic, sizeof client->topic, "%s/%s/device-motion", prefix, id);
        snprintf(client->status_topic, sizeof client->status_topic, "%s/%s/status", prefix, id);
        client->phase = 2 * M_PI * (double)number / (double)devices;
        client->m = mosquitto_new(id, true, client);
        if (!client->m) {
            fprintf(stderr, "capacity-loadgen: mosquitto_new failed for %s\n", id);
            exit(1);
        }
        mosquitto_int_option(client->m, MOSQ_OPT_PROTOCOL_VERSION, protocol_version);
        mosquitto_int_option(client->m, MOSQ_OPT_TCP_NODELAY, 1);
        mosquitto_will_set_v5(client->m, client->status_topic, 7, "offline", 1, true, NULL);
        mosquitto_connect_v5_callback_set(client->m, on_connect);
        int rc = mosquitto_connect_bind_v5(client->m, host, port, 60, NULL, NULL);
        if (rc != MOSQ_ERR_SUCCESS) {
            if (__atomic_add_fetch(&connect_failures, 1, __ATOMIC_SEQ_CST) <= 3)
                fprintf(stderr, "capacity-loadgen: %s cannot connect: %s\n", id,
                        rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
            client->gone = 1;
            continue;
        }
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = client};
        epoll_ctl(worker->epoll_fd, EPOLL_CTL_ADD, mosquitto_socket(client->m), &event);
        update_write_interest(worker, client);
        if (k % 32 == 31) service_io(worker, 0);
    }
    while (!__atomic_load_n(&start_ns, __ATOMIC_SEQ_CST) && !stop_requested) service_io(worker, 10);

    /* Publish: this thread's client k is device index + k * threads. */
    long start = __atomic_load_n(&start_ns, __ATOMIC_SEQ_CST);
    long end = seconds > 0 ? start + (long)(seconds * 1e9) : 0;
    long cycle = 0, last_keep_alive = start;
    int next = 0;
    while (!stop_requested && worker->count > 0) {
        long now = monotonic_ns();
        if (end && now >= end) break;
        for (int published = 0;; published++) {
            long due = due_ns(start, cycle, worker->index + next * threads);
            if (published % 64 == 63) now = monotonic_ns();
            if (due > now) break;
            struct client *client = &worker->clients[next];
            if (!client->gone) publish(worker, client, due, now - due);
            if (++next == worker->count) {
                next = 0;
                cycle++;
            }
        }
        service_io(worker, 0);
        if (now - last_keep_alive >= 1000000000L) {
            keep_alive(worker);
            last_keep_alive = now;
        }
        long due = due_ns(start, cycle, worker->index + next * threads);
        long wake = due > now + MIN_WAKE_NS ? due : now + MIN_WAKE_NS;
        if (end && wake > end) wake = end;
        struct timespec until = {.tv_sec = wake / 1000000000L, .tv_nsec = wake % 1000000000L};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
    }

    /* Stop as the agent does: `offline` (retained), then a clean DISCONNECT; flush for at most a second. */
    for (int k = 0; k < worker->count; k++) {
        struct client *client = &worker->clients[k];
        if (client->gone || !client->m) continue;
        mosquitto_publish_v5(client->m, NULL, client->status_topic, 7, "offline", 1, true, NULL);
        mosquitto_disconnect_v5(client->m, MQTT_RC_NORMAL_DISCONNECTION, NULL);
        update_write_interest(worker, client);
    }
    long flush_deadline = monotonic_ns() + 1000000000L;
    for (;;) {
        int pending = 0;
        for (int k = 0; k < worker->count; k++)
            if (!worker->clients[k].gone && worker->clients[k].watching_write) pending++;
        if (!pending || monotonic_ns() >= flush_deadline) break;
        service_io(worker, 10);
    }
    for (int k = 0; k < worker->count; k++)
        if (worker->clients[k].m) mosquitto_destroy(worker->clients[k].m);
    close(worker->epoll_fd);
    return NULL;
}

static void usage(void) {
    fprintf(stderr, "usage: capacity-loadgen --port P [--host H] --devices N --rate HZ [--seconds S] [--prefix motion]\n"
                    "                        [--id-prefix gen] [--threads T] [--protocol mqtt5|mqtt311]\n");
    exit(64);
}

int main(int argc, char **argv) {
    threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i];
        if (i + 1 >= argc) usage();
        const char *value = argv[++i];
        if (!strcmp(option, "--host")) host = value;
        else if (!strcmp(option, "--port")) port = (int)strtol(value, NULL, 10);
        else if (!strcmp(option, "--devices")) devices = (int)strtol(value, NULL, 10);
        else if (!strcmp(option, "--rate")) rate = strtod(value, NULL);
        else if (!strcmp(option, "--seconds")) seconds = strtod(value, NULL);
        else if (!strcmp(option, "--prefix")) prefix = value;
        else if (!strcmp(option, "--id-prefix")) id_prefix = value;
        else if (!strcmp(option, "--threads")) threads = (int)strtol(value, NULL, 10);
        else if (!strcmp(option, "--protocol") && !strcmp(value, "mqtt5")) protocol_version = MQTT_PROTOCOL_V5;
        else if (!strcmp(option, "--protocol") && !strcmp(value, "mqtt311")) protocol_version = MQTT_PROTOCOL_V311;
        else usage();
    }
    if (port <= 0 || port > 65535 || devices < 1 || devices > 100000 || rate <= 0 || rate > 10000 || seconds < 0
        || threads < 1 || strlen(prefix) + strlen(id_prefix) > 100)
        usage();
    if (threads > devices) threads = devices;
    period_ns = (long)(1e9 / rate);

    /* Each client holds its socket and libmosquitto's socket pair. */
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    rlim_t needed = (rlim_t)devices * 3 + 64;
    if (limit.rlim_cur < needed) {
        limit.rlim_cur = limit.rlim_max < needed ? limit.rlim_max : needed;
        setrlimit(RLIMIT_NOFILE, &limit);
        if (limit.rlim_cur < needed) {
            fprintf(stderr, "capacity-loadgen: %d devices need %lu file descriptors, the limit is %lu\n", devices,
                    (unsigned long)needed, (unsigned long)limit.rlim_cur);
            return 1;
        }
    }

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal; /* no SA_RESTART: sleeps end early */
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    signal(SIGPIPE, SIG_IGN);
    mosquitto_lib_init();

    struct worker *workers = calloc((size_t)threads, sizeof *workers);
    for (int w = 0; w < threads; w++) {
        workers[w].index = w;
        workers[w].count = (devices - w + threads - 1) / threads;
        workers[w].clients = calloc((size_t)workers[w].count, sizeof *workers[w].clients);
        workers[w].lag_histogram = calloc(LAG_BUCKETS, sizeof *workers[w].lag_histogram);
        if (!workers[w].clients || !workers[w].lag_histogram) {
            fprintf(stderr, "capacity-loadgen: out of memory\n");
            return 1;
        }
        pthread_create(&workers[w].thread, NULL, run_worker, &workers[w]);
    }
    long began = monotonic_ns();
    while (!stop_requested) {
        int settled = __atomic_load_n(&connected_count, __ATOMIC_SEQ_CST)
                      + __atomic_load_n(&connect_failures, __ATOMIC_SEQ_CST);
        if (settled >= devices || monotonic_ns() - began >= CONNECT_TIMEOUT_S * 1000000000L) break;
        usleep(10000);
    }
    int connected = __atomic_load_n(&connected_count, __ATOMIC_SEQ_CST);
    fprintf(stderr, "capacity-loadgen: %d of %d devices connected in %.1f s; publishing device-motion at %g Hz\n",
            connected, devices, (double)(monotonic_ns() - began) / 1e9, rate);
    __atomic_store_n(&start_ns, monotonic_ns(), __ATOMIC_SEQ_CST);

    long published = 0, errors = 0, lost_connections = 0, lag_total = 0;
    long long payload_bytes = 0;
    double lag_max_ms = 0;
    long *lag = calloc(LAG_BUCKETS, sizeof *lag);
    for (int w = 0; w < threads; w++) {
        pthread_join(workers[w].thread, NULL);
        published += workers[w].published;
        payload_bytes += workers[w].payload_bytes;
        errors += workers[w].errors;
        lost_connections += workers[w].lost_connections;
        if (workers[w].lag_max_ms > lag_max_ms) lag_max_ms = workers[w].lag_max_ms;
        for (long b = 0; b < LAG_BUCKETS; b++) {
            lag[b] += workers[w].lag_histogram[b];
            lag_total += workers[w].lag_histogram[b];
        }
    }
    double lag_p99_ms = 0;
    for (long b = 0, cumulative = 0; b < LAG_BUCKETS && lag_total > 0; b++) {
        cumulative += lag[b];
        if (cumulative >= (long)(0.99 * (double)lag_total)) {
            lag_p99_ms = (b + 1) * LAG_BUCKET_US / 1000.0;
            break;
        }
    }
    fprintf(stderr,
            "capacity-loadgen: devices=%d connected=%d published=%ld errors=%ld lost_connections=%ld lag_p99_ms=%.1f "
            "lag_max_ms=%.1f payload_bytes=%.0f\n",
            devices, connected, published, errors, lost_connections, lag_p99_ms, lag_max_ms,
            published > 0 ? (double)payload_bytes / (double)published : 0.0);
    mosquitto_lib_cleanup();
    return 0;
}
