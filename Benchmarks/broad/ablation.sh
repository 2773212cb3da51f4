#!/usr/bin/env bash
# What each of MotionBridge's departures from VQF's settings buys (issue 32): the filter run with VQF's
# settings where ours has a counterpart (τm 9 s, bias limit 2 °/s, no scale estimate; the disturbance
# thresholds are VQF's 10 % / 10° in both), then with ours put back one at a time, and ours with each taken away, through
# `motion-bench broad --set`. Scored on BROAD, on the battery's variants that differ most (100 Hz, 50 Hz,
# the six 2 µT hard-iron residuals) and on the synthetic trials. Prints the mean 9-axis total RMSE,
# degrees (6-axis inclination for BROAD too). What settings cannot switch off (the disturbance rule, the
# averages at rest and of the first heading, the noise floors) is in docs/FUSION.md.
#
#   Benchmarks/broad/ablation.sh [DATA_DIR] [SCRATCH_DIR]   # defaults ../shared/data/broad, a temporary one
#
# Writes about 0.6 GB of CSV into SCRATCH_DIR (removed at the end when it is a temporary one); about 2 min.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=Benchmarks/broad/scratch-setup.sh
source Benchmarks/broad/scratch-setup.sh
mkdir -p "$scratch/variants"
offsets="mag-offset-x+2uT,mag-offset-x-2uT,mag-offset-y+2uT,mag-offset-y-2uT,mag-offset-z+2uT,mag-offset-z-2uT"
[ -d "$scratch/variants/rate-50Hz" ] ||
    "$bench" broad-variants "$data" --out "$scratch/variants" --variant "rate-100Hz,rate-50Hz,$offsets" >/dev/null
for set in translation spin; do
    [ -d "$scratch/variants/synthetic-$set" ] ||
        "$python" Benchmarks/broad/synthetic_trials.py "$scratch/variants/synthetic-$set" --set "$set" >/dev/null
done

vqf="magnetometerTimeConstant=9,maximumGyroscopeBias=0.0349066,gyroscopeScaleTimeConstant=0"
rows=(
    "VQF's settings|$vqf"
    "+ the scale estimate|magnetometerTimeConstant=9,maximumGyroscopeBias=0.0349066"
    "+ τm 15 s|maximumGyroscopeBias=0.0349066"
    "+ bias limit 2.9 °/s: MotionBridge's defaults|"
    "defaults, no scale estimate|gyroscopeScaleTimeConstant=0"
    "defaults, τm 9 s|magnetometerTimeConstant=9"
    "defaults, 5 % / 5°|magneticNormThreshold=0.05,magneticDipThreshold=0.0872665"
)
# score DIRECTORY SETTINGS: the mean 9-axis total and, with `six`, the 6-axis inclination too.
score() {
    local arguments=("$bench" broad "$1")
    [ -n "$2" ] && arguments+=(--set "$2")
    "${arguments[@]}" | awk -v six="${3:-}" '/^mean over trials/ { print (six ? $7 " / " $6 : $7) }'
}
printf '%-32s %16s %7s %7s %10s %7s %7s %7s\n' "settings" "BROAD 9ax/6ax-incl" "100 Hz" "50 Hz" "hard iron" "+x" "spin" "transl."
for row in "${rows[@]}"; do
    name="${row%%|*}"
    settings="${row#*|}"
    sum=0
    for offset in ${offsets//,/ }; do
        sum=$(awk -v a="$sum" -v b="$(score "$scratch/variants/$offset" "$settings")" 'BEGIN { print a + b }')
    done
    printf '%-32s %16s %7s %7s %10.2f %7s %7s %7s\n' "$name" "$(score "$data" "$settings" six)" \
        "$(score "$scratch/variants/rate-100Hz" "$settings")" "$(score "$scratch/variants/rate-50Hz" "$settings")" \
        "$(awk -v s="$sum" 'BEGIN { print s / 6 }')" "$(score "$scratch/variants/mag-offset-x+2uT" "$settings")" \
        "$(score "$scratch/variants/synthetic-spin" "$settings")" \
        "$(score "$scratch/variants/synthetic-translation" "$settings")"
done
