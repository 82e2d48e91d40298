#!/usr/bin/python3
"""The formula `scalefit discover` finds, against the shipped formulas.

On every bundled extrapolation campaign, per group, two formulas are
chosen on the training rows only and then scored by `scalefit validate
--train` on the rows they never saw:

  discovered  `scalefit discover --train EXPR -o OUT.yaml` from a model
              that gives only data: and inputs: (no formula), with its
              default grammar and selection; OUT.yaml is validated as
              written;
  shipped     the candidate formula with the lowest cross-validated MAPE
              in `scalefit compare` on the training rows, as
              bench/accuracy_agpubench.py and
              bench/accuracy_pollux_tfcnn.py choose it (their candidates,
              folds and losses).

Campaigns (the splits of those two scripts, and Ernest's example):
  1. a-GPUBench workers: GTX 1080 Ti, per network x framework, fit 1-4
     GPUs, predict 8; discover's inputs p = gpus, b = global_batch / gpus,
     n = global_batch * iterations (the count), t = cpu_threads.
  2. Pollux / AdaptDL T4 step times, per job, fit <= 16 GPUs, predict
     20-64; inputs p = gpus, nn = nodes, b = batch_per_gpu, no count (one
     row is one step).
  3. tf_cnn_benchmarks, per series, fit 1-4 GPUs (1-16 for the
     distributed K80 runs), predict the rest; inputs p = gpus,
     b = batch_per_gpu.
  4. Ernest's Spark example (7 runs), fit cores <= 16, predict 32;
     inputs p = cores, n = input_fraction (the count); shipped candidates
     expressions/ernest.yaml and Amdahl's law per unit of input
     (t0 + n (s + v / p)), both with Ernest's loss (sse).

Then the speed: formulas scored per second on the quick start's 224 rows
(expressions/ddp-generic.yaml's data) and the wall time of a default
`scalefit discover expressions/ddp-generic.yaml --threads 1` (target: under
5 s).  Every run: --threads 1, the default seed.

Usage: /usr/bin/python3 bench/discover_campaigns.py [CAMPAIGN...]
       (from the built tree; CAMPAIGN is agpubench, pollux, tfcnn, ernest
       or speed; default all)
"""

import csv
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import accuracy_agpubench as ag  # noqa: E402
from lodo import with_prior  # noqa: E402
import accuracy_pollux_tfcnn as pt  # noqa: E402

TOP = os.path.abspath(os.path.join(HERE, ".."))
# the prior.json dataset of each campaign's data file (bench/lodo.py)
DATASET = {ag.DATA: "agpubench", pt.POLLUX: "pollux", pt.TFCNN: "tfcnn"}
SCALEFIT = os.environ.get("SCALEFIT", os.path.join(TOP, "src", "scalefit"))
ERNEST = os.path.join(TOP, "datasets", "ernest_spark_rcv1",
                      "spark_lr_rcv1.csv")


