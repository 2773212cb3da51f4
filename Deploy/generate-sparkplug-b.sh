#!/usr/bin/env bash
# Generates the C code of the Sparkplug B payload (Sources/CSparkplugB) from schemas/sparkplug_b.proto with
# protoc-c (Debian's protobuf-c-compiler). The output is checked in, so a build needs only libprotobuf-c;
# SparkplugSchemaTests runs this into a temporary directory and compares.
#   Deploy/generate-sparkplug-b.sh [output directory]   (default: Sources/CSparkplugB)
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
out="${1:-Sources/CSparkplugB}"
command -v protoc-c >/dev/null || { echo "generate-sparkplug-b: protoc-c is missing (apt install protobuf-c-compiler)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
protoc-c --proto_path=schemas --c_out="$work" schemas/sparkplug_b.proto
mkdir -p "$out/include"
cp "$work/sparkplug_b.pb-c.c" "$out/sparkplug_b.pb-c.c"
cp "$work/sparkplug_b.pb-c.h" "$out/include/sparkplug_b.pb-c.h"
