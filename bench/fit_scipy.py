#!/usr/bin/python3
"""scalefit against scipy.optimize.differential_evolution, like for like.

Three formula families on the same dataset (a-GPUBench ResNet-50, PyTorch,
Tesla M60: 224 rows), each with the model's own kind of cost: the
relative loss plus lambda times the l2 penalty on bound-scaled constants.

  generic   the generic DDP formula of expressions/ddp-generic.yaml
            (6 constants): arithmetic and log2 of the data only;
  power     the same with a batch exponent, c * b^g, and floor() of the
            steps (7 constants): a power with a data base and a fitted
            exponent;
  explog    a small-batch slowdown (1 + d exp(-b / h)) of the compute and
            a log(1 + s p) communication (7 constants): exp and log of
            fitted multiples of the data, in every row.

Both optimisers run classic DE best1bin with scipy's defaults (popsize 15
x the constants, F dithered in [0.5, 1), CR 0.7, Latin hypercube start),
the same generation budget with the convergence test switched off (tol =
atol = 0, so both run every generation), no polish, one thread, deferred
updating (scalefit's is generation-synchronous, scipy's
updating='deferred').

Times are medians of REPS runs: scipy's is the call; scalefit's is the
fit's own wall time from its report (search and setup of the cost), and
also printed with process start-up and CSV loading included.  Also printed:
the best cost each reaches, and scalefit's default fit (separable where
the formula is linear in a constant, both search scales, polished) as
time-to-cost: its whole wall time, and whether its cost reaches scipy's
best (lowest of the REPS seeds).

Usage: /usr/bin/python3 bench/fit_scipy.py [GENERATIONS] [REPS] [FAMILY...]
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
LAMBDA = 1e-3

# The model of each family: ddp-generic.yaml with its parameters, terms
# and time replaced (the data section and the fit block kept).
POWER_YAML = """parameters:
  t0: {min: 0, max: 1000}
  a:  {min: 0, max: 1}
  c:  {min: 0, max: 0.1}
  g:  {min: 0.5, max: 1.5}
  l:  {min: 0, max: 1}
  w:  {min: 0, max: 1}
  r:  {min: 0, max: 0.1}
terms:
  steps:    floor(n / (p * b))
  compute:  steps * (a + c * b^g)
  comm:     steps * (l * log2(p) + w * (p - 1) / p)
time: t0 + compute + comm + r * n
"""
EXPLOG_YAML = """parameters:
  t0: {min: 0, max: 1000}
  a:  {min: 0, max: 1}
  c:  {min: 0, max: 0.1}
  d:  {min: 0, max: 10}
  h:  {min: 1, max: 256}
  l:  {min: 0, max: 1}
  s:  {min: 0, max: 1}
terms:
  steps:    n / (p * b)
  compute:  steps * (a + c * b) * (1 + d * exp(-b / h))
  comm:     steps * l * log(1 + s * p)
