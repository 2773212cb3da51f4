#!/usr/bin/env bash
# Creates a private Python venv for Benchmarks/broad/vqf_reference.py and installs its dependencies
# (vqf, numpy) from PyPI into it, leaving the system Python untouched.
#
#   Benchmarks/broad/setup-venv.sh            # venv at ${VQF_VENV:-$HOME/.cache/motionbridge/vqf-venv}
#   "$VENV/bin/python" Benchmarks/broad/vqf_reference.py [--data DIR] [--json]
#
# Prints the venv's python path on stdout (progress goes to stderr). Safe to re-run.
set -euo pipefail
venv="${VQF_VENV:-$HOME/.cache/motionbridge/vqf-venv}"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    mkdir -p "$(dirname "$venv")"
    "$python" -m venv "$venv" >&2
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip >&2
"$venv/bin/python" -m pip install --quiet "vqf==2.1.2" numpy >&2  # the version the data README quotes
"$venv/bin/python" -c 'from importlib.metadata import version as v; print("vqf", v("vqf"), "numpy", v("numpy"))' >&2
echo "$venv/bin/python"
