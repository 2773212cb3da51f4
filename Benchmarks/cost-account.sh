#!/usr/bin/env bash
# Where motion-agent's CPU goes, stage by stage: the agent (release build, with its symbols) in the
# configuration of `motion-bench all` (a simulated IMU at 1 kHz, four topics at 100 Hz, QoS 0, the rest
# default) against a private mosquitto on a free loopback port. After a warm-up it measures the agent's
# CPU (user + system, from /proc) and the messages it publishes for S seconds, then profiles it for S
# seconds more with `perf record` (cpu-clock samples with call chains: this machine has no hardware
# counters, so the account is of time, not instructions), and Benchmarks/cost-account.py attributes each
# profile sample to a stage: its share, % of one core, and µs per device sample and per message.
#
#   Benchmarks/cost-account.sh [--seconds S] [--device SPEC] [--keep DIR]     (defaults: 20, sim:rate=1000)
#
# --keep DIR leaves the profile (perf.data) and the agent's log there. Needs perf (linux-perf), mosquitto
# and mosquitto_sub; builds `motion-agent` in release mode unless AGENT=PATH names one with symbols.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=20
device=sim:rate=1000
keep=
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --seconds) seconds=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "cost-account.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
command -v perf >/dev/null || { echo "cost-account.sh: needs perf (apt-get install linux-perf)" >&2; exit 1; }
if [ -z "${AGENT:-}" ]; then
  swift build -c release --product motion-agent >&2
  agent=$(swift build -c release --show-bin-path)/motion-agent
else
  agent=$AGENT
fi
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mosquitto -p "$port" >"$work/mosquitto.log" 2>&1 &
broker=$!
agent_pid=
cleanup() {
  [ -n "$agent_pid" ] && kill "$agent_pid" 2>/dev/null
  kill "$broker" 2>/dev/null
  if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$work"/perf.data "$work"/agent.log "$keep"/ 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT
sleep 0.5

# The configuration `motion-bench all` gives the agent.
Benchmarks/bench-agent-config.sh "$port" "$device" >"$work/agent.json"
"$agent" --config "$work/agent.json" >"$work/agent.log" 2>&1 &
agent_pid=$!
sleep 5
kill -0 "$agent_pid" 2>/dev/null || { cat "$work/agent.log" >&2; echo "cost-account.sh: the agent did not start" >&2; exit 1; }

# Without the profiler: the agent's CPU and the messages it publishes.
ticks=$(getconf CLK_TCK)
timeout "$seconds" mosquitto_sub -p "$port" -t motion/bench/accelerometer -t motion/bench/gyro -t motion/bench/magnetometer \
  -t motion/bench/device-motion >"$work/messages" 2>/dev/null &
counter=$!
before=$(awk '{print $14 + $15}' "/proc/$agent_pid/stat")
sleep "$seconds"
after=$(awk '{print $14 + $15}' "/proc/$agent_pid/stat")
wait "$counter" || true
messages=$(wc -l <"$work/messages")
cpu=$(awk -v a="$before" -v b="$after" -v t="$ticks" -v s="$seconds" 'BEGIN { printf "%.3f", (b - a) / t / s * 100 }')
rate=$(awk -v m="$messages" -v s="$seconds" 'BEGIN { printf "%.1f", m / s }')
# The device's rate as the agent's `info` states it (sim: exactly the configured rate).
samples=$(mosquitto_sub -p "$port" -t motion/bench/info -C 1 -W 5 | python3 -c \
  'import json, sys; info = json.load(sys.stdin); print(info["device"]["sample_rate_hz"])')

perf record -q -F 10000 -e cpu-clock -g -p "$agent_pid" -o "$work/perf.data" -- sleep "$seconds" >/dev/null 2>&1
echo "motion-agent, $device, 4 topics at 100 Hz, QoS 0: CPU ${cpu}% of one core (${seconds} s, /proc), ${rate} messages/s, ${samples} samples/s"
echo "profile: perf record -F 10000 -e cpu-clock -g, ${seconds} s; each stage's share of the profile applied to the CPU above"
echo
perf script -i "$work/perf.data" -F ip,sym,dso 2>/dev/null \
  | python3 Benchmarks/cost-account.py --cpu-percent "$cpu" --samples-per-second "$samples" --messages-per-second "$rate"