time: t0 + compute + comm
"""


def f_generic(theta, p, b, n):
    t0, a, c, l, w, r = theta
    steps = n / (p * b)
    return t0 + steps * (a + c * b) + steps * (l * np.log2(p) +
                                               w * (p - 1) / p) + r * n


def f_power(theta, p, b, n):
    t0, a, c, g, l, w, r = theta
    steps = np.floor(n / (p * b))
    return t0 + steps * (a + c * b ** g) + steps * (l * np.log2(p) +
                                                    w * (p - 1) / p) + r * n


def f_explog(theta, p, b, n):
    t0, a, c, d, h, l, s = theta
    steps = n / (p * b)
    return (t0 + steps * (a + c * b) * (1 + d * np.exp(-b / h)) +
            steps * l * np.log(1 + s * p))


FAMILIES = {
    "generic": ([(0, 1000), (0, 1), (0, 0.1), (0, 1), (0, 1), (0, 0.1)],
                f_generic, None),
    "power": ([(0, 1000), (0, 1), (0, 0.1), (0.5, 1.5), (0, 1), (0, 1),
               (0, 0.1)], f_power, POWER_YAML),
    "explog": ([(0, 1000), (0, 1), (0, 0.1), (0, 10), (1, 256), (0, 1),
                (0, 1)], f_explog, EXPLOG_YAML),
}


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


def make_cost(bounds, formula, p, b, n, y):
    scale = np.array([1 / max(abs(lo), abs(hi)) for lo, hi in bounds])

    def cost(theta):
        u = (formula(theta, p, b, n) - y) / y
        z = theta * scale
        return float(u @ u + LAMBDA * (z @ z))
    return cost


def run_scipy(cost, bounds, generations, seed):
    t = time.perf_counter()
    res = differential_evolution(cost, bounds, strategy="best1bin",
                                 maxiter=generations, popsize=15, tol=0,
                                 atol=0, mutation=(0.5, 1), recombination=0.7,
                                 init="latinhypercube", polish=False,
                                 updating="deferred", seed=seed, workers=1)
    return time.perf_counter() - t, res.fun, res.nfev


def run_scalefit(model_path, extra):
    t = time.perf_counter()
    args = [SCALEFIT, "fit", model_path, "--json", "-q", "--threads",
            "1"] + extra
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        # a ratio against a failed run means nothing: stop, loudly
        sys.exit(f"fit_scipy.py: {' '.join(args)} exited "
                 f"{run.returncode}: {run.stderr.strip()}")
    out = run.stdout
    wall = time.perf_counter() - t
    report = json.loads(out)
    return (wall, report["metrics"]["loss"] + LAMBDA *
            report["metrics"]["penalty"], report["optimizer"]["evaluations"],
            report["optimizer"]["seconds"])


def model_text(family):
    with open(MODEL) as f:
        text = f.read()
    replacement = FAMILIES[family][2]
    if replacement is not None:
        head = text[:text.index("parameters:")]
        tail = text[text.index("fit:"):]
        text = head + replacement + tail
    return text


def temp_model(text):
    with tempfile.NamedTemporaryFile("w", suffix=".yaml",
                                     dir=os.path.dirname(MODEL),
                                     delete=False) as f:
        f.write(text)
        return f.name


def bench(family, generations, reps, p, b, n, y):
    bounds, formula, _ = FAMILIES[family]
    cost = make_cost(bounds, formula, p, b, n, y)
    text = model_text(family)
    # The same model, with the optimiser settings of the comparison.
    like_text = text.replace("fit:\n", "fit:\n  optimizer: {algorithm: de, "
                             "strategy: best1bin, popsize: 15, "
                             f"max_generations: {generations}, tol: 0, "
                             "atol: 0, polish: false, separable: false, "
                             "scale: linear, seed: 1}\n", 1)
    like = temp_model(like_text)
    default = temp_model(text)
    try:
        sc = [run_scipy(cost, bounds, generations, seed)
              for seed in range(1, reps + 1)]
        sf = [run_scalefit(like, ["--seed", str(s)])
              for s in range(1, reps + 1)]
        sep = [run_scalefit(default, []) for _ in range(reps)]
    finally:
        os.unlink(like)
        os.unlink(default)
    t_sc = statistics.median(r[0] for r in sc)
    t_sf = statistics.median(r[0] for r in sf)
    t_sf_fit = statistics.median(r[3] for r in sf)
    t_sep = statistics.median(r[0] for r in sep)
    t_sep_fit = statistics.median(r[3] for r in sep)
    best_sc = min(r[1] for r in sc)
    print(f"{family}: {len(y)} rows, {len(bounds)} constants; DE best1bin, "
          f"popsize 15, {generations} generations, no polish, 1 thread; "
          f"median of {reps}")
    print(f"  scipy {__import__('scipy').__version__}: {t_sc:8.3f} s  "
          f"({sc[0][2]} evaluations; best costs {best_sc:.10g}"
          f" to {max(r[1] for r in sc):.10g})")
    print(f"  scalefit:    {t_sf_fit:8.3f} s  ({sf[0][2]} evaluations; best "
          f"costs {min(r[1] for r in sf):.10g} to "
          f"{max(r[1] for r in sf):.10g}); {t_sf:.3f} s with process start "
          f"and CSV load")
    print(f"  scalefit is {t_sc / t_sf_fit:.1f}x faster fit for fit, "
          f"{t_sc / t_sf:.1f}x counting its start-up (target >= 50x)")
    # The spread: each run's time, and the ratio of the runs paired by seed.
    ratios = sorted(a[0] / b[3] for a, b in zip(sc, sf))
    print(f"  spread: scipy {min(r[0] for r in sc):.3f}-"
          f"{max(r[0] for r in sc):.3f} s, scalefit "
          f"{min(r[3] for r in sf):.4f}-{max(r[3] for r in sf):.4f} s; "
          f"paired ratios {ratios[0]:.1f}x-{ratios[-1]:.1f}x")
    reached = "reaches" if sep[0][1] <= best_sc * (1 + 1e-9) else \
        "does NOT reach"
    print(f"  scalefit's default (separable, auto scale, polished): "
          f"{t_sep_fit:.4f} s fit ({t_sep:.4f} s with start-up and error "
          f"model) to cost {sep[0][1]:.10g}, which {reached} scipy's best: "
          f"time-to-cost {t_sc / t_sep_fit:.0f}x ({t_sc / t_sep:.0f}x) "
          f"faster than scipy's DE")


def main():
    generations = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    families = sys.argv[3:] if len(sys.argv) > 3 else list(FAMILIES)
    p, b, n, y = load()
    for family in families:
        bench(family, generations, reps, p, b, n, y)


if __name__ == "__main__":
    main()
