#!/usr/bin/python3
"""Contention that sets in late: a simulated campaign of the shape issue 26
reports on real runs nobody tuned to (the time per step grows faster at
12-16 workers than anything measured at 1-8 suggests), through a new
user's two paths, as bench/init_discover.py runs them on real data.

The runs (fixed seeds; physics of a data-parallel step, not fitted to any
dataset): a step costs compute 0.01 + 0.002 b, a ring all-reduce
0.03 (p - 1) / p + 0.004 log2 p, and above 6 workers a contention term
k 0.02 (p - 6)^1.5 (shared memory bandwidth, the network: what grows
with p faster than the exchange); 3 runs of each p = 1-8, 12, 16 and
b = 16, 32, 64, each with 3% log-normal noise.  k = 0 is no contention;
at k = 0.1 the runs at 7 and 8 workers sit 1-5% above the contention-free
time, at 16 workers 30-60%.

Each case: `scalefit init` on the CSV (the generic data-parallel formula),
`validate --train 'p <= 8'` on its model; and `discover --train 'p <= 8'`
on that model, then `validate --train 'p <= 8'` on what it wrote.  Printed
per k, over the seeds: the mean test MAPE at 12 and 16 workers, the mean
coverage of the 95% intervals and their mean half-width.

Then the same steps as whole runs, as issue 27 describes the unseen
workloads: a run of n = 1024, 4096 or 16384 samples takes max(1,
floor(n / (p b))) steps (a data loader that drops the last partial
batch; at 12-16 workers and the small n, 1-2 steps) or ceil(n / (p b))
(one that keeps it), each step's time as above; 2 runs of each p, b and n.
init writes the generic formula with the steps its fits choose (n / (p b)
or whole, rounded either way: run/init.h); discover may take the whole
steps, rounded either way.  Then with n = 256, 1024 or 4096: a run of 256
samples takes 1 step from 4 workers on (at b = 64).  Last the step times
and the rounded-down whole runs on a sparser grid, p = 1, 2, 4, 6, 8 (and
12, 16 scored), as campaigns often measure: the chain along p has 3 cuts,
not 6, and each predicts the 8-worker runs, where contention first shows;
and the step times on powers of two, p = 1, 2, 4, 8 (12, 16 scored): 2
cuts, too few for the chain to draw a line through.

Not in `make bench`: it measures a known gap (the chain of 1-8 workers
cannot see contention that sets in past them), for the next change that
tries to close it.

Usage: /usr/bin/python3 bench/contention.py [SEEDS]  (from the built tree;
default 8 seeds; about twelve minutes)
"""

import csv
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                   ".."))
SCALEFIT = os.environ.get("SCALEFIT", os.path.join(TOP, "src", "scalefit"))
LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 12, 16]
# A sparser grid, as campaigns often measure: 3 cuts along p, not 6.
SPARSE = [1, 2, 4, 6, 8, 12, 16]
# Powers of two, the sparsest common grid: 2 cuts along p, too few to
# draw a line through.
POWERS = [1, 2, 4, 8, 12, 16]
BATCHES = [16, 32, 64]
CONTENTION = [0.0, 0.05, 0.1, 0.2]


def step(p, b, k):
    """The time of one step: compute, ring all-reduce, contention."""
    contention = k * 0.02 * (p - 6) ** 1.5 if p > 6 else 0.0
    return (0.01 + 0.002 * b + 0.03 * (p - 1) / p + 0.004 * math.log2(p)
            + contention)


def write_runs(path, seed, k, levels=LEVELS):
    rng = random.Random(seed)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["workers", "batch_size", "step_time"])
        for p in levels:
            for b in BATCHES:
                for _ in range(3):
                    w.writerow([p, b, step(p, b, k) *
                                math.exp(rng.gauss(0, 0.03))])


SAMPLES = [1024, 4096, 16384]
FEW_SAMPLES = [256, 1024, 4096]


