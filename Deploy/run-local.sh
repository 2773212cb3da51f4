#!/usr/bin/env bash
# The demo: installs what is missing, builds, starts a private mosquitto on a free loopback port, runs
# motion-agent on the simulated IMU, and shows the live data with `motionctl watch` until Ctrl-C; then
# stops everything it started. Logs go to run/ in the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
source Deploy/install-deps.sh

swift build -c release
bin=$(swift build -c release --show-bin-path)

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=${MOTIONBRIDGE_PORT:-18830}
while port_in_use "$port"; do port=$((port + 1)); done

mkdir -p run
cat > run/mosquitto.conf <<CONF
listener $port 127.0.0.1
allow_anonymous true
set_tcp_nodelay true
persistence false
log_dest stdout
CONF

pids=()
cleanup() {
    trap - EXIT INT TERM
    # Newest first: the agent publishes `offline` and disconnects while the broker still runs.
    for pid in "${pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    echo "stopped the agent and the broker (logs in run/)"
}
trap cleanup EXIT
trap 'exit 0' INT TERM

# Own sessions (setsid): Ctrl-C in the terminal reaches only motionctl; cleanup then stops the agent
# (which publishes `offline` and disconnects cleanly) before the broker.
setsid /usr/sbin/mosquitto -c run/mosquitto.conf >run/mosquitto.log 2>&1 &
pids=($! "${pids[@]}")
for _ in $(seq 50); do port_in_use "$port" && break; sleep 0.1; done
port_in_use "$port" || { echo "mosquitto did not start; see run/mosquitto.log" >&2; exit 1; }

broker="mqtt://127.0.0.1:$port"
setsid "$bin/motion-agent" --config Config/agent.json --broker "$broker" --device sim --id demo 2>run/motion-agent.log &
pids=($! "${pids[@]}")

echo "broker $broker; agent log run/motion-agent.log; try: $bin/motionctl set demo gyro stop --broker $broker"
sleep 1
"$bin/motionctl" watch --broker "$broker" || true
