#!/usr/bin/python3
"""Extrapolation accuracy on the Pollux traces and on tf_cnn_benchmarks.

Two campaigns, each measured with `scalefit validate --train` and with the
formula chosen by `scalefit compare` on the training rows only (lowest
cross-validated MAPE; the rows to be predicted are never seen):

  1. Pollux / AdaptDL step times on 1-64 T4 (datasets/pollux_adaptdl_t4):
     per job, fit the placements with at most 16 GPUs (up to 4 nodes of 4
     GPUs, or 16 GPUs spread over up to 16 nodes) and predict 20-64 GPUs.
     Every job has placements above 16 GPUs, so no other split is needed.
     Candidates (loss: log, as AdaptDL fits them; inputs k = gpus,
     nn = nodes, m = batch_per_gpu):
       pollux    expressions/pollux.yaml: (t_grad^g + t_sync^g)^(1/g),
                 t_grad = a_grad + b_grad m, t_sync by the slowest link
       generic   the per-step generic model of expressions/ddp-generic.yaml
                 (steps = 1, no data term): a + c m + l log2 k + w (k-1)/k
  2. tf_cnn_benchmarks, May 2017 (datasets/tf_cnn_benchmarks_2017): per
     platform, CNN, variable_update and data (synthetic or real ImageNet:
     real data is input-bound for AlexNet and VGG16 on the DGX-1, so the two
     are separate series rather than repetitions of one configuration), fit
     1-4 GPUs of one server and predict 8, or for the multi-server K80 runs
     fit 1-16 GPUs and predict 32 and 64.  Candidates (loss: relative;
     p = gpus, b = batch_per_gpu):
       gustafson expressions/gustafson.yaml on step_time_s:
                 (t0 + c b) p / (p - s (p - 1))
       amdahl    expressions/amdahl.yaml on the time per image,
                 step_time_s / global_batch: t1 ((1 - f) + f / p)
     The relative error of the time per image is that of the step time, so
     the scores compare.  Series with no held-out row (AlexNet on real data
     was not run on 8 GPUs) are listed but not scored.

Every fit: --threads 1, the default seed.  Prints one markdown table per
campaign and the mean of the test MAPEs.

Usage: /usr/bin/python3 bench/accuracy_pollux_tfcnn.py  (from the built tree)
"""

import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lodo import with_prior  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                   ".."))
SCALEFIT = os.environ.get("SCALEFIT", os.path.join(TOP, "src", "scalefit"))
POLLUX = os.path.join(TOP, "datasets", "pollux_adaptdl_t4", "step_times.csv")
TFCNN = os.path.join(TOP, "datasets", "tf_cnn_benchmarks_2017",
                     "images_per_sec.csv")

# Folds of the cross-validated MAPE that picks the formula: 3 for the Pollux
# jobs (each fold refits Pollux's non-linear model on ~1,000 rows), 5 for
# tf_cnn_benchmarks (3-12 training rows; fewer configurations than folds
# gives leave-one-out).
KFOLD = {"pollux": 3, "tfcnn": 5}

