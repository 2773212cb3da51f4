#!/usr/bin/env bash
# Capacity of one local mosquitto for device-motion fleets: for each rate (10 and 50 Hz) and each of two
# publishers, the largest number of devices N, each on its own MQTT connection publishing
# {prefix}/{id}/device-motion (QoS 0, ~510-byte JSON), for which >= 99 % of the messages are delivered,
# the p99 end-to-end latency (receipt minus the payload's `ts`) is <= 20 ms and >= 98 % of the offered
# rate arrives; and what limits it, from the CPU of the broker, the publisher and the sink over each
# measurement window. The publishers:
#   simulate   `motionctl simulate --devices N --detectors off`: N real agents in one process (simulated
#              IMU, fusion, encoder, MQTT client each; no motion detectors, whose states the generator
#              does not publish either);
#   generator  Benchmarks/capacity/loadgen.c: N libmosquitto connections and nothing behind them.
# The measuring subscriber is Benchmarks/capacity/sink.c. Every step gets a fresh private mosquitto on a
# free loopback port (127.0.0.1 only, persistence off); the sink subscribes first, the publisher starts,
# the sink waits until it has heard all N devices, lets a warm-up pass and measures. N is searched per
# rate and publisher: up from a start, by a factor taken from the CPU head-room of the last step (between
# 1.25 and 4), then bisected geometrically until the largest passing and the smallest failing N are
# within 10 %. Installs missing Debian packages via Deploy/install-deps.sh; builds the release motionctl
# (unless --motionctl is given) and the two C programs; writes only in a temporary directory (and the
# build directory); stops everything it started on exit.
#
#   Benchmarks/capacity/run.sh [--seconds S] [--warmup S] [--rates "10 50"] [--max N] [--start N]
#                              [--quick] [--motionctl PATH] [--keep] [--rabbitmq]
#
# --seconds: the measurement window of a step (12; a step takes about 8 s more); --rates: rates in Hz;
# --max: the largest N tried (6000); --start: the first N at the first rate (50; later rates start from
# the previous rate's result scaled by the rates); --quick: a smoke run (3 s windows, N up to 40, under
# a minute); --motionctl: use this binary instead of building; --keep: keep the temporary directory
# (logs of every step). A full run takes 7 to 10 minutes on a 2-core machine. Pass/fail needs a quiet
# machine: the `other` CPU column shows what the rest of the machine used during each window.
# --rabbitmq: instead of a mosquitto per step, one two-node RabbitMQ cluster for the whole run
# (rabbitmq-cluster.sh, MQTT 3.1.1): the publishers connect to node 1, the sink to node 2, so every message
# crosses the cluster; `broker` is node 1's CPU, node 2's is in `other`.
set -euo pipefail
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/../.."

seconds=12
warmup=3
rates="10 50"
max=6000
start=50
precision=0.10 # stop refining when the smallest failing N is within this fraction of the largest passing N
max_steps=9    # steps per rate and publisher at most (a noisy machine can make the search wander)
start_timeout=60
motionctl=""
keep=false
quick=false
rabbitmq=false
while (($#)); do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --rates) rates="$2"; shift 2 ;;
        --max) max="$2"; shift 2 ;;
        --start) start="$2"; shift 2 ;;
        --quick) quick=true; shift ;;
        --motionctl) motionctl="$2"; shift 2 ;;
        --keep) keep=true; shift ;;
        --rabbitmq) rabbitmq=true; shift ;;
        -h|--help) sed -n '2,32p' "$self" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
