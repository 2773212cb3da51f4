#!/usr/bin/env bash
# MotionBridge's attitude filter beside the published VQF filter on the BROAD trials, in one run:
# accuracy of both (the benchmark's metric), the leave-one-trial-out cross-validated scores of the
# filter's tuning beside VQF's per trial and per group, then their 9-axis update times measured alternately three
# times each (the VM's speed drifts by ±10 % within minutes, so only interleaved figures compare), and
# last the robustness battery (battery.sh, about 3 minutes and 1.2 GB of temporary CSV).
#
#   Benchmarks/broad/run.sh [DATA_DIR]     # default ../shared/data/broad
#
# Needs Python 3 with venv support (the VQF package is installed into a private venv by setup-venv.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
data="${1:-../shared/data/broad}"
[ -d "$data" ] || { echo "run.sh: no trial directory $data" >&2; exit 66; }

swift build -c release --product motion-bench >&2
bench="$(swift build -c release --show-bin-path)/motion-bench"
python="$(Benchmarks/broad/setup-venv.sh)"
plots="$(mktemp -d)"
trap 'rm -rf "$plots"' EXIT

echo "== MotionBridge (motion-bench broad)"
"$bench" broad "$data" --plots "$plots"
echo
echo "== VQF 2.1.2 (Benchmarks/broad/vqf_reference.py)"
"$python" Benchmarks/broad/vqf_reference.py --data "$data" --no-timing --json > "$plots/vqf.txt"
sed '/^{/,$d' "$plots/vqf.txt"
echo
echo "== MotionBridge, cross-validated (motion-bench broad --cross-validate), beside VQF"
"$bench" broad "$data" --cross-validate --vqf "$plots/vqf.txt"
echo
echo "== 9-axis update time, ns per sample, alternating runs"
for round in 1 2 3; do
    ours=$("$bench" broad "$data" --json | sed -n 's/.*"nineAxisNanosecondsPerSample" : \([0-9.]*\).*/\1/p')
    theirs=$("$python" Benchmarks/broad/vqf_reference.py --data "$data" --json | sed -n '/^{/,$p' \
        | "$python" -c 'import json, sys; print(round(json.load(sys.stdin)["timing"]["batch_9axis_ns_per_sample"], 1))')
    printf 'round %d: MotionBridge %.1f   VQF (C++ updateBatch) %.1f   ratio %.2f\n' "$round" "$ours" "$theirs" "$("$python" -c "print($ours / $theirs)")"
done
echo
echo "== Robustness battery (Benchmarks/broad/battery.sh): the trials as other rates, fields, mountings, noise and timing would have recorded them"
Benchmarks/broad/battery.sh "$data"
