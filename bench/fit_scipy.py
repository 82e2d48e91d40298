#!/usr/bin/python3
"""scalefit against scipy.optimize.differential_evolution, like for like.

The generic DDP formula of expressions/ddp-generic.yaml (6 constants, all
searched) on its bundled dataset (a-GPUBench ResNet-50, PyTorch, Tesla M60:
224 rows), with the model's own cost: the relative loss plus lambda times
the l2 penalty on bound-scaled constants.  Both optimisers run classic DE
best1bin with scipy's defaults (popsize 15 x 6, F dithered in [0.5, 1),
CR 0.7, Latin hypercube start), the same generation budget with the
convergence test switched off (tol = atol = 0, so both run every
generation), no polish, one thread, deferred updating (scalefit's is
generation-synchronous, scipy's updating='deferred').

Times are medians of REPS runs: scipy's is the call; scalefit's is the
fit's own wall time from its report (search and setup of the cost), and
also printed with process start-up and CSV loading included.  Also printed: the
best cost each reaches, and the time of scalefit's default (separable: the
formula is linear in all six constants, so one bounded least-squares
solve replaces the search).

Usage: /usr/bin/python3 bench/fit_scipy.py [GENERATIONS] [REPS]
Needs Debian's python3-scipy; run from the top of the built tree.
"""

import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.optimize import differential_evolution

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SCALEFIT = os.environ.get("SCALEFIT", os.path.join(TOP, "src", "scalefit"))
MODEL = os.path.join(TOP, "expressions", "ddp-generic.yaml")
DATA = os.path.join(TOP, "datasets", "agpubench_gpu_training",
                    "training_times.csv")

# The model's constants, bounds and lambda (expressions/ddp-generic.yaml).
NAMES = ["t0", "a", "c", "l", "w", "r"]
BOUNDS = [(0, 1000), (0, 1), (0, 0.1), (0, 1), (0, 1), (0, 0.1)]
LAMBDA = 1e-3


def load():
    p, b, n, y = [], [], [], []
    with open(DATA) as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        for row in rows:
            if (row["network"], row["framework"], row["gpu"]) != \
                    ("resnet50", "pytorch", "Tesla M60"):
                continue
            gpus = float(row["gpus"])
            batch = float(row["global_batch"])
            p.append(gpus)
            b.append(batch / gpus)
            n.append(batch * float(row["iterations"]))
            y.append(float(row["train_time_s"]))
    return [np.array(v) for v in (p, b, n, y)]


def make_cost(p, b, n, y):
    scale = np.array([1 / max(abs(lo), abs(hi)) for lo, hi in BOUNDS])
    steps = n / (p * b)
    log2p = np.log2(p)
    frac = (p - 1) / p

    def cost(theta):
        t0, a, c, l, w, r = theta
        f = t0 + steps * (a + c * b) + steps * (l * log2p + w * frac) + r * n
        u = (f - y) / y
        z = theta * scale
        return float(u @ u + LAMBDA * (z @ z))
    return cost


def run_scipy(cost, generations, seed):
    t = time.perf_counter()
    res = differential_evolution(cost, BOUNDS, strategy="best1bin",
                                 maxiter=generations, popsize=15, tol=0,
                                 atol=0, mutation=(0.5, 1), recombination=0.7,
                                 init="latinhypercube", polish=False,
                                 updating="deferred", seed=seed, workers=1)
    return time.perf_counter() - t, res.fun, res.nfev


def run_scalefit(model_path, extra):
    t = time.perf_counter()
    out = subprocess.run([SCALEFIT, "fit", model_path, "--json", "-q",
                          "--threads", "1"] + extra,
                         check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - t
    report = json.loads(out)
    return (wall, report["metrics"]["loss"] + LAMBDA *
            report["metrics"]["penalty"], report["optimizer"]["evaluations"],
            report["optimizer"]["seconds"])


def main():
    generations = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    p, b, n, y = load()
    cost = make_cost(p, b, n, y)
    with open(MODEL) as f:
        text = f.read()
    # The same model, with the optimiser settings of the comparison.
    text = text.replace("fit:\n", "fit:\n  optimizer: {algorithm: de, "
                        "strategy: best1bin, popsize: 15, max_generations: "
                        f"{generations}, tol: 0, atol: 0, polish: false, "
                        "separable: false, scale: linear, seed: 1}\n", 1)
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", dir=os.path.dirname(MODEL),
                                     delete=False) as f:
        f.write(text)
        like = f.name
    try:
        sc = [run_scipy(cost, generations, seed) for seed in range(1, reps + 1)]
        sf = [run_scalefit(like, ["--seed", str(s)]) for s in range(1, reps + 1)]
        sep = [run_scalefit(MODEL, []) for _ in range(reps)]
    finally:
        os.unlink(like)
    t_sc = statistics.median(r[0] for r in sc)
    t_sf = statistics.median(r[0] for r in sf)
    t_sf_fit = statistics.median(r[3] for r in sf)
    t_sep = statistics.median(r[0] for r in sep)
    print(f"generic DDP formula, {len(y)} rows, 6 constants; DE best1bin, "
          f"popsize 15, {generations} generations, no polish, 1 thread; "
          f"median of {reps}")
    print(f"  scipy {__import__('scipy').__version__}: {t_sc:8.3f} s  "
          f"({sc[0][2]} evaluations; best costs {min(r[1] for r in sc):.10g}"
          f" to {max(r[1] for r in sc):.10g})")
    print(f"  scalefit:    {t_sf_fit:8.3f} s  ({sf[0][2]} evaluations; best "
          f"costs {min(r[1] for r in sf):.10g} to "
          f"{max(r[1] for r in sf):.10g}); {t_sf:.3f} s with process start "
          f"and CSV load")
    print(f"  scalefit is {t_sc / t_sf_fit:.1f}x faster fit for fit, "
          f"{t_sc / t_sf:.1f}x counting its start-up (target >= 50x)")
    print(f"  scalefit's default (separable, polished): {t_sep:.4f} s, cost "
          f"{sep[0][1]:.10g}: {t_sc / t_sep:.0f}x faster than scipy's DE")


if __name__ == "__main__":
    main()