def shipped(name):
    """expressions/NAME.yaml without its comments and its name, description
    and data keys: inputs, parameters, terms, time and fit, as shipped."""
    kept, skipping = [], False
    with open(os.path.join(TOP, "expressions", name + ".yaml")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            if not line[0].isspace():
                skipping = line.split(":")[0] in ("name", "description",
                                                  "data")
            if not skipping:
                kept.append(line.split(" #")[0].rstrip() + "\n")
    return "".join(kept)


FORMULAS = {
    "pollux": {"output": "step_time_s", "train": "k <= 16",
               "body": shipped("pollux")},
    "generic": {"output": "step_time_s", "train": "p <= 16", "body": """inputs:
  p: gpus
  b: batch_per_gpu
parameters:
  a: {min: 0, max: 1}
  c: {min: 0, max: 0.1}
  l: {min: 0, max: 1}
  w: {min: 0, max: 1}
terms:
  compute: {expr: a + c * b, kind: compute}
  comm: {expr: l * log2(p) + w * (p - 1) / p, kind: communication}
time: compute + comm
fit: {loss: log}
"""},
    "gustafson": {"output": "step_time_s", "body": shipped("gustafson")},
    # The time per image: the same relative error as the step time.
    "amdahl": {"output": "step_time_s / global_batch",
               "body": shipped("amdahl")},
}


def write_model(directory, name, data, where, formula):
    """The model file, with its dataset's left-out prior (bench/lodo.py)."""
    path = os.path.join(directory, name + ".yaml")
    with open(path, "w") as f:
        f.write(with_prior(
            f"name: {formula}\ndata:\n  file: {data}\n"
            f"  where: \"{where}\"\n"
            f"  output: {FORMULAS[formula]['output']}\n"
            f"{FORMULAS[formula]['body']}",
            "pollux" if data == POLLUX else "tfcnn"))
    return path


def run(args):
    out = subprocess.run([SCALEFIT] + args + ["--threads", "1", "--json",
                                              "-q"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(" ".join(args) + ": " + out.stderr)
    return json.loads(out.stdout)


def quote(text):
    return "'" + text.replace("'", "''") + "'"


# A tf_cnn_benchmarks series: the runs of one of these.
SERIES_KEY = ("platform", "model", "variable_update", "data")


def tfcnn_series():
    """Every tf_cnn_benchmarks series, sorted: its key (SERIES_KEY's
    values), the top of its training range (16 GPUs for the distributed
    K80 runs, else 4) and whether any of its runs lies above it."""
    gpus = {}
    with open(TFCNN, newline="") as f:
        for r in csv.DictReader(f):
            gpus.setdefault(tuple(r[c] for c in SERIES_KEY),
                            set()).add(int(r["gpus"]))
    out = []
    for key in sorted(gpus):
        limit = 16 if "distributed" in key[0] else 4
        out.append((key, limit, max(gpus[key]) > limit))
    return out


def series_where(key):
    """The where: of a series' rows."""
    return " && ".join(f"{c} == {quote(v)}" for c, v in zip(SERIES_KEY, key))


def series_tag(key):
    """A file name's part for a series."""
    return "tfcnn-" + "-".join(
        "".join(ch for ch in part if ch.isalnum()) for part in key)


def evaluate(directory, tag, data, where, train_where, train_expr, formulas,
             kfold):
    """Choose a formula on the training rows, then validate it."""
    cands = [write_model(directory, f"{tag}-{f}-train", data,
                         f"{where} && {train_where}", f) for f in formulas]
    ranking = run(["compare"] + cands + ["--kfold", str(kfold)])
    ranking = [c for c in ranking["comparison"]["candidates"]
               if not c["failed"] and c["cv_mape"] is not None]
    best = min(ranking, key=lambda c: c["cv_mape"])
    formula = best["model"]
    full = write_model(directory, f"{tag}-{formula}", data, where, formula)
    v = run(["validate", full, "--train", train_expr(formula)])
    return formula, best["cv_mape"], v["validation"]


def header():
    print("| series | train | test | formula | CV MAPE (train) "
          "| test MAPE | max error | bias | coverage95 | +-width |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|")


def row(series, formula, cv, v):
    print(f"| {series} | {v['rows'] - v['rows_predicted']} "
          f"| {v['rows_predicted']} | {formula} | {cv:.2f}% "
          f"| {v['mape']:.2f}% | {v['max_ape']:.1f}% | {v['bias']:+.1f}% "
          f"| {pct(v['coverage95'])} | {pct(v['mean_halfwidth_pct'])} |")


def pct(x):
    return "-" if x is None else f"{x:.1f}%"


def pollux(directory):
    print("\n### 1. Pollux / AdaptDL traces (T4): fit gpus <= 16, "
          "predict 20-64 GPUs\n")
    header()
    with open(POLLUX, newline="") as f:
        jobs = sorted({r["job"] for r in csv.DictReader(f)})
    mapes = []
    for job in jobs:
        formula, cv, v = evaluate(
            directory, f"pollux-{job}", POLLUX, f"job == {quote(job)}",
            "gpus <= 16", lambda fm: FORMULAS[fm]["train"],
            ["pollux", "generic"], KFOLD["pollux"])
        mapes.append(v)
        row(job, formula, cv, v)
    return mapes


def tfcnn(directory):
    print("\n### 2. tf_cnn_benchmarks (May 2017): fit gpus <= 4 "
          "(one server) or <= 16 (8 K80 servers), predict the rest\n")
    header()
    mapes = []
    skipped = []
    for key, limit, held_out in tfcnn_series():
        name = " / ".join(key)
        if not held_out:
            skipped.append(name)
            print(f"| {name} | - | 0 | - | - | - | - | - | - | - |")
            continue
        formula, cv, v = evaluate(
            directory, series_tag(key), TFCNN, series_where(key),
            f"gpus <= {limit}",
            lambda fm: f"p <= {limit}", ["gustafson", "amdahl"],
            KFOLD["tfcnn"])
        mapes.append(v)
        row(name, formula, cv, v)
    return mapes, skipped


def summary(name, scores):
    """Mean test MAPE, and the 95% prediction intervals: the mean of the
    series' coverage and half-width, and the coverage over all rows."""
    print(f"\nmean test MAPE over {len(scores)} {name} series: "
          f"{sum(v['mape'] for v in scores) / len(scores):.2f}%")
    scored = [v for v in scores if v["interval_rows"] > 0]
    if not scored:
        return
    rows = sum(v["interval_rows"] for v in scored)
    inside = sum(v["coverage95"] * v["interval_rows"] / 100 for v in scored)
    print(f"95% prediction intervals: mean coverage "
          f"{sum(v['coverage95'] for v in scored) / len(scored):.1f}% over "
          f"{len(scored)} series ({100 * inside / rows:.1f}% of {rows} "
          f"rows), mean half-width "
          f"{sum(v['mean_halfwidth_pct'] for v in scored) / len(scored):.1f}%"
          " (target: coverage 85-99%)")


def main():
    with tempfile.TemporaryDirectory() as directory:
        p = pollux(directory)
        summary("Pollux", p)
        t, skipped = tfcnn(directory)
        summary("tf_cnn_benchmarks", t)
        if skipped:
            print(f"({len(skipped)} series not scored: nothing above the "
                  "training range)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as e:  # a scalefit run failed: no table from it
        sys.exit("accuracy_pollux_tfcnn.py: " + str(e).strip())
