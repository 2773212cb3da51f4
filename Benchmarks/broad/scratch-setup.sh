# Sourced by battery.sh and ablation.sh (from the repository's root, with their arguments): sets `data`
# (the trial directory, $1, default ../shared/data/broad; exit 66 when missing), `scratch` ($2, else a
# temporary directory removed on exit), `bench` (motion-bench, built in release) and `python` (the venv's,
# with vqf and numpy, from setup-venv.sh).
data="${1:-../shared/data/broad}"
[ -d "$data" ] || { echo "$(basename "$0"): no trial directory $data" >&2; exit 66; }
scratch="${2:-}"
if [ -z "$scratch" ]; then
    scratch="$(mktemp -d)"
    trap 'rm -rf "$scratch"' EXIT
fi
swift build -c release --product motion-bench >&2
bench="$(swift build -c release --show-bin-path)/motion-bench"
python="$(Benchmarks/broad/setup-venv.sh)"
mkdir -p "$scratch"
