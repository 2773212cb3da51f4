#!/usr/bin/env bash
# What the on-board motion detectors cost: motion-agent (release) on the same simulated device with the
# default services, with `detectors` on and then off, twice each, against a private mosquitto on a free
# loopback port; prints the CPU (user + system, % of one core) and resident memory of each run.
#
#   Benchmarks/detector-cost.sh [--seconds S] [--device SPEC]     (defaults: 20, sim:rate=1000)
#
# Needs `swift build -c release --product motion-agent` first (or AGENT=PATH) and mosquitto.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=20
device=sim:rate=1000
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --seconds) seconds=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    *) echo "detector-cost.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
agent=${AGENT:-.build/release/motion-agent}
[ -x "$agent" ] || { echo "detector-cost.sh: build $agent first: swift build -c release --product motion-agent" >&2; exit 1; }
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mosquitto -p "$port" >"$work/mosquitto.log" 2>&1 &
broker=$!
trap 'kill $broker 2>/dev/null; rm -rf "$work"' EXIT
sleep 0.5
ticks=$(getconf CLK_TCK)
echo "device $device, default services, ${seconds} s a run (after 3 s of warm-up)"
for run in on off on off; do
  if [ $run = on ]; then echo '{}' >"$work/agent.json"; else echo '{"detectors":{"enabled":false}}' >"$work/agent.json"; fi
  "$agent" --config "$work/agent.json" --broker "mqtt://127.0.0.1:$port" --id "cost-$run" --device "$device" >/dev/null 2>&1 &
  pid=$!
  sleep 3
  before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  sleep "$seconds"
  after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
  awk -v a="$before" -v b="$after" -v t="$ticks" -v s="$seconds" -v r="$run" -v m="$rss" \
    'BEGIN { printf "detectors %-3s  CPU %5.2f %% of one core  RSS %5.1f MB\n", r, (b - a) / t / s * 100, m / 1024 }'
done
