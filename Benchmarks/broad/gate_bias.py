#!/usr/bin/env python3
"""Why the attitude filter does not gate its accelerometer correction by the acceleration's norm or jerk.

The filter corrects the inclination with a low-pass of the specific force in an almost inertial frame
(VQF's method). Over a window of T seconds that mean is gravity plus Δv/T: the velocity of a hand-held
device stays bounded, so the linear acceleration averages out. A gate that keeps only the samples whose
norm is near g (or whose jerk is small) averages a *selection* of them instead, and the selected
accelerations do not average out: for an oscillation, the samples near the turning points are the ones
the gate drops, the ones passing through the middle are kept, and they lean the same way.

This script measures that from the optical ground truth alone, with no filter involved: for every
window of WINDOW seconds (default 3 s, the filter's accelerometer time constant) it rotates the specific
force into the earth frame with the reference orientation and prints the mean tilt of the windows' mean
force from the vertical, for all samples and for the samples each gate keeps.

    gate_bias.py DIR [--window S]      DIR: BROAD-format trials (../shared/data/broad, or the output of
                                       synthetic_trials.py)
"""
import argparse
import glob
import math
import os

import numpy as np

GRAVITY = 9.81
NORM_GATES = (8.0, 4.0, 2.0, 1.0)  # m/s²: keep samples with | |f| - g | below
JERK_GATES = (1000.0, 300.0, 100.0)  # m/s³: keep samples whose force changed by less than this rate


def read_trial(path):
    """Returns (rate Hz, specific force m/s² (N×3), orientation quaternions w,x,y,z sensor→ENU (N×4))."""
    rate = None
    with open(path) as handle:
        first = handle.readline()
    for field in first.replace(";", " ").split():
        if field.startswith("sampling_rate_hz="):
            rate = float(field.split("=")[1])
    data = np.loadtxt(path, delimiter=",", skiprows=2)
    return rate, data[:, 4:7], data[:, 10:14]


def rotate(quaternions, vectors):
    """Rotates each vector by its unit quaternion (w, x, y, z)."""
    w = quaternions[:, :1]
    axis = quaternions[:, 1:]
    twice_cross = 2 * np.cross(axis, vectors)
    return vectors + w * twice_cross + np.cross(axis, twice_cross)


def mean_tilt(earth_force, keep, window):
    """Mean and largest angle, degrees, between the vertical and each window's mean kept force."""
    tilts = []
    for start in range(0, len(earth_force) - window + 1, window):
        kept = keep[start:start + window]
        if kept.sum() < 10:
            continue
        mean = earth_force[start:start + window][kept].mean(axis=0)
        tilts.append(math.degrees(math.acos(max(-1.0, min(1.0, mean[2] / np.linalg.norm(mean))))))
    return (float(np.mean(tilts)), float(np.max(tilts))) if tilts else (float("nan"), float("nan"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--window", type=float, default=3.0, help="window length, s (default 3)")
    arguments = parser.parse_args()
    gates = ["all"] + [f"|n|<{g:g}" for g in NORM_GATES] + [f"jerk<{g:g}" for g in JERK_GATES]
    print(f"Mean (largest) tilt of {arguments.window:g} s means of the specific force in the earth frame, "
          "degrees: all samples, and the samples each gate keeps (norm gates m/s², jerk gates m/s³)")
    print(f"{'trial':<44}" + "".join(f"{gate:>15}" for gate in gates))
    for path in sorted(glob.glob(os.path.join(arguments.directory, "*.csv"))):
        rate, force, orientation = read_trial(path)
        usable = ~np.isnan(orientation).any(axis=1) & ~np.isnan(force).any(axis=1)
        force, orientation = force[usable], orientation[usable]
        earth = rotate(orientation / np.linalg.norm(orientation, axis=1, keepdims=True), force)
        deviation = np.abs(np.linalg.norm(force, axis=1) - GRAVITY)
        jerk = np.concatenate([[0.0], np.linalg.norm(np.diff(force, axis=0), axis=1) * rate])
        keeps = [np.ones(len(force), dtype=bool)]
        keeps += [deviation < gate for gate in NORM_GATES]
        keeps += [jerk < gate for gate in JERK_GATES]
        window = max(1, int(round(arguments.window * rate)))
        cells = []
        for keep in keeps:
            mean, largest = mean_tilt(earth, keep, window)
            cells.append(f"{mean:>7.2f} ({largest:>5.1f})")
        print(f"{os.path.basename(path)[:-4][:43]:<44}" + "".join(cells))


if __name__ == "__main__":
    main()
