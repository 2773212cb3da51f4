#!/usr/bin/env python3
"""Reference figures of the published VQF filter on the BROAD trials.

Runs VQF (Laidig & Seel, "VQF: Highly Accurate IMU Orientation Estimation with Bias Estimation and
Magnetic Disturbance Rejection", Information Fusion 91, 2023; PyPI package `vqf`, C++ core) on every
BROAD trial CSV and scores it with the benchmark's own metric, so that MotionBridge's Swift filter can
later be compared with it side by side on the same data and the same metric.

Usage (dependencies live in a private venv, see Benchmarks/broad/setup-venv.sh):

    py=$(Benchmarks/broad/setup-venv.sh)
    "$py" Benchmarks/broad/vqf_reference.py [--data DIR] [--json] [--no-timing]

--data defaults to ../shared/data/broad relative to the repository root (two levels above this file).

What is run, per trial (Ts = median difference of the `t` column):
  * 6-axis: vqf.VQF(Ts).updateBatch(gyr, acc)       -> output "quat6D"
  * 9-axis: vqf.VQF(Ts).updateBatch(gyr, acc, mag)  -> output "quat9D"
Default parameters, causal (sample-by-sample filter in compiled code; not offlineVQF). VQF's quaternions
are [w, x, y, z], sensor frame -> earth frame, earth frame East-North-Up (its 9D heading puts the
horizontal magnetic field on +y), the same convention as the reference quaternions in the CSVs.

Metric (data README, "Scoring"): per sample, with q_est and q_ref unit quaternions (sensor -> ENU),
    e = q_est ⊗ q_ref⁻¹                      (error quaternion, earth frame)
    total       = 2·acos|e_w|
    heading     = 2·atan|e_z / e_w|
    inclination = 2·acos √(e_w² + e_z²)
each reported as the RMSE in degrees over the samples with movement == 1 whose reference is not NaN.
A data set's figure is the plain mean over its trials. No alignment of any kind is applied.

Timing: the 9-axis updateBatch over all trials concatenated (one fresh filter per repetition, best of
5), in ns per sample; and, for contrast, a Python loop calling update() once per sample, whose figure is
dominated by Python call overhead, not by the filter.
"""

import argparse
import json
import math
import os
import sys
import time

import numpy as np
import vqf

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(SCRIPT_DIR))
DEFAULT_DATA = os.path.normpath(os.path.join(REPO_ROOT, "..", "shared", "data", "broad"))

COLUMNS = ("t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z,mag_x,mag_y,mag_z,"
           "quat_w,quat_x,quat_y,quat_z,movement").split(",")
METRICS = ("total", "heading", "inclination")

# Figures quoted in the data README (VQF 2.1.2, default parameters, causal), in degrees.
README_QUOTED = {
    "9": {"total": 3.08, "heading": 2.92, "inclination": 0.83},
    "6": {"total": 5.81, "inclination": 0.83},
}


def load_trial(path):
    """Returns a dict of contiguous float64 arrays: t, gyr, acc, mag, quat (N×4, w x y z), movement."""
    with open(path) as f:
        comment = f.readline()
        header = f.readline().strip().split(",")
    if not comment.startswith("#") or header != COLUMNS:
        raise ValueError(f"{path}: unexpected header {header}")
    data = np.loadtxt(path, delimiter=",", skiprows=2, dtype=np.float64)
    col = {name: i for i, name in enumerate(COLUMNS)}

    def block(first, n):
        return np.ascontiguousarray(data[:, col[first]:col[first] + n])

    return {
        "t": data[:, col["t"]].copy(),
        "gyr": block("gyr_x", 3),
        "acc": block("acc_x", 3),
        "mag": block("mag_x", 3),
        "quat": block("quat_w", 4),
        "movement": data[:, col["movement"]].copy(),
    }


def sample_time(t):
    return float(np.median(np.diff(t)))


def quat_multiply(a, b):
    """Hamilton product a ⊗ b of N×4 arrays [w, x, y, z]."""
    aw, ax, ay, az = a.T
    bw, bx, by, bz = b.T
    return np.stack([
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ], axis=1)


def normalized(q):
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def errors_deg(q_est, q_ref, movement):
    """RMSE (degrees) of total, heading and inclination error; see the module docstring."""
    mask = (movement == 1) & ~np.isnan(q_ref).any(axis=1)
    est = normalized(q_est[mask])
    ref = normalized(q_ref[mask])
    ref_inv = ref * np.array([1.0, -1.0, -1.0, -1.0])  # inverse of a unit quaternion = conjugate
    e = quat_multiply(est, ref_inv)
    ew, ez = np.abs(e[:, 0]), np.abs(e[:, 3])
    per_sample = {
        "total": 2.0 * np.arccos(np.clip(ew, 0.0, 1.0)),
        "heading": 2.0 * np.arctan2(ez, ew),  # = 2·atan|e_z/e_w|, safe at e_w = 0
        "inclination": 2.0 * np.arccos(np.clip(np.sqrt(ew ** 2 + ez ** 2), 0.0, 1.0)),
    }
    rmse = {k: math.degrees(math.sqrt(float(np.mean(v ** 2)))) for k, v in per_sample.items()}
    rmse["samples"] = int(mask.sum())
    return rmse


def run_vqf(trial, Ts, with_mag):
    """Causal VQF, default parameters, C++ core; returns the 6D or 9D quaternion (N×4)."""
    f = vqf.VQF(Ts)
    if with_mag:
        return f.updateBatch(trial["gyr"], trial["acc"], trial["mag"])["quat9D"]
    return f.updateBatch(trial["gyr"], trial["acc"])["quat6D"]


