#!/usr/bin/env bash
# Remakes Deploy/motion-agent.order, the order in which Deploy/build-release.sh lays out the functions
# of the deployed agent: every function of the executable that the agent runs, hottest first, so that
# they share as few pages as possible. Builds the deployed agent, starts a private mosquitto on a free
# loopback port and runs the agent under valgrind's callgrind (which records every function executed,
# not a sample) for SECONDS (default 40) on the simulated IMU with the benchmark's configuration
# (`motion-bench agent`: the four services at 100 Hz, QoS 0) and a health report every 2 s, then lists
# the executable's functions by the instructions they executed. Run it after changes to the agent's
# steady-state path, then Benchmarks/run.sh to see the resident memory.
#
#   Deploy/make-order-file.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
source Deploy/install-deps.sh
command -v valgrind >/dev/null || { echo "make-order-file: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
seconds=${1:-40}
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "usage: Deploy/make-order-file.sh [SECONDS]" >&2; exit 64; }

agent=$(Deploy/build-release.sh)
work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=18900
while port_in_use "$port"; do port=$((port + 1)); done
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port" >"$work/mosquitto.conf"
[ "$(id -u)" -eq 0 ] && echo "user root" >>"$work/mosquitto.conf"
/usr/sbin/mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do port_in_use "$port" && break; sleep 0.1; done

services=""
for service in accelerometer gyro magnetometer device-motion; do
    services+="${services:+, }\"$service\": {\"enabled\": true, \"rate_hz\": 100, \"qos\": 0}"
done
cat >"$work/agent.json" <<JSON
{"device_id": "order", "topic_prefix": "motion", "device": "sim:rate=1000", "health_interval": 2,
 "broker": {"url": "mqtt://127.0.0.1:$port"}, "services": {$services}}
JSON

# Valgrind 3.19 (Debian 12) gives up on the DWARF 5 the Swift 6.3 toolchain writes ("unhandled dwarf2
# abbrev form code 0x25", then "possibly corrupted debuginfo file"), in motion-agent.debug as in the
# unstripped build. Callgrind needs only the symbol table: it profiles the unstripped executable (beside
# the deployed one, in SwiftPM's release directory) without its debug sections. The code is the same
# bytes at the same addresses as the deployed agent's.
profiled="$work/motion-agent"
objcopy --strip-debug "$(dirname "$agent")/../release/motion-agent" "$profiled"

echo "make-order-file: profiling the agent for $seconds s" >&2
# The agent stops cleanly on SIGINT, so callgrind writes its profile at exit.
timeout -s INT "$seconds" valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind.out" \
    "$profiled" --config "$work/agent.json" >"$work/agent.log" 2>&1 || true
[ -s "$work/callgrind.out" ] || { cat "$work/agent.log" >&2; echo "make-order-file: no profile" >&2; exit 1; }

# Names defined more than once (local functions of the same name in several objects, such as a value
# witness of Optional) are left out: lld would move every section holding one, including a library's
# one-section objects that are otherwise cold, into the middle of the hot code.
nm --defined-only "$agent.debug" | awk '{ count[$3]++ } END { for (name in count) if (count[name] > 1) print name }' \
    >"$work/ambiguous"
# callgrind_annotate lists `COST FILE:FUNCTION [OBJECT]`, highest self cost first.
{
    echo "# Functions of motion-agent in the order Deploy/build-release.sh lays them out: those the agent"
    echo "# ran in $seconds s under callgrind on sim:rate=1000, four services at 100 Hz, hottest first."
    echo "# Made by Deploy/make-order-file.sh on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD)."
    callgrind_annotate --auto=no --threshold=100 --inclusive=no --show-percs=no "$work/callgrind.out" 2>/dev/null |
        awk -v object="[$profiled]" -v ambiguous_file="$work/ambiguous" '
        BEGIN { while ((getline line < ambiguous_file) > 0) ambiguous[line] = 1 }
        $NF == object && $1 ~ /^[0-9,]+$/ {
            name = $2; sub(/^[^:]*:/, "", name)
            sub(/\x27[0-9]+$/, "", name)    # valgrind calls a second function of a name NAME, an apostrophe, 2
            if (name !~ /^0x/ && !(name in ambiguous) && !seen[name]++) print name
        }'
} >Deploy/motion-agent.order.tmp
mv Deploy/motion-agent.order.tmp Deploy/motion-agent.order
echo "make-order-file: $(grep -cv '^#' Deploy/motion-agent.order || true) functions in Deploy/motion-agent.order" >&2
