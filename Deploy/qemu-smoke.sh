#!/usr/bin/env bash
# Deploy/qemu-smoke.sh: the packaged arm64 agent, run under qemu-aarch64-static against a real mosquitto
# on a free loopback port: what a board's operator would see. Checks, with mosquitto_sub/mosquitto_pub:
#   - the retained `online` status, `info` (naming the agent's version and the simulated IMU) and every
#     service's retained status;
#   - data at the configured rates (50/50/20/50 Hz for accelerometer/gyro/magnetometer/device-motion by
#     default) over 5 s, within 10 % (the agent under emulation, on a loaded machine);
#   - the simulator's drop (`sim:motion=drop`, one from 1 m every 10 s): a free_fall and an impact event;
#   - a `stop` and a `start` command with an MQTT 5 response topic, each answered {"ok":true} with its
#     correlation data and followed by the service's status;
#   - SIGTERM: exit 0, and the retained status `offline`.
# Prints one line per check and a last line `qemu-smoke: N checks passed`; exit 1 at the first failure.
#
# usage: Deploy/qemu-smoke.sh DEB [SYSROOT]
#   DEB      motion-agent_VERSION_arm64.deb (Deploy/package.sh --arch arm64)
#   SYSROOT  qemu's -L, the arm64 runtime root (default: the last line of Deploy/cross-sdk.sh)
set -euo pipefail
case "${1:-}" in ""|-h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; [ -n "${1:-}" ]; exit $? ;; esac
deb=$1
here=$(cd "$(dirname "$0")" && pwd)
sysroot=${2:-$("$here/cross-sdk.sh" | tail -n 1)}
for tool in qemu-aarch64-static mosquitto mosquitto_sub mosquitto_pub dpkg-deb python3; do
    command -v "$tool" >/dev/null || { echo "qemu-smoke: $tool is missing" >&2; exit 69; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/qemu-smoke.XXXXXX")
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
checks=0
pass() { echo "qemu-smoke: ok: $*"; checks=$((checks + 1)); }
fail() { echo "qemu-smoke: FAILED: $*" >&2; [ -f "$work/agent.log" ] && tail -20 "$work/agent.log" >&2; exit 1; }

dpkg-deb -x "$deb" "$work/root"
agent="$work/root/usr/bin/motion-agent"
file_type=$(od -An -tx1 -j18 -N2 "$agent" | tr -d ' ')
[ "$file_type" = "b700" ] || fail "$agent is not an aarch64 executable (e_machine $file_type)"
pass "the package holds an aarch64 motion-agent ($(du -k "$agent" | cut -f1) kB)"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'listener %s 127.0.0.1\nallow_anonymous true\n' "$port" > "$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" > "$work/broker.log" 2>&1 & pids+=($!)
for _ in $(seq 50); do mosquitto_sub -p "$port" -t x -W 1 -C 1 -E >/dev/null 2>&1 && break; sleep 0.1; done

id=arm-smoke
base="motion/$id"
# Started directly, not through a shell function: `$!` of a backgrounded function is its subshell's, and
# killing that left the subscriber reconnecting to the stopped broker for ever.
mosquitto_sub -V mqttv5 -p "$port" -t "$base/#" -F '%t %p' > "$work/all.log" 2>/dev/null & pids+=($!)
sleep 0.5
qemu-aarch64-static -L "$sysroot" "$agent" --device sim:motion=drop --id "$id" --broker "mqtt://127.0.0.1:$port" \
    > "$work/agent.out" 2> "$work/agent.log" & agent_pid=$!

wait_for() {  # wait_for SECONDS PATTERN: a line of all.log matching the extended regex
    local deadline=$((SECONDS + $1))
    while ((SECONDS < deadline)); do grep -qE "$2" "$work/all.log" && return 0; sleep 0.2; done
    return 1
}
wait_for 30 "^$base/status online$" || fail "no retained status online within 30 s"
pass "status online"
wait_for 10 "^$base/info .*\"version\"" || fail "no info"
grep -E "^$base/info " "$work/all.log" | grep -q "simulated" || fail "info does not name the simulated IMU"
pass "info: $(grep -E "^$base/info " "$work/all.log" | head -1 | grep -oE '"version":"[^"]*"')"
for service in accelerometer gyro magnetometer device-motion; do
    wait_for 10 "^$base/$service/status \{.*\"active\":true" || fail "no active status for $service"
done
pass "every sensor service's status is active"

# Rates over 5 s, counted by a second subscriber once everything runs.
timeout 5 mosquitto_sub -p "$port" -t "$base/accelerometer" -t "$base/gyro" -t "$base/magnetometer" -t "$base/device-motion" \
    -F '%t' > "$work/rates.log" 2>/dev/null || true
rates=
for entry in accelerometer:50 gyro:50 magnetometer:20 device-motion:50; do
    service=${entry%%:*} rate=${entry##*:}
    count=$(grep -cx "$base/$service" "$work/rates.log" || true)
    expected=$((rate * 5))
    ((count * 10 >= expected * 9 && count * 10 <= expected * 11)) || fail "$service: $count messages in 5 s, expected $expected ± 10 %"
    rates+="$service $count/$expected  "
done
pass "rates over 5 s: $rates"

wait_for 25 "^$base/events .*\"type\":\"free_fall\"" || fail "no free_fall event within 25 s"
wait_for 5 "^$base/events .*\"type\":\"impact\"" || fail "no impact event after the free fall"
pass "events: $(grep -E "^$base/events " "$work/all.log" | grep -oE '"type":"[a-z_]*"' | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"

# Commands with an MQTT 5 response topic and correlation data.
replies="replies/$id"
mosquitto_sub -V mqttv5 -p "$port" -t "$replies" -F '%p %D' > "$work/replies.log" 2>/dev/null & pids+=($!)
sleep 0.5
for command in stop start; do
    mosquitto_pub -V mqttv5 -p "$port" -q 1 -t "$base/gyro/set" -m "$command" \
        -D publish response-topic "$replies" -D publish correlation-data "$command-1"
    deadline=$((SECONDS + 15))
    until grep -qx "{\"ok\":true} $command-1" "$work/replies.log" 2>/dev/null; do
        ((SECONDS < deadline)) || fail "no answer {\"ok\":true} with correlation data $command-1 within 15 s: $(cat "$work/replies.log")"
        sleep 0.2
    done
    active=$([ "$command" = stop ] && echo false || echo true)
    wait_for 10 "^$base/gyro/status \{.*\"active\":$active" || fail "gyro status after $command is not active:$active"
done
pass "stop and start answered {\"ok\":true} on the response topic, statuses followed"

kill -TERM "$agent_pid"
status=0
wait "$agent_pid" || status=$?
((status == 0)) || fail "SIGTERM: exit status $status"
sleep 0.5
[ "$(mosquitto_sub -p "$port" -t "$base/status" -C 1 -W 5 2>/dev/null)" = offline ] || fail "the retained status is not offline after SIGTERM"
pass "SIGTERM: exit 0, retained status offline"
echo "qemu-smoke: $checks checks passed"