done
if $quick; then seconds=3; warmup=1; start=20; max=40; precision=1; start_timeout=20; fi
for value in "$max" "$start"; do
    [[ "$value" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --max and --start take a positive integer" >&2; exit 64; }
done
for rate in $rates; do
    [[ "$rate" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --rates takes whole rates in Hz, e.g. \"10 50\"" >&2; exit 64; }
done
((max > 10000)) && { echo "run.sh: --max is at most 10000 (motionctl simulate's limit)" >&2; exit 64; }
((start > max)) && start=$max

source Deploy/install-deps.sh

if [ -z "$motionctl" ]; then
    swift build -c release --product motionctl >&2
    motionctl="$(swift build -c release --show-bin-path)/motionctl"
fi
[ -x "$motionctl" ] || { echo "run.sh: $motionctl is not an executable" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/motionbridge-capacity.XXXXXX")
pids=()
cleanup() {
    trap - EXIT INT TERM
    local pid
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if $rabbitmq; then Benchmarks/capacity/rabbitmq-cluster.sh stop "$work/rabbitmq" || true; fi
    if $keep; then echo "run.sh: logs in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

gcc -O2 -Wall -Wextra -o "$work/capacity-loadgen" Benchmarks/capacity/loadgen.c -lmosquitto -lpthread -lm
gcc -O2 -Wall -Wextra -o "$work/capacity-sink" Benchmarks/capacity/sink.c

# Thousands of connections: every client holds a socket and libmosquitto's socket pair (3 descriptors),
# and the broker one per client; they all inherit this limit.
hard=$(ulimit -Hn)
[ "$hard" = unlimited ] && hard=1048576
ulimit -n "$hard" 2>/dev/null || true
if (( $(ulimit -n) < 3 * max + 100 )); then
    echo "run.sh: warning: the file-descriptor limit $(ulimit -n) allows about" \
        "$(( ($(ulimit -n) - 100) / 3 )) devices (--max $max)" >&2
fi

cores=$(nproc)
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
protocol=mqtt5
if $rabbitmq; then
    protocol=mqtt311
    command -v rabbitmq-server >/dev/null || [ -x /usr/lib/rabbitmq/bin/rabbitmq-server ] ||
        { echo "run.sh: --rabbitmq needs rabbitmq-server (apt install rabbitmq-server)" >&2; exit 69; }
    Benchmarks/capacity/rabbitmq-cluster.sh start "$work/rabbitmq" 2 >/dev/null
    read -r _ _ cluster_publisher_port cluster_broker_pid < <(sed -n 1p "$work/rabbitmq/nodes")
    read -r _ _ cluster_sink_port _ < <(sed -n 2p "$work/rabbitmq/nodes")
fi

# Starts a fresh broker logging to $1.log; sets broker_pid and port. The port is below the ephemeral
# range (32768-60999 on Linux), so that no client's local port can take it.
start_broker() {
    local attempt log=$1
    if $rabbitmq; then
        port=$cluster_publisher_port sink_port=$cluster_sink_port broker_pid=$cluster_broker_pid
        return 0
    fi
    for attempt in 1 2 3 4 5; do
        port=$((20000 + RANDOM % 12000))
        port_in_use "$port" && continue
        {
            echo "listener $port 127.0.0.1"
            echo "allow_anonymous true"
            echo "set_tcp_nodelay true"
            echo "persistence false"
            # QoS 0 messages queued for a slow subscriber before the broker drops them: well beyond the
            # latency limit at any rate here, so a drop never happens before the step has failed.
            echo "max_queued_messages 100000"
            echo "log_dest file $log.log"
            echo "log_type error"
            echo "log_type warning"
            # Run as root, mosquitto switches to the `mosquitto` user and could not write its log here.
            if [ "$(id -u)" -eq 0 ]; then echo "user root"; fi
        } >"$work/mosquitto.conf"
        /usr/sbin/mosquitto -c "$work/mosquitto.conf" >"$log.out" 2>&1 &
        broker_pid=$!
        sink_port=$port
        pids+=("$broker_pid")
        local _
        for _ in $(seq 50); do
            port_in_use "$port" && return 0
            kill -0 "$broker_pid" 2>/dev/null || break
            sleep 0.1
        done
        stop_process "$broker_pid" 5
    done
    echo "run.sh: mosquitto did not start: $(tail -n 3 "$log.out" | tr '\n' ' ')" >&2
    exit 1
}

# $1 pid, $2 seconds to wait after SIGTERM before SIGKILL.
stop_process() {
    local pid=$1 limit=$2 waited=0
    kill -TERM "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null && ((waited < limit * 10)); do sleep 0.1; waited=$((waited + 1)); done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    local kept=() p
    for p in "${pids[@]}"; do [ "$p" = "$pid" ] || kept+=("$p"); done
    pids=("${kept[@]}")
}

# The value of key $1 in the sink's summary line $2 ("" when absent).
field() { sed -n "s/.* $1=\([^ %]*\).*/\1/p" <<<" $2"; }

# One step: $1 publisher (simulate|generator), $2 rate, $3 N. Prints a table row; sets step_pass
# (true/false), step_line (the sink's summary), step_headroom (how much more load the CPUs would take,
# as a factor) and step_reason.
run_step() {
    local publisher=$1 rate=$2 n=$3
    local prefix="capacity/$publisher-$rate-$n" log="$work/$publisher-$rate-$n"
    local publisher_seconds=$((start_timeout + ${warmup%.*} + ${seconds%.*} + 10))
    start_broker "$log.broker"
    "$work/capacity-sink" --port "$sink_port" --prefix "$prefix" --devices "$n" --rate "$rate" --seconds "$seconds" \
        --warmup "$warmup" --start-timeout "$start_timeout" --pids "$work/pids" --protocol "$protocol" \
        >"$log.sink" 2>"$log.sink.err" &
    local sink_pid=$!
    pids+=("$sink_pid")
    local _
    for _ in $(seq 100); do grep -q subscribed "$log.sink.err" && break; sleep 0.05; done
    local publisher_pid
    case $publisher in
        simulate)
            "$motionctl" simulate --devices "$n" --rate "$rate" --services device-motion --detectors off --seconds "$publisher_seconds" \
                --broker "mqtt://127.0.0.1:$port" --prefix "$prefix" --protocol "$protocol" >"$log.publisher" 2>&1 &
            publisher_pid=$! ;;
        generator)
            "$work/capacity-loadgen" --port "$port" --devices "$n" --rate "$rate" --seconds "$publisher_seconds" \
                --prefix "$prefix" --protocol "$protocol" >"$log.publisher" 2>&1 &
            publisher_pid=$! ;;
    esac
    pids+=("$publisher_pid")
    printf 'broker %s\npublisher %s\n' "$broker_pid" "$publisher_pid" >"$work/pids"
    wait "$sink_pid" || true
    local kept=() p
    for p in "${pids[@]}"; do [ "$p" = "$sink_pid" ] || kept+=("$p"); done
    pids=("${kept[@]}")
    stop_process "$publisher_pid" 30
    if $rabbitmq; then
        sleep 3  # the cluster closes the step's thousands of sessions before the next one starts
    else
        stop_process "$broker_pid" 5
    fi

    step_line=$(tail -n 1 "$log.sink")
    if [[ "$step_line" != devices=* ]]; then
        step_line="devices=$n delivered=0 throughput=0 p50_ms=- p99_ms=- max_ms=-"
        echo "run.sh: the sink failed at $publisher N=$n: $(tail -n 2 "$log.sink.err" | tr '\n' ' ')" >&2
    fi
    local delivered throughput p50 p99 maximum broker_cpu publisher_cpu sink_cpu machine_cpu steal_cpu lag=""
    delivered=$(field delivered "$step_line"); throughput=$(field throughput "$step_line")
    p50=$(field p50_ms "$step_line"); p99=$(field p99_ms "$step_line"); maximum=$(field max_ms "$step_line")
    broker_cpu=$(field cpu_broker "$step_line"); publisher_cpu=$(field cpu_publisher "$step_line")
    sink_cpu=$(field cpu_sink "$step_line"); machine_cpu=$(field cpu_machine "$step_line")
    steal_cpu=$(field cpu_steal "$step_line")
    [ "$publisher" = generator ] && lag=$(field lag_p99_ms "$(tail -n 1 "$log.publisher")")
    local verdict
    verdict=$(awk -v d="$delivered" -v t="$throughput" -v p="$p99" -v b="${broker_cpu:--}" -v u="${publisher_cpu:--}" \
        -v s="${sink_cpu:--}" -v m="${machine_cpu:--}" -v lag="$lag" -v cores="$cores" 'BEGIN {
        reason = ""
        if (d + 0 < 99) reason = reason sprintf("delivered %s%% < 99%%; ", d)
        if (p == "-" || p + 0 > 20) reason = reason sprintf("p99 %s ms > 20 ms; ", p)
        if (t + 0 < 98) reason = reason sprintf("throughput %s%% < 98%%; ", t)
        # The generator stamps `ts` when it publishes: a generator behind its schedule by more than the
        # latency budget does not offer the load asked for, whatever the sink measures.
        if (lag != "" && lag + 0 > 20) reason = reason sprintf("generator lag p99 %s ms > 20 ms; ", lag)
        # Head-room: how much more load before the broker (one thread) or the machine saturates.
        ours = b + u + s
        headroom = 4
        if (b != "-" && b + 0 > 0 && 85 / b < headroom) headroom = 85 / b
        if (ours > 0 && 90 * cores / ours < headroom) headroom = 90 * cores / ours
        other = (m == "-") ? "-" : sprintf("%.0f", m - ours < 0 ? 0 : m - ours)
        printf "%s|%.2f|%s|%s\n", (reason == "" ? "pass" : "FAIL"), headroom, other, reason
    }')
    IFS='|' read -r step_result step_headroom step_other step_reason <<<"$verdict"
    step_pass=false
    [ "$step_result" = pass ] && step_pass=true
    [[ "$step_other" =~ ^[0-9]+$ ]] && ((step_other > worst_other)) && worst_other=$step_other
    [[ "${steal_cpu%.*}" =~ ^[0-9]+$ ]] && ((${steal_cpu%.*} > worst_steal)) && worst_steal=${steal_cpu%.*}
    local broker_us publisher_us bytes
    broker_us=$(field user_us_broker "$step_line"); publisher_us=$(field user_us_publisher "$step_line")
    bytes=$(field payload_bytes "$step_line")
    printf '%-10s %6s %9s%% %8s%% %7s %7s %8s %7s %9s %5s %6s %6s %9s %6s %5s  %s\n' "$publisher" "$n" "$delivered" \
        "$throughput" "$p50" "$p99" "$maximum" "${broker_cpu:--}" "${publisher_cpu:--}" "${sink_cpu:--}" "$step_other" \
        "${steal_cpu:--}" "${broker_us:--}" "${publisher_us:--}" "${bytes:--}" "$step_result${step_reason:+ (${step_reason%; })}"
}

# What limited a failed step, from its CPU figures: $1 publisher, $2 the sink's line, $3 the failed criteria.
bottleneck_of() {
    local publisher=$1 line=$2 reason=$3
    awk -v b="$(field cpu_broker "$line")" -v u="$(field cpu_publisher "$line")" -v s="$(field cpu_sink "$line")" \
        -v m="$(field cpu_machine "$line")" -v st="$(field cpu_steal "$line")" -v cores="$cores" -v who="$publisher" \
        -v reason="$reason" -v broker="$broker_name" 'BEGIN {
        ours = b + u + s; other = m - ours; if (other < 0) other = 0
        largest = broker; share = b
        if (u + 0 > share) { largest = "the publisher (" who ")"; share = u }
        if (other > share) { largest = "other processes"; share = other }
        if (broker == "mosquitto" && b + 0 >= 85) what = sprintf("mosquitto, at %.0f%% of one core (it is single-threaded)", b)
        else if (m + 0 >= 75 * cores)
            what = sprintf("the machine'"'"'s %d cores, %.0f%% of %d%% busy (waiting for a core makes the latency " \
                           "tail); the largest share: %s, %.0f%%", cores, m, 100 * cores, largest, share)
        else if (u + 0 >= 85)
            what = sprintf("the publisher (%s), at %.0f%% of one core while the machine was %.0f%% of %d%% busy",
                           who, u, m, 100 * cores)
        else if (reason ~ /generator lag/) what = "the generator, behind its schedule"
        else what = sprintf("no CPU saturated (machine %.0f%% of %d%%): latency or loss, not CPU", m, 100 * cores)
        if (st + 0 > 20) what = what sprintf("; the hypervisor stole %.0f%%", st)
        printf "%s [%s; CPU: broker %.0f%%, publisher %.0f%%, sink %.0f%%, other %.0f%%]", what, reason, b, u, s, other
    }'
}

# Searches the largest passing N for $1 publisher at $2 Hz from $3; sets found (0 when none passed),
# found_note and found_bottleneck.
search() {
    local publisher=$1 rate=$2 n=$3 lo=0 hi=0 hi_line="" hi_reason="" steps=0
    declare -A tried=()
    while :; do
        tried[$n]=1
        steps=$((steps + 1))
        run_step "$publisher" "$rate" "$n"
        # A failure in a window the hypervisor took more than 10 % of a core from says little about the
        # load: the step is repeated, at most twice.
        local again=0
        while ! $step_pass && ((again < 2)) && awk -v st="$(field cpu_steal "$step_line")" 'BEGIN { exit !(st + 0 > 10) }'; do
            again=$((again + 1))
            echo "           (steal $(field cpu_steal "$step_line") % in that window: repeated)"
            run_step "$publisher" "$rate" "$n"
        done
        if $step_pass; then
            lo=$n
        else
            hi=$n; hi_line=$step_line; hi_reason=${step_reason%; }
        fi
        local next
        if ((hi == 0)); then
            ((lo >= max)) && break
            next=$(awk -v n="$n" -v h="$step_headroom" 'BEGIN {
                f = 0.9 * h; f = f < 1.25 ? 1.25 : f > 4 ? 4 : f; printf "%d", n * f + 0.5 }')
            ((next > max)) && next=$max
        elif ((lo == 0)); then
            ((n <= 1)) && break
            next=$((n / 2))
        else
            awk -v lo="$lo" -v hi="$hi" -v p="$precision" 'BEGIN { exit !(hi <= lo * (1 + p) || hi - lo <= 1) }' && break
            next=$(awk -v lo="$lo" -v hi="$hi" 'BEGIN { printf "%d", sqrt(lo * hi) + 0.5 }')
            ((next <= lo)) && next=$((lo + 1))
            ((next >= hi)) && next=$((hi - 1))
        fi
        [ -n "${tried[$next]:-}" ] && break
        ((steps >= max_steps)) && break
        n=$next
    done
    found=$lo
    if ((hi == 0 && lo < max)); then
        found_note=">=$lo (step limit)"
        found_bottleneck="not reached up to N=$lo"
    elif ((hi == 0)); then
        found_note=">=$lo (--max)"
        found_bottleneck="not reached up to N=$lo"
    else
        found_note="=$lo (fails at $hi)"
        found_bottleneck="at N=$hi: $(bottleneck_of "$publisher" "$hi_line" "$hi_reason")"
    fi
}

if $rabbitmq; then
    broker_name="RabbitMQ node 1"
    echo "MotionBridge capacity: a two-node RabbitMQ cluster ($(dpkg-query -W -f='${Version}' rabbitmq-server 2>/dev/null), MQTT 3.1.1;" \
        "publishers on node 1, the sink on node 2), device-motion QoS 0, one connection per device; $cores cores;" \
        "$seconds s windows after $warmup s warm-up"
else
    broker_name=mosquitto
    echo "MotionBridge capacity: one mosquitto ($(/usr/sbin/mosquitto -h 2>/dev/null | sed -n '1s/.*version \([^ ]*\).*/\1/p'))," \
        "device-motion QoS 0, one connection per device; $cores cores; $seconds s windows after $warmup s warm-up"
fi
echo "pass: delivered >= 99 %, p99 latency <= 20 ms, throughput >= 98 % of N x rate; CPU in % of one core"
echo "(other: the rest of the machine; steal: taken by the hypervisor; both should be near 0 for real figures;"
echo " broker_us, pub_us: the broker's and the publisher's user time per message received, µs; bytes: mean payload)"
worst_other=0
worst_steal=0
summary=()
bottlenecks=()
previous_rate=""
declare -A result_simulate=() result_generator=()
for rate in $rates; do
    echo
    echo "$rate Hz"
    printf '%-10s %6s %10s %9s %7s %7s %8s %7s %9s %5s %6s %6s %9s %6s %5s  %s\n' publisher N delivered throughput p50_ms \
        p99_ms max_ms broker publisher sink other steal broker_us pub_us bytes result
    for publisher in simulate generator; do
        first=$start
        if [ -n "$previous_rate" ]; then
            before=${result_generator[$previous_rate]}
            [ "$publisher" = simulate ] && before=${result_simulate[$previous_rate]}
            ((before > 0)) && first=$(( before * previous_rate / rate ))
            ((first < 1)) && first=1
            ((first > max)) && first=$max
        fi
        search "$publisher" "$rate" "$first"
        if [ "$publisher" = simulate ]; then
            result_simulate[$rate]=$found; simulate_note=$found_note
        else
            result_generator[$rate]=$found; generator_note=$found_note
        fi
        bottlenecks+=("$rate Hz $publisher: $found_bottleneck")
    done
    ratio=$(awk -v s="${result_simulate[$rate]}" -v g="${result_generator[$rate]}" -v sn="$simulate_note" \
        -v gn="$generator_note" 'BEGIN {
        # A bound (N>=…, the search stopped without a failure) makes the ratio a bound too.
        if (g == 0 || (sn ~ />=/ && gn ~ />=/)) print "-"
        else printf "%s%.2f", (gn ~ />=/ ? "<=" : sn ~ />=/ ? ">=" : ""), s / g }')
    summary+=("$rate Hz: simulate N$simulate_note, C generator N$generator_note, simulate / generator $ratio (goal >= 0.9)")
    previous_rate=$rate
done
echo
printf '%s\n' "${summary[@]}"
printf 'bottleneck, %s\n' "${bottlenecks[@]}"
if ((worst_other > 20 || worst_steal > 20)); then
    echo "warning: during some windows other processes used up to $worst_other % and the hypervisor stole up to" \
        "$worst_steal % of one core: these figures are disturbed"
fi
