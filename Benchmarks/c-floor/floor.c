/*
 * motion-floor: the smallest C libmosquitto publisher doing the agent's job without fusion, the floor
 * the Swift agent is compared with (see docs/BENCHMARKS.md).
 *
 *   motion-floor --port P [--host H] [--base motion/floor] [--rate 1000] [--decimation 10] [--batch 1]
 *                [--direct 0|1]
 *       Wakes at RATE/BATCH Hz with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) (timer slack 1 µs,
 *       as the agent's delivery threads), stamps its BATCH "samples" with the wake-up's deadline (the
 *       instant the newest was due, as the agent's simulated samples), and for every DECIMATION-th sample
 *       publishes one small JSON payload to each of BASE/{accelerometer,gyro,magnetometer,device-motion}
 *       at QoS 0 (TCP_NODELAY, MQTT 5); with a batch, once per topic and wake-up that crosses a
 *       decimation boundary, stamped with the deadline (the newest sample, as the agent's `latest` mode).
 *       `timestamp` is the sample's CLOCK_MONOTONIC time in seconds, as the agent's. Until 2026-12-06
 *       it was the time read after waking, which left the wake-up's lateness out of the floor's latency
 *       while the agent's included it.
 *       --direct 0 (default): libmosquitto's loop_start thread writes the packets (woken through its socket
 *       pair on every publish). --direct 1: the waking thread writes them itself (no loop thread; input and
 *       keepalive are handled once a second), as the agent does over plain TCP.
 *       --batch 10 --direct 1 is the agent's delivery structure: the floor for its design.
 *       Runs until SIGTERM or SIGINT, then disconnects cleanly and exits 0.
 *
 *   motion-floor --port P --throughput N [--payload BYTES] [--window W] [--topic T]
 *       Publishes N QoS 0 messages of BYTES bytes (32 by default) as fast as the loop thread writes them,
 *       keeping at most W (1000 by default; 0 = unbounded) published but not yet written to the socket
 *       (counted by the publish callback), then prints one line:
 *       `published=N seconds=S rate=R hwm_kb=K rss_kb=K`.
 *
 * Build: gcc -O2 -o motion-floor floor.c -lmosquitto
 */
#define _GNU_SOURCE
#include <errno.h>
#include <mosquitto.h>
#include <mqtt_protocol.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested = 0;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int connected = 0;
static long completed = 0; /* QoS 0 publications written to the socket (publish callback) */

static void on_signal(int signal_number) {
    (void)signal_number;
    stop_requested = 1;
}

