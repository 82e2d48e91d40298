#!/usr/bin/python3
"""The prior of the model error beyond the fitted range (fit/interval.h),
fitted on a reference corpus of real scaling campaigns.

A formula fitted on the small scales of a campaign misses its large ones
by some error per doubling of distance; how large, across formulas and
workloads, is what a new dataset's own forward chain is weighed against.
This script measures it and fits the prior:

  corpus    every group of the bundled datasets measured at 4 or more
            worker counts (datasets/README.md): a-GPUBench (network,
            framework, GPU), Pollux (job), ElasticFlow (job), Gavel
            (model, GPU, placement), tf_cnn_benchmarks (series), each cut
            at a worker count with at least 3 levels below it (fit at most
            the cut, predict the rest; several cuts where the levels allow).
            DeepBench's all-reduce times are left out: `init` has no
            formula for a message size.
  paths     the new user's two: `scalefit init` on the group's CSV (the
            generic data-parallel formula cut to its inputs), and the
            formula `scalefit discover --train --members 1` finds.
  evidence  for each, `scalefit fit` on the training rows gives the forward
            chain's cuts (prediction_interval.chain: each cut's error per
            doubling m, how far below the top its levels end b, and the
            variance its noise explains), of which those along the worker
            input count (fit/interval.c gives each input the error its own
            cuts show); `scalefit validate --train` the error per doubling
            z beyond the cut (the slope through the origin of ln(observed /
            predicted) on the distance) and the scored rows' sum D^3 / sum
            D^2, their reach (the slope gamma a chain's line carries beyond
            its top adds gamma / 2 times it to z).
  fit       the scale a, noise weight r (the prior's scale at a fit's
            noise sigma is s0 = sqrt(a^2 + (r sigma)^2)), degrees of
            freedom nu0 and bias weight kappa0 of the prior whose 95%
            intervals for every z given its own chain, through the same
            posterior as fit/interval.c (replicated below), have the least
            mean interval score (width plus 40 times the miss: calibrated
            and sharp); and the same leaving out each dataset in turn
            (leave-one-dataset-out), so that no dataset calibrates its own
            intervals.  It prints the held-out score of this prior, of one
            scale for every noise (r = 0: the evidence that the noise term
            earns its place) and of every input's cuts pooled into one
            error (the evidence for one error per input); and with each
            share of s0 by which a chain of SF_INTERVAL_TREND_CUTS cuts or
            more may scatter about its line (SF_INTERVAL_CUT_SCATTER:
            not fitted, as the corpus has few such chains); and whether
            the bias's prior should lean to the slow side (a lean fitted
            and scored held out: fit/interval.c has none), or the interval
            be skewed, wider on the slow side and narrower on the fast
            (skew_report: fit/interval.c's is symmetric about its centre).
  hardware  the scale h along an input that is a hardware speed
            (fit.prior.hardware), atop the prior held, on campaigns
            fitted on the slower GPUs and scored on the fastest: Gavel's
            (K80 and P100 -> V100) and a-GPUBench's (-> GTX 1080 Ti), each
            through a formula whose compute is divided by the GPU's TFLOPS
            g, its error per doubling along g alone; every dataset's, and
            each dataset's fitted on the other's.

It prints the prior (compare with SF_INTERVAL_PRIOR_* in fit/interval.h:
"stale" when they differ), the leave-one-dataset-out priors, and writes
them to bench/prior.json, which the accuracy benchmarks read to put a
dataset's own left-out prior into the model files they write (fit.prior,
scalefit-model(5)).

Usage: /usr/bin/python3 bench/prior.py [--jobs N] [--save FILE | --load FILE]
(from the built tree; under a minute on two cores; --save keeps the
evidence, --load fits from evidence saved by the same build)
"""

import csv
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from scipy import optimize, stats

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                   ".."))
SCALEFIT = os.environ.get("SCALEFIT", os.path.join(TOP, "src", "scalefit"))
DATA = os.path.join(TOP, "datasets")


