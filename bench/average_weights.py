#!/usr/bin/python3
"""Which weights make `scalefit predict A.json B.json ...` predict best
beyond the measured range.

predict averages several fits of candidate formulas to the same rows; its
--weights chooses how: extrapolation (the default: the inverse of each
fit's expected squared error a doubling beyond its range, as its forward
chain measured it), aicc (Akaike weights) or equal.  On the bundled
extrapolation campaigns, per group, every candidate formula is fitted
(`scalefit fit -o`) to the training rows only, the fits are averaged with
each weighting (`scalefit predict FITS... --grid TEST.csv --weights W
--json`), and the held-out rows beyond the training range are scored:

  MAPE       100 mean |f - y| / y of the averaged time f;
  cover95    the share of held-out rows inside the 95% interval of a new
             run (the mixture's), in % (mean over groups);
  +-width    its mean relative half-width 100 mean (u - l) / (2 f);
  IS         the interval (Winkler) score as validate's: 100 mean W / y,
             W = (u - l) + 40 (l - y) when y < l, + 40 (y - u) when y > u;
             lower is better.  IS med is the median over groups (the mean
             is ruled by the few groups a formula misses by far).

Against them, single fits (predict FIT.json --grid TEST.csv): compare's
choice by the benches' rule (lowest cross-validated MAPE on the training
rows, as bench/accuracy_agpubench.py and bench/accuracy_pollux_tfcnn.py
choose), compare's default rank (lowest AICc on the training rows), each
candidate alone, and, as a bound no rule reaches, the single fit with the
lowest IS per group in hindsight.

Campaigns (the splits, candidates, losses and compare folds of those two
scripts; every model file carries its dataset's left-out prior,
bench/lodo.py, so no dataset calibrates its own intervals):
  1. a-GPUBench workers: GTX 1080 Ti, per network x framework, fit 1-4
     GPUs, predict 8; ddp, ddp-noio, dp, pipe, lattuada.
  2. Pollux / AdaptDL T4, per job, fit <= 16 GPUs, predict 20-64; pollux
     and generic.
  3. tf_cnn_benchmarks, per series, fit <= 4 GPUs (<= 16 for the
     distributed K80 runs), predict the rest; gustafson and amdahl.
predict averages only fits that share the output and the inputs by name,
so two candidates are restated (their fits to the training rows are the
benches', constant for constant): generic takes Pollux's inputs k = gpus,
m = batch_per_gpu and nn = nodes (unused by its formula, but an input of
its error model), and amdahl is fitted to the step time, p b t1 ((1 - f)
+ f / p), with the relative loss the same fit as the benches' time per
image (b = batch_per_gpu, so p b is the global batch).

A group where a candidate has no interval (the tf_cnn_benchmarks series
with 3 training rows: gustafson's 3 constants leave no residual degrees
of freedom) cannot be averaged (predict stops) and is listed as not
scored; 18 of its 31 series are scored.

Every fit and compare: --threads 1, the default seed; about a minute.
Prints a table per campaign (means over its groups) and a line per group.

Usage: /usr/bin/python3 bench/average_weights.py [CAMPAIGN...]
       (from the built tree; CAMPAIGN is agpubench, pollux or tfcnn;
       default all)
"""

import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import accuracy_agpubench as ag  # noqa: E402
import accuracy_pollux_tfcnn as pt  # noqa: E402
from lodo import with_prior  # noqa: E402

TOP = os.path.abspath(os.path.join(HERE, ".."))
SCALEFIT = os.environ.get("SCALEFIT", os.path.join(TOP, "src", "scalefit"))
WEIGHTS = ("extrapolation", "aicc", "equal")

# generic (accuracy_pollux_tfcnn.py) in Pollux's input names: k for p,
# m for b, and nodes beside them.
GENERIC = re.sub(r"\bb\b", "m", re.sub(r"\bp\b", "k", pt.FORMULAS["generic"][
    "body"].replace("  b: batch_per_gpu\n",
                    "  nn: nodes\n  b: batch_per_gpu\n")))

# expressions/amdahl.yaml on the step time: the time per image times p b.
AMDAHL = """inputs:
  p: gpus
  b: batch_per_gpu
parameters:
  t1: {min: 0.001, max: 10}
  f:  {min: 0, max: 1}
terms:
  serial:   {expr: p * b * t1 * (1 - f), kind: overhead}
  parallel: {expr: b * t1 * f, kind: compute}
time: serial + parallel
fit:
  loss: relative
"""

BODIES = {"pollux": pt.FORMULAS["pollux"]["body"], "generic": GENERIC,
          "gustafson": pt.FORMULAS["gustafson"]["body"], "amdahl": AMDAHL}


