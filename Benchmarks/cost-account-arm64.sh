#!/usr/bin/env bash
# The stage account of the arm64 agent, in emulated instructions: the agent as it ships for a 64-bit ARM
# board (Deploy/build-release.sh --arch arm64: release, static Swift runtime, Debian 13's libraries) runs
# under qemu-aarch64 in the configuration of `motion-bench all` (a simulated IMU at 1 kHz, four topics at
# 100 Hz, QoS 0, the rest default) against a private mosquitto on a free loopback port, with the TCG
# plugin Benchmarks/qemu-insn/insn-count.c counting the guest instructions of every translated block.
# After a warm-up the plugin counts for S seconds; Benchmarks/qemu-insn/account.py gives each block to the
# function it lies in (the executable's symbols from motion-agent.debug, the libraries' dynamic symbols)
# and each function to a stage with the rules of Benchmarks/cost-account.py, and prints instructions per
# device sample and per message by stage, and the heaviest functions.
#
#   Benchmarks/cost-account-arm64.sh [--seconds S] [--warmup W] [--keep DIR]     (defaults: 20, 15)
#
# These are EMULATED figures: guest instructions counted by qemu, not cycles or time on a board, and
# without the kernel's share (system calls run on the host). A block is counted under the function it
# starts in, so the Swift runtime's and libc's work (retain and release, allocation, copies, libm) shows
# under their own lines instead of the caller's. Needs the dynamic qemu-aarch64 of Debian's qemu-user
# (the static qemu-user-static has no plugin support; installed without its binfmt part when missing),
# gcc, mosquitto and readelf; builds the arm64 agent (and, once, the toolchain of Deploy/cross-sdk.sh).
# --keep DIR leaves the counts, the agent's log and the symbol tables there.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=20
warmup=15
keep=
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "cost-account-arm64.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
if ! [ -x /usr/bin/qemu-aarch64 ]; then
  # qemu-user alone: its binfmt registration (qemu-user-binfmt) would conflict with qemu-user-static's.
  echo "cost-account-arm64.sh: installing qemu-user (for qemu-aarch64 with plugins)" >&2
  if [ "$(id -u)" -eq 0 ]; then apt-get install -y -q --no-install-recommends qemu-user >&2
  else sudo apt-get install -y -q --no-install-recommends qemu-user >&2; fi
fi
for tool in gcc mosquitto mosquitto_sub readelf python3; do
  command -v "$tool" >/dev/null || { echo "cost-account-arm64.sh: $tool is missing" >&2; exit 69; }
done

sysroot=$(Deploy/cross-sdk.sh | tail -n 1)
agent=$(Deploy/build-release.sh --arch arm64 | tail -n 1)
[ -f "$agent.debug" ] || { echo "cost-account-arm64.sh: $agent.debug is missing" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/cost-account-arm64.XXXXXX")
broker=
agent_pid=
cleanup() {
  [ -n "$agent_pid" ] && kill "$agent_pid" 2>/dev/null
  [ -n "$broker" ] && kill "$broker" 2>/dev/null
  wait 2>/dev/null
  if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$work"/counts "$work"/agent.log "$keep"/ 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT
gcc -O2 -Wall -Wextra -shared -fPIC -o "$work/libinsn-count.so" Benchmarks/qemu-insn/insn-count.c

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mosquitto -p "$port" >"$work/mosquitto.log" 2>&1 &
broker=$!
for _ in $(seq 50); do mosquitto_sub -p "$port" -t x -W 1 -C 1 -E >/dev/null 2>&1 && break; sleep 0.1; done

# The configuration `motion-bench all` gives the agent.
Benchmarks/bench-agent-config.sh "$port" >"$work/agent.json"
to=$(awk -v w="$warmup" -v s="$seconds" 'BEGIN { print w + s }')
/usr/bin/qemu-aarch64 -L "$sysroot" -plugin "$work/libinsn-count.so,out=$work/counts,from=$warmup,to=$to" \
  "$agent" --config "$work/agent.json" >"$work/agent.log" 2>&1 &
agent_pid=$!
sleep "$warmup"
kill -0 "$agent_pid" 2>/dev/null || { cat "$work/agent.log" >&2; echo "cost-account-arm64.sh: the agent did not start" >&2; exit 1; }
# The messages published in the plugin's window (started with it, give or take the time to start a process).
timeout "$seconds" mosquitto_sub -p "$port" -t motion/bench/accelerometer -t motion/bench/gyro -t motion/bench/magnetometer \
  -t motion/bench/device-motion >"$work/messages" 2>/dev/null || true
sleep 1
kill -TERM "$agent_pid"
wait "$agent_pid" || true
agent_pid=
[ -s "$work/counts" ] || { tail -5 "$work/agent.log" >&2; echo "cost-account-arm64.sh: no counts written" >&2; exit 1; }
messages=$(wc -l <"$work/messages")
echo "motion-agent (arm64, $(basename "$sysroot"), emulated by qemu-aarch64 $(/usr/bin/qemu-aarch64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')), sim:rate=1000," \
  "4 topics at 100 Hz, QoS 0: $messages messages in the ${seconds} s window"
echo "EMULATED: guest instructions counted by a qemu plugin (no kernel, no cycles); each block counted in the function it starts in"
echo
python3 Benchmarks/qemu-insn/account.py --counts "$work/counts" --executable "$agent" --symbols "$agent.debug" \
  --seconds "$seconds" --samples-per-second 1000 --messages "$messages"
