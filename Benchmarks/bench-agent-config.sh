#!/usr/bin/env bash
# Prints the agent configuration `motion-bench all` uses (the four sensor services at 100 Hz, QoS 0, steps,
# activity, altitude and vibration off, the rest at its defaults), for the stage accounts to run the agent
# exactly as the benchmark does.
#
#   Benchmarks/bench-agent-config.sh PORT [DEVICE]      (DEVICE: sim:rate=1000 by default)
set -euo pipefail
usage() { sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  "") usage >&2; exit 64 ;;
esac
port=$1
device=${2:-sim:rate=1000}
services=""
for service in accelerometer gyro magnetometer device-motion; do
  services+="\"$service\": {\"enabled\": true, \"rate_hz\": 100, \"qos\": 0}, "
done
services+='"steps": {"enabled": false}, "activity": {"enabled": false}, "altitude": {"enabled": false}, "vibration": {"enabled": false}'
cat <<JSON
{"device_id": "bench", "topic_prefix": "motion", "device": "$device", "broker": {"url": "mqtt://127.0.0.1:$port"},
 "services": {$services}}
JSON
