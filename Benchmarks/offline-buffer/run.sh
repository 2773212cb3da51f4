#!/usr/bin/env bash
# The cost of the durable offline buffer: the deployed agent (Deploy/build-release.sh) publishing the gyro
# alone at 100 Hz QoS 1 while its broker is unreachable (every message goes to the offline buffer), once
# with the buffer in memory and once with broker.offline_buffer.path, side by side: CPU (of one core),
# resident memory, bytes the process wrote to storage and its write calls per second (/proc/PID/io), and,
# for the durable run, the fsync calls per second (strace, attached for a separate window) and the file's
# size. Nothing is written outside a temporary directory (on disk, not tmpfs: TMPDIR decides).
#
#   Benchmarks/offline-buffer/run.sh [--seconds S] [--commit-interval S]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=20
interval=0.1
while (($#)); do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --commit-interval) interval="$2"; shift 2 ;;
        -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 64 ;;
    esac
done
agent=$(Deploy/build-release.sh)
work=$(mktemp -d "${TMPDIR:-/var/tmp}/motionbridge-buffer.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
ticks=$(getconf CLK_TCK)

# $1 name, $2 extra offline_buffer fields
measure() {
    local name=$1 extra=$2
    cat >"$work/$name.json" <<JSON
{"device_id":"bench-$name","health_interval":0,
 "services":{"gyro":{"rate_hz":100,"qos":1},"accelerometer":{"enabled":false},"magnetometer":{"enabled":false},
             "device-motion":{"enabled":false}},
 "broker":{"url":"mqtt://127.0.0.1:1","reconnect":{"min_delay":60,"max_delay":60},
           "offline_buffer":{"max_messages":100000,"max_bytes":67108864$extra}}}
JSON
    "$agent" --config "$work/$name.json" 2>"$work/$name.log" &
    local pid=$!
    sleep 3  # started, buffering
    read -r _ _ _ _ _ _ _ _ _ _ _ _ _ utime0 stime0 _ < "/proc/$pid/stat"
    local bytes0 calls0
    bytes0=$(awk '/^write_bytes/ {print $2}' "/proc/$pid/io"); calls0=$(awk '/^syscw/ {print $2}' "/proc/$pid/io")
    sleep "$seconds"
    read -r _ _ _ _ _ _ _ _ _ _ _ _ _ utime1 stime1 _ < "/proc/$pid/stat"
    local bytes1 calls1 rss
    bytes1=$(awk '/^write_bytes/ {print $2}' "/proc/$pid/io"); calls1=$(awk '/^syscw/ {print $2}' "/proc/$pid/io")
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
    local fsyncs="-"
    if [ -n "$extra" ] && command -v strace >/dev/null; then
        timeout 10 strace -f -c -e trace=fsync,fdatasync -p "$pid" -o "$work/$name.strace" 2>/dev/null || true
        fsyncs=$(awk '/fsync|fdatasync/ {n += $4} END {printf "%.1f", n / 10}' "$work/$name.strace")
    fi
    kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
    local size="-"
    [ -f "$work/$name.db" ] && size="$(( $(stat -c %s "$work/$name.db") / 1024 )) kB"
    awk -v name="$name" -v ticks="$ticks" -v s="$seconds" -v cpu=$((utime1 + stime1 - utime0 - stime0)) \
        -v bytes=$((bytes1 - bytes0)) -v calls=$((calls1 - calls0)) -v rss="$rss" -v fsyncs="$fsyncs" -v size="$size" \
        'BEGIN { printf "%-10s %6.2f %%  %6.1f MB  %9.1f kB/s  %7.1f/s  %8s/s  %s\n", name, 100 * cpu / ticks / s, rss / 1024, bytes / 1024 / s, calls / s, fsyncs, size }'
}

echo "100 Hz QoS 1 into the offline buffer (broker unreachable), $seconds s, commit interval $interval s:"
echo "buffer       CPU     resident   storage writes   write calls   fsyncs   file"
measure memory ""
measure durable ",\"path\":\"$work/durable.db\",\"commit_interval\":$interval"