def time_batch(gyr, acc, mag, Ts, repeats=5):
    """Best-of-`repeats` ns/sample of a fresh VQF's 9-axis updateBatch over the given arrays."""
    best = math.inf
    for _ in range(repeats):
        f = vqf.VQF(Ts)
        start = time.perf_counter_ns()
        f.updateBatch(gyr, acc, mag)
        best = min(best, time.perf_counter_ns() - start)
    return best / len(gyr)


def time_python_loop(gyr, acc, mag, Ts, repeats=3):
    """Best-of-`repeats` ns/sample of a Python loop calling the 9-axis update() once per sample."""
    rows = list(zip(gyr, acc, mag))  # row views of contiguous arrays, made before the clock starts
    best = math.inf
    for _ in range(repeats):
        f = vqf.VQF(Ts)
        update = f.update
        start = time.perf_counter_ns()
        for g, a, m in rows:
            update(g, a, m)
        f.getQuat9D()
        best = min(best, time.perf_counter_ns() - start)
    return best / len(rows)


def vqf_version():
    try:
        from importlib.metadata import version
        return version("vqf")
    except Exception:  # pragma: no cover - metadata missing
        return "unknown"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=DEFAULT_DATA, help=f"folder of trial CSVs (default {DEFAULT_DATA})")
    parser.add_argument("--json", action="store_true", help="also print the results as JSON")
    parser.add_argument("--no-timing", action="store_true", help="skip the speed measurements")
    args = parser.parse_args(argv)

    files = sorted(f for f in os.listdir(args.data) if f.endswith(".csv"))
    if not files:
        sys.exit(f"no .csv files in {args.data}")

    trials = []
    loaded = []
    for name in files:
        trial = load_trial(os.path.join(args.data, name))
        Ts = sample_time(trial["t"])
        result = {"trial": name[:-4], "samples": len(trial["t"]), "Ts": Ts}
        for axes, with_mag in (("6", False), ("9", True)):
            q = run_vqf(trial, Ts, with_mag)
            result[axes] = errors_deg(q, trial["quat"], trial["movement"])
        trials.append(result)
        loaded.append((trial, Ts))

    mean = {axes: {m: float(np.mean([r[axes][m] for r in trials])) for m in METRICS} for axes in ("6", "9")}

    # ---- table
    print(f"VQF {vqf_version()} reference on BROAD ({len(trials)} trials, {args.data})")
    print("default parameters, causal vqf.VQF.updateBatch; RMSE in degrees over movement==1 samples")
    print()
    head = f"{'trial':<46} {'scored':>7}  {'6ax tot':>7} {'6ax head':>8} {'6ax incl':>8}  " \
           f"{'9ax tot':>7} {'9ax head':>8} {'9ax incl':>8}"
    print(head)
    print("-" * len(head))
    for r in trials:
        print(f"{r['trial']:<46} {r['9']['samples']:>7}  "
              f"{r['6']['total']:>7.2f} {r['6']['heading']:>8.2f} {r['6']['inclination']:>8.2f}  "
              f"{r['9']['total']:>7.2f} {r['9']['heading']:>8.2f} {r['9']['inclination']:>8.2f}")
    print("-" * len(head))
    print(f"{'mean over trials':<46} {'':>7}  "
          f"{mean['6']['total']:>7.2f} {mean['6']['heading']:>8.2f} {mean['6']['inclination']:>8.2f}  "
          f"{mean['9']['total']:>7.2f} {mean['9']['heading']:>8.2f} {mean['9']['inclination']:>8.2f}")
    print()
    print("data README quotes (check, tolerance ±0.02°):")
    checks = []
    for axes, quoted in README_QUOTED.items():
        for metric, value in quoted.items():
            got = mean[axes][metric]
            ok = abs(got - value) <= 0.02
            checks.append({"axes": axes, "metric": metric, "quoted": value, "measured": got, "ok": ok})
            print(f"  {axes}-axis {metric:<12} quoted {value:5.2f}  measured {got:6.3f}  "
                  f"{'ok' if ok else 'MISMATCH'}")

    # ---- timing
    timing = None
    if not args.no_timing:
        gyr = np.ascontiguousarray(np.concatenate([t["gyr"] for t, _ in loaded]))
        acc = np.ascontiguousarray(np.concatenate([t["acc"] for t, _ in loaded]))
        mag = np.ascontiguousarray(np.concatenate([t["mag"] for t, _ in loaded]))
        Ts = loaded[0][1]
        batch_ns = time_batch(gyr, acc, mag, Ts)
        first, first_Ts = loaded[0]
        loop_ns = time_python_loop(first["gyr"], first["acc"], first["mag"], first_Ts)
        timing = {
            "batch_9axis_ns_per_sample": batch_ns,
            "batch_samples": int(len(gyr)),
            "python_loop_9axis_ns_per_sample": loop_ns,
            "python_loop_samples": int(len(first["gyr"])),
        }
        print()
        print("speed (9-axis, this machine):")
        print(f"  updateBatch, C++ core, all trials concatenated ({len(gyr)} samples), best of 5: "
              f"{batch_ns:8.1f} ns/sample")
        print(f"  update() called from a Python loop ({len(first['gyr'])} samples, best of 3): "
              f"{loop_ns:8.1f} ns/sample  (includes Python call overhead)")

    if args.json:
        print()
        print(json.dumps({
            "vqf_version": vqf_version(),
            "data": args.data,
            "metric_unit": "deg",
            "trials": trials,
            "mean": mean,
            "readme_check": checks,
            "timing": timing,
        }, indent=2))


if __name__ == "__main__":
    main()