def run(args):
    out = subprocess.run([SCALEFIT] + args + ["--threads", "1", "--json",
                                              "-q"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(" ".join(args) + ": " + out.stderr)
    return json.loads(out.stdout)


def discovered(directory, tag, data, where, output, inputs, train):
    """Discover on the training rows, validate the file it wrote."""
    model = os.path.join(directory, tag + ".yaml")
    out = os.path.join(directory, tag + "-discovered.yaml")
    with open(model, "w") as f:
        f.write(f"name: {tag}\ndata:\n  file: {data}\n"
                + (f"  where: \"{where}\"\n" if where else "")
                + f"  output: {output}\ninputs:\n"
                + "".join(f"  {k}: {v}\n" for k, v in inputs))
    start = time.monotonic()
    d = run(["discover", model, "--train", train, "-o", out])["discover"]
    seconds = time.monotonic() - start
    with open(out) as f:
        text = f.read()
    with open(out, "w") as f:
        f.write(with_prior(text, DATASET.get(data, "")))
    v = run(["validate", out, "--train", train])["validation"]
    w = d["board"][d["winner"] - 1]
    return w, v, seconds


def header(title):
    print(f"\n### {title}\n")
    print("| group | train | test | shipped (compare) | test MAPE "
          "| discovered: extrap. CV | test MAPE | discover s | formula |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---|")


def row(name, shipped, vs, w, vd, seconds):
    print(f"| {name} | {vd['rows'] - vd['rows_predicted']} "
          f"| {vd['rows_predicted']} | {shipped} | {vs['mape']:.2f}% "
          f"| {w['extrapolation_mape']:.2f}% | {vd['mape']:.2f}% "
          f"| {seconds:.2f} | `{w['formula']}` |")


def summary(name, shipped, validations):
    """The campaign's mean test MAPE, shipped against discovered, and the
    discovered files' own 95% intervals (validate's): the mean over the
    groups with intervals of their coverage and half-width."""
    found = [v["mape"] for v in validations]
    n = len(found)
    better = sum(1 for s, d in zip(shipped, found) if d <= s)
    scored = [v for v in validations if v.get("interval_rows", 0) > 0]
    intervals = (
        f"; the discovered files' 95% intervals over {len(scored)} groups: "
        f"coverage {sum(v['coverage95'] for v in scored) / len(scored):.1f}%"
        f", half-width "
        f"{sum(v['mean_halfwidth_pct'] for v in scored) / len(scored):.1f}%"
        if scored else "")
    print(f"\n{name}: mean test MAPE over {n} groups: shipped "
          f"{sum(shipped) / n:.2f}%, discovered {sum(found) / n:.2f}% "
          f"(discovered at least as good in {better} of {n}){intervals}")


def agpubench(directory):
    header("1. a-GPUBench workers: GTX 1080 Ti, fit 1-4 GPUs, predict 8")
    inputs = [("p", "gpus"), ("b", "global_batch / gpus"),
              ("n", "global_batch * iterations"), ("t", "cpu_threads")]
    shipped, found = [], []
    for network, framework in ag.GROUPS:
        tag = f"{network}-{framework}"
        where = (f"network == '{network}' && framework == '{framework}'"
                 " && gpu == 'GTX 1080 Ti'")
        # The shipped choice, as accuracy_agpubench.py's campaign 1.
        cands = [ag.write_model(directory, f"{tag}-{f}",
                                f"{where} && gpus <= 4", f)
                 for f in ["ddp", "ddp-noio", "dp", "pipe", "lattuada"]]
        ranking = [c for c in run(["compare"] + cands)["comparison"]
                   ["candidates"] if not c["failed"]]
        best = min(ranking, key=lambda c: c["cv_mape"]
                   if c["cv_mape"] is not None else 1e300)
        formula = best["model"].split(f"{tag}-", 1)[1]
        full = ag.write_model(directory, f"{tag}-{formula}-all", where,
                              formula)
        vs = run(["validate", full, "--train", "p <= 4"])["validation"]
        w, vd, seconds = discovered(directory, tag + "-d", ag.DATA, where,
                                    "train_time_s", inputs, "p <= 4")
        shipped.append(vs["mape"])
        found.append(vd)
        row(f"{network} / {framework}", formula, vs, w, vd, seconds)
    summary("a-GPUBench", shipped, found)


def pollux(directory):
    header("2. Pollux / AdaptDL (T4): fit gpus <= 16, predict 20-64")
    inputs = [("p", "gpus"), ("nn", "nodes"), ("b", "batch_per_gpu")]
    with open(pt.POLLUX, newline="") as f:
        jobs = sorted({r["job"] for r in csv.DictReader(f)})
    shipped, found = [], []
    for job in jobs:
        where = f"job == {pt.quote(job)}"
        formula, _, vs = pt.evaluate(
            directory, f"pollux-{job}", pt.POLLUX, where, "gpus <= 16",
            lambda fm: pt.FORMULAS[fm]["train"], ["pollux", "generic"],
            pt.KFOLD["pollux"])
        w, vd, seconds = discovered(directory, f"pollux-{job}-d",
                                    pt.POLLUX, where, "step_time_s",
                                    inputs, "p <= 16")
        shipped.append(vs["mape"])
        found.append(vd)
        row(job, formula, vs, w, vd, seconds)
    summary("Pollux", shipped, found)


def tfcnn(directory):
    header("3. tf_cnn_benchmarks: fit gpus <= 4 (<= 16 distributed), "
           "predict the rest")
    inputs = [("p", "gpus"), ("b", "batch_per_gpu")]
    shipped, found, skipped = [], [], 0
    for key, limit, held_out in pt.tfcnn_series():
        if not held_out:
            skipped += 1
            continue
        where, tag = pt.series_where(key), pt.series_tag(key)
        formula, _, vs = pt.evaluate(
            directory, tag, pt.TFCNN, where, f"gpus <= {limit}",
            lambda fm: f"p <= {limit}", ["gustafson", "amdahl"],
            pt.KFOLD["tfcnn"])
        w, vd, seconds = discovered(directory, tag + "-d", pt.TFCNN, where,
                                    "step_time_s", inputs,
                                    f"p <= {limit}")
        shipped.append(vs["mape"])
        found.append(vd)
        row(" / ".join(key), formula, vs, w, vd, seconds)
    summary("tf_cnn_benchmarks", shipped, found)
    print(f"({skipped} series not scored: nothing above the training "
          "range)")


ERNEST_FORMULAS = {
    "ernest": pt.shipped("ernest"),
    "amdahl-n": """inputs:
  p: cores
  n: input_fraction
parameters:
  t0: {min: 0, max: 100}
  s: {min: 0, max: 1000}
  v: {min: 0, max: 1000}
time: t0 + n * (s + v / p)
fit: {loss: sse}
""",
}


def ernest(directory):
    header("4. Ernest (Spark, 7 runs): fit cores <= 16, predict 32")
    paths = {}
    for name, body in ERNEST_FORMULAS.items():
        for part, where in (("train", "cores <= 16"), ("all", None)):
            path = os.path.join(directory, f"ernest-{name}-{part}.yaml")
            with open(path, "w") as f:
                f.write(f"name: {name}\ndata:\n  file: {ERNEST}\n"
                        + (f"  where: \"{where}\"\n" if where else "")
                        + f"  output: time_s\n{body}")
            paths[name, part] = path
    ranking = [c for c in run(["compare", "--kfold", "3"]
                              + [paths[n, "train"] for n in
                                 ERNEST_FORMULAS])["comparison"]
               ["candidates"] if not c["failed"]
               and c["cv_mape"] is not None]
    formula = min(ranking, key=lambda c: c["cv_mape"])["model"]
    vs = run(["validate", paths[formula, "all"], "--train", "p <= 16"])[
        "validation"]
    # Ernest fits squared errors: so does the discovered formula.
    model = os.path.join(directory, "ernest-d.yaml")
    w, vd, seconds = None, None, 0
    with open(model, "w") as f:
        f.write(f"name: ernest-d\ndata:\n  file: {ERNEST}\n  output: "
                "time_s\ninputs:\n  p: cores\n  n: input_fraction\n"
                "fit: {loss: sse}\n")
    out = os.path.join(directory, "ernest-d-discovered.yaml")
    start = time.monotonic()
    d = run(["discover", model, "--train", "p <= 16", "-o", out])[
        "discover"]
    seconds = time.monotonic() - start
    vd = run(["validate", out, "--train", "p <= 16"])["validation"]
    w = d["board"][d["winner"] - 1]
    row("Spark LR / RCV1", formula, vs, w, vd, seconds)
    summary("Ernest", [vs["mape"]], [vd])


def speed():
    print("\n### 5. Speed (one thread)\n")
    model = os.path.join(TOP, "expressions", "ddp-generic.yaml")
    times = []
    for _ in range(3):
        start = time.monotonic()
        d = run(["discover", model])["discover"]
        times.append(time.monotonic() - start)
    times.sort()
    print(f"quick start data ({d['rows']} rows, {d['shapes']} term "
          f"shapes): {d['evaluated']} formulas scored in "
          f"{d['seconds']['elapsed']:.3f} s, "
          f"{d['seconds']['formulas_per_second']:.0f} a "
          f"second; wall time of `scalefit discover "
          f"expressions/ddp-generic.yaml --threads 1` (search, the "
          f"file's own formula, the final fit): median of 3 "
          f"{times[1]:.2f} s (target 5 s)")


def main():
    chosen = sys.argv[1:] or ["agpubench", "pollux", "tfcnn", "ernest",
                              "speed"]
    with tempfile.TemporaryDirectory() as directory:
        for name in chosen:
            if name == "speed":
                speed()
            else:
                globals()[name](directory)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as e:  # a scalefit run failed: no table from it
        sys.exit("discover_campaigns.py: " + str(e).strip())