static void on_connect(struct mosquitto *m, void *userdata, int rc, int flags, const mosquitto_property *props) {
    (void)m; (void)userdata; (void)flags; (void)props;
    pthread_mutex_lock(&lock);
    connected = (rc == 0);
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

static void on_publish(struct mosquitto *m, void *userdata, int mid, int rc, const mosquitto_property *props) {
    (void)m; (void)userdata; (void)mid; (void)rc; (void)props;
    pthread_mutex_lock(&lock);
    completed++;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

static double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* VmRSS or VmHWM of this process in kB, -1 if unknown. */
static long status_kb(const char *field) {
    FILE *file = fopen("/proc/self/status", "r");
    if (!file) return -1;
    char line[256];
    long value = -1;
    size_t length = strlen(field);
    while (fgets(line, sizeof line, file)) {
        if (strncmp(line, field, length) == 0 && line[length] == ':') {
            value = strtol(line + length + 1, NULL, 10);
            break;
        }
    }
    fclose(file);
    return value;
}

static int wait_connected(double timeout_seconds) {
    double deadline = monotonic_seconds() + timeout_seconds;
    pthread_mutex_lock(&lock);
    while (!connected && !stop_requested && monotonic_seconds() < deadline) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 10 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
        pthread_cond_timedwait(&changed, &lock, &until);
    }
    int result = connected;
    pthread_mutex_unlock(&lock);
    return result;
}

static void usage(void) {
    fprintf(stderr,
            "usage: motion-floor --port P [--host H] [--base TOPIC] [--rate HZ] [--decimation N] [--batch N] [--direct 0|1]\n"
            "       motion-floor --port P [--host H] --throughput N [--payload BYTES] [--window W] [--topic T]\n");
    exit(64);
}

static void run_sampling(struct mosquitto *m, const char *base, long rate, long decimation, long batch, int direct) {
    static const char *services[4] = {"accelerometer", "gyro", "magnetometer", "device-motion"};
    char topics[4][256];
    for (int i = 0; i < 4; i++) snprintf(topics[i], sizeof topics[i], "%s/%s", base, services[i]);
    unsigned long long seq = 0, sample = 0;
    const long period_ns = 1000000000L / rate * batch;
    const long wakes_per_second = rate / batch > 0 ? rate / batch : 1;
    unsigned long long wakes = 0;
    double wall_offset;
    {
        struct timespec wall;
        clock_gettime(CLOCK_REALTIME, &wall);
        wall_offset = (double)wall.tv_sec + (double)wall.tv_nsec / 1e9 - monotonic_seconds();
    }
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    while (!stop_requested) {
        next.tv_nsec += period_ns;
        if (next.tv_nsec >= 1000000000L) { next.tv_sec++; next.tv_nsec -= 1000000000L; }
        int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
        if (rc == EINTR) continue;
        double timestamp = (double)next.tv_sec + (double)next.tv_nsec / 1e9; /* the newest "sample" */
        /* Direct mode has no loop thread: read input and keep the connection alive once a second. */
        if (direct && ++wakes % (unsigned long long)wakes_per_second == 0) mosquitto_loop(m, 0, 1);
        unsigned long long before = sample / (unsigned long long)decimation;
        sample += (unsigned long long)batch;
        if (sample / (unsigned long long)decimation == before) continue;
        seq++;
        for (int i = 0; i < 4; i++) {
            char payload[256];
            int length = snprintf(payload, sizeof payload,
                                  "{\"seq\":%llu,\"timestamp\":%.9f,\"ts\":%.6f,\"value\":{\"x\":0.01,\"y\":-0.02,\"z\":-1.0}}",
                                  seq, timestamp, timestamp + wall_offset);
            mosquitto_publish(m, NULL, topics[i], length, payload, 0, false);
        }
    }
}

static int run_throughput(struct mosquitto *m, const char *topic, long count, long payload_size, long window) {
    char *payload = malloc((size_t)payload_size + 1);
    memset(payload, 'a', (size_t)payload_size);
    double start = monotonic_seconds();
    long errors = 0;
    for (long sent = 0; sent < count && !stop_requested; sent++) {
        if (window > 0) {
            pthread_mutex_lock(&lock);
            while (sent - completed >= window) pthread_cond_wait(&changed, &lock);
            pthread_mutex_unlock(&lock);
        }
        if (mosquitto_publish(m, NULL, topic, (int)payload_size, payload, 0, false) != MOSQ_ERR_SUCCESS) errors++;
    }
    pthread_mutex_lock(&lock);
    while (completed < count - errors && !stop_requested) pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
    double seconds = monotonic_seconds() - start;
    printf("published=%ld errors=%ld seconds=%.6f rate=%.0f hwm_kb=%ld rss_kb=%ld\n", count - errors, errors,
           seconds, (double)(count - errors) / seconds, status_kb("VmHWM"), status_kb("VmRSS"));
    fflush(stdout);
    free(payload);
    return errors == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    const char *host = "127.0.0.1", *base = "motion/floor", *topic = "bench/throughput";
    long port = 0, rate = 1000, decimation = 10, batch = 1, direct = 0, throughput = 0, payload_size = 32, window = 1000;
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i];
        if (i + 1 >= argc) usage();
        const char *value = argv[++i];
        if (!strcmp(option, "--host")) host = value;
        else if (!strcmp(option, "--port")) port = strtol(value, NULL, 10);
        else if (!strcmp(option, "--base")) base = value;
        else if (!strcmp(option, "--rate")) rate = strtol(value, NULL, 10);
        else if (!strcmp(option, "--decimation")) decimation = strtol(value, NULL, 10);
        else if (!strcmp(option, "--batch")) batch = strtol(value, NULL, 10);
        else if (!strcmp(option, "--direct")) direct = strtol(value, NULL, 10);
        else if (!strcmp(option, "--throughput")) throughput = strtol(value, NULL, 10);
        else if (!strcmp(option, "--payload")) payload_size = strtol(value, NULL, 10);
        else if (!strcmp(option, "--window")) window = strtol(value, NULL, 10);
        else if (!strcmp(option, "--topic")) topic = value;
        else usage();
    }
    if (port <= 0 || port > 65535 || rate <= 0 || rate > 1000000000L || decimation <= 0 || batch <= 0 || batch > rate
        || (direct != 0 && direct != 1) || (direct && throughput > 0) || payload_size < 0 || window < 0)
        usage();

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal; /* no SA_RESTART: clock_nanosleep returns EINTR */
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);

    mosquitto_lib_init();
    struct mosquitto *m = mosquitto_new(NULL, true, NULL);
    if (!m) { perror("mosquitto_new"); return 1; }
    mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5);
    mosquitto_int_option(m, MOSQ_OPT_TCP_NODELAY, 1);
    mosquitto_connect_v5_callback_set(m, on_connect);
    mosquitto_publish_v5_callback_set(m, on_publish);
    if (direct) {
        /* No loop thread: connect, then run the loop here until the CONNACK arrives. */
        int rc = mosquitto_connect(m, host, (int)port, 30);
        double deadline = monotonic_seconds() + 5.0;
        while (rc == MOSQ_ERR_SUCCESS && !connected && !stop_requested && monotonic_seconds() < deadline)
            rc = mosquitto_loop(m, 100, 1);
        if (!connected) {
            fprintf(stderr, "motion-floor: cannot connect to %s:%ld\n", host, port);
            mosquitto_destroy(m);
            return 1;
        }
    } else {
        mosquitto_loop_start(m);
        if (mosquitto_connect_async(m, host, (int)port, 30) != MOSQ_ERR_SUCCESS || !wait_connected(5.0)) {
            fprintf(stderr, "motion-floor: cannot connect to %s:%ld\n", host, port);
            mosquitto_loop_stop(m, true);
            mosquitto_destroy(m);
            return 1;
        }
    }
    int status = 0;
    if (throughput > 0) status = run_throughput(m, topic, throughput, payload_size, window);
    else run_sampling(m, base, rate, decimation, batch, (int)direct);

    /* Direct mode writes the DISCONNECT here; otherwise the loop thread does before it stops. */
    mosquitto_disconnect_v5(m, MQTT_RC_NORMAL_DISCONNECTION, NULL);
    if (!direct) mosquitto_loop_stop(m, false);
    mosquitto_destroy(m);
    mosquitto_lib_cleanup();
    return status;
}