def run(args, threads=True):
    out = subprocess.run([SCALEFIT] + args + (["--threads", "1"] if threads
                                              else []) + ["--json", "-q"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(" ".join(args) + ": " + out.stderr.strip())
    return json.loads(out.stdout)


def write_model(directory, name, data, dataset, where, formula):
    """A Pollux or tf_cnn_benchmarks model file on the step time."""
    path = os.path.join(directory, name + ".yaml")
    with open(path, "w") as f:
        f.write(with_prior(f"name: {formula}\ndata:\n  file: {data}\n"
                           f"  where: \"{where}\"\n  output: step_time_s\n"
                           f"{BODIES[formula]}", dataset))
    return path


def write_grid(path, data, keep):
    """The held-out rows of data (every column) into path; their times."""
    with open(data, newline="") as f:
        reader = csv.DictReader(f)
        rows = [r for r in reader if keep(r)]
        fields = reader.fieldnames
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        w.writerows(rows)
    return rows


def score(points, observed):
    """MAPE, coverage, half-width and interval score of predicted points
    (each with time and interval95) against the observed times."""
    ape, inside, half, wink = [], 0, [], []
    for p, y in zip(points, observed):
        f = p["time"]
        ape.append(100 * abs(f - y) / y)
        lo, hi = p["interval95"]
        inside += lo <= y <= hi
        half.append(100 * (hi - lo) / (2 * f))
        w = (hi - lo) + 40 * max(lo - y, 0) + 40 * max(y - hi, 0)
        wink.append(100 * w / y)
    n = len(points)
    return {"rows": n, "mape": sum(ape) / n, "cover": 100 * inside / n,
            "inside": inside, "half": sum(half) / n, "is": sum(wink) / n}


def group(directory, tag, models, kfold, grid, rows, output, name=None):
    """Fit every candidate, choose as compare does, predict the held-out
    rows with every weighting and each fit alone; the scores by method."""
    observed = [float(r[output]) for r in rows]
    cmp_args = ["compare"] + list(models.values())
    if kfold is not None:
        cmp_args += ["--kfold", str(kfold)]
    ranking = [c for c in run(cmp_args)["comparison"]["candidates"]
               if not c["failed"]]
    fitted = {os.path.abspath(c["file"]) for c in ranking}
    fits, alone = {}, {}
    for formula, model in models.items():
        if os.path.abspath(model) not in fitted:
            continue  # compare could not fit it: not a candidate
        out = os.path.join(directory, f"{tag}-{formula}.json")
        run(["fit", model, "-o", out])
        fits[formula] = out
        single = run(["predict", out, "--grid", grid], threads=False)
        if any(p.get("interval95") is None for p in single["points"]):
            # no error model (no residual degrees of freedom): predict
            # cannot average it, validate scores no interval
            return {"tag": name or tag, "skipped": f"{formula}: no "
                    "interval, no residual dof"}
        s = score(single["points"], observed)
        # our scores are validate's (predict's observed_scores)
        o = single["observed_scores"]
        assert abs(o["mape"] - s["mape"]) < 1e-6 * max(1, s["mape"])
        assert abs(o["interval_score"] - s["is"]) < 1e-6 * max(1, s["is"])
        alone[formula] = s
    formula = {os.path.abspath(models[f]): f for f in fits}
    cv = [c for c in ranking if c["cv_mape"] is not None]
    chosen = formula[os.path.abspath(
        min(cv, key=lambda c: c["cv_mape"])["file"])]
    # compare's own first (by AICc; an exact fit's AICc is null: -inf)
    lowest = formula[os.path.abspath(ranking[0]["file"])]
    scores = {}
    weights = {}
    for w in WEIGHTS:
        p = run(["predict"] + list(fits.values()) + ["--grid", grid,
                                                    "--weights", w],
                threads=False)
        weights[w] = {f: m["weight"] for f, m in zip(fits, p["models"])}
        scores[w] = score(p["points"], observed)
    scores["compare (CV MAPE)"] = alone[chosen]
    scores["lowest AICc"] = alone[lowest]
    for f, s in alone.items():
        scores[f"{f} alone"] = s
    scores["hindsight best"] = min(alone.values(), key=lambda s: s["is"])
    return {"tag": name or tag, "rows": len(rows), "chosen": chosen,
            "lowest": lowest, "weights": weights, "scores": scores}


def agpubench(directory):
    formulas = ["ddp", "ddp-noio", "dp", "pipe", "lattuada"]
    out = []
    for network, framework in ag.GROUPS:
        where = (f"network == '{network}' && framework == '{framework}'"
                 f" && gpu == 'GTX 1080 Ti'")
        tag = f"ag-{network}-{framework}"
        models = {f: ag.write_model(directory, f"{tag}-{f}",
                                    f"{where} && gpus <= 4", f)
                  for f in formulas}
        grid = os.path.join(directory, tag + "-test.csv")
        rows = write_grid(grid, ag.DATA, lambda r: (
            r["network"] == network and r["framework"] == framework and
            r["gpu"] == "GTX 1080 Ti" and int(r["gpus"]) > 4))
        out.append(group(directory, tag, models, None, grid, rows,
                         "train_time_s", f"{network}/{framework}"))
    return out


def pollux(directory):
    with open(pt.POLLUX, newline="") as f:
        jobs = sorted({r["job"] for r in csv.DictReader(f)})
    out = []
    for job in jobs:
        tag = f"pollux-{job}"
        models = {f: write_model(directory, f"{tag}-{f}", pt.POLLUX,
                                 "pollux", f"job == {pt.quote(job)} && "
                                 "gpus <= 16", f)
                  for f in ("pollux", "generic")}
        grid = os.path.join(directory, tag + "-test.csv")
        rows = write_grid(grid, pt.POLLUX, lambda r: (
            r["job"] == job and int(r["gpus"]) > 16))
        out.append(group(directory, tag, models, pt.KFOLD["pollux"], grid,
                         rows, "step_time_s", job))
    return out


def tfcnn(directory):
    out = []
    for key, limit, held_out in pt.tfcnn_series():
        if not held_out:
            continue
        platform, model, _, data = key
        where, tag = pt.series_where(key), pt.series_tag(key)
        models = {f: write_model(directory, f"{tag}-{f}", pt.TFCNN, "tfcnn",
                                 f"{where} && gpus <= {limit}", f)
                  for f in ("gustafson", "amdahl")}
        grid = os.path.join(directory, tag + "-test.csv")
        rows = write_grid(grid, pt.TFCNN, lambda r: (
            tuple(r[c] for c in pt.SERIES_KEY) == key
            and int(r["gpus"]) > limit))
        name = (f"{platform.replace('Amazon EC2', 'EC2').replace('Google Compute Engine', 'GCE').replace('NVIDIA ', '')}"
                f"/{model}/{data[:4]}")
        out.append(group(directory, tag, models, pt.KFOLD["tfcnn"], grid,
                         rows, "step_time_s", name))
    return out


def table(title, groups):
    skipped = [g for g in groups if "skipped" in g]
    groups = [g for g in groups if "skipped" not in g]
    print(f"\n### {title}: {len(groups)} groups, "
          f"{sum(g['rows'] for g in groups)} held-out rows\n")
    print("| method | MAPE | cover95 (groups) | cover95 (rows) | +-width "
          "| IS | IS med |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    methods = list(groups[0]["scores"])
    rows = sum(g["rows"] for g in groups)
    for m in methods:
        s = [g["scores"][m] for g in groups]
        mean = {k: sum(x[k] for x in s) / len(s)
                for k in ("mape", "cover", "half", "is")}
        name = f"average: {m}" if m in WEIGHTS else m
        print(f"| {name} | {mean['mape']:.2f}% | {mean['cover']:.1f}% "
              f"| {100 * sum(x['inside'] for x in s) / rows:.1f}% "
              f"| {mean['half']:.1f}% | {mean['is']:.1f} "
              f"| {statistics.median(x['is'] for x in s):.1f} |")
    print("\nper group: held-out rows, MAPE / IS of the averages "
          "(extrapolation, aicc, equal) and of compare's choice [named], "
          "then the extrapolation weights")
    for g in groups:
        sc = g["scores"]
        cells = "  ".join(f"{sc[m]['mape']:5.1f}/{sc[m]['is']:6.1f}"
                          for m in WEIGHTS + ("compare (CV MAPE)",))
        w = " ".join(f"{f}={x:.2f}" for f, x in
                     g["weights"]["extrapolation"].items())
        print(f"  {g['tag'][:34]:34} {g['rows']:4d}  {cells}  "
              f"[{g['chosen']}] {w}")
    if skipped:
        print(f"  not scored ({len(skipped)}): " + "; ".join(
            f"{g['tag']} ({g['skipped']})" for g in skipped))


def main(argv):
    chosen = argv or ["agpubench", "pollux", "tfcnn"]
    campaigns = {"agpubench": ("1. a-GPUBench workers (GTX 1080 Ti, fit "
                               "1-4 GPUs, predict 8)", agpubench),
                 "pollux": ("2. Pollux / AdaptDL T4 (fit <= 16 GPUs, "
                            "predict 20-64)", pollux),
                 "tfcnn": ("3. tf_cnn_benchmarks (fit <= 4 GPUs, <= 16 "
                           "distributed; predict the rest)", tfcnn)}
    unknown = [c for c in chosen if c not in campaigns]
    if unknown:
        sys.exit(f"average_weights.py: unknown campaign {unknown[0]}")
    print("IS = interval score (width + 40 x miss, in % of the time)")
    with tempfile.TemporaryDirectory() as directory:
        for c in chosen:
            title, fn = campaigns[c]
            table(title, fn(directory))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except RuntimeError as e:  # a scalefit run failed: no table from it
        sys.exit("average_weights.py: " + str(e).strip())