def write_whole_runs(path, seed, k, rounding, samples=SAMPLES,
                     levels=LEVELS):
    """Runs of n samples: whole steps, rounded down or up."""
    rng = random.Random(seed)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["workers", "batch_size", "samples", "time"])
        for p in levels:
            for b in BATCHES:
                for n in samples:
                    for _ in range(2):
                        steps = max(1, rounding(n / (p * b)))
                        w.writerow([p, b, n, steps * step(p, b, k) *
                                    math.exp(rng.gauss(0, 0.03))])


def run(args, cwd):
    out = subprocess.run([SCALEFIT] + args, capture_output=True, text=True,
                         cwd=cwd)
    if out.returncode != 0:
        raise RuntimeError(" ".join(args) + ": " + out.stderr)
    return out.stdout


def validate(model, cwd):
    return json.loads(run(["validate", model, "--train", "p <= 8", "--json",
                           "-q"], cwd))["validation"]


def both_paths(d, write, seeds):
    """Each seed's runs through init and init + discover: the table's
    cells (mean MAPE, coverage and half-width of each path)."""
    init, found = [], []
    for seed in range(1, seeds + 1):
        write(os.path.join(d, "runs.csv"), seed)
        run(["init", "runs.csv", "-o", "runs.yaml", "--force"], d)
        init.append(validate("runs.yaml", d))
        run(["discover", "runs.yaml", "--train", "p <= 8", "-o",
             "found.yaml", "--threads", "1", "-q"], d)
        found.append(validate("found.yaml", d))
    cells = []
    for vs in (init, found):
        cells += [f"{statistics.mean(v['mape'] for v in vs):.1f}%",
                  f"{statistics.mean(v['coverage95'] for v in vs):.1f}%",
                  f"{statistics.mean(v['mean_halfwidth_pct'] for v in vs):.1f}%"]
    return cells


def row(d, seeds, write, lead):
    """A table's row: lead, then both paths' cells on the runs write
    makes."""
    print(f"| {lead} | " + " | ".join(both_paths(d, write, seeds)) + " |")


def step_rows(d, seeds, levels, lead=""):
    """A table's rows of the step times on the worker counts levels, one
    per contention k."""
    for k in CONTENTION:
        row(d, seeds,
            lambda path, seed: write_runs(path, seed, k, levels),
            f"{lead}{k:g}")


def main():
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    head = ("init: MAPE | coverage95 | +-width "
            "| init + discover: MAPE | coverage95 | +-width |")
    with tempfile.TemporaryDirectory() as d:
        print("step times\n\n| contention k | " + head)
        print("|---:|---:|---:|---:|---:|---:|---:|")
        step_rows(d, seeds, LEVELS)
        for title, samples in (("whole runs of n samples", SAMPLES),
                               ("whole runs of few samples (n = 256, 1024, "
                                "4096)", FEW_SAMPLES)):
            print(f"\n{title}\n\n| steps | contention k | " + head)
            print("|---|---:|---:|---:|---:|---:|---:|---:|")
            for name, rounding in (("max(1, floor)", math.floor),
                                   ("ceil", math.ceil)):
                for k in (0.0, 0.1):
                    row(d, seeds,
                        lambda path, seed: write_whole_runs(
                            path, seed, k, rounding, samples),
                        f"{name} | {k:g}")
        print(f"\nthe sparser grid (p = {', '.join(map(str, SPARSE))})\n\n"
              "| runs | contention k | " + head)
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        step_rows(d, seeds, SPARSE, "step times | ")
        for k in (0.0, 0.1):
            row(d, seeds,
                lambda path, seed: write_whole_runs(
                    path, seed, k, math.floor, levels=SPARSE),
                f"whole, max(1, floor) | {k:g}")
        print(f"\npowers of two (p = {', '.join(map(str, POWERS))})\n\n"
              "| contention k | " + head)
        print("|---:|---:|---:|---:|---:|---:|---:|")
        step_rows(d, seeds, POWERS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