def rows_of(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def grouped(path, key, keep, worker, where=None):
    out = {}
    for r in rows_of(path):
        if where is not None and not where(r):
            continue
        if not r.get(worker) or not all(r.get(k) for k in keep):
            continue
        out.setdefault(tuple(r[k] for k in key), []).append(
            {k: r[k] for k in keep})
    return out


def cuts_of(levels, most):
    """Cuts with at least 3 levels at or below and a level above."""
    return [c for c in levels[2:-1] if c in most] or []


def campaigns():
    """(dataset, name, rows, worker column, cuts)"""
    out = []
    specs = [
        ("agpubench", "agpubench_gpu_training/training_times.csv",
         ["network", "framework", "gpu"],
         ["gpus", "global_batch", "iterations", "cpu_threads",
          "train_time_s"], "gpus", (2, 3, 4)),
        ("pollux", "pollux_adaptdl_t4/step_times.csv", ["job"],
         ["gpus", "nodes", "batch_per_gpu", "step_time_s"], "gpus",
         (8, 16)),
        ("elasticflow", "elasticflow_a100/throughputs.csv", ["job"],
         ["gpus", "nodes", "global_batch", "batch_per_gpu", "step_time_s"],
         "gpus", (4, 8, 16)),
        ("gavel", "gavel_throughputs/throughputs.csv",
         ["model", "gpu", "consolidated"],
         ["gpus", "batch_per_gpu", "step_time_s"], "gpus", (4,)),
        ("tfcnn", "tf_cnn_benchmarks_2017/images_per_sec.csv",
         ["platform", "model", "variable_update", "data"],
         ["gpus", "batch_per_gpu", "global_batch", "step_time_s"], "gpus",
         (4, 16)),
    ]
    for dataset, path, key, keep, worker, allowed in specs:
        for k, rs in sorted(grouped(os.path.join(DATA, path), key, keep,
                                    worker).items()):
            levels = sorted({float(r[worker]) for r in rs})
            if len(levels) < 4:
                continue
            cuts = [c for c in levels[2:-1] if c in allowed]
            name = dataset + "-" + "-".join(
                "".join(ch for ch in part if ch.isalnum()) for part in k)
            if cuts:
                out.append((dataset, name, rs, worker, cuts))
    return out


def run(args, cwd):
    threads = ["--threads", "1"] if args[0] != "init" else []
    p = subprocess.run([SCALEFIT] + args + threads, cwd=cwd,
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def input_of(model, column):
    """The input of model text whose expression is column."""
    block = re.search(r"^inputs:\n((?:  .*\n)+)", model, re.M).group(1)
    for line in block.splitlines():
        name, expr = line.strip().split(":", 1)
        if expr.split("#")[0].strip().strip('"') == column:
            return name
    return None


def slope(points):
    """The least-squares slope through the origin of e on D."""
    sde = sum(d * e for d, e in points)
    sdd = sum(d * d for d, _ in points)
    return sde / sdd if sdd > 0 else None


def beyond(directory, model, train, along=None):
    """model's predictions of the rows beyond the training rows where
    train holds: line -> (distance in doublings, observed, predicted),
    positive times only; None when validate failed.  The distance is
    validate's over every input, or when along is (an input's name, its
    top training value) the distance along it of the rows beyond the
    range along it alone."""
    rc, out, _ = run(["validate", model, "--train", train, "--json", "-q"],
                     directory)
    if rc != 0:
        return None
    found = {}
    for p in json.loads(out)["validation"]["predictions"]:
        d = p.get("distance")
        if along is not None and d:
            own = math.log2(p[along[0]] / along[1])
            d = own if abs(d - own) < 1e-9 else 0
        if d and d > 0 and p["predicted"] > 0 and p["observed"] > 0:
            found[p["line"]] = (d, p["observed"], p["predicted"])
    return found


def write_rows(directory, rows):
    """rows written to directory/data.csv."""
    with open(os.path.join(directory, "data.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def init_model(directory, rows, worker):
    """rows written to directory/data.csv and `scalefit init` run on it
    into init.yaml: the name of its input for the worker column, or None
    when init failed or has none."""
    write_rows(directory, rows)
    if run(["init", "data.csv", "-o", "init.yaml"], directory)[0] != 0:
        return None
    with open(os.path.join(directory, "init.yaml")) as f:
        return input_of(f.read(), worker)


def evidence(directory, model, where, train, worker, along=None):
    """The chain of the fit on the training rows, the worker input's name
    and z beyond them (their distances as beyond() takes them)."""
    rc, out, err = run(["fit", model, "--where", where, "--json", "-q",
                        "--residuals", "none"], directory)
    if rc != 0:
        return None
    pi = json.loads(out).get("prediction_interval")
    if pi is None:
        return None
    rows = beyond(directory, model, train, along)
    if not rows:
        return None
    z = slope([(d, math.log(obs / pred)) for d, obs, pred in rows.values()])
    if z is None or pi["errors"] != "multiplicative":
        return None  # the corpus's fits all have relative errors
    # what a slope gamma carried beyond the top adds to z: gamma / 2 sum
    # D^3 / sum D^2 (the slope through the origin of gamma D^2 / 2 on D)
    reach = (sum(d ** 3 for d, _, _ in rows.values()) /
             sum(d ** 2 for d, _, _ in rows.values()))
    # both noises kept for --save: the prior uses sigma, their larger
    return {"sigma": pi["sigma"], "sigma_residual": pi["sigma_residual"],
            "sigma_replicates": pi["sigma_replicates"],
            "chain": pi.get("chain", []), "input": worker, "z": z,
            "reach": reach, "disagreement": pi["prior"].get("disagreement")}


def one(job):
    dataset, name, rows, worker, cut = job
    with tempfile.TemporaryDirectory() as d:
        x = init_model(d, rows, worker)
        if x is None:
            return []
        where, train = f"{worker} <= {cut:g}", f"{x} <= {cut:g}"
        found = []
        e = evidence(d, "init.yaml", where, train, x)
        if e:
            found.append(dict(e, dataset=dataset, name=name, cut=cut,
                              path="init"))
        rc, _, _ = run(["discover", "init.yaml", "--train", train,
                        "--members", "1", "-o", "found.yaml", "-q"], d)
        if rc == 0:
            e = evidence(d, "found.yaml", where, train, x)
            if e:
                found.append(dict(e, dataset=dataset, name=name, cut=cut,
                                  path="discover"))
        return found


# A hardware speed (fit.prior.hardware): campaigns fitted on the slower
# GPUs and scored on the fastest, with a formula whose per-sample compute
# is divided by the GPU's peak TFLOPS g, the workers inside their training
# range.  Gavel's GPUs by their spec sheets' single-precision peaks: K80
# one GK210 at boost 4.37, P100 (PCIe) 9.3, V100 (SXM2) 15.7 (the other
# variants move the V100's distance by at most a fifth of a doubling);
# a-GPUBench's by its gpu_gflops column.
GAVEL_TFLOPS = {"K80": 4.37, "P100": 9.3, "V100": 15.7}
HARDWARE = [
    ("gavel", "gavel_throughputs/throughputs.csv", ["model", "consolidated"],
     ["gpu", "gpus", "batch_per_gpu", "step_time_s"],
     lambda r: GAVEL_TFLOPS[r["gpu"]],
     lambda top: " || ".join(f"gpu == '{k}'" for k, v in
                             GAVEL_TFLOPS.items() if v <= top),
     "  p: gpus\n  b: batch_per_gpu\n  g: \"if(gpu == 'V100', "
     f"{GAVEL_TFLOPS['V100']}, if(gpu == 'P100', {GAVEL_TFLOPS['P100']}, "
     f"{GAVEL_TFLOPS['K80']}))\"\n",
     "a + c * b / g + l * log2(p) + w * (p - 1) / p"),
    ("agpubench", "agpubench_gpu_training/training_times.csv",
     ["network", "framework"],
     ["gpu_gflops", "gpus", "global_batch", "iterations", "train_time_s"],
     lambda r: float(r["gpu_gflops"]) / 1000,
     lambda top: f"gpu_gflops <= {1000 * top:g}",
     "  p: gpus\n  b: global_batch / gpus\n  n: global_batch * iterations\n"
     "  g: gpu_gflops / 1000\n",
     "t0 + n / (p * b) * (a + c * b / g + l * log2(p) + w * (p - 1) / p)"
     " + r * n"),
]
HARDWARE_BOUNDS = {"t0": 2000, "a": 10, "c": 10, "l": 10, "w": 10,
                   "r": 0.1}


def hardware_campaigns():
    """(dataset, name, rows, model text, the training rows' where and top
    g): each group measured on 3 GPUs or more, fitted on all but the
    fastest and scored on it, at the worker counts the slower ones were
    measured at."""
    out = []
    for dataset, path, key, keep, speed, slower, inputs, time in HARDWARE:
        for k, rs in sorted(grouped(os.path.join(DATA, path), key, keep,
                                    "gpus").items()):
            speeds = sorted({speed(r) for r in rs})
            if len(speeds) < 3:
                continue
            slow = [r for r in rs if speed(r) < speeds[-1]]
            most = max(float(r["gpus"]) for r in slow)
            rs = [r for r in rs if float(r["gpus"]) <= most]
            output = keep[-1]
            params = [x for x in HARDWARE_BOUNDS
                      if re.search(rf"\b{x}\b", time)]
            model = (f"name: hardware\ndata:\n  file: data.csv\n"
                     f"  output: {output}\ninputs:\n{inputs}parameters:\n"
                     + "".join(f"  {x}: {{min: 0, max: "
                               f"{HARDWARE_BOUNDS[x]}}}\n" for x in params)
                     + f"time: {time}\nfit: {{loss: relative, prior: "
                     "{hardware: g}}\n")
            name = dataset + "-" + "-".join(
                "".join(ch for ch in part if ch.isalnum()) for part in k)
            out.append((dataset, name, rs, model, slower(speeds[-2]),
                        speeds[-2]))
    return out


def hardware_one(job):
    """The case of one hardware campaign: z along g alone."""
    dataset, name, rows, model, where, top = job
    with tempfile.TemporaryDirectory() as d:
        write_rows(d, rows)
        with open(os.path.join(d, "hardware.yaml"), "w") as f:
            f.write(model)
        e = evidence(d, "hardware.yaml", where, f"g <= {top * 1.001:g}", "g",
                     along=("g", top))
        return [dict(e, dataset=dataset, name=name, cut=top, path="shipped",
                     kind="hardware")] if e else []


def prior_variance(case, p):
    """s0^2, the prior's squared scale at the case's noise and, when
    discover measured it, its formulas' disagreement G (fit/interval.c's
    prior_scale_at); along a hardware speed h's (hardware_scale_at)."""
    noise = (p["noise_weight"] * case["sigma"]) ** 2
    if case.get("kind") == "hardware":
        return p["hardware_scale"] ** 2 + noise
    g = case.get("disagreement")
    if g is None:
        return p["scale"] ** 2 + noise
    return (p["agreed_scale"] ** 2 + noise +
            (p["disagreement_weight"] * g) ** 2)


def posterior(case, p):
    """fit/interval.c's posterior under prior p: the centre, scale and
    degrees of freedom of the case's error per doubling beyond the range
    (z), its line's slope carried included (over the case's
    distances)."""
    dof, kappa0 = p["dof"], p["bias_weight"]
    c2 = prior_variance(case, p)
    s0 = s1 = s2 = t0 = t1 = 0.0
    # the cuts along the input extrapolated (None: every input's pooled)
    cuts = [k for k in case["chain"]
            if case["input"] is None or k["input"] == case["input"]]
    # how far they scatter about their line (fit/interval.c's chain_line)
    line = len(cuts) >= p["trend_cuts"]
    w2 = c2 * (p["cut_scatter"] ** 2 if line else 1.0)
    for k in cuts:
        u = 1 / (k["noise"] + w2)
        s0 += u
        s1 += u * k["below"]
        s2 += u * k["below"] ** 2
        t0 += u * k["slope"]
        t1 += u * k["slope"] * k["below"]
    s2 += 1 / c2
    det = s0 * s2 - s1 * s1
    # the cuts' own line (ridge on its slope), for their residuals
    a = (t0 * s2 - t1 * s1) / det if det > 0 else 0.0
    b = (s0 * t1 - s1 * t0) / det if det > 0 else 0.0
    ss = 0.0
    for k in cuts:
        r = k["slope"] - (a + b * k["below"])
        ss += max(0.0, r * r - k["noise"])
    # the level and slope jointly, the bias's prior N(lean, c2 / kappa0)
    # too (lean 0 in fit/interval.c: lean_report)
    a0 = s0 + kappa0 / c2
    t0 += kappa0 / c2 * p.get("lean", 0.0)
    adet = a0 * s2 - s1 * s1
    bias = (t0 * s2 - t1 * s1) / adet
    nu = dof + len(cuts)
    growth2 = (dof * c2 + ss) / nu + s2 / adet
    # a line of its own carries its slope gamma beyond the top, over the
    # case's distances
    if line:
        gamma = -(a0 * t1 - s1 * t0) / adet
        reach = case["reach"]
        bias += gamma / 2 * reach
        growth2 += a0 / adet / 4 * reach ** 2 + s1 / adet * reach
    return bias, math.sqrt(growth2), nu


LEVEL = 0.95


def intervals(p, cases):
    """The centre and half-width of each case's 95% interval of z under
    prior p."""
    post = [posterior(c, p) for c in cases]
    q = stats.t.ppf(0.5 + LEVEL / 2, [x[2] for x in post])
    return [(mu, t * sd) for (mu, sd, _), t in zip(post, q)]


def interval_score(p, cases):
    """The mean 95% interval score of the cases' z under prior p
    (Gneiting and Raftery 2007): the interval's width plus 2 / (1 - level)
    times how far z falls outside it.  A proper score of exactly the
    interval the reports give: the prior it picks is the sharpest of those
    that hold."""
    total = 0.0
    for c, (mu, half) in zip(cases, intervals(p, cases)):
        total += 2 * half + 2 / (1 - LEVEL) * max(0.0, abs(c["z"] - mu) -
                                                  half)
    return total / len(cases)


def coverage(p, cases):
    """The share of the cases' z inside their 95% interval under p."""
    return sum(abs(c["z"] - mu) <= half for c, (mu, half)
               in zip(cases, intervals(p, cases))) / len(cases)


# Where the prior may lie: a scale from 1% to 100% per doubling, 2 to 50
# cuts' worth of evidence (below 2 the prior's growth has no finite
# variance and its t quantile runs away), a noise weight from 0.01 to 20.
BOUNDS = [(math.log(0.01), math.log(1.0)), (math.log(2.0), math.log(50)),
          (math.log(0.01), math.log(20))]

# The bias weights tried (how firmly the bias is held at 0): the score is
# not smooth in it, so each is fitted and the best kept.
KAPPAS = (0.5, 1.0, 1.5, 2.0, 3.0, 4.5, 7.0, 10.0)


# Where the prior beside a known disagreement may lie: a' from 1% to 100%
# per doubling, q from 0.001 to 20.
AGREED_BOUNDS = [(math.log(0.01), math.log(1.0)),
                 (math.log(1e-3), math.log(20))]


def prior_of(theta, kappa0, noise, scatter):
    x = [math.exp(t) for t in theta]
    return dict(scatter, scale=x[0], dof=x[1], bias_weight=kappa0,
                noise_weight=x[2] if noise else 0.0, agreed_scale=x[0],
                disagreement_weight=0.0)


def without_disagreement(cases):
    return [dict(c, disagreement=None) for c in cases]


def fit_agreed(p, cases):
    """p with the a' and q of least interval score on the cases with a
    disagreement (its scale, dof, noise and bias weights held): Nelder-Mead
    within AGREED_BOUNDS from two starts.  p unchanged without such
    cases."""
    known = [c for c in cases if c.get("disagreement") is not None]
    if not known:
        return p

    def score(theta):
        if any(not lo <= t <= hi for t, (lo, hi) in zip(theta,
                                                         AGREED_BOUNDS)):
            return math.inf
        return interval_score(dict(p, agreed_scale=math.exp(theta[0]),
                                   disagreement_weight=math.exp(theta[1])),
                              known)

    best = None
    for start in ((0.05, 1.0), (0.1, 0.3)):
        r = optimize.minimize(score, [math.log(v) for v in start],
                              method="Nelder-Mead",
                              options={"xatol": 1e-3, "fatol": 1e-6,
                                       "maxiter": 600})
        if best is None or r.fun < best.fun:
            best = r
    return dict(p, agreed_scale=math.exp(best.x[0]),
                disagreement_weight=math.exp(best.x[1]))


# Where the prior's scale along a hardware speed may lie: 1% to 300% per
# doubling.
HARDWARE_SCALE_BOUNDS = (math.log(0.01), math.log(3.0))


def fit_hardware(p, cases):
    """p with the hardware scale h of least interval score on the cases
    along a hardware speed (the rest held); p unchanged without any."""
    if not cases:
        return p
    r = optimize.minimize_scalar(
        lambda x: interval_score(dict(p, hardware_scale=math.exp(x)), cases),
        bounds=HARDWARE_SCALE_BOUNDS, method="bounded",
        options={"xatol": 1e-4})
    return dict(p, hardware_scale=math.exp(r.x))


def hardware_report(hardware, now, lodo):
    """The scale along a hardware speed: fitted atop the header's prior
    on every hardware case, and atop each dataset's left-out prior on the
    other datasets' (its left-out value), scored on its own cases against
    the workers' scale there.  Returns the left-out values."""
    every = fit_hardware(now, hardware)["hardware_scale"]
    stale = abs(round(every, 3) - now["hardware_scale"]) > 1e-9
    print(f"along a hardware speed ({len(hardware)} cases: fitted on the "
          f"slower GPUs, scored on the fastest): scale {every:.3f} atop "
          f"fit/interval.h's prior; it has {now['hardware_scale']}"
          f"{': stale' if stale else ''}")
    out = {}
    for d in sorted(lodo):
        held = [c for c in hardware if c["dataset"] == d]
        q = fit_hardware(lodo[d], [c for c in hardware
                                   if c["dataset"] != d])
        out[d] = q["hardware_scale"]
        if not held:
            continue
        same = dict(q, hardware_scale=q["scale"])
        print(f"  without {d:12} scale {out[d]:.3f}: "
              f"{100 * coverage(q, held):.1f}% of its {len(held)} errors "
              f"per doubling inside the 95% interval, score "
              f"{interval_score(q, held):.3f}; with the workers' scale "
              f"{q['scale']:.3f}: {100 * coverage(same, held):.1f}%, "
              f"{interval_score(same, held):.3f}")
    return out


# Where the lean may lie: from -0.2 to 0.2 per doubling.
LEAN_BOUNDS = (-0.2, 0.2)


def fit_lean(p, cases):
    """p with the lean, the bias's prior mean, of least interval score on
    the cases (the rest held, every case as if no disagreement were
    known)."""
    blind = without_disagreement(cases)
    r = optimize.minimize_scalar(
        lambda x: interval_score(dict(p, lean=x), blind), bounds=LEAN_BOUNDS,
        method="bounded", options={"xatol": 1e-4})
    return dict(p, lean=r.x)


def fit_prior(cases, noise=True, scatter=None):
    """The prior of cases with the least interval score: per kappa0 of
    KAPPAS, the scale, dof and (noise False: held at 0) noise weight by
    Nelder-Mead within BOUNDS, every case as if no disagreement were known
    (what init's files and the shipped formulas get); then a' and q on
    the cases with one (fit_agreed).  scatter: how a chain's cuts scatter
    about their line (scattering(), fit/interval.h's when None), held.

    It was maximum likelihood once; but the likelihood scores the whole
    density, and with each input's own chain it ran nu0 to its bound 2
    with a small scale, the corpus's bulk, whose 95% intervals held 85-86%
    of a-GPUBench's and Gavel's errors left out (and 76% of
    tests/test_interval's formula with a missing contention term)."""
    n = 3 if noise else 2
    blind = without_disagreement(cases)
    scatter = scatter or scattering()

    def score(theta, kappa0):
        if any(not lo <= t <= hi for t, (lo, hi) in zip(theta, BOUNDS)):
            return math.inf
        return interval_score(prior_of(theta, kappa0, noise, scatter),
                              blind)

    best = None
    for kappa0 in KAPPAS:
        r = optimize.minimize(score, [math.log(v) for v in (0.1, 5, 1)][:n],
                              args=(kappa0,), method="Nelder-Mead",
                              options={"xatol": 1e-3, "fatol": 1e-6,
                                       "maxiter": 600})
        if best is None or r.fun < best[0]:
            best = (r.fun, prior_of(r.x, kappa0, noise, scatter))
    return fit_agreed(best[1], cases)


def lean_report(cases, now, lodo):
    """Whether the bias's prior should lean toward slower (issue 26: the
    misses beyond the range one-sided): the lean fitted atop the header's
    prior on every dataset, and atop each left-out prior on the other
    datasets, scored on the one left out against no lean.  fit/interval.c
    has none (its prior's mean is 0)."""
    every = fit_lean(now, cases)["lean"]
    total = base = 0.0
    leans = []
    for d in sorted(lodo):
        held = [c for c in cases if c["dataset"] == d]
        q = fit_lean(lodo[d], [c for c in cases if c["dataset"] != d])
        leans.append(f"{d} {q['lean']:+.3f}")
        total += interval_score(q, held) * len(held)
        base += interval_score(lodo[d], held) * len(held)
    slower = sum(c["z"] > 0 for c in cases)
    print(f"lean (the bias's prior mean): {every:+.3f} per doubling on every "
          f"dataset ({slower} of {len(cases)} errors beyond on the slow "
          f"side); left out {', '.join(leans)}: held-out interval score "
          f"{total / len(cases):.3f} against {base / len(cases):.3f} "
          "without (fit/interval.c's prior has none)")


# A skew's reach: e^0.5 = 1.65 times the width on the slow side.
SKEW_BOUNDS = (-0.5, 0.5)
SKEWS = (0.1, 0.2, 0.3)


def skewed_score(p, cases, skew, by_chain=False):
    """The mean 95% interval score of the cases' z under prior p, each
    interval's slow half e^skew times its width and its fast half e^-skew
    times (by_chain: skew times the sign of the chain's bias, skewed
    toward the side the chain's cuts missed on)."""
    total = 0.0
    for c, (mu, half) in zip(cases, intervals(p, cases)):
        k = skew * (math.copysign(1, mu) if mu != 0 else 0) if by_chain \
            else skew
        lo, hi = mu - half * math.exp(-k), mu + half * math.exp(k)
        total += hi - lo + 2 / (1 - LEVEL) * (max(0.0, lo - c["z"]) +
                                              max(0.0, c["z"] - hi))
    return total / len(cases)


def skew_report(cases, lodo):
    """Whether the interval should be skewed toward the slow side (issue
    26: the misses beyond the range one-sided), held out: each dataset's
    cases under its left-out prior with a fixed skew, with the skew fitted
    on the other datasets, and skewed toward the side its chain missed on.
    fit/interval.c's interval is symmetric about its centre."""
    datasets = sorted(lodo)

    def held(score):
        return sum(score(d, [c for c in cases if c["dataset"] == d]) *
                   sum(c["dataset"] == d for c in cases)
                   for d in datasets) / len(cases)

    fixed = ", ".join(
        f"{k:g} {held(lambda d, h: skewed_score(lodo[d], h, k)):.3f}"
        for k in SKEWS)
    fitted = {}
    for d in datasets:
        others = [c for c in cases if c["dataset"] != d]
        fitted[d] = optimize.minimize_scalar(
            lambda k: skewed_score(lodo[d], others, k), bounds=SKEW_BOUNDS,
            method="bounded", options={"xatol": 1e-4}).x
    left = held(lambda d, h: skewed_score(lodo[d], h, fitted[d]))
    chain = held(lambda d, h: skewed_score(lodo[d], h, SKEWS[1], True))
    above = below = 0
    for d in datasets:
        mine = [c for c in cases if c["dataset"] == d]
        for c, (mu, half) in zip(mine, intervals(lodo[d], mine)):
            above += c["z"] > mu + half
            below += c["z"] < mu - half
    print(f"skew (the slow half e^k times the width, the fast half e^-k): "
          f"held-out interval score {held(lambda d, h: skewed_score(lodo[d], h, 0)):.3f} "
          f"symmetric ({above} misses on the slow side, {below} on the "
          f"fast); fixed k {fixed}; k fitted without each dataset "
          + ", ".join(f"{d} {fitted[d]:+.3f}" for d in datasets)
          + f": {left:.3f}; toward the chain's side, k {SKEWS[1]:g}: "
          f"{chain:.3f} (fit/interval.c's interval is symmetric)")


def held_out_score(cases, noise=True, scatter=None):
    """The interval score of each dataset's cases under the prior fitted
    without it (leave-one-dataset-out), averaged over the cases; and the
    priors."""
    total, priors = 0.0, {}
    for d in sorted({c["dataset"] for c in cases}):
        held = [c for c in cases if c["dataset"] == d]
        priors[d] = fit_prior([c for c in cases if c["dataset"] != d], noise,
                              scatter)
        total += interval_score(priors[d], held) * len(held)
    return total / len(cases), priors


# The shares of s0 scatter_scan tries.
CUT_SCATTERS = (0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 1.0)


def scatter_scan(cases):
    """The held-out score with each of CUT_SCATTERS as how far a long
    chain's cuts scatter about their line: what the corpus says of
    SF_INTERVAL_CUT_SCATTER (its chains of SF_INTERVAL_TREND_CUTS cuts or
    more are few)."""
    kept = scattering()
    scores = []
    for w in CUT_SCATTERS:
        held = held_out_score(cases, scatter=dict(kept, cut_scatter=w))[0]
        scores.append(f"{w:g} {held:.3f}")
    long = sum(sum(k["input"] == c["input"] for k in c["chain"]) >=
               kept["trend_cuts"] for c in cases)
    print(f"held-out interval score by how far a chain of "
          f"{kept['trend_cuts']:g} cuts or more scatters about its line, a "
          f"share of the prior's scale ({long} of {len(cases)} cases have "
          f"one; fit/interval.h has {kept['cut_scatter']:g}): "
          + ", ".join(scores))


def disagreement_report(cases, lodo):
    """Leave-one-dataset-out, per dataset: the interval score of the
    discovered formulas' cases counting their disagreement and blind to
    it; and of init's formula's cases given the disagreement discover
    measured at the same cut (a' and q fitted on them, without the
    dataset): whether it would help there too."""
    g = {(c["dataset"], c["name"], c["cut"]): c["disagreement"]
         for c in cases if c.get("disagreement") is not None}
    found = [c for c in cases if c.get("disagreement") is not None]
    init = [dict(c, disagreement=g[(c["dataset"], c["name"], c["cut"])])
            for c in cases if c["path"] == "init" and
            (c["dataset"], c["name"], c["cut"]) in g]
    rows = []
    for d in sorted({c["dataset"] for c in found}):
        mine = [c for c in found if c["dataset"] == d]
        others = [c for c in init if c["dataset"] != d]
        inits = [c for c in init if c["dataset"] == d]
        p = lodo[d]
        q = fit_agreed(p, others)
        rows.append((len(mine), interval_score(p, mine),
                     interval_score(p, without_disagreement(mine)),
                     coverage(p, mine), len(inits),
                     interval_score(q, inits) if inits else 0.0,
                     interval_score(p, without_disagreement(inits))
                     if inits else 0.0))
        print(f"  {d:12} discover's {len(mine)}: {rows[-1][1]:.3f} counting"
              f" the disagreement, {rows[-1][2]:.3f} blind to it, "
              f"{100 * rows[-1][3]:.1f}% inside; init's {len(inits)} given "
              f"it: {rows[-1][5]:.3f}, {rows[-1][6]:.3f} blind")

    def mean(k, n):
        total = sum(r[n] for r in rows)
        return sum(r[k] * r[n] for r in rows) / total if total else 0.0
    print(f"the formulas' disagreement, held out: discover's {len(found)} "
          f"cases {mean(1, 0):.3f} counting it, {mean(2, 0):.3f} blind, "
          f"{100 * mean(3, 0):.1f}% inside; init's {len(init)} given it "
          f"{mean(5, 4):.3f}, {mean(6, 4):.3f} blind (init writes none)")


def compiled():
    """fit/interval.h's prior and how its chains' cuts scatter."""
    text = open(os.path.join(TOP, "src", "fit", "interval.h")).read()
    get = lambda n: float(re.search(rf"#define SF_INTERVAL_{n} (\S+)",
                                    text).group(1))
    return {"scale": get("PRIOR_SCALE"), "dof": get("PRIOR_DOF"),
            "bias_weight": get("PRIOR_BIAS_WEIGHT"),
            "noise_weight": get("PRIOR_NOISE_WEIGHT"),
            "agreed_scale": get("PRIOR_AGREED_SCALE"),
            "disagreement_weight": get("PRIOR_DISAGREEMENT_WEIGHT"),
            "hardware_scale": get("PRIOR_HARDWARE_SCALE"),
            "cut_scatter": get("CUT_SCATTER"),
            "trend_cuts": get("TREND_CUTS")}


def scattering():
    """How a chain's cuts scatter about their line: fit/interval.h's (not
    fitted, as the prior's other constants are: scatter_scan)."""
    return {k: compiled()[k] for k in ("cut_scatter", "trend_cuts")}


def option(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main():
    jobs = int(option("--jobs", "2"))
    work = [(ds, name, rows, worker, cut)
            for ds, name, rows, worker, cuts in campaigns() for cut in cuts]
    cases = []
    if option("--load") is not None:
        with open(option("--load")) as f:
            cases = json.load(f)
    else:
        with ThreadPoolExecutor(jobs) as ex:
            for found in ex.map(one, work):
                cases.extend(found)
            for found in ex.map(hardware_one, hardware_campaigns()):
                cases.extend(found)
    if option("--save") is not None:
        with open(option("--save"), "w") as f:
            json.dump(cases, f)
    hardware = [c for c in cases if c.get("kind") == "hardware"]
    cases = [c for c in cases if c.get("kind") != "hardware"]
    if not cases:
        sys.exit("prior.py: no campaign gave evidence: is SCALEFIT built?")
    datasets = sorted({c["dataset"] for c in cases})
    counts = ", ".join(f"{d} {sum(c['dataset'] == d for c in cases)}"
                       for d in datasets)
    print(f"{len(cases)} cases from {len(work)} campaign cuts ({counts}), "
          f"and {len(hardware)} along a hardware speed")
    every = fit_prior(cases)
    held, lodo = held_out_score(cases)
    now = compiled()
    plain = ("scale", "noise_weight", "dof", "bias_weight")
    every = {k: round(v, 3) for k, v in every.items()}
    stale = any(abs(now[k] - every[k]) > 1e-9 for k in plain)
    # the score is flat with many shallow minima: a refit that differs
    # may not be better, so both scores are shown
    blind = without_disagreement(cases)
    scores = (f" (mean interval score on the corpus: the refit "
              f"{interval_score(every, blind):.4f}, the header's "
              f"{interval_score(now, blind):.4f})") if stale else ""
    print(f"prior (every dataset): scale {every['scale']}, noise weight "
          f"{every['noise_weight']}, dof {every['dof']}, bias weight "
          f"{every['bias_weight']}; fit/interval.h has {now['scale']}, "
          f"{now['noise_weight']}, {now['dof']}, "
          f"{now['bias_weight']}{': stale' if stale else ''}{scores}")
    # a' and q atop the header's prior: what fit/interval.c combines
    agreed = {k: round(v, 3) for k, v in fit_agreed(now, cases).items()}
    known = [c for c in cases if c.get("disagreement") is not None]
    stale = any(abs(now[k] - agreed[k]) > 1e-9
                for k in ("agreed_scale", "disagreement_weight"))
    print(f"beside a known disagreement ({len(known)} cases, discover's "
          f"formulas): agreed scale {agreed['agreed_scale']}, disagreement "
          f"weight {agreed['disagreement_weight']} atop fit/interval.h's "
          f"prior; it has {now['agreed_scale']}, "
          f"{now['disagreement_weight']}{': stale' if stale else ''}")
    for d in datasets:
        p = lodo[d]
        held_cases = [c for c in cases if c["dataset"] == d]
        inside = coverage(p, held_cases)
        print(f"  without {d:12} scale {p['scale']:.3f}, noise weight "
              f"{p['noise_weight']:.3f}, dof {p['dof']:.2f}, bias weight "
              f"{p['bias_weight']:.2f}, agreed scale "
              f"{p['agreed_scale']:.3f}, disagreement weight "
              f"{p['disagreement_weight']:.3f}: {100 * inside:.1f}%"
              f" of its {len(held_cases)} errors per doubling inside the 95%"
              f" interval, score {interval_score(p, held_cases):.3f}")
    flat = held_out_score(cases, noise=False)[0]
    pooled = held_out_score([dict(c, input=None) for c in cases])[0]
    print(f"held-out interval score (leave-one-dataset-out, lower is "
          f"better): {held:.3f}; {flat:.3f} with one scale for every noise; "
          f"{pooled:.3f} with every input's cuts pooled into one error per "
          "doubling instead of the worker input's own")
    scatter_scan(cases)
    lean_report(cases, now, lodo)
    skew_report(cases, lodo)
    if known:
        disagreement_report(cases, lodo)
    for d, h in hardware_report(hardware, now, lodo).items():
        lodo[d] = dict(lodo[d], hardware_scale=h)
    every["hardware_scale"] = round(
        fit_hardware(every, hardware)["hardware_scale"], 3)
    with open(os.path.join(TOP, "bench", "prior.json"), "w") as f:
        json.dump({"every": every,
                   "leave_out": {d: {k: round(v, 3) for k, v in p.items()}
                                 for d, p in lodo.items()},
                   "cases": len(cases)}, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
