#!/usr/bin/env python3
"""Writes synthetic trials with known truth in the BROAD CSV format, for `motion-bench broad` and
vqf_reference.py to score on the same files (issue 32: motions and sensor errors BROAD does not have).

    synthetic_trials.py OUT_DIR [--rate HZ] [--set translation|spin]

Each trial: 5 s still, 80 s of motion (faded in and out over 2 s), 5 s still; only the motion is scored.
The sensor turns as a hand holds it (a 4° wobble about each axis at 0.21-0.33 Hz) on top of the motion:
- translation: a sinusoidal acceleration along one earth axis (x, y, z), 7 m/s² rms at 0.5 Hz (a swing of
  ±1 m) and 1 Hz and 9 m/s² rms at 2 Hz (what another lab's translation trials reach; no magnetic
  disturbance);
- spin: a steady turn about the vertical at 15, 40 and -15 °/s, with an exact gyroscope and with scale
  errors of 1 % (MEMS gyroscopes are specified to 1-3 %).
Readings: gyroscope (rate x scale + a bias of 0.004 rad/s rms per axis + 0.003 rad/s white noise per
sample), accelerometer (specific force + 0.03 m/s²), magnetometer (the earth's field (0, 16, -38) µT in
East-North-Up + 0.3 µT), all in the sensor frame; the reference is the exact sensor -> ENU attitude.
Seeded: the same files every run. Needs numpy (the venv of setup-venv.sh has it).
"""
import argparse
import os

import numpy as np

FIELD_ENU = np.array([0.0, 16.0, -38.0])  # µT: BROAD's lab field, north-horizontal and down
GRAVITY = 9.81
REST, DURATION, FADE = 5.0, 90.0, 2.0
WOBBLE_DEG, WOBBLE_HZ = 4.0, np.array([0.21, 0.33, 0.27])


def multiply(a, b):
    w1, x1, y1, z1 = np.moveaxis(a, -1, 0)
    w2, x2, y2, z2 = np.moveaxis(b, -1, 0)
    return np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], -1)


def conjugate(q):
    return q * np.array([1, -1, -1, -1])


def rotate(q, v):
    p = np.concatenate([np.zeros(v.shape[:-1] + (1,)), v], -1)
    return multiply(multiply(q, p), conjugate(q))[..., 1:]


def exponential(r):
    angle = np.linalg.norm(r, axis=-1, keepdims=True)
    half = np.where(angle > 1e-12, np.sin(angle / 2) / np.maximum(angle, 1e-300), 0.5)
    return np.concatenate([np.cos(angle / 2), r * half], -1)


def envelope(t):
    """0 while still, 1 in motion, a linear fade between."""
    return np.clip(np.minimum(t - REST, DURATION - REST - t) / FADE, 0, 1)


def write_trial(path, rate, seed, acceleration_axis=None, acceleration_hz=1.0, acceleration_rms=0.0,
                spin_dps=0.0, scale=(1.0, 1.0, 1.0)):
    rng = np.random.default_rng(seed)
    t = np.arange(0, DURATION, 1 / rate)
    start = exponential(rng.normal(0, 0.1, 3))
    phase = rng.uniform(0, 2 * np.pi, 3)

    def attitude(times):
        wobble = np.radians(WOBBLE_DEG) * envelope(times)[:, None] * np.sin(2 * np.pi * WOBBLE_HZ * times[:, None] + phase)
        turned = np.radians(spin_dps) * np.clip(times - REST, 0, DURATION - 2 * REST)
        about_vertical = np.stack([np.cos(turned / 2), 0 * turned, 0 * turned, np.sin(turned / 2)], -1)
        return multiply(about_vertical, multiply(np.broadcast_to(start, (len(times), 4)), exponential(wobble)))

    q = attitude(t)
    # The body rate from the attitude 0.1 ms either side (exact to far below the noise).
    step = 1e-4
    increment = multiply(conjugate(attitude(t - step)), attitude(t + step))
    increment *= np.sign(increment[:, :1])
    body_rate = increment[:, 1:] / step
    linear = np.zeros((len(t), 3))
    if acceleration_axis is not None:
        amplitude = acceleration_rms * np.sqrt(2)
        linear[:, acceleration_axis] = -amplitude * np.sin(2 * np.pi * acceleration_hz * t) * envelope(t)
    to_sensor = conjugate(q)
    specific_force = rotate(to_sensor, linear + np.array([0, 0, GRAVITY]))
    field = rotate(to_sensor, np.broadcast_to(FIELD_ENU, (len(t), 3)))
    bias = rng.normal(0, 0.004, 3)
    gyroscope = body_rate * np.array(scale) + bias + rng.normal(0, 0.003, (len(t), 3))
    specific_force = specific_force + rng.normal(0, 0.03, (len(t), 3))
    field = field + rng.normal(0, 0.3, (len(t), 3))
    moving = ((t > REST) & (t < DURATION - REST)).astype(int)
    name = os.path.splitext(os.path.basename(path))[0]
    with open(path, "w") as out:
        out.write(f"# synthetic trial {name}; sampling_rate_hz={rate:g}; gyr rad/s, acc m/s^2, mag uT (sensor frame); "
                  "quat w,x,y,z = exact orientation, sensor->ENU; movement 1/0\n")
        out.write("t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z,mag_x,mag_y,mag_z,quat_w,quat_x,quat_y,quat_z,movement\n")
        for i in range(len(t)):
            out.write("%.6f,%.7e,%.7e,%.7e,%.7e,%.7e,%.7e,%.5e,%.5e,%.5e,%.7f,%.7f,%.7f,%.7f,%d\n"
                      % ((t[i],) + tuple(gyroscope[i]) + tuple(specific_force[i]) + tuple(field[i]) + tuple(q[i]) + (moving[i],)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="directory to write the trials into (created if missing)")
    parser.add_argument("--rate", type=float, default=100.0, help="sampling rate, Hz (default 100)")
    parser.add_argument("--set", choices=["translation", "spin"], default="translation")
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    index = 0
    if arguments.set == "translation":
        for axis, axis_name in enumerate("xyz"):
            for hz, rms in [(0.5, 7.0), (1.0, 7.0), (2.0, 9.0)]:
                path = os.path.join(arguments.out, f"{index:02d}_translation_{axis_name}_{hz:g}Hz_{rms:g}ms2.csv")
                write_trial(path, arguments.rate, 100 + index, acceleration_axis=axis, acceleration_hz=hz, acceleration_rms=rms)
                index += 1
    else:
        for spin, scale in [(15, (1, 1, 1)), (15, (1.01, 0.99, 1.01)), (40, (1, 1, 1)), (40, (1.01, 0.99, 1.01)),
                            (-15, (1.005, 1.005, 0.99))]:
            path = os.path.join(arguments.out, f"{index:02d}_spin_{spin}dps_scale_z{scale[2]:g}.csv")
            write_trial(path, arguments.rate, 200 + index, spin_dps=spin, scale=scale)
            index += 1


if __name__ == "__main__":
    main()
