#!/usr/bin/env bash
# The fusion robustness battery (issue 32): every BROAD trial as another rate, magnetometer scale,
# mounting, sensor noise, magnetometer timing and hard-iron residual would have recorded it
# (`motion-bench broad-variants`, IMURecordingVariant), scored for MotionBridge's filter (default
# settings, causal) and VQF 2.1.2 (defaults, causal) on the very same files. Prints one row per
# variant: the mean over the trials of the 9-axis total, heading and inclination RMSE and the 6-axis
# inclination, degrees, for both; then the hard-iron residual's mean over its six directions. Last, two
# sets of synthetic trials with known truth (synthetic_trials.py: translation along each axis at 0.5-2 Hz,
# 7-9 m/s² rms; steady turns about the vertical with and without 1 % gyroscope scale errors).
#
#   Benchmarks/broad/battery.sh [DATA_DIR] [SCRATCH_DIR]   # defaults ../shared/data/broad, a temporary one
#
# The variants take about 1.2 GB of CSV in SCRATCH_DIR (removed at the end when it is a temporary one).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=Benchmarks/broad/scratch-setup.sh
source Benchmarks/broad/scratch-setup.sh

echo "battery: writing the variants into $scratch" >&2
"$bench" broad-variants "$data" --out "$scratch/variants" >"$scratch/directories"
# Synthetic trials with known truth: motions and gyroscope errors BROAD does not have.
for set in translation spin; do
    "$python" Benchmarks/broad/synthetic_trials.py "$scratch/variants/synthetic-$set" --set "$set"
    echo "$scratch/variants/synthetic-$set" >>"$scratch/directories"
done
{ echo "$data"; cat "$scratch/directories"; } | while read -r directory; do
    name=$(basename "$directory")
    [ "$directory" = "$data" ] && name=original
    echo "battery: scoring $name" >&2
    "$bench" broad "$directory" --json >"$scratch/$name.ours.json"
    "$python" Benchmarks/broad/vqf_reference.py --data "$directory" --no-timing --json | sed -n '/^{/,$p' >"$scratch/$name.vqf.json"
    echo "$name"
done >"$scratch/names"
"$python" Benchmarks/broad/battery_table.py "$scratch" <"$scratch/names"
